"""Write the BEIR sample with BEIR itself (run from anywhere, offline, in a throwaway
environment).

What it does, as BEIR's examples do it: a tiny data set in BEIR's layout (``sample/``:
``corpus.jsonl``, ``queries.jsonl``, ``qrels/test.tsv``, the eight texts and five
questions of the LlamaIndex sample, ``../llamaindex/make_sample.py``, with readable doc
ids) is written here and loaded with ``GenericDataLoader(...).load(split="test")``;
``EvaluateRetrieval(DRES(model), k_values=[1, 3, 5], score_function="cos_sim")``
retrieves with BEIR's exact dense search (``DenseRetrievalExactSearch``, torch's cosine
and top-k), and writes:

- ``sample_results.json``: the ``results`` dict ``{query_id: {doc_id: score}}`` that
  ``retrieve`` returns, saved with ``json.dump`` (the docs of a query in the order BEIR
  leaves them, its heap's, not by score);
- ``sample_results.trec``: the same results written by ``beir.util.save_runfile``
  (``qid Q0 doc_id 0 score beir``: rank 0 on every line, the lines by score);
- ``sample_metrics.json``: what ``EvaluateRetrieval.evaluate`` (pytrec_eval underneath)
  and ``evaluate_custom(..., metric="mrr")`` report for these results: NDCG@k, MAP@k,
  Recall@k, P@k and MRR@k, means over the queries rounded to 5 digits.

Nothing is downloaded and no model is loaded: the model is a class written here whose
``encode_queries`` and ``encode_corpus`` return the word-count vectors of the LlamaIndex
sample (title and text, as BEIR's SentenceBERT joins them) as float32 NumPy arrays, so
the scores are float32 cosines, as a real dense model's.

The versions it was run with (beir's other requirements, sentence-transformers and the
rest, are not needed for this and were left out: ``--no-deps``; torch is the CPU build)::

    python3 -m venv /tmp/beirvenv
    /tmp/beirvenv/bin/pip install --no-deps beir==2.2.0
    /tmp/beirvenv/bin/pip install torch==2.13.0+cpu numpy==2.4.6 tqdm \\
        pytrec-eval-terrier==0.5.11 datasets==5.2.0 requests
    /tmp/beirvenv/bin/python tests/data/run_layouts/beir/make_sample.py

BEIR is imported inside the functions, so that pytest's doctest collection can import
this file where BEIR is not installed.
"""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "sample"
K_VALUES = [1, 3, 5]


def llamaindex_sample():
    """The LlamaIndex sample's script, as a module (its corpus and questions)."""
    spec = importlib.util.spec_from_file_location(
        "llamaindex_make_sample", HERE.parent / "llamaindex" / "make_sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_data_set(sample) -> None:
    """``sample/`` in BEIR's layout: corpus.jsonl, queries.jsonl, qrels/test.tsv."""
    (FOLDER / "qrels").mkdir(parents=True, exist_ok=True)
    (FOLDER / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": name, "title": "", "text": text}) + "\n"
        for name, text in sample.CORPUS), encoding="utf-8")
    (FOLDER / "queries.jsonl").write_text("".join(
        json.dumps({"_id": query_id, "text": question}) + "\n"
        for query_id, question, _ in sample.QUESTIONS), encoding="utf-8")
    with open(FOLDER / "qrels" / "test.tsv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["query-id", "corpus-id", "score"])
        for query_id, _, names in sample.QUESTIONS:
            writer.writerows([query_id, name, 1] for name in names)


def main() -> None:
    import numpy as np
    from beir import util
    from beir.datasets.data_loader import GenericDataLoader
    from beir.retrieval.evaluation import EvaluateRetrieval
    from beir.retrieval.search.dense import DenseRetrievalExactSearch as DRES

    sample = llamaindex_sample()

    class WordCountModel:
        """A BEIR dense model: word-count vectors, float32, no download."""

        def encode_queries(self, queries: list[str], batch_size: int = 16, **kwargs):
            return np.array([sample.word_counts(q) for q in queries], dtype=np.float32)

        def encode_corpus(self, corpus: list[dict], batch_size: int = 16, **kwargs):
            texts = [(doc.get("title", "") + " " + doc["text"]).strip() for doc in corpus]
            return np.array([sample.word_counts(t) for t in texts], dtype=np.float32)

    write_data_set(sample)
    corpus, queries, qrels = GenericDataLoader(data_folder=str(FOLDER)).load(split="test")
    retriever = EvaluateRetrieval(DRES(WordCountModel(), batch_size=16,
                                       show_progress_bar=False),
                                  k_values=K_VALUES, score_function="cos_sim")
    results = retriever.retrieve(corpus, queries)
    with open(HERE / "sample_results.json", "w", encoding="utf-8") as out:
        json.dump(results, out, indent=2)
        out.write("\n")
    util.save_runfile(str(HERE / "sample_results.trec"), results)
    ndcg, _map, recall, precision = retriever.evaluate(qrels, results, K_VALUES)
    mrr = retriever.evaluate_custom(qrels, results, K_VALUES, metric="mrr")
    with open(HERE / "sample_metrics.json", "w", encoding="utf-8") as out:
        json.dump({**ndcg, **_map, **recall, **precision, **mrr}, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
