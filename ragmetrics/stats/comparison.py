"""Compare retrieval systems on the same queries: means, intervals, paired tests, verdicts.

:func:`compare` evaluates every system with :func:`ragmetrics.evaluate` on the same
judged queries, then, for every metric:

- each system's mean with a bootstrap interval (:func:`ragmetrics.stats.bootstrap_interval`:
  Student's t, widened where the bootstrap means reach further; within the metric's range);
- each system against the baseline: the mean difference with a paired bootstrap
  interval, the paired randomization test (with its Monte Carlo error) and the paired
  t-test, the effect size d_z and the wins/ties/losses, and a p-value corrected for the
  number of claims (every metric x every pair), from which a verdict follows
  (:func:`ragmetrics.stats.randomization_verdicts`: a verdict within Monte Carlo error of
  ``alpha`` is resampled further, or called undecided).

Two levels, kept apart: ``alpha``, the significance level of the verdicts, and
``confidence``, the level of the intervals. The difference intervals are at the level
of the correction, so that they agree with the verdicts (see :func:`compare`).

All systems and metrics share one bootstrap pass: one matrix of resampled query counts
times one matrix of per-query values. The numbers are those of the single-metric
functions of :mod:`ragmetrics.stats` with the same seed.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..conventions import Conventions, parameters_doc
from ..errors import (
    BudgetWarning,
    CoverageWarning,
    EmptyRelevantWarning,
    FormatError,
    InputError,
    InputTypeError,
    InputValueError,
    NoRelevantChunkWarning,
    NoRelevantRetrievedWarning,
    RagmetricsWarning,
    RankOrderWarning,
)
from ..evaluation import Evaluation, check_judgments, evaluate
from ..evaluation.in_parallel import map_in_workers
from ..presets import preset_conventions
from ..spans.judging import span_comparison
from ..spans.names import default_span_metrics, parse_metric_names
from .arguments import (
    check_alpha,
    check_confidence,
    check_positive_int,
    check_progress,
    check_seed,
    sample_size_warnings,
)
from .corrections import CORRECTIONS, check_correction
from .effect_size import paired_effect_size
from .intervals import bootstrap_interval
from .power import DEFAULT_POWER, power_table
from .resampling import bootstrap_means, finite_column_groups
from .rounding import paired_differences
from .t_test import paired_t_test
from .verdicts import MAX_RESAMPLES_FACTOR, randomization_verdicts

__all__ = ["CORRECTIONS", "DEFAULT_CUTOFFS", "UNDECIDED", "Comparison", "compare",
           "default_metrics", "evaluate_systems"]

#: The cut-offs of the default metrics.
DEFAULT_CUTOFFS = (5, 10, 20)

#: The verdict of a claim whose corrected p-value stayed within Monte Carlo error of
#: ``alpha`` up to the resampling cap (:func:`ragmetrics.stats.randomization_verdicts`).
UNDECIDED = "undecided: p within Monte Carlo error of alpha"


#: The article's "common mistake": one metric reported alone.
ONE_METRIC_NOTE = (
    "one metric alone can mislead: the source article's \"common mistake\" is reporting a "
    "single metric (\"our RAG has 0.92 nDCG\") without Recall or Precision, which hides "
    "high nDCG with low recall, high recall with low precision, and high precision with "
    "low recall; compare recall, precision, MRR and nDCG together"
)


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


@dataclass(frozen=True, eq=False)
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    summary : pandas.DataFrame
        Index (``metric``, ``system``); columns ``mean``, ``low``, ``high`` (the bootstrap
        interval at level ``confidence``) and ``n_queries`` (queries with a value).
    tests : pandas.DataFrame
        Index (``metric``, ``system``), one row per metric and non-baseline system;
        columns ``baseline``, ``baseline_mean``, ``mean``, ``difference`` (system minus
        baseline) with its paired bootstrap interval ``low``, ``high`` (at level
        ``difference_confidence``, see :func:`compare`); ``p_randomization`` with its
        Monte Carlo standard error ``p_mc_error`` (0 when exact); ``p_adjusted`` (the
        randomization p corrected over all rows); ``significant`` (decided,
        ``p_adjusted`` below ``alpha`` and a non-zero difference); ``decided`` (False when
        the verdict stayed within Monte Carlo error of ``alpha``); ``verdict``
        ("<system> better", "no significant difference" or :data:`UNDECIDED`);
        ``exact`` and ``n_patterns`` (the sign patterns behind the p-value); ``p_t_test``
        with ``t`` and ``df``; ``effect_size``, the paired standardized difference d_z
        (:class:`ragmetrics.stats.EffectSize`; NaN where every query differs by the same
        non-zero amount, which the warnings name); ``wins``, ``ties``, ``losses`` (queries
        where the system is above, equal to, below the baseline) and ``n_queries``.
    per_query : dict of str to pandas.DataFrame
        Each system's per-query values, all on the same query index.
    warnings : tuple of str
        What the numbers need to be read with: too few queries, one metric alone,
        queries missing from a run, intervals of no width (a mean or a difference that
        is the same on every query: no spread to resample), a configuration that cannot
        reach significance, an interval that disagrees with its verdict.
    conventions : Conventions
        The policies every system was evaluated under.
    systems : tuple of str
        The systems, baseline first.
    baseline : str
    metrics : tuple of str
    confidence : float
        The level of each system's mean interval.
    n_resamples, seed : int
    correction : str
    alpha : float
        The significance level of the verdicts, after the correction.
    difference_confidence : float
        The level of each difference interval (the family level of the correction).
    max_resamples : int
        The most sign patterns a claim near ``alpha`` could get.
    interval_method : str
        One of :data:`ragmetrics.stats.INTERVAL_METHODS`.
    evaluations : dict of str to Evaluation
        The raw result of :func:`ragmetrics.evaluate` for each system.
    runs : dict of str to run or None
        The runs as given (not copied), for the drill-downs that show a query's
        rankings (:class:`ragmetrics.widgets.ComparisonExplorer`, the HTML report); None
        for runs judged by evidence spans.
    qrels : DataFrame or mapping or None
        The judgments as given; None for evidence spans.
    spans : dict of str to str or None
        For runs judged by evidence spans: the judgments, each system's chunking and the
        rules, in words (rows of the report's convention card); None otherwise.
    preset : str or None
        The preset named (:data:`ragmetrics.presets.PRESETS`), shown on the card.

    ``print(comparison)`` shows it as text; :meth:`to_markdown` and :meth:`to_html` give
    the full report (:mod:`ragmetrics.reports`).
    """

    summary: pd.DataFrame
    tests: pd.DataFrame
    per_query: dict
    warnings: tuple[str, ...]
    conventions: Conventions
    systems: tuple[str, ...]
    baseline: str
    metrics: tuple[str, ...]
    confidence: float
    n_resamples: int
    seed: int
    correction: str
    alpha: float
    difference_confidence: float
    max_resamples: int
    interval_method: str
    evaluations: dict
    runs: dict = field(default=None, repr=False)
    qrels: object = field(default=None, repr=False)
    spans: dict | None = None
    preset: str | None = None

    @property
    def n_queries(self) -> int:
        """The number of queries compared (the rows of each ``per_query`` frame)."""
        return len(self.per_query[self.baseline])

    # The renderers live in the reports layer (ragmetrics.reports), which imports this
    # module: each method below imports it when called, so the dependency runs one way,
    # reports -> stats, and `import ragmetrics.stats` loads no renderer (nor matplotlib).

    def __repr__(self) -> str:
        return self.to_text()

    def to_text(self) -> str:
        """The comparison as plain text, for a terminal: what ``print(comparison)`` shows.

        Means with their intervals, each system against the baseline, the warnings and
        the conventions (:func:`ragmetrics.reports.to_text`).
        """
        from ..reports.text_report import to_text

        return to_text(self)

    def to_markdown(self, *, title: str = "Retrieval evaluation") -> str:
        """The full report as Markdown: warnings, means, each system against the baseline,
        drill-downs and the convention card (:func:`ragmetrics.reports.to_markdown`).

        Examples
        --------
        >>> result = compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"], n_resamples=50)
        >>> result.to_markdown(title="BM25").splitlines()[0]
        '# BM25'
        """
        from ..reports.markdown_report import to_markdown

        return to_markdown(self, title=title)

    def to_html(self, *, title: str = "Retrieval evaluation", figures: bool = True) -> str:
        """The full report as one self-contained HTML page: figures inline, no script, no
        external URL (:func:`ragmetrics.reports.to_html`). Drawing the figures imports
        matplotlib; ``figures=False`` leaves them out.

        Examples
        --------
        >>> result = compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"], n_resamples=50)
        >>> page = result.to_html(figures=False)
        >>> page.startswith("<!DOCTYPE html>"), "<script" in page
        (True, False)
        """
        from ..reports.html_report import to_html

        return to_html(self, title=title, figures=figures)

    def _check_metric(self, metric) -> str:
        if metric not in self.metrics:
            raise InputValueError(
                f"metric {metric!r} is not in this comparison; it has {list(self.metrics)}"
            )
        return metric

    def _check_system(self, system, name: str = "system") -> str:
        if system not in self.systems:
            raise InputValueError(
                f"{name} {system!r} is not in this comparison; it has {list(self.systems)}"
            )
        return system

    def queries_that_differ_most(self, metric: str, n: int = 10, *, system: str | None = None):
        """The queries where ``system`` and the baseline differ most on ``metric``.

        The first place to look when a mean moves: is it a few queries or all of them?

        Parameters
        ----------
        metric : str
            One of :attr:`metrics`.
        n : int, default 10
        system : str, optional
            The system compared with the baseline; by default the first other system.

        Returns
        -------
        pandas.DataFrame
            Index ``query_id``; columns: the baseline's value, the system's value and
            ``difference`` (system minus baseline); sorted by the size of the difference,
            largest first (ties in query order).

        Examples
        --------
        >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}}
        >>> old = {"q1": ["a"], "q2": ["x", "b"], "q3": ["x", "y", "c"]}
        >>> new = {"q1": ["a"], "q2": ["b"], "q3": ["c"]}
        >>> result = compare({"old": old, "new": new}, qrels, ["mrr"], n_resamples=100)
        >>> result.queries_that_differ_most("mrr", n=2)  # doctest: +NORMALIZE_WHITESPACE
                       old  new  difference
        query_id
        q3        0.333333  1.0    0.666667
        q2        0.500000  1.0    0.500000
        """
        metric = self._check_metric(metric)
        n = check_positive_int(n, "n")
        if system is None:
            if len(self.systems) < 2:
                raise InputValueError(
                    "queries_that_differ_most needs two systems; this comparison has one"
                )
            system = self.systems[1]
        system = self._check_system(system)
        if system == self.baseline:
            raise InputValueError(f"system {system!r} is the baseline; name another system")
        frame = pd.DataFrame(
            {
                self.baseline: self.per_query[self.baseline][metric],
                system: self.per_query[system][metric],
            }
        )
        frame["difference"] = frame[system] - frame[self.baseline]
        frame = frame.dropna()
        order = np.argsort(-frame["difference"].abs().to_numpy(), kind="stable")
        return frame.iloc[order[:n]]

    def power(self, *, target: float = 0.02, power: float = DEFAULT_POWER,
              alpha: float | None = None):
        """How large a difference these queries could detect, and how many a ``target`` needs.

        From the spread of each system's paired differences with the baseline
        (:mod:`ragmetrics.stats.power`): the minimum detectable effect at the queries
        compared, and the queries needed to find a true difference of ``target`` (in the
        metric's units: 0.02 is two points) with probability ``power``, by the two-sided
        paired test at ``alpha``.

        Parameters
        ----------
        target : float, default 0.02
        power : float, default 0.8
        alpha : float, optional
            By default the comparison's ``alpha``, per claim: before the correction over
            the claims (pass ``alpha / m`` for the strictest step of Holm's).

        Returns
        -------
        pandas.DataFrame
            Index (``metric``, ``system``); columns ``n_queries``, ``difference``,
            ``sd_difference``, ``mde``, ``target``, ``queries_needed``, ``alpha``, ``power``.

        Examples
        --------
        >>> qrels = {f"q{i}": {"gold"} for i in range(40)}
        >>> old = {f"q{i}": ["junk", "gold"] for i in range(40)}
        >>> new = {f"q{i}": ["gold"] if i % 3 else ["x", "y", "gold"] for i in range(40)}
        >>> result = compare({"old": old, "new": new}, qrels, ["mrr"], n_resamples=200)
        >>> table = result.power(target=0.05)
        >>> table[["n_queries", "sd_difference", "mde", "queries_needed"]].round(4)
        ...  # doctest: +NORMALIZE_WHITESPACE
                       n_queries  sd_difference     mde  queries_needed
        metric system
        mrr    new            40          0.322  0.1463             328

        (26 queries gain 0.5, 14 lose 1/6: a spread of 0.322, so these 40 queries see
        0.15 or more, and 0.05 needs 328.)
        """
        alpha = self.alpha if alpha is None else check_alpha(alpha)
        return power_table(self.per_query, self.systems, self.metrics, target=target,
                           alpha=alpha, power=power)

    def worst_queries(self, system: str, metric: str, n: int = 10):
        """The ``n`` queries where ``system`` scores lowest on ``metric``.

        Returns
        -------
        pandas.DataFrame
            Index ``query_id``; one column per system, ``system`` first, sorted by its
            value, lowest first (ties in query order).

        Examples
        --------
        >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}}
        >>> run = {"q1": ["a"], "q2": ["x", "b"], "q3": ["x", "y", "c"]}
        >>> result = compare({"bm25": run}, qrels, ["mrr"], n_resamples=100)
        >>> result.worst_queries("bm25", "mrr", n=2)  # doctest: +NORMALIZE_WHITESPACE
                      bm25
        query_id
        q3        0.333333
        q2        0.500000
        """
        system = self._check_system(system)
        metric = self._check_metric(metric)
        n = check_positive_int(n, "n")
        names = [system] + [s for s in self.systems if s != system]
        frame = pd.DataFrame({s: self.per_query[s][metric] for s in names})
        frame = frame[frame[system].notna()]
        order = np.argsort(frame[system].to_numpy(), kind="stable")
        return frame.iloc[order[:n]]


