r"""Measures that tell judged docs from unjudged ones: bpref, infAP, unj@k, Judged@k, ...

Most measures count an unjudged doc as not relevant. With incomplete judgments (pooled
TREC collections, or judgments made by an LLM for only some docs) that understates a
system that finds good docs nobody judged. These measures look only at what was judged,
or say how much was not:

- an **unjudged** doc (trec_eval's "not in the pool", or a negative grade: "in the pool
  but not judged") is skipped by :func:`bpref` and :func:`infap`, and counted by
  :func:`unjudged_at_k` (trec_eval's unj) and :func:`rbp_resid`;
- a **judged non-relevant** doc has a grade from 0 up to the relevance level.

With :math:`R` relevant docs, :math:`N` judged non-relevant docs and, for the relevant
doc at rank :math:`i`, :math:`n_i` judged non-relevant docs above it:

.. math:: \mathrm{bpref} = \frac{1}{R} \sum_{\text{relevant } i}
          \left(1 - \frac{\min(n_i, R)}{\min(N, R)}\right)

(Buckley and Voorhees, SIGIR 2004, as trec_eval computes it). infAP (Yilmaz and Aslam,
CIKM 2006) estimates AP from a random sample of the pool: see :func:`infap`.

Examples
--------
>>> from ragmetrics.metrics.ranked import Qrels, RankedJudgments
>>> r = RankedJudgments(1, query=[0, 0, 0, 0], grade=[0, 1, 0, 1], gain=[0, 1, 0, 1],
...                     num_relevant=[2], judged=[True, True, False, True],
...                     qrels=Qrels.of([0, 0, 0], [0, 1, 1]))
>>> bpref(r, None)  # one judged non-relevant doc, above both relevant ones
array([0.])
>>> unjudged_at_k(r, 4), judged_share(r, 4)
(array([0.25]), array([0.75]))
"""

from __future__ import annotations

import numpy as np

from .._moved import renamed_in
from .ranked import RankedJudgments
from .ties import before_block, blocks_of
from .ties_counted import expected_infap_terms

__all__ = ["bpref", "infap", "judged_share", "num_nonrel_judged_ret", "rbp_resid", "relstring",
           "unjudged_at_k"]

#: infAP's smoothing constant (trec_eval's INFAP_EPSILON).
INFAP_EPSILON = 0.00001


def num_nonrel_judged_ret(r: RankedJudgments, k) -> np.ndarray:
    """How many retrieved docs are judged non-relevant (trec_eval's
    num_nonrel_judged_ret)."""
    return r.per_query(r.judged_nonrelevant)


def bpref(r: RankedJudgments, k) -> np.ndarray:
    """Binary preference: for each relevant doc, the share of the (first R) judged
    non-relevant docs it is ranked above, averaged over the R relevant docs.

    Under ``ties="average"``, a relevant doc has each of the :math:`q + 1` places among
    the :math:`q` judged non-relevant docs of its block with the same chance.
    """
    R = r.num_relevant
    num_nonrel = r.qrels_count(lambda g: (g >= 0) & (g < r.relevance_level))
    scale = np.minimum(num_nonrel, R)
    if r.ties is None:
        return _bpref_untied(r, R, scale)
    blocks = blocks_of(r)
    nonrel_judged = r.judged_nonrelevant
    heads = blocks.start  # one row per block
    query = r.query[heads]
    relevant = np.bincount(blocks.block, weights=r.relevant, minlength=len(heads))
    nonrel = np.bincount(blocks.block, weights=nonrel_judged, minlength=len(heads))
    above = before_block(r, nonrel_judged)[heads]
    expected_min = _mean_of_min(above, nonrel, R[query])
    scale_q = scale[query]
    penalty = np.divide(expected_min, scale_q, out=np.zeros(len(heads)), where=scale_q > 0)
    terms = np.where(relevant > 0, relevant * (1.0 - penalty), 0.0)
    return r.divide(np.bincount(query, weights=terms, minlength=r.n_queries), R)


