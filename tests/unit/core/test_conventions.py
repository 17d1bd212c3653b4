"""One test per row of README's conventions table.

Each convention is a choice on which retrieval-metric libraries silently disagree. Every test
below is named after its row, shows on a tiny input what each option gives, and computes the
expected numbers by hand. The defaults reproduce trec_eval.

| Row                                   | Test                                             |
| ------------------------------------- | ------------------------------------------------ |
| Tied scores                           | test_ties                                        |
| Tied scores: doc ids compared as str  | test_ties_trec_eval_compares_doc_ids_as_strings  |
| Duplicate doc ids in a ranking        | test_duplicates_per_query,                       |
|                                       | test_duplicates_in_evaluate                      |
| Rows below the deepest cut-off        | test_evaluate_reads_down_to_the_deepest_cut_off  |
| Empty golden set                      | test_empty_golden_set,                           |
|                                       | test_empty_golden_set_error                      |
| Judged query missing from the run     | test_query_missing_from_the_run,                 |
|                                       | test_query_missing_from_the_run_skip             |
| Query in the run but not judged       | test_query_missing_from_the_qrels                |
| No relevant doc, under a threshold    | test_no_relevant_doc_under_a_score_threshold     |
| Cut-off k                             | test_k_must_be_a_positive_int (and test_k_*),    |
|                                       | test_k_beyond_the_list_precision_divides_by_k    |
| Id types                              | test_ids_of_different_types_never_match_silently |
|                                       | (and ..._in_evaluate)                            |
| Graded gain                           | test_graded_gain                                 |
| Relevance level                       | test_relevance_level                             |
"""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pandas as pd
import pytest

from ragmetrics import (
    METRICS,
    CoverageWarning,
    EmptyRelevantWarning,
    average_precision,
    dcg_at_k,
    evaluate,
    hit_rate_at_k,
    metric_curves,
    mrr,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)

LOG2_3 = math.log2(3)  # the discount of rank 2; rank 1 is 1, rank 3 is log2(4) = 2


# ---------------------------------------------------------------------------------------------
# Ties
# ---------------------------------------------------------------------------------------------

# Two queries, each a tie between a relevant and an irrelevant doc, given in the order a, z.
# In q1 the relevant doc is z (the larger id), in q2 it is a.
TIED_RUN = pd.DataFrame(
    {"query_id": ["q1", "q1", "q2", "q2"], "doc_id": ["a", "z", "a", "z"], "score": [1.0] * 4}
)
TIED_QRELS = {"q1": {"z"}, "q2": {"a"}}


@pytest.mark.parametrize(
    ("ties", "rr_q1", "rr_q2"),
    [
        # Score descending, then doc id descending: z before a in both queries.
        ("trec_eval", 1.0, 1 / 2),
        # The rows' order: a before z in both queries.
        ("input_order", 1 / 2, 1.0),
        # The relevant doc first: the best the tie could give.
        ("optimistic", 1.0, 1.0),
        # The relevant doc last: the worst the tie could give.
        ("pessimistic", 1 / 2, 1 / 2),
    ],
)
def test_ties(ties, rr_q1, rr_q2):
    """Ties: default "trec_eval" (score descending, then doc id descending as strings);
    "input_order"; "optimistic" (relevant first); "pessimistic" (relevant last).

    A tie between a relevant and an irrelevant doc puts the relevant one at rank 1 or 2,
    so its reciprocal rank is 1 or 1/2 depending on the rule alone.
    """
    result = evaluate(TIED_RUN, TIED_QRELS, ["mrr", "precision@1"], ties=ties)
    assert result.per_query["mrr"].to_dict() == {"q1": rr_q1, "q2": rr_q2}
    # Precision@1 is 1 exactly when the relevant doc won the tie.
    assert result.per_query["precision@1"].to_dict() == {
        "q1": float(rr_q1 == 1.0),
        "q2": float(rr_q2 == 1.0),
    }
    # A ranked list has no scores, hence no ties: its order is kept under every rule.
    ranked = evaluate({"q1": ["a", "z"]}, {"q1": {"z"}}, ["mrr"], ties=ties)
    assert ranked.per_query.loc["q1", "mrr"] == 1 / 2