def compare(
    systems: Mapping,
    qrels=None,
    metrics: Sequence[str] | None = None,
    *,
    chunks=None,
    evidence=None,
    documents=None,
    baseline: str | None = None,
    alpha: float = 0.05,
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    max_resamples: int | None = None,
    seed: int = 0,
    correction: str = "holm",
    progress: bool | Callable[[int, int], object] | None = None,
    jobs: int = 1,
    relevance_level: float = 1,
    gain: str = "linear",
    ties: str = "trec_eval",
    duplicates: str = "error",
    empty_relevant: str = "zero",
    missing_from_run: str = "zero",
    unjudged: str = "nonrelevant",
    max_retrieved: int | None = None,
    order_by: str = "score",
    score_precision: str = "float64",
    query_id_docs: str = "keep",
    ap_denominator: str = "num_relevant",
    ideal_order: str = "sorted",
    preset: str | None = None,
) -> Comparison:
    """Compare systems on the same queries, with intervals, paired tests and verdicts.

    Parameters
    ----------
    systems : mapping of str to run
        ``{name: run}``, each run in any shape :func:`ragmetrics.evaluate` accepts.
        One system gives means and intervals only.
    qrels : DataFrame, mapping or SpanJudgments
        The judgments, as in :func:`ragmetrics.evaluate`. Every judged query is compared;
        a query missing from a run scores 0 there (``missing_from_run="zero"``).
    metrics : sequence of str, optional
        Default: :func:`default_metrics`, recall, precision and nDCG at 5, 10 and 20, and
        MRR; with evidence, span recall, precision and IoU at 5, 10 and 20
        (:func:`ragmetrics.spans.names.default_span_metrics`). A single family (e.g. only
        nDCG) adds the article's "common mistake" note to the warnings.
    chunks : chunking or mapping of str to chunking, optional
        With evidence spans: the chunking the runs retrieve from, one for all systems or
        ``{system: chunking}`` when each has its own (a comparison of chunkings).
    evidence, documents : optional
        Evidence spans instead of ``qrels`` (``qrels=SpanJudgments(evidence,
        documents=documents)``): every system is scored on the evidence's queries, the
        span metrics on the text it retrieved, the id-based ones with its chunks judged
        by the rule (:mod:`ragmetrics.spans.judging`).
    baseline : str, optional
        The system the others are tested against; by default the first.
    alpha : float, default 0.05
        The significance level of the verdicts: a claim is significant when its
        corrected randomization p-value is below ``alpha``.
    confidence : float, default 0.95
        The level of the intervals. Each system's mean interval is at ``confidence``.
        The difference intervals sit beside corrected verdicts, so they are at the level
        of the correction over the ``m`` claims: ``1 - (1 - confidence) / m`` each for
        ``"holm"`` (Bonferroni: all ``m`` intervals together cover with probability
        ``confidence``), ``1 - R (1 - confidence) / m`` for ``"bh"`` with ``R`` claims
        found significant (at least 1; Benjamini & Yekutieli's false coverage rate,
        JASA 2005), ``confidence`` for ``"none"``. With ``alpha = 1 - confidence`` an
        interval then excludes 0 where its verdict is significant, but for the rows where
        the two procedures differ near the threshold (those are named in the warnings).
    n_resamples : int, default 10_000
        Bootstrap resamples, and sign patterns of the randomization test (which is exact,
        all ``2**n`` patterns, up to :data:`ragmetrics.stats.EXACT_MAX_QUERIES` queries).
    max_resamples : int, optional
        The most sign patterns a claim within Monte Carlo error of ``alpha`` may get
        (:func:`ragmetrics.stats.randomization_verdicts`); default
        :data:`ragmetrics.stats.MAX_RESAMPLES_FACTOR` (32) x ``n_resamples``.
        Pass ``n_resamples`` to turn the extra resampling off.
    seed : int, default 0
    correction : {"holm", "bh", "none"}, default "holm"
        See :data:`ragmetrics.stats.CORRECTIONS`; applied to the randomization p-values of
        all rows of ``.tests``.
    progress : bool or callable(done, total), optional
        ``True``: a progress bar of the resampling (by ``tqdm.auto``: a widget in a
        notebook, text on standard error elsewhere). A callable is called as resampling
        advances; ``done`` reaches ``total`` at the end. ``total`` counts resamples over
        every pass (the bootstrap, then the randomization test), so it is a multiple of
        ``n_resamples``; it grows when an undecided claim is resampled further.
    jobs : int, default 1
        How many systems are evaluated at once, each in a worker process
        (:mod:`ragmetrics.evaluation.in_parallel`: from a fork server, on Linux and
        macOS; on Windows one after the other). Each system (and the judgments) must
        pickle. The values are the same for any ``jobs``; with many systems (a hundred
        TREC runs) ``jobs`` equal to the cores divides the time of evaluating them by up
        to the cores (``ragmetrics evaluate --jobs``). The resampling stays here.
{conventions}
        The conventions of :func:`ragmetrics.evaluate` (:mod:`ragmetrics.conventions`), the
        same for every system. Under a ``"skip"`` policy, each statistic uses the queries
        where its values exist.
    preset : str, optional
        Another tool's rules (``"trec_eval"``, ``"trec_eval_no_c"``, ``"beir"``,
        ``"msmarco"``, ``"ir_measures"``, ``"spark"``), as in :func:`ragmetrics.evaluate`;
        named on the report's convention card.

    Returns
    -------
    Comparison
        ``.summary``, ``.tests``, ``.per_query``, ``.warnings``, ``.conventions``, and the
        drill-downs ``.queries_that_differ_most(metric)`` and ``.worst_queries(system,
        metric)``.

    Examples
    --------
    Two systems, 30 queries with one relevant doc each; the new one finds it at rank 1
    on 20 queries where the old one had it at rank 2:

    >>> qrels = {f"q{i}": {"gold"} for i in range(30)}
    >>> old = {f"q{i}": ["junk", "gold"] for i in range(30)}
    >>> new = {f"q{i}": ["gold"] if i < 20 else ["junk", "gold"] for i in range(30)}
    >>> result = compare({"old": old, "new": new}, qrels, ["mrr", "recall@1"])
    >>> result.summary["mean"].round(4)
    metric    system
    mrr       old       0.5000
              new       0.8333
    recall@1  old       0.0000
              new       0.6667
    Name: mean, dtype: float64
    >>> tests = result.tests[["difference", "low", "p_adjusted", "verdict"]]
    >>> tests.round(4)  # doctest: +NORMALIZE_WHITESPACE
                     difference     low  p_adjusted     verdict
    metric   system
    mrr      new         0.3333  0.2299      0.0004  new better
    recall@1 new         0.6667  0.4597      0.0004  new better
    >>> result.difference_confidence        # 2 claims under Holm: 1 - 0.05 / 2 each
    0.975

    The old system scores the same on every query (MRR 0.5, recall@1 0): its intervals
    have no width, and the warnings say what that means:

    >>> for warning in result.warnings:  # doctest: +NORMALIZE_WHITESPACE
    ...     print(warning)
    no spread: every query has the same value on mrr (old), recall@1 (old), so their
    intervals have no width (resampling these queries cannot move the mean) and say
    nothing about queries unlike these
    """
    systems = _check_systems(systems)
    names = list(systems)
    if baseline is None:
        baseline = names[0]
    elif baseline not in systems:
        raise InputValueError(f"baseline {baseline!r} is not one of the systems {names}")
    names = [baseline] + [s for s in names if s != baseline]
    spans = span_comparison(names, qrels, chunks=chunks, evidence=evidence, documents=documents)
    metric_names = _metric_names(metrics, spans)
    specs = parse_metric_names(metric_names)
    alpha = check_alpha(alpha)
    confidence = check_confidence(confidence)
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
    conventions = Conventions(**preset_conventions(preset, {
        "relevance_level": relevance_level, "gain": gain, "ties": ties,
        "duplicates": duplicates, "empty_relevant": empty_relevant,
        "missing_from_run": missing_from_run, "unjudged": unjudged,
        "max_retrieved": max_retrieved, "order_by": order_by,
        "score_precision": score_precision, "query_id_docs": query_id_docs,
        "ap_denominator": ap_denominator, "ideal_order": ideal_order,
    }))
    evaluations, notes = _evaluate_all({name: systems[name] for name in names}, qrels,
                                       metric_names, spans, conventions, preset, jobs)
    per_query = _aligned(evaluations)
    n_queries = len(per_query[baseline])

    n_metrics = len(metric_names)
    values = np.column_stack([per_query[s].to_numpy(np.float64) for s in names])  # system-major
    pairs = names[1:]
    base = values[:, :n_metrics]
    differences = np.column_stack(
        [paired_differences(base, values[:, (i + 1) * n_metrics : (i + 2) * n_metrics])
         for i in range(len(pairs))]
    ) if pairs else np.empty((n_queries, 0))
    low_bound = np.array([spec.bounds[0] for spec in specs])
    high_bound = np.array([spec.bounds[1] for spec in specs])
    value_bounds = (np.tile(low_bound, len(names)), np.tile(high_bound, len(names)))
    spread = high_bound - low_bound
    difference_bounds = (np.tile(-spread, len(pairs)), np.tile(spread, len(pairs)))
    _check_computed_bounds(values, value_bounds, names, metric_names, per_query)

    _check_memory_for(n_resamples, values.shape[1] + differences.shape[1])
    tracker = _Progress(progress, n_resamples)
    value_means, difference_means = _bootstrap(values, differences, n_metrics, n_resamples,
                                               seed, tracker)
    summary = _summary(names, metric_names, values, value_means, confidence, value_bounds)
    decisions = randomization_verdicts(
        differences, alpha=alpha, correction=correction, n_resamples=n_resamples,
        max_resamples=max_resamples, seed=seed, progress=tracker.rest(),
    )
    level = _difference_level(decisions, confidence, correction)
    tests = _tests(names, metric_names, specs, per_query, differences, difference_means,
                   decisions, level, difference_bounds)

    counts = np.isfinite(values).sum(axis=0)
    smallest = int(counts.min()) if counts.size else 0
    found = list(sample_size_warnings(smallest))
    if len({spec.info.name for spec in specs}) == 1:
        found.append(ONE_METRIC_NOTE)
    found += notes
    found += _no_width_warnings(summary, tests)
    found += _reach_warnings(tests, decisions)
    found += _agreement_warnings(tests, alpha, confidence, correction, level)
    return Comparison(
        summary=summary,
        tests=tests,
        per_query=per_query,
        warnings=tuple(found),
        conventions=conventions,
        systems=tuple(names),
        baseline=baseline,
        metrics=tuple(metric_names),
        confidence=confidence,
        n_resamples=n_resamples,
        seed=seed,
        correction=correction,
        alpha=alpha,
        difference_confidence=level,
        max_resamples=max_resamples,
        interval_method="expanded_t",
        evaluations=evaluations,
        runs=systems if spans is None else None,  # rankings of chunk ids judged by spans:
        qrels=qrels if spans is None else None,   # not shown rank by rank (yet)
        spans=None if spans is None else spans.card(),
        preset=preset,
    )


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
    """Evaluate every system as :func:`compare` does, without its statistics: each
    system's :class:`~ragmetrics.Evaluation` and the notes a comparison would print.

    What ``ragmetrics evaluate --means-only`` prints, and the first step of
    :func:`compare`: the judgments checked once, each system evaluated (on ``jobs``
    worker processes), its warnings turned into notes that name it (the judgments'
    warnings said once).

    Parameters
    ----------
    systems, qrels, metrics, chunks, evidence, documents, jobs, preset
        As in :func:`compare`.
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
    systems = _check_systems(systems)
    spans = span_comparison(list(systems), qrels, chunks=chunks, evidence=evidence,
                            documents=documents)
    metric_names = _metric_names(metrics, spans)
    parse_metric_names(metric_names)
    conventions = Conventions() if conventions is None else conventions
    if not isinstance(conventions, Conventions):
        raise InputTypeError(f"conventions must be a Conventions, got {conventions!r}")
    jobs = check_positive_int(jobs, "jobs")
    return _evaluate_all(systems, qrels, metric_names, spans, conventions, preset, jobs)


# -- steps -------------------------------------------------------------------------------


def _metric_names(metrics, spans) -> list[str]:
    if metrics is None:
        return default_metrics() if spans is None else default_span_metrics()
    return [metrics] if isinstance(metrics, str) else list(metrics)


def _evaluate_all(systems: dict, qrels, metric_names, spans, conventions: Conventions,
                  preset, jobs: int) -> tuple[dict[str, Evaluation], tuple[str, ...]]:
    """Each system's evaluation, in order, and the notes (see :func:`evaluate_systems`)."""
    policies = conventions.as_dict() | {"preset": preset}
    if spans is None:
        check_judgments(qrels, metric_names, **policies)  # its errors once, not a system's
        judgments, chunkings = qrels, dict.fromkeys(systems)
    else:  # evidence: checked when read; each system's chunking checked already
        judgments, chunkings = spans.judgments, spans.chunks

    names = list(systems)
    items = [(name, systems[name], chunkings[name]) for name in names]
    evaluations, notes = {}, []
    for name, (evaluation, found) in zip(
            names, map_in_workers(_evaluate_item, items, jobs=jobs,
                                  shared=(judgments, metric_names, policies)), strict=True):
        evaluations[name] = evaluation
        notes += [note for note in found if note not in notes]  # the judgments' notes: once
    return evaluations, tuple(notes)


