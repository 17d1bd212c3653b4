"""The metric table: each metric once, as a row of data, with its kernel.

A row says what a metric is (its names, the question it answers, its cut-off, its
bounds, its trec_eval name), how deep into a ranking it reads, what it scores for a
query with no relevant doc under ``empty_relevant="article"``, which array kernel
computes it (:mod:`ragmetrics.metrics.kernels`) and which plain-Python function defines
it (:mod:`ragmetrics.metrics.reference`). Every front end dispatches through this
table: :func:`ragmetrics.evaluate`, the curves over k, the board, the docs, the CLI.

A metric is named by a string such as ``"recall@10"``, ``"rr"`` or ``"ndcg@5"``: the
metric's name (or an alias: ``"mrr"`` for ``"rr"``), then ``@k`` for its cut-off.
:func:`parse_metric` turns the string into a :class:`MetricSpec`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputTypeError, InputValueError
from ..validation import check_k
from . import kernels
from . import reference as ref

__all__ = ["METRICS", "MetricInfo", "MetricSpec", "metric_info", "metrics_markdown", "parse_metric",
           "parse_metrics"]


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
    read_depth : {"k", "num_relevant"}
        How deep into a ranking it reads: down to ``k`` (everything when uncut), or down
        to the query's number of relevant docs (R-precision).
    uses_gains : bool
        True when grades count as gains (DCG, nDCG), False when only "relevant or not".
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
    kernel : callable(RankedJudgments, k) -> numpy.ndarray
        The array kernel: every query's value at once.
    reference : callable
        The plain-Python per-query function, the readable definition.
    """

    name: str
    pretty_name: str
    question: str
    description: str
    cutoff: str
    kernel: Callable = field(repr=False)
    reference: Callable = field(repr=False)
    aliases: tuple[str, ...] = ()
    read_depth: str = "k"
    uses_gains: bool = False
    article_value: float = 0.0
    lower_bound: float = 0.0
    upper_bound: float = 1.0
    higher_is_better: bool = True
    trec_eval: tuple[str, ...] = ()

    def score_one(self, retrieved, relevant, k=None, **conventions) -> float:
        """This metric of one query by its reference function: ``k`` None is uncut."""
        if self.cutoff == "none":
            return self.reference(retrieved, relevant, **conventions)
        return self.reference(retrieved, relevant, k, **conventions)


METRICS: dict[str, MetricInfo] = {
    info.name: info
    for info in (
        MetricInfo(
            name="recall",
            pretty_name="Recall@k",
            question="Of all the relevant chunks, what fraction is in the top k?",
            description="relevant docs in the top k / all relevant docs",
            cutoff="required",
            kernel=kernels.recall,
            reference=ref.recall_at_k,
            article_value=1.0,
            trec_eval=("recall_k",),
        ),
        MetricInfo(
            name="precision",
            pretty_name="Precision@k",
            question="Of the k chunks returned, what fraction is relevant?",
            description="relevant docs in the top k / k",
            cutoff="required",
            kernel=kernels.precision,
            reference=ref.precision_at_k,
            trec_eval=("P_k",),
        ),
        MetricInfo(
            name="hit_rate",
            pretty_name="Hit rate@k",
            question="Is at least one relevant chunk in the top k?",
            description="1 if any relevant doc is in the top k, else 0 (also 'success@k')",
            cutoff="required",
            kernel=kernels.hit_rate,
            reference=ref.hit_rate_at_k,
            aliases=("success",),
            trec_eval=("success_k",),
        ),
        MetricInfo(
            name="rr",
            pretty_name="RR",
            question="How high is the first relevant chunk?",
            description="1 / rank of the first relevant doc (0 if none); its mean is MRR",
            cutoff="optional",
            kernel=kernels.rr,
            reference=ref.reciprocal_rank,
            aliases=("mrr",),
            trec_eval=("recip_rank",),
        ),
        MetricInfo(
            name="ndcg",
            pretty_name="nDCG@k",
            question="How close is the ranking to the best possible order?",
            description="DCG of the top k / DCG of the ideal top k (graded gains, log2 discount)",
            cutoff="optional",
            kernel=kernels.ndcg,
            reference=ref.ndcg_at_k,
            uses_gains=True,
            article_value=1.0,
            trec_eval=("ndcg", "ndcg_cut_k"),
        ),
        MetricInfo(
            name="dcg",
            pretty_name="DCG@k",
            question="How much gain does the ranking collect, discounted by rank?",
            description="sum of gain / log2(rank + 1) over the top k",
            cutoff="optional",
            kernel=kernels.dcg,
            reference=ref.dcg_at_k,
            uses_gains=True,
            upper_bound=float("inf"),
        ),
        MetricInfo(
            name="ap",
            pretty_name="AP",
            question="How high are all the relevant chunks, on average?",
            description="mean of Precision@i at each relevant doc's rank i, over all relevant; "
            "its mean is MAP",
            cutoff="optional",
            kernel=kernels.ap,
            reference=ref.average_precision,
            aliases=("map",),
            trec_eval=("map", "map_cut_k"),
        ),
        MetricInfo(
            name="r_precision",
            pretty_name="R-precision",
            question="With as many slots as relevant chunks, what fraction is filled?",
            description="relevant docs in the top R / R, where R = number of relevant docs",
            cutoff="none",
            kernel=kernels.r_precision,
            reference=ref.r_precision,
            aliases=("rprec",),
            read_depth="num_relevant",
            trec_eval=("Rprec",),
        ),
    )
}

