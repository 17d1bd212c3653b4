"""``ragmetrics evaluate``: evaluate and compare runs from files.

::

    ragmetrics evaluate GOLDEN RUN [RUN ...] [--metrics recall@10,ndcg@10] [--k 5,10,20]
                        [--report out.html|out.md] [--per-query out.csv] [--names A,B]
                        [--save-baseline base.json] ...
    ragmetrics evaluate --evidence E [--documents D] --chunks C RUN [RUN ...]
                        [--chunks C2 RUN2 ...] [--metrics span_recall@10,span_iou@10] ...

One run prints each metric's mean with its bootstrap interval; two or more also print
each run against the first (the baseline): the difference, its interval, the paired
randomization and t-test p-values, the corrected p-value and a verdict. Warnings (too few
queries, one metric alone, queries missing from a run) are printed with the numbers.
From five runs on, one line per metric and run, best first (``--wide``: one column per
run). Each run is read when it is scored and let go after, the next ones read ahead; a
TREC run larger than 32 MB is read and scored in parts of whole queries, in bounded
memory (:mod:`ragmetrics.cli.runs`). Progress bars on a terminal only (``--quiet``: none).

**Runs over different chunkings** are judged by evidence spans, not by a golden set of
chunk ids (which no two chunkings share): ``--evidence`` is then the golden set, and no
GOLDEN is given. Each ``--chunks CHUNKS RUN [RUN ...]`` names a chunking (``chunk_id,
doc_id, start, end`` or ``chunk_id, doc_id, text``) and the runs retrieved from it; a
single ``--chunks CHUNKS`` serves the RUNs given as positional arguments. Every run is
scored on the evidence's questions: the span metrics (``span_recall@k``,
``span_precision@k``, ``span_iou@k``, ``span_<name>@budget=N``; default: recall,
precision and IoU at every ``--k``) on the text it retrieved, and the id-based metrics
(``recall@10``, ``ndcg@10``, ...) with its chunks judged by ``--rule`` (default: a chunk
is relevant when it shares a character with an evidence span). ``--documents`` (``doc_id,
text``) locates quotes and chunk texts, counts tokens (``--unit token``) and checks
offsets against each document's length. Evidence, documents and chunkings are read from
``.jsonl``, ``.csv``, ``.tsv`` or ``.parquet``, compressed or not, by
:mod:`ragmetrics.io` as runs are (:mod:`ragmetrics.spans.readers`); a bad value is
reported with its file and line.

**Data sets as GOLDEN.** GOLDEN may be a data set wherever it may be a qrels file: a
BEIR folder (``queries.jsonl``, ``corpus.jsonl``, ``qrels/<split>.tsv``), an MTEB data
set saved locally (``corpus/``, ``queries/``, ``qrels/``) or a LlamaIndex
``EmbeddingQAFinetuneDataset`` JSON file, told by its layout
(:func:`ragmetrics.io.read_dataset`: its judgments and questions; its corpus only when a
``--report`` is written).
``--dataset-format`` forces a layout, ``--split`` picks the split (default ``test``).

**The verdict first.** The output, and the report, open with one sentence per run
against the baseline on the primary metric (``--primary``; default nDCG@10 if computed,
else the first metric): better, worse, no significant difference or undecided, with the
difference, its interval, the corrected p-value, the questions and the smallest
difference they can detect; then the other metrics' verdicts, a line each, and the
warnings' count (listed at the end). ``--title`` names the report. ``--queries``
(``query_id, text``) and, without ``--evidence``, ``--documents`` (``doc_id, text``: the
runs' ids) put each question and each passage's first words beside the ids in the
report's drill-downs; a data set as GOLDEN gives its own (its corpus is read only for a
report).

**File formats** (:func:`ragmetrics.io.read_run`, :func:`ragmetrics.io.read_qrels`), by
name first, then by content, compressed (``.gz``, ``.bz2``, ``.xz``, ``.zst``) or not.
GOLDEN or a RUN named ``-`` is read from standard input; ``/dev/stdin``, named pipes and
``<(cmd)`` are read too, whole, before anything else (a TREC file told by its content, a
table by the name of the pipe):

- ``.csv``, ``.tsv``, ``.jsonl``, ``.ndjson``, ``.parquet``: long or wide form;
- any other name (``.txt``, ``.run``, ``.qrels``, none, trec_eval's ``results.test``...):
  a TREC file, told by its first non-blank line: 4 whitespace-separated fields is a
  qrels file (``query_id iteration doc_id relevance``), 6 a run (``query_id Q0 doc_id
  rank score run_name``). A run line of more fields is refused (an id with a space in
  it shifts every field after it) unless ``--trec-extra-fields ignore``, which ignores
  what follows the run name, as trec_eval does.

**A baseline for a regression gate.** ``--save-baseline base.json`` writes the run's
per-query values on every metric evaluated, the judgments' fingerprint, the conventions,
the metrics and the run file's path and hash, for ``ragmetrics gate``
(:mod:`ragmetrics.cli.gate`). It saves one run: with several, the one ``--baseline``
names (without ``--baseline`` it is refused, rather than guessing which).

**Questions with no answer.** ``--max-false-answer-rate R`` gives each run the lowest
score threshold whose false-answer rate (unanswerable questions that keep a result
scored at or above it) is at most R, and prints, after the verdict, what it gives and
which run abstains better (:mod:`ragmetrics.comparison.no_answer`); ``--tune-queries
FILE`` (a ``query_id`` column) chooses each threshold on those queries and measures it on
the others. ``--threshold-sweep OUT.csv`` writes every run's sweep, one row per run and
threshold (:func:`ragmetrics.threshold_sweep`). A question is unanswerable when it has no
relevant doc, or ``answerable`` is false in GOLDEN's column of that name; the runs need
scores (a run without is refused, named), and both options refuse ``--evidence``.

**Outputs never replace inputs.** ``--report``, ``--per-query`` and ``--threshold-sweep``
are checked before anything is read: an output that is an input (the same file, through
links too), two outputs naming one file, a folder or a read-only file are refused. Files
are written atomically; a symbolic link is written through.

Exit status: 0 on success; 2 on bad input (a file missing, unreadable or malformed, with
its line number; an unknown metric; runs with no query in common with the golden set;
an output that would replace an input), with one line on stderr saying what is wrong;
1 on an internal error (a bug in ragmetrics: the message says so, ``--debug`` prints the
traceback); 130 when interrupted.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

from ..comparison import DEFAULT_CUTOFFS, compare, default_metrics, evaluate_systems
from ..comparison.options import chosen_primary
from ..comparison.pairwise import PAIRS
from ..comparison.segments import SEGMENT_WEIGHTS
from ..conventions import Conventions
from ..errors import CoverageWarning, InputError
from ..evaluation import check_judgments, threshold_sweep
from ..evaluation.in_parallel import available_cores, can_start_workers
from ..io import DATASET_FORMATS, dataset_layout_of
from ..io.dataset_layouts import read_texts
from ..io.segment_files import read_query_ids, read_segments
from ..io.source import is_stream
from ..io.trec import EXTRA_FIELDS
from ..metrics.registry import metric_info
from ..presets import PRESETS
from ..progress import resampling_callback
from ..reports import (
    REPORT_FORMATS,
    to_text,
    write_per_query_csv,
    write_report,
    write_threshold_sweep_csv,
)
from ..reports.long_text import LONG_FROM, to_long_text
from ..reports.means_text import means_text
from ..reports.output_files import check_outputs
from ..safe_text import terminal_text
from ..spans import OVERLAP_POLICIES, RULES, UNITS, SpanJudgments
from ..spans.names import default_span_metrics, parse_metric_names
from ..stats import CORRECTIONS
from ..validation import MAX_COUNT, whole_number
from .common import (
    STDIN,
    UsageError,
    add_convention_options,
    check_output_names,
    conventions_from_options,
    existing_file,
    input_files,
    integer,
    load_golden,
    load_run,
    number,
)
from .gate import save_run_baseline
from .run_names import run_names
from .runs import deferred_runs, return_freed_memory_at_once

__all__ = ["PARALLEL_FROM", "add_parser", "run"]

#: From this many runs on, the runs are scored on every core by default (``--jobs``).
PARALLEL_FROM = 8


def add_parser(subcommands) -> None:
    """Add ``evaluate`` to the command's subcommands."""
    cmd = subcommands.add_parser(
        "evaluate",
        usage="%(prog)s GOLDEN RUN [RUN ...] [options]\n"
        "       %(prog)s --evidence E [--documents D] --chunks C RUN [RUN ...] "
        "[--chunks C2 RUN2 ...] [options]",
        help="evaluate one or more runs against a golden set, with intervals and tests",
        description="Print each metric's mean with its bootstrap interval; with two or more "
        "runs, also each run against the first: the difference, its interval, paired "
        "randomization and t-test p-values, the corrected p-value and a verdict.",
        epilog="File formats: .csv, .tsv, .jsonl, .ndjson, .parquet, or TREC (qrels: 4 "
        "fields per line; run: 6), compressed (.gz, .bz2, .xz, .zst) or not. An output "
        "never replaces an input. Exit status 2 on bad input, 1 on an internal error.",
    )
    # Both optional to argparse: with --evidence there is no GOLDEN (run() checks).
    cmd.add_argument("golden", metavar="GOLDEN", nargs="?",
                     help="the judgments: golden set or TREC qrels, or a data set (a BEIR or "
                     "MTEB folder, a LlamaIndex JSON file) (none with --evidence)")
    cmd.add_argument("runs", metavar="RUN", nargs="*", help="one or more runs (results)")
    cmd.stray_positionals = "runs"
    cmd.add_argument("--dataset-format", choices=DATASET_FORMATS, default=None,
                     help="read GOLDEN as a data set of this layout (default: told from "
                     "the path: a BEIR or MTEB folder, a LlamaIndex JSON file)")
    cmd.add_argument("--split", metavar="NAME", default=None,
                     help="the data set's split whose judgments are read (default: test)")
    cmd.add_argument(
        "--metrics",
        metavar="LIST",
        help="comma-separated metric names, e.g. recall@10,ndcg@10,mrr; a name without a "
        "cut-off that needs one (recall, precision, hit_rate) is taken at every --k. "
        "Default: recall, precision and nDCG at every --k, and MRR. With --evidence also "
        "span_recall@k, span_precision@k, span_iou@k, span_<name>@budget=N (a span name "
        "without a cut scores every retrieved chunk); default: span recall, precision "
        "and IoU at every --k",
    )
    cmd.add_argument("--k", metavar="LIST", default=",".join(map(str, DEFAULT_CUTOFFS)),
                     help="comma-separated cut-offs (default: %(default)s)")
    cmd.add_argument("--names", metavar="LIST",
                     help="comma-separated run names (default: the file names without "
                     "folders and endings, told apart where two share one)")
    cmd.add_argument("--baseline", metavar="NAME",
                     help="the run the others are tested against (default: the first)")
    cmd.add_argument("--report", metavar="FILE",
                     help="write a report: .html (self-contained) or .md")
    cmd.add_argument("--title", metavar="TEXT", default=None,
                     help="the report's title (default: Retrieval evaluation); needs --report")
    cmd.add_argument("--primary", metavar="METRIC", default=None,
                     help="the metric the verdict is about, said first in the output and "
                     "the report, with the drill-downs on it (default: ndcg@10 if computed, "
                     "else the first metric)")
    cmd.add_argument("--queries", metavar="FILE", default=None,
                     help="the questions, query_id (or _id, id) and text (.jsonl, .csv, "
                     ".tsv, .parquet): shown beside the query ids in the report's "
                     "drill-downs (default: a data set's questions, when GOLDEN is one)")
    cmd.add_argument("--per-query", metavar="FILE",
                     help="write every per-query value to this .csv")
    cmd.add_argument("--save-baseline", metavar="FILE",
                     help="write a baseline for ragmetrics gate (.json): the per-query values "
                     "of the run (with several runs, of the one --baseline names), the "
                     "judgments' fingerprint, the conventions and the metrics")
    cmd.add_argument("--wide", action="store_true",
                     help=f"one column per run, even for {LONG_FROM} runs or more (which "
                     "otherwise print one line per metric and run, best first)")
    cmd.add_argument("--means-only", action="store_true",
                     help="print each run's means alone: no intervals, no tests, no "
                     "resampling (what trec_eval prints; the quickest for many runs). "
                     "Not with --report, which shows the intervals and tests")
    cmd.add_argument("--jobs", metavar="N", type=integer, default=None,
                     help="runs evaluated at once, each in a worker process (Linux, macOS; "
                     f"default: the cores this process may use for {PARALLEL_FROM} runs or "
                     "more, else 1: one after the other). The numbers are the same for "
                     "any N")
    cmd.add_argument("--quiet", action="store_true",
                     help="no progress bars (there are none unless stderr is a terminal)")
    cmd.add_argument("--trec-extra-fields", choices=EXTRA_FIELDS, default="error",
                     help="a TREC run line of more than 6 fields: an error (an id with a "
                     "space in it shifts every field), or ignore what follows the run "
                     "name, as trec_eval does (default: %(default)s)")
    spans = cmd.add_argument_group(
        "evidence spans", "runs over chunks, judged by the passages that answer each "
        "question, so that runs over different chunkings can be compared")
    spans.add_argument("--evidence", metavar="FILE",
                       help="the golden set as evidence spans: query_id, doc_id, start, end"
                       "[, relevance] (or quote); a row with a query_id alone is a question "
                       "without evidence. No GOLDEN is given with it")
    spans.add_argument("--documents", metavar="FILE",
                       help="the documents: doc_id (or _id, id), text. With --evidence: the "
                       "documents the spans point into (to locate quotes and chunk texts, "
                       "count tokens, check offsets). Without: the runs' ids are theirs, and "
                       "the report's drill-downs show each passage's first words beside its "
                       "id (default: a data set's corpus, when GOLDEN is one)")
    spans.add_argument("--chunks", metavar=("CHUNKS", "RUN"), nargs="+", action="append",
                       help="a chunking (chunk_id, doc_id, start, end or text), then the runs "
                       "retrieved from it; repeat for each chunking")
    spans.add_argument("--rule", choices=RULES, default=None,
                       help="when a chunk is relevant, for the id-based metrics: it shares a "
                       "character with evidence (any_overlap, the default), at least "
                       "--threshold characters (min_chars), at least --threshold of it is "
                       "evidence (chunk_coverage), it holds at least --threshold of a span "
                       "(evidence_coverage)")
    spans.add_argument("--threshold", metavar="T", type=number, default=None,
                       help="the rule's threshold: characters for min_chars, a share in "
                       "(0, 1] for the coverage rules")
    spans.add_argument("--unit", choices=UNITS, default=None,
                       help="what span metrics and budgets count: char (the default) or "
                       "token (word pieces; needs --documents)")
    spans.add_argument("--overlap", choices=OVERLAP_POLICIES, default=None,
                       help="overlapping chunks counted once (union, the default) or once "
                       "per chunk (sum: Chroma's published definitions)")
    no_answer = cmd.add_argument_group(
        "questions with no answer", "a query with no relevant doc (or answerable false in "
        "GOLDEN's answerable column) is unanswerable; a system answers a question when a "
        "result scores at or above its threshold. The runs need scores")
    no_answer.add_argument("--max-false-answer-rate", metavar="R", type=number, default=None,
                           help="give each run the lowest score threshold whose false-answer "
                           "rate (unanswerable questions answered) is at most R, from 0 to "
                           "1; print and report what it gives (recall, answer rate, with "
                           "intervals) and which run abstains better")
    no_answer.add_argument("--tune-queries", metavar="FILE", default=None,
                           help="choose each threshold on these queries (a query_id column: "
                           ".csv, .tsv, .jsonl, .parquet) and measure it on all the others "
                           "(default: chosen and measured on every query, which flatters it)")
    no_answer.add_argument("--threshold-sweep", metavar="FILE", default=None,
                           help="write every run's threshold sweep to this .csv: one row per "
                           "run and threshold (every distinct score), with the false-answer "
                           "rate, answer rate, recall and precision (each run read whole)")
    stats = cmd.add_argument_group("statistics")
    stats.add_argument("--alpha", metavar="A", type=float, default=0.05,
                       help="significance level of the verdicts, after the correction "
                       "(default: %(default)s)")
    stats.add_argument("--confidence", metavar="C", type=float, default=0.95,
                       help="confidence level of the intervals; the difference intervals "
                       "are at the level of the correction (default: %(default)s)")
    stats.add_argument("--resamples", metavar="N", type=integer, default=10_000,
                       help="bootstrap resamples and randomization patterns "
                       "(default: %(default)s)")
    stats.add_argument("--max-resamples", metavar="N", type=integer, default=None,
                       help="the most randomization patterns for a verdict within Monte "
                       "Carlo error of alpha (default: 32 x --resamples)")
    stats.add_argument("--seed", metavar="S", type=integer, default=0,
                       help="random seed (default: %(default)s)")
    stats.add_argument("--correction", choices=CORRECTIONS, default="holm",
                       help="for many metrics x runs: holm (family-wise), bh "
                       "(false discovery rate) or none (default: %(default)s)")
    stats.add_argument("--pairs", choices=PAIRS, default="baseline",
                       help="test each run against the baseline, or every pair of runs; "
                       "one correction over pairs x metrics (default: %(default)s)")
    stats.add_argument("--segments", metavar="FILE",
                       help="a segment per query (.csv, .tsv or .jsonl with query_id, "
                       "segment): each run's mean and its difference with the baseline per "
                       "segment")
    stats.add_argument("--segment-weights", choices=SEGMENT_WEIGHTS, default=None,
                       help="how the overall row of the segments weights them: every query "
                       "once (query) or every segment the same (equal) (default: query)")
    policies = cmd.add_argument_group(
        "conventions", "how ties, grades and gaps are scored; the defaults are trec_eval's "
        "(with -c)")
    add_convention_options(
        policies, preset_help="another tool's rules, as a bundle of these conventions: "
        + "; ".join(f"{p.name}: {p.tool}" for p in PRESETS.values())
        + " (an option that contradicts the preset is an error)")


