"""Several systems at once: every pair of systems under one correction, a summary matrix, a ranking.

:func:`~ragmetrics.comparison.compare` tests each system against the baseline
(``pairs="baseline"``, ``k - 1`` pairs for ``k`` systems) or every pair of systems
(``pairs="all"``, ``k (k - 1) / 2`` pairs). Either way the claims form **one family**:
every pair times every metric, ``m = pairs x metrics`` claims, whose randomization
p-values are corrected together (Holm by default, Benjamini-Hochberg with
``correction="bh"``), so the baseline rows of ``.tests`` carry the p-values of the whole
family: asking for every pair makes each claim stricter, as it should.

The pair columns are ordered by their first system (the *anchor*): the baseline's pairs
first (the columns of :mod:`~ragmetrics.comparison.bootstrap_pass`, unchanged), then
those of the second system with the systems after it, and so on; each pair is
``later minus earlier`` in the order of the systems (the baseline first).

- :func:`all_pair_columns`: the per-query differences and bootstrap means of the pairs
  that do not involve the baseline, from the same resamples;
- :func:`pairwise_frame`: :attr:`ragmetrics.Comparison.pairwise`, one row per metric and
  pair;
- :func:`letter_display`: the compact letter display of one metric (Piepho's
  insert-and-absorb: two systems that share a letter are not significantly different);
- :func:`summary_matrix` and :func:`ranking_frame`: what
  :meth:`ragmetrics.Comparison.summary_matrix` and :meth:`~ragmetrics.Comparison.ranking`
  return.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product
from string import ascii_lowercase

import numpy as np
import pandas as pd

from ..stats.resampling import bootstrap_means, finite_column_groups
from ..stats.rounding import paired_differences
from ..stats.verdicts import RandomizationVerdicts
from ..validation import check_choice
from .paired_tests import paired_tests_frame

__all__ = ["PAIRS", "all_pair_columns", "check_pairs", "letter_display", "pair_list",
           "pairwise_frame", "ranking_frame", "slice_decisions", "summary_matrix"]

#: The pairs :func:`~ragmetrics.comparison.compare` tests: each system against the
#: baseline, or every pair of systems.
PAIRS = ("baseline", "all")

# The marks of the summary matrix, for a system against the baseline.
_BETTER, _WORSE = "▲", "▼"


def check_pairs(pairs) -> str:
    """``pairs`` checked: one of :data:`PAIRS`."""
    return check_choice(pairs, PAIRS, "pairs")


def pair_list(names, pairs: str) -> list[tuple[int, int]]:
    """The pairs ``(earlier, later)`` of system positions, anchor by anchor.

    Examples
    --------
    >>> pair_list(["a", "b", "c"], "all")
    [(0, 1), (0, 2), (1, 2)]
    >>> pair_list(["a", "b", "c"], "baseline")
    [(0, 1), (0, 2)]
    """
    k = len(names)
    anchors = range(k - 1) if pairs == "all" else range(min(1, k - 1))
    return [(i, j) for i in anchors for j in range(i + 1, k)]


def all_pair_columns(values: np.ndarray, value_means: np.ndarray, n_metrics: int,
                     n_systems: int, bounds, n_resamples: int, seed: int):
    """The per-query differences, their bootstrap means and bounds, of the pairs whose
    anchor is not the baseline: ``(differences, means, (low, high))``.

    A pair's bootstrap means are those of its two systems' columns subtracted (the same
    resamples), wherever both are defined on the same queries; elsewhere (a "skip"
    policy) its differences are resampled on the queries where both have a value.
    """
    blocks, derived = [], []
    for i in range(1, n_systems - 1):
        for j in range(i + 1, n_systems):
            a = values[:, i * n_metrics:(i + 1) * n_metrics]
            b = values[:, j * n_metrics:(j + 1) * n_metrics]
            blocks.append(paired_differences(a, b))
            derived.append(value_means[:, j * n_metrics:(j + 1) * n_metrics]
                           - value_means[:, i * n_metrics:(i + 1) * n_metrics])
    if not blocks:
        empty = np.empty((len(values), 0))
        return empty, np.empty((n_resamples, 0)), (np.empty(0), np.empty(0))
    differences = np.column_stack(blocks)
    means = np.column_stack(derived)
    # A column's values were resampled on its finite rows: two columns with the same
    # finite rows shared the resamples, and their means subtract; others are redone.
    redo = [c for c, (i, j, metric) in enumerate(_later_pairs(n_metrics, n_systems))
            if not np.array_equal(np.isfinite(values[:, i * n_metrics + metric]),
                                  np.isfinite(values[:, j * n_metrics + metric]))]
    if redo:
        sub = differences[:, redo]
        means[:, redo] = np.nan
        for rows, cols in finite_column_groups(sub):
            means[:, [redo[c] for c in cols]] = bootstrap_means(
                sub[rows][:, cols], n_resamples=n_resamples, seed=seed)
    low, high = bounds
    n_pairs = differences.shape[1] // n_metrics
    return differences, means, (np.tile(low - high, n_pairs), np.tile(high - low, n_pairs))


def _later_pairs(n_metrics: int, n_systems: int) -> list[tuple[int, int, int]]:
    """``(i, j, metric)`` of each column of the pairs whose anchor is not the baseline."""
    return [(i, j, metric) for i in range(1, n_systems - 1) for j in range(i + 1, n_systems)
            for metric in range(n_metrics)]


def slice_decisions(decisions: RandomizationVerdicts, columns) -> RandomizationVerdicts:
    """The verdicts of some columns of a family, each still corrected over the family."""
    arrays = {name: getattr(decisions, name)[columns]
              for name in ("p_value", "mc_error", "n_patterns", "exact", "p_adjusted",
                           "significant", "decided", "smallest_adjusted",
                           "smallest_adjusted_at_cap")}
    return replace(decisions, **arrays)


def pairwise_frame(names, metrics, specs, per_query, differences, means,
                   decisions: RandomizationVerdicts, level: float, bounds,
                   pairs: str) -> pd.DataFrame:
    """:attr:`ragmetrics.Comparison.pairwise`: one row per metric and pair, index
    (``metric``, ``system``, ``other``), the difference ``system - other``.

    ``differences`` and ``means`` hold every pair's columns, anchor by anchor
    (:func:`pair_list`), ``decisions`` the verdicts of the whole family.
    """
    frames, start, n_metrics = [], 0, len(metrics)
    anchors = range(len(names) - 1) if pairs == "all" else range(min(1, len(names) - 1))
    for i in anchors:
        width = (len(names) - 1 - i) * n_metrics
        columns = slice(start, start + width)
        frame = paired_tests_frame(list(names[i:]), metrics, specs, per_query,
                            differences[:, columns], means[:, columns],
                            slice_decisions(decisions, columns), level,
                            (bounds[0][columns], bounds[1][columns]))
        frames.append(frame)
        start += width
    if not frames:
        frame = paired_tests_frame(list(names), metrics, specs, per_query, differences, means,
                            decisions, level, bounds)
        return _reindexed(frame)
    frame = pd.concat(frames)
    order = {m: k for k, m in enumerate(metrics)}
    frame = frame.iloc[np.argsort([order[m] for m in frame.index.get_level_values(0)],
                                  kind="stable")]
    return _reindexed(frame)


def _reindexed(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.rename(columns={"baseline": "other", "baseline_mean": "other_mean"})
    index = pd.MultiIndex.from_arrays(
        [frame.index.get_level_values("metric"), frame.index.get_level_values("system"),
         frame["other"].to_numpy()], names=["metric", "system", "other"])
    return frame.drop(columns="other").set_axis(index)


def letter_display(systems, means, significant_pairs) -> dict[str, str]:
    """The compact letter display: letters such that two systems share one exactly when
    they are not significantly different.

    Piepho's insert-and-absorb (J. Comput. Graph. Stat. 13, 2004): start from one group
    of all systems; for each significant pair, split every group holding both into one
    without the first and one without the second; drop every group contained in
    another. The letters go to the groups in order of their best mean ("a" holds the
    best system).

    Parameters
    ----------
    systems : sequence of str
    means : sequence of float
        Each system's mean (higher first in the letters; pass minus the means of a metric
        where lower is better).
    significant_pairs : iterable of (str, str)

    Examples
    --------
    >>> letter_display(["a", "b", "c"], [0.9, 0.6, 0.5], [("a", "c")])
    {'a': 'a', 'b': 'ab', 'c': 'b'}
    """
    groups = [set(systems)]
    for x, y in significant_pairs:
        split = []
        for group in groups:
            if x in group and y in group:
                split += [group - {x}, group - {y}]
            else:
                split.append(group)
        groups = [g for k, g in enumerate(split)
                  if g and not any((g < h) or (g == h and m < k) for m, h in enumerate(split))]
    rank = {s: -float(m) if np.isfinite(m) else np.inf for s, m in zip(systems, means,
                                                                       strict=True)}
    groups.sort(key=lambda g: min(rank[s] for s in g))
    letters = _letters(len(groups))
    return {s: "".join(letter for letter, g in zip(letters, groups, strict=True) if s in g)
            for s in systems}


def _letters(n: int) -> list[str]:
    """a, b, ..., z, then aa, ab, ...: as many as asked."""
    found, width = [], 1
    while len(found) < n:
        found += ["".join(letters) for letters in product(ascii_lowercase, repeat=width)]
        width += 1
    return found[:n]


def summary_matrix(comparison) -> pd.DataFrame:
    """Systems x metrics as text: each mean with its marks (see
    :meth:`ragmetrics.Comparison.summary_matrix`)."""
    c = comparison
    rows = {}
    for metric, spec_higher in zip(c.metrics, _higher_is_better(c), strict=True):
        means = c.summary.xs(metric, level="metric")["mean"]
        if c.pairs == "all":
            sign = 1.0 if spec_higher else -1.0
            marks = letter_display(list(c.systems), [sign * means[s] for s in c.systems],
                                   _significant_pairs(c, metric))
            rows[metric] = {s: f"{means[s]:.4f} {marks[s]}" for s in c.systems}
            continue
        cells = {}
        for system in c.systems:
            mark = ""
            if system != c.baseline:
                row = c.tests.loc[(metric, system)]
                if row["significant"]:
                    better = (row["difference"] > 0) == spec_higher
                    mark = " " + (_BETTER if better else _WORSE)
            cells[system] = f"{means[system]:.4f}{mark}"
        rows[metric] = cells
    frame = pd.DataFrame(rows).loc[list(c.systems), list(c.metrics)]
    frame.index.name, frame.columns.name = "system", "metric"
    return frame


def _higher_is_better(comparison) -> list[bool]:
    from ..spans.names import parse_metric_names

    return [spec.info.higher_is_better for spec in parse_metric_names(list(comparison.metrics))]


def _tested_pairs(comparison) -> pd.DataFrame:
    """The pairs tested: :attr:`~ragmetrics.Comparison.pairwise`, or for a Comparison
    made without it, the rows of ``tests`` (each system against the baseline)."""
    if comparison.pairwise is not None:
        return comparison.pairwise
    tests = comparison.tests
    index = pd.MultiIndex.from_arrays(
        [tests.index.get_level_values(0), tests.index.get_level_values(1),
         tests["baseline"].to_numpy()], names=["metric", "system", "other"])
    return tests.set_axis(index)


def _significant_pairs(comparison, metric: str) -> list[tuple[str, str]]:
    frame = _tested_pairs(comparison).xs(metric, level="metric")
    return [(system, other) for (system, other), significant
            in frame["significant"].items() if significant]


def ranking_frame(comparison, metric: str) -> pd.DataFrame:
    """The systems ranked on ``metric`` (see :meth:`ragmetrics.Comparison.ranking`)."""
    c = comparison
    higher = dict(zip(c.metrics, _higher_is_better(c), strict=True))[metric]
    summary = c.summary.xs(metric, level="metric")
    order = np.argsort((-1 if higher else 1) * summary["mean"].to_numpy(), kind="stable")
    tested = _tested_pairs(c).xs(metric, level="metric")
    beats: dict[str, list[str]] = {s: [] for s in c.systems}
    for (system, other), row in tested.iterrows():
        if row["significant"]:
            winner, loser = ((system, other) if (row["difference"] > 0) == higher
                             else (other, system))
            beats[winner].append(loser)
    ranked = [summary.index[k] for k in order]
    rows = []
    for rank, k in enumerate(order, start=1):
        system = summary.index[k]
        rows.append({"rank": rank, "system": system, "mean": summary["mean"].iloc[k],
                     "low": summary["low"].iloc[k], "high": summary["high"].iloc[k],
                     "better_than": tuple(s for s in ranked if s in beats[system])})
    return pd.DataFrame(rows).set_index("rank")
