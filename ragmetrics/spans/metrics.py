r"""Character and token metrics of retrieved chunks against evidence spans.

Chunk ids do not survive re-chunking, but characters do: whatever the chunking, the
retrieved chunks cover some characters of the documents and the evidence covers others.
With :math:`R` the union of the characters of the retrieved chunks and :math:`E` the
union of the evidence spans (each character counted once, however many chunks or spans
hold it):

.. math::

    \mathrm{recall} = \frac{|R \cap E|}{|E|}, \qquad
    \mathrm{precision} = \frac{|R \cap E|}{|R|}, \qquad
    \mathrm{IoU} = \frac{|R \cap E|}{|R \cup E|}.

All queries are computed at once with interval arithmetic
(:mod:`ragmetrics.spans.intervals`): sort, merge, intersect; no set of positions is
ever built.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np
import pandas as pd

from ..conventions import EMPTY_POLICIES, MISSING_POLICIES
from ..errors import BudgetWarning, CoverageWarning, InputTypeError, InputValueError
from ..validation import check_choice, check_k, check_relevance_level
from .intervals import (
    Measure,
    covered_before,
    overlapping_pairs,
    prefix_lengths,
    total_by,
    union,
)
from .names import SPAN_METRIC_TABLE, SpanMetricSpec, is_span_metric, parse_span_metric
from .ranking import natural_order, rank_run
from .tables import as_chunks, as_documents, as_evidence, check_same_kind, lay_out
from .tokens import token_starts

__all__ = ["OVERLAP_POLICIES", "UNITS", "SpanScorer", "coverage_gaps", "evaluate_spans",
           "span_metrics"]

#: How overlapping chunks (and overlapping evidence spans) are counted.
#:
#: - ``"union"``: each character once: the formulas above.
#: - ``"sum"``: Chroma's definitions (``brandonstarxel/chunking_evaluation``): the
#:   denominators add up the lengths of the retrieved chunks and of the evidence spans,
#:   so a character held by two chunks counts twice (see :func:`span_metrics`).
OVERLAP_POLICIES = ("union", "sum")

#: What lengths count: ``"char"`` (characters) or ``"token"`` (tokens of a tokenizer).
UNITS = ("char", "token")

COLUMNS = ("recall", "precision", "iou", "precision_omega")


def _check_budget(budget):
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, numbers.Real):
        raise InputTypeError(f"budget must be a positive number of units, got {budget!r}")
    try:
        value = float(budget)
    except OverflowError:  # an int of hundreds of digits
        raise InputValueError(f"budget is too large for a float: an integer of "
                              f"{len(str(abs(int(budget))))} digits") from None
    if not value > 0 or not math.isfinite(value):
        raise InputValueError(f"budget must be a positive number of units, got {budget!r}")
    return value


class SpanScorer:
    """Checked inputs of span metrics, ready to score any cut (k, budget) many times.

    :func:`span_metrics` and :func:`evaluate_spans` build one; the parameters are theirs.
    """

    def __init__(self, run, chunks, evidence, *, documents=None, unit="char", tokenizer=None,
                 overlap="union", relevance_level=1, empty_relevant="zero",
                 missing_from_run="zero", ties="trec_eval", duplicates="error",
                 order_by="score") -> None:
        check_choice(unit, UNITS, "unit")
        check_choice(overlap, OVERLAP_POLICIES, "overlap")
        check_choice(empty_relevant, EMPTY_POLICIES, "empty_relevant")
        check_choice(missing_from_run, MISSING_POLICIES, "missing_from_run")
        self.relevance_level = check_relevance_level(relevance_level)
        if tokenizer is not None and unit != "token":
            raise InputValueError("a tokenizer counts tokens: pass unit='token' with it")
        documents = as_documents(documents)
        if unit == "token" and documents is None:
            raise InputValueError("unit='token' needs the documents' text: pass documents=")
        self.unit, self.overlap = unit, overlap
        self.empty_relevant, self.missing_from_run = empty_relevant, missing_from_run
        self.chunks = as_chunks(chunks, documents)
        self.evidence = as_evidence(evidence, documents)
        line = lay_out(documents, self.chunks, self.evidence)
        self.line = line
        self.measure = Measure() if unit == "char" else Measure(
            token_starts(line, dict(zip(documents.ids, documents.texts, strict=True)),
                         tokenizer), line.stride)
        ev = self.evidence
        self.queries = ev.queries
        n = self.n_queries = len(ev.queries)
        line.check_room(n)
        stride = np.int64(line.stride)

        # Chunks on the line (no query offset yet), and their lengths in the unit.
        self.chunk_start = line.base[line.codes(self.chunks.doc)] + self.chunks.start
        self.chunk_end = self.chunk_start + (self.chunks.end - self.chunks.start)
        self.chunk_length = self.measure.length(self.chunk_start, self.chunk_end)

        # Evidence that counts: grade >= relevance_level. E is each query's union.
        relevant = ev.grade >= self.relevance_level
        e_query = ev.query_codes()[relevant]
        e_start = line.base[line.codes(ev.doc[relevant])] + ev.start[relevant]
        e_end = e_start + (ev.end[relevant] - ev.start[relevant])
        self.e_query, self.e_start, self.e_end = e_query, e_start, e_end
        self.span_start, self.span_end = e_query * stride + e_start, e_query * stride + e_end
        self.e_starts, self.e_ends = union(self.span_start, self.span_end)
        self.size_e = self._per_query(self.e_starts, self.e_ends)
        self.sum_e = total_by(e_query, self.measure.length(self.span_start, self.span_end), n)
        self.empty = np.bincount(e_query, minlength=n) == 0
        if empty_relevant == "error" and self.empty.any():
            q = ev.queries[np.flatnonzero(self.empty)[0]]
            raise InputValueError(
                f"query {q!r} has no evidence (no span with relevance >= "
                f"{self.relevance_level}); pass empty_relevant='zero', 'article' or 'skip' "
                "to score it")

        # The run: ranked, its queries matched with the evidence's.
        ranked = rank_run(run, self.chunks, ties=ties, duplicates=duplicates, order_by=order_by)
        check_same_kind([("evidence", ev.query_kind), ("run", ranked.query_kind)],
                        "query_id")
        code_of_run_query = pd.Index(ev.queries, dtype=object).get_indexer(
            pd.Index(ranked.queries, dtype=object))
        judged = code_of_run_query[ranked.query] >= 0
        self.row_query = code_of_run_query[ranked.query][judged]
        self.row_chunk = ranked.chunk[judged]
        self.row_rank = ranked.rank[judged]
        self.in_run = np.zeros(n, dtype=bool)
        self.in_run[code_of_run_query[code_of_run_query >= 0]] = True
        self.missing = tuple(ev.queries[~self.in_run].tolist())
        self.unjudged = tuple(ranked.queries[code_of_run_query < 0].tolist())
        row_length = self.chunk_length[self.row_chunk]
        ends = np.cumsum(row_length)
        starts_of_query = np.r_[0, np.flatnonzero(np.diff(self.row_query)) + 1]
        first = np.repeat(starts_of_query, np.diff(np.r_[starts_of_query, len(row_length)]))
        # Length of each query's ranked prefix, this row included.
        self.row_filled = ends - (ends[first] - row_length[first]) if len(ends) else ends
        # Each query's first-ranked chunk (the rows of a query are in rank order).
        self.first_row = starts_of_query if len(ends) else np.zeros(0, dtype=np.int64)
        self.order = natural_order(ev.queries)
        self._omega = None

    def _per_query(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Total length per query of intervals on the query stretches."""
        return total_by(starts // self.line.stride, self.measure.length(starts, ends),
                        self.n_queries)

    def _intersection(self, starts: np.ndarray, ends: np.ndarray, span_starts: np.ndarray,
                      span_ends: np.ndarray) -> np.ndarray:
        """|A n [s, e)| for each span, A the merged ``starts``/``ends``."""
        prefix = prefix_lengths(starts, ends, self.measure)
        return (covered_before(span_ends, starts, ends, prefix, self.measure)
                - covered_before(span_starts, starts, ends, prefix, self.measure))

    def precision_omega(self) -> np.ndarray:
        """IoU of all chunks that share a character with the evidence (per query)."""
        if self._omega is None:
            closed = self.overlap == "sum"  # Chroma counts chunks that only touch evidence
            span, chunk = overlapping_pairs(self.e_start, self.e_end, self.chunk_start,
                                            self.chunk_end, closed=closed)
            keys = np.unique(self.e_query[span] * np.int64(len(self.chunks)) + chunk)
            query, chunk = keys // max(len(self.chunks), 1), keys % max(len(self.chunks), 1)
            offset = query * np.int64(self.line.stride)
            starts, ends = union(offset + self.chunk_start[chunk], offset + self.chunk_end[chunk])
            size_c = self._per_query(starts, ends)
            hit = total_by(self.e_starts // self.line.stride,
                           self._intersection(starts, ends, self.e_starts, self.e_ends),
                           self.n_queries)
            self._omega = _divide(hit, size_c + self.size_e - hit)
        return self._omega

    def scores(self, k: int | None = None, budget: float | None = None) -> dict:
        """recall, precision, iou and precision_omega per query (evidence order)."""
        keep = np.ones(len(self.row_query), dtype=bool)
        if k is not None:
            keep &= self.row_rank < k
        if budget is not None:
            keep &= self.row_filled <= budget  # whole numbers of characters or tokens
            self._warn_budget(budget)
        query, chunk = self.row_query[keep], self.row_chunk[keep]
        offset = query * np.int64(self.line.stride)
        r_starts, r_ends = union(offset + self.chunk_start[chunk], offset + self.chunk_end[chunk])
        hit = total_by(self.e_starts // self.line.stride,
                       self._intersection(r_starts, r_ends, self.e_starts, self.e_ends),
                       self.n_queries)
        if self.overlap == "union":
            size_r = self._per_query(r_starts, r_ends)
            recall = _divide(hit, self.size_e)
            precision = _divide(hit, size_r)
            iou = _divide(hit, size_r + self.size_e - hit)
        else:
            sum_r = total_by(query, self.chunk_length[chunk], self.n_queries)
            # Each evidence span's characters that no retrieved chunk holds, span by span.
            unused = (self.measure.length(self.span_start, self.span_end)
                      - self._intersection(r_starts, r_ends, self.span_start, self.span_end))
            missed = total_by(self.e_query, unused, self.n_queries)
            recall = _divide(hit, self.sum_e)
            precision = _divide(hit, sum_r)
            iou = _divide(hit, sum_r + missed)
        values = {"recall": recall, "precision": precision, "iou": iou,
                  "precision_omega": self.precision_omega().copy()}
        return self._apply_policies(values)

    def nothing_fits(self, budget: float) -> tuple[int, int, int]:
        """Queries whose first-ranked chunk alone is longer than ``budget``.

        Returns ``(count, of, shortest)``: how many queries with evidence that retrieve
        something get nothing within the budget, out of how many such queries, and the
        length of the shortest of their first chunks (0 when there is none).
        """
        query = self.row_query[self.first_row]
        length = self.row_filled[self.first_row]  # the first row's prefix: its own length
        counted = ~self.empty[query]  # a query without evidence is scored by its policy
        over = counted & (length > budget)
        shortest = int(length[over].min()) if over.any() else 0
        return int(over.sum()), int(counted.sum()), shortest

    def _warn_budget(self, budget: float) -> None:
        count, of, shortest = self.nothing_fits(budget)
        if not count:
            return
        units = "characters" if self.unit == "char" else "tokens"
        if count == 1:
            which = f"its first-ranked chunk alone is longer ({shortest} {units}), so it"
            verbs = "retrieves nothing within the budget and scores 0"
        else:
            which = (f"their first-ranked chunk alone is longer (the shortest of them "
                     f"{shortest} {units}), so they")
            verbs = "retrieve nothing within the budget and score 0"
        warnings.warn(f"no chunk fits in the budget of {budget:g} {units} for {count} of "
                      f"{_count(of, 'query', 'queries')} with evidence: {which} {verbs}",
                      BudgetWarning, stacklevel=3)

    def by_name(self, specs) -> dict:
        """``{str(spec): per-query values}`` for :class:`SpanMetricSpec` s; each cut once."""
        cache: dict = {}
        columns = {}
        for spec in specs:
            cut = (spec.k, spec.budget)
            if cut not in cache:
                cache[cut] = self.scores(spec.k, None if spec.budget is None else
                                         float(spec.budget))
            columns[str(spec)] = cache[cut][spec.name]
        return columns

    def _apply_policies(self, values: dict) -> dict:
        policy = self.empty_relevant
        for name, column in values.items():
            row = SPAN_METRIC_TABLE[name]
            if policy == "article":
                column[self.empty] = row.article_value
            elif policy == "skip":
                column[self.empty] = np.nan
            else:  # "zero" (and "error", which raised already if any query was empty)
                column[self.empty] = 0.0
            if self.missing_from_run == "skip" and row.depends_on_run:
                column[~self.in_run] = np.nan
        return values

    def index(self) -> pd.Index:
        ids = self.queries[self.order]
        if self.evidence.query_kind == "int":
            return pd.Index(ids.astype(np.int64), name="query_id")
        return pd.Index(ids, name="query_id", dtype=object)

    def frame(self, columns: dict) -> pd.DataFrame:
        """Columns of per-query values as a DataFrame in the output's query order."""
        frame = pd.DataFrame({name: values[self.order] for name, values in columns.items()},
                             index=self.index())
        frame.attrs.update(
            unit=self.unit, overlap=self.overlap, relevance_level=self.relevance_level,
            empty_relevant=self.empty_relevant, missing_from_run=self.missing_from_run,
            missing_from_run_queries=self.missing, unjudged_queries=self.unjudged,
            empty_evidence=tuple(self.queries[self.order][self.empty[self.order]].tolist()))
        return frame

    def warn_coverage(self) -> None:
        said = coverage_gaps(len(self.missing), len(self.unjudged), self.missing_from_run)
        if said:
            warnings.warn(said + "; see the result's .attrs", CoverageWarning, stacklevel=3)


