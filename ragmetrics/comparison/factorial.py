"""A factorial set of runs: each factor's main effect, averaged over the other factors.

Runs named ``bm25-256``, ``bm25-512``, ``dense-256``, ``dense-512`` are a 2 x 2 design:
a retriever crossed with a chunk size. :func:`check_factors` reads the design from an
explicit ``factors={"retriever": {"bm25-256": "bm25", ...}, "chunking": {...}}`` (factor
-> {system -> level}), or from the names themselves when every name splits on ``-`` (or
``_``) into the same number of parts and the parts form a full factorial (every
combination of levels present once); the factors are then called ``factor 1``,
``factor 2``, ... .

**The estimator** (:func:`factor_effects`). For a factor ``F`` with reference level
``r`` (the baseline's level) and another level ``l``, and the other factors' level
combinations ``o`` (the *cells*), each query ``q`` gets

.. math:: d_q = \\frac{1}{|O|} \\sum_{o \\in O} (x_q[l, o] - x_q[r, o]),

the difference between the two levels averaged over the cells with equal weight; the
main effect is the mean of ``d_q`` over the queries (equal to the difference of the two
levels' marginal means of a balanced design), and its interval is the bootstrap
interval of that mean (:func:`ragmetrics.stats.bootstrap_interval`, ``expanded_t``):
the queries are resampled, paired across every system, so the interval knows that all
the runs answered the same queries. The interval is at ``confidence``, one per row,
with no correction: a description of the design, not a test.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..errors import InputTypeError, InputValueError
from ..stats.intervals import bootstrap_interval
from ..stats.resampling import bootstrap_means, finite_column_groups

__all__ = ["check_factors", "factor_effects", "factors_from_names"]


def factors_from_names(names) -> dict[str, dict[str, str]] | None:
    """The factorial design the names spell, or None when they spell none.

    Examples
    --------
    >>> factors_from_names(["bm25-256", "bm25-512", "dense-256", "dense-512"])["factor 1"]
    {'bm25-256': 'bm25', 'bm25-512': 'bm25', 'dense-256': 'dense', 'dense-512': 'dense'}
    >>> factors_from_names(["bm25-256", "dense-512"]) is None     # not every combination
    True
    """
    if len(names) < 4:
        return None
    for separator in ("-", "_"):
        parts = [name.split(separator) for name in names]
        width = len(parts[0])
        if width < 2 or any(len(p) != width for p in parts) or any("" in p for p in parts):
            continue
        levels = [list(dict.fromkeys(p[k] for p in parts)) for k in range(width)]
        if any(len(level) < 2 for level in levels):
            continue
        if len(set(map(tuple, parts))) == len(names) == np.prod([len(v) for v in levels]):
            return {f"factor {k + 1}": {name: p[k] for name, p in zip(names, parts, strict=True)}
                    for k in range(width)}
    return None


def check_factors(factors, names) -> dict[str, dict[str, str]] | None:
    """``factors`` checked against the systems ``names``; None: read from the names.

    Every factor must give every system a level, have at least two levels, and the
    systems must cover every combination of levels once (a full factorial).
    """
    if factors is None:
        return factors_from_names(list(names))
    if not isinstance(factors, Mapping) or not factors:
        raise InputTypeError("factors must be a non-empty mapping {factor: {system: level}}, "
                             f"got {factors!r}")
    checked = {}
    for factor, levels in factors.items():
        if not isinstance(factor, str) or not factor:
            raise InputTypeError(f"each factor name must be a non-empty str, got {factor!r}")
        if not isinstance(levels, Mapping):
            raise InputTypeError(f"factors[{factor!r}] must map each system to its level, "
                                 f"got {type(levels).__name__}")
        unknown = [s for s in levels if s not in names]
        if unknown:
            raise InputValueError(f"factors[{factor!r}] names {unknown[0]!r}, which is not "
                                  f"one of the systems {list(names)}")
        missing = [s for s in names if s not in levels]
        if missing:
            raise InputValueError(f"factors[{factor!r}] gives no level to system "
                                  f"{missing[0]!r}")
        checked[factor] = {s: str(levels[s]) for s in names}
        if len(set(checked[factor].values())) < 2:
            raise InputValueError(f"factors[{factor!r}] has one level only "
                                  f"({next(iter(checked[factor].values()))!r})")
    cells = [tuple(checked[f][s] for f in checked) for s in names]
    expected = int(np.prod([len(set(v.values())) for v in checked.values()]))
    if len(set(cells)) != len(cells) or len(cells) != expected:
        seen: dict[tuple, str] = {}
        for system, cell in zip(names, cells, strict=True):
            if cell in seen:
                raise InputValueError(f"factors: systems {seen[cell]!r} and {system!r} have "
                                      f"the same levels {cell}; each combination once")
            seen[cell] = system
        raise InputValueError(f"factors: {len(cells)} systems for {expected} combinations of "
                              "levels; a main effect needs every combination (a full "
                              "factorial)")
    return checked


def factor_effects(per_query: dict[str, pd.DataFrame], names, metrics, specs, factors,
                   *, n_resamples: int, seed: int, confidence: float) -> pd.DataFrame:
    """Each factor's main effect on each metric (see the module for the estimator).

    Returns
    -------
    pandas.DataFrame
        Index (``metric``, ``factor``, ``level``); columns ``reference`` (the level it
        is compared with: the baseline's), ``difference`` (level minus reference,
        averaged over the other factors' cells), ``low``, ``high`` (the bootstrap
        interval at ``confidence``), ``cells`` and ``n_queries``.

    Examples
    --------
    >>> import ragmetrics
    >>> qrels = {f"q{i}": {"a"} for i in range(8)}
    >>> at = lambda rank: {q: [f"x{k}" for k in range(rank - 1)] + ["a"] for q in qrels}
    >>> runs = {"bm25-256": at(4), "bm25-512": at(2), "dense-256": at(2), "dense-512": at(1)}
    >>> result = ragmetrics.compare(runs, qrels, ["mrr"], n_resamples=100)
    >>> result.factors[["reference", "difference"]]  # doctest: +NORMALIZE_WHITESPACE
                             reference  difference
    metric factor   level
    mrr    factor 1 dense         bm25       0.375
           factor 2 512            256       0.375
    """
    rows, index, columns, values = [], [], [], []
    base = names[0]
    for metric, spec in zip(metrics, specs, strict=True):
        for factor, level_of in factors.items():
            others = [f for f in factors if f != factor]
            reference = level_of[base]
            for level in dict.fromkeys(level_of[s] for s in names):
                if level == reference:
                    continue
                diffs = []
                for cell in itertools.product(*[dict.fromkeys(factors[f][s] for s in names)
                                                for f in others]):
                    at = dict(zip(others, cell, strict=True))
                    x = _system(names, factors, {**at, factor: level})
                    r = _system(names, factors, {**at, factor: reference})
                    diffs.append(per_query[x][metric].to_numpy(np.float64)
                                 - per_query[r][metric].to_numpy(np.float64))
                d = np.mean(diffs, axis=0)  # NaN where a cell lacks the query ("skip")
                values.append(d)
                columns.append((spec.bounds[0] - spec.bounds[1], spec.bounds[1] - spec.bounds[0]))
                finite = np.isfinite(d)
                rows.append({"reference": reference,
                             "difference": float(d[finite].mean()) if finite.any() else np.nan,
                             "cells": len(diffs), "n_queries": int(finite.sum())})
                index.append((metric, factor, level))
    matrix = np.column_stack(values)
    low, high = np.full(len(rows), np.nan), np.full(len(rows), np.nan)
    for kept, cols in finite_column_groups(matrix):
        block = matrix[kept][:, cols]
        means = bootstrap_means(block, n_resamples=n_resamples, seed=seed)
        bounds = (np.array([columns[c][0] for c in cols]), np.array([columns[c][1] for c in cols]))
        low[cols], high[cols] = bootstrap_interval(block, means, confidence=confidence,
                                                   bounds=bounds)
    frame = pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(
        index, names=["metric", "factor", "level"]))
    frame.insert(2, "low", low)
    frame.insert(3, "high", high)
    return frame


def _system(names, factors, levels: dict[str, str]) -> str:
    return next(s for s in names if all(factors[f][s] == v for f, v in levels.items()))
