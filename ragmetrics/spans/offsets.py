"""Interval arithmetic on one line, for all queries at once: sort, merge, intersect.

Every document is laid end to end on one line (:class:`Line`), one empty position
between neighbours so that no interval of one document ever touches another's. A query's
intervals are then moved to its own stretch of a longer line, ``query * stride``
further on, so that the intervals of *all* queries are one sorted NumPy array and every
operation below is a handful of vectorised passes, whatever the number of queries:

- :func:`union` merges overlapping intervals (sort by start, running maximum of ends);
- :func:`covered_before` measures how much of a merged set lies before each point, so
  that ``|A n [a, b)| = covered_before(b) - covered_before(a)``;
- :func:`overlapping_pairs` finds which chunks overlap which spans (a sorted join).

Lengths are measured by a :class:`Measure`: characters by default, or tokens (each token
placed on the character where it starts, see :mod:`ragmetrics.spans.tokens`). Either way
a length is a whole number, computed in int64 from positions and counts, never as the
difference of two running sums of floats: a ratio of two lengths is then exactly the
set-based definition, and exactly 1 when the two sets are the same.

Examples
--------
Two queries, stretch 100 apart: query 0 holds [0, 5) and [3, 8), query 1 holds [2, 4).

>>> import numpy as np
>>> starts, ends = union(np.array([0, 3, 102]), np.array([5, 8, 104]))
>>> starts.tolist(), ends.tolist()
([0, 102], [8, 104])
>>> measure = Measure()
>>> prefix = prefix_lengths(starts, ends, measure)
>>> # how much of the union lies inside [4, 6) and inside [100, 103)
>>> (covered_before(np.array([6, 103]), starts, ends, prefix, measure)
...  - covered_before(np.array([4, 100]), starts, ends, prefix, measure)).tolist()
[2, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputValueError

__all__ = [
    "MAX_POSITION",
    "Line",
    "Measure",
    "covered_before",
    "overlapping_pairs",
    "prefix_lengths",
    "total_by",
    "union",
]


#: Positions on the line (query stretches included) stay below this: sums of two of
#: them, and a stride times a query code, still fit 64-bit integers.
MAX_POSITION = 2**62


@dataclass(frozen=True)
class Line:
    """Documents laid end to end: document ``i`` starts at ``base[i]``.

    ``ids`` index the documents (codes ``0..D-1``); ``size`` is the line's length,
    gaps included. A query's stretch is ``stride`` long, longer than the whole line.
    """

    ids: pd.Index
    base: np.ndarray  # int64
    lengths: np.ndarray  # int64
    size: int
    stride: int

    @classmethod
    def build(cls, ids, lengths) -> Line:
        """Lay out documents ``ids`` of the given ``lengths`` (characters).

        Refuses documents whose positions would not fit 64-bit integers (a length of
        ``2**63 - 1``, the furthest end a chunk gives a document without its text),
        rather than letting the positions wrap around.
        """
        lengths = np.asarray(lengths, dtype=np.int64)
        if len(lengths) and lengths.sum(dtype=np.float64) + len(lengths) >= MAX_POSITION:
            longest = int(np.argmax(lengths))
            raise InputValueError(
                f"the documents would take {sum(map(int, lengths)) + len(lengths)} positions "
                f"(the longest, {ids[longest]!r}, {int(lengths[longest])} characters: its "
                "text, or the furthest end a chunk or span gives it); positions past 2**62 "
                "do not fit 64-bit integers")
        base = np.cumsum(lengths + 1) - (lengths + 1)  # one empty position after each
        size = int(base[-1] + lengths[-1] + 1) if len(lengths) else 1
        return cls(pd.Index(ids, dtype=object), base, lengths, size, size + 1)

    def codes(self, doc_ids) -> np.ndarray:
        """The code of each doc id (-1 for an id that is not on the line)."""
        return self.ids.get_indexer(pd.Index(doc_ids, dtype=object))

    def check_room(self, n_queries: int) -> None:
        """Refuse query stretches whose positions would overflow 64-bit integers."""
        if n_queries * self.stride >= MAX_POSITION:
            raise InputValueError(
                f"{n_queries} queries over {self.size} characters of documents do not fit "
                "in 64-bit positions; evaluate the queries in smaller batches"
            )


class Measure:
    """Length of ``[a, b)`` on the line, a whole number: characters, or tokens.

    Parameters
    ----------
    token_starts : numpy.ndarray or None
        Sorted positions where the tokens start (one entry per token, on the line of
        the documents, before any query offset; see
        :func:`ragmetrics.spans.tokens.token_starts`). None measures characters.
    stride : int
        The query stretch of the :class:`Line`: positions are taken modulo it.

    Examples
    --------
    Tokens starting at 0, 5 and 7; query stretches 20 apart. ``[0, 6)`` of query 0 holds
    the tokens at 0 and 5, ``[0, 8)`` of query 1 all three, ``[6, 7)`` none:

    >>> tokens = Measure(np.array([0, 5, 7]), stride=20)
    >>> tokens.length(np.array([0, 20, 26]), np.array([6, 28, 27])).tolist()
    [2, 3, 0]
    >>> Measure().length(np.array([0, 20]), np.array([6, 28])).tolist()
    [6, 8]
    """

    def __init__(self, token_starts: np.ndarray | None = None, stride: int = 1) -> None:
        self.token_starts = (None if token_starts is None
                             else np.asarray(token_starts, dtype=np.int64))
        self.stride = stride

    def at(self, x: np.ndarray) -> np.ndarray:
        """Length of the query stretch before each position ``x``, as int64.

        Characters: ``x`` itself (only differences within one stretch mean anything).
        Tokens: how many tokens start before ``x`` on its query's stretch, a count.
        """
        x = np.asarray(x, dtype=np.int64)
        if self.token_starts is None:
            return x
        return np.searchsorted(self.token_starts, x % self.stride, side="left").astype(
            np.int64)

    def length(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Length of each ``[a, b)`` (``a <= b``, both in the same query's stretch), int64."""
        if self.token_starts is None:
            return np.asarray(b, dtype=np.int64) - np.asarray(a, dtype=np.int64)
        return self.at(b) - self.at(a)


