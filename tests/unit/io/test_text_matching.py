"""match_texts: chunk texts to document ids, exact after whitespace normalisation."""

from __future__ import annotations

import hashlib
import math
import re

import numpy as np
import pandas as pd
import pytest

import ragmetrics
from ragmetrics import InputTypeError, InputValueError, evaluate
from ragmetrics.io import TextIndex, TextMatches, match_texts, normalize_whitespace, text_id

DOCUMENTS = pd.DataFrame({
    "doc_id": ["d1", "d2", "d3", "d4"],
    "text": ["Refunds take 5 days.", "Contact billing for invoices.",
             "Invoices are in Settings > Billing.", "Contact billing for invoices."],
})


def test_whitespace_variants_match_and_nothing_else_is_forgiven():
    texts = {"q1": ["Refunds take\n5 days.", "  Refunds\ttake 5   days. ",
                    "Refunds\u00a0take 5 days.\r\n"],
             "q2": ["refunds take 5 days."]}  # case differs: no match
    qrels, report = match_texts(texts, DOCUMENTS, unmatched="report")
    assert qrels["doc_id"].tolist() == ["d1", text_id("refunds take 5 days.")]
    assert qrels["query_id"].tolist() == ["q1", "q2"]  # three texts of q1: one judgment
    assert (report.matched, report.unmatched, report.ambiguous) == (3, 1, 0)


def test_the_normalisation_is_one_function_shared_with_the_span_layer():
    from ragmetrics.spans import locate

    assert ragmetrics.spans.normalize_whitespace is normalize_whitespace
    assert locate.normalize_whitespace is normalize_whitespace
    assert normalize_whitespace(" a \n\t b  ") == "a b"


def test_text_id_is_the_sha256_of_the_normalised_text():
    expected = "text:" + hashlib.sha256(b"two words").hexdigest()[:16]
    assert text_id("two\n words ") == expected


def test_a_retrieved_list_becomes_a_run_ranked_by_position():
    run, report = match_texts({"q1": ["Invoices are in Settings >  Billing.", "Refunds take 5 days."],
                               "q2": ["Refunds take 5 days."]}, DOCUMENTS, what="retrieved")
    assert run.to_dict("list") == {"query_id": ["q1", "q1", "q2"], "doc_id": ["d3", "d1", "d1"],
                                   "rank": [1, 2, 1]}
    assert run["rank"].dtype == np.int64
    assert repr(report) == ("TextMatches(keyed by documents; retrieved: 3 texts, 3 matched, "
                            "0 unmatched, 0 ambiguous)")


def test_a_frame_keeps_its_ranks_or_scores_and_otherwise_the_row_order():
    frame = pd.DataFrame({"query_id": ["q1", "q2", "q1"], "text": [
        "Refunds take 5 days.", "Refunds take 5 days.", "Invoices are in Settings > Billing."]})
    run, _ = match_texts(frame, DOCUMENTS, what="retrieved")
    assert run["rank"].tolist() == [1, 1, 2]
    run, _ = match_texts(frame.assign(rank=[5, 1, 2]), DOCUMENTS, what="retrieved")
    assert run["rank"].tolist() == [5, 1, 2]
    run, _ = match_texts(frame.assign(score=[0.5, 0.9, 0.7]), DOCUMENTS, what="retrieved")
    assert list(run.columns) == ["query_id", "doc_id", "score"]
    assert run["score"].tolist() == [0.5, 0.9, 0.7]


def test_reference_texts_judge_a_document_once_with_their_best_grade():
    frame = pd.DataFrame({"query_id": ["q1", "q1", "q1"],
                          "text": ["Refunds take 5 days.", "Refunds  take 5 days.",
                                   "Invoices are in Settings > Billing."],
                          "relevance": [1, 3, 2]})
    qrels, _ = match_texts(frame, DOCUMENTS)
    assert qrels.to_dict("list") == {"query_id": ["q1", "q1"], "doc_id": ["d1", "d3"],
                                     "relevance": [3, 2]}


def test_a_text_matching_two_documents_is_refused_with_counts_and_examples():
    texts = {"q1": ["Refunds take 5 days.", "Contact billing for  invoices."]}
    with pytest.raises(InputValueError) as caught:
        match_texts(texts, DOCUMENTS)
    message = str(caught.value)
    assert "1 of 2 reference texts matched more than one document" in message
    assert "texts['q1'][1]: 'Contact billing for invoices.' equals 'd2', 'd4'" in message
    assert "unmatched='report'" in message


