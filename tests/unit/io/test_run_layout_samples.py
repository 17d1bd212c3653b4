"""Runs written by the retrieval tools themselves (BEIR 2.2.0, llama-index-core 0.14.20,
openinference-instrumentation-llama-index 4.6.1), read back: tests/data/run_layouts/
<format>/sample_* and the make_sample.py beside each that wrote them."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ragmetrics import evaluate
from ragmetrics.errors import FormatError
from ragmetrics.io import read_dataset, read_llamaindex_results, read_openinference_spans, read_run

DATA = Path(__file__).resolve().parents[2] / "data" / "run_layouts"
NODE = {  # the LlamaIndex sample's node ids (uuid5), by the name make_sample.py gives them
    "green-tea": "aeaaaa94-add8-5450-89fe-411271a8880e",
    "black-tea": "c11a2a03-8dc4-5a4e-97d8-8c7527bc2d1b",
    "tea-water": "06131b4d-938f-5ab1-93c2-7f50e729e7a0",
    "cold-brew": "26a0449f-0f30-5f9d-9eb1-36e605a17241",
    "bike-chain": "23b8bce3-9152-5e3d-8344-752244ed317e",
    "bike-tyres": "efd86887-f587-51a6-844c-1363f1ccb191",
    "train-night": "735e0e2f-666e-5b8f-8457-25d35b4949f3",
}


# -- BEIR -------------------------------------------------------------------------------


def test_beir_sample_is_read_by_score_not_in_beirs_heap_order():
    path = DATA / "beir" / "sample_results.json"
    # DenseRetrievalExactSearch fills each query's dict from its top-k heap: not by score.
    assert list(json.loads(path.read_text())["q1"]) == [
        "bike-tyres", "espresso", "green-tea", "tea-water", "cold-brew"]
    run = read_run(path, format="beir")
    assert len(run) == 25
    assert run[run["query_id"] == "q1"].values.tolist() == [
        ["q1", "tea-water", 0.6963106393814087], ["q1", "cold-brew", 0.5229763984680176],
        ["q1", "green-tea", 0.5222330093383789], ["q1", "espresso", 0.3823595643043518],
        ["q1", "bike-tyres", 0.3207501769065857]]


def test_beir_save_runfile_writes_rank_0_and_the_score_decides():
    run = read_run(DATA / "beir" / "sample_results.json", format="beir")
    trec = read_run(DATA / "beir" / "sample_results.trec", format="trec")
    assert set(trec["rank"]) == {0}
    assert set(trec["run_name"]) == {"beir"}
    pd.testing.assert_frame_equal(trec[["query_id", "doc_id", "score"]], run)
    qrels = read_dataset(DATA / "beir" / "sample").qrels
    metrics = ["ndcg@5", "map@5", "mrr@5", "recall@3"]
    pd.testing.assert_frame_equal(evaluate(trec, qrels, metrics).per_query,
                                  evaluate(run, qrels, metrics).per_query)


def test_beir_sample_data_set_is_read_as_beir_wrote_it():
    dataset = read_dataset(DATA / "beir" / "sample")
    assert dataset.qrels.values.tolist() == [
        ["q1", "tea-water", 1], ["q2", "black-tea", 1], ["q3", "cold-brew", 1],
        ["q4", "bike-chain", 1], ["q4", "bike-tyres", 1], ["q5", "train-night", 1]]
    assert len(dataset.documents) == 8


# -- LlamaIndex -------------------------------------------------------------------------


def test_llamaindex_sample_run_and_judgments_pair_with_its_saved_dataset():
    dataset = read_dataset(DATA / "llamaindex" / "sample_dataset.json")
    result = read_llamaindex_results(DATA / "llamaindex" / "sample_results.json",
                                     queries=dataset)
    assert result.queries["query_id"].tolist() == ["q1", "q2", "q3", "q4", "q5"]
    assert result.run[result.run["query_id"] == "q2"].values.tolist() == [
        ["q2", NODE["green-tea"], 1], ["q2", NODE["black-tea"], 2],
        ["q2", NODE["tea-water"], 3]]
    assert len(result.run) == 15
    pd.testing.assert_frame_equal(result.qrels, dataset.qrels)
    assert read_run(DATA / "llamaindex" / "sample_results.json",
                    format="llamaindex")["query_id"].iloc[0] == (
        "How hot should the water be for green tea?")


def test_llamaindex_sample_mrr_and_hit_rate_are_llamaindexs():
    # LlamaIndex computed hit_rate and mrr on each record (metric_dict): ragmetrics' MRR
    # and Success@3 on the records' run and expected_ids give the same numbers.
    path = DATA / "llamaindex" / "sample_results.json"
    result = read_llamaindex_results(path)
    per_query = evaluate(result.run, result.qrels, ["mrr", "success@3"]).per_query
    records = json.loads(path.read_text())
    assert [r["metric_dict"]["mrr"]["score"] for r in records] == [1.0, 0.5, 1.0, 1.0, 0.0]
    for record in records:
        assert per_query.loc[record["query"], "mrr"] == record["metric_dict"]["mrr"]["score"]
        assert per_query.loc[record["query"], "success@3"] == (
            record["metric_dict"]["hit_rate"]["score"])


# -- OpenInference ----------------------------------------------------------------------


def test_openinference_sample_console_and_otlp_read_alike():
    dataset = read_dataset(DATA / "llamaindex" / "sample_dataset.json")
    console = read_openinference_spans(DATA / "openinference" / "sample_console_spans.json",
                                       queries=dataset)
    otlp = read_openinference_spans(DATA / "openinference" / "sample_otlp.json",
                                    queries=dataset)
    pd.testing.assert_frame_equal(console.run, otlp.run)
    pd.testing.assert_frame_equal(console.queries, otlp.queries)
    # 6 EMBEDDING spans and the 4 VectorIndexRetriever._retrieve / NoHits._retrieve spans,
    # each inside the RETRIEVER span of its retrieve call.
    assert console.skipped == otlp.skipped == 10
    assert console.queries["query_id"].tolist() == ["q2", "q4", "q5", "q3"]
    assert console.run[console.run["query_id"] == "q4"].values.tolist() == [
        ["q4", NODE["bike-chain"], 1, 0.5832118435198044],
        ["q4", NODE["bike-tyres"], 2, 0.41147559989891175],
        ["q4", NODE["black-tea"], 3, 0.3380617018914066]]
    assert "q3" not in set(console.run["query_id"])  # NoHits retrieved nothing


def test_openinference_sample_ranks_as_the_llamaindex_sample():
    # The same retriever: the spans' documents are the records' retrieved_ids.
    dataset = read_dataset(DATA / "llamaindex" / "sample_dataset.json")
    spans = read_openinference_spans(DATA / "openinference" / "sample_console_spans.json",
                                     queries=dataset).run
    records = read_llamaindex_results(DATA / "llamaindex" / "sample_results.json",
                                      queries=dataset).run
    pd.testing.assert_frame_equal(
        spans[["query_id", "doc_id", "rank"]],
        records[records["query_id"].isin(["q2", "q4", "q5"])].reset_index(drop=True))


def test_openinference_sample_by_trace_span_and_input():
    path = DATA / "openinference" / "sample_console_spans.json"
    by_trace = read_openinference_spans(path)
    assert by_trace.run["query_id"].str.fullmatch("0x[0-9a-f]{32}").all()
    assert by_trace.run["query_id"].nunique() == 3
    by_span = read_openinference_spans(path, query_id="span")
    assert by_span.run["query_id"].str.fullmatch("0x[0-9a-f]{16}").all()
    by_input = read_openinference_spans(path, query_id="input")
    assert by_input.queries["text"].tolist() == [
        "How is black tea made from the leaves?",
        "How often should a bicycle chain be oiled and the tyres pumped?",
        "Is there a way to sleep while going to another city?",
        "How long does cold brew coffee steep?"]


def _retriever(span: str, docs: list[str], *, parent: str | None = None, trace: str = "t1",
               text: str = "Q") -> dict:
    attributes = {"openinference.span.kind": "RETRIEVER", "input.value": text}
    for i, doc in enumerate(docs):
        attributes[f"retrieval.documents.{i}.document.id"] = doc
    return {"context": {"trace_id": trace, "span_id": span}, "parent_id": parent,
            "attributes": attributes}


def test_openinference_passes_over_a_retrieval_inside_a_retrieval():
    inner = '{"query_bundle": {"query_str": "Q", "image_path": null}}'
    # LlamaIndex's order: the inner span ends, and is exported, first.
    spans = [_retriever("s2", [], parent="s1", text=inner), _retriever("s1", ["d4", "d1"])]
    result = read_openinference_spans(spans, queries={"q1": "Q"})
    assert result.run.values.tolist() == [["q1", "d4", 1], ["q1", "d1", 2]]
    assert result.skipped == 1
    # Nothing found: two spans without documents, the inner one passed over.
    empty = read_openinference_spans([_retriever("s2", [], parent="s1", text=inner),
                                      _retriever("s1", [])], queries={"q1": "Q"})
    assert empty.run.empty
    assert empty.queries.values.tolist() == [["q1", "Q"]]
    assert empty.skipped == 1
    # Without a parent id: a span with no document beside one with documents in its trace.
    unlinked = read_openinference_spans([_retriever("s2", [], text=inner),
                                         _retriever("s1", ["d4"])], query_id="trace")
    assert unlinked.run.values.tolist() == [["t1", "d4", 1]]
    # Nothing tells which of two spans without documents, unrelated, is the query's.
    with pytest.raises(FormatError, match="query 't1' is ranked twice, span 's2' and span "
                                          "'s1'"):
        read_openinference_spans([_retriever("s2", [], text=inner), _retriever("s1", [])])
    # A span with documents inside another is a second ranking, as before.
    with pytest.raises(FormatError, match="query 't1' is ranked twice"):
        read_openinference_spans([_retriever("s2", ["d1"], parent="s1"),
                                  _retriever("s1", ["d4"])])


def test_openinference_a_query_that_found_nothing_keeps_its_place():
    spans = [_retriever("s0", [], trace="t0", text="A"), _retriever("s1", ["d4"], text="B"),
             _retriever("s2", [], trace="t2", text="C")]
    result = read_openinference_spans(spans)
    assert result.queries.values.tolist() == [["t0", "A"], ["t1", "B"], ["t2", "C"]]
    assert result.run.values.tolist() == [["t1", "d4", 1]]
    assert result.skipped == 0
