r"""From evidence spans to chunk judgments: which chunks of a chunking are relevant.

A golden set of chunk ids is tied to one chunking; evidence spans are not. Given a
chunking, each chunk that overlaps a query's evidence can be judged relevant under a
named rule, giving qrels (``query_id, doc_id, relevance``, the doc id being the chunk
id) that :func:`ragmetrics.evaluate` and :func:`ragmetrics.compare` take. For a chunk
:math:`c` and an evidence span :math:`e` of the same document, with
:math:`|c \cap e|` their shared characters and :math:`t` the threshold:

=====================  ================================================  ============
rule                   the chunk qualifies for the span when             threshold
=====================  ================================================  ============
``"any_overlap"``      :math:`|c \cap e| \ge 1`                          none
``"min_chars"``        :math:`|c \cap e| \ge t`                          int >= 1
``"chunk_coverage"``   :math:`|c \cap e| / |c| \ge t`                    0 < t <= 1
``"evidence_coverage"`` :math:`|c \cap e| / |e| \ge t`                   0 < t <= 1
=====================  ================================================  ============

Rules are tested span by span, and a chunk gets the **highest grade among the spans it
qualifies for**. "Any overlap" rewards big chunks for tiny intersections (a 2,000
character chunk holding one word of the answer is "relevant"); ``chunk_coverage`` asks
that the chunk be mostly evidence, ``evidence_coverage`` that it hold most of one span.
:func:`threshold_sensitivity` shows how a metric moves with the threshold.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import (
    EmptyRelevantWarning,
    InputTypeError,
    InputValueError,
    NoRelevantRetrievedWarning,
)
from ..evaluation.engine import natural_order
from ..evaluation.in_memory import evaluate_in_memory
from ..validation import check_choice
from .model import as_chunks, as_documents, as_evidence, lay_out, whole_grades
from .offsets import overlapping_pairs

__all__ = ["DEFAULT_THRESHOLDS", "RULES", "ChunkOverlaps", "chunk_qrels",
           "threshold_sensitivity"]

#: The rules of :func:`chunk_qrels`, in the order of the table above.
RULES = ("any_overlap", "min_chars", "chunk_coverage", "evidence_coverage")

#: The thresholds :func:`threshold_sensitivity` tries when none are given.
DEFAULT_THRESHOLDS = {
    "min_chars": (1, 10, 25, 50, 100, 200, 400),
    "chunk_coverage": (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0),
    "evidence_coverage": (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0),
}


def check_threshold(rule: str, threshold):
    """The threshold a rule takes, checked (None for ``"any_overlap"``)."""
    check_choice(rule, RULES, "rule")
    if rule == "any_overlap":
        if threshold is not None:
            raise InputValueError(
                f"rule 'any_overlap' takes no threshold, got {threshold!r}; for a minimum "
                "number of shared characters use rule='min_chars'")
        return None
    if threshold is None:
        example = 50 if rule == "min_chars" else 0.5
        raise InputValueError(f"rule {rule!r} needs a threshold, e.g. threshold={example}")
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
        raise InputTypeError(f"threshold must be a number, got {threshold!r}")
    if rule == "min_chars":
        if not isinstance(threshold, numbers.Integral) or threshold < 1:
            raise InputValueError(
                f"rule 'min_chars' takes a whole number of characters >= 1, got {threshold!r}")
        return int(threshold)
    if not 0 < threshold <= 1:
        raise InputValueError(f"rule {rule!r} takes a share in (0, 1], got {threshold!r}")
    return float(threshold)


class ChunkOverlaps:
    """Every (evidence span, chunk) pair that shares characters, and how many.

    Built once per chunking and evidence; :meth:`grades` then judges the chunks under
    any rule and threshold without looking at the intervals again.
    """

    def __init__(self, chunks, evidence, *, documents=None) -> None:
        documents = as_documents(documents)
        self.chunks = as_chunks(chunks, documents)
        self.evidence = ev = as_evidence(evidence, documents)
        line = lay_out(documents, self.chunks, ev)
        c_start = line.base[line.codes(self.chunks.doc)] + self.chunks.start
        c_end = c_start + (self.chunks.end - self.chunks.start)
        e_start = line.base[line.codes(ev.doc)] + ev.start
        e_end = e_start + (ev.end - ev.start)
        self.span, self.chunk = overlapping_pairs(e_start, e_end, c_start, c_end)
        self.shared = (np.minimum(e_end[self.span], c_end[self.chunk])
                       - np.maximum(e_start[self.span], c_start[self.chunk]))
        self.chunk_length = (c_end - c_start)[self.chunk]
        self.span_length = (e_end - e_start)[self.span]
        self.query = ev.query_codes()[self.span]

    def grades(self, rule: str = "any_overlap", threshold=None):
        """(query code, chunk code, grade) of every chunk that overlaps evidence.

        The grade is the highest among the spans the chunk qualifies for; a chunk that
        overlaps evidence but qualifies for no span gets 0 (judged, not relevant).
        """
        threshold = check_threshold(rule, threshold)
        if rule == "any_overlap":
            qualifies = self.shared >= 1
        elif rule == "min_chars":
            qualifies = self.shared >= threshold
        elif rule == "chunk_coverage":
            qualifies = self.shared >= threshold * self.chunk_length
        else:
            qualifies = self.shared >= threshold * self.span_length
        n_chunks = max(len(self.chunks), 1)
        keys, pair = np.unique(self.query.astype(np.int64) * n_chunks + self.chunk,
                               return_inverse=True)
        best = np.full(len(keys), -np.inf)
        np.maximum.at(best, pair, np.where(qualifies, self.evidence.grade[self.span], -np.inf))
        best[np.isneginf(best)] = 0.0
        return keys // n_chunks, keys % n_chunks, best

    def qrels(self, rule: str = "any_overlap", threshold=None) -> pd.DataFrame:
        """The judgments as a qrels DataFrame (see :func:`chunk_qrels`)."""
        query, chunk, grade = self.grades(rule, threshold)
        ev = self.evidence
        rank_of_query = np.empty(len(ev.queries), dtype=np.int64)
        rank_of_query[natural_order(ev.queries)] = np.arange(len(ev.queries))
        order = np.lexsort((chunk, rank_of_query[query]))
        query, chunk, grade = query[order], chunk[order], grade[order]
        query_ids = ev.queries[query]
        chunk_ids = self.chunks.ids[chunk]
        frame = pd.DataFrame({
            "query_id": query_ids.astype(np.int64) if ev.query_kind == "int" else query_ids,
            "doc_id": chunk_ids.astype(np.int64) if self.chunks.id_kind == "int" else chunk_ids,
            "relevance": whole_grades(grade),
        })
        frame.attrs.update(rule=rule, threshold=threshold,
                           queries=tuple(ev.queries[natural_order(ev.queries)].tolist()))
        return frame

    def qrels_mapping(self, rule: str = "any_overlap", threshold=None) -> dict:
        """``{query_id: {chunk_id: grade}}`` for every evidence query, even those no
        chunk overlaps (an empty dict), so :func:`ragmetrics.evaluate` keeps them."""
        query, chunk, grade = self.grades(rule, threshold)
        ev = self.evidence
        mapping: dict = {q: {} for q in ev.queries}
        for q, c, g in zip(ev.queries[query], self.chunks.ids[chunk], grade.tolist(),
                           strict=True):
            mapping[q][c] = g
        return mapping


def chunk_qrels(chunks, evidence, *, rule: str = "any_overlap", threshold=None,
                documents=None) -> pd.DataFrame:
    r"""Judge the chunks of a chunking from evidence spans: qrels for :func:`ragmetrics.evaluate`.

    Parameters
    ----------
    chunks, evidence, documents
        The data model of :mod:`ragmetrics.spans.model` (documents are needed only for
        chunks given by text or evidence given by quote).
    rule : {"any_overlap", "min_chars", "chunk_coverage", "evidence_coverage"}
        When a chunk :math:`c` qualifies for an evidence span :math:`e` (shared
        characters :math:`|c \cap e|`, threshold :math:`t`):

        - ``"any_overlap"``: :math:`|c \cap e| \ge 1` (no threshold);
        - ``"min_chars"``: :math:`|c \cap e| \ge t`, ``t`` a whole number of characters;
        - ``"chunk_coverage"``: :math:`|c \cap e| / |c| \ge t`, ``0 < t <= 1``: the chunk
          is at least that share evidence;
        - ``"evidence_coverage"``: :math:`|c \cap e| / |e| \ge t`, ``0 < t <= 1``: the
          chunk holds at least that share of the span.
    threshold : number or None
        ``t`` above; required by every rule but ``"any_overlap"``.

    Returns
    -------
    pandas.DataFrame
        ``query_id, doc_id, relevance``, one row per (query, chunk) that shares a
        character with the query's evidence; ``doc_id`` is the chunk id. A chunk's
        relevance is the highest grade among the spans it qualifies for, 0 if it
        qualifies for none (so the query stays judged). Rows are ordered by query
        (as :func:`ragmetrics.evaluate` orders them), then as the chunks were given.
        ``.attrs`` holds the rule, the threshold and every evidence query: a query
        that no chunk overlaps (or without evidence) has no row, and
        :func:`ragmetrics.evaluate` leaves it out.

    Examples
    --------
    A 40-character document chunked in three, two with an overlap; the evidence of
    ``q1`` is ``[12, 20)`` (grade 2) and ``[30, 32)`` (grade 1).

    >>> chunks = [{"chunk_id": "a", "doc_id": "d", "start": 0, "end": 14},
    ...           {"chunk_id": "b", "doc_id": "d", "start": 10, "end": 24},
    ...           {"chunk_id": "c", "doc_id": "d", "start": 24, "end": 40}]
    >>> evidence = [{"query_id": "q1", "doc_id": "d", "start": 12, "end": 20, "relevance": 2},
    ...             {"query_id": "q1", "doc_id": "d", "start": 30, "end": 32}]

    Any overlap makes all three relevant; ``a`` shares only 2 characters:

    >>> chunk_qrels(chunks, evidence)
      query_id doc_id  relevance
    0       q1      a          2
    1       q1      b          2
    2       q1      c          1

    Asking that a chunk hold half of some span keeps ``b`` (8 of 8) and ``c`` (2 of 2),
    and judges ``a`` (2 of 8) not relevant:

    >>> chunk_qrels(chunks, evidence, rule="evidence_coverage", threshold=0.5)
      query_id doc_id  relevance
    0       q1      a          0
    1       q1      b          2
    2       q1      c          1
    """
    return ChunkOverlaps(chunks, evidence, documents=documents).qrels(rule, threshold)


def threshold_sensitivity(run, chunks, evidence, *, rule: str = "chunk_coverage",
                          thresholds=None, metrics="recall@10", documents=None,
                          **conventions) -> pd.DataFrame:
    """An id-based metric of one chunking's run, at a range of thresholds of one rule.

    For each threshold the chunks are judged with :func:`chunk_qrels` and the run is
    scored with :func:`ragmetrics.evaluate`. Every evidence query is kept at every
    threshold (one that loses all its relevant chunks is scored by ``empty_relevant``),
    so the means are over the same queries. Run it once per chunking to see whether the
    winner changes with the threshold.

    Parameters
    ----------
    run, chunks, evidence, documents
        As for :func:`chunk_qrels`; the run is over the chunks.
    rule : str, default "chunk_coverage"
        Any rule but ``"any_overlap"``, which has no threshold.
    thresholds : sequence or None
        None: :data:`DEFAULT_THRESHOLDS` of the rule.
    metrics : str or sequence of str, default "recall@10"
        Names for :func:`ragmetrics.evaluate`.
    **conventions
        Policies for :func:`ragmetrics.evaluate` (``relevance_level``,
        ``empty_relevant``, ``ties``, ...).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``threshold``: the mean of each metric, and ``relevant_chunks``,
        the (query, chunk) pairs judged relevant (grade >= ``relevance_level``).

    Examples
    --------
    The evidence is ``[95, 110)``: 5 characters at the end of a 100-character chunk,
    and all of a 10-character one. The run ranks the big chunk first. At a threshold of
    5% the big chunk is relevant and the run has MRR 1; asking that half
    of a chunk be evidence leaves only the small chunk, which the run ranks second.

    >>> chunks = [{"chunk_id": "big", "doc_id": "d", "start": 0, "end": 100},
    ...           {"chunk_id": "small", "doc_id": "d", "start": 100, "end": 110}]
    >>> evidence = {"q1": [("d", 95, 110)]}
    >>> run = {"q1": ["big", "small"]}
    >>> threshold_sensitivity(run, chunks, evidence, thresholds=[0.05, 0.5],
    ...                       metrics=["recall@1", "mrr"])  # doctest: +NORMALIZE_WHITESPACE
               recall@1  mrr  relevant_chunks
    threshold
    0.05            0.5  1.0                2
    0.50            0.0  0.5                1
    """
    check_choice(rule, RULES, "rule")
    if rule == "any_overlap":
        raise InputValueError("rule 'any_overlap' has no threshold to vary; choose "
                              "'min_chars', 'chunk_coverage' or 'evidence_coverage'")
    if thresholds is None:
        thresholds = DEFAULT_THRESHOLDS[rule]
    thresholds = list(thresholds)
    if not thresholds:
        raise InputValueError("thresholds must hold at least one threshold")
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    level = conventions.get("relevance_level", 1)
    policy = Conventions(**conventions)  # an unknown keyword is a TypeError, as evaluate's
    overlaps = ChunkOverlaps(chunks, evidence, documents=documents)
    rows = []
    for threshold in thresholds:
        qrels = overlaps.qrels_mapping(rule, threshold)
        with warnings.catch_warnings():
            # A strict threshold leaves queries without a relevant chunk: that is what
            # the table shows (its relevant_chunks column), not a problem to warn about.
            warnings.simplefilter("ignore", EmptyRelevantWarning)
            warnings.simplefilter("ignore", NoRelevantRetrievedWarning)
            result = evaluate_in_memory(run, qrels, names, policy)
        relevant = sum(g >= level for judged in qrels.values() for g in judged.values())
        rows.append([*result.summary.tolist(), relevant])
    table = pd.DataFrame(rows, columns=[*names, "relevant_chunks"],
                         index=pd.Index(thresholds, name="threshold"))
    table.attrs.update(rule=rule)
    return table
