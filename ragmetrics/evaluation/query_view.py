r"""One query, rank by rank: each system's ranking, the grades, and what each rank adds.

The drill-down of a comparison (the explorer widget and the HTML report) shows, for
one query, each system's top ranks side by side: the doc, its grade (or that it was
never judged) and its **contribution** to the chosen metric: what the metric gains
(or loses) when the ranking reaches that rank,

.. math:: c_i = M(\text{top } i) - M(\text{top } i - 1),

with :math:`M` the metric as the table defines it (its cut-off, parameters and
conventions), scored by its kernel on the ranking cut after rank :math:`i`. The
contributions of a ranking add up to the query's value (the value of the top 0, an
empty ranking, is 0). For the metrics that are a sum over ranks they are that sum's
terms, e.g.

- Recall@k: :math:`1/R` for each relevant doc in the top k (R relevant docs in all);
- Precision@k: :math:`1/k` for each relevant doc;
- hit rate@k and RR: 1 (hit rate) or :math:`1/i` (RR) at the first relevant rank;
- DCG@k: :math:`g_i / \log_2(i + 1)`; nDCG@k: the same over the ideal DCG@k;
- AP (and AP@k): :math:`P@i / R` at each relevant rank i;
- R-precision: :math:`1/R` for each relevant doc in the top R;

and for the others (set precision, bpref, RBP residual, the 11-point average...) they
say how the value moves rank by rank, down as well as up. No metric is written here:
every value comes from the metric table's kernel (:mod:`ragmetrics.metrics.registry`).

A metric has **no** rank-by-rank view (the contribution is None) where its value is
not made of the ranks: a text (relstring, runid), a measure of the query (num_q,
num_rel), or a value the empty ranking already has (idcg, which reads the judgments
only; utility when it prices the relevant docs missed, ``c``, or the others left out,
``d``).

Each ranking is ordered as :func:`ragmetrics.evaluate` orders it: by score, then by the
tie rule of the conventions (trec_eval's doc ids descending, the input order, relevant
first or last), or by rank under ``order_by="rank"``; under ``duplicates="keep_first"``
a repeated doc keeps its best rank. ``ties="average"`` shows the input order (each
order of a tie has its own contributions; the mean has none). A query with no relevant
doc shows the kernel's values, as under ``empty_relevant="zero"``: the other policies
replace the query's value as a whole (the article's value, NaN, an error), which no
rank adds. ``tests/unit/widgets/test_comparison_explorer.py`` checks that the contributions add up
to ``evaluate``'s value for every query of the support demo and every metric.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import InputValueError, RankOrderWarning
from ..metrics.registry import METRICS, MetricSpec, parse_metric
from ..metrics.scoring import score
from .arrow_inputs import as_frame
from .curves import one_query_ranked
from .inputs import qrels_columns, run_columns
from .on_dask import is_dask_frame
from .parts import DeferredRun, RunInParts
from .variants import apply_ap_denominator, prepare_run

__all__ = ["DECOMPOSABLE", "QueryRankings", "RankedDoc", "contributions"]

#: The metrics with a rank-by-rank view: every number of the metric table except the
#: measures of the query (a value the empty ranking already has shows none either).
DECOMPOSABLE = tuple(name for name, info in METRICS.items()
                     if info.kind == "number" and not info.of_the_query)


@dataclass(frozen=True)
class RankedDoc:
    """One rank of one system's ranking of one query."""

    rank: int
    doc_id: object
    grade: float | None  # None: never judged (or judged below 0)
    relevant: bool
    contribution: float | None  # None: the metric has no rank-by-rank view


