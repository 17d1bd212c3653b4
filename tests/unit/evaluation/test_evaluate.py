"""The many-query :func:`ragmetrics.evaluate`: agreement, input shapes, result contract, errors.

The vectorized engine is checked against an independent oracle: the per-query functions of
:mod:`ragmetrics.metrics`, fed one ranking per query that this file builds itself, with each
tie rule written out explicitly below. Everything else is checked against numbers computed by
hand in the test.
"""

from __future__ import annotations

import itertools
import math
import re
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics import (
    CoverageWarning,
    EmptyRelevantWarning,
    RagmetricsWarning,
    RankOrderWarning,
    evaluate,
    parse_metric,
    recall_at_k,
)

# Every metric name, with cut-offs below, at and beyond the length of the random rankings.
ALL_METRICS = [
    "recall@1", "recall@3", "recall@12",
    "precision@1", "precision@3", "precision@12",
    "hit_rate@1", "hit_rate@3",
    "mrr", "mrr@2",
    "ndcg@1", "ndcg@3", "ndcg@12", "ndcg",
    "map", "map@3",
    "r_precision",
]  # fmt: skip

TIES = ("trec_eval", "input_order", "optimistic", "pessimistic")
EMPTY = ("zero", "article", "skip")
MISSING = ("zero", "skip")

# Ids chosen so that string order differs from numeric order ("d10" < "d2", "q10" < "q2"):
# the trec_eval tie-break compares doc ids as strings.
QUERY_POOL = ["q1", "q2", "q3", "q10", "q20"]
DOC_POOL = [f"d{i}" for i in range(12)]
SCORES = [0.0, 0.5, 1.0, 2.0]  # few distinct scores, so many ties
GRADES = [-1, 0, 0, 1, 1, 2, 3]  # -1: "judged harmful"; 0 twice: many judged-irrelevant docs


# ---------------------------------------------------------------------------------------------
# The oracle: per-query functions on rankings built here, one tie rule at a time.
# ---------------------------------------------------------------------------------------------


def ranked_docs(rows, grades, ties):
    """One query's doc ids in rank order, from its run rows ``[(doc, score), ...]`` (input order).

    Score descending decides first; among equal scores the tie rule decides:
    trec_eval puts the larger doc id (as a string) first, input_order keeps the given order,
    optimistic puts the higher grade first, pessimistic the lower grade first.
    """
    if ties == "trec_eval":
        ordered = sorted(rows, key=lambda row: str(row[0]), reverse=True)
    elif ties == "input_order":
        ordered = list(rows)
    elif ties == "optimistic":
        ordered = sorted(rows, key=lambda row: -grades.get(row[0], 0))
    elif ties == "pessimistic":
        ordered = sorted(rows, key=lambda row: grades.get(row[0], 0))
    else:
        raise AssertionError(ties)
    ordered.sort(key=lambda row: -row[1])  # stable: the tie order survives among equal scores
    return [doc for doc, _ in ordered]


def per_query_value(name, ranking, grades, *, gain, relevance_level, empty_relevant, duplicates):
    """The value of one metric name for one query, from the reference function of its row
    of the metric table (``"mrr"`` is the row ``rr``, ``"map"`` the row ``ap``)."""
    spec = parse_metric(name)
    options = {
        "relevance_level": relevance_level,
        "empty_relevant": empty_relevant,
        "duplicates": duplicates,
    }
    if spec.info.uses_gains:
        options["gain"] = gain
    return spec.info.score_one(ranking, grades, spec.k, **options)


def oracle(run_rows, qrels, names, *, ties, missing_from_run, **options):
    """Expected ``per_query`` as a DataFrame indexed by query id (in qrels order).

    A judged query absent from the run (or with no run rows: the same thing in a run frame) is
    an empty ranking under ``missing_from_run="zero"`` and has no row under ``"skip"``;
    queries of the run without judgments have no row.
    """
    rows = {}
    for query, grades in qrels.items():
        if run_rows.get(query):
            ranking = ranked_docs(run_rows[query], grades, ties)
        elif missing_from_run == "skip":
            continue
        else:
            ranking = []
        rows[query] = [per_query_value(name, ranking, grades, **options) for name in names]
    return pd.DataFrame.from_dict(rows, orient="index", columns=names, dtype=float)


def run_frame(run_rows):
    records = [(q, doc, score) for q, rows in run_rows.items() for doc, score in rows]
    return pd.DataFrame(records, columns=["query_id", "doc_id", "score"])


def qrels_frame(qrels):
    records = [(q, doc, grade) for q, grades in qrels.items() for doc, grade in grades.items()]
    return pd.DataFrame(records, columns=["query_id", "doc_id", "relevance"])


