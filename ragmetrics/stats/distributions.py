"""The normal and Student's t distributions: CDFs and quantiles, in plain Python.

The intervals and the t-test need four functions: the normal CDF and quantile (for BCa
and the expanded-t levels) and Student's t CDF and quantile. SciPy has them all, but
``import scipy.special`` costs 0.15-0.3 s (SciPy 1.17 builds its array-API layer on
import), as long as the rest of a ``ragmetrics evaluate`` of one run. These are the same
functions from the standard library's ``math.erfc`` and ``math.lgamma``, checked against
SciPy's Cephes routines and mpmath (``tests/unit/stats/test_stats.py``): to 1e-12 relative for up
to 1,000 degrees of freedom, 1e-10 up to a million (for more, the continued fraction
loses digits: 1e-8 at 1e9). In the far tails of few degrees of freedom (p = 1e-100 at
df = 0.5) the quantile here inverts the CDF where SciPy's ``stdtrit`` does not.

- normal CDF, ``Phi(x) = erfc(-x / sqrt 2) / 2``: no cancellation in the lower tail;
- normal quantile: :class:`statistics.NormalDist`'s ``inv_cdf`` (Wichura's AS 241,
  accurate to about 1e-16), ``-inf`` and ``inf`` at 0 and 1;
- Student's t CDF, ``P(T <= t) = I_x(df/2, 1/2) / 2`` for ``t < 0`` with
  ``x = df / (df + t²)``, the regularized incomplete beta function by its continued
  fraction (modified Lentz), as Cephes' ``incbet`` computes it;
- Student's t quantile: closed forms for 1 and 2 degrees of freedom, else Newton's
  method on the CDF, kept inside a shrinking bracket.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

__all__ = ["normal_cdf", "normal_quantile", "student_t_cdf_value", "student_t_quantile"]

_STANDARD_NORMAL = NormalDist()
_EPS = 2.0**-53
_TINY = 1e-300
_MAX_TERMS = 2_000


def _elementwise(function, *arrays) -> np.ndarray | float:
    """``function`` on each element (broadcast), once per distinct argument tuple (the
    intervals ask for one quantile per metric and system, mostly of the same df); a
    float for scalar arguments."""
    broadcast = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in arrays))
    shape = broadcast[0].shape
    flat = np.stack([b.ravel() for b in broadcast])
    distinct, where = np.unique(flat, axis=1, return_inverse=True)
    values = np.fromiter((function(*map(float, column)) for column in distinct.T),
                         dtype=np.float64, count=distinct.shape[1])
    out = values[np.asarray(where).reshape(-1)].reshape(shape)
    return float(out) if out.ndim == 0 else out


def normal_cdf(x):
    """P(Z <= x) for a standard normal Z, elementwise.

    Examples
    --------
    >>> round(normal_cdf(1.959963984540054), 12)
    0.975
    >>> float(f"{normal_cdf(-30.0):.6g}")   # the far tail, without cancellation
    4.90671e-198
    """
    return _elementwise(lambda v: 0.5 * math.erfc(-v / math.sqrt(2.0)), x)


def _normal_quantile(p: float) -> float:
    if not 0.0 <= p <= 1.0:
        return math.nan
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    return _STANDARD_NORMAL.inv_cdf(p)


def normal_quantile(p):
    """The x with P(Z <= x) = p for a standard normal Z, elementwise (NaN outside [0, 1]).

    Examples
    --------
    >>> round(normal_quantile(0.975), 12)
    1.95996398454
    >>> normal_quantile(0.0), normal_quantile(0.5)
    (-inf, 0.0)
    """
    return _elementwise(_normal_quantile, p)


def _incomplete_beta_fraction(a: float, b: float, x: float, y: float) -> float:
    """The continued fraction of I_x(a, b) (Numerical Recipes' ``betacf``), for
    ``x < (a + 1) / (a + b + 2)``, where it converges fast; ``y = 1 - x``."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    # 1 - (a + b) x / (a + 1), written so that it does not cancel for x near 1
    c, d = 1.0, ((1.0 - b) + qab * y) / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_TERMS):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                          -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            return h
    return h  # not reached for the (a, 1/2) of Student's t at any df or x


