r"""The diversity measures of one query, in plain Python: the readable definitions.

A question can have several facets (TREC calls them *subtopics*; RAG papers, *nuggets*):
"jaguar" asks about the car, the cat, the operating system. Ten results on the car score
well on recall over a flat relevant set and poorly on every measure here, which reward
covering each facet and discount covering one again. Every function takes ``ranking``
(doc ids, best first), ``subtopics`` (a mapping subtopic -> the doc ids relevant to it)
and, where the measure has a cut-off, ``k``; ``alpha`` (how little a second doc on a
covered facet is worth: its gain is multiplied by 1 - alpha) and ``beta`` (NRBP's
patience) are keyword-only, 0.5 by default as in ndeval.

These follow TREC's ``ndeval.c`` v4.5 step by step (sums in its order, so that the
kernels of :mod:`ragmetrics.diversity.novelty_kernels` equal them to the last bit):

- a subtopic with no relevant doc is ignored; S is the number of the others, and every
  measure of a query with S = 0 is 0 (nNRBP: NaN, ndeval's 0/0);
- the gain of the doc at rank i is :math:`g_i = \sum_{j \ni d_i} (1-\alpha)^{c_{ij}}`,
  :math:`c_{ij}` the docs above it relevant to subtopic j, the subtopics added in order
  (natural order of their ids);
- the *ideal ranking* is built greedily: at each rank the doc of largest gain given those
  above, ties to the larger doc id;
- alpha-DCG and ERR-IA are divided by the "ideal ideal" ranking's sums, which gain S
  :math:`(1-\alpha)^{i-1}` at rank i, as if every doc covered every subtopic.

Examples
--------
pyndeval's README example: three facets, a run that repeats facet b and misses c.

>>> facets = {"a": ["A"], "b": ["B", "D"], "c": ["C"]}
>>> run = ["A", "D", "E", "B"]
>>> round(alpha_ndcg_at_k(run, facets, 5), 6), round(nerr_ia_at_k(run, facets, 5), 6)
(0.786896, 0.829787)
>>> round(nnrbp(run, facets), 6), subtopic_recall_at_k(run, facets, 5)
(0.862069, 0.6666666666666666)

References
----------
C. L. A. Clarke et al., "Novelty and diversity in information retrieval evaluation",
SIGIR 2008 (alpha-nDCG). O. Chapelle et al., "Expected reciprocal rank for graded
relevance", CIKM 2009 (ERR-IA). C. L. A. Clarke, M. Kolla, O. Vechtomova, "An
effectiveness measure for ambiguous and underspecified queries", ICTIR 2009 (NRBP).
R. Agrawal et al., "Diversifying search results", WSDM 2009 (intent-aware measures).
C. Zhai, W. Cohen, J. Lafferty, "Beyond independent relevance", SIGIR 2003 (subtopic
recall). TREC Web track, ``ndeval.c`` v4.5 (trec-web/trec-web-2014, ``src/eval``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np

from ..errors import InputTypeError, InputValueError
from ..evaluation.engine import natural_order
from ..validation import check_k

__all__ = ["alpha_dcg_at_k", "alpha_ndcg_at_k", "err_ia_at_k", "intent_aware_ap",
           "intent_aware_precision_at_k", "nerr_ia_at_k", "nnrbp", "nrbp",
           "subtopic_recall_at_k"]


class _Facets:
    """A query's subtopics with a relevant doc, in order, and each doc's subtopics."""

    def __init__(self, subtopics: Mapping, alpha: float = 0.5, beta: float = 0.5) -> None:
        if not isinstance(subtopics, Mapping):
            raise InputTypeError("subtopics must be a mapping subtopic -> relevant doc ids, "
                                 f"got {type(subtopics).__name__}")
        for name, value in (("alpha", alpha), ("beta", beta)):
            if not 0 <= value <= 1:
                raise InputValueError(f"{name} must lie between 0 and 1, got {value!r}")
        names = [s for s, docs in subtopics.items() if len(list(docs))]
        keys = np.array([str(s) for s in names], dtype=object)
        self.order = [names[i] for i in natural_order(keys)] if names else []
        self.docs = {s: set(subtopics[s]) for s in self.order}
        self.count = len(self.order)  # S
        self.alpha = alpha

    def relevant_to(self, doc) -> list[bool]:
        return [doc in self.docs[s] for s in self.order]

    def gains(self, ranking) -> list[float]:
        """ndeval's gains down ``ranking``: each subtopic's gain starts at 1 and is
        multiplied by 1 - alpha each time a doc covers it."""
        subtopic_gain = [1.0] * self.count
        out = []
        for doc in ranking:
            score = 0.0
            for j, hit in enumerate(self.relevant_to(doc)):
                if hit:
                    score += subtopic_gain[j]
                    subtopic_gain[j] *= 1.0 - self.alpha
            out.append(score)
        return out

    def ideal(self) -> list:
        """ndeval's greedy ideal ranking of the relevant docs."""
        left = sorted({d for docs in self.docs.values() for d in docs}, key=str)
        subtopic_gain = [1.0] * self.count
        out = []
        while left:
            where, best = -1, 0.0
            for i, doc in enumerate(left):  # in doc id order: a tie goes to the later
                score = 0.0
                for j, hit in enumerate(self.relevant_to(doc)):
                    if hit:
                        score += subtopic_gain[j]
                if where == -1 or score > best or score == best:
                    where, best = i, score
            doc = left.pop(where)
            out.append(doc)
            for j, hit in enumerate(self.relevant_to(doc)):
                if hit:
                    subtopic_gain[j] *= 1.0 - self.alpha
        return out


