"""ragmetrics.stats against SciPy, brute-force enumeration, hand computation and simulation.

Oracles: ``scipy.stats.ttest_rel`` and ``scipy.stats.t`` (t-test, t distribution),
``scipy.stats.permutation_test`` (exact and sampled sign-flip p-values), every sign
pattern enumerated in this file, ``scipy.stats.bootstrap`` (percentile and BCa
intervals), ``scipy.stats.false_discovery_control`` (Benjamini-Hochberg) and Holm's
formula written as a loop here; the bootstrap against its definition (draw n queries with
replacement, take the mean) and the variance theory of the mean; the intervals' coverage
by a seeded simulation on metric-like data whose true mean is known.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special
from scipy import stats as sp

from ragmetrics.errors import InputTypeError, InputValueError
from ragmetrics.stats import (
    EXACT_MAX_QUERIES,
    MC_Z,
    MIN_QUERIES,
    ROUNDING,
    adjust_p_values,
    benjamini_hochberg,
    bootstrap_ci,
    bootstrap_interval,
    bootstrap_means,
    holm,
    paired_bootstrap,
    paired_differences,
    paired_effect_size,
    paired_t_test,
    randomization_p_values,
    randomization_test,
    randomization_verdicts,
    sample_size_warnings,
    smallest_p_value,
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


def test_percentile_interval_is_the_percentiles_of_the_resampled_means():
    values = metric_like(np.random.default_rng(2), 40)
    ci = bootstrap_ci(values, confidence=0.9, n_resamples=4000, seed=11, method="percentile")
    means = bootstrap_means(values[:, None], n_resamples=4000, seed=11)[:, 0]
    assert ci.mean == pytest.approx(values.mean(), abs=1e-15)
    assert ci.low == pytest.approx(np.quantile(means, 0.05), abs=1e-15)
    assert ci.high == pytest.approx(np.quantile(means, 0.95), abs=1e-15)
    assert (ci.confidence, ci.n_queries, ci.n_resamples, ci.seed) == (0.9, 40, 4000, 11)
    assert ci.method == "percentile"


def test_bca_interval_by_its_formula():
    # BCa written out: z0 from the share of bootstrap means below the mean (ties half),
    # the jackknife acceleration of a mean, then two quantiles of the bootstrap means.
    values = np.array([0, 0, 0, 0, 0, 0.2, 0.25, 0.5, 1, 1] * 2, dtype=float)
    means = bootstrap_means(values[:, None], n_resamples=5000, seed=1)[:, 0]
    m = values.mean()
    share = (np.sum(means < m - 1e-12) + 0.5 * np.sum(np.abs(means - m) <= 1e-12)) / 5000
    z0 = sp.norm.ppf(share)
    jack = np.array([np.delete(values, i).mean() for i in range(len(values))])
    u = jack.mean() - jack
    a = (u**3).sum() / (6 * (u**2).sum() ** 1.5)
    levels = [sp.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in sp.norm.ppf([0.025, 0.975])]
    expected = np.quantile(means, levels)
    ci = bootstrap_ci(values, n_resamples=5000, seed=1, method="bca")
    assert (ci.low, ci.high) == pytest.approx(tuple(expected), abs=1e-12)
    assert a > 0  # skewed up: the interval leans towards the long tail
    assert ci.high - m > m - ci.low


def test_expanded_interval_is_the_percentile_interval_at_hesterbergs_level():
    # The percentile interval at the tail whose normal quantile is sqrt(n/(n-1)) t(n-1).
    values = metric_like(np.random.default_rng(20), 12)
    means = bootstrap_means(values[:, None], n_resamples=4000, seed=3)[:, 0]
    tail = sp.norm.cdf(-math.sqrt(12 / 11) * sp.t.ppf(0.975, 11))
    assert 0.005 < tail < 0.025  # smaller than the nominal 2.5%: a wider interval
    ci = bootstrap_ci(values, n_resamples=4000, seed=3, method="expanded")
    assert (ci.low, ci.high) == pytest.approx(tuple(np.quantile(means, [tail, 1 - tail])),
                                              abs=1e-15)


def test_expanded_t_interval_is_the_wider_of_expanded_and_t_end_by_end():
    rng = np.random.default_rng(21)
    for n in (3, 10, 40):
        values = metric_like(rng, n)
        expanded = bootstrap_ci(values, n_resamples=3000, seed=2, method="expanded")
        t_low, t_high = sp.t.interval(0.95, n - 1, loc=values.mean(), scale=sp.sem(values))
        both = bootstrap_ci(values, n_resamples=3000, seed=2)
        assert both.method == "expanded_t"
        assert both.low == pytest.approx(min(expanded.low, t_low), abs=1e-12)
        assert both.high == pytest.approx(max(expanded.high, t_high), abs=1e-12)
        assert both.low <= both.mean <= both.high


def test_bootstrap_of_two_values_by_hand():
    # Resampling (0, 1): mean 0 with prob. 1/4, 0.5 with 1/2, 1 with 1/4: the 95% percentile
    # interval spans [0, 1], the 40% one is [0.5, 0.5]. BCa is the same here (symmetric:
    # z0 = 0, a = 0). Student's t with 1 degree of freedom is far wider: 0.5 ± 12.706 x 0.5.
    for method in ("percentile", "bca"):
        ci = bootstrap_ci([0.0, 1.0], method=method)
        assert (ci.low, ci.high) == (0.0, 1.0)
        narrow = bootstrap_ci([0.0, 1.0], confidence=0.4, method=method)
        assert (narrow.low, narrow.high) == (0.5, 0.5)
    wide = bootstrap_ci([0.0, 1.0])
    assert (wide.low, wide.high) == pytest.approx((0.5 - 12.7062047 * 0.5, 0.5 + 12.7062047 * 0.5))
    # A mean of metric values cannot leave [0, 1]: with the bounds, two queries say so.
    bounded = bootstrap_ci([0.0, 1.0], bounds=(0, 1))
    assert (bounded.low, bounded.high) == (0.0, 1.0)


@pytest.mark.parametrize("values", [[0.7], [0.25] * 30, [0.1 + 0.2] * 5 + [0.3] * 5])
@pytest.mark.parametrize("method", ["expanded_t", "expanded", "bca", "percentile"])
def test_bootstrap_without_spread_has_no_width_and_says_so(values, method):
    ci = bootstrap_ci(values, method=method)
    assert ci.low == ci.mean == ci.high == pytest.approx(values[0], abs=1e-15)
    assert math.isfinite(ci.low)
    expected = "one query" if len(values) == 1 else "resampling cannot move the mean"
    assert any(expected in w for w in ci.warnings)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_tiny_samples_give_finite_intervals(n):
    for values in ([0.0, 1.0, 0.5][:n], [0.2, 0.2, 0.9][:n]):
        for method in ("expanded_t", "expanded", "bca", "percentile"):
            ci = bootstrap_ci(values, method=method, n_resamples=500)
            assert math.isfinite(ci.low), (values, method)
            assert math.isfinite(ci.high), (values, method)
            assert ci.low <= ci.high
            if method == "expanded_t":
                assert ci.low <= ci.mean <= ci.high


def test_bootstrap_near_the_float_limits_is_exact_scaling():
    # Scaling by a power of two is exact, so the interval of 2**1000 x values is 2**1000
    # times the interval of the values: no overflow (sums near 1e308), no lost digits.
    values = metric_like(np.random.default_rng(22), 30)
    base = bootstrap_ci(values, n_resamples=1000)
    for factor in (2.0**1000, 2.0**-1000, -(2.0**1020)):
        scaled = bootstrap_ci(values * factor, n_resamples=1000)
        ends = sorted([scaled.low / factor, scaled.high / factor])
        assert ends == pytest.approx([base.low, base.high], rel=1e-12)
        assert scaled.mean / factor == pytest.approx(base.mean, rel=1e-12)


def test_extreme_levels_stay_finite_and_ordered():
    # At confidence 1 - 1e-9 the BCa formula can pass its pole (a (z0 + z) >= 1): the level
    # then goes to its extreme, never NaN.
    values = np.array([0.0] * 27 + [1.0] * 3)
    for confidence in (0.5, 0.999, 1 - 1e-9):
        for method in ("expanded_t", "bca"):
            ci = bootstrap_ci(values, confidence=confidence, n_resamples=2000, method=method)
            assert math.isfinite(ci.low)
            assert math.isfinite(ci.high)
            assert ci.low <= ci.high


def test_bounds_clip_the_interval_and_are_checked():
    values = [1.0] * 8 + [0.0, 0.5]
    free, bounded = bootstrap_ci(values), bootstrap_ci(values, bounds=(0, 1))
    assert free.high > 1.0
    assert bounded.high == 1.0
    assert bounded.low == free.low
    with pytest.raises(InputValueError, match="outside the bounds"):
        bootstrap_ci([0.5, 2.0], bounds=(0, 1))
    with pytest.raises(InputValueError, match="low < high"):
        bootstrap_ci([0.5], bounds=(1, 0))
    with pytest.raises(InputTypeError, match="pair"):
        bootstrap_ci([0.5], bounds=1)
    # Paired: bounds are the values' range; the differences' range is twice as wide.
    paired = paired_bootstrap([0.0, 0.0, 1.0], [1.0, 1.0, 1.0], bounds=(0, 1))
    assert -1.0 <= paired.low <= paired.high <= 1.0


def test_bootstrap_spread_matches_the_theory_of_the_mean():
    # The bootstrap means have variance sigma^2 / n (sigma with ddof=0): the bootstrap
    # estimate of the standard error of the mean.
    values = metric_like(np.random.default_rng(3), 400)
    means = bootstrap_means(values[:, None], n_resamples=20_000, seed=0)[:, 0]
    assert means.std() == pytest.approx(values.std() / math.sqrt(400), rel=0.03)
    # ... centred on the sample mean, within Monte Carlo noise.
    noise = values.std() / math.sqrt(400 * 20_000)
    assert means.mean() == pytest.approx(values.mean(), abs=3 * noise)


@pytest.mark.parametrize(("method", "scipy_method"), [("percentile", "percentile"),
                                                      ("bca", "BCa")])
@pytest.mark.parametrize("n", [15, 200])
def test_bootstrap_agrees_with_scipy_bootstrap(method, scipy_method, n):
    values = metric_like(np.random.default_rng(4), n)
    ours = bootstrap_ci(values, n_resamples=20_000, seed=5, method=method)
    theirs = sp.bootstrap((values,), np.mean, method=scipy_method, n_resamples=20_000,
                          rng=np.random.default_rng(6)).confidence_interval
    # Two Monte Carlo estimates of the same quantiles: equal within their noise, which
    # is about 2% of the interval's width at 20,000 resamples.
    tolerance = 0.03 * (theirs.high - theirs.low)
    assert ours.low == pytest.approx(theirs.low, abs=tolerance)
    assert ours.high == pytest.approx(theirs.high, abs=tolerance)


# -- coverage: does a 95% interval cover the true mean 95% of the time? -------------------
#
# Per-query metric values are lumpy: point masses at 0 and 1 and a few values between.
# Each distribution below is such a mixture, with its true mean computed exactly; the
# paired one is the difference of two systems' reciprocal ranks, tied on 40% of queries.
# Simulated: 8,000 samples of n queries each, one interval per sample (1,000 resamples):
# a coverage of 95% is estimated to within about ± 0.25% (one standard error).
# Where the percentile interval covers 86-92% at n = 10, "expanded_t" must cover 93-97%.

RR_VALUES = np.array([1.0, 0.0, 1 / 2, 1 / 3, *(1 / k for k in range(4, 11))])


def rr_probabilities(first):
    """P(RR = 1) = first; P(0) = 0.65 - first; 1/2, 1/3: 0.15, 0.08; 1/4..1/10: 0.12 in all."""
    return np.array([first, 0.65 - first, 0.15, 0.08] + [0.12 / 7] * 7)


def draw_recall(rng, size):
    """Recall@k with a few relevant docs per query: 15% none found, 55% all, 30% some."""
    u = rng.random(size)
    some = rng.choice([1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4], size=size)
    return np.where(u < 0.15, 0.0, np.where(u < 0.70, 1.0, some))


def draw_rr(rng, size, first=0.45):
    return rng.choice(RR_VALUES, size=size, p=rr_probabilities(first))


def draw_hard(rng, size):
    """A hard query set: 60% score 0, 15% score 1, 25% anywhere between (uniform)."""
    u = rng.random(size)
    return np.where(u < 0.6, 0.0, np.where(u < 0.75, 1.0, rng.random(size)))


def draw_rr_difference(rng, size):
    """B's RR minus A's: tied on 40% of queries, else independent, B finds more at rank 1."""
    a, b = draw_rr(rng, size), draw_rr(rng, size, first=0.60)
    return np.where(rng.random(size) < 0.4, 0.0, b - a)


def rr_mean(first):
    return float(RR_VALUES @ rr_probabilities(first))


TRUE_MEANS = {
    draw_recall: 0.55 + 0.30 * np.mean([1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4]),
    draw_rr: rr_mean(0.45),
    draw_hard: 0.15 + 0.25 * 0.5,
    draw_rr_difference: 0.6 * (rr_mean(0.60) - rr_mean(0.45)),
}


def coverage(draw, n, method, seed, samples=8000, confidence=0.95):
    truth, covered = TRUE_MEANS[draw], 0
    for chunk in range(0, samples, 4000):  # 4,000 samples at a time: 32 MB of means
        rng = np.random.default_rng([seed, chunk])
        sample = draw(rng, (n, 4000))  # one sample per column, all bootstrapped at once
        means = bootstrap_means(sample, n_resamples=1000, seed=seed + chunk)
        low, high = bootstrap_interval(sample, means, confidence=confidence, method=method)
        covered += int(np.sum((low <= truth) & (truth <= high)))
    return covered / samples


def test_true_means_of_the_simulated_distributions():
    rng = np.random.default_rng(0)
    for draw, truth in TRUE_MEANS.items():
        assert draw(rng, 1_000_000).mean() == pytest.approx(truth, abs=0.002), draw.__name__


@pytest.mark.slow
@pytest.mark.parametrize("draw", list(TRUE_MEANS), ids=lambda f: f.__name__)
def test_95_percent_intervals_cover_93_to_97_percent(draw):
    start = time.perf_counter()
    found = {n: coverage(draw, n, "expanded_t", seed=n) for n in (10, 25, 50)}
    assert all(0.93 <= c <= 0.97 for c in found.values()), found
    assert time.perf_counter() - start < 30  # about 1 s on an idle machine; vectorized


@pytest.mark.parametrize("draw", [draw_recall, draw_rr_difference], ids=lambda f: f.__name__)
def test_the_percentile_interval_undercovers_at_ten_queries(draw):
    # The reason for "expanded_t": samples like those above (which it covers 93-97% of
    # the time), the plain percentile interval.
    assert coverage(draw, 10, "percentile", seed=10) < 0.92


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


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 5, 10, EXACT_MAX_QUERIES])
def test_exact_randomization_equals_enumeration(n):
    rng = np.random.default_rng(n)
    a, b = metric_like(rng, n), metric_like(rng, n)
    result = randomization_test(a, b)
    assert result.exact
    assert result.p_value == pytest.approx(brute_force_p(b - a), abs=1e-15)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_randomization_equals_scipy_permutation_test(seed):
    rng = np.random.default_rng(seed)
    a, b = metric_like(rng, 12), metric_like(rng, 12) + 0.1
    theirs = sp.permutation_test(
        (b, a), lambda x, y, axis: np.mean(x - y, axis=axis), vectorized=True,
        permutation_type="samples", n_resamples=np.inf, alternative="two-sided",
    )
    assert randomization_test(a, b).p_value == pytest.approx(theirs.pvalue, abs=1e-12)


@pytest.mark.slow
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


def test_sampled_randomization_agrees_with_scipys_sampled_permutation_test():
    rng = np.random.default_rng(12)
    a, b = metric_like(rng, 60), metric_like(rng, 60)
    b = np.clip(b + 0.05, 0, 1)
    ours = randomization_test(a, b, n_resamples=20_000, seed=3)
    theirs = sp.permutation_test(
        (b, a), lambda x, y, axis: np.mean(x - y, axis=axis), vectorized=True,
        permutation_type="samples", n_resamples=20_000, alternative="two-sided",
        rng=np.random.default_rng(4),
    )
    # Two Monte Carlo estimates of one p-value: within 4 of their combined errors.
    assert abs(ours.p_value - theirs.pvalue) < 4 * math.sqrt(2) * ours.mc_error + 1e-4


def test_monte_carlo_error_of_the_p_value():
    exact = randomization_test([0.5] * 6, [0.6, 0.7, 0.5, 0.4, 0.9, 0.6])
    assert exact.exact
    assert exact.mc_error == 0.0
    rng = np.random.default_rng(13)
    a, b = metric_like(rng, 50), metric_like(rng, 50)
    sampled = randomization_test(a, b, n_resamples=4000)
    p = sampled.p_value
    assert sampled.mc_error == pytest.approx(math.sqrt(p * (1 - p) / 4000), rel=1e-12)
    # ... and it is the spread of p over seeds.
    spread = np.std([randomization_test(a, b, n_resamples=4000, seed=s).p_value
                     for s in range(40)])
    assert spread == pytest.approx(sampled.mc_error, rel=0.35)


def test_randomization_near_the_float_limits():
    # 2**1000 x the differences: the same p (the sums are scaled exactly, not overflowed).
    rng = np.random.default_rng(14)
    d = rng.choice([-0.5, 0.0, 0.25, 0.5], size=(40, 1))
    for factor in (2.0**1000, 2.0**-1000):
        np.testing.assert_array_equal(randomization_p_values(d * factor)[0],
                                      randomization_p_values(d)[0])
    np.testing.assert_array_equal(randomization_p_values(d[:12] * 2.0**1020)[0],
                                  randomization_p_values(d[:12])[0])


def test_smallest_p_value():
    assert [smallest_p_value(n) for n in (1, 2, 5, 6, 16)] == [1.0, 0.5, 0.0625, 0.03125, 2**-15]
    assert smallest_p_value(17, n_resamples=100) == 1 / 101
    # It is reached: every difference of one sign.
    assert randomization_test([0.0] * 5, [0.2] * 5).p_value == smallest_p_value(5)
    assert randomization_test([0.0] * 30, [0.2] * 30, n_resamples=100).p_value == 1 / 101


# -- many claims: verdicts under a correction, with Monte Carlo error --------------------


def near_threshold_columns():
    """A clear claim, and one whose p sits near alpha after Holm over two claims."""
    rng = np.random.default_rng(0)
    clear = rng.choice([0.0, 0.25, 0.5], size=30)
    near = np.array([0.3] * 12 + [-0.2] * 6 + [0.0] * 12)
    return np.column_stack([clear, near])


def settled(p, error, alpha, correction, nonzero):
    """The rule, written out: the verdict is the same at every raw p's two bounds."""
    low = adjust_p_values(np.clip(p - MC_Z * error, 0, 1), correction) < alpha
    high = adjust_p_values(np.clip(p + MC_Z * error, 0, 1), correction) < alpha
    return (low & nonzero) == (high & nonzero)


