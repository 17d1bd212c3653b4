"""Texts instead of ids: match each given text to the document that holds exactly it.

Many RAG evaluation tools judge retrieval by the chunk's **text**, not an id: RAGAS
samples carry ``reference_contexts`` and ``retrieved_contexts`` (lists of texts),
TruLens ``expected_chunks``, DeepEval ``retrieval_context``. Comparing such texts with
``==`` misses a chunk whose whitespace changed on the way (a newline became a space);
asking an LLM whether two texts "match" gives a number no one can check.
:func:`match_texts` gives each text the id of the document it **is**, and the
judgments (qrels) or the run that :func:`ragmetrics.evaluate` takes follow.

**The rule: exact match after whitespace normalisation.** Every run of whitespace
counts as one space and the ends are stripped (:func:`normalize_whitespace`, the rule
by which :mod:`ragmetrics.spans` locates a chunk's text in its document); nothing else
is forgiven (case, punctuation, Unicode forms), since a fuzzy match could give a text
the wrong id without a word. A text matches a document when the two are equal under
that rule: the documents are the chunks (or passages) the texts were cut as. (Texts
that are *parts* of documents, quotes, are located as evidence spans by
:func:`ragmetrics.spans.texts_as_evidence`.)

Each text has one of three outcomes:

- **matched**: it equals exactly one document, and takes that document's id;
- **unmatched**: it equals no document;
- **ambiguous**: it equals more than one document (the corpus holds the same text under
  several ids), so which one was meant cannot be told.

No text is dropped. ``unmatched="error"`` (the default) refuses unmatched and ambiguous
texts, giving their counts and the first examples; ``unmatched="report"`` keeps each
under an id of its own, ``"text:"`` and 16 hex digits of the SHA-256 of its normalised
text (:func:`text_id`), and the :class:`TextMatches` report counts them. Such an id is
no document's: a reference text kept this way is a relevant item that no retrieved
document can hit, so recall counts it as missed, never leaving it out (which would
raise recall); a retrieved text kept this way is a hit only for a reference text equal
to it.

**Text-keyed** (``documents=None``, typical of RAGAS samples, which carry no corpus):
every text is keyed by its text, each distinct normalised text one id
(:func:`text_id`), shared by reference and retrieved texts, so a retrieved text equal to
a reference text after normalisation is a hit, and one that differs by a word is not.

Examples
--------
>>> documents = pd.DataFrame({"doc_id": ["d1", "d2"],
...                           "text": ["Refunds take 5 days.", "Contact billing."]})
>>> qrels, report = match_texts({"q1": ["Refunds take\\n5 days."]}, documents)
>>> qrels
  query_id doc_id  relevance
0       q1     d1          1
>>> run, report = match_texts({"q1": ["Contact  billing.", "Refunds take 5 days."]},
...                           documents, what="retrieved")
>>> run
  query_id doc_id  rank
0       q1     d2     1
1       q1     d1     2
>>> report
TextMatches(keyed by documents; retrieved: 2 texts, 2 matched, 0 unmatched, 0 ambiguous)

Text-keyed, without documents, a retrieved text equal to a reference text shares its id:

>>> qrels, _ = match_texts({"q1": ["Refunds take 5 days."]})
>>> run, _ = match_texts({"q1": ["Contact billing.", "Refunds  take 5 days."]},
...                      what="retrieved")
>>> run["doc_id"].isin(qrels["doc_id"]).tolist()
[False, True]
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..errors import InputTypeError, InputValueError
from ..validation import check_choice

__all__ = [
    "UNMATCHED_POLICIES",
    "WORD",
    "TextCounts",
    "TextExample",
    "TextIndex",
    "TextMatches",
    "TextRows",
    "match_texts",
    "normalize_whitespace",
    "refused_texts",
    "shorten",
    "text_id",
    "text_rows",
]

#: A word: a run of characters that are not whitespace (``str.split``'s whitespace).
WORD = re.compile(r"\S+")

#: What becomes of a text that matches no document, or more than one.
UNMATCHED_POLICIES = ("error", "report")

#: The two kinds of text: reference texts become qrels, retrieved texts a run.
_WHAT = ("reference", "retrieved")
# Examples kept per kind of text and outcome, and how many an error lists.
_EXAMPLES = 3
_LISTED = 5
# Characters of a text an example shows.
_SHOWN = 80


def normalize_whitespace(text: str) -> str:
    """``text`` with every run of whitespace made one space, and the ends stripped.

    The one normalisation of ragmetrics: :func:`match_texts` compares texts with
    documents under it, and :class:`ragmetrics.spans.locate.NormalizedText` locates a
    chunk's text in its document under it.

    Whitespace is what :data:`WORD` leaves out: a character ``c`` with ``c.isspace()``
    (``\\s`` of :mod:`re` for text is exactly those characters, checked over every code
    point by the tests), so ``str.split`` finds the same words as ``WORD``, faster.

    Examples
    --------
    >>> normalize_whitespace("  two\\n\\n words ")
    'two words'
    """
    return " ".join(text.split())


def text_id(text: str) -> str:
    """The id of a text keyed by itself: ``"text:"`` and 16 hex digits of a SHA-256.

    The digest is of the text's normalised form (:func:`normalize_whitespace`) in UTF-8,
    so texts that differ only in whitespace share an id, on any machine and in any run.

    Examples
    --------
    >>> text_id("Refunds take 5 days.")
    'text:558c378376e08651'
    >>> text_id("Refunds take\\n5 days. ") == text_id("Refunds take 5 days.")
    True
    """
    return _digest_id(normalize_whitespace(text))


def _digest_id(normalized: str) -> str:
    return "text:" + hashlib.sha256(normalized.encode("utf-8")).hexdigest()[:16]


def shorten(text: str, limit: int = _SHOWN) -> str:
    """``text`` normalised (:func:`normalize_whitespace`) and cut to ``limit`` characters.

    >>> shorten("Refunds\\n take 5 days, or 10 in December.", 20)
    'Refunds take 5 da...'
    """
    text = normalize_whitespace(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class TextExample(NamedTuple):
    """One text of a :class:`TextMatches` report, as an example of its outcome."""

    what: str  #: "reference" or "retrieved"
    outcome: str  #: "matched", "unmatched", "ambiguous" or "keyed" (text-keyed)
    query_id: str
    text: str  #: normalised, cut to 80 characters
    doc_ids: tuple  #: the documents it equals: one (matched), none, or several
    given_id: str | None  #: the id it was given (None: refused, unmatched="error")

    def line(self) -> str:
        """``query 'q1', reference: 'Refunds take...' -> d1`` and the like."""
        found = ", ".join(map(str, self.doc_ids)) if self.doc_ids else "no document"
        if self.outcome in ("matched", "keyed"):
            found = str(self.given_id)
        elif self.given_id is not None:
            found += f" (kept as {self.given_id})"
        return f"query {self.query_id!r}, {self.what}: {self.text!r} -> {found}"


class TextCounts(NamedTuple):
    """How the texts of one kind fared: ``texts = matched + unmatched + ambiguous + keyed``."""

    what: str
    texts: int
    matched: int
    unmatched: int
    ambiguous: int
    keyed: int


@dataclass(frozen=True, eq=False)
class TextMatches:
    """The report of texts matched to document ids: counts, and examples of each outcome.

    Attributes
    ----------
    keyed_by : {"documents", "text"}
        ``"documents"``: texts were matched to documents (exact match after whitespace
        normalisation); ``"text"``: no documents were given, each distinct text is its
        own id (text-keyed).
    counts : tuple of TextCounts
        One per kind of text (``"reference"``, ``"retrieved"``): texts, matched (one
        document), unmatched (none), ambiguous (more than one), keyed (text-keyed).
    examples : tuple of TextExample
        Up to 3 texts per kind and outcome, each with its query, the text cut to 80
        characters and the ids it was given.
    policy : {"error", "report"}
        What became of unmatched and ambiguous texts (``"report"``: kept under an id of
        their own).
    texts : pandas.DataFrame
        ``doc_id, text``: each id given to a text of its own (``"text:..."``), with the
        normalised text, so that any such id can be read.

    Examples
    --------
    >>> documents = {"d1": "Refunds take 5 days.", "d2": "Same.", "d3": "Same."}
    >>> _, report = match_texts({"q1": ["Refunds take 5 days.", "Same.", "Other."]},
    ...                         documents, unmatched="report")
    >>> report.matched, report.unmatched, report.ambiguous
    (1, 1, 1)
    >>> print(report.to_text())  # doctest: +NORMALIZE_WHITESPACE
    Texts matched to document ids (exact match after whitespace normalisation):
      reference: 3 texts: 1 matched one document, 1 matched none, 1 matched more than one
    Matched no document (kept under an id of their own, which no document has):
      query 'q1', reference: 'Other.' -> no document (kept as text:053a32f025d58ba6)
    Matched more than one document (kept under an id of their own):
      query 'q1', reference: 'Same.' -> d2, d3 (kept as text:30b5061f9468a257)
    Matched (first examples):
      query 'q1', reference: 'Refunds take 5 days.' -> d1
    """

    keyed_by: str
    counts: tuple[TextCounts, ...]
    examples: tuple[TextExample, ...] = ()
    policy: str = "error"
    texts: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        {"doc_id": pd.Series([], dtype="str"), "text": pd.Series([], dtype="str")}),
        repr=False)

    @property
    def matched(self) -> int:
        """Texts that equal exactly one document."""
        return sum(c.matched for c in self.counts)

    @property
    def unmatched(self) -> int:
        """Texts that equal no document."""
        return sum(c.unmatched for c in self.counts)

    @property
    def ambiguous(self) -> int:
        """Texts that equal more than one document."""
        return sum(c.ambiguous for c in self.counts)

    @property
    def keyed(self) -> int:
        """Texts keyed by their own text (no documents given)."""
        return sum(c.keyed for c in self.counts)

    def examples_of(self, outcome: str) -> list[TextExample]:
        """The examples of one outcome: ``"matched"``, ``"unmatched"``, ``"ambiguous"``
        or ``"keyed"``."""
        check_choice(outcome, ("matched", "unmatched", "ambiguous", "keyed"), "outcome")
        return [e for e in self.examples if e.outcome == outcome]

    @classmethod
    def combine(cls, reports: Iterable[TextMatches]) -> TextMatches:
        """One report of several (a sample file's reference and retrieved texts)."""
        reports = list(reports)
        if not reports:
            raise InputValueError("no report to combine")
        keyed = {r.keyed_by for r in reports}
        if len(keyed) > 1:
            raise InputValueError(
                "texts matched to documents and texts keyed by text share no id: "
                "match both kinds against the same documents, or neither")
        texts = pd.concat([r.texts for r in reports], ignore_index=True)
        texts = texts.drop_duplicates("doc_id", ignore_index=True)
        policies = {r.policy for r in reports}
        return cls(reports[0].keyed_by, tuple(c for r in reports for c in r.counts),
                   tuple(e for r in reports for e in r.examples),
                   "report" if "report" in policies else "error", texts)

    def to_text(self) -> str:
        """The report as lines of text: the counts, then examples of each outcome."""
        if self.keyed_by == "text":
            lines = [("Texts keyed by their text (no documents; each distinct text after "
                     "whitespace normalisation is one id, shared by reference and "
                     "retrieved texts):")]
            lines += [f"  {c.what}: {c.texts} texts, {c.keyed} keyed" for c in self.counts]
            keyed = self.examples_of("keyed")
            if keyed:
                lines.append("Examples:")
                lines += [f"  {e.line()}" for e in keyed]
            return "\n".join(lines)
        lines = [("Texts matched to document ids (exact match after whitespace "
                 "normalisation):")]
        lines += [f"  {c.what}: {c.texts} texts: {c.matched} matched one document, "
                  f"{c.unmatched} matched none, {c.ambiguous} matched more than one"
                  for c in self.counts]
        unmatched, ambiguous = self.examples_of("unmatched"), self.examples_of("ambiguous")
        if unmatched:
            lines.append("Matched no document" + (
                " (kept under an id of their own, which no document has):"
                if self.policy == "report" else ":"))
            lines += [f"  {e.line()}" for e in unmatched]
        if ambiguous:
            lines.append("Matched more than one document" + (
                " (kept under an id of their own):" if self.policy == "report" else ":"))
            lines += [f"  {e.line()}" for e in ambiguous]
        matched = self.examples_of("matched")
        if matched:
            lines.append("Matched (first examples):")
            lines += [f"  {e.line()}" for e in matched]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        if self.keyed_by == "text":
            parts = "; ".join(f"{c.what}: {c.texts} texts keyed by text" for c in self.counts)
            return f"TextMatches(keyed by text; {parts})"
        parts = "; ".join(f"{c.what}: {c.texts} texts, {c.matched} matched, {c.unmatched} "
                          f"unmatched, {c.ambiguous} ambiguous" for c in self.counts)
        return f"TextMatches(keyed by documents; {parts})"


# --- documents by their text ------------------------------------------------------------


class TextIndex:
    """Documents by their normalised text: which ids hold exactly a given text.

    Build it once to match several lists of texts against the same documents
    (:func:`match_texts` takes it where it takes documents).

    Parameters
    ----------
    documents : DataFrame, mapping or list of records
        ``doc_id, text`` (a DataFrame or records), or ``{doc_id: text}``. Ids are text:
        an integer id becomes its decimal text; each id once.

    Examples
    --------
    >>> index = TextIndex({"d1": "Same  text.", "d2": "Other.", "d3": "Same text."})
    >>> index.find("Same\\ntext."), index.find("Missing."), len(index)
    (['d1', 'd3'], [], 3)
    """

    def __init__(self, documents) -> None:
        ids, texts = _documents(documents)
        self.ids, self.texts = ids, texts
        self._by_text: dict[str, list[str]] = {}
        for doc_id, text in zip(ids, texts, strict=True):
            self._by_text.setdefault(normalize_whitespace(text), []).append(doc_id)

    def __len__(self) -> int:
        return len(self.ids)

    def find(self, text: str) -> list[str]:
        """The ids of the documents equal to ``text`` after whitespace normalisation."""
        return self.find_normalized(normalize_whitespace(text))

    def find_normalized(self, normalized: str) -> list[str]:
        """:meth:`find` for a text normalised already (:func:`normalize_whitespace`)."""
        return list(self._by_text.get(normalized, ()))

    def __repr__(self) -> str:
        return f"TextIndex({len(self.ids)} documents, {len(self._by_text)} distinct texts)"


def _an_id(value, where: str) -> str:
    """An id as text: a str as it is, an integer as its decimal text."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return str(int(value))
    raise InputTypeError(f"{where} must be an id (str or int), got {value!r}")


def _documents(documents) -> tuple[list[str], list[str]]:
    if isinstance(documents, Mapping):
        pairs = list(documents.items())
        where = [f"documents[{d!r}]" for d, _ in pairs]
        ids = [_an_id(d, "a key of documents") for d, _ in pairs]
        texts = [t for _, t in pairs]
    else:
        if isinstance(documents, list):
            documents = pd.DataFrame.from_records(documents)
        if not isinstance(documents, pd.DataFrame):
            raise InputTypeError("documents must be a DataFrame (doc_id, text), a list of "
                                 f"records or a mapping {{doc_id: text}}, got "
                                 f"{type(documents).__name__}")
        for column in ("doc_id", "text"):
            if column not in documents.columns:
                have = ", ".join(map(repr, documents.columns)) or "none"
                raise InputValueError(f"documents have no column {column!r} (columns: {have})")
        where = [f"documents row {i}" for i in range(len(documents))]
        ids = [_an_id(d, f"{w}: doc_id") for d, w in zip(documents["doc_id"].tolist(), where,
                                                         strict=True)]
        texts = documents["text"].tolist()
    seen: dict[str, str] = {}
    for doc_id, text, at in zip(ids, texts, where, strict=True):
        if not isinstance(text, str):
            raise InputTypeError(f"{at} (doc_id {doc_id!r}): text must be a str, got {text!r}")
        if doc_id in seen:
            raise InputValueError(f"{at}: document {doc_id!r} is given twice (first in "
                                  f"{seen[doc_id]})")
        seen[doc_id] = at
    return ids, texts


# --- the texts of each query --------------------------------------------------------------


@dataclass
class TextRows:
    """Texts given per query, checked, one per row: the query each is for, the text, where
    it was given (for errors), and the rank, score or relevance given with it."""

    query: list[str]
    text: list[str]
    where: list[str]
    rank: list | None = None  # retrieved: the rank given, or the position in the list
    score: list | None = None
    relevance: list | None = None
    bare: list = field(default_factory=list)  # queries given with no text at all (``[]``)


def _missing(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def _check_text(text, where: str) -> str:
    if not isinstance(text, str):
        kind = "missing" if _missing(text) else type(text).__name__
        raise InputTypeError(f"{where}: a text must be a str, got {text!r} ({kind})")
    if not WORD.search(text):
        raise InputValueError(f"{where}: the text is empty (or only whitespace), which "
                              "matches nothing; leave it out of the list")
    return text


def text_rows(texts, what: str = "reference") -> TextRows:
    """Check texts given as :func:`match_texts` takes them, one row per text.

    Each query id becomes text (an integer its decimal text); each text must be a
    non-empty ``str``, refused naming its row or key otherwise. Retrieved texts keep
    their ``rank`` and ``score`` (without either, the order of the rows within each
    query is the rank); reference texts their ``relevance`` when given.
    """
    if isinstance(texts, Mapping):
        rows = TextRows([], [], [], [] if what == "retrieved" else None)
        for query, given in texts.items():
            query = _an_id(query, "a key of texts (a query id)")
            if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, Iterable):
                raise InputTypeError(f"texts[{query!r}] must be a list of texts, got "
                                     f"{given!r}")
            given = list(given)
            if not given:
                rows.bare.append(query)
            for position, text in enumerate(given):
                where = f"texts[{query!r}][{position}]"
                rows.query.append(query)
                rows.text.append(_check_text(text, where))
                rows.where.append(where)
                if rows.rank is not None:
                    rows.rank.append(position + 1)
        return rows
    if isinstance(texts, list):
        texts = pd.DataFrame.from_records(texts)
    if not isinstance(texts, pd.DataFrame):
        raise InputTypeError("texts must be a DataFrame (query_id, text[, rank]), a list of "
                             "records or a mapping {query_id: [text, ...]}, got "
                             f"{type(texts).__name__}")
    for column in ("query_id", "text"):
        if column not in texts.columns:
            have = ", ".join(map(repr, texts.columns)) or "none"
            raise InputValueError(f"texts have no column {column!r} (columns: {have})")
    where = [f"texts row {i}" for i in range(len(texts))]
    query = [_an_id(q, f"{w}: query_id") for q, w in zip(texts["query_id"].tolist(), where,
                                                         strict=True)]
    where = [f"{w} (query_id {q!r})" for w, q in zip(where, query, strict=True)]
    text = [_check_text(t, w) for t, w in zip(texts["text"].tolist(), where, strict=True)]
    rows = TextRows(query, text, where)
    if what == "retrieved":
        if "rank" in texts.columns:
            rows.rank = texts["rank"].tolist()
        elif "score" not in texts.columns:  # the order given, within each query
            rows.rank = (pd.Series(query, dtype=object).groupby(query, sort=False)
                         .cumcount() + 1).tolist()
        if "score" in texts.columns:
            rows.score = texts["score"].tolist()
    elif "relevance" in texts.columns:
        rows.relevance = texts["relevance"].tolist()
    return rows


# --- matching ------------------------------------------------------------------------------


def match_texts(texts, documents=None, *, what: str = "reference", unmatched: str = "error",
                where=None) -> tuple[pd.DataFrame, TextMatches]:
    """Give each text the id of the document it is: judgments or a run from texts.

    Parameters
    ----------
    texts : DataFrame, list of records or mapping
        ``query_id, text`` (one row per text; for retrieved texts, ``rank`` and/or
        ``score`` if given, else the order of the rows within each query; for reference
        texts, ``relevance`` if given, else 1), or ``{query_id: [text, ...]}`` (for
        retrieved texts, in rank order). A text must be a non-empty ``str``: None, NaN
        or a number is refused, naming the row.
    documents : DataFrame, mapping, list of records, TextIndex or None
        ``doc_id, text``, or ``{doc_id: text}``: the chunks (passages) the texts were
        cut as. None: **text-keyed**, each distinct text is its own id (:func:`text_id`),
        shared by reference and retrieved texts.
    what : {"reference", "retrieved"}, default "reference"
        Reference texts become qrels, retrieved texts a run.
    unmatched : {"error", "report"}, default "error"
        A text equal to no document, or to more than one: ``"error"`` refuses them all
        at once, with their counts and the first examples; ``"report"`` keeps each under
        an id of its own (:func:`text_id`), which no document has, and counts it in the
        report.
    where : list of str, optional
        Where each text was given, in the order of the texts (e.g.
        ``"samples.jsonl, line 4, retrieved_contexts[2]"``), for the error's examples;
        by default the row (``texts row 3``) or the key (``texts['q1'][2]``).

    Returns
    -------
    frame : pandas.DataFrame
        Reference texts: qrels ``query_id, doc_id, relevance`` (a document judged once
        per query, with the highest grade of the texts that match it). Retrieved
        texts: a run ``query_id, doc_id`` and ``rank`` and/or ``score`` (a document
        that two retrieved texts match is listed twice, as it was retrieved:
        :func:`ragmetrics.evaluate`'s ``duplicates`` convention decides).
    report : TextMatches
        The counts of matched, unmatched and ambiguous texts, with examples.

    Raises
    ------
    InputValueError
        With ``unmatched="error"``, when a text matches no document or more than one.

    Examples
    --------
    >>> documents = {"d1": "Refunds take 5 days.", "d2": "Contact billing."}
    >>> match_texts({"q1": ["Refunds take 5 days.", "Ask the bot."]}, documents)
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: 1 of 2 reference texts matched no document (exact match after whitespace normalisation): texts['q1'][1]: 'Ask the bot.'; pass unmatched='report' to keep them under ids of their own ('text:...'), counted as relevant and never retrieved

    References
    ----------
    .. [1] RAGAS, ``SingleTurnSample``: ``reference_contexts``, ``retrieved_contexts``
       (texts) and ``reference_context_ids``, ``retrieved_context_ids``;
       https://docs.ragas.io/
    """
    what = check_choice(what, _WHAT, "what")
    unmatched = check_choice(unmatched, UNMATCHED_POLICIES, "unmatched")
    rows = text_rows(texts, what)
    if where is not None:
        where = [str(w) for w in where]
        if len(where) != len(rows.text):
            raise InputValueError(f"where names {len(where)} places for {len(rows.text)} "
                                  "texts; give one per text")
        rows.where = where
    index = documents if isinstance(documents, TextIndex) or documents is None else \
        TextIndex(documents)
    n = len(rows.text)
    ids: list[str] = []
    outcome: list[str] = []
    found: list[list[str]] = []
    normalized = [normalize_whitespace(text) for text in rows.text]
    for text in normalized:
        docs = [] if index is None else index.find_normalized(text)
        found.append(docs)
        if index is None:
            outcome.append("keyed")
            ids.append(_digest_id(text))
        elif len(docs) == 1:
            outcome.append("matched")
            ids.append(docs[0])
        else:
            outcome.append("unmatched" if not docs else "ambiguous")
            ids.append(_digest_id(text))
    counts = TextCounts(what, n, outcome.count("matched"), outcome.count("unmatched"),
                        outcome.count("ambiguous"), outcome.count("keyed"))
    if unmatched == "error" and (counts.unmatched or counts.ambiguous):
        raise InputValueError(_refusal(rows, outcome, found, counts))
    examples = []
    for kind in ("unmatched", "ambiguous", "keyed", "matched"):
        for i in [i for i, o in enumerate(outcome) if o == kind][:_EXAMPLES]:
            examples.append(TextExample(what, kind, rows.query[i], shorten(rows.text[i]),
                                        tuple(found[i]), ids[i]))
    own = [i for i, o in enumerate(outcome) if o != "matched"]
    minted = pd.DataFrame({"doc_id": pd.Series([ids[i] for i in own], dtype="str"),
                           "text": pd.Series([normalized[i] for i in own],
                                             dtype="str")}).drop_duplicates(
        "doc_id", ignore_index=True)
    report = TextMatches("text" if index is None else "documents", (counts,), tuple(examples),
                         unmatched, minted)
    frame = pd.DataFrame({"query_id": pd.Series(rows.query, dtype="str"),
                          "doc_id": pd.Series(ids, dtype="str")})
    if what == "reference":
        frame["relevance"] = 1 if rows.relevance is None else rows.relevance
        if len(frame):
            frame = (frame.sort_values("relevance", ascending=False, kind="stable")
                     .drop_duplicates(["query_id", "doc_id"]).sort_index()
                     .reset_index(drop=True))
        else:
            frame["relevance"] = frame["relevance"].astype(np.int64)
        return frame, report
    if rows.rank is not None:
        frame["rank"] = pd.Series(rows.rank, dtype=np.int64 if all(
            isinstance(r, (int, np.integer)) for r in rows.rank) else object)
    if rows.score is not None:
        frame["score"] = rows.score
    return frame, report


def _refusal(rows: TextRows, outcome: list[str], found: list[list[str]],
             counts: TextCounts) -> str:
    unmatched = [f"{rows.where[i]}: {shorten(rows.text[i])!r}"
                 for i, o in enumerate(outcome) if o == "unmatched"]
    ambiguous = [f"{rows.where[i]}: {shorten(rows.text[i])!r} equals "
                 + ", ".join(map(repr, found[i][:3])) + (", ..." if len(found[i]) > 3 else "")
                 for i, o in enumerate(outcome) if o == "ambiguous"]
    kept_as = ("relevant and never retrieved" if counts.what == "reference" else
               "retrieved and relevant to no document")
    return refused_texts(
        counts, unmatched, ambiguous, none="matched no document",
        many="matched more than one document",
        remedy="pass unmatched='report' to keep them under ids of their own ('text:...'), "
               f"counted as {kept_as}")


def refused_texts(counts: TextCounts, unmatched: list[str], ambiguous: list[str], *,
                  none: str, many: str, remedy: str) -> str:
    """The one message that refuses texts found nowhere or more than once: the counts,
    the first few of each (where, the text cut short, what it matched), and the remedy.

    Examples
    --------
    >>> counts = TextCounts("reference", texts=3, matched=1, unmatched=1, ambiguous=1,
    ...                     keyed=0)
    >>> print(refused_texts(counts, ["query 'q1': 'Other.'"], ["query 'q1': 'Same.' equals 'd2'"],
    ...                     none="matched no document", many="matched more than one",
    ...                     remedy="pass unmatched='report'"))
    1 of 3 reference texts matched no document (exact match after whitespace normalisation): query 'q1': 'Other.'; 1 of 3 reference texts matched more than one: query 'q1': 'Same.' equals 'd2'; pass unmatched='report'
    """
    parts = []
    if unmatched:
        parts.append(f"{counts.unmatched} of {counts.texts} {counts.what} texts {none} (exact "
                     "match after whitespace normalisation): " + _listing(unmatched))
    if ambiguous:
        parts.append(f"{counts.ambiguous} of {counts.texts} {counts.what} texts {many}: "
                     + _listing(ambiguous))
    return "; ".join([*parts, remedy])


def _listing(items: list[str]) -> str:
    shown = "; ".join(items[:_LISTED])
    return shown + (f"; ... and {len(items) - _LISTED} more" if len(items) > _LISTED else "")
