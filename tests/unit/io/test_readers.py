"""The file readers of :mod:`ragmetrics.io`.

Expected values come from three places: numbers written by hand next to each case, the
shipped trec_eval test files read back by a plain ``str.split`` (no pandas), and
properties that hold for any input: a reader returns one row per non-blank data line or
raises :class:`FormatError`, and nothing else ever escapes.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import pickle
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics import evaluate
from ragmetrics.io import (
    FormatError,
    read_golden,
    read_results,
    read_run,
    read_trec_qrels,
    read_trec_run,
    trec,
)
from ragmetrics.io import source as source_module
from ragmetrics.io.source import Source, compression_of
from ragmetrics.io.trec import split_fast, split_slowly

TREC_DIR = Path(__file__).resolve().parents[2] / "conformance" / "trec_eval"  # vendored

RUN_LAYOUT = ("query_id", "Q0", "doc_id", "rank", "score", "run_name")
QRELS_LAYOUT = ("query_id", "iteration", "doc_id", "relevance")
# What separates fields in a TREC file: C's isspace, as in trec_eval.
FIELD = re.compile(r"[^ \t\r\f\v]+")
TRICKY_IDS = ["007", "1e5", "nan", "NULL", "True", "-0", "1_000", "None", "inf", "0x1A", "é#1"]

# Each example reads a file through pandas (a few ms): these counts keep the fuzzing to a
# few seconds; the strategies make valid and malformed files alike (see `mostly`).
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ_LIGHT = settings(FUZZ, max_examples=50)


def attempt(reader, path: Path):
    """(frame, None) or (None, the FormatError): any other exception propagates."""
    try:
        return reader(path), None
    except FormatError as error:
        return None, error


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def plain_split(path: Path) -> list[list[str]]:
    """The independent oracle for the (ASCII) trec_eval files: str.split of each line."""
    return [line.split() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def assert_same_frame(got: pd.DataFrame, expected: pd.DataFrame, obj: str = "DataFrame"):
    """Same columns, dtypes and values; the quick check first, the detailed one on failure."""
    if not (got.equals(expected) and got.dtypes.equals(expected.dtypes)):
        pd.testing.assert_frame_equal(got, expected, obj=obj)


def strings(values) -> pd.Series:
    return pd.Series(list(values), dtype=str)


def assert_ids_are_str(frame: pd.DataFrame) -> None:
    for column in ("query_id", "doc_id"):
        assert pd.api.types.is_string_dtype(frame[column])
        assert all(type(value) is str for value in frame[column])


# --- trec_eval's own test files -----------------------------------------------------------


def test_results_test_reads_every_line_exactly():
    path = TREC_DIR / "results.test"
    run = read_trec_run(path)
    rows = plain_split(path)
    assert len(run) == len(rows) == 1500
    assert list(run.columns) == ["query_id", "doc_id", "rank", "score", "run_name"]
    assert_ids_are_str(run)
    assert run["rank"].dtype == np.int64
    assert run["score"].dtype == np.float64
    assert run["query_id"].tolist() == [r[0] for r in rows]
    assert run["doc_id"].tolist() == [r[2] for r in rows]
    assert run["rank"].tolist() == [int(r[3]) for r in rows]
    assert run["score"].tolist() == [float(r[4]) for r in rows]
    assert run["run_name"].tolist() == [r[5] for r in rows]


def test_results_test_first_and_last_lines_by_hand():
    run = read_trec_run(TREC_DIR / "results.test")
    # 301	Q0	FR940202-2-00150	104	  2.129133	STANDARD
    assert run.iloc[0].tolist() == ["301", "FR940202-2-00150", 104, 2.129133, "STANDARD"]
    # 303	Q0	LA123089-0107	423	  0.852090	STANDARD
    assert run.iloc[-1].tolist() == ["303", "LA123089-0107", 423, 0.852090, "STANDARD"]


def test_qrels_test_reads_every_line_exactly():
    path = TREC_DIR / "qrels.test"
    qrels = read_trec_qrels(path)
    rows = plain_split(path)
    assert len(qrels) == len(rows) == 3681
    assert list(qrels.columns) == ["query_id", "doc_id", "relevance"]
    assert_ids_are_str(qrels)
    assert qrels["relevance"].dtype == np.int64
    assert qrels["doc_id"].tolist() == [r[2] for r in rows]
    assert qrels["relevance"].tolist() == [int(r[3]) for r in rows]
    # By hand: the first and third lines are "301 0 CR93E-10279 0" and "301 0 CR93E-1282 1";
    # 561 lines have grade 1 (trec_eval prints num_rel all 561), the rest 0.
    assert qrels.iloc[0].tolist() == ["301", "CR93E-10279", 0]
    assert qrels.iloc[2].tolist() == ["301", "CR93E-1282", 1]
    assert qrels["relevance"].value_counts().to_dict() == {0: 3120, 1: 561}
    assert sorted(qrels["query_id"].unique()) == ["301", "302", "303"]


def test_results_trunc_has_junk_after_the_run_name_which_only_ignore_accepts():
    path = TREC_DIR / "results.trunc"
    with pytest.raises(FormatError, match="extra_fields='ignore'") as caught:
        read_trec_run(path)
    assert caught.value.line == 1
    assert caught.value.text == "301\tQ0\tFBIS3-27619\t99\t  2.138276\tSTANDARD more junk at"
    run = read_trec_run(path, extra_fields="ignore")
    assert len(run) == 584  # trec_eval -c prints num_ret all 584 for this file
    assert run.iloc[0].tolist() == ["301", "FBIS3-27619", 99, 2.138276, "STANDARD"]


def test_the_fast_parser_takes_the_shipped_files():
    # A well-formed file must not fall back to the line-by-line scan (several times slower).
    for name, n_fields in (("results.test", 6), ("qrels.test", 4)):
        text = (TREC_DIR / name).read_text(encoding="utf-8")
        assert split_fast(text, n_fields) is not None, name


def test_read_files_evaluate_to_trec_eval_printed_means():
    # out.test.aq: P_5 all 0.2667, recip_rank all 0.4064 (trec_eval prints 4 decimals).
    run = read_trec_run(TREC_DIR / "results.test")
    qrels = read_trec_qrels(TREC_DIR / "qrels.test")
    summary = evaluate(run, qrels, ["precision@5", "mrr"]).summary
    assert summary["precision@5"] == pytest.approx(0.2667, abs=5.1e-5)
    assert summary["mrr"] == pytest.approx(0.4064, abs=5.1e-5)


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


# --- malformed input: FormatError with the exact line and text ----------------------------

OK_RUN = "q1 Q0 d1 1 2.5 run"
OK_GOLDEN = '{"query_id": "q1", "doc_id": "c1"}'
WIDE = "query_id,relevant_ids\n"

# (reader, file name, content, line, text, a fragment of the reason)
MALFORMED = {
    "run: too few fields, blank line counted": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\n\n301 Q0 FR9 1\n",
        3,
        "301 Q0 FR9 1",
        "expected 6 fields (query_id Q0 doc_id rank score run_name), got 4",
    ),
    "run: too many fields": (
        read_trec_run,
        "r.run",
        f"{OK_RUN} extra\n",
        1,
        f"{OK_RUN} extra",
        "got 7: an id with a space in it would shift every field after it",
    ),
    "run: a word as score": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\nq1 Q0 d2 2 high run\n",
        2,
        "q1 Q0 d2 2 high run",
        "score must be a number like 2.5 or -1e-3, got 'high'",
    ),
    "run: NaN score": (
        read_trec_run,
        "r.run",
        "q1 Q0 d2 2 nan run\n",
        1,
        "q1 Q0 d2 2 nan run",
        "score must be a finite number, got 'nan'",
    ),
    "run: infinite score": (
        read_trec_run,
        "r.run",
        "q1 Q0 d2 2 -Infinity run",
        1,
        "q1 Q0 d2 2 -Infinity run",
        "score must be a finite number, got '-Infinity'",
    ),
    "run: score overflows": (
        read_trec_run,
        "r.run",
        "q1 Q0 d2 2 1e999 run",
        1,
        "q1 Q0 d2 2 1e999 run",
        "score '1e999' is too large for a float",
    ),
    "run: decimal comma": (
        read_trec_run,
        "r.run",
        "q1 Q0 d2 2 1,5 run",
        1,
        "q1 Q0 d2 2 1,5 run",
        "got '1,5'",
    ),
    "run: fractional rank": (
        read_trec_run,
        "r.run",
        "q1 Q0 d2 1.0 3 run",
        1,
        "q1 Q0 d2 1.0 3 run",
        "rank must be an integer, got '1.0'",
    ),
    "run: rank beyond int64": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\nq1 Q0 d2 9223372036854775808 3 run\n",
        2,
        "q1 Q0 d2 9223372036854775808 3 run",
        "rank '9223372036854775808' does not fit a 64-bit integer",
    ),
    "run: CRLF line endings, text without the CR": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\r\nq1 Q0 d2 x 2.5 run\r\n",
        2,
        "q1 Q0 d2 x 2.5 run",
        "rank must be an integer, got 'x'",
    ),
    "run: leading whitespace kept in the text": (
        read_trec_run,
        "r.run",
        "  \tq1 Q0 d1 1 2.5\n",
        1,
        "  \tq1 Q0 d1 1 2.5",
        "got 5",
    ),
    "run: an earlier bad number before a later short line": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\nq1 Q0 d2 2 abc run\n{OK_RUN}\nq1 Q0 d3\n",
        2,
        "q1 Q0 d2 2 abc run",
        "got 'abc'",
    ),
    "run: a bad score before a bad rank": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\nq1 Q0 d2 2 abc run\nq1 Q0 d3 x 1.0 run\n",
        2,
        "q1 Q0 d2 2 abc run",
        "score must be a number like 2.5 or -1e-3, got 'abc'",
    ),
    "run: bad rank and bad score on one line": (
        read_trec_run,
        "r.run",
        "q1 Q0 d3 x y run\n",
        1,
        "q1 Q0 d3 x y run",
        "rank must be an integer, got 'x'",
    ),
    "run: a lone CR ends a line (old Mac files), and is counted": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\r{OK_RUN}\rq1 Q0 d3 x 2.5 run\r",
        3,
        "q1 Q0 d3 x 2.5 run",
        "rank must be an integer, got 'x'",
    ),
    "run: a form feed separates fields": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\nq1\fQ0 d2 2 1.0\n",
        2,
        "q1\fQ0 d2 2 1.0",
        "got 5",
    ),
    "run: bytes that are not UTF-8": (
        read_trec_run,
        "r.run",
        f"{OK_RUN}\n\n".encode() + b"q1 Q0 d\xff 2 1.0 run\n",
        3,
        "q1 Q0 d\\xff 2 1.0 run",
        "not valid UTF-8 (byte 0xff, byte 8 of the line)",
    ),
    "run: a Latin-1 file": (
        read_trec_run,
        "r.run",
        b"q1 Q0 caf\xe9 1 2.5 run\n",
        1,
        "q1 Q0 caf\\xe9 1 2.5 run",
        "not valid UTF-8 (byte 0xe9, byte 10 of the line)",
    ),
    "qrels: fractional grade": (
        read_trec_qrels,
        "q.txt",
        "301 0 d1 1\n301 0 d2 1.5\n",
        2,
        "301 0 d2 1.5",
        "relevance must be an integer, got '1.5'",
    ),
    "qrels: a word as grade": (
        read_trec_qrels,
        "q.txt",
        "301 0 d1 yes\n",
        1,
        "301 0 d1 yes",
        "got 'yes'",
    ),
    "qrels: 3 fields": (
        read_trec_qrels,
        "q.txt",
        "301 0 d1 1\n301 0 FR9\n",
        2,
        "301 0 FR9",
        "expected 4 fields (query_id iteration doc_id relevance), got 3",
    ),
    "qrels: 5 fields": (
        read_trec_qrels,
        "q.txt",
        "301 0 d1 1 0.5\n",
        1,
        "301 0 d1 1 0.5",
        "got 5",
    ),
    "csv: a row with an extra field": (
        read_golden,
        "g.csv",
        "query_id,doc_id\nq1,c1\nq2,c2,x\n",
        3,
        "q2,c2,x",
        "expected 2 fields as in the header (query_id, doc_id), got 3",
    ),
    "csv: empty id": (
        read_golden,
        "g.csv",
        "query_id,doc_id\nq1,\n",
        2,
        "q1,",
        "doc_id is empty",
    ),
    "csv: id with a space after the comma": (
        read_golden,
        "g.csv",
        "query_id,doc_id\nq1, c1\n",
        2,
        "q1, c1",
        "doc_id ' c1' begins or ends with whitespace",
    ),
    "csv: a word as grade": (
        read_golden,
        "g.csv",
        "query_id,doc_id,relevance\nq1,c1,high\n",
        2,
        "q1,c1,high",
        "relevance must be an integer, got 'high'",
    ),
    "csv: unterminated quote": (
        read_golden,
        "g.csv",
        'query_id,doc_id\nq1,c1\nq1,"c2\n',
        3,
        'q1,"c2',
        "malformed CSV",
    ),
    "csv: repeated header name": (
        read_golden,
        "g.csv",
        "query_id,doc_id,doc_id\nq1,c1,c2\n",
        1,
        "query_id,doc_id,doc_id",
        "the header names column 'doc_id' twice",
    ),
    "csv: blank lines counted": (
        read_golden,
        "g.csv",
        "\nquery_id,doc_id\n\nq1,c1\n\nq2\n",
        6,
        "q2",
        "got 1",
    ),
    "tsv: a row with a missing field": (
        read_golden,
        "g.tsv",
        "query_id\tdoc_id\nq1\n",
        2,
        "q1",
        "got 1",
    ),
    "wide csv: a float in the JSON array": (
        read_golden,
        "g.csv",
        WIDE + 'q1,"[1.5]"\n',
        2,
        'q1,"[1.5]"',
        "relevant_ids[0] must be a string or an integer id, got 1.5",
    ),
    "wide csv: a nested list": (
        read_golden,
        "g.csv",
        WIDE + 'q1,"[""a"", [""b""]]"\n',
        2,
        'q1,"[""a"", [""b""]]"',
        "relevant_ids[1] must be a string or an integer id, got ['b']",
    ),
    "wide csv: a boolean in the JSON array": (
        read_golden,
        "g.csv",
        WIDE + 'q1,"[true]"\n',
        2,
        'q1,"[true]"',
        "got True",
    ),
    "wide csv: empty id between separators": (
        read_golden,
        "g.csv",
        WIDE + "q1,c1||c2\n",
        2,
        "q1,c1||c2",
        "relevant_ids has an empty id between separators '|'",
    ),
    "wide csv: two separators": (
        read_golden,
        "g.csv",
        WIDE + "q1,c1|c2;c3\n",
        2,
        "q1,c1|c2;c3",
        "relevant_ids mixes the separators '|' and ';'",
    ),
    "wide csv: broken JSON array": (
        read_golden,
        "g.csv",
        WIDE + 'q1,"[""c1"", ""c2"""\n',
        2,
        'q1,"[""c1"", ""c2"""',
        "relevant_ids starts with '[' but is not a JSON array",
    ),
    "wide csv: one query on two rows": (
        read_golden,
        "g.csv",
        WIDE + "q1,c1\nq2,c2\nq1,c3\n",
        4,
        "q1,c3",
        "query 'q1' already has a row, on line 2",
    ),
    "jsonl: an array instead of an object": (
        read_golden,
        "g.jsonl",
        f"{OK_GOLDEN}\n\n[1, 2]\n",
        3,
        "[1, 2]",
        "expected a JSON object {...} per line, got an array",
    ),
    "jsonl: a CSV line": (
        read_golden,
        "g.jsonl",
        "query_id,doc_id\n",
        1,
        "query_id,doc_id",
        "not valid JSON",
    ),
    "jsonl: a key missing on one line": (
        read_golden,
        "g.jsonl",
        f'{OK_GOLDEN}\n{{"query_id": "q2"}}\n',
        2,
        '{"query_id": "q2"}',
        "this line has no key 'doc_id', which other lines have",
    ),
    "jsonl: null id": (
        read_golden,
        "g.jsonl",
        '{"query_id": null, "doc_id": "c1"}',
        1,
        '{"query_id": null, "doc_id": "c1"}',
        "query_id must be a string or an integer id, got None",
    ),
    "jsonl: float id": (
        read_golden,
        "g.jsonl",
        '{"query_id": 1.5, "doc_id": "c1"}',
        1,
        '{"query_id": 1.5, "doc_id": "c1"}',
        "got 1.5",
    ),
    "jsonl: boolean id": (
        read_golden,
        "g.jsonl",
        '{"query_id": "q", "doc_id": true}',
        1,
        '{"query_id": "q", "doc_id": true}',
        "doc_id must be a string or an integer id, got True",
    ),
    "jsonl: a number as the list": (
        read_golden,
        "g.jsonl",
        '{"query_id": "q", "relevant_ids": 5}',
        1,
        '{"query_id": "q", "relevant_ids": 5}',
        "relevant_ids must be a list of ids, got 5",
    ),
    "jsonl: an object as the list": (
        read_golden,
        "g.jsonl",
        '{"query_id": "q", "relevant_ids": {"c1": 2}}',
        1,
        '{"query_id": "q", "relevant_ids": {"c1": 2}}',
        "must be a list of ids, got {'c1': 2}",
    ),
    "jsonl: null in the list": (
        read_golden,
        "g.jsonl",
        '{"query_id": "q", "relevant_ids": ["c1", null]}',
        1,
        '{"query_id": "q", "relevant_ids": ["c1", null]}',
        "relevant_ids[1] must be a string",
    ),
    "jsonl: a repeated key": (
        read_golden,
        "g.jsonl",
        '{"query_id": "q", "doc_id": "c1", "doc_id": "c2"}',
        1,
        '{"query_id": "q", "doc_id": "c1", "doc_id": "c2"}',
        "key 'doc_id' appears twice",
    ),
    "jsonl: boolean grade": (
        read_golden,
        "g.jsonl",
        '{"query_id": "q", "doc_id": "c", "relevance": true}',
        1,
        '{"query_id": "q", "doc_id": "c", "relevance": true}',
        "relevance must be an integer, got True",
    ),
    "jsonl: fractional grade": (
        read_golden,
        "g.jsonl",
        '{"query_id": "q", "doc_id": "c", "relevance": 0.5}',
        1,
        '{"query_id": "q", "doc_id": "c", "relevance": 0.5}',
        "got 0.5",
    ),
    "jsonl: bytes that are not UTF-8": (
        read_golden,
        "g.jsonl",
        f"{OK_GOLDEN}\n".encode() + b'{"query_id": "\xc3("}\n',
        2,
        '{"query_id": "\\xc3("}',
        "not valid UTF-8 (byte 0xc3, byte 15 of the line)",
    ),
    "results csv: empty score": (
        read_results,
        "r.csv",
        "query_id,doc_id,score\nq1,c1,\n",
        2,
        "q1,c1,",
        "score must be a number like 2.5 or -1e-3, got ''",
    ),
    "results csv: NaN score": (
        read_results,
        "r.csv",
        "query_id,doc_id,score\nq1,c1,NaN\n",
        2,
        "q1,c1,NaN",
        "score must be a finite number, got 'NaN'",
    ),
    "results jsonl: NaN literal": (
        read_results,
        "r.jsonl",
        '{"query_id": "q", "doc_id": "c", "score": NaN}',
        1,
        '{"query_id": "q", "doc_id": "c", "score": NaN}',
        "score must be a finite number",
    ),
    "results jsonl: Infinity literal": (
        read_results,
        "r.jsonl",
        '{"query_id": "q", "doc_id": "c", "score": -Infinity}',
        1,
        '{"query_id": "q", "doc_id": "c", "score": -Infinity}',
        "must be a finite number",
    ),
    "results jsonl: a huge integer score": (
        read_results,
        "r.jsonl",
        '{"query_id": "q", "doc_id": "c", "score": 1' + "0" * 400 + "}",
        1,
        '{"query_id": "q", "doc_id": "c", "score": 1' + "0" * 400 + "}",
        "is too large for a float",
    ),
    "results jsonl: a word as score": (
        read_results,
        "r.jsonl",
        '{"query_id": "q", "doc_id": "c", "score": "high"}',
        1,
        '{"query_id": "q", "doc_id": "c", "score": "high"}',
        "got 'high'",
    ),
    "results jsonl: fractional rank": (
        read_results,
        "r.jsonl",
        '{"query_id": "q", "doc_id": "c", "rank": 1.5}',
        1,
        '{"query_id": "q", "doc_id": "c", "rank": 1.5}',
        "rank must be an integer, got 1.5",
    ),
    "results wide: a string in a list of ids that is not a list": (
        read_results,
        "r.jsonl",
        '{"query_id": "q", "retrieved_ids": [["c1"]]}',
        1,
        '{"query_id": "q", "retrieved_ids": [["c1"]]}',
        "retrieved_ids[0] must be a string",
    ),
}


