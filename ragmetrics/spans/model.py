"""The data model of span evaluation: documents, chunks and evidence, checked once.

Three tables describe what was chunked and what answers each question. Column names
are the public API.

``documents``
    ``doc_id, text``: a DataFrame, a mapping ``{doc_id: text}``, a list of records, or
    a ``.jsonl``/``.csv``/``.tsv``/``.parquet`` file, compressed or not (read by
    :mod:`ragmetrics.io`, its cells checked by io's rules: :mod:`ragmetrics.spans.readers`).
``chunks``
    ``chunk_id, doc_id, start, end``: character offsets into the document, ``end``
    exclusive (``text[start:end]`` is the chunk). Or ``chunk_id, doc_id, text``: the
    chunk is located in its document by exact match after whitespace normalisation
    (:mod:`ragmetrics.spans.locate`); a chunk found nowhere, or more than once, is an
    error that lists every such chunk. Chunks may overlap.
``evidence``
    ``query_id, doc_id, start, end[, relevance]``: the spans that answer each question,
    graded (``relevance``; a span without one, or with an empty cell, has grade 1).
    Or ``query_id, doc_id, quote``, located like a chunk's text. A query may have
    several spans, in several documents. A row with a ``query_id`` and nothing else
    (no ``doc_id``, offsets or quote) declares a question with **no evidence** (an
    unanswerable question); so does ``{query_id: []}`` in the mapping form
    ``{query_id: [(doc_id, start, end[, relevance]), ...]}``.

``documents`` are optional when chunks and evidence come with offsets, and needed to
locate texts, to count tokens, and to check offsets against the document (without
them, an offset past a document's end cannot be seen). Every error names the bad value
and where it was: the row (in a file, the line), the chunk or query, the document and
the offsets.

A **run over chunks** (any run :func:`ragmetrics.evaluate` takes, its doc ids the chunk
ids of one chunking) is ranked by :func:`as_run`, with the evaluation's ranking and tie
rules.

Examples
--------
>>> documents = {"d1": "Refunds take 5 days. Contact billing."}
>>> chunks = as_chunks([{"chunk_id": "c1", "doc_id": "d1", "text": "Contact  billing."}],
...                    as_documents(documents))
>>> chunks.frame()
  chunk_id doc_id  start  end
0       c1     d1     21   37
>>> as_chunks([{"chunk_id": "c1", "doc_id": "d1", "start": 30, "end": 40}],
...           as_documents(documents))
Traceback (most recent call last):
...
ragmetrics.errors.InputValueError: chunks row 0 (chunk_id 'c1'): end 40 is past the end of document 'd1' (37 characters)
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import FormatError, InputTypeError, InputValueError
from ..evaluation.engine import tie_order
from ..evaluation.inputs import id_kind, run_columns
from ..evaluation.joins import Ids, repeats
from ..evaluation.ranking import groups, rank_rows
from ..io.checks import Bad, Column, check_integers
from ..metrics.ranked import ranks_within
from .locate import NormalizedText, normalize_whitespace
from .offsets import MAX_POSITION, Line
from .readers import RowOrigin, as_frame, check_grades

__all__ = [
    "Chunks",
    "Documents",
    "Evidence",
    "RankedRun",
    "as_chunks",
    "as_documents",
    "as_evidence",
    "as_run",
    "check_same_kind",
    "lay_out",
    "locate_chunks",
    "locate_evidence",
    "whole_grades",
]

# How many offending rows an error lists before "... and N more".
_LISTED = 5
# Numbers written as text (a CSV or TSV cell), as ragmetrics.io reads them: ASCII only.
_WHOLE_TEXT = re.compile(r"[+-]?[0-9]+")
_NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _require(frame: pd.DataFrame, source: RowOrigin, *columns: str) -> None:
    for column in columns:
        if column not in frame.columns:
            have = ", ".join(map(repr, frame.columns)) or "none"
            raise source.table_error(f"no column {column!r} (columns: {have})")


def _missing(values: np.ndarray) -> np.ndarray:
    """True where a cell is missing (None, NaN, pd.NA)."""
    return np.asarray(pd.isna(values), dtype=bool)


def _ids(values: np.ndarray, column: str, source: RowOrigin, *,
         allow_missing: bool = False) -> str | None:
    """'str' or 'int' for a column of ids (None if none); raise on a missing or odd id."""
    missing = _missing(values)
    if missing.any() and not allow_missing:
        raise source.error(int(np.flatnonzero(missing)[0]), f"missing {column}")
    present = values[~missing]
    if len(present) == 0:
        return None
    kinds = pd.api.types.infer_dtype(present, skipna=False)
    if kinds == "string":
        return "str"
    if kinds == "integer":
        return "int"
    is_str = np.fromiter((isinstance(v, str) for v in present), bool, len(present))
    is_int = np.fromiter((isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                          for v in present), bool, len(present))
    kind_ok = is_str if is_str.sum() >= is_int.sum() else is_int
    first_bad = int(np.flatnonzero(~missing)[np.flatnonzero(~kind_ok)[0]])
    value = values[first_bad]
    raise source.error(
        first_bad,
        f"{column} must be ids that are all str or all int; found {value!r} "
        f"({type(value).__name__})", kind=InputTypeError)


def _checked(values, rows: np.ndarray, check, column: str, source: RowOrigin) -> np.ndarray:
    """``check`` (:func:`~ragmetrics.io.checks.check_integers`, or a check of the same
    shape) of ``values`` (a list or Series: those of ``rows``), raising its first problem
    at its row."""
    series = values if isinstance(values, pd.Series) else pd.Series(values, dtype=object)
    got = check(Column(column, series, typed=True))
    if isinstance(got, Bad):
        value = series.iloc[got.row]
        a_number = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
        raise source.error(int(rows[got.row]), got.reason,
                           kind=InputValueError if a_number else InputTypeError)
    return got


def _integers(series: pd.Series, column: str, source: RowOrigin,
              missing_ok: np.ndarray | None = None) -> np.ndarray:
    """Character offsets as int64; where ``missing_ok`` holds a missing cell becomes -1.

    An offset is an integer (a whole float such as ``5.0``, as a column with a missing
    cell holds it, or text of ASCII digits such as a CSV cell ``"5"``) that fits a 64-bit
    integer (:func:`ragmetrics.io.checks.check_integers`, the file readers' rule and
    words); anything else is refused naming the row and the value, never wrapped around
    (``2**63`` read as ``-2**63``) nor left to raise a bare ``OverflowError``.
    """
    allowed = np.zeros(len(series), bool) if missing_ok is None else missing_ok
    if isinstance(series.dtype, pd.Int64Dtype):  # a file's column, checked (readers)
        missing = series.isna().to_numpy(dtype=bool)
        for row in np.flatnonzero(missing & ~allowed):
            raise source.error(int(row), f"missing {column}")
        return series.to_numpy(np.int64, na_value=-1)
    if pd.api.types.is_integer_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
            series.dtype) and not series.hasnans:
        return _checked(series.tolist(), np.arange(len(series)), check_integers, column,
                        source) if series.dtype.kind == "u" else series.to_numpy(np.int64)
    values = series.to_numpy(dtype=object)
    missing = _missing(values)
    out = np.full(len(values), -1, dtype=np.int64)
    for row in np.flatnonzero(missing & ~allowed):
        raise source.error(int(row), f"missing {column}")
    rows = np.flatnonzero(~missing)
    whole = []
    for row in rows:
        value = values[row]
        if isinstance(value, (bool, np.bool_)):
            raise source.error(int(row), f"{column} must be an integer character offset, "
                               f"got {value!r}", kind=InputTypeError)
        number = None
        if isinstance(value, (int, np.integer)):
            number = int(value)
        elif isinstance(value, str):
            text = value.strip()
            if _WHOLE_TEXT.fullmatch(text):  # ASCII digits only: not "²" nor "٣"
                number = int(text)
        elif isinstance(value, (float, np.floating)) and float(value).is_integer():
            number = int(value)
        if number is None:
            raise source.error(int(row), f"{column} must be an integer character offset, "
                               f"got {value!r}",
                               kind=InputValueError if isinstance(value, (str, float))
                               else InputTypeError)
        whole.append(number)
    out[rows] = _checked(whole, rows, check_integers, column, source)  # fits 64 bits
    return out


def _grades(values: pd.Series, source: RowOrigin, needed: np.ndarray) -> np.ndarray:
    """The grade of each row where ``needed`` (1 elsewhere), as float64, every one checked.

    A grade is a finite number (a text cell, as CSV and TSV files hold, is read as the
    number it writes, exactly) that :func:`~ragmetrics.spans.readers.check_grades`
    accepts, as a file's: held exactly by the float64 that grades are compared in, and a
    whole grade fits a 64-bit integer.
    """
    rows = np.flatnonzero(needed)
    out = np.ones(len(values), dtype=np.float64)
    if pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(
            values.dtype):  # a column of numbers: checked at once
        given = values.iloc[rows].reset_index(drop=True)
        written = None
    else:
        written = values.to_numpy(dtype=object)[rows]
        given = []
        for row, value in zip(rows, written, strict=True):
            if isinstance(value, str):  # a cell of a CSV or TSV file, or text given as such
                text = value.strip()
                if _WHOLE_TEXT.fullmatch(text):
                    value = int(text)  # exactly the number written, however long
                elif _NUMBER_TEXT.fullmatch(text) or text.lstrip("+-").lower() in (
                        "nan", "inf", "infinity"):
                    value = float(text)  # not finite: refused below, naming it
                else:
                    raise source.error(int(row), f"relevance must be a number, got "
                                       f"{value!r}", kind=InputTypeError)
            given.append(value)
    out[rows] = _checked(given, rows, lambda column: check_grades(column, written),
                         "relevance", source)
    return out


def whole_grades(grade: np.ndarray) -> np.ndarray:
    """Grades as int64 when every one is a whole number that fits, else the float64 given.

    Checked grades always fit (:func:`as_evidence` refuses the rest); the test is kept
    here so that no cast can ever turn a grade of ``1e19`` into ``-2**63``.

    >>> whole_grades(np.array([2.0, 0.0])).tolist(), whole_grades(np.array([1e19])).tolist()
    ([2, 0], [1e+19])
    """
    fits = np.isfinite(grade) & (grade == np.round(grade)) & (grade >= -(2.0**63)) & (
        grade < 2.0**63)
    return grade.astype(np.int64) if fits.all() else grade


def check_same_kind(kinds: Iterable[tuple[str, str | None]], column: str) -> str | None:
    """Refuse ids of different kinds (``"42"`` never equals ``42``) across tables.

    ``kinds`` holds ``(table name, kind)`` pairs; returns the common kind.
    """
    seen = [(what, kind) for what, kind in kinds if kind is not None]
    for what, kind in seen[1:]:
        if kind != seen[0][1]:
            raise InputTypeError(
                f"{column} is {seen[0][1]} in the {seen[0][0]} but {kind} in the {what}, so "
                f"no id would ever match; convert one side, e.g. "
                f"frame[{column!r}] = frame[{column!r}].astype(str)")
    return seen[0][1] if seen else None


def _listing(items: list[str]) -> str:
    shown = "; ".join(items[:_LISTED])
    return shown + (f"; ... and {len(items) - _LISTED} more" if len(items) > _LISTED else "")


# --- documents ------------------------------------------------------------------------


@dataclass(frozen=True)
class Documents:
    """Checked documents: ids (unique, all str or all int) and their texts."""

    ids: list
    texts: list[str]
    kind: str | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "_position", {d: i for i, d in enumerate(self.ids)})
        object.__setattr__(self, "_normalized", {})

    def __contains__(self, doc_id) -> bool:
        return doc_id in self._position

    def __len__(self) -> int:
        return len(self.ids)

    def text(self, doc_id) -> str:
        return self.texts[self._position[doc_id]]

    def length(self, doc_id) -> int:
        return len(self.text(doc_id))

    def lengths_of(self, doc_ids: np.ndarray) -> np.ndarray:
        """The length of each document named (all must be known)."""
        if "_lengths" not in self.__dict__:
            object.__setattr__(self, "_lengths", np.fromiter(map(len, self.texts), np.int64,
                                                             len(self.texts)))
            object.__setattr__(self, "_index", pd.Index(self.ids, dtype=object))
        return self.__dict__["_lengths"][self.__dict__["_index"].get_indexer(
            pd.Index(doc_ids, dtype=object))]

    def normalized(self, doc_id) -> NormalizedText:
        """The document prepared for text search (built once, kept)."""
        if doc_id not in self._normalized:
            self._normalized[doc_id] = NormalizedText(self.text(doc_id))
        return self._normalized[doc_id]


def as_documents(documents) -> Documents | None:
    """Check documents given as a DataFrame, ``{doc_id: text}``, records or a file.

    Examples
    --------
    >>> docs = as_documents({"d1": "one", "d2": "two words"})
    >>> docs.ids, docs.length("d2")
    (['d1', 'd2'], 9)
    """
    if documents is None or isinstance(documents, Documents):
        return documents
    if isinstance(documents, Mapping) and not isinstance(documents, pd.DataFrame):
        frame = pd.DataFrame({"doc_id": pd.Series(list(documents.keys()), dtype=object),
                              "text": pd.Series(list(documents.values()), dtype=object)})
        source = RowOrigin("documents", label_column="doc_id",
                           labels=frame["doc_id"].to_numpy(dtype=object))
    else:
        frame, source = as_frame(documents, "documents", "doc_id")
    _require(frame, source, "doc_id", "text")
    ids = frame["doc_id"].to_numpy(dtype=object)
    kind = _ids(ids, "doc_id", source)
    texts = frame["text"].to_numpy(dtype=object)
    for row, text in enumerate(texts):
        if not isinstance(text, str):
            raise source.error(row, f"text must be a str, got {text!r}", kind=InputTypeError)
    first: dict = {}
    for row, doc in enumerate(ids):
        if doc in first:
            raise source.error(row, f"document {doc!r} is given twice (first in "
                               f"{source.where(first[doc])})")
        first[doc] = row
    return Documents(list(ids), list(texts), kind)


# --- chunks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunks:
    """Checked chunks: ``ids[i]`` covers ``[start[i], end[i])`` of document ``doc[i]``."""

    ids: np.ndarray  # object
    doc: np.ndarray  # object
    start: np.ndarray  # int64
    end: np.ndarray  # int64
    id_kind: str | None
    doc_kind: str | None

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def index(self) -> pd.Index:
        """Chunk ids as an index: position of each id (ids are unique)."""
        if "_index" not in self.__dict__:
            object.__setattr__(self, "_index", pd.Index(self.ids, dtype=object))
        return self.__dict__["_index"]

    def frame(self) -> pd.DataFrame:
        """The chunks as a table: ``chunk_id, doc_id, start, end``."""
        return pd.DataFrame({"chunk_id": _typed(self.ids, self.id_kind),
                             "doc_id": _typed(self.doc, self.doc_kind),
                             "start": self.start, "end": self.end})


def _typed(ids: np.ndarray, kind: str | None):
    return ids.astype(np.int64) if kind == "int" and len(ids) else ids


def _check_offsets(start, end, doc, rows, source: RowOrigin, documents: Documents | None,
                   what: str) -> None:
    """start >= 0, start < end, and end within the document when documents are known."""
    for row in rows[start[rows] < 0]:
        raise source.error(int(row), f"start {start[row]} is negative")
    for row in rows[end[rows] >= MAX_POSITION]:
        raise source.error(int(row), f"end {end[row]} is past 2**62, further than any text: "
                           "positions are 64-bit integers")
    for row in rows[start[rows] >= end[rows]]:
        raise source.error(int(row), f"start {start[row]} >= end {end[row]}: a {what} "
                           "holds at least one character (end is exclusive)")
    if documents is None:
        return
    lengths = documents.lengths_of(doc[rows])
    for row in rows[end[rows] > lengths]:
        length = documents.length(doc[row])
        raise source.error(int(row), f"end {end[row]} is past the end of document "
                           f"{doc[row]!r} ({length} characters)")


def _unknown_documents(doc, rows, source: RowOrigin, documents: Documents) -> None:
    unknown = [int(r) for r in rows if doc[r] not in documents]
    if unknown:
        raise source.error(unknown[0], f"unknown document {doc[unknown[0]]!r}"
                           + (f" ({len(unknown)} rows name documents not in documents)"
                              if len(unknown) > 1 else ""))


def _locate(texts, doc, rows, documents: Documents, source: RowOrigin, what: str):
    """Offsets of each text in its document; raise listing every text not found once."""
    start = np.full(len(texts), -1, dtype=np.int64)
    end = np.full(len(texts), -1, dtype=np.int64)
    problems = []
    for row in rows:
        text = texts[row]
        if not isinstance(text, str):
            raise source.error(int(row), f"{what} must be a str, got {text!r}",
                               kind=InputTypeError)
        found = documents.normalized(doc[row]).find(text)
        if len(found) == 1:
            start[row], end[row] = found[0]
            continue
        shown = normalize_whitespace(text)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        if not found:
            problems.append(f"{source.where(int(row))}: {shown!r} not found in document "
                            f"{doc[row]!r}")
        else:
            places = ", ".join(f"{s}-{e}" for s, e in found)
            problems.append(f"{source.where(int(row))}: {shown!r} found more than once in "
                            f"document {doc[row]!r} (at {places}, ...); give its offsets")
    if problems:
        message = (f"{len(problems)} {what}{'s' if len(problems) > 1 else ''} cannot be "
                   "located (exact match after "
                   f"whitespace normalisation): {_listing(problems)}")
        if source.path is not None:
            raise FormatError(message, path=source.path)
        raise InputValueError(message)
    return start, end


def _check_text_matches(texts, doc, start, end, rows, documents, source, what) -> None:
    for row in rows:
        given = normalize_whitespace(texts[row]) if isinstance(texts[row], str) else None
        actual = normalize_whitespace(documents.text(doc[row])[start[row]:end[row]])
        if given != actual:
            raise source.error(int(row), f"{what} {texts[row]!r} differs from the document's "
                               f"text at {start[row]}-{end[row]}: {actual!r}")


def as_chunks(chunks, documents: Documents | None = None) -> Chunks:
    """Check chunks given by offsets or by text, locating texts in ``documents``.

    Parameters
    ----------
    chunks : DataFrame, list of records, file path or Chunks
        ``chunk_id, doc_id, start, end`` or ``chunk_id, doc_id, text`` (with both, the
        offsets are used and the text must match them).
    documents : Documents or None
        From :func:`as_documents`; needed for chunks given by text.

    Returns
    -------
    Chunks
    """
    if isinstance(chunks, Chunks):
        return chunks
    frame, source = as_frame(chunks, "chunks", "chunk_id")
    _require(frame, source, "chunk_id", "doc_id")
    by_offsets = "start" in frame.columns and "end" in frame.columns
    by_text = "text" in frame.columns
    if not by_offsets and not by_text:
        have = ", ".join(map(repr, frame.columns))
        raise source.table_error(
            "chunks need 'start' and 'end' (character offsets) or 'text' (located in the "
            f"document); columns: {have}")
    if by_text and not by_offsets and documents is None:
        raise InputValueError("chunks are given by text: pass documents= to locate them")
    ids = frame["chunk_id"].to_numpy(dtype=object)
    id_kind = _ids(ids, "chunk_id", source)
    doc = frame["doc_id"].to_numpy(dtype=object)
    doc_kind = _ids(doc, "doc_id", source)
    if documents is not None:
        doc_kind = check_same_kind([("documents", documents.kind), ("chunks", doc_kind)],
                                   "doc_id")
    codes, unique = pd.factorize(pd.Index(ids, dtype=object))
    if len(unique) < len(ids):
        seen = np.zeros(len(unique), bool)
        for row, code in enumerate(codes):
            if seen[code]:
                first = int(np.flatnonzero(codes == code)[0])
                raise source.error(row, f"chunk id {ids[row]!r} is given twice (first in "
                                   f"{source.where(first)})")
            seen[code] = True
    rows = np.arange(len(ids))
    if documents is not None:
        _unknown_documents(doc, rows, source, documents)
    if by_offsets:
        start = _integers(frame["start"], "start", source)
        end = _integers(frame["end"], "end", source)
        _check_offsets(start, end, doc, rows, source, documents, "chunk")
        if by_text and documents is not None:
            _check_text_matches(frame["text"].to_numpy(dtype=object), doc, start, end, rows,
                                documents, source, "text")
    else:
        start, end = _locate(frame["text"].to_numpy(dtype=object), doc, rows, documents,
                             source, "chunk text")
    return Chunks(ids, doc, start, end, id_kind, doc_kind)


# --- evidence -------------------------------------------------------------------------


@dataclass(frozen=True)
class Evidence:
    """Checked evidence: span ``i`` is ``[start[i], end[i])`` of ``doc[i]`` for ``query[i]``.

    ``queries`` lists every query in the order first given, spans or not: a query
    without a span has no evidence (``empty``).
    """

    query: np.ndarray  # object, one per span
    doc: np.ndarray  # object
    start: np.ndarray  # int64
    end: np.ndarray  # int64
    grade: np.ndarray  # float64
    queries: np.ndarray  # object, every query
    query_kind: str | None
    doc_kind: str | None

    def __len__(self) -> int:
        return len(self.query)

    def query_codes(self) -> np.ndarray:
        """The position in ``queries`` of each span's query."""
        return pd.Index(self.queries, dtype=object).get_indexer(
            pd.Index(self.query, dtype=object))

    def frame(self) -> pd.DataFrame:
        """The spans as a table: ``query_id, doc_id, start, end, relevance``."""
        return pd.DataFrame({"query_id": _typed(self.query, self.query_kind),
                             "doc_id": _typed(self.doc, self.doc_kind),
                             "start": self.start, "end": self.end, "relevance": self.grade})


