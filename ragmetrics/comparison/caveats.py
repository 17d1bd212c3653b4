"""Step 5 of :func:`~ragmetrics.comparison.compare`: what the numbers need to be read with.

:func:`comparison_warnings` gathers :attr:`ragmetrics.Comparison.warnings`, in this
order: too few queries for a claim (:func:`ragmetrics.stats.sample_size_warnings`); one
metric family alone (:data:`ONE_METRIC_NOTE`); the notes of scoring the systems (a run's
warnings, queries missing from a run); intervals of no width (a mean, or a difference,
that is the same on every query); a configuration under which a claim cannot reach
significance, whatever the data; an interval that disagrees with its verdict; and tied
scores whose order moves a mean beyond ``tie_tolerance`` or can flip a verdict
(:func:`ragmetrics.comparison.tie_sizes.tie_size_warnings`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..stats.arguments import sample_size_warnings
from ..stats.verdicts import RandomizationVerdicts
from .tie_sizes import tie_size_warnings

__all__ = ["ONE_METRIC_NOTE", "comparison_warnings"]

#: The article's "common mistake": one metric reported alone.
ONE_METRIC_NOTE = (
    "one metric alone can mislead: the source article's \"common mistake\" is reporting a "
    "single metric (\"our RAG has 0.92 nDCG\") without Recall or Precision, which hides "
    "high nDCG with low recall, high recall with low precision, and high precision with "
    "low recall; compare recall, precision, MRR and nDCG together"
)


def comparison_warnings(values: np.ndarray, specs, notes, summary: pd.DataFrame,
                        tests: pd.DataFrame, decisions: RandomizationVerdicts, *,
                        confidence: float, level: float, ties: pd.DataFrame | None = None,
                        tie_tolerance: float | None = None) -> tuple[str, ...]:
    """Every warning of a comparison (see the module), as one tuple.

    ``values`` are the per-query values (queries x (system, metric)), ``specs`` the
    metrics parsed, ``notes`` those of scoring the systems, ``summary`` and ``tests`` the
    comparison's tables, ``decisions`` the randomization test's (with ``alpha`` and the
    correction), ``confidence`` the level asked for and ``level`` the difference
    intervals'; ``ties`` the tie sizes
    (:func:`~ragmetrics.comparison.tie_sizes.tie_size_frame`; None: not measured) and
    ``tie_tolerance`` the range above which they are a warning.
    """
    counts = np.isfinite(values).sum(axis=0)
    found = list(sample_size_warnings(int(counts.min()) if counts.size else 0))
    if len({spec.info.name for spec in specs}) == 1:
        found.append(ONE_METRIC_NOTE)
    found += notes
    found += _no_width_warnings(summary, tests)
    found += _reach_warnings(tests, decisions)
    found += _agreement_warnings(tests, decisions.alpha, confidence, decisions.correction,
                                 level)
    found += tie_size_warnings(ties, tie_tolerance)
    return tuple(found)


def _claims(tests: pd.DataFrame, mask) -> str:
    shown = [f"{metric} ({system})" for metric, system in tests.index[mask]]
    return ", ".join(shown[:6]) + (", ..." if len(shown) > 6 else "")


def _raised(correction: str, m: int, adjusted: float) -> str:
    if correction == "holm" and m > 1:
        return f", and Holm over {m} claims raises the smallest adjusted p to {adjusted:.4g}"
    return ""


def _no_width(frame: pd.DataFrame) -> np.ndarray:
    """Rows whose interval has no width: ``low == high``, both numbers.

    :func:`ragmetrics.stats.bootstrap_interval` gives ``[m, m]`` exactly where a column
    has one value, or no spread (a standard deviation within :data:`ROUNDING` of its
    values' magnitude), and a width wherever there is a spread (the mean then lies inside
    the range, so the clipping to it leaves a width): no width is no spread.
    """
    low, high = frame["low"].to_numpy(), frame["high"].to_numpy()
    return np.isfinite(low) & (low == high)


def _no_width_warnings(summary: pd.DataFrame, tests: pd.DataFrame) -> list[str]:
    """Intervals of no width (README: "a sample with no spread ... gets an interval of no
    width and a warning"): each system's mean, each difference with the baseline."""
    found = []
    flat = _no_width(summary)
    if flat.any():
        its, says = (("its interval has", "says") if flat.sum() == 1 else
                     ("their intervals have", "say"))
        found.append(
            f"no spread: every query has the same value on {_claims(summary, flat)}, so "
            f"{its} no width (resampling these queries cannot move the mean) and {says} "
            "nothing about queries unlike these"
        )
    flat = _no_width(tests)
    difference = tests["difference"].to_numpy()
    constant, tied = flat & (difference != 0), flat & (difference == 0)
    if constant.any():
        found.append(
            f"constant difference: on {_claims(tests, constant)}, every query differs from "
            "the baseline by the same amount, so the difference interval has no width and "
            "d_z = mean / sd is undefined (n/a: no spread to divide by); the interval says "
            "nothing about queries unlike these"
        )
    if tied.any():
        found.append(
            f"no difference at all: on {_claims(tests, tied)}, the system scores what the "
            "baseline scores on every query, so the difference interval is [0, 0] (no "
            "width) and d_z is 0; it says nothing about queries unlike these"
        )
    return found


def _reach_warnings(tests: pd.DataFrame, decisions: RandomizationVerdicts) -> list[str]:
    """Configurations under which a claim cannot be significant, whatever the data."""
    alpha, correction = decisions.alpha, decisions.correction
    tested = np.isfinite(decisions.p_value)
    m = int(tested.sum())
    never = tested & (decisions.smallest_adjusted_at_cap >= alpha)
    not_now = tested & ~never & (decisions.smallest_adjusted >= alpha)
    found = []
    if never.any():
        exact = never & decisions.exact
        if exact.any():
            n = int(tests["n_queries"].to_numpy()[exact].min())
            why = (f"with {n} {'query' if n == 1 else 'queries'} the exact sign-flip test's "
                   f"smallest two-sided p is 2/2^{n} = {min(1.0, 2.0 ** (1 - n)):.4g}")
        else:
            cap = decisions.max_resamples
            why = f"with at most {cap} sign patterns the smallest p is 1/{cap + 1}"
        which = ("no difference can be significant" if never.sum() == m else
                 f"{_claims(tests, never)} cannot be significant")
        smallest = float(decisions.smallest_adjusted_at_cap[never].min())
        found.append(f"{why}{_raised(correction, m, smallest)}: not below alpha = "
                     f"{alpha:g}, so {which}, whatever the data")
    if not_now.any():
        b = decisions.n_resamples
        smallest = float(decisions.smallest_adjusted[not_now].min())
        factor = m if correction == "holm" else 1
        enough = int(math.ceil(10 * factor / alpha / 100) * 100)
        which = ("no difference could be significant" if not_now.sum() == m else
                 f"{_claims(tests, not_now)} could not be significant")
        found.append(
            f"with {b} resamples the smallest p a sampled sign-flip test can give is "
            f"1/{b + 1} = {1 / (b + 1):.4g}{_raised(correction, m, smallest)}: not below "
            f"alpha = {alpha:g}, so at this setting {which}; "
            f"claims near alpha were resampled further (up to {decisions.max_resamples} "
            f"sign patterns each), but ask for at least {enough} resamples"
        )
    return found


def _agreement_warnings(tests, alpha, confidence, correction, level) -> list[str]:
    """Where an interval and its verdict say different things, say so."""
    if not len(tests):
        return []
    if not math.isclose(alpha, 1.0 - confidence, rel_tol=1e-9, abs_tol=1e-12):
        return [(f"the verdicts are at alpha = {alpha:g} and the intervals at confidence "
                f"{confidence:g}: an interval may exclude 0 beside 'no significant "
                "difference', or include it beside a significant verdict (set alpha = 1 - "
                "confidence for intervals that match the verdicts)")]
    excludes = ((tests["low"] > 0) | (tests["high"] < 0)).to_numpy()
    judged = (tests["decided"] & np.isfinite(tests["p_adjusted"])).to_numpy()
    significant = tests["significant"].to_numpy()
    found = []
    if correction == "holm":
        why = ("Holm's step-down test finds more than Bonferroni intervals exclude, and a "
               "bootstrap interval and a randomization test differ near the threshold")
    else:
        why = "a bootstrap interval and a randomization test differ near the threshold"
    for mask, says in (
        (judged & excludes & ~significant, ("excludes 0, but the verdict is 'no "
                                            "significant difference'")),
        (judged & ~excludes & significant, "includes 0, but the verdict is significant"),
    ):
        if mask.any():
            found.append(
                f"interval and verdict disagree on {_claims(tests, mask)}: the "
                f"{level * 100:.4g}% difference interval {says} ({why}): read such a claim "
                "as borderline"
            )
    return found
