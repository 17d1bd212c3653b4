"""TREC runs and qrels: trec_eval's own test files read line for line, the spellings
the format allows, the fast parser against the line scan, and comment lines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reader_files import (
    FIELD,
    FINITE,
    FUZZ,
    FUZZ_LIGHT,
    INT64,
    QRELS_LAYOUT,
    RUN_LAYOUT,
    TREC_DIR,
    assert_ids_are_str,
    assert_same_frame,
    attempt,
    mostly,
    plain_split,
    strings,
    write,
)

from ragmetrics import evaluate
from ragmetrics.io import (
    FormatError,
    read_trec_qrels,
    read_trec_run,
    trec,
)
from ragmetrics.io.source import Source, compression_of
from ragmetrics.io.trec import split_fast, split_slowly

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


# Ids of any character but whitespace. Not NUL either, which sends a file to the line scan
# and would keep the fast parser out of most examples; TOKEN brings NUL back.
NO_WHITESPACE = st.characters(blacklist_categories=("Cs",), blacklist_characters=" \t\n\r\f\v\x00")
TREC_ID = st.text(alphabet=NO_WHITESPACE, min_size=1, max_size=6)
# The first field of a line: "#" there makes the line a comment (skipped).
TREC_QUERY = TREC_ID.filter(lambda text: not text.startswith("#"))
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