def test_settled_verdicts_are_not_resampled_and_equal_the_first_pass():
    clear = near_threshold_columns()[:, 0]
    nearish = np.array([0.3] * 12 + [-0.2] * 3 + [0.0] * 15)  # p about 0.008
    far = np.array([0.3] * 12 + [-0.2] * 8 + [0.0] * 10)  # p about 0.11
    d = np.column_stack([clear, nearish, far])
    v = randomization_verdicts(d, n_resamples=10_000, seed=2)
    first, exact = randomization_p_values(d, n_resamples=10_000, seed=2)
    assert not exact
    assert v.n_patterns.tolist() == [10_000] * 3
    np.testing.assert_array_equal(v.p_value, first)
    np.testing.assert_array_equal(v.p_adjusted, holm(first))
    np.testing.assert_allclose(v.mc_error, np.sqrt(first * (1 - first) / 10_000), rtol=1e-12)
    assert v.decided.all()
    assert v.significant.tolist() == [True, True, False]
    assert settled(v.p_value, v.mc_error, 0.05, "holm", np.ones(3, bool)).all()


def test_an_open_verdict_is_resampled_until_settled():
    d = near_threshold_columns()
    v = randomization_verdicts(d, n_resamples=200, seed=0)
    assert v.n_patterns[0] == 200  # clear at once
    assert 200 < v.n_patterns[1] <= 32 * 200
    assert v.decided.all()
    assert settled(v.p_value, v.mc_error, 0.05, "holm", np.array([True, True])).all()
    # Settled on the right side: the exact p (2**30 patterns are too many; 2 million
    # sampled ones, here, know it to +- 0.0003).
    many = randomization_p_values(d[:, 1:], n_resamples=2_000_000, seed=9)[0][0]
    assert v.significant[1] == (holm([v.p_value[0], many])[1] < 0.05)


