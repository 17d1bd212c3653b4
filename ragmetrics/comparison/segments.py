r"""Segments of the queries: each system's mean and its difference with the baseline, per segment.

A flat overall mean can hide a collapse: a new system that loses 0.3 on the multi-hop
questions and gains 0.3 on the others scores the same on average. With ``segments`` (a
label per query: ``{query_id: segment}`` or a pandas Series indexed by query id, such
as a column of a data set's queries) :func:`~ragmetrics.comparison.compare` adds
:attr:`ragmetrics.Comparison.segments`, one row per metric, segment and system:

- each system's mean over the segment's queries, with its bootstrap interval at
  ``confidence`` (the segment's queries resampled on their own);
- each other system's difference with the baseline, its paired bootstrap interval and
  its paired randomization test. **The family** of these claims is its own: every
  segment x every metric x every system against the baseline (and, with
  ``segment_weights="equal"``, the overall difference of every metric and system),
  corrected together by ``correction``; the difference intervals are at the level of
  that correction (as :func:`~ragmetrics.comparison.paired_tests.difference_level`
  says). Adding segments never changes the overall verdicts of ``.tests``;
- ``mde``: the minimum detectable effect of the segment's queries
  (:func:`ragmetrics.stats.power.minimum_detectable_effect`, 80% power, at ``alpha``
  per claim), beside the overall one.

**The overall row** (segment :data:`ALL_SEGMENTS`) says how the overall mean weights the
segments. ``segment_weights="query"`` (the default): every query counts once, so a
segment counts by its size; the overall mean is the plain mean of ``.summary`` and its
test that of ``.tests`` (copied, from the family of ``.tests``). ``"equal"``: every
segment counts the same, the overall mean is the mean of the segment means,

.. math:: \bar x_{eq} = \frac{1}{S} \sum_s \bar x_s,

its interval the further, at each end, of Student's ``m ± t se`` with the stratified
standard error :math:`se^2 = \sum_s s_s^2 / (S^2 n_s)` (``df = Σ (n_s - 1)``) and of
the percentiles of the stratified bootstrap (each segment resampled on its own, the
means averaged), within the metric's range; and its test the sign-flip test of the
weighted differences :math:`S^{-1} n_s^{-1} n\, d_q` (whose plain mean is the weighted
mean), in the segment family.

Two notes join the comparison's warnings: a segment where a system differs from the
baseline significantly, and in the direction opposite to the overall difference (or
where the overall difference is not significant); and a segment too small to detect the
overall minimum detectable effect, where its claims are not significant.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..errors import InputTypeError, InputValueError
from ..stats.distributions import student_t_quantile
from ..stats.intervals import bootstrap_interval
from ..stats.power import DEFAULT_POWER, minimum_detectable_effect
from ..stats.resampling import bootstrap_means, finite_column_groups
from ..stats.verdicts import randomization_verdicts
from ..validation import check_choice
from .paired_tests import UNDECIDED, difference_level

__all__ = ["ALL_SEGMENTS", "SEGMENT_WEIGHTS", "check_segment_weights", "check_segments",
           "segment_analysis", "segment_labels"]

#: How the overall row of :attr:`ragmetrics.Comparison.segments` weights the segments:
#: every query once ("query", the plain mean), or every segment the same ("equal").
SEGMENT_WEIGHTS = ("query", "equal")

#: The segment label of the overall rows of :attr:`ragmetrics.Comparison.segments`; no
#: segment of the data may have it.
ALL_SEGMENTS = "(all)"

_COLUMNS = ["n_queries", "mean", "low", "high", "difference", "difference_low",
            "difference_high", "p_randomization", "p_adjusted", "significant", "verdict",
            "mde", "overall_mde"]


def check_segment_weights(weights) -> str:
    return check_choice(weights, SEGMENT_WEIGHTS, "segment_weights")


def check_segments(segments) -> pd.Series | None:
    """``segments`` as a Series of labels indexed by query id (text), or None.

    A mapping ``{query_id: segment}`` or a Series indexed by query id (a column of a data
    set's queries, :func:`ragmetrics.io.read_dataset`:
    ``dataset.queries.set_index("query_id")["kind"]``). A label must be a non-empty
    value, not :data:`ALL_SEGMENTS`.

    Examples
    --------
    >>> check_segments({"q1": "easy", 2: "hard"}).to_dict()
    {'q1': 'easy', '2': 'hard'}
    """
    if segments is None:
        return None
    if isinstance(segments, pd.Series):
        series, where = segments, "segments"
    elif isinstance(segments, Mapping):
        series, where = pd.Series(dict(segments), dtype=object), "segments"
    else:
        raise InputTypeError("segments must be a mapping {query_id: segment} or a pandas Series "
                             "indexed by query id (a data set's column: "
                             "dataset.queries.set_index('query_id')[column]); got "
                             f"{type(segments).__name__}")
    if series.empty:
        raise InputValueError("segments is empty: give each compared query a segment")
    index = series.index.map(str)
    if index.duplicated().any():
        raise InputValueError(f"{where} gives query {index[index.duplicated()][0]!r} two "
                              "segments; give each query one")
    bad = series.isna().to_numpy() | (series.astype(str).str.strip() == "").to_numpy()
    if bad.any():
        raise InputValueError(f"{where}: query {index[bad][0]!r} has no segment "
                              f"({series.iloc[int(np.flatnonzero(bad)[0])]!r})")
    labels = series.astype(str)
    if (labels == ALL_SEGMENTS).any():
        raise InputValueError(f"{where}: {ALL_SEGMENTS!r} is the label of the overall rows; "
                              f"rename that segment (query {index[labels == ALL_SEGMENTS][0]!r})")
    return pd.Series(labels.to_numpy(), index=index, name="segment")


def segment_labels(segments: pd.Series, queries: pd.Index) -> np.ndarray:
    """Each compared query's segment, in the order of ``queries``; every one must have one."""
    labels = segments.reindex(queries.map(str))
    missing = labels.isna().to_numpy()
    if missing.any():
        ids = [str(q) for q in queries[missing]]
        shown = ", ".join(map(repr, ids[:5])) + (", ..." if len(ids) > 5 else "")
        raise InputValueError(f"segments gives no segment to {len(ids)} of the "
                              f"{len(queries)} compared queries: {shown}; give each a "
                              "segment")
    return labels.to_numpy(dtype=object)


