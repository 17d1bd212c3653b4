"""Evaluation in parts: a run given as batches of whole queries, in bounded memory.

Every metric of a query depends on that query's rows and judgments alone, so a run can
be evaluated a batch of whole queries at a time and the per-query values put together:
:func:`evaluate_batches` gives the :class:`~ragmetrics.Evaluation` that
:func:`~ragmetrics.evaluate` gives for all the rows at once, value for value (the same
arithmetic on the same rows, in the same order; ``tests/unit/evaluation/test_streaming.py``). Memory is
that of one batch plus one row of numbers per query. Each batch is scored against the
judgments of its own queries; the judged queries no batch holds get what a missing query
gets (0 under ``missing_from_run="zero"``), from one evaluation of the judgments alone,
which also gives the order of the rows.

A query whose rows come in two batches (a run not grouped by query) cannot be scored in
parts: :class:`NotGroupedError` names it, and the caller evaluates in memory instead
(the ``ragmetrics`` command says so and does). :mod:`ragmetrics.evaluation.on_dask`
puts the partitions of a Dask DataFrame together the same way (:class:`PartCombiner`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import (
    CoverageWarning,
    EmptyRelevantWarning,
    InputValueError,
    NoRelevantRetrievedWarning,
    RagmetricsWarning,
    RankOrderWarning,
)
from ..metrics.ranked import ranks_within
from ..metrics.registry import parse_metrics
from .arrow_inputs import as_frame
from .engine import judge_queries, read_depth
from .in_memory import evaluate_in_memory
from .inputs import qrels_columns
from .parts import RunInParts
from .result import Evaluation, summarize, warn_coverage, warn_nothing_retrieved

__all__ = ["NotGroupedError", "PartCombiner", "QrelsByQuery", "evaluate_batches",
           "evaluate_run_in_parts"]


class NotGroupedError(InputValueError):
    """A query's rows come in two batches: the run is not grouped by query."""

    def __init__(self, query_id) -> None:
        self.query_id = query_id
        super().__init__(
            f"query {query_id!r} has rows in two parts of the run, apart from each other: "
            "the run is not grouped by query, so it cannot be evaluated in parts"
        )


class QrelsByQuery:
    """The judgments, findable by query: the rows of any set of queries, in file order."""

    def __init__(self, qrels: pd.DataFrame) -> None:
        self.qrels = qrels
        codes, uniques = pd.factorize(qrels["query_id"])
        self.order = np.argsort(codes, kind="stable")
        self.bounds = np.searchsorted(codes[self.order], np.arange(len(uniques) + 1))
        self.index = pd.Index(uniques)

    def of(self, query_ids) -> pd.DataFrame:
        """The judgments of ``query_ids`` (at least one row, so that the kinds of the ids
        are still compared with the run's)."""
        found = self.index.get_indexer(pd.Index(query_ids))
        found = found[found >= 0]
        starts, ends = self.bounds[found], self.bounds[found + 1]
        lengths = ends - starts
        rows = np.sort(self.order[np.repeat(starts, lengths) + ranks_within(lengths)])
        if not len(rows) and len(self.qrels):
            rows = np.zeros(1, np.int64)  # a judged query not in the batch: left out there
        return self.qrels.iloc[rows]


class PartCombiner:
    """The evaluation of a run from the evaluations of its parts (each of whole queries).

    ``base`` is the evaluation of the judgments with no run (every judged query missing,
    ``missing_from_run="zero"``): its rows give the order and what a missing query gets.
    Each part is evaluated with ``missing_from_run="skip"`` (its own queries only).
    """

    def __init__(self, base: Evaluation, conventions: Conventions, qrels, specs) -> None:
        self.base, self.conventions = base, conventions
        self.parts: list[pd.DataFrame] = []
        self.unjudged: dict = {}
        self.seen: set = set()
        self.without_relevant = set(base.queries_without_relevant)
        self.answered = 0  # queries with a relevant doc that the run answers
        self.silent_answered = 0  # of those, in parts that retrieved no relevant doc
        self.rank_warnings: list[str] = []
        self._qrels, self._specs = qrels, specs

    def add(self, part: Evaluation, caught: Iterable = ()) -> None:
        """Take in one part's evaluation and the warnings it raised."""
        judged = part.per_query.index.tolist()
        for query in (*judged, *part.queries_missing_from_qrels):
            if query in self.seen:
                raise NotGroupedError(query)
        self.seen.update(judged)
        self.seen.update(part.queries_missing_from_qrels)
        self.parts.append(part.per_query)
        self.unjudged.update(dict.fromkeys(part.queries_missing_from_qrels))
        answered = sum(query not in self.without_relevant for query in judged)
        self.answered += answered
        for warning in caught:
            if issubclass(warning.category, NoRelevantRetrievedWarning):
                self.silent_answered += answered
            elif issubclass(warning.category, RankOrderWarning):
                self.rank_warnings.append(str(warning.message))
            elif not issubclass(warning.category, (CoverageWarning, EmptyRelevantWarning)):
                warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                       warning.lineno)

    def result(self) -> Evaluation:
        """The evaluation of all the parts, with the warnings :func:`evaluate` gives."""
        base = self.base
        per_query = base.per_query.copy()
        if self.parts:
            values = pd.concat(self.parts)
            rows = per_query.index.get_indexer(values.index)
            per_query.iloc[rows] = values.to_numpy()
        seen = np.zeros(len(per_query), dtype=bool)
        if self.parts:
            seen[rows] = True
        if self.conventions.missing_from_run == "skip":
            per_query = per_query.iloc[np.flatnonzero(seen)]
        missing = tuple(q for q in base.queries_missing_from_run if q not in self.seen)
        result = Evaluation(
            per_query=per_query,
            summary=summarize(per_query, self._specs),
            conventions=self.conventions,
            queries_missing_from_run=missing,
            queries_missing_from_qrels=tuple(self.unjudged),
            queries_without_relevant=base.queries_without_relevant,
        )
        warn_coverage(result)
        self._warn_rank_order()
        if self.answered and self.silent_answered == self.answered:
            judged = judge_queries(qrels_columns(self._qrels), self.conventions.relevance_level)
            warn_nothing_retrieved(self.answered, read_depth(self._specs, judged.num_relevant))
        return result

    def _warn_rank_order(self) -> None:
        """One warning, as for the run in memory: the queries of every part counted, the
        first part's example shown (parts hold whole queries in run order)."""
        if not self.rank_warnings:
            return
        counted = [_RANK_COUNT.search(message) for message in self.rank_warnings]
        message = self.rank_warnings[0]
        if all(counted):
            n = sum(int(found.group(1)) for found in counted)
            message = _RANK_COUNT.sub(
                f"disagrees with its scores on {n} {'query' if n == 1 else 'queries'}",
                message, count=1)
        warnings.warn(message, RankOrderWarning, stacklevel=4)


