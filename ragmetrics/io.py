"""Read runs and judgments from files: TREC, CSV and JSONL, exactly or not at all.

Four readers, two shapes of result:

- :func:`read_trec_run` and :func:`read_results` return a **run**: one row per retrieved
  doc, columns ``query_id``, ``doc_id`` and ``rank`` and/or ``score``.
- :func:`read_trec_qrels` and :func:`read_golden` return **qrels**: one row per judged
  doc, columns ``query_id``, ``doc_id`` and ``relevance``.

Both shapes go straight into :func:`ragmetrics.evaluate`.

Three promises hold for every reader:

1. **Ids are text.** ``007``, ``1e5``, ``nan``, ``NULL`` and ``True`` are read as the
   strings they are, never as numbers, missing values or booleans. (A JSON integer id
   ``7`` becomes ``"7"``.)
2. **Nothing is dropped or guessed.** Every data line becomes rows, or the reader raises
   :class:`FormatError` naming the file, the line number and the line. Only blank lines
   are skipped.
3. **Line numbers are physical.** Lines end at ``\\n`` (a ``\\r`` before it is ignored)
   and every line counts, blank ones included, so ``line 12`` is line 12 in an editor.

Whitespace, where it separates fields (TREC files), is what C's ``isspace`` calls
whitespace, as in trec_eval: space, tab, ``\\r``, ``\\v`` and ``\\f``. A file must be UTF-8
(a leading byte-order mark is allowed).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from ._validation import check_choice
from .errors import FormatError, InputValueError

__all__ = ["FormatError", "read_golden", "read_results", "read_trec_qrels", "read_trec_run"]

_WHITESPACE = " \t\r\f\v"
_FIELD = re.compile(r"[^ \t\r\f\v]+")
_INTEGER = r"[+-]?[0-9]+"
_DECIMAL = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_INTEGER_RE = re.compile(_INTEGER)
_DECIMAL_RE = re.compile(_DECIMAL)
_INT64 = np.iinfo(np.int64)
# Below this many characters (about 800 run lines) the line scan beats pandas' start-up.
_FAST_PARSE_FROM = 32_768

_FORMATS = {"csv": "csv", "tsv": "tsv", "jsonl": "jsonl", "ndjson": "jsonl"}
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl"}


class _Source:
    """A file's decoded text, with helpers to report a line of it."""

    def __init__(self, path) -> None:
        self.name = os.fspath(path)
        raw = Path(path).read_bytes()
        if raw.startswith(b"\xef\xbb\xbf"):  # UTF-8 byte-order mark, e.g. from Excel
            raw = raw[3:]
        try:
            self.text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            line = raw.count(b"\n", 0, error.start) + 1
            start = raw.rfind(b"\n", 0, error.start) + 1
            end = raw.find(b"\n", error.start)
            text = raw[start : len(raw) if end < 0 else end].rstrip(b"\r")
            raise FormatError(
                f"not valid UTF-8 (byte 0x{raw[error.start]:02x}, byte {error.start - start + 1} "
                "of the line); save the file as UTF-8",
                path=self.name,
                line=line,
                text=text.decode("utf-8", errors="backslashreplace"),
            ) from None
        self._lines: list[str] | None = None

    def lines(self) -> list[str]:
        """Physical lines, without their ``\\n``; a final ``\\n`` ends the last line."""
        if self._lines is None:
            self._lines = self.text.split("\n")
            if self._lines[-1] == "" and len(self._lines) > 1:
                self._lines.pop()
        return self._lines

    def line_text(self, number: int) -> str:
        line = self.lines()[number - 1]
        return line.removesuffix("\r")

    def error(self, reason: str, line: int | None = None) -> FormatError:
        text = None if line is None else self.line_text(line)
        return FormatError(reason, path=self.name, line=line, text=text)


# --- TREC files --------------------------------------------------------------------------

_RUN_LAYOUT = ("query_id", "Q0", "doc_id", "rank", "score", "run_name")
_QRELS_LAYOUT = ("query_id", "iteration", "doc_id", "relevance")