@pytest.mark.parametrize("split_by_arrow", [False, True], ids=["scanned", "split by arrow"])
@pytest.mark.parametrize(
    ("reader", "name", "content", "line", "text", "reason"),
    list(MALFORMED.values()),
    ids=list(MALFORMED),
)
def test_malformed_line_is_reported_with_its_number_and_text(
    tmp_path, monkeypatch, split_by_arrow, reader, name, content, line, text, reason
):
    if split_by_arrow:  # every TREC file split by Arrow, however small
        monkeypatch.setattr(trec, "FAST_PARSE_FROM", 0)
    path = write(tmp_path, name, content)
    with pytest.raises(FormatError) as caught:
        reader(path)
    error = caught.value
    assert (error.path, error.line, error.text) == (str(path), line, text)
    assert reason in error.reason
    if len(text) <= 120:  # longer lines are cut in the message
        assert str(error) == f"{path}, line {line}: {error.reason}: {text!r}"
    else:
        assert str(error).startswith(f"{path}, line {line}: {error.reason}: {text[:100]!r}"[:-1])


def test_a_large_file_split_by_arrow_names_its_bad_line(tmp_path):
    text = "".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {i / 7} bm25\n" for i in range(40_000))
    assert len(text) >= trec.FAST_PARSE_FROM
    bad = text.split("\n")
    bad[31_337] = "q313 Q0 d31337 38 oops bm25"
    path = write(tmp_path, "bad.run", "\r\n".join(bad))
    with pytest.raises(FormatError) as caught:
        read_trec_run(path)
    assert (caught.value.line, caught.value.text) == (31_338, bad[31_337])
    assert "score must be a number" in caught.value.reason


