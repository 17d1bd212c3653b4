r"""One array kernel per metric: every query's value at once, from ranked judgments.

A kernel takes a :class:`~ragmetrics.metrics.ranked.RankedJudgments` and a cut-off ``k``
(None for the whole ranking, an int, or one int per query) and returns one float per
query. It is the metric's definition written over arrays, with no loop over queries or
ranks: sums within the cut-off are ``np.bincount`` over the rows. The metric table
(:mod:`ragmetrics.metrics.table`) names each metric's kernel, and every front end
(:func:`ragmetrics.evaluate`, the curves over k, the board) calls kernels through it.
The plain-Python functions of :mod:`ragmetrics.metrics.reference` are the readable
definitions the kernels are tested against.

With :math:`\mathrm{rel}_i` 1 when the doc at rank :math:`i` is relevant, :math:`R` the
number of relevant docs, :math:`g_i` the gain at rank :math:`i` and
:math:`\mathrm{hits}(k) = \sum_{i \le k} \mathrm{rel}_i`:

==================  =====================================================================
kernel              value
==================  =====================================================================
:func:`recall`      :math:`\mathrm{hits}(k) / R`
:func:`precision`   :math:`\mathrm{hits}(k) / k`
:func:`hit_rate`    :math:`[\mathrm{hits}(k) > 0]`
:func:`rr`          :math:`1 / \mathrm{rank}` of the first relevant doc within :math:`k`
:func:`dcg`         :math:`\sum_{i \le k} g_i / \log_2(i + 1)`
:func:`ndcg`        DCG@k of the ranking over DCG@k of the ideal ranking
:func:`ap`          :math:`\frac{1}{R} \sum_{i \le k} \mathrm{rel}_i \, \mathrm{hits}(i) / i`
:func:`r_precision` :math:`\mathrm{hits}(R) / R`
==================  =====================================================================

Examples
--------
>>> from ragmetrics.metrics.ranked import RankedJudgments
>>> r = RankedJudgments(1, query=[0, 0, 0], grade=[1, 0, 1], gain=[1, 0, 1], num_relevant=[3])
>>> recall(r, 2), precision(r, 2), rr(r, None)
(array([0.33333333]), array([0.5]), array([1.]))
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedJudgments

__all__ = ["ap", "dcg", "hit_rate", "ndcg", "precision", "r_precision", "recall", "rr"]


def recall(r: RankedJudgments, k) -> np.ndarray:
    """Relevant docs in the top ``k`` over all relevant docs."""
    return r.divide(r.hits(k), r.num_relevant)


def precision(r: RankedJudgments, k) -> np.ndarray:
    """Relevant docs in the top ``k`` over ``k`` (an empty slot counts: trec_eval's P)."""
    return r.hits(k) / np.asarray(k, dtype=np.float64)


def hit_rate(r: RankedJudgments, k) -> np.ndarray:
    """1 if a relevant doc is in the top ``k``, else 0 (trec_eval's success)."""
    return (r.hits(k) > 0).astype(np.float64)


def rr(r: RankedJudgments, k) -> np.ndarray:
    """One over the rank of the first relevant doc within ``k``; 0 if there is none."""
    values = np.zeros(r.n_queries)
    query, rank = r.first_hits(k)
    values[query] = 1.0 / (rank + 1.0)
    return values


def dcg(r: RankedJudgments, k) -> np.ndarray:
    """Discounted cumulative gain of the top ``k``: each gain over log2(rank + 1)."""
    return r.per_query(r.gain / r.discounts(), k)


def ndcg(r: RankedJudgments, k) -> np.ndarray:
    """DCG@k over the ideal DCG@k: the DCG kernel on the ranking and on the ideal ranking."""
    return r.divide(dcg(r, k), dcg(r.ideal, k))


def ap(r: RankedJudgments, k) -> np.ndarray:
    """Average precision: Precision@i at each relevant rank i within ``k``, over R."""
    relevant = r.relevant if k is None else r.relevant & r.within(k)
    precision_at_hits = np.where(relevant, r.running_hits(relevant) / (r.rank + 1.0), 0.0)
    return r.divide(r.per_query(precision_at_hits), r.num_relevant)


def r_precision(r: RankedJudgments, k) -> np.ndarray:
    """Precision at rank R, the number of relevant docs (``k`` is not used)."""
    return recall(r, r.num_relevant)
