"""Precision-recall curves of one ranking, interpolated precision, and AP as an area.

Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), chapter 8:
walking down a ranking, each rank gives a point (recall, precision). The **interpolated
precision** at a recall level r is the highest precision at any rank whose recall is at
least r; the **11-point average** averages it at r = 0.0, 0.1, ..., 1.0. Average
precision is the area under the (uninterpolated) curve: each relevant chunk adds its
precision times the step in recall it makes, 1/R.

The definitions are trec_eval's (``iprec_at_recall``, ``11pt_avg``, ``map``, ``Rprec``):
only retrieved chunks give points, a relevant chunk never retrieved lowers recall (it
counts in R), and a recall level the ranking never reaches has interpolated precision 0.
``tests/teaching/test_pr_curves.py`` checks them against pytrec_eval.

One convention needs saying: trec_eval does not compare recall with the level. It turns
the level r into a number of relevant chunks, ``floor(r * R + 0.9)`` (so that its 11 levels
give the cut-offs of historical implementations), and takes the best precision from the
rank of that relevant chunk on. With R = 3, level 0.7 needs floor(2.1 + 0.9) = 2 chunks in
floating point (0.7 * 3 is 2.0999...), recall 0.667: a little below 0.7. ``rule="textbook"``
compares recall with the level exactly (recall >= r), as the textbook defines it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..errors import InputValueError
from ..validation import (
    as_grades,
    as_ranking,
    check_choice,
    check_id_kinds,
    check_relevance_level,
)

__all__ = [
    "ELEVEN_POINTS",
    "PrecisionRecallCurve",
    "eleven_point_average",
    "interpolated_precision",
    "precision_recall_curve",
]

#: trec_eval's recall levels for ``iprec_at_recall`` and ``11pt_avg``.
ELEVEN_POINTS = tuple(i / 10 for i in range(11))


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

    @property
    def precision(self) -> list[float]:
        """Precision@i for i = 1 .. len(ranking)."""
        found, out = 0, []
        for rank, hit in enumerate(self.relevant, start=1):
            found += hit
            out.append(found / rank)
        return out

    @property
    def recall(self) -> list[float]:
        """Recall@i for i = 1 .. len(ranking) (0 everywhere if R = 0)."""
        found, out = 0, []
        for hit in self.relevant:
            found += hit
            out.append(found / self.n_relevant if self.n_relevant else 0.0)
        return out

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

        ``rule="trec_eval"`` (the default) reaches level r at the ``floor(r * R + 0.9)``-th
        relevant chunk, as trec_eval's ``iprec_at_recall``; ``rule="textbook"`` at the
        first rank whose recall is at least r.
        """
        if not (isinstance(level, int | float) and 0 <= level <= 1):
            raise InputValueError(f"a recall level must be between 0 and 1; got {level!r}")
        check_choice(rule, ("trec_eval", "textbook"), "rule")
        precision, relevant = self.precision, self.relevant
        hits = [i for i, hit in enumerate(relevant) if hit]  # 0-based ranks of the hits
        if rule == "trec_eval":
            needed = int(level * self.n_relevant + 0.9)  # C's (long) cast: truncation
        else:
            needed = next((j + 1 for j in range(len(hits))
                           if (j + 1) / self.n_relevant >= level), len(hits) + 1)
        if needed > len(hits):
            return 0.0
        start = hits[needed - 1] if needed > 0 else 0
        return max(precision[start:], default=0.0)

    def eleven_points(self, *, rule: str = "trec_eval") -> dict[float, float]:
        """Interpolated precision at recall 0.0, 0.1, ..., 1.0 (trec_eval's iprec_at_recall)."""
        return {level: self.interpolated(level, rule=rule) for level in ELEVEN_POINTS}

    def eleven_point_average(self, *, rule: str = "trec_eval") -> float:
        """The mean of :meth:`eleven_points` (trec_eval's ``11pt_avg``)."""
        return math.fsum(self.eleven_points(rule=rule).values()) / len(ELEVEN_POINTS)

    def area(self) -> float:
        """The area under the step curve: the sum over relevant ranks of precision times
        the step in recall (1/R). It is average precision (trec_eval's ``map`` for one
        query)."""
        if not self.n_relevant:
            return 0.0
        return math.fsum(p / self.n_relevant
                         for p, hit in zip(self.precision, self.relevant, strict=True) if hit)

    def r_precision(self) -> float:
        """Precision at rank R: where the curve crosses precision = recall."""
        if not self.n_relevant:
            return 0.0
        return sum(self.relevant[: self.n_relevant]) / self.n_relevant


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
    >>> round(curve.interpolated(0.3), 4), curve.interpolated(0.8)
    (0.6667, 0.0)
    >>> round(curve.area(), 4)  # (1 + 2/3 + 3/5) / 4: average precision
    0.5667
    """
    level = check_relevance_level(relevance_level)
    ranking = as_ranking(retrieved, duplicates="error")
    grades = as_grades(relevant)
    check_id_kinds(ranking, grades)
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

    >>> round(eleven_point_average(["a", "x", "b"], {"a", "b"}), 4)  # 6 x 1.0, 5 x 2/3
    0.8485
    """
    return precision_recall_curve(retrieved, relevant,
                                  relevance_level=relevance_level).eleven_point_average()
