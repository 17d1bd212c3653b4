"""CSV, TSV, JSONL and Parquet files as tables: named columns of raw values, one per record.

A parser here only splits a file into records and fields; it judges no value. The
values are checked by :mod:`ragmetrics.io.checks`, the same way for every format, and
a problem is reported with :meth:`Table.fail`: the file, the line (the row, in a
Parquet file) and the text of the line.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import FormatError, InputValueError
from ..validation import check_choice
from .checks import MISSING, WHITESPACE, Bad, Column
from .source import Source, read_bytes, without_compression_suffix

__all__ = ["TABLE_FORMATS", "Table", "parse_csv", "parse_jsonl", "parse_parquet", "read_table"]

#: Table formats by name (``format=``) and by file extension.
TABLE_FORMATS = {"csv": "csv", "tsv": "tsv", "jsonl": "jsonl", "ndjson": "jsonl",
                 "parquet": "parquet"}
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
               ".parquet": "parquet", ".pq": "parquet"}


@dataclass
class Table:
    """The records of one file: ``values[column]`` holds one raw value per record.

    ``lines[i]`` is the line on which record ``i`` starts (for Parquet, its row
    number, from 1); ``typed`` says whether values carry their type (JSONL, Parquet)
    or are all text (CSV, TSV).
    """

    path: str
    columns: list[str]
    values: dict[str, pd.Series]
    lines: np.ndarray
    typed: bool
    unit: str = "line"
    source: Source | None = None

    def __len__(self) -> int:
        return len(self.lines)

    def column(self, name: str) -> Column:
        return Column(name, self.values[name], self.typed)

    def line_of(self, row: int) -> int:
        return int(self.lines[row])

    def fail(self, bad: Bad) -> FormatError:
        """The error for a bad value: its file, line (or row) and the line's text."""
        line = self.line_of(bad.row)
        text = None if self.source is None else self.source.line_text(line)
        return FormatError(bad.reason, path=self.path, line=line, text=text, unit=self.unit)

    def error(self, reason: str) -> FormatError:
        """The error for a problem of the whole file (a missing column, no records)."""
        return FormatError(reason, path=self.path)

    def require(self, column: str, what: str) -> None:
        if column not in self.columns:
            raise self.error(f"{what} has no column {column!r} ({self.found()})")

    def found(self) -> str:
        return "columns found: " + (", ".join(map(repr, self.columns)) or "none")


