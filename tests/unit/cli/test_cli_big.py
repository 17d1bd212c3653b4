"""``ragmetrics evaluate`` on big and many runs: a TREC run scored in parts gives the
output of the run read whole; a run whose queries come apart is said to be read whole;
many runs are read as they are scored and print one line per metric and run (``--wide``:
the table); progress only on a terminal, never with ``--quiet``; and the command's
import leaves plotting, SciPy, tqdm, Dask and Polars for when they are used.

The part size is made small here (a few kB) so that a run of a few hundred queries is
scored in more than ten parts, cut inside lines and inside queries.
"""

from __future__ import annotations

import functools
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import ragmetrics
from ragmetrics import compare, read_qrels, read_run
from ragmetrics.cli import main, runs
from ragmetrics.io.batches import read_trec_run_batches


def write_case(folder, *, seed=0, n_queries=150, n_runs=1, grouped=True):
    """TREC qrels and ``n_runs`` runs (ties, unjudged and missing queries)."""
    rng = np.random.default_rng(seed)
    qrels_lines = [f"{q} 0 d{d} {int(rng.integers(0, 3))}" for q in range(n_queries)
                   if q % 7 != 3 for d in rng.choice(300, 10, replace=False)]
    (folder / "qrels.txt").write_text("\n".join(qrels_lines) + "\n")
    paths = []
    for r in range(n_runs):
        lines = []
        for q in range(n_queries):
            if q % 11 == 5:
                continue  # judged, missing from the run
            depth = int(rng.integers(1, 40))
            docs = rng.choice(300, depth, replace=False)
            scores = np.round(rng.random(depth) * 8) / 4
            lines += [f"{q} Q0 d{d} {k + 1} {s:g} sys{r}"
                      for k, (d, s) in enumerate(zip(docs, scores, strict=True))]
        if not grouped:  # the last query's first line moved to the top
            first_of_last = next(i for i, line in enumerate(lines)
                                 if line.startswith(f"{n_queries - 1} "))
            lines.insert(0, lines.pop(first_of_last))
        path = folder / f"run{r}.txt"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return folder / "qrels.txt", paths


def command(capsys, *args):
    status = main(["evaluate", *map(str, args)])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out, err


@pytest.fixture
def in_parts(monkeypatch):
    """Every TREC run scored in parts of about 4 kB."""
    monkeypatch.setattr(runs, "STREAM_FROM", 0)
    monkeypatch.setattr(runs, "read_trec_run_batches",
                        functools.partial(read_trec_run_batches, block_bytes=4096))


ARGS = ("--metrics", "mrr,recall@5,ndcg@10,map", "--resamples", "300")


def test_a_run_scored_in_parts_prints_what_it_prints_read_whole(capsys, tmp_path, in_parts,
                                                                  monkeypatch):
    qrels, (run_a, run_b) = write_case(tmp_path, n_runs=2)
    assert len(list(read_trec_run_batches(run_a, block_bytes=4096))) > 10
    out, err = command(capsys, qrels, run_a, run_b, *ARGS, "--per-query",
                       tmp_path / "parts.csv")
    monkeypatch.setattr(runs, "STREAM_FROM", 1 << 40)  # read whole
    whole_out, whole_err = command(capsys, qrels, run_a, run_b, *ARGS, "--per-query",
                                   tmp_path / "whole.csv")
    assert out == whole_out
    assert err.replace("parts.csv", "whole.csv") == whole_err
    assert (tmp_path / "parts.csv").read_bytes() == (tmp_path / "whole.csv").read_bytes()
    # ... and the means are those of compare() on the runs read whole.
    expected = compare({"run0": read_run(run_a), "run1": read_run(run_b)},
                       read_qrels(qrels), ["mrr", "recall@5", "ndcg@10", "map"],
                       n_resamples=300)
    printed = pd.read_csv(tmp_path / "parts.csv", dtype={"query_id": str})
    means = printed.groupby("system")[["mrr", "recall@5", "ndcg@10", "map"]].mean()
    for (metric, system), row in expected.summary.iterrows():
        assert means.loc[system, metric] == pytest.approx(row["mean"], abs=1e-12)


def test_a_run_whose_queries_come_apart_is_read_whole_and_said_so(capsys, tmp_path,
                                                                   in_parts, monkeypatch):
    qrels, (run,) = write_case(tmp_path, grouped=False)
    out, err = command(capsys, qrels, run, *ARGS)
    assert f"ragmetrics: {run}:" in err
    assert "reading it whole instead" in err
    assert "sort the run by query" in err
    monkeypatch.setattr(runs, "STREAM_FROM", 1 << 40)
    whole_out, whole_err = command(capsys, qrels, run, *ARGS)
    assert out == whole_out
    assert whole_err == ""


