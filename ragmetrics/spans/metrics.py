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
(:mod:`ragmetrics.spans.offsets`): sort, merge, intersect; no set of positions is
ever built.
"""

from __future__ import annotations

import itertools
import math
import numbers
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..conventions import EMPTY_POLICIES, MISSING_POLICIES
from ..errors import (
    BudgetWarning,
    CoverageWarning,
    EmptyRelevantWarning,
    InputTypeError,
    InputValueError,
    NoRelevantChunkWarning,
)
from ..evaluation.engine import natural_order
from ..metrics.ranked import ranks_within
from ..metrics.registry import SPAN_METRIC_TABLE, MetricSpec
from ..validation import check_choice, check_k, check_relevance_level
from .model import as_chunks, as_documents, as_evidence, as_run, check_same_kind, lay_out
from .names import UNITS_SENT, parse_span_metric
from .offsets import (
    Measure,
    covered_before,
    overlapping_pairs,
    prefix_lengths,
    total_by,
    union,
)
from .tokens import token_starts

__all__ = ["OVERLAP_POLICIES", "UNITS", "SpanScorer", "coverage_gaps", "evaluate_spans",
           "span_metrics", "warn_evidence_gaps"]

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


@dataclass(frozen=True)
class _OnLine:
    """The evidence that counts, on the queries' stretches of the line: query ``q``'s at
    ``q * stride`` and on (merged, and span by span for ``overlap="sum"``)."""

    n: int
    stride: np.int64
    e_starts: np.ndarray  # merged, sorted
    e_ends: np.ndarray
    span_query: np.ndarray  # each span's query
    span_start: np.ndarray
    span_end: np.ndarray
    size_e: np.ndarray  # per query: |E|, its union
    sum_e: np.ndarray  # per query: the sum of its spans' lengths

    def repeated(self, real: np.ndarray) -> _OnLine:
        """The evidence of query ``real[v]`` as query ``v``'s, for every ``v``."""
        at, v = _gather(self.e_starts // self.stride, real)
        shift = (v - real[v]) * self.stride
        order = np.argsort(self.span_query, kind="stable")
        span_at, span_v = _gather(self.span_query[order], real)
        span_at = order[span_at]
        span_shift = (span_v - real[span_v]) * self.stride
        return _OnLine(len(real), self.stride, self.e_starts[at] + shift,
                       self.e_ends[at] + shift, span_v, self.span_start[span_at] + span_shift,
                       self.span_end[span_at] + span_shift, self.size_e[real],
                       self.sum_e[real])


def _gather(query: np.ndarray, real: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions in ``query`` (sorted) of query ``real[v]``'s items, for each ``v`` in
    turn, and the ``v`` of each."""
    low = np.searchsorted(query, real, side="left")
    counts = np.searchsorted(query, real, side="right") - low
    return np.repeat(low, counts) + ranks_within(counts), np.repeat(np.arange(len(real)),
                                                                    counts)


#: The most sets of tied chunks ``ties="average"`` scores for one query's cut.
MOST_TIED_SETS = 100_000


@dataclass(frozen=True)
class _TiedCut:
    """A query whose cut (``k``, a budget) falls among chunks tied in score.

    Under ``ties="average"`` the tied chunks come in any order, each order as likely:
    the top of the ranking is the rows above them (``before``) and a prefix of that
    order, as many chunks as the cut takes. Each set of tied rows such a prefix can be
    (``sets``) is scored as a ranking of its own, and the query's value is the mean
    weighted by each set's chance (``weights``, summing to 1): the mean over the orders.
    """

    query: int  # its code in the evidence
    before: np.ndarray  # the rows ranked above the tied ones, all retrieved
    sets: list  # per set: the tied rows it holds
    weights: np.ndarray

    @staticmethod
    def find(scorer: SpanScorer, k: int | None, budget: float | None) -> list[_TiedCut]:
        """Every query whose cut falls among tied rows (at most one place per query: the
        rows above a tie are all taken or not, whatever the order of the tied ones)."""
        tied = scorer.row_tied
        starts = np.flatnonzero(~tied)
        sizes = np.diff(np.append(starts, len(tied)))
        length = scorer.chunk_length[scorer.row_chunk]
        starts, sizes = starts[sizes > 1], sizes[sizes > 1]
        slots = (sizes if k is None else k - scorer.row_rank[starts])
        used = scorer.row_filled[starts] - length[starts]  # before the tied rows
        room = np.inf if budget is None else budget - used
        whole = (scorer.row_filled[starts + sizes - 1] - used) <= room
        cut = (slots > 0) & (room >= 0) & ~((slots >= sizes) & whole)
        found = []
        for start, size, slot, left in zip(starts[cut], sizes[cut], np.minimum(slots, sizes)[cut],
                                           np.broadcast_to(room, starts.shape)[cut],
                                           strict=True):
            rows = np.arange(start, start + size)
            query = int(scorer.row_query[start])
            sets, weights = _tied_sets(length[rows], int(slot), float(left), scorer.queries[query],
                                       int(scorer.row_rank[start]))
            first = start - int(scorer.row_rank[start])  # the query's first row
            found.append(_TiedCut(query, np.arange(first, start),
                                  [rows[list(chosen)] for chosen in sets], weights))
        return found

    @staticmethod
    def outcomes(cuts: list[_TiedCut], scorer: SpanScorer):
        """Every set as a query of its own: ``(real, rows, virtual, weight)``, the
        evidence code of each, the rows retrieved and their set, each set's weight."""
        real = np.repeat([cut.query for cut in cuts], [len(cut.sets) for cut in cuts])
        rows = [np.concatenate([cut.before, chosen]) for cut in cuts for chosen in cut.sets]
        virtual = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
        scorer.line.check_room(len(rows))
        return (real, np.concatenate(rows).astype(np.int64), virtual,
                np.concatenate([cut.weights for cut in cuts]))


def _tied_sets(lengths: np.ndarray, slots: int, room: float, query, rank: int):
    """The sets of tied chunks (lengths ``lengths``) a random order's prefix takes, with
    their chances: at most ``slots`` chunks, of at most ``room`` units in all, the
    prefix ending at the first chunk that does not fit.

    Examples
    --------
    Three tied chunks, two slots: each pair, a chance of 1/3. With room for 10 units,
    chunks of 4, 5 and 8 take the 8 alone if it comes first (1/3), the 4 or the 5 alone
    if the 8 comes second (1/6 each), and both if the 8 comes last (1/3):

    >>> sets, weights = _tied_sets(np.array([4, 5, 8]), 2, np.inf, "q", 0)
    >>> sets, weights.round(4).tolist()
    ([(0, 1), (0, 2), (1, 2)], [0.3333, 0.3333, 0.3333])
    >>> sets, weights = _tied_sets(np.array([4, 5, 8]), 3, 10.0, "q", 0)
    >>> sets, weights.round(4).tolist()
    ([(0,), (1,), (2,), (0, 1)], [0.1667, 0.1667, 0.3333, 0.3333])
    """
    size = len(lengths)
    sizes = [slots] if math.isinf(room) else range(slots + 1)
    count = sum(math.comb(size, s) for s in sizes)
    if count > MOST_TIED_SETS:
        raise InputValueError(
            f"ties='average' scores query {query!r} over every order of its {size} chunks "
            f"tied in score from rank {rank + 1}: {count:,} sets of them to score, more than "
            f"{MOST_TIED_SETS:,}; choose another tie rule (e.g. ties='trec_eval') or "
            "another cut")
    sets, weights = [], []
    for taken in sizes:
        for chosen in itertools.combinations(range(size), taken):
            used = int(lengths[list(chosen)].sum())
            if used > room:
                continue
            if taken == slots:
                chance = 1 / math.comb(size, taken)
            else:  # the next chunk of the order does not fit
                left = np.delete(lengths, list(chosen))
                stops = int((left > room - used).sum())
                if not stops:
                    continue
                chance = stops / (len(left) * math.comb(size, taken))
            sets.append(chosen)
            weights.append(chance)
    return sets, np.asarray(weights)


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
        self.e_grade = ev.grade[relevant]
        span_start, span_end = e_query * stride + e_start, e_query * stride + e_end
        e_starts, e_ends = union(span_start, span_end)
        self.on_line = _OnLine(n, stride, e_starts, e_ends, e_query, span_start, span_end,
                               self._per_query(e_starts, e_ends, n),
                               total_by(e_query, self.measure.length(span_start, span_end), n))
        self.empty = np.bincount(e_query, minlength=n) == 0
        if empty_relevant == "error" and self.empty.any():
            q = ev.queries[np.flatnonzero(self.empty)[0]]
            raise InputValueError(
                f"query {q!r} has no evidence (no span with relevance >= "
                f"{self.relevance_level}); pass empty_relevant='zero', 'article' or 'skip' "
                "to score it")

        # The run: ranked, its queries matched with the evidence's.
        self.ties = ties
        ranked = as_run(run, self.chunks, ties=ties, duplicates=duplicates, order_by=order_by,
                        grades=self._chunk_grades)
        check_same_kind([("evidence", ev.query_kind), ("run", ranked.query_kind)],
                        "query_id")
        code_of_run_query = pd.Index(ev.queries, dtype=object).get_indexer(
            pd.Index(ranked.queries, dtype=object))
        judged = code_of_run_query[ranked.query] >= 0
        self.row_query = code_of_run_query[ranked.query][judged]
        self.row_chunk = ranked.chunk[judged]
        self.row_rank = ranked.rank[judged]
        self.row_tied = ranked.tied[judged]
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

    def _per_query(self, starts: np.ndarray, ends: np.ndarray, n: int) -> np.ndarray:
        """Total length per query of intervals on the query stretches."""
        return total_by(starts // self.line.stride, self.measure.length(starts, ends), n)

    def _intersection(self, starts: np.ndarray, ends: np.ndarray, span_starts: np.ndarray,
                      span_ends: np.ndarray) -> np.ndarray:
        """|A n [s, e)| for each span, A the merged ``starts``/``ends``."""
        prefix = prefix_lengths(starts, ends, self.measure)
        return (covered_before(span_ends, starts, ends, prefix, self.measure)
                - covered_before(span_starts, starts, ends, prefix, self.measure))

    def _chunk_grades(self, query_ids: np.ndarray, chunk: np.ndarray) -> np.ndarray:
        """The relevance of each (query, chunk), by which ``ties="optimistic"`` and
        ``"pessimistic"`` order tied chunks: the best grade among the query's evidence
        that counts (grade >= relevance_level) sharing a character with the chunk, else 0."""
        span, hit = overlapping_pairs(self.e_start, self.e_end, self.chunk_start,
                                      self.chunk_end)
        n_chunks = np.int64(max(len(self.chunks), 1))
        keys, pair = np.unique(self.e_query[span] * n_chunks + hit, return_inverse=True)
        best = np.zeros(len(keys))
        np.maximum.at(best, pair, np.maximum(self.e_grade[span], 0.0))
        query = pd.Index(self.queries, dtype=object).get_indexer(
            pd.Index(query_ids, dtype=object))
        if not len(keys):
            return np.zeros(len(chunk))
        wanted = query * n_chunks + chunk
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        return np.where((query >= 0) & (keys[at] == wanted), best[at], 0.0)

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
            on = self.on_line
            size_c = self._per_query(starts, ends, on.n)
            hit = total_by(on.e_starts // on.stride,
                           self._intersection(starts, ends, on.e_starts, on.e_ends), on.n)
            self._omega = _divide(hit, size_c + on.size_e - hit)
        return self._omega

    def _retrieved(self, query: np.ndarray, chunk: np.ndarray, on: _OnLine) -> dict:
        """recall, precision and IoU of each query ``0 .. on.n - 1`` that retrieves the
        chunks ``chunk`` (rows of ``query``), against the evidence ``on``."""
        offset = query * on.stride
        r_starts, r_ends = union(offset + self.chunk_start[chunk], offset + self.chunk_end[chunk])
        hit = total_by(on.e_starts // on.stride,
                       self._intersection(r_starts, r_ends, on.e_starts, on.e_ends), on.n)
        if self.overlap == "union":
            size_r = self._per_query(r_starts, r_ends, on.n)
            return {"recall": _divide(hit, on.size_e), "precision": _divide(hit, size_r),
                    "iou": _divide(hit, size_r + on.size_e - hit)}
        sum_r = total_by(query, self.chunk_length[chunk], on.n)
        # Each evidence span's characters that no retrieved chunk holds, span by span.
        unused = (self.measure.length(on.span_start, on.span_end)
                  - self._intersection(r_starts, r_ends, on.span_start, on.span_end))
        missed = total_by(on.span_query, unused, on.n)
        return {"recall": _divide(hit, on.sum_e), "precision": _divide(hit, sum_r),
                "iou": _divide(hit, sum_r + missed)}

    def kept(self, k: int | None = None, budget: float | None = None) -> np.ndarray:
        """Which rows of the ranked run a cut keeps: the top ``k`` of each query, and of
        those the longest ranked prefix of at most ``budget`` units (the one cut every
        span metric, and :meth:`units_sent`, is taken at). Chunks tied in score come in
        the order of the tie rule; ``ties="average"`` then averages over the orders."""
        keep = np.ones(len(self.row_query), dtype=bool)
        if k is not None:
            keep &= self.row_rank < k
        if budget is not None:
            keep &= self.row_filled <= budget  # whole numbers of characters or tokens
        return keep

    def scores(self, k: int | None = None, budget: float | None = None) -> dict:
        """recall, precision, iou and precision_omega per query (evidence order)."""
        keep = self.kept(k, budget)
        if budget is not None:
            self._warn_budget(budget)
        values = self._retrieved(self.row_query[keep], self.row_chunk[keep], self.on_line)
        if self.ties == "average" and (k is not None or budget is not None):
            self._average_over_ties(values, k, budget)
        values["precision_omega"] = self.precision_omega().copy()
        return self._apply_policies(values)

    def units_sent(self, k: int | None = None, budget: float | None = None) -> np.ndarray:
        """Units sent per query (evidence order): the lengths of the chunks :meth:`kept`
        at the cut added up, each chunk whole (a prompt holding two overlapping chunks
        holds their shared text twice), in the unit of the metrics: the length of the
        ranked prefix at its last row kept. A query that retrieves nothing sends 0.

        Under ``ties="average"`` a query whose cut falls among chunks tied in score sends
        the mean over every order of them, weighted as the metrics are (:class:`_TiedCut`).
        The query's evidence plays no part: the cost of the context is the same whether
        the question has an answer or not (only ``empty_relevant="skip"`` and
        ``missing_from_run="skip"`` leave queries out, as they leave them out of the
        metrics' means).
        """
        keep = self.kept(k, budget)
        sent = total_by(self.row_query[keep], self.chunk_length[self.row_chunk[keep]],
                        self.n_queries).astype(np.float64)
        if self.ties == "average" and (k is not None or budget is not None):
            length = self.chunk_length[self.row_chunk]
            for cut in _TiedCut.find(self, k, budget):
                each = np.array([length[chosen].sum() for chosen in cut.sets], dtype=np.float64)
                sent[cut.query] = length[cut.before].sum() + float(cut.weights @ each)
        if self.empty_relevant == "skip":
            sent[self.empty] = np.nan
        if self.missing_from_run == "skip":
            sent[~self.in_run] = np.nan
        return sent

    def _average_over_ties(self, values: dict, k: int | None, budget: float | None) -> None:
        """``ties="average"``: each query whose cut falls among chunks tied in score
        scored by the mean over every order of them, in place (:class:`_TiedCut`)."""
        cuts = _TiedCut.find(self, k, budget)
        if not cuts:
            return
        real, rows, virtual, weight = _TiedCut.outcomes(cuts, self)
        got = self._retrieved(virtual, self.row_chunk[rows],
                              self.on_line.repeated(real))
        which = np.repeat(np.arange(len(cuts)), [len(c.weights) for c in cuts])
        queries = np.array([cut.query for cut in cuts])
        for name, column in got.items():
            values[name][queries] = np.bincount(which, weights=weight * column,
                                                minlength=len(cuts))

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
        """``{str(spec): per-query values}`` for span metrics' specs (a
        :class:`~ragmetrics.MetricSpec` each); each cut once."""
        cache: dict = {}
        columns = {}
        for spec in specs:
            cut = (spec.k, None if spec.budget is None else float(spec.budget))
            if spec.name == UNITS_SENT:  # a cost: the same cut, none of the policies
                columns[str(spec)] = self.units_sent(*cut)
                continue
            if cut not in cache:
                cache[cut] = self.scores(*cut)
            columns[str(spec)] = cache[cut][spec.name.removeprefix("span_")]
        return columns

    def _apply_policies(self, values: dict) -> dict:
        policy = self.empty_relevant
        for name, column in values.items():
            row = SPAN_METRIC_TABLE[f"span_{name}"]
            if policy == "article":
                column[self.empty] = row.article_value
            elif policy == "skip":
                column[self.empty] = np.nan
            else:  # "zero" (and "error", which raised already if any query was empty)
                column[self.empty] = 0.0
            if self.missing_from_run == "skip" and not row.of_the_query:
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


def warn_evidence_gaps(caught, result, without_evidence: tuple, *, rule: str,
                       has_ids: bool) -> None:
    """The warnings of an evaluation judged by evidence (span metrics and id-based ones
    with chunks judged by ``rule``), said once, in the terms of evidence.

    ``caught`` are the warnings both parts gave (the run's own are said again, once
    each; their coverage and empty-judgment warnings are said here instead),
    ``result`` the :class:`~ragmetrics.Evaluation`, ``without_evidence`` the queries
    with no span that counts.
    """
    seen = set()
    for warning in caught:  # the run's own (rank order, nothing relevant retrieved), once
        if issubclass(warning.category, (CoverageWarning, EmptyRelevantWarning)):
            continue
        key = (warning.category, str(warning.message))
        if key not in seen:
            seen.add(key)
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
    c = result.conventions
    said = coverage_gaps(len(result.queries_missing_from_run),
                         len(result.queries_missing_from_qrels), c.missing_from_run)
    if said:
        warnings.warn(said + "; see the Evaluation's attributes", CoverageWarning, stacklevel=4)
    how = {"zero": "scored 0 and counted in the mean",
           "article": "scored by the article's rule (recall 1, the rest 0)",
           "skip": "left out of the means"}.get(c.empty_relevant, "")
    policy = f" (empty_relevant={c.empty_relevant!r}; 'skip' leaves such queries out)"
    scored = set(result.per_query.index)
    empty = [q for q in without_evidence if q in scored]
    if empty and c.empty_relevant in ("zero", "article"):  # as evaluate warns
        warnings.warn(f"{_count(len(empty), 'query has', 'queries have')} no evidence (no "
                      f"span, or none graded >= {c.relevance_level:g}): {_shown(empty)}; "
                      f"{how}{policy}", EmptyRelevantWarning, stacklevel=4)
    rule_empty = [q for q in result.queries_without_relevant
                  if q not in set(empty) and q in scored] if has_ids else []
    if rule_empty:  # even under "skip": the span metrics of these queries still count
        warnings.warn(
            f"{_count(len(rule_empty), 'query has', 'queries have')} evidence, but no "
            f"chunk of this chunking is relevant under rule {rule!r}: "
            f"{_shown(rule_empty)}; their id-based metrics are {how}{policy}",
            NoRelevantChunkWarning, stacklevel=4)


def _shown(ids) -> str:
    return ", ".join(map(repr, ids[:3])) + (", ..." if len(ids) > 3 else "")


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
        The data model of :mod:`ragmetrics.spans.model`: chunks by offsets or text,
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
    ties : {"trec_eval", "input_order", "doc_id_ascending", "optimistic", "pessimistic", \
"average"}, default "trec_eval"
        The order of chunks tied in score, by :func:`ragmetrics.evaluate`'s rules
        (:data:`ragmetrics.conventions.TIE_POLICIES`): by chunk id, as given, or by
        relevance, a chunk's being the best grade of the evidence it shares a character
        with (``"optimistic"`` first, ``"pessimistic"`` last). ``"average"`` scores the
        mean over every order of the tied chunks that a cut (``k``, ``budget``) falls
        among: each set of them the cut can take, weighted by its chance (refused when
        there are more than 100,000 such sets for one query).
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
    specs: list[MetricSpec] = [parse_span_metric(name) for name in names]
    if len(set(map(str, specs))) < len(specs):
        raise InputValueError("a span metric is requested twice")
    scorer = SpanScorer(run, chunks, evidence, **options)
    values = scorer.by_name(specs)
    frame = scorer.frame({name: values[str(spec)] for name, spec in zip(names, specs,
                                                                         strict=True)})
    scorer.warn_coverage()
    return frame
