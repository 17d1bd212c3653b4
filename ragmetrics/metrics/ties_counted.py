r"""Exact means over the orders of tied docs, by counting (``ties="average"``).

The block means of :mod:`.ties` are exact for measures that add up what each rank holds.
Four measures of trec_eval do not: infAP's term for a relevant doc is a ratio of the
counts above it, G divides each gain by a function of the gain collected so far, and
interpolated precision (iprec_at_recall, 11pt_avg) is a maximum over ranks. Their mean
over the orders of a tie is still a finite sum, computed here exactly (nothing sampled):

- **What a block puts above a doc.** In a block of :math:`n` docs taken in a uniformly
  random order, a given doc is at place :math:`t` (from 0) with chance :math:`1/n`, and
  the :math:`t` docs above it are a uniformly random :math:`t`-subset of the other
  :math:`n - 1`: with :math:`c_\ell` others of class :math:`\ell`, the chance that
  :math:`x_\ell` of each class are above it is the multivariate hypergeometric

  .. math:: \frac{1}{n} \, \frac{\prod_\ell \binom{c_\ell}{x_\ell}}{\binom{n-1}{t}},
            \qquad t = \sum_\ell x_\ell .

  infAP (classes: relevant, judged non-relevant, the rest; :func:`expected_infap_terms`)
  and G (classes: the gain levels; :func:`expected_g_terms`) sum their term over these
  compositions; compositions with the same counts that the term reads are merged first
  (Vandermonde's identity for infAP's unjudged docs; equal gain sums for G).
- **A maximum over blocks.** The orders of different blocks are independent, so the
  largest precision :math:`Y` at or past the :math:`c`-th relevant doc has
  :math:`P(Y \le v) = \prod_B P(M_B \le v)`, :math:`M_B` the largest of block
  :math:`B`. :math:`P(M_B \le v)` counts the placements of the block's relevant docs
  that keep each at or below precision :math:`v` (a lattice-path count), and
  :math:`E[Y] = \int_0^\infty P(Y > v)\,dv` is a finite sum over the values :math:`Y`
  can take (:func:`expected_interpolated_precision`). Precisions are compared as
  fractions of integers, never as rounded floats.

The sums grow with a block's size (infAP's as :math:`n^3/27` at worst, G's with the
block's size times the gain sums its subsets can reach, the maximum's as
:math:`n^3 m^2/4`, :math:`m` the relevant docs of the block); a block whose sum would exceed :data:`MAX_TERMS` terms is refused
with an error that says so, rather than left to run for hours. ``tests/unit/metrics/test_ties.py``
checks every one against the mean over all orders, enumerated.

Examples
--------
A relevant doc ``a`` and a judged non-relevant ``x`` tie at the top (R = 1). In one
order ``a`` is at rank 1, in the other at rank 2, so its interpolated precision at
recall 1 is 1 or 1/2, and the mean 3/4:

>>> import numpy as np
>>> from ragmetrics.metrics.ranked import RankedJudgments, TieBlocks
>>> tie = TieBlocks.from_runs(2, np.array([0]), np.array([2]))
>>> r = RankedJudgments(1, query=[0, 0], grade=[1, 0], gain=[1, 0], num_relevant=[1],
...                     judged=[True, True], ties=tie)
>>> expected_interpolated_precision(r, np.array([1]))
array([0.75])

infAP scores ``a`` 1 at rank 1, and at rank 2, below one judged doc that is not
relevant, :math:`1/2 + (1/2)(\varepsilon / (1 + 2\varepsilon))`:

>>> rows, terms = expected_infap_terms(r, 1e-5)
>>> rows, terms.round(7)
(array([0]), array([0.7500025]))
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..errors import InputValueError
from .ranked import RankedJudgments, TieBlocks
from .ties import before_block, blocks_of

__all__ = ["MAX_TERMS", "TieBlockTooLarge", "expected_g_terms", "expected_infap_terms",
           "expected_interpolated_precision"]

#: The most terms one tied block's exact mean may sum (about a second of work here).
MAX_TERMS = 50_000_000
#: Blocks' grid cells summed in one NumPy step (bounds the memory of a step).
_CELLS_A_STEP = 4_000_000


def _log_factorials(n: int) -> np.ndarray:
    """log(i!) for i = 0..n (math.lgamma: exact to the last bits, no running sum)."""
    return np.array([math.lgamma(i + 1.0) for i in range(n + 1)])


def _log_comb(log_fact: np.ndarray, n, k) -> np.ndarray:
    return log_fact[n] - log_fact[k] - log_fact[np.asarray(n) - np.asarray(k)]


class TieBlockTooLarge(InputValueError):
    """A tied block whose exact mean would sum more than :data:`MAX_TERMS` terms.

    ``query`` is the block's query code; :meth:`naming` gives the error with the
    query's id, which the caller that knows the ids raises instead.
    """

    def __init__(self, measure: str, query: int, rank: int, size: int, terms: float,
                 query_id=None) -> None:
        self.details = (measure, query, rank, size, terms)
        self.query = query
        self.query_id = query_id
        which = f"query {query_id!r}" if query_id is not None else "a query"
        super().__init__(
            f"ties='average': the exact mean of {measure} over the orders of a block of "
            f"{size:,} tied docs (from rank {rank + 1:,} of {which}) sums {terms:.3g} "
            f"terms, more than the {MAX_TERMS:.0e} allowed; break the ties with another "
            "rule (ties='trec_eval'), or bound the value with 'pessimistic' and "
            "'optimistic'")

    def naming(self, query_id) -> TieBlockTooLarge:
        return TieBlockTooLarge(*self.details, query_id=query_id)

    def __reduce__(self):  # rebuilt from its parts when sent back from a worker process
        return TieBlockTooLarge, (*self.details, self.query_id)


def _refuse(measure: str, r: RankedJudgments, row: int, size: int, terms: float) -> None:
    raise TieBlockTooLarge(measure, int(r.query[row]), int(r.rank[row]), size, terms)


def _block_counts(blocks: TieBlocks, mask: np.ndarray) -> np.ndarray:
    return np.bincount(blocks.block, weights=mask, minlength=len(blocks.start)).astype(np.int64)


# -- infAP ---------------------------------------------------------------------------------


def expected_infap_terms(r: RankedJudgments, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    r"""infAP's expected term for each relevant row whose block is in doubt.

    A relevant doc at rank :math:`j + 1` adds
    :math:`(1 + p \, f(\rho, \nu)) / (j + 1)` with
    :math:`f(\rho, \nu) = (\rho + \varepsilon)/(\rho + \nu + 2\varepsilon)`, where
    :math:`p, \rho, \nu` count the pool, relevant and judged non-relevant docs above it
    (trec_eval's two-case formula, in one line). In a block with :math:`m` relevant,
    :math:`a` judged non-relevant and :math:`d` other docs (:math:`b` of them in the pool
    unjudged), the sum runs over :math:`x \le m-1` relevant, :math:`y \le a` judged and
    :math:`k \le d` other docs above; the pool docs among those :math:`k` average
    :math:`k b / d` (Vandermonde). Returns (rows, terms): every relevant row of a block
    that also holds another kind of doc, and its expected term.
    """
    blocks = blocks_of(r)
    relevant, nonrel = r.relevant, r.judged_nonrelevant
    pool = r.judged
    m = _block_counts(blocks, relevant)
    a = _block_counts(blocks, nonrel)
    b = _block_counts(blocks, pool & ~relevant & ~nonrel)
    d = blocks.size - m - a
    in_doubt = np.flatnonzero((m > 0) & (m < blocks.size))
    rows = np.flatnonzero(relevant & np.isin(blocks.block, in_doubt))
    if not len(in_doubt):
        return rows, np.zeros(0)
    heads = blocks.start[in_doubt]
    above = {name: before_block(r, mask)[heads].astype(np.float64)
             for name, mask in (("rel", relevant), ("nonrel", nonrel), ("pool", pool))}
    expected = np.empty(len(in_doubt))
    shapes, which = np.unique(np.stack([m[in_doubt], a[in_doubt], d[in_doubt]]), axis=1,
                              return_inverse=True)
    which = np.asarray(which).reshape(-1)
    log_fact = _log_factorials(int(blocks.size[in_doubt].max()))
    for shape, (m_, a_, d_) in enumerate(shapes.T):
        n = m_ + a_ + d_
        at = np.flatnonzero(which == shape)
        cells = m_ * (a_ + 1) * (d_ + 1)
        if cells > MAX_TERMS:
            _refuse("infAP", r, int(heads[at[0]]), n, cells)
        y, k = (v.ravel() for v in np.meshgrid(np.arange(a_ + 1), np.arange(d_ + 1),
                                                indexing="ij"))
        share = np.divide(b[in_doubt[at]], d_, out=np.zeros(len(at)), where=d_ > 0)
        total = np.zeros(len(at))
        step = max(1, _CELLS_A_STEP // len(y))
        for x in range(m_):  # x relevant, y judged non-relevant and k other docs above
            t = x + y + k
            weight = np.exp(_log_comb(log_fact, m_ - 1, x) + _log_comb(log_fact, a_, y)
                            + _log_comb(log_fact, d_, k) - _log_comb(log_fact, n - 1, t)) / n
            for lo in range(0, len(at), step):
                part = at[lo:lo + step]
                start = r.rank[heads[part]].astype(np.float64)[:, None]
                rho = above["rel"][part][:, None] + x
                nu = above["nonrel"][part][:, None] + y
                in_pool = above["pool"][part][:, None] + x + y + k * share[lo:lo + step, None]
                terms = (1.0 + in_pool * (rho + epsilon) / (rho + nu + 2 * epsilon)) / (
                    start + 1.0 + t)
                total[lo:lo + step] += terms @ weight
        expected[at] = total
    return rows, expected[np.searchsorted(in_doubt, blocks.block[rows])]


# -- G -------------------------------------------------------------------------------------


def _subset_sums(levels: np.ndarray, counts: np.ndarray, log_fact: np.ndarray,
                 too_many) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (size, gain sum, log count) of the subsets of a multiset of gains, subsets
    with the same size and sum merged: ``counts[l]`` docs of gain ``levels[l]``.
    ``too_many(terms)`` is called (to raise) before a step would hold too many."""
    size, total, log_count = np.zeros(1, np.int64), np.zeros(1), np.zeros(1)
    for gain, count in zip(levels, counts, strict=True):
        if len(size) * (count + 1) > MAX_TERMS:
            too_many(len(size) * (count + 1))
        x = np.arange(count + 1)
        size = (size[:, None] + x).ravel()
        total = (total[:, None] + gain * x).ravel()
        log_count = (log_count[:, None] + _log_comb(log_fact, count, x)).ravel()
        order = np.lexsort((total, size))
        size, total, log_count = size[order], total[order], log_count[order]
        new = np.r_[True, (size[1:] != size[:-1]) | (total[1:] != total[:-1])]
        heads = np.flatnonzero(new)
        size, total = size[heads], total[heads]
        log_count = np.logaddexp.reduceat(log_count, heads)
    return size, total, log_count


def expected_g_terms(r: RankedJudgments, gain: np.ndarray, cost: np.ndarray,
                     collected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""G's expected term for each row with a gain whose block holds unequal gains.

    The doc at rank :math:`i` adds :math:`g_i / \log_2(2 + C_i - S_i)`, :math:`C_i` the
    ideal's cost down to rank :math:`i` (fixed by the rank) and :math:`S_i` the gain
    collected down to it, its own included. For a doc of gain :math:`g` in a block, the
    sum runs over the place :math:`t` and the gains :math:`X` of the :math:`t` docs above
    it, subsets with equal :math:`(t, X)` merged. ``cost`` and ``collected`` are the
    running sums of the rows as given (exact where the block's gains are equal).
    Returns (rows, terms).
    """
    blocks = blocks_of(r)
    lowest = np.minimum.reduceat(gain, blocks.start) if len(gain) else gain
    highest = np.maximum.reduceat(gain, blocks.start) if len(gain) else gain
    in_doubt = np.flatnonzero(lowest != highest)
    rows = np.flatnonzero(np.isin(blocks.block, in_doubt) & (gain != 0))
    terms = np.empty(len(rows))
    if not len(in_doubt):
        return rows, terms
    log_fact = _log_factorials(int(blocks.size[in_doubt].max()))
    row_block = blocks.block[rows]
    first_row = np.searchsorted(row_block, in_doubt)  # rows are in order: by block
    last_row = np.searchsorted(row_block, in_doubt, side="right")
    for block, lo, hi in zip(in_doubt, first_row, last_row, strict=True):
        start, n = int(blocks.start[block]), int(blocks.size[block])
        levels, counts = np.unique(gain[start:start + n], return_counts=True)
        # the gain of the earlier blocks, as the rows above summed it
        before = collected[start - 1] if r.rank[start] > 0 else 0.0
        costs = cost[start:start + n]  # the cost at each place of the block
        def too_many(terms, n=n, start=start):
            _refuse("G", r, start, n, terms)

        of_block = gain[rows[lo:hi]]
        for level, g in enumerate(levels):
            if g == 0:
                continue
            others = counts.copy()
            others[level] -= 1
            t, above, log_count = _subset_sums(levels, others, log_fact, too_many)
            weight = np.exp(log_count - _log_comb(log_fact, n - 1, t)) / n
            value = weight @ (g / np.log2(2.0 + costs[t] - before - g - above))
            terms[lo:hi][of_block == g] = value
    return rows, terms


# -- interpolated precision ------------------------------------------------------------------


def _count_at_most(n: int, m: int, first: int, needed: np.ndarray) -> np.ndarray:
    """For each row of ``needed`` (lowest allowed place, from 1, of the ``first``-th to
    ``m``-th relevant doc), the log of the number of ways to place ``m`` relevant docs
    among ``n`` places so that the i-th is at place ``needed[:, i - first]`` or lower."""
    ways = np.zeros((len(needed), n + 1))
    ways[:, 0] = 1.0  # the 0th relevant doc "at place 0"
    log_scale = np.zeros(len(needed))
    places = np.arange(n + 1)
    for i in range(1, m + 1):
        below = np.zeros_like(ways)
        np.cumsum(ways[:, :-1], axis=1, out=below[:, 1:])  # the (i-1)th above place p
        low = np.full(len(needed), i) if i < first else np.maximum(needed[:, i - first], i)
        allowed = (places >= low[:, None]) & (places <= n - m + i)
        ways = np.where(allowed, below, 0.0)
        scale = ways.max(axis=1)
        scale[scale == 0] = 1.0
        ways /= scale[:, None]
        log_scale += np.log(scale)
    with np.errstate(divide="ignore"):
        return np.log(ways.sum(axis=1)) + log_scale


def expected_interpolated_precision(r: RankedJudgments, cut: np.ndarray) -> np.ndarray:
    r"""Per query, the expected best precision at or past its ``cut``-th relevant doc
    (:math:`\max_{j \ge c} j / r_j`; 0 where fewer relevant docs were retrieved).

    Blocks whose relevant docs have fixed ranks (all relevant, or of one doc) give a
    fixed part :math:`D`; the others, each its own :math:`M_B`. Over the values
    :math:`u_0 = D < u_1 < \dots < u_K` the maximum can take,
    :math:`E[Y] = D + \sum_k (u_{k+1} - u_k)\,(1 - \prod_B P(M_B \le u_k))`.
    """
    blocks, m, fixed_relevant, hits, found, doubt, doubt_query, h_all = _parts(r)
    cut = np.maximum(np.asarray(cut, dtype=np.int64), 1)
    # The fixed part, as a fraction j / rank per query (the largest over its rows).
    fixed = np.flatnonzero(fixed_relevant & (hits >= cut[r.query]))
    best_num = np.zeros(r.n_queries, np.int64)
    best_den = np.ones(r.n_queries, np.int64)
    if len(fixed):
        ratio = hits[fixed] / (r.rank[fixed] + 1.0)
        order = np.lexsort((ratio, r.query[fixed]))
        fixed = fixed[order]
        last = np.r_[r.query[fixed][1:] != r.query[fixed][:-1], True]
        top = fixed[last]
        best_num[r.query[top]] = hits[top]
        best_den[r.query[top]] = r.rank[top] + 1
    values = best_num / best_den
    values[found < cut] = 0.0
    # a block in doubt counts when its query found enough relevant docs and its own
    # relevant docs reach the cut
    counts = (found[doubt_query] >= cut[doubt_query]) & (h_all[doubt] + m[doubt]
                                                         >= cut[doubt_query])
    doubt, doubt_query = doubt[counts], doubt_query[counts]
    bounds = np.flatnonzero(np.r_[True, doubt_query[1:] != doubt_query[:-1], True])
    bounds = bounds if len(doubt) else bounds[:0]
    for lo, hi in itertools.pairwise(bounds):
        q = int(doubt_query[lo])
        values[q] = _expected_max(r, blocks, doubt[lo:hi], m, h_all, int(cut[q]),
                                  int(best_num[q]), int(best_den[q]))
    return values


def _parts(r: RankedJudgments):
    """What every cut of :func:`expected_interpolated_precision` reads, once per ranking
    (11pt_avg asks for up to 12 cuts)."""
    if "interpolated_ties" not in r.memo:
        blocks = blocks_of(r)
        relevant = r.relevant
        m = _block_counts(blocks, relevant)
        size = blocks.size
        fixed_relevant = relevant & ((m == size) | (size == 1))[blocks.block]
        doubt = np.flatnonzero((m > 0) & (m < size))  # blocks in row order: by query
        r.memo["interpolated_ties"] = (
            blocks, m, fixed_relevant, r.running_hits(relevant), r.per_query(relevant),
            doubt, r.query[blocks.start[doubt]], before_block(r, relevant)[blocks.start])
    return r.memo["interpolated_ties"]


def _expected_max(r, blocks, chosen, m, h_all, cut, d_num, d_den) -> float:
    """E[max(D, M_B for B in chosen)], D = d_num / d_den (see the caller)."""
    supports = []
    shapes = []
    for block in chosen:
        n, m_, h = int(blocks.size[block]), int(m[block]), int(h_all[block])
        s = int(r.rank[blocks.start[block]])
        first = max(1, cut - h)
        i = np.arange(first, m_ + 1)
        nums = np.repeat(h + i, n - m_ + 1)
        dens = s + (i[:, None] + np.arange(n - m_ + 1)).ravel()
        supports.append((nums, dens))
        shapes.append((int(blocks.start[block]), n, m_, h, s, first))
    nums = np.concatenate([p[0] for p in supports])
    dens = np.concatenate([p[1] for p in supports])
    value = nums / dens
    keep = value > d_num / d_den
    value, nums, dens = value[keep], nums[keep], dens[keep]
    value, unique = np.unique(value, return_index=True)
    nums, dens = nums[unique], dens[unique]
    if not len(value):  # no block can beat the fixed part
        return d_num / d_den
    # u_0 = D, then every value the maximum can take above it; P(Y <= u_k) at each.
    u_num = np.r_[d_num, nums[:-1]]
    u_den = np.r_[d_den, dens[:-1]]
    steps = np.diff(np.r_[d_num / d_den, value])
    log_all_below = np.zeros(len(u_num))
    for start, n, m_, h, s, first in shapes:
        work = len(u_num) * n * m_
        if work > MAX_TERMS:
            _refuse("interpolated precision", r, start, n, work)
        i = np.arange(first, m_ + 1)
        # the i-th relevant doc at place p has precision (h + i) / (s + p) <= u
        # exactly when p >= (h + i) * u_den / u_num - s (integers: a ceiling division).
        # (u = 0, the fixed part when there is none: no place is low enough.)
        numer = (h + i)[None, :] * u_den[:, None]
        low = np.where(u_num[:, None] > 0,
                       -(-numer // np.maximum(u_num[:, None], 1)) - s, n + 1)
        log_all_below += _count_at_most(n, m_, first, low) - (
            math.lgamma(n + 1) - math.lgamma(m_ + 1) - math.lgamma(n - m_ + 1))
    return d_num / d_den + float(steps @ -np.expm1(log_all_below))
