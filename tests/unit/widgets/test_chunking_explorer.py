"""The chunking explorer: its view-model against ragmetrics.spans, and its widget's wiring.

The view-model (ragmetrics.widgets.chunking_model) must give the numbers that
chunk_qrels, span_metrics and evaluate give for the same chunks and ranking; the widget
(ChunkingExplorer) must recompute and announce on every change a browser can make, and
refuse what no chunking can be.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from ragmetrics import chunk_qrels, evaluate, load_span_dataset, span_metrics, window_chunks
from ragmetrics.widgets import ChunkingExplorer, root_widgets
from ragmetrics.widgets.base import WidgetValueError
from ragmetrics.widgets.chunking_model import (
    DEFAULT_RULE_THRESHOLDS,
    ChunkingState,
    check_cuts,
    chunk_offsets,
    chunking_view,
    describe_change,
    describe_state,
    document_tokens,
    moved_cuts,
    question_terms,
    rank_chunks,
    window_cuts,
)

DEMO = load_span_dataset("support_demo")
DOC = "enterprise-contracts"
TEXT = DEMO.documents.set_index("doc_id").loc[DOC, "text"]
TOKENS = document_tokens(TEXT)
EVIDENCE = [(237, 330, 1.0), (447, 825, 2.0)]  # q69's two evidence sentences in this page
QUESTION = "what happens if we go over our enterprise seat count"


@pytest.mark.parametrize(("size", "overlap"), [(1, 0), (7, 3), (48, 0), (48, 16), (100, 99),
                                               (325, 0), (326, 10), (400, 0)])
def test_even_cuts_are_the_windows_of_window_chunks(size, overlap):
    cuts = window_cuts(len(TOKENS), size, overlap)
    ours = chunk_offsets(TOKENS, cuts, overlap)
    theirs = window_chunks({DOC: TEXT}, size, overlap=overlap)
    assert ours == list(zip(theirs["start"], theirs["end"], strict=True))


def test_cuts_that_are_no_chunking_are_refused():
    assert check_cuts([0, 5, 9], 10) == [0, 5, 9]
    for bad, message in [([], "must begin with 0"), ([1, 4], "must begin with 0"),
                         ([0, 4, 4], "cut 2 at token 4 must lie after cut 1"),
                         ([0, 10], "before the end \\(10 tokens\\)")]:
        with pytest.raises(ValueError, match=message):
            check_cuts(bad, 10)
    with pytest.raises(TypeError, match="whole token positions"):
        check_cuts([0, 2.5], 10)
    with pytest.raises(ValueError, match="overlap must be a whole number of tokens in"):
        window_cuts(10, 4, 4)


def test_the_toy_retriever_counts_distinct_question_words():
    assert question_terms("How do I get your SOC 2 report?") == {"soc", "2", "report"}
    text = "Seat count. Seat seat seat. nothing"
    order, scores = rank_chunks(text, [(0, 11), (12, 27), (28, 35)], "the seat count")
    assert scores == [2, 1, 0]  # "seat" thrice still counts once
    assert order == [0, 1, 2]
    assert rank_chunks(text, [(28, 35), (12, 27)], "seat")[0] == [1, 0]


@pytest.mark.parametrize(("cuts", "overlap", "k"), [
    ([0, 48, 96, 144, 192, 240, 288], 0, 2),
    ([0, 30, 59, 144, 200], 0, 3),
    ([0, 40, 80, 120, 160, 200, 240, 280], 12, 4),
    ([0, 70], 0, 1),
])
def test_the_view_gives_the_numbers_of_chunk_qrels_span_metrics_and_evaluate(cuts, overlap, k):
    view = chunking_view(TEXT, TOKENS, cuts, overlap, EVIDENCE, QUESTION, k)
    offsets = chunk_offsets(TOKENS, cuts, overlap)
    chunks = pd.DataFrame({"chunk_id": [c["label"] for c in view["chunks"]], "doc_id": DOC,
                           "start": [s for s, _ in offsets], "end": [e for _, e in offsets]})
    evidence = [{"query_id": "q69", "doc_id": DOC, "start": s, "end": e, "relevance": g}
                for s, e, g in EVIDENCE]
    run = {"q69": view["ranking"]}
    by_text = span_metrics(run, chunks, evidence, k=k).loc["q69"]
    for name in ("recall", "precision", "iou"):
        assert view["metrics"][f"span_{name}"] == by_text[name]
    for rule, threshold in DEFAULT_RULE_THRESHOLDS.items():
        qrels = chunk_qrels(chunks, evidence, rule=rule, threshold=threshold)
        relevant = set(qrels.loc[qrels["relevance"] >= 1, "doc_id"])
        assert {c["label"] for c in view["chunks"] if c["relevant"][rule]} == relevant, rule
        if relevant:
            by_ids = evaluate(run, qrels, [f"recall@{k}", f"precision@{k}"]).per_query.loc["q69"]
            assert view["metrics"][f"recall:{rule}"] == by_ids[f"recall@{k}"]
            assert view["metrics"][f"precision:{rule}"] == by_ids[f"precision@{k}"]
        else:
            assert view["metrics"][f"recall:{rule}"] == view["metrics"][f"precision:{rule}"] == 0
    # The ranking is the toy retriever's, and exactly k chunks are retrieved.
    assert view["ranking"] == [f"chunk {i + 1}" for i in rank_chunks(TEXT, offsets, QUESTION)[0]]
    assert sum(c["retrieved"] for c in view["chunks"]) == min(k, len(cuts))


def test_a_chunk_lists_each_evidence_span_it_shares_characters_with():
    # Chunk 2 of [0, 60, 144] runs from token 61 to 144: the end of span 1, most of span 2.
    view = chunking_view(TEXT, TOKENS, [0, 60, 144], 0, EVIDENCE, QUESTION, 1)
    chunk = view["chunks"][1]
    start, end = chunk["start"], chunk["end"]
    expected = [{"span": i + 1, "shared": min(end, e) - max(start, s),
                 "of_chunk": (min(end, e) - max(start, s)) / (end - start),
                 "of_span": (min(end, e) - max(start, s)) / (e - s)}
                for i, (s, e, _) in enumerate(EVIDENCE) if min(end, e) > max(start, s)]
    assert chunk["overlaps"] == expected
    assert [o["span"] for o in chunk["overlaps"]] == [1, 2]


def test_by_hand_the_tiny_case():
    text = "one two three four five six"
    tokens = document_tokens(text)
    view = chunking_view(text, tokens, [0, 2, 4], 0, [(14, 23)], "four", 1)
    # The retriever returns chunk 2, "three four" = [8, 18): 4 of the 9 evidence
    # characters ("four five" = [14, 23)) in 10 retrieved.
    assert view["metrics"]["span_recall"] == pytest.approx(4 / 9)
    assert view["metrics"]["span_precision"] == pytest.approx(4 / 10)
    assert view["metrics"]["span_iou"] == pytest.approx(4 / (10 + 9 - 4))
    # Rules: chunks 2 and 3 overlap; only chunk 3 ("five six", 4 of its 8) is half evidence.
    relevant = {r: [c["label"] for c in view["chunks"] if c["relevant"][r]]
                for r in DEFAULT_RULE_THRESHOLDS}
    assert relevant == {"any_overlap": ["chunk 2", "chunk 3"], "min_chars": [],
                        "chunk_coverage": ["chunk 3"], "evidence_coverage": []}
    assert view["metrics"]["recall:any_overlap"] == 0.5
    assert view["metrics"]["recall:chunk_coverage"] == 0.0


def test_thresholds_can_be_chosen_and_are_checked():
    view = chunking_view(TEXT, TOKENS, [0, 48, 96], 0, EVIDENCE, QUESTION, 1,
                         thresholds={"min_chars": 200, "chunk_coverage": 0.9,
                                     "evidence_coverage": 1.0})
    assert [r["label"] for r in view["rules"]] == [
        "any overlap", "≥ 200 shared characters", "≥ 90% of the chunk", "≥ 100% of a span"]
    with pytest.raises(ValueError, match="rule 'chunk_coverage' takes a share in"):
        chunking_view(TEXT, TOKENS, [0, 48], 0, EVIDENCE, QUESTION, 1,
                      thresholds={"min_chars": 25, "chunk_coverage": 50,
                                  "evidence_coverage": 0.5})


def test_what_the_live_region_says():
    def state(cuts, size=48, overlap=0, k=2):
        return {"cuts": cuts, "size": size, "overlap": overlap, "k": k,
                "view": chunking_view(TEXT, TOKENS, cuts, overlap, EVIDENCE, QUESTION, k)}

    start = state([0, 48, 96])
    assert describe_change(start, state([0, 48, 96])) == ""
    moved = describe_change(start, state([0, 48, 80]))
    assert moved.startswith("boundary of chunk 3 moved to token 81; relevant: any overlap ")
    assert "Span IoU@2 " in moved
    windows = describe_change(start, state(window_cuts(len(TOKENS), 100, 20), 100, 20))
    assert windows.startswith("windows of 100 tokens, 20 overlapping: 4 chunks; ")
    assert describe_change(start, state([0, 48, 96], k=3)).startswith(
        "the retriever returns 3 chunks; ")


# -- the widget ---------------------------------------------------------------------------


def test_the_example_is_a_root_widget():
    assert ChunkingExplorer in root_widgets()
    explorer = ChunkingExplorer.example()
    assert repr(explorer) == ("ChunkingExplorer(326 tokens, 7 chunks: size=48, overlap=0, "
                              "cuts=[0, 48, 96, 144, 192, 240, 288], k=2)")
    assert explorer.evidence == [list(span) for span in EVIDENCE]
    assert explorer.question == QUESTION
    assert explorer.view == chunking_view(TEXT, TOKENS, explorer.cuts, 0, EVIDENCE, QUESTION, 2)
    assert explorer.announcement == ""  # nothing changed yet


def test_every_move_a_browser_can_make_recomputes_and_announces():
    explorer = ChunkingExplorer.example()
    explorer.cuts = [0, 48, 59, 144, 192, 240, 288]  # what a drag sends
    assert explorer.view == chunking_view(TEXT, TOKENS, explorer.cuts, 0, EVIDENCE, QUESTION, 2)
    assert explorer.announcement.startswith("boundary of chunk 3 moved to token 60; ")
    explorer.size = 100  # the size slider: even windows again
    assert explorer.cuts == window_cuts(len(TOKENS), 100, 0)
    assert explorer.announcement.startswith("windows of 100 tokens, 0 overlapping: 4 chunks")
    with explorer.hold_trait_notifications():  # one message with both (size below overlap)
        explorer.overlap, explorer.size = 9, 10
    assert explorer.cuts == window_cuts(len(TOKENS), 10, 9)
    explorer.k = 5
    assert explorer.view["k"] == 5
    assert sum(c["retrieved"] for c in explorer.view["chunks"]) == 5
    assert explorer.announcement.startswith("the retriever returns 5 chunks; ")


@pytest.mark.parametrize(("trait", "value", "message"), [
    ("cuts", [0, 48, 48], "cut 2 at token 48 must lie after cut 1"),
    ("cuts", [3, 48], "must begin with 0"),
    ("cuts", [0, 326], "before the end"),
    ("size", 0, "size must be between 1 and the document's 326 tokens"),
    ("size", 327, "size must be between 1"),
    ("overlap", 48, "overlap must be between 0 and size - 1 = 47"),
    ("overlap", -1, "overlap must be between"),
    ("k", 0, "k must be a positive int"),
])
def test_what_no_chunking_can_be_is_refused(trait, value, message):
    explorer = ChunkingExplorer.example()
    before = (list(explorer.cuts), explorer.size, explorer.overlap, explorer.k)
    with pytest.raises(WidgetValueError, match=message):
        setattr(explorer, trait, value)
    assert (list(explorer.cuts), explorer.size, explorer.overlap, explorer.k) == before


def test_move_boundary_and_set_windows_are_what_the_controls_do():
    explorer = ChunkingExplorer.example()
    explorer.move_boundary(3, 60)
    assert explorer.cuts[2] == 59
    with pytest.raises(WidgetValueError, match="chunk must be 2 to 7"):
        explorer.move_boundary(1, 5)
    explorer.set_windows(64, 16)
    assert (explorer.size, explorer.overlap) == (64, 16)
    assert explorer.cuts == window_cuts(len(TOKENS), 64, 16)
    text = explorer.describe()
    assert text.splitlines()[0].startswith("chunk 1  tokens 1-64")
    assert "Span IoU@2" in text


def test_a_state_copy_moves_alone_and_gives_the_explorer_s_numbers():
    explorer = ChunkingExplorer.example()
    trial = explorer.state()
    assert isinstance(trial, ChunkingState)
    assert trial == explorer.starting_state()
    assert trial.view == explorer.view
    assert trial.describe() == explorer.describe()
    trial.move_boundary(3, 60)
    trial.k = 3
    assert explorer.cuts == window_cuts(len(TOKENS), 48, 0)
    assert explorer.k == 2
    assert trial.cuts[2] == 59
    # The copy's numbers are the explorer's after the same moves.
    explorer.move_boundary(3, 60)
    explorer.k = 3
    assert trial.view == explorer.view
    assert trial == explorer.state()
    copy = trial.copy()
    copy.set_windows(64, 16)
    assert copy.cuts == window_cuts(len(TOKENS), 64, 16)
    assert trial.cuts[2] == 59
    assert copy != trial
    with pytest.raises(ValueError,
                       match=r"chunk must be 2 to 7 \(chunk 1 starts the document\), got 1"):
        trial.move_boundary(1, 5)
    with pytest.raises(ValueError, match="cut 2 at token 48 must lie after cut 1"):
        trial.move_boundary(3, 49)
    with pytest.raises(ValueError, match="overlap must be a whole number of tokens in"):
        trial.set_windows(10, 10)
    with pytest.raises(ValueError, match="size must be between 1 and the document's 326"):
        trial.set_windows(400)
    with pytest.raises(ValueError, match="k must be a positive int"):
        trial.k = 0
    assert trial.cuts[2] == 59
    assert trial.k == 3
    assert moved_cuts([0, 4, 8], 3, 6) == [0, 4, 5]
    with pytest.raises(TypeError, match="token must be a whole token number"):
        moved_cuts([0, 4, 8], 3, 6.0)


def test_reset_puts_back_the_starting_chunking_and_k_in_one_announcement():
    explorer = ChunkingExplorer.example()
    start = explorer.starting_state()
    explorer.move_boundary(3, 60)
    explorer.set_windows(30, 5)
    explorer.k = 4
    said = []
    explorer.observe(lambda change: said.append(change["new"]), names=["announcement"])
    explorer.reset_request = {"click": 1}  # what the Reset button sends
    assert explorer.state() == start
    assert explorer.view == start.view
    assert said == [explorer.announcement]  # one sentence, not one per trait put back
    assert explorer.announcement == ("explorer reset to its starting chunking; "
                                     + describe_state(start.view))
    # A reset from another overlap (the starting one is 0) and moves after it still work.
    explorer.set_windows(60, 59)
    explorer.reset()
    assert explorer.state() == start
    explorer.move_boundary(2, 40)
    assert explorer.announcement.startswith("boundary of chunk 2 moved to token 40; ")


def test_bad_documents_and_evidence_are_refused():
    with pytest.raises(ValueError, match="needs a document with some text"):
        ChunkingExplorer("   ", [(0, 1)], "q")
    with pytest.raises(ValueError, match=r"evidence span \[5, 99\] is not \(start, end\)"):
        ChunkingExplorer("short text", [(5, 99)], "q")
    with pytest.raises(ValueError, match="needs at least one evidence span"):
        ChunkingExplorer("short text", [], "q")
    with pytest.raises(ValueError, match="question 'q69' has no evidence in document 'faqs'"):
        ChunkingExplorer.from_dataset("support_demo", "q69", "faqs")


def test_the_static_view_is_escaped_text():
    evil = "<img src=x onerror=alert(1)>"
    explorer = ChunkingExplorer(evil + " and more", [(0, 5)], evil, size=2, title=evil)
    data, _ = explorer._repr_mimebundle_()
    assert "<img" not in data["text/html"]
    assert "&lt;img" in data["text/html"]


def test_a_move_is_recomputed_quickly():
    # The browser test measures the round trip; here, Python's share of it.
    import time

    explorer = ChunkingExplorer.example()
    times = []
    for token in itertools.islice(itertools.cycle(range(50, 90)), 20):
        start = time.perf_counter()
        explorer.move_boundary(3, token)
        times.append(time.perf_counter() - start)
    assert np.median(times) < 0.05, f"median {np.median(times) * 1000:.1f} ms per move"
    assert math.isfinite(explorer.view["metrics"]["span_iou"])
