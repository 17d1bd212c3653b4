"""Every number the source article prints, recomputed by hand and checked against ragmetrics.

The article is /work/shared/article/retrieval-metrics.txt. Each test pins one of its claims
and is named after it. The hand arithmetic is written out with ``math.log2`` so a reader can
follow it line by line; the library must agree with it exactly (up to float rounding), and
the article's printed, rounded number must agree with it at the precision the article prints.

Where the article is wrong, the test pins the right value, says why in a comment, and asserts
that the article's printed value is *not* what the metric gives, so the erratum stays visible:

- the opening summary defines Recall@k as "did we find at least one?", which is the hit rate;
- the nDCG section's "Recall@10 = 0.9 but all hits at rank 1-2" cannot happen;
- the k trade-off listing is two ids short (its rank 9-10 chunks sit at ranks 7-8) and stops
  before rank 23; its nDCG@5 (0.63) and nDCG@25 (0.78) are wrong;
- the cancellation example discounts chunk 19 (rank 6) by log2(6) instead of log2(7), so its
  DCG (1.887) and nDCG@10 (0.885, "0.89") are wrong;
- the article's compute_ndcg_at_k counts a repeated id twice and can exceed 1.
"""

from __future__ import annotations

import math

import pytest

from ragmetrics import (
    dcg_at_k,
    hit_rate_at_k,
    mrr,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)


def as_printed(printed: float, decimals: int):
    """The article's rounded number as a tolerance: any value that rounds to it matches."""
    return pytest.approx(printed, abs=0.5 * 10**-decimals)


def exactly(value: float):
    """A hand-computed value; the tolerance only absorbs float summation order."""
    return pytest.approx(value, rel=1e-12, abs=1e-15)


def discount(rank: int) -> float:
    """The DCG discount of a relevant doc at 1-based ``rank``: 1 / log2(rank + 1)."""
    return 1 / math.log2(rank + 1)


# --------------------------------------------------------------------------------------
# The article's own code, copied verbatim (docstrings trimmed). It is an independent
# oracle: it agrees with ragmetrics everywhere below, including where the article's
# prose numbers do not.
# --------------------------------------------------------------------------------------


def article_compute_recall_at_k(retrieved_chunk_ids, relevant_chunk_ids, k):
    if not relevant_chunk_ids:
        return 1.0  # edge case: no relevant chunks means perfect recall

    top_k = set(retrieved_chunk_ids[:k])
    hits = len(top_k & relevant_chunk_ids)  # intersection
    return hits / len(relevant_chunk_ids)


def article_compute_precision_at_k(retrieved_chunk_ids, relevant_chunk_ids, k):
    top_k = set(retrieved_chunk_ids[:k])
    hits = len(top_k & relevant_chunk_ids)
    return hits / k


def article_compute_mrr(queries_results, k):
    rr_sum = 0
    for retrieved_chunk_ids, relevant_chunk_ids in queries_results:
        for rank, chunk_id in enumerate(retrieved_chunk_ids[:k], start=1):
            if chunk_id in relevant_chunk_ids:
                rr_sum += 1 / rank
                break
        # if no relevant chunk found, contributes 0 to the sum

    return rr_sum / len(queries_results)


def article_compute_ndcg_at_k(retrieved_chunk_ids, relevant_chunk_ids, k):
    # Compute actual DCG
    dcg = 0
    for rank, chunk_id in enumerate(retrieved_chunk_ids[:k], start=1):
        if chunk_id in relevant_chunk_ids:
            # Discount by log of (rank + 1)
            dcg += 1 / math.log2(rank + 1)

    # Compute ideal DCG (all relevant docs ranked first)
    ideal_dcg = 0
    for rank in range(1, min(len(relevant_chunk_ids) + 1, k + 1)):
        ideal_dcg += 1 / math.log2(rank + 1)

    # Avoid division by zero
    if ideal_dcg == 0:
        return 1.0 if dcg == 0 else 0.0

    return dcg / ideal_dcg


# --------------------------------------------------------------------------------------
# The article's examples, as module-level constants. Where the article does not list the
# ids, the constant builds a ranking with exactly the properties the article states.
# --------------------------------------------------------------------------------------

# "Your golden set contains a query with 3 relevant chunks. You retrieve the top 10
# results. If 2 of those 3 chunks appear in the top 10, your Recall@10 = 2/3 ≈ 0.67."
RECALL_EXAMPLE_RELEVANT = {"policy_1", "policy_2", "policy_3"}
RECALL_EXAMPLE_RETRIEVED = [
    "policy_1", "noise_2", "noise_3", "policy_2", "noise_5",
    "noise_6", "noise_7", "noise_8", "noise_9", "noise_10",
]  # fmt: skip

