"""Runs as retrieval tools write them: BEIR results, LlamaIndex retrieval evaluations and
OpenInference (Arize Phoenix) spans.

Each reader takes a file (compressed or not, a pipe read once) or the object the tool
hands back in Python, and returns the run shape of :func:`~ragmetrics.io.read_run`
(``query_id``, ``doc_id`` as text, then ``rank`` and/or ``score``), so that the run goes
straight into :func:`ragmetrics.evaluate`:

- :func:`read_beir_results`: ``{query_id: {doc_id: score}}``, the dict BEIR's
  ``EvaluateRetrieval.retrieve`` returns and users save with ``json.dump``;
- :func:`read_llamaindex_results`: the ``RetrievalEvalResult`` records of LlamaIndex's
  ``RetrieverEvaluator.aevaluate_dataset``, dumped with ``model_dump()``, with the
  judgments they carry (``expected_ids``);
- :func:`read_openinference_spans`: spans exported from Arize Phoenix or any
  OpenInference instrumentation, whose ``RETRIEVER`` spans hold the ranking.

The last two return a :class:`ToolRun`: the run with what came with it (the judgments,
the query texts, the records that were not rankings). ``read_run(path, format="beir")``
(``"llamaindex"``, ``"openinference"``) returns the run alone.

JSON files are read whole; an error names the file and the line where the record (the
span, the evaluation result, BEIR's query) begins, since JSON has no line for a value
nested inside it. Nothing is guessed: a document without an id, a score that is not a
number, a query ranked twice, a query text that names no query is a
:class:`~ragmetrics.FormatError` naming it.
"""

from __future__ import annotations

import bisect
import json
import math
import numbers
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, takewhile

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FormatError, InputTypeError, InputValueError
from ..validation import check_choice
from .arrow import arrow_array, memory_pool, text_series
from .checks import Bad, Column, check_ids, id_problem
from .source import (
    ReadOnce,
    is_stream,
    open_source,
    path_name,
    read_once,
    without_compression_suffix,
)

__all__ = [
    "RUN_LAYOUTS",
    "ToolRun",
    "read_beir_results",
    "read_llamaindex_results",
    "read_openinference_spans",
    "read_run_layout",
]

#: The tools' layouts :func:`~ragmetrics.io.read_run` reads by ``format=``.
RUN_LAYOUTS = ("beir", "llamaindex", "openinference")

_DUPLICATES = ("keep", "error")
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SURROGATES = re.compile("[\ud800-\udfff]")
_FLAT_DOCUMENT = re.compile(r"retrieval\.documents\.([0-9]+)\.(.+)", re.DOTALL)


@dataclass(frozen=True, eq=False)
class ToolRun:
    """A run read from a retrieval tool's output, with what came with it.

    Attributes
    ----------
    run : pandas.DataFrame
        ``query_id``, ``doc_id`` (text) and ``rank`` (int64, 1 is best) and/or ``score``
        (float64): the shape of :func:`~ragmetrics.io.read_run`.
    qrels : pandas.DataFrame or None
        ``query_id``, ``doc_id``, ``relevance`` (int64, 1): the judgments the records
        carry (LlamaIndex's ``expected_ids``), or None when the layout has none.
    queries : pandas.DataFrame
        ``query_id, text``: each ranked query and its text, in the order read.
    skipped : int
        Records that hold no ranking and were passed over (spans of another kind than
        ``RETRIEVER``); 0 for the other layouts.
    format : str
        ``"llamaindex"`` or ``"openinference"``.
    path : str
        The file as the caller named it, or what was passed (``"<list>"``,
        ``"<DataFrame>"``...) for objects in memory.
    """

    run: pd.DataFrame
    qrels: pd.DataFrame | None
    queries: pd.DataFrame
    skipped: int
    format: str
    path: str

    def __repr__(self) -> str:
        n = self.run["query_id"].nunique()
        judged = "" if self.qrels is None else f", {len(self.qrels)} judgments"
        skipped = f", {self.skipped} records skipped" if self.skipped else ""
        return (f"ToolRun({self.format!r} from {self.path!r}: {n} queries, "
                f"{len(self.run)} results{judged}{skipped})")


# -- JSON read with the line each record starts on ------------------------------------


