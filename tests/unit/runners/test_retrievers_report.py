"""compare() keeps each retriever's latency and provenance beside the metrics, and every
report shows them in a "Retrievers" table of their own."""

from __future__ import annotations

import pytest

import ragmetrics
from ragmetrics.runners import run_retriever

QRELS = {"q1": {"d1"}, "q2": {"d2"}}
QUERIES = {"q1": "alpha", "q2": "beta"}


class Clock:
    def __init__(self, step):
        self.t, self.step = 0.0, step

    def __call__(self):
        self.t += self.step  # two readings a call, `step` seconds apart
        return self.t


def _comparison(tmp_path):
    fast = run_retriever(lambda t: ["d1", "d2"], QUERIES, k=10, name="fast",
                         config={"model": "bm25"}, clock=Clock(0.004), concurrency=1)
    cache = tmp_path / "c.sqlite"
    run_retriever(lambda t: ["d2", "d1"], {"q1": "alpha"}, k=5, cache=cache,
                  clock=Clock(0.2), concurrency=1)
    slow = run_retriever(lambda t: ["d2", "d1"], QUERIES, k=5, cache=cache,
                         clock=Clock(0.2), concurrency=1)
    plain = {"q1": ["d1"], "q2": ["d2"]}
    return ragmetrics.compare({"fast": fast, "slow": slow, "plain": plain}, QRELS, ["mrr"],
                              n_resamples=50), fast, slow


def test_compare_keeps_each_runs_latency_and_provenance(tmp_path):
    result, fast, _slow = _comparison(tmp_path)
    assert set(result.retrievers) == {"fast", "slow"}  # the plain mapping carries none
    assert result.retrievers["fast"]["mean"] == pytest.approx(0.004)
    assert result.retrievers["fast"]["k"] == 10
    assert result.retrievers["fast"]["config_hash"] == fast.provenance["config_hash"]
    assert result.retrievers["slow"]["cached"] == 1
    assert result.retrievers["slow"]["timed"] == 1
    # ...and the metrics are those of the runs alone:
    assert result.summary.loc[("mrr", "slow"), "mean"] == pytest.approx(0.75)
    assert ragmetrics.compare({"a": {"q1": ["d1"]}}, QRELS, ["mrr"],
                              n_resamples=50).retrievers is None


def test_every_report_has_a_retrievers_table(tmp_path):
    result, fast, _ = _comparison(tmp_path)
    text = result.to_text()
    assert "Retrievers (latency per query)" in text
    line = next(line for line in text.splitlines() if line.startswith("fast "))
    assert "4.0 ms" in line
    assert fast.provenance["config_hash"] in line
    markdown = result.to_markdown()
    assert "## Retrievers" in markdown
    assert "| slow | 200.0 ms | 200.0 ms | 200.0 ms | 200.0 ms | 1 | 1 | 5 |" in markdown
    page = result.to_html(figures=False)
    assert "<h2>Retrievers</h2>" in page
    assert "<td>4.0 ms</td>" in page
    # Cost beside quality: right after the verdict, before the means.
    assert (markdown.index("## Verdict on MRR") < markdown.index("## Retrievers")
            < markdown.index("## Means"))
    plain = ragmetrics.compare({"a": {"q1": ["d1"]}}, QRELS, ["mrr"], n_resamples=50)
    assert "Retrievers" not in plain.to_text() + plain.to_markdown()
