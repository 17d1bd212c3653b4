"""The segments of a gate: which queries form each category (``--segments FILE``).

A flat average hides a category that collapsed while another rose: the gate tests each
segment too (:func:`ragmetrics.gate.check_gate`). The file maps each query to one
segment: a ``.csv``, ``.tsv``, ``.jsonl`` or ``.parquet`` file (compressed or not) with
the columns ``query_id`` and ``segment``, read by :mod:`ragmetrics.io` as runs are (a bad
value is reported with its file and line). Ids are text (a JSON number is read as its
digits). A query listed twice is an error, even under the same segment; a query not
listed belongs to no segment (it still counts in the overall rules).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..errors import InputTypeError, InputValueError
from ..io.checks import Bad, check_ids
from ..io.records import read_records

__all__ = ["check_segments", "read_segments"]


def read_segments(path) -> dict[str, str]:
    """``{query_id: segment}`` from a segments file.

    Raises
    ------
    FormatError
        For a malformed file, a column missing, an empty id or segment, or a query
        listed twice: the file, the line and its text.

    Examples
    --------
    >>> from pathlib import Path
    >>> _ = Path("segments.csv").write_text("query_id,segment\\nq1,faq\\nq2,howto\\nq3,faq\\n")
    >>> read_segments("segments.csv")
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
    segments: dict[str, str] = {}
    first_row: dict[str, int] = {}
    for row, (query, segment) in enumerate(zip(values["query_id"], values["segment"],
                                               strict=True)):
        if query in segments:
            reason = (f"query {query!r} is listed twice (line {table.line_of(first_row[query])} "
                      "too): each query belongs to one segment")
            raise table.fail(Bad(row, reason))
        segments[query] = segment
        first_row[query] = row
    return segments


def check_segments(segments) -> dict[str, str]:
    """``segments`` as ``{query_id as text: segment as text}``: a mapping, or a path to
    read with :func:`read_segments`.

    Examples
    --------
    >>> check_segments({1: "faq", "q2": "howto"})
    {'1': 'faq', 'q2': 'howto'}
    """
    if isinstance(segments, (str, os.PathLike)):
        return read_segments(segments)
    if not isinstance(segments, Mapping):
        raise InputTypeError("segments must be a mapping {query_id: segment} or the path of "
                             f"a segments file, got {type(segments).__name__}")
    out: dict[str, str] = {}
    for query, segment in segments.items():
        if segment is None or (isinstance(segment, str) and not segment):
            raise InputValueError(f"segments[{query!r}]: the segment is empty")
        key = str(query)
        if key in out:
            raise InputValueError(f"segments: query {key!r} is listed twice (as "
                                  f"{query!r} and as text)")
        out[key] = str(segment)
    return out