def _evidence_records(evidence: Mapping) -> list[dict]:
    """``{query_id: [(doc_id, start, end[, relevance]) or {...}, ...]}`` as records."""
    records = []
    for query, spans in evidence.items():
        if isinstance(spans, (str, bytes, Mapping)) or not isinstance(spans, Iterable):
            raise InputTypeError(f"evidence[{query!r}] must be a list of spans "
                                 f"(doc_id, start, end[, relevance]), got {spans!r}")
        spans = list(spans)
        if not spans:
            records.append({"query_id": query})
        for span in spans:
            if isinstance(span, Mapping):
                records.append({"query_id": query, **span})
            elif isinstance(span, (tuple, list)) and len(span) in (3, 4):
                record = {"query_id": query, "doc_id": span[0], "start": span[1],
                          "end": span[2]}
                if len(span) == 4:
                    if isinstance(span[3], float) and math.isnan(span[3]):
                        raise InputValueError(
                            f"evidence[{query!r}]: the span {span!r} has relevance nan, not a "
                            "grade; give (doc_id, start, end) for a span of grade 1")
                    record["relevance"] = span[3]
                records.append(record)
            else:
                raise InputTypeError(f"evidence[{query!r}]: a span is (doc_id, start, end) "
                                     f"or (doc_id, start, end, relevance), got {span!r}")
    return records


