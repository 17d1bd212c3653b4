"""RAGAS samples scored by ragmetrics against two oracles: pytrec_eval, and sets by hand.

Once the texts of RAGAS samples are matched to ids (:func:`ragmetrics.read_ragas_samples`),
the qrels and the run are ordinary ones: every number must equal pytrec_eval's on the
same qrels and run (trec_eval's C code). Text-keyed samples (no documents) are checked
against a hand computation written here, apart from the package: the set of retrieved
texts in the top k, whitespace normalised by ``str.split``, against the set of
reference texts.
"""

from __future__ import annotations

import ast
import contextlib
import csv
import json
import random
from pathlib import Path

import pytest

import ragmetrics
from ragmetrics import CoverageWarning, read_ragas_samples

pytrec_eval = pytest.importorskip("pytrec_eval")

DATA = Path(__file__).resolve().parents[1] / "data" / "ragas"
TOLERANCE = 1e-12
MEASURES = {"P_3": "precision@3", "recall_3": "recall@3", "ndcg_cut_3": "ndcg@3",
            "recip_rank": "mrr", "map": "map", "P_5": "precision@5", "recall_5": "recall@5"}
WORDS = ["refunds", "invoice", "billing", "card", "days", "parcel", "VAT", "address"]


def same_text(text: str) -> str:
    """The hand rule: a text up to whitespace (Python's str.split)."""
    return " ".join(text.split())


def respaced(text: str, rng: random.Random) -> str:
    """The text with its spaces changed (newlines, tabs, runs) and padded ends."""
    words = text.split(" ")
    out = words[0]
    for word in words[1:]:
        out += rng.choice([" ", "  ", "\n", "\t", " \n "]) + word
    return rng.choice(["", " ", "\n"]) + out + rng.choice(["", " ", "\n"])


def corpus(rng: random.Random, n: int) -> dict[str, str]:
    texts = set()
    while len(texts) < n:
        texts.add(" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))) + ".")
    return {f"c{i}": text for i, text in enumerate(sorted(texts))}


def samples(rng: random.Random, documents: dict[str, str], n: int) -> list[dict]:
    texts = list(documents.values())
    out = []
    for i in range(n):
        reference = rng.sample(texts, rng.randint(1, 4))
        retrieved = rng.sample(texts, rng.randint(0, 7))
        out.append({"user_input": f"question {i}?",
                    "reference_contexts": [respaced(t, rng) for t in reference],
                    "retrieved_contexts": [respaced(t, rng) for t in retrieved]})
    return out


def pytrec(qrels, run) -> dict:
    judged = {q: {d: int(r) for d, r in zip(g["doc_id"], g["relevance"], strict=True)}
              for q, g in qrels.groupby("query_id")}
    ranked = {q: {d: float(100 - r) for d, r in zip(g["doc_id"], g["rank"], strict=True)}
              for q, g in run.groupby("query_id")}
    evaluator = pytrec_eval.RelevanceEvaluator(judged, {"P.3,5", "recall.3,5", "ndcg_cut.3",
                                                        "recip_rank", "map"})
    return evaluator.evaluate(ranked)


def assert_equals_pytrec_eval(dataset) -> int:
    expected = pytrec(dataset.qrels, dataset.run)
    run = dataset.run[dataset.run["query_id"].isin(expected)]
    result = ragmetrics.evaluate(run, dataset.qrels[dataset.qrels["query_id"].isin(expected)],
                                 list(MEASURES.values()))
    for query, scores in expected.items():
        for measure, name in MEASURES.items():
            assert abs(result.per_query.loc[query, name] - scores[measure]) <= TOLERANCE, (
                query, name)
    return len(expected)


@pytest.mark.parametrize("seed", range(8))
def test_samples_matched_to_documents_score_as_pytrec_eval(seed):
    rng = random.Random(seed)
    documents = corpus(rng, 12)
    dataset = read_ragas_samples(samples(rng, documents, 15), documents=documents)
    assert dataset.text_matches.unmatched == dataset.text_matches.ambiguous == 0
    assert set(dataset.run["doc_id"]) <= set(documents)
    # Every query that retrieved something (each has references) is compared.
    assert assert_equals_pytrec_eval(dataset) == dataset.run["query_id"].nunique() >= 8


def test_the_id_samples_score_as_pytrec_eval():
    assert assert_equals_pytrec_eval(read_ragas_samples(DATA / "samples_ids.jsonl")) == 3


def hand_scores(sample: dict, k: int) -> tuple[float, float]:
    """recall@k and precision@k (trec_eval's P: hits / k) of one sample, by sets of texts."""
    relevant = {same_text(t) for t in sample["reference_contexts"]}
    top = [same_text(t) for t in sample["retrieved_contexts"][:k]]
    hits = sum(1 for t in top if t in relevant)
    return hits / len(relevant), hits / k


@pytest.mark.parametrize("seed", range(8))
def test_text_keyed_recall_and_precision_are_the_set_overlap(seed):
    rng = random.Random(100 + seed)
    given = samples(rng, corpus(rng, 10), 12)
    dataset = read_ragas_samples(given)
    assert dataset.text_matches.keyed_by == "text"
    with_run = set(dataset.run["query_id"])
    missing = [str(i) for i, sample in enumerate(given) if not sample["retrieved_contexts"]]
    with pytest.warns(CoverageWarning) if missing else contextlib.nullcontext():
        result = ragmetrics.evaluate(dataset.run, dataset.qrels, ["recall@3", "precision@3"])
    for i, sample in enumerate(given):
        recall, precision = hand_scores(sample, 3)
        if str(i) not in with_run:  # nothing retrieved: 0, and listed as missing
            assert str(i) in result.queries_missing_from_run
            recall = precision = 0.0
        assert result.per_query.loc[str(i), "recall@3"] == pytest.approx(recall, abs=1e-15)
        assert result.per_query.loc[str(i), "precision@3"] == pytest.approx(precision,
                                                                            abs=1e-15)


def test_the_fixture_and_the_real_samples_text_keyed_by_hand():
    jsonl = [json.loads(line) for line in (DATA / "samples.jsonl").read_text().splitlines()]
    dataset = read_ragas_samples(DATA / "samples.jsonl")
    judged = dataset.qrels["query_id"].unique().tolist()
    result = ragmetrics.evaluate(dataset.run[dataset.run["query_id"].isin(judged)],
                                 dataset.qrels, ["recall@2", "precision@2"])
    assert result.per_query["recall@2"].tolist() == [1.0, 0.5, 0.0]
    for i in range(3):
        assert result.per_query.loc[str(i)].tolist() == list(hand_scores(jsonl[i], 2))
    # The real file: its lists are Python literals, read here by csv and ast alone.
    with open(DATA / "lets_talk_rag_eval.csv", newline="") as handle:
        real = [{field: ast.literal_eval(row[field]) for field in ("reference_contexts",
                                                                    "retrieved_contexts")}
                for row in csv.DictReader(handle)]
    dataset = read_ragas_samples(DATA / "lets_talk_rag_eval.csv")
    result = ragmetrics.evaluate(dataset.run, dataset.qrels, ["recall@4", "precision@4"])
    hand = [hand_scores(sample, 4) for sample in real]
    assert result.per_query["recall@4"].tolist() == [h[0] for h in hand] == [1.0, 0.0, 0.0]
    assert result.per_query["precision@4"].tolist() == [h[1] for h in hand] == [0.25, 0.0, 0.0]
