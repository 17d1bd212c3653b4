"""Score matrices, on any array library: :func:`evaluate_scores`.

A retriever in training scores every candidate of every query at once: an
``[n_queries, n_docs]`` matrix, on the device the model runs on. :func:`evaluate_scores`
evaluates that matrix as :func:`ragmetrics.evaluate` evaluates the same scores written
as a run (one row per query and doc): the same metrics, the same conventions, trec_eval's
order for tied scores, the same :class:`~ragmetrics.evaluation.result.Evaluation`. The
matrix is ranked where it lives (:mod:`~ragmetrics.evaluation.matrix_ranking`, written
against the Python array API, so NumPy, PyTorch, CuPy and JAX arrays stay on their
device), the common metrics computed there too (:mod:`ragmetrics.metrics.matrix_kernels`),
and only the per-query values come back to the host; the other metrics of the table read
the sorted grades of the top docs on the host, by their own kernels. Queries are taken a
block at a time (``chunk_size``), which bounds the memory.

``tests/unit/evaluation/test_evaluate_scores.py`` checks every value against
:func:`ragmetrics.evaluate` on the same data written as a run.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Unpack

import numpy as np
import pandas as pd

from ..conventions import ConventionKeywords, Conventions, accepts_conventions
from ..errors import InputTypeError, InputValueError
from ..metrics import matrix_kernels
from ..metrics.gains import grade_gains
from ..metrics.ranked import RankedJudgments, ranks_within
from ..metrics.registry import MetricSpec, parse_metrics
from ..metrics.scoring import settle
from ..presets import PRESETS, settle_conventions
from ..validation import check_total_gain
from .arrow_inputs import as_frame
from .engine import ideal_rankings, judge_queries, natural_order, read_depth
from .inputs import check_same_kinds, qrels_columns
from .matrix_ranking import first_relevant_rank, gather, tie_keys, top_columns, top_values
from .result import (
    Evaluation,
    summarize,
    warn_coverage,
    warn_empty_relevant,
    warn_nothing_retrieved,
)

__all__ = ["CELLS_PER_CHUNK", "MATRIX_CONVENTIONS", "evaluate_scores"]

#: Score cells ranked at a time when ``chunk_size`` is None: the queries of a block are
#: as many as make about this many cells (a few arrays of this size are alive at once).
CELLS_PER_CHUNK = 1 << 22

#: The conventions a score matrix can take other values of, and those values: the others
#: stay at their defaults (a matrix has no ranks, no repeated docs, no unjudged docs told
#: apart from judged ones), and a value outside these is refused by name.
MATRIX_CONVENTIONS = {
    "ties": ("trec_eval", "doc_id_ascending", "input_order"),
    "duplicates": ("error",),
    "unjudged": ("nonrelevant",),
    "order_by": ("score",),
    "query_id_docs": ("keep",),
    "ideal_order": ("sorted",),
}


@accepts_conventions
def evaluate_scores(
    scores,
    relevance,
    metrics=("recall@10", "precision@10", "mrr", "ndcg@10"),
    *,
    doc_ids=None,
    query_ids=None,
    chunk_size: int | None = None,
    preset: str | None = None,
    **conventions: Unpack[ConventionKeywords],
) -> Evaluation:
    """Evaluate a score matrix, ``[n_queries, n_docs]``, on the array library it is in.

    Row ``i`` holds query ``i``'s score for each of ``n_docs`` docs: its candidates, or a
    whole corpus. The result is the :class:`~ragmetrics.evaluation.result.Evaluation`
    that :func:`ragmetrics.evaluate` gives for the same scores written as a run (a row
    per query and doc): each query's docs ranked by score descending, tied scores in
    trec_eval's order (doc id descending, the ids compared as text), through the
    precomputed order of the ids. The matrix stays where it is (NumPy, PyTorch, CuPy,
    JAX, or any library of the Python array API standard): it is ranked there, the
    common metrics are computed there, and only the per-query values come back to the
    host. Only the cut-offs asked for are sorted (a partial sort where the library has
    one: ``argpartition``, ``topk``); MRR needs no sort at all.

    Parameters
    ----------
    scores : array, shape (n_queries, n_docs)
        Real numbers (floats, or ints up to 2**53); NaN is refused, naming the query.
    relevance : array or qrels
        Each doc's grade, an array of the same shape (bools, ints or floats: a doc is
        relevant when its grade reaches ``relevance_level``); or judgments as
        :func:`ragmetrics.evaluate` takes them (``{query_id: {doc_id: grade}}``,
        ``{query_id: set of relevant ids}`` or a frame), with ``doc_ids``. Judged docs that
        are not among a query's columns count as relevant docs missed (recall's R, the
        ideal DCG), as they do in ``evaluate``.
    metrics : sequence of str
        Names as in :func:`ragmetrics.evaluate`. ``recall``, ``precision``,
        ``hit_rate``, ``relative_precision``, ``rr``, ``dcg``, ``idcg``, ``ndcg``,
        ``ap``, ``gm_map``, ``r_precision``, ``rprec_mult``, ``num_rel`` and ``num_q``
        are computed on the matrix's device; every other metric of
        :data:`ragmetrics.METRICS` that reads grades only runs on the host, from the
        sorted grades of the top docs. Metrics that tell judged docs from unjudged ones
        (bpref, infAP, unj, judged, RBP, relstring, a gain map) and text are refused: a
        matrix judges every cell.
    doc_ids : sequence, optional
        The doc id of each column, ``(n_docs,)``, or of each cell, ``(n_queries,
        n_docs)`` (candidates per query); str or int, distinct within a query. They set
        the order of tied scores and, with qrels, which cell each judgment grades.
        None: column ``j``'s id is the number ``j``, so under trec_eval's rule (id
        descending) a tie goes to the **later column**, as trec_eval orders zero-padded
        ids (``d0998`` before ``d0997``); under ``ties="doc_id_ascending"`` or
        ``"input_order"`` to the earlier one. (Int ids passed as ``doc_ids`` are compared
        as text, as trec_eval compares them: ``9`` before ``10`` when descending.)
    query_ids : sequence, optional
        The id of each row (str or int, distinct): the index of ``per_query``; with qrels,
        which judgments are each row's. None: ``0, 1, ..., n_queries - 1``.
    chunk_size : int, optional
        Queries ranked at a time. None: as many as make about
        :data:`CELLS_PER_CHUNK` cells. Memory is a few arrays of ``chunk_size x n_docs``.
{conventions}
        ``ties`` may be ``"trec_eval"``, ``"doc_id_ascending"`` or ``"input_order"``
        (the column order); ``duplicates``, ``unjudged``, ``order_by``,
        ``query_id_docs`` and ``ideal_order`` keep their defaults (a matrix has no
        ranks, repeats or unjudged cells): another value is refused by name.
    preset : str, optional
        Another tool's rules (:data:`ragmetrics.presets.PRESETS`), as in ``evaluate``;
        the conventions it sets must be among those above.

    Returns
    -------
    Evaluation
        As :func:`ragmetrics.evaluate` returns it: ``per_query`` (one row per judged
        query, in the natural order of the ids), ``summary``, the conventions, and the
        queries missing from one side or with no relevant doc, with the same warnings.

    Raises
    ------
    InputValueError
        A matrix not 2-D, shapes that differ, a NaN score or grade (naming the query
        and the column), repeated doc ids, a convention or metric a matrix cannot take.
    InputTypeError
        Scores or grades that are not real numbers, qrels without ``doc_ids``.

    See Also
    --------
    ragmetrics.evaluate : the same evaluation of a run written as rows.

    Examples
    --------
    Three queries scoring four docs; a grade per cell says which docs are relevant:

    >>> import numpy as np
    >>> scores = np.array([[0.9, 0.1, 0.5, 0.3],
    ...                    [0.2, 0.8, 0.8, 0.1],
    ...                    [0.4, 0.3, 0.2, 0.1]])
    >>> relevance = np.array([[0, 0, 1, 0],
    ...                       [1, 0, 1, 0],
    ...                       [0, 0, 0, 2]])
    >>> result = evaluate_scores(scores, relevance, ["recall@2", "mrr", "ndcg@3"])
    >>> result.per_query.round(4)  # doctest: +NORMALIZE_WHITESPACE
              recall@2   mrr  ndcg@3
    query_id
    0              1.0  0.50  0.6309
    1              0.5  1.00  0.9197
    2              0.0  0.25  0.0000

    Query 1's docs 1 and 2 tie at 0.8. Without ``doc_ids`` the id of a column is its
    number, and trec_eval's rule (id descending) ranks the later column first: the
    relevant doc 2 is at rank 1. Ranked in the column order instead, it comes second:

    >>> evaluate_scores(scores, relevance, ["mrr"], ties="input_order").per_query["mrr"].tolist()
    [0.5, 0.5, 0.25]

    Qrels with the ids of the columns (a judged doc outside them still counts in R):

    >>> evaluate_scores(scores[:1], {"q1": {"a": 1, "z": 1}}, ["recall@2"],
    ...                 doc_ids=["a", "b", "c", "d"], query_ids=["q1"]).summary
    recall@2    0.5
    dtype: float64

    A PyTorch tensor on a GPU is ranked there (``evaluate_scores(model_scores, labels)``),
    with the same values.
    """
    settled = settle_conventions("evaluate_scores", preset, conventions)
    if preset is not None and PRESETS[preset].variants:
        raise InputValueError(
            f"preset {preset!r} scores some metrics under other conventions than the rest; "
            "evaluate_scores takes one set of conventions: use ragmetrics.evaluate on the "
            "scores written as a run")
    _check_conventions(settled)
    names = [metrics] if isinstance(metrics, (str, MetricSpec)) else list(metrics)
    names = [str(name) if isinstance(name, MetricSpec) else name for name in names]
    specs = parse_metrics(names)
    _check_metrics(specs, names)
    xp, scores = _score_matrix(scores, settled)
    n_queries, n_docs = (int(size) for size in scores.shape)
    ids, query_kind = _query_ids(query_ids, n_queries)
    doc_ids = _doc_ids(doc_ids, n_queries, n_docs)
    if isinstance(relevance, Mapping) or _is_frame(relevance):
        judged = _from_qrels(xp, scores, relevance, doc_ids, ids, query_kind, settled, specs)
    else:
        judged = _from_grades(xp, scores, relevance, ids, query_kind, settled, specs)
    keys = xp.asarray(np.atleast_2d(tie_keys(
        None if doc_ids is None else doc_ids.values, n_docs, settled.ties)),
                      device=_device(scores))
    result, relevant_read = _evaluate(xp, scores, keys, judged, specs, names, settled,
                                      chunk_size)
    if preset is not None:
        result = dataclasses.replace(result, preset=preset)
    warn_coverage(result)
    warn_empty_relevant(result, len(judged.ids), judged.max_grade)
    answered = judged.in_run & (judged.num_relevant > 0)
    if answered.any() and not relevant_read:
        warn_nothing_retrieved(int(answered.sum()), judged.depth, stacklevel=3)
    return result


# -- inputs ----------------------------------------------------------------------------


def _check_conventions(conventions: Conventions) -> None:
    for keyword, allowed in MATRIX_CONVENTIONS.items():
        value = getattr(conventions, keyword)
        if value not in allowed:
            raise InputValueError(
                f"evaluate_scores takes {keyword}=" + " or ".join(map(repr, allowed))
                + f", not {value!r}: a score matrix has no such case to rule on; write the "
                "scores as a run (query_id, doc_id, score) for ragmetrics.evaluate")


def _check_metrics(specs: list[MetricSpec], names: list) -> None:
    for name, spec in zip(names, specs, strict=True):
        info = spec.info
        if info.family != "ids":
            raise InputValueError(
                f"{name!r} is not a metric of ranked ids; evaluate_scores takes the metrics "
                "of ragmetrics.METRICS")
        if "judged" in spec.needs or info.kind == "text":
            raise InputValueError(
                f"evaluate_scores cannot compute {name!r}: it tells judged docs from "
                "unjudged ones (or is text), and a grade matrix judges every cell; use "
                "ragmetrics.evaluate with qrels that list the judged docs")


def _is_frame(value) -> bool:
    return isinstance(value, pd.DataFrame) or type(value).__module__.split(".")[0] in (
        "pyarrow", "polars")


def _namespace(array):
    import array_api_compat

    if array_api_compat.is_array_api_obj(array):
        return array_api_compat.array_namespace(array), array
    return None, array


def _device(array):
    from array_api_compat import device

    return device(array)


def _host(array) -> np.ndarray:
    """An array's values as a NumPy array on the host (the one copy back)."""
    import array_api_compat as compat

    if isinstance(array, (np.ndarray, np.generic)):
        return np.asarray(array)
    if compat.is_torch_array(array):
        return array.detach().cpu().numpy()
    if compat.is_cupy_array(array):
        return array.get()
    return np.from_dlpack(array)