def as_evidence(evidence, documents: Documents | None = None) -> Evidence:
    """Check evidence given by offsets or by quote, locating quotes in ``documents``.

    Parameters
    ----------
    evidence : DataFrame, list of records, mapping, file path or Evidence
        ``query_id, doc_id, start, end[, relevance]`` or ``query_id, doc_id, quote``;
        or ``{query_id: [(doc_id, start, end[, relevance]), ...]}``.
    documents : Documents or None
        From :func:`as_documents`; needed for evidence given by quote.

    Examples
    --------
    >>> evidence = as_evidence({"q1": [("d1", 0, 7), ("d1", 21, 28, 2)], "q2": []})
    >>> evidence.frame()
      query_id doc_id  start  end  relevance
    0       q1     d1      0    7        1.0
    1       q1     d1     21   28        2.0
    >>> evidence.queries.tolist()
    ['q1', 'q2']
    """
    if isinstance(evidence, Evidence):
        return evidence
    if isinstance(evidence, Mapping) and not isinstance(evidence, pd.DataFrame):
        records = _evidence_records(evidence)
        frame = pd.DataFrame.from_records(records) if records else pd.DataFrame(
            columns=["query_id"])
        source = RowOrigin("evidence", label_column="query_id",
                           labels=frame["query_id"].to_numpy(dtype=object))
    else:
        frame, source = as_frame(evidence, "evidence", "query_id")
    _require(frame, source, "query_id")
    n = len(frame)

    def column(name):
        if name in frame.columns:
            return frame[name].to_numpy(dtype=object)
        return np.full(n, None, dtype=object)

    query = column("query_id")
    query_kind = _ids(query, "query_id", source)
    doc, start_raw, end_raw, quote = column("doc_id"), column("start"), column("end"), \
        column("quote")
    has_doc, has_start, has_end, has_quote = (~_missing(v) for v in (doc, start_raw, end_raw,
                                                                       quote))
    if "doc_id" not in frame.columns and n and (has_start | has_end | has_quote).any():
        raise source.table_error("evidence spans need a 'doc_id' column")
    if not ({"start", "end"} <= set(frame.columns) or "quote" in frame.columns) and \
            has_doc.any():
        have = ", ".join(map(repr, frame.columns))
        raise source.table_error("evidence needs 'start' and 'end' (character offsets) or "
                                 f"'quote' (located in the document); columns: {have}")
    empty_row = ~has_doc & ~has_start & ~has_end & ~has_quote
    for row in np.flatnonzero(~has_doc & ~empty_row):
        raise source.error(int(row), "missing doc_id (a row with no doc_id, offsets or quote "
                           "declares a query without evidence; this one has some)")
    span = np.flatnonzero(~empty_row)
    doc_kind = _ids(doc, "doc_id", source, allow_missing=True)  # missing: empty rows only
    if documents is not None:
        doc_kind = check_same_kind([("documents", documents.kind), ("evidence", doc_kind)],
                                   "doc_id")
        _unknown_documents(doc, span, source, documents)
    by_offsets = has_start | has_end
    by_quote = ~by_offsets & ~empty_row
    for row in np.flatnonzero(by_offsets & ~(has_start & has_end)):
        raise source.error(int(row), "a span needs both start and end"
                           + (" (or a quote alone)" if "quote" in frame.columns else ""))
    start = _integers(pd.Series(start_raw) if "start" not in frame.columns else frame["start"],
                      "start", source, missing_ok=~by_offsets)
    end = _integers(pd.Series(end_raw) if "end" not in frame.columns else frame["end"],
                    "end", source, missing_ok=~by_offsets)
    offset_rows = np.flatnonzero(by_offsets)
    _check_offsets(start, end, doc, offset_rows, source, documents, "span")
    quote_rows = np.flatnonzero(by_quote)
    if len(quote_rows):
        if documents is None:
            raise InputValueError("evidence is given by quote: pass documents= to locate it")
        found_start, found_end = _locate(quote, doc, quote_rows, documents, source, "quote")
        start[quote_rows], end[quote_rows] = found_start[quote_rows], found_end[quote_rows]
    both = np.flatnonzero(by_offsets & has_quote)
    if len(both) and documents is not None:
        _check_text_matches(quote, doc, start, end, both, documents, source, "quote")
    relevance = frame["relevance"] if "relevance" in frame.columns else pd.Series(column(
        "relevance"))
    grade = _grades(relevance, source, ~empty_row & ~_missing(relevance.to_numpy()))
    queries = pd.unique(pd.Series(query, dtype=object)).astype(object)
    return Evidence(query[span], doc[span], start[span], end[span], grade[span], queries,
                    query_kind, doc_kind)


