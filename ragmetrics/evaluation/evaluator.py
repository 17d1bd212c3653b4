"""Many-query evaluation: every query of a run, every metric, in one call.

:func:`evaluate` is the one entry: it settles the conventions (and a preset), then hands
the run to what evaluates it: evidence spans to :mod:`ragmetrics.spans.judging` (which
adds itself with :func:`add_judgment_reader`), a Dask frame to
:mod:`~ragmetrics.evaluation.on_dask`, a run in parts to
:mod:`~ragmetrics.evaluation.streaming`, anything else to
:mod:`~ragmetrics.evaluation.in_memory`. Those build on the modules below this one,
never on it; the result is an :class:`~ragmetrics.evaluation.result.Evaluation`.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Unpack

from ..conventions import ConventionKeywords, Conventions, accepts_conventions
from ..errors import InputTypeError, RagmetricsWarning
from ..metrics.registry import MetricSpec, parse_metrics
from ..presets import PRESETS, settle_conventions
from .in_memory import evaluate_in_memory
from .on_dask import evaluate_on_dask, is_dask_frame
from .parts import RunInParts
from .result import Evaluation
from .streaming import evaluate_run_in_parts

__all__ = ["Evaluation", "add_judgment_reader", "check_judgments", "evaluate"]


#: Readers of judgments that are not qrels of chunk ids: each takes ``(qrels, names, *,
#: chunks, evidence, documents)`` and gives a request with ``.evaluate(run, conventions)``,
#: or None when the call is not of its kind. :mod:`ragmetrics.spans.judging` adds evidence
#: spans' (it builds on this package, so this module does not import it).
_JUDGMENT_READERS: list = []


def add_judgment_reader(read) -> None:
    """Have :func:`evaluate` hand the calls that ``read`` recognises to what it returns."""
    if read not in _JUDGMENT_READERS:
        _JUDGMENT_READERS.append(read)


@accepts_conventions
def evaluate(
    run,
    qrels=None,
    metrics=("recall@10", "precision@10", "mrr", "ndcg@10"),
    *,
    chunks=None,
    evidence=None,
    documents=None,
    preset: str | None = None,
    **conventions: Unpack[ConventionKeywords],
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
        The conventions (:mod:`ragmetrics.conventions`); the defaults reproduce trec_eval
        (with ``-c``: judged queries absent from the run score 0 and count).
    preset : str, optional
        Another tool's rules, by name: ``"trec_eval"`` (the defaults),
        ``"trec_eval_no_c"``, ``"beir"``, ``"msmarco"``, ``"ir_measures"`` or ``"spark"``
        (:data:`ragmetrics.presets.PRESETS`): a bundle of the conventions above, and of
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
    settled = settle_conventions("evaluate", preset, conventions)
    names = [metrics] if isinstance(metrics, (str, MetricSpec)) else list(metrics)
    names = [str(name) if isinstance(name, MetricSpec) else name for name in names]
    if preset is not None and PRESETS[preset].variants:
        return _with_variants(run, qrels, names, settled, preset,
                              chunks=chunks, evidence=evidence, documents=documents)
    result = _evaluate(run, qrels, names, settled, chunks=chunks, evidence=evidence,
                       documents=documents)
    return result if preset is None else dataclasses.replace(result, preset=preset)


def _evaluate(run, qrels, names: list, conventions: Conventions, *, chunks, evidence,
              documents) -> Evaluation:
    for read in _JUDGMENT_READERS:  # evidence spans (ragmetrics.spans), and any other kind
        request = read(qrels, names, chunks=chunks, evidence=evidence, documents=documents)
        if request is not None:
            return request.evaluate(run, conventions)
    if qrels is None:
        raise InputTypeError("evaluate needs the judgments: qrels, or evidence= with chunks=")
    parse_metrics(names)  # a bad name is an error before any run is read
    if is_dask_frame(run):  # the same evaluation, partition by partition, on Dask
        return evaluate_on_dask(run, qrels, names, conventions)
    if isinstance(run, RunInParts):  # read and scored a part of whole queries at a time
        return evaluate_run_in_parts(run, qrels, names, conventions)
    return evaluate_in_memory(run, qrels, names, conventions)



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
