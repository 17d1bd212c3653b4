"""Present a :class:`~ragmetrics.compare.Comparison`: text, Markdown, HTML and CSV.

Every report holds the same parts, in this order: what to read the numbers with (the
warnings: too few queries, one metric alone, queries missing from a run), the means with
their intervals (metric rows, system columns), each system against the baseline
(difference, interval, p-values, verdict), the queries that differ most and the worst
queries, and the **convention card**: the tie rule and every other policy, the gain, the
relevance level, the confidence level, the resamples, the seed, and the versions of
ragmetrics, NumPy, pandas and Python. Two reports with the same card are comparable; two
with different cards may not be.

This module computes nothing: the numbers are the Comparison's. The HTML page is
self-contained (figures inline as base64 PNG, styles inline, no external URL), and files
are written atomically: a failure mid-write leaves the previous file untouched.
"""

from __future__ import annotations

import base64
import html
import io
import os
import platform
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd

from .errors import InputValueError
from .output_files import write_atomic
from .plotting import PALETTE
from .policies import describe
from .safe_text import markdown_text, plot_text, spreadsheet_cell, terminal_text
from .stats.comparison import Comparison

__all__ = [
    "REPORT_FORMATS",
    "convention_card",
    "differences_table",
    "per_query_frame",
    "plot_differences",
    "plot_intervals",
    "summary_table",
    "to_html",
    "to_markdown",
    "to_text",
    "write_per_query_csv",
    "write_report",
]

#: Report formats by file extension.
REPORT_FORMATS = {".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown"}

_CORRECTION = {
    "holm": "Holm (family-wise error rate)",
    "bh": "Benjamini-Hochberg (false discovery rate)",
    "none": "none",
}
_SYSTEM_COLORS = [PALETTE[c] for c in ("blue", "orange", "green", "purple", "vermillion", "sky")]


# -- the numbers as tables of text ----------------------------------------------------


def _not_finite(value: float) -> str:
    """NaN is "n/a" (nothing to show); an infinity is a value, and keeps its sign."""
    return "n/a" if np.isnan(value) else ("+inf" if value > 0 else "-inf")


def _number(value: float) -> str:
    return _not_finite(value) if not np.isfinite(value) else f"{value:.4f}"


def _signed(value: float) -> str:
    return _not_finite(value) if not np.isfinite(value) else f"{value:+.4f}"


def _p(value: float) -> str:
    if not np.isfinite(value):
        return "n/a"
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


def _mc_error(error: float, exact: bool) -> str:
    """The Monte Carlo standard error of a p-value: 0 when every pattern was counted."""
    if exact:
        return "0 (exact)"
    if not np.isfinite(error):
        return "n/a"
    return "±<0.0001" if error < 0.0001 else f"±{error:.4f}"


def _effect(d_z: float) -> str:
    return _not_finite(d_z) if not np.isfinite(d_z) else f"{d_z:+.2f}"


def _interval(mean: float, low: float, high: float, signed: bool = False) -> str:
    show = _signed if signed else _number
    return f"{show(mean)} [{show(low)}, {show(high)}]"


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
    cells = [_interval(m, lo, hi) for m, lo, hi in zip(s["mean"], s["low"], s["high"], strict=True)]
    table = pd.Series(cells, index=s.index).unstack("system")
    return table.loc[list(comparison.metrics), list(comparison.systems)]


def _difference_label(comparison: Comparison) -> str:
    """The header of the difference column: the interval's level, and what it means."""
    level = _percent(comparison.difference_confidence)
    if comparison.correction == "holm" and comparison.difference_confidence != comparison.confidence:
        return f"difference [{level} CI each, {_percent(comparison.confidence)} together]"
    if comparison.correction == "bh":
        return f"difference [{level} CI, FCR-adjusted]"
    return f"difference [{level} CI]"


