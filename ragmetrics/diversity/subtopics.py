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
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputTypeError, InputValueError
from ..evaluation.engine import natural_order

__all__ = ["SubtopicJudgments", "subtopic_judgments"]

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
    codes = [pd.factorize(frame[c])[0].astype(np.int64)
             for c in ("query_id", "subtopic", "doc_id")]
    sizes = [int(c.max(initial=0)) + 1 for c in codes]
    if sizes[0] * sizes[1] * sizes[2] < 2**62:
        key = (codes[0] * sizes[1] + codes[1]) * sizes[2] + codes[2]
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
    queries = np.asarray(frame["query_id"].unique(), dtype=object)
    queries = tuple(queries[natural_order(queries)].tolist())
    relevant = frame.loc[grades >= relevance_level, ["query_id", "subtopic", "doc_id"]]
    if subtopic_order == "sorted":
        subtopics = np.asarray(relevant["subtopic"].unique(), dtype=object)
        subtopics = tuple(subtopics[natural_order(subtopics)].tolist())
    else:  # as pyndeval numbers them: by first appearance in any judgment
        kept = set(relevant["subtopic"])
        subtopics = tuple(s for s in frame["subtopic"].unique().tolist() if s in kept)
    order = np.lexsort((
        pd.factorize(relevant["doc_id"], sort=True)[0],
        pd.Index(subtopics, dtype=object).get_indexer(relevant["subtopic"].to_numpy(object)),
        pd.Index(queries, dtype=object).get_indexer(relevant["query_id"].to_numpy(object))))
    relevant = relevant.iloc[order].reset_index(drop=True)
    return SubtopicJudgments(queries, relevant, subtopics)


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
