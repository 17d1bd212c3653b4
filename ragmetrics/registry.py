"""Metric metadata as data: one table that docs, widgets and reports all read.

A metric is named by a string such as ``"recall@10"``, ``"mrr"`` or ``"ndcg@5"``:
the metric's name, then ``@k`` for its cut-off. :func:`parse_metric` turns the string
into a :class:`MetricSpec`, whose ``str()`` gives the same string back.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from . import metrics as _m
from ._validation import check_k
from .errors import InputTypeError, InputValueError


@dataclass(frozen=True)
class MetricInfo:
    """What one metric is, independent of how it is computed."""

    name: str
    pretty_name: str
    question: str
    description: str
    cutoff: str  # "required", "optional" or "none"
    function: Callable
    higher_is_better: bool = True
    lower_bound: float = 0.0
    upper_bound: float = 1.0
    trec_eval: str = ""  # the trec_eval measure it matches ("k" stands for the cut-off)


METRICS: dict[str, MetricInfo] = {
    info.name: info
    for info in (
        MetricInfo(
            name="recall",
            pretty_name="Recall@k",
            question="Of all the relevant chunks, what fraction is in the top k?",
            description="relevant docs in the top k / all relevant docs",
            cutoff="required",
            function=_m.recall_at_k,
            trec_eval="recall_k",
        ),
        MetricInfo(
            name="precision",
            pretty_name="Precision@k",
            question="Of the k chunks returned, what fraction is relevant?",
            description="relevant docs in the top k / k",
            cutoff="required",
            function=_m.precision_at_k,
            trec_eval="P_k",
        ),
        MetricInfo(
            name="hit_rate",
            pretty_name="Hit rate@k",
            question="Is at least one relevant chunk in the top k?",
            description="1 if any relevant doc is in the top k, else 0 (also 'success@k')",
            cutoff="required",
            function=_m.hit_rate_at_k,
            trec_eval="success_k",
        ),
        MetricInfo(
            name="mrr",
            pretty_name="MRR",
            question="How high is the first relevant chunk?",
            description="1 / rank of the first relevant doc (0 if none), averaged over queries",
            cutoff="optional",
            function=_m.reciprocal_rank,
            trec_eval="recip_rank",
        ),
        MetricInfo(
            name="ndcg",
            pretty_name="nDCG@k",
            question="How close is the ranking to the best possible order?",
            description="DCG of the top k / DCG of the ideal top k (graded gains, log2 discount)",
            cutoff="optional",
            function=_m.ndcg_at_k,
            trec_eval="ndcg_cut_k",
        ),
        MetricInfo(
            name="map",
            pretty_name="MAP",
            question="How high are all the relevant chunks, on average?",
            description="mean of Precision@i at each relevant doc's rank i, over all relevant",
            cutoff="optional",
            function=_m.average_precision,
            trec_eval="map",
        ),
        MetricInfo(
            name="r_precision",
            pretty_name="R-precision",
            question="With as many slots as relevant chunks, what fraction is filled?",
            description="relevant docs in the top R / R, where R = number of relevant docs",
            cutoff="none",
            function=_m.r_precision,
            trec_eval="Rprec",
        ),
    )
}


@dataclass(frozen=True)
class MetricSpec:
    """A metric with its cut-off: ``MetricSpec("ndcg", 10)`` is ``"ndcg@10"``."""

    name: str
    k: int | None = None

    @property
    def info(self) -> MetricInfo:
        return METRICS[self.name]

    @property
    def pretty_name(self) -> str:
        pretty = self.info.pretty_name
        if self.k is None:
            return pretty.replace("@k", "")
        return pretty.replace("@k", f"@{self.k}") if "@k" in pretty else f"{pretty}@{self.k}"

    def __str__(self) -> str:
        return self.name if self.k is None else f"{self.name}@{self.k}"


_SPEC = re.compile(r"^(?P<name>[a-z_]+)(?:@(?P<k>.*))?$")


def _suggest(text: str) -> str:
    candidates = [
        f"{n}@10" if info.cutoff == "required" else n for n, info in METRICS.items()
    ]
    close = difflib.get_close_matches(text.lower(), candidates, n=1, cutoff=0.4)
    if not close:
        close = difflib.get_close_matches(text.lower().split("@")[0], list(METRICS), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def parse_metric(text: str) -> MetricSpec:
    """Parse a metric name such as ``"recall@10"``, ``"mrr"`` or ``"ndcg@5"``.

    Examples
    --------
    >>> parse_metric("ndcg@10")
    MetricSpec(name='ndcg', k=10)
    >>> str(parse_metric("mrr"))
    'mrr'
    >>> parse_metric("ndgc@10")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: unknown metric 'ndgc@10'; did you mean 'ndcg'?
    """
    if not isinstance(text, str):
        raise InputTypeError(f"a metric name must be a str such as 'recall@10', got {text!r}")
    match = _SPEC.match(text.strip())
    if match is None or match["name"] not in METRICS:
        raise InputValueError(f"unknown metric {text!r}{_suggest(text)}")
    name, k_text = match["name"], match["k"]
    info = METRICS[name]
    if k_text is None:
        if info.cutoff == "required":
            raise InputValueError(
                f"metric {text!r} needs a cut-off: write it as '{name}@k', e.g. '{name}@10'"
            )
        return MetricSpec(name)
    if info.cutoff == "none":
        raise InputValueError(f"metric {name!r} takes no cut-off; got {text!r}, write {name!r}")
    if not re.fullmatch(r"[0-9]+", k_text):
        raise InputValueError(f"the cut-off in {text!r} must be a positive int, got {k_text!r}")
    return MetricSpec(name, check_k(int(k_text), name=f"the cut-off in {text!r}"))


def parse_metrics(names) -> list[MetricSpec]:
    """Parse a list of metric names, refusing duplicates (columns must be unique)."""
    if isinstance(names, str):
        names = [names]
    specs = [parse_metric(n) for n in names]
    if not specs:
        raise InputValueError("metrics must name at least one metric, e.g. ['recall@10', 'ndcg@10']")
    seen: set[str] = set()
    for spec in specs:
        if str(spec) in seen:
            raise InputValueError(f"metric {str(spec)!r} is requested twice")
        seen.add(str(spec))
    return specs
