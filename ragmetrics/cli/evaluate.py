"""``ragmetrics evaluate``: evaluate and compare runs from files.

::

    ragmetrics evaluate GOLDEN RUN [RUN ...] [--metrics recall@10,ndcg@10] [--k 5,10,20]
                        [--report out.html|out.md] [--per-query out.csv] [--names A,B] ...

One run prints each metric's mean with its bootstrap interval; two or more also print
each run against the first (the baseline): the difference, its interval, the paired
randomization and t-test p-values, the corrected p-value and a verdict. Warnings (too few
queries, one metric alone, queries missing from a run) are printed with the numbers.
From five runs on, one line per metric and run, best first (``--wide``: one column per
run). Each run is read when it is scored and let go after, the next ones read ahead; a
TREC run larger than 32 MB is read and scored in parts of whole queries, in bounded
memory (:mod:`ragmetrics.cli.runs`). Progress bars on a terminal only (``--quiet``: none).

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

import sys
from pathlib import Path

from ..errors import InputError
from ..evaluation import check_judgments
from ..io.trec import EXTRA_FIELDS
from ..metrics.table import metric_info, parse_metrics
from ..policies import CONVENTIONS, Conventions
from ..reports import REPORT_FORMATS, to_text, write_per_query_csv, write_report
from ..reports.long_text import LONG_FROM, to_long_text
from ..reports.output_files import check_outputs
from ..safe_text import terminal_text
from ..stats import CORRECTIONS, DEFAULT_CUTOFFS, compare, default_metrics
from .common import UsageError, check_output_names, load_qrels, number
from .progress import resampling_callback
from .runs import deferred_runs

__all__ = ["add_parser", "run"]


def add_parser(subcommands) -> None:
    """Add ``evaluate`` to the command's subcommands."""
    cmd = subcommands.add_parser(
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
    cmd.add_argument("--wide", action="store_true",
                     help=f"one column per run, even for {LONG_FROM} runs or more (which "
                     "otherwise print one line per metric and run, best first)")
    cmd.add_argument("--quiet", action="store_true",
                     help="no progress bars (there are none unless stderr is a terminal)")
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
            policies.add_argument(convention.cli_option, metavar="N", type=number,
                                  default=convention.default,
                                  help=f"{convention.label}: "
                                  f"{convention.number.format(value='N')} (default: %(default)s)")


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
        try:
            info = metric_info(item.lower())
        except InputError:
            info = None  # parse_metrics names it, with a suggestion
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


# -- the command -----------------------------------------------------------------------


def run(args) -> int:
    """``ragmetrics evaluate``: print the comparison, write the reports; 0 on success."""
    ks = _cutoffs(args.k)
    metrics = _metrics(args.metrics, ks)
    names = _names(args.names, args.runs)
    if args.baseline is not None and args.baseline not in names:
        raise UsageError(f"--baseline {args.baseline!r} is not one of the run names {names}")
    check_output_names(args.report, "--report", tuple(REPORT_FORMATS))
    check_output_names(args.per_query, "--per-query", (".csv",))
    inputs = [("GOLDEN", args.golden)] + [("RUN", path) for path in args.runs]
    check_outputs({"--report": args.report, "--per-query": args.per_query}, inputs)

    conventions = {c.keyword: getattr(args, c.keyword) for c in CONVENTIONS}
    Conventions(**conventions)  # the options' own errors, before any file is read
    parse_metrics(metrics)

    qrels = load_qrels(args.golden)
    try:
        check_judgments(qrels, metrics, **conventions)
    except InputError as error:
        raise UsageError(f"GOLDEN {args.golden}: {error}") from None
    show_progress = sys.stderr.isatty() and not args.quiet
    # Each run is read when it is scored, a large TREC run in parts (ragmetrics.cli.runs).
    runs = deferred_runs(args.runs, names, extra_fields=args.trec_extra_fields,
                         duplicates=args.duplicates, show_progress=show_progress)
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
        progress=resampling_callback(show_progress),
        **conventions,
    )
    long_form = len(runs) >= LONG_FROM and not args.wide
    print(to_long_text(comparison) if long_form else to_text(comparison))
    if args.report is not None:
        write_report(comparison, args.report)
        print(terminal_text(f"report written to {args.report}"), file=sys.stderr)
    if args.per_query is not None:
        write_per_query_csv(comparison, args.per_query)
        print(terminal_text(f"per-query values written to {args.per_query}"), file=sys.stderr)
    return 0