def cut_short_while_read(monkeypatch, path, *, to: int, then: bytes = b""):
    """Make the next read of ``path`` see it cut to ``to`` bytes (and ``then`` written
    after): what ``cmd > run`` does to a file another program is reading."""
    read = source_module._read_to_end

    def cut_then_read(handle):
        part = handle.read(100)
        with open(path, "r+b") as writer:
            writer.truncate(to)
            writer.seek(to)
            writer.write(then)
        return part + read(handle)

    monkeypatch.setattr(source_module, "_read_to_end", cut_then_read)


@pytest.mark.slow
@pytest.mark.parametrize("reader", [read_trec_run, read_run], ids=["trec", "any format"])
@pytest.mark.parametrize(("to", "then"), [(0, b""), (5_000, b""), (0, b"q1 Q0 d1 1 2.0 x\n"),
                                          (5_000, b"q9 Q0 d9 1 1.0 x\n" * 10)],
                         ids=["emptied", "cut", "rewritten shorter", "cut and grown"])
def test_a_file_that_changes_while_it_is_read_is_refused_by_name(tmp_path, monkeypatch,
                                                                 reader, to, then):
    # Issue 23: a file of 1 MiB or more was mapped into memory, and cutting it short
    # under the reader ended the process with SIGBUS. Now every file is read whole and
    # a read that came up short, or a file whose size or time moved, is refused.
    text = "".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {i / 7} bm25\n" for i in range(60_000))
    path = write(tmp_path, "r.run", text)
    size = path.stat().st_size
    assert size >= 1 << 20
    cut_short_while_read(monkeypatch, path, to=to, then=then)
    with pytest.raises(FormatError, match="changed while it was read") as caught:
        reader(path)
    assert caught.value.path == str(path)
    assert f"{size:,} bytes when opened" in str(caught.value)


