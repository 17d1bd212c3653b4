"""Inputs of the statistics, checked once at the boundary, and the sample-size warning.

Every public function of :mod:`ragmetrics.stats` checks its arguments with these before
computing anything: an error names the argument and the bad value. A claim about fewer
than :data:`MIN_QUERIES` queries carries :func:`sample_size_warnings`.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

import numpy as np

from ..errors import InputTypeError, InputValueError

__all__ = [
    "MIN_QUERIES",
    "Progress",
    "as_matrix",
    "as_pair",
    "as_values",
    "check_alpha",
    "check_bounds",
    "check_confidence",
    "check_level",
    "check_positive_int",
    "check_progress",
    "check_seed",
    "sample_size_warnings",
]

#: A progress callback, ``callback(done, total)``, or None.
Progress = Callable[[int, int], object] | None


def as_values(values, name: str) -> np.ndarray:
    """A 1-D float64 array of finite numbers, at least one, or an error naming the culprit."""
    if isinstance(values, (str, bytes)):
        raise InputTypeError(f"{name} must be a 1-D sequence of numbers, got the string {values!r}")
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be a 1-D sequence of numbers, got {values!r}") from None
    if array.ndim != 1:
        raise InputValueError(f"{name} must be 1-D (one value per query), got shape {array.shape}")
    if len(array) == 0:
        raise InputValueError(f"{name} is empty: there must be at least one query")
    bad = ~np.isfinite(array)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputValueError(
            f"{name}[{i}] is {float(array[i])!r}; every value must be a finite number "
            "(drop the queries a 'skip' policy left out first: values[~np.isnan(values)])"
        )
    return array


def as_pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = as_values(a, "a"), as_values(b, "b")
    if len(a) != len(b):
        raise InputValueError(
            f"a and b must hold one value per query for the same queries, in the same order; "
            f"got {len(a)} and {len(b)} values"
        )
    return a, b


def as_matrix(matrix, name: str) -> np.ndarray:
    """A 2-D float64 array with at least one row; NaN allowed (a missing value), inf not."""
    try:
        array = np.asarray(matrix, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be a 2-D array of numbers, got {matrix!r}") from None
    if array.ndim != 2 or array.shape[0] == 0:
        raise InputValueError(
            f"{name} must be 2-D (queries x columns) with at least one query row, "
            f"got shape {array.shape}"
        )
    if np.isinf(array).any():
        row, column = (int(i[0]) for i in np.nonzero(np.isinf(array)))
        raise InputValueError(f"{name}[{row}, {column}] is {float(array[row, column])!r}; values "
                              "must be finite numbers (NaN for a missing one)")
    return array


def check_level(value, name: str, example: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputTypeError(f"{name} must be a number such as {example}, got {value!r}")
    if not 0 < value < 1:
        raise InputValueError(f"{name} must be between 0 and 1 (e.g. {example}), got {value!r}")
    return float(value)


def check_confidence(confidence) -> float:
    return check_level(confidence, "confidence", "0.95")


def check_alpha(alpha) -> float:
    return check_level(alpha, "alpha", "0.05")


def check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputTypeError(f"{name} must be a positive int, got {value!r}")
    if value < 1:
        raise InputValueError(f"{name} must be a positive int, got {value!r}")
    return int(value)


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise InputTypeError(f"seed must be a non-negative int (for reproducible numbers), got {seed!r}")
    return int(seed)


def check_progress(progress) -> Progress:
    if progress is not None and not callable(progress):
        raise InputTypeError(f"progress must be None or a callable(done, total), got {progress!r}")
    return progress


def check_bounds(bounds, n_columns: int):
    """None, or (low, high) arrays of one value per column, low < high."""
    if bounds is None:
        return None
    if isinstance(bounds, (str, bytes)) or not isinstance(bounds, Sequence) or len(bounds) != 2:
        raise InputTypeError(f"bounds must be None or a pair (low, high), got {bounds!r}")
    try:
        low, high = (np.broadcast_to(np.asarray(v, dtype=np.float64), (n_columns,))
                     for v in bounds)
    except (TypeError, ValueError):
        raise InputTypeError(f"bounds must be a pair of numbers (low, high), got {bounds!r}") from None
    if np.isnan(low).any() or np.isnan(high).any() or not (low < high).all():
        raise InputValueError(f"bounds must be (low, high) with low < high, got {bounds!r}")
    return low, high


#: Fewer queries than this and every result carries a "too few queries" warning. With
#: small query sets, a difference seen on one set often reverses on another (Voorhees &
#: Buckley, "The effect of topic set size on retrieval experiment error", SIGIR 2002);
#: TREC uses 50 topics.
MIN_QUERIES = 25


def sample_size_warnings(n_queries: int, *, minimum: int = MIN_QUERIES) -> tuple[str, ...]:
    """The warnings a claim about ``n_queries`` queries must carry.

    Examples
    --------
    >>> for warning in sample_size_warnings(3):  # doctest: +NORMALIZE_WHITESPACE
    ...     print(warning)
    only 3 queries: too few queries for this claim (fewer than 25); a difference seen on
    so few queries often reverses on another set
    >>> sample_size_warnings(50)
    ()
    """
    if n_queries >= minimum:
        return ()
    message = (
        f"only {n_queries} {'query' if n_queries == 1 else 'queries'}: too few queries for "
        f"this claim (fewer than {minimum}); a difference seen on so few queries often "
        "reverses on another set"
    )
    return (message,)
