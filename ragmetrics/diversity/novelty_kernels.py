r"""The diversity measures' array kernels: every query's value at once, as ndeval computes.

Each kernel takes a :class:`~ragmetrics.diversity.subtopic_ranking.SubtopicRanking`, a
cut-off ``k`` (None for the measures of the whole ranking) and the measure's parameters,
and returns one float per query, equal to the last bit to TREC's ``ndeval.c`` v4.5
(sums in ndeval's order: ranks, then subtopics). The plain-Python definitions they are
tested against are :mod:`ragmetrics.diversity.novelty_reference`.

With S the query's subtopics with a relevant doc, :math:`g_i` the gain at rank i
(:meth:`~ragmetrics.diversity.subtopic_ranking.SubtopicRanking.gains`), :math:`d_i`
ndeval's discount (1 at rank 1, :math:`\log 2 / \log(i + 1)` at rank i) and
:math:`\rho = 1 - \alpha`:

=====================  ================================================================
kernel                 value (0 when S = 0)
=====================  ================================================================
:func:`alpha_dcg`      :math:`\sum_{i \le k} g_i d_i \,/\, \sum_{i \le k} S \rho^{i-1} d_i`
:func:`alpha_ndcg`     alpha-DCG@k over the ideal ranking's (0 when the top k gains 0)
:func:`err_ia`         :math:`\sum_{i \le k} g_i / i \,/\, \sum_{i \le k} S \rho^{i-1} / i`
:func:`nerr_ia`        ERR-IA@k over the ideal ranking's (0 when the top k gains 0)
:func:`nrbp`           :math:`\frac{1 - \rho\beta}{S} \sum_i g_i \beta^{i-1}`, the whole ranking
:func:`nnrbp`          NRBP over the ideal ranking's (NaN when S = 0: ndeval's 0/0)
:func:`p_ia`           relevant (doc, subtopic) pairs in the top k over :math:`k S`
:func:`strec`          subtopics with a relevant doc in the top k over S
:func:`map_ia`         the mean over the S subtopics of each one's AP, the whole ranking
=====================  ================================================================

The denominators of alpha-DCG and ERR-IA are the "ideal ideal" ranking's, one that
covers every subtopic at every rank (:func:`ideal_ideal`), which no real ranking may
reach: alpha-DCG and ERR-IA are not 1 at best; alpha-nDCG and nERR-IA are.
"""

from __future__ import annotations

import numpy as np

from .subtopic_ranking import SubtopicRanking, decays, discounts

__all__ = ["alpha_dcg", "alpha_ndcg", "err_ia", "ideal_ideal", "map_ia", "nerr_ia", "nnrbp",
           "nrbp", "p_ia", "strec"]


def ideal_ideal(num_subtopics: np.ndarray, alpha: float, weights: np.ndarray, *,
                divide: bool) -> np.ndarray:
    """The "ideal ideal" running sums, (n_queries, k): at rank i, :math:`S \\rho^{i-1}`
    (repeated products from S, as ndeval) times ``weights[i]`` (``divide``: over it).
    Computed once per distinct S."""
    k = len(weights)
    distinct, inverse = np.unique(num_subtopics, return_inverse=True)
    out = np.zeros((len(distinct), k))
    value = distinct.astype(np.float64)
    for i in range(k):
        out[:, i] = value / weights[i] if divide else value * weights[i]
        value = value * (1.0 - alpha)
    return np.cumsum(out, axis=1)[inverse.reshape(-1)]


def _ranks(k: int) -> np.ndarray:
    return np.arange(1, k + 1, dtype=np.float64)


def _running(r: SubtopicRanking, k: int, alpha: float, measure: str):
    """ndeval's arrays at rank k: (the running sum, the ideal-ideal's running sum)."""
    key = ("running", k, alpha, measure)
    if key not in r.memo:
        gains = r.gains(alpha)
        if measure == "dcg":
            weights = discounts(k)
            rows = gains * weights[np.minimum(r.position, k - 1)]
        else:
            weights = _ranks(k)
            rows = gains / (r.position + 1.0)
        running = r.top_sum(rows, k)
        ideal = ideal_ideal(r.num_subtopics, alpha, weights,
                            divide=measure == "err")[:, k - 1]
        r.memo[key] = running, ideal
    return r.memo[key]


