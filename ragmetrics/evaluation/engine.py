"""From a run and its judgments to ranked judgments: what :func:`ragmetrics.evaluate` scores.

Four steps, each a function that returns what it found:

1. :func:`judge_queries`: the judged queries, numbered ``0 .. Q-1``, with their number
   of relevant docs and their ideal rankings;
2. :func:`cover_queries`: which of the run's queries are judged, and which judged
   queries the run misses;
3. :func:`read_rows`: each judged query's rows in rank order, down to the depth the
   metrics read (:func:`~ragmetrics.evaluation.ranking.rank_rows`), matched with the
   judgments (:mod:`~ragmetrics.evaluation.joins`), tied scores ordered by the tie rule
   (or, under ``ties="average"``, their blocks found), repeated docs refused or dropped,
   each ranking cut at ``max_retrieved`` and, under ``unjudged="removed"``, its
   unjudged docs removed;
4. :func:`rank_and_judge`: all of it, as :class:`~ragmetrics.metrics.ranked.RankedJudgments`
   for the kernels, plus what evaluate reports (coverage, empty golden sets).

No Python loop runs per row or per query. ``tests/unit/evaluation/test_evaluate.py`` checks every value
against the per-query functions of :mod:`ragmetrics.metrics` under every policy, and
``tests/unit/evaluation/test_engine_paths.py`` every fast path against the plain one.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import InputValueError
from ..metrics.gains import grade_gains
from ..metrics.ranked import Qrels, RankedJudgments, TieBlocks, ranks_within
from ..metrics.registry import MetricSpec
from ..validation import check_total_gain
from . import fast_paths
from .inputs import Columns, check_same_kinds, id_kind
from .joins import HashCollision, Ids, Judgments, doc_ids, exact_codes, repeats
from .ranking import RankedRows, rank_rows

__all__ = ["Coverage", "JudgedQueries", "Prepared", "ReadRows", "natural_order", "rank_and_judge",
           "read_depth", "tie_order"]

#: What each grade adds to DCG (kept here under its old name for the curves).
gains = grade_gains


def read_depth(specs: list[MetricSpec], num_relevant: np.ndarray,
               max_retrieved: int | None = None) -> int | None:
    """How deep into each query's ranking the metrics read (None: to the end).

    The deepest cut-off among the metrics (R-precision: the largest number of relevant
    docs); a metric without a cut-off (``"rr"``, ``"ap"``, ``"ndcg"``) reads everything;
    never deeper than ``max_retrieved``.
    """
    depths = [spec.depth(num_relevant) for spec in specs]
    depth = None if None in depths else max(depths, default=1)
    if max_retrieved is not None:
        depth = max_retrieved if depth is None else min(depth, max_retrieved)
    return depth


@dataclass
class JudgedQueries:
    """The judged queries, numbered ``0 .. n - 1``, and what the metrics need of them."""

    ids: np.ndarray  # object: the id of each code
    code_of: dict  # id -> code
    qrels: Columns
    qrels_codes: np.ndarray  # the code of each qrels row
    qrels_docs: Ids  # the qrels' doc ids, hashed
    num_relevant: np.ndarray
    max_grade: float | None

    @property
    def n(self) -> int:
        return len(self.ids)


def judge_queries(qrels: Columns, relevance_level: float) -> JudgedQueries:
    """Number the judged queries and count their relevant docs.

    Ids are hashed (``pd.factorize``), never sorted as Python objects row by row; a
    query given with an empty golden set (``{"q2": set()}``) is judged, with no doc.
    """
    codes, judged = pd.factorize(qrels.query)
    code_of = {q: code for code, q in enumerate(np.asarray(judged, dtype=object))}
    for q in qrels.bare_queries:
        code_of.setdefault(q, len(code_of))
    ids = np.fromiter(code_of, object, len(code_of))
    num_relevant = np.bincount(codes, weights=qrels.value >= relevance_level,
                               minlength=len(ids))
    max_grade = float(qrels.value.max()) if len(qrels.value) else None
    return JudgedQueries(ids, code_of, qrels, codes, doc_ids(qrels.doc, "qrels"),
                         num_relevant, max_grade)


@dataclass
class Coverage:
    """Which queries the run and the judgments share."""

    block_query: np.ndarray  # the judged code of each ranked block of the run, -1 if none
    in_run: np.ndarray  # per judged query: does the run have it (perhaps empty)?
    unjudged: tuple  # the run's queries without judgments, in first-seen order
    query_kind: str | None  # 'str' or 'int'


def cover_queries(run: Columns, ranked: RankedRows, judged: JudgedQueries) -> Coverage:
    """Match each block of the ranked run with a judged query (or with none)."""
    heads = run.query.take(ranked.heads)
    query_kind = run.query_kind if run.queries_checked else id_kind(
        heads, "query_id", "run", rows=ranked.heads)
    head_ids = heads.to_numpy(dtype=object)
    block_query = np.fromiter(map(judged.code_of.get, head_ids, repeat(-1)), np.int64,
                              len(head_ids))
    unjudged = tuple(dict.fromkeys([
        *head_ids[block_query < 0],
        *(q for q in run.bare_queries if q not in judged.code_of),
    ]))
    in_run = np.zeros(judged.n, dtype=bool)
    in_run[block_query[block_query >= 0]] = True
    in_run[[judged.code_of[q] for q in run.bare_queries if q in judged.code_of]] = True
    return Coverage(block_query, in_run, unjudged, query_kind or judged.qrels.query_kind)


@dataclass
class ReadRows:
    """The rows read, in rank order: what :func:`read_rows` returns."""

    query: np.ndarray  # the judged code of each row
    grade: np.ndarray  # its grade (only positive grades unless `judged` is given)
    judged: np.ndarray | None  # whether its doc is judged at all
    ties: TieBlocks | None  # under ties="average": the blocks of tied scores
    coverage: Coverage


def read_rows(run: Columns, judged: JudgedQueries, conventions: Conventions,
              depth: int | None, *, every_grade: bool = False) -> ReadRows | None:
    """Each row read, in rank order, judged, and the coverage.

    ``every_grade`` asks for every judged grade (0 and below too) and which docs are
    judged at all, for the metrics that tell unjudged docs apart; otherwise only positive
    grades are looked up (the common case, and the faster one).

    None when ``duplicates="keep_first"`` dropped a repeated doc above ``depth``: then
    deeper rows move up, and the caller reads again, everything.
    """
    removed = conventions.unjudged == "removed"
    every_grade = every_grade or removed
    ranked = rank_rows(run.query, run.value, depth)
    coverage = cover_queries(run, ranked, judged)
    rows, row_block, row_score = ranked.rows, ranked.block, ranked.score
    judged_rows = coverage.block_query[row_block] >= 0
    if not judged_rows.all():  # else no copy: every row read is a judged query's
        rows, row_block, row_score = rows[judged_rows], row_block[judged_rows], row_score[judged_rows]
    row_q = coverage.block_query[row_block]

    # Doc ids: only those of the rows read are checked, hashed and matched; when those
    # are all the run's rows, in its order, the column itself (taking ten million
    # objects into a new array touches each of them).
    qrels_docs = judged.qrels_docs
    if len(rows) == len(run.doc):  # every row: the column itself, its hashes taken
        docs = doc_ids(run.doc, "run", against=qrels_docs)
        if not bool((rows[1:] > rows[:-1]).all()):  # not in the run's order
            docs = docs.take(rows, keep_groups=True)
    else:
        docs = doc_ids(run.doc.take(rows), "run", rows, against=qrels_docs)
    if not fast_paths.ENABLED:  # the plain path: exact codes, no hash to check
        qrels_docs, docs = exact_codes(qrels_docs, docs)
    check_same_kinds((coverage.query_kind, docs.kind), (judged.qrels.query_kind, qrels_docs.kind))
    try:
        row_grade, row_judged = _grades(judged, row_q, docs, qrels_docs, every_grade)
    except HashCollision:
        qrels_docs, docs = exact_codes(qrels_docs, docs)
        row_grade, row_judged = _grades(judged, row_q, docs, qrels_docs, every_grade)

    moves = tie_order(conventions.ties, row_block, row_score, row_grade, docs)
    if moves is not None:  # in place: only the tied rows move, and these arrays are ours
        moved, source = moves
        for column in (row_q, row_grade, row_block, row_score, row_judged):
            if column is not None:
                column[moved] = column[source]
        docs = docs.move(moved, source)
    rows = _Rows(row_q, row_grade, row_block, row_score, row_judged, docs)

    cut_first = conventions.max_retrieved is not None and conventions.duplicates == "error"
    if cut_first:  # trec_eval -M: a doc repeated below the cut is never seen
        rows = rows.top(conventions.max_retrieved, conventions.ties, judged)
    try:
        repeated = repeats(rows.query, rows.docs, judged.n)
    except HashCollision:
        _, exact = exact_codes(qrels_docs, rows.docs)
        repeated = repeats(rows.query, exact, judged.n)
    if len(repeated):
        if conventions.duplicates == "error":
            i = repeated[0]
            raise InputValueError(
                f"doc id {rows.docs.value_at(i)!r} appears more than once in the run for query "
                f"{judged.ids[rows.query[i]]!r}; pass duplicates='keep_first' to keep the "
                "highest-ranked copy"
            )
        if depth is not None:
            return None
        keep = np.ones(len(rows.query), dtype=bool)
        keep[repeated] = False
        rows = rows.where(keep)
    if conventions.max_retrieved is not None and not cut_first:
        rows = rows.top(conventions.max_retrieved, conventions.ties, judged)
    if removed:  # trec_eval -J: only judged docs (grade 0 and up) stay, in rank order
        rows = rows.where(rows.judged & (rows.grade >= 0))
    ties = rows.tie_blocks() if conventions.ties == "average" else None
    return ReadRows(rows.query, rows.grade, rows.judged if every_grade else None, ties,
                    coverage)


@dataclass
class _Rows:
    """The rows read, while they are cut, filtered and checked."""

    query: np.ndarray
    grade: np.ndarray
    block: np.ndarray
    score: np.ndarray
    judged: np.ndarray | None
    docs: Ids

    def where(self, keep: np.ndarray) -> _Rows:
        return _Rows(self.query[keep], self.grade[keep], self.block[keep], self.score[keep],
                     None if self.judged is None else self.judged[keep], self.docs.take(keep))

    def ranks(self) -> np.ndarray:
        """Each row's place in its ranking (0 first)."""
        if not len(self.block):
            return np.zeros(0, np.int64)
        starts = np.flatnonzero(np.r_[True, self.block[1:] != self.block[:-1]])
        return ranks_within(np.diff(np.append(starts, len(self.block))))

    def top(self, depth: int, ties: str, judged: JudgedQueries) -> _Rows:
        """Each ranking's top ``depth`` rows. Under ``ties="average"``, a cut through
        tied scores is an error: which of the tied docs count would be chance."""
        rank = self.ranks()
        keep = rank < depth
        if ties == "average":
            last = np.flatnonzero(keep & (rank == depth - 1))
            below = last + 1
            inside = below < len(rank)
            last, below = last[inside], below[inside]
            split = (self.block[below] == self.block[last]) & (self.score[below] == self.score[last])
            if split.any():
                query = judged.ids[self.query[last[split][0]]]
                raise InputValueError(
                    f"max_retrieved={depth} cuts through tied scores in query {query!r}: "
                    "under ties='average' which of the tied docs count would be left to "
                    "chance; choose another max_retrieved, or another tie rule")
        return self.where(keep)

    def tie_blocks(self) -> TieBlocks:
        tied = _tie_runs(self.block, self.score)
        if tied is None:
            tied = (np.zeros(0, np.int64), np.zeros(0, np.int64))
        return TieBlocks.from_runs(len(self.block), *tied)


