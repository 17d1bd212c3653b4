"""Metrics as curves over the cut-off k, and nDCG taken apart rank by rank (no plotting).

:func:`metric_curves` answers "what if k were 1, 2, ..., 50?" for one query in one pass:
the query is validated once and scanned once for the ranks of its relevant docs; every
metric at every k then comes from running totals over those ranks. It returns arrays
(:class:`MetricCurves`), quick enough for a widget to recompute on every move;
:func:`metrics_over_k` gives the same numbers as a DataFrame, one row per k.
:func:`ndcg_table` lays out the arithmetic of nDCG@k as a table, one row per rank.
Every value they return equals the per-query function's (:mod:`ragmetrics.metrics`) to
the last bit (``tests/test_curves.py`` checks it).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ._validation import check_choice, check_k
from .errors import InputTypeError, InputValueError
from .metrics import _gain, _if_empty, _Judged
from .policies import EMPTY_POLICIES, GAIN_POLICIES
from .registry import METRICS

__all__ = ["MetricCurves", "metric_curves", "metrics_over_k", "ndcg_table"]

_DEFAULT_METRICS = ("recall", "precision", "hit_rate", "mrr", "ndcg")

# The score of each metric for a query with no relevant doc under empty_relevant="article"
# (the article's code: "nothing to find, so nothing missed" for recall and nDCG).
_ARTICLE_VALUE = {
    "recall": 1.0,
    "precision": 0.0,
    "hit_rate": 0.0,
    "mrr": 0.0,
    "ndcg": 1.0,
    "map": 0.0,
    "r_precision": 0.0,
}

# log2(rank + 1) for ranks 1..1024, from math.log2 as the per-query functions do, so the
# discounts agree to the last bit. A tuple, computed once: nothing mutates it later.
_LOG2_RANK_PLUS_1 = tuple(math.log2(rank + 1) for rank in range(1, 1025))


def _log2_rank_plus_1(depth: int) -> tuple[float, ...] | list[float]:
    """``log2(2), log2(3), ..., log2(depth + 1)``: the discounts of ranks 1..depth."""
    if depth <= len(_LOG2_RANK_PLUS_1):
        return _LOG2_RANK_PLUS_1[:depth]
    return [math.log2(rank + 1) for rank in range(1, depth + 1)]


def _check_ks(ks: Any) -> range | tuple[int, ...]:
    """The cut-offs as a range or a tuple of ints: hashable, the key of the cached arrays.

    They must be positive ints, at least one, without repeats.
    """
    if isinstance(ks, range):  # the common case, checked without a loop
        if len(ks) == 0:
            raise InputValueError(f"ks must name at least one cut-off, got the empty {ks!r}")
        if min(ks[0], ks[-1]) < 1:
            bad = next(k for k in ks if k < 1)  # the first bad value, as the loop would say
            raise InputValueError(f"every k in ks must be a positive int (1, 2, ...), got {bad!r}")
        return ks  # its hash is that of (len, start, step): a quick key
    if isinstance(ks, (numbers.Integral, str, bytes)) or not isinstance(ks, Iterable):
        raise InputTypeError(
            f"ks must be an iterable of positive ints such as range(1, 11), got {ks!r}"
        )
    values = list(ks)
    # Plain ints are checked in bulk; anything else (numpy ints, floats, bools) one by one.
    if not all(type(k) is int for k in values) or (values and min(values) < 1):
        values = [check_k(k, name="every k in ks") for k in values]
    if not values:
        raise InputValueError("ks must name at least one cut-off, e.g. range(1, 11); got none")
    if len(set(values)) != len(values):
        repeated = next(k for i, k in enumerate(values) if k in values[:i])
        raise InputValueError(f"ks must not repeat a cut-off; {repeated} appears more than once")
    return tuple(values)


def _check_metric_names(metrics: Any) -> tuple[str, ...]:
    """The metric names as a tuple, each known and none twice."""
    return _checked_metric_names((metrics,) if isinstance(metrics, str) else tuple(metrics))


@functools.lru_cache(maxsize=256)
def _checked_metric_names(names: tuple[str, ...]) -> tuple[str, ...]:
    # Cached: the same few tuples come back on every call (a widget's, the defaults), and
    # checking them costs a microsecond of the 50 a call may take.
    if not names:
        raise InputValueError(f"metrics must name at least one of {', '.join(METRICS)}; got none")
    for name in names:
        if name not in METRICS:
            hint = ""
            if isinstance(name, str) and "@" in name:
                hint = " (write the name without '@k': the cut-offs come from ks)"
            valid = ", ".join(repr(n) for n in METRICS)
            raise InputValueError(f"unknown metric {name!r}{hint}; choose from {valid}")
    if len(set(names)) != len(names):
        repeated = next(n for i, n in enumerate(names) if n in names[:i])
        raise InputValueError(f"metric {repeated!r} is requested twice")
    return names


def _prefix_fsums(terms: list[float]) -> list[float]:
    """``[0, fsum(terms[:1]), fsum(terms[:2]), ...]``: exact running sums, rounded once.

    ``math.fsum`` of each prefix, as the per-query DCG uses; a plain cumulative sum could
    differ in the last bit. Only nonzero terms are passed, so the lists are short.
    """
    return [0.0] + [math.fsum(terms[: i + 1]) for i in range(len(terms))]


@dataclass(frozen=True, eq=False, slots=True)
class MetricCurves:
    """Every metric of one query at many cut-offs k, as read-only numpy arrays.

    What :func:`metric_curves` returns: ``curves[name]`` is one metric's curve, aligned
    with ``curves.ks``; ``curves.at(k)`` is every metric at one cut-off.

    Attributes
    ----------
    ks : numpy.ndarray of int64
        The cut-offs, in the order given.
    names : tuple of str
        The metrics, in the order asked for.
    values : numpy.ndarray of float64, shape (len(names), len(ks))
        One row per metric: ``values[i, j]`` is ``names[i]`` at cut-off ``ks[j]``.

    Examples
    --------
    Relevant docs at ranks 1 and 3: the top 1 finds one of the two, the top 3 both; the
    first hit is at rank 1, so the reciprocal rank is 1 at both cut-offs.

    >>> curves = metric_curves(["a", "x", "b"], {"a", "b"}, [1, 3], metrics=["recall", "mrr"])
    >>> curves.ks, curves.names
    (array([1, 3]), ('recall', 'mrr'))
    >>> curves.values
    array([[0.5, 1. ],
           [1. , 1. ]])
    >>> curves["recall"], curves.at(3)
    (array([0.5, 1. ]), {'recall': 1.0, 'mrr': 1.0})
    """

    ks: np.ndarray
    names: tuple[str, ...]
    values: np.ndarray

    def __getitem__(self, name: str) -> np.ndarray:
        """The curve of metric ``name``: its value at each of :attr:`ks`."""
        try:
            return self.values[self.names.index(name)]
        except ValueError:
            raise KeyError(f"no curve for {name!r}; the curves are {self.names}") from None

    def at(self, k: int) -> dict[str, float]:
        """Every metric at cut-off ``k``, which must be one of :attr:`ks`, as Python floats."""
        k = check_k(k)
        column = np.flatnonzero(self.ks == k)
        if not len(column):
            raise KeyError(f"k={k} is not among the cut-offs {self.ks.tolist()}")
        return dict(zip(self.names, self.values[:, column[0]].tolist(), strict=True))


def metric_curves(
    retrieved: Iterable,
    relevant: Any,
    ks: Iterable[int],
    *,
    metrics: Iterable[str] = _DEFAULT_METRICS,
    gain: str = "linear",
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> MetricCurves:
    r"""Every metric of one query at every cut-off k, as one array per metric.

    How a metric moves with k is the article's "choosing k" lesson in one picture: recall
    can only rise with k, precision usually falls, the reciprocal rank jumps once (at the
    first relevant doc) and then stays. The curve of ``m`` at cut-off ``k`` is exactly
    what the per-query function returns for that ``k``:

    ===============  ======================================================
    curve            per-query function at cut-off ``k``
    ===============  ======================================================
    ``recall``       ``recall_at_k(retrieved, relevant, k)``
    ``precision``    ``precision_at_k(retrieved, relevant, k)``
    ``hit_rate``     ``hit_rate_at_k(retrieved, relevant, k)``
    ``mrr``          ``reciprocal_rank(retrieved, relevant, k)``
    ``ndcg``         ``ndcg_at_k(retrieved, relevant, k)``
    ``map``          ``average_precision(retrieved, relevant, k)``
    ``r_precision``  ``r_precision(retrieved, relevant)`` (no k: constant)
    ===============  ======================================================

    The query is validated once and all cut-offs come from running totals over the
    ranking, e.g. the hits of every k at once:

    .. math:: \mathrm{hits}(k) = \sum_{i=1}^{k} \mathrm{rel}_i, \qquad
              \mathrm{Recall@}k = \frac{\mathrm{hits}(k)}{R}, \qquad
              \mathrm{Precision@}k = \frac{\mathrm{hits}(k)}{k}

    This is the quick path the widgets call on every move (all default metrics at
    k = 1..50 in tens of microseconds); :func:`metrics_over_k` gives the same numbers as
    a DataFrame.

    Parameters
    ----------
    retrieved : iterable of ids
        The ranking, best first.
    relevant : set of ids or mapping id -> grade
        The golden set, as in :func:`ragmetrics.recall_at_k`.
    ks : iterable of int
        The cut-offs, positive ints without repeats, e.g. ``range(1, 26)``. They may
        exceed the ranking's length (the ranking is scored as it is).
    metrics : sequence of str, default ("recall", "precision", "hit_rate", "mrr", "ndcg")
        Names from :data:`ragmetrics.METRICS` (without ``@k``), in the order wanted.
    gain, relevance_level, empty_relevant, duplicates
        The conventions of :mod:`ragmetrics.policies`, as in the per-query functions.

    Returns
    -------
    MetricCurves
        ``.ks`` (the cut-offs, in the order given), ``.names`` (the metrics), and
        ``curves[name]``, one float array per metric aligned with ``.ks``.

    Examples
    --------
    The article's refund-policy query: relevant chunks at ranks 1, 3 and 5.

    >>> curves = metric_curves(["A", "B", "C", "D", "E"], {"A", "C", "E"}, range(1, 6))
    >>> curves.ks
    array([1, 2, 3, 4, 5])
    >>> curves["recall"].round(3)
    array([0.333, 0.333, 0.667, 0.667, 1.   ])
    >>> curves["precision"].round(3)
    array([1.   , 0.5  , 0.667, 0.5  , 0.6  ])

    Recall climbs at each relevant rank (1, 3, 5); precision dips at each miss (2, 4).
    One cut-off, every metric, equal to the per-query functions:

    >>> {name: round(value, 3) for name, value in curves.at(5).items()}
    {'recall': 1.0, 'precision': 0.6, 'hit_rate': 1.0, 'mrr': 1.0, 'ndcg': 0.885}
    >>> from ragmetrics import ndcg_at_k
    >>> curves.at(5)["ndcg"] == ndcg_at_k(["A", "B", "C", "D", "E"], {"A", "C", "E"}, 5)
    True
    """
    cut_offs, names = _cut_offs(_check_ks(ks)), _check_metric_names(metrics)
    values = _score(retrieved, relevant, cut_offs, names, gain, relevance_level,
                    empty_relevant, duplicates)
    values.flags.writeable = False  # frozen, as MetricCurves is
    return MetricCurves(cut_offs.ks, names, values)


def metrics_over_k(
    retrieved: Iterable,
    relevant: Any,
    ks: Iterable[int],
    *,
    metrics: Iterable[str] = _DEFAULT_METRICS,
    gain: str = "linear",
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> pd.DataFrame:
    r"""Every metric of one query at every cut-off k: one row per k, one column per metric.

    The numbers of :func:`metric_curves` (which explains them), laid out as a table: the
    column for ``m`` at row ``k`` is exactly what the per-query function of ``m`` returns
    for that ``k``, e.g. for recall and precision

    .. math:: \mathrm{Recall@}k = \frac{\mathrm{hits}(k)}{R}, \qquad
              \mathrm{Precision@}k = \frac{\mathrm{hits}(k)}{k}

    where :math:`\mathrm{hits}(k)` counts the relevant docs in the top k and :math:`R`
    all relevant docs.

    Parameters
    ----------
    retrieved, relevant, ks, metrics, gain, relevance_level, empty_relevant, duplicates
        As in :func:`metric_curves`; ``metrics`` gives the column order.

    Returns
    -------
    pandas.DataFrame
        Index ``k`` (the ks, in the order given), one float column per metric.

    Examples
    --------
    The article's refund-policy query: relevant chunks at ranks 1, 3 and 5.

    >>> curves = metrics_over_k(["A", "B", "C", "D", "E"], {"A", "C", "E"}, range(1, 6))
    >>> curves.round(3)  # doctest: +NORMALIZE_WHITESPACE
       recall  precision  hit_rate  mrr   ndcg
    k
    1   0.333      1.000       1.0  1.0  1.000
    2   0.333      0.500       1.0  1.0  0.613
    3   0.667      0.667       1.0  1.0  0.704
    4   0.667      0.500       1.0  1.0  0.704
    5   1.000      0.600       1.0  1.0  0.885

    Recall climbs at each relevant rank; precision dips at each miss. The values are
    those of the per-query functions:

    >>> from ragmetrics import ndcg_at_k
    >>> bool(curves.loc[5, "ndcg"] == ndcg_at_k(["A", "B", "C", "D", "E"], {"A", "C", "E"}, 5))
    True
    """
    ks_key, names = _check_ks(ks), _check_metric_names(metrics)
    values = _score(retrieved, relevant, _cut_offs(ks_key), names, gain, relevance_level,
                    empty_relevant, duplicates)
    # values is ours and holds one row per metric: its transpose is the frame's block as
    # is (copy=False). Building an Index costs more than all the arithmetic, so both are
    # cached; each frame gets a view, so that renaming one frame's index
    # (``df.index.name = ...``) cannot rename the cached one.
    return pd.DataFrame(
        values.T, index=_ks_index(ks_key).view(),
        columns=_column_index(names).view(), copy=False,
    )


@functools.lru_cache(maxsize=256)
def _column_index(names: tuple[str, ...]) -> pd.Index:
    return pd.Index(list(names))


class _CutOffs(NamedTuple):
    ks: np.ndarray  # int64, read-only: shared between calls
    max_k: int


@functools.lru_cache(maxsize=256)
def _cut_offs(ks: range | tuple[int, ...]) -> _CutOffs:
    """The checked cut-offs as an array, and the largest (cached)."""
    ks_array = np.array(ks, dtype=np.int64)
    ks_array.flags.writeable = False
    return _CutOffs(ks_array, max(ks))


@functools.lru_cache(maxsize=256)
def _ks_index(ks: range | tuple[int, ...]) -> pd.Index:
    """The cut-offs as the frame's index, named "k" (cached)."""
    return pd.Index(_cut_offs(ks).ks, name="k")


