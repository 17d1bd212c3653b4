"""The ``ragmetrics`` command, in-process (``main(argv)``) and once as ``python -m``.

The numbers are checked against trec_eval's own expected output (``out.test.aq``) and
against hand computation on the fixtures of ``tests/data/cli`` (see its README).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import ragmetrics
from ragmetrics import evaluate
from ragmetrics.cli import main

DATA = Path(__file__).resolve().parents[2] / "data" / "cli"
GOLDEN, BM25, DENSE = DATA / "golden.csv", DATA / "bm25.csv", DATA / "dense.jsonl"
TREC_EVAL = Path(__file__).resolve().parents[2] / "conformance" / "trec_eval"  # vendored


def run(capsys, *args):
    """Run the command in-process: (exit status, stdout, stderr)."""
    status = main(["evaluate", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def value(out: str, metric: str, column: int = 0) -> str:
    """The mean printed for ``metric`` in the means table, in the given system column."""
    line = next(line for line in out.splitlines() if line.split()[:1] == [metric])
    return re.findall(r"(-?\d\.\d{4}) \[", line)[column]


# -- the done-when checks: trec_eval's test suite -----------------------------------------


# ragmetrics' name -> trec_eval's
TREC_EVAL_NAMES = {"precision@5": "P_5", "precision@10": "P_10", "recall@10": "recall_10",
                   "ndcg@10": "ndcg_cut_10", "mrr": "recip_rank"}
METRICS_ARG = ",".join(TREC_EVAL_NAMES)


def trec_eval_means(output: str) -> dict[str, str]:
    """The `all` rows of one of trec_eval's expected outputs, as printed (4 decimals)."""
    rows = (line.split() for line in (TREC_EVAL / output).read_text().splitlines())
    means = {measure: number for measure, query, number in rows if query == "all"}
    return {ours: means[theirs] for ours, theirs in TREC_EVAL_NAMES.items()}


def test_values_equal_trec_evals_all_rows(capsys):
    # out.test.aq is `trec_eval -m all_trec qrels.test results.test`.
    status, out, err = run(capsys, TREC_EVAL / "qrels.test", TREC_EVAL / "results.test",
                           "--metrics", METRICS_ARG)
    assert (status, err) == (0, "")
    ours = {metric: value(out, metric) for metric in TREC_EVAL_NAMES}
    assert ours == trec_eval_means("out.test.aq")
    assert (ours["precision@5"], ours["mrr"]) == ("0.2667", "0.4064")


def test_comparing_two_trec_runs_prints_intervals_p_values_and_the_warning(capsys):
    status, out, err = run(
        capsys, TREC_EVAL / "qrels.test", TREC_EVAL / "results.test", TREC_EVAL / "results.trunc",
        "--metrics", METRICS_ARG, "--trec-extra-fields", "ignore",
    )
    assert (status, err) == (0, "")
    assert "results.trunc vs results.test (baseline)" in out
    means = next(line for line in out.splitlines() if line.startswith("ndcg@10 "))
    assert len(re.findall(r"\d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\]", means)) == 2
    differences = [line for line in out.splitlines() if line.startswith("ndcg@10 ")][1]
    assert re.search(r"[+-]\d\.\d{4} \[[+-]\d\.\d{4}, [+-]\d\.\d{4}\]", differences)
    assert "(exact)" in differences  # 3 queries: all 8 sign patterns
    assert "no significant difference" in differences
    assert "only 3 queries: too few queries for this claim" in out
    # results.trunc has no line for query 302: scored 0, and said so.
    assert "results.trunc: 1 judged query missing from the run, scored 0: 302" in out