def _log_gamma_ratio(a: float) -> float:
    """log(Gamma(a + 1/2) / Gamma(a)), to full precision also for large ``a`` (where
    two lgamma values of 1e6 and more would cancel): the difference of Stirling's
    series, its leading part through ``log1p``."""
    if a < 20.0:
        return math.lgamma(a + 0.5) - math.lgamma(a)

    def series(z: float) -> float:
        w = 1.0 / (z * z)
        return (1.0 / z) * (1 / 12 - w * (1 / 360 - w * (1 / 1260 - w * (1 / 1680
                                                                    - w / 1188))))

    return (0.5 * math.log(a) + (a * math.log1p(0.5 / a) - 0.5)
            + (series(a + 0.5) - series(a)))


def _t_beta_terms(t: float, df: float) -> tuple[float, float, float]:
    """For Student's t at ``t`` (> 0): x = df / (df + t²), y = t² / (df + t²) and the
    log of the incomplete beta function's front factor x^(df/2) y^(1/2) / B(df/2, 1/2),
    from r = t²/df in logs (no overflow for any finite t)."""
    a = 0.5 * df
    log_ratio = 2.0 * math.log(t) - math.log(df)
    if log_ratio > 700.0:  # r overflows: log(1 + r) = log r, x = 1 / r, y = 1
        x, y, log_1p = math.exp(-log_ratio), 1.0, log_ratio
    else:
        ratio = math.exp(log_ratio) if log_ratio < -700.0 else t * t / df
        x, y, log_1p = 1.0 / (1.0 + ratio), ratio / (1.0 + ratio), math.log1p(ratio)
    log_front = (-a * log_1p + 0.5 * (log_ratio - log_1p) + _log_gamma_ratio(a)
                 - 0.5 * math.log(math.pi))
    return x, y, log_front


def _t_tails(t: float, df: float) -> tuple[float, float]:
    """(P(T <= -|t|), P(-|t| < T <= 0)), each computed as a small number where it is
    one: I_x(df/2, 1/2) / 2 and I_y(1/2, df/2) / 2, by whichever continued fraction
    converges, the other as the difference from 1/2."""
    t = abs(t)
    if t == 0.0:
        return 0.5, 0.0
    if math.isinf(t):
        return 0.0, 0.5
    a = 0.5 * df
    x, y, log_front = _t_beta_terms(t, df)
    if x < (a + 1.0) / (a + 2.5):
        tail = 0.5 * math.exp(log_front) * _incomplete_beta_fraction(a, 0.5, x, y) / a
        return tail, 0.5 - tail
    central = math.exp(log_front) * _incomplete_beta_fraction(0.5, a, y, x)
    return 0.5 - central, central


def _lower_t_tail(t: float, df: float) -> float:
    """P(T <= t) for t <= 0, computed as a small number (no 1 - ...)."""
    if df == 1.0:  # Cauchy, exactly
        if t == -math.inf:
            return 0.0
        return 0.5 - math.atan(-t) / math.pi if t > -1.0 else math.atan(-1.0 / t) / math.pi
    return _t_tails(t, df)[0]


