r"""The ranking read as a set: trec_eval's counts and set measures, the readable
definitions of :mod:`ragmetrics.metrics.sets`.

None of these looks at the order of the retrieved docs, only at how many there are
(:math:`n`, ``num_ret``), how many of them are relevant (:math:`h`, ``num_rel_ret``) and
how many relevant docs the query has (:math:`R`, ``num_rel``). A query with no relevant
doc keeps its value under ``empty_relevant="zero"``, as in trec_eval (its counts are
counts all the same).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...conventions import AnswerlessRule, DuplicateRule
from .judged_query import judge_query, shared_parameters

__all__ = ["num_q", "num_rel", "num_rel_ret", "num_ret", "set_ap", "set_f", "set_precision",
           "set_recall", "set_relative_precision", "utility"]


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator > 0 else 0.0


@shared_parameters
def num_q(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
          empty_relevant: AnswerlessRule = "zero", duplicates: DuplicateRule = "error") -> float:
    """trec_eval's ``num_q``: 1 for the query, so that its sum over queries counts them.

    The query counts whether it has a relevant doc or not, as in trec_eval [1]_, unless
    a policy leaves it out.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        Which grades count as relevant; only a query left out by ``"skip"`` or
        refused by ``"error"`` (one with no relevant doc) changes its count.
    {empty_relevant(zero=value, article=1), duplicates}

    Returns
    -------
    num_q : float
        1.0, or NaN for a query left out (``empty_relevant="skip"``): summed over the
        queries, the number of queries scored.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_num_q.c``: *Number of topics results averaged over*
       (``num_q``).

    Examples
    --------
    A query counts whether or not it has a relevant doc, unless it is left out:

    >>> num_q(["a"], {"b"}), num_q(["a"], {"b": 0}, empty_relevant="skip")
    (1.0, nan)
    """
    _, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           article_value=1.0, kept_under_zero=True)
    return 1.0 if score is None else score


@shared_parameters
def num_ret(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
            empty_relevant: AnswerlessRule = "zero", duplicates: DuplicateRule = "error") -> float:
    """How many docs were retrieved, :math:`n` (trec_eval's ``num_ret``).

    Each doc once: a repeated id is an error, or kept once (``duplicates``), where
    trec_eval refuses a run that repeats one [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        Which grades count as relevant: it only says whether the golden set has a
        relevant doc, for ``empty_relevant``; every retrieved doc is counted.
    {empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    n : float
        The count, a whole number (a float, as every value of :func:`ragmetrics.evaluate`
        is).

    References
    ----------
    .. [1] trec_eval 10.0, ``m_num_ret.c``: *Number of documents retrieved for topic*
       (``num_ret``).

    Examples
    --------
    >>> num_ret(["a", "x", "b"], {"a", "b", "c"})
    3.0
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    return score if score is not None else float(len(q.ranking))


@shared_parameters
def num_rel(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
            empty_relevant: AnswerlessRule = "zero", duplicates: DuplicateRule = "error") -> float:
    """How many relevant docs the query has, retrieved or not, :math:`R` (trec_eval's
    ``num_rel``: judged docs whose grade reaches ``relevance_level``).

    A count of the judgments alone [1]_: the ranking does not change it.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The smallest grade counted: :math:`R` is the number of judged docs whose grade
        reaches it.
    {empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    R : float
        A whole number: :math:`R` may be more than the docs retrieved.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_num_rel.c``: *Number of relevant documents for topic*
       (``num_rel``).

    Examples
    --------
    a and b reach grade 1; c, judged 0, does not:

    >>> num_rel(["a", "x"], {"a": 2, "b": 1, "c": 0}, relevance_level=1)
    2.0
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    return score if score is not None else float(len(q.relevant_ids))


@shared_parameters
def num_rel_ret(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                empty_relevant: AnswerlessRule = "zero",
                duplicates: DuplicateRule = "error") -> float:
    """How many relevant docs were retrieved, :math:`h` (trec_eval's ``num_rel_ret``).

    Read over the whole ranking [1]_: its order does not matter.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The smallest grade a retrieved doc needs to count in :math:`h`.
    {empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    h : float
        A whole number, at most :math:`n` and at most :math:`R`.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_num_rel_ret.c``: *Number of relevant documents retrieved
       for topic* (``num_rel_ret``).

    Examples
    --------
    >>> num_rel_ret(["a", "x", "b"], {"a", "b", "c"})
    2.0
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    return score if score is not None else float(q.hits(None))


@shared_parameters
def set_precision(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                  empty_relevant: AnswerlessRule = "zero",
                  duplicates: DuplicateRule = "error") -> float:
    r"""Precision of the whole retrieved set, :math:`h / n` (trec_eval's ``set_P``): the
    ranking read as a set, so Precision@k with k the ranking's own length.

    As :func:`precision_at_k` with ``k=None``, and trec_eval [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The smallest grade that counts as relevant, for :math:`h`.
    {empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    precision : float
        In [0, 1]; 0 when nothing was retrieved.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_set_P.c``: *Set Precision: num_relevant_retrieved /
       num_retrieved* (``set_P``).

    Examples
    --------
    Two of the four retrieved are relevant:

    >>> set_precision(["a", "x", "b", "y"], {"a", "b", "c"})
    0.5
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    return score if score is not None else _ratio(q.hits(None), len(q.ranking))


@shared_parameters
def set_recall(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
               empty_relevant: AnswerlessRule = "zero",
               duplicates: DuplicateRule = "error") -> float:
    r"""Recall of the whole retrieved set, :math:`h / R` (trec_eval's ``set_recall``):
    uncut recall.

    What :func:`recall_at_k` gives with ``k=None``; trec_eval's name for it [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The smallest grade that counts as relevant, for both :math:`h` and :math:`R`.
    {empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    recall : float
        In [0, 1]; 0 for a query without a relevant doc.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_set_recall.c``: *Set Recall: num_relevant_retrieved /
       num_relevant* (``set_recall``).

    Examples
    --------
    Two of the four relevant docs were retrieved:

    >>> set_recall(["a", "x", "b", "y"], {"a", "b", "c", "d"})
    0.5
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    return score if score is not None else _ratio(q.hits(None), len(q.relevant_ids))


@shared_parameters
def set_relative_precision(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                           empty_relevant: AnswerlessRule = "zero",
                           duplicates: DuplicateRule = "error") -> float:
    r"""Relevant docs retrieved over the most a set of that size could hold,
    :math:`h / \min(n, R)` (trec_eval's ``set_relative_P``).

    The set form of :func:`relative_precision_at_k`, with trec_eval's rule [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The grade from which a doc counts in :math:`h` and in :math:`R`.
    {empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    relative_precision : float
        In [0, 1]: 1 when the retrieved set is as relevant as its size and the
        judgments allow.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_set_rel_P.c``: *Relative Set Precision: P / (Max possible
       P for this size set)* (``set_relative_P``).

    Examples
    --------
    One relevant doc in four retrieved, of the two there could be; then a set of one
    that is as good as can be:

    >>> set_relative_precision(["a", "x", "y", "z"], {"a", "b"})
    0.5
    >>> set_relative_precision(["a"], {"a", "b"})
    1.0
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    if score is not None:
        return score
    return _ratio(q.hits(None), min(len(q.ranking), len(q.relevant_ids)))


@shared_parameters
def set_ap(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
           empty_relevant: AnswerlessRule = "zero", duplicates: DuplicateRule = "error") -> float:
    r"""Set precision times set recall, :math:`h^2 / (n R)` (trec_eval's ``set_map``):
    what average precision would be if every retrieved doc shared one rank.

    It reads the ranking as a set, as trec_eval's other ``set_`` measures do [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        Relevant means a grade of at least this, in :math:`h` as in :math:`R`.
    {empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    set_ap : float
        In [0, 1]: 1 exactly when the retrieved set is the relevant set.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_set_map.c``: *Set map*,
       ``num_relevant_retrieved**2 / (num_retrieved*num_rel)`` (``set_map``).

    Examples
    --------
    Set precision 2/4 times set recall 2/4:

    >>> set_ap(["a", "x", "b", "y"], {"a", "b", "c", "d"})
    0.25
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    if score is not None:
        return score
    h = q.hits(None)
    return _ratio(h * h, len(q.ranking) * len(q.relevant_ids))


@shared_parameters
def set_f(retrieved: Iterable, relevant: Any, *, beta: float = 1.0,
          relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
          duplicates: DuplicateRule = "error") -> float:
    r"""trec_eval's ``set_F``: the F measure of the retrieved set,

    .. math:: F = \frac{(1 + \beta) P R}{\beta P + R}, \quad P = h / n, \; R = h / R_q

    Note the weight: trec_eval's ``beta`` where the textbook F measure has
    :math:`\beta^2` (so ``set_F.0.25`` is the textbook's :math:`F_{0.5}`); at
    ``beta = 1`` both are the harmonic mean of P and R (van Rijsbergen's F [1]_, as
    trec_eval weighs it [2]_).

    Parameters
    ----------
    {retrieved, relevant}
    beta : float, default 1.0
        The weight of recall against precision, above 0 (trec_eval's ``set_F.beta``).
    {relevance_level, empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    f : float
        In [0, 1]; 0 when no relevant doc is retrieved.

    References
    ----------
    .. [1] C. J. van Rijsbergen, *Information Retrieval*, 2nd edition, Butterworths,
       1979, chapter 7.
    .. [2] trec_eval 10.0, ``m_set_F.c``: *Set F measure: weighted harmonic mean of
       recall and precision* (``set_F``).

    Examples
    --------
    P = 1/2 and R = 1: 2 (1/2) / (3/2).

    >>> set_f(["a", "x", "b", "y"], {"a", "b"})
    0.6666666666666666
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    if score is not None:
        return score
    h = q.hits(None)
    if h == 0:
        return 0.0
    p, r = h / len(q.ranking), h / len(q.relevant_ids)
    return (beta + 1.0) * p * r / (beta * p + r)


@shared_parameters
def utility(retrieved: Iterable, relevant: Any, *, a: float = 1.0, b: float = -1.0,
            c: float = 0.0, d: float = 0.0, num_docs: float = 0.0,
            relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
            duplicates: DuplicateRule = "error") -> float:
    r"""trec_eval's set ``utility``: a price for each kind of doc,

    .. math:: a\,h + b\,(n - h) + c\,(R - h) + d\,(N - n - R + h)

    The default ``utility(1,-1,0,0)``: relevant retrieved minus non-relevant retrieved,
    as in trec_eval [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    a, b : float, default 1.0 and -1.0
        The worth of each relevant doc retrieved, and of each non-relevant one retrieved.
    c, d : float, default 0.0
        The worth of each relevant doc missed, and of each non-relevant doc rightly left
        out of the collection.
    num_docs : float, default 0.0
        The docs in the collection, :math:`N` (trec_eval's ``-N``), for ``d``.
    {relevance_level, empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    utility : float
        The utility, any number.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_utility.c``: *Set utility measure* (``utility``), with
       trec_eval's ``-m utility.a,b,c,d`` and ``-N``.

    Examples
    --------
    Two relevant docs and three others retrieved: 2 - 3.

    >>> utility(["a", "x", "b", "y", "z"], {"a", "b"})
    -1.0
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    if score is not None:
        return score
    h, n, rel = q.hits(None), len(q.ranking), len(q.relevant_ids)
    return a * h + b * (n - h) + c * (rel - h) + d * (num_docs + h - n - rel)
