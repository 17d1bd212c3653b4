"""Corrections for many claims: Holm's step-down and Benjamini-Hochberg adjusted p-values."""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np

from ..errors import InputValueError
from ..validation import check_choice
from .arguments import as_values

__all__ = ["CORRECTIONS", "Correction", "adjust_p_values", "benjamini_hochberg",
           "check_correction", "holm"]

#: How p-values are corrected for the number of claims, as a type: the ``correction`` of
#: :func:`adjust_p_values`, :func:`randomization_verdicts` and :func:`ragmetrics.compare`.
Correction = Literal["holm", "bh", "none"]

#: How p-values are corrected for the number of claims: ``"holm"`` (Holm's step-down,
#: family-wise error rate), ``"bh"`` (Benjamini-Hochberg, false discovery rate) or
#: ``"none"``.
CORRECTIONS: tuple[str, ...] = get_args(Correction)


def check_correction(correction) -> str:
    return check_choice(correction, CORRECTIONS, "correction")


def _as_p_values(p_values) -> np.ndarray:
    p = as_values(p_values, "p_values")
    bad = (p < 0) | (p > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputValueError(f"p_values[{i}] is {float(p[i])!r}; a p-value lies between 0 and 1")
    return p


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values: control the family-wise error rate.

    Sort the ``m`` p-values ascending, ``p_(1) <= ... <= p_(m)``; the adjusted value of
    ``p_(i)`` is ``max_{j <= i} min(1, (m - j + 1) p_(j))`` (Holm, 1979). Reject where
    the adjusted p is below alpha: the chance of *any* false "better" among the ``m``
    claims stays below alpha. Uniformly more powerful than Bonferroni (``m p``).

    Parameters
    ----------
    p_values : sequence of float
        The raw p-values of the ``m`` claims, each between 0 and 1.

    Returns
    -------
    numpy.ndarray
        Holm's adjusted p-values, in the order given: each at least its raw p, and none
        below a smaller raw p's.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()   # 3 x 0.01, then max(0.03, 2 x 0.03), ...
    [0.03, 0.06, 0.06]
    """
    p = _as_p_values(p_values)
    m = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(stepped)
    return adjusted


def benjamini_hochberg(p_values) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values: control the false discovery rate.

    Sort the ``m`` p-values ascending; the adjusted value of ``p_(i)`` is
    ``min_{j >= i} min(1, m p_(j) / j)`` (Benjamini & Hochberg, 1995). Reject where the
    adjusted p is below alpha: on average, at most a share alpha of the claims made are
    false. Less strict than :func:`holm`, for screening many metrics or systems.

    Parameters
    ----------
    p_values : sequence of float
        One per claim, between 0 and 1; the family is all of them (for a family
        with untested claims, NaN, see :func:`adjust_p_values`).

    Returns
    -------
    numpy.ndarray
        The adjusted p-values (sometimes called q-values), in the order given: a claim is
        made where its value is below the false discovery rate wanted.

    Examples
    --------
    >>> benjamini_hochberg([0.01, 0.04, 0.03]).tolist()   # 3/1 x 0.01, 3/3 x 0.04, ...
    [0.03, 0.04, 0.04]
    """
    p = _as_p_values(p_values)
    m = len(p)
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, p[order] * m / np.arange(1, m + 1))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum.accumulate(scaled[::-1])[::-1]
    return adjusted


def adjust_p_values(p_values, correction: Correction = "holm") -> np.ndarray:
    """Correct p-values for the number of claims; NaN (an untested claim) stays NaN.

    ``correction`` is one of :data:`CORRECTIONS`: ``"holm"`` (:func:`holm`), ``"bh"``
    (:func:`benjamini_hochberg`) or ``"none"``. The family is the finite p-values. Both
    corrections are monotone: lowering any raw p never raises an adjusted one.

    Examples
    --------
    >>> adjust_p_values([0.01, float("nan"), 0.03], "holm").tolist()
    [0.02, nan, 0.03]
    """
    correction = check_correction(correction)
    p = np.array(p_values, dtype=np.float64, ndmin=1)
    finite = np.isfinite(p)
    if correction != "none" and finite.any():
        p[finite] = (holm if correction == "holm" else benjamini_hochberg)(p[finite])
    return p