def _score(retrieved, relevant, cut_offs: _CutOffs, names: tuple[str, ...], gain: str,
           relevance_level, empty_relevant: str, duplicates: str) -> np.ndarray:
    """Validate the options and the query; one row per metric, one column per k.

    ``cut_offs`` and ``names`` are checked already. The checks run in the order of the
    signature, so the first bad argument is the one named.
    """
    check_choice(gain, GAIN_POLICIES, "gain")
    check_choice(empty_relevant, EMPTY_POLICIES, "empty_relevant")
    query = _Judged(retrieved, relevant, relevance_level, duplicates)
    if "ndcg" in names:
        query.check_gains(gain)
    return _curve_values(query, *cut_offs, names, gain, empty_relevant)


def _count_up_to(ranks: list[int], ks: np.ndarray) -> np.ndarray:
    """For each k, how many of the sorted ``ranks`` are <= k (one binary search per k)."""
    return np.array(ranks, dtype=np.int64).searchsorted(ks, side="right")


def _curve_values(query: _Judged, ks: np.ndarray, max_k: int, names: tuple[str, ...],
                  gain: str, empty_relevant: str) -> np.ndarray:
    """The curve of ``names[i]``, aligned with ``ks``, in row ``i`` of a new float array.

    Every metric here changes value only at the ranks of relevant docs (nDCG: of docs
    with a gain). So the ranking is scanned once, in Python (it is short), for those
    ranks, and each cut-off k finds how many of them it covers, hits@k, with one binary
    search. Most metrics are a function of that count alone: each is tabulated for
    0, 1, ..., H hits (a handful of numbers) and the whole table is read at hits@k for
    every k in one step. Precision then divides by k, and nDCG by the ideal DCG at k.
    So there are a few numpy calls, each on a whole array, and no Python loop over the
    ks: at 50 cut-offs a numpy call costs about a microsecond, whatever its size.
    """
    if not query.relevant_ids:
        return _curves_without_relevant_docs(query, ks, max_k, names, gain, empty_relevant)
    hit_ranks = [rank for rank, doc in enumerate(query.ranking[:max_k], 1)
                 if doc in query.relevant_ids]
    table = [_by_hit_count(name, query, hit_ranks, max_k, gain) for name in names]
    values = np.array(table).take(_count_up_to(hit_ranks, ks), axis=1)
    if "precision" in names:
        precision = values[names.index("precision")]
        np.divide(precision, ks, out=precision)
    if "ndcg" in names:
        _finish_ndcg_curve(values[names.index("ndcg")], query, ks, max_k, gain)
    return values


