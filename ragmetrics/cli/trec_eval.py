"""``ragmetrics trec_eval``: a drop-in for NIST's trec_eval program, in ragmetrics' engine.

::

    ragmetrics trec_eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-m MEASURE[.PARAMS]]...
                         QRELS RUN

Prints what trec_eval 10 prints, line for line: ``measure<TAB>query<TAB>value``, the
measure name padded to 22 characters, values with 4 decimals (counts as whole numbers),
queries in trec_eval's order (their ids as byte strings), then the ``all`` lines. Every
number comes from :func:`ragmetrics.evaluate` (no second engine), under trec_eval's
conventions: ties by doc id descending, relevance at ``-l`` (default 1), gains = grades.

Options (trec_eval's):

- ``-q``: a line per query and measure, before the summary; ``-n``: no summary;
- ``-m MEASURE[.PARAMS]``: the measures, as trec_eval names them (``P.5,10``,
  ``ndcg_cut.10,20,23.4``, ``ndcg.1=3,2=9,4=4.5``, ``iprec_at_recall..10,.20``,
  ``utility.2,-1,0,0``, ...; :mod:`ragmetrics.metrics.trec_names`) or a nickname
  (``official``, the default; ``all_trec``; ``set``); repeatable;
- ``-c``: average over every judged query; a query missing from the run scores 0 (and
  keeps its num_rel);
- ``-l N``: a doc is relevant at grade >= N (N >= 1 here: ragmetrics refuses a level that
  makes judged non-relevant docs relevant);
- ``-M N``: only the top N docs of each ranking count; ``-J``: unjudged docs (and docs
  judged below 0) are removed from each ranking first; ``-N N``: docs in the collection
  (for utility).

**A judged query absent from the run, without -c**, is left out of every line and of
the averages, and a note on stderr names how many (as trec_eval 9 did, as pytrec_eval
does, and as trec_eval's own help text says). trec_eval 10 stops there instead, with the
error "result qid ... not found in qrels"; -c scores such queries 0.

**Standard input and pipes.** A RUN named ``-`` is read from standard input, as
trec_eval reads it. So are ``/dev/stdin``, named pipes and ``<(cmd)``, for QRELS too
(trec_eval maps a named file into memory and cannot read a pipe: "Cannot read results
file"; it opens a QRELS named ``-`` as a file of that name); a pipe is read whole into
memory, and one named twice (``- -``) is refused.

**Comments and blank lines.** A line whose first character other than whitespace is
``#`` is a comment, skipped, in both files, as trec_eval skips them in the run
(``get_trec_results.c``; blank lines too). In the qrels trec_eval skips only a ``#`` in
a line's first column, and only one such line at a time (``get_qrels.c``): a second
comment line in a row is read as data (a "Malformed line", or with four fields a
judgment of query ``#...``), an indented comment and a blank line are "Malformed", and a
comment on the qrels' last line crashes it (a segmentation fault); here all are skipped,
as in runs.

Where ragmetrics knowingly differs from trec_eval 10 (all outside its conformance suite):
a gain map's gains less than 1 apart are sorted exactly (trec_eval compares them by the
int truncation of their difference); a query whose judgments are all below 0 has no
gain levels (trec_eval reuses the previous query's, and when no query before it had a
judgment of 0 or more it stops with "Can't calculate measure"); a gain map entry for
grade -1 or -2 (trec_eval's codes for "not judged" and "judged below 0") is refused, and
so is a recall level above 1 (``iprec_at_recall.1.5``, which trec_eval scores 0); Rndcg prints 0
where trec_eval divides 0 by 0 (a gain map that leaves no relevant grade a gain); rbp
takes the lowest and highest gain of its scale as starting from 0, where trec_eval's
``m_rbp.c`` never sets them (``double sum, min, max;``) and reads whatever the stack
holds, so its rbp can change with the measures asked before it (``-m rbp`` alone and
``-m all_trec`` give the numbers here; after ``-m iprec_at_recall.0.33`` or ``-m
ndcg.1=3,...`` the same query has printed other values). Where
trec_eval's interpolated precision divides 0 by 0 (a ranking that -J empties) this prints
its ``-nan`` too, though :func:`ragmetrics.evaluate` scores 0 there. -l, -M and -N take
whole numbers in ASCII digits, and a cut-off (``P.5``) at most 2**63 - 1: trec_eval reads
them with C's ``atol``, so ``-M 1e30`` is ``-M 1`` there and ``-M 10x`` is ``-M 10``, and
one beyond a ``long`` is undefined in C (glibc clamps ``P.99999999999999999999`` to
``P_9223372036854775807``); here each is an error naming it. A measure's parameter must be
a finite number written in ASCII (trec_eval's ``atof`` also reads ``nan`` and ``inf``),
and utility's coefficients and set_F's beta at most 1e100 in size (so that no value or
mean overflows; ``utility.1e308,...`` prints ``-nan`` in trec_eval). A UTF-8 byte-order
mark at the start of a file is dropped here (as by every reader of ragmetrics); trec_eval
keeps it in the first line's query id, so that line's query matches no judgment. A run
score written as a whole number that a double cannot hold exactly (9007199254740993,
beyond 2**53) is refused here, naming its line (the score policy of ragmetrics); trec_eval
reads it as the nearest double, a tie with 9007199254740992 that it breaks by doc id. A NUL
byte inside an id is part of the id here; trec_eval's files "may contain no NULL
characters" (it stops reading at one, and trec_eval 10 aborted, in malloc, on a run with
one).

Exit status as for every subcommand: 0 on success, 2 on bad input (with the file and
line), 1 on an internal error.
"""

