"""Runs and judgments as pyarrow Tables and Polars frames: pandas frames over the same
Arrow buffers.

:func:`ragmetrics.evaluate` takes a run or judgments as a ``pyarrow.Table`` (or
``RecordBatch``), a ``polars.DataFrame`` or a ``polars.LazyFrame`` besides pandas frames
and mappings. Each becomes a pandas DataFrame of the columns evaluate reads
(``query_id``, ``doc_id``, ``score``, ``rank``, ``relevance``), with no copy of the ids:
string columns stay in Arrow (pandas' ``str`` dtype), where the engine hashes them
(:mod:`~ragmetrics.evaluation.arrow_ids`); numbers become NumPy arrays. A LazyFrame is
collected with only those columns selected, so a scan of a Parquet dataset reads no
other column. Polars is never imported here: its frames are told by their type's module
and converted through their own ``to_arrow``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from ..io.arrow import numpy_column, text_series

__all__ = ["COLUMNS", "as_frame", "is_table"]

#: The columns evaluate reads from a run or judgments; others are left in the table.
COLUMNS = ("query_id", "doc_id", "score", "rank", "relevance")


def _polars_kind(data) -> str | None:
    kind = type(data)
    if kind.__module__.partition(".")[0] != "polars":
        return None
    return {"DataFrame": "frame", "LazyFrame": "lazy"}.get(kind.__name__)


def is_table(data) -> bool:
    """Whether ``data`` is a pyarrow Table or RecordBatch, or a Polars (lazy) frame."""
    return isinstance(data, (pa.Table, pa.RecordBatch)) or _polars_kind(data) is not None


def as_frame(data):
    """``data`` as a pandas DataFrame if it is an Arrow or Polars table, else unchanged.

    Examples
    --------
    >>> table = pa.table({"query_id": ["q1", "q1"], "doc_id": ["a", "b"],
    ...                   "score": [2.0, 1.0], "text": ["...", "..."]})
    >>> frame = as_frame(table)
    >>> list(frame.columns), str(frame["doc_id"].dtype), frame["score"].tolist()
    (['query_id', 'doc_id', 'score'], 'str', [2.0, 1.0])
    >>> as_frame({"q1": ["a"]})
    {'q1': ['a']}
    """
    kind = _polars_kind(data)
    if kind is not None:
        names = data.collect_schema().names() if kind == "lazy" else data.columns
        kept = [name for name in COLUMNS if name in names]
        if kind == "lazy":
            data = data.select(kept).collect()
        elif len(kept) != len(names):
            data = data.select(kept)
        data = data.to_arrow()
    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    if not isinstance(data, pa.Table):
        return data
    kept = [name for name in COLUMNS if name in data.column_names]
    if not {"query_id", "doc_id"} <= set(kept) or len(kept) < 3:
        # A column is missing: the frame's error lists the columns the table has.
        return pd.DataFrame(columns=data.column_names)
    return pd.DataFrame({name: _series(data.column(name)) for name in kept}, copy=False)


def _series(column: pa.ChunkedArray):
    """One column as pandas holds it: strings in Arrow, numbers in NumPy."""
    kind = column.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or \
            pa.types.is_string_view(kind):
        return text_series(column)
    if (pa.types.is_integer(kind) or pa.types.is_floating(kind)) and \
            not pa.types.is_dictionary(column.type):
        if column.null_count:  # a missing number or id: NaN, which the checks name
            return numpy_column(column, np.float64)
        return numpy_column(column, kind.to_pandas_dtype())
    return column.to_pandas()
