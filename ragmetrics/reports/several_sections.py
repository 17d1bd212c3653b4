"""The report's sections for several systems, factors and segments, as ``(heading, caption, table)``.

- :func:`several_system_sections`: with three systems or more, or every pair tested, the
  summary matrix (:meth:`ragmetrics.Comparison.summary_matrix`), the ranking on the
  headline metric (:meth:`~ragmetrics.Comparison.ranking`), and in the full reports every
  pair tested (:attr:`~ragmetrics.Comparison.pairwise`);
- :func:`factor_section`: each factor's main effect (:attr:`~ragmetrics.Comparison.factors`);
- :func:`segment_sections`: per segment, each system's mean and its difference with the
  baseline (:attr:`~ragmetrics.Comparison.segments`): one table per metric in the full
  reports, the headline metric's alone in the text report.
- :func:`family_text`, :func:`segments_card`: the convention card's words for the
  family of claims and for the segments.

This module computes nothing: the numbers are the Comparison's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .formatting import format_count, format_interval, format_number, format_p, format_percent
from .text_tables import TextTable

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["factor_section", "family_text", "segment_sections", "segments_card",
           "several_system_sections"]

_CORRECTED = {"holm": "Holm", "bh": "BH", "none": "uncorrected"}


def family_text(c: Comparison) -> str:
    """The claims corrected together, in words.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> result = compare({"a": {"q1": ["x"]}, "b": {"q1": ["x"]}, "c": {"q1": ["x"]}},
    ...                  {"q1": {"x"}}, ["mrr"], pairs="all", n_resamples=50)
    >>> family_text(result)
    'every pair of systems (3 pairs) x every metric (1): 3 claims'
    """
    k, m = len(c.systems), len(c.metrics)
    n_pairs = k * (k - 1) // 2 if c.pairs == "all" else k - 1
    pairs = (f"every pair of systems ({format_count(n_pairs, 'pair', 'pairs')})"
             if c.pairs == "all" else
             f"each system against the baseline ({format_count(n_pairs, 'pair', 'pairs')})")
    return f"{pairs} x every metric ({m}): {format_count(n_pairs * m, 'claim', 'claims')}"


def segments_card(c: Comparison) -> dict[str, str]:
    """The card's rows for the segments: none without them."""
    if c.segments is None:
        return {}
    names = [s for s in c.segments.index.get_level_values("segment").unique() if s != "(all)"]
    weights = ("per query: every query counts once, a segment by its size (the plain mean, "
               "as in the means table)" if c.segment_weights == "query" else
               "equal: every segment counts the same (the mean of the segment means, a "
               "stratified bootstrap interval, a weighted sign-flip test); the means table "
               "stays per query")
    level = format_percent(c.segment_confidence or c.confidence)
    return {
        "segments": f"{len(names)}: " + ", ".join(names),
        "segment weights": weights,
        "segment tests": ("paired randomization per segment, corrected "
                          f"({_CORRECTED[c.correction]}) over segments x metrics x systems "
                          "against the baseline"
                          + (" and the overall equal-weight differences"
                             if c.segment_weights == "equal" else "")
                          + f", a family apart from the overall one; difference intervals "
                          f"{level} each"),
    }


