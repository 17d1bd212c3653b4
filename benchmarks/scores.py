"""Score matrices: ``evaluate_scores`` on a NumPy matrix against ``evaluate`` on the same
scores written as a run.

A retriever in training scores every candidate of every query at once: a matrix
``[n_queries, n_docs]``. ``evaluate`` takes it flattened to rows (query, doc, score) in the
order the model scored them, int ids; ``evaluate_scores`` takes the matrix itself. Both
are timed end to end on the same data (the flattening into a frame is not counted for
``evaluate``), for the four default metrics, and their per-query values compared: equal
to the last bit, or this script fails.

The data: each query has 1 to 9 relevant docs (grades 1 to 3) among ``n_docs``
candidates, which score higher on average, as a half-trained model scores them.

Run: ``python benchmarks/scores.py [--queries 10000] [--docs 1000] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

__all__ = ["make_matrix", "time_scores"]

METRICS = ("recall@10", "precision@10", "mrr", "ndcg@10")


def make_matrix(n_queries: int, n_docs: int, seed: int = 0):
    """(scores, grades): float64 scores, int8 grades, 1 to 9 relevant docs per query."""
    rng = np.random.default_rng(seed)
    grades = np.zeros((n_queries, n_docs), dtype=np.int8)
    count = rng.integers(1, 10, n_queries)
    for i, c in enumerate(count):
        grades[i, rng.choice(n_docs, c, replace=False)] = rng.integers(1, 4, c)
    scores = rng.normal(size=(n_queries, n_docs)) + 1.5 * (grades > 0)
    return scores, grades


def _best(function, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def time_scores(n_queries: int = 10_000, n_docs: int = 1_000, repeat: int = 5) -> dict:
    """Best-of-``repeat`` seconds of each path, and whether their values are equal."""
    from ragmetrics import evaluate, evaluate_scores

    scores, grades = make_matrix(n_queries, n_docs)
    run = pd.DataFrame({"query_id": np.repeat(np.arange(n_queries), n_docs),
                        "doc_id": np.tile(np.arange(n_docs), n_queries),
                        "score": scores.ravel()})
    judged = grades.ravel() > 0
    qrels = pd.DataFrame({"query_id": run["query_id"][judged].to_numpy(),
                          "doc_id": run["doc_id"][judged].to_numpy(),
                          "relevance": grades.ravel()[judged].astype(float)})
    doc_ids = np.arange(n_docs)  # int ids compared as text, as evaluate compares them
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        matrix_time, matrix = _best(
            lambda: evaluate_scores(scores, grades, METRICS, doc_ids=doc_ids), repeat)
        rows_time, rows = _best(lambda: evaluate(run, qrels, METRICS),
                                max(1, min(repeat, 3)))
    equal = matrix.per_query.equals(rows.per_query)
    return {"queries": n_queries, "docs": n_docs, "evaluate_scores_s": matrix_time,
            "evaluate_s": rows_time, "ratio": rows_time / matrix_time, "equal": equal,
            "summary": matrix.summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    out = time_scores(args.queries, args.docs, args.repeat)
    print(f"score matrix {out['queries']} x {out['docs']}, {', '.join(METRICS)} (NumPy, "
          f"best of {args.repeat}):")
    print(f"  evaluate_scores (the matrix)      {out['evaluate_scores_s']:.3f} s")
    print(f"  evaluate (rows in model order)    {out['evaluate_s']:.3f} s")
    print(f"  ratio                             {out['ratio']:.1f}x")
    print(f"  values equal                      {out['equal']}")
    if not out["equal"]:
        raise SystemExit("evaluate_scores and evaluate disagree: a bug")


if __name__ == "__main__":
    main()
