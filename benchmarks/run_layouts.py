"""Runs written by retrieval tools: ragmetrics' readers against ``json.load`` and pandas.

    python benchmarks/run_layouts.py [--queries 10000] [--depth 1000] [--spans 10000]
                                     [--documents 100] [--repeat 2] [--json out.json]

Two seeded files are written, as the tools write them:

- **BEIR results**: ``{query_id: {doc_id: score}}`` with ``json.dump``, ``--queries`` x
  ``--depth`` entries (10,000 x 1,000: 10 M, about 280 MB), the docs of a query in no
  particular order (BEIR's heaps hand them back so), scores rounded to 4 decimals so that
  some tie;
- **OpenInference spans**: JSON Lines, one span a line as the OpenTelemetry SDK writes it
  (``context.trace_id``, ``context.span_id``, flat ``attributes``), ``--spans`` RETRIEVER
  spans of ``--documents`` documents each (id, score and a 60-character content), one LLM
  span after every tenth.

Each file is read by

- **json.load**: the parse alone (``json.load``; ``json.loads`` of each line for JSON
  Lines), the floor for a reader written in Python;
- **json + pandas**: the obvious way to a frame: the parse, then
  ``pd.DataFrame([(q, d, s) for q, docs in data.items() for d, s in docs.items()])`` (for
  spans: each RETRIEVER span's ``retrieval.documents.N.document.id`` and ``.score`` for
  ``N = 0, 1, ...``, the trace id as the query), no checks and no sorting;
- **ragmetrics**: ``read_run(path, format="beir")`` or ``format="openinference"``, with
  every check it makes (ids, finite numbers, a doc or query twice) and, for BEIR, the rows
  of each query sorted by score.

Every read runs in a fresh Python process (numpy, pandas and ragmetrics imported first, not
timed), ``--repeat`` times, the readers taking turns; the best wall time counts. Peak
memory is the process's peak RSS during the read above its RSS before it (Linux:
``VmHWM`` after a reset through ``/proc/self/clear_refs``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["READERS", "measure", "render", "write_beir", "write_spans"]

#: The call each reader makes on ``path``, by layout.
READERS = {
    "beir": {
        "json.load": "beir_json(path)",
        "json + pandas": "beir_pandas(path)",
        "ragmetrics": 'rm.read_run(path, format="beir")',
    },
    "openinference": {
        "json.load": "spans_json(path)",
        "json + pandas": "spans_pandas(path)",
        "ragmetrics": 'rm.read_run(path, format="openinference")',
    },
}


def write_beir(path: Path, *, n_queries: int, depth: int, seed: int = 0) -> int:
    """BEIR results of ``n_queries x depth`` entries, as ``json.dump`` writes them."""
    import numpy as np

    rng = np.random.default_rng(seed)
    corpus = max(depth * 10, n_queries * depth // 10)
    with open(path, "w") as handle:
        handle.write("{")
        for q in range(n_queries):
            docs = rng.choice(corpus, depth, replace=False)
            scores = np.round(rng.random(depth) * 40, 4)
            body = ", ".join(f'"d{d:08d}": {s!r}' for d, s in
                             zip(docs.tolist(), scores.tolist(), strict=True))
            handle.write(f'{", " if q else ""}"q{q:06d}": {{{body}}}')
        handle.write("}")
    return n_queries * depth


def write_spans(path: Path, *, n_spans: int, documents: int, seed: int = 0) -> int:
    """``n_spans`` RETRIEVER spans of ``documents`` documents each (and an LLM span after
    every tenth), one JSON object a line, as the OpenTelemetry SDK's JSON."""
    import numpy as np

    rng = np.random.default_rng(seed)
    with open(path, "w") as handle:
        for s in range(n_spans):
            attributes = {"openinference.span.kind": "RETRIEVER",
                          "input.value": f"question number {s} about the corpus"}
            scores = np.sort(np.round(rng.random(documents), 6))[::-1].tolist()
            for i, (doc, score) in enumerate(zip(rng.integers(0, 10**7, documents).tolist(),
                                                 scores, strict=True)):
                prefix = f"retrieval.documents.{i}.document."
                attributes[prefix + "id"] = f"node-{doc:08d}"
                attributes[prefix + "score"] = score
                attributes[prefix + "content"] = f"chunk {doc} " + "x" * 46
            span = {"name": "retrieve", "context": {"trace_id": f"0x{s:032x}",
                                                    "span_id": f"0x{s:016x}"},
                    "kind": "SpanKind.INTERNAL", "attributes": attributes}
            handle.write(json.dumps(span) + "\n")
            if s % 10 == 9:
                llm = {"name": "llm", "context": {"trace_id": f"0x{s:032x}",
                                                  "span_id": f"1x{s:016x}"},
                       "attributes": {"openinference.span.kind": "LLM",
                                      "output.value": "an answer"}}
                handle.write(json.dumps(llm) + "\n")
    return n_spans * documents


