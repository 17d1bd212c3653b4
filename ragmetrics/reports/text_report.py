"""The report as plain text, for a terminal: what ``print(comparison)`` and ``ragmetrics
evaluate`` show.

The verdict first (one sentence per system on the primary metric, the other metrics'
verdicts in a line each, and the warnings' count), then what the retrievers cost,
questions with no answer (with ``max_false_answer_rate``), the overview line, the means, each system against the baseline, the warnings listed, and the
conventions in one line; the drill-downs and the full card are for the files
(:mod:`~ragmetrics.reports.markdown_report`, :mod:`~ragmetrics.reports.html_report`).
Every character a terminal would act on (escape sequences, right-to-left overrides) is
shown as an escape: ids and names cannot drive the terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..safe_text import terminal_text
from .document import ReportDocument, build_report
from .formatting import fixed_width
from .headline import verdict_lines
from .text_tables import TextTable

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["render_text", "to_text"]


def to_text(comparison: Comparison) -> str:
    """The comparison as plain text, for a terminal: what ``ragmetrics evaluate`` prints.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> runs = {"old": {"q1": ["x", "d"]}, "new": {"q1": ["d"]}}
    >>> text = to_text(compare(runs, {"q1": {"d"}}, ["mrr"], n_resamples=50))
    >>> text.splitlines()[0]
    'Verdict on MRR:'
    >>> text.splitlines()[1].split(":")[0]
    '  new and old show no significant difference on MRR'
    """
    return render_text(build_report(comparison, complete=False))  # what a terminal shows


def render_text(document: ReportDocument) -> str:
    """The text of a report document (its title is left out: a terminal has the command):
    the verdict first, the warnings' count with it and their list at the end."""
    lines = verdict_lines(document.verdict_heading, document.verdict,
                          document.other_verdicts, document.warnings_line)
    if document.retrievers is not None:
        lines += ["", "Retrievers (latency per query)",
                  _fixed_width(document.retrievers.table)]
    if document.costs is not None:
        unit = document.comparison.costs.attrs.get("unit", "characters")
        lines += ["", f"Cost ({unit} sent per question)", _fixed_width(document.costs.table)]
    if document.no_answer is not None:
        lines += ["", f"{''.join(document.no_answer.heading)}:"]
        lines += [f"  {sentence}" for sentence in document.no_answer_verdict]
        lines.append(_fixed_width(document.no_answer.table))
    lines += ["", document.overview, "", _fixed_width(document.means.table)]
    for section in (*document.against_baseline, *document.several):
        lines += ["", "".join(section.heading), _fixed_width(section.table)]
    if document.warnings:
        lines += ["", "Warnings:"] + [f"  - {w}" for w in document.warnings]
    lines += ["", f"Conventions: {document.conventions}"]
    return terminal_text("\n".join(lines))  # ids and names cannot drive the terminal


def _fixed_width(table: TextTable) -> str:
    return "\n".join(fixed_width([list(table.header), *map(list, table.rows)]))
