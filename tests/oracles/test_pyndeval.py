"""The diversity measures under preset ``pyndeval`` against pyndeval itself (and through
ir_measures, which calls it): equal to the last bit, its unnormalised @1 included.

pyndeval (PyPI 0.0.8) wraps ndeval.c one query at a time: it orders a run by score
descending, ties by doc id *ascending* (ndeval: by rank, or by docno descending), reads a
judgment below 1 (negative ones too) as not relevant, numbers subtopics by first
appearance, and returns ndeval's arrays, in which alpha-DCG@1 and ERR-IA@1 are not
normalised.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics.diversity import evaluate_diversity

pyndeval = pytest.importorskip("pyndeval")

_OURS = {"ERR-IA": "err_ia", "nERR-IA": "nerr_ia", "alpha-DCG": "alpha_dcg",
         "alpha-nDCG": "alpha_ndcg", "P-IA": "p_ia", "strec": "strec"}
MEASURES = [f"{m}@{k}" for m in _OURS for k in (1, 2, 3, 5, 10, 20)] + ["NRBP", "nNRBP",
                                                                          "MAP-IA"]


def theirs(qrels, run, alpha=0.5, beta=0.5) -> dict:
    return pyndeval.ndeval(qrels, run, measures=MEASURES, alpha=alpha, beta=beta)


def ours(qrels, run, alpha=0.5, beta=0.5) -> dict:
    frame = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    result = evaluate_diversity(frame, qrels, MEASURES, preset="pyndeval", alpha=alpha,
                                beta=beta)
    return result.per_query.to_dict("index")


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


README_QRELS = [("0", "a", "A", 1), ("0", "b", "B", 1), ("0", "b", "D", 1), ("0", "c", "C", 1)]
README_RUN = [("0", "A", 9.3), ("0", "D", 8.4), ("0", "E", 8.1), ("0", "B", 7.6)]


def test_pyndeval_readme_case():
    got = ours(README_QRELS, README_RUN)["0"]
    assert got == theirs(README_QRELS, README_RUN)["0"]
    # The README's values, which it truncates (the issue rounds them).
    assert (round(got["alpha-nDCG@5"], 4), round(got["nERR-IA@5"], 4),
            round(got["nNRBP"], 4)) == (0.7869, 0.8298, 0.8621)
    # @1: pyndeval's alpha-DCG@1 and ERR-IA@1 are S = 3 times ndeval's definition.
    assert got["alpha-DCG@1"] == got["ERR-IA@1"] == 1.0
    ndeval_rules = evaluate_diversity(pd.DataFrame(README_RUN, columns=["query_id", "doc_id",
                                                                        "score"]),
                                      README_QRELS, ["alpha_dcg@1", "err_ia@1"],
                                      preset="ndeval_traditional").per_query.iloc[0]
    assert ndeval_rules.tolist() == [1 / 3, 1 / 3]


def test_ir_measures_issue_61():
    qrels = [("0", "0", "d0", 1), ("0", "1", "d0", 1), ("0", "0", "d1", 1)]
    got = ours(qrels, [("0", "d0", 1.0)])["0"]["alpha-nDCG@10"]
    assert got == theirs(qrels, [("0", "d0", 1.0)])["0"]["alpha-nDCG@10"]
    assert abs(got - 0.8637574337885663) <= 2e-16  # the issue's value, one bit below


def test_ir_measures_iteration_convention():
    ir_measures = pytest.importorskip("ir_measures")
    qrels = pd.DataFrame({"query_id": ["1", "1", "1", "2"], "iteration": ["1", "2", "2", "1"],
                          "doc_id": ["a", "b", "c", "a"], "relevance": [1, 1, 2, 1]})
    run = pd.DataFrame({"query_id": ["1", "1", "1", "2", "2"],
                        "doc_id": ["b", "c", "a", "x", "a"],
                        "score": [3.0, 2.0, 1.0, 2.0, 2.0]})
    measures = [ir_measures.alpha_nDCG @ 5, ir_measures.NRBP, ir_measures.StRecall @ 2]
    expected = {(m.query_id, str(m.measure)): m.value
                for m in ir_measures.iter_calc(measures, qrels, run)}
    got = evaluate_diversity(run, qrels, ["alpha_ndcg@5", "nrbp", "strec@2"],
                             preset="pyndeval").per_query
    for (query, name), value in expected.items():
        column = {"alpha_nDCG@5": "alpha_ndcg@5", "NRBP": "nrbp", "StRecall@2": "strec@2"}[name]
        assert got.loc[query, column] == value, (query, name)


_DOCS = ["A", "B", "C", "D", "a", "b", "d1", "d10", "d2"]


@st.composite
def cases(draw):
    qrels = []
    for query in draw(st.lists(st.sampled_from(["q1", "q2", "q3", "7"]), min_size=1,
                               max_size=3, unique=True)):
        for doc in draw(st.lists(st.sampled_from(_DOCS), min_size=1, max_size=7, unique=True)):
            for subtopic in draw(st.lists(st.sampled_from(["s1", "s2", "x", "10", "9"]),
                                          min_size=1, max_size=3, unique=True)):
                qrels.append((query, subtopic, doc, draw(st.integers(-2, 3))))
    qrels = draw(st.permutations(qrels))
    run = []
    for query in draw(st.lists(st.sampled_from(["q1", "q2", "q3", "7", "8"]), min_size=1,
                               max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(_DOCS), min_size=1, max_size=9, unique=True))
        run += [(query, doc, draw(st.sampled_from([1.0, 2.0, 2.5, -1.0]))) for doc in docs]
    alpha = draw(st.sampled_from([0.0, 0.2, 0.5, 0.77, 1.0]))
    beta = draw(st.sampled_from([0.0, 0.3, 0.5, 0.95, 1.0]))
    return qrels, run, alpha, beta


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_drawn_cases_equal_pyndeval(case):
    qrels, run, alpha, beta = case
    expected = theirs(qrels, run, alpha, beta)
    got = ours(qrels, run, alpha, beta)
    assert set(got) == set(expected)
    for query, values in expected.items():
        for name, value in values.items():
            assert same(got[query][name], value), (query, name, got[query][name], value)
