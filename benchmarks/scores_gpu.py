"""Score matrices on a GPU: ``evaluate_scores`` on a CUDA tensor against a hand-written
batched nDCG@10, and its values against ``evaluate`` on the host.

The hand-written kernel is what a training loop writes for itself (``torch.topk``, a
gather, a discount, a sum): no tie rule, nDCG@10 only. ``evaluate_scores`` computes the
four default metrics (recall@10, precision@10, MRR, nDCG@10) with trec_eval's tie order
on the same tensor, without a copy of the matrix to the host. The values are compared
with ``evaluate`` on the same scores written as a run (on the host), to 1e-12.

Run on a machine with PyTorch and CUDA: ``python benchmarks/scores_gpu.py [--queries
10000] [--docs 1000]``. Without PyTorch, or without a CUDA device, it says so and exits 0.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

METRICS = ("recall@10", "precision@10", "mrr", "ndcg@10")


def batched_ndcg10(torch, scores, gains, ideal_dcg):
    """nDCG@10 as a training loop writes it: top 10 by score, gains / log2(rank + 1)."""
    top = torch.topk(scores, 10, dim=1).indices
    discount = 1.0 / torch.log2(torch.arange(2, 12, device=scores.device, dtype=gains.dtype))
    dcg = (torch.gather(gains, 1, top) * discount).sum(dim=1)
    return torch.where(ideal_dcg > 0, dcg / ideal_dcg, torch.zeros_like(dcg))


def _timed(torch, function, repeat: int) -> float:
    function()  # warm up: kernels compiled, memory pooled
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        torch.cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("scores_gpu: PyTorch is not installed here; skipped")
        return 0
    if not torch.cuda.is_available():
        print("scores_gpu: no CUDA device; skipped")
        return 0
    from benchmarks.scores import make_matrix
    from ragmetrics import evaluate, evaluate_scores

    scores_np, grades_np = make_matrix(args.queries, args.docs)
    scores = torch.asarray(scores_np.astype(np.float32), device="cuda")
    grades = torch.asarray(grades_np, device="cuda")
    gains = grades.to(torch.float32)
    ideal = torch.topk(gains, 10, dim=1).values
    ideal_dcg = (ideal / torch.log2(torch.arange(2, 12, device="cuda"))).sum(dim=1)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = _timed(torch, lambda: evaluate_scores(scores, grades, METRICS), args.repeat)
        hand = _timed(torch, lambda: batched_ndcg10(torch, scores, gains, ideal_dcg),
                      args.repeat)
        result = evaluate_scores(scores, grades, METRICS)
        host = scores.cpu().numpy().astype(np.float64)
        n, d = host.shape
        run = pd.DataFrame({"query_id": np.repeat(np.arange(n), d),
                            "doc_id": np.array([f"d{j:05d}" for j in range(d)],
                                               dtype=object)[np.tile(np.arange(d), n)],
                            "score": host.ravel()})
        judged = grades_np.ravel() > 0
        qrels = pd.DataFrame({"query_id": run["query_id"][judged].to_numpy(),
                              "doc_id": run["doc_id"][judged].to_numpy(),
                              "relevance": grades_np.ravel()[judged].astype(float)})
        expected = evaluate(run, qrels, METRICS)
    gap = float((result.per_query - expected.per_query).abs().max().max())
    print(f"score matrix {n} x {d} on {torch.cuda.get_device_name()} (float32 scores), "
          f"best of {args.repeat}:")
    print(f"  evaluate_scores, 4 metrics, trec_eval ties   {ours * 1e3:8.2f} ms")
    print(f"  hand-written batched nDCG@10 (torch.topk)    {hand * 1e3:8.2f} ms")
    print(f"  ratio                                        {ours / hand:8.1f}x")
    print(f"  largest difference from evaluate (host)      {gap:.1e}")
    return 0 if gap <= 1e-12 else 1


if __name__ == "__main__":
    raise SystemExit(main())
