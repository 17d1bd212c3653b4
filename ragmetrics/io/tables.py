"""CSV, TSV, JSONL and Parquet files as tables: named columns of raw values, one per record.

A parser here only splits a file into records and fields; it judges no value. The
values are checked by :mod:`ragmetrics.io.checks`, the same way for every format, and
a problem is reported with :meth:`Table.fail`: the file, the line (the row, in a
Parquet file) and the text of the line.

Each format has a **fast parser** (Arrow's CSV, JSON and Parquet readers: columns of
Arrow arrays), which reads a file only when it is sure to read it as the **definition**
does (Python's ``csv`` and ``json`` modules, one record at a time; Parquet values as
Python objects). A CSV or TSV table Arrow read answers for its own errors: the line of a
record is found, only when an error needs it, by an index of the file's line breaks and
quotes (:func:`_record_lines`), and a record with the wrong number of fields by counting
its delimiters (:func:`wrong_record`); Python's ``csv`` reads only the files whose
quotes Arrow could read otherwise. The JSON Lines and Parquet tables of the fast parser
know no line numbers: any problem with them (a bad value, a missing column) raises
:class:`~ragmetrics.io.arrow.InDoubt`, and the reader parses the file again by the
definition, which reports the problem.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FormatError, InputValueError
from ..validation import check_choice
from .arrow import (
    InDoubt,
    RowLines,
    byte_set,
    in_set,
    is_utf8,
    memory_pool,
    positions,
    read_delimited,
)
from .checks import MISSING, WHITESPACE, Bad, Column
from .source import (
    ReadOnce,
    Source,
    line_starts,
    open_source,
    path_name,
    read_bytes,
    read_once,
    without_compression_suffix,
)

__all__ = ["TABLE_FORMATS", "Table", "fast_csv", "fast_jsonl", "parse_csv", "parse_jsonl",
           "parse_parquet", "read_table", "wrong_record"]

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
    or are all text (CSV, TSV). A fast parser's table has Arrow arrays for values and
    its number of ``rows``; its ``lines`` are found when asked (CSV, TSV:
    :class:`~ragmetrics.io.arrow.RowLines`) or are None (JSONL, Parquet), and then its
    errors raise :class:`~ragmetrics.io.arrow.InDoubt` instead (the definition words
    them).
    """

    path: str
    columns: list[str]
    values: dict[str, pd.Series]
    lines: np.ndarray | None
    typed: bool
    unit: str = "line"
    source: Source | None = None
    rows: int = 0
    #: The name a column has in the file, for a column read under another name (an
    #: alias, :meth:`renamed`): messages say what the file says.
    written: dict[str, str] | None = None

    def __len__(self) -> int:
        return self.rows if self.lines is None else len(self.lines)

    def column(self, name: str) -> Column:
        shown = name if self.written is None else self.written.get(name, name)
        return Column(shown, self.values[name], self.typed)

    def renamed(self, names: dict[str, str]) -> Table:
        """The same records, the columns ``names`` maps read under their new names (the
        file's names stay in messages: :meth:`column`)."""
        columns = [names.get(c, c) for c in self.columns]
        values = {names.get(c, c): v for c, v in self.values.items()}
        written = dict(self.written or {})
        written.update({new: old for old, new in names.items() if old in self.values})
        return replace(self, columns=columns, values=values, written=written)

    def line_of(self, row: int) -> int:
        if self.lines is None:
            raise InDoubt
        return int(self.lines[row])  # a fast CSV table's RowLines may raise InDoubt too

    def fail(self, bad: Bad) -> FormatError:
        """The error for a bad value: its file, line (or row) and the line's text."""
        line = self.line_of(bad.row)
        text = None if self.source is None else self.source.line_text(line)
        return FormatError(bad.reason, path=self.path, line=line, text=text, unit=self.unit)

    def error(self, reason: str) -> FormatError:
        """The error for a problem of the whole file (a missing column, no records)."""
        if self.lines is None:
            raise InDoubt
        return FormatError(reason, path=self.path)

    def require(self, column: str, what: str) -> None:
        if column not in self.columns:
            raise self.error(f"{what} has no column {column!r} ({self.found()})")

    def found(self) -> str:
        shown = [c if self.written is None else self.written.get(c, c) for c in self.columns]
        return "columns found: " + (", ".join(map(repr, shown)) or "none")


