"""Doc ids held in Arrow, hashed from their bytes in NumPy: no Python object per row.

A run and judgments read from files (:mod:`ragmetrics.io`), or given as pyarrow Tables,
Polars frames or pandas frames of Arrow strings, keep their ids in Arrow buffers (an
offsets array and the bytes), and they are hashed where they lie, from their bytes
(:func:`ragmetrics.io.hashing.text_hashes`, the package's one hash of Arrow strings:
Python ``str`` objects and their hashes would cost seconds at ten million ids). Equal
ids get equal hashes; two different ids may share one, so every match is still checked
against the ids themselves (:mod:`~ragmetrics.evaluation.joins`), and a collision means
exact codes.

:class:`ArrowIdArray` answers the few questions the engine asks of ids themselves (take
some rows, compare two selections, the text of the tied ids, one id for an error), in
Arrow; anything else turns it into a NumPy ``object`` array, correct if slower.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..io.arrow import arrow_array
from ..io.hashing import text_hashes
from .inputs import id_kind

__all__ = ["ArrowIdArray", "ArrowIds", "arrow_strings", "hashed_doc_ids", "text_hashes"]


class ArrowIdArray:
    """Ids in an Arrow string array, answering the NumPy operations the engine makes.

    ``ids[rows]`` (an int or bool array) takes rows, ``ids[i]`` gives one id as a
    ``str``, ``a == b`` compares two selections row by row, ``ids.astype(str)`` gives
    NumPy text; ``numpy.asarray(ids)`` gives an ``object`` array.

    Examples
    --------
    >>> import numpy as np
    >>> ids = ArrowIdArray(pa.array(["d1", "d2", "d3"]))
    >>> ids[np.array([2, 0])][0], len(ids)
    ('d3', 3)
    >>> ids[np.array([0, 1])] == ids[np.array([0, 2])]
    array([ True, False])
    """

    __slots__ = ("array",)

    def __init__(self, array: pa.Array) -> None:
        self.array = array

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, index):
        if isinstance(index, (int, np.integer)):
            return self.array[int(index)].as_py()
        index = np.asarray(index)
        if index.dtype == bool:
            index = np.flatnonzero(index)
        return ArrowIdArray(self.array.take(pa.array(index, pa.int64())))

    def __eq__(self, other):
        if isinstance(other, ArrowIdArray):
            same = pc.equal(self.array, other.array)
            return same.to_numpy(zero_copy_only=False)
        return np.asarray(self) == other

    __hash__ = None  # compared row by row, like an array

    def astype(self, dtype) -> np.ndarray:
        return np.array(self.array.to_pylist()).astype(dtype)  # the tied ids: few

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        values = np.array(self.array.to_pylist(), dtype=object)
        return values if dtype is None else values.astype(dtype)

    def __repr__(self) -> str:
        return f"ArrowIdArray({self.array.to_pylist()!r})"


@dataclass
class ArrowIds:
    """Doc ids hashed from their bytes: the shape of
    :class:`~ragmetrics.evaluation.joins.Ids`, told apart from ids hashed by Python's
    ``hash`` (the two hashes of one id differ, so both sides of a match use one kind)."""

    values: ArrowIdArray
    hashes: np.ndarray  # int64
    kind: str | None

    @property
    def row_values(self) -> ArrowIdArray:
        """The id of each row."""
        return self.values

    def value_at(self, rows):
        """The ids of some rows (an int or bool array of rows, or one row)."""
        return self.values[rows]

    def move(self, rows: np.ndarray, sources: np.ndarray) -> ArrowIds:
        """The ids with row ``rows[i]`` taking the id of row ``sources[i]``."""
        perm = np.arange(len(self.hashes))
        perm[rows] = sources
        return self.take(perm)

    def take(self, rows: np.ndarray, *, keep_groups: bool = False) -> ArrowIds:
        """The ids of ``rows`` (an int or bool array; no groups to keep here)."""
        return ArrowIds(self.values[rows], self.hashes[rows], self.kind)


def arrow_strings(column: pd.Series) -> pa.Array | None:
    """The ids of ``column`` as one Arrow ``large_string`` array, if it holds Arrow strings."""
    array = arrow_array(column)
    if array is None:
        return None
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks() if array.num_chunks != 1 else array.chunk(0)
    kind = array.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)
            or pa.types.is_string_view(kind)):
        return None
    return pc.cast(array, pa.large_string()) if array.type != pa.large_string() else array


def hashed_doc_ids(array: pa.Array, column: pd.Series | None, what: str,
                   rows: np.ndarray | None = None) -> ArrowIds:
    """The ids of ``array`` (``column``'s Arrow strings), checked, with a hash each.

    ``what`` and ``rows`` place a missing id in the error.

    Examples
    --------
    >>> ids = hashed_doc_ids(pa.array(["a", "b", "a"], pa.large_string()), None, "qrels")
    >>> h = ids.hashes
    >>> bool(h[0] == h[2]), bool(h[0] != h[1])
    (True, True)
    """
    if column is not None:
        id_kind(column, "doc_id", what, rows)  # a missing id, said with its row
    hashes = text_hashes(array)
    return ArrowIds(ArrowIdArray(array), hashes, "str" if len(array) else None)