def test_ties_trec_eval_compares_doc_ids_as_strings():
    """Ties, "trec_eval": doc ids are compared as strings, also integer ids ("9" > "10")."""
    run = pd.DataFrame({"query_id": [1, 1], "doc_id": [10, 9], "score": [0.5, 0.5]})
    result = evaluate(run, {1: {10}}, ["mrr"])
    # As strings "9" > "10", so 9 ranks first and the relevant 10 is second. (Numerically
    # 10 > 9 would put it first, for an RR of 1.)
    assert result.per_query.loc[1, "mrr"] == 1 / 2


# ---------------------------------------------------------------------------------------------
# Duplicates
# ---------------------------------------------------------------------------------------------


def test_duplicates_per_query():
    """Duplicates: "error" (default) or "keep_first"; never counted twice, never last-wins.

    The ranking a, x, a against the golden set {a, b}.
    """
    ranking, relevant = ["a", "x", "a"], {"a", "b"}
    with pytest.raises(ValueError, match=r"doc id 'a' appears more than once .* at rank 3"):
        precision_at_k(ranking, relevant, 3)

    # keep_first: the ranking is a, x. One relevant doc in 3 slots; 1 of 2 relevant found.
    assert precision_at_k(ranking, relevant, 3, duplicates="keep_first") == 1 / 3
    assert recall_at_k(ranking, relevant, 3, duplicates="keep_first") == 1 / 2
    assert reciprocal_rank(ranking, relevant, duplicates="keep_first") == 1.0
    # Counting "a" twice would give precision 2/3 and recall 2/2 = 1: the copy is not counted.
    # Last-wins would rank x, a and give RR 1/2: the first (highest) copy is the one kept.
    assert reciprocal_rank(["x", "a"], relevant) == 1 / 2 != 1.0


def test_duplicates_in_evaluate():
    """Duplicates in a run frame: "error" names the query and the id; "keep_first" keeps the
    highest-ranked copy (by score), not the first or last row."""
    run = pd.DataFrame(
        {"query_id": ["q1"] * 3, "doc_id": ["a", "x", "a"], "score": [0.1, 0.5, 0.9]}
    )
    qrels = {"q1": {"a", "b"}}
    with pytest.raises(ValueError, match=r"doc id 'a' appears more than once .* query 'q1'"):
        evaluate(run, qrels, ["mrr"])

    kept = evaluate(run, qrels, ["mrr", "precision@3", "recall@3"], duplicates="keep_first")
    # Ranked a (0.9), x (0.5); the copy at 0.1 is dropped.
    assert kept.per_query.loc["q1"].to_dict() == {"mrr": 1.0, "precision@3": 1 / 3,
                                                  "recall@3": 1 / 2}
    # Last-wins, as dict(rows) or drop_duplicates(keep="last") would do, keeps a at 0.1:
    # ranked x, a, for an RR of 1/2.
    last_wins = {"q1": {"a": 0.1, "x": 0.5}}
    assert evaluate(last_wins, qrels, ["mrr"]).per_query.loc["q1", "mrr"] == 1 / 2


def test_evaluate_reads_down_to_the_deepest_cut_off():
    """evaluate reads each query down to its deepest cut-off, plus the rows tied with the
    last one; deeper doc ids are not read, so a repeat or a missing id there is no error.
    An uncut metric reads (and checks) every row."""
    run = pd.DataFrame({
        "query_id": ["q1"] * 5,
        "doc_id": ["a", "x", "y", "a", None],
        "score": [0.9, 0.8, 0.7, 0.6, 0.5],
    })
    qrels = {"q1": {"a", "b"}}
    # Ranks 1-2 read: a, x. The copy of a at rank 4 and the missing id at rank 5 are not.
    top2 = evaluate(run, qrels, ["precision@2", "recall@2"]).per_query.loc["q1"]
    assert top2.to_dict() == {"precision@2": 1 / 2, "recall@2": 1 / 2}
    # Down to rank 4: the repeat is read, and refused.
    with pytest.raises(ValueError, match=r"doc id 'a' appears more than once .* query 'q1'"):
        evaluate(run, qrels, ["precision@2", "recall@4"])
    # An uncut metric reads every row: the missing id (row 4 of the frame) is named.
    with pytest.raises(ValueError, match=r"run column 'doc_id' has a missing id in row 4"):
        evaluate(run, qrels, ["mrr"], duplicates="keep_first")

    # A tie across the cut-off is read whole: x (rank 2) and b (rank 3) tie, and the
    # optimistic rule puts the relevant b at rank 2, which only reading rank 3 can show.
    tied = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["a", "x", "b"],
                         "score": [0.9, 0.8, 0.8]})
    for ties, expected in (("optimistic", 1.0), ("pessimistic", 1 / 2), ("trec_eval", 1 / 2)):
        got = evaluate(tied, qrels, ["precision@2"], ties=ties).per_query.loc["q1"]
        assert got["precision@2"] == expected, ties


