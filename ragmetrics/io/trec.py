"""TREC files: runs (``query_id Q0 doc_id rank score run_name``) and qrels
(``query_id iteration doc_id relevance``), exactly or not at all.

Fields are separated by any run of whitespace, as C's ``isspace`` (and trec_eval) sees
it: space, tab, ``\\f`` and ``\\v``; a line ends at ``\\n``, ``\\r\\n`` or ``\\r``
(:mod:`ragmetrics.io.source`). Blank lines are skipped and counted, and so are comments:
lines whose first character other than whitespace is ``#`` (trec_eval skips them in
runs; an id that starts with ``#`` cannot begin a line). A large file is
split by Arrow's CSV parser (:func:`split_fast`) and its fields are checked as Arrow
columns; only if that split raises a doubt does a line-by-line scan (the definition,
:func:`split_slowly`) find the first bad line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FormatError
from ..validation import check_choice
from .arrow import (
    InDoubt,
    any_byte,
    byte_set,
    first_with_edge_byte,
    frame,
    is_utf8,
    memory_pool,
    positions,
    read_delimited,
    text_series,
)
from .checks import Bad, check_together, earliest, integers_from_text, numbers_from_text
from .frames import RUN_DUPLICATES, refuse_repeated_pairs
from .source import Source, open_source

__all__ = ["COMMENT", "FAST_PARSE_FROM", "read_trec_qrels", "read_trec_run", "split_fast",
           "split_slowly"]

_FIELD = re.compile(r"[^ \t\r\f\v]+")
#: A line whose first character other than whitespace is this is a comment, skipped as a
#: blank line is (and counted as one, so that line numbers stay an editor's): trec_eval's
#: rule for runs (get_trec_results.c), in qrels too.
COMMENT = "#"
#: Below this many bytes (about 250 run lines) the line scan is as fast as Arrow's parser;
#: at 3,000 lines Arrow takes 1.4 ms, the scan 4.9 ms; at 30,000, 6 ms and 68 ms.
FAST_PARSE_FROM = 8_192

RUN_LAYOUT = ("query_id", "Q0", "doc_id", "rank", "score", "run_name")
QRELS_LAYOUT = ("query_id", "iteration", "doc_id", "relevance")


def split_fast(
    text: str | bytes, n_fields: int, *, more_allowed: bool = False
) -> tuple[list[pd.Series], np.ndarray] | None:
    """Fields of a whitespace-separated file by Arrow's CSV parser, or None if in any doubt.

    None means "let the line-by-line scan decide": the scan is the definition, this is
    only a faster way to the same answer for well-formed files (checked by the tests).
    Returns the columns (``str`` Series, their text kept in Arrow) and the physical line
    of each row. Lines with more than ``n_fields`` fields are left to the scan whatever
    ``more_allowed`` says.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    split = _split_arrow(data, n_fields)
    if split is None:
        return None
    columns, squeezed = split
    lines = _data_lines(_prepared(data, squeezed=squeezed), len(columns[0]))
    if lines is None:
        return None
    return [text_series(column) for column in columns], lines


# What separates fields within a line (WHITESPACE but \r, which ends a line), and a table
# that writes each of them as a space.
_SEPARATORS = " \t\f\v"
_SEPARATOR_BYTES = byte_set(_SEPARATORS)
_TO_SPACE = bytes.maketrans(b"\t\f\v", b"   ")


