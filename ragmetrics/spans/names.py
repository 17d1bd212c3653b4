"""Span metrics by name: ``"span_recall@10"``, ``"span_iou@budget=1000"``, ``"span_precision"``.

A name is ``span_`` + a column of :func:`ragmetrics.spans.span_metrics` (``recall``,
``precision``, ``iou``, ``precision_omega``), then the cut: ``@k`` for the top k chunks,
``@budget=N`` for the longest ranked prefix of at most N units (characters or tokens,
as the call says), or nothing for every retrieved chunk. ``span_precision_omega``
depends on the chunking alone and takes no cut.

The span metrics are rows of the one metric table
(:data:`ragmetrics.metrics.registry.SPAN_METRIC_TABLE`, :class:`~ragmetrics.MetricInfo`
rows), and :func:`ragmetrics.parse_metric` reads their names as it reads every other
(a :class:`~ragmetrics.MetricSpec` with ``k`` or ``budget``), so that evaluate, compare
and the command line dispatch them like any metric. This module holds what only span
evaluation asks of names: which are span metrics, and the default list.
"""

from __future__ import annotations

from ..errors import InputTypeError, InputValueError
from ..metrics.registry import SPAN_METRIC_TABLE, MetricSpec, parse_metric, parse_metrics
from ..validation import check_k

__all__ = ["SPAN_METRICS", "UNITS_SENT", "SpanMetricSpec", "default_span_metrics", "is_span_metric",
           "is_span_spec", "parse_metric_names", "parse_span_metric"]

#: The span metric that is a cost, not a quality: ``span_units_sent@k`` (or
#: ``@budget=N``), the characters or tokens of the chunks kept at the cut, each chunk
#: whole, as a prompt holds them. A row of the table, so that evaluate scores it by name
#: with the same cut as the others; :func:`ragmetrics.compare` shows it in a table of its
#: own (:attr:`ragmetrics.Comparison.costs`), never among the metrics it tests.
UNITS_SENT = "span_units_sent"

#: The span metrics of quality: the column of :func:`~ragmetrics.spans.span_metrics` ->
#: what it measures (the rows of :data:`~ragmetrics.metrics.registry.SPAN_METRIC_TABLE`
#: but :data:`UNITS_SENT`).
SPAN_METRICS = {name.removeprefix("span_"): row.description
                for name, row in SPAN_METRIC_TABLE.items() if name != UNITS_SENT}


def is_span_metric(text) -> bool:
    """True for names that start with ``span_`` (whether or not they parse)."""
    return isinstance(text, str) and text.strip().startswith("span_")


def is_span_spec(spec: MetricSpec) -> bool:
    """True for a span metric's :class:`~ragmetrics.MetricSpec` (a row of the span family)."""
    return spec.info.family == "spans"


def SpanMetricSpec(name: str, k: int | None = None, budget: int | None = None
                   ) -> MetricSpec:
    """The span metric ``span_<name>`` with its cut, as a :class:`~ragmetrics.MetricSpec`
    (kept under its old name: span metrics have no spec type of their own any more).

    >>> str(SpanMetricSpec("recall", k=10)), str(SpanMetricSpec("iou", budget=500))
    ('span_recall@10', 'span_iou@budget=500')
    """
    if k is not None and budget is not None:
        raise InputValueError("a span metric's cut is k or a budget, not both")
    cut = "" if k is None and budget is None else (
        f"@{k}" if budget is None else f"@budget={budget}")
    return parse_span_metric(f"span_{name}{cut}")


def parse_span_metric(text: str) -> MetricSpec:
    """Read a span metric name (:func:`ragmetrics.parse_metric`, refusing other names).

    Examples
    --------
    >>> parse_span_metric("span_recall@10")
    MetricSpec(name='span_recall', k=10)
    >>> str(parse_span_metric("span_iou@budget=1000"))
    'span_iou@budget=1000'
    >>> parse_span_metric("span_recal@10")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: unknown span metric 'span_recal@10': a name is span_ + one of recall, precision, iou, precision_omega, units_sent, then @k, @budget=N or nothing; did you mean 'span_recall'?
    """
    if not isinstance(text, str):
        raise InputTypeError(f"a span metric name must be a str such as 'span_recall@10', "
                             f"got {text!r}")
    if not is_span_metric(text):
        raise InputValueError(f"{text!r} is not a span metric (names start with 'span_', "
                              "e.g. 'span_recall@10')")
    return parse_metric(text)


def default_span_metrics(cutoffs=(5, 10, 20)) -> list[str]:
    """Span recall, precision and IoU at every cut-off: the default of a span comparison.

    Examples
    --------
    >>> default_span_metrics((5, 10))
    ['span_recall@5', 'span_recall@10', 'span_precision@5', 'span_precision@10', 'span_iou@5', 'span_iou@10']
    """
    if isinstance(cutoffs, (str, bytes)) or not cutoffs:
        raise InputTypeError(f"cutoffs must be a non-empty sequence of ints, got {cutoffs!r}")
    ks = [check_k(k, name="each cut-off") for k in cutoffs]
    if len(set(ks)) != len(ks):
        raise InputValueError(f"cutoffs repeat a value: {list(cutoffs)!r}")
    return [f"span_{name}@{k}" for name in ("recall", "precision", "iou") for k in ks]


def parse_metric_names(names) -> list[MetricSpec]:
    """Parse names of both kinds, span (``"span_iou@10"``) and id-based (``"ndcg@10"``):
    :func:`ragmetrics.metrics.registry.parse_metrics`, which reads both.

    Repeats are refused (each name is a column): ``"mrr"`` and ``"rr"`` are one metric,
    ``"span_recall@10"`` and ``" span_recall@10"`` too.

    Examples
    --------
    >>> [str(spec) for spec in parse_metric_names(["span_recall@10", "mrr", "span_iou"])]
    ['span_recall@10', 'rr', 'span_iou']
    >>> parse_metric_names(["recall@10", "span_recall@10", " span_recall@10"])
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: metric ' span_recall@10' is requested twice (as 'span_recall@10')
    """
    return parse_metrics(names)
