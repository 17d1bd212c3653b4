"""Score a run's diversity: every query at once, under ndeval's rules or pyndeval's.

:func:`evaluate_diversity` orders the run as the preset says, joins it to the subtopic
judgments (:class:`~ragmetrics.diversity.SubtopicRanking`), calls each measure's kernel
through the table (:data:`~ragmetrics.diversity.DIVERSITY_METRICS`), and averages as the
tool does. ``ragmetrics ndeval`` prints its result as ndeval's CSV.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InputTypeError, InputValueError
from ..evaluation.engine import natural_order
from ..validation import check_k
from .ndeval_files import NDEVAL_COLUMNS
from .novelty_table import DIVERSITY_PRESETS, DiversityPreset, parse_diversity_metric
from .subtopic_ranking import SubtopicRanking
from .subtopics import SubtopicJudgments, subtopic_judgments, text_codes

__all__ = ["DiversityEvaluation", "evaluate_diversity"]

#: ndeval's measures, in the order it prints them.
NDEVAL_METRICS = tuple(name for _, name in NDEVAL_COLUMNS)


@dataclass(frozen=True, eq=False)
class DiversityEvaluation:
    """The diversity measures of a run.

    Attributes
    ----------
    per_query : pandas.DataFrame
        A row per query scored (ndeval: every query of the run, 0 for one without
        judgments; pyndeval: the queries with both), in natural order, a column per
        measure.
    summary : pandas.Series
        The mean of each measure, as the tool averages: over the queries with both
        judgments and results, or (``complete=True``) over every judged query, one
        missing from the run counting 0. NaN when there is no such query (ndeval prints
        ``-nan``).
    queries_missing_from_run, queries_without_judgments : tuple of str
        Judged queries the run lacks; queries of the run with no judgment.
    preset : str
    alpha, beta : float
    """

    per_query: pd.DataFrame
    summary: pd.Series
    queries_missing_from_run: tuple
    queries_without_judgments: tuple
    preset: str
    alpha: float
    beta: float
    judged_queries: int = field(default=0, repr=False)

    def __repr__(self) -> str:
        return (f"DiversityEvaluation({len(self.per_query)} queries, "
                f"{len(self.per_query.columns)} measures, preset={self.preset!r})")


def evaluate_diversity(run, judgments, metrics=None, *, preset: str = "ndeval",
                       alpha: float = 0.5, beta: float = 0.5, complete: bool = False,
                       depth: int | None = None) -> DiversityEvaluation:
    """The diversity measures of ``run`` against subtopic judgments.

    Parameters
    ----------
    run : pandas.DataFrame or Mapping
        ``query_id``, ``doc_id`` and ``rank`` (preset ``"ndeval"``) or ``score`` (the
        others); or ``{query_id: [doc ids, best first]}``.
    judgments : SubtopicJudgments, pandas.DataFrame or iterable of 4-tuples
        What :func:`~ragmetrics.diversity.subtopic_judgments` reads (a ``subtopic`` or
        ``iteration`` column), or :func:`~ragmetrics.diversity.read_ndeval_qrels`'s.
    metrics : list of str, optional
        Measure names (``"alpha_ndcg@10"``, ``"alpha-nDCG@10"``, ``"nrbp(beta=0.8)"``);
        default: ndeval's 21 columns.
    preset : {"ndeval", "ndeval_traditional", "pyndeval"}, default "ndeval"
        The tool's rules (:data:`~ragmetrics.diversity.DIVERSITY_PRESETS`).
    alpha, beta : float, default 0.5
        ndeval's -alpha and -beta, for every measure whose name does not set its own.
    complete : bool, default False
        ndeval's -c: average over every judged query.
    depth : int, optional
        ndeval's -M: only the top ``depth`` docs of each ranking.

    Returns
    -------
    DiversityEvaluation

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = [("0", "a", "A", 1), ("0", "b", "B", 1), ("0", "b", "D", 1),
    ...          ("0", "c", "C", 1)]
    >>> run = pd.DataFrame({"query_id": "0", "doc_id": ["A", "D", "E", "B"],
    ...                     "score": [9.3, 8.4, 8.1, 7.6]})
    >>> result = evaluate_diversity(run, qrels, ["alpha-nDCG@5", "nERR-IA@5", "nNRBP",
    ...                                          "alpha_dcg@1"], preset="pyndeval")
    >>> result.per_query.round(4).to_dict("records")
    [{'alpha-nDCG@5': 0.7869, 'nERR-IA@5': 0.8298, 'nNRBP': 0.8621, 'alpha_dcg@1': 1.0}]
    >>> evaluate_diversity(run, qrels, ["alpha_dcg@1"], preset="ndeval_traditional"
    ...                    ).summary.round(4).tolist()
    [0.3333]
    """
    if preset not in DIVERSITY_PRESETS:
        raise InputValueError(f"unknown diversity preset {preset!r}; the presets are "
                              + ", ".join(DIVERSITY_PRESETS))
    rules = DIVERSITY_PRESETS[preset]
    for name, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not (
                0 <= value <= 1):
            raise InputValueError(f"{name} must be a number from 0 to 1, got {value!r}")
    if depth is not None:
        depth = check_k(depth, name="depth")
    names = list(NDEVAL_METRICS if metrics is None else (
        [metrics] if isinstance(metrics, str) else metrics))
    if not names:
        raise InputValueError("metrics must name at least one diversity measure")
    specs = [parse_diversity_metric(n) for n in names]
    columns = [str(n) for n in names]
    if len(set(columns)) != len(columns):
        raise InputValueError(f"a measure is asked for twice: {columns}")
    if not isinstance(judgments, SubtopicJudgments):
        judgments = subtopic_judgments(judgments, negative=rules.negative,
                                       subtopic_order=rules.subtopic_order)
    query_codes, query_names, doc_codes, doc_names, position = _ordered(run, rules, depth)
    run_queries = tuple(query_names[natural_order(query_names)].tolist())
    judged = set(judgments.queries)
    both = tuple(q for q in run_queries if q in judged)
    ranking = SubtopicRanking.from_codes(query_codes, query_names, doc_codes, doc_names,
                                         position, judgments, queries=both,
                                         raw_at_one=rules.raw_at_one)
    values = {}
    for column, spec in zip(columns, specs, strict=True):
        arguments = spec.arguments(alpha=float(alpha), beta=float(beta))
        values[column] = spec.info.kernel(ranking, spec.k, **arguments)
    scored = pd.DataFrame(values, index=pd.Index(both, name="query_id"))
    rows = run_queries if rules.every_run_query else both
    per_query = scored.reindex(pd.Index(rows, name="query_id"), fill_value=0.0)
    divisor = len(judgments.queries) if complete else len(both)
    summary = pd.Series({c: _mean(per_query[c].to_numpy(), divisor) for c in columns},
                        dtype=np.float64)
    in_run = set(run_queries)
    missing = tuple(q for q in judgments.queries if q not in in_run)
    return DiversityEvaluation(per_query, summary, missing,
                               tuple(q for q in run_queries if q not in judged), preset,
                               float(alpha), float(beta), len(judgments.queries))


def _mean(values: np.ndarray, divisor: int) -> float:
    """ndeval's amean: the values added one by one, in order (a running sum is added so),
    over ``divisor`` (0/0 is NaN, as C's)."""
    total = np.cumsum(np.concatenate([[0.0], values]))[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(np.float64(total) / np.float64(divisor))


def _ordered(run, rules: DiversityPreset, depth: int | None) -> tuple:
    """The run's rows in the preset's order, cut at ``depth``, as codes: (query codes,
    query names, doc codes, doc names, 0-based position in the query). A doc twice in a
    query (a rank twice, under ndeval) is refused."""
    if isinstance(run, Mapping):
        rows = [(str(q), str(d), i + 1) for q, docs in run.items()
                for i, d in enumerate(_listed(q, docs))]
        frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "rank"])
        frame["score"] = -frame["rank"].astype(np.float64)
    elif isinstance(run, pd.DataFrame):
        frame = run
    else:
        raise InputTypeError("a run must be a DataFrame (query_id, doc_id, rank or score) "
                             f"or a mapping query -> ranked doc ids, got {type(run).__name__}")
    need = ["query_id", "doc_id", "rank" if rules.order == "rank" else "score"]
    missing = [c for c in need if c not in frame.columns]
    if missing:
        hint = (" (preset 'ndeval' orders by the rank column; 'ndeval_traditional' and "
                "'pyndeval' by score)" if "rank" in missing else "")
        raise InputValueError(f"the run lacks the column(s) {', '.join(missing)}{hint}; "
                              f"it has {', '.join(map(str, frame.columns))}")
    query_codes, query_names = _run_codes(frame["query_id"], "query id")
    doc_codes, doc_names = _run_codes(frame["doc_id"], "doc id")
    query_text = np.asarray(query_names.to_pylist(), dtype=object)

    def where(at: int) -> str:
        return f"query {query_text[query_codes[at]]!r}"

    if rules.order == "rank":
        rank = _numbers(frame, "rank", where, doc_codes, doc_names)
        order = _by_query_then(query_codes, rank)
        if order is None:  # a rank twice in a query: find the first, in the old order
            order = np.lexsort((rank, query_codes))
            same = (query_codes[order][1:] == query_codes[order][:-1]) & (
                rank[order][1:] == rank[order][:-1])
            at = order[int(np.flatnonzero(same)[0]) + 1]
            raise InputValueError(f"{where(at)}: rank {_shown(frame['rank'].iloc[at])!r} is "
                                  "given twice (ndeval: 'duplicate rank')")
    else:
        score = _numbers(frame, "score", where, doc_codes, doc_names)
        order = _by_score(query_codes, score, doc_codes, doc_names,
                          descending=rules.order == "score_then_doc_descending")
    codes = query_codes[order]
    starts = np.ones(len(codes), dtype=bool)
    starts[1:] = codes[1:] != codes[:-1]
    index = np.arange(len(codes))
    position = index - np.maximum.accumulate(np.where(starts, index, 0))
    if depth is not None:
        order, codes, position = (order[position < depth], codes[position < depth],
                                  position[position < depth])
    docs = doc_codes[order]
    key = np.sort(codes * max(len(doc_names), 1) + docs)
    if (key[1:] == key[:-1]).any():
        key = pd.Index(codes * max(len(doc_names), 1) + docs)
        at = order[int(np.flatnonzero(key.duplicated())[0])]
        raise InputValueError(f"{where(at)}: doc {doc_names[int(doc_codes[at])].as_py()!r} "
                              "is ranked twice (ndeval: 'duplicate docno')")
    return codes, query_text, docs, doc_names, position


