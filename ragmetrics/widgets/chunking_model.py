"""The chunking explorer's view-model: what it shows, computed by pure functions (no widget).

One document, one question and its evidence; a chunking of the document into windows of
tokens whose boundaries the learner moves. :class:`ragmetrics.widgets.ChunkingExplorer`
only wires a browser view to these functions: every number it shows comes from
:func:`chunking_view`, which judges the chunks with the same code as
:func:`ragmetrics.spans.chunk_qrels` and measures the retrieved text with the same code as
:func:`ragmetrics.spans.span_metrics`; every sentence its live region says comes from
:func:`describe_change`.

A chunking here is a list of **cuts**: token positions where a chunk starts, the first
always 0. Chunk ``i`` runs from cut ``i`` to ``overlap`` tokens past the next cut (to the
end of the document for the last), so even cuts every ``size - overlap`` tokens give the
windows of :func:`ragmetrics.spans.window_chunks` exactly. Tokens are the word pieces of
:func:`ragmetrics.spans.word_pieces`.

The **retriever** is a toy, so that moving a boundary can change the ranking as it would
with a real one: it ranks the chunks by how many of the question's distinct words they
contain (lower-cased, without a short list of function words), ties in document order.
Bigger chunks hold more words, so they tend to rank higher, as with BM25.

Tested on their own in ``tests/unit/widgets/test_chunking_explorer.py``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..errors import InputTypeError, InputValueError
from ..metrics import precision_at_k, recall_at_k
from ..spans.chunking import piece_offsets
from ..spans.metrics import SpanScorer
from ..spans.rules import RULES, ChunkOverlaps, check_threshold
from ..validation import check_k

__all__ = [
    "DEFAULT_RULE_THRESHOLDS",
    "STOP_WORDS",
    "ChunkingState",
    "check_cuts",
    "chunk_offsets",
    "chunking_view",
    "describe_change",
    "describe_chunking",
    "describe_reset",
    "describe_state",
    "document_tokens",
    "moved_cuts",
    "question_terms",
    "rank_chunks",
    "window_cuts",
]

#: The thresholds the explorer applies, rule by rule (``"any_overlap"`` has none).
DEFAULT_RULE_THRESHOLDS = {"any_overlap": None, "min_chars": 25, "chunk_coverage": 0.5,
                           "evidence_coverage": 0.5}

#: Words the toy retriever does not count: they match almost every chunk.
STOP_WORDS = frozenset((
    "a", "an", "and", "any", "are", "as", "at", "be", "but", "by", "can", "do", "does",
    "for", "from", "get", "got", "has", "have", "how", "i", "if", "in", "into", "is",
    "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "so", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "to", "up", "us",
    "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with",
    "you", "your",
))

_WORD = re.compile(r"\w+")
_DOC, _QUERY = "document", "question"


def document_tokens(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every token (word piece) of ``text``, as the chunkers cut it.

    >>> document_tokens("Refunds take days.")
    [(0, 7), (8, 12), (13, 17), (17, 18)]
    """
    return piece_offsets(text)


def window_cuts(n_tokens: int, size: int, overlap: int = 0) -> list[int]:
    """Cuts of windows of ``size`` tokens, each ``overlap`` into the next.

    Examples
    --------
    >>> window_cuts(10, 4, 1)  # windows [0, 4), [3, 7), [6, 10)
    [0, 3, 6]
    """
    size = check_k(size, name="size")
    if isinstance(overlap, bool) or not isinstance(overlap, int) or not 0 <= overlap < size:
        raise InputValueError(f"overlap must be a whole number of tokens in [0, size), "
                              f"got {overlap!r} for size {size}")
    stride, cuts = size - overlap, [0]
    while cuts[-1] + size < n_tokens:
        cuts.append(cuts[-1] + stride)
    return cuts


