"""The ``ragmetrics`` command on a corpus of bad and hostile inputs (``tests/data/hostile``).

For every case: the exit status; for refused input, one line on stderr naming the file,
the line (or row) and the offending value, and no number on stdout; and, whatever the
outcome, no existing file changed (the corpus is copied, hashed before and after; links
and permissions count). Hostile input that is valid (HTML, escape sequences, formulas in
ids) must be scored, and shown inert in every output.

The corpus is written by ``tests/data/hostile/make_corpus.py``; each file's bad line is
at the line number asserted here.
"""

from __future__ import annotations

import csv
import hashlib
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ragmetrics import cli
from ragmetrics.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "data" / "hostile"
NUMBER = re.compile(r"\d\.\d{4}")


@dataclass
class Case:
    """``argv`` after ``evaluate``; ``{c}`` is the corpus copy, ``{o}`` a folder for outputs."""

    argv: str
    status: int
    stderr: list[str] = field(default_factory=list)  # regexes, all must match
    setup: object = None  # callable(corpus, outputs) run before the command
    check: object = None  # callable(stdout, stderr, corpus, outputs) for status 0

    def args(self, corpus: Path, outputs: Path) -> list[str]:
        return [a.format(c=corpus, o=outputs) for a in self.argv.split()] + ["--resamples", "200"]


def refused(argv: str, *patterns: str, setup=None) -> Case:
    return Case(argv, 2, list(patterns), setup)


def bad_run(name: str, line: int | None, *value: str, unit: str = "line") -> Case:
    where = rf"{re.escape(name)}, {unit} {line}: " if line is not None else rf"{re.escape(name)}: "
    return refused(f"{{c}}/golden.csv {{c}}/{name}", where, *value)


def bad_golden(name: str, line: int | None, *value: str, unit: str = "line") -> Case:
    where = rf"{re.escape(name)}, {unit} {line}: " if line is not None else rf"{re.escape(name)}: "
    return refused(f"{{c}}/{name} {{c}}/run.txt", where, *value)


# -- setups for what git cannot store: links, permissions --------------------------------


def symlink(link: str, target: str):
    def make(corpus: Path, outputs: Path) -> None:
        (corpus / link).symlink_to(corpus / target)
    return make


def hardlink(link: str, target: str):
    def make(corpus: Path, outputs: Path) -> None:
        os.link(corpus / target, corpus / link)
    return make


def read_only(name: str):
    def make(corpus: Path, outputs: Path) -> None:
        (outputs / name).write_text("an old report\n")
        (outputs / name).chmod(0o444)
    return make


def folder(name: str):
    def make(corpus: Path, outputs: Path) -> None:
        (outputs / name).mkdir()
    return make


def output_symlink(corpus: Path, outputs: Path) -> None:
    (outputs / "target.md").write_text("old\n")
    (outputs / "link.md").symlink_to(outputs / "target.md")


# -- checks of valid but hostile input ---------------------------------------------------


def no_html_in(text: str) -> None:
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "<img src=x" not in text


def no_escape_sequence(stdout, stderr, corpus, outputs):
    assert "\x1b" not in stdout + stderr
    assert "\x07" not in stdout + stderr
    assert r"q9\x1b]0;owned\x07" in stdout  # shown, as an escape


def no_formula(stdout, stderr, corpus, outputs):
    rows = (outputs / "p.csv").read_text().splitlines()
    cells = [row.split(",")[0] for row in rows[1:]]
    assert any(c.startswith("\"'=HYPERLINK") for c in cells)
    assert not any(c.startswith(("=", '"=')) for c in cells)


def one_row_per_query_and_no_formula(stdout, stderr, corpus, outputs):
    # Ids holding CR and LF: quoted, so every CSV reader sees one row per query, and no
    # cell and no physical line starts a formula (issue 23: "a\r=1+1" split its row).
    raw = (outputs / "p.csv").read_bytes().decode()
    with open(outputs / "p.csv", newline="") as handle:
        rows = list(csv.reader(handle))
    assert [row[0] for row in rows] == ["query_id", "a\r'=1+1", "b\n'@SUM(A1)", "q3"]
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows
               for cell in row)
    assert all(not line.startswith(("=", "+", "-", "@", "\t"))
               for line in re.split(r"\r\n|\r|\n", raw))


