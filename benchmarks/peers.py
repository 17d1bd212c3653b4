"""One adapter per library: pandas DataFrames in, per-query metrics@k out.

Every adapter takes the two frames of :func:`benchmarks.data.make_data` (``run``:
``query_id, doc_id, score``; ``qrels``: ``query_id, doc_id, relevance``) and returns a
:class:`Result`: a per-query DataFrame (index ``query_id``, columns :func:`columns` in that
order, i.e. ``recall@k, precision@k, mrr@k, ndcg@k``) and its column means. All of the
library's work is inside the call: converting the frames to what it needs, then computing.
Each adapter converts as fast as plain Python allows, so that the comparison is with the
peer used well, not with a slow loop of ours.

The peers are optional: :func:`available` says which are installed, and a missing one is
skipped with a note. Nothing here is a runtime dependency of ragmetrics.

How each library is asked for the four metrics (and its conventions, which explain every
difference the agreement check finds):

- **ragmetrics**: ``evaluate(run, qrels, ["recall@k", "precision@k", "mrr@k", "ndcg@k"])``
  straight from the frames. Ties: trec_eval's rule (score descending, then doc id
  descending). Judged queries missing from the run score 0 and count (trec_eval ``-c``).
- **pytrec_eval** (trec_eval 9's C code): ``{query: {doc: value}}`` dicts, measures
  ``recall.k``, ``P.k``, ``ndcg_cut.k`` and ``recip_rank``. trec_eval has no RR@k, but
  RR@k is RR when the first relevant doc is within the top k, else 0: that is,
  ``rr if rr >= 1/k else 0``, exact. Queries missing from the run are left out.
- **ranx**: ``Qrels.from_df``/``Run.from_df`` and ``evaluate(..., make_comparable=True)``
  (without it, ranx refuses runs whose queries differ from the qrels'; with it, missing
  queries score 0). ``from_df`` asserts ``object`` id columns, so pandas' ``str`` and Arrow
  ids are converted first (counted in its time). Ties: numba's quicksort on the negated
  scores, so tied docs come in an order that depends on the input order, neither trec_eval's
  nor stable. Metrics are computed in parallel on every core.
- **ir_measures**: ``iter_calc([R@k, P@k, RR@k, nDCG@k], qrels, run)`` on the frames. It
  dispatches R, P and nDCG to pytrec_eval, and RR@k (which pytrec_eval lacks) to its MS
  MARCO provider, which orders tied docs by doc id *ascending* (trec_eval: descending).
  Queries missing from the run are left out.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["PEERS", "Result", "available", "columns", "install_note", "run_peer", "version"]


def columns(k: int = 10) -> list[str]:
    """The per-query columns, named as ragmetrics names the metrics."""
    return [f"recall@{k}", f"precision@{k}", f"mrr@{k}", f"ndcg@{k}"]


@dataclass
class Result:
    """What an adapter returns: per-query values and their means."""

    per_query: pd.DataFrame
    means: pd.Series


def _result(per_query: pd.DataFrame, k: int) -> Result:
    per_query = per_query[columns(k)].astype(np.float64)
    per_query.index = pd.Index(per_query.index.astype(object), name="query_id", dtype=object)
    return Result(per_query, per_query.mean())


def _object_ids(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with ``object`` id columns (a no-op when they already are)."""
    if frame["query_id"].dtype == object and frame["doc_id"].dtype == object:
        return frame
    return frame.astype({"query_id": object, "doc_id": object})


def _dict_of_dicts(frame: pd.DataFrame, value: str, cast: type) -> dict:
    """``{query_id: {doc_id: value}}``: grouped with one factorize, each dict built in C."""
    codes, queries = pd.factorize(frame["query_id"])
    order = np.argsort(codes, kind="stable")
    codes = codes[order]
    docs = frame["doc_id"].to_numpy(dtype=object)[order].tolist()
    values = frame[value].to_numpy()[order].astype(cast).tolist()
    bounds = np.flatnonzero(np.diff(codes)) + 1
    starts = [0, *bounds.tolist()]
    ends = [*bounds.tolist(), len(codes)]
    names = [str(q) for q in np.asarray(queries, dtype=object)[codes[starts]].tolist()] if len(
        codes
    ) else []
    return {
        q: dict(zip(docs[a:b], values[a:b], strict=True))
        for q, a, b in zip(names, starts, ends, strict=True)
    }