def _grades(judged: JudgedQueries, row_q, docs: Ids, qrels_docs: Ids, every_grade: bool):
    judgments, repeated = Judgments.build(judged.qrels_codes, qrels_docs, judged.qrels.value,
                                          judged.n)
    if repeated >= 0:
        raise InputValueError(
            f"qrels judge doc {judged.qrels.doc.iloc[repeated]!r} more than once for "
            f"query {judged.qrels.query.iloc[repeated]!r}; each (query, doc) pair takes "
            "one grade"
        )
    if not every_grade:
        return judgments.gains_of(row_q, docs), None
    return judgments.grades_of(row_q, docs)


def tie_order(ties: str, row_block, row_score, row_grade,
              docs: Ids) -> tuple[np.ndarray, np.ndarray] | None:
    """How the tie rule reorders tied rows: ``(rows, sources)``, row ``rows[i]`` taking
    what row ``sources[i]`` holds; None to keep every row where it is."""
    if ties in ("input_order", "average"):  # average: the order within a tie is moot
        return None
    tied = _tie_runs(row_block, row_score)
    if tied is None:
        return None
    starts, lengths = tied
    members = np.repeat(starts, lengths) + ranks_within(lengths)
    group = np.repeat(np.arange(len(starts)), lengths)
    if ties in ("trec_eval", "doc_id_ascending"):
        # Doc id descending (ascending) as strings (int ids too, as trec_eval compares
        # them): sort the tied ids only, as fixed-width unicode, compared in C.
        text_rank = _text_ranks(docs, members)
        if ties == "trec_eval":
            np.subtract(len(members) - 1, text_rank, out=text_rank)
        # One int64 key (tie, place of the id): a stable argsort of it is the lexsort
        # of the two, several times faster.
        key = group * len(members)
        key += text_rank
        return members, members[np.argsort(key, kind="stable")]
    if ties == "optimistic":  # by gain: grades of 0 and below count alike
        secondary = -np.maximum(row_grade[members], 0.0)
    else:
        secondary = np.maximum(row_grade[members], 0.0)
    return members, members[np.lexsort((secondary, group))]


