"""Other tools' rules applied to a run and its scores: what the presets change.

The conventions of :data:`ragmetrics.policies.CONVENTIONS` that only presets use
(:data:`ragmetrics.policies.PRESETS`) act at two points of :func:`ragmetrics.evaluate`:

- on the run, before it is ranked (:func:`prepare_run`): scores rounded to 32-bit
  floats as pytrec_eval reads them (``score_precision="float32"``), and a retrieved doc
  whose id is the query's removed, as BEIR does (``query_id_docs="ignore"``);
- on the values, after scoring (:func:`apply_ap_denominator`): AP at a cut-off ``k``
  over ``min(R, k)``, as Spark's ``meanAveragePrecisionAt`` (``ap_denominator=
  "min_relevant_k"``).

nDCG's ideal in the order of the labels (Spark's ``ndcgAt``) is built with the other
ideal rankings (:func:`ragmetrics.evaluation.engine.ideal_rankings`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..metrics.ranked import RankedJudgments
from ..policies import Conventions
from .inputs import Columns

__all__ = ["ap_over_min_relevant_k", "apply_ap_denominator", "prepare_run"]


def prepare_run(columns: Columns, conventions: Conventions) -> Columns:
    """The run's rows as the conventions read them: scores rounded to float32, rows of a
    doc whose id is the query's dropped (only when a convention asks for it)."""
    if conventions.score_precision == "float32":
        columns = dataclasses.replace(
            columns, value=columns.value.astype(np.float32).astype(np.float64))
    if conventions.query_id_docs == "ignore" and len(columns.value):
        same = columns.query.to_numpy(dtype=object) == columns.doc.to_numpy(dtype=object)
        if same.any():
            keep = ~same
            query = columns.query[keep].reset_index(drop=True)
            # A query left with no doc is still in the run, with an empty ranking (as
            # BEIR hands pytrec_eval an empty dict, which it scores 0).
            emptied = list(dict.fromkeys(columns.query[same]).keys() - set(query))
            columns = dataclasses.replace(
                columns, query=query, doc=columns.doc[keep].reset_index(drop=True),
                value=columns.value[keep],
                bare_queries=[*columns.bare_queries, *sorted(emptied, key=str)])
    return columns


def ap_over_min_relevant_k(r: RankedJudgments, k) -> np.ndarray:
    r"""Spark's AP@k: Precision@i at each relevant rank i within ``k``, over ``min(R, k)``.

    .. math:: \mathrm{AP@k} = \frac{1}{\min(R, k)} \sum_{i \le k} \mathrm{rel}_i \,
              \mathrm{hits}(i) / i

    so that a top ``k`` of relevant docs scores 1 however many more are relevant.

    Examples
    --------
    Five relevant docs; the top 2 are one miss, then a hit: trec_eval's AP@2 is 0.5 / 5,
    Spark's 0.5 / 2.

    >>> r = RankedJudgments(1, query=[0, 0], grade=[0, 1], gain=[0, 1], num_relevant=[5])
    >>> ap_over_min_relevant_k(r, 2)
    array([0.25])
    """
    relevant = r.relevant & r.within(k)
    precision_at_hits = np.where(relevant, r.running_hits(relevant) / (r.rank + 1.0), 0.0)
    return r.divide(r.per_query(precision_at_hits), np.minimum(r.num_relevant, k))


def apply_ap_denominator(values: np.ndarray, r: RankedJudgments, k) -> np.ndarray:
    """AP@k ``values`` (with the policies applied) recomputed over ``min(R, k)``: the
    queries with relevant docs get Spark's value; NaNs and empty queries stay."""
    spark = ap_over_min_relevant_k(r, k)
    return np.where(np.isnan(values) | (r.num_relevant == 0), values, spark)