def _split_fast(
    text: str, n_fields: int, *, more_allowed: bool = False
) -> tuple[list[pd.Series], np.ndarray] | None:
    """Fields of a whitespace-separated file by pandas' C parser, or None if in any doubt.

    None means "let the line-by-line scan decide": the scan is the definition, this is
    only a faster way to the same answer for well-formed files (checked by the tests).
    """
    # The C parser splits on space and tab only, and ends lines at a lone \r too; leave
    # files with other whitespace or lone \r (and NUL, to be safe) to the scan.
    if not text or any(c in text for c in "\x00\f\v"):
        return None
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "names do not match the data": a doubt
        try:
            frame = pd.read_csv(
                io.StringIO(text),
                sep=r"\s+",
                header=None,
                names=range(n_fields + 1),  # one spare column catches a line too long
                index_col=False,
                dtype=str,
                na_filter=False,  # keep "nan", "NULL", "" as text
                quoting=csv.QUOTE_NONE,
                skip_blank_lines=False,  # one row per physical line: row i is line i + 1
                engine="c",
            )
        except (ValueError, Warning):  # ParserError, EmptyDataError, ParserWarning
            return None  # the scan finds and reports the problem
    if len(frame) != text.count("\n") + (not text.endswith("\n")):
        return None
    blank = (frame[0] == "").to_numpy(dtype=bool)  # a missing first field: nothing on it
    data = frame[~blank] if blank.any() else frame
    if (data.iloc[:, :n_fields] == "").to_numpy(dtype=bool).any():
        return None  # a line too short
    if not more_allowed and (data[n_fields] != "").to_numpy(dtype=bool).any():
        return None  # a line too long
    columns = [data[i].reset_index(drop=True) for i in range(n_fields)]
    return columns, np.flatnonzero(~blank) + 1


def _split_slowly(
    source: _Source, layout: tuple[str, ...], *, more_allowed: bool = False
) -> tuple[list[pd.Series], np.ndarray, FormatError | None]:
    """Fields line by line, up to the first line with the wrong number of fields.

    Returns the fields of the good lines before it and the error for that line (or
    None), so that the caller can first report a bad number on an earlier line.
    """
    rows: list[list[str]] = []
    numbers: list[int] = []
    problem = None
    for number, line in enumerate(source.lines(), start=1):
        fields = _FIELD.findall(line)
        if not fields:
            continue
        if len(fields) < len(layout) or (len(fields) > len(layout) and not more_allowed):
            reason = f"expected {len(layout)} fields ({' '.join(layout)}), got {len(fields)}"
            if len(fields) > len(layout) and layout == _RUN_LAYOUT:
                reason += (
                    "; pass extra_fields='ignore' to ignore what follows the run name, "
                    "as trec_eval does"
                )
            problem = source.error(reason, number)
            break
        rows.append(fields[: len(layout)])
        numbers.append(number)
    columns = [pd.Series(list(values), dtype=str) for values in zip(*rows, strict=True)]
    if not rows:
        columns = [pd.Series([], dtype=str) for _ in layout]
    return columns, np.asarray(numbers, dtype=np.int64), problem


class _Bad(NamedTuple):
    """The first bad value of a column: its row and what is wrong with it."""

    row: int
    reason: str


def _integers(values: pd.Series, name: str) -> np.ndarray | _Bad:
    """Text column -> int64, or the first row that is not a 64-bit integer."""
    valid = values.str.fullmatch(_INTEGER).to_numpy(dtype=bool)
    if not valid.all():
        i = int(np.argmin(valid))
        return _Bad(i, f"{name} must be an integer, got {values.iloc[i]!r}")
    try:
        return _cast(values, "int64")
    except (OverflowError, ValueError):
        for i, value in enumerate(values):
            if not _INT64.min <= int(value) <= _INT64.max:
                return _Bad(i, f"{name} {value!r} does not fit a 64-bit integer")
        raise


def _decimals(values: pd.Series, name: str) -> np.ndarray | _Bad:
    """Text column -> float64, or the first row without a finite number."""
    valid = values.str.fullmatch(_DECIMAL).to_numpy(dtype=bool)
    if not valid.all():
        i = int(np.argmin(valid))
        return _Bad(i, _not_a_number(name, values.iloc[i]))
    try:
        out = _cast(values, "float64")
    except (OverflowError, ValueError):  # a backend that refuses 1e999 instead of giving inf
        out = np.array([float(v) for v in values], dtype=np.float64)
    finite = np.isfinite(out)
    if not finite.all():
        i = int(np.argmin(finite))
        return _Bad(i, f"{name} {values.iloc[i]!r} is too large for a float")
    return out


