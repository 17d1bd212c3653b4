"""ragmetrics.spans by hand: every rule and metric on cases small enough to check on paper.

The main case, drawn to scale (one character per position):

    d1 (100 chars)   a = [0, 40)   b = [30, 70)   c = [70, 100)      a and b overlap on [30, 40)
    d2 (50 chars)    x = [0, 25)   y = [25, 50)

    q1's evidence    d1 [35, 45) grade 2,  d1 [60, 75) grade 1,  d2 [10, 20) grade 1

Chunk b spans both evidence spans of d1; the evidence in d2 is in chunk x, which q1's run
never retrieves. |E| = 10 + 15 + 10 = 35 characters.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import ragmetrics
from ragmetrics import (
    FormatError,
    InputTypeError,
    InputValueError,
    chunk_qrels,
    document_qrels,
    document_run,
    evaluate,
    evaluate_spans,
    span_metrics,
    threshold_sensitivity,
    word_pieces,
)
from ragmetrics.errors import BudgetWarning, CoverageWarning
from ragmetrics.spans import locate_chunks, locate_evidence, parse_span_metric

DOCUMENTS = {"d1": "x" * 100, "d2": "y" * 50}
CHUNKS = pd.DataFrame({
    "chunk_id": ["a", "b", "c", "x", "y"],
    "doc_id": ["d1", "d1", "d1", "d2", "d2"],
    "start": [0, 30, 70, 0, 25],
    "end": [40, 70, 100, 25, 50],
})
EVIDENCE = pd.DataFrame({
    "query_id": ["q1", "q1", "q1"],
    "doc_id": ["d1", "d1", "d2"],
    "start": [35, 60, 10],
    "end": [45, 75, 20],
    "relevance": [2, 1, 1],
})
RUN = {"q1": ["b", "c", "a"]}


def approx(value):
    return pytest.approx(value, rel=1e-12, abs=1e-15)


def row(frame, query="q1"):
    return frame.loc[query].to_dict()


# --- span metrics ---------------------------------------------------------------------


def test_top_chunk_spanning_two_evidence_spans():
    # R = b = [30, 70): holds [35, 45) and [60, 70) of the evidence, 20 characters.
    got = row(span_metrics(RUN, CHUNKS, EVIDENCE, k=1))
    assert got["recall"] == approx(20 / 35)
    assert got["precision"] == approx(20 / 40)
    assert got["iou"] == approx(20 / (40 + 35 - 20))


def test_two_chunks_and_evidence_in_a_document_never_retrieved():
    # R = b u c = [30, 100): all of d1's evidence (25), none of d2's.
    got = row(span_metrics(RUN, CHUNKS, EVIDENCE, k=2))
    assert got["recall"] == approx(25 / 35)
    assert got["precision"] == approx(25 / 70)
    assert got["iou"] == approx(25 / (70 + 35 - 25))


def test_overlapping_chunks_counted_once_or_twice():
    # k=3 adds a = [0, 40), which overlaps b on [30, 40): R = [0, 100), 100 characters,
    # but the chunks add up to 40 + 40 + 30 = 110.
    union = row(span_metrics(RUN, CHUNKS, EVIDENCE, k=3))
    assert union == {"recall": approx(25 / 35), "precision": approx(25 / 100),
                     "iou": approx(25 / 110), "precision_omega": approx(35 / 125)}
    summed = row(span_metrics(RUN, CHUNKS, EVIDENCE, k=3, overlap="sum"))
    # Chroma: precision 25 / 110; IoU 25 / (110 + the 10 unretrieved characters of d2).
    assert summed["recall"] == approx(25 / 35)
    assert summed["precision"] == approx(25 / 110)
    assert summed["iou"] == approx(25 / 120)
    assert union["precision"] > summed["precision"]


def test_precision_omega_is_the_iou_of_every_chunk_holding_evidence():
    # a, b, c and x hold evidence: their union is d1 [0, 100) and d2 [0, 25), 125
    # characters holding all 35 of the evidence; the run does not matter.
    for k in (1, 2, None):
        assert span_metrics(RUN, CHUNKS, EVIDENCE, k=k).loc["q1", "precision_omega"] == \
            approx(35 / 125)


def test_k_none_scores_every_retrieved_chunk():
    assert row(span_metrics(RUN, CHUNKS, EVIDENCE)) == row(span_metrics(RUN, CHUNKS, EVIDENCE,
                                                                          k=3))


def test_relevance_level_drops_lower_graded_spans():
    # Only [35, 45) has grade 2: E is 10 characters, all inside b.
    got = row(span_metrics(RUN, CHUNKS, EVIDENCE, k=1, relevance_level=2))
    assert got["recall"] == 1.0
    assert got["precision"] == approx(10 / 40)


def test_budget_cuts_mid_list():
    # b (40) + c (30) = 70 fits in 75; adding a (40) would make 110.
    assert row(span_metrics(RUN, CHUNKS, EVIDENCE, budget=75)) == row(
        span_metrics(RUN, CHUNKS, EVIDENCE, k=2))
    assert row(span_metrics(RUN, CHUNKS, EVIDENCE, budget=69)) == row(
        span_metrics(RUN, CHUNKS, EVIDENCE, k=1))
    # The first chunk that does not fit ends the prefix: with b, a, c and 75 units,
    # a does not fit (80), and c (which would fit: 70) is not taken instead.
    got = row(span_metrics({"q1": ["b", "a", "c"]}, CHUNKS, EVIDENCE, budget=75))
    assert got["recall"] == approx(20 / 35)
    # Smaller than the first chunk: nothing retrieved, everything 0, and a warning says so.
    with pytest.warns(BudgetWarning, match=r"^no chunk fits in the budget of 10 characters "
                                           r"for 1 of 1 query with evidence: its first-ranked "
                                           r"chunk alone is longer \(40 characters\), so it "
                                           r"retrieves nothing within the budget and scores 0$"):
        nothing = row(span_metrics(RUN, CHUNKS, EVIDENCE, budget=10))
    assert (nothing["recall"], nothing["precision"], nothing["iou"]) == (0.0, 0.0, 0.0)
    # k and budget together: both limits hold.
    assert row(span_metrics(RUN, CHUNKS, EVIDENCE, k=1, budget=1000)) == row(
        span_metrics(RUN, CHUNKS, EVIDENCE, k=1))


def test_a_budget_smaller_than_first_chunks_says_how_many_queries_get_nothing():
    # Issue 23, item 13: 512-word chunks under a 2,000-character budget scored 0.004 without
    # a word. Here q1 and q2 rank a 40-character chunk first, q3 a 25-character one, q4 has
    # no evidence (scored by its policy, not counted) and q5 is missing from the run.
    evidence = {"q1": [("d1", 35, 45)], "q2": [("d1", 0, 5)], "q3": [("d2", 0, 5)], "q4": [],
                "q5": [("d1", 0, 5)]}
    run = {"q1": ["b", "x"], "q2": ["a"], "q3": ["x", "a"], "q4": ["c"]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = span_metrics(run, CHUNKS, evidence, budget=30)
    assert [str(w.message) for w in caught if w.category is BudgetWarning] == [(
        "no chunk fits in the budget of 30 characters for 2 of 3 queries with evidence: their "
        "first-ranked chunk alone is longer (the shortest of them 40 characters), so they "
        "retrieve nothing within the budget and score 0")]
    assert got["recall"].tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]
    with warnings.catch_warnings(record=True) as through_evaluate:  # the same through evaluate
        warnings.simplefilter("always")
        evaluate(run, ragmetrics.SpanJudgments(evidence), ["span_recall@budget=30"],
                 chunks=CHUNKS)
    assert [str(w.message) for w in through_evaluate if w.category is BudgetWarning] == [
        str(w.message) for w in caught if w.category is BudgetWarning]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        warnings.simplefilter("error", BudgetWarning)  # 40 fits every first chunk: no warning
        span_metrics(run, CHUNKS, evidence, budget=40)
    # In tokens, and through evaluate_spans: one warning per budget that leaves a query out.
    documents = {"d1": "word " * 20, "d2": "word " * 10}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate_spans(run, CHUNKS, evidence, ["span_recall@budget=7", "span_iou@budget=7",
                                               "span_recall@budget=8"],
                       documents=documents, unit="token")
    assert [str(w.message) for w in caught if w.category is BudgetWarning] == [(
        "no chunk fits in the budget of 7 tokens for 2 of 3 queries with evidence: their "
        "first-ranked chunk alone is longer (the shortest of them 8 tokens), so they retrieve "
        "nothing within the budget and score 0")]


def test_budget_counts_overlaps_in_each_chunk():
    # a then b: 40 + 40 = 80 units, although they cover 70 distinct characters.
    run = {"q1": ["a", "b"]}
    assert span_metrics(run, CHUNKS, EVIDENCE, budget=79).loc["q1", "recall"] == approx(5 / 35)
    assert span_metrics(run, CHUNKS, EVIDENCE, budget=80).loc["q1", "recall"] == approx(20 / 35)


def test_chunks_from_several_documents_in_one_run():
    # x = d2 [0, 25) holds all of d2's evidence; b holds 20 of d1's.
    got = row(span_metrics({"q1": ["x", "b"]}, CHUNKS, EVIDENCE))
    assert got["recall"] == approx(30 / 35)
    assert got["precision"] == approx(30 / 65)
    assert got["iou"] == approx(30 / (65 + 35 - 30))


def test_chunks_equal_to_the_evidence_score_one():
    chunks = pd.DataFrame({"chunk_id": ["e1", "e2", "rest"], "doc_id": ["d1", "d2", "d1"],
                           "start": [35, 10, 0], "end": [45, 20, 30]})
    evidence = EVIDENCE.iloc[[0, 2]]
    got = row(span_metrics({"q1": ["e2", "e1"]}, chunks, evidence))
    assert got == {"recall": 1.0, "precision": 1.0, "iou": 1.0, "precision_omega": 1.0}


def test_run_shapes_and_ranks():
    frame = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["a", "b", "c"],
                          "score": [0.1, 0.9, 0.5]})
    scored = span_metrics({"q1": {"a": 0.1, "b": 0.9, "c": 0.5}}, CHUNKS, EVIDENCE, k=2)
    assert row(span_metrics(frame, CHUNKS, EVIDENCE, k=2)) == row(scored)
    assert row(scored) == row(span_metrics(RUN, CHUNKS, EVIDENCE, k=2))
    ranked = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["a", "c", "b"],
                           "rank": [3, 2, 1]})
    assert row(span_metrics(ranked, CHUNKS, EVIDENCE, k=2)) == row(scored)


def test_tied_scores_follow_the_tie_rule():
    # a and c tie: trec_eval puts c first (ids descending); input order keeps a first.
    run = {"q1": {"a": 0.5, "c": 0.5}}
    assert span_metrics(run, CHUNKS, EVIDENCE, k=1).loc["q1", "recall"] == approx(5 / 35)
    assert span_metrics(run, CHUNKS, EVIDENCE, k=1, ties="input_order").loc[
        "q1", "recall"] == approx(5 / 35)
    c_first = span_metrics(run, CHUNKS, EVIDENCE, k=1).loc["q1", "precision"]
    a_first = span_metrics(run, CHUNKS, EVIDENCE, k=1, ties="input_order").loc[
        "q1", "precision"]
    assert (c_first, a_first) == (approx(5 / 30), approx(5 / 40))
    with pytest.raises(InputValueError, match="ties must be one of"):
        span_metrics(run, CHUNKS, EVIDENCE, ties="random")


# c, y and a tie (given in that order): c = [70, 100) holds 5 characters of q1's evidence
# of grade 1, y = [25, 50) of d2 none, a = [0, 40) 5 of grade 2. At k=1:
C_FIRST = {"recall": 5 / 35, "precision": 5 / 30, "iou": 5 / 60}
A_FIRST = {"recall": 5 / 35, "precision": 5 / 40, "iou": 5 / 70}
Y_FIRST = {"recall": 0.0, "precision": 0.0, "iou": 0.0}


@pytest.mark.parametrize(("ties", "expected"), [
    ("input_order", C_FIRST),
    ("trec_eval", Y_FIRST),  # ids descending: y, c, a
    ("doc_id_ascending", A_FIRST),
    ("optimistic", A_FIRST),  # the grade of the evidence it holds: a 2, c 1, y 0
    ("pessimistic", Y_FIRST),
    ("average", {m: (C_FIRST[m] + A_FIRST[m] + Y_FIRST[m]) / 3 for m in C_FIRST}),
])
def test_every_tie_rule_of_evaluate_orders_tied_chunks(ties, expected):
    # Issue 24, item 2: span runs are ranked by ragmetrics.evaluation, under every tie
    # rule of TIE_POLICIES (spans took two).
    run = {"q1": {"c": 0.5, "y": 0.5, "a": 0.5, "x": 0.1}}
    got = row(span_metrics(run, CHUNKS, EVIDENCE, k=1, ties=ties))
    assert {m: got[m] for m in expected} == {m: approx(v) for m, v in expected.items()}
    assert got["precision_omega"] == approx(35 / 125)  # the chunking's, whatever the run
    # Uncut, or cut below the tie, every rule scores the same.
    uncut = row(span_metrics(run, CHUNKS, EVIDENCE, ties=ties))
    assert uncut == row(span_metrics(run, CHUNKS, EVIDENCE))


def test_average_ties_take_the_mean_over_orders_under_a_budget():
    # a (40), b (40) and c (30 characters) tie; a budget of 45 takes the first of any
    # order alone: a holds 5 evidence characters, b 20, c 5, each first in a third of
    # the orders. Two slots and room for 75 take b and c (70) or a and c (70), not a
    # and b (80): c then a, or a, c...
    run = {"q1": {"a": 1.0, "b": 1.0, "c": 1.0}}
    got = span_metrics(run, CHUNKS, EVIDENCE, budget=45, ties="average").loc["q1"]
    assert got["recall"] == approx((5 + 20 + 5) / (3 * 35))
    assert got["precision"] == approx((5 / 40 + 20 / 40 + 5 / 30) / 3)
    # Room for 75: orders starting a, c or c, a or b, c or c, b take two chunks (4 of 6);
    # a, b and b, a take one (2 of 6). Unions: a+c 10 of 70, b+c 25 of 70.
    got = span_metrics(run, CHUNKS, EVIDENCE, budget=75, ties="average").loc["q1"]
    assert got["recall"] == approx((2 * 10 + 2 * 25 + 5 + 20) / (6 * 35))
    assert got["precision"] == approx((2 * 10 / 70 + 2 * 25 / 70 + 5 / 40 + 20 / 40) / 6)


def test_average_ties_refuse_too_many_sets_to_score():
    chunks = pd.DataFrame({"chunk_id": [f"t{i:02d}" for i in range(20)], "doc_id": "d1",
                           "start": np.arange(20), "end": np.arange(20) + 1})
    run = {"q1": dict.fromkeys(chunks["chunk_id"], 1.0)}
    with pytest.raises(InputValueError, match=r"ties='average' scores query 'q1' over every "
                                              r"order of its 20 chunks tied in score from rank "
                                              r"1: 184,756 sets of them"):
        span_metrics(run, chunks, {"q1": [("d1", 0, 5)]}, k=10, ties="average")
    # Two of 20 one-character chunks, 5 of them evidence: 2 * 5 / 20 = 0.5 expected hits.
    got = span_metrics(run, chunks, {"q1": [("d1", 0, 5)]}, k=2, ties="average").loc["q1"]
    assert (got["recall"], got["precision"]) == (approx(0.5 / 5), approx(0.5 / 2))


def test_duplicates_policy():
    with pytest.raises(InputValueError, match=r"chunk 'b' appears more than once.*'q1'"):
        span_metrics({"q1": ["b", "c", "b"]}, CHUNKS, EVIDENCE)
    kept = span_metrics({"q1": ["b", "c", "b"]}, CHUNKS, EVIDENCE, duplicates="keep_first")
    assert row(kept) == row(span_metrics(RUN, CHUNKS, EVIDENCE, k=2))


@pytest.mark.parametrize(("policy", "expected"), [
    ("zero", {"recall": 0.0, "precision": 0.0, "iou": 0.0, "precision_omega": 0.0}),
    ("article", {"recall": 1.0, "precision": 0.0, "iou": 0.0, "precision_omega": 0.0}),
])
def test_empty_evidence_policies(policy, expected):
    evidence = pd.concat([EVIDENCE, pd.DataFrame({"query_id": ["q2"]})], ignore_index=True)
    run = {"q1": ["b"], "q2": ["a", "b"]}
    result = span_metrics(run, CHUNKS, evidence, empty_relevant=policy)
    assert row(result, "q2") == expected
    assert row(result, "q1")["recall"] == approx(20 / 35)
    assert result.attrs["empty_evidence"] == ("q2",)


def test_empty_evidence_skip_and_error():
    evidence = {"q1": [("d1", 35, 45)], "q2": []}
    run = {"q1": ["b"], "q2": ["a"]}
    skipped = span_metrics(run, CHUNKS, evidence, empty_relevant="skip")
    assert skipped.loc["q2"].isna().all()
    assert skipped.mean()["recall"] == 1.0  # the NaN is left out of the mean
    with pytest.raises(InputValueError, match="query 'q2' has no evidence"):
        span_metrics(run, CHUNKS, evidence, empty_relevant="error")


def test_all_spans_below_the_level_is_empty_evidence():
    evidence = {"q1": [("d1", 35, 45, 1)]}
    result = span_metrics(RUN, CHUNKS, evidence, relevance_level=2, empty_relevant="article")
    assert row(result)["recall"] == 1.0
    assert row(result)["precision"] == 0.0


def test_coverage_policies_and_warnings():
    evidence = {"q1": [("d1", 35, 45)], "q2": [("d1", 0, 5)]}
    with pytest.warns(CoverageWarning, match="1 query with evidence missing from the run"):
        zero = span_metrics({"q1": ["b"], "q9": ["a"]}, CHUNKS, evidence)
    assert row(zero, "q2")["recall"] == 0.0
    assert zero.attrs["missing_from_run_queries"] == ("q2",)
    assert zero.attrs["unjudged_queries"] == ("q9",)
    assert list(zero.index) == ["q1", "q2"]
    with pytest.warns(CoverageWarning):
        skipped = span_metrics({"q1": ["b"]}, CHUNKS, evidence, missing_from_run="skip")
    assert math.isnan(skipped.loc["q2", "recall"])
    assert skipped.loc["q2", "precision_omega"] == approx(5 / 40)  # the chunking's, kept


def test_integer_query_ids_are_ordered_as_numbers():
    evidence = {10: [("d1", 35, 45)], 9: [("d1", 0, 5)]}
    result = span_metrics({10: ["b"], 9: ["a"]}, CHUNKS, evidence)
    assert list(result.index) == [9, 10]
    assert result.index.dtype == np.int64


# --- tokens ---------------------------------------------------------------------------


def test_word_pieces_rules():
    assert word_pieces("Refunds take 5-10 days.") == ["Refunds", "take", "5", "-", "10",
                                                       "days", "."]
    assert word_pieces("unbelievability") == ["unbeliev", "ability"]
    assert word_pieces("1234567") == ["123", "456", "7"]
    assert word_pieces("  ") == []
    assert "".join(word_pieces("Ünïcode naïve 東京")) == "Ünïcodenaïve東京"


def test_token_unit_with_the_default_tokenizer():
    text = "Refunds take 5 days. Contact billing."
    documents = {"d": text}
    # Tokens: Refunds take 5 days . | Contact billing .  (8 in all)
    chunks = [{"chunk_id": "first", "doc_id": "d", "start": 0, "end": 20},
              {"chunk_id": "second", "doc_id": "d", "start": 21, "end": 37}]
    evidence = {"q": [("d", 13, 20)]}  # "5 days.": 3 tokens
    got = row(span_metrics({"q": ["first"]}, chunks, evidence, unit="token",
                           documents=documents), "q")
    assert got["recall"] == approx(1.0)
    assert got["precision"] == approx(3 / 5)
    chars = row(span_metrics({"q": ["first"]}, chunks, evidence, documents=documents), "q")
    assert chars["precision"] == approx(7 / 20)
    # "5 days" without its full stop: the word "days." is the tokens "days" (starting on
    # its "d") and "." (on the "."), so the span holds 2 tokens, a whole number.
    cut = span_metrics({"q": ["first"]}, chunks, {"q": [("d", 13, 19)]}, unit="token",
                       documents=documents)
    assert cut.loc["q", "precision"] == 2 / 5
    # Budgets in tokens: "first" is 5 tokens, "second" 3.
    got = span_metrics({"q": ["second", "first"]}, chunks, evidence, unit="token",
                       documents=documents, budget=7)
    assert got.loc["q", "recall"] == 0.0  # "first" would make 8 > 7
    got = span_metrics({"q": ["second", "first"]}, chunks, evidence, unit="token",
                       documents=documents, budget=8)
    assert got.loc["q", "recall"] == approx(1.0)


def test_token_unit_places_each_token_where_it_starts():
    # One 16-letter word is 2 pieces, "incompre" and "hensible": its first half holds 1.
    documents = {"d": "incomprehensible"}
    chunks = [{"chunk_id": "half", "doc_id": "d", "start": 0, "end": 8},
              {"chunk_id": "late", "doc_id": "d", "start": 1, "end": 9}]
    evidence = {"q": [("d", 0, 16)]}
    got = span_metrics({"q": ["half"]}, chunks, evidence, unit="token", documents=documents)
    assert got.loc["q", "recall"] == 0.5
    # [1, 9) holds the start of "hensible" (8), not that of "incompre" (0).
    got = span_metrics({"q": ["late"]}, chunks, {"q": [("d", 0, 8)]}, unit="token",
                       documents=documents)
    assert got.loc["q"].tolist() == [0.0, 0.0, 0.0, 0.5]


def test_tokens_that_are_not_text_are_spread_evenly_over_their_word():
    # A tokenizer of ids (as tiktoken's encode): 3 tokens for a 7-letter word start on its
    # characters 0, 2 and 4 (floor(j * 7 / 3)); "abcdefg"[2:5] holds two of them.
    documents = {"d": "abcdefg hij"}
    chunks = [{"chunk_id": "c", "doc_id": "d", "start": 2, "end": 5}]
    evidence = {"q": [("d", 0, 11)]}

    def ids(word):
        return [7, 8, 9] if len(word) == 7 else [1]

    got = span_metrics({"q": ["c"]}, chunks, evidence, unit="token", tokenizer=ids,
                       documents=documents).loc["q"]
    assert (got["recall"], got["precision"]) == (2 / 4, 1.0)


def test_any_callable_tokenizer():
    documents = {"d": "ab cd  ef"}
    chunks = [{"chunk_id": "c", "doc_id": "d", "start": 0, "end": 5}]
    evidence = {"q": [("d", 3, 9)]}
    # One token per character: whitespace counts nothing. R = "ab cd" (4), E = "cd  ef" (4).
    got = row(span_metrics({"q": ["c"]}, chunks, evidence, unit="token", tokenizer=list,
                           documents=documents), "q")
    assert got == {"recall": 0.5, "precision": 0.5, "iou": approx(2 / 6),
                   "precision_omega": approx(2 / 6)}
    with pytest.raises(InputTypeError, match="tokenizer must return a list"):
        span_metrics({"q": ["c"]}, chunks, evidence, unit="token", tokenizer=len,
                     documents=documents)
    with pytest.raises(InputValueError, match="pass unit='token'"):
        span_metrics({"q": ["c"]}, chunks, evidence, tokenizer=list, documents=documents)
    with pytest.raises(InputValueError, match="needs the documents"):
        span_metrics({"q": ["c"]}, chunks, evidence, unit="token")


# --- chunk_qrels ----------------------------------------------------------------------


def grades(frame) -> dict:
    return {(q, d): g for q, d, g in frame.itertuples(index=False)}


def test_any_overlap_takes_the_highest_grade():
    # a shares 5 with the grade-2 span; b shares with both spans (grades 2 and 1);
    # c with the grade-1 span; x with d2's; y with nothing.
    assert grades(chunk_qrels(CHUNKS, EVIDENCE)) == {
        ("q1", "a"): 2, ("q1", "b"): 2, ("q1", "c"): 1, ("q1", "x"): 1}


def test_min_chars():
    assert grades(chunk_qrels(CHUNKS, EVIDENCE, rule="min_chars", threshold=10)) == {
        ("q1", "a"): 0, ("q1", "b"): 2, ("q1", "c"): 0, ("q1", "x"): 1}
    assert grades(chunk_qrels(CHUNKS, EVIDENCE, rule="min_chars", threshold=1)) == grades(
        chunk_qrels(CHUNKS, EVIDENCE))


def test_chunk_coverage_is_tested_span_by_span():
    # b is 10/40 = 0.25 of each of its two spans (0.5 of evidence in all); x is 10/25.
    assert grades(chunk_qrels(CHUNKS, EVIDENCE, rule="chunk_coverage", threshold=0.25)) == {
        ("q1", "a"): 0, ("q1", "b"): 2, ("q1", "c"): 0, ("q1", "x"): 1}
    assert grades(chunk_qrels(CHUNKS, EVIDENCE, rule="chunk_coverage", threshold=0.3)) == {
        ("q1", "a"): 0, ("q1", "b"): 0, ("q1", "c"): 0, ("q1", "x"): 1}


def test_evidence_coverage():
    # a holds 5/10 of the grade-2 span; b all of it and 10/15 of the other; c 5/15.
    assert grades(chunk_qrels(CHUNKS, EVIDENCE, rule="evidence_coverage", threshold=0.5)) == {
        ("q1", "a"): 2, ("q1", "b"): 2, ("q1", "c"): 0, ("q1", "x"): 1}
    # b holds 10/15 of the grade-1 span only: at 0.7 only the grade-2 span qualifies it.
    assert grades(chunk_qrels(CHUNKS, EVIDENCE, rule="evidence_coverage", threshold=0.7))[
        ("q1", "b")] == 2
    assert grades(chunk_qrels(CHUNKS, EVIDENCE, rule="evidence_coverage", threshold=1.0)) == {
        ("q1", "a"): 0, ("q1", "b"): 2, ("q1", "c"): 0, ("q1", "x"): 1}


def test_chunk_qrels_feed_evaluate():
    qrels = chunk_qrels(CHUNKS, EVIDENCE)
    assert list(qrels.columns) == ["query_id", "doc_id", "relevance"]
    result = evaluate(RUN, qrels, ["recall@2", "precision@2", "ndcg@3"])
    assert result.per_query.loc["q1", "recall@2"] == approx(2 / 4)  # b, c of a, b, c, x
    assert result.per_query.loc["q1", "precision@2"] == 1.0
    assert qrels.attrs["queries"] == ("q1",)


def test_thresholds_are_checked():
    with pytest.raises(InputValueError, match="needs a threshold"):
        chunk_qrels(CHUNKS, EVIDENCE, rule="chunk_coverage")
    with pytest.raises(InputValueError, match="takes no threshold"):
        chunk_qrels(CHUNKS, EVIDENCE, threshold=0.5)
    with pytest.raises(InputValueError, match=r"share in \(0, 1\], got 1.5"):
        chunk_qrels(CHUNKS, EVIDENCE, rule="evidence_coverage", threshold=1.5)
    with pytest.raises(InputValueError, match="whole number of characters"):
        chunk_qrels(CHUNKS, EVIDENCE, rule="min_chars", threshold=2.5)
    with pytest.raises(InputTypeError, match="threshold must be a number"):
        chunk_qrels(CHUNKS, EVIDENCE, rule="min_chars", threshold="10")
    with pytest.raises(InputValueError, match="rule must be one of"):
        chunk_qrels(CHUNKS, EVIDENCE, rule="overlap")


def test_threshold_sensitivity_table():
    table = threshold_sensitivity(RUN, CHUNKS, EVIDENCE, rule="evidence_coverage",
                                  thresholds=[0.5, 1.0], metrics=["recall@3", "mrr"])
    # At 0.5: a, b, x relevant (c is 5/15); the run b, c, a finds a and b: 2/3.
    # At 1.0: b and x; the run finds b: 1/2.
    assert table["recall@3"].tolist() == [approx(2 / 3), approx(1 / 2)]
    assert table["mrr"].tolist() == [1.0, 1.0]
    assert table["relevant_chunks"].tolist() == [3, 2]
    assert table.attrs["rule"] == "evidence_coverage"
    with pytest.raises(InputValueError, match="no threshold to vary"):
        threshold_sensitivity(RUN, CHUNKS, EVIDENCE, rule="any_overlap")


def test_threshold_sensitivity_keeps_queries_that_lose_every_chunk():
    evidence = {"q1": [("d1", 35, 45)], "q2": [("d1", 99, 100)]}
    table = threshold_sensitivity({"q1": ["b"], "q2": ["c"]}, CHUNKS, evidence,
                                  rule="chunk_coverage", thresholds=[0.01, 0.2],
                                  metrics="recall@1")
    # At 0.01: q1 has a (5/40) and b (10/40) relevant, finds b: 1/2; q2's one character
    # is 1/30 of c, relevant, found: 1. At 0.2: q1 has b only: 1; q2 has no relevant
    # chunk left and scores 0 ("zero"), still counted in the mean.
    assert table["recall@1"].tolist() == [0.75, 0.5]


def test_plot_threshold_sensitivity_draws_one_line_per_chunking():
    from matplotlib.figure import Figure

    table = threshold_sensitivity(RUN, CHUNKS, EVIDENCE, thresholds=[0.1, 0.25, 0.5])
    ax = Figure().add_subplot()
    assert ragmetrics.plot_threshold_sensitivity({"A": table, "B": table}, ax=ax) is ax
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["A", "B"]
    assert lines[0].get_ydata().tolist() == table["recall@10"].tolist()
    assert ax.get_xlabel() == "threshold (chunk_coverage)"


# --- document level -------------------------------------------------------------------


def test_document_run_first_and_max():
    run = {"q1": {"b": 0.9, "x": 0.5, "a": 0.5, "y": 0.2}}
    first = document_run(run, CHUNKS)
    # b (d1) first; x and a tie at 0.5, trec_eval puts x first (ids descending): d2.
    assert first.to_dict("list") == {"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"],
                                     "rank": [1, 2]}
    tied = {"q1": {"x": 0.5, "a": 0.5}}
    assert document_run(tied, CHUNKS)["doc_id"].tolist() == ["d2", "d1"]  # x before a
    # max: both documents score 0.5; documents tie, ordered by doc id descending.
    by_max = document_run({"q1": {"y": 0.5, "a": 0.5}}, CHUNKS, how="max")
    assert by_max.to_dict("list") == {"query_id": ["q1", "q1"], "doc_id": ["d2", "d1"],
                                      "score": [0.5, 0.5], "rank": [1, 2]}
    assert document_run({"q1": {"y": 0.5, "a": 0.5}}, CHUNKS)["doc_id"].tolist() == [
        "d2", "d1"]
    with pytest.raises(InputValueError, match="how must be one of"):
        document_run(run, CHUNKS, how="sum")
    # The tie rules of evaluate that make one ranking without judgments: on documents too.
    tied = {"q1": {"a": 0.5, "y": 0.5, "x": 0.5}}  # d1, then d2 twice
    for ties, first, by_max in [("trec_eval", ["d2", "d1"], ["d2", "d1"]),
                                ("input_order", ["d1", "d2"], ["d1", "d2"]),
                                ("doc_id_ascending", ["d1", "d2"], ["d1", "d2"])]:
        assert document_run(tied, CHUNKS, ties=ties)["doc_id"].tolist() == first, ties
        assert document_run(tied, CHUNKS, ties=ties, how="max")["doc_id"].tolist() == by_max
    for ties in ("optimistic", "pessimistic", "average"):
        with pytest.raises(InputValueError, match=rf"document_run makes one ranking of "
                                                  rf"documents, with no judgments: "
                                                  rf"ties='{ties}' has none"):
            document_run(tied, CHUNKS, ties=ties)


def test_document_level_metrics():
    qrels = document_qrels(EVIDENCE)
    assert grades(qrels) == {("q1", "d1"): 2, ("q1", "d2"): 1}
    runs = document_run({"q1": ["b", "c", "a"], "q2": ["y", "a"]}, CHUNKS)
    assert runs.to_dict("list") == {"query_id": ["q1", "q2", "q2"],
                                    "doc_id": ["d1", "d2", "d1"], "rank": [1, 1, 2]}
    with pytest.warns(CoverageWarning):
        result = evaluate(runs, qrels, ["recall@1", "ndcg@2"])
    assert result.per_query.loc["q1", "recall@1"] == 0.5


# --- names ----------------------------------------------------------------------------


def test_span_metric_names():
    table = evaluate_spans(RUN, CHUNKS, EVIDENCE,
                           ["span_recall@1", "span_iou@2", "span_precision@budget=75",
                            "span_precision_omega", "span_recall"])
    assert table.loc["q1", "span_recall@1"] == approx(20 / 35)
    assert table.loc["q1", "span_iou@2"] == approx(25 / 80)
    assert table.loc["q1", "span_precision@budget=75"] == approx(25 / 70)
    assert table.loc["q1", "span_precision_omega"] == approx(35 / 125)
    assert table.loc["q1", "span_recall"] == approx(25 / 35)
    assert str(parse_span_metric(" span_iou@budget=1000 ")) == "span_iou@budget=1000"
    for bad in ("span_recall@0", "span_recall@budget=", "span_precision_omega@10", "recall@10",
                "span_f1@10"):
        with pytest.raises(InputValueError):
            evaluate_spans(RUN, CHUNKS, EVIDENCE, [bad])


def test_span_metrics_are_rows_of_the_one_metric_table():
    # Issue 24, item 2: one table, one name parser.
    from ragmetrics import MetricInfo, MetricSpec, parse_metric
    from ragmetrics.evaluation.streaming import evaluate_batches
    from ragmetrics.metrics.registry import METRICS, SPAN_METRIC_TABLE, metric_info

    assert list(SPAN_METRIC_TABLE) == ["span_recall", "span_precision", "span_iou",
                                       "span_precision_omega", "span_units_sent"]
    # Issue 26, item 7: a cost, scored by the same cut, never better for being higher.
    sent = metric_info("span_units_sent")
    assert (sent.budget_cut, sent.higher_is_better, sent.upper_bound) == (True, False,
                                                                          float("inf"))
    assert all(isinstance(row, MetricInfo) and row.family == "spans"
               for row in SPAN_METRIC_TABLE.values())
    assert not set(SPAN_METRIC_TABLE) & set(METRICS)  # evaluate's engine never sees them
    assert metric_info("span_recall").article_value == 1.0
    assert metric_info("span_precision_omega").of_the_query  # the chunking's, not the run's
    assert parse_metric("span_iou@budget=1000") == MetricSpec("span_iou", budget=1000)
    assert parse_metric("span_recall@10") == parse_span_metric(" span_recall@10 ")
    assert parse_metric("span_recall@10").pretty_name == "Span recall@10"
    assert parse_metric("span_iou@budget=500").pretty_name == "Span IoU@budget=500"
    assert parse_metric("span_precision_omega").bounds == (0.0, 1.0)
    with pytest.raises(InputValueError, match=r"^unknown span metric 'span_recal@1': .*did "
                                              r"you mean 'span_recall'\?$"):
        parse_metric("span_recal@1")
    with pytest.raises(InputValueError, match=r"metric 'recall' takes no budget"):
        parse_metric("recall@budget=10")
    with pytest.raises(InputValueError, match=r"'span_iou' measures retrieved text against "
                                              r"evidence spans: evaluate it with evidence="):
        evaluate_batches([pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "score": [1.0]})],
                         {"q1": {"a": 1}}, ["span_iou@5"])


# --- the data model: located texts and errors -----------------------------------------


TEXT = "Refunds.\n\nWe refund within 30 days.  Ask billing.\nWe refund within 30 days."


def test_chunks_by_text_after_whitespace_normalisation():
    chunks = pd.DataFrame({"chunk_id": ["c1", "c2"], "doc_id": ["d", "d"],
                           "text": ["Refunds. We refund", "Ask   billing.\n"]})
    located = locate_chunks(chunks, {"d": TEXT})
    assert located[["start", "end"]].values.tolist() == [[0, 19], [37, 49]]
    assert TEXT[37:49] == "Ask billing."


def test_unlocatable_and_ambiguous_chunks_are_listed_together():
    chunks = pd.DataFrame({"chunk_id": ["ok", "lost", "twice"], "doc_id": ["d"] * 3,
                           "text": ["Ask billing.", "Ask sales.", "We refund within 30 days."]})
    with pytest.raises(InputValueError) as caught:
        locate_chunks(chunks, {"d": TEXT})
    message = str(caught.value)
    assert message.startswith("2 chunk texts cannot be located")
    assert "chunks row 1 (chunk_id 'lost'): 'Ask sales.' not found in document 'd'" in message
    assert "chunks row 2 (chunk_id 'twice')" in message
    assert "more than once" in message
    assert "at 10-35, 50-75" in message


def test_chunk_offsets_and_text_must_agree():
    chunks = [{"chunk_id": "c", "doc_id": "d", "start": 0, "end": 8, "text": "Refund"}]
    with pytest.raises(InputValueError, match="differs from the document's text at 0-8"):
        locate_chunks(chunks, {"d": TEXT})


def test_evidence_by_quote():
    evidence = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["d", "d", None],
                             "quote": ["Ask  billing", "Refunds.", None],
                             "relevance": [2, 1, None]})
    located = locate_evidence(evidence, {"d": TEXT})
    assert located.values.tolist() == [["q1", "d", 37, 48, 2.0], ["q1", "d", 0, 8, 1.0]]
    with pytest.raises(InputValueError, match=r"1 quote cannot be located.*'Ask sales'"):
        locate_evidence([{"query_id": "q", "doc_id": "d", "quote": "Ask sales"}], {"d": TEXT})


@pytest.mark.parametrize(("chunks", "message"), [
    ([{"chunk_id": "c", "doc_id": "d1", "start": 30, "end": 30}],
     r"chunks row 0 \(chunk_id 'c'\): start 30 >= end 30"),
    ([{"chunk_id": "c", "doc_id": "d1", "start": 90, "end": 101}],
     r"chunks row 0 \(chunk_id 'c'\): end 101 is past the end of document 'd1' \(100 "),
    ([{"chunk_id": "c", "doc_id": "d1", "start": -1, "end": 5}], "start -1 is negative"),
    ([{"chunk_id": "c", "doc_id": "d1", "start": 0, "end": 5},
      {"chunk_id": "e", "doc_id": "d9", "start": 0, "end": 5}],
     r"chunks row 1 \(chunk_id 'e'\): unknown document 'd9'"),
    ([{"chunk_id": "c", "doc_id": "d1", "start": 0, "end": 5},
      {"chunk_id": "c", "doc_id": "d1", "start": 5, "end": 9}],
     r"chunks row 1 \(chunk_id 'c'\): chunk id 'c' is given twice \(first in chunks row 0"),
    ([{"chunk_id": "c", "doc_id": "d1", "start": "zero", "end": 5}],
     "start must be an integer character offset, got 'zero'"),
    ([{"chunk_id": "c", "doc_id": "d1", "start": 1.5, "end": 5}],
     "start must be an integer character offset, got 1.5"),
    ([{"chunk_id": "c", "doc_id": "d1", "start": None, "end": 5}], "missing start"),
    ([{"chunk_id": "c", "doc_id": "d1"}], "need 'start' and 'end'"),
])
def test_bad_chunks(chunks, message):
    with pytest.raises(InputValueError, match=message):
        span_metrics({"q1": ["c"]}, chunks, EVIDENCE, documents=DOCUMENTS)


@pytest.mark.parametrize(("evidence", "message"), [
    ([{"query_id": "q1", "doc_id": "d1", "start": 50, "end": 40}],
     r"evidence row 0 \(query_id 'q1'\): start 50 >= end 40"),
    ([{"query_id": "q1", "doc_id": "d2", "start": 40, "end": 60}],
     "end 60 is past the end of document 'd2' \\(50 characters\\)"),
    ([{"query_id": "q1", "doc_id": "nowhere", "start": 0, "end": 5}],
     "unknown document 'nowhere'"),
    ([{"query_id": "q1", "doc_id": "d1", "start": 0}], "needs 'start' and 'end'"),
    ([{"query_id": "q1", "doc_id": "d1", "start": 0, "end": None}],
     "a span needs both start and end"),
    ([{"query_id": "q1", "start": 0, "end": 3}], "need a 'doc_id' column"),
    ([{"query_id": "q1", "doc_id": "d1", "start": 0, "end": 3, "relevance": float("inf")}],
     "relevance must be a finite number"),
])
def test_bad_evidence(evidence, message):
    with pytest.raises(InputValueError, match=message):
        span_metrics({"q1": ["a"]}, CHUNKS, evidence, documents=DOCUMENTS)


def test_type_errors_name_the_value():
    with pytest.raises(InputTypeError, match="chunk id is str in the chunks but int in the run"):
        span_metrics({"q1": [1, 2]}, CHUNKS, EVIDENCE)
    with pytest.raises(InputTypeError, match="query_id is str in the evidence but int"):
        span_metrics({1: ["a"]}, CHUNKS, EVIDENCE)
    with pytest.raises(InputTypeError, match="doc_id is str in the chunks but int in the "
                                             "evidence"):
        span_metrics(RUN, CHUNKS, {"q1": [(1, 0, 5)]})
    with pytest.raises(InputTypeError, match="relevance must be a number, got 'high'"):
        span_metrics(RUN, CHUNKS, [{"query_id": "q1", "doc_id": "d1", "start": 0, "end": 5,
                                    "relevance": "high"}])
    with pytest.raises(InputTypeError, match="evidence\\['q1'\\]: a span is"):
        span_metrics(RUN, CHUNKS, {"q1": [("d1", 0)]})
    with pytest.raises(InputTypeError, match="chunks must be a DataFrame"):
        span_metrics(RUN, 42, EVIDENCE)
    with pytest.raises(InputTypeError, match="budget must be a positive number"):
        span_metrics(RUN, CHUNKS, EVIDENCE, budget="100")
    with pytest.raises(InputValueError, match="budget must be a positive number"):
        span_metrics(RUN, CHUNKS, EVIDENCE, budget=0)


NOT_EXACT = (r"is a whole number that a 64-bit float cannot hold exactly \(it would be read as "
             r"{}\): beyond 2\*\*53 = 9007199254740992 two different whole numbers can be read "
             r"as one float")
HUGE_GRADES = [
    (2**63 - 1, "relevance 9223372036854775807 " + NOT_EXACT.format(r"9\.2233720368547758e\+18")),
    (2**53 + 1, "relevance 9007199254740993 " + NOT_EXACT.format("9007199254740992")),
    ("9223372036854775807",
     "relevance 9223372036854775807 " + NOT_EXACT.format(r"9\.2233720368547758e\+18")),
    (1e19, r"relevance 1e\+19 does not fit a 64-bit integer"),
    (-1e19, r"relevance -1e\+19 does not fit a 64-bit integer"),
    (1e300, r"relevance 1e\+300 does not fit a 64-bit integer"),
    ("1e300", r"relevance '1e300' does not fit a 64-bit integer"),
    (10**30, "relevance 1000000000000000000000000000000 " + NOT_EXACT.format(r"1e\+30")),
    (np.uint64(2**64 - 1),
     "relevance 18446744073709551615 " + NOT_EXACT.format(r"1\.8446744073709552e\+19")),
    (10**400, f"relevance 1{'0' * 56}\\.\\.\\. is too large for a float"),
    ("nan", "relevance must be a finite number, got nan"),
]


@pytest.mark.parametrize(("grade", "message"), HUGE_GRADES)
def test_grades_that_do_not_fit_are_refused_naming_the_row(grade, message):
    # Issue 23, item 6: chunk_qrels cast float64 grades to int64, so 2**63 - 1, 1e19 and
    # 1e300 all became -9223372036854775808 ("judged below 0"); 2**53 + 1 became 2**53.
    evidence = [{"query_id": "q1", "doc_id": "d1", "start": 35, "end": 45, "relevance": 1},
                {"query_id": "q2", "doc_id": "d1", "start": 0, "end": 5, "relevance": grade}]
    for call in (lambda: chunk_qrels(CHUNKS, evidence),
                 lambda: document_qrels(evidence),
                 lambda: span_metrics(RUN, CHUNKS, evidence),
                 lambda: ragmetrics.SpanJudgments(evidence)):
        with pytest.raises(InputValueError, match=r"^evidence row 1 \(query_id 'q2'\): "
                                                  + message + "$"):
            call()
    if grade != "nan":
        with pytest.raises(InputValueError, match=r"^evidence row 0 \(query_id 'q2'\): "
                                                  + message + "$"):
            chunk_qrels(CHUNKS, {"q2": [("d1", 0, 5, grade)]})


def test_a_nan_grade_in_a_span_is_refused_not_taken_for_an_empty_cell():
    with pytest.raises(InputValueError, match=r"^evidence\['q2'\]: the span \('d1', 0, 5, nan\) "
                                              r"has relevance nan, not a grade; give \(doc_id, "
                                              r"start, end\) for a span of grade 1$"):
        chunk_qrels(CHUNKS, {"q2": [("d1", 0, 5, math.nan)]})


def test_grades_that_fit_are_kept_exactly():
    evidence = {"q1": [("d1", 35, 45, 2**53)], "q2": [("d1", 0, 5, -(2**60))],
                "q3": [("d1", 0, 5, 1e18)], "q4": [("d1", 0, 5, " 3 ")]}
    qrels = chunk_qrels(CHUNKS, evidence)
    assert qrels["relevance"].dtype == np.int64
    assert qrels.groupby("query_id")["relevance"].first().to_dict() == {
        "q1": 2**53, "q2": -(2**60), "q3": 10**18, "q4": 3}
    assert document_qrels(evidence)["relevance"].tolist() == [2**53, -(2**60), 10**18, 3]
    halves = chunk_qrels(CHUNKS, {"q1": [("d1", 35, 45, 0.5)]})
    assert halves["relevance"].tolist() == [0.5, 0.5]


def test_grades_in_files_name_the_line(tmp_path):
    csv = tmp_path / "evidence.csv"
    csv.write_text("query_id,doc_id,start,end,relevance\nq1,d1,35,45,2\n"
                   "q2,d1,0,5,9223372036854775807\n")
    with pytest.raises(FormatError, match=r"evidence\.csv, line 3: query_id 'q2': relevance "
                                          r"9223372036854775807 is a whole number that a "
                                          r"64-bit float cannot hold exactly"):
        chunk_qrels(CHUNKS, csv)
    jsonl = tmp_path / "evidence.jsonl"
    jsonl.write_text('{"query_id": "q1", "doc_id": "d1", "start": 35, "end": 45}\n'
                     '{"query_id": "q2", "doc_id": "d1", "start": 0, "end": 5, '
                     '"relevance": 1e300}\n')
    with pytest.raises(FormatError, match=r"evidence\.jsonl, line 2: query_id 'q2': relevance "
                                          r"1e\+300 does not fit a 64-bit integer"):
        document_qrels(jsonl)


FITS = "{column} {value} does not fit a 64-bit integer"
OFFSETS = [  # (value, error, message): every entry point, Python objects and files alike
    (10**30, InputValueError, FITS.format(column="{column}", value=10**30)),
    (2**63, InputValueError, FITS.format(column="{column}", value=2**63)),
    (-(2**63) - 1, InputValueError, FITS.format(column="{column}", value=-(2**63) - 1)),
    (1e30, InputValueError, FITS.format(column="{column}", value=int(1e30))),
    (2**63 - 1, InputValueError, (r"end 9223372036854775807 is past 2\*\*62, further than any "
                                  "text: positions are 64-bit integers")),
    (1.5, InputValueError, "{column} must be an integer character offset, got 1.5"),
    (True, InputTypeError, "{column} must be an integer character offset, got True"),
    ("²", InputValueError, "{column} must be an integer character offset, got '²'"),
    ("٣", InputValueError, "{column} must be an integer character offset, got '٣'"),
]


@pytest.mark.parametrize(("value", "error", "message"), OFFSETS)
@pytest.mark.parametrize("column", ["start", "end"])
def test_offsets_that_do_not_fit_are_input_errors_naming_the_row(value, error, message,
                                                                  column):
    # Issue 23, item 11: an offset of 10**30 raised a bare OverflowError, 2**63 was read
    # as -2**63 ("start -9223372036854775808 is negative"), "²" a bare ValueError and "٣"
    # was taken for 3.
    span = {"start": 0, "end": 5, column: value}
    chunks = [{"chunk_id": "a", "doc_id": "d1", "start": 0, "end": 40},
              {"chunk_id": "z", "doc_id": "d1", **span}]
    evidence = [{"query_id": "q1", "doc_id": "d1", "start": 35, "end": 45},
                {"query_id": "q2", "doc_id": "d1", **span}]
    text = message.format(column=column)
    if column == "start" and value == 2**63 - 1:  # fits, but starts after the end
        text = r"start 9223372036854775807 >= end 5"
    for call, where in [
            (lambda: span_metrics(RUN, chunks, EVIDENCE), r"chunks row 1 \(chunk_id 'z'\)"),
            (lambda: chunk_qrels(CHUNKS, evidence), r"evidence row 1 \(query_id 'q2'\)"),
            (lambda: span_metrics(RUN, CHUNKS, evidence, documents=DOCUMENTS),
             r"evidence row 1 \(query_id 'q2'\)"),
            (lambda: document_qrels({"q2": [("d1", span["start"], span["end"])]}),
             r"evidence row 0 \(query_id 'q2'\)"),
            (lambda: ragmetrics.SpanJudgments(evidence), r"evidence row 1 \(query_id 'q2'\)"),
            (lambda: locate_chunks(pd.DataFrame(chunks), DOCUMENTS),
             r"chunks row 1 \(chunk_id 'z'\)")]:
        with pytest.raises(error, match=f"^{where}: {text}"):
            call()


def test_offsets_in_files_that_do_not_fit_name_the_line(tmp_path):
    csv = tmp_path / "chunks.csv"
    csv.write_text("chunk_id,doc_id,start,end\na,d1,0,40\nb,d1,0,99999999999999999999\n")
    with pytest.raises(FormatError, match=r"chunks\.csv, line 3: chunk_id 'b': end "
                                          r"'99999999999999999999' does not fit a 64-bit "
                                          r"integer$"):
        span_metrics(RUN, csv, EVIDENCE)
    jsonl = tmp_path / "evidence.jsonl"
    jsonl.write_text('{"query_id": "q1", "doc_id": "d1", "start": 35, "end": 45}\n'
                     '{"query_id": "q2", "doc_id": "d1", "start": 1e30, "end": 5}\n')
    with pytest.raises(FormatError, match=r"evidence\.jsonl, line 2: query_id 'q2': start "
                                          r"1000000000000000019884624838656 does not fit"):
        chunk_qrels(CHUNKS, jsonl)


def test_offsets_of_an_unsigned_column_are_not_wrapped_around():
    chunks = pd.DataFrame({"chunk_id": ["a", "b"], "doc_id": ["d1", "d1"],
                           "start": np.array([0, 2**63], dtype=np.uint64),
                           "end": np.array([5, 2**63 + 5], dtype=np.uint64)})
    with pytest.raises(InputValueError, match=r"^chunks row 1 \(chunk_id 'b'\): start "
                                              r"9223372036854775808 does not fit a 64-bit "
                                              r"integer$"):
        span_metrics(RUN, chunks, EVIDENCE)
    fine = chunks.iloc[:1]
    assert span_metrics({"q1": ["a"]}, fine, {"q1": [("d1", 0, 5)]}).loc["q1", "recall"] == 1


def test_offsets_written_as_integer_text_are_read_exactly():
    chunks = [{"chunk_id": "a", "doc_id": "d1", "start": " 30", "end": "+70"},
              {"chunk_id": "b", "doc_id": "d1", "start": 70.0, "end": np.int8(100)}]
    assert locate_chunks(chunks, DOCUMENTS).values.tolist() == [["a", "d1", 30, 70],
                                                                 ["b", "d1", 70, 100]]


def test_documents_too_long_for_64_bit_positions_are_refused():
    # Two documents, each reaching 2**61 (the furthest end a chunk gives it): together
    # past what a 64-bit position can hold, refused rather than wrapped around.
    chunks = [{"chunk_id": "a", "doc_id": "d1", "start": 0, "end": 2**61},
              {"chunk_id": "b", "doc_id": "d2", "start": 0, "end": 2**61}]
    with pytest.raises(InputValueError, match=r"^the documents would take 4611686018427387906 "
                                              r"positions \(the longest, 'd1', "
                                              r"2305843009213693952 characters"):
        span_metrics({"q1": ["a"]}, chunks, {"q1": [("d1", 0, 5)]})


def test_a_huge_budget_is_no_limit_and_a_budget_past_floats_is_refused():
    assert span_metrics(RUN, CHUNKS, EVIDENCE, budget=10**30).equals(
        span_metrics(RUN, CHUNKS, EVIDENCE))
    with pytest.raises(InputValueError, match=r"^budget is too large for a float: an integer "
                                              r"of 401 digits$"):
        span_metrics(RUN, CHUNKS, EVIDENCE, budget=10**400)


def test_run_retrieving_unknown_chunks_is_an_error():
    with pytest.raises(InputValueError, match=r"retrieves 2 ids that are not chunks.*'zz' "
                                              r"\(query 'q1'\)"):
        span_metrics({"q1": ["b", "zz", "yy"]}, CHUNKS, EVIDENCE)


def test_chunks_by_text_need_documents():
    with pytest.raises(InputValueError, match="pass documents= to locate them"):
        span_metrics(RUN, [{"chunk_id": "a", "doc_id": "d1", "text": "xx"}], EVIDENCE)


def test_files_name_the_line(tmp_path):
    good = tmp_path / "chunks.csv"
    good.write_text("chunk_id,doc_id,start,end\na,d1,0,40\nb,d1,30,70\nc,d1,70,100\n"
                    "x,d2,0,25\ny,d2,25,50\n")
    evidence = tmp_path / "evidence.jsonl"
    evidence.write_text('{"query_id": "q1", "doc_id": "d1", "start": 35, "end": 45, '
                        '"relevance": 2}\n{"query_id": "q1", "doc_id": "d1", "start": 60, '
                        '"end": 75}\n{"query_id": "q1", "doc_id": "d2", "start": 10, '
                        '"end": 20}\n')
    documents = tmp_path / "documents.jsonl"
    documents.write_text("".join(f'{{"doc_id": "{d}", "text": "{t}"}}\n'
                                 for d, t in DOCUMENTS.items()))
    from_files = span_metrics(RUN, good, evidence, k=2, documents=documents)
    assert row(from_files) == row(span_metrics(RUN, CHUNKS, EVIDENCE, k=2))
    bad = tmp_path / "bad.csv"
    bad.write_text("chunk_id,doc_id,start,end\na,d1,0,40\nb,d1,70,30\n")
    with pytest.raises(FormatError, match=r"bad.csv, line 3: chunk_id 'b': start 70 >= end 30"):
        span_metrics(RUN, bad, EVIDENCE)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"query_id": "q1", "doc_id": "d1", "start": 1, "end": 2}\n{oops\n')
    with pytest.raises(FormatError, match=r"broken.jsonl, line 2: not valid JSON"):
        span_metrics(RUN, CHUNKS, broken)
    short = tmp_path / "short.csv"
    short.write_text("chunk_id,doc_id,start,end\na,d1,0\n")
    with pytest.raises(FormatError, match=r"line 2: expected 4 fields as in the header "
                                          r"\(chunk_id, doc_id, start, end\), got 3"):
        span_metrics(RUN, short, EVIDENCE)
    with pytest.raises(FormatError, match=r"chunks\.txt: cannot tell the table format"):
        span_metrics(RUN, tmp_path / "chunks.txt", EVIDENCE)


def test_unanswerable_rows_in_a_file(tmp_path):
    evidence = tmp_path / "evidence.csv"
    evidence.write_text("query_id,doc_id,start,end,relevance\nq1,d1,35,45,1\nq2,,,,\n")
    result = span_metrics({"q1": ["b"], "q2": ["a"]}, CHUNKS, evidence,
                          empty_relevant="article")
    assert row(result, "q2")["recall"] == 1.0
    assert result.attrs["empty_evidence"] == ("q2",)


def test_files_are_read_by_io_compressed_with_physical_lines(tmp_path):
    # Issue 24, item 2: evidence, chunks and documents are read by ragmetrics.io, as runs
    # are: gzip, bzip2 and xz files by their content, CRLF and blank lines counted.
    import bz2
    import gzip
    import lzma

    evidence = tmp_path / "evidence.csv.gz"
    evidence.write_bytes(gzip.compress(
        b"query_id,doc_id,start,end,relevance\r\nq1,d1,35,45,2\r\n\r\nq1,d1,60,75,\r\n"
        b"q1,d2,10,20,1\r\n"))
    chunks = tmp_path / "chunks.jsonl.bz2"
    chunks.write_bytes(bz2.compress(CHUNKS.to_json(orient="records", lines=True).encode()))
    documents = tmp_path / "documents.tsv.xz"
    documents.write_bytes(lzma.compress(("doc_id\ttext\n" + "".join(
        f"{d}\t{t}\n" for d, t in DOCUMENTS.items())).encode()))
    got = span_metrics(RUN, chunks, evidence, k=2, documents=documents)
    pd.testing.assert_frame_equal(got, span_metrics(RUN, CHUNKS, EVIDENCE, k=2,
                                                    documents=DOCUMENTS))
    assert row(got)["recall"] == approx(25 / 35)  # b and c: [35, 45), [60, 75)
    bad = tmp_path / "bad.csv.gz"  # the fifth line, after a blank one: its physical line
    bad.write_bytes(gzip.compress(b"query_id,doc_id,start,end\r\nq1,d1,35,45\r\n\r\n"
                                  b"q1,d1,60,75\r\nq2,d1,x,9\r\n"))
    with pytest.raises(FormatError, match=r"bad\.csv\.gz, line 5: query_id 'q2': start must "
                                          r"be an integer, got 'x'$"):
        chunk_qrels(CHUNKS, bad)


@pytest.mark.parametrize(("lines", "message"), [
    # Read by Arrow's fast parser, worded by the definition's: the line, the value.
    (['{"chunk_id": 2.5, "doc_id": "d1", "start": 30, "end": 70}'],
     r"line 2: chunk_id must be a string or an integer id, got 2\.5$"),
    (['{"chunk_id": "b", "doc_id": "d1", "start": "30", "end": 70}'],
     (r"line 2: chunk_id 'b': start must be an integer, got '30', a string; write numbers "
      "without quotes$")),
    (['{"chunk_id": "b", "doc_id": " d1", "start": 30, "end": 70}'],
     r"line 2: chunk_id 'b': doc_id ' d1' begins or ends with whitespace$"),
    (['{"chunk_id": "b", "doc_id": "d1", "end": 70}'], r"line 2: chunk_id 'b': missing start$"),
    (["", '{"chunk_id": "b", "doc_id": "d9", "start": 30, "end": 70}'],
     r"line 3: chunk_id 'b': unknown document 'd9'$"),
])
def test_bad_cells_of_files_name_the_physical_line(tmp_path, lines, message):
    path = tmp_path / "chunks.jsonl"
    first = '{"chunk_id": "a", "doc_id": "d1", "start": 0, "end": 40}'
    path.write_text("\n".join([first, *lines]) + "\n")
    with pytest.raises(FormatError, match=r"chunks\.jsonl, " + message):
        span_metrics({"q1": ["a"]}, path, EVIDENCE, documents=DOCUMENTS)


def test_ids_of_files_are_text_and_parquet_rows_are_named(tmp_path):
    # As ragmetrics.io reads every file: an integer id is its decimal text.
    chunks = CHUNKS.assign(chunk_id=[1, 2, 3, 4, 5])
    path = tmp_path / "chunks.parquet"
    chunks.to_parquet(path)
    got = span_metrics({"q1": ["2", "3"]}, path, EVIDENCE)
    assert row(got)["recall"] == approx(25 / 35)
    chunks.assign(end=[40, 70, 100, 25, 20]).to_parquet(path)
    with pytest.raises(FormatError, match=r"chunks\.parquet, row 5: chunk_id '5': start 25 "
                                          r">= end 20"):
        span_metrics({"q1": ["2"]}, path, EVIDENCE)


def test_inputs_are_not_changed():
    chunks, evidence = CHUNKS.copy(), EVIDENCE.copy()
    span_metrics(RUN, chunks, evidence, k=2)
    chunk_qrels(chunks, evidence, rule="min_chars", threshold=5)
    pd.testing.assert_frame_equal(chunks, CHUNKS)
    pd.testing.assert_frame_equal(evidence, EVIDENCE)


# --- fixed windows --------------------------------------------------------------------


def test_window_chunks_by_hand():
    from ragmetrics import window_chunks

    # 7 pieces: one two three four , five six
    documents = {"d": "one two three four, five six", "empty": "   "}
    windows = window_chunks(documents, 3, overlap=1)
    assert windows.values.tolist() == [["d-w3-000", "d", 0, 13],   # one two three
                                       ["d-w3-001", "d", 8, 19],   # three four ,
                                       ["d-w3-002", "d", 18, 28]]  # , five six
    assert window_chunks(documents, 10).values.tolist() == [["d-w10-000", "d", 0, 28]]
    assert window_chunks(documents, 2, name="pairs")["chunk_id"].tolist() == [
        "d-pairs-000", "d-pairs-001", "d-pairs-002", "d-pairs-003"]
    with pytest.raises(InputValueError, match=r"overlap must be .* got 3 for size 3"):
        window_chunks(documents, 3, overlap=3)
    with pytest.raises(InputValueError, match="size must be a positive int"):
        window_chunks(documents, 0)
    # Windows chunk any text: the evidence they hold is found by the span metrics.
    chunks = window_chunks(documents, 3, overlap=1)
    got = span_metrics({"q": ["d-w3-001"]}, chunks, {"q": [("d", 14, 18)]},
                       documents=documents)
    assert got.loc["q", "recall"] == 1.0
