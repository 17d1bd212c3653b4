"""Unit tests of the per-query metrics: hand-computed values, policies and validation.

Every expected number is worked out in the test from the definition, with the ranks of the
relevant docs spelled out, so a failing test tells you which rule broke.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from ragmetrics import (
    METRICS,
    average_precision,
    dcg_at_k,
    hit_rate_at_k,
    mrr,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)


def exactly(value: float):
    """A hand-computed value; the tolerance only absorbs float summation order."""
    return pytest.approx(value, rel=1e-12, abs=1e-15)


def discount(rank: int) -> float:
    """1 / log2(rank + 1): the DCG weight of 1-based ``rank``."""
    return 1 / math.log2(rank + 1)


def mrr_of_one(retrieved, relevant, k=None, **options):
    """MRR over a single query, so it can sit in the same tables as the other metrics."""
    return mrr([(retrieved, relevant)], k, **options)


def cut_at_3(info):
    """The row's reference function, called as ``(retrieved, relevant, **options)``: cut at
    3 where the row takes a cut-off (at 0.5 where the cut-off is a recall level or a
    multiple of R)."""
    k = None if info.cutoff == "none" else 0.5 if info.cutoff_kind == "fraction" else 3
    return lambda ret, rel, **o: info.score_one(ret, rel, k, **o)


#: Every metric, from the metric table (each row with a reference function, by its name)
#: and MRR (over one query): each called the same way, ``(retrieved, relevant,
#: **options)``. The input checks below hold for all of them.
ALL_METRICS_WITH_K3 = {
    **{info.name: cut_at_3(info) for info in METRICS.values() if info.reference is not None},
    "mrr": lambda ret, rel, **o: mrr_of_one(ret, rel, 3, **o),
}
#: The article's metrics and DCG: the values below are worked out for these.
ARTICLE_METRICS = ["recall", "precision", "hit_rate", "rr", "mrr", "ndcg", "ap", "r_precision",
                   "dcg"]

# Every metric with a rank cut-off (and MRR): the checks of k. Those where k=None means
# "the whole ranking", for reciprocal rank, AP and MRR.
K_TAKING = [info.reference for info in METRICS.values()
            if info.cutoff != "none" and info.cutoff_kind == "rank"] + [mrr_of_one]
K_OPTIONAL = [METRICS["rr"].reference, METRICS["ap"].reference, mrr_of_one]


# --- Recall@k, Precision@k, hit rate ----------------------------------------------------

RANKING = ["a", "x", "b", "y", "c"]  # relevant a, b, c at ranks 1, 3, 5
GOLDEN = {"a", "b", "c", "d"}  # d is never retrieved


@pytest.mark.parametrize(
    ("k", "expected"),
    [(1, 1 / 4), (2, 1 / 4), (3, 2 / 4), (5, 3 / 4), (100, 3 / 4)],
)
def test_recall_counts_unretrieved_relevant_docs_in_the_denominator(k, expected):
    # Hits in the top k over all 4 relevant docs; d is never found, so recall stays < 1.
    assert recall_at_k(RANKING, GOLDEN, k) == exactly(expected)


@pytest.mark.parametrize(
    ("k", "expected"),
    [(1, 1 / 1), (2, 1 / 2), (3, 2 / 3), (5, 3 / 5), (10, 3 / 10), (100, 3 / 100)],
)
def test_precision_divides_by_k_even_beyond_the_ranking(k, expected):
    # At k=10 only 5 docs were retrieved, but the 5 empty slots count as misses: 3/10.
    assert precision_at_k(RANKING, GOLDEN, k) == exactly(expected)


@pytest.mark.parametrize(("k", "expected"), [(1, 0.0), (2, 0.0), (3, 1.0), (10, 1.0)])
def test_hit_rate_is_1_once_any_relevant_doc_is_in_the_top_k(k, expected):
    # The first relevant doc, b, is at rank 3.
    assert hit_rate_at_k(["x", "y", "b", "a"], {"a", "b"}, k) == expected


def test_hit_rate_is_not_recall():
    # One of three relevant docs in the top 2: the hit rate is 1, recall is 1/3.
    assert hit_rate_at_k(["x", "a"], {"a", "b", "c"}, 2) == 1.0
    assert recall_at_k(["x", "a"], {"a", "b", "c"}, 2) == exactly(1 / 3)


def test_empty_ranking_scores_0_on_every_metric_of_the_article():
    for name in ARTICLE_METRICS:
        assert ALL_METRICS_WITH_K3[name]([], {"a"}) == 0.0, name


# --- Reciprocal rank and MRR ------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "expected"),
    [(None, 1 / 3), (1, 0.0), (2, 0.0), (3, 1 / 3), (4, 1 / 3), (50, 1 / 3)],
)
def test_reciprocal_rank_of_first_hit_at_rank_3_with_cutoff(k, expected):
    assert reciprocal_rank(["x", "y", "a", "b"], {"a", "b"}, k) == exactly(expected)


def test_reciprocal_rank_ignores_every_hit_after_the_first():
    # Relevant docs at ranks 2, 3 and 4: only rank 2 matters.
    assert reciprocal_rank(["x", "a", "b", "c"], {"a", "b", "c"}) == 1 / 2
    assert reciprocal_rank(["x", "a"], {"a", "b", "c"}) == 1 / 2


def test_reciprocal_rank_is_0_when_nothing_relevant_was_retrieved():
    assert reciprocal_rank(["x", "y"], {"a"}) == 0.0


def test_mrr_averages_reciprocal_ranks_over_pairs():
    # First hits at ranks 1, 2, 4 and nowhere: (1 + 1/2 + 1/4 + 0) / 4 = 0.4375.
    pairs = [
        (["a", "x"], {"a"}),
        (["x", "b"], {"b", "z"}),
        (["x", "y", "w", "c"], {"c"}),
        (["x", "y"], {"d"}),
    ]
    assert mrr(pairs) == exactly((1 + 1 / 2 + 1 / 4 + 0) / 4)
    # With k=2 the rank-4 hit no longer counts: (1 + 1/2 + 0 + 0) / 4.
    assert mrr(pairs, k=2) == exactly((1 + 1 / 2) / 4)
    # Any iterable of pairs works, a generator included.
    assert mrr(pair for pair in pairs) == exactly(0.4375)


def test_mrr_with_skip_leaves_empty_queries_out_of_the_mean():
    # Query 2 has no relevant doc. "skip": (1 + 1/3) / 2; "zero": (1 + 0 + 1/3) / 3.
    pairs = [(["a"], {"a"}), (["x"], set()), (["x", "y", "c"], {"c"})]
    assert mrr(pairs, empty_relevant="skip") == exactly((1 + 1 / 3) / 2)
    assert mrr(pairs, empty_relevant="zero") == exactly((1 + 0 + 1 / 3) / 3)
    assert mrr(pairs, empty_relevant="article") == exactly((1 + 0 + 1 / 3) / 3)
    with pytest.raises(ValueError, match="no relevant doc"):
        mrr(pairs, empty_relevant="error")


def test_mrr_with_skip_and_only_empty_queries_is_nan():
    assert math.isnan(mrr([(["x"], set()), (["y"], {"a": 0})], empty_relevant="skip"))


def test_mrr_of_no_pairs_is_an_error():
    with pytest.raises(ValueError, match="got none"):
        mrr([])


@pytest.mark.parametrize("bad_pair", [(["a"],), (["a"], {"a"}, 3), 7])
def test_mrr_names_the_pair_that_is_not_a_pair(bad_pair):
    with pytest.raises(
        TypeError,
        match=re.escape(f"pairs[1] must be a (retrieved, relevant) pair, got {bad_pair!r}"),
    ):
        mrr([(["a"], {"a"}), bad_pair])


@pytest.mark.parametrize(
    ("second_pair", "options"),
    [
        ((["b", "b"], {"b"}), {}),  # a duplicate id
        ((["b"], set()), {"empty_relevant": "error"}),  # no relevant doc
        ((["42"], {42}), {}),  # str ids against int ids
    ],
    ids=["duplicate", "empty", "id kinds"],
)
def test_mrr_error_inside_a_pair_names_the_pair(second_pair, options):
    # KNOWN BUG (ragmetrics/metrics.py, mrr): the error raised by reciprocal_rank for the
    # second query does not say which query it was, unlike mrr's own "pairs[1] must be a
    # (retrieved, relevant) pair" error. With many queries the user cannot find it.
    with pytest.raises((ValueError, TypeError), match=re.escape("pairs[1]")):
        mrr([(["a"], {"a"}), second_pair], **options)


# --- DCG and nDCG -----------------------------------------------------------------------

# Grades 3, 2, 1 for a, b, c; ranking c, a, x, b. Ranks: c=1, a=2, b=4.
GRADED = {"a": 3, "b": 2, "c": 1, "z": 0}
GRADED_RANKING = ["c", "a", "x", "b"]


def test_dcg_with_linear_gain_uses_the_grade():
    # k=3: c (1) at rank 1, a (3) at rank 2, x unjudged at rank 3; b (rank 4) is cut off.
    by_hand = 1 / math.log2(2) + 3 / math.log2(3) + 0 / math.log2(4)
    assert dcg_at_k(GRADED_RANKING, GRADED, 3) == exactly(by_hand)


def test_dcg_with_exponential_gain_uses_2_to_the_grade_minus_1():
    # Gains 2**1 - 1 = 1 for c and 2**3 - 1 = 7 for a.
    by_hand = 1 / math.log2(2) + 7 / math.log2(3)
    assert dcg_at_k(GRADED_RANKING, GRADED, 3, gain="exponential") == exactly(by_hand)


def test_dcg_binary_golden_set_has_gain_1_per_relevant_doc():
    # Relevant at ranks 1, 3 and 5: the article's refund example.
    by_hand = discount(1) + discount(3) + discount(5)
    assert dcg_at_k(["A", "B", "C", "D", "E"], {"A", "C", "E"}, 5) == exactly(by_hand)


def test_ndcg_with_linear_gain():
    # DCG@3 = 1/1 + 3/log2(3); ideal order a (3), b (2), c (1):
    # IDCG@3 = 3/1 + 2/log2(3) + 1/log2(4).
    dcg = 1 + 3 / math.log2(3)
    idcg = 3 + 2 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(GRADED_RANKING, GRADED, 3) == exactly(dcg / idcg)
    assert dcg / idcg == pytest.approx(0.6075, abs=5e-5)


def test_ndcg_with_exponential_gain_differs_from_linear():
    # Gains 7, 3, 1: DCG@3 = 1 + 7/log2(3); IDCG@3 = 7 + 3/log2(3) + 1/2.
    dcg = 1 + 7 / math.log2(3)
    idcg = 7 + 3 / math.log2(3) + 1 / math.log2(4)
    exponential = ndcg_at_k(GRADED_RANKING, GRADED, 3, gain="exponential")
    assert exponential == exactly(dcg / idcg)
    assert exponential == pytest.approx(0.5767, abs=5e-5)
    assert exponential != pytest.approx(ndcg_at_k(GRADED_RANKING, GRADED, 3))


@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_negative_grades_add_no_gain(gain):
    # h is "judged harmful" (-2) at rank 1; a (1) at rank 2. h adds 0, not a penalty,
    # and is left out of the ideal: IDCG = 1.
    relevant = {"a": 1, "h": -2}
    assert dcg_at_k(["h", "a"], relevant, 2, gain=gain) == exactly(discount(2))
    assert ndcg_at_k(["h", "a"], relevant, 2, gain=gain) == exactly(discount(2))


def test_ndcg_ideal_uses_every_judged_relevant_doc_even_unretrieved():
    # Only a was retrieved; b is relevant but missing. IDCG@5 = 1 + 1/log2(3), so
    # nDCG = 1 / (1 + 0.631) = 0.613, not the 1.0 an ideal built from the ranking gives.
    assert ndcg_at_k(["a", "x"], {"a", "b"}, 5) == exactly(1 / (1 + discount(2)))


def test_ndcg_ideal_is_cut_at_k():
    # Three relevant docs, k=1: the ideal top 1 holds one of them, and so does the ranking.
    assert ndcg_at_k(["a", "x"], {"a", "b", "c"}, 1) == 1.0
    # k=2: DCG = 1, IDCG = 1 + 1/log2(3).
    assert ndcg_at_k(["a", "x"], {"a", "b", "c"}, 2) == exactly(1 / (1 + discount(2)))


def test_ndcg_relevance_level_does_not_change_gains():
    # a (1) at rank 1, b (2) at rank 2. At relevance_level=2 only b "is relevant", yet
    # both grades stay gains (trec_eval): DCG = 1 + 2/log2(3), IDCG = 2 + 1/log2(3).
    relevant = {"a": 1, "b": 2}
    by_hand = (1 + 2 * discount(2)) / (2 + 1 * discount(2))
    assert ndcg_at_k(["a", "b"], relevant, 2) == exactly(by_hand)
    assert ndcg_at_k(["a", "b"], relevant, 2, relevance_level=2) == exactly(by_hand)


@pytest.mark.parametrize(
    ("empty_relevant", "expected"),
    [("skip", math.nan), ("article", 1.0)],
)
def test_ndcg_relevance_level_decides_whether_the_golden_set_is_empty(empty_relevant, expected):
    # a has grade 1; at relevance_level=2 no doc is relevant, so the empty policy applies.
    got = ndcg_at_k(["a"], {"a": 1}, 1, relevance_level=2, empty_relevant=empty_relevant)
    assert got == pytest.approx(expected, nan_ok=True)
    # At the default level the same query is not empty: nDCG is a plain 1.0.
    assert ndcg_at_k(["a"], {"a": 1}, 1, empty_relevant=empty_relevant) == 1.0


def test_ndcg_relevance_level_empty_golden_set_raises_under_error():
    with pytest.raises(ValueError, match="no relevant doc"):
        ndcg_at_k(["a"], {"a": 1}, 1, relevance_level=2, empty_relevant="error")


def test_ndcg_under_zero_is_0_when_the_ideal_dcg_is_0():
    # Only a judged-irrelevant doc: IDCG = 0, and the score is 0, not a division error.
    assert ndcg_at_k(["a"], {"a": 0}, 1) == 0.0
    assert ndcg_at_k(["a"], {"a": -1}, 1) == 0.0


def test_ndcg_fractional_grades():
    # Grades need not be integers: a (0.5) at rank 2, b (1.5) unretrieved.
    # DCG = 0.5/log2(3); IDCG = 1.5 + 0.5/log2(3).
    got = ndcg_at_k(["x", "a"], {"a": 0.5, "b": 1.5}, 2, relevance_level=0.5)
    assert got == exactly(0.5 * discount(2) / (1.5 + 0.5 * discount(2)))


# --- Average precision and R-precision --------------------------------------------------


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        # Relevant a, b, c at ranks 1, 3, 5; d never retrieved; R = 4.
        (None, (1 / 1 + 2 / 3 + 3 / 5) / 4),
        (5, (1 / 1 + 2 / 3 + 3 / 5) / 4),
        (4, (1 / 1 + 2 / 3) / 4),
        (3, (1 / 1 + 2 / 3) / 4),
        (2, (1 / 1) / 4),
        (1, (1 / 1) / 4),
    ],
)
def test_average_precision_with_cutoff_keeps_all_relevant_in_the_denominator(k, expected):
    assert average_precision(RANKING, GOLDEN, k) == exactly(expected)


def test_average_precision_of_a_late_single_hit():
    # One relevant doc at rank 4: AP = (1/4) / 1.
    assert average_precision(["w", "x", "y", "a"], {"a"}) == 1 / 4


def test_r_precision_is_precision_at_the_number_of_relevant_docs():
    # R = 3: top 3 is a, x, b, so 2 of 3.
    assert r_precision(["a", "x", "b", "c"], {"a", "b", "c"}) == exactly(2 / 3)
    # R = 5 with only one doc retrieved: 1 of the 5 top slots.
    assert r_precision(["a"], {"a", "b", "c", "d", "e"}) == exactly(1 / 5)


def test_r_precision_counts_only_docs_at_relevance_level():
    # At level 2, R = 1 (only b): the top 1 is a, not relevant at that level.
    assert r_precision(["a", "b"], {"a": 1, "b": 2}, relevance_level=2) == 0.0
    assert r_precision(["a", "b"], {"a": 1, "b": 2}) == 1.0


# --- relevance_level on the binary metrics ----------------------------------------------


def test_relevance_level_decides_which_graded_docs_count():
    # Grades a=1, b=2, c=3 at ranks 1, 2, 3. Level 2: b and c are relevant.
    relevant = {"a": 1, "b": 2, "c": 3}
    ranking = ["a", "b", "c"]
    assert recall_at_k(ranking, relevant, 2, relevance_level=2) == exactly(1 / 2)
    assert precision_at_k(ranking, relevant, 2, relevance_level=2) == exactly(1 / 2)
    assert reciprocal_rank(ranking, relevant, relevance_level=2) == 1 / 2
    assert average_precision(ranking, relevant, relevance_level=2) == exactly((1 / 2 + 2 / 3) / 2)
    assert hit_rate_at_k(ranking, relevant, 1, relevance_level=2) == 0.0
    # A grade of 0 is judged irrelevant at the default level 1.
    assert recall_at_k(["z", "a"], {"z": 0, "a": 1}, 1) == 0.0


# --- empty golden sets: every policy on every metric -----------------------------------

# What each metric scores on a query with no relevant doc, per policy. The article's code
# gives 1.0 for recall and nDCG ("nothing to find, nothing missed") and 0 elsewhere.
EMPTY_SCORES = {
    # metric: (zero, article)
    "recall": (0.0, 1.0),
    "precision": (0.0, 0.0),
    "hit_rate": (0.0, 0.0),
    "rr": (0.0, 0.0),
    "mrr": (0.0, 0.0),
    "ndcg": (0.0, 1.0),
    "ap": (0.0, 0.0),
    "r_precision": (0.0, 0.0),
}


@pytest.mark.parametrize("name", EMPTY_SCORES)
@pytest.mark.parametrize(
    "golden",
    [set(), {}, {"a": 0, "b": -1}, {"a": 0.5}],
    ids=["empty set", "empty dict", "judged irrelevant", "below level 1"],
)
def test_empty_golden_set_under_each_policy(name, golden):
    metric = ALL_METRICS_WITH_K3[name]
    zero, article = EMPTY_SCORES[name]
    ranking = ["a", "b", "c"]
    if name == "ndcg" and golden == {"a": 0.5}:
        # nDCG's gains ignore relevance_level (trec_eval): under "zero" a's grade 0.5 at
        # rank 1 is an ideal ranking. The other policies see an empty golden set.
        zero = 1.0
    assert metric(ranking, golden) == zero
    assert metric(ranking, golden, empty_relevant="zero") == zero
    assert metric(ranking, golden, empty_relevant="article") == article
    assert math.isnan(metric(ranking, golden, empty_relevant="skip"))
    with pytest.raises(ValueError, match="no relevant doc"):
        metric(ranking, golden, empty_relevant="error")


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
def test_unknown_empty_relevant_policy_is_named_in_the_error(name):
    with pytest.raises(ValueError, match=r"empty_relevant must be one of .*got 'ignore'"):
        ALL_METRICS_WITH_K3[name](["a"], {"a"}, empty_relevant="ignore")


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
def test_empty_relevant_policy_does_not_touch_a_query_with_relevant_docs(name):
    metric = ALL_METRICS_WITH_K3[name]
    scores = {
        p: metric(["a", "x"], {"a"}, empty_relevant=p) for p in ("zero", "article", "skip", "error")
    }
    assert len(set(scores.values())) == 1, scores


# --- duplicate ids ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
def test_duplicate_id_is_an_error_naming_the_id_and_its_rank(name):
    metric = ALL_METRICS_WITH_K3[name]
    with pytest.raises(
        ValueError,
        match=re.escape("doc id 'a' appears more than once in retrieved (again at rank 3)"),
    ):
        metric(["a", "x", "a"], {"a"})
    with pytest.raises(
        ValueError,
        match=re.escape("doc id 7 appears more than once in retrieved (again at rank 4)"),
    ):
        metric([1, 7, 2, 7], {7})


def test_keep_first_keeps_the_highest_ranked_copy():
    # ["x", "a", "x", "a"] becomes ["x", "a"]: a is at rank 2.
    ranking = ["x", "a", "x", "a"]
    assert reciprocal_rank(ranking, {"a"}, duplicates="keep_first") == 1 / 2
    # Dropping the second x moves b up from rank 3 to rank 2.
    assert reciprocal_rank(["x", "x", "b"], {"b"}, duplicates="keep_first") == 1 / 2


def test_keep_first_never_counts_a_doc_twice():
    # ["a", "a", "a"] is ["a"]: one hit, however many copies.
    ranking = ["a", "a", "a"]
    keep = {"duplicates": "keep_first"}
    assert recall_at_k(ranking, {"a", "b"}, 3, **keep) == exactly(1 / 2)
    assert precision_at_k(ranking, {"a", "b"}, 3, **keep) == exactly(1 / 3)
    assert average_precision(ranking, {"a", "b"}, **keep) == exactly((1 / 1) / 2)
    assert dcg_at_k(ranking, {"a", "b"}, 3, **keep) == 1.0
    # Counting each copy would give DCG = 1 + 1/log2(3) + 1/2 over an ideal of 1: 2.13.
    assert ndcg_at_k(ranking, {"a"}, 3, **keep) == 1.0
    assert r_precision(ranking, {"a", "b"}, **keep) == exactly(1 / 2)


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
def test_unknown_duplicates_policy_is_named_in_the_error(name):
    with pytest.raises(ValueError, match=r"duplicates must be one of .*got 'drop'"):
        ALL_METRICS_WITH_K3[name](["a"], {"a"}, duplicates="drop")


# --- validation: k ----------------------------------------------------------------------


@pytest.mark.parametrize("metric", K_TAKING)
@pytest.mark.parametrize(
    ("bad_k", "error", "message"),
    [
        (0, ValueError, "got 0"),
        (-1, ValueError, "got -1"),
        (np.int64(0), ValueError, "got np.int64(0)"),
        (1.5, TypeError, "got 1.5 (float)"),
        (2.0, TypeError, "got 2.0 (float)"),
        ("5", TypeError, "got '5' (str)"),
        (True, TypeError, "got True (bool)"),
    ],
)
def test_bad_k_is_rejected_and_named(metric, bad_k, error, message):
    with pytest.raises(error, match=re.escape(message)):
        metric(["a"], {"a"}, bad_k)


@pytest.mark.parametrize(
    ("metric", "whole", "top_4"),
    [
        (recall_at_k, 1.0, 0.0),
        (precision_at_k, 1 / 5, 0.0),  # the share of the 5 returned (trec_eval's set_P)
        (hit_rate_at_k, 1.0, 0.0),
        (ndcg_at_k, 1 / math.log2(6), 0.0),  # DCG 1/log2(6), ideal 1
        (dcg_at_k, 1 / math.log2(6), 0.0),
    ],
)
def test_k_none_reads_the_whole_ranking_everywhere(metric, whole, top_4):
    # The only relevant doc is at rank 5: found with k=None, missed with k=4.
    ranking = ["v", "w", "x", "y", "a"]
    assert metric(ranking, {"a"}, None) == pytest.approx(whole, abs=1e-15)
    assert metric(ranking, {"a"}) == metric(ranking, {"a"}, None)  # None is the default
    assert metric(ranking, {"a"}, 4) == top_4


@pytest.mark.parametrize("metric", K_OPTIONAL)
def test_k_none_means_the_whole_ranking(metric):
    # The only relevant doc is at rank 5: found with k=None, missed with k=4.
    ranking = ["v", "w", "x", "y", "a"]
    assert metric(ranking, {"a"}, None) == metric(ranking, {"a"}, 5) == 1 / 5
    assert metric(ranking, {"a"}, 4) == 0.0


@pytest.mark.parametrize("metric", K_TAKING)
@pytest.mark.parametrize("k", [np.int64(2), np.int32(2), np.uint8(2)])
def test_numpy_int_k_is_accepted(metric, k):
    ranking = ["x", "a", "b"]
    assert metric(ranking, {"a", "b"}, k) == metric(ranking, {"a", "b"}, 2)


# --- validation: relevance_level, gain --------------------------------------------------


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
@pytest.mark.parametrize(
    ("bad_level", "error", "message"),
    [
        (0, ValueError, "got 0"),
        (-1, ValueError, "got -1"),
        ("1", TypeError, "got '1'"),
        (math.nan, TypeError, "got nan"),
        (True, TypeError, "got True"),
        (None, TypeError, "got None"),
    ],
)
def test_bad_relevance_level_is_rejected_and_named(name, bad_level, error, message):
    with pytest.raises(error, match="relevance_level must be .*" + re.escape(message)):
        ALL_METRICS_WITH_K3[name](["a"], {"a"}, relevance_level=bad_level)


@pytest.mark.parametrize("metric", [dcg_at_k, ndcg_at_k])
def test_unknown_gain_is_named_in_the_error(metric):
    with pytest.raises(ValueError, match=r"gain must be one of .*got 'log'"):
        metric(["a"], {"a"}, 1, gain="log")


# --- validation: the golden set and the ranking -----------------------------------------


@pytest.mark.parametrize("name", ARTICLE_METRICS)
@pytest.mark.parametrize(
    "make_golden",
    [
        lambda: ["a", "c"],
        lambda: {"a", "c"},
        lambda: ("a", "c"),
        lambda: frozenset({"a", "c"}),
        lambda: {"a": 1, "c": 1},
        lambda: (doc for doc in ["a", "c"]),  # a fresh generator per call
    ],
    ids=["list", "set", "tuple", "frozenset", "dict", "generator"],
)
def test_golden_set_shapes_all_score_the_same(name, make_golden):
    # a and c relevant at ranks 1 and 3; b is not.
    metric = ALL_METRICS_WITH_K3[name]
    expected = metric(["a", "b", "c"], {"a", "c"})
    assert expected > 0
    assert metric(["a", "b", "c"], make_golden()) == expected


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
@pytest.mark.parametrize("golden", ["abc", b"abc"])
def test_golden_set_given_as_a_string_is_rejected(name, golden):
    # A str is iterable: "abc" would silently become {"a", "b", "c"}.
    with pytest.raises(TypeError, match=re.escape(f"got the string {golden!r}")):
        ALL_METRICS_WITH_K3[name](["a", "b", "c"], golden)


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
def test_golden_set_that_is_not_iterable_is_rejected(name):
    with pytest.raises(TypeError, match=r"relevant must be a set of ids .*got int"):
        ALL_METRICS_WITH_K3[name](["a"], 42)


@pytest.mark.parametrize(
    ("bad_grade", "message"),
    [("1", "got '1'"), (math.nan, "got nan"), (True, "got True"), (None, "got None")],
)
def test_bad_grade_names_the_doc_and_the_grade(bad_grade, message):
    with pytest.raises(TypeError, match=re.escape(f"grade of doc 'b' must be a number, {message}")):
        ndcg_at_k(["a"], {"a": 1, "b": bad_grade}, 1)


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
@pytest.mark.parametrize(
    ("ranking", "message"),
    [("abc", "got str 'abc'"), ({"a": 1.0}, "got dict"), (7, "got int")],
)
def test_ranking_that_is_not_a_list_of_ids_is_rejected(name, ranking, message):
    with pytest.raises(
        TypeError, match=re.escape(f"retrieved must be a list of ids in rank order, {message}")
    ):
        ALL_METRICS_WITH_K3[name](ranking, {"a"})


@pytest.mark.parametrize("name", ALL_METRICS_WITH_K3)
def test_str_ids_against_int_ids_is_an_error_naming_both(name):
    # "42" never equals 42, so every metric would be 0 without a word.
    metric = ALL_METRICS_WITH_K3[name]
    with pytest.raises(
        TypeError,
        match=re.escape("retrieved ids are str (e.g. '42') but relevant ids are int (e.g. 42)"),
    ):
        metric(["42"], {42})
    with pytest.raises(
        TypeError,
        match=re.escape("retrieved ids are int (e.g. 42) but relevant ids are str (e.g. '42')"),
    ):
        metric([42], {"42": 1})


def test_ids_of_mixed_kinds_are_fine_when_the_sides_share_a_kind():
    assert recall_at_k(["a", 42], {42, 7}, 2) == exactly(1 / 2)


def test_numpy_ids_match_python_ids():
    # np.arange gives np.int64 ids; they hash and compare equal to Python ints.
    assert recall_at_k(np.arange(5), {1, 3}, 2) == exactly(1 / 2)
    assert reciprocal_rank(np.array(["x", "a"]), {"a"}) == 1 / 2
