"""Questions with no answer, in the report: each system's threshold, and which abstains better.

With ``compare(..., max_false_answer_rate=0.1)`` every system has its own score threshold,
the lowest whose false-answer rate (unanswerable questions that still get an answer) is at
most the target, and ``comparison.abstention`` holds what it gives
(:mod:`ragmetrics.comparison.no_answer`). This module words it for the reports:

- :func:`abstention_sentences`: for each system against the baseline, which abstains
  better. At thresholds chosen for the same budget of false answers, a system that has
  no more false answers and no less recall than the other, and differs in one, abstains
  better; one with more recall but more false answers is a trade-off, said as such.
  Where both intervals of what differs overlap, the sentence says that these questions do
  not settle it (overlapping intervals are no test; they say the difference is within
  what chance could give). Then what the numbers need to be read with: thresholds
  chosen on the queries they are measured on flatter themselves; measured on other
  queries, a rate above the target is named.
- :func:`abstention_table`: the table as text, one row per system.

It computes nothing: the numbers are the Comparison's.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pandas as pd

from .formatting import format_interval, format_number, format_percent

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["NO_ANSWER_HEADING", "abstention_caption", "abstention_sentences",
           "abstention_table"]

#: The heading of the section.
NO_ANSWER_HEADING = "Questions with no answer"

# Two rates closer than this are the same rate (they are ratios of counts).
_SAME = 1e-12


def _threshold(value: float) -> str:
    return "inf (never answers)" if math.isinf(value) else f"{value:g}"


def abstention_table(comparison: Comparison) -> pd.DataFrame | None:
    """Each system's threshold and what it gives, as text; None without
    ``comparison.abstention``.

    Columns ``threshold``, ``false-answer rate`` and ``recall`` (each with its
    interval), ``answer rate``, ``unanswerable`` and ``answerable`` (the questions
    counted) and ``measured on``.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()}
    >>> runs = {"bm25": {"q1": {"a": 3.0}, "q2": {"b": 2.0}, "q3": {"c": 2.5}}}
    >>> table = abstention_table(compare(runs, qrels, ["recall@1"], n_resamples=200,
    ...                                  max_false_answer_rate=0.5))
    >>> table.loc["bm25", ["threshold", "answer rate", "measured on"]].tolist()
    ['2', '1.0000', 'the queries it was chosen on']
    """
    found = comparison.abstention
    if found is None:
        return None
    table = pd.DataFrame({
        "threshold": [_threshold(t) for t in found["threshold"]],
        "false-answer rate": [format_interval(m, lo, hi) for m, lo, hi in zip(
            found["false_answer_rate"], found["false_answer_rate_low"],
            found["false_answer_rate_high"], strict=True)],
        "recall": [format_interval(m, lo, hi) for m, lo, hi in zip(
            found["recall"], found["recall_low"], found["recall_high"], strict=True)],
        "answer rate": [format_number(v) for v in found["answer_rate"]],
        "unanswerable": found["n_unanswerable"].astype(str).tolist(),
        "answerable": found["n_answerable"].astype(str).tolist(),
        "measured on": found["measured_on"].tolist(),
    }, index=found.index)
    table.index.name = "system"
    return table


def abstention_caption(comparison: Comparison) -> str:
    """What the table holds, in a sentence or two (the section's caption)."""
    target = comparison.max_false_answer_rate
    tuned = comparison.abstention.attrs.get("tuned_apart", False)
    where = ("on the tuning queries, then measured on all the other queries" if tuned
             else "on the queries it is measured on")
    return (f"A question gets an answer when a result scores at or above its system's "
            f"threshold: the lowest score whose false-answer rate (unanswerable questions "
            f"that get an answer) is at most {target:g}, chosen {where}. Recall and answer "
            f"rate are over the answerable questions; intervals at "
            f"{format_percent(comparison.confidence)}, bootstrap over questions. Beside "
            "the metrics, not one of them.")


def _row(comparison: Comparison, system: str) -> tuple[float, float, tuple, tuple]:
    row = comparison.abstention.loc[system]
    return (float(row["false_answer_rate"]), float(row["recall"]),
            (float(row["false_answer_rate_low"]), float(row["false_answer_rate_high"])),
            (float(row["recall_low"]), float(row["recall_high"])))


def _overlap(a: tuple, b: tuple) -> bool:
    return not (a[1] < b[0] or b[1] < a[0])


def _pair_sentence(comparison: Comparison, system: str, baseline: str) -> str:
    """``system`` against ``baseline``, in one sentence."""
    target = comparison.max_false_answer_rate
    far_s, rec_s, far_ci_s, rec_ci_s = _row(comparison, system)
    far_b, rec_b, far_ci_b, rec_ci_b = _row(comparison, baseline)
    if any(math.isnan(v) for v in (far_s, rec_s, far_b, rec_b)):
        return (f"{system} and {baseline} cannot be compared on questions with no answer: "
                "the queries measured lack unanswerable or answerable questions.")
    rates = (f"recall {format_number(rec_s)} against {format_number(rec_b)}, with "
             f"false-answer rates {format_number(far_s)} and {format_number(far_b)}")
    d_far, d_rec = far_s - far_b, rec_s - rec_b
    same_far, same_rec = abs(d_far) <= _SAME, abs(d_rec) <= _SAME
    if same_far and same_rec:
        return (f"{system} and {baseline} abstain alike: at a false-answer rate of at most "
                f"{target:g} both keep recall {format_number(rec_s)} with a false-answer "
                f"rate of {format_number(far_s)}.")
    settled = ((not same_far and not _overlap(far_ci_s, far_ci_b))
               or (not same_rec and not _overlap(rec_ci_s, rec_ci_b)))
    doubt = ("" if settled else "; their intervals overlap, so these questions do not "
             "settle it")
    if (d_far <= _SAME and d_rec >= -_SAME) or (d_far >= -_SAME and d_rec <= _SAME):
        better, worse = (system, baseline) if d_far <= _SAME and d_rec >= -_SAME else (
            baseline, system)
        if better == baseline:
            rates = (f"recall {format_number(rec_b)} against {format_number(rec_s)}, with "
                     f"false-answer rates {format_number(far_b)} and {format_number(far_s)}")
        return (f"{better} abstains better than {worse}: at a false-answer rate of at most "
                f"{target:g} it keeps {rates}{doubt}.")
    more = system if d_rec > 0 else baseline
    less = baseline if more == system else system
    return (f"Neither {system} nor {baseline} abstains better: {more} keeps more recall "
            f"({format_number(max(rec_s, rec_b))} against {format_number(min(rec_s, rec_b))}) "
            f"but gives more false answers ({format_number(max(far_s, far_b))} against "
            f"{format_number(min(far_s, far_b))}) than {less}{doubt}.")


def abstention_sentences(comparison: Comparison) -> tuple[str, ...]:
    """Questions with no answer in words: each system against the baseline, then the
    caveats. Empty without ``comparison.abstention``.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> qrels = {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()}
    >>> runs = {"bm25": {"q1": {"a": 3.0}, "q2": {"b": 2.0}, "q3": {"c": 2.5}},
    ...         "dense": {"q1": {"a": 0.9}, "q2": {"b": 0.8}, "q3": {"c": 0.4}}}
    >>> result = compare(runs, qrels, ["recall@1"], n_resamples=200,
    ...                  max_false_answer_rate=0.0)
    >>> for sentence in abstention_sentences(result):  # doctest: +NORMALIZE_WHITESPACE
    ...     print(sentence)
    dense abstains better than bm25: at a false-answer rate of at most 0 it keeps recall
    1.0000 against 0.5000, with false-answer rates 0.0000 and 0.0000; their intervals
    overlap, so these questions do not settle it.
    The thresholds were chosen on the questions they are measured on, which flatters them:
    on new questions expect more false answers (choose on other queries: tune_queries=,
    or --tune-queries FILE).
    """
    table = comparison.abstention
    if table is None:
        return ()
    systems = [s for s in comparison.systems if s in table.index]
    baseline = comparison.baseline
    target = comparison.max_false_answer_rate
    if len(systems) == 1:
        far, rec, far_ci, rec_ci = _row(comparison, systems[0])
        threshold = _threshold(table.loc[systems[0], "threshold"])
        found = [(f"{systems[0]} at its threshold {threshold}: false-answer rate "
                  f"{format_interval(far, *far_ci)}, recall {format_interval(rec, *rec_ci)}.")]
    else:
        found = [_pair_sentence(comparison, system, baseline) for system in systems[1:]]
    if table.attrs.get("tuned_apart", False):
        over = [s for s in systems if table.loc[s, "false_answer_rate"] > target + _SAME]
        if over:
            found.append(
                f"On the held-out queries {', '.join(over)} {'goes' if len(over) == 1 else 'go'} "
                f"over the target false-answer rate of {target:g}: a threshold tuned on some "
                "questions lets more through on others.")
    else:
        found.append("The thresholds were chosen on the questions they are measured on, "
                     "which flatters them: on new questions expect more false answers "
                     "(choose on other queries: tune_queries=, or --tune-queries FILE).")
    return tuple(found)