def evaluate_quietly(*args, **kwargs):
    """evaluate() with its CoverageWarning silenced (coverage is tested on its own below)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)  # coverage, empty golden sets
        return evaluate(*args, **kwargs)


def assert_agrees_with_oracle(run_rows, qrels, **conventions):
    result = evaluate_quietly(run_frame(run_rows), qrels_frame(qrels), ALL_METRICS, **conventions)
    expected = oracle(run_rows, qrels, ALL_METRICS, **conventions)
    got = result.per_query
    assert list(got.columns) == ALL_METRICS
    assert sorted(got.index) == sorted(expected.index)
    got = got.loc[expected.index]
    np.testing.assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    # NaN (skip policies) sits exactly where the per-query functions put it.
    np.testing.assert_array_equal(got.isna().to_numpy(), expected.isna().to_numpy())
    np.testing.assert_allclose(
        result.summary.to_numpy(), expected.mean(skipna=True).to_numpy(), rtol=0, atol=1e-12
    )


# ---------------------------------------------------------------------------------------------
# Random data
# ---------------------------------------------------------------------------------------------


@st.composite
def runs_and_qrels(draw, *, with_duplicates):
    """Graded qrels (with -1 and 0 grades) and a run with many tied scores.

    Queries are drawn separately on each side, so some are judged but not run and some are
    run but not judged; a query whose grades are all <= 0 has an empty golden set.
    """
    judged = draw(st.lists(st.sampled_from(QUERY_POOL), min_size=1, max_size=5, unique=True))
    qrels = {
        q: draw(
            st.dictionaries(st.sampled_from(DOC_POOL), st.sampled_from(GRADES), min_size=1,
                            max_size=7)
        )
        for q in judged
    }
    ran = draw(st.lists(st.sampled_from(QUERY_POOL), max_size=5, unique=True))
    run_rows = {
        q: draw(
            st.lists(
                st.tuples(st.sampled_from(DOC_POOL), st.sampled_from(SCORES)),
                max_size=10,
                unique_by=None if with_duplicates else (lambda row: row[0]),
            )
        )
        for q in ran
    }
    return run_rows, {q: dict(g) for q, g in qrels.items()}


def seeded_case(seed, *, with_duplicates):
    """The same kind of data as runs_and_qrels, from a seeded generator (for the policy grid)."""
    rng = np.random.default_rng(seed)
    qrels = {}
    for q in rng.choice(QUERY_POOL, size=rng.integers(1, 6), replace=False):
        docs = rng.choice(DOC_POOL, size=rng.integers(1, 8), replace=False)
        qrels[str(q)] = {str(d): int(rng.choice(GRADES)) for d in docs}
    run_rows = {}
    for q in rng.choice(QUERY_POOL, size=rng.integers(0, 6), replace=False):
        n = int(rng.integers(0, 11))
        docs = rng.choice(DOC_POOL, size=n, replace=with_duplicates)
        run_rows[str(q)] = [(str(d), float(rng.choice(SCORES))) for d in docs]
    return run_rows, qrels


# ---------------------------------------------------------------------------------------------
# 1. The vectorized path equals the per-query functions
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.booleans().flatmap(
        lambda dup: st.tuples(st.just(dup), runs_and_qrels(with_duplicates=dup))
    ),
    ties=st.sampled_from(TIES),
    empty_relevant=st.sampled_from(EMPTY),
    missing_from_run=st.sampled_from(MISSING),
    relevance_level=st.sampled_from([1, 2]),
    gain=st.sampled_from(["linear", "exponential"]),
)
def test_evaluate_equals_per_query_functions_on_random_runs(
    data, ties, empty_relevant, missing_from_run, relevance_level, gain
):
    with_duplicates, (run_rows, qrels) = data
    assert_agrees_with_oracle(
        run_rows,
        qrels,
        ties=ties,
        empty_relevant=empty_relevant,
        missing_from_run=missing_from_run,
        duplicates="keep_first" if with_duplicates else "error",
        relevance_level=relevance_level,
        gain=gain,
    )


@pytest.mark.parametrize("duplicates", ["error", "keep_first"])
@pytest.mark.parametrize("missing_from_run", MISSING)
@pytest.mark.parametrize("empty_relevant", EMPTY)
@pytest.mark.parametrize("ties", TIES)
def test_evaluate_equals_per_query_functions_under_every_policy_combination(
    ties, empty_relevant, missing_from_run, duplicates
):
    """Every combination at least once, whatever Hypothesis happens to draw."""
    level_and_gain = itertools.product([1, 2], ["linear", "exponential"])
    for seed, (level, gain) in enumerate(level_and_gain):
        run_rows, qrels = seeded_case(seed, with_duplicates=duplicates == "keep_first")
        assert_agrees_with_oracle(
            run_rows,
            qrels,
            ties=ties,
            empty_relevant=empty_relevant,
            missing_from_run=missing_from_run,
            duplicates=duplicates,
            relevance_level=level,
            gain=gain,
        )


def test_seeded_cases_exercise_what_they_claim():
    """Guard for the grid above: its data has ties, duplicates, -1 grades and coverage gaps."""
    cases = [seeded_case(s, with_duplicates=True) for s in range(4)]
    rows = [row for run_rows, _ in cases for r in run_rows.values() for row in r]
    scores_per_query = [[s for _, s in r] for run_rows, _ in cases for r in run_rows.values()]
    assert any(len(s) != len(set(s)) for s in scores_per_query)  # tied scores
    docs_per_query = [[d for d, _ in r] for run_rows, _ in cases for r in run_rows.values()]
    assert any(len(d) != len(set(d)) for d in docs_per_query)  # duplicated rows
    assert any(g == -1 for _, qrels in cases for gs in qrels.values() for g in gs.values())
    assert any(set(qrels) - set(run_rows) for run_rows, qrels in cases)  # judged, not run
    assert rows  # the runs are not empty


def test_duplicated_rows_keep_the_highest_scored_copy():
    """keep_first keeps the copy that ranks highest, not the first row given."""
    run = pd.DataFrame(
        {"query_id": ["q1"] * 3, "doc_id": ["a", "x", "a"], "score": [0.1, 0.5, 0.9]}
    )
    result = evaluate(run, {"q1": {"a"}}, ["mrr", "precision@3"], duplicates="keep_first")
    # Ranked: a (0.9), x (0.5); the copy of "a" at 0.1 is dropped, never counted twice.
    assert result.per_query.loc["q1", "mrr"] == 1.0
    assert result.per_query.loc["q1", "precision@3"] == 1 / 3


# ---------------------------------------------------------------------------------------------
# 2. Input shapes and id dtypes give the same answers
# ---------------------------------------------------------------------------------------------

# q1 ranks a, x, b; q2 ranks y, c; q3 ranks z. Relevant: q1 {a, b}, q2 {c}, q3 {w}.
SHAPE_RUN = {"q1": [("a", 0.9), ("x", 0.8), ("b", 0.7)], "q2": [("y", 0.6), ("c", 0.5)],
             "q3": [("z", 0.4)]}  # fmt: skip
SHAPE_RELEVANT = {"q1": {"a", "b"}, "q2": {"c"}, "q3": {"w"}}
SHAPE_METRICS = ["recall@2", "precision@2", "mrr", "ndcg@3"]
_LOG2_3 = math.log2(3)
SHAPE_EXPECTED = [
    # q1: a at rank 1, b at rank 3 of 2 relevant; DCG = 1 + 1/log2(4), ideal = 1 + 1/log2(3).
    [1 / 2, 1 / 2, 1.0, (1 + 1 / 2) / (1 + 1 / _LOG2_3)],
    # q2: c at rank 2 of 1 relevant; DCG = 1/log2(3), ideal = 1.
    [1.0, 1 / 2, 1 / 2, 1 / _LOG2_3],
    # q3: nothing found.
    [0.0, 0.0, 0.0, 0.0],
]

# The same data with integer ids: q3 becomes 10, so string order ("10" < "2") and numeric
# order differ.
INT_QUERY = {"q1": 1, "q2": 2, "q3": 10}
INT_DOC = {name: i for i, name in enumerate("abcwxyz", start=1)}


def shape_run_rows(query_ids=None, doc_ids=None):
    query_ids = query_ids or {q: q for q in SHAPE_RUN}
    doc_ids = doc_ids or {d: d for d in INT_DOC}
    return {
        query_ids[q]: [(doc_ids[d], s) for d, s in rows] for q, rows in SHAPE_RUN.items()
    }


def shape_relevant(query_ids=None, doc_ids=None):
    query_ids = query_ids or {q: q for q in SHAPE_RUN}
    doc_ids = doc_ids or {d: d for d in INT_DOC}
    return {query_ids[q]: {doc_ids[d] for d in docs} for q, docs in SHAPE_RELEVANT.items()}


def run_shapes(run_rows):
    frame = run_frame(run_rows)
    rank_only = frame.drop(columns="score").assign(
        rank=frame.groupby("query_id", sort=False).cumcount() + 1
    )
    return {
        "frame with score": frame,
        "frame with rank only": rank_only,
        "dict of ranked lists": {q: [d for d, _ in rows] for q, rows in run_rows.items()},
        "dict of doc -> score": {q: dict(rows) for q, rows in run_rows.items()},
    }


def qrels_shapes(relevant):
    binary = {q: dict.fromkeys(docs, 1) for q, docs in relevant.items()}
    return {
        "frame": qrels_frame(binary),
        "dict of dicts": binary,
        "dict of sets": relevant,
    }


@pytest.mark.parametrize("qrels_shape", ["frame", "dict of dicts", "dict of sets"])
@pytest.mark.parametrize(
    "run_shape",
    ["frame with score", "frame with rank only", "dict of ranked lists", "dict of doc -> score"],
)
def test_every_input_shape_gives_the_hand_computed_values(run_shape, qrels_shape):
    run = run_shapes(shape_run_rows())[run_shape]
    qrels = qrels_shapes(shape_relevant())[qrels_shape]
    result = evaluate(run, qrels, SHAPE_METRICS)
    assert list(result.per_query.index) == ["q1", "q2", "q3"]
    np.testing.assert_allclose(result.per_query.to_numpy(), SHAPE_EXPECTED, rtol=0, atol=1e-12)


@pytest.mark.parametrize("qrels_shape", ["frame", "dict of dicts", "dict of sets"])
@pytest.mark.parametrize(
    "run_shape",
    ["frame with score", "frame with rank only", "dict of ranked lists", "dict of doc -> score"],
)
def test_integer_ids_give_the_same_values_and_an_integer_index(run_shape, qrels_shape):
    run = run_shapes(shape_run_rows(INT_QUERY, INT_DOC))[run_shape]
    qrels = qrels_shapes(shape_relevant(INT_QUERY, INT_DOC))[qrels_shape]
    result = evaluate(run, qrels, SHAPE_METRICS)
    index = result.per_query.index
    assert index.dtype == np.int64
    assert list(index) == [1, 2, 10]  # numeric order, not "1", "10", "2"
    np.testing.assert_allclose(result.per_query.to_numpy(), SHAPE_EXPECTED, rtol=0, atol=1e-12)


def test_graded_qrels_as_frame_and_as_dict_of_dicts_agree_with_hand_values():
    # a: grade 2 at rank 1, x: grade -1 at rank 2, b: grade 1 at rank 3; c (grade 2) unretrieved.
    grades = {"q1": {"a": 2, "x": -1, "b": 1, "c": 2}}
    run = {"q1": ["a", "x", "b"]}
    dcg = 2 / 1 + 0 + 1 / 2  # x's -1 adds nothing
    ideal = 2 / 1 + 2 / _LOG2_3 + 1 / 2  # every judged doc, retrieved or not, best first
    for qrels in (grades, qrels_frame(grades)):
        # Level 1: relevant = {a, b, c}; a at rank 1, b at rank 3.
        at_level_1 = evaluate(run, qrels, ["ndcg@3", "recall@1", "map"])
        np.testing.assert_allclose(
            at_level_1.per_query.to_numpy(), [[dcg / ideal, 1 / 3, (1 / 1 + 2 / 3) / 3]],
            rtol=0, atol=1e-12,
        )
        # Level 2: relevant = {a, c}; a is found. nDCG gains ignore the level.
        at_level_2 = evaluate(run, qrels, ["ndcg@3", "recall@3"], relevance_level=2)
        np.testing.assert_allclose(
            at_level_2.per_query.to_numpy(), [[dcg / ideal, 1 / 2]], rtol=0, atol=1e-12
        )


STRING_DTYPES = {
    "object": object,
    "pd.StringDtype()": pd.StringDtype(),
    "str (pandas 3 default)": "str",
    "string[pyarrow]": "string[pyarrow]",
    "ArrowDtype(pa.string())": pd.ArrowDtype(pa.string()),
}


@pytest.mark.parametrize("qrels_dtype", list(STRING_DTYPES))
@pytest.mark.parametrize("run_dtype", list(STRING_DTYPES))
def test_every_string_id_dtype_gives_the_same_values(run_dtype, qrels_dtype):
    ids = ["query_id", "doc_id"]
    run = run_frame(shape_run_rows())
    run[ids] = run[ids].astype(STRING_DTYPES[run_dtype])
    qrels = qrels_frame(qrels_shapes(shape_relevant())["dict of dicts"])
    qrels[ids] = qrels[ids].astype(STRING_DTYPES[qrels_dtype])
    assert run["doc_id"].dtype == pd.api.types.pandas_dtype(STRING_DTYPES[run_dtype])
    result = evaluate(run, qrels, SHAPE_METRICS)
    assert list(result.per_query.index) == ["q1", "q2", "q3"]
    assert result.per_query.index.name == "query_id"
    np.testing.assert_allclose(result.per_query.to_numpy(), SHAPE_EXPECTED, rtol=0, atol=1e-12)


def test_int64_id_columns_give_the_same_values_and_an_integer_index():
    run = run_frame(shape_run_rows(INT_QUERY, INT_DOC))
    qrels = qrels_frame(qrels_shapes(shape_relevant(INT_QUERY, INT_DOC))["dict of dicts"])
    assert run["query_id"].dtype == np.int64
    assert run["doc_id"].dtype == np.int64
    result = evaluate(run, qrels, SHAPE_METRICS)
    assert result.per_query.index.dtype == np.int64
    assert list(result.per_query.index) == [1, 2, 10]
    np.testing.assert_allclose(result.per_query.to_numpy(), SHAPE_EXPECTED, rtol=0, atol=1e-12)


def test_rank_column_orders_by_rank_not_by_row_order():
    # Rows given worst first; rank 1 is best.
    run = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["x", "y", "a"], "rank": [3, 2, 1]})
    assert evaluate(run, {"q1": {"a"}}, ["mrr"]).per_query.loc["q1", "mrr"] == 1.0


def test_score_decides_when_both_score_and_rank_are_given():
    # As trec_eval: the rank column is ignored. By score a is 3rd; by rank it would be 1st.
    run = pd.DataFrame({
        "query_id": ["q1"] * 3, "doc_id": ["a", "x", "y"],
        "rank": [1, 2, 3], "score": [0.1, 0.5, 0.9],
    })  # fmt: skip
    with pytest.warns(RankOrderWarning, match=r"'x' \(rank 2\) has a higher score than 'a'"):
        assert evaluate(run, {"q1": {"a"}}, ["mrr"]).per_query.loc["q1", "mrr"] == 1 / 3
    # Asked for, the rank column decides (and nothing needs saying).
    assert evaluate(run, {"q1": {"a"}}, ["mrr"], order_by="rank").per_query.loc["q1", "mrr"] == 1


def test_constant_scores_with_ranks_are_ordered_by_the_tie_rule_and_said_so():
    # Constant scores: trec_eval orders ties by doc id descending, whatever the ranks say.
    run = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["a", "b", "c"],
                        "rank": [1, 2, 3], "score": [1.0, 1.0, 1.0]})
    with pytest.warns(RankOrderWarning, match="same score, 1, and the tie rule"):
        assert evaluate(run, {"q1": {"a"}}, ["mrr"]).summary["mrr"] == 1 / 3
    # Ranks and tie rule agree (doc ids descending): no warning.
    agreeing = run.assign(doc_id=["c", "b", "a"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert evaluate(agreeing, {"q1": {"a"}}, ["mrr"]).summary["mrr"] == 1 / 3


# ---------------------------------------------------------------------------------------------
# 3. The result contract
# ---------------------------------------------------------------------------------------------


def test_columns_are_named_exactly_as_requested_in_that_order():
    names = ["ndcg@3", "mrr", "recall@2", "r_precision", "map@2", "hit_rate@1"]
    result = evaluate({"q1": ["a", "b"]}, {"q1": {"a"}}, names)
    assert list(result.per_query.columns) == names
    assert list(result.summary.index) == names


def test_a_single_metric_name_string_is_one_column():
    result = evaluate({"q1": ["x", "a"]}, {"q1": {"a"}}, "mrr")
    assert list(result.per_query.columns) == ["mrr"]
    assert result.per_query.loc["q1", "mrr"] == 0.5


def test_index_is_named_query_id_and_numeric_string_ids_sort_numerically():
    ids = ["10", "9", "2", "100"]
    run = {q: ["a"] for q in ids}
    result = evaluate(run, {q: {"a"} for q in ids}, ["mrr"])
    assert result.per_query.index.name == "query_id"
    assert list(result.per_query.index) == ["2", "9", "10", "100"]


def test_integer_query_ids_sort_numerically_in_an_integer_index():
    ids = [10, 9, 2, 100]
    result = evaluate({q: ["a"] for q in ids}, {q: {"a"} for q in ids}, ["mrr"])
    assert result.per_query.index.dtype == np.int64
    assert result.per_query.index.name == "query_id"
    assert list(result.per_query.index) == [2, 9, 10, 100]


def test_non_numeric_ids_sort_as_strings():
    ids = ["q2", "q10", "b", "a"]
    result = evaluate({q: ["d"] for q in ids}, {q: {"d"} for q in ids}, ["mrr"])
    assert list(result.per_query.index) == ["a", "b", "q10", "q2"]


def test_summary_is_the_column_means_under_the_same_names():
    # q1: a, x, b with {a, b} -> recall@2 1/2, mrr 1; q2: y, c with {c} -> recall@2 1, mrr 1/2;
    # q3: z with {w} -> 0, 0.
    run = {"q1": ["a", "x", "b"], "q2": ["y", "c"], "q3": ["z"]}
    result = evaluate(run, SHAPE_RELEVANT, ["recall@2", "mrr"])
    assert isinstance(result.summary, pd.Series)
    assert result.summary.to_dict() == pytest.approx(
        {"recall@2": (1 / 2 + 1 + 0) / 3, "mrr": (1 + 1 / 2 + 0) / 3}, abs=1e-15
    )


def test_nan_from_skip_policies_is_left_out_of_the_mean():
    # q2's only judged doc has grade 0: an empty golden set, NaN under "skip".
    run = {"q1": ["a", "x"], "q2": ["b"], "q3": ["x", "c"]}
    qrels = {"q1": {"a": 1}, "q2": {"b": 0}, "q3": {"c": 1}}
    result = evaluate(run, qrels, ["mrr", "recall@1"], empty_relevant="skip")
    assert math.isnan(result.per_query.loc["q2", "mrr"])
    assert result.summary["mrr"] == (1 + 1 / 2) / 2  # over q1 and q3 only
    assert result.summary["recall@1"] == (1 + 0) / 2
    assert result.queries_without_relevant == ("q2",)


def test_missing_and_empty_queries_are_listed_by_id():
    run = {"q1": ["a"], "q2": ["b"], "q7": ["a"], "q8": ["a"]}
    qrels = {"q1": {"a": 1}, "q2": {"b": 0}, "q3": {"c": 1}, "q4": {"d": 1}}
    with pytest.warns(CoverageWarning), pytest.warns(EmptyRelevantWarning, match="'q2'"):
        result = evaluate(run, qrels, ["mrr"])
    assert result.queries_missing_from_run == ("q3", "q4")
    assert result.queries_missing_from_qrels == ("q7", "q8")
    assert result.queries_without_relevant == ("q2",)
    # Judged queries are the rows; missing ones score 0 and count (trec_eval -c).
    assert list(result.per_query.index) == ["q1", "q2", "q3", "q4"]
    assert result.summary["mrr"] == 1 / 4


def test_missing_from_run_skip_still_reports_the_missing_queries():
    """Left out of the mean, but still reported (policies.py: "Reported either way")."""
    run = {"q1": ["a"]}
    qrels = {"q1": {"a"}, "q9": {"x"}}
    with pytest.warns(CoverageWarning, match="missing from the run"):
        result = evaluate(run, qrels, ["mrr"], missing_from_run="skip")
    assert list(result.per_query.index) == ["q1"]
    assert result.summary["mrr"] == 1.0
    assert result.queries_missing_from_run == ("q9",)


def test_coverage_warning_names_both_gaps():
    with pytest.warns(CoverageWarning) as record:
        evaluate({"q1": ["a"], "q5": ["a"]}, {"q1": {"a"}, "q9": {"a"}}, ["mrr"])
    assert len(record) == 1
    message = str(record[0].message)
    assert "1 judged query missing from the run (scored 0)" in message
    assert "1 query of the run without judgments (left out)" in message


@pytest.mark.parametrize(
    ("run", "qrels"),
    [
        ({"q1": ["a"]}, {"q1": {"a"}, "q2": {"b"}}),  # judged, not run
        ({"q1": ["a"], "q2": ["b"]}, {"q1": {"a"}}),  # run, not judged
    ],
    ids=["missing from run", "missing from qrels"],
)
def test_coverage_warning_when_a_query_is_missing_on_either_side(run, qrels):
    with pytest.warns(CoverageWarning):
        evaluate(run, qrels, ["mrr"])


def test_no_coverage_warning_when_both_sides_cover_the_same_queries():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate({"q1": ["a"], "q2": ["x"]}, {"q1": {"a"}, "q2": {"b": 0}}, ["mrr"])
    # An empty golden set is reported and warned about, but is not a coverage gap.
    assert [w.category for w in caught] == [EmptyRelevantWarning]
    assert result.queries_without_relevant == ("q2",)
    assert result.queries_missing_from_run == result.queries_missing_from_qrels == ()


def test_repr_shows_the_means_and_the_gaps():
    run = {"q1": ["a", "x", "b"], "q2": ["y", "c"], "q5": ["a"]}
    with pytest.warns(CoverageWarning):
        result = evaluate(run, {"q1": {"a", "b"}, "q2": {"c"}, "q9": {"a"}}, ["recall@2", "mrr"])
    text = repr(result)
    # recall@2: (1/2 + 1 + 0) / 3 = 0.5; mrr: (1 + 1/2 + 0) / 3 = 0.5.
    assert "Evaluation over 3 queries" in text
    assert re.search(r"recall@2\s+0\.5000", text)
    assert re.search(r"mrr\s+0\.5000", text)
    assert "1 query missing from the run: q9" in text
    assert "1 query missing from the qrels (left out): q5" in text


def test_result_records_its_conventions():
    result = evaluate({"q1": ["a"]}, {"q1": {"a"}}, ["mrr"], ties="optimistic", gain="exponential")
    assert result.conventions.ties == "optimistic"
    assert result.conventions.gain == "exponential"
    assert result.conventions.duplicates == "error"


def test_a_judged_query_with_an_empty_golden_set_in_a_dict_is_scored_not_dropped():
    """``{"q2": set()}`` says "q2 was judged and nothing is relevant": an empty golden set.

    The per-query functions score it (``recall_at_k(["b"], set(), 2)`` is 0 under "zero");
    evaluate must do the same, not drop q2 as if it had no judgments.
    """
    run = {"q1": ["a", "x"], "q2": ["b"]}
    for empty_judgments in (set(), {}):
        with pytest.warns(EmptyRelevantWarning, match="'q2'"):
            result = evaluate(run, {"q1": {"a"}, "q2": empty_judgments}, ["recall@2"])
        assert list(result.per_query.index) == ["q1", "q2"]
        assert result.per_query.loc["q2", "recall@2"] == recall_at_k(["b"], set(), 2) == 0.0
        assert result.summary["recall@2"] == (1 + 0) / 2
        assert result.queries_without_relevant == ("q2",)
        assert result.queries_missing_from_qrels == ()


# ---------------------------------------------------------------------------------------------
# 4. Errors
# ---------------------------------------------------------------------------------------------

ONE_QUERY = ({"q1": ["a"]}, {"q1": {"a"}})


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ndgc@10", "unknown metric 'ndgc@10'; did you mean 'ndcg'?"),
        ("recal@5", "unknown metric 'recal@5'; did you mean 'recall@10'?"),
        ("precision", "metric 'precision' needs a cut-off: write it as 'precision@k'"),
        ("r_precision@5", "metric 'r_precision' takes no cut-off; got 'r_precision@5'"),
        ("recall@0", "the cut-off in 'recall@0' must be a positive int (1, 2, ...), got 0"),
        ("recall@x", "the cut-off in 'recall@x' must be a positive int, got 'x'"),
        ("recall@-3", "the cut-off in 'recall@-3' must be a positive int, got '-3'"),
        ("recall@2.5", "the cut-off in 'recall@2.5' must be a positive int, got '2.5'"),
    ],
)
def test_bad_metric_name_is_a_value_error_that_names_it(name, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        evaluate(*ONE_QUERY, [name])


def test_a_metric_requested_twice_is_an_error():
    with pytest.raises(ValueError, match="'mrr' is requested twice"):
        evaluate(*ONE_QUERY, ["mrr", "recall@1", "mrr"])


@pytest.mark.parametrize("column", ["query_id", "doc_id", "score"])
def test_missing_run_column_is_named(column):
    run = run_frame({"q1": [("a", 1.0)]}).drop(columns=column)
    with pytest.raises(ValueError, match=f"run has no column '{column}'"):
        evaluate(run, {"q1": {"a"}}, ["mrr"])


@pytest.mark.parametrize("column", ["query_id", "doc_id", "relevance"])
def test_missing_qrels_column_is_named(column):
    qrels = qrels_frame({"q1": {"a": 1}}).drop(columns=column)
    with pytest.raises(ValueError, match=f"qrels has no column '{column}'"):
        evaluate({"q1": ["a"]}, qrels, ["mrr"])


def test_nan_score_in_a_frame_names_the_query_and_doc():
    run = run_frame({"q1": [("a", 1.0)], "q2": [("b", 1.0), ("c", float("nan"))]})
    with pytest.raises(ValueError, match="query 'q2', doc 'c'"):
        evaluate(run, {"q1": {"a"}, "q2": {"b"}}, ["mrr"])


def test_nan_score_in_a_dict_names_the_query_and_doc():
    run = {"q1": {"a": 1.0}, "q2": {"b": 1.0, "c": float("nan")}}
    with pytest.raises((ValueError, TypeError), match="q2") as excinfo:
        evaluate(run, {"q1": {"a"}, "q2": {"b"}}, ["mrr"])
    assert "'c'" in str(excinfo.value)


def test_non_numeric_relevance_in_a_frame_is_an_error_naming_where():
    qrels = qrels_frame({"q1": {"a": 1, "b": "high"}})
    with pytest.raises(TypeError, match="query 'q1', doc 'b' has 'high'"):
        evaluate({"q1": ["a"]}, qrels, ["mrr"])


def test_non_numeric_grade_in_a_dict_is_an_error_naming_the_doc_and_value():
    with pytest.raises(TypeError, match="grade of doc 'b' must be a number, got 'high'"):
        evaluate({"q1": ["a"]}, {"q1": {"a": 1, "b": "high"}}, ["mrr"])


def test_duplicate_judgment_names_the_query_and_doc():
    qrels = pd.DataFrame(
        {"query_id": ["q1", "q2", "q2"], "doc_id": ["a", "b", "b"], "relevance": [1, 1, 0]}
    )
    with pytest.raises(ValueError, match="judge doc 'b' more than once for query 'q2'"):
        evaluate({"q1": ["a"], "q2": ["b"]}, qrels, ["mrr"])


def test_repeated_doc_in_a_ranked_list_names_the_query_and_doc():
    run = {"q1": ["a"], "q2": ["b", "x", "b"]}
    with pytest.raises(ValueError, match=r"doc id 'b' appears more than once .* query 'q2'"):
        evaluate(run, {"q1": {"a"}, "q2": {"b"}}, ["mrr"])


def test_repeated_doc_in_a_run_frame_names_the_query_and_doc():
    run = run_frame({"q1": [("a", 1.0)], "q2": [("b", 0.2), ("x", 0.5), ("b", 0.9)]})
    with pytest.raises(ValueError, match=r"doc id 'b' appears more than once .* query 'q2'"):
        evaluate(run, {"q1": {"a"}, "q2": {"b"}}, ["mrr"])


@pytest.mark.parametrize(
    ("run", "qrels", "column"),
    [
        ({"q1": ["42"]}, {"q1": {42}}, "doc_id"),
        ({"q1": [42]}, {"q1": {"42"}}, "doc_id"),
        ({"1": ["a"]}, {1: {"a"}}, "query_id"),
        ({1: ["a"]}, {"1": {"a"}}, "query_id"),
    ],
    ids=["str docs vs int docs", "int docs vs str docs", "str queries vs int queries",
         "int queries vs str queries"],
)
def test_str_ids_against_int_ids_is_a_type_error(run, qrels, column):
    with pytest.raises(TypeError, match=f"{column} is (str|int) in the run but (int|str)"):
        evaluate(run, qrels, ["mrr"])


def test_str_id_frame_against_int64_id_frame_is_a_type_error():
    run = run_frame({"q1": [("42", 1.0)]})
    qrels = qrels_frame({"q1": {42: 1}})
    with pytest.raises(TypeError, match="doc_id is str in the run but int in the qrels"):
        evaluate(run, qrels, ["mrr"])


@pytest.mark.parametrize(
    ("run", "qrels", "shown"),
    [
        (run_frame({1.0: [("a", 1.0)]}), {1: {"a"}}, "1.0"),
        ({"q1": [1.5]}, {"q1": {1}}, "1.5"),
        ({"q1": ["a"]}, qrels_frame({"q1": {2.0: 1}}), "2.0"),
    ],
    ids=["float query ids", "float doc ids in a list", "float doc ids in qrels"],
)
def test_float_ids_are_a_type_error_naming_the_value(run, qrels, shown):
    with pytest.raises(TypeError, match=f"all str or all int; found {re.escape(shown)}"):
        evaluate(run, qrels, ["mrr"])


def test_empty_relevant_error_names_the_query():
    with pytest.raises(ValueError, match="query 'q2' has no relevant doc"):
        evaluate({"q1": ["a"], "q2": ["b"]}, {"q1": {"a": 1}, "q2": {"b": 0}}, ["mrr"],
                 empty_relevant="error")


@pytest.mark.parametrize(
    ("option", "value"),
    [("ties", "random"), ("duplicates", "keep_last"), ("empty_relevant", "one"),
     ("missing_from_run", "drop"), ("gain", "log")],
)
def test_unknown_policy_names_the_option_and_the_value(option, value):
    with pytest.raises(ValueError, match=f"{option} must be one of .*; got '{value}'"):
        evaluate(*ONE_QUERY, ["mrr"], **{option: value})


def test_earlier_names_of_the_query_lists_warn_and_evaluations_compare_by_identity():
    with pytest.warns(CoverageWarning):
        result = evaluate({"q1": ["a"], "q7": ["a"]}, {"q1": {"a"}, "q3": {"c"}}, ["mrr"])
    for old, new in (("missing_from_run", ("q3",)), ("missing_from_qrels", ("q7",)),
                     ("empty_relevant", ())):
        with pytest.warns(DeprecationWarning, match=f"Evaluation.{old} is now"):
            assert getattr(result, old) == new
    with pytest.warns(CoverageWarning):
        again = evaluate({"q1": ["a"], "q7": ["a"]}, {"q1": {"a"}, "q3": {"c"}}, ["mrr"])
    assert result == result  # noqa: PLR0124 (identity, not an elementwise DataFrame compare)
    assert result != again
    assert len({result, again}) == 2