# ---------------------------------------------------------------------------------------------
# Empty golden set
# ---------------------------------------------------------------------------------------------

EMPTY_METRICS = ["recall@2", "precision@2", "hit_rate@2", "mrr", "ndcg@2", "map", "r_precision"]
# q1 finds its only relevant doc at rank 1: every metric 1, except precision@2 = 1/2.
Q1_VALUES = [1.0, 1 / 2, 1.0, 1.0, 1.0, 1.0, 1.0]
NAN = math.nan


@pytest.mark.parametrize(
    ("empty_relevant", "q2_values"),
    [
        ("zero", [0.0] * 7),
        # The article's code: recall and nDCG 1.0 ("nothing to find, nothing missed"), else 0.
        ("article", [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]),
        ("skip", [NAN] * 7),
    ],
)
def test_empty_golden_set(empty_relevant, q2_values):
    """Empty golden set: "zero" (default; counted in the mean, as trec_eval); "article"
    (recall and nDCG 1.0, precision/MRR/hit rate/MAP/R-precision 0); "skip" (NaN, not in the
    mean); "error" (raise).

    q2 was judged, but its only judged doc has grade 0: no doc is relevant.
    """
    run = {"q1": ["a", "x"], "q2": ["b", "y"]}
    qrels = {"q1": {"a": 1}, "q2": {"b": 0}}
    if empty_relevant == "skip":  # asked for: nothing to warn about
        result = evaluate(run, qrels, EMPTY_METRICS, empty_relevant=empty_relevant)
    else:  # scored anyway: said so, with the query
        with pytest.warns(EmptyRelevantWarning, match="1 judged query has no relevant doc .*'q2'"):
            result = evaluate(run, qrels, EMPTY_METRICS, empty_relevant=empty_relevant)
    np.testing.assert_array_equal(result.per_query.loc["q2"].to_numpy(), q2_values)
    np.testing.assert_array_equal(result.per_query.loc["q1"].to_numpy(), Q1_VALUES)
    # The mean: over both queries, or over q1 alone when q2 is NaN.
    expected_mean = [
        v1 if math.isnan(v2) else (v1 + v2) / 2 for v1, v2 in zip(Q1_VALUES, q2_values, strict=True)
    ]
    np.testing.assert_array_equal(result.summary.to_numpy(), expected_mean)
    assert result.queries_without_relevant == ("q2",)

    # The per-query functions follow the same rule.
    options = {"empty_relevant": empty_relevant}
    ranking, grades = ["b", "y"], {"b": 0}
    per_query = [
        recall_at_k(ranking, grades, 2, **options),
        precision_at_k(ranking, grades, 2, **options),
        hit_rate_at_k(ranking, grades, 2, **options),
        reciprocal_rank(ranking, grades, **options),
        ndcg_at_k(ranking, grades, 2, **options),
        average_precision(ranking, grades, **options),
        r_precision(ranking, grades, **options),
    ]
    np.testing.assert_array_equal(per_query, q2_values)


def test_empty_golden_set_error():
    """Empty golden set, "error": raise, naming the query."""
    with pytest.raises(ValueError, match="query 'q2' has no relevant doc"):
        evaluate({"q1": ["a"], "q2": ["b"]}, {"q1": {"a"}, "q2": {"b": 0}}, ["recall@1"],
                 empty_relevant="error")
    with pytest.raises(ValueError, match=r"the golden set .* has no relevant doc"):
        recall_at_k(["b"], set(), 1, empty_relevant="error")


# ---------------------------------------------------------------------------------------------
# Coverage: queries on one side only
# ---------------------------------------------------------------------------------------------


def test_query_missing_from_the_run():
    """Judged query missing from the run, "zero" (default): scored 0 and counted in the mean
    (trec_eval -c); reported in missing_from_run, with a CoverageWarning."""
    with pytest.warns(CoverageWarning, match="1 judged query missing from the run"):
        result = evaluate({"q1": ["a", "x"]}, {"q1": {"a"}, "q2": {"b"}}, ["mrr", "recall@2"])
    assert result.per_query.loc["q2"].to_dict() == {"mrr": 0.0, "recall@2": 0.0}
    assert result.summary.to_dict() == {"mrr": (1 + 0) / 2, "recall@2": (1 + 0) / 2}
    assert result.queries_missing_from_run == ("q2",)


