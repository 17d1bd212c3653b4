"""Retriever runs: the overhead of ragmetrics.runners.run_retriever around the calls.

    python benchmarks/retriever_runs.py [--queries 10000] [--cached 100000] [--k 10]
                                        [--concurrency 8] [--repeat 3] [--json out.json]

Two measurements, each the best of ``--repeat`` (a fresh cache file each time):

- **called**: ``--queries`` queries through a retriever that sleeps 1 ms and returns
  ``k`` ids, at ``--concurrency`` threads, with a cache file (each query stored as it
  finishes). The floor is ``queries x 1 ms / concurrency`` (1.25 s for 10,000 at 8);
  the target is within 1.3 times it. The same with an ``async def`` retriever
  (``asyncio.sleep``) is shown beside.
- **cached**: ``--cached`` queries stored already (written once, not timed), run again:
  every one read from the file (by chunks of keys), none called; the target is under
  2 s for 100,000.

The retriever's own time is its sleep: what the table shows beyond the floor is the
runner's (threads, SQLite writes, turning results into ids, building the frame).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ragmetrics.runners import CachedResult, RetrieverCache, fingerprint, run_retriever


def _ids(text: str, k: int) -> list[str]:
    n = int(text[1:])
    return [f"d{n + i}" for i in range(k)]


def called(queries: int, k: int, concurrency: int, *, is_async: bool) -> float:
    texts = {f"q{i}": f"t{i}" for i in range(queries)}
    if is_async:
        async def retriever(text):
            await asyncio.sleep(0.001)
            return _ids(text, k)
    else:
        def retriever(text):
            time.sleep(0.001)
            return _ids(text, k)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        run = run_retriever(retriever, texts, k=k, concurrency=concurrency,
                            cache=Path(folder) / "c.sqlite", progress=False)
        seconds = time.perf_counter() - start
    assert len(run) == queries * k
    assert run.provenance["called"] == queries
    return seconds


def cached(queries: int, k: int) -> float:
    texts = {f"q{i}": f"t{i}" for i in range(queries)}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.sqlite"
        with RetrieverCache(path) as cache:  # as a first run would have left it
            fp = fingerprint(config=None, name=None, key=("id",), duplicates="error")
            for start in range(0, queries, 10_000):
                cache.put_many(fp, k, {text: CachedResult(_ids(text, k), None, 0.001, k)
                                       for text in list(texts.values())[start:start + 10_000]})

        def never(text):
            raise AssertionError("a cached query was called")

        start = time.perf_counter()
        run = run_retriever(never, texts, k=k, cache=path, progress=False)
        seconds = time.perf_counter() - start
    assert len(run) == queries * k
    assert run.provenance["cached"] == queries
    return seconds


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--cached", type=int, default=100_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    floor = args.queries * 0.001 / args.concurrency
    results = {
        "called (threads)": min(called(args.queries, args.k, args.concurrency, is_async=False)
                                for _ in range(args.repeat)),
        "called (async)": min(called(args.queries, args.k, args.concurrency, is_async=True)
                              for _ in range(args.repeat)),
        "cached": min(cached(args.cached, args.k) for _ in range(args.repeat)),
    }
    print(f"{args.queries:,} queries x 1 ms at concurrency {args.concurrency}, k={args.k}: "
          f"floor {floor:.3f} s, target {1.3 * floor:.3f} s")
    for name in ("called (threads)", "called (async)"):
        print(f"  {name:<18} {results[name]:.3f} s  ({results[name] / floor:.2f}x the floor)")
    print(f"{args.cached:,} queries all cached, k={args.k}: {results['cached']:.3f} s "
          "(target: under 2 s)")
    out = {**vars(args), "cached_queries": args.cached, "floor": floor, **results}
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    main()