def _evaluate_item(judgments, metric_names, policies, item) -> tuple[Evaluation, list[str]]:
    """One system's evaluation and its notes, in this process or a worker's."""
    name, run, chunks = item
    found: list[str] = []
    return _evaluate(name, run, judgments, metric_names, policies, found, chunks=chunks), found


def _check_systems(systems) -> dict:
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
    return dict(systems)


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
        if issubclass(warning.category, EmptyRelevantWarning):
            if str(warning.message) not in notes:  # the judgments': the same for every run
                notes.append(str(warning.message))
        elif issubclass(warning.category, (RankOrderWarning, NoRelevantRetrievedWarning,
                                           NoRelevantChunkWarning, BudgetWarning)):
            notes.append(f"{name}: {warning.message}")
        elif not issubclass(warning.category, CoverageWarning):
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


def _aligned(evaluations: dict[str, Evaluation]) -> dict[str, pd.DataFrame]:
    """Every system's per-query frame on the same index (the union, in first-seen order)."""
    frames = list(evaluations.values())
    index = frames[0].per_query.index
    for ev in frames[1:]:
        extra = ev.per_query.index[~ev.per_query.index.isin(index)]
        if len(extra):  # only under missing_from_run="skip"; keep the index's dtype
            index = pd.Index([*index, *extra], dtype=index.dtype, name=index.name)
    return {name: ev.per_query.reindex(index) for name, ev in evaluations.items()}