def _real_array(xp, array, what: str):
    """``array`` as float (float32 kept, else float64), refused if not real numbers."""
    dtype = array.dtype
    if xp.isdtype(dtype, "real floating"):
        return array if dtype in (xp.float32, xp.float64) else xp.astype(array, xp.float64)
    if what == "relevance" and (xp.isdtype(dtype, "integral") or xp.isdtype(dtype, "bool")):
        return array  # compared as they are; the grades read are made float64
    if xp.isdtype(dtype, "integral"):
        limit = 2**53
        if bool(xp.any(xp.abs(xp.astype(array, xp.float64)) > limit)):
            raise InputValueError(
                "scores hold whole numbers beyond 2**53, which a float does not hold "
                "exactly (two of them could tie): pass them as floats, or rescale them")
        return xp.astype(array, xp.float64)
    raise InputTypeError(f"{what} must be real numbers, got an array of {dtype}")


def _as_array(value, what: str):
    xp, array = _namespace(value)
    if xp is not None:
        return xp, array
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as error:
        raise InputTypeError(f"{what} must be an array of numbers: {error}") from None
    if array.dtype == object or array.dtype.kind in "USMm":
        raise InputTypeError(f"{what} must be real numbers, got {array.dtype} values")
    import array_api_compat

    return array_api_compat.array_namespace(array), array


