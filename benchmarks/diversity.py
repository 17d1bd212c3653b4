"""Time the diversity measures (ndeval's 21 columns) against ``evaluate``'s nDCG@20.

::

    python benchmarks/diversity.py [--queries 10000] [--docs 100] [--subtopics 5]
                                   [--repeat 3] [--seed 0]

One seeded synthetic run (``query_id, doc_id, score, rank``: ``--docs`` docs a query,
string ids) and judgments per subtopic (``--subtopics`` subtopics a query, about 30
judged docs a query, each relevant to each subtopic with chance 0.3). nDCG@20 is timed
on the same run against the same judgments read as one relevant set (a doc relevant to
any subtopic, grade 1), as ``evaluate(run, qrels, ["ndcg@20"])``. Both are timed end to
end from DataFrames, best of ``--repeat``; the ratio is printed (the target: within 3x).
Then with the subtopic judgments read before (:func:`subtopic_judgments`, as when many
runs are scored): the first run scored against them builds their relevance matrix and
the ideal rankings, which they keep; a later run reuses both. ``make bench`` runs it
(``run_diversity``, ``render_diversity``; ``--no-diversity`` skips it).
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


def best_of(repeat: int, call, setup=None) -> float:
    """The best wall time of ``call(setup())`` (``call()`` without a setup); the setup is
    not timed."""
    times = []
    for _ in range(repeat):
        given = () if setup is None else (setup(),)
        start = time.perf_counter()
        call(*given)
        times.append(time.perf_counter() - start)
    return min(times)


def run_diversity(*, queries: int = 10_000, docs: int = 100, subtopics: int = 5,
                  repeat: int = 3, seed: int = 0, log=print) -> dict:
    """Every measurement, as a dict for the report (:func:`render_diversity`)."""
    log(f"  {queries:,} queries x {docs} docs x {subtopics} subtopics ...")
    run, judged, flat = synthetic(queries, docs, subtopics, seed)
    scored = run[["query_id", "doc_id", "score"]]
    ndcg = best_of(repeat, lambda: ragmetrics.evaluate(scored, flat, ["ndcg@20"]))
    prepared = subtopic_judgments(judged)
    evaluate_diversity(run, prepared)  # its relevance matrix and ideal rankings, kept
    evaluate_diversity(run, prepared, preset="ndeval_traditional")
    cases = {
        "ndeval's 21 columns, judgments from a DataFrame":
            (lambda: evaluate_diversity(run, judged, preset="ndeval"), None),
        "by score (ndeval_traditional), judgments from a DataFrame":
            (lambda: evaluate_diversity(run, judged, preset="ndeval_traditional"), None),
        "judgments read before, the first run scored":
            (lambda j: evaluate_diversity(run, j), lambda: subtopic_judgments(judged)),
        "judgments read before, a later run (ideal kept)":
            (lambda: evaluate_diversity(run, prepared), None),
        "by score (ndeval_traditional), a later run":
            (lambda: evaluate_diversity(run, prepared, preset="ndeval_traditional"), None),
        "alpha_ndcg@20 alone, judgments from a DataFrame":
            (lambda: evaluate_diversity(run, judged, ["alpha_ndcg@20"]), None),
    }
    seconds = {}
    for name, (call, setup) in cases.items():
        seconds[name] = best_of(repeat, call, setup)
        log(f"    {name:58s} {seconds[name]:.3f} s")
    return {"queries": queries, "docs": docs, "subtopics": subtopics, "repeat": repeat,
            "run_rows": len(run), "judgments": len(judged),
            "relevant": int(judged["relevance"].sum()), "ndcg": ndcg, "seconds": seconds}


def render_diversity(found: dict) -> str:
    """The measurements as Markdown: a row per case, its time and its ratio to nDCG@20."""
    lines = [(f"{found['queries']:,} queries x {found['docs']} docs x {found['subtopics']} "
              f"subtopics: {found['run_rows']:,} run rows, {found['judgments']:,} subtopic "
              f"judgments ({found['relevant']:,} relevant); best of {found['repeat']}. "
              "Target: within 3x of nDCG@20."), "",
             "| case | time (s) | x nDCG@20 |", "|---|---:|---:|",
             f"| `evaluate(run, qrels, ['ndcg@20'])` | {found['ndcg']:.3f} | 1.00 |"]
    for name, value in found["seconds"].items():
        lines.append(f"| {name} | {value:.3f} | {value / found['ndcg']:.2f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--subtopics", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    found = run_diversity(queries=args.queries, docs=args.docs, subtopics=args.subtopics,
                          repeat=args.repeat, seed=args.seed)
    print(render_diversity(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
