"""The numbers of a Comparison as tables of text: the means, and each system against the baseline.

:func:`summary_table` and :func:`differences_table` give pandas DataFrames of text (to
show in a notebook, or to build on); :func:`frame_table` turns any such frame into the
:class:`TextTable` (header and rows of text) that the report document holds and every
renderer draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .formatting import (
    format_effect,
    format_interval,
    format_mc_error,
    format_number,
    format_p,
    format_percent,
    format_signed,
)

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["TextTable", "costs_table", "differences_table", "frame_table", "retrievers_table",
           "summary_table"]


@dataclass(frozen=True)
class TextTable:
    """A table of text: a header and rows of cells, as written (a renderer escapes them).

    Attributes
    ----------
    header : tuple of str
    rows : tuple of tuple of str
        Each row has one cell per header cell.
    """

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def summary_table(comparison: Comparison) -> pd.DataFrame:
    """Means with their intervals as text: one row per metric, one column per system.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> qrels = {"q1": {"a"}, "q2": {"b"}}
    >>> result = compare({"bm25": {"q1": ["a"], "q2": ["x", "b"]}}, qrels, ["mrr"],
    ...                  n_resamples=200)
    >>> summary_table(result)  # doctest: +NORMALIZE_WHITESPACE
    system                      bm25
    metric
    mrr     0.7500 [0.0000, 1.0000]

    (Two queries tell little: the interval is all an MRR can be.)
    """
    s = comparison.summary
    # A mean over fewer queries than compared (a "skip" policy) says how many.
    cells = [format_interval(m, lo, hi) + (f" (n = {n})" if n != comparison.n_queries else "")
             for m, lo, hi, n in zip(s["mean"], s["low"], s["high"], s["n_queries"],
                                     strict=True)]
    table = pd.Series(cells, index=s.index).unstack("system")
    return table.loc[list(comparison.metrics), list(comparison.systems)]


def retrievers_table(comparison: Comparison) -> pd.DataFrame | None:
    """How each retriever ran, as text: latency per query in milliseconds (mean, p50,
    p90, p99, over the queries called), the queries cached, ``k`` and the config hash.

    One row per system whose run carries them (``comparison.retrievers``, from
    :func:`ragmetrics.runners.run_retriever`); None when no run does. Beside the metrics,
    never among them.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> from ragmetrics.runners import run_retriever
    >>> run = run_retriever(lambda text: ["a"], {"q1": "x"}, config={"model": "m"})
    >>> run.latency["seconds"] = [0.0125]  # one call of 12.5 ms, for the example
    >>> table = retrievers_table(compare({"dense": run}, {"q1": {"a"}}, ["mrr"],
    ...                                  n_resamples=50))
    >>> table.loc["dense", ["mean", "p99", "cached", "k"]].tolist()
    ['12.5 ms', '12.5 ms', '0', '100']
    """
    found = comparison.retrievers
    if not found:
        return None
    rows = {
        system: {**{q: _milliseconds(r[q]) for q in ("mean", "p50", "p90", "p99")},
                 "timed": str(r["timed"]), "cached": str(r["cached"]),
                 "k": "n/a" if r["k"] is None else str(r["k"]),
                 "config hash": r["config_hash"] or "n/a"}
        for system, r in found.items()
    }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "system"
    return table


def costs_table(comparison: Comparison) -> pd.DataFrame | None:
    """What each system sends to the model per question, as text: the units sent (the
    chunks kept at a cut, each whole, in the comparison's unit) at every cut the metrics
    read, their mean, median (p50) and 90th percentile (p90), over the queries counted.

    One row per system and cut (``comparison.costs``, for runs judged by evidence
    spans); None otherwise. Beside the metrics, never among them.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> chunks = [{"chunk_id": c, "doc_id": "d", "start": s, "end": e}
    ...           for c, s, e in (("a", 0, 10), ("b", 10, 30), ("c", 30, 60))]
    >>> table = costs_table(compare(
    ...     {"small": {"q1": ["a", "b"]}, "big": {"q1": ["c", "b"]}}, metrics=["span_recall@2"],
    ...     evidence={"q1": [("d", 12, 18)]}, chunks=chunks, n_resamples=50))
    >>> table  # doctest: +NORMALIZE_WHITESPACE
                    mean p50 p90 queries
    system cut
    small  k=2  30 chars  30  30       1
    big    k=2  50 chars  50  50       1

    Both find all the evidence in their top 2 (span recall 1), but ``big`` sends 50
    characters where ``small`` sends 30.
    """
    costs = comparison.costs
    if costs is None:
        return None
    unit = "chars" if costs.attrs.get("unit") == "characters" else "tokens"
    table = pd.DataFrame({
        "mean": [_units(v, unit) for v in costs["mean"]],
        "p50": [_units(v) for v in costs["p50"]],
        "p90": [_units(v) for v in costs["p90"]],
        "queries": costs["queries"].astype(str).tolist(),
    }, index=costs.index)
    return table


def _units(value: float, unit: str = "") -> str:
    if not np.isfinite(value):
        return "n/a"
    text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
    return f"{text} {unit}" if unit else text


def _milliseconds(seconds: float) -> str:
    return "n/a" if not np.isfinite(seconds) else f"{seconds * 1000:.1f} ms"


def _difference_label(comparison: Comparison) -> str:
    """The header of the difference column: the interval's level, and what it means."""
    level = format_percent(comparison.difference_confidence)
    together = comparison.difference_confidence != comparison.confidence
    if comparison.correction == "holm" and together:
        return f"difference [{level} CI each, {format_percent(comparison.confidence)} together]"
    if comparison.correction == "bh":
        return f"difference [{level} CI, FCR-adjusted]"
    return f"difference [{level} CI]"


def differences_table(comparison: Comparison) -> pd.DataFrame:
    """Each system against the baseline, as text: one row per (metric, system).

    The interval beside each verdict is at the family level of the correction (see
    :func:`ragmetrics.compare`), and the column header says which; the Monte Carlo error
    of each sampled p-value is shown beside it, and the effect size is the paired d_z.

    Examples
    --------
    Every query gains exactly 0.5: the interval has no width, and d_z = mean / sd has no
    spread to divide by (n/a; the comparison's warnings say so):

    >>> from ragmetrics import compare
    >>> qrels = {f"q{i}": {"a"} for i in range(30)}
    >>> runs = {"old": {q: ["z", "a"] for q in qrels}, "new": {q: ["a"] for q in qrels}}
    >>> table = differences_table(compare(runs, qrels, ["mrr", "recall@1"], n_resamples=500))
    >>> for column, cell in table.loc[("mrr", "new")].items():
    ...     print(f"{column}: {cell}")
    difference [97.5% CI each, 95% together]: +0.5000 [+0.5000, +0.5000]
    p (randomization): 0.0020
    MC error of p: ±0.0020
    p (t-test): <0.0001
    p (Holm): 0.0040
    d_z (paired): n/a
    wins/ties/losses: 30/0/0
    verdict: new better
    """
    t = comparison.tests
    correction = {"holm": "Holm", "bh": "BH", "none": "uncorrected"}[comparison.correction]
    rows = {
        _difference_label(comparison): [
            format_interval(d, lo, hi, signed=True)
            for d, lo, hi in zip(t["difference"], t["low"], t["high"], strict=True)
        ],
        "p (randomization)": [
            format_p(p) + (" (exact)" if exact else "")
            for p, exact in zip(t["p_randomization"], t["exact"], strict=True)
        ],
        "MC error of p": [
            format_mc_error(e, exact) if np.isfinite(p) else "n/a"
            for p, e, exact in zip(t["p_randomization"], t["p_mc_error"], t["exact"],
                                   strict=True)
        ],
        "p (t-test)": [format_p(p) for p in t["p_t_test"]],
        f"p ({correction})": [format_p(p) for p in t["p_adjusted"]],
        "d_z (paired)": [format_effect(d) for d in t["effect_size"]],
        "wins/ties/losses": [
            f"{w}/{ti}/{lo}" for w, ti, lo in zip(t["wins"], t["ties"], t["losses"], strict=True)
        ],
        "verdict": list(t["verdict"]),
    }
    return pd.DataFrame(rows, index=t.index)


def frame_table(frame: pd.DataFrame) -> TextTable:
    """A frame as a :class:`TextTable`: its index as the first column(s), every cell as text.

    Text cells stay as they are; numbers get four decimals, with a sign in a column
    named ``difference``.

    Examples
    --------
    >>> frame = pd.DataFrame({"bm25": [0.5], "difference": [0.25]},
    ...                      index=pd.Index(["q1"], name="query_id"))
    >>> frame_table(frame)
    TextTable(header=('query_id', 'bm25', 'difference'), rows=(('q1', '0.5000', '+0.2500'),))
    """
    index_names = [n or "" for n in frame.index.names]
    header = index_names + [str(c) for c in frame.columns]
    shows = [format_signed if column == "difference" else format_number
             for column in frame.columns]
    rows = []
    for key, values in zip(frame.index, frame.itertuples(index=False), strict=True):
        keys = list(key) if isinstance(key, tuple) else [key]
        cells = [v if isinstance(v, str) else show(v)
                 for v, show in zip(values, shows, strict=True)]
        rows.append(tuple([str(k) for k in keys] + cells))
    return TextTable(tuple(header), tuple(rows))