def _score_matrix(scores, conventions: Conventions):
    xp, array = _as_array(scores, "scores")
    if array.ndim != 2:
        raise InputValueError(
            f"scores must be a matrix [n_queries, n_docs], got shape {tuple(array.shape)}")
    array = _real_array(xp, array, "scores")
    bad = xp.isnan(array) if math.isnan(float(xp.sum(array))) else None  # one pass if none
    if bad is not None and bool(xp.any(bad)):
        row, column = _first_true(xp, bad)
        raise InputValueError(f"scores[{row}, {column}] is NaN (query at row {row}): a NaN "
                              "has no place in a ranking")
    if conventions.score_precision == "float32":
        array = xp.astype(array, xp.float32)
    return xp, array


def _first_true(xp, mask) -> tuple[int, int]:
    flat = _host(xp.reshape(mask, (-1,)))
    where = int(np.flatnonzero(flat)[0])
    return divmod(where, int(mask.shape[1]))


def _query_ids(query_ids, n_queries: int):
    if query_ids is None:
        return np.arange(n_queries, dtype=np.int64).astype(object), "int"
    ids = np.asarray(_host(query_ids) if _namespace(query_ids)[0] else list(query_ids),
                     dtype=object)
    if ids.shape != (n_queries,):
        raise InputValueError(f"query_ids must have one id per row of scores ({n_queries}), "
                              f"got {ids.shape[0] if ids.ndim else 0}")
    kind = _kind(ids, "query_ids")
    if kind == "int":
        ids = np.array([int(i) for i in ids], dtype=object)
    seen = pd.Index(ids)
    if not seen.is_unique:
        raise InputValueError(f"query id {seen[seen.duplicated()][0]!r} names two rows of "
                              "scores; each row is one query")
    return ids, kind


