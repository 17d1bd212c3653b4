"""Evidence as the golden set of :func:`ragmetrics.evaluate` and :func:`ragmetrics.compare`.

Chunk ids do not survive re-chunking, so a comparison of chunkings cannot be judged by
chunk ids. It can be judged by evidence: a :class:`SpanJudgments` holds the evidence
spans (and the documents) with the rules that turn them into numbers for *any*
chunking, and ``evaluate`` and ``compare`` take it where they take qrels, with the run's
chunking beside it::

    judgments = SpanJudgments(evidence, documents=documents)
    evaluate(run, judgments, ["span_recall@10", "span_iou@10", "ndcg@10"], chunks=chunks)
    compare({"w128": run_a, "w512": run_b}, judgments, chunks={"w128": a, "w512": b})

(``evidence=`` and ``documents=`` in place of the judgments do the same, with the default
rules.) Two kinds of metric are then computed for each system over its own chunking:

- the **span metrics** by name (``span_recall@10``, ``span_iou@budget=1000``, ...;
  :mod:`ragmetrics.spans.names`), measured on the retrieved text by
  :func:`ragmetrics.spans.span_metrics`;
- the **id-based metrics** of the metric table (``recall@10``, ``ndcg@10``, ...), with
  each chunk judged from the evidence by the rule (:func:`ragmetrics.spans.chunk_qrels`).

Every system is scored on the evidence's queries (a query without evidence included,
scored by ``empty_relevant``), so a comparison of chunkings pairs the same questions.
This module routes such calls; it computes nothing that :mod:`ragmetrics.spans.metrics`,
:mod:`ragmetrics.spans.rules` and :func:`ragmetrics.evaluate` do not.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import FormatError, InputError, InputTypeError, InputValueError
from ..evaluation.engine import natural_order
from ..evaluation.evaluator import add_judgment_reader
from ..evaluation.in_memory import evaluate_in_memory
from ..evaluation.result import Evaluation
from ..validation import check_choice
from .metrics import OVERLAP_POLICIES, UNITS, SpanScorer, warn_evidence_gaps
from .model import Chunks, as_chunks, as_documents, as_evidence, as_run
from .names import is_span_metric, is_span_spec, parse_metric_names
from .rules import ChunkOverlaps, check_threshold

__all__ = ["SpanComparison", "SpanJudgments", "SpanRequest", "span_comparison",
           "span_request"]

_RULE_TEXT = {
    "any_overlap": "a chunk is relevant when it shares at least one character with an "
                   "evidence span",
    "min_chars": "a chunk is relevant when it shares at least {t} characters with an "
                 "evidence span",
    "chunk_coverage": "a chunk is relevant when at least {t} of its characters are one "
                      "evidence span's",
    "evidence_coverage": "a chunk is relevant when it holds at least {t} of an evidence "
                         "span's characters",
}


class SpanJudgments:
    """A golden set of evidence spans, with the rules that score any chunking against it.

    Pass it to :func:`ragmetrics.evaluate` or :func:`ragmetrics.compare` in place of the
    qrels, with each run's chunking as ``chunks=``.

    Parameters
    ----------
    evidence : DataFrame, mapping, records or file
        ``query_id, doc_id, start, end[, relevance]`` or ``query_id, doc_id, quote``
        (:mod:`ragmetrics.spans.model`); a query given with no span has no evidence.
    documents : DataFrame, mapping, records or file, optional
        ``doc_id, text``: needed to locate quotes and chunk texts, to count tokens, and
        to check offsets against the documents' lengths.
    rule : {"any_overlap", "min_chars", "chunk_coverage", "evidence_coverage"}
        How the id-based metrics (``recall@10``, ``ndcg@10``, ...) judge a chunk: the
        rules of :func:`ragmetrics.spans.chunk_qrels`, whose grade is the highest among
        the spans the chunk qualifies for.
    threshold : number, optional
        The rule's threshold (none for ``"any_overlap"``).
    unit : {"char", "token"}, default "char"
        What the span metrics count (:func:`ragmetrics.spans.span_metrics`); also the
        unit of ``@budget=N``.
    tokenizer : callable, optional
        ``str -> list`` for ``unit="token"``; default
        :func:`ragmetrics.spans.word_pieces`.
    overlap : {"union", "sum"}, default "union"
        Overlapping chunks counted once (``"union"``) or, as Chroma's published
        definitions do, once per chunk (``"sum"``).

    Examples
    --------
    Two chunkings of one document, and one question whose answer is ``[10, 20)``:

    >>> from ragmetrics import evaluate
    >>> judgments = SpanJudgments({"q1": [("d", 10, 20)]})
    >>> small = [{"chunk_id": f"s{i}", "doc_id": "d", "start": 10 * i, "end": 10 * i + 10}
    ...          for i in range(4)]
    >>> big = [{"chunk_id": "b0", "doc_id": "d", "start": 0, "end": 40}]
    >>> evaluate({"q1": ["s1", "s0"]}, judgments, ["span_iou@1", "recall@1"],
    ...          chunks=small).per_query  # doctest: +NORMALIZE_WHITESPACE
              span_iou@1  recall@1
    query_id
    q1               1.0       1.0
    >>> evaluate({"q1": ["b0"]}, judgments, ["span_iou@1", "recall@1"],
    ...          chunks=big).per_query  # doctest: +NORMALIZE_WHITESPACE
              span_iou@1  recall@1
    query_id
    q1              0.25       1.0

    Both chunkings find the relevant chunk at rank 1 (``recall@1``), but the big chunk
    is three quarters text that is not the answer (``span_iou@1``).
    """

    def __init__(self, evidence, *, documents=None, rule: str = "any_overlap", threshold=None,
                 unit: str = "char", tokenizer=None, overlap: str = "union") -> None:
        self.documents = as_documents(documents)
        self.evidence = as_evidence(evidence, self.documents)
        self.rule = check_choice(rule, _RULE_TEXT, "rule")
        self.threshold = check_threshold(rule, threshold)
        self.unit = check_choice(unit, UNITS, "unit")
        self.overlap = check_choice(overlap, OVERLAP_POLICIES, "overlap")
        if tokenizer is not None and not callable(tokenizer):
            raise InputTypeError(f"tokenizer must be a callable str -> list of tokens, "
                                 f"got {tokenizer!r}")
        if tokenizer is not None and unit != "token":
            raise InputValueError("a tokenizer counts tokens: pass unit='token' with it")
        if unit == "token" and self.documents is None:
            raise InputValueError("unit='token' needs the documents' text: pass documents=")
        self.tokenizer = tokenizer

    @property
    def queries(self) -> tuple:
        """Every query of the evidence, with or without spans, in evaluate's order."""
        ids = self.evidence.queries
        return tuple(ids[natural_order(ids)].tolist())

    @property
    def queries_without_evidence(self) -> tuple:
        """The queries given with no span (unanswerable questions), in evaluate's order."""
        return self.queries_without_evidence_at(-np.inf)

    def chunks(self, chunks) -> Chunks:
        """A chunking checked against the documents (offsets, or texts located in them)."""
        return as_chunks(chunks, self.documents)

    def qrels(self, chunks) -> dict:
        """``{query_id: {chunk_id: grade}}``: the chunks judged by the rule, every query kept.

        A query that no chunk overlaps (or without evidence) maps to ``{}``, so that
        :func:`ragmetrics.evaluate` scores it by ``empty_relevant`` instead of leaving
        it out: every chunking is then scored on the same queries.
        """
        overlaps = ChunkOverlaps(self.chunks(chunks), self.evidence, documents=self.documents)
        return overlaps.qrels_mapping(self.rule, self.threshold)

    def rule_text(self) -> str:
        """The rule in words, e.g. ``'any_overlap: a chunk is relevant when ...'``."""
        t = self.threshold
        if t is None:
            return f"{self.rule}: {_RULE_TEXT[self.rule]}"
        shown = str(t) if self.rule == "min_chars" else f"{t * 100:g}%"
        return f"{self.rule} {t:g}: " + _RULE_TEXT[self.rule].format(t=shown)

    def queries_without_evidence_at(self, relevance_level: float) -> tuple:
        """The queries with no span graded ``>= relevance_level``, in evaluate's order."""
        ev = self.evidence
        with_spans = set(ev.query[ev.grade >= relevance_level].tolist())
        return tuple(q for q in self.queries if q not in with_spans)

    def unit_text(self) -> str:
        """What the span metrics count, in words."""
        unit = ("characters" if self.unit == "char" else
                "tokens (" + ("word pieces, ragmetrics.spans.word_pieces" if self.tokenizer
                              is None else getattr(self.tokenizer, "__name__", "a tokenizer"))
                + ")")
        how = ("each character counted once, however many chunks hold it (union)"
               if self.overlap == "union" else "every retrieved chunk's length added up, "
               "overlaps counted twice (sum: Chroma's definitions)")
        return f"{unit}; {how}"

    def __repr__(self) -> str:
        n, empty = len(self.queries), len(self.queries_without_evidence)
        return (f"SpanJudgments({n} queries ({empty} without evidence), "
                f"{len(self.evidence)} spans, rule={self.rule!r}"
                + (f", threshold={self.threshold!r}" if self.threshold is not None else "")
                + f", unit={self.unit!r}, overlap={self.overlap!r})")