def format_of(path, format: str | None) -> str:
    """The table format: ``format`` if given, else from the extension."""
    if format is not None:
        return TABLE_FORMATS[check_choice(format, TABLE_FORMATS, "format")]
    suffix = without_compression_suffix(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        known = ", ".join(_EXTENSIONS)
        raise InputValueError(
            f"cannot tell the format of {os.fspath(path)!r} from its extension {suffix!r} "
            f"(known: {known}); pass format='csv', 'tsv', 'jsonl' or 'parquet'"
        )
    return _EXTENSIONS[suffix]


def read_table(path, format: str | None) -> Table:
    """Parse ``path`` as a table of the given format (or the one its name tells)."""
    kind = format_of(path, format)
    if kind == "parquet":
        table = parse_parquet(path)
    else:
        source = Source(path)
        if kind == "jsonl":
            table = parse_jsonl(source)
        else:
            table = parse_csv(source, delimiter="\t" if kind == "tsv" else ",")
    if not len(table):
        what = {"jsonl": "the file is empty or blank", "parquet": "the file has no rows"}.get(
            kind, "the file has only a header"
        )
        raise table.error(f"no data lines: {what}")
    return table


def _is_blank(text: str) -> bool:
    return not text.strip(WHITESPACE)


def parse_csv(source: Source, delimiter: str) -> Table:
    """Records of a CSV (or TSV) file with a header line; blank lines are skipped.

    Line breaks inside quoted fields are kept as written; a record that spans lines is
    reported on the line where it starts.
    """
    lines = source.lines()
    reader = csv.reader(io.StringIO(source.text, newline=""), delimiter=delimiter, strict=True)
    header: list[str] | None = None
    rows: list[list[str]] = []
    starts: list[int] = []
    end = 0
    while True:
        start = end + 1  # a record may span lines (a quoted field with a line break)
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            raise source.error(f"malformed CSV ({error})", start) from None
        end = reader.line_num
        if start == end and _is_blank(lines[start - 1]):
            continue
        if header is None:
            header = [name.strip(WHITESPACE) for name in fields]
            named = [name for name in header if name]
            for name in named:
                if named.count(name) > 1:
                    raise source.error(f"the header names column {name!r} twice", start)
            continue
        if len(fields) != len(header):
            raise source.error(
                f"expected {len(header)} fields as in the header "
                f"({', '.join(header)}), got {len(fields)}",
                start,
            )
        rows.append(fields)
        starts.append(start)
    if header is None:
        raise source.error("no header line: the file is empty or blank")
    columns = [name for name in header if name]
    values = {
        name: pd.Series([row[i] for row in rows], dtype=object)
        for i, name in enumerate(header) if name
    }
    return Table(source.name, columns, values, np.asarray(starts, dtype=np.int64),
                 typed=False, source=source)


def parse_jsonl(source: Source) -> Table:
    """Records of a JSON Lines file: one JSON object per non-blank line."""
    records = []
    starts = []
    columns: dict[str, None] = {}  # keys in first-seen order
    for number, line in enumerate(source.lines(), start=1):
        if _is_blank(line):
            continue
        try:
            record = json.loads(line, object_pairs_hook=_no_repeated_keys)
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            raise source.error(f"not valid JSON ({error})", number) from None
        if not isinstance(record, dict):
            raise source.error(
                f"expected a JSON object {{...}} per line, got {_json_kind(record)}", number
            )
        columns.update(dict.fromkeys(record))
        records.append(record)
        starts.append(number)
    values = {
        name: pd.Series([r.get(name, MISSING) for r in records], dtype=object)
        for name in columns
    }
    return Table(source.name, list(columns), values, np.asarray(starts, dtype=np.int64),
                 typed=True, source=source)


def _no_repeated_keys(pairs: list) -> dict:
    record = dict(pairs)
    if len(record) != len(pairs):
        repeated = next(key for key, _ in pairs if [k for k, _ in pairs].count(key) > 1)
        raise ValueError(f"key {repeated!r} appears twice in one object")
    return record


def _json_kind(value) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def parse_parquet(path) -> Table:
    """Rows of a Parquet file; a value's Parquet type is kept (strings, numbers, lists)."""
    name = os.fspath(path)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise FormatError("reading .parquet files needs pyarrow (pip install pyarrow)",
                          path=name) from None
    data = read_bytes(path)  # decompressed, if the file is
    try:
        table = pq.read_table(pa.BufferReader(data))
    except (OSError, pa.ArrowException) as error:
        raise FormatError(f"not a readable Parquet file ({error})", path=name) from None
    values = {column: _series(table.column(column)) for column in table.column_names}
    columns = [c for c in table.column_names if not c.startswith("__index_level_")]
    return Table(name, columns, values, np.arange(1, table.num_rows + 1, dtype=np.int64),
                 typed=True, unit="row")


def _series(array) -> pd.Series:
    """An Arrow column as a Series: clean strings and numbers as arrays, the rest as values."""
    import pyarrow as pa

    kind = array.type
    if pa.types.is_dictionary(kind):
        array = array.cast(kind.value_type)
        kind = array.type
    if array.null_count == 0:
        if pa.types.is_string(kind) or pa.types.is_large_string(kind):
            return pd.Series(array.to_numpy(zero_copy_only=False), dtype=object)
        if pa.types.is_integer(kind) or pa.types.is_floating(kind):
            return pd.Series(array.to_numpy())
    return pd.Series(array.to_pylist(), dtype=object)
