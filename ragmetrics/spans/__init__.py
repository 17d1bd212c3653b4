"""Evaluate retrieval across chunkings: evidence spans instead of chunk ids.

Chunk ids do not survive re-chunking, so a golden set of chunk ids cannot compare a
256-token chunker with a 512-token one. A golden set of **evidence spans** (the passage
of a document that answers each question) can:

- :func:`chunk_qrels` judges the chunks of any chunking from the spans, under a named
  rule (any overlap, minimum shared characters, chunk coverage, evidence coverage), for
  :func:`ragmetrics.evaluate` and :func:`ragmetrics.compare`;
  :func:`threshold_sensitivity` shows how a metric moves with the rule's threshold;
- :func:`document_run` and :func:`document_qrels` move runs and judgments to document
  level;
- :func:`texts_as_evidence` locates reference texts that are parts of documents (RAGAS'
  ``reference_contexts``, quotes) as evidence spans, every text found nowhere or more
  than once reported;
- :func:`span_metrics` measures the retrieved text itself: recall, precision and IoU in
  characters or tokens, for the top k chunks or a context budget, overlaps counted once
  (or twice, as Chroma's published definitions do, with ``overlap="sum"``);
- :class:`SpanJudgments` makes evidence the golden set of :func:`ragmetrics.evaluate`
  and :func:`ragmetrics.compare`: span metrics by name (``"span_iou@10"``) and id-based
  metrics over any chunking, each system with its own (``chunks={system: chunking}``),
  with intervals, paired tests and a report.

The data model (documents, chunks by offsets or text, evidence by offsets or quote) is
described in :mod:`ragmetrics.spans.model`; :func:`window_chunks` makes fixed-size
chunkings, and :func:`load_span_dataset` loads the two demo data sets of ``data/``
(the invented help centre, and two articles of SQuAD 2.0) without any network.
"""

from .chunking import window_chunks
from .datasets import SpanDataset, load_span_dataset, span_dataset_names
from .doclevel import DOCUMENT_RANKINGS, document_qrels, document_run
from .judging import SpanJudgments
from .locate import normalize_whitespace
from .metrics import OVERLAP_POLICIES, UNITS, evaluate_spans, span_metrics
from .model import locate_chunks, locate_evidence
from .names import SPAN_METRICS, UNITS_SENT, SpanMetricSpec, parse_span_metric
from .readers import read_table
from .rules import DEFAULT_THRESHOLDS, RULES, chunk_qrels, threshold_sensitivity
from .text_evidence import TextEvidence, texts_as_evidence
from .threshold_plot import plot_threshold_sensitivity
from .tokens import word_pieces

__all__ = [
    "DEFAULT_THRESHOLDS", "DOCUMENT_RANKINGS", "OVERLAP_POLICIES", "RULES", "SPAN_METRICS",
    "UNITS", "UNITS_SENT", "SpanDataset", "SpanJudgments", "SpanMetricSpec", "TextEvidence", "chunk_qrels",
    "document_qrels", "document_run", "evaluate_spans", "load_span_dataset",
    "locate_chunks", "locate_evidence", "normalize_whitespace", "parse_span_metric",
    "plot_threshold_sensitivity", "read_table", "span_dataset_names", "span_metrics",
    "texts_as_evidence", "threshold_sensitivity", "window_chunks", "word_pieces",
]
