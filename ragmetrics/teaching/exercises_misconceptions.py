"""The likely mistakes behind a wrong answer: one table of misconceptions per metric.

A learner who types a wrong value has usually made one of a few mistakes: divided recall
by k, left a never-retrieved chunk out of R, taken the rank for its reciprocal. Each row of
:data:`MISCONCEPTIONS` names one such mistake for one metric, gives a hint that names it
without giving the right number, and computes the value (or values) that mistake gives on
an exercise's ranking and golden set. :func:`match_misconception` then says which mistake a
wrong answer is: the first row (in table order, most common first) whose value equals the
answer within the tolerance, and differs from the right value, so that a mistake that
happens to give the right number on this exercise is never named.

The values are what a mistake gives, so they are not metrics: the right values come from
the metric table (:data:`ragmetrics.metrics.registry.METRICS`), never from here. The DCG
sums use the one plain-Python DCG (:func:`ragmetrics.metrics.gains.dcg`).

:data:`GENERIC_HINTS` says, per metric, how the value is worked out, without a number: the
hint for a wrong answer that matches no row. :data:`VALUE_RANGES` holds each metric's
range; an answer outside it is refused before it counts.

References
----------
Manning, C. D., Raghavan, P. and Schütze, H. (2008). *Introduction to Information
Retrieval*, chapter 8 (recall, precision, R-precision, MAP, nDCG).
Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation of IR techniques.
*ACM TOIS* 20(4): the DCG whose discount starts at log_b(rank), undiscounted above rank b.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import InputValueError
from ..metrics.gains import dcg

__all__ = [
    "GENERIC_HINTS",
    "MISCONCEPTIONS",
    "VALUE_RANGES",
    "Misconception",
    "match_misconception",
    "range_hint",
]

Values = Callable[[Sequence[str], Mapping[str, int], "int | None"], tuple[float, ...]]


@dataclass(frozen=True)
class Misconception:
    """One likely mistake for one metric.

    Attributes
    ----------
    metric : str
        The metric it is a mistake about (a key of
        :data:`ragmetrics.teaching.exercises.EXERCISE_METRICS`, e.g. ``"recall"``).
    name : str
        The mistake in a few words, e.g. ``"k as the denominator"``.
    hint : str
        One or two sentences for the learner that name the mistake and what to do
        instead, without the exercise's number.
    values : callable
        ``values(ranking, relevant, k)`` -> the values this mistake gives on that ranking
        (chunk ids, best first), golden set (chunk id -> grade) and cut-off (None for the
        metrics that read the whole ranking); an empty tuple where the mistake does not
        apply (no cut-off passes the end of the list, nothing is graded...). Most give one
        value; a mistake that can be made several ways gives each.
    """

    metric: str
    name: str
    hint: str
    values: Values

    def applies(self, ranking, relevant, k) -> tuple[float, ...]:
        """The values this mistake gives on a ranking, golden set and cut-off.

        Examples
        --------
        >>> row = next(m for m in MISCONCEPTIONS if m.name == "k as the denominator")
        >>> row.applies(["A", "B", "C", "D"], {"B": 1, "E": 1}, 4)  # 1 found / k = 4
        (0.25,)
        """
        return tuple(float(v) for v in self.values(list(ranking), dict(relevant), k))


# -- counting, shared by the rows -----------------------------------------------------------


def _hits(ranking, relevant) -> list[int]:
    """The ranks (1-based) of the relevant chunks in the ranking."""
    return [r for r, doc in enumerate(ranking, start=1) if relevant.get(doc, 0) > 0]


def _found(ranking, relevant, depth) -> int:
    return sum(relevant.get(doc, 0) > 0 for doc in ranking[:depth])


def _n_relevant(relevant) -> int:
    return sum(g > 0 for g in relevant.values())


def _n_retrieved_relevant(ranking, relevant) -> int:
    return len(_hits(ranking, relevant))


def _one(numerator: float, denominator: float) -> tuple[float, ...]:
    return (numerator / denominator,) if denominator else ()


def _discount_log2_rank(rank: int) -> float:
    # log2(rank), with rank 1 undiscounted: log2(1) = 0 cannot divide (Järvelin and
    # Kekäläinen's first DCG, base 2).
    return max(1.0, math.log2(rank))


def _dcg_log2_rank(gains) -> float:
    return math.fsum(g / _discount_log2_rank(r) for r, g in enumerate(gains, start=1))


def _gains(ranking, relevant, k) -> list[float]:
    return [float(max(relevant.get(doc, 0), 0)) for doc in ranking[:k]]


def _ideal(relevant, k) -> list[float]:
    return sorted((float(g) for g in relevant.values() if g > 0), reverse=True)[:k]


# -- what each mistake gives ----------------------------------------------------------------


def _recall_over_k(ranking, relevant, k):
    return _one(_found(ranking, relevant, k), k)


def _recall_over_retrieved_relevant(ranking, relevant, k):
    return _one(_found(ranking, relevant, k), _n_retrieved_relevant(ranking, relevant))


def _recall_as_hit(ranking, relevant, k):
    return (1.0 if _found(ranking, relevant, k) else 0.0,)


def _recall_whole_list(ranking, relevant, k):
    return _one(_found(ranking, relevant, None), _n_relevant(relevant))


def _precision_over_returned(ranking, relevant, k):
    if k <= len(ranking):
        return ()  # the mistake only shows when fewer than k chunks come back
    return _one(_found(ranking, relevant, k), len(ranking))


def _precision_over_r(ranking, relevant, k):
    return _one(_found(ranking, relevant, k), _n_relevant(relevant))


def _precision_whole_list(ranking, relevant, k):
    return _one(_found(ranking, relevant, None), len(ranking))


def _first_within(ranking, relevant, k) -> int | None:
    hits = _hits(ranking, relevant)
    return hits[0] if hits and hits[0] <= k else None


def _rr_rank(ranking, relevant, k):
    first = _first_within(ranking, relevant, k)
    return (float(first),) if first else ()


def _rr_later_relevant(ranking, relevant, k):
    return tuple(1 / r for r in _hits(ranking, relevant)[1:] if r <= k)


def _rr_past_cutoff(ranking, relevant, k):
    hits = _hits(ranking, relevant)
    return (1 / hits[0],) if hits and hits[0] > k else ()


def _rr_mean_over_relevant(ranking, relevant, k):
    within = [r for r in _hits(ranking, relevant) if r <= k]
    return (math.fsum(1 / r for r in within) / len(within),) if len(within) > 1 else ()


def _hit_as_recall(ranking, relevant, k):
    return _one(_found(ranking, relevant, k), _n_relevant(relevant))


def _hit_past_cutoff(ranking, relevant, k):
    return (1.0,) if _hits(ranking, relevant) and not _found(ranking, relevant, k) else ()


def _hit_count(ranking, relevant, k):
    return (float(_found(ranking, relevant, k)),)


def _ndcg_ideal_from_retrieved(ranking, relevant, k):
    total = dcg(_gains(ranking, relevant, k))
    # The top k sorted by grade, and the whole retrieved list sorted then cut at k.
    ideals = (sorted(_gains(ranking, relevant, k), reverse=True),
              sorted(_gains(ranking, relevant, None), reverse=True)[:k])
    return tuple(dict.fromkeys(total / dcg(i) for i in ideals if dcg(i) > 0))


def _ndcg_log2_rank(ranking, relevant, k):
    ideal = _dcg_log2_rank(_ideal(relevant, k))
    return _one(_dcg_log2_rank(_gains(ranking, relevant, k)), ideal)


def _ndcg_unnormalised(ranking, relevant, k):
    return (dcg(_gains(ranking, relevant, k)),)


def _ndcg_binary_gains(ranking, relevant, k):
    if not any(g > 1 for g in relevant.values()):
        return ()
    binary = {d: 1 for d, g in relevant.items() if g > 0}
    return _one(dcg(_gains(ranking, binary, k)), dcg(_ideal(binary, k)))


def _precisions_at_hits(ranking, relevant) -> list[float]:
    return [i / r for i, r in enumerate(_hits(ranking, relevant), start=1)]


def _ap_over_retrieved_relevant(ranking, relevant, k):
    terms = _precisions_at_hits(ranking, relevant)
    return _one(math.fsum(terms), len(terms))


def _ap_every_rank(ranking, relevant, k):
    precisions = [_found(ranking, relevant, r) / r for r in range(1, len(ranking) + 1)]
    return _one(math.fsum(precisions), len(precisions))


def _r_precision_over_retrieved_relevant(ranking, relevant, k):
    depth = _n_retrieved_relevant(ranking, relevant)
    return _one(_found(ranking, relevant, depth), depth)


def _r_precision_whole_list(ranking, relevant, k):
    return _one(_found(ranking, relevant, None), len(ranking))


def _r_precision_no_cut(ranking, relevant, k):
    return _one(_found(ranking, relevant, None), _n_relevant(relevant))


_NEVER_RETRIEVED = "a relevant chunk that was never retrieved still counts"

#: The misconception table: (metric, name, hint, values) per row, most common first
#: within each metric. :func:`match_misconception` reads it in this order.
MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        "recall", "k as the denominator",
        "Recall@k divides by R, the number of relevant chunks in the golden set, not by k: "
        "it asks how much of what is relevant the top k found.",
        _recall_over_k),
    Misconception(
        "recall", "unretrieved relevant chunks left out of R",
        f"R counts every relevant chunk in the golden set: {_NEVER_RETRIEVED} (it is what "
        "the retriever missed).",
        _recall_over_retrieved_relevant),
    Misconception(
        "recall", "hit rate read as recall",
        "That is the hit rate (1 when any relevant chunk is in the top k); recall counts how "
        "many of the relevant chunks are there.",
        _recall_as_hit),
    Misconception(
        "recall", "the cut-off ignored",
        "Only the top k count: stop counting relevant chunks at the cut-off k.",
        _recall_whole_list),
    Misconception(
        "precision", "the chunks returned instead of k",
        "Precision@k divides by k even when fewer than k chunks come back: an empty slot "
        "counts as a slot without a relevant chunk.",
        _precision_over_returned),
    Misconception(
        "precision", "R as the denominator",
        "Precision@k divides by k, the slots looked at, not by the number of relevant chunks "
        "(that would be recall).",
        _precision_over_r),
    Misconception(
        "precision", "the cut-off ignored",
        "Only the top k count: count the relevant chunks down to rank k, then divide by k.",
        _precision_whole_list),
    Misconception(
        "rr", "the rank instead of 1/rank",
        "RR is 1 divided by the rank of the first relevant chunk, not the rank itself.",
        _rr_rank),
    Misconception(
        "rr", "a relevant chunk other than the first",
        "RR reads only the first relevant chunk: the one with the best (smallest) rank; "
        "the relevant chunks after it do not change RR.",
        _rr_later_relevant),
    Misconception(
        "rr", "the cut-off ignored",
        "Look at the cut-off: when the first relevant chunk is below rank k, RR@k is 0.",
        _rr_past_cutoff),
    Misconception(
        "rr", "1/rank averaged over the relevant chunks",
        "RR takes the first relevant chunk only; averaging 1/rank over every relevant chunk "
        "is neither RR nor MRR (MRR averages RR over queries).",
        _rr_mean_over_relevant),
    Misconception(
        "ndcg", "the ideal built from the retrieved list",
        "The ideal ranking holds every relevant chunk in the golden set, retrieved or not, "
        "best grade first: not only the chunks this list retrieved.",
        _ndcg_ideal_from_retrieved),
    Misconception(
        "ndcg", "log2(rank) instead of log2(rank + 1)",
        "The discount is log2(rank + 1): rank 1 is divided by log2(2) = 1, rank 2 by "
        "log2(3), rank 3 by log2(4) = 2; not by log2(rank).",
        _ndcg_log2_rank),
    Misconception(
        "ndcg", "DCG not divided by the ideal DCG",
        "That looks like DCG@k: nDCG divides it by the ideal DCG@k, so it lies between 0 "
        "and 1.",
        _ndcg_unnormalised),
    Misconception(
        "ndcg", "the grades read as 1",
        "With graded relevance the gain is the grade: a grade-3 chunk adds 3, not 1 (in the "
        "ideal DCG too).",
        _ndcg_binary_gains),
    Misconception(
        "ap", "unretrieved relevant chunks left out of R",
        f"AP divides by R, every relevant chunk in the golden set: {_NEVER_RETRIEVED} (it "
        "adds 0 to the sum of precisions, but 1 to R).",
        _ap_over_retrieved_relevant),
    Misconception(
        "ap", "precision averaged at every rank",
        "Take the precision only at the ranks that hold a relevant chunk; a rank without one "
        "adds nothing to the sum.",
        _ap_every_rank),
    Misconception(
        "r_precision", "unretrieved relevant chunks left out of R",
        f"R counts every relevant chunk in the golden set ({_NEVER_RETRIEVED}): cut the list "
        "at that R and divide by it.",
        _r_precision_over_retrieved_relevant),
    Misconception(
        "r_precision", "precision of the whole list",
        "R-precision cuts the list at rank R (the number of relevant chunks), not at its end.",
        _r_precision_whole_list),
    Misconception(
        "r_precision", "recall of the whole list",
        "Count only the relevant chunks in the top R, not every one the list retrieved.",
        _r_precision_no_cut),
    Misconception(
        "hit_rate", "recall read as hit rate",
        "Hit rate does not count how many relevant chunks are in the top k: it is 1 when at "
        "least one is there, else 0.",
        _hit_as_recall),
    Misconception(
        "hit_rate", "the cut-off ignored",
        "Only the top k count: a relevant chunk below the cut-off k does not make a hit.",
        _hit_past_cutoff),
    Misconception(
        "hit_rate", "the relevant chunks counted",
        "Hit rate is 1 or 0: 1 when any relevant chunk is in the top k, whatever their "
        "number.",
        _hit_count),
)

#: Per metric, how its value is worked out, without a number: the hint for a wrong answer
#: that matches no misconception.
GENERIC_HINTS: dict[str, str] = {
    "recall": "Count the relevant chunks in the top k, then divide by R, every relevant chunk "
              "in the golden set (retrieved or not).",
    "precision": "Count the relevant chunks in the top k, then divide by k.",
    "hit_rate": "Hit rate@k is 1 when at least one relevant chunk is in the top k, else 0.",
    "rr": "Find the first relevant chunk; if its rank r is within the top k, RR is 1/r, "
          "else 0.",
    "ndcg": "Sum gain / log2(rank + 1) over the top k (the gain is the grade), then divide by "
            "the same sum for the ideal order of every relevant chunk, best grade first.",
    "ap": "At each relevant chunk's rank take the precision so far, add them up, and divide "
          "by R, every relevant chunk in the golden set.",
    "r_precision": "Cut the list at rank R (the number of relevant chunks in the golden set) "
                   "and take the precision there: relevant chunks in the top R, divided by R.",
}

#: Each metric's range, (lowest, highest): an answer outside it is refused.
VALUE_RANGES: dict[str, tuple[float, float]] = dict.fromkeys(GENERIC_HINTS, (0.0, 1.0))


def _check_metric(metric: str) -> None:
    if metric not in GENERIC_HINTS:
        raise InputValueError(
            f"metric must be one of {', '.join(map(repr, GENERIC_HINTS))}; got {metric!r}")


def match_misconception(metric: str, ranking, relevant, k, given: float, expected: float, *,
                        tolerance: float) -> Misconception | None:
    """The mistake a wrong answer most likely is, or None.

    The first row of :data:`MISCONCEPTIONS` for ``metric`` one of whose values is within
    ``tolerance`` of ``given`` and not within ``tolerance`` of ``expected`` (the right
    value): a mistake that gives the right number on this ranking is not a mistake here.

    Parameters
    ----------
    metric : str
        ``"recall"``, ``"precision"``, ``"hit_rate"``, ``"rr"``, ``"ndcg"``, ``"ap"`` or
        ``"r_precision"``.
    ranking : sequence of str
        Chunk ids, best first.
    relevant : mapping of str to int
        The golden set: chunk id -> grade.
    k : int or None
        The cut-off (None for AP and R-precision).
    given, expected : float
        The learner's answer and the right value.
    tolerance : float
        How close counts as equal (the exercise's tolerance).

    Returns
    -------
    Misconception or None

    Examples
    --------
    Recall@4 of a list that found one of the two relevant chunks (E was never retrieved) is
    1/2; an answer of 1/4 divided by k:

    >>> ranking, relevant = ["A", "B", "C", "D"], {"B": 1, "E": 1}
    >>> match_misconception("recall", ranking, relevant, 4, 0.25, 0.5, tolerance=0.005).name
    'k as the denominator'
    >>> match_misconception("recall", ranking, relevant, 4, 1.0, 0.5, tolerance=0.005).hint
    'R counts every relevant chunk in the golden set: a relevant chunk that was never retrieved still counts (it is what the retriever missed).'
    >>> match_misconception("recall", ranking, relevant, 4, 0.7, 0.5, tolerance=0.005) is None
    True
    """
    _check_metric(metric)
    ranking, relevant = list(ranking), dict(relevant)

    def near(a: float, b: float) -> bool:
        return abs(a - b) <= tolerance + 1e-12

    for row in MISCONCEPTIONS:
        if row.metric != metric:
            continue
        if any(near(v, given) and not near(v, expected)
               for v in row.applies(ranking, relevant, k)):
            return row
    return None


def range_hint(metric: str, given: float) -> str:
    """Why ``given`` is outside the metric's range, when no misconception explains it.

    Examples
    --------
    >>> range_hint("recall", 40)
    'Type a percentage with its sign (40%) or as a decimal (0.4).'
    >>> range_hint("ap", -0.5)
    'No count here is negative, so the value is not either.'
    """
    _check_metric(metric)
    low, high = VALUE_RANGES[metric]
    if given < low:
        return "No count here is negative, so the value is not either."
    if 2 <= given <= 100 * high:  # most likely a percentage typed without its sign
        return f"Type a percentage with its sign ({given:g}%) or as a decimal ({given / 100:g})."
    return "Check the division: what you divide by is never smaller than what you divide."
