"""Benchmark ``ragmetrics.evaluate`` against pytrec_eval, ranx and ir_measures.

    python benchmarks/run.py [--sizes small,medium,large] [--repeat 3]
                             [--peers ragmetrics,pytrec_eval,ranx,ir_measures] [--json out.json]

Every library goes end to end, from the same seeded pandas DataFrames (``benchmarks/data.py``)
to per-query recall@10, precision@10, RR@10 (``mrr@10``) and nDCG@10 plus their means
(``benchmarks/peers.py``). The machine is noisy, so what counts are the **ratios** (peer time
/ ragmetrics time) measured in the same run, and every warm time is a best of N.

For each size and library, one child process, forked once the input is built and before
the library is imported, measures:

- ``import <library>`` (timed), then one call on tiny data (timed as *setup*: the one-time
  costs of a first call, such as lazy imports and numba's compilation);
- up to ``--repeat`` calls on the input, fewer when they would pass ``--budget`` seconds
  (or the whole run ``--max-minutes``), at least one. The calls of the libraries
  interleave (one call each, round after round), so that a burst of load from other
  processes hits them alike. **warm** = the best call, by the wall clock and by the
  process's CPU time (which other processes' load inflates less);
- **cold** = import + setup + the first call: what a fresh process pays for one evaluation
  (numpy and pandas are already imported: the input is DataFrames);
- **peak memory above the input**: the child's peak RSS (``resource.getrusage``
  ``ru_maxrss``) minus its RSS with the input built. Linux lets a process reset its peak
  (``/proc/self/clear_refs``), so the baseline is the input itself, not a transient peak
  left by building it; tracemalloc would miss the C allocations of pytrec_eval and numba.
  Reported during the calls, and from the import on (numba's compiler takes ~300 MiB).

Then: agreement of every peer with ragmetrics, query by query, with the reason for each
difference (ties, missing queries), found by experiment on the small preset; the variants
(rows in rank order or shuffled; ids as pandas ``object``, ``str`` or Arrow strings); the
single-query path (``ragmetrics.metric_curves``, the arrays the widgets use, target
under 1 ms per call; and ``metrics_over_k``, the same as a DataFrame; the default metrics at
k = 1..50); and *file to frame*: ragmetrics' readers against pandas' on the same 2M-row
TREC, CSV, JSON Lines and Parquet files (``benchmarks/readers.py``); with ``--big``, the
big runs from files to results (``benchmarks/big.py``).
``--profile medium`` prints where ragmetrics spends its time instead.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import os
import pickle
import platform
import resource
import sys
import tempfile
import time
import traceback
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(ROOT))

import numpy as np
import pandas as pd

from benchmarks import big as bench_big
from benchmarks import bring_your_own as bench_bring
from benchmarks import data as bench_data
from benchmarks import diversity as bench_diversity
from benchmarks import many_measures
from benchmarks import peers as bench_peers
from benchmarks import readers as bench_readers
from benchmarks import shapes as bench_shapes
from benchmarks.memory import reset_peak

K = 10
TOLERANCE = 1e-12  # per-query values closer than this agree (summation order: ~1e-16)
# A widget update's share of the 100 ms move-to-redraw budget: the curves come from the
# metric table's kernels, as every other number (one definition per metric).
SINGLE_QUERY_TARGET_US = 1000.0
HEAVY_TIES = 2.0**-6  # the explaining experiments: ties in half the queries' top 11
MODULES = {"ragmetrics": "ragmetrics", "pytrec_eval": "pytrec_eval", "ranx": "ranx",
           "ir_measures": "ir_measures"}
MAIN_VARIANT = "ranked, object ids"  # the main table's data
VARIANTS = {  # label -> (row order, id dtype) of the data derived from the main table's
    "shuffled, object ids": ("shuffled", "object"),
    "ranked, str ids": ("ranked", "str"),
    "ranked, Arrow ids": ("ranked", "arrow"),
}


# -- measuring in a child process ----------------------------------------------------


def _rss_peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def in_child(function, *args, **kwargs):
    """``function(*args, **kwargs)`` in a forked child; its return value or its exception.

    The child starts from this process's memory (the input is already built, the libraries
    not yet imported), so its imports are cold and its peak RSS is its own.
    """
    with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as handle:
        path = handle.name
    sys.stdout.flush()
    sys.stderr.flush()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: fork with BLAS threads
        pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            outcome = ("ok", function(*args, **kwargs))
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            outcome = ("error", f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
            code = 1
        try:
            with open(path, "wb") as f:
                pickle.dump(outcome, f, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    os.waitpid(pid, 0)
    try:
        with open(path, "rb") as f:
            status, value = pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError):
        status, value = "error", "the child process died without a result"
    finally:
        os.unlink(path)
    if status == "error":
        raise RuntimeError(value)
    return value


def _timed(name: str, run: pd.DataFrame, qrels: pd.DataFrame):
    wall, cpu = time.perf_counter(), time.process_time()
    result = bench_peers.run_peer(name, run, qrels, K)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def warmup_data(seed: int):
    """Tiny data with every feature of the real data (ties, a missing query, graded)."""
    return bench_data.make_data("tiny", seed=seed, missing_queries=0.1, tie_quantum=2.0**-6)


class CellWorker:
    """One library on one input, in a child process of its own, driven call by call.

    The child is forked once the input is built, before the library is imported. It times
    ``import <library>`` and one call on tiny data (*setup*: the one-time costs of a first
    call, such as lazy imports and numba's compilation), then waits. The parent then asks
    every library's child for one call in turn, round after round, so that the libraries'
    calls interleave in time and a burst of load from other processes hits them alike.
    """

    def __init__(self, name: str, run: pd.DataFrame, qrels: pd.DataFrame, seed: int):
        import multiprocessing

        self.name = name
        context = multiprocessing.get_context("fork")
        self.conn, child_conn = context.Pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: fork with threads
            self.process = context.Process(target=_cell_child,
                                           args=(child_conn, name, run, qrels, seed),
                                           daemon=True)
            self.process.start()
        child_conn.close()
        self.setup = self._receive()  # import and setup done: the child is ready
        self.walls: list[float] = []
        self.cpus: list[float] = []

    def _receive(self):
        try:
            status, value = self.conn.recv()
        except EOFError:
            status, value = "error", f"{self.name}: the child process died"
        if status == "error":
            self.close()
            raise RuntimeError(value)
        return value

    def call(self) -> None:
        self.conn.send(("call",))
        wall, cpu = self._receive()
        self.walls.append(wall)
        self.cpus.append(cpu)

    def finish(self) -> dict:
        """The cell's measurements (and per-query values); ends the child."""
        self.conn.send(("finish",))
        done = self._receive()
        self.close()
        setup = self.setup
        return {
            "library": self.name,
            "import_s": setup["import_s"],
            "setup_s": setup["setup_s"],
            "cold_s": setup["import_s"] + setup["setup_s"] + self.walls[0],
            "cold_cpu_s": setup["setup_cpu_s"] + self.cpus[0],
            "warm_s": min(self.walls),
            "warm_cpu_s": min(self.cpus),
            "warm_calls": len(self.walls),
            "warm_all_s": self.walls,
            "warm_all_cpu_s": self.cpus,
            "peak_mib": done["peak_calls_mib"],
            "peak_cold_mib": max(setup["peak_setup_mib"], done["peak_from_import_mib"]),
            "memory_baseline": setup["memory_baseline"],
            "per_query": done["per_query"],
            "means": done["means"],
        }

    def close(self) -> None:
        self.conn.close()
        self.process.join(timeout=60)
        if self.process.is_alive():  # pragma: no cover - a child that does not exit
            self.process.kill()


def _cell_child(conn, name: str, run: pd.DataFrame, qrels: pd.DataFrame, seed: int) -> None:
    """The child side of :class:`CellWorker`: answers the parent's requests until finish."""
    try:
        tiny = warmup_data(seed)
        gc.collect()
        exact_baseline = reset_peak()
        baseline = _rss_peak_kib()
        start, start_cpu = time.perf_counter(), time.process_time()
        importlib.import_module(MODULES[name])
        import_s = time.perf_counter() - start
        _, setup_s, _ = _timed(name, *tiny)
        conn.send(("ok", {
            "import_s": import_s,
            "setup_s": setup_s,
            "setup_cpu_s": time.process_time() - start_cpu,
            "peak_setup_mib": max(_rss_peak_kib() - baseline, 0) / 1024,
            "memory_baseline": "reset" if exact_baseline else "ru_maxrss after input",
        }))
        gc.collect()
        reset_peak()
        call_baseline = _rss_peak_kib()
        result = None
        while True:
            request = conn.recv()
            if request[0] == "call":
                result, wall, cpu = _timed(name, run, qrels)
                conn.send(("ok", (wall, cpu)))
            else:  # finish
                peak = _rss_peak_kib()
                conn.send(("ok", {
                    "peak_calls_mib": max(peak - call_baseline, 0) / 1024,
                    "peak_from_import_mib": max(peak - baseline, 0) / 1024,
                    "per_query": result.per_query,
                    "means": result.means,
                }))
                return
    except BaseException as error:  # noqa: BLE001 - reported to the parent
        conn.send(("error", f"{name}: {type(error).__name__}: {error}\n{traceback.format_exc()}"))


def measure_size(names: list[str], run: pd.DataFrame, qrels: pd.DataFrame, *, repeat: int,
                 budget: float, seed: int, log=print) -> dict:
    """Every library on one input: up to ``repeat`` interleaved rounds of one call each.

    A library gets another call while its calls so far plus its fastest one stay within
    ``budget`` seconds; every library gets at least one.
    """
    workers, failed = {}, {}
    for name in names:
        try:
            workers[name] = CellWorker(name, run, qrels, seed)
        except RuntimeError as error:
            failed[name] = str(error)
            log(f"  {name}: FAILED: {str(error).splitlines()[0]}")
    for round_number in range(max(repeat, 1)):
        for name, worker in list(workers.items()):
            if round_number and sum(worker.walls) + min(worker.walls) > budget:
                continue
            try:
                worker.call()
            except RuntimeError as error:
                failed[name] = str(error)
                del workers[name]
                log(f"  {name}: FAILED: {str(error).splitlines()[0]}")
    return {"workers": workers, "failed": failed}


# -- agreement -----------------------------------------------------------------------


def compare(base: pd.DataFrame, other: pd.DataFrame, tolerance: float = TOLERANCE) -> dict:
    """Per metric: max abs difference and differing queries, on the queries both score."""
    common = base.index.intersection(other.index)
    diff = (base.loc[common] - other.loc[common, base.columns]).abs()
    return {
        "common_queries": len(common),
        "only_in_ragmetrics": len(base.index.difference(other.index)),
        "only_in_peer": len(other.index.difference(base.index)),
        "max_abs_diff": {m: float(diff[m].max()) if len(diff) else 0.0 for m in diff.columns},
        "differing_queries": {m: int((diff[m] > tolerance).sum()) for m in diff.columns},
    }


def explain(seed: int, peer_names: list[str], tie_quantum: float = bench_data.TIE_QUANTUM
            ) -> dict:
    """Experiments on the small preset that say *why* a peer differs (runs in a child)."""
    import ragmetrics  # noqa: F401 - imported here, in the child

    findings: dict = {"data": {}, "ties": {}, "order": {}, "missing": {},
                      "tie_quantum": tie_quantum}
    for graded in (True, False):
        for ties in (True, False):
            run, qrels = bench_data.make_data("small", seed=seed, graded=graded, ties=ties,
                                              tie_quantum=tie_quantum)
            base = bench_peers.run_ragmetrics(run, qrels, K).per_query
            label = f"{'graded' if graded else 'binary'}, {'ties' if ties else 'no ties'}"
            findings["data"][label] = {
                name: compare(base, bench_peers.run_peer(name, run, qrels, K).per_query)
                for name in peer_names if name != "ragmetrics"
            }

    run, qrels = bench_data.make_data("small", seed=seed, tie_quantum=tie_quantum)
    base = bench_peers.run_ragmetrics(run, qrels, K).per_query
    low = bench_peers.run_ragmetrics(run, qrels, K, ties="pessimistic").per_query
    high = bench_peers.run_ragmetrics(run, qrels, K, ties="optimistic").per_query
    shuffled, _ = bench_data.make_data("small", seed=seed, order="shuffled",
                                       tie_quantum=tie_quantum)
    # ir_measures' RR@k comes from its MS MARCO code: ties in doc id *ascending* order.
    ascending = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, True])
    msmarco_like = bench_peers.run_ragmetrics(ascending, qrels, K, ties="input_order").per_query
    skip = bench_peers.run_ragmetrics(run, qrels, K, missing_from_run="skip")
    for name in peer_names:
        if name == "ragmetrics":
            continue
        peer = bench_peers.run_peer(name, run, qrels, K)
        got = peer.per_query
        common = got.index.intersection(base.index)
        differs = (got.loc[common] - base.loc[common]).abs() > TOLERANCE
        inside = (got.loc[common] >= low.loc[common] - TOLERANCE) & (
            got.loc[common] <= high.loc[common] + TOLERANCE
        )
        findings["ties"][name] = {
            m: {"differing": int(differs[m].sum()),
                "differing_within_tie_bounds": int((differs[m] & inside[m]).sum())}
            for m in got.columns
        }
        again = bench_peers.run_peer(name, shuffled, qrels, K).per_query
        changed = (again.loc[common] - got.loc[common]).abs() > TOLERANCE
        findings["order"][name] = {m: int(changed[m].sum()) for m in got.columns}
        if name == "ir_measures":
            findings["ties"][name]["mrr_equals_doc_id_ascending_ties"] = float(
                (got.loc[common, f"mrr@{K}"] - msmarco_like.loc[common, f"mrr@{K}"]).abs().max()
            )
        findings["missing"][name] = {
            "queries_scored": len(got),
            "judged_queries": int(qrels["query_id"].nunique()),
            "means_minus_ragmetrics_skip": float((peer.means - skip.means).abs().max()),
            "means_minus_ragmetrics_zero": float(
                (peer.means - bench_peers.run_ragmetrics(run, qrels, K).means).abs().max()
            ),
        }
    return findings


