"""Compare retrieval systems on the same queries: means, intervals, paired tests, verdicts.

:func:`compare` evaluates every system with :func:`ragmetrics.evaluate` on the same
judged queries, then, for every metric:

- each system's mean with a bootstrap interval (:func:`ragmetrics.stats.bootstrap_means`);
- each system against the baseline: the mean difference with a paired bootstrap
  interval, the paired randomization test and the paired t-test, Cohen's d and the
  wins/ties/losses, and a p-value corrected for the number of claims (every metric x
  every pair), from which a verdict follows.

All systems and metrics share one resampling pass: one matrix of resampled query counts
times one matrix of per-query values. The numbers are those of the single-metric
functions of :mod:`ragmetrics.stats` with the same seed.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .errors import (
    CoverageWarning,
    EmptyRelevantWarning,
    InputError,
    InputTypeError,
    InputValueError,
    NoRelevantRetrievedWarning,
    RagmetricsWarning,
    RankOrderWarning,
)
from .evaluation import Evaluation, check_judgments, evaluate
from .metrics.table import parse_metrics
from .policies import Conventions
from .stats import (
    _check_confidence,
    _check_positive_int,
    _check_progress,
    _check_seed,
    _percentile_interval,
    benjamini_hochberg,
    bootstrap_means,
    holm,
    paired_effect_size,
    paired_t_test,
    randomization_p_values,
    sample_size_warnings,
)

__all__ = ["CORRECTIONS", "DEFAULT_CUTOFFS", "Comparison", "compare", "default_metrics"]

#: The cut-offs of the default metrics.
DEFAULT_CUTOFFS = (5, 10, 20)

#: How p-values are corrected for the number of claims (metrics x pairs):
#:
#: - ``"holm"``: Holm's step-down method, family-wise error rate (no false "better" at all,
#:   with probability 1 - alpha);
#: - ``"bh"``: Benjamini-Hochberg, false discovery rate (a share alpha of the "better"s
#:   may be false), for screening;
#: - ``"none"``: no correction (each claim alone).
CORRECTIONS = ("holm", "bh", "none")

_POLICIES = ("relevance_level", "gain", "ties", "duplicates", "empty_relevant", "missing_from_run",
             "order_by")

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
    ks = [_check_positive_int(k, "each cut-off") for k in cutoffs]
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
        interval) and ``n_queries`` (queries with a value).
    tests : pandas.DataFrame
        Index (``metric``, ``system``), one row per metric and non-baseline system;
        columns ``baseline``, ``baseline_mean``, ``mean``, ``difference`` (system minus
        baseline) with its paired bootstrap interval ``low``, ``high``;
        ``p_randomization`` (and ``exact``), ``p_t_test`` with ``t`` and ``df``,
        ``effect_size`` (Cohen's d, paired), ``wins``, ``ties``, ``losses`` (queries
        where the system is above, equal to, below the baseline), ``p_adjusted`` (the
        randomization p corrected over all rows), ``significant`` (``p_adjusted`` below
        ``1 - confidence`` and a non-zero difference), ``verdict`` ("<system> better" or
        "no significant difference") and ``n_queries``.
    per_query : dict of str to pandas.DataFrame
        Each system's per-query values, all on the same query index.
    warnings : tuple of str
        What the numbers need to be read with: too few queries, one metric alone,
        queries missing from a run.
    conventions : Conventions
        The policies every system was evaluated under.
    systems : tuple of str
        The systems, baseline first.
    baseline : str
    metrics : tuple of str
    confidence : float
    n_resamples, seed : int
    correction : str
    evaluations : dict of str to Evaluation
        The raw result of :func:`ragmetrics.evaluate` for each system.
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
    evaluations: dict

    @property
    def n_queries(self) -> int:
        """The number of queries compared (the rows of each ``per_query`` frame)."""
        return len(self.per_query[self.baseline])

    def __repr__(self) -> str:
        from .report import to_text  # the presentation layer; imported late, it imports us

        return to_text(self)

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
        n = _check_positive_int(n, "n")
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
        n = _check_positive_int(n, "n")
        names = [system] + [s for s in self.systems if s != system]
        frame = pd.DataFrame({s: self.per_query[s][metric] for s in names})
        frame = frame[frame[system].notna()]
        order = np.argsort(frame[system].to_numpy(), kind="stable")
        return frame.iloc[order[:n]]


def compare(
    systems: Mapping,
    qrels,
    metrics: Sequence[str] | None = None,
    *,
    baseline: str | None = None,
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    correction: str = "holm",
    progress: Callable[[int, int], object] | None = None,
    **policies,
) -> Comparison:
    """Compare systems on the same queries, with intervals, paired tests and verdicts.

    Parameters
    ----------
    systems : mapping of str to run
        ``{name: run}``, each run in any shape :func:`ragmetrics.evaluate` accepts.
        One system gives means and intervals only.
    qrels : DataFrame or mapping
        The judgments, as in :func:`ragmetrics.evaluate`. Every judged query is compared;
        a query missing from a run scores 0 there (``missing_from_run="zero"``).
    metrics : sequence of str, optional
        Default: :func:`default_metrics`, recall, precision and nDCG at 5, 10 and 20, and
        MRR. A single family (e.g. only nDCG) adds the article's "common mistake" note
        to the warnings.
    baseline : str, optional
        The system the others are tested against; by default the first.
    confidence : float, default 0.95
        Of the bootstrap intervals; ``1 - confidence`` is the significance level of the
        verdicts.
    n_resamples : int, default 10_000
        Bootstrap resamples, and sign patterns of the randomization test (which is exact,
        all ``2**n`` patterns, up to :data:`ragmetrics.stats.EXACT_MAX_QUERIES` queries).
    seed : int, default 0
    correction : {"holm", "bh", "none"}, default "holm"
        See :data:`CORRECTIONS`; applied to the randomization p-values of all rows of
        ``.tests``.
    progress : callable(done, total), optional
        Called as resampling advances; ``done`` reaches ``total`` at the end. ``total``
        counts resamples over every pass (the bootstrap, then the randomization test), so
        it is a multiple of ``n_resamples``.
    **policies
        ``relevance_level``, ``gain``, ``ties``, ``duplicates``, ``empty_relevant``,
        ``missing_from_run``: the conventions of :func:`ragmetrics.evaluate`. Under a
        ``"skip"`` policy, each statistic uses the queries where its values exist.

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
    >>> tests = result.tests[["difference", "p_adjusted", "verdict"]]
    >>> tests.round(4)  # doctest: +NORMALIZE_WHITESPACE
                     difference  p_adjusted     verdict
    metric   system
    mrr      new         0.3333      0.0004  new better
    recall@1 new         0.6667      0.0004  new better
    >>> result.warnings
    ()
    """
    systems = _check_systems(systems)
    names = list(systems)
    if baseline is None:
        baseline = names[0]
    elif baseline not in systems:
        raise InputValueError(f"baseline {baseline!r} is not one of the systems {names}")
    names = [baseline] + [s for s in names if s != baseline]
    metric_names = default_metrics() if metrics is None else (
        [metrics] if isinstance(metrics, str) else list(metrics)
    )
    specs = parse_metrics(metric_names)
    confidence = _check_confidence(confidence)
    n_resamples = _check_positive_int(n_resamples, "n_resamples")
    seed = _check_seed(seed)
    if correction not in CORRECTIONS:
        valid = ", ".join(repr(c) for c in CORRECTIONS)
        raise InputValueError(f"correction must be one of {valid}; got {correction!r}")
    progress = _check_progress(progress)
    unknown = sorted(set(policies) - set(_POLICIES))
    if unknown:
        raise InputTypeError(
            f"compare() got an unknown keyword argument {unknown[0]!r}; the policies are "
            + ", ".join(_POLICIES)
        )
    conventions = Conventions(**policies)

    notes: list[str] = []
    check_judgments(qrels, metric_names, **policies)  # its errors once, not a system's
    evaluations = {name: _evaluate(name, systems[name], qrels, metric_names, policies, notes)
                   for name in names}
    per_query = _aligned(evaluations)
    n_queries = len(per_query[baseline])

    n_metrics = len(metric_names)
    values = np.column_stack([per_query[s].to_numpy(np.float64) for s in names])  # system-major
    pairs = names[1:]
    base = values[:, :n_metrics]
    differences = np.column_stack(
        [values[:, (i + 1) * n_metrics : (i + 2) * n_metrics] - base for i in range(len(pairs))]
    ) if pairs else np.empty((n_queries, 0))

    boot_values, boot_differences, p_random, exact = _resample(
        values, differences, n_metrics, n_resamples, seed, confidence, progress
    )
    summary = _summary(names, metric_names, values, boot_values)
    tests = _tests(
        names, metric_names, specs, per_query, differences, boot_differences,
        p_random, exact, confidence, correction,
    )

    counts = np.isfinite(values).sum(axis=0)
    smallest = int(counts.min()) if counts.size else 0
    found = list(sample_size_warnings(smallest))
    if len({spec.name for spec in specs}) == 1:
        found.append(ONE_METRIC_NOTE)
    found += notes
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
        evaluations=evaluations,
    )


# -- steps -------------------------------------------------------------------------------


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


def _evaluate(name, run, qrels, metrics, policies, notes: list) -> Evaluation:
    """One system's evaluation; its warnings become notes (naming the system where they
    are about its run; said once where they are about the judgments)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RagmetricsWarning)
        try:
            result = evaluate(run, qrels, metrics, **policies)
        except InputError as error:
            kind = InputTypeError if isinstance(error, TypeError) else InputValueError
            raise kind(f"system {name!r}: {error}") from error
    for warning in caught:  # ragmetrics' warnings become notes; others go on
        if issubclass(warning.category, EmptyRelevantWarning):
            if str(warning.message) not in notes:  # the judgments': the same for every run
                notes.append(str(warning.message))
        elif issubclass(warning.category, (RankOrderWarning, NoRelevantRetrievedWarning)):
            notes.append(f"{name}: {warning.message}")
        elif not issubclass(warning.category, CoverageWarning):
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
    how = "scored 0" if result.conventions.missing_from_run == "zero" else "left out"
    for ids, what in (
        (result.missing_from_run, f"judged {{queries}} missing from the run, {how}"),
        (result.missing_from_qrels, "{queries} of the run without judgments, left out"),
    ):
        if ids:
            queries = "query" if len(ids) == 1 else "queries"
            shown = ", ".join(map(str, ids[:5])) + (", ..." if len(ids) > 5 else "")
            notes.append(f"{name}: {len(ids)} {what.format(queries=queries)}: {shown}")
    judged = set(result.per_query.index) | set(result.missing_from_run)
    if judged and not judged - set(result.missing_from_run):
        judged_ids = ", ".join(map(repr, sorted(map(str, judged))[:3]))
        run_ids = ", ".join(map(repr, sorted(map(str, result.missing_from_qrels))[:3]))
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