def _run_codes(column: pd.Series, what: str):
    """A run's ids as codes (:func:`~ragmetrics.diversity.subtopics.text_codes`), a
    missing id refused with its row."""
    if column.isna().any():
        at = int(np.flatnonzero(column.isna().to_numpy())[0])
        raise InputValueError(f"run row {at + 1}: a missing {what}")
    return text_codes(column)


def _by_query_then(query_codes: np.ndarray, values: np.ndarray) -> np.ndarray | None:
    """The rows by query code, then ``values`` ascending; None if a value is repeated
    within a query. One integer key when the values are whole numbers (a run's ranks),
    and no sort at all when the rows are in that order already."""
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    low, high = values.min(), values.max()
    whole = bool(np.all(values == np.floor(values))) and high - low < 2**40
    if whole and (query_codes.max() + 1) * (high - low + 1) < 2**62:
        key = query_codes * int(high - low + 1) + (values - low).astype(np.int64)
        step = key[1:] - key[:-1]
        if (step > 0).all():
            return np.arange(len(key))
        order = np.argsort(key)
        key = key[order]
        return None if (key[1:] == key[:-1]).any() else order
    order = np.lexsort((values, query_codes))
    same = (query_codes[order][1:] == query_codes[order][:-1]) & (
        values[order][1:] == values[order][:-1])
    return None if same.any() else order