def _by_hit_count(name: str, query: _Judged, hit_ranks: list[int], max_k: int,
                  gain: str) -> list[float]:
    """Metric ``name`` when the top k holds 0, 1, ..., H of the H ``hit_ranks``.

    Precision's entries are the count itself, to be divided by k; nDCG's are DCG, to be
    divided by the ideal DCG at k. Each entry is computed as the per-query function
    computes it, so the bits agree.
    """
    counts = range(len(hit_ranks) + 1)
    n_relevant = len(query.relevant_ids)
    if name == "recall":
        return [h / n_relevant for h in counts]
    if name == "precision":
        return list(map(float, counts))  # exact, so float(h) / k rounds once, as h / k does
    if name == "hit_rate":
        return [0.0] + [1.0] * len(hit_ranks)
    if name == "mrr":  # only the first hit counts
        return ([0.0] + [1.0 / hit_ranks[0]] * len(hit_ranks)) if hit_ranks else [0.0]
    if name == "ndcg":
        return _dcg_by_count(query, hit_ranks, max_k, gain)
    if name == "map":
        # Precision at the i-th hit is i / its rank; summed left to right, as
        # average_precision's loop does.
        precision_at_hits = [i / rank for i, rank in enumerate(hit_ranks, 1)]
        return [total / n_relevant for total in accumulate(precision_at_hits, initial=0.0)]
    if name == "r_precision":
        # The top R, which may reach past the largest k: the same at every k.
        found = sum(doc in query.relevant_ids for doc in query.ranking[:n_relevant])
        return [found / n_relevant] * len(counts)
    raise AssertionError(name)  # pragma: no cover - _check_metric_names lets only known names


