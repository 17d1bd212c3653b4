"""Power analysis (ragmetrics.stats.power) against simulation.

The minimum detectable effect (MDE) and the queries needed are numbers about repeated
experiments: run the experiments. Each simulation draws many sets of queries whose
differences have the mean the formula names, runs the paired t-test on each set, and
counts how often it finds the difference. The share must be the target power within
three binomial standard errors of the simulation.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import optimize, special, stats

from ragmetrics import compare
from ragmetrics.errors import InputValueError
from ragmetrics.stats.power import (
    minimum_detectable_effect,
    noncentral_t_two_sided_tail,
    queries_needed,
    t_test_power,
)

EXPERIMENTS = 6000


def simulated_power(draw, n, *, alpha=0.05, experiments=EXPERIMENTS, seed=1):
    """Share of ``experiments`` sets of ``n`` differences (``draw(rng, shape)``) in which
    the two-sided paired t-test finds a difference at ``alpha``."""
    rng = np.random.default_rng(seed)
    d = draw(rng, (experiments, n))
    t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / math.sqrt(n))
    p = 2 * stats.t.sf(np.abs(t), n - 1)
    return float((p < alpha).mean())


def tolerance(power, experiments=EXPERIMENTS):
    return 3 * math.sqrt(power * (1 - power) / experiments)


@pytest.mark.parametrize(("n", "sd", "alpha", "power"), [
    (30, 0.1, 0.05, 0.8), (12, 0.25, 0.05, 0.9), (200, 0.05, 0.01, 0.8), (5, 0.2, 0.1, 0.5),
])
def test_mde_is_found_with_the_stated_power_in_simulation(n, sd, alpha, power):
    observed = np.random.default_rng(0).normal(0.0, sd, size=n)
    s = observed.std(ddof=1)
    mde = minimum_detectable_effect(observed, alpha=alpha, power=power)
    assert math.isclose(t_test_power(mde, s, n, alpha=alpha), power, rel_tol=1e-9)
    found = simulated_power(lambda rng, shape: rng.normal(mde, s, size=shape), n, alpha=alpha)
    assert abs(found - power) < tolerance(power), (found, power)


def test_queries_needed_reach_the_power_in_simulation():
    observed = np.random.default_rng(3).normal(0.0, 0.15, size=60)
    s = observed.std(ddof=1)
    n = queries_needed(observed, 0.05)
    assert t_test_power(0.05, s, n) >= 0.8 > t_test_power(0.05, s, n - 1)
    found = simulated_power(lambda rng, shape: rng.normal(0.05, s, size=shape), n)
    assert abs(found - 0.8) < tolerance(0.8) + 0.01  # power(n) is 0.8 to within its step
    # Fewer queries find it less often; the normal approximation is close.
    assert simulated_power(lambda rng, shape: rng.normal(0.05, s, size=shape), n // 2) < 0.6
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert abs(n - (z * s / 0.05) ** 2) < 3


def test_power_of_real_metric_differences_by_resampling(support_comparison):
    """Differences of nDCG@10 on the support demo (bounded, lumpy, many ties at 0):
    shifted to have the MDE as their mean, resampled query by query."""
    c = support_comparison
    table = c.power()
    row = table.loc[("ndcg@10", c.systems[1])]
    a = c.per_query[c.baseline]["ndcg@10"].to_numpy()
    b = c.per_query[c.systems[1]]["ndcg@10"].to_numpy()
    d = b - a
    assert row["n_queries"] == len(d)
    assert math.isclose(row["sd_difference"], d.std(ddof=1), rel_tol=1e-12)
    shifted = d - d.mean() + row["mde"]
    n = len(d)
    found = simulated_power(lambda rng, shape: rng.choice(shifted, size=shape), n)
    # Not normal, so the t-test's power is close to, not exactly, the formula's.
    assert abs(found - 0.8) < 0.05, found
    # The queries needed for the target, simulated the same way at that many queries.
    needed = int(row["queries_needed"])
    at_target = d - d.mean() + 0.02
    found = simulated_power(lambda rng, shape: rng.choice(at_target, size=shape), needed,
                            experiments=2000)
    assert abs(found - 0.8) < 0.06, (found, needed)


def test_degenerate_inputs():
    assert math.isnan(minimum_detectable_effect([0.1]))
    assert minimum_detectable_effect([0.1, 0.1, 0.1]) == 0.0
    assert queries_needed([0.1, 0.1, 0.1], 0.02) == 2
    with pytest.raises(InputValueError, match="target must be a non-zero"):
        queries_needed([0.1, 0.2], 0)
    with pytest.raises(InputValueError, match="at least 2 queries"):
        queries_needed([0.1], 0.02)
    with pytest.raises(InputValueError, match="power must be between 0 and 1"):
        minimum_detectable_effect([0.1, 0.2], power=1.5)
    with pytest.raises(InputValueError, match="more than"):
        queries_needed([0.0, 1.0], 1e-9)


def test_comparison_power_table_and_defaults():
    qrels = {f"q{i}": {"gold"} for i in range(40)}
    old = {f"q{i}": ["junk", "gold"] for i in range(40)}
    new = {f"q{i}": ["gold"] if i % 3 else ["x", "y", "gold"] for i in range(40)}
    c = compare({"old": old, "new": new}, qrels, ["mrr", "recall@1"], n_resamples=200)
    table = c.power(target=0.05)
    assert list(table.index) == [("mrr", "new"), ("recall@1", "new")]
    # By hand: 26 queries +0.5, 14 queries -1/6.
    d = np.array([0.5] * 26 + [-1 / 6] * 14)
    row = table.loc[("mrr", "new")]
    assert math.isclose(row["difference"], d.mean())
    assert math.isclose(row["sd_difference"], d.std(ddof=1))
    assert math.isclose(row["mde"], minimum_detectable_effect(d))
    assert row["queries_needed"] == queries_needed(d, 0.05)
    assert row["alpha"] == c.alpha
    assert row["power"] == 0.8
    stricter = c.power(target=0.05, alpha=0.01).loc[("mrr", "new")]
    assert stricter["mde"] > row["mde"]
    assert stricter["queries_needed"] > row["queries_needed"]
    single = compare({"old": old}, qrels, ["mrr"], n_resamples=50)
    assert single.power().empty


# -- few queries: the noncentral t where SciPy's gives NaN ---------------------------------
# SciPy's nct.cdf gives NaN for noncentralities beyond about 7.5 at every df; the code used
# to replace the whole power by the normal tail there, which at 2 queries is far off (a
# noncentrality of 8: 1e-6 for 0.47), so the MDE of 2 queries came out 4.52 for 5.44.


def owen_cdf_1(t, lam):
    """P(T <= t), T noncentral t with 1 df: Owen (Technometrics 1965), with Owen's T."""
    h = lam / math.sqrt(1 + t * t)
    return float(special.ndtr(-h) + 2 * special.owens_t(h, t))


