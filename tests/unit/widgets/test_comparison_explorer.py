"""The comparison explorer without a browser: its view-model and its widget's state.

- Each rank's contribution (ragmetrics.evaluation.query_view) adds up to evaluate's
  value, for every query of the support demo, every decomposable metric and several
  conventions (tie rules, gains, relevance levels, repeated docs).
- The table's order under every sort and filter equals pandas' on the same numbers; the
  histogram counts every difference once; the drill-down holds the Comparison's values.
- What the browser may send is validated, and text stays text in the static view.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ragmetrics import compare, evaluate
from ragmetrics.conventions import Conventions
from ragmetrics.evaluation.query_view import QueryRankings, contributions
from ragmetrics.widgets import ComparisonExplorer
from ragmetrics.widgets.base import WidgetValueError
from ragmetrics.widgets.comparison_model import (
    HALF_BINS,
    difference_histogram,
    explorer_table,
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