def test_an_undecided_verdict_at_the_cap_says_so():
    rng = np.random.default_rng(0)
    clear = rng.choice([0.0, 0.25, 0.5], size=30)
    nearer = np.array([0.3] * 10 + [-0.2] * 4 + [0.0] * 16)
    v = randomization_verdicts(np.column_stack([clear, nearer]), n_resamples=200)
    assert v.n_patterns.tolist() == [200, 6400]
    assert v.decided.tolist() == [True, False]
    assert v.significant.tolist() == [True, False]  # an open claim is never a finding
    assert not settled(v.p_value, v.mc_error, 0.05, "holm", np.array([True, True]))[1]
    off = randomization_verdicts(np.column_stack([clear, nearer]), n_resamples=200,
                                 max_resamples=200)
    assert off.n_patterns.tolist() == [200, 200]


@pytest.mark.slow
def test_verdicts_near_alpha_no_longer_depend_on_the_seed():
    # The case: an exact p just below 0.05. One pass of 10,000 patterns called it
    # significant on some seeds and not on others; now a seed either decides it right or
    # says it cannot tell.
    d = np.array([0.3] * 13 + [-0.3] * 4 + [0.0] * 3)
    # By hand: the flipped sum is 0.3 (2k - 17) for k plus signs among the 17 non-zero
    # differences, as extreme as the observed 0.3 x 9 when k >= 13 or k <= 4.
    exact = 2 * sum(math.comb(17, k) for k in range(13, 18)) / 2**17
    assert exact == 0.049041748046875
    one_pass = [randomization_p_values(d[:, None], seed=s)[0][0] < 0.05 for s in range(20)]
    assert 0 < sum(one_pass) < 20  # the old behaviour: a coin flip between seeds
    for seed in range(20):
        v = randomization_verdicts(d[:, None], correction="none", seed=seed)
        assert not v.decided[0] or v.significant[0], seed


