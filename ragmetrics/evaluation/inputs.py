"""Turn every accepted shape of run and qrels into flat columns, checked once.

Runs: a DataFrame with ``query_id``, ``doc_id`` and ``score`` (or ``rank``), a mapping
``{query_id: [doc ids in rank order]}`` or ``{query_id: {doc_id: score}}``.
Qrels: a DataFrame with ``query_id``, ``doc_id`` and ``relevance``, a mapping
``{query_id: {doc_id: grade}}`` or ``{query_id: set of relevant ids}``.

Ids are compared as strings after a check that both sides hold the same kind of id:
``"42"`` (str) against ``42`` (int) is an error, never a silent zero overlap.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import InputError, InputTypeError, InputValueError, RankOrderWarning
from ..validation import (
    EXACT_FLOAT_INTEGERS,
    check_grade,
    first_inexact_integer,
    inexact_integer_problem,
)
from .ranking import rank_rows


@dataclass
class Columns:
    """Row-aligned columns: ``value`` is the score (run) or the grade (qrels).

    Ids keep their own kind (all str or all int) and container (a pandas Series, so Arrow
    strings stay in Arrow): the engine hashes them where it needs to, and never converts
    millions of ids to Python strings.
    """

    query: pd.Series
    doc: pd.Series
    value: np.ndarray  # float64
    query_kind: str | None  # None: no ids, or not checked yet
    # Queries given with no rows at all ({"q2": set()} or {"q2": []}): present, but empty.
    bare_queries: list = field(default_factory=list)
    # False for a run frame: its query ids are checked by the engine, once per query.
    # Doc ids of frames are always checked by the engine, as it hashes them, and only in
    # the rows it reads (ten million doc ids are ten million scattered objects).
    queries_checked: bool = True
    # A run's name: the run_name (or run_id) of its last row, as trec_eval's runid.
    run_name: str | None = None
    # The column ``value`` came from ("score", "rank", "relevance"); None for a mapping.
    value_column: str | None = None


def _missing_column(frame: pd.DataFrame, column: str, what: str, hint: str = "") -> None:
    if column not in frame.columns:
        have = ", ".join(map(repr, frame.columns)) or "none"
        raise InputValueError(f"{what} has no column {column!r}{hint} (columns: {have})")


def id_kind(ids: pd.Series, column: str, what: str, rows: np.ndarray | None = None):
    """'str' or 'int' for a column of ids (None if empty); raise on a missing or odd id.

    ``rows`` maps positions in ``ids`` to the row numbers named in errors (when ``ids`` is
    a selection of a frame's rows). One pass over the ids when they are all fine.
    """
    if not len(ids):  # an empty column, of whatever dtype (pandas makes [] float64)
        return None
    dtype = ids.dtype
    if pd.api.types.is_integer_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
        return "int" if len(ids) else None
    if dtype != object and pd.api.types.is_string_dtype(dtype):
        kind = "string"  # a string dtype can hold missing values, nothing else
        _check_present(ids, column, what, rows)
    else:
        # skipna=False: a None or NaN among the ids makes the answer "mixed".
        kind = pd.api.types.infer_dtype(ids, skipna=False)
    if kind in ("string", "integer"):
        return ("str" if kind == "string" else "int") if len(ids) else None
    if kind == "empty":
        return None
    _check_present(ids, column, what, rows)
    sample = next((v for v in ids if not isinstance(v, str) and not _is_int(v)), ids.iloc[0])
    raise InputTypeError(
        f"{what} column {column!r} must hold ids that are all str or all int; "
        f"found {sample!r} ({type(sample).__name__})"
    )


def _check_present(ids: pd.Series, column: str, what: str, rows: np.ndarray | None) -> None:
    missing = ids.isna().to_numpy()
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        row = i if rows is None else int(rows[i])
        raise InputValueError(f"{what} column {column!r} has a missing id in row {row}")


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _plain_ids(column: pd.Series) -> pd.Series:
    """The ids of a frame's column, with a fresh index; categories become their values."""
    column = column.reset_index(drop=True)
    if isinstance(column.dtype, pd.CategoricalDtype):  # e.g. from Parquet dictionaries
        column = column.astype(column.cat.categories.dtype)
    if not len(column) and column.dtype != object:  # [] is float64 in pandas: no ids
        column = column.astype(object)
    return column


def _numbers(values: pd.Series, column: str, what: str, query: pd.Series, doc: pd.Series):
    dtype = values.dtype
    try:
        if dtype == np.float64:  # the usual scores: the frame's own array, not a copy
            out = values.to_numpy()
        else:
            out = pd.to_numeric(values, errors="raise").to_numpy(np.float64)
    except OverflowError:  # a Python int beyond the float range
        i = next((i for i, v in enumerate(values)
                  if _whole(v) is not None and not _exact_in_a_float(_whole(v))), 0)
        raise InputValueError(
            f"{what} column {column!r}: query {query.iloc[i]!r}, doc {doc.iloc[i]!r}: "
            f"{values.iloc[i]!r} is beyond the range of a float") from None
    except (TypeError, ValueError):
        bad = pd.to_numeric(values, errors="coerce").isna() & values.notna()
        i = int(np.flatnonzero(bad.to_numpy())[0]) if bad.any() else 0
        raise InputTypeError(
            f"{what} column {column!r} must be numeric; query {query.iloc[i]!r}, "
            f"doc {doc.iloc[i]!r} has {values.iloc[i]!r}"
        ) from None
    nan = np.isnan(out)
    if nan.any():
        i = int(np.flatnonzero(nan)[0])
        raise InputValueError(
            f"{what} column {column!r} is missing a value for query {query.iloc[i]!r}, "
            f"doc {doc.iloc[i]!r}"
        )
    if what == "run" and dtype != np.float64:  # whole numbers that a float cannot hold
        i = first_inexact_integer(out, lambda row: _whole(values.iloc[row]))
        if i is not None:
            raise InputValueError(
                f"run column {column!r}: query {query.iloc[i]!r}, doc {doc.iloc[i]!r}: "
                + inexact_integer_problem(column, _whole(values.iloc[i])))
    if what == "qrels" and not np.isfinite(out).all():
        # An infinite score still ranks (first or last); an infinite grade has no DCG.
        i = int(np.flatnonzero(~np.isfinite(out))[0])
        raise InputValueError(
            f"qrels column {column!r} must hold finite grades; query {query.iloc[i]!r}, "
            f"doc {doc.iloc[i]!r} has {values.iloc[i]!r}"
        )
    return out


def _whole(value) -> int | None:
    """``value`` as an int if it is a whole number given as an int (Python's, NumPy's),
    else None (a float is a float as given)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def _exact_in_a_float(whole: int) -> bool:
    if abs(whole) <= EXACT_FLOAT_INTEGERS:
        return True
    try:
        return int(float(whole)) == whole
    except OverflowError:  # beyond the float range
        return False


def _from_frame(frame: pd.DataFrame, value_columns: tuple[str, ...], what: str, *,
                check_queries: bool = True, ties: str = "trec_eval") -> Columns:
    _missing_column(frame, "query_id", what)
    _missing_column(frame, "doc_id", what)
    value_column = next((c for c in value_columns if c in frame.columns), None)
    if value_column is None:
        hint = " (or " + " or ".join(repr(c) for c in value_columns[1:]) + ")"
        _missing_column(frame, value_columns[0], what, hint if len(value_columns) > 1 else "")
    query = _plain_ids(frame["query_id"])
    doc = _plain_ids(frame["doc_id"])
    q_kind = id_kind(query, "query_id", what) if check_queries else None
    value = _numbers(frame[value_column].reset_index(drop=True), value_column, what, query, doc)
    if value_column == "rank":
        value = -value  # rank 1 is best: sort by -rank as by a score
    if what == "run" and value_column == "score" and "rank" in frame.columns:
        try:
            ranks = _numbers(frame["rank"].reset_index(drop=True), "rank", what, query, doc)
        except InputError:  # a rank column that is not one: ignored, as ranks are
            ranks = None
        if ranks is not None:
            _warn_if_ranks_disagree(query, doc, ranks, value, ties)
    run_name = None
    name_column = next((c for c in ("run_name", "run_id") if c in frame.columns), None)
    if what == "run" and name_column is not None and len(frame):
        run_name = str(frame[name_column].iloc[-1])
    return Columns(query, doc, value, q_kind, queries_checked=check_queries, run_name=run_name,
                   value_column=value_column)


def _warn_if_ranks_disagree(query: pd.Series, doc: pd.Series, rank: np.ndarray,
                            score: np.ndarray, ties: str) -> None:
    """Warn when the scores (which decide) order a query's docs otherwise than the ranks.

    In rank order, a score that rises is a disagreement; so is a pair of tied scores
    that the tie rule puts the other way round (``"trec_eval"``: doc id descending;
    ``"input_order"``: row order). The optimistic and pessimistic rules order ties by
    relevance: they are bounds, not orders a rank column could state.
    """
    ranked = rank_rows(query, -rank, None)  # grouped by query, rank 1 first
    rows, block = ranked.rows, ranked.block
    if len(rows) < 2:
        return
    s = score[rows]
    same = block[1:] == block[:-1]
    wrong = same & (s[1:] > s[:-1])
    tied = np.flatnonzero(same & (s[1:] == s[:-1]))
    if len(tied) and ties == "trec_eval":
        above = doc.take(rows[tied]).astype(str).to_numpy(dtype=object)
        below = doc.take(rows[tied + 1]).astype(str).to_numpy(dtype=object)
        wrong[tied] |= above < below
    elif len(tied) and ties == "input_order":
        wrong[tied] |= rows[tied] > rows[tied + 1]
    if not wrong.any():
        return
    first = int(np.argmax(wrong))
    n_queries = len(np.unique(block[1:][wrong]))
    a, b = rows[first], rows[first + 1]
    q, doc_a, doc_b = query.iloc[a], doc.iloc[a], doc.iloc[b]
    if s[first + 1] > s[first]:
        why = (f"{doc_b!r} (rank {rank[b]:g}) has a higher score than {doc_a!r} "
               f"(rank {rank[a]:g}): {score[b]:g} > {score[a]:g}")
    else:
        rule = "doc id descending" if ties == "trec_eval" else "row order"
        why = (f"{doc_a!r} (rank {rank[a]:g}) and {doc_b!r} (rank {rank[b]:g}) have the "
               f"same score, {score[a]:g}, and the tie rule ({ties}: {rule}) puts "
               f"{doc_b!r} first")
    warnings.warn(
        f"the run's rank column disagrees with its scores on {n_queries} "
        f"{'query' if n_queries == 1 else 'queries'} (query {q!r}: {why}); the scores "
        "decide, as in trec_eval; to rank by the rank column, pass order_by='rank' "
        "(in the command: --order-by rank)",
        RankOrderWarning,
        stacklevel=5,  # the caller of evaluate()
    )


def run_columns(run, *, order_by: str = "score", ties: str = "trec_eval") -> Columns:
    """Columns of a run: ``value`` is a score (higher is better).

    A frame with both ``score`` and ``rank`` is ordered by ``order_by``; ordered by
    score, a :class:`~ragmetrics.RankOrderWarning` says where the ranks disagree.
    """
    if isinstance(run, pd.DataFrame):
        # Ids are checked by the engine (see Columns.queries_checked).
        columns = ("score", "rank") if order_by == "score" else ("rank", "score")
        return _from_frame(run, columns, "run", check_queries=False, ties=ties)
    _require_mapping(run, "run", "a DataFrame (query_id, doc_id, score or rank), "
                     "{query_id: [doc ids in rank order]} or {query_id: {doc_id: score}}")
    queries, docs, values, bare = [], [], [], []
    for qid, ranking in run.items():
        if isinstance(ranking, Mapping):
            for doc, score in ranking.items():
                whole = _whole(score)
                if whole is not None and not _exact_in_a_float(whole):
                    raise InputValueError(f"run[{qid!r}][{doc!r}]: "
                                          + inexact_integer_problem("score", whole))
                if (isinstance(score, bool) or not isinstance(score, numbers.Real)
                        or math.isnan(score)):
                    raise InputTypeError(
                        f"run[{qid!r}][{doc!r}]: a score must be a number, got {score!r}"
                    )
                queries.append(qid)
                docs.append(doc)
                values.append(float(score))
        elif isinstance(ranking, Iterable) and not isinstance(ranking, (str, bytes)):
            ranking = list(ranking)
            queries.extend([qid] * len(ranking))
            docs.extend(ranking)
            values.extend(range(0, -len(ranking), -1))  # rank order as a falling score
        else:
            raise InputTypeError(
                f"run[{qid!r}] must be a list of doc ids in rank order or a mapping "
                f"doc_id -> score, got {ranking!r}"
            )
        if not ranking:
            bare.append(qid)
    return _from_lists(queries, docs, values, bare, "run")


def _require_mapping(value, what: str, shapes: str) -> None:
    """Refuse a ``value`` that is not a mapping (a DataFrame was read before), naming the
    ``shapes`` that ``what`` can take and the type it got."""
    if not isinstance(value, Mapping):
        raise InputTypeError(f"{what} must be {shapes}; got {type(value).__name__}")


def qrels_columns(qrels) -> Columns:
    """Columns of the judgments: ``value`` is the grade."""
    if isinstance(qrels, pd.DataFrame):
        return _from_frame(qrels, ("relevance",), "qrels")
    _require_mapping(qrels, "qrels", "a DataFrame (query_id, doc_id, relevance), "
                     "{query_id: {doc_id: grade}} or {query_id: set of relevant ids}")
    queries, docs, values, bare = [], [], [], []
    for qid, judged in qrels.items():
        if isinstance(judged, Mapping):
            try:
                items = [(doc, check_grade(g, doc)) for doc, g in judged.items()]
            except TypeError as error:
                raise InputTypeError(f"qrels[{qid!r}]: {error}") from None
        elif isinstance(judged, Iterable) and not isinstance(judged, (str, bytes)):
            items = [(doc, 1.0) for doc in dict.fromkeys(judged)]
        else:
            raise InputTypeError(
                f"qrels[{qid!r}] must be a set of relevant ids or a mapping doc_id -> grade, "
                f"got {judged!r}"
            )
        for doc, grade in items:
            queries.append(qid)
            docs.append(doc)
            values.append(grade)
        if not items:
            bare.append(qid)
    return _from_lists(queries, docs, values, bare, "qrels")


def _from_lists(queries: list, docs: list, values: list, bare: list, what: str) -> Columns:
    query = pd.Series(queries, dtype=object)
    doc = pd.Series(docs, dtype=object)
    q_kind = id_kind(pd.Series(queries + bare, dtype=object), "query_id", what)
    id_kind(doc, "doc_id", what)
    return Columns(query, doc, np.asarray(values, dtype=np.float64), q_kind, bare)


def check_same_kinds(run_kinds: tuple, qrels_kinds: tuple) -> None:
    """``"42"`` and ``42`` never match: refuse such pairs instead of scoring zero overlap.

    Each argument is ``(query kind, doc kind)``, a kind being 'str', 'int' or None.
    """
    for column, a, b in zip(("query_id", "doc_id"), run_kinds, qrels_kinds, strict=True):
        if a and b and a != b:
            raise InputTypeError(
                f"{column} is {a} in the run but {b} in the qrels, so no id would ever match. "
                f"Convert one side first, e.g. frame[{column!r}] = frame[{column!r}].astype(str)"
            )