def _ranked(ranking: Iterable) -> list:
    ranking = list(ranking)
    if len(set(ranking)) != len(ranking):
        seen = set()
        twice = next(d for d in ranking if d in seen or seen.add(d))
        raise InputValueError(f"doc {twice!r} is ranked twice")
    return ranking


def _running(facets: _Facets, ranking: list, k: int, weight) -> tuple[float, float]:
    """(the run's running sum at rank k, the ideal ideal's), ``weight(gain, i)`` the
    term at 0-based rank i, summed rank by rank as ndeval does."""
    gains = facets.gains(ranking[:k])
    total = ideal = 0.0
    ideal_gain = float(facets.count)
    for i in range(k):
        total += weight(gains[i] if i < len(gains) else 0.0, i)
        ideal += weight(ideal_gain, i)
        ideal_gain *= 1.0 - facets.alpha
    return total, ideal


def _discounted(gain: float, i: int) -> float:
    return gain * (1.0 if i == 0 else math.log(2.0) / math.log(i + 2.0))


def _reciprocal(gain: float, i: int) -> float:
    return gain / (i + 1.0)


def _normalised(ranking, subtopics, k, alpha, weight, *, raw_at_one=False) -> float:
    facets = _Facets(subtopics, alpha)
    k = check_k(k)
    if facets.count == 0:
        return 0.0
    total, ideal = _running(facets, _ranked(ranking), k, weight)
    return total if (k == 1 and raw_at_one) else total / ideal


def alpha_dcg_at_k(ranking: Iterable, subtopics: Mapping, k: int, *,
                   alpha: float = 0.5) -> float:
    r"""alpha-DCG@k: gains that shrink for a covered subtopic, discounted by rank, over
    the "ideal ideal" ranking's.

    .. math::
        \alpha\text{-DCG@}k = \frac{\sum_{i=1}^{k} g_i / \log_2(i + 1)}
                                   {\sum_{i=1}^{k} S (1 - \alpha)^{i-1} / \log_2(i + 1)}

    Examples
    --------
    >>> round(alpha_dcg_at_k(["A", "D", "E", "B"], {"a": ["A"], "b": ["B", "D"],
    ...                                               "c": ["C"]}, 5), 6)
    0.405289
    """
    return _normalised(ranking, subtopics, k, alpha, _discounted)