def _curves_without_relevant_docs(query: _Judged, ks: np.ndarray, max_k: int,
                                  names: tuple[str, ...], gain: str,
                                  empty_relevant: str) -> np.ndarray:
    """The curves of a query with no relevant doc: the ``empty_relevant`` policy's value.

    Under "zero" nDCG is still computed from the grades, which ignore relevance_level (as
    :func:`ragmetrics.ndcg_at_k` does): a doc graded below the level still gains.
    """
    values = np.empty((len(names), len(ks)))
    for name, row in zip(names, values, strict=True):
        if name == "ndcg" and empty_relevant == "zero":
            row.fill(0.0)  # the DCG of no hit; _finish_ndcg_curve adds the other gains
            _finish_ndcg_curve(row, query, ks, max_k, gain)
        else:
            row.fill(_if_empty(query, empty_relevant, article_value=_ARTICLE_VALUE[name]))
    return values


def _dcg_by_count(query: _Judged, ranks: list[int], max_k: int, gain: str) -> list[float]:
    """DCG of a top k that holds the first 0, 1, ..., len(ranks) docs of ``ranks``.

    Each prefix is summed with :func:`math.fsum`, as :func:`ragmetrics.dcg_at_k` sums.
    """
    discounts = _log2_rank_plus_1(max_k)
    grades, ranking = query.grades, query.ranking
    return _prefix_fsums([_gain(grades[ranking[r - 1]], gain) / discounts[r - 1] for r in ranks])