def test_verdicts_with_missing_values_and_exact_groups():
    nan = np.nan
    d = np.array([[0.2, 0.1, nan]] * 5 + [[0.2, nan, nan]] * 20)
    v = randomization_verdicts(d, n_resamples=500)
    assert v.exact.tolist() == [False, True, False]
    assert v.n_patterns.tolist() == [500, 32, 0]
    assert v.p_value[1] == 2 / 32
    assert math.isnan(v.p_value[2])
    assert math.isnan(v.p_adjusted[2])
    assert not v.significant[2]
    assert v.decided[2]
    # Holm over the two tested claims; the exact one can never get below 2/32 x 1.
    assert v.smallest_adjusted[1] == pytest.approx(2 / 32)
    assert v.smallest_adjusted_at_cap[1] == pytest.approx(2 / 32)


def test_smallest_reachable_adjusted_p():
    # --resamples 100, Holm over 10 claims: 10 / 101, not below 0.05.
    d = np.tile(np.linspace(0.05, 0.5, 30)[:, None], (1, 10))
    v = randomization_verdicts(d, n_resamples=100)
    np.testing.assert_allclose(v.smallest_adjusted, 10 / 101)
    np.testing.assert_allclose(v.smallest_adjusted_at_cap, 10 / 3201)
    # ... so every claim needed the extra passes, and got them.
    assert (v.n_patterns > 100).all()
    assert v.significant.all()
    # Five queries: the exact test cannot go below 2 / 32 = 0.0625, whatever is done.
    five = randomization_verdicts(d[:5, :1])
    assert five.smallest_adjusted_at_cap[0] == 0.0625
    assert not five.significant[0]


