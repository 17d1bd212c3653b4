"""texts_as_evidence: reference texts that are parts of documents, as evidence spans."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

from ragmetrics import EmptyRelevantWarning, InputTypeError, InputValueError, evaluate
from ragmetrics.io import normalize_whitespace, text_id
from ragmetrics.spans import SpanJudgments, TextEvidence, texts_as_evidence, window_chunks

DOCUMENTS = {
    "refunds": "Refunds are paid back to the card used.\nThey take five working days, "
               "or ten in December. Gift cards are never refunded.",
    "billing": "Invoices are in Settings > Billing. Each invoice lists the VAT paid. "
               "Contact billing to change the address on an invoice.",
    "shipping": "Shipping is free over fifty euros. Parcels leave the same day. "
                "They take five working days.",
}
QUOTES = {"q1": ["They take five working\n days, or ten in December."],
          "q2": ["Each invoice lists the VAT paid.", "Contact  billing to change the address"],
          "q3": []}


def test_quotes_are_located_whatever_their_whitespace():
    found = texts_as_evidence(QUOTES, DOCUMENTS)
    frame = found.evidence
    assert frame["query_id"].tolist() == ["q1", "q2", "q2", "q3"]
    assert frame["doc_id"].tolist()[:3] == ["refunds", "billing", "billing"]
    # q3, given no text, is a question without evidence: its row holds only its id.
    assert frame.iloc[3, 1:].isna().all()
    frame = frame.iloc[:3]
    for row in frame.itertuples():
        located = DOCUMENTS[row.doc_id][row.start:row.end]
        quote = QUOTES[row.query_id][0 if row.query_id == "q1" or row.start < 60 else 1]
        assert normalize_whitespace(located) == normalize_whitespace(quote)
    assert frame["relevance"].tolist() == [1.0, 1.0, 1.0]
    assert found.matches.matched == 3
    assert found.documents["doc_id"].tolist() == list(DOCUMENTS)
    evidence, _documents, _matches = found  # unpacks
    assert evidence is found.evidence
    assert repr(found) == ("TextEvidence(3 spans in 3 documents; TextMatches(keyed by "
                           "documents; reference: 3 texts, 3 matched, 0 unmatched, "
                           "0 ambiguous))")


def test_grades_come_with_the_texts():
    texts = pd.DataFrame({"query_id": ["q1", "q1"], "relevance": [2, 1],
                          "text": ["Gift cards are never refunded.", "Parcels leave"]})
    frame = texts_as_evidence(texts, DOCUMENTS).evidence
    assert frame["relevance"].tolist() == [2.0, 1.0]
    assert frame["doc_id"].tolist() == ["refunds", "shipping"]


def test_a_quote_found_twice_is_refused_with_its_places():
    # "They take five working days" is in two documents.
    with pytest.raises(InputValueError) as caught:
        texts_as_evidence({"q1": ["They take five working days"]}, DOCUMENTS)
    message = str(caught.value)
    assert message.startswith("1 of 1 reference texts found more than once: texts['q1'][0]: "
                              "'They take five working days' at 'refunds' 40-67, 'shipping' ")
    assert "give their offsets" in message
    # Twice in one document.
    with pytest.raises(InputValueError, match=r"at 'billing' \d+-\d+, 'billing' \d+-\d+"):
        texts_as_evidence({"q1": ["invoice"]}, {"billing": DOCUMENTS["billing"]})


def test_quotes_found_nowhere_are_refused_listing_the_first_five():
    texts = {f"q{i}": [f"Nowhere {i}."] for i in range(6)}
    with pytest.raises(InputValueError) as caught:
        texts_as_evidence(texts, DOCUMENTS)
    message = str(caught.value)
    assert message.startswith("6 of 6 reference texts found in no document (exact match after "
                              "whitespace normalisation): texts['q0'][0]: 'Nowhere 0.'")
    assert "... and 1 more" in message


def test_reported_quotes_become_documents_of_their_own_and_count_as_missed():
    texts = {"q1": ["Gift cards are never refunded.", "Ask the chat bot.",
                    "They take five working days"]}
    found = texts_as_evidence(texts, DOCUMENTS, unmatched="report")
    own_missing, own_twice = text_id("Ask the chat bot."), text_id("They take five working days")
    assert found.evidence["doc_id"].tolist() == ["refunds", own_missing, own_twice]
    assert found.evidence[["start", "end"]].values.tolist()[1:] == [[0, 17], [0, 27]]
    assert found.documents["doc_id"].tolist() == [*DOCUMENTS, own_missing, own_twice]
    report = found.matches
    assert (report.matched, report.unmatched, report.ambiguous) == (1, 1, 1)
    assert report.examples_of("ambiguous")[0].doc_ids == ("refunds[40:67]", "shipping[63:90]")
    assert report.texts["doc_id"].tolist() == [own_missing, own_twice]
    # Every chunk of every real document retrieved: the evidence of their own is missed.
    chunks = window_chunks(DOCUMENTS, 50)
    run = {"q1": chunks["chunk_id"].tolist()}
    judgments = SpanJudgments(found.evidence, documents=found.documents)
    result = evaluate(run, judgments, ["span_recall@10"], chunks=chunks)
    assert result.per_query.loc["q1", "span_recall@10"] == pytest.approx(30 / (30 + 17 + 27))
    # Judged with the documents given, the ids of their own are unknown: refused, not lost.
    with pytest.raises(InputValueError, match="unknown document 'text:"):
        SpanJudgments(found.evidence, documents=DOCUMENTS)


def test_integer_document_ids_cannot_take_documents_of_their_own():
    texts = texts_as_evidence({"q1": ["one"]}, {1: "one", 2: "two"})
    assert texts.evidence["doc_id"].tolist() == [1]
    with pytest.raises(InputValueError, match="integer ids"):
        texts_as_evidence({"q1": ["three"]}, {1: "one", 2: "two"}, unmatched="report")


@pytest.mark.parametrize("bad", [None, math.nan, 3])
def test_a_quote_that_is_not_a_text_is_refused_naming_it(bad):
    with pytest.raises(InputTypeError, match=re.escape("texts['q2'][1]: a text must be a str")):
        texts_as_evidence({"q1": ["Parcels leave"], "q2": ["Parcels leave", bad]}, DOCUMENTS)


def covered(chunks: pd.DataFrame, ids: list[str], doc: str, start: int, end: int) -> int:
    """Characters of [start, end) of ``doc`` inside the chunks named: counted one by one."""
    inside = set()
    for row in chunks.set_index("chunk_id").loc[ids].itertuples():
        if row.doc_id == doc:
            inside.update(range(row.start, row.end))
    return len(inside & set(range(start, end)))


def test_two_chunkings_are_scored_against_the_same_evidence():
    # The same quotes judge a 6-piece and a 20-piece chunking of the same documents: the
    # evidence is offsets, so it survives the re-chunking.
    found = texts_as_evidence(QUOTES, DOCUMENTS)
    judgments = SpanJudgments(found.evidence, documents=found.documents)
    small, big = window_chunks(DOCUMENTS, 6), window_chunks(DOCUMENTS, 20)
    assert set(small["chunk_id"]).isdisjoint(big["chunk_id"])
    runs = {"small": (small, {"q1": ["refunds-w6-002", "refunds-w6-003", "billing-w6-001"],
                              "q2": ["billing-w6-002", "billing-w6-003", "refunds-w6-000"],
                              "q3": ["shipping-w6-000"]}),
            "big": (big, {"q1": ["shipping-w20-000", "refunds-w20-000"],
                          "q2": ["billing-w20-000", "billing-w20-001"],
                          "q3": ["shipping-w20-000"]})}
    spans = found.evidence
    for name, (chunks, run) in runs.items():
        with pytest.warns(EmptyRelevantWarning, match="'q3'"):  # judged, with no evidence
            result = evaluate(run, judgments, ["span_recall@3", "span_precision@3"],
                              chunks=chunks, empty_relevant="zero")
        for query in ("q1", "q2"):
            mine = spans[spans["query_id"] == query]
            total = int((mine["end"] - mine["start"]).sum())
            hit = sum(covered(chunks, run[query][:3], r.doc_id, r.start, r.end)
                      for r in mine.itertuples())
            retrieved = int((chunks.set_index("chunk_id").loc[run[query][:3]].eval(
                "end - start")).sum())
            assert result.per_query.loc[query, "span_recall@3"] == pytest.approx(
                hit / total), (name, query)
            assert result.per_query.loc[query, "span_precision@3"] == pytest.approx(
                hit / retrieved), (name, query)
        assert result.per_query.loc["q3", "span_recall@3"] == 0.0  # no evidence: zero
    # The numbers differ by chunking: the big chunks hold all of q2's evidence.
    big_q2 = SpanJudgments(found.evidence[found.evidence["query_id"] == "q2"],
                           documents=found.documents)
    big_result = evaluate({"q2": runs["big"][1]["q2"]}, big_q2, ["span_recall@3"], chunks=big)
    assert big_result.per_query.loc["q2", "span_recall@3"] == 1.0


def test_a_text_evidence_is_a_frozen_result():
    found = texts_as_evidence({"q1": ["Parcels leave"]}, DOCUMENTS)
    assert isinstance(found, TextEvidence)
    with pytest.raises(AttributeError):
        found.evidence = None