class _Json:
    """A JSON text and the lines of its positions (1-based, ``\\n`` ends a line)."""

    def __init__(self, text: str, name: str) -> None:
        self.text, self.name = text, name
        self._found_breaks: list[int] | None = None
        self._last = (0, 1)  # a position and its line, for line() reading on from it
        self._decoder = json.JSONDecoder(object_pairs_hook=_no_repeated_keys)

    @property
    def _breaks(self) -> list[int]:
        """Where each ``\\n`` is, found when a line is first asked for (an error's)."""
        if self._found_breaks is None:
            self._found_breaks = [m.start() for m in re.finditer("\n", self.text)]
        return self._found_breaks

    def line(self, pos: int) -> int:
        if self._found_breaks is None and pos >= self._last[0]:  # reading on: count on
            line = self._last[1] + self.text.count("\n", self._last[0], pos)
            self._last = (pos, line)
            return line
        return bisect.bisect_left(self._breaks, pos) + 1

    def line_text(self, line: int) -> str:
        start = 0 if line == 1 else self._breaks[line - 2] + 1
        end = self._breaks[line - 1] if line - 1 < len(self._breaks) else len(self.text)
        return self.text[start:end]

    def error(self, reason: str, line: int | None) -> FormatError:
        text = None if line is None else self.line_text(line)
        return FormatError(reason, path=self.name, line=line, text=text)

    def skip(self, pos: int) -> int:
        return _WHITESPACE.match(self.text, pos).end()

    def value(self, pos: int) -> tuple[object, int]:
        try:
            return self._decoder.raw_decode(self.text, pos)
        except json.JSONDecodeError as error:
            raise self.error(f"not valid JSON: {error.msg} (column {error.colno})",
                             error.lineno) from None
        except _RepeatedKey as repeated:
            raise self.error(f"the key {repeated.key!r} appears twice in one JSON object; "
                             "which one is meant cannot be told", self.line(pos)) from None

    def expect(self, pos: int, characters: str, what: str) -> int:
        if pos >= len(self.text) or self.text[pos] not in characters:
            found = "the end of the file" if pos >= len(self.text) else repr(self.text[pos])
            raise self.error(f"not valid JSON: expected {what}, found {found}", self.line(pos))
        return pos + 1

    def records(self) -> Iterator[tuple[int, object]]:
        """Each top-level value, and each item of a top-level array, with its line: JSON
        Lines, a JSON array, or JSON values one after another (pretty-printed spans)."""
        pos = self.skip(0)
        while pos < len(self.text):
            if self.text[pos] == "[":
                pos = self.skip(pos + 1)
                more = not self.text.startswith("]", pos)
                pos += 0 if more else 1
                while more:
                    line = self.line(pos)
                    item, pos = self.value(pos)
                    yield line, item
                    pos = self.expect(self.skip(pos), ",]", "',' or ']' after an array item")
                    more = self.text[pos - 1] == ","
                    pos = self.skip(pos)
            else:
                line = self.line(pos)
                item, pos = self.value(pos)
                yield line, item
            pos = self.skip(pos)

    def members(self) -> Iterator[tuple[int, str, object]]:
        """The (line, key, value) of each member of the one top-level object."""
        pos = self.skip(0)
        if pos >= len(self.text):
            raise self.error("the file holds no JSON: expected an object "
                             "{query_id: {doc_id: score}}", None)
        if self.text[pos] != "{":
            value, _ = self.value(pos)
            raise self.error("expected one JSON object {query_id: {doc_id: score}}, got "
                             f"{_kind(value)}", self.line(pos))
        pos = self.skip(pos + 1)
        if self.text.startswith("}", pos):
            pos += 1
        else:
            while True:
                line = self.line(pos)
                if not self.text.startswith('"', pos):
                    self.expect(pos, '"', "a query id in double quotes")
                key, pos = self.value(pos)
                pos = self.skip(self.expect(self.skip(pos), ":", "':' after the query id"))
                line = self.line(pos) if self.text.startswith("{", pos) else line
                value, pos = self.value(pos)
                yield line, key, value
                pos = self.expect(self.skip(pos), ",}", "',' or '}' after a query's results")
                if self.text[pos - 1] == "}":
                    break
                pos = self.skip(pos)
        rest = self.skip(pos)
        if rest < len(self.text):
            raise self.error("not valid JSON: more data after the object", self.line(rest))


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _no_repeated_keys(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return out


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()}, a boolean"
    if isinstance(value, (list, tuple, np.ndarray)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return f"{_shown(value)}, a {'string' if isinstance(value, str) else type(value).__name__}"


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_path(source) -> bool:
    return isinstance(source, (str, os.PathLike, ReadOnce)) or is_stream(source)


def _json_file(source) -> _Json:
    source = read_once(source)
    text = open_source(source).normalized
    return _Json(text, path_name(source))


# -- the checks every layout shares ---------------------------------------------------


class _Place:
    """Where a record is, for its errors: a file and line, or an object and an item."""

    def __init__(self, name: str, unit: str = "line", json: _Json | None = None) -> None:
        self.name, self.unit, self.json = name, unit, json

    def error(self, reason: str, line: int | None) -> FormatError:
        if self.json is not None:
            return self.json.error(reason, line)
        return FormatError(reason, path=self.name, line=line, unit=self.unit)


def _id(value, where: str, place: _Place, line: int | None) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    problem = id_problem(value, where)
    if problem is not None:
        raise place.error(problem, line)
    return value if isinstance(value, str) else str(int(value))


def _score(value, where: str, place: _Place, line: int | None) -> float:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, str):
        problem = f"must be a number, got {value!r}, a string; write numbers without quotes"
    elif isinstance(value, bool) or not isinstance(value, numbers.Real):
        problem = f"must be a number, got {_kind(value)}"
    else:
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if math.isfinite(number):
            return number
        problem = f"must be a finite number, got {_shown(value)}"
    raise place.error(f"{where}: the score {problem}", line)


def _run_frame(queries: list, docs: list, ranks: list | None, scores: list | None
               ) -> pd.DataFrame:
    out = {"query_id": _texts(queries), "doc_id": _texts(docs)}
    if ranks is not None:
        out["rank"] = np.asarray(ranks, dtype=np.int64)
    if scores is not None:
        out["score"] = np.asarray(scores, dtype=np.float64)
    return pd.DataFrame(out)


def _texts(values: list[str]) -> pd.Series:
    """``pd.Series(values, dtype=str)``, through Arrow's jemalloc pool (faster)."""
    try:
        return text_series(pa.array(values, pa.large_string(), memory_pool=memory_pool()))
    except (UnicodeError, pa.ArrowException):  # a lone surrogate: as pandas has it
        return pd.Series(values, dtype=str)


def _queries_frame(ids: list, texts: list) -> pd.DataFrame:
    return pd.DataFrame({"query_id": pd.Series(ids, dtype=str),
                         "text": pd.Series(texts, dtype=str)})


