r"""Do two judgment sets rank the systems alike? And how much of each run was never judged?

Judgments matter through the conclusions they lead to. Two judgment sets that disagree
on many pairs may still put the systems in the same order (Voorhees, "Variations in
relevance judgments and the measurement of retrieval effectiveness", SIGIR 1998): score
every run under each set, rank the systems by their means, and compare the two orders
with

- **Kendall's tau** (tau-b, ties counted as in :func:`scipy.stats.kendalltau`): the
  share of system pairs put in the same order, minus the share swapped; 1 for the same
  order, -1 for the reverse;
- **rank-biased overlap** (RBO; Webber, Moffat & Zobel, TOIS 2010): the overlap of the
  two orders' top d, averaged over all depths d with weights :math:`(1 - p) p^{d-1}`, so
  that the top of the order counts most (:func:`rank_biased_overlap`).

**Judged@k** is the share of a run's top k docs that have a judgment (of any grade,
relevant or not: the metric table's ``judged@k``); **hole@k** = 1 - Judged@k is the share
that was never judged, where every metric silently counts a doc as not relevant. A system
with many holes is likely underestimated (new systems compared on judgments pooled from
older ones).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._moved import renamed_in
from ..errors import (
    CoverageWarning,
    EmptyRelevantWarning,
    InputTypeError,
    InputValueError,
    NoRelevantRetrievedWarning,
)
from ..evaluation import evaluate
from ..evaluation.inputs import qrels_columns
from ..validation import check_k

__all__ = ["judged_at_k_by_system", "kendall_tau", "rank_biased_overlap", "system_rankings"]


def kendall_tau(x, y) -> float:
    """Kendall's tau-b between two scorings of the same items (NaN for fewer than 2).

    Examples
    --------
    >>> round(kendall_tau([0.3, 0.2, 0.1], [0.31, 0.1, 0.2]), 4)  # 2 pairs agree, 1 swaps
    0.3333
    """
    from scipy import stats

    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise InputValueError(f"x and y must score the same items, got {x.shape} and {y.shape}")
    if len(x) < 2:
        return math.nan
    return float(stats.kendalltau(x, y).statistic)


def rank_biased_overlap(a: Sequence, b: Sequence, *, p: float = 0.9) -> float:
    r"""Rank-biased overlap of two orders, extrapolated to their end (RBO_ext).

    With :math:`A_d` the share of the first d items the two orders have in common,
    lists of length k, and :math:`X_d = d A_d`:

    .. math:: \mathrm{RBO_{ext}} = \frac{X_k}{k} p^k + \frac{1 - p}{p}
              \sum_{d=1}^{k} \frac{X_d}{d} p^d

    (Webber, Moffat & Zobel, TOIS 2010, equation 32, for lists of the same length). 1
    for the same order; lower the higher up they differ. ``p`` sets how much the top
    counts: the first d items carry :math:`1 - p^d` of the weight.

    Examples
    --------
    >>> rank_biased_overlap(["a", "b", "c"], ["a", "b", "c"])
    1.0
    >>> round(rank_biased_overlap(["a", "b", "c"], ["b", "a", "c"]), 4)
    0.9
    """
    if not 0 < p < 1:
        raise InputValueError(f"p must be between 0 and 1, got {p!r}")
    a, b = list(a), list(b)
    if len(a) != len(b) or len(set(a)) != len(a) or len(set(b)) != len(b):
        raise InputValueError("rank_biased_overlap compares two orders of the same length, "
                              f"without repeats; got {a!r} and {b!r}")
    k = len(a)
    if k == 0:
        return math.nan
    seen_a, seen_b, overlap, total = set(), set(), 0, 0.0
    for d in range(1, k + 1):
        x, y = a[d - 1], b[d - 1]
        if x == y:
            overlap += 1
        else:
            overlap += (x in seen_b) + (y in seen_a)
        seen_a.add(x)
        seen_b.add(y)
        total += overlap / d * p**d
    return float(overlap / k * p**k + (1 - p) / p * total)


def _check_runs(runs) -> dict:
    if not isinstance(runs, Mapping) or not runs:
        raise InputTypeError(f"runs must be a non-empty mapping {{name: run}}, got {runs!r}")
    return dict(runs)


def system_rankings(runs: Mapping, qrels_a, qrels_b, *, metric: str = "ndcg@10",
                    p: float = 0.9, **conventions) -> tuple[pd.DataFrame, float, float]:
    """Each system's mean under each judgment set, and how alike the two orders are.

    Every run is scored on the queries both sets judge (so a difference is the
    judgments', not the queries').

    Returns
    -------
    (pandas.DataFrame, float, float)
        The frame (index ``system``; columns ``mean_a``, ``mean_b``, ``rank_a``,
        ``rank_b``, ranks from 1 = best, ties sharing the better rank), Kendall's tau of
        the two means and the RBO of the two orders (ties in a mean kept in the runs'
        order).

    Examples
    --------
    >>> a = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> b = {"q1": {"d1": 1, "d3": 1}, "q2": {"d2": 1}}
    >>> runs = {"x": {"q1": ["d1", "d3"], "q2": ["d2"]}, "y": {"q1": ["d3", "d1"], "q2": ["d9"]}}
    >>> frame, tau, rbo = system_rankings(runs, a, b, metric="mrr")
    >>> frame  # doctest: +NORMALIZE_WHITESPACE
            mean_a  mean_b  rank_a  rank_b
    system
    x         1.00     1.0       1       1
    y         0.25     0.5       2       2
    >>> tau, rbo
    (1.0, 1.0)
    """
    runs = _check_runs(runs)
    common = _common_queries(qrels_a, qrels_b)
    means = {}
    for side, qrels in (("a", qrels_a), ("b", qrels_b)):
        kept = _restrict(qrels, common)
        means[f"mean_{side}"] = [_mean(run, kept, metric, conventions) for run in runs.values()]
    frame = pd.DataFrame(means, index=pd.Index(list(runs), name="system"))
    for side in ("a", "b"):
        frame[f"rank_{side}"] = frame[f"mean_{side}"].rank(ascending=False, method="min"
                                                           ).astype(np.int64)
    order = {side: list(frame.sort_values(f"mean_{side}", ascending=False, kind="stable").index)
             for side in ("a", "b")}
    return (frame, kendall_tau(frame["mean_a"], frame["mean_b"]),
            rank_biased_overlap(order["a"], order["b"], p=p))


def _mean(run, qrels, metric: str, conventions: dict) -> float:
    """The mean of ``metric``; coverage and empty golden sets are the audit's to report."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        warnings.simplefilter("ignore", EmptyRelevantWarning)
        warnings.simplefilter("ignore", NoRelevantRetrievedWarning)
        return float(evaluate(run, qrels, [metric], **conventions).summary[metric])


