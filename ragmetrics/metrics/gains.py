r"""Grades to gains: the conventions, gain maps, and the ideal ranking under a gain map.

A gain is what a doc at some rank adds to DCG (and to the measures built like it: G,
ndcg_rel, Rndcg, RBP). By default it is the grade (``gain="linear"``, trec_eval) or
:math:`2^{\mathrm{grade}} - 1` (``gain="exponential"``); docs graded 0 or below, and
unjudged docs, gain nothing. A **gain map** (``ndcg(1=3, 2=9, 4=4.5)``, trec_eval's
``-m ndcg.1=3,2=9,4=4.5``) gives chosen grades other gains: grade 1 gains 3, grade 2
gains 9, grade 4 gains 4.5, every other grade its convention's gain. A map may give grade
0 a gain (judged non-relevant docs then count) and any grade a gain of 0 or below.

Examples
--------
>>> import numpy as np
>>> grade_gains(np.array([-1.0, 0.0, 1.0, 3.0]), "exponential").tolist()
[0.0, 0.0, 1.0, 7.0]
>>> mapped_gains(np.array([0.0, 1.0, 2.0, 3.0]), np.array([True, True, True, False]),
...              "linear", ((1.0, 3.0), (2.0, 9.0))).tolist()
[0.0, 3.0, 9.0, 0.0]
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputValueError
from .ranked import RankedJudgments

__all__ = ["dcg", "gain_map_overflow", "gain_rows", "grade_gain", "grade_gains", "ideal_under",
           "mapped_gains", "row_gains"]


def grade_gain(grade: float, rule: str) -> float:
    """What one grade adds to DCG, in plain Python: the rule :func:`grade_gains` applies to
    arrays. The grade itself (``"linear"``) or ``2**grade - 1`` (``"exponential"``); a
    grade of 0 or below ("judged harmful") adds nothing.

    Examples
    --------
    >>> grade_gain(3, "linear"), grade_gain(3, "exponential"), grade_gain(-2, "linear")
    (3, 7.0, 0.0)
    """
    if grade <= 0:
        return 0.0
    return grade if rule == "linear" else 2.0**grade - 1.0


def dcg(gains, *, base: float = 2) -> float:
    r"""Discounted cumulative gain of gains in rank order (rank 1 first):
    :math:`\sum_i g_i / \log_b(i + 1)`, summed exactly (``math.fsum``).

    The one plain-Python DCG: the reference functions, the rank-by-rank view and the
    teaching tables call it. A gain too large for a float gives ``inf``, for the caller
    to refuse.

    Examples
    --------
    >>> round(dcg([3, 2, 0, 1]), 4)  # 3/1 + 2/log2(3) + 0/2 + 1/log2(5)
    4.6925
    """
    log = math.log2 if base == 2 else (lambda x: math.log(x) / math.log(base))
    return math.fsum(g / log(rank + 1) for rank, g in enumerate(gains, start=1))


def grade_gains(grades: np.ndarray, rule: str) -> np.ndarray:
    """What each grade adds to DCG: the grade, or 2**grade - 1; negative grades add 0."""
    positive = np.maximum(grades, 0.0)
    if rule == "linear":
        return positive
    with np.errstate(over="ignore"):  # a grade of 1024 or more: inf, refused by the caller
        return np.exp2(positive) - 1.0


def mapped_gains(grades: np.ndarray, judged: np.ndarray, rule: str, gain_map) -> np.ndarray:
    """The gain of each doc under ``gain_map`` (``((grade, gain), ...)``): the map's gain
    for a grade it names, else the convention's; 0 for an unjudged doc or a grade below 0."""
    gains = np.where(judged, grade_gains(grades, rule), 0.0)
    for grade, gain in gain_map:
        gains[judged & (grades == grade)] = gain
    return gains


def row_gains(r: RankedJudgments, gain_map=()) -> np.ndarray:
    """The gain of each ranked row: the convention's (``r.gain``), or under ``gain_map``."""
    if not gain_map:
        return r.gain
    key = ("row_gains", gain_map)
    if key not in r.memo:
        gains = mapped_gains(r.grade, r.judged, r.gain_rule, gain_map)
        _check_totals(r.query, gains, r.n_queries, gain_map)
        r.memo[key] = gains
    return r.memo[key]


def gain_rows(r: RankedJudgments, gain_map=()) -> np.ndarray:
    """The ranked rows whose gain (:func:`row_gains`) is not 0, ascending (cached)."""
    key = ("gain_rows", gain_map)
    if key not in r.memo:
        r.memo[key] = np.flatnonzero(row_gains(r, gain_map))
    return r.memo[key]


def ideal_under(r: RankedJudgments, gain_map=()) -> RankedJudgments:
    """Each query's ideal ranking: its judged docs with a positive gain, best first.

    Without a gain map it is the ideal the ranked judgments came with. (trec_eval orders
    the gain levels with a comparison that truncates the difference of two gains to an
    int, so two gains less than 1 apart can come out in the wrong order in its ideal;
    here they are sorted exactly.)
    """
    if not gain_map:
        return r.ideal
    key = ("ideal", gain_map)
    if key not in r.memo:
        qrels = r.qrels
        gains = mapped_gains(qrels.grade, np.ones(len(qrels.grade), dtype=bool), r.gain_rule,
                             gain_map)
        _check_totals(qrels.query, gains, r.n_queries, gain_map)
        keep = gains > 0
        query, gain, grade = qrels.query[keep], gains[keep], qrels.grade[keep]
        order = np.lexsort((-gain, query))
        r.memo[key] = RankedJudgments(r.n_queries, query=query[order], grade=grade[order],
                                      gain=gain[order], num_relevant=r.num_relevant,
                                      relevance_level=r.relevance_level)
    return r.memo[key]


def _check_totals(query: np.ndarray, gains: np.ndarray, n_queries: int, gain_map) -> None:
    """Refuse a gain map whose gains add up, within a query, past the largest float: DCG
    would be infinite and nDCG NaN (as the gain convention refuses grades that overflow)."""
    with np.errstate(over="ignore", invalid="ignore"):
        totals = np.bincount(query, weights=np.abs(gains), minlength=n_queries)
    if not np.isfinite(totals).all():
        raise gain_map_overflow(gain_map)


def gain_map_overflow(gain_map) -> InputValueError:
    """The error for a gain map whose gains, summed over one query, pass the largest float."""
    entries = ",".join(f"{grade:g}={gain:g}" for grade, gain in gain_map)
    return InputValueError(
        f"the gain map ({entries}) gives one query's docs gains that add up past the largest "
        f"float ({np.finfo(np.float64).max:.3g}), so sums of them (DCG) would be infinite; "
        "scale the gains down (nDCG does not change)")
