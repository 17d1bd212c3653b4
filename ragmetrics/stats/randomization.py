"""The paired randomization (sign-flip) test: exact up to 16 queries, sampled above.

Under the null hypothesis each per-query difference is as likely to be ``+d`` as ``-d``;
the p-value is the share of sign patterns whose mean is at least as far from 0 as the
observed one. A batch of patterns is a 0/1 matrix times the differences
(:func:`extreme_pattern_counts`); up to :data:`EXACT_MAX_QUERIES` queries every pattern
is enumerated (:func:`exact_p_values`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import InputValueError
from .arguments import (
    Progress,
    as_matrix,
    as_pair,
    check_positive_int,
    check_progress,
    check_seed,
    sample_size_warnings,
)
from .resampling import BATCH_ELEMENTS, batches
from .rounding import paired_differences, power_of_two_scale

__all__ = [
    "EXACT_MAX_QUERIES",
    "RandomizationResult",
    "exact_p_values",
    "extreme_pattern_counts",
    "randomization_p_values",
    "randomization_test",
    "smallest_p_value",
]

#: Up to this many queries, :func:`randomization_test` enumerates all 2**n sign patterns
#: (65,536 at n = 16) and its p-value is exact; above, it samples ``n_resamples`` of them.
EXACT_MAX_QUERIES = 16


def extreme_pattern_counts(d: np.ndarray, n_patterns: int, rng, progress: Progress) -> np.ndarray:
    """How many of ``n_patterns`` random sign patterns are as extreme as the observed sum."""
    n = d.shape[0]
    d = d / power_of_two_scale(d)  # exact: sums of flipped values cannot overflow
    total = d.sum(axis=0)
    observed = np.abs(total)
    # Sums of the same numbers in another order differ by rounding: a pattern whose sum
    # equals the observed one up to this tolerance counts as "as extreme" (conservative).
    tolerance = 1e-10 * np.abs(d).sum(axis=0) + 1e-300
    count = np.zeros(d.shape[1], dtype=np.int64)
    n_bytes = (n + 7) // 8
    for start, stop in batches(n_patterns, n):
        random_bytes = rng.integers(0, 256, size=(stop - start, n_bytes), dtype=np.uint8)
        flips = np.unpackbits(random_bytes, axis=1, count=n).astype(np.float64)
        # A few columns at a time: the flipped sums of many claims (a hundred systems x
        # ten metrics) would be gigabytes of fresh memory at once.
        step = max(1, BATCH_ELEMENTS // (stop - start))
        for first in range(0, d.shape[1], step):
            cols = slice(first, first + step)
            flipped = total[cols] - 2.0 * (flips @ d[:, cols])
            count[cols] += (np.abs(flipped) >= observed[cols] - tolerance[cols]).sum(axis=0)
        if progress is not None:
            progress(stop, n_patterns)
    return count


def exact_p_values(d: np.ndarray) -> np.ndarray:
    n = d.shape[0]
    d = d / power_of_two_scale(d)
    total = d.sum(axis=0)
    tolerance = 1e-10 * np.abs(d).sum(axis=0) + 1e-300
    patterns = (np.arange(2**n, dtype=np.int64)[:, None] >> np.arange(n)) & 1
    flipped = total - 2.0 * (patterns.astype(np.float64) @ d)
    return (np.abs(flipped) >= np.abs(total) - tolerance).sum(axis=0) / 2.0**n


def randomization_p_values(
    differences, *, n_resamples: int = 10_000, seed: int = 0, progress: Progress = None
) -> tuple[np.ndarray, bool]:
    """Two-sided sign-flip p-values of each column of ``differences``, all columns at once.

    Under the null hypothesis "A and B are exchangeable on each query", each per-query
    difference is as likely to be ``+d`` as ``-d``. The p-value is the share of sign
    patterns whose mean is at least as far from 0 as the observed mean. A batch of
    patterns is a 0/1 matrix ``flips`` (resample x query), and the flipped sums are
    ``total - 2 * flips @ differences``.

    With at most :data:`EXACT_MAX_QUERIES` queries, every one of the ``2**n`` patterns
    is enumerated and the p-value is exact: ``count / 2**n``. Otherwise ``n_resamples``
    random patterns are drawn and ``p = (count + 1) / (n_resamples + 1)``, which counts
    the observed pattern itself and is never 0 (Phipson & Smyth, 2010); its Monte Carlo
    standard error is about ``sqrt(p (1 - p) / n_resamples)``.

    Parameters
    ----------
    differences : array of shape (n_queries, n_columns)
        Finite per-query differences ``b - a``, one column per metric (or pair).
    n_resamples, seed, progress
        As in :func:`bootstrap_means`.

    Returns
    -------
    (numpy.ndarray of shape (n_columns,), bool)
        The p-values, and whether they are exact.

    Examples
    --------
    Three queries, B ahead on each: of the 8 sign patterns, only "all +" and "all -" are
    as extreme as what was observed, so p = 2/8.

    >>> p, exact = randomization_p_values([[0.1], [0.2], [0.3]])
    >>> float(p[0]), exact
    (0.25, True)
    """
    d = as_matrix(differences, "differences")
    if np.isnan(d).any():
        raise InputValueError("differences holds NaN; test each column on the rows where it "
                              "has values (see finite_column_groups)")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    seed = check_seed(seed)
    progress = check_progress(progress)
    if d.shape[0] <= EXACT_MAX_QUERIES:
        p = exact_p_values(d)
        if progress is not None:
            progress(n_resamples, n_resamples)
        return p, True
    count = extreme_pattern_counts(d, n_resamples, np.random.default_rng(seed), progress)
    return (count + 1) / (n_resamples + 1.0), False


def smallest_p_value(n_queries: int, *, n_resamples: int = 10_000) -> float:
    """The smallest two-sided p-value :func:`randomization_test` can give.

    Exact (at most :data:`EXACT_MAX_QUERIES` queries): the observed pattern and its
    mirror image are always as extreme as themselves, so ``p >= 2 / 2**n``. Sampled:
    ``p >= 1 / (n_resamples + 1)``. When even this is not below the significance level
    (after a correction for many claims), no difference can be significant.

    Examples
    --------
    >>> smallest_p_value(5)                    # 2 / 32: never below 0.05
    0.0625
    >>> smallest_p_value(40, n_resamples=99)
    0.01
    """
    n_queries = check_positive_int(n_queries, "n_queries")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    if n_queries <= EXACT_MAX_QUERIES:
        return min(1.0, 2.0 / 2.0**n_queries)
    return 1.0 / (n_resamples + 1.0)


@dataclass(frozen=True)
class RandomizationResult:
    """The paired randomization (sign-flip) test of ``b - a``.

    Attributes
    ----------
    difference : float
        The observed mean difference ``mean(b - a)``.
    p_value : float
        Two-sided.
    exact : bool
        True when all ``2**n`` sign patterns were enumerated.
    n_queries, n_resamples, seed : int
    warnings : tuple of str
    mc_error : float
        The Monte Carlo standard error of ``p_value``, ``sqrt(p (1 - p) / n_resamples)``;
        0 when exact.
    """

    difference: float
    p_value: float
    exact: bool
    n_queries: int
    n_resamples: int
    seed: int
    warnings: tuple[str, ...] = ()
    mc_error: float = 0.0


def randomization_test(
    a, b, *, n_resamples: int = 10_000, seed: int = 0
) -> RandomizationResult:
    """Paired two-sided randomization test: is ``mean(b - a)`` further from 0 than chance?

    If the two systems were interchangeable, swapping their values on any query would be
    as likely as not, i.e. each difference ``d_i = b_i - a_i`` would be ``+d_i`` or
    ``-d_i`` with probability 1/2. The p-value is the probability, under such random
    sign flips, of a mean at least as far from 0 as the observed one:

    .. math:: p = P\\left(\\left|\\tfrac{1}{n}\\textstyle\\sum_i s_i d_i\\right| \\ge
              \\left|\\bar d\\right|\\right), \\quad s_i = \\pm 1.

    It assumes nothing about the shape of the distribution of the differences. With at
    most :data:`EXACT_MAX_QUERIES` queries every pattern is enumerated (exact p);
    otherwise ``n_resamples`` patterns are sampled, ``p = (count + 1) / (n_resamples +
    1)``, and ``mc_error`` says how far that estimate may be from the exact p.

    Examples
    --------
    Four queries, B better on three by 0.1 and worse on one by 0.1. Of the 16 sign
    patterns, those with a mean difference of at least |0.05| are the 2 with all four
    signs equal and the 8 with three of one sign: p = 10/16.

    >>> result = randomization_test([0.5, 0.5, 0.5, 0.5], [0.6, 0.6, 0.6, 0.4])
    >>> round(result.difference, 4), result.p_value, result.exact, result.mc_error
    (0.05, 0.625, True, 0.0)

    Forty queries are too many to enumerate; 10,000 patterns are drawn, and the p-value
    is known to about ± 0.004 (one standard error):

    >>> result = randomization_test([0.5] * 40, [0.6] * 12 + [0.4] * 6 + [0.5] * 22)
    >>> result.exact, round(result.p_value, 3), round(result.mc_error, 4)
    (False, 0.236, 0.0042)
    """
    a, b = as_pair(a, b)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    seed = check_seed(seed)
    d = paired_differences(a, b)
    p, exact = randomization_p_values(d[:, None], n_resamples=n_resamples, seed=seed)
    p_value = float(p[0])
    return RandomizationResult(
        difference=float(d.mean()),
        p_value=p_value,
        exact=exact,
        n_queries=len(d),
        n_resamples=n_resamples,
        seed=seed,
        warnings=sample_size_warnings(len(d)),
        mc_error=0.0 if exact else math.sqrt(p_value * (1.0 - p_value) / n_resamples),
    )
