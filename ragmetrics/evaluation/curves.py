"""One query's metrics as curves over the cut-off k.

:func:`metric_curves` answers "what if k were 1, 2, ..., 50?" for one query: the query
is validated once, laid out as ranked judgments once per cut-off, and every metric
comes from its kernel in the metric table (:mod:`ragmetrics.metrics`), as in
:func:`ragmetrics.evaluate`: no second implementation of any metric. It returns arrays
(:class:`MetricCurves`), quick enough for a widget to recompute on every move;
:func:`metrics_over_k` gives the same numbers as a DataFrame, one row per k. Every value
equals the per-query function's (:mod:`ragmetrics.metrics.reference`) to 1e-12
(``tests/unit/evaluation/test_curves.py`` checks it).
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..conventions import DUPLICATE_POLICIES, EMPTY_POLICIES, GAIN_POLICIES
from ..errors import InputTypeError, InputValueError
from ..metrics.ranked import Qrels, RankedJudgments, ranks_within
from ..metrics.registry import METRICS, MetricSpec, metric_info
from ..metrics.scoring import score
from ..validation import (
    as_query,
    check_choice,
    check_k,
    check_relevance_level,
    check_total_gain,
    no_relevant_doc,
)
from .engine import gains

__all__ = ["CURVE_METRICS", "MetricCurves", "metric_curves", "metrics_over_k",
           "one_query_ranked"]

_DEFAULT_METRICS = ("recall", "precision", "hit_rate", "rr", "ndcg")
#: The metrics the curves draw over k: those of the metric table marked ``curves``.
CURVE_METRICS = tuple(name for name, info in METRICS.items() if info.curves)

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
    # Cached: the same few tuples come back on every call (a widget's, the defaults).
    if not names:
        raise InputValueError(f"metrics must name at least one of {', '.join(CURVE_METRICS)}; "
                              "got none")
    canonical = []
    for name in names:
        try:
            info = metric_info(name)
        except InputValueError:
            info = None
        if info is None or not info.curves:
            hint = ""
            if isinstance(name, str) and "@" in name:
                hint = " (write the name without '@k': the cut-offs come from ks)"
            elif info is not None:
                hint = " (not a metric of a ranking cut at k: score it with evaluate)"
            valid = ", ".join(repr(n) for n in CURVE_METRICS)
            raise InputValueError(f"unknown metric {name!r}{hint}; choose from {valid}") from None
        canonical.append(info.name)
    if len(set(canonical)) != len(canonical):
        repeated = next(n for i, n in enumerate(names) if canonical[i] in canonical[:i])
        raise InputValueError(f"metric {repeated!r} is requested twice")
    return names


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
    ``rr``           ``reciprocal_rank(retrieved, relevant, k)``
    ``ndcg``         ``ndcg_at_k(retrieved, relevant, k)``
    ``ap``           ``average_precision(retrieved, relevant, k)``
    ``dcg``          ``dcg_at_k(retrieved, relevant, k)``
    ``r_precision``  ``r_precision(retrieved, relevant)`` (no k: constant)
    ===============  ======================================================

    The query is validated once and all cut-offs come from running totals over the
    ranking, e.g. the hits of every k at once:

    .. math:: \mathrm{hits}(k) = \sum_{i=1}^{k} \mathrm{rel}_i, \qquad
              \mathrm{Recall@}k = \frac{\mathrm{hits}(k)}{R}, \qquad
              \mathrm{Precision@}k = \frac{\mathrm{hits}(k)}{k}

    This is what the widgets call on every move (timings: ``benchmarks/README.md``);
    :func:`metrics_over_k` gives the same numbers as a DataFrame.

    Parameters
    ----------
    retrieved : iterable of ids
        The ranking, best first.
    relevant : set of ids or mapping id -> grade
        The golden set, as in :func:`ragmetrics.recall_at_k`.
    ks : iterable of int
        The cut-offs, positive ints without repeats, e.g. ``range(1, 26)``. They may
        exceed the ranking's length (the ranking is scored as it is).
    metrics : sequence of str, default ("recall", "precision", "hit_rate", "rr", "ndcg")
        Names from :data:`ragmetrics.METRICS` or their aliases (without ``@k``), in the
        order wanted; the curves keep the names as given.
    gain, relevance_level, empty_relevant, duplicates
        The conventions of :mod:`ragmetrics.conventions`, as in the per-query functions.

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
    {'recall': 1.0, 'precision': 0.6, 'hit_rate': 1.0, 'rr': 1.0, 'ndcg': 0.885}
    >>> from ragmetrics import ndcg_at_k
    >>> curves.at(5)["ndcg"] == ndcg_at_k(["A", "B", "C", "D", "E"], {"A", "C", "E"}, 5)
    True
    """
    cut_offs, names = _cut_offs(_check_ks(ks)), _check_metric_names(metrics)
    values = _score(retrieved, relevant, cut_offs, names, gain=gain,
                    relevance_level=relevance_level, empty_relevant=empty_relevant,
                    duplicates=duplicates)
    values.flags.writeable = False  # frozen, as MetricCurves is
    return MetricCurves(cut_offs.ks, names, values)


