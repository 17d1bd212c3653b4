"""The engine behind :func:`ragmetrics.evaluate`: all queries at once, in NumPy.

The run is ranked (query, then score; :mod:`._ranking`) and cut to the rows the metrics
read, those rows are matched with the judgments (:mod:`._join`), tied scores are
ordered by the tie rule, and every metric becomes a weighted ``np.bincount`` over the
ranked rows: no Python loop runs per query. ``tests/test_evaluate.py`` checks that every
value equals the per-query functions of :mod:`ragmetrics.metrics` under every policy.
"""

from __future__ import annotations

from itertools import repeat

import numpy as np
import pandas as pd

from ._inputs import Columns, check_ids, check_same_kinds
from ._join import HashCollision, Judgments, doc_ids, exact_codes, repeats
from ._ranking import groups, rank_rows, ranks_within
from ._validation import check_total_gain
from .errors import InputValueError
from .policies import Conventions
from .registry import MetricSpec


def read_depth(specs: list[MetricSpec], num_rel: np.ndarray) -> int | None:
    """How deep into each query's ranking the metrics read (None: to the end).

    R-precision reads down to the query's number of relevant docs; a metric without a
    cut-off (``"mrr"``, ``"map"``, ``"ndcg"``) reads everything.
    """
    depths = []
    for spec in specs:
        if spec.name == "r_precision":
            depths.append(max(int(num_rel.max(initial=0)), 1))
        elif spec.k is None:
            return None
        else:
            depths.append(spec.k)
    return max(depths, default=1)


