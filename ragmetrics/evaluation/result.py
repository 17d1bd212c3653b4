"""The result of an evaluation, its summaries, and the warnings that come with it.

:class:`Evaluation` holds every query's values and their means; :func:`summarize` makes
the means (the geometric mean where a metric is defined by one); the warnings say what a
number alone does not (queries missing from one side, nothing relevant retrieved).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import (
    CoverageWarning,
    EmptyRelevantWarning,
    InputValueError,
    NoRelevantRetrievedWarning,
)
from ..presets import PRESETS

__all__ = ["AGGREGATES", "GEOMETRIC_FLOOR", "Evaluation", "counted", "summarize", "warn_coverage",
           "warn_empty_relevant", "warn_nothing_retrieved"]

#: The floor of a geometric mean: trec_eval's MIN_GEO_MEAN (its values print 4 decimals).
GEOMETRIC_FLOOR = 0.00001

#: The statistics :meth:`Evaluation.aggregate` summarizes a metric by over queries.
AGGREGATES = ("mean", "median", "std", "gmean", "sum", "min", "max")


@dataclass(frozen=True, eq=False)
class Evaluation:
    """The result of :func:`evaluate`.

    Two results are equal only when they are the same object (``eq=False``): compare
    their ``per_query`` frames to compare numbers.

    Attributes
    ----------
    per_query : pandas.DataFrame
        One row per evaluated query (index ``query_id``), one column per metric, named
        exactly as requested and in that order (text for relstring and runid).
    summary : pandas.Series
        The mean of each number column over the evaluated queries (NaNs, from ``"skip"``
        policies, left out); for gm_map and gm_bpref, defined by their summary, the
        geometric mean (trec_eval's: values floored at 1e-5). :meth:`aggregate` gives
        the median, the standard deviation, the geometric mean and more.
    conventions : Conventions
        The policies the numbers were computed under.
    preset : str or None
        The preset named (:data:`ragmetrics.presets.PRESETS`): the tool whose rules the
        numbers follow. None when none was named.
    queries_missing_from_run : tuple
        Judged queries absent from the run (scored 0 under ``missing_from_run="zero"``,
        left out under ``"skip"``). (``missing_from_run``, its earlier name, warns.)
    queries_missing_from_qrels : tuple
        Queries in the run without judgments: left out. (``missing_from_qrels`` warns.)
    queries_without_relevant : tuple
        Judged queries with no relevant doc (no grade reaches ``relevance_level``).
        (``empty_relevant`` warns.)
    counts : pandas.Series
        How many queries each mean of ``summary`` averages: fewer than the rows of
        ``per_query`` only where a ``"skip"`` policy left queries out.
    """

    per_query: pd.DataFrame
    summary: pd.Series
    conventions: Conventions
    queries_missing_from_run: tuple = field(default=())
    queries_missing_from_qrels: tuple = field(default=())
    queries_without_relevant: tuple = field(default=())
    preset: str | None = None

    @property
    def counts(self) -> pd.Series:
        return self.per_query.notna().sum().astype("int64")

    def aggregate(self, statistic: str = "mean") -> pd.Series:
        """Each number column summarized over the evaluated queries by ``statistic``.

        ``"mean"`` (what :attr:`summary` holds, but for the geometric means of gm_map
        and gm_bpref), ``"median"``, ``"std"`` (the sample standard deviation, over
        n - 1), ``"gmean"`` (the geometric mean, each value floored at 1e-5 as trec_eval
        floors gm_map's, so that one query at 0 does not make it 0), ``"sum"`` (trec_eval's
        summary of counts such as num_rel), ``"min"`` or ``"max"``. NaNs (from ``"skip"``
        policies) are left out, as in :attr:`summary`.

        Examples
        --------
        >>> from ragmetrics import evaluate
        >>> result = evaluate({"q1": ["a"], "q2": ["x", "b"], "q3": ["y"]},
        ...                   {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}}, ["mrr"])
        >>> result.aggregate("mean").round(4).tolist(), result.aggregate("median").tolist()
        ([0.5], [0.5])
        >>> result.aggregate("gmean").round(4).tolist()  # (1 x 0.5 x 1e-5) ** (1/3)
        [0.0171]
        """
        if statistic not in AGGREGATES:
            raise InputValueError(f"statistic must be one of "
                                  f"{', '.join(map(repr, AGGREGATES))}; got {statistic!r}")
        numbers = self.per_query.select_dtypes(include="number")
        if statistic == "gmean":
            return _geometric_mean(numbers)
        return getattr(numbers, statistic)(axis=0, skipna=True)

    # The names of earlier versions, kept for a while with a DeprecationWarning.
    @property
    def missing_from_run(self) -> tuple:
        _warn_old_name("missing_from_run", "queries_missing_from_run")
        return self.queries_missing_from_run

    @property
    def missing_from_qrels(self) -> tuple:
        _warn_old_name("missing_from_qrels", "queries_missing_from_qrels")
        return self.queries_missing_from_qrels

    @property
    def empty_relevant(self) -> tuple:
        _warn_old_name("empty_relevant", "queries_without_relevant")
        return self.queries_without_relevant

    def __repr__(self) -> str:
        lines = [f"Evaluation over {counted(len(self.per_query))}"]
        width = max((len(str(n)) for n in self.summary.index), default=0)
        counts = self.counts
        for name, value in self.summary.items():
            fewer = counts[name] != len(self.per_query)
            lines.append(f"  {name:<{width}}  {value:.4f}"
                         + (f"  (mean of {counted(int(counts[name]))})" if fewer else ""))
        for label, ids in (
            ("missing from the run", self.queries_missing_from_run),
            ("missing from the qrels (left out)", self.queries_missing_from_qrels),
            ("with no relevant doc", self.queries_without_relevant),
        ):
            if ids:
                shown = ", ".join(map(str, ids[:5])) + (", ..." if len(ids) > 5 else "")
                lines.append(f"  {counted(len(ids))} {label}: {shown}")
        if self.preset is not None:
            lines.append(f"  preset: {self.preset} ({PRESETS[self.preset].tool})")
        return "\n".join(lines)


def _warn_old_name(old: str, new: str) -> None:
    warnings.warn(f"Evaluation.{old} is now Evaluation.{new}; the old name will be removed "
                  "in a later release", DeprecationWarning, stacklevel=3)


def warn_coverage(result: Evaluation) -> None:
    """The :class:`CoverageWarning` of ``result``, if queries are missing from one side."""
    parts = []
    if result.queries_missing_from_run:
        how = "scored 0" if result.conventions.missing_from_run == "zero" else "left out"
        n = len(result.queries_missing_from_run)
        parts.append(f"{counted(n, 'judged query', 'judged queries')} missing from the run ({how})")
    if result.queries_missing_from_qrels:
        n = len(result.queries_missing_from_qrels)
        parts.append(f"{counted(n)} of the run without judgments (left out)")
    if parts:
        warnings.warn("; ".join(parts) + "; see the Evaluation's attributes", CoverageWarning,
                      stacklevel=3)


def warn_empty_relevant(result: Evaluation, n_judged: int, max_grade: float | None) -> None:
    """The :class:`EmptyRelevantWarning` when judged queries have no relevant doc and
    are scored anyway."""
    ids, c = result.queries_without_relevant, result.conventions
    if not ids or c.empty_relevant not in ("zero", "article"):
        return
    n = len(ids)
    how = ("scored 0 and counted in the mean" if c.empty_relevant == "zero"
           else "scored 1 on recall and nDCG, 0 on the rest (the article's rule)")
    top = "" if max_grade is None else f"; the highest grade judged is {max_grade:g}"
    if n == n_judged:
        head = (f"no judged query has a relevant doc at relevance_level "
                f"{c.relevance_level:g}{top}: is the level too high? Every query is {how}")
    else:
        shown = ", ".join(map(repr, ids[:3])) + (", ..." if n > 3 else "")
        head = (f"{counted(n, 'judged query has', 'judged queries have')} no relevant doc "
                f"(no grade reaches relevance_level {c.relevance_level:g}{top}): {shown}; "
                f"{how}")
    warnings.warn(f"{head} (empty_relevant={c.empty_relevant!r}; 'skip' leaves such "
                  "queries out)", EmptyRelevantWarning, stacklevel=3)


def warn_nothing_retrieved(n: int, depth: int | None, *, stacklevel: int = 3) -> None:
    """The :class:`NoRelevantRetrievedWarning` for ``n`` queries read ``depth`` deep."""
    where = "" if depth is None else f" in the top {depth}"
    warnings.warn(
        f"no relevant doc was retrieved{where} for any of the {counted(n)} that have one: "
        "every metric that counts hits is 0; if that is unexpected, check that the run and "
        "the judgments write doc ids the same way",
        NoRelevantRetrievedWarning, stacklevel=stacklevel)


def summarize(per_query: pd.DataFrame, specs) -> pd.Series:
    """The mean of each number column (``specs``: the columns' metrics, in order); the
    geometric mean for the metrics it defines (gm_map, gm_bpref); text columns left out."""
    kinds = [("text" if spec.info.kind == "text" else spec.info.summary)
             for spec in specs]
    numbers = [i for i, kind in enumerate(kinds) if kind != "text"]
    # One mean over all the number columns (pandas reduces each column alone, as if it
    # were taken by itself: the same sums, bit for bit), the geometric ones replaced.
    frame = per_query.iloc[:, numbers]
    means = frame.mean(axis=0, skipna=True).to_numpy(np.float64, copy=True)
    geometric = [j for j, i in enumerate(numbers) if kinds[i] == "gmean"]
    if geometric:
        means[geometric] = _geometric_mean(frame.iloc[:, geometric]).to_numpy()
    return pd.Series(means, index=per_query.columns[numbers], dtype=np.float64)


def _geometric_mean(frame: pd.DataFrame) -> pd.Series:
    """exp(mean(log(max(v, 1e-5)))) of each column, NaNs left out (trec_eval's gm_map)."""
    with np.errstate(divide="ignore"):
        logs = np.log(np.maximum(frame.to_numpy(np.float64), GEOMETRIC_FLOOR))
    # A column of NaNs only (every query skipped) has no mean: NaN, as frame.mean says.
    counts = (~np.isnan(logs)).sum(axis=0)
    means = np.where(counts > 0, np.nansum(logs, axis=0) / np.maximum(counts, 1), np.nan)
    return pd.Series(np.exp(means), index=frame.columns, dtype=np.float64)


def counted(n: int, one: str = "query", many: str = "queries") -> str:
    """``"1 query"``, ``"3 queries"``: a count and its noun."""
    return f"{n} {one if n == 1 else many}"
