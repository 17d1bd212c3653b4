"""How sure is a mean over queries? Bootstrap intervals, paired tests, corrections.

A retrieval metric is averaged over queries, and the queries are a sample: another set
of questions would give another mean. This module answers the two questions a team asks
of such a mean, with the query as the unit of resampling throughout:

- **How precise is it?** :func:`bootstrap_ci`: a percentile bootstrap interval.
- **Is system B better than system A?** On the *same* queries, look at the per-query
  differences ``b - a``: :func:`randomization_test` (a sign-flip permutation test, the
  test Smucker, Allan & Carterette, CIKM 2007, recommend for IR), :func:`paired_t_test`,
  :func:`paired_bootstrap` (an interval for the mean difference) and
  :func:`paired_effect_size`. With many metrics or systems, correct the p-values with
  :func:`holm` or :func:`benjamini_hochberg`.

Everything is pure NumPy. Resampling is vectorized: each batch of resamples is one
matrix (resample x query) of counts or signs, multiplied by the per-query values, so no
Python loop runs per resample or per query, and the batches bound the memory. The same
``seed`` gives the same numbers for the same input. Results carry their warnings as data
(``.warnings``), e.g. when there are too few queries for the claim.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .errors import InputTypeError, InputValueError

__all__ = [
    "EXACT_MAX_QUERIES",
    "MIN_QUERIES",
    "ConfidenceInterval",
    "EffectSize",
    "RandomizationResult",
    "TTestResult",
    "benjamini_hochberg",
    "bootstrap_ci",
    "bootstrap_means",
    "holm",
    "paired_bootstrap",
    "paired_effect_size",
    "paired_t_test",
    "randomization_p_values",
    "randomization_test",
    "sample_size_warnings",
    "student_t_cdf",
]

#: Fewer queries than this and every result carries a "too few queries" warning. With
#: small query sets, a difference seen on one set often reverses on another (Voorhees &
#: Buckley, "The effect of topic set size on retrieval experiment error", SIGIR 2002);
#: TREC uses 50 topics.
MIN_QUERIES = 25

#: Up to this many queries, :func:`randomization_test` enumerates all 2**n sign patterns
#: (65,536 at n = 16) and its p-value is exact; above, it samples ``n_resamples`` of them.
EXACT_MAX_QUERIES = 16

# Elements of one batch matrix (resamples x queries): 4M float64 = 32 MB.
_BATCH_ELEMENTS = 1 << 22
# Up to this many columns, bootstrap sums gather the drawn values; beyond, counting the
# draws once and multiplying is cheaper.
_GATHER_UP_TO = 2

Progress = Callable[[int, int], object] | None


# -- validation -----------------------------------------------------------------------


def _as_values(values, name: str) -> np.ndarray:
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


def _as_pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = _as_values(a, "a"), _as_values(b, "b")
    if len(a) != len(b):
        raise InputValueError(
            f"a and b must hold one value per query for the same queries, in the same order; "
            f"got {len(a)} and {len(b)} values"
        )
    return a, b


def _check_confidence(confidence) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise InputTypeError(f"confidence must be a number such as 0.95, got {confidence!r}")
    if not 0 < confidence < 1:
        raise InputValueError(f"confidence must be between 0 and 1 (e.g. 0.95), got {confidence!r}")
    return float(confidence)


def _check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputTypeError(f"{name} must be a positive int, got {value!r}")
    if value < 1:
        raise InputValueError(f"{name} must be a positive int, got {value!r}")
    return int(value)


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise InputTypeError(f"seed must be a non-negative int (for reproducible numbers), got {seed!r}")
    return int(seed)


def _check_progress(progress) -> Progress:
    if progress is not None and not callable(progress):
        raise InputTypeError(f"progress must be None or a callable(done, total), got {progress!r}")
    return progress


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


# -- batched resampling (the engine) ---------------------------------------------------


def _batches(n_resamples: int, n_queries: int):
    """(start, stop) of each batch of resamples, so a batch matrix stays near 32 MB."""
    rows = max(1, _BATCH_ELEMENTS // max(n_queries, 1))
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
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] == 0:
        raise InputValueError(f"matrix must be 2-D with at least one query row, got {matrix.shape}")
    n_resamples = _check_positive_int(n_resamples, "n_resamples")
    rng = np.random.default_rng(_check_seed(seed))
    progress = _check_progress(progress)
    n, n_columns = matrix.shape
    out = np.empty((n_resamples, n_columns))
    small = np.int32 if n < 2**31 else np.int64  # 32-bit draws are twice as fast
    for start, stop in _batches(n_resamples, n):
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
    return out


def _percentile_interval(means: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail], axis=0)
    return low, high


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
    the observed pattern itself and is never 0 (Phipson & Smyth, 2010).

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
    d = np.asarray(differences, dtype=np.float64)
    if d.ndim != 2 or d.shape[0] == 0:
        raise InputValueError(f"differences must be 2-D with at least one query row, got {d.shape}")
    n_resamples = _check_positive_int(n_resamples, "n_resamples")
    seed = _check_seed(seed)
    progress = _check_progress(progress)
    n = d.shape[0]
    total = d.sum(axis=0)
    observed = np.abs(total)
    # Sums of the same numbers in another order differ by rounding: a pattern whose sum
    # equals the observed one up to this tolerance counts as "as extreme" (conservative).
    tolerance = 1e-10 * np.abs(d).sum(axis=0) + 1e-300
    count = np.zeros(d.shape[1], dtype=np.int64)
    if n <= EXACT_MAX_QUERIES:
        patterns = (np.arange(2**n, dtype=np.int64)[:, None] >> np.arange(n)) & 1
        flipped = total - 2.0 * (patterns.astype(np.float64) @ d)
        count += (np.abs(flipped) >= observed - tolerance).sum(axis=0)
        if progress is not None:
            progress(n_resamples, n_resamples)
        return count / 2.0**n, True
    rng = np.random.default_rng(seed)
    n_bytes = (n + 7) // 8
    for start, stop in _batches(n_resamples, n):
        random_bytes = rng.integers(0, 256, size=(stop - start, n_bytes), dtype=np.uint8)
        flips = np.unpackbits(random_bytes, axis=1, count=n)  # fair coin per query
        flipped = total - 2.0 * (flips.astype(np.float64) @ d)
        count += (np.abs(flipped) >= observed - tolerance).sum(axis=0)
        if progress is not None:
            progress(stop, n_resamples)
    return (count + 1) / (n_resamples + 1.0), False


# -- one metric: intervals and tests ---------------------------------------------------


@dataclass(frozen=True)
class ConfidenceInterval:
    """A mean over queries with its bootstrap interval.

    Attributes
    ----------
    mean : float
        The mean over the queries given (no resampling).
    low, high : float
        The percentile bootstrap interval at level ``confidence``.
    confidence : float
    n_queries, n_resamples, seed : int
    warnings : tuple of str
        E.g. too few queries for the claim.
    """

    mean: float
    low: float
    high: float
    confidence: float
    n_queries: int
    n_resamples: int
    seed: int
    warnings: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.mean:.4f} [{self.low:.4f}, {self.high:.4f}]"


def bootstrap_ci(
    values, *, confidence: float = 0.95, n_resamples: int = 10_000, seed: int = 0
) -> ConfidenceInterval:
    """Percentile bootstrap interval for the mean of per-query values.

    Draw ``n`` queries with replacement from the ``n`` given, take the mean, repeat
    ``n_resamples`` times; the interval runs from the ``(1 - confidence) / 2`` quantile
    of these means to the ``(1 + confidence) / 2`` quantile (Efron & Tibshirani, *An
    Introduction to the Bootstrap*, 1993, ch. 13). It answers "how much would the mean
    move with another sample of queries like these?", not "how good is each query".

    Parameters
    ----------
    values : sequence of float
        One finite value per query (e.g. a column of ``evaluate(...).per_query``).
    confidence : float, default 0.95
    n_resamples : int, default 10_000
    seed : int, default 0
        The same seed and values give the same interval.

    Returns
    -------
    ConfidenceInterval
        ``mean``, ``low``, ``high``, the settings, and ``warnings`` (fewer than
        :data:`MIN_QUERIES` queries).

    Examples
    --------
    Recall@10 of 40 queries: 30 found everything, 10 found half.

    >>> ci = bootstrap_ci([1.0] * 30 + [0.5] * 10)
    >>> ci.mean
    0.875
    >>> print(ci)  # the mean [low, high]
    0.8750 [0.8125, 0.9375]
    >>> ci.warnings
    ()

    Three queries are too few for a claim, and the result says so:

    >>> bootstrap_ci([1.0, 0.5, 0.0]).warnings[0][:45]
    'only 3 queries: too few queries for this clai'
    """
    array = _as_values(values, "values")
    confidence = _check_confidence(confidence)
    means = bootstrap_means(array[:, None], n_resamples=n_resamples, seed=seed)
    low, high = _percentile_interval(means, confidence)
    return ConfidenceInterval(
        mean=float(array.mean()),
        low=float(low[0]),
        high=float(high[0]),
        confidence=confidence,
        n_queries=len(array),
        n_resamples=n_resamples,
        seed=seed,
        warnings=sample_size_warnings(len(array)),
    )


def paired_bootstrap(
    a, b, *, confidence: float = 0.95, n_resamples: int = 10_000, seed: int = 0
) -> ConfidenceInterval:
    """Bootstrap interval for the mean per-query difference ``b - a`` (paired).

    The queries are resampled, and each keeps both of its values, so the interval
    reflects how the two systems differ *on the same queries*. An interval that excludes
    0 is the bootstrap's "B differs from A".

    Examples
    --------
    >>> a = [0.5] * 20 + [0.2] * 20
    >>> b = [0.6] * 20 + [0.2] * 20        # B gains 0.1 on half the queries
    >>> ci = paired_bootstrap(a, b)
    >>> round(ci.mean, 4), ci.low > 0
    (0.05, True)
    """
    a, b = _as_pair(a, b)
    return bootstrap_ci(b - a, confidence=confidence, n_resamples=n_resamples, seed=seed)


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
    """

    difference: float
    p_value: float
    exact: bool
    n_queries: int
    n_resamples: int
    seed: int
    warnings: tuple[str, ...] = ()


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
    otherwise ``n_resamples`` patterns are sampled and ``p = (count + 1) /
    (n_resamples + 1)``.

    Examples
    --------
    Four queries, B better on three by 0.1 and worse on one by 0.1. Of the 16 sign
    patterns, those with a mean difference of at least |0.05| are the 2 with all four
    signs equal and the 8 with three of one sign: p = 10/16.

    >>> result = randomization_test([0.5, 0.5, 0.5, 0.5], [0.6, 0.6, 0.6, 0.4])
    >>> round(result.difference, 4), result.p_value, result.exact
    (0.05, 0.625, True)
    """
    a, b = _as_pair(a, b)
    n_resamples = _check_positive_int(n_resamples, "n_resamples")
    seed = _check_seed(seed)
    d = b - a
    p, exact = randomization_p_values(d[:, None], n_resamples=n_resamples, seed=seed)
    return RandomizationResult(
        difference=float(d.mean()),
        p_value=float(p[0]),
        exact=exact,
        n_queries=len(d),
        n_resamples=n_resamples,
        seed=seed,
        warnings=sample_size_warnings(len(d)),
    )


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
    queries the two agree closely.

    Two degenerate cases have no spread to divide by: if every difference is 0, the
    systems are identical on these queries (``t = 0``, ``p = 1``); if every difference
    is the same non-zero number, ``t = ±inf`` and ``p = 0``. With a single query there is
    no spread at all: ``t``, ``df`` and ``p`` are NaN and a warning says why.

    Examples
    --------
    >>> result = paired_t_test([0.2, 0.4, 0.6, 0.8], [0.3, 0.6, 0.6, 1.0])
    >>> mean_d, sd_d = 0.125, 0.095742711    # the differences are 0.1, 0.2, 0.0, 0.2
    >>> round(result.statistic, 4), round(mean_d / (sd_d / 2), 4), result.df
    (2.6112, 2.6112, 3)
    >>> round(result.p_value, 4)
    0.0796
    """
    a, b = _as_pair(a, b)
    d = b - a
    n = len(d)
    difference = float(d.mean())
    warnings = sample_size_warnings(n)
    if n < 2:
        warnings += ("a t-test needs at least 2 queries: t and p are NaN",)
        return TTestResult(difference, math.nan, math.nan, math.nan, warnings)
    sd = float(d.std(ddof=1))
    df = n - 1
    if sd == 0.0:
        if difference == 0.0:
            return TTestResult(difference, 0.0, df, 1.0, warnings)
        return TTestResult(difference, math.copysign(math.inf, difference), df, 0.0, warnings)
    t = difference / (sd / math.sqrt(n))
    return TTestResult(difference, t, df, _two_sided_t_p(t, df), warnings)