class _QueryIds:
    """Query texts to ids: ``queries`` as a frame ``query_id, text`` (a Dataset's), a
    mapping ``{query_id: text}`` (an EmbeddingQAFinetuneDataset's ``queries``), or an
    object with a ``queries`` attribute (a :class:`~ragmetrics.io.Dataset`)."""

    def __init__(self, queries) -> None:
        if hasattr(queries, "queries") and not isinstance(queries, (Mapping, pd.DataFrame)):
            queries = queries.queries
        if isinstance(queries, pd.DataFrame):
            missing = [c for c in ("query_id", "text") if c not in queries.columns]
            if missing:
                raise InputValueError(
                    f"queries must have the columns 'query_id' and 'text' (as a Dataset's "
                    f"queries); it has no {missing[0]!r} (columns: {list(queries.columns)})")
            pairs = zip(queries["query_id"].tolist(), queries["text"].tolist(), strict=True)
        elif isinstance(queries, Mapping):
            pairs = queries.items()
        else:
            raise InputTypeError(
                "queries must be a DataFrame with columns 'query_id' and 'text', a mapping "
                f"{{query_id: text}} or a Dataset, got {type(queries).__name__}")
        self._ids: dict[str, list[str]] = {}
        for query_id, text in pairs:
            self._ids.setdefault(text, []).append(str(query_id))

    def __len__(self) -> int:
        return len(self._ids)

    def of(self, text, place: _Place, line: int | None, what: str) -> str:
        ids = self._ids.get(text)
        if ids is None:
            raise place.error(f"{what} {_shown(text)} is the text of no query among the "
                              f"{len(self)} given in queries=", line)
        if len(ids) > 1:
            named = ", ".join(repr(i) for i in ids[:5]) + (", ..." if len(ids) > 5 else "")
            raise place.error(f"{what} {_shown(text)} is the text of {len(ids)} queries "
                              f"({named}); which one was asked cannot be told", line)
        return ids[0]


def _refuse_second_ranking(seen: dict, query_id: str, here: str, place: _Place,
                           line: int | None, hint: str) -> None:
    if query_id in seen:
        raise place.error(f"query {query_id!r} is ranked twice, {seen[query_id]} and {here}; "
                          f"a run ranks each query once{hint}", line)
    seen[query_id] = here


def _refuse_repeated_doc(docs: list[str], start: int, query_id: str, what: str,
                         place: _Place, line: int | None) -> None:
    """A doc twice in one ranking (docs[start:]): an error naming both positions."""
    first: dict[str, int] = {}
    for position, doc in enumerate(docs[start:], start=1):
        if doc in first:
            raise place.error(
                f"query {query_id!r} lists doc {doc!r} twice ({what} {first[doc]} and "
                f"{position}); a ranking lists each doc once (to keep the highest-ranked "
                "copy: duplicates='keep' here, then duplicates='keep_first' in evaluate)",
                line)
        first[doc] = position


# -- BEIR -----------------------------------------------------------------------------


def read_beir_results(source, *, duplicates: str = "keep") -> pd.DataFrame:
    """Read BEIR's retrieval results: ``{query_id: {doc_id: score}}``.

    ``EvaluateRetrieval.retrieve`` (and every BEIR search class) returns this dict, the
    top ``k`` docs of each query with their scores; BEIR's examples save it with
    ``json.dump`` or write it as a TREC run (``beir.util.save_runfile``, read that with
    ``format="trec"``: it writes rank 0 on every line and lets the score decide, as
    trec_eval does).

    A JSON object has no order of its own for the docs: the **score decides**. The rows
    of each query are sorted by score, highest first, and tied docs keep the order the
    file lists them in (the order ``save_runfile`` writes them in). No ``rank`` column
    is made up: ``ragmetrics.evaluate`` orders by the score, and its ``ties``
    convention decides the order of tied docs (``"trec_eval"``, the default, puts the
    larger doc id first, as pytrec_eval, which BEIR's ``evaluate`` calls, does).

    Parameters
    ----------
    source : str, os.PathLike or dict
        A JSON file (compressed or not), or the dict itself.
    duplicates : {"keep", "error"}, default "keep"
        Accepted as :func:`~ragmetrics.io.read_run` takes it; a doc can be listed only
        once per query in this layout (a doc twice in one JSON object is always an error,
        since Python's ``json`` would keep the last score silently).

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``doc_id`` (text) and ``score`` (float64), the queries in file
        order. A query with ``{}`` (nothing retrieved) has no rows:
        :func:`ragmetrics.evaluate` reports it as missing from the run.

    Raises
    ------
    FormatError
        For a file that is not one JSON object of objects, an id that is empty or not a
        string, a query listed twice, or a score that is not a finite number (naming the
        query and the doc, and the line where the query's results begin).

    Notes
    -----
    BEIR's ``EvaluateRetrieval.evaluate`` drops a doc whose id equals its query's id by
    default (``ignore_identical_ids=True``, for data sets such as ArguAna and Quora whose
    queries are documents too). This reader keeps every doc; drop them before
    evaluating to reproduce BEIR's numbers on those data sets.

    Examples
    --------
    >>> read_beir_results({"q1": {"d1": 0.5, "d2": 0.9, "d3": 0.5}, "q2": {}})
      query_id doc_id  score
    0       q1     d2    0.9
    1       q1     d1    0.5
    2       q1     d3    0.5
    """
    check_choice(duplicates, _DUPLICATES, "duplicates")
    if _is_path(source):
        data = _json_file(source)
        try:
            fast = _beir_columns(json.loads(data.text, object_pairs_hook=_no_repeated_keys))
        except (ValueError, _RepeatedKey, RecursionError):
            fast = None
        if fast is not None:
            return fast
        place = _Place(data.name, json=data)
        members = data.members()
    elif isinstance(source, Mapping):
        fast = _beir_columns(source)
        if fast is not None:
            return fast
        place = _Place("<dict>", unit="query")
        members = ((None, key, value) for key, value in source.items())
    else:
        raise InputTypeError("BEIR results must be a path or a dict {query_id: {doc_id: "
                             f"score}}, got {type(source).__name__}")
    queries: list[str] = []
    docs: list[str] = []
    scores: list[float] = []
    seen: dict[str, str] = {}
    for line, key, results in members:
        query_id = _id(key, "query_id", place, line)
        here = "here" if line is None else f"on line {line}"
        _refuse_second_ranking(seen, query_id, here, place, line, "")
        if not isinstance(results, Mapping):
            raise place.error(f"query {query_id!r}: expected an object {{doc_id: score}}, got "
                              f"{_kind(results)}", line)
        ranked = []
        for doc, value in results.items():
            doc_id = _id(doc, f"a doc id of query {query_id!r}", place, line)
            ranked.append((_score(value, f"query {query_id!r}, doc {doc_id!r}", place, line),
                           doc_id))
        ranked.sort(key=lambda pair: -pair[0])  # stable: ties as the file lists them
        queries.extend([query_id] * len(ranked))
        docs.extend(doc for _, doc in ranked)
        scores.extend(score for score, _ in ranked)
    return _run_frame(queries, docs, None, scores)