def _kind(ids: np.ndarray, what: str) -> str | None:
    flat = ids.ravel()
    if not len(flat):
        return None
    if all(isinstance(i, str) for i in flat):
        return "str"
    if all(isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))
           for i in flat):
        return "int"
    def whole(i) -> bool:
        return isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))

    texts = any(isinstance(i, str) for i in flat)
    odd = next(i for i in flat if not (isinstance(i, str) if texts else whole(i)))
    raise InputTypeError(f"{what} must be all str or all int, got {odd!r} "
                         f"({type(odd).__name__})")


def _doc_ids(doc_ids, n_queries: int, n_docs: int):
    if doc_ids is None:
        return None
    values = _host(doc_ids) if _namespace(doc_ids)[0] is not None else doc_ids
    array = np.asarray(values)
    if array.dtype.kind in "iu":
        kind = "int"
    else:
        array = np.asarray(values, dtype=object)
        kind = _kind(array, "doc_ids")
        if kind == "int":
            array = array.astype(np.int64)
    if array.shape not in ((n_docs,), (n_queries, n_docs)):
        raise InputValueError(
            f"doc_ids must name each column ({n_docs},) or each cell ({n_queries}, {n_docs}) "
            f"of scores, got shape {array.shape}")
    rows = array.reshape(1, -1) if array.ndim == 1 else array
    ordered = np.sort(rows, axis=1)
    same = ordered[:, 1:] == ordered[:, :-1]
    if same.any():
        row, place = np.argwhere(same)[0]
        where = "" if array.ndim == 1 else f" of query row {int(row)}"
        repeated = ordered[row, place]
        repeated = repeated.item() if isinstance(repeated, np.generic) else repeated
        raise InputValueError(f"doc id {repeated!r} names two columns{where}; each doc is "
                              "ranked once per query")
    return DocIds(array, kind)


@dataclass
class DocIds:
    """The doc ids of the columns (1-D) or cells (2-D), and their kind."""

    values: np.ndarray
    kind: str

    @property
    def ndim(self) -> int:
        return self.values.ndim



# -- the judgments ---------------------------------------------------------------------


@dataclass
class Judged:
    """The judged queries (numbered 0 .. n - 1) and what the kernels need of them."""

    ids: np.ndarray  # object: each judged query's id
    query_kind: str | None
    row: np.ndarray  # the matrix row of each judged query, -1 when it has none
    num_relevant: np.ndarray  # float64
    unjudged: tuple  # the rows' ids without judgments, in row order
    max_grade: float | None  # the highest grade judged (None: no judgment)
    depth: int | None  # how deep evaluate would read (for the warning)
    grades: object  # (xp, rows) -> the grade of each cell of those matrix rows
    ideal_width: int | None  # how many of each query's best grades are read (None: all)
    ideal_host: np.ndarray | None = None  # each query's positive grades, best first
    relevant_columns: np.ndarray | None = None  # per matrix row, its relevant columns
    relevant_valid: np.ndarray | None = None  # which entries of relevant_columns are real

    @property
    def in_run(self) -> np.ndarray:
        return self.row >= 0

    def ideal(self, xp, codes, cell_grades, device):
        """Each query's positive grades, best first, 0-padded."""
        if self.ideal_host is not None:
            return xp.asarray(self.ideal_host[codes], device=device)
        positive = xp.where(cell_grades > 0, cell_grades, 0.0)
        width = int(xp.max(xp.sum(xp.astype(cell_grades > 0, xp.int64), axis=1)))
        if self.ideal_width is not None:
            width = min(width, self.ideal_width)
        return top_values(xp, positive, width)


#: At most this many relevant docs in a row: the first relevant doc is found from a
#: table of the relevant columns; more, from the whole matrix.
RELEVANT_TABLE_WIDTH = 64


def _ideal_depth(specs: list[MetricSpec]) -> int | None:
    """How much of the ideal ranking the metrics read: 0, a cut-off, or None (all)."""
    cuts = []
    for spec in specs:
        if not spec.info.uses_gains:
            continue
        device_cut = spec.info.name in ("ndcg", "idcg") and not any(map(_needs_host, specs))
        cuts.append(spec.k if device_cut and isinstance(spec.k, int) else None)
    if not cuts:
        return 0
    return None if None in cuts else max(cuts)


