"""Other tools' rules applied to a run and its scores: what the presets change.

The conventions of :data:`ragmetrics.conventions.CONVENTIONS` that only presets use
(:data:`ragmetrics.presets.PRESETS`) act at two points of :func:`ragmetrics.evaluate`:

- on the run, before it is ranked (:func:`prepare_run`): scores rounded to 32-bit
  floats as pytrec_eval reads them (``score_precision="float32"``), a retrieved doc
  whose id is the query's removed, as BEIR does (``query_id_docs="ignore"``), and each
  ranking made the list MS MARCO's script builds from the rank column
  (``order_by="rank_position"``, :func:`list_positions`);
- on the values, after scoring (:func:`apply_ap_denominator`): AP at a cut-off ``k``
  over ``min(R, k)``, as Spark's ``meanAveragePrecisionAt`` (``ap_denominator=
  "min_relevant_k"``).

nDCG's ideal in the order of the labels (Spark's ``ndcgAt``) is built with the other
ideal rankings (:func:`ragmetrics.evaluation.engine.ideal_rankings`).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import InputValueError
from ..metrics.ranked import RankedJudgments, ranks_within
from .inputs import Columns, id_kind

__all__ = ["LIST_LENGTH", "ap_over_min_relevant_k", "apply_ap_denominator", "list_positions",
           "prepare_run"]

#: The length of msmarco_eval.py's list of each query (``[0] * 1000``).
LIST_LENGTH = 1000


def prepare_run(columns: Columns, conventions: Conventions,
                qrels: Columns | None = None) -> Columns:
    """The run's rows as the conventions read them: scores rounded to float32, rows of a
    doc whose id is the query's dropped, each ranking the list of positions MS MARCO's
    script makes of the rank column (only when a convention asks for it). ``qrels``: the
    judgments, whose doc ids an empty position's placeholder must not take."""
    if conventions.order_by == "rank_position":
        columns = list_positions(columns, qrels)
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


def list_positions(columns: Columns, qrels: Columns | None = None) -> Columns:
    """Each ranking as msmarco_eval.py builds it from the rank column, with its empty
    positions: the rows ordered so, an empty position a row of its own.

    The script (``load_candidate_from_stream``, microsoft/MSMARCO-Passage-Ranking
    ms_marco_eval.py) starts each query's list as ``[0] * 1000`` and sets
    ``list[rank - 1] = pid`` for each line: rank r at position r - 1; a rank of 0 or
    below counts from the end as Python's index does (rank 0 is position 999, rank -999
    position 0); a later line takes an earlier one's position; a rank left out leaves
    its position empty (passage 0). MRR then reads the first relevant position. Here an
    empty position before a query's last doc is a row whose doc id is a placeholder
    that no run or judgment holds (not relevant, not judged; num_ret counts it), so
    that every metric reads the script's list. A rank outside -999..1000, where the
    script stops ("not valid format"), or not a whole number, is an error naming it.
    Columns not ordered by a rank column (a dict run, in rank order) are left as given.
    """
    if columns.value_column != "rank" or not len(columns.value):
        return columns
    rank = -columns.value
    bad = (np.floor(rank) != rank) | (rank < 1 - LIST_LENGTH) | (rank > LIST_LENGTH)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputValueError(
            f"order_by='rank_position' (msmarco_eval.py's list of {LIST_LENGTH} positions): "
            f"query {columns.query.iloc[i]!r}, doc {columns.doc.iloc[i]!r} has rank "
            f"{rank[i]:g}; the script places whole ranks from {1 - LIST_LENGTH} to "
            f"{LIST_LENGTH} only (rank r at list index r - 1) and stops at any other")
    codes, uniques = pd.factorize(columns.query)
    if (codes < 0).any():  # a missing query id: the engine names it
        return columns
    rank = rank.astype(np.int64)
    position = np.where(rank >= 1, rank - 1, LIST_LENGTH + rank - 1)
    key = codes.astype(np.int64) * LIST_LENGTH + position
    # A later row takes an earlier one's position.
    kept = np.flatnonzero(~pd.Series(key).duplicated(keep="last").to_numpy())
    kept = kept[np.argsort(key[kept], kind="stable")]  # by query, then position
    kept_code, kept_position = codes[kept], position[kept]
    n_queries = len(uniques)
    last = np.full(n_queries, -1, dtype=np.int64)
    np.maximum.at(last, kept_code, kept_position)
    sizes = last + 1
    if len(kept) == len(key) and int(sizes.sum()) == len(kept):  # no gap, none taken over
        value = -(position + 1.0)
        return dataclasses.replace(columns, value=value)
    # Every position of each list, up to its last doc: a kept row, or an empty position.
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    slot_code = np.repeat(np.arange(n_queries), sizes)
    slot_position = ranks_within(sizes)
    row_at = np.full(len(slot_code), -1, dtype=np.int64)
    row_at[starts[kept_code] + kept_position] = kept
    empty = row_at < 0
    first_row = np.unique(codes, return_index=True)[1]
    query = columns.query.take(first_row[slot_code]).reset_index(drop=True)
    docs = columns.doc.take(np.where(empty, 0, row_at)).to_numpy(dtype=object)
    docs[empty] = _placeholders(columns.doc, qrels, slot_position[empty])
    return dataclasses.replace(
        columns, query=query, doc=pd.Series(docs, dtype=object),
        value=-(slot_position + 1.0))


def _placeholders(run_docs: pd.Series, qrels: Columns | None, positions: np.ndarray):
    """Doc ids for empty positions (one per position, so none repeats within a list) of
    the kind of the run's ids, that neither the run nor the judgments hold."""
    known = [run_docs] + ([] if qrels is None else [qrels.doc])
    if id_kind(run_docs, "doc_id", "run") == "int":
        lowest = min([0] + [int(low) for docs in known
                            if pd.notna(low := pd.to_numeric(docs, errors="coerce").min())])
        return (lowest - 1 - positions).astype(object)
    prefix = "\x00empty position "
    while any(docs.astype(str).str.startswith(prefix).any() for docs in known):
        prefix = "\x00" + prefix
    return np.array([f"{prefix}{p + 1}" for p in positions], dtype=object)


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
