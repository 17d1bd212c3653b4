"""ragmetrics: learn, check and apply retrieval metrics for RAG.

Per-query metrics read like the article (``recall_at_k(retrieved, relevant, k)``);
:func:`evaluate` scores many queries at once, vectorized; every convention on which
libraries disagree is a named policy (:mod:`ragmetrics.policies`).
"""

from .evaluate import CoverageWarning, Evaluation, evaluate
from .io import FormatError, read_golden, read_results, read_trec_qrels, read_trec_run
from .metrics import (
    average_precision,
    dcg_at_k,
    hit_rate_at_k,
    mrr,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)
from .policies import Conventions
from .registry import METRICS, MetricInfo, MetricSpec, parse_metric

__version__ = "0.1.0"

__all__ = [
    "METRICS",
    "Conventions",
    "CoverageWarning",
    "Evaluation",
    "FormatError",
    "MetricInfo",
    "MetricSpec",
    "average_precision",
    "dcg_at_k",
    "evaluate",
    "hit_rate_at_k",
    "mrr",
    "ndcg_at_k",
    "parse_metric",
    "precision_at_k",
    "r_precision",
    "read_golden",
    "read_results",
    "read_trec_qrels",
    "read_trec_run",
    "recall_at_k",
    "reciprocal_rank",
]
