"""Strings held in Arrow, hashed from their bytes in NumPy: no Python object per row.

Turning each of ten million ids into a Python ``str`` to hash it costs seconds, and
Arrow's own hash table (``dictionary_encode``) was slower still (0.75 s for 1.8 M ids,
against 0.3 s for ``str`` objects and their hashes), so ids are hashed where they lie:
each id's bytes are read 8 at a time as little-endian 64-bit words straight from the
buffer, masked to the id's length, and mixed with the length by multiply-xorshift rounds
(MurmurHash3's finaliser). Equal ids get equal hashes; two different ids may share one,
so every match is checked against the ids themselves.

One hash for the package: the readers look for a (query, doc) pair on two rows with it
(:func:`ragmetrics.io.frames.any_repeated_pair`), and the engine matches a run's doc ids
with the judgments' (:mod:`ragmetrics.evaluation.arrow_ids`).
"""

from __future__ import annotations

import sys

import numpy as np
import pyarrow as pa

__all__ = ["text_hashes"]


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


def text_hashes(array) -> np.ndarray | None:
    """A 64-bit hash of each string of an Arrow string array, from its bytes (int64):
    equal strings have equal hashes, however the arrays are laid out (``string`` or
    ``large_string``, in chunks, sliced); None for a layout without offsets (string
    views).

    Each id's first :data:`_HEAD` bytes are read as 64-bit words from its offset (an
    unaligned load through a view of the bytes, :func:`_loads`; for ids of one width a
    strided view, with no gather), masked to its length, and chained into the hash word
    by word (xor, then a multiply by an odd constant: a bijection, so no two words
    merge), one NumPy step per word position over the rows that long (rows shorter than
    a word take no part in the next one); a xorshift-multiply-xorshift round mixes the
    high bits into the low ones last. The bytes past :data:`_HEAD` of a longer id
    (rare) are hashed by :func:`_tail_sums`, so the time grows with the bytes hashed, not
    with the longest id times the rows.

    Examples
    --------
    >>> h = text_hashes(pa.array(["q1", "doc-000000017", "q1", "", "doc-000000018"],
    ...                          pa.large_string()))
    >>> bool(h[0] == h[2]), len(set(h.tolist()))
    (True, 4)
    """
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    if not all(pa.types.is_string(c.type) or pa.types.is_large_string(c.type) for c in chunks):
        return None
    if sys.byteorder != "little":  # the words are read little-endian: hash str objects
        return np.fromiter(map(hash, array.to_pylist()), np.int64, len(array))
    found = [_chunk_hashes(chunk) for chunk in chunks if len(chunk)]
    return np.concatenate(found) if found else np.zeros(0, np.int64)


def _chunk_hashes(array: pa.Array) -> np.ndarray:
    n = len(array)
    _, offsets, data = array.buffers()
    width = np.int64 if pa.types.is_large_string(array.type) else np.int32
    bounds = np.frombuffer(offsets, width, n + 1, array.offset * np.dtype(width).itemsize)
    first = int(bounds[0])
    lengths = np.diff(bounds)
    longest, shortest = int(lengths.max()), int(lengths.min())
    size = int(bounds[-1]) - first
    loads = _loads(data, first, size)
    if shortest == longest:  # ids of one width: every load a strided view, no offsets
        starts = None
        h = np.full(n, shortest * int(_WORD) % 2**64, np.uint64)
    else:
        starts = bounds[:-1] - first
        h = lengths.astype(np.uint64)
        h *= _WORD
    for at in range(0, max(min(longest, _HEAD), 1), 8):
        if at and shortest <= at:  # some ids end before this word: only the others
            rows = np.flatnonzero(lengths > at)
            word = loads[starts[rows] + at]
            word &= _LOW_BYTES[np.minimum(lengths[rows] - at, 8)]
            word ^= h[rows]
            word *= _M1
            h[rows] = word
            continue
        if starts is None:
            word = loads[at : at + shortest * n : shortest] if shortest else np.zeros(
                n, np.uint64)
            h ^= word & _LOW_BYTES[min(shortest - at, 8)] if shortest - at < 8 else word
        else:
            word = loads[starts + at]
            if shortest - at < 8:
                word &= _LOW_BYTES[np.minimum(lengths - at, 8)]
            h ^= word
        h *= _M1  # odd: a bijection, so no two words merge
    if longest > _HEAD:
        rows = np.flatnonzero(lengths > _HEAD)
        at = np.arange(n)[rows] * shortest if starts is None else starts[rows]
        h[rows] += _tail_sums(loads, at + _HEAD, lengths[rows] - _HEAD)
    # The last word's bits reach the low bits, which the engine's keys and filters read.
    h ^= h >> np.uint64(32)
    h *= _M2
    h ^= h >> np.uint64(29)
    return h.view(np.int64)


def _loads(data, first: int, size: int) -> np.ndarray:
    """``loads[p]``: the 8 bytes from byte ``p`` on (``p <= size``: an empty id may start
    at the end) of the ``size`` bytes of ``data`` that start at ``first``, as a
    little-endian word: a view one byte apart (an unaligned load at any byte), over the
    buffer itself when 8 bytes follow them, else over a zero-padded copy (bytes past the
    end read as 0); the caller masks off the bytes past each id."""
    if data is not None and len(data) - first - size >= 8:
        return np.ndarray((size + 1,), dtype="<u8", buffer=data, offset=first, strides=(1,))
    words = np.zeros(size // 8 + 2, np.uint64)
    if size:  # (no data buffer: every string is empty)
        words.view(np.uint8)[:size] = np.frombuffer(data, np.uint8, size, first)
    return np.ndarray((size + 1,), dtype="<u8", buffer=words, strides=(1,))


#: Bytes of an id chained into its hash word by word; the rest are summed (_tail_sums).
_HEAD = 64
#: Words of long ids' tails hashed in one NumPy step (bounds the memory: 8 MiB a column).
_TAIL_CHUNK = 1 << 20
_PLACE = np.uint64(0xD6E8FEB86659FD93)


def _tail_sums(loads: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """For each byte range (``starts``, ``lengths``: every length above 0), the sum
    modulo :math:`2^{64}` of its words each mixed with its place in the range.

    A sum needs no order, so the words of every range are one flat array, taken a chunk
    at a time (:data:`_TAIL_CHUNK` words): the work is one pass over the bytes, however
    they are shared among the ranges.

    Examples
    --------
    >>> loads = _loads(b"abcdefghabcdefgh12345678", 0, 24)
    >>> sums = _tail_sums(loads, np.array([0, 8, 0]), np.array([8, 8, 16]))
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
        word = loads[starts[owner] + 8 * place]
        word &= _LOW_BYTES[np.minimum(lengths[owner] - 8 * place, 8)]
        value = _mix((word * _WORD) ^ ((place.astype(np.uint64) + np.uint64(1)) * _PLACE))
        # The words of one range are adjacent: one sum per run of equal owners.
        cut = np.flatnonzero(np.diff(owner)) + 1
        total = np.add.reduceat(value, np.r_[0, cut])
        sums[owner[np.r_[0, cut]]] += total
    return sums
