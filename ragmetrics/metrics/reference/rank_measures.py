r"""Measures of a ranking cut at k, by whether each doc is relevant: the readable
definitions of :mod:`ragmetrics.metrics.kernels`' recall, precision, hit rate, RR, AP,
R-precision, relative precision and Rprec_mult.

Each reads the top ``k`` of the ranking and asks only "relevant or not" (grades count
through ``relevance_level`` alone). With :math:`R` the query's relevant docs (retrieved
or not) and :math:`h_k` those in the top :math:`k`: Recall@k is :math:`h_k / R`,
Precision@k :math:`h_k / k`, and the rest follow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ...conventions import AnswerlessRule, DuplicateRule
from ...errors import InputTypeError, InputValueError
from ...validation import check_k
from .judged_query import judge_query, shared_parameters

__all__ = ["average_precision", "hit_rate_at_k", "mrr", "precision_at_k", "r_precision",
           "recall_at_k", "reciprocal_rank", "relative_precision_at_k", "rprec_mult"]


@shared_parameters
def recall_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                duplicates: DuplicateRule = "error") -> float:
    r"""Fraction of all relevant docs that appear in the top ``k`` results.

    .. math:: \mathrm{Recall@}k = \frac{|\{\text{relevant docs in the top } k\}|}
              {|\{\text{relevant docs}\}|}

    Recall answers "did we find it?". It counts every relevant doc, judged retrieved or
    not, in the denominator, so a query with 50 relevant docs cannot reach 1 at ``k=10``.
    It is not the *hit rate* (:func:`hit_rate_at_k`), which asks only whether at least one
    relevant doc made the top ``k``. It is trec_eval's ``recall_k`` [1]_ and the
    textbooks' recall [2]_ of the top ``k``.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        The cut-off, a positive int; None reads the whole ranking. A ranking shorter than
        ``k`` is scored as it is.
    {relevance_level, empty_relevant(zero=0, article=1), duplicates}

    Returns
    -------
    recall : float
        The share of the relevant docs found, in [0, 1].

    References
    ----------
    .. [1] trec_eval 10.0, ``m_recall.c``: *Recall at cutoffs* (``recall_k``).
    .. [2] C. D. Manning, P. Raghavan and H. Schütze, *Introduction to Information
       Retrieval*, Cambridge University Press, 2008, section 8.3.

    Examples
    --------
    The article's example: 3 relevant chunks, 2 of them in the top 10.

    >>> retrieved = ["c1", "c7", "c2", "c9", "c4", "c5", "c6", "c8", "c0", "c3"]
    >>> recall_at_k(retrieved, {"c1", "c2", "c99"}, 10)  # 2 of 3 found
    0.6666666666666666

    Relevant docs ranked below ``k`` do not count:

    >>> recall_at_k(retrieved, {"c1", "c2", "c99"}, 1)  # only c1 is in the top 1
    0.3333333333333333
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant,
                           duplicates, article_value=1.0)
    return score if score is not None else q.hits(k) / len(q.relevant_ids)