# -- adapters -------------------------------------------------------------------------


def run_ragmetrics(run: pd.DataFrame, qrels: pd.DataFrame, k: int = 10, **options) -> Result:
    import ragmetrics

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ragmetrics.CoverageWarning)  # 1% missing queries
        result = ragmetrics.evaluate(run, qrels, columns(k), **options)
    return Result(result.per_query, result.summary)


def run_pytrec_eval(run: pd.DataFrame, qrels: pd.DataFrame, k: int = 10) -> Result:
    import pytrec_eval

    qrels_dict = _dict_of_dicts(qrels, "relevance", int)
    run_dict = _dict_of_dicts(run, "score", float)
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels_dict, {f"recall.{k}", f"P.{k}", "recip_rank", f"ndcg_cut.{k}"}
    )
    scores = evaluator.evaluate(run_dict)
    queries = list(scores)
    get = [scores[q] for q in queries]
    rr = np.array([s["recip_rank"] for s in get])
    per_query = pd.DataFrame(
        {
            f"recall@{k}": [s[f"recall_{k}"] for s in get],
            f"precision@{k}": [s[f"P_{k}"] for s in get],
            f"mrr@{k}": np.where(rr >= 1.0 / k, rr, 0.0),  # RR@k from RR, exactly
            f"ndcg@{k}": [s[f"ndcg_cut_{k}"] for s in get],
        },
        index=queries,
    )
    return _result(per_query, k)


def run_ranx(run: pd.DataFrame, qrels: pd.DataFrame, k: int = 10) -> Result:
    from ranx import Qrels, Run, evaluate

    ranx_qrels = Qrels.from_df(
        _object_ids(qrels), q_id_col="query_id", doc_id_col="doc_id", score_col="relevance"
    )
    ranx_run = Run.from_df(
        _object_ids(run), q_id_col="query_id", doc_id_col="doc_id", score_col="score"
    )
    names = columns(k)  # ranx's names are ragmetrics' (mrr@k, ndcg@k: linear gains)
    with warnings.catch_warnings():
        # numba: "unsafe cast from uint64 to int64" in ranx's recall; harmless here.
        warnings.filterwarnings("ignore", message="unsafe cast")
        scores = evaluate(
            ranx_qrels, ranx_run, names, return_mean=False, make_comparable=True,
            save_results_in_run=False,
        )
    per_query = pd.DataFrame(
        {name: np.asarray(scores[name]) for name in names}, index=list(ranx_run.get_query_ids())
    )
    return _result(per_query, k)


def run_ir_measures(run: pd.DataFrame, qrels: pd.DataFrame, k: int = 10) -> Result:
    import ir_measures
    from ir_measures import RR, P, R, nDCG

    measures = {R @ k: f"recall@{k}", P @ k: f"precision@{k}", RR @ k: f"mrr@{k}",
                nDCG @ k: f"ndcg@{k}"}
    values: dict[str, dict] = {name: {} for name in measures.values()}
    for metric in ir_measures.iter_calc(list(measures), qrels, run):
        values[measures[metric.measure]][metric.query_id] = metric.value
    return _result(pd.DataFrame(values), k)


PEERS: dict[str, Callable[..., Result]] = {
    "ragmetrics": run_ragmetrics,
    "pytrec_eval": run_pytrec_eval,
    "ranx": run_ranx,
    "ir_measures": run_ir_measures,
}

# The module each adapter imports, and the distribution that provides it.
_MODULES = {"ragmetrics": "ragmetrics", "pytrec_eval": "pytrec_eval", "ranx": "ranx",
            "ir_measures": "ir_measures"}
_DISTRIBUTIONS = {"ragmetrics": "ragmetrics", "pytrec_eval": "pytrec-eval-terrier",
                  "ranx": "ranx", "ir_measures": "ir_measures"}


def available(name: str) -> bool:
    """Whether the peer's library can be imported (without importing it)."""
    return importlib.util.find_spec(_MODULES[name]) is not None


def version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version(_DISTRIBUTIONS[name])
    except PackageNotFoundError:
        return "not installed"


def install_note(name: str) -> str:
    return f"{name} is not installed: skipped (pip install {_DISTRIBUTIONS[name]})"


def run_peer(name: str, run: pd.DataFrame, qrels: pd.DataFrame, k: int = 10) -> Result:
    return PEERS[name](run, qrels, k)
