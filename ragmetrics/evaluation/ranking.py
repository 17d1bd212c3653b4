"""Which run rows the metrics read: each query's rows in rank order, down to a depth.

Metrics cut at k read only the top k rows of each query, so the engine ranks the run
and keeps those rows (plus any rows tied with the k-th, which a tie rule may move
above it) before it looks at a single doc id. Doc ids are where the time goes: ten
million of them are ten million scattered Python objects, while the scores are one
float array. Finding the queries' blocks costs one comparison of neighbouring query
ids when the run comes grouped by query (as runs almost always do), and checking
that each block is in rank order is one comparison of neighbouring scores.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..metrics.ranked import ranks_within
from . import fast_paths
from .objects import group_equal as _group_equal
from .objects import object_addresses as _addresses  # a name here: tests switch it off


@dataclass
class RankedRows:
    """The rows to read, grouped by query and in rank order.

    Ties keep the order the rows were given in (a tie rule reorders them later).
    """

    rows: np.ndarray  # positions in the run, int64
    block: np.ndarray  # block of each row, 0..B-1, non-decreasing
    score: np.ndarray  # score of each row
    heads: np.ndarray  # position in the run of one row of each block (its query id)


def rank_rows(query: pd.Series, score: np.ndarray, depth: int | None) -> RankedRows:
    """Rank the run: rows grouped by query, best score first, top ``depth`` of each.

    ``depth=None`` keeps every row. Rows tied with the last kept row of a query are
    kept too, so that any tie rule can still choose which of them ranks higher. Ties
    keep the order the rows were given in. :func:`rank_rows_plainly` defines the
    result; this takes shortcuts to it (:mod:`~ragmetrics.evaluation.fast_paths`).
    """
    n = len(score)
    if n == 0:
        empty = np.zeros(0, np.int64)
        return RankedRows(empty, empty, score[:0], empty)
    if not fast_paths.ENABLED:
        return rank_rows_plainly(query, score, depth)
    # Many changes of id mean interleaved queries: then finding and hashing the block
    # heads would cost as much as numbering every row, so go straight to that. A sample
    # of the first rows decides whether to look at all of them.
    sample = min(n, 10_000)
    grouped = np.count_nonzero(_id_changes(query.iloc[:sample])) <= sample // 4 + 1
    if grouped:
        new_block = _id_changes(query)
        heads = np.flatnonzero(new_block)
        grouped = len(heads) <= n // 4 + 1 and _all_distinct(query.take(heads))
    if grouped:
        # Grouped by query: blocks are the runs of equal neighbouring ids.
        sizes = np.diff(np.append(heads, n))
        if _scores_fall_within_blocks(score, new_block):  # ranked already: no sort at all
            return _cut(score, None, heads, sizes, heads, depth)
        if depth is not None:  # in model order (a score matrix, a reranker's output)
            rows = _top_of_blocks(score, sizes, depth)
            if rows is not None:
                codes = np.searchsorted(heads, rows, side="right") - 1
                return _ranked_candidates(score, rows, codes, depth)
        codes = np.cumsum(new_block) - 1
    else:
        codes = _query_codes(query)
        if depth is not None:  # rows in any order: grouped by one sort, then as above
            found = _top_of_scattered_blocks(codes, score, depth)
            if found is not None:
                return _ranked_candidates(score, *found, depth)
    rows = np.arange(n) if depth is None else _candidates(codes, score, depth)
    # Stable: tied rows keep the order they were given in (rows are in that order within
    # a query and a score).
    order = rows[_by_query_then_score(codes[rows], score[rows])]
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
    return _cut(score, order, starts, np.diff(np.append(starts, len(order))), order[starts],
                depth)


def _ranked_candidates(score: np.ndarray, rows: np.ndarray, codes: np.ndarray,
                       depth: int) -> RankedRows:
    """Rank the candidate ``rows`` (ascending, every block's top ``depth`` among them,
    with the rows tied with its last) of blocks ``codes`` (non-decreasing, every block
    present)."""
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    sizes = np.diff(np.append(starts, len(rows)))
    order = _by_block_then_score(score, rows, codes, sizes)
    if order is None:
        order = rows[_by_query_then_score(codes, score[rows])]
    return _cut(score, order, starts, sizes, order[starts], depth)


def _by_block_then_score(score: np.ndarray, rows: np.ndarray, codes: np.ndarray,
                         sizes: np.ndarray) -> np.ndarray | None:
    """``rows`` (ascending, grouped in blocks ``codes`` of ``sizes`` rows) sorted by block,
    then score descending, then row: a stable sort of each block as a row of a matrix
    (padded past a block's end with rows that sort last), a fraction of the time of one
    sort of them all when the blocks are short. None when padding would more than double
    the rows."""
    width = int(sizes.max()) if len(sizes) else 0
    if len(rows) < 1 << 16 or len(sizes) * width > 2 * len(rows):
        return None
    if (sizes == width).all():
        matrix = np.negative(score[rows]).reshape(len(sizes), width)
        place = np.argsort(matrix, axis=1, kind="stable")
        return np.take_along_axis(rows.reshape(len(sizes), width), place, axis=1).ravel()
    # Padding sorts after every score (-inf scores too: a stable sort keeps it after them).
    matrix = np.full((len(sizes), width), np.inf)
    at = ranks_within(sizes)
    matrix[codes, at] = np.negative(score[rows])
    padded_rows = np.full((len(sizes), width), -1, np.int64)
    padded_rows[codes, at] = rows
    place = np.argsort(matrix, axis=1, kind="stable")
    order = np.take_along_axis(padded_rows, place, axis=1).ravel()
    return order[order >= 0]


def _top_of_scattered_blocks(codes: np.ndarray, score: np.ndarray, depth: int):
    """``(rows, codes)`` of the rows that may rank in their query's top ``depth`` when
    a query's rows lie anywhere (``codes``: 0, 1, ... by first appearance): the rows are
    grouped by one packed int64 sort of (code, row), which NumPy does with SIMD, and
    each block's top rows found as in :func:`_top_of_blocks`; by code, then row. None
    when the key does not fit or :func:`_top_of_blocks` declines."""
    n = len(codes)
    row_bits = max(int(n - 1).bit_length(), 1)
    if int(codes.max()).bit_length() + row_bits > 63:
        return None
    packed = np.left_shift(codes, row_bits, dtype=np.int64)
    packed |= np.arange(n, dtype=np.int64)
    packed.sort()
    sizes = np.bincount(codes)
    order = packed & ((1 << row_bits) - 1)
    del packed
    at = _top_of_blocks(score[order], sizes, depth)
    if at is None:
        return None
    return order[at], np.searchsorted(np.cumsum(sizes), at, side="right")


def _top_of_blocks(score: np.ndarray, sizes: np.ndarray, depth: int) -> np.ndarray | None:
    """The rows, ascending, that may rank in their block's top ``depth`` (blocks of
    ``sizes`` rows, one after another, in no order within a block): every row that scores
    at least its block's ``depth``-th highest score, found without sorting a block.

    The blocks are laid out as the rows of a matrix (a view when they are all as long,
    else padded with -inf up to the longest), and one :func:`numpy.partition` along its
    rows finds each block's ``depth``-th highest score in linear time. Every row that
    scores that much is kept, so the rows tied with the ``depth``-th are among them, and
    an exact sort of these few rows ranks them. None when padding would take more than
    twice the rows' memory, or when no block is longer than ``depth``.
    """
    n, longest = len(score), int(sizes.max())
    if longest <= depth or len(sizes) * longest > 2 * n:
        return None
    if (sizes == longest).all():
        matrix = score.reshape(len(sizes), longest)
    else:
        matrix = np.full((len(sizes), longest), -np.inf)
        matrix[np.repeat(np.arange(len(sizes)), sizes), ranks_within(sizes)] = score
    kth = np.partition(matrix, longest - depth, axis=1)[:, longest - depth]
    if (sizes == longest).all():
        return np.flatnonzero(matrix >= kth[:, None])
    return np.flatnonzero(score >= np.repeat(kth, sizes))


def _by_query_then_score(codes: np.ndarray, score: np.ndarray) -> np.ndarray:
    """``np.lexsort((-score, codes))``: by query, then score descending, then position.

    By one sort of packed int64 keys (query, place of the score among the distinct
    scores, position) when they fit, which NumPy does with SIMD: a fourth of the time
    of the lexsort at ten million rows. Equal scores (-0.0 and 0.0 too) share a place.
    """
    n = len(codes)
    if n < 1 << 16:
        return np.lexsort((-score, codes))
    distinct, place = np.unique(-score, return_inverse=True)
    row_bits = max(int(n - 1).bit_length(), 1)
    score_bits = max(int(len(distinct) - 1).bit_length(), 1)
    code_bits = max(int(codes.max()).bit_length(), 1)
    if code_bits + score_bits + row_bits > 63:
        return np.lexsort((-score, codes))
    key = np.left_shift(codes, score_bits + row_bits, dtype=np.int64)
    key |= np.left_shift(place.reshape(-1), row_bits, dtype=np.int64)
    del place
    key |= np.arange(n, dtype=np.int64)
    key.sort()
    key &= (1 << row_bits) - 1  # the keys become the positions they came from
    return key


def rank_rows_plainly(query: pd.Series, score: np.ndarray, depth: int | None) -> RankedRows:
    """The definition of :func:`rank_rows`, with no shortcut.

    Queries are numbered in order of first appearance (missing ids share one number,
    after the others); every row is sorted by (query, score descending), stably; each
    query keeps its top ``depth`` rows and the rows tied with the last of them.
    """
    codes, _ = pd.factorize(query)
    codes = codes.astype(np.int64)
    codes[codes < 0] = codes.max(initial=-1) + 1
    order = np.lexsort((-score, codes))
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
    return _cut(score, order, starts, np.diff(np.append(starts, len(order))), order[starts],
                depth)


def _cut(score, order, starts, sizes, heads, depth) -> RankedRows:
    """Keep the top ``depth`` rows of each block (ties included) of a ranked order.

    ``order`` lists run positions in rank order (None: the run's own order), blocks
    starting at ``starts`` with ``sizes`` rows; ``heads`` has a run position per block.
    """
    ranked_score = score if order is None else score[order]
    taken = sizes
    if depth is not None:
        taken = np.minimum(sizes, depth) + _ties_below(ranked_score, starts, sizes, depth)
    block = np.repeat(np.arange(len(heads)), taken)
    if (taken == sizes).all():  # nothing cut: the rows are the order itself
        if order is None:  # the run's order; a copy of the scores, which the engine
            return RankedRows(np.arange(len(score)), block, score.copy(), heads)  # moves
        return RankedRows(order, block, ranked_score, heads)
    positions = np.repeat(starts, taken) + ranks_within(taken)
    rows = positions if order is None else order[positions]
    return RankedRows(rows, block, ranked_score[positions], heads)


def _candidates(codes: np.ndarray, score: np.ndarray, depth: int) -> np.ndarray:
    """Rows that may rank in their query's top ``depth``, found without a full sort.

    Scores are first put into up to 2**16 bins (a bin never holds a higher score than the
    next one), and one packed int64 sort (query, bin descending, row) ranks the rows by
    bin, which NumPy does with SIMD in a fraction of the time of an argsort. A query's
    top ``depth`` rows by score are among its rows whose bin is at least the bin of its
    ``depth``-th row: those are returned (in row order within a query and a bin), for
    the exact sort to rank.
    """
    n = len(score)
    row_bits = max(int(n - 1).bit_length(), 1)
    code_bits = max(int(codes.max()).bit_length(), 1)
    bin_bits = min(16, 63 - row_bits - code_bits)
    packed = _bins(score, bin_bits)
    if packed is None:
        return np.arange(n)
    # In place, one int64 array at a time: ten million rows are 80 MB an array.
    packed <<= row_bits
    packed |= np.arange(n, dtype=np.int64)
    packed |= codes.astype(np.int64) << (bin_bits + row_bits)
    packed.sort()
    group_codes = packed >> (bin_bits + row_bits)
    starts = np.flatnonzero(np.r_[True, group_codes[1:] != group_codes[:-1]])
    sizes = np.diff(np.append(starts, n))
    deep = np.flatnonzero(sizes > depth)
    # End of each deep query's candidates: the first packed key past its boundary bin.
    boundary = packed[starts[deep] + depth - 1] >> row_bits
    ends = starts + sizes
    ends[deep] = np.searchsorted(packed, (boundary + 1) << row_bits)
    taken = ends - starts
    positions = np.repeat(starts, taken) + ranks_within(taken)
    return packed[positions] & ((1 << row_bits) - 1)


def _bins(score: np.ndarray, bits: int) -> np.ndarray | None:
    """Bin numbers, highest scores in bin 0, as a non-increasing function of the score.

    Equal widths between the lowest score and the 2**-bits upper quantile (higher scores
    share bin 0): floor((score - low) * scale) is non-decreasing in the score however
    floats round. None when there is no room for bins or no finite scale.
    """
    if bits < 1:
        return None
    n, n_bins = len(score), 1 << bits
    low = score.min()
    high_rank = max(n - 1 - (n >> bits), 0)
    high = np.partition(score, high_rank)[high_rank]
    with np.errstate(over="ignore", invalid="ignore"):
        span = high - low
        if not (np.isfinite(low) and np.isfinite(span) and span > 0):
            return None  # infinite scores, a span beyond float range, or (nearly) one score
        scale = (n_bins - 1) / span
        if not np.isfinite(scale):
            return None  # a span so small (subnormal) that the scale overflows
        # Scores above `high` may overflow to inf here: clipped to the top bin below.
        position = np.floor((score - low) * scale)
    np.clip(position, 0, n_bins - 1, out=position)
    np.subtract(n_bins - 1, position, out=position)
    return position.astype(np.int64)


def _id_changes(query: pd.Series) -> np.ndarray:
    """True where a row's query id differs from the previous row's (and at row 0)."""
    changed = np.ones(len(query), dtype=bool)
    if _is_arrow_backed(query.dtype):
        import pyarrow as pa  # present: the column is stored in Arrow
        import pyarrow.compute as pc

        ids = pa.chunked_array(pa.array(query.array))
        differs = pc.not_equal(ids[1:], ids[:-1])
        # A null compares as null; nulls are reported as missing ids later, so any
        # value works here: count it as a change.
        changed[1:] = differs.fill_null(True).to_numpy(zero_copy_only=False)
    else:
        values = query.to_numpy()
        addresses = _addresses(values)
        if addresses is None:
            changed[1:] = values[1:] != values[:-1]
        else:  # the same object twice is the same id: compare values only where not
            maybe = np.flatnonzero(addresses[1:] != addresses[:-1])
            if len(maybe) > len(values) // 8:
                # Ids made one object per row (df["q"].map("q{}".format)): compare the
                # neighbours through views. Taking them into new arrays first would count
                # a reference on every object, twice: several times the comparison.
                changed[1:] = values[1:] != values[:-1]
            else:
                changed[1:] = False
                changed[maybe + 1] = values[maybe + 1] != values[maybe]
    return changed


def _query_codes(query: pd.Series) -> np.ndarray:
    """A code per row, equal for equal ids, in order of first appearance (missing ids
    share one code, after the others).

    Object ids are numbered first by the object they point to (a packed sort of
    addresses, no object touched), then the distinct objects by value (pandas, on a
    few rows), which merges separate objects holding equal ids. Hashing every row's id
    instead costs seconds at ten million rows.
    """
    values = query.to_numpy() if query.dtype == object else None
    addresses = None if values is None else _addresses(values)
    if addresses is None:
        codes, _ = pd.factorize(query)
    else:
        by_object, first_rows = _group_equal(addresses)
        # Number the values in order of first appearance, as pd.factorize would.
        appearance = np.argsort(first_rows)
        value_of_object = np.empty(len(first_rows), np.int64)
        value_of_object[appearance] = pd.factorize(values[first_rows[appearance]])[0]
        codes = value_of_object[by_object]
    codes[codes < 0] = codes.max() + 1  # missing ids: one block, reported as missing
    return codes


def _is_arrow_backed(dtype) -> bool:
    return getattr(dtype, "storage", None) == "pyarrow" or isinstance(dtype, pd.ArrowDtype)


def _all_distinct(ids: pd.Series) -> bool:
    return not ids.duplicated().any()


def _scores_fall_within_blocks(score: np.ndarray, new_block: np.ndarray) -> bool:
    """True if no score rises from one row to the next within a block."""
    rises = score[1:] > score[:-1]
    return not (rises & ~new_block[1:]).any()


def _ties_below(ranked_score, starts, sizes, depth: int) -> np.ndarray:
    """For each block, how many rows below ``depth`` tie with the row at ``depth``."""
    extra = np.zeros(len(starts), np.int64)
    active = np.flatnonzero(sizes > depth)
    boundary = ranked_score[starts[active] + depth - 1]
    offset = depth
    while len(active):
        inside = sizes[active] > offset
        active, boundary = active[inside], boundary[inside]
        tied = ranked_score[starts[active] + offset] == boundary
        active, boundary = active[tied], boundary[tied]
        extra[active] += 1
        offset += 1
    return extra


def groups(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, lengths) of the runs of equal codes in ``codes`` (rows grouped already)."""
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if len(codes) else codes
    return starts, np.diff(np.r_[starts, len(codes)]).astype(np.int64)