def check_cuts(cuts: Sequence[int], n_tokens: int) -> list[int]:
    """Cuts as a list of ints: 0 first, then strictly increasing, all before the end."""
    if isinstance(cuts, (str, bytes)) or not isinstance(cuts, Sequence):
        raise InputTypeError(f"cuts must be a list of token positions, got {cuts!r}")
    cuts = list(cuts)
    if any(isinstance(c, bool) or not isinstance(c, int) for c in cuts):
        raise InputTypeError(f"cuts must be whole token positions, got {cuts!r}")
    if not cuts or cuts[0] != 0:
        raise InputValueError(f"the first chunk starts at token 0: cuts must begin with 0, "
                              f"got {cuts!r}")
    bad = next((i for i in range(1, len(cuts)) if not cuts[i - 1] < cuts[i] < n_tokens), None)
    if bad is not None:
        raise InputValueError(
            f"cut {bad} at token {cuts[bad]} must lie after cut {bad - 1} (token "
            f"{cuts[bad - 1]}) and before the end ({n_tokens} tokens): every chunk holds "
            "a token")
    return cuts


def moved_cuts(cuts: Sequence[int], chunk: int, token: int) -> list[int]:
    """The cuts after chunk number ``chunk`` (2, 3, ...) starts at token number ``token``
    (1-based): what a drag of the chunk's bar does.

    Examples
    --------
    >>> moved_cuts([0, 4, 8], 2, 3)  # chunk 2 now starts at the 3rd token (position 2)
    [0, 2, 8]
    """
    if isinstance(chunk, bool) or not isinstance(chunk, int) or not 2 <= chunk <= len(cuts):
        raise InputValueError(f"chunk must be 2 to {len(cuts)} (chunk 1 starts the "
                              f"document), got {chunk!r}")
    if isinstance(token, bool) or not isinstance(token, int):
        raise InputTypeError(f"token must be a whole token number (1-based), got {token!r}")
    moved = list(cuts)
    moved[chunk - 1] = token - 1
    return moved


def chunk_offsets(tokens: Sequence[tuple[int, int]], cuts: Sequence[int], overlap: int = 0
                  ) -> list[tuple[int, int]]:
    """Character offsets ``(start, end)`` of each chunk: cut ``i`` to ``overlap`` past cut
    ``i + 1``, from the start of its first token to the end of its last.

    Examples
    --------
    >>> text = "one two three four five"
    >>> tokens = document_tokens(text)
    >>> [text[s:e] for s, e in chunk_offsets(tokens, [0, 2, 4], overlap=1)]
    ['one two three', 'three four five', 'five']
    """
    n = len(tokens)
    ends = [min(c + overlap, n) for c in cuts[1:]] + [n]
    return [(tokens[c][0], tokens[e - 1][1]) for c, e in zip(cuts, ends, strict=True)]


def question_terms(question: str) -> set[str]:
    """The words the toy retriever looks for: lower-cased, without :data:`STOP_WORDS`.

    >>> sorted(question_terms("What happens if we go over our seat count?"))
    ['count', 'go', 'happens', 'over', 'seat']
    """
    return {w.lower() for w in _WORD.findall(question)} - STOP_WORDS


def rank_chunks(text: str, offsets: Sequence[tuple[int, int]], question: str
                ) -> tuple[list[int], list[int]]:
    """The toy retriever: chunks by how many question words they hold, ties in order.

    Returns the chunk positions best first, and each chunk's count (in chunk order).

    >>> text = "seat count rules. other words. seat limits"
    >>> rank_chunks(text, [(0, 17), (18, 30), (31, 42)], "seat count")
    ([0, 2, 1], [2, 0, 1])
    """
    terms = question_terms(question)
    scores = [len(terms & {w.lower() for w in _WORD.findall(text[s:e])}) for s, e in offsets]
    order = sorted(range(len(offsets)), key=lambda i: (-scores[i], i))
    return order, scores


def _rule_label(rule: str, threshold) -> str:
    if rule == "any_overlap":
        return "any overlap"
    if rule == "min_chars":
        return f"≥ {threshold} shared characters"
    share = f"{threshold * 100:g}%"
    return f"≥ {share} of the chunk" if rule == "chunk_coverage" else f"≥ {share} of a span"


def _evidence(evidence) -> list[tuple[int, int, float]]:
    spans = []
    for span in evidence:
        if not isinstance(span, Sequence) or len(span) not in (2, 3):
            raise InputTypeError(f"an evidence span is (start, end) or (start, end, grade), "
                                 f"got {span!r}")
        spans.append((int(span[0]), int(span[1]), float(span[2]) if len(span) == 3 else 1.0))
    if not spans:
        raise InputValueError("the explorer needs at least one evidence span")
    return spans