def test_query_missing_from_the_run_skip():
    """Judged query missing from the run, "skip": left out of the mean (trec_eval without
    -c); still reported in missing_from_run, with a CoverageWarning."""
    with pytest.warns(CoverageWarning, match="1 judged query missing from the run"):
        result = evaluate({"q1": ["a", "x"]}, {"q1": {"a"}, "q2": {"b"}}, ["mrr", "recall@2"],
                          missing_from_run="skip")
    assert list(result.per_query.index) == ["q1"]
    assert result.summary.to_dict() == {"mrr": 1.0, "recall@2": 1.0}
    assert result.queries_missing_from_run == ("q2",)


def test_no_relevant_doc_under_a_score_threshold():
    from ragmetrics import threshold_sweep

    # q2 has no relevant doc: at threshold 0.5 its result scored exactly 0.5 is kept, a
    # false answer; it never enters recall (q1's alone: 1/2) nor the answer rate.
    run = {"q1": {"a": 0.9, "b": 0.2}, "q2": {"c": 0.5}}
    row = threshold_sweep(run, {"q1": {"a", "b"}, "q2": set()}).at(0.5)
    assert (row["false_answer_rate"], row["recall"], row["answer_rate"]) == (1.0, 0.5, 1.0)
    assert threshold_sweep(run, {"q1": {"a", "b"}, "q2": set()}).at(0.51)[
        "false_answer_rate"] == 0.0
    with pytest.raises(ValueError, match="marked answerable=True but has no relevant"):
        threshold_sweep(run, {"q1": {"a"}, "q2": set()}, answerable={"q2": True})


def test_query_missing_from_the_qrels():
    """Query in the run but not judged: left out (nothing to score it against), reported in
    missing_from_qrels, with a CoverageWarning."""
    run = {"q1": ["a", "x"], "q5": ["x", "a"]}
    with pytest.warns(CoverageWarning, match="1 query of the run without judgments"):
        result = evaluate(run, {"q1": {"a"}}, ["mrr"])
    assert list(result.per_query.index) == ["q1"]
    assert result.summary["mrr"] == 1.0  # q5 is not a 0 in the mean
    assert result.queries_missing_from_qrels == ("q5",)


# ---------------------------------------------------------------------------------------------
# The cut-off k
# ---------------------------------------------------------------------------------------------

RANKING, RELEVANT = ["a", "x"], {"a"}

# Every per-query function taking k, called with a given k.
WITH_REQUIRED_K = {
    "recall_at_k": lambda k: recall_at_k(RANKING, RELEVANT, k),
    "precision_at_k": lambda k: precision_at_k(RANKING, RELEVANT, k),
    "hit_rate_at_k": lambda k: hit_rate_at_k(RANKING, RELEVANT, k),
    "dcg_at_k": lambda k: dcg_at_k(RANKING, RELEVANT, k),
    "ndcg_at_k": lambda k: ndcg_at_k(RANKING, RELEVANT, k),
}
WITH_OPTIONAL_K = {
    "reciprocal_rank": lambda k: reciprocal_rank(RANKING, RELEVANT, k),
    "average_precision": lambda k: average_precision(RANKING, RELEVANT, k),
    "mrr": lambda k: mrr([(RANKING, RELEVANT)], k),
}
BAD_K = [
    (0, ValueError, "got 0"),
    (-2, ValueError, "got -2"),
    (2.0, TypeError, "got 2.0 (float)"),
    ("3", TypeError, "got '3' (str)"),
    (True, TypeError, "got True (bool)"),
]


@pytest.mark.parametrize(("k", "error", "shown"), BAD_K, ids=[repr(k) for k, _, _ in BAD_K])
@pytest.mark.parametrize("function", list(WITH_REQUIRED_K) + list(WITH_OPTIONAL_K))
def test_k_must_be_a_positive_int(function, k, error, shown):
    """Cut-off k: a positive int. 0, negatives, floats, strings and bools are rejected by
    every per-query function taking k, with the value in the message; None too where k is
    required (where it is optional, None means the whole ranking)."""
    call = {**WITH_REQUIRED_K, **WITH_OPTIONAL_K}[function]
    with pytest.raises(error, match="k must be a positive int.*" + re.escape(shown)):
        call(k)


