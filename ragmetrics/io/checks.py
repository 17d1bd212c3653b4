"""One validation for every file format: the checks and their messages, column by column.

Every reader turns its file into columns of raw values, one value per record, and
these functions check and convert a whole column at once. A column is **text** (CSV,
TSV and TREC files, where every value is written as text) or **typed** (JSONL and
Parquet, where a value is a string, a number, a list or null). The rules are the same
for both, and so are the messages:

- an **id** is a non-empty string without whitespace at either end, or an integer
  (which becomes its decimal text: ``7`` -> ``"7"``); ``"007"``, ``"1e5"`` and ``"nan"``
  stay the strings they are;
- an **integer** (a rank, a grade) is a 64-bit integer; in a typed file a number with
  no fraction (``2`` or ``2.0``, never ``0.5``), not a number written as a string;
- a **number** (a score) is finite; in a typed file a number, not a string;
- a **text** (a document's, a question's) is a string, empty or not; in a typed file,
  not a number, a list or null (:func:`check_texts`).

A column's values are an Arrow array (every text column: TREC, CSV and TSV files are
split by Arrow, or by Python's ``csv`` into Arrow strings; JSONL and Parquet read by
Arrow) or a Series of Python values (JSONL read by Python's ``json``, Parquet values as
Python objects, a caller's values). Each check is its rules, functions of one value that
say what is wrong with it (the definition, and the wording of every message), and one
vectorised way to find the first value that breaks them in an Arrow column
(``pyarrow.compute`` and NumPy over its buffers); Python values are checked by the rules
one at a time (:func:`_checked_column`), and the tests hold the two to one answer.

A check returns the converted column, or a :class:`Bad` naming the first bad record
and what is wrong with it; the reader turns that into a :class:`~ragmetrics.FormatError`
with the file, the line and the text of the line. Where several columns have a bad
value, the earliest record wins, and within one record the first column checked.
"""

from __future__ import annotations

import contextlib
import json
import math
import numbers
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..validation import first_inexact_integer, inexact_integer_problem
from .arrow import (
    arrow_array,
    byte_set,
    first_true,
    first_with_edge_byte,
    memory_pool,
    numpy_column,
    only_bytes,
    text_series,
)

__all__ = [
    "MISSING",
    "TOGETHER_FROM",
    "WHITESPACE",
    "Bad",
    "Column",
    "check_ids",
    "check_integers",
    "check_numbers",
    "check_texts",
    "check_together",
    "earliest",
    "flatten_id_lists",
    "integers_from_text",
    "numbers_from_text",
]

#: What separates fields in TREC files and may not surround an id: C's ``isspace``.
WHITESPACE = " \t\r\f\v"
_ID_WHITESPACE = WHITESPACE + "\n"
_INTEGER = r"[+-]?[0-9]+"
_DECIMAL = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_INTEGER_RE = re.compile(_INTEGER)
_DECIMAL_RE = re.compile(_DECIMAL)
_SURROGATE = re.compile("[\ud800-\udfff]")
_INT64 = np.iinfo(np.int64)
# The same rule for RE2 (pyarrow.compute): ^...$ match the whole value, as fullmatch.
_DECIMAL_WHOLE = f"^(?:{_DECIMAL})$"
_PADDED = r"^[ \t\r\f\v\n]|[ \t\r\f\v\n]$"  # begins or ends with _ID_WHITESPACE
_ID_WHITESPACE_BYTES = byte_set(_ID_WHITESPACE)
# The bytes of a number like 2.5 or -1e-3: an Arrow string column of only these bytes that
# Arrow parses as doubles matches _DECIMAL in full (tests/unit/io/test_fast_readers.py checks
# every such string of up to 5 characters), with the values float() gives.
def _is_decimal_byte(codes: np.ndarray) -> np.ndarray:
    """Which bytes are among ``0-9 . e E + -`` (byte_set's answer, in fewer passes)."""
    found = (codes - np.uint8(ord("-"))) <= ord("9") - ord("-")  # - . / 0-9 (uint8 wraps)
    found &= codes != ord("/")
    if found.all():  # most scores: digits, a point, maybe a minus
        return found
    found |= codes == ord("+")
    found |= (codes | 0x20) == ord("e")  # e or E
    return found