def _cast(values: pd.Series, dtype: str) -> np.ndarray:
    """Checked text -> numbers; through pyarrow when the text lives there (10x faster)."""
    if getattr(values.dtype, "storage", None) == "pyarrow":
        try:
            return values.astype(f"{dtype}[pyarrow]").to_numpy(dtype=dtype)
        except (ValueError, TypeError, OverflowError):
            pass  # pyarrow refuses some valid text, e.g. "+1" as an int: cast it generally
    return values.astype(dtype).to_numpy()


def _not_a_number(name: str, value: str) -> str:
    if value.strip().lstrip("+-").lower() in ("nan", "inf", "infinity"):
        return f"{name} must be a finite number, got {value!r}"
    return f"{name} must be a number like 2.5 or -1e-3, got {value!r}"


_Convert = Callable[[pd.Series, str], "np.ndarray | _Bad"]


def _read_trec(
    path,
    layout: tuple[str, ...],
    keep: dict[str, _Convert | None],
    *,
    more_allowed: bool = False,
) -> pd.DataFrame:
    source = _Source(path)
    split = None
    if len(source.text) >= _FAST_PARSE_FROM:
        split = _split_fast(source.text, len(layout), more_allowed=more_allowed)
    if split is None:
        columns, lines, problem = _split_slowly(source, layout, more_allowed=more_allowed)
    else:
        (columns, lines), problem = split, None
    fields = dict(zip(layout, columns, strict=True))
    out = {}
    for name, convert in keep.items():
        out[name] = fields[name] if convert is None else convert(fields[name], name)
    bad = [value for value in out.values() if isinstance(value, _Bad)]
    if bad:  # the earliest line, whichever column it is in; and before a later `problem`
        first = min(bad, key=lambda b: b.row)  # on one line: the first column
        raise source.error(first.reason, int(lines[first.row]))
    if problem is not None:
        raise problem
    if not len(lines):
        raise source.error("no data lines: the file is empty or blank")
    return pd.DataFrame(out)


def read_trec_run(path, *, extra_fields: str = "error") -> pd.DataFrame:
    """Read a run in TREC format: ``query_id Q0 doc_id rank score run_name`` per line.

    This is the format trec_eval reads and most IR toolkits write. Fields are separated
    by any run of whitespace; blank lines are skipped. The ``Q0`` field is ignored (its
    content is never checked, as in trec_eval). A large file is parsed by pandas' C
    parser, and only if that parse raises a doubt does a line-by-line scan find the first
    bad line, so a file of a million lines reads in a few seconds.

    Parameters
    ----------
    path : str or os.PathLike
        The run file, UTF-8.
    extra_fields : {"error", "ignore"}, default "error"
        What to do with a line of more than 6 fields. trec_eval ignores whatever follows
        the run name (its own test file ``results.trunc`` has such lines); "ignore" does
        the same, "error" refuses the line, as a sign that the file is not what it seems.

    Returns
    -------
    pandas.DataFrame
        One row per line, in file order, with columns ``query_id`` and ``doc_id`` (str),
        ``rank`` (int64), ``score`` (float64) and ``run_name`` (str). trec_eval ranks by
        ``score`` and ignores ``rank``; :func:`ragmetrics.evaluate` uses ``score`` when
        both are present.

    Raises
    ------
    FormatError
        For a line without exactly 6 fields, a ``rank`` that is not an integer, a
        ``score`` that is not a finite number, bytes that are not UTF-8, or a file with
        no data lines; it names the first such line.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "bm25.run"
    ...     _ = path.write_text(
    ...         "q1 Q0 007 1 14.2 bm25\\n"
    ...         "q1 Q0 d9  2 11.0 bm25\\n"
    ...         "\\n"
    ...         "q2 Q0 1e5 1 9.5  bm25\\n"
    ...     )
    ...     run = read_trec_run(path)
    >>> run
      query_id doc_id  rank  score run_name
    0       q1    007     1   14.2     bm25
    1       q1     d9     2   11.0     bm25
    2       q2    1e5     1    9.5     bm25

    The ids stay exactly as written: ``"007"``, not 7; ``"1e5"``, not 100000.0.

    >>> run["doc_id"].tolist()
    ['007', 'd9', '1e5']

    A malformed line is reported with its physical line number, blank lines counted:

    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "bad.run"
    ...     _ = path.write_text("q1 Q0 d1 1 3.5 bm25\\n\\nq1 Q0 d2 2 bm25\\n")
    ...     try:
    ...         read_trec_run(path)
    ...     except FormatError as error:
    ...         print(error.line, error.reason)
    3 expected 6 fields (query_id Q0 doc_id rank score run_name), got 5
    """
    keep = {
        "query_id": None,
        "doc_id": None,
        "rank": _integers,
        "score": _decimals,
        "run_name": None,
    }
    more_allowed = check_choice(extra_fields, ("error", "ignore"), "extra_fields") == "ignore"
    return _read_trec(path, _RUN_LAYOUT, keep, more_allowed=more_allowed)


