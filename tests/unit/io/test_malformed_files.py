"""Malformed input in every format: a FormatError with the file, the exact line and its
text; problems of no single line; the error's message, pickling and cut."""

from __future__ import annotations

import pickle

import pytest
from reader_files import (
    write,
)

from ragmetrics.io import (
    FormatError,
    read_golden,
    read_results,
    read_trec_qrels,
    read_trec_run,
    trec,
)

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