_DIGITS = byte_set("0123456789")


class _Missing:
    """A JSONL line without a key that other lines have."""

    def __repr__(self) -> str:
        return "MISSING"


#: The value of a key absent from a JSONL line.
MISSING = _Missing()


class Bad(NamedTuple):
    """The first bad value of a column: its record (0-based) and what is wrong with it."""

    row: int
    reason: str


class Column(NamedTuple):
    """One column of a file: ``values`` (a Series, one per record) and its kind."""

    name: str
    values: pd.Series
    typed: bool  # JSONL and Parquet: values carry their type; else all text


def earliest(*bads: Bad | None) -> Bad | None:
    """The first bad value by record; on one record, the first argument's."""
    found = [b for b in bads if b is not None]
    return min(found, key=lambda b: b.row) if found else None


#: Columns of this many values or more are checked two at a time (:func:`check_together`).
TOGETHER_FROM = 200_000


def check_together(rows: int, *checks: Callable[[], object]) -> list:
    """The results of ``checks`` (each the check of one column of ``rows`` values), in
    order; from :data:`TOGETHER_FROM` rows on, the last runs in a second thread while the
    others run here.

    ``pyarrow.compute`` and NumPy work without the GIL, and a column of numbers written
    as text (a score to parse) takes as long as the other checks together. A check
    returns a :class:`Bad` rather than raise; should one raise, its exception is raised.
    """
    if rows < TOGETHER_FROM or len(checks) < 2 or (os.cpu_count() or 1) < 2:
        return [check() for check in checks]
    with ThreadPoolExecutor(1) as pool:
        last = pool.submit(checks[-1])
        found = [check() for check in checks[:-1]]
        return [*found, last.result()]


# -- scalar rules: the definition, and the messages ------------------------------------


def id_problem(value, where: str, *, typed: bool = True) -> str | None:
    """What is wrong with ``value`` as an id, or None."""
    if value is MISSING:
        return f"this line has no key {where!r}, which other lines have"
    if typed and isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return None
    if not isinstance(value, str):
        return f"{where} must be a string or an integer id, got {_shown(value)}"
    if not value:
        return f"{where} is empty"
    if value != value.strip(_ID_WHITESPACE):
        # Such an id can never match the same id written without the spaces.
        return f"{where} {value!r} begins or ends with whitespace"
    if _SURROGATE.search(value):  # from a JSON escape such as "\ud800"
        return (f"{where} {value!r} is not text: it holds a lone surrogate (a \\uD800-\\uDFFF "
                "escape without its pair)")
    return None