def said(*patterns):
    def check(stdout, stderr, corpus, outputs):
        for pattern in patterns:
            assert re.search(pattern, stdout), pattern
    return check


def same_numbers_as_uncompressed(stdout, stderr, corpus, outputs):
    means = re.findall(r"^mrr\s+(.*)$", stdout, flags=re.MULTILINE)[0]
    cells = re.findall(r"\d\.\d{4} \[[^]]+\]", means)
    assert len(cells) == 4  # three compressed runs and the plain one
    assert len(set(cells)) == 1  # the same mean and interval: the same per-query values
    assert cells[0].startswith("0.8333 [")


def through_the_link(stdout, stderr, corpus, outputs):
    assert (outputs / "link.md").is_symlink()
    assert (outputs / "target.md").read_text().startswith("# Retrieval evaluation")
    assert sorted(p.name for p in outputs.iterdir()) == ["link.md", "target.md"]


CASES: dict[str, Case] = {
    # -- TREC runs --
    "run: a space inside an id": bad_run("run_space_in_id.txt", 2, "got 7: an id with a space",
                                         "--trec-extra-fields ignore", "'q1 Q0 chunk 7 2 8.0 bm25'"),
    "run: 5 fields": bad_run("run_5_fields.txt", 3, "got 5", "'q1 Q0 d2 3 bm25'"),
    "run: a word as rank": bad_run("run_rank_word.txt", 4, "rank must be an integer, got 'first'"),
    "run: a word as score": bad_run("run_score_word.txt", 5, "got 'high'"),
    "run: NaN score": bad_run("run_score_nan.txt", 6, "finite number, got 'nan'"),
    "run: infinite score": bad_run("run_score_inf.txt", 7, "finite number, got 'inf'"),
    "run: score overflows": bad_run("run_score_overflow.txt", 8, "'1e999' is too large"),
    "run: decimal comma": bad_run("run_decimal_comma.txt", 9, "got '7,0'"),
    "run: fractional rank": bad_run("run_rank_float.txt", 1, "got '1.0'"),
    "run: rank beyond int64": bad_run("run_rank_huge.txt", 2, "'9223372036854775808' does not fit"),
    "run: Latin-1 bytes": bad_run("run_latin1.txt", 10, r"not valid UTF-8 \(byte 0xe9",
                                  r"caf\\\\xe9"),
    "run: UTF-16": bad_run("run_utf16.txt", None, "the file is UTF-16"),
    "run: empty file": bad_run("run_empty.txt", None, r"cannot tell the format \(no data lines\)"),
    "run: blank lines only": bad_run("run_blank.txt", None, r"\(no data lines\)"),
    "run: a doc listed twice": bad_run("run_duplicate_doc.txt", 10,
                                       "query 'q1' lists doc 'd7' twice, on lines 2 and 10",
                                       "--duplicates keep_first"),
    "run: old Mac line endings, bad line 3": bad_run("run_old_mac.txt", 3, "got 'x'"),
    "run: byte-order mark, short line 2": bad_run("run_bom_bad.txt", 2, "got 4", "'q1 Q0 d7 2'"),
    "run: escape sequences in an id": bad_run("run_ansi_id.txt", 3, "got 'oops'",
                                              r"\\x1b\[2J\\x1b\[31mred"),
    "run: right-to-left override": bad_run("run_bidi_id.txt", 3, "got '3x'", r"d2\\u202e"),
    "run: no query in common": refused("{c}/golden.csv {c}/run_other_queries.txt",
                                       "run_other_queries' has no query in common",
                                       "'Q1', 'Q2', 'Q3'"),
    "run: an extra field on line 8": bad_run("run_extra_field_late.txt", 8, "got 7"),
    "run: truncated gzip": bad_run("run_truncated.txt.gz", None,
                                   "starts like gzip data but cannot be decompressed"),
    "run: gzip of binary": bad_run("run_binary.txt.gz", 3, "not valid UTF-8"),
    "run: qrels given as the run": bad_run("qrels.txt", 1, "looks like TREC qrels",
                                           "golden set comes first"),
    "run: a whole-number score past 2**53": bad_run(
        "run_score_2p53.txt", 2, "score 9007199254740993 is a whole number that a 64-bit "
        "float cannot hold exactly"),
    "run: a rank past msmarco_eval.py's list": refused(
        "{c}/golden.csv {c}/run_rank_1001.txt --preset msmarco",
        r"run_rank_1001': order_by='rank_position'", "query 'q1', doc 'd2' has rank 1001"),
    "run: a folder": refused("{c}/golden.csv {c}/a_folder.csv", "RUN is not a regular file",
                             "a_folder.csv"),
    "run: not found": refused("{c}/golden.csv {c}/nope.txt", "RUN file not found: .*nope.txt"),
    # -- TREC qrels --
    "qrels: 3 fields": bad_golden("qrels_3_fields.txt", 4, "got 3", "'q2 0 d3'"),
    "qrels: a space in a doc id": bad_golden("qrels_5_fields.txt", 4, "got 5", "'q2 0 doc 3 1'"),
    "qrels: fractional grade": bad_golden("qrels_grade_float.txt", 5, "got '1.5'"),
    "qrels: a word as grade": bad_golden("qrels_grade_word.txt", 6, "got 'yes'"),
    "qrels: a doc judged twice": bad_golden("qrels_duplicate.txt", 8,
                                            "query 'q1' judges doc 'd2' twice, on lines 2 and 8"),
    "qrels: Latin-1 bytes": bad_golden("qrels_latin1.txt", 8, "not valid UTF-8"),
    "qrels: grade beyond int64": bad_golden("qrels_grade_huge.txt", 7, "does not fit a 64-bit"),
    "qrels: CRLF, a word as grade": bad_golden("qrels_crlf_bad.txt", 5, "got 'one'", "'q2 0 d4 one'"),
    "qrels: a run given as the judgments": bad_golden("run.txt", 1, "looks like a TREC run"),
    "qrels: exponential gain overflows": refused(
        "{c}/qrels_exponential_overflow.txt {c}/run.txt --gain exponential",
        r"GOLDEN .*qrels_exponential_overflow\.txt: query 'q1'", "grade 1024"),
    "spans: a grade past int64": refused(
        "--evidence {c}/evidence_grade_huge.csv --documents {c}/documents.jsonl "
        "--chunks {c}/chunks.csv {c}/run_chunks.txt",
        r"evidence_grade_huge\.csv, line 2: query_id 'q1': relevance '1e300' does not fit"),
    "spans: a grade a float cannot hold": refused(
        "--evidence {c}/evidence_grade_2p63.csv --documents {c}/documents.jsonl "
        "--chunks {c}/chunks.csv {c}/run_chunks.txt",
        r"evidence_grade_2p63\.csv, line 2: query_id 'q1': relevance 9223372036854775807 is a "
        "whole number that a 64-bit float cannot hold exactly"),
    "spans: an offset past int64": refused(
        "--evidence {c}/evidence_offset_huge.csv --documents {c}/documents.jsonl "
        "--chunks {c}/chunks.csv {c}/run_chunks.txt",
        r"evidence_offset_huge\.csv, line 2: query_id 'q1': end '1000+' does not fit"),
    "qrels: not found": refused("{c}/nope.csv {c}/run.txt", "GOLDEN file not found"),
    # -- CSV and TSV --
    "csv: no doc_id": bad_golden("golden_missing_column.csv", None, "no column 'doc_id'",
                                 "'query_id', 'chunk'"),
    "csv: no query_id": bad_golden("golden_no_query_id.csv", None, "no column 'query_id'", "'qid'"),
    "csv: empty id": bad_golden("golden_empty_id.csv", 5, "doc_id is empty", "'q2,,1'"),
    "csv: padded id": bad_golden("golden_padded_id.csv", 5, "' d4' begins or ends with whitespace"),
    "csv: grade 0.5": bad_golden("golden_grade_half.csv", 6, "got '0.5'"),
    "csv: a word as grade": bad_golden("golden_grade_word.csv", 7, "got 'high'"),
    "csv: an extra field": bad_golden("golden_extra_field.csv", 4, "got 4", "'q2,d3,1,x'"),
    "csv: unterminated quote": bad_golden("golden_unterminated_quote.csv", 8, "malformed CSV"),
    "csv: a column named twice": bad_golden("golden_repeated_header.csv", 1, "'doc_id' twice"),
    "csv: long and wide columns": bad_golden("golden_both_forms.csv", None, "both 'doc_id'"),
    "csv: wide with grades": bad_golden("golden_wide_relevance.csv", None,
                                        "no use for column 'relevance'"),
    "csv: wide, one query on two rows": bad_golden("golden_wide_two_rows.csv", 4,
                                                   "query 'q1' already has a row, on line 2"),
    "csv: wide, an empty id": bad_golden("golden_wide_empty_id.csv", 2, "empty id between"),
    "csv: wide, two separators": bad_golden("golden_wide_mixed_separators.csv", 2,
                                            "mixes the separators"),
    "csv: wide, broken JSON": bad_golden("golden_wide_bad_json.csv", 2, "not a JSON array"),
    "csv: a doc judged twice": bad_golden("golden_duplicate.csv", 8, "judges doc 'd1' twice, on "
                                          "lines 2 and 8"),
    "csv: header only": bad_golden("golden_header_only.csv", None, "only a header"),
    "csv: UTF-16": bad_golden("golden_utf16.csv", None, "UTF-16"),
    "csv: results without score or rank": bad_run("results_no_order.csv", None,
                                                  "no column 'score' or 'rank'"),
    "csv: NaN score": bad_run("results_score_nan.csv", 6, "got 'NaN'"),
    "csv: empty score": bad_run("results_score_empty.csv", 6, "got ''"),
    "csv: wide results with scores": bad_run("results_wide_score.csv", None,
                                             "no use for column 'score'"),
    "tsv: a missing field": bad_run("results_missing_field.tsv", 3, "got 2"),
    # -- JSONL --
    "jsonl: an array": bad_golden("golden_array.jsonl", 2, "got an array", r"'\[1, 2\]'"),
    "jsonl: broken JSON": bad_golden("golden_bad_json.jsonl", 2, "not valid JSON"),
    "jsonl: a key missing": bad_golden("golden_missing_key.jsonl", 2, "no key 'doc_id'"),
    "jsonl: null id": bad_golden("golden_null_id.jsonl", 1, "doc_id must be a string or an "
                                 "integer id, got None"),
    "jsonl: float id": bad_golden("golden_float_id.jsonl", 1, "got 1.5"),
    "jsonl: boolean grade": bad_golden("golden_bool_grade.jsonl", 1, "got True"),
    "jsonl: grade as text": bad_golden("golden_string_grade.jsonl", 1, "got '2', a string"),
    "jsonl: a key twice": bad_golden("golden_repeated_key.jsonl", 1, "'doc_id' appears twice"),
    "jsonl: NaN score": bad_run("results_nan.jsonl", 1, "finite number, got nan"),
    "jsonl: score as text": bad_run("results_string_score.jsonl", 1, "got '0.9', a string"),
    "jsonl: null in a list": bad_run("results_null_in_list.jsonl", 1,
                                     r"retrieved_ids\[1\] must be a string .* got None"),
    "jsonl: a 400-digit score": bad_run("results_huge_int.jsonl", 1, r"score 1000+\.\.\. is too "
                                        "large for a float"),
    # -- Parquet: the same checks as every other format --
    "parquet: null in a list": bad_run("results_null_in_list.parquet", 1,
                                       r"retrieved_ids\[1\] .* got None", unit="row"),
    "parquet: one query on two rows": refused("{c}/golden.csv {c}/results_two_wide_rows.parquet",
                                              r"results_two_wide_rows\.parquet, row 3: query 'q1' "
                                              "already has a row, on row 1"),
    "parquet: null in a golden list": refused("{c}/golden_null_in_list.parquet {c}/run.txt",
                                              r"golden_null_in_list\.parquet, row 2: "
                                              r"relevant_ids\[1\]"),
    "parquet: blank id": refused("{c}/golden_blank_id.parquet {c}/run.txt",
                                 r"row 3: doc_id '  ' begins or ends with whitespace"),
    "parquet: padded id": refused("{c}/golden_padded_id.parquet {c}/run.txt",
                                  r"row 4: doc_id 'd4 ' begins"),
    "parquet: grade 0.5": refused("{c}/golden_grade_half.parquet {c}/run.txt",
                                  r"row 4: relevance must be an integer, got 0\.5"),
    "parquet: float ids": refused("{c}/golden_float_ids.parquet {c}/run.txt",
                                  r"row 1: query_id must be a string or an integer id, got 1\.0"),
    "parquet: a doc judged twice": refused("{c}/golden_duplicate.parquet {c}/run.txt",
                                           "judges doc 'd1' twice, on rows 1 and 2"),
    "parquet: score as text": bad_run("results_score_as_text.parquet", 1,
                                      r"score must be a number, got '0\.9', a string", unit="row"),
    "parquet: infinite score": bad_run("results_score_inf.parquet", 2,
                                       "score must be a finite number, got inf", unit="row"),
    "parquet: null query id": bad_run("results_null_query.parquet", 2,
                                      "query_id must be a string or an integer id", unit="row"),
    "parquet: not Parquet": bad_golden("not_parquet.parquet", None, "not a readable Parquet"),
    # -- formats and options --
    "format: .json": bad_golden("golden.json", None, r"\.json files are not read"),
    "format: .xlsx": bad_golden("golden.xlsx", None, r"\.xlsx files are not read"),
    "format: unknown": bad_golden("golden.dat", 1, r"cannot tell the format \(3 fields"),
    "option: unknown metric": refused("{c}/golden.csv {c}/run.txt --metrics ndgc@10",
                                      "unknown metric 'ndgc@10'; did you mean 'ndcg'"),
    "option: k = 0": refused("{c}/golden.csv {c}/run.txt --k 0", "--k: '0' is not a positive"),
    "option: relevance level 0": refused("{c}/golden.csv {c}/run.txt --relevance-level 0",
                                         "relevance_level must be > 0, got 0"),
    "option: two names for one run": refused("{c}/golden.csv {c}/run.txt --names a,b",
                                             "--names gives 2 names for 1 runs"),
    "option: unknown baseline": refused("{c}/golden.csv {c}/run.txt --baseline x",
                                        "--baseline 'x' is not one of"),
    "option: a report that is not .md or .html": refused(
        "{c}/golden.csv {c}/run.txt --report {o}/r.pdf", r"r\.pdf: the file name must end in"),
    # -- outputs never replace inputs --
    "output: --per-query is the golden set": refused(
        "{c}/golden.csv {c}/run.txt --per-query {c}/golden.csv",
        r"--per-query .*golden\.csv is GOLDEN .*golden\.csv: an output never replaces an input"),
    "output: --report is a run": refused(
        "{c}/golden.csv {c}/results.html --report {c}/results.html",
        r"--report .*results\.html is RUN results\.html"),
    "output: --per-query links to the golden set": refused(
        "{c}/golden.csv {c}/run.txt --per-query {c}/link.csv",
        r"link\.csv is GOLDEN", setup=symlink("link.csv", "golden.csv")),
    "output: --per-query is a hard link to the golden set": refused(
        "{c}/golden.csv {c}/run.txt --per-query {c}/hard.csv",
        r"hard\.csv is GOLDEN", setup=hardlink("hard.csv", "golden.csv")),
    "output: --report links to a run": refused(
        "{c}/golden.csv {c}/run.txt --report {c}/run_link.md",
        r"run_link\.md is RUN", setup=symlink("run_link.md", "run.txt")),
    "output: a read-only report": refused(
        "{c}/golden.csv {c}/run.txt --report {o}/old.md", r"old\.md: the file is read-only",
        setup=read_only("old.md")),
    "output: two outputs, one file": refused(
        "{c}/golden.csv {c}/run.txt --report {o}/r.md --per-query {o}/same.csv",
        "name the same file", setup=lambda c, o: (o / "same.csv").symlink_to(o / "r.md")),
    "output: no such folder": refused(
        "{c}/golden.csv {c}/run.txt --report {o}/missing/r.md", "does not exist"),
    "output: a folder": refused(
        "{c}/golden.csv {c}/run.txt --report {o}/dir.md", r"dir\.md: it is a folder",
        setup=folder("dir.md")),
    # -- hostile but valid: scored, and shown inert --
    "valid: HTML in ids": Case(
        "{c}/golden_html.csv {c}/run_html.csv --report {o}/r.md", 0,
        check=lambda out, err, c, o: no_html_in((o / "r.md").read_text())),
    "valid: escape sequences in ids": Case("{c}/golden_ansi.csv {c}/run_ansi.csv", 0,
                                           check=no_escape_sequence),
    "valid: formulas in ids": Case("{c}/golden_formula.csv {c}/run_formula.csv "
                                   "--per-query {o}/p.csv", 0, check=no_formula),
    "valid: constant scores with ranks": Case(
        "{c}/golden.csv {c}/run_constant_scores.txt", 0,
        check=said("rank column disagrees with its scores on 3 queries", "--order-by rank")),
    "valid: ranked by the rank column": Case(
        "{c}/golden.csv {c}/run_constant_scores.txt --order-by rank --metrics mrr", 0,
        check=said(r"mrr\s+1\.0000")),  # ranked d1 d7 d2: each query's first doc is relevant
    "valid: a relevance level above every grade": Case(
        "{c}/golden.csv {c}/run.txt --relevance-level 3", 0,
        check=said("no judged query has a relevant doc at relevance_level 3",
                   "highest grade judged is 2")),
    "valid: compressed runs": Case("{c}/golden.csv.gz {c}/run.txt.gz {c}/run.txt.bz2 "
                                   "{c}/run.txt.xz {c}/run.txt", 0,
                                   check=same_numbers_as_uncompressed),
    "valid: junk after the run name, ignored on request": Case(
        "{c}/golden.csv {c}/run_extra_field_late.txt --trec-extra-fields ignore", 0,
        check=said(r"mrr\s+0\.8333")),
    "valid: system names that start with _": Case(
        "{c}/golden.csv {c}/run.txt {c}/run_b.txt --names _a,_b --report {o}/r.html", 0,
        check=said(r"_b vs _a \(baseline\)")),
    "valid: a report through a symbolic link": Case(
        "{c}/golden.csv {c}/run.txt --report {o}/link.md", 0, setup=output_symlink,
        check=through_the_link),
    "valid: ids holding line breaks, one CSV row each": Case(
        "{c}/golden_cr_id.jsonl {c}/run_cr_id.jsonl --metrics mrr --per-query {o}/p.csv", 0,
        check=one_row_per_query_and_no_formula),
    "valid: comments in a run, as trec_eval reads them": Case(
        "{c}/golden.csv {c}/run_comment.txt --metrics mrr", 0, check=said(r"mrr\s+0\.8333")),
    "valid: comments in qrels": Case(
        "{c}/qrels_comment.txt {c}/run.txt --metrics mrr", 0, check=said(r"mrr\s+0\.8333")),
    "valid: a whole-number score past 2**53 that a float holds": Case(
        "{c}/golden.csv {c}/run_score_2p53_exact.txt --metrics mrr", 0,
        check=said(r"mrr\s+0\.6667")),  # d7 (9007199254740994) now ranks first in q1
    "valid: a doc id of 4 MB in both files": Case(
        "{c}/qrels_long_id.txt.gz {c}/run_long_id.txt.gz --metrics mrr", 0,
        check=said(r"mrr\s+1\.0000")),  # matched: q2's first doc is relevant
    "valid: evidence spans with a grade": Case(
        "--evidence {c}/evidence.csv --documents {c}/documents.jsonl --chunks {c}/chunks.csv "
        "{c}/run_chunks.txt --metrics span_recall@2,recall@1", 0,
        check=said(r"span_recall@2\s+1\.0000", r"recall@1\s+0\.0000")),
    "valid: differences that vary with a mean of exactly 0": Case(
        "{c}/golden.csv {c}/run.txt {c}/run_b.txt --metrics mrr", 0,
        check=said(r"mrr\s+\+0\.0000", "no significant difference")),
}