# "You retrieve top 10 results. 3 of them are relevant. Precision@10 = 3/10 = 0.30."
PRECISION_EXAMPLE_RELEVANT = {"good_1", "good_4", "good_7"}
PRECISION_EXAMPLE_RETRIEVED = [
    "good_1", "noise_2", "noise_3", "good_4", "noise_5",
    "noise_6", "good_7", "noise_8", "noise_9", "noise_10",
]  # fmt: skip

# The precision trap: "A system that retrieves only 1 chunk, and that chunk is relevant,
# has Precision@1 = 1.0 (perfect!), but Recall@1 = 1/50 = 0.02 if there were 50."
PRECISION_TRAP_RELEVANT = {f"chunk_{i}" for i in range(1, 51)}
PRECISION_TRAP_RETRIEVED = ["chunk_1"]

# The recall trap: "A system that returns all 1000 chunks would have Recall@1000 = 1.0,
# but Recall@5 might be 0.6." A corpus of 1000 chunks, 5 relevant, 3 of them in the top 5.
RECALL_TRAP_CORPUS = [f"chunk_{i}" for i in range(1, 1001)]
RECALL_TRAP_RELEVANT = {"chunk_1", "chunk_2", "chunk_3", "chunk_500", "chunk_1000"}

# "What is the refund policy?"
REFUND_RETRIEVED = ["chunk_A", "chunk_B", "chunk_C", "chunk_D", "chunk_E"]
REFUND_RELEVANT = {"chunk_A", "chunk_C", "chunk_E"}

# "Choosing k: the hidden cost". The article's listing, exactly as printed:
K_TRADEOFF_RETRIEVED_AS_PRINTED = [
    # rank 1-2: relevant
    "chunk_42", "chunk_88",
    # rank 3-8: irrelevant
    "chunk_101", "chunk_203", "chunk_404", "chunk_505",
    # rank 9-10: relevant
    "chunk_19", "chunk_77",
    # rank 11+: irrelevant
    # ...
]  # fmt: skip
# ... is two ids short (4 ids for "rank 3-8") and stops before rank 23, where its comments
# put chunk_156. The ranking its comments and numbers describe, with filler ids:
K_TRADEOFF_RETRIEVED = [
    # rank 1-2: relevant
    "chunk_42", "chunk_88",
    # rank 3-8: irrelevant (the article's four ids, then two fillers)
    "chunk_101", "chunk_203", "chunk_404", "chunk_505", "filler_7", "filler_8",
    # rank 9-10: relevant
    "chunk_19", "chunk_77",
    # rank 11-22: irrelevant
    *[f"filler_{rank}" for rank in range(11, 23)],
    # rank 23: "missed chunk_156 which is at rank 23"
    "chunk_156",
]  # fmt: skip
K_TRADEOFF_RELEVANT = {"chunk_42", "chunk_88", "chunk_19", "chunk_77", "chunk_156"}
# Ideal DCG with 5 relevant chunks, for every k >= 5: all five at ranks 1-5.
K_TRADEOFF_IDEAL_DCG = (
    1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5) + 1 / math.log2(6)
)  # = 1 + 0.631 + 0.5 + 0.431 + 0.387 = 2.948

# "How do I cancel my subscription?": relevant chunks 42, 88 and 19 at ranks 1, 3 and 6;
# "(ranks 8-15 irrelevant)", so the top 15 are listed with filler ids 908..915.
CANCELLATION_RELEVANT = {42, 88, 19}
CANCELLATION_RETRIEVED = [42, 99, 88, 105, 203, 19, 144, *[900 + rank for rank in range(8, 16)]]
CANCELLATION_IDEAL_DCG = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)  # 2.131


def test_constants_put_each_chunk_at_the_rank_the_article_says():
    assert len(RECALL_EXAMPLE_RETRIEVED) == 10
    assert len(RECALL_EXAMPLE_RELEVANT & set(RECALL_EXAMPLE_RETRIEVED)) == 2
    assert len(PRECISION_EXAMPLE_RELEVANT & set(PRECISION_EXAMPLE_RETRIEVED)) == 3
    ranks = {doc: rank for rank, doc in enumerate(K_TRADEOFF_RETRIEVED, start=1)}
    assert [ranks[d] for d in ("chunk_42", "chunk_88", "chunk_19", "chunk_77")] == [1, 2, 9, 10]
    assert ranks["chunk_156"] == 23
    assert len(set(K_TRADEOFF_RETRIEVED)) == len(K_TRADEOFF_RETRIEVED) == 23
    ranks = {doc: rank for rank, doc in enumerate(CANCELLATION_RETRIEVED, start=1)}
    assert [ranks[42], ranks[88], ranks[19]] == [1, 3, 6]
    assert len(set(CANCELLATION_RETRIEVED)) == len(CANCELLATION_RETRIEVED) == 15