# --- the line -------------------------------------------------------------------------


def lay_out(documents: Documents | None, chunks: Chunks, evidence: Evidence | None = None
            ) -> Line:
    """Put every document on one :class:`~ragmetrics.spans.offsets.Line`.

    With ``documents``, each keeps its length; without, a document is as long as the
    furthest offset any chunk or span gives it.
    """
    kinds = [("chunks", chunks.doc_kind)]
    if evidence is not None:
        kinds.append(("evidence", evidence.doc_kind))
    if documents is not None:
        kinds.append(("documents", documents.kind))
    check_same_kind(kinds, "doc_id")
    if documents is not None:
        return Line.build(documents.ids, [len(t) for t in documents.texts])
    doc = chunks.doc if evidence is None else np.concatenate([chunks.doc, evidence.doc])
    end = chunks.end if evidence is None else np.concatenate([chunks.end, evidence.end])
    codes, ids = pd.factorize(pd.Index(doc, dtype=object))
    lengths = np.zeros(len(ids), dtype=np.int64)
    np.maximum.at(lengths, codes, end)
    return Line.build(np.asarray(ids, dtype=object), lengths)


def locate_chunks(chunks, documents) -> pd.DataFrame:
    """Chunks with their character offsets: ``chunk_id, doc_id, start, end``.

    Chunks given by text are located in ``documents`` by exact match after whitespace
    normalisation; chunks given by offsets are checked against them.

    Examples
    --------
    >>> import pandas as pd
    >>> documents = {"faq": "Q: refunds?\\nA: within 30 days.\\nQ: invoices?\\nA: in Settings."}
    >>> chunks = pd.DataFrame({"chunk_id": ["a", "b"], "doc_id": ["faq", "faq"],
    ...                        "text": ["Q: refunds? A: within 30 days.", "A: in Settings."]})
    >>> locate_chunks(chunks, documents)
      chunk_id doc_id  start  end
    0        a    faq      0   30
    1        b    faq     44   59
    """
    documents = as_documents(documents)
    return as_chunks(chunks, documents).frame()