@pytest.mark.parametrize("function", list(WITH_REQUIRED_K))
def test_k_none_reads_the_whole_ranking(function):
    """The cut-off k: None reads the whole ranking, for every per-query function."""
    assert WITH_REQUIRED_K[function](None) == WITH_REQUIRED_K[function](len(RANKING))


def test_k_none_means_the_whole_ranking_where_k_is_optional():
    ranking = ["x", "y", "z", "a"]  # the only relevant doc at rank 4
    assert reciprocal_rank(ranking, {"a"}, None) == 1 / 4
    assert average_precision(ranking, {"a"}, None) == 1 / 4
    assert reciprocal_rank(ranking, {"a"}, 3) == 0.0  # a cut-off above it hides it


def test_k_accepts_numpy_integers():
    assert precision_at_k(RANKING, RELEVANT, np.int64(2)) == 1 / 2


def test_k_beyond_the_list_precision_divides_by_k():
    """Cut-off k beyond the list: precision still divides by k (an empty slot is a wasted
    slot); recall, which divides by the number of relevant docs, is unaffected."""
    # One relevant doc among the two retrieved; 10 slots asked for.
    assert precision_at_k(RANKING, RELEVANT, 10) == 1 / 10
    assert recall_at_k(RANKING, RELEVANT, 10) == 1.0
    result = evaluate({"q1": RANKING}, {"q1": RELEVANT}, ["precision@10", "recall@10"])
    assert result.per_query.loc["q1"].to_dict() == {"precision@10": 1 / 10, "recall@10": 1.0}


# ---------------------------------------------------------------------------------------------
# Id types
# ---------------------------------------------------------------------------------------------

def _cut_at_1(name):
    info = METRICS[name]
    return lambda ranking, relevant: info.score_one(ranking, relevant, 1)


# The article's metrics and DCG by the reference functions of their rows of the metric
# table (cut at 1 where they take a cut-off), and MRR over one query.
ALL_PER_QUERY = {
    **{name: _cut_at_1(name)
       for name in ("recall", "precision", "hit_rate", "rr", "dcg", "ndcg", "ap", "r_precision")},
    "mrr": lambda ranking, relevant: mrr([(ranking, relevant)]),
}


@pytest.mark.parametrize("function", list(ALL_PER_QUERY))
def test_ids_of_different_types_never_match_silently(function):
    """Id types: "42" (str) and 42 (int) are different ids; a ranking and a golden set with
    no id kind in common raise instead of scoring zero overlap. The same ids of one kind
    score normally."""
    call = ALL_PER_QUERY[function]
    with pytest.raises(TypeError, match=r"retrieved ids are str .* relevant ids are int"):
        call(["42"], {42})
    with pytest.raises(TypeError, match=r"retrieved ids are int .* relevant ids are str"):
        call([42], {"42"})
    # The one relevant doc at rank 1: every metric here is 1 (DCG@1 too: gain 1, undiscounted).
    assert call([42], {42}) == 1.0
    assert call(["42"], {"42"}) == 1.0


@pytest.mark.parametrize(
    ("run", "qrels", "column"),
    [
        ({"q1": ["42"]}, {"q1": {42}}, "doc_id"),
        ({"42": ["a"]}, {42: {"a"}}, "query_id"),
    ],
)
def test_ids_of_different_types_never_match_silently_in_evaluate(run, qrels, column):
    """Id types in evaluate: a str column on one side and an int column on the other raise."""
    with pytest.raises(TypeError, match=f"{column} is str in the run but int in the qrels"):
        evaluate(run, qrels, ["mrr"])


# ---------------------------------------------------------------------------------------------
# Graded gain and relevance level
# ---------------------------------------------------------------------------------------------

# x (judged harmful, -1) at rank 1, a (grade 3) at rank 2, b (grade 1) at rank 3;
# c (grade 2) was never retrieved.
GRADED_RANKING = ["x", "a", "b"]
GRADES = {"a": 3, "b": 1, "x": -1, "c": 2}


