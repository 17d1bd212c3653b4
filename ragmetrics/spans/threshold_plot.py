"""The threshold sensitivity plot: a metric against the threshold of a relevance rule.

Like :mod:`ragmetrics.plotting`, the function draws what a pure function returns
(:func:`ragmetrics.spans.threshold_sensitivity`), takes ``ax=None``, returns the Axes,
uses Matplotlib's object-oriented API and never changes global settings. Matplotlib is
imported only when a plot is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ..errors import InputTypeError, InputValueError

__all__ = ["plot_threshold_sensitivity"]


def plot_threshold_sensitivity(tables, *, metric: str | None = None, ax=None):
    """Draw a metric against the threshold, one line per chunking.

    Parameters
    ----------
    tables : DataFrame or mapping of str to DataFrame
        What :func:`ragmetrics.spans.threshold_sensitivity` returns, or several of them
        by label (one per chunking).
    metric : str or None
        The column to draw; None: the first column.
    ax : matplotlib Axes or None
        Where to draw; None makes a new figure.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from matplotlib.figure import Figure
    >>> small = pd.DataFrame({"recall@10": [0.9, 0.7]},
    ...                      index=pd.Index([0.1, 0.5], name="threshold"))
    >>> big = pd.DataFrame({"recall@10": [0.95, 0.4]},
    ...                    index=pd.Index([0.1, 0.5], name="threshold"))
    >>> ax = plot_threshold_sensitivity({"128 tokens": small, "512 tokens": big},
    ...                                 ax=Figure().add_subplot())
    >>> [line.get_label() for line in ax.get_lines()]
    ['128 tokens', '512 tokens']
    """
    from ..plotting import PALETTE  # imports matplotlib: only when drawing

    if isinstance(tables, pd.DataFrame):
        tables = {None: tables}
    elif not isinstance(tables, Mapping) or not tables:
        raise InputTypeError("tables must be a DataFrame from threshold_sensitivity or a "
                             f"mapping label -> DataFrame, got {type(tables).__name__}")
    first = next(iter(tables.values()))
    metric = first.columns[0] if metric is None else metric
    for label, table in tables.items():
        if not isinstance(table, pd.DataFrame) or metric not in table.columns:
            raise InputValueError(f"table {label!r} has no column {metric!r}")
    if ax is None:
        import matplotlib.pyplot as plt

        _fig, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
    colors = [PALETTE[c] for c in ("blue", "orange", "green", "purple", "vermillion", "sky")]
    markers = "os^Dvx"
    for i, (label, table) in enumerate(tables.items()):
        ax.plot(table.index.to_numpy(dtype=float), table[metric].to_numpy(dtype=float),
                color=colors[i % len(colors)], marker=markers[i % len(markers)],
                label=str(label) if label is not None else str(metric))
    rule = first.attrs.get("rule")
    ax.set_xlabel(f"threshold ({rule})" if rule else "threshold")
    ax.set_ylabel(str(metric))
    ax.set_ylim(-0.02, 1.02)
    ax.grid(True, alpha=0.3)
    if len(tables) > 1 or None not in tables:
        ax.legend(frameon=False)
    return ax