_NUMBER_TYPES = frozenset((float, int))


def _beir_columns(data) -> pd.DataFrame | None:
    """The run of BEIR results parsed already, column at a time; None when a value is
    not as it should be (the record-by-record reader then finds it and says where).

    Every value is looked at by C code (``map``, ``set``, NumPy, Arrow), not by a Python
    loop: a query's results are a dict, and its docs and scores are gathered with
    ``itertools.chain``.
    """
    if type(data) is not dict or not data:
        return None
    results = list(data.values())
    query_ids = list(data)
    if set(map(type, results)) != {dict} or set(map(type, query_ids)) != {str}:
        return None
    if any(id_problem(q, "query_id") is not None for q in query_ids):
        return None
    docs = list(chain.from_iterable(results))
    values = list(chain.from_iterable(map(dict.values, results)))
    if not docs:
        return _run_frame([], [], None, [])
    if set(map(type, docs)) != {str} or not set(map(type, values)) <= _NUMBER_TYPES:
        return None
    try:
        scores = np.array(values, dtype=np.float64)  # an int past 1e308: OverflowError
        doc_ids = check_ids(Column("doc_id", text_series(
            pa.array(docs, pa.large_string(), memory_pool=memory_pool())), typed=True))
    except (OverflowError, UnicodeError, pa.ArrowException):  # a lone surrogate
        return None
    del docs, values
    if isinstance(doc_ids, Bad) or not np.isfinite(scores).all():
        return None
    sizes = np.fromiter(map(len, results), dtype=np.int64, count=len(results))
    query = np.repeat(np.arange(len(results), dtype=np.int64), sizes)
    rising = scores[1:] > scores[:-1]  # a score above the one before: to sort, unless
    rising &= query[1:] == query[:-1]  # the two are of different queries
    queries = pa.array(query_ids, pa.large_string(), memory_pool=memory_pool())
    if rising.any():  # highest score first; ties keep the file's order (a stable sort)
        # NumPy sorts complex numbers by their real part, then their imaginary part: one
        # stable sort by (query, -score), three times as fast as np.lexsort's two.
        order = np.argsort(query + 1j * -scores, kind="stable")
        scores, query = scores[order], query[order]
        stored = arrow_array(doc_ids)  # None with pandas' object strings (pandas 2)
        doc_ids = (doc_ids.take(order).reset_index(drop=True) if stored is None
                   else text_series(pc.take(stored, order, memory_pool=memory_pool())))
    return pd.DataFrame({"query_id": text_series(pc.take(queries, query,
                                                         memory_pool=memory_pool())),
                         "doc_id": doc_ids, "score": scores})


# -- LlamaIndex -----------------------------------------------------------------------


def _plain_record(record):
    """A pydantic RetrievalEvalResult as its dump; anything else as it is."""
    if hasattr(record, "model_dump"):
        return record.model_dump()
    if hasattr(record, "dict") and not isinstance(record, Mapping):
        return record.dict()
    return record


def _records(source, what: str) -> tuple[_Place, Iterator[tuple[int | None, object]]]:
    """A layout's records with their lines: a JSON or JSON Lines file (a Parquet file
    for spans), a list of records, or a DataFrame."""
    if _is_path(source):
        name = without_compression_suffix(path_name(source)).suffix.lower() \
            if not isinstance(source, ReadOnce) else ""
        if name in (".parquet", ".pq"):
            return _frame_records(pd.read_parquet(source), path_name(source))
        data = _json_file(source)
        return _Place(data.name, json=data), data.records()
    if isinstance(source, pd.DataFrame):
        return _frame_records(source, "<DataFrame>")
    if isinstance(source, (list, tuple)):
        return (_Place("<list>", unit="item"),
                ((i, _plain_record(r)) for i, r in enumerate(source, start=1)))
    raise InputTypeError(f"{what} must be a path, a list of records or a DataFrame, got "
                         f"{type(source).__name__}")


def _frame_records(frame: pd.DataFrame, name: str):
    columns = list(frame.columns)
    index_name = frame.index.name

    def rows():
        for number, (index, values) in enumerate(zip(frame.index, frame.itertuples(
                index=False, name=None), strict=True), start=1):
            record = {c: v for c, v in zip(columns, values, strict=True) if not _absent(v)}
            if index_name and index_name not in record:
                record[index_name] = index
            yield number, record

    return _Place(name, unit="row"), rows()