_BY_NAME = {alias: info for info in METRICS.values() for alias in (info.name, *info.aliases)}


def metric_info(name: str) -> MetricInfo:
    """The row of a metric, by its name or an alias (``"mrr"`` is ``"rr"``)."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise InputValueError(f"unknown metric {name!r}{_suggest(str(name))}") from None


@dataclass(frozen=True)
class MetricSpec:
    """A metric with its cut-off: ``MetricSpec("ndcg", 10)`` is ``"ndcg@10"``.

    ``name`` is canonical (``"rr"`` for ``"mrr"``); ``k`` is None for an uncut metric.
    """

    name: str
    k: int | None = None
    written: str | None = field(default=None, compare=False, repr=False)  # "mrr", "map"

    @property
    def info(self) -> MetricInfo:
        return METRICS[self.name]

    @property
    def pretty_name(self) -> str:
        """``"nDCG@10"``; a mean's own name where one was asked for (``"mrr"``: MRR)."""
        pretty = _MEAN_NAMES.get(self.written, self.info.pretty_name)
        if self.k is None:
            return pretty.replace("@k", "")
        return pretty.replace("@k", f"@{self.k}") if "@k" in pretty else f"{pretty}@{self.k}"

    def depth(self, num_relevant: np.ndarray) -> int | None:
        """How deep it reads any query's ranking: ``k``, None (everything), or R."""
        if self.info.read_depth == "num_relevant":
            return max(int(num_relevant.max(initial=0)), 1)
        return self.k

    def __str__(self) -> str:
        return self.name if self.k is None else f"{self.name}@{self.k}"


# Names of a mean over queries that some metrics go by: "mrr" is the mean of RR.
_MEAN_NAMES = {"mrr": "MRR", "map": "MAP"}

_SPEC = re.compile(r"^(?P<name>[a-z_]+)(?:@(?P<k>.*))?$")


def _suggest(text: str) -> str:
    candidates = [f"{n}@10" if info.cutoff == "required" else n
                  for n, info in _BY_NAME.items()]
    close = difflib.get_close_matches(text.lower(), candidates, n=1, cutoff=0.4)
    if not close:
        close = difflib.get_close_matches(text.lower().split("@")[0], list(_BY_NAME), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def parse_metric(text: str) -> MetricSpec:
    """Parse a metric name such as ``"recall@10"``, ``"mrr"`` or ``"ndcg@5"``.

    Examples
    --------
    >>> parse_metric("ndcg@10")
    MetricSpec(name='ndcg', k=10)
    >>> parse_metric("mrr")  # an alias: the mean of the reciprocal rank
    MetricSpec(name='rr', k=None)
    >>> parse_metric("ndgc@10")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: unknown metric 'ndgc@10'; did you mean 'ndcg'?
    """
    if not isinstance(text, str):
        raise InputTypeError(f"a metric name must be a str such as 'recall@10', got {text!r}")
    match = _SPEC.match(text.strip())
    if match is None or match["name"] not in _BY_NAME:
        raise InputValueError(f"unknown metric {text!r}{_suggest(text)}")
    name, k_text = match["name"], match["k"]
    info = _BY_NAME[name]
    if k_text is None:
        if info.cutoff == "required":
            raise InputValueError(
                f"metric {text!r} needs a cut-off: write it as '{name}@k', e.g. '{name}@10'"
            )
        return MetricSpec(info.name, written=name)
    if info.cutoff == "none":
        raise InputValueError(f"metric {name!r} takes no cut-off; got {text!r}, write {name!r}")
    if not re.fullmatch(r"[0-9]+", k_text):
        raise InputValueError(f"the cut-off in {text!r} must be a positive int, got {k_text!r}")
    return MetricSpec(info.name, check_k(int(k_text), name=f"the cut-off in {text!r}"),
                      written=name)


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
        if info.cutoff == "required":
            shown = [f"`{n}@k`" for n in names]
        elif info.cutoff == "optional":
            shown = [f"`{n}`, `{n}@k`" for n in names]
        else:
            shown = [f"`{n}`" for n in names]
        trec = ", ".join(f"`{t}`" for t in info.trec_eval) or "(none)"
        means = [_MEAN_NAMES[a] for a in info.aliases if a in _MEAN_NAMES]
        pretty = info.pretty_name + (f" (its mean: {means[0]})" if means else "")
        rows.append(f"| {', '.join(shown)} | {pretty} | {info.question} | {trec} |")
    return "\n".join(rows)
