"""Per-query retrieval metrics, written to read like the article's formulas.

Every function takes ``retrieved`` (doc ids in rank order, best first) and ``relevant``
(the golden set: a set of ids, or a mapping id -> grade), and, where the metric has a
cut-off, ``k``. Options are keyword-only. The conventions they share (what counts as
relevant, duplicates, empty golden sets) are named in :mod:`ragmetrics.policies`; the
defaults reproduce trec_eval.

Names, said out loud because the field uses them loosely:

- **Recall@k** is the *fraction* of the relevant docs found in the top k.
- **Hit rate@k** (trec_eval's ``success@k``, ir_measures' ``Success@k``) is 1 if *any*
  relevant doc is in the top k, else 0. Many RAG write-ups, the source article's opening
  summary among them, call this "recall"; it is not.
- **MRR** is the mean over queries of the **reciprocal rank** of one query.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..errors import InputTypeError, InputValueError
from ..policies import DUPLICATE_POLICIES, EMPTY_POLICIES, GAIN_POLICIES
from ..validation import (
    as_grades,
    as_ranking,
    check_choice,
    check_id_kinds,
    check_k,
    check_relevance_level,
    check_total_gain,
    no_relevant_doc,
)

__all__ = [
    "average_precision",
    "dcg_at_k",
    "hit_rate_at_k",
    "mrr",
    "ndcg_at_k",
    "precision_at_k",
    "r_precision",
    "recall_at_k",
    "reciprocal_rank",
]


class _Judged:
    """One query after validation: the ranking, the grades and the relevant ids."""

    __slots__ = ("grades", "level", "ranking", "relevant_ids")

    def __init__(self, retrieved, relevant, relevance_level, duplicates):
        self.level = level = check_relevance_level(relevance_level)
        check_choice(duplicates, DUPLICATE_POLICIES, "duplicates")
        self.grades = as_grades(relevant)
        self.ranking = as_ranking(retrieved, duplicates=duplicates)
        check_id_kinds(self.ranking, self.grades)
        self.relevant_ids = {doc for doc, g in self.grades.items() if g >= level}

    def check_gains(self, gain: str) -> None:
        """Refuse grades whose gains overflow a float (nDCG would be NaN)."""
        check_total_gain(self.grades.values(), gain)

    def hits(self, k: int | None) -> int:
        top = self.ranking if k is None else self.ranking[:k]
        return sum(doc in self.relevant_ids for doc in top)


def _if_empty(judged: _Judged, empty_relevant: str, *, article_value: float) -> float | None:
    """The score of a query with no relevant doc, or None if the query has one."""
    check_choice(empty_relevant, EMPTY_POLICIES, "empty_relevant")
    if judged.relevant_ids:
        return None
    if empty_relevant == "error":
        raise no_relevant_doc(judged.grades, judged.level)
    return {"zero": 0.0, "article": article_value, "skip": math.nan}[empty_relevant]


def _dcg(q: _Judged, ranking: list, gain: str) -> float:
    """The DCG of ``ranking`` under the judgments of ``q``: sum of gain / log2(rank + 1)."""
    return math.fsum(
        _gain(q.grades.get(doc, 0.0), gain) / math.log2(rank + 1)
        for rank, doc in enumerate(ranking, start=1)
    )


def _gain(grade: float, gain: str) -> float:
    if grade <= 0:  # negative grades ("judged harmful") add no gain
        return 0.0
    return grade if gain == "linear" else 2.0**grade - 1.0


def recall_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Fraction of all relevant docs that appear in the top ``k`` results.

    .. math:: \mathrm{Recall@}k = \frac{|\{\text{relevant docs in the top } k\}|}
              {|\{\text{relevant docs}\}|}

    Recall answers "did we find it?". It counts every relevant doc, judged retrieved or
    not, in the denominator, so a query with 50 relevant docs cannot reach 1 at ``k=10``.
    It is not the *hit rate* (:func:`hit_rate_at_k`), which asks only whether at least one
    relevant doc made the top ``k``.

    Parameters
    ----------
    retrieved : iterable of ids
        The ranking, best first.
    relevant : set of ids or mapping id -> grade
        The golden set. With grades, a doc is relevant when its grade >= ``relevance_level``.
    k : int or None, default None
        The cut-off, a positive int; None reads the whole ranking. A ranking shorter than
        ``k`` is scored as it is.
    relevance_level : number, default 1
        The smallest grade that counts as relevant.
    empty_relevant : {"zero", "article", "skip", "error"}, default "zero"
        Score when no doc is relevant: 0 (trec_eval), 1.0 (the article's code), NaN, or raise.
    duplicates : {"error", "keep_first"}, default "error"
        What to do with an id repeated in ``retrieved``. It is never counted twice.

    Returns
    -------
    float in [0, 1]

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
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=1.0)
    if empty is not None:
        return empty
    return q.hits(k) / len(q.relevant_ids)


def precision_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Fraction of the top ``k`` slots that hold a relevant doc.

    .. math:: \mathrm{Precision@}k = \frac{|\{\text{relevant docs in the top } k\}|}{k}

    Precision answers "how much of what we hand the model is noise?". The denominator is
    always ``k``, also when fewer than ``k`` docs were retrieved (trec_eval's rule): an
    empty slot is a wasted slot, so returning less cannot raise precision. With
    ``k=None`` it is the share of the whole ranking that is relevant (trec_eval's
    ``set_P``).

    Parameters
    ----------
    retrieved, relevant, k, relevance_level, empty_relevant, duplicates
        As in :func:`recall_at_k`. Under ``empty_relevant="article"`` precision is 0,
        as in the article's code.

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> retrieved = ["a", "x", "b", "y", "z"]
    >>> precision_at_k(retrieved, {"a", "b"}, 5)  # 2 relevant of 5 shown
    0.4

    Asking for more slots than were retrieved still divides by ``k``:

    >>> precision_at_k(retrieved, {"a", "b"}, 10)
    0.2
    """
    k = check_k(k, allow_none=True)
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    if k is None:  # the whole ranking: the share of what was returned (trec_eval's set_P)
        return q.hits(None) / len(q.ranking) if q.ranking else 0.0
    return q.hits(k) / k


