"""Present a :class:`~ragmetrics.Comparison`: one report, rendered as text, Markdown and HTML.

A report is built once (:func:`build_report`) into a :class:`ReportDocument`: the
warnings first, the means with their intervals, each system against the baseline, the
drill-downs (the queries that differ most, the worst queries) and the **convention
card** (the tie rule and every other policy, the levels, the resamples, the seed, the
versions). Renderers lay the same document out for a terminal (:func:`to_text`), as
Markdown (:func:`to_markdown`) or as one self-contained HTML page (:func:`to_html`:
figures inline as base64 PNG, styles inline, no script, no external URL). The layer
computes nothing: the numbers are the Comparison's. It reads a Comparison's attributes
and names the class in annotations only: it never imports :mod:`ragmetrics.comparison`,
which imports it (``Comparison.to_text()``, ``to_markdown()`` and ``to_html()`` import
their renderer when called), so the dependency runs one way, comparison -> reports
(``tests/repo/test_layout.py`` checks it, imports inside functions included). It builds on
:mod:`ragmetrics.stats` (power) and :mod:`ragmetrics.evaluation` (a query's rankings).

The modules:

- :mod:`~ragmetrics.reports.document`: the report document and :func:`build_report`;
- :mod:`~ragmetrics.reports.text_tables`: the numbers as tables of text;
- :mod:`~ragmetrics.reports.formatting`: numbers as text (decimals, signs, p-values);
- :mod:`~ragmetrics.reports.card`: the convention card;
- :mod:`~ragmetrics.reports.abstention_text`: questions with no answer, in words and as a
  table (:func:`abstention_table`);
- :mod:`~ragmetrics.reports.text_report`, :mod:`~ragmetrics.reports.markdown_report`,
  :mod:`~ragmetrics.reports.html_report`: the three renderers, and
  :mod:`~ragmetrics.reports.long_text` (many systems, a line each) and
  :mod:`~ragmetrics.reports.means_text` (the means alone: ``--means-only``);
- :mod:`~ragmetrics.reports.figures`: :func:`plot_intervals`, :func:`plot_differences`
  (matplotlib; imported only when a figure is asked for);
- :mod:`~ragmetrics.reports.report_file`: :func:`write_report`, by file extension;
- :mod:`~ragmetrics.reports.per_query`: the per-query values, and their CSV file; the
  threshold sweeps' CSV file;
- :mod:`~ragmetrics.reports.output_files`: files written atomically, never over an input.
"""

from .._moved import renamed
from .abstention_text import abstention_table
from .card import convention_card
from .document import Figure, ReportDocument, Section, build_report
from .html_report import render_html, to_html
from .markdown_report import render_markdown, to_markdown
from .per_query import per_query_frame, write_per_query_csv, write_threshold_sweep_csv
from .report_file import REPORT_FORMATS, write_report
from .text_report import render_text, to_text
from .text_tables import (
    TextTable,
    costs_table,
    differences_table,
    retrievers_table,
    summary_table,
)

__all__ = [
    "REPORT_FORMATS",
    "Figure",
    "ReportDocument",
    "Section",
    "TextTable",
    "abstention_table",
    "build_report",
    "convention_card",
    "costs_table",
    "differences_table",
    "per_query_frame",
    "plot_differences",
    "plot_intervals",
    "render_html",
    "render_markdown",
    "render_text",
    "retrievers_table",
    "summary_table",
    "to_html",
    "to_markdown",
    "to_text",
    "write_per_query_csv",
    "write_report",
    "write_threshold_sweep_csv",
]

_FIGURES = ("plot_differences", "plot_intervals")


def __getattr__(name: str):
    # The figures import matplotlib: loaded when a figure is asked for, so that importing
    # the reports costs no matplotlib.
    if name in _FIGURES:
        from . import figures

        return getattr(figures, name)
    return renamed(__name__, name)  # an old name, with a DeprecationWarning; else AttributeError