def _judgments(qrels, evidence, documents) -> SpanJudgments | None:
    """The evidence a call gives as its golden set, or None when it gives qrels."""
    if isinstance(evidence, SpanJudgments) and documents is not None:
        raise InputValueError("documents= goes with raw evidence; a SpanJudgments holds its "
                              "own: SpanJudgments(evidence, documents=...)")
    if isinstance(qrels, SpanJudgments):
        if evidence is not None or documents is not None:
            raise InputValueError("the judgments are a SpanJudgments: it holds the evidence "
                                  "and the documents, so pass neither evidence= nor "
                                  "documents=")
        return qrels
    if evidence is None:
        if documents is not None:
            raise InputValueError("documents= is for evidence spans: pass evidence= too "
                                  "(or a SpanJudgments as the judgments)")
        return None
    if qrels is not None:
        raise InputValueError(
            "give the judgments one way: qrels (chunk ids of one chunking) or evidence= "
            "(spans, which judge any chunking: the id-based metrics then judge each chunk "
            "by SpanJudgments' rule), not both")
    return evidence if isinstance(evidence, SpanJudgments) else SpanJudgments(
        evidence, documents=documents)


# -- evaluate ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpanRequest:
    """An :func:`ragmetrics.evaluate` call judged by evidence: what to score, and how."""

    judgments: SpanJudgments
    chunks: object
    names: tuple[str, ...]

    def evaluate(self, run, conventions: Conventions) -> Evaluation:
        """Score ``run`` (over ``chunks``) on every name, as :func:`ragmetrics.evaluate`."""
        judgments, names = self.judgments, list(self.names)
        specs = parse_metric_names(names)
        policies = conventions.as_dict()
        span_specs = [s for s in specs if is_span_spec(s)]
        id_names = [n for n, s in zip(names, specs, strict=True) if not is_span_spec(s)]
        chunks = judgments.chunks(self.chunks)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if span_specs:
                scorer = SpanScorer(
                    run, chunks, judgments.evidence, documents=judgments.documents,
                    unit=judgments.unit, tokenizer=judgments.tokenizer,
                    overlap=judgments.overlap,
                    **{k: policies[k] for k in ("relevance_level", "empty_relevant",
                                                "missing_from_run", "ties", "duplicates",
                                                "order_by")})
            else:  # only to check that the run retrieves chunks of this chunking
                as_run(run, chunks, ties="input_order", duplicates="keep_first",
                       order_by=conventions.order_by)
                scorer = None
            by_ids = (evaluate_in_memory(run, judgments.qrels(chunks), id_names, conventions)
                      if id_names else None)
        per_query = self._frame(names, specs, scorer, by_ids, conventions)
        if by_ids is not None:
            missing, unjudged = by_ids.queries_missing_from_run, by_ids.queries_missing_from_qrels
            without = by_ids.queries_without_relevant
        else:
            missing, unjudged = scorer.missing, scorer.unjudged
            without = judgments.queries_without_evidence_at(conventions.relevance_level)
        result = Evaluation(per_query=per_query, summary=per_query.mean(axis=0, skipna=True),
                            conventions=conventions, queries_missing_from_run=missing,
                            queries_missing_from_qrels=unjudged, queries_without_relevant=without)
        warn_evidence_gaps(caught, result, judgments.queries_without_evidence_at(
            conventions.relevance_level), rule=judgments.rule, has_ids=by_ids is not None)
        return result

    @staticmethod
    def _frame(names, specs, scorer, by_ids, conventions) -> pd.DataFrame:
        columns = {}
        index = None
        if scorer is not None:
            values = scorer.by_name([s for s in specs if is_span_spec(s)])
            frame = scorer.frame(values)
            if conventions.missing_from_run == "skip":  # as evaluate: such queries left out
                frame = frame[scorer.in_run[scorer.order]]
            index = frame.index
            columns.update(frame.items())
        if by_ids is not None:
            if index is not None and not by_ids.per_query.index.equals(index):
                raise AssertionError("span and id-based metrics were scored on different "
                                     "queries")  # a bug: both are the evidence's queries
            index = by_ids.per_query.index
            columns.update(by_ids.per_query.items())
        return pd.DataFrame({name: np.asarray(columns[str(spec) if is_span_spec(spec) else name],
                                              dtype=np.float64)
                             for name, spec in zip(names, specs, strict=True)}, index=index)