def differences_table(comparison: Comparison) -> pd.DataFrame:
    """Each system against the baseline, as text: one row per (metric, system).

    The interval beside each verdict is at the family level of the correction (see
    :func:`ragmetrics.compare.compare`), and the column header says which; the Monte
    Carlo error of each sampled p-value is shown beside it, and the effect size is the
    paired d_z.

    Examples
    --------
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
    d_z (paired): +inf
    wins/ties/losses: 30/0/0
    verdict: new better
    """
    t = comparison.tests
    correction = {"holm": "Holm", "bh": "BH", "none": "uncorrected"}[comparison.correction]
    rows = {
        _difference_label(comparison): [
            _interval(d, lo, hi, signed=True)
            for d, lo, hi in zip(t["difference"], t["low"], t["high"], strict=True)
        ],
        "p (randomization)": [
            _p(p) + (" (exact)" if exact else "")
            for p, exact in zip(t["p_randomization"], t["exact"], strict=True)
        ],
        "MC error of p": [
            _mc_error(e, exact) if np.isfinite(p) else "n/a"
            for p, e, exact in zip(t["p_randomization"], t["p_mc_error"], t["exact"],
                                   strict=True)
        ],
        "p (t-test)": [_p(p) for p in t["p_t_test"]],
        f"p ({correction})": [_p(p) for p in t["p_adjusted"]],
        "d_z (paired)": [_effect(d) for d in t["effect_size"]],
        "wins/ties/losses": [
            f"{w}/{ti}/{lo}" for w, ti, lo in zip(t["wins"], t["ties"], t["losses"], strict=True)
        ],
        "verdict": list(t["verdict"]),
    }
    return pd.DataFrame(rows, index=t.index)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _means_caption(comparison: Comparison) -> str:
    queries = _count(comparison.n_queries, "query", "queries")
    return f"Mean over {queries} [{_percent(comparison.confidence)} bootstrap interval]."


def _percent(confidence: float) -> str:
    return f"{confidence * 100:g}%"


def convention_card(comparison: Comparison) -> dict[str, str]:
    """Everything the numbers depend on besides the data, as ``{label: value}``.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> result = compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"], n_resamples=50)
    >>> card = convention_card(result)
    >>> card["tied scores"]
    'trec_eval: score descending, then doc id descending as strings (trec_eval)'
    >>> card["resamples"], card["seed"]
    ('50', '0')
    """
    import ragmetrics

    c = comparison.conventions
    exact = bool(comparison.tests["exact"].all()) if len(comparison.tests) else False
    return {
        "queries compared": str(comparison.n_queries),
        "systems": ", ".join(comparison.systems) + f" (baseline: {comparison.baseline})",
        "metrics": ", ".join(comparison.metrics),
        **describe(c),  # every convention, from the conventions table
        "confidence level": _percent(comparison.confidence),
        "difference intervals": _difference_card(comparison),
        "significance level": f"alpha = {comparison.alpha:g}, for the verdicts, after the "
        "correction",
        "intervals": "Student's t over queries, each end moved out to the expanded "
        "percentile bootstrap's where the bootstrap means reach further (expanded_t); "
        "within each metric's range; no spread, no width",
        "resamples": str(comparison.n_resamples),
        "seed": str(comparison.seed),
        "tests": "paired randomization (sign flip; "
        + ("exact, all sign patterns" if exact else f"{comparison.n_resamples} patterns, "
           f"up to {comparison.max_resamples} for a verdict near alpha")
        + ") and paired t-test, two-sided",
        "Monte Carlo error": "a sampled p is taken to lie within p ± 3 sqrt(p (1 - p) / "
        "patterns); a verdict those bounds leave open is resampled further, and called "
        "undecided if still open at the cap",
        "effect size": "d_z = mean(d) / sd(d) of the per-query differences d (paired; not "
        "Cohen's d of two groups, so no small/medium/large)",
        "correction": _CORRECTION[comparison.correction] + ", over all metrics x pairs",
        "versions": f"ragmetrics {ragmetrics.__version__}, numpy {np.__version__}, "
        f"pandas {pd.__version__}, matplotlib {matplotlib.__version__}, "
        f"python {platform.python_version()}",
    }


def _difference_card(comparison: Comparison) -> str:
    c, m = comparison, len(comparison.tests)
    level, pct = _percent(comparison.difference_confidence), _percent(comparison.confidence)
    if c.correction == "holm" and m > 1:
        how = (f"{level} each (Bonferroni: all {m} together cover with {pct}), the level of "
               "the Holm verdicts")
    elif c.correction == "bh" and m > 1:
        how = (f"{level} each (Benjamini-Yekutieli: {pct} less the false discovery rate, "
               "over the claims found significant), the level of the BH verdicts")
    else:
        how = f"{level} each"
    if not np.isclose(c.alpha, 1 - c.confidence):
        how += f"; the verdicts are at alpha = {c.alpha:g}, which does not match"
    return how


def _headline_metric(comparison: Comparison) -> str:
    """The metric of the drill-downs: nDCG@10 if there, else the first nDCG, else the first."""
    names = list(comparison.metrics)
    if "ndcg@10" in names:
        return "ndcg@10"
    return next((m for m in names if m.startswith("ndcg")), names[0])