def several_system_sections(c: Comparison, metric: str, *, complete: bool = True):
    """The summary matrix, the ranking on ``metric`` and (``complete``) every pair tested;
    none with fewer than three systems unless every pair was tested."""
    if c.pairwise is None or (len(c.systems) < 3 and c.pairs != "all"):
        return []
    if c.pairs == "all":
        caption = ("Each mean with its compact letter display: two systems that share a "
                   "letter on a metric are not significantly different on it (corrected "
                   f"over {family_text(c)}); \"a\" marks the best system's group.")
    else:
        caption = ("Each mean; ▲ where the system is significantly better than the baseline "
                   f"({c.baseline}), ▼ where significantly worse (corrected over "
                   f"{family_text(c)}).")
    matrix = c.summary_matrix()
    found = [(("Summary matrix",), caption, _frame(matrix))]
    ranking = c.ranking(metric)
    rows = tuple(
        (str(rank), row["system"], format_interval(row["mean"], row["low"], row["high"]),
         ", ".join(row["better_than"]) or "none")
        for rank, row in ranking.iterrows())
    tested = ("every other system" if c.pairs == "all" else
              f"the baseline ({c.baseline}) against the others")
    found.append(((f"Ranking on {metric}",),
                  (f"Best first, mean [{format_percent(c.confidence)} interval]; the systems "
                  f"each is significantly better than, among the pairs tested ({tested})."),
                  TextTable(("rank", "system", "mean [interval]", "significantly better than"),
                            rows)))
    if complete and c.pairs == "all":
        p = c.pairwise
        rows = tuple(
            (metric_, system, other,
             format_interval(r["difference"], r["low"], r["high"], signed=True),
             format_p(r["p_adjusted"]), r["verdict"])
            for (metric_, system, other), r in p.iterrows())
        found.append((("Every pair",),
                      (f"Each pair's difference (system minus other) with its "
                      f"{format_percent(c.difference_confidence)} interval, the randomization "
                      f"p corrected over {family_text(c)}, and the verdict."),
                      TextTable(("metric", "system", "other", "difference [interval]",
                                 f"p ({_CORRECTED[c.correction]})", "verdict"), rows)))
    return found


def factor_section(c: Comparison):
    """``(heading, caption, table)`` of the factors' main effects, or None."""
    if c.factors is None:
        return None
    f = c.factors
    rows = tuple(
        (metric, factor, f"{level} vs {r['reference']}",
         format_interval(r["difference"], r["low"], r["high"], signed=True), str(r["cells"]),
         str(r["n_queries"]))
        for (metric, factor, level), r in f.iterrows())
    caption = ("Each factor's main effect: per query, the difference between the level and "
               "the reference (the baseline's level) averaged over the other factors' "
               "cells, then the mean over the queries, with its paired bootstrap interval "
               f"at {format_percent(c.confidence)} (no correction: a description of the "
               "design, not a test).")
    return (("Main effects of the factors",), caption,
            TextTable(("metric", "factor", "level", "effect [interval]", "cells", "queries"),
                      rows))


def segment_sections(c: Comparison, metrics):
    """One ``(heading, caption, table)`` per metric of ``metrics``: per segment, each
    system's mean and its difference with the baseline."""
    if c.segments is None:
        return []
    level = format_percent(c.segment_confidence or c.confidence)
    weights = ("every query once (the plain mean)" if c.segment_weights == "query"
               else "every segment the same (the mean of the segment means)")
    caption = (f"Per segment: mean [{format_percent(c.confidence)} interval] over its queries; "
               f"the difference with the baseline ({c.baseline}) [{level} interval each], the "
               f"randomization p corrected ({_CORRECTED[c.correction]}) over segments x "
               f"metrics x systems, and the MDE of its queries. Row (all): {weights}.")
    found = []
    for metric in metrics:
        frame = c.segments.xs(metric, level="metric")
        rows = []
        for (segment, system), r in frame.iterrows():
            base = system == c.baseline
            rows.append((segment, system, str(r["n_queries"]),
                         format_interval(r["mean"], r["low"], r["high"]),
                         "baseline" if base else format_interval(
                             r["difference"], r["difference_low"], r["difference_high"],
                             signed=True),
                         "" if base else format_p(r["p_adjusted"]),
                         "" if base else r["verdict"],
                         "" if base else format_number(r["mde"])))
        found.append(((f"Segments on {metric}",), caption,
                      TextTable(("segment", "system", "queries", "mean [interval]",
                                 f"vs {c.baseline} [interval]",
                                 f"p ({_CORRECTED[c.correction]})", "verdict", "MDE"),
                                tuple(rows))))
    return found


def _frame(frame) -> TextTable:
    return TextTable((frame.index.name or "", *map(str, frame.columns)),
                     tuple((str(k), *map(str, v)) for k, v in zip(frame.index,
                                                                 frame.to_numpy(), strict=True)))
