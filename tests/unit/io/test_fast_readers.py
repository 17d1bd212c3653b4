"""The fast readers (Arrow's parsers, checks in pyarrow.compute) against the definition.

Every reader first tries a fast parse, and falls back to the definition (the TREC line
scan, Python's ``csv`` and ``json`` modules, Parquet values as Python objects) when the
fast parse is in doubt or meets a problem. These tests hold the two to one answer: on
every fuzzed file the readers give the same frame (values and dtypes) or the same error
(reason, line, text) with the fast parsers as without them; every table the fast parser
vouches for has the definition's fields; and the Arrow side of each check accepts what
the Python side accepts, with the same values.
"""

from __future__ import annotations

import bz2
import contextlib
import csv
import gzip
import io
import itertools
import json
import lzma
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics.io import (
    FormatError,
    read_golden,
    read_qrels,
    read_results,
    read_run,
    read_trec_qrels,
    read_trec_run,
    tables,
    trec,
)
from ragmetrics.io import checks as checks_module
from ragmetrics.io.checks import (
    Bad,
    Column,
    check_ids,
    check_integers,
    check_numbers,
    flatten_id_lists,
    integers_from_text,
    numbers_from_text,
)
from ragmetrics.io.frames import any_repeated_pair
from ragmetrics.io.hashing import text_hashes
from ragmetrics.io.source import Source

FUZZ = settings(max_examples=80, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@contextlib.contextmanager
def definition_only():
    """The readers with every fast parser turned off: the definition alone."""
    original = tables.parse_parquet
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tables, "fast_csv", lambda source, delimiter, numbers=(): None)
        patch.setattr(tables, "fast_jsonl", lambda source: None)
        patch.setattr(tables, "parse_parquet", lambda path, fast=False: original(path))
        patch.setattr(trec, "FAST_PARSE_FROM", 1 << 62)
        yield


def attempt(reader, path, **options):
    try:
        return reader(path, **options), None
    except FormatError as error:
        return None, error


def assert_same_answer(reader, path, **options):
    """The reader gives the same frame, or the same error, with and without the fast
    parsers; returns the frame (or None)."""
    frame, error = attempt(reader, path, **options)
    with definition_only():
        expected, expected_error = attempt(reader, path, **options)
    if expected_error is not None:
        assert error is not None, f"the fast path read a file the definition refuses: " \
                                  f"{expected_error}"
        assert (error.reason, error.line, error.text, error.unit) == (
            expected_error.reason, expected_error.line, expected_error.text,
            expected_error.unit)
        return None
    assert error is None, f"the fast path refused a file the definition reads: {error}"
    pd.testing.assert_frame_equal(frame, expected)
    return frame


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fast")


# --- CSV and TSV ------------------------------------------------------------------------

# Cells that stress the two CSV parsers where they could differ: quotes in every place,
# delimiters and line breaks inside quotes, whitespace, empty cells.
CELL = st.one_of(
    st.sampled_from(["q1", "c1", "007", "1", "-2", "+3", "2.5", "1e-3", "nan", "", " ", "\t",
                     "a b", '"x"', '"x,y"', '"x""y"', '""', '"a\nb"', '"a\rb"', '"a"b', 'a"b',
                     '"a" ', ' "a"', '"', "x|y", "é", "1e999", "9223372036854775808"]),
    st.text(alphabet=st.sampled_from('ab1.,;"\t \r\n-+e'), max_size=6),
)
HEADERS = st.sampled_from([
    "query_id,doc_id", "query_id,doc_id,relevance", "query_id,doc_id,rank,score",
    "query_id,doc_id,score", ",query_id,doc_id", "query_id,relevant_ids",
    "query_id,retrieved_ids,question", '"query_id","doc_id","score"', "query_id,doc_id,doc_id",
    " query_id , doc_id ", "query_id",
])


@st.composite
def csv_files(draw, delimiter: str = ","):
    header = draw(HEADERS)
    n = header.count(",") + 1
    width = st.integers(n, n) if draw(st.integers(0, 4)) else st.integers(0, n + 1)
    rows = draw(st.lists(width.flatmap(lambda k: st.lists(CELL, min_size=k, max_size=k)),
                         max_size=8))
    blank = st.sampled_from(["", " ", "\t", "\r"])
    lines = [header] + [delimiter.join(cells) for cells in rows]
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(blank))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = ending.join(lines) + draw(st.sampled_from(["", ending]))
    if delimiter == "\t":
        text = text.replace(",", "\t")
    return text


