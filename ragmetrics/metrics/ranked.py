"""Ranked judgments: what every metric kernel reads, for one query or ten million rows.

A metric is a function of a query's ranking seen through its judgments: at each rank,
is the doc relevant, and what does it gain? :class:`RankedJudgments` holds exactly that
for many queries at once, as flat arrays with one entry per ranked row (rows grouped by
query, best rank first), plus per-query totals and the ideal ranking. Every kernel of
:mod:`ragmetrics.metrics.kernels` reads one, whoever built it: :func:`ragmetrics.evaluate`
(from a whole run) and the curves over k (from one query, once per cut-off).

Some measures need more than "relevant, and how much": bpref and infAP tell judged
non-relevant docs from unjudged ones, nDCG with a gain map and RBP read every judgment of
a query, and ``ties="average"`` needs the blocks of tied scores. Those come as optional
parts (``judged``, ``qrels``, ``ties``), built only when a metric asks for them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Qrels", "RankedJudgments", "TieBlocks", "ranks_within"]


def ranks_within(lengths: np.ndarray) -> np.ndarray:
    """0, 1, ..., n-1 for each group length n, concatenated.

    Examples
    --------
    >>> ranks_within(np.array([3, 1, 2])).tolist()
    [0, 1, 2, 0, 0, 1]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    # One array, summed in place: +1 a row, and at each group's first row, back to 0.
    # (Ten million rows are 80 MB an array, and fresh memory is not free.)
    out = np.ones(int(lengths.sum()), np.int64)
    if not len(out):
        return out
    lengths = lengths[lengths > 0]
    out[0] = 0
    out[np.cumsum(lengths[:-1])] = 1 - lengths[:-1]
    np.cumsum(out, out=out)
    return out


@dataclass(frozen=True)
class Qrels:
    """Every judgment of every query: the ``query`` code and the ``grade`` of each, in
    any order.

    Judged docs that were never retrieved count here: bpref's number of judged
    non-relevant docs, the gain levels of nDCG with a gain map, RBP's gain scale.
    """

    query: np.ndarray  # int64
    grade: np.ndarray  # float64

    @classmethod
    def of(cls, query, grade) -> Qrels:
        return cls(np.asarray(query, np.int64), np.asarray(grade, np.float64))

    def count(self, mask: np.ndarray, n_queries: int) -> np.ndarray:
        """How many judgments of each query ``mask`` selects."""
        return np.bincount(self.query, weights=mask, minlength=n_queries)

    def max_per_query(self, values: np.ndarray, n_queries: int, *, initial: float) -> np.ndarray:
        """The largest of ``values`` over each query's judgments (``initial`` if none)."""
        out = np.full(n_queries, initial, dtype=np.float64)
        np.maximum.at(out, self.query, values)
        return out