def chunking_view(text: str, tokens: Sequence[tuple[int, int]], cuts: Sequence[int],
                  overlap: int, evidence, question: str, k: int, *,
                  thresholds: Mapping | None = None) -> dict:
    """Everything the explorer shows for one chunking, as JSON-ready data.

    Parameters
    ----------
    text : str
        The document.
    tokens : sequence of (start, end)
        Its word pieces (:func:`document_tokens`).
    cuts, overlap
        The chunking (see the module's docstring).
    evidence : sequence of (start, end) or (start, end, grade)
        The question's evidence in this document.
    question : str
        What the toy retriever ranks the chunks for.
    k : int
        How many chunks the retriever returns.
    thresholds : mapping, optional
        Rule -> threshold; default :data:`DEFAULT_RULE_THRESHOLDS`.

    Returns
    -------
    dict
        ``chunks`` (in document order: ``label``, ``start``, ``end``, ``first_token``,
        ``last_token``, ``rank``, ``score``, ``retrieved``, ``relevant`` (rule ->
        bool), ``overlaps`` (one per evidence span it shares characters with:
        ``span``, ``shared``, ``of_chunk``, ``of_span``)); ``rules`` (``rule``,
        ``label``); ``metrics`` (key -> value: ``span_recall``, ``span_precision``,
        ``span_iou``, and ``recall:<rule>``, ``precision:<rule>``); ``labels`` (key ->
        "Span IoU@3", "Recall@3 (any overlap)", ...); ``ranking`` (chunk labels, best
        first); ``k``.

    Examples
    --------
    Three chunks of two tokens; the evidence, ``"four five"``, straddles chunks 2 and 3.
    The retriever returns chunk 2 (it holds "four"): 4 of the 9 evidence characters, in
    10 retrieved, so IoU = 4 / (10 + 9 - 4); by any overlap both chunks are relevant,
    and one of the two is retrieved:

    >>> text = "one two three four five six"
    >>> tokens = document_tokens(text)
    >>> view = chunking_view(text, tokens, [0, 2, 4], 0, [(14, 23)], "four", 1)
    >>> view["ranking"]
    ['chunk 2', 'chunk 1', 'chunk 3']
    >>> round(view["metrics"]["span_iou"], 4), view["metrics"]["recall:any_overlap"]
    (0.2667, 0.5)
    >>> [c["label"] for c in view["chunks"] if c["relevant"]["chunk_coverage"]]  # 4 of 8
    ['chunk 3']
    """
    k = check_k(k)
    thresholds = dict(DEFAULT_RULE_THRESHOLDS if thresholds is None else thresholds)
    rules = [(rule, check_threshold(rule, thresholds.get(rule))) for rule in RULES]
    spans = _evidence(evidence)
    offsets = chunk_offsets(tokens, check_cuts(cuts, len(tokens)), overlap)
    ids = [f"chunk {i + 1}" for i in range(len(offsets))]
    chunks = [{"chunk_id": c, "doc_id": _DOC, "start": s, "end": e}
              for c, (s, e) in zip(ids, offsets, strict=True)]
    judged = [{"query_id": _QUERY, "doc_id": _DOC, "start": s, "end": e, "relevance": g}
              for s, e, g in spans]
    documents = {_DOC: text}
    order, scores = rank_chunks(text, offsets, question)
    ranking = [ids[i] for i in order]

    overlaps = ChunkOverlaps(chunks, judged, documents=documents)
    relevant = {}
    for rule, threshold in rules:
        _, chunk, grade = overlaps.grades(rule, threshold)
        relevant[rule] = {ids[c] for c, g in zip(chunk.tolist(), grade.tolist(), strict=True)
                          if g >= 1}
    shared = {}
    for span, chunk, n, chunk_len, span_len in zip(
            overlaps.span.tolist(), overlaps.chunk.tolist(), overlaps.shared.tolist(),
            overlaps.chunk_length.tolist(), overlaps.span_length.tolist(), strict=True):
        shared.setdefault(chunk, []).append({"span": span + 1, "shared": n,
                                             "of_chunk": n / chunk_len, "of_span": n / span_len})
    scorer = SpanScorer({_QUERY: ranking}, chunks, judged, documents=documents)
    by_text = scorer.scores(k)

    metrics = {"span_recall": float(by_text["recall"][0]),
               "span_precision": float(by_text["precision"][0]),
               "span_iou": float(by_text["iou"][0])}
    labels = {"span_recall": f"Span recall@{k}", "span_precision": f"Span precision@{k}",
              "span_iou": f"Span IoU@{k}"}
    for rule, threshold in rules:
        name = _rule_label(rule, threshold)
        metrics[f"recall:{rule}"] = recall_at_k(ranking, relevant[rule], k)
        metrics[f"precision:{rule}"] = precision_at_k(ranking, relevant[rule], k)
        labels[f"recall:{rule}"] = f"Recall@{k} ({name})"
        labels[f"precision:{rule}"] = f"Precision@{k} ({name})"
    rank_of = {c: r + 1 for r, c in enumerate(ranking)}
    n = len(tokens)
    ends = [min(c + overlap, n) for c in cuts[1:]] + [n]
    return {
        "chunks": [{"label": c, "start": s, "end": e, "first_token": int(cut),
                    "last_token": int(end) - 1, "rank": rank_of[c], "score": scores[i],
                    "retrieved": rank_of[c] <= k,
                    "relevant": {rule: c in relevant[rule] for rule, _ in rules},
                    "overlaps": sorted(shared.get(i, []), key=lambda o: o["span"])}
                   for i, (c, (s, e), cut, end) in enumerate(zip(ids, offsets, cuts, ends,
                                                                 strict=True))],
        "rules": [{"rule": rule, "label": _rule_label(rule, t)} for rule, t in rules],
        "metrics": metrics,
        "labels": labels,
        "ranking": ranking,
        "k": k,
    }


