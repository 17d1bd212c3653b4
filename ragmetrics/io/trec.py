"""TREC files: runs (``query_id Q0 doc_id rank score run_name``) and qrels
(``query_id iteration doc_id relevance``), exactly or not at all.

Fields are separated by any run of whitespace, as C's ``isspace`` (and trec_eval) sees
it: space, tab, ``\\f`` and ``\\v``; a line ends at ``\\n``, ``\\r\\n`` or ``\\r``
(:mod:`ragmetrics.io.source`). Blank lines are skipped and counted, and so are comments:
lines whose first character other than whitespace is ``#`` (trec_eval skips them in
runs; an id that starts with ``#`` cannot begin a line). Every file is split by Arrow's
CSV parser and its fields are checked as Arrow columns: as it is if it can be
(:func:`split_fast`), else squeezed and indexed (:func:`split_slowly`: the number of
fields of every line and its comments found from the positions of its line breaks and
spaces), which also finds the first line with the wrong number of fields. The line of a
bad value is found only then, from the line breaks.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FormatError
from ..validation import check_choice
from .arrow import (
    InDoubt,
    RowLines,
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

#: A line whose first character other than whitespace is this is a comment, skipped as a
#: blank line is (and counted as one, so that line numbers stay an editor's): trec_eval's
#: rule for runs (get_trec_results.c), in qrels too.
COMMENT = "#"
#: Below this many bytes (about 250 run lines) a file goes straight to the line index
#: (:func:`split_slowly`), which reads any file in one Arrow split: a small file is often
#: written by hand (tabs, comments, an odd line), where the split as it is would be in
#: doubt and a second split follow. Either way a 200-line run reads in under 1 ms.
FAST_PARSE_FROM = 8_192

RUN_LAYOUT = ("query_id", "Q0", "doc_id", "rank", "score", "run_name")
QRELS_LAYOUT = ("query_id", "iteration", "doc_id", "relevance")


def split_fast(
    text: str | bytes, n_fields: int, *, more_allowed: bool = False
) -> tuple[list[pd.Series], np.ndarray] | None:
    """Fields of a whitespace-separated file by Arrow's CSV parser, or None if in any doubt.

    None means "let the line index decide" (:func:`split_slowly`, which reads every
    file); this is the faster way to the same answer for well-formed files (checked by
    the tests). Returns the columns (``str`` Series, their text kept in Arrow) and the
    physical line of each row. Lines with more than ``n_fields`` fields are left to the
    line index whatever ``more_allowed`` says.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    split = _split_fast(Source.part("", data, 1), n_fields)
    if split is None:
        return None
    columns, lines = split
    try:
        lines = lines[:]
    except InDoubt:
        return None
    return [text_series(column) for column in columns], lines


# What separates fields within a line (WHITESPACE but \r, which ends a line), and a table
# that writes each of them as a space.
_SEPARATORS = " \t\f\v"
_SEPARATOR_BYTES = byte_set(_SEPARATORS)
_TO_SPACE = bytes.maketrans(b"\t\f\v", b"   ")


def _split_fast(source: Source, n_fields: int, narrow: tuple[int, ...] = ()
                ) -> tuple[list[pa.ChunkedArray], RowLines] | None:
    """(the fields as Arrow columns, the line of each row), or None if in any doubt.

    Arrow splits on one delimiter, not on runs of whitespace. So a file is split on its
    delimiter (a tab if its start has one, else a space) and each field, trimmed of
    whitespace, must be one token: non-empty, with no whitespace inside; that is the
    whitespace split exactly. Otherwise the file's whitespace is squeezed (every run of
    separators becomes one space, none at either end of a line) and split on spaces. Line
    breaks \\r\\n and \\r are written \\n first (:func:`_prepared`). A comment line is a
    doubt. ``narrow``: the fields read as numbers (see :func:`read_delimited`). The lines
    are found only when asked (:class:`~ragmetrics.io.arrow.RowLines`), and the source's
    bytes are let go.
    """
    # Text that is not UTF-8 is left to _split_lines, which says where.
    if not source.data or not is_utf8(source.data):
        return None
    data = _prepared(source.data, squeezed=False)
    hashes = data.find(COMMENT.encode()) >= 0  # else no line can be a comment
    delimiter, squeezed = "\t" if b"\t" in data[:65536] else " ", False
    columns = read_delimited(data, delimiter, n_fields, coded=_CODED, narrow=narrow)
    tokens = None
    if columns is not None:
        padded = any(data.find(c.encode()) >= 0 for c in _SEPARATORS if c != delimiter)
        tokens = _tokens(columns, trim=padded)
    if tokens is None:
        text, squeezed = _squeeze(data), True
        if text is data and delimiter == " ":
            return None  # the split of the text as it is has failed already
        columns = read_delimited(text, " ", n_fields, coded=_CODED, narrow=narrow)
        tokens = None if columns is None else _tokens(columns, trim=False)
    if tokens is None or (hashes and _has_comment(tokens)):
        return None
    del data, columns
    source.release()  # the columns hold the text now
    n_rows, before = len(tokens[0]), source.first_line - 1  # the lines before a part
    return tokens, RowLines(lambda: _data_lines(_prepared(source.data, squeezed=squeezed),
                                                n_rows, before), n_rows)


