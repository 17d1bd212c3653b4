"""The diversity measures' table: one row per measure, with its kernel and its definition.

The rows are :class:`~ragmetrics.MetricInfo` rows of the ``"subtopics"`` family: they
read subtopic judgments (:class:`~ragmetrics.diversity.SubtopicJudgments`), so they are
scored by :func:`ragmetrics.diversity.evaluate_diversity`, not by
:func:`ragmetrics.evaluate`. A name is the measure's (``"alpha_ndcg@10"``) or ndeval's
(``"alpha-nDCG@10"``), with parameters in parentheses (``"alpha_ndcg(alpha=0.8)@10"``).

The presets (:data:`DIVERSITY_PRESETS`) are the tools' rules: how a run is ordered, what
a negative judgment means, and what alpha-DCG@1 and ERR-IA@1 are.

Examples
--------
>>> parse_diversity_metric("alpha-nDCG@10")
DiversitySpec(name='alpha_ndcg', k=10, params=())
>>> str(parse_diversity_metric("nrbp(alpha=0.8,beta=0.9)"))
'nrbp(alpha=0.8,beta=0.9)'
>>> [name for name in DIVERSITY_METRICS]
['alpha_dcg', 'alpha_ndcg', 'err_ia', 'nerr_ia', 'nrbp', 'nnrbp', 'p_ia', 'strec', 'map_ia']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputTypeError, InputValueError
from ..metrics.params import Param, format_params, parse_params
from ..metrics.registry import MetricInfo
from ..validation import check_k
from . import novelty_kernels as kernels
from . import novelty_reference as ref

__all__ = ["DIVERSITY_METRICS", "DIVERSITY_PRESETS", "DiversityPreset", "DiversitySpec",
           "diversity_markdown", "parse_diversity_metric"]

_ALPHA = Param("alpha", 0.5, "share", "redundancy: a doc's gain for a subtopic already "
               "covered c times is (1 - alpha)^c")
_BETA = Param("beta", 0.5, "share", "patience: the chance of going on to the next rank")


def _row(name, pretty, question, description, kernel, reference, *, cutoff="required",
         params=(_ALPHA,), aliases=(), ndeval=None, upper_bound=1.0) -> MetricInfo:
    return MetricInfo(name=name, pretty_name=pretty, question=question,
                      description=description, cutoff=cutoff, kernel=kernel,
                      reference=reference, params=params, aliases=aliases,
                      read_depth="k" if cutoff == "required" else "all",
                      family="subtopics", upper_bound=upper_bound,
                      trec_eval=(ndeval,) if ndeval else ())


#: The diversity measures, by name. ``trec_eval`` holds ndeval's printed name.
DIVERSITY_METRICS: dict[str, MetricInfo] = {row.name: row for row in (
    _row("alpha_dcg", "alpha-DCG@k",
         "How much new ground does the top k cover, against a ranking that covers "
         "everything?",
         "gains that shrink for covered subtopics, discounted by log rank, over the 'ideal "
         "ideal' ranking's (never reached: below 1 at best)",
         kernels.alpha_dcg, ref.alpha_dcg_at_k, ndeval="alpha-DCG@k"),
    _row("alpha_ndcg", "alpha-nDCG@k",
         "How close is the ranking to the one that covers the facets best?",
         "alpha-DCG@k over the greedy ideal ranking's",
         kernels.alpha_ndcg, ref.alpha_ndcg_at_k, ndeval="alpha-nDCG@k"),
    _row("err_ia", "ERR-IA@k",
         "How soon does a reader, whichever facet they want, find something new?",
         "the decayed gains over their rank, over the 'ideal ideal' ranking's",
         kernels.err_ia, ref.err_ia_at_k, ndeval="ERR-IA@k"),
    _row("nerr_ia", "nERR-IA@k",
         "ERR-IA@k, against the best ranking these docs allow",
         "ERR-IA@k over the greedy ideal ranking's",
         kernels.nerr_ia, ref.nerr_ia_at_k, ndeval="nERR-IA@k"),
    _row("nrbp", "NRBP",
         "How much new ground does a patient reader cover, down the whole ranking?",
         "(1 - (1 - alpha) beta) / S times the decayed gains weighted by beta^(rank - 1)",
         kernels.nrbp, ref.nrbp, cutoff="none", params=(_ALPHA, _BETA), ndeval="NRBP"),
    _row("nnrbp", "nNRBP",
         "NRBP, against the best ranking these docs allow",
         "NRBP over the greedy ideal ranking's (NaN for a query with nothing relevant)",
         kernels.nnrbp, ref.nnrbp, cutoff="none", params=(_ALPHA, _BETA), ndeval="nNRBP"),
    _row("p_ia", "P-IA@k",
         "Of the top k, what share is relevant, facet by facet?",
         "relevant (doc, subtopic) pairs in the top k over k S",
         kernels.p_ia, ref.intent_aware_precision_at_k, params=(),
         aliases=("precision_ia",), ndeval="P-IA@k"),
    _row("strec", "Subtopic recall@k",
         "How many of the question's facets does the top k cover?",
         "subtopics with a relevant doc in the top k over S (FreshStack's Coverage@k)",
         kernels.strec, ref.subtopic_recall_at_k, params=(),
         aliases=("subtopic_recall", "coverage"), ndeval="strec@k"),
    _row("map_ia", "MAP-IA",
         "How high are the relevant docs of every facet, on average?",
         "each subtopic's AP over the whole ranking, averaged over the S subtopics",
         kernels.map_ia, ref.intent_aware_ap, cutoff="none", params=(),
         aliases=("ap_ia",), ndeval="MAP-IA"),
)}

_BY_NAME = {alias: row for row in DIVERSITY_METRICS.values()
            for alias in (row.name, *row.aliases)}
_BY_NAME.update({row.trec_eval[0].removesuffix("@k"): row
                 for row in DIVERSITY_METRICS.values()})
_NAME = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9_-]*)(?:\((?P<args>[^()]*)\))?"
                   r"(?:@(?P<k>.*))?$")


@dataclass(frozen=True)
class DiversitySpec:
    """A diversity measure with its cut-off and the parameters written in its name."""

    name: str
    k: int | None = None
    params: tuple = ()

    @property
    def info(self) -> MetricInfo:
        return DIVERSITY_METRICS[self.name]

    def arguments(self, **defaults) -> dict:
        """The kernel's parameters: as written, else ``defaults``, else the row's."""
        params = {p.name: defaults.get(p.name, p.default) for p in self.info.params}
        params.update(dict(self.params))
        return params

    def __str__(self) -> str:
        shown = format_params(self.params, self.info.params)
        text = self.name + (f"({shown})" if shown else "")
        return text if self.k is None else f"{text}@{self.k}"


def parse_diversity_metric(text) -> DiversitySpec:
    """A diversity measure's name: ``"alpha_ndcg@10"``, ndeval's ``"alpha-nDCG@10"``,
    ``"nrbp(beta=0.8)"``, ``"strec@5"`` (or ``"coverage@5"``)."""
    if isinstance(text, DiversitySpec):
        return text
    if not isinstance(text, str):
        raise InputTypeError(f"a diversity measure's name must be a str such as "
                             f"'alpha_ndcg@10', got {text!r}")
    match = _NAME.match(text.strip())
    if match is None or match["name"] not in _BY_NAME:
        raise InputValueError(
            f"unknown diversity measure {text!r}; the measures are "
            + ", ".join(f"{n}@k" if r.cutoff == "required" else n
                        for n, r in DIVERSITY_METRICS.items())
            + " (or ndeval's names: alpha-nDCG@k, ERR-IA@k, ...)")
    row = _BY_NAME[match["name"]]
    if match["args"] is not None and not row.params:
        raise InputValueError(f"{row.name} takes no parameters; got {text!r}")
    params = parse_params(match["args"], row.params, text)
    k = match["k"]
    if row.cutoff == "required" and k is None:
        raise InputValueError(f"{text!r} needs a cut-off: write it as '{row.name}@k', e.g. "
                              f"'{row.name}@10'")
    if row.cutoff == "none" and k is not None:
        raise InputValueError(f"{row.name} reads the whole ranking and takes no cut-off; "
                              f"got {text!r}")
    if k is not None:
        if not re.fullmatch(r"[0-9]+", k):
            raise InputValueError(f"the cut-off in {text!r} must be a positive int, got {k!r}")
        k = check_k(int(k), name=f"the cut-off in {text!r}")
    return DiversitySpec(row.name, k, params)


@dataclass(frozen=True)
class DiversityPreset:
    """A tool's rules for the diversity measures.

    Attributes
    ----------
    name, tool : str
    order : {"rank", "score_then_doc_descending", "score_then_doc_ascending"}
        How a run is ordered: by its rank column (ndeval's default), or by score
        descending, ties by doc id descending (ndeval's ``-traditional``, trec_eval's
        order) or ascending (pyndeval).
    raw_at_one : bool
        alpha-DCG@1 and ERR-IA@1 unnormalised (S times the value), as pyndeval returns
        ndeval's arrays.
    negative : {"error", "nonrelevant"}
        A negative judgment: refused (ndeval) or not relevant (pyndeval).
    subtopic_order : {"sorted", "first_seen"}
        The order gains are added over subtopics (the last bit of a sum).
    every_run_query : bool
        Rows for every query of the run, 0 for one without judgments (ndeval), or only
        for queries with both (pyndeval).
    rules : str
    """

    name: str
    tool: str
    order: str
    raw_at_one: bool
    negative: str
    subtopic_order: str
    every_run_query: bool
    rules: str


#: The presets of :func:`~ragmetrics.diversity.evaluate_diversity`, by name.
DIVERSITY_PRESETS: dict[str, DiversityPreset] = {p.name: p for p in (
    DiversityPreset(
        "ndeval", "TREC's ndeval.c v4.5", "rank", False, "error", "sorted", True,
        "the run in its rank column's order (a rank twice in a query is an error); "
        "negative judgments refused, above 1 read as 1; a row for every query of the run "
        "(0 without judgments), the mean over the queries with both (complete=True: over "
        "every judged query)"),
    DiversityPreset(
        "ndeval_traditional", "TREC's ndeval.c v4.5 -traditional", "score_then_doc_descending",
        False, "error", "sorted", True,
        "as ndeval, but the run ordered by score descending, ties by doc id descending "
        "(byte order), and ranked again"),
    DiversityPreset(
        "pyndeval", "pyndeval 0.0.8 (and ir_measures' AP_IA, alpha_nDCG, ...)",
        "score_then_doc_ascending", True, "nonrelevant", "first_seen", False,
        "the run ordered by score descending, ties by doc id ascending; a judgment below "
        "the level is not relevant (negative ones too); subtopics added in the order they "
        "first appear; alpha-DCG@1 and ERR-IA@1 unnormalised, S times ndeval's "
        "definition (pyndeval returns ndeval's arrays, which normalise from rank 2 on); "
        "only queries with both judgments and results are scored"),
)}


def diversity_markdown() -> str:
    """The measures as a Markdown table: name, measure, question, ndeval's name."""
    rows = ["| name | measure | the question it answers | ndeval |", "|---|---|---|---|"]
    for row in DIVERSITY_METRICS.values():
        names = [row.name, *row.aliases]
        shown = ", ".join(f"`{n}@k`" if row.cutoff == "required" else f"`{n}`"
                          for n in names)
        if row.params:
            shown += " (" + ", ".join(f"`{p.name}`" for p in row.params) + ")"
        rows.append(f"| {shown} | {row.pretty_name} | {row.question} | "
                    f"`{row.trec_eval[0]}` |")
    return "\n".join(rows)
