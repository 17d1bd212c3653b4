"""Step 1 of :func:`~ragmetrics.comparison.compare`: every option checked once, at the boundary.

:func:`comparison_options` reads the call's arguments into one
:class:`ComparisonOptions`: the systems in order (the baseline first), the metrics
parsed, the evidence part of the call (:func:`ragmetrics.spans.judging.span_comparison`),
the conventions settled under the preset, and the levels, resamples, seed, correction,
progress and jobs checked. An error names the argument and its bad value before any run
is scored; the steps after it trust what it holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import InputTypeError, InputValueError
from ..metrics.registry import MetricSpec, parse_metric
from ..presets import settle_conventions
from ..spans.judging import SpanComparison, SpanJudgments, span_comparison
from ..spans.names import default_span_metrics, parse_metric_names
from ..stats.arguments import (
    check_alpha,
    check_confidence,
    check_positive_int,
    check_progress,
    check_seed,
)
from ..stats.corrections import check_correction
from ..stats.verdicts import MAX_RESAMPLES_FACTOR
from .factorial import check_factors
from .no_answer import NoAnswerOptions, check_no_answer
from .pairwise import check_pairs
from .segments import check_segment_weights, check_segments
from .shown_texts import shown_texts

__all__ = ["DEFAULT_CUTOFFS", "DEFAULT_TIE_TOLERANCE", "ComparisonOptions", "check_systems",
           "check_tie_tolerance", "chosen_metrics", "chosen_primary", "comparison_options",
           "default_metrics"]

#: The cut-offs of the default metrics.
DEFAULT_CUTOFFS = (5, 10, 20)

#: How far the order of tied docs may move a mean before :func:`ragmetrics.compare`
#: warns: a tenth of a point (:mod:`~ragmetrics.comparison.tie_sizes`).
DEFAULT_TIE_TOLERANCE = 0.001


def check_tie_tolerance(tolerance) -> float | None:
    """``tie_tolerance`` of :func:`ragmetrics.compare`: a finite number >= 0, or None.

    Examples
    --------
    >>> check_tie_tolerance(0), check_tie_tolerance(None)
    (0.0, None)
    >>> check_tie_tolerance(-0.1)
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: tie_tolerance must be a finite number >= 0 (or None: \
do not measure the ties), got -0.1
    """
    if tolerance is None:
        return None
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float, np.number)):
        raise InputTypeError(f"tie_tolerance must be a number or None, got {tolerance!r}")
    if not math.isfinite(tolerance) or tolerance < 0:
        raise InputValueError("tie_tolerance must be a finite number >= 0 (or None: do not "
                              f"measure the ties), got {tolerance!r}")
    return float(tolerance)


def default_metrics(cutoffs: Sequence[int] = DEFAULT_CUTOFFS) -> list[str]:
    """The four metric families of the article, each at every cut-off (MRR has none).

    Examples
    --------
    >>> default_metrics((5, 10))
    ['recall@5', 'recall@10', 'precision@5', 'precision@10', 'mrr', 'ndcg@5', 'ndcg@10']
    """
    if isinstance(cutoffs, (str, bytes)) or not isinstance(cutoffs, Sequence) or not cutoffs:
        raise InputTypeError(f"cutoffs must be a non-empty sequence of ints, got {cutoffs!r}")
    ks = [check_positive_int(k, "each cut-off") for k in cutoffs]
    if len(set(ks)) != len(ks):
        raise InputValueError(f"cutoffs repeat a value: {list(cutoffs)!r}")
    return (
        [f"recall@{k}" for k in ks]
        + [f"precision@{k}" for k in ks]
        + ["mrr"]
        + [f"ndcg@{k}" for k in ks]
    )


def check_systems(systems, baseline: str | None = None) -> dict:
    """``{name: run}`` as a dict, ``baseline`` first (by default the first system).

    Examples
    --------
    >>> list(check_systems({"bm25": {}, "dense": {}}, baseline="dense"))
    ['dense', 'bm25']
    """
    if not isinstance(systems, Mapping):
        raise InputTypeError(
            "systems must be a mapping {name: run}, e.g. {'bm25': run_a, 'dense': run_b}; "
            f"got {type(systems).__name__}"
        )
    if not systems:
        raise InputValueError("systems is empty: give at least one {name: run}")
    for name in systems:
        if not isinstance(name, str) or not name.strip():
            raise InputTypeError(f"each system name must be a non-empty str, got {name!r}")
    names = list(systems)
    if baseline is None:
        baseline = names[0]
    elif baseline not in systems:
        raise InputValueError(f"baseline {baseline!r} is not one of the systems {names}")
    return {name: systems[name] for name in [baseline, *(s for s in names if s != baseline)]}


def chosen_metrics(metrics, spans: SpanComparison | None) -> list[str]:
    """The metric names asked for, or the default ones: :func:`default_metrics`, or with
    evidence spans :func:`ragmetrics.spans.names.default_span_metrics`."""
    if metrics is None:
        return default_metrics() if spans is None else default_span_metrics()
    return [metrics] if isinstance(metrics, str) else list(metrics)


def chosen_primary(primary, metrics: Sequence[str]) -> str:
    """The metric the verdict is about: ``primary`` as it is named in ``metrics`` (any
    spelling of the same metric: ``"mrr"`` is ``"rr"``), by default ``"ndcg@10"`` if
    compared, else the first metric.

    Examples
    --------
    >>> chosen_primary(None, ["mrr", "ndcg@10"]), chosen_primary(None, ["mrr", "recall@5"])
    ('ndcg@10', 'mrr')
    >>> chosen_primary("rr", ["recall@5", "mrr"])
    'mrr'
    """
    names = list(metrics)
    if primary is None:
        return "ndcg@10" if "ndcg@10" in names else names[0]
    if not isinstance(primary, str):
        raise InputTypeError(f"primary must be a metric name (str), got {primary!r}")
    wanted = parse_metric(primary)
    for name in names:
        if parse_metric(name) == wanted:
            return name
    raise InputValueError(f"primary {primary!r} is not one of the metrics compared {names}")


@dataclass(frozen=True)
class ComparisonOptions:
    """The options of one :func:`~ragmetrics.comparison.compare` call, checked.

    ``systems`` holds the runs in order, the baseline first; ``metrics`` the names as
    asked and ``specs`` each parsed (its bounds, and whether higher is better); ``spans``
    the evidence part of the call, or None for qrels of chunk ids. The rest are the
    arguments of :func:`~ragmetrics.comparison.compare`, checked.
    """

    systems: dict
    metrics: tuple[str, ...]
    specs: tuple[MetricSpec, ...]
    spans: SpanComparison | None
    conventions: Conventions
    preset: str | None
    alpha: float
    confidence: float
    n_resamples: int
    max_resamples: int
    seed: int
    correction: str
    progress: Callable[[int, int], object] | None
    jobs: int
    primary: str = ""
    query_texts: dict | None = None
    document_texts: dict | None = None
    tie_tolerance: float | None = DEFAULT_TIE_TOLERANCE
    pairs: str = "baseline"
    segments: pd.Series | None = None
    segment_weights: str = "query"
    factors: dict | None = None
    no_answer: NoAnswerOptions = field(default_factory=NoAnswerOptions)

    @property
    def names(self) -> tuple[str, ...]:
        """The systems' names, the baseline first."""
        return tuple(self.systems)

    @property
    def baseline(self) -> str:
        return self.names[0]


