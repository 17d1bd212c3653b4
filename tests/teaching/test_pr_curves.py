"""Precision-recall curves (ragmetrics.teaching.pr_curves): by hand, and against trec_eval.

The teaching curve defines nothing: its numbers are the metric table's (``evaluate``'s
``iprec_at_recall@x``, ``11pt_avg``, ``map``, ``r_precision``), checked here on every
query. pytrec_eval runs trec_eval 9's own C code for ``iprec_at_recall``, ``11pt_avg``,
``map`` and ``Rprec``; the teaching functions give the same numbers on every query,
including recall levels that fall exactly on a step (R = 10: recall 0.3 at the third
hit) and relevant chunks that were never retrieved, except for interpolated precision
where trec_eval 9's rule, floor(x R + 0.9), names another relevant chunk than trec_eval
10's round(x R), which ragmetrics follows (see test_pytrec_eval_oracle.py).
"""

from __future__ import annotations

import math
import random
import warnings

import pytest

from ragmetrics import average_precision, evaluate, r_precision
from ragmetrics.teaching.pr_curves import (
    ELEVEN_POINTS,
    eleven_point_average,
    interpolated_precision,
    precision_recall_curve,
)

pytrec_eval = pytest.importorskip("pytrec_eval")


def test_the_textbook_points_by_hand():
    # Relevant at ranks 1, 3, 5; a fourth relevant chunk never retrieved (R = 4).
    curve = precision_recall_curve(["a", "x", "b", "y", "c"], {"a", "b", "c", "z"})
    assert curve.precision == pytest.approx([1, 1 / 2, 2 / 3, 2 / 4, 3 / 5])
    assert curve.recall == pytest.approx([1 / 4, 1 / 4, 2 / 4, 2 / 4, 3 / 4])
    # Interpolated: the best precision at recall >= the level; 0 past the last recall.
    textbook = {"rule": "textbook"}
    assert curve.interpolated(0.0, **textbook) == 1.0
    assert curve.interpolated(0.25, **textbook) == 1.0
    assert curve.interpolated(0.26, **textbook) == pytest.approx(2 / 3)
    assert curve.interpolated(0.75, **textbook) == pytest.approx(3 / 5)
    assert curve.interpolated(0.76, **textbook) == 0.0
    # trec_eval: level r is reached at the round(r * R)-th relevant chunk (R = 4).
    assert curve.interpolated(0.3) == 1.0                    # round(1.2) = 1st hit
    assert curve.interpolated(0.4) == pytest.approx(2 / 3)   # round(1.6) = 2nd hit
    assert curve.interpolated(0.8) == pytest.approx(3 / 5)   # round(3.2) = 3rd hit
    assert curve.interpolated(0.9) == 0.0                    # round(3.6) = 4th: never found
    eleven = [1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 3 / 5, 3 / 5, 0, 0, 0]
    assert list(curve.eleven_points(rule="textbook").values()) == pytest.approx(eleven)
    assert curve.eleven_point_average(rule="textbook") == pytest.approx(sum(eleven) / 11)
    # AP is the area under the step curve: each hit adds precision x (1/R).
    assert curve.area() == pytest.approx((1 + 2 / 3 + 3 / 5) / 4)
    assert curve.r_precision() == 2 / 4


def test_trec_eval_reaches_a_level_a_little_before_the_textbook():
    # R = 3, hits at ranks 4 and 13: recall 0.667 at the second hit. Level 0.7 needs
    # round(0.7 * 3) = 2 hits: trec_eval gives the second hit's precision, 2/13; the
    # textbook (recall >= 0.7) gives 0.
    ranking = [f"d{i}" for i in range(15)]
    curve = precision_recall_curve(ranking, {"d3", "d12", "never"})
    assert curve.interpolated(0.7) == pytest.approx(2 / 13)
    assert curve.interpolated(0.7, rule="textbook") == 0.0
    with pytest.raises(ValueError, match="rule must be one of"):
        curve.interpolated(0.5, rule="nearest")


