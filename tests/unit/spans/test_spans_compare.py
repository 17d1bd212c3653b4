"""Span metrics by name in evaluate, compare and the command line (issue 13, item 4).

The hand case, drawn to scale (one character per position, one document of 60):

    small chunking   s0 = [0, 20)   s1 = [20, 40)   s2 = [40, 60)
    big chunking     b0 = [0, 40)   b1 = [20, 60)                   (b0 and b1 overlap)

    q1's evidence    [25, 35)                       q2's   [5, 10) grade 2, [45, 50) grade 1
    q3               no evidence (an unanswerable question)

    small run        q1: s1, s0     q2: s2, s0     q3: s0
    big run          q1: b0, b1     q2: b1, b0     q3: b1
"""

from __future__ import annotations

import contextlib
import math
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ragmetrics
from ragmetrics import (
    InputTypeError,
    InputValueError,
    SpanJudgments,
    compare,
    evaluate,
    load_span_dataset,
    span_metrics,
)
from ragmetrics.cli import main
from ragmetrics.errors import (
    BudgetWarning,
    CoverageWarning,
    EmptyRelevantWarning,
    NoRelevantChunkWarning,
    RagmetricsWarning,
)
from ragmetrics.spans.rules import ChunkOverlaps

DATA = Path(__file__).resolve().parents[3] / "data"
DOCUMENTS = {"d": "z" * 60}
SMALL = [{"chunk_id": f"s{i}", "doc_id": "d", "start": 20 * i, "end": 20 * i + 20}
         for i in range(3)]
BIG = [{"chunk_id": "b0", "doc_id": "d", "start": 0, "end": 40},
       {"chunk_id": "b1", "doc_id": "d", "start": 20, "end": 60}]
EVIDENCE = {"q1": [("d", 25, 35)], "q2": [("d", 5, 10, 2), ("d", 45, 50, 1)], "q3": []}
RUNS = {"small": {"q1": ["s1", "s0"], "q2": ["s2", "s0"], "q3": ["s0"]},
        "big": {"q1": ["b0", "b1"], "q2": ["b1", "b0"], "q3": ["b1"]}}
CHUNKS = {"small": SMALL, "big": BIG}
NAMES = ["span_recall@1", "span_precision@1", "span_iou@1", "span_precision@2", "recall@1",
         "ndcg@2"]


