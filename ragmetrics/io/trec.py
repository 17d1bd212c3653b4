"""TREC files: runs (``query_id Q0 doc_id rank score run_name``) and qrels
(``query_id iteration doc_id relevance``), exactly or not at all.

Fields are separated by any run of whitespace, as C's ``isspace`` (and trec_eval) sees
it: space, tab, ``\\f`` and ``\\v``; a line ends at ``\\n``, ``\\r\\n`` or ``\\r``
(:mod:`ragmetrics.io.source`). Blank lines are skipped and counted. A large file is
split by pandas' C parser; only if that parse raises a doubt does a line-by-line scan
(the definition) find the first bad line.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
from collections.abc import Callable

import numpy as np
import pandas as pd

from ..errors import FormatError
from ..validation import check_choice
from .checks import Bad, earliest, integers_from_text, numbers_from_text
from .frames import RUN_DUPLICATES, refuse_repeated_pairs
from .source import Source

__all__ = ["FAST_PARSE_FROM", "read_trec_qrels", "read_trec_run", "split_fast", "split_slowly"]

_FIELD = re.compile(r"[^ \t\r\f\v]+")
#: Below this many characters (about 800 run lines) the line scan beats pandas' start-up.
FAST_PARSE_FROM = 32_768

RUN_LAYOUT = ("query_id", "Q0", "doc_id", "rank", "score", "run_name")
QRELS_LAYOUT = ("query_id", "iteration", "doc_id", "relevance")


def split_fast(
    text: str, n_fields: int, *, more_allowed: bool = False
) -> tuple[list[pd.Series], np.ndarray] | None:
    """Fields of a whitespace-separated file by pandas' C parser, or None if in any doubt.

    None means "let the line-by-line scan decide": the scan is the definition, this is
    only a faster way to the same answer for well-formed files (checked by the tests).
    """
    # The C parser splits on space and tab only: leave files with other whitespace (and
    # NUL, to be safe) to the scan. ``text`` has its line breaks written \n.
    if not text or any(c in text for c in "\x00\f\v\r"):
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
    for number, line in enumerate(source.lines(), start=1):
        fields = _FIELD.findall(line)
        if not fields:
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
) -> tuple[pd.DataFrame, Source, np.ndarray]:
    """The frame of the kept columns, the source and the line of each row."""
    source = Source(path)
    split = None
    if len(source.text) >= FAST_PARSE_FROM:
        split = split_fast(source.normalized, len(layout), more_allowed=more_allowed)
    if split is None:
        columns, lines, problem = split_slowly(source, layout, more_allowed=more_allowed)
    else:
        (columns, lines), problem = split, None
    fields = dict(zip(layout, columns, strict=True))
    out = {}
    for name, convert in keep.items():
        out[name] = fields[name] if convert is None else convert(fields[name], name)
    # The earliest line, whichever column it is in; and before a later `problem`.
    first = earliest(*(value for value in out.values() if isinstance(value, Bad)))
    if first is not None:
        raise source.error(first.reason, int(lines[first.row]))
    if problem is not None:
        raise problem
    if not len(lines):
        raise source.error("no data lines: the file is empty or blank")
    return pd.DataFrame(out), source, lines


def read_trec_run(path, *, extra_fields: str = "error", duplicates: str = "keep") -> pd.DataFrame:
    """Read a run in TREC format: ``query_id Q0 doc_id rank score run_name`` per line.

    This is the format trec_eval reads and most IR toolkits write. Fields are separated
    by any run of whitespace; blank lines are skipped. The ``Q0`` field is ignored (its
    content is never checked, as in trec_eval). A large file is parsed by pandas' C
    parser, and only if that parse raises a doubt does a line-by-line scan find the first
    bad line, so a file of a million lines reads in a few seconds.

    Parameters
    ----------
    path : str or os.PathLike
        The run file, UTF-8, compressed or not (:mod:`ragmetrics.io.source`).
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
    frame, source, lines = _read_trec(path, RUN_LAYOUT, keep, more_allowed=more_allowed)
    if duplicates == "error":
        refuse_repeated_pairs(frame, source.name, lines, source=source, judged=False)
    return frame


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
    frame, source, lines = _read_trec(path, QRELS_LAYOUT, keep)
    refuse_repeated_pairs(frame, source.name, lines, source=source)
    return frame