def _seed_of(seed: int, k: int) -> int:
    return int(np.random.SeedSequence([seed, k]).generate_state(1)[0])


def _grouped(matrix: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    out = np.full((n_resamples, matrix.shape[1]), np.nan)
    for rows, cols in finite_column_groups(matrix):
        out[:, cols] = bootstrap_means(matrix[rows][:, cols], n_resamples=n_resamples,
                                       seed=seed)
    return out


def _stratified_interval(parts, boot, confidence: float, bounds):
    """The equal-weight mean's interval (see the module) from each segment's values."""
    S = len(parts)
    mean = np.nanmean([np.nanmean(p, axis=0) for p in parts], axis=0)
    var = np.zeros_like(mean)
    df = np.zeros_like(mean)
    for p in parts:
        n = np.isfinite(p).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            v = np.where(n > 1, np.nanvar(np.where(n > 1, p, 0.0), axis=0, ddof=1), 0.0)
        var += np.where(n > 0, v / np.maximum(n, 1), 0.0) / S**2
        df += np.maximum(n - 1, 0)
    tail = (1 - confidence) / 2
    se = np.sqrt(var)
    t = np.where(df > 0, student_t_quantile(1 - tail, np.maximum(df, 1.0)), 0.0)
    low = np.minimum(mean - t * se, np.nanquantile(boot, tail, axis=0))
    high = np.maximum(mean + t * se, np.nanquantile(boot, 1 - tail, axis=0))
    flat = se == 0
    low[flat], high[flat] = mean[flat], mean[flat]
    return mean, np.clip(low, bounds[0], bounds[1]), np.clip(high, bounds[0], bounds[1])


def segment_analysis(per_query, names, metrics, specs, labels: np.ndarray, *, values,
                     differences, value_bounds, difference_bounds, summary, tests,
                     weights: str, alpha: float, confidence: float, correction: str,
                     n_resamples: int, max_resamples: int, seed: int):
    """:attr:`ragmetrics.Comparison.segments` and its notes: ``(frame, notes)``.

    ``values`` and ``differences`` are the matrices of
    :class:`~ragmetrics.comparison.bootstrap_pass.PairedColumns` (queries x (system,
    metric), system-major; each other system minus the baseline), ``summary`` and
    ``tests`` the comparison's tables.
    """
    n_metrics, others = len(metrics), list(names[1:])
    segments = list(dict.fromkeys(labels))
    masks = [labels == s for s in segments]
    family, seg_values, seg_diffs = [], [], []
    for k, mask in enumerate(masks):
        v, d = values[mask], differences[mask]
        means = _grouped(v, n_resamples, _seed_of(seed, k))
        if np.isfinite(v).all() and d.shape[1]:
            others_means = means[:, n_metrics:].reshape(n_resamples, -1, n_metrics)
            d_means = (others_means - means[:, None, :n_metrics]).reshape(n_resamples, -1)
        else:
            d_means = _grouped(d, n_resamples, _seed_of(seed, k))
        seg_values.append((v, means))
        seg_diffs.append((d, d_means))
        family.append(np.where(mask[:, None], differences, np.nan))
    equal = weights == "equal"
    if equal and differences.shape[1]:
        n = len(labels)
        scale = np.zeros(n)
        for mask in masks:
            scale[mask] = n / (len(segments) * mask.sum())
        family.append(differences * scale[:, None])
    matrix = (np.column_stack(family) if family and differences.shape[1]
              else np.empty((len(labels), 0)))
    decisions = randomization_verdicts(matrix, alpha=alpha, correction=correction,
                                       n_resamples=n_resamples, max_resamples=max_resamples,
                                       seed=seed)
    level = difference_level(decisions, confidence, correction)
    width = differences.shape[1]

    rows, index = [], []
    mde_alpha = alpha
    overall_mde = {}
    for j, system in enumerate(others):
        for m, metric in enumerate(metrics):
            d = differences[:, j * n_metrics + m]
            d = d[np.isfinite(d)]
            overall_mde[(metric, system)] = minimum_detectable_effect(
                d, alpha=mde_alpha, power=DEFAULT_POWER) if len(d) else math.nan

    def add(segment, k_seg, mean_row, diff_row):
        for m, (metric, spec) in enumerate(zip(metrics, specs, strict=True)):
            for i, system in enumerate(names):
                col = i * n_metrics + m
                row = dict.fromkeys(_COLUMNS, math.nan)
                row.update(n_queries=mean_row["n"][col], mean=mean_row["mean"][col],
                           low=mean_row["low"][col], high=mean_row["high"][col],
                           significant=False, verdict="")
                if i > 0:
                    dc = (i - 1) * n_metrics + m
                    row.update(diff_row(dc, metric, system, spec))
                rows.append(row)
                index.append((metric, segment, system))

    for k, segment in enumerate(segments):
        v, means = seg_values[k]
        d, d_means = seg_diffs[k]
        low, high = bootstrap_interval(v, means, confidence=confidence, bounds=value_bounds)
        n = np.isfinite(v).sum(axis=0)
        with np.errstate(invalid="ignore"):
            mean = np.where(n > 0, np.nansum(v, axis=0) / np.maximum(n, 1), np.nan)
        if width:
            d_low, d_high = bootstrap_interval(d, d_means, confidence=level,
                                               bounds=difference_bounds)

        def diff_row(dc, metric, system, spec, k=k, d=d, d_low=d_low if width else None,
                     d_high=d_high if width else None):
            column = k * width + dc
            x = d[:, dc][np.isfinite(d[:, dc])]
            return _claim(x.mean() if len(x) else math.nan, d_low[dc], d_high[dc], decisions,
                          column, system, names[0], spec) | {
                "mde": minimum_detectable_effect(x, alpha=mde_alpha) if len(x) else math.nan,
                "overall_mde": overall_mde[(metric, system)]}

        add(segment, k, {"n": n, "mean": mean, "low": low, "high": high}, diff_row)

    # The overall rows: the plain mean (the comparison's own numbers), or segments equal.
    n_all = np.isfinite(values).sum(axis=0)
    if equal:
        boot = np.nanmean([means for _, means in seg_values], axis=0)
        mean, low, high = _stratified_interval([v for v, _ in seg_values], boot, confidence,
                                               value_bounds)
        if width:
            d_boot = np.nanmean([dm for _, dm in seg_diffs], axis=0)
            d_mean, d_low, d_high = _stratified_interval([d for d, _ in seg_diffs], d_boot,
                                                         level, difference_bounds)

        def overall_row(dc, metric, system, spec):
            column = len(segments) * width + dc
            return _claim(d_mean[dc], d_low[dc], d_high[dc], decisions, column, system,
                          names[0], spec) | {"mde": overall_mde[(metric, system)],
                                             "overall_mde": overall_mde[(metric, system)]}
    else:
        order = [(m, s) for s in names for m in metrics]
        mean = np.array([summary.loc[key, "mean"] for key in order])
        low = np.array([summary.loc[key, "low"] for key in order])
        high = np.array([summary.loc[key, "high"] for key in order])

        def overall_row(dc, metric, system, spec):
            t = tests.loc[(metric, system)]
            return {"difference": t["difference"], "difference_low": t["low"],
                    "difference_high": t["high"], "p_randomization": t["p_randomization"],
                    "p_adjusted": t["p_adjusted"], "significant": bool(t["significant"]),
                    "verdict": t["verdict"], "mde": overall_mde[(metric, system)],
                    "overall_mde": overall_mde[(metric, system)]}

    add(ALL_SEGMENTS, None, {"n": n_all, "mean": mean, "low": low, "high": high}, overall_row)
    frame = pd.DataFrame(rows, columns=_COLUMNS)
    frame.index = pd.MultiIndex.from_tuples(index, names=["metric", "segment", "system"])
    order = {m: k for k, m in enumerate(metrics)}
    seg_order = {s: k for k, s in enumerate([*segments, ALL_SEGMENTS])}
    keys = [(order[m], seg_order[s]) for m, s, _ in frame.index]
    frame = frame.iloc[sorted(range(len(keys)), key=keys.__getitem__)]
    frame = frame.astype({"n_queries": np.int64, "significant": bool})
    notes = _opposite_notes(frame, names, metrics, specs) + _small_notes(
        frame, names, metrics, alpha, len(labels))
    return frame, level, tuple(notes)


def _claim(difference, low, high, decisions, column, system, baseline, spec) -> dict:
    p_adjusted = float(decisions.p_adjusted[column])
    significant = bool(decisions.significant[column])
    if not np.isfinite(p_adjusted):
        verdict = "not tested (no query with both values)"
    elif not decisions.decided[column]:
        verdict = UNDECIDED
    elif not significant:
        verdict = "no significant difference"
    else:
        verdict = (system if (difference > 0) == spec.info.higher_is_better else baseline)
        verdict += " better"
    return {"difference": float(difference), "difference_low": float(low),
            "difference_high": float(high), "p_randomization": float(decisions.p_value[column]),
            "p_adjusted": p_adjusted, "significant": significant, "verdict": verdict}


def _opposite_notes(frame, names, metrics, specs) -> list[str]:
    """Segments where a system differs significantly, against the overall direction."""
    from ..reports.formatting import format_interval, format_signed

    found = []
    for metric, spec in zip(metrics, specs, strict=True):
        higher = spec.info.higher_is_better
        for system in names[1:]:
            overall = frame.loc[(metric, ALL_SEGMENTS, system)]
            sign = np.sign(overall["difference"]) if overall["significant"] else 0.0
            for segment in frame.loc[metric].index.get_level_values("segment").unique():
                if segment == ALL_SEGMENTS:
                    continue
                row = frame.loc[(metric, segment, system)]
                if not row["significant"] or np.sign(row["difference"]) == sign:
                    continue
                word = "better" if (row["difference"] > 0) == higher else "worse"
                if sign == 0:
                    first = (f"{system} does not differ significantly from {names[0]} overall "
                             f"on {metric} ({format_signed(overall['difference'])})")
                else:
                    first = (f"{system} is {'worse' if word == 'better' else 'better'} than "
                             f"{names[0]} overall on {metric} "
                             f"({format_signed(overall['difference'])})")
                found.append(
                    f"{first} but {word} on segment {segment!r} by "
                    + format_interval(row["difference"], row["difference_low"],
                                      row["difference_high"], signed=True)
                    + f", p {_p_text(row['p_adjusted'])} (corrected over the segments): "
                    "an average over the segments hides it")
    return found


def _p_text(p: float) -> str:
    """``= 0.0123``, or ``< 0.0001`` below it."""
    return "< 0.0001" if p < 0.0001 else f"= {p:.4f}"


def _small_notes(frame, names, metrics, alpha: float, n_all: int) -> list[str]:
    """Segments too small to detect the overall minimum detectable effect."""
    from ..reports.formatting import format_number

    found = []
    segments = [s for s in frame.index.get_level_values("segment").unique()
                if s != ALL_SEGMENTS]
    for segment in segments:
        weak = []
        for metric in metrics:
            for system in names[1:]:
                row = frame.loc[(metric, segment, system)]
                if row["significant"] or not np.isfinite(row["overall_mde"]):
                    continue
                if not np.isfinite(row["mde"]) or row["mde"] > row["overall_mde"]:
                    weak.append((metric, system, row))
        if not weak:
            continue
        metric, system, row = weak[0]
        n = int(row["n_queries"])
        detects = ("cannot estimate one (fewer than 2 queries)" if not np.isfinite(row["mde"])
                   else f"detects differences of {format_number(row['mde'])} or more")
        found.append(
            f"segment {segment!r} ({n} of {n_all} queries) is too small to detect the overall "
            f"minimum detectable effect: on {metric} ({system} vs {names[0]}) it {detects}, "
            f"where all the queries detect {format_number(row['overall_mde'])} "
            f"({DEFAULT_POWER:.0%} power, alpha = {alpha:g} per claim); its 'no significant "
            f"difference' on {len(weak)} claim{'s' if len(weak) != 1 else ''} says little")
    return found