def test_many_runs_print_one_line_per_metric_and_run(capsys, tmp_path):
    qrels, paths = write_case(tmp_path, n_runs=6, n_queries=40)
    names = [p.stem for p in paths]
    out, _ = command(capsys, qrels, *paths, "--metrics", "mrr,ndcg@10", "--resamples", "200")
    table = [line.split() for line in out.splitlines() if line.split()[:1] in (["mrr"],
                                                                                ["ndcg@10"])]
    assert len(table) == 2 * 6
    expected = compare({n: read_run(p) for n, p in zip(names, paths, strict=True)},
                       read_qrels(qrels), ["mrr", "ndcg@10"], n_resamples=200)
    for metric in ("mrr", "ndcg@10"):
        lines = [row for row in table if row[0] == metric]
        assert [row[1] for row in lines] == [str(i) for i in range(1, 7)]  # ranks
        means = expected.summary.xs(metric, level="metric")["mean"]
        assert [row[2] for row in lines] == list(means.sort_values(
            ascending=False, kind="stable").index)
        assert [row[3] for row in lines] == [f"{means[row[2]]:.4f}" for row in lines]
        baseline = next(row for row in lines if row[2] == names[0])
        assert baseline[-1] == "baseline"
    wide, _ = command(capsys, qrels, *paths, "--metrics", "mrr,ndcg@10", "--resamples", "200",
                      "--wide")
    header = next(line for line in wide.splitlines() if line.startswith("metric "))
    assert all(name in header for name in names)  # one column per run
    mrr = next(line for line in wide.splitlines() if line.split()[:1] == ["mrr"])
    assert mrr.count("[") == 6


def test_progress_on_a_terminal_and_never_with_quiet(capsys, tmp_path, monkeypatch, in_parts):
    qrels, (run,) = write_case(tmp_path)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    _, err = command(capsys, qrels, run, *ARGS)
    assert "reading run0.txt" in err
    assert "resampling" in err
    quiet_out, err = command(capsys, qrels, run, *ARGS, "--quiet")
    assert err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    out, err = command(capsys, qrels, run, *ARGS)
    assert err == ""
    assert out == quiet_out


@pytest.mark.slow
def test_the_command_imports_what_the_work_needs_only(tmp_path):
    qrels, (run,) = write_case(tmp_path, n_queries=30)
    probe = (
        "import sys\n"
        "import ragmetrics.cli\n"
        "heavy = ('matplotlib', 'scipy', 'tqdm', 'dask', 'distributed', 'polars')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    ragmetrics.cli.main(['evaluate', {str(qrels)!r}, {str(run)!r},\n"
        "                         '--resamples', '100'])\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    assert found == ["[]", "[]"]  # the intervals take Student's t from stats.distributions


def test_means_only_prints_each_runs_means_as_evaluate_gives_them(capsys, tmp_path):
    qrels, paths = write_case(tmp_path, n_runs=6, n_queries=40)
    names = [p.stem for p in paths]
    metrics = ["mrr", "ndcg@10", "precision@5"]
    out, _ = command(capsys, qrels, *paths, "--metrics", ",".join(metrics), "--means-only")
    lines = out.splitlines()
    judged = read_qrels(qrels)["query_id"].nunique()  # 34: one query in 7 has no judgments
    assert lines[0] == f"{judged} queries, 6 systems; means only (no intervals, no tests)"
    assert "[" not in out
    assert "p (" not in out
    table = [line.split() for line in lines if line.split()[:1] in ([m] for m in metrics)]
    assert len(table) == 3 * 6
    with pytest.warns(ragmetrics.RagmetricsWarning):
        expected = {n: ragmetrics.evaluate(read_run(p), read_qrels(qrels), metrics).summary
                    for n, p in zip(names, paths, strict=True)}
    for metric in metrics:
        rows = [row for row in table if row[0] == metric]
        means = pd.Series({n: expected[n][metric] for n in names})
        assert [row[1] for row in rows] == [str(i) for i in range(1, 7)]
        assert [row[2] for row in rows] == list(means.sort_values(ascending=False,
                                                                  kind="stable").index)
        assert [row[3] for row in rows] == [f"{means[row[2]]:.4f}" for row in rows]
    assert "run1: " in out  # each run's notes, by name (queries missing from it)
    wide, _ = command(capsys, qrels, *paths[:2], "--metrics", "mrr", "--means-only")
    mrr = next(line.split() for line in wide.splitlines() if line.startswith("mrr"))
    assert mrr == ["mrr"] + [f"{expected[n]['mrr']:.4f}" for n in names[:2]]


def test_per_query_values_of_means_only_are_those_of_the_comparison(capsys, tmp_path):
    qrels, paths = write_case(tmp_path, n_runs=2, n_queries=30)
    a, b = tmp_path / "means.csv", tmp_path / "compared.csv"
    command(capsys, qrels, *paths, "--metrics", "mrr,ndcg@10", "--means-only",
            "--per-query", a)
    command(capsys, qrels, *paths, "--metrics", "mrr,ndcg@10", "--resamples", "100",
            "--per-query", b)
    pd.testing.assert_frame_equal(pd.read_csv(a), pd.read_csv(b))


@pytest.mark.slow
@pytest.mark.parametrize("extra", [["--means-only"], ["--resamples", "300"]],
                         ids=["means only", "compared"])
def test_runs_evaluated_in_worker_processes_print_the_same(capsys, tmp_path, extra):
    qrels, paths = write_case(tmp_path, n_runs=5, n_queries=60)
    one, _ = command(capsys, qrels, *paths, "--jobs", "1", *extra)
    two, _ = command(capsys, qrels, *paths, "--jobs", "2", *extra)
    assert one == two
