"""Step 3 of :func:`~ragmetrics.comparison.compare`: resample, once for every system and metric.

The per-query values become two matrices (:class:`PairedColumns`): one column per
(system, metric), system-major, and one per (other system, metric), each the paired
difference with the baseline (:func:`ragmetrics.stats.paired_differences`). One
bootstrap pass resamples the queries of every column at once
(:func:`ragmetrics.stats.bootstrap_means`): a difference's bootstrap means are its two
columns' subtracted, wherever both are defined on the same queries (always, but under a
"skip" policy), so the differences cost no second pass. :func:`summary_frame` reads each
system's mean interval off its means (:func:`ragmetrics.stats.bootstrap_interval`).

:class:`ResamplingProgress` reports the passes (this one, then the randomization test
of :mod:`~ragmetrics.comparison.paired_tests`) as one ``progress(done, total)``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputValueError
from ..stats.intervals import bootstrap_interval
from ..stats.resampling import bootstrap_means, finite_column_groups
from ..stats.rounding import paired_differences

__all__ = ["PairedColumns", "ResamplingProgress", "bootstrap_all", "paired_columns",
           "summary_frame"]


class ResamplingProgress:
    """One callback over the bootstrap passes, then the randomization test.

    ``done`` runs from 0 to ``total``; the randomization test may add passes (claims
    resampled further), and ``total`` grows with them.

    Examples
    --------
    >>> seen = []
    >>> tracker = ResamplingProgress(lambda done, total: seen.append((done, total)), 100)
    >>> tracker.plan(2)
    >>> first, second = tracker.step(), tracker.step()
    >>> first(100, 100); second(50, 100); tracker.rest()(100, 300)
    >>> seen
    [(100, 200), (150, 200), (300, 500)]
    """

    def __init__(self, callback, n_resamples: int) -> None:
        self.callback = callback
        self.n_resamples = n_resamples
        self.total = 0
        self.offset = 0

    def plan(self, passes: int) -> None:
        self.total = passes * self.n_resamples

    def step(self):
        """The callback of the next bootstrap pass."""
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


@dataclass(frozen=True)
class PairedColumns:
    """The per-query values as the statistics read them, queries as rows.

    ``values`` has one column per (system, metric), system-major (the baseline's metrics
    first); ``differences`` one per (other system, metric), each minus the baseline's
    column of the same metric. ``value_bounds`` and ``difference_bounds`` are the
    (low, high) arrays of each column: a metric's range, and the spread of it for a
    difference.
    """

    values: np.ndarray
    differences: np.ndarray
    value_bounds: tuple[np.ndarray, np.ndarray]
    difference_bounds: tuple[np.ndarray, np.ndarray]
    n_metrics: int


def paired_columns(per_query: dict[str, pd.DataFrame], names, metrics,
                   specs) -> PairedColumns:
    """The matrices of ``per_query`` (each system's frame, on one query index), checked.

    Examples
    --------
    >>> from ragmetrics.metrics.registry import parse_metric
    >>> frames = {"old": pd.DataFrame({"mrr": [0.5, 1.0]}),
    ...           "new": pd.DataFrame({"mrr": [1.0, 1.0]})}
    >>> columns = paired_columns(frames, ["old", "new"], ["mrr"], [parse_metric("mrr")])
    >>> columns.values.tolist(), columns.differences.tolist()
    ([[0.5, 1.0], [1.0, 1.0]], [[0.5], [0.0]])
    """
    n_metrics, pairs = len(metrics), len(names) - 1
    values = np.column_stack([per_query[s].to_numpy(np.float64) for s in names])
    base = values[:, :n_metrics]
    differences = np.column_stack(
        [paired_differences(base, values[:, (i + 1) * n_metrics : (i + 2) * n_metrics])
         for i in range(pairs)]
    ) if pairs else np.empty((len(values), 0))
    low = np.array([spec.bounds[0] for spec in specs])
    high = np.array([spec.bounds[1] for spec in specs])
    value_bounds = (np.tile(low, len(names)), np.tile(high, len(names)))
    _check_computed_bounds(values, value_bounds, names, metrics, per_query)
    return PairedColumns(values, differences, value_bounds,
                         (np.tile(low - high, pairs), np.tile(high - low, pairs)), n_metrics)


def bootstrap_all(columns: PairedColumns, n_resamples: int, seed: int,
                  tracker: ResamplingProgress) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap means (resamples x columns) of every column of ``values`` and of
    ``differences``, on the same resamples of the queries."""
    values, differences, n_metrics = columns.values, columns.differences, columns.n_metrics
    _check_memory_for(n_resamples, values.shape[1] + differences.shape[1])
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
    difference_means[:, separate] = _grouped_means(
        differences[:, separate], n_resamples, seed, tracker
    )
    return value_means, difference_means


def summary_frame(names, metrics, values, means, confidence: float, bounds) -> pd.DataFrame:
    """Each system's mean on each metric, with its bootstrap interval at ``confidence``
    (:attr:`ragmetrics.Comparison.summary`), metric-major."""
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