# -- variants and the single-query path -------------------------------------------------


def variants_for(first: bool) -> list[str]:
    """The variants timed at a size: all at the first variant size, then row order only.

    The id dtype changes the cost of reading ids, the same at any size; the row order
    changes how a run is ranked, which the sizes stress differently.
    """
    return [label for label, (_, dtype) in VARIANTS.items() if first or dtype == "object"]


def variant_frames(run: pd.DataFrame, qrels: pd.DataFrame, labels: list[str],
                   seed: int) -> dict:
    """``{label: (run, qrels)}``: the main data in another row order or id dtype.

    Derived from the main frames, not drawn again: the same rows, so every variant gives
    the main table's means (``same_means`` in the report checks it). The shuffle is the
    one ``make_data(order="shuffled")`` applies.
    """
    frames = {}
    for label in labels:
        order, dtype = VARIANTS[label]
        variant = run
        if order == "shuffled":
            perm = np.random.default_rng([seed, 1]).permutation(len(run))
            variant = run.iloc[perm].reset_index(drop=True)
        frames[label] = (bench_data.with_id_dtype(variant, dtype),
                         bench_data.with_id_dtype(qrels, dtype))
    return frames


def time_variants(name: str, frames: dict, repeat: int, budget: float, seed: int,
                  means: pd.Series) -> dict:
    """Best of ``repeat`` (wall and CPU) of one library on each variant (in a child).

    ``frames`` maps a variant's label to its ``(run, qrels)``, built before the fork. A
    variant gets another call while its calls plus its fastest stay within ``budget`` s.
    ``same_means`` says whether its means equal ``means`` (the main data's) to 1e-12.
    """
    importlib.import_module(MODULES[name])
    _timed(name, *warmup_data(seed))
    out = {}
    for label, (run, qrels) in frames.items():
        walls, cpus = [], []
        while len(walls) < max(repeat, 1) and (not walls or sum(walls) + min(walls) <= budget):
            result, wall, cpu = _timed(name, run, qrels)
            walls.append(wall)
            cpus.append(cpu)
        out[label] = {"best_s": min(walls), "best_cpu_s": min(cpus), "all_s": walls,
                      "same_means": bool(np.allclose(result.means, means, rtol=0, atol=1e-12))}
    return out