def test_graded_gain():
    """Graded gain: "linear" (default, gain = grade, trec_eval) or "exponential"
    (gain = 2^grade - 1); negative grades add no gain; the ideal DCG ranks every judged doc,
    retrieved or not."""
    # Linear: DCG@3 = 0 + 3/log2(3) + 1/2; ideal: grades 3, 2, 1 -> 3 + 2/log2(3) + 1/2.
    linear = (3 / LOG2_3 + 1 / 2) / (3 + 2 / LOG2_3 + 1 / 2)
    # Exponential: gains 7 (a), 1 (b), 3 (c) -> DCG@3 = 7/log2(3) + 1/2; ideal 7 + 3/log2(3) + 1/2.
    exponential = (7 / LOG2_3 + 1 / 2) / (7 + 3 / LOG2_3 + 1 / 2)
    assert ndcg_at_k(GRADED_RANKING, GRADES, 3) == pytest.approx(linear, abs=1e-15)
    assert ndcg_at_k(GRADED_RANKING, GRADES, 3, gain="exponential") == pytest.approx(
        exponential, abs=1e-15
    )
    for gain, expected in (("linear", linear), ("exponential", exponential)):
        result = evaluate({"q1": GRADED_RANKING}, {"q1": GRADES}, ["ndcg@3"], gain=gain)
        assert result.per_query.loc["q1", "ndcg@3"] == pytest.approx(expected, abs=1e-15)

    # Negative grades add no gain: x scores as if unjudged, not as a penalty of -1
    # (which would give (-1 + 3/log2(3) + 1/2) / ideal).
    with_x = ndcg_at_k(GRADED_RANKING, GRADES, 3)
    unjudged_x = {d: g for d, g in GRADES.items() if d != "x"}
    assert ndcg_at_k(GRADED_RANKING, unjudged_x, 3) == with_x
    assert with_x != pytest.approx((-1 + 3 / LOG2_3 + 1 / 2) / (3 + 2 / LOG2_3 + 1 / 2))

    # The ideal includes c, never retrieved. An ideal built from the retrieved docs alone
    # (a, b: 3 + 1/log2(3)) would overstate nDCG.
    retrieved_only = (3 / LOG2_3 + 1 / 2) / (3 + 1 / LOG2_3)
    assert with_x < retrieved_only

    # For binary grades (0/1) the two gains agree: 2^1 - 1 = 1.
    binary = {"a": 1, "b": 1, "c": 1}
    assert ndcg_at_k(GRADED_RANKING, binary, 3, gain="exponential") == ndcg_at_k(
        GRADED_RANKING, binary, 3
    )


def test_relevance_level():
    """Relevance level (default 1): binary metrics count a doc as relevant when its
    grade >= level; nDCG's gains ignore the level (as trec_eval)."""
    ranking, grades = ["a", "b", "x"], {"a": 1, "b": 2}
    metrics = ["recall@1", "precision@2", "hit_rate@1", "mrr", "r_precision", "ndcg@3"]
    # nDCG@3, whatever the level: DCG = 1 + 2/log2(3); ideal = 2 + 1/log2(3).
    ndcg = (1 + 2 / LOG2_3) / (2 + 1 / LOG2_3)
    expected = {
        # Level 1: relevant {a, b}. Recall@1 1/2, P@2 2/2, hit, RR 1, R = 2 -> 2 of top 2.
        1: [1 / 2, 1.0, 1.0, 1.0, 1.0, ndcg],
        # Level 2: relevant {b}. Recall@1 0, P@2 1/2, no hit at 1, RR 1/2, R = 1 -> a: 0.
        2: [0.0, 1 / 2, 0.0, 1 / 2, 0.0, ndcg],
    }
    for level, values in expected.items():
        result = evaluate({"q1": ranking}, {"q1": grades}, metrics, relevance_level=level)
        assert result.queries_without_relevant == ()
        np.testing.assert_allclose(result.per_query.loc["q1"].to_numpy(), values, rtol=0,
                                   atol=1e-15)
        per_query = [
            recall_at_k(ranking, grades, 1, relevance_level=level),
            precision_at_k(ranking, grades, 2, relevance_level=level),
            hit_rate_at_k(ranking, grades, 1, relevance_level=level),
            reciprocal_rank(ranking, grades, relevance_level=level),
            r_precision(ranking, grades, relevance_level=level),
            ndcg_at_k(ranking, grades, 3, relevance_level=level),
        ]
        np.testing.assert_allclose(per_query, values, rtol=0, atol=1e-15)

    # No grade reaches level 2: the golden set is empty and binary metrics are 0 under
    # "zero", but nDCG still scores the grades: a (grade 1) at rank 1 is the ideal, so 1.0.
    # trec_eval -l2 gives the same (recall_1 0, ndcg_cut_3 1).
    with pytest.warns(EmptyRelevantWarning, match="at relevance_level 2; the highest grade"):
        low = evaluate({"q1": ["a", "x"]}, {"q1": {"a": 1}}, ["recall@1", "ndcg@3"],
                       relevance_level=2)
    assert low.per_query.loc["q1"].to_dict() == {"recall@1": 0.0, "ndcg@3": 1.0}
    assert low.queries_without_relevant == ("q1",)


