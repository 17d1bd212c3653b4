"""The report's figures: each system's means with intervals, and each difference from the
baseline with its paired interval.

Like :mod:`ragmetrics.plotting`, each function takes ``ax=None`` (a new figure is made,
without pyplot, only when no Axes is given), returns the Axes it drew on and never
changes global settings; names are drawn as written
(:func:`~ragmetrics.safe_text.plot_text`).
"""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputValueError
from ..plotting import PALETTE
from ..safe_text import plot_text
from .formatting import format_count, format_percent

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["plot_differences", "plot_intervals", "png_base64"]

_SYSTEM_COLORS = [PALETTE[c] for c in ("blue", "orange", "green", "purple", "vermillion", "sky")]


def _new_axes(ax, figsize):
    if ax is not None:
        return ax
    from matplotlib.figure import Figure  # no pyplot: a report never touches global state

    return Figure(figsize=figsize, layout="constrained").add_subplot()


def plot_intervals(comparison: Comparison, *, ax=None):
    """Each system's mean (dot) and bootstrap interval (bar), one row per metric.

    Returns
    -------
    matplotlib.axes.Axes
        One errorbar container per system, labelled with its name.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> result = compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr", "ndcg@10"],
    ...                  n_resamples=50)
    >>> ax = plot_intervals(result)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['mrr', 'ndcg@10']
    """
    c = comparison
    ax = _new_axes(ax, (6.4, 0.6 + 0.45 * len(c.metrics) * max(1, len(c.systems) / 2)))
    y = np.arange(len(c.metrics), dtype=float)
    step = 0.7 / max(len(c.systems), 1)
    handles = []
    for i, system in enumerate(c.systems):
        rows = c.summary.xs(system, level="system").loc[list(c.metrics)]
        offset = (i - (len(c.systems) - 1) / 2) * step
        mean = rows["mean"].to_numpy(float)
        # An interval need not contain the mean (a percentile one on a skewed sample):
        # clip, so the bar still spans the interval.
        err = np.maximum(0.0, np.vstack([mean - rows["low"].to_numpy(float),
                                         rows["high"].to_numpy(float) - mean]))
        handles.append(ax.errorbar(mean, y + offset, xerr=err, fmt="o", capsize=3,
                                   markersize=5, color=_SYSTEM_COLORS[i % len(_SYSTEM_COLORS)],
                                   label=plot_text(system)))
    ax.set_yticks(y, labels=[plot_text(m) for m in c.metrics])
    ax.invert_yaxis()
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel(f"mean over {format_count(c.n_queries, 'query', 'queries')}, "
                  f"{format_percent(c.confidence)} interval")
    ax.grid(True, axis="x", color="0.9")
    ax.set_axisbelow(True)
    # Labels given explicitly: a legend would drop a system named "_baseline" otherwise.
    ax.legend(handles, [plot_text(system) for system in c.systems], loc="upper left",
              bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    return ax


def plot_differences(comparison: Comparison, *, system: str | None = None, ax=None):
    """``system`` minus the baseline per metric: the difference and its paired interval.

    A filled dot is a significant difference (after the correction); an interval that
    crosses the dashed zero line is one the data cannot tell from no difference.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> runs = {"a": {"q1": ["x", "d"]}, "b": {"q1": ["d"]}}
    >>> result = compare(runs, {"q1": {"d"}}, ["mrr"], n_resamples=50)
    >>> ax = plot_differences(result)
    >>> ax.get_title()
    'b − a'
    """
    c = comparison
    if len(c.systems) < 2:
        raise InputValueError("plot_differences needs two systems; this comparison has one")
    if system is None:
        system = c.systems[1]
    elif system not in c.systems:
        raise InputValueError(
            f"system {system!r} is not in this comparison; it has {list(c.systems)}"
        )
    if system == c.baseline:
        raise InputValueError(f"system {system!r} is the baseline; name another system")
    rows = c.tests.xs(system, level="system").loc[list(c.metrics)]
    ax = _new_axes(ax, (6.4, 0.8 + 0.4 * len(c.metrics)))
    y = np.arange(len(c.metrics), dtype=float)
    diff = rows["difference"].to_numpy(float)
    err = np.maximum(0.0, np.vstack([diff - rows["low"].to_numpy(float),
                                     rows["high"].to_numpy(float) - diff]))
    significant = rows["significant"].to_numpy(bool)
    color = PALETTE["blue"]
    ax.errorbar(diff, y, xerr=err, fmt="none", ecolor=color, capsize=3)
    if significant.any():
        ax.scatter(diff[significant], y[significant], color=color, zorder=3,
                   label="significant")
    if not significant.all():
        ax.scatter(diff[~significant], y[~significant], facecolor="white", edgecolor=color,
                   zorder=3, label="not significant")
    ax.axvline(0.0, color="0.35", linestyle="--", linewidth=1)
    ax.set_yticks(y, labels=[plot_text(m) for m in c.metrics])
    ax.invert_yaxis()
    ax.set_title(plot_text(f"{system} − {c.baseline}"))
    ax.set_xlabel(f"mean difference, {format_percent(c.difference_confidence)} paired interval "
                  f"(the level of the {c.correction} verdicts)" if c.correction != "none" else
                  f"mean difference, {format_percent(c.difference_confidence)} paired interval")
    ax.grid(True, axis="x", color="0.9")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    return ax


def png_base64(ax) -> str:
    """The figure of ``ax`` as a base64 PNG (110 dpi, no software tag), for an inline image."""
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")
