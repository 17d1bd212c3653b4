"""The regression gate: does a candidate run keep the bar a baseline set?

:func:`check_gate` scores the candidate on the baseline's queries, metrics and
conventions, refuses a stale baseline (:class:`~ragmetrics.gate.StaleBaselineError`), and
decides every rule (:mod:`~ragmetrics.gate.gate_rules`), overall and in each segment.

**The test.** With ``d_i = candidate_i - baseline_i`` on each query, the rule
``"<metric> worse by <tol>"`` fails when ``mean(d) < -tol`` is significant: the null
hypothesis ``mean(d) >= -tol`` ("no worse than the tolerance allows") is rejected by
the one-sided paired t-test of ``d + tol`` (:func:`ragmetrics.stats.paired_t_test` on the
baseline shifted by the tolerance, its t read in the lower tail by
:func:`ragmetrics.stats.student_t_cdf`; ``scipy.stats.ttest_rel(candidate, baseline - tol,
alternative="less")`` computes the same). The rule ``"<metric> below <floor>"`` fails
when ``mean(candidate) < floor`` is significant: the one-sample test of the candidate's
values against the floor (``scipy.stats.ttest_1samp(candidate, floor,
alternative="less")``). Why a t-test and not the sign-flip test that ``ragmetrics
evaluate`` also prints: the sign-flip test's null is that each difference is as likely
``+d`` as ``-d``, which tests a margin only if the differences are symmetric about
``-tol``; the t-test tests the mean itself, its p-value and its interval agree by
construction, and it needs no resampling (a gate is deterministic). The simulation in
``tests/unit/gate/test_gate_check.py`` checks its false-fail rate on metric-like data.

**The floor is tested, not compared.** A candidate whose true mean is exactly the floor
has a sample mean below it half the time; a gate that failed on the plain mean would
fail such a candidate on every other pull request by chance. So a floor, like a
tolerance, fails only when the candidate is significantly below it, and a mean below the
floor that is not significantly below passes *with a note saying so*.

**Many claims.** Every rule, and with segments every ``worse by`` rule in every segment
that has at least ``min_segment_queries`` queries, is one claim; the p-values of all the
claims are corrected together with Holm's step-down (:func:`ragmetrics.stats.holm`), and
a claim fails when its adjusted p is below ``alpha``. The chance that a gate fails a
candidate that keeps every bar is then at most ``alpha``. Segments with fewer queries are
not tested and are named.

**The interval** of each claim is the two-sided ``1 - 2 alpha`` t interval of its
difference (``candidate - baseline``, or ``candidate - floor``), before correction: its
upper end is the one-sided ``1 - alpha`` bound, so with one claim the rule fails exactly
when the interval lies wholly beyond the tolerance (below ``-tol``, or below 0 for a
floor).
"""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..errors import InputTypeError, InputValueError
from ..evaluation import evaluate
from ..metrics.registry import parse_metric
from ..presets import settle_conventions
from ..stats import holm, paired_t_test, student_t_cdf
from ..stats.arguments import check_alpha, sample_size_warnings
from ..stats.distributions import student_t_quantile
from .baseline import (
    Baseline,
    StaleBaselineError,
    baseline_from_evaluation,
    file_sha256,
    load_baseline,
    qrels_fingerprint,
    stale_reasons,
    write_baseline,
)
from .gate_rules import GateRule, parse_rules
from .segment_file import check_segments

__all__ = [
    "GATE_SCHEMA",
    "MIN_SEGMENT_QUERIES",
    "GateResult",
    "RuleVerdict",
    "check_gate",
    "gate_decision",
    "ratchet_baseline",
]

#: The ``"schema"`` of the verdicts :meth:`GateResult.to_dict` gives (``--json``).
GATE_SCHEMA = "ragmetrics-gate"

#: A segment with fewer queries (with values on the metric) than this is not tested: a
#: t-test on a handful of bounded values says little, and one query alone none at all.
MIN_SEGMENT_QUERIES = 10