@FUZZ
@given(text=csv_files(), tsv=st.booleans())
def test_csv_readers_give_the_definitions_answer(folder, text, tsv):
    name = "fuzz.tsv" if tsv else "fuzz.csv"
    path = write(folder, name, text.replace(",", "\t") if tsv else text)
    assert_same_answer(read_golden, path)
    assert_same_answer(read_results, path)
    assert_same_answer(read_results, path, duplicates="error")


@FUZZ
@given(text=csv_files(), tsv=st.booleans())
def test_the_fast_csv_parser_vouches_only_for_the_definitions_fields(folder, text, tsv):
    delimiter = "\t" if tsv else ","
    source = Source(write(folder, "fuzz.csv", text.replace(",", "\t") if tsv else text))
    fast = tables.fast_csv(source, delimiter)
    if fast is None:
        return
    slow = tables.parse_csv(source, delimiter)
    assert fast.columns == slow.columns
    assert len(fast) == len(slow)
    for name in slow.columns:
        assert fast.values[name].to_pylist() == slow.values[name].tolist(), name


def test_the_fast_csv_parser_takes_plain_and_quoted_files(tmp_path):
    plain = "query_id,doc_id,score\n" + "".join(f"q{i},d{i},{i / 4}\n" for i in range(50))
    quoted = ('"query_id","doc_id","question"\n'
              + "".join(f'q{i},"d,{i}","Who ""said"" it,\nand when?"\n' for i in range(50)))
    for text in (plain, quoted, plain.replace("\n", "\r\n")):
        source = Source(write(tmp_path, "g.csv", text))
        fast = tables.fast_csv(source, ",")
        assert fast is not None
        slow = tables.parse_csv(source, ",")
        for name in slow.columns:
            assert fast.values[name].to_pylist() == slow.values[name].tolist()


@pytest.mark.parametrize("text", [
    'query_id,doc_id\nq1,"a"b\n',  # Python refuses text after a closing quote
    'query_id,doc_id\nq1,"a\n',  # an unclosed quote
    'query_id,doc_id\nq1,a"b\n',  # a quote inside a field, text to Python
    'query_id,doc_id\nq1,"a,"b",c\n',
    '"query_id,doc_id\nq1",c1\n',  # a line break in the header
    "query_id,doc_id\r\nq1,c1\rq2,c2\n",
    "query_id,doc_id\nq1,c\x001\n",
])
def test_the_fast_csv_parser_leaves_what_it_cannot_vouch_for(tmp_path, text):
    source = Source(write(tmp_path, "g.csv", text))
    fast = tables.fast_csv(source, ",")
    if fast is not None:  # vouched: then it must be the definition's reading
        slow = tables.parse_csv(source, ",")
        for name in slow.columns:
            assert fast.values[name].to_pylist() == slow.values[name].tolist()
    assert_same_answer(read_golden, source.name)


# --- JSON Lines ---------------------------------------------------------------------------

JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
              st.floats(allow_nan=False, allow_infinity=False),
              st.text(max_size=4), st.sampled_from(["q1", "c1", "", " c", "007"])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab"), inner,
                                                                 max_size=2),
    max_leaves=6,
)
KEY = st.sampled_from(["query_id", "doc_id", "relevance", "rank", "score", "relevant_ids",
                       "retrieved_ids", "question"])
ID = st.one_of(st.sampled_from(["q1", "q2", "c1", "c2", "007"]), st.integers(-5, 5))
GOOD_RECORD = st.fixed_dictionaries(
    {"query_id": ID, "doc_id": ID},
    optional={"relevance": st.integers(-3, 3), "rank": st.integers(1, 9),
              "score": st.floats(-1e6, 1e6, allow_nan=False)},
)


@st.composite
def jsonl_files(draw):
    records = draw(st.lists(st.one_of(GOOD_RECORD, st.dictionaries(KEY, JSON_VALUE, max_size=4)),
                            max_size=6))
    lines = [json.dumps(record, allow_nan=True) for record in records]
    for _ in range(draw(st.integers(0, 1))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(
            ["", " ", "[1]", '{"a": 1} {"b": 2}', '{"a": NaN}', '{"score": -NaN}',
             '{"score": Infinity}', '{"a": 1, "a": 2}', '{"query_id": "\\ud800"}', "\f"])))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return ending.join(lines) + draw(st.sampled_from(["", ending]))