@dataclass(frozen=True)
class TieBlocks:
    """The blocks of tied scores of a ranking (every row in one; most blocks of one row).

    ``block`` is each row's block, ``offset`` its place in it (0 first); ``start`` and
    ``size`` are each block's first row and number of rows.
    """

    block: np.ndarray
    offset: np.ndarray
    start: np.ndarray
    size: np.ndarray

    @classmethod
    def from_runs(cls, n_rows: int, starts: np.ndarray, lengths: np.ndarray) -> TieBlocks:
        """Blocks from the runs of tied rows (``starts``, ``lengths``); other rows alone."""
        is_start = np.ones(n_rows, dtype=bool)
        inside = np.repeat(starts, lengths) + ranks_within(lengths)
        is_start[inside] = False
        is_start[starts] = True
        start = np.flatnonzero(is_start)
        size = np.diff(start, append=n_rows).astype(np.int64)
        block = np.repeat(np.arange(len(start)), size)
        return cls(block, np.arange(n_rows) - start[block], start, size)

    def total(self, values) -> np.ndarray:
        """Each row's block total of ``values``."""
        return np.bincount(self.block, weights=values, minlength=len(self.start))[self.block]

    def mean(self, values) -> np.ndarray:
        """Each row's block mean of ``values``: its expected value over the block's orders."""
        return self.total(values) / self.size[self.block]


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
    judged : array of bool or None
        Whether each row's doc is judged at all (any grade, 0 and below included); None
        when only the grades that reach a gain were looked up.
    qrels : Qrels or None
        Every judgment of every query, for the measures that read them.
    gain_rule : {"linear", "exponential"}
        How grades become gains (for the measures that map judgments to gains).
    ties : TieBlocks or None
        The blocks of tied scores under ``ties="average"``; None when ties are broken.
    run_id : str or None
        The run's name (trec_eval's ``runid``), when the run has one.

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
                 relevance_level: float = 1, ideal: RankedJudgments | None = None,
                 judged=None, qrels: Qrels | None = None, gain_rule: str = "linear",
                 ties: TieBlocks | None = None, run_id: str | None = None) -> None:
        self.n_queries = int(n_queries)
        self.query = np.asarray(query, dtype=np.int64)
        self.grade = np.asarray(grade, dtype=np.float64)
        self.gain = np.asarray(gain, dtype=np.float64)
        self.num_relevant = np.asarray(num_relevant, dtype=np.float64)
        self.relevance_level = relevance_level
        self.ideal = ideal
        self.judged = None if judged is None else np.asarray(judged, dtype=bool)
        self.qrels = qrels
        self.gain_rule = gain_rule
        self.ties = ties
        self.run_id = run_id
        self.starts, self.counts = _groups(self.query)
        self.rank = ranks_within(self.counts)  # 0-based
        self.relevant = self.grade >= relevance_level
        self.memo: dict = {}  # intermediate arrays that several kernels share

    def __len__(self) -> int:
        return len(self.query)

    # -- cut-offs and sums ---------------------------------------------------------------

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

    def expected(self, values) -> np.ndarray:
        """``values`` as the kernels read them: under ``ties="average"`` each row's block
        mean (its expected value over the orders of the tie), else ``values`` themselves.

        A metric that is a weighted sum over ranks of what the doc at each rank has
        (hits, DCG, RBP) is exact on these means: the expectation of a sum is the sum of
        the expectations (for DCG, McSherry and Najork's rule).
        """
        if self.ties is None:
            return values
        return self.ties.mean(np.asarray(values, dtype=np.float64))

    @property
    def relevance(self) -> np.ndarray:
        """1.0 where a row is relevant (under ``ties="average"``: the chance that it is)."""
        if "relevance" not in self.memo:
            self.memo["relevance"] = self.expected(self.relevant.astype(np.float64))
        return self.memo["relevance"]

    # -- sums over a few rows --------------------------------------------------------
    #
    # Most measures add up something that is 0 on every row but a few (the relevant
    # docs, the judged ones): of a million rows, a few thousand. Summing over those rows
    # only, in the same order, gives the same floats (adding 0.0 changes no sum), and
    # reads a few thousand rows instead of a million. Under ties="average" a block
    # shares its relevance among all of its rows, so the kernels read every row then.

    @property
    def relevant_rows(self) -> np.ndarray:
        """The relevant rows, ascending (cached)."""
        if "relevant_rows" not in self.memo:
            self.memo["relevant_rows"] = np.flatnonzero(self.relevant)
        return self.memo["relevant_rows"]

    @property
    def judged_rows(self) -> np.ndarray:
        """The rows judged at any grade, and the relevant ones, ascending (cached)."""
        if "judged_rows" not in self.memo:
            self._needs("judged")
            self.memo["judged_rows"] = np.flatnonzero(self.judged | self.relevant)
        return self.memo["judged_rows"]

    def within_at(self, rows: np.ndarray, k) -> np.ndarray | None:
        """:meth:`within` of some rows only (None: every one)."""
        if k is None:
            return None
        if np.ndim(k) == 0:
            return self.rank[rows] < k
        return self.rank[rows] < np.asarray(k)[self.query[rows]]

    def per_query_at(self, rows: np.ndarray, weights, k=None) -> np.ndarray:
        """:meth:`per_query` of weights that are 0 on every row but ``rows`` (ascending):
        ``weights`` has one value per row of ``rows``."""
        inside = self.within_at(rows, k)
        query = self.query[rows]
        if inside is not None:
            query, weights = query[inside], np.asarray(weights)[inside]
        # float64 also with no weights at all (bincount then counts in int64)
        return np.bincount(query, weights=weights, minlength=self.n_queries).astype(
            np.float64, copy=False)

    def running_at(self, rows: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """:meth:`running_hits` among ``rows`` (ascending) only: for each of them, the
        rows of ``rows`` in its query up to it (itself included) where ``mask`` (one
        bool per row of ``rows``)."""
        found = np.cumsum(mask)
        starts, counts = _groups(self.query[rows])
        before = found[starts] - mask[starts]
        return found - np.repeat(before, counts)

    def hits(self, k=None) -> np.ndarray:
        """Relevant docs within the cut-off, per query (cached: recall, precision and hit
        rate all start from it). Under ``ties="average"``: their expected number."""
        if np.ndim(k) != 0:  # one cut-off per query: not cached
            return self._hits(k)
        key = ("hits", k)
        if key not in self.memo:
            self.memo[key] = self._hits(k)
        return self.memo[key]

    def _hits(self, k) -> np.ndarray:
        if self.ties is not None:
            return self.per_query(self.relevance, k)
        rows = self.relevant_rows
        return self.per_query_at(rows, np.ones(len(rows)), k)

    @property
    def num_relevant_retrieved(self) -> np.ndarray:
        """Relevant rows of each query, whatever the tie rule (a count: no expectation)."""
        rows = self.relevant_rows
        return np.bincount(self.query[rows], minlength=self.n_queries).astype(np.float64)

    def first_hits(self, k=None) -> tuple[np.ndarray, np.ndarray]:
        """(query, rank) of each query's first relevant row within ``k``."""
        rows = self.relevant_rows
        inside = self.within_at(rows, k)
        if inside is not None:
            rows = rows[inside]
        first = rows[_changes(self.query[rows])]
        return self.query[first], self.rank[first]

    def running_hits(self, mask: np.ndarray) -> np.ndarray:
        """For each row, the rows of its query up to it (itself included) where ``mask``."""
        found = np.cumsum(mask)
        before = found[self.starts] - mask[self.starts]  # found before each query's start
        return found - np.repeat(before, self.counts)

    def running_sum(self, values: np.ndarray) -> np.ndarray:
        """For each row, the sum of ``values`` over its query's rows up to it (included).

        Sums restart at each query, so no query's total carries rounding into the next.
        """
        values = np.asarray(values, dtype=np.float64)
        if not len(values):
            return values.copy()
        out = np.empty_like(values)
        for depth in range(int(self.counts.max())):  # one pass per rank, all queries at once
            at = self.starts[self.counts > depth] + depth
            out[at] = values[at] if depth == 0 else out[at - 1] + values[at]
        return out

    def divide(self, numerator, denominator) -> np.ndarray:
        """``numerator / denominator`` per query, 0 where the denominator is 0."""
        return np.divide(numerator, denominator, out=np.zeros(self.n_queries),
                         where=denominator > 0)

    def powers(self, base: float) -> np.ndarray:
        """``base ** i`` for i = 0 up to the longest ranking's length, each the one before
        times ``base``, as trec_eval's loops make them (RBP's weights): the same floats
        to the last bit, which ``np.power`` is not."""
        key = ("powers", base)
        if key not in self.memo:
            longest = int(self.counts.max()) if len(self.counts) else 0
            self.memo[key] = np.cumprod(np.r_[1.0, np.full(longest, float(base))])
        return self.memo[key]

    def discounts(self, base: float = 2, rows: np.ndarray | None = None) -> np.ndarray:
        """``log_base(rank + 1)`` of each row (rank from 1): DCG's discount (of ``rows``
        only, when given)."""
        rank = self.rank if rows is None else self.rank[rows]
        if base == 2:
            return np.log2(rank + 2.0)
        return np.log(rank + 2.0) / np.log(base)

    # -- what the judgments say of each row --------------------------------------------

    @property
    def num_retrieved(self) -> np.ndarray:
        """Rows of each query (all of its ranking when the metrics read it all)."""
        # From the runs of rows, not the rows: a query has one run (its rows are grouped).
        return np.bincount(self.query[self.starts], weights=self.counts,
                           minlength=self.n_queries).astype(np.float64)

    def _needs(self, part: str) -> None:
        if getattr(self, part) is None:
            raise ValueError(f"this measure needs the ranked judgments' {part!r} part "
                             "(built when the metric table asks for it): a bug")

    @property
    def unjudged(self) -> np.ndarray:
        """Rows whose doc has no judgment, or a negative one (trec_eval: "not in the pool"
        and "in the pool, unjudged"): what bpref and infAP skip and unj@k counts."""
        self._needs("judged")
        return ~self.judged | (self.grade < 0)

    @property
    def judged_nonrelevant(self) -> np.ndarray:
        """Rows judged with a grade from 0 up to the relevance level (not included)."""
        self._needs("judged")
        return self.judged & (self.grade >= 0) & ~self.relevant

    @property
    def trec_rel(self) -> np.ndarray:
        """trec_eval's relevance value of each row: the grade of a doc judged 0 or more,
        -1 for a doc not judged, -2 for a doc judged below 0."""
        self._needs("judged")
        return np.where(self.judged, np.where(self.grade < 0, -2.0, self.grade), -1.0)

    def qrels_count(self, predicate) -> np.ndarray:
        """Per query, its judgments whose grade ``predicate(grade)`` selects."""
        self._needs("qrels")
        return self.qrels.count(predicate(self.qrels.grade), self.n_queries)


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
