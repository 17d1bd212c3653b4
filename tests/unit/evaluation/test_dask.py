"""evaluate on a Dask DataFrame run, on a LocalCluster of 2 worker processes: the values
and means of the same run in memory, whether the partitions hold whole queries or not.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from ragmetrics import evaluate
from ragmetrics.errors import RagmetricsWarning

dd = pytest.importorskip("dask.dataframe", reason="dask is a test dependency: "
                         "pip install 'ragmetrics[dask]'")
distributed = pytest.importorskip("distributed", reason="pip install 'ragmetrics[dask]'")

METRICS = ["recall@10", "precision@5", "mrr", "ndcg@10", "map"]


def make_case(seed=0, n_queries=400):
    rng = np.random.default_rng(seed)
    depth = rng.integers(1, 60, n_queries)
    query = np.repeat([f"q{q}" for q in range(n_queries)], depth)
    doc = [f"d{d}" for d in rng.integers(0, 10**6, len(query))]
    run = pd.DataFrame({"query_id": query, "doc_id": doc,
                        "score": np.round(rng.random(len(query)) * 16) / 16})
    run = run.drop_duplicates(["query_id", "doc_id"]).reset_index(drop=True)
    picked = run.sample(frac=0.1, random_state=seed)
    qrels = pd.DataFrame({"query_id": picked["query_id"].to_numpy(),
                          "doc_id": picked["doc_id"].to_numpy(),
                          "relevance": rng.integers(0, 3, len(picked))})
    extra = pd.DataFrame({"query_id": ["q-missing"], "doc_id": ["d1"], "relevance": [1]})
    return run, pd.concat([qrels, extra], ignore_index=True)


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        warnings.simplefilter("ignore", DeprecationWarning)  # distributed's own
        return function(*args, **kwargs)


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        with distributed.Client(cluster) as connected:
            yield connected
        cluster.close()


def test_dask_runs_give_the_values_of_the_run_in_memory(client):
    assert len(client.scheduler_info()["workers"]) == 2
    run, qrels = make_case()
    whole = quietly(evaluate, run, qrels, METRICS, ties="input_order")
    # Whole queries per partition (cut at query boundaries), then cut anywhere.
    heads = np.flatnonzero(run["query_id"].ne(run["query_id"].shift()).to_numpy())
    aligned = dd.from_pandas(run, npartitions=1).repartition(
        divisions=[0, int(heads[100]), int(heads[250]), len(run) - 1])
    anywhere = dd.from_pandas(run, npartitions=5)
    for frame in (aligned, anywhere):
        found = quietly(evaluate, frame, qrels, METRICS, ties="input_order")
        pd.testing.assert_frame_equal(found.per_query, whole.per_query, check_exact=True)
        pd.testing.assert_series_equal(found.summary, whole.summary, rtol=0, atol=1e-12)
        assert found.queries_missing_from_run == whole.queries_missing_from_run == ("q-missing",)


def test_partitions_that_split_queries_are_shuffled_on_query_id(client, monkeypatch):
    from ragmetrics.evaluation import on_dask

    run, qrels = make_case(seed=1, n_queries=200)
    # Every query's rows spread over every partition; ties in row order (input_order).
    spread = run.sample(frac=1, random_state=0).reset_index(drop=True)
    whole = quietly(evaluate, spread, qrels, METRICS, ties="input_order")
    shuffles = []
    grouped = on_dask._grouped
    monkeypatch.setattr(on_dask, "_grouped", lambda frame: shuffles.append(1) or grouped(frame))
    arrow_ids = spread.astype({"query_id": "string[pyarrow]", "doc_id": "string[pyarrow]"})
    for frame in (spread, arrow_ids):
        shuffles.clear()
        found = quietly(evaluate, dd.from_pandas(frame, npartitions=4), qrels, METRICS,
                        ties="input_order")
        assert shuffles == [1]
        pd.testing.assert_frame_equal(found.per_query, whole.per_query, check_exact=True)
        pd.testing.assert_series_equal(found.summary, whole.summary, rtol=0, atol=1e-12)
    # Whole queries in each partition: no shuffle.
    shuffles.clear()
    ordered = run.sort_values("query_id", kind="stable").reset_index(drop=True)
    heads = np.flatnonzero(ordered["query_id"].ne(ordered["query_id"].shift()).to_numpy())
    aligned = dd.from_pandas(ordered, npartitions=1).repartition(
        divisions=[0, int(heads[80]), len(ordered) - 1])
    found = quietly(evaluate, aligned, qrels, METRICS, ties="input_order")
    assert shuffles == []
    expected = quietly(evaluate, ordered, qrels, METRICS, ties="input_order")
    pd.testing.assert_series_equal(found.summary, expected.summary, rtol=0, atol=1e-12)
