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

With ``--refused``, ragmetrics (and the baseline) also read five files it must refuse: the
TREC run, the qrels and the CSV with one bad line added at the end (a line short of a
field, a score ``nan``, a doc judged twice), the path of an error (:data:`REFUSED`): the
time to find the line and word the error, and whether the baseline words it alike. With
``--runs N`` the whole measurement is made N times on the same files, and the table of
each run is followed by the median over the runs of each ratio (each ratio taken within
one run: this machine is shared, and a burst of load moves every cell of a run).

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

__all__ = ["FORMATS", "READERS", "REFUSED", "measure_readers", "median_rows", "reader_rows",
           "refused_rows", "render_readers", "run_readers", "write_files", "write_refused"]

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
#: Files to refuse, by case: (the file they are made from, their name, the line added at
#: its end, the call that reads them). ``FIRST`` stands for the file's first line (a doc
#: judged twice, on line 1 and on the last line).
REFUSED = {
    "TREC run, last line short of a field": (
        "TREC run", "run_short.txt", b"q9 Q0 dX 1 bm25\n", "refused(rm.read_trec_run, path)"),
    "TREC run, score nan on the last line": (
        "TREC run", "run_nan.txt", b"q9 Q0 dX 1 nan bm25\n", "refused(rm.read_trec_run, path)"),
    "TREC qrels, a doc judged again on the last line": (
        "TREC qrels", "qrels_twice.txt", "FIRST", "refused(rm.read_trec_qrels, path)"),
    "CSV long, last line short of a field": (
        "CSV long", "run_short.csv", b"q9,dX,1\n", "refused(rm.read_results, path)"),
    "CSV long, score nan on the last line": (
        "CSV long", "run_nan.csv", b"q9,dX,1,nan\n", "refused(rm.read_results, path)"),
}


def refused(read, path):
    """The error ``read(path)`` raises (a ragmetrics ``FormatError``); an AssertionError
    if it reads the file."""
    import ragmetrics as rm

    try:
        frame = read(path)
    except rm.FormatError as error:
        return error
    raise AssertionError(f"{path} was read ({len(frame)} rows), not refused")