def _text_ranks(docs: Ids, members: np.ndarray) -> np.ndarray:
    """The place of each member's doc id among the members' ids sorted as text."""
    group, distinct = getattr(docs, "group", None), getattr(docs, "distinct", None)
    if group is None:
        texts = docs.value_at(members).astype(str)
        text_rank = np.empty(len(texts), np.int64)
        text_rank[np.argsort(texts, kind="stable")] = np.arange(len(texts))
        return text_rank
    # Rows share objects: sort each distinct object once, read in address order.
    objects = group[members]
    needed = np.zeros(len(distinct), dtype=bool)
    needed[objects] = True
    which = np.flatnonzero(needed)
    texts = distinct[which].astype(str)
    rank = np.empty(len(distinct), np.int64)
    rank[which[np.argsort(texts, kind="stable")]] = np.arange(len(which))
    return rank[objects]


def _tie_runs(block: np.ndarray, score: np.ndarray):
    """(starts, lengths) of the runs of equal scores within a query, or None if none."""
    if len(block) < 2:
        return None
    same = (block[1:] == block[:-1]) & (score[1:] == score[:-1])
    if not same.any():
        return None
    edges = np.diff(np.r_[0, same.astype(np.int8), 0])
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return starts, ends - starts + 1


def ideal_rankings(judged: JudgedQueries, conventions: Conventions, *,
                   check_totals: bool) -> RankedJudgments:
    """Each judged query's best ranking: its docs with a gain, best first.

    Under ``ideal_order="label_order"`` (Spark's): its relevant docs in the order the
    judgments list them, as Spark's ndcgAt reads its labels.
    """
    qrels_gains = grade_gains(judged.qrels.value, conventions.gain)
    if check_totals:
        _check_total_gains(judged, qrels_gains, conventions.gain)
    by_label = conventions.ideal_order == "label_order"
    keep = (judged.qrels.value >= conventions.relevance_level) if by_label else qrels_gains > 0
    query, gain, grade = (judged.qrels_codes[keep], qrels_gains[keep],
                          judged.qrels.value[keep])
    order = np.argsort(query, kind="stable") if by_label else np.lexsort((-gain, query))
    return RankedJudgments(judged.n, query=query[order], grade=grade[order], gain=gain[order],
                           num_relevant=judged.num_relevant,
                           relevance_level=conventions.relevance_level)