# ---------------------------------------------------------------------------------------------
# One table: the conventions table feeds the record, the signatures, the docs, the CLI,
# the report's card and README
# ---------------------------------------------------------------------------------------------


def test_the_conventions_table_builds_the_record_the_signatures_and_the_docs():
    import dataclasses
    import inspect

    from ragmetrics import Conventions, compare, evaluate
    from ragmetrics.conventions import CONVENTIONS

    table = {c.keyword: c.default for c in CONVENTIONS}
    assert {f.name: f.default for f in dataclasses.fields(Conventions)} == table
    for function in (evaluate, compare):
        parameters = inspect.signature(function).parameters
        assert {k: parameters[k].default for k in table} == table, function.__name__
        for convention in CONVENTIONS:  # the docstring names every choice
            assert f"{convention.keyword} : " in function.__doc__
            for value in convention.values:
                assert repr(value) in function.__doc__


def test_evaluate_and_compare_take_the_conventions_once_with_their_literal_types():
    # One declaration (ConventionKeywords, the record's fields and types) for both
    # signatures: a type checker reads **conventions: Unpack[ConventionKeywords], and
    # inspect.signature (help(), the book) each keyword with its Literal and its default.
    import inspect
    import typing

    from ragmetrics import compare, evaluate
    from ragmetrics import conventions as module
    from ragmetrics.conventions import CONVENTIONS, ConventionKeywords, Conventions
    from ragmetrics.errors import InputTypeError
    from ragmetrics.stats import CORRECTIONS

    fields = typing.get_type_hints(Conventions, vars(module))
    assert typing.get_type_hints(ConventionKeywords) == fields
    assert list(typing.get_type_hints(ConventionKeywords)) == list(fields)
    for function in (evaluate, compare):
        hints = typing.get_type_hints(function)
        assert hints["conventions"] == typing.Unpack[ConventionKeywords], function.__name__
        parameters = inspect.signature(function).parameters
        assert "conventions" not in parameters
        for convention in CONVENTIONS:
            parameter = parameters[convention.keyword]
            assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
            assert parameter.annotation == fields[convention.keyword]
            if convention.choices:
                assert typing.get_args(parameter.annotation) == convention.values
        keywords = [name for name in parameters if name in fields]
        assert keywords == [c.keyword for c in CONVENTIONS]  # in the table's order...
        assert list(parameters).index("preset") == list(parameters).index(keywords[-1]) + 1
    assert typing.get_args(typing.get_type_hints(compare)["correction"]) == CORRECTIONS

    run, qrels = {"q1": ["a"]}, {"q1": {"a"}}
    with pytest.raises(InputTypeError, match=r"^compare\(\) got an unexpected keyword "
                       r"argument 'tie'; did you mean 'ties'\?$"):
        compare({"bm25": run}, qrels, ["mrr"], n_resamples=10, tie="average")
    with pytest.raises(TypeError, match=r"^evaluate\(\) got an unexpected keyword "
                       r"argument 'colour'$"):
        evaluate(run, qrels, ["mrr"], colour="red")
    assert evaluate(run, qrels, ["mrr"], ties="average").conventions.ties == "average"


def test_the_record_is_written_out_in_the_order_of_the_table_with_its_literal_types():
    import dataclasses
    import typing

    from ragmetrics import conventions as module
    from ragmetrics.conventions import CONVENTIONS, Conventions
    from ragmetrics.errors import InputValueError

    fields = dataclasses.fields(Conventions)
    assert [f.name for f in fields] == [c.keyword for c in CONVENTIONS]
    hints = typing.get_type_hints(Conventions, vars(module))
    for convention in CONVENTIONS:
        hint = hints[convention.keyword]
        if convention.choices:  # the Literal names exactly the row's choices, in order
            assert typing.get_origin(hint) is typing.Literal, convention.keyword
            assert typing.get_args(hint) == convention.values
        else:
            assert typing.get_origin(hint) is not typing.Literal
    with pytest.raises(InputValueError, match="'random'"):
        Conventions(ties="random")
    with pytest.raises(dataclasses.FrozenInstanceError):
        Conventions().ties = "optimistic"


