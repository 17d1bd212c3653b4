"""run_retriever: retriever kinds, sync and async, bounded concurrency, retries with
backoff, bad output named by query, and a run that evaluate and compare take as it is."""

from __future__ import annotations

import asyncio
import pickle
import threading
import time

import pandas as pd
import pytest

import ragmetrics
from ragmetrics.errors import InputTypeError, InputValueError, RetrieverError
from ragmetrics.runners import RetrieverRun, run_retriever

QUERIES = pd.DataFrame({"query_id": ["q1", "q2", "q3"],
                        "text": ["alpha", "beta", "gamma"]})
INDEX = {"alpha": ["d1", "d2"], "beta": ["d3"], "gamma": ["d4", "d5", "d6"]}


def lookup(text):
    return INDEX[text]


class Peak:
    """Counts the calls running at once (the most seen)."""

    def __init__(self):
        self.now = self.most = self.calls = 0
        self.lock = threading.Lock()

    def enter(self):
        with self.lock:
            self.now += 1
            self.calls += 1
            self.most = max(self.most, self.now)

    def leave(self):
        with self.lock:
            self.now -= 1


@pytest.mark.parametrize("method", ["invoke", "retrieve", "search"])
def test_retriever_objects_are_called_by_their_method(method):
    retriever = type("Retriever", (), {method: lambda self, text: INDEX[text]})()
    run = run_retriever(retriever, QUERIES, k=2)
    assert run["doc_id"].tolist() == ["d1", "d2", "d3", "d4", "d5"]  # cut to k=2
    assert run.provenance["retriever"] == f"Retriever.{method}"
    assert run.provenance["short_queries"] == 1  # beta: 1 < k


def test_invoke_comes_before_retrieve_and_search():
    both = type("Both", (), {"invoke": lambda self, t: ["i"], "search": lambda self, t: ["s"]})
    assert set(run_retriever(both(), {"q": "x"})["doc_id"]) == {"i"}
    with pytest.raises(InputTypeError, match=r"must be a callable .* got int"):
        run_retriever(42, {"q": "x"})


def test_the_run_keeps_query_order_dtypes_and_provenance():
    run = run_retriever(lookup, {"q3": "gamma", 7: "alpha"}, k=10, name="bm25",
                        config={"k1": 0.9, "b": 0.4})
    assert isinstance(run, RetrieverRun)
    assert run["query_id"].tolist() == ["q3"] * 3 + ["7"] * 2
    assert run["rank"].dtype == "int64"
    p = run.provenance
    assert (p["name"], p["k"], p["queries"], p["called"], p["cached"]) == ("bm25", 10, 2, 2, 0)
    assert p["retriever"] == "callable lookup"
    assert p["ragmetrics_version"] == ragmetrics.__version__
    assert len(p["config_hash"]) == 12
    assert p["started_at"].endswith("+00:00")
    assert run.latency.index.tolist() == ["q3", "7"]
    assert run.latency["n_results"].tolist() == [3, 2]


def test_the_bound_on_concurrent_calls_is_kept():
    peak = Peak()

    def slow(text):
        peak.enter()
        time.sleep(0.01)
        peak.leave()
        return [text]

    queries = {f"q{i}": f"t{i}" for i in range(40)}
    run = run_retriever(slow, queries, concurrency=3)
    assert peak.calls == 40
    assert peak.most == 3
    assert run["doc_id"].tolist() == [f"t{i}" for i in range(40)]


def test_async_retrievers_with_a_semaphore():
    peak = Peak()

    async def dense(text):
        peak.enter()
        await asyncio.sleep(0.005)
        peak.leave()
        return [(d, 1.0 / (i + 1)) for i, d in enumerate(INDEX[text])]

    run = run_retriever(dense, QUERIES, concurrency=2)
    assert run["doc_id"].tolist() == ["d1", "d2", "d3", "d4", "d5", "d6"]
    assert run["score"].tolist() == [1.0, 0.5, 1.0, 1.0, 0.5, 1 / 3]
    assert peak.most == 2
    assert run.provenance["retriever"].startswith("async callable")

    class Store:  # an object whose method is async
        async def search(self, text):
            return INDEX[text]

    assert len(run_retriever(Store(), QUERIES)) == 6


def test_async_retrievers_inside_a_running_event_loop():
    async def dense(text):
        await asyncio.sleep(0)
        return INDEX[text]

    async def notebook_cell():  # as in Jupyter: the loop is running already
        return run_retriever(dense, QUERIES)

    # In a thread of its own, with a loop of its own: the test's thread may hold a loop
    # another test left set (Playwright's sync API does), and asyncio.run refuses to nest.
    found = []
    cell = threading.Thread(target=lambda: found.append(asyncio.run(notebook_cell())))
    cell.start()
    cell.join()
    assert found[0]["doc_id"].tolist() == ["d1", "d2", "d3", "d4", "d5", "d6"]


