"""Step 2 of :func:`~ragmetrics.comparison.compare`: evaluate every system on the same queries.

Each system is scored by :func:`ragmetrics.evaluate` under the same conventions (on
``jobs`` worker processes: :mod:`ragmetrics.evaluation.in_parallel`), the judgments'
errors raised once, as the golden set's, before any run is scored. What ragmetrics warns
while scoring becomes the comparison's notes: a warning about a run names its system
(:data:`ragmetrics.errors.RUN_WARNINGS`), one about the judgments is said once
(:data:`ragmetrics.errors.JUDGMENT_WARNINGS`), and the queries missing from a run or from
the judgments are listed. :func:`aligned_per_query` then puts every system's per-query
values on one query index, the rows that the statistics pair.

:func:`evaluate_systems` is this step alone (``ragmetrics evaluate --means-only``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import pandas as pd

from ..conventions import Conventions
from ..errors import (
    JUDGMENT_WARNINGS,
    RUN_WARNINGS,
    CoverageWarning,
    FormatError,
    InputError,
    InputTypeError,
    InputValueError,
    RagmetricsWarning,
)
from ..evaluation import Evaluation, check_judgments, evaluate
from ..evaluation.in_parallel import map_in_workers
from ..spans.judging import SpanComparison, span_comparison
from ..spans.names import parse_metric_names
from ..stats.arguments import check_positive_int
from .options import check_systems, chosen_metrics

__all__ = ["aligned_per_query", "evaluate_all", "evaluate_systems", "retriever_summaries"]


def evaluate_systems(
    systems: Mapping,
    qrels=None,
    metrics: Sequence[str] | None = None,
    *,
    conventions: Conventions | None = None,
    preset: str | None = None,
    chunks=None,
    evidence=None,
    documents=None,
    jobs: int = 1,
) -> tuple[dict[str, Evaluation], tuple[str, ...]]:
    """Evaluate every system as :func:`~ragmetrics.comparison.compare` does, without its
    statistics: each system's :class:`~ragmetrics.Evaluation` and the notes a comparison
    would print.

    What ``ragmetrics evaluate --means-only`` prints, and the first step of
    :func:`~ragmetrics.comparison.compare`: the judgments checked once, each system
    evaluated (on ``jobs`` worker processes), its warnings turned into notes that name it
    (the judgments' warnings said once).

    Parameters
    ----------
    systems, qrels, metrics, chunks, evidence, documents, jobs, preset
        As in :func:`~ragmetrics.comparison.compare`.
    conventions : Conventions, optional
        The conventions, ``preset`` applied already (default: ``Conventions()``).

    Returns
    -------
    evaluations : dict of str to Evaluation
        In the order of ``systems``.
    notes : tuple of str

    Examples
    --------
    >>> qrels = {"q1": {"a"}, "q2": {"b"}}
    >>> runs = {"old": {"q1": ["z", "a"], "q2": ["b"]}, "new": {"q1": ["a"]}}
    >>> evaluations, notes = evaluate_systems(runs, qrels, ["mrr"])
    >>> {name: float(e.summary["mrr"]) for name, e in evaluations.items()}
    {'old': 0.75, 'new': 0.5}
    >>> notes
    ('new: 1 judged query missing from the run, scored 0: q2',)
    """
    systems = check_systems(systems)
    spans = span_comparison(list(systems), qrels, chunks=chunks, evidence=evidence,
                            documents=documents)
    names = chosen_metrics(metrics, spans)
    parse_metric_names(names)
    conventions = Conventions() if conventions is None else conventions
    if not isinstance(conventions, Conventions):
        raise InputTypeError(f"conventions must be a Conventions, got {conventions!r}")
    jobs = check_positive_int(jobs, "jobs")
    return evaluate_all(systems, qrels, names, spans, conventions, preset, jobs)


def evaluate_all(systems: dict, qrels, metrics: list[str], spans: SpanComparison | None,
                 conventions: Conventions, preset: str | None,
                 jobs: int, *, judgments_checked: bool = False,
                 ) -> tuple[dict[str, Evaluation], tuple[str, ...]]:
    """Each system's evaluation, in order, and the notes (see :func:`evaluate_systems`);
    the arguments checked already (and the judgments too, with ``judgments_checked``:
    the systems scored again, under other conventions)."""
    policies = conventions.as_dict() | {"preset": preset}
    if spans is None:
        if not judgments_checked:
            check_judgments(qrels, metrics, **policies)  # its errors once, not a system's
        judgments, chunkings = qrels, dict.fromkeys(systems)
    else:  # evidence: checked when read; each system's chunking checked already
        judgments, chunkings = spans.judgments, spans.chunks

    names = list(systems)
    items = [(name, systems[name], chunkings[name]) for name in names]
    evaluations, notes = {}, []
    for name, (evaluation, found) in zip(
            names, map_in_workers(_evaluate_item, items, jobs=jobs,
                                  shared=(judgments, metrics, policies)), strict=True):
        evaluations[name] = evaluation
        notes += [note for note in found if note not in notes]  # the judgments' notes: once
    return evaluations, tuple(notes)


def aligned_per_query(evaluations: dict[str, Evaluation]) -> dict[str, pd.DataFrame]:
    """Every system's per-query frame on the same index (the union, in first-seen order).

    Examples
    --------
    Under ``missing_from_run="skip"`` each system has values for the queries it ran:

    >>> runs, qrels = {"old": {"q1": ["a"]}, "new": {"q2": ["b"]}}, {"q1": {"a"}, "q2": {"b"}}
    >>> skip = Conventions(missing_from_run="skip")
    >>> evaluations, _ = evaluate_systems(runs, qrels, ["mrr"], conventions=skip)
    >>> aligned_per_query(evaluations)["new"]  # doctest: +NORMALIZE_WHITESPACE
              mrr
    query_id
    q1        NaN
    q2        1.0
    """
    frames = list(evaluations.values())
    index = frames[0].per_query.index
    for ev in frames[1:]:
        extra = ev.per_query.index[~ev.per_query.index.isin(index)]
        if len(extra):  # only under missing_from_run="skip"; keep the index's dtype
            index = pd.Index([*index, *extra], dtype=index.dtype, name=index.name)
    return {name: ev.per_query.reindex(index) for name, ev in evaluations.items()}


def retriever_summaries(systems: Mapping) -> dict | None:
    """How each system's retriever ran, for runs that carry it; None when none does.

    A run made by :func:`ragmetrics.runners.run_retriever` carries its latency and
    provenance (read by duck typing: a ``latency_summary`` method and a ``provenance``
    mapping); a report shows them beside the metrics, never in them.

    Returns
    -------
    dict of str to dict or None
        ``{system: {mean, p50, p90, p99 (seconds per query), timed, cached, k,
        config_hash}}``, for the systems whose run carries them.

    Examples
    --------
    >>> retriever_summaries({"bm25": {"q1": ["d1"]}}) is None
    True
    """
    found = {}
    for name, run in systems.items():
        summarize = getattr(type(run), "latency_summary", None)  # a column cannot pass
        provenance = getattr(run, "provenance", None) if callable(summarize) else None
        if not isinstance(provenance, Mapping) or getattr(run, "latency", None) is None:
            continue
        found[name] = {**summarize(run), "k": provenance.get("k"),
                       "config_hash": provenance.get("config_hash")}
    return found or None


def _evaluate_item(judgments, metrics, policies, item) -> tuple[Evaluation, list[str]]:
    """One system's evaluation and its notes, in this process or a worker's."""
    name, run, chunks = item
    found: list[str] = []
    return _evaluate(name, run, judgments, metrics, policies, found, chunks=chunks), found


def _evaluate(name, run, qrels, metrics, policies, notes: list, *, chunks=None) -> Evaluation:
    """One system's evaluation; its warnings become notes (naming the system where they
    are about its run or its chunking; said once where they are about the judgments)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RagmetricsWarning)
        try:
            result = evaluate(run, qrels, metrics, chunks=chunks, **policies)
        except FormatError:
            raise  # a run read as it is evaluated: the error names its file already
        except InputError as error:
            kind = InputTypeError if isinstance(error, TypeError) else InputValueError
            raise kind(f"system {name!r}: {error}") from error
    for warning in caught:  # ragmetrics' warnings become notes; others go on
        if issubclass(warning.category, JUDGMENT_WARNINGS):
            if str(warning.message) not in notes:  # the same for every run
                notes.append(str(warning.message))
        elif issubclass(warning.category, RUN_WARNINGS):
            notes.append(f"{name}: {warning.message}")
        elif not issubclass(warning.category, CoverageWarning):  # listed below instead
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
    how = "scored 0" if result.conventions.missing_from_run == "zero" else "left out"
    for ids, what in (
        (result.queries_missing_from_run, f"judged {{queries}} missing from the run, {how}"),
        (result.queries_missing_from_qrels, "{queries} of the run without judgments, left out"),
    ):
        if ids:
            queries = "query" if len(ids) == 1 else "queries"
            shown = ", ".join(map(str, ids[:5])) + (", ..." if len(ids) > 5 else "")
            notes.append(f"{name}: {len(ids)} {what.format(queries=queries)}: {shown}")
    judged = set(result.per_query.index) | set(result.queries_missing_from_run)
    if judged and not judged - set(result.queries_missing_from_run):
        judged_ids = ", ".join(map(repr, sorted(map(str, judged))[:3]))
        run_ids = ", ".join(map(repr, sorted(map(str, result.queries_missing_from_qrels))[:3]))
        raise InputValueError(
            f"system {name!r} has no query in common with the judgments (judged: "
            f"{judged_ids}, ...; in the run: {run_ids or 'none'}, ...); check that the run "
            "and the golden set use the same query ids"
        )
    if not judged:
        raise InputValueError("the judgments hold no query to evaluate")
    return result
