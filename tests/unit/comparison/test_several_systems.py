"""Several systems at once: every pair under one correction, the summary matrix, the
ranking, factors' main effects, and the command's --pairs and run names.

The p-values are checked against a sign-flip test written out here (every sign pattern)
and SciPy's paired t-test; the corrections against Holm's and Benjamini-Hochberg's
procedures written out here (or statsmodels' multipletests where it is installed).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import ragmetrics
from ragmetrics.cli import main
from ragmetrics.cli.common import UsageError
from ragmetrics.cli.run_names import run_names
from ragmetrics.comparison import factors_from_names, letter_display
from ragmetrics.errors import InputValueError

N = 12  # queries: the sign-flip test is exact (2**12 patterns)
QRELS = {f"q{i:02d}": {f"r{j}" for j in range(10)} for i in range(N)}


def found(counts: list[int]) -> dict:
    """A run that finds ``counts[i]`` of the ten relevant docs in its top 10 on query i:
    recall@10 = counts[i] / 10."""
    return {q: [f"r{j}" for j in range(c)] + [f"x{j}" for j in range(10 - c)]
            for q, c in zip(QRELS, counts, strict=True)}


RNG = np.random.default_rng(7)
COUNTS = {name: RNG.integers(lo, hi, size=N).tolist()
          for name, (lo, hi) in {"a": (2, 6), "b": (3, 8), "c": (5, 10)}.items()}
RUNS = {name: found(c) for name, c in COUNTS.items()}


def exact_sign_flip(d) -> float:
    """Two-sided p of the sign-flip test, every pattern."""
    d = np.asarray(d, dtype=float)
    observed = abs(d.sum())
    hits = sum(abs(np.dot(signs, d)) >= observed - 1e-9
               for signs in itertools.product([1, -1], repeat=len(d)))
    return hits / 2 ** len(d)


def holm_by_hand(p) -> np.ndarray:
    try:
        from statsmodels.stats.multitest import multipletests
    except ImportError:
        p = np.asarray(p)
        order = np.argsort(p, kind="stable")
        m, out, running = len(p), np.empty(len(p)), 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (m - rank) * p[i]))
            out[i] = running
        return out
    return multipletests(p, method="holm")[1]


def bh_by_hand(p) -> np.ndarray:
    p = np.asarray(p)
    m = len(p)
    order = np.argsort(p, kind="stable")
    out, running = np.empty(m), 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, p[i] * m / (rank + 1))
        out[i] = running
    return out


@pytest.fixture(scope="module")
def every_pair():
    return ragmetrics.compare(RUNS, QRELS, ["recall@10", "precision@5"], pairs="all",
                              n_resamples=500)


def test_every_pair_is_tested_by_hand(every_pair):
    c = every_pair
    assert list(c.pairwise.index) == [
        (m, s, o) for m in ("recall@10", "precision@5")
        for s, o in (("b", "a"), ("c", "a"), ("c", "b"))]
    raw = []
    for (metric, system, other), row in c.pairwise.iterrows():
        x = c.per_query[system][metric].to_numpy()
        y = c.per_query[other][metric].to_numpy()
        assert row["difference"] == pytest.approx((x - y).mean(), abs=1e-12)
        assert row["p_randomization"] == pytest.approx(exact_sign_flip(x - y), abs=1e-12)
        assert row["p_t_test"] == pytest.approx(stats.ttest_rel(x, y).pvalue, rel=1e-9)
        raw.append(row["p_randomization"])
    # One family: 3 pairs x 2 metrics, corrected together.
    np.testing.assert_allclose(c.pairwise["p_adjusted"], holm_by_hand(raw), atol=1e-12)
    assert c.difference_confidence == pytest.approx(1 - 0.05 / 6)


def test_the_baseline_rows_carry_the_whole_familys_correction(every_pair):
    c = every_pair
    for (metric, system), row in c.tests.iterrows():
        assert row["p_adjusted"] == c.pairwise.loc[(metric, system, "a"), "p_adjusted"]
    alone = ragmetrics.compare(RUNS, QRELS, ["recall@10", "precision@5"], n_resamples=500)
    assert len(alone.pairwise) == 4  # the baseline's pairs only
    np.testing.assert_allclose(alone.tests["p_adjusted"],
                               holm_by_hand(alone.tests["p_randomization"]), atol=1e-12)
    assert (c.tests["p_adjusted"] >= alone.tests["p_adjusted"]).all()
    assert alone.difference_confidence == pytest.approx(1 - 0.05 / 4)


def test_benjamini_hochberg_over_every_pair():
    c = ragmetrics.compare(RUNS, QRELS, ["recall@10", "precision@5"], pairs="all",
                           correction="bh", n_resamples=500)
    np.testing.assert_allclose(c.pairwise["p_adjusted"],
                               bh_by_hand(c.pairwise["p_randomization"]), atol=1e-12)


def test_letter_display_by_hand():
    # a > b > c > d; a-c, a-d, b-d significant: {a, b}, {b, c}, {c, d}.
    letters = letter_display(list("abcd"), [4, 3, 2, 1], [("a", "c"), ("a", "d"), ("b", "d")])
    assert letters == {"a": "a", "b": "ab", "c": "bc", "d": "c"}
    assert letter_display(list("ab"), [1, 2], []) == {"a": "a", "b": "a"}
    # The best mean gets "a", whatever the order given.
    assert letter_display(["low", "high"], [0.1, 0.9], [("low", "high")]) == {
        "low": "b", "high": "a"}


def test_summary_matrix_and_ranking(every_pair):
    c = every_pair
    matrix = c.summary_matrix()
    assert list(matrix.index) == ["a", "b", "c"]
    significant = {(s, o) for (m, s, o), sig in c.pairwise["significant"].items()
                   if sig and m == "recall@10"}
    means = c.summary.xs("recall@10", level="metric")["mean"]
    letters = letter_display(["a", "b", "c"], list(means), significant)
    for system in "abc":
        assert matrix.loc[system, "recall@10"] == f"{means[system]:.4f} {letters[system]}"
    ranking = c.ranking("recall@10")
    assert list(ranking["system"]) == list(means.sort_values(ascending=False).index)
    for _, row in ranking.iterrows():
        beaten = {o if s == row["system"] else s for s, o in significant
                  if row["system"] in (s, o)
                  and means[row["system"]] > means[o if s == row["system"] else s]}
        assert set(row["better_than"]) == beaten
    # Against the baseline: marks where the verdict is significant.
    base = ragmetrics.compare(RUNS, QRELS, ["recall@10"], n_resamples=500)
    for system in "bc":
        t = base.tests.loc[("recall@10", system)]
        mark = (" ▲" if t["difference"] > 0 else " ▼") if t["significant"] else ""
        assert base.summary_matrix().loc[system, "recall@10"].endswith(
            f"{t['mean']:.4f}{mark}")
    with pytest.raises(InputValueError, match="'ndcg@3' is not in this comparison"):
        c.ranking("ndcg@3")


def test_pairs_is_checked():
    with pytest.raises(InputValueError, match="pairs"):
        ragmetrics.compare(RUNS, QRELS, ["recall@10"], pairs="some")


# -- factors ------------------------------------------------------------------------------


def test_main_effects_by_hand_on_a_two_by_two():
    rng = np.random.default_rng(3)
    counts = {name: rng.integers(0, 11, size=N).tolist()
              for name in ("bm25-256", "bm25-512", "dense-256", "dense-512")}
    runs = {name: found(c) for name, c in counts.items()}
    c = ragmetrics.compare(runs, QRELS, ["recall@10"], n_resamples=2000)
    x = {name: np.array(v) / 10 for name, v in counts.items()}
    retriever = ((x["dense-256"] - x["bm25-256"]) + (x["dense-512"] - x["bm25-512"])) / 2
    chunking = ((x["bm25-512"] - x["bm25-256"]) + (x["dense-512"] - x["dense-256"])) / 2
    effects = c.factors
    row = effects.loc[("recall@10", "factor 1", "dense")]
    assert row["reference"] == "bm25"
    assert row["difference"] == pytest.approx(retriever.mean(), abs=1e-12)
    assert row["low"] <= retriever.mean() <= row["high"]
    # The interval is at least Student's t interval of the per-query differences.
    half = stats.t.ppf(0.975, N - 1) * retriever.std(ddof=1) / np.sqrt(N)
    assert row["low"] <= retriever.mean() - half + 1e-9
    assert row["high"] >= retriever.mean() + half - 1e-9
    assert effects.loc[("recall@10", "factor 2", "512"), "difference"] == pytest.approx(
        chunking.mean(), abs=1e-12)
    # The same design named explicitly gives the same numbers.
    named = ragmetrics.compare(runs, QRELS, ["recall@10"], n_resamples=2000, factors={
        "retriever": {n: n.split("-")[0] for n in runs},
        "chunking": {n: n.split("-")[1] for n in runs}})
    np.testing.assert_allclose(named.factors["difference"], effects["difference"])
    np.testing.assert_allclose(named.factors["low"], effects["low"])
    assert list(named.factors.index.get_level_values("factor")) == ["retriever", "chunking"]


def test_factors_need_a_full_factorial():
    assert factors_from_names(["bm25-256", "bm25-512", "dense-256"]) is None
    assert factors_from_names(["a_1", "a_2", "b_1", "b_2"])["factor 2"]["b_2"] == "2"
    runs = dict.fromkeys(("s1", "s2", "s3"), RUNS["a"])
    assert ragmetrics.compare(runs, QRELS, ["recall@10"], n_resamples=100).factors is None
    with pytest.raises(InputValueError, match="3 systems for 4 combinations"):
        ragmetrics.compare(runs, QRELS, ["recall@10"], n_resamples=100, factors={
            "f": {"s1": "x", "s2": "y", "s3": "x"}, "g": {"s1": "u", "s2": "u", "s3": "v"}})
    with pytest.raises(InputValueError, match="gives no level to system 's3'"):
        ragmetrics.compare(runs, QRELS, ["recall@10"], n_resamples=100,
                           factors={"f": {"s1": "x", "s2": "y"}})


# -- the command --------------------------------------------------------------------------


def test_run_names_are_file_stems_told_apart():
    assert run_names(["runs/bm25-256.trec", "runs/dense-512.run.gz"]) == ["bm25-256",
                                                                          "dense-512"]
    assert run_names(["x/bm25.csv", "y/bm25.jsonl", "dense.tsv"]) == ["bm25.csv",
                                                                      "bm25.jsonl", "dense"]
    assert run_names(["x/bm25.csv", "y/bm25.csv"]) == ["x/bm25.csv", "y/bm25.csv"]
    with pytest.raises(UsageError, match="given twice"):
        run_names(["x/bm25.csv", "x/bm25.csv"])


def test_the_command_tests_every_pair(tmp_path, capsys):
    golden = tmp_path / "golden.csv"
    pd.DataFrame([(q, d, 1) for q, docs in QRELS.items() for d in sorted(docs)],
                 columns=["query_id", "doc_id", "relevance"]).to_csv(golden, index=False)
    paths = []
    for name, run in RUNS.items():
        path = tmp_path / f"{name}.csv"
        pd.DataFrame([(q, d, 10 - r) for q, docs in run.items() for r, d in enumerate(docs)],
                     columns=["query_id", "doc_id", "score"]).to_csv(path, index=False)
        paths.append(str(path))
    status = main(["evaluate", str(golden), *paths, "--metrics", "recall@10,precision@5",
                   "--pairs", "all", "--resamples", "500"])
    out, err = capsys.readouterr()
    assert status == 0, err
    expected = ragmetrics.compare(RUNS, QRELS, ["recall@10", "precision@5"], pairs="all",
                                  n_resamples=500)
    matrix = out[out.index("Summary matrix"):].splitlines()
    assert matrix[1].split() == ["system", "recall@10", "precision@5"]
    for line, system in zip(matrix[2:5], "abc", strict=True):
        cells = expected.summary_matrix().loc[system]
        assert line.split() == [system, *" ".join(cells).split()]
    assert "b vs a (baseline)" in out  # names: the file stems
    assert "p (Holm)" in out
    assert f"{expected.tests.loc[('recall@10', 'b'), 'p_adjusted']:.4f}" in out
    assert main(["evaluate", str(golden), *paths, "--pairs", "some"]) == 2
    assert "--pairs" in capsys.readouterr().err