def _split_arrow(data: bytes, n_fields: int, narrow: tuple[int, ...] = ()):
    """(the fields as Arrow columns, whether the text was squeezed), or None.

    Arrow splits on one delimiter, not on runs of whitespace. So a file is split on its
    delimiter (a tab if its start has one, else a space) and each field, trimmed of
    whitespace, must be one token: non-empty, with no whitespace inside; that is the
    whitespace split exactly. Otherwise the file's whitespace is squeezed (every run of
    separators becomes one space, none at either end of a line) and split on spaces.
    Line breaks \\r\\n and \\r are written \\n first (:func:`_prepared`).
    ``narrow``: the fields read as numbers (see :func:`read_delimited`).
    """
    # NUL is left to the scan, as is text that is not UTF-8 (the scan says where).
    if not data or data.find(b"\x00") >= 0 or not is_utf8(data):
        return None
    data = _prepared(data, squeezed=False)
    hashes = data.find(COMMENT.encode()) >= 0  # else no line can be a comment
    delimiter = "\t" if b"\t" in data[:65536] else " "
    columns = read_delimited(data, delimiter, n_fields, coded=_CODED, narrow=narrow)
    if columns is not None:
        padded = any(data.find(c.encode()) >= 0 for c in _SEPARATORS if c != delimiter)
        tokens = _tokens(columns, trim=padded)
        if tokens is not None:
            return None if hashes and _has_comment(tokens) else (tokens, False)
    columns = read_delimited(_squeeze(data), " ", n_fields, coded=_CODED, narrow=narrow)
    tokens = None if columns is None else _tokens(columns, trim=False)
    return None if tokens is None or (hashes and _has_comment(tokens)) else (tokens, True)


def _has_comment(tokens) -> bool:
    """Whether a line of the split is a comment (its first field starts with ``#``): then
    the scan, which skips such lines, reads the file. A comment line with another number
    of fields than the data has already made Arrow refuse the split."""
    first = tokens[0]
    return bool(pc.any(pc.starts_with(first, COMMENT, memory_pool=memory_pool())).as_py())


def _prepared(data: bytes, *, squeezed: bool) -> bytes:
    """The text as Arrow splits it: line breaks written \\n, and squeezed if asked (as
    ``bytes``; else ``data`` itself if it needs no change)."""
    if data.find(b"\r") >= 0:  # \r\n and a lone \r end a line, as \n does
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return _squeeze(data) if squeezed else data


# The second field (Q0, the iteration), which is never read: Arrow keeps it as codes.
_CODED = (1,)


def _tokens(columns, *, trim: bool):
    """The columns, each field one token (trimmed of separators first), or None."""
    if not len(columns[0]):
        return None
    out = []
    for i, column in enumerate(columns):
        if i in _CODED:  # a field of few values: its dictionaries hold them all
            values = pa.chunked_array([chunk.dictionary for chunk in column.chunks],
                                      pa.string())
            if not (trim and any_byte(values, _SEPARATOR_BYTES)):
                if first_with_edge_byte(values, ()) is not None:  # an empty field
                    return None
                out.append(column)
                continue
            column = pc.cast(column, pa.large_string(), memory_pool=memory_pool())
        if trim and any_byte(column, _SEPARATOR_BYTES):  # say, "  2.129133"
            column = pc.utf8_trim(column, _SEPARATORS, memory_pool=memory_pool())
            if any_byte(column, _SEPARATOR_BYTES):  # inside a field: two tokens
                return None
        if first_with_edge_byte(column, ()) is not None:  # an empty field (or a doubt)
            return None
        out.append(column)
    return out


def _squeeze(data: bytes) -> bytes:
    """Every run of separators one space, and none at the start or end of a line."""
    data = data.translate(_TO_SPACE)
    while b"  " in data:
        data = data.replace(b"  ", b" ")
    return data.replace(b"\n ", b"\n").replace(b" \n", b"\n").strip(b" ")


def _data_lines(data: bytes, n_rows: int) -> np.ndarray | None:
    """The line of each row, ``data`` having \\n line breaks and no blank line but empty
    ones (which Arrow skips); None if the count disagrees."""
    n_lines = data.count(b"\n") + (not data.endswith(b"\n"))
    if n_rows == n_lines:
        return np.arange(1, n_rows + 1, dtype=np.int64)
    codes = np.frombuffer(data, dtype=np.uint8)
    starts = np.concatenate([[0], positions(codes, ord("\n")) + 1])
    starts = starts[starts < len(codes)]
    lines = np.flatnonzero(codes[starts] != 10) + 1
    return lines if len(lines) == n_rows else None


