"""Span metrics by name: ``"span_recall@10"``, ``"span_iou@budget=1000"``, ``"span_precision"``.

A name is ``span_`` + a column of :func:`ragmetrics.spans.span_metrics` (``recall``,
``precision``, ``iou``, ``precision_omega``), then the cut: ``@k`` for the top k chunks,
``@budget=N`` for the longest ranked prefix of at most N units (characters or tokens,
as the call says), or nothing for every retrieved chunk. ``span_precision_omega``
depends on the chunking alone and takes no cut. :func:`parse_span_metric` reads a name,
``str()`` writes it back, so that evaluate, compare and the command line can dispatch
these names like any other metric: :func:`parse_metric_names` reads a list that mixes
them with the id-based names of the metric table (``"recall@10"``, ``"mrr"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputTypeError, InputValueError
from ..metrics.registry import MetricSpec, parse_metrics
from ..validation import check_k

__all__ = ["SPAN_METRICS", "SPAN_METRIC_TABLE", "SpanMetricInfo", "SpanMetricSpec", "default_span_metrics",
           "is_span_metric", "parse_metric_names", "parse_span_metric"]

@dataclass(frozen=True)
class SpanMetricInfo:
    """What a span metric is: one row of the span metric table.

    The attributes of the metric table's :class:`~ragmetrics.MetricInfo` that a
    comparison reads (a name, the range of values, the better direction), and the two
    facts the span engine's policies read: the score of a query with no evidence under
    ``empty_relevant="article"``, and whether the metric depends on the run at all.
    """

    name: str  # "span_recall"
    pretty_name: str  # "Span recall"
    description: str
    article_value: float = 0.0  # "nothing to find, so nothing missed" for recall
    depends_on_run: bool = True  # precision_omega is the chunking's ceiling, run or not
    lower_bound: float = 0.0
    upper_bound: float = 1.0
    higher_is_better: bool = True


#: The span metric table: column name -> its row.
SPAN_METRIC_TABLE = {
    row.name.removeprefix("span_"): row for row in (
        SpanMetricInfo("span_recall", "Span recall",
                       "share of the evidence's characters (or tokens) that were retrieved",
                       article_value=1.0),
        SpanMetricInfo("span_precision", "Span precision",
                       "share of the retrieved characters (or tokens) that are evidence"),
        SpanMetricInfo("span_iou", "Span IoU",
                       "retrieved and evidence, over retrieved or evidence (Jaccard)"),
        SpanMetricInfo("span_precision_omega", "Span precision Ω",
                       "IoU of all chunks touching evidence: the best a chunking allows",
                       depends_on_run=False),
    )
}

#: The span metrics: name -> what it measures.
SPAN_METRICS = {name: row.description for name, row in SPAN_METRIC_TABLE.items()}

_NAME = re.compile(r"^span_(?P<name>[a-z_]+?)(?:@(?:(?P<k>[0-9]+)|budget=(?P<budget>[0-9]+)))?$")


@dataclass(frozen=True)
class SpanMetricSpec:
    """A span metric and its cut: ``SpanMetricSpec("recall", k=10)`` is ``"span_recall@10"``."""

    name: str
    k: int | None = None
    budget: int | None = None

    @property
    def info(self) -> SpanMetricInfo:
        return SPAN_METRIC_TABLE[self.name]

    @property
    def bounds(self) -> tuple[float, float]:
        """The range of the metric's values (the row's: a span metric has no parameter
        that moves it), as :attr:`ragmetrics.MetricSpec.bounds` gives it."""
        return self.info.lower_bound, self.info.upper_bound

    def __str__(self) -> str:
        cut = (f"@{self.k}" if self.k is not None else
               f"@budget={self.budget}" if self.budget is not None else "")
        return f"span_{self.name}{cut}"


def is_span_metric(text) -> bool:
    """True for names that start with ``span_`` (whether or not they parse)."""
    return isinstance(text, str) and text.strip().startswith("span_")


def parse_span_metric(text: str) -> SpanMetricSpec:
    """Read a span metric name.

    Examples
    --------
    >>> parse_span_metric("span_recall@10")
    SpanMetricSpec(name='recall', k=10, budget=None)
    >>> str(parse_span_metric("span_iou@budget=1000"))
    'span_iou@budget=1000'
    >>> parse_span_metric("span_recal@10")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: unknown span metric 'span_recal@10': a name is span_ + one of recall, precision, iou, precision_omega, then @k, @budget=N or nothing
    """
    if not isinstance(text, str):
        raise InputTypeError(f"a span metric name must be a str such as 'span_recall@10', "
                             f"got {text!r}")
    match = _NAME.match(text.strip())
    if match is None or match["name"] not in SPAN_METRICS:
        raise InputValueError(
            f"unknown span metric {text!r}: a name is span_ + one of "
            f"{', '.join(SPAN_METRICS)}, then @k, @budget=N or nothing")
    name = match["name"]
    k = check_k(int(match["k"]), name=f"the cut-off in {text!r}") if match["k"] else None
    budget = (check_k(int(match["budget"]), name=f"the budget in {text!r}")
              if match["budget"] else None)
    if name == "precision_omega" and (k or budget):
        raise InputValueError(f"{text!r}: span_precision_omega depends on the chunking only "
                              "and takes no cut; write 'span_precision_omega'")
    return SpanMetricSpec(name, k, budget)


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


def parse_metric_names(names) -> list[MetricSpec | SpanMetricSpec]:
    """Parse names of both kinds, span (``"span_iou@10"``) and id-based (``"ndcg@10"``).

    Repeats are refused (each name is a column): ``"mrr"`` and ``"rr"`` are one metric,
    ``"span_recall@10"`` and ``" span_recall@10"`` too.

    Examples
    --------
    >>> [str(spec) for spec in parse_metric_names(["span_recall@10", "mrr", "span_iou"])]
    ['span_recall@10', 'rr', 'span_iou']
    >>> parse_metric_names(["recall@10", "span_recall@10", "span_recall@10"])
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: metric 'span_recall@10' is requested twice
    """
    names = [names] if isinstance(names, str) else list(names)
    if not names:
        raise InputValueError(
            "metrics must name at least one metric, e.g. ['recall@10', 'span_recall@10']")
    spans = {i: parse_span_metric(n) for i, n in enumerate(names) if is_span_metric(n)}
    others = [n for i, n in enumerate(names) if i not in spans]
    by_ids = iter(parse_metrics(others) if others else ())  # refuses its own repeats
    first: dict = {}
    for i, spec in spans.items():
        if spec in first:
            same = "" if first[spec] == names[i] else f" (as {first[spec]!r})"
            raise InputValueError(f"metric {names[i]!r} is requested twice{same}")
        first[spec] = names[i]
    return [spans[i] if i in spans else next(by_ids) for i in range(len(names))]