@pytest.mark.slow
@FUZZ
@given(text=jsonl_files())
def test_jsonl_readers_give_the_definitions_answer(folder, text):
    path = write(folder, "fuzz.jsonl", text)
    assert_same_answer(read_golden, path)
    assert_same_answer(read_results, path)


@pytest.mark.parametrize("line", [
    '{"query_id": "q", "doc_id": "c", "score": -NaN}',  # Arrow reads -NaN, Python does not
    '{"query_id": "q", "doc_id": "c", "score": 1.5, "x": Inf}',
    '{"query_id": "q", "doc_id": "c", "score": 1} {"query_id": "q", "doc_id": "d", "score": 2}',
    # An integer in a column of floats: Arrow rounds it to a double.
    ('{"query_id": "q", "doc_id": "c", "x": 0.5}\n{"query_id": "q", "doc_id": "d", '
     '"x": 9007199254740993}'),
    '{"query_id": "q", "doc_id": "c", "rank": 1, "x": ' + "[" * 80 + "]" * 80 + "}",
])
def test_jsonl_the_parsers_read_differently_is_left_to_the_definition(tmp_path, line):
    path = write(tmp_path, "r.jsonl", '{"query_id": "q", "doc_id": "b", "rank": 2}\n' + line)
    assert tables.fast_jsonl(Source(path)) is None
    assert_same_answer(read_results, path)


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "null\n", ' null\n{"query_id": "q", "doc_id": "c"}\n',
    '{"query_id": "q", "doc_id": "c"}\n' * 60_000 + "null\n" * 300_000,
])
def test_jsonl_null_lines_never_reach_arrow(tmp_path, text):
    # pyarrow 26's JSON reader crashes (SIGSEGV) on a block of null lines: in a process of
    # its own, the reader must refuse the file with the definition's error.
    path = write(tmp_path, "g.jsonl", text)
    code = ("import sys; from ragmetrics.io import read_golden, FormatError\n"
            "try:\n    read_golden(sys.argv[1])\n"
            "except FormatError as error:\n    print(error.line, error.reason)\n")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-500:]
    line = 60_001 if len(text) > 1000 else 1
    assert done.stdout.startswith(f"{line} expected a JSON object {{...}} per line, got null")


@pytest.mark.slow
@pytest.mark.parametrize("depth", [1_500, 30_000])
def test_jsonl_deep_nesting_never_reaches_arrow(tmp_path, depth):
    # pyarrow 26's JSON reader overflows its stack at 15,000-20,000 levels; Python's json
    # refuses such a line (its recursion limit), which the reader reports.
    line = '{"query_id": "q", "doc_id": "c", "x": ' + "[" * depth + "]" * depth + "}"
    path = write(tmp_path, "g.jsonl", '{"query_id": "q", "doc_id": "b", "x": []}\n' + line)
    code = ("import sys; from ragmetrics.io import read_golden, FormatError\n"
            "try:\n    print(len(read_golden(sys.argv[1])))\n"
            "except FormatError as error:\n    print(error.line, error.reason)\n")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.startswith("2 not valid JSON (maximum recursion depth exceeded")


def test_jsonl_integers_rounded_by_arrow_are_never_taken(tmp_path):
    # In a column of floats, Arrow reads the integer 2**53 + 1 as 2**53: Python keeps it,
    # and a score that a float cannot hold is refused (the score policy), by both paths.
    path = write(tmp_path, "r.jsonl", '{"query_id": "q", "doc_id": "c", "score": 0.5}\n'
                                      '{"query_id": "q", "doc_id": "d", "score": 9007199254740993}\n')
    with pytest.raises(FormatError, match="score 9007199254740993 is a whole number") as caught:
        read_results(path)
    assert caught.value.line == 2
    assert_same_answer(read_results, path)
    path = write(tmp_path, "r.jsonl", '{"query_id": "q", "doc_id": "c", "score": 0.5}\n'
                                      '{"query_id": "q", "doc_id": "d", "score": 9007199254740994}\n')
    assert read_results(path)["score"].tolist() == [0.5, float(9007199254740994)]
    assert_same_answer(read_results, path)


# --- Parquet ------------------------------------------------------------------------------

