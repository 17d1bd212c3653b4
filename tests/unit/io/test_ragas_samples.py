"""read_ragas_samples: RAGAS samples (JSONL, CSV, JSON, lists, DataFrames) as a Dataset."""

from __future__ import annotations

import ast
import csv
import gzip
import hashlib
import json
import math
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ragmetrics import FormatError, InputTypeError, InputValueError, read_ragas_samples, read_run
from ragmetrics.io import text_id

DATA = Path(__file__).resolve().parents[2] / "data" / "ragas"

CONTACT, REFUNDS, FREE = "Contact billing for invoices.", "Refunds take 5 days.", \
    "It's free over $50."
INVOICES, RETURNS, CHEQUES = "Invoices are in Settings > Billing.", "Returns within 30 days.", \
    "We accept cheques by post."
# samples.jsonl, text-keyed: (query, retrieved in rank order, reference).
EXPECTED = {"0": ([CONTACT, REFUNDS, FREE], [REFUNDS]),
            "1": ([INVOICES, REFUNDS], [INVOICES, CONTACT]),
            "2": ([FREE, RETURNS], [CHEQUES]),
            "3": ([RETURNS], [])}


def expected_run() -> dict:
    rows = [(q, text_id(t), rank) for q, (ret, _) in EXPECTED.items()
            for rank, t in enumerate(ret, start=1)]
    return {"query_id": [r[0] for r in rows], "doc_id": [r[1] for r in rows],
            "rank": [r[2] for r in rows]}


def expected_qrels() -> dict:
    rows = [(q, text_id(t)) for q, (_, ref) in EXPECTED.items() for t in ref]
    return {"query_id": [r[0] for r in rows], "doc_id": [r[1] for r in rows],
            "relevance": [1] * len(rows)}


def records() -> list[dict]:
    return [json.loads(line) for line in (DATA / "samples.jsonl").read_text().splitlines()]


def write_csv(path: Path, rows: list[dict]) -> Path:
    """As ragas' EvaluationDataset.to_csv writes: csv.DictWriter, lists as str(list)."""
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=rows[0].keys())
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
    return path


@pytest.mark.parametrize("name", ["samples.jsonl", "samples.csv"])
def test_the_fixture_files_read_text_keyed(name):
    dataset = read_ragas_samples(DATA / name)
    assert dataset.format == "ragas"
    assert dataset.path == str(DATA / name)
    assert dataset.documents is None
    assert dataset.run.to_dict("list") == expected_run()
    assert dataset.run["rank"].dtype == np.int64
    assert dataset.qrels.to_dict("list") == expected_qrels()
    assert dataset.queries["query_id"].tolist() == ["0", "1", "2", "3"]
    assert dataset.queries["text"].tolist()[0] == "How long do refunds take?"
    assert dataset.queries["reference"].tolist()[2] == "Yes, by post."
    assert dataset.text_matches.keyed_by == "text"
    assert [(c.what, c.texts) for c in dataset.text_matches.counts] == [("reference", 4),
                                                                        ("retrieved", 8)]
    assert repr(dataset) == ("Dataset('ragas' from '" + str(DATA / name) + "': 4 queries, "
                             "4 judgments, no documents, a run of 8 rows)")


def test_the_csv_fixture_is_what_ragas_to_csv_writes():
    # The committed file is the writer's output for the JSONL samples, byte for byte
    # (lines end in \r\n, lists are Python literals, a newline inside a text is \n).
    raw = (DATA / "samples.csv").read_bytes()
    assert raw.count(b"\r\n") == 5
    assert b"""[""It's free over $50."", 'Returns within 30 days.']""" in raw
    assert b"'Refunds take\\n5 days.'" in raw


def test_json_lists_dataframes_and_pandas_csv_read_the_same(tmp_path):
    samples = records()
    as_json = tmp_path / "samples.json"
    as_json.write_text(json.dumps(samples))
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"samples": samples}, indent=2))
    frame = pd.DataFrame(samples)  # EvaluationDataset.to_pandas()
    pandas_csv = tmp_path / "pandas.csv"
    frame.to_csv(pandas_csv, index=False)  # lists written as str(list)
    gz = tmp_path / "samples.jsonl.gz"
    gz.write_bytes(gzip.compress((DATA / "samples.jsonl").read_bytes()))
    for source in (as_json, wrapped, samples, frame, pandas_csv, gz):
        dataset = read_ragas_samples(source)
        assert dataset.run.to_dict("list") == expected_run(), source
        assert dataset.qrels.to_dict("list") == expected_qrels(), source
    assert read_ragas_samples(frame).path == ""


