r"""Discounted cumulative gain: DCG@k, its ideal and nDCG@k, the graded measures of
:mod:`ragmetrics.metrics.kernels` (their kernels ``dcg``, ``idcg`` and ``ndcg``).

A doc's *gain* comes from its grade (:func:`ragmetrics.metrics.gains.grade_gain`, or a
gain map), and DCG adds the gains down the ranking, each divided by the log of its rank
plus one (:func:`ragmetrics.metrics.gains.dcg`, summed exactly). Unlike the measures of
:mod:`.rank_measures`, these read grades as amounts: a grade-3 doc is worth three grade-1
docs (linear gains), or seven (exponential ones).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ...conventions import AnswerlessRule, DuplicateRule, GainRule
from ...validation import check_k
from ..gains import dcg, gain_map_overflow
from .judged_query import JudgedQuery, judge_query, shared_parameters

__all__ = ["dcg_at_k", "ideal_dcg_at_k", "ndcg_at_k"]


def _finite_dcg(gains: list[float], base: float, gain_map) -> float:
    """:func:`~ragmetrics.metrics.gains.dcg` of ``gains``; a sum past the largest float
    is refused (the convention's gains are checked before: only a map's can get there)."""
    try:
        total = dcg(gains, base=base)
    except OverflowError:  # math.fsum's "intermediate overflow"
        total = math.inf
    if not math.isfinite(total):
        raise gain_map_overflow(gain_map)
    return total


def _dcg_of(q: JudgedQuery, k: int | None, gain: str, base: float, gain_map) -> float:
    return _finite_dcg(q.gains(q.top(k), gain, gain_map), base, gain_map)


def _ideal_dcg_of(q: JudgedQuery, k: int | None, gain: str, base: float, gain_map) -> float:
    """The DCG of the top ``k`` of the ideal ranking: every judged doc with a gain, best
    first (retrieved or not): the best DCG@k possible."""
    ideal = q.ideal_gains(gain, gain_map)
    return _finite_dcg(ideal if k is None else ideal[:k], base, gain_map)


@shared_parameters
def dcg_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
             gain: GainRule = "linear", base: float = 2, gains=(), relevance_level: float = 1,
             empty_relevant: AnswerlessRule = "zero",
             duplicates: DuplicateRule = "error") -> float:
    r"""Discounted cumulative gain of the top ``k``.

    .. math:: \mathrm{DCG@}k = \sum_{i=1}^{k} \frac{g(\mathrm{rel}_i)}{\log_2(i + 1)}

    where :math:`\mathrm{rel}_i` is the grade of the doc at rank ``i`` (0 if unjudged) and
    :math:`g` is the gain: the grade itself (``gain="linear"``, trec_eval) or
    :math:`2^{\mathrm{rel}} - 1` (``gain="exponential"``). Rank 1 is not discounted
    (:math:`\log_2 2 = 1`); rank 2 is divided by :math:`\log_2 3 \approx 1.585`.
    Negative grades add no gain. DCG has no upper bound: it grows with the number and
    the grades of the relevant docs, so only its normalized form (:func:`ndcg_at_k`)
    compares across queries. DCG is Järvelin and Kekäläinen's [1]_, the exponential gain
    Burges et al.'s [2]_, and the linear one trec_eval's [3]_.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        The cut-off: the DCG of the top ``k`` docs (a positive int), or of them all (None).
    {gain, base, gains}
    {relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    dcg : float
        The DCG, 0 or more (below 0 only with a gain map that gives a grade a negative
        gain).

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR
       techniques", *ACM Transactions on Information Systems* 20(4), 2002, pp. 422-446.
    .. [2] C. Burges et al., "Learning to rank using gradient descent", in *Proceedings
       of ICML 2005*, pp. 89-96 (the exponential gain).
    .. [3] trec_eval 10.0, ``m_ndcg.c``: *Discounted Cumulative Gain* (``dcg``).

    Examples
    --------
    The article's refund-policy query: relevant chunks at ranks 1, 3 and 5.

    >>> retrieved = ["A", "B", "C", "D", "E"]
    >>> round(dcg_at_k(retrieved, {"A", "C", "E"}, 5), 4)  # 1/1 + 1/2 + 1/log2(6)
    1.8869

    With grades, a grade-3 chunk at rank 2 gains 3/log2(3) (linear) or 7/log2(3):

    >>> round(dcg_at_k(["x", "a"], {"a": 3}, 2), 4)
    1.8928
    >>> round(dcg_at_k(["x", "a"], {"a": 3}, 2, gain="exponential"), 4)
    4.4165

    The discount's base and a gain map:

    >>> round(dcg_at_k(["x", "a"], {"a": 3}, 2, base=10), 4)  # 3 / log10(3)
    6.2877
    >>> round(dcg_at_k(["x", "a"], {"a": 3}, 2, gains=((3, 10),)), 4)  # 10 / log2(3)
    6.3093
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True, gain=gain, base=base)
    return score if score is not None else _dcg_of(q, k, gain, base, gains)


