"""The indexes that place a row on its line, held to the definitions they replace.

A TREC file Arrow cannot split as it is, and the line of an error in a TREC or CSV file,
are found from an index of the file's line breaks (``ragmetrics.io.trec.split_slowly``,
``ragmetrics.io.tables.wrong_record``, the lines of a fast CSV table). Here each is held,
on fuzzed files, to the definition it replaces: the TREC line scan (written out below:
the package no longer has it) and Python's ``csv`` module (``tables.parse_csv``).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics.io import FormatError, tables, trec
from ragmetrics.io.source import Source

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


# --- TREC: the line scan ----------------------------------------------------------------

FIELD = re.compile(r"[^ \t\r\f\v]+")  # C's isspace but \n, as trec_eval splits a line


def scan(source: Source, layout: tuple[str, ...], more_allowed: bool):
    """The definition: each line's fields, blank lines and comments skipped, up to the
    first line with the wrong number of fields -> (rows, their lines, that line or None,
    its number of fields)."""
    rows, lines = [], []
    for number, line in enumerate(source.lines(), start=source.first_line):
        fields = FIELD.findall(line)
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) < len(layout) or (len(fields) > len(layout) and not more_allowed):
            return rows, lines, number, len(fields)
        rows.append(fields[: len(layout)])
        lines.append(number)
    return rows, lines, None, None


TOKEN = st.sampled_from(["q1", "Q0", "d1", "007", "1", "2.5", "#c", "a#", "\x00", "é",
                         "\u00a0", "\x1c", "nan", "-3"])
SEPARATOR = st.sampled_from([" ", " ", "\t", "  ", "\f", "\v", " \t "])
BREAK = st.sampled_from(["\n", "\n", "\r\n", "\r"])


@st.composite
def trec_texts(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 10))):
        tokens = draw(st.lists(TOKEN, min_size=0, max_size=8))
        lead, trail = draw(st.sampled_from(["", "", " ", "\t"])), draw(
            st.sampled_from(["", "", " "]))
        lines.append(lead + "".join(t + draw(SEPARATOR) for t in tokens[:-1])
                     + "".join(tokens[-1:]) + trail)
    return "".join(line + draw(BREAK) for line in lines) + draw(st.sampled_from(["", "q2"]))


@pytest.mark.slow
@FUZZ
@given(text=trec_texts(), layout=st.sampled_from([trec.RUN_LAYOUT, trec.QRELS_LAYOUT]),
       more_allowed=st.booleans(), first_line=st.sampled_from([1, 7]))
def test_the_trec_line_index_reads_as_the_line_scan(text, layout, more_allowed, first_line):
    source = Source.part("fuzz.run", text.encode("utf-8"), first_line)
    rows, lines, bad_line, found = scan(source, layout, more_allowed)
    columns, got_lines, problem = trec.split_slowly(source, layout, more_allowed=more_allowed)
    assert [list(row) for row in zip(*(c.tolist() for c in columns), strict=True)] == rows
    np.testing.assert_array_equal(got_lines, np.array(lines, dtype=np.int64))
    if bad_line is None:
        assert problem is None
    else:
        assert (problem.line, problem.text) == (bad_line, source.lines()[bad_line - first_line])
        assert problem.reason.startswith(f"expected {len(layout)} fields ("
                                         f"{' '.join(layout)}), got {found}")


def test_a_trec_line_longer_than_arrows_block_is_read_by_the_index(tmp_path):
    doc = "x" * 1_500_000  # Arrow reads 1 MiB blocks
    path = tmp_path / "long.run"
    path.write_text(f"# a comment\nq1 Q0 {doc} 1 2.5 r junk\nq1 Q0 d2 2 1.5 r\n")
    columns, lines, problem = trec.split_slowly(Source(path), trec.RUN_LAYOUT,
                                                more_allowed=True)
    assert problem is None
    assert lines.tolist() == [2, 3]
    assert [len(value) for value in columns[2]] == [1_500_000, 2]


# --- CSV: Python's csv ------------------------------------------------------------------

CELL = st.sampled_from(["q1", "d1", "1", "2.5", "", " ", "\x00", '"a,b"', '"a\nb"', '"a\rb"',
                        '"x""y"', '""', "é", "\t"])
CSV_BREAK = st.sampled_from(["\n", "\n", "\r\n", "\r"])


@st.composite
def csv_texts(draw) -> str:
    header = draw(st.sampled_from(["query_id,doc_id,score", "query_id,doc_id", ",query_id,x",
                                   '"query_id","doc_id","rank"']))
    n = header.count(",") + 1
    lines = [header]
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["row", "row", "row", "short", "long", "blank", "empty"]))
        width = {"short": n - 1, "long": n + 1}.get(kind, n)
        lines.append({"blank": draw(st.sampled_from([" ", "  ", "\t"])), "empty": ""}.get(
            kind, ",".join(draw(st.lists(CELL, min_size=width, max_size=width)))))
    before = draw(st.sampled_from(["", "\n", " \n"]))
    return before + "".join(line + draw(CSV_BREAK) for line in lines)


def definition(path: Path):
    source = Source(path)
    try:
        return tables.parse_csv(source, ","), None
    except FormatError as error:
        return None, error


@FUZZ
@given(text=csv_texts())
def test_a_csv_record_with_the_wrong_number_of_fields_is_found_as_pythons_csv_finds_it(
        tmp_path_factory, text):
    path = tmp_path_factory.mktemp("csv") / "fuzz.csv"
    path.write_bytes(text.encode("utf-8"))
    _, error = definition(path)
    found = tables.wrong_record(Source(path), ",")
    if found is not None:  # then it is the definition's error, to the letter
        assert error is not None
        assert (found.reason, found.line, found.text) == (error.reason, error.line, error.text)
    elif tables._layout(Source(path), ",") is not None and error is not None:
        # Arrow could have read the file: then the definition's error is not a record
        # with the wrong number of fields (which wrong_record would have found).
        assert "fields as in the header" not in error.reason


@FUZZ
@given(text=csv_texts())
def test_the_lines_of_a_fast_csv_table_are_the_definitions(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("csv") / "fuzz.csv"
    path.write_bytes(text.encode("utf-8"))
    fast = tables.fast_csv(Source(path), ",")
    if fast is None:
        return
    table, error = definition(path)
    assert error is None
    np.testing.assert_array_equal(fast.lines[:], table.lines)


@pytest.mark.parametrize(("body", "line", "found"), [
    ("q1,d1,1\n\n  \nq2,d2\n", 5, 2),  # blank lines skipped, counted
    ('q1,"d\n1",1\nq2,d2,1,4\n', 4, 4),  # a quoted line break: a record of two lines
    ("q1,d1,1\r\nq2,d2,1\rq3,\"a,b\"\n", 4, 2),  # CRLF and a lone CR; a quoted comma
])
def test_the_record_index_names_the_line_and_count_as_pythons_csv(tmp_path, body, line, found):
    path = tmp_path / "g.csv"
    path.write_text("query_id,doc_id,score\n" + body, newline="")
    error, expected = tables.wrong_record(Source(path), ","), definition(path)[1]
    assert (error.line, error.reason) == (
        line, f"expected 3 fields as in the header (query_id, doc_id, score), got {found}")
    assert (error.reason, error.line, error.text) == (expected.reason, expected.line,
                                                      expected.text)
