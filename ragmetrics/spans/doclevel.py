"""Document level: a run over chunks becomes a run over documents, evidence becomes qrels.

Often the question is not "which passage?" but "which document?" (the policy page, the
contract, the article). Every id-based metric then works at document level, whatever
the chunking, with :func:`document_run` and :func:`document_qrels`.

There is no standard way to rank documents from their chunks. Two are offered:

- ``how="first"``: a document ranks where its first (best-ranked) chunk ranks: the
  order in which a reader of the ranked chunks meets the documents;
- ``how="max"``: a document's score is its best chunk's score, and documents are ranked
  by that score (ties by :func:`ragmetrics.evaluate`'s tie rule, on document ids).

The two differ only where chunks of different documents tie in score. Summing chunk
scores is not offered: it favours documents with many weak chunks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InputValueError
from ..evaluation.engine import natural_order, tie_order
from ..evaluation.joins import Ids
from ..evaluation.ranking import groups, ranks_within
from ..validation import check_choice
from .model import as_chunks, as_documents, as_evidence, as_run, whole_grades

__all__ = ["DOCUMENT_RANKINGS", "document_qrels", "document_run"]

#: How :func:`document_run` ranks a document from its chunks.
DOCUMENT_RANKINGS = ("first", "max")


def _ids(values: np.ndarray, kind: str | None):
    return values.astype(np.int64) if kind == "int" and len(values) else values


def document_run(run, chunks, *, how: str = "first", ties: str = "trec_eval",
                 duplicates: str = "error", documents=None) -> pd.DataFrame:
    """A run over documents from a run over chunks.

    Parameters
    ----------
    run : DataFrame or mapping
        A run over chunks, in any shape :func:`ragmetrics.evaluate` takes.
    chunks, documents
        The chunking (:mod:`ragmetrics.spans.model`); documents only to locate chunks
        given by text.
    how : {"first", "max"}, default "first"
        ``"first"``: each document at the rank of its best-ranked chunk;
        ``"max"``: each document scored by its best chunk's score.
    ties : {"trec_eval", "input_order", "doc_id_ascending"}, default "trec_eval"
        As in :func:`ragmetrics.evaluate`: the order of chunks tied in score, and under
        ``how="max"`` of documents tied in score (by document id). The rules that look at
        relevance, or take a mean over orders, have no place in one ranking.
    duplicates
        As in :func:`ragmetrics.evaluate`, for the run over chunks.

    Returns
    -------
    pandas.DataFrame
        ``query_id, doc_id, rank`` (``how="first"``) or ``query_id, doc_id, score,
        rank`` (``how="max"``), each query's documents in rank order (rank 1 is best).

    Examples
    --------
    >>> chunks = [{"chunk_id": "p1", "doc_id": "policy", "start": 0, "end": 50},
    ...           {"chunk_id": "p2", "doc_id": "policy", "start": 50, "end": 90},
    ...           {"chunk_id": "f1", "doc_id": "faq", "start": 0, "end": 40}]
    >>> run = {"q1": {"p2": 0.9, "f1": 0.7, "p1": 0.7}}
    >>> document_run(run, chunks)
      query_id  doc_id  rank
    0       q1  policy     1
    1       q1     faq     2
    """
    check_choice(how, DOCUMENT_RANKINGS, "how")
    if ties in ("optimistic", "pessimistic", "average"):
        raise InputValueError(
            f"document_run makes one ranking of documents, with no judgments: ties={ties!r} "
            "has none; pass ties='trec_eval', 'input_order' or 'doc_id_ascending'")
    chunks = as_chunks(chunks, as_documents(documents))
    ranked = as_run(run, chunks, ties=ties, duplicates=duplicates)
    doc_codes, doc_ids = pd.factorize(pd.Index(chunks.doc, dtype=object))
    doc_ids = np.asarray(doc_ids, dtype=object)
    doc = doc_codes[ranked.chunk]
    n_docs = max(len(doc_ids), 1)
    keys = ranked.query * n_docs + doc
    _, first = np.unique(keys, return_index=True)
    first.sort()  # back in rank order: rows are grouped by query, best first
    query, doc, score = ranked.query[first], doc[first], ranked.score[first]
    if how == "max" and len(first):  # by score, ties by the tie rule on document ids
        order = np.lexsort((-score, query))
        query, doc, score = query[order], doc[order], score[order]
        moves = tie_order(ties, query, score, np.zeros(len(doc)),
                          Ids(doc_ids, doc, chunks.doc_kind, at=doc))
        if moves is not None:
            moved, source = moves
            doc[moved] = doc[source]
    rank = ranks_within(groups(query)[1]) + 1
    frame = pd.DataFrame({"query_id": _ids(ranked.queries[query], ranked.query_kind),
                          "doc_id": _ids(doc_ids[doc], chunks.doc_kind)})
    if how == "max":
        frame["score"] = score
    frame["rank"] = rank
    return frame


def document_qrels(evidence, *, documents=None) -> pd.DataFrame:
    """Document judgments from evidence: a document's grade is its best span's grade.

    Parameters
    ----------
    evidence, documents
        As in :mod:`ragmetrics.spans.model` (documents only to locate quotes).

    Returns
    -------
    pandas.DataFrame
        ``query_id, doc_id, relevance``, one row per (query, document holding evidence),
        ordered by query as :func:`ragmetrics.evaluate` orders them. Queries without
        evidence have no row; ``.attrs["queries"]`` lists every query.

    Examples
    --------
    >>> evidence = {"q1": [("policy", 0, 20, 2), ("faq", 5, 9), ("policy", 40, 60)],
    ...             "q2": []}
    >>> document_qrels(evidence)
      query_id  doc_id  relevance
    0       q1  policy          2
    1       q1     faq          1
    """
    ev = as_evidence(evidence, as_documents(documents))
    query = ev.query_codes()
    doc_codes, doc_ids = pd.factorize(pd.Index(ev.doc, dtype=object))
    doc_ids = np.asarray(doc_ids, dtype=object)
    n_docs = max(len(doc_ids), 1)
    keys, pair = np.unique(query.astype(np.int64) * n_docs + doc_codes, return_inverse=True)
    best = np.full(len(keys), -np.inf)
    np.maximum.at(best, pair, ev.grade)
    q, d = keys // n_docs, keys % n_docs
    rank_of_query = np.empty(len(ev.queries), dtype=np.int64)
    rank_of_query[natural_order(ev.queries)] = np.arange(len(ev.queries))
    first_seen = np.full(len(keys), len(ev.query))
    np.minimum.at(first_seen, pair, np.arange(len(ev.query)))
    order = np.lexsort((first_seen, rank_of_query[q]))
    q, d, best = q[order], d[order], best[order]
    frame = pd.DataFrame({
        "query_id": _ids(ev.queries[q], ev.query_kind),
        "doc_id": _ids(doc_ids[d], ev.doc_kind),
        "relevance": whole_grades(best),
    })
    frame.attrs.update(queries=tuple(ev.queries[natural_order(ev.queries)].tolist()))
    return frame