@dataclass(frozen=True)
class RuleVerdict:
    """One claim of the gate: a rule, overall or in one segment.

    Attributes
    ----------
    rule : str
        The rule as written (``"ndcg@10 worse by 0.01"``).
    metric, kind : str
    tolerance, floor : float or None
        The rule's tolerance (``worse_by``) or floor (``below``).
    segment : str or None
        None for the rule over every query.
    n_queries : int
        The queries with a value on both sides.
    baseline_mean, candidate_mean : float
    difference : float
        ``candidate_mean - baseline_mean`` (``worse_by``) or ``candidate_mean - floor``
        (``below``).
    bound : float
        What the difference is tested against: ``-tolerance``, or 0 for a floor.
    interval : (float, float)
        The two-sided ``1 - 2 alpha`` t interval of the difference (its upper end is the
        one-sided ``1 - alpha`` bound).
    statistic : float
        The t statistic of ``difference - bound``; ``±inf`` when every query's difference
        is the same.
    df : int
    p_value, p_adjusted : float
        One-sided, before and after Holm's correction over every claim of the gate.
    passed : bool
        False when ``p_adjusted < alpha``: significantly worse than the rule allows.
    note : str or None
        What the numbers alone do not say (a mean beyond the bound, not significantly).
    """

    rule: str
    metric: str
    kind: str
    tolerance: float | None
    floor: float | None
    segment: str | None
    n_queries: int
    baseline_mean: float
    candidate_mean: float
    difference: float
    bound: float
    interval: tuple[float, float]
    statistic: float
    df: int
    p_value: float
    p_adjusted: float
    passed: bool
    note: str | None = None

    def to_dict(self) -> dict:
        """The verdict as JSON values: numbers that are not finite are null."""
        return {
            "rule": self.rule, "metric": self.metric, "kind": self.kind,
            "tolerance": self.tolerance, "floor": self.floor, "segment": self.segment,
            "n_queries": self.n_queries, "baseline_mean": _finite(self.baseline_mean),
            "candidate_mean": _finite(self.candidate_mean),
            "difference": _finite(self.difference), "bound": _finite(self.bound),
            "interval": [_finite(self.interval[0]), _finite(self.interval[1])],
            "statistic": _finite(self.statistic), "df": self.df,
            "p_value": _finite(self.p_value), "p_adjusted": _finite(self.p_adjusted),
            "passed": self.passed, "note": self.note,
        }


def _finite(value):
    return float(value) if value is not None and math.isfinite(value) else None