def read_trec_qrels(path) -> pd.DataFrame:
    """Read judgments in TREC qrels format: ``query_id iteration doc_id relevance`` per line.

    The qrels ("query relevance judgments") give each judged doc a grade: 0 for judged
    not relevant, 1 or more for relevant (higher is more relevant), and in some
    collections negative grades such as -1 for "judged harmful" or "spam"; they are kept.
    The ``iteration`` field is ignored, as in trec_eval. Fields are separated by any run
    of whitespace; blank lines are skipped.

    Parameters
    ----------
    path : str or os.PathLike
        The qrels file, UTF-8.

    Returns
    -------
    pandas.DataFrame
        One row per line, in file order, with columns ``query_id`` and ``doc_id`` (str)
        and ``relevance`` (int64).

    Raises
    ------
    FormatError
        For a line without exactly 4 fields, a ``relevance`` that is not an integer,
        bytes that are not UTF-8, or a file with no data lines.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "qrels.txt"
    ...     _ = path.write_text("301 0 FR940202-2-00150 1\\n301 0 FR9 0\\n302\\t0\\tLA01 -1\\n")
    ...     qrels = read_trec_qrels(path)
    >>> qrels
      query_id            doc_id  relevance
    0      301  FR940202-2-00150          1
    1      301               FR9          0
    2      302              LA01         -1
    >>> qrels.dtypes.relevance
    dtype('int64')
    """
    keep = {"query_id": None, "doc_id": None, "relevance": _integers}
    return _read_trec(path, _QRELS_LAYOUT, keep)


# --- CSV and JSONL files -----------------------------------------------------------------


class _Table:
    """Records of a CSV or JSONL file: ``(line number, {column: value})`` in file order."""

    def __init__(self, source: _Source, columns: list[str], records: list) -> None:
        self.source = source
        self.columns = columns
        self.records = records

    def require(self, column: str, what: str) -> None:
        if column not in self.columns:
            raise self.source.error(f"{what} has no column {column!r} ({self.found()})")

    def found(self) -> str:
        return "columns found: " + (", ".join(map(repr, self.columns)) or "none")


