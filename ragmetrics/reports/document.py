"""The report document: what a report says, built once from a Comparison, in no format yet.

Every report holds the same parts, in this order: the verdict (one sentence per system
against the baseline on the primary metric, :func:`~ragmetrics.reports.headline.verdict_sentences`,
then the other metrics' verdicts in a line each), the warnings as one line with their
count (too few queries, one metric alone, queries missing from a run: HTML folds them
under it, text and Markdown list them at the end), what the retrievers cost (latency,
and for evidence spans the units each system sends to the model at each cut: beside the
metrics, not in them), questions with no answer (with ``max_false_answer_rate``: each
system's threshold and which abstains better), the differences plot, the means with their intervals
(metric rows, system columns), each system against the baseline (difference, interval,
p-values, verdict), the queries that differ most and the worst queries (the drill-downs,
with each question and passage when given), and the convention card. :func:`build_report` puts them in a
:class:`ReportDocument` of plain text; the renderers (:mod:`~ragmetrics.reports.text_report`,
:mod:`~ragmetrics.reports.markdown_report`, :mod:`~ragmetrics.reports.html_report`) only
lay it out and make its user text inert for their format.

This module computes nothing: the numbers are the Comparison's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..conventions import shown
from ..metrics.registry import parse_metric
from .abstention_text import (
    NO_ANSWER_HEADING,
    abstention_caption,
    abstention_sentences,
    abstention_table,
)
from .card import convention_card
from .drilldown import power_section, ranking_sections
from .formatting import format_count, format_percent
from .headline import snippet, verdict_list, warnings_summary
from .several_sections import factor_section, segment_sections, several_system_sections
from .text_tables import (
    TextTable,
    costs_table,
    differences_table,
    frame_table,
    retrievers_table,
    summary_table,
)

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = [
    "DRILLDOWN_ROWS",
    "QUESTION_CHARS",
    "RANKINGS_HEADING",
    "RANKINGS_NOTE",
    "WARNINGS_HEADING",
    "Figure",
    "ReportDocument",
    "Section",
    "build_report",
    "conventions_line",
    "conventions_text",
    "overview_line",
    "with_questions",
]

#: The queries each drill-down lists.
DRILLDOWN_ROWS = 10

#: The heading of the warnings' list (at the end of the text and Markdown reports).
WARNINGS_HEADING = "Warnings"

#: How many characters of a question the drill-down tables show (cut on a word).
QUESTION_CHARS = 120

#: The heading of the rankings of the queries that differ most, and what they show.
RANKINGS_HEADING = "The queries that differ most, rank by rank"
RANKINGS_NOTE = ("Each system's ranking of the query, side by side: the doc, its grade (or "
                 "\"not judged\": counted as not relevant) and what that rank adds to the "
                 "metric.")


@dataclass(frozen=True)
class Figure:
    """A figure of the report, drawn by the renderers that show pictures (HTML).

    Attributes
    ----------
    kind : {"intervals", "differences"}
        :func:`~ragmetrics.reports.figures.plot_intervals` (every system's means), or
        :func:`~ragmetrics.reports.figures.plot_differences` of ``system``.
    description : str
        What the figure shows, in words (an image's alternative text).
    system : str, optional
        The system compared with the baseline (``kind="differences"``).
    """

    kind: str
    description: str
    system: str | None = None


@dataclass(frozen=True)
class Section:
    """One part of a report: a heading, a table, and perhaps a caption and a figure.

    Attributes
    ----------
    heading : tuple of str
        The heading in pieces, joined as they are. A renderer makes each piece inert on
        its own, so that one name's markup cannot reach into the next (a system and the
        baseline are pieces of their own in "<system> vs <baseline> (baseline)").
    table : TextTable
    caption : str, optional
        A sentence shown above the table.
    figure : Figure, optional
        Shown below the table where the format has pictures.
    """

    heading: tuple[str, ...]
    table: TextTable
    caption: str | None = None
    figure: Figure | None = None


@dataclass(frozen=True)
class ReportDocument:
    """What a report says, in plain text, in reading order.

    Attributes
    ----------
    title : str
        The report's title (the text report, for a terminal, has none).
    overview : str
        One line: queries, systems, the interval level, the resamples, the seed.
    warnings : tuple of str
        What the numbers need to be read with (the Comparison's ``warnings``).
    means : Section
        Each system's mean with its bootstrap interval, one row per metric.
    against_baseline : tuple of Section
        One per system other than the baseline: its difference from the baseline on
        every metric, with interval, p-values, effect size and verdict.
    drilldowns : tuple of Section
        The queries where each system and the baseline differ most, then each system's
        worst queries, on the headline metric (nDCG@10 if compared).
    card : Section
        The convention card (:func:`~ragmetrics.reports.card.convention_card`).
    conventions : str
        The conventions in one line, ``name=value, ...``, for a terminal.
    comparison : Comparison
        The Comparison the document was built from, for the figures.
    power : Section or None
        The minimum detectable effect and the queries needed for a two-point difference
        (:func:`~ragmetrics.reports.drilldown.power_section`); None with one system.
    rankings : tuple of Section
        The rankings, side by side, of the queries that differ most
        (:func:`~ragmetrics.reports.drilldown.ranking_sections`).
    several : tuple of Section
        Several systems, factors and segments
        (:mod:`~ragmetrics.reports.several_sections`): the summary matrix, the ranking and
        every pair tested (with three systems or more, or every pair tested), the
        factors' main effects, the tables per segment (the headline metric's alone in
        the text report).
    retrievers : Section or None
        How each retriever ran (latency per query, cached queries, ``k``, config hash:
        :func:`~ragmetrics.reports.text_tables.retrievers_table`), for runs made by
        :func:`ragmetrics.runners.run_retriever`; None otherwise. A table of its own,
        right after the verdict: the cost beside the quality, not mixed into it.
    costs : Section or None
        What each system sends to the model per question at every cut the metrics read
        (units sent: mean, median, 90th percentile:
        :func:`~ragmetrics.reports.text_tables.costs_table`), for runs judged by evidence
        spans; None otherwise. A table of its own, right beside the retrievers' table.
    verdict_heading : str
        "Verdict on <primary metric>".
    verdict : tuple of str
        One sentence per system against the baseline on the primary metric
        (:meth:`ragmetrics.Comparison.verdict`): what a report says first.
    other_verdicts : tuple of str
        The verdict on every other metric, a line each
        (:func:`~ragmetrics.reports.headline.verdict_list`).
    difference_figures : tuple of Figure
        Each system minus the baseline on every metric, shown after the verdict where
        the format has pictures.
    no_answer : Section or None
        Questions with no answer (``compare(max_false_answer_rate=...)``): each system's
        threshold, its false-answer rate and recall with intervals, where it was chosen
        and measured (:func:`~ragmetrics.reports.abstention_text.abstention_table`);
        None otherwise. A section of its own after the costs, beside the metrics.
    no_answer_verdict : tuple of str
        Which system abstains better, and the caveats
        (:func:`~ragmetrics.reports.abstention_text.abstention_sentences`), shown above
        ``no_answer``'s table.
    """

    title: str
    overview: str
    warnings: tuple[str, ...]
    means: Section
    against_baseline: tuple[Section, ...]
    drilldowns: tuple[Section, ...]
    card: Section
    conventions: str
    comparison: Comparison = field(repr=False)
    power: Section | None = None
    rankings: tuple[Section, ...] = ()
    retrievers: Section | None = None
    costs: Section | None = None
    verdict_heading: str = "Verdict"
    verdict: tuple[str, ...] = ()
    other_verdicts: tuple[str, ...] = ()
    difference_figures: tuple[Figure, ...] = ()

    several: tuple[Section, ...] = ()
    no_answer: Section | None = None
    no_answer_verdict: tuple[str, ...] = ()

    @property
    def warnings_line(self) -> str:
        """The warnings as one line: their count ("7 warnings"); empty without any."""
        return warnings_summary(len(self.warnings)) if self.warnings else ""

    #: The words every renderer puts around the parts: the document's, not the formats'.
    warnings_heading: ClassVar[str] = WARNINGS_HEADING
    rankings_heading: ClassVar[str] = RANKINGS_HEADING
    rankings_note: ClassVar[str] = RANKINGS_NOTE


def build_report(comparison: Comparison, *, title: str = "Retrieval evaluation",
                 complete: bool = True) -> ReportDocument:
    """The report of ``comparison``, every part of it, ready for any renderer.

    ``complete=False`` leaves out what only the full reports (Markdown, HTML) show: the
    drill-downs, the rankings (which read the runs again), the power section and the
    convention card (whose versions cost a look at the installed packages). The text
    report, printed by every ``ragmetrics evaluate``, needs none of them.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> runs = {"old": {"q1": ["x", "d"]}, "new": {"q1": ["d"]}}
    >>> document = build_report(compare(runs, {"q1": {"d"}}, ["mrr"], n_resamples=50))
    >>> document.overview
    '1 query, 2 systems; mean [95% interval], 50 resamples, seed 0'
    >>> document.means.table.rows
    (('mrr', '0.5000 [0.5000, 0.5000]', '1.0000 [1.0000, 1.0000]'),)
    >>> ["".join(section.heading) for section in document.against_baseline]
    ['new vs old (baseline)']
    >>> document.conventions.split(", ")[:3]
    ['relevance_level=1', 'gain=linear', 'ties=trec_eval']
    """
    c = comparison
    tests = differences_table(c)
    against = tuple(
        Section(
            heading=(system, " vs ", c.baseline, " (baseline)"),
            table=frame_table(tests.xs(system, level="system")),
        )
        for system in c.systems[1:]
    )
    card = convention_card(c) if complete else {}
    return ReportDocument(
        title=title,
        overview=overview_line(c),
        warnings=tuple(c.warnings),
        means=Section(
            heading=("Means",),
            table=frame_table(summary_table(c)),
            caption=_means_caption(c),
            figure=Figure("intervals", "means with intervals"),
        ),
        against_baseline=against,
        drilldowns=_drilldowns(c) if complete else (),
        card=Section(heading=("Convention card",),
                     table=TextTable(("convention", "value"), tuple(card.items()))),
        conventions=conventions_line(c),
        comparison=c,
        power=_power(c) if complete else None,
        rankings=tuple(Section(heading=heading, table=table, caption=caption)
                       for heading, caption, table in ranking_sections(c, c.primary))
        if complete else (),
        retrievers=_retrievers(c),
        costs=_costs(c),
        verdict_heading=f"Verdict on {parse_metric(c.primary).pretty_name}",
        verdict=c.verdict(),
        other_verdicts=verdict_list(c, skip=c.primary),
        difference_figures=tuple(Figure("differences", f"{system} minus {c.baseline}", system)
                                 for system in c.systems[1:]),
        several=_several(c, complete),
        no_answer=_no_answer(c),
        no_answer_verdict=abstention_sentences(c),
    )


def _several(c: Comparison, complete: bool) -> tuple[Section, ...]:
    """Several systems, factors and segments (:mod:`~ragmetrics.reports.several_sections`)."""
    metric = c.primary  # the ranking and the segments on the verdict's metric
    found = several_system_sections(c, metric, complete=complete)
    factors = factor_section(c)
    found += [factors] if factors is not None else []
    found += segment_sections(c, c.metrics if complete else [metric])
    return tuple(Section(heading=heading, table=table, caption=caption)
                 for heading, caption, table in found)


def _retrievers(c: Comparison) -> Section | None:
    table = retrievers_table(c)
    if table is None:
        return None
    return Section(heading=("Retrievers",), table=frame_table(table),
                   caption=("Seconds per query as milliseconds (mean, median, 90th and 99th "
                            "percentile) over the queries called in the run; queries served "
                            "from the cache are counted, not timed."))


def _costs(c: Comparison) -> Section | None:
    table = costs_table(c)
    if table is None:
        return None
    unit = c.costs.attrs.get("unit", "characters")
    return Section(heading=("Cost",), table=frame_table(table),
                   caption=(f"Units sent to the model per question, in {unit}: the chunks "
                            "kept at each cut the metrics read, each chunk whole (text two "
                            "chunks share counted in both, as a prompt holds it); mean, "
                            "median (p50) and 90th percentile (p90) over the queries "
                            "counted. A cost beside the metrics, not one of them."))


def _no_answer(c: Comparison) -> Section | None:
    table = abstention_table(c)
    if table is None:
        return None
    return Section(heading=(NO_ANSWER_HEADING,), table=frame_table(table),
                   caption=abstention_caption(c))


def _power(c: Comparison) -> Section | None:
    found = power_section(c)
    if found is None:
        return None
    heading, caption, table = found
    return Section(heading=heading, table=table, caption=caption)


def overview_line(c: Comparison) -> str:
    """What was compared, in one line: queries, systems, interval, resamples, seed."""
    return (f"{format_count(c.n_queries, 'query', 'queries')}, "
            f"{format_count(len(c.systems), 'system', 'systems')}; "
            f"mean [{format_percent(c.confidence)} interval], {c.n_resamples} "
            f"resamples, seed {c.seed}")


def conventions_line(c: Comparison) -> str:
    """Every convention and the statistics' settings, as ``key=value, ...``."""
    return conventions_text(c.conventions, c.preset,
                            [f"correction={c.correction}", f"alpha={c.alpha:g}"])


def conventions_text(conventions, preset: str | None, settings: list[str] = ()) -> str:
    """The conventions (those :func:`ragmetrics.conventions.shown` shows), then
    ``settings``, then the preset, as ``key=value, ...``."""
    return ", ".join(
        [f"{key}={value:g}" if not isinstance(value, str) else f"{key}={value}"
         for key, value in shown(conventions).items()]
        + list(settings) + ([f"preset={preset}"] if preset else [])
    )


def _means_caption(c: Comparison) -> str:
    """What the means are over, and what their intervals are."""
    caption = (f"Mean over {format_count(c.n_queries, 'query', 'queries')} "
               f"[{format_percent(c.confidence)} interval: Student's t, each end moved out to "
               "the bootstrap's where it reaches further].")
    if (c.summary["n_queries"] < c.n_queries).any():
        caption += (" A cell marked (n = ...) is a mean over fewer queries: those with a value, "
                    "where a \"skip\" policy left others out.")
    return caption


def with_questions(frame, texts) -> object:
    """``frame`` (indexed by query id) with a first column ``question``: each query's text,
    cut to :data:`QUESTION_CHARS` on a word; ``frame`` itself without texts."""
    if not texts:
        return frame
    frame = frame.copy()
    frame.insert(0, "question", [snippet(texts.get(q, ""), QUESTION_CHARS)
                                 for q in frame.index])
    return frame


def _drilldowns(comparison: Comparison) -> tuple[Section, ...]:
    c, metric, n = comparison, comparison.primary, DRILLDOWN_ROWS
    texts = c.query_texts
    # One piece each: the name in them is escaped with the whole line, as reports always
    # were (a piece of its own would escape brackets differently in a name like "[a](b)").
    differ = [
        Section(heading=(f"Queries where {system} and {c.baseline} differ most on {metric}",),
                table=frame_table(with_questions(
                    c.queries_that_differ_most(metric, n, system=system), texts)))
        for system in c.systems[1:]
    ]
    worst = [
        Section(heading=(f"Worst queries of {system} on {metric}",),
                table=frame_table(with_questions(c.worst_queries(system, metric, n), texts)))
        for system in c.systems
    ]
    return tuple(differ + worst)