@dataclass(frozen=True)
class EffectSize:
    """How large a paired difference is, beyond whether it is significant.

    Attributes
    ----------
    cohens_d : float
        Cohen's d for paired samples (often written d_z): ``mean(d) / sd(d)``, the mean
        difference in units of its own spread. 0.2, 0.5 and 0.8 are Cohen's "small",
        "medium" and "large".
    wins, ties, losses : int
        Queries where B is above, equal to and below A.
    share_better : float
        ``wins / n``: the share of queries where B beats A.
    """

    cohens_d: float
    wins: int
    ties: int
    losses: int
    share_better: float


def paired_effect_size(a, b) -> EffectSize:
    """Cohen's d for paired samples, and the wins, ties and losses of B against A.

    ``d = mean(b - a) / sd(b - a)`` (sample standard deviation, ``ddof=1``). With no
    spread, ``d`` is 0 if every difference is 0 and ``±inf`` otherwise; with one query,
    NaN.

    Examples
    --------
    >>> effect = paired_effect_size([0.2, 0.4, 0.6, 0.8], [0.3, 0.6, 0.6, 1.0])
    >>> round(effect.cohens_d, 4)          # 0.125 / 0.0957
    1.3056
    >>> effect.wins, effect.ties, effect.losses, effect.share_better
    (3, 1, 0, 0.75)
    """
    a, b = _as_pair(a, b)
    d = b - a
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if len(d) > 1 else math.nan
    if not sd > 0:  # one query (NaN) or no spread
        cohens_d = math.nan if len(d) < 2 else (0.0 if mean == 0 else math.copysign(math.inf, mean))
    else:
        cohens_d = mean / sd
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    return EffectSize(cohens_d, wins, len(d) - wins - losses, losses, wins / len(d))


