"""A run over chunks, ranked: each query's chunks in rank order, checked once.

Any run shape :func:`ragmetrics.evaluate` takes works (a DataFrame with ``query_id``,
``doc_id`` and ``score`` or ``rank``; ``{query_id: [chunk ids]}``; ``{query_id:
{chunk_id: score}}``), its doc ids being chunk ids. Ranks follow the scores, ties ordered
by the same rules as :func:`ragmetrics.evaluate` (``ties="trec_eval"``: chunk id
descending as strings; ``"input_order"``: as given), and a chunk retrieved twice for one
query is an error or keeps its best rank (``duplicates``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..conventions import DUPLICATE_POLICIES, ORDER_POLICIES
from ..errors import InputValueError
from ..evaluation.inputs import id_kind, run_columns
from ..evaluation.ranking import groups, ranks_within
from ..validation import check_choice
from .tables import Chunks, check_same_kind

__all__ = ["SPAN_TIE_POLICIES", "RankedRun", "natural_order", "rank_run"]

#: Tie rules for runs over chunks: the two of :data:`ragmetrics.conventions.TIE_POLICIES`
#: that do not look at relevance ("optimistic" and "pessimistic" need chunk judgments,
#: which spans do not give).
SPAN_TIE_POLICIES = ("trec_eval", "input_order")


@dataclass(frozen=True)
class RankedRun:
    """Rows of a run in rank order, grouped by query (codes into ``queries``).

    ``rank`` is 0-based within the query. ``queries`` are the run's query ids in the
    order first seen, including queries given with no chunks at all.
    """

    queries: np.ndarray  # object
    query_kind: str | None
    query: np.ndarray  # int64, per row
    chunk: np.ndarray  # int64 code into the Chunks, per row
    score: np.ndarray  # float64, per row (-rank for runs given by rank)
    rank: np.ndarray  # int64, per row


def natural_order(ids: np.ndarray) -> np.ndarray:
    """The order :func:`ragmetrics.evaluate` lists queries in: as numbers when all are."""
    try:
        return np.argsort(np.array([int(i) for i in ids], dtype=np.int64), kind="stable")
    except (ValueError, OverflowError, TypeError):
        return np.argsort(np.asarray(ids, dtype=object).astype(str), kind="stable")


def _text_ranks(ids: np.ndarray) -> np.ndarray:
    """Rank of each id among all ids compared as strings (trec_eval's strcmp)."""
    ranks = np.empty(len(ids), dtype=np.int64)
    ranks[np.argsort(ids.astype(str), kind="stable")] = np.arange(len(ids))
    return ranks


def rank_run(run, chunks: Chunks, *, ties: str = "trec_eval", duplicates: str = "error",
             order_by: str = "score") -> RankedRun:
    """Rank a run over ``chunks``; every retrieved id must be one of the chunks.

    ``order_by`` is :func:`ragmetrics.evaluate`'s: a frame with both ``score`` and
    ``rank`` is ordered by the one named.

    Examples
    --------
    >>> from ragmetrics.spans.tables import as_chunks
    >>> chunks = as_chunks([{"chunk_id": c, "doc_id": "d", "start": 0, "end": 5}
    ...                     for c in ("a", "b", "c")])
    >>> ranked = rank_run({"q1": {"a": 0.5, "b": 0.9, "c": 0.5}}, chunks)
    >>> [chunks.ids[i] for i in ranked.chunk]  # b, then the tie c > a as trec_eval orders
    ['b', 'c', 'a']
    """
    check_choice(ties, SPAN_TIE_POLICIES, "ties")
    check_choice(duplicates, DUPLICATE_POLICIES, "duplicates")
    check_choice(order_by, ORDER_POLICIES, "order_by")
    if order_by == "rank_position":
        raise InputValueError(
            "order_by='rank_position' (msmarco_eval.py's list, with its empty positions) "
            "orders runs judged by doc ids; span metrics read the chunks in rank order: "
            "pass order_by='rank'")
    columns = run_columns(run, order_by=order_by, ties=ties)
    query_kind = columns.query_kind
    if not columns.queries_checked:
        query_kind = id_kind(columns.query, "query_id", "run")
    doc_kind = id_kind(columns.doc, "doc_id", "run")
    check_same_kind([("chunks", chunks.id_kind), ("run", doc_kind)], "chunk id")
    q_codes, queries = pd.factorize(columns.query)
    queries = np.asarray(queries, dtype=object)
    known = set(queries)
    bare = [q for q in dict.fromkeys(columns.bare_queries) if q not in known]
    if bare:
        queries = np.concatenate([queries, np.asarray(bare, dtype=object)])
        if query_kind is None:
            query_kind = id_kind(pd.Series(bare, dtype=object), "query_id", "run")
    chunk = chunks.index.get_indexer(pd.Index(columns.doc, dtype=object))
    unknown = np.flatnonzero(chunk < 0)
    if len(unknown):
        shown = ", ".join(f"{columns.doc.iloc[i]!r} (query {columns.query.iloc[i]!r})"
                          for i in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise InputValueError(
            f"the run retrieves {len(unknown)} ids that are not chunks of this chunking: "
            f"{shown}{more}; a run over chunks must use the chunk ids of its chunking")
    score = columns.value
    # trec_eval orders tied chunks by id descending (as strings); else keep the input order.
    by_id = ties == "trec_eval"
    secondary = -_text_ranks(chunks.ids)[chunk] if by_id else np.arange(len(chunk))
    order = np.lexsort((secondary, -score, q_codes))
    q_codes, chunk, score = q_codes[order], chunk[order], score[order]
    keys = q_codes.astype(np.int64) * max(len(chunks), 1) + chunk
    by_key = np.argsort(keys, kind="stable")
    repeated = by_key[1:][keys[by_key][1:] == keys[by_key][:-1]]
    if len(repeated):
        if duplicates == "error":
            i = int(repeated.min())
            raise InputValueError(
                f"chunk {chunks.ids[chunk[i]]!r} appears more than once in the run for query "
                f"{queries[q_codes[i]]!r}; pass duplicates='keep_first' to keep the "
                "highest-ranked copy")
        keep = np.ones(len(chunk), dtype=bool)
        keep[repeated] = False
        q_codes, chunk, score = q_codes[keep], chunk[keep], score[keep]
    _, counts = groups(q_codes)
    return RankedRun(queries, query_kind, q_codes.astype(np.int64), chunk.astype(np.int64),
                     score, ranks_within(counts))