@shared_parameters
def precision_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                   relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                   duplicates: DuplicateRule = "error") -> float:
    r"""Fraction of the top ``k`` slots that hold a relevant doc.

    .. math:: \mathrm{Precision@}k = \frac{|\{\text{relevant docs in the top } k\}|}{k}

    Precision answers "how much of what we hand the model is noise?". The denominator is
    always ``k``, also when fewer than ``k`` docs were retrieved (trec_eval's rule): an
    empty slot is a wasted slot, so returning less cannot raise precision. trec_eval's
    ``P_k`` [1]_ is this, and the textbooks' precision [2]_ with ``k=None``.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        The number of slots, a positive int. None reads the ranking as a set: the share of
        what was returned that is relevant (trec_eval's ``set_P``; 0 for an empty ranking).
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    precision : float
        How many of the ``k`` slots hold a relevant doc, over ``k``: in [0, 1].

    References
    ----------
    .. [1] trec_eval 10.0, ``m_P.c``: *Precision at cutoffs* (``P_k``); ``m_set_P.c``.
    .. [2] C. D. Manning, P. Raghavan and H. Schütze, *Introduction to Information
       Retrieval*, Cambridge University Press, 2008, sections 8.3 and 8.4.

    Examples
    --------
    Two relevant docs in five slots:

    >>> retrieved = ["a", "x", "b", "y", "z"]
    >>> precision_at_k(retrieved, {"a", "b"}, 5)
    0.4

    Asking for more slots than were retrieved still divides by ``k``:

    >>> precision_at_k(retrieved, {"a", "b"}, 10)
    0.2
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    if k is None:  # the whole ranking: the share of what was returned (trec_eval's set_P)
        return q.hits(None) / len(q.ranking) if q.ranking else 0.0
    return q.hits(k) / k


@shared_parameters
def hit_rate_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                  relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                  duplicates: DuplicateRule = "error") -> float:
    r"""1.0 if at least one relevant doc is in the top ``k``, else 0.0.

    .. math:: \mathrm{HitRate@}k = \mathbb{1}\left[\,|\{\text{relevant docs in the top }
              k\}| > 0\,\right]

    Also called *success@k* (trec_eval [1]_) and, confusingly, "recall" in some RAG
    write-ups.
    Averaged over queries it is the share of queries with at least one useful chunk.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        How deep to look for a hit, a positive int; None searches the whole ranking.
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    hit : float
        1.0 for a hit in the top ``k``, else 0.0.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_success.c``: *Success at cutoffs* (``success_k``), the
       measure under its TREC name.

    Examples
    --------
    One relevant doc of three in the top 2 is a hit; recall sees the two missed:

    >>> hit_rate_at_k(["x", "a", "y"], {"a", "b", "c"}, 2)
    1.0
    >>> recall_at_k(["x", "a", "y"], {"a", "b", "c"}, 2)
    0.3333333333333333
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    return 1.0 if q.hits(k) else 0.0