def _finish_ndcg_curve(row: np.ndarray, query: _Judged, ks: np.ndarray, max_k: int,
                       gain: str) -> None:
    r"""Turn ``row``, DCG@k read at the hits, into nDCG@k in place.

    .. math:: \mathrm{nDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}

    The ideal ranks every doc with a gain, best first; its DCG is tabulated for depths
    0, 1, ..., L (L docs with a gain) and read at min(k, L).
    """
    positive = [g for g in query.grades.values() if g > 0]
    if not positive:  # no gain anywhere: DCG = IDCG = 0, and nDCG is 0 by definition
        return
    if len(positive) != len(query.relevant_ids):
        # Some docs graded below relevance_level still gain (as in trec_eval): DCG also
        # changes at their ranks, not only at the hits. (Relevant docs all have a gain,
        # so equal counts mean the same docs.)
        gain_ranks = [r for r, doc in enumerate(query.ranking[:max_k], 1)
                      if query.grades.get(doc, 0) > 0]
        dcg = np.array(_dcg_by_count(query, gain_ranks, max_k, gain))
        dcg.take(_count_up_to(gain_ranks, ks), out=row)
    ideal = sorted(positive, reverse=True)[:max_k]
    discounts = _log2_rank_plus_1(len(ideal))
    ideal_terms = [_gain(g, gain) / d for g, d in zip(ideal, discounts, strict=True)]
    idcg = np.array(_prefix_fsums(ideal_terms)).take(ks, mode="clip")  # at min(k, L)
    np.divide(row, idcg, out=row)  # IDCG > 0 at every k >= 1: the best gain is positive