PARQUET_COLUMN = st.sampled_from([
    pa.array(["q1", "q2", None]), pa.array(["c1", " c2", "c3"]), pa.array(["c1", "", "c3"]),
    pa.array([1, 2, 3]), pa.array([1.0, 2.5, None]), pa.array([1.0, 2.0, 3.0]),
    pa.array([True, False, True]), pa.array([[1, 2], [], None]),
    pa.array([["c1", "c2"], ["c3"], []]), pa.array([["c1", None], ["c3"], ["c4"]]),
    pa.array(["c1", "c2", "c2"]).dictionary_encode(), pa.array([2**63, 1, 2], pa.uint64()),
    pa.array([float("inf"), 1.0, 2.0]), pa.array(["0.5", "1", "2"]),
])


@FUZZ
@given(columns=st.dictionaries(KEY, PARQUET_COLUMN, min_size=1, max_size=4))
def test_parquet_readers_give_the_definitions_answer(folder, columns):
    path = folder / "fuzz.parquet"
    pq.write_table(pa.table(columns), path)
    assert_same_answer(read_golden, path)
    assert_same_answer(read_results, path)


# --- TREC -----------------------------------------------------------------------------------


def large(lines: list[str], ending: str = "\n") -> str:
    """Enough lines for the fast split (FAST_PARSE_FROM)."""
    text = ending.join(lines) + ending
    return text * (trec.FAST_PARSE_FROM // len(text) + 1)


@pytest.mark.parametrize("layout", [
    "q1 Q0 d1 1 2.5 run",  # one space, as Anserini writes
    "q1\tQ0\td1\t1\t2.5\trun",  # tabs
    "301\tQ0\tFR940202-2-00150\t104\t  2.129133\tSTANDARD",  # trec_eval's test files
    "  q1  Q0\t d1 \t1\f2.5\vrun ",  # any whitespace
])
@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_every_trec_layout_is_split_fast_and_exactly(tmp_path, layout, ending):
    path = write(tmp_path, "r.run", large([layout, "", "  ", layout.replace("Q0", "Q1")], ending))
    with pytest.MonkeyPatch.context() as patch:
        def no_scan(*args, **kwargs):
            raise AssertionError("a well-formed file fell back to the line scan")

        patch.setattr(trec, "split_slowly", no_scan)
        run = read_trec_run(path)
    query, _, doc, rank, score, name = layout.split()
    assert run.iloc[0].tolist() == [query, doc, int(rank), float(score), name]
    assert len(run) == 2 * path.read_text().count(layout)
    source = Source(path)  # every field, Q0 included, as the scan splits it
    fast_columns, fast_lines = trec.split_fast(source.data, 6)
    columns, lines, _ = trec.split_slowly(source, trec.RUN_LAYOUT)
    np.testing.assert_array_equal(fast_lines, lines)
    for got, expected in zip(fast_columns, columns, strict=True):
        pd.testing.assert_series_equal(got, expected)
    assert_same_answer(read_trec_run, path)


@pytest.mark.parametrize(("bad", "reason"), [
    ("q1 Q0 d1 +1 2.5 run", None),  # a valid rank, which Arrow's parser refuses
    ("q1 Q0 d1 1 +.5e-3 run", None),
    ("q1 Q0 d1 1 1e-400 run", None),
    ("q1 Q0 d1 1 nan run", "score must be a finite number, got 'nan'"),
    ("q1 Q0 d1 1 inf run", "score must be a finite number, got 'inf'"),
    ("q1 Q0 d1 1 1e999 run", "score '1e999' is too large for a float"),
    ("q1 Q0 d1 1 0x1p3 run", "score must be a number like 2.5 or -1e-3, got '0x1p3'"),
    ("q1 Q0 d1 ١ 2.5 run", "rank must be an integer, got '١'"),
    ("q1 Q0 d1 -9223372036854775809 2.5 run", "does not fit a 64-bit integer"),
    ("q1 Q0 d1 +9223372036854775808 2.5 run", "rank '+9223372036854775808' does not fit"),
    ("q1 Q0 d1 1 2.5 run junk", "got 7"),
    ("q1 Q0 d1 1 2.5 r\x00n", None),
])
def test_a_bad_or_unusual_line_deep_in_a_large_run(tmp_path, bad, reason):
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {1 / (i + 1)} run" for i in range(2000)]
    lines[1500] = bad
    path = write(tmp_path, "r.run", "\n".join(lines) + "\n")
    run = assert_same_answer(read_trec_run, path)
    if reason is None:
        assert run is not None
        assert len(run) == 2000
    else:
        with pytest.raises(FormatError) as caught:
            read_trec_run(path)
        assert (caught.value.line, caught.value.text) == (1501, bad)
        assert reason in caught.value.reason


def test_a_large_qrels_with_a_doc_judged_twice(tmp_path):
    lines = [f"q{i // 50} 0 d{i} {i % 3}" for i in range(3000)]
    lines.insert(2000, "")
    lines.append("q7 0 d399 1")  # d399 is judged on line 400 already
    path = write(tmp_path, "q.txt", "\n".join(lines))
    with pytest.raises(FormatError) as caught:
        read_trec_qrels(path)
    assert caught.value.line == 3002
    assert "query 'q7' judges doc 'd399' twice, on lines 400 and 3002" in caught.value.reason
    assert_same_answer(read_trec_qrels, path)


# --- compressed files go through the fast parsers too ------------------------------------


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress])
def test_large_compressed_files_read_as_their_contents(tmp_path, compress):
    rows = [(f"q{i // 10}", f"d{i}", i % 10 + 1, 1 / (i + 1)) for i in range(3000)]
    trec_text = "".join(f"{q} Q0 {d} {r} {s!r} bm25\n" for q, d, r, s in rows)
    csv_text = "query_id,doc_id,rank,score\n" + "".join(f"{q},{d},{r},{s!r}\n"
                                                        for q, d, r, s in rows)
    jsonl_text = "".join(json.dumps({"query_id": q, "doc_id": d, "rank": r, "score": s}) + "\n"
                         for q, d, r, s in rows)
    for name, text in (("r.run", trec_text), ("r.csv", csv_text), ("r.jsonl", jsonl_text)):
        plain = read_run(write(tmp_path, name, text))
        packed = read_run(write(tmp_path, "packed_" + name, compress(text.encode())))
        pd.testing.assert_frame_equal(packed[plain.columns], plain, obj=name)
        assert plain["score"].tolist() == [s for *_, s in rows]


