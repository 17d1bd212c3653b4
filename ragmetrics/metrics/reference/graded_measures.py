r"""Gain-based measures beyond DCG, the readable definitions of
:mod:`ragmetrics.metrics.graded`: ERR, RBP, and trec_eval's experimental ndcg_rel, Rndcg,
G and binG.

ERR and RBP model a user who reads down the ranking and stops (ERR: at a doc good
enough; RBP: at any rank, with a fixed chance). ndcg_rel and Rndcg average nDCG over
chosen ranks, G compares the gain collected with the ideal's rank by rank, and binG
discounts each relevant doc by the non-relevant docs above it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ...conventions import AnswerlessRule, DuplicateRule, GainRule
from ...errors import InputValueError
from ...validation import check_k
from ..gains import grade_gain
from .judged_query import JudgedQuery, judge_query, shared_parameters

__all__ = ["bing", "err_at_k", "g_measure", "ndcg_rel", "rbp", "rndcg"]


@shared_parameters
def err_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
             max_grade: float | None = None, chances=(), relevance_level: float = 1,
             empty_relevant: AnswerlessRule = "zero",
             duplicates: DuplicateRule = "error") -> float:
    r"""Expected reciprocal rank (Chapelle, Metzler, Zhang and Grinspan, CIKM 2009).

    A user reads down the ranking and stops at the doc of rank :math:`i` with chance
    :math:`R_i`, satisfied; ERR is the expected reciprocal of the rank where they stop:

    .. math:: \mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j<i} (1 - R_j),
              \qquad R_i = \frac{2^{g_i} - 1}{2^{g_{\max}}}

    with :math:`g_i` the grade at rank :math:`i` (0 if unjudged or below 0). A good doc
    high up makes the docs below it matter less: unlike DCG, ERR discounts a doc by the
    docs above it [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        How deep the user may read, a positive int; None: as deep as the ranking goes.
    max_grade : number or None, default None
        :math:`g_{\max}`; None takes the highest grade of the judgments (of this query:
        :func:`ragmetrics.evaluate` takes the highest of all its queries). A grade above
        it is an error (its chance would pass 1).
    chances : tuple of (grade, chance) pairs, default ()
        Stopping chances in [0, 1] for the grades named, instead of the formula (a
        judged grade of 0 may have one too).
    {relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    err : float
        The expected reciprocal rank of the doc the user stops at, in [0, 1] (0 if
        they stop nowhere in the top ``k``).

    References
    ----------
    .. [1] O. Chapelle, D. Metzler, Y. Zhang and P. Grinspan, "Expected reciprocal rank
       for graded relevance", in *Proceedings of CIKM 2009*, pp. 621-630.

    Examples
    --------
    Grades 1 and 2, the highest 2: stopping chances 1/4 and 3/4, so
    1/4 + (3/4)(3/4)/2:

    >>> err_at_k(["a", "b"], {"a": 1, "b": 2})
    0.53125

    On a scale up to 4 the same grades are worth less (chances 1/16 and 3/16):

    >>> err_at_k(["a", "b"], {"a": 1, "b": 2}, max_grade=4)
    0.150390625
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    if score is not None:
        return score
    if max_grade is None:
        max_grade = max([0.0, *q.grades.values()])
    named = dict(chances)
    for grade, chance in named.items():
        if not 0 <= chance <= 1:
            raise InputValueError(f"err_at_k: the stopping chance of grade {grade:g} must "
                                  f"lie between 0 and 1, got {chance:g}")
    value, going_on = 0.0, 1.0
    for rank, doc in enumerate(q.top(k), start=1):
        grade = q.grades.get(doc)
        if grade is not None and grade in named:
            chance = named[grade]
        elif grade is not None and grade > 0:
            if grade > max_grade:
                raise InputValueError(f"err: a grade of {grade:g} is above max_grade="
                                      f"{max_grade:g}")
            chance = (2.0**grade - 1.0) / 2.0**max_grade
        else:
            chance = 0.0
        value += going_on * chance / rank
        going_on *= 1.0 - chance
    return value


def _rbp_gains(q: JudgedQuery, rule: str, gain_map) -> list[float]:
    """Each retrieved doc's gain on the query's [0, 1] scale, as trec_eval's rbp makes it.

    The scale runs from the lowest to the highest of: 0, every gain of the map, the
    convention's gain of the highest whole grade judged that the map leaves alone, and
    of each grade judged that it leaves alone. When it passes 1 (or goes below 0) each
    gain :math:`g` becomes :math:`(g - \\min) / (\\max - \\min)`. An unjudged doc, or one
    judged below 0, gains 0.
    """
    mapped = dict(gain_map)
    low, high = min([0.0, *mapped.values()]), max([0.0, *mapped.values()])
    judged = [grade for grade in q.grades.values() if grade >= 0]
    level = math.floor(max(judged, default=-1.0))
    for key in sorted(mapped, reverse=True):  # the highest whole grade the map leaves alone
        level = level - 1 if level == key else level
    if level >= 0:
        high = max(high, grade_gain(level, rule))
    high = max([high, *(grade_gain(grade, rule) for grade in judged if grade not in mapped)])
    rescale = low < 0 or high > 1
    gains = []
    for doc, g in zip(q.ranking, q.gains(q.ranking, rule, gain_map), strict=True):
        if q.grades.get(doc, -1.0) < 0:
            gains.append(0.0)
        else:
            gains.append((g - low) / (high - low) if rescale else g)
    return gains


@shared_parameters
def rbp(retrieved: Iterable, relevant: Any, k: int | None = None, *, p: float = 0.9,
        gain: GainRule = "linear", gains=(), relevance_level: float = 1,
        empty_relevant: AnswerlessRule = "zero", duplicates: DuplicateRule = "error") -> float:
    r"""Rank-biased precision (Moffat and Zobel, TOIS 2008): a user goes on from each rank
    to the next with chance :math:`p`; RBP is the gain they collect per doc read.

    .. math:: \mathrm{RBP}(p) = (1 - p) \sum_{i \ge 1} g_i \, p^{i-1}

    Gains are put on [0, 1] as trec_eval puts them: when the query's scale (its grades'
    gains, 0 and a gain map's gains) passes 1, or goes below 0, a gain :math:`g`
    becomes :math:`(g - \min) / (\max - \min)` [2]_. RBP never needs an ideal ranking
    [1]_, and the docs below a cut-off can only add to it: :func:`rbp_residual` says how
    much.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        The cut-off (a positive int): RBP of the top ``k``, a lower bound of the whole
        ranking's; None reads it all.
    p : float, default 0.9
        The persistence: the chance of going on to the next rank (0.9: about 10 docs
        read; 0.5: about 2).
    {gain, gains}
    {relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    rbp : float
        The expected gain per doc read, in [0, 1]: 1 only for an endless ranking of
        docs of the top gain.

    References
    ----------
    .. [1] A. Moffat and J. Zobel, "Rank-biased precision for measurement of retrieval
       effectiveness", *ACM Transactions on Information Systems* 27(1), 2008, article 2.
    .. [2] trec_eval 10.0, ``m_rbp.c``: *Rank-Biased Precision* (``rbp``; a gain map,
       ``-m rbp.p=0.8,1=0.5``).

    Examples
    --------
    Relevant docs at ranks 1 and 3, a coin-flip reader: (1 - 0.5)(1 + 0.25).

    >>> rbp(["a", "x", "b"], {"a", "b"}, p=0.5)
    0.625

    Grades 2 and 1 on a scale up to 2: gains 1 and 1/2.

    >>> rbp(["a", "x", "b"], {"a": 2, "b": 1}, p=0.5)
    0.5625
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True, gain=gain)
    if score is not None:
        return score
    scaled = _rbp_gains(q, gain, gains)
    return (1.0 - p) * math.fsum(g * p**i for i, g in enumerate(scaled[:k]))


def _graded(retrieved, relevant, gain, gain_map, relevance_level, empty_relevant, duplicates,
            *, kept_under_zero: bool) -> tuple[list[float], list[float], float | None]:
    """The query's gains, as ndcg_rel, Rndcg and G read them: (the retrieved docs' gains,
    the ideal ranking's gains: positive, best first, a score). The score is not None for
    a query scored without them: by ``empty_relevant`` (:func:`.judge_query`), or 0 when
    no judged doc has a positive gain."""
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=kept_under_zero, gain=gain)
    if score is not None:
        return [], [], score
    ideal = q.ideal_gains(gain, gain_map)
    return q.gains(q.ranking, gain, gain_map), ideal, (None if ideal else 0.0)


def _running_dcg(gains: list[float]) -> list[float]:
    """DCG@1, DCG@2, ...: the running sums of gain / log2(rank + 1)."""
    total, out = 0.0, []
    for rank, g in enumerate(gains, start=1):
        total += g / math.log2(rank + 1)
        out.append(total)
    return out


@shared_parameters
def ndcg_rel(retrieved: Iterable, relevant: Any, *, gains=(), gain: GainRule = "linear",
             relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
             duplicates: DuplicateRule = "error") -> float:
    r"""trec_eval's experimental ``ndcg_rel``: nDCG averaged over the docs with a gain.

    .. math:: \mathrm{ndcg\_rel} = \frac{1}{L} \Big( \sum_{i:\, g_i > 0}
              \frac{\mathrm{DCG@}i}{\mathrm{IDCG@}\min(i, L)}
              + (L - F) \frac{\mathrm{DCG}}{\mathrm{IDCG}} \Big)

    over the ranks :math:`i` of the retrieved docs with a positive gain (:math:`F` of
    them), :math:`L` the judged docs with a positive gain: each one not retrieved counts
    the DCG of the whole ranking over the whole ideal DCG [1]_.

    Parameters
    ----------
    {retrieved, relevant, gains, gain}
    {relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    ndcg_rel : float
        In [0, 1]; 0 when no judged doc has a positive gain (:math:`L = 0`).

    References
    ----------
    .. [1] trec_eval 10.0, ``m_ndcg_rel.c``: *Normalized Discounted Cumulative Gain
       averaged over rel docs* (``ndcg_rel``).

    Examples
    --------
    Both relevant docs where the ideal has them, and one at rank 2 alone,
    (1 / log2 3) / 1:

    >>> ndcg_rel(["a", "b"], {"a": 1, "b": 1}), round(ndcg_rel(["x", "a"], {"a": 1}), 4)
    (1.0, 0.6309)
    """
    found, ideal, score = _graded(retrieved, relevant, gain, gains, relevance_level,
                                  empty_relevant, duplicates, kept_under_zero=True)
    if score is not None:
        return score
    dcg = _running_dcg(found)  # DCG@1, DCG@2, ..., and the ideal's
    idcg = _running_dcg(ideal)
    points = [dcg[i] / idcg[min(i, len(ideal) - 1)] for i, g in enumerate(found) if g > 0]
    final = dcg[-1] if dcg else 0.0
    total = math.fsum(points) + (len(ideal) - len(points)) * final / idcg[-1]
    return total / len(ideal) if total > 0 else 0.0


@shared_parameters
def rndcg(retrieved: Iterable, relevant: Any, *, gains=(), gain: GainRule = "linear",
          relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
          duplicates: DuplicateRule = "error") -> float:
    r"""trec_eval's experimental ``Rndcg``: nDCG averaged at the "R levels", the ranks
    :math:`b` where the ideal ranking's gain changes (its last positive gain included,
    :math:`b = L`):

    .. math:: \mathrm{Rndcg} = \frac{1}{|B|} \sum_{b \in B}
              \frac{\mathrm{DCG@}b}{\mathrm{IDCG@}b}

    and, when the ranking runs on past rank :math:`L + 1`, one more point: the DCG of
    the whole ranking over the whole ideal DCG (trec_eval's rule [1]_).

    Parameters
    ----------
    {retrieved, relevant, gains, gain, relevance_level, empty_relevant(zero=0, article=0)}
    {duplicates}

    Returns
    -------
    rndcg : float
        The mean of the points, in [0, 1] (below 0 only with a gain map that gives a
        grade a negative gain); 0 when no judged doc has a positive gain.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_Rndcg.c``: *Normalized Discounted Cumulative Gain at R
       levels* (``Rndcg``).

    Examples
    --------
    Grades 2, 1: the ideal's gain changes after rank 1 and ends after rank 2, so the
    points are DCG@1 / IDCG@1 = 1/2 and (1 + 2/log2 3) / (2 + 1/log2 3) = 0.8597:

    >>> round(rndcg(["b", "a"], {"a": 2, "b": 1}), 4)
    0.6799
    """
    # Scored by the policy under "zero" too: a query without a relevant doc has no level.
    found, ideal, score = _graded(retrieved, relevant, gain, gains, relevance_level,
                                  empty_relevant, duplicates, kept_under_zero=False)
    if score is not None:
        return score
    dcg, idcg = _running_dcg(found), _running_dcg(ideal)

    def dcg_at(b: int) -> float:
        return dcg[min(b, len(dcg)) - 1] if dcg else 0.0

    levels = [b for b in range(1, len(ideal)) if ideal[b] != ideal[b - 1]] + [len(ideal)]
    points = [dcg_at(b) / idcg[b - 1] for b in levels if idcg[b - 1] > 0]
    if ideal and len(found) > len(ideal) + 1 and idcg[-1] > 0:
        points.append(dcg[-1] / idcg[-1])
    return math.fsum(points) / len(points) if points else 0.0


@shared_parameters
def g_measure(retrieved: Iterable, relevant: Any, *, gains=(), gain: GainRule = "linear",
              relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
              duplicates: DuplicateRule = "error") -> float:
    r"""trec_eval's experimental ``G``: each retrieved gain :math:`g_i` discounted by how
    far the gain collected lags behind the ideal's,

    .. math:: G = \frac{1}{\sum_j g^*_j} \sum_{i:\, g_i \ne 0}
              \frac{g_i}{\log_2(2 + C_i - S_i)}

    with :math:`S_i = \sum_{j \le i} g_j` the gain collected down to rank :math:`i` and
    :math:`C_i = \sum_{j \le i} \max(g^*_j, 1)` the ideal's (:math:`g^*_j` the ideal
    ranking's gain at rank :math:`j`, 0 past its end: every rank costs at least 1), as
    trec_eval computes it [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    gains : tuple of (grade, gain) pairs, default ()
        A gain map, trec_eval's ``-m G.1=3.5,2=9``: the gains of the grades it names
        (0 and below allowed, grade 0 included); the other grades keep the ``gain``
        rule's.
    {gain, relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    g : float
        1 for the ideal ranking (and any ranking that collects its gains as fast), 0
        when no judged doc has a positive gain; below 0 only with a gain map that gives
        a grade a negative gain.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_G.c``: *Normalized Gain* (``G``), an experimental measure
       of 2008 that "combines qualities of MAP and NDCG".

    Examples
    --------
    At rank 1, C = S = 1: 1 / log2(2). At rank 2 the ideal has spent 2, the ranking
    collected 1: 1 / log2(3).

    >>> g_measure(["a"], {"a": 1})
    1.0
    >>> round(g_measure(["x", "a"], {"a": 1}), 4)
    0.6309
    """
    cost = collected = 0.0  # the ideal's gain (every rank at least 1), and the ranking's
    terms = []
    found, ideal, score = _graded(retrieved, relevant, gain, gains, relevance_level,
                                  empty_relevant, duplicates, kept_under_zero=True)
    if score is not None:
        return score
    for rank, g in enumerate(found):
        cost += max(ideal[rank], 1.0) if rank < len(ideal) else 1.0
        collected += g
        if g != 0:
            terms.append(g / math.log2(2 + cost - collected))
    return math.fsum(terms) / math.fsum(ideal)


@shared_parameters
def bing(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
         empty_relevant: AnswerlessRule = "zero", duplicates: DuplicateRule = "error") -> float:
    r"""trec_eval's experimental ``binG``: each relevant doc retrieved scores by how many
    non-relevant docs (judged or not) come before it,

    .. math:: \mathrm{binG} = \frac{1}{R} \sum_{\text{relevant } i \text{ retrieved}}
              \frac{1}{\log_2(2 + m_i)}

    with :math:`m_i` the non-relevant docs above :math:`i`: 1 for relevant docs at the top,
    whatever their number. It is trec_eval's G [1]_ with a gain of 1 for every relevant
    doc.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The smallest grade that counts as relevant; every other doc retrieved, judged or
        not, adds to the non-relevant docs above the relevant ones below it.
    {empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    bing : float
        In [0, 1]: 1 when every relevant doc is retrieved above every non-relevant one.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_binG.c``: *Binary G* (``binG``): G with every relevant
       doc's gain 1.

    Examples
    --------
    a has nothing above it, b one non-relevant doc: (1/log2(2) + 1/log2(3)) / 2.

    >>> bing(["a", "x", "b"], {"a", "b"})
    0.8154648767857288
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    total, above = [], 0
    for doc in q.ranking:
        if doc in q.relevant_ids:
            total.append(1.0 / math.log2(2 + above))
        else:
            above += 1
    return math.fsum(total) / len(q.relevant_ids)