@contextlib.contextmanager
def quiet():
    """The hand case has an unanswerable question: its warning is tested on its own."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EmptyRelevantWarning)
        yield


@pytest.fixture
def judgments():
    return SpanJudgments(EVIDENCE, documents=DOCUMENTS)


def values(result, name):
    return result.per_query[name].round(12).to_dict()


# -- evaluate ------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::ragmetrics.errors.EmptyRelevantWarning")
@pytest.mark.parametrize(("system", "expected"), [
    ("small", {
        # s1 holds all of q1's 10 evidence characters in 20; s2 holds [45, 50) of q2's 10.
        "span_recall@1": {"q1": 1.0, "q2": 0.5, "q3": 0.0},
        "span_precision@1": {"q1": 0.5, "q2": 0.25, "q3": 0.0},
        "span_iou@1": {"q1": 0.5, "q2": 5 / 25, "q3": 0.0},
        "span_precision@2": {"q1": 10 / 40, "q2": 10 / 40, "q3": 0.0},
        # any overlap: q1 judges s1 relevant; q2 s0 (grade 2) and s2 (grade 1).
        "recall@1": {"q1": 1.0, "q2": 0.5, "q3": 0.0},
        # q2: s2 (gain 1) then s0 (gain 2); ideal 2 then 1.
        "ndcg@2": {"q1": 1.0, "q2": (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)),
                   "q3": 0.0},
    }),
    ("big", {
        # b0 = [0, 40) holds q1's evidence in 40; b1 = [20, 60) holds [45, 50).
        "span_recall@1": {"q1": 1.0, "q2": 0.5, "q3": 0.0},
        "span_precision@1": {"q1": 0.25, "q2": 5 / 40, "q3": 0.0},
        "span_iou@1": {"q1": 0.25, "q2": 5 / 45, "q3": 0.0},
        # both chunks: the union [0, 60), 60 characters counted once.
        "span_precision@2": {"q1": 10 / 60, "q2": 10 / 60, "q3": 0.0},
        # both big chunks touch q1's evidence: two relevant, one at rank 1.
        "recall@1": {"q1": 0.5, "q2": 0.5, "q3": 0.0},
        "ndcg@2": {"q1": 1.0, "q2": (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)),
                   "q3": 0.0},
    }),
])
def test_evaluate_by_hand(judgments, system, expected):
    result = evaluate(RUNS[system], judgments, NAMES, chunks=CHUNKS[system])
    assert list(result.per_query.columns) == NAMES
    assert list(result.per_query.index) == ["q1", "q2", "q3"]
    for name, by_query in expected.items():
        assert values(result, name) == pytest.approx(by_query, rel=1e-12), name
    assert result.summary["span_iou@1"] == pytest.approx(np.mean(list(
        expected["span_iou@1"].values())), rel=1e-12)
    assert result.queries_without_relevant == ("q3",)


def test_evaluate_agrees_with_span_metrics_and_chunk_judgments():
    squad = load_span_dataset("squad2_dev")
    chunks, run = squad.chunkings["window256"], squad.runs["window256"]
    evidence = squad.evidence["sentences"]
    names = ["span_recall@5", "span_iou@5", "span_precision@budget=2000", "recall@5", "mrr"]
    result = evaluate(run, evidence=evidence, documents=squad.documents, metrics=names,
                      chunks=chunks, empty_relevant="skip")
    by_span = span_metrics(run, chunks, evidence, k=5, documents=squad.documents,
                           empty_relevant="skip")
    budget = span_metrics(run, chunks, evidence, budget=2000, documents=squad.documents,
                          empty_relevant="skip")
    qrels = ChunkOverlaps(chunks, evidence, documents=squad.documents).qrels_mapping()
    by_ids = evaluate(run, qrels, ["recall@5", "mrr"], empty_relevant="skip")
    pd.testing.assert_index_equal(result.per_query.index, by_span.index)
    np.testing.assert_array_equal(result.per_query["span_recall@5"], by_span["recall"])
    np.testing.assert_array_equal(result.per_query["span_iou@5"], by_span["iou"])
    np.testing.assert_array_equal(result.per_query["span_precision@budget=2000"],
                                  budget["precision"])
    pd.testing.assert_frame_equal(result.per_query[["recall@5", "mrr"]], by_ids.per_query)
    assert len(result.per_query) == 706
    assert result.counts["span_iou@5"] == 386


def test_evidence_keywords_are_a_span_judgments(judgments):
    with quiet():
        by_object = evaluate(RUNS["big"], judgments, NAMES, chunks=BIG)
        by_keywords = evaluate(RUNS["big"], metrics=NAMES, chunks=BIG, evidence=EVIDENCE,
                               documents=DOCUMENTS)
    pd.testing.assert_frame_equal(by_object.per_query, by_keywords.per_query)


def test_integer_query_ids_and_a_chunking_given_as_text():
    documents = {"d": "Refunds take five days. Invoices are in Settings."}
    chunks = [{"chunk_id": "c1", "doc_id": "d", "text": "Refunds take five days."},
              {"chunk_id": "c2", "doc_id": "d", "text": "Invoices are in Settings."}]
    evidence = [{"query_id": 7, "doc_id": "d", "quote": "five days"},
                {"query_id": 10, "doc_id": "d", "quote": "in Settings"}]
    result = evaluate({10: ["c2"], 7: ["c2", "c1"]}, evidence=evidence, documents=documents,
                      chunks=chunks, metrics=["span_recall@1", "rr"])
    assert result.per_query.index.tolist() == [7, 10]
    assert result.per_query.to_dict("index") == {
        7: {"span_recall@1": 0.0, "rr": 0.5}, 10: {"span_recall@1": 1.0, "rr": 1.0}}


def test_the_rule_and_the_unit_travel_with_the_judgments():
    strict = SpanJudgments(EVIDENCE, documents=DOCUMENTS, rule="chunk_coverage",
                           threshold=0.5)
    with quiet(), pytest.warns(NoRelevantChunkWarning, match=r"2 queries have evidence, but "
                               r"no chunk of this chunking is relevant under rule "
                               r"'chunk_coverage': 'q1', 'q2'"):
        big = evaluate(RUNS["big"], strict, ["recall@2", "span_recall@2"], chunks=BIG)
    # No big chunk is half evidence: no relevant chunk, but the text is all retrieved.
    assert values(big, "recall@2") == {"q1": 0.0, "q2": 0.0, "q3": 0.0}
    assert values(big, "span_recall@2") == {"q1": 1.0, "q2": 1.0, "q3": 0.0}
    with quiet(), pytest.warns(NoRelevantChunkWarning, match=r"1 query has evidence.*: 'q2'"):
        small = evaluate(RUNS["small"], strict, ["recall@2"], chunks=SMALL)
    assert values(small, "recall@2") == {"q1": 1.0, "q2": 0.0, "q3": 0.0}  # s1: 10 of 20
    tokens = SpanJudgments(EVIDENCE, documents={"d": " ".join(["word"] * 12)}, unit="token")
    assert tokens.unit == "token"
    assert "tokens (word pieces" in tokens.unit_text()
    summed = SpanJudgments(EVIDENCE, overlap="sum")
    with quiet():
        by_sum = evaluate(RUNS["big"], summed, ["span_precision@2"], chunks=BIG)
    assert values(by_sum, "span_precision@2") == {"q1": 10 / 80, "q2": 10 / 80, "q3": 0.0}


def test_gaps_between_the_run_and_the_evidence():
    run = {"q1": ["s1"], "q9": ["s0"]}  # q2 and q3 missing; q9 has no evidence
    with quiet(), pytest.warns(CoverageWarning, match=r"2 queries with evidence missing from "
                               r"the run \(scored 0\); 1 query of the run without evidence"):
        zero = evaluate(run, evidence=EVIDENCE, chunks=SMALL, metrics=["span_iou@1", "mrr"])
    assert values(zero, "span_iou@1") == {"q1": 0.5, "q2": 0.0, "q3": 0.0}
    assert zero.queries_missing_from_run == ("q2", "q3")
    assert zero.queries_missing_from_qrels == ("q9",)
    with quiet(), pytest.warns(CoverageWarning):
        skip = evaluate(run, evidence=EVIDENCE, chunks=SMALL, metrics=["span_iou@1", "mrr"],
                        missing_from_run="skip")
    assert skip.per_query.to_dict("index") == {"q1": {"span_iou@1": 0.5, "mrr": 1.0}}
    with quiet(), pytest.warns(CoverageWarning):
        only_spans = evaluate(run, evidence=EVIDENCE, chunks=SMALL, metrics=["span_iou@1"],
                              missing_from_run="skip")
    assert values(only_spans, "span_iou@1") == {"q1": 0.5}


@pytest.mark.parametrize(("policy", "q3"), [("zero", 0.0), ("article", 1.0), ("skip", None)])
def test_a_question_without_evidence_under_each_policy(judgments, policy, q3):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate(RUNS["small"], judgments, ["span_recall@1", "recall@1"],
                          chunks=SMALL, empty_relevant=policy)
    said = [str(w.message) for w in caught if issubclass(w.category, RagmetricsWarning)]
    for name in ("span_recall@1", "recall@1"):
        got = result.per_query.loc["q3", name]
        assert (math.isnan(got) if q3 is None else got == q3), (policy, name)
    if policy == "skip":
        assert said == []
    else:
        assert said == ["1 query has no evidence (no span, or none graded >= 1): 'q3'; "
                        + ("scored 0 and counted in the mean" if policy == "zero" else
                           "scored by the article's rule (recall 1, the rest 0)")
                        + f" (empty_relevant={policy!r}; 'skip' leaves such queries out)"]
    with pytest.raises(InputValueError, match="query 'q3' has no evidence"):
        evaluate(RUNS["small"], judgments, ["span_recall@1"], chunks=SMALL,
                 empty_relevant="error")


@pytest.mark.filterwarnings("ignore::ragmetrics.errors.EmptyRelevantWarning")
@pytest.mark.parametrize("ties", ["trec_eval", "input_order", "doc_id_ascending",
                                  "optimistic", "pessimistic", "average"])
def test_every_tie_rule_reaches_the_span_metrics_through_evaluate(ties):
    # s0, s1 and s2 tie for q2 (given in that order): s0 holds [5, 10) of grade 2, s2
    # [45, 50) of grade 1, s1 nothing. At k=1, recall is 5/10 for s0 or s2 first, 0 for
    # s1; the id-based recall@1 judges s0 and s2 relevant (any overlap).
    run = {"q1": ["s1"], "q2": {"s0": 1.0, "s1": 1.0, "s2": 1.0}, "q3": ["s0"]}
    first = {"trec_eval": "s2", "input_order": "s0", "doc_id_ascending": "s0",
             "optimistic": "s0", "pessimistic": "s1"}
    result = evaluate(run, evidence=EVIDENCE, chunks=SMALL, documents=DOCUMENTS,
                      metrics=["span_recall@1", "recall@1"], ties=ties)
    if ties == "average":
        assert result.per_query.loc["q2"].tolist() == pytest.approx([1 / 3, 1 / 3])
    else:
        expected = 0.0 if first[ties] == "s1" else 0.5
        assert result.per_query.loc["q2"].tolist() == [expected, expected]
    direct = span_metrics(run, SMALL, EVIDENCE, k=1, documents=DOCUMENTS, ties=ties)
    assert result.per_query["span_recall@1"].tolist() == direct["recall"].tolist()


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: evaluate(RUNS["small"], {"q1": {"s1"}}, ["span_recall@1"]), InputValueError,
     r"'span_recall@1' measures retrieved text against evidence spans: pass evidence="),
    (lambda: evaluate(RUNS["small"], {"q1": {"s1"}}, ["mrr"], chunks=SMALL), InputValueError,
     r"chunks= is used with evidence spans"),
    (lambda: evaluate(RUNS["small"], evidence=EVIDENCE, metrics=["mrr"]), InputValueError,
     r"judgments from evidence need the run's chunking: pass chunks="),
    (lambda: evaluate(RUNS["small"], {"q1": {"s1"}}, ["mrr"], evidence=EVIDENCE,
                      chunks=SMALL), InputValueError, r"give the judgments one way"),
    (lambda: evaluate(RUNS["small"], {"q1": {"s1"}}, ["mrr"], documents=DOCUMENTS),
     InputValueError, r"documents= is for evidence spans"),
    (lambda: evaluate(RUNS["small"], SpanJudgments(EVIDENCE), ["mrr"], chunks=SMALL,
                      documents=DOCUMENTS), InputValueError, r"it holds the evidence"),
    (lambda: evaluate(RUNS["small"]), InputTypeError, r"evaluate needs the judgments"),
    # A run over another chunking is refused, even for id-based metrics alone.
    (lambda: evaluate(RUNS["big"], evidence=EVIDENCE, chunks=SMALL, metrics=["mrr"]),
     InputValueError, r"the run retrieves 5 ids that are not chunks of this chunking: 'b0'"),
    (lambda: evaluate(RUNS["small"], evidence=EVIDENCE, chunks=SMALL,
                      metrics=["span_recal@1"]), InputValueError,
     r"unknown span metric 'span_recal@1'"),
    (lambda: evaluate(RUNS["small"], evidence=EVIDENCE, chunks=SMALL,
                      metrics=["span_iou@5", "span_iou@5"]), InputValueError,
     r"metric 'span_iou@5' is requested twice"),
    (lambda: evaluate(RUNS["small"], evidence=EVIDENCE, chunks=SMALL, metrics=["span_iou@5"],
                      ties="random"), InputValueError, r"ties must be one of"),
    (lambda: SpanJudgments(EVIDENCE, rule="min_chars"), InputValueError,
     r"rule 'min_chars' needs a threshold"),
    (lambda: SpanJudgments(EVIDENCE, rule="most"), InputValueError, r"rule must be one of"),
    (lambda: SpanJudgments(EVIDENCE, unit="token"), InputValueError,
     r"unit='token' needs the documents' text"),
    (lambda: SpanJudgments(EVIDENCE, tokenizer=3), InputTypeError,
     r"tokenizer must be a callable"),
    (lambda: evaluate(RUNS["small"], evidence=[{"query_id": "q1", "doc_id": "d", "start": 5,
                                                  "end": 90}], documents=DOCUMENTS,
                      chunks=SMALL), InputValueError,
     r"evidence row 0 \(query_id 'q1'\): end 90 is past the end of document 'd'"),
])
def test_bad_calls_are_refused_naming_what_is_wrong(call, error, message):
    with quiet(), pytest.raises(error, match=message):
        call()


# -- compare -------------------------------------------------------------------------------


def test_compare_two_chunkings_by_hand(judgments):
    result = compare(RUNS, judgments, ["span_iou@1", "recall@1"], chunks=CHUNKS,
                     n_resamples=200)
    assert result.systems == ("small", "big")
    assert result.n_queries == 3
    for system, run in RUNS.items():
        with quiet():
            alone = evaluate(run, judgments, ["span_iou@1", "recall@1"], chunks=CHUNKS[system])
        pd.testing.assert_frame_equal(result.per_query[system], alone.per_query)
    iou = result.tests.loc[("span_iou@1", "big")]
    differences = [0.25 - 0.5, 5 / 45 - 5 / 25, 0.0]
    assert iou["difference"] == pytest.approx(np.mean(differences), rel=1e-12)
    assert (iou["wins"], iou["ties"], iou["losses"]) == (0, 1, 2)
    assert iou["verdict"] == "no significant difference"  # 3 questions cannot show one
    assert result.spans == {
        "judgments": "evidence spans: 3 spans in 1 document, for 3 queries (1 without "
                     "evidence)",
        "chunkings": "small: 3 chunks of 1 document; big: 2 chunks of 1 document",
        "span metrics": "characters; each character counted once, however many chunks "
                        "hold it (union)",
        "chunk relevance": "any_overlap: a chunk is relevant when it shares at least one "
                           "character with an evidence span (for the id-based metrics); its "
                           "grade is the highest of the spans it qualifies for",
    }
    assert any("1 query has no evidence" in w for w in result.warnings)
    card = result.to_markdown()
    assert "| chunkings | small: 3 chunks of 1 document; big: 2 chunks of 1 document |" in card
    assert "span_iou@1" in card
    assert "no significant difference" in card


def test_compare_defaults_to_span_metrics_and_one_chunking_serves_every_system():
    one = {"bm25": RUNS["small"], "reversed": {q: r[::-1] for q, r in RUNS["small"].items()}}
    result = compare(one, evidence=EVIDENCE, chunks=SMALL, n_resamples=100,
                     empty_relevant="skip")
    assert result.metrics == ("span_recall@5", "span_recall@10", "span_recall@20",
                              "span_precision@5", "span_precision@10", "span_precision@20",
                              "span_iou@5", "span_iou@10", "span_iou@20")
    assert result.summary.loc[("span_iou@5", "bm25"), "n_queries"] == 2  # q3 skipped
    # The one-metric note counts families: span recall and recall are two.
    assert not any("one metric alone" in w for w in compare(
        one, evidence=EVIDENCE, chunks=SMALL, metrics=["span_recall@1", "recall@1"],
        n_resamples=100, empty_relevant="skip").warnings)


def test_the_rule_warning_names_the_chunking_it_is_about():
    strict = SpanJudgments(EVIDENCE, rule="min_chars", threshold=10)
    result = compare(RUNS, strict, ["recall@2", "span_recall@2"], chunks=CHUNKS,
                     n_resamples=100, empty_relevant="skip")
    # s1 and b0, b1 share all 10 of q1's characters; q2's spans are 5 long: no chunk.
    notes = [w for w in result.warnings if "under rule 'min_chars'" in w]
    assert [note.split(":")[0] for note in notes] == ["small", "big"]


@pytest.mark.parametrize(("chunks", "message"), [
    ({"small": SMALL}, r"chunks= must give one chunking per system: none for 'big'"),
    ({"small": SMALL, "big": BIG, "dense": BIG}, r"'dense' not a system"),
    (None, r"judgments from evidence need each run's chunking"),
    ({"small": SMALL, "big": [{"chunk_id": "b0", "doc_id": "e", "start": 0, "end": 5}]},
     r"chunks of system 'big': chunks row 0 \(chunk_id 'b0'\): unknown document 'e'"),
])
def test_compare_refuses_chunkings_that_do_not_match_the_systems(chunks, message):
    with pytest.raises(InputValueError, match=message):
        compare(RUNS, evidence=EVIDENCE, documents=DOCUMENTS, chunks=chunks, n_resamples=50)


# -- the command line ----------------------------------------------------------------------


def cli(capsys, *args):
    status = main(["evaluate", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_compares_the_demo_chunkings_end_to_end(capsys, tmp_path):
    demo = DATA / "support_demo"
    chunkings = ("window128", "window512", "article")
    args = ["--documents", demo / "documents.jsonl", "--evidence", demo / "evidence" /
            "sentences.csv"]
    for name in chunkings:
        args += ["--chunks", demo / "chunkings" / f"{name}.csv",
                 demo / "runs" / f"bm25_{name}.tsv"]
    report = tmp_path / "chunkings.md"
    # The 512-word windows are longer than 2,000 characters for most questions.
    too_small = (r"^no chunk fits in the budget of 2000 characters for 62 of 72 queries with "
                 r"evidence: their first-ranked chunk alone is longer \(the shortest of them "
                 r"2101 characters\)")
    # compare says which chunking the warning is about, among its notes.
    with warnings.catch_warnings():
        warnings.simplefilter("error", BudgetWarning)
        status, out, err = cli(capsys, *args, "--names", ",".join(chunkings), "--k", "5,10",
                               "--metrics", "span_recall,span_iou,span_recall@budget=2000,recall",
                               "--resamples", "2000", "--report", report)
        assert status == 0, err
        squad = load_span_dataset("support_demo")
        expected = compare({name: squad.runs[name] for name in chunkings},
                           evidence=squad.evidence["sentences"], documents=squad.documents,
                           chunks={name: squad.chunkings[name] for name in chunkings},
                           metrics=["span_recall", "span_iou", "span_recall@budget=2000",
                                    "recall@5", "recall@10"], n_resamples=2000)
    assert [w for w in expected.warnings if re.match(too_small.replace("^", "^window512: "), w)]
    assert out == expected.to_text() + "\n"
    text = report.read_text()
    tests = expected.tests
    assert set(tests["verdict"]) <= {"window128 better", "window512 better", "article better",
                                     "no significant difference"}
    # The verdicts the report gives are the comparison's, on every span metric.
    for (metric, _system), verdict in tests["verdict"].items():
        assert f"| {metric} |" in text
        assert verdict in text
    assert "window512 vs window128 (baseline)" in text
    assert "| chunkings | window128: window128.csv, " in text
    assert "| span metrics | characters; each character counted once" in text
    mean = expected.summary.loc[("span_iou", "window128"), "mean"]
    assert f"{mean:.4f}" in text
    assert "report written to" in err


def test_the_command_on_squad_with_a_stricter_rule(capsys):
    squad = DATA / "squad2_dev"
    status, out, err = cli(
        capsys, "--evidence", squad / "evidence" / "answers.csv", "--documents",
        squad / "documents.jsonl", "--chunks", squad / "chunkings" / "paragraph.csv",
        squad / "runs" / "bm25_paragraph.tsv", "--chunks", squad / "chunkings" /
        "window512.csv", squad / "runs" / "bm25_window512.tsv", "--metrics",
        "span_recall@5,recall@5", "--rule", "evidence_coverage", "--threshold", "1",
        "--empty-relevant", "skip", "--resamples", "1000")
    assert status == 0, err
    assert "706 queries, 2 systems" in out
    assert "bm25_window512 vs bm25_paragraph (baseline)" in out


SQUAD_TOKENS = ["--evidence", DATA / "squad2_dev" / "evidence" / "answers.csv", "--documents",
                DATA / "squad2_dev" / "documents.jsonl", "--unit", "token",
                *(part for name in ("window128", "window256") for part in (
                    "--chunks", DATA / "squad2_dev" / "chunkings" / f"{name}.csv",
                    DATA / "squad2_dev" / "runs" / f"bm25_{name}.tsv")),
                "--metrics", "span_recall@5,span_iou@5", "--resamples", "200"]


def test_the_command_compares_token_metrics_on_squad(capsys):
    # Issue 23, item 3: recall@5 in tokens was 1.0000000000120628 on 83 questions of
    # window128, and the command exited 2, blaming the input for that rounding.
    status, out, err = cli(capsys, *SQUAD_TOKENS)
    assert status == 0, err
    assert "706 queries, 2 systems" in out


def test_the_command_reads_compressed_evidence_chunks_and_documents(capsys, tmp_path):
    # Issue 24, item 2: span files are read by ragmetrics.io, compressed as runs may be.
    import gzip

    demo = DATA / "support_demo"
    plain = [demo / "evidence" / "sentences.csv", demo / "documents.jsonl",
             demo / "chunkings" / "window128.csv"]
    packed = []
    for path in plain:
        packed.append(tmp_path / (path.name + ".gz"))
        packed[-1].write_bytes(gzip.compress(path.read_bytes()))
    outputs = []
    for evidence, documents, chunks in (plain, packed):
        status, out, err = cli(capsys, "--evidence", evidence, "--documents", documents,
                               "--chunks", chunks, demo / "runs" / "bm25_window128.tsv",
                               "--metrics", "span_recall@5,recall@5", "--resamples", "200")
        assert status == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1]
    assert re.search(r"span_recall@5\s+0\.5283 ", outputs[1])


def test_a_computed_value_outside_its_bounds_is_a_bug_not_bad_input(capsys, monkeypatch):
    # Should ragmetrics' own arithmetic ever pass a bound again, compare says it is a bug
    # (exit 1), naming the metric, the system, the query and the value.
    from ragmetrics.spans.metrics import SpanScorer

    scores = SpanScorer.scores

    def drifting(self, k=None, budget=None):
        values = scores(self, k, budget)
        values["recall"] = np.where(values["recall"] == 1.0, 1.0 + 2**-40, values["recall"])
        return values

    monkeypatch.setattr(SpanScorer, "scores", drifting)
    squad = load_span_dataset("squad2_dev")
    with pytest.raises(ArithmeticError) as caught:
        compare({"w128": squad.runs["window128"]}, evidence=squad.evidence["answers"],
                documents=squad.documents, chunks=squad.chunkings["window128"],
                metrics=["span_recall@5"], n_resamples=100)
    assert not isinstance(caught.value, ragmetrics.InputError)
    assert re.fullmatch(
        r"span_recall@5 of system 'w128' is 1\.0000000000009095 for query '[0-9a-f]{24}', "
        r"outside its bounds \[0, 1\]: a bug in ragmetrics' own arithmetic, not in the "
        r"input; please report it", str(caught.value)), caught.value
    status, out, err = cli(capsys, *SQUAD_TOKENS)
    assert (status, out) == (1, "")
    assert err.startswith("ragmetrics: error: internal error (a bug in ragmetrics, not in your "
                          "input): ArithmeticError: span_recall@5 of system ")


def test_a_single_chunking_serves_positional_runs(capsys):
    demo = DATA / "support_demo"
    status, out, err = cli(capsys, demo / "runs" / "bm25_window128.tsv", "--evidence",
                           demo / "evidence" / "sentences.csv", "--chunks",
                           demo / "chunkings" / "window128.csv", "--metrics", "span_iou@5",
                           "--resamples", "100")
    assert status == 0, err
    assert "span_iou@5" in out
    assert "72 queries, 1 system" in out


def test_a_run_after_an_option_is_still_a_run(capsys):
    golden = Path(__file__).resolve().parents[2] / "data" / "cli" / "golden.csv"
    bm25 = Path(__file__).resolve().parents[2] / "data" / "cli" / "bm25.csv"
    status, out, err = cli(capsys, golden, "--metrics", "mrr", bm25, "--resamples", "100")
    assert status == 0, err
    assert ["metric", "bm25"] in [line.split() for line in out.splitlines()]


def _write(folder, name, text):
    path = folder / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(("args", "message"), [
    (lambda t, d: ["--evidence", d / "evidence" / "sentences.csv"],
     r"--evidence judges runs over chunks: give each run's chunking"),
    (lambda t, d: ["--chunks", d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv"],
     r"--chunks is for runs judged by evidence spans: give --evidence FILE too"),
    (lambda t, d: [d / "golden.csv", "--evidence", d / "evidence" / "sentences.csv",
                   "--chunks", d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv"],
     r"the evidence is the golden set \(no GOLDEN\).*golden\.csv follows no --chunks"),
    (lambda t, d: ["--evidence", d / "evidence" / "sentences.csv", "--chunks",
                   d / "chunkings" / "article.csv", "--chunks", d / "chunkings" / "window128.csv",
                   d / "runs" / "bm25_window128.tsv"],
     r"--chunks .*article\.csv: no run follows it"),
    (lambda t, d: ["--evidence", _write(t, "e.csv", "query_id,doc_id,start,end\nq01,faq,x,5\n"),
                   "--chunks", d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv"],
     r"e\.csv, line 2: query_id 'q01': start must be an integer, got 'x'$"),
    (lambda t, d: ["--evidence", _write(t, "e.csv", "query_id,doc_id,start,end\n"
                                                    "q01,faq,0,99999999999999999999\n"),
                   "--chunks", d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv"],
     (r"e\.csv, line 2: query_id 'q01': end '99999999999999999999' does not fit a 64-bit "
      r"integer$")),
    (lambda t, d: ["--evidence", _write(t, "e.csv", "query_id,doc_id,start,end,relevance\n"
                                                    "q01,faq,0,5,1e300\n"),
                   "--chunks", d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv"],
     r"e\.csv, line 2: query_id 'q01': relevance '1e300' does not fit a 64-bit integer$"),
    (lambda t, d: ["--evidence", d / "evidence" / "sentences.csv", "--documents",
                   d / "documents.jsonl", "--chunks",
                   _write(t, "c.csv", "chunk_id,doc_id,start,end\nc1,nowhere,0,5\n"),
                   d / "runs" / "bm25_article.tsv"],
     r"c\.csv, line 2: chunk_id 'c1': unknown document 'nowhere'"),
    (lambda t, d: ["--evidence", d / "evidence" / "sentences.csv", "--chunks",
                   d / "chunkings" / "window128.csv", d / "runs" / "bm25_article.tsv"],
     (r"system 'bm25_article': the run retrieves .* ids that are not chunks of this "
     r"chunking")),
    (lambda t, d: ["--evidence", t / "none.csv", "--chunks", d / "chunkings" / "article.csv",
                   d / "runs" / "bm25_article.tsv"], r"--evidence file not found: .*none\.csv"),
    (lambda t, d: ["--evidence", d / "evidence" / "sentences.csv", "--rule", "min_chars",
                   "--chunks", d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv"],
     r"rule 'min_chars' needs a threshold"),
    (lambda t, d: ["--evidence", d / "evidence" / "sentences.csv", "--chunks",
                   d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv",
                   "--report", d / "chunkings" / "article.csv"],
     r"--report .*: the file name must end in"),
    (lambda t, d: ["--evidence", d / "evidence" / "sentences.csv", "--chunks",
                   d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv",
                   "--per-query", d / "evidence" / "sentences.csv"],
     r"--per-query .*sentences\.csv is --evidence .*: an output never replaces an input"),
    (lambda t, d: ["--evidence", d / "evidence" / "sentences.csv", "--unit", "token",
                   "--chunks", d / "chunkings" / "article.csv", d / "runs" / "bm25_article.tsv"],
     r"--unit token counts the documents' tokens: give --documents FILE"),
    (lambda t, d: [d / "golden.csv"], r"the following arguments are required: RUN"),
    (lambda t, d: [], r"the following arguments are required: GOLDEN, RUN"),
])
def test_bad_command_lines_exit_2_with_one_line(capsys, tmp_path, args, message):
    status, out, err = cli(capsys, *args(tmp_path, DATA / "support_demo"))
    assert status == 2, err
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("ragmetrics: error: ")
    assert re.search(message, err), err


def test_the_public_names():
    assert ragmetrics.SpanJudgments is ragmetrics.spans.SpanJudgments
    assert "SpanJudgments" in ragmetrics.__all__