# --- the Arrow side of each check -----------------------------------------------------------


def python_column(values, typed: bool) -> Column:
    return Column("x", pd.Series(list(values), dtype=object), typed)


def arrow_column(values, typed: bool, kind=None) -> Column:
    return Column("x", pa.chunked_array([pa.array(list(values), kind)]), typed)


def same(got, expected) -> None:
    if isinstance(expected, Bad) or isinstance(got, Bad):
        assert got == expected
    elif isinstance(expected, pd.Series):
        pd.testing.assert_series_equal(got, expected)
    else:
        np.testing.assert_array_equal(got, expected, strict=True)


TEXT = st.text(alphabet=st.sampled_from(" \t\r\n\f\v\x85\u00a0\u2028ab1é"), max_size=4)


@FUZZ
@given(values=st.lists(st.one_of(TEXT, st.sampled_from(["q1", "", " q", "q ", "\nq"])),
                       min_size=1, max_size=8))
def test_arrow_ids_are_checked_as_python_ids(values):
    for typed in (False, True):
        same(check_ids(arrow_column(values, typed, pa.large_string())),
             check_ids(python_column(values, typed)))
        same(check_ids(arrow_column(values, typed, pa.string())),
             check_ids(python_column(values, typed)))


@FUZZ
@given(values=st.lists(st.one_of(
    st.integers(-(2**64), 2**64).map(str),
    st.integers(-(2**64), 2**64).map(lambda i: f"+{i}" if i >= 0 else str(i)),
    st.sampled_from(["007", "-0", "+0", "", "+", "-", "1.0", "1e3", " 1", "1_0", "١", "++1"])),
    min_size=1, max_size=6))
def test_arrow_integers_from_text_are_python_integers(values):
    same(integers_from_text(pa.chunked_array([pa.array(values)]), "rank"),
         integers_from_text(pd.Series(values, dtype=object), "rank"))


DECIMAL_TEXT = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(width=32).map(lambda f: f"{f:.9g}"),
    st.builds(lambda a, b, e: f"{a}.{b}e{e}", st.integers(0, 10**20), st.integers(0, 10**20),
              st.integers(-400, 400)),
    st.sampled_from(["1.", ".5", "+.5", "-0", "1E+05", "1e-400", "1e999", "nan", "inf", "",
                     "1,5", "0x1p3", "1e", "+-1", " 1", "1 ", "infinity", "1_0", "٣"]),
)


@FUZZ
@given(values=st.lists(DECIMAL_TEXT, min_size=1, max_size=6))
def test_arrow_numbers_from_text_are_python_floats(values):
    same(numbers_from_text(pa.chunked_array([pa.array(values)]), "score"),
         numbers_from_text(pd.Series(values, dtype=object), "score"))