def test_a_text_matching_two_documents_is_kept_under_its_own_id_when_reported():
    texts = {"q1": ["Contact billing for  invoices."]}
    qrels, report = match_texts(texts, DOCUMENTS, unmatched="report")
    own = text_id("Contact billing for invoices.")
    assert qrels["doc_id"].tolist() == [own]
    assert report.ambiguous == 1
    [example] = report.examples_of("ambiguous")
    assert example.doc_ids == ("d2", "d4")
    assert example.given_id == own
    assert example.query_id == "q1"
    assert example.text == "Contact billing for invoices."
    assert f"'Contact billing for invoices.' -> d2, d4 (kept as {own})" in report.to_text()
    assert report.texts.to_dict("list") == {"doc_id": [own],
                                            "text": ["Contact billing for invoices."]}


def test_texts_matching_nothing_are_refused_listing_the_first_five():
    texts = {f"q{i}": [f"Missing text number {i}."] for i in range(7)}
    texts["q9"] = ["Refunds take 5 days."]
    with pytest.raises(InputValueError) as caught:
        match_texts(texts, DOCUMENTS, what="retrieved")
    message = str(caught.value)
    assert message.startswith("7 of 8 retrieved texts matched no document (exact match after "
                              "whitespace normalisation): texts['q0'][0]: 'Missing text "
                              "number 0.'; ")
    assert "texts['q4'][0]" in message
    assert "texts['q5'][0]" not in message
    assert "... and 2 more" in message
    assert "retrieved and relevant to no document" in message


def test_an_unmatched_reference_text_counts_as_relevant_and_never_retrieved():
    # The relevant set is {d1, the text no document holds}: recall@10 is 1/2, not 1/1.
    qrels, report = match_texts({"q1": ["Refunds take 5 days.", "Ask the chat bot."]},
                                DOCUMENTS, unmatched="report")
    assert report.unmatched == 1
    assert report.matched == 1
    [example] = report.examples_of("unmatched")
    assert example.doc_ids == ()
    assert example.given_id == text_id("Ask the chat bot.")
    run, _ = match_texts({"q1": ["Refunds take 5 days.", "Contact billing for invoices."]},
                         DOCUMENTS, what="retrieved", unmatched="report")
    result = evaluate(run, qrels, ["recall@10", "precision@2"], empty_relevant="zero")
    assert result.per_query.loc["q1", "recall@10"] == 0.5
    assert result.per_query.loc["q1", "precision@2"] == 0.5
    text = report.to_text()
    assert "1 matched one document, 1 matched none, 0 matched more than one" in text
    assert "Matched no document (kept under an id of their own" in text
    assert "'Ask the chat bot.' -> no document (kept as text:" in text


@pytest.mark.parametrize(("bad", "shown"), [(None, "None (missing)"), (math.nan, "nan (missing)"),
                                        (7, "7 (int)"), (b"bytes", "b'bytes' (bytes)")])
def test_a_text_that_is_not_a_str_is_refused_naming_where(bad, shown):
    with pytest.raises(InputTypeError, match=re.escape(
            f"texts['q1'][1]: a text must be a str, got {shown}")):
        match_texts({"q1": ["Refunds take 5 days.", bad]}, DOCUMENTS)
    frame = pd.DataFrame({"query_id": ["q1", "q2"], "text": ["Refunds take 5 days.", bad]},
                         dtype=object)
    with pytest.raises(InputTypeError, match=r"texts row 1 \(query_id 'q2'\): a text must"):
        match_texts(frame, DOCUMENTS)


def test_an_empty_text_and_a_string_for_a_list_are_refused():
    with pytest.raises(InputValueError, match=r"texts\['q1'\]\[0\]: the text is empty"):
        match_texts({"q1": [" \n "]}, DOCUMENTS)
    with pytest.raises(InputTypeError, match=r"texts\['q1'\] must be a list of texts"):
        match_texts({"q1": "Refunds take 5 days."}, DOCUMENTS)
    with pytest.raises(InputValueError, match="texts have no column 'text'"):
        match_texts(pd.DataFrame({"query_id": ["q1"]}), DOCUMENTS)