def comparison_options(systems, qrels, metrics, *, chunks, evidence, documents, baseline,
                       alpha, confidence, n_resamples, max_resamples, seed, correction,
                       progress, jobs, preset, conventions: Mapping, primary=None,
                       queries=None, tie_tolerance=DEFAULT_TIE_TOLERANCE, pairs="baseline",
                       segments=None, segment_weights="query",
                       factors=None, max_false_answer_rate=None, tune_queries=None,
                       answerable=None) -> ComparisonOptions:
    """Check every argument of :func:`~ragmetrics.comparison.compare` (``conventions``: its
    ``**conventions`` keywords), in the order of its signature.

    Examples
    --------
    >>> options = comparison_options(
    ...     {"old": {"q1": ["a"]}, "new": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"],
    ...     chunks=None, evidence=None, documents=None, baseline="new", alpha=0.05,
    ...     confidence=0.95, n_resamples=1000, max_resamples=None, seed=0,
    ...     correction="holm", progress=None, jobs=1, preset=None, conventions={})
    >>> options.names, options.max_resamples
    (('new', 'old'), 32000)
    """
    systems = check_systems(systems, baseline)
    # documents= serves the evidence spans when there are any; else it holds the texts of
    # the runs' ids, shown in the drill-downs (ragmetrics.comparison.shown_texts).
    by_spans = evidence is not None or isinstance(qrels, SpanJudgments)
    spans = span_comparison(list(systems), qrels, chunks=chunks, evidence=evidence,
                            documents=documents if by_spans else None)
    names = chosen_metrics(metrics, spans)
    specs = parse_metric_names(names)
    primary = chosen_primary(primary, names)
    questions, passages = shown_texts(queries, documents, spans=by_spans)
    alpha, confidence = check_alpha(alpha), check_confidence(confidence)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    if max_resamples is None:
        max_resamples = MAX_RESAMPLES_FACTOR * n_resamples
    max_resamples = check_positive_int(max_resamples, "max_resamples")
    if max_resamples < n_resamples:
        raise InputValueError(
            f"max_resamples ({max_resamples}) must be at least n_resamples ({n_resamples})"
        )
    seed = check_seed(seed)
    jobs = check_positive_int(jobs, "jobs")
    correction = check_correction(correction)
    if isinstance(progress, bool):  # True: a bar (a widget in a notebook)
        from ..progress import resampling_callback  # tqdm, imported when a bar is drawn

        progress = resampling_callback(progress)
    progress = check_progress(progress)
    tie_tolerance = check_tie_tolerance(tie_tolerance)
    pairs = check_pairs(pairs)
    segment_weights = check_segment_weights(segment_weights)
    segments = check_segments(segments)
    factors = check_factors(factors, list(systems))
    no_answer = check_no_answer(max_false_answer_rate, tune_queries, answerable,
                                spans=by_spans)
    return ComparisonOptions(
        no_answer=no_answer,
        pairs=pairs, segments=segments, segment_weights=segment_weights, factors=factors,
        systems=systems, metrics=tuple(names), specs=tuple(specs), spans=spans,
        conventions=settle_conventions("compare", preset, conventions), preset=preset,
        alpha=alpha, confidence=confidence, n_resamples=n_resamples,
        max_resamples=max_resamples, seed=seed, correction=correction, progress=progress,
        jobs=jobs, primary=primary, query_texts=questions, document_texts=passages,
        tie_tolerance=tie_tolerance)