def _count(n: int, one: str = "query", many: str = "queries") -> str:
    return f"{n} {one if n == 1 else many}"


def span_request(qrels, names, *, chunks=None, evidence=None, documents=None
                 ) -> SpanRequest | None:
    """The evidence part of an :func:`ragmetrics.evaluate` call, or None if it has none.

    Raises the errors of a call that mixes the two ways of judging, or asks for span
    metrics without evidence.
    """
    spans = [n for n in names if is_span_metric(n)]
    judgments = _judgments(qrels, evidence, documents)
    if judgments is None:
        if spans:
            raise InputValueError(
                f"{spans[0]!r} measures retrieved text against evidence spans: pass "
                "evidence= (and the run's chunking as chunks=), or a SpanJudgments as the "
                "judgments")
        if chunks is not None:
            raise InputValueError(
                "chunks= is used with evidence spans (evidence= or a SpanJudgments): qrels "
                "of chunk ids need no chunking")
        return None
    if chunks is None:
        raise InputValueError("judgments from evidence need the run's chunking: pass "
                              "chunks= (chunk_id, doc_id, start, end or text)")
    return SpanRequest(judgments, chunks, tuple(names))


# -- compare -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpanComparison:
    """A :func:`ragmetrics.compare` of runs judged by evidence: each system's chunking."""

    judgments: SpanJudgments
    chunks: dict  # system -> Chunks
    labels: dict  # system -> where its chunks came from (a file name), or ""

    def card(self) -> dict[str, str]:
        """The report card's rows: the judgments, the rules and each system's chunking."""
        j = self.judgments
        n, empty = len(j.queries), len(j.queries_without_evidence)
        documents = len(set(j.evidence.doc.tolist()))
        chunkings = "; ".join(
            f"{system}: " + (f"{self.labels[system]}, " if self.labels[system] else "")
            + f"{_count(len(chunks), 'chunk', 'chunks')} of "
            + _count(len(set(chunks.doc.tolist())), "document", "documents")
            for system, chunks in self.chunks.items())
        return {
            "judgments": f"evidence spans: {_count(len(j.evidence), 'span', 'spans')} in "
                         f"{_count(documents, 'document', 'documents')}, for "
                         f"{_count(n)} ({empty} without evidence)",
            "chunkings": chunkings,
            "span metrics": j.unit_text(),
            "chunk relevance": j.rule_text() + " (for the id-based metrics); its grade is "
                               "the highest of the spans it qualifies for",
        }