def _listed(labels: Sequence[str]) -> str:
    if not labels:
        return "none"
    numbers = [label.removeprefix("chunk ") for label in labels]
    return ("chunk " if len(numbers) == 1 else "chunks ") + ", ".join(numbers)


def describe_state(view: Mapping) -> str:
    """The relevant chunks under each rule and the key metrics, in one sentence.

    >>> text = "one two three four five six"
    >>> view = chunking_view(text, document_tokens(text), [0, 2, 4], 0, [(14, 23)], "four", 1)
    >>> describe_state(view)
    'relevant: any overlap chunks 2, 3; ≥ 25 shared characters none; ≥ 50% of the chunk chunk 3; ≥ 50% of a span none; Span recall@1 0.44, Span IoU@1 0.27, Recall@1 (any overlap) 0.50'
    """
    parts = []
    for rule in view["rules"]:
        chosen = [c["label"] for c in view["chunks"] if c["relevant"][rule["rule"]]]
        parts.append(f"{rule['label']} {_listed(chosen)}")
    m, labels = view["metrics"], view["labels"]
    numbers = ", ".join(f"{labels[key]} {m[key]:.2f}"
                        for key in ("span_recall", "span_iou", "recall:any_overlap"))
    return "relevant: " + "; ".join(parts) + "; " + numbers


def describe_change(before: Mapping, after: Mapping) -> str:
    """What the learner changed, then :func:`describe_state`: what the live region says.

    ``before`` and ``after`` hold ``cuts``, ``size``, ``overlap``, ``k`` and ``view``.
    Empty when nothing changed.

    >>> text = "one two three four five six"
    >>> tokens = document_tokens(text)
    >>> state = {"cuts": [0, 2, 4], "size": 2, "overlap": 0, "k": 1}
    >>> before = dict(state, view=chunking_view(text, tokens, [0, 2, 4], 0, [(14, 23)], "four", 1))
    >>> after = dict(state, cuts=[0, 3, 4])
    >>> after["view"] = chunking_view(text, tokens, [0, 3, 4], 0, [(14, 23)], "four", 1)
    >>> describe_change(before, after)  # chunk 2 is now "four": all of it evidence
    'boundary of chunk 2 moved to token 4; relevant: any overlap chunks 2, 3; ≥ 25 shared characters none; ≥ 50% of the chunk chunks 2, 3; ≥ 50% of a span none; Span recall@1 0.44, Span IoU@1 0.44, Recall@1 (any overlap) 0.50'
    """
    events = []
    if (before["size"], before["overlap"]) != (after["size"], after["overlap"]):
        events.append(f"windows of {after['size']} tokens, {after['overlap']} overlapping: "
                      f"{len(after['cuts'])} chunks")
    elif list(before["cuts"]) != list(after["cuts"]):
        old, new = list(before["cuts"]), list(after["cuts"])
        if len(old) == len(new):
            moved = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
            events += [f"boundary of chunk {i + 1} moved to token {new[i] + 1}" for i in moved]
        else:
            events.append(f"{len(new)} chunks")
    if before["k"] != after["k"]:
        events.append(f"the retriever returns {after['k']} "
                      + ("chunk" if after["k"] == 1 else "chunks"))
    if not events:
        return ""
    return "; ".join(events) + "; " + describe_state(after["view"])