# The single-query path: the array core the widgets call, then the DataFrame around it.
SINGLE_QUERY_FUNCTIONS = ("metric_curves", "metrics_over_k")


def time_single_query(seed: int) -> dict:
    """Microseconds per call of each of ``SINGLE_QUERY_FUNCTIONS`` (child).

    ``f(retrieved, relevant, range(1, 51))``: the default metrics at k = 1..50, 100
    retrieved ids. ``metric_curves`` (arrays) is what the widgets call, and what the
    target is for; ``metrics_over_k`` is the same numbers as a DataFrame. Best of 5
    rounds of ``timeit``, by the wall clock and by this process's CPU time (the CPU time
    does not count the time other processes take the CPU: a loaded machine).
    """
    import timeit

    import ragmetrics as curves  # metric_curves and metrics_over_k, by name

    rng = np.random.default_rng(seed)
    retrieved = [f"d{c:07d}" for c in rng.choice(1_000_000, 100, replace=False)]
    picked = [retrieved[i] for i in rng.choice(30, 3, replace=False)]
    binary = {*picked, "d9999998", "d9999999"}  # 5 relevant, 2 never retrieved
    graded = {doc: int(g) for doc, g in zip(sorted(binary), rng.integers(1, 4, 5), strict=True)}
    ks = range(1, 51)
    out = {}
    for label, relevant in (("binary (set of 5)", binary), ("graded (dict of 5)", graded)):
        for name in SINGLE_QUERY_FUNCTIONS:
            function = getattr(curves, name)
            found = {}
            for clock, timer_function in (("wall", time.perf_counter),
                                          ("cpu", time.process_time)):
                timer = timeit.Timer(lambda f=function, r=relevant: f(retrieved, r, ks),
                                     timer=timer_function)
                number, _ = timer.autorange()
                found[f"us_per_call_{clock}"] = min(timer.repeat(5, number)) / number * 1e6
            out.setdefault(label, {})[name] = found
    return out