def _common_queries(qrels_a, qrels_b) -> list:
    queries = [dict.fromkeys([*qrels_columns(q).query.tolist(), *qrels_columns(q).bare_queries])
               for q in (qrels_a, qrels_b)]
    common = [q for q in queries[0] if q in queries[1]]
    if not common:
        raise InputValueError("the two judgment sets have no query in common")
    return common


def _restrict(qrels, queries: list) -> pd.DataFrame:
    columns = qrels_columns(qrels)
    frame = pd.DataFrame({"query_id": columns.query.to_numpy(dtype=object),
                          "doc_id": columns.doc.to_numpy(dtype=object),
                          "relevance": columns.value})
    return frame[frame["query_id"].isin(set(queries))].reset_index(drop=True)


def judged_at_k_by_system(runs: Mapping, qrels, k: int = 10, **conventions) -> pd.DataFrame:
    """Judged@k and hole@k of each run: how much of its top k has a judgment.

    Judged@k of a query is the number of its top k docs with a judgment (any grade of
    0 or more; a grade below 0 is trec_eval's "in the pool, not judged") divided by k,
    as in ir_measures' Judged@k: the metric table's ``judged@k``, scored by
    :func:`ragmetrics.evaluate`, so ties and repeated docs follow the same conventions
    as every metric. The mean is over the judged queries (a judged query missing from
    the run has no judged doc: 0).

    Returns
    -------
    pandas.DataFrame
        Index ``system``; columns ``judged@k`` and ``hole@k`` (their sum is 1).

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1, "d2": 0}}
    >>> runs = {"bm25": {"q1": ["d1", "x", "d2", "y"]}}
    >>> judged_at_k_by_system(runs, qrels, k=4)  # doctest: +NORMALIZE_WHITESPACE
            judged@4  hole@4
    system
    bm25         0.5     0.5
    """
    runs = _check_runs(runs)
    k = check_k(k)
    columns = qrels_columns(qrels)
    judged = columns.value >= 0  # negative: in the pool, not judged
    everything = pd.DataFrame({"query_id": columns.query.to_numpy(dtype=object)[judged],
                               "doc_id": columns.doc.to_numpy(dtype=object)[judged],
                               "relevance": np.ones(int(judged.sum()))})
    bare = [*columns.bare_queries,
            *(q for q in dict.fromkeys(columns.query[~judged]) if q not in
              set(everything["query_id"]))]
    if bare:  # queries judged with no doc: in the mean, with nothing judged
        everything = {**{q: set() for q in bare},
                      **{q: set(g["doc_id"]) for q, g in everything.groupby("query_id",
                                                                           sort=False)}}
    name = f"judged@{k}"  # the table's Judged@k: the grades (here 1) do not matter to it
    kept = {key: value for key, value in conventions.items()
            if key not in ("relevance_level", "gain", "empty_relevant")}
    values = [_mean(run, everything, name, kept) for run in runs.values()]
    frame = pd.DataFrame({f"judged@{k}": values}, index=pd.Index(list(runs), name="system"))
    frame[f"hole@{k}"] = 1.0 - frame[f"judged@{k}"]
    return frame

# Old names answer with a DeprecationWarning (ragmetrics._moved.RENAMED); others raise.
__getattr__ = renamed_in(__name__)