def test_documents_are_checked_once_ids_as_text():
    qrels, _ = match_texts({1: ["one"]}, {7: "one", 8: "two"})
    assert qrels.to_dict("list") == {"query_id": ["1"], "doc_id": ["7"], "relevance": [1]}
    with pytest.raises(InputValueError, match="documents row 2: document 'd1' is given twice "
                                              r"\(first in documents row 0\)"):
        TextIndex(pd.DataFrame({"doc_id": ["d1", "d2", "d1"], "text": ["a", "b", "c"]}))
    with pytest.raises(InputTypeError, match=r"documents\['d2'\] \(doc_id 'd2'\): text must "
                                             "be a str, got None"):
        TextIndex({"d1": "a", "d2": None})
    with pytest.raises(InputTypeError, match=r"documents row 0: doc_id must be an id"):
        TextIndex(pd.DataFrame({"doc_id": [1.5], "text": ["a"]}))


def test_text_keyed_reference_and_retrieved_texts_share_one_id_space():
    qrels, ref_report = match_texts({"q1": ["Refunds take 5 days.", "Invoices are in Settings."]})
    run, run_report = match_texts({"q1": ["Refunds take\n5 days.", "refunds take 5 days.",
                                          "Something else."]}, what="retrieved")
    assert set(qrels["doc_id"]) == {text_id("Refunds take 5 days."),
                                    text_id("Invoices are in Settings.")}
    assert run["doc_id"].isin(qrels["doc_id"]).tolist() == [True, False, False]
    assert ref_report.keyed_by == "text"
    assert ref_report.keyed == 2
    assert (run_report.matched, run_report.unmatched, run_report.ambiguous) == (0, 0, 0)
    both = TextMatches.combine([ref_report, run_report])
    # 5 texts, 4 distinct: the first retrieved text is the first reference text.
    assert both.keyed == 5
    assert len(both.texts) == 4
    assert both.to_text().splitlines()[1:3] == ["  reference: 2 texts, 2 keyed",
                                                "  retrieved: 3 texts, 3 keyed"]
    assert repr(both) == ("TextMatches(keyed by text; reference: 2 texts keyed by text; "
                          "retrieved: 3 texts keyed by text)")


def test_reports_keyed_differently_do_not_combine():
    _, keyed = match_texts({"q1": ["a"]})
    _, matched = match_texts({"q1": ["Refunds take 5 days."]}, DOCUMENTS)
    with pytest.raises(InputValueError, match="share no id"):
        TextMatches.combine([keyed, matched])


def test_an_index_is_built_once_for_many_calls_and_where_names_the_places():
    index = TextIndex(DOCUMENTS)
    assert index.find("Contact billing  for invoices.") == ["d2", "d4"]
    assert repr(index) == "TextIndex(4 documents, 3 distinct texts)"
    with pytest.raises(InputValueError, match=r"samples\.jsonl, line 3, reference_contexts"):
        match_texts({"q1": ["Nowhere."]}, index,
                    where=["samples.jsonl, line 3, reference_contexts[0]"])
    with pytest.raises(InputValueError, match="where names 2 places for 1 texts"):
        match_texts({"q1": ["Nowhere."]}, index, where=["a", "b"])


def test_the_policies_are_checked():
    with pytest.raises(InputValueError, match="unmatched must be one of 'error', 'report'"):
        match_texts({"q1": ["a"]}, DOCUMENTS, unmatched="drop")
    with pytest.raises(InputValueError, match="what must be one of 'reference', 'retrieved'"):
        match_texts({"q1": ["a"]}, DOCUMENTS, what="run")


def test_no_texts_give_empty_frames_of_the_right_columns():
    qrels, report = match_texts({"q1": []}, DOCUMENTS)
    assert list(qrels.columns) == ["query_id", "doc_id", "relevance"]
    assert len(qrels) == 0
    assert report.counts[0].texts == 0


def test_str_split_and_the_word_pattern_agree_on_every_code_point():
    # normalize_whitespace splits with str.split; NormalizedText (spans) finds words with
    # WORD (r"\S+"). Both must see the same whitespace, or a text matched here would not be
    # located there.
    import sys

    from ragmetrics.io.text_matching import WORD

    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    assert " ".join(every.split()) == " ".join(WORD.findall(every))
    spaces = [c for c in every if c.isspace()]
    assert len(spaces) == 29
    assert normalize_whitespace("a" + "".join(spaces) + "b") == "a b"
