r"""How big a difference could these queries show, and how many queries would a smaller one need?

A comparison that finds "no significant difference" has not shown that two systems are
equal: with few queries, or queries on which the systems disagree a lot, only a large
difference could have been seen. Power analysis says how large, from the spread of the
paired per-query differences ``d_i = b_i - a_i``:

- the **minimum detectable effect** (MDE): the smallest true mean difference that the
  paired test at level ``alpha`` would find with probability ``power``, with the
  queries at hand (:func:`minimum_detectable_effect`);
- the **queries needed** for a target difference (say 0.02, "two nDCG points"): the
  smallest number of queries at which that difference would be found with probability
  ``power`` (:func:`queries_needed`).

Both come from the power of Student's two-sided paired t-test: with ``n`` queries whose
differences have standard deviation :math:`s`, a true mean difference :math:`\delta`
gives a t statistic with the noncentral t distribution, ``n - 1`` degrees of freedom
and noncentrality :math:`\lambda = \delta \sqrt{n} / s`, so

.. math:: \text{power}(\delta, n) = P(|T_{n-1, \lambda}| > t_{1 - \alpha/2,\, n-1}).

**How that probability is computed** (:func:`noncentral_t_two_sided_tail`): by SciPy's
noncentral t (``scipy.stats.nct``, Boost's series), accurate to about 1e-15 wherever it
returns a number, and, where it returns NaN or warns (it does for noncentralities beyond
about 7.5, at every number of degrees of freedom), by one numerical integral of the same
probability: with :math:`T = (Z + \lambda) / \sqrt{V / \nu}`, :math:`Z` standard
normal and :math:`V` chi-square with :math:`\nu = n - 1` degrees of freedom,

.. math:: P(|T| > c) = \int_{-\infty}^{\infty} \varphi(z)\,
          F_{\chi^2_\nu}\!\left(\nu (z + \lambda)^2 / c^2\right) dz,

exact to about 1e-15 up to :math:`\nu = 10^4` (checked against the closed forms at
:math:`\nu = 1`, Owen's T, and :math:`\nu = 2`, in ``tests/unit/stats/test_power.py``). No normal
approximation is used: at two or three queries it is far off (at two queries, a
noncentrality of 8 has power 0.47, where the normal tail :math:`\Phi(\lambda - c)` says
1e-6).

The spread :math:`s` is the one observed, and is assumed to stay the same on more
queries of the same kind. The randomization test that :func:`ragmetrics.compare` uses
for its verdicts has nearly the same power as the t-test on such data (Smucker, Allan &
Carterette, CIKM 2007); ``tests/unit/stats/test_power.py`` checks both numbers against simulations
of the t-test and of the sign-flip test on resampled differences. With a correction
over ``m`` claims, pass the per-claim level (``alpha / m`` for Bonferroni, the strictest
step of Holm's) for the power of one corrected claim.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..errors import InputValueError
from .arguments import as_values, check_alpha, check_level
from .distributions import normal_quantile

__all__ = ["DEFAULT_POWER", "minimum_detectable_effect", "noncentral_t_two_sided_tail",
           "power_table", "queries_needed", "t_test_power"]

#: The power the MDE and the queries needed are computed for, unless told (Cohen's 0.8).
DEFAULT_POWER = 0.8

# The most queries :func:`queries_needed` reports (past it: "more than").
_MAX_QUERIES = 10**9


def _check_power(power) -> float:
    return check_level(power, "power", "0.8")


def noncentral_t_two_sided_tail(critical: float, df: float, noncentrality: float) -> float:
    r"""``P(|T| > critical)`` for ``T`` noncentral t with ``df`` degrees of freedom.

    ``T = (Z + noncentrality) / sqrt(V / df)``, ``Z`` standard normal and ``V`` chi-square
    with ``df`` degrees of freedom, independent. SciPy's ``nct.sf(critical) +
    nct.cdf(-critical)`` where both are numbers and SciPy does not warn; where it gives
    NaN or warns that its series did not converge, the integral over ``Z`` of the
    chi-square CDF,

    .. math:: P(|T| > c) = \int \varphi(z)\, F_{\chi^2_\nu}(\nu (z + \lambda)^2 / c^2)\, dz,

    since ``|T| > c`` is ``V < df (Z + noncentrality)^2 / c^2`` (``scipy.integrate.quad``,
    split where the integrand bends, at ``z = -noncentrality`` and ``-noncentrality ± c``).

    Parameters
    ----------
    critical : float
        Positive.
    df : float
        Positive.
    noncentrality : float
        Its sign does not matter (the two tails swap).

    Examples
    --------
    At one degree of freedom the noncentral t has a closed form (Owen, Technometrics
    1965): ``P(T <= t) = Φ(-λ/√(1+t²)) + 2 T(λ/√(1+t²), t)``, with Owen's T function.
    At a noncentrality of 8, where SciPy's ``nct.cdf`` gives NaN:

    >>> from scipy import special, stats
    >>> c = float(stats.t.ppf(0.975, 1))
    >>> def cdf(t, lam):
    ...     h = lam / (1 + t * t) ** 0.5
    ...     return special.ndtr(-h) + 2 * special.owens_t(h, t)
    >>> ours = noncentral_t_two_sided_tail(c, 1, 8.0)
    >>> exact = float(1 - cdf(c, 8.0) + cdf(-c, 8.0))
    >>> round(ours, 10), abs(ours - exact) < 1e-14
    (0.4697816703, True)
    """
    from scipy import stats

    noncentrality = abs(float(noncentrality))
    # Boost warns when its series does not converge, and then returns its closest value
    # or NaN: either way the integral answers instead.
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        upper = float(stats.nct.sf(critical, df, noncentrality))
        lower = float(stats.nct.cdf(-critical, df, noncentrality))
    if not caught and math.isfinite(upper) and math.isfinite(lower):
        return upper + lower
    return _two_sided_tail_by_integral(float(critical), float(df), noncentrality)


# Beyond |z| = 39 the standard normal density is below 1e-330: no mass left to integrate.
_Z_LIMIT = 39.0


def _two_sided_tail_by_integral(critical: float, df: float, noncentrality: float) -> float:
    """``P(|T| > critical)`` as the integral over ``z`` (see
    :func:`noncentral_t_two_sided_tail`)."""
    from scipy import integrate, special

    scale = df / (critical * critical)

    def integrand(z: float) -> float:
        shifted = z + noncentrality
        return math.exp(-0.5 * z * z) * float(special.chdtr(df, scale * shifted * shifted))

    bends = sorted(point for point in (-noncentrality - critical, -noncentrality,
                                       -noncentrality + critical)
                   if -_Z_LIMIT < point < _Z_LIMIT)
    value, _ = integrate.quad(integrand, -_Z_LIMIT, _Z_LIMIT, points=bends or None,
                              epsabs=1e-15, epsrel=1e-13, limit=500)
    return value / math.sqrt(2.0 * math.pi)


def t_test_power(effect: float, sd: float, n: int, *, alpha: float = 0.05) -> float:
    r"""The power of the two-sided paired t-test at level ``alpha``.

    The probability that ``n`` queries whose differences are normal with true mean
    ``effect`` and standard deviation ``sd`` give a p-value below ``alpha``:
    ``P(|T| > t(1 - alpha/2; n-1))`` for ``T`` noncentral t with ``n - 1`` degrees of
    freedom and noncentrality ``effect √n / sd``
    (:func:`noncentral_t_two_sided_tail`, exact at any ``n`` from 2 on).

    Examples
    --------
    >>> round(t_test_power(0.05, 0.1, 34), 3)  # d = 0.5, 34 queries: the textbook 0.8
    0.808
    >>> round(t_test_power(0.0, 0.1, 34), 3)   # no effect: the test's level
    0.05

    Two queries whose true difference is 8 / √2 standard deviations (a noncentrality
    of 8): the test, with its critical value of 12.7, finds it about half the time.

    >>> round(t_test_power(8 / 2**0.5, 1.0, 2), 4)
    0.4698
    """
    from scipy import stats

    alpha = check_alpha(alpha)
    if n < 2:
        raise InputValueError(f"the t-test needs at least 2 queries, got n = {n}")
    if not sd > 0:
        raise InputValueError(f"sd must be positive, got {sd!r}")
    df = n - 1
    critical = float(stats.t.ppf(1 - alpha / 2, df))
    noncentrality = effect * math.sqrt(n) / sd
    return min(noncentral_t_two_sided_tail(critical, df, noncentrality), 1.0)


def _spread(differences) -> tuple[int, float]:
    d = as_values(differences, "differences")
    if len(d) < 2:
        return len(d), math.nan
    scale = float(np.abs(d).max()) or 1.0
    sd = float((d / scale).std(ddof=1)) * scale
    return len(d), sd


def minimum_detectable_effect(differences, *, alpha: float = 0.05,
                              power: float = DEFAULT_POWER) -> float:
    r"""The smallest true mean difference these queries would detect with ``power``.

    Parameters
    ----------
    differences : sequence of float
        The paired per-query differences ``b - a`` (one per query; NaN-free).
    alpha : float, default 0.05
        The level of the two-sided paired test.
    power : float, default 0.8
        The chance of finding the difference if it is there.

    Returns
    -------
    float
        :math:`\delta > 0` with ``t_test_power(delta, s, n, alpha=alpha) == power``,
        for the observed standard deviation ``s`` and number of queries ``n``. NaN for
        fewer than 2 queries; 0 when every difference is the same (no spread: any
        difference is seen).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> d = rng.normal(0.0, 0.1, size=100)
    >>> round(float(d.std(ddof=1)), 4)
    0.0967
    >>> round(minimum_detectable_effect(d), 4)   # about 2.8 standard errors, sd / sqrt(100)
    0.0274
    >>> round(2.80 * float(d.std(ddof=1)) / 10, 4)   # the normal approximation's z's
    0.0271
    """
    from scipy import optimize

    alpha, power = check_alpha(alpha), _check_power(power)
    n, sd = _spread(differences)
    if n < 2:
        return math.nan
    if sd == 0:
        return 0.0
    # Between the level (delta = 0) and certainty: the power grows with delta; at a
    # noncentrality of the critical value plus 10 it is 1 to many decimals.
    from scipy import stats

    high = sd * (float(stats.t.ppf(1 - alpha / 2, n - 1)) + 10) / math.sqrt(n)
    while t_test_power(high, sd, n, alpha=alpha) < power:
        high *= 2
    return float(optimize.brentq(lambda e: t_test_power(e, sd, n, alpha=alpha) - power,
                                 0.0, high, xtol=1e-12 * sd, rtol=1e-12))


def queries_needed(differences, target: float, *, alpha: float = 0.05,
                   power: float = DEFAULT_POWER) -> int:
    r"""How many queries a true mean difference of ``target`` needs to be found with ``power``.

    The smallest ``n`` with ``t_test_power(target, s, n, alpha=alpha) >= power``, for the
    standard deviation ``s`` of the observed differences (assumed the same on new
    queries of the same kind).

    Parameters
    ----------
    differences : sequence of float
        The paired per-query differences ``b - a`` observed so far (at least 2).
    target : float
        The difference to detect, in the metric's units (0.02 is two points of nDCG);
        its sign does not matter.
    alpha, power : float
        As in :func:`minimum_detectable_effect`.

    Returns
    -------
    int
        At least 2. When the differences have no spread, 2.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> d = rng.normal(0.0, 0.1, size=100)
    >>> queries_needed(d, 0.02)      # two points with a spread of 0.097: ~190 queries
    186
    >>> queries_needed(d, 0.05)
    32
    """
    alpha, power = check_alpha(alpha), _check_power(power)
    if isinstance(target, bool) or not isinstance(target, (int, float, np.floating)) or not (
        math.isfinite(target) and target != 0
    ):
        raise InputValueError(f"target must be a non-zero finite difference, got {target!r}")
    target = abs(float(target))
    n, sd = _spread(differences)
    if n < 2:
        raise InputValueError(
            f"the spread of the differences needs at least 2 queries, got {n}"
        )
    if sd == 0:
        return 2
    if t_test_power(target, sd, 2, alpha=alpha) >= power:
        return 2
    # The normal approximation, then the exact answer around it (power grows with n).
    z = _normal_quantile(1 - alpha / 2) + _normal_quantile(power)
    guess = max(3, int(min((z * sd / target) ** 2, 2.0 * _MAX_QUERIES)))
    low, high = 2, guess
    while high <= _MAX_QUERIES and t_test_power(target, sd, high, alpha=alpha) < power:
        low, high = high, high * 2
    if high > _MAX_QUERIES:
        raise InputValueError(
            f"a difference of {target:g} with a spread of {sd:.4g} needs more than "
            f"{_MAX_QUERIES} queries"
        )
    while high - low > 1:  # power(low) < target power <= power(high)
        mid = (low + high) // 2
        if t_test_power(target, sd, mid, alpha=alpha) >= power:
            high = mid
        else:
            low = mid
    return high


def _normal_quantile(p: float) -> float:
    return float(normal_quantile(p))


def power_table(per_query: dict, systems: tuple, metrics: tuple, *, target: float = 0.02,
                alpha: float = 0.05, power: float = DEFAULT_POWER) -> pd.DataFrame:
    """The MDE and the queries needed for ``target``, for every metric and every system
    against the first (the baseline): what :meth:`ragmetrics.Comparison.power` returns.

    ``per_query`` maps each system to its per-query frame (one column per metric, the
    same query index); each row uses the queries where both values exist.
    """
    baseline, rows, index = systems[0], [], []
    for metric in metrics:
        a_all = per_query[baseline][metric].to_numpy(np.float64)
        for system in systems[1:]:
            b_all = per_query[system][metric].to_numpy(np.float64)
            both = np.isfinite(a_all) & np.isfinite(b_all)
            d = b_all[both] - a_all[both]
            n, sd = _spread(d) if len(d) else (0, math.nan)
            enough = n >= 2
            rows.append({
                "n_queries": n,
                "difference": float(d.mean()) if n else math.nan,
                "sd_difference": sd,
                "mde": minimum_detectable_effect(d, alpha=alpha, power=power) if enough
                else math.nan,
                "target": abs(float(target)),
                "queries_needed": queries_needed(d, target, alpha=alpha, power=power)
                if enough else -1,
                "alpha": alpha,
                "power": power,
            })
            index.append((metric, system))
    frame = pd.DataFrame(rows, columns=["n_queries", "difference", "sd_difference", "mde",
                                        "target", "queries_needed", "alpha", "power"])
    frame.index = pd.MultiIndex.from_tuples(index, names=["metric", "system"])
    return frame.astype({"n_queries": np.int64, "queries_needed": np.int64})
