"""What the widgets say in words: live-region announcements and plot text alternatives.

These are pure functions of ragmetrics.widgets.board_model (no widget, no browser); the numbers in the
expected sentences are worked out by hand in the comments.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragmetrics.widgets.board_model import (
    board_view,
    describe_change,
    describe_curves,
    describe_metrics,
    describe_ranking,
    move,
    moved_chunk,
)


def state(order, relevance, k, **extra):
    view = board_view(order, relevance, k, gain=extra.get("gain", "linear"))
    return {"order": list(order), "relevance": dict(relevance), "k": k,
            "metrics": view["metrics"], **extra}


def test_a_move_says_the_chunk_its_new_rank_and_the_metrics_that_changed():
    before = state(["a", "x", "y", "b"], {"a": 1, "b": 1}, 3)
    after = state(["a", "b", "x", "y"], {"a": 1, "b": 1}, 3)
    # Recall@3 1/2 -> 2/2, Precision@3 1/3 -> 2/3, hit rate and RR stay 1,
    # nDCG@3 1 / (1 + 1/log2 3) = 0.613 -> 1.
    assert describe_change(before, after) == (
        "chunk b moved to rank 2, now above the cut-off; "
        "Recall@3 1.00, Precision@3 0.67, nDCG@3 1.00"
    )


def test_a_move_that_changes_no_metric_says_so():
    before = state(["a", "x", "y"], {"a": 1}, 3)
    after = state(["a", "y", "x"], {"a": 1}, 3)
    assert describe_change(before, after, moved="y") == "chunk y moved to rank 2; no metric changed"


def test_a_move_below_the_cut_off_is_named():
    before = state(["a", "b", "x"], {"a": 1}, 1)
    after = state(["b", "a", "x"], {"a": 1}, 1)
    said = describe_change(before, after, moved="a")
    assert said.startswith("chunk a moved to rank 2, now below the cut-off; Recall@1 0.00")


def test_a_change_below_two_decimals_is_shown_at_four():
    # d9 from rank 9 to 10: RR 1/9 = 0.111 -> 0.100, nDCG 1/log2(10) = 0.301 -> 1/log2(11) = 0.289.
    order = [f"d{i}" for i in range(1, 11)]
    before = state(order, {"d9": 1}, 10)
    after = state(move(order, "d9", 10), {"d9": 1}, 10)
    said = describe_change(before, after, moved="d9")
    assert said == "chunk d9 moved to rank 10; RR@10 0.10, nDCG@10 0.29"
    # d19 from rank 19 to 20: RR 0.0526 -> 0.0500 and nDCG 1/log2(20) = 0.2314 ->
    # 1/log2(21) = 0.2277 both read "0.05" and "0.23" at two decimals: four are said.
    order = [f"d{i}" for i in range(1, 21)]
    before = state(order, {"d19": 1}, 20)
    after = state(move(order, "d19", 20), {"d19": 1}, 20)
    said = describe_change(before, after, moved="d19")
    assert said == "chunk d19 moved to rank 20; RR@20 0.0500, nDCG@20 0.2277"
    assert math.isclose(after["metrics"]["ndcg"], 1 / math.log2(21))


def test_a_toggle_says_relevant_or_not_and_a_graded_board_says_the_grade():
    before = state(["a", "b"], {"a": 1}, 2)
    after = state(["a", "b"], {"a": 1, "b": 1}, 2)
    # Recall@2 stays 1 (b joins the golden set and is found); Precision@2 1/2 -> 1;
    # nDCG@2 stays 1.
    assert describe_change(before, after) == "chunk b marked relevant; Precision@2 1.00"
    assert describe_change(after, before) == "chunk b marked not relevant; Precision@2 0.50"
    graded_before = state(["a", "b"], {"a": 3, "b": 1}, 2, max_grade=3)
    graded_after = state(["a", "b"], {"a": 3, "b": 2}, 2, max_grade=3)
    said = describe_change(graded_before, graded_after)
    # IDCG = 3 + 2/log2 3 and DCG the same: nDCG stays 1.
    assert said == "chunk b set to grade 2; no metric changed"


def test_a_new_k_says_every_metric_under_its_new_name():
    before = state(["a", "x", "b"], {"a": 1, "b": 1}, 2)
    after = state(["a", "x", "b"], {"a": 1, "b": 1}, 3)
    # Recall@3 1, Precision@3 2/3, hit rate 1, RR 1, nDCG@3 (1 + 1/2) / (1 + 1/log2 3) = 0.920
    assert describe_change(before, after) == (
        "cut-off k = 3; Recall@3 1.00, Precision@3 0.67, Hit rate@3 1.00, RR@3 1.00, nDCG@3 0.92"
    )
    far = state(["a", "x", "b"], {"a": 1, "b": 1}, 5)
    assert describe_change(after, far).startswith(
        "cut-off k = 5 (below the last of 3 chunks); Recall@5 1.00, Precision@5 0.40"
    )


def test_gain_other_orders_many_toggles_and_nothing():
    grades = {"a": 1, "b": 3}
    before = state(["a", "b"], grades, 2, gain="linear", max_grade=3)
    after = state(["a", "b"], grades, 2, gain="exponential", max_grade=3)
    assert describe_change(before, after).startswith("exponential gain; nDCG@2 ")
    shuffled = state(["b", "a", "x", "y"], {"a": 1}, 2)
    reshuffled = state(["a", "b", "y", "x"], {"a": 1}, 2)
    assert describe_change(shuffled, reshuffled).startswith("order changed; ")
    many = state(["a", "b", "c", "d", "e"], {}, 5)
    all_relevant = state(["a", "b", "c", "d", "e"], dict.fromkeys("abcde", 1), 5)
    assert describe_change(many, all_relevant).startswith(
        "chunk a marked relevant, chunk b marked relevant, chunk c marked relevant, "
        "and 2 more relevance changes; "
    )
    assert describe_change(many, many) == ""


def test_moved_chunk_needs_the_hint_only_for_a_swap_of_neighbours():
    assert moved_chunk(["a", "b", "c"], ["b", "a", "c"]) == "b"  # b up, or a down
    assert moved_chunk(["a", "b", "c"], ["b", "a", "c"], hint="a") == "a"
    assert moved_chunk(["a", "b", "c"], ["b", "a", "c"], hint="c") == "b"  # c did not move
    assert moved_chunk(["a", "b", "c"], ["a", "b", "c"]) is None
    assert moved_chunk(["a", "b"], ["a", "z"]) is None


@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n - 1), st.integers(1, n))))
def test_moved_chunk_finds_a_chunk_whose_move_gives_the_new_order(case):
    n, index, to_rank = case
    before = [f"c{i}" for i in range(n)]
    after = move(before, before[index], to_rank)
    found = moved_chunk(before, after, hint=before[index])
    if after == before:
        assert found is None
    else:
        assert found == before[index]  # the hint is always honoured when it fits
        unhinted = moved_chunk(before, after)
        assert move(before, unhinted, after.index(unhinted) + 1) == after


def test_describe_metrics_reads_labels_and_two_decimals():
    assert describe_metrics({"recall": 1.0, "rr": 1 / 3}, 4) == "Recall@4 1.00, RR@4 0.33"


def test_describe_curves_gives_the_marked_k_and_each_best():
    curve = board_view(["a", "x", "b"], {"a": 1, "b": 1}, 3)["curve"]
    said = describe_curves(curve, 2)
    assert said.startswith("Metrics over k = 1 to 3, cut-off marked at k = 2. At k = 2: "
                           "Recall@2 0.50, Precision@2 0.50, Hit rate@2 1.00, RR@2 1.00, "
                           "nDCG@2 0.61.")
    # Recall first reaches 1 at k = 3; precision is highest (1) at k = 1.
    assert said.endswith("Highest: Recall@3 1.00, Precision@1 1.00, Hit rate@1 1.00, "
                         "RR@1 1.00, nDCG@1 1.00.")
    assert describe_curves(curve).startswith("Metrics over k = 1 to 3. Highest: ")


@pytest.mark.parametrize(
    ("order", "relevance", "k", "expected"),
    [
        (["a", "b", "x", "c"], {"a": 1, "b": 1, "c": 1}, 2,
         ("Ranking of 4 chunks, cut-off after rank 2. Relevant at ranks 1-2, 4; "
         "2 of the top 2 are relevant.")),
        (["x", "y"], {"z": 1}, 5,
         ("Ranking of 2 chunks, cut-off k = 5 below the last chunk. No relevant chunk "
         "retrieved; none of the top 5 is relevant. 1 relevant chunk never retrieved.")),
        (["a"], {"a": 2}, None, "Ranking of 1 chunk. Relevant at rank 1."),
        ([f"d{i}" for i in range(1, 31)], {f"d{i}": 1 for i in range(1, 31, 2)}, 10,
         ("Ranking of 30 chunks, cut-off after rank 10. Relevant at ranks 1, 3, 5, 7, 9, 11, "
         "13, 15, 17, 19, 21, 23 and 3 more; 5 of the top 10 are relevant.")),
    ],
)
def test_describe_ranking(order, relevance, k, expected):
    assert describe_ranking(order, relevance, k) == expected


def test_describe_ranking_respects_the_relevance_level():
    said = describe_ranking(["a", "b"], {"a": 1, "b": 2}, 1, relevance_level=2)
    assert said == "Ranking of 2 chunks, cut-off after rank 1. Relevant at rank 2; none of the top 1 is relevant."