# --- Opening summary --------------------------------------------------------------------


def test_opening_summary_recall_definition_is_hit_rate():
    # ERRATUM. The summary defines Recall@k as "Of all the relevant chunks that exist, did
    # we find at least one in the top k?". That is the hit rate (trec_eval's success@k).
    # The article's own definition two paragraphs later, and its code, are the fraction
    # found. The cancellation query at k=1 separates them: only chunk 42 (of 3) is there.
    hit_rate_at_1 = 1.0  # at least one relevant chunk in the top 1
    recall_at_1 = 1 / 3  # one of three relevant chunks in the top 1
    assert hit_rate_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 1) == hit_rate_at_1
    assert recall_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 1) == recall_at_1
    assert recall_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 1) != hit_rate_at_1


def test_opening_summary_mrr_is_not_the_reciprocal_of_the_average_first_rank():
    # Clarification. The summary glosses MRR as "On average, how far down the ranked list
    # was the first relevant chunk?". MRR averages 1/rank, not rank: first hits at ranks
    # 1 and 3 give MRR = (1/1 + 1/3) / 2 = 0.667, while the average first rank is 2,
    # whose reciprocal is 0.5. One deep miss costs MRR at most 1/1 per query.
    pairs = [(["hit", "x", "y"], {"hit"}), (["x", "y", "hit"], {"hit"})]
    mean_reciprocal_rank = (1 / 1 + 1 / 3) / 2
    reciprocal_of_mean_rank = 1 / ((1 + 3) / 2)
    assert mrr(pairs) == exactly(mean_reciprocal_rank)
    assert mrr(pairs) != pytest.approx(reciprocal_of_mean_rank)


# --- Recall@k ---------------------------------------------------------------------------


def test_recall_at_10_is_two_thirds():
    # "If 2 of those 3 chunks appear in the top 10, your Recall@10 = 2/3 ≈ 0.67."
    by_hand = 2 / 3
    got = recall_at_k(RECALL_EXAMPLE_RETRIEVED, RECALL_EXAMPLE_RELEVANT, 10)
    assert got == exactly(by_hand)
    assert got == as_printed(0.67, 2)
    assert article_compute_recall_at_k(RECALL_EXAMPLE_RETRIEVED, RECALL_EXAMPLE_RELEVANT, 10) == got


def test_recall_trap_recall_at_1000_is_1_while_recall_at_5_is_0_6():
    # "A system that returns all 1000 chunks would have Recall@1000 = 1.0, but Recall@5
    # might be 0.6": returning everything finds everything; 3 of 5 relevant in the top 5.
    assert recall_at_k(RECALL_TRAP_CORPUS, RECALL_TRAP_RELEVANT, 1000) == 5 / 5
    assert recall_at_k(RECALL_TRAP_CORPUS, RECALL_TRAP_RELEVANT, 5) == exactly(3 / 5)
    assert recall_at_k(RECALL_TRAP_CORPUS, RECALL_TRAP_RELEVANT, 5) == as_printed(0.6, 1)


def test_recall_of_a_query_with_1_relevant_chunk_is_0_or_1():
    # "A query with 1 relevant chunk can't drop below Recall@k = 0 or above 1.0" is true of
    # every query; the point it makes is that such a query's recall is all or nothing.
    relevant = {"answer"}
    recalls = {
        recall_at_k([f"noise_{i}" for i in range(1, rank)] + ["answer"], relevant, k)
        for rank in range(1, 8)
        for k in range(1, 8)
    }
    assert recalls == {0.0, 1.0}


def test_recall_with_50_relevant_chunks_is_capped_by_k():
    # "A query with 50 relevant chunks is much harder to satisfy fully (you need many top-k
    # slots)": even a perfect top 10 finds at most 10 of 50.
    perfect_top_10 = [f"chunk_{i}" for i in range(1, 11)]
    assert recall_at_k(perfect_top_10, PRECISION_TRAP_RELEVANT, 10) == exactly(10 / 50)


# --- Precision@k ------------------------------------------------------------------------


def test_precision_at_10_is_three_tenths():
    # "3 of them are relevant. Precision@10 = 3/10 = 0.30. (... 70% ... is noise.)"
    by_hand = 3 / 10
    got = precision_at_k(PRECISION_EXAMPLE_RETRIEVED, PRECISION_EXAMPLE_RELEVANT, 10)
    assert got == exactly(by_hand)
    assert got == as_printed(0.30, 2)
    assert 1 - got == exactly(0.70)  # the noise share
    assert (
        article_compute_precision_at_k(PRECISION_EXAMPLE_RETRIEVED, PRECISION_EXAMPLE_RELEVANT, 10)
        == got
    )