def test_a_compressed_file_cut_while_read_is_refused_too(tmp_path, monkeypatch):
    text = "".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {i / 7} bm25\n" for i in range(2_000))
    path = write(tmp_path, "r.run.gz", gzip.compress(text.encode()))
    cut_short_while_read(monkeypatch, path, to=200)
    with pytest.raises(FormatError, match="changed while it was read"):
        read_trec_run(path)


@pytest.mark.slow
def test_a_file_truncated_in_a_loop_never_kills_the_command(tmp_path):
    # The real race, end to end: a writer cuts and rewrites a 4 MB run while
    # `ragmetrics trec_eval` reads it. Each attempt ends with a result or a refusal (exit
    # 0 or 2), never with a signal (SIGBUS was -7 in 4 of 6 tries before).
    line = "q{0} Q0 d{1} {2} {3} bm25\n"
    text = "".join(line.format(i // 100, i, i % 100 + 1, i / 7) for i in range(120_000))
    run, qrels = tmp_path / "r.run", write(tmp_path, "q.txt", "q1 0 d101 1\n")
    run.write_text(text)
    stop = threading.Event()

    def rewrite():  # cut to nothing, then written again in two halves, slowly
        while not stop.is_set():
            with open(run, "w") as handle:
                for half in (text[: len(text) // 2], text[len(text) // 2 :]):
                    time.sleep(0.01)
                    handle.write(half)
                    handle.flush()

    writer = threading.Thread(target=rewrite)
    writer.start()
    try:
        command = [sys.executable, "-m", "ragmetrics", "trec_eval", "-c", str(qrels), str(run)]
        codes = [subprocess.run(command, check=False, capture_output=True).returncode
                 for _ in range(4)]
    finally:
        stop.set()
        writer.join()
    assert set(codes) <= {0, 2}, codes


# (reader, file name, content, a fragment of the reason): problems of no single line
WHOLE_FILE = {
    "run: empty file": (read_trec_run, "r.run", "", "no data lines"),
    "run: blank lines only": (read_trec_run, "r.run", "\n  \n\t\r\n", "no data lines"),
    "qrels: empty file": (read_trec_qrels, "q.txt", "", "no data lines"),
    "csv: empty file": (read_golden, "g.csv", "", "no header line"),
    "csv: header only": (
        read_golden,
        "g.csv",
        "query_id,doc_id\n\n",
        "no data lines: the file has only a header",
    ),
    "jsonl: blank lines only": (
        read_golden,
        "g.jsonl",
        "\n\n \n",
        "no data lines: the file is empty or blank",
    ),
    "csv: no doc_id nor relevant_ids": (
        read_golden,
        "g.csv",
        "query_id,chunk\nq1,c1\n",
        (
            "the golden set has no column 'doc_id' (long form: one row per doc) or "
            "'relevant_ids' (wide form: one row per query with a list of ids) "
            "(columns found: 'query_id', 'chunk')"
        ),
    ),
    "csv: no query_id": (
        read_golden,
        "g.csv",
        "qid,doc_id\nq1,c1\n",
        "the golden set has no column 'query_id' (columns found: 'qid', 'doc_id')",
    ),
    "jsonl: no query_id on any line": (
        read_golden,
        "g.jsonl",
        '{"q": "q1", "doc_id": "c1"}\n{"doc_id": "c2", "x": 1}\n',
        "has no column 'query_id' (columns found: 'q', 'doc_id', 'x')",
    ),
    "csv: both long and wide columns": (
        read_golden,
        "g.csv",
        "query_id,doc_id,relevant_ids\nq1,c1,c1\n",
        "has both 'doc_id' (long form) and 'relevant_ids' (wide form) columns",
    ),
    "wide golden: a relevance column": (
        read_golden,
        "g.csv",
        "query_id,relevant_ids,relevance\nq1,c1,2\n",
        "the wide form has no use for column 'relevance'",
    ),
    "results: neither score nor rank": (
        read_results,
        "r.csv",
        "query_id,doc_id\nq1,c1\n",
        "no column 'score' or 'rank' to order the docs by (columns found: 'query_id', 'doc_id')",
    ),
    "wide results: a score column": (
        read_results,
        "r.jsonl",
        '{"query_id": "q", "retrieved_ids": ["c"], "score": 1}\n',
        "the wide form has no use for column 'score'",
    ),
}


@pytest.mark.parametrize(
    ("reader", "name", "content", "reason"), list(WHOLE_FILE.values()), ids=list(WHOLE_FILE)
)
def test_whole_file_problem_has_no_line(tmp_path, reader, name, content, reason):
    path = write(tmp_path, name, content)
    with pytest.raises(FormatError) as caught:
        reader(path)
    error = caught.value
    assert (error.line, error.text) == (None, None)
    assert reason in error.reason
    assert str(error) == f"{path}: {error.reason}"


def test_format_error_message_names_file_line_and_text():
    error = FormatError(
        "expected 6 fields (query_id Q0 doc_id rank score run_name), got 4",
        path="results.txt",
        line=12,
        text="301 Q0 FR9 1",
    )
    assert str(error) == (
        "results.txt, line 12: expected 6 fields (query_id Q0 doc_id rank score run_name), "
        "got 4: '301 Q0 FR9 1'"
    )
    assert isinstance(error, ValueError)


def test_format_error_survives_pickling():
    error = FormatError("bad", path="a.csv", line=3, text="x,y")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.reason, copy.path, copy.line, copy.text) == ("bad", "a.csv", 3, "x,y")
    assert str(copy) == str(error)


def test_format_error_cuts_a_long_line_in_the_message_but_keeps_it_whole():
    text = "x" * 500
    error = FormatError("too long", path="r.run", line=1, text=text)
    assert error.text == text
    assert str(error) == "r.run, line 1: too long: '" + "x" * 117 + "...'"


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


# --- well-formed variants -----------------------------------------------------------------


def test_trec_whitespace_blank_lines_crlf_and_bom(tmp_path):
    content = "\ufeff  q1\tQ0  d1 \t 1\t  2.5\trun \r\n\r\n \t\r\nq2 Q0 d2 2 -1e-3 run\r\n"
    run = read_trec_run(write(tmp_path, "r.run", content))
    expected = pd.DataFrame(
        {
            "query_id": strings(["q1", "q2"]),
            "doc_id": strings(["d1", "d2"]),
            "rank": np.array([1, 2], dtype=np.int64),
            "score": [2.5, -0.001],
            "run_name": strings(["run", "run"]),
        }
    )
    assert_same_frame(run, expected)
    normalized = content.removeprefix("\ufeff").replace("\r\n", "\n")
    assert split_fast(normalized, 6) is not None  # still the fast path


def large_run(n_lines: int) -> list[str]:
    """Lines of a run well past the size at which the reader turns to pandas' parser."""
    return [
        f"q{i // 100}\tQ0\td{i:05d}\t{i % 100 + 1}\t{(n_lines - i) / 8}\tbm25"
        for i in range(n_lines)
    ]


def test_a_large_run_is_read_exactly_by_the_fast_parser(tmp_path, monkeypatch):
    lines = large_run(3000)
    lines[10:10] = ["", "   "]  # blank lines inside, and CRLF endings throughout
    path = write(tmp_path, "big.run", "\r\n".join(lines) + "\r\n")
    assert path.stat().st_size > 2 * trec.FAST_PARSE_FROM

    def no_scan(*args, **kwargs):
        raise AssertionError("a well-formed file fell back to the line scan")

    monkeypatch.setattr(trec, "split_slowly", no_scan)
    run = read_trec_run(path)
    assert len(run) == 3000
    assert run.iloc[2999].tolist() == ["q29", "d02999", 100, 1 / 8, "bm25"]
    assert run["score"].tolist() == [(3000 - i) / 8 for i in range(3000)]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ("q1 Q0 d1 1", "expected 6 fields"),
        ("q1 Q0 d1 x 1.5 bm25", "rank must be an integer, got 'x'"),
        ("q1 Q0 d1 1 nan bm25", "score must be a finite number, got 'nan'"),
        ("q1 Q0 d1 1 1.5 bm25 junk", "got 7"),
    ],
)
@pytest.mark.parametrize("later", ["q Q0 d", "q Q0 d x oops bm25"])
def test_a_bad_line_deep_in_a_large_run_is_found(tmp_path, bad, reason, later):
    lines = large_run(3000)
    lines[2500] = bad  # physical line 2501
    lines[2700] = later  # a second problem, later: not the one reported
    path = write(tmp_path, "big.run", "\n".join(lines))
    with pytest.raises(FormatError) as caught:
        read_trec_run(path)
    assert (caught.value.line, caught.value.text) == (2501, bad)
    assert reason in caught.value.reason


def test_trec_numbers_in_every_accepted_spelling(tmp_path):
    spellings = ["+1", "1.", ".5", "-0", "1E+05", "007", "1e-400", "2.129133"]
    content = "".join(f"q Q0 d{i} {i} {s} run\n" for i, s in enumerate(spellings))
    run = read_trec_run(write(tmp_path, "r.run", content))
    assert run["score"].tolist() == [1.0, 1.0, 0.5, 0.0, 1e5, 7.0, 0.0, 2.129133]
    ranks = "".join(
        f"q 0 d{i} {r}\n" for i, r in enumerate(["+3", "-1", "007", "-9223372036854775808"])
    )
    qrels = read_trec_qrels(write(tmp_path, "q.txt", ranks))
    assert qrels["relevance"].tolist() == [3, -1, 7, -(2**63)]


def test_negative_grades_are_kept(tmp_path):
    qrels = read_trec_qrels(write(tmp_path, "q.txt", "1 0 spam -1\n1 0 good 2\n"))
    assert qrels["relevance"].tolist() == [-1, 2]
    golden = read_golden(write(tmp_path, "g.csv", "query_id,doc_id,relevance\n1,spam,-1\n"))
    assert golden["relevance"].tolist() == [-1]


def test_csv_quoted_fields_extra_columns_and_unnamed_index(tmp_path):
    # As pandas' to_csv writes it: an unnamed index column, and a question with a comma
    # and a line break inside quotes (one record over two lines).
    content = ',query_id,doc_id,question\n0,q1,c1,"Who, and\nwhen?"\n1,q1,"c,2",x\n'
    golden = read_golden(write(tmp_path, "g.csv", content))
    assert golden["doc_id"].tolist() == ["c1", "c,2"]
    with pytest.raises(FormatError) as caught:
        read_golden(write(tmp_path, "h.csv", content + "2,q2,,y\n"))
    assert (caught.value.line, caught.value.reason) == (5, "doc_id is empty")


def test_csv_quoted_carriage_return(tmp_path):
    golden = read_golden(write(tmp_path, "g.csv", 'query_id,doc_id\nq1,"a\rb"\n'))
    assert golden["doc_id"].tolist() == ["a\rb"]
    # Unquoted, a lone CR ends the line (old Mac files): "b" is a record of one field.
    with pytest.raises(FormatError, match="line 3: expected 2 fields as in the header"):
        read_golden(write(tmp_path, "h.csv", "query_id,doc_id\nq1,a\rb\n"))


def test_results_long_with_score_and_rank(tmp_path):
    content = "query_id,doc_id,rank,score\nq1,c3,1,0.9\nq1,c1,2,0.25\n"
    run = read_results(write(tmp_path, "r.csv", content))
    expected = pd.DataFrame(
        {
            "query_id": strings(["q1", "q1"]),
            "doc_id": strings(["c3", "c1"]),
            "rank": np.array([1, 2], dtype=np.int64),
            "score": [0.9, 0.25],
        }
    )
    assert_same_frame(run, expected)
    scores_only = read_results(write(tmp_path, "s.csv", "query_id,doc_id,score\nq,c,-2\n"))
    assert list(scores_only.columns) == ["query_id", "doc_id", "score"]
    assert scores_only["score"].tolist() == [-2.0]


def test_empty_wide_list_gives_no_rows_for_that_query(tmp_path):
    content = 'query_id,retrieved_ids\nq1,"[]"\nq2,\nq3,c9\n'
    run = read_results(write(tmp_path, "r.csv", content))
    assert run.values.tolist() == [["q3", "c9", 1]]


# --- long and wide forms: the same content, the same frame ---------------------------------

GOLDEN = {"q1": ["c1", "007", "c 3"], "q2": ["1e5"], "NULL": ["nan", "True"]}


def golden_files(folder: Path, golden: dict[str, list[str]]) -> dict[str, Path]:
    def csv_text(rows, delimiter=","):
        buffer = io.StringIO()
        csv.writer(buffer, delimiter=delimiter, lineterminator="\n").writerows(rows)
        return buffer.getvalue()

    long_rows = [(q, d) for q, docs in golden.items() for d in docs]
    return {
        "long csv": write(folder, "long.csv", csv_text([("query_id", "doc_id"), *long_rows])),
        "long csv graded": write(
            folder,
            "graded.csv",
            csv_text([("relevance", "doc_id", "query_id"), *((1, d, q) for q, d in long_rows)]),
        ),
        "long tsv": write(folder, "long.tsv", csv_text([("query_id", "doc_id"), *long_rows], "\t")),
        "wide csv json": write(
            folder,
            "wide.csv",
            csv_text(
                [("query_id", "relevant_ids"), *((q, json.dumps(d)) for q, d in golden.items())]
            ),
        ),
        "long jsonl": write(
            folder,
            "long.jsonl",
            "".join(json.dumps({"query_id": q, "doc_id": d}) + "\n" for q, d in long_rows),
        ),
        "wide jsonl": write(
            folder,
            "wide.jsonl",
            "".join(
                json.dumps({"relevant_ids": d, "query_id": q, "question": "?"}) + "\n\n"
                for q, d in golden.items()
            ),
        ),
    }


def expected_golden(golden: dict[str, list[str]]) -> pd.DataFrame:
    pairs = [(q, d) for q, docs in golden.items() for d in docs]
    return pd.DataFrame(
        {
            "query_id": strings(q for q, _ in pairs),
            "doc_id": strings(d for _, d in pairs),
            "relevance": np.ones(len(pairs), dtype=np.int64),
        }
    )


def test_every_golden_form_gives_the_same_frame(tmp_path):
    expected = expected_golden(GOLDEN)
    for form, path in golden_files(tmp_path, GOLDEN).items():
        assert_same_frame(read_golden(path), expected, obj=form)


def test_separated_wide_lists_give_the_same_frame(tmp_path):
    golden = {"q1": ["c1", "007", "c3"], "q2": ["1e5"]}
    expected = expected_golden(golden)
    for content in (
        "query_id,relevant_ids\nq1,c1|007|c3\nq2,1e5\n",
        "query_id,relevant_ids\nq1,c1 | 007 | c3\nq2,1e5\n",
        "query_id,relevant_ids\nq1,c1;007;c3\nq2,1e5\n",
        'query_id,relevant_ids\nq1,"[""c1"",""007"",""c3""]"\nq2,"[""1e5""]"\n',
        'query_id\trelevant_ids\nq1\t["c1", "007", "c3"]\nq2\t1e5\n',
    ):
        name = "g.tsv" if "\t" in content else "g.csv"
        assert_same_frame(read_golden(write(tmp_path, name, content)), expected)


def test_every_results_form_gives_the_same_frame(tmp_path):
    ranking = {"q1": ["c7", "c1", "c3"], "q2": ["007"]}
    rows = [(q, d, r) for q, docs in ranking.items() for r, d in enumerate(docs, start=1)]
    expected = pd.DataFrame(
        {
            "query_id": strings(q for q, _, _ in rows),
            "doc_id": strings(d for _, d, _ in rows),
            "rank": np.array([r for _, _, r in rows], dtype=np.int64),
        }
    )
    files = {
        "long csv": (
            "r.csv",
            "query_id,doc_id,rank\n" + "".join(f"{q},{d},{r}\n" for q, d, r in rows),
        ),
        "wide csv": ("w.csv", "query_id,retrieved_ids\nq1,c7|c1|c3\nq2,007\n"),
        "long jsonl": (
            "r.jsonl",
            "".join(json.dumps({"query_id": q, "doc_id": d, "rank": r}) + "\n" for q, d, r in rows),
        ),
        "wide jsonl": (
            "w.jsonl",
            "".join(
                json.dumps({"query_id": q, "retrieved_ids": d}) + "\n" for q, d in ranking.items()
            ),
        ),
    }
    for form, (name, content) in files.items():
        run = read_results(write(tmp_path, name, content))
        assert_same_frame(run, expected, obj=form)


# --- fuzzing: nothing is dropped silently, nothing but FormatError escapes -----------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def mostly(usual: st.SearchStrategy, unusual: st.SearchStrategy) -> st.SearchStrategy:
    """``usual`` four times in five: fuzzed files must often be valid, or the checks made
    on a successful read would never run."""
    return st.integers(0, 4).flatmap(lambda i: usual if i else unusual)


# Ids of any character but whitespace. Not NUL either, which sends a file to the line scan
# and would keep the fast parser out of most examples; TOKEN brings NUL back.
NO_WHITESPACE = st.characters(blacklist_categories=("Cs",), blacklist_characters=" \t\n\r\f\v\x00")
TREC_ID = st.text(alphabet=NO_WHITESPACE, min_size=1, max_size=6)
# The first field of a line: "#" there makes the line a comment (skipped).
TREC_QUERY = TREC_ID.filter(lambda text: not text.startswith("#"))
INT64 = st.integers(-(2**63), 2**63 - 1)
FINITE = st.floats(allow_nan=False, allow_infinity=False)
TOKEN = st.one_of(
    st.integers(-(2**64), 2**64).map(str),  # ranks and grades, some beyond int64
    st.floats().map(repr),  # scores, with nan, inf and exponents
    st.sampled_from(["Q0", "+1", "1.", ".5", "1e999", "007", "1,5", "1_0", "Infinity", "a\x00"]),
    TREC_ID,
)
# What each field of a valid line holds (layout -> token strategies).
VALID_FIELDS = {
    6: (TREC_QUERY, st.just("Q0"), TREC_ID, INT64.map(str), FINITE.map(repr), TREC_ID),
    4: (TREC_QUERY, st.just("0"), TREC_ID, INT64.map(str)),
}


@st.composite
def trec_line(draw, n_fields: int, separator: st.SearchStrategy, broken: bool) -> str:
    """Mostly a valid line of n_fields; else (if ``broken``) tokens of any kind and number."""
    if not broken or draw(st.integers(0, 4)):
        tokens = [draw(field) for field in VALID_FIELDS[n_fields]]
    else:
        count = draw(st.integers(0, n_fields + 2))
        tokens = draw(st.lists(TOKEN, min_size=count, max_size=count))
    gaps = [draw(separator) for _ in tokens]
    lead = draw(st.sampled_from(["", "", " ", "\t"]))
    return lead + "".join(t + g for t, g in zip(tokens, gaps, strict=True)).rstrip(" \t")


@st.composite
def trec_text(draw, n_fields: int, *, broken_lines: bool = True) -> str:
    # Space and tab mostly; in one file in five also \r, \f and \v, which pandas' C parser
    # does not treat as whitespace (the scan does, as trec_eval).
    separators = draw(
        mostly(
            st.just([" ", "\t", "  ", " \t "]),
            st.just([" ", "\t", "\r", "\f", "\v", " \r "]),
        )
    )
    separator = st.sampled_from(separators)
    blank = st.sampled_from(["", " ", "\t \t"])
    line = trec_line(n_fields, separator, broken_lines)
    lines = draw(st.lists(mostly(line, blank), max_size=8))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return ending.join(lines) + draw(st.sampled_from(["", ending]))


def non_blank_lines(text: str) -> list[list[str]]:
    return [FIELD.findall(line) for line in text.split("\n") if FIELD.findall(line)]


@pytest.mark.slow
@FUZZ
@given(text=st.one_of(trec_text(6), trec_text(4), st.text(max_size=60)))
def test_trec_readers_drop_nothing_silently(folder, text):
    path = write(folder, "fuzz.run", text)
    expected = non_blank_lines(text)
    for reader, layout in ((read_trec_run, RUN_LAYOUT), (read_trec_qrels, QRELS_LAYOUT)):
        frame, error = attempt(reader, path)
        # The same answer, frame or error, when pandas' parser goes first (as for large files).
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(trec, "FAST_PARSE_FROM", 0)
            fast_frame, fast_error = attempt(reader, path)
        if error is not None:
            assert error.path == str(path)
            assert fast_error is not None
            assert (fast_error.line, fast_error.text) == (error.line, error.text)
            assert fast_error.reason == error.reason
            continue
        assert fast_error is None
        assert_same_frame(fast_frame, frame)
        assert len(frame) == len(expected) > 0
        assert all(len(fields) == len(layout) for fields in expected)
        assert frame["query_id"].tolist() == [fields[0] for fields in expected]
        assert frame["doc_id"].tolist() == [fields[2] for fields in expected]


@FUZZ_LIGHT
@given(data=st.binary(max_size=80))
def test_trec_readers_on_random_bytes(folder, data):
    path = write(folder, "fuzz.run", data)
    try:
        data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError:
        decodable = False
    else:
        decodable = True
    compressed = compression_of(data) is not None
    for reader in (read_trec_run, read_trec_qrels):
        _, error = attempt(reader, path)
        if not decodable:
            assert error is not None
            expected = ("cannot be decompressed" if compressed
                        else "UTF-16" if data.startswith((b"\xff\xfe", b"\xfe\xff"))
                        else "not valid UTF-8")
            assert expected in error.reason


@settings(FUZZ, max_examples=60)
@given(layout=st.sampled_from([RUN_LAYOUT, QRELS_LAYOUT]), data=st.data())
def test_the_fast_parser_agrees_with_the_line_scan(folder, layout, data):
    # Often well-formed lines only, so that the fast parser has its say; sometimes with a
    # field of junk after the last one, which only extra_fields="ignore" (runs) allows.
    text = data.draw(trec_text(len(layout), broken_lines=data.draw(st.booleans())))
    more_allowed = layout == RUN_LAYOUT and data.draw(st.booleans())
    if data.draw(st.booleans()):
        junk = data.draw(st.lists(st.one_of(st.just(""), TREC_ID.map(" ".__add__)), min_size=1))
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if FIELD.search(line):  # before the line's \r, if it has one
                body = line.removesuffix("\r")
                lines[i] = body + junk[i % len(junk)] + line[len(body) :]
        text = "\n".join(lines)
    source = Source(write(folder, "fuzz.run", text))
    fast = split_fast(source.normalized, len(layout), more_allowed=more_allowed)
    if fast is not None:
        columns, lines, problem = split_slowly(source, layout, more_allowed=more_allowed)
        assert problem is None
        np.testing.assert_array_equal(fast[1], lines)
        for got, want in zip(fast[0], columns, strict=True):
            pd.testing.assert_series_equal(got, want, check_names=False)


@FUZZ_LIGHT
@given(
    rows=st.lists(
        st.tuples(TREC_QUERY, TREC_ID, INT64, FINITE, TREC_ID),
        min_size=1,
        max_size=10,
    ),
    separator=st.sampled_from([" ", "\t", "  \t"]),
)
def test_a_run_written_in_trec_format_reads_back_equal(folder, rows, separator):
    text = "".join(
        separator.join([q, "Q0", d, str(rank), repr(score), name]) + "\n"
        for q, d, rank, score, name in rows
    )
    run = read_trec_run(write(folder, "fuzz.run", text))
    expected = pd.DataFrame(
        {
            "query_id": strings(r[0] for r in rows),
            "doc_id": strings(r[1] for r in rows),
            "rank": np.array([r[2] for r in rows], dtype=np.int64),
            "score": np.array([r[3] for r in rows], dtype=np.float64),
            "run_name": strings(r[4] for r in rows),
        }
    )
    assert_same_frame(run, expected)


@FUZZ_LIGHT
@given(
    rows=st.lists(
        st.tuples(TREC_QUERY, TREC_ID, INT64), min_size=1, max_size=10,
        unique_by=lambda r: r[:2]
    )
)
def test_qrels_written_in_trec_format_read_back_equal(folder, rows):
    text = "".join(f"{q}\t0\t{d}\t{grade}\n" for q, d, grade in rows)
    qrels = read_trec_qrels(write(folder, "fuzz.qrels", text))
    expected = pd.DataFrame(
        {
            "query_id": strings(r[0] for r in rows),
            "doc_id": strings(r[1] for r in rows),
            "relevance": np.array([r[2] for r in rows], dtype=np.int64),
        }
    )
    assert_same_frame(qrels, expected)


CSV_CELL = st.one_of(
    st.sampled_from(["q1", "c1", "1", "-2", "1.5", "", " ", "nan", "007", "[", "x|y"]),
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters='"\n'), max_size=5
    ),
)
# A cell that is a valid id: no comma, quote or line break, no whitespace at either end.
CSV_ID = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=',"\n\r'),
    min_size=1,
    max_size=5,
).filter(lambda s: s == s.strip(" \t\f\v"))
CSV_ROW = mostly(
    st.tuples(CSV_ID, CSV_ID, INT64.map(str)).map(",".join),
    st.one_of(st.lists(CSV_CELL, max_size=5).map(",".join), st.sampled_from(["", " ", "\t"])),
)


