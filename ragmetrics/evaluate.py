"""Many-query evaluation, vectorized over all queries at once.

The run is joined to the judgments, sorted once (query, then score, then the tie rule),
and every metric becomes a weighted ``np.bincount`` over the ranked rows: no Python loop
runs per query. ``tests/test_evaluate.py`` checks that every value equals the per-query
functions of :mod:`ragmetrics.metrics` under every policy.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._inputs import Columns, check_same_kinds, qrels_columns, run_columns
from .policies import Conventions
from .registry import MetricSpec, parse_metrics

__all__ = ["CoverageWarning", "Evaluation", "evaluate"]


class CoverageWarning(UserWarning):
    """The run and the judgments do not cover the same queries."""


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`evaluate`.

    Attributes
    ----------
    per_query : pandas.DataFrame
        One row per evaluated query (index ``query_id``), one column per metric, named
        exactly as requested and in that order.
    summary : pandas.Series
        The mean of each column over the evaluated queries (NaNs, from ``"skip"``
        policies, left out).
    conventions : Conventions
        The policies the numbers were computed under.
    missing_from_run : tuple
        Judged queries absent from the run (scored 0 under ``missing_from_run="zero"``).
    missing_from_qrels : tuple
        Queries in the run without judgments: left out.
    empty_relevant : tuple
        Judged queries with no relevant doc (no grade reaches ``relevance_level``).
    """

    per_query: pd.DataFrame
    summary: pd.Series
    conventions: Conventions
    missing_from_run: tuple = field(default=())
    missing_from_qrels: tuple = field(default=())
    empty_relevant: tuple = field(default=())

    def __repr__(self) -> str:
        lines = [f"Evaluation over {len(self.per_query)} queries"]
        width = max((len(str(n)) for n in self.summary.index), default=0)
        lines += [f"  {name:<{width}}  {value:.4f}" for name, value in self.summary.items()]
        for label, ids in (
            ("missing from the run", self.missing_from_run),
            ("missing from the qrels (left out)", self.missing_from_qrels),
            ("with no relevant doc", self.empty_relevant),
        ):
            if ids:
                shown = ", ".join(map(str, ids[:5])) + (", ..." if len(ids) > 5 else "")
                lines.append(f"  {_count(len(ids))} {label}: {shown}")
        return "\n".join(lines)


