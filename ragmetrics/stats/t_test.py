"""Student's paired t-test, and the t distribution it reads its p-value from (SciPy's).

SciPy is imported where a p-value is computed, so that ``import ragmetrics`` stays quick.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from ..errors import InputTypeError, InputValueError
from .arguments import as_pair, sample_size_warnings
from .distributions import student_t_cdf_value
from .rounding import paired_spread

__all__ = ["TTestResult", "paired_t_test", "student_t_cdf"]

@dataclass(frozen=True)
class TTestResult:
    """Student's paired t-test of ``b - a``.

    Attributes
    ----------
    difference : float
        ``mean(b - a)``.
    statistic : float
        ``t = mean(d) / (sd(d) / sqrt(n))``, with the sample standard deviation.
    df : int
        Degrees of freedom, ``n - 1``.
    p_value : float
        Two-sided.
    warnings : tuple of str
    """

    difference: float
    statistic: float
    df: int
    p_value: float
    warnings: tuple[str, ...] = ()


def paired_t_test(a, b) -> TTestResult:
    """Student's paired t-test: is the mean per-query difference ``b - a`` zero?

    With ``d_i = b_i - a_i``, ``t = d̄ / (s_d / √n)`` follows Student's t with
    ``n - 1`` degrees of freedom when the differences are normal; the two-sided p-value
    is ``2 P(T ≥ |t|)``, from :func:`student_t_cdf`. Retrieval metrics are bounded and
    often far from normal, so read it next to :func:`randomization_test`; with many
    queries the two agree closely. ``scipy.stats.ttest_rel(b, a)`` computes the same.

    Degenerate cases, where there is no spread to divide by (a standard deviation within
    :data:`ROUNDING` of the values' magnitude counts as none): if every difference is 0,
    the systems are identical on these queries (``t = 0``, ``p = 1``); if every
    difference is the same non-zero number, ``t = ±inf`` and ``p = 0``. A mean of exactly
    0 with spread gives ``t = 0``, ``p = 1``. With a single query there is no spread at
    all: ``t``, ``df`` and ``p`` are NaN and a warning says why.

    Examples
    --------
    >>> result = paired_t_test([0.2, 0.4, 0.6, 0.8], [0.3, 0.6, 0.6, 1.0])
    >>> mean_d, sd_d = 0.125, 0.095742711    # the differences are 0.1, 0.2, 0.0, 0.2
    >>> round(result.statistic, 4), round(mean_d / (sd_d / 2), 4), result.df
    (2.6112, 2.6112, 3)
    >>> round(result.p_value, 4)
    0.0796

    Every query exactly 0.1 worse: ``b - a`` carries rounding noise near 1e-17, which is
    not a spread, so ``t`` is infinite:

    >>> result = paired_t_test([0.5, 0.8, 0.3], [0.4, 0.7, 0.2])
    >>> result.statistic, result.p_value
    (-inf, 0.0)
    """
    a, b = as_pair(a, b)
    d, difference, sd = paired_spread(a, b)
    n = len(d)
    warnings = sample_size_warnings(n)
    if n < 2:
        warnings += ("a t-test needs at least 2 queries: t and p are NaN",)
        return TTestResult(difference, math.nan, math.nan, math.nan, warnings)
    df = n - 1
    if difference == 0.0:
        return TTestResult(difference, 0.0, df, 1.0, warnings)
    if sd == 0.0:
        return TTestResult(difference, math.copysign(math.inf, difference), df, 0.0, warnings)
    t = difference / (sd / math.sqrt(n))
    return TTestResult(difference, t, df, _two_sided_t_p(t, df), warnings)


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t distribution with ``df`` degrees of freedom.

    Computed from the incomplete beta function, ``P(|T| >= |t|) = I_x(df/2, 1/2)``
    with ``x = df / (df + t²)``, by its continued fraction
    (:mod:`ragmetrics.stats.distributions`), accurate in the far tails too: it agrees
    with SciPy's ``stdtr`` (Cephes) to 1e-10 relative or better for df up to a million.

    Parameters
    ----------
    t : float
        Any number but NaN; ``±inf`` gives 1 or 0.
    df : float
        Positive, finite; need not be an integer.

    Examples
    --------
    >>> student_t_cdf(0.0, 5)
    0.5
    >>> round(student_t_cdf(2.0, 1), 10)    # Cauchy: 1/2 + arctan(2)/pi
    0.8524163823
    >>> round(student_t_cdf(-2.5706, 5), 4)  # the 2.5% point of t(5)
    0.025
    """
    if isinstance(t, bool) or not isinstance(t, numbers.Real) or math.isnan(t):
        raise InputTypeError(f"t must be a number, got {t!r}")
    if isinstance(df, bool) or not isinstance(df, numbers.Real) or not 0 < df < math.inf:
        raise InputValueError(f"df must be a positive finite number, got {df!r}")
    return student_t_cdf_value(float(t), float(df))


def _two_sided_t_p(t: float, df: float) -> float:
    """P(|T| >= |t|): 1 at t = 0, 0 at t = ±inf, no cancellation in the far tail."""
    return float(min(1.0, 2.0 * student_t_cdf_value(-abs(t), float(df))))