def describe_reset(view: Mapping) -> str:
    """What the live region says when the explorer goes back to its starting chunking.

    >>> text = "one two three four five six"
    >>> view = chunking_view(text, document_tokens(text), [0, 2, 4], 0, [(14, 23)], "four", 1)
    >>> describe_reset(view).split("; ")[0]
    'explorer reset to its starting chunking'
    """
    return f"explorer reset to its starting chunking; {describe_state(view)}"


def describe_chunking(view: Mapping, text: str) -> str:
    """What the explorer shows, as text: each chunk, then the metrics (for checkpoints).

    >>> text = "one two three four five six"
    >>> view = chunking_view(text, document_tokens(text), [0, 2, 4], 0, [(14, 23)], "four", 1)
    >>> print(describe_chunking(view, text))
    chunk 1  tokens 1-2     rank 2            'one two'
    chunk 2  tokens 3-4     rank 1  retrieved 'three four'  evidence: span 1 4 chars (44% of the span, 40% of the chunk); relevant: any overlap
    chunk 3  tokens 5-6     rank 3            'five six'  evidence: span 1 4 chars (44% of the span, 50% of the chunk); relevant: any overlap, ≥ 50% of the chunk
    Span recall@1 0.4444 | Span precision@1 0.4000 | Span IoU@1 0.2667
    Recall@1: any overlap 0.50, ≥ 25 shared characters 0.00, ≥ 50% of the chunk 0.00, ≥ 50% of a span 0.00
    Precision@1: any overlap 1.00, ≥ 25 shared characters 0.00, ≥ 50% of the chunk 0.00, ≥ 50% of a span 0.00
    """
    lines = []
    for c in view["chunks"]:
        words = text[c["start"]:c["end"]]
        shown = words if len(words) <= 40 else words[:18] + " ... " + words[-17:]
        where = f"tokens {c['first_token'] + 1}-{c['last_token'] + 1}"
        line = (f"{c['label']:<8} {where:<14} rank {c['rank']:<2} "
                f"{'retrieved' if c['retrieved'] else '':<9} {shown!r}")
        if c["overlaps"]:
            line += "  evidence: " + ", ".join(
                f"span {o['span']} {o['shared']} chars ({o['of_span']:.0%} of the span, "
                f"{o['of_chunk']:.0%} of the chunk)" for o in c["overlaps"])
            chosen = [r["label"] for r in view["rules"] if c["relevant"][r["rule"]]]
            line += "; relevant: " + (", ".join(chosen) or "under no rule")
        lines.append(line.rstrip())
    m, labels = view["metrics"], view["labels"]
    lines.append(" | ".join(f"{labels[key]} {m[key]:.4f}"
                            for key in ("span_recall", "span_precision", "span_iou")))
    for kind, name in (("recall", "Recall"), ("precision", "Precision")):
        lines.append(f"{name}@{view['k']}: " + ", ".join(
            f"{r['label']} {m[kind + ':' + r['rule']]:.2f}" for r in view["rules"]))
    return "\n".join(lines)