# -- the baselines ------------------------------------------------------------------------


def beir_json(path):
    with open(path) as handle:
        return json.load(handle)


def beir_pandas(path):
    import pandas as pd

    data = beir_json(path)
    return pd.DataFrame([(q, d, s) for q, docs in data.items() for d, s in docs.items()],
                        columns=["query_id", "doc_id", "score"])


def spans_json(path):
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def spans_pandas(path):
    import pandas as pd

    rows = []
    for span in spans_json(path):
        attributes = span["attributes"]
        if attributes.get("openinference.span.kind") != "RETRIEVER":
            continue
        trace, i = span["context"]["trace_id"], 0
        while f"retrieval.documents.{i}.document.id" in attributes:
            prefix = f"retrieval.documents.{i}.document."
            rows.append((trace, attributes[prefix + "id"], i + 1, attributes[prefix + "score"]))
            i += 1
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "rank", "score"])


# -- one read in a process of its own -----------------------------------------------------


def read_once(path: str, call: str) -> dict:
    """``call`` on ``path``, timed, with the peak RSS above the RSS before it."""
    import pandas as pd  # noqa: F401 - imported before the clock starts

    import ragmetrics as rm
    from benchmarks.memory import measured

    names = {"rm": rm, "path": path, "beir_json": beir_json, "beir_pandas": beir_pandas,
             "spans_json": spans_json, "spans_pandas": spans_pandas}
    found = measured(lambda: eval(call, names))
    value = found["value"]
    rows = len(value) if not isinstance(value, dict) else sum(map(len, value.values()))
    return {"wall_s": found["wall_s"], "peak_mib": found["peak_mib"], "rows": rows}


_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[3])
from benchmarks.run_layouts import read_once
print(json.dumps(read_once(sys.argv[1], sys.argv[2])))
"""


def _in_child(path: Path, call: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path), call, str(ROOT)],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"{call} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(files: dict[str, Path], *, repeat: int = 2) -> dict:
    """The best of ``repeat`` reads of each file by each reader: {layout: {reader: ...}}."""
    found: dict = {layout: {} for layout in files}
    for _ in range(repeat):
        for layout, path in files.items():
            for reader, call in READERS[layout].items():
                one = _in_child(path, call)
                best = found[layout].get(reader)
                if best is None or one["wall_s"] < best["wall_s"]:
                    found[layout][reader] = one
    return found


def render(found: dict, sizes: dict) -> str:
    lines = ["| file | reader | rows | wall (s) | x json.load | peak MiB above input |",
             "|---|---|---:|---:|---:|---:|"]
    for layout, readers in found.items():
        floor = readers["json.load"]["wall_s"]
        for reader, one in readers.items():
            rows = one["rows"] if reader != "json.load" else sizes[layout]
            lines.append(f"| {layout} | {reader} | {rows:,} | {one['wall_s']:.2f} | "
                         f"{one['wall_s'] / floor:.2f} | {one['peak_mib']:,.0f} |")
    return "\n".join(lines)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--spans", type=int, default=10_000)
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--layouts", default="beir,openinference")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    layouts = args.layouts.split(",")
    with tempfile.TemporaryDirectory() as folder:
        files, sizes = {}, {}
        if "beir" in layouts:
            files["beir"] = Path(folder) / "results.json"
            sizes["beir"] = write_beir(files["beir"], n_queries=args.queries,
                                       depth=args.depth)
        if "openinference" in layouts:
            files["openinference"] = Path(folder) / "spans.jsonl"
            sizes["openinference"] = write_spans(files["openinference"], n_spans=args.spans,
                                                 documents=args.documents)
        for layout, path in files.items():
            print(f"{layout}: {path.stat().st_size / 2**20:,.0f} MiB, "
                  f"{sizes[layout]:,} entries", flush=True)
        found = measure(files, repeat=args.repeat)
    rendered = render(found, sizes)
    print(rendered)
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))
    return {"found": found, "sizes": sizes, "rendered": rendered}


if __name__ == "__main__":
    main()