class Engine:
    """Ranked rows of all judged queries, and per-query totals, ready for any metric.

    Query codes ``0..Q-1`` number the judged queries; arrays named ``row_*`` are aligned
    with the ranked rows that the metrics read (grouped by query, then by rank).
    """

    def __init__(self, run: Columns, qrels: Columns, conventions: Conventions,
                 specs: list[MetricSpec]):
        self.conventions = conventions
        level = conventions.relevance_level

        # Judged queries, numbered 0..Q-1. Ids are hashed (pd.factorize), never sorted as
        # Python objects row by row; only the Q distinct ids are sorted, for the output.
        q_codes, judged = pd.factorize(qrels.query)
        judged = np.asarray(judged, dtype=object)  # Arrow ids too: iterated below
        self._judged_code = {q: code for code, q in enumerate(judged)}
        for q in qrels.bare_queries:  # judged, with an empty golden set
            self._judged_code.setdefault(q, len(self._judged_code))
        self.judged = np.fromiter(self._judged_code, object, len(self._judged_code))
        self.n_queries = n = len(self.judged)
        self.num_rel = np.bincount(q_codes, weights=qrels.value >= level, minlength=n)
        self.max_grade = float(qrels.value.max()) if len(qrels.value) else None
        self.empty = self.num_rel == 0
        self._qrels, self._q_codes, self._qrels_docs = qrels, q_codes, doc_ids(qrels.doc,
                                                                              "qrels")

        self.depth = depth = read_depth(specs, self.num_rel)
        rows = self._rank(run, depth)
        if rows is None:  # keep_first dropped a repeat, so deeper rows move up: read all
            rows = self._rank(run, None)
        row_q, row_grade, self.row_starts, self.row_counts = rows
        self.row_q = row_q
        self.row_rank = ranks_within(self.row_counts)  # 0-based
        self.row_grade = row_grade
        self.row_rel = row_grade >= level
        self.row_gain = _gains(row_grade, conventions.gain)
        self.row_discount = 1.0 / np.log2(self.row_rank + 2.0)

        # Ideal ranking: each query's positive gains, best first.
        gains = _gains(qrels.value, conventions.gain)
        if any(spec.name == "ndcg" for spec in specs):
            self._check_total_gains(q_codes, gains)
        positive = gains > 0
        ideal_q, ideal_gain = q_codes[positive], gains[positive]
        ideal_order = np.lexsort((-ideal_gain, ideal_q))
        self.ideal_q, self.ideal_gain = ideal_q[ideal_order], ideal_gain[ideal_order]
        self.ideal_rank = ranks_within(groups(self.ideal_q)[1])
        self._cache: dict = {}

        self.natural_order = _natural_key(self.judged)
        self.output_order = self.natural_order
        if conventions.missing_from_run == "skip":
            self.output_order = self.output_order[self.in_run[self.output_order]]

    def _check_total_gains(self, q_codes: np.ndarray, gains: np.ndarray) -> None:
        """Refuse gains that add up past the largest float: nDCG would be inf / inf."""
        totals = np.bincount(q_codes, weights=gains, minlength=self.n_queries)
        if np.isfinite(totals).all():
            return
        query = int(np.flatnonzero(~np.isfinite(totals))[0])
        grades = self._qrels.value[q_codes == query]
        check_total_gain(grades, self.conventions.gain, where=f"query {self.judged[query]!r}: ")
        raise AssertionError("unreachable: the totals overflow, so the check raises")

    def _rank(self, run: Columns, depth: int | None):
        """(row_q, row_grade, starts, counts) of the rows read, or None to read deeper."""
        ranked = rank_rows(run.query, run.value, depth)

        # Each block's query: judged ones get their code, the rest are reported.
        heads = run.query.take(ranked.heads)
        query_kind = run.query_kind if run.queries_checked else check_ids(
            heads, "query_id", "run", rows=ranked.heads)
        self.query_kind = query_kind or self._qrels.query_kind
        head_ids = heads.to_numpy(dtype=object)
        block_q = np.fromiter(map(self._judged_code.get, head_ids, repeat(-1)), np.int64,
                              len(head_ids))  # -1: not judged
        self.unjudged = tuple(dict.fromkeys([
            *head_ids[block_q < 0],
            *(q for q in run.bare_queries if q not in self._judged_code),
        ]))
        self.in_run = np.zeros(self.n_queries, dtype=bool)
        self.in_run[block_q[block_q >= 0]] = True
        bare_in_run = [self._judged_code[q] for q in run.bare_queries if q in self._judged_code]
        self.in_run[bare_in_run] = True  # given, but empty
        self.missing_from_run = ~self.in_run

        judged_rows = block_q[ranked.block] >= 0
        rows, row_block = ranked.rows[judged_rows], ranked.block[judged_rows]
        row_q, row_score = block_q[row_block], ranked.score[judged_rows]

        # Doc ids: only those of the rows read are checked, hashed and matched.
        doc_column = run.doc.take(rows)
        docs, qrels_docs = doc_ids(doc_column, "run", rows), self._qrels_docs
        check_same_kinds((query_kind, docs.kind), (self._qrels.query_kind, qrels_docs.kind))
        try:
            row_grade = self._grades(row_q, docs, qrels_docs)
        except HashCollision:
            qrels_docs, docs = exact_codes(qrels_docs, docs)
            row_grade = self._grades(row_q, docs, qrels_docs)

        perm = self._tie_order(row_block, row_score, row_grade, docs.values)
        if perm is not None:
            row_q, row_grade, row_block = row_q[perm], row_grade[perm], row_block[perm]
            docs = type(docs)(docs.values[perm], docs.hashes[perm])

        try:
            repeated = repeats(row_q, docs, self.n_queries)
        except HashCollision:
            _, docs = exact_codes(qrels_docs, docs)
            repeated = repeats(row_q, docs, self.n_queries)
        if len(repeated):
            if self.conventions.duplicates == "error":
                i = repeated[0]
                raise InputValueError(
                    f"doc id {docs.values[i]!r} appears more than once in the run for query "
                    f"{self.judged[row_q[i]]!r}; pass duplicates='keep_first' to keep the "
                    "highest-ranked copy"
                )
            if depth is not None:
                return None
            keep = np.ones(len(row_q), dtype=bool)
            keep[repeated] = False
            row_q, row_grade, row_block = row_q[keep], row_grade[keep], row_block[keep]
        starts, counts = groups(row_block)
        return row_q, row_grade, starts, counts

    def _grades(self, row_q, docs, qrels_docs) -> np.ndarray:
        judgments, repeated = Judgments.build(self._q_codes, qrels_docs, self._qrels.value,
                                                self.n_queries)
        if repeated >= 0:
            raise InputValueError(
                f"qrels judge doc {self._qrels.doc.iloc[repeated]!r} more than once for "
                f"query {self._qrels.query.iloc[repeated]!r}; each (query, doc) pair takes "
                "one grade"
            )
        return judgments.gains_of(row_q, docs)

    def _tie_order(self, row_block, row_score, row_grade, doc_values):
        """The permutation that orders tied rows by the tie rule, or None to keep them."""
        tied = _tie_runs(row_block, row_score)
        if tied is None or self.conventions.ties == "input_order":
            return None
        starts, lengths = tied
        members = np.repeat(starts, lengths) + ranks_within(lengths)
        group = np.repeat(np.arange(len(starts)), lengths)
        if self.conventions.ties == "trec_eval":
            # Doc id descending as strings (int ids too, as trec_eval compares them):
            # sort the tied ids only, as fixed-width unicode, compared in C.
            texts = doc_values[members].astype(str)
            text_rank = np.empty(len(texts), np.int64)
            text_rank[np.argsort(texts, kind="stable")] = np.arange(len(texts))
            secondary = -text_rank
        elif self.conventions.ties == "optimistic":
            secondary = -row_grade[members]
        else:
            secondary = row_grade[members]
        perm = np.arange(len(row_block))
        perm[members] = members[np.lexsort((secondary, group))]
        return perm

    # -- building blocks, cached per cut-off ------------------------------------------

    def _sum(self, weights, k=None, *, ideal=False) -> np.ndarray:
        q, rank = (self.ideal_q, self.ideal_rank) if ideal else (self.row_q, self.row_rank)
        if k is not None:
            weights = weights * (rank < k)
        return np.bincount(q, weights=weights, minlength=self.n_queries)

    def hits(self, k):
        if ("hits", k) not in self._cache:
            self._cache["hits", k] = self._sum(self.row_rel, k)
        return self._cache["hits", k]

    def _divide(self, num, den):
        return np.divide(num, den, out=np.zeros(self.n_queries), where=den > 0)

    # -- metrics ----------------------------------------------------------------------

    def metric(self, spec: MetricSpec) -> np.ndarray:
        k = spec.k
        if spec.name == "recall":
            values = self._divide(self.hits(k), self.num_rel)
        elif spec.name == "precision":
            values = self.hits(k) / k
        elif spec.name == "hit_rate":
            values = (self.hits(k) > 0).astype(np.float64)
        elif spec.name == "mrr":
            values = self._reciprocal_rank(k)
        elif spec.name == "ndcg":
            dcg = self._sum(self.row_gain * self.row_discount, k)
            ideal = self._sum(self.ideal_gain / np.log2(self.ideal_rank + 2.0), k, ideal=True)
            values = self._divide(dcg, ideal)
        elif spec.name == "map":
            values = self._average_precision(k)
        elif spec.name == "r_precision":
            within_r = self.row_rank < self.num_rel[self.row_q]
            values = self._divide(self._sum(self.row_rel & within_r), self.num_rel)
        else:  # pragma: no cover - parse_metrics only lets known names through
            raise AssertionError(spec)
        if np.isnan(values).any():  # never a NaN that no "skip" policy asked for
            q = self.judged[np.flatnonzero(np.isnan(values))[0]]
            raise ArithmeticError(f"{spec} is NaN for query {q!r} before any policy: a bug")
        return self._apply_policies(values, spec)

    def _reciprocal_rank(self, k):
        rel = self.row_rel if k is None else self.row_rel & (self.row_rank < k)
        rows = np.flatnonzero(rel)
        q = self.row_q[rows]
        first = rows[np.r_[True, q[1:] != q[:-1]]] if len(rows) else rows
        values = np.zeros(self.n_queries)
        values[self.row_q[first]] = 1.0 / (self.row_rank[first] + 1.0)
        return values

    def _average_precision(self, k):
        rel = self.row_rel if k is None else self.row_rel & (self.row_rank < k)
        found = np.cumsum(rel)
        # Relevant docs found so far within the query: subtract the count before its start.
        before = np.r_[0, found][self.row_starts]
        found_in_query = found - np.repeat(before, self.row_counts)
        precision_at_hit = np.where(rel, found_in_query / (self.row_rank + 1.0), 0.0)
        return self._divide(self._sum(precision_at_hit), self.num_rel)

    def _apply_policies(self, values: np.ndarray, spec: MetricSpec) -> np.ndarray:
        policy = self.conventions.empty_relevant
        if policy == "error" and self.empty.any():
            q = self.judged[np.flatnonzero(self.empty)[0]]
            raise InputValueError(
                f"query {q!r} has no relevant doc (no grade reaches relevance_level "
                f"{self.conventions.relevance_level}); pass empty_relevant='zero', 'article' "
                "or 'skip' to score it"
            )
        if policy == "article":
            values = np.where(self.empty, 1.0 if spec.name in ("recall", "ndcg") else 0.0, values)
        elif policy == "skip":
            values = np.where(self.empty, np.nan, values)
        if self.conventions.missing_from_run == "skip":
            values = np.where(self.in_run, values, np.nan)
        return values

    def ids(self, mask: np.ndarray) -> tuple:
        """The judged query ids where ``mask`` holds, in the output's natural order."""
        chosen = self.natural_order[mask[self.natural_order]]
        return tuple(self.judged[chosen].tolist())

    def index(self) -> pd.Index:
        ids = self.judged
        if self.query_kind == "int":
            return pd.Index(ids.astype(np.int64), name="query_id")
        return pd.Index(ids.astype(object), name="query_id", dtype=object)



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


def _gains(grades: np.ndarray, gain: str) -> np.ndarray:
    positive = np.maximum(grades, 0.0)  # negative grades add no gain
    if gain == "linear":
        return positive
    with np.errstate(over="ignore"):  # a grade of 1024 or more: inf, refused by the caller
        return np.exp2(positive) - 1.0


def _natural_key(ids: np.ndarray) -> np.ndarray:
    """Order ids as numbers when they all are, else as strings."""
    try:
        return np.argsort(np.array([int(i) for i in ids], dtype=np.int64), kind="stable")
    except (ValueError, OverflowError):
        return np.argsort(ids.astype(str), kind="stable")


