"""30 trec_eval measures at once: ragmetrics against pytrec_eval, same data, same measures.

The main table asks for four metrics at k = 10, where ragmetrics reads each ranking only
down to rank 10. This case asks for :data:`MEASURES`: thirty trec_eval measures, uncut ones
among them (map, bpref, infAP, Rprec, recip_rank, the set measures, the counts), so every
row of every ranking is read. Both libraries go end to end from the same DataFrames
(pytrec_eval's time includes building its ``{query: {doc: value}}`` dicts, as in
``peers.py``), each in a forked child of its own (:func:`benchmarks.run.in_child`), and
their per-query values are compared measure by measure on the queries both score
(pytrec_eval leaves out the judged queries missing from the run).

Not among the thirty: uncut ``ndcg``, ``ndcg_rel`` and ``G``, which hang pytrec_eval after a
few calls in one process (tests/oracles/test_pytrec_eval_oracle.py); interpolated precision, where
trec_eval 10 (ragmetrics) and the trec_eval 9 in pytrec_eval round recall levels to ranks
differently; and the gm_ means, which pytrec_eval returns per query as logs.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

__all__ = ["MEASURES", "compare_measures", "time_pytrec_eval", "time_ragmetrics"]

#: pytrec_eval's key (trec_eval's printed name) -> ragmetrics' metric name.
MEASURES: dict[str, str] = {
    "P_5": "precision@5", "P_10": "precision@10", "P_20": "precision@20",
    "recall_10": "recall@10", "recall_100": "recall@100", "recall_1000": "recall@1000",
    "ndcg_cut_10": "ndcg@10", "ndcg_cut_100": "ndcg@100", "ndcg_cut_1000": "ndcg@1000",
    "map": "ap", "map_cut_10": "ap@10", "map_cut_100": "ap@100",
    "recip_rank": "rr", "Rprec": "r_precision", "bpref": "bpref", "infAP": "infap",
    "success_1": "hit_rate@1", "success_5": "hit_rate@5", "success_10": "hit_rate@10",
    "num_ret": "num_ret", "num_rel": "num_rel", "num_rel_ret": "num_rel_ret",
    "num_nonrel_judged_ret": "num_nonrel_judged_ret",
    "set_P": "set_precision", "set_recall": "set_recall", "set_F": "set_f",
    "set_map": "set_ap", "relative_P_10": "relative_precision@10", "binG": "bing",
    "utility": "utility",
}
assert len(MEASURES) == 30

#: What pytrec_eval is asked for: each family once, its cut-offs together.
PYTREC_REQUEST = {
    "P.5,10,20", "recall.10,100,1000", "ndcg_cut.10,100,1000", "map", "map_cut.10,100",
    "recip_rank", "Rprec", "bpref", "infAP", "success.1,5,10", "num_ret", "num_rel",
    "num_rel_ret", "num_nonrel_judged_ret", "set_P", "set_recall", "set_F", "set_map",
    "relative_P.10", "binG", "utility",
}


def time_ragmetrics(run: pd.DataFrame, qrels: pd.DataFrame) -> dict:
    """One call of ``evaluate`` with the thirty metrics: times and per-query values."""
    wall, cpu = time.perf_counter(), time.process_time()
    import ragmetrics

    imported = time.perf_counter() - wall
    wall, cpu = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ragmetrics.RagmetricsWarning)  # 1% missing queries
        result = ragmetrics.evaluate(run, qrels, list(MEASURES.values()))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    per_query = result.per_query.rename(columns={v: k for k, v in MEASURES.items()})
    return {"import_s": imported, "wall_s": wall, "cpu_s": cpu,
            "per_query": per_query.astype(np.float64)}


def time_pytrec_eval(run: pd.DataFrame, qrels: pd.DataFrame) -> dict:
    """The same thirty from pytrec_eval, its dicts built as fast as ``peers.py`` builds them."""
    from benchmarks.peers import _dict_of_dicts

    wall = time.perf_counter()
    import pytrec_eval

    imported = time.perf_counter() - wall
    wall, cpu = time.perf_counter(), time.process_time()
    evaluator = pytrec_eval.RelevanceEvaluator(_dict_of_dicts(qrels, "relevance", int),
                                               PYTREC_REQUEST)
    scores = evaluator.evaluate(_dict_of_dicts(run, "score", float))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    per_query = pd.DataFrame.from_dict(scores, orient="index")[list(MEASURES)]
    return {"import_s": imported, "wall_s": wall, "cpu_s": cpu,
            "per_query": per_query.astype(np.float64)}


def compare_measures(ours: pd.DataFrame, theirs: pd.DataFrame) -> dict:
    """Per measure, the largest |difference| on the queries both score, and how many
    queries differ by more than 1e-12."""
    common = theirs.index.intersection(ours.index)
    diff = (ours.loc[common, list(MEASURES)] - theirs.loc[common, list(MEASURES)]).abs()
    return {"queries": len(common),
            "max_abs": {m: float(diff[m].max()) for m in MEASURES},
            "differing": {m: int((diff[m] > 1e-12).sum()) for m in MEASURES}}


def render(found: dict) -> list[str]:
    """Lines of the printed report for this case."""
    ours, theirs = found["ragmetrics"], found.get("pytrec_eval")
    lines = [f"{found['rows']:,} run rows ({found['size']}); the thirty: "
             + ", ".join(MEASURES), ""]
    lines.append("| library | wall s | CPU s | x (wall) | x (CPU) |")
    lines.append("|---|---|---|---|---|")
    lines.append(f"| ragmetrics | {ours['wall_s']:.2f} | {ours['cpu_s']:.2f} | 1.00 | 1.00 |")
    if theirs is not None:
        lines.append(f"| pytrec_eval | {theirs['wall_s']:.2f} | {theirs['cpu_s']:.2f} | "
                     f"{theirs['wall_s'] / ours['wall_s']:.2f} | "
                     f"{theirs['cpu_s'] / ours['cpu_s']:.2f} |")
        agreement = found["agreement"]
        worst = max(agreement["max_abs"].values())
        differing = {m: n for m, n in agreement["differing"].items() if n}
        lines += ["", f"agreement on {agreement['queries']:,} queries: largest |difference| "
                  f"{worst:.2e}; measures with queries differing by > 1e-12: "
                  + (", ".join(f"{m} ({n})" for m, n in differing.items()) or "none")]
    return lines