def read_and_measure(path: str, call: str) -> dict:
    """``call`` on ``path`` (``rm`` is ragmetrics, ``pd`` pandas), timed, with the peak RSS
    above the RSS before it; run in a process of its own."""
    import pandas as pd

    import ragmetrics as rm
    from benchmarks.memory import measured

    found = measured(lambda: eval(call, {"rm": rm, "pd": pd, "path": path,
                                         "refused": refused}))
    frame = found.pop("value")
    found = {key: found[key] for key in ("wall_s", "cpu_s", "peak_mib", "exact_peak")}
    if isinstance(frame, rm.FormatError):  # a file to refuse (REFUSED): the error said
        return found | {"rows": 0, "dtypes": {}, "error": str(frame)}
    return found | {"rows": len(frame),
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


def write_refused(folder: Path) -> dict[str, Path]:
    """The files of :data:`REFUSED`, from the files :func:`write_files` wrote in ``folder``."""
    paths = {}
    for case, (source, name, line, _) in REFUSED.items():
        data = (folder / FORMATS[source]).read_bytes()
        if line == "FIRST":
            line = data[: data.index(b"\n") + 1]
        paths[case] = folder / name
        paths[case].write_bytes(data + line)
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
                    baseline: Path | None = None, refused: bool = False, fresh: bool = False,
                    log=print) -> dict:
    """Every reader on every file of ``folder`` (from :func:`write_files`; with
    ``refused``, ragmetrics and the baseline also on the files of :func:`write_refused`).
    ``fresh``: every read in a fresh interpreter, as the baseline's are (else forked from
    a server that has imported the libraries): the way to compare with a baseline, whose
    reads pay what a fresh interpreter pays (on 6,000-row files, 5 ms and 10 MiB less
    than a forked child's, whose first writes copy the server's pages).

    Rounds of one read per (format, reader); a cell gets another round while its reads
    so far plus its fastest stay within ``budget`` seconds.
    """
    ours = dict(READERS["ragmetrics"])
    files = dict(FORMATS)
    if refused:  # for ragmetrics only: pandas refuses none of them
        ours.update({case: call for case, (*_, call) in REFUSED.items()})
        files.update({case: name for case, (_, name, _, _) in REFUSED.items()})
    here = str(ROOT) if fresh else None
    readers = {"ragmetrics": (ours, here), "pandas": (READERS["pandas"], here)}
    if baseline is not None:
        readers[BASELINE] = (ours, str(baseline))
    runs: dict[tuple[str, str], list[dict]] = {}
    for round_number in range(max(repeat, 1)):
        for fmt, file in files.items():
            for name, (calls, pythonpath) in readers.items():
                if fmt not in calls:
                    continue
                done = runs.setdefault((fmt, name), [])
                walls = [d["wall_s"] for d in done]
                if round_number and sum(walls) + min(walls) > budget:
                    continue
                done.append(_read_in_child(folder / file, calls[fmt], pythonpath))
                log(f"  [file to frame] {fmt}, {name}: {done[-1]['wall_s']:.2f} s, "
                    f"peak +{done[-1]['peak_mib']:.0f} MiB")
    sizes = {fmt: (folder / file).stat().st_size for fmt, file in files.items()}
    cells = []
    for (fmt, name), done in runs.items():
        best = min(done, key=lambda d: d["wall_s"])
        cells.append({"format": fmt, "reader": name, "call": readers[name][0][fmt],
                      "file_mib": sizes[fmt] / 2**20, "wall_s": best["wall_s"],
                      "cpu_s": best["cpu_s"], "all_wall_s": [d["wall_s"] for d in done],
                      "peak_mib": max(d["peak_mib"] for d in done), "rows": best["rows"],
                      "dtypes": best["dtypes"], "exact_peak": best["exact_peak"],
                      "error": best.get("error")})
    return {"cells": cells, "repeat": repeat, "baseline": None if baseline is None else
            str(baseline), "refused": refused, "fresh": fresh}


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


def refused_rows(found: dict) -> list[dict]:
    """One row per file of :data:`REFUSED` read: ragmetrics' best time and peak, and
    with a baseline its own, the speed-up and whether both said the same error."""
    by = {(c["format"], c["reader"]): c for c in found["cells"]}
    rows = []
    for case in REFUSED:
        ours = by.get((case, "ragmetrics"))
        if ours is None:
            continue
        row = {"format": case, "file_mib": ours["file_mib"], "ours_s": ours["wall_s"],
               "ours_mib": ours["peak_mib"]}
        base = by.get((case, BASELINE))
        if base is not None:
            row.update(base_s=base["wall_s"], base_mib=base["peak_mib"],
                       speedup=base["wall_s"] / ours["wall_s"],
                       same_error="yes" if base["error"] == ours["error"] else "no")
        rows.append(row)
    return rows


REFUSED_COLUMNS = [("format", "file refused"), ("file_mib", "MiB"),
                   ("ours_s", "ragmetrics s"), ("ours_mib", "ragmetrics peak MiB")]
REFUSED_BASELINE_COLUMNS = [("base_s", "baseline s"), ("base_mib", "baseline peak MiB"),
                            ("speedup", "speed-up"), ("same_error", "same error")]


