"""The comparison explorer's view-model: what it shows, computed by pure functions.

:class:`ragmetrics.widgets.ComparisonExplorer` wires a browser view to these: the
per-query table (every metric of every system, and every difference from the
baseline), the order of its rows under a sort and a filter, the histogram of the
differences, one query's rankings side by side, and the sentences its live region says.
The browser only draws; tested on their own in ``tests/unit/widgets/test_comparison_explorer.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from ..comparison import Comparison
from ..errors import InputValueError
from ..evaluation.query_view import QueryRankings
from ..metrics.registry import parse_metric

__all__ = [
    "FILTERS",
    "column_key",
    "describe_histogram",
    "describe_order",
    "describe_selection",
    "difference_histogram",
    "explorer_table",
    "grade_text",
    "query_detail",
    "row_order",
    "table_keys",
    "visible_columns",
]

#: What the "show" filter keeps: every query, or those where the system is above,
#: level with, or below the baseline on the chosen metric.
FILTERS = ("all", "better", "same", "worse")

#: How many bins the histogram has on each side of the one centred on 0.
HALF_BINS = 10


def column_key(kind: str, system: str, metric: str) -> str:
    """The key of a data column: ``"value|bm25|ndcg@10"`` or ``"difference|dense|mrr"``."""
    return f"{kind}|{system}|{metric}"


def explorer_table(comparison: Comparison) -> tuple[list[str], np.ndarray]:
    """Every per-query number of the comparison as one float64 matrix (query x column).

    The columns are each system's value of each metric, then each other system's
    difference from the baseline (system minus baseline), metric by metric.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> c = compare({"a": {"q1": ["x", "d"]}, "b": {"q1": ["d"]}}, {"q1": {"d"}}, ["mrr"],
    ...             n_resamples=50)
    >>> keys, data = explorer_table(c)
    >>> keys, data.tolist()
    (['value|a|mrr', 'value|b|mrr', 'difference|b|mrr'], [[0.5, 1.0, 0.5]])
    """
    c = comparison
    columns = []
    for metric in c.metrics:
        columns += [c.per_query[s][metric].to_numpy(np.float64) for s in c.systems]
        base = c.per_query[c.baseline][metric].to_numpy(np.float64)
        columns += [c.per_query[s][metric].to_numpy(np.float64) - base for s in c.systems[1:]]
    return table_keys(c), np.ascontiguousarray(np.column_stack(columns))


def _label(metric: str) -> str:
    return parse_metric(metric).pretty_name


def visible_columns(comparison: Comparison, metric: str, system: str) -> list[dict]:
    """The table's columns: the chosen metric's values and difference, then the
    difference on every other metric (``key``, ``label``, and ``index`` in the data)."""
    c, index = comparison, {key: i for i, key in enumerate(table_keys(comparison))}
    label = _label(metric)
    shown = [{"key": column_key("value", c.baseline, metric), "label": f"{c.baseline} {label}"},
             {"key": column_key("value", system, metric), "label": f"{system} {label}"},
             {"key": column_key("difference", system, metric), "label": f"Δ {label}"}]
    shown += [{"key": column_key("difference", system, m), "label": f"Δ {_label(m)}"}
              for m in c.metrics if m != metric]
    return [{**column, "index": index[column["key"]]} for column in shown]


def table_keys(comparison: Comparison) -> list[str]:
    """The keys of :func:`explorer_table`'s columns, in order."""
    c = comparison
    keys = []
    for metric in c.metrics:
        keys += [column_key("value", s, metric) for s in c.systems]
        keys += [column_key("difference", s, metric) for s in c.systems[1:]]
    return keys


