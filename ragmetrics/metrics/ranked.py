"""Ranked judgments: what every metric kernel reads, for one query or ten million rows.

A metric is a function of a query's ranking seen through its judgments: at each rank,
is the doc relevant, and what does it gain? :class:`RankedJudgments` holds exactly that
for many queries at once, as flat arrays with one entry per ranked row (rows grouped by
query, best rank first), plus per-query totals and the ideal ranking. Every kernel of
:mod:`ragmetrics.metrics.kernels` reads one, whoever built it: :func:`ragmetrics.evaluate`
(from a whole run) and the curves over k (from one query, once per cut-off).
"""

from __future__ import annotations

import numpy as np

__all__ = ["RankedJudgments", "ranks_within"]


def ranks_within(lengths: np.ndarray) -> np.ndarray:
    """0, 1, ..., n-1 for each group length n, concatenated.

    Examples
    --------
    >>> ranks_within(np.array([3, 1, 2])).tolist()
    [0, 1, 2, 0, 0, 1]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(int(lengths.sum())) - offsets


class RankedJudgments:
    """The ranked rows of ``n_queries`` queries, judged: the input of every metric kernel.

    Parameters
    ----------
    n_queries : int
        Queries are numbered ``0 .. n_queries - 1``; a query may have no row.
    query : array of int
        The query of each row. Rows are grouped by query and in rank order within one.
    grade : array of float
        The grade of each row's doc: its judgment, 0 when it is unjudged.
    gain : array of float
        What each row's doc adds to DCG (the grade, or 2**grade - 1; never negative).
    num_relevant : array of float, one per query
        Relevant docs of each query, retrieved or not (the R of recall).
    relevance_level : float
        A doc is relevant when its grade reaches it.
    ideal : RankedJudgments or None
        Each query's best possible ranking: every judged doc with a gain, best first
        (the ranking whose DCG is the ideal DCG).

    Examples
    --------
    Two queries: q0 ranks a relevant doc second; q1 has one relevant doc, never found.

    >>> r = RankedJudgments(2, query=[0, 0, 1], grade=[0, 1, 0], gain=[0, 1, 0],
    ...                     num_relevant=[1, 1])
    >>> r.rank.tolist(), r.relevant.tolist()
    ([0, 1, 0], [False, True, False])
    >>> r.hits(1).tolist(), r.hits(2).tolist()
    ([0.0, 0.0], [1.0, 0.0])
    """

    def __init__(self, n_queries: int, *, query, grade, gain, num_relevant,
                 relevance_level: float = 1, ideal: RankedJudgments | None = None) -> None:
        self.n_queries = int(n_queries)
        self.query = np.asarray(query, dtype=np.int64)
        self.grade = np.asarray(grade, dtype=np.float64)
        self.gain = np.asarray(gain, dtype=np.float64)
        self.num_relevant = np.asarray(num_relevant, dtype=np.float64)
        self.relevance_level = relevance_level
        self.ideal = ideal
        self.starts, self.counts = _groups(self.query)
        self.rank = ranks_within(self.counts)  # 0-based
        self.relevant = self.grade >= relevance_level
        self._hits: dict = {}

    def __len__(self) -> int:
        return len(self.query)

    def within(self, k) -> np.ndarray | None:
        """Rows ranked within the cut-off: ``k`` None (all: returns None), an int, or one
        int per query."""
        if k is None:
            return None
        if np.ndim(k) == 0:
            return self.rank < k
        return self.rank < np.asarray(k)[self.query]

    def per_query(self, weights, k=None) -> np.ndarray:
        """The sum of ``weights`` over each query's rows within the cut-off ``k``."""
        mask = self.within(k)
        if mask is not None:
            weights = weights * mask
        return np.bincount(self.query, weights=weights, minlength=self.n_queries)

    def hits(self, k=None) -> np.ndarray:
        """Relevant docs within the cut-off, per query (cached: recall, precision and hit
        rate all start from it)."""
        if np.ndim(k) != 0:  # one cut-off per query: not cached
            return self.per_query(self.relevant, k)
        if k not in self._hits:
            self._hits[k] = self.per_query(self.relevant, k)
        return self._hits[k]

    def first_hits(self, k=None) -> tuple[np.ndarray, np.ndarray]:
        """(query, rank) of each query's first relevant row within ``k``."""
        mask = self.relevant if k is None else self.relevant & self.within(k)
        rows = np.flatnonzero(mask)
        first = rows[_changes(self.query[rows])]
        return self.query[first], self.rank[first]

    def running_hits(self, mask: np.ndarray) -> np.ndarray:
        """For each row, the rows of its query up to it (itself included) where ``mask``."""
        found = np.cumsum(mask)
        before = found[self.starts] - mask[self.starts]  # found before each query's start
        return found - np.repeat(before, self.counts)

    def divide(self, numerator, denominator) -> np.ndarray:
        """``numerator / denominator`` per query, 0 where the denominator is 0."""
        return np.divide(numerator, denominator, out=np.zeros(self.n_queries),
                         where=denominator > 0)

    def discounts(self) -> np.ndarray:
        """``log2(rank + 1)`` of each row (rank from 1): DCG's discount."""
        return np.log2(self.rank + 2.0)


def _changes(codes: np.ndarray) -> np.ndarray:
    """True where a code differs from the one before it (and at the first row)."""
    changed = np.empty(len(codes), dtype=bool)
    if len(codes):
        changed[0] = True
        np.not_equal(codes[1:], codes[:-1], out=changed[1:])
    return changed


def _groups(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, lengths) of the runs of equal codes (rows grouped already)."""
    starts = np.flatnonzero(_changes(codes))
    return starts, np.diff(starts, append=len(codes)).astype(np.int64)
