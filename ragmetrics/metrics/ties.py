r"""Expected values over the orders of tied docs, in closed form (``ties="average"``).

Under ``ties="average"`` a block of :math:`n` docs with the same score is taken in every
one of its :math:`n!` orders, each as likely, and a metric scores the mean over all of
them (blocks independently). Nothing is sampled: each metric here has a closed form;
infAP, G and interpolated precision, which have none, are exact finite sums
(:mod:`.ties_counted`).

- **Sums over ranks** of what the doc at a rank has (hits, DCG, RBP, unjudged counts)
  are exact on each row's *block mean*
  (:meth:`~ragmetrics.metrics.ranked.RankedJudgments.expected`): the expectation of a
  sum is the sum of the expectations. For DCG this is McSherry and Najork's rule (ECIR
  2008): the block's mean gain times the sum of its discounts.
- **The first relevant doc** (RR, hit rate): in a block of :math:`n` docs of which
  :math:`r` are relevant, with none above it, the first :math:`t` places all hold
  non-relevant docs with chance :math:`S_t = \prod_{u<t} \frac{n-r-u}{n-u}`, and the
  first relevant doc is at place :math:`t` (from 0) with chance
  :math:`S_t \, \frac{r}{n-t}` (:func:`first_hit_chances`).
- **AP**: the doc at place :math:`t` of the block is relevant with chance :math:`r/n`,
  and then the other :math:`t` docs above it in the block hold
  :math:`t \frac{r-1}{n-1}` relevant docs on average, so
  :math:`E[\mathrm{rel}_i \, \mathrm{hits}(i)] = \frac{r}{n}\left(h + 1 +
  t\,\frac{r-1}{n-1}\right)`, :math:`h` the relevant docs of earlier blocks
  (:func:`expected_precision_numerators`).
- **A relevant doc's rank among the non-relevant docs** of its block (bpref, binG) is
  uniform: with :math:`q` such docs, :math:`0, 1, \ldots, q` of them are above it, each
  with chance :math:`1/(q+1)`.
- **ERR**: a doc at place :math:`t` of its block has a uniform choice of :math:`t - 1`
  of the others above it, so its chance of being reached is the mean of
  :math:`\prod (1 - R)` over those subsets, computed by a convex recurrence
  (:func:`ragmetrics.metrics.graded.err`).

``tests/unit/metrics/test_ties.py`` checks every closed form against the mean over all orders,
enumerated, on small rankings, and that it lies between ``ties="pessimistic"`` and
``ties="optimistic"``.
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedJudgments, TieBlocks

__all__ = ["before_block", "blocks_of", "expected_precision_numerators", "first_hit_chances"]


def blocks_of(r: RankedJudgments) -> TieBlocks:
    """The tie blocks of ``r``: its own under ``ties="average"``, else one row each."""
    if r.ties is not None:
        return r.ties
    if "singletons" not in r.memo:
        rows = np.arange(len(r))
        ones = np.ones(len(r), dtype=np.int64)
        r.memo["singletons"] = TieBlocks(rows, np.zeros(len(r), np.int64), rows, ones)
    return r.memo["singletons"]


def before_block(r: RankedJudgments, mask: np.ndarray) -> np.ndarray:
    """For each row, the rows of ``mask`` in the earlier blocks of its query."""
    blocks = blocks_of(r)
    start = blocks.start[blocks.block]
    return (r.running_hits(mask) - mask)[start]


def _none_before(n: np.ndarray, relevant: np.ndarray, place: np.ndarray) -> np.ndarray:
    """:math:`S_t`: the chance that the first ``place`` docs of a block of ``n`` docs,
    ``relevant`` of them relevant, are all non-relevant. One product per block shape."""
    out = np.ones(len(n))
    shapes, which = np.unique(np.stack([n, relevant]), axis=1, return_inverse=True)
    which = np.asarray(which).reshape(-1)
    for shape, (size, rel) in enumerate(shapes.T):  # few shapes: (block size, relevant)
        u = np.arange(size, dtype=np.float64)
        chances = np.cumprod((size - rel - u) / (size - u))
        at = which == shape
        t = place[at]
        out[at] = np.where(t > 0, chances[np.maximum(t - 1, 0)], 1.0)
    return out


def first_hit_chances(r: RankedJudgments) -> np.ndarray:
    """Per row, the chance that it holds its query's first relevant doc.

    Without ties: 1 at each query's first relevant row, 0 elsewhere. Under
    ``ties="average"``: :math:`S_t \\, r/(n-t)` within the first block that holds a
    relevant doc, 0 elsewhere.
    """
    if "first_hit" in r.memo:
        return r.memo["first_hit"]
    if r.ties is None:
        chances = np.zeros(len(r))
        rows = np.flatnonzero(r.relevant)
        first = rows[np.r_[True, r.query[rows][1:] != r.query[rows][:-1]]] if len(rows) else rows
        chances[first] = 1.0
    else:
        blocks = r.ties
        n = blocks.size[blocks.block]
        relevant_in_block = np.rint(blocks.total(r.relevant)).astype(np.int64)
        live = (before_block(r, r.relevant) == 0) & (relevant_in_block > 0)
        chances = np.zeros(len(r))
        t = blocks.offset[live]
        size, rel = n[live], relevant_in_block[live]
        chances[live] = _none_before(size, rel, t) * rel / (size - t)
    r.memo["first_hit"] = chances
    return chances


def expected_precision_numerators(r: RankedJudgments) -> np.ndarray:
    """Per row, :math:`E[\\mathrm{rel}_i \\cdot \\mathrm{hits}(i)]`: what AP adds at the
    row is this over the rank :math:`i` (exact: 0 or the hits so far, without ties)."""
    blocks = r.ties
    n = blocks.size[blocks.block].astype(np.float64)
    rel = blocks.total(r.relevant)
    h = before_block(r, r.relevant)
    t = blocks.offset
    others = np.divide(t * (rel - 1.0), n - 1.0, out=np.zeros(len(r)), where=n > 1)
    return rel / n * (h + 1.0 + others)