def metrics_over_k(retrieved: Iterable, relevant: Any, ks: Iterable[int], *,
                   metrics: Iterable[str] = _DEFAULT_METRICS, **conventions) -> pd.DataFrame:
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
    retrieved, relevant, ks, metrics
        As in :func:`metric_curves`; ``metrics`` gives the column order.
    **conventions
        ``gain``, ``relevance_level``, ``empty_relevant``, ``duplicates``: as in
        :func:`metric_curves`, with the same defaults (its keywords, passed on).

    Returns
    -------
    pandas.DataFrame
        Index ``k`` (the ks, in the order given), one float column per metric.

    Examples
    --------
    The article's refund-policy query: relevant chunks at ranks 1, 3 and 5.

    >>> curves = metrics_over_k(["A", "B", "C", "D", "E"], {"A", "C", "E"}, range(1, 6))
    >>> curves.round(3)  # doctest: +NORMALIZE_WHITESPACE
       recall  precision  hit_rate   rr   ndcg
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
    unknown = [name for name in conventions if name not in _CONVENTIONS]
    if unknown:
        raise InputTypeError(f"metrics_over_k() got an unexpected keyword argument "
                             f"{unknown[0]!r}; its conventions are {', '.join(_CONVENTIONS)}")
    values = _score(retrieved, relevant, _cut_offs(ks_key), names, **conventions)
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


#: The conventions the curves take (:func:`metric_curves`' keywords after ``metrics``).
_CONVENTIONS = ("gain", "relevance_level", "empty_relevant", "duplicates")


def _score(retrieved, relevant, cut_offs: _CutOffs, names: tuple[str, ...], *,
           gain: str = "linear", relevance_level: float = 1, empty_relevant: str = "zero",
           duplicates: str = "error") -> np.ndarray:
    """Validate the options and the query; one row per metric, one column per k (the
    defaults are :func:`metric_curves`').

    ``cut_offs`` and ``names`` are checked already. The checks run in the order of the
    signature, so the first bad argument is the one named.
    """
    check_choice(gain, GAIN_POLICIES, "gain")
    level = check_relevance_level(relevance_level)
    check_choice(empty_relevant, EMPTY_POLICIES, "empty_relevant")
    check_choice(duplicates, DUPLICATE_POLICIES, "duplicates")
    ranking, grades = as_query(retrieved, relevant, duplicates=duplicates)
    if empty_relevant == "error" and not any(g >= level for g in grades.values()):
        raise no_relevant_doc(grades, level)
    specs = [MetricSpec(metric_info(name).name, cut_offs.ks) for name in names]
    if any(spec.info.uses_gains for spec in specs):
        check_total_gain(grades.values(), gain)
    depth = cut_offs.max_k
    if any(spec.info.read_depth == "num_relevant" for spec in specs):  # R-precision reads R
        depth = max(depth, sum(g >= level for g in grades.values()))
    top = ranking[:depth]
    ranked = one_query_ranked(
        np.array([grades.get(doc, 0.0) for doc in top], dtype=np.float64),
        np.fromiter((doc in grades for doc in top), bool, len(top)),
        np.fromiter(grades.values(), np.float64, len(grades)),
        np.full(len(cut_offs.ks), len(top)), gain=gain, level=level)
    return np.array(score(ranked, specs, empty_relevant=empty_relevant)).reshape(
        len(names), len(cut_offs.ks))


