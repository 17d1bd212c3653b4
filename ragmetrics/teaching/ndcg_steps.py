"""nDCG taken apart, rank by rank: the table behind every nDCG the notebooks explain.

A teaching table, not a metric engine: :func:`ndcg_table` lays out, for one query, the
gain, the discount and the ideal gain of every rank, so that a learner can check each
step of nDCG@k by hand. The gain rule and the sum are the metric core's
(:func:`ragmetrics.metrics.gains.grade_gain`, :func:`ragmetrics.metrics.gains.dcg`), so
its totals equal :func:`ragmetrics.dcg_at_k` and :func:`ragmetrics.ndcg_at_k`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import pandas as pd

from ..conventions import DUPLICATE_POLICIES, GAIN_POLICIES
from ..metrics.gains import dcg, grade_gain
from ..validation import as_query, check_choice, check_k, check_total_gain

__all__ = ["ndcg_table"]


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
    check_choice(duplicates, DUPLICATE_POLICIES, "duplicates")
    ranking, judged = as_query(retrieved, relevant, duplicates=duplicates)
    check_total_gain(judged.values(), gain)
    discounts = [math.log2(rank + 1) for rank in range(1, k + 1)]
    doc_ids = ranking[:k] + [None] * max(0, k - len(ranking))
    grades = [0.0 if doc is None else judged.get(doc, 0.0) for doc in doc_ids]
    gains = [grade_gain(g, gain) for g in grades]
    discounted = [g / d for g, d in zip(gains, discounts, strict=True)]
    ideal = sorted((grade_gain(g, gain) for g in judged.values()), reverse=True)[:k]
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
    total, ideal_total = dcg(gains), dcg(ideal)  # the sums of the two discounted columns
    table.attrs.update(dcg=total, idcg=ideal_total,
                       ndcg=total / ideal_total if ideal_total > 0 else 0.0)
    return table