class _Progress:
    """One callback over the bootstrap passes, then the randomization test.

    ``done`` runs from 0 to ``total``; the randomization test may add passes (claims
    resampled further), and ``total`` grows with them.
    """

    def __init__(self, callback, n_resamples: int) -> None:
        self.callback = callback
        self.n_resamples = n_resamples
        self.total = 0
        self.offset = 0

    def plan(self, passes: int) -> None:
        self.total = passes * self.n_resamples

    def step(self):
        offset = self.offset
        self.offset += self.n_resamples
        if self.callback is None:
            return None
        return lambda done, _total: self.callback(offset + done, self.total)

    def rest(self):
        """The callback of the last stage, which knows its own (growing) total."""
        if self.callback is None:
            return None
        offset = self.offset
        return lambda done, total: self.callback(offset + done, offset + total)


def _check_memory_for(n_resamples: int, n_columns: int) -> None:
    """Refuse, naming it, an ``n_resamples`` whose bootstrap means (one float64 per
    resample and column, held at once) would not fit in this machine's memory, rather
    than fail deep inside NumPy with a MemoryError that reads as a bug."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):  # not a POSIX system: let NumPy tell
        return
    needed = n_resamples * n_columns * 8
    if needed > memory:
        raise InputValueError(
            f"n_resamples={n_resamples:,} would hold {needed / 2**30:,.0f} GiB of bootstrap "
            f"means ({n_columns} column{'s' if n_columns != 1 else ''} x 8 bytes each) in a "
            f"machine of {memory / 2**30:,.0f} GiB; use fewer resamples (the default is 10,000)")


def _bootstrap(values, differences, n_metrics, n_resamples, seed, tracker):
    """Bootstrap means of every column of ``values`` and of ``differences``.

    ``values`` holds one column per (system, metric), system-major; ``differences`` one
    per (other system, metric), each minus the baseline's column of the same metric.
    """
    # A difference's bootstrap means are those of its two columns, subtracted, whenever
    # both columns are defined on the same queries (always, without a "skip" policy):
    # the same resamples, no second pass.
    finite = np.isfinite(values)
    derived = [
        np.array_equal(finite[:, j % n_metrics], finite[:, n_metrics + j])
        for j in range(differences.shape[1])
    ]
    separate = [j for j, ok in enumerate(derived) if not ok]
    tracker.plan(len(finite_column_groups(values))
                 + len(finite_column_groups(differences[:, separate]))
                 + len(finite_column_groups(differences)))

    value_means = _grouped_means(values, n_resamples, seed, tracker)
    if not separate:  # the usual case: each system's block minus the baseline's, at once
        others = value_means[:, n_metrics:].reshape(n_resamples, -1, n_metrics)
        difference_means = (others - value_means[:, None, :n_metrics]).reshape(
            n_resamples, differences.shape[1])
        return value_means, difference_means
    difference_means = np.full((n_resamples, differences.shape[1]), np.nan)
    for j in np.flatnonzero(derived):
        difference_means[:, j] = value_means[:, n_metrics + j] - value_means[:, j % n_metrics]
    if separate:
        difference_means[:, separate] = _grouped_means(
            differences[:, separate], n_resamples, seed, tracker
        )
    return value_means, difference_means


def _grouped_means(matrix, n_resamples, seed, tracker) -> np.ndarray:
    """Bootstrap means (resamples x columns); each group of columns resampled on its rows."""
    groups = finite_column_groups(matrix)
    if len(groups) == 1 and len(groups[0][1]) == matrix.shape[1]:  # the usual case: one
        rows, _ = groups[0]
        return bootstrap_means(matrix[rows], n_resamples=n_resamples, seed=seed,
                               progress=tracker.step())
    out = np.full((n_resamples, matrix.shape[1]), np.nan)
    for rows, cols in groups:
        out[:, cols] = bootstrap_means(matrix[rows][:, cols], n_resamples=n_resamples,
                                       seed=seed, progress=tracker.step())
    return out


def _check_computed_bounds(values, bounds, names, metrics, per_query) -> None:
    """Raise if a per-query value that ragmetrics computed lies outside its metric's bounds.

    The values come from :func:`ragmetrics.evaluate`, never from the user, so a value
    outside ``[lower_bound, upper_bound]`` (a recall of 1.0000000000000426) is a bug in
    ragmetrics' own arithmetic: an ``ArithmeticError`` (the command line's exit status 1,
    "internal error"), not an :class:`~ragmetrics.errors.InputError` blaming the input,
    as :func:`~ragmetrics.stats.bootstrap_interval` would for values it is given.
    """
    finite = np.isfinite(values)
    outside = finite & ((values < bounds[0]) | (values > bounds[1]))
    if not outside.any():
        return
    row, column = (int(i[0]) for i in np.nonzero(outside))
    system, metric = names[column // len(metrics)], metrics[column % len(metrics)]
    query = per_query[system].index[row]
    raise ArithmeticError(
        f"{metric} of system {system!r} is {float(values[row, column])!r} for query "
        f"{query!r}, outside its bounds [{float(bounds[0][column]):g}, "
        f"{float(bounds[1][column]):g}]: a bug in ragmetrics' own arithmetic, not in the "
        "input; please report it")


def _summary(names, metrics, values, means, confidence, bounds) -> pd.DataFrame:
    index = pd.MultiIndex.from_tuples(
        [(m, s) for m in metrics for s in names], names=["metric", "system"]
    )
    counts = np.isfinite(values).sum(axis=0)
    mean = np.full(values.shape[1], np.nan)
    mean[counts > 0] = np.nanmean(values[:, counts > 0], axis=0)
    low, high = bootstrap_interval(values, means, confidence=confidence, bounds=bounds)
    # values are system-major (system 0's metrics, then system 1's, ...): metric-major here.
    column = [i * len(metrics) + j for j in range(len(metrics)) for i in range(len(names))]
    return pd.DataFrame(
        {"mean": mean[column], "low": low[column], "high": high[column],
         "n_queries": counts[column]},
        index=index,
    )


def _difference_level(decisions, confidence: float, correction: str) -> float:
    """The level of each difference interval: the family level of the correction."""
    m = int(np.isfinite(decisions.p_value).sum())
    if correction == "none" or m == 0:
        return confidence
    claims = 1 if correction == "holm" else max(int(decisions.significant.sum()), 1)
    return 1.0 - claims * (1.0 - confidence) / m


def _tests(names, metrics, specs, per_query, differences, means, decisions, level,
           bounds) -> pd.DataFrame:
    baseline, pairs = names[0], names[1:]
    if pairs:
        low, high = bootstrap_interval(differences, means, confidence=level, bounds=bounds)
    rows, index = [], []
    for j, (metric, spec) in enumerate(zip(metrics, specs, strict=True)):
        for i, system in enumerate(pairs):
            column = i * len(metrics) + j
            d = differences[:, column]
            both = np.isfinite(d)
            a = per_query[baseline][metric].to_numpy(np.float64)[both]
            b = per_query[system][metric].to_numpy(np.float64)[both]
            row = {
                "baseline": baseline,
                "baseline_mean": float(a.mean()) if len(a) else math.nan,
                "mean": float(b.mean()) if len(b) else math.nan,
                "difference": float(d[both].mean()) if both.any() else math.nan,
                "low": low[column],
                "high": high[column],
                "p_randomization": decisions.p_value[column],
                "p_mc_error": decisions.mc_error[column],
                "p_adjusted": decisions.p_adjusted[column],
                "significant": bool(decisions.significant[column]),
                "decided": bool(decisions.decided[column]),
                "exact": bool(decisions.exact[column]),
                "n_patterns": int(decisions.n_patterns[column]),
                "p_t_test": math.nan, "t": math.nan, "df": math.nan,
                "effect_size": math.nan, "wins": 0, "ties": 0, "losses": 0,
                "n_queries": int(both.sum()),
            }
            row["verdict"] = _verdict(row, system, baseline, spec.info.higher_is_better)
            if len(a):
                t_test, effect = paired_t_test(a, b), paired_effect_size(a, b)
                row.update(p_t_test=t_test.p_value, t=t_test.statistic, df=t_test.df,
                           effect_size=effect.d_z, wins=effect.wins, ties=effect.ties,
                           losses=effect.losses)
            rows.append(row)
            index.append((metric, system))
    columns = ["baseline", "baseline_mean", "mean", "difference", "low", "high",
               "p_randomization", "p_mc_error", "p_adjusted", "significant", "decided",
               "verdict", "exact", "n_patterns", "p_t_test", "t", "df", "effect_size",
               "wins", "ties", "losses", "n_queries"]
    frame = pd.DataFrame(rows, columns=columns)
    frame.index = pd.MultiIndex.from_tuples(index, names=["metric", "system"])
    numbers = ["baseline_mean", "mean", "difference", "low", "high", "p_randomization",
               "p_mc_error", "p_adjusted", "p_t_test", "t", "df", "effect_size"]
    # Typed even when empty (one system: no row), so a column of numbers is one.
    return frame.astype({"wins": np.int64, "ties": np.int64, "losses": np.int64,
                         "n_queries": np.int64, "n_patterns": np.int64, "exact": bool,
                         "significant": bool, "decided": bool,
                         **dict.fromkeys(numbers, np.float64)})


def _verdict(row, system: str, baseline: str, higher_is_better: bool) -> str:
    if not np.isfinite(row["p_adjusted"]):
        return "not tested (no query with both values)"
    if not row["decided"]:
        return UNDECIDED
    if not row["significant"]:
        return "no significant difference"
    winner = system if (row["difference"] > 0) == higher_is_better else baseline
    return f"{winner} better"


def _claims(tests: pd.DataFrame, mask) -> str:
    shown = [f"{metric} ({system})" for metric, system in tests.index[mask]]
    return ", ".join(shown[:6]) + (", ..." if len(shown) > 6 else "")


def _raised(correction: str, m: int, adjusted: float) -> str:
    if correction == "holm" and m > 1:
        return f", and Holm over {m} claims raises the smallest adjusted p to {adjusted:.4g}"
    return ""


def _no_width(frame: pd.DataFrame) -> np.ndarray:
    """Rows whose interval has no width: ``low == high``, both numbers.

    :func:`ragmetrics.stats.bootstrap_interval` gives ``[m, m]`` exactly where a column
    has one value, or no spread (a standard deviation within :data:`ROUNDING` of its
    values' magnitude), and a width wherever there is a spread (the mean then lies inside
    the range, so the clipping to it leaves a width): no width is no spread.
    """
    low, high = frame["low"].to_numpy(), frame["high"].to_numpy()
    return np.isfinite(low) & (low == high)


def _no_width_warnings(summary: pd.DataFrame, tests: pd.DataFrame) -> list[str]:
    """Intervals of no width (README: "a sample with no spread ... gets an interval of no
    width and a warning"): each system's mean, each difference with the baseline."""
    found = []
    flat = _no_width(summary)
    if flat.any():
        its, says = (("its interval has", "says") if flat.sum() == 1 else
                     ("their intervals have", "say"))
        found.append(
            f"no spread: every query has the same value on {_claims(summary, flat)}, so "
            f"{its} no width (resampling these queries cannot move the mean) and {says} "
            "nothing about queries unlike these"
        )
    flat = _no_width(tests)
    difference = tests["difference"].to_numpy()
    constant, tied = flat & (difference != 0), flat & (difference == 0)
    if constant.any():
        found.append(
            f"constant difference: on {_claims(tests, constant)}, every query differs from "
            "the baseline by the same amount, so the difference interval has no width and "
            "d_z = mean / sd is undefined (n/a: no spread to divide by); the interval says "
            "nothing about queries unlike these"
        )
    if tied.any():
        found.append(
            f"no difference at all: on {_claims(tests, tied)}, the system scores what the "
            "baseline scores on every query, so the difference interval is [0, 0] (no "
            "width) and d_z is 0; it says nothing about queries unlike these"
        )
    return found


def _reach_warnings(tests: pd.DataFrame, decisions) -> list[str]:
    """Configurations under which a claim cannot be significant, whatever the data."""
    alpha, correction = decisions.alpha, decisions.correction
    tested = np.isfinite(decisions.p_value)
    m = int(tested.sum())
    never = tested & (decisions.smallest_adjusted_at_cap >= alpha)
    not_now = tested & ~never & (decisions.smallest_adjusted >= alpha)
    found = []
    if never.any():
        exact = never & decisions.exact
        if exact.any():
            n = int(tests["n_queries"].to_numpy()[exact].min())
            why = (f"with {n} {'query' if n == 1 else 'queries'} the exact sign-flip test's "
                   f"smallest two-sided p is 2/2^{n} = {min(1.0, 2.0 ** (1 - n)):.4g}")
        else:
            cap = decisions.max_resamples
            why = f"with at most {cap} sign patterns the smallest p is 1/{cap + 1}"
        which = ("no difference can be significant" if never.sum() == m else
                 f"{_claims(tests, never)} cannot be significant")
        smallest = float(decisions.smallest_adjusted_at_cap[never].min())
        found.append(f"{why}{_raised(correction, m, smallest)}: not below alpha = "
                     f"{alpha:g}, so {which}, whatever the data")
    if not_now.any():
        b = decisions.n_resamples
        smallest = float(decisions.smallest_adjusted[not_now].min())
        factor = m if correction == "holm" else 1
        enough = int(math.ceil(10 * factor / alpha / 100) * 100)
        which = ("no difference could be significant" if not_now.sum() == m else
                 f"{_claims(tests, not_now)} could not be significant")
        found.append(
            f"with {b} resamples the smallest p a sampled sign-flip test can give is "
            f"1/{b + 1} = {1 / (b + 1):.4g}{_raised(correction, m, smallest)}: not below "
            f"alpha = {alpha:g}, so at this setting {which}; "
            f"claims near alpha were resampled further (up to {decisions.max_resamples} "
            f"sign patterns each), but ask for at least {enough} resamples"
        )
    return found


def _agreement_warnings(tests, alpha, confidence, correction, level) -> list[str]:
    """Where an interval and its verdict say different things, say so."""
    if not len(tests):
        return []
    if not math.isclose(alpha, 1.0 - confidence, rel_tol=1e-9, abs_tol=1e-12):
        return [(f"the verdicts are at alpha = {alpha:g} and the intervals at confidence "
                f"{confidence:g}: an interval may exclude 0 beside 'no significant "
                "difference', or include it beside a significant verdict (set alpha = 1 - "
                "confidence for intervals that match the verdicts)")]
    excludes = ((tests["low"] > 0) | (tests["high"] < 0)).to_numpy()
    judged = (tests["decided"] & np.isfinite(tests["p_adjusted"])).to_numpy()
    significant = tests["significant"].to_numpy()
    found = []
    if correction == "holm":
        why = ("Holm's step-down test finds more than Bonferroni intervals exclude, and a "
               "bootstrap interval and a randomization test differ near the threshold")
    else:
        why = "a bootstrap interval and a randomization test differ near the threshold"
    for mask, says in (
        (judged & excludes & ~significant, ("excludes 0, but the verdict is 'no "
                                            "significant difference'")),
        (judged & ~excludes & significant, "includes 0, but the verdict is significant"),
    ):
        if mask.any():
            found.append(
                f"interval and verdict disagree on {_claims(tests, mask)}: the "
                f"{level * 100:.4g}% difference interval {says} ({why}): read such a claim "
                "as borderline"
            )
    return found


compare.__doc__ = compare.__doc__.replace("{conventions}\n", parameters_doc() + "\n", 1)
