"""Metrics as curves over the cut-off k, and nDCG taken apart rank by rank (no plotting).

:func:`metrics_over_k` answers "what if k were 1, 2, ..., 50?" for one query in one pass:
the query is validated once and scanned once for the ranks of its relevant docs; every
metric at every k then comes from running totals over those ranks. :func:`ndcg_table` lays out the arithmetic of nDCG@k as a table, one row per rank.
Both return values equal to the per-query functions of :mod:`ragmetrics.metrics`, to the
last bit (``tests/test_curves.py`` checks it).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Iterable
from itertools import accumulate
from typing import Any

import numpy as np
import pandas as pd

from ._validation import check_choice, check_k
from .metrics import _gain, _if_empty, _Judged
from .policies import EMPTY_POLICIES, GAIN_POLICIES
from .registry import METRICS

__all__ = ["metrics_over_k", "ndcg_table"]

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


def _check_ks(ks: Any) -> tuple[np.ndarray, pd.Index]:
    """The cut-offs as an int64 array and as the frame's index ``k``.

    They must be positive ints, at least one, without repeats.
    """
    if isinstance(ks, range):  # the common case, checked without a loop
        if len(ks) == 0:
            raise ValueError(f"ks must name at least one cut-off, got the empty {ks!r}")
        if min(ks[0], ks[-1]) < 1:
            bad = next(k for k in ks if k < 1)  # the first bad value, as the loop would say
            raise ValueError(f"every k in ks must be a positive int (1, 2, ...), got {bad!r}")
        return _ks_index(tuple(ks))
    if isinstance(ks, (numbers.Integral, str, bytes)) or not isinstance(ks, Iterable):
        raise TypeError(
            f"ks must be an iterable of positive ints such as range(1, 11), got {ks!r}"
        )
    values = list(ks)
    # Plain ints are checked in bulk; anything else (numpy ints, floats, bools) one by one.
    if not all(type(k) is int for k in values) or (values and min(values) < 1):
        values = [check_k(k, name="every k in ks") for k in values]
    if not values:
        raise ValueError("ks must name at least one cut-off, e.g. range(1, 11); got none")
    if len(set(values)) != len(values):
        repeated = next(k for i, k in enumerate(values) if k in values[:i])
        raise ValueError(f"ks must not repeat a cut-off; {repeated} appears more than once")
    return _ks_index(tuple(values))


def _check_metric_names(metrics: Any) -> tuple[str, ...]:
    names = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    if not names:
        raise ValueError(f"metrics must name at least one of {', '.join(METRICS)}; got none")
    for name in names:
        if name not in METRICS:
            hint = ""
            if isinstance(name, str) and "@" in name:
                hint = " (write the name without '@k': the cut-offs come from ks)"
            valid = ", ".join(repr(n) for n in METRICS)
            raise ValueError(f"unknown metric {name!r}{hint}; choose from {valid}")
    if len(set(names)) != len(names):
        repeated = next(n for i, n in enumerate(names) if n in names[:i])
        raise ValueError(f"metric {repeated!r} is requested twice")
    return names


def _prefix_fsums(terms: list[float]) -> list[float]:
    """``[0, fsum(terms[:1]), fsum(terms[:2]), ...]``: exact running sums, rounded once.

    ``math.fsum`` of each prefix, as the per-query DCG uses; a plain cumulative sum could
    differ in the last bit. Only nonzero terms are passed, so the lists are short.
    """
    return [0.0] + [math.fsum(terms[: i + 1]) for i in range(len(terms))]


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

    How a metric moves with k is the article's "choosing k" lesson in one picture: recall
    can only rise with k, precision usually falls, the reciprocal rank jumps once (at the
    first relevant doc) and then stays. The column for ``m`` at row ``k`` is exactly what
    the per-query function returns for that ``k``:

    ===============  ======================================================
    column           per-query function at row ``k``
    ===============  ======================================================
    ``recall``       ``recall_at_k(retrieved, relevant, k)``
    ``precision``    ``precision_at_k(retrieved, relevant, k)``
    ``hit_rate``     ``hit_rate_at_k(retrieved, relevant, k)``
    ``mrr``          ``reciprocal_rank(retrieved, relevant, k)``
    ``ndcg``         ``ndcg_at_k(retrieved, relevant, k)``
    ``map``          ``average_precision(retrieved, relevant, k)``
    ``r_precision``  ``r_precision(retrieved, relevant)`` (no k: constant)
    ===============  ======================================================

    The query is validated once and all cut-offs come from cumulative sums over the
    ranking, e.g. the hits of every k at once:

    .. math:: \mathrm{hits}(k) = \sum_{i=1}^{k} \mathrm{rel}_i, \qquad
              \mathrm{Recall@}k = \frac{\mathrm{hits}(k)}{R}, \qquad
              \mathrm{Precision@}k = \frac{\mathrm{hits}(k)}{k}

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
        Names from :data:`ragmetrics.METRICS` (without ``@k``); the column order.
    gain, relevance_level, empty_relevant, duplicates
        The conventions of :mod:`ragmetrics.policies`, as in the per-query functions.

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
    ks_array, k_index = _check_ks(ks)
    names = _check_metric_names(metrics)
    check_choice(gain, GAIN_POLICIES, "gain")
    check_choice(empty_relevant, EMPTY_POLICIES, "empty_relevant")
    query = _Judged(retrieved, relevant, relevance_level, duplicates)
    values = np.empty((len(ks_array), len(names)))
    for column, curve in enumerate(_curves(query, ks_array, names, gain, empty_relevant)):
        values[:, column] = curve
    # copy=False: the array is ours. Building an Index costs more than all the arithmetic
    # above, so both are cached; each frame gets a view, so that renaming one frame's
    # index (``df.index.name = ...``) cannot rename the cached one.
    return pd.DataFrame(
        values, index=k_index.view(), columns=_column_index(names).view(), copy=False
    )


@functools.lru_cache(maxsize=256)
def _column_index(names: tuple[str, ...]) -> pd.Index:
    return pd.Index(list(names))


@functools.lru_cache(maxsize=256)
def _ks_index(ks: tuple[int, ...]) -> tuple[np.ndarray, pd.Index]:
    """The cut-offs as a read-only int64 array and as an Index named "k" (cached)."""
    ks_array = np.array(ks, dtype=np.int64)
    ks_array.flags.writeable = False  # shared between calls
    return ks_array, pd.Index(ks_array, name="k")


def _curves(query: _Judged, ks: np.ndarray, names: tuple[str, ...], gain: str,
            empty_relevant: str):
    """Yield one float array per metric name, aligned with ``ks``.

    Every metric here changes value only at the ranks of relevant docs (nDCG: of docs
    with a gain). So the ranking is scanned once, in Python (it is short), for those
    ranks; each cut-off k then finds how many of them it covers with one binary search,
    and reads a running total at that count.
    """
    relevant_ids = query.relevant_ids
    n_relevant = len(relevant_ids)
    max_k = int(ks.max())
    hit_ranks = [rank for rank, doc in enumerate(query.ranking[:max_k], 1) if doc in relevant_ids]
    hits = np.array(hit_ranks, dtype=np.int64).searchsorted(ks, side="right")  # hits@k

    for name in names:
        if not n_relevant and not (name == "ndcg" and empty_relevant == "zero"):
            # No relevant doc: the policy's value at every k. Under "zero" nDCG is still
            # computed from the grades, which ignore relevance_level (as ndcg_at_k does).
            value = _if_empty(query, empty_relevant, article_value=_ARTICLE_VALUE[name])
            yield np.full(len(ks), value)
        elif name == "recall":
            yield hits / n_relevant
        elif name == "precision":
            yield hits / ks
        elif name == "hit_rate":
            yield (hits > 0).astype(np.float64)
        elif name == "mrr":
            first = hit_ranks[0] if hit_ranks else max_k + 1
            yield np.where(ks >= first, 1.0 / first, 0.0)
        elif name == "map":
            # Precision at the i-th hit is i / its rank; summed left to right, as
            # average_precision's loop does, so the bits agree.
            precision_at_hits = [i / rank for i, rank in enumerate(hit_ranks, 1)]
            totals = np.array(list(accumulate(precision_at_hits, initial=0.0)))
            yield totals[hits] / n_relevant
        elif name == "r_precision":
            # The top R, which may reach past the largest k.
            found = sum(doc in relevant_ids for doc in query.ranking[:n_relevant])
            yield np.full(len(ks), found / n_relevant)
        elif name == "ndcg":
            yield _ndcg_curve(query, ks, max_k, hit_ranks, hits, gain)
        else:  # pragma: no cover - _check_metric_names lets only known names through
            raise AssertionError(name)


def _ndcg_curve(query: _Judged, ks: np.ndarray, max_k: int, hit_ranks: list[int],
                hits: np.ndarray, gain: str) -> np.ndarray:
    grades = query.grades
    ranking = query.ranking
    positive = [g for g in grades.values() if g > 0]
    if not positive:  # no gain anywhere: IDCG = 0, and nDCG is 0 by definition
        return np.zeros(len(ks))
    discounts = _log2_rank_plus_1(max_k)
    if len(positive) == len(query.relevant_ids):
        # Every doc with a gain is relevant (the usual case): reuse the hit ranks.
        gain_ranks, covered = hit_ranks, hits
    else:  # some grades are below relevance_level but still gain (as in trec_eval)
        gain_ranks = [r for r, doc in enumerate(ranking[:max_k], 1) if grades.get(doc, 0) > 0]
        covered = np.array(gain_ranks, dtype=np.int64).searchsorted(ks, side="right")
    terms = [_gain(grades[ranking[r - 1]], gain) / discounts[r - 1] for r in gain_ranks]
    dcg = np.array(_prefix_fsums(terms))[covered]

    ideal = sorted(positive, reverse=True)[:max_k]
    ideal_terms = [_gain(g, gain) / discounts[i] for i, g in enumerate(ideal)]
    idcg = np.array(_prefix_fsums(ideal_terms))[np.minimum(ks, len(ideal))]
    return dcg / idcg  # IDCG > 0 at every k >= 1: the best gain is positive


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