@FUZZ_LIGHT
@given(body=st.lists(CSV_ROW, max_size=8))
def test_csv_reader_drops_nothing_silently(folder, body):
    text = "query_id,doc_id,relevance\n" + "\n".join(body)
    path = write(folder, "fuzz.csv", text)
    golden, error = attempt(read_golden, path)
    if error is not None:
        return
    data_lines = [line for line in body if line.strip(" \t\r\f\v")]
    assert len(golden) == len(data_lines) > 0
    assert golden["doc_id"].tolist() == [line.split(",")[1] for line in data_lines]
    assert golden["relevance"].tolist() == [int(line.split(",")[2]) for line in data_lines]


JSON_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(),
    st.text(max_size=3),
    st.lists(st.text(max_size=2), max_size=2),
)
JSON_ID = st.one_of(
    st.integers(-(2**70), 2**70),
    st.text(min_size=1, max_size=4).filter(lambda s: s == s.strip(" \t\r\f\v\n")),
)
VALID_OBJECT = st.fixed_dictionaries(
    {
        "query_id": JSON_ID,
        "doc_id": JSON_ID,
        "relevance": INT64,
        "score": FINITE,
        "rank": INT64,
    }
)
ANY_OBJECT = st.fixed_dictionaries(
    {"query_id": JSON_VALUE, "doc_id": JSON_VALUE},
    optional={"relevance": JSON_VALUE, "score": JSON_VALUE, "rank": JSON_VALUE},
)
JSONL_LINE = mostly(
    VALID_OBJECT.map(json.dumps),
    st.one_of(
        ANY_OBJECT.map(json.dumps),
        st.text(max_size=12).map(lambda s: s.replace("\n", " ")),
        st.sampled_from(["", "  ", "[]", "null", "{}"]),
    ),
)