def single_query_rows(single: dict) -> list[dict]:
    """One table row per (golden set, function); only the array core has a target ("-")."""
    rows = []
    for label, by_function in single.items():
        for name, found in by_function.items():
            wall, cpu = found["us_per_call_wall"], found["us_per_call_cpu"]
            ok = ("yes" if min(wall, cpu) < SINGLE_QUERY_TARGET_US else "NO") if (
                name == "metric_curves") else None
            rows.append({"case": label, "function": name, "wall": wall, "cpu": cpu, "ok": ok})
    return rows


def profile_ragmetrics(size: str, seed: int, data_options: dict, top: int = 10) -> str:
    """cProfile of one ragmetrics call: the top functions by cumulative time (child)."""
    import cProfile
    import io
    import pstats

    run, qrels = bench_data.make_data(size, seed=seed, **data_options)
    _timed("ragmetrics", *warmup_data(seed))
    profiler = cProfile.Profile()
    wall = time.perf_counter()
    profiler.enable()
    bench_peers.run_ragmetrics(run, qrels, K)
    profiler.disable()
    wall = time.perf_counter() - wall
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)  # the same, by time spent in the function
    return f"ragmetrics.evaluate at {bench_data.PRESETS[size]}: {wall:.2f} s (profiled)\n" + (
        text.getvalue()
    )


# -- tables ----------------------------------------------------------------------------