def test_precision_trap_precision_at_1_is_perfect_while_recall_at_1_is_0_02():
    # "Precision@1 = 1.0 (perfect!), but Recall@1 = 1/50 = 0.02 ... You missed 98%."
    precision = precision_at_k(PRECISION_TRAP_RETRIEVED, PRECISION_TRAP_RELEVANT, 1)
    recall = recall_at_k(PRECISION_TRAP_RETRIEVED, PRECISION_TRAP_RELEVANT, 1)
    assert precision == 1 / 1
    assert recall == exactly(1 / 50)
    assert recall == as_printed(0.02, 2)
    assert 1 - recall == exactly(0.98)


# --- MRR --------------------------------------------------------------------------------


def test_reciprocal_rank_of_first_hit_at_rank_3_is_one_third():
    # "if the first relevant chunk appears at rank 3, the reciprocal rank is 1/3 ≈ 0.33."
    retrieved = ["noise_1", "noise_2", "answer", "noise_4"]
    got = reciprocal_rank(retrieved, {"answer"})
    assert got == exactly(1 / 3)
    assert got == as_printed(0.33, 2)
    assert mrr([(retrieved, {"answer"})]) == got
    assert article_compute_mrr([(retrieved, {"answer"})], k=10) == exactly(got)


def test_reciprocal_rank_of_first_hit_at_rank_1_is_1():
    # "If it's at rank 1, MRR contribution is 1/1 = 1.0."
    assert reciprocal_rank(["answer", "noise_2"], {"answer"}) == 1 / 1


def test_reciprocal_rank_is_0_when_no_relevant_chunk_is_in_the_top_k():
    # "If no relevant chunk is found in the top k, the contribution is 0." The answer at
    # rank 3 is outside a search depth of k=2.
    retrieved = ["noise_1", "noise_2", "answer"]
    assert reciprocal_rank(retrieved, {"answer"}, k=2) == 0.0
    assert article_compute_mrr([(retrieved, {"answer"})], k=2) == 0.0


def test_mrr_is_1_when_every_first_hit_is_at_rank_1():
    # "A system where all relevant results are at position 1 has MRR = 1.0."
    pairs = [(["a", "x"], {"a"}), (["b", "y", "z"], {"b", "z"}), (["c"], {"c"})]
    assert mrr(pairs) == 1.0


def test_mrr_of_scattered_first_hits_at_ranks_5_10_15_is_lower():
    # "relevant results are scattered (rank 5, 10, 15 on different queries) has a lower,
    # more honest MRR": (1/5 + 1/10 + 1/15) / 3 = 0.122.
    def first_hit_at(rank):
        return ([f"noise_{i}" for i in range(1, rank)] + ["answer"], {"answer"})

    pairs = [first_hit_at(5), first_hit_at(10), first_hit_at(15)]
    by_hand = (1 / 5 + 1 / 10 + 1 / 15) / 3
    assert mrr(pairs) == exactly(by_hand)
    assert mrr(pairs) == as_printed(0.122, 3)
    assert article_compute_mrr(pairs, k=15) == exactly(by_hand)


def test_mrr_sees_only_the_first_of_30_retrieved_relevant_chunks():
    # "If there are 50 relevant chunks and you retrieve 30 of them, MRR only 'sees' which
    # rank the first one came in at, and ignores the other 29."
    first_at_rank_2 = ["noise", "chunk_1"]
    thirty_found = first_at_rank_2 + [f"chunk_{i}" for i in range(2, 31)]
    assert len(set(thirty_found) & PRECISION_TRAP_RELEVANT) == 30
    assert reciprocal_rank(thirty_found, PRECISION_TRAP_RELEVANT) == 1 / 2
    assert reciprocal_rank(first_at_rank_2, PRECISION_TRAP_RELEVANT) == 1 / 2


# --- nDCG -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "printed_divisor", "decimals"),
    [
        (1, 1, 0),  # "position 1 has no discount (log₂(2) = 1)"
        (2, 1.58, 2),  # "position 2 is divided by log₂(3) ≈ 1.58"
        (10, 3.46, 2),  # "position 10 is divided by log₂(11) ≈ 3.46"
    ],
)
def test_log2_discount_of_position(rank, printed_divisor, decimals):
    # One relevant chunk at ``rank``: its DCG is 1 / log2(rank + 1).
    retrieved = [f"noise_{i}" for i in range(1, rank)] + ["answer"]
    divisor = math.log2(rank + 1)
    assert divisor == as_printed(printed_divisor, decimals)
    assert dcg_at_k(retrieved, {"answer"}, rank) == exactly(1 / divisor)


