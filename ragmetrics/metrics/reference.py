"""Per-query retrieval metrics, written to read like the article's formulas.

Every function takes ``retrieved`` (doc ids in rank order, best first) and ``relevant``
(the golden set: a set of ids, or a mapping id -> grade), and, where the metric has a
cut-off, ``k``. Options are keyword-only. The conventions they share (what counts as
relevant, duplicates, empty golden sets) are named in :mod:`ragmetrics.conventions`; the
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

from ..conventions import DUPLICATE_POLICIES, EMPTY_POLICIES, GAIN_POLICIES
from ..errors import InputTypeError, InputValueError
from ..validation import (
    as_grades,
    as_ranking,
    check_choice,
    check_id_kinds,
    check_k,
    check_log_base,
    check_relevance_level,
    check_total_gain,
    no_relevant_doc,
)
from .gains import gain_map_overflow

__all__ = [
    "average_precision",
    "bing",
    "bpref",
    "dcg_at_k",
    "eleven_point_average",
    "err_at_k",
    "g_measure",
    "hit_rate_at_k",
    "ideal_dcg_at_k",
    "infap",
    "iprec_at_recall",
    "judged_at_k",
    "mrr",
    "ndcg_at_k",
    "ndcg_rel",
    "num_nonrel_judged_ret",
    "num_q",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "precision_at_k",
    "r_precision",
    "rbp",
    "rbp_residual",
    "recall_at_k",
    "reciprocal_rank",
    "relative_precision_at_k",
    "relstring",
    "rndcg",
    "rprec_mult",
    "set_ap",
    "set_f",
    "set_precision",
    "set_recall",
    "set_relative_precision",
    "unjudged_at_k",
    "utility",
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


def _dcg(q: _Judged, ranking: list, gain: str, base: float = 2, gains=()) -> float:
    """The DCG of ``ranking`` under the judgments of ``q``: sum of gain / log_b(rank + 1)."""
    try:
        total = math.fsum(
            _doc_gain(q, doc, gain, gains) / _log(rank + 1, base)
            for rank, doc in enumerate(ranking, start=1)
        )
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):  # the convention's gains are checked before: a map's
        raise gain_map_overflow(gains)
    return total


def _log(x: float, base: float) -> float:
    return math.log2(x) if base == 2 else math.log(x) / math.log(base)


def _doc_gain(q: _Judged, doc, gain: str, gains=()) -> float:
    """A doc's gain: from the gain map ``gains`` for a judged grade it names, else from
    the convention (0 for an unjudged doc)."""
    if doc not in q.grades:
        return 0.0
    grade = q.grades[doc]
    mapped = dict(gains)
    if grade >= 0 and grade in mapped:
        return mapped[grade]
    return _gain(grade, gain)


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
    base: float = 2,
    gains=(),
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
    Negative grades add no gain. ``base`` is the base of the discount's log (2; scikit-
    learn's ``dcg_score`` calls it ``log_base``), and ``gains`` a gain map
    (``((grade, gain), ...)``, e.g. ``((1, 3), (2, 9))``: grade 1 gains 3, grade 2 gains 9,
    other grades the convention's gain). ``relevance_level`` and ``empty_relevant`` only
    say what a golden set without a relevant doc scores, as for :func:`ndcg_at_k`.

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
    check_log_base(base)
    check_choice(gain, GAIN_POLICIES, "gain")
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    q.check_gains(gain)
    # As nDCG: computed under "zero" (the gains ignore the level), else the policy's value.
    if empty_relevant != "zero":
        empty = _if_empty(q, empty_relevant, article_value=0.0)
        if empty is not None:
            return empty
    return _dcg(q, q.ranking[:k] if k is not None else q.ranking, gain, base, gains)


def ndcg_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    gain: str = "linear",
    base: float = 2,
    gains=(),
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
    ideal DCG is 0 the score is 0 under the default ``empty_relevant="zero"``. ``base``
    and ``gains`` are as in :func:`dcg_at_k` (the base cancels out).

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
    check_log_base(base)
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
    dcg = _dcg(q, top, gain, base, gains)
    idcg = _ideal_dcg(q, k, gain, base, gains)
    return dcg / idcg if idcg > 0 else 0.0


def _ideal_dcg(q: _Judged, k: int | None, gain: str, base: float, gains) -> float:
    """The DCG of the top ``k`` of the ideal ranking: every judged doc with a gain, best
    first (retrieved or not): the best DCG@k possible."""
    ideal = sorted((doc for doc in q.grades if _doc_gain(q, doc, gain, gains) > 0),
                   key=lambda doc: _doc_gain(q, doc, gain, gains), reverse=True)
    return _dcg(q, ideal if k is None else ideal[:k], gain, base, gains)


def ideal_dcg_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    gain: str = "linear",
    base: float = 2,
    gains=(),
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""The best DCG@k any ranking could reach (IDCG@k, nDCG's denominator; trec_eval's
    experimental ``ideal_dcg``).

    .. math:: \mathrm{IDCG@}k = \sum_{i=1}^{\min(k, |J|)} \frac{g_{(i)}}{\log_2(i + 1)}

    with :math:`g_{(1)} \ge g_{(2)} \ge \dots` the gains of the judged docs :math:`J`,
    best first, retrieved or not: it depends on the judgments only, so ``retrieved``
    is read for its checks alone. ``gain``, ``base`` and ``gains`` as in
    :func:`dcg_at_k`.

    Examples
    --------
    Three relevant docs, grade 1: 1 + 1/log2(3) + 1/2, whatever was retrieved.

    >>> round(ideal_dcg_at_k(["x"], {"A", "C", "E"}, 5), 4)
    2.1309
    >>> round(ideal_dcg_at_k(["x"], {"a": 1, "b": 2}, 1), 4)  # b alone, gain 2
    2.0
    """
    k = check_k(k, allow_none=True)
    check_log_base(base)
    check_choice(gain, GAIN_POLICIES, "gain")
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    q.check_gains(gain)
    if empty_relevant != "zero":
        empty = _if_empty(q, empty_relevant, article_value=0.0)
        if empty is not None:
            return empty
    return _ideal_dcg(q, k, gain, base, gains)


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