def markdown_table(rows: list[dict], columns: list[tuple[str, str]]) -> str:
    """A Markdown table: ``columns`` is ``[(key in each row, header), ...]``."""

    def cell(value) -> str:
        if value is None:
            return "-"
        if isinstance(value, float):
            return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
        return str(value)

    lines = ["| " + " | ".join(header for _, header in columns) + " |",
             "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(cell(row.get(key)) for key, _ in columns) + " |" for row in rows]
    return "\n".join(lines)


TIMING_COLUMNS = [
    ("size", "size"),
    ("library", "library"),
    ("warm", "warm s (calls)"),
    ("warm_ratio", "warm x"),
    ("warm_cpu_s", "warm CPU s"),
    ("cpu_ratio", "CPU x"),
    ("cold_s", "cold s"),
    ("cold_ratio", "cold x"),
    ("import_setup", "import + setup s"),
    ("peak_mib", "peak MiB"),
    ("memory_ratio", "memory x"),
    ("peak_cold_mib", "peak MiB incl. import"),
]


def timing_rows(cells: list[dict]) -> list[dict]:
    """Rows of the timing table: each ratio is the library's value / ragmetrics' (same size)."""
    base = {c["size"]: c for c in cells if c["library"] == "ragmetrics"}
    rows = []
    for c in cells:
        ref = base.get(c["size"])

        def ratio(key, ref=ref, c=c):
            return c[key] / ref[key] if ref and ref[key] > 0 else None

        row = dict(c)
        row["warm"] = f"{c['warm_s']:.3g} ({c['warm_calls']})"
        row["warm_ratio"] = ratio("warm_s")
        row["cpu_ratio"] = ratio("warm_cpu_s")
        row["cold_ratio"] = ratio("cold_s")
        row["memory_ratio"] = ratio("peak_mib")
        row["import_setup"] = f"{c['import_s']:.2g} + {c['setup_s']:.2g}"
        rows.append(row)
    return rows


def agreement_rows(agreement: dict) -> list[dict]:
    rows = []
    for size, by_peer in agreement.items():
        for name, found in by_peer.items():
            row = {"size": size, "library": name, "common": found["common_queries"],
                   "missing": found["only_in_ragmetrics"] or None}
            for metric, value in found["max_abs_diff"].items():
                n = found["differing_queries"][metric]
                row[metric] = f"{value:.2g} ({n} queries)" if n else f"{value:.0e}"
            rows.append(row)
    return rows


def agreement_columns() -> list[tuple[str, str]]:
    return [("size", "size"), ("library", "library"), ("common", "queries compared"),
            ("missing", "left out by the peer")] + [(m, m) for m in bench_peers.columns(K)]


def variant_rows(by_library: dict) -> list[dict]:
    """One row per library: each variant's best wall time, and the ratios to ragmetrics."""
    reference = by_library.get("ragmetrics", {})
    rows = []
    for name, by_variant in by_library.items():
        row = {"library": name}
        for label, found in by_variant.items():
            if "best_s" not in found:
                row[label] = found.get("error", "?")
                continue
            ref = reference.get(label, {})
            row[label] = f"{found['best_s']:.3g} s"
            if name != "ragmetrics" and "best_s" in ref:
                row[label] += (f" ({found['best_s'] / ref['best_s']:.1f}x wall, "
                               f"{found['best_cpu_s'] / ref['best_cpu_s']:.1f}x CPU)")
            if not found["same_means"]:
                row[label] += " means differ"
        rows.append(row)
    return rows


def render(report: dict) -> str:
    """The printed report: Markdown tables and findings, from the report dict."""
    options = report.get("data_options", {})
    quantum = options.get("tie_quantum", bench_data.TIE_QUANTUM)
    ties = ("no ties" if options.get("ties") is False else
            f"scores rounded to 2**{math.log2(quantum):.0f}")
    data_line = (f"data: seed {report.get('seed')}, {ties}, grades 0-3, about 5 relevant a "
                 "query (20% never retrieved), 1% of the judged queries missing from the run, "
                 "ids as pandas object")
    out = [data_line, "", f"## Time and memory, end to end from DataFrames (k = {K})", ""]
    out.append(markdown_table(timing_rows(report["cells"]), TIMING_COLUMNS))
    out += ["", (
        "x = library / ragmetrics, same size, same run. warm: best call (calls made); CPU: "
        "this process's CPU time (robust to other load; counts all of ranx's threads). "
        "cold: import + setup (a first call on tiny data: lazy imports, numba compilation) "
        "+ the first call, in a fresh process. peak MiB: peak RSS above the built input "
        "during the calls; incl. import: from the import on.")]
    if report["agreement"]:
        out += ["", "## Agreement with ragmetrics, per query", "",
                "max |difference| on the queries both score (queries differing by > 1e-12)", ""]
        out.append(markdown_table(agreement_rows(report["agreement"]), agreement_columns()))
    if "explain" in report:
        out += ["", ("## Why they differ (experiments on the small preset, heavy ties: "
                     "scores rounded to 2**-6)"), ""]
        out += explain_lines(report["explain"])
    if report.get("variants"):
        out += ["", "## Variants: row order and id dtype", "",
                ("best wall time a call; x = library / ragmetrics on the same variant, same "
                 "run; the first column is the main table's data"), ""]
        for size, by_library in report["variants"].items():
            labels = list(next(iter(by_library.values())))
            out += [f"{size}:", ""]
            out.append(markdown_table(variant_rows(by_library),
                                      [("library", "library"), *[(v, v) for v in labels]]))
            out.append("")
    if report.get("readers"):
        found = report["readers"]
        out += ["", (f"## File to frame: {found['queries'] * found['depth']:,}-row files "
                     f"({found['queries']:,} queries x {found['depth']} docs)"), "",
                bench_readers.render_readers(found)]
    if report.get("bring"):
        out += ["", "## Bring your own data: data sets, retrievers, runs as tools write them",
                "", bench_bring.render_bring(report["bring"])]
    if report.get("diversity"):
        out += ["", "## Diversity: ndeval's measures against nDCG@20 (`benchmarks/diversity.py`)",
                "", bench_diversity.render_diversity(report["diversity"])]
    if report.get("many_measures"):
        out += ["", "## 30 trec_eval measures at once, end to end from DataFrames", ""]
        out += many_measures.render(report["many_measures"])
    if report.get("shapes"):
        out += ["", "## The shapes users pass: rows in any order, ids made one a row", ""]
        out += bench_shapes.render_shapes(report["shapes"])
    if report.get("big"):
        out += ["", "## Big runs: from files to results (`benchmarks/big.py`)", "",
                bench_big.render_big(report["big"])]
    single = report.get("single_query")
    if single:
        out += ["", ("## Single query: f(retrieved, relevant, range(1, 51)), the default "
                     "metrics at k = 1..50, 100 retrieved ids"), "",
                ("metric_curves: the arrays the widgets use (the target is for it); "
                 "metrics_over_k: the same numbers as a DataFrame"), ""]
        out.append(markdown_table(single_query_rows(single), [
            ("case", "relevant"), ("function", "function"), ("wall", "us per call"),
            ("cpu", "CPU us per call"),
            ("ok", f"< {SINGLE_QUERY_TARGET_US:.0f} us (the lower)")]))
    out += ["", f"total: {report.get('elapsed_s', 0):.0f} s wall"]
    return "\n".join(out)


def explain_lines(found: dict) -> list[str]:
    lines = []
    for label, by_peer in found["data"].items():
        worst = {name: max(c["max_abs_diff"].values()) for name, c in by_peer.items()}
        lines.append(f"- {label}: max |diff| " + ", ".join(
            f"{name} {value:.1e}" for name, value in worst.items()))
    for name, by_metric in found["ties"].items():
        parts = [f"{m} {v['differing']}" for m, v in by_metric.items() if isinstance(v, dict)]
        inside = all(v["differing"] == v["differing_within_tie_bounds"]
                     for v in by_metric.values() if isinstance(v, dict))
        total = sum(v["differing"] for v in by_metric.values() if isinstance(v, dict))
        if total:
            lines.append(
                f"- ties, {name}: differing queries " + ", ".join(parts) + "; "
                + ("every one lies between ragmetrics' ties='pessimistic' and 'optimistic' "
                   "values, so only the order of tied docs differs" if inside else
                   "SOME LIE OUTSIDE the tie bounds: not explained by ties"))
        else:
            lines.append(f"- ties, {name}: no query differs (same tie rule as trec_eval)")
        if "mrr_equals_doc_id_ascending_ties" in by_metric:
            lines.append(
                f"  - {name}'s RR@{K} equals ragmetrics on the run ordered by score, then doc id "
                f"ascending (ties='input_order'): max |diff| "
                f"{by_metric['mrr_equals_doc_id_ascending_ties']:.1e}")
    for name, by_metric in found["order"].items():
        changed = sum(by_metric.values())
        lines.append(f"- row order, {name}: {changed} (query, metric) values change when the "
                     "run's rows are shuffled" if changed else
                     f"- row order, {name}: no value changes when the rows are shuffled")
    for name, m in found["missing"].items():
        how = ("leaves out the judged queries missing from the run, as ragmetrics' "
               "missing_from_run='skip'" if m["queries_scored"] < m["judged_queries"] else
               "scores the judged queries missing from the run 0, as ragmetrics' default "
               "missing_from_run='zero'")
        lines.append(
            f"- missing queries, {name}: {how} ({m['queries_scored']} of {m['judged_queries']} "
            f"queries scored); |means - ragmetrics' means| with 'skip' "
            f"{m['means_minus_ragmetrics_skip']:.1e}, with 'zero' "
            f"{m['means_minus_ragmetrics_zero']:.1e} (the rest: ties)")
    return lines


# -- the run ---------------------------------------------------------------------------


def _print(*args) -> None:
    print(*args, flush=True)


def _git_state() -> str:
    """The commit measured, and whether ragmetrics/ differs from it."""
    import subprocess

    try:
        def git(*args):
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                                  check=True, timeout=10).stdout.strip()

        dirty = git("status", "--porcelain", "--", "ragmetrics")
        return git("rev-parse", "--short", "HEAD") + (" + uncommitted changes" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _machine() -> dict:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "load_average": load,
            "numpy": np.__version__, "pandas": pd.__version__, "ragmetrics_git": _git_state()}


