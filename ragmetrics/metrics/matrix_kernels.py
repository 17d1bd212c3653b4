r"""Metric kernels over score matrices, on any array library (the Python array API).

:func:`ragmetrics.evaluate_scores` ranks each row of an ``[n_queries, n_docs]`` score
matrix where the matrix lives (NumPy, PyTorch, CuPy, JAX: any library the
`array API standard <https://data-apis.org/array-api/>`_ covers, through
``array-api-compat``) and hands the kernels here a :class:`SortedGrades`: the grades of
each query's top ``D`` docs in rank order, one row per query, with the number of
relevant docs and the ideal gains. Each kernel is the metric table's kernel of the same
name (:mod:`ragmetrics.metrics.kernels`) written over such a matrix, with the same
sums in the same order, so that on NumPy the values are those of
:func:`ragmetrics.evaluate` to the last bit:

=====================  ==============================================================
metric                 over the matrix
=====================  ==============================================================
``recall@k``           ``hits(k) / R``, ``hits(k)`` the running count of relevant docs
``precision@k``        ``hits(k) / k``
``hit_rate@k``         ``hits(k) > 0``
``relative_precision`` ``hits(k) / min(k, R)``
``rr``, ``rr@k``       ``1 / (first + 1)``, ``first`` the 0-based rank of the first
                       relevant doc (found by counting, without a sort:
                       :func:`ragmetrics.evaluation.matrix_ranking.first_relevant_rank`)
``dcg``, ``idcg``      running sums of ``gain / log_b(rank + 1)`` (of the ideal gains)
``ndcg``               DCG over ideal DCG
``ap``, ``gm_map``     running sum of ``hits(i) / i`` at relevant ranks, over R
``r_precision``        ``hits(R) / R``
``rprec_mult@x``       ``hits(c) / c``, ``c = floor(x R + 0.9)``
``num_rel``, ``num_q`` R, and 1
=====================  ==============================================================

A sum over ranks is the last column of a running sum (``cumulative_sum``), added from
rank 1 down, as ``np.bincount`` adds the rows of a ranking; a rank past the end adds
nothing. The other metrics of the table run on the host, by their own kernels, from
the same sorted grades (:func:`ragmetrics.evaluation.score_matrix.evaluate_scores`).

Examples
--------
Two queries, their top three grades in rank order; query 0 has 2 relevant docs, query 1
has 1, never ranked:

>>> import numpy as np
>>> m = SortedGrades(np, np.array([[0.0, 1.0, 1.0], [0.0, 0.0, 0.0]]),
...                  num_relevant=np.array([2.0, 1.0]), ideal_grade=np.array([[1.0, 1.0],
...                  [1.0, 0.0]]), first=np.array([1, -1]))
>>> recall(m, 2).tolist(), precision(m, 3).tolist(), rr(m, None).tolist()
([0.5, 0.0], [0.6666666666666666, 0.0], [0.5, 0.0])
"""

from __future__ import annotations

import math

__all__ = ["MATRIX_KERNELS", "SortedGrades", "ap", "dcg", "hit_rate", "idcg", "ndcg",
           "num_q", "num_rel", "precision", "r_precision", "recall", "relative_precision",
           "rprec_mult", "rr"]


