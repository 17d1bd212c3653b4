"""Columns as Arrow arrays: a file's text parsed in C++, with no Python object per value.

The parsers of :mod:`ragmetrics.io.trec` and :mod:`ragmetrics.io.tables` hand their
columns over as Arrow arrays, which :mod:`ragmetrics.io.checks` checks with
``pyarrow.compute`` and NumPy, by the same rules as any other column; the line of a row
is found only when an error needs it (:class:`RowLines`). A fast parse answers only when
it is sure to give what the definition gives (Python's ``csv`` and ``json`` modules, the
TREC line index): whatever it cannot vouch for (a construct the two parsers could read
differently, a bad value it cannot place on a line) raises or returns :class:`InDoubt`,
and the reader parses the file again by the definition, which finds and words the error.

The parsers of ``pyarrow.csv``, ``pyarrow.json`` and ``pyarrow.parquet`` are imported on
first use; ``pyarrow`` itself is imported by pandas already.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "InDoubt",
    "RowLines",
    "any_byte",
    "arrow_array",
    "byte_set",
    "first_true",
    "first_with_edge_byte",
    "frame",
    "in_set",
    "is_utf8",
    "memory_pool",
    "numpy_column",
    "only_bytes",
    "positions",
    "read_delimited",
    "text_series",
]


_POOL: pa.MemoryPool | None = None


def memory_pool() -> pa.MemoryPool:
    """Where the readers' Arrow buffers live: jemalloc if pyarrow has it, else its default.

    Measured on Linux with pyarrow 26: the default allocator, mimalloc, takes 0.4-0.8 s
    more than jemalloc to hand out a process's first few hundred MB (a 2M-line TREC run
    read in 1.0-1.4 s against 0.55 s); later reads take the same time with either.
    """
    global _POOL
    if _POOL is None:
        try:
            _POOL = pa.jemalloc_memory_pool()
        except NotImplementedError:  # a pyarrow built without jemalloc
            _POOL = pa.default_memory_pool()
    return _POOL


class InDoubt(Exception):  # a signal between readers, never shown to a user
    """A fast parse cannot answer exactly: parse the file again by the definition."""


class RowLines:
    """The line of each row of a fast parse, found only when asked (an error needs it):
    ``find()`` gives the lines of all ``n_rows`` rows from an index of the text, or None
    if they cannot be told, which raises :class:`InDoubt`."""

    def __init__(self, find: Callable[[], np.ndarray | None], n_rows: int) -> None:
        self._find, self._n_rows, self._lines = find, n_rows, None

    def __len__(self) -> int:
        return self._n_rows

    def __getitem__(self, rows):
        if self._lines is None:
            self._lines = self._find()
            if self._lines is None:
                raise InDoubt
        return self._lines[rows]


def arrow_array(values) -> pa.Array | pa.ChunkedArray | None:
    """The Arrow array behind ``values`` (an Arrow array, or a Series stored in Arrow), or None.

    A Series of pandas' ``str`` dtype (pyarrow storage) or of an ``ArrowDtype`` gives its
    array without a copy.
    """
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    dtype = getattr(values, "dtype", None)
    if isinstance(dtype, pd.ArrowDtype) or getattr(dtype, "storage", None) == "pyarrow":
        return pa.array(values.array)  # through __arrow_array__: no copy
    return None


def first_true(mask: pa.Array | pa.ChunkedArray) -> int | None:
    """The index of the first true value of a boolean array (nulls are false), or None."""
    if not len(mask) or not pc.any(mask).as_py():
        return None
    return pc.index(mask, True).as_py()


_TEXT_DTYPE = None


def text_series(array: pa.Array | pa.ChunkedArray) -> pd.Series:
    """Arrow strings as the Series ``pd.Series(values, dtype=str)`` would give, with a
    default index.

    With pandas' pyarrow-backed ``str`` dtype (pandas 3 with pyarrow) the strings stay
    where they are; with the NumPy ``object`` dtype (pandas 2) each becomes a Python str.
    """
    global _TEXT_DTYPE
    if _TEXT_DTYPE is None:
        _TEXT_DTYPE = pd.Series([], dtype=str).dtype
    if not pa.types.is_large_string(array.type):
        array = pc.cast(array, pa.large_string(), memory_pool=memory_pool())  # as pandas keeps them
    if getattr(_TEXT_DTYPE, "storage", None) == "pyarrow":
        return pd.Series(pd.array(array, dtype=_TEXT_DTYPE))
    return pd.Series(array.to_numpy(zero_copy_only=False), dtype=str)


def byte_set(characters: str) -> tuple[tuple[int, int], ...]:
    """The bytes of ``characters`` (ASCII) as ranges ``(low, high)``, for :func:`in_set`."""
    codes = sorted(set(characters.encode("ascii")))
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return tuple((low, high) for low, high in ranges)


def in_set(values: np.ndarray, ranges) -> np.ndarray:
    """Which of the bytes ``values`` are in the set (a few comparisons: no table look-up,
    which costs more per byte). ``ranges`` may also be a function of the bytes."""
    if callable(ranges):
        return ranges(values)
    found = np.zeros(len(values), dtype=bool)
    for low, high in ranges:
        found |= (values == low) if low == high else (values >= low) & (values <= high)
    return found


def positions(codes: np.ndarray, *values: int) -> np.ndarray:
    """Where the bytes ``codes`` hold any of ``values``, looked for 8 MB at a time (a
    whole-file mask would be fresh memory as large as the file)."""
    step = 1 << 23
    found = []
    for start in range(0, len(codes), step):
        window = codes[start : start + step]
        mask = window == values[0]
        for value in values[1:]:
            mask |= window == value
        found.append(np.flatnonzero(mask) + start)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.intp)


def _string_chunks(array):
    """(offsets, data) of each chunk of a string array as NumPy views, or None for a type
    whose buffers are not laid out so (string views)."""
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    found = []
    for chunk in chunks:
        if pa.types.is_large_string(chunk.type):
            width = np.int64
        elif pa.types.is_string(chunk.type):
            width = np.int32
        else:
            return None
        _, offsets, data = chunk.buffers()
        offsets = np.frombuffer(offsets, dtype=width, count=len(chunk) + 1,
                                offset=chunk.offset * np.dtype(width).itemsize)
        data = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
        found.append((offsets, data))
    return found


def first_with_edge_byte(array, ranges) -> int | bool | None:
    """The first row of a string array that is empty or whose first or last byte is in
    the set (:func:`byte_set`), or None; False if the array is not laid out for it.

    For ASCII bytes, the first and last bytes are the first and last characters: in
    UTF-8 no other character has an ASCII byte.
    """
    chunks = _string_chunks(array)
    if chunks is None:
        return False
    # Most strings have no edge byte up to the set's highest (for whitespace: 32): one
    # comparison per edge tells, and the set is looked up only if one does.
    highest = max((high for _, high in ranges), default=None) if not callable(ranges) else 255
    base = 0
    for offsets, data in chunks:
        starts, ends = offsets[:-1], offsets[1:]
        bad = starts == ends
        if len(data) and ranges and len(starts):
            # (An empty string may start at the end of the buffer: it is bad already.)
            for edges in (starts if int(starts[-1]) < len(data) else
                          np.minimum(starts, len(data) - 1),
                          ends - 1 if int(ends[0]) > 0 else np.maximum(ends - 1, 0)):
                found = data[edges]
                if highest == 255 or (found <= highest).any():
                    bad |= in_set(found, ranges)
        if bad.any():
            return base + int(np.argmax(bad))
        base += len(starts)
    return None


def any_byte(array, ranges) -> bool:
    """Whether a byte of a string of the array is in the set (:func:`byte_set`); True
    also if the array is not laid out for it (the caller looks closer)."""
    chunks = _string_chunks(array)
    if chunks is None:
        return True
    return any(in_set(data[offsets[0]:offsets[-1]], ranges).any() for offsets, data in chunks)


def only_bytes(array, ranges) -> bool:
    """Whether every byte of every string of the array is in the set (:func:`byte_set`);
    False also if the array is not laid out for it."""
    chunks = _string_chunks(array)
    if chunks is None:
        return False
    return all(in_set(data[offsets[0]:offsets[-1]], ranges).all() for offsets, data in chunks)


def numpy_column(array, dtype, convert=None) -> np.ndarray:
    """An Arrow column as a new, writable NumPy array, ``convert``-ed chunk by chunk.

    Fresh memory is slow to touch (on the machine measured, a freshly mapped MB costs up
    to 5 ms the first time): converting chunk by chunk into one array needs no
    column-sized temporary. Nulls become NaN, so a column with nulls needs a float dtype.
    """
    out = np.empty(len(array), dtype=dtype)
    start = 0
    for chunk in array.chunks if isinstance(array, pa.ChunkedArray) else [array]:
        values = chunk if convert is None else convert(chunk)
        out[start : start + len(chunk)] = values.to_numpy(zero_copy_only=False)
        start += len(chunk)
    return out


def frame(columns: dict) -> pd.DataFrame:
    """A DataFrame of the columns, without copying them (they are the reader's own);
    a read-only NumPy array (a view of someone else's buffer) is copied first, so that
    the frame can be written to."""
    owned = {name: values.copy() if isinstance(values, np.ndarray) and not
             values.flags.writeable else values for name, values in columns.items()}
    return pd.DataFrame(owned, copy=False)


def is_utf8(data: bytes) -> bool:
    """Whether ``data`` is valid UTF-8 (by Arrow's validator, which agrees with Python's:
    no surrogates, no overlong forms, nothing past U+10FFFF)."""
    offsets = np.array([0, len(data)], dtype=np.int64)
    text = pa.LargeStringArray.from_buffers(1, pa.py_buffer(offsets), pa.py_buffer(data))
    try:
        text.validate(full=True)
    except pa.ArrowInvalid:
        return False
    return True


def read_delimited(
    data: bytes | pa.Buffer,
    delimiter: str,
    n_columns: int,
    *,
    quoted: bool = False,
    keep: list[int] | None = None,
    coded: tuple[int, ...] = (),
    narrow: tuple[int, ...] = (),
    longest: int = 0,
) -> list[pa.ChunkedArray] | None:
    """The fields of delimited text as large-string columns, or None if Arrow refuses it.

    Every record must have exactly ``n_columns`` fields; empty lines are skipped (and no
    other). With ``quoted=False`` every byte but the delimiter and the line breaks is
    data; with ``quoted=True`` a field may be quoted as in RFC 4180 (``"a ""b"" c"``),
    line breaks included. No value becomes null. ``keep`` lists the columns to return
    (all by default); ``coded`` those to return dictionary-encoded (a column of few
    values, such as TREC's ``Q0``: 4 bytes a row instead of 8 and the text); ``narrow``
    those to return as ``string``, with 32-bit offsets (columns of numbers, whose text
    goes once they are parsed: 4 bytes a row less to write). Arrow refuses a record longer
    than the blocks it reads (1 MiB): ``longest``, the length of the longest line, makes
    them longer. The caller checks that ``data`` is UTF-8.
    """
    import pyarrow.csv as pcsv

    names = [f"c{i}" for i in range(n_columns)]
    kept = names if keep is None else [names[i] for i in keep]
    try:
        table = pcsv.read_csv(
            pa.BufferReader(data),
            read_options=pcsv.ReadOptions(column_names=names,
                                          block_size=max(1 << 20, longest + 1)),
            parse_options=pcsv.ParseOptions(
                delimiter=delimiter,
                quote_char='"' if quoted else False,
                double_quote=True,
                escape_char=False,
                newlines_in_values=quoted,
                ignore_empty_lines=True,
            ),
            convert_options=pcsv.ConvertOptions(
                column_types={name: _column_type(int(name[1:]), coded, narrow)
                              for name in kept},
                include_columns=kept,
                null_values=[],
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                check_utf8=False,
            ),
            memory_pool=memory_pool(),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # a record with another number of fields, an unclosed quote, ...
    return [table.column(name) for name in kept]


def _column_type(column: int, coded: tuple[int, ...], narrow: tuple[int, ...]) -> pa.DataType:
    if column in coded:
        return pa.dictionary(pa.int32(), pa.string())
    return pa.string() if column in narrow else pa.large_string()
