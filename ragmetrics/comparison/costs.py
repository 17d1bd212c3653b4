"""What each system sends to the model, beside the metrics: the cost of a span comparison.

When chunkings are compared on evidence spans, a system's context at a cut (``k``
chunks, or a budget of characters or tokens) is the text of the chunks it keeps there,
and that text is what the model reads and what the call costs. Two chunkings can reach
the same span recall@10 while one sends twice the text. :func:`ragmetrics.compare`
therefore scores, for every cut its metrics read, the span metric
``span_units_sent@k`` (or ``@budget=N``, or uncut: every chunk retrieved): the lengths
of the chunks kept added up, each chunk whole, in the comparison's unit. It is a row of
the metric table (:data:`ragmetrics.spans.names.UNITS_SENT`), scored by the same kernel
and the same cut as the span metrics (:meth:`ragmetrics.spans.metrics.SpanScorer.kept`),
so that there is one definition of what a cut keeps. This module asks the evaluation
for it, takes it out of the evaluations again and summarizes it per system and cut:
:attr:`ragmetrics.Comparison.costs`, a table of its own in the reports, never one of
the metrics tested.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from ..evaluation import Evaluation
from ..metrics.registry import MetricSpec, parse_metric
from ..spans.names import UNITS_SENT, is_span_spec

__all__ = ["cost_names", "cost_summary", "cut_label", "extra_cost_names"]

#: The statistics of units sent per question, over the queries compared.
COST_STATISTICS = ("mean", "p50", "p90")


def _cuts(specs: Sequence[MetricSpec]) -> list[tuple[int | None, int | None]]:
    """The cuts the metrics read, ``(k, budget)``, each once: the k of every metric cut at
    a rank (span or id-based: ``recall@10`` reads the top 10 chunks too), every budget,
    and ``(None, None)`` for a span metric read uncut (every chunk retrieved); by k,
    then by budget, then uncut."""
    found = set()
    for spec in specs:
        info = spec.info
        if info.cutoff == "none":  # span_precision_omega: of the chunking, not the run
            continue
        if spec.budget is not None:
            found.add((None, int(spec.budget)))
        elif isinstance(spec.k, int) and info.cutoff_kind == "rank":
            found.add((spec.k, None))
        elif spec.k is None and is_span_spec(spec):
            found.add((None, None))
    return sorted(found, key=lambda cut: (cut[0] is None, cut[1] is None, cut[0] or 0,
                                          cut[1] or 0))


def _name(cut: tuple[int | None, int | None]) -> str:
    k, budget = cut
    return UNITS_SENT + ("" if k is None and budget is None else
                         f"@{k}" if budget is None else f"@budget={budget}")


def cut_label(cut: tuple[int | None, int | None]) -> str:
    """A cut in words for the cost table: ``"k=10"``, ``"budget=1000"``, ``"all retrieved"``."""
    k, budget = cut
    if budget is not None:
        return f"budget={budget}"
    return "all retrieved" if k is None else f"k={k}"


def cost_names(specs: Sequence[MetricSpec]) -> dict[str, str]:
    """``{cut label: name of its units-sent metric}`` for every cut ``specs`` read.

    Examples
    --------
    >>> from ragmetrics.spans.names import parse_metric_names
    >>> cost_names(parse_metric_names(["span_iou@budget=500", "span_recall@10", "ndcg@5",
    ...                                "span_precision_omega", "span_recall@5"]))
    {'k=5': 'span_units_sent@5', 'k=10': 'span_units_sent@10', 'budget=500': 'span_units_sent@budget=500'}
    """
    return {cut_label(cut): _name(cut) for cut in _cuts(specs)}


def extra_cost_names(names: dict[str, str], asked: Sequence[str]) -> list[str]:
    """The units-sent metrics of ``names`` that the comparison did not ask for: those to
    score for the costs alone (and take out of the evaluations again)."""
    asked_specs = {str(parse_metric(name)) for name in asked}
    return [name for name in names.values() if name not in asked_specs]


def cost_summary(evaluations: dict[str, Evaluation], names: dict[str, str], *,
                 asked: Sequence[str], unit: str
                 ) -> tuple[dict[str, Evaluation], pd.DataFrame]:
    """The units sent per question, summarized per system and cut, and the evaluations
    without the columns that were scored only for it.

    Parameters
    ----------
    evaluations : dict of str to Evaluation
        Each system's evaluation, scored on the metrics and on ``names``' values.
    names : dict of str to str
        :func:`cost_names`: each cut's units-sent metric.
    asked : sequence of str
        The metrics of the comparison: a units-sent metric among them is kept in the
        evaluations (it was asked for), the others are taken out.
    unit : {"char", "token"}
        The comparison's unit (:attr:`ragmetrics.spans.SpanJudgments.unit`).

    Returns
    -------
    evaluations : dict of str to Evaluation
        As given, less the columns scored only for the costs.
    costs : pandas.DataFrame
        Indexed by ``(system, cut)``, columns ``mean``, ``p50`` (the median), ``p90`` (the
        90th percentile, linear interpolation) of the units sent per question, and
        ``queries`` (how many: those of the metrics' means; a ``"skip"`` policy leaves
        some out). ``.attrs["unit"]`` is ``"characters"`` or ``"tokens"``.
    """
    asked_specs = {str(parse_metric(name)): name for name in asked}
    rows, drop = {}, extra_cost_names(names, asked)
    for system, evaluation in evaluations.items():
        for label, name in names.items():
            column = evaluation.per_query[asked_specs.get(name, name)].to_numpy(np.float64)
            values = column[~np.isnan(column)]
            rows[(system, label)] = (
                [float(values.mean()), *np.percentile(values, [50, 90]).tolist(), len(values)]
                if len(values) else [np.nan, np.nan, np.nan, 0])
    costs = pd.DataFrame.from_dict(rows, orient="index",
                                   columns=[*COST_STATISTICS, "queries"])
    costs.index = pd.MultiIndex.from_tuples(list(rows), names=["system", "cut"])
    costs["queries"] = costs["queries"].astype("int64")
    costs.attrs["unit"] = "characters" if unit == "char" else "tokens"
    kept = {system: _without(evaluation, drop) for system, evaluation in evaluations.items()}
    return kept, costs


def _without(evaluation: Evaluation, columns: list[str]) -> Evaluation:
    if not columns:
        return evaluation
    return replace(evaluation, per_query=evaluation.per_query.drop(columns=columns),
                   summary=evaluation.summary.drop(index=columns))