def contributions(metric, grades: list[float | None], judged: list[float], *,
                  conventions: Conventions | None = None) -> list[float] | None:
    r"""What each rank of a ranking adds to ``metric``, rank 1 first: the metric of the
    top ``i`` docs minus that of the top ``i - 1``, scored by the metric's kernel.

    Parameters
    ----------
    metric : str or MetricSpec
        Any metric of :data:`ragmetrics.METRICS`: ``"ndcg@10"``, ``"recall@5"``,
        ``"mrr"``, ``"bpref"``, ``"rbp(p=0.8)"``...
    grades : list of float or None
        The grade of the doc at each rank (None: not judged), as far as it was read.
    judged : list of float
        Every grade the query's judgments give, retrieved or not, in the order listed
        (for R, the ideal ranking, the judged non-relevant docs, the gain scale).
    conventions : Conventions, optional
        The relevance level, the gain, the ideal order and AP's denominator (default
        trec_eval's).

    Returns
    -------
    list of float, or None
        One value per rank of ``grades`` (0 where the metric reads no further, e.g.
        below the cut-off); their sum is the query's value. None for a metric whose
        value is not made of the ranks (see the module's docstring).

    Examples
    --------
    >>> import math
    >>> ideal = 2 / 1 + 1 / math.log2(3) + 1 / 2     # grades 2, 1, 1 in the best order
    >>> [round(x * ideal, 4) for x in contributions("ndcg@3", [1, None, 2], [2, 1, 1])]
    [1.0, 0.0, 1.0]
    >>> sum(contributions("recall@2", [1, 0, 1], [1, 1, 1, 1]))
    0.25

    Set precision falls at each doc that is not relevant:

    >>> [round(x, 4) for x in contributions("set_precision", [1, 0, 1], [1, 1])]
    [1.0, -0.5, 0.1667]
    >>> contributions("num_rel", [1, 0], [1]) is None  # a measure of the query
    True
    """
    spec = metric if isinstance(metric, MetricSpec) else parse_metric(metric)
    info = spec.info
    if info.kind != "number" or info.of_the_query:
        return None
    c = conventions or Conventions()
    level = c.relevance_level
    judged_grades = np.asarray(judged, dtype=np.float64)
    deepest = spec.depth(np.array([(judged_grades >= level).sum()]))  # where it stops reading
    deepest = len(grades) if deepest is None else min(len(grades), deepest)
    prefixes = one_query_ranked(
        np.array([0.0 if g is None else g for g in grades[:deepest]], dtype=np.float64),
        np.array([g is not None for g in grades[:deepest]], dtype=bool), judged_grades,
        np.arange(deepest + 1), gain=c.gain, level=level,
        label_order=c.ideal_order == "label_order")
    values = score(prefixes, [spec], empty_relevant="zero")[0]
    if spec.name == "ap" and spec.k is not None and c.ap_denominator == "min_relevant_k":
        values = apply_ap_denominator(values, prefixes, spec.k)  # Spark's AP@k, as evaluate
    if values[0] != 0:  # a value before any rank: not made of the ranks
        return None
    return np.diff(values).tolist() + [0.0] * (len(grades) - deepest)


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
        judged = [grades_of.get(d) for d in ranked.tolist()]  # below 0: judged, not graded
        adds = contributions(self._with_collection_defaults(metric), judged,
                             list(grades_of.values()), conventions=self.conventions)
        grades = [None if g is None or g < 0 else float(g) for g in judged]
        level = self.conventions.relevance_level
        return [RankedDoc(i + 1, d, g, g is not None and g >= level,
                          None if adds is None else adds[i])
                for i, (d, g) in enumerate(zip(ranked.tolist(), grades, strict=True))]

    def _with_collection_defaults(self, metric) -> MetricSpec:
        """``metric`` with the parameters whose default reads every query's judgments
        written out (ERR's ``max_grade``: the highest grade judged over all queries), so
        that one query's view scores what :func:`ragmetrics.evaluate` scores."""
        spec = metric if isinstance(metric, MetricSpec) else parse_metric(metric)
        written = {name for name, _ in spec.params}
        if any(p.name == "max_grade" for p in spec.info.params) and "max_grade" not in written:
            top = max((g for grades in self._grades.values() for g in grades.values()),
                      default=0.0)
            spec = replace(spec, params=(*spec.params, ("max_grade", max(float(top), 0.0))))
        return spec

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