def _label(chunks) -> str:
    return Path(os.fspath(chunks)).name if isinstance(chunks, (str, os.PathLike)) else ""


def _checked_chunks(judgments: SpanJudgments, chunks, system: str) -> Chunks:
    try:
        return judgments.chunks(chunks)
    except FormatError:
        raise  # it names the file and the line
    except InputError as error:
        kind = InputTypeError if isinstance(error, TypeError) else InputValueError
        raise kind(f"chunks of system {system!r}: {error}") from error


def span_comparison(systems, qrels, *, chunks=None, evidence=None, documents=None
                    ) -> SpanComparison | None:
    """The evidence part of a :func:`ragmetrics.compare` call, or None if it has none.

    ``chunks`` is one chunking for every system, or ``{system: chunking}``.
    """
    judgments = _judgments(qrels, evidence, documents)
    if judgments is None:
        if chunks is not None:
            raise InputValueError(
                "chunks= is used with evidence spans (evidence= or a SpanJudgments): qrels "
                "of chunk ids need no chunking")
        return None
    systems = list(systems)
    if chunks is None:
        raise InputValueError(
            "judgments from evidence need each run's chunking: pass chunks= (one chunking "
            "for every system, or {system: chunking})")
    if isinstance(chunks, Mapping) and not isinstance(chunks, pd.DataFrame):
        missing = [s for s in systems if s not in chunks]
        extra = [s for s in chunks if s not in systems]
        if missing or extra:
            raise InputValueError(
                "chunks= must give one chunking per system: "
                + "; ".join(part for part in (
                    f"none for {', '.join(map(repr, missing))}" if missing else "",
                    f"{', '.join(map(repr, extra))} not a system" if extra else "") if part)
                + f" (systems: {', '.join(map(repr, systems))})")
        given = {s: chunks[s] for s in systems}
    else:
        shared = _checked_chunks(judgments, chunks, systems[0])  # parsed once for all
        given = dict.fromkeys(systems, shared)
    parsed = {s: _checked_chunks(judgments, value, s) for s, value in given.items()}
    return SpanComparison(judgments, parsed, {s: _label(value) for s, value in given.items()})


add_judgment_reader(span_request)  # evaluate(run, SpanJudgments(...), ..., chunks=...)
