"""Exact scaling and rounding: sums that cannot overflow, differences that are only noise.

Dividing by a power of two changes no digit of a float, so values scaled into ``[-2, 2)``
(:func:`power_of_two_scale`) give the same sums as before, without overflow near the
float64 limit or loss in subnormals. A per-query difference, or a standard deviation,
within :data:`ROUNDING` of the values' magnitude is rounding error and counts as 0.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputValueError

__all__ = ["ROUNDING", "paired_differences", "paired_spread", "power_of_two_scale"]

#: Relative rounding tolerance. A per-query difference ``b_i - a_i`` with
#: ``|b_i - a_i| <= ROUNDING * max(|a_i|, |b_i|)`` is 0 (a tie), and a standard deviation
#: at most ``ROUNDING`` times the values' largest magnitude is 0 (no spread). Metric
#: values carry rounding errors near 1e-16; 1e-12 leaves a margin of ten thousand for
#: sums of many terms, and no real difference between retrieval metrics is that small.
ROUNDING = 1e-12


def power_of_two_scale(matrix: np.ndarray) -> np.ndarray:
    """Per column, a power of two at least half the largest |value| (1 for an all-0 column).

    Dividing by a power of two is exact, so values scaled into [-2, 2) give the same sums
    as before, without overflow near the float64 limit (1.8e308) or loss in subnormals.
    """
    largest = np.nanmax(np.abs(matrix), axis=0, initial=0.0)
    _, exponent = np.frexp(largest)
    return np.where(largest > 0, np.ldexp(1.0, exponent - 1), 1.0)


def paired_differences(a, b) -> np.ndarray:
    """``b - a`` per query, with differences that are only rounding error set to 0.

    A per-query difference with ``|b_i - a_i| <= ROUNDING * max(|a_i|, |b_i|)`` is a tie:
    ``0.1 + 0.2`` and ``0.3`` are the same score. NaN (a value a ``"skip"`` policy left
    out) gives NaN.

    Parameters
    ----------
    a, b : array_like of the same shape
        Finite numbers or NaN.

    Returns
    -------
    numpy.ndarray of float64, the shape of ``a``

    Examples
    --------
    >>> 0.1 + 0.2 - 0.3                              # not quite 0
    5.551115123125783e-17
    >>> paired_differences([0.3, 0.5], [0.1 + 0.2, 0.75]).tolist()
    [0.0, 0.25]
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise InputValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    for name, x in (("a", a), ("b", b)):
        if np.isinf(x).any():
            raise InputValueError(f"{name} holds an infinite value; values must be finite")
    with np.errstate(over="ignore", invalid="ignore"):
        d = b - a
    overflow = np.isinf(d)
    if overflow.any():
        where = tuple(int(i[0]) for i in np.nonzero(overflow))
        raise InputValueError(
            f"b - a overflows float64 at {where[0] if len(where) == 1 else where}: "
            f"{float(b[where])!r} - {float(a[where])!r}; values must differ by less than 1.8e308"
        )
    noise = ROUNDING * np.maximum(np.abs(a), np.abs(b))
    d[np.abs(d) <= noise] = 0.0
    return d


def paired_spread(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float, float]:
    """(d, mean, sd) of the per-query differences; sd is 0 when it is only rounding."""
    d = paired_differences(a, b)
    if len(d) < 2:
        return d, float(d.mean()), math.nan
    scale = float(power_of_two_scale(d[:, None])[0])
    scaled = d / scale
    sd = float(scaled.std(ddof=1)) * scale
    magnitude = max(float(np.abs(a).max()), float(np.abs(b).max()))
    if sd <= ROUNDING * magnitude:
        sd = 0.0
    return d, float(scaled.mean()) * scale, sd