def _absent(value) -> bool:
    """None, or a missing value of a frame's cell (NaN, NA); never a list."""
    if value is None:
        return True
    if isinstance(value, (list, tuple, dict, np.ndarray, str)):
        return False
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def read_llamaindex_results(source, *, queries=None, duplicates: str = "keep") -> ToolRun:
    """Read LlamaIndex retrieval evaluations: the run they hold, and their judgments.

    ``RetrieverEvaluator.aevaluate_dataset`` returns one ``RetrievalEvalResult`` per
    query, whose ``model_dump()`` (``.dict()`` in older versions) is a record
    ``{"query", "expected_ids", "expected_texts", "retrieved_ids", "retrieved_texts",
    "mode", "metric_dict"}``. The run is ``retrieved_ids`` in the retriever's order
    (rank 1 first); the judgments are ``expected_ids`` (relevance 1), so that the file
    alone can be evaluated. Other keys are ignored.

    **Query ids.** A record has the query's text and no id. The text is the query id,
    unless ``queries`` says which id each text has: the ``queries`` of the
    ``EmbeddingQAFinetuneDataset`` that was evaluated (``{query_id: text}``), or the
    ``queries`` frame of the :class:`~ragmetrics.io.Dataset` read from it, so that the
    run pairs with that data set's judgments.

    Parameters
    ----------
    source : str, os.PathLike, list or pandas.DataFrame
        A JSON file (an array of records), a JSON Lines file (one record per line),
        compressed or not; or the records: dicts, ``RetrievalEvalResult`` objects, or a
        frame with one row per record.
    queries : pandas.DataFrame, Mapping or Dataset, optional
        ``query_id, text`` (a Dataset's ``queries``), ``{query_id: text}``, or a
        :class:`~ragmetrics.io.Dataset`. A record's text must be the text of exactly one
        query.
    duplicates : {"keep", "error"}, default "keep"
        A doc listed twice in ``retrieved_ids``: kept (the ``duplicates`` convention of
        :func:`ragmetrics.evaluate` decides), or refused, naming both positions.

    Returns
    -------
    ToolRun
        ``run``: ``query_id, doc_id, rank``; ``qrels``: ``query_id, doc_id, relevance``;
        ``queries``: ``query_id, text``. A record with no ``retrieved_ids`` has no run
        rows (the query is reported as missing from the run); one with no
        ``expected_ids`` has no judgments.

    Raises
    ------
    FormatError
        Naming the file and the line of the record (the item, in a list): a record that
        is not an object or lacks ``query``, ``expected_ids`` or ``retrieved_ids``; an id
        that is null, empty or not a string; a doc expected twice; two records for one
        query; a text that is no query's, or two queries' (with ``queries``).

    Examples
    --------
    >>> records = [{"query": "Who wrote it?", "expected_ids": ["n2"],
    ...             "retrieved_ids": ["n7", "n2"], "metric_dict": {}}]
    >>> result = read_llamaindex_results(records, queries={"q1": "Who wrote it?"})
    >>> result.run
      query_id doc_id  rank
    0       q1     n7     1
    1       q1     n2     2
    >>> result.qrels
      query_id doc_id  relevance
    0       q1     n2          1
    """
    check_choice(duplicates, _DUPLICATES, "duplicates")
    ids = None if queries is None else _QueryIds(queries)
    place, records = _records(source, "LlamaIndex results")
    run_q: list[str] = []
    run_d: list[str] = []
    ranks: list[int] = []
    qrels_q: list[str] = []
    qrels_d: list[str] = []
    query_ids: list[str] = []
    texts: list[str] = []
    seen: dict[str, str] = {}
    for line, record in records:
        record = _plain_record(record)
        if not isinstance(record, Mapping):
            raise place.error("expected a RetrievalEvalResult record, an object with "
                              f"'query', 'expected_ids' and 'retrieved_ids', got {_kind(record)}",
                              line)
        for key in ("query", "expected_ids", "retrieved_ids"):
            if key not in record or record[key] is None:
                raise place.error(f"the record has no {key!r} (a LlamaIndex "
                                  "RetrievalEvalResult has 'query', 'expected_ids' and "
                                  "'retrieved_ids')", line)
        text = record["query"]
        if not isinstance(text, str) or not text:
            raise place.error(f"'query' must be the query's text, got {_kind(text)}", line)
        query_id = text if ids is None else ids.of(text, place, line, "query")
        here = f"{place.unit} {line}"
        hint = "" if ids is not None else " (the query text is the query id)"
        _refuse_second_ranking(seen, query_id, here, place, line, hint)
        query_ids.append(query_id)
        texts.append(text)
        retrieved = _id_list(record["retrieved_ids"], "retrieved_ids", place, line)
        expected = _id_list(record["expected_ids"], "expected_ids", place, line)
        if duplicates == "error":
            _refuse_repeated_doc(retrieved, 0, query_id, "positions", place, line)
        if len(set(expected)) != len(expected):
            doc = next(d for i, d in enumerate(expected) if d in expected[:i])
            raise place.error(f"query {query_id!r}: expected_ids lists {doc!r} twice; a "
                              "judgment names each doc once", line)
        run_q.extend([query_id] * len(retrieved))
        run_d.extend(retrieved)
        ranks.extend(range(1, len(retrieved) + 1))
        qrels_q.extend([query_id] * len(expected))
        qrels_d.extend(expected)
    qrels = pd.DataFrame({"query_id": pd.Series(qrels_q, dtype=str),
                          "doc_id": pd.Series(qrels_d, dtype=str),
                          "relevance": np.ones(len(qrels_q), dtype=np.int64)})
    return ToolRun(_run_frame(run_q, run_d, ranks, None), qrels,
                   _queries_frame(query_ids, texts), 0, "llamaindex", place.name)


def _id_list(values, key: str, place: _Place, line: int | None) -> list[str]:
    if isinstance(values, np.ndarray):
        values = values.tolist()
    if not isinstance(values, (list, tuple)):
        raise place.error(f"{key!r} must be a list of ids, got {_kind(values)}", line)
    return [_id(value, f"{key}[{i}]", place, line) for i, value in enumerate(values)]


# -- OpenInference spans --------------------------------------------------------------


def _lookup(obj, key: str):
    """``obj[key]`` for a dotted OpenInference key, written flat (``"input.value"``),
    nested (``{"input": {"value": ...}}``) or partly both (Phoenix's frames keep
    ``"retrieval.documents"`` whole and nest below it). None when absent."""
    if not isinstance(obj, Mapping):
        return None
    if key in obj:
        return obj[key]
    parts = key.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        head = ".".join(parts[:cut])
        if isinstance(obj.get(head), Mapping):
            found = _lookup(obj[head], ".".join(parts[cut:]))
            if found is not None:
                return found
    return None


def _otlp_value(value):
    """An OTLP JSON ``AnyValue`` (``{"stringValue": ...}``) as a Python value."""
    if not isinstance(value, Mapping):
        return value
    for kind in ("stringValue", "doubleValue", "boolValue"):
        if kind in value:
            return value[kind]
    if "intValue" in value:
        return int(value["intValue"])  # int64 is written as a string in OTLP JSON
    if "arrayValue" in value:
        return [_otlp_value(v) for v in value["arrayValue"].get("values", [])]
    if "kvlistValue" in value:
        return {kv["key"]: _otlp_value(kv.get("value")) for kv in
                value["kvlistValue"].get("values", [])}
    return None


