"""Pictures of rankings and metrics: each function draws what a pure function returns.

The numbers come from :mod:`ragmetrics.curves`, :mod:`ragmetrics.metrics` and
:func:`ragmetrics.evaluate`; this module only draws them. Every function takes ``ax=None``
(a new figure is made only when no Axes is given), returns the Axes it drew on, uses
Matplotlib's object-oriented API and never changes global settings (``rcParams``, styles).

User text (doc ids, titles, column names) is drawn literally: a ``$`` in a title is a
dollar sign, not the start of a formula.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator

from .conventions import GAIN_POLICIES
from .errors import InputTypeError, InputValueError
from .metrics.registry import metric_info, parse_metric
from .safe_text import plot_text
from .teaching.ndcg_steps import ndcg_table
from .validation import as_query, check_choice, check_k, check_relevance_level

__all__ = [
    "PALETTE",
    "metric_style",
    "plot_metrics_over_k",
    "plot_ndcg_breakdown",
    "plot_per_query",
    "plot_ranking",
    "plot_threshold_sweep",
]

#: The only colors the plots use: Okabe & Ito's palette, readable with every common form
#: of color blindness (Okabe & Ito, "Color Universal Design", 2008), plus a light grey.
PALETTE = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "purple": "#CC79A7",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
    "black": "#000000",
    "light_grey": "#E8E8E8",
}

# One color, line style and marker per metric, so a metric looks the same in every plot.
# Style and marker differ too, so overlapping lines (hit rate = RR = 1) stay visible.
_METRIC_STYLE = {
    "recall": (PALETTE["blue"], "-", "o"),
    "precision": (PALETTE["orange"], "--", "s"),
    "hit_rate": (PALETTE["green"], ":", "^"),
    "rr": (PALETTE["purple"], "-.", "D"),
    "ndcg": (PALETTE["vermillion"], "-", "v"),
    "ap": (PALETTE["sky"], "--", "P"),
    "r_precision": (PALETTE["black"], ":", "X"),
    # the diversity measures (ragmetrics.diversity), as the ranking board draws them
    "alpha_ndcg": (PALETTE["black"], "--", "P"),
    "strec": (PALETTE["sky"], ":", "X"),
}
_FALLBACK_STYLES = [(c, "-", "o") for c in PALETTE.values() if c != PALETTE["light_grey"]]

_RELEVANT = PALETTE["blue"]
_NOT_RELEVANT = PALETTE["light_grey"]
_CUTOFF = PALETTE["vermillion"]


def _literal(text: Any) -> str:
    """``text`` as a str that Matplotlib draws as written (no mathtext, no control codes)."""
    return plot_text(text)


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _mix_with_white(color: str, strength: float) -> tuple[float, float, float]:
    """``color`` at ``strength`` (1 = full color, 0 = white)."""
    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return tuple(strength * c + (1 - strength) for c in (r, g, b))  # exact at strength 1


def _new_axes(ax, figsize):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt  # only here: passing an Axes never touches pyplot

    _fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _metric_label(name: Any) -> str:
    """The registry's pretty name for a column: "recall" -> "Recall@k", "ndcg@10" -> "nDCG@10"."""
    try:
        if isinstance(name, str) and "@" in name:
            return parse_metric(name).pretty_name  # "ndcg@10" -> "nDCG@10", "mrr@5" -> "MRR@5"
        return parse_metric(name).pretty_name if name in ("mrr", "map") else (
            metric_info(name).pretty_name)  # a curve's column: "recall" -> "Recall@k"
    except (TypeError, ValueError):
        return _literal(name)


def _metric_style(name: Any, position: int) -> tuple[str, str, str]:
    base = name.split("@")[0] if isinstance(name, str) else name
    with contextlib.suppress(TypeError, ValueError):  # else not a metric: a fallback style
        base = metric_info(base).name  # "mrr" is drawn as "rr"
    return _METRIC_STYLE.get(base, _FALLBACK_STYLES[position % len(_FALLBACK_STYLES)])


def metric_style(name: str) -> dict[str, str]:
    """How a metric is drawn in every plot: its colour, matplotlib line style and marker.

    The widgets draw their own curves with the same style, so a metric looks the same
    everywhere, and curves are told apart by dash and marker as well as by colour.

    >>> metric_style("precision")
    {'color': '#E69F00', 'linestyle': '--', 'marker': 's'}
    """
    color, linestyle, marker = _metric_style(name, 0)
    return {"color": color, "linestyle": linestyle, "marker": marker}