def render_readers(found: dict) -> str:
    from benchmarks.run import markdown_table

    rows = reader_rows(found)
    columns = READER_COLUMNS + (BASELINE_COLUMNS if found.get("baseline") else [])
    lines = [markdown_table(rows, columns), "",
             f"best of {found['repeat']} reads, each in a process of its own"
             + (" (a fresh interpreter)" if found.get("fresh") else "") + "; x pandas = "
             "ragmetrics / pandas, same run. pandas: "
             + "; ".join(f"{fmt}: {call}" for fmt, call in READERS["pandas"].items())
             + ". peak MiB: peak RSS during the read above the RSS before it."]
    if found.get("baseline"):
        lines.append(f"baseline: the readers of {found['baseline']}; speed-up = baseline / "
                     "ragmetrics.")
    refused = refused_rows(found)
    if refused:
        columns = REFUSED_COLUMNS + (REFUSED_BASELINE_COLUMNS if found.get("baseline") else [])
        lines += ["", markdown_table(refused, columns), "",
                  ("files to refuse: the file above with one bad line added at its end; "
                   "the time until the error (its line and text found).")]
    return "\n".join(lines)


def median_rows(founds: list[dict]) -> list[dict]:
    """Per file, the median over several runs of each ratio taken within a run (x pandas,
    and the speed-up over the baseline), and the ratios of each run."""
    rows = []
    per_run = [{row["format"]: row for row in reader_rows(found) + refused_rows(found)}
               for found in founds]
    for fmt in [*FORMATS, *REFUSED]:
        found = [run[fmt] for run in per_run if fmt in run]
        if not found:
            continue
        row = {"format": fmt}
        for key in ("ratio", "speedup"):
            values = [r[key] for r in found if key in r]
            if values:
                row[key] = float(np.median(values))
                row[key + "_runs"] = ", ".join(f"{v:.3g}" for v in values)
        rows.append(row)
    return rows


MEDIAN_COLUMNS = [("format", "file"), ("ratio", "x pandas, median"),
                  ("ratio_runs", "x pandas, each run"), ("speedup", "speed-up, median"),
                  ("speedup_runs", "speed-up, each run")]


def run_readers(*, n_queries: int = 20_000, depth: int = 100, repeat: int = 2,
                budget: float = 8.0, baseline: Path | None = None, seed: int = 0,
                refused: bool = False, fresh: bool = False, runs: int = 1,
                log=print) -> dict:
    """Write the files in a temporary folder, read them all (:func:`measure_readers`);
    with ``runs`` more than 1, ``runs`` times, each run's measurements in ``"runs"``
    (the first's also at the top)."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        write_files(Path(folder), n_queries=n_queries, depth=depth, seed=seed)
        if refused:
            write_refused(Path(folder))
        log(f"  [file to frame] {n_queries:,} queries x {depth} docs, written in "
            f"{time.perf_counter() - start:.1f} s")
        founds = []
        for number in range(max(runs, 1)):
            if runs > 1:
                log(f"  [file to frame] run {number + 1} of {runs}")
            founds.append(measure_readers(Path(folder), repeat=repeat, budget=budget,
                                          baseline=baseline, refused=refused, fresh=fresh,
                                          log=log))
    found = dict(founds[0], queries=n_queries, depth=depth)
    if runs > 1:
        found["runs"] = founds
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
    parser.add_argument("--refused", action="store_true",
                        help="also the files to refuse (REFUSED): the path of an error")
    parser.add_argument("--fresh", action="store_true",
                        help="every read in a fresh interpreter, as the baseline's")
    parser.add_argument("--runs", type=int, default=1,
                        help="measure this many times; then the median of each ratio")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    found = run_readers(n_queries=args.queries, depth=args.depth, repeat=args.repeat,
                        budget=args.budget, baseline=args.baseline, refused=args.refused,
                        fresh=args.fresh, runs=args.runs,
                        log=lambda line: print(line, flush=True))
    for number, each in enumerate(found.get("runs", [found]), start=1):
        print(f"\nrun {number}:\n" + render_readers(each))
    if args.runs > 1:
        from benchmarks.run import markdown_table

        print(f"\nmedian of {args.runs} runs, each ratio taken within one run:\n"
              + markdown_table(median_rows(found["runs"]), MEDIAN_COLUMNS))
    if args.json:
        args.json.write_text(json.dumps(found, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
