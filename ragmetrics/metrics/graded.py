r"""Gain-based measures beyond DCG: ERR, RBP and trec_eval's ndcg_rel, Rndcg, G and binG.

With :math:`g_i` the gain of the doc at rank :math:`i` (its grade, or what a gain map
gives it; see :mod:`~ragmetrics.metrics.gains`):

- **ERR@k** (Chapelle et al., CIKM 2009), the expected reciprocal rank of the doc at
  which a user who stops at rank :math:`i` with chance :math:`R_i` stops:
  :math:`\sum_{i \le k} \frac{R_i}{i} \prod_{j < i} (1 - R_j)`, with
  :math:`R_i = (2^{g_i} - 1) / 2^{g_{\max}}` (or a map grade -> chance);
- **RBP(p)** (Moffat and Zobel, TOIS 2008), rank-biased precision: a user goes on from
  one rank to the next with chance :math:`p`, :math:`(1 - p) \sum_i g_i p^{i-1}`, gains
  scaled into [0, 1] as trec_eval scales them; :func:`~ragmetrics.metrics.judged.rbp_resid`
  says how much the unjudged docs leave open;
- **ndcg_rel**: nDCG averaged over the ranks of the relevant docs (trec_eval);
- **Rndcg**: nDCG averaged over the ranks where the ideal ranking's gain changes, and
  at the end of the ranking (trec_eval);
- **G**: each gain discounted by how far the gain collected so far lags behind the
  ideal's, :math:`\sum_i g_i / \log_2(2 + C_i - \sum_{j \le i} g_j)`, over the ideal's
  total gain (trec_eval; :math:`C_i` the ideal's gain so far, each rank at least 1);
- **binG**: G with binary gains, :math:`\frac{1}{R} \sum_{\text{relevant } i}
  1 / \log_2(2 + \text{non-relevant docs above } i)` (trec_eval).

Examples
--------
>>> from ragmetrics.metrics.ranked import Qrels, RankedJudgments
>>> r = RankedJudgments(1, query=[0, 0], grade=[0, 2], gain=[0, 2], num_relevant=[1],
...                     judged=[True, True], qrels=Qrels.of([0, 0], [0, 2]))
>>> err(r, None)  # R = (2^2 - 1) / 2^2 at rank 2
array([0.375])
>>> rbp(r, None, p=0.5)  # gains scaled to [0, 1]: (1 - p) * 1 * p
array([0.25])
"""

from __future__ import annotations

import numpy as np

from ..errors import InputValueError
from .gains import grade_gains, ideal_under, row_gains
from .ranked import RankedJudgments
from .ties import before_block, blocks_of
from .ties_counted import expected_g_terms

__all__ = ["bing", "err", "g", "ndcg_rel", "rbp", "rndcg"]


def _running(r: RankedJudgments, values: np.ndarray) -> np.ndarray:
    return r.running_sum(values)


def _ideal_starts(ideal: RankedJudgments, n_queries: int) -> tuple[np.ndarray, np.ndarray]:
    """(first row, number of rows) of each query's ideal ranking, every query."""
    count = np.bincount(ideal.query, minlength=n_queries)
    return np.cumsum(count) - count, count