def test_refund_policy_dcg_at_5_is_1_89():
    # DCG = 1/log2(2) + 0/log2(3) + 1/log2(4) + 0/log2(5) + 1/log2(6)
    #     = 1/1 + 0 + 1/2 + 0 + 1/2.58 = 1 + 0 + 0.5 + 0 + 0.39 = 1.89
    assert math.log2(6) == as_printed(2.58, 2)
    assert 1 / math.log2(6) == as_printed(0.39, 2)
    by_hand = 1 / math.log2(2) + 0 / math.log2(3) + 1 / math.log2(4) + 0 + 1 / math.log2(6)
    got = dcg_at_k(REFUND_RETRIEVED, REFUND_RELEVANT, 5)
    assert got == exactly(by_hand)
    assert got == as_printed(1.89, 2)


def test_refund_policy_ideal_dcg_at_5_is_2_13():
    # Ideal DCG (3 relevant chunks first) = 1/log2(2) + 1/log2(3) + 1/log2(4)
    #                                    = 1 + 0.63 + 0.5 = 2.13
    assert 1 / math.log2(3) == as_printed(0.63, 2)
    by_hand = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    ideal_ranking = ["chunk_A", "chunk_C", "chunk_E", "chunk_B", "chunk_D"]
    got = dcg_at_k(ideal_ranking, REFUND_RELEVANT, 5)
    assert got == exactly(by_hand)
    assert got == as_printed(2.13, 2)
    # ndcg_at_k divides by the same ideal.
    dcg = dcg_at_k(REFUND_RETRIEVED, REFUND_RELEVANT, 5)
    assert dcg / ndcg_at_k(REFUND_RETRIEVED, REFUND_RELEVANT, 5) == exactly(by_hand)


def test_refund_policy_ndcg_at_5_is_0_89():
    # nDCG@5 = 1.89 / 2.13 ≈ 0.89 (exactly 1.8869 / 2.1309 = 0.8855)
    dcg = 1 / math.log2(2) + 1 / math.log2(4) + 1 / math.log2(6)
    ideal = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    got = ndcg_at_k(REFUND_RETRIEVED, REFUND_RELEVANT, 5)
    assert got == exactly(dcg / ideal)
    assert got == as_printed(0.89, 2)
    assert article_compute_ndcg_at_k(REFUND_RETRIEVED, REFUND_RELEVANT, 5) == exactly(got)


def test_ndcg_recall_at_10_of_1_with_the_chunk_at_rank_10_is_low():
    # "A system with Recall@10 = 1.0 but all relevant chunks at rank 10 has low nDCG": one
    # relevant chunk (only one fits at rank 10): nDCG@10 = (1/log2(11)) / (1/log2(2)) = 0.289.
    retrieved = [f"noise_{i}" for i in range(1, 10)] + ["answer"]
    assert recall_at_k(retrieved, {"answer"}, 10) == 1.0
    assert ndcg_at_k(retrieved, {"answer"}, 10) == exactly(1 / math.log2(11))


def test_ndcg_recall_at_10_of_0_9_with_all_hits_at_rank_1_2_is_impossible():
    # ERRATUM. "a system with Recall@10 = 0.9 but all hits at rank 1-2 has high nDCG" cannot
    # happen: ranks 1-2 hold at most 2 hits, and hits/R = 0.9 = 9/10 needs 9 hits (10h = 9R
    # makes h a multiple of 9). Every golden-set size up to 100 with 1 or 2 hits at ranks
    # 1-2 misses 0.9. What the article means: fewer found, ranked first, e.g. 1 of 2
    # relevant at rank 1 (Recall@10 = 0.5) has nDCG@10 = 1 / (1 + 1/log2(3)) = 0.613,
    # above the 0.289 of the previous test.
    for num_relevant in range(1, 101):
        relevant = {f"rel_{i}" for i in range(1, num_relevant + 1)}
        for hits in (1, 2):
            if hits > num_relevant:
                continue
            top_10 = [f"rel_{i}" for i in range(1, hits + 1)]
            top_10 += [f"noise_{i}" for i in range(hits + 1, 11)]
            assert recall_at_k(top_10, relevant, 10) != pytest.approx(0.9)
    half_found_first = ["rel_1"] + [f"noise_{i}" for i in range(2, 11)]
    assert recall_at_k(half_found_first, {"rel_1", "rel_2"}, 10) == 0.5
    assert ndcg_at_k(half_found_first, {"rel_1", "rel_2"}, 10) == exactly(
        1 / (1 + 1 / math.log2(3))
    )


# --- Choosing k: the k trade-off scenario ----------------------------------------------


