r"""Interpolated precision at recall levels and the 11-point average, the readable
definitions of :mod:`ragmetrics.metrics.interpolated`.

The precision-recall curve of a ranking is a staircase: precision at each relevant doc
retrieved, against the recall reached there. Its *interpolated* precision at a recall
level is the best precision at that recall or beyond, which makes the curve fall
monotonically: the curve a textbook draws.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ...conventions import AnswerlessRule, DuplicateRule
from .judged_query import judge_query, shared_parameters

__all__ = ["eleven_point_average", "iprec_at_recall"]


@shared_parameters
def iprec_at_recall(retrieved: Iterable, relevant: Any, x: float, *,
                    relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                    duplicates: DuplicateRule = "error") -> float:
    r"""Interpolated precision at recall level :math:`x`: the best precision reached at
    any recall of at least :math:`x`.

    .. math:: \mathrm{iprec}(x) = \max_{j \ge c} \frac{j}{r_j}, \qquad
              c = \max(\mathrm{round}(x R), 1)

    where :math:`r_j` is the rank of the :math:`j`-th relevant doc retrieved; 0 if fewer
    than :math:`c` relevant docs were retrieved. :math:`xR` is rounded half away from 0,
    as trec_eval 10 does [1]_ (trec_eval 9 and pytrec_eval: :math:`\lfloor xR + 0.9
    \rfloor`). The interpolation is the textbooks' [2]_.

    Parameters
    ----------
    {retrieved, relevant}
    x : float
        The recall level, in [0, 1] (trec_eval's ``iprec_at_recall_0.20`` is 0.2).
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    precision : float
        The interpolated precision, in [0, 1].

    References
    ----------
    .. [1] trec_eval 10.0, ``m_iprec_at_recall.c``: *Interpolated Precision at recall
       cutoffs* (``iprec_at_recall_x``).
    .. [2] C. D. Manning, P. Raghavan and H. Schütze, *Introduction to Information
       Retrieval*, Cambridge University Press, 2008, section 8.4.

    Examples
    --------
    Relevant docs at ranks 1 and 4, R = 2: precision 1 at recall 1/2, then 1/2 at
    recall 1.

    >>> iprec_at_recall(["a", "x", "y", "b"], {"a", "b"}, 0.5)
    1.0
    >>> iprec_at_recall(["a", "x", "y", "b"], {"a", "b"}, 1.0)
    0.5
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    precisions = []  # precision at each relevant doc retrieved, in rank order
    for rank, doc in enumerate(q.ranking, start=1):
        if doc in q.relevant_ids:
            precisions.append((len(precisions) + 1) / rank)
    scaled = x * len(q.relevant_ids)
    whole = math.floor(scaled)
    c = max(whole + (1 if scaled - whole >= 0.5 else 0), 1)  # rounded, halves up
    if c > len(precisions):
        return 0.0
    return max(precisions[c - 1:])


@shared_parameters
def eleven_point_average(retrieved: Iterable, relevant: Any, *,
                         levels=(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
                         relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                         duplicates: DuplicateRule = "error") -> float:
    r"""The mean interpolated precision at recall 0, 0.1, ..., 1 (or ``levels``):
    trec_eval's ``11pt_avg``.

    .. math:: \frac{1}{11} \sum_{x \in \{0, 0.1, \ldots, 1\}} \mathrm{iprec}(x)

    A summary of the whole interpolated precision-recall curve (:func:`iprec_at_recall`),
    as AP summarizes the uninterpolated one: trec_eval's [1]_, and the textbooks' [2]_.

    Parameters
    ----------
    {retrieved, relevant}
    levels : tuple of float, default (0.0, 0.1, ..., 1.0)
        The recall levels, in [0, 1], in increasing order.
    {relevance_level, empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    average : float
        The mean, in [0, 1].

    References
    ----------
    .. [1] trec_eval 10.0, ``m_11pt_avg.c``: *Interpolated Precision averaged over 11
       recall points* (``11pt_avg``).
    .. [2] C. D. Manning, P. Raghavan and H. Schütze, *Introduction to Information
       Retrieval*, Cambridge University Press, 2008, section 8.4.

    Examples
    --------
    Recall 0 to 0.7 of 2 relevant docs round to the first (``0.7 x 2 = 1.4``, precision
    1 at rank 1) and 0.8 to 1 to the second (precision 2/4): (8 x 1 + 3 x 0.5) / 11.

    >>> round(eleven_point_average(["a", "x", "y", "b"], {"a", "b"}), 4)
    0.8636
    """
    values = [iprec_at_recall(retrieved, relevant, x, relevance_level=relevance_level,
                              empty_relevant=empty_relevant, duplicates=duplicates)
              for x in levels]
    return math.fsum(values) / len(values)
