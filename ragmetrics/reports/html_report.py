"""The report as one self-contained HTML page: styles and figures inline, no script, no
external URL, every piece of user text escaped.

The page opens with the verdict (a sentence per system on the primary metric, the other
metrics' verdicts in a list), then every warning folded under one line that counts them
(a ``<details>`` element: "7 warnings"), what the retrievers cost, questions with no
answer, the differences plot, and the tables.

The rankings of the queries that differ most are a drill-down that needs no script:
each query is a ``<details>`` element, closed, that a click (or Enter on its summary)
opens to show both systems' rankings side by side.

The figures (:mod:`~ragmetrics.reports.figures`) are drawn with matplotlib, imported
when a page with figures is made; ``figures=False`` leaves them out.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from .document import Figure, ReportDocument, Section, build_report
from .text_tables import TextTable

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["render_html", "to_html"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td { font-variant-numeric: tabular-nums; }
th { background: #f3f3f3; }
.warnings { border-left: 0.4em solid #D55E00; background: #fff4ec; }
.verdict p { font-size: 1.1em; margin: 0.4em 0; }
img { max-width: 100%; }
details { margin: 0.3em 0; border: 1px solid #ccc; border-radius: 3px; padding: 0.2em 0.6em; }
summary { cursor: pointer; font-weight: 600; padding: 0.2em 0; }
details[open] summary { border-bottom: 1px solid #ccc; margin-bottom: 0.4em; }
"""


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
    return render_html(build_report(comparison, title=title), figures=figures)


def render_html(document: ReportDocument, *, figures: bool = True) -> str:
    """The HTML page of a report document; ``figures=False`` draws no figure."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(document.title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{e(document.title)}</h1>",
        f'<section class="verdict"><h2>{e(document.verdict_heading)}</h2>',
    ]
    parts += [f"<p>{e(sentence)}</p>" for sentence in document.verdict]
    if document.other_verdicts:
        parts.append("<p>Other metrics:</p><ul>"
                     + "".join(f"<li>{e(line)}</li>" for line in document.other_verdicts)
                     + "</ul>")
    parts.append("</section>")
    if document.warnings:
        parts.append(f'<details class="warnings"><summary>{e(document.warnings_line)}'
                     "</summary><ul>"
                     + "".join(f"<li><strong>Warning:</strong> {e(w)}</li>"
                               for w in document.warnings)
                     + "</ul></details>")
    drawn = document.comparison if figures else None
    if document.retrievers is not None:
        parts += _section(document.retrievers, drawn)
    if document.costs is not None:
        parts += _section(document.costs, drawn)
    if document.no_answer is not None:
        parts += _section(document.no_answer, drawn, before=document.no_answer_verdict)
    if drawn is not None:
        parts += [_image(figure, drawn) for figure in document.difference_figures]
    for section in (document.means, *document.against_baseline, *document.several,
                    *document.drilldowns):
        parts += _section(section, drawn)
    if document.power is not None:
        parts += _section(document.power, drawn)
    if document.rankings:
        parts += [f"<h2>{html.escape(document.rankings_heading)}</h2>",
                  f"<p>{html.escape(document.rankings_note)} Open a query to see them.</p>"]
        parts += [_details(section) for section in document.rankings]
    parts += _section(document.card, drawn)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _section(section: Section, comparison: Comparison | None, before=()) -> list[str]:
    """The section's parts (the paragraphs ``before``, a verdict, after its heading); its
    figure too when there is a comparison to draw it from."""
    heading = "".join(html.escape(piece) for piece in section.heading)
    parts = [f"<h2>{heading}</h2>"]
    parts += [f"<p>{html.escape(sentence)}</p>" for sentence in before]
    if section.caption is not None:
        parts.append(f"<p>{html.escape(section.caption)}</p>")
    parts.append(_table(section.table))
    if section.figure is not None and comparison is not None:
        parts.append(_image(section.figure, comparison))
    return parts


def _image(figure: Figure, comparison: Comparison) -> str:
    return (f'<img alt="{html.escape(figure.description)}" '
            f'src="data:image/png;base64,{_figure_png(figure, comparison)}">')


def _details(section: Section) -> str:
    """A query's rankings, folded: the summary names the query, a click opens it."""
    heading = "".join(html.escape(piece) for piece in section.heading)
    caption = "" if section.caption is None else f"<p>{html.escape(section.caption)}</p>"
    return (f'<details class="ranking"><summary>{heading}</summary>{caption}'
            f"{_table(section.table)}</details>")


def _table(table: TextTable) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
        for row in table.rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure_png(figure: Figure, comparison: Comparison) -> str:
    # matplotlib (through the figures module) only when a page with figures is made: a
    # page without them, and `import ragmetrics.reports`, stay free of it.
    from .figures import plot_differences, plot_intervals, png_base64

    if figure.kind == "intervals":
        return png_base64(plot_intervals(comparison))
    return png_base64(plot_differences(comparison, system=figure.system))
