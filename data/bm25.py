"""Okapi BM25 as ``rank_bm25.BM25Okapi`` scores it, and TREC run text, for the span runs.

``support_demo/build_spans.py`` and ``squad2_dev/build.py`` import this file (it is not
part of the ``ragmetrics`` package; numpy is its only need) for their span runs
(``runs/bm25_<chunking>.tsv``): k1=1.5, b=0.75, epsilon=0.25, ``rank_bm25.BM25Okapi``'s
defaults, whose scores (``rank-bm25`` 0.2.2, which these runs were first made with) it
gives to the byte. ``support_demo/make_runs.py`` takes ``trec_run`` from here and its
BM25 from the ``bm25s`` library (Lucene's variant), the library notebook 08 runs.

Why not ``bm25s`` here too: its Robertson idf clamps a negative idf to 0 where
rank_bm25 puts a floor of ``epsilon`` times the mean idf, and the span runs, with the
numbers pinned from them, were made with rank_bm25's.

The score of document *d* for query *q*, summed over the query's tokens (a token that
occurs twice in the query counts twice; one not in any document adds nothing)::

    idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * len(d) / avglen))

with ``N`` documents, ``df`` of them holding *t*: ``idf(t) = ln(N - df + 0.5) - ln(df +
0.5)``, negative for a token in more than half the documents; a negative one is replaced
by ``epsilon`` times the mean idf of all tokens (Trotman et al.'s floor, as rank_bm25
does it).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

__all__ = ["bm25_scores", "chunking_runs", "trec_run"]


def _idf(document_frequency: dict[str, int], n_documents: int,
         epsilon: float) -> dict[str, float]:
    idf = {t: math.log(n_documents - df + 0.5) - math.log(df + 0.5)
           for t, df in document_frequency.items()}
    floor = epsilon * sum(idf.values()) / len(idf)  # summed in first-seen order, as rank_bm25
    return {t: floor if value < 0 else value for t, value in idf.items()}


def bm25_scores(documents: Sequence[Sequence[str]], queries: Sequence[Sequence[str]], *,
                k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25) -> np.ndarray:
    """BM25 score of every document for every query, shape ``(len(queries), len(documents))``.

    Parameters
    ----------
    documents, queries : sequences of token lists
        Already tokenised; the caller's tokeniser decides what a term is.
    k1, b : float
        Term-frequency saturation and length normalisation (rank_bm25's defaults).
    epsilon : float
        Negative idfs become ``epsilon`` times the mean idf.

    Examples
    --------
    Three documents, of 2, 3 and 1 tokens; "cat" is in two of them, "dog" in one. "cat",
    in more than half of the documents, would have a negative idf, ln(1.5 / 2.5); it gets
    the floor instead, a quarter of the mean idf of the four terms, (3 ln(2.5 / 1.5) -
    ln(2.5 / 1.5)) / 4 / 4 = 0.0639:

    >>> docs = [["cat", "sat"], ["cat", "cat", "dog"], ["fish"]]
    >>> bm25_scores(docs, [["dog"], ["cat"]]).round(4)
    array([[0.    , 0.417 , 0.    ],
           [0.0639, 0.0786, 0.    ]])
    """
    counts = [Counter(tokens) for tokens in documents]
    frequency = Counter(term for count in counts for term in count)  # first-seen order
    weights = _idf(frequency, len(documents), epsilon)
    length = np.array([len(tokens) for tokens in documents], dtype=float)
    norm = k1 * (1.0 - b + b * length / (sum(len(tokens) for tokens in documents)
                                          / len(documents)))
    scores = np.zeros((len(queries), len(documents)))
    columns: dict[str, np.ndarray] = {}  # term -> its score in every document
    for row, query in zip(scores, queries, strict=True):
        for term in query:
            if term not in weights:
                continue
            if term not in columns:
                tf = np.array([count.get(term, 0) for count in counts], dtype=float)
                columns[term] = weights[term] * (tf * (k1 + 1.0) / (tf + norm))
            row += columns[term]
    return scores


def trec_run(query_ids: Sequence[str], doc_ids: Sequence[str], scores: np.ndarray, *,
             depth: int, name: str) -> str:
    """The top ``depth`` documents of each query as TREC run lines, ``qid Q0 doc rank score name``.

    Scores are rounded to 6 decimals; ranks follow the rounded score, then, among equal
    scores, the doc id in descending order (trec_eval's order, and ragmetrics' default
    ``ties="trec_eval"``), so the rank and score columns agree.

    Examples
    --------
    >>> import numpy as np
    >>> print(trec_run(["q1"], ["a", "b", "c"], np.array([[0.5, 2.0, 0.5]]), depth=2,
    ...                name="bm25"), end="")
    q1 Q0 b 1 2.000000 bm25
    q1 Q0 c 2 0.500000 bm25
    """
    lines = []
    for query_id, row in zip(query_ids, scores, strict=True):
        rounded = sorted(zip((round(float(s), 6) for s in row), doc_ids, strict=True),
                         reverse=True)[:depth]
        for rank, (score, doc_id) in enumerate(rounded, start=1):
            if not math.isfinite(score):
                raise ValueError(f"score of {doc_id!r} for {query_id!r} is {score}")
            lines.append(f"{query_id} Q0 {doc_id} {rank} {score:.6f} {name}\n")
    return "".join(lines)


def chunking_runs(chunkings: dict, texts: dict, questions: Sequence[dict], tokens, *,
                  depth: int) -> dict[str, str]:
    """The span runs of a data set: for each chunking (``{name: [(chunk_id, doc_id, start,
    end), ...]}``), BM25 with ``rank_bm25.BM25Okapi``'s defaults over its chunks' text
    (``texts[doc_id][start:end]``, split by ``tokens``), the top ``depth`` chunks of each
    question (``{"query_id", "question"}``), as TREC text by chunking name."""
    query_ids = [q["query_id"] for q in questions]
    queries = [tokens(q["question"]) for q in questions]
    runs = {}
    for name, rows in chunkings.items():
        scores = bm25_scores([tokens(texts[doc][s:e]) for _, doc, s, e in rows], queries,
                             k1=1.5, b=0.75, epsilon=0.25)
        runs[name] = trec_run(query_ids, [r[0] for r in rows], scores, depth=depth,
                              name="bm25")
    return runs