class SortedGrades:
    """The grades of each query's top docs in rank order: what the matrix kernels read.

    Parameters
    ----------
    xp : namespace
        The array namespace of the arrays (``array_api_compat.array_namespace``).
    grade : array, shape (n_queries, D)
        The grade of the doc at each rank (0 for an unjudged doc), ranks 1 to D.
    num_relevant : array, shape (n_queries,)
        R: the relevant docs of each query, ranked or not (float64).
    ideal_grade : array, shape (n_queries, Di)
        Each query's positive grades, best first, padded with 0: its ideal ranking.
    first : array of int, shape (n_queries,), optional
        The 0-based rank of each query's first relevant doc in its whole ranking, -1 when
        it has none (what ``rr`` reads).
    relevance_level : float
        A doc is relevant when its grade reaches it.
    gain_rule : {"linear", "exponential"}
        How a grade becomes a gain (negative grades gain nothing).
    n_docs : int
        The docs ranked for each query (its ranking's length): ``D`` is at most this.
    """

    def __init__(self, xp, grade, *, num_relevant, ideal_grade, first=None,
                 relevance_level: float = 1, gain_rule: str = "linear",
                 n_docs: int | None = None) -> None:
        self.xp = xp
        self.grade = grade
        self.num_relevant = num_relevant
        self.ideal_grade = ideal_grade
        self.first = first
        self.relevance_level = relevance_level
        self.gain_rule = gain_rule
        self.depth = int(grade.shape[1])
        self.n_docs = self.depth if n_docs is None else int(n_docs)
        self.n_queries = int(num_relevant.shape[0])
        self.memo: dict = {}

    # -- what several kernels share, computed once ------------------------------------

    def gains(self, grade):
        """Each grade's gain: the grade, or 2**grade - 1; 0 for a grade of 0 or below."""
        xp = self.xp
        positive = xp.clip(grade, min=0.0) if hasattr(xp, "clip") else xp.where(
            grade > 0, grade, 0.0)
        if self.gain_rule == "linear":
            return positive
        return xp.pow(2.0, positive) - 1.0

    def ranks(self, width: int):
        """1.0, 2.0, ..., width as a row (float64)."""
        xp = self.xp
        device = _device(self.grade)
        return xp.arange(1, width + 1, dtype=xp.float64, device=device)

    @property
    def running_hits(self):
        """Relevant docs at or above each rank (float64, exact counts)."""
        if "hits" not in self.memo:
            xp = self.xp
            relevant = xp.astype(self.grade >= self.relevance_level, xp.float64)
            self.memo["relevant"] = relevant
            self.memo["hits"] = xp.cumulative_sum(relevant, axis=1)
        return self.memo["hits"]

    def hits(self, k):
        """Relevant docs in the top ``k`` (None: all ranked), per query."""
        return self.at(self.running_hits, k)

    def at(self, running, k):
        """Column ``min(k, width) - 1`` of a running sum: its value at rank k; 0 if empty."""
        xp = self.xp
        width = int(running.shape[1])
        if width == 0:
            return xp.zeros(self.n_queries, dtype=xp.float64, device=_device(self.grade))
        column = width - 1 if k is None else min(int(k), width) - 1
        return running[:, column]

    def at_each(self, running, depth):
        """A running sum's value at rank ``depth[i]`` of each query (0 where depth < 1)."""
        xp = self.xp
        width = int(running.shape[1])
        if width == 0:
            return xp.zeros(self.n_queries, dtype=xp.float64, device=_device(self.grade))
        column = xp.clip(depth, min=1, max=width) - 1
        flat = xp.reshape(running, (-1,))
        offsets = xp.arange(self.n_queries, dtype=xp.int64, device=_device(running)) * width
        values = xp.take(flat, xp.astype(column, xp.int64) + offsets)
        return xp.where(depth >= 1, values, 0.0)

    def discounted(self, gains, base: float):
        """Running sum of ``gain / log_base(rank + 1)`` along each row."""
        xp = self.xp
        width = int(gains.shape[1])
        place = self.ranks(width) + 1.0  # rank + 1, rank from 1
        discount = xp.log2(place) if base == 2 else xp.log(place) / math.log(base)
        return xp.cumulative_sum(gains / discount, axis=1)

    def divide(self, numerator, denominator):
        """``numerator / denominator``, 0 where the denominator is 0."""
        xp = self.xp
        safe = xp.where(denominator > 0, denominator, 1.0)
        return xp.where(denominator > 0, numerator / safe, 0.0)


def _device(x):
    from array_api_compat import device

    return device(x)