def closed_cdf_2(t, lam):
    """P(T <= t), T noncentral t with 2 df. V ~ chi2(2) is exponential (mean 2), so
    P(T <= t) = Phi(-lam) + E[exp(-(Z + lam)^2 / t^2); Z + lam > 0] for t > 0, a Gaussian
    integral; the same expression holds for t < 0 by symmetry:
    Phi(-lam) + r exp(-lam^2 / (t^2 + 2)) Phi(lam r), r = t / sqrt(t^2 + 2)."""
    r = t / math.sqrt(t * t + 2)
    return float(special.ndtr(-lam) + r * math.exp(-lam * lam / (t * t + 2))
                 * special.ndtr(lam * r))


@pytest.mark.parametrize(("df", "cdf"), [(1, owen_cdf_1), (2, closed_cdf_2)])
@pytest.mark.parametrize("alpha", [0.05, 0.001])
def test_power_equals_the_closed_forms_at_one_and_two_degrees_of_freedom(df, cdf, alpha):
    c = float(stats.t.ppf(1 - alpha / 2, df))
    assert cdf(c, 0.0) == pytest.approx(1 - alpha / 2, abs=1e-14)  # the forms are right
    for lam in [0.0, 1.0, 3.0, 8.0, 10.8, 12.0, 15.0, 25.0, 60.0]:
        exact = 1 - cdf(c, lam) + cdf(-c, lam)
        n = df + 1
        power = t_test_power(lam / math.sqrt(n), 1.0, n, alpha=alpha)
        assert power == pytest.approx(exact, abs=1e-13), (lam, power, exact)
        assert noncentral_t_two_sided_tail(c, df, -lam) == pytest.approx(exact, abs=1e-13)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_power_at_two_three_and_five_queries_equals_simulation(n):
    # Noncentralities up to 15, past 7.5 where SciPy's nct.cdf gives NaN.
    experiments = 20_000
    for k, lam in enumerate([1.0, 4.0, 8.0, 10.8, 15.0]):
        effect = lam / math.sqrt(n)  # sd 1
        power = t_test_power(effect, 1.0, n)
        found = simulated_power(lambda rng, shape, e=effect: rng.normal(e, 1.0, size=shape),
                                n, experiments=experiments, seed=100 * n + k)
        standard_error = math.sqrt(max(power * (1 - power), 1e-4) / experiments)
        assert abs(found - power) < 4 * standard_error, (n, lam, found, power)


def test_mde_at_two_queries_is_the_exact_one():
    # MRR of two queries: the same on one, rank 3 -> 1 on the other. d = (0, 2/3),
    # sd = 0.4714; the MDE is lam* sd / sqrt(2) = lam* / 3, where lam* solves
    # power(lam) = 0.8 by Owen's closed form at 1 df.
    c = float(stats.t.ppf(0.975, 1))
    lam = optimize.brentq(lambda x: 1 - owen_cdf_1(c, x) + owen_cdf_1(-c, x) - 0.8, 1, 100,
                          xtol=1e-14, rtol=1e-15)
    exact = lam / 3
    assert round(exact, 4) == 5.4447
    d = np.array([0.0, 2 / 3])
    mde = minimum_detectable_effect(d)
    assert mde == pytest.approx(exact, rel=1e-10)  # was 4.516
    assert t_test_power(mde, d.std(ddof=1), 2) == pytest.approx(0.8, abs=1e-12)
    # The same through a comparison.
    qrels = {"q1": {"g"}, "q2": {"g"}}
    runs = {"a": {"q1": ["g"], "q2": ["x", "y", "g"]}, "b": {"q1": ["g"], "q2": ["g"]}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # two queries: too few for a claim, and it says so
        table = compare(runs, qrels, ["mrr"], n_resamples=100).power()
    assert table.loc[("mrr", "b"), "mde"] == pytest.approx(exact, rel=1e-9)
    # And in simulation, two normal queries at that mean are found 80% of the time.
    s = float(d.std(ddof=1))
    found = simulated_power(lambda rng, shape: rng.normal(mde, s, size=shape), 2,
                            experiments=20_000, seed=7)
    assert abs(found - 0.8) < 4 * math.sqrt(0.8 * 0.2 / 20_000), found
