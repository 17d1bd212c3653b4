"""ragmetrics.evaluate on runs read from the tools' layouts equals pytrec_eval, per query."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ragmetrics import evaluate
from ragmetrics.io import (
    read_beir_results,
    read_dataset,
    read_llamaindex_results,
    read_openinference_spans,
)

pytrec_eval = pytest.importorskip("pytrec_eval")

DATA = Path(__file__).resolve().parents[1] / "data" / "run_layouts"
MEASURES = {"ndcg_cut_3": "ndcg@3", "recall_2": "recall@2", "P_2": "precision@2",
            "recip_rank": "mrr", "map": "map"}


def _check(run, qrels, pytrec_run):
    pytrec_qrels: dict = {}
    for q, d, r in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"], strict=True):
        pytrec_qrels.setdefault(q, {})[d] = int(r)
    expected = pytrec_eval.RelevanceEvaluator(pytrec_qrels, set(MEASURES)).evaluate(pytrec_run)
    ours = evaluate(run, qrels, list(MEASURES.values())).per_query
    for query, values in expected.items():
        for measure, name in MEASURES.items():
            got = float(ours.loc[query, name])
            assert got == pytest.approx(values[measure], abs=1e-12), (query, name)


def test_beir_results_match_pytrec_eval():
    results = json.loads((DATA / "beir" / "results.json").read_text())
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q2", "q2"],
                          "doc_id": ["d7", "d2", "d9", "d5"], "relevance": [2, 1, 1, 1]})
    run = read_beir_results(DATA / "beir" / "results.json")
    _check(run, qrels, {q: docs for q, docs in results.items() if docs})


def test_llamaindex_results_alone_match_pytrec_eval():
    result = read_llamaindex_results(DATA / "llamaindex" / "results.json")
    pytrec_run = {}
    for record in json.loads((DATA / "llamaindex" / "results.json").read_text()):
        n = len(record["retrieved_ids"])
        if n:  # pytrec_eval: rank order as descending scores
            pytrec_run[record["query"]] = {d: float(n - i)
                                           for i, d in enumerate(record["retrieved_ids"])}
    assert set(result.qrels["query_id"]) - set(pytrec_run) == {"Where is it?"}  # none found
    qrels = result.qrels[result.qrels["query_id"].isin(pytrec_run)]
    _check(result.run, qrels, pytrec_run)


def test_openinference_spans_match_pytrec_eval():
    result = read_openinference_spans(DATA / "openinference" / "rest_spans.jsonl",
                                      queries={"a1": "Who founded the company?",
                                               "a2": "When did it open?"})
    dataset = json.loads((DATA / "llamaindex" / "embedding_qa_dataset.json").read_text())
    qrels = pd.DataFrame([(q, d, 1) for q, ds in dataset["relevant_docs"].items()
                          for d in ds if q in ("a1", "a2")],
                         columns=["query_id", "doc_id", "relevance"])
    pytrec_run: dict = {}
    for q, d, s in zip(result.run["query_id"], result.run["doc_id"], result.run["score"],
                       strict=True):
        pytrec_run.setdefault(q, {})[d] = float(s)  # a tie (0.82): pytrec_eval's order
    _check(result.run, qrels, pytrec_run)


# -- the samples written by the tools themselves (tests/data/run_layouts/*/make_sample.py)


def test_beir_sample_matches_pytrec_eval_and_beirs_own_means():
    path = DATA / "beir" / "sample_results.json"
    qrels = read_dataset(DATA / "beir" / "sample").qrels
    run = read_beir_results(path)
    _check(run, qrels, json.loads(path.read_text()))
    # What BEIR's EvaluateRetrieval.evaluate and evaluate_custom("mrr") reported for these
    # results, means over the queries rounded to 5 digits.
    beir = json.loads((DATA / "beir" / "sample_metrics.json").read_text())
    names = {"NDCG": "ndcg", "MAP": "map", "Recall": "recall", "P": "precision", "MRR": "mrr"}
    ours = {f"{names[key.split('@')[0]]}@{key.split('@')[1]}": value
            for key, value in beir.items()}
    assert len(ours) == 15
    means = evaluate(run, qrels, list(ours)).per_query.mean()
    for metric, value in ours.items():
        assert round(float(means[metric]), 5) == value, metric


def test_llamaindex_sample_matches_pytrec_eval():
    dataset = read_dataset(DATA / "llamaindex" / "sample_dataset.json")
    result = read_llamaindex_results(DATA / "llamaindex" / "sample_results.json",
                                     queries=dataset)
    pytrec_run: dict = {}
    for q, d, r in zip(result.run["query_id"], result.run["doc_id"], result.run["rank"],
                       strict=True):
        pytrec_run.setdefault(q, {})[d] = float(100 - r)  # rank order as descending scores
    assert set(pytrec_run) == {"q1", "q2", "q3", "q4", "q5"}
    _check(result.run, dataset.qrels, pytrec_run)


def test_openinference_sample_matches_pytrec_eval():
    dataset = read_dataset(DATA / "llamaindex" / "sample_dataset.json")
    for name in ("sample_console_spans.json", "sample_otlp.json"):
        result = read_openinference_spans(DATA / "openinference" / name, queries=dataset)
        pytrec_run: dict = {}
        for q, d, s in zip(result.run["query_id"], result.run["doc_id"], result.run["score"],
                           strict=True):
            pytrec_run.setdefault(q, {})[d] = float(s)
        assert set(pytrec_run) == {"q2", "q4", "q5"}  # q3: nothing retrieved
        _check(result.run, dataset.qrels[dataset.qrels["query_id"].isin(pytrec_run)],
               pytrec_run)
