"""How much one relevant chunk at rank i is worth to each metric: their discount curves.

Every rank-aware metric is a model of a reader going down the list. Put a single
relevant chunk at rank i (and nothing else relevant) and read off each metric's value:

- **nDCG@k**: 1 / log2(i + 1) up to k (the ideal puts that chunk at rank 1), then 0;
- **RR**: 1 / i, with no cut-off: the reader stops at the first relevant chunk;
- **Precision@k**: 1/k anywhere in the top k, then 0: every slot counts the same;
- **Hit rate@k**: 1 anywhere in the top k, then 0;
- **RBP(p)**, rank-biased precision (Moffat & Zobel, 2008, *ACM TOIS* 27(1)):
  (1 - p) p^(i - 1): a reader who goes on to the next rank with probability p.

The first four come from ragmetrics' own functions on a one-chunk golden set; RBP, which
ragmetrics does not score, is :func:`rank_biased_precision` here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from ..errors import InputValueError
from ..metrics.reference import hit_rate_at_k, ndcg_at_k, precision_at_k, reciprocal_rank
from ..validation import as_grades, as_ranking, check_k, check_relevance_level

__all__ = ["discount_curves", "rank_biased_precision"]


def rank_biased_precision(retrieved: Iterable, relevant: Any, *, p: float = 0.8,
                          relevance_level: float = 1) -> float:
    r"""Rank-biased precision: :math:`(1 - p) \sum_i \mathrm{rel}_i \, p^{i-1}`.

    A reader looks at rank 1, and goes on from each rank to the next with probability
    ``p`` (persistence); RBP is the expected share of relevant chunks among those read.
    It needs no cut-off and no count of relevant chunks.

    >>> round(rank_biased_precision(["a", "x", "b"], {"a", "b"}, p=0.5), 4)  # 0.5 (1 + 0.25)
    0.625
    """
    if not (isinstance(p, int | float) and 0 < p < 1):
        raise InputValueError(f"p (persistence) must be between 0 and 1, exclusive; got {p!r}")
    level = check_relevance_level(relevance_level)
    grades = as_grades(relevant)
    ranking = as_ranking(retrieved, duplicates="error")
    return (1 - p) * sum(p ** i for i, doc in enumerate(ranking) if grades.get(doc, 0) >= level)


def discount_curves(depth: int = 20, *, k: int = 10, p: float = 0.8) -> pd.DataFrame:
    """What a single relevant chunk at rank i = 1 .. ``depth`` is worth to each metric.

    Examples
    --------
    >>> discount_curves(5, k=3, p=0.5).round(4)  # doctest: +NORMALIZE_WHITESPACE
          nDCG@3      RR  Precision@3  Hit rate@3  RBP(p=0.5)
    rank
    1     1.0000  1.0000       0.3333         1.0      0.5000
    2     0.6309  0.5000       0.3333         1.0      0.2500
    3     0.5000  0.3333       0.3333         1.0      0.1250
    4     0.0000  0.2500       0.0000         0.0      0.0625
    5     0.0000  0.2000       0.0000         0.0      0.0312
    """
    depth, k = check_k(depth, name="depth"), check_k(k)
    rows = {}
    for rank in range(1, depth + 1):
        ranking = [f"miss_{i}" for i in range(1, rank)] + ["hit"]
        golden = {"hit"}
        rows[rank] = {
            f"nDCG@{k}": ndcg_at_k(ranking, golden, k),
            "RR": reciprocal_rank(ranking, golden),
            f"Precision@{k}": precision_at_k(ranking, golden, k),
            f"Hit rate@{k}": hit_rate_at_k(ranking, golden, k),
            f"RBP(p={p:g})": rank_biased_precision(ranking, golden, p=p),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "rank"
    return table
