"""``ragmetrics ndeval``: a drop-in for TREC's ndeval (v4.5), the Web track's diversity tool.

::

    ragmetrics ndeval [-c] [-traditional] [-alpha A] [-beta B] [-M N] QRELS RUN

Prints what ndeval prints, byte for byte: the CSV header ``runid,topic,ERR-IA@5,...``, a
row per topic of the run (topics in numeric order; 0 for a topic without judgments), and
the ``amean`` row, every value ``%.6f``. Every number comes from
:func:`ragmetrics.diversity.evaluate_diversity` (preset ``ndeval``, or
``ndeval_traditional`` with ``-traditional``).

Options (ndeval's):

- ``-c``: average over every judged topic (a judged topic missing from the run counts 0);
- ``-traditional``: order each topic's docs by score descending, ties by docno descending
  (by default, by the rank column);
- ``-alpha A``, ``-beta B``: redundancy and patience, from 0 to 1 (default 0.5);
- ``-M N``: only the top N docs of each topic.

As ndeval, a topic's values are NaN (``-nan``) where it divides 0 by 0: nNRBP of a judged
topic with no relevant doc, and every mean when no topic has both judgments and results.
The files are read as ndeval reads them (:mod:`ragmetrics.diversity.ndeval_files`, which
lists what ragmetrics refuses that ndeval reads). ndeval's risk-sensitive options
(``-baseline``, ``-riskAlpha``) are not offered. A RUN or QRELS named ``-`` is read from
standard input.

Exit status as for every subcommand: 0 on success, 2 on bad input (with the file and
line), 1 on an internal error.
"""

from __future__ import annotations

import argparse
import sys

from ..diversity import evaluate_diversity, ndeval_csv, read_ndeval_qrels, read_ndeval_run
from .common import UsageError, count, input_files, number

__all__ = ["add_parser", "run"]


def add_parser(subcommands) -> None:
    """Add ``ndeval`` to the command's subcommands."""
    cmd = subcommands.add_parser(
        "ndeval",
        help="diversity measures (alpha-nDCG, ERR-IA, NRBP, ...) as TREC's ndeval prints them",
        description="A drop-in for TREC's ndeval v4.5: alpha-DCG, alpha-nDCG, ERR-IA, "
        "nERR-IA at 5, 10 and 20, NRBP, nNRBP, MAP-IA, P-IA and subtopic recall, as its CSV.",
        allow_abbrev=False,
    )
    cmd.add_argument("qrels", metavar="QRELS", help="ndeval's qrels: topic subtopic docno "
                     "judgment")
    cmd.add_argument("run", metavar="RUN", help="the run: topic Q0 docno rank score runid")
    cmd.add_argument("-c", action="store_true", dest="complete",
                     help="average over every judged topic")
    cmd.add_argument("-traditional", action="store_true", dest="traditional",
                     help="order by score, then docno (descending), not by rank")
    cmd.add_argument("-alpha", type=number, default=0.5, metavar="A",
                     help="redundancy intolerance, 0 to 1 (default 0.5)")
    cmd.add_argument("-beta", type=number, default=0.5, metavar="B",
                     help="patience, for NRBP, 0 to 1 (default 0.5)")
    cmd.add_argument("-M", type=count, default=None, metavar="N", dest="depth",
                     help="only the top N docs of each topic")


def run(args: argparse.Namespace) -> int:
    """``ragmetrics ndeval``: print ndeval's CSV; 0 on success."""
    for name in ("alpha", "beta"):
        value = getattr(args, name)
        if not 0 <= value <= 1:
            raise UsageError(f"-{name} {value}: give a number from 0 to 1")
    qrels_file, run_file = input_files([("QRELS", args.qrels), ("RUN", args.run)])
    judgments = read_ndeval_qrels(qrels_file)
    frame, run_name = read_ndeval_run(run_file, scores=args.traditional)
    result = evaluate_diversity(
        frame, judgments, preset="ndeval_traditional" if args.traditional else "ndeval",
        alpha=args.alpha, beta=args.beta, complete=args.complete, depth=args.depth)
    sys.stdout.write(ndeval_csv(result.per_query, result.summary.to_dict(), run_name))
    return 0