@dataclass(frozen=True)
class GateResult:
    """What a gate decided, and why.

    Attributes
    ----------
    passed : bool
        True when no claim failed.
    verdicts : tuple of RuleVerdict
        One per rule, over every query, in the order the rules were given.
    segment_verdicts : tuple of RuleVerdict
        One per ``worse by`` rule and tested segment (segments sorted by name).
    untested_segments : tuple of dict
        ``{"segment", "metric", "rule", "n_queries"}`` of each segment with fewer than
        ``min_segment_queries`` queries for a rule: named, not tested.
    alpha : float
    min_segment_queries : int
    n_queries : int
        The queries compared (the baseline's).
    notes : tuple of str
        Warnings: too few queries, queries missing from the candidate run, another
        ragmetrics version, unsegmented queries.
    baseline, candidate : Baseline or None
        The baseline, and the candidate's values as a baseline (what
        :func:`ratchet_baseline` writes); None from :func:`gate_decision` alone.
    baseline_updated : bool
        True once :func:`ratchet_baseline` has written the candidate as the baseline.
    """

    passed: bool
    verdicts: tuple[RuleVerdict, ...]
    segment_verdicts: tuple[RuleVerdict, ...]
    untested_segments: tuple[dict, ...]
    alpha: float
    min_segment_queries: int
    n_queries: int
    notes: tuple[str, ...] = ()
    baseline: Baseline | None = None
    candidate: Baseline | None = None
    segmented: bool = False
    baseline_updated: bool = False

    @property
    def failures(self) -> tuple[RuleVerdict, ...]:
        """The claims that failed, overall first."""
        return tuple(v for v in (*self.verdicts, *self.segment_verdicts) if not v.passed)

    def to_dict(self) -> dict:
        """The verdicts as a JSON document (``ragmetrics gate --json``).

        Schema (``"schema": "ragmetrics-gate"``, ``"schema_version": 1``)::

            {"schema", "schema_version",
             "passed": bool,                      # the gate's verdict
             "alpha": float, "correction": "holm",
             "test": "one-sided paired t-test",
             "interval_confidence": float,        # 1 - 2 alpha
             "n_queries": int, "n_claims": int,   # the claims Holm corrects over
             "rules": [VERDICT, ...],             # one per rule, over every query
             "segments": null | {"min_queries": int, "tested": [VERDICT, ...],
                                 "untested": [{"segment", "metric", "rule",
                                               "n_queries"}, ...]},
             "baseline": null | {"path", "created_at", "ragmetrics_version", "run",
                                 "judgments"},
             "candidate": null | {"run"},
             "notes": [str, ...],
             "baseline_updated": bool}

        and each VERDICT is :meth:`RuleVerdict.to_dict`: ``{"rule", "metric", "kind"
        ("worse_by" or "below"), "tolerance", "floor", "segment", "n_queries",
        "baseline_mean", "candidate_mean", "difference", "bound", "interval": [low,
        high], "statistic", "df", "p_value", "p_adjusted", "passed", "note"}``; numbers
        that are not finite (a t of ±inf) are null.
        """
        baseline = None if self.baseline is None else {
            "path": self.baseline.path, "created_at": self.baseline.created_at,
            "ragmetrics_version": self.baseline.ragmetrics_version,
            "run": self.baseline.to_dict()["run"], "judgments": dict(self.baseline.judgments)}
        candidate = None if self.candidate is None else {
            "run": self.candidate.to_dict()["run"]}
        segments = None if not self.segmented else {
            "min_queries": self.min_segment_queries,
            "tested": [v.to_dict() for v in self.segment_verdicts],
            "untested": [dict(u) for u in self.untested_segments]}
        return {
            "schema": GATE_SCHEMA, "schema_version": 1, "passed": self.passed,
            "alpha": self.alpha, "correction": "holm", "test": "one-sided paired t-test",
            "interval_confidence": 1.0 - 2.0 * self.alpha, "n_queries": self.n_queries,
            "n_claims": len(self.verdicts) + len(self.segment_verdicts),
            "rules": [v.to_dict() for v in self.verdicts], "segments": segments,
            "baseline": baseline, "candidate": candidate, "notes": list(self.notes),
            "baseline_updated": self.baseline_updated,
        }

    def to_text(self) -> str:
        """The verdict first, then each claim: which failed, by how much, with its interval.

        Examples
        --------
        >>> base = pd.DataFrame({"ndcg@10": [0.5, 0.6, 0.7, 0.4]}, index=["a", "b", "c", "d"])
        >>> cand = base.sub([0.2, 0.3, 0.2, 0.25], axis=0)
        >>> print(gate_decision(base, cand, ["ndcg@10 worse by 0.01"]).to_text())
        gate FAILED: 1 of 1 check failed (alpha 0.05, Holm over 1 claim, 4 queries)
          FAIL  ndcg@10 worse by 0.01: 0.550 -> 0.312, worse by 0.237 (0.227 beyond the tolerance); 90% interval of the difference [-0.294, -0.181], p = 0.00123 (adjusted 0.00123)
        note: only 4 queries: too few queries for this claim (fewer than 25); a difference seen on so few queries often reverses on another set
        """
        claims = (*self.verdicts, *self.segment_verdicts)
        failed = self.failures
        head = (f"gate {'passed' if self.passed else 'FAILED'}: "
                + (f"{len(failed)} of {len(claims)} {_plural(len(claims), 'check')} failed"
                   if failed else f"{len(claims)} {_plural(len(claims), 'check')} passed")
                + f" (alpha {self.alpha:g}, Holm over {len(claims)} "
                f"{_plural(len(claims), 'claim')}, {self.n_queries} queries)")
        lines = [head]
        if self.baseline is not None:
            run = self.baseline.run.get("name") or self.baseline.run.get("path") or "a run"
            lines.append(f"  baseline: {self.baseline.path or '(not saved)'} ({run}, "
                         f"saved {self.baseline.created_at})")
        confidence = f"{100 * (1 - 2 * self.alpha):g}%"
        lines += [_verdict_line(v, confidence) for v in self.verdicts]
        if self.segmented:
            if self.segment_verdicts:
                lines.append(f"  segments (each of {self.min_segment_queries} queries or "
                             "more):")
                lines += ["  " + _verdict_line(v, confidence) for v in self.segment_verdicts]
            if self.untested_segments:
                shown = ", ".join(f"{u['segment']!r} ({u['n_queries']} on {u['metric']})"
                                  for u in self.untested_segments)
                lines.append(f"  not tested (fewer than {self.min_segment_queries} queries): "
                             f"{shown}")
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _verdict_line(v: RuleVerdict, confidence: str) -> str:
    where = f"segment {v.segment!r}: " if v.segment is not None else ""
    low, high = v.interval
    if v.kind == "worse_by":
        change = (f"worse by {-v.difference:.3f}" if v.difference < 0
                  else f"better by {v.difference:.3f}")
        beyond = v.bound - v.difference
        if beyond > 0:
            change += f" ({beyond:.3f} beyond the tolerance)"
        what = f"{v.baseline_mean:.3f} -> {v.candidate_mean:.3f}, {change}"
    else:
        side = "below" if v.difference < 0 else "above"
        what = f"mean {v.candidate_mean:.3f}, {abs(v.difference):.3f} {side} the floor"
    line = (f"  {'pass' if v.passed else 'FAIL'}  {where}{v.rule}: {what}; {confidence} "
            f"interval of the difference [{low:.3f}, {high:.3f}], p = {v.p_value:.3g} "
            f"(adjusted {v.p_adjusted:.3g})")
    return line + (f"; {v.note}" if v.note else "")


