"""The result of :func:`~ragmetrics.comparison.compare`: :class:`Comparison`, with its drill-downs.

A :class:`Comparison` holds the numbers (``.summary``, ``.tests``, ``.per_query``), what
they need to be read with (``.warnings``) and how they were made (the conventions, the
levels, the resamples, the seed). Its methods look further without computing anything
new: :meth:`~Comparison.queries_that_differ_most`, :meth:`~Comparison.worst_queries`,
:meth:`~Comparison.power` (:mod:`ragmetrics.stats.power`), and the report, rendered by
:mod:`ragmetrics.reports` (:meth:`~Comparison.to_text`, :meth:`~Comparison.to_markdown`,
:meth:`~Comparison.to_html`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import InputValueError
from ..stats.arguments import check_alpha, check_positive_int
from ..stats.power import DEFAULT_POWER, power_table

__all__ = ["Comparison"]


@dataclass(frozen=True, eq=False)
class Comparison:
    """The result of :func:`~ragmetrics.comparison.compare`.

    Attributes
    ----------
    summary : pandas.DataFrame
        Index (``metric``, ``system``); columns ``mean``, ``low``, ``high`` (the bootstrap
        interval at level ``confidence``) and ``n_queries`` (queries with a value).
    tests : pandas.DataFrame
        Index (``metric``, ``system``), one row per metric and non-baseline system;
        columns ``baseline``, ``baseline_mean``, ``mean``, ``difference`` (system minus
        baseline) with its paired bootstrap interval ``low``, ``high`` (at level
        ``difference_confidence``, see :func:`ragmetrics.compare`); ``p_randomization``
        with its Monte Carlo standard error ``p_mc_error`` (0 when exact); ``p_adjusted`` (the
        randomization p corrected over all rows); ``significant`` (decided,
        ``p_adjusted`` below ``alpha`` and a non-zero difference); ``decided`` (False when
        the verdict stayed within Monte Carlo error of ``alpha``); ``verdict``
        ("<system> better", "no significant difference" or
        :data:`~ragmetrics.comparison.UNDECIDED`);
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
    retrievers : dict of str to dict or None
        For runs made by :func:`ragmetrics.runners.run_retriever`: each such system's
        latency per query (``mean``, ``p50``, ``p90``, ``p99`` seconds; ``timed`` and
        ``cached`` queries), ``k`` and ``config_hash``
        (:func:`~ragmetrics.comparison.systems.retriever_summaries`); the reports show
        them in a table of their own, beside the metrics. None when no run carries them.
    costs : pandas.DataFrame or None
        For runs judged by evidence spans: what each system sends to the model per
        question at every cut the metrics read (``k=10``, ``budget=1000``, ``all
        retrieved``): the ``mean``, ``p50`` and ``p90`` of the units sent (the lengths of
        the chunks kept, each whole, in the comparison's unit, ``.attrs["unit"]``) and
        the ``queries`` counted, indexed by ``(system, cut)``
        (:func:`~ragmetrics.comparison.costs.cost_summary`). The reports show it in a
        table of its own, beside the metrics; None for qrels of chunk ids.
    primary : str
        The metric the verdict is about (:meth:`verdict`): ``compare(primary=...)``, by
        default ``"ndcg@10"`` if compared, else the first metric.
    query_texts, document_texts : dict or None
        ``{query_id: text}`` and ``{doc_id: text}`` given to :func:`ragmetrics.compare`
        (``queries=``, ``documents=``), shown beside the ids in the drill-downs
        (:mod:`ragmetrics.comparison.shown_texts`); None when not given.
    tie_sizes : pandas.DataFrame or None
        How far the order of tied docs can move each mean, and each verdict
        (:mod:`~ragmetrics.comparison.tie_sizes`): index (``metric``, ``system``);
        columns ``pessimistic`` and ``optimistic`` (the mean with
        relevant tied docs last, and first), ``low``, ``high``, ``range``,
        ``n_queries_affected`` (queries whose value differs between the two orders),
        ``verdict`` (as reported), ``verdict_optimistic`` and ``verdict_pessimistic``
        (the paired test re-run with the system's ties broken for it and the baseline's
        against it, and the other way round; missing for the baseline) and
        ``verdict_can_flip``. None when ``compare(tie_tolerance=None)``.
    tie_tolerance : float or None
        The range of a mean above which the ties are a warning (None: not measured).
    pairs : {"baseline", "all"}
        The pairs tested: each system against the baseline, or every pair of systems;
        either way one family of claims, pairs x metrics, under ``correction``
        (:mod:`~ragmetrics.comparison.pairwise`).
    pairwise : pandas.DataFrame or None
        Index (``metric``, ``system``, ``other``), one row per metric and pair tested;
        the columns of ``tests`` (``other`` and ``other_mean`` for ``baseline`` and
        ``baseline_mean``), ``difference`` being ``system - other``. With
        ``pairs="baseline"`` the rows of ``tests``.
    segments : pandas.DataFrame or None
        With ``segments=``: index (``metric``, ``segment``, ``system``), each system's
        mean per segment with its interval, each other system's difference with the
        baseline (interval, corrected p, verdict, MDE), and the overall rows (segment
        ``"(all)"``) weighted by ``segment_weights``
        (:mod:`~ragmetrics.comparison.segments`). None without segments.
    segment_weights : {"query", "equal"}
        How the overall rows of ``segments`` weight the segments.
    segment_confidence : float or None
        The level of the segments' difference intervals (the family level of their
        correction).
    factors : pandas.DataFrame or None
        For a factorial set of systems: each factor's main effect per metric
        (:func:`~ragmetrics.comparison.factorial.factor_effects`); None otherwise.
    abstention : pandas.DataFrame or None
        With ``compare(max_false_answer_rate=...)``: each system's score threshold for
        that false-answer rate and what it gives, one row per system in the comparison's
        order (:func:`~ragmetrics.comparison.no_answer.no_answer_table`, the table of
        :func:`ragmetrics.abstention_report`: ``threshold``, ``false_answer_rate`` and
        ``recall`` with their intervals, ``answer_rate``, ``precision``, the questions
        counted, ``measured_on``); :meth:`abstention_verdict` says it in words. None
        otherwise.
    max_false_answer_rate : float or None
        The target the thresholds were chosen for; None without ``.abstention``.

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
    retrievers: dict | None = None
    costs: pd.DataFrame | None = field(default=None, repr=False)
    primary: str | None = None
    query_texts: dict | None = field(default=None, repr=False)
    document_texts: dict | None = field(default=None, repr=False)
    tie_sizes: pd.DataFrame | None = field(default=None, repr=False)
    tie_tolerance: float | None = None

    pairs: str = "baseline"
    pairwise: pd.DataFrame | None = field(default=None, repr=False)
    segments: pd.DataFrame | None = field(default=None, repr=False)
    segment_weights: str = "query"
    segment_confidence: float | None = None
    factors: pd.DataFrame | None = field(default=None, repr=False)
    abstention: pd.DataFrame | None = field(default=None, repr=False)
    max_false_answer_rate: float | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.primary is None:  # the default of compare(primary=None)
            names = list(self.metrics)
            object.__setattr__(self, "primary", "ndcg@10" if "ndcg@10" in names else names[0])

    @property
    def n_queries(self) -> int:
        """The number of queries compared (the rows of each ``per_query`` frame)."""
        return len(self.per_query[self.baseline])

    # The renderers live in the reports layer (ragmetrics.reports), which never imports
    # this package (a Comparison is only an annotation there): each method below imports
    # its renderer when called, as pandas' DataFrame.to_html does, so the dependency runs
    # one way, comparison -> reports, and `import ragmetrics.comparison` loads no
    # renderer (nor matplotlib).

    def __repr__(self) -> str:
        return self.to_text()

    def to_text(self) -> str:
        """The comparison as plain text, for a terminal: what ``print(comparison)`` shows.

        Means with their intervals, each system against the baseline, the warnings and
        the conventions (:func:`ragmetrics.reports.to_text`).
        """
        from ..reports.text_report import to_text

        return to_text(self)

    def verdict(self, metric: str | None = None) -> tuple[str, ...]:
        """The verdict in words: one sentence per system against the baseline on ``metric``
        (default :attr:`primary`), what every report says first.

        Each sentence names the way it went (better, worse, no significant difference,
        undecided), the difference with its interval, the corrected p-value, the queries
        and the smallest difference they can detect (:meth:`power`)
        (:func:`ragmetrics.reports.headline.verdict_sentences`).

        Examples
        --------
        >>> import ragmetrics
        >>> qrels = {f"q{i}": {"gold"} for i in range(30)}
        >>> old = {f"q{i}": ["junk", "gold"] for i in range(30)}
        >>> new = {f"q{i}": ["gold"] if i < 20 else ["junk", "gold"] for i in range(30)}
        >>> result = ragmetrics.compare({"old": old, "new": new}, qrels, ["mrr", "recall@1"],
        ...                             n_resamples=500)
        >>> print(result.verdict()[0])  # doctest: +NORMALIZE_WHITESPACE
        new is better than old on MRR by +0.333 [97.5% CI +0.230, +0.437], p = 0.004
        after Holm over 2 metrics, 30 questions; the smallest difference these questions
        can detect (80% power) is 0.127.
        """
        from ..reports.headline import verdict_sentences

        return verdict_sentences(self, self.primary if metric is None
                                 else self._check_metric(metric))

    def abstention_verdict(self) -> tuple[str, ...]:
        """Questions with no answer, in words: which system abstains better at the
        false-answer rate asked for (``compare(max_false_answer_rate=...)``), and what
        the numbers need to be read with (:attr:`abstention`;
        :func:`ragmetrics.reports.abstention_text.abstention_sentences`). Empty without
        :attr:`abstention`.

        Examples
        --------
        >>> import ragmetrics
        >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()}
        >>> runs = {"bm25": {"q1": {"a": 3.0}, "q2": {"b": 2.0}, "q3": {"c": 2.5}},
        ...         "dense": {"q1": {"a": 0.9}, "q2": {"b": 0.8}, "q3": {"c": 0.4}}}
        >>> result = ragmetrics.compare(runs, qrels, ["recall@1"], n_resamples=200,
        ...                             max_false_answer_rate=0.0)
        >>> print(result.abstention_verdict()[0])  # doctest: +NORMALIZE_WHITESPACE
        dense abstains better than bm25: at a false-answer rate of at most 0 it keeps
        recall 1.0000 against 0.5000, with false-answer rates 0.0000 and 0.0000; their
        intervals overlap, so these questions do not settle it.

        Two answerable questions and two without an answer are far too few to tell.
        """
        from ..reports.abstention_text import abstention_sentences

        return abstention_sentences(self)

    @property
    def headline(self) -> str:
        """The verdict on :attr:`primary` as one paragraph (:meth:`verdict`'s sentences)."""
        return " ".join(self.verdict())

    def to_markdown(self, *, title: str = "Retrieval evaluation") -> str:
        """The full report as Markdown: warnings, means, each system against the baseline,
        drill-downs and the convention card (:func:`ragmetrics.reports.to_markdown`).

        Examples
        --------
        >>> import ragmetrics
        >>> result = ragmetrics.compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"],
        ...                             n_resamples=50)
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
        >>> import ragmetrics
        >>> result = ragmetrics.compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"],
        ...                             n_resamples=50)
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
        >>> import ragmetrics
        >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}}
        >>> old = {"q1": ["a"], "q2": ["x", "b"], "q3": ["x", "y", "c"]}
        >>> new = {"q1": ["a"], "q2": ["b"], "q3": ["c"]}
        >>> result = ragmetrics.compare({"old": old, "new": new}, qrels, ["mrr"], n_resamples=100)
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
        >>> import ragmetrics
        >>> qrels = {f"q{i}": {"gold"} for i in range(40)}
        >>> old = {f"q{i}": ["junk", "gold"] for i in range(40)}
        >>> new = {f"q{i}": ["gold"] if i % 3 else ["x", "y", "gold"] for i in range(40)}
        >>> result = ragmetrics.compare({"old": old, "new": new}, qrels, ["mrr"], n_resamples=200)
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
        >>> import ragmetrics
        >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}}
        >>> run = {"q1": ["a"], "q2": ["x", "b"], "q3": ["x", "y", "c"]}
        >>> result = ragmetrics.compare({"bm25": run}, qrels, ["mrr"], n_resamples=100)
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

    def ranking(self, metric: str) -> pd.DataFrame:
        """The systems ranked on ``metric``, best first, with intervals and what each beats.

        Parameters
        ----------
        metric : str
            One of :attr:`metrics`.

        Returns
        -------
        pandas.DataFrame
            Index ``rank`` (1 the best; lower is better for a metric where lower is);
            columns ``system``, ``mean``, ``low``, ``high`` (the mean's interval at
            ``confidence``) and ``better_than``: the systems it is significantly better
            than (in the order of the ranking), among the pairs tested (:attr:`pairwise`;
            with ``pairs="baseline"`` only the baseline is tested against the others).

        Examples
        --------
        >>> import ragmetrics
        >>> qrels = {f"q{i}": {"a"} for i in range(12)}
        >>> at = lambda rank: {q: [f"x{k}" for k in range(rank - 1)] + ["a"] for q in qrels}
        >>> runs = {"c": at(3), "a": at(1), "b": {q: at(1 + i % 2)[q] for i, q in
        ...                                       enumerate(qrels)}}
        >>> result = ragmetrics.compare(runs, qrels, ["mrr"], pairs="all", n_resamples=200)
        >>> result.ranking("mrr")[["system", "mean", "better_than"]]
        ...  # doctest: +NORMALIZE_WHITESPACE
             system      mean better_than
        rank
        1         a  1.000000      (b, c)
        2         b  0.750000        (c,)
        3         c  0.333333          ()
        """
        from .pairwise import ranking_frame

        return ranking_frame(self, self._check_metric(metric))

    def summary_matrix(self) -> pd.DataFrame:
        """Systems x metrics: each mean, marked by what the tests found.

        With ``pairs="baseline"``: ``▲`` after a system's mean where it is significantly
        better than the baseline, ``▼`` where significantly worse (the corrected
        verdicts of :attr:`tests`). With ``pairs="all"``: the compact letter display
        (:func:`~ragmetrics.comparison.pairwise.letter_display`): two systems that
        share a letter on a metric are not significantly different on it; ``a`` marks
        the best system's group.

        Returns
        -------
        pandas.DataFrame of str
            Index ``system`` (the baseline first), one column per metric.

        Examples
        --------
        >>> import ragmetrics
        >>> qrels = {f"q{i}": {"a"} for i in range(12)}
        >>> at = lambda rank: {q: [f"x{k}" for k in range(rank - 1)] + ["a"] for q in qrels}
        >>> runs = {"c": at(3), "a": at(1), "b": {q: at(1 + i % 2)[q] for i, q in
        ...                                       enumerate(qrels)}}
        >>> ragmetrics.compare(runs, qrels, ["mrr"], n_resamples=200).summary_matrix()
        ...  # doctest: +NORMALIZE_WHITESPACE
        metric         mrr
        system
        c           0.3333
        a         1.0000 ▲
        b         0.7500 ▲
        >>> ragmetrics.compare(runs, qrels, ["mrr"], pairs="all",
        ...                    n_resamples=200).summary_matrix()
        ...  # doctest: +NORMALIZE_WHITESPACE
        metric         mrr
        system
        c         0.3333 c
        a         1.0000 a
        b         0.7500 b
        """
        from .pairwise import summary_matrix

        return summary_matrix(self)