def format_of(path, format: str | None) -> str:
    """The table format: ``format`` if given, else from the extension."""
    if format is not None:
        return TABLE_FORMATS[check_choice(format, TABLE_FORMATS, "format")]
    suffix = without_compression_suffix(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        known = ", ".join(_EXTENSIONS)
        raise InputValueError(
            f"cannot tell the format of {path_name(path)!r} from its extension {suffix!r} "
            f"(known: {known}); pass format='csv', 'tsv', 'jsonl' or 'parquet'"
        )
    return _EXTENSIONS[suffix]


def read_table(path, format: str | None, *, fast: bool = True,
               numbers: tuple[str, ...] = ()) -> Table:
    """Parse ``path`` as a table of the given format (or the one its name tells).

    ``fast``: by the fast parser if it can vouch for the file (a table whose errors may
    raise :class:`~ragmetrics.io.arrow.InDoubt`), else by the definition; a CSV record
    with the wrong number of fields is then found without the definition
    (:func:`wrong_record`). ``numbers``: the columns to be read as numbers, whose text
    the fast CSV parser keeps narrower.
    """
    kind = format_of(path, format)
    if kind == "parquet":
        table = parse_parquet(path, fast=fast)
    else:
        source = open_source(path)
        delimiter = "\t" if kind == "tsv" else ","
        table = None
        if fast and kind == "jsonl":
            table = fast_jsonl(source)
        elif fast:
            table = fast_csv(source, delimiter, numbers)
            problem = None if table is not None else wrong_record(source, delimiter)
            if problem is not None:  # what parse_csv would say, without its reading
                raise problem
        if table is None:
            table = parse_jsonl(source) if kind == "jsonl" else parse_csv(source, delimiter)
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
    values = {name: pa.array([row[i] for row in rows], pa.large_string())
              for i, name in enumerate(header) if name}
    return Table(source.name, columns, values, np.asarray(starts, dtype=np.int64),
                 typed=False, source=source)


def fast_csv(source: Source, delimiter: str, numbers: tuple[str, ...] = ()) -> Table | None:
    """The records of a CSV (or TSV) file by Arrow's parser, or None if in any doubt;
    the columns named in ``numbers`` as 32-bit-offset strings (``narrow`` of
    :func:`~ragmetrics.io.arrow.read_delimited`).

    The header line is read as :func:`parse_csv` reads it; the records after it by
    Arrow, which reads them as Python's ``csv`` module does when the file has no line
    break inside the header and only quotes that open and close whole fields
    (:func:`_layout`); anything else is left to :func:`parse_csv`. The line of a record
    is found only when an error needs it (:func:`_record_lines`).
    """
    layout = _layout(source, delimiter)
    if layout is None:
        return None
    header, start, quoted = layout
    named = [name for name in header if name]
    keep = [i for i, name in enumerate(header) if name]
    narrow = tuple(i for i in keep if header[i] in numbers)
    columns = read_delimited(memoryview(source.data)[start:], delimiter, len(header),
                             quoted=quoted, keep=keep, narrow=narrow)
    if columns is None or not len(columns[0]):
        return None
    source.release()  # the columns hold the text now
    rows = len(columns[0])
    lines = RowLines(lambda: _record_lines(source.data, start, rows, quoted=quoted), rows)
    return Table(source.name, named, dict(zip(named, columns, strict=True)), lines,
                 typed=False, source=source, rows=rows)


def _layout(source: Source, delimiter: str) -> tuple[list[str], int, bool] | None:
    """(the header's names, the offset of the line after it, whether a quote follows)
    of a file whose records Arrow reads as Python's ``csv`` does, else None: UTF-8, a
    header on one line naming no column twice, a record after it, and only quotes that
    open and close whole fields (:func:`_plain_quotes`)."""
    data = source.data
    if not data or not is_utf8(data):
        return None
    found = _header(data, delimiter)
    if found is None:
        return None
    header, start = found
    named = [name for name in header if name]
    if start >= len(data) or len(set(named)) < len(named):
        return None  # no records; or a name repeated, which parse_csv words
    body = np.frombuffer(data, dtype=np.uint8, offset=start)
    quoted = data.find(b'"', start) >= 0
    if quoted and not _plain_quotes(body, ord(delimiter)):
        return None
    # A line of spaces and tabs is blank (skipped); Arrow skips only empty lines, and reads
    # such a line as a record when its fields can be blank: tab-separated, or one column.
    if (delimiter in WHITESPACE or len(header) == 1) and _has_blank_text_line(body):
        return None
    return header, start, quoted


def wrong_record(source: Source, delimiter: str) -> FormatError | None:
    """The error :func:`parse_csv` raises for the first record with another number of
    fields than the header, found through an index of the records (its fields are its
    delimiters outside quotes, plus one) in a file whose layout Arrow reads as Python's
    ``csv`` does (:func:`_layout`); None if there is no such record, or no such layout.
    """
    layout = _layout(source, delimiter)
    if layout is None:
        return None
    header, start, quoted = layout
    data = source.data
    lines, begins = _records(data, start, quoted=quoted)
    codes = np.frombuffer(data, dtype=np.uint8)
    delimiters = positions(codes, ord(delimiter))
    if quoted:
        delimiters = delimiters[np.searchsorted(positions(codes, ord('"')), delimiters) % 2 == 0]
    fields = np.diff(np.searchsorted(delimiters, np.append(begins, len(data)))) + 1
    ends = np.append(begins[1:], len(data))
    blank = (WHITESPACE + "\n").encode()  # a record of blanks has no quote: one line
    for row in np.flatnonzero(fields != len(header)):
        if data[begins[row] : ends[row]].strip(blank):  # parse_csv skips a blank line
            return source.error(f"expected {len(header)} fields as in the header "
                                f"({', '.join(header)}), got {fields[row]}", int(lines[row]))
    return None


def _record_lines(data: bytes, start: int, n_rows: int, *, quoted: bool) -> np.ndarray | None:
    """The line on which each record from offset ``start`` on begins, as
    :func:`parse_csv` numbers them, for a file :func:`fast_csv` read; None if there are
    not ``n_rows`` of them."""
    lines = _records(data, start, quoted=quoted)[0]
    return lines if len(lines) == n_rows else None


def _records(data: bytes, start: int, *, quoted: bool) -> tuple[np.ndarray, np.ndarray]:
    """(the line, the offset) at which each record from offset ``start`` on begins, in a
    file whose quotes open and close whole fields (:func:`_plain_quotes`): a record
    begins at a line that begins outside quotes (after an even number of quotes) and is
    not empty (Arrow skips empty lines; Python's ``csv`` reads none there)."""
    starts = line_starts(data)[:-1]
    first = int(np.searchsorted(starts, start))  # the line after the header
    begins = starts[first:]
    codes = np.frombuffer(data, dtype=np.uint8)
    record = ~np.isin(codes[begins], (ord("\n"), ord("\r")))  # not an empty line
    if quoted:
        record &= np.searchsorted(positions(codes, ord('"')), begins) % 2 == 0
    rows = np.flatnonzero(record)
    return rows + first + 1, begins[rows]


def _header(data: bytes, delimiter: str) -> tuple[list[str], int] | None:
    """(the names, the offset of the line after) of the first non-blank line, or None
    if that line is not a record of its own (a quoted line break, a lone \\r)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end].removesuffix(b"\r")
        if b"\r" in line or line.count(b'"') % 2:
            return None
        if line.strip(WHITESPACE.encode()):
            try:
                fields = next(csv.reader([line.decode("utf-8")], delimiter=delimiter,
                                         strict=True))
            except csv.Error:
                return None
            return [name.strip(WHITESPACE) for name in fields], end + 1
        start = end + 1
    return None


_SEPARATOR_BYTES = byte_set(" \t\f\v")


def _has_blank_text_line(body: np.ndarray) -> bool:
    """Whether a line of ``body`` is whitespace but not empty (only lines that start with
    whitespace are looked at, one by one)."""
    breaks = positions(body, ord("\n"), ord("\r"))
    starts = np.concatenate([[0], breaks + 1])
    starts = starts[starts < len(body)]
    ends = np.append(breaks, len(body))[: len(starts)]
    for start, end in zip(starts[in_set(body[starts], _SEPARATOR_BYTES)],
                          ends[in_set(body[starts], _SEPARATOR_BYTES)], strict=True):
        if not body[start:end].tobytes().strip(WHITESPACE.encode()):
            return True
    return False


def _plain_quotes(body: np.ndarray, delimiter: int) -> bool:
    """Whether every quote of ``body`` opens or closes a quoted field (or is a doubled
    quote inside one), so that Arrow and Python's strict ``csv`` read the fields alike.

    Quotes alternate: the 1st, 3rd, ... open a field (at its start: after a delimiter
    or a line break) or follow the quote before at once (``""``, a quote in the field);
    the 2nd, 4th, ... close one (before a delimiter, a line break or the end) or come
    right before the next quote. Python refuses other quotes after a closing one
    (``"a"b``); a quote inside an unquoted field (``a"b``) it reads as text, which is
    left to it.
    """
    quotes = positions(body, ord('"'))
    if len(quotes) % 2:
        return False
    opening, closing = quotes[0::2], quotes[1::2]
    ends = np.array([delimiter, ord("\n"), ord("\r")], dtype=np.uint8)
    before = body[np.maximum(opening - 1, 0)]
    opens = (opening == 0) | np.isin(before, ends)
    opens[1:] |= opening[1:] == closing[:-1] + 1
    after = body[np.minimum(closing + 1, len(body) - 1)]
    closes = (closing == len(body) - 1) | np.isin(after, ends)
    closes[:-1] |= closing[:-1] + 1 == opening[1:]
    return bool(opens.all() and closes.all())


# Deeper nesting is left to Python's json, whose recursion limit refuses some of it.
_MAX_DEPTH = 64
# pyarrow 26's JSON reader overflows its stack (a crash) at 15,000-20,000 levels; a line
# with fewer [ and { than this cannot reach it.
_SAFE_OPENERS = 2_000
_EXACT_DOUBLE = 2.0**53


def fast_jsonl(source: Source) -> Table | None:
    """The records of a JSON Lines file by Arrow's parser, or None if in any doubt.

    Arrow reads JSON as Python's ``json`` does with these exceptions, all left to
    :func:`parse_jsonl`: it skips blank lines, takes several objects on one line and
    reads a line ``null`` as an empty record (so each line must start with ``{``, and
    hold one object: as many as the lines; pyarrow 26 also crashes on a block of
    ``null`` lines), reads ``-NaN`` and ``Inf`` (so no NaN or infinity anywhere), and
    reads integers that also appear as floats, or beyond int64, as doubles (so no column
    of doubles with a value beyond 2**53, where an integer may have been rounded).
    """
    import pyarrow.json as pj

    data = source.data
    lines = _object_lines(data)
    if lines is None or not is_utf8(data):
        return None
    try:
        table = pj.read_json(pa.BufferReader(data), memory_pool=memory_pool())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != lines:
        return None  # two objects on a line
    del data
    source.release()  # the columns hold the values now
    if max(map(_depth, table.schema.types), default=0) > _MAX_DEPTH:
        return None
    for column in table.columns:
        if not _finite(column):
            return None
        if pa.types.is_floating(column.type):
            largest = pc.max(pc.abs(column)).as_py()
            if largest is not None and largest >= _EXACT_DOUBLE:
                return None
    values = {name: table.column(name) for name in table.column_names}
    return Table(source.name, list(table.column_names), values, None, typed=True,
                 source=source, rows=table.num_rows)


def _object_lines(data: bytes) -> int | None:
    """The number of lines if every line starts with ``{`` and none holds
    :data:`_SAFE_OPENERS` of ``[`` and ``{``, else None."""
    codes = np.frombuffer(data, dtype=np.uint8)
    if not len(codes):
        return None
    ends = positions(codes, ord("\n"))
    if data[-1:] != b"\n":
        ends = np.append(ends, len(codes))
    starts = np.concatenate([[0], ends[:-1] + 1])
    if not (codes[starts] == ord("{")).all():
        return None  # a blank line, or one that starts otherwise
    for i in np.flatnonzero(ends - starts >= _SAFE_OPENERS):  # only long lines can be deep
        line = codes[starts[i] : ends[i]]
        if np.count_nonzero((line == ord("[")) | (line == ord("{"))) >= _SAFE_OPENERS:
            return None
    return len(starts)


def _depth(kind) -> int:
    """How deeply an Arrow type nests (a list of lists of strings: 2), without recursion."""
    deepest, pending = 0, [(kind, 0)]
    while pending:
        kind, depth = pending.pop()
        deepest = max(deepest, depth)
        if pa.types.is_struct(kind):
            pending += [(field.type, depth + 1) for field in kind]
        elif pa.types.is_list(kind) or pa.types.is_large_list(kind):
            pending.append((kind.value_type, depth + 1))
    return deepest


def _finite(array) -> bool:
    """Whether every float in an Arrow column, at any depth, is finite (nulls aside)."""
    kind = array.type
    if pa.types.is_floating(kind):
        return pc.all(pc.is_finite(array)).as_py() is not False
    if not (pa.types.is_struct(kind) or pa.types.is_list(kind) or pa.types.is_large_list(kind)):
        return True
    for chunk in array.chunks if isinstance(array, pa.ChunkedArray) else [array]:
        if pa.types.is_struct(kind):
            parts = [chunk.field(i) for i in range(kind.num_fields)]
        else:
            parts = [chunk.flatten()]
        if not all(map(_finite, parts)):
            return False
    return True


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


def parse_parquet(path, *, fast: bool = False) -> Table:
    """Rows of a Parquet file; a value's Parquet type is kept (strings, numbers, lists).

    ``fast``: the columns as Arrow arrays (a table that knows no rows: its errors raise
    :class:`~ragmetrics.io.arrow.InDoubt`), else as Python values.
    """
    name = path_name(path)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise FormatError("reading .parquet files needs pyarrow (pip install pyarrow)",
                          path=name) from None
    path = read_once(path)
    # Decompressed, if the file is.
    data = path.data if isinstance(path, ReadOnce) else read_bytes(path)
    try:
        table = pq.read_table(pa.BufferReader(data))
    except (OSError, pa.ArrowException) as error:
        raise FormatError(f"not a readable Parquet file ({error})", path=name) from None
    columns = [c for c in table.column_names if not c.startswith("__index_level_")]
    if fast and table.num_rows:
        values = {column: _large_text(table.column(column)) for column in table.column_names}
        return Table(name, columns, values, None, typed=True, unit="row", rows=table.num_rows)
    values = {column: _series(table.column(column)) for column in table.column_names}
    return Table(name, columns, values, np.arange(1, table.num_rows + 1, dtype=np.int64),
                 typed=True, unit="row")


def _large_text(array):
    """A string column as ``large_string`` (as pandas keeps text), cast in pyarrow's
    default memory pool: the Parquet reader's, whose pages it has just freed are warm
    (measured: 3 ms for two 2M-row id columns, against 15 ms in fresh jemalloc pages)."""
    if not pa.types.is_string(array.type):
        return array
    return pc.cast(array, pa.large_string(), memory_pool=pa.default_memory_pool())


def _series(array) -> pd.Series:
    """An Arrow column as a Series: clean strings and numbers as arrays, the rest as values."""
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