def _metric_column(columns, metric: str) -> str | None:
    if metric in columns:
        return metric
    wanted = str(parse_metric(metric))
    return next((c for c in columns if str(parse_metric(str(c))) == wanted), None)


def _claim(rule: GateRule, base: np.ndarray, cand: np.ndarray, alpha: float,
           segment: str | None) -> dict:
    """The one-sided t-test of one rule on paired values (at least 2 queries)."""
    n = len(cand)
    if rule.kind == "worse_by":
        reference = base - rule.threshold  # H0: mean(cand - (base - tol)) >= 0
        raw = cand - base
        bound = -rule.threshold
    else:
        reference = np.full(n, rule.threshold)
        raw = cand - rule.threshold
        bound = 0.0
    test = paired_t_test(reference, cand)
    p = student_t_cdf(test.statistic, test.df)
    difference = float(raw.mean())
    half = (0.0 if not math.isfinite(test.statistic)
            else float(student_t_quantile(1.0 - alpha, test.df)) * float(raw.std(ddof=1))
            / math.sqrt(n))
    return {"rule": str(rule), "metric": rule.metric, "kind": rule.kind,
            "tolerance": rule.tolerance, "floor": rule.floor, "segment": segment,
            "n_queries": n, "baseline_mean": float(base.mean()),
            "candidate_mean": float(cand.mean()), "difference": difference, "bound": bound,
            "interval": (difference - half, difference + half),
            "statistic": test.statistic, "df": test.df, "p_value": float(p)}


def _paired(baseline: pd.DataFrame, candidate: pd.DataFrame, column: str, rows=None):
    base = baseline[column].to_numpy(dtype=np.float64)
    cand = candidate[column].to_numpy(dtype=np.float64)
    keep = ~(np.isnan(base) | np.isnan(cand))
    if rows is not None:
        keep &= rows
    return base[keep], cand[keep]


