"""File to frame: ragmetrics' readers against pandas' on the same files.

    python benchmarks/readers.py [--rows 2000000] [--repeat 2] [--baseline DIR] [--json out.json]

One seeded run (``benchmarks/data.py``: 20,000 queries x 100 docs by default, string ids,
scores exact in float32) is written five ways: a TREC run (``q Q0 doc rank score name``,
one space between fields, as Anserini and Pyserini write it), TREC qrels of the same
(query, doc) pairs with grades 0-3, and ``query_id, doc_id, rank, score`` as CSV, JSON
Lines and Parquet. Each file is read by

- **ragmetrics**: ``read_trec_run``, ``read_trec_qrels`` and ``read_results``, with
  every check they make (ids, number syntax, finiteness, int64 range, a doc judged twice);
- **pandas**: ``read_csv(path, sep=r"\\s+", header=None)`` for the TREC files,
  ``read_csv(path)`` for the CSV, ``read_json(path, lines=True)`` and ``read_parquet(path)``
  for the others: parsing and type inference, no checks;
- with ``--baseline DIR``, also the ragmetrics found in ``DIR`` (say, ``git archive main``
  unpacked there): the same calls, another version of the readers.

Every read runs in a fresh Python process (numpy, pandas and ragmetrics imported first,
not timed), ``--repeat`` times, the readers taking turns so that a burst of load from
other processes hits them alike; the best wall time counts. **Peak memory** is the
process's peak RSS during the read above its RSS before it (Linux: ``VmHWM`` after a
reset through ``/proc/self/clear_refs``, else ``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(ROOT))

import numpy as np

from benchmarks import data as bench_data

__all__ = ["FORMATS", "READERS", "measure_readers", "reader_rows", "render_readers",
           "run_readers", "write_files"]

#: Each format's file name and what it holds, in table order.
FORMATS = {
    "TREC run": "run.txt",
    "TREC qrels": "qrels.txt",
    "CSV long": "run.csv",
    "JSONL long": "run.jsonl",
    "Parquet": "run.parquet",
}
#: The call each reader makes on ``path``, by format (``rm`` is ragmetrics, ``pd`` pandas).
READERS = {
    "ragmetrics": {
        "TREC run": "rm.read_trec_run(path)",
        "TREC qrels": "rm.read_trec_qrels(path)",
        "CSV long": "rm.read_results(path)",
        "JSONL long": "rm.read_results(path)",
        "Parquet": "rm.read_results(path)",
    },
    "pandas": {
        "TREC run": 'pd.read_csv(path, sep=r"\\s+", header=None)',
        "TREC qrels": 'pd.read_csv(path, sep=r"\\s+", header=None)',
        "CSV long": "pd.read_csv(path)",
        "JSONL long": "pd.read_json(path, lines=True)",
        "Parquet": "pd.read_parquet(path)",
    },
}
BASELINE = "ragmetrics (baseline)"

def read_and_measure(path: str, call: str) -> dict:
    """``call`` on ``path`` (``rm`` is ragmetrics, ``pd`` pandas), timed, with the peak RSS
    above the RSS before it; run in a process of its own."""
    import gc
    import resource

    import pandas as pd

    import ragmetrics as rm

    def status(key):
        try:
            with open("/proc/self/status") as handle:
                for line in handle:
                    if line.startswith(key + ":"):
                        return int(line.split()[1])  # KiB
        except OSError:
            return None
        return None

    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")  # the peak RSS becomes the current RSS
        exact = True
    except OSError:
        exact = False
    before = status("VmRSS") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    wall, cpu = time.perf_counter(), time.process_time()
    frame = eval(call, {"rm": rm, "pd": pd, "path": path})
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = (status("VmHWM") if exact else None) or resource.getrusage(
        resource.RUSAGE_SELF).ru_maxrss
    return {"wall_s": wall, "cpu_s": cpu, "peak_mib": max(peak - before, 0) / 1024,
            "rows": len(frame), "exact_peak": exact,
            "dtypes": {str(k): str(v) for k, v in frame.dtypes.items()}}


def _answer(conn, path: str, call: str) -> None:
    try:
        conn.send(("ok", read_and_measure(path, call)))
    except BaseException as error:  # noqa: BLE001 - reported to the parent
        conn.send(("error", f"{type(error).__name__}: {error}"))


# Another ragmetrics (--baseline) cannot share a process with this one: a fresh
# interpreter with its folder first on the path, which prints one JSON line.
_BASELINE_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[3])
sys.path.insert(1, sys.argv[4])
from benchmarks.readers import read_and_measure
print(json.dumps(read_and_measure(sys.argv[1], sys.argv[2])))
"""


