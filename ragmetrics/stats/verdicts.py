"""Many claims at once: sign-flip verdicts under a correction, Monte Carlo error in check.

A sampled p-value is an estimate; :func:`randomization_verdicts` takes each one to lie
within :data:`MC_Z` standard errors, and draws more sign patterns for a claim until its
verdict is the same at both ends of that range, or calls it undecided at the cap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputValueError
from .arguments import (
    Progress,
    as_matrix,
    check_alpha,
    check_positive_int,
    check_progress,
    check_seed,
)
from .corrections import adjust_p_values, check_correction
from .randomization import (
    EXACT_MAX_QUERIES,
    exact_p_values,
    extreme_pattern_counts,
    smallest_p_value,
)
from .resampling import finite_column_groups

__all__ = ["MAX_RESAMPLES_FACTOR", "MC_Z", "RandomizationVerdicts", "randomization_verdicts"]

#: A sampled p-value ``p`` from ``B`` sign patterns has Monte Carlo standard error
#: ``sqrt(p (1 - p) / B)``; it is taken to lie within ``p ± MC_Z`` standard errors (a
#: miss has a chance of about 0.3% per p-value).
MC_Z = 3.0

#: By default :func:`randomization_verdicts` resamples an undecided verdict up to this
#: many times ``n_resamples`` sign patterns in all.
MAX_RESAMPLES_FACTOR = 32


@dataclass(frozen=True, eq=False)
class RandomizationVerdicts:
    """The result of :func:`randomization_verdicts`: one entry per column (claim).

    Attributes
    ----------
    p_value : numpy.ndarray
        Two-sided sign-flip p-values, from every pattern drawn for the column.
    mc_error : numpy.ndarray
        Their Monte Carlo standard errors, ``sqrt(p (1 - p) / n_patterns)``; 0 if exact.
    n_patterns : numpy.ndarray of int
        Sign patterns behind each p-value: ``2**n`` if exact, else ``n_resamples`` plus
        the extra patterns drawn while the verdict was undecided.
    exact : numpy.ndarray of bool
    p_adjusted : numpy.ndarray
        ``p_value`` corrected over all the finite ones (:func:`adjust_p_values`).
    significant : numpy.ndarray of bool
        Decided, and ``p_adjusted < alpha`` with a non-zero mean difference.
    decided : numpy.ndarray of bool
        False where the verdict was still within Monte Carlo error of alpha at the cap.
    smallest_adjusted, smallest_adjusted_at_cap : numpy.ndarray
        The smallest adjusted p each claim could reach, with every claim at its smallest
        possible p (:func:`smallest_p_value`), at ``n_resamples`` and at
        ``max_resamples`` patterns. Where it is not below alpha, the claim cannot be
        significant.
    alpha : float
    correction : str
    n_resamples, max_resamples, seed : int
    """

    p_value: np.ndarray
    mc_error: np.ndarray
    n_patterns: np.ndarray
    exact: np.ndarray
    p_adjusted: np.ndarray
    significant: np.ndarray
    decided: np.ndarray
    smallest_adjusted: np.ndarray
    smallest_adjusted_at_cap: np.ndarray
    alpha: float
    correction: str
    n_resamples: int
    max_resamples: int
    seed: int


def randomization_verdicts(
    differences,
    *,
    alpha: float = 0.05,
    correction: str = "holm",
    n_resamples: int = 10_000,
    max_resamples: int | None = None,
    seed: int = 0,
    progress: Progress = None,
) -> RandomizationVerdicts:
    """Test every column of ``differences`` and decide each claim under a correction.

    Each column (a metric of a pair of systems) gets the sign-flip p-value of
    :func:`randomization_p_values` on the rows where it has values (NaN: none); the
    p-values are corrected together (:func:`adjust_p_values`), and a claim is
    significant when its adjusted p is below ``alpha``.

    A sampled p-value is only an estimate. **The rule**: take every raw p to lie within
    ``p ± MC_Z × sqrt(p (1 - p) / B)`` (exact ones: at p). Holm's and BH's adjusted
    p-values are monotone in every raw p, so a verdict is *settled* when it is the same
    with every raw p at its lower bound and with every raw p at its upper bound. For the
    claims not settled, draw more sign patterns (``n_resamples``, then twice as many,
    and so on; the first pass is exactly :func:`randomization_p_values`'s, later passes
    are seeded from ``(seed, pass)``), pool them, and look again, until every verdict is
    settled or a claim would pass ``max_resamples`` patterns. A claim still open then
    has ``decided`` False, and is not called significant.

    Parameters
    ----------
    differences : array of shape (n_queries, n_columns)
        Per-query differences ``b - a`` (:func:`paired_differences`); NaN where a query
        has no value for that column.
    alpha : float, default 0.05
        The significance level of the verdicts, after the correction.
    correction : {"holm", "bh", "none"}, default "holm"
    n_resamples : int, default 10_000
        Sign patterns of the first pass.
    max_resamples : int, optional
        The most patterns one claim may get; default :data:`MAX_RESAMPLES_FACTOR` times
        ``n_resamples``. Pass ``n_resamples`` to turn the extra passes off.
    seed : int, default 0
    progress : callable(done, total), optional
        Called as patterns are drawn; ``total`` grows when a pass is added.

    Returns
    -------
    RandomizationVerdicts

    Examples
    --------
    Two claims on 30 queries, under Holm. The first is clear; the second sits near
    alpha, where 200 patterns cannot tell which side it is on, so more are drawn for it,
    and only for it, until the verdict is settled:

    >>> rng = np.random.default_rng(0)
    >>> clear = rng.choice([0.0, 0.25, 0.5], size=30)      # B level or ahead everywhere
    >>> near = np.array([0.3] * 12 + [-0.2] * 6 + [0.0] * 12)
    >>> v = randomization_verdicts(np.column_stack([clear, near]), n_resamples=200)
    >>> v.n_patterns.tolist(), v.significant.tolist(), v.decided.tolist()
    ([200, 1600], [True, True], [True, True])
    >>> v.p_adjusted.round(4).tolist()
    [0.01, 0.0325]

    Closer still, 6,400 patterns (the cap, 32 x 200) leave the adjusted p within three
    standard errors of 0.05: undecided, and not called significant:

    >>> nearer = np.array([0.3] * 10 + [-0.2] * 4 + [0.0] * 16)
    >>> v = randomization_verdicts(np.column_stack([clear, nearer]), n_resamples=200)
    >>> v.n_patterns.tolist(), v.significant.tolist(), v.decided.tolist()
    ([200, 6400], [True, False], [True, False])
    >>> round(float(v.p_adjusted[1]), 4), round(float(v.mc_error[1]), 4)
    (0.0466, 0.0026)
    """
    d = as_matrix(differences, "differences")
    alpha = check_alpha(alpha)
    correction = check_correction(correction)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    cap = (MAX_RESAMPLES_FACTOR * n_resamples if max_resamples is None
           else check_positive_int(max_resamples, "max_resamples"))
    if cap < n_resamples:
        raise InputValueError(f"max_resamples ({cap}) must be at least n_resamples "
                              f"({n_resamples})")
    seed = check_seed(seed)
    progress = check_progress(progress)

    m = d.shape[1]
    p = np.full(m, np.nan)
    count = np.zeros(m, dtype=np.int64)
    patterns = np.zeros(m, dtype=np.int64)
    exact = np.zeros(m, dtype=bool)
    n_rows = np.zeros(m, dtype=np.int64)
    nonzero = np.zeros(m, dtype=bool)
    groups = finite_column_groups(d)
    tracker = _Stages(progress, n_resamples * len(groups))
    for rows, cols in groups:
        block = d[rows][:, cols]
        n_rows[cols] = rows.sum()
        nonzero[cols] = block.sum(axis=0) != 0
        if rows.sum() <= EXACT_MAX_QUERIES:
            p[cols], exact[cols] = exact_p_values(block), True
            patterns[cols] = 2 ** int(rows.sum())
            tracker.finish_stage(n_resamples)
        else:
            count[cols] = extreme_pattern_counts(block, n_resamples, np.random.default_rng(seed),
                                          tracker.stage(n_resamples))
            patterns[cols] = n_resamples

    def estimate():
        sampled = ~exact & (patterns > 0)
        out = p.copy()
        out[sampled] = (count[sampled] + 1) / (patterns[sampled] + 1.0)
        error = np.zeros(m)
        error[sampled] = np.sqrt(out[sampled] * (1 - out[sampled]) / patterns[sampled])
        error[~np.isfinite(out)] = np.nan
        return out, error

    def verdicts(raw, error):
        low = adjust_p_values(np.clip(raw - MC_Z * error, 0, 1), correction)
        high = adjust_p_values(np.clip(raw + MC_Z * error, 0, 1), correction)
        return (low < alpha) & nonzero, (high < alpha) & nonzero

    step, extra_pass = n_resamples, 0
    while True:
        raw, error = estimate()
        at_low, at_high = verdicts(raw, error)
        open_ = at_low != at_high
        grow = open_ & ~exact & (patterns + step <= cap)
        if not grow.any():
            break
        extra_pass += 1
        tracker.add(step * len({tuple(cols) for _, cols in groups
                                if grow[cols].any()}))
        for rows, cols in groups:
            chosen = [j for j in cols if grow[j]]
            if chosen:
                rng = np.random.default_rng([seed, extra_pass])
                count[chosen] += extreme_pattern_counts(d[rows][:, chosen], step, rng,
                                                 tracker.stage(step))
                patterns[chosen] += step
        step *= 2

    p_adjusted = adjust_p_values(raw, correction)
    decided = ~open_
    significant = decided & (p_adjusted < alpha) & nonzero

    def smallest(resamples):
        floor = np.array([smallest_p_value(int(k), n_resamples=resamples) if k else np.nan
                          for k in n_rows])
        return adjust_p_values(floor, correction)

    return RandomizationVerdicts(
        p_value=raw, mc_error=error, n_patterns=patterns, exact=exact,
        p_adjusted=p_adjusted, significant=significant, decided=decided,
        smallest_adjusted=smallest(n_resamples), smallest_adjusted_at_cap=smallest(cap),
        alpha=alpha, correction=correction, n_resamples=n_resamples, max_resamples=cap,
        seed=seed,
    )


class _Stages:
    """One progress callback over stages of resampling whose total may grow."""

    def __init__(self, callback: Progress, total: int) -> None:
        self.callback = callback
        self.total = total
        self.done = 0

    def add(self, more: int) -> None:
        self.total += more

    def finish_stage(self, size: int) -> None:
        """A stage done at once (an exact test): report it whole."""
        report = self.stage(size)
        if report is not None:
            report(size, size)

    def stage(self, size: int) -> Progress:
        start = self.done
        self.done += size
        if self.callback is None:
            return None
        return lambda done, _size: self.callback(start + done, self.total)