def row_order(data: np.ndarray, keys: list[str], query_ids: list[str], texts: list[str], *,
              metric: str, system: str, sort: str, descending: bool, show: str = "all",
              search: str = "") -> np.ndarray:
    """The rows to show, in order: filtered by ``show`` and ``search``, sorted by ``sort``.

    ``sort`` is ``"query"`` (the id, as text), ``"abs_difference"`` (the size of the
    chosen metric's difference) or a data column key. Missing values (NaN) go last;
    ties keep the query order. ``search`` keeps the queries whose id or text contains it
    (case ignored).

    Examples
    --------
    >>> keys = ["difference|b|mrr"]
    >>> data = np.array([[0.5], [-0.25], [0.0]])
    >>> row_order(data, keys, ["q1", "q2", "q3"], ["", "", ""], metric="mrr", system="b",
    ...           sort="abs_difference", descending=True).tolist()
    [0, 1, 2]
    >>> row_order(data, keys, ["q1", "q2", "q3"], ["", "", ""], metric="mrr", system="b",
    ...           sort="difference|b|mrr", descending=False, show="better").tolist()
    [0]
    """
    if show not in FILTERS:
        raise InputValueError(f"show must be one of {FILTERS}, got {show!r}")
    index = {key: i for i, key in enumerate(keys)}
    difference = data[:, index[column_key("difference", system, metric)]]
    keep = np.ones(len(data), dtype=bool)
    if show == "better":
        keep = difference > 0
    elif show == "worse":
        keep = difference < 0
    elif show == "same":
        keep = difference == 0
    needle = search.strip().casefold()
    if needle:
        keep &= np.array([needle in q.casefold() or needle in t.casefold()
                          for q, t in zip(query_ids, texts, strict=True)], dtype=bool)
    rows = np.flatnonzero(keep)
    if sort == "query":
        names = np.array(query_ids, dtype=object)[rows].astype(str)
        order = np.argsort(names, kind="stable")
        return rows[order[::-1] if descending else order].astype(np.int32)
    if sort == "abs_difference":
        values = np.abs(difference[rows])
    elif sort in index:
        values = data[rows, index[sort]]
    else:
        raise InputValueError(f"cannot sort by {sort!r}; sort by 'query', "
                              f"'abs_difference' or one of {keys}")
    missing = np.isnan(values)
    key = np.where(missing, 0.0, -values if descending else values)
    order = np.lexsort((np.arange(len(rows)), key, missing))
    return rows[order].astype(np.int32)


def difference_histogram(differences: np.ndarray, selected: float | None = None) -> dict:
    """Counts of the per-query differences in bins centred on 0 (one bin holds 0 alone
    and the values within half a bin of it).

    Returns
    -------
    dict
        ``edges`` (one more than the bins), ``counts``, and ``selected_bin`` (the bin
        of ``selected``, or -1).

    Examples
    --------
    >>> h = difference_histogram(np.array([-0.2, 0.0, 0.0, 0.1, 0.2]))
    >>> sum(h["counts"]), h["counts"][HALF_BINS]
    (5, 2)
    """
    d = differences[np.isfinite(differences)]
    spread = float(np.abs(d).max()) if len(d) else 0.0
    width = (spread or 1.0) / (HALF_BINS + 0.5)
    edges = width * (np.arange(-HALF_BINS - 1, HALF_BINS + 1) + 0.5)
    counts, _ = np.histogram(d, bins=edges)
    selected_bin = -1
    if selected is not None and math.isfinite(selected):
        selected_bin = int(np.clip(np.searchsorted(edges, selected, side="right") - 1, 0,
                                   len(counts) - 1))
    return {"edges": edges.tolist(), "counts": counts.tolist(), "selected_bin": selected_bin}


def describe_histogram(differences: np.ndarray, metric: str, system: str, baseline: str) -> str:
    """The histogram's text alternative: how many queries went each way, and how far."""
    d = differences[np.isfinite(differences)]
    label = _label(metric)
    if not len(d):
        return f"No query has both values of {label}: nothing to draw"
    better, same, worse = int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum())
    return (f"Histogram of {len(d)} per-query differences in {label}, {system} minus "
            f"{baseline}: {better} better, {same} the same, {worse} worse; from "
            f"{d.min():+.2f} to {d.max():+.2f}, mean {d.mean():+.4f}")


def describe_order(n_shown: int, n_total: int, sort_label: str, descending: bool) -> str:
    """What the table shows after a sort or a filter, e.g. for the live region."""
    way = "largest first" if descending else "smallest first"
    if sort_label == "query":
        way = "Z to A" if descending else "A to Z"
    return f"{n_shown} of {n_total} queries shown, sorted by {sort_label}, {way}"