def _format_of(path, format: str | None) -> str:
    if format is not None:
        return _FORMATS[check_choice(format, _FORMATS, "format")]
    suffix = Path(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        known = ", ".join(_EXTENSIONS)
        raise InputValueError(
            f"cannot tell the format of {os.fspath(path)!r} from its extension {suffix!r} "
            f"(known: {known}); pass format='csv', 'tsv' or 'jsonl'"
        )
    return _EXTENSIONS[suffix]


def _read_table(path, format: str | None) -> _Table:
    kind = _format_of(path, format)
    source = _Source(path)
    if kind == "jsonl":
        table = _read_jsonl(source)
    else:
        table = _read_csv(source, delimiter="\t" if kind == "tsv" else ",")
    if not table.records:
        what = "the file is empty or blank" if kind == "jsonl" else "the file has only a header"
        raise source.error(f"no data lines: {what}")
    return table


def _is_blank(text: str) -> bool:
    return not text.strip(_WHITESPACE)


def _read_csv(source: _Source, delimiter: str) -> _Table:
    lines = source.lines()
    reader = csv.reader((line + "\n" for line in lines), delimiter=delimiter, strict=True)
    header: list[str] | None = None
    records = []
    end = 0
    while True:
        start = end + 1  # a record may span lines (a quoted field with a newline)
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
            header = [name.strip(_WHITESPACE) for name in fields]
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
        records.append((start, dict(zip(header, fields, strict=True))))
    if header is None:
        raise source.error("no header line: the file is empty or blank")
    return _Table(source, [name for name in header if name], records)


def _read_jsonl(source: _Source) -> _Table:
    records = []
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
        records.append((number, record))
    return _Table(source, list(columns), records)


def _no_repeated_keys(pairs: list) -> dict:
    record = dict(pairs)
    if len(record) != len(pairs):
        repeated = next(key for key, _ in pairs if [k for k, _ in pairs].count(key) > 1)
        raise InputValueError(f"key {repeated!r} appears twice in one object")
    return record


def _json_kind(value) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


class _Cells:
    """Checked values of one record; every error names the record's line."""

    def __init__(self, table: _Table, line: int, record: dict) -> None:
        self.table = table
        self.line = line
        self.record = record

    def fail(self, reason: str) -> FormatError:
        return self.table.source.error(reason, self.line)

    def get(self, column: str):
        if column not in self.record:
            raise self.fail(f"this line has no key {column!r}, which other lines have")
        return self.record[column]

    def id(self, column: str) -> str:
        return self.check_id(self.get(column), column)

    def check_id(self, value, where: str) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)  # a JSON integer id
        if not isinstance(value, str):
            raise self.fail(f"{where} must be a string or an integer id, got {value!r}")
        if not value:
            raise self.fail(f"{where} is empty")
        if value != value.strip(_WHITESPACE + "\n"):
            # Such an id can never match the same id written without the spaces.
            raise self.fail(f"{where} {value!r} begins or ends with whitespace")
        return value

    def integer(self, column: str) -> int:
        value = self.get(column)
        if isinstance(value, str) and _INTEGER_RE.fullmatch(value):
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(f"{column} must be an integer, got {value!r}")
        if not _INT64.min <= value <= _INT64.max:
            raise self.fail(f"{column} {value!r} does not fit a 64-bit integer")
        return value

    def number(self, column: str) -> float:
        value = self.get(column)
        if isinstance(value, str) and not _DECIMAL_RE.fullmatch(value):
            raise self.fail(_not_a_number(column, value))
        if isinstance(value, float) and not np.isfinite(value):  # JSON NaN, Infinity
            raise self.fail(f"{column} must be a finite number, got {value!r}")
        if not isinstance(value, (int, float, str)) or isinstance(value, bool):
            raise self.fail(f"{column} must be a number, got {value!r}")
        try:
            number = float(value)
        except OverflowError:  # a JSON integer with hundreds of digits
            number = float("inf")
        if not np.isfinite(number):
            raise self.fail(f"{column} {value!r} is too large for a float")
        return number

    def id_list(self, column: str) -> list[str]:
        """A list of ids: a JSON array, or text with one id or several separated by | or ;."""
        value = self.get(column)
        if isinstance(value, str):
            value = self._parse_id_list(value, column)
        if not isinstance(value, list):
            raise self.fail(f"{column} must be a list of ids, got {value!r}")
        return [self.check_id(item, f"{column}[{i}]") for i, item in enumerate(value)]

    def _parse_id_list(self, text: str, column: str) -> list:
        text = text.strip(_WHITESPACE)
        if text.startswith("["):
            try:
                return json.loads(text)
            except (ValueError, RecursionError) as error:
                raise self.fail(
                    f"{column} starts with '[' but is not a JSON array ({error})"
                ) from None
        if not text:
            return []
        if "|" in text and ";" in text:
            raise self.fail(f"{column} mixes the separators '|' and ';'; use one")
        separator = "|" if "|" in text else ";"
        items = [item.strip(_WHITESPACE) for item in text.split(separator)]
        if "" in items:
            raise self.fail(f"{column} has an empty id between separators {separator!r}")
        return items