@FUZZ_LIGHT
@given(lines=st.lists(JSONL_LINE, max_size=6))
def test_jsonl_readers_drop_nothing_silently(folder, lines):
    path = write(folder, "fuzz.jsonl", "\n".join(lines))
    data_lines = [line for line in lines if line.strip(" \t\r\f\v")]
    for reader in (read_golden, read_results):
        frame, error = attempt(reader, path)
        if error is not None:
            continue
        assert len(frame) == len(data_lines) > 0
        docs = [json.loads(line)["doc_id"] for line in data_lines]
        assert frame["doc_id"].tolist() == [str(d) for d in docs]


# No "\r": Python's csv writer leaves a lone "\r" unquoted, which no CSV reader can
# tell from a line break (ours refuses it; see test_csv_quoted_carriage_return).
GOLDEN_ID = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"),
    min_size=1,
    max_size=6,
).filter(lambda s: s == s.strip(" \t\f\v\n"))


@settings(FUZZ, max_examples=30)  # six files per example
@given(
    golden=st.dictionaries(
        GOLDEN_ID, st.lists(GOLDEN_ID, min_size=1, max_size=4, unique=True), min_size=1,
        max_size=4,
    )
)
def test_any_golden_set_reads_the_same_in_every_form(folder, golden):
    expected = expected_golden(golden)
    for form, path in golden_files(folder, golden).items():
        assert_same_frame(read_golden(path), expected, obj=form)