#: The count of queries in a RankOrderWarning (ragmetrics.evaluation.inputs).
_RANK_COUNT = re.compile(r"disagrees with its scores on (\d+) quer(?:y|ies)")


def evaluate_batches(
    batches: Iterable,
    qrels,
    metrics=("recall@10", "precision@10", "mrr", "ndcg@10"),
    *,
    progress: Callable[[object], object] | None = None,
    **conventions,
) -> Evaluation:
    """:func:`~ragmetrics.evaluate` of a run given as batches of whole queries.

    Parameters
    ----------
    batches : iterable
        Parts of the run, each in any shape :func:`~ragmetrics.evaluate` takes (a frame,
        an Arrow or Polars table, a mapping), each holding all the rows of its queries.
    qrels, metrics
        As in :func:`~ragmetrics.evaluate`.
    progress : callable, optional
        Called with each batch once it is evaluated.
    **conventions
        The conventions of :func:`~ragmetrics.evaluate` (:mod:`ragmetrics.conventions`).

    Returns
    -------
    Evaluation
        The same as ``evaluate`` of all the batches' rows at once.

    Raises
    ------
    NotGroupedError
        When a query has rows in two batches.

    Examples
    --------
    >>> qrels = {"q1": {"a"}, "q2": {"b"}}
    >>> parts = [{"q1": ["x", "a"]}, {"q2": ["b"]}]
    >>> result = evaluate_batches(parts, qrels, ["recall@1", "mrr"])
    >>> result.per_query  # doctest: +NORMALIZE_WHITESPACE
              recall@1  mrr
    query_id
    q1             0.0  0.5
    q2             1.0  1.0
    >>> evaluate_batches([{"q1": ["x"]}, {"q2": ["b"]}, {"q1": ["a"]}], qrels)
    Traceback (most recent call last):
    ...
    ragmetrics.evaluation.streaming.NotGroupedError: query 'q1' has rows in two parts of the run, apart from each other: the run is not grouped by query, so it cannot be evaluated in parts
    """
    policy = Conventions(**conventions)
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    specs = parse_metrics(names)
    qrels = as_frame(qrels)
    as_missing = {**policy.as_dict(), "missing_from_run": "zero"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RagmetricsWarning)
        base = evaluate_in_memory({}, qrels, names, Conventions(**as_missing))
    for warning in caught:  # the judgments' own warnings, as evaluate gives them
        if issubclass(warning.category, EmptyRelevantWarning):
            warnings.warn(warning.message, warning.category, stacklevel=2)
    by_query = QrelsByQuery(qrels) if isinstance(qrels, pd.DataFrame) else None
    combiner = PartCombiner(base, policy, qrels, specs)
    as_part = {**policy.as_dict(), "missing_from_run": "skip"}
    for batch in batches:
        frame = as_frame(batch)
        judgments = qrels
        if by_query is not None and isinstance(frame, pd.DataFrame) and "query_id" in frame:
            judgments = by_query.of(pd.unique(frame["query_id"]))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RagmetricsWarning)
            part = evaluate_in_memory(frame, judgments, names, Conventions(**as_part))
        combiner.add(part, caught)
        if progress is not None:
            progress(batch)
    return combiner.result()


def evaluate_run_in_parts(run: RunInParts, qrels, metrics: list,
                          conventions: Conventions) -> Evaluation:
    """:func:`evaluate_batches` of ``run.parts()``; if its queries are not grouped, and
    ``run.whole`` says how to read it at once, :func:`~ragmetrics.evaluate` of that."""
    try:
        return evaluate_batches(run.parts(), qrels, metrics, **conventions.as_dict())
    except NotGroupedError as error:
        if run.whole is None:
            raise
        if run.on_fallback is not None:
            run.on_fallback(error)
        return evaluate_in_memory(run.whole(), qrels, metrics, conventions)
