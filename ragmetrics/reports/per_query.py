"""Every per-query value of a Comparison, long by system, and as a CSV file."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from ..evaluation import Evaluation
from ..safe_text import spreadsheet_cell
from .output_files import write_atomic

if TYPE_CHECKING:  # annotations only: stats.comparison imports the renderers lazily
    from ..stats.comparison import Comparison

__all__ = ["per_query_frame", "write_per_query_csv"]


def per_query_frame(comparison: Comparison | Mapping[str, Evaluation]) -> pd.DataFrame:
    """Every per-query value, long by system: columns ``query_id``, ``system``, metrics.

    ``comparison`` is a :class:`~ragmetrics.Comparison`, or each system's
    :class:`~ragmetrics.Evaluation` (``ragmetrics evaluate --means-only``).

    Examples
    --------
    >>> from ragmetrics import compare
    >>> runs = {"a": {"q1": ["x", "d"]}, "b": {"q1": ["d"]}}
    >>> result = compare(runs, {"q1": {"d"}}, ["mrr"], n_resamples=50)
    >>> per_query_frame(result)
      query_id system  mrr
    0       q1      a  0.5
    1       q1      b  1.0
    """
    per_query = ({system: evaluation.per_query for system, evaluation in comparison.items()}
                 if isinstance(comparison, Mapping) else comparison.per_query)
    frames = []
    for system in per_query:
        frame = per_query[system].reset_index()
        frame.insert(1, "system", system)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def write_per_query_csv(comparison: Comparison | Mapping[str, Evaluation], path) -> Path:
    """Write :func:`per_query_frame` as CSV, atomically: one row per query and system.

    A query id or system name that a spreadsheet would run as a formula (it starts
    with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, and is not a number)
    is written with a leading ``'`` (:func:`ragmetrics.safe_text.spreadsheet_cell`).
    """
    frame = per_query_frame(comparison)
    for column in ("query_id", "system"):
        frame[column] = frame[column].map(spreadsheet_cell)
    return write_atomic(path, frame.to_csv(index=False))
