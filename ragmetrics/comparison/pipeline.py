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

The steps, each a module of :mod:`ragmetrics.comparison`, in the order :func:`compare`
runs them: :mod:`~ragmetrics.comparison.options`, :mod:`~ragmetrics.comparison.systems`,
:mod:`~ragmetrics.comparison.bootstrap_pass`, :mod:`~ragmetrics.comparison.paired_tests`,
:mod:`~ragmetrics.comparison.caveats`, and the result,
:mod:`~ragmetrics.comparison.comparison_result`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Unpack

import numpy as np
import pandas as pd

from ..conventions import ConventionKeywords, accepts_conventions
from ..stats.corrections import Correction
from ..stats.verdicts import randomization_verdicts
from .bootstrap_pass import ResamplingProgress, bootstrap_all, paired_columns, summary_frame
from .caveats import comparison_warnings
from .comparison_result import Comparison
from .costs import cost_names, cost_summary, extra_cost_names
from .factorial import factor_effects
from .no_answer import no_answer_table
from .options import DEFAULT_TIE_TOLERANCE, comparison_options
from .paired_tests import difference_level, paired_tests_frame
from .pairwise import all_pair_columns, pairwise_frame, slice_decisions
from .segments import segment_analysis, segment_labels
from .systems import aligned_per_query, evaluate_all, retriever_summaries
from .tie_sizes import tie_size_frame

__all__ = ["compare"]