def split_slowly(
    source: Source, layout: tuple[str, ...], *, more_allowed: bool = False
) -> tuple[list[pd.Series], np.ndarray, FormatError | None]:
    """Fields line by line, up to the first line with the wrong number of fields.

    Returns the fields of the good lines before it and the error for that line (or
    None), so that the caller can first report a bad number on an earlier line.
    """
    rows: list[list[str]] = []
    numbers: list[int] = []
    problem = None
    for number, line in enumerate(source.lines(), start=source.first_line):
        fields = _FIELD.findall(line)
        if not fields or fields[0].startswith(COMMENT):  # blank, or a comment
            continue
        if len(fields) < len(layout) or (len(fields) > len(layout) and not more_allowed):
            reason = f"expected {len(layout)} fields ({' '.join(layout)}), got {len(fields)}"
            if len(fields) > len(layout) and layout == RUN_LAYOUT:
                reason += (
                    ": an id with a space in it would shift every field after it; if the "
                    "line is right and what follows the run name is junk, ignore it as "
                    "trec_eval does (extra_fields='ignore'; in the command: "
                    "--trec-extra-fields ignore)"
                )
            problem = source.error(reason, number)
            break
        rows.append(fields[: len(layout)])
        numbers.append(number)
    columns = [pd.Series(list(values), dtype=str) for values in zip(*rows, strict=True)]
    if not rows:
        columns = [pd.Series([], dtype=str) for _ in layout]
    return columns, np.asarray(numbers, dtype=np.int64), problem


_Convert = Callable[[pd.Series, str], "np.ndarray | Bad"]

#: What a TREC run line with more than 6 fields means: an error, or junk to ignore.
EXTRA_FIELDS = ("error", "ignore")


def _read_trec(
    path,
    layout: tuple[str, ...],
    keep: dict[str, _Convert | None],
    *,
    more_allowed: bool = False,
    repeats: str | None = None,
) -> pd.DataFrame:
    """The frame of the kept columns, checked; ``repeats`` ("judged" or "listed"): refuse
    a (query, doc) pair on two lines, in the words of judgments or of a run."""
    source = path if isinstance(path, Source) else open_source(path)
    if len(source.data) >= FAST_PARSE_FROM:
        numbers = tuple(layout.index(name) for name, convert in keep.items() if convert)
        split = _split_arrow(source.data, len(layout), numbers)
        if split is not None:
            columns, squeezed = split
            source.release()  # the columns hold the text now
            lines = _Lines(lambda: _prepared(source.data, squeezed=squeezed), len(columns[0]),
                           source.first_line - 1)
            try:
                return _checked(source, layout, keep, columns, lines, None, repeats)
            except InDoubt:  # the lines of the rows cannot be told: scan
                pass
    columns, lines, problem = split_slowly(source, layout, more_allowed=more_allowed)
    return _checked(source, layout, keep, columns, lines, problem, repeats)


def _checked(source: Source, layout, keep, columns, lines, problem, repeats) -> pd.DataFrame:
    fields = dict(zip(layout, columns, strict=True))
    out = {}
    for name, convert in keep.items():
        if convert is None and isinstance(fields[name], pd.Series):
            out[name] = fields[name]
        elif convert is None:  # an Arrow column of the fast split
            out[name] = text_series(fields[name])
    # The numbers, two columns at a time (the score, last, in a thread of its own).
    numbers = [name for name, convert in keep.items() if convert is not None]
    found = check_together(len(lines), *(
        lambda name=name: keep[name](fields[name], name) for name in numbers))
    out.update(zip(numbers, found, strict=True))
    out = {name: out[name] for name in keep}  # in the layout's order
    # The earliest line, whichever column it is in; and before a later `problem`.
    first = earliest(*(value for value in out.values() if isinstance(value, Bad)))
    if first is not None:
        raise source.error(first.reason, int(lines[first.row]))
    if problem is not None:
        raise problem
    if not len(lines):
        raise source.error("no data lines: the file is empty or blank (or only # comments)")
    rows = frame(out)
    if repeats is not None:
        refuse_repeated_pairs(rows, source.name, lines, source=source,
                              judged=repeats == "judged")
    return rows


