"""Batched resampling: bootstrap means of many columns at once, in bounded memory.

A batch of resamples is one matrix (resample x query) of counts, multiplied by the
per-query values: no Python loop runs per resample or per query, and the batches
(:func:`batches`) keep each matrix near 32 MB. The same ``seed`` gives the same means.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputValueError
from .arguments import Progress, as_matrix, check_positive_int, check_progress, check_seed
from .rounding import power_of_two_scale

__all__ = ["BATCH_ELEMENTS", "batches", "bootstrap_means", "finite_column_groups"]

#: Elements of one batch matrix (resamples x queries): 4M float64 = 32 MB.
BATCH_ELEMENTS = 1 << 22

# Up to this many columns, bootstrap sums gather the drawn values; beyond, counting the
# draws once and multiplying is cheaper.
_GATHER_UP_TO = 2


def batches(n_resamples: int, n_queries: int):
    """(start, stop) of each batch of resamples, so a batch matrix stays near 32 MB."""
    rows = max(1, BATCH_ELEMENTS // max(n_queries, 1))
    for start in range(0, n_resamples, rows):
        yield start, min(start + rows, n_resamples)


def bootstrap_means(
    matrix, *, n_resamples: int = 10_000, seed: int = 0, progress: Progress = None
) -> np.ndarray:
    """Bootstrap means of each column of ``matrix`` (queries x columns), all columns at once.

    Each resample draws ``n`` queries with replacement (the same draw for every column,
    so columns stay paired) and takes each column's mean. A batch of resamples is a
    matrix of counts (how often each query was drawn), and the means are one matrix
    product: ``counts @ matrix / n``.

    Parameters
    ----------
    matrix : array of shape (n_queries, n_columns)
        Finite per-query values, one column per metric (or system, or difference).
    n_resamples : int, default 10_000
    seed : int, default 0
        Seed of :func:`numpy.random.default_rng`: the same seed, input and NumPy version
        give the same means.
    progress : callable(done, total), optional
        Called after each batch with the resamples done so far and ``n_resamples``.

    Returns
    -------
    numpy.ndarray of shape (n_resamples, n_columns)

    Examples
    --------
    A query drawn twice counts twice: the mean of the resample (q1, q1, q3) is
    (1 + 1 + 0) / 3.

    >>> means = bootstrap_means([[1.0], [0.5], [0.0]], n_resamples=4, seed=1)
    >>> means.shape
    (4, 1)
    >>> bool(((means >= 0) & (means <= 1)).all())
    True
    """
    matrix = as_matrix(matrix, "matrix")
    if np.isnan(matrix).any():
        raise InputValueError("matrix holds NaN; bootstrap each column on the rows where it "
                              "has values (see finite_column_groups)")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    rng = np.random.default_rng(check_seed(seed))
    progress = check_progress(progress)
    n, n_columns = matrix.shape
    scale = power_of_two_scale(matrix)
    matrix = matrix / scale  # exact; sums cannot overflow
    out = np.empty((n_resamples, n_columns))
    small = np.int32 if n < 2**31 else np.int64  # 32-bit draws are twice as fast
    for start, stop in batches(n_resamples, n):
        rows = stop - start
        drawn = rng.integers(0, n, size=(rows, n), dtype=small)
        if n_columns <= _GATHER_UP_TO:
            # Few columns: sum the drawn values directly.
            for j in range(n_columns):
                out[start:stop, j] = matrix[:, j][drawn].sum(axis=1)
        else:
            # Many columns: count the draws once (row r's counts at r*n .. r*n + n - 1),
            # then one matrix product gives every column's sums.
            flat = drawn + (np.arange(rows, dtype=np.int64) * n)[:, None]
            counts = np.bincount(flat.ravel(), minlength=rows * n).reshape(rows, n)
            out[start:stop] = counts.astype(np.float64) @ matrix
        if progress is not None:
            progress(stop, n_resamples)
    out /= n
    out *= scale
    return out


def finite_column_groups(matrix) -> list[tuple[np.ndarray, list[int]]]:
    """Columns grouped by the rows where they are finite: ``[(rows, columns), ...]``.

    Without a ``"skip"`` policy every column has every row and there is one group; with
    one, each group is resampled over its own rows (and groups with no row are left out).

    Examples
    --------
    >>> nan = float("nan")
    >>> [(rows.tolist(), cols) for rows, cols in finite_column_groups(
    ...     [[1.0, 2.0, 0.5], [nan, 1.0, nan]])]
    [([True, False], [0, 2]), ([True, True], [1])]
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    finite = np.isfinite(matrix)
    groups: dict[bytes, list[int]] = {}
    for j in range(matrix.shape[1]):
        groups.setdefault(finite[:, j].tobytes(), []).append(j)
    return [(finite[:, cols[0]], cols) for cols in groups.values() if finite[:, cols[0]].any()]