def _drilldowns(comparison: Comparison, n: int = 10) -> list[tuple[str, pd.DataFrame]]:
    metric = _headline_metric(comparison)
    out = []
    for system in comparison.systems[1:]:
        frame = comparison.queries_that_differ_most(metric, n, system=system)
        out.append((f"Queries where {system} and {comparison.baseline} differ most on {metric}",
                    frame))
    for system in comparison.systems:
        out.append((f"Worst queries of {system} on {metric}",
                    comparison.worst_queries(system, metric, n)))
    return out


def _text_cells(frame: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a frame, with its index as the first column(s), all as text."""
    index_names = [n or "" for n in frame.index.names]
    header = index_names + [str(c) for c in frame.columns]
    shows = [_signed if column == "difference" else _number for column in frame.columns]
    rows = []
    for key, values in zip(frame.index, frame.itertuples(index=False), strict=True):
        keys = list(key) if isinstance(key, tuple) else [key]
        cells = [v if isinstance(v, str) else show(v)
                 for v, show in zip(values, shows, strict=True)]
        rows.append([str(k) for k in keys] + cells)
    return header, rows


# -- text (the terminal) ---------------------------------------------------------------


def _fixed_width(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in [header, *rows]]
    return "\n".join(lines)


def to_text(comparison: Comparison) -> str:
    """The comparison as plain text, for a terminal: what ``ragmetrics evaluate`` prints."""
    c = comparison
    lines = [
        (
            f"{_count(c.n_queries, 'query', 'queries')}, "
            f"{_count(len(c.systems), 'system', 'systems')}; "
            f"mean [{_percent(c.confidence)} bootstrap interval], {c.n_resamples} resamples, "
            f"seed {c.seed}"
        ),
        "",
        _fixed_width(*_text_cells(summary_table(c))),
    ]
    tests = differences_table(c)
    for system in c.systems[1:]:
        part = tests.xs(system, level="system")
        lines += ["", f"{system} vs {c.baseline} (baseline)", _fixed_width(*_text_cells(part))]
    if c.warnings:
        lines += ["", "Warnings:"] + [f"  - {w}" for w in c.warnings]
    conv = c.conventions
    lines += [
        "",
        (
            "Conventions: "
            + ", ".join(f"{key}={value:g}" if not isinstance(value, str) else f"{key}={value}"
                        for key, value in conv.as_dict().items())
            + ", "
            f"correction={c.correction}, alpha={c.alpha:g}"
        ),
    ]
    return terminal_text("\n".join(lines))  # ids and names cannot drive the terminal


# -- Markdown --------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    return markdown_text(text)  # shown as written: no HTML, no links, no markup


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(_md_cell(h) for h in header) + " |",
             "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def to_markdown(comparison: Comparison, *, title: str = "Retrieval evaluation") -> str:
    """The full report as Markdown (GitHub-flavoured tables).

    Examples
    --------
    >>> from ragmetrics import compare
    >>> result = compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"], n_resamples=50)
    >>> text = to_markdown(result)
    >>> text.splitlines()[0]
    '# Retrieval evaluation'
    >>> "## Convention card" in text and "common mistake" in text
    True
    """
    c = comparison
    parts = [f"# {_md_cell(title)}", ""]
    if c.warnings:
        parts += ["## Read this first", ""] + [f"- **Warning:** {_md_cell(w)}" for w in c.warnings]
        parts.append("")
    parts += [
        "## Means",
        "",
        _means_caption(c),
        "",
        _md_table(*_text_cells(summary_table(c))),
        "",
    ]
    tests = differences_table(c)
    for system in c.systems[1:]:
        parts += [f"## {_md_cell(system)} vs {_md_cell(c.baseline)} (baseline)", "",
                  _md_table(*_text_cells(tests.xs(system, level="system"))), ""]
    for heading, frame in _drilldowns(c):
        parts += [f"## {_md_cell(heading)}", "", _md_table(*_text_cells(frame)), ""]
    parts += ["## Convention card", "", _md_table(["convention", "value"],
                                                   [[k, v] for k, v in convention_card(c).items()])]
    return "\n".join(parts) + "\n"


# -- figures ---------------------------------------------------------------------------


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
    ax.set_xlabel(f"mean over {_count(c.n_queries, 'query', 'queries')}, "
                  f"{_percent(c.confidence)} bootstrap interval")
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
    system = c.systems[1] if system is None else c._check_system(system)
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
    ax.set_xlabel(f"mean difference, {_percent(c.difference_confidence)} paired interval "
                  f"(the level of the {c.correction} verdicts)" if c.correction != "none" else
                  f"mean difference, {_percent(c.difference_confidence)} paired interval")
    ax.grid(True, axis="x", color="0.9")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    return ax


def _png_base64(ax) -> str:
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


# -- HTML ------------------------------------------------------------------------------

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td { font-variant-numeric: tabular-nums; }
th { background: #f3f3f3; }
.warnings { border-left: 0.4em solid #D55E00; background: #fff4ec; padding: 0.5em 1em; }
img { max-width: 100%; }
"""


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def to_html(comparison: Comparison, *, title: str = "Retrieval evaluation",
            figures: bool = True) -> str:
    """The full report as one self-contained HTML page (figures inline, no external URL).

    Examples
    --------
    >>> from ragmetrics import compare
    >>> result = compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"], n_resamples=50)
    >>> page = to_html(result, title="<BM25>")
    >>> "<h1>&lt;BM25&gt;</h1>" in page, "data:image/png;base64," in page
    (True, True)
    """
    c = comparison
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{e(title)}</h1>",
    ]
    if c.warnings:
        parts.append('<div class="warnings"><h2>Read this first</h2><ul>'
                     + "".join(f"<li><strong>Warning:</strong> {e(w)}</li>" for w in c.warnings)
                     + "</ul></div>")
    parts += [
        "<h2>Means</h2>",
        f"<p>{e(_means_caption(c))}</p>",
        _html_table(*_text_cells(summary_table(c))),
    ]
    if figures:
        parts.append(f'<img alt="means with intervals" '
                     f'src="data:image/png;base64,{_png_base64(plot_intervals(c))}">')
    tests = differences_table(c)
    for system in c.systems[1:]:
        parts += [f"<h2>{e(system)} vs {e(c.baseline)} (baseline)</h2>",
                  _html_table(*_text_cells(tests.xs(system, level="system")))]
        if figures:
            png = _png_base64(plot_differences(c, system=system))
            parts.append(f'<img alt="{e(system)} minus {e(c.baseline)}" '
                         f'src="data:image/png;base64,{png}">')
    for heading, frame in _drilldowns(c):
        parts += [f"<h2>{e(heading)}</h2>", _html_table(*_text_cells(frame))]
    parts += ["<h2>Convention card</h2>",
              _html_table(["convention", "value"], [[k, v] for k, v in convention_card(c).items()]),
              "</body></html>"]
    return "\n".join(parts) + "\n"


