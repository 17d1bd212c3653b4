"""How much one relevant chunk at rank i is worth to each metric: their discount curves.

Every rank-aware metric is a model of a reader going down the list. Put a single
relevant chunk at rank i (and nothing else relevant) and read off each metric's value:

- **nDCG@k**: 1 / log2(i + 1) up to k (the ideal puts that chunk at rank 1), then 0;
- **RR**: 1 / i, with no cut-off: the reader stops at the first relevant chunk;
- **Precision@k**: 1/k anywhere in the top k, then 0: every slot counts the same;
- **Hit rate@k**: 1 anywhere in the top k, then 0;
- **RBP(p)**, rank-biased precision (Moffat & Zobel, 2008, *ACM TOIS* 27(1)):
  (1 - p) p^(i - 1): a reader who goes on to the next rank with probability p.

Every value is ragmetrics' own per-query function (:mod:`ragmetrics.metrics.reference`)
on a one-chunk golden set: what :func:`ragmetrics.evaluate` gives for ``ndcg@k``,
``rr``, ``precision@k``, ``hit_rate@k`` and ``rbp``. RBP's persistence is the ``rbp``
metric's own default, :data:`RBP_P` (0.9), unless another ``p`` is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from ..errors import InputValueError
from ..metrics.reference import hit_rate_at_k, ndcg_at_k, precision_at_k, rbp, reciprocal_rank
from ..metrics.registry import MetricSpec
from ..validation import as_query, check_k, check_relevance_level

__all__ = ["RBP_P", "discount_curves", "rank_biased_precision"]

#: RBP's persistence when none is given: the ``rbp`` metric's default (``"rbp"`` scores
#: ``"rbp(p=0.9)"``), so that the teaching curve shows the number ``evaluate`` gives.
RBP_P: float = MetricSpec("rbp").arguments["p"]


def rank_biased_precision(retrieved: Iterable, relevant: Any, *, p: float = RBP_P,
                          relevance_level: float = 1) -> float:
    r"""Rank-biased precision of relevant-or-not chunks:
    :math:`(1 - p) \sum_i \mathrm{rel}_i \, p^{i-1}`.

    A reader looks at rank 1, and goes on from each rank to the next with probability
    ``p`` (persistence); RBP is the expected share of relevant chunks among those read.
    It needs no cut-off and no count of relevant chunks. This is
    :func:`ragmetrics.metrics.reference.rbp` on the chunks at ``relevance_level`` or
    above, each counting 1 (``rbp`` itself weighs each chunk by its grade).

    Parameters
    ----------
    retrieved, relevant, relevance_level
        As in :func:`ragmetrics.teaching.precision_recall_curve`.
    p : float, default RBP_P (0.9, the ``rbp`` metric's)
        The persistence, strictly between 0 and 1.

    Examples
    --------
    >>> round(rank_biased_precision(["a", "x", "b"], {"a", "b"}, p=0.5), 4)  # 0.5 (1 + 0.25)
    0.625
    """
    if not (isinstance(p, int | float) and 0 < p < 1):
        raise InputValueError(f"p (persistence) must be between 0 and 1, exclusive; got {p!r}")
    level = check_relevance_level(relevance_level)
    ranking, grades = as_query(retrieved, relevant, duplicates="error")
    return rbp(ranking, {doc for doc, grade in grades.items() if grade >= level}, p=p)


def discount_curves(depth: int = 20, *, k: int = 10, p: float = RBP_P) -> pd.DataFrame:
    """What a single relevant chunk at rank i = 1 .. ``depth`` is worth to each metric.

    Parameters
    ----------
    depth : int, default 20
        The deepest rank shown.
    k : int, default 10
        The cut-off of nDCG@k, Precision@k and hit rate@k.
    p : float, default RBP_P (0.9)
        RBP's persistence: by default the ``rbp`` metric's own, so the column is what
        ``evaluate(run, qrels, ["rbp"])`` gives; another ``p`` names itself in the
        column (``"RBP(p=0.5)"``).

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