def test_arrow_takes_exactly_the_decimals_among_strings_of_their_bytes():
    # The fast check of a number column: only the bytes 0-9 . e E + -, and Arrow parses it.
    # On every such string of up to 5 characters (digits beyond 0 and 1 parse alike),
    # Arrow parses exactly the matches of the rule, to the value float() gives.
    for n in range(1, 6):
        for chars in itertools.product("01.eE+-", repeat=n):
            text = "".join(chars)
            try:
                value = pc.cast(pa.array([text]), pa.float64())[0].as_py()
            except pa.ArrowInvalid:
                assert not DECIMAL.fullmatch(text), text
            else:
                assert DECIMAL.fullmatch(text), text
                assert value == float(text), text


def test_every_ascii_character_in_a_number_is_judged_as_python_judges_it():
    # The fast check of a number column looks at its bytes first: each ASCII character,
    # alone or inside a number, must be taken or refused as the regex takes it.
    for code in range(128):
        values = [chr(code), f"1{chr(code)}5", f"2.5e{chr(code)}1", "0.5"]
        same(numbers_from_text(pa.chunked_array([pa.array(values)]), "score"),
             numbers_from_text(pd.Series(values, dtype=object), "score"))
        ints = [*values[:2], "7"]
        same(integers_from_text(pa.chunked_array([pa.array(ints)]), "rank"),
             integers_from_text(pd.Series(ints, dtype=object), "rank"))


TYPED = st.sampled_from([
    (pa.int64(), st.integers(-(2**63), 2**63 - 1)), (pa.uint64(), st.integers(0, 2**64 - 1)),
    (pa.int8(), st.integers(-128, 127)), (pa.float64(), st.floats()),
    (pa.float32(), st.floats(width=32)), (pa.bool_(), st.booleans()),
    (pa.string(), st.text(max_size=3)),
])


@FUZZ
@given(data=st.data())
def test_typed_arrow_columns_are_checked_as_python_values(data):
    kind, values = data.draw(TYPED)
    values = data.draw(st.lists(st.one_of(values, st.none()) if data.draw(st.booleans())
                                else values, min_size=1, max_size=6))
    array = pa.array(values, kind)
    python = Column("x", pd.Series(array.to_pylist(), dtype=object), True)
    arrow = Column("x", pa.chunked_array([array]), True)
    for check in (check_ids, check_integers, check_numbers):
        same(check(arrow), check(python))


@FUZZ
@given(lists=st.lists(st.one_of(st.none(), st.lists(st.one_of(
    st.sampled_from(["c1", "", " c", "007"]), st.none()), max_size=3)), min_size=1, max_size=5))
def test_arrow_id_lists_flatten_as_python_lists(lists):
    arrow = flatten_id_lists(Column("ids", pa.chunked_array([pa.array(lists,
                                                                       pa.list_(pa.string()))]),
                                    True))
    python = flatten_id_lists(Column("ids", pd.Series(lists, dtype=object), True))
    if isinstance(python, Bad):
        assert arrow == python
    else:
        same(arrow[0], python[0])
        np.testing.assert_array_equal(arrow[1], python[1])
        np.testing.assert_array_equal(arrow[2], python[2])


@FUZZ
@given(pairs=st.lists(st.tuples(st.sampled_from(["q1", "q2", "q 3"]),
                                st.sampled_from(["d1", "d2", "d1 ", ""])), max_size=8))
def test_repeated_pairs_are_found_as_pandas_finds_them(pairs):
    queries = pd.Series([q for q, _ in pairs], dtype=str)
    docs = pd.Series([d for _, d in pairs], dtype=str)
    expected = bool(pd.DataFrame({"q": queries.astype(object), "d": docs.astype(object)})
                    .duplicated().any())
    assert any_repeated_pair(queries, docs) is expected
    assert any_repeated_pair(queries.astype(object), docs.astype(object)) is expected