def time_many_measures(size: str, seed: int, data_options: dict, names: list[str]) -> dict:
    """The 30-measure case: each library once, in a forked child, on the same frames."""
    run, qrels = bench_data.make_data(size, seed=seed, **data_options)
    found = {"size": size, "rows": len(run),
             "ragmetrics": in_child(many_measures.time_ragmetrics, run, qrels)}
    if "pytrec_eval" in names:
        found["pytrec_eval"] = in_child(many_measures.time_pytrec_eval, run, qrels)
        found["agreement"] = many_measures.compare_measures(
            found["ragmetrics"]["per_query"], found["pytrec_eval"]["per_query"])
    for name in ("ragmetrics", "pytrec_eval"):
        if name in found:
            del found[name]["per_query"]
    return found


def warm_caches(names: list[str], seed: int) -> None:
    """One call per library on tiny data, each in a child: fills ranx's numba disk cache."""
    run, qrels = warmup_data(seed)
    for name in names:
        t = time.perf_counter()
        in_child(bench_peers.run_peer, name, run, qrels, K)
        _print(f"  {name}: ready in {time.perf_counter() - t:.1f} s")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Benchmark ragmetrics.evaluate against pytrec_eval, ranx and ir_measures.")
    parser.add_argument("--sizes", default="small,medium,large",
                        help=f"comma-separated presets from {', '.join(bench_data.PRESETS)}")
    parser.add_argument("--repeat", type=int, default=2, help="calls per cell (best of)")
    parser.add_argument("--peers", default=",".join(bench_peers.PEERS),
                        help="comma-separated libraries (ragmetrics is always included)")
    parser.add_argument("--json", type=Path, help="write every measurement to this file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tie-quantum", type=float, default=bench_data.TIE_QUANTUM,
                        help="scores are rounded to multiples of this power of two (default "
                             "2**-10: some ties; 2**-6: heavy ties; 0: no ties)")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="seconds per (size, library) cell after which repeats stop")
    parser.add_argument("--max-minutes", type=float, default=9.0,
                        help="shrink the budgets so that the whole run ends by then (soft: "
                             "every cell makes at least one call)")
    parser.add_argument("--variant-sizes", default="medium,large",
                        help="presets (among --sizes) for the variants, 'none' to skip: every "
                             "variant at the first, row order only at the others")
    parser.add_argument("--variant-repeat", type=int, default=1,
                        help="calls per variant (best of; also within --budget)")
    parser.add_argument("--variant-peers", default="ragmetrics,pytrec_eval",
                        help="libraries timed on the variants (the others take minutes a call)")
    parser.add_argument("--no-explain", action="store_true",
                        help="skip the experiments that explain disagreements")
    parser.add_argument("--profile", metavar="SIZE",
                        help="only profile one ragmetrics call at SIZE (top 10 by cumulative time, "
                             "then by internal time)")
    parser.add_argument("--reader-queries", type=int, default=20_000,
                        help="file to frame: queries of the files read (x 100 docs)")
    parser.add_argument("--reader-repeat", type=int, default=2,
                        help="file to frame: reads per (file, reader), each in a new process")
    parser.add_argument("--reader-baseline", type=Path,
                        help="file to frame: also time the ragmetrics package in this folder "
                             "(e.g. git archive main ragmetrics, unpacked)")
    parser.add_argument("--no-bring", action="store_true",
                        help="skip 'bring your own data': read_dataset against pandas, "
                             "run_retriever's overhead and cache, runs as tools write them")
    parser.add_argument("--bring-docs", type=int, default=1_000_000,
                        help="documents of the generated BEIR folder (default 1,000,000)")
    parser.add_argument("--no-diversity", action="store_true",
                        help="skip the diversity measures (ndeval's 21 at 10,000 queries x "
                             "100 docs x 5 subtopics) against nDCG@20")
    parser.add_argument("--no-readers", action="store_true",
                        help="skip the file-to-frame table")
    parser.add_argument("--many-measures-size", default="medium",
                        help="preset for the 30-measure case (ragmetrics and pytrec_eval, "
                             "benchmarks/many_measures.py), 'none' to skip")
    parser.add_argument("--order-sizes", default="medium,large",
                        help="presets for the row orders (ranked, model order, shuffled; int "
                             "ids; benchmarks/shapes.py), 'none' to skip")
    parser.add_argument("--made-size", default="large",
                        help="preset for ids made one object a row, ragmetrics against "
                             "pytrec_eval (benchmarks/shapes.py), 'none' to skip")
    parser.add_argument("--big", action="store_true",
                        help="also the big runs (benchmarks/big.py, its default sizes: file "
                             "to result at 2M and 10M rows, a streamed run, the command's "
                             "memory, Dask, 126 runs): about 15 more minutes")
    parser.add_argument("--trec-eval", help="big runs: the trec_eval program to time "
                                            "against (else $TREC_EVAL, or trec_eval on PATH)")
    parser.add_argument("--warm-caches", action="store_true",
                        help="only call each library once on tiny data (ranx's numba cache)")
    return parser.parse_args(argv)


