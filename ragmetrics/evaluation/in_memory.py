"""One run in memory, scored against judgments of chunk ids: the engine's path.

The run is ranked and judged (:mod:`ragmetrics.evaluation.engine`), then every metric
scored through the metric table (:func:`ragmetrics.metrics.scoring.score`), vectorized
over all queries at once, with the warnings that come with the numbers.
"""

from __future__ import annotations

import pandas as pd

from ..conventions import Conventions
from ..metrics.registry import parse_metrics
from ..metrics.scoring import score
from .arrow_inputs import as_frame
from .engine import Prepared, rank_and_judge
from .inputs import qrels_columns, run_columns
from .parts import DeferredRun
from .result import (
    Evaluation,
    summarize,
    warn_coverage,
    warn_empty_relevant,
    warn_nothing_retrieved,
)
from .variants import apply_ap_denominator, prepare_run

__all__ = ["evaluate_in_memory"]


def evaluate_in_memory(run, qrels, names: list, conventions: Conventions) -> Evaluation:
    """One run held in memory (a frame, a table, a mapping, or a deferred run) scored
    against judgments of chunk ids: what :func:`ragmetrics.evaluate` does once it has
    told evidence spans, Dask frames and runs in parts apart (their modules call this
    on each part)."""
    specs = parse_metrics(names)
    empty_relevant = conventions.empty_relevant
    missing_from_run = conventions.missing_from_run
    if isinstance(run, DeferredRun):
        run = run.load()
    run, qrels = as_frame(run), as_frame(qrels)  # Arrow and Polars tables, zero-copy
    columns = run_columns(run, order_by=conventions.order_by, ties=conventions.ties)
    judgments = qrels_columns(qrels)
    columns = prepare_run(columns, conventions, judgments)
    prepared = rank_and_judge(columns, judgments, conventions, specs)
    in_run = prepared.coverage.in_run
    values = score(prepared.ranked, specs, empty_relevant=empty_relevant,
                   query_ids=prepared.judged.ids,
                   in_run=in_run if missing_from_run == "skip" else None,
                   zero_for=~in_run if missing_from_run == "zero" and not in_run.all() else None)
    if conventions.ap_denominator == "min_relevant_k":
        values = [apply_ap_denominator(v, prepared.ranked, spec.k)
                  if spec.name == "ap" and spec.k is not None else v
                  for spec, v in zip(specs, values, strict=True)]
    per_query = pd.DataFrame(dict(zip(names, values, strict=True)), index=prepared.index())
    order = prepared.natural_order()
    if missing_from_run == "skip":
        order = order[in_run[order]]
    per_query = per_query.iloc[order]
    result = Evaluation(
        per_query=per_query,
        summary=summarize(per_query, specs),
        conventions=conventions,
        queries_missing_from_run=prepared.ids(~in_run),
        queries_missing_from_qrels=prepared.coverage.unjudged,
        queries_without_relevant=prepared.ids(prepared.empty),
    )
    warn_coverage(result)
    warn_empty_relevant(result, prepared.judged.n, prepared.judged.max_grade)
    _warn_if_nothing_relevant_retrieved(prepared)
    return result


def _warn_if_nothing_relevant_retrieved(prepared: Prepared) -> None:
    """Say so when queries with relevant docs were answered, and never with one of them.

    A retriever that bad is rare; ids written two ways (``"d1"`` and ``"doc-d1"``,
    another case, other whitespace) are not, and they score 0 without any error.
    """
    answered = prepared.coverage.in_run & ~prepared.empty
    ranked = prepared.ranked
    if not answered.any() or ranked.relevant.any() or not len(ranked):
        return
    warn_nothing_retrieved(int(answered.sum()), prepared.depth, stacklevel=4)
