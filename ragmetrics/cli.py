"""The ``ragmetrics`` command: evaluate and compare runs from files.

::

    ragmetrics evaluate GOLDEN RUN [RUN ...] [--metrics recall@10,ndcg@10] [--k 5,10,20]
                        [--report out.html|out.md] [--per-query out.csv] [--names A,B] ...

One run prints each metric's mean with its bootstrap interval; two or more also print
each run against the first (the baseline): the difference, its interval, the paired
randomization and t-test p-values, the corrected p-value and a verdict. Warnings (too few
queries, one metric alone, queries missing from a run) are printed with the numbers.

**File formats**, by extension first, then by content:

- ``.csv``, ``.tsv``, ``.jsonl``, ``.ndjson``: read by :func:`ragmetrics.io.read_golden`
  (GOLDEN) and :func:`ragmetrics.io.read_results` (RUN), long or wide form;
- ``.parquet``: the same columns (long form: ``query_id``, ``doc_id`` and ``relevance``,
  or ``score``/``rank``; wide form: ``relevant_ids``/``retrieved_ids`` lists);
- any other name (``.txt``, ``.run``, ``.qrels``, none, trec_eval's ``results.test``...):
  a TREC file, told by its first non-blank line: 4 whitespace-separated fields is a
  qrels file (``query_id iteration doc_id relevance``), 6 or more a run (``query_id Q0
  doc_id rank score run_name``). As in trec_eval, whatever follows a run's 6th field is
  ignored.

Exit status: 0 on success, 2 on bad input (unreadable or malformed file, with its line
number; unknown metric; runs with no query in common with the golden set), with one line
on stderr saying what is wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from .compare import CORRECTIONS, DEFAULT_CUTOFFS, compare, default_metrics
from .io import FormatError, read_golden, read_results, read_trec_qrels, read_trec_run
from .policies import (
    DUPLICATE_POLICIES,
    EMPTY_POLICIES,
    GAIN_POLICIES,
    MISSING_POLICIES,
    TIE_POLICIES,
)
from .registry import METRICS
from .report import REPORT_FORMATS, to_text, write_per_query_csv, write_report

__all__ = ["main"]

_TABLE_EXTENSIONS = (".csv", ".tsv", ".jsonl", ".ndjson")


class UsageError(Exception):
    """Bad input from the command line: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise UsageError(f"{message} (see: {self.prog} --help)")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ragmetrics",
        description="Exact retrieval metrics for RAG: Recall@k, Precision@k, MRR, nDCG@k.",
    )
    parser.add_argument("--version", action="version", version=f"ragmetrics {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cmd = commands.add_parser(
        "evaluate",
        help="evaluate one or more runs against a golden set, with intervals and tests",
        description="Print each metric's mean with its bootstrap interval; with two or more "
        "runs, also each run against the first: the difference, its interval, paired "
        "randomization and t-test p-values, the corrected p-value and a verdict.",
        epilog="File formats: .csv, .tsv, .jsonl, .ndjson, .parquet, or TREC (qrels: 4 "
        "fields per line; run: 6). Exit status 2 on bad input.",
    )
    cmd.add_argument("golden", metavar="GOLDEN", help="the judgments: golden set or TREC qrels")
    cmd.add_argument("runs", metavar="RUN", nargs="+", help="one or more runs (results)")
    cmd.add_argument(
        "--metrics",
        metavar="LIST",
        help="comma-separated metric names, e.g. recall@10,ndcg@10,mrr; a name without a "
        "cut-off that needs one (recall, precision, hit_rate) is taken at every --k. "
        "Default: recall, precision and nDCG at every --k, and MRR",
    )
    cmd.add_argument("--k", metavar="LIST", default=",".join(map(str, DEFAULT_CUTOFFS)),
                     help="comma-separated cut-offs (default: %(default)s)")
    cmd.add_argument("--names", metavar="LIST",
                     help="comma-separated run names (default: the file names)")
    cmd.add_argument("--baseline", metavar="NAME",
                     help="the run the others are tested against (default: the first)")
    cmd.add_argument("--report", metavar="FILE",
                     help="write a report: .html (self-contained) or .md")
    cmd.add_argument("--per-query", metavar="FILE",
                     help="write every per-query value to this .csv")
    stats = cmd.add_argument_group("statistics")
    stats.add_argument("--alpha", metavar="A", type=float, default=0.05,
                       help="significance level of the verdicts, after the correction "
                       "(default: %(default)s)")
    stats.add_argument("--confidence", metavar="C", type=float, default=0.95,
                       help="confidence level of the intervals; the difference intervals "
                       "are at the level of the correction (default: %(default)s)")
    stats.add_argument("--resamples", metavar="N", type=int, default=10_000,
                       help="bootstrap resamples and randomization patterns "
                       "(default: %(default)s)")
    stats.add_argument("--max-resamples", metavar="N", type=int, default=None,
                       help="the most randomization patterns for a verdict within Monte "
                       "Carlo error of alpha (default: 32 x --resamples)")
    stats.add_argument("--seed", metavar="S", type=int, default=0,
                       help="random seed (default: %(default)s)")
    stats.add_argument("--correction", choices=CORRECTIONS, default="holm",
                       help="for many metrics x runs: holm (family-wise), bh "
                       "(false discovery rate) or none (default: %(default)s)")
    policies = cmd.add_argument_group(
        "conventions", "how ties, grades and gaps are scored; the defaults are trec_eval's "
        "(with -c)")
    policies.add_argument("--relevance-level", metavar="N", type=_number, default=1,
                          help="a doc is relevant at grade >= N (default: %(default)s)")
    policies.add_argument("--ties", choices=TIE_POLICIES, default="trec_eval",
                          help="order of tied scores (default: %(default)s)")
    policies.add_argument("--gain", choices=GAIN_POLICIES, default="linear",
                          help="nDCG gain of a grade (default: %(default)s)")
    policies.add_argument("--empty-relevant", choices=EMPTY_POLICIES, default="zero",
                          help="a query with no relevant doc (default: %(default)s)")
    policies.add_argument("--missing-from-run", choices=MISSING_POLICIES, default="zero",
                          help="a judged query absent from a run (default: %(default)s)")
    policies.add_argument("--duplicates", choices=DUPLICATE_POLICIES, default="error",
                          help="a doc listed twice for one query (default: %(default)s)")
    return parser


