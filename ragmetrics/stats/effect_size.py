"""How large a paired difference is: the standardized difference d_z, wins and losses."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .checks import as_pair
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
    wins, ties, losses : int
        Queries where B is above, equal to and below A.
    share_better : float
        ``wins / n``: the share of queries where B beats A.
    """

    d_z: float
    wins: int
    ties: int
    losses: int
    share_better: float

    @property
    def cohens_d(self) -> float:
        """The former name of :attr:`d_z` (kept so code written for it keeps working)."""
        return self.d_z


def paired_effect_size(a, b) -> EffectSize:
    """The paired effect size d_z, and the wins, ties and losses of B against A.

    ``d_z = mean(b - a) / sd(b - a)`` (sample standard deviation, ``ddof=1``). With no
    spread (within :data:`ROUNDING`), ``d_z`` is 0 if every difference is 0 and ``±inf``
    otherwise; with one query, NaN. A difference within rounding of 0 is a tie.

    Examples
    --------
    >>> effect = paired_effect_size([0.2, 0.4, 0.6, 0.8], [0.3, 0.6, 0.6, 1.0])
    >>> round(effect.d_z, 4)          # 0.125 / 0.0957
    1.3056
    >>> effect.wins, effect.ties, effect.losses, effect.share_better
    (3, 1, 0, 0.75)

    Every query exactly 0.1 worse: no spread, so d_z is infinite:

    >>> paired_effect_size([0.5, 0.8, 0.3], [0.4, 0.7, 0.2]).d_z
    -inf
    """
    a, b = as_pair(a, b)
    d, mean, sd = paired_spread(a, b)
    if len(d) < 2:
        d_z = math.nan
    elif mean == 0.0:
        d_z = 0.0
    elif sd == 0.0:
        d_z = math.copysign(math.inf, mean)
    else:
        d_z = mean / sd
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    return EffectSize(d_z, wins, len(d) - wins - losses, losses, wins / len(d))
