"""Doc ids held in Arrow, hashed from their bytes in NumPy: no Python object per row.

A run and judgments read from files (:mod:`ragmetrics.io`), or given as pyarrow Tables,
Polars frames or pandas frames of Arrow strings, keep their ids in Arrow buffers (an
offsets array and the bytes). Turning each of ten million ids into a Python ``str`` to
hash it costs seconds, and Arrow's own hash table (``dictionary_encode``) was slower still
here (0.75 s for 1.8 M ids, against 0.3 s for ``str`` objects and their hashes), so the
ids are hashed where they lie: each id's bytes are read 8 at a time as little-endian
64-bit words straight from the buffer, masked to the id's length, and mixed with the
length by multiply-xorshift rounds (MurmurHash3's finaliser). Equal ids get equal
hashes; two different ids may share one, so every match is still checked against the
ids themselves (:mod:`~ragmetrics.evaluation.joins`), and a collision means exact codes.

:class:`ArrowIdArray` answers the few questions the engine asks of ids themselves (take
some rows, compare two selections, the text of the tied ids, one id for an error), in
Arrow; anything else turns it into a NumPy ``object`` array, correct if slower.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..io.arrow import arrow_array
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


# MurmurHash3's 64-bit finaliser, and odd constants to mix each word in.
_M1, _M2 = np.uint64(0xFF51AFD7ED558CCD), np.uint64(0xC4CEB9FE1A85EC53)
_WORD = np.uint64(0x9E3779B97F4A7C15)
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], np.uint64)


def _mix(h: np.ndarray) -> np.ndarray:
    h ^= h >> np.uint64(33)
    h *= _M1
    h ^= h >> np.uint64(33)
    h *= _M2
    h ^= h >> np.uint64(33)
    return h


def text_hashes(array: pa.Array) -> np.ndarray:
    """A 64-bit hash of each string of a ``large_string`` array, from its bytes (int64).

    Each id's first :data:`_HEAD` bytes are read as 64-bit words from its offset, two
    aligned loads and shifts per word, masked to its length, and chained into the hash
    word by word, one NumPy step per word position over the rows that long; rows shorter
    than a word take no part in the next one. The bytes past :data:`_HEAD` of a longer id
    (rare) are hashed by :func:`_tail_sums`, so the time grows with the bytes hashed, not
    with the longest id times the rows.

    Examples
    --------
    >>> h = text_hashes(pa.array(["q1", "doc-000000017", "q1", "", "doc-000000018"],
    ...                          pa.large_string()))
    >>> bool(h[0] == h[2]), len(set(h.tolist()))
    (True, 4)
    """
    n = len(array)
    if not n:
        return np.zeros(0, np.int64)
    if sys.byteorder != "little":  # the words are read little-endian: hash str objects
        return np.fromiter(map(hash, array.to_pylist()), np.int64, n)
    _, offsets, data = array.buffers()
    bounds = np.frombuffer(offsets, np.int64, n + 1, array.offset * 8)
    first = int(bounds[0])
    starts = bounds[:-1] - first
    lengths = np.diff(bounds)
    size = int(bounds[-1]) - first
    # The bytes, zero-padded to whole words plus one, so that every load stays inside.
    words = np.zeros(size // 8 + 2, np.uint64)
    if size:
        words.view(np.uint8)[:size] = np.frombuffer(data, np.uint8, size, first)
    h = _mix(lengths.astype(np.uint64) * _WORD)
    longest = int(lengths.max())
    rows = None  # all rows for the first word
    for at in range(0, max(min(longest, _HEAD), 1), 8):
        if at:
            rows = np.flatnonzero(lengths > at)
        position = (starts if rows is None else starts[rows]) + at
        left = (lengths if rows is None else lengths[rows]) - at
        word = _load(words, position, left)
        if rows is None:
            h ^= word * _WORD
            h = _mix(h)
        else:
            part = h[rows] ^ (word * _WORD)
            h[rows] = _mix(part)
    if longest > _HEAD:
        rows = np.flatnonzero(lengths > _HEAD)
        h[rows] = _mix(h[rows] + _tail_sums(words, starts[rows] + _HEAD, lengths[rows] - _HEAD))
    return h.view(np.int64)


#: Bytes of an id chained into its hash word by word; the rest are summed (_tail_sums).
_HEAD = 64
#: Words of long ids' tails hashed in one NumPy step (bounds the memory: 8 MiB a column).
_TAIL_CHUNK = 1 << 20
_PLACE = np.uint64(0xD6E8FEB86659FD93)


def _load(words: np.ndarray, position: np.ndarray, left: np.ndarray) -> np.ndarray:
    """The 8 bytes at each byte ``position`` of ``words``' bytes, as a little-endian
    word, masked to the ``left`` bytes that belong to the id (all 8 if more are left)."""
    index = position >> 3
    shift = (position & 7).astype(np.uint64) * np.uint64(8)
    word = words[index] >> shift
    # The next word's low bytes complete an unaligned load (none if aligned).
    carry = words[index + 1] << (np.uint64(64) - shift)
    carry[shift == 0] = 0
    word |= carry
    word &= _LOW_BYTES[np.minimum(left, 8)]
    return word


def _tail_sums(words: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """For each byte range (``starts``, ``lengths``: every length above 0), the sum
    modulo :math:`2^{64}` of its words each mixed with its place in the range.

    A sum needs no order, so the words of every range are one flat array, taken a chunk
    at a time (:data:`_TAIL_CHUNK` words): the work is one pass over the bytes, however
    they are shared among the ranges.

    Examples
    --------
    >>> words = np.zeros(8, np.uint64)
    >>> words.view(np.uint8)[:24] = np.frombuffer(b"abcdefghabcdefgh12345678", np.uint8)
    >>> sums = _tail_sums(words, np.array([0, 8, 0]), np.array([8, 8, 16]))
    >>> bool(sums[0] == sums[1]), bool(sums[2] != sums[0])  # same bytes, same place
    (True, True)
    """
    counts = (lengths + 7) >> 3  # words in each range
    ends = np.cumsum(counts)
    sums = np.zeros(len(starts), np.uint64)
    for begin in range(0, int(ends[-1]), _TAIL_CHUNK):
        flat = np.arange(begin, min(begin + _TAIL_CHUNK, int(ends[-1])))
        owner = np.searchsorted(ends, flat, side="right")  # the range of each word
        place = flat - (ends - counts)[owner]  # the word's number within its range
        word = _load(words, starts[owner] + 8 * place, lengths[owner] - 8 * place)
        value = _mix((word * _WORD) ^ ((place.astype(np.uint64) + np.uint64(1)) * _PLACE))
        # The words of one range are adjacent: one sum per run of equal owners.
        cut = np.flatnonzero(np.diff(owner)) + 1
        total = np.add.reduceat(value, np.r_[0, cut])
        sums[owner[np.r_[0, cut]]] += total
    return sums