def _number(value) -> str:
    return "no value" if value is None or not math.isfinite(value) else f"{value:.4f}"


def describe_selection(detail: dict) -> str:
    """What the live region says when a query is selected."""
    values = ", ".join(f"{s} {_number(v)}" for s, v in detail["values"].items())
    diff = detail["difference"]
    shown = "no difference" if diff is None or not math.isfinite(diff) else f"difference {diff:+.4f}"
    return f"query {detail['query_id']} selected: {detail['metric_label']} {values}; {shown}"


#: What the drill-down says of a ranked doc that the golden set does not list: metrics
#: count it as not relevant (grade 0), except those that tell judged docs from unjudged
#: ones (bpref, infAP, Judged@k, ...), for which it is unjudged.
NOT_LISTED = "not relevant (not listed)"
NOT_LISTED_UNJUDGED = "not listed: unjudged"


def grade_text(grade, metric: str) -> str:
    """A ranked doc's grade as the drill-down shows it.

    A doc the golden set lists shows its grade. One it does not list counts as not
    relevant for almost every metric (the golden set lists the relevant docs, and a team
    that reads a chunk and finds it useless does not list it), so it is "not relevant
    (not listed)", not "not judged"; only the metrics that need judgments to tell an
    unjudged doc from a non-relevant one (``parse_metric(metric).needs``: bpref, infAP,
    Judged@k, ...) read it as unjudged.

    Examples
    --------
    >>> grade_text(2.0, "ndcg@10"), grade_text(None, "ndcg@10"), grade_text(None, "bpref")
    ('2', 'not relevant (not listed)', 'not listed: unjudged')
    """
    if grade is not None:
        return format(grade, "g")
    return NOT_LISTED_UNJUDGED if "judged" in parse_metric(metric).needs else NOT_LISTED


def query_detail(comparison: Comparison, rankings: QueryRankings, query_id, *, metric: str,
                 system: str, titles: Mapping | None = None, texts: Mapping | None = None,
                 depth: int | None = None) -> dict:
    """One query, every system's top ranks side by side, JSON-ready.

    ``depth``: how many ranks to list (default: the metric's cut-off, or 10). Each
    system gets ``rows`` (rank, doc id, title, grade, grade_text (:func:`grade_text`),
    relevant, contribution), its
    ``value`` (the Comparison's), and ``rest``, what the ranks below ``depth`` add (so
    that the listed contributions plus ``rest`` are the value).
    """
    c = comparison
    spec = parse_metric(metric)
    depth = depth or spec.k or 10
    titles = titles or {}
    systems = [c.baseline, *(s for s in c.systems if s != c.baseline)]
    values, columns = {}, []
    for name in systems:
        value = float(c.per_query[name].at[query_id, metric])
        values[name] = value if math.isfinite(value) else None
        ranked = rankings.ranking(name, query_id, metric)
        shown = ranked[:depth]
        adds = [r.contribution for r in ranked]
        rest = None if None in adds else math.fsum(adds[depth:])
        columns.append({
            "system": name,
            "value": values[name],
            "rest": rest,
            "rows": [{"rank": r.rank, "doc_id": str(r.doc_id),
                      "title": str(titles.get(r.doc_id, "")),
                      "grade": r.grade, "grade_text": grade_text(r.grade, metric),
                      "relevant": r.relevant,
                      "contribution": r.contribution} for r in shown],
            "n_retrieved": len(ranked),
        })
    judged = rankings.judged(query_id)
    level = c.conventions.relevance_level
    listed = {row["doc_id"] for column in columns for row in column["rows"]}
    missed = [str(d) for d, g in judged.items() if g >= level and str(d) not in listed]
    base, other = values[c.baseline], values.get(system)
    difference = None if base is None or other is None else other - base
    return {
        "query_id": str(query_id),
        "text": str((texts or {}).get(query_id, "")),
        "metric": metric,
        "metric_label": spec.pretty_name,
        "system": system,
        "depth": depth,
        "values": values,
        "difference": difference,
        "columns": columns,
        "unlisted_relevant": missed,
    }