def relative_precision_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Relevant docs in the top ``k`` over the most there could be: :math:`\min(k, R)`.

    .. math:: \mathrm{RelP@}k = \frac{|\{\text{relevant docs in the top } k\}|}{\min(k, R)}

    Precision@k cannot reach 1 for a query with fewer than ``k`` relevant docs; relative
    precision can (trec_eval's ``relative_P``).

    Examples
    --------
    >>> relative_precision_at_k(["a", "x", "y"], {"a", "b"}, 3)  # 1 of at most 2
    0.5
    >>> precision_at_k(["a", "x", "y"], {"a", "b"}, 3)
    0.3333333333333333
    """
    k = check_k(k)
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    return q.hits(k) / min(k, len(q.relevant_ids))


def rprec_mult(
    retrieved: Iterable,
    relevant: Any,
    x: float,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Precision at :math:`x` times R docs (R-precision at :math:`x = 1`).

    .. math:: \mathrm{Rprec}_x = \mathrm{Precision@}c, \qquad c = \lfloor x R + 0.9 \rfloor

    The rank :math:`c` is rounded as trec_eval's ``Rprec_mult`` rounds it (0 if it is 0).

    Examples
    --------
    >>> rprec_mult(["a", "x", "b", "y"], {"a", "b"}, 2.0)  # precision at 4
    0.5
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    c = int(x * len(q.relevant_ids) + 0.9)
    return q.hits(c) / c if c > 0 else 0.0


def iprec_at_recall(
    retrieved: Iterable,
    relevant: Any,
    x: float,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Interpolated precision at recall level :math:`x`: the best precision reached at
    any recall of at least :math:`x`.

    .. math:: \mathrm{iprec}(x) = \max_{j \ge c} \frac{j}{r_j}, \qquad
              c = \max(\mathrm{round}(x R), 1)

    where :math:`r_j` is the rank of the :math:`j`-th relevant doc retrieved; 0 if fewer
    than :math:`c` relevant docs were retrieved. :math:`xR` is rounded half away from 0,
    as trec_eval 10 does (trec_eval 9 and pytrec_eval: :math:`\lfloor xR + 0.9 \rfloor`).

    Examples
    --------
    Relevant docs at ranks 1 and 4, R = 2: precisions 1 and 1/2.

    >>> iprec_at_recall(["a", "x", "y", "b"], {"a", "b"}, 0.5)
    1.0
    >>> iprec_at_recall(["a", "x", "y", "b"], {"a", "b"}, 1.0)
    0.5
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
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


def eleven_point_average(
    retrieved: Iterable,
    relevant: Any,
    *,
    levels=(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""The mean interpolated precision at recall 0, 0.1, ..., 1 (or ``levels``, in
    increasing order): trec_eval's ``11pt_avg``.

    .. math:: \frac{1}{11} \sum_{x \in \{0, 0.1, \ldots, 1\}} \mathrm{iprec}(x)

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


def bpref(
    retrieved: Iterable,
    relevant: Any,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Binary preference: how often the relevant docs rank above the judged non-relevant
    ones, unjudged docs left out (Buckley and Voorhees, SIGIR 2004; trec_eval's bpref).

    .. math:: \mathrm{bpref} = \frac{1}{R} \sum_{\text{relevant } i \text{ retrieved}}
              \left(1 - \frac{\min(n_i, R)}{\min(N, R)}\right)

    where :math:`n_i` counts the judged non-relevant docs ranked above :math:`i` and
    :math:`N` all judged non-relevant docs of the query (grades from 0 up to, not
    including, ``relevance_level``). Unjudged docs and docs graded below 0 are skipped:
    bpref does not take "not judged" for "not relevant".

    Examples
    --------
    Judged non-relevant n1 above the first relevant doc, unjudged u anywhere:

    >>> grades = {"r1": 1, "r2": 1, "n1": 0, "n2": 0}
    >>> bpref(["n1", "r1", "u", "r2"], grades)  # (1 - 1/2) + (1 - 1/2), over 2
    0.5
    >>> bpref(["u", "r1", "r2", "n1"], grades)  # the unjudged doc costs nothing
    1.0
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    R = len(q.relevant_ids)
    nonrelevant = {doc for doc, g in q.grades.items() if 0 <= g < q.level}
    scale = min(len(nonrelevant), R)
    total, above = 0.0, 0
    for doc in q.ranking:
        if doc in nonrelevant:
            above += 1
        elif doc in q.relevant_ids:
            total += 1.0 - (min(above, R) / scale if above > 0 else 0.0)
    return total / R


def infap(
    retrieved: Iterable,
    relevant: Any,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Inferred AP (Yilmaz and Aslam, CIKM 2006), as trec_eval computes it.

    The judgments are taken to be a random sample of a pool; docs not in the judgments
    are outside the pool, and docs graded below 0 are in the pool but unjudged. For the
    relevant doc at rank :math:`j + 1`, with :math:`p` pool docs above it (judged at any
    grade), :math:`\rho` of them relevant and :math:`\nu` judged non-relevant:

    .. math:: \frac{1}{j + 1} + \frac{j}{j + 1} \cdot \frac{p}{j} \cdot
              \frac{\rho + \varepsilon}{\rho + \nu + 2\varepsilon}, \qquad
              \varepsilon = 10^{-5}

    (1 at rank 1); infAP is their sum over R.

    Examples
    --------
    Complete judgments: infAP is AP, up to the smoothing.

    >>> grades = {"a": 1, "b": 1, "x": 0}
    >>> round(infap(["a", "x", "b"], grades), 4), round(average_precision(["a", "x", "b"], grades), 4)
    (0.8333, 0.8333)
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
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


def _judged_share(retrieved, relevant, k, judged_at: bool, *, relevance_level: float,
                  empty_relevant: str, duplicates: str) -> float:
    """Judged@k (``judged_at``) or unj@k, the policies applied first."""
    check_relevance_level(relevance_level)
    check_choice(empty_relevant, EMPTY_POLICIES, "empty_relevant")
    check_choice(duplicates, DUPLICATE_POLICIES, "duplicates")
    if empty_relevant != "zero":
        q = _Judged(retrieved, relevant, relevance_level, duplicates)
        empty = _if_empty(q, empty_relevant, article_value=0.0)
        if empty is not None:
            return empty
    k = check_k(k)
    grades = as_grades(relevant)
    ranking = as_ranking(retrieved, duplicates=duplicates)
    check_id_kinds(ranking, grades)
    if judged_at:
        count = sum(doc in grades for doc in ranking[:k])
    else:
        count = sum(doc not in grades or grades[doc] < 0 for doc in ranking[:k])
    return count / k


def judged_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""The share of the top ``k`` slots that hold a judged doc (any grade).

    .. math:: \mathrm{Judged@}k = \frac{|\{\text{judged docs in the top } k\}|}{k}

    A low Judged@k says the other metrics know little about these docs: a system that
    retrieves good docs nobody judged looks bad on all of them (ir_measures' Judged@k).
    An empty slot is not judged. It does not depend on relevance, so a golden set with no
    relevant doc is scored under ``empty_relevant="zero"`` (as nDCG is).

    Examples
    --------
    >>> judged_at_k(["a", "x", "b", "y"], {"a": 1, "b": 0}, 4)
    0.5
    """
    return _judged_share(retrieved, relevant, k, True, relevance_level=relevance_level,
                         empty_relevant=empty_relevant, duplicates=duplicates)


def unjudged_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""The share of the top ``k`` slots that hold an unjudged doc: not judged, or judged
    below 0 (trec_eval's ``unj``; an empty slot counts as judged).

    .. math:: \mathrm{unj@}k = \frac{|\{\text{unjudged docs in the top } k\}|}{k}

    Examples
    --------
    >>> unjudged_at_k(["a", "x", "b", "y"], {"a": 1, "b": -1}, 4)  # x, y and b
    0.75
    """
    return _judged_share(retrieved, relevant, k, False, relevance_level=relevance_level,
                         empty_relevant=empty_relevant, duplicates=duplicates)


def err_at_k(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    max_grade: float | None = None,
    chances=(),
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Expected reciprocal rank (Chapelle, Metzler, Zhang and Grinspan, CIKM 2009).

    A user reads down the ranking and stops at the doc of rank :math:`i` with chance
    :math:`R_i`, satisfied; ERR is the expected reciprocal of the rank where they stop:

    .. math:: \mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j<i} (1 - R_j),
              \qquad R_i = \frac{2^{g_i} - 1}{2^{g_{\max}}}

    with :math:`g_i` the grade at rank :math:`i` (0 if unjudged or below 0) and
    :math:`g_{\max}` = ``max_grade`` (default: the highest grade of the judgments).
    ``chances`` (``((grade, chance), ...)``) gives grades their stopping chance instead.
    A good doc high up makes the docs below it matter less: unlike DCG, ERR discounts a
    doc by the docs above it.

    Examples
    --------
    >>> err_at_k(["a", "b"], {"a": 1, "b": 2})  # R = 1/4, 3/4: 1/4 + (3/4)(3/4)/2
    0.53125
    >>> err_at_k(["a", "b"], {"a": 1, "b": 2}, max_grade=4)  # R = 1/16, 3/16
    0.150390625
    """
    k = check_k(k, allow_none=True)
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    if empty_relevant != "zero":
        empty = _if_empty(q, empty_relevant, article_value=0.0)
        if empty is not None:
            return empty
    if max_grade is None:
        max_grade = max([0.0, *q.grades.values()])
    named = dict(chances)
    for grade, chance in named.items():
        if not 0 <= chance <= 1:
            raise InputValueError(f"err_at_k: the stopping chance of grade {grade:g} must "
                                  f"lie between 0 and 1, got {chance:g}")
    value, going_on = 0.0, 1.0
    top = q.ranking if k is None else q.ranking[:k]
    for rank, doc in enumerate(top, start=1):
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


def _rbp_scale(q: _Judged, gain: str) -> float:
    """trec_eval's rbp puts gains on [0, 1] by dividing by the highest when it passes 1."""
    top = max([0.0, *(_gain(g, gain) for g in q.grades.values())])
    return top if top > 1 else 1.0


def rbp(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    p: float = 0.9,
    gain: str = "linear",
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""Rank-biased precision (Moffat and Zobel, TOIS 2008): a user goes on from each rank
    to the next with chance :math:`p`; RBP is the gain they collect per doc read.

    .. math:: \mathrm{RBP}(p) = (1 - p) \sum_{i \ge 1} g_i \, p^{i-1}

    Gains (the grades, or :math:`2^g - 1` under ``gain="exponential"``) are scaled into
    [0, 1] as trec_eval scales them: divided by the query's highest when it passes 1. RBP never needs an ideal ranking, and the
    docs below a cut-off can only add to it: :func:`rbp_residual` says how much.

    Examples
    --------
    >>> rbp(["a", "x", "b"], {"a", "b"}, p=0.5)  # (1 - 0.5) (1 + 0.25)
    0.625
    """
    k = check_k(k, allow_none=True)
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    if empty_relevant != "zero":
        empty = _if_empty(q, empty_relevant, article_value=0.0)
        if empty is not None:
            return empty
    check_choice(gain, GAIN_POLICIES, "gain")
    scale = _rbp_scale(q, gain)
    top = q.ranking if k is None else q.ranking[:k]
    return (1.0 - p) * math.fsum(_gain(q.grades.get(doc, 0.0), gain) / scale * p**i
                                 for i, doc in enumerate(top))


def rbp_residual(
    retrieved: Iterable,
    relevant: Any,
    *,
    p: float = 0.9,
    relevance_level: float = 1,
    empty_relevant: str = "zero",
    duplicates: str = "error",
) -> float:
    r"""How much RBP could still rise: the weight of the unjudged docs retrieved and of
    the ranks past the end of the ranking (trec_eval's ``rbp_resid``).

    .. math:: (1 - p) \sum_{\text{unjudged } i} p^{i-1} + p^{n}

    with :math:`n` docs retrieved; unjudged means not judged, or judged below 0.
    trec_eval reports 0 when no retrieved doc is unjudged (leaving out :math:`p^n`), and
    so does this.

    Examples
    --------
    >>> rbp_residual(["a", "u"], {"a"}, p=0.5)  # (1 - 0.5) 0.5 + 0.25
    0.5
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    if empty_relevant != "zero":
        empty = _if_empty(q, empty_relevant, article_value=0.0)
        if empty is not None:
            return empty
    unjudged = [i for i, doc in enumerate(q.ranking) if q.grades.get(doc, -1) < 0]
    if not unjudged:
        return 0.0
    # At most 1 (every doc unjudged: (1 - p)(1 + p + ... + p^(n-1)) + p^n = 1), which
    # the float sum can pass by an ulp.
    return min((1.0 - p) * math.fsum(p**i for i in unjudged) + p ** len(q.ranking), 1.0)


# -- the ranking read as a set: trec_eval's counts and set measures ------------------------


def _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates):
    """The query, and its score if a policy other than "zero" decides it (else None):
    under "zero" a count or a set measure keeps its value on a query without a relevant
    doc (trec_eval's), as :func:`ragmetrics.evaluate` keeps it."""
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    check_choice(empty_relevant, EMPTY_POLICIES, "empty_relevant")
    empty = None if empty_relevant == "zero" else _if_empty(q, empty_relevant,
                                                             article_value=0.0)
    return q, empty


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator > 0 else 0.0


def num_ret(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
            empty_relevant: str = "zero", duplicates: str = "error") -> float:
    """How many docs were retrieved, :math:`n` (trec_eval's ``num_ret``; a float, as
    every value of :func:`ragmetrics.evaluate` is).

    Examples
    --------
    >>> num_ret(["a", "x", "b"], {"a", "b", "c"})
    3.0
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    return empty if empty is not None else float(len(q.ranking))


def num_rel(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
            empty_relevant: str = "zero", duplicates: str = "error") -> float:
    """How many relevant docs the query has, retrieved or not, :math:`R` (trec_eval's
    ``num_rel``: judged docs whose grade reaches ``relevance_level``).

    Examples
    --------
    >>> num_rel(["a", "x"], {"a": 2, "b": 1, "c": 0}, relevance_level=1)  # a and b
    2.0
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    return empty if empty is not None else float(len(q.relevant_ids))


def num_rel_ret(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                empty_relevant: str = "zero", duplicates: str = "error") -> float:
    """How many relevant docs were retrieved, :math:`h` (trec_eval's ``num_rel_ret``).

    Examples
    --------
    >>> num_rel_ret(["a", "x", "b"], {"a", "b", "c"})
    2.0
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    return empty if empty is not None else float(q.hits(None))


def num_nonrel_judged_ret(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                          empty_relevant: str = "zero", duplicates: str = "error") -> float:
    """How many retrieved docs are judged non-relevant: a grade from 0 up to, not
    including, ``relevance_level`` (trec_eval's ``num_nonrel_judged_ret``). An unjudged
    doc, or one judged below 0, is not counted.

    Examples
    --------
    >>> num_nonrel_judged_ret(["a", "n", "u", "m"], {"a": 1, "n": 0, "m": -1})  # n only
    1.0
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if empty is not None:
        return empty
    return float(sum(doc in q.grades and 0 <= q.grades[doc] < q.level for doc in q.ranking))


def set_precision(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                  empty_relevant: str = "zero", duplicates: str = "error") -> float:
    r"""Precision of the whole retrieved set, :math:`h / n` (trec_eval's ``set_P``): the
    ranking read as a set, so Precision@k with k the ranking's own length. 0 when
    nothing was retrieved.

    Examples
    --------
    >>> set_precision(["a", "x", "b", "y"], {"a", "b", "c"})  # 2 of the 4
    0.5
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    return empty if empty is not None else _ratio(q.hits(None), len(q.ranking))


def set_recall(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
               empty_relevant: str = "zero", duplicates: str = "error") -> float:
    r"""Recall of the whole retrieved set, :math:`h / R` (trec_eval's ``set_recall``):
    uncut recall. 0 for a query without a relevant doc.

    Examples
    --------
    >>> set_recall(["a", "x", "b", "y"], {"a", "b", "c", "d"})  # 2 of the 4
    0.5
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    return empty if empty is not None else _ratio(q.hits(None), len(q.relevant_ids))


def set_relative_precision(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
                           empty_relevant: str = "zero", duplicates: str = "error") -> float:
    r"""Relevant docs retrieved over the most a set of that size could hold,
    :math:`h / \min(n, R)` (trec_eval's ``set_relative_P``): 1 when the retrieved set is
    as relevant as its size and the judgments allow.

    Examples
    --------
    >>> set_relative_precision(["a", "x", "y", "z"], {"a", "b"})  # 1 of min(4, 2)
    0.5
    >>> set_relative_precision(["a"], {"a", "b"})  # 1 of min(1, 2): as good as can be
    1.0
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if empty is not None:
        return empty
    return _ratio(q.hits(None), min(len(q.ranking), len(q.relevant_ids)))


def set_ap(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
           empty_relevant: str = "zero", duplicates: str = "error") -> float:
    r"""Set precision times set recall, :math:`h^2 / (n R)` (trec_eval's ``set_map``):
    what average precision would be if every retrieved doc shared one rank.

    Examples
    --------
    >>> set_ap(["a", "x", "b", "y"], {"a", "b", "c", "d"})  # (2/4)(2/4)
    0.25
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if empty is not None:
        return empty
    h = q.hits(None)
    return _ratio(h * h, len(q.ranking) * len(q.relevant_ids))


def set_f(retrieved: Iterable, relevant: Any, *, beta: float = 1.0,
          relevance_level: float = 1, empty_relevant: str = "zero",
          duplicates: str = "error") -> float:
    r"""trec_eval's ``set_F``: the F measure of the retrieved set,

    .. math:: F = \frac{(1 + \beta) P R}{\beta P + R}, \quad P = h / n, \; R = h / R_q

    0 when no relevant doc is retrieved. Note the weight: trec_eval's ``beta`` where the
    textbook F measure has :math:`\beta^2` (so ``set_F.0.25`` is the textbook's
    :math:`F_{0.5}`); at ``beta = 1`` both are the harmonic mean of P and R.

    Examples
    --------
    >>> set_f(["a", "x", "b", "y"], {"a", "b"})  # P = 1/2, R = 1: 2 (1/2) / (3/2)
    0.6666666666666666
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if empty is not None:
        return empty
    h = q.hits(None)
    if h == 0:
        return 0.0
    p, r = h / len(q.ranking), h / len(q.relevant_ids)
    return (beta + 1.0) * p * r / (beta * p + r)


def utility(retrieved: Iterable, relevant: Any, *, a: float = 1.0, b: float = -1.0,
            c: float = 0.0, d: float = 0.0, num_docs: float = 0.0,
            relevance_level: float = 1, empty_relevant: str = "zero",
            duplicates: str = "error") -> float:
    r"""trec_eval's set ``utility``: a price for each kind of doc,

    .. math:: a\,h + b\,(n - h) + c\,(R - h) + d\,(N - n - R + h)

    ``a`` for each relevant doc retrieved, ``b`` for each non-relevant one retrieved,
    ``c`` for each relevant doc missed, ``d`` for each non-relevant doc rightly left out
    of a collection of ``num_docs`` = :math:`N` docs (trec_eval's -N). The default
    ``utility(1,-1,0,0)``: relevant retrieved minus non-relevant retrieved.

    Examples
    --------
    >>> utility(["a", "x", "b", "y", "z"], {"a", "b"})  # 2 relevant, 3 not
    -1.0
    """
    q, empty = _as_set(retrieved, relevant, relevance_level, empty_relevant, duplicates)
    if empty is not None:
        return empty
    h, n, rel = q.hits(None), len(q.ranking), len(q.relevant_ids)
    return a * h + b * (n - h) + c * (rel - h) + d * (num_docs + h - n - rel)


def bing(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
         empty_relevant: str = "zero", duplicates: str = "error") -> float:
    r"""trec_eval's experimental ``binG``: each relevant doc retrieved scores by how many
    non-relevant docs (judged or not) come before it,

    .. math:: \mathrm{binG} = \frac{1}{R} \sum_{\text{relevant } i \text{ retrieved}}
              \frac{1}{\log_2(2 + m_i)}

    with :math:`m_i` the non-relevant docs above :math:`i`: 1 for relevant docs at the top,
    whatever their number.

    Examples
    --------
    >>> bing(["a", "x", "b"], {"a", "b"})  # (1/log2(2) + 1/log2(3)) / 2
    0.8154648767857288
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=0.0)
    if empty is not None:
        return empty
    total, above = [], 0
    for doc in q.ranking:
        if doc in q.relevant_ids:
            total.append(1.0 / math.log2(2 + above))
        else:
            above += 1
    return math.fsum(total) / len(q.relevant_ids)


# -- trec_eval's experimental nDCG variants and G, its queries and relstring ---------------


def _graded(retrieved, relevant, gain, gains, relevance_level, duplicates, empty_relevant,
            by_relevance: bool) -> tuple[list, list, float | None]:
    """(the retrieved docs' gains, the ideal gains: positive, best first, a score): the
    score is not None for a query scored without them: by ``empty_relevant`` when it has
    no relevant doc (always if ``by_relevance``, else under a policy other than
    "zero"), else 0 when no judged doc has a positive gain."""
    check_choice(gain, GAIN_POLICIES, "gain")
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    q.check_gains(gain)
    if by_relevance or empty_relevant != "zero":
        empty = _if_empty(q, empty_relevant, article_value=0.0)
        if empty is not None:
            return [], [], empty
    found = [_doc_gain(q, doc, gain, gains) for doc in q.ranking]
    ideal = sorted((g for g in (_doc_gain(q, doc, gain, gains) for doc in q.grades) if g > 0),
                   reverse=True)
    return found, ideal, (None if ideal else 0.0)


def _running_dcg(gains: list[float]) -> list[float]:
    """DCG@1, DCG@2, ...: the running sums of gain / log2(rank + 1)."""
    total, out = 0.0, []
    for rank, g in enumerate(gains, start=1):
        total += g / math.log2(rank + 1)
        out.append(total)
    return out


def ndcg_rel(retrieved: Iterable, relevant: Any, *, gains=(), gain: str = "linear",
             relevance_level: float = 1, empty_relevant: str = "zero",
             duplicates: str = "error") -> float:
    r"""trec_eval's experimental ``ndcg_rel``: nDCG averaged over the docs with a gain.

    .. math:: \mathrm{ndcg\_rel} = \frac{1}{L} \Big( \sum_{i:\, g_i > 0}
              \frac{\mathrm{DCG@}i}{\mathrm{IDCG@}\min(i, L)}
              + (L - F) \frac{\mathrm{DCG}}{\mathrm{IDCG}} \Big)

    over the ranks :math:`i` of the retrieved docs with a positive gain (:math:`F` of
    them), :math:`L` the judged docs with a positive gain: each one not retrieved counts
    the DCG of the whole ranking over the whole ideal DCG. 0 when :math:`L = 0`.

    Examples
    --------
    >>> ndcg_rel(["a", "b"], {"a": 1, "b": 1})   # ideal: 1 at each relevant doc
    1.0
    >>> round(ndcg_rel(["x", "a"], {"a": 1}), 4)  # (1 / log2 3) / 1, at rank 2
    0.6309
    """
    found, ideal, score = _graded(retrieved, relevant, gain, gains, relevance_level,
                                  duplicates, empty_relevant, by_relevance=False)
    if score is not None:
        return score
    dcg, idcg = _running_dcg(found), _running_dcg(ideal)
    points = [dcg[i] / idcg[min(i, len(ideal) - 1)] for i, g in enumerate(found) if g > 0]
    final = dcg[-1] if dcg else 0.0
    total = math.fsum(points) + (len(ideal) - len(points)) * final / idcg[-1]
    return total / len(ideal) if total > 0 else 0.0


def rndcg(retrieved: Iterable, relevant: Any, *, gains=(), gain: str = "linear",
          relevance_level: float = 1, empty_relevant: str = "zero",
          duplicates: str = "error") -> float:
    r"""trec_eval's experimental ``Rndcg``: nDCG averaged at the "R levels", the ranks
    :math:`b` where the ideal ranking's gain changes (its last positive gain included,
    :math:`b = L`):

    .. math:: \mathrm{Rndcg} = \frac{1}{|B|} \sum_{b \in B}
              \frac{\mathrm{DCG@}b}{\mathrm{IDCG@}b}

    and, when the ranking runs on past rank :math:`L + 1`, one more point: the DCG of
    the whole ranking over the whole ideal DCG (trec_eval's rule). 0 for a query with
    no relevant doc.

    Examples
    --------
    Grades 2, 1: the ideal's gain changes after rank 1 and ends after rank 2, so the
    points are DCG@1 / IDCG@1 = 1/2 and (1 + 2/log2 3) / (2 + 1/log2 3) = 0.8597:

    >>> round(rndcg(["b", "a"], {"a": 2, "b": 1}), 4)
    0.6799
    """
    found, ideal, score = _graded(retrieved, relevant, gain, gains, relevance_level,
                                  duplicates, empty_relevant, by_relevance=True)
    if score is not None:  # no relevant doc; or a gain map gives none a positive gain
        return score
    dcg, idcg = _running_dcg(found), _running_dcg(ideal)

    def dcg_at(b: int) -> float:
        return dcg[min(b, len(dcg)) - 1] if dcg else 0.0

    levels = [b for b in range(1, len(ideal)) if ideal[b] != ideal[b - 1]] + [len(ideal)]
    points = [dcg_at(b) / idcg[b - 1] for b in levels if idcg[b - 1] > 0]
    if ideal and len(found) > len(ideal) + 1 and idcg[-1] > 0:
        points.append(dcg[-1] / idcg[-1])
    return math.fsum(points) / len(points) if points else 0.0


def g_measure(retrieved: Iterable, relevant: Any, *, gains=(), gain: str = "linear",
              relevance_level: float = 1, empty_relevant: str = "zero",
              duplicates: str = "error") -> float:
    r"""trec_eval's experimental ``G``: each retrieved gain :math:`g_i` discounted by how
    far the gain collected lags behind the ideal's,

    .. math:: G = \frac{1}{\sum_j g^*_j} \sum_{i:\, g_i \ne 0}
              \frac{g_i}{\log_2(2 + C_i - S_i)}

    with :math:`S_i = \sum_{j \le i} g_j` the gain collected down to rank :math:`i` and
    :math:`C_i = \sum_{j \le i} \max(g^*_j, 1)` the ideal's (:math:`g^*_j` the ideal
    ranking's gain at rank :math:`j`, 0 past its end: every rank costs at least 1).

    Examples
    --------
    >>> g_measure(["a"], {"a": 1})          # C = S = 1 at rank 1: 1 / log2(2)
    1.0
    >>> round(g_measure(["x", "a"], {"a": 1}), 4)  # rank 2: C = 2, S = 1: 1 / log2 3
    0.6309
    """
    found, ideal, score = _graded(retrieved, relevant, gain, gains, relevance_level,
                                  duplicates, empty_relevant, by_relevance=False)
    if score is not None:
        return score
    cost = collected = 0.0
    terms = []
    for rank, g in enumerate(found):
        cost += max(ideal[rank], 1.0) if rank < len(ideal) else 1.0
        collected += g
        if g != 0:
            terms.append(g / math.log2(2 + cost - collected))
    return math.fsum(terms) / math.fsum(ideal)


def num_q(retrieved: Iterable, relevant: Any, *, relevance_level: float = 1,
          empty_relevant: str = "zero", duplicates: str = "error") -> float:
    """trec_eval's ``num_q``: 1 for the query, so that its sum over queries counts them.

    Examples
    --------
    >>> num_q(["a"], {"b"})
    1.0
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    empty = _if_empty(q, empty_relevant, article_value=1.0)
    return 1.0 if empty is None or not math.isnan(empty) else empty


def relstring(retrieved: Iterable, relevant: Any, length: int = 10, *,
              relevance_level: float = 1, empty_relevant: str = "zero",
              duplicates: str = "error") -> str | None:
    """trec_eval's ``relstring``: the judgments of the top ``length`` docs, a character
    each: the grade (0-9, ``>`` above 9), ``-`` for a doc not judged, ``.`` for one
    judged below 0 (``?`` for a grade that is not a whole number). A text has no value
    for a policy to give: a query with no relevant doc has its text, but None when
    ``empty_relevant="skip"`` leaves it out (and an error under ``"error"``).

    Examples
    --------
    >>> relstring(["a", "x", "b", "n"], {"a": 2, "b": 12, "n": -1})
    '2->.'
    >>> relstring(["a", "x", "b"], {"a": 2}, 2)
    '2-'
    """
    q = _Judged(retrieved, relevant, relevance_level, duplicates)
    if _if_empty(q, empty_relevant, article_value=0.0) is not None and empty_relevant == "skip":
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
