"""Documents, chunks and evidence from files (JSON Lines, CSV, TSV, Parquet) or from memory.

Files are read by :mod:`ragmetrics.io` (:func:`~ragmetrics.io.records.read_records`),
as runs and judgments are: compressed or not (gzip, bzip2, xz, Zstandard), a pipe read
once, line numbers those of an editor, Arrow's fast parser where it can vouch for the
file. The cells :mod:`ragmetrics.spans.model` reads are checked by the rules and words
of :mod:`ragmetrics.io.checks`, the same as a run's or a golden set's:

=====================================  ==============================================
column                                 a cell holds
=====================================  ==============================================
``query_id``, ``chunk_id``, ``doc_id``  an id (text; an integer in JSONL or Parquet
                                       becomes its decimal text)
``start``, ``end``                     an integer (in CSV and TSV, ASCII digits)
``relevance``                          a finite number
``text``, ``quote``                    text
=====================================  ==============================================

An **empty cell** (an empty field in CSV and TSV, ``null`` or a key left out in JSONL, a
null in Parquet) holds nothing: :mod:`ragmetrics.spans.model` says where that is
allowed (a row of evidence with only a ``query_id`` declares a question with no
evidence). Other columns (a question's text) are not read. Every error names the file
and the line (in Parquet, the row) of the bad cell, and the value.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._moved import renamed_in
from ..errors import FormatError, InputTypeError, InputValueError
from ..io.arrow import InDoubt, arrow_array
from ..io.checks import MISSING, Bad, Column, check_ids, check_integers, check_numbers, earliest
from ..io.records import read_records

__all__ = ["CELLS", "RowOrigin", "TableFile", "as_frame", "check_grades", "read_table"]

#: What a cell of each column that span evaluation reads holds; other columns are not read.
CELLS = {"query_id": "id", "chunk_id": "id", "doc_id": "id", "start": "integer",
         "end": "integer", "relevance": "number", "text": "text", "quote": "text"}


class RowOrigin:
    """Where a table's rows came from, so that errors can say where a bad value was.

    Rows of a table given in memory are named by position (``chunks row 3``); rows of a
    file by file and line (a :class:`~ragmetrics.errors.FormatError`). ``lines`` is the
    line (Parquet: row) of each row, or a function that finds them, called on the first
    error (a file read by Arrow's fast parser is parsed again for them).
    """

    def __init__(self, what: str, *, path: str | None = None,
                 lines: np.ndarray | Callable[[], np.ndarray] | None = None,
                 unit: str = "line", label_column: str | None = None, labels=None) -> None:
        self.what, self.path, self._lines, self.unit = what, path, lines, unit
        self.label_column, self.labels = label_column, labels

    @property
    def lines(self) -> np.ndarray | None:
        if callable(self._lines):
            self._lines = self._lines()
        return self._lines

    def _label(self, row: int) -> str:
        if self.labels is None or row >= len(self.labels):
            return ""
        label = self.labels[row]
        if label is None or (isinstance(label, float) and np.isnan(label)):
            return ""
        return f"{self.label_column} {label!r}"

    def where(self, row: int) -> str:
        """``'chunks row 3 (chunk_id 'c4')'`` or ``'chunks.csv, line 5 (chunk_id 'c4')'``."""
        label = self._label(row)
        if self.path is None:
            return f"{self.what} row {row}" + (f" ({label})" if label else "")
        return f"{self.path}, {self.unit} {int(self.lines[row])}" + (
            f" ({label})" if label else "")

    def error(self, row: int, reason: str, *, kind: type = InputValueError) -> Exception:
        """The exception to raise for a bad value in ``row``."""
        if self.path is not None:
            label = self._label(row)
            return FormatError((f"{label}: " if label else "") + reason, path=self.path,
                               line=int(self.lines[row]), unit=self.unit)
        return kind(f"{self.where(row)}: {reason}")

    def table_error(self, reason: str) -> Exception:
        """The exception for a problem of the whole table (a missing column)."""
        if self.path is not None:
            return FormatError(reason, path=self.path)
        return InputValueError(f"{self.what}: {reason}")


def as_frame(data, what: str, label_column: str) -> tuple[pd.DataFrame, RowOrigin]:
    """A table given as a DataFrame, a list of records or a file, and its RowOrigin.

    A file's columns of :data:`CELLS` come checked (:func:`_read_cells`): ids as ``str``
    (None where empty), offsets as ``Int64``, grades as float64 (NaN where empty), texts
    as ``str``; a table in memory comes as given.
    """
    if isinstance(data, (str, os.PathLike)):
        frame, source = _read_file(data, what, label_column)
    elif isinstance(data, pd.DataFrame):
        frame = data.reset_index(drop=True)
        source = RowOrigin(what)
    elif isinstance(data, Iterable) and not isinstance(data, (bytes, Mapping)):
        rows = list(data)
        if not all(isinstance(row, Mapping) for row in rows):
            bad = next(row for row in rows if not isinstance(row, Mapping))
            raise InputTypeError(
                f"{what} given as a list must hold one mapping (record) per row, "
                f"got {bad!r}")
        frame = pd.DataFrame.from_records(rows) if rows else pd.DataFrame()
        source = RowOrigin(what)
    else:
        raise InputTypeError(
            f"{what} must be a DataFrame, a list of records or a file path, "
            f"got {type(data).__name__}")
    if label_column in frame.columns:
        source.label_column = label_column
        source.labels = frame[label_column].to_numpy(dtype=object)
    return frame, source


def _read_file(path, what: str, label_column: str) -> tuple[pd.DataFrame, RowOrigin]:
    records = read_records(path)
    try:  # Arrow's parse, whose bad cells are worded from the definition's (InDoubt)
        frame = _read_cells(records.table, label_column, None)
    except InDoubt:
        exact = records.exact()
        frame = _read_cells(exact, label_column, RowOrigin(what, path=exact.path,
                                                        lines=exact.lines, unit=exact.unit))
    table = records.table
    return frame, RowOrigin(what, path=table.path, lines=lambda: records.exact().lines,
                         unit=table.unit)


def _read_cells(table, label_column: str, source: RowOrigin | None) -> pd.DataFrame:
    """The columns of :data:`CELLS` of an :mod:`ragmetrics.io` table, checked: the first
    bad cell (by row, then column) raises at its line, or
    :class:`~ragmetrics.io.arrow.InDoubt` without a ``source`` to say where."""
    columns, problems = {}, []
    for name in table.columns:
        if name in CELLS:
            cells = _cells(table.column(name), CELLS[name])
            if isinstance(cells, Bad):
                problems.append(cells)
            else:
                columns[name] = cells
    bad = earliest(*problems)
    if bad is not None:
        if source is None:
            raise InDoubt
        if label_column in columns:
            source.label_column, source.labels = label_column, columns[label_column]
        raise source.error(bad.row, bad.reason)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(table)))


def _cells(column: Column, kind: str):
    """One column's cells checked by :mod:`ragmetrics.io.checks`: an array with its empty
    cells left empty (None, NA or NaN), or the first :class:`~ragmetrics.io.checks.Bad`."""
    empty = _empty(column)
    present = np.flatnonzero(~empty)
    values = column if not empty.any() else column._replace(values=_take(column.values,
                                                                         present))
    if kind == "id":
        got = check_ids(values)
    elif kind == "integer":
        got = check_integers(values)
    elif kind == "number":
        got = check_grades(values)
    else:
        got = _texts(values)
    if isinstance(got, Bad):
        return Bad(int(present[got.row]), got.reason)
    if kind == "integer":
        out = np.zeros(len(empty), np.int64)
        out[present] = got
        return pd.arrays.IntegerArray(out, empty)
    if kind == "number":
        out = np.full(len(empty), np.nan)
        out[present] = got
        return out
    out = np.full(len(empty), None, dtype=object)
    out[present] = got.to_numpy(dtype=object) if isinstance(got, pd.Series) else got
    return out


def _empty(column: Column) -> np.ndarray:
    """Where a cell is empty: an empty field of a text file; null, NaN or a key left out
    of a typed one."""
    array = arrow_array(column.values)
    if array is not None:
        empty = pc.is_null(array)
        if not column.typed:
            empty = pc.or_(empty, pc.equal(pc.binary_length(array), 0))
        elif pa.types.is_floating(array.type):
            empty = pc.or_(empty, pc.is_nan(array))
        return np.asarray(empty.to_numpy(zero_copy_only=False), dtype=bool)
    values = column.values
    if not column.typed:
        return (values == "").to_numpy(dtype=bool)
    empty = np.array(pd.isna(values), dtype=bool)
    if values.dtype == object:
        empty |= np.fromiter((v is MISSING for v in values), bool, len(values))
    return empty


def _take(values, rows: np.ndarray):
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values.take(pa.array(rows, pa.int64()))
    return values.iloc[rows].reset_index(drop=True)


def check_grades(column: Column, written=None) -> np.ndarray | Bad:
    """Grades as float64: finite numbers (:func:`~ragmetrics.io.checks.check_numbers`:
    held exactly by a float64), of which a whole one must also fit a 64-bit integer, as a
    grade of a qrels file must (``1e300`` is refused, not judged as ``2**63``); an error
    shows the value as ``written`` (one per row) if given, else as the column holds it."""
    got = check_numbers(column)
    if isinstance(got, Bad):
        return got
    whole = np.flatnonzero((got == np.round(got)) & ((got < -(2.0**63)) | (got >= 2.0**63)))
    if len(whole):
        row = int(whole[0])
        written = column.values[row] if written is None else written[row]
        written = written.as_py() if isinstance(written, pa.Scalar) else written
        shown = repr(written) if isinstance(written, str) else _shown_number(written)
        return Bad(row, f"relevance {shown} does not fit a 64-bit integer")
    return got


def _shown_number(value) -> str:
    """A number as the message shows it: its repr, cut after 40 characters."""
    text = repr(value.item() if isinstance(value, np.generic) else value)
    return text if len(text) <= 40 else text[:40] + "..."


def _texts(column: Column):
    """Text cells; in a typed file, a cell that is not a string is refused."""
    array = arrow_array(column.values)
    if array is not None:
        kind = array.type
        if pa.types.is_string(kind) or pa.types.is_large_string(kind) or (
                pa.types.is_string_view(kind)):
            return array.to_numpy(zero_copy_only=False)
        return Bad(0, f"{column.name} must be a str, got {array[0].as_py()!r}") if len(
            array) else np.zeros(0, object)
    values = column.values
    if column.typed:
        for row, value in enumerate(values):
            if not isinstance(value, str):
                return Bad(row, f"{column.name} must be a str, got {value!r}")
    return values.to_numpy(dtype=object)


@dataclass(frozen=True)
class TableFile:
    """A table read from a file: its cells as written, the file, and where each row was."""

    frame: pd.DataFrame
    path: str
    lines: np.ndarray  # the 1-based line (Parquet: row) of each row
    unit: str = "line"


def read_table(path) -> TableFile:
    """Read a file whose name tells its format (``.jsonl``/``.ndjson``, ``.csv``,
    ``.tsv``, ``.parquet``; compressed or not): every cell as written (text in CSV and
    TSV), an empty one missing (None), unchecked, with the line each row starts on.

    Examples
    --------
    >>> import pathlib
    >>> _ = pathlib.Path("chunks.csv").write_text("chunk_id,doc_id,start,end\\nc1,d1,0,5\\n")
    >>> table = read_table("chunks.csv")
    >>> table.frame.to_dict("records"), table.lines.tolist()
    ([{'chunk_id': 'c1', 'doc_id': 'd1', 'start': '0', 'end': '5'}], [2])
    """
    table = read_records(path).exact()
    frame = pd.DataFrame({name: [None if _is_empty(v, table.typed) else v
                                 for v in _values(table.values[name])]
                          for name in table.columns}, index=pd.RangeIndex(len(table)),
                         dtype=object)
    return TableFile(frame, table.path, np.asarray(table.lines), table.unit)


def _values(column) -> list:
    """A column's values as Python objects (an Arrow column's too)."""
    array = arrow_array(column)
    return array.to_pylist() if array is not None else list(column)


def _is_empty(value, typed: bool) -> bool:
    if not typed:
        return value == ""
    return value is MISSING or value is None or (isinstance(value, float) and np.isnan(value))


#: ``Table``, the old name of :class:`TableFile`, answers with a DeprecationWarning.
__getattr__ = renamed_in(__name__)
