"""``ragmetrics audit``: do two judgment sets agree, and do they rank the runs alike?

::

    ragmetrics audit QRELS_A QRELS_B [RUN ...] [--metric ndcg@10] [--k 10]
                     [--relevance-level 1] [--weights linear] [--alpha-level ordinal]

Prints the agreement of the two judgment sets on the (query, doc) pairs both judged
(Cohen's kappa at the relevance level, weighted kappa and Krippendorff's alpha of the
grades, and the pairs judged by one set only); with runs, each run's mean under each set
with Kendall's tau and rank-biased overlap of the two orders, and each run's Judged@k and
hole@k (:func:`ragmetrics.audits.audit`). Files are read as by ``ragmetrics evaluate``.
Exit status: 0 on success, 2 on bad input, 1 on an internal error.
"""

from __future__ import annotations

from pathlib import Path

from ..audits import ALPHA_LEVELS, KAPPA_WEIGHTS, audit
from ..metrics.registry import parse_metrics
from ..safe_text import terminal_text
from .common import UsageError, integer, load_qrels, load_run, number

__all__ = ["add_parser", "run"]


def add_parser(subcommands) -> None:
    """Add ``audit`` to the command's subcommands."""
    cmd = subcommands.add_parser(
        "audit",
        help="check two judgment sets: agreement (kappa, alpha), induced system rankings, "
        "Judged@k",
        description="Agreement of two judgment sets on the pairs both judged (Cohen's kappa, "
        "weighted kappa, Krippendorff's alpha); with runs, each run's mean under each set, "
        "Kendall's tau and rank-biased overlap of the two system orders, and Judged@k.",
    )
    cmd.add_argument("qrels_a", metavar="QRELS_A", help="the first judgment set")
    cmd.add_argument("qrels_b", metavar="QRELS_B", help="the second judgment set")
    cmd.add_argument("runs", metavar="RUN", nargs="*", default=[], help="runs to rank under each set")
    cmd.add_argument("--names", metavar="LIST",
                     help="comma-separated run names (default: the file names)")
    cmd.add_argument("--metric", default="ndcg@10",
                     help="the metric the runs are ranked by (default: %(default)s)")
    cmd.add_argument("--k", type=integer, default=10,
                     help="the depth of Judged@k and hole@k (default: %(default)s)")
    cmd.add_argument("--relevance-level", type=number, default=1,
                     help="relevant at this grade or above (default: %(default)s)")
    cmd.add_argument("--weights", choices=KAPPA_WEIGHTS, default="linear",
                     help="weighted kappa's weights (default: %(default)s)")
    cmd.add_argument("--alpha-level", choices=ALPHA_LEVELS, default="ordinal",
                     help="Krippendorff's alpha's distance (default: %(default)s)")


def run(args) -> int:
    parse_metrics([args.metric])  # an unknown metric before any file is read
    if args.k < 1:
        raise UsageError(f"--k must be a positive int, got {args.k}")
    names = _names(args)
    qrels_a = load_qrels(args.qrels_a, "QRELS_A")
    qrels_b = load_qrels(args.qrels_b, "QRELS_B")
    runs = {name: load_run(path) for name, path in zip(names, args.runs, strict=True)}
    result = audit(qrels_a, qrels_b, runs or None, metric=args.metric, k=args.k,
                   relevance_level=args.relevance_level, weights=args.weights,
                   alpha_level=args.alpha_level)
    print(terminal_text(result.to_text()))
    return 0


def _names(args) -> list[str]:
    if args.names is None:
        names = [Path(path).name for path in args.runs]
    else:
        names = [name.strip() for name in args.names.split(",")]
        if len(names) != len(args.runs):
            raise UsageError(f"--names gives {len(names)} names for {len(args.runs)} runs")
    if len(set(names)) != len(names):
        raise UsageError(f"two runs have the same name {names!r}: give --names")
    return names