def test_bad_levels_and_inputs_are_refused():
    curve = precision_recall_curve(["a"], {"a"})
    with pytest.raises(ValueError, match=r"between 0 and 1; got 1\.5"):
        curve.interpolated(1.5)
    with pytest.raises(ValueError, match="more than once"):
        precision_recall_curve(["a", "a"], {"a"})


def test_no_relevant_chunk_gives_zeros():
    curve = precision_recall_curve(["a", "b"], set())
    assert curve.area() == curve.r_precision() == curve.eleven_point_average() == 0.0


def _random_queries(n=300, seed=7):
    rng = random.Random(seed)
    queries = []
    for q in range(n):
        depth = rng.randint(1, 25)
        ranking = [f"d{i}" for i in range(depth)]
        n_rel = rng.choice([1, 2, 3, 4, 5, 10, 20])
        rel_retrieved = rng.sample(ranking, min(len(ranking), rng.randint(0, n_rel)))
        relevant = set(rel_retrieved) | {f"never{j}" for j in range(n_rel - len(rel_retrieved))}
        queries.append((f"q{q}", ranking, relevant))
    return queries


def _trec_eval_9_agrees(num_rel: int) -> bool:
    """trec_eval 10's round(x R) and trec_eval 9's floor(x R + 0.9) at every level."""
    return all(max(int(x * num_rel + 0.9), 1) == max(math.floor(x * num_rel + 0.5), 1)
               for x in ELEVEN_POINTS)  # a count of 0 reads from the first hit, as 1 does


def test_equals_the_metric_tables_values_on_every_query():
    queries = _random_queries()
    qrels = {qid: dict.fromkeys(relevant, 1) for qid, _, relevant in queries}
    run = {qid: ranking for qid, ranking, _ in queries}
    names = [f"iprec_at_recall@{level}" for level in ELEVEN_POINTS] + [
        "11pt_avg", "map", "r_precision"]
    with warnings.catch_warnings():  # some queries retrieve no relevant chunk: said
        warnings.simplefilter("ignore")
        table = evaluate(run, qrels, names).per_query
    for qid, ranking, relevant in queries:
        curve = precision_recall_curve(ranking, relevant)
        ip = interpolated_precision(ranking, relevant)
        assert [ip[level] for level in ELEVEN_POINTS] == table.loc[qid, names[:11]].tolist()
        # The per-query functions and the kernels sum in their own order: to 1e-15.
        assert eleven_point_average(ranking, relevant) == pytest.approx(
            table.at[qid, "11pt_avg"], abs=1e-15)
        assert curve.area() == pytest.approx(table.at[qid, "map"], abs=1e-15)
        assert curve.r_precision() == pytest.approx(table.at[qid, "r_precision"], abs=1e-15)


def test_matches_trec_eval_iprec_at_recall_11pt_avg_map_and_rprec():
    queries = _random_queries()
    qrels = {qid: dict.fromkeys(relevant, 1) for qid, _, relevant in queries}
    # Scores that give trec_eval our order (no ties).
    run = {qid: {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}
           for qid, ranking, _ in queries}
    measures = {"iprec_at_recall", "11pt_avg", "map", "Rprec"}
    oracle = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    compared = 0
    for qid, ranking, relevant in queries:
        expected = oracle[qid]
        if _trec_eval_9_agrees(len(relevant)):
            compared += 1
            ip = interpolated_precision(ranking, relevant)
            for level in ELEVEN_POINTS:
                assert math.isclose(ip[level], expected[f"iprec_at_recall_{level:.2f}"],
                                    abs_tol=1e-12), (qid, level)
            assert math.isclose(eleven_point_average(ranking, relevant),
                                expected["11pt_avg"], abs_tol=1e-12), qid
        curve = precision_recall_curve(ranking, relevant)
        assert math.isclose(curve.area(), expected["map"], abs_tol=1e-12), qid
        assert math.isclose(curve.area(), average_precision(ranking, relevant), abs_tol=1e-15)
        assert math.isclose(curve.r_precision(), expected["Rprec"], abs_tol=1e-12), qid
        assert math.isclose(curve.r_precision(), r_precision(ranking, relevant), abs_tol=1e-15)
    assert compared > 100  # R = 1, 5, 10 and 20 agree at every level; 2, 3 and 4 do not