def test_retries_back_off_exponentially_on_the_listed_exceptions():
    failures = {"beta": 3}
    waits: list[float] = []

    def flaky(text):
        if failures.get(text, 0):
            failures[text] -= 1
            raise TimeoutError("slow shard")
        return INDEX[text]

    run = run_retriever(flaky, QUERIES, retry_on=(TimeoutError,), retries=3, backoff=0.5,
                        sleep=waits.append)
    assert waits == [0.5, 1.0, 2.0]
    assert run.provenance["retried"] == 3
    assert run["doc_id"].tolist() == ["d1", "d2", "d3", "d4", "d5", "d6"]
    failures["beta"] = 5
    with pytest.raises(RetrieverError, match=r"query 'q2': the retriever raised "
                       r"TimeoutError: slow shard") as caught:
        run_retriever(flaky, QUERIES, retry_on=(TimeoutError,), retries=2, sleep=waits.append)
    assert isinstance(caught.value.__cause__, TimeoutError)
    assert caught.value.query_id == "q2"


def test_async_retries_await_the_wait():
    waits: list[float] = []
    failures = {"alpha": 1}

    async def pause(seconds):
        waits.append(seconds)

    async def flaky(text):
        if failures.get(text, 0):
            failures[text] -= 1
            raise ConnectionError("reset")
        return INDEX[text]

    run = run_retriever(flaky, QUERIES, retry_on=(ConnectionError,), retries=1, sleep=pause)
    assert waits == [1.0]
    assert len(run) == 6


def test_other_exceptions_stop_at_once_without_retrying():
    calls = []

    def broken(text):
        calls.append(text)
        raise KeyError(text)

    with pytest.raises(RetrieverError, match=r"query 'q1': the retriever raised KeyError"):
        run_retriever(broken, QUERIES, retry_on=(TimeoutError,), retries=5, concurrency=1)
    assert calls == ["alpha"]

    async def broken_async(text):
        raise ValueError("no index")

    with pytest.raises(RetrieverError, match="ValueError: no index"):
        run_retriever(broken_async, QUERIES)


@pytest.mark.parametrize(("output", "error", "message"), [
    (None, InputTypeError, (r"query 'q2': the retriever must return a list of results, got "
     r"NoneType")),
    (["d1", "d1"], InputValueError, r"query 'q2', rank 2: 'd1' again \(first at rank 1\)"),
    ([{"id": None}], InputValueError, r"query 'q2', rank 1 has no 'id'"),
    ("d1", InputTypeError, r"query 'q2': the retriever must return a list"),
])
def test_bad_output_names_the_query(output, error, message):
    def retriever(text):
        return ["ok"] if text != "beta" else output

    with pytest.raises(error, match=message):
        run_retriever(retriever, QUERIES, concurrency=1)


def test_arguments_are_checked_at_the_boundary():
    with pytest.raises(InputValueError, match="no column 'text'"):
        run_retriever(lookup, pd.DataFrame({"query_id": ["q1"]}))
    with pytest.raises(InputValueError, match="query id 'q1' is given twice"):
        run_retriever(lookup, pd.DataFrame({"query_id": ["q1", "q1"], "text": ["a", "b"]}))
    with pytest.raises(InputTypeError, match=r"query 'q1': the text must be a str"):
        run_retriever(lookup, {"q1": None})
    with pytest.raises(InputTypeError, match="k must be a positive int"):
        run_retriever(lookup, QUERIES, k="10")
    with pytest.raises(InputTypeError, match="retry_on must be a tuple of exception types"):
        run_retriever(lookup, QUERIES, retry_on=("TimeoutError",))
    with pytest.raises(InputValueError, match="retries must be an int >= 0"):
        run_retriever(lookup, QUERIES, retries=-1)


def test_evaluate_and_compare_take_the_run_as_it_is():
    qrels = {"q1": {"d2"}, "q2": {"d3"}, "q3": {"d9"}}
    first = run_retriever(lookup, QUERIES, name="first")
    second = run_retriever(lambda t: list(reversed(INDEX[t])), QUERIES, name="second")
    assert float(ragmetrics.evaluate(first, qrels, ["mrr"]).summary["mrr"]) == pytest.approx(0.5)
    result = ragmetrics.compare({"a": first, "b": second}, qrels, ["mrr"], n_resamples=50)
    assert result.summary.loc[("mrr", "b"), "mean"] == pytest.approx(2 / 3)
    kept = pickle.loads(pickle.dumps(first[first["rank"] <= 1]))
    assert kept.provenance == first.provenance
    assert kept.latency.equals(first.latency)


@pytest.mark.slow
def test_compare_on_worker_processes_takes_the_run():
    qrels = {"q1": {"d2"}, "q2": {"d3"}, "q3": {"d9"}}
    runs = {"a": run_retriever(lookup, QUERIES), "b": run_retriever(lookup, QUERIES, k=1)}
    one = ragmetrics.compare(runs, qrels, ["mrr"], n_resamples=50)
    parallel = ragmetrics.compare(runs, qrels, ["mrr"], n_resamples=50, jobs=2)
    assert parallel.summary.equals(one.summary)