def test_a_file_of_another_name_is_told_by_its_content(tmp_path):
    for name in ("samples.jsonl", "samples.csv"):
        other = tmp_path / (name + ".txt")
        shutil.copy(DATA / name, other)
        assert read_ragas_samples(other).run.to_dict("list") == expected_run()
    other = tmp_path / "samples.data"
    other.write_text(json.dumps(records(), indent=1))
    assert read_ragas_samples(other).qrels.to_dict("list") == expected_qrels()


def test_ids_make_the_qrels_and_the_run_as_they_are():
    dataset = read_ragas_samples(DATA / "samples_ids.jsonl")
    assert dataset.queries["query_id"].tolist() == ["refunds", "invoices", "cheques"]
    assert dataset.run.to_dict("list") == {
        "query_id": ["refunds"] * 3 + ["invoices"] * 2 + ["cheques"] * 2,
        "doc_id": ["d3", "d1", "7", "d2", "d1", "7", "d5"], "rank": [1, 2, 3, 1, 2, 1, 2]}
    assert dataset.qrels.to_dict("list") == {
        "query_id": ["refunds", "invoices", "invoices", "cheques"],
        "doc_id": ["d1", "d2", "d3", "d4"], "relevance": [1, 1, 1, 1]}
    assert dataset.text_matches is None


def test_read_run_takes_format_ragas(tmp_path):
    run = read_run(DATA / "samples_ids.jsonl", format="ragas")
    assert run["doc_id"].tolist() == ["d3", "d1", "7", "d2", "d1", "7", "d5"]
    assert read_run(DATA / "samples.csv", format="ragas").to_dict("list") == expected_run()
    no_run = tmp_path / "testset.jsonl"
    no_run.write_text('{"user_input": "q?", "reference_contexts": ["a"]}\n')
    with pytest.raises(FormatError, match="carry no run"):
        read_run(no_run, format="ragas")
    assert len(read_ragas_samples(no_run).qrels) == 1


def test_texts_are_matched_to_documents_when_given():
    documents = pd.DataFrame({"doc_id": ["c1", "c2", "c3", "c4", "c5", "c6"],
                              "text": [CONTACT, REFUNDS, FREE, INVOICES, RETURNS, CHEQUES]})
    dataset = read_ragas_samples(DATA / "samples.jsonl", documents=documents)
    assert dataset.run["doc_id"].tolist() == ["c1", "c2", "c3", "c4", "c2", "c3", "c5", "c5"]
    assert dataset.qrels["doc_id"].tolist() == ["c2", "c4", "c1", "c6"]
    assert dataset.documents.to_dict("list") == documents.to_dict("list")
    report = dataset.text_matches
    assert (report.keyed_by, report.matched, report.unmatched, report.ambiguous) == (
        "documents", 12, 0, 0)


def test_unmatched_texts_name_the_file_line_and_field():
    documents = {"c1": CONTACT, "c2": REFUNDS, "c3": FREE, "c4": INVOICES, "c5": RETURNS}
    with pytest.raises(InputValueError) as caught:
        read_ragas_samples(DATA / "samples.jsonl", documents=documents)
    assert re.search(r"1 of 4 reference texts matched no document .*samples\.jsonl, line 3, "
                     r"reference_contexts\[0\]: 'We accept cheques by post\.'", str(caught.value))
    dataset = read_ragas_samples(DATA / "samples.jsonl", documents=documents,
                                 unmatched="report")
    assert dataset.qrels["doc_id"].tolist() == ["c2", "c4", "c1", text_id(CHEQUES)]
    assert dataset.text_matches.unmatched == 1
    # The CSV file's lines are physical: sample 2 starts on line 4 (a text holds no newline).
    with pytest.raises(InputValueError, match=r"samples\.csv, line 4, reference_contexts\[0\]"):
        read_ragas_samples(DATA / "samples.csv", documents=documents)


def test_a_context_matching_two_documents_is_reported():
    documents = {"c1": CONTACT, "c2": REFUNDS, "c3": FREE, "c4": INVOICES, "c5": RETURNS,
                 "c6": CHEQUES, "c7": "Refunds  take 5 days."}
    with pytest.raises(InputValueError, match=r"1 of 4 reference texts matched more than one "
                                              r"document: .*line 1, reference_contexts\[0\]: "
                                              r"'Refunds take 5 days\.' equals 'c2', 'c7'"):
        read_ragas_samples(DATA / "samples.jsonl", documents=documents)
    dataset = read_ragas_samples(DATA / "samples.jsonl", documents=documents,
                                 unmatched="report")
    counts = {c.what: (c.matched, c.unmatched, c.ambiguous)
              for c in dataset.text_matches.counts}
    assert counts == {"reference": (3, 0, 1), "retrieved": (6, 0, 2)}