def _form(table: _Table, what: str, long_column: str, wide_column: str) -> str:
    """'long' or 'wide': the form is named by the columns, never guessed from the values."""
    table.require("query_id", what)
    has_long, has_wide = long_column in table.columns, wide_column in table.columns
    if has_long and has_wide:
        raise table.source.error(
            f"{what} has both {long_column!r} (long form) and {wide_column!r} (wide form) "
            "columns; keep one"
        )
    if not (has_long or has_wide):
        raise table.source.error(
            f"{what} has no column {long_column!r} (long form: one row per doc) or "
            f"{wide_column!r} (wide form: one row per query with a list of ids) "
            f"({table.found()})"
        )
    return "long" if has_long else "wide"


def _refuse_in_wide_form(table: _Table, columns: tuple[str, ...], why: str) -> None:
    for column in columns:
        if column in table.columns:
            raise table.source.error(f"the wide form has no use for column {column!r}: {why}")


def _wide_rows(table: _Table, list_column: str) -> tuple[list[str], list[str], list[int]]:
    """Flatten one list per query into (query_id, doc_id, position from 1) rows."""
    queries, docs, positions = [], [], []
    first_line: dict[str, int] = {}
    for line, record in table.records:
        cells = _Cells(table, line, record)
        query = cells.id("query_id")
        if query in first_line:
            raise cells.fail(
                f"query {query!r} already has a row, on line {first_line[query]}; the wide "
                "form has one row per query"
            )
        first_line[query] = line
        ids = cells.id_list(list_column)
        queries += [query] * len(ids)
        docs += ids
        positions += range(1, len(ids) + 1)
    return queries, docs, positions


def _strings(values: list[str]) -> pd.Series:
    return pd.Series(values, dtype=str)


def _int64(values: list[int]) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def read_golden(path, *, format: str | None = None) -> pd.DataFrame:
    """Read a golden set (the relevant chunks of each query) from a CSV or JSONL file.

    Two layouts are accepted, and the columns decide which, never the values:

    - **long**, one row per relevant doc: columns ``query_id``, ``doc_id`` and optionally
      ``relevance`` (an integer grade; 1 for every row when the column is absent);
    - **wide**, one row per query: columns ``query_id`` and ``relevant_ids``, a list of
      ids each with grade 1. In JSONL the list is a JSON array (``["c1", "c2"]``); in CSV
      it is a cell holding a JSON array (``"[""c1"", ""c2""]"`` once CSV-quoted) or ids
      separated by ``|`` or by ``;`` (``c1|c2``; spaces around a separator are dropped).
      A JSONL string is read as such a CSV cell.

    A file with both ``doc_id`` and ``relevant_ids`` is refused, as is a wide file with a
    ``relevance`` column (the wide form has no grades: use the long form for graded
    judgments) or with two rows for one query. Other columns, such as the question text,
    are ignored. A wide row with an empty list gives no rows, as that query would have
    no line in the long form.

    Parameters
    ----------
    path : str or os.PathLike
        The file, UTF-8, with a header line (CSV) or one JSON object per line (JSONL).
    format : {"csv", "tsv", "jsonl", "ndjson"}, optional
        The file format. By default it is read from the extension: ``.csv``, ``.tsv``,
        ``.jsonl`` or ``.ndjson``.

    Returns
    -------
    pandas.DataFrame
        The qrels shape: columns ``query_id`` and ``doc_id`` (str) and ``relevance``
        (int64), in file order (wide lists in list order).

    Raises
    ------
    FormatError
        For a missing column (it lists the columns found), an empty or blank id, an id
        with surrounding whitespace, a non-integer grade, a list that is not a list of
        string or integer ids, a CSV row with the wrong number of fields, a JSONL line
        that is not a JSON object, bytes that are not UTF-8, or no data lines.
    ValueError
        If the format is neither given nor known from the extension.

    Examples
    --------
    The same golden set, long and wide:

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     long_path, wide_path = Path(folder) / "long.csv", Path(folder) / "wide.jsonl"
    ...     _ = long_path.write_text("query_id,doc_id\\nq1,c1\\nq1,c7\\nq2,007\\n")
    ...     _ = wide_path.write_text(
    ...         '{"query_id": "q1", "relevant_ids": ["c1", "c7"]}\\n'
    ...         '{"query_id": "q2", "relevant_ids": ["007"]}\\n'
    ...     )
    ...     long, wide = read_golden(long_path), read_golden(wide_path)
    >>> long
      query_id doc_id  relevance
    0       q1     c1          1
    1       q1     c7          1
    2       q2    007          1
    >>> long.equals(wide)
    True
    """
    table = _read_table(path, format)
    form = _form(table, "the golden set", "doc_id", "relevant_ids")
    if form == "wide":
        _refuse_in_wide_form(
            table, ("relevance",), "every listed id has grade 1; use the long form for grades"
        )
        queries, docs, _ = _wide_rows(table, "relevant_ids")
        grades = [1] * len(docs)
    else:
        graded = "relevance" in table.columns
        queries, docs, grades = [], [], []
        for line, record in table.records:
            cells = _Cells(table, line, record)
            queries.append(cells.id("query_id"))
            docs.append(cells.id("doc_id"))
            grades.append(cells.integer("relevance") if graded else 1)
    return pd.DataFrame(
        {"query_id": _strings(queries), "doc_id": _strings(docs), "relevance": _int64(grades)}
    )