def _span_records(place: _Place, records) -> Iterator[tuple[int | None, Mapping]]:
    """Spans, whatever holds them: Phoenix's REST answer ``{"data": [...]}`` and OTLP
    JSON ``{"resourceSpans": [...]}`` are opened; a span is yielded as it is."""
    for line, record in records:
        if isinstance(record, Mapping) and isinstance(record.get("data"), list) \
                and "attributes" not in record:
            for span in record["data"]:
                yield line, span
        elif isinstance(record, Mapping) and "resourceSpans" in record:
            for resource in record["resourceSpans"] or []:
                for scope in resource.get("scopeSpans") or []:
                    for span in scope.get("spans") or []:
                        yield line, span
        else:
            yield line, record


def _span_fields(span: Mapping) -> tuple[object, object, dict]:
    """(span id, trace id, attributes) of a span in any of the shapes read."""
    context = span.get("context") if isinstance(span.get("context"), Mapping) else {}
    span_id = next((v for v in (context.get("span_id"), span.get("context.span_id"),
                                span.get("span_id"), span.get("spanId")) if v is not None),
                   None)
    trace_id = next((v for v in (context.get("trace_id"), span.get("context.trace_id"),
                                 span.get("trace_id"), span.get("traceId")) if v is not None),
                    None)
    attributes = span.get("attributes")
    if isinstance(attributes, list):  # OTLP JSON: [{"key": ..., "value": {...}}]
        attributes = {a.get("key"): _otlp_value(a.get("value")) for a in attributes
                      if isinstance(a, Mapping)}
    elif not isinstance(attributes, Mapping):  # a frame's row: "attributes.<key>" columns
        attributes = {k[len("attributes."):]: v for k, v in span.items()
                      if isinstance(k, str) and k.startswith("attributes.")}
    return span_id, trace_id, dict(attributes)


def _documents(attributes: Mapping) -> list | None:
    """The span's retrieved documents in their order, a list of mappings (or None for a
    document with no keys at all); [] when there are none."""
    listed = _lookup(attributes, "retrieval.documents")
    if isinstance(listed, np.ndarray):
        listed = listed.tolist()
    if isinstance(listed, (list, tuple)):
        return list(listed)
    indexed: dict[int, object] = {}
    if isinstance(listed, Mapping):  # {"0": {...}, "1": {...}}: indices as keys, nested
        for k, v in listed.items():
            if isinstance(k, int) or (isinstance(k, str) and k.isdigit()):
                indexed[int(k)] = v
    for key, value in attributes.items():
        match = _FLAT_DOCUMENT.fullmatch(key) if isinstance(key, str) else None
        if match is not None:
            document = indexed.setdefault(int(match.group(1)), {})
            if isinstance(document, dict):
                document[match.group(2)] = value
    if not indexed:
        return []
    return [indexed.get(i) for i in range(max(indexed) + 1)]


def _parent_id(span: Mapping):
    """The id of the span's parent (``parent_id``, OTLP's ``parentSpanId``), or None."""
    context = span.get("context") if isinstance(span.get("context"), Mapping) else {}
    return next((v for v in (span.get("parent_id"), span.get("parentSpanId"),
                             context.get("parent_id")) if v not in (None, "")), None)


def _lists_documents(attributes: Mapping) -> bool:
    """Whether a span's attributes name a retrieved document, flat or nested."""
    listed = _lookup(attributes, "retrieval.documents")
    if listed is not None:
        return not isinstance(listed, (list, tuple, Mapping, np.ndarray)) or len(listed) > 0
    return any(isinstance(key, str) and key.startswith("retrieval.documents.")
               for key in attributes)


_FIELDS = ("id", "score", "content", "metadata")
_FLAT_KEYS: dict[str, list[str]] = {field: [] for field in _FIELDS}
_NONE = type(None)


def _flat_keys(n: int) -> dict[str, list[str]]:
    """``retrieval.documents.N.document.<field>`` for N up to at least ``n``, by field."""
    have = len(_FLAT_KEYS["id"])
    for index in range(have, 2 * n + 64 if have <= n else have):
        for field in _FIELDS:
            _FLAT_KEYS[field].append(f"retrieval.documents.{index}.document.{field}")
    return _FLAT_KEYS


def _flat_documents(attributes: dict) -> tuple[list[str], list] | None:
    """The doc ids and scores (None for each when there are none) of a span whose
    documents are written flat, ``retrieval.documents.N.document.id`` with ``.score``,
    ``.content`` and ``.metadata``, for N = 0, 1, ..., and whose ids and scores are
    good; None for any other span (the document-by-document reading decides, and words
    its errors).

    The keys, ids and scores are looked at by C code (``str.count``, ``map``,
    ``itertools.takewhile``), not one at a time by a Python loop.
    """
    try:
        named = "\n".join(attributes)
    except TypeError:  # a key that is not text
        return None
    listed = named.count("retrieval.documents.")
    if not listed or "retrieval.documents" in attributes or "retrieval" in attributes:
        return None
    keys = _flat_keys(listed)
    n = len(list(takewhile(attributes.__contains__, keys["id"][:listed + 1])))
    if n + sum(sum(map(attributes.__contains__, keys[field][:n]))
               for field in _FIELDS[1:]) != listed:
        return None  # a document without an id, or a key of another kind
    docs = list(map(attributes.__getitem__, keys["id"][:n]))
    if set(map(type, docs)) != {str} or not all(docs) or list(map(str.strip, docs)) != docs:
        return None
    if not "".join(docs).isascii() and _SURROGATES.search("".join(docs)):
        return None
    found = list(map(attributes.get, keys["score"][:n]))
    kinds = set(map(type, found))
    if kinds == {_NONE}:
        return docs, found
    try:
        if kinds <= _NUMBER_TYPES and all(map(math.isfinite, found)):
            return docs, found
    except OverflowError:  # an integer past 1e308
        pass
    return None


