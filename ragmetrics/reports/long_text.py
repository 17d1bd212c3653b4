"""The comparison of many systems as text: one line per (metric, system), best first.

With more than a few systems the wide table of :mod:`~ragmetrics.reports.text_report`
(one column per system) no longer fits a terminal; here each metric lists every system
by its mean, best first, with its interval and, beside it, the difference from the
baseline, the corrected p-value and the verdict. ``ragmetrics evaluate`` prints this for
more than :data:`LONG_FROM` runs (``--wide`` for the wide table). As in the wide text,
the verdict on the primary metric comes first, a sentence per system, and the warnings'
count with it (their list at the end).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..metrics.registry import parse_metric
from ..safe_text import terminal_text
from .document import build_report, conventions_line, overview_line
from .formatting import (
    fixed_width,
    format_interval,
    format_p,
    format_percent,
    format_signed,
)
from .headline import verdict_lines, verdict_list, warnings_summary

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["LONG_FROM", "to_long_text"]

#: From this many systems on, the command prints the long form.
LONG_FROM = 5


def to_long_text(comparison: Comparison) -> str:
    """Every (metric, system) on a line of its own, each metric's systems best first.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> qrels = {f"q{i}": {"a"} for i in range(30)}
    >>> runs = {"old": {q: ["z", "a"] for q in qrels}, "new": {q: ["a"] for q in qrels}}
    >>> text = to_long_text(compare(runs, qrels, ["mrr", "recall@1"], n_resamples=500))
    >>> for line in text.splitlines()[6:13]:
    ...     print(line)
    30 queries, 2 systems; mean [95% interval], 500 resamples, seed 0
    <BLANKLINE>
    metric    rank  system  mean [95% interval]      vs old    p (Holm)  verdict
    mrr       1     new     1.0000 [1.0000, 1.0000]  +0.5000   0.0040    new better
    mrr       2     old     0.5000 [0.5000, 0.5000]  baseline
    recall@1  1     new     1.0000 [1.0000, 1.0000]  +1.0000   0.0040    new better
    recall@1  2     old     0.0000 [0.0000, 0.0000]  baseline
    """
    c = comparison
    correction = {"holm": "Holm", "bh": "BH", "none": "uncorrected"}[c.correction]
    header = ("metric", "rank", "system", f"mean [{format_percent(c.confidence)} interval]",
              f"vs {c.baseline}", f"p ({correction})", "verdict")
    rows = []
    for metric in c.metrics:
        means = c.summary.xs(metric, level="metric")
        order = np.argsort(-means["mean"].to_numpy(), kind="stable")
        for rank, system in enumerate(means.index[order], start=1):
            m = means.loc[system]
            cells = [metric, str(rank), system, format_interval(m["mean"], m["low"], m["high"])]
            if system == c.baseline:
                cells += ["baseline", "", ""]
            else:
                t = c.tests.loc[(metric, system)]
                cells += [format_signed(t["difference"]), format_p(t["p_adjusted"]),
                          t["verdict"]]
            rows.append(cells)
    table = fixed_width([header, *rows])
    label = parse_metric(c.primary).pretty_name
    lines = verdict_lines(f"Verdict on {label}", c.verdict(), verdict_list(c, skip=c.primary),
                          warnings_summary(len(c.warnings)) if c.warnings else "")
    lines += ["", overview_line(c), "", *table]
    for section in build_report(c, complete=False).several:  # matrix, ranking, segments
        lines += ["", "".join(section.heading),
                  *fixed_width([list(section.table.header), *map(list, section.table.rows)])]
    if c.warnings:
        lines += ["", "Warnings:"] + [f"  - {w}" for w in c.warnings]
    lines += ["", f"Conventions: {conventions_line(c)}"]
    return terminal_text("\n".join(lines))