def locate_evidence(evidence, documents) -> pd.DataFrame:
    """Evidence with its character offsets: ``query_id, doc_id, start, end, relevance``.

    Quotes are located in ``documents`` like chunk texts (see :func:`locate_chunks`);
    queries without evidence have no row.

    Examples
    --------
    >>> documents = {"faq": "Q: refunds?\\nA: within 30 days."}
    >>> evidence = [{"query_id": "q1", "doc_id": "faq", "quote": "within 30 days"}]
    >>> locate_evidence(evidence, documents)
      query_id doc_id  start  end  relevance
    0       q1    faq     15   29        1.0
    """
    documents = as_documents(documents)
    return as_evidence(evidence, documents).frame()


# --- a run over chunks -----------------------------------------------------------------


@dataclass(frozen=True)
class RankedRun:
    """Rows of a run over chunks in rank order, grouped by query (codes into ``queries``).

    ``rank`` is 0-based within the query. ``queries`` are the run's query ids in the
    order first seen, including queries given with no chunks at all. Under
    ``ties="average"`` tied chunks keep the order they were given in, and ``tied`` marks
    each row whose score equals the row before's in the same query.
    """

    queries: np.ndarray  # object
    query_kind: str | None
    query: np.ndarray  # int64, per row
    chunk: np.ndarray  # int64 code into the Chunks, per row
    score: np.ndarray  # float64, per row (-rank for runs given by rank)
    rank: np.ndarray  # int64, per row

    @property
    def tied(self) -> np.ndarray:
        """Whether each row ties in score with the row above it (same query)."""
        tied = np.zeros(len(self.query), dtype=bool)
        tied[1:] = (self.query[1:] == self.query[:-1]) & (self.score[1:] == self.score[:-1])
        return tied