def _needs_host(spec: MetricSpec) -> bool:
    return spec.info.name not in matrix_kernels.MATRIX_KERNELS


def _padded(rows: np.ndarray, values: np.ndarray, n_rows: int, width: int | None = None):
    """``values`` (grouped by ``rows``, ascending) as a 0-padded ``[n_rows, width]`` table
    (width: the longest group, or less), and which entries are real."""
    counts = np.bincount(rows, minlength=n_rows)
    longest = int(counts.max(initial=0))
    width = longest if width is None else min(width, longest)
    place = ranks_within(counts)
    keep = place < width
    table = np.zeros((n_rows, width), dtype=values.dtype)
    valid = np.zeros((n_rows, width), dtype=bool)
    table[rows[keep], place[keep]] = values[keep]
    valid[rows[keep], place[keep]] = True
    return table, valid


def _relevant_table(judged: Judged, cell_row, cell_column, cell_grade, n_rows: int,
                    level: float) -> None:
    """The relevant columns of each matrix row, when few (the level is positive, so the
    judged cells hold every relevant one)."""
    relevant = cell_grade >= level
    rows = cell_row[relevant]
    if int(np.bincount(rows, minlength=1).max(initial=0)) > RELEVANT_TABLE_WIDTH:
        return
    judged.relevant_columns, judged.relevant_valid = _padded(
        rows, cell_column[relevant].astype(np.int64), n_rows)


def _ideal_table(query, grade, n_queries: int, width: int | None) -> np.ndarray:
    """Each query's positive grades, best first, ``[n_queries, width]`` (0-padded)."""
    keep = grade > 0
    query, grade = query[keep], grade[keep]
    order = np.lexsort((-grade, query))
    return _padded(query[order], grade[order].astype(np.float64), n_queries, width)[0]


def _from_grades(xp, scores, relevance, ids, query_kind, conventions, specs) -> Judged:
    from array_api_compat import is_numpy_namespace

    rxp, grades = _as_array(relevance, "relevance")
    if tuple(grades.shape) != tuple(scores.shape):
        raise InputValueError(f"relevance has shape {tuple(grades.shape)}, scores "
                              f"{tuple(scores.shape)}: give a grade for each score")
    grades = _real_array(rxp, grades, "relevance")
    if rxp is not xp or _device(grades) != _device(scores):
        grades = xp.asarray(_host(grades), device=_device(scores))
    if xp.isdtype(grades.dtype, "real floating") and not math.isfinite(float(xp.sum(grades))):
        bad = ~xp.isfinite(grades)
        if bool(xp.any(bad)):
            row, column = _first_true(xp, bad)
            raise InputValueError(f"relevance[{row}, {column}] is not a finite number "
                                  f"(query {ids[row]!r}): a grade must be one")
    level = conventions.relevance_level
    n, n_docs = (int(size) for size in scores.shape)
    uses_gains = any(spec.info.uses_gains for spec in specs)
    cut = _ideal_depth(specs)
    rows = np.arange(n, dtype=np.int64)

    def cells(xp, chosen):
        if _contiguous(chosen):
            return grades[int(chosen[0]):int(chosen[-1]) + 1, ...]
        return xp.take(grades, xp.asarray(chosen, device=_device(grades)), axis=0)

    if is_numpy_namespace(xp):
        # NumPy: the positive cells, few, as a table: R, the ideal and the relevant docs
        # come from it, not from passes over the matrix.
        cell_row, cell_column = np.nonzero(grades > 0)
        cell_grade = grades[cell_row, cell_column].astype(np.float64)
        relevant = cell_grade >= level
        num_relevant = np.bincount(cell_row[relevant], minlength=n).astype(np.float64)
        if uses_gains:
            totals = np.bincount(cell_row, weights=grade_gains(cell_grade, conventions.gain),
                                 minlength=n)
            _refuse_overflow(totals, lambda row: grades[row, :].tolist(), ids,
                             conventions.gain)
        max_grade = (float(cell_grade.max()) if len(cell_grade)
                     else float(grades.max()) if grades.size else None)
        judged = Judged(ids, query_kind, rows, num_relevant, (), max_grade,
                        read_depth(specs, num_relevant, conventions.max_retrieved), cells,
                        cut, _ideal_table(cell_row, cell_grade, n, cut) if cut != 0
                        else np.zeros((n, 0)))
        _relevant_table(judged, cell_row, cell_column, cell_grade, n, level)
        return judged
    grades = xp.astype(grades, xp.float64)
    num_relevant = _host(xp.sum(xp.astype(grades >= level, xp.float64), axis=1)).astype(
        np.float64)
    if uses_gains:
        positive = xp.where(grades > 0, grades, 0.0)
        gains = positive if conventions.gain == "linear" else (
            xp.exp(positive * math.log(2.0)) - 1.0)
        _refuse_overflow(_host(xp.sum(gains, axis=1)),
                         lambda row: _host(grades[row, :]).tolist(), ids, conventions.gain)
    max_grade = float(xp.max(grades)) if n and n_docs else None
    return Judged(ids, query_kind, rows, num_relevant, (), max_grade,
                  read_depth(specs, num_relevant, conventions.max_retrieved), cells, cut)