def test_ids_on_one_side_and_texts_on_the_other_need_documents():
    samples = [{"user_input": "q?", "reference_context_ids": ["c2"],
                "retrieved_contexts": [CONTACT, REFUNDS]}]
    with pytest.raises(InputValueError, match=r"the reference contexts are ids "
                                              r"\(reference_context_ids\) but the retrieved "
                                              "contexts are texts"):
        read_ragas_samples(samples)
    dataset = read_ragas_samples(samples, documents={"c1": CONTACT, "c2": REFUNDS})
    assert dataset.run["doc_id"].tolist() == ["c1", "c2"]
    assert dataset.qrels["doc_id"].tolist() == ["c2"]


def test_ids_win_over_texts():
    samples = [{"user_input": "q?", "reference_context_ids": ["c2"],
                "reference_contexts": ["anything"], "retrieved_context_ids": ["c2"]}]
    dataset = read_ragas_samples(samples)
    assert dataset.qrels["doc_id"].tolist() == ["c2"]
    assert dataset.text_matches is None


def test_query_ids_come_from_query_id_or_id_and_must_be_unique():
    samples = [{"query_id": 10, "user_input": "a?", "retrieved_context_ids": ["x"]},
               {"query_id": "q2", "user_input": "b?", "retrieved_context_ids": ["y"]}]
    assert read_ragas_samples(samples).queries["query_id"].tolist() == ["10", "q2"]
    samples[1]["query_id"] = "10"
    with pytest.raises(InputValueError, match=r"samples row 1: query_id '10' is given twice "
                                              r"\(first in samples row 0\)"):
        read_ragas_samples(samples)
    del samples[1]["query_id"]
    with pytest.raises(InputTypeError, match=r"samples row 1: query_id must be an id"):
        read_ragas_samples(samples)


@pytest.mark.parametrize(("bad", "shown"), [(None, "None (missing)"), (7, "7 (int)")])
def test_a_context_that_is_not_a_text_is_refused_naming_the_line_and_field(tmp_path, bad, shown):
    rows = records()
    rows[1]["retrieved_contexts"][1] = bad
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    with pytest.raises(FormatError) as caught:
        read_ragas_samples(path)
    assert caught.value.line == 2
    assert str(caught.value).startswith(
        f"{path}, line 2: retrieved_contexts[1] must be a text (str), got {shown}")
    with pytest.raises(InputTypeError, match=re.escape(
            f"samples row 1: retrieved_contexts[1] must be a text (str), got {shown}")):
        read_ragas_samples(rows)


def test_a_missing_list_is_refused_naming_the_row(tmp_path):
    frame = pd.DataFrame(records())
    frame.loc[2, "reference_contexts"] = math.nan
    with pytest.raises(InputValueError, match=r"samples row 2: no reference_contexts \(other "
                                              r"samples have them\); give \[\] for none"):
        read_ragas_samples(frame)
    path = write_csv(tmp_path / "missing.csv", records())
    text = path.read_text()
    path.write_text(text.replace("['We accept cheques by post.']", ""))
    with pytest.raises(FormatError, match=r"line 4: no reference_contexts"):
        read_ragas_samples(path)


def test_a_cell_that_is_not_a_list_is_refused(tmp_path):
    rows = records()
    rows[0]["retrieved_contexts"] = "['unclosed"
    path = write_csv(tmp_path / "bad.csv", rows)
    with pytest.raises(FormatError, match=r"line 2: retrieved_contexts must be a list \(a JSON "
                                          r"array or a Python list\), got \"\['unclosed\""):
        read_ragas_samples(path)
    rows[0]["retrieved_contexts"] = "{'a': 1}"
    with pytest.raises(FormatError, match=r"line 2: retrieved_contexts must be a list, got "
                                          r"\{'a': 1\} \(dict\)"):
        read_ragas_samples(write_csv(tmp_path / "dict.csv", rows))
    rows[0]["retrieved_contexts"] = 5
    with pytest.raises(InputTypeError, match=r"samples row 0: retrieved_contexts must be a "
                                             r"list, got 5 \(int\)"):
        read_ragas_samples(rows)


def test_a_python_literal_runs_no_code(tmp_path):
    rows = records()
    rows[0]["retrieved_contexts"] = "__import__('os').getcwd()"
    with pytest.raises(FormatError, match="must be a list"):
        read_ragas_samples(write_csv(tmp_path / "code.csv", rows))


