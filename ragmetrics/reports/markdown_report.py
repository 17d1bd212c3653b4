"""The report as Markdown (GitHub-flavoured tables): every part of the report document.

The verdict first (its sentences, the other metrics' verdicts, the warnings' count), then
what the retrievers cost, questions with no answer, the means, each system against the baseline, the drill-downs
(with each question and passage when given), the convention card, and the warnings
listed at the end.

User text (titles, system names, query ids, warnings) is shown as written, never as
markup: no HTML, no link, no table break (:func:`~ragmetrics.safe_text.markdown_text`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..safe_text import markdown_text
from .document import ReportDocument, Section, build_report
from .text_tables import TextTable

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["render_markdown", "to_markdown"]


def to_markdown(comparison: Comparison, *, title: str = "Retrieval evaluation") -> str:
    """The full report as Markdown (GitHub-flavoured tables).

    Examples
    --------
    >>> from ragmetrics import compare
    >>> result = compare({"bm25": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"], n_resamples=50)
    >>> text = to_markdown(result)
    >>> text.splitlines()[0], text.splitlines()[2]
    ('# Retrieval evaluation', '## Verdict on MRR')
    >>> "## Convention card" in text and "common mistake" in text
    True
    """
    return render_markdown(build_report(comparison, title=title))


def render_markdown(document: ReportDocument) -> str:
    """The Markdown of a report document."""
    parts = [f"# {markdown_text(document.title)}", ""]
    parts += _verdict(document)
    if document.retrievers is not None:
        parts += _section(document.retrievers)
    if document.costs is not None:
        parts += _section(document.costs)
    if document.no_answer is not None:
        parts += _section(document.no_answer, before=document.no_answer_verdict)
    parts += _section(document.means)
    for section in document.against_baseline:
        parts += _section(section)
    for section in document.several:
        parts += _section(section)
    for section in document.drilldowns:
        parts += _section(section)
    if document.power is not None:
        parts += _section(document.power)
    if document.rankings:
        parts += [f"## {document.rankings_heading}", "", document.rankings_note, ""]
        for section in document.rankings:
            parts += _section(section, level="###")
    parts += _section(document.card)
    if document.warnings:
        parts += [f"## {document.warnings_heading}", ""]
        parts += [f"- **Warning:** {markdown_text(w)}" for w in document.warnings]
        parts.append("")
    return "\n".join(parts[:-1]) + "\n"  # the last part: no blank line after it


def _verdict(document: ReportDocument) -> list[str]:
    """The verdict's sentences, the other metrics' verdicts, and the warnings' count."""
    parts = [f"## {markdown_text(document.verdict_heading)}", ""]
    parts += [line for sentence in document.verdict for line in (markdown_text(sentence), "")]
    if document.other_verdicts:
        parts += ["Other metrics:", ""]
        parts += [f"- {markdown_text(line)}" for line in document.other_verdicts]
        parts.append("")
    if document.warnings_line:
        parts += [(f"**{markdown_text(document.warnings_line)}**, listed at the end "
                  f"({markdown_text(document.warnings_heading)})."), ""]
    return parts


def _section(section: Section, level: str = "##", before=()) -> list[str]:
    """The section: heading, the paragraphs ``before`` (a verdict), caption, table."""
    heading = "".join(markdown_text(piece) for piece in section.heading)
    said = [line for sentence in before for line in (markdown_text(sentence), "")]
    caption = [] if section.caption is None else [markdown_text(section.caption), ""]
    return [f"{level} {heading}", "", *said, *caption, _table(section.table), ""]


def _table(table: TextTable) -> str:
    lines = ["| " + " | ".join(markdown_text(h) for h in table.header) + " |",
             "|" + "---|" * len(table.header)]
    lines += ["| " + " | ".join(markdown_text(c) for c in row) + " |" for row in table.rows]
    return "\n".join(lines)