def _shown(value) -> str:
    """``repr(value)``, cut to 60 characters (a 400-digit number is not read in full)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, np.ndarray):
        value = value.tolist()
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _integer_problem(value, name: str) -> str | None:
    if value is MISSING:
        return f"this line has no key {name!r}, which other lines have"
    if isinstance(value, str):
        return (
            f"{name} must be an integer, got {value!r}, a string; write numbers without "
            "quotes"
        )
    if isinstance(value, (float, np.floating)) and math.isfinite(value) and value.is_integer():
        value = int(value)  # 2.0, as a float column holds it: a whole number
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        return f"{name} must be an integer, got {_shown(value)}"
    if not _INT64.min <= int(value) <= _INT64.max:
        return f"{name} {_shown(int(value))} does not fit a 64-bit integer"
    return None


def _number_problem(value, name: str) -> str | None:
    if value is MISSING:
        return f"this line has no key {name!r}, which other lines have"
    if isinstance(value, str):
        return f"{name} must be a number, got {value!r}, a string; write numbers without quotes"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        return f"{name} must be a number, got {_shown(value)}"
    try:
        number = float(value)
    except OverflowError:  # an integer with hundreds of digits
        return f"{name} {_shown(value)} is too large for a float"
    if math.isnan(number) or (math.isinf(number) and not isinstance(value, numbers.Integral)):
        return f"{name} must be a finite number, got {_shown(value)}"
    if math.isinf(number):
        return f"{name} {_shown(value)} is too large for a float"
    return None


def _first(problems) -> Bad | None:
    """The first (row, reason) whose reason is not None."""
    for row, reason in problems:
        if reason is not None:
            return Bad(row, reason)
    return None


# -- ids ------------------------------------------------------------------------------


def check_ids(column: Column) -> pd.Series | Bad:
    """The ids of a column as text (a ``str`` Series), or the first bad one."""
    array = arrow_array(column.values)
    if array is not None:
        return _arrow_ids(array, column.name)
    values = column.values  # Python values: the rule, one value at a time
    bad = _first((i, id_problem(v, column.name, typed=column.typed))
                 for i, v in enumerate(values))
    if bad is not None:
        return bad
    return _texts(pd.Series([v if isinstance(v, str) else str(int(v)) for v in values],
                            dtype=object))


def _texts(values: pd.Series) -> pd.Series:
    return pd.Series(values.to_numpy(dtype=object), dtype=str)


def _arrow_ids(array, name: str) -> pd.Series | Bad:
    """check_ids on an Arrow column: strings and integers are ids; nulls, empty and
    space-padded strings and any other type are not."""
    array = _plain(array)
    kind = array.type
    if _is_text(kind):
        row = _min_row(first_true(pc.is_null(array)), _first_empty_or_padded(array))
        if row is not None:
            return Bad(row, id_problem(array[row].as_py(), name))
        return text_series(array)
    if pa.types.is_integer(kind):
        row = first_true(pc.is_null(array))
        if row is not None:
            return Bad(row, id_problem(None, name))
        return text_series(pc.cast(array, pa.large_string(), memory_pool=memory_pool()))
    if not len(array):
        return text_series(pa.array([], pa.large_string()))
    return Bad(0, id_problem(array[0].as_py(), name))  # every value of this type is bad


def _first_empty_or_padded(array) -> int | None:
    """The first empty string, or string with whitespace at either end, or None."""
    row = first_with_edge_byte(array, _ID_WHITESPACE_BYTES)
    if row is False:  # not laid out for NumPy (a string view): the same rule in RE2
        empty = pc.equal(pc.binary_length(array), 0)
        row = _first_row(empty, pc.match_substring_regex(array, _PADDED))
    return row


def _cast_to(kind, *, safe: bool = True):
    return lambda chunk: pc.cast(chunk, kind, safe=safe, memory_pool=memory_pool())


def _plain(array):
    """An Arrow column with its dictionary encoding (Parquet's, for strings) undone."""
    if pa.types.is_dictionary(array.type):
        return pc.cast(array, array.type.value_type, memory_pool=memory_pool())
    return array


def _is_text(kind) -> bool:
    return pa.types.is_string(kind) or pa.types.is_large_string(kind) or (
        getattr(pa.types, "is_string_view", lambda _: False)(kind))


def _first_row(*masks) -> int | None:
    """The first row where any of the boolean Arrow arrays is true."""
    return _min_row(*map(first_true, masks))


def _min_row(*rows: int | None) -> int | None:
    found = [row for row in rows if row is not None]
    return min(found) if found else None


# -- texts ----------------------------------------------------------------------------


def text_problem(value, where: str, *, missing_ok: bool = False) -> str | None:
    """What is wrong with ``value`` as a text (a string, empty or not), or None;
    ``missing_ok``: a null or a key left out is no text, not an error."""
    if missing_ok and (value is MISSING or value is None):
        return None
    if value is MISSING:
        return f"this line has no key {where!r}, which other lines have"
    if not isinstance(value, str):
        return f"{where} must be a string, got {_shown(value)}"
    if _SURROGATE.search(value):  # from a JSON escape such as "\ud800"
        return (f"{where} is not text: it holds a lone surrogate (a \\uD800-\\uDFFF escape "
                "without its pair)")
    return None


def check_texts(column: Column, *, missing_ok: bool = False) -> pd.Series | Bad:
    """The texts of a column as a ``str`` Series, or the first value that is not a
    string (:func:`text_problem`). ``missing_ok``: nulls and keys left out are kept as
    missing values (a title that some records lack).

    Examples
    --------
    >>> check_texts(Column("text", pd.Series(["a", "", 7], dtype=object), True))
    Bad(row=2, reason='text must be a string, got 7')
    """
    array = arrow_array(column.values)
    if array is not None:
        array = _plain(array)
        if _is_text(array.type):
            row = None if missing_ok else first_true(pc.is_null(array))
            if row is None:
                return text_series(array)
            return Bad(row, text_problem(None, column.name))
        if missing_ok and pa.types.is_null(array.type):
            return text_series(pa.nulls(len(array), pa.large_string()))
        if not len(array):
            return text_series(pa.array([], pa.large_string()))
        return Bad(0, text_problem(array[0].as_py(), column.name))
    values = column.values
    bad = _first((i, text_problem(v, column.name, missing_ok=missing_ok))
                 for i, v in enumerate(values))
    if bad is not None:
        return bad
    return pd.Series([None if v is MISSING else v for v in values], dtype=str)


# -- flags (answerable) ------------------------------------------------------------------

#: How a flag may be written in a CSV or TSV cell (any case): the text of a boolean, 1 or 0.
FLAG_TEXTS = {"true": True, "false": False, "1": True, "0": False}


def flag_problem(value, name: str, *, typed: bool) -> str | None:
    """What is wrong with ``value`` as a flag (``answerable``), or None.

    Typed files (JSONL, Parquet): a boolean, or the integer 1 or 0. Text files: ``true``,
    ``false`` (any case), ``1`` or ``0``.
    """
    return None if _flag_of(value, typed) is not None else (
        f"this line has no key {name!r}, which other lines have" if value is MISSING
        else f"{name} must be true or false (or 1 or 0), got {_shown(value)}")


def _flag_of(value, typed: bool) -> bool | None:
    if value is MISSING or value is None:
        return None
    if not typed:
        return FLAG_TEXTS.get(str(value).lower()) if isinstance(value, str) else None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (numbers.Integral, np.integer)) and value in (0, 1):
        return bool(value)
    return None


