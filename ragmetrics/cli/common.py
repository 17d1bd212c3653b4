"""What every subcommand of ``ragmetrics`` shares: usage errors, the parser, the inputs.

A subcommand's own module (:mod:`~ragmetrics.cli.evaluate`, ...) adds its parser with
``add_parser(subcommands)`` and does its work in ``run(args)``; this module holds what
they have in common, so that a subcommand reads files and refuses bad outputs the way
every other one does.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import warnings
from pathlib import Path

from ..conventions import CONVENTIONS, Conventions
from ..errors import DatasetCoverageWarning, InputError
from ..io import dataset_layout_of, read_dataset, read_qrels, read_run
from ..io.source import ReadOnce, is_stream, read_once, read_stdin
from ..presets import PRESETS, preset_conventions
from ..safe_text import terminal_text
from ..validation import MAX_COUNT, decimal_number, whole_number

__all__ = ["STDIN", "Parser", "UsageError", "add_convention_options", "check_output_names",
           "conventions_from_options", "count", "existing_file", "input_files", "integer",
           "load_golden", "load_qrels", "load_run", "number"]


class UsageError(InputError):
    """Bad input from the command line: printed as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line (no usage block), exit status 2.

    ``stray_positionals``: the dest of a list positional (``nargs="*"``) that also takes
    the positional arguments written after an option. argparse fills an optional
    positional at its first chance, even with nothing, so in ``GOLDEN --k 5 RUN`` the run
    would be left over as an unrecognized argument.
    """

    stray_positionals: str | None = None

    def error(self, message):
        raise UsageError(f"{message} (see: {self.prog} --help)")

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if self.stray_positionals is not None and extras:
            stray = [a for a in extras if not a.startswith("-")]
            if stray and not any(a.startswith("-") for a in extras):
                getattr(namespace, self.stray_positionals).extend(stray)
                extras = []
        return namespace, extras


def number(text: str):
    """An int if the text is a whole number (within int64), else a float: argparse's type
    for levels and thresholds. ASCII digits, finite (``float()`` also takes ``"١٢"``,
    ``"nan"`` and ``"inf"``)."""
    try:
        value = decimal_number(text, "")
    except InputError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number (ASCII "
                                         "digits)") from None
    return int(value) if value.is_integer() and abs(value) <= MAX_COUNT else value


def count(text: str) -> int:
    """A whole number of 1 or more, at most :data:`~ragmetrics.validation.MAX_COUNT`:
    argparse's type for a depth (``5``, ``1000``, ``1e3``)."""
    try:
        value = whole_number(text, "")  # exactly, digits beyond a float's 53 bits too
    except InputError:
        try:
            value = number(text)
        except argparse.ArgumentTypeError:
            value = None
    if not isinstance(value, int) or not 1 <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number from 1 to {MAX_COUNT}")
    return value


def integer(text: str) -> int:
    """A whole number in ASCII digits, of at most :data:`~ragmetrics.validation.MAX_COUNT`
    either way: argparse's type for counts and seeds (``int()`` also takes ``"١٢"``), and
    for trec_eval's -l, -M and -N (its ``atol`` reads ``1e30`` as 1 and ``10x`` as 10, and
    what overflows a ``long`` as C leaves it undefined: refused here, by value)."""
    try:
        return whole_number(text, "", minimum=-MAX_COUNT)
    except InputError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number (ASCII digits, at most {MAX_COUNT} either "
            "way)") from None


#: The file name that means standard input (trec_eval reads its run from there so).
STDIN = "-"


def input_files(pairs) -> list:
    """The files a command reads, ``[(label, path text), ...]``, each as the readers take
    it: a regular file as a Path (:func:`existing_file`), standard input (``-``) or a
    pipe (a FIFO, ``/dev/stdin`` on a pipe, ``<(cmd)``) read whole now, as a
    :class:`~ragmetrics.io.source.ReadOnce`. A pipe named twice is refused: it can be
    read only once."""
    out, seen = [], {}
    for label, text in pairs:
        key = _stream_key(text)
        if key is not None and key in seen:
            raise UsageError(f"{label} {text} is {seen[key]} too: standard input or a pipe "
                             "can be read only once")
        if key is not None:
            seen[key] = f"{label} {text}"
        if text == STDIN:
            out.append(read_stdin())
        elif key is not None:
            out.append(read_once(text))
        else:
            out.append(existing_file(text, label))
    return out


def _stream_key(text: str):
    """What names one stream: (inode, device) of a pipe (``-`` too when standard input is
    one), ``-`` for standard input otherwise; None for a file that can be read again."""
    if text == STDIN:
        try:
            info = os.fstat(0)
        except OSError:
            return STDIN
        return STDIN if stat.S_ISREG(info.st_mode) else (info.st_ino, info.st_dev)
    if not is_stream(text):
        return None
    info = os.stat(text)
    return info.st_ino, info.st_dev


def existing_file(path_text, label: str):
    """``path_text`` as a Path, or a usage error naming ``label`` if it is not a file (a
    :class:`~ragmetrics.io.source.ReadOnce`, read already, is returned as it is)."""
    if isinstance(path_text, ReadOnce):
        return path_text
    path = Path(path_text)
    if not path.exists():
        raise UsageError(f"{label} file not found: {path_text}")
    if not path.is_file():
        raise UsageError(f"{label} is not a regular file (a folder or a pipe?): {path_text}")
    return path