@shared_parameters
def reciprocal_rank(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                    relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                    duplicates: DuplicateRule = "error") -> float:
    r"""One over the rank of the first relevant doc; 0 if none is in the top ``k``.

    .. math:: \mathrm{RR@}k = \begin{cases} 1/\mathrm{rank}_1 & \mathrm{rank}_1 \le k \\
              0 & \text{otherwise} \end{cases}

    where :math:`\mathrm{rank}_1` is the 1-based rank of the first relevant doc. It sees
    only that first hit: a second relevant doc, anywhere, changes nothing. Its mean over
    queries is MRR (:func:`mrr`), TREC's measure of question answering [2]_; trec_eval's
    ``recip_rank`` [1]_ searches the whole ranking.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        The search depth, a positive int; None searches the whole ranking (trec_eval's
        ``recip_rank``).
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    rr : float
        :math:`1/\mathrm{rank}_1` in (0, 1], or 0.0 when no relevant doc is in the top
        ``k``.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_recip_rank.c``: *Reciprocal Rank of the first relevant
       retrieved doc* (``recip_rank``).
    .. [2] E. M. Voorhees, "The TREC-8 Question Answering Track Report", in *Proceedings
       of TREC-8*, 1999, pp. 77-82.

    Examples
    --------
    The first hit is at rank 3; cut at 2, there is none:

    >>> reciprocal_rank(["x", "y", "a", "b"], {"a", "b"})
    0.3333333333333333
    >>> reciprocal_rank(["x", "y", "a", "b"], {"a", "b"}, k=2)
    0.0
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    for rank, doc in enumerate(q.top(k), start=1):
        if doc in q.relevant_ids:
            return 1.0 / rank
    return 0.0


@shared_parameters
def mrr(pairs: Iterable[tuple[Iterable, Any]], k: int | None = None, *,
        relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
        duplicates: DuplicateRule = "error") -> float:
    r"""Mean reciprocal rank over queries, as the article's ``compute_mrr``.

    .. math:: \mathrm{MRR@}k = \frac{1}{|Q|} \sum_{q \in Q} \mathrm{RR@}k(q)

    The mean of :func:`reciprocal_rank` over the queries ``Q`` (a whole set of them at
    once: :func:`ragmetrics.evaluate` with ``"mrr"``), as TREC's question answering
    track first reported it [1]_.

    Parameters
    ----------
    pairs : iterable of pairs
        One ``(retrieved, relevant)`` pair per query, at least one: its ranking and its
        golden set, as :func:`reciprocal_rank` reads them.
    k : int or None, default None
        The search depth; None is the whole ranking.
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    mrr : float
        The mean in [0, 1], over the queries not scored NaN (``empty_relevant="skip"``
        leaves those out; NaN if it leaves out all of them).

    References
    ----------
    .. [1] E. M. Voorhees, "The TREC-8 Question Answering Track Report", in *Proceedings
       of TREC-8*, 1999, pp. 77-82.

    Examples
    --------
    First hits at ranks 1, 3 and nowhere: (1 + 1/3 + 0) / 3.

    >>> pairs = [(["a", "x"], {"a"}), (["x", "y", "b"], {"b"}), (["x"], {"c"})]
    >>> round(mrr(pairs), 4)
    0.4444
    """
    k = check_k(k, allow_none=True)
    scores = []
    for i, pair in enumerate(pairs):
        try:
            retrieved, relevant = pair
        except (TypeError, ValueError):
            raise InputTypeError(
                f"pairs[{i}] must be a (retrieved, relevant) pair, got {pair!r}"
            ) from None
        try:
            score = reciprocal_rank(retrieved, relevant, k, relevance_level=relevance_level,
                                    empty_relevant=empty_relevant, duplicates=duplicates)
        except (TypeError, ValueError) as error:
            raise type(error)(f"pairs[{i}]: {error}") from None
        scores.append(score)
    if not scores:
        raise InputValueError("mrr needs at least one (retrieved, relevant) pair, got none")
    kept = [s for s in scores if not math.isnan(s)]
    return math.fsum(kept) / len(kept) if kept else math.nan


@shared_parameters
def average_precision(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                      relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                      duplicates: DuplicateRule = "error") -> float:
    r"""Mean of Precision@i over the ranks i of the relevant docs (its mean over queries: MAP).

    .. math:: \mathrm{AP@}k = \frac{1}{R} \sum_{i=1}^{k} \mathrm{Precision@}i \cdot
              \mathrm{rel}_i

    where :math:`R` is the number of relevant docs and :math:`\mathrm{rel}_i` is 1 if the
    doc at rank ``i`` is relevant. Relevant docs never retrieved (or below ``k``) add 0 but
    still count in :math:`R`, as in trec_eval's ``map`` and ``map_cut`` [1]_ and the
    textbooks [2]_.

    Parameters
    ----------
    {retrieved, relevant}
    k : int or None, default None
        The cut-off, a positive int (``map_cut``); None reads the whole ranking (``map``).
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    ap : float
        The average precision, in [0, 1]: 1 only when every relevant doc is ranked
        above every other doc.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_map.c`` and ``m_map_cut.c``: *Mean Average Precision*
       (``map``), *at cutoffs* (``map_cut_k``).
    .. [2] C. D. Manning, P. Raghavan and H. Schütze, *Introduction to Information
       Retrieval*, Cambridge University Press, 2008, section 8.4.

    Examples
    --------
    Relevant docs at ranks 1 and 3, a third never retrieved: (1/1 + 2/3) / 3.

    >>> round(average_precision(["a", "x", "b"], {"a", "b", "c"}), 4)
    0.5556
    """
    k = check_k(k, allow_none=True)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    found, total = 0, 0.0
    for rank, doc in enumerate(q.top(k), start=1):
        if doc in q.relevant_ids:
            found += 1
            total += found / rank
    return total / len(q.relevant_ids)


@shared_parameters
def r_precision(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                empty_relevant: AnswerlessRule = "zero",
                duplicates: DuplicateRule = "error") -> float:
    r"""Precision at rank R, where R is the number of relevant docs.

    .. math:: \mathrm{R\text{-}Precision} = \frac{|\{\text{relevant docs in the top } R\}|}{R}

    At the cut-off R, precision and recall are equal, so R-precision needs no ``k``
    (trec_eval's ``Rprec`` [1]_; the textbooks' [2]_).

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The smallest grade that counts as relevant: it sets R, the cut-off, too.
    {empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    r_precision : float
        Precision (and recall) at rank R, in [0, 1].

    References
    ----------
    .. [1] trec_eval 10.0, ``m_Rprec.c``: *Precision after R documents have been
       retrieved* (``Rprec``).
    .. [2] C. D. Manning, P. Raghavan and H. Schütze, *Introduction to Information
       Retrieval*, Cambridge University Press, 2008, section 8.4.

    Examples
    --------
    Three relevant docs, so the top 3 count; two of them are relevant:

    >>> r_precision(["a", "x", "b", "c"], {"a", "b", "c"})
    0.6666666666666666
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    r = len(q.relevant_ids)
    return q.hits(r) / r


@shared_parameters
def relative_precision_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                            relevance_level: float = 1,
                            empty_relevant: AnswerlessRule = "zero",
                            duplicates: DuplicateRule = "error") -> float:
    r"""Relevant docs in the top ``k`` over the most there could be: :math:`\min(k, R)`.

    .. math:: \mathrm{RelP@}k = \frac{|\{\text{relevant docs in the top } k\}|}{\min(k, R)}

    Precision@k cannot reach 1 for a query with fewer than ``k`` relevant docs; relative
    precision can (trec_eval's ``relative_P`` [1]_).

    Parameters
    ----------
    {retrieved, relevant}
    k : int
        The cut-off, a positive int (required: None is refused).
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    relative_precision : float
        In [0, 1]: 1 when the top ``k`` hold as many relevant docs as they can.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_rel_P.c``: *Relative Precision at cutoffs*
       (``relative_P_k``).

    Examples
    --------
    One relevant doc in the top 3, of the at most 2 there could be:

    >>> relative_precision_at_k(["a", "x", "y"], {"a", "b"}, 3)
    0.5
    >>> precision_at_k(["a", "x", "y"], {"a", "b"}, 3)
    0.3333333333333333
    """
    k = check_k(k)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    return score if score is not None else q.hits(k) / min(k, len(q.relevant_ids))


