r"""One query, rank by rank: each system's ranking, the grades, and what each rank adds.

The drill-down of a comparison (the explorer widget and the HTML report) shows, for
one query, each system's top ranks side by side: the doc, its grade (or that it was
never judged) and its **contribution** to the chosen metric, so that the contributions
of a ranking add up to the query's value:

- Recall@k: :math:`1/R` for each relevant doc in the top k (R relevant docs in all);
- Precision@k: :math:`1/k` for each relevant doc;
- hit rate@k and RR: 1 (hit rate) or :math:`1/i` (RR) at the first relevant rank;
- DCG@k: :math:`g_i / \log_2(i + 1)`; nDCG@k: the same over the ideal DCG@k;
- AP (and AP@k): :math:`P@i / R` at each relevant rank i;
- R-precision: :math:`1/R` for each relevant doc in the top R.

Each ranking is ordered as :func:`ragmetrics.evaluate` orders it: by score, then by the
tie rule of the conventions (trec_eval's doc ids descending, the input order, relevant
first or last), or by rank under ``order_by="rank"``; under ``duplicates="keep_first"``
a repeated doc keeps its best rank. ``tests/test_query_view.py`` checks that the
contributions add up to ``evaluate``'s value for every query of the support demo.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import InputValueError, RankOrderWarning
from ..metrics.registry import MetricSpec, parse_metric
from .arrow_inputs import as_frame
from .inputs import qrels_columns, run_columns
from .on_dask import is_dask_frame
from .parts import DeferredRun, RunInParts
from .variants import prepare_run

__all__ = ["DECOMPOSABLE", "QueryRankings", "RankedDoc", "contributions"]

#: The metrics whose value is a sum over ranks (the others show no contribution).
DECOMPOSABLE = ("recall", "precision", "hit_rate", "rr", "dcg", "ndcg", "ap", "r_precision")


@dataclass(frozen=True)
class RankedDoc:
    """One rank of one system's ranking of one query."""

    rank: int
    doc_id: object
    grade: float | None  # None: never judged
    relevant: bool
    contribution: float | None  # None: the metric is not a sum over ranks


def _gain(grade: float, gain: str) -> float:
    if not grade > 0:
        return 0.0
    return grade if gain == "linear" else 2.0**grade - 1.0


def contributions(metric, grades: list[float | None], judged: list[float], *,
                  conventions: Conventions | None = None) -> list[float] | None:
    """What each rank of a ranking adds to ``metric``, rank 1 first.

    Parameters
    ----------
    metric : str or MetricSpec
        ``"ndcg@10"``, ``"recall@5"``, ``"mrr"``...
    grades : list of float or None
        The grade of the doc at each rank (None: not judged), as far as it was read.
    judged : list of float
        Every grade the query's judgments give (for R and the ideal DCG).
    conventions : Conventions, optional
        The relevance level and the gain (default trec_eval's).

    Returns
    -------
    list of float, or None
        One value per rank of ``grades`` (0 below the cut-off); their sum is the
        query's value. None for a metric that is not a sum over ranks.

    Examples
    --------
    >>> ideal = 2 / 1 + 1 / math.log2(3) + 1 / 2     # grades 2, 1, 1 in the best order
    >>> [round(x * ideal, 4) for x in contributions("ndcg@3", [1, None, 2], [2, 1, 1])]
    [1.0, 0.0, 1.0]
    >>> sum(contributions("recall@2", [1, 0, 1], [1, 1, 1, 1]))
    0.25
    """
    spec = metric if isinstance(metric, MetricSpec) else parse_metric(metric)
    c = conventions or Conventions()
    if spec.name not in DECOMPOSABLE:
        return None
    level = c.relevance_level
    rel = [g is not None and g >= level for g in grades]
    n_rel = sum(g >= level for g in judged)
    k = len(grades) if spec.k is None else spec.k
    if spec.name == "r_precision":
        k = n_rel
    out = [0.0] * len(grades)
    if spec.name in ("recall", "r_precision"):
        for i, r in enumerate(rel[:k]):
            out[i] = 1.0 / n_rel if r and n_rel else 0.0
    elif spec.name == "precision":
        for i, r in enumerate(rel[:k]):
            out[i] = 1.0 / k if r else 0.0
    elif spec.name in ("hit_rate", "rr"):
        first = next((i for i, r in enumerate(rel[:k]) if r), None)
        if first is not None:
            out[first] = 1.0 if spec.name == "hit_rate" else 1.0 / (first + 1)
    elif spec.name in ("dcg", "ndcg"):
        by_label = c.ideal_order == "label_order"  # Spark's: only its labels gain
        dcg = [_gain(g, c.gain) / math.log2(i + 2)
               if g is not None and (g >= level or not by_label) else 0.0
               for i, g in enumerate(grades[:k])]
        scale = 1.0
        if spec.name == "ndcg":
            ideal = ([_gain(g, c.gain) for g in judged if g >= level][:k] if by_label else
                     sorted((_gain(g, c.gain) for g in judged), reverse=True)[:k])
            idcg = math.fsum(g / math.log2(i + 2) for i, g in enumerate(ideal))
            scale = 1.0 / idcg if idcg > 0 else 0.0
        for i, value in enumerate(dcg):
            out[i] = value * scale
    elif spec.name == "ap":
        hits = 0
        over = n_rel
        if spec.k is not None and c.ap_denominator == "min_relevant_k":
            over = min(n_rel, spec.k)
        for i, r in enumerate(rel[:k]):
            if r:
                hits += 1
                out[i] = hits / (i + 1) / over if over else 0.0
    return out


