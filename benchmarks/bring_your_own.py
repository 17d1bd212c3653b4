"""Bring your own data, timed (``make bench``): the doors of issue 25 on the shapes teams bring.

Three measurements, one run each (ratios, on this shared machine), each module also a
script of its own with more options:

- ``dataset_reading``: ``read_dataset`` on a generated BEIR folder (1M documents, 10k
  queries by default) against pandas (``read_json(lines=True)``, ``read_csv``) on the same
  files, each in a fresh process; the target is a ratio of at most 1;
- ``retriever_runs``: ``run_retriever``'s overhead, 10,000 calls of a 1 ms retriever at
  concurrency 8 against the floor of 1.25 s (target 1.3x), and 100,000 queries served
  from the SQLite cache (target under 2 s);
- ``run_layouts``: ``read_run(format="beir")`` and ``format="openinference"`` against
  ``json.load`` alone and ``json.load`` plus the obvious pandas frame.
"""

from __future__ import annotations

from benchmarks import dataset_reading, retriever_runs, run_layouts


def run_bring(*, docs: int = 1_000_000, log=print) -> dict:
    """Every measurement, as a dict for the report (``render_bring``)."""
    found = {}
    log(f"  read_dataset: a BEIR folder of {docs:,} documents ...")
    found["dataset"] = dataset_reading.main(
        ["--docs", str(docs), "--queries", str(max(docs // 100, 100)), "--repeat", "1"])
    log("  run_retriever: 10,000 calls at concurrency 8, 100,000 cached ...")
    found["retriever"] = retriever_runs.main(["--repeat", "1"])
    log("  runs as tools write them: BEIR results (2,000 x 1,000), OpenInference spans ...")
    found["layouts"] = run_layouts.main(["--queries", "2000", "--spans", "10000",
                                         "--repeat", "1"])
    return found


def render_bring(found: dict) -> str:
    """The measurements as Markdown lines."""
    data, ret = found["dataset"], found["retriever"]
    seconds = data["seconds"]
    floor = ret["floor"]
    lines = [
        (f"read_dataset, BEIR folder of {data['docs']:,} documents "
        f"({data['corpus_bytes'] / 2**20:,.0f} MiB) and {data['queries']:,} queries: "
        f"{seconds['ragmetrics']:.2f} s; pandas on the same files {seconds['pandas']:.2f} s: "
        f"ratio {data['ratio']:.2f} (target <= 1)"),
        "",
        (f"run_retriever, {ret['queries']:,} calls of 1 ms at concurrency {ret['concurrency']}: "
        f"threads {ret['called (threads)']:.2f} s ({ret['called (threads)'] / floor:.2f}x the "
        f"{floor:.2f} s floor, target 1.3x); async {ret['called (async)']:.2f} s "
        f"({ret['called (async)'] / floor:.2f}x); {ret['cached_queries']:,} queries all from "
        f"the cache: {ret['cached']:.2f} s (target < 2 s)"),
        "",
        "runs as tools write them (x json.load; json + pandas is the obvious frame):",
        "",
        found["layouts"]["rendered"],
    ]
    return "\n".join(lines)
