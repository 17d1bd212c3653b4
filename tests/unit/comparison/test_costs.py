"""Issue 26, item 7: the cost beside the quality in span comparisons (units sent)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ragmetrics import compare, evaluate
from ragmetrics.errors import RagmetricsWarning
from ragmetrics.spans import SpanJudgments, evaluate_spans

# Three chunks of 10, 20 and 30 characters.
CHUNKS = [{"chunk_id": c, "doc_id": "d", "start": s, "end": e}
          for c, s, e in (("a", 0, 10), ("b", 10, 30), ("c", 30, 60))]
EVIDENCE = {"q1": [("d", 12, 18)], "q2": [("d", 0, 5)], "q3": []}
SMALL = {"q1": ["a", "b", "c"], "q2": ["b"], "q3": ["a", "c"]}
BIG = {"q1": ["c", "b", "a"], "q2": ["c", "a", "b"], "q3": ["b"]}


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        return function(*args, **kwargs)


def test_units_sent_at_k_are_the_chunks_kept_added_up():
    got = quiet(evaluate_spans, SMALL, CHUNKS, EVIDENCE,
                ["span_units_sent@1", "span_units_sent@2", "span_units_sent"])
    # q1: a (10), a+b (30), a+b+c (60); q2: b alone (20); q3: a (10), a+c (40), 40.
    assert got["span_units_sent@1"].tolist() == [10.0, 20.0, 10.0]
    assert got["span_units_sent@2"].tolist() == [30.0, 20.0, 40.0]
    assert got["span_units_sent"].tolist() == [60.0, 20.0, 40.0]


def test_a_budget_that_cuts_mid_list_sends_the_prefix_that_fits():
    got = quiet(evaluate_spans, BIG, CHUNKS, EVIDENCE,
                ["span_units_sent@budget=35", "span_units_sent@budget=55",
                 "span_units_sent@budget=25"])
    # q1: c (30) fits 35, c+b (50) does not; 55 takes c+b, then a would make 60.
    assert got["span_units_sent@budget=35"].tolist() == [30.0, 30.0, 20.0]
    assert got["span_units_sent@budget=55"].tolist() == [50.0, 40.0, 20.0]
    # A first chunk longer than the budget: nothing sent (as the metrics retrieve nothing).
    assert got["span_units_sent@budget=25"].tolist() == [0.0, 0.0, 20.0]


def test_units_sent_count_overlapping_chunks_whole_and_tokens_in_the_unit():
    chunks = [{"chunk_id": "x", "doc_id": "d", "start": 0, "end": 15},
              {"chunk_id": "y", "doc_id": "d", "start": 10, "end": 25}]
    got = quiet(evaluate_spans, {"q1": ["x", "y"]}, chunks, {"q1": [("d", 0, 5)]},
                ["span_units_sent@2"])
    assert got["span_units_sent@2"].tolist() == [30.0]  # [10, 15) twice, as a prompt
    text = "one two three four five six"
    chunks = [{"chunk_id": "x", "doc_id": "d", "start": 0, "end": 13},  # one two three
              {"chunk_id": "y", "doc_id": "d", "start": 14, "end": 27}]  # four five six
    judgments = SpanJudgments({"q1": [("d", 0, 3)]}, documents={"d": text}, unit="token")
    got = quiet(evaluate, {"q1": ["y", "x"]}, judgments, ["span_units_sent@1",
                                                         "span_units_sent@budget=5"],
                chunks=chunks)
    assert got.per_query.loc["q1"].tolist() == [3.0, 3.0]


def test_units_sent_ignore_the_evidence_but_follow_the_skip_policies():
    names = ["span_units_sent@2", "span_recall@2"]
    zero = quiet(evaluate_spans, SMALL, CHUNKS, EVIDENCE, names)
    assert zero.loc["q3"].tolist() == [40.0, 0.0]  # no evidence: the cost is still paid
    article = quiet(evaluate_spans, SMALL, CHUNKS, EVIDENCE, names, empty_relevant="article")
    assert article.loc["q3"].tolist() == [40.0, 1.0]
    skip = quiet(evaluate_spans, SMALL, CHUNKS, EVIDENCE, names, empty_relevant="skip")
    assert np.isnan(skip.loc["q3"]).all()
    missing = quiet(evaluate_spans, {"q1": ["a"]}, CHUNKS, EVIDENCE, ["span_units_sent@2"])
    assert missing["span_units_sent@2"].tolist() == [10.0, 0.0, 0.0]  # nothing retrieved


def test_units_sent_average_over_the_orders_of_tied_chunks():
    run = {"q1": {"a": 1.0, "b": 1.0, "c": 1.0}}  # all tied: any 1 of 10, 20, 30
    got = quiet(evaluate_spans, run, CHUNKS, {"q1": [("d", 0, 5)]},
                ["span_units_sent@1", "span_units_sent@2"], ties="average")
    assert got.loc["q1"].tolist() == pytest.approx([20.0, 40.0])  # (10+20+30)/3, 2/3 of 60


def span_comparison(**options):
    return quiet(compare, {"small": SMALL, "big": BIG},
                 metrics=["span_recall@2", "span_iou@budget=35", "recall@1"],
                 evidence=EVIDENCE, chunks=CHUNKS, n_resamples=50, **options)


def test_compare_carries_the_costs_per_system_and_cut():
    result = span_comparison()
    costs = result.costs
    assert list(costs.index) == [(s, cut) for s in ("small", "big")
                                 for cut in ("k=1", "k=2", "budget=35")]
    assert costs.attrs["unit"] == "characters"
    # small at k=2: 30, 20, 40; big: 50, 40, 20 (q3 has no evidence: its cost counts).
    assert costs.loc[("small", "k=2"), "mean"] == pytest.approx(30.0)
    assert costs.loc[("big", "k=2"), "mean"] == pytest.approx(110 / 3)
    assert costs.loc[("big", "k=2"), "p50"] == 40.0
    assert costs.loc[("big", "k=2"), "p90"] == pytest.approx(48.0)  # 40 + 0.8 * (50 - 40)
    assert costs.loc[("big", "budget=35"), ["mean", "p50"]].tolist() == [
        pytest.approx(80 / 3), 30.0]  # 30, 30, 20
    assert costs.loc[("small", "k=1"), "queries"] == 3
    # Never among the metrics: not compared, tested nor in the evaluations.
    assert result.metrics == ("span_recall@2", "span_iou@budget=35", "recall@1")
    assert not any("units_sent" in c for c in result.evaluations["big"].per_query.columns)
    assert not any("units_sent" in str(m) for m in result.summary.index.get_level_values(0))


def test_a_units_sent_metric_asked_for_stays_a_metric_and_is_costed_once():
    result = quiet(compare, {"small": SMALL, "big": BIG}, metrics=["span_units_sent@2"],
                   evidence=EVIDENCE, chunks=CHUNKS, n_resamples=50)
    assert result.metrics == ("span_units_sent@2",)
    assert list(result.costs.index.get_level_values("cut").unique()) == ["k=2"]
    assert result.evaluations["big"].per_query["span_units_sent@2"].tolist() == [50, 40, 20]


def test_the_cost_table_is_in_the_three_reports_after_the_verdict_before_the_means():
    result = span_comparison()
    text = result.to_text()
    assert "Cost (characters sent per question)" in text
    assert text.index("Verdict on") < text.index("Cost (") < text.index("span_recall@2  ")
    assert "big     k=2        36.7 chars  40   48   3" in text
    markdown = result.to_markdown()
    assert markdown.index("## Verdict") < markdown.index("## Cost") < markdown.index(
        "## Means")
    assert "| big | k=2 | 36.7 chars | 40 | 48 | 3 |" in markdown
    html = result.to_html()
    assert html.index("Cost</h2>") < html.index("Means</h2>")
    assert "36.7 chars" in html
    assert "budget=35" in html


def test_no_cost_for_comparisons_of_chunk_ids():
    result = quiet(compare, {"old": {"q1": ["x", "d"]}, "new": {"q1": ["d"]}}, {"q1": {"d"}},
                   ["mrr", "recall@1"], n_resamples=50)
    assert result.costs is None
    assert "Cost" not in result.to_text()
    assert "## Cost" not in result.to_markdown()
    assert "Cost</h2>" not in result.to_html()