def write_files(folder: Path, *, n_queries: int = 20_000, depth: int = 100,
                seed: int = 0) -> dict[str, Path]:
    """The run of ``n_queries x depth`` rows in every format of :data:`FORMATS`."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    run, _ = bench_data.make_data(bench_data.Preset("readers", n_queries, depth), seed=seed,
                                  missing_queries=0)
    rank = run.groupby("query_id", sort=False).cumcount().to_numpy() + 1
    grades = np.random.default_rng([seed, 2]).integers(0, 4, len(run))
    query = pa.array(run["query_id"], pa.string())
    doc = pa.array(run["doc_id"], pa.string())
    rank = pa.array(rank, pa.int64())
    score = pa.array(run["score"].to_numpy(), pa.float64())

    def constant(text: str):
        return pa.array(np.full(len(run), text, dtype=object), pa.string())

    def write_trec(path: Path, columns: list) -> None:
        table = pa.table({f"f{i}": pc.cast(c, pa.string()) for i, c in enumerate(columns)})
        pcsv.write_csv(table, path, pcsv.WriteOptions(include_header=False, delimiter=" ",
                                                      quoting_style="none"))

    paths = {name: folder / file for name, file in FORMATS.items()}
    write_trec(paths["TREC run"], [query, constant("Q0"), doc, rank, score, constant("bm25")])
    write_trec(paths["TREC qrels"], [query, constant("0"), doc, pa.array(grades, pa.int64())])
    long = pa.table({"query_id": query, "doc_id": doc, "rank": rank, "score": score})
    pcsv.write_csv(long, paths["CSV long"], pcsv.WriteOptions(quoting_style="none"))
    _write_jsonl(paths["JSONL long"], long)
    pq.write_table(long, paths["Parquet"])
    return paths


def _write_jsonl(path: Path, table) -> None:
    """One JSON object per row, written by Arrow (pandas' to_json takes 4 s for 2M rows):
    the ids need no escaping, and Arrow writes each float as its shortest repr."""
    import pyarrow as pa
    import pyarrow.compute as pc

    def text(value):
        return pa.scalar(value, pa.string())

    lines = pc.binary_join_element_wise(
        text('{"query_id":"'), table["query_id"], text('","doc_id":"'), table["doc_id"],
        text('","rank":'), pc.cast(table["rank"], pa.string()), text(',"score":'),
        pc.cast(table["score"], pa.string()), text("}\n"), text(""))
    with open(path, "wb") as handle:
        for chunk in lines.chunks:
            _, offsets, data = chunk.buffers()
            bounds = np.frombuffer(offsets, np.int32, len(chunk) + 1, chunk.offset * 4)
            handle.write(memoryview(data)[bounds[0]:bounds[-1]])


_CONTEXT = None


def _read_in_child(path: Path, call: str, pythonpath: str | None) -> dict:
    """``read_and_measure`` in a new process: forked from a server that has imported
    numpy, pandas, pyarrow and ragmetrics and done nothing else (no import in the time,
    0.5 s saved a read), or, for another ragmetrics, a fresh interpreter."""
    global _CONTEXT
    if pythonpath is not None:
        done = subprocess.run(
            [sys.executable, "-c", _BASELINE_CHILD, str(path), call, pythonpath, str(ROOT)],
            capture_output=True, text=True, timeout=600, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{call} on {path.name} failed:\n{done.stderr[-2000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])
    import multiprocessing

    if _CONTEXT is None:
        _CONTEXT = multiprocessing.get_context("forkserver")
        _CONTEXT.set_forkserver_preload(["numpy", "pandas", "pyarrow", "ragmetrics",
                                         "benchmarks.readers"])
    receive, send = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=_answer, args=(send, str(path), call))
    child.start()
    send.close()
    try:
        status, value = receive.recv()
    except EOFError:
        status, value = "error", "the child process died"
    child.join()
    if status == "error":
        raise RuntimeError(f"{call} on {path.name} failed: {value}")
    return value


def measure_readers(folder: Path, *, repeat: int = 2, budget: float = 8.0,
                    baseline: Path | None = None, log=print) -> dict:
    """Every reader on every file of ``folder`` (from :func:`write_files`).

    Rounds of one read per (format, reader); a cell gets another round while its reads
    so far plus its fastest stay within ``budget`` seconds.
    """
    readers = {name: (calls, None) for name, calls in READERS.items()}
    if baseline is not None:
        readers[BASELINE] = (READERS["ragmetrics"], str(baseline))
    runs: dict[tuple[str, str], list[dict]] = {}
    for round_number in range(max(repeat, 1)):
        for fmt, file in FORMATS.items():
            for name, (calls, pythonpath) in readers.items():
                done = runs.setdefault((fmt, name), [])
                walls = [d["wall_s"] for d in done]
                if round_number and sum(walls) + min(walls) > budget:
                    continue
                done.append(_read_in_child(folder / file, calls[fmt], pythonpath))
                log(f"  [file to frame] {fmt}, {name}: {done[-1]['wall_s']:.2f} s, "
                    f"peak +{done[-1]['peak_mib']:.0f} MiB")
    sizes = {fmt: (folder / file).stat().st_size for fmt, file in FORMATS.items()}
    cells = []
    for (fmt, name), done in runs.items():
        best = min(done, key=lambda d: d["wall_s"])
        cells.append({"format": fmt, "reader": name, "call": readers[name][0][fmt],
                      "file_mib": sizes[fmt] / 2**20, "wall_s": best["wall_s"],
                      "cpu_s": best["cpu_s"], "all_wall_s": [d["wall_s"] for d in done],
                      "peak_mib": max(d["peak_mib"] for d in done), "rows": best["rows"],
                      "dtypes": best["dtypes"], "exact_peak": best["exact_peak"]})
    return {"cells": cells, "repeat": repeat, "baseline": None if baseline is None else
            str(baseline)}


def reader_rows(found: dict) -> list[dict]:
    """One row per format: each reader's best time and peak; x = ragmetrics / pandas."""
    by = {(c["format"], c["reader"]): c for c in found["cells"]}
    rows = []
    for fmt in FORMATS:
        ours, theirs = by.get((fmt, "ragmetrics")), by.get((fmt, "pandas"))
        if ours is None or theirs is None:
            continue
        row = {"format": fmt, "file_mib": ours["file_mib"], "rows": ours["rows"],
               "ours_s": ours["wall_s"], "pandas_s": theirs["wall_s"],
               "ratio": ours["wall_s"] / theirs["wall_s"],
               "ours_mib": ours["peak_mib"], "pandas_mib": theirs["peak_mib"],
               "memory_ratio": ours["peak_mib"] / max(theirs["peak_mib"], 1e-9)}
        base = by.get((fmt, BASELINE))
        if base is not None:
            row.update(base_s=base["wall_s"], base_mib=base["peak_mib"],
                       speedup=base["wall_s"] / ours["wall_s"])
        rows.append(row)
    return rows


READER_COLUMNS = [
    ("format", "file"), ("file_mib", "MiB"), ("rows", "rows"),
    ("ours_s", "ragmetrics s"), ("pandas_s", "pandas s"), ("ratio", "x pandas"),
    ("ours_mib", "ragmetrics peak MiB"), ("pandas_mib", "pandas peak MiB"),
    ("memory_ratio", "memory x pandas"),
]
BASELINE_COLUMNS = [("base_s", "baseline s"), ("base_mib", "baseline peak MiB"),
                    ("speedup", "speed-up")]


def render_readers(found: dict) -> str:
    from benchmarks.run import markdown_table

    rows = reader_rows(found)
    columns = READER_COLUMNS + (BASELINE_COLUMNS if found.get("baseline") else [])
    lines = [markdown_table(rows, columns), "",
             f"best of {found['repeat']} reads, each in a fresh process; x pandas = "
             "ragmetrics / pandas, same run. pandas: "
             + "; ".join(f"{fmt}: {call}" for fmt, call in READERS["pandas"].items())
             + ". peak MiB: peak RSS during the read above the RSS before it."]
    if found.get("baseline"):
        lines.append(f"baseline: the readers of {found['baseline']}; speed-up = baseline / "
                     "ragmetrics.")
    return "\n".join(lines)


def run_readers(*, n_queries: int = 20_000, depth: int = 100, repeat: int = 2,
                budget: float = 8.0, baseline: Path | None = None, seed: int = 0,
                log=print) -> dict:
    """Write the files in a temporary folder, read them all (:func:`measure_readers`)."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        write_files(Path(folder), n_queries=n_queries, depth=depth, seed=seed)
        log(f"  [file to frame] {n_queries:,} queries x {depth} docs, written in "
            f"{time.perf_counter() - start:.1f} s")
        found = measure_readers(Path(folder), repeat=repeat, budget=budget, baseline=baseline,
                                log=log)
    found.update(queries=n_queries, depth=depth)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=20_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--budget", type=float, default=8.0,
                        help="seconds per cell after which its repeats stop")
    parser.add_argument("--baseline", type=Path,
                        help="a folder with another ragmetrics package, read too")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    found = run_readers(n_queries=args.queries, depth=args.depth, repeat=args.repeat,
                        budget=args.budget, baseline=args.baseline,
                        log=lambda line: print(line, flush=True))
    print("\n" + render_readers(found))
    if args.json:
        args.json.write_text(json.dumps(found, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