def _check_total_gains(judged: JudgedQueries, qrels_gains: np.ndarray, gain: str) -> None:
    """Refuse gains that add up past the largest float: nDCG would be inf / inf."""
    totals = np.bincount(judged.qrels_codes, weights=qrels_gains, minlength=judged.n)
    if np.isfinite(totals).all():
        return
    query = int(np.flatnonzero(~np.isfinite(totals))[0])
    grades = judged.qrels.value[judged.qrels_codes == query]
    check_total_gain(grades, gain, where=f"query {judged.ids[query]!r}: ")
    raise AssertionError("unreachable: the totals overflow, so the check raises")


@dataclass
class Prepared:
    """What :func:`rank_and_judge` returns: the kernels' input and the coverage."""

    ranked: RankedJudgments
    judged: JudgedQueries
    coverage: Coverage
    depth: int | None

    @property
    def empty(self) -> np.ndarray:
        """Judged queries with no relevant doc."""
        return self.judged.num_relevant == 0

    def index(self) -> pd.Index:
        """The judged query ids as the per-query frame's index (ints stay ints)."""
        ids = self.judged.ids
        if self.coverage.query_kind == "int":
            return pd.Index(ids.astype(np.int64), name="query_id")
        return pd.Index(ids.astype(object), name="query_id", dtype=object)

    def natural_order(self) -> np.ndarray:
        """The query codes in the output's order (:func:`natural_order`)."""
        return natural_order(self.judged.ids)

    def ids(self, mask: np.ndarray) -> tuple:
        """The judged query ids where ``mask`` holds, in the natural order."""
        order = self.natural_order()
        return tuple(self.judged.ids[order[mask[order]]].tolist())