def evaluate(
    run,
    qrels,
    metrics=("recall@10", "precision@10", "mrr", "ndcg@10"),
    *,
    relevance_level: float = 1,
    gain: str = "linear",
    ties: str = "trec_eval",
    duplicates: str = "error",
    empty_relevant: str = "zero",
    missing_from_run: str = "zero",
) -> Evaluation:
    """Score every query of a run against the judgments, with all metrics at once.

    Parameters
    ----------
    run : DataFrame or mapping
        ``query_id``, ``doc_id`` and ``score`` (or ``rank``) columns; or
        ``{query_id: [doc ids in rank order]}``; or ``{query_id: {doc_id: score}}``.
        With both ``score`` and ``rank``, the score decides (as in trec_eval).
    qrels : DataFrame or mapping
        ``query_id``, ``doc_id`` and ``relevance`` columns; or
        ``{query_id: {doc_id: grade}}``; or ``{query_id: set of relevant ids}``.
    metrics : sequence of str
        Names such as ``"recall@10"``, ``"precision@5"``, ``"hit_rate@3"``, ``"mrr"``,
        ``"mrr@10"``, ``"ndcg@10"``, ``"map"``, ``"map@100"``, ``"r_precision"``.
        The default is the article's four at k=10.
    relevance_level, gain, ties, duplicates, empty_relevant, missing_from_run
        The conventions of :mod:`ragmetrics.policies`; the defaults reproduce trec_eval
        (with ``-c``: judged queries absent from the run score 0 and count).

    Returns
    -------
    Evaluation
        ``.per_query`` (DataFrame) and ``.summary`` (Series), plus the queries that were
        missing or had no relevant doc. Coverage gaps also raise a :class:`CoverageWarning`.

    Examples
    --------
    >>> run = {"q1": ["a", "x", "b"], "q2": ["y", "c"]}
    >>> qrels = {"q1": {"a", "b"}, "q2": {"c"}}
    >>> result = evaluate(run, qrels, ["recall@2", "mrr"])
    >>> result.per_query  # doctest: +NORMALIZE_WHITESPACE
              recall@2  mrr
    query_id
    q1             0.5  1.0
    q2             1.0  0.5
    >>> result.summary
    recall@2    0.75
    mrr         0.75
    dtype: float64
    """
    conventions = Conventions(
        relevance_level=relevance_level,
        gain=gain,
        ties=ties,
        duplicates=duplicates,
        empty_relevant=empty_relevant,
        missing_from_run=missing_from_run,
    )
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    specs = parse_metrics(names)
    run_cols, qrels_cols = run_columns(run), qrels_columns(qrels)
    check_same_kinds(run_cols, qrels_cols)

    engine = _Engine(run_cols, qrels_cols, conventions)
    per_query = pd.DataFrame(
        {name: engine.metric(spec) for name, spec in zip(names, specs, strict=True)},
        index=engine.index(run_cols.query_kind or qrels_cols.query_kind),
    )
    per_query = per_query.iloc[engine.output_order]
    summary = per_query.mean(axis=0, skipna=True)
    result = Evaluation(
        per_query=per_query,
        summary=summary,
        conventions=conventions,
        missing_from_run=engine.ids(engine.missing_from_run),
        missing_from_qrels=engine.unjudged,
        empty_relevant=engine.ids(engine.empty),
    )
    _warn_coverage(result)
    return result


def _warn_coverage(result: Evaluation) -> None:
    parts = []
    if result.missing_from_run:
        how = "scored 0" if result.conventions.missing_from_run == "zero" else "left out"
        n = len(result.missing_from_run)
        parts.append(f"{_count(n, 'judged query', 'judged queries')} missing from the run ({how})")
    if result.missing_from_qrels:
        n = len(result.missing_from_qrels)
        parts.append(f"{_count(n)} of the run without judgments (left out)")
    if parts:
        warnings.warn("; ".join(parts) + "; see the Evaluation's attributes", CoverageWarning,
                      stacklevel=3)


def _count(n: int, one: str = "query", many: str = "queries") -> str:
    return f"{n} {one if n == 1 else many}"


def _natural_key(ids: np.ndarray) -> np.ndarray:
    """Order ids as numbers when they all are, else as strings."""
    try:
        return np.argsort(np.array([int(i) for i in ids], dtype=np.int64), kind="stable")
    except (ValueError, OverflowError):
        return np.argsort(ids.astype(str), kind="stable")