def _has_comment(tokens) -> bool:
    """Whether a line of the split is a comment (its first field starts with ``#``): then
    the line index, which skips such lines, reads the file. A comment line with another
    number of fields than the data has already made Arrow refuse the split."""
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


def _data_lines(data: bytes, n_rows: int, before: int = 0) -> np.ndarray | None:
    """The line of each row, ``data`` having \\n line breaks and no blank line but empty
    ones (which Arrow skips), after ``before`` lines; None if the count disagrees."""
    n_lines = data.count(b"\n") + (not data.endswith(b"\n"))
    if n_rows == n_lines:
        return np.arange(before + 1, before + n_rows + 1, dtype=np.int64)
    codes = np.frombuffer(data, dtype=np.uint8)
    starts = np.concatenate([[0], positions(codes, ord("\n")) + 1])
    starts = starts[starts < len(codes)]
    lines = np.flatnonzero(codes[starts] != 10) + before + 1
    return lines if len(lines) == n_rows else None


def split_slowly(
    source: Source, layout: tuple[str, ...], *, more_allowed: bool = False
) -> tuple[list[pd.Series], np.ndarray, FormatError | None]:
    """Fields of every line, up to the first line with the wrong number of fields.

    Returns the fields of the good lines before it (``str`` Series), their lines and the
    error for that line (or None), so that the caller can first report a bad number on an
    earlier line. This is what the reader falls back on when :func:`split_fast` is in
    doubt: :func:`_split_lines`, whose columns stay in Arrow.
    """
    columns, lines, problem = _split_lines(source, layout, more_allowed=more_allowed)
    return [text_series(column) for column in columns], lines, problem


def _split_lines(
    source: Source, layout: tuple[str, ...], *, more_allowed: bool = False,
    narrow: tuple[int, ...] = (),
) -> tuple[list[pa.ChunkedArray], np.ndarray, FormatError | None]:
    """The definition of a TREC file, by an index of its lines: the fields of each line
    (runs of characters other than separators), blank lines and comments skipped, up to
    the first line with the wrong number of fields (more than ``len(layout)`` is right if
    ``more_allowed``: the first ones are kept).

    The text is squeezed (every run of separators one space, none at either end of a
    line: :func:`_squeeze`), so that the fields of a line are its spaces plus one; the
    positions of its line breaks and spaces say, for every line at once, how many fields
    it has and whether it is a comment. The data lines (cut after their last kept field)
    are then split by Arrow on single spaces. Returns the Arrow columns (``narrow``: as in
    :func:`~ragmetrics.io.arrow.read_delimited`), the line of each row, and the error of
    the first line with the wrong number of fields, or None; text that is not UTF-8 raises
    the error naming its line first.
    """
    n_fields = len(layout)
    if not is_utf8(source.data):
        _ = source.text  # raises the error that names the line of the first bad byte
    text = _prepared(source.data, squeezed=True)
    codes = np.frombuffer(text, dtype=np.uint8)
    ends = positions(codes, ord("\n"))  # where each line ends, at its line break or the end
    if not len(codes) or codes[-1] != ord("\n"):
        ends = np.append(ends, len(codes))
    starts = np.concatenate([[0], ends[:-1] + 1])
    spaces = positions(codes, ord(" "))
    first_space = np.searchsorted(spaces, starts)
    fields = np.searchsorted(spaces, ends) - first_space + (ends > starts)
    heads = codes[np.minimum(starts, max(len(codes) - 1, 0))] if len(codes) else starts
    data = (fields > 0) & (heads != ord(COMMENT))  # neither blank nor a comment
    wrong = data & ((fields < n_fields) if more_allowed else (fields != n_fields))
    problem, stop = None, len(starts)
    if wrong.any():
        stop = int(np.argmax(wrong))
        problem = source.error(_wrong_count(layout, int(fields[stop])),
                               stop + source.first_line)
        data[stop:] = False
    rows = np.flatnonzero(data)
    lines = rows + source.first_line
    if not len(rows):
        return [_empty(i, narrow) for i in range(n_fields)], lines, problem
    # Arrow reads the text with every line it must not read made empty (it skips empty
    # lines): the comments, what follows the last kept field, every line from `stop` on.
    comments = np.flatnonzero((fields > 0) & (heads == ord(COMMENT)))
    comments = comments[comments < stop]
    over = rows[fields[rows] > n_fields]
    cut = spaces[first_space[over] + n_fields - 1]  # the space after the last kept field
    drop = np.concatenate([np.stack([starts[comments], ends[comments]]),
                           np.stack([cut, ends[over]])], axis=1)
    drop = drop[:, np.argsort(drop[0], kind="stable")]
    if problem is not None:
        drop = np.append(drop, [[starts[stop]], [len(codes)]], axis=1)
    if drop.shape[1]:
        keep = zip(np.append(0, drop[1]).tolist(), np.append(drop[0], len(codes)).tolist(),
                   strict=True)
        view = memoryview(text)
        text = b"".join(view[start:end] for start, end in keep)
    columns = read_delimited(text, " ", n_fields, coded=_CODED, narrow=narrow,
                             longest=int((ends - starts).max()))
    if columns is None or len(columns[0]) != len(rows):
        raise AssertionError("Arrow split the squeezed lines of a TREC file otherwise")
    return columns, lines, problem


