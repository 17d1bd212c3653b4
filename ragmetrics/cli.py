"""The ``ragmetrics`` command: evaluate and compare runs from files.

::

    ragmetrics evaluate GOLDEN RUN [RUN ...] [--metrics recall@10,ndcg@10] [--k 5,10,20]
                        [--report out.html|out.md] [--per-query out.csv] [--names A,B] ...

One run prints each metric's mean with its bootstrap interval; two or more also print
each run against the first (the baseline): the difference, its interval, the paired
randomization and t-test p-values, the corrected p-value and a verdict. Warnings (too few
queries, one metric alone, queries missing from a run) are printed with the numbers.

**File formats** (:func:`ragmetrics.io.read_run`, :func:`ragmetrics.io.read_qrels`), by
name first, then by content, compressed (``.gz``, ``.bz2``, ``.xz``, ``.zst``) or not:

- ``.csv``, ``.tsv``, ``.jsonl``, ``.ndjson``, ``.parquet``: long or wide form;
- any other name (``.txt``, ``.run``, ``.qrels``, none, trec_eval's ``results.test``...):
  a TREC file, told by its first non-blank line: 4 whitespace-separated fields is a
  qrels file (``query_id iteration doc_id relevance``), 6 a run (``query_id Q0 doc_id
  rank score run_name``). A run line of more fields is refused (an id with a space in
  it shifts every field after it) unless ``--trec-extra-fields ignore``, which ignores
  what follows the run name, as trec_eval does.

**Outputs never replace inputs.** ``--report`` and ``--per-query`` are checked before
anything is read: an output that is an input (the same file, through links too), two
outputs naming one file, a folder or a read-only file are refused. Files are written
atomically; a symbolic link is written through.

Exit status: 0 on success; 2 on bad input (a file missing, unreadable or malformed, with
its line number; an unknown metric; runs with no query in common with the golden set;
an output that would replace an input), with one line on stderr saying what is wrong;
1 on an internal error (a bug in ragmetrics: the message says so, ``--debug`` prints the
traceback); 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import traceback
from pathlib import Path

from .errors import InputError
from .evaluation import check_judgments
from .io import read_qrels, read_run
from .io.trec import EXTRA_FIELDS
from .metrics.table import METRICS, parse_metrics
from .policies import CONVENTIONS, Conventions
from .reports import REPORT_FORMATS, to_text, write_per_query_csv, write_report
from .reports.output_files import check_outputs
from .safe_text import terminal_text
from .stats import CORRECTIONS, DEFAULT_CUTOFFS, compare, default_metrics

__all__ = ["main"]



class UsageError(InputError):
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
    parser.add_argument("--debug", action="store_true",
                        help="print the full traceback of any error")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cmd = commands.add_parser(
        "evaluate",
        help="evaluate one or more runs against a golden set, with intervals and tests",
        description="Print each metric's mean with its bootstrap interval; with two or more "
        "runs, also each run against the first: the difference, its interval, paired "
        "randomization and t-test p-values, the corrected p-value and a verdict.",
        epilog="File formats: .csv, .tsv, .jsonl, .ndjson, .parquet, or TREC (qrels: 4 "
        "fields per line; run: 6), compressed (.gz, .bz2, .xz, .zst) or not. An output "
        "never replaces an input. Exit status 2 on bad input, 1 on an internal error.",
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
    cmd.add_argument("--trec-extra-fields", choices=EXTRA_FIELDS, default="error",
                     help="a TREC run line of more than 6 fields: an error (an id with a "
                     "space in it shifts every field), or ignore what follows the run "
                     "name, as trec_eval does (default: %(default)s)")
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
    for convention in CONVENTIONS:  # one option per row of the conventions table
        if convention.choices:
            meanings = "; ".join(f"{c.value}: {c.description}" for c in convention.choices)
            policies.add_argument(convention.cli_option, choices=convention.values,
                                  default=convention.default,
                                  help=f"{convention.label} ({meanings}; default: "
                                  "%(default)s)")
        else:
            policies.add_argument(convention.cli_option, metavar="N", type=_number,
                                  default=convention.default,
                                  help=f"{convention.label}: "
                                  f"{convention.number.format(value='N')} (default: %(default)s)")
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


def _load(path_text: str, role: str, args):
    """Read GOLDEN (role "golden") or a RUN (role "run"), in whatever format it is."""
    path = Path(path_text)
    label = "GOLDEN" if role == "golden" else "RUN"
    if not path.exists():
        raise UsageError(f"{label} file not found: {path_text}")
    if not path.is_file():
        raise UsageError(f"{label} is not a regular file (a folder or a pipe?): {path_text}")
    if role == "golden":
        return read_qrels(path)
    # A doc listed twice is refused by the reader, which can name both lines.
    duplicates = "error" if args.duplicates == "error" else "keep"
    return read_run(path, extra_fields=args.trec_extra_fields, duplicates=duplicates)


def _check_output_names(path_text: str | None, option: str, extensions) -> None:
    if path_text is not None and Path(path_text).suffix.lower() not in extensions:
        raise UsageError(
            f"{option} {path_text}: the file name must end in {' or '.join(extensions)}"
        )


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
    _check_output_names(args.report, "--report", tuple(REPORT_FORMATS))
    _check_output_names(args.per_query, "--per-query", (".csv",))
    inputs = [("GOLDEN", args.golden)] + [("RUN", path) for path in args.runs]
    check_outputs({"--report": args.report, "--per-query": args.per_query}, inputs)

    conventions = {c.keyword: getattr(args, c.keyword) for c in CONVENTIONS}
    Conventions(**conventions)  # the options' own errors, before any file is read
    parse_metrics(metrics)

    qrels = _load(args.golden, "golden", args)
    try:
        check_judgments(qrels, metrics, **conventions)
    except InputError as error:
        raise UsageError(f"GOLDEN {args.golden}: {error}") from None
    runs = {name: _load(path, "run", args)
            for name, path in zip(names, args.runs, strict=True)}
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
        **conventions,
    )
    print(to_text(comparison))
    if args.report is not None:
        write_report(comparison, args.report)
        print(terminal_text(f"report written to {args.report}"), file=sys.stderr)
    if args.per_query is not None:
        write_per_query_csv(comparison, args.per_query)
        print(terminal_text(f"per-query values written to {args.per_query}"), file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 success, 2 bad input, 1 a bug).

    Examples
    --------
    >>> main(["evaluate", "no-such-golden.csv", "run.csv"])
    2
    """
    debug = "--debug" in (sys.argv[1:] if argv is None else argv)
    with _terminate_as_exit():
        try:
            args = _build_parser().parse_args(argv)
            return _evaluate(args)
        except SystemExit as exit:  # --help, --version and SIGTERM end here
            return int(exit.code or 0) if isinstance(exit.code, int | None) else 2
        except (InputError, OSError) as error:
            if debug:
                traceback.print_exc()
            _say(_input_error_message(error))
            return 2
        except KeyboardInterrupt:
            _say("interrupted")
            return 130
        except Exception as error:  # noqa: BLE001 - a bug in ragmetrics, not in the input
            if debug:
                traceback.print_exc()
            _say(
                f"internal error (a bug in ragmetrics, not in your input): "
                f"{type(error).__name__}: {error}"
                + ("" if debug else "; run again with --debug for the traceback, and please "
                   "report it")
            )
            return 1


def _input_error_message(error: Exception) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        reason = error.strerror or str(error)
        return f"cannot read or write {os.fspath(error.filename)}: {reason}"
    return str(error)


def _say(message: str) -> None:
    # Ids and file names come from the user: no escape sequence reaches the terminal.
    print(f"ragmetrics: error: {terminal_text(message, keep_newlines=False)}",
          file=sys.stderr)


@contextlib.contextmanager
def _terminate_as_exit():
    """SIGTERM ends the command like Ctrl-C: files half written are removed first."""
    def stop(signum, frame):
        raise SystemExit(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