def gate_decision(baseline_values: pd.DataFrame, candidate_values: pd.DataFrame, rules, *,
                  segments=None, alpha: float = 0.05,
                  min_segment_queries: int = MIN_SEGMENT_QUERIES) -> GateResult:
    """Decide the rules on per-query values: the statistics of :func:`check_gate`, alone.

    Parameters
    ----------
    baseline_values, candidate_values : pandas.DataFrame
        One row per query (the same index, in any order), one column per metric; NaN
        where a query has no value (left out of that metric's claims).
    rules : str, GateRule or a sequence of them
        :func:`ragmetrics.gate.parse_rule`'s forms.
    segments : mapping or path, optional
        ``{query_id: segment}`` or a segments file (:func:`ragmetrics.gate.read_segments`).
    alpha : float, default 0.05
        The gate's false-fail rate: the chance of failing a candidate that keeps every
        bar, over all the claims (Holm).
    min_segment_queries : int, default :data:`MIN_SEGMENT_QUERIES`
        Segments with fewer queries are named, not tested.

    Returns
    -------
    GateResult
        Without ``baseline`` and ``candidate`` (:func:`check_gate` adds them).

    Examples
    --------
    A flat average hides a collapse: the "faq" queries drop by 0.3, the "howto" ones rise
    by 0.3, and the mean is unchanged; the segment fails.

    >>> ids = [f"q{i}" for i in range(20)]
    >>> base = pd.DataFrame({"ndcg@10": [0.5 + 0.01 * (i % 5) for i in range(20)]}, index=ids)
    >>> cand = base.copy()
    >>> cand.iloc[:10] -= 0.3
    >>> cand.iloc[10:] += 0.3
    >>> segments = {q: "faq" if i < 10 else "howto" for i, q in enumerate(ids)}
    >>> result = gate_decision(base, cand, ["ndcg@10 worse by 0.01"], segments=segments)
    >>> result.passed, [(v.segment, v.passed) for v in result.failures]
    (False, [('faq', False)])
    """
    rules = parse_rules(rules)
    alpha = check_alpha(alpha)
    if (isinstance(min_segment_queries, bool) or not isinstance(min_segment_queries, int)
            or min_segment_queries < 2):
        raise InputValueError("min_segment_queries must be an int of 2 or more (a t-test "
                              f"needs 2 queries), got {min_segment_queries!r}")
    for name, frame in (("baseline_values", baseline_values),
                        ("candidate_values", candidate_values)):
        if not isinstance(frame, pd.DataFrame):
            raise InputTypeError(f"{name} must be a DataFrame (queries x metrics), got "
                                 f"{type(frame).__name__}")
    base_ids = pd.Index([str(q) for q in baseline_values.index])
    cand_ids = pd.Index([str(q) for q in candidate_values.index])
    if base_ids.has_duplicates or set(base_ids) != set(cand_ids) or cand_ids.has_duplicates:
        raise InputValueError("baseline_values and candidate_values must hold the same "
                              "queries, each once")
    baseline_values = baseline_values.set_axis(base_ids)
    candidate_values = candidate_values.set_axis(cand_ids).reindex(base_ids)
    columns = []
    for rule in rules:
        column = _metric_column(baseline_values.columns, rule.metric)
        other = _metric_column(candidate_values.columns, rule.metric)
        if column is None or other is None:
            raise InputValueError(f"rule {str(rule)!r}: {rule.metric} has no values "
                                  f"(columns: {', '.join(map(str, baseline_values.columns))})")
        candidate_values = candidate_values.rename(columns={other: column})
        columns.append(column)
    claims, notes = [], []
    for rule, column in zip(rules, columns, strict=True):
        base, cand = _paired(baseline_values, candidate_values, column)
        if len(cand) < 2:
            raise InputValueError(f"rule {str(rule)!r}: {len(cand)} queries have a value on "
                                  "both sides; a test needs at least 2")
        claims.append(_claim(rule, base, cand, alpha, None))
        for warning in sample_size_warnings(len(cand)):
            if warning not in notes:
                notes.append(warning)
    segment_claims, untested = [], []
    segmented = segments is not None
    if segmented:
        segments = check_segments(segments)
        labels = np.array([segments.get(q) for q in base_ids], dtype=object)
        unsegmented = int(sum(label is None for label in labels))
        if unsegmented:
            notes.append(f"{unsegmented} of {len(base_ids)} queries belong to no segment "
                         "(they count in the overall rules only)")
        unknown = len(set(segments) - set(base_ids))
        if unknown:
            notes.append(f"the segments file lists {unknown} queries that the baseline "
                         "does not have (ignored)")
        names = sorted({label for label in labels if label is not None})
        for rule, column in zip(rules, columns, strict=True):
            if rule.kind != "worse_by":
                continue
            for name in names:
                base, cand = _paired(baseline_values, candidate_values, column,
                                     labels == name)
                if len(cand) < min_segment_queries:
                    untested.append({"segment": name, "metric": rule.metric,
                                     "rule": str(rule), "n_queries": len(cand)})
                    continue
                segment_claims.append(_claim(rule, base, cand, alpha, name))
    everything = claims + segment_claims
    adjusted = holm([c["p_value"] for c in everything])
    verdicts = []
    for claim, p_adjusted in zip(everything, adjusted, strict=True):
        passed = not p_adjusted < alpha
        verdicts.append(RuleVerdict(**claim, p_adjusted=float(p_adjusted), passed=passed,
                                    note=_note(claim, passed)))
    return GateResult(
        passed=all(v.passed for v in verdicts), verdicts=tuple(verdicts[:len(claims)]),
        segment_verdicts=tuple(verdicts[len(claims):]), untested_segments=tuple(untested),
        alpha=alpha, min_segment_queries=min_segment_queries, n_queries=len(base_ids),
        notes=tuple(notes), segmented=segmented)


