"""Many-query evaluation: every query of a run, every metric, in one call.

:func:`evaluate` ranks and judges the run (:mod:`ragmetrics.evaluation.engine`), then
scores every metric through the metric table (:func:`ragmetrics.metrics.scoring.score`),
vectorized over all queries at once; this module holds the public function, its
result, and the warnings that come with the numbers.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import (
    CoverageWarning,
    EmptyRelevantWarning,
    InputTypeError,
    InputValueError,
    NoRelevantRetrievedWarning,
    RagmetricsWarning,
)
from ..metrics.scoring import score
from ..metrics.table import MetricSpec, parse_metrics
from ..policies import PRESETS, Conventions, parameters_doc, preset_conventions
from .arrow_inputs import as_frame
from .engine import Prepared, rank_and_judge
from .inputs import qrels_columns, run_columns
from .on_dask import evaluate_on_dask, is_dask_frame
from .parts import DeferredRun, RunInParts
from .variants import apply_ap_denominator, prepare_run

__all__ = ["AGGREGATES", "CoverageWarning", "Evaluation", "check_judgments", "evaluate",
           "summarize", "warn_coverage", "warn_nothing_retrieved"]

#: The floor of a geometric mean: trec_eval's MIN_GEO_MEAN (its values print 4 decimals).
GEOMETRIC_FLOOR = 0.00001

#: The statistics :meth:`Evaluation.aggregate` summarizes a metric by over queries.
AGGREGATES = ("mean", "median", "std", "gmean", "sum", "min", "max")


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`evaluate`.

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
        The preset named (:data:`ragmetrics.policies.PRESETS`): the tool whose rules the
        numbers follow. None when none was named.
    queries_missing_from_run : tuple
        Judged queries absent from the run (scored 0 under ``missing_from_run="zero"``,
        left out under ``"skip"``). Also ``missing_from_run``.
    queries_missing_from_qrels : tuple
        Queries in the run without judgments: left out. Also ``missing_from_qrels``.
    queries_without_relevant : tuple
        Judged queries with no relevant doc (no grade reaches ``relevance_level``).
        Also ``empty_relevant``.
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

    # The names of earlier versions.
    @property
    def missing_from_run(self) -> tuple:
        return self.queries_missing_from_run

    @property
    def missing_from_qrels(self) -> tuple:
        return self.queries_missing_from_qrels

    @property
    def empty_relevant(self) -> tuple:
        return self.queries_without_relevant

    def __repr__(self) -> str:
        lines = [f"Evaluation over {_count(len(self.per_query))}"]
        width = max((len(str(n)) for n in self.summary.index), default=0)
        counts = self.counts
        for name, value in self.summary.items():
            fewer = counts[name] != len(self.per_query)
            lines.append(f"  {name:<{width}}  {value:.4f}"
                         + (f"  (mean of {_count(int(counts[name]))})" if fewer else ""))
        for label, ids in (
            ("missing from the run", self.queries_missing_from_run),
            ("missing from the qrels (left out)", self.queries_missing_from_qrels),
            ("with no relevant doc", self.queries_without_relevant),
        ):
            if ids:
                shown = ", ".join(map(str, ids[:5])) + (", ..." if len(ids) > 5 else "")
                lines.append(f"  {_count(len(ids))} {label}: {shown}")
        if self.preset is not None:
            lines.append(f"  preset: {self.preset} ({PRESETS[self.preset].tool})")
        return "\n".join(lines)


def evaluate(
    run,
    qrels=None,
    metrics=("recall@10", "precision@10", "mrr", "ndcg@10"),
    *,
    chunks=None,
    evidence=None,
    documents=None,
    relevance_level: float = 1,
    gain: str = "linear",
    ties: str = "trec_eval",
    duplicates: str = "error",
    empty_relevant: str = "zero",
    missing_from_run: str = "zero",
    unjudged: str = "nonrelevant",
    max_retrieved: int | None = None,
    order_by: str = "score",
    score_precision: str = "float64",
    query_id_docs: str = "keep",
    ap_denominator: str = "num_relevant",
    ideal_order: str = "sorted",
    preset: str | None = None,
) -> Evaluation:
    """Score every query of a run against the judgments, with all metrics at once.

    Parameters
    ----------
    run : DataFrame, table or mapping
        ``query_id``, ``doc_id`` and ``score`` (or ``rank``) columns; or
        ``{query_id: [doc ids in rank order]}``; or ``{query_id: {doc_id: score}}``.
        With both ``score`` and ``rank``, the score decides (as in trec_eval). A frame
        may be pandas (ids as ``object``, ``str`` or Arrow strings), a ``pyarrow.Table``
        or a Polars ``DataFrame`` or ``LazyFrame`` (ids stay in Arrow:
        :mod:`~ragmetrics.evaluation.arrow_inputs`), or a ``dask.dataframe.DataFrame``,
        evaluated partition by partition on Dask (:mod:`~ragmetrics.evaluation.on_dask`).
    qrels : DataFrame, table, mapping or SpanJudgments
        ``query_id``, ``doc_id`` and ``relevance`` columns (pandas, pyarrow or Polars);
        or ``{query_id: {doc_id: grade}}``; or ``{query_id: set of relevant ids}``. Or
        evidence spans, :class:`ragmetrics.spans.SpanJudgments`, with ``chunks``.
    metrics : sequence of str
        Names such as ``"recall@10"``, ``"precision@5"``, ``"hit_rate@3"``, ``"mrr"``
        (or ``"rr"``), ``"mrr@10"``, ``"ndcg@10"``, ``"ndcg"`` (uncut), ``"dcg@10"``,
        ``"map"`` (or ``"ap"``), ``"map@100"``, ``"r_precision"``, ``"bpref"``,
        ``"err@10"``, ``"rbp(p=0.8)"``, ``"ndcg(1=3,2=9)@10"`` (a gain map),
        ``"iprec_at_recall@0.2"``, ``"judged@10"``, or trec_eval's names (``"P_5"``,
        ``"ndcg_cut_10"``, ``"infAP"``): every metric of :data:`ragmetrics.METRICS`.
        The default is the article's four at k=10. Columns are named as asked. With
        evidence, also the span metrics
        (``"span_recall@10"``, ``"span_iou@budget=1000"``, ...:
        :mod:`ragmetrics.spans.names`).
    chunks : DataFrame, records or file, optional
        The run's chunking (``chunk_id, doc_id, start, end`` or ``text``), when the
        judgments are evidence spans: the run's doc ids are its chunk ids
        (:mod:`ragmetrics.spans.judging`).
    evidence, documents : optional
        Evidence spans (and the documents' text) instead of ``qrels``: the same as
        ``qrels=SpanJudgments(evidence, documents=documents)``. The id-based metrics then
        judge each chunk by the rule of :class:`~ragmetrics.spans.SpanJudgments`
        (default: any shared character), and every query of the evidence is scored.
{conventions}
        The conventions (:mod:`ragmetrics.policies`); the defaults reproduce trec_eval
        (with ``-c``: judged queries absent from the run score 0 and count).
    preset : str, optional
        Another tool's rules, by name: ``"trec_eval"`` (the defaults),
        ``"trec_eval_no_c"``, ``"beir"``, ``"msmarco"``, ``"ir_measures"`` or ``"spark"``
        (:data:`ragmetrics.policies.PRESETS`): a bundle of the conventions above, and of
        metrics computed under their own (ir_measures' RR@k). A convention the preset
        does not set keeps the value passed; passing one that contradicts it is an error.
        A convention passed at its default value counts as not passed (Python cannot tell
        the two apart), so the preset's value wins there; the command line, which can,
        refuses it. The result names the preset (``Evaluation.preset``).

    Returns
    -------
    Evaluation
        ``.per_query`` (DataFrame) and ``.summary`` (Series), plus the queries that were
        missing or had no relevant doc. Coverage gaps also raise a :class:`CoverageWarning`.

    Examples
    --------
    >>> run = {"q1": ["a", "x", "b"], "q2": ["y", "c"]}
    >>> qrels = {"q1": {"a", "b"}, "q2": {"c"}}
    >>> result = evaluate(run, qrels, ["recall@2", "mrr"])
    >>> result.per_query  # doctest: +NORMALIZE_WHITESPACE
              recall@2  mrr
    query_id
    q1             0.5  1.0
    q2             1.0  0.5
    >>> result.summary
    recall@2    0.75
    mrr         0.75
    dtype: float64

    Spark divides AP@k by min(R, k), not by R:

    >>> evaluate(run, qrels, ["map@1"], preset="spark").summary
    map@1    0.5
    dtype: float64
    """
    given = {"relevance_level": relevance_level, "gain": gain, "ties": ties,
             "duplicates": duplicates, "empty_relevant": empty_relevant,
             "missing_from_run": missing_from_run, "unjudged": unjudged,
             "max_retrieved": max_retrieved, "order_by": order_by,
             "score_precision": score_precision, "query_id_docs": query_id_docs,
             "ap_denominator": ap_denominator, "ideal_order": ideal_order}
    conventions = Conventions(**preset_conventions(preset, given))
    names = [metrics] if isinstance(metrics, (str, MetricSpec)) else list(metrics)
    names = [str(name) if isinstance(name, MetricSpec) else name for name in names]
    if preset is not None and PRESETS[preset].variants:
        return _with_variants(run, qrels, names, conventions, preset,
                              chunks=chunks, evidence=evidence, documents=documents)
    result = _evaluate(run, qrels, names, conventions, chunks=chunks, evidence=evidence,
                       documents=documents)
    return result if preset is None else dataclasses.replace(result, preset=preset)


def _evaluate(run, qrels, names: list, conventions: Conventions, *, chunks, evidence,
              documents) -> Evaluation:
    empty_relevant = conventions.empty_relevant
    missing_from_run = conventions.missing_from_run
    # Evidence spans (ragmetrics.spans) are built on this module: imported when called.
    from ..spans.judging import span_request

    spans = span_request(qrels, names, chunks=chunks, evidence=evidence, documents=documents)
    if spans is not None:
        return spans.evaluate(run, conventions)
    if qrels is None:
        raise InputTypeError("evaluate needs the judgments: qrels, or evidence= with chunks=")
    specs = parse_metrics(names)
    if is_dask_frame(run):  # the same evaluation, partition by partition, on Dask
        return evaluate_on_dask(run, qrels, names, conventions)
    if isinstance(run, RunInParts):  # read and scored a part of whole queries at a time
        from .streaming import evaluate_run_in_parts  # streaming builds on this module

        return evaluate_run_in_parts(run, qrels, names, conventions)
    if isinstance(run, DeferredRun):
        run = run.load()
    run, qrels = as_frame(run), as_frame(qrels)  # Arrow and Polars tables, zero-copy
    columns = prepare_run(run_columns(run, order_by=conventions.order_by, ties=conventions.ties),
                          conventions)
    prepared = rank_and_judge(columns, qrels_columns(qrels), conventions, specs)
    in_run = prepared.coverage.in_run
    values = score(prepared.ranked, specs, empty_relevant=empty_relevant,
                   query_ids=prepared.judged.ids,
                   in_run=in_run if missing_from_run == "skip" else None,
                   zero_for=~in_run if missing_from_run == "zero" and not in_run.all() else None)
    if conventions.ap_denominator == "min_relevant_k":
        values = [apply_ap_denominator(v, prepared.ranked, spec.k)
                  if spec.name == "ap" and spec.k is not None else v
                  for spec, v in zip(specs, values, strict=True)]
    per_query = pd.DataFrame(dict(zip(names, values, strict=True)), index=prepared.index())
    order = prepared.natural_order()
    if missing_from_run == "skip":
        order = order[in_run[order]]
    per_query = per_query.iloc[order]
    result = Evaluation(
        per_query=per_query,
        summary=summarize(per_query, specs),
        conventions=conventions,
        queries_missing_from_run=prepared.ids(~in_run),
        queries_missing_from_qrels=prepared.coverage.unjudged,
        queries_without_relevant=prepared.ids(prepared.empty),
    )
    warn_coverage(result)
    _warn_empty(result, prepared.judged.n, prepared.judged.max_grade)
    _warn_if_nothing_relevant_retrieved(prepared)
    return result


evaluate.__doc__ = evaluate.__doc__.replace("{conventions}\n", parameters_doc() + "\n", 1)


def _with_variants(run, qrels, names: list, conventions: Conventions, preset: str,
                   **inputs) -> Evaluation:
    """Evaluate under a preset whose metrics are not all computed under one set of
    conventions: each variant's metrics in a pass of their own, put back in place."""
    specs = parse_metrics(names)
    result = _evaluate(run, qrels, names, conventions, **inputs)
    per_query = result.per_query.copy()
    for variant in PRESETS[preset].variants:
        chosen = [name for name, spec in zip(names, specs, strict=True)
                  if variant.applies(spec.name, spec.k)]
        if not chosen:
            continue
        own = Conventions(**(conventions.as_dict() | dict(variant.conventions)))
        with warnings.catch_warnings():  # the first pass gave the warnings already
            warnings.simplefilter("ignore", RagmetricsWarning)
            again = _evaluate(run, qrels, list(dict.fromkeys(chosen)), own, **inputs)
        for name in chosen:
            per_query[name] = again.per_query[name].reindex(per_query.index)
    return dataclasses.replace(result, per_query=per_query,
                               summary=per_query.mean(axis=0, skipna=True), preset=preset)


def check_judgments(qrels, metrics=("recall@10", "precision@10", "mrr", "ndcg@10"),
                    **conventions) -> None:
    """Raise the errors that the judgments alone cause, before any run is scored.

    A doc judged twice for one query, a grade that is not a finite number, ids of two
    kinds, gains that overflow a float (for nDCG): the same checks :func:`evaluate`
    makes, here without a run, so that a caller scoring many runs can report them once,
    as the golden set's.

    Examples
    --------
    >>> check_judgments({"q1": {"a": 1}, "q2": {"b": 2}})
    >>> check_judgments({"q1": {"a": float("nan")}})
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputTypeError: qrels['q1']: grade of doc 'a' must be a number, got nan
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)  # no run: every query is missing
        evaluate({}, qrels, metrics, **conventions)


def warn_coverage(result: Evaluation) -> None:
    """The :class:`CoverageWarning` of ``result``, if queries are missing from one side."""
    parts = []
    if result.queries_missing_from_run:
        how = "scored 0" if result.conventions.missing_from_run == "zero" else "left out"
        n = len(result.queries_missing_from_run)
        parts.append(f"{_count(n, 'judged query', 'judged queries')} missing from the run ({how})")
    if result.queries_missing_from_qrels:
        n = len(result.queries_missing_from_qrels)
        parts.append(f"{_count(n)} of the run without judgments (left out)")
    if parts:
        warnings.warn("; ".join(parts) + "; see the Evaluation's attributes", CoverageWarning,
                      stacklevel=3)


def _warn_empty(result: Evaluation, n_judged: int, max_grade: float | None) -> None:
    """Say so when judged queries have no relevant doc and are scored anyway."""
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
        head = (f"{_count(n, 'judged query has', 'judged queries have')} no relevant doc "
                f"(no grade reaches relevance_level {c.relevance_level:g}{top}): {shown}; "
                f"{how}")
    warnings.warn(f"{head} (empty_relevant={c.empty_relevant!r}; 'skip' leaves such "
                  "queries out)", EmptyRelevantWarning, stacklevel=3)


def _warn_if_nothing_relevant_retrieved(prepared: Prepared) -> None:
    """Say so when queries with relevant docs were answered, and never with one of them.

    A retriever that bad is rare; ids written two ways (``"d1"`` and ``"doc-d1"``,
    another case, other whitespace) are not, and they score 0 without any error.
    """
    answered = prepared.coverage.in_run & ~prepared.empty
    ranked = prepared.ranked
    if not answered.any() or ranked.relevant.any() or not len(ranked):
        return
    warn_nothing_retrieved(int(answered.sum()), prepared.depth, stacklevel=4)


def warn_nothing_retrieved(n: int, depth: int | None, *, stacklevel: int = 3) -> None:
    """The :class:`NoRelevantRetrievedWarning` for ``n`` queries read ``depth`` deep."""
    where = "" if depth is None else f" in the top {depth}"
    warnings.warn(
        f"no relevant doc was retrieved{where} for any of the {_count(n)} that have one: "
        "every metric that counts hits is 0; if that is unexpected, check that the run and "
        "the judgments write doc ids the same way",
        NoRelevantRetrievedWarning, stacklevel=stacklevel)


def summarize(per_query: pd.DataFrame, specs) -> pd.Series:
    """The mean of each number column (``specs``: the columns' metrics, in order); the
    geometric mean for the metrics it defines (gm_map, gm_bpref); text columns left out."""
    values = {}
    for column, spec in zip(per_query.columns, specs, strict=True):
        if spec.info.kind == "text":
            continue
        frame = per_query[[column]]
        values[column] = (_geometric_mean(frame) if spec.info.summary == "gmean"
                          else frame.mean(axis=0, skipna=True)).iloc[0]
    return pd.Series(values, index=[c for c in per_query.columns if c in values],
                     dtype=np.float64)


def _geometric_mean(frame: pd.DataFrame) -> pd.Series:
    """exp(mean(log(max(v, 1e-5)))) of each column, NaNs left out (trec_eval's gm_map)."""
    with np.errstate(divide="ignore"):
        logs = np.log(np.maximum(frame.to_numpy(np.float64), GEOMETRIC_FLOOR))
    means = np.nanmean(logs, axis=0) if len(frame) else np.full(frame.shape[1], np.nan)
    return pd.Series(np.exp(means), index=frame.columns, dtype=np.float64)


def _count(n: int, one: str = "query", many: str = "queries") -> str:
    return f"{n} {one if n == 1 else many}"