def test_the_cli_options_and_the_report_card_come_from_the_table():
    from ragmetrics.cli import build_parser
    from ragmetrics.conventions import CONVENTIONS, Conventions, describe

    text = build_parser()._subparsers._group_actions[0].choices["evaluate"].format_help()
    for convention in CONVENTIONS:
        assert convention.cli_option in text
    card = describe(Conventions())
    # Conventions added after the card took its shape show only when not at their default.
    assert list(card) == [c.label for c in CONVENTIONS if c.on_card_at_default]
    assert card["tied scores"].startswith("trec_eval: score descending")
    changed = describe(Conventions(unjudged="removed", max_retrieved=100,
                                   score_precision="float32", query_id_docs="ignore",
                                   ap_denominator="min_relevant_k", ideal_order="label_order"))
    assert list(changed) == [c.label for c in CONVENTIONS]
    assert changed["docs read per ranking"] == "100: only the top 100 docs of each ranking count"
    assert changed["score precision"].startswith("float32: scores rounded to 32-bit floats")


def test_readme_shows_the_conventions_table_as_the_code_has_it():
    from pathlib import Path

    from ragmetrics.conventions import conventions_markdown

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    assert conventions_markdown() in readme


# ---------------------------------------------------------------------------------------------
# No NaN that no "skip" policy asked for; means say how many queries they average
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grades", "gain"),
    [
        ({"a": 1024}, "exponential"),  # 2**1024 - 1 overflows a float
        ({"a": 1023, "b": 1023}, "exponential"),  # each gain fits, their sum does not
        ({"a": 1e308, "b": 1e308}, "linear"),
    ],
)
def test_gains_that_overflow_a_float_are_refused_everywhere(grades, gain):
    message = "the gains of the judged docs add up past the largest float"
    with pytest.raises(ValueError, match=message):
        evaluate({"q1": ["a"]}, {"q1": grades}, ["ndcg@10"], gain=gain)
    with pytest.raises(ValueError, match=message):
        ndcg_at_k(["a"], grades, 10, gain=gain)
    with pytest.raises(ValueError, match=message):
        metric_curves(["a"], grades, [1, 2], metrics=["ndcg"], gain=gain)
    # Metrics without gains do not need them: recall is computed.
    recall = evaluate({"q1": ["a"]}, {"q1": grades}, ["recall@10"], gain=gain).summary.iloc[0]
    assert recall == 1 / len(grades)


def test_an_infinite_grade_is_refused():
    with pytest.raises(ValueError, match="must be a finite number, got inf"):
        evaluate({"q1": ["a"]}, {"q1": {"a": math.inf}}, ["ndcg@10"])
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "relevance": [math.inf]})
    with pytest.raises(ValueError, match="must hold finite grades"):
        evaluate({"q1": ["a"]}, qrels, ["ndcg@10"])


def test_a_nan_from_a_kernel_is_a_bug_not_a_number(monkeypatch):
    from ragmetrics.metrics import kernels

    monkeypatch.setattr(kernels, "recall", lambda r, k: np.full(r.n_queries, np.nan))
    monkeypatch.setitem(METRICS, "recall", dataclasses.replace(METRICS["recall"],
                                                               kernel=kernels.recall))
    with pytest.raises(ArithmeticError, match="recall@5 is NaN for query 'q1'"):
        evaluate({"q1": ["a"]}, {"q1": {"a"}}, ["recall@5"])


def test_means_say_how_many_queries_they_average():
    run = {"q1": ["a"], "q2": ["b"], "q3": ["c"]}
    qrels = {"q1": {"a"}, "q2": {"b": 0}, "q3": {"x"}}
    result = evaluate(run, qrels, ["rr", "ndcg@5"], empty_relevant="skip")
    assert result.counts.to_dict() == {"rr": 2, "ndcg@5": 2}  # q2 has no relevant doc
    assert "rr      0.5000  (mean of 2 queries)" in repr(result)
    assert "Evaluation over 3 queries" in repr(result)