# --- compressed files, Parquet, and one validation for every format ------------------------


def test_compressed_files_read_as_their_contents(tmp_path):
    import bz2
    import gzip
    import lzma

    import pyarrow as pa

    text = "q1 Q0 d1 1 2.5 run\nq1 Q0 d2 2 1.5 run\n"
    plain = read_trec_run(write(tmp_path, "r.run", text))
    zstd = pa.compress(text.encode(), codec="zstd", asbytes=True)
    # pa.compress writes a bare frame; a .zst file is the same bytes.
    for name, data in (("r.run.gz", gzip.compress(text.encode())),
                       ("r.run.bz2", bz2.compress(text.encode())),
                       ("r.run.xz", lzma.compress(text.encode())),
                       ("r.run.zst", zstd),
                       ("misnamed.run", gzip.compress(text.encode()))):  # told by its bytes
        assert_same_frame(read_trec_run(write(tmp_path, name, data)), plain, obj=name)
    golden = "query_id,doc_id\nq1,d1\n"
    expected = read_golden(write(tmp_path, "g.csv", golden))
    assert_same_frame(read_golden(write(tmp_path, "g.csv.gz", gzip.compress(golden.encode()))),
                      expected)


def test_a_text_file_that_starts_like_bzip2_is_text(tmp_path):
    # "BZh" alone is not bzip2: the block size digit and the block magic must follow.
    run = read_trec_run(write(tmp_path, "r.run", "BZh9 Q0 d1 1 2.5 run\n"))
    assert run["query_id"].tolist() == ["BZh9"]