def read_results(path, *, format: str | None = None) -> pd.DataFrame:
    """Read retriever results (a run) from a CSV or JSONL file.

    Two layouts are accepted, and the columns decide which, never the values:

    - **long**, one row per retrieved doc: columns ``query_id``, ``doc_id`` and ``score``
      (higher is better) or ``rank`` (1 is best), or both;
    - **wide**, one row per query: columns ``query_id`` and ``retrieved_ids``, the list of
      ids in rank order, best first. It is written like ``relevant_ids`` in
      :func:`read_golden` (a JSON array, or ids separated by ``|`` or ``;`` in CSV).

    A file with both ``doc_id`` and ``retrieved_ids`` is refused, as is a wide file with
    a ``score`` or ``rank`` column (the order of the list is the ranking) or with two rows
    for one query. Other columns are ignored. A wide row with an empty list (nothing
    retrieved) gives no rows; :func:`ragmetrics.evaluate` then reports the query as
    missing from the run.

    Parameters
    ----------
    path : str or os.PathLike
        The file, UTF-8, with a header line (CSV) or one JSON object per line (JSONL).
    format : {"csv", "tsv", "jsonl", "ndjson"}, optional
        The file format. By default it is read from the extension: ``.csv``, ``.tsv``,
        ``.jsonl`` or ``.ndjson``.

    Returns
    -------
    pandas.DataFrame
        The run shape, in file order: ``query_id`` and ``doc_id`` (str), then ``rank``
        (int64) and/or ``score`` (float64), whichever the file has. The wide form gives
        ``rank`` 1, 2, ... in list order.

    Raises
    ------
    FormatError
        As :func:`read_golden`, and for a ``rank`` that is not an integer or a ``score``
        that is not a finite number (NaN and infinity are refused).
    ValueError
        If the format is neither given nor known from the extension.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "results.csv"
    ...     _ = path.write_text("query_id,retrieved_ids,question\\nq1,c7|c1|c3,Who?\\n")
    ...     run = read_results(path)
    >>> run
      query_id doc_id  rank
    0       q1     c7     1
    1       q1     c1     2
    2       q1     c3     3
    """
    table = _read_table(path, format)
    form = _form(table, "the results file", "doc_id", "retrieved_ids")
    if form == "wide":
        _refuse_in_wide_form(
            table, ("score", "rank"), "the order of 'retrieved_ids' is the ranking"
        )
        queries, docs, ranks = _wide_rows(table, "retrieved_ids")
        return pd.DataFrame(
            {"query_id": _strings(queries), "doc_id": _strings(docs), "rank": _int64(ranks)}
        )
    has_rank, has_score = "rank" in table.columns, "score" in table.columns
    if not (has_rank or has_score):
        raise table.source.error(
            f"the results have no column 'score' or 'rank' to order the docs by ({table.found()})"
        )
    queries, docs, ranks, scores = [], [], [], []
    for line, record in table.records:
        cells = _Cells(table, line, record)
        queries.append(cells.id("query_id"))
        docs.append(cells.id("doc_id"))
        if has_rank:
            ranks.append(cells.integer("rank"))
        if has_score:
            scores.append(cells.number("score"))
    out = {"query_id": _strings(queries), "doc_id": _strings(docs)}
    if has_rank:
        out["rank"] = _int64(ranks)
    if has_score:
        out["score"] = np.asarray(scores, dtype=np.float64)
    return pd.DataFrame(out)