def test_k_tradeoff_printed_list_puts_the_rank_9_10_chunks_at_ranks_7_8():
    # ERRATUM. The listing gives four ids for "rank 3-8", so chunk_19 and chunk_77 land at
    # ranks 7-8, not 9-10, and nDCG@10 of that list is 0.773, not the printed 0.75, which
    # is right for ranks 9-10 (next test). chunk_156 ("at rank 23") is not listed at all.
    printed = K_TRADEOFF_RETRIEVED_AS_PRINTED
    assert printed.index("chunk_19") + 1 == 7
    assert printed.index("chunk_77") + 1 == 8
    dcg = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(8) + 1 / math.log2(9)
    got = ndcg_at_k(printed, K_TRADEOFF_RELEVANT, 10)
    assert got == exactly(dcg / K_TRADEOFF_IDEAL_DCG)
    assert got != as_printed(0.75, 2)
    assert recall_at_k(printed, K_TRADEOFF_RELEVANT, 25) == 4 / 5  # not the printed 1.00


@pytest.mark.parametrize(
    ("k", "by_hand", "printed"),
    [
        pytest.param(5, 2 / 5, 0.40, id="Recall@5 = 2/5 (only top 2 relevant chunks)"),
        pytest.param(10, 4 / 5, 0.80, id="Recall@10 = 4/5 (missed chunk_156 at rank 23)"),
        pytest.param(20, 4 / 5, 0.80, id="Recall@20 = 4/5 (still missed chunk_156)"),
        pytest.param(25, 5 / 5, 1.00, id="Recall@25 = 5/5 (all relevant chunks found)"),
    ],
)
def test_k_tradeoff_recall(k, by_hand, printed):
    got = recall_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, k)
    assert got == exactly(by_hand)
    assert got == as_printed(printed, 2)
    assert article_compute_recall_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, k) == got


@pytest.mark.parametrize(
    ("k", "by_hand", "printed", "noise"),
    [
        pytest.param(5, 2 / 5, 0.40, 0.60, id="Precision@5 = 2/5 (60% noise)"),
        pytest.param(10, 4 / 10, 0.40, 0.60, id="Precision@10 = 4/10 (60% noise still)"),
        pytest.param(20, 4 / 20, 0.20, 0.80, id="Precision@20 = 4/20 (80% noise)"),
    ],
)
def test_k_tradeoff_precision(k, by_hand, printed, noise):
    got = precision_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, k)
    assert got == exactly(by_hand)
    assert got == as_printed(printed, 2)
    assert 1 - got == exactly(noise)
    assert article_compute_precision_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, k) == got


def test_k_tradeoff_mrr_is_1():
    # "MRR = 1/1 = 1.0  # first relevant at rank 1"
    assert mrr([(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT)]) == 1 / 1
    assert reciprocal_rank(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT) == 1 / 1


def test_k_tradeoff_ndcg_at_5_is_0_553_not_0_63():
    # ERRATUM. The top 5 holds chunk_42 and chunk_88 at ranks 1-2:
    #   DCG@5 = 1/log2(2) + 1/log2(3) = 1 + 0.631 = 1.631.
    # The ideal top 5 holds all five relevant chunks:
    #   IDCG@5 = 1/log2(2) + ... + 1/log2(6) = 2.948, so nDCG@5 = 1.631 / 2.948 = 0.553.
    # The printed 0.63 matches no reading of the example; the article's own code agrees
    # with 0.553.
    dcg = 1 / math.log2(2) + 1 / math.log2(3)
    got = ndcg_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, 5)
    assert got == exactly(dcg / K_TRADEOFF_IDEAL_DCG)
    assert got == as_printed(0.553, 3)
    assert got != as_printed(0.63, 2)
    assert article_compute_ndcg_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, 5) == exactly(got)


def test_k_tradeoff_ndcg_at_10_is_0_75():
    # DCG@10 = 1/log2(2) + 1/log2(3) + 1/log2(10) + 1/log2(11)
    #        = 1 + 0.631 + 0.301 + 0.289 = 2.221;  2.221 / 2.948 = 0.753
    dcg = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(10) + 1 / math.log2(11)
    got = ndcg_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, 10)
    assert got == exactly(dcg / K_TRADEOFF_IDEAL_DCG)
    assert got == as_printed(0.75, 2)
    assert article_compute_ndcg_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, 10) == exactly(got)


def test_k_tradeoff_ndcg_at_25_is_0_827_not_0_78():
    # ERRATUM. chunk_156 at rank 23 adds 1/log2(24) = 0.218 to DCG@10:
    #   DCG@25 = 2.221 + 0.218 = 2.439;  IDCG@25 = IDCG@5 = 2.948 (only 5 relevant)
    #   nDCG@25 = 2.439 / 2.948 = 0.827, not the printed 0.78.
    dcg = (
        1 / math.log2(2)
        + 1 / math.log2(3)
        + 1 / math.log2(10)
        + 1 / math.log2(11)
        + 1 / math.log2(24)
    )
    got = ndcg_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, 25)
    assert got == exactly(dcg / K_TRADEOFF_IDEAL_DCG)
    assert got == as_printed(0.827, 3)
    assert got != as_printed(0.78, 2)
    assert article_compute_ndcg_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, 25) == exactly(got)