@shared_parameters
def ndcg_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
              gain: GainRule = "linear", base: float = 2, gains=(),
              relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
              duplicates: DuplicateRule = "error") -> float:
    r"""DCG@k divided by the best DCG@k any ranking could reach.

    .. math:: \mathrm{nDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}

    The ideal DCG (:func:`ideal_dcg_at_k`) ranks *every judged relevant doc*, retrieved
    or not, by gain, best first: a relevant doc the retriever never returned still raises
    the bar. (Computing the ideal from the retrieved list alone, as some code does,
    overstates nDCG.) When the ideal DCG is 0 (no judged doc has a gain) nDCG is 0. The
    measure is Järvelin and Kekäläinen's [1]_, with trec_eval's linear gains [2]_.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        The cut-off of both DCGs, a positive int; None reads the whole ranking and the
        whole ideal one.
    {gain}
    base : number, default 2
        The base of the discount's logarithm, above 1. It cancels out of the ratio (up to
        rounding): it is there for the name ``ndcg(base=10)`` to mean what ``dcg`` means.
    {gains}
    {relevance_level(emptiness), empty_relevant(zero=value, article=1), duplicates}

    Returns
    -------
    ndcg : float
        The nDCG, in [0, 1] (below 0 only with a gain map that gives a grade a negative
        gain).

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR
       techniques", *ACM Transactions on Information Systems* 20(4), 2002, pp. 422-446.
    .. [2] trec_eval 10.0, ``m_ndcg.c`` and ``m_ndcg_cut.c``: *Normalized Discounted
       Cumulative Gain* (``ndcg``), *at cutoffs* (``ndcg_cut_k``).

    Examples
    --------
    The article's refund-policy query: DCG = 1.8869, ideal DCG = 1 + 1/log2(3) + 1/2.

    >>> retrieved = ["A", "B", "C", "D", "E"]
    >>> round(ndcg_at_k(retrieved, {"A", "C", "E"}, 5), 4)
    0.8855

    A perfect ranking scores 1, at any ``k``:

    >>> ndcg_at_k(["A", "C", "E", "B"], {"A", "C", "E"}, 2)
    1.0

    A relevant doc that was never retrieved lowers the score:

    >>> round(ndcg_at_k(["A", "C", "E"], {"A", "C", "E", "Z"}, 5), 4)
    0.8319

    A gain map changes the weights of the grades (here grade 2 gains 9 instead of 2):

    >>> round(ndcg_at_k(["a", "b"], {"a": 1, "b": 2}, gains=((2, 9),)), 4)
    0.6934

    That is :math:`(1 + 9 / \log_2 3) / (9 + 1 / \log_2 3)`: the ideal ranking puts b first.
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           article_value=1.0, kept_under_zero=True, gain=gain, base=base)
    if score is not None:
        return score
    found = _dcg_of(q, k, gain, base, gains)
    ideal = _ideal_dcg_of(q, k, gain, base, gains)
    return found / ideal if ideal > 0 else 0.0


@shared_parameters
def ideal_dcg_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                   gain: GainRule = "linear", base: float = 2, gains=(),
                   relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                   duplicates: DuplicateRule = "error") -> float:
    r"""The best DCG@k any ranking could reach (IDCG@k, nDCG's denominator; trec_eval's
    experimental ``ideal_dcg``).

    .. math:: \mathrm{IDCG@}k = \sum_{i=1}^{\min(k, |J|)} \frac{g_{(i)}}{\log_2(i + 1)}

    with :math:`g_{(1)} \ge g_{(2)} \ge \dots` the positive gains of the judged docs
    :math:`J`, best first, retrieved or not: it depends on the judgments only [1]_.

    Parameters
    ----------
    retrieved : iterable of ids
        The ranking, read for its checks alone (ids of the golden set's kind, the
        ``duplicates`` policy): the ideal does not depend on it.
    relevant : set of ids or mapping id -> grade
        The golden set, whose grades give the gains.
    k : int or None, default None
        The cut-off: the ideal ranking's top ``k`` (a positive int), or all of it (None).
    {gain, base, gains}
    {relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    idcg : float
        The ideal DCG, 0 or more: 0 when no judged doc has a positive gain.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_ndcg.c``: *Ideal Discounted Cumulative Gain*
       (``ideal_dcg``), the denominator of its ``ndcg``.

    Examples
    --------
    Three relevant docs, grade 1: 1 + 1/log2(3) + 1/2, whatever was retrieved.

    >>> round(ideal_dcg_at_k(["x"], {"A", "C", "E"}, 5), 4)
    2.1309

    Cut at 1, the best doc alone (b, grade 2):

    >>> ideal_dcg_at_k(["x"], {"a": 1, "b": 2}, 1)
    2.0
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True, gain=gain, base=base)
    if score is not None:
        return score
    return _ideal_dcg_of(q, k, gain, base, gains)
