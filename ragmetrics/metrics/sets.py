r"""Counts and set measures: the ranking read as a set (trec_eval's ``num_*`` and ``set_*``).

None of these looks at the order of the retrieved docs, only at how many there are
(:math:`n`, trec_eval's ``num_ret``), how many of them are relevant (:math:`h`,
``num_rel_ret``) and how many relevant docs the query has (:math:`R`, ``num_rel``).
They read the whole ranking (or its top ``max_retrieved`` docs).

==============================  =====================================================
kernel                          value
==============================  =====================================================
:func:`num_q`                   1 (trec_eval prints the sum: the number of queries)
:func:`num_ret`                 :math:`n`
:func:`num_rel`                 :math:`R`
:func:`num_rel_ret`             :math:`h`
:func:`set_precision`           :math:`h / n`
:func:`set_recall`              :math:`h / R`
:func:`set_relative_precision`  :math:`h / \min(n, R)`
:func:`set_ap`                  :math:`h^2 / (n R)`: set precision times set recall
:func:`set_f`                   :math:`(1 + \beta) P R' / (\beta P + R')`, :math:`P = h/n`,
                                :math:`R' = h/R` (trec_eval's ``set_F``: :math:`\beta`,
                                not :math:`\beta^2`)
:func:`utility`                 :math:`a h + b (n - h) + c (R - h) + d (N + h - n - R)`,
                                :math:`N` the size of the collection
==============================  =====================================================

Each ratio is 0 where its denominator is.

Examples
--------
>>> from ragmetrics.metrics.ranked import RankedJudgments
>>> r = RankedJudgments(1, query=[0, 0, 0, 0], grade=[1, 0, 1, 0], gain=[1, 0, 1, 0],
...                     num_relevant=[4])
>>> num_ret(r, None), num_rel_ret(r, None), set_precision(r, None), set_ap(r, None)
(array([4.]), array([2.]), array([0.5]), array([0.25]))
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedJudgments

__all__ = ["num_q", "num_rel", "num_rel_ret", "num_ret", "set_ap", "set_f", "set_precision",
           "set_recall", "set_relative_precision", "utility"]


def num_q(r: RankedJudgments, k) -> np.ndarray:
    """1 for every query: summed over queries, the number of queries."""
    return np.ones(r.n_queries)


def num_ret(r: RankedJudgments, k) -> np.ndarray:
    """How many docs the query retrieved (trec_eval's num_ret)."""
    return r.num_retrieved


def num_rel(r: RankedJudgments, k) -> np.ndarray:
    """How many relevant docs the query has, retrieved or not (trec_eval's num_rel)."""
    return r.num_relevant.copy()


def num_rel_ret(r: RankedJudgments, k) -> np.ndarray:
    """How many relevant docs the query retrieved (trec_eval's num_rel_ret).

    A count, whatever the order: it never depends on how ties are broken.
    """
    return r.num_relevant_retrieved


def set_precision(r: RankedJudgments, k) -> np.ndarray:
    """The share of the retrieved docs that are relevant (trec_eval's set_P)."""
    return r.divide(num_rel_ret(r, k), r.num_retrieved)


def set_recall(r: RankedJudgments, k) -> np.ndarray:
    """The share of the relevant docs that were retrieved (trec_eval's set_recall)."""
    return r.divide(num_rel_ret(r, k), r.num_relevant)


def set_relative_precision(r: RankedJudgments, k) -> np.ndarray:
    """Relevant docs retrieved over ``min(retrieved, relevant)`` (trec_eval's
    set_relative_P): 1 when the retrieved set is as relevant as its size allows."""
    n = r.num_retrieved
    return r.divide(num_rel_ret(r, k), np.where(r.num_relevant > 0, np.minimum(n, r.num_relevant),
                                                0.0))


def set_ap(r: RankedJudgments, k) -> np.ndarray:
    """Set precision times set recall, :math:`h^2 / (n R)` (trec_eval's set_map)."""
    h = num_rel_ret(r, k)
    return r.divide(h * h, r.num_retrieved * r.num_relevant)


def set_f(r: RankedJudgments, k, *, beta: float = 1.0) -> np.ndarray:
    """trec_eval's set_F: :math:`(\\beta + 1) P R / (\\beta P + R)` over the retrieved set
    (0 when no relevant doc is retrieved). trec_eval weighs by ``beta``, not ``beta**2``."""
    h = num_rel_ret(r, k)
    found = h > 0
    p = r.divide(h, r.num_retrieved)
    rec = r.divide(h, r.num_relevant)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = (beta + 1.0) * p * rec / (beta * p + rec)
    return np.where(found, f, 0.0)


def utility(r: RankedJudgments, k, *, a: float = 1.0, b: float = -1.0, c: float = 0.0,
            d: float = 0.0, num_docs: float = 0.0) -> np.ndarray:
    """trec_eval's set utility: ``a`` for each relevant doc retrieved, ``b`` for each
    non-relevant one, ``c`` for each relevant doc missed and ``d`` for each non-relevant
    doc rightly left out of a collection of ``num_docs`` (trec_eval's -N)."""
    h = num_rel_ret(r, k)
    n, rel = r.num_retrieved, r.num_relevant
    return a * h + b * (n - h) + c * (rel - h) + d * (num_docs + h - n - rel)
