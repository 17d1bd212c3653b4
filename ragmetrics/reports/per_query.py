"""Every per-query value of a Comparison, long by system, and as a CSV file; each system's
threshold sweep as a CSV file too (``ragmetrics evaluate --threshold-sweep``)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from ..errors import InputTypeError
from ..evaluation import Evaluation, ThresholdSweep
from ..safe_text import csv_field, spreadsheet_cell
from .output_files import write_atomic

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["per_query_frame", "write_per_query_csv", "write_threshold_sweep_csv"]


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

    Every text cell (query id, system name, column name) is made safe twice over:

    - it never starts a formula: a cell, or a line inside a cell, starting with ``=``,
      ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``
      (:func:`ragmetrics.safe_text.spreadsheet_cell`; a cell that is a number, such as
      ``-1``, stays as it is);
    - it never splits its row: a cell holding a comma, a double quote or a line break
      (a bare carriage return too, which pandas' and Python's CSV writers leave
      unquoted) is quoted (:func:`ragmetrics.safe_text.csv_field`).

    So every CSV reader (Python's :mod:`csv`, :func:`pandas.read_csv`, a spreadsheet)
    reads back exactly one row per query and system, and no line of the file starts a
    formula. Numbers are written as pandas writes them (the shortest text that reads
    back as the same float; a missing value as an empty cell), lines end with ``\\n``.

    Examples
    --------
    >>> from pathlib import Path
    >>> from ragmetrics import evaluate
    >>> evaluation = evaluate({"a\\r=1+1": ["d"]}, {"a\\r=1+1": {"d"}}, ["mrr"])
    >>> path = write_per_query_csv({"bm25": evaluation}, Path("pq.csv"))
    >>> path.read_bytes()
    b'query_id,system,mrr\\n"a\\r\\'=1+1",bm25,1.0\\n'
    """
    return write_atomic(path, _csv_text(per_query_frame(comparison), ("query_id", "system")))


def write_threshold_sweep_csv(sweeps: Mapping[str, ThresholdSweep], path) -> Path:
    """Write each system's threshold sweep as CSV, atomically: one row per system and
    threshold.

    The columns are ``system`` and those of :attr:`ragmetrics.ThresholdSweep.table`
    (``threshold``, ``false_answer_rate``, ``answer_rate``, ``abstention_rate``,
    ``recall``, ``precision`` and the counts), each system's rows by threshold
    ascending, the last ``inf`` (abstain always); cells made safe as
    :func:`write_per_query_csv` makes them (no formula, no split row), a missing value
    (a precision where no answerable query answers) an empty cell.

    Examples
    --------
    >>> from pathlib import Path
    >>> from ragmetrics import threshold_sweep
    >>> sweep = threshold_sweep({"q1": {"a": 0.9}, "q2": {"b": 0.4}}, {"q1": {"a"}, "q2": set()})
    >>> path = write_threshold_sweep_csv({"bm25": sweep}, Path("sweep.csv"))
    >>> print(path.read_text())  # doctest: +NORMALIZE_WHITESPACE
    system,threshold,false_answer_rate,answer_rate,abstention_rate,recall,precision,n_false_answers,n_answered,n_kept,n_relevant_kept
    bm25,0.4,1.0,1.0,0.0,1.0,1.0,1,1,1,1
    bm25,0.9,0.0,1.0,0.0,1.0,1.0,0,1,1,1
    bm25,inf,0.0,0.0,1.0,0.0,,0,0,0,0
    """
    if not isinstance(sweeps, Mapping) or not sweeps:
        raise InputTypeError("sweeps must be a non-empty mapping {system: ThresholdSweep}, "
                             f"got {type(sweeps).__name__}")
    frames = []
    for system, sweep in sweeps.items():
        if not isinstance(sweep, ThresholdSweep):
            raise InputTypeError(f"sweeps[{system!r}] must be a ThresholdSweep (from "
                                 f"threshold_sweep), got {type(sweep).__name__}")
        frames.append(sweep.table.assign(system=system))
    frame = pd.concat(frames, ignore_index=True)
    frame = frame[["system", *(c for c in frame.columns if c != "system")]]
    return write_atomic(path, _csv_text(frame, ("system",)))


def _csv_text(frame: pd.DataFrame, text_columns) -> str:
    """The frame as CSV: text cells safe (:func:`write_per_query_csv`), numbers as
    pandas writes them."""
    columns = [
        [csv_field(spreadsheet_cell(value)) for value in frame[name].tolist()]
        if name in text_columns else [_number_field(value) for value in frame[name].tolist()]
        for name in frame.columns
    ]
    header = ",".join(csv_field(spreadsheet_cell(name)) for name in frame.columns)
    lines = [header, *(",".join(row) for row in zip(*columns, strict=True))]
    return "\n".join(lines) + "\n"


def _number_field(value) -> str:
    """A per-query value as pandas' ``to_csv`` writes it: ``repr`` of the float (the
    shortest text that reads back as the same number), an empty cell when missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return repr(value) if isinstance(value, float) else str(value)
