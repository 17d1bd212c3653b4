"""Power analysis (ragmetrics.stats.power) against simulation.

The minimum detectable effect (MDE) and the queries needed are numbers about repeated
experiments: run the experiments. Each simulation draws many sets of queries whose
differences have the mean the formula names, runs the paired t-test on each set, and
counts how often it finds the difference. The share must be the target power within
three binomial standard errors of the simulation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ragmetrics import compare
from ragmetrics.errors import InputValueError
from ragmetrics.stats.power import (
    minimum_detectable_effect,
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
