"""Subtopic judgments: which docs are relevant to which facet (subtopic) of each query.

The diversity measures (:mod:`ragmetrics.diversity`) judge a doc per subtopic, not per
query: TREC's Web track qrels give each (topic, subtopic, doc) a judgment. They come in
three forms, all read into one :class:`SubtopicJudgments`:

- ndeval's 4-field file, ``topic subtopic docno judgment``
  (:func:`ragmetrics.diversity.read_ndeval_qrels`);
- a table with a ``subtopic`` column beside ``query_id``, ``doc_id`` and ``relevance``
  (or ``judgment``, ndeval's name for it);
- ir_measures' convention: TREC qrels whose second field, the ``iteration``, holds the
  subtopic (``read_trec_qrels`` keeps it as the ``iteration`` column), or pyndeval's
  ``(query_id, subtopic_id, doc_id, relevance)`` tuples.

A doc is relevant to a subtopic when its judgment is at least ``relevance_level`` (1):
ndeval reads judgments above 1 as 1 (its measures are binary) and refuses negative ones
(``negative="error"``); pyndeval reads them as not relevant (``negative="nonrelevant"``).
A subtopic no doc is relevant to is ignored (ndeval's "actual subtopics"); a query with
judgments but no relevant doc is still a judged query.

Examples
--------
>>> import pandas as pd
>>> frame = pd.DataFrame({"query_id": ["1", "1", "1"], "subtopic": ["a", "b", "b"],
...                       "doc_id": ["A", "B", "D"], "relevance": [1, 2, 1]})
>>> j = subtopic_judgments(frame)
>>> j.queries, j.subtopics
(('1',), ('a', 'b'))
>>> j.docs_by_subtopic("1")
{'a': ['A'], 'b': ['B', 'D']}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InputTypeError, InputValueError
from ..evaluation.arrow_ids import arrow_strings
from ..evaluation.engine import natural_order

__all__ = ["SubtopicJudgments", "subtopic_judgments", "text_codes"]

_ORDERS = ("sorted", "first_seen")


@dataclass(frozen=True, eq=False)
class SubtopicJudgments:
    """Judgments per subtopic: the relevant (query, subtopic, doc) triples, the judged
    queries, and the order the measures add subtopics in.

    Attributes
    ----------
    queries : tuple of str
        Every judged query, relevant docs or not, in natural order (``"2"`` before
        ``"10"``).
    relevant : pandas.DataFrame
        One row per relevant (``query_id``, ``subtopic``, ``doc_id``), all str; the
        subtopics of a query in :attr:`subtopics` order, then doc ids sorted.
    subtopics : tuple of str
        Every subtopic with a relevant doc, in the order the measures add a doc's gains
        over its subtopics: natural order (ndeval: by number), or the order they first
        appear in any judgment (pyndeval). The order changes nothing but the last bit
        of a sum.
    """

    queries: tuple
    relevant: pd.DataFrame
    subtopics: tuple
    _coded: tuple | None = field(default=None, repr=False)
    _memo: dict = field(default_factory=dict, repr=False)

    def coded(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, pa.Array]:
        """The relevant triples as codes, sorted by query, subtopic, doc: (query, subtopic,
        doc, doc names). The query is a position in :attr:`queries`, the subtopic one in
        :attr:`subtopics`, the doc one in ``doc names``, the relevant docs in byte order
        (C's ``strcmp``, ndeval's order) as Arrow strings."""
        if self._coded is None:
            query = pd.Index(self.queries, dtype=object).get_indexer(
                self.relevant["query_id"].to_numpy(dtype=object))
            subtopic = pd.Index(self.subtopics, dtype=object).get_indexer(
                self.relevant["subtopic"].to_numpy(dtype=object))
            if (query < 0).any() or (subtopic < 0).any():
                raise InputValueError("a relevant triple's query or subtopic is not among "
                                      "the judgments' queries and subtopics")
            codes, names = text_codes(self.relevant["doc_id"])
            by = pc.sort_indices(names).to_numpy()
            doc = _inverse(by)[codes]
            order = np.lexsort((doc, subtopic, query))
            object.__setattr__(self, "_coded", (query[order].astype(np.int64),
                                                subtopic[order].astype(np.int64),
                                                doc[order], names.take(pa.array(by))))
        return self._coded

    def matrix(self) -> tuple:
        """Every judged query's relevance matrix, built once: ``(num_subtopics,
        subtopic_docs, doc_query, doc, doc_rel)``.

        ``num_subtopics[q]``: S, the query's subtopics with a relevant doc, numbered 0..S-1
        in :attr:`subtopics` order; ``subtopic_docs[q, j]``: the docs relevant to its j-th
        (MAP-IA's denominators); and one row per relevant (query, doc), sorted by query
        then doc (byte order): its query, its doc (a position in :meth:`coded`'s names)
        and ``doc_rel[i, j]``, whether it is relevant to the j-th subtopic.
        """
        return self.cached("matrix", self._matrix)

    def cached(self, key, build):
        """``build()``, computed once per ``key`` for these judgments: what depends on
        them alone (the relevance matrix, the ideal rankings) is shared by every run
        scored against them. At most 16 keys are kept (the oldest is dropped)."""
        if key not in self._memo:
            if len(self._memo) >= 16:
                self._memo.pop(next(iter(self._memo)))
            self._memo[key] = build()
        return self._memo[key]

    def _matrix(self) -> tuple:
        query, subtopic, doc, names = self.coded()
        n, n_docs = len(self.queries), max(len(names), 1)
        pair = query * max(len(self.subtopics), 1) + subtopic
        first = np.ones(len(pair), dtype=bool)
        first[1:] = pair[1:] != pair[:-1]
        num_subtopics = np.bincount(query[first], minlength=n).astype(np.int64)
        starts = np.concatenate([[0], np.cumsum(num_subtopics)])
        column = np.cumsum(first) - 1 - starts[query]
        width = int(num_subtopics.max(initial=0))
        subtopic_docs = np.bincount(query * width + column, minlength=n * width
                                    ).astype(np.int64).reshape(n, width)
        keys = query * n_docs + doc
        order = np.argsort(keys)  # each row sets its own cell
        keys = keys[order]
        distinct = np.ones(len(keys), dtype=bool)
        distinct[1:] = keys[1:] != keys[:-1]
        unique = keys[distinct]
        doc_rel = np.zeros((len(unique), width), dtype=bool)
        doc_rel[(np.cumsum(distinct) - 1), column[order]] = True
        return (num_subtopics, subtopic_docs, unique // n_docs, unique % n_docs,
                doc_rel)

    def docs_by_subtopic(self, query_id) -> dict:
        """``{subtopic: [doc ids]}`` of one query (the per-query references' input)."""
        rows = self.relevant[self.relevant["query_id"] == str(query_id)]
        out: dict = {}
        for subtopic, doc in zip(rows["subtopic"], rows["doc_id"], strict=True):
            out.setdefault(subtopic, []).append(doc)
        return out

    def __repr__(self) -> str:
        return (f"SubtopicJudgments({len(self.queries)} queries, {len(self.subtopics)} "
                f"subtopics, {len(self.relevant)} relevant (subtopic, doc) pairs)")


def subtopic_judgments(data, *, relevance_level: float = 1, negative: str = "error",
                       subtopic_order: str = "sorted") -> SubtopicJudgments:
    """Subtopic judgments from a table or from tuples, checked once.

    Parameters
    ----------
    data : SubtopicJudgments, pandas.DataFrame or iterable of 4-tuples
        A table with ``query_id``, ``doc_id``, ``relevance`` (or ``judgment``, ndeval's
        name) and the subtopic in a ``subtopic`` column or, by ir_measures' convention, in
        ``iteration``; or tuples
        ``(query_id, subtopic, doc_id, relevance)`` (pyndeval's ``SubtopicQrel``).
    relevance_level : float, default 1
        A doc is relevant to a subtopic at a judgment of at least this.
    negative : {"error", "nonrelevant"}, default "error"
        A negative judgment: refused (ndeval) or read as not relevant (pyndeval).
    subtopic_order : {"sorted", "first_seen"}, default "sorted"
        The order of :attr:`SubtopicJudgments.subtopics`: natural order (ndeval, whose
        subtopics are numbers) or first appearance (pyndeval).

    Returns
    -------
    SubtopicJudgments

    Raises
    ------
    InputValueError
        A missing column, a judgment that is not a number, a negative one under
        ``negative="error"``, or a (query, subtopic, doc) judged twice, naming it.

    Examples
    --------
    >>> j = subtopic_judgments([("0", "a", "A", 1), ("0", "b", "B", 1), ("0", "b", "D", 1),
    ...                         ("0", "c", "C", 1), ("1", "a", "X", 0)])
    >>> j.queries, len(j.relevant)
    (('0', '1'), 4)
    >>> subtopic_judgments([("0", "a", "A", -2)])
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: query '0', subtopic 'a', doc 'A': a negative judgment (-2); ndeval refuses them (negative='nonrelevant' reads them as not relevant, as pyndeval does)
    """
    if isinstance(data, SubtopicJudgments):
        return data
    if negative not in ("error", "nonrelevant"):
        raise InputValueError(f"negative must be 'error' or 'nonrelevant', got {negative!r}")
    if subtopic_order not in _ORDERS:
        raise InputValueError(f"subtopic_order must be one of {_ORDERS}, got "
                              f"{subtopic_order!r}")
    frame = _as_frame(data)
    grades = pd.to_numeric(frame["relevance"], errors="coerce")
    bad = grades.isna() | ~np.isfinite(grades.to_numpy(dtype=np.float64, na_value=np.nan))
    if bad.any():
        at = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputValueError(f"{_where(frame, at)}: the judgment "
                              f"{frame['relevance'].iloc[at]!r} is not a finite number")
    grades = grades.to_numpy(dtype=np.float64)
    if negative == "error" and (grades < 0).any():
        at = int(np.flatnonzero(grades < 0)[0])
        raise InputValueError(
            f"{_where(frame, at)}: a negative judgment ({grades[at]:g}); ndeval refuses them "
            "(negative='nonrelevant' reads them as not relevant, as pyndeval does)")
    (q_codes, q_names), (s_codes, s_names), (d_codes, d_names) = (
        text_codes(frame[c]) for c in ("query_id", "subtopic", "doc_id"))
    sizes = [len(q_names), len(s_names), len(d_names)]
    if sizes[0] * sizes[1] * sizes[2] < 2**62:
        key = (q_codes * sizes[1] + s_codes) * sizes[2] + d_codes
        key.sort()
        repeated = bool((key[1:] == key[:-1]).any())
    else:
        repeated = True
    if repeated:
        twice = frame[["query_id", "subtopic", "doc_id"]].duplicated(keep=False).to_numpy()
        if twice.any():
            first, second = np.flatnonzero(twice)[:2]
            raise InputValueError(
                f"{_where(frame, int(second))}: judged twice (rows {first + 1} and "
                f"{second + 1}); ndeval keeps one judgment and counts both in MAP-IA")
    q_names = np.asarray(q_names.to_pylist(), dtype=object)
    q_order = natural_order(q_names)
    queries = tuple(q_names[q_order].tolist())
    rows = np.flatnonzero(grades >= relevance_level)
    # Each relevant row's query and subtopic as positions in the orders above, its doc as
    # its place among the relevant docs in byte order: one integer key sorts the rows.
    query_at = _inverse(q_order)[q_codes[rows]]
    present = _present(s_codes[rows], len(s_names))  # codes count in first-seen order
    subtopic_text = np.asarray(s_names.take(pa.array(present)).to_pylist(), dtype=object)
    by = (natural_order(subtopic_text) if subtopic_order == "sorted"
          else np.arange(len(present)))
    subtopics = tuple(subtopic_text[by].tolist())
    subtopic_at = np.full(len(s_names), -1, dtype=np.int64)
    subtopic_at[present[by]] = np.arange(len(present))
    subtopic_at = subtopic_at[s_codes[rows]]
    docs = d_codes[rows]
    docs_present = _present(docs, len(d_names))
    doc_names = d_names.take(pa.array(docs_present))
    by = pc.sort_indices(doc_names).to_numpy()  # byte order, as C's strcmp
    doc_rank = np.empty(len(d_names), dtype=np.int64)
    doc_rank[docs_present[by]] = np.arange(len(by))
    doc_at = doc_rank[docs]
    doc_names = doc_names.take(pa.array(by))
    n_s, n_d = max(len(subtopics), 1), max(len(doc_names), 1)
    if len(queries) * n_s * n_d < 2**62:
        order = np.argsort((query_at * n_s + subtopic_at) * n_d + doc_at)  # no two equal
    else:
        order = np.lexsort((doc_at, subtopic_at, query_at))
    relevant = frame.iloc[rows[order]][["query_id", "subtopic", "doc_id"]].reset_index(
        drop=True)
    coded = (query_at[order], subtopic_at[order], doc_at[order], doc_names)
    return SubtopicJudgments(queries, relevant, subtopics, _coded=coded)


def text_codes(column: pd.Series) -> tuple[np.ndarray, pa.Array]:
    """Ids as codes: each value's code (int64) and the distinct values as Arrow strings,
    in the order they first appear (numbers as their text). No Python object per row:
    a column of Arrow strings is encoded where it lies.

    >>> codes, names = text_codes(pd.Series(["b", "a", "b"]))
    >>> codes.tolist(), names.to_pylist()
    ([0, 1, 0], ['b', 'a'])
    """
    array = arrow_strings(column)
    if array is None:
        array = arrow_strings(column.astype(str))
    if array is None:  # pandas storing str without Arrow
        array = pa.array(column.astype(str).to_numpy(dtype=object), pa.large_string())
    encoded = pc.dictionary_encode(array)
    if encoded.indices.null_count:
        at = int(np.flatnonzero(encoded.indices.is_null().to_numpy(zero_copy_only=False))[0])
        raise InputValueError(f"row {at + 1}: a missing {column.name or 'id'}")
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return codes, encoded.dictionary


def _present(codes: np.ndarray, n: int) -> np.ndarray:
    """The distinct codes (of 0..n-1) in ``codes``, ascending."""
    seen = np.zeros(n, dtype=bool)
    seen[codes] = True
    return np.flatnonzero(seen)


def _inverse(order: np.ndarray) -> np.ndarray:
    """The inverse of a permutation: where each index is placed."""
    out = np.empty(len(order), dtype=np.int64)
    out[order] = np.arange(len(order))
    return out


def _as_frame(data) -> pd.DataFrame:
    if isinstance(data, pd.DataFrame):
        columns = set(data.columns)
        subtopic = "subtopic" if "subtopic" in columns else (
            "iteration" if "iteration" in columns else None)
        # ndeval calls the grade the judgment: either name, not both.
        grade = "relevance" if "relevance" in columns else (
            "judgment" if "judgment" in columns else None)
        if {"relevance", "judgment"} <= columns:
            raise InputValueError("subtopic judgments have both a relevance and a judgment "
                                  "column: keep one (they name the same grade)")
        missing = [c for c in ("query_id", "doc_id") if c not in columns]
        if subtopic is None or grade is None or missing:
            missing = missing + ([] if subtopic else ["subtopic (or iteration)"]) + (
                [] if grade else ["relevance (or judgment)"])
            raise InputValueError(
                f"subtopic judgments need the columns query_id, subtopic (or iteration, "
                f"ir_measures' convention), doc_id and relevance (or judgment, ndeval's "
                f"name); missing: {', '.join(missing)} (have: "
                f"{', '.join(map(str, data.columns))})")
        frame = pd.DataFrame({"query_id": data["query_id"], "subtopic": data[subtopic],
                              "doc_id": data["doc_id"], "relevance": data[grade]})
    elif isinstance(data, Mapping | str | bytes) or not isinstance(data, Iterable):
        raise InputTypeError(
            "subtopic judgments must be a DataFrame (query_id, subtopic or iteration, "
            "doc_id, relevance), (query_id, subtopic, doc_id, relevance) tuples or "
            f"SubtopicJudgments, got {type(data).__name__}")
    else:
        rows = list(data)
        for i, row in enumerate(rows):
            if not isinstance(row, tuple | list) or len(row) != 4:
                raise InputValueError(
                    f"judgment {i + 1} must be a (query_id, subtopic, doc_id, relevance) "
                    f"tuple, got {row!r}")
        frame = pd.DataFrame(rows, columns=["query_id", "subtopic", "doc_id", "relevance"],
                             dtype=object)
    if frame[["query_id", "subtopic", "doc_id"]].isna().any().any():
        at = int(np.flatnonzero(frame[["query_id", "subtopic", "doc_id"]].isna()
                                .any(axis=1).to_numpy())[0])
        raise InputValueError(f"judgment {at + 1}: a missing query id, subtopic or doc id "
                              f"({frame.iloc[at].tolist()!r})")
    for column in ("query_id", "subtopic", "doc_id"):
        if not pd.api.types.is_string_dtype(frame[column]) or pd.api.types.is_object_dtype(
                frame[column]):
            frame[column] = frame[column].astype(str)
    return frame.reset_index(drop=True)


def _where(frame: pd.DataFrame, at: int) -> str:
    row = frame.iloc[at]
    return (f"query {row['query_id']!r}, subtopic {row['subtopic']!r}, doc "
            f"{row['doc_id']!r}")
