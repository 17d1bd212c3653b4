"""Big runs: from files to results, in parts, on Dask, and the command's start.

    python benchmarks/big.py [--rows 2000000,10000000] [--streamed-rows 20000000]
                             [--memory-rows 1000000,4000000] [--dask-rows 10000000]
                             [--runs 126] [--trec-eval PATH] [--json out.json]

Five measurements (``make bench BENCH_ARGS=--big`` runs them all, ``benchmarks/run.py --big``):

- **file to result**: seeded runs of 2M and 10M rows (100 docs a query, string ids, about
  8 judged docs a query: ``benchmarks/data.py``) written as a TREC run, CSV and Parquet,
  with TREC qrels; each read and evaluated (recall@10, precision@10, nDCG@10, RR) by
  ragmetrics (``read_run`` + ``read_qrels`` + ``evaluate``; for TREC also in parts of
  whole queries, as the command reads a large run: ``read_trec_run_batches`` +
  ``evaluate_batches``), by pandas' readers +
  ``evaluate`` (``read_csv(sep=r"\\s+")``, ``read_csv``, ``read_parquet``), and by
  pytrec_eval's own path (``pytrec_eval.parse_run`` / ``parse_qrel`` for TREC files, a
  ``{query: {doc: score}}`` dict from pandas' frame for the others, then
  ``RelevanceEvaluator.evaluate``), each in a process of its own (peak RSS above the
  RSS before the call);
- **streamed**: a TREC run of ``--streamed-rows`` rows (1,000 docs a query, like a full
  MS MARCO dev run at 1e8 rows) generated on the fly by another process into a pipe,
  read and evaluated in parts of whole queries (``read_trec_run_batches`` +
  ``evaluate_batches``): the time, and the peak memory of the evaluating process;
- **memory of the command**: ``ragmetrics evaluate`` on TREC runs of ``--memory-rows``
  rows (100 docs a query: the queries grow with the rows), peak RSS of the process;
- **Dask**: ``evaluate`` of ``--dask-rows`` rows read from Parquet files (one per
  partition, whole queries) on a ``LocalCluster`` of 2 worker processes, against
  ``pandas.read_parquet`` + ``evaluate`` in one process;
- **the command's start and many runs**: one run of 45,000 lines (50 queries x 900,
  TREC-COVID's shape) and its 22,500 qrels lines from files to printed means, in a fresh
  process, best of 5, beside ``python -c "import pandas"``; and ``--runs`` such runs in
  one call, against one trec_eval process per run (``--trec-eval``, ``$TREC_EVAL`` or
  ``trec_eval`` on the PATH; build it from usnistgov/trec_eval with ``make``; never
  committed), trec_eval asked for the same measures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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
from benchmarks.memory import measured

__all__ = ["main", "render_big", "run_big"]

METRICS = ["recall@10", "precision@10", "ndcg@10", "mrr"]
PYTREC_MEASURES = {"recall_10", "P_10", "ndcg_cut_10", "recip_rank"}
TREC_EVAL_MEASURES = ["-m", "P.5,10,20", "-m", "recall.5,10,20", "-m", "ndcg_cut.5,10,20",
                      "-m", "recip_rank"]


# -- files ------------------------------------------------------------------------------


def write_files(folder: Path, n_queries: int, depth: int = 100, seed: int = 0) -> dict:
    """The run as TREC, CSV and Parquet, and its qrels as TREC, in ``folder``."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    run, qrels = bench_data.make_data(bench_data.Preset("big", n_queries, depth), seed=seed,
                                      relevant_per_query=5.0, nonrelevant_per_query=3.0)
    rank = run.groupby("query_id", sort=False).cumcount().to_numpy() + 1
    query, doc = pa.array(run["query_id"], pa.string()), pa.array(run["doc_id"], pa.string())
    score = pa.array(run["score"].to_numpy(), pa.float64())

    def constant(text, n):
        return pa.array(np.full(n, text, dtype=object), pa.string())

    def trec(path, columns):
        table = pa.table({f"f{i}": pc.cast(c, pa.string()) for i, c in enumerate(columns)})
        pcsv.write_csv(table, path, pcsv.WriteOptions(include_header=False, delimiter=" ",
                                                      quoting_style="none"))

    paths = {"TREC": folder / "run.txt", "CSV": folder / "run.csv",
             "Parquet": folder / "run.parquet", "qrels": folder / "qrels.txt"}
    n = len(run)
    trec(paths["TREC"], [query, constant("Q0", n), doc, pa.array(rank), score,
                         constant("bm25", n)])
    long = pa.table({"query_id": query, "doc_id": doc, "rank": pa.array(rank), "score": score})
    pcsv.write_csv(long, paths["CSV"], pcsv.WriteOptions(quoting_style="none"))
    pq.write_table(long, paths["Parquet"])
    trec(paths["qrels"], [pa.array(qrels["query_id"], pa.string()),
                          constant("0", len(qrels)), pa.array(qrels["doc_id"], pa.string()),
                          pa.array(qrels["relevance"].to_numpy())])
    return {"paths": {k: str(v) for k, v in paths.items()}, "rows": n,
            "qrels_rows": len(qrels), "queries": n_queries}


