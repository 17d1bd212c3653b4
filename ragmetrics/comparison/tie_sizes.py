r"""How much the order of tied docs can move a comparison: each mean's range, each verdict.

A run that gives two docs the same score leaves their order to a rule (``ties=``:
:data:`ragmetrics.conventions.CONVENTIONS`), and the rule can move a metric. Two rules
bound what any order can do for the metrics that reward relevance: ``"pessimistic"``
(relevant docs last among the tied) and ``"optimistic"`` (relevant docs first).
:func:`tie_size_frame` scores every system under both, with the same engine
(:func:`ragmetrics.evaluate` with ``ties="pessimistic"`` and ``ties="optimistic"``:
no tie mechanism of its own), and gives, for each system and metric:

- ``pessimistic`` and ``optimistic``: the mean under each order (over the queries
  with a value, as :attr:`ragmetrics.Comparison.summary`); ``low`` and ``high``,
  the smaller and the larger of the two, and ``range = high - low``;
- ``n_queries_affected``: the queries whose value differs between the two orders (those
  whose ties fall where the metric reads them: above its cut, or across it);
- for a system other than the baseline, the verdict of the paired test under the two
  **extreme pairings**: ``verdict_optimistic``, the comparison re-run with every system
  but the baseline scored under ``ties="optimistic"`` and the baseline under
  ``ties="pessimistic"`` (every tie broken for the systems against the baseline), and
  ``verdict_pessimistic``, the other way round (every tie broken against them). Each
  re-run is the comparison's own randomization test
  (:func:`ragmetrics.stats.randomization_verdicts`): the same ``alpha``, correction over
  the same claims, resamples and seed, so that a claim whose values the ties do not move
  keeps its p-value. ``verdict_can_flip`` is True when either pairing's verdict differs
  from the reported one.

The re-runs are made only when some claim's differences change (a metric whose range is
0 for both systems keeps its differences, and its p-value); with no tie that moves a
value, nothing is re-tested.

:func:`tie_size_warnings` says so in the comparison's warnings when it matters: when some
range exceeds ``tie_tolerance`` (default :data:`~ragmetrics.comparison.options.
DEFAULT_TIE_TOLERANCE`, 0.001: a tenth of a point) or a verdict can flip. The sizes are
always on the convention card (:func:`ragmetrics.reports.convention_card`) and in
:attr:`ragmetrics.Comparison.tie_sizes`.

For the metrics that reward relevance only, every order of the tied docs, and so the
reported value under any tie rule, lies between the two (tests/unit/metrics/test_ties.py);
for the unjudged counts, infAP and G the two orders are still a best and a worst case for
relevance, but not bounds.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..presets import PRESETS
from ..stats.verdicts import RandomizationVerdicts, randomization_verdicts
from .bootstrap_pass import paired_columns
from .paired_tests import UNDECIDED
from .systems import aligned_per_query, evaluate_all

__all__ = ["EXTREME_ORDERS", "tie_size_frame", "tie_size_warnings"]

#: The two tie rules that bound the orders of tied docs: relevant docs last, then first.
EXTREME_ORDERS = ("pessimistic", "optimistic")


def tie_size_frame(options, qrels, per_query: dict[str, pd.DataFrame], tests: pd.DataFrame,
                   differences: np.ndarray) -> pd.DataFrame:
    """:attr:`ragmetrics.Comparison.tie_sizes`: each system and metric under both extreme
    tie orders (see the module for every column).

    ``options`` are the comparison's (:class:`~ragmetrics.comparison.options.
    ComparisonOptions`), ``per_query`` its aligned per-query values, ``tests`` its tests
    frame and ``differences`` the paired differences its randomization test read (every
    claim of the family: with ``pairs="all"``, the pairs without the baseline after its
    own, which the extreme orders leave as observed).

    Returns
    -------
    pandas.DataFrame
        Index (``metric``, ``system``), as :attr:`ragmetrics.Comparison.summary`; the
        baseline's rows have no verdict (missing) and ``verdict_can_flip`` False.

    Examples
    --------
    Under the old system the relevant doc of each query shares its score with a
    non-relevant one. trec_eval's rule (doc ids descending) puts "junk" first, so old's
    MRR is 0.5 on every query, and the new system, which scores the relevant doc higher,
    is better on every query; with "gold" first, old's MRR would be 1, as new's:

    >>> from ragmetrics import compare
    >>> qrels = {f"q{i}": {"gold"} for i in range(20)}
    >>> old = {f"q{i}": {"junk": 1.0, "gold": 1.0} for i in range(20)}
    >>> new = {f"q{i}": {"gold": 2.0, "junk": 1.0} for i in range(20)}
    >>> result = compare({"old": old, "new": new}, qrels, ["mrr"], n_resamples=200)
    >>> result.tie_sizes[["low", "high", "n_queries_affected", "verdict_can_flip"]]
    ...  # doctest: +NORMALIZE_WHITESPACE
                   low  high  n_queries_affected  verdict_can_flip
    metric system
    mrr    old     0.5   1.0                  20             False
           new     1.0   1.0                   0              True
    >>> result.tie_sizes.loc[("mrr", "new"), ["verdict", "verdict_pessimistic"]].tolist()
    ['new better', 'no significant difference']

    The verdict stands on the order of the ties alone: it can flip.
    """
    names, metrics, baseline = options.names, options.metrics, options.baseline
    index = per_query[baseline].index
    extremes = {order: _under(order, options, qrels, per_query, index)
                for order in EXTREME_ORDERS}
    # Queries x (system, metric), system-major, as the comparison's own matrices.
    low_q, high_q = (np.column_stack([extremes[order][s].to_numpy(np.float64) for s in names])
                     for order in EXTREME_ORDERS)
    affected = _differs(low_q, high_q).sum(axis=0)
    pessimistic, optimistic = _means(low_q), _means(high_q)

    pairs, n = names[1:], len(metrics)
    moved = (affected > 0).reshape(len(names), n)
    changed = (moved[1:] | moved[:1]).reshape(-1)  # (other system, metric), system-major
    given = [tests.loc[(metric, system), "verdict"] for system in pairs for metric in metrics]
    verdicts = {}
    for order in ("optimistic", "pessimistic"):
        if not changed.any():  # nothing the ties move: each pairing is the comparison
            verdicts[order] = given
            continue
        other = "pessimistic" if order == "optimistic" else "optimistic"
        mixed = {baseline: extremes[other][baseline],
                 **{system: extremes[order][system] for system in pairs}}
        # The family's other claims (pairs="all": the pairs without the baseline) keep
        # their observed differences: the extremes are each system's against the baseline.
        d = differences.copy()
        moved_claims = np.flatnonzero(changed)
        d[:, moved_claims] = paired_columns(mixed, names, metrics,
                                            options.specs).differences[:, moved_claims]
        decisions = randomization_verdicts(
            d, alpha=options.alpha, correction=options.correction,
            n_resamples=options.n_resamples, max_resamples=options.max_resamples,
            seed=options.seed)
        verdicts[order] = [
            _verdict_of(decisions, i * n + j, d[:, i * n + j], system, baseline,
                        spec.info.higher_is_better)
            for i, system in enumerate(pairs) for j, spec in enumerate(options.specs)]

    # Rows metric-major, as Comparison.summary: column (system s, metric j) is s * n + j.
    rows = np.arange(len(names) * n).reshape(len(names), n).T.reshape(-1)

    def by_row(values: list) -> list:  # (other system, metric) lists, baseline rows None
        full = [None] * n + list(values)
        return [full[c] for c in rows]

    frame = pd.DataFrame({
        "pessimistic": pessimistic[rows], "optimistic": optimistic[rows],
        "low": np.fmin(pessimistic, optimistic)[rows],
        "high": np.fmax(pessimistic, optimistic)[rows],
        "range": np.abs(optimistic - pessimistic)[rows],
        "n_queries_affected": affected[rows].astype(np.int64),
        "verdict": by_row(given),
        "verdict_optimistic": by_row(verdicts["optimistic"]),
        "verdict_pessimistic": by_row(verdicts["pessimistic"]),
    }, index=pd.MultiIndex.from_product([list(metrics), list(names)],
                                        names=["metric", "system"]))
    frame["verdict_can_flip"] = ((frame["verdict"] != frame["verdict_optimistic"])
                                 | (frame["verdict"] != frame["verdict_pessimistic"]))
    frame.loc[frame["verdict"].isna(), "verdict_can_flip"] = False
    return frame.astype({"verdict_can_flip": bool})


def tie_size_warnings(frame: pd.DataFrame | None, tolerance: float | None) -> list[str]:
    """The warning on tied scores, when they matter: a range above ``tolerance``, or a
    verdict that can flip (``frame`` from :func:`tie_size_frame`, its first system the
    baseline); none otherwise, nor when the ties were not measured (None).

    Examples
    --------
    >>> frame = pd.DataFrame(
    ...     {"low": [0.5, 0.7], "high": [0.5004, 0.71], "range": [0.0004, 0.01],
    ...      "n_queries_affected": [4, 3], "verdict": [None, "new better"],
    ...      "verdict_optimistic": [None, "new better"],
    ...      "verdict_pessimistic": [None, "no significant difference"],
    ...      "verdict_can_flip": [False, True]},
    ...     index=pd.MultiIndex.from_tuples([("ndcg@10", "old"), ("ndcg@10", "new")],
    ...                                     names=["metric", "system"]))
    >>> print(tie_size_warnings(frame, 0.02)[0])  # doctest: +NORMALIZE_WHITESPACE
    tied scores: the order of tied docs can flip 1 verdict: ndcg@10 (new): 'new better',
    but 'no significant difference' with new's tied docs in the worst order and old's in
    the best; the sizes are in Comparison.tie_sizes (a warning where a range exceeds
    tie_tolerance = 0.02 or a verdict can flip)
    >>> frame["verdict_can_flip"] = False
    >>> tie_size_warnings(frame, 0.02)
    []
    >>> print(tie_size_warnings(frame, 0.001)[0])  # doctest: +NORMALIZE_WHITESPACE
    tied scores: the order of tied docs moves ndcg@10 (new) by 0.01 (0.7 to 0.71, on 3
    queries); it can flip no verdict; the sizes are in Comparison.tie_sizes (a warning
    where a range exceeds tie_tolerance = 0.001 or a verdict can flip)
    """
    if frame is None or tolerance is None or not len(frame):
        return []
    wide = (frame["range"] > tolerance).to_numpy()
    flips = frame["verdict_can_flip"].to_numpy(bool)
    if not wide.any() and not flips.any():
        return []
    baseline = frame.index.get_level_values("system")[0]
    parts = []
    if wide.any():
        shown = frame[wide].sort_values("range", ascending=False, kind="stable")
        moves = [f"{metric} ({system}) by {row['range']:.4g} ({row['low']:.4g} to "
                 f"{row['high']:.4g}, on {_queries(row['n_queries_affected'])})"
                 for (metric, system), row in shown.head(6).iterrows()]
        more = f", and {len(shown) - 6} more" if len(shown) > 6 else ""
        parts.append("moves " + ", ".join(moves) + more)
    if flips.any():
        groups: dict[tuple, list[str]] = {}  # claims that flip alike, said once
        for (metric, system), row in frame[flips].iterrows():
            key = (system, row["verdict"], row["verdict_optimistic"], row["verdict_pessimistic"])
            groups.setdefault(key, []).append(metric)
        flipped = []
        for (system, verdict, best, worst), metrics in groups.items():
            ways = [f"'{found}' with {system}'s tied docs in the {own} order and "
                    f"{baseline}'s in the {theirs}"
                    for found, own, theirs in ((best, "best", "worst"), (worst, "worst", "best"))
                    if found != verdict]
            flipped.append(f"{', '.join(metrics)} ({system}): '{verdict}', but "
                           + " and ".join(ways))
        count = f"{int(flips.sum())} verdict{'s' if flips.sum() > 1 else ''}"
        parts.append(("it " if parts else "") + f"can flip {count}: " + "; ".join(flipped))
    else:
        parts.append("it can flip no verdict")
    return [("tied scores: the order of tied docs " + "; ".join(parts) + "; the sizes are in "
             f"Comparison.tie_sizes (a warning where a range exceeds tie_tolerance = "
             f"{tolerance:g} or a verdict can flip)")]


def _under(order: str, options, qrels, per_query, index) -> dict[str, pd.DataFrame]:
    """Every system's per-query values with tied docs in ``order``: the comparison's own
    when its tie rule is that order; else each system evaluated again, the metrics a
    preset computes under conventions of their own (ir_measures' RR@k) under those, with
    ties in ``order``."""
    conventions: Conventions = options.conventions
    if conventions.ties == order:
        return per_query
    groups: list[tuple[list[str], Conventions]] = []
    rest = list(options.metrics)
    variants = PRESETS[options.preset].variants if options.preset is not None else ()
    for variant in variants:
        chosen = [name for name, spec in zip(options.metrics, options.specs, strict=True)
                  if variant.applies(spec.name, spec.k)]
        if chosen:
            own = conventions.as_dict() | dict(variant.conventions) | {"ties": order}
            groups.append((chosen, Conventions(**own)))
            rest = [name for name in rest if name not in chosen]
    if rest:
        groups.append((rest, dataclasses.replace(conventions, ties=order)))
    parts: dict[str, list[pd.DataFrame]] = {system: [] for system in options.names}
    for names, under in groups:  # the judgments were checked when the systems were scored
        evaluations, _ = evaluate_all(options.systems, qrels, names, options.spans, under,
                                      None, options.jobs, judgments_checked=True)
        for system, values in aligned_per_query(evaluations).items():
            parts[system].append(values[names].reindex(index))
    return {system: pd.concat(frames, axis=1)[list(options.metrics)]
            for system, frames in parts.items()}


def _differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Queries whose two values differ (beyond the rounding of sums in another order)."""
    both_missing = np.isnan(a) & np.isnan(b)
    with np.errstate(invalid="ignore"):
        close = np.isclose(a, b, rtol=1e-12, atol=1e-12)
    return ~(close | both_missing)


def _means(matrix: np.ndarray) -> np.ndarray:
    """Each column's mean over its finite values (NaN where it has none)."""
    finite = np.isfinite(matrix)
    counts = finite.sum(axis=0)
    totals = np.where(finite, matrix, 0.0).sum(axis=0)
    return np.divide(totals, counts, out=np.full(matrix.shape[1], np.nan), where=counts > 0)


def _queries(n) -> str:
    return f"{int(n)} {'query' if int(n) == 1 else 'queries'}"


def _verdict_of(decisions: RandomizationVerdicts, column: int, d: np.ndarray, system: str,
                baseline: str, higher_is_better: bool) -> str:
    """The verdict of one claim, in the words of :attr:`ragmetrics.Comparison.tests`."""
    if not np.isfinite(decisions.p_adjusted[column]):
        return "not tested (no query with both values)"
    if not decisions.decided[column]:
        return UNDECIDED
    if not decisions.significant[column]:
        return "no significant difference"
    winner = system if (np.nanmean(d) > 0) == higher_is_better else baseline
    return f"{winner} better"