def test_a_run_missing_a_query_equals_trec_eval_dash_c(capsys):
    # out.test.aqc is `trec_eval -c` on results.trunc (no line for query 302): the
    # missing query scores 0 and counts, ragmetrics' default.
    status, out, _ = run(capsys, TREC_EVAL / "qrels.test", TREC_EVAL / "results.trunc",
                         "--metrics", METRICS_ARG, "--trec-extra-fields", "ignore")
    assert status == 0
    ours = {metric: value(out, metric) for metric in TREC_EVAL_NAMES}
    assert ours == trec_eval_means("out.test.aqc")
    # Without -c, trec_eval averages over the 2 queries of the run: P@5 = (0 + 3/5) / 2,
    # P@10 = (2/10 + 4/10) / 2, RR = (1/6 + 1/3) / 2 (per-query rows of out.test.aqc).
    status, out, _ = run(capsys, TREC_EVAL / "qrels.test", TREC_EVAL / "results.trunc",
                         "--metrics", "precision@5,precision@10,mrr", "--missing-from-run", "skip",
                         "--trec-extra-fields", "ignore")
    assert status == 0
    assert out.startswith("Verdict on Precision@5:\n")  # the verdict first
    assert numbers(out).startswith("2 queries, 1 system;")
    assert [value(out, m) for m in ("precision@5", "precision@10", "mrr")] == [
        "0.3000", "0.3000", "0.2500"
    ]
    assert "missing_from_run=skip" in out


# -- the fixtures, by hand -------------------------------------------------------------


def numbers(out: str) -> str:
    """The output from its overview line on: what follows the verdict and its count of
    warnings ("30 queries, 2 systems; ...", the means, the tests)."""
    return out[re.search(r"^\d+ quer", out, re.MULTILINE).start():]


def test_two_runs_from_csv_and_jsonl(capsys):
    status, out, err = run(capsys, GOLDEN, BM25, DENSE, "--resamples", "2000")
    assert (status, err) == (0, "")
    assert out.splitlines()[0] == "Verdict on nDCG@10:"  # the verdict first
    assert numbers(out).splitlines()[0] == (
        "30 queries, 2 systems; mean [95% interval], 2000 resamples, seed 0"
    )
    metrics = ["recall@5", "recall@10", "recall@20", "precision@5", "precision@10",
               "precision@20", "mrr", "ndcg@5", "ndcg@10", "ndcg@20"]
    rows = [line.split()[0] for line in numbers(out).splitlines()[3:13]]
    assert rows == metrics
    # By hand (tests/data/cli/README.md).
    assert (value(out, "recall@5", 0), value(out, "recall@5", 1)) == ("0.3333", "0.6000")
    assert (value(out, "mrr", 0), value(out, "mrr", 1)) == ("0.3333", "0.8667")
    assert (value(out, "recall@10", 0), value(out, "recall@10", 1)) == ("1.0000", "1.0000")
    tests = out[out.index("dense vs bm25 (baseline)"):]
    mrr = next(line for line in tests.splitlines() if line.startswith("mrr "))
    assert "+0.5333 [" in mrr
    assert "24/6/0" in mrr
    assert mrr.endswith("dense better")
    recall10 = next(line for line in tests.splitlines() if line.startswith("recall@10 "))
    assert recall10.endswith("no significant difference")
    # bm25 scores the same on every query, and dense as bm25 at 10 and 20: the two
    # warnings of intervals with no width, and no other.
    warnings = out[out.index("Warnings:"):out.index("Conventions:")].strip().splitlines()
    assert [line.split(":")[0] for line in warnings[1:]] == [
        "  - no spread", "  - no difference at all"]


def test_names_and_baseline(capsys):
    status, out, _ = run(capsys, GOLDEN, BM25, DENSE, "--names", "bm25,dense",
                         "--baseline", "dense", "--metrics", "mrr,recall@5", "--resamples", "200")
    assert status == 0
    assert numbers(out).splitlines()[2].split() == ["metric", "dense", "bm25"]
    assert "bm25 vs dense (baseline)" in out
    assert "dense better" in out


def test_a_family_name_takes_every_k_and_one_family_brings_the_note(capsys):
    status, out, _ = run(capsys, GOLDEN, BM25, "--metrics", "recall", "--k", "1,3",
                         "--resamples", "100")
    assert status == 0
    assert [line.split()[0] for line in numbers(out).splitlines()[3:5]] == [
        "recall@1", "recall@3"]
    assert value(out, "recall@3") == "0.3333"  # rank 3 of three relevant: 1/3
    assert "one metric alone can mislead" in out
    assert "common mistake" in out


def test_seed_and_resamples(capsys):
    args = (GOLDEN, BM25, DENSE, "--metrics", "mrr,ndcg@10")
    _, first, _ = run(capsys, *args, "--seed", "7", "--resamples", "300")
    _, again, _ = run(capsys, *args, "--seed", "7", "--resamples", "300")
    _, other, _ = run(capsys, *args, "--seed", "8", "--resamples", "300")
    assert first == again
    assert first != other
    assert "300 resamples, seed 7" in numbers(first).splitlines()[0]