def test_a_truncated_compressed_file_is_a_format_error(tmp_path):
    import gzip

    data = gzip.compress(b"q1 Q0 d1 1 2.5 run\n" * 100)[:30]
    with pytest.raises(FormatError, match="starts like gzip data but cannot be decompressed"):
        read_trec_run(write(tmp_path, "r.run.gz", data))


def parquet(tmp_path: Path, name: str, columns: dict) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / name
    pq.write_table(pa.table(columns), path)
    return path


def test_parquet_long_and_wide_read_like_csv(tmp_path):
    expected = read_golden(write(tmp_path, "g.csv", "query_id,doc_id,relevance\nq1,c1,2\n7,c2,1\n"))
    long = parquet(tmp_path, "g.parquet", {"query_id": ["q1", "7"], "doc_id": ["c1", "c2"],
                                           "relevance": [2, 1]})
    assert_same_frame(read_golden(long), expected)
    ints = parquet(tmp_path, "i.parquet", {"query_id": [7], "doc_id": [42], "relevance": [1.0]})
    assert read_golden(ints).values.tolist() == [["7", "42", 1]]  # 1.0: a whole number
    wide = parquet(tmp_path, "w.parquet", {"query_id": ["q1"], "retrieved_ids": [["c7", "c1"]]})
    assert read_results(wide).values.tolist() == [["q1", "c7", 1], ["q1", "c1", 2]]


@pytest.mark.parametrize(
    ("columns", "row", "reason"),
    [
        # The case: a null inside a list was dropped, moving later docs up.
        ({"query_id": ["q1"], "retrieved_ids": [["c7", None, "c1"]]}, 1,
         "retrieved_ids[1] must be a string or an integer id, got None"),
        ({"query_id": ["q1", "q1"], "retrieved_ids": [["c1"], ["c2"]]}, 2,
         "query 'q1' already has a row, on row 1"),
        ({"query_id": ["q1", "q2"], "doc_id": ["c1", " "], "score": [1.0, 2.0]}, 2,
         "doc_id ' ' begins or ends with whitespace"),
        ({"query_id": ["q1", "q2"], "doc_id": ["c1", ""], "score": [1.0, 2.0]}, 2,
         "doc_id is empty"),
        ({"query_id": ["q1"], "doc_id": ["c1"], "score": ["0.9"]}, 1,
         "score must be a number, got '0.9', a string"),
        ({"query_id": ["q1", "q1"], "doc_id": ["c1", "c2"], "score": [1.0, float("-inf")]}, 2,
         "score must be a finite number, got -inf"),
        ({"query_id": ["q1", "q1"], "doc_id": ["c1", "c2"], "rank": [1.0, 2.5]}, 2,
         "rank must be an integer, got 2.5"),
    ],
)
def test_parquet_goes_through_the_same_checks(tmp_path, columns, row, reason):
    path = parquet(tmp_path, "r.parquet", columns)
    with pytest.raises(FormatError) as caught:
        read_results(path)
    assert (caught.value.line, caught.value.unit) == (row, "row")
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"{path}, row {row}: ")


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


def test_trec_readers_skip_comment_lines_and_count_them(tmp_path):
    # A line whose first character other than whitespace is "#" is a comment, as trec_eval
    # reads runs: skipped, and counted, so that an error names the line an editor shows.
    run = tmp_path / "r.run"
    run.write_text("# bm25, k1=0.9\nq1 Q0 d1 1 2.0 bm25\n  # a note\nq1 Q0 d2 2 1.0 bm25\n")
    assert read_trec_run(run)["doc_id"].tolist() == ["d1", "d2"]
    qrels = tmp_path / "q.txt"
    qrels.write_text("#q d rel\n#\nq1 0 d1 1\n\t# x y z\nq1 0 d2 0\n")
    assert read_trec_qrels(qrels)["doc_id"].tolist() == ["d1", "d2"]
    run.write_text("#a\n#b\nq1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 two 1.0 bm25\n")
    with pytest.raises(FormatError) as caught:
        read_trec_run(run)
    assert caught.value.line == 4
    run.write_text("# nothing but comments\n")
    with pytest.raises(FormatError, match="no data lines"):
        read_trec_run(run)


def test_a_trec_file_that_starts_with_a_comment_is_told_as_trec(tmp_path):
    from ragmetrics.io import read_qrels, read_run

    run = tmp_path / "bm25.txt"
    run.write_text("# query Q0 doc rank score run\nq1 Q0 d1 1 2.0 bm25\n")
    assert read_run(run)["doc_id"].tolist() == ["d1"]
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("# judged by two assessors\nq1 0 d1 1\n")
    assert read_qrels(qrels)["relevance"].tolist() == [1]


def test_parts_of_a_run_keep_a_query_whole_across_a_comment(tmp_path):
    from ragmetrics.io.batches import read_trec_run_batches

    path = tmp_path / "run.txt"
    path.write_text("".join(f"q{q} Q0 d{d} {d} {9 - d} r\n" + ("# note\n" if d == 2 else "")
                            for q in range(3) for d in range(1, 4)))
    parts = [part.frame for part in read_trec_run_batches(path, block_bytes=40)]
    assert [part["query_id"].unique().tolist() for part in parts] == [["q0"], ["q1"], ["q2"]]


# -- pipes: read once, whole ---------------------------------------------------------------


def _read_pipe(named_pipe, name: str, data: bytes, read):
    """``read(path)`` of a named pipe that a thread writes ``data`` into."""
    with named_pipe(name, data) as path:
        return read(path)


@pytest.mark.parametrize(("name", "data", "reader"), [
    ("run.txt", b"q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n", "read_run"),
    ("run.txt.gz", gzip.compress(b"q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n"), "read_run"),
    ("run.csv", b"query_id,doc_id,score\nq1,d1,2\nq1,d2,1\n", "read_run"),
    ("run.jsonl", b'{"query_id":"q1","retrieved_ids":["d1","d2"]}\n', "read_results"),
    ("run", b"\xef\xbb\xbfq1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n", "read_trec_run"),
])
def test_a_run_is_read_from_a_named_pipe(named_pipe, name, data, reader):
    from ragmetrics import io as rio

    run = _read_pipe(named_pipe, name, data, getattr(rio, reader))
    assert run["doc_id"].tolist() == ["d1", "d2"]
    assert run["query_id"].tolist() == ["q1", "q1"]


def test_judgments_and_a_parquet_run_are_read_from_named_pipes(named_pipe):
    from ragmetrics.io import read_golden, read_qrels, read_run

    qrels = _read_pipe(named_pipe, "q.txt", b"q1 0 d1 1\n", read_qrels)
    assert qrels["relevance"].tolist() == [1]
    golden = _read_pipe(named_pipe, "g.csv", b"query_id,doc_id\nq1,d1\n", read_golden)
    assert golden["doc_id"].tolist() == ["d1"]
    buffer = io.BytesIO()
    pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "score": [1.0]}).to_parquet(buffer)
    run = _read_pipe(named_pipe, "run.parquet", buffer.getvalue(), read_run)
    assert run["score"].tolist() == [1.0]


def test_an_error_in_a_pipe_names_it_and_the_line(tmp_path, named_pipe):
    with pytest.raises(FormatError) as caught:
        _read_pipe(named_pipe, "r.csv", b"query_id,doc_id,score\nq1,d1,2\nq1,d2,x\n",
                   read_results)
    assert caught.value.path == str(tmp_path / "r.csv")
    assert caught.value.line == 3
