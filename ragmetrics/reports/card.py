"""The convention card: everything a Comparison's numbers depend on besides the data.

For runs judged by evidence spans, the judgments, each system's chunking and the rules
that turn spans into numbers. The tie rule and every other policy (from the conventions table,
:data:`ragmetrics.conventions.CONVENTIONS`), the levels, the resamples, the seed, the tests,
the correction and the versions of the software. Two reports with the same card are
comparable; two with different cards may not be.
"""

from __future__ import annotations

import platform
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..conventions import describe
from ..presets import PRESETS
from .formatting import format_percent
from .several_sections import family_text, segments_card

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["convention_card"]

_CORRECTION = {
    "holm": "Holm (family-wise error rate)",
    "bh": "Benjamini-Hochberg (false discovery rate)",
    "none": "none",
}


def convention_card(comparison: Comparison) -> dict[str, str]:
    """Everything the numbers depend on besides the data, as ``{label: value}``.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> result = compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"], n_resamples=50)
    >>> card = convention_card(result)
    >>> card["tied scores"]
    'trec_eval: score descending, then doc id descending as strings (trec_eval)'
    >>> card["tie sizes"]  # doctest: +NORMALIZE_WHITESPACE
    'no tie moves any value: each mean between the orders of tied docs with relevant ones
    last and first (ties="pessimistic", "optimistic"); a warning above 0.001'
    >>> card["resamples"], card["seed"]
    ('50', '0')
    """
    import ragmetrics

    c = comparison
    exact = bool(c.tests["exact"].all()) if len(c.tests) else False
    return {
        "queries compared": str(c.n_queries),
        "systems": ", ".join(c.systems) + f" (baseline: {c.baseline})",
        "metrics": ", ".join(c.metrics),
        **(c.spans or {}),  # runs judged by evidence: the judgments, chunkings and rules
        **({"preset": PRESETS[c.preset].describe()} if c.preset else {}),
        **describe(c.conventions),  # every convention, from the conventions table
        "tie sizes": _tie_card(c),
        "confidence level": format_percent(c.confidence),
        "difference intervals": _difference_card(c),
        "significance level": f"alpha = {c.alpha:g}, for the verdicts, after the "
        "correction",
        "intervals": "Student's t over queries, each end moved out to the expanded "
        "percentile bootstrap's where the bootstrap means reach further (expanded_t); "
        "within each metric's range; no spread, no width",
        "resamples": str(c.n_resamples),
        "seed": str(c.seed),
        "tests": "paired randomization (sign flip; "
        + ("exact, all sign patterns" if exact else f"{c.n_resamples} patterns, "
           f"up to {c.max_resamples} for a verdict near alpha")
        + ") and paired t-test, two-sided",
        "Monte Carlo error": "a sampled p is taken to lie within p ± 3 sqrt(p (1 - p) / "
        "patterns); a verdict those bounds leave open is resampled further, and called "
        "undecided if still open at the cap",
        "effect size": "d_z = mean(d) / sd(d) of the per-query differences d (paired; not "
        "Cohen's d of two groups, so no small/medium/large); n/a where every query differs "
        "by the same non-zero amount (no spread to divide by)",
        "correction": _CORRECTION[c.correction] + ", over " + family_text(c),
        **segments_card(c),
        "versions": f"ragmetrics {ragmetrics.__version__}, numpy {np.__version__}, "
        f"pandas {pd.__version__}, matplotlib {_version_of('matplotlib')}, "
        f"python {platform.python_version()}",
    }


def _version_of(package: str) -> str:
    """A package's version from its metadata: importing matplotlib for it would cost a
    few hundred milliseconds of every ``ragmetrics evaluate``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def _tie_card(comparison: Comparison) -> str:
    """How far the order of tied docs moves the means and the verdicts (``.tie_sizes``)."""
    frame, tolerance = comparison.tie_sizes, comparison.tie_tolerance
    if frame is None:
        return "not measured (tie_tolerance=None)"
    how = ("each mean between the orders of tied docs with relevant ones last and first "
           f"(ties=\"pessimistic\", \"optimistic\"); a warning above {tolerance:g}")
    if not len(frame) or not (frame["n_queries_affected"] > 0).any():
        return f"no tie moves any value: {how}"
    widest = frame["range"].idxmax()
    flips = int(frame["verdict_can_flip"].sum())
    verdicts = ("no verdict can flip" if not flips else
                f"{flips} verdict{'s' if flips > 1 else ''} can flip")
    n = int(frame.loc[widest, "n_queries_affected"])
    return (f"at most {frame.loc[widest, 'range']:.4g} ({widest[0]} of {widest[1]}, "
            f"{n} {'query' if n == 1 else 'queries'} affected); {verdicts}: {how}")


def _difference_card(comparison: Comparison) -> str:
    c = comparison
    m = len(c.tests if c.pairwise is None else c.pairwise)  # the family: every pair tested
    level, pct = format_percent(c.difference_confidence), format_percent(c.confidence)
    if c.correction == "holm" and m > 1:
        how = (f"{level} each (Bonferroni: all {m} together cover with {pct}), the level of "
               "the Holm verdicts")
    elif c.correction == "bh" and m > 1:
        how = (f"{level} each (Benjamini-Yekutieli: {pct} less the false discovery rate, "
               "over the claims found significant), the level of the BH verdicts")
    else:
        how = f"{level} each"
    if not np.isclose(c.alpha, 1 - c.confidence):
        how += f"; the verdicts are at alpha = {c.alpha:g}, which does not match"
    return how