from __future__ import annotations

import math
import sys
import warnings

import numpy as np

from ..errors import InputError, RagmetricsWarning
from ..evaluation import evaluate
from ..io import read_trec_qrels, read_trec_run
from ..metrics.interpolated import round_half_away
from ..metrics.registry import parse_metric
from ..metrics.trec_names import FAMILIES, NICKNAMES, family, measure_specs
from ..safe_text import terminal_text
from .common import UsageError, input_files, integer

__all__ = ["add_parser", "format_lines", "run"]


def add_parser(subcommands) -> None:
    """Add ``trec_eval`` to the command's subcommands."""
    cmd = subcommands.add_parser(
        "trec_eval",
        help="evaluate a TREC run as the trec_eval program does, with its output",
        description="A drop-in for NIST's trec_eval: the same options, measures and output "
        "(measure, query, value), computed by ragmetrics.",
        epilog="Measures as trec_eval names them: P.5,10 ndcg_cut.10,20 map bpref infAP "
        "iprec_at_recall..1,.5 utility.1,-1,0,0 ndcg.1=3,2=9 ...; nicknames official "
        "(default), all_trec, set. A judged query missing from the run is left out "
        "unless -c (trec_eval 10 stops with an error there).",
    )
    cmd.add_argument("qrels", metavar="QRELS", help="the judgments: query 0 doc grade")
    cmd.add_argument("run", metavar="RUN", help="the run: query Q0 doc rank score run_name "
                     "(- reads it from standard input, as trec_eval does)")
    cmd.add_argument("-q", "--query_eval_wanted", action="store_true", dest="per_query",
                     help="also print every query's values")
    cmd.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                     help="a measure or nickname, with .params (repeatable; default: "
                     "official)")
    cmd.add_argument("-c", "--complete_rel_info_wanted", action="store_true", dest="complete",
                     help="average over every judged query; those missing from the run "
                     "score 0")
    cmd.add_argument("-l", "--level_for_rel", type=integer, default=1, metavar="N",
                     dest="level", help="relevant at grade >= N (default: 1)")
    cmd.add_argument("-n", "--nosummary", action="store_true", dest="no_summary",
                     help="no summary lines")
    cmd.add_argument("-J", "--Judged_docs_only", action="store_true", dest="judged_only",
                     help="remove unjudged docs from each ranking first")
    cmd.add_argument("-M", "--Max_retrieved_per_topic", type=integer, metavar="N",
                     dest="max_retrieved", help="only the top N docs of each ranking")
    cmd.add_argument("-N", "--Number_docs_in_coll", type=integer, default=0, metavar="N",
                     dest="num_docs", help="docs in the collection (for utility)")