# -- one measured call in a process of its own ------------------------------------------


def _measured(function, *args) -> dict:
    """``function(*args)`` timed, with the peak RSS above the RSS before it (in MiB)."""
    found = measured(lambda: function(*args))
    del found["exact_peak"]
    return found


def _in_process(function, *args, timeout: float = 900) -> dict:
    """``_measured(function, *args)`` in a forked child (numpy, pandas, pyarrow imported)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def child():
        try:
            send.send(("ok", _measured(function, *args)))
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            send.send(("error", f"{type(error).__name__}: {error}"))

    process = context.Process(target=child)
    process.start()
    send.close()
    if not receive.poll(timeout):
        process.kill()
        raise TimeoutError(f"{function.__name__} took more than {timeout:.0f} s")
    status, value = receive.recv()
    process.join()
    if status == "error":
        raise RuntimeError(value)
    return value


def _means(per_query) -> dict:
    return {k: float(v) for k, v in per_query.mean().items()}


def ragmetrics_path(run_path: str, qrels_path: str) -> dict:
    import warnings

    import ragmetrics as rm

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RagmetricsWarning)
        result = rm.evaluate(rm.read_run(run_path), rm.read_qrels(qrels_path), METRICS)
    return {m: float(result.summary[m]) for m in METRICS}


def ragmetrics_parts_path(run_path: str, qrels_path: str) -> dict:
    """A TREC run read and scored a part of whole queries at a time, as the command does."""
    import warnings

    import ragmetrics as rm
    from ragmetrics.evaluation.streaming import evaluate_batches
    from ragmetrics.io.batches import read_trec_run_batches

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RagmetricsWarning)
        parts = (part.frame for part in read_trec_run_batches(run_path))
        result = evaluate_batches(parts, rm.read_qrels(qrels_path), METRICS)
    return {m: float(result.summary[m]) for m in METRICS}


def pandas_path(run_path: str, qrels_path: str) -> dict:
    import warnings

    import pandas as pd

    import ragmetrics as rm

    if run_path.endswith(".txt"):
        run = pd.read_csv(run_path, sep=r"\s+", header=None,
                          names=["query_id", "Q0", "doc_id", "rank", "score", "name"],
                          dtype={"query_id": str, "doc_id": str})
    elif run_path.endswith(".csv"):
        run = pd.read_csv(run_path, dtype={"query_id": str, "doc_id": str})
    else:
        run = pd.read_parquet(run_path)
    qrels = pd.read_csv(qrels_path, sep=r"\s+", header=None,
                        names=["query_id", "iteration", "doc_id", "relevance"],
                        dtype={"query_id": str, "doc_id": str})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RagmetricsWarning)
        result = rm.evaluate(run[["query_id", "doc_id", "score"]], qrels, METRICS)
    return {m: float(result.summary[m]) for m in METRICS}


def pytrec_eval_path(run_path: str, qrels_path: str) -> dict:
    import pytrec_eval

    with open(qrels_path) as handle:
        qrels = pytrec_eval.parse_qrel(handle)
    if run_path.endswith(".txt"):
        with open(run_path) as handle:
            run = pytrec_eval.parse_run(handle)
    else:
        import pandas as pd

        frame = pd.read_csv(run_path) if run_path.endswith(".csv") else pd.read_parquet(run_path)
        run = {}
        for q, d, s in zip(frame["query_id"].astype(str), frame["doc_id"].astype(str),
                           frame["score"].to_numpy().tolist(), strict=True):
            run.setdefault(q, {})[d] = s
    found = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
    n = len(found)
    return {"queries": n}


PATHS = {"ragmetrics": ragmetrics_path, "ragmetrics, in parts": ragmetrics_parts_path,
         "pandas + evaluate": pandas_path, "pytrec_eval": pytrec_eval_path}
#: The paths that read one format only.
ONLY = {"ragmetrics, in parts": "TREC"}


def file_to_result(sizes: list[int], *, folder: Path, budget: float, log=print) -> list[dict]:
    """Every path on every format at every size: one call each, in its own process."""
    try:
        import pytrec_eval  # noqa: F401
        paths = dict(PATHS)
    except ImportError:
        paths = {k: v for k, v in PATHS.items() if k != "pytrec_eval"}
        log("  [big] pytrec_eval not installed: its path is skipped")
    cells = []
    for rows in sizes:
        start = time.perf_counter()
        files = write_files(folder, n_queries=rows // 100)
        log(f"  [big] {files['rows']:,} rows written in {time.perf_counter() - start:.1f} s")
        slow = set()
        for fmt in ("TREC", "CSV", "Parquet"):
            for name, path in paths.items():
                if ONLY.get(name, fmt) != fmt:
                    continue
                if name in slow:
                    cells.append({"rows": files["rows"], "format": fmt, "path": name,
                                  "skipped": f"over the {budget:.0f} s budget at a smaller "
                                             "size or format"})
                    continue
                try:
                    found = _in_process(path, files["paths"][fmt], files["paths"]["qrels"],
                                        timeout=max(budget * 3, 60))
                except TimeoutError as error:
                    slow.add(name)
                    cells.append({"rows": files["rows"], "format": fmt, "path": name,
                                  "skipped": str(error)})
                    continue
                found.update(rows=files["rows"], format=fmt, path=name,
                             file_mib=os.path.getsize(files["paths"][fmt]) / 2**20)
                cells.append(found)
                log(f"  [big] {files['rows']:,} {fmt}, {name}: {found['wall_s']:.2f} s, "
                    f"peak +{found['peak_mib']:.0f} MiB")
                if found["wall_s"] > budget:
                    slow.add(name)
    return cells


# -- streamed ---------------------------------------------------------------------------

STREAM_DEPTH = 1_000
_DOCS = 8_841_823  # MS MARCO's passages


def _stream_doc(query: np.ndarray, rank: np.ndarray) -> np.ndarray:
    return (query * 1_000_003 + rank * 7_919) % _DOCS


def _generate(write_fd: int, n_rows: int, chunk_queries: int = 1_000) -> None:
    """Write a TREC run of ``n_rows`` rows (queries of STREAM_DEPTH docs) into the pipe."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    n_queries = n_rows // STREAM_DEPTH
    with os.fdopen(write_fd, "wb", buffering=1 << 20) as out:
        for first in range(0, n_queries, chunk_queries):
            queries = np.arange(first, min(first + chunk_queries, n_queries))
            query = np.repeat(queries, STREAM_DEPTH)
            rank = np.tile(np.arange(1, STREAM_DEPTH + 1), len(queries))
            table = pa.table({
                "q": pc.cast(pa.array(query), pa.string()),
                "z": pa.array(np.full(len(query), "Q0", dtype=object), pa.string()),
                "d": pc.cast(pa.array(_stream_doc(query, rank)), pa.string()),
                "r": pa.array(rank),
                "s": pa.array(1000.0 - rank),
                "n": pa.array(np.full(len(query), "gen", dtype=object), pa.string()),
            })
            sink = pa.BufferOutputStream()
            pcsv.write_csv(table, sink, pcsv.WriteOptions(include_header=False, delimiter=" ",
                                                          quoting_style="none"))
            out.write(sink.getvalue())