# -- arguments -> inputs ---------------------------------------------------------------


def _cutoffs(text: str) -> list[int]:
    ks = []
    for item in text.split(","):
        item = item.strip()
        try:
            ks.append(whole_number(item, "--k"))
        except InputError:
            raise UsageError(f"--k: {item!r} is not a positive integer (ASCII digits, at "
                             f"most {MAX_COUNT}; write e.g. --k 5,10,20)") from None
    return ks


def _metrics(text: str | None, ks: list[int], *, spans: bool = False) -> list[str]:
    if text is None:
        return default_span_metrics(ks) if spans else default_metrics(ks)
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
    return run_names(runs)  # the file stems, told apart where two share one


# -- the command -----------------------------------------------------------------------


_SPAN_OPTIONS = ("chunks", "rule", "threshold", "unit", "overlap")


def _span_runs(args) -> list[tuple[str, str]]:
    """``(run, chunking)`` of every run, from ``--chunks C RUN ...`` (and positional RUNs)."""
    groups = args.chunks or []
    if not groups:
        raise UsageError("--evidence judges runs over chunks: give each run's chunking, "
                         "--chunks CHUNKS RUN [RUN ...]")
    positional = [path for path in [args.golden, *args.runs] if path is not None]
    if positional:
        if len(groups) != 1 or len(groups[0]) != 1:
            raise UsageError(
                f"with --evidence the evidence is the golden set (no GOLDEN), and each run "
                f"follows its chunking (--chunks CHUNKS RUN [RUN ...]): {positional[0]} "
                "follows no --chunks")
        return [(path, groups[0][0]) for path in positional]
    for group in groups:
        if len(group) == 1:
            raise UsageError(f"--chunks {group[0]}: no run follows it; write "
                             "--chunks CHUNKS RUN [RUN ...]")
    return [(path, group[0]) for group in groups for path in group[1:]]