def coverage_gaps(missing: int, unjudged: int, missing_from_run: str) -> str:
    """What a CoverageWarning says of queries missing on either side ("" for none).

    >>> coverage_gaps(2, 1, "zero")
    '2 queries with evidence missing from the run (scored 0); 1 query of the run without evidence (left out)'
    """
    parts = []
    if missing:
        how = "scored 0" if missing_from_run == "zero" else "left out"
        parts.append(f"{_count(missing, 'query', 'queries')} with evidence missing from the "
                     f"run ({how})")
    if unjudged:
        parts.append(f"{_count(unjudged, 'query', 'queries')} of the run without evidence "
                     "(left out)")
    return "; ".join(parts)


def _divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    # 0/0 is 0: nothing retrieved has no precision to speak of, and scores 0 (as in
    # evaluate, where a query with no relevant doc scores 0 under "zero").
    return np.divide(num, den, out=np.zeros(len(num)), where=den > 0)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def span_metrics(run, chunks, evidence, k=None, *, budget=None, unit="char", tokenizer=None,
                 overlap="union", documents=None, relevance_level=1, empty_relevant="zero",
                 missing_from_run="zero", ties="trec_eval", duplicates="error"
                 ) -> pd.DataFrame:
    r"""Recall, precision and IoU of the retrieved text against the evidence, per query.

    With :math:`R` the union of the characters of the retrieved chunks and :math:`E`
    the union of the query's evidence spans (grade >= ``relevance_level``):

    .. math::

        \mathrm{recall} = \frac{|R \cap E|}{|E|}, \quad
        \mathrm{precision} = \frac{|R \cap E|}{|R|}, \quad
        \mathrm{iou} = \frac{|R \cap E|}{|R \cup E|}, \quad
        \mathrm{precision\_omega} = \frac{|C_E \cap E|}{|C_E \cup E|},

    where :math:`C_E` is the union of *every* chunk of the chunking that shares a
    character with :math:`E`: the IoU of a retriever that returns exactly the chunks
    holding evidence, the best precision a chunking allows at full recall (Chroma's
    "Precision Ω"). It does not depend on the run. Each character counts once,
    however many chunks hold it: two retrieved chunks that overlap add their shared
    text to :math:`R` once. Nothing retrieved gives precision 0 (0/0 is 0).

    Parameters
    ----------
    run : DataFrame or mapping
        A run over chunks, in any shape :func:`ragmetrics.evaluate` takes; its doc ids
        are chunk ids.
    chunks, evidence, documents
        The data model of :mod:`ragmetrics.spans.tables`: chunks by offsets or text,
        evidence by offsets or quote (with grades), and the documents (needed to locate
        texts and to count tokens).
    k : int or None, default None
        Score the top ``k`` chunks of each query; None: every retrieved chunk.
    budget : number or None, default None
        Score the longest ranked prefix whose chunks add up to at most ``budget`` units.
        Each chunk counts whole, overlaps included (a prompt holding two overlapping
        chunks holds their shared text twice), and the first chunk that does not fit
        ends the prefix: a context is filled in rank order, so a smaller chunk further
        down is not taken instead. With ``k`` too, both limits hold. A query whose
        first-ranked chunk alone is longer than the budget retrieves nothing and scores
        0; a :class:`~ragmetrics.errors.BudgetWarning` says how many queries that is.
    unit : {"char", "token"}, default "char"
        What a length counts. Tokens come from ``tokenizer`` (any callable
        ``str -> list``; default :func:`ragmetrics.spans.word_pieces`, a
        dependency-free estimate), counted once per document, word by word. Each token
        sits on the character where it starts, and a text holds the tokens that start
        inside it (:mod:`ragmetrics.spans.tokens`): every length is a whole number of
        tokens, and every metric the set-based ratio above with tokens for characters.
    overlap : {"union", "sum"}, default "union"
        ``"union"``: the formulas above. ``"sum"``: Chroma's published definitions
        (``brandonstarxel/chunking_evaluation``, ``base_evaluation.py``), which divide
        by sums of lengths instead of sizes of unions:

        .. math::

            \mathrm{recall} = \frac{|R \cap E|}{\sum_e |e|}, \quad
            \mathrm{precision} = \frac{|R \cap E|}{\sum_c |c|}, \quad
            \mathrm{iou} = \frac{|R \cap E|}{\sum_c |c| + \sum_e |e \setminus R|},

        over the retrieved chunks :math:`c` and the evidence spans :math:`e`. A
        character that two retrieved chunks share is counted in both, so it is counted
        twice in the denominators but once in the numerator: chunkings with overlap
        lose precision and IoU for text the retriever returned twice, and can never
        reach 1 even when every retrieved character is evidence. Evidence spans that
        overlap (two annotators marking nearly the same answer) are counted twice in
        recall's denominator, so recall cannot reach 1 either. Chroma's Precision Ω
        already merges overlapping chunks; ``"sum"`` keeps its one quirk, a chunk that
        only *touches* the evidence (ends where it begins) counting as holding it.
        Chroma's ``run()`` retrieves 5 chunks per question by default, and with
        ``retrieve=-1`` as many as the chunks holding evidence; pass the same ``k``
        here to compare numbers.
    relevance_level : number, default 1
        Evidence spans graded below it do not count.
    empty_relevant : {"zero", "article", "skip", "error"}, default "zero"
        A query without evidence (an unanswerable question, or all spans graded below
        ``relevance_level``), as :data:`ragmetrics.conventions.EMPTY_POLICIES`:
        ``"zero"``: all four metrics 0, the query counts in means (nothing to find is
        never rewarded); ``"article"``: recall 1 ("nothing to find, nothing missed"),
        precision, IoU and precision_omega 0; ``"skip"``: NaN for all four, left out of
        means; ``"error"``: raise, naming the query.
    missing_from_run : {"zero", "skip"}, default "zero"
        A query with evidence that the run does not hold: scored as retrieving nothing
        (0), or NaN (precision_omega, which does not depend on the run, is kept).
    ties : {"trec_eval", "input_order"}, default "trec_eval"
        The order of chunks tied in score (as in :func:`ragmetrics.evaluate`).
    duplicates : {"error", "keep_first"}, default "error"
        A chunk retrieved twice for one query.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``query_id`` (the evidence's queries, ordered as
        :func:`ragmetrics.evaluate` orders them), columns ``recall``, ``precision``,
        ``iou``, ``precision_omega``. ``.attrs`` records the settings, the queries
        missing from the run, those of the run without evidence (left out, with a
        :class:`~ragmetrics.errors.CoverageWarning`) and those without evidence.

    Examples
    --------
    One document, two questions. The evidence of ``q1`` is ``[10, 20)``; the
    retriever returns chunk ``a = [0, 15)`` then ``b = [10, 25)``, which overlap.

    >>> chunks = [{"chunk_id": "a", "doc_id": "d", "start": 0, "end": 15},
    ...           {"chunk_id": "b", "doc_id": "d", "start": 10, "end": 25},
    ...           {"chunk_id": "c", "doc_id": "d", "start": 25, "end": 40}]
    >>> evidence = {"q1": [("d", 10, 20)], "q2": [("d", 30, 35)]}
    >>> run = {"q1": ["a", "b"], "q2": ["a", "c"]}

    The top chunk alone holds 5 of the 10 evidence characters, in 15 retrieved; the
    union is 20 characters. All chunks touching ``q1``'s evidence (``a`` and ``b``)
    cover 25 characters, so even a perfect retriever gets precision_omega = 10 / 25:

    >>> span_metrics(run, chunks, evidence, k=1)  # doctest: +NORMALIZE_WHITESPACE
              recall  precision   iou  precision_omega
    query_id
    q1           0.5   0.333333  0.25         0.400000
    q2           0.0   0.000000  0.00         0.333333

    Both chunks of ``q1`` cover ``[0, 25)``: all 10 evidence characters in 25
    distinct retrieved ones. Chroma's sums count ``[10, 15)`` twice, 30 in all:

    >>> float(span_metrics(run, chunks, evidence, k=2).loc["q1", "precision"])
    0.4
    >>> float(span_metrics(run, chunks, evidence, k=2, overlap="sum").loc["q1", "precision"])
    0.3333333333333333

    A budget of 20 characters fits chunk ``a`` (15) but not ``a`` and ``b`` (30):

    >>> float(span_metrics(run, chunks, evidence, budget=20).loc["q1", "recall"])
    0.5
    """
    scorer = SpanScorer(run, chunks, evidence, documents=documents, unit=unit,
                        tokenizer=tokenizer, overlap=overlap, relevance_level=relevance_level,
                        empty_relevant=empty_relevant, missing_from_run=missing_from_run,
                        ties=ties, duplicates=duplicates)
    k = check_k(k, allow_none=True)
    frame = scorer.frame(scorer.scores(k, _check_budget(budget)))
    frame.attrs.update(k=k, budget=budget)
    scorer.warn_coverage()
    return frame