def test_verdicts_are_reproducible_and_report_progress():
    d = near_threshold_columns()
    calls = []
    one = randomization_verdicts(d, n_resamples=200, progress=lambda *c: calls.append(c))
    two = randomization_verdicts(d, n_resamples=200)
    np.testing.assert_array_equal(one.p_value, two.p_value)
    done = [c[0] for c in calls]
    assert done == sorted(done)
    assert calls[-1][0] == calls[-1][1] == int(one.n_patterns.max())


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"alpha": 0.0}, InputValueError, "alpha must be between 0 and 1"),
    ({"alpha": "5%"}, InputTypeError, "alpha must be a number"),
    ({"correction": "bonferroni"}, InputValueError, "correction must be one of"),
    ({"max_resamples": 10, "n_resamples": 100}, InputValueError, "at least n_resamples"),
    ({"differences": [[1.0, math.inf]]}, InputValueError, r"differences\[0, 1\] is inf"),
])  # fmt: skip
def test_verdicts_validate(kwargs, error, message):
    arguments = {"differences": np.ones((20, 2))} | kwargs
    with pytest.raises(error, match=message):
        randomization_verdicts(**arguments)


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


def test_paired_t_test_with_a_mean_of_exactly_zero_has_t_zero_and_p_one():
    # Issue 10, item 1: differences that vary but average exactly 0 reached log(0).
    a = [0.5, 0.5, 0.5, 0.5]
    b = [0.75, 0.25, 0.6, 0.4]  # differences +0.25, -0.25, +0.1, -0.1 (to the last bit)
    assert sum(np.subtract(b, a)) == 0.0
    result = paired_t_test(a, b)
    assert (result.statistic, result.p_value, result.df) == (0.0, 1.0, 3)
    theirs = sp.ttest_rel(b, a)
    assert (theirs.statistic, theirs.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize(("a", "b", "scale"), [
    ([0.0, 0.0], [0.3, 0.5], 1.0),                        # n = 2: one degree of freedom
    ([0.0] * 3, [1.0, 1.0 + 1e-9, 1.0 - 1e-9], 1.0),      # |t| near 1e9
    ([0.0] * 50, [0.5] * 49 + [0.5000001], 1.0),          # |t| near 1e9, df 49
    ([1e300, -1e300, 5e299], [-1e300, 1e300, 0.0], 2.0**-1000),  # b - a near 2e300
    ([1e-310, 0.0, 3e-310], [0.0, 2e-310, 3e-310], 2.0**1000),   # subnormal values
])  # fmt: skip
def test_paired_t_test_siblings_of_the_crash_agree_with_scipy(a, b, scale):
    # SciPy squares the deviations, which overflow near 1e300 and vanish in subnormals;
    # its oracle gets the same values times a power of two (an exact scaling, so the
    # same t).
    ours = paired_t_test(a, b)
    theirs = sp.ttest_rel(np.array(b) * scale, np.array(a) * scale)
    assert math.isfinite(ours.p_value)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-9)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-8, abs=1e-300)


