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
    describe_overlaps,
    describe_ranking,
    metric_changes,
    move,
    moved_chunk,
    plot_lanes,
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
        "Recall@3 0.50 → 1.00, Precision@3 0.33 → 0.67, nDCG@3 0.61 → 1.00"
    )


def test_a_move_that_changes_no_metric_says_so():
    before = state(["a", "x", "y"], {"a": 1}, 3)
    after = state(["a", "y", "x"], {"a": 1}, 3)
    assert describe_change(before, after, moved="y") == "chunk y moved to rank 2; no metric changed"


def test_a_move_below_the_cut_off_is_named():
    before = state(["a", "b", "x"], {"a": 1}, 1)
    after = state(["b", "a", "x"], {"a": 1}, 1)
    said = describe_change(before, after, moved="a")
    assert said.startswith("chunk a moved to rank 2, now below the cut-off; Recall@1 1.00 → 0.00")


def test_a_change_below_two_decimals_is_shown_at_four():
    # d9 from rank 9 to 10: RR 1/9 = 0.111 -> 0.100, nDCG 1/log2(10) = 0.301 -> 1/log2(11) = 0.289.
    order = [f"d{i}" for i in range(1, 11)]
    before = state(order, {"d9": 1}, 10)
    after = state(move(order, "d9", 10), {"d9": 1}, 10)
    said = describe_change(before, after, moved="d9")
    assert said == "chunk d9 moved to rank 10; RR@10 0.11 → 0.10, nDCG@10 0.30 → 0.29"
    # d19 from rank 19 to 20: RR 0.0526 -> 0.0500 and nDCG 1/log2(20) = 0.2314 ->
    # 1/log2(21) = 0.2277 both read "0.05" and "0.23" at two decimals: four are said.
    order = [f"d{i}" for i in range(1, 21)]
    before = state(order, {"d19": 1}, 20)
    after = state(move(order, "d19", 20), {"d19": 1}, 20)
    said = describe_change(before, after, moved="d19")
    assert said == "chunk d19 moved to rank 20; RR@20 0.0526 → 0.0500, nDCG@20 0.2314 → 0.2277"
    assert math.isclose(after["metrics"]["ndcg"], 1 / math.log2(21))


def test_a_toggle_says_relevant_or_not_and_a_graded_board_says_the_grade():
    before = state(["a", "b"], {"a": 1}, 2)
    after = state(["a", "b"], {"a": 1, "b": 1}, 2)
    # Recall@2 stays 1 (b joins the golden set and is found); Precision@2 1/2 -> 1;
    # nDCG@2 stays 1.
    assert describe_change(before, after) == "chunk b marked relevant; Precision@2 0.50 → 1.00"
    assert describe_change(after, before) == (
        "chunk b marked not relevant; Precision@2 1.00 → 0.50"
    )
    graded_before = state(["a", "b"], {"a": 3, "b": 1}, 2, max_grade=3)
    graded_after = state(["a", "b"], {"a": 3, "b": 2}, 2, max_grade=3)
    said = describe_change(graded_before, graded_after)
    # IDCG = 3 + 2/log2 3 and DCG the same: nDCG stays 1.
    assert said == "chunk b set to grade 2; no metric changed"


