"""Questions with no answer: a run cut at a score threshold, and the answers it should not give.

A RAG system that may abstain answers a question only when its retriever returns a
result scored at or above a threshold ``t``; below it, it says "I don't know". Each
query is then **answerable** (it has a relevant doc) or **unanswerable** (it has none:
no relevant doc at ``relevance_level``, no evidence, or marked ``answerable=False``), and
at each threshold:

- the **false-answer rate** is the fraction of unanswerable queries with at least one
  result scored >= ``t`` (the system answers where there is nothing to find);
- the **answer rate** is the fraction of answerable queries with at least one result
  kept (its complement, the **abstention rate**, is what the gate costs);
- **recall** is the set recall of the kept results, averaged over the answerable
  queries (a query that abstains scores 0), and **precision** the share of the kept
  results that are relevant, averaged over the answerable queries that answer.

A gate on recall and precision alone is passed by a system that always answers: the
false-answer rate is what it gives away. An empty golden set means "no answer", not
"zero": unanswerable queries never enter recall, and answerable ones never enter the
false-answer rate.

:func:`threshold_sweep` tries every distinct score as the threshold at once (one sort,
cumulative counts), plus one above every score (``inf``: abstain always);
:func:`threshold_for` picks the lowest threshold whose false-answer rate is at most a
target, with bootstrap intervals over queries; :func:`abstention_at` measures a threshold
chosen elsewhere (on another split of the queries: never tune on the test set);
:func:`abstention_report` does both for several systems.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa

from ..errors import CoverageWarning, InputTypeError, InputValueError
from ..stats.intervals import ConfidenceInterval, bootstrap_ci
from ..validation import check_relevance_level
from .arrow_inputs import as_frame, is_table
from .engine import natural_order
from .inputs import id_kind, qrels_columns, run_columns
from .parts import DeferredRun, RunInParts

__all__ = [
    "ThresholdChoice",
    "ThresholdSweep",
    "abstention_at",
    "abstention_report",
    "threshold_for",
    "threshold_sweep",
]

#: The columns of :attr:`ThresholdSweep.table`, in order.
SWEEP_COLUMNS = ("threshold", "false_answer_rate", "answer_rate", "abstention_rate",
                 "recall", "precision", "n_false_answers", "n_answered", "n_kept",
                 "n_relevant_kept")


# -- answerability ------------------------------------------------------------------------


def _flag(value, query) -> bool:
    """``value`` as a bool: True, False, 1 or 0 (NumPy's too), else an error naming it."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Real) and (value == 1 or value == 0):  # NaN is neither
        return bool(value)
    raise InputValueError(f"answerable of query {query!r} must be a boolean or 0/1, "
                          f"got {value!r}")


def _flags_of_columns(query: pd.Series, values: pd.Series) -> dict:
    """``{query_id: bool}`` from a column of query ids and one of flags (one row per
    query, or several that must agree)."""
    query = query.reset_index(drop=True)
    values = values.reset_index(drop=True)
    if pd.api.types.is_bool_dtype(values.dtype) and not values.isna().any():
        flags = values.to_numpy(dtype=bool)
    else:
        flags = np.fromiter((_flag(v, q) for q, v in zip(query, values, strict=True)), bool,
                            len(values))
    found = pd.DataFrame({"q": query, "f": flags})
    disagree = found.groupby("q", sort=False)["f"].nunique()
    if (disagree > 1).any():
        q = disagree.index[np.flatnonzero(disagree.to_numpy() > 1)[0]]
        raise InputValueError(f"answerable of query {q!r} is both true and false in the "
                              "judgments: give one value per query")
    first = found.drop_duplicates("q")
    return dict(zip(first["q"].tolist(), first["f"].tolist(), strict=True))


def _answerable_argument(answerable) -> dict:
    """``answerable=``: a mapping, a Series (index: query ids), or a frame with
    ``query_id`` and ``answerable`` columns (e.g. a data set's questions)."""
    if answerable is None:
        return {}
    if is_table(answerable):
        answerable = _table_to_pandas(answerable)
    if isinstance(answerable, pd.DataFrame):
        for column in ("query_id", "answerable"):
            if column not in answerable.columns:
                have = ", ".join(map(repr, answerable.columns))
                raise InputValueError(f"answerable has no column {column!r} (columns: {have})")
        return _flags_of_columns(answerable["query_id"], answerable["answerable"])
    if isinstance(answerable, pd.Series):
        return _flags_of_columns(answerable.index.to_series(), answerable)
    if isinstance(answerable, Mapping):
        return {q: _flag(v, q) for q, v in answerable.items()}
    raise InputTypeError("answerable must be a mapping {query_id: bool}, a Series indexed by "
                         "query id, or a frame with query_id and answerable columns; got "
                         f"{type(answerable).__name__}")


def _table_to_pandas(table) -> pd.DataFrame:
    if hasattr(table, "collect"):  # a Polars LazyFrame
        table = table.collect()
    if hasattr(table, "to_arrow"):  # a Polars DataFrame
        table = table.to_arrow()
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    return table.to_pandas()


def _judgments_and_flags(qrels) -> tuple:
    """The judgments without their ``answerable`` column, and that column as flags."""
    if hasattr(qrels, "qrels") and hasattr(qrels, "queries"):  # a Dataset
        flags = {}
        if isinstance(qrels.queries, pd.DataFrame) and "answerable" in qrels.queries.columns:
            flags = _flags_of_columns(qrels.queries["query_id"], qrels.queries["answerable"])
        judgments, more = _judgments_and_flags(qrels.qrels)
        return judgments, _merged(flags, more, "the data set's questions", "its judgments")
    if is_table(qrels):
        names = (qrels.collect_schema().names() if hasattr(qrels, "collect_schema")
                 else list(qrels.schema.names if hasattr(qrels, "schema") and
                           isinstance(qrels.schema, pa.Schema) else qrels.columns))
        if "answerable" in names:
            qrels = _table_to_pandas(qrels)
    if isinstance(qrels, pd.DataFrame) and "answerable" in qrels.columns:
        if "query_id" not in qrels.columns:
            raise InputValueError("qrels has an answerable column but no 'query_id'")
        flags = _flags_of_columns(qrels["query_id"], qrels["answerable"])
        return qrels.drop(columns="answerable"), flags
    return qrels, {}


def _merged(first: dict, second: dict, first_name: str, second_name: str) -> dict:
    for q in first.keys() & second.keys():
        if first[q] != second[q]:
            raise InputValueError(f"query {q!r} is answerable={first[q]} in {first_name} but "
                                  f"answerable={second[q]} in {second_name}")
    return first | second


# -- the sweep ----------------------------------------------------------------------------


@dataclass(eq=False)
class ThresholdSweep:
    """A run cut at every threshold: what :func:`threshold_sweep` returns.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per threshold, ascending: every distinct score of the run, then ``inf``
        (abstain always). Columns :data:`SWEEP_COLUMNS`: ``threshold``,
        ``false_answer_rate`` (unanswerable queries with a result scored >= the
        threshold), ``answer_rate`` (answerable queries with one), ``abstention_rate``
        (1 - answer_rate), ``recall`` (set recall of the kept results, mean over the
        answerable queries), ``precision`` (relevant share of the kept results, mean over
        the answerable queries that answer; NaN where none does), and the counts:
        ``n_false_answers``, ``n_answered`` (answerable queries answering), ``n_kept``
        and ``n_relevant_kept`` (results of answerable queries kept, and relevant ones).
    query_ids : numpy.ndarray
        The queries, in :func:`ragmetrics.evaluate`'s order.
    answerable : numpy.ndarray of bool
        Per query: does it have a relevant doc?
    n_answerable, n_unanswerable : int
    system : str or None
        The run's name, if given.
    """

    table: pd.DataFrame
    query_ids: np.ndarray
    answerable: np.ndarray
    system: str | None = None
    # per query
    _num_relevant: np.ndarray = field(repr=False, default=None)
    # per row of the run (the judged queries' rows)
    _row_query: np.ndarray = field(repr=False, default=None)
    _row_score: np.ndarray = field(repr=False, default=None)
    _row_relevant: np.ndarray = field(repr=False, default=None)
    _query_kind: str | None = field(repr=False, default=None)

    @property
    def n_answerable(self) -> int:
        return int(self.answerable.sum())

    @property
    def n_unanswerable(self) -> int:
        return int((~self.answerable).sum())

    def __len__(self) -> int:
        return len(self.table)

    def __repr__(self) -> str:
        name = "" if self.system is None else f"{self.system!r}: "
        return (f"ThresholdSweep({name}{len(self.table)} thresholds, {self.n_answerable} "
                f"answerable and {self.n_unanswerable} unanswerable queries)")

    def per_query(self, threshold: float) -> pd.DataFrame:
        """Each query at one threshold: what it keeps and what that scores.

        Parameters
        ----------
        threshold : float
            A result is kept when its score is >= ``threshold`` (any number, not only
            a score of the run; ``inf`` keeps nothing).

        Returns
        -------
        pandas.DataFrame
            Indexed by ``query_id``: ``answerable``, ``answered`` (a result kept),
            ``kept``, ``relevant_kept``, ``recall`` (NaN for an unanswerable query) and
            ``precision`` (NaN for an unanswerable query and one that keeps nothing).
        """
        threshold = _check_threshold(threshold)
        n = len(self.query_ids)
        keep = self._row_score >= threshold
        kept = np.bincount(self._row_query[keep], minlength=n)
        relevant = np.bincount(self._row_query[keep & self._row_relevant], minlength=n)
        with np.errstate(invalid="ignore", divide="ignore"):
            recall = np.where(self.answerable, relevant / np.maximum(self._num_relevant, 1),
                              np.nan)
            precision = np.where(self.answerable & (kept > 0), relevant / kept, np.nan)
        index = pd.Index(self.query_ids.astype(np.int64) if self._query_kind == "int"
                         else self.query_ids, name="query_id")
        return pd.DataFrame({"answerable": self.answerable, "answered": kept > 0,
                             "kept": kept, "relevant_kept": relevant, "recall": recall,
                             "precision": precision}, index=index)

    def at(self, threshold: float) -> pd.Series:
        """The sweep's columns at one threshold, from :meth:`per_query` (any number).

        Examples
        --------
        >>> run = {"q1": {"a": 0.9, "b": 0.4}, "q2": {"c": 0.7}}
        >>> sweep = threshold_sweep(run, {"q1": {"a"}, "q2": set()})
        >>> sweep.at(0.5)[["false_answer_rate", "answer_rate", "recall"]].tolist()
        [1.0, 1.0, 1.0]
        >>> sweep.at(0.8)[["false_answer_rate", "answer_rate", "recall"]].tolist()
        [0.0, 1.0, 1.0]
        """
        per_query = self.per_query(threshold)
        a = per_query["answerable"].to_numpy()
        answered = per_query["answered"].to_numpy()
        n_ans, n_unans = int(a.sum()), int((~a).sum())
        n_false = int((answered & ~a).sum())
        n_answered = int((answered & a).sum())
        answer_rate = n_answered / n_ans if n_ans else math.nan
        shown = per_query["precision"].to_numpy()[a & answered]
        return pd.Series({
            "threshold": float(threshold),
            "false_answer_rate": n_false / n_unans if n_unans else math.nan,
            "answer_rate": answer_rate,
            "abstention_rate": 1 - answer_rate,
            "recall": float(per_query["recall"].to_numpy()[a].mean()) if n_ans else math.nan,
            "precision": float(shown.mean()) if len(shown) else math.nan,
            "n_false_answers": n_false,
            "n_answered": n_answered,
            "n_kept": int(per_query["kept"].to_numpy()[a].sum()),
            "n_relevant_kept": int(per_query["relevant_kept"].to_numpy()[a].sum()),
        }, dtype=object)


def _check_threshold(threshold) -> float:
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
        raise InputTypeError(f"threshold must be a number, got {threshold!r}")
    if math.isnan(threshold):
        raise InputValueError("threshold must be a number, got nan")
    return float(threshold)


def _in_memory(run):
    """A run read when it is used (:class:`~ragmetrics.evaluation.parts.DeferredRun`, as
    ``ragmetrics evaluate`` passes them) read now; one read in parts
    (:class:`~ragmetrics.evaluation.parts.RunInParts`) read whole: the sweep sorts every
    score of the run at once."""
    if isinstance(run, DeferredRun):
        return run.load()
    if isinstance(run, RunInParts):
        if run.whole is not None:
            return run.whole()
        return pd.concat([as_frame(part) for part in run.parts()], ignore_index=True)
    return run


def _scored_run(run, system: str | None = None) -> pd.DataFrame | Mapping:
    """The run, refused unless it has scores: a threshold cuts scores, not ranks. The
    error names ``system`` when given."""
    where = "" if system is None else f"system {system!r}: "
    if isinstance(run, pd.DataFrame):
        if "score" not in run.columns:
            have = ", ".join(map(repr, run.columns))
            raise InputValueError(f"a score threshold needs the run's scores: {where}the run "
                                  f"has no 'score' column (columns: {have})")
        return run[[c for c in ("query_id", "doc_id", "score") if c in run.columns]]
    if isinstance(run, Mapping):
        for qid, ranking in run.items():
            if (not isinstance(ranking, (Mapping, str, bytes)) and isinstance(ranking, Iterable)
                    and len(list(ranking))):
                raise InputValueError(
                    f"a score threshold needs the run's scores: {where}run[{qid!r}] is a "
                    "list of ids; give {query_id: {doc_id: score}} or a frame with a score "
                    "column")
    return run


def threshold_sweep(run, qrels, *, answerable=None, queries=None, relevance_level: float = 1,
                    system: str | None = None) -> ThresholdSweep:
    """Cut a run at every threshold: the false-answer rate against answerable recall.

    A result is **kept** at threshold ``t`` when its score is >= ``t``; a query
    **answers** when it keeps at least one result, and abstains otherwise. A query is
    **unanswerable** when no doc of it is relevant (grade >= ``relevance_level``: no
    evidence, or an empty golden set), or when marked so by an ``answerable`` column or
    argument. At each threshold (definitions in :mod:`ragmetrics.evaluation.abstention`):

    .. math::

        \\mathrm{FAR}(t) = \\frac{|\\{q \\text{ unanswerable}: \\max_d s_{q,d} \\ge t\\}|}
        {|\\text{unanswerable}|}, \\qquad
        \\mathrm{recall}(t) = \\frac{1}{|A|}\\sum_{q \\in A}
        \\frac{|\\{d \\in R_q: s_{q,d} \\ge t\\}|}{|R_q|}

    with ``A`` the answerable queries and ``R_q`` a query's relevant docs. Every distinct
    score of the run is a threshold, and so is ``inf`` (keep nothing: abstain always,
    every rate 0). The rows are computed together: the rows of the run sorted by score
    once, each rate a cumulative count read at each threshold (a million rows in about a
    second).

    Parameters
    ----------
    run : DataFrame, table or mapping
        ``query_id, doc_id, score`` (a rank column is ignored) or ``{query_id: {doc_id:
        score}}``: the retriever's results and their scores (a list of ids has no
        score to cut, and is refused). A judged query absent from the run answers
        nothing at any threshold. A run that ``ragmetrics evaluate`` reads when it is
        used (:mod:`ragmetrics.evaluation.parts`) is read here, whole.
    qrels : DataFrame, table, mapping or Dataset
        The judgments, in any shape :func:`ragmetrics.evaluate` takes, and optionally
        with an ``answerable`` column (booleans or 0/1, one value per query); or a
        :class:`ragmetrics.Dataset`, whose questions may carry an ``answerable`` column.
        Queries with an empty golden set (``{"q2": set()}``) are unanswerable.
    answerable : mapping, Series or DataFrame, optional
        ``{query_id: bool}``, a Series indexed by query id, or a frame with ``query_id``
        and ``answerable`` columns (booleans or 0/1). Its queries join the judged ones:
        unanswerable questions often have no judgment row at all (SQuAD 2.0's). A query
        marked answerable with no relevant doc, or unanswerable with one, is an error.
    queries : iterable of query ids, optional
        Only these queries (a split: tune the threshold on one, measure on another).
        Each must be judged or in ``answerable``.
    relevance_level : float, default 1
        A doc is relevant at grade >= this.
    system : str, optional
        A name for the run, kept in the result.

    Returns
    -------
    ThresholdSweep
        ``.table``, one row per threshold ascending (:data:`SWEEP_COLUMNS`), and the
        per-query view at any threshold (:meth:`ThresholdSweep.per_query`).

    Raises
    ------
    InputValueError
        A run without scores, a non-finite score, a doc twice in one query's results,
        an ``answerable`` value that is not a boolean or 0/1, an ``answerable`` flag
        that contradicts the judgments, a query in ``queries`` that is not judged.

    See Also
    --------
    threshold_for : the threshold that meets a false-answer rate.
    ragmetrics.plotting.plot_threshold_sweep : the curve.

    Examples
    --------
    Two answerable questions (q1, q2) and two with no answer (q3, q4):

    >>> run = {"q1": {"a": 0.9, "x": 0.6}, "q2": {"y": 0.8, "b": 0.5},
    ...        "q3": {"z": 0.7}, "q4": {"w": 0.4}}
    >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()}
    >>> sweep = threshold_sweep(run, qrels)
    >>> sweep.table[["threshold", "false_answer_rate", "answer_rate", "recall",
    ...              "precision"]]
       threshold  false_answer_rate  answer_rate  recall  precision
    0        0.4                1.0          1.0     1.0       0.50
    1        0.5                0.5          1.0     1.0       0.50
    2        0.6                0.5          1.0     0.5       0.25
    3        0.7                0.5          1.0     0.5       0.50
    4        0.8                0.0          1.0     0.5       0.50
    5        0.9                0.0          0.5     0.5       1.00
    6        inf                0.0          0.0     0.0        NaN

    At 0.8, q3 (0.7) abstains: no false answer, and q2 keeps only ``y`` (recall 0,
    precision 0; q1's are 1 and 1). At 0.6, q1 keeps ``a`` and ``x`` (precision 1/2) and
    q2 ``y`` (0): precision 0.25. The same with
    the flags given explicitly, as a data set's questions carry them:

    >>> flags = {"q1": True, "q2": True, "q3": False, "q4": False}
    >>> threshold_sweep(run, {"q1": {"a"}, "q2": {"b"}}, answerable=flags).table.equals(
    ...     sweep.table)
    True
    """
    level = check_relevance_level(relevance_level)
    judgments, flags = _judgments_and_flags(qrels)
    flags = _merged(flags, _answerable_argument(answerable), "the judgments",
                    "answerable=")
    judged = qrels_columns(as_frame(judgments))
    scored = run_columns(as_frame(_scored_run(as_frame(_in_memory(run)), system)))
    run_query_kind = id_kind(scored.query, "query_id", "run")
    run_doc_kind = id_kind(scored.doc, "doc_id", "run")
    flag_kind = id_kind(pd.Series(list(flags), dtype=object), "query_id", "answerable")
    _same_kinds([("the run", run_query_kind, run_doc_kind),
                 ("the judgments", judged.query_kind, id_kind(judged.doc, "doc_id", "qrels")),
                 ("answerable", flag_kind, None)])
    finite = np.isfinite(scored.value)
    if not finite.all():
        i = int(np.flatnonzero(~finite)[0])
        raise InputValueError(f"run: query {scored.query.iloc[i]!r}, doc {scored.doc.iloc[i]!r} "
                              f"has score {float(scored.value[i])!r}: a threshold needs finite "
                              "scores")

    # The queries: judged, with or without rows, and those answerable= names.
    ids = list(dict.fromkeys([*pd.unique(judged.query), *judged.bare_queries, *flags]))
    if queries is not None:
        ids = _selected(queries, ids)
    ids = np.array(ids, dtype=object)
    ids = ids[natural_order(ids)]
    index = pd.Index(ids, dtype=object)

    # Relevant docs per query, and the answerable flags checked against them.
    q_of_judgment = index.get_indexer(judged.query)
    relevant_rows = (judged.value >= level) & (q_of_judgment >= 0)
    rel_query = q_of_judgment[relevant_rows]
    rel_doc = judged.doc[relevant_rows].reset_index(drop=True)
    num_relevant = np.bincount(rel_query, minlength=len(ids))
    answerable_q = num_relevant > 0
    if flags:
        flagged = np.array(list(flags.values()), dtype=bool)
        at = index.get_indexer(pd.Index(list(flags), dtype=object))
        wrong = np.flatnonzero((at >= 0) & (flagged != answerable_q[np.maximum(at, 0)]))
        if len(wrong):
            q, flag, n = list(flags)[wrong[0]], bool(flagged[wrong[0]]), at[wrong[0]]
            why = "has no relevant doc" if flag else f"has {num_relevant[n]} relevant doc(s)"
            raise InputValueError(f"query {q!r} is marked answerable={flag} but {why} at "
                                  f"relevance_level {level:g}")

    # The run's rows of those queries, each judged relevant or not.
    row_q = index.get_indexer(scored.query)
    if queries is None and (row_q < 0).any():
        unjudged = pd.unique(scored.query[row_q < 0])
        shown = ", ".join(map(repr, unjudged[:3])) + (", ..." if len(unjudged) > 3 else "")
        warnings.warn(f"{len(unjudged)} quer{'y' if len(unjudged) == 1 else 'ies'} of the run "
                      f"ha{'s' if len(unjudged) == 1 else 've'} no judgments ({shown}): left "
                      "out of the sweep", CoverageWarning, stacklevel=2)
    rows = np.flatnonzero(row_q >= 0)
    row_q = row_q[rows]
    row_doc = scored.doc.take(rows).reset_index(drop=True)
    row_score = scored.value[rows]
    doc_codes, doc_values = pd.factorize(pd.concat([rel_doc, row_doc], ignore_index=True)
                                         .astype(object))
    n_docs = max(len(doc_values), 1)
    rel_keys = rel_query.astype(np.int64) * n_docs + doc_codes[:len(rel_doc)]
    row_keys = row_q.astype(np.int64) * n_docs + doc_codes[len(rel_doc):]
    _refuse_repeats(row_keys, row_q, ids, row_doc)
    row_relevant = np.isin(row_keys, rel_keys)

    table = _sweep_table(row_q, row_score, row_relevant, num_relevant, answerable_q)
    return ThresholdSweep(table, ids, answerable_q, system, num_relevant, row_q, row_score,
                          row_relevant, run_query_kind or judged.query_kind)


def _same_kinds(sides: list) -> None:
    """``"42"`` and ``42`` never match: refuse ids of two kinds across the inputs.

    ``sides`` holds ``(name, query kind, doc kind)``, a kind being 'str', 'int' or None.
    """
    for position, column in ((1, "query_id"), (2, "doc_id")):
        kinds = [(side[0], side[position]) for side in sides if side[position]]
        if len({kind for _, kind in kinds}) > 1:
            said = " but ".join(f"{kind} in {name}" for name, kind in kinds)
            raise InputTypeError(f"{column} is {said}, so no id would ever match; convert "
                                 "one side first")


def _selected(queries, ids: list) -> list:
    if isinstance(queries, (str, bytes)) or not isinstance(queries, Iterable):
        raise InputTypeError(f"queries must be an iterable of query ids, got {queries!r}")
    chosen = list(dict.fromkeys(queries))
    known = set(ids)
    unknown = [q for q in chosen if q not in known]
    if unknown:
        shown = ", ".join(map(repr, unknown[:3])) + (", ..." if len(unknown) > 3 else "")
        raise InputValueError(f"queries names {len(unknown)} quer"
                              f"{'y' if len(unknown) == 1 else 'ies'} neither judged nor "
                              f"in answerable=: {shown}")
    if not chosen:
        raise InputValueError("queries is empty: a sweep needs at least one query")
    return chosen


def _refuse_repeats(keys: np.ndarray, row_q: np.ndarray, ids: np.ndarray,
                    docs: pd.Series) -> None:
    """A doc twice in one query's results: which score would count? An error."""
    order = np.argsort(keys, kind="stable")
    same = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    if len(same):
        row = order[same[0] + 1]
        raise InputValueError(f"run: doc {docs.iloc[row]!r} appears twice in the results of "
                              f"query {ids[row_q[row]]!r}")


def _sweep_table(row_q, score, relevant, num_relevant, answerable) -> pd.DataFrame:
    """Every threshold's row at once: rows sorted by score once, cumulative counts."""
    n_queries = len(answerable)
    n_ans, n_unans = int(answerable.sum()), int((~answerable).sum())
    thresholds = np.unique(score)  # ascending
    ascending = np.sort(score, kind="stable")
    n_kept_rows = len(score) - np.searchsorted(ascending, thresholds, side="left")

    # Each query's rows, best first: its best score, and the precision it has after
    # each of its rows (the rows at or above a threshold are a prefix of this order).
    by_query = np.lexsort((-score, row_q))
    q_sorted = row_q[by_query]
    starts = np.flatnonzero(np.r_[True, q_sorted[1:] != q_sorted[:-1]]) if len(row_q) else (
        np.zeros(0, np.int64))
    best = np.full(n_queries, -np.inf)
    best[q_sorted[starts]] = score[by_query][starts]
    group_start = np.repeat(starts, np.diff(np.r_[starts, len(row_q)]))
    kept = np.arange(len(row_q)) - group_start + 1
    rel_sorted = relevant[by_query].astype(np.int64)
    cum_rel = np.cumsum(rel_sorted)
    rel_so_far = cum_rel - np.r_[0, cum_rel][group_start]
    after = rel_so_far / kept
    with np.errstate(invalid="ignore", divide="ignore"):
        before = np.where(kept > 1, (rel_so_far - rel_sorted) / (kept - 1), 0.0)
    row_answerable = answerable[row_q]
    precision_step = np.empty(len(row_q))
    precision_step[by_query] = np.where(answerable[q_sorted], after - before, 0.0)

    # Cumulative sums over the rows by score, descending, read at each threshold.
    descending = np.argsort(-score, kind="stable")

    def kept_sum(per_row) -> np.ndarray:
        return np.r_[0, np.cumsum(per_row[descending])][n_kept_rows]

    recall_step = np.where(relevant & row_answerable,
                           1 / np.maximum(num_relevant[row_q], 1), 0.0)
    recall = kept_sum(recall_step) / n_ans if n_ans else np.full(len(thresholds), np.nan)
    n_kept = kept_sum(row_answerable.astype(np.int64))
    n_relevant_kept = kept_sum((relevant & row_answerable).astype(np.int64))
    precision_sum = kept_sum(precision_step)

    def answering(mask) -> np.ndarray:
        bests = np.sort(best[mask])
        return len(bests) - np.searchsorted(bests, thresholds, side="left")

    n_answered, n_false = answering(answerable), answering(~answerable)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(n_answered > 0, precision_sum / np.maximum(n_answered, 1), np.nan)
        answer_rate = n_answered / n_ans if n_ans else np.full(len(thresholds), np.nan)
        false_rate = n_false / n_unans if n_unans else np.full(len(thresholds), np.nan)
    table = pd.DataFrame({
        "threshold": np.r_[thresholds, np.inf],
        "false_answer_rate": np.r_[false_rate, 0.0 if n_unans else np.nan],
        "answer_rate": np.r_[answer_rate, 0.0 if n_ans else np.nan],
        "abstention_rate": 1 - np.r_[answer_rate, 0.0 if n_ans else np.nan],
        "recall": np.r_[recall, 0.0 if n_ans else np.nan],
        "precision": np.r_[precision, np.nan],
        "n_false_answers": np.r_[n_false, 0].astype(np.int64),
        "n_answered": np.r_[n_answered, 0].astype(np.int64),
        "n_kept": np.r_[n_kept, 0].astype(np.int64),
        "n_relevant_kept": np.r_[n_relevant_kept, 0].astype(np.int64),
    })
    return table


# -- choosing a threshold, and measuring it ---------------------------------------------------


@dataclass(frozen=True)
class ThresholdChoice:
    """One threshold and what it gives, with bootstrap intervals over queries.

    What :func:`threshold_for` (a threshold chosen by a rule) and :func:`abstention_at`
    (a threshold given) return.

    Attributes
    ----------
    threshold : float
        Results scored >= this are kept; ``inf`` is "abstain always".
    rule : str
        How it was chosen, in words.
    false_answer_rate, answer_rate, recall, precision : float
        As in :attr:`ThresholdSweep.table`, on the queries measured.
    false_answer_rate_ci, recall_ci : ConfidenceInterval or None
        :func:`ragmetrics.bootstrap_ci` over the unanswerable queries' 0/1 false answers,
        and over the answerable queries' recalls (None when there is no such query).
        The threshold is held fixed: measured on the queries that chose it, the
        interval does not include the choice's own optimism (measure on other queries).
    n_answerable, n_unanswerable : int
    system : str or None
    """

    threshold: float
    rule: str
    false_answer_rate: float
    answer_rate: float
    recall: float
    precision: float
    false_answer_rate_ci: ConfidenceInterval | None
    recall_ci: ConfidenceInterval | None
    n_answerable: int
    n_unanswerable: int
    system: str | None = None

    def __str__(self) -> str:
        def shown(value, ci):
            return f"{value:.4f}" if ci is None else str(ci)
        return (f"threshold {self.threshold:g} ({self.rule}): false-answer rate "
                f"{shown(self.false_answer_rate, self.false_answer_rate_ci)} on "
                f"{self.n_unanswerable} unanswerable queries, recall "
                f"{shown(self.recall, self.recall_ci)} and answer rate {self.answer_rate:.4f} "
                f"on {self.n_answerable} answerable ones")


def abstention_at(sweep: ThresholdSweep, threshold: float, *, confidence: float = 0.95,
                  n_resamples: int = 10_000, seed: int = 0,
                  rule: str = "given") -> ThresholdChoice:
    """Measure one threshold on a sweep's queries, with bootstrap intervals.

    Use it on queries the threshold was **not** chosen on: choose with
    :func:`threshold_for` on one split, measure here on another.

    Parameters
    ----------
    sweep : ThresholdSweep
        From :func:`threshold_sweep`, on the queries to measure.
    threshold : float
        Any number (a result is kept when its score is >= it).
    confidence, n_resamples, seed
        As in :func:`ragmetrics.bootstrap_ci` (its default ``"expanded_t"`` interval,
        clipped to [0, 1]).
    rule : str, default "given"
        Words for how the threshold was chosen, kept in the result.

    Returns
    -------
    ThresholdChoice

    Examples
    --------
    Choose on the first four queries, measure on the last four:

    >>> run = {"q1": {"a": 0.9}, "q2": {"b": 0.6}, "q3": {"x": 0.5}, "q4": {"y": 0.3},
    ...        "q5": {"c": 0.8}, "q6": {"d": 0.4}, "q7": {"z": 0.7}, "q8": {"w": 0.2}}
    >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q5": {"c"}, "q6": {"d"},
    ...          "q3": set(), "q4": set(), "q7": set(), "q8": set()}
    >>> tune = threshold_sweep(run, qrels, queries=["q1", "q2", "q3", "q4"])
    >>> chosen = threshold_for(tune, max_false_answer_rate=0.0)
    >>> chosen.threshold, chosen.recall
    (0.6, 1.0)
    >>> test = threshold_sweep(run, qrels, queries=["q5", "q6", "q7", "q8"])
    >>> held_out = abstention_at(test, chosen.threshold)
    >>> held_out.false_answer_rate, held_out.recall
    (0.5, 0.5)

    On the tuning split the gate looked perfect; on fresh queries it lets one of two
    unanswerable questions through and blocks half of the answerable ones.
    """
    if not isinstance(sweep, ThresholdSweep):
        raise InputTypeError(f"sweep must be a ThresholdSweep (from threshold_sweep), got "
                             f"{type(sweep).__name__}")
    threshold = _check_threshold(threshold)
    per_query = sweep.per_query(threshold)
    a = per_query["answerable"].to_numpy()
    row = sweep.at(threshold)

    def interval(values):
        if not len(values):
            return None
        return bootstrap_ci(values, confidence=confidence, n_resamples=n_resamples,
                            seed=seed, bounds=(0, 1))

    return ThresholdChoice(
        threshold=threshold, rule=rule,
        false_answer_rate=float(row["false_answer_rate"]),
        answer_rate=float(row["answer_rate"]), recall=float(row["recall"]),
        precision=float(row["precision"]),
        false_answer_rate_ci=interval(per_query["answered"].to_numpy()[~a].astype(float)),
        recall_ci=interval(per_query["recall"].to_numpy()[a]),
        n_answerable=int(a.sum()), n_unanswerable=int((~a).sum()), system=sweep.system)


def threshold_for(sweep: ThresholdSweep, *, max_false_answer_rate: float,
                  confidence: float = 0.95, n_resamples: int = 10_000,
                  seed: int = 0) -> ThresholdChoice:
    """The lowest threshold whose false-answer rate is at most a target.

    The rule: among the sweep's thresholds (every distinct score, and ``inf``), the
    lowest ``t`` with ``false_answer_rate(t) <= max_false_answer_rate``. The
    false-answer rate never rises with the threshold, so every higher threshold meets
    the target too, with recall no higher: this is the threshold that keeps the most
    answers within the budget of false ones. When no score meets it, the answer is
    ``inf``: abstain always.

    Parameters
    ----------
    sweep : ThresholdSweep
        From :func:`threshold_sweep`; it needs at least one unanswerable query.
    max_false_answer_rate : float
        The target, from 0 to 1 (0.05: at most one unanswerable question in twenty gets
        an answer).
    confidence, n_resamples, seed
        The bootstrap intervals, as in :func:`abstention_at`.

    Returns
    -------
    ThresholdChoice
        Measured on the same queries: an optimistic estimate of what the threshold
        does on new ones (see :func:`abstention_at` for a held-out measurement).

    Examples
    --------
    >>> run = {"q1": {"a": 0.9, "x": 0.6}, "q2": {"y": 0.8, "b": 0.5},
    ...        "q3": {"z": 0.7}, "q4": {"w": 0.4}}
    >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()}
    >>> sweep = threshold_sweep(run, qrels)
    >>> choice = threshold_for(sweep, max_false_answer_rate=0.5)
    >>> choice.threshold, choice.false_answer_rate, choice.recall
    (0.5, 0.5, 1.0)
    >>> threshold_for(sweep, max_false_answer_rate=0.0).threshold
    0.8
    """
    threshold, rule = _lowest_meeting(sweep, max_false_answer_rate)
    return abstention_at(sweep, threshold, confidence=confidence, n_resamples=n_resamples,
                         seed=seed, rule=rule)


def _lowest_meeting(sweep: ThresholdSweep, target) -> tuple[float, str]:
    """:func:`threshold_for`'s rule: the threshold, and the rule in words."""
    if not isinstance(sweep, ThresholdSweep):
        raise InputTypeError(f"sweep must be a ThresholdSweep (from threshold_sweep), got "
                             f"{type(sweep).__name__}")
    if isinstance(target, bool) or not isinstance(target, numbers.Real) or math.isnan(target):
        raise InputTypeError(f"max_false_answer_rate must be a number, got {target!r}")
    if not 0 <= target <= 1:
        raise InputValueError(f"max_false_answer_rate must be between 0 and 1, got {target!r}")
    if sweep.n_unanswerable == 0:
        raise InputValueError("no query is unanswerable: a false-answer rate needs "
                              "questions with no relevant doc (or answerable=False)")
    table = sweep.table
    meets = np.flatnonzero(table["false_answer_rate"].to_numpy() <= target)
    threshold = float(table["threshold"].to_numpy()[meets[0]])
    return threshold, f"the lowest threshold with false-answer rate <= {target:g}"


def abstention_report(runs: Mapping, qrels, *, max_false_answer_rate: float,
                      answerable=None, tune_queries=None, relevance_level: float = 1,
                      confidence: float = 0.95, n_resamples: int = 10_000,
                      seed: int = 0) -> pd.DataFrame:
    """Each system's threshold for a false-answer rate, and what it gives.

    For each run: :func:`threshold_sweep`, :func:`threshold_for` the target, and, with
    ``tune_queries``, the threshold chosen on those queries and measured on all the
    others (:func:`abstention_at`), as it should be: never tune on the test set.

    Parameters
    ----------
    runs : mapping
        ``{system name: run}``, each run as :func:`threshold_sweep` takes it.
    qrels, answerable, relevance_level
        As in :func:`threshold_sweep`.
    max_false_answer_rate : float
        The target of :func:`threshold_for`.
    tune_queries : iterable of query ids, optional
        The split to choose each threshold on; the numbers are measured on the other
        queries. By default the threshold is chosen and measured on every query (an
        optimistic measurement, said in the ``measured_on`` column).
    confidence, n_resamples, seed
        The bootstrap intervals (:func:`abstention_at`).

    Returns
    -------
    pandas.DataFrame
        One row per system (index ``system``): ``threshold``, ``false_answer_rate`` with
        ``false_answer_rate_low`` and ``_high``, ``recall`` with ``recall_low`` and
        ``_high``, ``answer_rate``, ``precision``, ``n_answerable``, ``n_unanswerable``,
        ``measured_on``.

    Examples
    --------
    >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()}
    >>> runs = {"bm25": {"q1": {"a": 3.0}, "q2": {"b": 2.0}, "q3": {"c": 2.5},
    ...                  "q4": {"d": 1.0}},
    ...         "dense": {"q1": {"a": 0.9}, "q2": {"b": 0.8}, "q3": {"c": 0.4},
    ...                   "q4": {"d": 0.3}}}
    >>> report = abstention_report(runs, qrels, max_false_answer_rate=0.0)
    >>> report[["threshold", "false_answer_rate", "recall", "measured_on"]]
    ... # doctest: +NORMALIZE_WHITESPACE
            threshold  false_answer_rate  recall          measured_on
    system
    bm25          3.0                0.0     0.5  the queries it was chosen on
    dense         0.8                0.0     1.0  the queries it was chosen on
    """
    if not isinstance(runs, Mapping) or not runs:
        raise InputTypeError("runs must be a non-empty mapping {system name: run}, got "
                             f"{type(runs).__name__}")
    rows = {}
    for name, run in runs.items():
        _check_is_a_run(name, run)
        if tune_queries is None:
            sweep = threshold_sweep(run, qrels, answerable=answerable,
                                    relevance_level=relevance_level, system=name)
            choice = threshold_for(sweep, max_false_answer_rate=max_false_answer_rate,
                                   confidence=confidence, n_resamples=n_resamples, seed=seed)
            where = "the queries it was chosen on"
        else:
            tune = list(dict.fromkeys(tune_queries))
            tuned = threshold_sweep(run, qrels, answerable=answerable, queries=tune,
                                    relevance_level=relevance_level, system=name)
            threshold, rule = _lowest_meeting(tuned, max_false_answer_rate)
            every = threshold_sweep(run, qrels, answerable=answerable,
                                    relevance_level=relevance_level, system=name)
            tuned_on = set(tune)
            held_out = [q for q in every.query_ids.tolist() if q not in tuned_on]
            if not held_out:
                raise InputValueError("tune_queries holds every query: none is left to "
                                      "measure the threshold on")
            test = threshold_sweep(run, qrels, answerable=answerable, queries=held_out,
                                   relevance_level=relevance_level, system=name)
            choice = abstention_at(test, threshold, confidence=confidence,
                                   n_resamples=n_resamples, seed=seed,
                                   rule=f"{rule}, chosen on {len(tune)} tuning queries")
            where = f"{len(held_out)} held-out queries"
        far, rec = choice.false_answer_rate_ci, choice.recall_ci
        rows[name] = {
            "threshold": choice.threshold,
            "false_answer_rate": choice.false_answer_rate,
            "false_answer_rate_low": math.nan if far is None else far.low,
            "false_answer_rate_high": math.nan if far is None else far.high,
            "recall": choice.recall,
            "recall_low": math.nan if rec is None else rec.low,
            "recall_high": math.nan if rec is None else rec.high,
            "answer_rate": choice.answer_rate,
            "precision": choice.precision,
            "n_answerable": choice.n_answerable,
            "n_unanswerable": choice.n_unanswerable,
            "measured_on": where,
        }
    report = pd.DataFrame.from_dict(rows, orient="index")
    report.index.name = "system"
    return report


def _check_is_a_run(name, run) -> None:
    """``{name: run}``, not a run given where the systems go (``{query_id: {doc: score}}``)."""
    if isinstance(run, Mapping) and run:
        first = next(iter(run.values()))
        if isinstance(first, numbers.Real) and not isinstance(first, bool):
            raise InputTypeError(
                f"runs[{name!r}] maps ids to numbers: runs must be {{system name: run}}; "
                "was one run given? Pass {'my_system': run}")
