"""Reference texts that are parts of documents (quotes), located as evidence spans.

A golden set of texts (RAGAS ``reference_contexts``, TruLens ``expected_chunks``) judges
retrieval by chunk text, so it ties the evaluation to the chunking the texts were cut
by: under another chunking no chunk equals them (:func:`ragmetrics.io.match_texts`
would find nothing). When the texts are **parts** of the documents, each can instead be
located in the documents and become an **evidence span**, ``query_id, doc_id, start,
end, relevance``, which judges any chunking (:class:`ragmetrics.spans.SpanJudgments`)
and survives re-chunking.

:func:`texts_as_evidence` looks for each text in every document by the rule that
locates a chunk's text (:class:`~ragmetrics.spans.locate.NormalizedText`: exact match
after whitespace normalisation), then hands the located quotes to
:func:`ragmetrics.spans.locate_evidence`, which checks them as any evidence. A text
found exactly once, in one document, is a span; a text found nowhere, or more than
once (twice in a document, or in two documents), cannot be placed, and is reported in a
:class:`ragmetrics.io.TextMatches` (the same report :func:`~ragmetrics.io.match_texts`
gives):

- ``unmatched="error"`` (the default) refuses them, with their counts and examples;
- ``unmatched="report"`` makes each the whole of a **document of its own**, id
  :func:`ragmetrics.io.text_id` of its text, returned with the documents. No chunk of
  the real documents covers it, so span recall counts it as evidence never retrieved,
  and never leaves it out (which would raise recall). Judge with the documents returned
  (:attr:`TextEvidence.documents`); the documents given do not know these ids, and the
  span layer refuses evidence in a document it does not know.

Examples
--------
>>> documents = {"faq": "Q: refunds?\\nA: within 30 days.\\nQ: invoices?\\nA: in Settings."}
>>> found = texts_as_evidence({"q1": ["A: within 30\\n days."]}, documents)
>>> found.evidence
  query_id doc_id  start  end  relevance
0       q1    faq     12   30        1.0
>>> documents["faq"][12:30]
'A: within 30 days.'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputValueError
from ..io.text_matching import (
    UNMATCHED_POLICIES,
    TextCounts,
    TextExample,
    TextMatches,
    normalize_whitespace,
    refused_texts,
    shorten,
    text_id,
    text_rows,
)
from ..validation import check_choice
from .model import as_documents, locate_evidence

__all__ = ["TextEvidence", "texts_as_evidence"]

_EXAMPLES = 3


@dataclass(frozen=True, eq=False)
class TextEvidence:
    """Evidence spans located from texts, the documents to judge them with, and the report.

    Attributes
    ----------
    evidence : pandas.DataFrame
        ``query_id, doc_id, start, end, relevance``: one span per text located (and,
        with ``unmatched="report"``, one per text not located, over the whole of its own
        document), as :func:`ragmetrics.spans.locate_evidence` returns them; then a row
        with only a ``query_id`` (offsets ``<NA>``) for each query given with no text
        (``{query_id: []}``), a question without evidence, as the span layer reads one.
    documents : pandas.DataFrame
        ``doc_id, text``: the documents given, and (``unmatched="report"``) a document
        of its own for each text not located. Pass these to
        :class:`~ragmetrics.spans.SpanJudgments` with the evidence.
    matches : ragmetrics.io.TextMatches
        How many texts were located once, found nowhere, or found more than once, with
        examples.
    """

    evidence: pd.DataFrame
    documents: pd.DataFrame
    matches: TextMatches

    def __iter__(self):  # evidence, documents, matches = texts_as_evidence(...)
        return iter((self.evidence, self.documents, self.matches))

    def __repr__(self) -> str:
        spans = int(self.evidence["doc_id"].notna().sum())
        return (f"TextEvidence({spans} spans in {len(self.documents)} "
                f"documents; {self.matches!r})")


def texts_as_evidence(texts, documents, *, unmatched: str = "error") -> TextEvidence:
    """Locate reference texts (quotes) in the documents, as evidence spans.

    Parameters
    ----------
    texts : DataFrame, list of records or mapping
        ``query_id, text[, relevance]`` or ``{query_id: [text, ...]}``, as
        :func:`ragmetrics.io.match_texts` takes them (each text a non-empty ``str``,
        refused naming its row otherwise). A text may be any part of a document: it
        need not start or end at a word.
    documents : DataFrame, mapping, list of records or file
        ``doc_id, text``, as :mod:`ragmetrics.spans.model` reads documents.
    unmatched : {"error", "report"}, default "error"
        A text found nowhere, or more than once: refused (listing counts and examples),
        or made the whole of a document of its own (see the module's notes).

    Returns
    -------
    TextEvidence
        ``evidence`` (``query_id, doc_id, start, end, relevance``), ``documents`` and
        ``matches`` (a :class:`ragmetrics.io.TextMatches`); unpacks as a tuple.

    Raises
    ------
    InputValueError
        With ``unmatched="error"``, for texts found nowhere or more than once.

    Examples
    --------
    Two chunkings of the same document, judged against the same located evidence:

    >>> from ragmetrics import evaluate
    >>> from ragmetrics.spans import SpanJudgments, window_chunks
    >>> documents = {"d": "Refunds take 5 days. Invoices are in Settings. Call us."}
    >>> found = texts_as_evidence({"q1": ["Invoices are in Settings."]}, documents)
    >>> judgments = SpanJudgments(found.evidence, documents=found.documents)
    >>> small, big = window_chunks(documents, 3), window_chunks(documents, 20)
    >>> found.evidence  # "Invoices are in Settings." is [21, 46)
      query_id doc_id  start  end  relevance
    0       q1      d     21   46        1.0
    >>> run_small = {"q1": ["d-w3-002", "d-w3-001", "d-w3-003"]}  # 15, 8, 1 characters
    >>> evaluate(run_small, judgments, ["span_recall@1", "span_recall@3"],
    ...          chunks=small).summary.tolist()  # the space before "are" is in no window
    [0.6, 0.96]
    >>> evaluate({"q1": ["d-w20-000"]}, judgments, ["span_recall@1", "span_precision@1"],
    ...          chunks=big).summary.tolist()  # the whole document: 25 of 55 characters
    [1.0, 0.45454545454545453]
    """
    unmatched = check_choice(unmatched, UNMATCHED_POLICIES, "unmatched")
    docs = as_documents(documents)
    given = text_rows(texts, "reference")  # checked as match_texts checks them
    grades = [1] * len(given.text) if given.relevance is None else given.relevance
    rows = list(zip(given.query, given.text, grades, strict=True))
    records, outcome, found = [], [], []
    where_is = _Corpus(docs)
    for query, text, grade in rows:
        places = where_is.find(text)
        found.append(places)
        if len(places) == 1:
            doc_id, start, end = places[0]
            outcome.append("matched")
            records.append({"query_id": query, "doc_id": doc_id, "start": start, "end": end,
                            "quote": text, "relevance": grade})
        else:
            outcome.append("unmatched" if not places else "ambiguous")
    counts = TextCounts("reference", len(rows), outcome.count("matched"),
                        outcome.count("unmatched"), outcome.count("ambiguous"), 0)
    if unmatched == "error" and (counts.unmatched or counts.ambiguous):
        raise InputValueError(_refusal(given.where, rows, outcome, found, counts))
    own = {}
    for (query, text, grade), kind in zip(rows, outcome, strict=True):
        if kind == "matched":
            continue
        doc_id, own_text = text_id(text), normalize_whitespace(text)
        own[doc_id] = own_text
        records.append({"query_id": query, "doc_id": doc_id, "start": 0,
                        "end": len(own_text), "quote": own_text, "relevance": grade})
    frame = pd.DataFrame({"doc_id": pd.Series(docs.ids, dtype=object),
                          "text": pd.Series(docs.texts, dtype=object)})
    if own:
        if docs.kind == "int":
            raise InputValueError(
                "the documents have integer ids, and a text not located needs a document "
                "of its own ('text:...'): give the documents str ids")
        frame = pd.concat([frame, pd.DataFrame({"doc_id": list(own),
                                                "text": list(own.values())})],
                          ignore_index=True)
    evidence = locate_evidence(pd.DataFrame.from_records(
        records, columns=["query_id", "doc_id", "start", "end", "quote", "relevance"]),
        frame)
    bare = [q for q in dict.fromkeys(given.bare) if q not in set(given.query)]
    if bare:  # questions without evidence: a row with a query_id and nothing else
        evidence = pd.concat([evidence.astype({"start": "Int64", "end": "Int64"}),
                              pd.DataFrame({"query_id": bare})], ignore_index=True)
    examples = []
    for kind in ("unmatched", "ambiguous", "matched"):
        for i in [i for i, o in enumerate(outcome) if o == kind][:_EXAMPLES]:
            query, text, _ = rows[i]
            places = tuple(f"{d}[{s}:{e}]" for d, s, e in found[i])
            examples.append(TextExample("reference", kind, query, shorten(text), places,
                                        places[0] if kind == "matched" else text_id(text)))
    minted = pd.DataFrame({"doc_id": pd.Series(list(own), dtype="str"),
                           "text": pd.Series(list(own.values()), dtype="str")})
    report = TextMatches("documents", (counts,), tuple(examples), unmatched, minted)
    return TextEvidence(evidence, frame, report)


class _Corpus:
    """Every document, normalised, on one line: which documents hold a text.

    A normalised text holds no newline, so with the documents joined by newlines one
    ``str.find`` over the whole finds every document that holds it, and no occurrence
    straddles two documents. Offsets in a document then come from its
    :class:`~ragmetrics.spans.locate.NormalizedText`, the locator of chunks and quotes.
    """

    def __init__(self, docs) -> None:
        self.docs = docs
        parts = [normalize_whitespace(text) for text in docs.texts]
        self.starts = np.cumsum([0] + [len(part) + 1 for part in parts[:-1]])
        self.text = "\n".join(parts)

    def find(self, text: str) -> list[tuple]:
        """Up to two places ``(doc_id, start, end)`` where ``text`` occurs (two: ambiguous)."""
        needle = normalize_whitespace(text)
        holders = []
        at = self.text.find(needle)
        while at >= 0 and len(holders) < 2:
            holders.append(int(np.searchsorted(self.starts, at, side="right")) - 1)
            at = self.text.find(needle, at + 1)
        places = []
        for doc in dict.fromkeys(holders):
            doc_id = self.docs.ids[doc]
            for start, end in self.docs.normalized(doc_id).find(text, limit=2 - len(places)):
                places.append((doc_id, start, end))
        return places


def _refusal(where, rows, outcome, found, counts: TextCounts) -> str:
    unmatched = [f"{where[i]}: {shorten(rows[i][1])!r}"
                 for i, o in enumerate(outcome) if o == "unmatched"]
    ambiguous = [f"{where[i]}: {shorten(rows[i][1])!r} at "
                 + ", ".join(f"{d!r} {s}-{e}" for d, s, e in found[i]) + ", ..."
                 for i, o in enumerate(outcome) if o == "ambiguous"]
    return refused_texts(
        counts, unmatched, ambiguous, none="found in no document", many="found more than once",
        remedy="give their offsets (query_id, doc_id, start, end), or pass unmatched='report' "
               "to make each a document of its own, counted as evidence never retrieved")
