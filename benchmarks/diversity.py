"""Time the diversity measures (ndeval's 21 columns) against ``evaluate``'s nDCG@20.

::

    python benchmarks/diversity.py [--queries 10000] [--docs 100] [--subtopics 5]
                                   [--repeat 3] [--seed 0]

One seeded synthetic run (``query_id, doc_id, score, rank``: ``--docs`` docs a query,
string ids) and judgments per subtopic (``--subtopics`` subtopics a query, about 30
judged docs a query, each relevant to each subtopic with chance 0.3). nDCG@20 is timed
on the same run against the same judgments read as one relevant set (a doc relevant to
any subtopic, grade 1), as ``evaluate(run, qrels, ["ndcg@20"])``. Both are timed end to
end from DataFrames, best of ``--repeat``; the ratio is printed (the target: within 3x),
and once more with the subtopic judgments read before (as when many runs are scored).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import ragmetrics
from ragmetrics.diversity import evaluate_diversity, subtopic_judgments


def synthetic(queries: int, docs: int, subtopics: int, seed: int):
    """(run, subtopic judgments, flat judgments) as DataFrames."""
    rng = np.random.default_rng(seed)
    query = np.repeat(np.arange(queries), docs)
    doc = rng.integers(0, 50 * docs, size=queries * docs)
    # Unique docs per query: the position in the query plus a random offset.
    doc = (np.tile(np.arange(docs), queries) * 50 + doc % 50).astype(np.int64)
    score = np.round(rng.normal(size=queries * docs), 2)  # ties
    rank = np.tile(np.arange(1, docs + 1), queries)
    run = pd.DataFrame({"query_id": [f"q{q}" for q in query],
                        "doc_id": [f"d{d:07d}" for d in doc],
                        "score": -np.sort(-score.reshape(queries, docs), axis=1).ravel(),
                        "rank": rank})
    judged = 30
    jq = np.repeat(np.arange(queries), judged)
    # Half the judged docs from the run, half from elsewhere.
    from_run = rng.integers(0, docs, size=queries * judged)
    picked = doc.reshape(queries, docs)[jq, from_run]
    other = 50 * docs + rng.integers(0, 1000, size=queries * judged)
    jdoc = np.where(rng.random(queries * judged) < 0.5, picked, other)
    frame = pd.DataFrame({"query_id": jq, "doc_id": jdoc}).drop_duplicates()
    rows = frame.loc[frame.index.repeat(subtopics)].reset_index(drop=True)
    rows["subtopic"] = np.tile(np.arange(1, subtopics + 1), len(frame))
    rows["relevance"] = (rng.random(len(rows)) < 0.3).astype(np.int64)
    rows["query_id"] = [f"q{q}" for q in rows["query_id"]]
    rows["doc_id"] = [f"d{d:07d}" for d in rows["doc_id"]]
    rows["subtopic"] = rows["subtopic"].astype(str)
    flat = (rows.groupby(["query_id", "doc_id"], sort=False)["relevance"].max()
            .reset_index())
    return run, rows[["query_id", "subtopic", "doc_id", "relevance"]], flat


def best_of(repeat: int, call) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--subtopics", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    run, subtopics, flat = synthetic(args.queries, args.docs, args.subtopics, args.seed)
    print(f"{args.queries:,} queries x {args.docs} docs x {args.subtopics} subtopics: "
          f"{len(run):,} run rows, {len(subtopics):,} subtopic judgments "
          f"({int(subtopics['relevance'].sum()):,} relevant)")
    scored = run[["query_id", "doc_id", "score"]]
    ndcg = best_of(args.repeat, lambda: ragmetrics.evaluate(scored, flat, ["ndcg@20"]))
    prepared = subtopic_judgments(subtopics)
    timings = {
        "ndeval's 21 columns (preset ndeval)":
            lambda: evaluate_diversity(run, subtopics, preset="ndeval"),
        "the same, by score (ndeval_traditional)":
            lambda: evaluate_diversity(run, subtopics, preset="ndeval_traditional"),
        "ndeval's 21, judgments read once before":
            lambda: evaluate_diversity(run, prepared, preset="ndeval"),
        "alpha_ndcg@20 alone":
            lambda: evaluate_diversity(run, subtopics, ["alpha_ndcg@20"]),
    }
    print(f"{'evaluate(run, qrels, [ndcg@20])':45s} {ndcg:7.3f} s")
    for name, call in timings.items():
        seconds = best_of(args.repeat, call)
        print(f"{name:45s} {seconds:7.3f} s   {seconds / ndcg:5.2f}x nDCG@20")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