def _note(claim: dict, passed: bool) -> str | None:
    if passed and claim["difference"] < claim["bound"]:
        what = ("below the floor" if claim["kind"] == "below"
                else "worse than the tolerance allows")
        return (f"the mean is {what}, but not significantly: passed (more queries would "
                "tell)")
    return None


def check_gate(baseline, candidate_run, qrels, rules, *, segments=None, alpha: float = 0.05,
               min_segment_queries: int = MIN_SEGMENT_QUERIES, name: str | None = None,
               run_path=None, preset: str | None = None, **conventions) -> GateResult:
    """Gate a candidate run against a baseline: refuse a stale baseline, then test the rules.

    The candidate is evaluated on the baseline's metrics, against ``qrels``, under the
    baseline's conventions (or under ``preset`` and ``conventions`` when given, which
    must then be the baseline's). The baseline is **stale**, and refused with a
    :class:`~ragmetrics.gate.StaleBaselineError` saying what differs and how to refresh
    it, when the judgments' fingerprint differs from the one it was saved with
    (:func:`~ragmetrics.gate.qrels_fingerprint`), when the conventions or the preset
    differ, when a rule names a metric the baseline does not have, or when the queries
    the candidate is scored on are not the baseline's (a judged query missing from the
    baseline, or one the candidate's conventions left out). The rules are then decided
    by :func:`gate_decision` (see the module's introduction for the test).

    Parameters
    ----------
    baseline : Baseline or path
        A :class:`~ragmetrics.gate.Baseline`, or its file (:func:`load_baseline`).
    candidate_run
        The run to gate, in any form :func:`ragmetrics.evaluate` takes.
    qrels
        The judgments, in any form :func:`ragmetrics.evaluate` takes.
    rules : str, GateRule or a sequence of them
        ``"<metric> worse by <tolerance>"``, ``"<metric> below <floor>"``.
    segments : mapping or path, optional
        ``{query_id: segment}``, or a segments file: each ``worse by`` rule is tested
        in each segment too.
    alpha, min_segment_queries
        As in :func:`gate_decision`.
    name, run_path : optional
        The candidate's name and file, kept in ``result.candidate.run``.
    preset, **conventions
        As in :func:`ragmetrics.evaluate`; none to use the baseline's.

    Returns
    -------
    GateResult

    Examples
    --------
    >>> from ragmetrics.gate import save_baseline
    >>> qrels = {f"q{i}": {f"d{i}": 1} for i in range(30)}
    >>> good = {f"q{i}": [f"d{i}", "x"] for i in range(30)}
    >>> base = save_baseline(good, qrels, "base.json", metrics=["mrr", "recall@1"])
    >>> worse = {f"q{i}": ["x", f"d{i}"] if i % 2 else [f"d{i}"] for i in range(30)}
    >>> result = check_gate("base.json", worse, qrels, ["mrr worse by 0.05"])
    >>> result.passed, round(result.verdicts[0].difference, 2)
    (False, -0.25)
    >>> check_gate("base.json", good, {**qrels, "q0": {"d0": 2}}, ["mrr worse by 0.05"])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ragmetrics.gate.baseline.StaleBaselineError: stale baseline base.json: the judgments differ: the baseline was scored against 30 queries and 30 judgments (fingerprint ...), these are 30 queries and 30 judgments (fingerprint ...). Refresh it: evaluate the baseline run again with --save-baseline (ragmetrics evaluate QRELS BASELINE_RUN --metrics ... --save-baseline base.json), and commit the new file
    """
    if not isinstance(baseline, Baseline):
        baseline = load_baseline(baseline)
    rules = parse_rules(rules)
    alpha = check_alpha(alpha)
    fingerprint = qrels_fingerprint(qrels)
    given = bool(conventions) or preset is not None
    settled = settle_conventions("check_gate", preset, conventions) if given else None
    reasons = stale_reasons(baseline, judgments=fingerprint, conventions=settled,
                            preset=preset if given else baseline.preset,
                            metrics=[r.metric for r in rules])
    if reasons:
        raise _stale(baseline, reasons)
    notes = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluation = evaluate(candidate_run, qrels, list(baseline.metrics),
                              preset=baseline.preset, **baseline.conventions.as_dict())
    for warning in caught:
        message = str(warning.message)
        if message not in notes:
            notes.append(message)
    run = {"name": name, "provenance": getattr(candidate_run, "provenance", None)}
    if run_path is not None:
        run.update(path=os.fspath(run_path), sha256=file_sha256(run_path))
    candidate = baseline_from_evaluation(evaluation, qrels, run=run, fingerprint=fingerprint)
    reasons = stale_reasons(baseline, query_ids=candidate.per_query.index)
    if reasons:
        raise _stale(baseline, reasons)
    import ragmetrics  # the version (the package is imported by the time a gate runs)

    if baseline.ragmetrics_version != ragmetrics.__version__:
        notes.append(f"the baseline was saved by ragmetrics {baseline.ragmetrics_version}, "
                     f"this is {ragmetrics.__version__}: if a metric's computation changed "
                     "between them, save the baseline again")
    result = gate_decision(baseline.per_query, candidate.per_query[list(baseline.metrics)],
                           rules, segments=segments, alpha=alpha,
                           min_segment_queries=min_segment_queries)
    return replace(result, notes=(*result.notes, *notes), baseline=baseline,
                   candidate=candidate)