def test_a_new_k_says_every_metric_under_its_new_name():
    before = state(["a", "x", "b"], {"a": 1, "b": 1}, 2)
    after = state(["a", "x", "b"], {"a": 1, "b": 1}, 3)
    # Recall 1/2 -> 1, Precision 1/2 -> 2/3, hit rate and RR stay 1 (said once),
    # nDCG@2 1 / (1 + 1/log2 3) = 0.613 -> nDCG@3 (1 + 1/2) / (1 + 1/log2 3) = 0.920.
    assert describe_change(before, after) == (
        "cut-off k = 3; Recall@3 0.50 → 1.00, Precision@3 0.50 → 0.67, Hit rate@3 1.00, "
        "RR@3 1.00, nDCG@3 0.61 → 0.92"
    )
    far = state(["a", "x", "b"], {"a": 1, "b": 1}, 5)
    assert describe_change(after, far).startswith(
        "cut-off k = 5 (below the last of 3 chunks); Recall@5 1.00, Precision@5 0.67 → 0.40"
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


# -- the readout's change since the last move ------------------------------------------------


def test_metric_changes_gives_each_metric_from_before_to_now():
    # The article's cancellation query at k = 10: chunk 19 (rank 6, grade 1) to rank 2.
    # nDCG@10 0.8711 -> 0.9718 (shown at 2 decimals), recall stays 1.
    from ragmetrics.teaching import load_example

    example = load_example("cancellation")
    order, relevance = list(example.retrieved), dict(example.relevant)
    before = state(order, relevance, 10)
    after = state(move(order, "19", 2), relevance, 10)
    changes = metric_changes(before, after)
    assert list(changes) == ["recall", "precision", "hit_rate", "rr", "ndcg"]
    ndcg = changes["ndcg"]
    assert math.isclose(ndcg["before"], 0.8710785440003369)
    assert ndcg["after"] == after["metrics"]["ndcg"]
    assert ndcg["text"] == f"0.87 → {after['metrics']['ndcg']:.2f}"
    assert ndcg["spoken"] == f"from 0.87 to {after['metrics']['ndcg']:.2f}"
    assert changes["recall"] == {"before": 1.0, "after": 1.0, "text": "unchanged",
                                 "spoken": "unchanged"}
    # The live region says the same numbers.
    assert f"nDCG@10 {ndcg['text']}" in describe_change(before, after, moved="19")


def test_metric_changes_at_four_decimals_when_two_hide_the_change_and_none_at_first():
    order = [f"d{i}" for i in range(1, 21)]
    before = state(order, {"d19": 1}, 20)
    after = state(move(order, "d19", 20), {"d19": 1}, 20)
    # RR 1/19 = 0.0526 -> 1/20 = 0.0500 (both "0.05" at 2 decimals).
    assert metric_changes(before, after)["rr"]["text"] == "0.0526 → 0.0500"
    first = metric_changes(None, after)
    assert {c["text"] for c in first.values()} == {""}
    assert all(c["before"] is None for c in first.values())


def test_the_widget_readout_follows_each_move_and_the_reset():
    from ragmetrics.widgets import RankingBoard

    board = RankingBoard(["a", "x", "b"], {"a", "b"}, k=2)
    assert {c["text"] for c in board.view["changes"].values()} == {""}
    board.move("b", 2)  # Recall@2 1/2 -> 1, nDCG@2 0.613 -> 1
    assert board.view["changes"]["recall"]["text"] == "0.50 → 1.00"
    assert board.view["changes"]["rr"]["text"] == "unchanged"
    assert "Recall@2 0.50 → 1.00" in board.announcement
    board.k = 1  # Recall@1 1/2, Precision@1 1
    assert board.view["changes"]["recall"]["text"] == "1.00 → 0.50"
    board.reset()  # back to k = 2 and the first order: Recall@2 1/2 again
    assert board.view["changes"]["recall"]["text"] == "unchanged"
    assert board.view["changes"]["precision"]["text"] == "1.00 → 0.50"


# -- the plot: curves that coincide ------------------------------------------------------


def test_hit_rate_and_rr_that_coincide_get_different_lanes_and_a_note():
    # The first chunk relevant: hit rate and RR are 1 at every k.
    view = board_view(["a", "x", "b", "y"], {"a": 1, "b": 1}, 2)
    curve = view["curve"]
    assert curve["hit_rate"] == curve["rr"] == [1.0] * 4
    lanes = view["lanes"]
    assert lanes["hit_rate"] != lanes["rr"]
    # Every pair of curves that meet somewhere is drawn in different lanes.
    names = list(lanes)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if any(abs(x - y) < 1e-12 for x, y in zip(curve[a], curve[b], strict=True)):
                assert lanes[a] != lanes[b], (a, b)
    assert view["plot_note"].startswith("Hit rate and RR are equal at every k. ")
    assert view["plot_note"] == describe_overlaps(curve)


def test_curves_that_never_meet_stay_in_lane_zero_without_a_note():
    curve = {"k": [1, 2], "recall": [0.5, 1.0], "precision": [1.0, 0.5], "ndcg": [0.2, 0.3]}
    assert plot_lanes(curve) == {"recall": 0, "precision": 0, "ndcg": 0}
    assert describe_overlaps(curve) == ""
    # One relevant chunk, at rank 2: recall and hit rate are 0 then 1, precision and RR
    # 0 then 1/2, nDCG 0 then 1/log2 3; all five meet at k = 1 (0), so five lanes.
    view = board_view(["x", "a"], {"a": 1}, 2)
    assert view["plot_note"] == ("Recall and Hit rate are equal at every k. Precision and RR "
                                 "are equal at every k. Curves that meet are drawn a little apart.")
    assert sorted(view["lanes"].values()) == [-2, -1, 0, 1, 2]