def test_relevance_level(capsys, tmp_path):
    golden = tmp_path / "graded.csv"
    golden.write_text("query_id,doc_id,relevance\n"
                      + "".join(f"q{i:02d},q{i:02d}-{d},{g}\n"
                                for i in range(1, 31) for d, g in (("a", 1), ("b", 2), ("c", 2))))
    status, out, _ = run(capsys, golden, DENSE, "--relevance-level", "2",
                         "--metrics", "mrr,recall@5,ndcg@10", "--resamples", "100")
    assert status == 0
    expected = evaluate(pd.read_json(DENSE, lines=True, dtype={"query_id": str, "doc_id": str}),
                        pd.read_csv(golden, dtype={"query_id": str, "doc_id": str}),
                        ["mrr", "recall@5", "ndcg@10"], relevance_level=2).summary
    for metric in ("mrr", "recall@5", "ndcg@10"):
        assert value(out, metric) == f"{expected[metric]:.4f}"
    # dense ranks b (grade 2) second on q01-q24: MRR at level 2 = (24/2 + 6/6) / 30.
    assert value(out, "mrr") == f"{(24 / 2 + 6 / 6) / 30:.4f}"
    assert "relevance_level=2" in out


def test_reports_and_per_query_csv(capsys, tmp_path):
    html, markdown, csv = tmp_path / "r.html", tmp_path / "r.md", tmp_path / "pq.csv"
    status, _, err = run(capsys, GOLDEN, BM25, DENSE, "--metrics", "mrr,ndcg@10",
                         "--resamples", "200", "--report", html, "--per-query", csv)
    assert status == 0
    assert err.splitlines() == [f"report written to {html}", f"per-query values written to {csv}"]
    page = html.read_text(encoding="utf-8")
    assert "Convention card" in page
    assert "dense vs bm25 (baseline)" in page
    per_query = pd.read_csv(csv)
    assert list(per_query.columns) == ["query_id", "system", "mrr", "ndcg@10"]
    assert len(per_query) == 60
    assert per_query.groupby("system")["mrr"].mean().round(4).to_dict() == {
        "bm25": 0.3333, "dense": 0.8667,
    }
    status, _, _ = run(capsys, GOLDEN, BM25, "--metrics", "mrr", "--resamples", "50",
                       "--report", markdown)
    assert status == 0
    assert markdown.read_text(encoding="utf-8").startswith("# Retrieval evaluation")


@pytest.mark.parametrize("means_only", [False, True])
def test_per_query_csv_keeps_a_carriage_return_id_in_its_row(capsys, tmp_path, means_only):
    # A query id with a bare CR, as JSON allows: written unquoted before, every reader split
    # the row and the second part, "=1+1,run,0.5", was a formula past the guard.
    golden, run_file, csv = tmp_path / "golden.jsonl", tmp_path / "run.jsonl", tmp_path / "pq.csv"
    golden.write_text('{"query_id": "a\\r=1+1", "relevant_ids": ["d2"]}\n'
                      '{"query_id": "q2", "relevant_ids": ["d2"]}\n', encoding="utf-8")
    run_file.write_text('{"query_id": "a\\r=1+1", "retrieved_ids": ["d1", "d2"]}\n'
                        '{"query_id": "q2", "retrieved_ids": ["d2"]}\n', encoding="utf-8")
    options = ["--means-only"] if means_only else ["--resamples", "50"]
    status, _, _ = run(capsys, golden, run_file, "--metrics", "mrr", *options, "--per-query", csv)
    assert status == 0
    assert csv.read_bytes() == (b'query_id,system,mrr\n"a\r\'=1+1",run,0.5\n'
                                b"q2,run,1.0\n")
    back = pd.read_csv(csv, dtype={"query_id": str})
    assert back["query_id"].tolist() == ["a\r'=1+1", "q2"]
    assert back["mrr"].tolist() == [0.5, 1.0]


def test_progress_is_shown_on_a_terminal_only(capsys, monkeypatch):
    _, _, err = run(capsys, GOLDEN, BM25, "--metrics", "mrr", "--resamples", "100")
    assert err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    _, _, err = run(capsys, GOLDEN, BM25, "--metrics", "mrr", "--resamples", "100")
    assert "resampling: 100%" in err