@shared_parameters
def rprec_mult(retrieved: Iterable, relevant: Any, x: float, *, relevance_level: float = 1,
               empty_relevant: AnswerlessRule = "zero",
               duplicates: DuplicateRule = "error") -> float:
    r"""Precision at :math:`x` times R docs (R-precision at :math:`x = 1`).

    .. math:: \mathrm{Rprec}_x = \mathrm{Precision@}c, \qquad c = \lfloor x R + 0.9 \rfloor

    The rank :math:`c` is rounded as trec_eval's ``Rprec_mult`` rounds it [1]_ (0 if it is
    0).

    Parameters
    ----------
    {retrieved, relevant}
    x : float
        The multiple of R, 0 or more (trec_eval's ``Rprec_mult_0.20`` is ``x = 0.2``).
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    precision : float
        Precision at rank :math:`c`, in [0, 1]; 0 when :math:`c = 0`.

    References
    ----------
    .. [1] trec_eval 10.0, ``m_Rprec_mult.c``: *Precision measured at multiples of R
       (num_rel)* (``Rprec_mult_x``).

    Examples
    --------
    Two relevant docs and x = 2: precision at rank 4.

    >>> rprec_mult(["a", "x", "b", "y"], {"a", "b"}, 2.0)
    0.5
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    c = int(x * len(q.relevant_ids) + 0.9)
    return q.hits(c) / c if c > 0 else 0.0