def check_flags(column: Column) -> np.ndarray | Bad:
    """A bool column, or the first value that is not a flag (:func:`flag_problem`).

    Each distinct value is judged once: a column of a million flags holds two or four.
    """
    values = column.values
    array = arrow_array(values)
    if array is not None:  # Arrow: its own dictionary of the few distinct values
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        encoded = pc.dictionary_encode(array)
        uniques = encoded.dictionary.to_pylist()
        indices = encoded.indices
        if indices.null_count:  # a missing value: a code of its own
            indices = pc.fill_null(indices, pa.scalar(len(uniques), indices.type))
            uniques = [*uniques, None]
        codes = indices.to_numpy(zero_copy_only=False).astype(np.int64)
    else:
        codes, uniques = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=False)
    flags = np.zeros(len(uniques), dtype=bool)
    first_bad = None
    for i, value in enumerate(uniques):
        flag = _flag_of(value, column.typed)
        if flag is None:
            row = int(np.argmax(codes == i))
            if first_bad is None or row < first_bad[0]:
                first_bad = (row, value)
        else:
            flags[i] = flag
    if first_bad is not None:
        return Bad(first_bad[0], flag_problem(first_bad[1], column.name, typed=column.typed))
    return flags[codes]


# -- numbers --------------------------------------------------------------------------


def check_integers(column: Column) -> np.ndarray | Bad:
    """An int64 column, or the first value that is not a 64-bit integer."""
    if not column.typed:
        return integers_from_text(column.values, column.name)
    return _checked_column(column, _arrow_integers, (_integer_problem,), _integers)


def check_numbers(column: Column) -> np.ndarray | Bad:
    """A float64 column of finite numbers, or the first value that is not one."""
    if not column.typed:
        return numbers_from_text(column.values, column.name)
    return _checked_column(column, _arrow_numbers, (_number_problem,), _floats)


def integers_from_text(values, name: str) -> np.ndarray | Bad:
    """Text column -> int64, or the first row that is not a 64-bit integer: the first
    that is not written as one (``[+-]?[0-9]+``), else the first beyond int64."""
    return _checked_column(Column(name, values, False), _arrow_integers_from_text,
                           (_not_integer_text, _beyond_int64), _integers)