def test_the_corpus_is_large_enough():
    assert len(CASES) >= 80
    assert sum(case.status == 2 for case in CASES.values()) >= 80


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``: content hash, permissions and link target."""
    out = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        if path.is_symlink():
            out[str(path)] = ("link", os.readlink(path))
        elif path.is_dir():
            out[str(path)] = ("dir", stat.S_IMODE(info.st_mode))
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            out[str(path)] = ("file", digest, stat.S_IMODE(info.st_mode), info.st_ino)
    return out


@pytest.fixture
def corpus(tmp_path) -> tuple[Path, Path]:
    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy, symlinks=True, ignore=shutil.ignore_patterns("*.py"))
    outputs = tmp_path / "out"
    outputs.mkdir()
    return copy, outputs


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_the_command_on_the_corpus(name, corpus, capsys, monkeypatch):
    case = CASES[name]
    copy, outputs = corpus
    monkeypatch.chdir(copy)  # messages name files as given, here relative where the case is
    if case.setup is not None:
        case.setup(copy, outputs)
    before = snapshot(copy)
    outputs_before = snapshot(outputs)
    status = main(["evaluate", *(a.replace(str(copy) + "/", "") for a in case.args(copy, outputs))])
    out, err = capsys.readouterr()
    assert status == case.status, err
    assert snapshot(copy) == before  # no input changed, whatever happened
    for pattern in case.stderr:
        assert re.search(pattern, err), f"{pattern!r} not in {err!r}"
    if status == 2:
        assert not NUMBER.search(out)  # no number for refused input
        assert out == ""
        assert err.startswith("ragmetrics: error: ")
        assert err.count("\n") == 1
        assert snapshot(outputs) == outputs_before  # nothing written
    if case.check is not None:
        case.check(out, err, copy, outputs)


def test_a_run_cut_short_while_read_is_refused_by_name(corpus, capsys, monkeypatch):
    # A run rewritten (cmd > run) while the command reads it: cut to its first 40 bytes
    # between two reads. Exit 2, one line naming the file, no number, nothing written;
    # never SIGBUS (a file of 1 MiB or more was mapped into memory before issue 23).
    from ragmetrics.io import source

    copy, outputs = corpus
    run = copy / "run.txt"
    read = source._read_to_end

    def cut_then_read(handle):
        first = handle.read(20)
        if handle.name == str(run):
            with open(run, "r+b") as writer:
                writer.truncate(40)
        return first + read(handle)

    monkeypatch.setattr(source, "_read_to_end", cut_then_read)
    status = main(["evaluate", str(copy / "golden.csv"), str(run), "--report",
                   str(outputs / "r.md")])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert re.fullmatch(r"ragmetrics: error: .*run\.txt: changed while it was read \(\d+ bytes "
                        r"when opened, \d+ read, 40 now\): another program is writing it; "
                        r"read it again once it is complete\n", err), err
    assert list(outputs.iterdir()) == []


def test_html_in_ids_is_inert_in_both_reports(corpus, capsys):
    copy, outputs = corpus
    for report in ("r.md", "r.html"):
        assert main(["evaluate", str(copy / "golden_html.csv"), str(copy / "run_html.csv"),
                     "--report", str(outputs / report), "--resamples", "200"]) == 0
    capsys.readouterr()
    no_html_in((outputs / "r.md").read_text())
    no_html_in((outputs / "r.html").read_text())


# -- what a user error is not: a bug says so ---------------------------------------------


def test_an_internal_error_says_it_is_one_and_exits_1(corpus, capsys, monkeypatch):
    copy, _ = corpus

    def broken(*args, **kwargs):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(cli.evaluate, "compare", broken)
    argv = ["evaluate", str(copy / "golden.csv"), str(copy / "run.txt")]
    assert main(argv) == 1
    _, err = capsys.readouterr()
    assert err.startswith("ragmetrics: error: internal error (a bug in ragmetrics, not in your "
                          "input): ZeroDivisionError: float division by zero")
    assert "--debug" in err
    assert "Traceback" not in err
    assert main(["--debug", *argv]) == 1
    _, err = capsys.readouterr()
    assert "Traceback (most recent call last)" in err
    assert "ZeroDivisionError" in err


def test_debug_shows_the_traceback_of_an_input_error_too(corpus, capsys):
    copy, _ = corpus
    argv = ["--debug", "evaluate", str(copy / "golden.csv"), str(copy / "run_5_fields.txt")]
    assert main(argv) == 2
    _, err = capsys.readouterr()
    assert "Traceback" in err
    assert err.rstrip().endswith("'q1 Q0 d2 3 bm25'")


# -- a write that fails or is killed leaves nothing behind -------------------------------


def test_an_interrupted_write_leaves_the_old_report_and_no_temporary_file(corpus, capsys,
                                                                           monkeypatch):
    from ragmetrics.reports import output_files

    copy, outputs = corpus
    report = outputs / "r.md"
    report.write_text("the old report\n")

    def interrupted(fd, data):
        os.write(fd, data[:10])
        raise KeyboardInterrupt

    monkeypatch.setattr(output_files, "_write_all", interrupted)
    status = main(["evaluate", str(copy / "golden.csv"), str(copy / "run.txt"),
                   "--report", str(report), "--resamples", "200"])
    assert status == 130
    assert report.read_text() == "the old report\n"
    assert [p.name for p in outputs.iterdir()] == ["r.md"]


KILLED_MID_WRITE = textwrap.dedent("""
    import os, sys, time
    from ragmetrics.reports import output_files

    def slow(fd, data):
        os.write(fd, data[: len(data) // 2])
        print("writing", flush=True)
        time.sleep(60)

    output_files._write_all = slow
    output_files.write_atomic(sys.argv[1], "x" * 100_000)
""")


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_a_write_killed_midway_leaves_no_file_behind(tmp_path, signum):
    report = tmp_path / "report.md"
    report.write_text("the old report\n")
    with subprocess.Popen([sys.executable, "-c", KILLED_MID_WRITE, str(report)],
                          stdout=subprocess.PIPE, text=True) as child:
        try:
            assert child.stdout.readline() == "writing\n"
            child.send_signal(signum)
            child.wait(timeout=30)
        finally:
            child.kill()
    time.sleep(0.05)
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]
    assert report.read_text() == "the old report\n"


def test_sigterm_to_the_command_removes_its_half_written_report(corpus):
    copy, outputs = corpus
    report = outputs / "r.md"
    script = textwrap.dedent(f"""
        import os, sys, time
        from ragmetrics import cli
        from ragmetrics.reports import output_files

        def slow(fd, data):
            os.write(fd, data[:10])
            print("writing", flush=True)
            time.sleep(60)

        output_files._write_all = slow
        sys.exit(cli.main(["evaluate", {str(copy / "golden.csv")!r}, {str(copy / "run.txt")!r},
                           "--report", {str(report)!r}, "--resamples", "200"]))
    """)
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                          text=True) as child:
        try:
            line = ""
            while line != "writing\n":
                line = child.stdout.readline()
                assert line, "the command ended before writing"
            child.send_signal(signal.SIGTERM)
            assert child.wait(timeout=30) == 128 + signal.SIGTERM
        finally:
            child.kill()
    assert list(outputs.iterdir()) == []