def _stream_qrels(n_rows: int):
    """One relevant doc per query, at rank 1 + q % 20; one judged never retrieved."""
    import pandas as pd

    queries = np.arange(n_rows // STREAM_DEPTH)
    hit = _stream_doc(queries, 1 + queries % 20)
    return pd.DataFrame({
        "query_id": np.concatenate([queries, queries]).astype(str),
        "doc_id": np.concatenate([hit, hit + _DOCS]).astype(str),
        "relevance": np.ones(2 * len(queries), np.int64),
    })


def streamed(n_rows: int) -> dict:
    """Evaluate a generated run of ``n_rows`` rows in parts, in this (forked) process."""
    import warnings

    import ragmetrics as rm
    from ragmetrics.evaluation.streaming import evaluate_batches
    from ragmetrics.io.batches import read_trec_run_batches

    qrels = _stream_qrels(n_rows)
    read, write = os.pipe()
    generator = os.fork()
    if generator == 0:  # the generator's process
        os.close(read)
        try:
            _generate(write, n_rows)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as stream, warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RagmetricsWarning)
        parts = (p.frame for p in read_trec_run_batches("generated.run", stream=stream))
        result = evaluate_batches(parts, qrels, METRICS)
    os.waitpid(generator, 0)
    expected = float(np.mean(1.0 / (1 + np.arange(n_rows // STREAM_DEPTH) % 20)))
    return {"queries": len(result.per_query), "mrr": float(result.summary["mrr"]),
            "mrr_expected": expected}


# -- the command ------------------------------------------------------------------------


# Runs a command and prints its rusage. Linux records the peak RSS of the process a
# command is exec'd from (the memory a fork or vfork shares with its parent) in the
# command's own ru_maxrss, so a command started from this benchmark, which holds a
# gigabyte of generated data at times, would report that gigabyte: started from this
# small launcher it reports its own peak (plus the launcher's ~10 MB).
_LAUNCHER = """
import json, os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(json.dumps({"wall_s": time.perf_counter() - start,
                  "cpu_s": usage.ru_utime + usage.ru_stime,
                  "peak_mib": usage.ru_maxrss / 1024,
                  "status": os.waitstatus_to_exitcode(status)}))
"""


def _child_rusage(command: list[str], *, launcher: bool = True) -> dict:
    """Wall time, CPU time and peak RSS (MiB) of a command, from its own rusage (through
    :data:`_LAUNCHER`; ``launcher=False``: started directly, for timing short commands,
    whose peak RSS is then not their own)."""
    if launcher:
        done = subprocess.run([sys.executable, "-c", _LAUNCHER, *command],
                              check=False, capture_output=True, text=True)
        if done.returncode != 0 or not done.stdout.strip():
            raise RuntimeError(f"{' '.join(command[:4])}... failed: {done.stderr[-500:]}")
        found = json.loads(done.stdout.strip().splitlines()[-1])
        if found.pop("status") != 0:
            raise RuntimeError(f"{' '.join(command[:4])}... failed: {done.stderr[-500:]}")
        return found
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command[:4])}... failed: {process.stderr.read()[-500:]}")
    process.stderr.close()
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mib": usage.ru_maxrss / 1024}


def _best(command: list[str], repeat: int) -> dict:
    runs = [_child_rusage(command) for _ in range(repeat)]
    return {"wall_s": min(r["wall_s"] for r in runs), "cpu_s": min(r["cpu_s"] for r in runs),
            "peak_mib": max(r["peak_mib"] for r in runs), "calls": repeat}


def _command() -> list[str]:
    return [sys.executable, "-m", "ragmetrics"]


def cli_memory(sizes: list[int], folder: Path, log=print) -> list[dict]:
    """Peak RSS of ``ragmetrics evaluate`` on TREC runs of each size (100 docs a query)."""
    found = []
    for rows in sizes:
        files = write_files(folder, n_queries=rows // 100)
        cell = _best([*_command(), "evaluate", files["paths"]["qrels"], files["paths"]["TREC"],
                      "--metrics", ",".join(METRICS), "--resamples", "1000"], 1)
        cell.update(rows=files["rows"], queries=files["queries"],
                    file_mib=os.path.getsize(files["paths"]["TREC"]) / 2**20)
        found.append(cell)
        log(f"  [big] command on {rows:,} rows: {cell['wall_s']:.1f} s, peak "
            f"{cell['peak_mib']:.0f} MiB")
    return found


def _covid_like(folder: Path, n_runs: int, seed: int = 0) -> tuple[Path, list[Path]]:
    """TREC-COVID's shape: 50 topics, 450 judgments each, runs of 900 docs a topic."""
    rng = np.random.default_rng(seed)
    n_q, n_docs, depth = 50, 170_000, 900
    judged = {q: (rng.choice(n_docs, 450, replace=False), rng.integers(0, 3, 450))
              for q in range(1, n_q + 1)}
    qrels = folder / "qrels.covid.txt"
    qrels.write_text("".join(f"{q} 0 doc{d:06d} {g}\n" for q, (docs, grades) in judged.items()
                             for d, g in zip(docs, grades, strict=True)))
    runs = []
    for r in range(n_runs):
        skill, lines = rng.random(), []
        for q, (docs, grades) in judged.items():
            relevant = docs[grades > 0]
            found = rng.choice(relevant, int(len(relevant) * rng.random()), replace=False)
            pool = np.unique(np.concatenate([found, rng.choice(n_docs, depth, replace=False)]))
            pool = rng.permutation(pool)[:depth]
            score = rng.random(len(pool)) + 2 * skill * np.isin(pool, relevant)
            order = np.argsort(-score, kind="stable")
            lines += [f"{q} Q0 doc{pool[i]:06d} {k + 1} {score[i]:.6f} run{r}\n"
                      for k, i in enumerate(order)]
        path = folder / f"run{r:03d}.txt"
        path.write_text("".join(lines))
        runs.append(path)
    return qrels, runs


def find_trec_eval(given: str | None) -> str | None:
    for candidate in (given, os.environ.get("TREC_EVAL"), shutil.which("trec_eval")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _line_count(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def start_and_many_runs(folder: Path, n_runs: int, trec_eval: str | None,
                        log=print) -> dict:
    # A start is timed as an installed package starts: from bytecode (pip install
    # compiles it). A checkout run with PYTHONDONTWRITEBYTECODE=1, as here, would
    # otherwise compile every module of ragmetrics at every start (0.13 s measured).
    import compileall

    import ragmetrics

    compileall.compile_dir(Path(ragmetrics.__file__).parent, quiet=1)
    qrels, runs = _covid_like(folder, n_runs)
    one = [*_command(), "evaluate", str(qrels), str(runs[0])]
    found = {"lines": _line_count(runs[0]), "qrels_lines": _line_count(qrels), "runs": n_runs,
             "import_pandas": _best([sys.executable, "-c", "import pandas"], 5),
             "one_run": _best(one, 5),
             "many_runs": _best([*_command(), "evaluate", str(qrels), *map(str, runs)], 1),
             "many_runs_1000": _best([*_command(), "evaluate", str(qrels), *map(str, runs),
                                      "--resamples", "1000"], 1),
             # The work trec_eval does: each run's means, no intervals, no tests.
             "many_runs_means": _best([*_command(), "evaluate", str(qrels), *map(str, runs),
                                       "--means-only"], 1),
             "many_runs_means_1": _best([*_command(), "evaluate", str(qrels),
                                         *map(str, runs), "--means-only", "--jobs", "1"], 1)}
    log(f"  [big] one run from files to means: {found['one_run']['wall_s']:.2f} s; "
        f"{n_runs} runs: {found['many_runs']['wall_s']:.1f} s")
    if trec_eval is not None:
        found["trec_eval_one"] = _best([trec_eval, *TREC_EVAL_MEASURES, str(qrels),
                                        str(runs[0])], 5)
        start = time.perf_counter()
        cpu = 0.0
        for run in runs:  # one process after the other, as a shell loop would
            cpu += _child_rusage([trec_eval, *TREC_EVAL_MEASURES, str(qrels), str(run)],
                                 launcher=False)["cpu_s"]
        found["trec_eval_many"] = {"wall_s": time.perf_counter() - start, "cpu_s": cpu}
        log(f"  [big] {n_runs} trec_eval processes: {found['trec_eval_many']['wall_s']:.1f} s")
    return found


# -- Dask -------------------------------------------------------------------------------


def dask_vs_local(n_rows: int, folder: Path, n_files: int = 8, log=print) -> dict:
    """evaluate of Parquet files on a 2-worker LocalCluster, against pandas in one process."""
    import warnings

    import pandas as pd
    import pyarrow.parquet as pq

    run, qrels = bench_data.make_data(bench_data.Preset("dask", n_rows // 100, 100), seed=1)
    heads = np.flatnonzero(run["query_id"].ne(run["query_id"].shift()).to_numpy())
    cuts = [0, *heads[np.linspace(0, len(heads), n_files + 1, dtype=int)[1:-1]], len(run)]
    data = folder / "run.parquet.d"
    data.mkdir(exist_ok=True)
    for i in range(n_files):
        part = run.iloc[cuts[i]:cuts[i + 1]].astype({"query_id": str, "doc_id": str})
        pq.write_table(pa_table(part), data / f"part{i:02d}.parquet")
    del run

    def local():
        import ragmetrics as rm

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", rm.RagmetricsWarning)
            frame = pd.read_parquet(data)
            return _means(rm.evaluate(frame, qrels, METRICS).per_query)

    def on_dask():
        import dask.dataframe as dd
        import distributed

        import ragmetrics as rm

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                               dashboard_address=None)
            client = distributed.Client(cluster)
            start = time.perf_counter()
            result = rm.evaluate(dd.read_parquet(data), qrels, METRICS)
            seconds = time.perf_counter() - start
            client.close()
            cluster.close()
        return {"seconds_in_cluster": seconds, **_means(result.per_query)}

    found = {"rows": n_rows, "files": n_files, "local": _in_process(local)}
    try:
        found["dask"] = _in_process(on_dask)
    except RuntimeError as error:
        found["dask_error"] = str(error)
        return found
    same = max(abs(found["local"]["value"][m] - found["dask"]["value"][m]) for m in METRICS)
    found["max_mean_difference"] = same
    log(f"  [big] Dask {n_rows:,} rows: {found['dask']['value']['seconds_in_cluster']:.1f} s "
        f"on the cluster, local {found['local']['wall_s']:.1f} s")
    return found


def pa_table(frame):
    import pyarrow as pa

    return pa.Table.from_pandas(frame, preserve_index=False)


# -- all --------------------------------------------------------------------------------


def run_big(*, rows=(2_000_000, 10_000_000), streamed_rows=20_000_000,
            memory_rows=(1_000_000, 4_000_000), dask_rows=10_000_000, runs=126,
            trec_eval=None, budget=60.0, log=print) -> dict:
    found: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        if runs:
            found["start"] = start_and_many_runs(folder, runs, find_trec_eval(trec_eval),
                                                 log=log)
        if memory_rows:
            found["memory"] = cli_memory(list(memory_rows), folder, log=log)
        if rows:
            found["file_to_result"] = file_to_result(list(rows), folder=folder, budget=budget,
                                                     log=log)
        if streamed_rows:
            found["streamed"] = _in_process(streamed, streamed_rows, timeout=3600)
            found["streamed"]["rows"] = streamed_rows
            log(f"  [big] streamed {streamed_rows:,} rows: "
                f"{found['streamed']['wall_s']:.1f} s, peak {found['streamed']['peak_mib']:.0f}"
                " MiB")
        if dask_rows:
            found["dask"] = dask_vs_local(dask_rows, folder, log=log)
    return found


def _table(rows: list[dict], columns: list[tuple[str, str]]) -> str:
    from benchmarks.run import markdown_table

    return markdown_table(rows, columns)


def render_big(found: dict) -> str:
    out = []
    if "file_to_result" in found:
        by = {(c["rows"], c["format"], c["path"]): c for c in found["file_to_result"]}
        rows = []
        for (n, fmt, path), cell in by.items():
            ours = by.get((n, fmt, "ragmetrics"))
            row = {"rows": n, "format": fmt, "path": path}
            if "skipped" in cell:
                row["note"] = cell["skipped"]
            else:
                row.update(wall=cell["wall_s"], cpu=cell["cpu_s"], peak=cell["peak_mib"])
                if ours and "wall_s" in ours:
                    row["ratio"] = cell["wall_s"] / ours["wall_s"]
            rows.append(row)
        out += [("File to result (read run and qrels, evaluate recall@10, precision@10, "
                "nDCG@10, RR; one call each in a fresh process):"), "",
                _table(rows, [("rows", "rows"), ("format", "run file"), ("path", "path"),
                              ("wall", "wall s"), ("cpu", "CPU s"), ("ratio", "x ragmetrics"),
                              ("peak", "peak MiB above start"), ("note", "note")]), ""]
    if "streamed" in found:
        s = found["streamed"]
        out += [(f"Streamed: {s['rows']:,} rows generated on the fly, read and evaluated in "
                f"parts: {s['wall_s']:.1f} s wall, {s['cpu_s']:.1f} s CPU, peak "
                f"{s['peak_mib']:.0f} MiB above start (peak RSS of the process "
                f"{s.get('peak_rss_mib', float('nan')):.0f} MiB, with the pages it shares "
                f"with the benchmark's parent); {s['value']['queries']:,} queries, "
                f"MRR {s['value']['mrr']:.6f} (expected {s['value']['mrr_expected']:.6f})."), ""]
    if "memory" in found:
        cells = found["memory"]
        out += ["Peak memory of `ragmetrics evaluate` (TREC run, 100 docs a query):", "",
                _table(cells, [("rows", "rows"), ("queries", "queries"), ("file_mib", "MiB"),
                               ("wall_s", "wall s"), ("peak_mib", "peak RSS MiB")]), ""]
        if len(cells) > 1:
            out += [(f"peak at {cells[-1]['rows']:,} rows / at {cells[0]['rows']:,}: "
                    f"{cells[-1]['peak_mib'] / cells[0]['peak_mib']:.2f}x"), ""]
    if "dask" in found:
        d = found["dask"]
        if "dask" in d:
            ratio = d["dask"]["wall_s"] / d["local"]["wall_s"]
            out += [(f"Dask: {d['rows']:,} rows in {d['files']} Parquet files; LocalCluster of "
                    f"2 workers {d['dask']['wall_s']:.1f} s (of which "
                    f"{d['dask']['value']['seconds_in_cluster']:.1f} s evaluating, the rest "
                    f"starting the cluster), pandas.read_parquet + evaluate "
                    f"{d['local']['wall_s']:.1f} s: {ratio:.2f}x local with the start, "
                    f"{d['dask']['value']['seconds_in_cluster'] / d['local']['wall_s']:.2f}x "
                    f"without; means agree to {d['max_mean_difference']:.1e}."), ""]
        else:
            out += [f"Dask: {d.get('dask_error')}", ""]
    if "start" in found:
        s = found["start"]
        lines = [(f"Start: one run of {s['lines']:,} lines and {s['qrels_lines']:,} qrels "
                 f"lines, from files to printed means (`ragmetrics evaluate`, 10,000 "
                 f"resamples, ragmetrics' bytecode compiled as an install leaves it), best "
                 f"of 5: {s['one_run']['wall_s']:.2f} s wall, "
                 f"{s['one_run']['cpu_s']:.2f} s CPU; `python -c 'import pandas'`: "
                 f"{s['import_pandas']['wall_s']:.2f} s.")]
        if "trec_eval_one" in s:
            lines.append(f"trec_eval on the same pair: {s['trec_eval_one']['wall_s']:.3f} s.")
        lines.append(f"{s['runs']} such runs in one call: {s['many_runs']['wall_s']:.1f} s "
                     f"wall, {s['many_runs']['cpu_s']:.1f} s CPU, peak "
                     f"{s['many_runs']['peak_mib']:.0f} MiB.")
        if "many_runs_1000" in s:
            lines.append(f"With 1,000 resamples: {s['many_runs_1000']['wall_s']:.1f} s. "
                         f"Means only (`--means-only`, the work trec_eval does): "
                         f"{s['many_runs_means']['wall_s']:.1f} s wall on every core, "
                         f"{s['many_runs_means_1']['wall_s']:.1f} s with `--jobs 1`.")
        if "trec_eval_many" in s:
            lines.append(f"{s['runs']} trec_eval processes: {s['trec_eval_many']['wall_s']:.1f}"
                         f" s wall, {s['trec_eval_many']['cpu_s']:.1f} s CPU.")
        out += [" ".join(lines), ""]
    return "\n".join(out)


def _sizes(text: str) -> list[int]:
    return [int(float(x)) for x in text.split(",") if x.strip() and float(x) > 0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="2000000,10000000")
    parser.add_argument("--streamed-rows", type=float, default=2e7)
    parser.add_argument("--memory-rows", default="1000000,4000000")
    parser.add_argument("--dask-rows", type=float, default=1e7)
    parser.add_argument("--runs", type=int, default=126)
    parser.add_argument("--trec-eval", help="the trec_eval program (else $TREC_EVAL, PATH)")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="a path slower than this (s) is not run at larger sizes")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    found = run_big(rows=_sizes(args.rows), streamed_rows=int(args.streamed_rows),
                    memory_rows=_sizes(args.memory_rows), dask_rows=int(args.dask_rows),
                    runs=args.runs, trec_eval=args.trec_eval, budget=args.budget,
                    log=lambda line: print(line, flush=True))
    print("\n" + render_big(found))
    if args.json:
        args.json.write_text(json.dumps(found, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
