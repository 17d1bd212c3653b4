"""A segment per query, from a file: ``query_id, segment`` as CSV, TSV, JSON Lines or Parquet.

:func:`read_segments` reads what ``ragmetrics evaluate --segments FILE`` and ``ragmetrics
gate --segments FILE`` name: the ``segments`` of :func:`ragmetrics.compare` and of
:func:`ragmetrics.gate.check_gate`. :func:`read_query_ids` reads one segment alone, a
list of queries (``ragmetrics evaluate --tune-queries FILE``: the ``tune_queries`` of
:func:`ragmetrics.compare`). The file is read by :mod:`ragmetrics.io` as runs are
(compressed or not, the format from its name or content, a bad value reported with its
file and line); ids and labels are text, as written (a JSON number is read as its
digits); other columns are ignored. A query listed twice is an error, even under the same
segment.
"""

from __future__ import annotations

import pandas as pd

from .checks import Bad, check_ids
from .records import read_records

__all__ = ["read_query_ids", "read_segments"]


def read_segments(path) -> pd.Series:
    """A file's ``query_id`` and ``segment`` columns, as a Series (index: query id).

    Parameters
    ----------
    path : str or os.PathLike
        A ``.csv``, ``.tsv``, ``.jsonl`` or ``.parquet`` file (compressed or not) with the
        columns ``query_id`` and ``segment``.

    Returns
    -------
    pandas.Series
        Named ``segment``, one label per query id, in the file's order.

    Raises
    ------
    FormatError
        For a malformed file, a column missing, an empty id or label, or a query listed
        twice: the file, the line and its text.

    Examples
    --------
    >>> from pathlib import Path
    >>> _ = Path("segments.csv").write_text("query_id,segment\\nq1,faq\\nq2,howto\\nq3,faq\\n")
    >>> read_segments("segments.csv").to_dict()
    {'q1': 'faq', 'q2': 'howto', 'q3': 'faq'}
    >>> _ = Path("twice.csv").write_text("query_id,segment\\nq1,faq\\nq1,howto\\n")
    >>> read_segments("twice.csv")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.FormatError: twice.csv, line 3: query 'q1' is listed twice (line 2 too): each query belongs to one segment: 'q1,howto'
    """
    table = read_records(path).exact()
    for column in ("query_id", "segment"):
        table.require(column, "the segments file")
    values = {}
    for column in ("query_id", "segment"):
        checked = check_ids(table.column(column))
        if isinstance(checked, Bad):
            raise table.fail(checked)
        values[column] = checked.tolist()
    first_row: dict[str, int] = {}
    for row, query in enumerate(values["query_id"]):
        if query in first_row:
            reason = (f"query {query!r} is listed twice (line {table.line_of(first_row[query])} "
                      "too): each query belongs to one segment")
            raise table.fail(Bad(row, reason))
        first_row[query] = row
    return pd.Series(values["segment"], index=pd.Index(values["query_id"], name="query_id"),
                     name="segment", dtype=object)


def read_query_ids(path, *, what: str = "the query list") -> list[str]:
    """A file's ``query_id`` column, as a list of ids (a split of the queries).

    Parameters
    ----------
    path : str or os.PathLike
        A ``.csv``, ``.tsv``, ``.jsonl`` or ``.parquet`` file (compressed or not) with a
        ``query_id`` column (other columns are ignored): a one-column CSV is a header
        ``query_id`` and an id a line.
    what : str
        What the file is, for the error of a missing column.

    Returns
    -------
    list of str
        The ids in the file's order.

    Raises
    ------
    FormatError
        For a malformed file, no ``query_id`` column, an empty id, or a query listed
        twice: the file, the line and its text.

    Examples
    --------
    >>> from pathlib import Path
    >>> _ = Path("tune.csv").write_text("query_id\\nq1\\nq7\\n")
    >>> read_query_ids("tune.csv")
    ['q1', 'q7']
    >>> _ = Path("tune_twice.csv").write_text("query_id\\nq1\\nq1\\n")
    >>> read_query_ids("tune_twice.csv")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.FormatError: tune_twice.csv, line 3: query 'q1' is listed twice (line 2 too): 'q1'
    """
    table = read_records(path).exact()
    table.require("query_id", what)
    checked = check_ids(table.column("query_id"))
    if isinstance(checked, Bad):
        raise table.fail(checked)
    ids = checked.tolist()
    first_row: dict[str, int] = {}
    for row, query in enumerate(ids):
        if query in first_row:
            reason = f"query {query!r} is listed twice (line {table.line_of(first_row[query])} too)"
            raise table.fail(Bad(row, reason))
        first_row[query] = row
    return ids
