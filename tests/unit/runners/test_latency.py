"""Latency per query with a fake clock: the mean is per query, never the total; cache hits
are flagged and left out of the summary."""

from __future__ import annotations

import math

import pytest

from ragmetrics.errors import InputTypeError
from ragmetrics.runners import latency_summary, run_retriever


class FakeClock:
    """Each call to the retriever advances the clock by its query's duration."""

    def __init__(self, durations):
        self.t = 0.0
        self.durations = durations

    def __call__(self):
        return self.t

    def retriever(self, text):
        self.t += self.durations[text]
        return [text]


DURATIONS = {f"t{i}": 0.01 * (i + 1) for i in range(10)}  # 0.01 ... 0.10 s
QUERIES = {f"q{i}": f"t{i}" for i in range(10)}


def test_the_summary_is_per_query_not_the_total():
    clock = FakeClock(DURATIONS)
    run = run_retriever(clock.retriever, QUERIES, concurrency=1, clock=clock)
    assert run.latency["seconds"].tolist() == pytest.approx([0.01 * (i + 1) for i in range(10)])
    summary = run.latency_summary()
    assert summary["mean"] == pytest.approx(0.055)  # the total would be 0.55
    assert summary["p50"] == pytest.approx(0.055)
    assert summary["p90"] == pytest.approx(0.091)
    assert summary["p99"] == pytest.approx(0.0991)
    assert (summary["timed"], summary["cached"]) == (10, 0)
    assert latency_summary(run) == summary


def test_cache_hits_are_flagged_and_left_out(tmp_path):
    clock = FakeClock(DURATIONS)
    path = tmp_path / "c.sqlite"
    first = dict(list(QUERIES.items())[:4])
    run_retriever(clock.retriever, first, concurrency=1, clock=clock, cache=path)
    run = run_retriever(clock.retriever, QUERIES, concurrency=1, clock=clock, cache=path)
    assert run.latency["cached"].tolist() == [True] * 4 + [False] * 6
    # the hits keep their original call's seconds, shown but not summarized:
    assert run.latency["seconds"].iloc[:4].tolist() == pytest.approx([0.01, 0.02, 0.03, 0.04])
    summary = run.latency_summary()
    assert summary["mean"] == pytest.approx(sum(0.01 * (i + 1) for i in range(4, 10)) / 6)
    assert (summary["timed"], summary["cached"]) == (6, 4)
    again = run_retriever(clock.retriever, QUERIES, clock=clock, cache=path)
    all_cached = again.latency_summary()
    assert math.isnan(all_cached["mean"])
    assert all_cached["cached"] == 10


def test_a_run_without_latency_is_refused():
    import pandas as pd

    with pytest.raises(InputTypeError, match=r"without \.latency"):
        latency_summary(pd.DataFrame({"query_id": ["q1"], "doc_id": ["d"], "rank": [1]}))
