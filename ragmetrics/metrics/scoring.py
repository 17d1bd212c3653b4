"""From kernel values to scores: the one place where the conventions are applied.

:func:`score` runs each metric's kernel (through the metric table) and then applies,
the same way for every metric, the convention for queries with no relevant doc
(``empty_relevant``) and, for :func:`ragmetrics.evaluate`, the one for judged queries
absent from the run (``missing_from_run``). It also guards the promise that no NaN
appears that no ``"skip"`` policy asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InputValueError
from .ranked import RankedJudgments
from .registry import MetricSpec
from .ties_counted import TieBlockTooLarge

__all__ = ["score", "settle"]


def score(
    ranked: RankedJudgments,
    specs: Sequence[MetricSpec],
    *,
    empty_relevant: str,
    query_ids: Sequence | None = None,
    in_run: np.ndarray | None = None,
    zero_for: np.ndarray | None = None,
) -> list[np.ndarray]:
    """Each metric's value for every query of ``ranked``, the conventions applied.

    Parameters
    ----------
    ranked : RankedJudgments
    specs : sequence of MetricSpec
        The metrics, with their cut-offs and parameters; ``spec.k`` may also be one
        cut-off per query.
    empty_relevant : {"zero", "article", "skip", "error"}
        For a query with no relevant doc: the kernel's value ("zero": every count is 0,
        and nDCG still scores the gains of docs graded below the level, as trec_eval),
        the metric's ``article_value``, NaN, or an error naming the query.
    query_ids : sequence, optional
        The id of each query, for the error of ``"error"``.
    in_run : array of bool, optional
        False for judged queries absent from the run that ``missing_from_run="skip"``
        leaves out: their values are NaN.
    zero_for : array of bool, optional
        True for judged queries absent from the run that ``missing_from_run="zero"``
        scores 0: every metric of the run is 0 there (utility too, whose kernel would
        count the relevant docs missed); the metrics of the query itself (num_q,
        num_rel) keep their values, as in trec_eval -c.

    Returns
    -------
    list of numpy.ndarray
        One array per spec, one value per query.
    """
    empty = ranked.num_relevant == 0
    if empty_relevant == "error" and empty.any():
        i = int(np.flatnonzero(empty)[0])
        query = f"query {query_ids[i]!r}" if query_ids is not None else "the golden set"
        raise InputValueError(
            f"{query} has no relevant doc (no grade reaches relevance_level "
            f"{ranked.relevance_level}); pass empty_relevant='zero', 'article' or 'skip' to "
            "score it"
        )
    out = []
    for spec in specs:
        arguments = spec.arguments
        try:
            values = spec.info.kernel(ranked, spec.k, **arguments) if arguments else (
                spec.info.kernel(ranked, spec.k))
        except TieBlockTooLarge as error:  # the kernels know query codes, not ids
            if query_ids is None:
                raise
            raise error.naming(query_ids[error.query]) from None
        out.append(settle(values, spec, empty=empty, empty_relevant=empty_relevant,
                          query_ids=query_ids, in_run=in_run, zero_for=zero_for))
    return out


def settle(values, spec: MetricSpec, *, empty: np.ndarray, empty_relevant: str,
           query_ids: Sequence | None = None, in_run: np.ndarray | None = None,
           zero_for: np.ndarray | None = None) -> np.ndarray:
    """One metric's kernel values with the conventions applied, as :func:`score` applies
    them (``empty``: the queries with no relevant doc; the other arguments as there).

    :func:`ragmetrics.evaluate_scores` computes its values elsewhere (on the matrix's
    device) and settles them here, so that both front ends apply the policies alike.

    Examples
    --------
    >>> from ragmetrics import parse_metric
    >>> settle(np.array([0.5, 0.0]), parse_metric("recall@5"), empty=np.array([False, True]),
    ...        empty_relevant="article").tolist()
    [0.5, 1.0]
    """
    info = spec.info
    if info.kind == "text":  # relstring, runid: no number, so no number policy
        values = np.asarray(values, dtype=object)
        if empty_relevant == "skip":
            values = np.where(empty, None, values)
        if in_run is not None:
            values = np.where(in_run, values, None)
        return values
    if zero_for is not None and not info.of_the_query:
        values = np.where(zero_for, 0.0, values)
    if np.isnan(values).any():  # never a NaN that no "skip" policy asked for
        i = int(np.flatnonzero(np.isnan(values))[0])
        where = f" for query {query_ids[i]!r}" if query_ids is not None else ""
        raise ArithmeticError(f"{spec} is NaN{where} before any policy: a bug")
    values = snapped_to_bounds(values, spec)
    if empty_relevant == "article":
        values = np.where(empty, info.article_value, values)
    elif empty_relevant == "skip":
        values = np.where(empty, np.nan, values)
    if in_run is not None:
        values = np.where(in_run, values, np.nan)
    return values


#: How far past a bound a value may lie and still be rounding: the same margin as
#: :data:`ragmetrics.stats.ROUNDING` (values carry errors near 1e-16).
BOUND_ROUNDING = 1e-12


def snapped_to_bounds(values: np.ndarray, spec) -> np.ndarray:
    """``values`` with any that passed ``spec.bounds`` by rounding alone put back on the
    bound; values further out are left as they are (compare names them as a bug).

    A mean over the orders of a tie (``ties="average"``) or a residual such as
    ``rbp_resid`` adds fractions whose exact sum is the bound, and the float sum can pass
    it by an ulp: recall 1.0000000000000002 is recall 1.

    Examples
    --------
    >>> from ragmetrics import parse_metric
    >>> snapped_to_bounds(np.array([1.0000000000000002, 0.5, -1e-17]),
    ...                   parse_metric("recall@5")).tolist()
    [1.0, 0.5, 0.0]
    """
    low, high = spec.bounds
    margin_low = BOUND_ROUNDING * max(1.0, abs(low))
    margin_high = BOUND_ROUNDING * max(1.0, abs(high))
    rounded_up = (values > high) & (values <= high + margin_high)
    rounded_down = (values < low) & (values >= low - margin_low)
    if rounded_up.any() or rounded_down.any():
        values = np.where(rounded_up, high, np.where(rounded_down, low, values))
    return values
