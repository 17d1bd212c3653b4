"""The traps of notebook 07: one metric looks fine, another reveals the problem."""

from __future__ import annotations

import math

import pytest

from ragmetrics import (
    hit_rate_at_k,
    ndcg_at_k,
    parse_metric,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from ragmetrics.teaching import Trap, load_example, trap_scenarios

TRAPS = trap_scenarios()
NAMES = list(TRAPS)


def test_the_article_traps_are_all_there():
    assert NAMES[:3] == [
        "high_ndcg_low_recall",
        "high_recall_low_precision",
        "high_precision_low_recall",
    ]
    assert len(NAMES) >= 3


@pytest.mark.parametrize("name", NAMES)
def test_looks_fine_and_reveals(name):
    trap = TRAPS[name]
    scores = trap.scores([trap.looks_fine, trap.reveals])
    assert scores[trap.looks_fine] >= 0.8
    assert scores[trap.reveals] <= 0.3


@pytest.mark.parametrize("name", NAMES)
def test_trap_is_well_formed(name):
    trap = TRAPS[name]
    assert isinstance(trap, Trap)
    assert trap.name == name
    assert trap.story
    assert trap.title
    assert trap.lesson
    assert len(set(trap.retrieved)) == len(trap.retrieved)  # no duplicate ids
    assert len(set(trap.relevant)) == len(trap.relevant)
    assert len(trap.retrieved) >= trap.k  # every slot of the top k is filled
    # Both headline metrics are read at the trap's k, and are shown side by side.
    for metric in (trap.looks_fine, trap.reveals):
        assert parse_metric(metric).k == trap.k
        assert metric in trap.metric_names
    assert trap.looks_fine != trap.reveals


@pytest.mark.parametrize("name", NAMES)
def test_evaluate_agrees_with_the_per_query_functions(name):
    trap = TRAPS[name]
    ret, rel, k = list(trap.retrieved), set(trap.relevant), trap.k
    expected = {
        f"recall@{k}": recall_at_k(ret, rel, k),
        f"precision@{k}": precision_at_k(ret, rel, k),
        f"hit_rate@{k}": hit_rate_at_k(ret, rel, k),
        f"rr@{k}": reciprocal_rank(ret, rel, k),
        f"ndcg@{k}": ndcg_at_k(ret, rel, k),
    }
    got = trap.scores()
    assert list(got) == list(expected)
    for metric, value in expected.items():
        assert math.isclose(got[metric], value, rel_tol=1e-12, abs_tol=1e-12), metric
        assert type(got[metric]) is float


def _ideal_dcg(n_relevant: int, k: int) -> float:
    return sum(1 / math.log2(rank + 1) for rank in range(1, min(n_relevant, k) + 1))


def test_high_ndcg_low_recall_by_hand():
    trap = TRAPS["high_ndcg_low_recall"]
    assert len(trap.relevant) == 40
    # Relevant at ranks 1-5 and 7-10; rank 6 is noise.
    hit_ranks = [r for r, doc in enumerate(trap.retrieved, 1) if doc in trap.relevant]
    assert hit_ranks == [1, 2, 3, 4, 5, 7, 8, 9, 10]
    dcg = sum(1 / math.log2(r + 1) for r in hit_ranks)
    by_hand = dcg / _ideal_dcg(40, 10)
    scores = trap.scores()
    assert math.isclose(scores["ndcg@10"], by_hand)
    assert round(by_hand, 2) == 0.92  # the article's "0.92 nDCG"
    assert scores["recall@10"] == 9 / 40


def test_high_recall_low_precision_by_hand():
    trap = TRAPS["high_recall_low_precision"]
    scores = trap.scores()
    assert scores["recall@50"] == 3 / 3
    assert math.isclose(scores["precision@50"], 3 / 50)
    assert scores["rr@50"] == 1 / 2  # first hit at rank 2


def test_high_precision_low_recall_is_the_article_example():
    trap = TRAPS["high_precision_low_recall"]
    article = load_example("precision_trap")
    assert list(trap.retrieved) == article.retrieved
    assert list(trap.relevant) == list(article.relevant)
    scores = trap.scores()
    assert scores["precision@1"] == 1 / 1
    assert scores["recall@1"] == 1 / 50  # the article's 0.02


def test_high_mrr_low_recall_by_hand():
    trap = TRAPS["high_mrr_low_recall"]
    scores = trap.scores()
    assert scores["rr@10"] == 1 / 1
    assert scores["recall@10"] == 1 / 8
    assert math.isclose(scores["ndcg@10"], 1 / _ideal_dcg(8, 10))


def test_each_call_returns_fresh_objects():
    first, second = trap_scenarios(), trap_scenarios()
    assert first == second
    first.pop("high_ndcg_low_recall")
    assert "high_ndcg_low_recall" in trap_scenarios()
    with pytest.raises(AttributeError):
        second["high_mrr_low_recall"].k = 1  # frozen


@pytest.mark.parametrize("name", NAMES)
def test_table_marks_the_two_metrics(name):
    trap = TRAPS[name]
    table = trap.table()
    assert table.index.tolist() == trap.metric_names
    assert table["value"].to_dict() == trap.scores()
    assert table.loc[trap.looks_fine, "role"] == "looks fine"
    assert table.loc[trap.reveals, "role"] == "REVEALS"
    assert (table["role"] != "").sum() == 2