# --- The complete worked example: "How do I cancel my subscription?" --------------------


def test_cancellation_recall_at_5_is_two_thirds():
    # "recall_at_5 = 2 / 3  # chunks 42, 88 found; missing 19  # = 0.67"
    got = recall_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 5)
    assert got == exactly(2 / 3)
    assert got == as_printed(0.67, 2)


def test_cancellation_recall_at_10_is_1():
    # "recall_at_10 = 3 / 3  # all three found by rank 6  # = 1.0"
    assert recall_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 10) == 3 / 3
    assert recall_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 6) == 3 / 3


def test_cancellation_answerable_from_top_6_not_top_5():
    # "The query can be answered from the top 5-6 chunks": all three relevant chunks are in
    # the top 6; the top 5 misses chunk 19.
    assert recall_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 6) == 1.0
    assert recall_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 5) == exactly(2 / 3)


def test_cancellation_precision_at_5_is_0_40():
    # "precision_at_5 = 2 / 5  # ranks 1 and 3 are relevant; 3 are not  # = 0.40"
    got = precision_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 5)
    assert got == exactly(2 / 5)
    assert got == as_printed(0.40, 2)


def test_cancellation_precision_at_10_is_0_30():
    # "precision_at_10 = 3 / 10  # = 0.30"; "70% of retrieved chunks are noise"
    got = precision_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 10)
    assert got == exactly(3 / 10)
    assert got == as_printed(0.30, 2)
    assert 1 - got == exactly(0.70)


def test_cancellation_mrr_is_1():
    # "mrr = 1 / 1  # first relevant is at rank 1  # = 1.0"
    assert mrr([(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT)]) == 1 / 1
    assert article_compute_mrr([(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT)], k=10) == 1.0


def test_cancellation_dcg_article_used_wrong_discount():
    # ERRATUM. The article writes dcg = 1/log2(2) + 1/log2(4) + 1/log2(6) = 1.887, the
    # discounts of ranks 1, 3 and 5 (copied from the refund example). Chunk 19 is at rank
    # 6, whose discount is log2(6 + 1) = log2(7):
    #   DCG = 1/log2(2) + 1/log2(4) + 1/log2(7) = 1 + 0.5 + 0.356 = 1.856.
    assert 1 / math.log2(7) == as_printed(0.356, 3)
    by_hand = 1 / math.log2(2) + 1 / math.log2(4) + 1 / math.log2(7)
    got = dcg_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 10)
    assert got == exactly(by_hand)
    assert got == as_printed(1.856, 3)
    assert got != as_printed(1.887, 3)
    # The printed 1.887 is the DCG the query would have with chunk 19 at rank 5.
    chunk_19_at_rank_5 = [42, 99, 88, 105, 19, 203, 144]
    assert dcg_at_k(chunk_19_at_rank_5, CANCELLATION_RELEVANT, 10) == as_printed(1.887, 3)


def test_cancellation_ideal_dcg_is_2_131():
    # "ideal_dcg = 1/log2(2) + 1/log2(3) + 1/log2(4) = 1 + 0.631 + 0.5 = 2.131"
    assert 1 / math.log2(3) == as_printed(0.631, 3)
    ideal_ranking = [42, 88, 19, 99, 105, 203, 144]
    got = dcg_at_k(ideal_ranking, CANCELLATION_RELEVANT, 10)
    assert got == exactly(CANCELLATION_IDEAL_DCG)
    assert got == as_printed(2.131, 3)


def test_cancellation_ndcg_at_10_article_used_wrong_discount():
    # ERRATUM. With chunk 19 discounted by log2(7) (previous test), nDCG@10 =
    # 1.856 / 2.131 = 0.871, not the printed 0.885, nor the "nDCG@10 = 0.89" of the
    # Interpretation (0.87 at two decimals). The article's own code agrees with 0.871.
    dcg = 1 / math.log2(2) + 1 / math.log2(4) + 1 / math.log2(7)
    got = ndcg_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 10)
    assert got == exactly(dcg / CANCELLATION_IDEAL_DCG)
    assert got == as_printed(0.871, 3)
    assert got != as_printed(0.885, 3)
    assert got != as_printed(0.89, 2)
    assert got == as_printed(0.87, 2)
    article_code = article_compute_ndcg_at_k(CANCELLATION_RETRIEVED, CANCELLATION_RELEVANT, 10)
    assert article_code == exactly(got)


# --- The article's code: duplicates and the empty golden set ----------------------------


