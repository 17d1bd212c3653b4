"""The tools' run layouts: BEIR results, LlamaIndex evaluations, OpenInference spans."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ragmetrics.errors import FormatError, InputValueError
from ragmetrics.io import (
    read_beir_results,
    read_llamaindex_results,
    read_openinference_spans,
    read_run,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "run_layouts"


def _raises(message: str, call, *args, **kwargs):
    with pytest.raises(FormatError) as caught:
        call(*args, **kwargs)
    assert str(caught.value) == message
    return caught.value


# -- BEIR -------------------------------------------------------------------------------


def test_beir_results_sort_by_score_and_keep_ties_in_file_order():
    run = read_run(DATA / "beir" / "results.json", format="beir")
    assert list(run.columns) == ["query_id", "doc_id", "score"]
    assert str(run["query_id"].dtype) == "str"
    assert str(run["doc_id"].dtype) == "str"
    assert run["doc_id"].tolist() == ["d1", "d3", "d7", "d2", "d2", "d9"]
    assert run["score"].tolist() == [14.0, 12.5, 12.5, 3.25, 0.91, 0.4]
    assert run["query_id"].tolist() == ["q1"] * 4 + ["q2"] * 2  # q3: {} has no rows


def test_beir_results_from_the_dict_and_a_gzip_file(tmp_path):
    results = json.loads((DATA / "beir" / "results.json").read_text())
    path = tmp_path / "results.json.gz"
    path.write_bytes(gzip.compress((DATA / "beir" / "results.json").read_bytes()))
    pd.testing.assert_frame_equal(read_beir_results(results), read_beir_results(path))


def test_beir_results_column_at_a_time_equal_the_record_by_record_reading():
    # Integer query ids send the dict down the record-by-record path: both orders agree,
    # ties (scores on a grid of 8 values) in the order the dict lists them.
    rng = np.random.default_rng(7)
    results = {f"q{q}": {f"d{d}": float(rng.integers(0, 8)) / 4
                         for d in rng.choice(500, 40, replace=False)} for q in range(30)}
    results["q3"] = {}
    fast = read_beir_results(results)
    slow = read_beir_results({int(q[1:]): docs for q, docs in results.items()})
    slow["query_id"] = "q" + slow["query_id"]
    pd.testing.assert_frame_equal(fast, slow)
    assert len(fast) == 29 * 40
    first = sorted(results["q0"].items(), key=lambda pair: -pair[1])  # stable, as listed
    assert fast["doc_id"].tolist()[:40] == [doc for doc, _ in first]


@pytest.mark.parametrize(("text", "message"), [
    ('{\n "q1": {"d1": 1.0},\n "q2": {"d1": "0.5"}\n}',
     ("{p}, line 3: query 'q2', doc 'd1': the score must be a number, got '0.5', a string; "
     "write numbers without quotes: ' \"q2\": {\"d1\": \"0.5\"}'")),
    ('{"q1": {"d1": null}}',
     ("{p}, line 1: query 'q1', doc 'd1': the score must be a number, got null: "
     "'{\"q1\": {\"d1\": null}}'")),
    ('{"q1": {"d1": NaN}}',
     ("{p}, line 1: query 'q1', doc 'd1': the score must be a finite number, got nan: "
     "'{\"q1\": {\"d1\": NaN}}'")),
    ('{"q1": {"d1": 1, "d1": 2}}',
     ("{p}, line 1: the key 'd1' appears twice in one JSON object; which one is meant cannot "
     "be told: '{\"q1\": {\"d1\": 1, \"d1\": 2}}'")),
    ('{"q1": {"d1": 1},\n"q1": {"d2": 2}}',
     ("{p}, line 2: query 'q1' is ranked twice, on line 1 and on line 2; a run ranks each "
     "query once: '\"q1\": {\"d2\": 2}}'")),
    ('{"q1": ["d1"]}',
     ("{p}, line 1: query 'q1': expected an object {doc_id: score}, got a list: "
     "'{\"q1\": [\"d1\"]}'")),
    ('{"q1": {"": 1}}', "{p}, line 1: a doc id of query 'q1' is empty: '{\"q1\": {\"\": 1}}'"),
    ('[{"q1": {}}]',
     ("{p}, line 1: expected one JSON object {query_id: {doc_id: score}}, got a list: "
     "'[{\"q1\": {}}]'")),
    ("", "{p}: the file holds no JSON: expected an object {query_id: {doc_id: score}}"),
    ('{"q1": {"d1": 1}', ("{p}, line 1: not valid JSON: expected ',' or '}' after a query's "
     "results, found the end of the file: '{\"q1\": {\"d1\": 1}'")),
])
def test_beir_results_refuse_what_they_cannot_read(tmp_path, text, message):
    path = tmp_path / "results.json"
    path.write_text(text)
    _raises(message.replace("{p}", str(path)), read_beir_results, path)


def test_beir_results_in_memory_name_the_query_and_doc():
    _raises("<dict>: query 'q1', doc 'd2': the score must be a number, got true, a boolean",
            read_beir_results, {"q1": {"d1": 1.0, "d2": True}})


# -- LlamaIndex -------------------------------------------------------------------------


def test_llamaindex_results_give_the_run_and_the_judgments():
    result = read_llamaindex_results(DATA / "llamaindex" / "results.jsonl")
    assert result.run.values.tolist() == [
        ["Who founded the company?", "n7", 1], ["Who founded the company?", "n2", 2],
        ["Who founded the company?", "n4", 3], ["When did it open?", "n1", 1],
        ["When did it open?", "n3", 2]]
    assert result.qrels.values.tolist() == [
        ["Who founded the company?", "n2", 1], ["When did it open?", "n5", 1],
        ["When did it open?", "n1", 1], ["Where is it?", "n8", 1]]
    assert result.queries["text"].tolist() == result.queries["query_id"].tolist()
    assert repr(result).endswith("results.jsonl': 2 queries, 5 results, 4 judgments)")


def test_llamaindex_json_array_and_jsonl_read_alike():
    a = read_llamaindex_results(DATA / "llamaindex" / "results.json")
    b = read_llamaindex_results(DATA / "llamaindex" / "results.jsonl")
    pd.testing.assert_frame_equal(a.run, b.run)
    pd.testing.assert_frame_equal(a.qrels, b.qrels)


def test_llamaindex_query_ids_from_the_embedding_qa_dataset():
    dataset = json.loads((DATA / "llamaindex" / "embedding_qa_dataset.json").read_text())
    frame = pd.DataFrame({"query_id": list(dataset["queries"]),
                          "text": list(dataset["queries"].values())})
    for queries in (dataset["queries"], frame):
        result = read_llamaindex_results(DATA / "llamaindex" / "results.json",
                                         queries=queries)
        assert result.run["query_id"].tolist() == ["a1", "a1", "a1", "a2", "a2"]
        qrels = {(q, d) for q, ds in dataset["relevant_docs"].items() for d in ds}
        assert set(zip(result.qrels["query_id"], result.qrels["doc_id"], strict=True)) == qrels


def test_llamaindex_text_of_no_query_or_of_two(tmp_path):
    path = DATA / "llamaindex" / "results.jsonl"
    first = path.read_text().splitlines()[0]
    _raises(f"{path}, line 1: query 'Who founded the company?' is the text of no query "
            f"among the 1 given in queries=: {first[:117] + '...'!r}",
            read_llamaindex_results, path, queries={"x": "Other"})
    _raises(f"{path}, line 1: query 'Who founded the company?' is the text of 2 queries "
            f"('a1', 'b1'); which one was asked cannot be told: {first[:117] + '...'!r}",
            read_llamaindex_results, path,
            queries={"a1": "Who founded the company?", "b1": "Who founded the company?"})


@pytest.mark.parametrize(("record", "message"), [
    ({"query": "Q", "expected_ids": ["n1"]},
     ("the record has no 'retrieved_ids' (a LlamaIndex RetrievalEvalResult has 'query', "
     "'expected_ids' and 'retrieved_ids')")),
    ({"query": "Q", "expected_ids": ["n1"], "retrieved_ids": ["n1", None]},
     "retrieved_ids[1] must be a string or an integer id, got None"),
    ({"query": "Q", "expected_ids": ["n1", "n1"], "retrieved_ids": []},
     "query 'Q': expected_ids lists 'n1' twice; a judgment names each doc once"),
    ({"query": "", "expected_ids": [], "retrieved_ids": []},
     "'query' must be the query's text, got '', a string"),
    ({"query": "Q", "expected_ids": "n1", "retrieved_ids": []},
     "'expected_ids' must be a list of ids, got 'n1', a string"),
])
def test_llamaindex_hostile_records(record, message):
    _raises(f"<list>, item 1: {message}", read_llamaindex_results, [record])


def test_llamaindex_repeated_docs_and_queries(tmp_path):
    record = {"query": "Q", "expected_ids": [], "retrieved_ids": ["n1", "n2", "n1"]}
    assert read_llamaindex_results([record]).run["doc_id"].tolist() == ["n1", "n2", "n1"]
    _raises("<list>, item 1: query 'Q' lists doc 'n1' twice (positions 1 and 3); a ranking "
            "lists each doc once (to keep the highest-ranked copy: duplicates='keep' here, "
            "then duplicates='keep_first' in evaluate)",
            read_llamaindex_results, [record], duplicates="error")
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(record) + "\n\n" + json.dumps(record) + "\n")
    error = _raises(f"{path}, line 3: query 'Q' is ranked twice, line 1 and line 3; a run "
                    "ranks each query once (the query text is the query id): "
                    f"{json.dumps(record)!r}", read_llamaindex_results, path)
    assert error.line == 3


# -- OpenInference ----------------------------------------------------------------------


def test_openinference_rest_spans_by_trace():
    result = read_openinference_spans(DATA / "openinference" / "rest_spans.jsonl")
    assert result.run.values.tolist() == [["t1", "n7", 1, 0.82], ["t1", "n2", 2, 0.82],
                                          ["t1", "n4", 3, 0.31], ["t2", "n1", 1, 0.7],
                                          ["t2", "n3", 2, 0.2]]
    assert result.skipped == 2
    assert result.qrels is None
    assert result.queries.values.tolist() == [["t1", "Who founded the company?"],
                                              ["t2", "When did it open?"]]


def test_openinference_nested_flat_frame_parquet_and_otlp_read_alike(tmp_path):
    flat = read_openinference_spans(DATA / "openinference" / "rest_spans.jsonl")
    nested = read_openinference_spans(DATA / "openinference" / "phoenix_nested_spans.json")
    pd.testing.assert_frame_equal(flat.run, nested.run)
    # Phoenix's spans frame: "attributes.retrieval.documents" holds a list of dicts.
    spans = [json.loads(line) for line in
             (DATA / "openinference" / "rest_spans.jsonl").read_text().splitlines()]
    rows = []
    for span in spans:
        row = {"context.span_id": span["context"]["span_id"],
               "context.trace_id": span["context"]["trace_id"], "span_kind": span["span_kind"]}
        docs: dict[int, dict] = {}
        for k, v in span["attributes"].items():
            found = re.fullmatch(r"retrieval\.documents\.(\d+)\.(.+)", k)
            if found:
                docs.setdefault(int(found[1]), {})[found[2]] = v
            else:
                row[f"attributes.{k}"] = v
        row["attributes.retrieval.documents"] = [docs[i] for i in sorted(docs)] or None
        rows.append(row)
    frame = pd.DataFrame(rows).set_index("context.span_id", drop=False)
    pd.testing.assert_frame_equal(read_openinference_spans(frame).run, flat.run)
    frame.to_parquet(tmp_path / "spans.parquet")
    from_parquet = read_openinference_spans(tmp_path / "spans.parquet")
    pd.testing.assert_frame_equal(from_parquet.run, flat.run)
    assert from_parquet.skipped == 2
    otlp = {"resourceSpans": [{"scopeSpans": [{"spans": [
        {"traceId": s["context"]["trace_id"], "spanId": s["context"]["span_id"],
         "attributes": [{"key": "openinference.span.kind",
                         "value": {"stringValue": s["span_kind"]}}] + [
             {"key": k, "value": {"doubleValue" if isinstance(v, float) else "stringValue": v}}
             for k, v in s["attributes"].items()]} for s in spans]}]}]}
    (tmp_path / "otlp.json").write_text(json.dumps(otlp))
    pd.testing.assert_frame_equal(read_openinference_spans(tmp_path / "otlp.json").run,
                                  flat.run)


def test_openinference_console_export_spans_one_after_another(tmp_path):
    # The OpenTelemetry SDK's console exporter prints each span as pretty JSON, one after
    # another: the RETRIEVER span is read from its line 1, the LLM span skipped.
    path = DATA / "openinference" / "console_spans.json"
    result = read_openinference_spans(path)
    assert result.skipped == 1
    assert result.run.values.tolist() == [
        ["0x5b8aa5a2d2c872e8321cf37308d69df2", "c3a1e0d2-0001", 1, 0.8125],
        ["0x5b8aa5a2d2c872e8321cf37308d69df2", "c3a1e0d2-0002", 2, 0.75],
        ["0x5b8aa5a2d2c872e8321cf37308d69df2", "c3a1e0d2-0003", 3, 0.5]]
    by_text = read_openinference_spans(path, queries={"q9": "How long does a refund take?"})
    assert set(by_text.run["query_id"]) == {"q9"}
    assert read_run(path, format="openinference").equals(result.run)
    (tmp_path / "bad.json").write_text(
        path.read_text().replace('"c3a1e0d2-0002"', '" c3a1e0d2-0002"'))
    with pytest.raises(FormatError, match=r", line 1: RETRIEVER span '0x051581bf3cb55c13', "
                       r"document 1: document.id ' c3a1e0d2-0002' begins or ends with"):
        read_openinference_spans(tmp_path / "bad.json")


def _span(docs: dict, *, trace="t1", span="s1", kind="RETRIEVER", text="Q"):
    attributes = {"openinference.span.kind": kind, "input.value": text}
    attributes.update({f"retrieval.documents.{i}.document.{k}": v
                       for i, doc in docs.items() for k, v in doc.items()})
    return {"context": {"trace_id": trace, "span_id": span}, "attributes": attributes}


@pytest.mark.parametrize(("spans", "options", "message"), [
    ([_span({0: {"id": "d1"}, 1: {"content": "text"}})], {},
     ("<list>, item 1: RETRIEVER span 's1': document 1 has no document.id; key='content' "
     "takes the text as the id")),
    ([_span({0: {"id": "d1"}, 1: {"id": None}})], {},
     ("<list>, item 1: RETRIEVER span 's1': document 1 has no document.id; key='content' "
     "takes the text as the id")),
    ([_span({0: {"id": "d1"}, 2: {"id": "d3"}})], {},
     ("<list>, item 1: RETRIEVER span 's1': document 1 has no document.id; key='content' "
     "takes the text as the id")),
    ([_span({0: {"id": "d1", "score": "high"}})], {},
     ("<list>, item 1: RETRIEVER span 's1', document 0: the score must be a number, got "
     "'high', a string; write numbers without quotes")),
    ([_span({0: {"id": "d1", "score": 0.5}, 1: {"id": "d2"}})], {},
     ("<list>: query 't1': doc 'd2' (rank 2) has no document.score, while 'd1' (query 't1') "
     "has one; scores='ignore' reads the ranks alone")),
    ([_span({0: {"id": "d1"}}), _span({0: {"id": "d2"}}, span="s2")], {},
     ("<list>, item 2: query 't1' is ranked twice, span 's1' and span 's2'; a run ranks each "
     "query once (query_id='trace': one retrieval per trace; query_id='span' takes each "
     "span's id)")),
    ([_span({0: {"id": "d1"}, 1: {"id": "d1"}})], {"duplicates": "error"},
     ("<list>, item 1: query 't1' lists doc 'd1' twice (documents 1 and 2); a ranking lists "
     "each doc once (to keep the highest-ranked copy: duplicates='keep' here, then "
     "duplicates='keep_first' in evaluate)")),
    ([_span({0: {"id": "d1"}}, text="Other")], {"queries": {"q1": "Q"}},
     ("<list>, item 1: the query of RETRIEVER span 's1', 'Other' is the text of no query "
     "among the 1 given in queries=")),
    ([{"attributes": {"openinference.span.kind": "RETRIEVER"}}], {},
     "<list>, item 1: a RETRIEVER span has no span id (context.span_id)"),
])
def test_openinference_hostile_spans(spans, options, message):
    _raises(message, read_openinference_spans, spans, **options)


def test_openinference_options():
    spans = [_span({0: {"id": "d1", "content": "alpha", "score": 0.5},
                    1: {"id": "d1", "content": "beta", "score": 0.4}}),
             _span({}, trace="t2", span="s2", text="R"),
             _span({0: {"id": 7}}, trace="t3", span="s3", kind="LLM")]
    by_content = read_openinference_spans(spans, key="content")
    assert by_content.run["doc_id"].tolist() == ["alpha", "beta"]
    assert by_content.queries["query_id"].tolist() == ["t1", "t2"]  # t2: nothing retrieved
    assert read_openinference_spans(spans, query_id="span").run["query_id"].tolist() == [
        "s1", "s1"]
    assert read_openinference_spans(spans, query_id="input").run["query_id"].tolist() == [
        "Q", "Q"]
    assert list(read_openinference_spans(spans, scores="ignore").run.columns) == [
        "query_id", "doc_id", "rank"]
    with pytest.raises(InputValueError, match="query_id='span' cannot be used with it"):
        read_openinference_spans(spans, queries={"q": "Q"}, query_id="span")


def test_read_run_lists_the_layouts_in_a_wrong_format(tmp_path):
    with pytest.raises(InputValueError, match="'beir', 'llamaindex', 'openinference', 'ragas'; got "
                                              "'phoenix'"):
        read_run(tmp_path / "x.json", format="phoenix")
