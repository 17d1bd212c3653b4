"""Write the LlamaIndex sample with LlamaIndex itself: ``sample_dataset.json`` and
``sample_results.json`` (run from anywhere, offline, in a throwaway environment).

What it does, as LlamaIndex's retrieval-evaluation guide does it: a tiny corpus of eight
``TextNode`` s goes into an in-memory ``VectorStoreIndex``; an
``EmbeddingQAFinetuneDataset`` of five questions names the nodes each question should
find (``save_json`` writes it); ``RetrieverEvaluator.from_metric_names(["hit_rate",
"mrr"], retriever=index.as_retriever(similarity_top_k=3))`` runs ``aevaluate_dataset``
on it; the results are dumped as ``[r.model_dump() for r in results]`` with ``json.dump``.

Nothing is downloaded and no model is loaded: the embedding is a word-count vector (each
word hashed to one of 64 dimensions with CRC-32), a ``BaseEmbedding`` subclass written
here, so the ranking is the same on every machine. The node ids are UUIDs, as LlamaIndex
gives nodes, made deterministic with ``uuid5``. The questions and texts were written for
this sample.

The versions it was run with (llama-index-core 0.14.20 is the last release whose core
still has ``EmbeddingQAFinetuneDataset`` and ``aevaluate_dataset``; 0.14.21 removed
them)::

    python3 -m venv /tmp/toolvenv
    /tmp/toolvenv/bin/pip install llama-index-core==0.14.20
    /tmp/toolvenv/bin/python tests/data/run_layouts/llamaindex/make_sample.py

The imports of LlamaIndex are inside the functions, so that pytest's doctest collection
can import this file where LlamaIndex is not installed.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
DIMENSIONS = 64
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "ragmetrics/tests/data/run_layouts")

# (name, text): the name only seeds the node's UUID.
CORPUS = [
    ("green-tea", ("Green tea leaves are steamed or pan fired soon after picking, so the "
                   "leaves stay green and the tea tastes fresh.")),
    ("black-tea", ("Black tea leaves are rolled and left to oxidise before drying, which "
                   "turns the leaves dark and the tea strong.")),
    ("tea-water", ("Brew green tea with water below boiling, about 80 degrees, for two "
                   "minutes; boiling water makes green tea bitter.")),
    ("espresso", ("Espresso is brewed by forcing hot water through finely ground coffee "
                  "under pressure for about 25 seconds.")),
    ("cold-brew", ("Cold brew coffee steeps coarse grounds in cold water for twelve hours "
                   "or more, then the grounds are filtered out.")),
    ("bike-chain", ("Clean and oil a bicycle chain every few hundred kilometres; a dry "
                    "chain wears the gears fast.")),
    ("bike-tyres", ("Road bicycle tyres are pumped to six to eight bar; check the pressure "
                    "every week because tyres lose air.")),
    ("train-night", ("Night trains leave in the evening and arrive in the morning, so the "
                     "journey costs no day of travel.")),
]

# (query id, question, the names of the nodes that answer it)
QUESTIONS = [
    ("q1", "How hot should the water be for green tea?", ["tea-water"]),
    ("q2", "How is black tea made from the leaves?", ["black-tea"]),
    ("q3", "How long does cold brew coffee steep?", ["cold-brew"]),
    ("q4", "How often should a bicycle chain be oiled and the tyres pumped?",
     ["bike-chain", "bike-tyres"]),
    ("q5", "Is there a way to sleep while going to another city?", ["train-night"]),
]


def node_id(name: str) -> str:
    """The node's id: a UUID, as LlamaIndex's, made from the name."""
    return str(uuid.uuid5(NAMESPACE, name))


def word_counts(text: str) -> list[float]:
    """A word-count vector: each lower-cased word adds 1 at its CRC-32 modulo 64."""
    vector = [0.0] * DIMENSIONS
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        vector[zlib.crc32(word.encode()) % DIMENSIONS] += 1.0
    return vector


def build_index():
    """The in-memory ``VectorStoreIndex`` of the corpus, with the word-count embedding."""
    from llama_index.core import VectorStoreIndex
    from llama_index.core.embeddings import BaseEmbedding
    from llama_index.core.schema import TextNode

    class WordCountEmbedding(BaseEmbedding):
        """Deterministic, offline: the word counts of the text."""

        def _get_query_embedding(self, query: str) -> list[float]:
            return word_counts(query)

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return word_counts(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return word_counts(text)

    nodes = [TextNode(id_=node_id(name), text=text) for name, text in CORPUS]
    return VectorStoreIndex(nodes, embed_model=WordCountEmbedding(model_name="word-counts"))


def build_dataset():
    """The ``EmbeddingQAFinetuneDataset`` of the questions (``mode="text"``)."""
    from llama_index.core.evaluation import EmbeddingQAFinetuneDataset

    return EmbeddingQAFinetuneDataset(
        queries={qid: question for qid, question, _ in QUESTIONS},
        corpus={node_id(name): text for name, text in CORPUS},
        relevant_docs={qid: [node_id(n) for n in names] for qid, _, names in QUESTIONS},
    )


def main() -> None:
    from llama_index.core.evaluation import RetrieverEvaluator

    index = build_index()
    dataset = build_dataset()
    dataset.save_json(str(HERE / "sample_dataset.json"))
    evaluator = RetrieverEvaluator.from_metric_names(
        ["hit_rate", "mrr"], retriever=index.as_retriever(similarity_top_k=3))
    # workers=1: the records come back in the dataset's order whatever the machine.
    results = asyncio.run(evaluator.aevaluate_dataset(dataset, workers=1))
    with open(HERE / "sample_results.json", "w", encoding="utf-8") as out:
        json.dump([r.model_dump() for r in results], out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
