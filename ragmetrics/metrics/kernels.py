r"""One array kernel per metric: every query's value at once, from ranked judgments.

A kernel takes a :class:`~ragmetrics.metrics.ranked.RankedJudgments` and a cut-off ``k``
(None for the whole ranking, an int, or one int per query), plus the metric's own
parameters as keywords, and returns one float per query. It is the metric's definition
written over arrays, with no loop over queries or ranks: sums within the cut-off are
``np.bincount`` over the rows. The metric table (:mod:`ragmetrics.metrics.registry`) names
each metric's kernel, and every front end (:func:`ragmetrics.evaluate`, the curves over
k, the board, ``ragmetrics trec_eval``) calls kernels through it. The plain-Python
functions of :mod:`ragmetrics.metrics.reference` are the readable definitions the
kernels are tested against.

This module holds the measures of a ranked list cut at k; the others are grouped by what
they read: :mod:`~ragmetrics.metrics.sets` (counts and set measures),
:mod:`~ragmetrics.metrics.judged` (measures that tell judged from unjudged docs),
:mod:`~ragmetrics.metrics.interpolated` (interpolated precision) and
:mod:`~ragmetrics.metrics.graded` (gain-based measures beyond DCG).

With :math:`\mathrm{rel}_i` 1 when the doc at rank :math:`i` is relevant, :math:`R` the
number of relevant docs, :math:`g_i` the gain at rank :math:`i` and
:math:`\mathrm{hits}(k) = \sum_{i \le k} \mathrm{rel}_i`:

============================  ===========================================================
kernel                        value
============================  ===========================================================
:func:`recall`                :math:`\mathrm{hits}(k) / R`
:func:`precision`             :math:`\mathrm{hits}(k) / k`
:func:`relative_precision`    :math:`\mathrm{hits}(k) / \min(k, R)`
:func:`rprec_mult`            :math:`\mathrm{hits}(c) / c`, :math:`c = \lfloor xR + 0.9 \rfloor`
:func:`hit_rate`              :math:`[\mathrm{hits}(k) > 0]`
:func:`rr`                    :math:`1 / \mathrm{rank}` of the first relevant doc within :math:`k`
:func:`dcg`                   :math:`\sum_{i \le k} g_i / \log_b(i + 1)`
:func:`idcg`                  DCG@k of the ideal ranking
:func:`ndcg`                  DCG@k of the ranking over DCG@k of the ideal ranking
:func:`ap`                    :math:`\frac{1}{R} \sum_{i \le k} \mathrm{rel}_i \, \mathrm{hits}(i) / i`
:func:`r_precision`           :math:`\mathrm{hits}(R) / R`
============================  ===========================================================

Examples
--------
>>> from ragmetrics.metrics.ranked import RankedJudgments
>>> r = RankedJudgments(1, query=[0, 0, 0], grade=[1, 0, 1], gain=[1, 0, 1], num_relevant=[3])
>>> recall(r, 2), precision(r, 2), rr(r, None)
(array([0.33333333]), array([0.5]), array([1.]))
"""

from __future__ import annotations

import numpy as np

from .gains import gain_rows, ideal_under, row_gains
from .ranked import RankedJudgments
from .ties import expected_precision_numerators, first_hit_chances

__all__ = ["ap", "dcg", "hit_rate", "idcg", "ndcg", "precision", "r_precision", "recall",
           "relative_precision", "rprec_mult", "rr"]


def recall(r: RankedJudgments, k) -> np.ndarray:
    """Relevant docs in the top ``k`` over all relevant docs."""
    return r.divide(r.hits(k), r.num_relevant)


def precision(r: RankedJudgments, k) -> np.ndarray:
    """Relevant docs in the top ``k`` over ``k`` (an empty slot counts: trec_eval's P)."""
    return r.hits(k) / np.asarray(k, dtype=np.float64)


def relative_precision(r: RankedJudgments, k) -> np.ndarray:
    """Relevant docs in the top ``k`` over ``min(k, R)``: the precision the query could
    reach at most is 1 even when it has fewer than ``k`` relevant docs (trec_eval's
    relative_P)."""
    return r.divide(r.hits(k), np.minimum(np.asarray(k, dtype=np.float64), r.num_relevant))


def rprec_mult(r: RankedJudgments, k) -> np.ndarray:
    """Precision at ``k`` times R docs, the rank rounded as trec_eval does:
    ``c = int(k * R + 0.9)``, and 0 where ``c`` is 0 (trec_eval's Rprec_mult)."""
    depth = np.floor(np.asarray(k, dtype=np.float64) * r.num_relevant + 0.9)
    depth = depth.astype(np.int64)
    return r.divide(r.hits(depth), depth.astype(np.float64))


def hit_rate(r: RankedJudgments, k) -> np.ndarray:
    """1 if a relevant doc is in the top ``k``, else 0 (trec_eval's success). Under
    ``ties="average"``: the chance of one."""
    if r.ties is None:
        return (r.hits(k) > 0).astype(np.float64)
    return r.per_query(first_hit_chances(r), k)


def rr(r: RankedJudgments, k) -> np.ndarray:
    """One over the rank of the first relevant doc within ``k``; 0 if there is none."""
    if r.ties is not None:
        return r.per_query(first_hit_chances(r) / (r.rank + 1.0), k)
    values = np.zeros(r.n_queries)
    query, rank = r.first_hits(k)
    values[query] = 1.0 / (rank + 1.0)
    return values


def dcg(r: RankedJudgments, k, *, base: float = 2, gains=()) -> np.ndarray:
    """Discounted cumulative gain of the top ``k``: each gain over log_base(rank + 1)."""
    if r.ties is None:  # the rows with a gain only: the others add 0
        rows = gain_rows(r, gains)
        gain = row_gains(r, gains)[rows]
        return r.per_query_at(rows, gain / r.discounts(base, rows), k)
    return r.per_query(r.expected(row_gains(r, gains)) / r.discounts(base), k)


def idcg(r: RankedJudgments, k, *, base: float = 2, gains=()) -> np.ndarray:
    """The DCG of the top ``k`` of the ideal ranking: the best DCG@k any ranking reaches."""
    ideal = ideal_under(r, gains)
    return ideal.per_query(ideal.gain / ideal.discounts(base), k)


def ndcg(r: RankedJudgments, k, *, base: float = 2, gains=()) -> np.ndarray:
    """DCG@k over the ideal DCG@k (the base cancels out: it scales both alike)."""
    return r.divide(dcg(r, k, base=base, gains=gains), idcg(r, k, base=base, gains=gains))


def ap(r: RankedJudgments, k) -> np.ndarray:
    """Average precision: Precision@i at each relevant rank i within ``k``, over R."""
    if r.ties is not None:
        numerators = expected_precision_numerators(r)
        return r.divide(r.per_query(numerators / (r.rank + 1.0), k), r.num_relevant)
    rows = r.relevant_rows  # Precision@i is added at relevant rows only
    inside = r.within_at(rows, k)
    if inside is not None:
        rows = rows[inside]
    hits_so_far = r.running_at(rows, np.ones(len(rows), dtype=bool))
    return r.divide(r.per_query_at(rows, hits_so_far / (r.rank[rows] + 1.0)), r.num_relevant)


def r_precision(r: RankedJudgments, k) -> np.ndarray:
    """Precision at rank R, the number of relevant docs (``k`` is not used)."""
    return recall(r, r.num_relevant)