class _Lines:
    """The line of each row of a fast split, found only when asked (an error needs it),
    from the text as Arrow split it (``data()``)."""

    def __init__(self, data: Callable[[], bytes], n_rows: int, before: int = 0) -> None:
        self._data, self._n_rows, self._array, self._before = data, n_rows, None, before

    def __len__(self) -> int:
        return self._n_rows

    def __getitem__(self, row):
        if self._array is None:
            self._array = _data_lines(self._data(), self._n_rows)
            if self._array is None:
                raise InDoubt
            self._array += self._before  # the lines before a part of a file
        return self._array[row]


def read_trec_run(path, *, extra_fields: str = "error", duplicates: str = "keep") -> pd.DataFrame:
    """Read a run in TREC format: ``query_id Q0 doc_id rank score run_name`` per line.

    This is the format trec_eval reads and most IR toolkits write. Fields are separated
    by any run of whitespace; blank lines and comments (lines whose first character other
    than whitespace is ``#``, as trec_eval reads runs) are skipped, and counted in line
    numbers. The ``Q0`` field is ignored (its
    content is never checked, as in trec_eval). A large file is split by Arrow's CSV
    parser and checked column by column in Arrow, and only if that split raises a doubt
    does a line-by-line scan find the first bad line, so a file of a million lines reads
    in a fraction of a second.

    Parameters
    ----------
    path : str, os.PathLike or Source
        The run file, UTF-8, compressed or not (:mod:`ragmetrics.io.source`), or whole
        lines of it (:meth:`Source.part <ragmetrics.io.source.Source.part>`).
    extra_fields : {"error", "ignore"}, default "error"
        What to do with a line of more than 6 fields. trec_eval ignores whatever follows
        the run name (its own test file ``results.trunc`` has such lines); "ignore" does
        the same, "error" refuses the line, as a sign that the file is not what it seems.
    duplicates : {"keep", "error"}, default "keep"
        A doc listed twice for one query: kept (the ``duplicates`` convention of
        :func:`ragmetrics.evaluate` decides what it means), or refused, naming both lines
        (trec_eval refuses such runs).

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
        "rank": integers_from_text,
        "score": numbers_from_text,
        "run_name": None,
    }
    more_allowed = check_choice(extra_fields, EXTRA_FIELDS, "extra_fields") == "ignore"
    check_choice(duplicates, RUN_DUPLICATES, "duplicates")
    return _read_trec(path, RUN_LAYOUT, keep, more_allowed=more_allowed,
                      repeats="listed" if duplicates == "error" else None)


def read_trec_qrels(path) -> pd.DataFrame:
    """Read judgments in TREC qrels format: ``query_id iteration doc_id relevance`` per line.

    The qrels ("query relevance judgments") give each judged doc a grade: 0 for judged
    not relevant, 1 or more for relevant (higher is more relevant), and in some
    collections negative grades such as -1 for "judged harmful" or "spam"; they are kept.
    The ``iteration`` field is ignored, as in trec_eval. Fields are separated by any run
    of whitespace; blank lines and comments (lines whose first character other than
    whitespace is ``#``) are skipped, as in runs (trec_eval skips a ``#`` in a qrels line's
    first column, one such line at a time).

    Parameters
    ----------
    path : str or os.PathLike
        The qrels file, UTF-8, compressed or not (:mod:`ragmetrics.io.source`).

    Returns
    -------
    pandas.DataFrame
        One row per line, in file order, with columns ``query_id`` and ``doc_id`` (str)
        and ``relevance`` (int64).

    Raises
    ------
    FormatError
        For a line without exactly 4 fields, a ``relevance`` that is not an integer, a
        doc judged twice for one query (trec_eval refuses it too: which grade would
        count?), bytes that are not UTF-8, or a file with no data lines.

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
    keep = {"query_id": None, "doc_id": None, "relevance": integers_from_text}
    return _read_trec(path, QRELS_LAYOUT, keep, repeats="judged")
