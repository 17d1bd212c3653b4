"""Judgments read by read_dataset score a run as pytrec_eval scores it on the same files,
parsed here independently (Python's csv and json, pyarrow's Parquet reader), as BEIR's,
MTEB's and LlamaIndex's own loaders parse them."""

from __future__ import annotations

import csv
import json
import random
import warnings
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import ragmetrics
from ragmetrics import RagmetricsWarning

pytrec_eval = pytest.importorskip("pytrec_eval")

DATA = Path(__file__).parents[1] / "data" / "datasets"
MEASURES = {"ndcg_cut_10": "ndcg@10", "recall_10": "recall@10", "P_5": "precision@5",
            "recip_rank": "mrr", "map": "map"}


def beir_qrels(path: Path) -> dict:
    """BEIR's GenericDataLoader._load_qrels: a header, then query, doc, int(score)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))[1:]
    qrels: dict = {}
    for query, doc, score in rows:
        qrels.setdefault(query, {})[doc] = int(score)
    return qrels


def mteb_qrels(path: Path) -> dict:
    qrels: dict = {}
    for row in pq.read_table(path).to_pylist():
        qrels.setdefault(str(row["query-id"]), {})[str(row["corpus-id"])] = int(row["score"])
    return qrels


def llamaindex_qrels(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {query: dict.fromkeys(docs, 1) for query, docs in data["relevant_docs"].items()}


CASES = {
    "beir-tiny": (DATA / "beir" / "tiny", lambda: beir_qrels(DATA / "beir/tiny/qrels/test.tsv")),
    "beir-nfcorpus": (DATA / "beir" / "nfcorpus",
                      lambda: beir_qrels(DATA / "beir/nfcorpus/qrels/test.tsv")),
    "mteb-mock": (DATA / "mteb" / "mock",
                  lambda: mteb_qrels(DATA / "mteb/mock/qrels/test-00000-of-00001.parquet")),
    "mteb-nfcorpus": (DATA / "mteb" / "nfcorpus",
                      lambda: mteb_qrels(DATA / "mteb/nfcorpus/data/test-00000-of-00001.parquet")),
    "llamaindex-tiny": (DATA / "llamaindex" / "tiny.json",
                        lambda: llamaindex_qrels(DATA / "llamaindex" / "tiny.json")),
    "llamaindex-fae": (DATA / "llamaindex" / "fae_val_dataset.json",
                       lambda: llamaindex_qrels(DATA / "llamaindex" / "fae_val_dataset.json")),
}


def drawn_run(qrels: dict, seed: int) -> dict:
    """Scores for every judged doc and a few unjudged ones, drawn with ties."""
    rng = random.Random(seed)
    docs = [*sorted({doc for judged in qrels.values() for doc in judged}), "x1", "x2", "x3"]
    return {query: {doc: float(rng.randint(0, 5)) for doc in rng.sample(docs, min(8, len(docs)))}
            for query in sorted(qrels)}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_per_query_values_equal_pytrec_evals_on_the_same_judgments(case, seed):
    path, independent = CASES[case]
    expected_qrels = independent()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        data = ragmetrics.read_dataset(path)
    read = {}
    for query, doc, grade in data.qrels.itertuples(index=False):
        read.setdefault(query, {})[doc] = int(grade)
    assert read == expected_qrels  # the same judgments, grade for grade

    run = drawn_run(expected_qrels, seed)
    expected = pytrec_eval.RelevanceEvaluator(expected_qrels, set(MEASURES)).evaluate(run)
    frame = pd.DataFrame([(q, d, s) for q, docs in run.items() for d, s in docs.items()],
                         columns=["query_id", "doc_id", "score"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        result = ragmetrics.evaluate(frame, data.qrels, list(MEASURES.values()))
    assert expected  # something to compare
    for query, scores in expected.items():
        for measure, metric in MEASURES.items():
            assert result.per_query.loc[query, metric] == pytest.approx(scores[measure],
                                                                        abs=1e-12), \
                (case, query, measure)