class _Engine:
    """Ranked rows of all judged queries, and per-query totals, ready for any metric.

    Query codes ``0..Q-1`` number the judged queries; arrays named ``row_*`` are aligned
    with the ranked run rows (sorted by query, then rank).
    """

    def __init__(self, run: Columns, qrels: Columns, conventions: Conventions):
        self.conventions = conventions
        level = conventions.relevance_level

        # Judged queries, numbered 0..Q-1. Ids are hashed (pd.factorize), never sorted as
        # Python objects row by row; only the Q distinct ids are sorted, for the output.
        q_codes, judged = pd.factorize(qrels.query)
        judged_set = set(judged)
        bare = [q for q in dict.fromkeys(qrels.bare_queries) if q not in judged_set]
        judged_set.update(bare)
        judged = np.asarray([*np.asarray(judged, dtype=object), *bare], dtype=object)
        self.judged = judged
        self.n_queries = n = len(judged)
        judged_index = pd.Index(judged, dtype=object)

        # Run rows of judged queries; the rest are reported and left out.
        run_q_codes, run_queries = pd.factorize(run.query)
        run_queries = np.asarray(run_queries, dtype=object)
        to_judged = judged_index.get_indexer(run_queries)
        self.unjudged = tuple(
            dict.fromkeys(
                [*run_queries[to_judged < 0], *(q for q in run.bare_queries if q not in judged_set)]
            )
        )
        rows = np.flatnonzero(to_judged[run_q_codes] >= 0) if len(run_q_codes) else run_q_codes
        row_block = run_q_codes[rows]  # first-appearance code: contiguous blocks if sorted
        row_q = to_judged[row_block]
        row_score = run.value[rows]

        # Doc codes shared by qrels and run, from one hash pass over both columns; a
        # (query, doc) pair packs into one int64 key.
        run_doc = run.doc if len(rows) == len(run.doc) else run.doc.iloc[rows]
        qrels_doc, doc_codes, doc_ids = _factorize_together(qrels.doc, run_doc)
        n_docs = len(doc_ids) + 1
        qrels_key_all = q_codes.astype(np.int64) * n_docs + qrels_doc
        _reject_duplicate_judgments(qrels, qrels_key_all)

        # Rank: within each query, score descending; ties by the tie rule (below).
        if _is_ranked(row_block, row_score):
            order = np.arange(len(rows))  # already in rank order: the common case, O(n)
        else:
            order = np.lexsort((-row_score, row_block))
        row_q, row_score, doc_codes, row_block = (
            row_q[order], row_score[order], doc_codes[order], row_block[order]
        )
        run_key = row_q.astype(np.int64) * n_docs + doc_codes

        # Grade of each ranked row: a sorted-key lookup into the judgments.
        key_order = np.argsort(qrels_key_all, kind="stable")
        keys_sorted, grades_sorted = qrels_key_all[key_order], qrels.value[key_order]
        row_grade = np.zeros(len(run_key))
        if len(keys_sorted):
            at = np.minimum(np.searchsorted(keys_sorted, run_key), len(keys_sorted) - 1)
            hit = keys_sorted[at] == run_key
            row_grade[hit] = grades_sorted[at[hit]]

        # Ties: reorder only the runs of equal scores within a query.
        tied = _tie_runs(row_block, row_score)
        if tied is not None and conventions.ties != "input_order":
            starts, lengths = tied
            members = np.repeat(starts, lengths) + _ranks_within(lengths)
            group = np.repeat(np.arange(len(starts)), lengths)
            if conventions.ties == "trec_eval":
                # Doc id descending as strings (int ids too, as trec_eval compares them):
                # sort the tied ids only, as fixed-width unicode, compared in C.
                tied_ids = np.asarray(doc_ids.take(doc_codes[members]), dtype=object)
                texts = tied_ids.astype(str)
                text_rank = np.empty(len(texts), np.int64)
                text_rank[np.argsort(texts, kind="stable")] = np.arange(len(texts))
                secondary = -text_rank
            else:
                secondary = -row_grade[members] if conventions.ties == "optimistic" else (
                    row_grade[members]
                )
            reordered = members[np.lexsort((secondary, group))]
            perm = np.arange(len(run_key))
            perm[members] = reordered
            row_q, row_grade, run_key, doc_codes = (
                row_q[perm], row_grade[perm], run_key[perm], doc_codes[perm]
            )
            row_block = row_block[perm]

        keep = self._apply_duplicate_policy(run_key, row_q, doc_codes, doc_ids)
        if keep is not None:
            row_q, row_grade, row_block = row_q[keep], row_grade[keep], row_block[keep]

        self.row_starts, self.row_counts = _groups(row_block)
        self.row_q = row_q
        self.row_rank = _ranks_within(self.row_counts)  # 0-based
        self.row_grade = row_grade
        self.row_rel = row_grade >= level
        self.row_gain = _gains(row_grade, conventions.gain)
        self.row_discount = 1.0 / np.log2(self.row_rank + 2.0)

        self.num_rel = np.bincount(q_codes, weights=qrels.value >= level, minlength=n)
        self.in_run = np.bincount(row_q, minlength=n) > 0
        bare_in_run = judged_index.get_indexer(pd.Index(list(run.bare_queries), dtype=object))
        self.in_run[bare_in_run[bare_in_run >= 0]] = True  # given, but empty
        self.empty = self.num_rel == 0
        self.missing_from_run = ~self.in_run

        # Ideal ranking: each query's positive gains, best first.
        gains = _gains(qrels.value, conventions.gain)
        positive = gains > 0
        ideal_q, ideal_gain = q_codes[positive], gains[positive]
        ideal_order = np.lexsort((-ideal_gain, ideal_q))
        self.ideal_q, self.ideal_gain = ideal_q[ideal_order], ideal_gain[ideal_order]
        self.ideal_rank = _ranks_within(_groups(self.ideal_q)[1])
        self._cache: dict = {}

        self.natural_order = _natural_key(judged)
        self.output_order = self.natural_order
        if conventions.missing_from_run == "skip":
            self.output_order = self.output_order[self.in_run[self.output_order]]

    def _apply_duplicate_policy(self, run_key, row_q, doc_codes, doc_ids):
        if len(run_key) == 0:
            return None
        sorted_keys = np.sort(run_key)
        if not (sorted_keys[1:] == sorted_keys[:-1]).any():
            return None
        _, first = np.unique(run_key, return_index=True)
        if self.conventions.duplicates == "error":
            dup = np.setdiff1d(np.arange(len(run_key)), first)[0]
            raise ValueError(
                f"doc id {doc_ids[doc_codes[dup]]!r} appears more than once in the run for "
                f"query {self.judged[row_q[dup]]!r}; pass duplicates='keep_first' to keep the "
                "highest-ranked copy"
            )
        return np.sort(first)  # the first copy in ranked order is the highest-ranked

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
            raise ValueError(
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

    def index(self, query_kind: str | None) -> pd.Index:
        ids = self.judged
        if query_kind == "int":
            return pd.Index(ids.astype(np.int64), name="query_id")
        return pd.Index(ids.astype(object), name="query_id", dtype=object)


def _is_ranked(block: np.ndarray, score: np.ndarray) -> bool:
    """True if rows come query by query, each in rank order (score not increasing)."""
    if len(block) < 2:
        return True
    same = block[1:] == block[:-1]
    return bool(np.all(block[1:] >= block[:-1]) and np.all(score[1:][same] <= score[:-1][same]))


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


def _groups(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, lengths) of the runs of equal codes in ``codes`` (rows grouped already)."""
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if len(codes) else codes
    return starts, np.diff(np.r_[starts, len(codes)]).astype(np.int64)


def _ranks_within(lengths: np.ndarray) -> np.ndarray:
    """0, 1, ..., n-1 for each group length n, concatenated."""
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(int(lengths.sum())) - offsets


def _gains(grades: np.ndarray, gain: str) -> np.ndarray:
    positive = np.maximum(grades, 0.0)  # negative grades add no gain
    return positive if gain == "linear" else np.exp2(positive) - 1.0


def _factorize_together(first: pd.Series, second: pd.Series):
    """Integer codes for two id columns, from one hash pass: equal ids get equal codes.

    Both columns hold the same kind of id (checked before), so the second takes the
    first's dtype; Arrow strings stay in Arrow, where pandas hashes them in C++.
    """
    if len(second) and second.dtype != first.dtype:
        second = second.astype(first.dtype)
    both = pd.concat([first, second], ignore_index=True)
    codes, uniques = pd.factorize(both)
    return codes[: len(first)], codes[len(first) :], uniques


def _reject_duplicate_judgments(qrels: Columns, key: np.ndarray) -> None:
    _, first = np.unique(key, return_index=True)
    if len(first) < len(key):
        i = int(np.setdiff1d(np.arange(len(key)), first)[0])
        raise ValueError(
            f"qrels judge doc {qrels.doc.iloc[i]!r} more than once for query "
            f"{qrels.query.iloc[i]!r}; each (query, doc) pair takes one grade"
        )