def ndcg_table(
    retrieved: Iterable,
    relevant: Any,
    k: int,
    *,
    gain: str = "linear",
    duplicates: str = "error",
) -> pd.DataFrame:
    r"""nDCG@k taken apart: one row per rank, with the gain, the discount and the ideal.

    .. math:: \mathrm{DCG@}k = \sum_{i=1}^{k} \frac{g(\mathrm{rel}_i)}{\log_2(i + 1)},
              \qquad \mathrm{nDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}

    The ``discounted_gain`` column sums to DCG@k. The ideal columns rank *every judged
    relevant doc*, retrieved or not, by gain, best first; ``ideal_discounted_gain`` sums
    to IDCG@k. When ``k`` exceeds the ranking, the extra rows are empty slots
    (``doc_id`` None, gain 0) that still hold an ideal gain: a short ranking is penalised.

    Parameters
    ----------
    retrieved, relevant, k, gain, duplicates
        As in :func:`ragmetrics.ndcg_at_k`.

    Returns
    -------
    pandas.DataFrame
        Index ``rank`` (1..k); columns ``doc_id``, ``grade`` (0 for unjudged docs and empty
        slots), ``gain``, ``discount`` (:math:`\log_2(\mathrm{rank}+1)`),
        ``discounted_gain``, ``ideal_gain``, ``ideal_discounted_gain``. The totals are in
        ``.attrs["dcg"]``, ``.attrs["idcg"]`` and ``.attrs["ndcg"]``, equal to
        :func:`ragmetrics.dcg_at_k` and :func:`ragmetrics.ndcg_at_k`.

    Examples
    --------
    The article's refund-policy query: chunks A, C and E are relevant.

    >>> table = ndcg_table(["A", "B", "C", "D", "E"], {"A", "C", "E"}, 5)
    >>> columns = ["doc_id", "gain", "discount", "discounted_gain", "ideal_discounted_gain"]
    >>> table[columns].round(3)  # doctest: +NORMALIZE_WHITESPACE
         doc_id  gain  discount  discounted_gain  ideal_discounted_gain
    rank
    1         A   1.0     1.000            1.000                  1.000
    2         B   0.0     1.585            0.000                  0.631
    3         C   1.0     2.000            0.500                  0.500
    4         D   0.0     2.322            0.000                  0.000
    5         E   1.0     2.585            0.387                  0.000

    Rank 2 is the lost ground: the ideal puts a relevant chunk there, worth 0.631.

    >>> {name: round(value, 4) for name, value in table.attrs.items()}
    {'dcg': 1.8869, 'idcg': 2.1309, 'ndcg': 0.8855}
    """
    k = check_k(k)
    check_choice(gain, GAIN_POLICIES, "gain")
    query = _Judged(retrieved, relevant, 1, duplicates)
    query.check_gains(gain)
    discounts = _log2_rank_plus_1(k)
    doc_ids = query.ranking[:k] + [None] * max(0, k - len(query.ranking))
    grades = [0.0 if doc is None else query.grades.get(doc, 0.0) for doc in doc_ids]
    gains = [_gain(g, gain) for g in grades]
    discounted = [g / d for g, d in zip(gains, discounts, strict=True)]
    ideal = sorted((_gain(g, gain) for g in query.grades.values()), reverse=True)[:k]
    ideal += [0.0] * (k - len(ideal))
    ideal_discounted = [g / d for g, d in zip(ideal, discounts, strict=True)]

    table = pd.DataFrame(
        {
            "doc_id": pd.Series(doc_ids, dtype=object),
            "grade": grades,
            "gain": gains,
            "discount": discounts,
            "discounted_gain": discounted,
            "ideal_gain": ideal,
            "ideal_discounted_gain": ideal_discounted,
        },
    )
    table.index = pd.RangeIndex(1, k + 1, name="rank")
    dcg, idcg = math.fsum(discounted), math.fsum(ideal_discounted)
    table.attrs.update(dcg=dcg, idcg=idcg, ndcg=dcg / idcg if idcg > 0 else 0.0)
    return table
