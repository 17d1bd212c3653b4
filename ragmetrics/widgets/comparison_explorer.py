"""ComparisonExplorer: where do two systems differ, and what did each put in front of the model?"""

from __future__ import annotations

import html
import math
from collections.abc import Iterator, Mapping

import numpy as np
import traitlets

from ..comparison import Comparison
from ..errors import InputValueError
from ..evaluation.query_view import QueryRankings
from ..metrics.registry import parse_metric
from ..reports.headline import snippet
from . import comparison_model as logic
from .base import AccessibleWidget, WidgetValueError


class _FirstWords(Mapping):
    """``{doc_id: the first words of its text}``, cut when looked up (a corpus of a million
    documents is not cut whole for the ten ranks shown)."""

    def __init__(self, texts: Mapping) -> None:
        self._texts = texts

    def __getitem__(self, doc_id) -> str:
        return snippet(self._texts[doc_id])

    def __iter__(self) -> Iterator:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


class ComparisonExplorer(AccessibleWidget, front_end="comparison.js", style="comparison.css",
                         root=True):
    """Every query of a comparison in one table; pick one to see the systems' rankings.

    The table lists every query with each system's value of the chosen metric, the
    difference (system minus baseline), and the difference on every other metric; sort
    by any column (its header button), filter by the way the difference goes or by text,
    and scroll through 10,000 queries (only the rows in view are drawn). The histogram
    shows the per-query differences of the chosen metric. Selecting a query shows each
    system's top ranks side by side: the chunk, its title or text when given, its grade
    ("not relevant (not listed)" when the golden set does not list it:
    :func:`~ragmetrics.widgets.comparison_model.grade_text`) and what that rank adds to
    the metric, so that the
    contributions add up to the query's value (:mod:`ragmetrics.evaluation.query_view`).

    Keys: in the table, Up/Down select the previous/next query, Page Up/Page Down move
    a page, Home/End go to the first/last; Tab reaches the sort buttons, the filters and
    the metric and system choices. Focus stays on the selected row while it scrolls, and
    the live region says what was selected or how the table is now sorted.

    Python holds the state (``metric``, ``system``, ``sort``, ``descending``, ``show``,
    ``search``, ``selected``); the browser sends only what the user changed, and draws
    the ``order``, ``histogram`` and ``detail`` that Python computes
    (:mod:`ragmetrics.widgets.comparison_model`).

    Parameters
    ----------
    comparison : Comparison
        From :func:`ragmetrics.compare` (it holds the runs and the judgments).
    metric : str, optional
        The metric to start with (default: nDCG@10 if compared, else the first).
    system : str, optional
        The system compared with the baseline (default: the first other one).
    titles : mapping doc id -> str, optional
        A title or a snippet of each chunk, shown as plain text. Default: the first words
        of each passage given to :func:`ragmetrics.compare` (``documents=``), if any.
    texts : mapping query id -> str, optional
        The question of each query, shown as plain text (and searched). Default: the
        questions given to :func:`ragmetrics.compare` (``queries=``), if any.
    depth : int, optional
        How many ranks the rankings show (default: the metric's cut-off, or 10).

    Examples
    --------
    >>> from ragmetrics import compare
    >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}}
    >>> old = {"q1": ["a"], "q2": ["x", "b"], "q3": ["x", "y", "c"]}
    >>> new = {"q1": ["a"], "q2": ["b"], "q3": ["c"]}
    >>> c = compare({"old": old, "new": new}, qrels, ["mrr", "recall@1"], n_resamples=50)
    >>> explorer = ComparisonExplorer(c)
    >>> explorer.shown_queries()          # the queries that differ most come first
    ['q3', 'q2', 'q1']
    >>> explorer.select("q3")
    >>> print(explorer.describe())        # doctest: +NORMALIZE_WHITESPACE
    q3 on MRR: old 0.3333, new 1.0000 (difference +0.6667)
      old: 1. x (not relevant (not listed)) +0.0000 | 2. y (not relevant (not listed)) +0.0000 | 3. c (grade 1) +0.3333
      new: 1. c (grade 1) +1.0000
    >>> explorer.announcement
    'query q3 selected: MRR old 0.3333, new 1.0000; difference +0.6667'
    """

    query_ids = traitlets.List(traitlets.Unicode()).tag(sync=True)
    query_texts = traitlets.List(traitlets.Unicode()).tag(sync=True)
    baseline = traitlets.Unicode().tag(sync=True)
    #: Every per-query number (float64, query-major), keyed by ``data_keys``.
    data = traitlets.Bytes(b"").tag(sync=True)
    data_keys = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: The columns shown: key, label and index in ``data_keys``.
    columns = traitlets.List(traitlets.Dict()).tag(sync=True)
    #: The rows shown, in order (int32 query positions).
    order = traitlets.Bytes(b"").tag(sync=True)
    metric = traitlets.Unicode().tag(sync=True)
    metric_options = traitlets.List().tag(sync=True)
    system = traitlets.Unicode().tag(sync=True)
    system_options = traitlets.List().tag(sync=True)
    sort = traitlets.Unicode("abs_difference").tag(sync=True)
    descending = traitlets.Bool(True).tag(sync=True)
    show = traitlets.Unicode("all").tag(sync=True)
    search = traitlets.Unicode("").tag(sync=True)
    #: The selected query's position in ``query_ids`` (-1: none).
    selected = traitlets.Int(-1).tag(sync=True)
    detail = traitlets.Dict().tag(sync=True)
    histogram = traitlets.Dict().tag(sync=True)
    #: What the table says above itself ("72 of 72 queries shown, ...").
    status = traitlets.Unicode("").tag(sync=True)

    def __init__(self, comparison: Comparison, *, metric: str | None = None,
                 system: str | None = None, titles: Mapping | None = None,
                 texts: Mapping | None = None, depth: int | None = None):
        if not isinstance(comparison, Comparison):
            raise InputValueError(
                f"ComparisonExplorer needs a Comparison (from ragmetrics.compare), got "
                f"{type(comparison).__name__}"
            )
        if comparison.runs is None:
            raise InputValueError("this Comparison holds no runs: make it with "
                                  "ragmetrics.compare (a comparison judged by evidence "
                                  "spans is not shown rank by rank)")
        c = self.comparison = comparison
        if titles is None and comparison.document_texts:
            titles = _FirstWords(comparison.document_texts)
        self._titles = titles if isinstance(titles, _FirstWords) else dict(titles or {})
        self._texts = dict(texts if texts is not None else (comparison.query_texts or {}))
        self._depth = depth
        self._rankings = QueryRankings(c.runs, c.qrels, c.conventions)
        self._ids = list(c.per_query[c.baseline].index)
        keys, self._data = logic.explorer_table(c)
        others = [s for s in c.systems if s != c.baseline]
        metric = metric or ("ndcg@10" if "ndcg@10" in c.metrics else c.metrics[0])
        system = system or (others[0] if others else c.baseline)
        super().__init__(
            query_ids=[str(q) for q in self._ids],
            query_texts=[str(self._texts.get(q, "")) for q in self._ids],
            baseline=c.baseline,
            data=self._data.astype("<f8").tobytes(),
            data_keys=keys,
            metric_options=[[parse_metric(m).pretty_name, m] for m in c.metrics],
            system_options=[[s, s] for s in (others or [c.baseline])],
            metric=self._check_metric(metric),
            system=self._check_system(system),
        )
        self._said = False
        self._refresh_table()
        self.observe(self._on_view, names=["metric", "system"])
        self.observe(self._on_order, names=["sort", "descending", "show", "search"])
        self.observe(self._on_selected, names=["selected"])
        self._said = True

    @classmethod
    def example(cls) -> ComparisonExplorer:
        """The support demo's BM25 and dense runs (what notebook 08b explores)."""
        import pandas as pd

        from ..comparison import compare
        from ..datafiles import data_path
        from ..io import read_golden, read_trec_run

        folder = data_path("support_demo")
        qrels = read_golden(folder / "golden.csv")
        runs = {name: read_trec_run(folder / "runs" / f"{name}.tsv")
                for name in ("bm25", "dense_minilm")}
        corpus = pd.read_json(folder / "corpus.jsonl", lines=True)
        questions = pd.read_json(folder / "questions.jsonl", lines=True)
        result = compare(runs, qrels, ["recall@10", "precision@10", "mrr", "ndcg@10"],
                         n_resamples=200, seed=0)
        explorer = cls(result, titles=dict(zip(corpus["doc_id"], corpus["title"], strict=True)),
                       texts=dict(zip(questions["query_id"], questions["question"],
                                      strict=True)))
        explorer.select(explorer.shown_queries()[0])
        return explorer

    # -- validation of what the browser (or Python) sends ------------------------------

    def _check_metric(self, metric: str) -> str:
        if metric not in self.comparison.metrics:
            raise WidgetValueError(f"metric must be one of {list(self.comparison.metrics)}, "
                                   f"got {metric!r}")
        return metric

    def _check_system(self, system: str) -> str:
        c = self.comparison
        allowed = [s for s in c.systems if s != c.baseline] or [c.baseline]
        if system not in allowed:
            raise WidgetValueError(f"system must be one of {allowed}, got {system!r}")
        return system

    @traitlets.validate("metric")
    def _valid_metric(self, proposal):
        return self._check_metric(proposal["value"])

    @traitlets.validate("system")
    def _valid_system(self, proposal):
        return self._check_system(proposal["value"])

    @traitlets.validate("show")
    def _valid_show(self, proposal):
        if proposal["value"] not in logic.FILTERS:
            raise WidgetValueError(f"show must be one of {list(logic.FILTERS)}, got "
                                   f"{proposal['value']!r}")
        return proposal["value"]

    @traitlets.validate("sort")
    def _valid_sort(self, proposal):
        value = proposal["value"]
        if value not in ("query", "abs_difference", *self.data_keys):
            raise WidgetValueError(f"cannot sort by {value!r}")
        return value

    @traitlets.validate("selected")
    def _valid_selected(self, proposal):
        value = proposal["value"]
        if not -1 <= value < len(self._ids):
            raise WidgetValueError(f"selected must be a query position from -1 to "
                                   f"{len(self._ids) - 1}, got {value}")
        return value

    # -- what the controls do, callable from Python (checkpoint cells, tests) -----------

    def select(self, query_id) -> None:
        """Select a query by its id, as a click on its row does."""
        try:
            self.selected = self._ids.index(query_id)
        except ValueError:
            raise InputValueError(f"query {query_id!r} is not in this comparison") from None

    def sort_by(self, column: str, *, descending: bool = True) -> None:
        """Sort by ``"query"``, ``"abs_difference"`` or a data column key, as a header
        button does."""
        with self.hold_trait_notifications():
            self.sort = column
            self.descending = descending

    def shown_queries(self) -> list:
        """The query ids of the table's rows, in order."""
        return [self._ids[i] for i in self._order]

    def describe(self) -> str:
        """What the drill-down shows, as text (for checkpoint cells that nbval checks)."""
        d = self.detail
        if not d:
            return "no query selected"
        values = ", ".join(f"{s} {logic._number(v)}" for s, v in d["values"].items())
        diff = d["difference"]
        lines = [f"{d['query_id']} on {d['metric_label']}: {values}"
                 + ("" if diff is None else f" (difference {diff:+.4f})")]
        for column in d["columns"]:
            ranks = " | ".join(
                f"{r['rank']}. {r['doc_id']} "
                f"({r['grade_text'] if r['grade'] is None else 'grade ' + r['grade_text']})"
                + ("" if r["contribution"] is None else f" {r['contribution']:+.4f}")
                for r in column["rows"])
            lines.append(f"  {column['system']}: {ranks}")
        return "\n".join(lines)

    # -- wiring -------------------------------------------------------------------------

    def _differences(self) -> np.ndarray:
        index = self.data_keys.index(logic.column_key("difference", self.system, self.metric)) \
            if self.system != self.baseline else None
        if index is None:
            return np.zeros(len(self._ids))
        return self._data[:, index]

    def _refresh_table(self) -> None:
        with self.hold_sync():
            if self.system != self.baseline:
                self.columns = logic.visible_columns(self.comparison, self.metric, self.system)
            self._refresh_order()
            self._refresh_histogram()
            if self.selected >= 0:
                self._refresh_detail()

    def _refresh_order(self) -> None:
        if self.system == self.baseline:
            self._order = np.arange(len(self._ids), dtype=np.int32)
        else:
            self._order = logic.row_order(
                self._data, self.data_keys, self.query_ids, self.query_texts,
                metric=self.metric, system=self.system, sort=self.sort,
                descending=self.descending, show=self.show, search=self.search)
        self.order = self._order.astype("<i4").tobytes()
        self.status = logic.describe_order(len(self._order), len(self._ids),
                                           self._sort_label(), self.descending)

    def _sort_label(self) -> str:
        if self.sort == "query":
            return "query"
        if self.sort == "abs_difference":
            return f"size of Δ {parse_metric(self.metric).pretty_name}"
        kind, system, metric = self.sort.split("|")
        label = parse_metric(metric).pretty_name
        return f"Δ {label}" if kind == "difference" else f"{system} {label}"

    def _refresh_histogram(self) -> None:
        d = self._differences()
        chosen = float(d[self.selected]) if self.selected >= 0 else None
        histogram = logic.difference_histogram(d, chosen)
        histogram["description"] = logic.describe_histogram(d, self.metric, self.system,
                                                            self.baseline)
        self.histogram = histogram

    def _refresh_detail(self) -> None:
        self.detail = logic.query_detail(
            self.comparison, self._rankings, self._ids[self.selected], metric=self.metric,
            system=self.system, titles=self._titles, texts=self._texts, depth=self._depth)

    def _on_view(self, change) -> None:
        self._refresh_table()

    def _on_order(self, change) -> None:
        with self.hold_sync():
            self._refresh_order()
            self.announcement = self.status

    def _on_selected(self, change) -> None:
        with self.hold_sync():
            if self.selected < 0:
                self.detail = {}
                self._refresh_histogram()
                return
            self._refresh_detail()
            self._refresh_histogram()
            if self._said:
                self.announcement = logic.describe_selection(self.detail)

    def __repr__(self) -> str:
        chosen = self._ids[self.selected] if self.selected >= 0 else None
        return (f"ComparisonExplorer({len(self._ids)} queries, metric={self.metric!r}, "
                f"system={self.system!r}, selected={chosen!r})")

    def _static_html(self) -> str:
        """The kernel-free view (GitHub, nbviewer): the first rows of the table."""
        e = html.escape
        head = "".join(f"<th>{e(col['label'])}</th>" for col in self.columns[:3])
        rows = []
        for i in self._order[:10]:
            cells = "".join(
                f"<td>{'' if math.isnan(v) else format(v, '.4f')}</td>"
                for v in (self._data[i, col["index"]] for col in self.columns[:3]))
            rows.append(f"<tr><th>{e(str(self._ids[i]))}</th>{cells}</tr>")
        return (f"<div><p>{e(self.status)}</p><table><thead><tr><th>query</th>{head}</tr>"
                f"</thead><tbody>{''.join(rows)}</tbody></table></div>")
