"""Each row of a score matrix ranked, in trec_eval's exact order, on the matrix's device.

A query's ranking is its docs by score descending, tied scores by a **tie key**: an
integer per doc, smaller first (:func:`tie_keys` makes it from the doc ids and the tie
rule: under trec_eval's rule, the place of the doc id in descending text order). Three
steps, each written against the array API standard so that NumPy, PyTorch, CuPy and JAX
arrays are ranked where they live:

- :func:`top_columns`: the columns of each row's top ``D`` docs, in rank order. Where the
  library has a partial sort (``numpy.argpartition``, ``torch.topk``,
  ``jax.lax.top_k``), the top ``D + 1`` scores are found without sorting the row; a row
  whose ``D``-th and ``D + 1``-th scores tie (the cut goes through a tie, which the tie
  key settles) is sorted whole, the others only among their ``D`` docs. Elsewhere
  every row is sorted: by the tie key, then stably by score.
- :func:`first_relevant_rank`: the rank of each row's first relevant doc, counted, not
  sorted: the docs that score above it, and those tied with it that the key puts first.
- :func:`top_values`: each row's largest values, sorted (the ideal gains).

The order is total: two docs of one row never share a tie key (repeated doc ids are
refused before), so the result does not depend on how a library breaks ties.
"""

from __future__ import annotations

import numpy as np

__all__ = ["first_relevant_rank", "gather", "tie_keys", "top_columns", "top_values"]


def tie_keys(doc_ids, n_docs: int, ties: str) -> np.ndarray:
    """The tie key of each doc (NumPy, int64, smaller ranks first), shape ``(n_docs,)``
    for one list of ids shared by every row (or none), ``(n_queries, n_docs)`` for ids
    per row.

    ``doc_ids`` None: the id of column ``j`` is the number ``j``, so trec_eval's rule
    (doc id descending) puts the later column first, and ``"doc_id_ascending"`` and
    ``"input_order"`` the earlier. Otherwise ids are compared as text, as trec_eval
    compares them (int ids too), descending under ``"trec_eval"``, ascending under
    ``"doc_id_ascending"``; ``"input_order"`` keeps the column order.

    Examples
    --------
    >>> tie_keys(None, 3, "trec_eval").tolist(), tie_keys(None, 3, "input_order").tolist()
    ([2, 1, 0], [0, 1, 2])
    >>> tie_keys(np.array([9, 10, 2]), 3, "trec_eval").tolist()  # "9" > "2" > "10"
    [0, 2, 1]
    """
    columns = np.arange(n_docs, dtype=np.int64)
    if doc_ids is None or ties == "input_order":
        if ties == "trec_eval" and doc_ids is None:
            return columns[::-1].copy()
        shape = (n_docs,) if doc_ids is None or np.ndim(doc_ids) == 1 else np.shape(doc_ids)
        return np.broadcast_to(columns, shape).copy()
    ids = np.asarray(doc_ids)
    distinct, inverse = np.unique(ids.ravel(), return_inverse=True)
    text_order = np.argsort(distinct.astype(str), kind="stable")
    place = np.empty(len(distinct), np.int64)
    place[text_order] = np.arange(len(distinct))
    if ties == "trec_eval":
        place = len(distinct) - 1 - place
    return place[inverse].reshape(ids.shape)


def gather(xp, x, index):
    """``x[i, index[i, j]]`` for a 2-D ``x`` and ``index`` with as many rows (or ``x`` of
    one row, shared)."""
    rows, width = int(index.shape[0]), int(x.shape[1])
    flat = xp.reshape(x, (-1,))
    index = xp.astype(index, xp.int64)
    if int(x.shape[0]) == 1 and rows != 1:
        return xp.reshape(xp.take(flat, xp.reshape(index, (-1,))), index.shape)
    offsets = xp.arange(rows, dtype=xp.int64, device=_device(index))[:, None] * width
    return xp.reshape(xp.take(flat, xp.reshape(index + offsets, (-1,))), index.shape)


def _device(x):
    from array_api_compat import device

    return device(x)


def _sort_rows(xp, scores, keys):
    """The columns of every row in rank order: by key, then stably by score descending."""
    if int(keys.shape[0]) == 1:  # one key row: one permutation of the columns
        permutation = xp.argsort(keys[0, :], stable=True)
        by_key = xp.take(scores, permutation, axis=1)
        order = xp.argsort(-by_key, axis=1, stable=True)
        return xp.reshape(xp.take(permutation, xp.reshape(order, (-1,))), order.shape)
    permutation = xp.argsort(keys, axis=1, stable=True)
    order = xp.argsort(-gather(xp, scores, permutation), axis=1, stable=True)
    return gather(xp, permutation, order)


def _order_within(xp, scores, keys, columns):
    """``columns`` (the set of each row's top docs) put in rank order."""
    by_key = gather(xp, columns, xp.argsort(gather(xp, keys, columns), axis=1, stable=True))
    order = xp.argsort(-gather(xp, scores, by_key), axis=1, stable=True)
    return gather(xp, by_key, order)