def hit_rate_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""1.0 if at least one relevant doc is in the top ``k``, else 0.0.

    .. math:: \mathrm{HitRate@}k = \mathbb{1}\left[\,|\{\text{relevant docs in the top }
              k\}| > 0\,\right]

    Also called *success@k* (trec_eval) and, confusingly, "recall" in some RAG write-ups.
    Averaged over queries it is the share of queries with at least one useful chunk.

    Examples
    --------
    >>> hit_rate_at_k(["x", "a", "y"], {"a", "b", "c"}, 2)  # one of three is enough
    1.0
    >>> recall_at_k(["x", "a", "y"], {"a", "b", "c"}, 2)    # recall sees the other two
    0.3333333333333333
    """
    k = check_k(k, allow_none=True)
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    return 1.0 if q.hits(k) else 0.0


def reciprocal_rank(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""One over the rank of the first relevant doc; 0 if none is in the top ``k``.

    .. math:: \mathrm{RR@}k = \begin{cases} 1/\mathrm{rank}_1 & \mathrm{rank}_1 \le k \\
              0 & \text{otherwise} \end{cases}

    where :math:`\mathrm{rank}_1` is the 1-based rank of the first relevant doc. It sees
    only that first hit: a second relevant doc, anywhere, changes nothing.
    ``k=None`` searches the whole ranking (trec_eval's ``recip_rank``).

    Examples
    --------
    >>> reciprocal_rank(["x", "y", "a", "b"], {"a", "b"})  # first hit at rank 3
    0.3333333333333333
    >>> reciprocal_rank(["x", "y", "a", "b"], {"a", "b"}, k=2)  # not in the top 2
    0.0
    """
    k = check_k(k, allow_none=True)
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    top = q.ranking if k is None else q.ranking[:k]
    for rank, doc in enumerate(top, start=1):
        if doc in q.relevant_ids:
            return 1.0 / rank
    return 0.0


