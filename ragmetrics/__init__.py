"""ragmetrics: learn, check and apply retrieval metrics for RAG.

Per-query metrics read like the article (``recall_at_k(retrieved, relevant, k)``);
:func:`evaluate` scores many queries at once, vectorized; every convention on which
libraries disagree is a named policy (:mod:`ragmetrics.conventions`).
"""

from ._moved import install as _install_moved
from .comparison import Comparison, compare
from .conventions import Conventions
from .errors import (
    CoverageWarning,
    DatasetCoverageWarning,
    EmptyRelevantWarning,
    FormatError,
    InputError,
    InputTypeError,
    InputValueError,
    NoRelevantRetrievedWarning,
    RagmetricsWarning,
    RankOrderWarning,
    RetrieverError,
)
from .evaluation import (
    Evaluation,
    MetricCurves,
    ThresholdChoice,
    ThresholdSweep,
    abstention_at,
    abstention_report,
    evaluate,
    evaluate_scores,
    metric_curves,
    metrics_over_k,
    threshold_for,
    threshold_sweep,
)
from .io import (
    Dataset,
    match_texts,
    read_dataset,
    read_golden,
    read_qrels,
    read_ragas_samples,
    read_results,
    read_run,
    read_trec_qrels,
    read_trec_run,
)
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
from .metrics.registry import METRICS, MetricInfo, MetricSpec, parse_metric
from .runners import RetrieverRun, latency_summary, run_from_documents, run_retriever
from .stats import (
    benjamini_hochberg,
    bootstrap_ci,
    holm,
    paired_bootstrap,
    paired_effect_size,
    paired_t_test,
    randomization_test,
)
from .teaching import ndcg_table

__version__ = "0.1.0"

_install_moved()  # old module paths keep working, with a DeprecationWarning


def __getattr__(name: str):
    # Reports draw figures: import matplotlib only when a report is asked for, so that
    # `import ragmetrics` stays quick in a fresh process.
    if name == "write_report":
        from .reports import write_report

        return write_report
    raise AttributeError(f"module 'ragmetrics' has no attribute {name!r}")

#: The names of the first screen, by layer. Every other name lives in its subpackage
#: (README's Layout section says which).
__all__ = [  # noqa: RUF022 (grouped by layer)
    # the per-query functions and the metric table (ragmetrics.metrics)
    "METRICS", "MetricInfo", "MetricSpec", "average_precision", "dcg_at_k", "hit_rate_at_k",
    "mrr", "ndcg_at_k", "parse_metric", "precision_at_k", "r_precision", "recall_at_k",
    "reciprocal_rank",
    # the conventions, the errors and warnings
    "Conventions", "CoverageWarning", "DatasetCoverageWarning", "EmptyRelevantWarning",
    "FormatError", "InputError", "InputTypeError", "InputValueError",
    "NoRelevantRetrievedWarning", "RagmetricsWarning", "RankOrderWarning",
    # files in, many queries at once, the curves over k (io, evaluation)
    "read_golden", "read_qrels", "read_results", "read_run", "read_trec_qrels",
    "read_trec_run", "Evaluation", "MetricCurves", "evaluate", "metric_curves",
    "metrics_over_k",
    # score matrices [n_queries, n_docs] on any array library (a training loop's)
    "evaluate_scores",
    # questions with no answer: a score threshold, false answers and abstention
    "threshold_sweep", "ThresholdSweep", "threshold_for", "ThresholdChoice", "abstention_at",
    "abstention_report",
    # your data set and your retriever (io, runners): layouts, texts, retrievers run
    "read_dataset", "Dataset", "read_ragas_samples", "match_texts", "run_retriever",
    "run_from_documents", "latency_summary", "RetrieverRun", "RetrieverError",
    # systems compared, statistics on arrays, reports, teaching
    "Comparison", "compare", "benjamini_hochberg", "bootstrap_ci", "holm",
    "paired_bootstrap", "paired_effect_size", "paired_t_test", "randomization_test",
    "write_report", "ndcg_table",
]

# Evaluation across chunkings (ragmetrics.spans): evidence spans instead of chunk ids.
from .spans import (
    SpanJudgments,
    chunk_qrels,
    document_qrels,
    document_run,
    evaluate_spans,
    load_span_dataset,
    locate_chunks,
    locate_evidence,
    parse_span_metric,
    plot_threshold_sensitivity,
    span_metrics,
    texts_as_evidence,
    threshold_sensitivity,
    window_chunks,
    word_pieces,
)

__all__ += [
    "SpanJudgments", "chunk_qrels", "document_qrels", "document_run", "evaluate_spans",
    "load_span_dataset", "locate_chunks", "locate_evidence", "parse_span_metric",
    "plot_threshold_sensitivity", "span_metrics", "texts_as_evidence",
    "threshold_sensitivity", "window_chunks", "word_pieces",
]
