"""Where judgments come from (ragmetrics.teaching.judgments) and the discount curves."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ragmetrics import audits, evaluate
from ragmetrics.metrics.registry import MetricSpec
from ragmetrics.teaching import (
    RBP_P,
    cohen_kappa,
    condensed_run,
    discount_curves,
    judged_at_k_per_query,
    pool,
    rank_biased_precision,
    restrict_judgments,
    simulated_assessor,
    top_k,
)

RUN_A = pd.DataFrame({"query_id": ["q"] * 3 + ["r"] * 2, "doc_id": ["x", "y", "z", "u", "v"],
                      "rank": [1, 2, 3, 1, 2]})
RUN_B = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["y", "w", "x"], "score": [3.0, 2.0, 1.0]})
QRELS = pd.DataFrame({"query_id": ["q", "q", "r"], "doc_id": ["x", "w", "v"], "relevance": [2, 1, 1]})


def test_top_k_by_rank_or_by_score():
    assert top_k(RUN_A, 1)["doc_id"].tolist() == ["x", "u"]
    assert top_k(RUN_B, 2)["doc_id"].tolist() == ["y", "w"]


def test_pool_is_the_union_of_each_runs_top_d():
    pooled = pool({"a": RUN_A, "b": RUN_B}, 2)
    assert list(zip(pooled["query_id"], pooled["doc_id"], pooled["pooled_by"], strict=True)) == [
        ("q", "w", "b"), ("q", "x", "a"), ("q", "y", "a+b"), ("r", "u", "a"), ("r", "v", "a")]
    with pytest.raises(ValueError, match="at least one run"):
        pool({}, 2)


def test_restricted_judgments_judge_every_pooled_doc_and_nothing_else():
    judged = restrict_judgments(QRELS, pool({"a": RUN_A}, 1))
    assert judged.to_dict("list") == {"query_id": ["q", "r"], "doc_id": ["x", "u"],
                                      "relevance": [2, 0]}


def test_judged_at_k_and_the_condensed_list():
    judged = restrict_judgments(QRELS, pool({"a": RUN_A}, 1))
    assert judged_at_k_per_query(RUN_A, judged, 2).to_dict() == {"q": 0.5, "r": 0.5}
    condensed = condensed_run(RUN_A, judged)
    assert condensed[["query_id", "doc_id", "rank"]].values.tolist() == [["q", "x", 1], ["r", "u", 1]]
    # Past the ranking's end an empty slot is not judged (r has 2 docs); a query nobody
    # judged scores 0; each value is the metric table's judged@k of that query.
    judged = restrict_judgments(QRELS, pool({"a": RUN_A[RUN_A["query_id"] == "q"]}, 3))
    share = judged_at_k_per_query(RUN_A, judged, 4)
    assert share.to_dict() == {"q": 0.75, "r": 0.0}
    assert share.index.name == "query_id"
    ranking = ["x", "y", "z"]
    assert share["q"] == evaluate({"q": ranking}, {"q": dict.fromkeys(ranking, 1)},
                                  ["judged@4"]).per_query.at["q", "judged@4"]


def test_the_old_judged_at_k_name_warns_and_gives_the_new_function():
    import ragmetrics.teaching
    import ragmetrics.teaching.judgments

    for module in (ragmetrics.teaching, ragmetrics.teaching.judgments):
        with pytest.warns(DeprecationWarning, match=rf"{module.__name__}.judged_at_k is now "
                          r"ragmetrics.teaching.judgments.judged_at_k_per_query"):
            assert module.judged_at_k is judged_at_k_per_query


def test_kappa_by_hand_and_at_its_limits():
    assert cohen_kappa("aabb", "aabb") == 1.0
    # One label throughout: P(A) = P(E) = 1, kappa 0 / 0 (it was 1.0 here, NaN in audits).
    assert math.isnan(cohen_kappa("aaaa", "aaaa"))
    # P(A) = 1/2, P(E) = 1/2: no better than chance
    assert cohen_kappa("abab", "aabb") == 0.0
    # Manning et al., IIR table 8.2
    first = ["y"] * 320 + ["n"] * 80
    second = ["y"] * 300 + ["n"] * 20 + ["y"] * 10 + ["n"] * 70
    assert round(cohen_kappa(first, second), 3) == 0.776
    with pytest.raises(ValueError, match="a has 2 labels, b has 1"):
        cohen_kappa("ab", "a")


# (a, b, kappa): NaN where kappa is 0 / 0.
KAPPA_EDGES = [
    ("aaaa", "aaaa", math.nan),  # one label throughout
    ([True] * 3, [True] * 3, math.nan),
    ([], [], math.nan),  # no items
    ("abcab", "abcab", 1.0),  # perfect agreement
    ([1, 0, 1, 0], [1, 0, 1, 0], 1.0),
    ("aaaa", "bbbb", 0.0),  # one label each, never the same: p_o = p_e = 0
    ("abab", "aabb", 0.0),  # two labels at chance level
    ("abab", "baba", -1.0),  # always disagree, each half and half
    ([1, 1, 0, 0, 1, 0], [1, 0, 0, 0, 1, 0], 2 / 3),  # p_o 5/6, p_e 1/2
]


@pytest.mark.parametrize(("a", "b", "kappa"), KAPPA_EDGES)
def test_teaching_kappa_is_the_audits_kappa(a, b, kappa):
    # One definition: the one the notebooks teach is the one `ragmetrics audit` prints.
    assert cohen_kappa is audits.cohen_kappa
    for value in (cohen_kappa(a, b), audits.cohen_kappa(a, b)):
        assert value == pytest.approx(kappa, abs=1e-15, nan_ok=True)
    # Labels 0 and 1 as grades: the same value through the audit (True is 1).
    if len(a) and set(a) | set(b) <= {0, 1}:
        grades_a = {"q": {f"d{i}": int(x) for i, x in enumerate(a)}}
        grades_b = {"q": {f"d{i}": int(y) for i, y in enumerate(b)}}
        agreement = audits.judgment_agreement(grades_a, grades_b)
        assert agreement.kappa == pytest.approx(kappa, abs=1e-15, nan_ok=True)


def test_kappa_equals_scikit_learns_where_defined():
    metrics = pytest.importorskip("sklearn.metrics")
    for a, b, kappa in KAPPA_EDGES:
        if not math.isnan(kappa):
            assert metrics.cohen_kappa_score(list(a), list(b)) == pytest.approx(kappa, abs=1e-15)


def test_the_simulated_assessor_is_seeded_and_flips_as_asked():
    judged = pd.DataFrame({"query_id": "q", "doc_id": [f"d{i}" for i in range(2000)],
                           "relevance": [0, 1] * 1000})
    a = simulated_assessor(judged, flip={0: 0.2, 1: 0.0}, seed=3)
    assert a.equals(simulated_assessor(judged, flip={0: 0.2, 1: 0.0}, seed=3))
    flipped = (a["relevance"] != judged["relevance"])
    assert not flipped[judged["relevance"] == 1].any()
    assert 0.15 < flipped[judged["relevance"] == 0].mean() < 0.25
    with pytest.raises(ValueError, match="between 0 and 1"):
        simulated_assessor(judged, flip={0: 1.5})


def test_rbp_and_the_discount_curves():
    assert math.isclose(rank_biased_precision(["a", "x", "b"], {"a", "b"}, p=0.5), 0.5 * 1.25)
    with pytest.raises(ValueError, match="persistence"):
        rank_biased_precision(["a"], {"a"}, p=1.0)
    # A grade counts 1 at the relevance level and 0 below it (rbp would weigh it 2/2, 1/2).
    graded = {"a": 2, "b": 1}
    assert rank_biased_precision(["b", "a"], graded, p=0.5, relevance_level=2) == 0.25
    assert rank_biased_precision(["b", "a"], graded, p=0.5) == 0.75
    # By default the curve's p is the rbp metric's, and its column is evaluate's number.
    assert RBP_P == 0.9 == MetricSpec("rbp").arguments["p"]
    default = discount_curves(6, k=5)
    for rank in range(1, 7):
        ranking = [f"m{i}" for i in range(1, rank)] + ["hit"]
        value = evaluate({"q": ranking}, {"q": {"hit": 1}}, ["rbp"]).summary["rbp"]
        assert default.loc[rank, "RBP(p=0.9)"] == pytest.approx(value, abs=1e-15)
        assert default.loc[rank, "RBP(p=0.9)"] == pytest.approx(0.1 * 0.9 ** (rank - 1),
                                                                 abs=1e-15)
    curves = discount_curves(12, k=10, p=0.8)
    assert math.isclose(curves.loc[3, "nDCG@10"], 0.5)
    assert math.isclose(curves.loc[4, "RR"], 0.25)
    assert curves.loc[10, "Precision@10"] == 0.1
    assert curves.loc[11, "Precision@10"] == 0
    assert curves.loc[11, "Hit rate@10"] == 0
    assert curves.loc[10, "Hit rate@10"] == 1
    assert math.isclose(curves.loc[2, "RBP(p=0.8)"], 0.2 * 0.8)