def test_paired_t_test_refuses_differences_that_overflow():
    with pytest.raises(InputValueError, match="overflows"):
        paired_t_test([-1.5e308, 0.0], [1.5e308, 0.0])


def test_a_constant_difference_with_rounding_noise_is_constant():
    # Every query exactly 0.1 worse; b - a is -0.1 give or take 1e-17, which used to be a
    # spread: t = -3.5e15. Within ROUNDING of the values it is none: t = -inf, p = 0.
    a = np.array([0.5, 0.8, 0.3, 0.9, 0.7] * 6)
    b = a - 0.1
    assert np.std(b - a) > 0  # the noise is there...
    assert np.std(b - a) < ROUNDING * 0.9  # ... and far below the tolerance
    result = paired_t_test(a, b)
    assert (result.statistic, result.p_value) == (-math.inf, 0.0)
    effect = paired_effect_size(a, b)
    assert math.isnan(effect.d_z)  # no spread to divide by: undefined, and it says so
    assert effect.warnings == (("every difference is -0.1: no spread to divide by, so d_z = "
                                "mean / sd is undefined (NaN)"),)
    ci = paired_bootstrap(a, b)
    assert ci.low == ci.high == pytest.approx(-0.1, abs=1e-15)
    # A difference that is only rounding is a tie, not a win.
    tie = paired_effect_size([0.3, 0.5], [0.1 + 0.2, 0.5])
    assert (tie.wins, tie.ties, tie.losses, tie.d_z) == (0, 2, 0, 0.0)
    assert paired_t_test([0.3, 0.5], [0.1 + 0.2, 0.5]).p_value == 1.0
    assert randomization_test([0.3] * 30, [0.1 + 0.2] * 30).p_value == 1.0


