"""What a retriever returned for one query, as ranked ids: the step from documents to a run.

A retriever returns a list, best first, of one of these (mixed within a list, if need
be), all read by duck typing (no retrieval library is imported):

- an id: ``"d7"`` (or an int, read as its text);
- a pair ``(id, score)``, or ``(document, score)`` as LangChain's
  ``similarity_search_with_score`` gives;
- a dict ``{"id": ..., "score": ...}`` (or ``"doc_id"``; ``"metadata"`` or ``"meta"``
  and ``"page_content"``, ``"content"`` or ``"text"`` for the other keys);
- a document: LangChain's ``Document(page_content, metadata, id)``, Haystack's
  ``Document(id, content, meta, score)``, LlamaIndex's ``TextNode(id_, text, metadata)``
  (read through ``.node_id`` and ``.get_content()``) or its
  ``NodeWithScore(node, score)``.

**The key** chooses what names a result, so that it can meet the judgments:

- ``"id"``: the result's own id (``.id``, LlamaIndex's ``.node_id``, a dict's ``"id"``);
- ``"meta.<name>"``: a value of its metadata (``metadata`` or ``meta``), e.g.
  ``"meta.source"``: a value that survives re-chunking, where chunk ids do not;
- ``"content"``: its text (judgments written as passages);
- a tuple of these, e.g. ``("meta.source", "meta.page")``: the values joined by ``"#"``
  (``"guide.pdf#3"``, as a link to a page is written); a value that holds ``"#"`` is
  refused there, as two different pairs could then join to the same id.

A value must be text or an integer (read as its text). A missing or ``None`` value is
refused, naming the query and the rank: read as a missing id, every such document would
be "the same" doc (Haystack once scored recall 1.0 for documents without the field, as
``None == None``).

**Scores**: a result's score (``.score``, a dict's ``"score"``, a pair's second item)
when it has one. A run gets a ``score`` column only when every result has one
(:func:`ragmetrics.evaluate` orders by it, as trec_eval does), and those scores must not
rise down the ranking: a retriever that returns distances (lower is closer) or
reorders after scoring is refused with a word on ``scores="drop"``, under which the
rank, the retriever's own order, decides.

**Repeated ids** in one query's results: ``duplicates="error"`` (the default) refuses
them, naming the query and both ranks. ``duplicates="first"`` keeps each id's first
(best-ranked) result and ranks what is left 1, 2, ...: the usual collapse from chunks to
documents (a document ranks where its best chunk does; "MaxP"), and what a ``meta.*``
key needs, as several chunks of one source share its value.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from ..errors import InputTypeError, InputValueError
from ..validation import check_k

__all__ = [
    "DUPLICATES",
    "KEY_SEPARATOR",
    "SCORES",
    "RankedIds",
    "check_key",
    "query_key",
    "ranked_ids",
    "run_frame",
    "run_from_documents",
]

#: The policies for an id found twice in one query's results.
DUPLICATES = ("error", "first")
#: What to do with the results' scores: keep them (checked), or drop them.
SCORES = ("keep", "drop")
#: What joins the values of a tuple key: ``("meta.source", "meta.page")`` -> ``"a.pdf#3"``.
KEY_SEPARATOR = "#"

_MISSING = object()


@dataclass(frozen=True)
class RankedIds:
    """One query's results, as ids in rank order.

    Attributes
    ----------
    ids : list of str
        Best first, each once, at most ``k``.
    scores : list of float or None
        The results' scores, in the same order; None when a result had none.
    returned : int
        How many results the retriever returned (before duplicates were collapsed and
        the list cut to ``k``).
    """

    ids: list
    scores: list | None
    returned: int


def check_key(key) -> tuple[str, ...]:
    """``key`` as a tuple of parts (``"id"``, ``"content"``, ``"meta.<name>"``), or raise.

    Examples
    --------
    >>> check_key("meta.source")
    ('meta.source',)
    >>> check_key(("meta.source", "meta.page"))
    ('meta.source', 'meta.page')
    """
    parts = (key,) if isinstance(key, str) else key
    if not isinstance(parts, tuple) or not parts:
        raise InputTypeError(
            'key must be "id", "content", "meta.<name>" or a tuple of them, e.g. '
            f'("meta.source", "meta.page"); got {key!r}')
    for part in parts:
        if not isinstance(part, str) or not (
                part in ("id", "content") or (part.startswith("meta.") and len(part) > 5)):
            raise InputValueError(
                f'key {key!r}: each part must be "id", "content" or "meta.<name>" (e.g. '
                f'"meta.source"), got {part!r}')
    return parts


def _unwrap(result):
    """``(document or id, score or None)`` of one result, whatever its shape."""
    if isinstance(result, tuple):
        if len(result) != 2:
            raise InputTypeError(f"a tuple result must be (id or document, score), got "
                                 f"{len(result)} items: {result!r}")
        return result[0], result[1]
    if isinstance(result, Mapping):
        return result, result.get("score")
    node = getattr(result, "node", None)
    if node is not None and not isinstance(result, (str, int)):  # LlamaIndex NodeWithScore
        return node, getattr(result, "score", None)
    return result, getattr(result, "score", None)


def _own_id(doc):
    if isinstance(doc, Mapping):
        return doc.get("id", doc.get("doc_id"))
    for name in ("node_id", "id_", "id"):  # LlamaIndex, then Haystack and LangChain
        value = getattr(doc, name, _MISSING)
        if value is not _MISSING:
            return value
    return None


def _metadata(doc):
    found = None
    if isinstance(doc, Mapping):
        found = doc.get("metadata", doc.get("meta"))
    else:
        for name in ("metadata", "meta"):
            found = getattr(doc, name, None)
            if found is not None:
                break
    return found if isinstance(found, Mapping) else None


def _content(doc):
    if isinstance(doc, Mapping):
        for name in ("page_content", "content", "text"):
            if doc.get(name) is not None:
                return doc[name]
        return None
    for name in ("page_content", "content"):  # LangChain, Haystack
        value = getattr(doc, name, None)
        if value is not None:
            return value
    get_content = getattr(doc, "get_content", None)  # LlamaIndex
    if callable(get_content):
        return get_content()
    return getattr(doc, "text", None)


def _part(doc, part: str, where: str) -> str:
    """The value of one key part, as text; a missing or odd value is refused."""
    plain = isinstance(doc, (str, numbers.Integral)) and not isinstance(doc, bool)
    if plain:
        if part != "id":
            raise InputValueError(
                f"{where} is the id {doc!r}, which has no {part!r}; an id result can only "
                'be read with key="id"')
        value = doc
    elif part == "id":
        value = _own_id(doc)
    elif part == "content":
        value = _content(doc)
    else:
        meta = _metadata(doc)
        if meta is None:
            raise InputValueError(f"{where} has no metadata for key {part!r} "
                                  f"({type(doc).__name__})")
        value = meta.get(part[5:])
        if value is None:
            shown = ", ".join(map(repr, list(meta)[:8])) or "none"
            raise InputValueError(
                f"{where} has no {part!r} (None or missing; its metadata keys: {shown}); "
                "a document without the field cannot be told from another")
    if value is None:
        raise InputValueError(
            f"{where} has no {part!r} (None or missing, {type(doc).__name__}); a document "
            "without an id cannot be told from another: pick another key, e.g. "
            'key="meta.source"')
    if isinstance(value, bool) or not isinstance(value, (str, numbers.Integral)):
        raise InputTypeError(f"{where}: {part!r} must be text or an int, got {value!r} "
                             f"({type(value).__name__})")
    return value if isinstance(value, str) else str(int(value))


def _score(score, where: str) -> float | None:
    if score is None:
        return None
    if isinstance(score, bool) or not isinstance(score, numbers.Real) or math.isnan(score):
        raise InputTypeError(f"{where}: a score must be a number, got {score!r}")
    return float(score)


def ranked_ids(results, *, query_id, key=("id",), k: int | None = None,
               duplicates: str = "error") -> RankedIds:
    """The ids of one query's results, in rank order, each once, at most ``k``.

    Parameters
    ----------
    results : list
        What the retriever returned, best first (see the module's introduction).
    query_id : str
        Named in errors.
    key : str or tuple of str, default "id"
        What names a result (:func:`check_key`).
    k : int, optional
        Keep the first ``k`` (after repeated ids are collapsed); all by default.
    duplicates : {"error", "first"}, default "error"

    Returns
    -------
    RankedIds

    Examples
    --------
    >>> found = ranked_ids([("d2", 0.9), ("d1", 0.4)], query_id="q1")
    >>> found.ids, found.scores
    (['d2', 'd1'], [0.9, 0.4])
    >>> chunks = [{"id": "c1", "metadata": {"source": "a.pdf"}},
    ...           {"id": "c2", "metadata": {"source": "b.pdf"}},
    ...           {"id": "c3", "metadata": {"source": "a.pdf"}}]
    >>> ranked_ids(chunks, query_id="q1", key="meta.source", duplicates="first").ids
    ['a.pdf', 'b.pdf']
    """
    parts = check_key(key)
    if isinstance(results, (str, bytes, Mapping)) or not isinstance(results, Sequence):
        raise InputTypeError(f"query {query_id!r}: the retriever must return a list of "
                             f"results, got {type(results).__name__}: {_short(results)}")
    ids, scores, first_rank = [], [], {}
    for rank, result in enumerate(results, start=1):
        where = f"query {query_id!r}, rank {rank}"
        try:
            doc, score = _unwrap(result)
        except InputTypeError as error:
            raise InputTypeError(f"{where}: {error}") from None
        values = [_part(doc, part, where) for part in parts]
        if len(values) > 1 and any(KEY_SEPARATOR in v for v in values):
            bad = next(v for v in values if KEY_SEPARATOR in v)
            raise InputValueError(f"{where}: {bad!r} holds {KEY_SEPARATOR!r}, which joins "
                                  f"the parts of key {key!r}; two pairs could join alike")
        doc_id = KEY_SEPARATOR.join(values)
        value = _score(score, where)
        if doc_id in first_rank:
            if duplicates == "first":
                continue
            raise InputValueError(
                f"{where}: {doc_id!r} again (first at rank {first_rank[doc_id]}); pass "
                'duplicates="first" to keep each id\'s best rank (chunks of one source)')
        first_rank[doc_id] = rank
        ids.append(doc_id)
        scores.append(value)
    if k is not None:
        ids, scores = ids[:k], scores[:k]
    return RankedIds(ids, None if any(s is None for s in scores) else scores, len(results))


def _short(value, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def run_frame(ranked: Mapping, *, scores: str = "keep") -> pd.DataFrame:
    """A run frame from ``{query_id: RankedIds}``: ``query_id, doc_id, rank`` and ``score``
    when every result has one (and ``scores="keep"``), with :func:`ragmetrics.read_run`'s
    dtypes (ids text, rank int64, score float64).

    Scores that rise down a query's ranking are refused, naming the query and the ranks.

    Examples
    --------
    >>> run = run_frame({"q1": RankedIds(["d2", "d1"], [0.9, 0.4], 2)})
    >>> run.to_dict("list")
    {'query_id': ['q1', 'q1'], 'doc_id': ['d2', 'd1'], 'rank': [1, 2], 'score': [0.9, 0.4]}
    """
    if scores not in SCORES:
        raise InputValueError(f"scores must be one of {SCORES}, got {scores!r}")
    queries, docs, ranks, values = [], [], [], []
    with_scores = scores == "keep"
    for query_id, found in ranked.items():
        n = len(found.ids)
        queries.extend([query_id] * n)
        docs.extend(found.ids)
        ranks.extend(range(1, n + 1))
        if with_scores and found.scores is not None:
            values.extend(found.scores)
            _check_falling(query_id, found.scores)
        elif n:
            with_scores = False
    columns = {
        "query_id": pd.Series(queries, dtype=str),
        "doc_id": pd.Series(docs, dtype=str),
        "rank": pd.Series(ranks, dtype="int64"),
    }
    if with_scores and queries:
        columns["score"] = pd.Series(values, dtype="float64")
    return pd.DataFrame(columns)


def _check_falling(query_id, scores: list) -> None:
    for rank in range(1, len(scores)):
        if scores[rank] > scores[rank - 1]:
            raise InputValueError(
                f"query {query_id!r}: the score rises down the ranking (rank {rank}: "
                f"{scores[rank - 1]:g}, rank {rank + 1}: {scores[rank]:g}); scores decide "
                "the order in ragmetrics.evaluate, so these would reorder the results. If "
                'they are distances or the retriever reorders, pass scores="drop": the '
                "rank, the retriever's order, then decides")


def query_key(query_id) -> str:
    """A query id as a run holds it: text (an int is read as its text)."""
    if isinstance(query_id, str):
        return query_id
    if isinstance(query_id, numbers.Integral) and not isinstance(query_id, bool):
        return str(int(query_id))
    raise InputTypeError(f"a query id must be text or an int, got {query_id!r} "
                         f"({type(query_id).__name__})")


def run_from_documents(results: Mapping, *, key="id", duplicates: str = "error",
                       scores: str = "keep", k: int | None = None) -> pd.DataFrame:
    """A run from what a retriever returned: ``{query_id: [document, ...]}`` -> a run frame.

    The documents may be ids, ``(id, score)`` pairs, dicts, or LangChain, Haystack or
    LlamaIndex documents (duck-typed; see :mod:`ragmetrics.runners.retrieved`).

    Parameters
    ----------
    results : mapping of query id to list
        Each query's results, best first.
    key : str or tuple of str, default "id"
        What names a result: ``"id"``, ``"meta.<name>"`` (e.g. ``"meta.source"``),
        ``"content"``, or a tuple of them joined by ``"#"``. A missing or ``None`` value
        is an error naming the query and the rank.
    duplicates : {"error", "first"}, default "error"
        An id found twice in one query: an error, or keep its first (best) rank and
        rank the rest 1, 2, ... (chunks collapsed to their source document).
    scores : {"keep", "drop"}, default "keep"
        Keep the results' scores as the ``score`` column (when every result has one;
        they must not rise down a ranking), or leave them out: the rank decides.
    k : int, optional
        Keep each query's first ``k`` ids.

    Returns
    -------
    pandas.DataFrame
        ``query_id, doc_id, rank`` (and ``score``), one row per result, as
        :func:`ragmetrics.read_run` gives: ids as text, ``rank`` int64 from 1,
        ``score`` float64. A query with no results has no rows.

    Examples
    --------
    Haystack-like documents, judged by their source file:

    >>> class Doc:
    ...     def __init__(self, id, meta, score):
    ...         self.id, self.content, self.meta, self.score = id, "...", meta, score
    >>> results = {"q1": [Doc("c9", {"source": "faq.md"}, 0.8),
    ...                   Doc("c4", {"source": "faq.md"}, 0.7),
    ...                   Doc("c2", {"source": "guide.md"}, 0.5)]}
    >>> run = run_from_documents(results, key="meta.source", duplicates="first")
    >>> run
      query_id    doc_id  rank  score
    0       q1    faq.md     1    0.8
    1       q1  guide.md     2    0.5
    >>> import ragmetrics
    >>> float(ragmetrics.evaluate(run, {"q1": {"guide.md"}}, ["mrr"]).summary["mrr"])
    0.5

    References
    ----------
    Dai, Callan, "Deeper Text Understanding for IR with Contextual Neural Language
    Modeling", SIGIR 2019 (MaxP: a document scored by its best passage).
    """
    if not isinstance(results, Mapping):
        raise InputTypeError("results must be a mapping {query_id: [document, ...]}, got "
                             f"{type(results).__name__}")
    check_key(key)
    if duplicates not in DUPLICATES:
        raise InputValueError(f"duplicates must be one of {DUPLICATES}, got {duplicates!r}")
    k = check_k(k, allow_none=True)
    ranked = {}
    for query_id, found in results.items():
        qid = query_key(query_id)
        if qid in ranked:
            raise InputValueError(f"query id {qid!r} given twice (as {query_id!r})")
        ranked[qid] = ranked_ids(found, query_id=qid, key=key, k=k, duplicates=duplicates)
    return run_frame(ranked, scores=scores)