def _choose(args) -> tuple[list[str], list[str]]:
    wanted = ["ragmetrics", *[p for p in args.peers.split(",") if p and p != "ragmetrics"]]
    for name in wanted:
        if name not in bench_peers.PEERS:
            raise SystemExit(f"unknown peer {name!r}; choose from {', '.join(bench_peers.PEERS)}")
    names = []
    for name in wanted:
        if bench_peers.available(name):
            names.append(name)
        else:
            _print(f"note: {bench_peers.install_note(name)}")
    sizes = [s for s in args.sizes.split(",") if s]
    for size in [*sizes, *_variant_sizes(args)]:
        if size not in bench_data.PRESETS:
            raise SystemExit(f"unknown size {size!r}; choose from {', '.join(bench_data.PRESETS)}")
    return names, sizes


def _variant_sizes(args) -> list[str]:
    return [] if args.variant_sizes == "none" else [s for s in args.variant_sizes.split(",") if s]


def time_all_variants(results: dict, run: pd.DataFrame, qrels: pd.DataFrame, first: bool,
                      args) -> dict:
    """Every variant peer on this size's variants; the main cells give the main variant."""
    t = time.perf_counter()
    frames = variant_frames(run, qrels, variants_for(first), args.seed)
    _print(f"  [variants] {', '.join(frames)}: built in {time.perf_counter() - t:.1f} s")
    found = {}
    for name in args.variant_peers.split(","):
        if name not in results:
            continue
        cell = results[name]
        main = {"best_s": cell["warm_s"], "best_cpu_s": cell["warm_cpu_s"],
                "all_s": cell["warm_all_s"], "same_means": True}
        found[name] = {MAIN_VARIANT: main, **in_child(
            time_variants, name, frames, args.variant_repeat, args.budget, args.seed,
            cell["means"])}
        _print(f"  [variants] {name}: " + ", ".join(
            f"{label} {v['best_s']:.2f} s" for label, v in found[name].items()))
    return found