def _version() -> str:
    from . import __version__  # the package, imported by the time the command runs

    return __version__


def _number(text: str):
    value = float(text)  # argparse turns the ValueError into a usage error
    return int(value) if value.is_integer() else value


# -- arguments -> inputs ---------------------------------------------------------------


def _cutoffs(text: str) -> list[int]:
    ks = []
    for item in text.split(","):
        item = item.strip()
        if not item.isdigit() or int(item) < 1:
            raise UsageError(f"--k: {item!r} is not a positive integer (write e.g. --k 5,10,20)")
        ks.append(int(item))
    return ks


def _metrics(text: str | None, ks: list[int]) -> list[str]:
    if text is None:
        return default_metrics(ks)
    names = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise UsageError(f"--metrics: an empty name in {text!r}")
        info = METRICS.get(item.lower())
        if "@" not in item and info is not None and info.cutoff == "required":
            names += [f"{item.lower()}@{k}" for k in ks]
        else:
            names.append(item)
    return list(dict.fromkeys(names))


def _names(text: str | None, runs: list[str]) -> list[str]:
    if text is not None:
        names = [n.strip() for n in text.split(",")]
        if len(names) != len(runs) or not all(names):
            raise UsageError(
                f"--names gives {len(names)} names for {len(runs)} runs: {text!r}"
            )
        if len(set(names)) != len(names):
            raise UsageError(f"--names repeats a name: {text!r}")
        return names
    names = [Path(r).name for r in runs]
    if len(set(names)) != len(names):
        names = list(runs)
    if len(set(names)) != len(names):
        raise UsageError("the same run file is given twice; give each run once")
    return names