# -- Student's t distribution ------------------------------------------------------------


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t distribution with ``df`` degrees of freedom.

    Computed from the regularized incomplete beta function,
    ``P(|T| >= |t|) = I_x(df/2, 1/2)`` with ``x = df / (df + t²)``, evaluated by its
    continued fraction (modified Lentz's method; Press et al., *Numerical Recipes*,
    3rd ed., §6.4). Agrees with ``scipy.stats.t.cdf`` to about 1e-13.

    Parameters
    ----------
    t : float
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
    if t == 0:
        return 0.5
    tail = _two_sided_t_p(float(t), float(df)) / 2.0  # P(T >= |t|)
    return tail if t < 0 else 1.0 - tail


def _two_sided_t_p(t: float, df: float) -> float:
    """P(|T| >= |t|) = I_x(df/2, 1/2), x = df / (df + t²), computed without cancellation."""
    if math.isinf(t):
        return 0.0
    t2 = t * t
    # x and 1 - x each from their own formula, so neither loses digits to a subtraction.
    if t2 < df:
        x, y = 1.0 / (1.0 + t2 / df), (t2 / df) / (1.0 + t2 / df)
        log_x = -math.log1p(t2 / df)
        log_y = math.log(t2 / df) + log_x
    else:
        x, y = (df / t2) / (1.0 + df / t2), 1.0 / (1.0 + df / t2)
        log_y = -math.log1p(df / t2)
        log_x = math.log(df / t2) + log_y
    return _regularized_beta(df / 2.0, 0.5, x, y, log_x, log_y)


def _regularized_beta(a: float, b: float, x: float, y: float, log_x: float, log_y: float) -> float:
    """I_x(a, b), with y = 1 - x and the logs given accurately by the caller."""
    if x == 0.0:
        return 0.0
    if y == 0.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * log_x + b * log_y
    )
    front = math.exp(log_front)
    # The continued fraction converges fast for x < (a + 1) / (a + b + 2); beyond, use
    # the symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, y) / b


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    tiny, eps = 1e-300, 1e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for aa in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            step = d * c
            h *= step
        if abs(step - 1.0) < eps:
            return h
    raise ArithmeticError(f"the incomplete beta fraction did not converge (a={a}, b={b}, x={x})")


# -- multiple comparisons --------------------------------------------------------------


def _as_p_values(p_values) -> np.ndarray:
    p = _as_values(p_values, "p_values")
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

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, in the order given.

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

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, in the order given.

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
