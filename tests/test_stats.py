"""ragmetrics.stats against SciPy, brute-force enumeration and hand computation.

Oracles: ``scipy.stats.ttest_rel`` and ``scipy.stats.t`` (t-test, t distribution),
``scipy.stats.permutation_test`` (exact sign-flip p-values), every sign pattern enumerated
in this file, ``scipy.stats.false_discovery_control`` (Benjamini-Hochberg) and Holm's
formula written as a loop here; the bootstrap against its definition (draw n queries with
replacement, take the mean) and the variance theory of the mean.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest
from scipy import stats as sp

from ragmetrics.stats import (
    EXACT_MAX_QUERIES,
    MIN_QUERIES,
    benjamini_hochberg,
    bootstrap_ci,
    bootstrap_means,
    holm,
    paired_bootstrap,
    paired_effect_size,
    paired_t_test,
    randomization_p_values,
    randomization_test,
    sample_size_warnings,
    student_t_cdf,
)


def metric_like(rng, n):
    """Values like a retrieval metric: bounded, lumpy, many ties."""
    return rng.choice([0.0, 0.2, 1 / 3, 0.5, 0.75, 1.0], size=n)


# -- bootstrap --------------------------------------------------------------------------


def test_bootstrap_means_are_means_of_queries_drawn_with_replacement():
    # The definition, written out: the same generator calls, then values[drawn].mean().
    values = np.linspace(0, 1, 50) ** 2
    means = bootstrap_means(values[:, None], n_resamples=300, seed=7)[:, 0]
    rng = np.random.default_rng(7)
    drawn = rng.integers(0, 50, size=(300, 50), dtype=np.int32)  # 300 rows fit one batch
    np.testing.assert_allclose(means, values[drawn].mean(axis=1), rtol=0, atol=1e-15)


def test_bootstrap_count_path_equals_gather_path():
    # Many columns take the count-and-multiply path; one column gathers. Same draws, same
    # means, up to the order of the additions.
    rng = np.random.default_rng(1)
    values = metric_like(rng, 777)
    many = bootstrap_means(np.column_stack([values, 1 - values, values]), n_resamples=2500,
                           seed=3)
    one = bootstrap_means(values[:, None], n_resamples=2500, seed=3)[:, 0]
    np.testing.assert_allclose(many[:, 0], one, rtol=0, atol=1e-12)
    np.testing.assert_allclose(many[:, 1], 1 - one, rtol=0, atol=1e-12)


def test_bootstrap_interval_is_the_percentiles_of_the_resampled_means():
    values = metric_like(np.random.default_rng(2), 40)
    ci = bootstrap_ci(values, confidence=0.9, n_resamples=4000, seed=11)
    means = bootstrap_means(values[:, None], n_resamples=4000, seed=11)[:, 0]
    assert ci.mean == pytest.approx(values.mean(), abs=1e-15)
    assert ci.low == np.quantile(means, 0.05)
    assert ci.high == np.quantile(means, 0.95)
    assert (ci.confidence, ci.n_queries, ci.n_resamples, ci.seed) == (0.9, 40, 4000, 11)


def test_bootstrap_of_two_values_by_hand():
    # Resampling (0, 1): mean 0 with prob. 1/4, 0.5 with 1/2, 1 with 1/4: the 95% interval
    # spans [0, 1], the 40% interval is [0.5, 0.5].
    assert (bootstrap_ci([0.0, 1.0]).low, bootstrap_ci([0.0, 1.0]).high) == (0.0, 1.0)
    narrow = bootstrap_ci([0.0, 1.0], confidence=0.4)
    assert (narrow.low, narrow.high) == (0.5, 0.5)


@pytest.mark.parametrize("values", [[0.7], [0.25] * 30])
def test_bootstrap_without_spread_has_no_width(values):
    ci = bootstrap_ci(values)
    assert ci.low == ci.mean == ci.high == values[0]


def test_bootstrap_spread_matches_the_theory_of_the_mean():
    # The bootstrap means have variance sigma^2 / n (sigma with ddof=0): the bootstrap
    # estimate of the standard error of the mean.
    values = metric_like(np.random.default_rng(3), 400)
    means = bootstrap_means(values[:, None], n_resamples=20_000, seed=0)[:, 0]
    assert means.std() == pytest.approx(values.std() / math.sqrt(400), rel=0.03)
    # ... centred on the sample mean, within Monte Carlo noise.
    noise = values.std() / math.sqrt(400 * 20_000)
    assert means.mean() == pytest.approx(values.mean(), abs=3 * noise)


def test_bootstrap_agrees_with_scipy_percentile_bootstrap():
    values = metric_like(np.random.default_rng(4), 200)
    ours = bootstrap_ci(values, n_resamples=20_000, seed=5)
    theirs = sp.bootstrap((values,), np.mean, method="percentile", n_resamples=20_000,
                          rng=np.random.default_rng(6)).confidence_interval
    # Two Monte Carlo estimates of the same quantiles: equal within their noise.
    assert ours.low == pytest.approx(theirs.low, abs=0.006)
    assert ours.high == pytest.approx(theirs.high, abs=0.006)


def test_bootstrap_is_reproducible_and_seed_dependent():
    values = metric_like(np.random.default_rng(5), 60)
    assert bootstrap_ci(values, seed=3) == bootstrap_ci(values, seed=3)
    assert bootstrap_ci(values, seed=3) != bootstrap_ci(values, seed=4)


def test_bootstrap_reports_progress_per_batch():
    calls = []
    bootstrap_means(np.zeros((5000, 1)), n_resamples=1000, seed=0,
                    progress=lambda done, total: calls.append((done, total)))
    # 2**22 / 5000 = 838 resamples per batch: two batches.
    assert calls == [(838, 1000), (1000, 1000)]


def test_bootstrap_of_10000_queries_is_vectorized():
    # 10,000 resamples of 10,000 queries: about 1 s on an idle 2-core machine. A Python
    # loop per resample would take minutes; the bound leaves room for a busy machine.
    values = metric_like(np.random.default_rng(6), 10_000)
    start = time.perf_counter()
    ci = bootstrap_ci(values)
    assert time.perf_counter() - start < 20
    assert ci.low < ci.mean < ci.high


def test_paired_bootstrap_is_the_bootstrap_of_the_differences():
    rng = np.random.default_rng(7)
    a, b = metric_like(rng, 50), metric_like(rng, 50)
    assert paired_bootstrap(a, b, seed=2) == bootstrap_ci(b - a, seed=2)


# -- randomization test -------------------------------------------------------------------


def brute_force_p(d):
    """Every sign pattern, enumerated with itertools: the definition of the exact test."""
    observed = abs(sum(d))
    extreme = sum(
        abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= observed - 1e-12
        for signs in itertools.product((1, -1), repeat=len(d))
    )
    return extreme / 2 ** len(d)


@pytest.mark.parametrize("n", [1, 2, 5, 10, EXACT_MAX_QUERIES])
def test_exact_randomization_equals_enumeration(n):
    rng = np.random.default_rng(n)
    a, b = metric_like(rng, n), metric_like(rng, n)
    result = randomization_test(a, b)
    assert result.exact
    assert result.p_value == pytest.approx(brute_force_p(b - a), abs=1e-15)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_randomization_equals_scipy_permutation_test(seed):
    rng = np.random.default_rng(seed)
    a, b = metric_like(rng, 12), metric_like(rng, 12) + 0.1
    theirs = sp.permutation_test(
        (b, a), lambda x, y, axis: np.mean(x - y, axis=axis), vectorized=True,
        permutation_type="samples", n_resamples=np.inf, alternative="two-sided",
    )
    assert randomization_test(a, b).p_value == pytest.approx(theirs.pvalue, abs=1e-12)


def test_sampled_randomization_is_close_to_the_exact_p():
    # n = 20: sampled (10,000 patterns); the exact p by enumerating 2**20 patterns here.
    rng = np.random.default_rng(8)
    d = rng.choice([-0.5, -0.2, 0.0, 0.1, 0.3, 0.5], size=20)
    patterns = 1 - 2 * ((np.arange(2**20)[:, None] >> np.arange(20)) & 1)
    exact = np.mean(np.abs(patterns @ d) >= abs(d.sum()) - 1e-12)
    result = randomization_test(np.zeros(20), d)
    assert not result.exact
    standard_error = math.sqrt(exact * (1 - exact) / 10_000)
    assert abs(result.p_value - exact) < 4 * standard_error + 1e-4


def test_sampled_p_counts_the_observed_pattern():
    # B ahead on all 40 queries: no random pattern of 10,000 reaches the observed sum
    # (chance 2 / 2**40 each), so p = (0 + 1) / (10,000 + 1), never 0.
    result = randomization_test(np.zeros(40), np.full(40, 0.3))
    assert result.p_value == 1 / 10_001


def test_no_difference_has_p_one():
    values = metric_like(np.random.default_rng(9), 30)
    assert randomization_test(values, values).p_value == 1.0
    assert randomization_test(values[:5], values[:5]).p_value == 1.0


def test_batched_randomization_equals_column_by_column():
    rng = np.random.default_rng(10)
    d = rng.normal(0.02, 0.2, size=(300, 3))
    together, _ = randomization_p_values(d, seed=4)
    alone = [randomization_test(np.zeros(300), d[:, j], seed=4).p_value for j in range(3)]
    np.testing.assert_array_equal(together, alone)


def test_randomization_is_reproducible():
    rng = np.random.default_rng(11)
    a, b = metric_like(rng, 100), metric_like(rng, 100)
    assert randomization_test(a, b, seed=1) == randomization_test(a, b, seed=1)
    assert randomization_test(a, b, seed=1).p_value != randomization_test(a, b, seed=2).p_value


# -- paired t-test and the t distribution ------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 7, 30, 500, 5000])
def test_paired_t_test_equals_scipy(n):
    rng = np.random.default_rng(n)
    a = metric_like(rng, n)
    b = np.clip(a + rng.normal(0.03, 0.2, n), 0, 1)
    ours, theirs = paired_t_test(a, b), sp.ttest_rel(b, a)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-10)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-10)
    assert ours.df == n - 1
    assert ours.difference == pytest.approx(np.mean(b - a), abs=1e-15)


def test_paired_t_test_in_the_far_tail_equals_scipy():
    a = np.linspace(0, 0.5, 200)
    b = a + 0.2 + 0.01 * np.sin(np.arange(200))  # t in the hundreds
    ours, theirs = paired_t_test(a, b), sp.ttest_rel(b, a)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9)
    assert ours.p_value < 1e-100


def test_paired_t_test_without_spread():
    same = paired_t_test([0.5, 0.2, 0.9], [0.5, 0.2, 0.9])
    assert (same.statistic, same.p_value) == (0.0, 1.0)
    shifted = paired_t_test([0.5, 0.25, 0.0], [0.75, 0.5, 0.25])  # every difference 0.25
    assert shifted.p_value == 0.0
    assert shifted.statistic == math.inf


def test_paired_t_test_with_one_query_is_undefined_and_says_so():
    result = paired_t_test([0.5], [0.7])
    assert math.isnan(result.statistic)
    assert math.isnan(result.p_value)
    assert any("at least 2 queries" in w for w in result.warnings)


@pytest.mark.parametrize("df", [1, 2, 2.5, 3, 10, 29, 100, 1000, 1e5])
def test_student_t_cdf_equals_scipy(df):
    for t in [-60.0, -8.0, -3.0, -1.96, -0.5, -1e-6, 1e-6, 0.3, 1.0, 2.5, 7.0, 40.0]:
        ours, theirs = student_t_cdf(t, df), sp.t.cdf(t, df)
        assert ours == pytest.approx(theirs, rel=1e-10, abs=0), (t, df)


def test_student_t_cdf_by_hand():
    # df = 1 is the Cauchy distribution: F(t) = 1/2 + arctan(t) / pi.
    for t in (-3.0, -0.4, 0.0, 1.0, 12.0):
        assert student_t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, rel=1e-13)
    # df = 2: F(t) = 1/2 + t / (2 sqrt(t^2 + 2)).
    for t in (-5.0, 0.7, 3.0):
        assert student_t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(t * t + 2)),
                                                    rel=1e-13)
    assert student_t_cdf(math.inf, 4) == 1.0
    assert student_t_cdf(-math.inf, 4) == 0.0


@pytest.mark.parametrize(("t", "df", "error"), [
    (1.0, 0, ValueError), (1.0, -2, ValueError), (1.0, math.inf, ValueError),
    (math.nan, 3, TypeError), ("1", 3, TypeError), (1.0, True, ValueError),
])  # fmt: skip
def test_student_t_cdf_rejects(t, df, error):
    with pytest.raises(error):
        student_t_cdf(t, df)


# -- effect size --------------------------------------------------------------------------


def test_effect_size_by_hand():
    # Differences 0.1, 0.2, 0.0, 0.2: mean 0.125, sd (ddof=1) 0.0957427.
    effect = paired_effect_size([0.2, 0.4, 0.6, 0.8], [0.3, 0.6, 0.6, 1.0])
    assert effect.cohens_d == pytest.approx(0.125 / 0.09574271077563381, rel=1e-12)
    assert (effect.wins, effect.ties, effect.losses) == (3, 1, 0)
    assert effect.share_better == 0.75


def test_effect_size_is_t_over_root_n():
    rng = np.random.default_rng(12)
    a, b = metric_like(rng, 64), metric_like(rng, 64)
    d = paired_effect_size(a, b).cohens_d
    assert d == pytest.approx(paired_t_test(a, b).statistic / 8, rel=1e-12)


def test_effect_size_degenerate_cases():
    assert paired_effect_size([0.5, 0.5], [0.5, 0.5]).cohens_d == 0.0
    assert paired_effect_size([0.5, 0.25], [0.25, 0.0]).cohens_d == -math.inf  # exact -0.25s
    assert math.isnan(paired_effect_size([0.5], [0.7]).cohens_d)


# -- multiple comparisons ----------------------------------------------------------------


def holm_by_formula(p):
    """Holm (1979), as statsmodels' multipletests(method='holm') computes it, as a loop."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out, running = [0.0] * m, 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (m - j) * p[i]))
        out[i] = running
    return out