def test_paired_differences():
    assert paired_differences([0.3, 0.5, np.nan], [0.1 + 0.2, 0.25, 0.5]).tolist()[:2] == [
        0.0, -0.25]
    assert math.isnan(paired_differences([np.nan], [0.5])[0])
    np.testing.assert_array_equal(paired_differences(np.zeros((2, 3)), np.ones((2, 3))),
                                  np.ones((2, 3)))
    with pytest.raises(InputValueError, match="same shape"):
        paired_differences([0.1, 0.2], [0.1])
    with pytest.raises(InputValueError, match="infinite"):
        paired_differences([math.inf], [0.1])


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
    assert effect.d_z == pytest.approx(0.125 / 0.09574271077563381, rel=1e-12)
    assert effect.cohens_d == effect.d_z  # the former name, kept
    assert (effect.wins, effect.ties, effect.losses) == (3, 1, 0)
    assert effect.share_better == 0.75


def test_effect_size_is_t_over_root_n():
    rng = np.random.default_rng(12)
    a, b = metric_like(rng, 64), metric_like(rng, 64)
    d = paired_effect_size(a, b).d_z
    assert d == pytest.approx(paired_t_test(a, b).statistic / 8, rel=1e-12)


def test_effect_size_degenerate_cases():
    assert paired_effect_size([0.5, 0.5], [0.5, 0.5]).d_z == 0.0
    exact = paired_effect_size([0.5, 0.25], [0.25, 0.0])  # exactly -0.25 twice
    assert math.isnan(exact.d_z)
    assert (exact.losses, exact.share_better) == (2, 0.0)
    assert "every difference is -0.25" in exact.warnings[0]
    one = paired_effect_size([0.5], [0.7])
    assert math.isnan(one.d_z)
    assert one.warnings[0].startswith("one query")
    assert paired_effect_size([0.5, 0.5], [0.5, 0.5]).warnings == ()
    assert paired_effect_size([0.5, 0.5, 0.5], [0.75, 0.25, 0.5]).d_z == 0.0  # mean 0


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


def test_adjust_p_values_keeps_untested_claims_out_of_the_family():
    p = [0.01, math.nan, 0.04, 0.03]
    np.testing.assert_array_equal(adjust_p_values(p, "holm"), [0.03, math.nan, 0.06, 0.06])
    np.testing.assert_array_equal(adjust_p_values(p, "bh"), [0.03, math.nan, 0.04, 0.04])
    np.testing.assert_array_equal(adjust_p_values(p, "none"), p)
    with pytest.raises(InputValueError, match="correction must be one of"):
        adjust_p_values(p, "sidak")