def test_article_code_ndcg_exceeds_1_when_an_id_is_retrieved_twice():
    # ERRATUM in the article's code. compute_ndcg_at_k promises "nDCG@k (0 to 1)", but it
    # scores every copy of a repeated id: ["A", "A"] gives DCG = 1/log2(2) + 1/log2(3) =
    # 1.631 over an ideal of 1/log2(2) = 1. (Its recall and precision take set(top_k), so
    # they count the copy once.) ragmetrics refuses the ranking by default, and with
    # duplicates="keep_first" scores the first copy only.
    retrieved, relevant = ["chunk_A", "chunk_A"], {"chunk_A"}
    assert article_compute_ndcg_at_k(retrieved, relevant, 2) == exactly(1 + 1 / math.log2(3))
    assert article_compute_ndcg_at_k(retrieved, relevant, 2) > 1
    with pytest.raises(ValueError, match="'chunk_A' appears more than once"):
        ndcg_at_k(retrieved, relevant, 2)
    assert ndcg_at_k(retrieved, relevant, 2, duplicates="keep_first") == 1.0


def test_article_code_empty_golden_set_recall_and_ndcg_are_1_precision_and_mrr_are_0():
    # The article's functions on a query with no relevant chunk: compute_recall_at_k
    # returns 1.0 ("no relevant chunks means perfect recall"); compute_ndcg_at_k returns
    # 1.0 (ideal DCG 0 and DCG 0); precision is 0 / k; MRR finds no first hit, so 0.
    # empty_relevant="article" reproduces exactly that; the default ("zero", trec_eval)
    # scores every metric 0 instead, so an unanswerable query never flatters a retriever.
    retrieved, nothing = ["chunk_1", "chunk_2", "chunk_3"], set()
    assert article_compute_recall_at_k(retrieved, nothing, 3) == 1.0
    assert article_compute_ndcg_at_k(retrieved, nothing, 3) == 1.0
    assert article_compute_precision_at_k(retrieved, nothing, 3) == 0.0
    assert article_compute_mrr([(retrieved, nothing)], k=3) == 0.0

    article = {"empty_relevant": "article"}
    assert recall_at_k(retrieved, nothing, 3, **article) == 1.0
    assert ndcg_at_k(retrieved, nothing, 3, **article) == 1.0
    assert precision_at_k(retrieved, nothing, 3, **article) == 0.0
    assert reciprocal_rank(retrieved, nothing, 3, **article) == 0.0
    assert mrr([(retrieved, nothing)], 3, **article) == 0.0
    assert hit_rate_at_k(retrieved, nothing, 3, **article) == 0.0

    assert recall_at_k(retrieved, nothing, 3) == 0.0
    assert ndcg_at_k(retrieved, nothing, 3) == 0.0


# --- issue 17: the errata the notebooks add (teaching.errata numbers them) ---------------


def test_mrr_of_ranks_5_10_15_is_not_one_over_the_mean_rank():
    # ERRATUM 2. The summary's gloss, "how far down the ranked list was the first relevant
    # chunk", is a mean rank. First hits at ranks 5, 10, 15: mean rank 10, but MRR =
    # (1/5 + 1/10 + 1/15) / 3 = 0.1222, whose reciprocal is 8.18.
    pairs = [([f"noise_{i}" for i in range(1, rank)] + ["answer"], {"answer"}) for rank in (5, 10, 15)]
    got = mrr(pairs)
    assert got == exactly((1 / 5 + 1 / 10 + 1 / 15) / 3)
    assert 1 / got == as_printed(8.18, 2)
    assert 1 / got != pytest.approx((5 + 10 + 15) / 3)


def test_k_is_the_number_of_chunks_in_the_prompt():
    # ERRATUM 10. "k=5: ... (5-10 chunks in prompt)": k = 5 scores, and sends, 5 chunks;
    # Precision@5 divides by 5 and a 300-token chunk budget needs 500 + 5 x 300 tokens.
    from ragmetrics.teaching import chunks_that_fit

    assert precision_at_k(K_TRADEOFF_RETRIEVED, K_TRADEOFF_RELEVANT, 5) == exactly(2 / 5)
    assert chunks_that_fit(500 + 5 * 300) == 5
    assert chunks_that_fit(500 + 10 * 300) == 10


def test_token_budget_k_4_needs_a_limit_of_1700_to_1999():
    # ERRATUM 11. "500 tokens + 300 per chunk: k ≈ 4" holds only for a context limit of
    # 1,700 to 1,999 tokens: floor((L - 500) / 300) = 4 exactly there.
    from ragmetrics.teaching import chunks_that_fit

    fits_4 = [limit for limit in range(1000, 3001) if chunks_that_fit(limit) == 4]
    assert (fits_4[0], fits_4[-1]) == (1700, 1999)
    assert chunks_that_fit(2000) == 5
