"""Where judgments come from: pooling, unjudged docs, assessor agreement, a second judge.

A golden set is itself a measurement. TREC builds it by **pooling** (judge only the union
of every system's top-d docs); two assessors agree only so far (**Cohen's kappa**); an LLM
used as a judge is a third assessor whose errors must be checked; and a doc nobody judged
is scored as not relevant, which favours the systems that built the pool. These
functions take runs and judgments as DataFrames (``query_id``, ``doc_id``, and ``rank`` or
``score`` / ``relevance``), as :func:`ragmetrics.evaluate` does.

:func:`cohen_kappa` is :func:`ragmetrics.audits.cohen_kappa`, the one definition that
``ragmetrics audit`` uses too: taught here and used there, it gives the same number (NaN
where kappa is 0 / 0, e.g. one label throughout). :func:`judged_at_k_per_query` is the
metric table's Judged@k (:func:`ragmetrics.metrics.reference.judged_at_k`), query by
query.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pandas as pd

from .._moved import renamed_in
from ..audits.agreement import cohen_kappa
from ..errors import InputValueError
from ..metrics import reference
from ..validation import check_k

__all__ = [
    "cohen_kappa",
    "condensed_run",
    "judged_at_k_per_query",
    "pool",
    "restrict_judgments",
    "simulated_assessor",
    "top_k",
]


def top_k(run: pd.DataFrame, k: int) -> pd.DataFrame:
    """Each query's top ``k`` rows of a run (by ``rank`` if present, else by ``score``)."""
    k = check_k(k)
    if "rank" in run.columns:
        ordered = run.sort_values(["query_id", "rank"], kind="stable")
    else:
        ordered = run.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
    return ordered.groupby("query_id", sort=False).head(k)


def pool(runs: Mapping[str, pd.DataFrame], depth: int) -> pd.DataFrame:
    """The judging pool: the union of every run's top ``depth`` docs, per query.

    Returns
    -------
    DataFrame
        ``query_id``, ``doc_id``, ``pooled_by`` (the runs that put the doc in their top
        ``depth``, joined by ``+``), one row per pooled (query, doc).

    Examples
    --------
    >>> a = pd.DataFrame({"query_id": "q", "doc_id": ["x", "y", "z"], "rank": [1, 2, 3]})
    >>> b = pd.DataFrame({"query_id": "q", "doc_id": ["y", "w", "x"], "rank": [1, 2, 3]})
    >>> pool({"a": a, "b": b}, 2)
      query_id doc_id pooled_by
    0        q      w         b
    1        q      x         a
    2        q      y       a+b
    """
    if not runs:
        raise InputValueError("pool needs at least one run")
    parts = []
    for name, run in runs.items():
        head = top_k(run, depth)[["query_id", "doc_id"]].copy()
        head["pooled_by"] = name
        parts.append(head)
    both = pd.concat(parts, ignore_index=True)
    grouped = both.groupby(["query_id", "doc_id"], sort=True)["pooled_by"].agg(
        lambda names: "+".join(dict.fromkeys(names)))
    return grouped.reset_index()


def restrict_judgments(qrels: pd.DataFrame, pooled: pd.DataFrame) -> pd.DataFrame:
    """The judgments a pool would have produced: every pooled doc judged (its grade in
    ``qrels``, 0 if ``qrels`` does not list it), every other doc unjudged.

    ``qrels`` lists the relevant docs (``relevance`` > 0) of a fully judged collection;
    the result lists every pooled doc, relevant or not, so that "judged" can be told from
    "unjudged".
    """
    graded = pooled[["query_id", "doc_id"]].merge(qrels[["query_id", "doc_id", "relevance"]],
                                                  on=["query_id", "doc_id"], how="left")
    graded["relevance"] = graded["relevance"].fillna(0).astype(int)
    return graded


def judged_at_k_per_query(run: pd.DataFrame, judged: pd.DataFrame, k: int) -> pd.Series:
    """Per query of the run, the share of its top ``k`` docs that have a judgment (any
    grade, 0 included): ir_measures' ``Judged@k``, the metric table's ``judged@k``
    (:func:`ragmetrics.metrics.reference.judged_at_k` on each query's ranking). A low
    value means the metrics rest on guesses.

    Parameters
    ----------
    run : DataFrame
        ``query_id``, ``doc_id``, and ``rank`` or ``score`` (:func:`top_k` orders it);
        each doc once per query.
    judged : DataFrame
        ``query_id``, ``doc_id``: the judged docs, at any grade.
    k : int
        The cut-off; an empty slot (a ranking shorter than ``k``) is not judged.

    Returns
    -------
    Series
        Index ``query_id`` (the run's queries, sorted), one float each.

    Examples
    --------
    >>> run = pd.DataFrame({"query_id": "q", "doc_id": ["x", "y", "z"], "rank": [1, 2, 3]})
    >>> judged = pd.DataFrame({"query_id": ["q"], "doc_id": ["y"], "relevance": [0]})
    >>> judged_at_k_per_query(run, judged, 2).round(2).to_dict()
    {'q': 0.5}
    """
    k = check_k(k)
    known = judged.groupby("query_id", sort=False)["doc_id"].agg(set).to_dict()
    head = top_k(run, k).groupby("query_id", sort=True)["doc_id"]
    share = pd.Series({query: reference.judged_at_k(docs.tolist(), known.get(query, set()), k)
                       for query, docs in head}, dtype=float)
    share.index.name = "query_id"
    return share

# Old names answer with a DeprecationWarning (ragmetrics._moved.RENAMED); others raise.
__getattr__ = renamed_in(__name__)


def condensed_run(run: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
    """The run with its unjudged docs removed and the ranks closed up (Sakai's
    *condensed list*): the judged docs are scored as if the unjudged ones were not there,
    instead of counting them as not relevant."""
    known = set(zip(judged["query_id"], judged["doc_id"], strict=True))
    keep = [(q, d) in known for q, d in zip(run["query_id"], run["doc_id"], strict=True)]
    kept = run.loc[keep].copy()
    if "rank" in kept.columns:
        kept = kept.sort_values(["query_id", "rank"], kind="stable")
        kept["rank"] = kept.groupby("query_id").cumcount() + 1
    return kept.reset_index(drop=True)


def simulated_assessor(judged: pd.DataFrame, *, flip: Mapping[int, float], seed: int = 0
                       ) -> pd.DataFrame:
    """A second, simulated assessor: the same judgments with some labels changed.

    ``flip`` maps a grade to the chance that this assessor gives it another label:
    a relevant grade (1, 2) flips to 0, a 0 flips to 1. Seeded, so the same every run. It
    stands in for a second person (or a model) judging the same pool, to show what
    disagreement does to the numbers; it is not a model of any real assessor.
    """
    bad = {g: p for g, p in flip.items() if not 0 <= p <= 1}
    if bad:
        raise InputValueError(f"flip chances must be between 0 and 1; got {bad!r}")
    rng = random.Random(f"ragmetrics-assessor:{seed}")
    out = judged.copy()
    labels = []
    for grade in out["relevance"]:
        if rng.random() < flip.get(int(grade), 0.0):
            labels.append(0 if grade > 0 else 1)
        else:
            labels.append(int(grade))
    out["relevance"] = labels
    return out