def _first_line_fields(path: Path) -> list[str] | None:
    """The whitespace-separated fields of the first non-blank line."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            fields = line.split()
            if fields:
                return fields
    return None


def _first_fields(path: Path) -> int | None:
    """The number of whitespace-separated fields on the first non-blank line."""
    fields = _first_line_fields(path)
    return None if fields is None else len(fields)


def _is_headerless_trec(path: Path) -> bool:
    """A tab-separated TREC file (run: ``q Q0 doc rank score name``; qrels: ``q 0 doc rel``).

    Tables have a header naming ``query_id``; TREC files have none, so a .tsv whose first
    line is a TREC line is read as TREC.
    """
    fields = _first_line_fields(path)
    if not fields or "query_id" in fields:
        return False
    if len(fields) >= 6:
        return fields[1] == "Q0"
    return len(fields) == 4 and fields[3].lstrip("-").isdigit()


def _load(path_text: str, role: str) -> pd.DataFrame:
    """Read GOLDEN (role "golden") or a RUN (role "run") by extension, then by content."""
    path = Path(path_text)
    label = "GOLDEN" if role == "golden" else "RUN"
    if not path.exists():
        raise UsageError(f"{label} file not found: {path_text}")
    if not path.is_file():
        raise UsageError(f"{label} is not a regular file (a folder or a pipe?): {path_text}")
    suffix = path.suffix.lower()
    if suffix in _TABLE_EXTENSIONS and not (suffix == ".tsv" and _is_headerless_trec(path)):
        return read_golden(path) if role == "golden" else read_results(path)
    if suffix == ".parquet":
        return _from_parquet(path, role)
    if suffix in (".json", ".xlsx", ".xls", ".pkl", ".pickle"):
        raise UsageError(
            f"{path_text}: {suffix} files are not read; use .csv, .tsv, .jsonl (one JSON "
            "object per line), .parquet, or a TREC file"
        )
    fields = _first_fields(path)
    if fields == 4:
        if role == "run":
            raise UsageError(
                f"{path_text} looks like TREC qrels (4 fields per line), not a run; the "
                "golden set comes first: ragmetrics evaluate GOLDEN RUN [RUN ...]"
            )
        return read_trec_qrels(path)
    if fields is not None and fields >= 6:
        if role == "golden":
            raise UsageError(
                f"{path_text} looks like a TREC run (6 fields per line), not judgments; the "
                "golden set comes first: ragmetrics evaluate GOLDEN RUN [RUN ...]"
            )
        return read_trec_run(path, extra_fields="ignore")
    found = "no data lines" if fields is None else f"{fields} fields on its first line"
    raise UsageError(
        f"cannot tell the format of {path_text} ({found}): expected .csv, .tsv, .jsonl, "
        ".ndjson, .parquet, or a TREC file (qrels: 4 fields per line, run: 6)"
    )


def _from_parquet(path: Path, role: str) -> pd.DataFrame:
    try:
        frame = pd.read_parquet(path)
    except ImportError as error:
        raise UsageError(
            f"{path}: reading .parquet needs pyarrow (pip install pyarrow): {error}"
        ) from None
    except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError
        raise UsageError(f"{path}: not a readable parquet file ({error})") from None
    list_column = "relevant_ids" if role == "golden" else "retrieved_ids"
    have = ", ".join(map(repr, frame.columns)) or "none"
    if "query_id" not in frame.columns:
        raise UsageError(f"{path}: no column 'query_id' (columns: {have})")
    if list_column in frame.columns and "doc_id" not in frame.columns:  # the wide form
        long = frame[["query_id", list_column]].explode(list_column, ignore_index=True)
        long = long.dropna(subset=[list_column]).rename(columns={list_column: "doc_id"})
        if role == "golden":
            long["relevance"] = 1
        else:
            long["rank"] = long.groupby("query_id", sort=False).cumcount() + 1
        frame = long
    needed = ["doc_id"] + (["relevance"] if role == "golden" else [])
    for column in needed:
        if column == "relevance" and column not in frame.columns:
            frame = frame.assign(relevance=1)
        elif column not in frame.columns:
            raise UsageError(f"{path}: no column {column!r} or {list_column!r} (columns: {have})")
    if role == "run" and not {"score", "rank"} & set(frame.columns):
        raise UsageError(
            f"{path}: no column 'score' or 'rank' to order the docs by (columns: {have})"
        )
    for column in ("query_id", "doc_id"):
        frame[column] = _text_ids(frame[column], column, path)
    return frame


def _text_ids(column: pd.Series, name: str, path: Path) -> pd.Series:
    """Ids as text, as every other reader gives them: 42 -> "42"; anything else refused."""
    if pd.api.types.is_integer_dtype(column.dtype):
        return column.astype(str).astype(object)
    bad = column.map(lambda v: not isinstance(v, str))
    if bad.any():
        value = column[bad].iloc[0]
        raise UsageError(f"{path}: column {name!r} must hold text or integer ids, found {value!r}")
    return column.astype(object)


def _check_output(path_text: str | None, option: str, extensions) -> None:
    if path_text is None:
        return
    path = Path(path_text)
    if path.suffix.lower() not in extensions:
        raise UsageError(
            f"{option} {path_text}: the file name must end in {' or '.join(extensions)}"
        )
    if not path.resolve().parent.is_dir():
        raise UsageError(f"{option} {path_text}: the folder {path.parent} does not exist")


def _progress_line(stream):
    def show(done: int, total: int) -> None:
        stream.write(f"\rresampling: {100 * done // max(total, 1):3d}%")
        if done >= total:
            stream.write("\r" + " " * 20 + "\r")
        stream.flush()

    return show


# -- the command -----------------------------------------------------------------------


def _evaluate(args) -> int:
    ks = _cutoffs(args.k)
    metrics = _metrics(args.metrics, ks)
    names = _names(args.names, args.runs)
    if args.baseline is not None and args.baseline not in names:
        raise UsageError(f"--baseline {args.baseline!r} is not one of the run names {names}")
    _check_output(args.report, "--report", tuple(REPORT_FORMATS))
    _check_output(args.per_query, "--per-query", (".csv",))

    qrels = _load(args.golden, "golden")
    runs = {name: _load(path, "run") for name, path in zip(names, args.runs, strict=True)}
    comparison = compare(
        runs,
        qrels,
        metrics,
        baseline=args.baseline,
        alpha=args.alpha,
        confidence=args.confidence,
        n_resamples=args.resamples,
        max_resamples=args.max_resamples,
        seed=args.seed,
        correction=args.correction,
        progress=_progress_line(sys.stderr) if sys.stderr.isatty() else None,
        relevance_level=args.relevance_level,
        gain=args.gain,
        ties=args.ties,
        duplicates=args.duplicates,
        empty_relevant=args.empty_relevant,
        missing_from_run=args.missing_from_run,
    )
    print(to_text(comparison))
    if args.report is not None:
        write_report(comparison, args.report)
        print(f"report written to {args.report}", file=sys.stderr)
    if args.per_query is not None:
        write_per_query_csv(comparison, args.per_query)
        print(f"per-query values written to {args.per_query}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 bad input).

    Examples
    --------
    >>> main(["evaluate", "no-such-golden.csv", "run.csv"])
    2
    """
    try:
        args = _build_parser().parse_args(argv)
        return _evaluate(args)
    except SystemExit as exit:  # --help and --version end here
        return int(exit.code or 0)
    except (UsageError, FormatError, ValueError, TypeError, OSError) as error:
        message = str(error) if not isinstance(error, OSError) or not error.filename else (
            f"cannot read or write {error.filename}: {error.strerror}"
        )
        print(f"ragmetrics: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ragmetrics: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
