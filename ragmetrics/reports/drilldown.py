"""The report's query drill-down and its power table, as report sections.

- :func:`ranking_sections`: for each of the queries where a system and the baseline
  differ most, both rankings side by side, rank by rank: the doc, its grade (or that it
  was never judged) and what it adds to the metric
  (:mod:`ragmetrics.evaluation.query_view`), so that a reader sees *why* the query moved.
  With the texts given to :func:`ragmetrics.compare` (``queries=``, ``documents=``), the
  heading holds the question and each rank the passage's first words beside its id.
  The HTML report folds each into a ``<details>`` element that opens on a click (no
  script); Markdown shows them as tables.
- :func:`power_section`: the minimum detectable effect at the queries compared and the
  queries needed for a target difference (:meth:`ragmetrics.Comparison.power`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..evaluation.query_view import QueryRankings, shown_by_query
from ..metrics.registry import parse_metric
from ..stats.power import DEFAULT_POWER
from .formatting import format_number, format_percent, format_signed
from .headline import snippet
from .text_tables import TextTable

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["POWER_TARGET", "RANKED_QUERIES", "power_section", "ranking_sections"]

#: The queries per system whose rankings the report shows.
RANKED_QUERIES = 5

#: The difference the power table asks about: two points.
POWER_TARGET = 0.02


def _grade(doc) -> str:
    if doc is None:
        return ""
    if doc.grade is None:
        return "not judged"
    return f"{doc.grade:g}" + (" (relevant)" if doc.relevant else "")


def _adds(doc) -> str:
    if doc is None or doc.contribution is None:
        return ""
    return format_signed(doc.contribution)


def ranking_sections(comparison: Comparison, metric: str, *, n: int = RANKED_QUERIES):
    """For each system, its ``n`` queries that differ most from the baseline on ``metric``,
    both rankings side by side: ``(heading, caption, table)`` each.

    Empty when the Comparison holds no runs (one not made by :func:`ragmetrics.compare`,
    or judged by evidence spans) or a run read in parts (too large to hold).
    """
    c = comparison
    if (c.runs is None or len(c.systems) < 2
            or not all(shown_by_query(run) for run in c.runs.values())):
        return []
    rankings = QueryRankings(c.runs, c.qrels, c.conventions)
    spec = parse_metric(metric)
    depth = spec.k or 10
    questions, passages = c.query_texts or {}, c.document_texts

    def cells(doc) -> tuple[str, ...]:
        """A rank's doc id, its passage's first words (when texts are given), grade, adds."""
        doc_id = () if doc is None else (str(doc.doc_id),)
        text = () if passages is None else (
            ("",) if doc is None else (snippet(passages.get(doc.doc_id, "")),))
        return (doc_id or ("",)) + text + (_grade(doc), _adds(doc))

    found = []
    for system in c.systems[1:]:
        differ = c.queries_that_differ_most(metric, n, system=system)
        for query_id, row in differ.iterrows():
            base = rankings.ranking(c.baseline, query_id, metric)
            other = rankings.ranking(system, query_id, metric)
            rows = []
            for i in range(min(depth, max(len(base), len(other)))):
                a = base[i] if i < len(base) else None
                b = other[i] if i < len(other) else None
                rows.append((str(i + 1), *cells(a), *cells(b)))
            caption = (f"{spec.pretty_name}: {c.baseline} {format_number(row[c.baseline])}, "
                       f"{system} {format_number(row[system])}, difference "
                       f"{format_signed(row['difference'])}. Each rank adds its share of "
                       "the value; ranks below the table, if any, add the rest.")
            text = () if passages is None else ("passage",)
            table = TextTable(("rank", c.baseline, *text, "grade", "adds",
                               system, *text, "grade", "adds"), tuple(rows))
            question = questions.get(query_id)
            heading = (f"Query {query_id}: {system} vs {c.baseline}",) + (
                () if not question else (f" — {snippet(question, 120)}",))
            found.append((heading, caption, table))
    return found


def power_section(comparison: Comparison, *, target: float = POWER_TARGET):
    """``(heading, caption, table)`` of the power table, or None with one system."""
    c = comparison
    if len(c.systems) < 2:
        return None
    table = c.power(target=target)
    rows = []
    for (metric, system), row in table.iterrows():
        needed = int(row["queries_needed"])
        rows.append((metric, system, str(int(row["n_queries"])),
                     format_number(row["sd_difference"]), format_number(row["mde"]),
                     str(needed) if needed > 0 else "n/a"))
    caption = (f"Power of the paired test at alpha = {c.alpha:g} per claim (before the "
               f"correction over the claims), {format_percent(DEFAULT_POWER)} power: the "
               "minimum detectable effect (MDE) with the queries compared, and the queries "
               f"needed to detect a difference of {target:g}, if the spread of the "
               "differences stays the same.")
    header = ("metric", "system", "queries", "sd of differences", "MDE",
              f"queries for {target:g}")
    return ("Power: what these queries can detect",), caption, TextTable(header, tuple(rows))