# -- every file format ------------------------------------------------------------------


def reference(capsys):
    _, out, _ = run(capsys, GOLDEN, BM25, DENSE, "--metrics", "mrr,recall@5,ndcg@10",
                    "--resamples", "200", "--names", "a,b")
    return out


def test_trec_files_are_recognized_by_their_content(capsys, tmp_path):
    golden = pd.read_csv(GOLDEN)
    qrels = tmp_path / "qrels"  # no extension at all
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in golden.itertuples(index=False)))
    runs = []
    for source, name in ((BM25, "bm25.txt"), (DENSE, "dense.run")):
        frame = (pd.read_csv(source) if source.suffix == ".csv"
                 else pd.read_json(source, lines=True, dtype={"query_id": str}))
        if "rank" not in frame:
            frame["rank"] = frame.groupby("query_id").cumcount() + 1
        path = tmp_path / name
        path.write_text("".join(f"{r.query_id}\tQ0\t{r.doc_id}\t{r.rank}\t{-r.rank}\tsys\n"
                                for r in frame.itertuples()))
        runs.append(path)
    _, out, _ = run(capsys, qrels, *runs, "--metrics", "mrr,recall@5,ndcg@10",
                    "--resamples", "200", "--names", "a,b")
    assert out == reference(capsys)


def test_wide_forms_and_tsv(capsys, tmp_path):
    golden = pd.read_csv(GOLDEN)
    wide_golden = tmp_path / "golden.jsonl"
    wide_golden.write_text("".join(
        json.dumps({"query_id": q, "relevant_ids": list(g["doc_id"])}) + "\n"
        for q, g in golden.groupby("query_id")
    ))
    bm25 = pd.read_csv(BM25)
    tsv = tmp_path / "bm25.tsv"
    bm25.to_csv(tsv, sep="\t", index=False)
    dense = pd.read_json(DENSE, lines=True, dtype={"query_id": str})
    wide_run = tmp_path / "dense.csv"
    wide_run.write_text("query_id,retrieved_ids\n" + "".join(
        f"{q},{'|'.join(g.sort_values('rank')['doc_id'])}\n" for q, g in dense.groupby("query_id")
    ))
    _, out, _ = run(capsys, wide_golden, tsv, wide_run, "--metrics", "mrr,recall@5,ndcg@10",
                    "--resamples", "200", "--names", "a,b")
    assert out == reference(capsys)


def test_parquet_long_and_wide(capsys, tmp_path):
    golden = tmp_path / "golden.parquet"
    pd.read_csv(GOLDEN).to_parquet(golden)
    bm25 = tmp_path / "bm25.parquet"
    pd.read_csv(BM25).to_parquet(bm25)
    dense = pd.read_json(DENSE, lines=True, dtype={"query_id": str})
    wide = tmp_path / "dense.parquet"
    pd.DataFrame({
        "query_id": list(dense["query_id"].unique()),
        "retrieved_ids": [list(g.sort_values("rank")["doc_id"])
                          for _, g in dense.groupby("query_id", sort=False)],
    }).to_parquet(wide)
    _, out, err = run(capsys, golden, bm25, wide, "--metrics", "mrr,recall@5,ndcg@10",
                      "--resamples", "200", "--names", "a,b")
    assert err == ""
    assert out == reference(capsys)


def test_parquet_integer_ids_are_read_as_text(capsys, tmp_path):
    golden, results = tmp_path / "g.parquet", tmp_path / "r.parquet"
    pd.DataFrame({"query_id": [1, 2], "doc_id": [10, 20]}).to_parquet(golden)
    pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["10", "99"], "score": [1.0, 1.0]}).to_parquet(
        results
    )
    status, out, _ = run(capsys, golden, results, "--metrics", "mrr", "--resamples", "50")
    assert status == 0
    assert value(out, "mrr") == "0.5000"


# -- bad input: exit status 2 and one line on stderr ------------------------------------


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