def _groups(matrix: np.ndarray) -> list[tuple[np.ndarray, list[int]]]:
    """Columns grouped by the rows where they are finite (one group without 'skip')."""
    finite = np.isfinite(matrix)
    groups: dict[bytes, list[int]] = {}
    for j in range(matrix.shape[1]):
        groups.setdefault(finite[:, j].tobytes(), []).append(j)
    return [(finite[:, cols[0]], cols) for cols in groups.values()]


def _count_groups(matrix: np.ndarray) -> int:
    return sum(1 for rows, _ in _groups(matrix) if rows.any())


class _Progress:
    """One callback over several resampling passes: ``done`` runs from 0 to ``total``."""

    def __init__(self, callback, n_resamples: int, passes: int) -> None:
        self.callback = callback
        self.n_resamples = n_resamples
        self.total = n_resamples * passes
        self.offset = 0

    def step(self):
        if self.callback is None:
            return None
        offset = self.offset
        self.offset += self.n_resamples
        return lambda done, _total: self.callback(offset + done, self.total)


def _resample(values, differences, n_metrics, n_resamples, seed, confidence, progress):
    """Bootstrap intervals of every column of ``values`` and ``differences``, and the
    randomization p-values of every difference.

    ``values`` holds one column per (system, metric), system-major; ``differences`` one
    per (other system, metric), each minus the baseline's column of the same metric.
    Returns (mean, low, high) rows for each, the p-values and whether each is exact.
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
    passes = (_count_groups(values) + _count_groups(differences[:, separate])
              + _count_groups(differences))
    tracker = _Progress(progress, n_resamples, passes)

    value_means = _grouped_means(values, n_resamples, seed, tracker)
    difference_means = np.full((n_resamples, differences.shape[1]), np.nan)
    for j in np.flatnonzero(derived):
        difference_means[:, j] = value_means[:, n_metrics + j] - value_means[:, j % n_metrics]
    if separate:
        difference_means[:, separate] = _grouped_means(
            differences[:, separate], n_resamples, seed, tracker
        )
    p_random, exact = _grouped_randomization(differences, n_resamples, seed, tracker)
    return (
        _point_and_interval(values, value_means, confidence),
        _point_and_interval(differences, difference_means, confidence),
        p_random,
        exact,
    )


def _grouped_means(matrix, n_resamples, seed, tracker) -> np.ndarray:
    """Bootstrap means (resamples x columns); each group of columns resampled on its rows."""
    out = np.full((n_resamples, matrix.shape[1]), np.nan)
    for rows, cols in _groups(matrix):
        if rows.any():
            out[:, cols] = bootstrap_means(matrix[rows][:, cols], n_resamples=n_resamples,
                                           seed=seed, progress=tracker.step())
    return out


def _point_and_interval(matrix, means, confidence) -> np.ndarray:
    """Rows: the mean over the finite values, and the low and high ends of the interval."""
    out = np.full((3, matrix.shape[1]), np.nan)
    has = np.isfinite(matrix).any(axis=0)
    if has.any():
        out[0, has] = np.nanmean(matrix[:, has], axis=0)
        out[1, has], out[2, has] = _percentile_interval(means[:, has], confidence)
    return out


def _grouped_randomization(differences, n_resamples, seed, tracker):
    p = np.full(differences.shape[1], np.nan)
    exact = np.zeros(differences.shape[1], dtype=bool)
    for rows, cols in _groups(differences):
        if not rows.any():
            continue
        p[cols], exact[cols] = randomization_p_values(
            differences[rows][:, cols], n_resamples=n_resamples, seed=seed,
            progress=tracker.step(),
        )
    return p, exact


def _summary(names, metrics, values, boot) -> pd.DataFrame:
    index = pd.MultiIndex.from_tuples(
        [(m, s) for m in metrics for s in names], names=["metric", "system"]
    )
    # values are system-major (system 0's metrics, then system 1's, ...): metric-major here.
    column = [i * len(metrics) + j for j in range(len(metrics)) for i in range(len(names))]
    return pd.DataFrame(
        {
            "mean": boot[0, column],
            "low": boot[1, column],
            "high": boot[2, column],
            "n_queries": np.isfinite(values).sum(axis=0)[column],
        },
        index=index,
    )


def _tests(names, metrics, specs, per_query, differences, boot, p_random, exact, confidence,
           correction) -> pd.DataFrame:
    baseline, pairs = names[0], names[1:]
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
                "difference": boot[0, column],
                "low": boot[1, column],
                "high": boot[2, column],
                "p_randomization": p_random[column],
                "exact": bool(exact[column]),
                "p_t_test": math.nan, "t": math.nan, "df": math.nan,
                "effect_size": math.nan, "wins": 0, "ties": 0, "losses": 0,
                "n_queries": int(both.sum()),
                "higher_is_better": spec.info.higher_is_better,
            }
            if len(a):
                t_test, effect = paired_t_test(a, b), paired_effect_size(a, b)
                row.update(p_t_test=t_test.p_value, t=t_test.statistic, df=t_test.df,
                           effect_size=effect.cohens_d, wins=effect.wins, ties=effect.ties,
                           losses=effect.losses)
            rows.append(row)
            index.append((metric, system))
    columns = ["baseline", "baseline_mean", "mean", "difference", "low", "high",
               "p_randomization", "exact", "p_t_test", "t", "df", "effect_size", "wins",
               "ties", "losses", "n_queries"]
    frame = pd.DataFrame(rows, columns=[*columns, "higher_is_better"])
    frame.index = pd.MultiIndex.from_tuples(index, names=["metric", "system"])
    frame = frame.astype({"wins": np.int64, "ties": np.int64, "losses": np.int64,
                          "n_queries": np.int64, "exact": bool})
    p_adjusted = _adjust(frame["p_randomization"].to_numpy(np.float64), correction)
    frame["p_adjusted"] = p_adjusted
    # NaN < alpha is False: an untested row is never significant.
    frame["significant"] = (p_adjusted < 1.0 - confidence) & (frame["difference"] != 0)
    frame["verdict"] = [_verdict(row, baseline) for row in frame.itertuples()]
    return frame[[*columns[:7], "p_adjusted", "significant", "verdict", *columns[7:]]]


def _adjust(p: np.ndarray, correction: str) -> np.ndarray:
    out = p.copy()
    finite = np.isfinite(p)
    if correction == "none" or not finite.any():
        return out
    adjust = holm if correction == "holm" else benjamini_hochberg
    out[finite] = adjust(p[finite])
    return out


def _verdict(row, baseline: str) -> str:
    if not np.isfinite(row.p_adjusted):
        return "not tested (no query with both values)"
    if not row.significant:
        return "no significant difference"
    system = row.Index[1]
    winner = system if (row.difference > 0) == row.higher_is_better else baseline
    return f"{winner} better"
