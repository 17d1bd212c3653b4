"""Questions with no answer in a comparison: each system's threshold for a false-answer rate.

A RAG system that may say "I don't know" answers a question only when its retriever
returns a result scored at or above a threshold. Recall and precision cannot judge that
gate (a system that always answers passes them); the **false-answer rate**, the share of
unanswerable questions that still get an answer, can
(:mod:`ragmetrics.evaluation.abstention`). With
``compare(..., max_false_answer_rate=0.1)`` every system gets its own threshold, the
lowest score whose false-answer rate is at most the target
(:func:`ragmetrics.threshold_for`), and what that threshold gives: its false-answer rate
and the recall and answer rate of the answerable questions, with bootstrap intervals
over questions (:func:`ragmetrics.abstention_report`). Each system is then judged at the
same budget of false answers: the one that keeps more of the answers within it abstains
better.

Chosen and measured on the same questions, a threshold looks better than it will be on
new ones; ``tune_queries`` chooses it on those queries and measures it on all the others,
and the report says which was done. The table is :attr:`ragmetrics.Comparison.abstention`;
the reports show it in a section of its own, "Questions with no answer", beside the
metrics, never among them (the metrics' verdicts are unchanged by it).
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pandas as pd

from ..errors import CoverageWarning, InputTypeError, InputValueError
from ..evaluation.abstention import abstention_report

__all__ = ["NoAnswerOptions", "check_no_answer", "no_answer_table"]


@dataclass(frozen=True)
class NoAnswerOptions:
    """The no-answer options of :func:`ragmetrics.compare`, checked
    (:func:`check_no_answer`); all None when no target is given."""

    max_false_answer_rate: float | None = None
    tune_queries: tuple | None = None
    answerable: object = None


def check_no_answer(max_false_answer_rate, tune_queries=None, answerable=None, *,
                    spans: bool = False) -> NoAnswerOptions:
    """The no-answer options of :func:`ragmetrics.compare`, checked at the boundary.

    Parameters
    ----------
    max_false_answer_rate : float or None
        The target, from 0 to 1; None (the default of ``compare``) turns the analysis off,
        and then ``tune_queries`` and ``answerable`` must be None too.
    tune_queries : iterable of query ids, optional
        The queries each threshold is chosen on (not a string: a list of ids); each
        given once.
    answerable : optional
        As in :func:`ragmetrics.threshold_sweep` (checked there).
    spans : bool
        Whether the comparison judges evidence spans (not supported: the thresholds are
        read on judgments of ids).

    Returns
    -------
    NoAnswerOptions

    Examples
    --------
    >>> check_no_answer(0.1, ["q1", "q2", "q1"]).tune_queries
    ('q1', 'q2')
    >>> check_no_answer(None)
    NoAnswerOptions(max_false_answer_rate=None, tune_queries=None, answerable=None)
    >>> check_no_answer(1.5)
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: max_false_answer_rate must be between 0 and 1 (a \
share of the unanswerable questions), got 1.5
    """
    if max_false_answer_rate is None:
        for name, value in (("tune_queries", tune_queries), ("answerable", answerable)):
            if value is not None:
                raise InputValueError(f"{name} is for the thresholds of questions with no "
                                      "answer: give max_false_answer_rate too")
        return NoAnswerOptions()
    rate = max_false_answer_rate
    if isinstance(rate, bool) or not isinstance(rate, numbers.Real):
        raise InputTypeError(f"max_false_answer_rate must be a number from 0 to 1, got "
                             f"{rate!r}")
    if not math.isfinite(rate) or not 0 <= rate <= 1:
        raise InputValueError("max_false_answer_rate must be between 0 and 1 (a share of the "
                              f"unanswerable questions), got {rate!r}")
    if spans:
        raise InputValueError(
            "max_false_answer_rate reads the thresholds on judgments of chunk ids; runs "
            "judged by evidence spans are not supported: judge the chunks first "
            "(ragmetrics.chunk_qrels) and compare on those qrels")
    if tune_queries is not None:
        if isinstance(tune_queries, (str, bytes, Mapping)) or not isinstance(tune_queries,
                                                                            Iterable):
            raise InputTypeError("tune_queries must be a list of query ids, got "
                                 f"{type(tune_queries).__name__}: {tune_queries!r}")
        tune_queries = tuple(dict.fromkeys(tune_queries))
        if not tune_queries:
            raise InputValueError("tune_queries is empty: give the query ids to choose each "
                                  "threshold on (or None: choose on every query)")
    return NoAnswerOptions(float(rate), tune_queries, answerable)


def no_answer_table(systems: Mapping, qrels, options: NoAnswerOptions, *,
                    relevance_level: float, confidence: float, n_resamples: int,
                    seed: int) -> pd.DataFrame:
    """Each system's threshold for the target, and what it gives, with intervals.

    :func:`ragmetrics.abstention_report` on every system, in the comparison's order (the
    baseline first), with its relevance level, interval level, resamples and seed. A
    run without scores is refused, naming its system. The comparison's notes already
    name the run queries without judgments, so the sweeps' own warning about them is not
    repeated.

    Returns
    -------
    pandas.DataFrame
        :func:`ragmetrics.abstention_report`'s table, one row per system; its
        ``.attrs`` hold ``max_false_answer_rate`` and ``tuned_apart`` (True when each
        threshold was chosen on ``tune_queries`` and measured on the other queries).

    Examples
    --------
    >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()}
    >>> runs = {"bm25": {"q1": {"a": 3.0}, "q2": {"b": 2.0}, "q3": {"c": 2.5}},
    ...         "dense": {"q1": {"a": 0.9}, "q2": {"b": 0.8}, "q3": {"c": 0.4}}}
    >>> table = no_answer_table(runs, qrels, check_no_answer(0.0), relevance_level=1,
    ...                         confidence=0.95, n_resamples=200, seed=0)
    >>> table[["threshold", "false_answer_rate", "recall"]]  # doctest: +NORMALIZE_WHITESPACE
            threshold  false_answer_rate  recall
    system
    bm25          3.0                0.0     0.5
    dense         0.8                0.0     1.0
    """
    rate, tune = options.max_false_answer_rate, options.tune_queries
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        table = abstention_report(dict(systems), qrels, max_false_answer_rate=rate,
                                  answerable=options.answerable, tune_queries=tune,
                                  relevance_level=relevance_level, confidence=confidence,
                                  n_resamples=n_resamples, seed=seed)
    table.attrs["max_false_answer_rate"] = rate
    table.attrs["tuned_apart"] = tune is not None
    return table