def _normalised(r: SubtopicRanking, k: int, alpha: float, measure: str, *, raw_at_one: bool):
    """ndeval's ``dcg[k - 1]`` (or ``err``): the running sum over the ideal ideal's; at
    k = 1 the running sum itself (ndeval's arrays are not normalised at rank 1)."""
    running, ideal = _running(r, k, alpha, measure)
    has = r.num_subtopics > 0
    if k == 1 and raw_at_one:
        return np.where(has, running, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(has, running / ideal, 0.0)


def alpha_dcg(r: SubtopicRanking, k: int, *, alpha: float = 0.5) -> np.ndarray:
    """alpha-DCG@k, normalised by the ideal ideal ranking (ndeval's alpha-DCG)."""
    return _normalised(r, k, alpha, "dcg", raw_at_one=r.raw_at_one)


def err_ia(r: SubtopicRanking, k: int, *, alpha: float = 0.5) -> np.ndarray:
    """ERR-IA@k, normalised by the ideal ideal ranking (ndeval's ERR-IA)."""
    return _normalised(r, k, alpha, "err", raw_at_one=r.raw_at_one)


def _over_ideal(r: SubtopicRanking, k: int, alpha: float, measure: str) -> np.ndarray:
    # ndeval's renormalize: run / ideal where the run's alpha-DCG@k is not 0; at k = 1
    # both are ndeval's unnormalised values.
    run = _normalised(r, k, alpha, measure, raw_at_one=True)
    ideal = _normalised(r.ideal(alpha), k, alpha, measure, raw_at_one=True)
    gained = _normalised(r, k, alpha, "dcg", raw_at_one=True) != 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(gained, run / ideal, 0.0)


def alpha_ndcg(r: SubtopicRanking, k: int, *, alpha: float = 0.5) -> np.ndarray:
    """alpha-nDCG@k: alpha-DCG@k over that of the greedy ideal ranking."""
    return _over_ideal(r, k, alpha, "dcg")


def nerr_ia(r: SubtopicRanking, k: int, *, alpha: float = 0.5) -> np.ndarray:
    """nERR-IA@k: ERR-IA@k over that of the greedy ideal ranking."""
    return _over_ideal(r, k, alpha, "err")


def nrbp(r: SubtopicRanking, k=None, *, alpha: float = 0.5, beta: float = 0.5) -> np.ndarray:
    """Novelty- and rank-biased precision over the whole ranking (``k`` is not used)."""
    most = int(r.position.max(initial=-1)) + 1
    rows = r.gains(alpha) * decays(beta, most)[r.position]
    total = np.bincount(r.query, weights=rows, minlength=r.n_queries)
    has = r.num_subtopics > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(has, total * ((1 - (1 - alpha) * beta) / r.num_subtopics), 0.0)


def nnrbp(r: SubtopicRanking, k=None, *, alpha: float = 0.5, beta: float = 0.5) -> np.ndarray:
    """NRBP over the greedy ideal ranking's NRBP; NaN for a query with no relevant doc
    (ndeval divides 0 by 0 there)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return (nrbp(r, alpha=alpha, beta=beta)
                / nrbp(r.ideal(alpha), alpha=alpha, beta=beta))


def p_ia(r: SubtopicRanking, k: int) -> np.ndarray:
    """Intent-aware precision@k: relevant (doc, subtopic) pairs in the top k over k S."""
    inside = r.within(k)
    pairs = np.bincount(r.query[inside], weights=r.rel[inside].sum(axis=1),
                        minlength=r.n_queries)
    has = r.num_subtopics > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(has, pairs / (k * r.num_subtopics).astype(np.float64), 0.0)


def strec(r: SubtopicRanking, k: int) -> np.ndarray:
    """Subtopic recall@k: the subtopics with a relevant doc in the top k, over S."""
    inside = np.flatnonzero(r.within(k))
    rows, columns = np.nonzero(r.rel[inside])
    covered = np.zeros((r.n_queries, r.rel.shape[1]), dtype=bool)
    covered[r.query[inside][rows], columns] = True
    has = r.num_subtopics > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(has, covered.sum(axis=1) / r.num_subtopics.astype(np.float64), 0.0)


def map_ia(r: SubtopicRanking, k=None) -> np.ndarray:
    """Intent-aware AP: each subtopic's AP over the whole ranking (its relevant docs
    retrieved, each at its precision, over the docs relevant to it), averaged over the
    S subtopics (``k`` is not used)."""
    width = r.rel.shape[1]
    rows, columns = np.nonzero(r.rel)  # row-major: each (query, subtopic) in rank order
    hits = (r.counts_before()[rows, columns] + 1).astype(np.float64)
    totals = np.bincount(r.query[rows] * width + columns,
                         weights=hits / (r.position[rows] + 1.0),
                         minlength=r.n_queries * width).reshape(r.n_queries, width)
    value = np.zeros(r.n_queries)
    with np.errstate(invalid="ignore", divide="ignore"):
        for j in range(width):  # in subtopic order, as ndeval adds
            value = value + np.where(j < r.num_subtopics, totals[:, j] / r.subtopic_docs[:, j],
                                     0.0)
        return np.where(r.num_subtopics > 0, value / r.num_subtopics, 0.0)