def natural_order(ids: np.ndarray) -> np.ndarray:
    """The order :func:`ragmetrics.evaluate` lists queries in: as numbers when every id
    is a run of ASCII digits (``"2"`` before ``"10"``), equal numbers by their text
    (``"0"`` before ``"00"``), else as text.

    >>> natural_order(np.array(["10", "2", "1"], dtype=object)).tolist()
    [2, 1, 0]
    >>> natural_order(np.array(["00", "0", "1"], dtype=object)).tolist()
    [1, 0, 2]
    >>> natural_order(np.array(["q10", "q2", "1_0"], dtype=object)).tolist()
    [2, 0, 1]
    """
    ids = np.asarray(ids, dtype=object)
    if len(ids) and set(map(type, ids)) <= {int, np.int64}:  # int ids: no text needed
        try:
            numbers = np.fromiter(ids, np.int64, len(ids))
        except OverflowError:  # past int64: as text, below
            numbers = None
        if numbers is not None and numbers.min() >= 0:  # digits only: as numbers
            return np.argsort(numbers, kind="stable")  # distinct: no text to break ties
    texts = ids.astype(str)
    text_order = np.argsort(texts, kind="stable")
    if not all(i.isascii() and i.isdigit() for i in texts) or not len(texts):
        return text_order
    try:
        numbers = np.array([int(i) for i in texts], dtype=np.int64)
    except OverflowError:  # past int64: as text
        return text_order
    # Text order first, then a stable sort by number: equal numbers keep the text order.
    return text_order[np.argsort(numbers[text_order], kind="stable")]


def rank_and_judge(run: Columns, qrels: Columns, conventions: Conventions,
                   specs: list[MetricSpec]) -> Prepared:
    """Every judged query's ranking, read to the metrics' depth and judged."""
    judged = judge_queries(qrels, conventions.relevance_level)
    if conventions.ties == "average":
        _check_average_ties(specs)
    depth = read_depth(specs, judged.num_relevant, conventions.max_retrieved)
    every_grade = any("judged" in spec.needs for spec in specs)
    read = read_rows(run, judged, conventions, depth, every_grade=every_grade)
    if read is None:  # keep_first dropped a repeat, so deeper rows move up: read all
        depth = None
        read = read_rows(run, judged, conventions, None, every_grade=every_grade)
    ideal = ideal_rankings(judged, conventions,
                           check_totals=any(spec.info.uses_gains for spec in specs))
    if conventions.gain == "linear" and not (read.grade < 0).any():
        row_gain = read.grade  # the grades are the gains: no copy of a column (read only)
    else:
        row_gain = grade_gains(read.grade, conventions.gain)
    if conventions.ideal_order == "label_order":  # Spark: only its labels (relevant) gain
        row_gain = np.where(read.grade >= conventions.relevance_level, row_gain, 0.0)
    ranked = RankedJudgments(judged.n, query=read.query, grade=read.grade, gain=row_gain,
                             num_relevant=judged.num_relevant,
                             relevance_level=conventions.relevance_level, ideal=ideal,
                             judged=read.judged, qrels=Qrels(judged.qrels_codes,
                                                             judged.qrels.value),
                             gain_rule=conventions.gain, ties=read.ties,
                             run_id=run.run_name)
    return Prepared(ranked, judged, read.coverage, depth)


def _check_average_ties(specs: list[MetricSpec]) -> None:
    """ties="average" takes a mean over orders: name the metrics that have none (text)."""
    without = [str(spec) for spec in specs if not spec.info.average_ties]
    if without:
        raise InputValueError(
            "ties='average' has no mean over the orders of the tied docs for "
            + ", ".join(map(repr, without)) + " (a text, not a number); score it under "
            "another tie rule, e.g. 'trec_eval'")