def _contiguous(rows: np.ndarray) -> bool:
    return len(rows) > 0 and int(rows[-1]) - int(rows[0]) == len(rows) - 1


def _refuse_overflow(totals: np.ndarray, grades_of, ids, gain: str) -> None:
    """Refuse a query whose gains add up past the largest float (nDCG would be NaN)."""
    overflow = ~np.isfinite(totals)
    if overflow.any():
        row = int(np.flatnonzero(overflow)[0])
        check_total_gain(grades_of(row), gain, where=f"query {ids[row]!r}: ")


def _from_qrels(xp, scores, qrels, doc_ids, ids, query_kind, conventions, specs) -> Judged:
    if doc_ids is None:
        raise InputTypeError(
            "relevance given as qrels needs doc_ids: the id of each column (or cell) of "
            "scores, to know which cell each judgment grades")
    columns = qrels_columns(as_frame(qrels))
    judged = judge_queries(columns, conventions.relevance_level)
    qrels_kind = columns.query_kind
    doc_kind = _kind(columns.doc.to_numpy(dtype=object), "qrels doc ids") if len(
        columns.doc) else None
    check_same_kinds((query_kind, doc_ids.kind), (qrels_kind, doc_kind))
    n_queries, n_docs = (int(size) for size in scores.shape)
    row_of_id = {q: i for i, q in enumerate(ids.tolist())}
    row = np.fromiter((row_of_id.get(q, -1) for q in judged.ids), np.int64, judged.n)
    judged_rows = set(row[row >= 0].tolist())
    unjudged = tuple(q for i, q in enumerate(ids.tolist()) if i not in judged_rows)

    # Each judgment's cell: its query's row and its doc's column, when both are there.
    cell_row = row[judged.qrels_codes]
    docs = columns.doc.to_numpy(dtype=object)
    if doc_kind == "int":
        docs = docs.astype(np.int64)
    values = doc_ids.values
    if values.ndim == 1:
        column_of = pd.Index(values).get_indexer(docs)
    else:
        keys = pd.MultiIndex.from_arrays([np.repeat(np.arange(n_queries), n_docs),
                                          values.ravel()])
        flat = keys.get_indexer(pd.MultiIndex.from_arrays([cell_row, docs]))
        column_of = np.where(flat >= 0, flat % max(n_docs, 1), -1)
    placed = (cell_row >= 0) & (column_of >= 0)
    cell_row, cell_column = cell_row[placed], column_of[placed]
    cell_grade = columns.value[placed]
    order = np.argsort(cell_row, kind="stable")
    cell_row, cell_column, cell_grade = cell_row[order], cell_column[order], cell_grade[order]

    ideal = ideal_rankings(judged, conventions,
                           check_totals=any(spec.info.uses_gains for spec in specs))
    cut = _ideal_depth(specs)
    ideal_grades = _ideal_table(ideal.query, ideal.grade, judged.n, cut)
    device = _device(scores)

    def cells(xp, rows):
        out = np.zeros((len(rows), n_docs))
        start = np.searchsorted(cell_row, rows, side="left")
        lengths = np.searchsorted(cell_row, rows, side="right") - start
        take = np.repeat(start, lengths) + ranks_within(lengths)
        out[np.repeat(np.arange(len(rows)), lengths), cell_column[take]] = cell_grade[take]
        return xp.asarray(out, device=device)

    max_grade = float(columns.value.max()) if len(columns.value) else None
    result = Judged(judged.ids, query_kind or qrels_kind, row,
                    judged.num_relevant.astype(np.float64), unjudged, max_grade,
                    read_depth(specs, judged.num_relevant, conventions.max_retrieved),
                    cells, cut, ideal_grades)
    _relevant_table(result, cell_row, cell_column, cell_grade, n_queries,
                    conventions.relevance_level)
    return result


# -- the evaluation --------------------------------------------------------------------


def _matrix_depth(specs: list[MetricSpec], num_relevant: np.ndarray, n_docs: int,
                  max_retrieved: int | None) -> int:
    """How many of each row's top docs to sort: the deepest cut-off a metric reads
    (``rr`` counts its rank without a sort), never more than the row."""
    depth = 0
    for spec in specs:
        if spec.info.name == "rr":
            continue
        read = spec.depth(num_relevant)
        depth = n_docs if read is None else max(depth, int(read))
    if max_retrieved is not None:
        depth = min(depth, max_retrieved)
    return min(depth, n_docs)


