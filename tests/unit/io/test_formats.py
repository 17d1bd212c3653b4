"""What every reader shares: ids stay text, the format comes from the extension or the
keyword, one validation for every format, and read_run/read_qrels tell a run from
judgments."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from reader_files import (
    TRICKY_IDS,
    assert_ids_are_str,
    assert_same_frame,
    parquet,
    strings,
    write,
)

from ragmetrics.io import (
    FormatError,
    read_golden,
    read_results,
    read_trec_qrels,
    read_trec_run,
)

# --- ids are text -------------------------------------------------------------------------


def test_trec_ids_stay_exact_strings(tmp_path):
    lines = [
        f"{q} Q0 {d} {i} 1.5 run"
        for i, (q, d) in enumerate(zip(TRICKY_IDS, TRICKY_IDS[::-1], strict=True))
    ]
    run = read_trec_run(write(tmp_path, "r.run", "\n".join(lines)))
    assert run["query_id"].tolist() == TRICKY_IDS
    assert run["doc_id"].tolist() == TRICKY_IDS[::-1]
    assert_ids_are_str(run)
    qrels_text = "\n".join(f"{q} 0 {q} 1" for q in TRICKY_IDS)
    qrels = read_trec_qrels(write(tmp_path, "q.txt", qrels_text))
    assert qrels["doc_id"].tolist() == TRICKY_IDS
    assert_ids_are_str(qrels)


def test_csv_and_jsonl_ids_stay_exact_strings(tmp_path):
    csv_long = "query_id,doc_id\n" + "".join(f"{q},{q}\n" for q in TRICKY_IDS)
    csv_wide = "query_id,relevant_ids\nq1," + "|".join(TRICKY_IDS) + "\n"
    jsonl = "".join(json.dumps({"query_id": q, "doc_id": q}) + "\n" for q in TRICKY_IDS)
    for name, content in (("a.csv", csv_long), ("b.csv", csv_wide), ("c.jsonl", jsonl)):
        golden = read_golden(write(tmp_path, name, content))
        assert golden["doc_id"].tolist() == TRICKY_IDS, name
        assert_ids_are_str(golden)


def test_json_integer_ids_become_their_decimal_text(tmp_path):
    path = write(tmp_path, "g.jsonl", '{"query_id": 7, "relevant_ids": [42, "042", -1]}\n')
    golden = read_golden(path)
    assert golden["query_id"].tolist() == ["7", "7", "7"]
    assert golden["doc_id"].tolist() == ["42", "042", "-1"]


# --- choosing the format ------------------------------------------------------------------


def test_format_comes_from_the_extension_or_the_keyword(tmp_path):
    expected = pd.DataFrame(
        {"query_id": strings(["q1"]), "doc_id": strings(["c1"]), "relevance": [1]}
    )
    jsonl = '{"query_id": "q1", "doc_id": "c1"}\n'
    for name in ("g.jsonl", "g.ndjson", "G.JSONL"):
        assert_same_frame(read_golden(write(tmp_path, name, jsonl)), expected)
    txt = write(tmp_path, "g.txt", jsonl)
    assert_same_frame(read_golden(txt, format="jsonl"), expected)
    assert_same_frame(read_golden(txt, format="ndjson"), expected)
    tsv = write(tmp_path, "g.dat", "query_id\tdoc_id\nq1\tc1\n")
    assert_same_frame(read_golden(tsv, format="tsv"), expected)
    # A CSV file read as JSONL is malformed, and said to be on line 1.
    with pytest.raises(FormatError, match="line 1: not valid JSON"):
        read_golden(write(tmp_path, "h.csv", "query_id,doc_id\nq1,c1\n"), format="jsonl")


def test_unknown_format_is_a_value_error_naming_the_choices(tmp_path):
    path = write(tmp_path, "g.txt", "query_id,doc_id\nq1,c1\n")
    with pytest.raises(ValueError, match=r"extension '\.txt' \(known: \.csv, \.tsv"):
        read_golden(path)
    with pytest.raises(ValueError, match="format must be one of 'csv', 'tsv', 'jsonl'"):
        read_results(path, format="xml")
    with pytest.raises(ValueError, match="extra_fields must be one of 'error', 'ignore'"):
        read_trec_run(path, extra_fields="skip")


def test_negative_grades_are_kept(tmp_path):
    qrels = read_trec_qrels(write(tmp_path, "q.txt", "1 0 spam -1\n1 0 good 2\n"))
    assert qrels["relevance"].tolist() == [-1, 2]
    golden = read_golden(write(tmp_path, "g.csv", "query_id,doc_id,relevance\n1,spam,-1\n"))
    assert golden["relevance"].tolist() == [-1]


def test_a_golden_grade_of_a_half_is_refused_in_every_format(tmp_path):
    files = {
        "g.csv": write(tmp_path, "g.csv", "query_id,doc_id,relevance\nq1,c1,0.5\n"),
        "g.jsonl": write(tmp_path, "g.jsonl", '{"query_id": "q1", "doc_id": "c1", "relevance": 0.5}'),
        "g.parquet": parquet(tmp_path, "g.parquet", {"query_id": ["q1"], "doc_id": ["c1"],
                                                     "relevance": [0.5]}),
    }
    for name, path in files.items():
        with pytest.raises(FormatError, match=r"relevance must be an integer, got '?0\.5") as caught:
            read_golden(path)
        assert caught.value.line == (2 if name == "g.csv" else 1)


def test_a_doc_judged_twice_is_refused_naming_both_lines(tmp_path):
    with pytest.raises(FormatError) as caught:
        read_trec_qrels(write(tmp_path, "q.txt", "1 0 a 1\n1 0 b 0\n\n1 0 a 2\n"))
    assert caught.value.line == 4
    assert "query '1' judges doc 'a' twice, on lines 1 and 4" in caught.value.reason
    with pytest.raises(FormatError, match="judges doc 'c1' twice, on lines 2 and 2"):
        read_golden(write(tmp_path, "w.csv", "query_id,relevant_ids\nq1,c1|c1\n"))


def test_a_run_reader_refuses_a_repeated_doc_only_when_asked(tmp_path):
    path = write(tmp_path, "r.run", "q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 a 3 1 r\n")
    assert len(read_trec_run(path)) == 3  # kept: evaluate's duplicates policy decides
    with pytest.raises(FormatError, match="query 'q1' lists doc 'a' twice, on lines 1 and 3"):
        read_trec_run(path, duplicates="error")


def test_read_run_and_read_qrels_tell_the_format(tmp_path):
    from ragmetrics.io import read_qrels, read_run

    run_text = "q1 Q0 d1 1 2.5 run\n"
    for name in ("bm25", "bm25.txt", "bm25.run", "bm25.tsv"):
        assert read_run(write(tmp_path, name, run_text))["doc_id"].tolist() == ["d1"]
    assert read_qrels(write(tmp_path, "qrels", "q1 0 d1 1\n"))["relevance"].tolist() == [1]
    jsonl = write(tmp_path, "g.json.txt", '{"query_id": "q1", "relevant_ids": ["d1"]}\n')
    assert read_qrels(jsonl, format="jsonl")["doc_id"].tolist() == ["d1"]
    with pytest.raises(FormatError, match=r"looks like TREC qrels .* not a run"):
        read_run(write(tmp_path, "q.txt", "q1 0 d1 1\n"))
    with pytest.raises(FormatError, match=r"looks like a TREC run .* not judgments"):
        read_qrels(write(tmp_path, "r.txt", run_text))


# -- comments in TREC files ----------------------------------------------------------------