def err_ia_at_k(ranking: Iterable, subtopics: Mapping, k: int, *,
                alpha: float = 0.5) -> float:
    r"""ERR-IA@k as ndeval computes it: the decayed gains over their rank, over the
    "ideal ideal" ranking's (the stopping chance alpha cancels out).

    .. math::
        \text{ERR-IA@}k = \frac{\sum_{i=1}^{k} g_i / i}{\sum_{i=1}^{k} S (1-\alpha)^{i-1} / i}

    Examples
    --------
    >>> round(err_ia_at_k(["A", "D", "E", "B"], {"a": ["A"], "b": ["B", "D"],
    ...                                          "c": ["C"]}, 5), 6)
    0.393343
    """
    return _normalised(ranking, subtopics, k, alpha, _reciprocal)


def _over_ideal(ranking, subtopics, k, alpha, weight) -> float:
    facets = _Facets(subtopics, alpha)
    k = check_k(k)
    ranking = _ranked(ranking)
    if facets.count == 0 or sum(facets.gains(ranking[:k])) == 0:
        return 0.0
    run = _normalised(ranking, subtopics, k, alpha, weight, raw_at_one=True)
    best = _normalised(facets.ideal(), subtopics, k, alpha, weight, raw_at_one=True)
    return run / best


def alpha_ndcg_at_k(ranking: Iterable, subtopics: Mapping, k: int, *,
                    alpha: float = 0.5) -> float:
    r"""alpha-nDCG@k: alpha-DCG@k over the ideal ranking's, 1 for the best ranking.

    .. math:: \alpha\text{-nDCG@}k = \alpha\text{-DCG@}k \,/\, \alpha\text{-DCG@}k(\text{ideal})

    The ideal is ndeval's greedy one (each rank takes the doc that adds the most, a tie
    to the larger doc id); 0 when the top k gain nothing.

    Examples
    --------
    ir_measures' issue 61: d0 covers both subtopics, d1 the first again (the issue
    quotes 0.8637574337885663, one bit below; pyndeval 0.0.8 and ndeval give this):

    >>> alpha_ndcg_at_k(["d0"], {"0": ["d0", "d1"], "1": ["d0"]}, 10)
    0.8637574337885664
    """
    return _over_ideal(ranking, subtopics, k, alpha, _discounted)


def nerr_ia_at_k(ranking: Iterable, subtopics: Mapping, k: int, *,
                 alpha: float = 0.5) -> float:
    r"""nERR-IA@k: ERR-IA@k over the ideal ranking's.

    .. math:: \text{nERR-IA@}k = \text{ERR-IA@}k \,/\, \text{ERR-IA@}k(\text{ideal})

    Examples
    --------
    >>> nerr_ia_at_k(["C", "A"], {"a": ["A"], "c": ["C"]}, 5)
    1.0
    """
    return _over_ideal(ranking, subtopics, k, alpha, _reciprocal)


def _rbp(facets: _Facets, ranking: list, beta: float) -> float:
    total, decay = 0.0, 1.0
    for gain in facets.gains(ranking):
        total += gain * decay
        decay *= beta
    return total * ((1 - (1 - facets.alpha) * beta) / facets.count)


def nrbp(ranking: Iterable, subtopics: Mapping, *, alpha: float = 0.5,
         beta: float = 0.5) -> float:
    r"""Novelty- and rank-biased precision: RBP's patient user, over decayed gains, the
    whole ranking.

    .. math:: \mathrm{NRBP} = \frac{1 - (1-\alpha)\beta}{S} \sum_{i \ge 1} g_i \beta^{i-1}

    Examples
    --------
    >>> nrbp(["A", "D", "E", "B"], {"a": ["A"], "b": ["B", "D"], "c": ["C"]})
    0.390625
    """
    facets = _Facets(subtopics, alpha, beta)
    if facets.count == 0:
        return 0.0
    return _rbp(facets, _ranked(ranking), beta)