def main(argv=None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    deadline = started + 60 * args.max_minutes
    names, sizes = _choose(args)
    if "ragmetrics" not in names:
        raise SystemExit("ragmetrics itself cannot be imported: pip install -e .")
    if args.warm_caches:
        _print("Warming caches (one call per library on tiny data):")
        warm_caches(names, args.seed)
        return 0
    data_options = ({"tie_quantum": args.tie_quantum} if args.tie_quantum else
                    {"ties": False})
    if args.profile:
        _print(in_child(profile_ragmetrics, args.profile, args.seed, data_options))
        return 0

    report: dict = {"machine": _machine(), "versions": {n: bench_peers.version(n) for n in names},
                    "k": K, "seed": args.seed, "repeat": args.repeat,
                    "data_options": data_options, "cells": [],
                    "agreement": {}, "variants": {}}
    _print("# ragmetrics benchmark")
    _print(f"python {report['machine']['python']}, {report['machine']['cpus']} CPUs, load "
           f"average {', '.join(f'{x:.1f}' for x in report['machine']['load_average'] or ())}")
    _print("versions: " + ", ".join(f"{n} {v}" for n, v in report["versions"].items())
           + f" (ragmetrics at {report['machine']['ragmetrics_git']})")

    if not args.no_explain and len(names) > 1:
        _print("\n[explain] agreement experiments on the small preset ...")
        report["explain"] = in_child(explain, args.seed, names, HEAVY_TIES)
    _print("[single query] metric_curves, metrics_over_k ...")
    report["single_query"] = in_child(time_single_query, args.seed)
    if not args.no_readers:
        _print("[file to frame] ragmetrics' readers and pandas' on the same files ...")
        report["readers"] = bench_readers.run_readers(
            n_queries=args.reader_queries, repeat=args.reader_repeat,
            baseline=args.reader_baseline, seed=args.seed, log=_print)
    if not args.no_bring:
        _print("[bring your own data] read_dataset, run_retriever, runs as tools write them ...")
        report["bring"] = bench_bring.run_bring(docs=args.bring_docs, log=_print)
    if not args.no_diversity:
        _print("[diversity] ndeval's measures against nDCG@20 ...")
        report["diversity"] = bench_diversity.run_diversity(log=_print)
    if args.many_measures_size != "none":
        # Before the sizes: their budgets then shrink by its time (--max-minutes).
        _print(f"[30 measures] ragmetrics and pytrec_eval at {args.many_measures_size} ...")
        report["many_measures"] = time_many_measures(args.many_measures_size, args.seed,
                                                     data_options, names)
        _print("\n".join(many_measures.render(report["many_measures"])))
    order_sizes = [] if args.order_sizes == "none" else [
        size for size in args.order_sizes.split(",") if size]
    made_size = None if args.made_size == "none" else args.made_size
    if order_sizes or made_size:
        _print("[shapes] rows in model order and shuffled, ids made one object a row ...")
        report["shapes"] = bench_shapes.time_shapes(
            order_sizes=order_sizes, made_size=made_size, names=names, repeat=args.repeat,
            seed=args.seed, data_options=data_options, in_child=in_child, log=_print)
        _print("\n".join(bench_shapes.render_shapes(report["shapes"])))
    if args.big:
        _print("[big] files to results, streamed, the command, Dask, many runs ...")
        report["big"] = bench_big.run_big(trec_eval=args.trec_eval, log=_print)
    variant_sizes = [size for size in _variant_sizes(args) if size in sizes]
    if len(variant_sizes) < len(_variant_sizes(args)):
        _print("note: variants are timed only at sizes also in --sizes: "
               + (", ".join(variant_sizes) or "none"))
    cells_left = len(sizes) * len(names)
    for size in sizes:
        t = time.perf_counter()
        run, qrels = bench_data.make_data(size, seed=args.seed, **data_options)
        _print(f"\n[{size}] {bench_data.PRESETS[size]}: {len(run):,} run rows, "
               f"{len(qrels):,} qrels rows, built in {time.perf_counter() - t:.1f} s")
        budget = max(0.0, min(args.budget, (deadline - time.perf_counter()) / max(cells_left, 1)))
        cells_left -= len(names)
        measured = measure_size(names, run, qrels, repeat=args.repeat, budget=budget,
                                seed=args.seed, log=_print)
        results = {}
        for name, worker in measured["workers"].items():
            cell = worker.finish()
            cell["size"] = size
            results[name] = cell
            _print(f"  {name}: cold {cell['cold_s']:.2f} s, warm {cell['warm_s']:.2f} s "
                   f"(best of {cell['warm_calls']}; CPU {cell['warm_cpu_s']:.2f} s), "
                   f"peak +{cell['peak_mib']:.0f} MiB")
        if size in variant_sizes:
            report["variants"][size] = time_all_variants(
                results, run, qrels, variant_sizes.index(size) == 0, args)
        del run, qrels
        gc.collect()
        if "ragmetrics" in results:
            report["agreement"][size] = {
                name: compare(results["ragmetrics"]["per_query"], cell["per_query"])
                for name, cell in results.items() if name != "ragmetrics"
            }
        for cell in results.values():
            cell["means"] = cell["means"].to_dict()
            del cell["per_query"]
            report["cells"].append(cell)

    report["elapsed_s"] = time.perf_counter() - started
    _print("\n" + render(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str))
        _print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