#: The tie rules that order tied chunks by their relevance: they need the evidence.
_BY_RELEVANCE = ("optimistic", "pessimistic")


def as_run(run, chunks: Chunks, *, ties: str = "trec_eval", duplicates: str = "error",
           order_by: str = "score", grades=None) -> RankedRun:
    """Rank a run over ``chunks`` as :func:`ragmetrics.evaluate` ranks a run.

    Any run shape ``evaluate`` takes works (a DataFrame with ``query_id``, ``doc_id`` and
    ``score`` or ``rank``; ``{query_id: [chunk ids]}``; ``{query_id: {chunk_id: score}}``),
    its doc ids being chunk ids, every one a chunk of ``chunks``. The rows are ranked by
    :func:`ragmetrics.evaluation.ranking.rank_rows`, tied scores ordered by
    :func:`ragmetrics.evaluation.engine.tie_order` under any rule of
    :data:`ragmetrics.conventions.TIE_POLICIES` (``"average"`` keeps the given order:
    the span metrics take the mean over the orders), a chunk retrieved twice for one
    query refused or its best rank kept (``duplicates``); the conventions are checked
    by :class:`~ragmetrics.conventions.Conventions`, as ``evaluate`` checks them.

    ``grades(query_ids, chunk_codes) -> grades`` gives the relevance that
    ``ties="optimistic"`` and ``"pessimistic"`` order tied chunks by (the span metrics:
    the best grade of the evidence a chunk shares characters with); without it, those
    rules are refused.

    Examples
    --------
    >>> chunks = as_chunks([{"chunk_id": c, "doc_id": "d", "start": 0, "end": 5}
    ...                     for c in ("a", "b", "c")])
    >>> ranked = as_run({"q1": {"a": 0.5, "b": 0.9, "c": 0.5}}, chunks)
    >>> [chunks.ids[i] for i in ranked.chunk]  # b, then the tie c > a as trec_eval orders
    ['b', 'c', 'a']
    >>> ranked = as_run({"q1": {"a": 0.5, "b": 0.9, "c": 0.5}}, chunks,
    ...                 ties="doc_id_ascending")
    >>> [chunks.ids[i] for i in ranked.chunk]
    ['b', 'a', 'c']
    """
    conventions = Conventions(ties=ties, duplicates=duplicates, order_by=order_by)
    if order_by == "rank_position":
        raise InputValueError(
            "order_by='rank_position' (msmarco_eval.py's list, with its empty positions) "
            "orders runs judged by doc ids; span metrics read the chunks in rank order: "
            "pass order_by='rank'")
    if ties in _BY_RELEVANCE and grades is None:
        raise InputValueError(
            f"ties={ties!r} orders tied chunks by their relevance, which only evidence "
            "gives (span_metrics, SpanJudgments): pass ties='trec_eval', 'input_order' or "
            "'doc_id_ascending'")
    columns = run_columns(run, order_by=order_by, ties=ties)
    ranked = rank_rows(columns.query, columns.value, None)
    heads = columns.query.take(ranked.heads)
    query_kind = columns.query_kind
    if not columns.queries_checked:
        query_kind = id_kind(heads, "query_id", "run", rows=ranked.heads)
    queries = heads.to_numpy(dtype=object)
    known = set(queries.tolist())
    bare = [q for q in dict.fromkeys(columns.bare_queries) if q not in known]
    if bare:
        queries = np.concatenate([queries, np.asarray(bare, dtype=object)])
        if query_kind is None:
            query_kind = id_kind(pd.Series(bare, dtype=object), "query_id", "run")
    doc_kind = id_kind(columns.doc, "doc_id", "run")
    check_same_kind([("chunks", chunks.id_kind), ("run", doc_kind)], "chunk id")
    chunk = chunks.index.get_indexer(pd.Index(columns.doc, dtype=object))
    unknown = np.flatnonzero(chunk < 0)
    if len(unknown):
        shown = ", ".join(f"{columns.doc.iloc[i]!r} (query {columns.query.iloc[i]!r})"
                          for i in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise InputValueError(
            f"the run retrieves {len(unknown)} ids that are not chunks of this chunking: "
            f"{shown}{more}; a run over chunks must use the chunk ids of its chunking")
    chunk = chunk[ranked.rows]
    block, score = ranked.block.astype(np.int64), ranked.score
    grade = (np.asarray(grades(queries[block], chunk), dtype=np.float64) if ties in
             _BY_RELEVANCE else np.zeros(len(chunk)))
    ids = Ids(chunks.ids, chunk, chunks.id_kind, at=chunk)  # each row's chunk id
    moves = tie_order(conventions.ties, block, score, grade, ids)
    if moves is not None:
        moved, source = moves
        chunk[moved] = chunk[source]
    repeated = repeats(block, Ids(chunk, chunk), len(ranked.heads))
    if len(repeated):
        if duplicates == "error":
            i = int(repeated[0])
            raise InputValueError(
                f"chunk {chunks.ids[chunk[i]]!r} appears more than once in the run for query "
                f"{queries[block[i]]!r}; pass duplicates='keep_first' to keep the "
                "highest-ranked copy")
        keep = np.ones(len(chunk), dtype=bool)
        keep[repeated] = False
        block, chunk, score = block[keep], chunk[keep], score[keep]
    return RankedRun(queries, query_kind, block, chunk.astype(np.int64), score,
                     ranks_within(groups(block)[1]))