P_VALUE_SETS = [
    [0.01, 0.04, 0.03],
    [0.5],
    [0.001, 0.001, 0.2, 0.9, 0.04, 0.04, 1.0],
    list(np.random.default_rng(13).uniform(0, 0.2, 25)),
    [0.0, 1.0, 0.3],
]


@pytest.mark.parametrize("p", P_VALUE_SETS)
def test_holm_equals_the_formula(p):
    np.testing.assert_allclose(holm(p), holm_by_formula(p), rtol=1e-15, atol=0)


@pytest.mark.parametrize("p", P_VALUE_SETS)
def test_benjamini_hochberg_equals_scipy(p):
    np.testing.assert_allclose(benjamini_hochberg(p), sp.false_discovery_control(p, method="bh"),
                               rtol=1e-14, atol=0)


def test_holm_by_hand():
    # Sorted 0.01, 0.03, 0.04 -> 3 x 0.01 = 0.03, 2 x 0.03 = 0.06, max(0.06, 1 x 0.04).
    np.testing.assert_allclose(holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06], rtol=1e-15)


@pytest.mark.parametrize("bad", [[0.2, 1.5], [0.2, -0.1], [0.2, math.nan], [], "0.1"])
def test_corrections_reject_bad_p_values(bad):
    for adjust in (holm, benjamini_hochberg):
        with pytest.raises((ValueError, TypeError)):
            adjust(bad)