def _bpref_untied(r: RankedJudgments, R: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """bpref with every tie broken, from the judged rows only (unjudged docs are
    skipped): a relevant doc's penalty is min(judged non-relevant docs above, R) / scale,
    the same floats as the general formula gives for blocks of one doc."""
    rows = r.judged_rows
    relevant = r.relevant[rows]
    nonrel = r.judged_nonrelevant[rows]
    above = (r.running_at(rows, nonrel) - nonrel)[relevant]
    rows = rows[relevant]
    query = r.query[rows]
    cap, scale_q = R[query], scale[query]
    at_most = np.where(above >= cap, cap, above.astype(np.float64))
    penalty = np.divide(at_most, scale_q, out=np.zeros(len(rows)), where=scale_q > 0)
    return r.divide(np.bincount(query, weights=1.0 - penalty, minlength=r.n_queries), R)


def _mean_of_min(a: np.ndarray, q: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """The mean of ``min(a + x, cap)`` over ``x = 0, 1, ..., q`` (closed form)."""
    t = np.clip(cap - a, 0, q)  # the x up to which a + x stays below the cap
    total = (t + 1) * a + t * (t + 1) / 2 + (q - t) * cap
    return np.where(a >= cap, cap, total / (q + 1))


def infap(r: RankedJudgments, k) -> np.ndarray:
    """Inferred AP, exactly as trec_eval computes it.

    For the relevant doc at rank :math:`j + 1` (:math:`j` docs above it, of which
    :math:`p` are in the pool, i.e. judged at any grade, :math:`\\rho` relevant and
    :math:`\\nu` judged non-relevant):

    .. math:: \\frac{1}{j + 1} + \\frac{j}{j + 1} \\cdot \\frac{p}{j} \\cdot
              \\frac{\\rho + \\varepsilon}{\\rho + \\nu + 2\\varepsilon}

    (1 at rank 1), summed and divided by R; :math:`\\varepsilon = 10^{-5}`. On complete
    judgments (no unjudged doc retrieved) :math:`p = j`, and infAP equals AP up to
    :math:`\\varepsilon`. Under ``ties="average"``, each relevant doc of a block that
    holds other docs too takes its expected term over the block's orders
    (:func:`~ragmetrics.metrics.ties_counted.expected_infap_terms`).
    """
    # Only the judged rows count (the pool, and the relevant docs among it): the counts
    # above a relevant doc are counts among them, and the terms are 0 elsewhere.
    rows = r.judged_rows
    relevant, nonrel = r.relevant[rows], r.judged_nonrelevant[rows]
    in_pool = r.judged[rows]
    rho = (r.running_at(rows, relevant) - relevant).astype(np.float64)[relevant]
    nu = (r.running_at(rows, nonrel) - nonrel).astype(np.float64)[relevant]
    pool = (r.running_at(rows, in_pool) - in_pool).astype(np.float64)[relevant]
    rows = rows[relevant]
    rank = r.rank[rows]
    j = rank.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        later = 1.0 / (j + 1.0) + (j / (j + 1.0)) * (pool / j) * (
            (rho + INFAP_EPSILON) / (rho + nu + 2 * INFAP_EPSILON))
    terms = np.where(rank == 0, 1.0, later)
    if r.ties is not None:
        in_doubt, expected = expected_infap_terms(r, INFAP_EPSILON)
        terms[np.searchsorted(rows, in_doubt)] = expected
    return r.divide(r.per_query_at(rows, terms), r.num_relevant)


def unjudged_at_k(r: RankedJudgments, k) -> np.ndarray:
    """The share of the top ``k`` that is unjudged: not judged, or judged below 0 (an
    empty slot counts as judged: trec_eval's unj divides by ``k``)."""
    return r.per_query(r.expected(r.unjudged), k) / np.asarray(k, dtype=np.float64)


def judged_share(r: RankedJudgments, k) -> np.ndarray:
    """Judged@k: the share of the top ``k`` that is judged, at any grade (ir_measures' Judged@k;
    an empty slot counts as unjudged, so a short ranking cannot reach 1)."""
    return r.per_query(r.expected(r.judged), k) / np.asarray(k, dtype=np.float64)


def rbp_resid(r: RankedJudgments, k, *, p: float = 0.9) -> np.ndarray:
    """The RBP residual: how much RBP could still rise if every unjudged doc retrieved
    were relevant, plus the weight of the ranks below the ranking,
    :math:`(1 - p) \\sum_{\\text{unjudged } i} p^{i-1} + p^n`. trec_eval reports 0 for a
    ranking with no unjudged doc (leaving out the :math:`p^n` below it); so does this."""
    powers = r.powers(p)
    unjudged = r.expected(r.unjudged)
    resid = (1.0 - p) * r.per_query(unjudged * powers[r.rank]) + powers[
        r.num_retrieved.astype(np.int64)]
    # At most 1 (every doc unjudged: (1 - p)(1 + p + ... + p^(n-1)) + p^n = 1), which
    # the float sum can pass by an ulp: scoring puts it back (scoring.snapped_to_bounds).
    return np.where(r.per_query(r.unjudged) > 0, resid, 0.0)


def relstring(r: RankedJudgments, k, *, length: int = 10) -> np.ndarray:
    """The judgments of the top ``length`` docs as text, one character a doc: the grade
    (0-9; '>' above 9), '-' for a doc not judged, '.' for one judged below 0 (trec_eval's
    relstring; '?' for a grade that is not a whole number, which trec_eval cannot have)."""
    rel = r.trec_rel
    whole = rel == np.floor(rel)
    codes = np.where(rel > 9, ord(">"), np.where(rel >= 0, ord("0") + np.clip(rel, 0, 9),
                                                 np.where(rel == -1, ord("-"), ord("."))))
    codes = np.where(whole | (rel < 0), codes, ord("?")).astype(np.uint8)
    kept = np.flatnonzero(r.rank < length)
    kept = kept[np.argsort(r.query[kept], kind="stable")]  # queries in code order
    # One string for all queries, split at a separator no code can be.
    query = r.query[kept]
    text = np.full(len(query) + r.n_queries, ord("\n"), dtype=np.uint8)
    slots = np.arange(len(query)) + query  # each query's codes, then its separator
    text[slots] = codes[kept]
    parts = text.tobytes().decode("ascii").split("\n")[: r.n_queries]
    return np.array(parts, dtype=object)

# Old names answer with a DeprecationWarning (ragmetrics._moved.RENAMED); others raise.
__getattr__ = renamed_in(__name__)