class ChunkingState:
    """An explorer's chunking without a widget: a copy to try moves on.

    ``explorer.state()`` gives one (:meth:`ragmetrics.widgets.ChunkingExplorer.state`);
    checkpoint cells move the copy, so the explorer the learner plays with keeps the
    chunking they left it in. Every number comes from :func:`chunking_view`, as the
    explorer's do.

    Parameters
    ----------
    text : str
        The document.
    evidence : sequence of (start, end) or (start, end, grade)
        The question's evidence spans in the document.
    question : str
        What the toy retriever ranks the chunks for.
    cuts : sequence of int
        The token where each chunk starts (0 first; see the module's docstring).
    size, overlap : int
        The windows' size and overlap (what :meth:`set_windows` starts again from; the
        overlap also extends each chunk past the next cut).
    k : int, default 2
        How many chunks the retriever returns.
    thresholds : mapping, optional
        Rule -> threshold; default :data:`DEFAULT_RULE_THRESHOLDS`.

    Examples
    --------
    >>> text = "one two three four five six"
    >>> state = ChunkingState(text, [(14, 23)], "four", [0, 2, 4], size=2, k=1)
    >>> round(state.metrics["span_iou"], 4)
    0.2667
    >>> state.move_boundary(2, 4)  # chunk 2 now starts at token 4: "four"
    >>> state.cuts, round(state.metrics["span_iou"], 4)
    ([0, 3, 4], 0.4444)
    >>> state.set_windows(3)
    >>> state.cuts
    [0, 3]
    """

    def __init__(self, text, evidence, question, cuts, *, size, overlap=0, k=2,
                 thresholds=None):
        if not isinstance(text, str) or not text.strip():
            raise InputValueError("a chunking state needs a document with some text")
        self.text = text
        self.tokens = document_tokens(text)
        self.evidence = _evidence(evidence)
        self.question = str(question)
        self.thresholds = dict(DEFAULT_RULE_THRESHOLDS if thresholds is None else thresholds)
        self.size, self.overlap = self._checked_windows(size, overlap)
        self.cuts = check_cuts(cuts, len(self.tokens))
        self.k = k

    def _checked_windows(self, size, overlap) -> tuple[int, int]:
        size = check_k(size, name="size")
        if size > len(self.tokens):
            raise InputValueError(f"size must be between 1 and the document's "
                                  f"{len(self.tokens)} tokens, got {size}")
        if isinstance(overlap, bool) or not isinstance(overlap, int) or not 0 <= overlap < size:
            raise InputValueError(f"overlap must be a whole number of tokens in [0, size), "
                                  f"got {overlap!r} for size {size}")
        return size, overlap

    @property
    def k(self) -> int:
        """How many chunks the retriever returns (a slider's value)."""
        return self._k

    @k.setter
    def k(self, value) -> None:
        self._k = check_k(value)

    def copy(self) -> ChunkingState:
        """An independent copy."""
        return ChunkingState(self.text, self.evidence, self.question, self.cuts,
                             size=self.size, overlap=self.overlap, k=self.k,
                             thresholds=self.thresholds)

    def move_boundary(self, chunk: int, token: int) -> None:
        """Start chunk number ``chunk`` (2, 3, ...) at token number ``token`` (1-based),
        as a drag of its bar does."""
        self.cuts = check_cuts(moved_cuts(self.cuts, chunk, token), len(self.tokens))

    def set_windows(self, size: int, overlap: int = 0) -> None:
        """Even windows of ``size`` tokens, ``overlap`` into the next (the two sliders)."""
        self.size, self.overlap = self._checked_windows(size, overlap)
        self.cuts = window_cuts(len(self.tokens), self.size, self.overlap)

    @property
    def view(self) -> dict:
        """What the explorer would show (:func:`chunking_view`)."""
        return chunking_view(self.text, self.tokens, self.cuts, self.overlap, self.evidence,
                             self.question, self.k, thresholds=self.thresholds)

    @property
    def metrics(self) -> dict[str, float]:
        """The metrics of the retrieved chunks (``view["metrics"]``)."""
        return self.view["metrics"]

    def describe(self) -> str:
        """What the explorer would show, as text (:func:`describe_chunking`)."""
        return describe_chunking(self.view, self.text)

    def __eq__(self, other) -> bool:
        if not isinstance(other, ChunkingState):
            return NotImplemented
        return ((self.text, self.evidence, self.question, self.cuts, self.size, self.overlap,
                 self.k, self.thresholds)
                == (other.text, other.evidence, other.question, other.cuts, other.size,
                    other.overlap, other.k, other.thresholds))

    __hash__ = None

    def __repr__(self) -> str:
        return (f"ChunkingState({len(self.tokens)} tokens, {len(self.cuts)} chunks: "
                f"size={self.size}, overlap={self.overlap}, cuts={self.cuts!r}, k={self.k})")