def _wrong_count(layout: tuple[str, ...], found: int) -> str:
    reason = f"expected {len(layout)} fields ({' '.join(layout)}), got {found}"
    if found > len(layout) and layout == RUN_LAYOUT:
        reason += (
            ": an id with a space in it would shift every field after it; if the "
            "line is right and what follows the run name is junk, ignore it as "
            "trec_eval does (extra_fields='ignore'; in the command: "
            "--trec-extra-fields ignore)"
        )
    return reason


def _empty(column: int, narrow: tuple[int, ...]) -> pa.ChunkedArray:
    """A column of no rows, of the type :func:`read_delimited` gives it."""
    kind = (pa.dictionary(pa.int32(), pa.string()) if column in _CODED else
            pa.string() if column in narrow else pa.large_string())
    return pa.chunked_array([], kind)


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
    numbers = tuple(layout.index(name) for name, convert in keep.items() if convert)
    split = _split_fast(source, len(layout), numbers) if (
        len(source.data) >= FAST_PARSE_FROM) else None
    if split is not None:
        try:
            return _checked(source, layout, keep, *split, None, repeats)
        except InDoubt:  # the lines of the rows cannot be told: index them
            pass
    columns, lines, problem = _split_lines(source, layout, more_allowed=more_allowed,
                                           narrow=numbers)
    return _checked(source, layout, keep, columns, lines, problem, repeats)


def _checked(source: Source, layout, keep, columns, lines, problem, repeats) -> pd.DataFrame:
    fields = dict(zip(layout, columns, strict=True))
    out = {name: text_series(fields[name]) for name, convert in keep.items() if convert is None}
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


def read_trec_run(path, *, extra_fields: str = "error", duplicates: str = "keep") -> pd.DataFrame:
    """Read a run in TREC format: ``query_id Q0 doc_id rank score run_name`` per line.

    This is the format trec_eval reads and most IR toolkits write. Fields are separated
    by any run of whitespace; blank lines and comments (lines whose first character other
    than whitespace is ``#``, as trec_eval reads runs) are skipped, and counted in line
    numbers. The ``Q0`` field is ignored (its content is never checked, as in
    trec_eval). The file is split by Arrow's CSV parser and checked column by column in
    Arrow; the lines of the file are indexed only if the split needs it (comments, a
    line with another number of fields) or an error does, so a file of a million lines
    reads in a fraction of a second, and an error on its last line is said in about a
    second.

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
    >>> from pathlib import Path
    >>> path = Path("bm25.run")
    >>> _ = path.write_text(
    ...     "q1 Q0 007 1 14.2 bm25\\n"
    ...     "q1 Q0 d9  2 11.0 bm25\\n"
    ...     "\\n"
    ...     "q2 Q0 1e5 1 9.5  bm25\\n"
    ... )
    >>> run = read_trec_run(path)
    >>> run
      query_id doc_id  rank  score run_name
    0       q1    007     1   14.2     bm25
    1       q1     d9     2   11.0     bm25
    2       q2    1e5     1    9.5     bm25

    The ids stay exactly as written: ``"007"``, not 7; ``"1e5"``, not 100000.0.

    >>> run["doc_id"].tolist()
    ['007', 'd9', '1e5']

    A malformed line is reported with its physical line number, blank lines counted:

    >>> path = Path("bad.run")
    >>> _ = path.write_text("q1 Q0 d1 1 3.5 bm25\\n\\nq1 Q0 d2 2 bm25\\n")
    >>> try:
    ...     read_trec_run(path)
    ... except FormatError as error:
    ...     print(error.line, error.reason)
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
    >>> from pathlib import Path
    >>> path = Path("qrels.txt")
    >>> _ = path.write_text("301 0 FR940202-2-00150 1\\n301 0 FR9 0\\n302\\t0\\tLA01 -1\\n")
    >>> qrels = read_trec_qrels(path)
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