def recall(m: SortedGrades, k):
    """Relevant docs in the top ``k`` over all relevant docs."""
    return m.divide(m.hits(k), m.num_relevant)


def precision(m: SortedGrades, k):
    """Relevant docs in the top ``k`` over ``k`` (an empty slot counts)."""
    return m.hits(k) / float(k)


def hit_rate(m: SortedGrades, k):
    """1 if a relevant doc is in the top ``k``, else 0."""
    xp = m.xp
    return xp.astype(m.hits(k) > 0, xp.float64)


def relative_precision(m: SortedGrades, k):
    """Relevant docs in the top ``k`` over ``min(k, R)``."""
    xp = m.xp
    return m.divide(m.hits(k), xp.minimum(m.num_relevant, float(k)))


def rr(m: SortedGrades, k):
    """One over the rank of the first relevant doc within ``k`` (and within the
    ranking); 0 if there is none."""
    xp = m.xp
    first = m.first
    found = (first >= 0) & (first < m.n_docs)
    if k is not None:
        found = found & (first < int(k))
    rank = xp.astype(first, xp.float64) + 1.0
    return xp.where(found, 1.0 / xp.where(found, rank, 1.0), 0.0)


def dcg(m: SortedGrades, k, *, base: float = 2, gains=()):
    """DCG of the top ``k``: each gain over log_base(rank + 1), summed from rank 1."""
    key = ("dcg", base)
    if key not in m.memo:
        m.memo[key] = m.discounted(m.gains(m.grade), base)
    return m.at(m.memo[key], k)


def idcg(m: SortedGrades, k, *, base: float = 2, gains=()):
    """The DCG of the top ``k`` of the ideal ranking."""
    key = ("idcg", base)
    if key not in m.memo:
        m.memo[key] = m.discounted(m.gains(m.ideal_grade), base)
    return m.at(m.memo[key], k)


def ndcg(m: SortedGrades, k, *, base: float = 2, gains=()):
    """DCG@k over ideal DCG@k (0 where the ideal is 0)."""
    return m.divide(dcg(m, k, base=base), idcg(m, k, base=base))


def ap(m: SortedGrades, k):
    """Average precision: Precision@i at each relevant rank i within ``k``, over R."""
    xp = m.xp
    if "ap" not in m.memo:
        hits = m.running_hits
        relevant = m.memo["relevant"]
        precision_at = hits / m.ranks(int(hits.shape[1]))
        m.memo["ap"] = xp.cumulative_sum(xp.where(relevant > 0, precision_at, 0.0), axis=1)
    return m.divide(m.at(m.memo["ap"], k), m.num_relevant)


def r_precision(m: SortedGrades, k):
    """Precision at rank R (``k`` is not used)."""
    return m.divide(m.at_each(m.running_hits, m.num_relevant), m.num_relevant)


def rprec_mult(m: SortedGrades, k):
    """Precision at ``c = floor(k R + 0.9)`` docs; 0 where ``c`` is 0."""
    xp = m.xp
    depth = xp.floor(float(k) * m.num_relevant + 0.9)
    return m.divide(m.at_each(m.running_hits, depth), depth)


def num_rel(m: SortedGrades, k):
    """R: the relevant docs of each query."""
    return m.num_relevant


def num_q(m: SortedGrades, k):
    """1 per query."""
    xp = m.xp
    return xp.ones(m.n_queries, dtype=xp.float64, device=_device(m.num_relevant))


#: The metrics computed on the matrix's own device: name in the metric table -> kernel.
#: Every other metric of the table runs on the host, by its own kernel.
MATRIX_KERNELS = {
    "recall": recall, "precision": precision, "hit_rate": hit_rate,
    "relative_precision": relative_precision, "rr": rr, "dcg": dcg, "idcg": idcg,
    "ndcg": ndcg, "ap": ap, "gm_map": ap, "r_precision": r_precision,
    "rprec_mult": rprec_mult, "num_rel": num_rel, "num_q": num_q,
}