def nnrbp(ranking: Iterable, subtopics: Mapping, *, alpha: float = 0.5,
          beta: float = 0.5) -> float:
    r"""NRBP over the ideal ranking's NRBP; NaN when no doc is relevant (ndeval's 0/0).

    .. math:: \mathrm{nNRBP} = \mathrm{NRBP} \,/\, \mathrm{NRBP}(\text{ideal})

    Examples
    --------
    >>> nnrbp(["A"], {"a": ["A"]}), nnrbp(["A"], {"a": []})
    (1.0, nan)
    """
    facets = _Facets(subtopics, alpha, beta)
    if facets.count == 0:
        return math.nan
    ideal = _rbp(facets, facets.ideal(), beta)
    return _rbp(facets, _ranked(ranking), beta) / ideal if ideal else math.nan


def intent_aware_precision_at_k(ranking: Iterable, subtopics: Mapping, k: int) -> float:
    r"""P-IA@k: the precision@k of each subtopic, averaged over the S subtopics.

    .. math:: \text{P-IA@}k = \frac{1}{k S} \sum_{i=1}^{k} \sum_{j} \mathrm{rel}_{ij}

    Examples
    --------
    >>> intent_aware_precision_at_k(["A", "D", "E", "B"],
    ...                             {"a": ["A"], "b": ["B", "D"], "c": ["C"]}, 5)
    0.2
    """
    facets = _Facets(subtopics)
    k = check_k(k)
    if facets.count == 0:
        return 0.0
    pairs = sum(sum(facets.relevant_to(d)) for d in _ranked(ranking)[:k])
    return pairs / (k * facets.count)


def subtopic_recall_at_k(ranking: Iterable, subtopics: Mapping, k: int) -> float:
    r"""strec@k (subtopic recall; FreshStack's Coverage@k): the share of the S subtopics
    with a relevant doc in the top k.

    .. math:: \text{strec@}k = |\{j : \exists i \le k,\ \mathrm{rel}_{ij}\}| \,/\, S

    Examples
    --------
    >>> subtopic_recall_at_k(["A", "D"], {"a": ["A"], "b": ["B", "D"], "c": ["C"]}, 2)
    0.6666666666666666
    """
    facets = _Facets(subtopics)
    k = check_k(k)
    if facets.count == 0:
        return 0.0
    covered = {s for d in _ranked(ranking)[:k] for s, hit in
               zip(facets.order, facets.relevant_to(d), strict=True) if hit}
    return len(covered) / facets.count


def intent_aware_ap(ranking: Iterable, subtopics: Mapping) -> float:
    r"""MAP-IA of one query: the AP of each subtopic over the whole ranking (relevant =
    relevant to that subtopic), averaged over the S subtopics.

    .. math:: \text{AP-IA} = \frac{1}{S} \sum_{j} \frac{1}{R_j} \sum_{i : \mathrm{rel}_{ij}}
              \frac{|\{i' \le i : \mathrm{rel}_{i'j}\}|}{i}

    Examples
    --------
    >>> intent_aware_ap(["A", "D", "E", "B"], {"a": ["A"], "b": ["B", "D"], "c": ["C"]})
    0.5
    """
    facets = _Facets(subtopics)
    if facets.count == 0:
        return 0.0
    hits = [0] * facets.count
    totals = [0.0] * facets.count
    for i, doc in enumerate(_ranked(ranking)):
        for j, hit in enumerate(facets.relevant_to(doc)):
            if hit:
                hits[j] += 1
                totals[j] += hits[j] / (i + 1.0)
    value = 0.0
    for j, s in enumerate(facets.order):
        value += totals[j] / len(facets.docs[s])
    return value / facets.count