# -- the ranking strip ---------------------------------------------------------------


def _grade_colors(grades: Mapping, level: float) -> dict[float, tuple]:
    """Fill color per relevant grade: the higher the grade, the darker the blue."""
    relevant = sorted({g for g in grades.values() if g >= level})
    if len(relevant) <= 1:
        return {g: _mix_with_white(_RELEVANT, 1.0) for g in relevant}
    low, high = relevant[0], relevant[-1]
    return {g: _mix_with_white(_RELEVANT, 0.35 + 0.65 * (g - low) / (high - low)) for g in relevant}


def _format_grade(grade: float) -> str:
    return str(int(grade)) if float(grade).is_integer() else f"{grade:g}"


def plot_ranking(
    retrieved: Iterable,
    relevant: Any,
    k: int | None = None,
    *,
    titles: Mapping | None = None,
    relevance_level: float = 1,
    label_width: int = 56,
    ax=None,
):
    """Draw a ranking as a column of boxes, best first, relevant docs highlighted.

    Each rank is a box holding the doc's id (or its title); relevant docs (grade >=
    ``relevance_level``) are blue, darker for higher grades when the golden set is graded,
    and show their grade. A line after rank ``k`` marks the cut-off: what lies above it is
    what the model sees. When ``k`` exceeds the ranking, the missing ranks are drawn as
    dashed empty slots (they still count in Precision@k). Relevant docs that were never
    retrieved are listed underneath: they are what Recall misses.

    Parameters
    ----------
    retrieved : iterable of ids
        The ranking, best first.
    relevant : set of ids or mapping id -> grade
        The golden set.
    k : int, optional
        Where to draw the cut-off. None draws no cut-off.
    titles : mapping id -> str, optional
        Labels to show instead of the ids (cut to ``label_width`` characters).
    relevance_level : number, default 1
        The smallest grade that counts as relevant.
    label_width : int, default 56
        The longest label drawn in full; longer ones end in "…".
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure sized to the ranking.

    Returns
    -------
    matplotlib.axes.Axes
        The boxes are the Axes' patches with gid ``"rank-1"``, ``"rank-2"``, ...; empty
        slots have gid ``"empty-slot-<rank>"``; the cut-off line has gid ``"cutoff"``.

    Examples
    --------
    The article's refund-policy query, cut at k = 3:

    >>> import matplotlib.pyplot as plt
    >>> from ragmetrics.teaching import load_example
    >>> ex = load_example("refund_policy")
    >>> fig, ax = plt.subplots(figsize=(6, 3))
    >>> ax = plot_ranking(ex.retrieved, ex.relevant, k=3, titles=ex.titles, ax=ax)
    >>> [p.get_gid() for p in ax.patches][:3]
    ['rank-1', 'rank-2', 'rank-3']
    >>> plt.close(fig)
    """
    k = check_k(k, allow_none=True)
    level = check_relevance_level(relevance_level)
    label_width = check_k(label_width, name="label_width")
    ranking, grades = as_query(retrieved, relevant, duplicates="error")
    if titles is not None and not isinstance(titles, Mapping):
        raise InputTypeError(f"titles must be a mapping doc id -> title, got {type(titles).__name__}")
    titles = titles or {}
    graded = any(g != 1 for g in grades.values())
    colors = _grade_colors(grades, level)
    n_slots = max(len(ranking), k or 0)

    ax = _new_axes(ax, figsize=(6.4, 0.8 + 0.34 * max(n_slots, 1)))
    height = 0.78
    for rank in range(1, n_slots + 1):
        y = rank - height / 2
        if rank > len(ranking):
            ax.add_patch(
                Rectangle((0, y), 1, height, facecolor="none", edgecolor="0.55",
                          linestyle="--", linewidth=1, gid=f"empty-slot-{rank}")
            )
            ax.text(0.02, rank, "(empty slot)", va="center", ha="left", fontsize=9,
                    color="0.45", style="italic")
        else:
            doc = ranking[rank - 1]
            grade = grades.get(doc, 0.0)
            is_relevant = grade >= level
            face = colors[grade] if is_relevant else _NOT_RELEVANT
            ax.add_patch(
                Rectangle((0, y), 1, height, facecolor=face, edgecolor="white",
                          linewidth=1.5, gid=f"rank-{rank}")
            )
            dark = is_relevant and sum(face) < 1.8
            text_color = "white" if dark else "black"
            label = _shorten(str(titles.get(doc, doc)), label_width)
            ax.text(0.02, rank, _literal(label), va="center", ha="left", fontsize=9,
                    color=text_color, gid=f"label-{rank}")
            if graded and grade != 0:
                ax.text(0.98, rank, f"grade {_format_grade(grade)}", va="center", ha="right",
                        fontsize=8, color=text_color)
        ax.text(-0.02, rank, str(rank), va="center", ha="right", fontsize=9, color="0.3")

    handles = _ranking_legend(colors, graded)
    if k is not None:
        ax.plot([-0.08, 1.0], [k + 0.5, k + 0.5], color=_CUTOFF, linestyle="--",
                linewidth=2, gid="cutoff", clip_on=False)
        ax.text(1.01, k + 0.5, f"k = {k}", va="center", ha="left", fontsize=10,
                color=_CUTOFF, fontweight="bold")
        handles.append(Line2D([], [], color=_CUTOFF, linestyle="--", linewidth=2,
                              label="cut-off: the model sees ranks above"))

    retrieved_ids = set(ranking)
    # Best grade first, then by id: a set's order changes from run to run.
    missed = sorted((doc for doc, g in grades.items() if g >= level and doc not in retrieved_ids),
                    key=lambda doc: (-grades[doc], str(doc)))
    if missed:
        shown = ", ".join(_shorten(str(titles.get(d, d)), 30) for d in missed[:4])
        more = f" and {len(missed) - 4} more" if len(missed) > 4 else ""
        ax.text(0, n_slots + 0.85, _literal(f"relevant, never retrieved: {shown}{more}"),
                va="top", ha="left", fontsize=9, color="0.25", style="italic", gid="missed")

    ax.set_xlim(-0.09, 1.13)
    ax.set_ylim(n_slots + 0.5 + (0.95 if missed else 0.05), 0.45)
    ax.set_axis_off()
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0),
              ncol=min(len(handles), 3), frameon=False, fontsize=8, borderaxespad=0.2)
    return ax


