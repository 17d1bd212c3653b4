"""Results of one query -> ranked ids: ids, pairs, dicts and duck-typed documents of
LangChain, Haystack and LlamaIndex (simple classes with their attributes), by key."""

from __future__ import annotations

import pandas as pd
import pytest

import ragmetrics
from ragmetrics.errors import InputTypeError, InputValueError
from ragmetrics.runners import ranked_ids, run_from_documents


class LangChainDocument:  # langchain_core.documents.Document
    def __init__(self, page_content, metadata=None, id=None):
        self.page_content, self.metadata, self.id = page_content, metadata or {}, id


class HaystackDocument:  # haystack.Document
    def __init__(self, id, content=None, meta=None, score=None):
        self.id, self.content, self.meta, self.score = id, content, meta or {}, score


class TextNode:  # llama_index.core.schema.TextNode
    def __init__(self, id_, text, metadata=None):
        self.id_, self.text, self.metadata = id_, text, metadata or {}

    @property
    def node_id(self):
        return self.id_

    def get_content(self):
        return self.text


class NodeWithScore:  # llama_index.core.schema.NodeWithScore
    def __init__(self, node, score=None):
        self.node, self.score = node, score

    @property
    def node_id(self):
        return self.node.node_id

    def get_content(self):
        return self.node.get_content()


def test_ids_pairs_and_dicts():
    assert ranked_ids(["d1", 7], query_id="q").ids == ["d1", "7"]
    found = ranked_ids([("d1", 2.0), {"doc_id": "d2", "score": 1}], query_id="q")
    assert (found.ids, found.scores, found.returned) == (["d1", "d2"], [2.0, 1.0], 2)
    assert ranked_ids(["d1", ("d2", 0.5)], query_id="q").scores is None  # one without


def test_langchain_documents_by_id_meta_and_content_and_with_scores():
    docs = [LangChainDocument("text a", {"source": "a.pdf", "page": 3}, id="c1"),
            LangChainDocument("text b", {"source": "b.pdf", "page": 1}, id="c2")]
    assert ranked_ids(docs, query_id="q").ids == ["c1", "c2"]
    assert ranked_ids(docs, query_id="q", key="meta.source").ids == ["a.pdf", "b.pdf"]
    assert ranked_ids(docs, query_id="q", key="content").ids == ["text a", "text b"]
    assert ranked_ids(docs, query_id="q", key=("meta.source", "meta.page")).ids == [
        "a.pdf#3", "b.pdf#1"]
    pairs = ranked_ids([(docs[0], 0.9), (docs[1], 0.1)], query_id="q")  # with_score
    assert pairs.scores == [0.9, 0.1]


def test_haystack_and_llamaindex_documents():
    hay = [HaystackDocument("h1", "x", {"file": "f.txt"}, 0.7), HaystackDocument("h2", "y")]
    found = ranked_ids(hay, query_id="q")
    assert found.ids == ["h1", "h2"]
    assert found.scores is None
    nodes = [NodeWithScore(TextNode("n1", "alpha", {"source": "s1"}), 0.8),
             NodeWithScore(TextNode("n2", "beta", {"source": "s2"}), 0.3)]
    found = ranked_ids(nodes, query_id="q")
    assert (found.ids, found.scores) == (["n1", "n2"], [0.8, 0.3])
    assert ranked_ids(nodes, query_id="q", key="content").ids == ["alpha", "beta"]
    assert ranked_ids(nodes, query_id="q", key="meta.source").ids == ["s1", "s2"]
    assert ranked_ids([TextNode("n9", "t")], query_id="q").ids == ["n9"]


def test_a_missing_or_none_key_is_refused_with_query_and_rank():
    # Haystack once compared None == None: every document without the field "matched".
    hay = [HaystackDocument("h1", meta={"source": "a"}), HaystackDocument("h2", meta={})]
    with pytest.raises(InputValueError, match=r"query 'q4', rank 2 has no 'meta.source'"):
        ranked_ids(hay, query_id="q4", key="meta.source")
    with pytest.raises(InputValueError, match=r"query 'q4', rank 1 has no 'id'"):
        ranked_ids([LangChainDocument("t", id=None)], query_id="q4")
    with pytest.raises(InputValueError, match=r"query 'q1', rank 1 has no 'meta.x'"):
        ranked_ids([{"id": "d", "metadata": {"x": None}}], query_id="q1", key="meta.x")
    with pytest.raises(InputValueError, match="which has no 'content'"):
        ranked_ids(["d1"], query_id="q1", key="content")
    with pytest.raises(InputTypeError, match=r"rank 1: 'meta.x' must be text or an int"):
        ranked_ids([{"id": "d", "meta": {"x": 1.5}}], query_id="q1", key="meta.x")


