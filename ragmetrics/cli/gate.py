"""``ragmetrics gate``: a regression gate for CI.

::

    ragmetrics evaluate QRELS RUN --save-baseline base.json     # once, on the main branch
    ragmetrics gate base.json QRELS CANDIDATE_RUN --fail-if "ndcg@10 worse by 0.01"
                    [--fail-if "recall@10 below 0.8"] [--segments FILE] [--alpha 0.05]
                    [--min-segment-queries 10] [--json verdicts.json] [--update-baseline]

The candidate run is scored on the baseline's metrics and queries, under the
baseline's conventions, and every ``--fail-if`` rule is decided
(:func:`ragmetrics.gate.check_gate`): ``"<metric> worse by <tolerance>"`` fails when
the candidate is worse than the baseline by more than the tolerance, significantly (a
one-sided paired t-test); ``"<metric> below <floor>"`` fails when the candidate's mean
is significantly below the floor (a mean below it but not significantly passes, with a
note). With ``--segments FILE`` (``query_id, segment``: ``.csv``, ``.tsv``, ``.jsonl``,
``.parquet``) each ``worse by`` rule is tested in every segment of at least
``--min-segment-queries`` queries too (smaller ones are named, not tested), so that a
category's collapse fails the gate even when the mean is flat. All the claims are
corrected together with Holm: a candidate that keeps every bar fails at most at
``--alpha``.

**A stale baseline is refused** (exit status 2, saying what differs and how to refresh
it): judgments whose fingerprint differs from the baseline's, a rule on a metric the
baseline lacks, queries missing on either side, or conventions that differ. The
conventions are the baseline's unless ``--preset`` or a convention option (``--ties``,
``--gain``, ... as for ``ragmetrics evaluate``) is given: then the conventions they make
(over the defaults, as ``evaluate`` makes them) must be the baseline's.

``--update-baseline`` writes the candidate's values as the new baseline, **only when the
gate passed** (a ratchet: a run that did not clear the bar never sets it), and says so,
with each metric's mean before and after. ``--json FILE`` writes the verdicts
(:meth:`ragmetrics.gate.GateResult.to_dict` gives the schema), pass or fail.

Exit status: 0 when the gate passed; 3 when it failed (the lines marked FAIL say which
rule, by how much, with the interval); 2 on bad input (a file missing or malformed, a
bad rule, a stale baseline), with one line on stderr naming the file or value; 1 on an
internal error (a bug in ragmetrics); 130 when interrupted.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..conventions import CONVENTIONS
from ..errors import InputError
from ..gate import MIN_SEGMENT_QUERIES, check_gate, load_baseline, parse_rules, ratchet_baseline
from ..gate.baseline import baseline_from_evaluation, file_sha256, write_baseline
from ..io import DATASET_FORMATS
from ..io.source import is_stream
from ..io.trec import EXTRA_FIELDS
from ..reports.output_files import check_outputs, write_atomic
from ..safe_text import terminal_text
from .common import (
    STDIN,
    UsageError,
    add_convention_options,
    check_output_names,
    conventions_from_options,
    count,
    existing_file,
    load_qrels,
    load_run,
)
from .run_names import run_names

__all__ = ["EXIT_FAILED", "add_parser", "run", "save_run_baseline"]

#: The exit status of a gate that failed (2 is bad input, 1 an internal error).
EXIT_FAILED = 3


def add_parser(subcommands) -> None:
    """Add ``gate`` to the command's subcommands."""
    cmd = subcommands.add_parser(
        "gate",
        usage="%(prog)s BASELINE QRELS CANDIDATE_RUN --fail-if RULE [--fail-if RULE ...] "
        "[options]",
        help="a regression gate for CI: fail when a run is significantly worse than a "
        "saved baseline (exit status 3)",
        description="Score CANDIDATE_RUN on the baseline's metrics, queries and conventions "
        "and decide every --fail-if rule with a one-sided paired t-test, corrected with Holm "
        "over every rule and segment. Save a baseline with: ragmetrics evaluate QRELS RUN "
        "--save-baseline base.json.",
        epilog="Exit status: 0 passed, 3 failed, 2 bad input or a stale baseline, 1 an "
        "internal error.",
    )
    cmd.add_argument("baseline", metavar="BASELINE",
                     help="the baseline file (.json, from ragmetrics evaluate --save-baseline)")
    cmd.add_argument("qrels", metavar="QRELS",
                     help="the judgments (a qrels or golden file, or a data set) the "
                     "baseline was saved against")
    cmd.add_argument("candidate", metavar="CANDIDATE_RUN", help="the run to gate")
    cmd.add_argument("--fail-if", metavar="RULE", action="append", dest="rules", default=[],
                     help='a rule: "<metric> worse by <tolerance>" (significantly worse than '
                     'the baseline by more than the tolerance) or "<metric> below <floor>" '
                     "(mean significantly below the floor); repeat for more")
    cmd.add_argument("--segments", metavar="FILE",
                     help="query_id, segment (.csv, .tsv, .jsonl, .parquet): test each "
                     "'worse by' rule in every segment too")
    cmd.add_argument("--min-segment-queries", metavar="N", type=count,
                     default=MIN_SEGMENT_QUERIES,
                     help="segments with fewer queries are named, not tested (default: "
                     "%(default)s; at least 2)")
    cmd.add_argument("--alpha", metavar="A", type=float, default=0.05,
                     help="the gate's false-fail rate, over all rules and segments (Holm) "
                     "(default: %(default)s)")
    cmd.add_argument("--json", metavar="FILE", help="write the verdicts to this .json file")
    cmd.add_argument("--update-baseline", action="store_true",
                     help="when the gate passes (only then), write the candidate's values "
                     "to BASELINE as the new baseline")
    cmd.add_argument("--name", metavar="NAME",
                     help="the candidate's name, kept in the verdicts and a new baseline "
                     "(default: the file name)")
    cmd.add_argument("--dataset-format", choices=DATASET_FORMATS, default=None,
                     help="read QRELS as a data set of this layout")
    cmd.add_argument("--split", metavar="NAME", default=None,
                     help="the data set's split whose judgments are read (default: test)")
    cmd.add_argument("--trec-extra-fields", choices=EXTRA_FIELDS, default="error",
                     help="a TREC run line of more than 6 fields: an error, or ignore what "
                     "follows the run name (default: %(default)s)")
    policies = cmd.add_argument_group(
        "conventions", "by default the baseline's; given, they must be the baseline's (a "
        "baseline scored otherwise is stale)")
    add_convention_options(policies, preset_help="another tool's rules, as for ragmetrics "
                           "evaluate", detailed=False)