def total_by(groups: np.ndarray, lengths: np.ndarray, n: int) -> np.ndarray:
    """``out[g]``: the sum of the ``lengths`` whose group is ``g``, in int64 (exact).

    >>> total_by(np.array([0, 2, 0]), np.array([3, 4, 5]), 3).tolist()
    [8, 0, 4]
    """
    out = np.zeros(n, dtype=np.int64)
    np.add.at(out, np.asarray(groups, dtype=np.intp), np.asarray(lengths, dtype=np.int64))
    return out


def union(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge intervals ``[starts[i], ends[i])`` into sorted, disjoint intervals.

    Intervals that overlap or touch become one. Empty input gives empty output.
    """
    if len(starts) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    order = np.argsort(starts, kind="stable")
    starts, ends = starts[order], ends[order]
    reach = np.maximum.accumulate(ends)  # the furthest end so far
    opens = np.r_[True, starts[1:] > reach[:-1]]
    first = np.flatnonzero(opens)
    last = np.r_[first[1:] - 1, len(starts) - 1]
    return starts[first], reach[last]


def prefix_lengths(starts: np.ndarray, ends: np.ndarray, measure: Measure) -> np.ndarray:
    """``prefix[i]``: total length of the merged intervals before interval ``i``."""
    lengths = measure.length(starts, ends)
    return np.cumsum(lengths) - lengths


def covered_before(points: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                   prefix: np.ndarray, measure: Measure) -> np.ndarray:
    """Length of the merged intervals that lies before each point.

    ``starts``/``ends`` are sorted and disjoint (from :func:`union`), ``prefix`` from
    :func:`prefix_lengths`. The difference of two calls measures an intersection:
    ``|A n [a, b)| = covered_before(b) - covered_before(a)``, for any ``a <= b``.
    """
    points = np.asarray(points, dtype=np.int64)
    i = np.searchsorted(starts, points, side="right") - 1
    inside = i >= 0
    j = np.where(inside, i, 0)
    if len(starts) == 0:
        return np.zeros(len(points), dtype=np.int64)
    partial = measure.length(starts[j], np.clip(points, starts[j], ends[j]))
    return np.where(inside, prefix[j] + partial, 0)


def overlapping_pairs(span_start: np.ndarray, span_end: np.ndarray,
                      chunk_start: np.ndarray, chunk_end: np.ndarray,
                      *, closed: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Every (span, chunk) pair that shares at least one position, as two index arrays.

    Positions are on one :class:`Line` (so chunks and spans of different documents never
    meet). With ``closed=True`` a chunk that only touches a span (one ends where the
    other starts) counts as well: Chroma's test, kept only to reproduce its numbers.

    The chunks that can overlap ``[s, e)`` start after ``s - L`` and before ``e``,
    ``L`` being the longest chunk: one ``searchsorted`` gives that range for every
    span, and the ranges are expanded and filtered in one pass. Pairs come sorted by
    span, then by chunk start.
    """
    if len(span_start) == 0 or len(chunk_start) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    order = np.argsort(chunk_start, kind="stable")
    sorted_start, sorted_end = chunk_start[order], chunk_end[order]
    longest = int((sorted_end - sorted_start).max())
    if closed:
        lo = np.searchsorted(sorted_start, span_start - longest, side="left")
        hi = np.searchsorted(sorted_start, span_end, side="right")
    else:
        lo = np.searchsorted(sorted_start, span_start - longest, side="right")
        hi = np.searchsorted(sorted_start, span_end, side="left")
    counts = np.maximum(hi - lo, 0)
    span = np.repeat(np.arange(len(span_start)), counts)
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    candidate = np.repeat(lo, counts) + offsets
    reaches = sorted_end[candidate]
    keep = reaches >= span_start[span] if closed else reaches > span_start[span]
    return span[keep], order[candidate[keep]]
