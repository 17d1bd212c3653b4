"""A BEIR folder to frames: ``ragmetrics.read_dataset`` against pandas on the same files.

    python benchmarks/dataset_reading.py [--docs 1000000] [--queries 10000] [--repeat 3]
                                         [--folder DIR] [--json out.json]

A seeded BEIR folder is written (once per size, in ``--folder`` or a temporary folder):
``corpus.jsonl`` (``_id``, ``title``, ``text`` of 40 words drawn from a 5,000-word
vocabulary, and ``metadata``), ``queries.jsonl`` (``_id``, ``text``, ``metadata``) and
``qrels/test.tsv`` (3 judged docs a query, grades 0-2). Then, each in a fresh Python
process (pandas, pyarrow and ragmetrics imported first, not timed), ``--repeat`` times,
taking turns, the best wall time counting:

- **ragmetrics**: ``read_dataset(folder)``: every id and text checked, ids unique, the
  judgments checked (grades, a doc judged twice), questions matched to judgments;
- **pandas**: ``read_json(corpus, lines=True)``, ``read_json(queries, lines=True)`` and
  ``read_csv(qrels, sep="\\t")``: parsing and type inference, no checks;
- **pandas corpus**: ``read_json(corpus.jsonl, lines=True)`` alone.

It prints the times and the ratio ragmetrics / pandas (below 1: ragmetrics is faster).
``--docs 20000 --queries 500`` is the size the tests run (tests/repo checks the script).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

READERS = {
    "ragmetrics": "from ragmetrics import read_dataset\n"
                  "read = lambda folder: read_dataset(folder)",
    "pandas": "import pandas as pd\n"
              "read = lambda folder: (pd.read_json(folder / 'corpus.jsonl', lines=True),\n"
              "    pd.read_json(folder / 'queries.jsonl', lines=True),\n"
              "    pd.read_csv(folder / 'qrels' / 'test.tsv', sep='\\t'))",
    "pandas corpus": "import pandas as pd\n"
                     "read = lambda folder: pd.read_json(folder / 'corpus.jsonl', lines=True)",
}

TIMER = """
import gc, sys, time
from pathlib import Path
import numpy, pandas, pyarrow, pyarrow.json, ragmetrics
{setup}
folder = Path(sys.argv[1])
gc.collect()
start = time.perf_counter()
result = read(folder)
print(time.perf_counter() - start)
"""


def write_beir(folder: Path, docs: int, queries: int, seed: int = 0) -> Path:
    """A seeded BEIR folder of ``docs`` documents and ``queries`` judged queries."""
    done = folder / "done.json"
    if done.exists() and json.loads(done.read_text()) == [docs, queries, seed]:
        return folder
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(5000)]
    (folder / "qrels").mkdir(parents=True, exist_ok=True)
    with (folder / "corpus.jsonl").open("w") as out:
        for i in range(docs):
            out.write(json.dumps({"_id": f"doc{i}", "title": f"Title {i}",
                                  "text": " ".join(rng.choices(words, k=40)),
                                  "metadata": {"source": "bench"}}) + "\n")
    with (folder / "queries.jsonl").open("w") as out:
        for i in range(queries):
            out.write(json.dumps({"_id": f"q{i}", "text": " ".join(rng.choices(words, k=8)),
                                  "metadata": {}}) + "\n")
    with (folder / "qrels" / "test.tsv").open("w") as out:
        out.write("query-id\tcorpus-id\tscore\n")
        for i in range(queries):
            for doc in rng.sample(range(docs), 3):
                out.write(f"q{i}\tdoc{doc}\t{rng.randint(0, 2)}\n")
    done.write_text(json.dumps([docs, queries, seed]))
    return folder


def time_once(reader: str, folder: Path) -> float:
    code = TIMER.format(setup=READERS[reader])
    result = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True,
                            text=True, check=True)
    return float(result.stdout.strip().splitlines()[-1])


def measure(folder: Path, repeat: int) -> dict[str, float]:
    best = {name: float("inf") for name in READERS}
    for _ in range(repeat):
        for name in READERS:  # taking turns: a burst of load hits every reader alike
            best[name] = min(best[name], time_once(name, folder))
    return best


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=None,
                        help="where to write the BEIR folder (kept; default: a temporary one)")
    parser.add_argument("--json", type=Path, default=None, help="write the times here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        folder = write_beir(args.folder or Path(scratch) / "beir", args.docs, args.queries)
        best = measure(folder, args.repeat)
        size = (folder / "corpus.jsonl").stat().st_size
    out = {"docs": args.docs, "queries": args.queries, "corpus_bytes": size, "seconds": best,
           "ratio": best["ragmetrics"] / best["pandas"],
           "ratio_to_corpus": best["ragmetrics"] / best["pandas corpus"]}
    print(f"BEIR folder: {args.docs:,} documents ({size / 2**20:,.0f} MiB), {args.queries:,} "
          f"queries, {3 * args.queries:,} judgments; best of {args.repeat}")
    for name, seconds in best.items():
        print(f"  {name:<14} {seconds:8.3f} s")
    print(f"  ratio ragmetrics / pandas (all three files): {out['ratio']:.2f}")
    print(f"  ratio ragmetrics / pandas (corpus.jsonl alone): {out['ratio_to_corpus']:.2f}")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