def _partial_top(xp, scores, depth: int):
    """(columns of each row's ``depth`` largest scores, in any order; whether the cut
    splits tied scores in each row), or None where the library has no partial sort.
    Which of the tied scores at a split cut come in is arbitrary: those rows are sorted
    whole."""
    from array_api_compat import (
        is_cupy_namespace,
        is_jax_namespace,
        is_numpy_namespace,
        is_torch_namespace,
    )

    n_docs = int(scores.shape[1])
    if is_numpy_namespace(xp) or is_cupy_namespace(xp):
        library = np if is_numpy_namespace(xp) else __import__("cupy")
        top = library.argpartition(scores, n_docs - depth, axis=1)[:, n_docs - depth:]
        last_in = library.take_along_axis(scores, top, axis=1).min(axis=1)
        # Docs scoring at least the last one in: more than depth when the cut splits a tie.
        at_least = library.count_nonzero(scores >= last_in[:, None], axis=1)
        return top, at_least > depth
    if is_torch_namespace(xp):
        import torch

        values, index = torch.topk(scores, depth + 1, dim=1, largest=True, sorted=True)
        return index[:, :depth], values[:, depth - 1] == values[:, depth]
    if is_jax_namespace(xp):
        import jax

        values, index = jax.lax.top_k(scores, depth + 1)
        return index[:, :depth], values[:, depth - 1] == values[:, depth]
    return None


def top_columns(xp, scores, keys, depth: int):
    """The columns of each row's top ``depth`` docs in rank order: score descending,
    then tie key ascending (``keys``: one row shared, or one per row).

    Examples
    --------
    >>> import array_api_compat.numpy as xnp
    >>> scores = np.array([[0.5, 0.9, 0.5, 0.1], [0.2, 0.2, 0.2, 0.3]])
    >>> top_columns(xnp, scores, np.array([[3, 2, 1, 0]]), 2).tolist()
    [[1, 2], [3, 2]]
    """
    n_docs = int(scores.shape[1])
    depth = min(depth, n_docs)
    if depth == n_docs:
        return _sort_rows(xp, scores, keys)
    partial = _partial_top(xp, scores, depth)
    if partial is None:
        return _sort_rows(xp, scores, keys)[:, :depth]
    top, split = partial
    top = _order_within(xp, scores, keys, top)
    if not bool(xp.any(split)):
        return top
    rows = xp.nonzero(split)[0]
    row_keys = keys if int(keys.shape[0]) == 1 else xp.take(keys, rows, axis=0)
    whole = _sort_rows(xp, xp.take(scores, rows, axis=0), row_keys)[:, :depth]
    n = int(scores.shape[0])
    count = xp.cumulative_sum(xp.astype(split, xp.int64))
    source = xp.where(split, n + count - 1, xp.arange(n, dtype=xp.int64, device=_device(top)))
    return xp.take(xp.concat([xp.astype(top, xp.int64), xp.astype(whole, xp.int64)], axis=0),
                   source, axis=0)


def first_relevant_rank(xp, scores, keys, relevant, columns=None):
    """The 0-based rank of each row's first relevant doc in its whole ranking; -1 if the
    row has none. Counted in one pass: the docs scoring above the best-ranked relevant
    doc, plus those tied with it that the tie key puts first; no sort.

    ``relevant`` is a bool per cell; or, with ``columns`` (the relevant columns of each
    row, padded), a bool per entry of ``columns`` saying which are real: few relevant
    docs are then read from the table rather than the whole matrix.

    Examples
    --------
    >>> import array_api_compat.numpy as xnp
    >>> scores = np.array([[0.5, 0.9, 0.5, 0.1], [0.2, 0.2, 0.2, 0.3]])
    >>> relevant = np.array([[True, False, False, False], [False, False, False, False]])
    >>> first_relevant_rank(xnp, scores, np.array([[3, 2, 1, 0]]), relevant).tolist()
    [2, -1]
    """
    low = -xp.inf
    big = int(np.iinfo(np.int64).max)
    if columns is None:
        values, value_keys = scores, keys
    else:
        values = gather(xp, scores, columns)
        value_keys = gather(xp, keys, columns)
    best = xp.max(xp.where(relevant, values, low), axis=1)[:, None]
    at_best = relevant & (values == best)
    best_key = xp.min(xp.where(at_best, value_keys, big), axis=1)[:, None]
    above = (scores > best) | ((scores == best) & (keys < best_key))
    rank = _count(xp, above)
    return xp.where(xp.any(relevant, axis=1), rank, -1)


def _count(xp, mask):
    from array_api_compat import is_numpy_namespace

    if is_numpy_namespace(xp):
        return np.count_nonzero(mask, axis=1).astype(np.int64)
    return xp.sum(xp.astype(mask, xp.int64), axis=1)


def top_values(xp, values, depth: int):
    """Each row's ``depth`` largest values, largest first (fewer columns if the row is
    shorter)."""
    n_docs = int(values.shape[1])
    depth = min(depth, n_docs)
    if depth == 0:
        return values[:, :0]
    from array_api_compat import is_numpy_namespace, is_torch_namespace

    if depth < n_docs and is_numpy_namespace(xp):
        part = np.partition(values, n_docs - depth, axis=1)[:, n_docs - depth:]
        return -np.sort(-part, axis=1)
    if depth < n_docs and is_torch_namespace(xp):
        import torch

        return torch.topk(values, depth, dim=1, largest=True, sorted=True).values
    return xp.flip(xp.sort(values, axis=1), axis=1)[:, :depth]
