r"""Interpolated precision at recall levels, and the 11-point average (trec_eval's rules).

The precision-recall curve of a ranking is a staircase; its **interpolated precision**
at recall level :math:`x` is the best precision reached at any recall of at least
:math:`x`:

.. math:: \mathrm{iprec}(x) = \max_{j \ge c} \frac{j}{r_j}, \qquad c = \mathrm{round}(x R)

where :math:`r_j` is the rank of the :math:`j`-th relevant doc retrieved and :math:`R`
the number of relevant docs; 0 when fewer than :math:`c` relevant docs were retrieved
(:math:`c = 0` reads as :math:`c = 1`). trec_eval 10 rounds :math:`xR` half away from
zero; trec_eval 9 and pytrec_eval computed :math:`\lfloor xR + 0.9 \rfloor`, so they can
name another rank for the same level (e.g. :math:`x = 0.2`, :math:`R = 7`: rank 1 here
and in trec_eval 10, rank 2 there).

The **11-point average** is the mean of :math:`\mathrm{iprec}` at recall 0, 0.1, ...,
1 (or the levels given).

Examples
--------
>>> from ragmetrics.metrics.ranked import RankedJudgments
>>> # relevant docs at ranks 2 and 3 of 4, R = 4: precisions 1/2 and 2/3
>>> r = RankedJudgments(1, query=[0, 0, 0, 0], grade=[0, 1, 1, 0], gain=[0, 1, 1, 0],
...                     num_relevant=[4])
>>> iprec_at_recall(r, 0.25), iprec_at_recall(r, 0.5), iprec_at_recall(r, 0.75)
(array([0.66666667]), array([0.66666667]), array([0.]))
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedJudgments
from .ties_counted import expected_interpolated_precision

__all__ = ["ELEVEN_POINTS", "eleven_point_average", "iprec_at_recall", "round_half_away"]

#: The default recall levels of the 11-point average: 0, 0.1, ..., 1.
ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def round_half_away(values: np.ndarray) -> np.ndarray:
    """C's ``lround``: to the nearest int, halves away from zero (exact, unlike
    ``floor(x + 0.5)``, which rounds 0.49999999999999994 up)."""
    values = np.asarray(values, dtype=np.float64)
    magnitude = np.abs(values)
    whole = np.floor(magnitude)
    rounded = whole + (magnitude - whole >= 0.5)
    return (np.sign(values) * rounded).astype(np.int64)


def _interpolated(r: RankedJudgments):
    """Per query: its first relevant row's place among the relevant rows, how many
    relevant rows it has, and at each relevant row the interpolated precision (the best
    precision at that relevant doc or any later one)."""
    if "interpolated" in r.memo:
        return r.memo["interpolated"]
    rows = np.flatnonzero(r.relevant)
    query = r.query[rows]
    precision = r.running_hits(r.relevant)[rows] / (r.rank[rows] + 1.0)
    count = np.bincount(query, minlength=r.n_queries)
    new = np.r_[True, query[1:] != query[:-1]] if len(query) else np.zeros(0, dtype=bool)
    first = np.zeros(r.n_queries, np.int64)
    first[query[new]] = np.flatnonzero(new)
    best = _suffix_max(precision, np.cumsum(new) - 1)
    r.memo["interpolated"] = first, count, best
    return r.memo["interpolated"]


def _suffix_max(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """For each item, the largest value of its group from it to the group's end (items in
    groups numbered 0, 1, ... in order). Exact: values are replaced by their order codes."""
    if not len(values):
        return values.copy()
    distinct, codes = np.unique(values, return_inverse=True)
    span = len(distinct)
    keys = (int(group[-1]) - group[::-1]).astype(np.int64) * span + codes[::-1]
    best = np.maximum.accumulate(keys)
    return distinct[(best % span)[::-1]]


def _at_rank_of(r: RankedJudgments, cut: np.ndarray) -> np.ndarray:
    """Interpolated precision at the ``cut``-th relevant doc of each query (1 for 0);
    0 where the query retrieved fewer relevant docs. Under ``ties="average"``, its
    expected value over the orders of the tied docs
    (:func:`~ragmetrics.metrics.ties_counted.expected_interpolated_precision`)."""
    cut = np.maximum(cut, 1)
    if r.ties is not None:
        return expected_interpolated_precision(r, cut)
    first, count, best = _interpolated(r)
    found = cut <= count
    values = np.zeros(r.n_queries)
    values[found] = best[first[found] + cut[found] - 1]
    return values


def iprec_at_recall(r: RankedJudgments, k) -> np.ndarray:
    """Interpolated precision at recall level ``k`` (a fraction from 0 to 1), as trec_eval
    10 computes it: at the ``round(k * R)``-th relevant doc."""
    return _at_rank_of(r, round_half_away(np.asarray(k, dtype=np.float64) * r.num_relevant))


def eleven_point_average(r: RankedJudgments, k, *, levels=ELEVEN_POINTS) -> np.ndarray:
    """The mean interpolated precision over recall ``levels`` (trec_eval's 11pt_avg).

    trec_eval walks the levels from the last one given to the first, matching each to
    the relevant docs from the bottom of the ranking up; levels given out of increasing
    order can then take the value of a lower level. That walk is reproduced here, so any
    list of levels gives trec_eval's number (for increasing levels: the plain mean).
    """
    _, retrieved_relevant, _ = _interpolated(r)
    final = _at_rank_of(r, np.ones(r.n_queries, dtype=np.int64))  # the best precision of all
    skipping = np.ones(r.n_queries, dtype=bool)
    stuck = np.zeros(r.n_queries, dtype=bool)
    reach = retrieved_relevant.copy()  # the relevant docs not yet passed, from the bottom
    total = np.zeros(r.n_queries)
    for level in reversed(tuple(levels)):
        cut = round_half_away(level * r.num_relevant)
        skipping &= cut > retrieved_relevant
        walked = ~skipping
        stuck |= walked & ((cut < 1) | (cut > reach))
        hit = walked & ~stuck
        reach = np.where(hit, cut, reach)
        total += np.where(stuck & walked, final, 0.0) + np.where(hit, _at_rank_of(r, cut), 0.0)
    return total / len(levels)