def numbers_from_text(values, name: str) -> np.ndarray | Bad:
    """Text column -> float64, or the first row without a finite number: the first that
    is not written as one (``_DECIMAL``), else the first beyond float64, else the first
    whole number its float does not hold exactly."""
    return _checked_column(Column(name, values, False), _arrow_numbers_from_text,
                           (_not_decimal_text, _beyond_float64), _floats)


def _checked_column(column: Column, vectorized: Callable, rules: tuple[Callable, ...],
                    convert: Callable) -> np.ndarray | Bad:
    """A column checked by ``vectorized`` if it is held in Arrow, else value by value:
    the first value that breaks the first of the ``rules`` (each a function of a value
    and the column's name, giving the problem or None), else the second, ...; then the
    values ``convert``-ed. The rules are the definition: the Arrow checks find the same
    value and word it with them."""
    array = arrow_array(column.values)
    if array is not None:
        return vectorized(array, column.name)
    values = column.values
    for rule in rules:
        bad = _first((i, rule(value, column.name)) for i, value in enumerate(values))
        if bad is not None:
            return bad
    return convert(values, column.name)


def _integers(values, name: str) -> np.ndarray:
    return np.array([int(v) for v in values], dtype=np.int64)


def _floats(values, name: str) -> np.ndarray | Bad:
    return _exact_integers(np.array([float(v) for v in values], dtype=np.float64),
                           lambda row: values.iloc[row], name)


def _not_integer_text(value, name: str) -> str | None:
    if not isinstance(value, str) or not _INTEGER_RE.fullmatch(value):
        return f"{name} must be an integer, got {value!r}"
    return None


def _beyond_int64(value: str, name: str) -> str | None:
    if not _INT64.min <= int(value) <= _INT64.max:
        return f"{name} {value!r} does not fit a 64-bit integer"
    return None


def _not_decimal_text(value, name: str) -> str | None:
    if not isinstance(value, str) or not _DECIMAL_RE.fullmatch(value):
        return _not_a_number(name, value)
    return None


def _beyond_float64(value: str, name: str) -> str | None:
    if math.isinf(float(value)):
        return f"{name} {value!r} is too large for a float"
    return None


def _exact_integers(out: np.ndarray, value_at: Callable, name: str) -> np.ndarray | Bad:
    """``out``, or the first row holding a whole number (written as one: ``12``, an int)
    that its float64 does not hold exactly (:func:`~ragmetrics.validation.
    first_inexact_integer`)."""
    def exact(row: int):
        value = value_at(row)
        if isinstance(value, str):
            value = value.strip()
            return int(value) if _INTEGER_RE.fullmatch(value) else None
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
            return None
        return int(value)

    row = first_inexact_integer(out, exact)
    if row is None:
        return out
    value = value_at(row)
    return Bad(row, inexact_integer_problem(name, value.strip() if isinstance(value, str)
                                            else int(value)))


def _arrow_integers_from_text(array, name: str) -> np.ndarray | Bad:
    """integers_from_text on Arrow strings (text columns have no nulls)."""
    if not array.null_count and only_bytes(array, _DIGITS) and (
            first_with_edge_byte(array, ()) is None):
        digits = plus = None  # no sign, no empty value: ``[0-9]+`` in full
    else:
        plus, minus = pc.starts_with(array, "+"), pc.starts_with(array, "-")
        digits = array  # ``[+-]?[0-9]+`` is: one sign at most, then ASCII digits
        if pc.any(plus).as_py() or pc.any(minus).as_py():
            digits = pc.if_else(pc.or_(plus, minus), pc.utf8_slice_codeunits(array, 1),
                                array, memory_pool=memory_pool())
        row = _first_row(pc.is_null(array), pc.invert(pc.ascii_is_decimal(digits)))
        if row is not None:
            return Bad(row, _not_integer_text(array[row].as_py(), name))
    # Arrow's parser takes no "+".
    unsigned = pc.if_else(plus, digits, array, memory_pool=memory_pool()) if (
        plus is not None and pc.any(plus).as_py()) else array
    try:
        return numpy_column(unsigned, np.int64, _cast_to(pa.int64()))
    except pa.ArrowInvalid:  # beyond int64: only a value of 19 digits or more can be
        long = np.flatnonzero(pc.greater(pc.binary_length(array), 18).to_numpy(
            zero_copy_only=False))
        for row in map(int, long):
            problem = _beyond_int64(array[row].as_py(), name)
            if problem is not None:
                return Bad(row, problem)
        raise


