"""The comparison explorer without a browser: its view-model and its widget's state.

- Each rank's contribution (ragmetrics.evaluation.query_view) adds up to evaluate's
  value, for every query of the support demo, every number metric of the metric table
  and several conventions (tie rules, gains, relevance levels, repeated docs); for the
  seven metrics the view once wrote by hand, it gives the terms it gave.
- The table's order under every sort and filter equals pandas' on the same numbers; the
  histogram counts every difference once; the drill-down holds the Comparison's values.
- What the browser may send is validated, and text stays text in the static view.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from ragmetrics import compare, evaluate
from ragmetrics.conventions import Conventions
from ragmetrics.evaluation.query_view import DECOMPOSABLE, QueryRankings, contributions
from ragmetrics.metrics.registry import METRICS as TABLE
from ragmetrics.metrics.registry import MetricSpec, parse_metric
from ragmetrics.widgets import ComparisonExplorer
from ragmetrics.widgets.base import WidgetValueError
from ragmetrics.widgets.comparison_model import (
    HALF_BINS,
    difference_histogram,
    explorer_table,
    grade_text,
    row_order,
)

METRICS = ["recall@5", "precision@10", "hit_rate@3", "mrr", "mrr@5", "ndcg@10", "ndcg",
           "dcg@5", "map", "map@10", "r_precision"]


@pytest.mark.parametrize("policy", [
    {}, {"ties": "input_order"}, {"ties": "optimistic"}, {"ties": "pessimistic"},
    {"gain": "exponential"}, {"relevance_level": 2},
])
def test_contributions_add_up_to_evaluate(support_demo, policy):
    qrels, runs = support_demo
    # Scores rounded to 2 decimals: many ties, so the tie rule matters.
    runs = {name: run.assign(score=run["score"].round(2)).drop(columns="rank")
            for name, run in runs.items()}
    conventions = Conventions(**policy)
    rankings = QueryRankings(runs, qrels, conventions)
    for name, run in runs.items():
        per_query = evaluate(run, qrels, METRICS, **policy).per_query
        for metric in METRICS:
            for query_id, value in per_query[metric].items():
                ranked = rankings.ranking(name, query_id, metric)
                total = math.fsum(r.contribution for r in ranked)
                assert total == pytest.approx(value, abs=1e-12), (name, metric, query_id)


def test_repeated_docs_keep_their_best_rank():
    run = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["a", "b", "a", "c"],
                        "score": [4.0, 3.0, 2.0, 1.0]})
    rankings = QueryRankings({"s": run}, {"q": {"c": 1}}, Conventions(duplicates="keep_first"))
    ranked = rankings.ranking("s", "q", "mrr")
    assert [r.doc_id for r in ranked] == ["a", "b", "c"]
    assert ranked[2].contribution == pytest.approx(1 / 3)
    assert contributions("ndcg@3", [], []) == []
    assert contributions("bpref" if False else "rr", [None, 0, 2], [2]) == [0.0, 0.0, 1 / 3]


def _every_metric_of_the_table() -> list[str]:
    """A name for every number metric of the table: cut and uncut, with parameters."""
    names = []
    for info in TABLE.values():
        if info.kind != "number":
            continue
        k = "0.5" if info.cutoff_kind == "fraction" else "5"
        if info.cutoff == "required":
            names.append(f"{info.name}@{k}")
        elif info.cutoff == "optional":
            names += [info.name, f"{info.name}@{k}"]
        else:
            names.append(info.name)
    return [*names, "rbp(p=0.5)", "ndcg(1=3,2=9)@10", "utility(2,-1,1,0)", "set_f(2)",
            "err(max_grade=4)"]


#: The metrics with no rank-by-rank view on the support demo: measures of the query, and
#: values the empty ranking already has (the ideal DCG; utility pricing what is missed).
NO_VIEW = {"num_q", "num_rel", "idcg", "idcg@5", "utility(2,-1,1,0)"}


@pytest.mark.slow
@pytest.mark.parametrize("policy", [{}, {"relevance_level": 2, "gain": "exponential"}])
def test_every_metric_of_the_table_adds_up_to_evaluate(support_demo, policy):
    qrels, runs = support_demo
    runs = {name: run.assign(score=run["score"].round(2)).drop(columns="rank")
            for name, run in runs.items()}
    names = _every_metric_of_the_table()
    assert len(names) == 49
    rankings = QueryRankings(runs, qrels, Conventions(**policy))
    for name, run in runs.items():
        with warnings.catch_warnings():  # queries with no grade-2 doc: scored, and said
            warnings.simplefilter("ignore")
            per_query = evaluate(run, qrels, names, **policy).per_query
        for metric in names:
            for query_id, value in per_query[metric].items():
                adds = [r.contribution for r in rankings.ranking(name, query_id, metric)]
                if metric in NO_VIEW:
                    assert set(adds) == {None}, (metric, query_id)
                    continue
                assert math.fsum(adds) == pytest.approx(value, abs=1e-12), (name, metric,
                                                                            query_id)


def _gain(grade, gain):
    if not grade > 0:
        return 0.0
    return grade if gain == "linear" else 2.0**grade - 1.0


def _terms_written_by_hand(metric, grades, judged, *, conventions):
    """The view's contributions as it wrote them before it read the kernels: a branch
    per metric, for seven metrics (kept verbatim here as the oracle of those seven)."""
    spec = metric if isinstance(metric, MetricSpec) else parse_metric(metric)
    c = conventions
    level = c.relevance_level
    rel = [g is not None and g >= level for g in grades]
    n_rel = sum(g >= level for g in judged)
    k = len(grades) if spec.k is None else spec.k
    if spec.name == "r_precision":
        k = n_rel
    out = [0.0] * len(grades)
    if spec.name in ("recall", "r_precision"):
        for i, r in enumerate(rel[:k]):
            out[i] = 1.0 / n_rel if r and n_rel else 0.0
    elif spec.name == "precision":
        for i, r in enumerate(rel[:k]):
            out[i] = 1.0 / k if r else 0.0
    elif spec.name in ("hit_rate", "rr"):
        first = next((i for i, r in enumerate(rel[:k]) if r), None)
        if first is not None:
            out[first] = 1.0 if spec.name == "hit_rate" else 1.0 / (first + 1)
    elif spec.name in ("dcg", "ndcg"):
        by_label = c.ideal_order == "label_order"
        dcg = [_gain(g, c.gain) / math.log2(i + 2)
               if g is not None and (g >= level or not by_label) else 0.0
               for i, g in enumerate(grades[:k])]
        scale = 1.0
        if spec.name == "ndcg":
            ideal = ([_gain(g, c.gain) for g in judged if g >= level][:k] if by_label else
                     sorted((_gain(g, c.gain) for g in judged), reverse=True)[:k])
            idcg = math.fsum(g / math.log2(i + 2) for i, g in enumerate(ideal))
            scale = 1.0 / idcg if idcg > 0 else 0.0
        for i, value in enumerate(dcg):
            out[i] = value * scale
    elif spec.name == "ap":
        hits = 0
        over = n_rel
        if spec.k is not None and c.ap_denominator == "min_relevant_k":
            over = min(n_rel, spec.k)
        for i, r in enumerate(rel[:k]):
            if r:
                hits += 1
                out[i] = hits / (i + 1) / over if over else 0.0
    return out


@pytest.mark.parametrize("policy", [
    {}, {"gain": "exponential"}, {"relevance_level": 2},
    {"ideal_order": "label_order", "ap_denominator": "min_relevant_k"},
])
@pytest.mark.slow
def test_the_seven_metrics_written_by_hand_keep_their_terms(support_demo, policy):
    """A step of a running total is the term it added, up to the rounding of the two
    totals: every term equals the hand-written one to within 4.5e-16 (2 ulp of 1), and
    exactly where it is 0 (a rank that adds nothing adds exactly nothing)."""
    qrels, runs = support_demo
    conventions = Conventions(**policy)
    rankings = QueryRankings(runs, qrels, conventions)
    same = differ = 0
    for name in runs:
        for query_id in sorted(set(qrels["query_id"])):
            judged = list(rankings.judged(query_id).values())
            for metric in METRICS:
                grades = [r.grade for r in rankings.ranking(name, query_id, metric)]
                ours = contributions(metric, grades, judged, conventions=conventions)
                theirs = _terms_written_by_hand(metric, grades, judged,
                                                conventions=conventions)
                assert len(ours) == len(theirs) == 50
                for a, b in zip(ours, theirs, strict=True):
                    assert abs(a - b) <= 4.5e-16, (name, query_id, metric)
                    assert (a == 0) == (b == 0), (name, query_id, metric)
                    same += a == b
                    differ += a != b
    assert same > 50 * differ  # bit for bit in all but a few in a hundred


def test_metrics_the_view_did_not_have_by_hand():
    # Set precision: 1/1, then 1/2 (-0.5), then 2/3 (+1/6): it falls at a miss.
    assert contributions("set_precision", [1, 0, 1], [1, 1]) == pytest.approx(
        [1.0, -0.5, 1 / 6], abs=1e-15)
    # RBP(0.5): (1 - p) p^(i - 1) at each relevant rank.
    assert contributions("rbp(p=0.5)", [1, None, 1], [1, 1]) == [0.5, 0.0, 0.125]
    # bpref, R = 2, one judged non-relevant doc (N = 1): the first relevant doc is above
    # it (1/2), the second below it (0).
    assert contributions("bpref", [1, 0, 1], [1, 1, 0]) == [0.5, 0.0, 0.0]
    # ERR with grades 1 and 2 (g_max 2): 1/4 at rank 1, then (3/4)(3/4)/2.
    assert contributions("err", [1, 2], [1, 2]) == [0.25, 0.28125]
    # Judged@3 counts a doc judged below 0; unj@3 counts it as unjudged.
    assert contributions("judged@3", [1, None, -1], [1, -1]) == pytest.approx(
        [1 / 3, 0.0, 1 / 3], abs=1e-15)
    assert contributions("unj@3", [1, None, -1], [1, -1]) == pytest.approx(
        [0.0, 1 / 3, 1 / 3], abs=1e-15)
    # Below the cut-off a rank adds nothing; the 11-point average reads every rank. R = 2:
    # levels 0 to 0.7 round to the first hit, 0.8 to 1 to the second. The top 2 reach
    # the first (precision 1/2 at 8 levels: 4/11); the top 3 both, and precision 2/3 at
    # the second hit is the best from either hit on (2/3 at all 11).
    assert contributions("precision@2", [0, 1, 1], [1, 1]) == [0.0, 0.5, 0.0]
    assert contributions("11pt_avg", [0, 1, 1], [1, 1]) == pytest.approx(
        [0.0, 4 / 11, 2 / 3 - 4 / 11], abs=1e-15)


def test_metrics_with_no_view_say_none():
    assert "bpref" in DECOMPOSABLE
    assert "num_rel" not in DECOMPOSABLE
    assert contributions("num_q", [1], [1]) is None  # a measure of the query
    assert contributions("relstring", [1], [1]) is None  # text
    assert contributions("idcg@3", [1], [1]) is None  # the judgments' alone
    assert contributions("utility(1,-1,2,0)", [1, 0], [1, 1]) is None  # prices a miss
    # Default prices: +1 a relevant doc, -1 any other; nothing before the first rank.
    assert contributions("utility", [1, 0], [1, 1]) == [1.0, -1.0]
    # Under Spark's conventions AP@k divides by min(R, k) at every rank.
    spark = Conventions(ap_denominator="min_relevant_k")
    assert contributions("ap@2", [1, 0, 1], [1, 1, 1], conventions=spark) == [0.5, 0.0, 0.0]


@pytest.fixture(scope="module")
def explorer(support_comparison, support_demo):
    corpus = {"faq-billing": "Billing <b>FAQ</b>"}
    return ComparisonExplorer(support_comparison, titles=corpus,
                              texts={"q01": "<script>alert(1)</script>"})


def test_the_table_holds_every_number(explorer, support_comparison):
    c = support_comparison
    keys, data = explorer_table(c)
    assert data.shape == (72, len(c.metrics) * 3)
    for metric in c.metrics:
        base = c.per_query["bm25"][metric].to_numpy()
        other = c.per_query["dense_minilm"][metric].to_numpy()
        assert np.array_equal(data[:, keys.index(f"value|bm25|{metric}")], base)
        assert np.array_equal(data[:, keys.index(f"difference|dense_minilm|{metric}")],
                              other - base)
    assert np.frombuffer(explorer.data, "<f8").reshape(data.shape).tolist() == data.tolist()
    labels = [column["label"] for column in explorer.columns]
    assert labels[:3] == ["bm25 nDCG@10", "dense_minilm nDCG@10", "Δ nDCG@10"]
    assert len(labels) == len(c.metrics) + 2


@pytest.mark.parametrize("sort", ["abs_difference", "query", "value|bm25|ndcg@10",
                                  "difference|dense_minilm|mrr"])
@pytest.mark.parametrize("descending", [True, False])
@pytest.mark.parametrize("show", ["all", "better", "same", "worse"])
def test_row_order_equals_pandas(support_comparison, sort, descending, show):
    c = support_comparison
    keys, data = explorer_table(c)
    ids = [str(q) for q in c.per_query["bm25"].index]
    order = row_order(data, keys, ids, [""] * len(ids), metric="ndcg@10",
                      system="dense_minilm", sort=sort, descending=descending, show=show)
    frame = pd.DataFrame(data, columns=keys).assign(query=ids)
    d = frame["difference|dense_minilm|ndcg@10"]
    frame = frame[{"all": d.notna(), "better": d > 0, "same": d == 0, "worse": d < 0}[show]]
    if sort == "abs_difference":
        frame = frame.assign(abs_difference=d.abs())
    expected = frame.sort_values(sort, ascending=not descending, kind="stable").index
    assert order.tolist() == expected.tolist()


def test_search_and_histogram(explorer):
    explorer.search = "q0"
    assert explorer.shown_queries() == [q for q in explorer.shown_queries() if "q0" in q]
    assert len(explorer.shown_queries()) == 9
    explorer.search = "ALERT"  # the question's text is searched too, case ignored
    assert explorer.shown_queries() == ["q01"]
    assert explorer.announcement == ("1 of 72 queries shown, sorted by size of Δ nDCG@10, "
                                     "largest first")
    explorer.search = ""
    h = explorer.histogram
    assert sum(h["counts"]) == 72
    d = explorer._differences()
    assert h["counts"][HALF_BINS] >= int((d == 0).sum())
    assert "72 per-query differences in nDCG@10, dense_minilm minus bm25" in h["description"]
    assert difference_histogram(np.array([np.nan]))["counts"] == [0] * (2 * HALF_BINS + 1)


def test_selection_shows_the_comparisons_values(explorer, support_comparison):
    c = support_comparison
    explorer.metric = "mrr"
    explorer.select("q16")
    d = explorer.detail
    assert d["values"]["bm25"] == c.per_query["bm25"].at["q16", "mrr"]
    assert d["difference"] == pytest.approx(c.per_query["dense_minilm"].at["q16", "mrr"]
                                            - c.per_query["bm25"].at["q16", "mrr"])
    for column in d["columns"]:
        listed = math.fsum(r["contribution"] for r in column["rows"])
        assert listed + column["rest"] == pytest.approx(column["value"])
        assert len(column["rows"]) == 10  # MRR has no cut-off: the top 10 are listed
    assert explorer.announcement.startswith("query q16 selected: MRR bm25 ")
    # The histogram marks the selected query's bin.
    assert explorer.histogram["selected_bin"] >= 0
    explorer.metric = "ndcg@10"


def test_a_doc_the_golden_set_does_not_list_is_not_relevant_not_unjudged(explorer,
                                                                       support_demo):
    # The support demo's judgments list the relevant chunks; every other chunk was read
    # (or left out) as not relevant, grade 0: the drill-down must not call it "not judged".
    qrels, _ = support_demo
    explorer.metric = "ndcg@10"
    explorer.select("q16")
    rows = [r for column in explorer.detail["columns"] for r in column["rows"]]
    unlisted = [r for r in rows if r["grade"] is None]
    assert unlisted, "q16's top 10 holds chunks the golden set does not list"
    listed_ids = set(qrels.loc[qrels["query_id"] == "q16", "doc_id"])
    assert not {r["doc_id"] for r in unlisted} & listed_ids
    assert {r["grade_text"] for r in unlisted} == {"not relevant (not listed)"}
    assert all(not r["relevant"] and r["contribution"] == 0 for r in unlisted)
    listed = [r for r in rows if r["grade"] is not None]
    assert all(r["grade_text"] == format(r["grade"], "g") for r in listed)
    text = explorer.describe()
    assert "not judged" not in text
    assert f"{unlisted[0]['doc_id']} (not relevant (not listed))" in text
    # Only the metrics that tell unjudged docs from non-relevant ones read it as unjudged.
    assert grade_text(None, "recall@5") == "not relevant (not listed)"
    assert grade_text(None, "bpref") == grade_text(None, "judged@10") == "not listed: unjudged"
    assert grade_text(0.0, "bpref") == "0"
    assert grade_text(-1.0, "ndcg@10") == "-1"


def test_what_the_browser_sends_is_checked(explorer):
    for trait, value, message in [("metric", "ndcg@99", "metric must be one of"),
                                  ("system", "bm25", "system must be one of"),
                                  ("show", "most", "show must be one of"),
                                  ("sort", "nope", "cannot sort by"),
                                  ("selected", 72, "selected must be a query position")]:
        with pytest.raises(WidgetValueError, match=message):
            setattr(explorer, trait, value)
    with pytest.raises(ValueError, match="not in this comparison"):
        explorer.select("q999")


def test_text_stays_text(explorer):
    explorer.select("q01")
    bundle = explorer._repr_mimebundle_()[0]["text/html"]
    assert "<script>" not in bundle
    assert "<b>" not in bundle
    assert explorer.query_texts[explorer.query_ids.index("q01")] == "<script>alert(1)</script>"


def test_one_system_and_a_plain_comparison():
    qrels = {"q1": {"a"}, "q2": {"b"}}
    single = compare({"only": {"q1": ["a"], "q2": ["x", "b"]}}, qrels, ["mrr"], n_resamples=50)
    explorer = ComparisonExplorer(single)
    assert explorer.shown_queries() == ["q1", "q2"]
    explorer.select("q2")
    assert explorer.detail["values"] == {"only": 0.5}
    with pytest.raises(ValueError, match="needs a Comparison"):
        ComparisonExplorer({"not": "a comparison"})


def test_example_is_the_support_demo():
    explorer = ComparisonExplorer.example()
    assert len(explorer.query_ids) == 72
    assert explorer.selected >= 0
    assert repr(explorer).startswith("ComparisonExplorer(72 queries, metric='ndcg@10'")
