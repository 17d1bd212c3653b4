"""Precision-recall curves of one ranking, interpolated precision, and AP as an area.

Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), chapter 8:
walking down a ranking, each rank gives a point (recall, precision). The **interpolated
precision** at a recall level r is the highest precision at any rank whose recall is at
least r; the **11-point average** averages it at r = 0.0, 0.1, ..., 1.0. Average
precision is the area under the (uninterpolated) curve: each relevant chunk adds its
precision times the step in recall it makes, 1/R.

This module draws and explains; it defines none of these numbers. The points are the
curves over k (:func:`ragmetrics.metrics_over_k`), and interpolated precision, the
11-point average, AP and R-precision are the metric table's own per-query functions
(:func:`ragmetrics.metrics.reference.iprec_at_recall`,
:func:`~ragmetrics.metrics.reference.eleven_point_average`,
:func:`~ragmetrics.metrics.reference.average_precision`,
:func:`~ragmetrics.metrics.reference.r_precision`): the numbers of
``evaluate(run, qrels, ["iprec_at_recall@0.3", "11pt_avg", "map", "r_precision"])``.
They are trec_eval's definitions: only retrieved chunks give points, a relevant chunk
never retrieved lowers recall (it counts in R), and a recall level the ranking never
reaches has interpolated precision 0. ``tests/teaching/test_pr_curves.py`` checks them against
pytrec_eval.

One convention needs saying: trec_eval does not compare recall with the level. It turns
the level r into a number of relevant chunks, ``round(r * R)`` (halves up; at least 1),
and takes the best precision from the rank of that relevant chunk on. (trec_eval 9, and
pytrec_eval, which runs it, took ``floor(r * R + 0.9)``; trec_eval 10 rounds, and so does
ragmetrics.) With R = 3, level 0.7 needs round(2.1) = 2 chunks: recall 0.667, a little
below 0.7. ``rule="textbook"`` compares recall with the level exactly (recall >= r), as
the textbook defines it: the one definition written here, to show the difference.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..errors import InputValueError
from ..evaluation.curves import metric_curves
from ..metrics import interpolated, reference
from ..validation import as_query, check_choice, check_relevance_level

__all__ = [
    "ELEVEN_POINTS",
    "PrecisionRecallCurve",
    "eleven_point_average",
    "interpolated_precision",
    "precision_recall_curve",
]

#: trec_eval's recall levels for ``iprec_at_recall`` and ``11pt_avg``: 0.0, 0.1, ..., 1.0
#: (the metric table's, :data:`ragmetrics.metrics.interpolated.ELEVEN_POINTS`).
ELEVEN_POINTS = interpolated.ELEVEN_POINTS


@dataclass(frozen=True)
class PrecisionRecallCurve:
    """The points (recall, precision) of one ranking, rank by rank.

    Attributes
    ----------
    ranking : tuple
        The ranking, best first.
    relevant : tuple of bool
        Whether the chunk at each rank is relevant (at the relevance level).
    n_relevant : int
        R, the number of relevant chunks in the golden set (retrieved or not).
    """

    ranking: tuple
    relevant: tuple[bool, ...]
    n_relevant: int

    def _query(self) -> tuple[list[int], set[int]]:
        """The ranking and its golden set as the per-query functions read them: rank
        positions as ids, the relevant chunks never retrieved as ids below 0."""
        hits = {rank for rank, hit in enumerate(self.relevant) if hit}
        missing = range(-1, -1 - (self.n_relevant - len(hits)), -1)
        return list(range(len(self.ranking))), hits | set(missing)

    def _over_k(self, metric: str) -> list[float]:
        if not self.ranking:
            return []
        ranks, golden = self._query()
        return metric_curves(ranks, golden, range(1, len(ranks) + 1), metrics=[metric])[
            metric].tolist()

    @property
    def precision(self) -> list[float]:
        """Precision@i for i = 1 .. len(ranking)."""
        return self._over_k("precision")

    @property
    def recall(self) -> list[float]:
        """Recall@i for i = 1 .. len(ranking) (0 everywhere if R = 0)."""
        return self._over_k("recall")

    def points(self) -> pd.DataFrame:
        """One row per rank: doc, relevant, precision, recall."""
        return pd.DataFrame(
            {"doc_id": list(self.ranking), "relevant": list(self.relevant),
             "precision": self.precision, "recall": self.recall},
            index=pd.Index(range(1, len(self.ranking) + 1), name="rank"),
        )

    def interpolated(self, level: float, *, rule: str = "trec_eval") -> float:
        """The highest precision at any rank from where the ranking reaches recall
        ``level`` on; 0 if it never does.

        ``rule="trec_eval"`` (the default) reaches level r at the ``round(r * R)``-th
        relevant chunk (at least the first), as trec_eval's ``iprec_at_recall``:
        :func:`ragmetrics.metrics.reference.iprec_at_recall`. ``rule="textbook"``
        reaches it at the first rank whose recall is at least r.
        """
        if not (isinstance(level, int | float) and 0 <= level <= 1):
            raise InputValueError(f"a recall level must be between 0 and 1; got {level!r}")
        check_choice(rule, ("trec_eval", "textbook"), "rule")
        if rule == "trec_eval":
            return reference.iprec_at_recall(*self._query(), level)
        precision, hits = self.precision, [i for i, hit in enumerate(self.relevant) if hit]
        needed = next((j + 1 for j in range(len(hits))
                       if (j + 1) / self.n_relevant >= level), len(hits) + 1)
        if needed > len(hits):
            return 0.0
        return max(precision[hits[needed - 1]:])

    def eleven_points(self, *, rule: str = "trec_eval") -> dict[float, float]:
        """Interpolated precision at recall 0.0, 0.1, ..., 1.0 (trec_eval's iprec_at_recall)."""
        return {level: self.interpolated(level, rule=rule) for level in ELEVEN_POINTS}

    def eleven_point_average(self, *, rule: str = "trec_eval") -> float:
        """The mean of :meth:`eleven_points`: trec_eval's ``11pt_avg``
        (:func:`ragmetrics.metrics.reference.eleven_point_average`) under its rule."""
        if rule == "trec_eval":
            return reference.eleven_point_average(*self._query())
        return math.fsum(self.eleven_points(rule=rule).values()) / len(ELEVEN_POINTS)

    def area(self) -> float:
        """The area under the step curve: the sum over relevant ranks of precision times
        the step in recall (1/R). It is average precision (trec_eval's ``map`` for one
        query): :func:`ragmetrics.metrics.reference.average_precision`."""
        return reference.average_precision(*self._query())

    def r_precision(self) -> float:
        """Precision at rank R, where the curve crosses precision = recall
        (:func:`ragmetrics.metrics.reference.r_precision`)."""
        return reference.r_precision(*self._query())


def precision_recall_curve(
    retrieved: Iterable, relevant: Any, *, relevance_level: float = 1
) -> PrecisionRecallCurve:
    """The precision-recall points of one ranking.

    Parameters
    ----------
    retrieved : list of ids
        The ranking, best first (no id twice).
    relevant : set of ids or mapping id -> grade
        The golden set; a chunk is relevant at grade >= ``relevance_level``.

    Examples
    --------
    Relevant chunks at ranks 1, 3 and 5, and a fourth never retrieved (R = 4):

    >>> curve = precision_recall_curve(["a", "x", "b", "y", "c"], {"a", "b", "c", "z"})
    >>> curve.points().round(4)  # doctest: +NORMALIZE_WHITESPACE
         doc_id  relevant  precision  recall
    rank
    1         a      True     1.0000    0.25
    2         x     False     0.5000    0.25
    3         b      True     0.6667    0.50
    4         y     False     0.5000    0.50
    5         c      True     0.6000    0.75
    >>> round(curve.interpolated(0.4), 4), curve.interpolated(0.9)  # the 2nd hit; a 4th
    (0.6667, 0.0)
    >>> round(curve.area(), 4)  # (1 + 2/3 + 3/5) / 4: average precision
    0.5667
    """
    level = check_relevance_level(relevance_level)
    ranking, grades = as_query(retrieved, relevant, duplicates="error")
    relevant_ids = {d for d, g in grades.items() if g >= level}
    return PrecisionRecallCurve(tuple(ranking), tuple(d in relevant_ids for d in ranking),
                                len(relevant_ids))


def interpolated_precision(
    retrieved: Iterable, relevant: Any, levels: Iterable[float] = ELEVEN_POINTS, *,
    relevance_level: float = 1, rule: str = "trec_eval",
) -> dict[float, float]:
    """Interpolated precision at each recall level (trec_eval's ``iprec_at_recall``; see
    :meth:`PrecisionRecallCurve.interpolated` for ``rule``).

    >>> ip = interpolated_precision(["a", "x", "b"], {"a", "b"}, [0.0, 0.5, 1.0])
    >>> {level: round(p, 4) for level, p in ip.items()}
    {0.0: 1.0, 0.5: 1.0, 1.0: 0.6667}
    """
    curve = precision_recall_curve(retrieved, relevant, relevance_level=relevance_level)
    return {float(level): curve.interpolated(level, rule=rule) for level in levels}


def eleven_point_average(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1
                         ) -> float:
    """The 11-point interpolated average precision (trec_eval's ``11pt_avg``).

    >>> round(eleven_point_average(["a", "x", "b"], {"a", "b"}), 4)  # 8 x 1.0, 3 x 2/3
    0.9091
    """
    return precision_recall_curve(retrieved, relevant,
                                  relevance_level=relevance_level).eleven_point_average()