def _arrow_numbers_from_text(array, name: str) -> np.ndarray | Bad:
    """numbers_from_text on Arrow strings: Arrow parses decimals as Python's float() does
    (correctly rounded; 1e999 is inf, 1e-400 is 0.0)."""
    out = None
    if not array.null_count and only_bytes(array, _is_decimal_byte):
        # Parsed, and made of the bytes of numbers: a match of _DECIMAL (see above).
        with contextlib.suppress(pa.ArrowInvalid):
            out = numpy_column(array, np.float64, _cast_to(pa.float64()))
    if out is None:
        bad = pc.invert(pc.match_substring_regex(array, _DECIMAL_WHOLE))
        row = _first_row(pc.is_null(array), bad)
        if row is not None:
            return Bad(row, _not_decimal_text(array[row].as_py(), name))
        try:
            out = numpy_column(array, np.float64, _cast_to(pa.float64()))
        except pa.ArrowInvalid:  # not seen; the definition decides
            out = np.array([float(v) for v in array.to_pylist()], dtype=np.float64)
    finite = np.isfinite(out)
    if not finite.all():
        row = int(np.argmin(finite))
        return Bad(row, _beyond_float64(array[row].as_py(), name))
    return _exact_integers(out, lambda row: array[row].as_py(), name)


def _arrow_integers(array, name: str) -> np.ndarray | Bad:
    """check_integers on a typed Arrow column (Parquet, JSON Lines)."""
    array = _plain(array)
    kind = array.type
    if pa.types.is_integer(kind):
        masks = [pc.is_null(array)]
        if pa.types.is_uint64(kind):
            masks.append(pc.greater(array, pa.scalar(_INT64.max, pa.uint64())))
        row = _first_row(*masks)
        if row is not None:
            return Bad(row, _integer_problem(array[row].as_py(), name))
        return numpy_column(array, np.int64, _cast_to(pa.int64()))
    if pa.types.is_floating(kind):  # nulls become NaN, which is not whole
        floats = numpy_column(array, np.float64, _cast_to(pa.float64()))
        whole = np.isfinite(floats) & (np.floor(floats) == floats)
        whole &= (floats >= -(2.0**63)) & (floats < 2.0**63)
        if whole.all():
            return floats.astype(np.int64)
        row = int(np.argmin(whole))
        return Bad(row, _integer_problem(array[row].as_py(), name))
    if not len(array):
        return np.empty(0, dtype=np.int64)
    return Bad(0, _integer_problem(array[0].as_py(), name))  # every value of this type is bad


def _arrow_numbers(array, name: str) -> np.ndarray | Bad:
    """check_numbers on a typed Arrow column (Parquet, JSON Lines)."""
    array = _plain(array)
    kind = array.type
    if pa.types.is_integer(kind) or pa.types.is_floating(kind):
        # An integer becomes the nearest float, as float() makes it; a null becomes NaN.
        out = numpy_column(array, np.float64, _cast_to(pa.float64(), safe=False))
        finite = np.isfinite(out)
        if finite.all():
            return _exact_integers(out, lambda row: array[row].as_py(), name)
        row = int(np.argmin(finite))
        return Bad(row, _number_problem(array[row].as_py(), name))
    if not len(array):
        return np.empty(0, dtype=np.float64)
    return Bad(0, _number_problem(array[0].as_py(), name))  # every value of this type is bad


def _not_a_number(name: str, value: str) -> str:
    if value.strip().lstrip("+-").lower() in ("nan", "inf", "infinity"):
        return f"{name} must be a finite number, got {value!r}"
    return f"{name} must be a number like 2.5 or -1e-3, got {value!r}"


