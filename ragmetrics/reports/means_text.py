"""Each system's means, and nothing else, as text: what ``ragmetrics evaluate
--means-only`` prints.

The trec_eval program prints a run's means; a comparison (:mod:`~ragmetrics.reports.
text_report`) adds intervals, paired tests and verdicts, whose resampling is most of its
time for a hundred runs. Here are the means alone, in the layouts of the comparison: one
column per system for a few systems, else one line per (metric, system), each metric's
systems best first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..evaluation import Evaluation
from ..safe_text import terminal_text
from .document import conventions_text
from .formatting import fixed_width, format_count, format_number

__all__ = ["means_text"]


def means_text(evaluations: Mapping[str, Evaluation], *, long_form: bool,
               notes: Sequence[str] = ()) -> str:
    """The means of every system's :class:`~ragmetrics.Evaluation` as plain text.

    Parameters
    ----------
    evaluations : mapping of str to Evaluation
        Each system's evaluation, under the same metrics and conventions.
    long_form : bool
        One line per (metric, system), best first; else one column per system.
    notes : sequence of str
        Warnings, listed under the table.

    Examples
    --------
    >>> from ragmetrics import evaluate
    >>> qrels = {"q1": {"a"}, "q2": {"b"}}
    >>> runs = {"old": {"q1": ["z", "a"], "q2": ["b"]}, "new": {"q1": ["a"], "q2": ["b"]}}
    >>> found = {name: evaluate(run, qrels, ["mrr"]) for name, run in runs.items()}
    >>> print(means_text(found, long_form=False))
    2 queries, 2 systems; means only (no intervals, no tests)
    <BLANKLINE>
    metric  old     new
    mrr     0.7500  1.0000
    <BLANKLINE>
    Conventions: relevance_level=1, gain=linear, ties=trec_eval, duplicates=error, empty_relevant=zero, missing_from_run=zero, order_by=score
    >>> print("\\n".join(means_text(found, long_form=True).splitlines()[2:5]))
    metric  rank  system  mean
    mrr     1     new     1.0000
    mrr     2     old     0.7500
    """
    names = list(evaluations)
    first = evaluations[names[0]]
    metrics = list(first.summary.index)
    counts = sorted({len(e.per_query) for e in evaluations.values()})
    queries = (format_count(counts[0], "query", "queries") if len(counts) == 1
               else f"{counts[0]}-{counts[-1]} queries")
    overview = (f"{queries}, {format_count(len(names), 'system', 'systems')}; means only "
                "(no intervals, no tests)")
    means = np.array([[evaluations[n].summary[m] for n in names] for m in metrics],
                     dtype=np.float64).reshape(len(metrics), len(names))
    if long_form:
        header = ["metric", "rank", "system", "mean"]
        rows = []
        for i, metric in enumerate(metrics):
            order = np.argsort(-means[i], kind="stable")  # best first; NaN last
            rows += [[metric, str(rank), names[j], format_number(means[i, j])]
                     for rank, j in enumerate(order, start=1)]
    else:
        header = ["metric", *names]
        rows = [[metric, *map(format_number, means[i])] for i, metric in enumerate(metrics)]
    table = fixed_width([header, *rows])
    lines = [overview, "", *table]
    if notes:
        lines += ["", "Warnings:"] + [f"  - {note}" for note in notes]
    lines += ["", f"Conventions: {conventions_text(first.conventions, first.preset)}"]
    return terminal_text("\n".join(lines))
