"""NumPy ``object`` arrays read as the addresses they hold: equal addresses, one object.

Ten million ids in an ``object`` array are ten million pointers to Python objects
scattered over memory, and touching each object (to hash it, compare it, or just take
it into another array, which counts a reference) costs a cache miss, a few hundred
nanoseconds. The pointers themselves are one int64 array: sorting and comparing them
costs what it costs for any int64 array. Ids read from a file or drawn from a
vocabulary share objects (pandas' CSV reader reuses one ``str`` per distinct value), so
grouping rows by address leaves one object per distinct id to touch, and touching the
objects in address order (the order they lie in memory) keeps the reads sequential.
"""

from __future__ import annotations

import ctypes

import numpy as np

__all__ = ["distinct_objects", "group_equal", "object_addresses"]


def object_addresses(values: np.ndarray) -> np.ndarray | None:
    """The object addresses an object array holds (None for other arrays).

    Read from the array's own buffer, without touching the objects: equal addresses mean
    the same object, so the same id.

    Why this is safe: a C-contiguous NumPy object array is, by NumPy's documented
    layout, a buffer of ``PyObject*``, one per element; the view made here lives no
    longer than ``values`` (the caller holds it), and the addresses are only compared
    for equality, never dereferenced. Anything else (another dtype, a strided view, an
    empty array) gets None, and the callers then compare values (tested: the same
    numbers with this function disabled, ``tests/unit/evaluation/test_engine_paths.py``).
    """
    if values.dtype != object or not values.flags.c_contiguous or not len(values):
        return None
    # A view of the same memory: valid while `values` lives (the callers hold it).
    buffer = (ctypes.c_ssize_t * len(values)).from_address(values.ctypes.data)
    return np.ctypeslib.as_array(buffer)


def _packable(keys: np.ndarray) -> bool:
    """Whether (key - lowest key, row) fits in one int64."""
    row_bits = max(int(len(keys) - 1).bit_length(), 1)
    return (int(keys.max()) - int(keys.min())).bit_length() + row_bits <= 63


def group_equal(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(group of each row, first row of each group) for int64 ``keys``, by one sort.

    Groups are numbered in ascending key order. Packs (key, row) into one int64 when it
    fits (NumPy sorts that with SIMD), else falls back to an argsort. In place where it
    can: ten million rows are 80 MB an array.
    """
    n = len(keys)
    row_bits = max(int(n - 1).bit_length(), 1)
    if _packable(keys):
        rows = keys - keys.min()
        rows <<= row_bits
        rows |= np.arange(n, dtype=np.int64)
        rows.sort()
        new_group = np.empty(n, dtype=bool)
        new_group[0] = True
        shifted = rows >> row_bits
        np.not_equal(shifted[1:], shifted[:-1], out=new_group[1:])
        del shifted
        rows &= (1 << row_bits) - 1  # the packed keys become the rows they came from
    else:
        rows = np.argsort(keys, kind="stable")
        sorted_keys = keys[rows]
        new_group = np.r_[True, sorted_keys[1:] != sorted_keys[:-1]]
    # int32 when it fits: half the fresh memory of int64, and ids only index with it.
    kind = np.int32 if n < 2**31 else np.int64
    numbers = np.cumsum(new_group, dtype=kind)
    numbers -= 1
    group = np.empty(n, kind)
    group[rows] = numbers
    return group, rows[new_group]


def distinct_objects(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(group of each row, the distinct objects in address order) of an object array.

    Rows holding the same object share a group (equal ids held by two objects get two
    groups). None when the addresses cannot be read or do not pack into one sort key,
    and for short arrays, where touching every object costs less than the sort.
    """
    addresses = object_addresses(values)
    if addresses is None or len(values) < 1 << 16 or not _packable(addresses):
        return None
    if _one_object_a_row_in_order(addresses):
        return None
    group, first = group_equal(addresses)
    return group, values[first]


def _one_object_a_row_in_order(addresses: np.ndarray) -> bool:
    """Whether a sample of rows says: no object shared, and objects laid out in row order
    (ids made one per row). Then reading them in row order is already sequential, and
    grouping would only add its sort. Any sharing shows up as a repeated address in the
    sample (4,096 rows of a vocabulary of a million repeat about 8 times)."""
    sample = np.linspace(0, len(addresses) - 2, 4096).astype(np.int64)
    picked = addresses[sample]
    if len(np.unique(picked)) < len(picked):
        return False
    return np.count_nonzero(addresses[sample + 1] > picked) >= 0.9 * len(sample)