def evaluate_spans(run, chunks, evidence, metrics=("span_recall@10", "span_precision@10",
                                                   "span_iou@10"), **options) -> pd.DataFrame:
    """Span metrics by name, one column per name: ``"span_recall@10"``, ``"span_iou@budget=1000"``.

    The names of :mod:`ragmetrics.spans.names`; each distinct cut is computed once.
    ``options`` are those of :func:`span_metrics` (``unit``, ``overlap``, ``documents``,
    the policies). This is how :func:`ragmetrics.evaluate` and the command line can
    dispatch span metrics by name.

    Examples
    --------
    >>> chunks = [{"chunk_id": "a", "doc_id": "d", "start": 0, "end": 15},
    ...           {"chunk_id": "b", "doc_id": "d", "start": 10, "end": 25}]
    >>> evidence = {"q1": [("d", 10, 20)]}
    >>> evaluate_spans({"q1": ["a", "b"]}, chunks, evidence,
    ...                ["span_recall@1", "span_recall@2", "span_iou@budget=20"])
    ... # doctest: +NORMALIZE_WHITESPACE
              span_recall@1  span_recall@2  span_iou@budget=20
    query_id
    q1                  0.5            1.0                0.25
    """
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise InputValueError("metrics must name at least one span metric, "
                              "e.g. ['span_recall@10']")
    specs: list[SpanMetricSpec] = []
    for name in names:
        if not is_span_metric(name):
            raise InputValueError(f"{name!r} is not a span metric (names start with 'span_', "
                                  "e.g. 'span_recall@10')")
        specs.append(parse_span_metric(name))
    if len(set(map(str, specs))) < len(specs):
        raise InputValueError("a span metric is requested twice")
    scorer = SpanScorer(run, chunks, evidence, **options)
    values = scorer.by_name(specs)
    frame = scorer.frame({name: values[str(spec)] for name, spec in zip(names, specs,
                                                                         strict=True)})
    scorer.warn_coverage()
    return frame
