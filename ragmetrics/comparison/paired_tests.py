"""Step 4 of :func:`~ragmetrics.comparison.compare`: each system against the baseline.

For every metric and every other system, on the queries where both have a value: the
mean difference with its paired bootstrap interval (from the pass of
:mod:`~ragmetrics.comparison.bootstrap_pass`), the paired randomization test with its
Monte Carlo error, corrected over every claim, and the verdict it gives
(:func:`ragmetrics.stats.randomization_verdicts`: a claim within Monte Carlo error of
``alpha`` is resampled further, or :data:`UNDECIDED`); the paired t-test, the effect size
d_z and the wins, ties and losses beside it. The difference intervals are at the level of
the correction (:func:`difference_level`), so that they agree with the verdicts.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..stats.effect_size import paired_effect_size
from ..stats.intervals import bootstrap_interval
from ..stats.t_test import paired_t_test
from ..stats.verdicts import RandomizationVerdicts

__all__ = ["UNDECIDED", "difference_level", "paired_tests_frame"]

#: The verdict of a claim whose corrected p-value stayed within Monte Carlo error of
#: ``alpha`` up to the resampling cap (:func:`ragmetrics.stats.randomization_verdicts`).
UNDECIDED = "undecided: p within Monte Carlo error of alpha"

_COLUMNS = ["baseline", "baseline_mean", "mean", "difference", "low", "high",
            "p_randomization", "p_mc_error", "p_adjusted", "significant", "decided",
            "verdict", "exact", "n_patterns", "p_t_test", "t", "df", "effect_size",
            "wins", "ties", "losses", "n_queries"]
_NUMBERS = ["baseline_mean", "mean", "difference", "low", "high", "p_randomization",
            "p_mc_error", "p_adjusted", "p_t_test", "t", "df", "effect_size"]


def difference_level(decisions: RandomizationVerdicts, confidence: float,
                     correction: str) -> float:
    """The level of each difference interval: the family level of the correction.

    ``1 - (1 - confidence) / m`` for Holm over ``m`` tested claims (Bonferroni),
    ``1 - R (1 - confidence) / m`` for Benjamini-Hochberg with ``R`` significant (at
    least 1: Benjamini & Yekutieli's false coverage rate), ``confidence`` without one.
    """
    m = int(np.isfinite(decisions.p_value).sum())
    if correction == "none" or m == 0:
        return confidence
    claims = 1 if correction == "holm" else max(int(decisions.significant.sum()), 1)
    return 1.0 - claims * (1.0 - confidence) / m


def paired_tests_frame(names, metrics, specs, per_query, differences, means,
                decisions: RandomizationVerdicts, level: float, bounds) -> pd.DataFrame:
    """:attr:`ragmetrics.Comparison.tests`: a row per metric and system after the first
    (the baseline), from the differences (queries x (system, metric), system-major), their
    bootstrap ``means`` and the ``decisions`` of the randomization test."""
    baseline, pairs = names[0], names[1:]
    if pairs:
        low, high = bootstrap_interval(differences, means, confidence=level, bounds=bounds)
    rows, index = [], []
    for j, (metric, spec) in enumerate(zip(metrics, specs, strict=True)):
        for i, system in enumerate(pairs):
            column = i * len(metrics) + j
            d = differences[:, column]
            both = np.isfinite(d)
            a = per_query[baseline][metric].to_numpy(np.float64)[both]
            b = per_query[system][metric].to_numpy(np.float64)[both]
            row = {
                "baseline": baseline,
                "baseline_mean": float(a.mean()) if len(a) else math.nan,
                "mean": float(b.mean()) if len(b) else math.nan,
                "difference": float(d[both].mean()) if both.any() else math.nan,
                "low": low[column],
                "high": high[column],
                "p_randomization": decisions.p_value[column],
                "p_mc_error": decisions.mc_error[column],
                "p_adjusted": decisions.p_adjusted[column],
                "significant": bool(decisions.significant[column]),
                "decided": bool(decisions.decided[column]),
                "exact": bool(decisions.exact[column]),
                "n_patterns": int(decisions.n_patterns[column]),
                "p_t_test": math.nan, "t": math.nan, "df": math.nan,
                "effect_size": math.nan, "wins": 0, "ties": 0, "losses": 0,
                "n_queries": int(both.sum()),
            }
            row["verdict"] = _verdict(row, system, baseline, spec.info.higher_is_better)
            if len(a):
                t_test, effect = paired_t_test(a, b), paired_effect_size(a, b)
                row.update(p_t_test=t_test.p_value, t=t_test.statistic, df=t_test.df,
                           effect_size=effect.d_z, wins=effect.wins, ties=effect.ties,
                           losses=effect.losses)
            rows.append(row)
            index.append((metric, system))
    frame = pd.DataFrame(rows, columns=_COLUMNS)
    frame.index = pd.MultiIndex.from_tuples(index, names=["metric", "system"])
    # Typed even when empty (one system: no row), so a column of numbers is one.
    return frame.astype({"wins": np.int64, "ties": np.int64, "losses": np.int64,
                         "n_queries": np.int64, "n_patterns": np.int64, "exact": bool,
                         "significant": bool, "decided": bool,
                         **dict.fromkeys(_NUMBERS, np.float64)})


def _verdict(row, system: str, baseline: str, higher_is_better: bool) -> str:
    if not np.isfinite(row["p_adjusted"]):
        return "not tested (no query with both values)"
    if not row["decided"]:
        return UNDECIDED
    if not row["significant"]:
        return "no significant difference"
    winner = system if (row["difference"] > 0) == higher_is_better else baseline
    return f"{winner} better"
