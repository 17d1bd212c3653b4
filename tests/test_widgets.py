"""Widgets without a browser: Python holds the state, and every number is ragmetrics'.

Setting a trait from Python is exactly what the browser does (``model.set`` +
``save_changes``), so these tests cover the wiring; tests/browser covers the drawing.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import traitlets

import ragmetrics as rm
from ragmetrics.examples import load_example
from ragmetrics.widgets import RankingBoard
from ragmetrics.widgets.explorers import BudgetCalculator, KExplorer, TrapsGallery

BOARD_FUNCTIONS = {
    "recall": rm.recall_at_k,
    "precision": rm.precision_at_k,
    "hit_rate": rm.hit_rate_at_k,
    "mrr": rm.reciprocal_rank,
    "ndcg": rm.ndcg_at_k,
}


def assert_board_matches_library(board):
    relevant = dict(board.relevance)
    for name, function in BOARD_FUNCTIONS.items():
        expected = function(board.order, relevant, board.k)
        assert math.isclose(board.metrics[name], expected, rel_tol=0, abs_tol=1e-15), name


def test_board_starts_with_the_articles_cancellation_numbers():
    board = RankingBoard.from_example("cancellation")
    assert board.k == 10
    assert board.metrics["recall"] == 1.0
    assert board.metrics["precision"] == pytest.approx(0.3)
    assert board.metrics["ndcg"] == pytest.approx(0.8710785440003369)
    assert_board_matches_library(board)


@pytest.mark.parametrize("name", ["refund_policy", "cancellation", "k_tradeoff", "precision_trap"])
def test_every_article_example_opens(name):
    board = RankingBoard.from_example(name)
    assert board.order == load_example(name).retrieved
    assert_board_matches_library(board)


def test_a_drag_recomputes_every_metric():
    board = RankingBoard.from_example("cancellation", k=5)
    before = dict(board.metrics)
    board.order = ["19", *[d for d in board.order if d != "19"]]  # what a drop sends
    assert before["recall"] == pytest.approx(2 / 3)
    assert board.metrics["recall"] == 1.0
    assert_board_matches_library(board)


def test_move_puts_a_chunk_at_a_rank():
    board = RankingBoard(["a", "b", "c", "d"], {"d"}, k=2)
    board.move("d", 1)
    assert board.order == ["d", "a", "b", "c"]
    assert board.metrics["mrr"] == 1.0
    with pytest.raises(ValueError, match="'zz' is not on the board"):
        board.move("zz", 1)
    with pytest.raises(ValueError, match="to_rank must be between 1 and 4, got 9"):
        board.move("a", 9)


def test_toggle_flips_binary_relevance_and_the_browser_message_does_the_same():
    board = RankingBoard(["a", "b", "c"], {"a"}, k=3)
    board.toggle("b")
    assert board.relevance["b"] == 1.0
    assert board.metrics["precision"] == pytest.approx(2 / 3)
    board._on_message(board, {"type": "toggle", "doc_id": "b"}, [])
    assert board.relevance["b"] == 0.0
    assert board.metrics["precision"] == pytest.approx(1 / 3)
    assert_board_matches_library(board)


def test_toggle_cycles_grades_on_a_graded_board():
    board = RankingBoard(["a", "b"], {"a": 3, "b": 1}, k=2)
    assert board.max_grade == 3
    seen = []
    for _ in range(4):
        board.toggle("b")
        seen.append(board.relevance["b"])
    assert seen == [2.0, 3.0, 0.0, 1.0]
    assert_board_matches_library(board)


def test_k_slider_recomputes_and_bad_k_is_refused():
    board = RankingBoard.from_example("k_tradeoff")
    board.k = 5
    assert board.metrics["ndcg"] == pytest.approx(0.5531, abs=5e-5)  # the article's erratum
    assert_board_matches_library(board)
    with pytest.raises(traitlets.TraitError, match="k must be a positive int"):
        board.k = 0


def test_order_must_stay_a_permutation():
    board = RankingBoard(["a", "b", "c"], {"a"}, k=2)
    with pytest.raises(traitlets.TraitError, match="permutation"):
        board.order = ["a", "b", "zz"]
    with pytest.raises(traitlets.TraitError, match="permutation"):
        board.order = ["a", "b"]
    assert board.order == ["a", "b", "c"]


def test_relevant_chunks_that_were_not_retrieved_count_and_are_listed():
    board = RankingBoard(["a", "x"], {"a", "gone"}, k=2)
    assert board.metrics["recall"] == 0.5
    assert board.view["unretrieved"] == ["gone"]


def test_ndcg_arithmetic_is_shown_rank_by_rank():
    board = RankingBoard.from_example("refund_policy")
    rows = board.view["ndcg_rows"]
    assert [r["doc_id"] for r in rows] == ["chunk_A", "chunk_B", "chunk_C", "chunk_D", "chunk_E"]
    assert rows[4]["discount"] == pytest.approx(math.log2(6))
    assert board.view["dcg"] == pytest.approx(1 + 1 / 2 + 1 / math.log2(6))
    assert board.view["idcg"] == pytest.approx(1 + 1 / math.log2(3) + 1 / 2)


def test_repr_and_description_are_deterministic_text():
    board = RankingBoard(["a", "b"], {"b": 2}, k=1)
    assert repr(board) == "RankingBoard(order=['a', 'b'], relevant={'b': 2.0}, k=1)"
    text = board.describe()
    assert "  2. b                relevant (grade 2)" in text
    assert "---- cut-off k = 1 ----" in text
    assert "Recall@1 = 0.0000" in text
    assert "nDCG@1 = 0.0000" in text


def test_static_html_fallback_escapes_untrusted_titles():
    board = RankingBoard(["a"], {"a"}, k=1, titles={"a": "<img src=x onerror=alert(1)>"})
    data, _metadata = board._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    fallback = data["text/html"]
    assert "<img" not in fallback
    assert "&lt;img src=x onerror=alert(1)&gt;" in fallback
    assert "<td>1.0000</td>" in fallback


def test_ids_are_shown_as_text_and_colliding_ids_are_refused():
    board = RankingBoard([42, 99], {42}, k=1)
    assert board.order == ["42", "99"]
    with pytest.raises(ValueError, match="collide"):
        RankingBoard([42, "42"], {42}, k=1)


def test_front_end_never_builds_html_from_strings():
    """Titles are untrusted: the ES module must only ever use textContent."""
    source = (Path(rm.__file__).parent / "widgets" / "board.js").read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in source


def test_k_explorer_follows_the_slider():
    explorer = KExplorer.from_example("k_tradeoff")
    first_png = bytes(explorer.image.value)
    assert first_png.startswith(b"\x89PNG")
    explorer.slider.value = 25
    assert explorer.values()["recall"] == 1.0
    assert explorer.values()["ndcg"] == pytest.approx(0.8273, abs=5e-5)
    assert bytes(explorer.image.value) != first_png
    assert "Recall@25 = 1.0000" in explorer.text()


def test_budget_calculator_reports_recall_at_the_budget():
    calc = BudgetCalculator.from_example("k_tradeoff")
    calc.limit.value = 1700
    assert calc.k_budget() == 4
    assert "Recall@4 = 0.4000 vs Recall@10 = 0.8000" in calc.text()
    calc.limit.value = 700
    assert calc.k_budget() == 0
    assert calc.text().startswith("No chunk fits")


def test_traps_gallery_shows_the_number_that_lies_and_the_one_that_tells():
    gallery = TrapsGallery()
    for name, trap in gallery.traps.items():
        gallery.choice.value = name
        scores = trap.scores()
        assert f"{trap.looks_fine} = {scores[trap.looks_fine]:.4f} looks fine" in gallery.text()
        assert bytes(gallery.image.value).startswith(b"\x89PNG")


def test_from_example_refuses_a_bad_k_instead_of_defaulting():
    with pytest.raises(ValueError, match="k must be a positive int"):
        RankingBoard.from_example("cancellation", k=0)


def test_a_cut_off_below_the_list_is_drawn_and_precision_divides_by_k():
    board = RankingBoard(["a", "b"], {"a"}, k=4)
    assert "---- cut-off k = 4 (below the last of 2 chunks) ----" in board.describe()
    assert "(below the last of 2 chunks)" in board._repr_mimebundle_()[0]["text/html"]
    assert board.metrics["precision"] == 0.25


@pytest.mark.parametrize(
    "make", [lambda: KExplorer.from_example("k_tradeoff"), TrapsGallery,
             lambda: BudgetCalculator.from_example("k_tradeoff")],
)
def test_explorers_have_a_static_html_fallback(make):
    bundle = make()._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert "<table" in data["text/html"] or "<p>" in data["text/html"]