def _by_score(query_codes, score, doc_codes, doc_names, *, descending: bool) -> np.ndarray:
    """The rows by query code, then score descending, then doc id (byte order) descending
    or ascending. Only the docs of tied rows are compared as text."""
    n = len(score)
    if not n:
        return np.zeros(0, dtype=np.int64)
    in_place = (query_codes[1:] > query_codes[:-1]) | (
        (query_codes[1:] == query_codes[:-1]) & (score[1:] <= score[:-1]))
    order = np.arange(n) if in_place.all() else np.lexsort((-score, query_codes))
    q, s = query_codes[order], score[order]
    tied = np.flatnonzero((q[1:] == q[:-1]) & (s[1:] == s[:-1]))
    if not len(tied):
        return order
    # The tied rows, a block per (query, score): each block's docs by their text.
    mark = np.zeros(n, dtype=bool)
    mark[tied] = True
    mark[tied + 1] = True
    at = np.flatnonzero(mark)
    new_block = np.ones(len(at), dtype=bool)
    new_block[1:] = (np.diff(at) > 1) | (q[at][1:] != q[at][:-1]) | (s[at][1:] != s[at][:-1])
    block = np.cumsum(new_block)
    docs = doc_codes[order[at]]
    seen = np.zeros(len(doc_names), dtype=bool)
    seen[docs] = True
    present = np.flatnonzero(seen)
    rank = np.empty(len(doc_names), dtype=np.int64)
    rank[present[pc.sort_indices(doc_names.take(pa.array(present))).to_numpy()]] = \
        np.arange(len(present))
    rank = rank[docs]
    key = block * len(present) + (len(present) - 1 - rank if descending else rank)
    order[at] = order[at][np.argsort(key)]
    return order


def _numbers(frame: pd.DataFrame, name: str, where, doc_codes, doc_names) -> np.ndarray:
    values = pd.to_numeric(frame[name], errors="coerce").to_numpy(dtype=np.float64)
    if np.isnan(values).any():
        at = int(np.flatnonzero(np.isnan(values))[0])
        raise InputValueError(f"{where(at)}, doc {doc_names[int(doc_codes[at])].as_py()!r}: "
                              f"the {name} {_shown(frame[name].iloc[at])!r} is not a number")
    return values


def _listed(query, docs) -> list:
    if isinstance(docs, str | bytes) or not hasattr(docs, "__iter__"):
        raise InputTypeError(f"query {query!r}: the ranked doc ids must be a list, got "
                             f"{type(docs).__name__}")
    return list(docs)


def _shown(value):
    """A cell as it reads: ``1``, not ``np.int64(1)``."""
    return value.item() if isinstance(value, np.generic) else value