BAD_INPUT = {
    "unknown file type": (
        lambda t: [write(t, "golden.json", "{}"), BM25], r"\.json files are not read"),
    "unknown content": (
        lambda t: [write(t, "golden.dat", "q1 d1 1\n"), BM25],
        r"golden\.dat, line 1: cannot tell the format \(3 fields on its first line\)"),
    "missing column": (
        lambda t: [write(t, "g.csv", "query_id,doc\nq1,d1\n"), BM25],
        r"g\.csv: the golden set has no column 'doc_id'.*columns found: 'query_id', 'doc'"),
    "malformed line": (
        lambda t: [GOLDEN, DATA / "bad_line.run"],
        r"bad_line\.run, line 3: expected 6 fields .* got 5: 'q01 Q0 q01-b 2 bm25'"),
    "bad number": (
        lambda t: [GOLDEN, write(t, "r.csv", "query_id,doc_id,score\nq01,a,1\nq01,b,high\n")],
        r"r\.csv, line 3: score must be a number"),
    "no overlapping queries": (
        lambda t: [GOLDEN, write(t, "r.csv", "query_id,doc_id,score\nQ1,a,1\n")],
        r"system 'r' has no query in common with the judgments"),
    "unknown metric": (
        lambda t: [GOLDEN, BM25, "--metrics", "ndgc@10"],
        r"unknown metric 'ndgc@10'; did you mean 'ndcg'\?"),
    "golden not found": (
        lambda t: [t / "nope.csv", BM25], r"GOLDEN file not found: .*nope\.csv"),
    "run is a folder": (lambda t: [GOLDEN, t], r"RUN is not a regular file"),
    "golden and run swapped": (
        lambda t: [DATA / "bad_line.run", GOLDEN],
        r"looks like a TREC run .* golden set comes first"),
    "names do not match": (
        lambda t: [GOLDEN, BM25, "--names", "a,b"], r"--names gives 2 names for 1 runs"),
    "same name twice": (
        lambda t: [GOLDEN, BM25, DENSE, "--names", "a,a"], r"--names repeats a name"),
    "bad k": (
        lambda t: [GOLDEN, BM25, "--k", "5,ten"], r"--k: 'ten' is not a positive integer"),
    "bad report extension": (
        lambda t: [GOLDEN, BM25, "--report", t / "r.pdf"],
        r"--report .*r\.pdf: the file name must end in"),
    "report folder missing": (
        lambda t: [GOLDEN, BM25, "--per-query", t / "no" / "pq.csv"],
        r"the folder .* does not exist"),
    "unknown baseline": (
        lambda t: [GOLDEN, BM25, "--baseline", "x"], r"--baseline 'x' is not one of"),
    "unknown option": (
        lambda t: [GOLDEN, BM25, "--bogus"], r"unrecognized arguments: --bogus"),
    "no run": (lambda t: [GOLDEN], r"the following arguments are required: RUN"),
    "bad choice": (
        lambda t: [GOLDEN, BM25, "--ties", "random"], r"argument --ties: invalid choice"),
    "bad relevance level": (
        lambda t: [GOLDEN, BM25, "--relevance-level", "0"], r"relevance_level must be > 0"),
    "bad confidence": (
        lambda t: [GOLDEN, BM25, "--confidence", "95"], r"confidence must be between"),
    "no jobs": (lambda t: [GOLDEN, BM25, "--jobs", "0"], r"--jobs must be a positive .*got 0"),
    "means only, with a report": (
        lambda t: [GOLDEN, BM25, "--means-only", "--report", str(t / "r.html")],
        r"--report shows intervals and tests, which --means-only leaves out"),
}  # fmt: skip


@pytest.mark.parametrize("case", BAD_INPUT, ids=list(BAD_INPUT))
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, case):
    make_args, message = BAD_INPUT[case]
    status, out, err = run(capsys, *make_args(tmp_path))
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("ragmetrics: error: ")
    assert re.search(message, err), err


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"ragmetrics {ragmetrics.__version__}\n"


def test_help_exits_0(capsys):
    assert main(["evaluate", "--help"]) == 0
    out = capsys.readouterr().out
    assert "GOLDEN" in out
    assert "--relevance-level" in out


@pytest.mark.slow
def test_python_dash_m_ragmetrics(tmp_path):
    report = tmp_path / "report.html"
    completed = subprocess.run(
        [sys.executable, "-m", "ragmetrics", "evaluate", str(GOLDEN), str(BM25), str(DENSE),
         "--metrics", "mrr,recall@5", "--resamples", "500", "--report", str(report)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "dense vs bm25 (baseline)" in completed.stdout
    assert value(completed.stdout, "mrr", 1) == "0.8667"
    assert completed.stderr == f"report written to {report}\n"
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