def mrr(
    pairs: Iterable[tuple[Iterable, Any]],
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Mean reciprocal rank over queries, as the article's ``compute_mrr``.

    .. math:: \mathrm{MRR@}k = \frac{1}{|Q|} \sum_{q \in Q} \mathrm{RR@}k(q)

    Parameters
    ----------
    pairs : iterable of (retrieved, relevant)
        One pair per query.
    k : int or None, default None
        The search depth; None is the whole ranking.
    relevance_level, empty_relevant, duplicates
        As in :func:`reciprocal_rank`. Queries scored NaN (``empty_relevant="skip"``)
        are left out of the mean.

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
            score = reciprocal_rank(
                retrieved,
                relevant,
                k,
                relevance_level=relevance_level,
                empty_relevant=empty_relevant,
                duplicates=duplicates,
            )
        except (TypeError, ValueError) as error:
            raise type(error)(f"pairs[{i}]: {error}") from None
        scores.append(score)
    if not scores:
        raise InputValueError("mrr needs at least one (retrieved, relevant) pair, got none")
    kept = [s for s in scores if not math.isnan(s)]
    return math.fsum(kept) / len(kept) if kept else math.nan


def dcg_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    gain: str = "linear",
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Discounted cumulative gain of the top ``k``.

    .. math:: \mathrm{DCG@}k = \sum_{i=1}^{k} \frac{g(\mathrm{rel}_i)}{\log_2(i + 1)}

    where :math:`\mathrm{rel}_i` is the grade of the doc at rank ``i`` (0 if unjudged) and
    :math:`g` is the gain: the grade itself (``gain="linear"``, trec_eval) or
    :math:`2^{\mathrm{rel}} - 1` (``gain="exponential"``). Rank 1 is not discounted
    (:math:`\log_2 2 = 1`); rank 2 is divided by :math:`\log_2 3 \approx 1.585`.
    Negative grades add no gain. ``relevance_level`` and ``empty_relevant`` only say what
    a golden set without a relevant doc scores, as for :func:`ndcg_at_k`.

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
    """
    k = check_k(k, allow_none=True)
    check_choice(gain, GAIN_POLICIES, "gain")
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    q.check_gains(gain)
    # As nDCG: computed under "zero" (the gains ignore the level), else the policy's value.
    if empty_relevant != "zero":
        empty = _if_empty(q, empty_relevant, article_value=0.0)
        if empty is not None:
            return empty
    return _dcg(q, q.ranking[:k] if k is not None else q.ranking, gain)


def ndcg_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    gain: str = "linear",
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""DCG@k divided by the best DCG@k any ranking could reach.

    .. math:: \mathrm{nDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}

    The ideal DCG ranks *every judged relevant doc*, retrieved or not, by gain, best
    first: a relevant doc the retriever never returned still raises the bar. (Computing
    the ideal from the retrieved list alone, as some code does, overstates nDCG.)

    Grades are gains (see :func:`dcg_at_k`); ``relevance_level`` only decides whether the
    golden set is empty, as in trec_eval, where graded gains ignore the level. When the
    ideal DCG is 0 the score is 0 under the default ``empty_relevant="zero"``.

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
    """
    k = check_k(k, allow_none=True)
    check_choice(gain, GAIN_POLICIES, "gain")
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    q.check_gains(gain)
    # Under "zero" nDCG is computed even when no doc reaches relevance_level: its gains
    # are grades, which ignore the level (trec_eval). It is 0 when the ideal DCG is 0.
    if empty_relevant != "zero":
        empty = _if_empty(q, empty_relevant, article_value=1.0)
        if empty is not None:
            return empty
    top = q.ranking if k is None else q.ranking[:k]
    dcg = _dcg(q, top, gain)
    # The ideal ranking: every judged doc, best gain first; its DCG is the best possible.
    ideal = sorted(q.grades, key=lambda doc: _gain(q.grades[doc], gain), reverse=True)
    idcg = _dcg(q, ideal if k is None else ideal[:k], gain)
    return dcg / idcg if idcg > 0 else 0.0


def average_precision(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Mean of Precision@i over the ranks i of the relevant docs (its mean over queries: MAP).

    .. math:: \mathrm{AP@}k = \frac{1}{R} \sum_{i=1}^{k} \mathrm{Precision@}i \cdot
              \mathrm{rel}_i

    where :math:`R` is the number of relevant docs and :math:`\mathrm{rel}_i` is 1 if the
    doc at rank ``i`` is relevant. Relevant docs never retrieved (or below ``k``) add 0 but
    still count in :math:`R`, as in trec_eval's ``map`` and ``map_cut``.

    Examples
    --------
    Relevant docs at ranks 1 and 3, a third never retrieved: (1/1 + 2/3) / 3.

    >>> round(average_precision(["a", "x", "b"], {"a", "b", "c"}), 4)
    0.5556
    """
    k = check_k(k, allow_none=True)
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    top = q.ranking if k is None else q.ranking[:k]
    found, total = 0, 0.0
    for rank, doc in enumerate(top, start=1):
        if doc in q.relevant_ids:
            found += 1
            total += found / rank
    return total / len(q.relevant_ids)


def r_precision(
    retrieved: Iterable,
    relevant: Any,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Precision at rank R, where R is the number of relevant docs.

    .. math:: \mathrm{R\text{-}Precision} = \frac{|\{\text{relevant docs in the top } R\}|}{R}

    At the cut-off R, precision and recall are equal, so R-precision needs no ``k``.

    Examples
    --------
    >>> r_precision(["a", "x", "b", "c"], {"a", "b", "c"})  # 2 of the top 3
    0.6666666666666666
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    r = len(q.relevant_ids)
    return q.hits(r) / r