@settings(max_examples=200, deadline=None)
@given(p=st.lists(st.floats(0, 1), min_size=1, max_size=12), data=st.data())
def test_corrections_are_monotone_in_every_raw_p(p, data):
    # The Monte Carlo rule rests on this: raising any raw p never lowers an adjusted one.
    i = data.draw(st.integers(0, len(p) - 1))
    higher = list(p)
    higher[i] = data.draw(st.floats(p[i], 1))
    for correction in ("holm", "bh"):
        before, after = adjust_p_values(p, correction), adjust_p_values(higher, correction)
        assert (after >= before - 1e-15).all()


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
    assert bootstrap_ci([0.5, 0.75] * 12).warnings == sample_size_warnings(24)
    assert randomization_test([0.5] * 24, [0.6] * 24).warnings == sample_size_warnings(24)
    assert bootstrap_ci([0.5] * 24 + [0.75]).warnings == ()


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
    (lambda: bootstrap_means([[0.5], [math.nan]]), "NaN"),
    (lambda: bootstrap_ci([0.5], method="studentized"), "method must be one of"),
    (lambda: bootstrap_interval([[0.5]], [[0.5, 0.2]]), "one column per column"),
    (lambda: randomization_p_values([[0.5], [math.nan]]), "NaN"),
    (lambda: smallest_p_value(0), "positive int"),
])  # fmt: skip
def test_validation_names_the_bad_value(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


@pytest.mark.slow
def test_importing_ragmetrics_does_not_import_scipy():
    # SciPy's special functions are imported where an interval or a t-test is computed,
    # so `import ragmetrics` stays quick.
    code = "import sys, ragmetrics; print(any(m.startswith('scipy') for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


# -- the distributions behind intervals and t-tests (stats.distributions) -------------------

# Reference values from mpmath at 40 digits: betainc(df/2, 1/2, 0, df/(df+t²)) / 2.
MPMATH_T_TAILS = [
    (1e5, -1.96, 0.024999281597150819017), (1e5, -8.0, 6.2869599381281867931e-16),
    (1e6, -1.96, 0.024998033792634895343), (1e6, -0.5, 0.30853759373618569389),
]


@pytest.mark.parametrize(("df", "t", "expected"), MPMATH_T_TAILS)
def test_student_t_cdf_for_a_hundred_thousand_queries_and_more(df, t, expected):
    assert student_t_cdf(t, df) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("df", [1, 2, 2.5, 3, 4, 7, 10, 29, 99, 1000, 1e5])
def test_student_t_quantile_equals_scipy(df):
    from ragmetrics.stats.distributions import student_t_cdf_value, student_t_quantile

    for p in [1e-20, 1e-10, 1e-5, 0.001, 0.025, 0.05, 0.1, 0.3, 0.45, 0.6, 0.9, 0.975, 0.999]:
        ours = student_t_quantile(p, df)
        assert ours == pytest.approx(special.stdtrit(df, p), rel=1e-10), (p, df)
        # and it inverts the CDF: P(T <= t) = p (the CDF is good to 1e-10 at df = 1e5)
        assert student_t_cdf_value(ours, float(df)) == pytest.approx(
            p, rel=1e-12 if df <= 1000 else 1e-9), (p, df)
    assert student_t_quantile(0.5, df) == 0.0
    assert student_t_quantile(0.0, df) == -math.inf
    assert student_t_quantile(1.0, df) == math.inf


def test_student_t_quantile_is_elementwise_and_exact_in_closed_forms():
    from ragmetrics.stats.distributions import student_t_quantile

    found = student_t_quantile(0.975, np.array([1.0, 2.0]))
    assert found[0] == pytest.approx(math.tan(math.pi * 0.475), rel=1e-14)  # Cauchy
    assert found[1] == pytest.approx(0.95 / math.sqrt(2 * 0.975 * 0.025), rel=1e-14)
    assert math.isnan(student_t_quantile(1.5, 3.0))


def test_normal_cdf_and_quantile_equal_scipy():
    from ragmetrics.stats.distributions import normal_cdf, normal_quantile

    x = np.linspace(-37.0, 8.0, 451)
    np.testing.assert_allclose(normal_cdf(x), special.ndtr(x), rtol=1e-12, atol=0)
    p = np.array([1e-300, 1e-50, 1e-10, 1e-3, 0.025, 0.3, 0.5, 0.7, 0.975, 1 - 1e-10])
    np.testing.assert_allclose(normal_quantile(p), special.ndtri(p), rtol=1e-13, atol=0)
    assert normal_quantile(0.0) == -math.inf
    assert normal_quantile(1.0) == math.inf
