"""The metric table: each metric once, as a row of data, with its kernel.

A row says what a metric is (its names, the question it answers, its cut-off, its
parameters, its bounds, its trec_eval names), how deep into a ranking it reads, what it
needs of the judgments, how it is summarized over queries, what it scores for a query
with no relevant doc under ``empty_relevant="article"``, which array kernel computes it
(:mod:`ragmetrics.metrics.kernels` and its siblings) and which plain-Python function
defines it (:mod:`ragmetrics.metrics.reference`). Every front end dispatches through
this table: :func:`ragmetrics.evaluate`, the curves over k, the board, the docs, the
commands.

The table has two families of rows, of one type and read by one name parser:
:data:`METRICS`, the metrics of a ranking of judged ids (each with its kernel), and
:data:`SPAN_METRIC_TABLE`, the metrics of the retrieved text against evidence spans
(``"span_recall@10"``, ``"span_iou@budget=1000"``), which :mod:`ragmetrics.spans`
computes together, for any chunking.

A metric is named by a string such as ``"recall@10"``, ``"rr"``, ``"ndcg@5"``,
``"rbp(p=0.8)"`` or ``"iprec_at_recall@0.2"``: the metric's name (or an alias:
``"mrr"`` for ``"rr"``), its parameters in parentheses
(:mod:`ragmetrics.metrics.params`), then ``@k`` for its cut-off. trec_eval's printed
names (``"P_5"``, ``"ndcg_cut_10"``, ``"Rprec_mult_0.20"``) name the same metrics
(:mod:`ragmetrics.metrics.trec_names`). A span metric's cut may also be a budget of
characters or tokens, ``@budget=N``. :func:`parse_metric` turns the string into a
:class:`MetricSpec`.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ..errors import InputTypeError, InputValueError
from ..validation import check_k
from . import graded, interpolated, judged, kernels, sets
from . import reference as ref
from .params import Param, format_params, parse_params, resolve

__all__ = ["METRICS", "SPAN_METRIC_TABLE", "MetricInfo", "MetricSpec", "add_name_reader",
           "metric_info", "metrics_markdown", "parse_metric", "parse_metrics"]

_GAINS = Param("gains", (), "grade_map", "grade=gain pairs: a gain map (grades not named keep "
               "the convention's gain)")
_BASE = Param("base", 2.0, "log_base", "the base of the log in the discount (cancels out "
              "in nDCG)")
_P = Param("p", 0.9, "probability", "the chance of going on to the next rank (persistence)",
           positional=True)


@dataclass(frozen=True)
class MetricInfo:
    """What one metric is, and where its kernel and its reference definition are.

    Attributes
    ----------
    name : str
        The canonical name, e.g. ``"rr"``.
    aliases : tuple of str
        Other names that parse to this metric, e.g. ``("mrr",)``.
    pretty_name, question, description : str
        For people: ``"Recall@k"``, the question it answers, its formula in words.
    cutoff : {"required", "optional", "none"}
        Whether a name must, may or must not carry ``@k``.
    cutoff_kind : {"rank", "fraction"}
        What ``k`` is: a rank (a positive int) or a fraction (a recall level, a multiple
        of R: ``iprec_at_recall@0.2``).
    budget_cut : bool
        Whether the cut may instead be a budget of units, ``@budget=N``: the longest
        ranked prefix of at most N characters or tokens (the span metrics).
    read_depth : {"k", "num_relevant", "k_times_num_relevant", "all"}
        How deep into a ranking it reads: down to ``k`` (everything when uncut), to the
        query's number of relevant docs (R-precision), to ``k`` times it (Rprec_mult),
        or all of it.
    params : tuple of Param
        Its parameters (:mod:`ragmetrics.metrics.params`), passed to the kernel.
    needs : frozenset of str
        What it needs beyond grades and gains: ``"judged"`` (which docs are judged at
        all, grade 0 and below included).
    uses_gains : bool
        True when grades count as gains (DCG, nDCG), False when only "relevant or not".
    kind : {"number", "text"}
        Its values: numbers, or text (trec_eval's relstring and runid).
    summary : {"mean", "gmean", "sum", "none"}
        How trec_eval summarizes it over queries (its ``all`` line): the mean, the
        geometric mean (gm_map, gm_bpref: values floored at 1e-5), the sum (counts), or
        not at all. :attr:`ragmetrics.Evaluation.summary` takes the mean of every number
        column except the geometric means, which are what they are named.
    average_ties : bool
        Whether ``ties="average"`` can give its exact mean over the orders of the tied
        docs (a closed form, :mod:`ragmetrics.metrics.ties`, or an exact finite sum,
        :mod:`ragmetrics.metrics.ties_counted`); False only for text.
    curves : bool
        Whether :func:`ragmetrics.metric_curves` draws it over k.
    of_the_query : bool
        True for a measure of the query and its judgments, not of the run (num_q,
        num_rel; span_precision_omega, of the chunking): a judged query missing from the
        run keeps its value.
    article_value : float
        Its score for a query with no relevant doc under ``empty_relevant="article"``
        (the source article's code: "nothing to find, so nothing missed" for recall
        and nDCG, 0 otherwise).
    lower_bound, upper_bound : float
        The range of values (``upper_bound`` is infinite for DCG).
    higher_is_better : bool
    trec_eval : tuple of str
        The trec_eval measures it matches, ``k`` standing for the cut-off: e.g.
        ``("ndcg", "ndcg_cut_k")``, uncut and cut.
    family : {"ids", "spans"}
        ``"ids"``: a metric of a ranking of judged ids, computed by its kernel;
        ``"spans"``: a metric of the retrieved text against evidence spans, computed by
        :mod:`ragmetrics.spans` (for every span metric at once), whose kernel only says so;
        ``"subtopics"``: a diversity measure over subtopic judgments
        (:data:`ragmetrics.diversity.DIVERSITY_METRICS`), its kernel over a
        :class:`~ragmetrics.diversity.SubtopicRanking`.
    kernel : callable
        The array kernel, ``kernel(ranked, k, **params) -> numpy.ndarray``: every
        query's value at once.
    reference : callable or None
        The plain-Python per-query function, the readable definition (None where the
        trec_eval conformance suite and pytrec_eval are the only references).
    """

    name: str
    pretty_name: str
    question: str
    description: str
    cutoff: str
    kernel: Callable = field(repr=False)
    reference: Callable | None = field(repr=False)
    aliases: tuple[str, ...] = ()
    cutoff_kind: str = "rank"
    read_depth: str = "k"
    params: tuple[Param, ...] = ()
    needs: frozenset = frozenset()
    uses_gains: bool = False
    kind: str = "number"
    summary: str = "mean"
    average_ties: bool = True
    curves: bool = False
    of_the_query: bool = False
    article_value: float = 0.0
    lower_bound: float = 0.0
    upper_bound: float = 1.0
    higher_is_better: bool = True
    trec_eval: tuple[str, ...] = ()
    family: Literal["ids", "spans", "subtopics"] = "ids"
    budget_cut: bool = False

    def score_one(self, retrieved, relevant, k=None, **conventions) -> float:
        """This metric of one query by its reference function: ``k`` None is uncut."""
        if self.reference is None:
            raise InputValueError(f"{self.name} has no per-query reference function; "
                                  "score it with ragmetrics.evaluate")
        if self.cutoff == "none":
            return self.reference(retrieved, relevant, **conventions)
        return self.reference(retrieved, relevant, k, **conventions)


_JUDGED = frozenset({"judged"})
_INF = float("inf")


def _rows() -> tuple[MetricInfo, ...]:
    return (
        # -- the article's metrics, and their kin ------------------------------------
        MetricInfo(
            name="recall", pretty_name="Recall@k",
            question="Of all the relevant chunks, what fraction is in the top k?",
            description="relevant docs in the top k / all relevant docs",
            cutoff="required", kernel=kernels.recall, reference=ref.recall_at_k,
            article_value=1.0, curves=True, trec_eval=("recall_k",),
        ),
        MetricInfo(
            name="precision", pretty_name="Precision@k",
            question="Of the k chunks returned, what fraction is relevant?",
            description="relevant docs in the top k / k",
            cutoff="required", kernel=kernels.precision, reference=ref.precision_at_k,
            aliases=("p",), curves=True, trec_eval=("P_k",),
        ),
        MetricInfo(
            name="hit_rate", pretty_name="Hit rate@k",
            question="Is at least one relevant chunk in the top k?",
            description="1 if any relevant doc is in the top k, else 0 (also 'success@k')",
            cutoff="required", kernel=kernels.hit_rate, reference=ref.hit_rate_at_k,
            aliases=("success",), curves=True, trec_eval=("success_k",),
        ),
        MetricInfo(
            name="rr", pretty_name="RR",
            question="How high is the first relevant chunk?",
            description="1 / rank of the first relevant doc (0 if none); its mean is MRR",
            cutoff="optional", kernel=kernels.rr, reference=ref.reciprocal_rank,
            aliases=("mrr", "recip_rank"), curves=True, trec_eval=("recip_rank",),
        ),
        MetricInfo(
            name="ndcg", pretty_name="nDCG@k",
            question="How close is the ranking to the best possible order?",
            description="DCG of the top k / DCG of the ideal top k (graded gains, log2 "
            "discount; a gain map: ndcg(1=3,2=9))",
            cutoff="optional", kernel=kernels.ndcg, reference=ref.ndcg_at_k,
            params=(_BASE, _GAINS), uses_gains=True, article_value=1.0, curves=True,
            trec_eval=("ndcg", "ndcg_cut_k"),
        ),
        MetricInfo(
            name="dcg", pretty_name="DCG@k",
            question="How much gain does the ranking collect, discounted by rank?",
            description="sum of gain / log_b(rank + 1) over the top k (b = 2; dcg(base=10))",
            cutoff="optional", kernel=kernels.dcg, reference=ref.dcg_at_k,
            params=(_BASE, _GAINS), uses_gains=True, upper_bound=_INF, curves=True,
            trec_eval=("dcg",),
        ),
        MetricInfo(
            name="idcg", pretty_name="Ideal DCG@k",
            question="What is the best DCG@k any ranking could reach?",
            description="DCG of the top k of the ideal ranking (every judged doc, best "
            "gain first)",
            cutoff="optional", kernel=kernels.idcg, reference=ref.ideal_dcg_at_k,
            params=(_BASE, _GAINS), uses_gains=True, upper_bound=_INF,
            trec_eval=("ideal_dcg",),
        ),
        MetricInfo(
            name="ap", pretty_name="AP",
            question="How high are all the relevant chunks, on average?",
            description="mean of Precision@i at each relevant doc's rank i, over all "
            "relevant; its mean is MAP",
            cutoff="optional", kernel=kernels.ap, reference=ref.average_precision,
            aliases=("map",), curves=True, trec_eval=("map", "map_cut_k"),
        ),
        MetricInfo(
            name="gm_map", pretty_name="GM-AP",
            question="How high are the relevant chunks, with every query counting?",
            description="AP, summarized by the geometric mean over queries (values "
            "floored at 1e-5, as trec_eval)",
            cutoff="none", kernel=kernels.ap, reference=ref.average_precision, summary="gmean",
            trec_eval=("gm_map",),
        ),
        MetricInfo(
            name="r_precision", pretty_name="R-precision",
            question="With as many slots as relevant chunks, what fraction is filled?",
            description="relevant docs in the top R / R, where R = number of relevant docs",
            cutoff="none", kernel=kernels.r_precision, reference=ref.r_precision,
            aliases=("rprec",), read_depth="num_relevant", curves=True, trec_eval=("Rprec",),
        ),
        MetricInfo(
            name="rprec_mult", pretty_name="R-precision at x R",
            question="With x times as many slots as relevant chunks, what fraction is "
            "filled?",
            description="Precision@c, c = int(x R + 0.9) (R-precision at x = 1)",
            cutoff="required", cutoff_kind="fraction", kernel=kernels.rprec_mult,
            reference=ref.rprec_mult, read_depth="k_times_num_relevant",
            trec_eval=("Rprec_mult_k",),
        ),
        MetricInfo(
            name="relative_precision", pretty_name="Relative precision@k",
            question="Of the top k, what fraction is relevant, out of what could be?",
            description="relevant docs in the top k / min(k, R)",
            cutoff="required", kernel=kernels.relative_precision,
            reference=ref.relative_precision_at_k, aliases=("relative_p",), curves=True,
            trec_eval=("relative_P_k",),
        ),
        MetricInfo(
            name="iprec_at_recall", pretty_name="Interpolated precision at recall x",
            question="How precise is the ranking once it has found a share x of the "
            "relevant chunks?",
            description="the best precision at any recall >= x (x in [0, 1]; at the "
            "round(x R)-th relevant doc)",
            cutoff="required", cutoff_kind="fraction", kernel=interpolated.iprec_at_recall,
            reference=ref.iprec_at_recall, aliases=("iprec",), read_depth="all",
            trec_eval=("iprec_at_recall_k",),
        ),
        MetricInfo(
            name="11pt_avg", pretty_name="11-point interpolated average precision",
            question="How precise is the ranking across the recall levels 0, 0.1, ..., 1?",
            description="mean interpolated precision at recall 0, 0.1, ..., 1 (or the "
            "levels given: 11pt_avg(0.2,0.5,0.8))",
            cutoff="none", kernel=interpolated.eleven_point_average,
            reference=ref.eleven_point_average, read_depth="all",
            params=(Param("levels", interpolated.ELEVEN_POINTS, "numbers",
                          "the recall levels", positional=True),),
            trec_eval=("11pt_avg",),
        ),
        # -- incomplete judgments ---------------------------------------------------
        MetricInfo(
            name="bpref", pretty_name="bpref",
            question="How often does a relevant chunk rank above a judged non-relevant "
            "one (ignoring unjudged chunks)?",
            description="mean over relevant docs of 1 - (judged non-relevant docs above "
            "it, at most R) / min(judged non-relevant, R)",
            cutoff="none", kernel=judged.bpref, reference=ref.bpref, needs=_JUDGED,
            trec_eval=("bpref",),
        ),
        MetricInfo(
            name="gm_bpref", pretty_name="GM-bpref",
            question="bpref, with every query counting",
            description="bpref, summarized by the geometric mean over queries (values "
            "floored at 1e-5, as trec_eval)",
            cutoff="none", kernel=judged.bpref, reference=ref.bpref, needs=_JUDGED,
            summary="gmean", trec_eval=("gm_bpref",),
        ),
        MetricInfo(
            name="infap", pretty_name="infAP",
            question="What AP would complete judgments give, from a random sample of "
            "them?",
            description="inferred AP (Yilmaz and Aslam): precision at each relevant doc "
            "estimated from the judged docs above it",
            cutoff="none", kernel=judged.infap, reference=ref.infap, needs=_JUDGED,
            aliases=("inf_ap",), trec_eval=("infAP",),
        ),
        MetricInfo(
            name="unj", pretty_name="Unjudged@k",
            question="What share of the top k has no judgment?",
            description="unjudged docs (not judged, or judged below 0) in the top k / k",
            cutoff="required", kernel=judged.unjudged_at_k, reference=ref.unjudged_at_k,
            needs=_JUDGED, aliases=("unjudged",), higher_is_better=False, curves=True,
            trec_eval=("unj_k",),
        ),
        MetricInfo(
            name="judged", pretty_name="Judged@k",
            question="What share of the top k has a judgment?",
            description="judged docs (any grade) in the top k / k",
            cutoff="required", kernel=judged.judged_share, reference=ref.judged_at_k,
            needs=_JUDGED, curves=True,
        ),
        MetricInfo(
            name="num_nonrel_judged_ret", pretty_name="Judged non-relevant retrieved",
            question="How many retrieved chunks are judged not relevant?",
            description="count of retrieved docs judged with a grade below the level",
            cutoff="none", kernel=judged.num_nonrel_judged_ret, reference=ref.num_nonrel_judged_ret,
            needs=_JUDGED, summary="sum", upper_bound=_INF, higher_is_better=False,
            trec_eval=("num_nonrel_judged_ret",),
        ),
        # -- graded measures beyond DCG ----------------------------------------------
        MetricInfo(
            name="err", pretty_name="ERR@k",
            question="How soon does a user who stops at a good enough chunk stop?",
            description="expected reciprocal rank (Chapelle et al. 2009), stopping chance "
            "(2^g - 1) / 2^g_max (err(max_grade=4); a map: err(1=0.2,2=0.6))",
            cutoff="optional", kernel=graded.err, reference=ref.err_at_k,
            params=(Param("max_grade", None, "optional", "g_max (default: the highest "
                          "grade judged, over all queries)"),
                    Param("chances", (), "grade_map", "grade=chance pairs",
                          within=(0.0, 1.0))),
            curves=True,
        ),
        MetricInfo(
            name="rbp", pretty_name="RBP(p)",
            question="How much gain does a user who goes on with chance p collect?",
            description="rank-biased precision (Moffat and Zobel): (1 - p) sum of gain "
            "p^(rank - 1), gains scaled into [0, 1]; p = 0.9",
            cutoff="optional", kernel=graded.rbp, reference=ref.rbp, uses_gains=True,
            params=(_P, _GAINS), needs=_JUDGED, trec_eval=("rbp",),
        ),
        MetricInfo(
            name="rbp_resid", pretty_name="RBP residual",
            question="How much could RBP still rise if every unjudged chunk were "
            "relevant?",
            description="(1 - p) sum of p^(rank - 1) over unjudged docs, plus p^n past the "
            "end (0 if nothing retrieved is unjudged, as trec_eval)",
            cutoff="none", kernel=judged.rbp_resid, reference=ref.rbp_residual,
            params=(_P,), needs=_JUDGED, higher_is_better=False, trec_eval=("rbp_resid",),
        ),
        MetricInfo(
            name="ndcg_rel", pretty_name="nDCG averaged over relevant docs",
            question="How close to ideal is the ranking at each relevant chunk?",
            description="DCG@i / IDCG@i averaged over the ranks i of the docs with a gain "
            "(trec_eval's experimental ndcg_rel)",
            cutoff="none", kernel=graded.ndcg_rel, reference=ref.ndcg_rel, uses_gains=True,
            params=(_GAINS,), trec_eval=("ndcg_rel",),
        ),
        MetricInfo(
            name="rndcg", pretty_name="nDCG averaged at the R levels",
            question="How close to ideal is the ranking where the ideal's gain drops?",
            description="nDCG averaged at the ranks where the ideal ranking's gain changes "
            "(trec_eval's experimental Rndcg)",
            cutoff="none", kernel=graded.rndcg, reference=ref.rndcg, uses_gains=True,
            params=(_GAINS,), trec_eval=("Rndcg",),
        ),
        MetricInfo(
            name="g", pretty_name="G",
            question="How well does the gain collected keep up with the ideal's?",
            description="sum of gain / log2(2 + ideal gain so far - gain so far), over the "
            "ideal's total (trec_eval's experimental G)",
            cutoff="none", kernel=graded.g, reference=ref.g_measure, uses_gains=True,
            params=(_GAINS,), trec_eval=("G",),
        ),
        MetricInfo(
            name="bing", pretty_name="binG",
            question="How few non-relevant chunks come before each relevant one?",
            description="mean over relevant docs of 1 / log2(2 + non-relevant docs above "
            "it) (trec_eval's experimental binG)",
            cutoff="none", kernel=graded.bing, reference=ref.bing, trec_eval=("binG",),
        ),
        # -- the ranking as a set: counts and set measures -------------------------------
        MetricInfo(
            name="num_q", pretty_name="Queries",
            question="How many queries are scored?",
            description="1 per query; summed, the number of queries",
            cutoff="none", kernel=sets.num_q, reference=ref.num_q, summary="sum",
            of_the_query=True, article_value=1.0, upper_bound=_INF, trec_eval=("num_q",),
        ),
        MetricInfo(
            name="num_ret", pretty_name="Retrieved",
            question="How many chunks were retrieved?",
            description="count of retrieved docs (after max_retrieved and unjudged)",
            cutoff="none", kernel=sets.num_ret, reference=ref.num_ret, read_depth="all",
            summary="sum", upper_bound=_INF, trec_eval=("num_ret",),
        ),
        MetricInfo(
            name="num_rel", pretty_name="Relevant",
            question="How many relevant chunks does the query have?",
            description="count of judged docs whose grade reaches the level",
            cutoff="none", kernel=sets.num_rel, reference=ref.num_rel, summary="sum",
            of_the_query=True, upper_bound=_INF, trec_eval=("num_rel",),
        ),
        MetricInfo(
            name="num_rel_ret", pretty_name="Relevant retrieved",
            question="How many relevant chunks were retrieved?",
            description="count of relevant docs retrieved",
            cutoff="none", kernel=sets.num_rel_ret, reference=ref.num_rel_ret, summary="sum",
            upper_bound=_INF, trec_eval=("num_rel_ret",),
        ),
        MetricInfo(
            name="set_precision", pretty_name="Set precision",
            question="What fraction of everything retrieved is relevant?",
            description="relevant docs retrieved / docs retrieved",
            cutoff="none", kernel=sets.set_precision, reference=ref.set_precision, aliases=("set_p",),
            trec_eval=("set_P",),
        ),
        MetricInfo(
            name="set_recall", pretty_name="Set recall",
            question="What fraction of the relevant chunks was retrieved at all?",
            description="relevant docs retrieved / relevant docs",
            cutoff="none", kernel=sets.set_recall, reference=ref.set_recall, trec_eval=("set_recall",),
        ),
        MetricInfo(
            name="set_relative_precision", pretty_name="Set relative precision",
            question="What fraction of the retrieved set is relevant, out of what could be?",
            description="relevant docs retrieved / min(retrieved, R)",
            cutoff="none", kernel=sets.set_relative_precision, reference=ref.set_relative_precision,
            aliases=("set_relative_p",), trec_eval=("set_relative_P",),
        ),
        MetricInfo(
            name="set_ap", pretty_name="Set AP",
            question="Set precision times set recall",
            description="(relevant retrieved)^2 / (retrieved x R)",
            cutoff="none", kernel=sets.set_ap, reference=ref.set_ap, aliases=("set_map",),
            trec_eval=("set_map",),
        ),
        MetricInfo(
            name="set_f", pretty_name="Set F",
            question="How well does the retrieved set balance precision and recall?",
            description="(1 + beta) P R / (beta P + R) over the retrieved set; beta = 1",
            cutoff="none", kernel=sets.set_f, reference=ref.set_f,
            params=(Param("beta", 1.0, "positive", "the weight of recall", positional=True),),
            trec_eval=("set_F",),
        ),
        MetricInfo(
            name="utility", pretty_name="Utility",
            question="What is the retrieved set worth, at a price per kind of doc?",
            description="a (relevant retrieved) + b (non-relevant retrieved) + c (relevant "
            "missed) + d (non-relevant left out); utility(1,-1,0,0)",
            cutoff="none", kernel=sets.utility, reference=ref.utility, read_depth="all",
            params=(*(Param(name, default, "number", what, positional=True)
                      for name, default, what in (
                          ("a", 1.0, "each relevant doc retrieved"),
                          ("b", -1.0, "each non-relevant doc retrieved"),
                          ("c", 0.0, "each relevant doc missed"),
                          ("d", 0.0, "each non-relevant doc not retrieved"))),
                    Param("num_docs", 0.0, "number", "docs in the collection (trec_eval -N)")),
            lower_bound=-_INF, upper_bound=_INF, trec_eval=("utility",),
        ),
        # -- text ------------------------------------------------------------------------
        MetricInfo(
            name="relstring", pretty_name="Judgments of the top docs",
            question="What were the top docs judged?",
            description="one character per doc of the top 10: its grade, '-' not judged, "
            "'.' judged below 0",
            cutoff="none", kernel=judged.relstring, reference=ref.relstring, needs=_JUDGED,
            params=(Param("length", 10, "count", "how many docs", positional=True),),
            kind="text", summary="none", average_ties=False, trec_eval=("relstring",),
        ),
        MetricInfo(
            name="runid", pretty_name="Run name",
            question="Which run is this?",
            description="the run's name (its run_name column), as trec_eval prints it",
            cutoff="none", kernel=lambda r, k: np.full(r.n_queries, r.run_id or "", object),
            reference=None, kind="text", summary="none", trec_eval=("runid",),
        ),
    )


METRICS: dict[str, MetricInfo] = {info.name: info for info in _rows()}


def _needs_evidence(name: str) -> Callable:
    """The kernel of a span metric: ranked ids hold no text, so it says what does."""
    def kernel(ranked, k=None, **params):
        raise InputValueError(
            f"{name!r} measures retrieved text against evidence spans: evaluate it with "
            "evidence= and the run's chunking as chunks= (or a SpanJudgments), or with "
            "ragmetrics.spans.span_metrics")
    return kernel


def _span_rows() -> tuple[MetricInfo, ...]:
    def row(name, pretty_name, question, description, **fields):
        return MetricInfo(name=name, pretty_name=pretty_name, question=question,
                          description=description, kernel=_needs_evidence(name),
                          reference=None, family="spans", **fields)

    return (
        row("span_recall", "Span recall@k",
            "What share of the evidence's text is in the retrieved chunks?",
            "share of the evidence's characters (or tokens) that were retrieved",
            cutoff="optional", budget_cut=True, article_value=1.0),
        row("span_precision", "Span precision@k",
            "What share of the retrieved text is evidence?",
            "share of the retrieved characters (or tokens) that are evidence",
            cutoff="optional", budget_cut=True),
        row("span_iou", "Span IoU@k",
            "How closely does the retrieved text match the evidence?",
            "retrieved and evidence, over retrieved or evidence (Jaccard)",
            cutoff="optional", budget_cut=True),
        row("span_precision_omega", "Span precision Ω",
            "What is the best precision this chunking allows at full recall?",
            "IoU of all chunks touching evidence: the best a chunking allows",
            cutoff="none", of_the_query=True),
        row("span_units_sent", "Units sent@k",
            "How much text goes to the model per question?",
            "characters (or tokens) of the chunks kept at the cut, each chunk whole: the "
            "cost of the context, not a measure of its quality",
            cutoff="optional", budget_cut=True, upper_bound=_INF, higher_is_better=False),
    )


#: The span metrics (:mod:`ragmetrics.spans`): name -> row, rows of the same type.
SPAN_METRIC_TABLE: dict[str, MetricInfo] = {info.name: info for info in _span_rows()}

_BY_NAME = {alias: info for table in (METRICS, SPAN_METRIC_TABLE) for info in table.values()
            for alias in (info.name, *info.aliases)}


def metric_info(name: str) -> MetricInfo:
    """The row of a metric, by its name or an alias (``"mrr"`` is ``"rr"``)."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise InputValueError(f"unknown metric {name!r}{_suggest(str(name))}") from None


@dataclass(frozen=True)
class MetricSpec:
    """A metric with its cut-off and parameters: ``MetricSpec("ndcg", 10)`` is
    ``"ndcg@10"``, ``MetricSpec("rbp", params=(("p", 0.8),))`` is ``"rbp(p=0.8)"``,
    ``MetricSpec("span_iou", budget=1000)`` is ``"span_iou@budget=1000"``.

    ``name`` is canonical (``"rr"`` for ``"mrr"``); ``k`` is None for an uncut metric;
    ``params`` holds the parameters written, checked (the others take their defaults);
    ``budget`` is a span metric's cut in units instead of ``k``.
    """

    name: str
    k: int | float | None = None
    written: str | None = field(default=None, compare=False, repr=False)  # "mrr", "map"
    params: tuple = ()
    budget: int | None = None

    @property
    def info(self) -> MetricInfo:
        row = METRICS.get(self.name)
        return SPAN_METRIC_TABLE[self.name] if row is None else row

    @property
    def arguments(self) -> dict:
        """The kernel's keyword arguments: every parameter, written or default."""
        return resolve(self.params, self.info.params)

    @property
    def needs(self) -> frozenset:
        """What the kernel needs of the judgments (a gain map needs every judgment)."""
        needs = self.info.needs
        if any(p.kind == "grade_map" and v for p, (_, v) in self._written_params()):
            needs = needs | _JUDGED
        return needs

    @property
    def bounds(self) -> tuple[float, float]:
        """The range this metric's values can take with these parameters: the row's
        ``(lower_bound, upper_bound)``, but with no lower bound when a gain map gives a
        grade a negative gain (a doc of that grade retrieved pulls DCG, and so nDCG, G
        and RBP, below 0, as in trec_eval).

        Examples
        --------
        >>> MetricSpec("ndcg", 10).bounds, parse_metric("ndcg(2=-3)@10").bounds
        ((0.0, 1.0), (-inf, 1.0))
        """
        low, high = self.info.lower_bound, self.info.upper_bound
        if self.info.uses_gains and any(
                p.kind == "grade_map" and any(gain < 0 for _, gain in value)
                for p, (_, value) in self._written_params()):
            low = -_INF
        return low, high

    def _written_params(self):
        by_name = {p.name: p for p in self.info.params}
        return [(by_name[name], (name, value)) for name, value in self.params]

    @property
    def pretty_name(self) -> str:
        """``"nDCG@10"``; a mean's own name where one was asked for (``"mrr"``: MRR)."""
        pretty = _MEAN_NAMES.get(self.written, self.info.pretty_name)
        shown = format_params(self.params, self.info.params)
        if shown:
            base, at, rest = pretty.partition("@k")
            pretty = f"{base}({shown}){at}{rest}"
        if self.budget is not None:
            return pretty.replace("@k", "") + f"@budget={self.budget}"
        if self.k is None:
            return pretty.replace("@k", "")
        k = _k_text(self.k)
        return pretty.replace("@k", f"@{k}") if "@k" in pretty else f"{pretty}@{k}"

    def depth(self, num_relevant: np.ndarray) -> int | None:
        """How deep it reads any query's ranking: ``k``, None (everything), or R."""
        read = self.info.read_depth
        most = int(num_relevant.max(initial=0))
        if read == "num_relevant":
            return max(most, 1)
        if read == "k_times_num_relevant":
            return max(math.floor(self.k * most + 0.9), 1)
        if read == "all":
            return None
        return self.k

    def __repr__(self) -> str:
        params = f", params={self.params!r}" if self.params else ""
        budget = f", budget={self.budget!r}" if self.budget is not None else ""
        return f"MetricSpec(name={self.name!r}, k={self.k!r}{params}{budget})"

    def __str__(self) -> str:
        shown = format_params(self.params, self.info.params)
        text = self.name + (f"({shown})" if shown else "")
        if self.budget is not None:
            return f"{text}@budget={self.budget}"
        return text if self.k is None else f"{text}@{_k_text(self.k)}"


def _k_text(k) -> str:
    if isinstance(k, float):
        text = repr(k)
        return text.removesuffix(".0")
    return str(k)


# Names of a mean over queries that some metrics go by: "mrr" is the mean of RR.
_MEAN_NAMES = {"mrr": "MRR", "map": "MAP"}

_SPEC = re.compile(r"^(?P<name>[A-Za-z0-9_]+)(?:\((?P<args>[^()]*)\))?(?:@(?P<k>.*))?$")


#: The names (and aliases) of the diversity measures, whose rows live in
#: :data:`ragmetrics.diversity.DIVERSITY_METRICS` (they read subtopic judgments, so
#: ``evaluate`` does not take them): an unknown metric with one of these names is pointed
#: there. tests/unit/diversity checks that this set is that table's.
DIVERSITY_NAMES = frozenset({
    "alpha_dcg", "alpha_ndcg", "err_ia", "nerr_ia", "nrbp", "nnrbp", "p_ia", "precision_ia",
    "strec", "subtopic_recall", "coverage", "map_ia", "ap_ia",
})


def _suggest(text: str) -> str:
    base = text.strip().lower().split("@")[0].split("(")[0].replace("-", "_")
    if base in DIVERSITY_NAMES:
        return (f"; {base} is a diversity measure over subtopic judgments: "
                "ragmetrics.diversity.evaluate_diversity(run, judgments, metrics), or "
                "`ragmetrics ndeval QRELS RUN`")
    # The name first ("ndgc" is "ndcg"), then the whole text ("recal10" is "recall@10"),
    # among the names of the family the text names (span metrics start with "span_").
    family = "spans" if text.strip().startswith("span_") else "ids"
    names = {n: info for n, info in _BY_NAME.items() if info.family == family}
    close = difflib.get_close_matches(text.lower().split("@")[0].split("(")[0],
                                      list(names), n=1, cutoff=0.6)
    if close and names[close[0]].cutoff == "required":
        close = [f"{close[0]}@10"]
    if not close:
        candidates = [f"{n}@10" if info.cutoff == "required" else n
                      for n, info in names.items()]
        close = difflib.get_close_matches(text.lower(), candidates, n=1, cutoff=0.4)
    return f"; did you mean {close[0]!r}?" if close else ""


#: Readers of metric names written in another tool's words: each takes the name and
#: gives its :class:`MetricSpec`, or None. :mod:`ragmetrics.metrics.trec_names` adds
#: trec_eval's (it is built on this module, so this module does not import it).
_NAME_READERS: list = []


def add_name_reader(read) -> None:
    """Have :func:`parse_metric` also read the names ``read(text) -> MetricSpec | None``
    reads (tried in order, after the table's own names)."""
    if read not in _NAME_READERS:
        _NAME_READERS.append(read)


def parse_metric(text: str) -> MetricSpec:
    """Parse a metric name such as ``"recall@10"``, ``"mrr"``, ``"rbp(p=0.8)"``,
    trec_eval's ``"P_5"``, or a span metric's, ``"span_iou@10"`` or
    ``"span_recall@budget=1000"``.

    Examples
    --------
    >>> parse_metric("ndcg@10")
    MetricSpec(name='ndcg', k=10)
    >>> parse_metric("mrr")  # an alias: the mean of the reciprocal rank
    MetricSpec(name='rr', k=None)
    >>> str(parse_metric("ndcg(1=3, 2=9)@10")), str(parse_metric("iprec_at_recall@0.2"))
    ('ndcg(1=3,2=9)@10', 'iprec_at_recall@0.2')
    >>> str(parse_metric("Rprec_mult_0.20")), str(parse_metric("ndcg_cut_10"))
    ('rprec_mult@0.2', 'ndcg@10')
    >>> parse_metric("span_iou@budget=1000")
    MetricSpec(name='span_iou', k=None, budget=1000)
    >>> parse_metric("ndgc@10")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: unknown metric 'ndgc@10'; did you mean 'ndcg'?
    """
    if isinstance(text, MetricSpec):
        return text
    if not isinstance(text, str):
        raise InputTypeError(f"a metric name must be a str such as 'recall@10', got {text!r}")
    stripped = text.strip()
    match = _SPEC.match(stripped)
    if match is None or match["name"] not in _BY_NAME:
        for read in _NAME_READERS:  # trec_eval's printed names ("P_5"), and any other
            spec = read(stripped)
            if spec is not None:
                return spec
        if stripped.startswith("span_"):
            raise InputValueError(
                f"unknown span metric {text!r}: a name is span_ + one of "
                + ", ".join(n.removeprefix("span_") for n in SPAN_METRIC_TABLE)
                + f", then @k, @budget=N or nothing{_suggest(text)}")
        raise InputValueError(f"unknown metric {text!r}{_suggest(text)}")
    name, k_text = match["name"], match["k"]
    info = _BY_NAME[name]
    if k_text is not None and k_text.startswith("budget=") and info.cutoff != "none":
        if not info.budget_cut:
            raise InputValueError(f"metric {name!r} takes no budget; got {text!r}")
        if not re.fullmatch(r"[0-9]+", k_text.removeprefix("budget=")):
            raise InputValueError(f"the budget in {text!r} must be a positive int, got "
                                  f"{k_text.removeprefix('budget=')!r}")
        budget = check_k(int(k_text.removeprefix("budget=")), name=f"the budget in {text!r}")
        return MetricSpec(info.name, written=name, budget=budget)
    if match["args"] is not None and not info.params:
        raise InputValueError(f"metric {name!r} takes no parameters; got {text!r}")
    params = parse_params(match["args"], info.params, stripped)
    if k_text is None:
        if info.cutoff == "required":
            example = "0.2" if info.cutoff_kind == "fraction" else "10"
            raise InputValueError(
                f"metric {text!r} needs a cut-off: write it as '{name}@k', e.g. "
                f"'{name}@{example}'"
            )
        return MetricSpec(info.name, written=name, params=params)
    if info.cutoff == "none":
        raise InputValueError(f"metric {name!r} takes no cut-off; got {text!r}, write {name!r}")
    return MetricSpec(info.name, _cut_off(info, k_text, text), written=name, params=params)


def _cut_off(info: MetricInfo, k_text: str, text: str):
    if info.cutoff_kind == "fraction":
        try:
            k = float(k_text)
        except ValueError:
            k = math.nan
        recall_level = info.name == "iprec_at_recall"
        if not math.isfinite(k) or k < 0 or (recall_level and k > 1):
            what = "a recall level (0 to 1)" if recall_level else "a number >= 0"
            raise InputValueError(f"the cut-off in {text!r} must be {what}, got {k_text!r}")
        return k
    if not re.fullmatch(r"[0-9]+", k_text):
        raise InputValueError(f"the cut-off in {text!r} must be a positive int, got {k_text!r}")
    return check_k(int(k_text), name=f"the cut-off in {text!r}")


def parse_metrics(names) -> list[MetricSpec]:
    """Parse a list of metric names, refusing repeats (columns must be unique).

    ``"mrr"`` and ``"rr"`` are one metric, so asking for both is a repeat.
    """
    if isinstance(names, str):
        names = [names]
    names = list(names)
    specs = [parse_metric(n) for n in names]
    if not specs:
        raise InputValueError(
            "metrics must name at least one metric, e.g. ['recall@10', 'ndcg@10']")
    seen: dict[MetricSpec, str] = {}
    for name, spec in zip(names, specs, strict=True):
        if spec in seen:
            same = "" if seen[spec] == name else f" (as {seen[spec]!r})"
            raise InputValueError(f"metric {name!r} is requested twice{same}")
        seen[spec] = name
    return specs


def metrics_markdown() -> str:
    """README's metrics table, from :data:`METRICS`: names, questions, trec_eval names."""
    rows = ["| name in `evaluate` | metric | the question it answers | trec_eval |",
            "|---|---|---|---|"]
    for info in METRICS.values():
        names = [info.name, *info.aliases]
        k = "x" if info.cutoff_kind == "fraction" else "k"
        if info.cutoff == "required":
            shown = [f"`{n}@{k}`" for n in names]
        elif info.cutoff == "optional":
            shown = [f"`{n}`, `{n}@{k}`" for n in names]
        else:
            shown = [f"`{n}`" for n in names]
        if info.params:
            shown[0] += " (" + ", ".join(
                f"`{p.name}`" if p.kind != "grade_map" else "`grade=value`"
                for p in info.params) + ")"
        trec = ", ".join(f"`{t}`" for t in info.trec_eval) or "(none)"
        means = [_MEAN_NAMES[a] for a in info.aliases if a in _MEAN_NAMES]
        pretty = info.pretty_name + (f" (its mean: {means[0]})" if means else "")
        rows.append(f"| {', '.join(shown)} | {pretty} | {info.question} | {trec} |")
    return "\n".join(rows)