@accepts_conventions
def compare(
    systems: Mapping,
    qrels=None,
    metrics: Sequence[str] | None = None,
    *,
    chunks=None,
    evidence=None,
    documents=None,
    queries=None,
    primary: str | None = None,
    baseline: str | None = None,
    alpha: float = 0.05,
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    max_resamples: int | None = None,
    seed: int = 0,
    correction: Correction = "holm",
    progress: bool | Callable[[int, int], object] | None = None,
    jobs: int = 1,
    preset: str | None = None,
    tie_tolerance: float | None = DEFAULT_TIE_TOLERANCE,
    pairs: str = "baseline",
    segments=None,
    segment_weights: str = "query",
    factors: Mapping | None = None,
    max_false_answer_rate: float | None = None,
    tune_queries=None,
    answerable=None,
    **conventions: Unpack[ConventionKeywords],
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
        Default: :func:`~ragmetrics.comparison.default_metrics`, recall, precision and
        nDCG at 5, 10 and 20, and MRR; with evidence, span recall, precision and IoU at 5,
        10 and 20 (:func:`ragmetrics.spans.names.default_span_metrics`). A single family
        (e.g. only nDCG) adds the article's "common mistake" note to the warnings.
    chunks : chunking or mapping of str to chunking, optional
        With evidence spans: the chunking the runs retrieve from, one for all systems or
        ``{system: chunking}`` when each has its own (a comparison of chunkings).
    evidence : optional
        Evidence spans instead of ``qrels`` (``qrels=SpanJudgments(evidence,
        documents=documents)``): every system is scored on the evidence's queries, the
        span metrics on the text it retrieved, the id-based ones with its chunks judged
        by the rule (:mod:`ragmetrics.spans.judging`).
    documents : DataFrame, mapping, records or file, optional
        ``doc_id, text`` (e.g. :attr:`ragmetrics.io.Dataset.documents`), one frame for
        both uses. With ``evidence``: the documents the spans and the chunks' offsets
        point into (to locate quotes, count tokens, check offsets). With qrels of ids:
        the runs' ids are these documents' ids, and the report's and the
        :class:`~ragmetrics.widgets.ComparisonExplorer`'s drill-downs show each ranked
        passage's first words beside its id (:mod:`ragmetrics.comparison.shown_texts`).
    queries : DataFrame, mapping, records or file, optional
        ``query_id, text`` or ``{query_id: text}`` (e.g.
        :attr:`ragmetrics.io.Dataset.queries`): each question, shown beside its id in
        the drill-downs. Shown as text, never as markup.
    primary : str, optional
        The metric the verdict is about (:meth:`Comparison.verdict`, the first lines of
        every report): by default ``"ndcg@10"`` if compared, else the first metric. The
        drill-downs are on it too.
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
    tie_tolerance : float or None, default 0.001
        How far the order of tied docs may move a mean before it is a warning. Every
        system is scored again with tied docs in the two extreme orders,
        ``ties="pessimistic"`` (relevant docs last) and ``ties="optimistic"`` (first),
        and the paired tests re-run where that moves a claim's values
        (:mod:`~ragmetrics.comparison.tie_sizes`: the comparison with every other
        system's ties broken for it and the baseline's against it, and the other way
        round). The warnings name the metrics whose range (the optimistic mean minus the
        pessimistic one) exceeds ``tie_tolerance``, and any verdict that either pairing
        changes; the sizes are always in ``.tie_sizes`` and on the convention card.
        ``None``: the ties are not measured (no second scoring, no ``.tie_sizes``).
    pairs : {"baseline", "all"}, default "baseline"
        Which pairs of systems are tested: each against the baseline (``k - 1`` pairs
        for ``k`` systems), or every pair (``k (k - 1) / 2``). **The family** corrected
        by ``correction`` is every pair tested x every metric, one family: with
        ``"all"`` the baseline rows of ``.tests`` are corrected over every pair too.
        Every pair is in ``.pairwise``; ``.summary_matrix()`` marks each mean (against
        the baseline, or by a compact letter display) and ``.ranking(metric)`` ranks
        the systems (:mod:`ragmetrics.comparison.pairwise`).
    segments : mapping or Series, optional
        A segment per query (``{query_id: segment}``, or a Series indexed by query id
        such as a column of a data set's queries): ``.segments`` then holds each system's mean
        per segment, each difference with the baseline per segment (its interval and
        paired test, corrected over segments x metrics x systems, a family of its own),
        and the warnings name a segment whose difference goes, significantly, against
        the overall one, and a segment too small to detect the overall minimum
        detectable effect (:mod:`ragmetrics.comparison.segments`). Every compared query
        needs a segment.
    segment_weights : {"query", "equal"}, default "query"
        How the overall rows of ``.segments`` weight the segments: every query once (the
        plain mean of ``.summary``) or every segment the same (the mean of the segment
        means). ``.summary`` and ``.tests`` stay per query.
    factors : mapping, optional
        ``{factor: {system: level}}`` for a factorial set of systems; by default read
        from names such as ``bm25-256``, ``dense-512`` when they form a full factorial.
        ``.factors`` then holds each factor's main effect with its paired bootstrap
        interval (:mod:`ragmetrics.comparison.factorial`).
    max_false_answer_rate : float, optional
        Questions with no answer (:mod:`~ragmetrics.comparison.no_answer`): the most
        unanswerable questions, as a share from 0 to 1, that a system may answer. Each
        system gets its own score threshold, the lowest whose false-answer rate is at
        most this (:func:`ragmetrics.threshold_for`), and ``.abstention`` holds what it
        gives (:func:`ragmetrics.abstention_report`: the threshold, the false-answer
        rate, recall and answer rate on the answerable questions, with intervals); the
        reports add a section "Questions with no answer" that says which system
        abstains better. Every run needs scores. A query is unanswerable when it has no
        relevant doc (a row judged 0, an ``answerable`` column, or ``answerable``).
        Default None: no thresholds, and nothing of it in the result or the reports.
    tune_queries : iterable of query ids, optional
        With ``max_false_answer_rate``: choose each threshold on these queries and
        measure it on all the others (never tune on the test set). By default each is
        chosen and measured on every query, which flatters it, and the reports say so.
    answerable : mapping, Series or DataFrame, optional
        With ``max_false_answer_rate``: which queries have an answer, as in
        :func:`ragmetrics.threshold_sweep` (unanswerable questions often have no
        judgment row). It marks questions for the thresholds only; the metrics score the
        judged queries as always.

    Returns
    -------
    Comparison
        ``.summary``, ``.tests``, ``.per_query``, ``.warnings``, ``.conventions``,
        ``.tie_sizes``, ``.abstention`` (with ``max_false_answer_rate``), and the
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
    options = comparison_options(
        systems, qrels, metrics, chunks=chunks, evidence=evidence, documents=documents,
        baseline=baseline, alpha=alpha, confidence=confidence, n_resamples=n_resamples,
        max_resamples=max_resamples, seed=seed, correction=correction, progress=progress,
        jobs=jobs, preset=preset, conventions=conventions, primary=primary, queries=queries,
        tie_tolerance=tie_tolerance, pairs=pairs, segments=segments,
        segment_weights=segment_weights, factors=factors,
        max_false_answer_rate=max_false_answer_rate, tune_queries=tune_queries,
        answerable=answerable)
    names, metrics = options.names, options.metrics
    # Before the scoring: a run without scores is refused at once, naming its system.
    abstention = None if options.no_answer.max_false_answer_rate is None else no_answer_table(
        options.systems, qrels, options.no_answer,
        relevance_level=options.conventions.relevance_level, confidence=options.confidence,
        n_resamples=options.n_resamples, seed=options.seed)
    # For evidence spans, the units each system sends at every cut the metrics read: a
    # span metric scored with them, then taken out of them (ragmetrics.comparison.costs).
    cuts = {} if options.spans is None else cost_names(options.specs)
    evaluations, notes = evaluate_all(options.systems, qrels,
                                      list(metrics) + extra_cost_names(cuts, metrics),
                                      options.spans, options.conventions, preset, options.jobs)
    costs = None
    if cuts:
        evaluations, costs = cost_summary(evaluations, cuts, asked=metrics,
                                          unit=options.spans.judgments.unit)
    per_query = aligned_per_query(evaluations)

    columns = paired_columns(per_query, names, metrics, options.specs)
    tracker = ResamplingProgress(options.progress, options.n_resamples)
    value_means, difference_means = bootstrap_all(columns, options.n_resamples,
                                                  options.seed, tracker)
    summary = summary_frame(names, metrics, columns.values, value_means, options.confidence,
                            columns.value_bounds)
    # One family: the baseline's pairs, then (pairs="all") every other pair.
    later, later_means, later_bounds = all_pair_columns(
        columns.values, value_means, len(metrics), len(names),
        (columns.value_bounds[0][:len(metrics)], columns.value_bounds[1][:len(metrics)]),
        options.n_resamples, options.seed) if options.pairs == "all" else (
        columns.differences[:, :0], difference_means[:, :0], (np.empty(0), np.empty(0)))
    differences = np.column_stack([columns.differences, later])
    all_means = np.column_stack([difference_means, later_means])
    all_bounds = tuple(np.concatenate([a, b]) for a, b in zip(columns.difference_bounds,
                                                               later_bounds, strict=True))
    family = randomization_verdicts(
        differences, alpha=options.alpha, correction=options.correction,
        n_resamples=options.n_resamples, max_resamples=options.max_resamples,
        seed=options.seed, progress=tracker.rest(),
    )
    level = difference_level(family, options.confidence, options.correction)
    first = slice(0, columns.differences.shape[1])
    decisions = slice_decisions(family, first)
    tests = paired_tests_frame(names, metrics, options.specs, per_query, columns.differences,
                        difference_means, decisions, level, columns.difference_bounds)
    ties = (None if options.tie_tolerance is None else
            tie_size_frame(options, qrels, per_query, tests, differences))
    tie_notes = {"ties": ties, "tie_tolerance": options.tie_tolerance}
    pairwise = pairwise_frame(names, metrics, options.specs, per_query, differences,
                              all_means, family, level, all_bounds, options.pairs)
    if options.pairs == "all":  # the warnings read every claim of the family
        claims = pairwise.set_axis(pd.MultiIndex.from_arrays(
            [pairwise.index.get_level_values(0),
             [f"{s} vs {o}" for _, s, o in pairwise.index]], names=["metric", "system"]))
        found = comparison_warnings(columns.values, options.specs, notes, summary, claims,
                                    family, confidence=options.confidence, level=level,
                                    **tie_notes)
    else:
        found = comparison_warnings(columns.values, options.specs, notes, summary, tests,
                                    decisions, confidence=options.confidence, level=level,
                                    **tie_notes)
    by_segment, segment_level = None, None
    if options.segments is not None:
        labels = segment_labels(options.segments, per_query[names[0]].index)
        by_segment, segment_level, segment_notes = segment_analysis(
            per_query, names, metrics, options.specs, labels, values=columns.values,
            differences=columns.differences,
            value_bounds=(columns.value_bounds[0], columns.value_bounds[1]),
            difference_bounds=columns.difference_bounds, summary=summary, tests=tests,
            weights=options.segment_weights, alpha=options.alpha,
            confidence=options.confidence, correction=options.correction,
            n_resamples=options.n_resamples, max_resamples=options.max_resamples,
            seed=options.seed)
        found = (*found, *segment_notes)
    effects = None if options.factors is None else factor_effects(
        per_query, names, metrics, options.specs, options.factors,
        n_resamples=options.n_resamples, seed=options.seed, confidence=options.confidence)
    spans = options.spans
    return Comparison(
        summary=summary, tests=tests, per_query=per_query, warnings=found,
        conventions=options.conventions, systems=names, baseline=options.baseline,
        metrics=metrics, confidence=options.confidence, n_resamples=options.n_resamples,
        seed=options.seed, correction=options.correction, alpha=options.alpha,
        difference_confidence=level, max_resamples=options.max_resamples,
        interval_method="expanded_t", evaluations=evaluations,
        # Rankings of chunk ids judged by evidence spans are not shown rank by rank (yet).
        runs=dict(systems) if spans is None else None,  # as given, in their order
        qrels=qrels if spans is None else None,
        spans=None if spans is None else spans.card(),
        preset=preset,
        retrievers=retriever_summaries(options.systems),  # latency: beside, not in, the metrics
        costs=costs,  # units sent: beside, not in, the metrics
        primary=options.primary, query_texts=options.query_texts,
        document_texts=options.document_texts,
        tie_sizes=ties, tie_tolerance=options.tie_tolerance,
        pairs=options.pairs, pairwise=pairwise, segments=by_segment,
        segment_weights=options.segment_weights, segment_confidence=segment_level,
        factors=effects,
        abstention=abstention,
        max_false_answer_rate=options.no_answer.max_false_answer_rate,
    )
