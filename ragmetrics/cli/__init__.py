"""The ``ragmetrics`` command.

::

    ragmetrics evaluate GOLDEN RUN [RUN ...] [options]   # evaluate and compare runs
    ragmetrics evaluate --evidence E --chunks C RUN [--chunks C2 RUN2 ...]   # chunkings
    ragmetrics audit QRELS_A QRELS_B [RUN ...]          # check two judgment sets
    ragmetrics trec_eval [-q] [-c] [-m MEASURE]... QRELS RUN   # trec_eval, drop-in
    ragmetrics gate BASELINE QRELS RUN --fail-if "ndcg@10 worse by 0.01"   # a CI gate
    ragmetrics ndeval [-c] [-traditional] [-alpha A] [-beta B] QRELS RUN   # ndeval, drop-in

One module per subcommand (:mod:`~ragmetrics.cli.evaluate`, :mod:`~ragmetrics.cli.audit`,
:mod:`~ragmetrics.cli.trec_eval`, :mod:`~ragmetrics.cli.gate`, :mod:`~ragmetrics.cli.ndeval`),
each with
``add_parser(subcommands)`` and ``run(args)``, registered in :data:`COMMANDS`; what they
share is in :mod:`~ragmetrics.cli.common`. This module runs the command and turns errors
into exit statuses, the same for every subcommand:

- 0 on success (``gate``: 3 when the gate failed);
- 2 on bad input (a file missing, unreadable or malformed, with its line number; an
  unknown metric; an output that would replace an input), with one line on stderr
  saying what is wrong;
- 1 on an internal error (a bug in ragmetrics: the message says so, ``--debug`` prints
  the traceback);
- 130 when interrupted; a SIGTERM ends the command like Ctrl-C, so that no half-written
  file is left behind;
- 141 (128 + SIGPIPE), silently, when the reader of its output has gone (``| head``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import signal
import sys
import traceback

from ..errors import InputError
from ..safe_text import terminal_text
from . import audit, evaluate, gate, ndeval, trec_eval
from .common import Parser

__all__ = ["COMMANDS", "build_parser", "main"]

#: The subcommands, by name: each module adds its parser and runs its work.
COMMANDS = {"evaluate": evaluate, "audit": audit, "trec_eval": trec_eval, "gate": gate,
            "ndeval": ndeval}


def build_parser() -> argparse.ArgumentParser:
    """The command's parser, with every subcommand of :data:`COMMANDS`."""
    parser = Parser(
        prog="ragmetrics",
        description="Exact retrieval metrics for RAG: Recall@k, Precision@k, MRR, nDCG@k.",
    )
    parser.add_argument("--version", action="version", version=f"ragmetrics {_version()}")
    parser.add_argument("--debug", action="store_true",
                        help="print the full traceback of any error")
    subcommands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS.values():
        command.add_parser(subcommands)
    # --debug before or after the subcommand (README writes `ragmetrics evaluate --debug`).
    # SUPPRESS: a subcommand's parser sets it only when given, so that it never overwrites
    # a --debug given before the subcommand.
    for subparser in subcommands.choices.values():
        subparser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                               help="print the full traceback of any error")
    return parser


def _version() -> str:
    from .. import __version__  # the package, imported by the time the command runs

    return __version__


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
            args = build_parser().parse_args(argv)
            return COMMANDS[args.command].run(args)
        except SystemExit as exit:  # --help, --version and SIGTERM end here
            return int(exit.code or 0) if isinstance(exit.code, int | None) else 2
        except (InputError, OSError) as error:
            if isinstance(error, BrokenPipeError) and _stdout_gone():
                return 128 + signal.SIGPIPE  # as a program that SIGPIPE ended, silently
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


def _stdout_gone() -> bool:
    """True when the reader of standard output has gone (``ragmetrics trec_eval ... |
    head`` once head has its lines): the rest of the output goes nowhere, and nothing is
    said, as for trec_eval, which SIGPIPE ends. A pipe whose reader has closed polls
    as an error; any other broken pipe (a file, a worker) is not this."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a captured stdout has no descriptor
        return False
    poller = select.poll()
    poller.register(descriptor, select.POLLOUT)
    if not any(event & select.POLLERR for _, event in poller.poll(0)):
        return False
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, descriptor)  # so that the flush at exit has nothing to say either
    os.close(nowhere)
    return True


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