def _evaluate(xp, scores, keys, judged: Judged, specs, names, conventions, chunk_size):
    n_docs = int(scores.shape[1])
    retrieved = n_docs if conventions.max_retrieved is None else min(
        n_docs, conventions.max_retrieved)
    empty = judged.num_relevant == 0
    if conventions.empty_relevant == "error" and empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise InputValueError(
            f"query {judged.ids[i]!r} has no relevant doc (no grade reaches relevance_level "
            f"{conventions.relevance_level}); pass empty_relevant='zero', 'article' or "
            "'skip' to score it")
    depth = _matrix_depth(specs, judged.num_relevant, n_docs, conventions.max_retrieved)
    wants_first = any(spec.info.name == "rr" for spec in specs)
    on_device = [i for i, spec in enumerate(specs) if not _needs_host(spec)]
    on_host = [i for i, spec in enumerate(specs) if _needs_host(spec)]
    host_specs = [_with_max_grade(specs[i], judged.max_grade) for i in on_host]
    raw = np.zeros((len(judged.ids), len(specs)))
    codes = np.flatnonzero(judged.in_run)
    codes = codes[np.argsort(judged.row[codes], kind="stable")]
    per_chunk = chunk_size if chunk_size is not None else max(1, CELLS_PER_CHUNK // max(
        n_docs, 1))
    if isinstance(per_chunk, bool) or not isinstance(per_chunk, int) or per_chunk < 1:
        raise InputValueError(f"chunk_size must be a positive int or None, got {chunk_size!r}")
    relevant_read = False
    level = conventions.relevance_level
    for start in range(0, len(codes), per_chunk):
        chunk = codes[start:start + per_chunk]
        rows = judged.row[chunk]
        if _contiguous(rows) and len(rows) == int(scores.shape[0]):
            block = scores
        elif _contiguous(rows):
            block = scores[int(rows[0]):int(rows[-1]) + 1, ...]
        else:
            block = xp.take(scores, xp.asarray(rows, device=_device(scores)), axis=0)
        block_keys = keys if int(keys.shape[0]) == 1 else xp.take(
            keys, xp.asarray(rows, device=_device(keys)), axis=0)
        cell_grades = judged.grades(xp, rows)
        if depth:
            top = gather(xp, cell_grades, top_columns(xp, block, block_keys, depth))
        else:
            top = cell_grades[:, :0]
        top = xp.astype(top, xp.float64)
        first = (_first_ranks(xp, block, block_keys, cell_grades, top, rows, judged, level)
                 if wants_first else None)
        num_relevant = xp.asarray(judged.num_relevant[chunk], device=_device(scores))
        ideal = judged.ideal(xp, chunk, cell_grades, _device(scores))
        matrix = matrix_kernels.SortedGrades(
            xp, top, num_relevant=num_relevant, ideal_grade=ideal, first=first,
            relevance_level=level, gain_rule=conventions.gain, n_docs=retrieved)
        if on_device:
            values = xp.stack([_device_kernel(matrix, specs[i]) for i in on_device], axis=1)
            raw[np.ix_(chunk, on_device)] = _host(values)
        read = xp.any(top >= level) if depth else xp.asarray(False)
        if first is not None:
            read = read | xp.any((first >= 0) & (first < retrieved))
        relevant_read = relevant_read or bool(read)
        if on_host:
            ranked = _ranked_on_host(_host(top), _host(matrix.ideal_grade),
                                     judged.num_relevant[chunk], conventions)
            for j, spec in zip(on_host, host_specs, strict=True):
                raw[chunk, j] = spec.info.kernel(ranked, spec.k, **spec.arguments)
    missing = np.flatnonzero(~judged.in_run)
    if len(missing):
        _score_missing(raw, missing, judged, specs, host_specs, on_device, on_host,
                       conventions)
    return _assemble(raw, judged, specs, names, conventions), relevant_read


def _first_ranks(xp, block, keys, cell_grades, top, rows, judged: Judged, level):
    """The rank of each row's first relevant doc (-1: none): read off the sorted top
    where it is there, counted over the row (:func:`first_relevant_rank`) elsewhere."""
    device = _device(block)
    n = int(block.shape[0])
    if int(top.shape[1]):
        hit = top >= level
        known = xp.where(xp.any(hit, axis=1), xp.argmax(xp.astype(hit, xp.int32), axis=1),
                         -1)
        known = xp.astype(known, xp.int64)
    else:
        known = xp.full(n, -1, dtype=xp.int64, device=device)
    table = judged.relevant_columns is not None
    has = (judged.relevant_valid[rows].any(axis=1) if table
           else _host(xp.any(cell_grades >= level, axis=1)))
    left = np.flatnonzero(has & (_host(known) < 0))
    if not len(left):
        return known
    every = 2 * len(left) > n  # most rows: count them all, rather than copy most of them
    chosen = np.arange(n) if every else left
    index = xp.asarray(chosen, device=device)
    sub_scores = block if every else xp.take(block, index, axis=0)
    sub_keys = keys if every or int(keys.shape[0]) == 1 else xp.take(keys, index, axis=0)
    if table:
        counted = first_relevant_rank(
            xp, sub_scores, sub_keys,
            xp.asarray(judged.relevant_valid[rows[chosen]], device=device),
            xp.asarray(judged.relevant_columns[rows[chosen]], device=device))
    else:
        relevant = cell_grades >= level
        counted = first_relevant_rank(
            xp, sub_scores, sub_keys, relevant if every else xp.take(relevant, index, axis=0))
    if every:
        return xp.where(known >= 0, known, xp.astype(counted, xp.int64))
    place = np.full(n, len(left))
    place[left] = np.arange(len(left))
    padded = xp.concat([xp.astype(counted, xp.int64),
                        xp.full(1, -1, dtype=xp.int64, device=device)])
    return xp.where(known >= 0, known, xp.take(padded, xp.asarray(place, device=device)))