# -- lists of ids (the wide form) -----------------------------------------------------


def flatten_id_lists(column: Column) -> tuple[pd.Series, np.ndarray, np.ndarray] | Bad:
    """One list of ids per record -> (ids, record of each id, position from 1), or Bad.

    A list is a JSON array (in a typed file, a list value), or text: a JSON array
    written as text, or ids separated by ``|`` or by ``;`` (spaces around a separator
    are dropped). An empty list gives no ids.
    """
    values = column.values
    array = arrow_array(values)
    if array is not None:
        array = _plain(array)
        kind = array.type
        if (pa.types.is_list(kind) or pa.types.is_large_list(kind)) and (
                _is_text(kind.value_type) or pa.types.is_integer(kind.value_type)):
            return _arrow_id_lists(array, column.name)
        values = array.to_pylist()  # text to parse, or values of mixed kinds: one by one
    lists: list[Sequence] = []
    for row, value in enumerate(values):
        parsed = _as_list(value, column.name)
        if isinstance(parsed, str):
            return Bad(row, parsed)
        lists.append(parsed)
    lengths = np.fromiter(map(len, lists), np.int64, len(lists))
    flat = pd.Series([item for items in lists for item in items], dtype=object)
    records = np.repeat(np.arange(len(lists), dtype=np.int64), lengths)
    positions = np.ones(len(flat), dtype=np.int64)
    if len(flat):
        starts = np.cumsum(lengths) - lengths
        positions = np.arange(len(flat), dtype=np.int64) - np.repeat(starts, lengths) + 1
    for i, value in enumerate(flat):
        problem = id_problem(value, f"{column.name}[{positions[i] - 1}]")
        if problem is not None:
            return Bad(int(records[i]), problem)
    ids = flat.map(lambda v: v if isinstance(v, str) else str(int(v)))
    return _texts(ids), records, positions


def _arrow_id_lists(array, name: str) -> tuple[pd.Series, np.ndarray, np.ndarray] | Bad:
    """flatten_id_lists on an Arrow list column of strings or integers."""
    row = first_true(pc.is_null(array))
    if row is not None:
        return Bad(row, _as_list(None, name))
    lengths = pc.list_value_length(array).to_numpy(zero_copy_only=False).astype(np.int64)
    flat = pc.list_flatten(array, memory_pool=memory_pool())
    records = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    starts = np.cumsum(lengths) - lengths
    positions = np.arange(len(records), dtype=np.int64) - np.repeat(starts, lengths) + 1
    masks = [pc.is_null(flat)]
    if _is_text(flat.type):
        masks += [pc.equal(pc.binary_length(flat), 0), pc.match_substring_regex(flat, _PADDED)]
    item = _first_row(*masks)
    if item is not None:
        where = f"{name}[{positions[item] - 1}]"
        return Bad(int(records[item]), id_problem(flat[item].as_py(), where))
    ids = flat if _is_text(flat.type) else pc.cast(flat, pa.large_string(),
                                                   memory_pool=memory_pool())
    return text_series(ids), records, positions


def _as_list(value, name: str) -> Sequence | str:
    """The list a cell holds, or what is wrong with it (a str)."""
    if value is MISSING:
        return f"this line has no key {name!r}, which other lines have"
    if isinstance(value, str):
        value = _parse_id_list(value, name)
        if isinstance(value, _Problem):
            return str(value)
    if isinstance(value, np.ndarray):  # a Parquet list
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        return f"{name} must be a list of ids, got {_shown(value)}"
    return value


class _Problem(str):
    """A message, told apart from a list's text."""


def _parse_id_list(text: str, name: str) -> list | _Problem:
    text = text.strip(WHITESPACE)
    if text.startswith("["):
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as error:
            return _Problem(f"{name} starts with '[' but is not a JSON array ({error})")
    if not text:
        return []
    if "|" in text and ";" in text:
        return _Problem(f"{name} mixes the separators '|' and ';'; use one")
    separator = "|" if "|" in text else ";"
    items = [item.strip(WHITESPACE) for item in text.split(separator)]
    if "" in items:
        return _Problem(f"{name} has an empty id between separators {separator!r}")
    return items