def one_query_ranked(row_grades: np.ndarray, row_judged: np.ndarray, judged: np.ndarray,
                     lengths, *, gain: str, level: float, label_order: bool = False
                     ) -> RankedJudgments:
    """One query laid out once per entry of ``lengths``, as ranked judgments: copy ``j``
    holds the first ``lengths[j]`` ranked docs, so that one call of a kernel scores every
    copy (the kernels take one cut-off per query, or one for all).

    The curves over k give every copy the whole ranking and copy ``j`` the ``j``-th
    cut-off; the rank-by-rank view (:mod:`ragmetrics.evaluation.query_view`) gives copy
    ``j`` the top ``j`` docs and every copy the metric's own cut-off.

    Parameters
    ----------
    row_grades : numpy.ndarray of float
        The grade of each ranked doc, best first: its judgment, 0 for an unjudged doc.
    row_judged : numpy.ndarray of bool
        Whether each ranked doc is judged at all (any grade, below 0 included).
    judged : numpy.ndarray of float
        Every grade the query's judgments give, retrieved or not, in the order listed.
    lengths : sequence of int
        How many of the ranked docs each copy holds.
    gain, level
        The gain rule and the relevance level (:mod:`ragmetrics.conventions`).
    label_order : bool, default False
        Spark's ideal (``ideal_order="label_order"``): the relevant judgments in the order
        listed, and only relevant docs gain; else every judged doc with a gain, best first.

    Examples
    --------
    >>> r = one_query_ranked(np.array([0.0, 1.0]), np.array([False, True]), np.array([1.0]),
    ...                      [0, 1, 2], gain="linear", level=1)
    >>> r.query.tolist(), r.grade.tolist(), r.num_relevant.tolist()
    ([1, 2, 2], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0])
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    copies = len(lengths)
    rows = ranks_within(lengths)  # each copy's rows: 0 .. length - 1
    row_gains = gains(row_grades, gain)
    ideal_gains = gains(judged, gain)
    if label_order:  # Spark: only its labels (the relevant judgments) gain, as listed
        row_gains = np.where(row_grades >= level, row_gains, 0.0)
        best_first = np.flatnonzero(judged >= level)
    else:
        best_first = np.argsort(-ideal_gains, kind="stable")
        best_first = best_first[ideal_gains[best_first] > 0]
    num_relevant = np.full(copies, float((judged >= level).sum()))

    def repeated(values: np.ndarray) -> np.ndarray:  # the values once per copy, in a row
        return np.broadcast_to(values, (copies, len(values))).reshape(-1)

    def per_copy(length: int) -> np.ndarray:  # the copy of each row of a whole list
        return np.repeat(np.arange(copies), length)

    ideal = RankedJudgments(
        copies, query=per_copy(len(best_first)), grade=repeated(judged[best_first]),
        gain=repeated(ideal_gains[best_first]), num_relevant=num_relevant,
        relevance_level=level)
    return RankedJudgments(
        copies, query=np.repeat(np.arange(copies), lengths), grade=row_grades[rows],
        gain=row_gains[rows], num_relevant=num_relevant, relevance_level=level,
        ideal=ideal, judged=row_judged[rows],
        qrels=Qrels(per_copy(len(judged)), repeated(judged)), gain_rule=gain)