def ndcg_rel(r: RankedJudgments, k, *, gains=()) -> np.ndarray:
    """nDCG averaged over the relevant docs (trec_eval's ndcg_rel).

    At each retrieved doc with a positive gain, at rank :math:`i`: DCG@i over IDCG@i (the
    ideal's DCG at that rank, or all of it past its end); each relevant doc never
    retrieved adds the final DCG over the ideal DCG; the sum is divided by the number
    :math:`L` of docs with a positive gain.
    """
    ideal = ideal_under(r, gains)
    start, length = _ideal_starts(ideal, r.n_queries)
    ideal_dcg = _running(ideal, ideal.gain / ideal.discounts())
    total_ideal = np.zeros(r.n_queries)
    has = length > 0
    total_ideal[has] = ideal_dcg[start[has] + length[has] - 1]
    gain = row_gains(r, gains)
    discount = r.discounts()
    q = r.query
    place = np.minimum(r.rank, np.maximum(length[q] - 1, 0))
    at_ideal = np.where(length[q] > 0, ideal_dcg[np.minimum(start[q] + place, len(ideal_dcg) - 1)]
                        if len(ideal_dcg) else 0.0, 0.0)
    if r.ties is None:
        dcg_so_far = _running(r, gain / discount)
        numerator = np.where(gain > 0, dcg_so_far, 0.0)
    else:
        numerator = _expected_positive_times_dcg(r, gain, discount)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(at_ideal > 0, numerator / at_ideal, 0.0)
    summed = r.per_query(terms)
    final_dcg = r.per_query(r.expected(gain) / discount)
    found = r.per_query(gain > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rest = np.where(total_ideal > 0, (length - found) * final_dcg / total_ideal, 0.0)
    total = summed + rest
    return np.where((total > 0) & has, total / np.maximum(length, 1), 0.0)


def _expected_positive_times_dcg(r: RankedJudgments, gain, discount) -> np.ndarray:
    """Under ``ties="average"``: per row, :math:`E[1(g_i > 0) \\, \\mathrm{DCG@}i]` over the
    orders of the ties. With :math:`n` docs in the row's block, :math:`P` of them with a
    positive gain, :math:`S` their total gain and :math:`S_+` that of the positive ones:
    :math:`\\frac{P}{n} D + \\frac{S_+}{n d_i} + \\frac{PS - S_+}{n(n-1)} \\sum_{j<i} 1/d_j`,
    :math:`D` the expected DCG of the earlier blocks, the sum over the block's places above.
    """
    blocks = r.ties
    n = blocks.size[blocks.block].astype(np.float64)
    positive = gain > 0
    count = blocks.total(positive)
    total = blocks.total(gain)
    total_positive = blocks.total(np.where(positive, gain, 0.0))
    share = r.expected(gain) / discount
    start = blocks.start[blocks.block]
    dcg_before = (_running(r, share) - share)[start]
    above = _running(r, 1.0 / discount) - 1.0 / discount  # discounts above, in the query
    above = above - above[start]  # ... above, in the block
    pairs = np.divide(count * total - total_positive, n * (n - 1.0), out=np.zeros(len(r)),
                      where=n > 1)
    return count / n * dcg_before + total_positive / n / discount + pairs * above


def rndcg(r: RankedJudgments, k, *, gains=()) -> np.ndarray:
    """nDCG averaged at the "R levels" (trec_eval's Rndcg): DCG@b / IDCG@b at the ranks
    :math:`b` where the ideal ranking's gain changes (and where it ends, :math:`b = L`),
    plus DCG / IDCG of the whole ranking when it is longer than :math:`L + 1` (trec_eval's
    rule); 0 for a query with no relevant doc."""
    ideal = ideal_under(r, gains)
    start, length = _ideal_starts(ideal, r.n_queries)
    ideal_dcg = _running(ideal, ideal.gain / ideal.discounts())
    dcg_so_far = _running(r, r.expected(row_gains(r, gains)) / r.discounts())
    first_row = np.zeros(r.n_queries, np.int64)
    n_ret = np.zeros(r.n_queries, np.int64)
    first_row[r.query[r.starts]] = r.starts
    n_ret[r.query[r.starts]] = r.counts
    # Boundaries: ideal places b (1..L) where the gain changes, and b = L.
    changes = np.zeros(len(ideal), dtype=bool)
    if len(ideal):
        changes[1:] = (ideal.gain[1:] != ideal.gain[:-1]) & (ideal.query[1:] == ideal.query[:-1])
    b_query = np.r_[ideal.query[changes], np.flatnonzero(length > 0)]
    b_place = np.r_[ideal.rank[changes], length[length > 0]]
    order = np.lexsort((b_place, b_query))
    b_query, b_place = b_query[order], b_place[order]
    idcg_b = ideal_dcg[start[b_query] + b_place - 1]
    depth = np.minimum(b_place, n_ret[b_query])
    dcg_b = np.where(depth > 0, dcg_so_far[np.maximum(first_row[b_query] + depth - 1, 0)]
                     if len(dcg_so_far) else 0.0, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        points = np.where(idcg_b > 0, dcg_b / idcg_b, 0.0)
    total = np.bincount(b_query, weights=points, minlength=r.n_queries)
    count = np.bincount(b_query, weights=idcg_b > 0, minlength=r.n_queries)
    # trec_eval adds the end of the ranking as one more point only when the ranking goes
    # on past the rank after the ideal's end (its loop has consumed that rank already).
    longer = (n_ret > length + 1) & (length > 0)
    total_ideal = np.where(length > 0, ideal_dcg[np.maximum(start + length - 1, 0)]
                           if len(ideal_dcg) else 0.0, 0.0)
    final = np.where(n_ret > 0, dcg_so_far[np.maximum(first_row + n_ret - 1, 0)]
                     if len(dcg_so_far) else 0.0, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = total + np.where(longer, final / total_ideal, 0.0)
    count = count + longer
    values = r.divide(total, count)
    return np.where(r.num_relevant > 0, values, 0.0)


def g(r: RankedJudgments, k, *, gains=()) -> np.ndarray:
    """trec_eval's G: each gain :math:`g_i` over :math:`\\log_2(2 + C_i - S_i)`, where
    :math:`S_i` is the gain collected down to rank :math:`i` and :math:`C_i` the ideal's
    (each rank counting at least 1), summed and divided by the ideal's total gain.
    Under ``ties="average"``, a doc in a block of unequal gains takes its expected term
    (:func:`~ragmetrics.metrics.ties_counted.expected_g_terms`)."""
    ideal = ideal_under(r, gains)
    start, length = _ideal_starts(ideal, r.n_queries)
    q = r.query
    inside = r.rank < length[q]
    ideal_gain = np.zeros(len(r))
    if len(ideal):
        ideal_gain[inside] = ideal.gain[start[q[inside]] + r.rank[inside]]
    cost = _running(r, np.where(inside, np.maximum(ideal_gain, 1.0), 1.0))
    gain = row_gains(r, gains)
    collected = _running(r, gain)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(gain != 0, gain / np.log2(2 + cost - collected), 0.0)
    if r.ties is not None:  # the rows of blocks with unequal gains: their mean term
        in_doubt, expected = expected_g_terms(r, gain, cost, collected)
        terms[in_doubt] = expected
    return r.divide(r.per_query(terms), np.bincount(ideal.query, weights=ideal.gain,
                                                    minlength=r.n_queries))


#: 1 / log2(2 + m) summed over m < index: binG's discounts, for the means over ties.
def _discount_sums(longest: int) -> np.ndarray:
    return np.r_[0.0, np.cumsum(1.0 / np.log2(2.0 + np.arange(longest)))]


def bing(r: RankedJudgments, k) -> np.ndarray:
    """trec_eval's binG: each relevant doc scores 1 / log2(2 + the non-relevant docs
    above it); the sum over R. Under ``ties="average"`` a relevant doc has each place
    among its block's non-relevant docs with the same chance."""
    if r.ties is None:  # the relevant rows only: the others add 0
        rows = r.relevant_rows
        hits_before = r.running_at(rows, np.ones(len(rows), dtype=bool)) - 1
        above = r.rank[rows] - hits_before
        return r.divide(r.per_query_at(rows, 1.0 / np.log2(2.0 + above)), r.num_relevant)
    blocks = blocks_of(r)
    heads = blocks.start
    query = r.query[heads]
    relevant = np.bincount(blocks.block, weights=r.relevant, minlength=len(heads))
    others = blocks.size - relevant  # non-relevant docs of the block
    above = (r.rank[heads] - before_block(r, r.relevant)[heads]).astype(np.int64)
    exact = 1.0 / np.log2(2.0 + above)  # the block's relevant docs have nothing beside them
    if r.ties is not None and (others > 0).any():
        sums = _discount_sums(int((above + others).max()) + 1)
        spread = others.astype(np.int64)
        mean = (sums[above + spread + 1] - sums[above]) / (spread + 1)
        exact = np.where(spread > 0, mean, exact)
    terms = np.where(relevant > 0, relevant * exact, 0.0)
    return r.divide(np.bincount(query, weights=terms, minlength=r.n_queries), r.num_relevant)


def rbp(r: RankedJudgments, k, *, p: float = 0.9, gains=()) -> np.ndarray:
    """Rank-biased precision, :math:`(1 - p) \\sum_i g_i p^{i-1}`, gains scaled as
    trec_eval scales them: when some gain of the query's scale (its grades 0 up to its
    highest, and the gain map's) lies outside [0, 1], each becomes
    :math:`(g - \\min) / (\\max - \\min)`, with 0 counted in the scale."""
    gain = _rbp_gains(r, gains)
    weights = r.powers(p)[r.rank]
    return (1.0 - p) * r.per_query(r.expected(gain) * weights, k)


def _rbp_gains(r: RankedJudgments, gain_map) -> np.ndarray:
    """Each row's gain on its query's [0, 1] scale, as trec_eval's rbp makes it.

    The scale holds 0, every gain of the map, and the convention's gain of each whole
    grade from 0 up to the query's highest that the map leaves alone (and of each
    fractional grade judged, which trec_eval cannot have).
    """
    qrels, mapped = r.qrels, dict(gain_map)
    low = min([0.0, *mapped.values()])
    high = np.full(r.n_queries, max([0.0, *mapped.values()]))
    judged = qrels.grade >= 0
    top = qrels.max_per_query(np.where(judged, qrels.grade, -1.0), r.n_queries, initial=-1.0)
    level = np.floor(top)
    for key in sorted(mapped, reverse=True):  # the highest whole grade the map leaves alone
        level = np.where(level == key, level - 1, level)
    high = np.maximum(high, np.where(level >= 0, grade_gains(level, r.gain_rule), 0.0))
    free = judged & ~np.isin(qrels.grade, list(mapped))
    np.maximum.at(high, qrels.query[free], grade_gains(qrels.grade[free], r.gain_rule))
    gain = row_gains(r, gain_map)
    hi = high[r.query]
    rescale = (low < 0) | (hi > 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = (gain - low) / (hi - low)
    return np.where(r.judged & (r.grade >= 0), np.where(rescale, scaled, gain), 0.0)


def err(r: RankedJudgments, k, *, max_grade: float | None = None, chances=()) -> np.ndarray:
    """Expected reciprocal rank within ``k``: :math:`\\sum_{i \\le k} \\frac{R_i}{i}
    \\prod_{j<i}(1 - R_j)`, the chance :math:`R_i` that a user stops at the doc of rank
    :math:`i` being :math:`(2^{g_i} - 1)/2^{g_{\\max}}` for a grade :math:`g_i > 0` and 0
    otherwise. ``max_grade`` is :math:`g_{\\max}` (default: the highest grade judged,
    over all queries); ``chances`` (``((grade, chance), ...)``) gives grades their
    chance directly (a judged grade of 0 too)."""
    named = dict(chances)
    grade = np.maximum(r.grade, 0.0)
    if max_grade is None:
        judged_grades = r.qrels.grade if r.qrels is not None else r.grade
        max_grade = float(max(judged_grades.max(initial=0.0), 0.0))
    by_formula = (r.grade > 0) & ~np.isin(r.grade, list(named))
    if (grade[by_formula] > max_grade).any():
        worst = float(grade[by_formula].max())
        raise InputValueError(
            f"err: a grade of {worst:g} is above max_grade={max_grade:g}, so its stopping "
            "chance would pass 1; give a max_grade of at least the highest grade")
    # (2^g - 1) / 2^gmax, written so that no power overflows for large grades.
    chance = np.where(by_formula, np.exp2(grade - max_grade) - np.exp2(-max_grade), 0.0)
    for key, value in named.items():
        chance[(r.grade == key) & (r.judged if r.judged is not None else r.grade > 0)] = value
    going_on = _running_product(r, 1.0 - chance)
    if r.ties is not None:
        return r.per_query(_expected_err_terms(r, chance, going_on, k), k)
    reached = np.r_[1.0, going_on[:-1]] if len(going_on) else going_on
    reached = np.where(r.rank == 0, 1.0, reached)
    return r.per_query(chance * reached / (r.rank + 1.0), k)


def _expected_err_terms(r: RankedJudgments, chance, going_on, k) -> np.ndarray:
    r"""Under ``ties="average"``: each tie block's expected share of ERR, on its first row.

    The docs above a block reach it with the same chance in every order (a product over
    whole blocks). In a block of :math:`m` docs starting after rank :math:`p`, doc
    :math:`x` is at place :math:`t` with chance :math:`1/m`, and then the :math:`t - 1`
    docs above it in the block are a uniform choice among the others: they let the user
    on with chance :math:`A_{t-1}`, the mean of :math:`\prod (1 - R_y)` over the
    :math:`(t-1)`-subsets of the others (:func:`_subset_product_means`). So the block
    adds :math:`P \sum_x \frac{R_x}{m} \sum_{t} \frac{A_{t-1}(x)}{p + t}`, :math:`P`
    the chance of reaching it, over the places within the cut-off.
    """
    blocks = r.ties
    start, size = blocks.start, blocks.size
    first = r.rank[start]
    reach = np.where(first > 0, going_on[np.maximum(start - 1, 0)], 1.0)
    terms = np.zeros(len(chance))
    alone = size == 1
    terms[start[alone]] = chance[start[alone]] * reach[alone] / (first[alone] + 1.0)
    cut = None if k is None else np.broadcast_to(np.asarray(k), (r.n_queries,))
    for b in np.flatnonzero(~alone):
        p, m = int(first[b]), int(size[b])
        places = m if cut is None else min(m, int(cut[r.query[start[b]]]) - p)
        if places > 0:
            terms[start[b]] = reach[b] * _block_err(chance[start[b] : start[b] + m], p, places)
    return terms


def _block_err(chance: np.ndarray, p: int, places: int) -> float:
    r""":math:`\sum_x \frac{R_x}{m} \sum_{t \le places} \frac{A_{t-1}(x)}{p + t}` for
    a block of stopping chances ``chance`` after rank ``p`` (see
    :func:`_expected_err_terms`); docs of one chance are alike, so one sum per chance."""
    values, counts = np.unique(chance, return_counts=True)
    discounts = 1.0 / (p + np.arange(1.0, places + 1.0))
    total = 0.0
    for i, (value, count) in enumerate(zip(values, counts, strict=True)):
        if value == 0.0:
            continue
        others = counts.copy()
        others[i] -= 1  # the block without one doc of this chance
        means = _subset_product_means(1.0 - values, others, places)
        total += count * value * float(means @ discounts)
    return total / len(chance)


def _subset_product_means(w: np.ndarray, counts: np.ndarray, n_terms: int) -> np.ndarray:
    r""":math:`A_j`, :math:`j < n_{terms}`: the mean of :math:`\prod_{y \in S} w_y` over
    the :math:`j`-subsets :math:`S` of the multiset (``w[i]`` taken ``counts[i]``
    times). Each element added to a set of :math:`n - 1` makes
    :math:`A'_j = \frac{j}{n} w A_{j-1} + \frac{n - j}{n} A_j`: weights that add up to
    1, so no binomial grows and no sum cancels."""
    means = np.zeros(n_terms)
    means[0] = 1.0
    j = np.arange(n_terms, dtype=np.float64)
    n = 0
    for value, count in zip(w, counts, strict=True):
        for _ in range(int(count)):
            n += 1
            shifted = np.r_[0.0, means[:-1]]
            means = (j / n) * value * shifted + np.maximum(n - j, 0.0) / n * means
    return means


def _running_product(r: RankedJudgments, values: np.ndarray) -> np.ndarray:
    """For each row, the product of ``values`` over its query's rows up to it."""
    out = np.empty_like(values)
    if not len(values):
        return out
    for depth in range(int(r.counts.max())):
        at = r.starts[r.counts > depth] + depth
        out[at] = values[at] if depth == 0 else out[at - 1] * values[at]
    return out
