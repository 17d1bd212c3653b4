"""The precision-recall explorer and the board's reset, without a browser."""

from __future__ import annotations

import math

import pytest
import traitlets

from ragmetrics import average_precision, r_precision
from ragmetrics.widgets import PrecisionRecallExplorer, RankingBoard
from ragmetrics.widgets.board_model import BoardState
from ragmetrics.widgets.pr_model import pr_view


def test_the_explorer_follows_a_move_and_says_so():
    explorer = PrecisionRecallExplorer.example()
    relevant = dict(explorer.relevance)
    assert math.isclose(explorer.view["ap"], average_precision(explorer.order, relevant))
    explorer.order = ["chunk_19", *[d for d in explorer.order if d != "chunk_19"]]  # a browser move
    assert explorer.announcement.startswith("chunk chunk_19 moved to rank 1; AP ")
    assert math.isclose(explorer.view["ap"], average_precision(explorer.order, relevant))
    assert math.isclose(explorer.view["r_precision"], r_precision(explorer.order, relevant))
    explorer.reset_request = {"click": 1}
    assert explorer.order == PrecisionRecallExplorer.example().order
    assert explorer.announcement.startswith("ranking reset to its starting order; AP 0.55")
    explorer.reset()
    assert explorer.announcement.startswith("already in its starting order")


def test_the_explorer_refuses_what_is_not_a_permutation_and_describes_its_plot():
    explorer = PrecisionRecallExplorer(["a", "x"], {"a", "z"})
    with pytest.raises(traitlets.TraitError, match="permutation"):
        explorer.order = ["a", "y"]
    assert explorer.view["unretrieved"] == ["z"]
    assert "AP (the shaded area) 0.50" in explorer.view["description"]
    assert pr_view(["x", "a"], {"a": 1})["eleven"][0] == {"level": 0.0, "precision": 0.5}


def test_a_state_copy_leaves_the_explorer_as_it_is():
    explorer = PrecisionRecallExplorer(["x", "a", "b"], {"a", "b"})
    trial = explorer.state()
    trial.move("b", 1)
    assert explorer.order == ["x", "a", "b"]
    assert trial.order == ["b", "x", "a"]


def test_board_reset_puts_back_order_relevance_and_k_in_one_announcement():
    board = RankingBoard.from_example("cancellation", k=5)
    start = board.starting_state()
    board.move("19", 1)
    board.toggle("99")
    board.k = 8
    board.reset_request = {"click": 1}  # what the Reset button sends
    assert board.state() == start
    assert board.announcement == ("board reset to its starting state; Recall@5 0.67, "
                                  "Precision@5 0.40, Hit rate@5 1.00, RR@5 1.00, nDCG@5 0.70")
    assert board.metrics == start.metrics


def test_board_state_is_a_copy_that_moves_alone():
    board = RankingBoard(["a", "x", "b"], {"a", "b"}, k=2)
    trial = board.state()
    trial.move("b", 2)
    trial.toggle("x")
    assert board.order == ["a", "x", "b"]
    assert board.relevance.get("x", 0) == 0
    assert trial.metrics["precision"] == 1.0
    assert isinstance(trial.copy(), BoardState)
    assert trial.copy() == trial
    with pytest.raises(ValueError, match="'zz' is not on the board"):
        trial.toggle("zz")


def test_the_slider_end_is_python_s():
    board = RankingBoard(["a", "b", "c"], {"a"}, k=2)
    assert board.k_max == 13
    board.k = 30
    assert board.k_max == 30
