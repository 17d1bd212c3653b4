"""The ranking board with facets: alpha-nDCG@k and subtopic recall@k beside the other
metrics, worked out by hand here, and the same as ragmetrics.diversity computes them.

The hand case: three relevant chunks, a and c on facet "price", b on "how" (alpha = 0.5).
A chunk's gain is the sum over its facets of 0.5 ** (chunks above it on that facet); the
discount of rank i is 1 for i = 1 and log2(i + 1) after.

- a, b, c: gains 1, 1, 0.5: alpha-DCG@3 = 1 + 1/log2(3) + 0.5/2 = 1.880930
- a, c, b: gains 1, 0.5, 1: alpha-DCG@3 = 1 + 0.5/log2(3) + 1/2  = 1.815465
- the ideal (greedy) is a, b, c's gains: alpha-nDCG@3 goes 1 -> 1.815465 / 1.880930 = 0.965196
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from wcag import contrast

from ragmetrics.diversity import alpha_ndcg_at_k, evaluate_diversity, subtopic_recall_at_k
from ragmetrics.errors import InputTypeError, InputValueError
from ragmetrics.widgets import RankingBoard
from ragmetrics.widgets.board_model import (
    FACET_METRICS,
    BoardState,
    board_view,
    check_facets,
    describe_change,
    describe_metrics,
    facet_colours,
    facet_subtopics,
    facets_of_query,
    metric_changes,
    static_html,
)

DATA = Path(__file__).resolve().parents[3] / "data" / "support_demo"
FACETS = {"a": ["price"], "b": ["how"], "c": ["price"]}
RELEVANCE = {"a": 1, "b": 1, "c": 1}


def state(order, k=3, facets=FACETS, relevance=RELEVANCE):
    view = board_view(order, relevance, k, facets=facets)
    return {"order": list(order), "relevance": dict(relevance), "k": k,
            "metrics": view["metrics"]}


def test_a_redundant_chunk_moved_up_lowers_alpha_ndcg_and_nothing_else():
    before, after = state(["a", "b", "c"]), state(["a", "c", "b"])
    assert before["metrics"]["alpha_ndcg"] == pytest.approx(1.0)
    by_hand = (1 + 0.5 / math.log2(3) + 1 / 2) / (1 + 1 / math.log2(3) + 0.5 / 2)
    assert after["metrics"]["alpha_ndcg"] == pytest.approx(by_hand, abs=1e-12)
    assert round(by_hand, 6) == 0.965195
    for name in ("recall", "precision", "hit_rate", "rr", "ndcg", "strec"):
        assert after["metrics"][name] == before["metrics"][name], name
    changes = metric_changes(before, after)
    assert changes["alpha_ndcg"]["text"] == "1.00 → 0.97"
    assert changes["ndcg"]["text"] == changes["recall"]["text"] == "unchanged"
    assert describe_change(before, after, moved="c") == (
        "chunk c moved to rank 2; alpha-nDCG@3 1.00 → 0.97")


def test_subtopic_recall_over_k():
    # a, c, b: price at rank 1, price again at 2, how at 3: 1/2, 1/2, 2/2.
    view = board_view(["a", "c", "b"], RELEVANCE, 2, facets=FACETS)
    assert view["curve"]["strec"] == [0.5, 0.5, 1.0]
    assert view["metrics"]["strec"] == 0.5
    assert view["labels"] == {"recall": "Recall@2", "precision": "Precision@2",
                              "hit_rate": "Hit rate@2", "rr": "RR@2", "ndcg": "nDCG@2",
                              "alpha_ndcg": "alpha-nDCG@2", "strec": "Subtopic recall@2"}
    assert describe_metrics(view["metrics"], 2).endswith(
        "alpha-nDCG@2 0.81, Subtopic recall@2 0.50")
    # alpha-nDCG@2 of a, c: (1 + 0.5/log2 3) / (1 + 1/log2 3) = 1.315465 / 1.630930 = 0.8066
    assert view["metrics"]["alpha_ndcg"] == pytest.approx(
        (1 + 0.5 / math.log2(3)) / (1 + 1 / math.log2(3)), abs=1e-12)


def test_a_chunk_marked_not_relevant_leaves_its_facets():
    assert facet_subtopics({"a": 1, "b": 0, "c": 1}, FACETS) == {"price": ["a", "c"]}
    # b's facet is gone: S = 1, and a at rank 1 covers it.
    view = board_view(["a", "c", "b"], {"a": 1, "b": 0, "c": 1}, 1, facets=FACETS)
    assert view["metrics"]["strec"] == 1.0
    assert view["metrics"]["alpha_ndcg"] == 1.0


def test_the_board_widget_says_the_alpha_ndcg_change():
    board = RankingBoard(["a", "b", "c"], {"a", "b", "c"}, k=3, facets=FACETS)
    board.move("c", 2)
    assert board.announcement == "chunk c moved to rank 2; alpha-nDCG@3 1.00 → 0.97"
    assert board.view["changes"]["alpha_ndcg"]["spoken"] == "from 1.00 to 0.97"
    assert board.facet_colours["price"]["light"] == "#0072B2"
    trial = board.state()
    assert trial.facets == FACETS
    trial.move("b", 2)
    assert trial.metrics["alpha_ndcg"] == pytest.approx(1.0)
    assert board.order == ["a", "c", "b"]  # the copy moved, not the board
    board.reset()
    assert board.announcement.endswith("alpha-nDCG@3 1.00, Subtopic recall@3 1.00")
    assert "[price]" in board.describe()


def test_a_board_without_facets_shows_no_diversity_measure():
    view = board_view(["a", "b"], {"a": 1}, 2)
    assert not set(FACET_METRICS) & set(view["metrics"])
    assert not set(FACET_METRICS) & set(view["curve"])
    assert RankingBoard(["a", "b"], {"a"}, k=1).facets == {}


def test_facet_colours_keep_3_to_1_in_both_themes():
    facets = {f"d{i}": [f"facet{i}"] for i in range(9)}
    colours = facet_colours(facets)
    assert list(colours) == [f"facet{i}" for i in range(9)]
    for name, pair in colours.items():
        assert contrast(pair["light"], "#FFFFFF") >= 3, name
        assert contrast(pair["dark"], "#111111") >= 3, name
    # the first seven differ (Okabe-Ito), then the palette repeats
    assert len({c["light"] for c in list(colours.values())[:7]}) == 7


def test_static_html_lists_facets_escaped():
    view = board_view(["a", "b"], {"a": 1}, 1, facets={"a": ["<b>x</b>"]})
    page = static_html(["a", "b"], {"a": 1}, 1, {}, view, {"a": ["<b>x</b>"]})
    assert "<th>facets</th>" in page
    assert "&lt;b&gt;x&lt;/b&gt;" in page
    assert "<b>x</b>" not in page
    assert "alpha-nDCG@1" in page


def test_bad_facets_are_refused_with_the_chunk_named():
    with pytest.raises(InputValueError, match="'z' is neither on the board"):
        check_facets({"z": ["x"]}, ["a"])
    with pytest.raises(InputTypeError, match="facets of chunk 'a' must be a list"):
        check_facets({"a": "price"}, ["a"])
    with pytest.raises(InputValueError, match="distinct non-empty"):
        check_facets({"a": ["x", "x"]}, ["a"])
    with pytest.raises(InputTypeError, match="mapping"):
        RankingBoard(["a"], {"a"}, facets=[("a", "x")])
    with pytest.raises(InputValueError, match="no subtopic judgments"):
        facets_of_query([("q1", "x", "a", 1)], "q2")


@pytest.fixture(scope="module")
def q17():
    facets = pd.read_csv(DATA / "facets.csv")
    golden = pd.read_csv(DATA / "golden.csv")
    run = pd.read_csv(DATA / "runs" / "dense_minilm.tsv", sep=" ", header=None,
                      names=["query_id", "q0", "doc_id", "rank", "score", "name"])
    top = run[run["query_id"] == "q17"].sort_values("rank")["doc_id"].head(20).tolist()
    grades = dict(golden[golden["query_id"] == "q17"][["doc_id", "relevance"]].to_numpy())
    return facets, top, grades


def test_the_support_demo_question_on_a_board(q17):
    """q17 in the dense run: plans-overview (seat price, already covered at rank 1) moved
    above seats-proration-example: the board's alpha-nDCG@5 falls, as
    ragmetrics.diversity computes it; Recall@5 and nDCG@5 (two grade-1 chunks swapped) stay."""
    facets, top, grades = q17
    board = RankingBoard.from_facets(top, facets, "q17", relevant=grades, k=5)
    assert top.index("seats-proration-example") == 2
    assert top.index("plans-overview") == 3
    start = dict(board.metrics)
    board.move("plans-overview", 3)
    moved = board.metrics
    subtopics = facet_subtopics(board.relevance, board.facets)
    assert moved["alpha_ndcg"] == alpha_ndcg_at_k(board.order, subtopics, 5)
    assert moved["alpha_ndcg"] < start["alpha_ndcg"]
    assert moved["ndcg"] == start["ndcg"]
    assert moved["recall"] == start["recall"]
    kernel = evaluate_diversity({"q17": board.order}, facets, ["alpha_ndcg@5", "strec@5"])
    assert kernel.summary["alpha_ndcg@5"] == pytest.approx(moved["alpha_ndcg"], abs=1e-15)
    assert kernel.summary["strec@5"] == moved["strec"] == pytest.approx(2 / 3)
    # the article's k = 20+: the third facet (adding a person) first appears at rank 15
    first_full = next(k for k in range(1, 21) if subtopic_recall_at_k(top, subtopics, k) == 1)
    assert first_full == 15 == top.index("seats-add") + 1
    assert "alpha-nDCG@5" in board.announcement


def test_board_state_with_facets_copies_them():
    state_ = BoardState(["a", "b", "c"], RELEVANCE, 3, facets=FACETS)
    copy = state_.copy()
    copy.move("c", 1)
    assert state_.order == ["a", "b", "c"]
    assert copy.facets == FACETS
    assert state_ != copy
