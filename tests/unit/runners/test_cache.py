"""The SQLite cache of retriever results: resume after a crash, keys that change, two
processes on one file, files that are not a cache."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ragmetrics.errors import FormatError, InputTypeError, RetrieverError
from ragmetrics.runners import CachedResult, RetrieverCache, canonical_json, run_retriever

QUERIES = {f"q{i}": f"text {i}" for i in range(100)}


class Counting:
    """A retriever that counts its calls by text, and can fail at one query."""

    def __init__(self, fail_at: str | None = None):
        self.calls: list[str] = []
        self.fail_at = fail_at

    def __call__(self, text):
        self.calls.append(text)
        if text == self.fail_at:
            raise ConnectionError("the index went away")
        n = int(text.split()[1])
        return [(f"d{n}", 1.0), (f"d{n + 1}", 0.5)]


def test_resume_after_a_crash_calls_only_what_is_missing(tmp_path):
    path = tmp_path / "cache.sqlite"
    first = Counting(fail_at="text 50")
    with pytest.raises(RetrieverError, match="query 'q50'") as caught:
        run_retriever(first, QUERIES, k=10, cache=path, concurrency=1)
    assert isinstance(caught.value.__cause__, ConnectionError)
    assert first.calls[-1] == "text 50"
    assert len(first.calls) == 51
    with RetrieverCache(path) as cache:
        assert len(cache) == 50  # every query done before the crash was committed
    second = Counting()
    run = run_retriever(second, QUERIES, k=10, cache=path, concurrency=4)
    assert sorted(second.calls) == sorted(f"text {i}" for i in range(50, 100))
    assert run.provenance["cached"] == 50
    assert run.provenance["called"] == 50
    assert run.latency["cached"].sum() == 50
    assert not run.latency.loc["q50", "cached"]
    third = Counting()
    again = run_retriever(third, QUERIES, k=10, cache=path)
    assert third.calls == []
    assert again.equals(run)


def test_a_crash_with_concurrency_keeps_the_calls_under_way(tmp_path):
    path = tmp_path / "cache.sqlite"
    first = Counting(fail_at="text 50")
    with pytest.raises(RetrieverError):
        run_retriever(first, QUERIES, k=10, cache=path, concurrency=4)
    second = Counting()
    run_retriever(second, QUERIES, k=10, cache=path, concurrency=4)
    assert not (set(first.calls) - {"text 50"}) & set(second.calls)  # none called again
    assert "text 50" in second.calls
    assert len(set(first.calls) | set(second.calls)) == 100


def test_a_config_or_k_or_key_change_never_serves_stale_results(tmp_path):
    path = tmp_path / "cache.sqlite"
    queries = dict(list(QUERIES.items())[:5])
    for kwargs in ({"config": {"model": "a"}}, {"config": {"model": "b"}}, {"k": 5},
                   {"config": {"model": "a"}, "name": "other"}, {"key": "id", "k": 3}):
        calls = Counting()
        run_retriever(calls, queries, cache=path, **{"k": 10, **kwargs})
        assert len(calls.calls) == 5, kwargs
    calls = Counting()
    run_retriever(calls, queries, cache=path, k=10, config={"model": "b"})
    assert calls.calls == []  # a config seen before: served
    # The same config written otherwise (key order) is the same config:
    calls = Counting()
    run_retriever(calls, queries, cache=path, k=10, config={"x": 1, "y": [1, 2]})
    run_retriever(calls, queries, cache=path, k=10, config={"y": (1, 2), "x": 1})
    assert len(calls.calls) == 5


def test_a_non_json_config_is_refused_naming_the_value():
    with pytest.raises(InputTypeError, match=r"config\['index'\]\[1\] cannot be written as "
                       r"JSON: .*\(set\)"):
        run_retriever(Counting(), QUERIES, config={"index": ["v1", {1, 2}]})
    with pytest.raises(InputTypeError, match="has the key 3"):
        canonical_json({3: "x"})
    with pytest.raises(ValueError, match="only finite numbers"):
        canonical_json({"t": float("inf")})


def test_files_that_are_not_a_cache_are_refused_and_left_alone(tmp_path):
    noise = tmp_path / "noise.sqlite"
    noise.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(FormatError, match=r"noise.sqlite: not a SQLite database"):
        run_retriever(Counting(), QUERIES, cache=noise)
    assert noise.read_bytes() == bytes(range(256)) * 8  # untouched
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE results (a, b)")
    with pytest.raises(FormatError, match=r"other.sqlite: a SQLite database, but not a "
                       r"ragmetrics retriever cache \(its tables: results\)"):
        RetrieverCache(other)
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    with pytest.raises(FormatError, match=r"damaged\.sqlite: not a readable SQLite database"):
        RetrieverCache(damaged)
    newer = tmp_path / "newer.sqlite"
    RetrieverCache(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE ragmetrics_cache SET value = '2' WHERE name = 'version'")
    with pytest.raises(FormatError, match=r"newer.sqlite: .* version '2'; this ragmetrics "
                       r"reads .* version '1'"):
        RetrieverCache(newer)
    with pytest.raises(FormatError, match="a folder"):
        RetrieverCache(tmp_path)


def test_ids_scores_and_latency_round_trip(tmp_path):
    with RetrieverCache(tmp_path / "c.sqlite") as cache:
        stored = {"é ?": CachedResult(["d1", "ünï"], [2.5, -1.0], 0.125, 7),
                  "plain": CachedResult([], None, 0.0, 0)}
        cache.put_many("fp", 10, stored)
        assert cache.get_many("fp", 10, ["plain", "é ?", "missing"]) == stored
        assert cache.get_many("other", 10, ["plain"]) == {}
        many = {f"t{i}": CachedResult([f"d{i}"], None, 0.0, 1) for i in range(2000)}
        cache.put_many("fp", 10, many)  # more than one chunk of keys
        assert cache.get_many("fp", 10, list(many)) == many


WRITER = textwrap.dedent("""
    import sys
    from ragmetrics.runners import run_retriever

    def retriever(text):
        n = int(text.split()[1])
        return [f"d{n}", f"d{n + 1}"]

    queries = {f"q{i}": f"text {i}" for i in range(int(sys.argv[2]))}
    run = run_retriever(retriever, queries, k=5, cache=sys.argv[1], concurrency=4)
    assert len(run) == 2 * len(queries), len(run)
    print(run.provenance["called"])
""")


@pytest.mark.slow
def test_two_processes_write_one_file(tmp_path):
    path = tmp_path / "shared.sqlite"
    env_path = str(Path(__file__).resolve().parents[3])
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), "400"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={"PYTHONPATH": env_path, "PATH": ""})
             for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    called = [int(out) for out, _ in outs]
    assert all(0 <= n <= 400 for n in called)
    with RetrieverCache(path) as cache:
        assert len(cache) == 400
        [(fp,)] = cache._db.execute("SELECT DISTINCT fingerprint FROM results").fetchall()
        found = cache.get_many(fp, 5, [f"text {i}" for i in range(400)])
    assert all(found[f"text {i}"].ids == [f"d{i}", f"d{i + 1}"] for i in range(400))
    calls = Counting()
    run = run_retriever(calls, {f"q{i}": f"text {i}" for i in range(400)}, k=5, cache=path)
    assert calls.calls == []
    assert run.provenance["cached"] == 400
