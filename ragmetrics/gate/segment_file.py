"""The segments of a gate: which queries form each category (``--segments FILE``).

A flat average hides a category that collapsed while another rose: the gate tests each
segment too (:func:`ragmetrics.gate.check_gate`). The file maps each query to one
segment: a ``.csv``, ``.tsv``, ``.jsonl`` or ``.parquet`` file (compressed or not) with
the columns ``query_id`` and ``segment``, read by
:func:`ragmetrics.io.read_segments` (a bad value is reported with its file and line). A
query not listed belongs to no segment (it still counts in the overall rules).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..errors import InputTypeError, InputValueError
from ..io.segment_files import read_segments

__all__ = ["check_segments", "read_segments"]


def check_segments(segments) -> dict[str, str]:
    """``segments`` as ``{query_id as text: segment as text}``: a mapping, or a path to
    read with :func:`read_segments`.

    Examples
    --------
    >>> check_segments({1: "faq", "q2": "howto"})
    {'1': 'faq', 'q2': 'howto'}
    """
    if isinstance(segments, (str, os.PathLike)):
        return read_segments(segments).to_dict()
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
