"""Match (query, doc) pairs of the ranked rows with the judgments, and find repeats.

A pair becomes one int64 key: the query's code in the high bits, the low bits of the
doc id's hash (Python's own ``hash``, which a ``str`` computes once and caches) in the
low bits. Keys are sorted and searched in NumPy, so each doc id object is touched about
once, and a query's keys sit together, so the searches stay in cache. Equal pairs always
get equal keys; two different pairs may share a key (a hash collision), so every match
is checked against the ids themselves, and if a collision is found the keys are rebuilt
from exact codes (``pandas.factorize``), which cannot collide.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import fast_paths
from .arrow_ids import ArrowIds, arrow_strings, hashed_doc_ids
from .inputs import id_kind
from .objects import distinct_objects


@dataclass
class Ids:
    """Doc ids as an array (Python objects, or int64 for integer columns) and their keys.

    ``at`` (when given) says where in ``values`` each row's id is: rows are taken
    (:meth:`take`) by taking their hashes and positions, never the objects, whose
    reference counts would be touched one scattered object at a time. ``group`` and
    ``distinct`` (when found) give each row's object as a number and the distinct
    objects, in address order (:func:`~ragmetrics.evaluation.objects.distinct_objects`).
    """

    values: np.ndarray
    hashes: np.ndarray  # int64
    kind: str | None = None  # "str", "int", or None when there are no ids
    at: np.ndarray | None = None
    group: np.ndarray | None = None
    distinct: np.ndarray | None = None

    @property
    def row_values(self) -> np.ndarray:
        """The id of each row, as an array."""
        return self.values if self.at is None else self.values[self.at]

    def value_at(self, rows) -> np.ndarray:
        """The ids of some rows (an int or bool array of rows, or one row)."""
        if self.at is None:
            return self.values[rows]
        return self.values[self.at[rows]]

    def move(self, rows: np.ndarray, sources: np.ndarray) -> Ids:
        """The ids with row ``rows[i]`` taking the id of row ``sources[i]`` (a few rows
        move, the rest stay: a copy of the hashes, not a gather)."""
        hashes = self.hashes.copy()
        hashes[rows] = self.hashes[sources]
        kind = np.int32 if len(hashes) < 2**31 else np.int64  # half the memory
        at = np.arange(len(hashes), dtype=kind) if self.at is None else self.at.copy()
        at[rows] = at[sources]
        return Ids(self.values, hashes, self.kind, at)

    def take(self, rows: np.ndarray, *, keep_groups: bool = False) -> Ids:
        """The ids of ``rows`` (an int or bool array), no object touched; the object
        groups only with ``keep_groups`` (only the tie rule reads them, before rows move)."""
        at = np.flatnonzero(rows) if rows.dtype == bool else rows
        if self.at is not None:
            at = self.at[at]
        if keep_groups and self.group is not None:
            return Ids(self.values, self.hashes[rows], self.kind, at, self.group[rows],
                       self.distinct)
        return Ids(self.values, self.hashes[rows], self.kind, at)


def doc_ids(column: pd.Series, what: str, rows: np.ndarray | None = None,
            against: Ids | ArrowIds | None = None) -> Ids | ArrowIds:
    """The ids of ``column``, checked, with a hash each (equal ids, equal hashes).

    ``what`` ("run" or "qrels") and ``rows`` (row numbers of a selection) name the place
    of a bad id in the error. The usual case, all ``str``, takes one pass over the ids:
    ``str.__hash__`` hashes a str and refuses anything else. Ids in Arrow are hashed from
    their bytes instead (:mod:`~ragmetrics.evaluation.arrow_ids`). ``against`` (the
    judgments' ids, when these are the run's) decides which of the two hashes to take,
    so that both sides of a match take the same.
    """
    if column.dtype.kind in "iu":
        values = column.to_numpy(np.int64)
        return Ids(values, values, "int" if len(values) else None)
    if against is None or isinstance(against, ArrowIds):
        array = arrow_strings(column)
        if array is None and isinstance(against, ArrowIds) and len(column):
            array = _as_arrow_text(column)  # hashed as the judgments' ids were
        if array is not None:
            return hashed_doc_ids(array, column, what, rows)
    values = column.to_numpy(dtype=object)  # Arrow strings become str here, rows read only
    if column.dtype == object:
        try:
            return _str_ids(values)
        except TypeError:  # not all str: find out what, and say where
            pass
    kind = id_kind(column, "doc_id", what, rows)
    return Ids(values, np.fromiter(map(hash, values), np.int64, len(values)), kind)


def _str_ids(values: np.ndarray) -> Ids:
    """Ids that are all ``str`` (else TypeError), hashed by ``str.__hash__``.

    Each distinct object is hashed once, in address order, when the rows share objects
    (:func:`~ragmetrics.evaluation.objects.distinct_objects`): hashing ten million rows
    one scattered object at a time costs seconds, mostly in cache misses.
    """
    kind = "str" if len(values) else None
    found = distinct_objects(values) if fast_paths.ENABLED else None
    if found is None:
        return Ids(values, np.fromiter(map(str.__hash__, values), np.int64, len(values)), kind)
    group, distinct = found
    hashes = np.fromiter(map(str.__hash__, distinct), np.int64, len(distinct))
    return Ids(values, hashes[group], kind, group=group, distinct=distinct)


def _as_arrow_text(column: pd.Series):
    """Python ``str`` ids as Arrow strings (None if they are not all ``str``)."""
    import pyarrow as pa

    try:
        return pa.array(column.to_numpy(dtype=object), pa.large_string())
    except (pa.ArrowTypeError, pa.ArrowInvalid):
        return None  # not all str: the check below finds what, and says where


def exact_codes(first: Ids, second: Ids) -> tuple[Ids, Ids]:
    """Replace hashes by codes from one hash table over both: equal ids iff equal codes."""
    a, b = first.row_values, second.row_values
    codes, _ = pd.factorize(np.concatenate([np.asarray(a, dtype=object),
                                            np.asarray(b, dtype=object)]))
    codes = codes.astype(np.int64)
    return Ids(a, codes[: len(a)]), Ids(b, codes[len(a):])


class HashCollision(Exception):
    """Two different (query, doc) pairs share a key: redo the join with exact codes."""


def pair_keys(query: np.ndarray, hashes: np.ndarray, n_queries: int) -> np.ndarray:
    """``query`` (codes 0..n_queries-1) in the high bits, the hash's low bits below.

    Low bits, so that small ints and exact codes keep all of theirs (exact keys).
    """
    hash_bits = 63 - max(int(n_queries - 1).bit_length(), 1)
    keys = hashes & np.int64((1 << hash_bits) - 1)
    keys |= np.left_shift(query, hash_bits, dtype=np.int64)
    return keys


def _same_pair(q1, d1, q2, d2) -> np.ndarray:
    return (q1 == q2) & np.asarray(d1 == d2, dtype=bool)


@dataclass
class Judgments:
    """Judged pairs sorted by key, ready for lookups."""

    keys: np.ndarray  # sorted
    order: np.ndarray  # position in the qrels of each sorted key
    query: np.ndarray  # in qrels order
    docs: Ids
    grades: np.ndarray
    n_queries: int
    filter: np.ndarray | None = None  # see _doc_filter

    @classmethod
    def build(cls, query: np.ndarray, docs: Ids, grades: np.ndarray, n_queries: int):
        """The sorted judgments and the position of a repeated pair (-1 if none)."""
        keys = pair_keys(query, docs.hashes, n_queries)
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        judgments = cls(keys, order, query, docs, grades, n_queries)
        repeated = np.flatnonzero(keys[1:] == keys[:-1])
        if len(repeated):
            a, b = order[repeated], order[repeated + 1]
            if not _same_pair(query[a], docs.value_at(a), query[b], docs.value_at(b)).all():
                raise HashCollision
            return judgments, int(b.min())
        return judgments, -1

    def _doc_filter(self) -> np.ndarray:
        """True at the low bits of each judged doc's hash (at least 8 slots a doc)."""
        if self.filter is None:
            size = 1 << max(int(8 * len(self.keys) - 1).bit_length(), 10)
            self.filter = np.zeros(size, dtype=bool)
            self.filter[self.docs.hashes & (size - 1)] = True
        return self.filter

    def gains_of(self, query: np.ndarray, docs: Ids) -> np.ndarray:
        """The grade of each (query, doc) pair where it is positive, else 0.

        A grade of 0 or below counts as no grade at all: it adds no gain and never reaches
        ``relevance_level`` (which is > 0), so the metrics that do not tell judged from
        unjudged docs score such a doc as an unjudged one. Only positive matches are
        verified against the ids, then: the common case, as fast as can be.
        """
        return self.grades_of(query, docs, every_grade=False)[0]

    def grades_of(self, query: np.ndarray, docs: Ids, *,
                  every_grade: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
        """(grade, judged) of each (query, doc) pair: its grade (0 if unjudged) and
        whether the judgments have it at all, grade 0 and below included.

        With ``every_grade=False``, only positive grades are looked up (others read 0)
        and ``judged`` is None.
        """
        grades = np.zeros(len(query))
        judged = np.zeros(len(query), dtype=bool) if every_grade else None
        if not len(self.keys) or not len(query):
            return grades, judged
        # Most rows' docs are judged for no query at all: a table of the judged docs'
        # hash bits (small enough to stay in cache) rules them out, and only the rows
        # left are keyed and searched.
        rows = np.arange(len(query))
        if fast_paths.ENABLED:
            doc_filter = self._doc_filter()
            rows = np.flatnonzero(doc_filter[docs.hashes & (len(doc_filter) - 1)])
        keys = pair_keys(query[rows], docs.hashes[rows], self.n_queries)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        found = self.keys[at] == keys
        hit, j = rows[found], self.order[at[found]]
        if not every_grade:
            positive = self.grades[j] > 0
            hit, j = hit[positive], j[positive]
        if not _same_pair(self.query[j], self.docs.value_at(j), query[hit], docs.value_at(hit)).all():
            raise HashCollision
        grades[hit] = self.grades[j]
        if judged is not None:
            judged[hit] = True
        return grades, judged


def repeats(query: np.ndarray, docs: Ids, n_queries: int) -> np.ndarray:
    """Positions of rows whose (query, doc) pair appeared in an earlier row, ascending."""
    keys = pair_keys(query, docs.hashes, n_queries)
    in_order = np.sort(keys)
    if not (in_order[1:] == in_order[:-1]).any():
        return np.zeros(0, np.int64)  # the common case, without an argsort
    del in_order
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    equal = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])
    if not len(equal):
        return equal
    # A later copy is equal to its run's first row; find that first row for each.
    first_of_run = np.maximum.accumulate(np.where(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]],
                                                  np.arange(len(keys)), 0))
    a, b = order[first_of_run[equal + 1]], order[equal + 1]
    if not _same_pair(query[a], docs.value_at(a), query[b], docs.value_at(b)).all():
        raise HashCollision
    return np.sort(b)
