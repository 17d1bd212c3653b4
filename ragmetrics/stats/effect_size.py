"""How large a paired difference is: the standardized difference d_z, wins and losses."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .arguments import as_pair
from .rounding import paired_spread

__all__ = ["EffectSize", "paired_effect_size"]

@dataclass(frozen=True)
class EffectSize:
    """How large a paired difference is, beyond whether it is significant.

    Attributes
    ----------
    d_z : float
        The paired standardized mean difference, ``mean(d) / sd(d)`` over the per-query
        differences ``d = b - a``: the mean difference in units of its own spread from
        query to query. It is not Cohen's d of two independent groups (which divides by
        the spread of the values): d_z grows as the systems' per-query values correlate,
        so Cohen's "small, medium, large" (0.2, 0.5, 0.8) do not apply to it. Note
        ``d_z = t / √n``.
        Undefined (NaN) where there is no spread to divide by and the differences are
        not all 0 (:func:`paired_effect_size`); :attr:`warnings` then says why.
    wins, ties, losses : int
        Queries where B is above, equal to and below A.
    share_better : float
        ``wins / n``: the share of queries where B beats A.
    warnings : tuple of str
        Why ``d_z`` is NaN, where it is.
    """

    d_z: float
    wins: int
    ties: int
    losses: int
    share_better: float
    warnings: tuple[str, ...] = ()

    @property
    def cohens_d(self) -> float:
        """The former name of :attr:`d_z` (kept so code written for it keeps working)."""
        return self.d_z


def paired_effect_size(a, b) -> EffectSize:
    """The paired effect size d_z, and the wins, ties and losses of B against A.

    ``d_z = mean(d) / sd(d)`` over the per-query differences ``d = b - a`` (sample standard
    deviation, ``ddof=1``): the standardized mean difference of paired samples (Cohen,
    *Statistical Power Analysis for the Behavioral Sciences*, 1988; Lakens, "Calculating
    and reporting effect sizes", Frontiers in Psychology, 2013).
    A difference within :data:`ROUNDING` of 0 is a tie.

    Where there is no spread to standardize by (a standard deviation within
    :data:`ROUNDING` of the values' magnitude):

    - every difference 0: the systems are the same on these queries, and ``d_z`` is 0;
    - every difference the same non-zero number (every query exactly 0.1 worse): ``d_z``
      is **undefined**, NaN, and ``.warnings`` says why. The ratio's limit would be
      ``±inf``, but an effect size is a size to compare with others, and an infinite one
      ranks "every query 0.001 better" above any real spread of gains; the difference
      itself is the effect there (the t-test's ``t = ±inf`` and ``p = 0`` do hold: a
      difference with no spread is no chance);
    - one query: NaN, with a warning.

    Examples
    --------
    >>> effect = paired_effect_size([0.2, 0.4, 0.6, 0.8], [0.3, 0.6, 0.6, 1.0])
    >>> round(effect.d_z, 4)          # 0.125 / 0.0957
    1.3056
    >>> effect.wins, effect.ties, effect.losses, effect.share_better
    (3, 1, 0, 0.75)

    Every query exactly 0.1 worse: no spread, so d_z is undefined:

    >>> effect = paired_effect_size([0.5, 0.8, 0.3], [0.4, 0.7, 0.2])
    >>> effect.d_z, effect.losses
    (nan, 3)
    >>> print(effect.warnings[0])
    every difference is -0.1: no spread to divide by, so d_z = mean / sd is undefined (NaN)
    """
    a, b = as_pair(a, b)
    d, mean, sd = paired_spread(a, b)
    reasons: tuple[str, ...] = ()
    if len(d) < 2:
        d_z = math.nan
        reasons = ("one query: no spread to divide by, so d_z = mean / sd is undefined (NaN)",)
    elif mean == 0.0:
        d_z = 0.0
    elif sd == 0.0:
        d_z = math.nan
        reasons = ((f"every difference is {mean:.6g}: no spread to divide by, so d_z = "
                    "mean / sd is undefined (NaN)"),)
    else:
        d_z = mean / sd
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    return EffectSize(d_z, wins, len(d) - wins - losses, losses, wins / len(d), reasons)