def student_t_cdf_value(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom (floats, checked already).

    Examples
    --------
    >>> round(student_t_cdf_value(2.0, 1.0), 12)   # Cauchy: 1/2 + arctan(2)/pi
    0.85241638235
    >>> student_t_cdf_value(0.0, 7.0)
    0.5
    """
    if math.isnan(t) or math.isnan(df):
        return math.nan
    if t <= 0.0:
        return _lower_t_tail(t, df)
    return 1.0 - _lower_t_tail(-t, df)


def _log_t_density(t: float, df: float) -> float:
    """log f(t), f Student's t density, without overflow for any finite t."""
    log_ratio = 2.0 * math.log(abs(t)) - math.log(df) if t else -math.inf
    log_1p = log_ratio if log_ratio > 700.0 else math.log1p(t * t / df)
    return (_log_gamma_ratio(0.5 * df) - 0.5 * math.log(df * math.pi)
            - 0.5 * (df + 1.0) * log_1p)


def _lower_t_quantile(p: float, df: float) -> float:
    """The t < 0 with P(T <= t) = p, for 0 < p < 1/2."""
    if df == 1.0:
        return -1.0 / math.tan(math.pi * p)
    if df == 2.0:
        return -(1.0 - 2.0 * p) / math.sqrt(2.0 * p * (1.0 - p))
    # Start from the normal quantile with its first Cornish-Fisher terms.
    z = _STANDARD_NORMAL.inv_cdf(p)
    start = z + (z**3 + z) / (4.0 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96.0 * df * df)
    start = start if start < 0 else z
    if p > 0.25:
        return _central_t_quantile(0.5 - p, df, start)  # 0.5 - p is exact here
    return _tail_t_quantile(p, df, start)


def _central_t_quantile(central: float, df: float, t: float) -> float:
    """The t < 0 with P(t < T <= 0) = ``central`` (up to 1/4): Newton's method on t,
    where that probability is smooth and computed without cancellation."""
    low, high = -math.inf, 0.0
    for _ in range(200):
        g = _t_tails(t, df)[1] - central
        if g > 0:
            low = t  # too much mass between t and 0: t moves towards 0
        else:
            high = t
        step = g / math.exp(_log_t_density(t, df))
        if g == 0.0 or abs(step) <= 2 * _EPS * abs(t):
            return t + step
        candidate = t + step
        if not low < candidate < high:
            candidate = 0.5 * (low + high) if math.isfinite(low) else 2.0 * t
        t = candidate
    return t


def _tail_t_quantile(p: float, df: float, t: float) -> float:
    """The t < 0 with P(T <= t) = p (up to 1/4): Newton's method on
    g(u) = log P(T <= -e^u) - log p in u = log(-t), where in the tails log P is nearly
    linear (slope -df), so the steps land at once; each step stays inside the bracket
    [low, high] known to hold the root, else it bisects."""
    u, log_p = math.log(-t), math.log(p)
    low, high = -math.inf, math.inf
    for _ in range(200):
        if u > 709.78:  # beyond the largest double
            return -math.inf
        t = -math.exp(u)
        tail = _lower_t_tail(t, df)
        if tail <= 0.0:  # below the smallest double: the root is nearer zero
            high, u = u, u - 1.0 if not math.isfinite(low) else 0.5 * (low + u)
            continue
        g = math.log(tail) - log_p
        if g > 0:
            low = u  # P too large: t must go further out
        else:
            high = u
        # dg/du = f(t) t / P(T <= t), f the density: in logs, as f underflows far out
        step = -g / math.exp(_log_t_density(t, df) + u - math.log(tail))
        if g == 0.0 or abs(step) <= 2 * _EPS * max(1.0, abs(u)) or high - low <= _EPS * u:
            return -math.exp(u - step)
        candidate = u - step
        if not low < candidate < high:
            finite = math.isfinite(low) and math.isfinite(high)
            candidate = 0.5 * (low + high) if finite else (u + 1.0 if g > 0 else u - 1.0)
        u = candidate
    return -math.exp(u)


def _student_t_quantile(p: float, df: float) -> float:
    if math.isnan(p) or math.isnan(df) or not 0.0 <= p <= 1.0 or df <= 0:
        return math.nan
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return _lower_t_quantile(p, df)
    return -_lower_t_quantile(1.0 - p, df)


def student_t_quantile(p, df):
    """The t with P(T <= t) = p for Student's t with ``df`` degrees of freedom,
    elementwise (SciPy's ``stdtrit(df, p)``).

    Examples
    --------
    >>> round(student_t_quantile(0.975, 5.0), 10)   # the 97.5% point of t(5)
    2.5705818356
    >>> student_t_quantile(0.975, [1.0, 2.0])       # closed forms: tan, and sqrt
    array([12.70620474,  4.30265273])
    """
    return _elementwise(_student_t_quantile, p, df)