def _texts(path_text: str, option: str):
    """``id, text`` (and ``title``) of a --queries or --documents file, ids checked."""
    query = option == "--queries"
    return read_texts(existing_file(path_text, option), what=option,
                      ids=("query_id" if query else "doc_id", "_id", "id"),
                      id_name="query_id" if query else "doc_id", title=not query)


def run(args) -> int:
    """``ragmetrics evaluate``: print the comparison, write the reports; 0 on success."""
    spans = args.evidence is not None
    if not spans:
        given = [f"--{name}" for name in _SPAN_OPTIONS if getattr(args, name) is not None]
        if given:
            raise UsageError(f"{given[0]} is for runs judged by evidence spans: give "
                             "--evidence FILE too")
        missing = (["GOLDEN"] if args.golden is None else []) + ([] if args.runs else ["RUN"])
        if missing:
            raise UsageError(f"the following arguments are required: {', '.join(missing)} "
                             "(see: ragmetrics evaluate --help)")
    if spans and args.unit == "token" and args.documents is None:
        raise UsageError("--unit token counts the documents' tokens: give --documents FILE")
    pairs = _span_runs(args) if spans else [(path, None) for path in args.runs]
    run_paths = [path for path, _ in pairs]
    ks = _cutoffs(args.k)
    metrics = _metrics(args.metrics, ks, spans=spans)
    names = _names(args.names, run_paths)
    if args.baseline is not None and args.baseline not in names:
        raise UsageError(f"--baseline {args.baseline!r} is not one of the run names {names}")
    if args.title is not None and args.report is None:
        raise UsageError("--title names the report: give --report FILE too")
    if args.primary is not None:
        try:
            chosen_primary(args.primary, metrics)
        except InputError as error:
            raise UsageError(f"--primary: {error}") from None
    if args.means_only and args.report is not None:
        raise UsageError("--report shows intervals and tests, which --means-only leaves "
                         "out: drop one of them")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be a positive integer, got {args.jobs}")
    # By default a few runs are scored here, one after the other with the next ones
    # read ahead (forking costs more than it saves); many runs on every core.
    jobs = args.jobs if args.jobs is not None else (
        available_cores() if len(run_paths) >= PARALLEL_FROM else 1)
    if args.segment_weights is not None and args.segments is None:
        raise UsageError("--segment-weights weights the segments: give --segments FILE too")
    if args.segments is not None and args.means_only:
        raise UsageError("--segments shows intervals and tests per segment, which "
                         "--means-only leaves out: drop one of them")
    _check_no_answer_options(args, spans)
    check_output_names(args.report, "--report", tuple(REPORT_FORMATS))
    check_output_names(args.threshold_sweep, "--threshold-sweep", (".csv",))
    check_output_names(args.per_query, "--per-query", (".csv",))
    check_output_names(args.save_baseline, "--save-baseline", (".json",))
    if args.save_baseline is not None and spans:
        raise UsageError("--save-baseline keeps judgments by id (a qrels file or data set); "
                         "runs judged by --evidence spans cannot be gated yet")
    if args.save_baseline is not None and len(run_paths) > 1 and args.baseline is None:
        raise UsageError(f"--save-baseline saves one run: {len(run_paths)} are given; name "
                         "the one to save with --baseline NAME")
    if spans:
        inputs = [("--evidence", args.evidence)]
        inputs += [("--documents", args.documents)] if args.documents is not None else []
        inputs += [("--chunks", path) for path in dict.fromkeys(c for _, c in pairs)]
    else:
        inputs = [("GOLDEN", args.golden)]
        inputs += [("--documents", args.documents)] if args.documents is not None else []
    inputs += [("--queries", args.queries)] if args.queries is not None else []
    inputs += [("RUN", path) for path in run_paths]
    inputs += [("--segments", args.segments)] if args.segments is not None else []
    inputs += [("--tune-queries", args.tune_queries)] if args.tune_queries is not None else []
    check_outputs({"--report": args.report, "--per-query": args.per_query,
                   "--save-baseline": args.save_baseline,
                   "--threshold-sweep": args.threshold_sweep}, inputs)

    conventions, _ = conventions_from_options(args)  # bad values refused before any file is read
    parse_metric_names(metrics)

    show_progress = sys.stderr.isatty() and not args.quiet
    return_freed_memory_at_once()  # before any file is read: bounded memory in parts
    # Standard input (-) and pipes are read now, once; files are read when scored.
    # A data set (a folder, a data set file) is read by its layout, not as one file.
    as_dataset = not spans and (args.dataset_format is not None
                                or (not is_stream(args.golden) and args.golden != STDIN
                                    and (Path(args.golden).is_dir()
                                         or dataset_layout_of(args.golden) is not None)))
    if spans and (args.dataset_format is not None or args.split is not None):
        raise UsageError("--dataset-format and --split name a data set's judgments (GOLDEN); "
                         "with --evidence there is none")
    files = input_files(([] if spans or as_dataset else [("GOLDEN", args.golden)])
                        + [("RUN", path) for path in run_paths])
    golden = None if spans else args.golden if as_dataset else files.pop(0)
    run_files = files
    # The texts the report's drill-downs show beside the ids: --queries and (without
    # --evidence) --documents, else a data set's own (its corpus only for a report).
    questions = None if args.queries is None else _texts(args.queries, "--queries")
    passages = None
    if spans:
        documents = (None if args.documents is None
                     else existing_file(args.documents, "--documents"))
        judgments = SpanJudgments(
            existing_file(args.evidence, "--evidence"), documents=documents,
            rule=args.rule or "any_overlap", threshold=args.threshold,
            unit=args.unit or "char", overlap=args.overlap or "union")
        chunks = {name: existing_file(path, "--chunks") for name, (_, path)
                  in zip(names, pairs, strict=True)}
        # Span runs are scored against their chunkings' texts: read whole.
        runs = {name: load_run(path, extra_fields=args.trec_extra_fields,
                               duplicates=args.duplicates)
                for name, path in zip(names, run_files, strict=True)}
    else:
        if args.documents is not None:
            passages = _texts(args.documents, "--documents")
        judgments, dataset_queries, dataset_documents = load_golden(
            golden, dataset_format=args.dataset_format, split=args.split,
            documents=as_dataset and args.report is not None and passages is None)
        chunks = None
        questions = dataset_queries if questions is None else questions
        passages = dataset_documents if passages is None else passages
        try:
            check_judgments(judgments, metrics, **conventions, preset=args.preset)
        except InputError as error:
            raise UsageError(f"GOLDEN {args.golden}: {error}") from None
        # Each run is read when it is scored, a large TREC run in parts (ragmetrics.cli.runs).
        # In worker processes (--jobs) each reads its own runs, without bars that two
        # processes would draw over each other.
        parallel = jobs > 1 and len(run_paths) > 1 and can_start_workers()
        runs = deferred_runs(run_files, names, extra_fields=args.trec_extra_fields,
                             duplicates=conventions["duplicates"],
                             show_progress=show_progress and not parallel,
                             read_ahead=not parallel)
    long_form = len(runs) >= LONG_FROM and not args.wide
    tune = (None if args.tune_queries is None else
            read_query_ids(existing_file(args.tune_queries, "--tune-queries"),
                           what="--tune-queries"))
    # Before the scoring: a run without scores is refused at once, naming its run.
    sweeps = (None if args.threshold_sweep is None else
              _sweeps(runs, judgments, conventions["relevance_level"]))
    if args.means_only:
        evaluations, notes = evaluate_systems(
            runs, judgments, metrics, conventions=Conventions(**conventions),
            preset=args.preset, chunks=chunks, jobs=jobs)
        print(means_text(evaluations, long_form=long_form, notes=notes))
        if args.per_query is not None:
            write_per_query_csv(evaluations, args.per_query)
            print(terminal_text(f"per-query values written to {args.per_query}"),
                  file=sys.stderr)
        _write_sweeps(args.threshold_sweep, sweeps)
        _save_baseline(args, evaluations, judgments, names, run_paths)
        return 0
    segments = (None if args.segments is None
                else read_segments(existing_file(args.segments, "--segments")))
    comparison = compare(
        runs,
        judgments,
        metrics,
        chunks=chunks,
        queries=questions,
        **({} if spans else {"documents": passages}),
        primary=args.primary,
        baseline=args.baseline,
        alpha=args.alpha,
        confidence=args.confidence,
        n_resamples=args.resamples,
        max_resamples=args.max_resamples,
        seed=args.seed,
        correction=args.correction,
        progress=resampling_callback(show_progress),
        jobs=jobs,
        **conventions,
        preset=args.preset,
        pairs=args.pairs,
        segments=segments,
        segment_weights=args.segment_weights or "query",
        max_false_answer_rate=args.max_false_answer_rate,
        tune_queries=tune,
    )
    print(to_long_text(comparison) if long_form else to_text(comparison))
    if args.report is not None:
        write_report(comparison, args.report, **({} if args.title is None
                                                 else {"title": args.title}))
        print(terminal_text(f"report written to {args.report}"), file=sys.stderr)
    if args.per_query is not None:
        write_per_query_csv(comparison, args.per_query)
        print(terminal_text(f"per-query values written to {args.per_query}"), file=sys.stderr)
    _write_sweeps(args.threshold_sweep, sweeps)
    _save_baseline(args, comparison.evaluations, judgments, names, run_paths)
    return 0