def _marked(measures: list[str] | None) -> list[tuple[str, str | None]]:
    """(family, params) of every measure asked for, in trec_eval's printing order.

    As in trec_eval, a family asked for twice takes the parameters of the first -m that
    gives it some; a nickname marks its families with their defaults.
    """
    marked: set[str] = set()
    params: dict[str, str] = {}
    for text in measures or ["official"]:
        root, dot, written = text.partition(".")
        if dot and not written:
            raise UsageError(f"-m {text}: a '.' with no parameters after it")
        if dot:
            params.setdefault(root, written)
        if root in NICKNAMES:
            marked.update(NICKNAMES[root])
        else:
            try:
                family(root)
            except InputError as error:
                raise UsageError(f"-m {text}: {error}") from None
            marked.add(root)
    return [(f.root, params.get(f.root)) for f in FAMILIES if f.root in marked]


def run(args) -> int:
    """``ragmetrics trec_eval``: print trec_eval's lines; 0 on success."""
    if args.level < 1:
        raise UsageError(f"-l {args.level}: the relevance level must be 1 or more (a level "
                         "of 0 or below counts judged non-relevant docs as relevant)")
    if args.max_retrieved is not None and args.max_retrieved < 1:
        raise UsageError(f"-M {args.max_retrieved}: give a positive number of docs")
    wanted = []
    for root, params in _marked(args.measures):
        try:
            specs = measure_specs(root, params=params, num_docs=args.num_docs)
            for _, spec in specs:  # checked here, so that the error names the -m argument
                parse_metric(str(spec))
        except InputError as error:
            raise UsageError(f"-m {root}{'.' + params if params else ''}: {error}") from None
        wanted += [(family(root), printed, spec) for printed, spec in specs]

    qrels_file, run_file = input_files([("QRELS", args.qrels), ("RUN", args.run)])
    qrels = read_trec_qrels(qrels_file)
    # trec_eval refuses a doc listed twice for a query, but under -M only within the top N.
    run_frame = read_trec_run(run_file, extra_fields="ignore",
                              duplicates="keep" if args.max_retrieved else "error")
    columns = list(dict.fromkeys([*(str(spec) for _, _, spec in wanted), "num_ret"]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RagmetricsWarning)
        result = evaluate(
            run_frame, qrels, columns, relevance_level=args.level,
            missing_from_run="zero" if args.complete else "skip",
            unjudged="removed" if args.judged_only else "nonrelevant",
            max_retrieved=args.max_retrieved,
        )
    del caught  # trec_eval warns of nothing; the one note that matters follows
    missing = result.queries_missing_from_run
    if missing and not args.complete:
        shown = ", ".join(map(str, missing[:5])) + (", ..." if len(missing) > 5 else "")
        print(terminal_text(
            f"ragmetrics trec_eval: {len(missing)} judged "
            f"{'query is' if len(missing) == 1 else 'queries are'} not in the run and left "
            f"out ({shown}); -c scores them 0 (trec_eval 10 stops with an error here)"),
            file=sys.stderr)
    if not len(result.per_query):
        raise UsageError("no query has both judgments and results")
    complete_num_rel = int((qrels["relevance"] > 0).sum()) if args.complete else None
    if args.complete and missing:
        _as_trec_eval_scores_missing(result, wanted, qrels, args)
    _as_trec_eval_divides_by_no_doc(result, wanted, qrels, args)
    out = sys.stdout
    for line in format_lines(result, wanted, per_query=args.per_query,
                             summary=not args.no_summary, complete_num_rel=complete_num_rel):
        out.write(line)
    return 0


def _as_trec_eval_scores_missing(result, wanted, qrels, args) -> None:
    """trec_eval -c scores a judged query missing from the run on a ranking of one
    unjudged doc, then sets num_ret, utility, relstring, unj and rbp_resid to 0 (or '')
    by their printed names: under parameters (``utility_2,-1,0,0``) those of utility,
    relstring and rbp_resid keep what the one-doc ranking gives them. So do these."""
    frame = result.per_query
    missing = list(result.queries_missing_from_run)
    relevant = qrels[qrels["relevance"] >= args.level].groupby("query_id").size()
    one_doc = 0 if args.judged_only else 1  # -J removes that unjudged doc too
    for fam, printed, spec in wanted:
        if printed == fam.root or fam.root not in ("utility", "rbp_resid", "relstring"):
            continue
        column, given = str(spec), spec.arguments
        values = frame[column].to_numpy().copy()
        for query in missing:
            row = frame.index.get_loc(query)
            if fam.root == "utility":
                rel = float(relevant.get(query, 0))
                values[row] = (given["a"] * 0 + given["b"] * one_doc + given["c"] * rel
                               + given["d"] * (given["num_docs"] - one_doc - rel))
            elif fam.root == "rbp_resid":
                p = given["p"]
                values[row] = p + (1 - p) * 1.0 if one_doc else 0.0
            else:
                values[row] = "-" if one_doc else ""
        frame[column] = values
    if any(printed != fam.root for fam, printed, _ in wanted):
        object.__setattr__(result, "summary", result.summary.copy())
        for fam, printed, spec in wanted:
            if printed != fam.root and fam.root in ("utility", "rbp_resid"):
                result.summary[str(spec)] = frame[str(spec)].astype(float).mean()


def _as_trec_eval_divides_by_no_doc(result, wanted, qrels, args) -> None:
    """A ranking left with no doc (by -J): trec_eval's interpolated precision divides 0 by
    0 there, at each recall level that names rank 0, and prints -nan (as does every mean
    over it). ragmetrics' evaluate scores 0; the command prints what trec_eval prints."""
    frame = result.per_query
    empty = frame["num_ret"].to_numpy(dtype=float) == 0
    if not args.judged_only:  # -c's one-doc ranking of a missing query is not empty
        empty &= ~frame.index.isin(result.queries_missing_from_run)
    if not empty.any():
        return
    relevant = qrels[qrels["relevance"] >= args.level].groupby("query_id").size()
    rel = np.array([float(relevant.get(q, 0)) for q in frame.index])
    summary = result.summary.copy()
    for fam, _, spec in wanted:
        if fam.root == "iprec_at_recall":
            levels = [spec.k]
        elif fam.root == "11pt_avg":
            levels = list(spec.arguments["levels"])
        else:
            continue
        zero_rank = np.zeros(len(frame), dtype=bool)
        for level in levels:
            zero_rank |= round_half_away(level * rel) <= 0
        nan = empty & zero_rank
        if nan.any():
            values = frame[str(spec)].to_numpy(dtype=float).copy()
            values[nan] = np.nan
            frame[str(spec)] = values
            summary[str(spec)] = np.nan
    object.__setattr__(result, "summary", summary)


def format_lines(result, wanted, *, per_query: bool, summary: bool,
                 complete_num_rel: int | None = None):
    """trec_eval's output lines for an evaluation of the ``wanted`` measures.

    ``wanted`` is ``[(family, printed name, spec), ...]`` in printing order. Queries come
    in trec_eval's order, their ids compared as byte strings. ``complete_num_rel`` is the
    ``all`` line of num_rel under -c: trec_eval then counts the judgments above 0 of
    every judged query, whatever -l says.
    """
    frame = result.per_query
    queries = sorted(frame.index, key=lambda q: str(q).encode("utf-8"))
    columns = [(fam, printed, str(spec), frame[str(spec)].to_numpy()) for fam, printed, spec
               in wanted]
    position = {q: i for i, q in enumerate(frame.index)}
    if per_query:
        for query in queries:
            row = position[query]
            for fam, printed, _, values in columns:
                if fam.per_query:
                    yield _line(fam, printed, str(query), values[row])
    if not summary:
        return
    for fam, printed, name, values in columns:
        if not fam.summary:
            continue
        if fam.root == "runid":
            value = next((v for v in values if v), "")
        elif fam.root == "num_rel" and complete_num_rel is not None:
            value = complete_num_rel
        elif fam.integer:
            value = float(values.astype(float).sum())
        else:
            value = float(result.summary[name])
        yield _line(fam, printed, "all", value)


def _line(fam, printed: str, query: str, value) -> str:
    if fam.root == "relstring":
        text = f"'{value}'"
    elif fam.root == "runid":
        text = str(value)
    elif fam.integer:
        text = f"{int(value)}"
    elif math.isnan(value):
        text = "  -nan"  # C's printf of 0.0 / 0.0 (x86's NaN has its sign bit set)
    else:
        text = f"{float(value):6.4f}"
    return f"{printed:<22}\t{query}\t{text}\n"