def test_malformed_files_name_the_file_and_line(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"user_input": "a?", "retrieved_context_ids": ["x"]}\n\n{"user_input": \n')
    with pytest.raises(FormatError) as caught:
        read_ragas_samples(path)
    assert caught.value.line == 3
    assert "not valid JSON" in str(caught.value)
    path.write_text('["not an object"]\n')
    with pytest.raises(FormatError, match="line 1: a sample is a JSON object, got list"):
        read_ragas_samples(path)
    short = tmp_path / "short.csv"
    short.write_text("user_input,retrieved_context_ids\n\"a?\",\"['x']\",extra\n")
    with pytest.raises(FormatError, match=r"line 2: expected 2 fields \(as the header on line "
                                          r"1\), got 3"):
        read_ragas_samples(short)
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(FormatError, match="no header line"):
        read_ragas_samples(empty)


def test_questions_must_be_single_turn_texts():
    with pytest.raises(InputTypeError, match="samples row 0: user_input is a list of messages"):
        read_ragas_samples([{"user_input": [{"content": "hi", "type": "human"}]}])
    with pytest.raises(InputTypeError, match="samples row 0: user_input must be the question"):
        read_ragas_samples([{"retrieved_context_ids": ["x"]}])
    with pytest.raises(InputTypeError, match="samples must be a file"):
        read_ragas_samples({"user_input": "a?"})
    with pytest.raises(InputValueError, match="unmatched must be one of"):
        read_ragas_samples(records(), unmatched="ignore")


def test_repeated_reference_ids_judge_a_document_once():
    samples = [{"user_input": "a?", "reference_context_ids": ["x", "x", 3],
                "retrieved_context_ids": ["x", 3]}]
    dataset = read_ragas_samples(samples)
    assert dataset.qrels["doc_id"].tolist() == ["x", "3"]
    with pytest.raises(InputTypeError, match=r"reference_context_ids\[0\] must be an id "
                                             r"\(str or int\), got 1\.5 \(float\)"):
        read_ragas_samples([{"user_input": "a?", "reference_context_ids": [1.5]}])


def test_the_real_ragas_file_reads():
    # Three samples of a public RAGAS evaluation (tests/data/ragas/README.md).
    dataset = read_ragas_samples(DATA / "lets_talk_rag_eval.csv")
    assert dataset.queries["query_id"].tolist() == ["0", "1", "2"]
    assert dataset.queries["synthesizer_name"].tolist() == [
        "single_hop_specifc_query_synthesizer", "multi_hop_abstract_query_synthesizer",
        "multi_hop_abstract_query_synthesizer"]
    assert dataset.run.groupby("query_id")["rank"].max().tolist() == [4, 4, 4]
    assert dataset.qrels.groupby("query_id").size().tolist() == [1, 3, 2]
    # The texts of pandas' own reading of the file, keyed by hand.
    frame = pd.read_csv(DATA / "lets_talk_rag_eval.csv")
    first = ast.literal_eval(frame.loc[0, "retrieved_contexts"])
    assert dataset.run["doc_id"].tolist()[:4] == [
        "text:" + hashlib.sha256(" ".join(t.split()).encode()).hexdigest()[:16] for t in first]


# --- told without format= (read_dataset, read_run, the command) -------------------------


def test_read_dataset_and_read_run_tell_a_ragas_file_by_its_fields(tmp_path):
    from ragmetrics import evaluate, read_dataset
    from ragmetrics.io import dataset_layout_of
    from ragmetrics.io.ragas_samples import is_ragas_file

    path = DATA / "samples_ids.jsonl"
    dataset = read_dataset(path)
    assert (dataset.format, dataset.split, dataset.documents) == ("ragas", None, None)
    assert dataset.queries["query_id"].tolist() == ["refunds", "invoices", "cheques"]
    run = read_run(path)  # no format=: the user_input field tells it
    assert run["doc_id"].tolist() == ["d3", "d1", "7", "d2", "d1", "7", "d5"]
    # recall@2 by hand: refunds {d1} in [d3, d1] 1; invoices {d2, d3} in [d2, d1] 1/2;
    # cheques {d4} in [7, d5] 0.
    per_query = evaluate(run, dataset.qrels, ["recall@2"]).per_query["recall@2"]
    assert per_query.to_dict() == {"refunds": 1.0, "invoices": 0.5, "cheques": 0.0}
    for name in ("samples.jsonl", "samples.csv", "lets_talk_rag_eval.csv"):
        assert dataset_layout_of(DATA / name) == "ragas", name
    # A CSV or JSONL file of another kind is not taken for RAGAS samples.
    other = tmp_path / "g.csv"
    other.write_text("query_id,doc_id\nq1,user_input\n")
    plain = tmp_path / "g.jsonl"
    plain.write_text('{"query_id": "q1", "relevant_ids": ["user_input"]}\n')
    assert [is_ragas_file(other), is_ragas_file(plain)] == [False, False]
    assert [dataset_layout_of(other), dataset_layout_of(plain)] == [None, None]
    assert not is_ragas_file(tmp_path / "missing.jsonl")


def test_the_command_evaluates_a_ragas_file_as_judgments_and_run(capsys):
    from ragmetrics.cli import main

    path = str(DATA / "samples_ids.jsonl")
    assert main(["evaluate", path, path, "--metrics", "recall@2", "--quiet"]) == 0
    assert re.search(r"recall@2\s+0\.5000 ", capsys.readouterr().out)
