r"""The diversity kernels' input: every query's ranking as a (rank x subtopic) matrix.

A :class:`SubtopicRanking` holds, for every query scored, its ranked docs as rows of a
boolean matrix: row i, column j is True when the doc at rank i is relevant to the
query's j-th subtopic (its subtopics with a relevant doc, in the judgments' order). With
it: the number S of such subtopics per query, the number of docs relevant to each, and
the *ideal ranking* (:meth:`SubtopicRanking.ideal`) that normalises alpha-nDCG, nERR-IA
and nNRBP.

**Gains.** A doc's gain at rank i is the sum, over the subtopics j it is relevant to,
of :math:`(1 - \alpha)^{c_{ij}}`, :math:`c_{ij}` the docs above it relevant to j: a
subtopic already covered is worth less each time (ndeval's ``subtopicGain[j] *= (1.0 -
alpha)``). The sums run over the subtopics in order, and the powers are repeated
products, as in ndeval, so that the floats are ndeval's to the last bit.

**The ideal ranking** is ndeval's greedy one (finding the best is NP-hard): at each rank
the doc with the largest gain given the docs above it, a tie going to the *larger* doc
id (byte order); docs relevant to no subtopic come after, and add nothing.

Examples
--------
>>> import pandas as pd
>>> from ragmetrics.diversity.subtopics import subtopic_judgments
>>> j = subtopic_judgments([("0", "a", "A", 1), ("0", "b", "B", 1), ("0", "b", "D", 1),
...                         ("0", "c", "C", 1)])
>>> run = pd.DataFrame({"query_id": ["0"] * 4, "doc_id": ["A", "D", "E", "B"]})
>>> r = SubtopicRanking.from_ranked(run, j)   # E, relevant to nothing, adds nothing
>>> r.position.tolist(), r.gains(0.5).tolist()
([0, 1, 3], [1.0, 1.0, 0.5])
>>> r.ideal(0.5).gains(0.5).tolist()   # A, C, D (ties go to the larger id), then B
[1.0, 1.0, 1.0, 0.5]
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InputValueError
from .subtopics import SubtopicJudgments, text_codes

__all__ = ["SubtopicRanking", "decays", "discounts"]


def discounts(k: int) -> np.ndarray:
    """ndeval's DCG discounts of ranks 1..k: 1, then ``log(2) / log(i + 2)`` at 0-based
    rank i (each by the C library's ``log``, as ndeval computes them)."""
    return np.array([1.0] + [math.log(2.0) / math.log(i + 2.0) for i in range(1, k)])


def decays(factor: float, n: int) -> np.ndarray:
    """``1, f, f*f, ...`` (n of them) as repeated products, as ndeval multiplies."""
    if n <= 0:
        return np.zeros(0)
    return np.cumprod(np.concatenate([[1.0], np.full(n - 1, float(factor))]))


class SubtopicRanking:
    """Rankings of many queries as rows of a (rank x subtopic) relevance matrix.

    Parameters
    ----------
    query : numpy.ndarray of int
        Each row's query (0 to ``n_queries - 1``), rows in query order, then rank order.
        Rows of docs relevant to no subtopic may be left out: they add nothing.
    position : numpy.ndarray of int
        Each row's 0-based rank within its query's ranking.
    rel : numpy.ndarray of bool, shape (n_rows, T)
        One row per ranked doc: row i is relevant to the query's subtopic j (``T``: the
        most subtopics a query has; a query with S < T leaves the last T - S columns
        False).
    num_subtopics : numpy.ndarray of int
        S per query: its subtopics with a relevant doc.
    subtopic_docs : numpy.ndarray of int, shape (n_queries, T)
        The docs relevant to each subtopic of each query (the judgments', retrieved or
        not: MAP-IA's denominators).
    candidates : tuple or None
        For the ideal ranking: (query, order key, rel) of every doc relevant to some
        subtopic, in query order then doc id order (the key grows with the doc id).
    raw_at_one : bool, default False
        Score alpha-DCG@1 and ERR-IA@1 without normalisation, S times their value
        (ndeval's arrays at rank 1, which pyndeval returns).
    ideals : dict, optional
        Where to keep the ideal rankings, by alpha: a dict shared by the rankings of
        many runs over the same queries and judgments builds each ideal once
        (:meth:`from_codes` passes one kept by the judgments).
    """

    def __init__(self, query, position, rel, num_subtopics, subtopic_docs, *,
                 candidates=None, raw_at_one: bool = False, ideals: dict | None = None
                 ) -> None:
        self.query = np.asarray(query, dtype=np.int64)
        self.position = np.asarray(position, dtype=np.int64)
        self.rel = np.asarray(rel, dtype=bool)
        self.num_subtopics = np.asarray(num_subtopics, dtype=np.int64)
        self.subtopic_docs = np.asarray(subtopic_docs, dtype=np.int64)
        self.n_queries = len(self.num_subtopics)
        self.candidates = candidates
        self.raw_at_one = raw_at_one
        self._gains: dict = {}
        self._ideals: dict = {} if ideals is None else ideals
        self._counts = None
        #: The kernels' shared results (a running sum at k, ...), computed once.
        self.memo: dict = {}

    @classmethod
    def from_ranked(cls, ranked: pd.DataFrame, judgments: SubtopicJudgments, *,
                    queries=None, raw_at_one: bool = False) -> SubtopicRanking:
        """Join ranked docs to the judgments.

        ``ranked``: ``query_id`` and ``doc_id`` columns, each query's docs in rank order
        (best first), a doc at most once per query. ``queries``: the queries to score,
        in order (default: the judged queries); the rows of other queries are left out.
        Only the rows of relevant docs are kept (the others add nothing to any measure):
        each with its 0-based rank in its query's whole ranking.
        """
        query_codes, query_names = text_codes(ranked["query_id"])
        doc_codes, doc_names = text_codes(ranked["doc_id"])
        order = np.argsort(query_codes, kind="stable")
        in_order = query_codes[order]
        position = np.empty(len(order), dtype=np.int64)
        position[order] = np.arange(len(order)) - np.searchsorted(in_order, in_order)
        return cls.from_codes(query_codes, query_names.to_pylist(), doc_codes, doc_names,
                              position, judgments, queries=queries, raw_at_one=raw_at_one)

    @classmethod
    def from_codes(cls, query_codes, query_names, doc_codes, doc_names, position,
                   judgments: SubtopicJudgments, *, queries=None,
                   raw_at_one: bool = False) -> SubtopicRanking:
        """Join ranked docs, given as codes, to the judgments (:meth:`from_ranked`'s work
        once the ids are coded: the run's rows in any order).

        ``query_codes[i]`` and ``doc_codes[i]``: row i's query and doc, positions in
        ``query_names`` (str) and ``doc_names`` (str, a list or Arrow strings);
        ``position[i]``: its 0-based rank in its query's ranking.
        """
        queries = judgments.queries if queries is None else tuple(queries)
        scored = pd.Index(queries, dtype=object)
        if scored.has_duplicates:
            raise InputValueError("queries to score are listed twice")
        num_subtopics, subtopic_docs, cand_query, cand_doc, cand_rel = judgments.matrix()
        judged_of = pd.Index(judgments.queries, dtype=object).get_indexer(scored)
        scored_of = np.full(len(judgments.queries), -1, dtype=np.int64)
        scored_of[judged_of[judged_of >= 0]] = np.flatnonzero(judged_of >= 0)
        judged = judged_of >= 0
        if not judged.all():  # a scored query without judgments: no subtopic
            num_subtopics = np.concatenate([num_subtopics, [0]])
            subtopic_docs = np.concatenate([subtopic_docs, np.zeros((1, subtopic_docs.shape[1]),
                                                                    np.int64)])
            judged_of = np.where(judged, judged_of, len(num_subtopics) - 1)
        num_subtopics = num_subtopics[judged_of]
        width = int(num_subtopics.max(initial=0))
        subtopic_docs = subtopic_docs[judged_of, :width]
        # The candidates of the scored queries, by scored query then doc id.
        cand_scored = scored_of[cand_query]
        keep = np.flatnonzero(cand_scored >= 0)
        if len(keep) and (np.diff(cand_scored[keep]) < 0).any():
            keep = keep[np.argsort(cand_scored[keep], kind="stable")]
        cand_query, cand_doc = cand_scored[keep], cand_doc[keep]
        cand_rel = cand_rel[keep, :width]
        candidates = (cand_query, cand_doc, cand_rel)
        # The run's rows of relevant docs: (scored query, doc) looked up among them.
        names = judgments.coded()[3]
        if not isinstance(doc_names, pa.Array | pa.ChunkedArray):
            doc_names = pa.array(list(doc_names), pa.large_string())
        doc_of = pc.index_in(doc_names, value_set=names).to_numpy(zero_copy_only=False)
        doc_of = np.nan_to_num(doc_of, nan=-1).astype(np.int64)
        query_of = scored.get_indexer(pd.Index(list(query_names), dtype=object))
        row_doc = doc_of[np.asarray(doc_codes, dtype=np.int64)] if len(
            doc_of) else np.zeros(0, np.int64)
        rows = np.flatnonzero(row_doc >= 0)  # rows of docs relevant somewhere: few
        row_query = query_of[np.asarray(query_codes, dtype=np.int64)[rows]]
        rows, row_query = rows[row_query >= 0], row_query[row_query >= 0]
        n_docs = max(len(names), 1)
        cand_keys = cand_query * n_docs + cand_doc
        keys = row_query * n_docs + row_doc[rows]
        where = np.minimum(np.searchsorted(cand_keys, keys), max(len(cand_keys) - 1, 0))
        hit = cand_keys[where] == keys if len(cand_keys) else np.zeros(len(keys), bool)
        rows, where, query = rows[hit], where[hit], row_query[hit]
        position = np.asarray(position, dtype=np.int64)[rows]
        step = query[1:] - query[:-1]
        if not ((step > 0) | ((step == 0) & (position[1:] > position[:-1]))).all():
            order = np.lexsort((position, query))
            query, position, where = query[order], position[order], where[order]
        ideals = judgments.cached(("ideals", queries, raw_at_one), dict)
        return cls(query, position, cand_rel[where], num_subtopics, subtopic_docs,
                   candidates=candidates, raw_at_one=raw_at_one, ideals=ideals)

    # -- what the kernels read -----------------------------------------------------------

    def counts_before(self) -> np.ndarray:
        """(rows, T) ints: for each row and subtopic, the rows above it in its query
        relevant to that subtopic."""
        if self._counts is None:
            inclusive = np.cumsum(self.rel, axis=0, dtype=np.int64)
            before = inclusive - self.rel
            if len(self.query):
                before = before - before[self.first_rows()]
            self._counts = before
        return self._counts

    def gains(self, alpha: float) -> np.ndarray:
        """Each row's gain: the sum over its relevant subtopics j of (1 - alpha)^c_j."""
        if alpha not in self._gains:
            counts = self.counts_before()
            powers = decays(1.0 - alpha, int(counts.max(initial=0)) + 1)
            gain = np.zeros(len(self.query))
            for j in range(self.rel.shape[1]):  # in subtopic order, as ndeval adds
                gain = gain + np.where(self.rel[:, j], powers[counts[:, j]], 0.0)
            self._gains[alpha] = gain
        return self._gains[alpha]

    def first_rows(self) -> np.ndarray:
        """Each row's query's first row."""
        if "first_rows" not in self.memo:
            starts = np.ones(len(self.query), dtype=bool)
            starts[1:] = self.query[1:] != self.query[:-1]
            self.memo["first_rows"] = np.maximum.accumulate(
                np.where(starts, np.arange(len(self.query)), 0))
        return self.memo["first_rows"]

    def top_sum(self, values: np.ndarray, k: int) -> np.ndarray:
        """Each query's sum of ``values`` over its top ``k`` rows, added in rank order
        (the last entry of ``cumsum(top_matrix(values, k))``, to the bit)."""
        inside = self.within(k)
        return np.bincount(self.query[inside], weights=values[inside],
                           minlength=self.n_queries)

    def within(self, k: int) -> np.ndarray:
        """Which rows are in the top ``k``."""
        return self.position < k

    def top_matrix(self, values: np.ndarray, k: int) -> np.ndarray:
        """``values`` of the top ``k`` rows as a (n_queries, k) array, 0 past a ranking's
        end."""
        out = np.zeros((self.n_queries, k))
        inside = self.within(k)
        out[self.query[inside], self.position[inside]] = values[inside]
        return out

    def ideal(self, alpha: float) -> SubtopicRanking:
        """The ideal rankings under ``alpha``: ndeval's greedy order of the relevant docs."""
        if alpha not in self._ideals:
            if self.candidates is None:
                raise InputValueError("this ranking has no judgments to build an ideal from")
            query, position, rel = _greedy(*self.candidates, self.n_queries, alpha)
            self._ideals[alpha] = SubtopicRanking(
                query, position, rel, self.num_subtopics, self.subtopic_docs,
                raw_at_one=self.raw_at_one)
        return self._ideals[alpha]


#: Up to this many subtopics, a step scores each query's 2**T subtopic sets once and
#: looks the docs' scores up; above it, it adds each doc's gains itself.
_TABLE_SUBTOPICS = 10
#: About how many cells (queries x docs, queries x subtopic sets) one batch holds.
_BATCH_CELLS = 1 << 22


def _greedy(query, key, rel, n_queries: int, alpha: float):
    """ndeval's ``idealResult`` for every query at once: rank by rank, each query takes
    its unplaced doc of largest gain, a tie to the largest key (doc id); a query stops
    when no doc adds a gain (every later doc would add 0).

    ``query``, ``key``, ``rel``: the candidates, sorted by query then key. Queries are
    batched by their number of candidates (up to the next power of two), the most first,
    so that the queries still going at step i are the first rows of their batch; a
    batch's candidates sit in a dense (queries x slots) grid, largest key first, so that
    ``argmax`` (the first largest) breaks a tie as ndeval does. A doc's gain is the sum
    of its subtopics' current gains, added in subtopic order as ndeval adds them.
    """
    width = rel.shape[1]
    if not len(query):
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, width), bool)
    sizes = np.bincount(query, minlength=n_queries)
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    powers = decays(1.0 - alpha, int(sizes.max()) + 1)
    has = np.flatnonzero(sizes)
    slots = 1 << np.ceil(np.log2(sizes[has])).astype(np.int64)
    bits = (rel.astype(np.int64) << np.arange(width)).sum(axis=1) if (
        width <= _TABLE_SUBTOPICS) else None
    picked = []
    for size in np.unique(slots):
        members = has[slots == size]
        members = members[np.argsort(-sizes[members], kind="stable")]
        cells = int(size) + (1 << width if width <= _TABLE_SUBTOPICS else width)
        step = max(_BATCH_CELLS // cells, 1)
        for start in range(0, len(members), step):
            batch = members[start:start + step]
            picked.append(_greedy_batch(sizes[batch], first[batch], int(size), rel, bits,
                                        powers))
    rows = np.concatenate([p[0] for p in picked])
    position = np.concatenate([p[1] for p in picked])
    out_query = query[rows]
    order = np.lexsort((position, out_query))
    return out_query[order], position[order], rel[rows[order]]


def _greedy_batch(sizes, first, size: int, rel, bits, powers):
    """The greedy ranks of a batch of queries (most candidates first): (candidate rows,
    positions) of the docs placed. ``bits``: each candidate's subtopics as bits (None:
    too many subtopics for a table of sets)."""
    n, width = len(sizes), rel.shape[1]
    owner = np.repeat(np.arange(n), sizes)
    slot = np.arange(len(owner)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    source = np.repeat(first + sizes - 1, sizes) - slot  # slot 0: the largest key
    grid_rows = np.full((n, size), -1, dtype=np.int64)
    grid_rows[owner, slot] = source
    counts = np.zeros((width, n), dtype=np.int64)  # each subtopic's docs placed
    every = np.arange(n)
    if bits is not None:
        # Each query's score of every subtopic set, a column per query; a doc's cell
        # holds where its set's score is (set * n + query); row `sets`, -1, is that of a
        # placed doc (or an empty cell).
        sets = 1 << width
        members = ((np.arange(sets)[None, :] >> np.arange(width)[:, None]) & 1).astype(
            np.int64)
        scores = np.empty((sets + 1, n))
        scores[sets] = -1.0
        flat = scores.reshape(-1)
        grid = np.repeat((sets * n + every)[:, None], size, axis=1)
        grid[owner, slot] = bits[source] * n + owner
    else:
        grid = np.zeros((width, n, size))
        grid[:, owner, slot] = rel[source].T
    out_rows, out_position = [], []
    for i in range(size):
        live = int(np.searchsorted(-sizes, -i, side="left"))  # queries with > i docs
        if not live:
            break
        gain = powers[counts[:, :live]]
        if bits is not None:
            table = scores[:, :live]
            table[0] = 0.0
            for j in range(width):  # each set's sum, its subtopics added in order
                low = 1 << j
                np.add(table[:low], gain[j], out=table[low:2 * low])
            score = np.take(flat, grid[:live])
        else:
            score = grid[0, :live] * gain[0][:, None]
            for j in range(1, width):
                score += grid[j, :live] * gain[j][:, None]
        best = np.argmax(score, axis=1)
        cell = every[:live] * size + best  # flat positions in the (n, size) grids
        gives = np.take(score.reshape(-1), cell) > 0  # a query adding 0 is done
        everyone = bool(gives.all())
        where = every[:live] if everyone else np.flatnonzero(gives)
        if not everyone:
            cell, best = cell[where], best[where]
        out_rows.append(np.take(grid_rows.reshape(-1), cell))
        out_position.append(np.full(len(where), i, dtype=np.int64))
        if bits is not None:
            added = members[:, np.take(grid.reshape(-1), cell) // n]
            grid.reshape(-1)[cell] = sets * n + where
        else:
            added = grid[:, where, best].astype(np.int64)
            grid[:, where, best] = 0.0
        if everyone:
            counts[:, :live] += added
        else:
            counts[:, where] += added
    return np.concatenate(out_rows), np.concatenate(out_position)