def shown_by_query(run) -> bool:
    """Whether a run's rankings can be shown query by query: not one read in parts of
    whole queries (a TREC run too large to hold) or kept on Dask."""
    return not (isinstance(run, RunInParts) or is_dask_frame(run))


class QueryRankings:
    """Each system's ranking of any one query, ordered as :func:`ragmetrics.evaluate` does.

    Built once from the runs and the judgments (the rows of each query found in one
    pass); :meth:`ranking` then reads one query's rows.

    Examples
    --------
    >>> runs = {"a": {"q1": {"x": 0.5, "d": 0.5, "y": 0.2}}}
    >>> rankings = QueryRankings(runs, {"q1": {"d": 1, "y": 0}})
    >>> [(r.rank, r.doc_id, r.grade) for r in rankings.ranking("a", "q1", "recall@2")]
    [(1, 'x', None), (2, 'd', 1.0), (3, 'y', 0.0)]
    """

    def __init__(self, runs: Mapping, qrels, conventions: Conventions | None = None):
        self.conventions = conventions or Conventions()
        c = self.conventions
        self._runs = {}
        judgments = qrels_columns(qrels)
        for name, run in runs.items():
            if not shown_by_query(run):
                raise InputValueError(
                    f"system {name!r} was read in parts (or is on Dask): its rankings are "
                    "not shown query by query; pass it in memory (a DataFrame or a mapping)")
            if isinstance(run, DeferredRun):  # read when needed, as compare read it
                run = run.load()
            run = as_frame(run)
            with warnings.catch_warnings():  # evaluate said it already, for the same run
                warnings.simplefilter("ignore", RankOrderWarning)
                columns = prepare_run(run_columns(run, order_by=c.order_by, ties=c.ties), c,
                                      judgments)
            codes, uniques = pd.factorize(columns.query)
            order = np.argsort(codes, kind="stable")
            starts = np.searchsorted(codes[order], np.arange(len(uniques)))
            ends = np.append(starts[1:], len(order))
            where = {q: (int(s), int(e)) for q, s, e in zip(uniques, starts, ends, strict=True)}
            docs = columns.doc.to_numpy(dtype=object)[order]
            self._runs[name] = (docs, columns.value[order], where)
        self._grades: dict = {}
        for q, d, g in zip(judgments.query.tolist(), judgments.doc.tolist(),
                           judgments.value.tolist(), strict=True):
            self._grades.setdefault(q, {})[d] = g

    @property
    def systems(self) -> tuple:
        return tuple(self._runs)

    def judged(self, query_id) -> dict:
        """The query's judgments, doc id -> grade."""
        return dict(self._grades.get(query_id, {}))

    def ranking(self, system: str, query_id, metric, *, depth: int | None = None
                ) -> list[RankedDoc]:
        """``system``'s ranking of ``query_id``, down to ``depth`` (default: all)."""
        if system not in self._runs:
            raise InputValueError(f"system {system!r} is not one of {list(self._runs)}")
        all_docs, all_scores, where = self._runs[system]
        start, end = where.get(query_id, (0, 0))
        docs, scores = all_docs[start:end], all_scores[start:end]
        grades_of = self._grades.get(query_id, {})
        grade = np.array([grades_of.get(d, np.nan) for d in docs], dtype=np.float64)
        ranked = docs[self._order(docs, scores, grade)]
        if self.conventions.duplicates == "keep_first":
            ranked = np.array(list(dict.fromkeys(ranked.tolist())), dtype=object)
        if depth is not None:
            ranked = ranked[:depth]
        grades = [grades_of.get(d) for d in ranked.tolist()]
        grades = [None if g is None or g < 0 else float(g) for g in grades]
        adds = contributions(metric, grades, [g for g in grades_of.values() if g >= 0],
                             conventions=self.conventions)
        level = self.conventions.relevance_level
        return [RankedDoc(i + 1, d, g, g is not None and g >= level,
                          None if adds is None else adds[i])
                for i, (d, g) in enumerate(zip(ranked.tolist(), grades, strict=True))]

    def _order(self, docs, scores, grade) -> np.ndarray:
        """Positions in rank order: score descending, then the tie rule."""
        ties = self.conventions.ties
        position = np.arange(len(docs))
        if ties in ("trec_eval", "doc_id_ascending"):
            texts = docs.astype(str)
            text_rank = np.empty(len(texts), np.int64)
            text_rank[np.argsort(texts, kind="stable")] = position
            secondary = -text_rank if ties == "trec_eval" else text_rank
        elif ties == "optimistic":
            secondary = -np.nan_to_num(grade, nan=0.0)
        elif ties == "pessimistic":
            secondary = np.nan_to_num(grade, nan=0.0)
        else:
            secondary = position
        return np.lexsort((position, secondary, -scores))