def test_repeated_ids_error_or_first_and_the_cut_to_k():
    chunks = [{"id": f"c{i}", "metadata": {"source": s}, "score": 1 - i / 10}
              for i, s in enumerate(["a", "b", "a", "c", "b"])]
    with pytest.raises(InputValueError, match=r"rank 3: 'a' again \(first at rank 1\)"):
        ranked_ids(chunks, query_id="q1", key="meta.source")
    found = ranked_ids(chunks, query_id="q1", key="meta.source", duplicates="first")
    assert found.ids == ["a", "b", "c"]
    assert found.scores == [1.0, 0.9, 0.7]
    assert ranked_ids(chunks, query_id="q1", k=2).ids == ["c0", "c1"]
    assert ranked_ids(chunks, query_id="q1", k=2).returned == 5


def test_bad_output_is_refused_naming_the_query():
    for bad in (None, "d1", {"d1": 1.0}, 42):
        with pytest.raises(InputTypeError, match=r"query 'q9': the retriever must return"):
            ranked_ids(bad, query_id="q9")
    with pytest.raises(InputTypeError, match=r"rank 1: a score must be a number"):
        ranked_ids([("d1", float("nan"))], query_id="q9")
    with pytest.raises(InputValueError, match="holds '#'"):
        ranked_ids([{"id": "d", "meta": {"s": "a#b", "p": 1}}], query_id="q9",
                   key=("meta.s", "meta.p"))
    with pytest.raises(InputValueError, match="each part must be"):
        ranked_ids(["d"], query_id="q", key="metadata.source")


def test_run_from_documents_has_read_runs_dtypes_and_evaluates():
    results = {"q1": [HaystackDocument("d2", score=0.9), HaystackDocument("d1", score=0.5)],
               "q2": [HaystackDocument("d3", score=0.2)], 3: []}
    run = run_from_documents(results)
    assert list(run.columns) == ["query_id", "doc_id", "rank", "score"]
    expected = pd.Series([], dtype=str).dtype
    assert run["query_id"].dtype == expected
    assert run["doc_id"].dtype == expected
    assert run["rank"].dtype == "int64"
    assert run["score"].dtype == "float64"
    assert run["rank"].tolist() == [1, 2, 1]
    result = ragmetrics.evaluate(run, {"q1": {"d1"}, "q2": {"d3"}}, ["mrr"])
    assert float(result.summary["mrr"]) == pytest.approx(0.75)
    assert list(run_from_documents({"q1": ["a", "b"]}).columns) == [
        "query_id", "doc_id", "rank"]


def test_rising_scores_are_refused_unless_dropped():
    results = {"q1": [("d1", 0.2), ("d2", 0.9)]}  # distances: lower is closer
    with pytest.raises(InputValueError, match=r"query 'q1': the score rises .*rank 2: 0.9"):
        run_from_documents(results)
    run = run_from_documents(results, scores="drop")
    assert "score" not in run.columns
    assert run["doc_id"].tolist() == ["d1", "d2"]


def test_doc_level_collapse_keeps_the_best_rank():
    results = {"q1": [LangChainDocument("x", {"source": "a"}), LangChainDocument("y", {
        "source": "b"}), LangChainDocument("z", {"source": "a"})]}
    run = run_from_documents(results, key="meta.source", duplicates="first", k=5)
    assert run[["doc_id", "rank"]].values.tolist() == [["a", 1], ["b", 2]]
    with pytest.raises(InputValueError, match="duplicates must be one of"):
        run_from_documents(results, duplicates="last")
    with pytest.raises(InputTypeError, match="results must be a mapping"):
        run_from_documents([("q1", ["a"])])