def _device_kernel(matrix, spec: MetricSpec):
    kernel = matrix_kernels.MATRIX_KERNELS[spec.info.name]
    arguments = spec.arguments
    return kernel(matrix, spec.k, **arguments) if arguments else kernel(matrix, spec.k)


def _with_max_grade(spec: MetricSpec, max_grade: float | None) -> MetricSpec:
    """ERR's default g_max is the highest grade judged over all queries: pass it, as the
    host kernels see one block of queries at a time."""
    if spec.info.name != "err" or dict(spec.params).get("max_grade") is not None:
        return spec
    return MetricSpec(spec.name, spec.k, written=spec.written,
                      params=(*spec.params, ("max_grade", max(max_grade or 0.0, 0.0))),
                      budget=spec.budget)


def _ranked_on_host(top: np.ndarray, ideal: np.ndarray, num_relevant: np.ndarray,
                    conventions: Conventions) -> RankedJudgments:
    """The sorted grades of a block of queries as the metric table's kernels read them."""
    n, depth = top.shape
    query = np.repeat(np.arange(n), depth)
    grade = top.ravel()
    ideal_query = np.repeat(np.arange(n), ideal.shape[1])
    ideal_grade = ideal.ravel()
    keep = ideal_grade > 0
    ideal_gain = grade_gains(ideal_grade[keep], conventions.gain)
    best = RankedJudgments(n, query=ideal_query[keep], grade=ideal_grade[keep],
                           gain=ideal_gain, num_relevant=num_relevant,
                           relevance_level=conventions.relevance_level)
    return RankedJudgments(n, query=query, grade=grade,
                           gain=grade_gains(grade, conventions.gain), num_relevant=num_relevant,
                           relevance_level=conventions.relevance_level, ideal=best,
                           gain_rule=conventions.gain)


def _score_missing(raw, missing, judged: Judged, specs, host_specs, on_device, on_host,
                   conventions) -> None:
    """The values of judged queries with no row in the matrix: an empty ranking each (a
    metric of the query itself, num_rel, keeps its value under missing_from_run="zero")."""
    import array_api_compat.numpy as xnp

    n = len(missing)
    num_relevant = judged.num_relevant[missing]
    ideal = (judged.ideal_host[missing] if judged.ideal_host is not None
             else np.zeros((n, 0)))
    empty = np.zeros((n, 0))
    matrix = matrix_kernels.SortedGrades(xnp, empty, num_relevant=num_relevant,
                                         ideal_grade=ideal, first=np.full(n, -1),
                                         relevance_level=conventions.relevance_level,
                                         gain_rule=conventions.gain, n_docs=0)
    for i in on_device:
        raw[missing, i] = _device_kernel(matrix, specs[i])
    if on_host:
        ranked = _ranked_on_host(empty, ideal, num_relevant, conventions)
        for j, spec in zip(on_host, host_specs, strict=True):
            raw[missing, j] = spec.info.kernel(ranked, spec.k, **spec.arguments)


def _natural_order(ids: np.ndarray, kind: str | None) -> np.ndarray:
    """:func:`~ragmetrics.evaluation.engine.natural_order`; for ids that are ints from 0
    (numbers in their natural order), the order of the numbers, without their texts."""
    if kind == "int" and len(ids):
        numbers = ids.astype(np.int64)
        if numbers.min() >= 0:
            return np.argsort(numbers, kind="stable")
    return natural_order(ids)


def _assemble(raw: np.ndarray, judged: Judged, specs, names, conventions) -> Evaluation:
    empty = judged.num_relevant == 0
    in_run = judged.in_run
    skip_missing = conventions.missing_from_run == "skip"
    values = [settle(raw[:, i], spec, empty=empty, empty_relevant=conventions.empty_relevant,
                     query_ids=judged.ids, in_run=in_run if skip_missing else None,
                     zero_for=~in_run if not skip_missing and not in_run.all() else None)
              for i, spec in enumerate(specs)]
    ids = judged.ids
    if judged.query_kind == "int":
        index = pd.Index(ids.astype(np.int64), name="query_id")
    else:
        index = pd.Index(ids.astype(object), name="query_id", dtype=object)
    per_query = pd.DataFrame(dict(zip(names, values, strict=True)), index=index)
    natural = _natural_order(ids, judged.query_kind)
    order = natural[in_run[natural]] if skip_missing else natural
    per_query = per_query.iloc[order]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        summary = summarize(per_query, specs)
    return Evaluation(
        per_query=per_query,
        summary=summary,
        conventions=conventions,
        queries_missing_from_run=tuple(ids[natural[~in_run[natural]]].tolist()),
        queries_missing_from_qrels=judged.unjudged,
        queries_without_relevant=tuple(ids[natural[empty[natural]]].tolist()),
    )
