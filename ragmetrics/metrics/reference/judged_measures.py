r"""Measures that tell judged docs from unjudged ones, the readable definitions of
:mod:`ragmetrics.metrics.judged`: bpref, infAP, Judged@k, unj@k, the judged non-relevant
docs retrieved, RBP's residual and trec_eval's relstring.

Most measures read an unjudged doc as not relevant, which understates a system that
finds good docs nobody judged (pooled collections; judgments made by an LLM for some
docs only). These skip the unjudged docs (bpref, infAP), or say how many there are.
A doc is *unjudged* when it is not in the golden set, or judged below 0 (trec_eval's
"in the pool but not judged"); it is *judged non-relevant* with a grade from 0 up to,
not including, ``relevance_level``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ...conventions import AnswerlessRule, DuplicateRule
from ...validation import check_k
from .judged_query import judge_query, shared_parameters

__all__ = ["bpref", "infap", "judged_at_k", "num_nonrel_judged_ret", "rbp_residual",
           "relstring", "unjudged_at_k"]


@shared_parameters
def bpref(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
          empty_relevant: AnswerlessRule = "zero", duplicates: DuplicateRule = "error") -> float:
    r"""Binary preference: how often the relevant docs rank above the judged non-relevant
    ones, unjudged docs left out (Buckley and Voorhees, SIGIR 2004; trec_eval's bpref).

    .. math:: \mathrm{bpref} = \frac{1}{R} \sum_{\text{relevant } i \text{ retrieved}}
              \left(1 - \frac{\min(n_i, R)}{\min(N, R)}\right)

    where :math:`n_i` counts the judged non-relevant docs ranked above :math:`i` and
    :math:`N` all judged non-relevant docs of the query. Unjudged docs are skipped: bpref
    does not take "not judged" for "not relevant" [1]_. This is trec_eval's main bpref
    [2]_.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The smallest grade that counts as relevant; the judged grades from 0 up to it are
        the judged non-relevant docs :math:`N`.
    {empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    bpref : float
        In [0, 1]: 1 when no judged non-relevant doc is above a relevant one and every
        relevant doc is retrieved.

    References
    ----------
    .. [1] C. Buckley and E. M. Voorhees, "Retrieval evaluation with incomplete
       information", in *Proceedings of SIGIR 2004*, pp. 25-32.
    .. [2] trec_eval 10.0, ``m_bpref.c``: *Main binary preference measure* (``bpref``).

    Examples
    --------
    The judged non-relevant n1 is above the first relevant doc (out of at most
    min(2, 2) = 2), and then above the second: (1 - 1/2) + (1 - 1/2), over 2.

    >>> grades = {"r1": 1, "r2": 1, "n1": 0, "n2": 0}
    >>> bpref(["n1", "r1", "u", "r2"], grades)
    0.5

    The unjudged doc u costs nothing:

    >>> bpref(["u", "r1", "r2", "n1"], grades)
    1.0
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    R = len(q.relevant_ids)
    nonrelevant = q.judged_nonrelevant()
    scale = min(len(nonrelevant), R)
    total, above = 0.0, 0
    for doc in q.ranking:
        if doc in nonrelevant:
            above += 1
        elif doc in q.relevant_ids:
            total += 1.0 - (min(above, R) / scale if above > 0 else 0.0)
    return total / R


@shared_parameters
def infap(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
          empty_relevant: AnswerlessRule = "zero", duplicates: DuplicateRule = "error") -> float:
    r"""Inferred AP (Yilmaz and Aslam, CIKM 2006), as trec_eval computes it.

    The judgments are taken to be a random sample of a pool; docs not in the judgments
    are outside the pool, and docs graded below 0 are in the pool but unjudged. For the
    relevant doc at rank :math:`j + 1`, with :math:`p` pool docs above it (judged at any
    grade), :math:`\rho` of them relevant and :math:`\nu` judged non-relevant:

    .. math:: \frac{1}{j + 1} + \frac{j}{j + 1} \cdot \frac{p}{j} \cdot
              \frac{\rho + \varepsilon}{\rho + \nu + 2\varepsilon}, \qquad
              \varepsilon = 10^{-5}

    (1 at rank 1); infAP is their sum over R. The estimate is Yilmaz and Aslam's [1]_,
    the arithmetic trec_eval's [2]_.

    Parameters
    ----------
    {retrieved, relevant}
    relevance_level : number, default 1
        The smallest grade that counts as relevant (:math:`\rho`); a judged doc below it,
        from grade 0, counts in :math:`\nu`.
    {empty_relevant(zero=0, article=0), duplicates}

    Returns
    -------
    infap : float
        The estimate of AP, in [0, 1].

    References
    ----------
    .. [1] E. Yilmaz and J. A. Aslam, "Estimating average precision with incomplete and
       imperfect judgments", in *Proceedings of CIKM 2006*, pp. 102-111.
    .. [2] trec_eval 10.0, ``m_infap.c``: *Inferred AP* (``infAP``).

    Examples
    --------
    With complete judgments infAP is AP, up to the smoothing:

    >>> grades = {"a": 1, "b": 1, "x": 0}
    >>> round(infap(["a", "x", "b"], grades), 4)
    0.8333
    >>> from ragmetrics.metrics.reference import average_precision
    >>> round(average_precision(["a", "x", "b"], grades), 4)
    0.8333
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if score is not None:
        return score
    eps = 0.00001
    total, rho, nu, pool = 0.0, 0, 0, 0
    for j, doc in enumerate(q.ranking):
        if doc not in q.grades:
            continue  # not in the pool: it only moves the ranks
        grade = q.grades[doc]
        if doc in q.relevant_ids:
            if j == 0:
                total += 1.0
            else:
                total += 1.0 / (j + 1.0) + (j / (j + 1.0)) * (pool / j) * (
                    (rho + eps) / (rho + nu + 2 * eps))
            rho += 1
        elif grade >= 0:
            nu += 1
        pool += 1
    return total / len(q.relevant_ids)


@shared_parameters
def judged_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                duplicates: DuplicateRule = "error") -> float:
    r"""The share of the top ``k`` slots that hold a judged doc.

    .. math:: \mathrm{Judged@}k = \frac{|\{\text{judged docs in the top } k\}|}{k}

    A low Judged@k says the other metrics know little about these docs: a system that
    retrieves good docs nobody judged looks bad on all of them (ir_measures' Judged@k
    [1]_).
    An empty slot is not judged. It does not depend on relevance, so a golden set with no
    relevant doc is scored as any other under ``empty_relevant="zero"`` (as nDCG is).

    Parameters
    ----------
    {retrieved, relevant}
    k : int
        The slots to read, a positive int (None is refused: an empty slot is not judged,
        so the share needs ``k``).
    {relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    judged : float
        In [0, 1]. A ranking that fills the ``k`` slots and has no grade below 0 has
        Judged@k + :func:`unjudged_at_k` = 1.

    References
    ----------
    .. [1] S. MacAvaney, C. Macdonald and I. Ounis, "Streamlining evaluation with
       ir-measures", in *Proceedings of ECIR 2022*, pp. 305-310 (``Judged@k``).

    Examples
    --------
    a (grade 1) and b (grade 0) are judged, x and y are not:

    >>> judged_at_k(["a", "x", "b", "y"], {"a": 1, "b": 0}, 4)
    0.5

    A grade below 0 is judged here (trec_eval's unj counts it as unjudged):

    >>> judged_at_k(["a", "n"], {"a": 1, "n": -1}, 2)
    1.0
    """
    k = check_k(k)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    return score if score is not None else sum(doc in q.grades for doc in q.top(k)) / k


@shared_parameters
def unjudged_at_k(retrieved: Iterable, relevant: Any, k: int | None = None, *,
                  relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                  duplicates: DuplicateRule = "error") -> float:
    r"""The share of the top ``k`` slots that hold an unjudged doc: not judged, or judged
    below 0 (trec_eval's ``unj``; an empty slot counts as judged).

    .. math:: \mathrm{unj@}k = \frac{|\{\text{unjudged docs in the top } k\}|}{k}

    as trec_eval computes it [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    k : int
        How many slots, from the top: a positive int (required).
    {relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    unjudged : float
        In [0, 1]; lower is better (the other measures know more).

    References
    ----------
    .. [1] trec_eval 10.0, ``m_unjudged.c``: *Unjudged at cutoffs* (``unj_k``; an empty
       slot is judged, and a grade below 0 is not).

    Examples
    --------
    x and y are not judged, and b is judged below 0: three of four.

    >>> unjudged_at_k(["a", "x", "b", "y"], {"a": 1, "b": -1}, 4)
    0.75
    """
    k = check_k(k)
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    return score if score is not None else sum(
        q.grades.get(doc, -1.0) < 0 for doc in q.top(k)) / k


@shared_parameters
def num_nonrel_judged_ret(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                          empty_relevant: AnswerlessRule = "zero",
                          duplicates: DuplicateRule = "error") -> float:
    """How many retrieved docs are judged non-relevant: a grade from 0 up to, not
    including, ``relevance_level`` (trec_eval's ``num_nonrel_judged_ret``). An unjudged
    doc, or one judged below 0, is not counted [1]_.

    Parameters
    ----------
    {retrieved, relevant, relevance_level, empty_relevant(zero=value, article=0)}
    {duplicates}

    Returns
    -------
    count : float
        The count, a whole number (a float, as every value of
        :func:`ragmetrics.evaluate` is).

    References
    ----------
    .. [1] trec_eval 10.0, ``m_num_nonrel_judged_ret.c``: *Number of non-relevant
       judged documents retrieved for topic* (``num_nonrel_judged_ret``).

    Examples
    --------
    n is judged non-relevant; u is unjudged and m judged below 0, so only n counts:

    >>> num_nonrel_judged_ret(["a", "n", "u", "m"], {"a": 1, "n": 0, "m": -1})
    1.0
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    if score is not None:
        return score
    nonrelevant = q.judged_nonrelevant()
    return float(sum(doc in nonrelevant for doc in q.ranking))


@shared_parameters
def rbp_residual(retrieved: Iterable, relevant: Any, *, p: float = 0.9,
                 relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
                 duplicates: DuplicateRule = "error") -> float:
    r"""How much RBP could still rise: the weight of the unjudged docs retrieved and of
    the ranks past the end of the ranking (trec_eval's ``rbp_resid``).

    .. math:: (1 - p) \sum_{\text{unjudged } i} p^{i-1} + p^{n}

    with :math:`n` docs retrieved; unjudged means not judged, or judged below 0.
    trec_eval reports 0 when no retrieved doc is unjudged (leaving out :math:`p^n`) [2]_,
    and so does this. Moffat and Zobel call it RBP's residual [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    p : float, default 0.9
        The persistence of :func:`rbp`: the chance of going on to the next rank.
    {relevance_level(emptiness), empty_relevant(zero=value, article=0), duplicates}

    Returns
    -------
    residual : float
        In [0, 1]: how far RBP could rise if every unjudged doc had the highest gain.

    References
    ----------
    .. [1] A. Moffat and J. Zobel, "Rank-biased precision for measurement of retrieval
       effectiveness", *ACM Transactions on Information Systems* 27(1), 2008, article 2.
    .. [2] trec_eval 10.0, ``m_rbp_resid.c``: *Rank-Biased Precision residual*
       (``rbp_resid``).

    Examples
    --------
    u at rank 2 is unjudged, and the ranks past 2 are unread: (1 - 0.5) 0.5 + 0.25.

    >>> rbp_residual(["a", "u"], {"a"}, p=0.5)
    0.5
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    if score is not None:
        return score
    unjudged = [i for i, doc in enumerate(q.ranking) if q.grades.get(doc, -1) < 0]
    if not unjudged:
        return 0.0
    # At most 1 (every doc unjudged: (1 - p)(1 + p + ... + p^(n-1)) + p^n = 1), which
    # the float sum can pass by an ulp.
    return min((1.0 - p) * math.fsum(p**i for i in unjudged) + p ** len(q.ranking), 1.0)


@shared_parameters
def relstring(retrieved: Iterable, relevant: Any, length: int = 10, *,
              relevance_level: float = 1, empty_relevant: AnswerlessRule = "zero",
              duplicates: DuplicateRule = "error") -> str | None:
    """trec_eval's ``relstring``: the judgments of the top ``length`` docs, a character
    each: the grade (0-9, ``>`` above 9), ``-`` for a doc not judged, ``.`` for one
    judged below 0 (``?`` for a grade that is not a whole number).

    A look at what the judgments say of the top of a ranking, as trec_eval prints it
    [1]_.

    Parameters
    ----------
    {retrieved, relevant}
    length : int, default 10
        How many docs, from the top.
    {relevance_level(emptiness)}
    empty_relevant : {"zero", "article", "skip", "error"}, default "zero"
        A text has no number for a policy to give: a query with no relevant doc has its
        text under ``"zero"`` and ``"article"``, None under ``"skip"`` (left out), and is
        an error under ``"error"``.
    {duplicates}

    Returns
    -------
    text : str or None
        One character per doc of the top ``length`` (fewer if fewer were retrieved).

    References
    ----------
    .. [1] trec_eval 10.0, ``m_relstring.c``: *The relevance values for the first N
       (default 10) retrieved docs* (``relstring``).

    Examples
    --------
    Grade 2, not judged, a grade above 9, judged below 0:

    >>> relstring(["a", "x", "b", "n"], {"a": 2, "b": 12, "n": -1})
    '2->.'
    >>> relstring(["a", "x", "b"], {"a": 2}, 2)
    '2-'
    """
    q, score = judge_query(retrieved, relevant, relevance_level, empty_relevant, duplicates,
                           kept_under_zero=True)
    if score is not None and math.isnan(score):  # "skip"
        return None

    def character(doc) -> str:
        if doc not in q.grades:
            return "-"
        grade = q.grades[doc]
        if grade < 0:
            return "."
        if grade != math.floor(grade):
            return "?"
        return ">" if grade > 9 else str(int(grade))

    return "".join(character(doc) for doc in q.ranking[:length])