# -- per-query values and files --------------------------------------------------------


def per_query_frame(comparison: Comparison) -> pd.DataFrame:
    """Every per-query value, long by system: columns ``query_id``, ``system``, metrics.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> runs = {"a": {"q1": ["x", "d"]}, "b": {"q1": ["d"]}}
    >>> result = compare(runs, {"q1": {"d"}}, ["mrr"], n_resamples=50)
    >>> per_query_frame(result)
      query_id system  mrr
    0       q1      a  0.5
    1       q1      b  1.0
    """
    frames = []
    for system in comparison.systems:
        frame = comparison.per_query[system].reset_index()
        frame.insert(1, "system", system)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def write_report(comparison: Comparison, path, *, title: str = "Retrieval evaluation") -> Path:
    """Write the report to ``path``, as HTML (``.html``, ``.htm``) or Markdown (``.md``).

    The file is written atomically (:func:`write_atomic`).
    """
    kind = REPORT_FORMATS.get(Path(path).suffix.lower())
    if kind is None:
        known = ", ".join(REPORT_FORMATS)
        raise InputValueError(
            f"cannot tell the report format of {os.fspath(path)!r} from its extension; "
            f"use one of {known}"
        )
    render = to_html if kind == "html" else to_markdown
    text = render(comparison, title=title)
    return write_atomic(path, text)


def write_per_query_csv(comparison: Comparison, path) -> Path:
    """Write :func:`per_query_frame` as CSV, atomically: one row per query and system.

    A query id or system name that a spreadsheet would run as a formula (it starts
    with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, and is not a number)
    is written with a leading ``'`` (:func:`ragmetrics.safe_text.spreadsheet_cell`).
    """
    frame = per_query_frame(comparison)
    for column in ("query_id", "system"):
        frame[column] = frame[column].map(spreadsheet_cell)
    return write_atomic(path, frame.to_csv(index=False))