def _ranking_legend(colors: dict, graded: bool) -> list:
    handles = []
    for grade in sorted(colors, reverse=True):
        label = f"relevant (grade {_format_grade(grade)})" if graded else "relevant"
        handles.append(Patch(facecolor=colors[grade], label=label))
    handles.append(Patch(facecolor=_NOT_RELEVANT, label="not relevant"))
    return handles


# -- metrics over k ------------------------------------------------------------------


def plot_metrics_over_k(curves: pd.DataFrame, *, ax=None, mark_k: int | None = None):
    """Draw each metric as a line over the cut-off k, from a :func:`metrics_over_k` frame.

    Parameters
    ----------
    curves : pandas.DataFrame
        Index: the cut-offs k; one column per metric, as returned by
        :func:`ragmetrics.metrics_over_k` (or a mean of several such frames).
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure.
    mark_k : int, optional
        Draw a vertical line at this k (e.g. the k your pipeline uses).

    Returns
    -------
    matplotlib.axes.Axes
        One line per column, labelled with the registry's pretty name; the marker line
        has gid ``"mark-k"``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from ragmetrics import metrics_over_k
    >>> curves = metrics_over_k(["a", "x", "b"], {"a", "b"}, range(1, 4))
    >>> fig, ax = plt.subplots()
    >>> ax = plot_metrics_over_k(curves, mark_k=2, ax=ax)
    >>> [line.get_label() for line in ax.get_lines()][:2]
    ['Recall@k', 'Precision@k']
    >>> plt.close(fig)
    """
    if not isinstance(curves, pd.DataFrame):
        raise InputTypeError(
            f"curves must be a DataFrame from metrics_over_k, got {type(curves).__name__}"
        )
    if curves.shape[1] == 0 or curves.shape[0] == 0:
        raise InputValueError(f"curves must have at least one row and one column, got {curves.shape}")
    mark_k = check_k(mark_k, name="mark_k", allow_none=True)

    ax = _new_axes(ax, figsize=(6.4, 4.0))
    ks = np.asarray(curves.index)
    show_markers = len(ks) <= 30
    for position, name in enumerate(curves.columns):
        color, linestyle, marker = _metric_style(name, position)
        ax.plot(ks, curves[name].to_numpy(dtype=float), color=color, linestyle=linestyle,
                marker=marker if show_markers else None, markersize=5, linewidth=1.8,
                label=_metric_label(name))
    if mark_k is not None:
        ax.axvline(mark_k, color="0.35", linestyle="--", linewidth=1.2, gid="mark-k", zorder=0)
        ax.annotate(f"k = {mark_k}", xy=(mark_k, 0), xytext=(4, 4), textcoords="offset points",
                    va="bottom", ha="left", fontsize=9, color="0.25",
                    bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "linewidth": 0})
    ax.set_ylim(0, 1.05)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("k (chunks retrieved)")
    ax.set_ylabel("score")
    ax.grid(True, color="0.9", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    # Outside the plot: with 5-7 lines, any inside corner hides one.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    return ax


# -- nDCG, rank by rank --------------------------------------------------------------


def plot_ndcg_breakdown(
    retrieved: Iterable,
    relevant: Any,
    k: int,
    *,
    gain: str = "linear",
    ax=None,
):
    """Draw nDCG@k rank by rank: each doc's gain, its discounted gain, and the ideal's.

    Two bars per rank: the gain of the doc there, and that gain divided by
    :math:`\\log_2(\\mathrm{rank}+1)`; the dashed outline is what the ideal ranking puts
    at that rank. DCG is the sum of the filled dark bars, IDCG the sum of the outlines;
    the title gives both and their ratio, nDCG. All numbers come from
    :func:`ragmetrics.ndcg_table`.

    Parameters
    ----------
    retrieved, relevant, k, gain
        As in :func:`ragmetrics.ndcg_at_k`.
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.containers`` holds three bar containers of ``k`` bars each, labelled
        "gain", "discounted gain" and "ideal discounted gain".

    Examples
    --------
    The article's refund-policy query: the ideal puts a relevant chunk at rank 2.

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = plot_ndcg_breakdown(["A", "B", "C", "D", "E"], {"A", "C", "E"}, 5, ax=ax)
    >>> ax.get_title()
    'DCG@5 = 1.887    IDCG@5 = 2.131    nDCG@5 = 0.885'
    >>> plt.close(fig)
    """
    check_choice(gain, GAIN_POLICIES, "gain")
    table = ndcg_table(retrieved, relevant, k, gain=gain)
    k = len(table)
    ranks = table.index.to_numpy()

    ax = _new_axes(ax, figsize=(max(5.0, 0.75 * k + 2.0), 4.0))
    width = 0.38
    ax.bar(ranks - width / 2, table["gain"], width, color=PALETTE["sky"], label="gain")
    discounted = ax.bar(ranks + width / 2, table["discounted_gain"], width,
                        color=PALETTE["blue"], label="discounted gain = gain / log₂(rank + 1)")
    ax.bar(ranks + width / 2, table["ideal_discounted_gain"], width, fill=False,
           edgecolor=PALETTE["black"], linestyle="--", linewidth=1.2,
           label="ideal discounted gain")
    for bar, value in zip(discounted, table["discounted_gain"], strict=True):
        if value > 0:
            ax.annotate(f"{value:.2f}", xy=(bar.get_x() + bar.get_width() / 2, value),
                        xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                        fontsize=8, color=PALETTE["blue"])

    labels = [
        f"{rank}\n" + ("(empty)" if doc is None else _literal(_shorten(str(doc), 12)))
        for rank, doc in zip(ranks, table["doc_id"], strict=True)
    ]
    ax.set_xticks(ranks, labels=labels, fontsize=8)
    ax.set_xlabel("rank and doc")
    ax.set_ylabel("gain")
    top = max(table["gain"].max(), table["ideal_gain"].max(), 1.0)
    ax.set_ylim(0, top * 1.25)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    dcg, idcg, ndcg = (table.attrs[key] for key in ("dcg", "idcg", "ndcg"))
    ax.set_title(f"DCG@{k} = {dcg:.3f}    IDCG@{k} = {idcg:.3f}    nDCG@{k} = {ndcg:.3f}")
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    return ax


# -- many queries --------------------------------------------------------------------


def plot_per_query(per_query: pd.DataFrame, *, metrics: Iterable | None = None, ax=None,
                   seed: int = 0):
    """Draw the spread of per-query scores: a box and the jittered points of each metric.

    A mean hides how it was reached: 0.5 can be every query at 0.5, or half the queries
    at 1 and half at 0. Each query is one point (spread sideways at random, with a fixed
    seed, so the picture is the same every run); the box spans the middle half of the
    queries and the black diamond is the mean, the number a summary reports. NaN scores
    (queries skipped by a policy) are left out, as the summary does.

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query, one column per metric, such as ``evaluate(...).per_query``.
    metrics : sequence of str, optional
        Columns to draw, in order; by default all.
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure.
    seed : int, default 0
        Seed of the sideways jitter.

    Returns
    -------
    matplotlib.axes.Axes
        One box per metric; the points of metric ``i`` are the collection with gid
        ``"points-<i>"``, the means the collection with gid ``"means"``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> per_query = pd.DataFrame({"recall@10": [1.0, 0.5, 0.0], "mrr": [1.0, 0.5, 0.25]})
    >>> fig, ax = plt.subplots()
    >>> ax = plot_per_query(per_query, ax=ax)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['Recall@10', 'MRR']
    >>> plt.close(fig)
    """
    if not isinstance(per_query, pd.DataFrame):
        raise InputTypeError(
            "per_query must be a DataFrame with one column per metric, such as "
            f"evaluate(...).per_query; got {type(per_query).__name__}"
        )
    columns = list(per_query.columns) if metrics is None else (
        [metrics] if isinstance(metrics, str) else list(metrics)
    )
    if not columns:
        raise InputValueError("per_query has no metric column to draw")
    for name in columns:
        if name not in per_query.columns:
            have = ", ".join(map(repr, per_query.columns))
            raise InputValueError(f"metric {name!r} is not a column of per_query; it has {have}")
    if len(set(columns)) != len(columns):
        raise InputValueError(f"metrics must not repeat a column; got {columns!r}")

    ax = _new_axes(ax, figsize=(max(4.0, 1.2 * len(columns) + 1.5), 4.0))
    rng = np.random.default_rng(seed)
    n_rows = len(per_query)
    point_size = 14 if n_rows <= 200 else 5
    alpha = 0.65 if n_rows <= 200 else 0.35
    positions = np.arange(1, len(columns) + 1)
    means = []
    for position, name in zip(positions, columns, strict=True):
        if not pd.api.types.is_numeric_dtype(per_query[name]):
            raise InputTypeError(f"column {name!r} of per_query must hold scores (numbers), "
                            f"got dtype {per_query[name].dtype}")
        values = per_query[name].to_numpy(dtype=float)
        values = values[~np.isnan(values)]
        color = _metric_style(name, position - 1)[0]
        means.append(values.mean() if len(values) else math.nan)
        if not len(values):
            continue  # every query skipped: nothing to draw, the tick still names it
        box = ax.boxplot(values, positions=[position], widths=0.55, showfliers=False,
                         patch_artist=True, manage_ticks=False)
        for patch in box["boxes"]:
            patch.set(facecolor=_mix_with_white(color, 0.18), edgecolor=color)
        for part in ("whiskers", "caps", "medians"):
            for line in box[part]:
                line.set_color(color)
        jitter = rng.uniform(-0.18, 0.18, size=len(values))
        ax.scatter(position + jitter, values, s=point_size, color=color, alpha=alpha,
                   linewidths=0, zorder=3, gid=f"points-{position - 1}")

    ax.scatter(positions, means, marker="D", s=42, color=PALETTE["black"], zorder=4,
               label="mean", gid="means")
    for position, mean in zip(positions, means, strict=True):
        if not math.isnan(mean):
            ax.annotate(f"{mean:.3f}", xy=(position, mean), xytext=(8, 0), zorder=5,
                        textcoords="offset points", va="center", fontsize=8,
                        bbox={"boxstyle": "round,pad=0.15", "facecolor": "white",
                              "edgecolor": "none", "alpha": 0.85})
    ax.set_xticks(positions, labels=[_metric_label(name) for name in columns])
    ax.set_xlim(0.4, len(columns) + 0.6)
    ax.set_ylim(-0.04, 1.05)
    ax.set_ylabel("score per query")
    ax.set_title(f"{n_rows} queries", fontsize=10)
    ax.grid(True, axis="y", color="0.9", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    # Above the plot, beside the title: inside, it would hide the points at 0 or 1.
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False,
              borderaxespad=0.1)
    return ax


# -- questions with no answer: a score threshold's risk and coverage --------------------------


def plot_threshold_sweep(sweep, *, ax=None, mark=None, y: str = "recall",
                         label: str | None = None, color: str | None = None):
    """Draw the false-answer rate against answerable recall, one point per threshold.

    The risk-coverage view of a score threshold (selective prediction): each point is a
    threshold of :func:`ragmetrics.threshold_sweep`; going right lowers the threshold,
    answering more (recall rises) and answering where there is no answer more (the
    false-answer rate rises). The curve runs from (0, 0), abstain always, to the point
    where every query answers. Draw several systems on one Axes, with ``label``.

    Parameters
    ----------
    sweep : ThresholdSweep or pandas.DataFrame
        From :func:`ragmetrics.threshold_sweep` (or its ``.table``).
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure.
    mark : float or ThresholdChoice, optional
        A threshold to mark (gid ``"chosen-threshold"``): a number, or what
        :func:`ragmetrics.threshold_for` returns. Its point is the sweep's at that
        threshold (the lowest row at or above it).
    y : {"recall", "answer_rate"}, default "recall"
        What the vertical axis shows: recall of the kept results, or the share of
        answerable queries that answer.
    label : str, optional
        The line's legend label; by default the sweep's system name, if any.
    color : str, optional
        The line's color; by default the palette's blue.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from ragmetrics import threshold_for, threshold_sweep
    >>> run = {"q1": {"a": 0.9, "x": 0.6}, "q2": {"y": 0.8, "b": 0.5},
    ...        "q3": {"z": 0.7}, "q4": {"w": 0.4}}
    >>> sweep = threshold_sweep(run, {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()})
    >>> fig, ax = plt.subplots()
    >>> ax = plot_threshold_sweep(sweep, ax=ax, mark=threshold_for(sweep,
    ...                           max_false_answer_rate=0.0), label="bm25")
    >>> line = ax.get_lines()[0]
    >>> line.get_xdata().tolist(), line.get_ydata().tolist()
    ([0.0, 0.0, 0.0, 0.5, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0])
    >>> [child.get_offsets().tolist() for child in ax.collections
    ...  if child.get_gid() == "chosen-threshold"]
    [[[0.0, 0.5]]]
    >>> plt.close(fig)
    """
    table = getattr(sweep, "table", sweep)
    if not isinstance(table, pd.DataFrame):
        raise InputTypeError("sweep must be a ThresholdSweep or its table, got "
                             f"{type(sweep).__name__}")
    check_choice(y, ("recall", "answer_rate"), "y")
    needed = ("threshold", "false_answer_rate", y)
    missing = [c for c in needed if c not in table.columns]
    if missing:
        raise InputValueError(f"the sweep has no column {missing[0]!r}: is it "
                              "threshold_sweep(...).table?")
    if not len(table) or table["false_answer_rate"].isna().all():
        raise InputValueError("the sweep has no unanswerable query: there is no false-answer "
                              "rate to draw")
    ordered = table.sort_values("threshold", ascending=False)
    x = ordered["false_answer_rate"].to_numpy(dtype=float)
    values = ordered[y].to_numpy(dtype=float)
    if label is None:
        label = getattr(sweep, "system", None)
    ax = _new_axes(ax, figsize=(5.2, 4.2))
    color = PALETTE["blue"] if color is None else color
    ax.plot(x, values, color=color, linewidth=1.8, marker="o" if len(x) <= 40 else None,
            markersize=3.5, drawstyle="default",
            label=None if label is None else _literal(label))
    if mark is not None:
        threshold = getattr(mark, "threshold", mark)
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.number)) \
                or math.isnan(threshold):
            raise InputTypeError("mark must be a threshold (a number) or what threshold_for "
                                 f"returns, got {mark!r}")
        ascending = table.sort_values("threshold")
        at = int(np.searchsorted(ascending["threshold"].to_numpy(dtype=float), threshold))
        at = min(at, len(ascending) - 1)
        point = ascending.iloc[at]
        px, py = float(point["false_answer_rate"]), float(point[y])
        ax.scatter([px], [py], s=60, color=PALETTE["vermillion"], zorder=3,
                   gid="chosen-threshold", edgecolors="white", linewidths=0.8)
        ax.annotate(f"t = {threshold:g}", xy=(px, py), xytext=(6, -12),
                    textcoords="offset points", fontsize=9, color="0.2",
                    bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "linewidth": 0})
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel("false-answer rate (unanswerable queries answered)")
    ax.set_ylabel("recall (answerable queries)" if y == "recall"
                  else "answer rate (answerable queries)")
    ax.grid(True, color="0.9", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if label is not None:
        ax.legend(loc="lower right", fontsize=9, frameon=False)
    return ax
