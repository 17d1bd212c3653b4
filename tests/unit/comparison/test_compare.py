"""compare (ragmetrics.comparison): every number equals its single-metric oracle,
every rule is kept.

The oracles: :func:`ragmetrics.evaluate` (per-query values and means), the functions of
:mod:`ragmetrics.stats` called one metric at a time with the same seed (intervals,
p-values, verdicts), ``scipy.stats.ttest_rel`` (t-test) and hand computation
(drill-downs, verdicts, interval levels, the smallest reachable p-values).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sp

import ragmetrics
from ragmetrics import evaluate, read_golden, read_trec_run
from ragmetrics.comparison import ONE_METRIC_NOTE, UNDECIDED, compare, default_metrics
from ragmetrics.stats import (
    benjamini_hochberg,
    bootstrap_ci,
    holm,
    paired_bootstrap,
    paired_effect_size,
    randomization_test,
    randomization_verdicts,
)

METRICS = ["recall@2", "precision@2", "mrr", "ndcg@3"]


def make_runs(n_queries=40, seed=0):
    """Three systems on the same queries; 'good' ranks the relevant docs higher."""
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {"base": {}, "good": {}, "same": {}}
    for i in range(n_queries):
        q = f"q{i:03d}"
        relevant = [f"{q}-r{j}" for j in range(int(rng.integers(1, 4)))]
        junk = [f"{q}-x{j}" for j in range(6)]
        qrels[q] = set(relevant)
        pool = relevant + junk
        base = list(rng.permutation(pool))
        good = sorted(base, key=lambda d: (d not in relevant or rng.random() < 0.3))
        runs["base"][q], runs["good"][q], runs["same"][q] = base, good, list(base)
    return runs, qrels


@pytest.fixture(scope="module")
def runs_and_qrels():
    return make_runs()


@pytest.fixture(scope="module")
def result(runs_and_qrels):
    runs, qrels = runs_and_qrels
    return compare(runs, qrels, METRICS, n_resamples=2000, seed=3)


def test_default_metrics_are_the_four_families_at_5_10_20():
    assert default_metrics() == [
        "recall@5", "recall@10", "recall@20", "precision@5", "precision@10", "precision@20",
        "mrr", "ndcg@5", "ndcg@10", "ndcg@20",
    ]  # fmt: skip
    runs, qrels = make_runs(30)
    assert compare({"base": runs["base"]}, qrels, n_resamples=10).metrics == tuple(
        default_metrics()
    )


def test_per_query_values_are_evaluates(result, runs_and_qrels):
    runs, qrels = runs_and_qrels
    for name, run in runs.items():
        expected = evaluate(run, qrels, METRICS).per_query
        pd.testing.assert_frame_equal(result.per_query[name], expected)
    assert result.systems == ("base", "good", "same")
    assert result.baseline == "base"


def test_means_and_intervals_equal_bootstrap_ci_metric_by_metric(result):
    for metric in METRICS:
        for system in result.systems:
            values = result.per_query[system][metric].to_numpy()
            ci = bootstrap_ci(values, n_resamples=2000, seed=3, bounds=(0, 1))
            row = result.summary.loc[(metric, system)]
            assert row["mean"] == pytest.approx(ci.mean, abs=1e-15)
            assert row["low"] == pytest.approx(ci.low, abs=1e-12)
            assert row["high"] == pytest.approx(ci.high, abs=1e-12)
            assert row["n_queries"] == 40


def test_tests_equal_the_single_metric_functions(result):
    for metric in METRICS:
        a = result.per_query["base"][metric].to_numpy()
        for system in ("good", "same"):
            b = result.per_query[system][metric].to_numpy()
            row = result.tests.loc[(metric, system)]
            # The difference intervals are at Holm's family level: 1 - 0.05 / 8 each.
            interval = paired_bootstrap(a, b, n_resamples=2000, seed=3, bounds=(0, 1),
                                        confidence=1 - 0.05 / 8)
            assert row["difference"] == pytest.approx(interval.mean, abs=1e-15)
            assert row["low"] == pytest.approx(interval.low, abs=1e-12)
            assert row["high"] == pytest.approx(interval.high, abs=1e-12)
            randomization = randomization_test(a, b, n_resamples=2000, seed=3)
            assert row["p_randomization"] == randomization.p_value
            assert row["p_mc_error"] == pytest.approx(randomization.mc_error, rel=1e-12)
            assert not row["exact"]
            assert row["n_patterns"] == 2000
            assert row["decided"]
            if np.any(a != b):
                scipy_t = sp.ttest_rel(b, a)
                assert row["p_t_test"] == pytest.approx(scipy_t.pvalue, rel=1e-10)
                assert row["t"] == pytest.approx(scipy_t.statistic, rel=1e-10)
            effect = paired_effect_size(a, b)
            assert row["effect_size"] == effect.d_z
            assert (row["wins"], row["ties"], row["losses"]) == (
                effect.wins, effect.ties, effect.losses
            )
            assert (row["baseline"], row["df"], row["n_queries"]) == ("base", 39, 40)


def test_holm_correction_runs_over_all_metrics_and_pairs(result):
    p = result.tests["p_randomization"].to_numpy()
    assert len(p) == len(METRICS) * 2
    np.testing.assert_array_equal(result.tests["p_adjusted"].to_numpy(), holm(p))
    assert result.correction == "holm"


@pytest.mark.parametrize("correction", ["bh", "none"])
def test_other_corrections(runs_and_qrels, correction):
    runs, qrels = runs_and_qrels
    out = compare(runs, qrels, METRICS, n_resamples=500, correction=correction)
    p = out.tests["p_randomization"].to_numpy()
    expected = benjamini_hochberg(p) if correction == "bh" else p
    np.testing.assert_array_equal(out.tests["p_adjusted"].to_numpy(), expected)


def test_verdicts(result):
    verdicts = result.tests["verdict"]
    # 'good' puts the relevant docs first on 40 queries: better on every metric.
    assert set(verdicts.xs("good", level="system")) == {"good better"}
    assert result.tests.xs("good", level="system")["significant"].all()
    assert not result.tests.xs("same", level="system")["significant"].any()
    # 'same' is the baseline's ranking: no difference at all, p = 1.
    same = result.tests.xs("same", level="system")
    assert set(same["verdict"]) == {"no significant difference"}
    assert (same["p_randomization"] == 1.0).all()
    assert (same["difference"] == 0.0).all()


def test_baseline_better_verdict_names_the_baseline(runs_and_qrels):
    runs, qrels = runs_and_qrels
    out = compare({"good": runs["good"], "base": runs["base"]}, qrels, ["mrr"], n_resamples=500)
    assert out.tests.loc[("mrr", "base"), "verdict"] == "good better"
    assert out.tests.loc[("mrr", "base"), "difference"] < 0


def test_baseline_option_reorders_systems(runs_and_qrels):
    runs, qrels = runs_and_qrels
    out = compare(runs, qrels, ["mrr"], baseline="good", n_resamples=200)
    assert out.systems == ("good", "base", "same")
    assert list(out.tests.index) == [("mrr", "base"), ("mrr", "same")]
    assert (out.tests["baseline"] == "good").all()


def test_same_seed_same_numbers_other_seed_other_intervals(runs_and_qrels):
    runs, qrels = runs_and_qrels
    one = compare(runs, qrels, ["mrr"], n_resamples=300, seed=1)
    again = compare(runs, qrels, ["mrr"], n_resamples=300, seed=1)
    other = compare(runs, qrels, ["mrr"], n_resamples=300, seed=2)
    pd.testing.assert_frame_equal(one.summary, again.summary)
    pd.testing.assert_frame_equal(one.tests, again.tests)
    ends = ["low", "high"]
    assert not one.summary[ends].equals(other.summary[ends])


def test_exact_test_with_few_queries_and_the_warning():
    runs, qrels = make_runs(6, seed=4)
    out = compare(runs, qrels, METRICS, n_resamples=200)
    assert out.tests["exact"].all()
    assert out.warnings[0].startswith("only 6 queries: too few queries for this claim")
    a = out.per_query["base"]["mrr"].to_numpy()
    b = out.per_query["good"]["mrr"].to_numpy()
    assert out.tests.loc[("mrr", "good"), "p_randomization"] == randomization_test(a, b).p_value


def test_one_metric_family_adds_the_common_mistake_note(runs_and_qrels):
    runs, qrels = runs_and_qrels
    alone = compare(runs, qrels, ["ndcg@10", "ndcg@5"], n_resamples=100)
    assert ONE_METRIC_NOTE in alone.warnings
    assert "common mistake" in ONE_METRIC_NOTE
    together = compare(runs, qrels, ["ndcg@10", "recall@10"], n_resamples=100)
    # recall@10 is 1 on every query of every system here, and "same" is the baseline's
    # run: no spread, and only that is said.
    no_spread, tied = together.warnings
    assert no_spread.startswith("no spread: every query has the same value on recall@10 "
                                "(base), recall@10 (good), recall@10 (same), so their")
    assert tied.startswith("no difference at all: on ndcg@10 (same), recall@10 (good), "
                           "recall@10 (same), the system scores what the baseline scores")


def test_query_missing_from_a_run_is_scored_zero_and_noted():
    qrels = {f"q{i}": {"a"} for i in range(30)}
    full = {f"q{i}": ["a"] for i in range(30)}
    partial = {q: r for q, r in full.items() if q not in ("q7", "q9")}
    out = compare({"full": full, "partial": partial}, qrels, ["mrr", "recall@1"],
                  n_resamples=200)  # filterwarnings=error: no CoverageWarning escapes
    assert out.per_query["partial"].loc["q7", "mrr"] == 0.0
    assert out.summary.loc[("mrr", "partial"), "mean"] == pytest.approx(28 / 30)
    assert "partial: 2 judged queries missing from the run, scored 0: q7, q9" in out.warnings
    assert out.evaluations["partial"].queries_missing_from_run == ("q7", "q9")


def test_skip_policy_uses_the_queries_with_values():
    qrels = {f"q{i}": {"a", "b"} for i in range(30)}
    base = {f"q{i}": ["a", "x", "b"] for i in range(30)}
    new = {f"q{i}": ["b", "a"] if i % 2 else ["x", "a"] for i in range(30) if i != 4}
    out = compare({"base": base, "new": new}, qrels, ["mrr", "recall@2"],
                  n_resamples=400, missing_from_run="skip")
    assert math.isnan(out.per_query["new"].loc["q4", "mrr"])
    assert out.summary.loc[("mrr", "base"), "n_queries"] == 30
    assert out.summary.loc[("mrr", "new"), "n_queries"] == 29
    new_values = out.per_query["new"]["mrr"].dropna().to_numpy()
    ci = bootstrap_ci(new_values, n_resamples=400, seed=0, bounds=(0, 1))
    assert out.summary.loc[("mrr", "new"), "low"] == pytest.approx(ci.low, abs=1e-12)
    # The paired statistics use the 29 queries both systems have.
    both = out.per_query["new"]["mrr"].notna()
    a = out.per_query["base"]["mrr"][both].to_numpy()
    b = out.per_query["new"]["mrr"][both].to_numpy()
    row = out.tests.loc[("mrr", "new")]
    assert row["n_queries"] == 29
    assert row["difference"] == pytest.approx(np.mean(b - a))
    paired = paired_bootstrap(a, b, n_resamples=400, bounds=(0, 1),
                              confidence=out.difference_confidence)
    assert out.difference_confidence == 1 - 0.05 / 2
    assert row["low"] == pytest.approx(paired.low, abs=1e-12)
    assert row["p_randomization"] == randomization_test(a, b, n_resamples=400).p_value


def test_progress_runs_from_zero_to_total(runs_and_qrels):
    runs, qrels = runs_and_qrels
    calls = []
    compare(runs, qrels, METRICS, n_resamples=700, progress=lambda d, t: calls.append((d, t)))
    done = [d for d, _ in calls]
    assert done == sorted(done)
    assert calls[-1][0] == calls[-1][1] == 2 * 700  # one bootstrap pass, one randomization


def test_queries_that_differ_most(runs_and_qrels):
    runs, qrels = runs_and_qrels
    out = compare(runs, qrels, METRICS, n_resamples=100)
    top = out.queries_that_differ_most("mrr", n=5)
    assert list(top.columns) == ["base", "good", "difference"]
    expected = (out.per_query["good"]["mrr"] - out.per_query["base"]["mrr"]).abs()
    assert list(top["difference"].abs()) == sorted(expected, reverse=True)[:5]
    assert (top["difference"] == top["good"] - top["base"]).all()
    assert len(out.queries_that_differ_most("mrr", n=5, system="same")) == 5


def test_worst_queries(runs_and_qrels):
    runs, qrels = runs_and_qrels
    out = compare(runs, qrels, METRICS, n_resamples=100)
    worst = out.worst_queries("good", "ndcg@3", n=4)
    assert list(worst.columns) == ["good", "base", "same"]
    assert list(worst["good"]) == sorted(out.per_query["good"]["ndcg@3"])[:4]


@pytest.mark.parametrize(("call", "message"), [
    (lambda r: r.queries_that_differ_most("map"), "not in this comparison"),
    (lambda r: r.queries_that_differ_most("mrr", system="bm25"), "not in this comparison"),
    (lambda r: r.queries_that_differ_most("mrr", system="base"), "is the baseline"),
    (lambda r: r.queries_that_differ_most("mrr", n=0), "positive int"),
    (lambda r: r.worst_queries("mrr", "good"), "not in this comparison"),
])  # fmt: skip
def test_drilldown_errors(result, call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call(result)


def test_one_system_has_no_tests(runs_and_qrels):
    runs, qrels = runs_and_qrels
    out = compare({"base": runs["base"]}, qrels, METRICS, n_resamples=100)
    assert out.tests.empty
    assert "p_adjusted" in out.tests.columns
    assert out.tests["difference"].dtype == np.float64  # typed, even without a row
    assert out.tests["decided"].dtype == bool
    with pytest.raises(ValueError, match="needs two systems"):
        out.queries_that_differ_most("mrr")


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"systems": []}, TypeError, "mapping"),
    ({"systems": {}}, ValueError, "empty"),
    ({"systems": {1: {"q1": ["a"]}}}, TypeError, "non-empty str"),
    ({"baseline": "nope"}, ValueError, "baseline 'nope'"),
    ({"metrics": ["ndgc@10"]}, ValueError, "did you mean"),
    ({"correction": "bonferroni"}, ValueError, "correction must be one of"),
    ({"confidence": 1.0}, ValueError, "confidence"),
    ({"alpha": 0.0}, ValueError, "alpha must be between 0 and 1"),
    ({"alpha": "0.05"}, TypeError, "alpha must be a number"),
    ({"max_resamples": 10, "n_resamples": 100}, ValueError, "at least n_resamples"),
    ({"n_resamples": 0}, ValueError, "n_resamples"),
    ({"seed": "1"}, TypeError, "seed"),
    ({"ties": "random"}, ValueError, "ties must be one of"),
    ({"tie": "trec_eval"}, TypeError, "unexpected keyword argument 'tie'"),
    ({"progress": 3}, TypeError, "progress"),
])  # fmt: skip
def test_bad_arguments(kwargs, error, message):
    arguments = {"systems": {"a": {"q1": ["d1"]}}, "qrels": {"q1": {"d1"}}, "metrics": ["mrr"]}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        compare(**arguments)


def test_no_query_in_common_is_an_error_naming_the_system():
    qrels = {"q1": {"a"}, "q2": {"b"}}
    with pytest.raises(ValueError, match="system 'other' has no query in common"):
        compare({"ok": {"q1": ["a"]}, "other": {"Q1": ["a"]}}, qrels, ["mrr"])


def test_evaluate_errors_name_the_system():
    with pytest.raises(ValueError, match="system 'dup': doc id 'a' appears more than once"):
        compare({"dup": {"q1": ["a", "a"]}}, {"q1": {"a"}}, ["mrr"])


def test_repr_is_the_text_report(result):
    text = repr(result)
    assert result.primary == "recall@2"  # no nDCG@10: the first metric
    assert text.startswith("Verdict on Recall@2:\n")
    assert text.splitlines()[1:3] == [f"  {s}" for s in result.verdict()]
    assert "\n40 queries, 3 systems" in text
    assert "good vs base (baseline)" in text


def test_skip_policy_keeps_queries_the_baseline_lacks():
    qrels = {"q1": {"a"}, "q2": {"a"}, "q3": {"a"}}
    base = {"q1": ["a"], "q2": ["x", "a"]}  # no q3
    other = {"q1": ["a"], "q2": ["a"], "q3": ["a"]}
    out = compare({"base": base, "other": other}, qrels, ["mrr"], n_resamples=50,
                  missing_from_run="skip")
    assert list(out.per_query["base"].index) == ["q1", "q2", "q3"]
    assert math.isnan(out.per_query["base"].loc["q3", "mrr"])
    assert out.tests.loc[("mrr", "other"), "n_queries"] == 2
    assert out.tests.loc[("mrr", "other"), "difference"] == pytest.approx(0.25)


def test_a_metric_with_no_value_anywhere_is_not_tested():
    # Every query has only judged-irrelevant docs, and empty_relevant="skip": no values.
    qrels = {"q1": {"a": 0}, "q2": {"b": 0}}
    runs = {"x": {"q1": ["a"], "q2": ["b"]}, "y": {"q1": ["b"], "q2": ["a"]}}
    out = compare(runs, qrels, ["mrr", "recall@1"], n_resamples=50, empty_relevant="skip")
    assert out.summary["mean"].isna().all()
    assert (out.summary["n_queries"] == 0).all()
    row = out.tests.loc[("mrr", "y")]
    assert math.isnan(row["p_adjusted"])
    assert not row["significant"]
    assert row["verdict"] == "not tested (no query with both values)"
    assert "not tested" in repr(out)


# -- statistics that claim no more than they know ------------------------------------------

DEMO = Path(__file__).resolve().parents[3] / "data" / "support_demo"


def support_demo():
    qrels = read_golden(DEMO / "golden.csv")
    systems = {name: read_trec_run(DEMO / "runs" / f"{name}.tsv")
               for name in ("bm25", "dense_minilm")}
    return systems, qrels


def test_differences_averaging_exactly_zero_do_not_crash():
    # Issue 10, item 1: the t-test reached log(0) and compare() failed as a whole.
    qrels = {f"q{i:02d}": {"gold"} for i in range(30)}
    base = {q: ["gold"] if i < 10 else ["junk", "gold"] for i, q in enumerate(qrels)}
    new = {q: ["gold"] if 5 <= i < 15 else ["junk", "gold"] for i, q in enumerate(qrels)}
    out = compare({"base": base, "new": new}, qrels, ["mrr", "recall@1"], n_resamples=500)
    for metric in ("mrr", "recall@1"):
        row = out.tests.loc[(metric, "new")]
        assert (row["difference"], row["t"], row["p_t_test"]) == (0.0, 0.0, 1.0)
        assert (row["wins"], row["ties"], row["losses"]) == (5, 20, 5)
        assert row["verdict"] == "no significant difference"


def test_alpha_sets_the_verdicts_and_confidence_the_intervals(runs_and_qrels):
    runs, qrels = runs_and_qrels
    fixed = {"n_resamples": 400, "max_resamples": 400}  # one pass: the same p-values
    base = compare(runs, qrels, METRICS, **fixed)
    loose = compare(runs, qrels, METRICS, alpha=0.5, **fixed)
    pd.testing.assert_frame_equal(loose.summary, base.summary)
    pd.testing.assert_series_equal(loose.tests["p_adjusted"], base.tests["p_adjusted"])
    np.testing.assert_array_equal(loose.tests["significant"], loose.tests["p_adjusted"] < 0.5)
    assert (loose.alpha, base.alpha) == (0.5, 0.05)
    wide = compare(runs, qrels, METRICS, confidence=0.8, **fixed)
    pd.testing.assert_series_equal(wide.tests["verdict"], base.tests["verdict"])
    assert (wide.summary["high"] - wide.summary["low"] <= base.summary["high"]
            - base.summary["low"] + 1e-12).all()
    assert wide.difference_confidence == pytest.approx(1 - 0.2 / 8)
    assert any("alpha = 0.05 and the intervals at confidence 0.8" in w for w in wide.warnings)


@pytest.mark.parametrize("correction", ["holm", "bh", "none"])
def test_difference_intervals_are_at_the_level_of_the_correction(runs_and_qrels, correction):
    runs, qrels = runs_and_qrels
    out = compare(runs, qrels, METRICS, n_resamples=400, correction=correction)
    claims, found = len(out.tests), int(out.tests["significant"].sum())
    level = {"holm": 1 - 0.05 / claims,                  # Bonferroni: simultaneous 95%
             "bh": 1 - max(found, 1) * 0.05 / claims,   # Benjamini-Yekutieli FCR
             "none": 0.95}[correction]
    assert out.difference_confidence == pytest.approx(level, abs=1e-15)
    a = out.per_query["base"]["mrr"].to_numpy()
    b = out.per_query["good"]["mrr"].to_numpy()
    ci = paired_bootstrap(a, b, n_resamples=400, confidence=level, bounds=(0, 1))
    row = out.tests.loc[("mrr", "good")]
    assert (row["low"], row["high"]) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_support_demo_intervals_agree_with_verdicts_or_say_so():
    # Issue 10: the support demo showed a 95% interval excluding 0 beside Holm's "no
    # significant difference" (3 of 10 rows). At Holm's family level none does; one row
    # (recall@20, Holm-significant; its 99.5% interval reaches -0.0005) still differs,
    # and the warnings name it.
    systems, qrels = support_demo()
    out = compare(systems, qrels, n_resamples=2000, seed=0)
    t = out.tests
    excludes = (t["low"] > 0) | (t["high"] < 0)
    assert not (excludes & ~t["significant"]).any()
    disagree = excludes != t["significant"]
    assert list(t.index[disagree]) == [("recall@20", "dense_minilm")]
    assert any("disagree on recall@20 (dense_minilm)" in w for w in out.warnings)
    verdicts = t["verdict"].droplevel("system")
    assert list(verdicts.index[verdicts == "no significant difference"]) == [
        "recall@5", "precision@5", "precision@20"]


def test_a_verdict_within_monte_carlo_error_of_alpha_is_resampled_then_undecided():
    # 40 queries: "new" ahead on 22 (recall@1 +1), behind on 10, level on 8. The exact
    # two-sided p is 0.0501 (the binomial tail of 22 of 32), a hair above 0.05: one pass of
    # 10,000 patterns calls it significant on about half the seeds.
    qrels = {f"q{i:02d}": {"gold"} for i in range(40)}
    base = {q: ["junk", "gold"] if i < 22 else ["gold"] for i, q in enumerate(qrels)}
    new = {q: ["gold"] if i < 22 or i >= 32 else ["junk", "gold"] for i, q in enumerate(qrels)}
    exact = sum(math.comb(32, k) for k in range(33) if abs(2 * k - 32) >= 12) / 2**32
    assert exact == pytest.approx(0.0501, abs=1e-4)
    out = compare({"base": base, "new": new}, qrels, ["recall@1"], correction="none")
    row = out.tests.loc[("recall@1", "new")]
    assert (row["wins"], row["losses"]) == (22, 10)
    assert row["n_patterns"] == 32 * 10_000
    p = row["p_randomization"]
    assert row["p_mc_error"] == pytest.approx(math.sqrt(p * (1 - p) / 320_000), rel=1e-12)
    assert abs(p - exact) < 3 * row["p_mc_error"]
    assert not row["decided"]
    assert not row["significant"]
    assert row["verdict"] == UNDECIDED
    # The same rule as the stats function, on the same differences.
    d = (out.per_query["new"]["recall@1"] - out.per_query["base"]["recall@1"]).to_numpy()
    v = randomization_verdicts(d[:, None], correction="none")
    assert (v.p_value[0], v.decided[0]) == (p, False)


def test_configurations_that_cannot_reach_significance_warn(runs_and_qrels):
    runs, qrels = runs_and_qrels
    pair = {"base": runs["base"], "good": runs["good"]}
    out = compare(pair, qrels, n_resamples=100)  # Holm over 10 metrics
    (warning,) = [w for w in out.warnings if w.startswith("with 100 resamples")]
    assert "1/101 = 0.009901" in warning
    assert "Holm over 10 claims raises the smallest adjusted p to 0.09901" in warning
    assert "at least 2000 resamples" in warning
    found = out.tests["significant"]  # ... reached by resampling those claims further
    assert found.sum() >= 5
    assert (out.tests.loc[found, "n_patterns"] > 100).all()
    assert not any("100 resamples" in w for w in compare(pair, qrels, n_resamples=2000).warnings)
    # Five queries: the exact test's smallest p is 2/2^5 = 0.0625, whatever is done.
    runs5, qrels5 = make_runs(5, seed=1)
    few = compare(runs5, qrels5, ["mrr", "recall@2"], n_resamples=100)
    (warning,) = [w for w in few.warnings if "2/2^5" in w]
    assert "0.0625" in warning
    assert "no difference can be significant" in warning
    assert not few.tests["significant"].any()
    assert few.tests["exact"].all()
    assert (few.tests["p_mc_error"] == 0).all()


def test_a_constant_difference_has_an_undefined_d_z_an_infinite_t_and_a_warning():
    # Every query: precision@10 exactly 0.1 lower, so b - a is -0.1 give or take 1e-17.
    qrels, base, new = {}, {}, {}
    for i in range(30):
        q, hits = f"q{i:02d}", (5, 8, 3)[i % 3]
        docs = [f"{q}-r{j}" for j in range(hits)] + [f"{q}-x{j}" for j in range(10)]
        qrels[q] = set(docs[:hits])
        base[q] = docs[:10]
        new[q] = docs[1:11]  # one relevant doc fewer in the top 10
    out = compare({"base": base, "new": new}, qrels, ["precision@10", "mrr"], n_resamples=200)
    row = out.tests.loc[("precision@10", "new")]
    assert row["difference"] == pytest.approx(-0.1, abs=1e-15)
    # d_z = mean / sd has no sd to divide by: undefined, not -inf; the t-test's limit holds.
    assert math.isnan(row["effect_size"])
    assert (row["t"], row["p_t_test"]) == (-math.inf, 0.0)
    assert row["low"] == row["high"] == pytest.approx(-0.1, abs=1e-15)
    assert row["verdict"] == "base better"
    (constant,) = [w for w in out.warnings if w.startswith("constant difference")]
    assert constant.startswith("constant difference: on precision@10 (new), every query")
    assert "no width" in constant
    assert "d_z = mean / sd is undefined" in constant


def test_progress_reaches_its_total_when_claims_are_resampled_further():
    qrels = {f"q{i:02d}": {"gold"} for i in range(40)}
    base = {q: ["junk", "gold"] if i < 22 else ["gold"] for i, q in enumerate(qrels)}
    new = {q: ["gold"] if i < 22 or i >= 32 else ["junk", "gold"] for i, q in enumerate(qrels)}
    calls = []
    out = compare({"base": base, "new": new}, qrels, ["recall@1", "mrr"], correction="none",
                  n_resamples=500, progress=lambda d, t: calls.append((d, t)))
    assert (out.tests["n_patterns"] > 500).any()
    done = [d for d, _ in calls]
    assert done == sorted(done)
    assert all(d <= t for d, t in calls)
    assert calls[-1][0] == calls[-1][1]
    assert calls[-1][1] % 500 == 0
    assert calls[-1][1] > 2 * 500  # the extra passes are counted


def test_the_command_line_passes_alpha_and_confidence_apart(capsys):
    # `ragmetrics evaluate` hands --alpha, --confidence and --max-resamples to compare().
    from ragmetrics.cli import main

    data = Path(__file__).resolve().parents[2] / "data" / "cli"
    args = ["evaluate", str(data / "golden.csv"), str(data / "bm25.csv"),
            str(data / "dense.jsonl"), "--metrics", "mrr,recall@5", "--resamples", "300"]
    assert main([*args, "--alpha", "0.01", "--confidence", "0.9",
                 "--max-resamples", "300"]) == 0
    out = capsys.readouterr().out
    assert "\n30 queries, 2 systems; mean [90% interval]" in out
    assert "difference [95% CI each, 90% together]" in out
    assert "alpha=0.01" in out
    assert "the verdicts are at alpha = 0.01 and the intervals at confidence 0.9" in out
    assert main([*args, "--alpha", "1.5"]) == 2
    assert "alpha must be between 0 and 1" in capsys.readouterr().err


def test_progress_true_draws_a_bar_and_changes_no_number(runs_and_qrels, capsys):
    runs, qrels = runs_and_qrels
    plain = compare(runs, qrels, METRICS, n_resamples=300)
    assert capsys.readouterr().err == ""
    shown = compare(runs, qrels, METRICS, n_resamples=300, progress=True)
    err = capsys.readouterr().err
    assert "resampling: 100%" in err
    assert "600/600" in err  # the bootstrap pass, then the randomization pass
    pd.testing.assert_frame_equal(shown.summary, plain.summary, check_exact=True)
    pd.testing.assert_frame_equal(shown.tests, plain.tests, check_exact=True)
    compare(runs, qrels, METRICS, n_resamples=300, progress=False)
    assert capsys.readouterr().err == ""


# -- systems evaluated in worker processes (jobs) -------------------------------------------


def test_a_comparison_on_worker_processes_is_the_comparison():
    rng = np.random.default_rng(7)
    qrels = {f"q{i}": {f"d{j}": int(rng.integers(0, 3)) for j in range(8)} for i in range(40)}
    systems = {f"s{k}": {q: [f"d{j}" for j in rng.permutation(12)[: rng.integers(1, 12)]]
                         for q in list(qrels)[k:]} for k in range(4)}  # s1.. miss queries
    one = compare(systems, qrels, ["ndcg@5", "ap", "recall@3"], n_resamples=300)
    two = compare(systems, qrels, ["ndcg@5", "ap", "recall@3"], n_resamples=300, jobs=2)
    pd.testing.assert_frame_equal(one.summary, two.summary)
    pd.testing.assert_frame_equal(one.tests, two.tests)
    for name in systems:
        pd.testing.assert_frame_equal(one.per_query[name], two.per_query[name])
    assert one.warnings == two.warnings
    assert any(w.startswith("s3: 3 judged queries missing from the run") for w in two.warnings)


@pytest.mark.parametrize(("jobs", "error"), [(0, ValueError), (True, TypeError), (1.5, TypeError)])
def test_jobs_must_be_a_positive_int(jobs, error):
    with pytest.raises(error, match=f"jobs must be a positive int, got {jobs!r}"):
        compare({"a": {"q1": ["d"]}}, {"q1": {"d"}}, ["mrr"], jobs=jobs)


def test_a_systems_error_in_a_worker_is_raised_as_it_would_be_in_one_process():
    qrels = {"q1": {"d"}, "q2": {"e"}}
    systems = {"good": {"q1": ["d"]}, "bad": {"q1": ["d", "d"]}}  # a doc listed twice
    for jobs in (1, 2):
        with pytest.raises(ValueError, match="system 'bad': doc id 'd' appears more than "
                           "once") as caught:
            compare(systems, qrels, ["mrr"], n_resamples=50, jobs=jobs)
        assert isinstance(caught.value, ragmetrics.InputValueError)


def test_map_in_workers_keeps_the_order_and_raises_the_first_error():
    import operator

    from ragmetrics.evaluation.in_parallel import map_in_workers

    assert map_in_workers(operator.sub, list(range(20)), jobs=2, shared=(0,)) == [
        -x for x in range(20)]
    with pytest.raises(KeyError, match="3"):
        map_in_workers(operator.getitem, [0, 2, 3, 1], jobs=2, shared=({0: 0, 1: 1, 2: 2},))


def test_a_system_that_cannot_be_sent_to_a_worker_is_refused_clearly():
    from ragmetrics.evaluation.parts import DeferredRun

    qrels = {"q1": {"d"}, "q2": {"d"}}
    systems = {"a": DeferredRun(lambda: {"q1": ["d"]}), "b": {"q1": ["d"], "q2": ["d"]}}
    with pytest.raises(TypeError, match="jobs=2 sends each item to a worker process"):
        compare(systems, qrels, ["mrr"], n_resamples=50, jobs=2)
    assert compare(systems, qrels, ["mrr"], n_resamples=50).summary.loc[("mrr", "a"), "mean"] \
        == 0.5  # in one process, a lambda will do


# -- intervals of no width (issue 23, item 7) ----------------------------------------------


def constant_systems(n=30):
    """One system scores MRR 1.0 on every query, the other 0.5 on every query."""
    qrels = {f"q{i:02d}": {"gold"} for i in range(n)}
    return qrels, {q: ["gold"] for q in qrels}, {q: ["junk", "gold"] for q in qrels}


def test_a_zero_width_interval_is_warned_in_python_and_in_every_report():
    qrels, first, second = constant_systems()
    out = compare({"a": first, "b": second}, qrels, ["mrr", "recall@2"], n_resamples=500)
    row = out.tests.loc[("mrr", "b")]
    assert (row["difference"], row["low"], row["high"]) == (-0.5, -0.5, -0.5)
    assert math.isnan(row["effect_size"])  # was -inf
    assert (out.summary["low"] == out.summary["high"]).all()  # every mean: no spread
    assert out.warnings == (
        ("no spread: every query has the same value on mrr (a), mrr (b), recall@2 (a), "
         "recall@2 (b), so their intervals have no width (resampling these queries cannot "
         "move the mean) and say nothing about queries unlike these"),
        ("constant difference: on mrr (b), every query differs from the baseline by the "
         "same amount, so the difference interval has no width and d_z = mean / sd is "
         "undefined (n/a: no spread to divide by); the interval says nothing about queries "
         "unlike these"),
        ("no difference at all: on recall@2 (b), the system scores what the baseline scores "
         "on every query, so the difference interval is [0, 0] (no width) and d_z is 0; it "
         "says nothing about queries unlike these"),
    )
    text, markdown = out.to_text(), out.to_markdown()
    page = out.to_html(figures=False)
    for warning in out.warnings:
        assert f"  - {warning}" in text
        assert f"- **Warning:** {warning}" in markdown
    assert page.count("no spread: every query has the same value on mrr (a)") == 1
    assert page.count("constant difference: on mrr (b), every query differs") == 1
    mrr = next(line for line in text.splitlines() if line.startswith("mrr ") and "[-" in line)
    assert "-0.5000 [-0.5000, -0.5000]" in mrr
    assert " n/a " in mrr  # d_z
    assert "inf" not in mrr


def test_a_spread_gives_no_zero_width_warning():
    qrels, first, second = constant_systems()
    second = {q: ["gold"] if i % 2 else ["junk", "gold"] for i, q in enumerate(qrels)}
    first = {q: ["gold"] if i % 3 else ["junk", "gold"] for i, q in enumerate(qrels)}
    out = compare({"a": first, "b": second}, qrels, ["mrr", "recall@1"], n_resamples=200)
    assert (out.summary["low"] < out.summary["high"]).all()
    assert (out.tests["low"] < out.tests["high"]).all()
    assert out.warnings == ()


def test_the_evaluate_command_prints_the_zero_width_warning(capsys, tmp_path):
    from ragmetrics.cli import main

    qrels, first, second = constant_systems()
    golden = tmp_path / "golden.csv"
    golden.write_text("query_id,doc_id,relevance\n"
                      + "".join(f"{q},gold,1\n" for q in qrels))
    paths = []
    for name, run in (("one", first), ("half", second)):
        path = tmp_path / f"{name}.csv"
        path.write_text("query_id,doc_id,score\n" + "".join(
            f"{q},{doc},{10 - rank}\n" for q, docs in run.items()
            for rank, doc in enumerate(docs)))
        paths.append(path)
    status = main(["evaluate", str(golden), *map(str, paths), "--metrics", "mrr",
                   "--resamples", "500"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    warnings_block = out[out.index("Warnings:"):]
    assert ("no spread: every query has the same value on mrr (one), mrr (half)"
            in warnings_block)
    assert "constant difference: on mrr (half), every query differs from the baseline" in (
        warnings_block)
    row = next(line for line in out.splitlines() if line.startswith("mrr ") and "[-" in line)
    assert "-0.5000 [-0.5000, -0.5000]" in row
    assert " n/a " in row  # d_z


def test_resamples_beyond_the_machine_are_refused_by_name():
    # 10**12 resamples of one column are 7,451 GiB of means: an InputError naming the
    # count (a MemoryError deep in NumPy before, which the command called a bug, exit 1).
    with pytest.raises(ragmetrics.InputValueError,
                       match=r"^n_resamples=1,000,000,000,000 would hold "
                             r"7,451 GiB of bootstrap means \(1 column x"):
        compare({"a": {"q": ["d"]}}, {"q": {"d": 1}}, ["mrr"], n_resamples=10**12)