def load_qrels(path_text, label: str = "GOLDEN", *, dataset_format: str | None = None,
               split: str | None = None):
    """The judgments of a file, in whatever format it is (:func:`ragmetrics.io.read_qrels`),
    or of a data set (:func:`ragmetrics.io.read_dataset`): a folder (BEIR, MTEB), a data
    set file (LlamaIndex's JSON), or any path when ``dataset_format`` is given. ``split``
    (default ``test``) is the data set's; a plain qrels file has none, and refuses one."""
    return load_golden(path_text, label, dataset_format=dataset_format, split=split)[0]


def load_golden(path_text, label: str = "GOLDEN", *, dataset_format: str | None = None,
                split: str | None = None, documents: bool = False):
    """``(qrels, queries, documents)`` of GOLDEN, as :func:`load_qrels` reads it: a data
    set's questions (``query_id, text``) and, with ``documents``, its corpus (``doc_id,
    text``), for the report's drill-downs; None for each a plain qrels file (or a layout
    without documents) lacks."""
    if isinstance(path_text, ReadOnce):
        layout = None
    else:
        layout = dataset_format or dataset_layout_of(path_text)
        if layout is None and Path(path_text).is_dir():
            read_dataset(path_text)  # the error that says what the folder holds
        if dataset_format is None and layout == "beir" and Path(path_text).is_file():
            layout = None  # BEIR's qrels TSV alone: a qrels file, which read_qrels reads
    if layout is None:
        if split is not None:
            raise UsageError(f"--split {split} is for data sets (a BEIR or MTEB folder, a "
                             f"LlamaIndex file); {label} {path_text} is a qrels file")
        return read_qrels(existing_file(path_text, label)), None, None
    if not Path(path_text).exists():
        raise UsageError(f"{label} file or folder not found: {path_text}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DatasetCoverageWarning)
        dataset = read_dataset(path_text, format=layout, split=split or "test",
                               documents=documents)
    for warning in caught:  # one line each, as the command's other notes
        if issubclass(warning.category, DatasetCoverageWarning):
            print(terminal_text(f"ragmetrics: warning: {warning.message}"), file=sys.stderr)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
    queries = dataset.queries[dataset.queries["text"].notna()]  # a layout may have none
    queries = queries if len(queries) else None
    return dataset.qrels, queries, dataset.documents


def load_run(path_text: str, *, extra_fields: str = "error", duplicates: str = "error",
             label: str = "RUN"):
    """A run from a file, in whatever format it is (:func:`ragmetrics.io.read_run`).

    ``duplicates`` is the evaluation's convention: under ``"error"`` the reader refuses a
    doc listed twice, since it can name both lines.
    """
    return read_run(existing_file(path_text, label), extra_fields=extra_fields,
                    duplicates="error" if duplicates == "error" else "keep")


def check_output_names(path_text: str | None, option: str, extensions) -> None:
    """Refuse an output file name without one of ``extensions``."""
    if path_text is not None and Path(path_text).suffix.lower() not in extensions:
        raise UsageError(
            f"{option} {path_text}: the file name must end in {' or '.join(extensions)}"
        )


# -- the conventions' options, one per row of the conventions table -------------------


def add_convention_options(group, *, preset_help: str, detailed: bool = True) -> None:
    """``--preset`` and one option per row of :data:`~ragmetrics.conventions.CONVENTIONS`,
    with no argparse default, so that an option given by name is told from one left out
    (``--preset`` refuses one that contradicts it; ``ragmetrics gate`` uses the baseline's
    when none is given). ``detailed`` spells out every choice in the help."""
    group.add_argument("--preset", choices=tuple(PRESETS), default=None, help=preset_help)
    for convention in CONVENTIONS:
        default = ("none" if convention.default is None
                   else convention.default if convention.choices
                   else format(convention.default, "g"))
        if convention.choices:
            meanings = "; ".join(f"{c.value}: {c.description}" for c in convention.choices)
            helped = (f"{convention.label} ({meanings}; default: {default})" if detailed
                      else convention.label)
            group.add_argument(convention.cli_option, choices=convention.values,
                               default=None, help=helped)
        else:
            helped = (f"{convention.label}: {convention.number.format(value='N')} "
                      f"(default: {default})" if detailed else convention.label)
            group.add_argument(convention.cli_option, metavar="N",
                               type=count if convention.keyword == "max_retrieved" else number,
                               default=None, help=helped)


def conventions_from_options(args) -> tuple[dict, set]:
    """The conventions the options make (each left out at its default, then ``--preset``'s
    bundle, which refuses an option that contradicts it), and the keywords given by name.
    A bad value is refused here, before any file is read."""
    explicit = {c.keyword for c in CONVENTIONS if getattr(args, c.keyword) is not None}
    conventions = {c.keyword: c.default if getattr(args, c.keyword) is None
                   else getattr(args, c.keyword) for c in CONVENTIONS}
    Conventions(**conventions)
    if args.preset is not None:
        try:
            conventions = preset_conventions(args.preset, conventions, explicit=explicit)
        except InputError as error:
            raise UsageError(f"--preset {args.preset}: {error}") from None
    return conventions, explicit