def _conventions(args) -> tuple[dict, str | None] | None:
    """The conventions the options make (as ``ragmetrics evaluate`` makes them), or None
    when none is given (the baseline's are used)."""
    if args.preset is None and all(getattr(args, c.keyword) is None for c in CONVENTIONS):
        return None
    conventions, _ = conventions_from_options(args)
    return conventions, args.preset


def run(args) -> int:
    """``ragmetrics gate``: print the verdicts; 0 passed, 3 failed."""
    if not args.rules:
        raise UsageError('give at least one rule: --fail-if "ndcg@10 worse by 0.01" (see: '
                         "ragmetrics gate --help)")
    try:
        rules = parse_rules(args.rules)
    except InputError as error:
        raise UsageError(f"--fail-if: {error}") from None
    if not 0 < args.alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1 (e.g. 0.05), got {args.alpha:g}")
    if args.min_segment_queries < 2:
        raise UsageError("--min-segment-queries must be 2 or more (a t-test needs 2 "
                         f"queries), got {args.min_segment_queries}")
    check_output_names(args.json, "--json", (".json",))
    existing_file(args.baseline, "BASELINE")
    inputs = [("BASELINE", args.baseline), ("QRELS", args.qrels), ("CANDIDATE_RUN", args.candidate)]
    inputs += [("--segments", args.segments)] if args.segments is not None else []
    check_outputs({"--json": args.json}, inputs)
    if args.update_baseline:  # the baseline is written over on purpose: writable?
        check_outputs({"--update-baseline": args.baseline}, inputs[1:])
    settled = _conventions(args)
    baseline = load_baseline(args.baseline)
    qrels = load_qrels(args.qrels, "QRELS", dataset_format=args.dataset_format,
                       split=args.split)
    segments = (None if args.segments is None
                else str(existing_file(args.segments, "--segments")))
    conventions, preset = settled if settled is not None else ({}, None)
    candidate = load_run(args.candidate, extra_fields=args.trec_extra_fields,
                         duplicates=conventions.get("duplicates",
                                                    baseline.conventions.duplicates),
                         label="CANDIDATE_RUN")
    result = check_gate(baseline, candidate, qrels, rules, segments=segments,
                        alpha=args.alpha, min_segment_queries=args.min_segment_queries,
                        name=args.name or run_names([args.candidate])[0], run_path=args.candidate,
                        preset=preset, **conventions)
    print(terminal_text(result.to_text()))
    if args.update_baseline:
        before = baseline.means
        result = ratchet_baseline(result, args.baseline)
        print(terminal_text(_update_text(result, before, args.baseline)))
    if args.json is not None:
        write_atomic(args.json, json.dumps(result.to_dict(), indent=1, allow_nan=False) + "\n")
        print(terminal_text(f"verdicts written to {args.json}"), file=sys.stderr)
    return 0 if result.passed else EXIT_FAILED


def _update_text(result, before, path: str) -> str:
    if not result.baseline_updated:
        return (f"baseline not updated: the gate failed, and {path} keeps the bar it set "
                "(--update-baseline writes only a candidate that passed)")
    after = result.candidate.means
    moves = [f"{metric} {old:.4f} -> {after[metric]:.4f}" for metric, old in before.items()
             if after[metric] != old]
    lower = [m for m in before.index if after[m] < before[m]]
    line = (f"baseline updated: {path} now holds the candidate's values (the gate passed); "
            + ("; ".join(moves) if moves else "every mean unchanged"))
    if lower:
        line += (f". Lower on {', '.join(lower)}: within what the rules allow, and the new "
                 "bar is lower there")
    return line


def save_run_baseline(path: str, evaluation, judgments, *, name: str, run_path: str) -> None:
    """``ragmetrics evaluate ... --save-baseline FILE``: write the baseline of one run's
    evaluation (:func:`ragmetrics.gate.save_baseline`'s file), with the run file's path
    and the SHA-256 of its bytes (none for standard input or a pipe)."""
    regular = run_path != STDIN and not is_stream(run_path) and Path(run_path).is_file()
    run = {"name": name, "path": run_path,
           "sha256": file_sha256(run_path) if regular else None}
    baseline = write_baseline(baseline_from_evaluation(evaluation, judgments, run=run), path)
    print(terminal_text(
        f"baseline of {name} written to {path}: {len(baseline.per_query)} queries, "
        f"{', '.join(baseline.metrics)}; gate a run against it with: ragmetrics gate {path} "
        "QRELS RUN --fail-if \"<metric> worse by <tolerance>\""), file=sys.stderr)