# -- warnings and validation -----------------------------------------------------------


def test_too_few_queries_warning_threshold():
    assert sample_size_warnings(MIN_QUERIES) == ()
    (warning,) = sample_size_warnings(MIN_QUERIES - 1)
    assert "24 queries: too few queries for this claim" in warning
    assert sample_size_warnings(1)[0].startswith("only 1 query:")
    assert bootstrap_ci([0.5] * 24).warnings == sample_size_warnings(24)
    assert randomization_test([0.5] * 24, [0.6] * 24).warnings == sample_size_warnings(24)
    assert bootstrap_ci([0.5] * 25).warnings == ()


@pytest.mark.parametrize(("call", "message"), [
    (lambda: bootstrap_ci([]), "empty"),
    (lambda: bootstrap_ci([0.5, math.nan]), r"values\[1\] is nan"),
    (lambda: bootstrap_ci([[0.5, 0.2]]), "1-D"),
    (lambda: bootstrap_ci("0.5"), "string"),
    (lambda: bootstrap_ci([0.5], confidence=95), "between 0 and 1"),
    (lambda: bootstrap_ci([0.5], n_resamples=0), "positive int"),
    (lambda: bootstrap_ci([0.5], n_resamples=10.0), "positive int"),
    (lambda: bootstrap_ci([0.5], seed=-1), "seed"),
    (lambda: bootstrap_ci([0.5], seed=True), "seed"),
    (lambda: randomization_test([0.1, 0.2], [0.3]), "got 2 and 1 values"),
    (lambda: paired_t_test([0.1, math.inf], [0.3, 0.2]), r"a\[1\] is inf"),
    (lambda: bootstrap_means([[0.5]], progress="yes"), "progress"),
])  # fmt: skip
def test_validation_names_the_bad_value(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