def _stale(baseline: Baseline, reasons: list[str]) -> StaleBaselineError:
    where = baseline.path or "(not saved)"
    return StaleBaselineError(
        f"stale baseline {where}: {'; '.join(reasons)}. Refresh it: evaluate the baseline "
        "run again with --save-baseline (ragmetrics evaluate QRELS BASELINE_RUN --metrics "
        f"... --save-baseline {where}), and commit the new file")


def ratchet_baseline(result: GateResult, path=None) -> GateResult:
    """Write the candidate as the new baseline, only if the gate passed (a ratchet).

    A failed gate never replaces its baseline: the bar is not lowered by a run that did
    not clear it. ``path`` defaults to the baseline's own file.

    Returns
    -------
    GateResult
        ``result`` with ``baseline_updated`` True when the file was written.

    Examples
    --------
    >>> base = pd.DataFrame({"mrr": [0.5, 0.6, 0.7]}, index=["a", "b", "c"])
    >>> failed = gate_decision(base, base - 0.4, ["mrr worse by 0.01"])
    >>> ratchet_baseline(failed, "new.json").baseline_updated
    False
    """
    if not result.passed:
        return result
    if result.candidate is None:
        raise InputValueError("this result has no candidate values to save (it comes from "
                              "gate_decision alone): use check_gate")
    target = path if path is not None else (result.baseline.path if result.baseline else None)
    if target is None:
        raise InputValueError("ratchet_baseline: give the path to write the new baseline to")
    candidate = replace(result.candidate, created_at=_now())
    written = write_baseline(candidate, target)
    return replace(result, candidate=written, baseline_updated=True)


def _now() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="seconds")