@pytest.mark.parametrize("together_from", [1, 1 << 62])
def test_columns_checked_two_at_a_time_give_the_same_answer(tmp_path, monkeypatch,
                                                             together_from):
    monkeypatch.setattr(checks_module, "TOGETHER_FROM", together_from)
    rows = [[f"q{i // 10}", f"d{i}", str(i % 10 + 1), str(i / 8)] for i in range(3000)]
    header = "query_id,doc_id,rank,score\n"

    def csv_text(rows):
        return header + "".join(",".join(row) + "\n" for row in rows)

    run = read_results(write(tmp_path, "r.csv", csv_text(rows)))
    np.testing.assert_array_equal(run["score"], [float(row[3]) for row in rows])
    np.testing.assert_array_equal(run["rank"], [int(row[2]) for row in rows])
    # A bad score (the column checked in the other thread) before a bad rank, and after.
    for score_row, rank_row, line, reason in ((100, 2000, 102, "score must be a number"),
                                              (2000, 100, 102, "rank must be an integer"),
                                              (100, 100, 102, "rank must be an integer")):
        bad = [list(row) for row in rows]
        bad[score_row][3], bad[rank_row][2] = "1.5x", "2.5"
        for name, text in (("bad.csv", csv_text(bad)), ("bad.run", "".join(
                f"{q} Q0 {d} {r} {x} bm25\n" for q, d, r, x in bad))):
            reader = read_trec_run if name.endswith(".run") else read_results
            with pytest.raises(FormatError) as caught:
                reader(write(tmp_path, name, text))
            assert caught.value.line == line - name.endswith(".run")
            assert reason in caught.value.reason


def arrow_layouts(values: list[str], data) -> pa.ChunkedArray:
    """``values`` as Arrow strings laid out as drawn: string or large_string, in chunks
    of any size, each chunk maybe a slice of a longer array (its buffer starts earlier
    and ends later than its strings)."""
    kind = data.draw(st.sampled_from([pa.string(), pa.large_string()]))
    chunks, start = [], 0
    while start < len(values):
        stop = data.draw(st.integers(start + 1, len(values)))
        before, after = data.draw(st.lists(st.text(max_size=9), max_size=2)), data.draw(
            st.lists(st.text(max_size=9), max_size=2))
        whole = pa.array(before + values[start:stop] + after, kind)
        chunks.append(whole.slice(len(before), stop - start))
        start = stop
    return pa.chunked_array(chunks, kind)


# Ids of every length around the 8-byte words a key is made of, ASCII and not.
IDS = st.text(st.sampled_from("ab\x00 é"), max_size=30)


@FUZZ
@given(data=st.data(), values=st.lists(IDS, min_size=1, max_size=12))
def test_text_hashes_are_a_function_of_the_bytes(data, values):
    # One hash of Arrow strings for the readers and the engine (issue 24, item 2): the
    # same in any layout, string or large_string, chunked, sliced.
    one, other = arrow_layouts(values, data), arrow_layouts(values, data)
    np.testing.assert_array_equal(text_hashes(one), text_hashes(other))
    plain = text_hashes(pa.array(values, pa.large_string()))
    np.testing.assert_array_equal(text_hashes(one), plain)
    same = np.equal.outer(plain, plain)
    assert (same == np.equal.outer(np.array(values, object), np.array(values, object))).all()


def test_text_hashes_tell_apart_ids_that_differ_in_any_byte():
    ids = [f"{i:0{width}d}" for width in (1, 7, 8, 9, 16, 17, 24, 70) for i in range(500)]
    ids += ["", "a", "a\x00", "a\x00\x00", "ab" * 12, "a" * 10 + "x" + "a" * 29,
            "a" * 10 + "y" + "a" * 29, "a" * 100 + "x", "a" * 100 + "y"]
    hashes = text_hashes(pa.array(ids, pa.large_string()))
    assert len(np.unique(hashes)) == len(set(ids))


@FUZZ
@given(data=st.data(), ids=st.lists(IDS, min_size=1, max_size=5, unique=True))
def test_repeated_pairs_in_any_arrow_layout_are_found_as_pandas_finds_them(data, ids):
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)),
                               min_size=1, max_size=10))
    queries = [q for q, _ in pairs]
    docs = [d for _, d in pairs]
    expected = bool(pd.DataFrame({"q": queries, "d": docs}).duplicated().any())
    found = any_repeated_pair(pd.Series(pd.arrays.ArrowExtensionArray(
        arrow_layouts(queries, data))), pd.Series(pd.arrays.ArrowExtensionArray(
            arrow_layouts(docs, data))))
    assert found is expected