def _check_no_answer_options(args, spans: bool) -> None:
    """The options of questions with no answer, checked before any file is read."""
    rate = args.max_false_answer_rate
    if rate is not None and not 0 <= rate <= 1:
        raise UsageError(f"--max-false-answer-rate must be from 0 to 1 (a share of the "
                         f"unanswerable questions), got {rate:g}")
    if args.tune_queries is not None and rate is None:
        raise UsageError("--tune-queries chooses the thresholds of --max-false-answer-rate: "
                         "give --max-false-answer-rate R too")
    given = [option for option, value in (("--max-false-answer-rate", rate),
                                          ("--threshold-sweep", args.threshold_sweep))
             if value is not None]
    if given and spans:
        raise UsageError(f"{given[0]} reads score thresholds on judgments of ids (GOLDEN); "
                         "runs judged by --evidence spans are not supported")
    if rate is not None and args.means_only:
        raise UsageError("--max-false-answer-rate reports intervals and which run abstains "
                         "better, which --means-only leaves out: drop one of them")


def _sweeps(runs: dict, judgments, relevance_level) -> dict:
    """``--threshold-sweep``: every run's sweep (the comparison's notes name the run
    queries without judgments; the sweeps do not say it again)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        return {name: threshold_sweep(run, judgments, relevance_level=relevance_level,
                                      system=name)
                for name, run in runs.items()}


def _write_sweeps(path: str | None, sweeps: dict | None) -> None:
    if path is not None:
        write_threshold_sweep_csv(sweeps, path)
        print(terminal_text(f"threshold sweeps written to {path}"), file=sys.stderr)


def _save_baseline(args, evaluations, judgments, names, run_paths) -> None:
    """``--save-baseline``: the one run, or the one ``--baseline`` names."""
    if args.save_baseline is not None:
        name = args.baseline or names[0]
        save_run_baseline(args.save_baseline, evaluations[name], judgments, name=name,
                          run_path=run_paths[names.index(name)])