def read_openinference_spans(source, *, queries=None, query_id: str | None = None,
                             key: str = "id", scores: str = "keep",
                             duplicates: str = "keep") -> ToolRun:
    """Read the rankings of the ``RETRIEVER`` spans in an OpenInference trace export.

    OpenInference instruments retrievers (LlamaIndex, LangChain, Haystack...) with a
    span of ``openinference.span.kind == "RETRIEVER"`` whose attributes hold the query,
    ``input.value``, and the documents retrieved, in order:
    ``retrieval.documents.N.document.id``, ``.document.score``, ``.document.content``,
    ``.document.metadata``. The document at index ``N`` has rank ``N + 1``. Spans of any
    other kind are skipped and counted (:attr:`ToolRun.skipped`), and so is a
    ``RETRIEVER`` span that lists no document when its parent is a ``RETRIEVER`` span or
    when another ``RETRIEVER`` span of its trace lists documents: LlamaIndex's
    instrumentation writes two spans for each ``retrieve`` call,
    ``VectorIndexRetriever.retrieve`` with the documents and the query text, around
    ``VectorIndexRetriever._retrieve`` with neither (its ``input.value`` is the call's
    arguments as JSON). Any other ``RETRIEVER`` span with no document is a query that
    retrieved nothing.

    The spans may come as any of the shapes the tools write, one span per record:

    - the OpenTelemetry SDK's JSON (``span.to_json()``, the console exporter):
      ``context.trace_id``, ``context.span_id``, flat ``attributes``;
    - Phoenix's REST API (``client.spans.get_spans``, ``{"data": [...]}`` answers):
      the kind in ``span_kind``, flat attributes;
    - Phoenix's JSON (``span_to_json``, trace fixtures): nested attributes,
      ``{"retrieval": {"documents": [{"document": {"id": ...}}]}}``;
    - Phoenix's spans frame (``get_spans_dataframe``, or its Parquet file): columns
      ``context.span_id``, ``context.trace_id``, ``span_kind``,
      ``attributes.input.value`` and ``attributes.retrieval.documents``, a list of
      ``{"document.id": ..., "document.score": ...}`` per span;
    - OTLP JSON (``{"resourceSpans": [...]}``, ``{"key", "value": {"stringValue"}}``).

    **Query ids.** By default a span's query is its trace (``query_id="trace"``): one
    question per trace, as a RAG application traces one request. ``query_id="span"``
    takes the span's id (a trace that retrieves several times); ``"input"`` the query
    text itself. ``queries`` maps the text to the ids of a data set (as
    :func:`read_llamaindex_results` does), so the run pairs with its judgments.

    Parameters
    ----------
    source : str, os.PathLike, list or pandas.DataFrame
        A JSON Lines, JSON or Parquet file (compressed or not), or the spans: dicts, or
        the frame ``get_spans_dataframe`` returns.
    queries : pandas.DataFrame, Mapping or Dataset, optional
        ``query_id, text``, ``{query_id: text}`` or a Dataset: ``input.value`` must be
        the text of exactly one query.
    query_id : {"trace", "span", "input"}, optional
        What a span's query id is when ``queries`` is not given; ``"trace"`` by default.
    key : {"id", "content"}, default "id"
        What identifies a document: its ``document.id``, or its ``document.content``
        (for retrievers that record no id).
    scores : {"keep", "ignore"}, default "keep"
        ``"keep"``: a ``score`` column when every document has a ``document.score``
        (none is fine too: ranks alone); a document without one among documents with
        one is an error. ``"ignore"``: ranks alone.
    duplicates : {"keep", "error"}, default "keep"
        A doc twice in one span: kept (evaluate's ``duplicates`` convention decides),
        or refused, naming both indices.

    Returns
    -------
    ToolRun
        ``run``: ``query_id, doc_id, rank`` and ``score`` when kept; ``qrels``: None;
        ``queries``: ``query_id, text`` (``input.value``); ``skipped``: the spans of
        other kinds. The score decides in :func:`ragmetrics.evaluate` (its
        ``order_by``), and it warns when the scores order docs otherwise than the ranks.

    Raises
    ------
    FormatError
        Naming the file and line (the row of a frame or Parquet file) where the span
        begins: a document without an id (its span id and index), a score that is not a
        number, a span without a trace id (or span id), two spans for one query, a text
        that is no query's or two queries'.

    Examples
    --------
    >>> spans = [
    ...     {"context": {"trace_id": "t1", "span_id": "s1"},
    ...      "attributes": {"openinference.span.kind": "RETRIEVER", "input.value": "Who?",
    ...                     "retrieval.documents.0.document.id": "d4",
    ...                     "retrieval.documents.0.document.score": 0.8,
    ...                     "retrieval.documents.1.document.id": "d1",
    ...                     "retrieval.documents.1.document.score": 0.5}},
    ...     {"context": {"trace_id": "t1", "span_id": "s0"},
    ...      "attributes": {"openinference.span.kind": "LLM"}}]
    >>> result = read_openinference_spans(spans)
    >>> result.run
      query_id doc_id  rank  score
    0       t1     d4     1    0.8
    1       t1     d1     2    0.5
    >>> result.skipped
    1
    """
    check_choice(key, ("id", "content"), "key")
    check_choice(scores, ("keep", "ignore"), "scores")
    check_choice(duplicates, _DUPLICATES, "duplicates")
    if queries is not None and query_id not in (None, "input"):
        raise InputValueError(f"queries= maps each span's input text to a query id; "
                              f"query_id={query_id!r} cannot be used with it")
    mode = check_choice("trace" if query_id is None else query_id,
                        ("trace", "span", "input"), "query_id")
    ids = None if queries is None else _QueryIds(queries)
    place, records = _records(source, "OpenInference spans")
    run_q: list[str] = []
    run_d: list[str] = []
    ranks: list[int] = []
    found_scores: list[float | None] = []
    query_ids: list[str] = []
    texts: list[str] = []
    seen: dict[str, str] = {}
    skipped = 0
    field = f"document.{key}"
    deferred = []  # RETRIEVER spans that list no document: kept unless inside a retrieval
    traces_with_documents: set = set()
    retriever_ids: set = set()
    order: list[int] = []  # each query's span among the spans read, for the queries frame

    def query_of(line, span_id, trace_id, text) -> tuple[str, str]:
        """The span's query id and its name in messages, checked."""
        if span_id is None:
            raise place.error("a RETRIEVER span has no span id (context.span_id)", line)
        span_id = _id(span_id, "the span id", place, line)
        name = f"span {span_id!r}"
        if mode == "input" and not (isinstance(text, str) and text):
            raise place.error(f"RETRIEVER {name} has no query text (input.value), got "
                              f"{_kind(text)}", line)
        if ids is not None:
            this = ids.of(text, place, line, f"the query of RETRIEVER {name},")
        elif mode == "trace":
            if trace_id is None:
                raise place.error(f"RETRIEVER {name} has no trace id (context.trace_id); "
                                  "query_id='span' takes the span id", line)
            this = _id(trace_id, f"the trace id of {name}", place, line)
        else:
            this = span_id if mode == "span" else text
        hint = (" (query_id='trace': one retrieval per trace; query_id='span' takes each "
                "span's id)" if mode == "trace" and ids is None else "")
        _refuse_second_ranking(seen, this, name, place, line, hint)
        query_ids.append(this)
        texts.append(text if isinstance(text, str) else "")
        return this, name

    for number, (line, span) in enumerate(_span_records(place, records)):
        if not isinstance(span, Mapping):
            raise place.error(f"expected a span (a JSON object), got {_kind(span)}", line)
        span_id, trace_id, attributes = _span_fields(span)
        kind = _lookup(attributes, "openinference.span.kind") or span.get("span_kind")
        if not isinstance(kind, str) or kind.upper() != "RETRIEVER":
            skipped += 1
            continue
        if isinstance(span_id, (str, int)):
            retriever_ids.add(span_id)
        text = _lookup(attributes, "input.value")
        if not _lists_documents(attributes):
            deferred.append((number, line, span_id, trace_id, _parent_id(span), text))
            continue
        if isinstance(trace_id, (str, int)):
            traces_with_documents.add(trace_id)
        this, name = query_of(line, span_id, trace_id, text)
        order.append(number)
        start = len(run_d)
        flat = _flat_documents(attributes) if key == "id" else None
        if flat is not None:  # the usual span: every document checked at once
            docs, found = flat
            run_q.extend([this] * len(docs))
            run_d.extend(docs)
            ranks.extend(range(1, len(docs) + 1))
            found_scores.extend([None] * len(docs) if scores == "ignore" else found)
        for index, document in enumerate(_documents(attributes) if flat is None else ()):
            value = _lookup(document, field) if document is not None else None
            if _absent(value):
                hint = ("; key='content' takes the text as the id" if key == "id" else "")
                raise place.error(f"RETRIEVER {name}: document {index} has no {field}{hint}",
                                  line)
            where = f"RETRIEVER {name}, document {index}"
            if key == "content" and isinstance(value, str) and value:
                doc = value  # a text, spaces and all: not checked as an id
            else:
                doc = _id(value, f"{where}: {field}", place, line)
            score = _lookup(document, "document.score")
            run_q.append(this)
            run_d.append(doc)
            ranks.append(index + 1)
            found_scores.append(None if _absent(score) or scores == "ignore"
                                else _score(score, where, place, line))
        if duplicates == "error":
            _refuse_repeated_doc(run_d, start, this, "documents", place, line)
    for number, line, span_id, trace_id, parent, text in deferred:
        if ((isinstance(parent, (str, int)) and parent in retriever_ids)
                or (isinstance(trace_id, (str, int)) and trace_id in traces_with_documents)):
            skipped += 1  # a call inside a retrieval (LlamaIndex's _retrieve in retrieve)
            continue
        query_of(line, span_id, trace_id, text)  # a query that retrieved nothing
        order.append(number)
    if deferred:  # the queries in the order of their spans
        query_ids, texts = ([v for _, v in sorted(zip(order, values, strict=True))]
                            for values in (query_ids, texts))
    have = [s is not None for s in found_scores]
    if any(have) and not all(have):
        row = have.index(False) if have[0] else have.index(True)
        raise place.error(
            f"query {run_q[row]!r}: doc {run_d[row]!r} (rank {ranks[row]}) has "
            f"{'no' if have[0] else 'a'} document.score, while {run_d[0]!r} (query "
            f"{run_q[0]!r}) has {'one' if have[0] else 'none'}; scores='ignore' reads the "
            "ranks alone", None)
    run = _run_frame(run_q, run_d, ranks, found_scores if have and all(have) else None)
    return ToolRun(run, None, _queries_frame(query_ids, texts), skipped, "openinference",
                   place.name)


# -- read_run's entry -----------------------------------------------------------------


def read_run_layout(source, format: str, *, duplicates: str = "keep") -> pd.DataFrame:
    """The run of ``source`` in a tool's layout (``format``, one of :data:`RUN_LAYOUTS`),
    as :func:`~ragmetrics.io.read_run` returns it; the readers' defaults otherwise.

    Examples
    --------
    >>> read_run_layout({"q1": {"d1": 2.0}}, "beir")
      query_id doc_id  score
    0       q1     d1    2.0
    """
    check_choice(format, RUN_LAYOUTS, "format")
    if format == "beir":
        return read_beir_results(source, duplicates=duplicates)
    if format == "llamaindex":
        return read_llamaindex_results(source, duplicates=duplicates).run
    return read_openinference_spans(source, duplicates=duplicates).run