def test_pairs_that_differ_in_one_byte_are_no_repeat():
    # 40 bytes: these ids differ in byte 10 only.
    docs = pa.array(["a" * 10 + c + "a" * 29 for c in "xyz"], pa.large_string())
    queries = pd.Series(["q1"] * 3, dtype="string[pyarrow]")
    assert any_repeated_pair(queries, pd.Series(pd.arrays.ArrowExtensionArray(docs))) is False
    twice = pa.concat_arrays([docs, docs.slice(1, 1)])
    assert any_repeated_pair(pd.Series(["q1"] * 4, dtype="string[pyarrow]"),
                             pd.Series(pd.arrays.ArrowExtensionArray(twice))) is True


def test_a_qrels_pair_twice_is_refused_whether_queries_are_grouped_or_not(tmp_path):
    lines = [f"q{i // 50} 0 d{i % 50:05d} 1" for i in range(4000)]  # past the fast split
    for name, order in (("grouped", lines), ("interleaved", lines[::2] + lines[1::2])):
        path = tmp_path / f"{name}.qrels"
        repeated = [*order, order[1234]]
        path.write_text("\n".join(repeated) + "\n")
        with pytest.raises(FormatError) as error:
            read_trec_qrels(path)
        assert error.value.line == len(repeated)
        assert error.value.text == order[1234]
        assert "twice, on lines 1235 and 4001" in error.value.reason
        path.write_text("\n".join(order) + "\n")
        assert len(read_trec_qrels(path)) == 4000


# --- what the readers return --------------------------------------------------------------


@pytest.mark.slow
def test_ids_stay_in_arrow_and_the_dtypes_are_the_definitions(tmp_path):
    rows = [(f"q{i // 10}", f"d{i}", i % 10 + 1, i / 8) for i in range(4000)]
    files = {
        "r.run": "".join(f"{q} Q0 {d} {r} {s} bm25\n" for q, d, r, s in rows),
        "r.csv": "query_id,doc_id,rank,score\n" + "".join(f"{q},{d},{r},{s}\n"
                                                          for q, d, r, s in rows),
        "r.jsonl": "".join(json.dumps(dict(zip(["query_id", "doc_id", "rank", "score"], row,
                                               strict=True))) + "\n" for row in rows),
    }
    text_dtype = pd.Series([], dtype=str).dtype
    for name, text in files.items():
        run = assert_same_answer(read_run, write(tmp_path, name, text))
        assert run["rank"].dtype == np.int64
        assert run["score"].dtype == np.float64
        for column in ("query_id", "doc_id"):
            assert run[column].dtype == text_dtype
            if getattr(text_dtype, "storage", None) == "pyarrow":  # pandas 3 with pyarrow
                assert isinstance(run[column].array, pd.arrays.ArrowStringArray), name
    qrels = read_qrels(write(tmp_path, "q.txt", "".join(f"{q} 0 {d} 1\n" for q, d, *_ in rows)))
    assert qrels["doc_id"].dtype == text_dtype
    assert qrels["relevance"].dtype == np.int64


def test_a_csv_written_by_pandas_reads_fast_and_back_equal(tmp_path):
    frame = pd.DataFrame({"query_id": [f"q{i % 7}" for i in range(500)],
                          "doc_id": [f"d,{i}" if i % 50 == 0 else f"d{i}" for i in range(500)],
                          "score": np.linspace(-3, 3, 500),
                          "question": ['Who "said", it?\nAnd when?'] * 500})
    path = tmp_path / "r.csv"
    frame.to_csv(path, index=False)
    assert tables.fast_csv(Source(path), ",") is not None  # quotes, commas and line breaks
    run = read_results(path)
    assert run["doc_id"].tolist() == frame["doc_id"].tolist()
    assert run["score"].tolist() == frame["score"].tolist()


def test_a_big_wide_file_reads_as_its_long_form(tmp_path):
    ranking = {f"q{i}": [f"d{i}-{j}" for j in range(30)] for i in range(200)}
    jsonl = "".join(json.dumps({"query_id": q, "retrieved_ids": docs}) + "\n"
                    for q, docs in ranking.items())
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(
        [("query_id", "retrieved_ids"), *((q, "|".join(docs)) for q, docs in ranking.items())])
    long = "query_id,doc_id,rank\n" + "".join(f"{q},{d},{r}\n" for q, docs in ranking.items()
                                              for r, d in enumerate(docs, start=1))
    expected = read_results(write(tmp_path, "long.csv", long))
    for name, text in (("w.jsonl", jsonl), ("w.csv", buffer.getvalue())):
        wide = assert_same_answer(read_results, write(tmp_path, name, text))
        pd.testing.assert_frame_equal(wide, expected, obj=name)
