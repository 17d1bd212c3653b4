"""The verdict in words, what every report says first, and the short texts beside ids.

A team lead who opens a report wants one thing first: which system is better, on the
metric that matters, and how sure that is. :func:`verdict_sentences` says it, one
sentence per system against the baseline, worded for each kind of verdict
(:attr:`ragmetrics.Comparison.tests`' ``verdict``):

- better / worse: "B is better than A on nDCG@10 by +0.027 [99.5% CI +0.013, +0.040],
  p < 0.001 after Holm over 4 metrics, 1,380 questions; the smallest difference these
  questions can detect (80% power) is 0.014."
- no significant difference: the difference and its interval, and the smallest
  difference the questions could have detected, so that "no difference" is not read as
  "the same";
- undecided: the p-value stayed within Monte Carlo error of alpha, and more resamples
  may decide it;
- one system: its mean and interval, nothing to compare.

The numbers are the Comparison's (``.tests``, ``.summary``) and the minimum detectable
effect of :mod:`ragmetrics.stats.power` (:meth:`ragmetrics.Comparison.power`, at the
comparison's ``alpha`` per claim). :func:`verdict_list` says the other metrics' verdicts
in a line each; :func:`warnings_summary` counts the warnings for the one line that
stands for them; :func:`snippet` cuts a question or a passage to its first words.
The sentences are plain text: each renderer makes them inert for its format.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from ..metrics.registry import parse_metric
from ..stats.power import DEFAULT_POWER, power_table
from .formatting import format_percent

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["SNIPPET_CHARS", "snippet", "verdict_lines", "verdict_list", "verdict_sentences",
           "warnings_summary"]

#: How many characters of a passage the drill-downs show (cut on a word).
SNIPPET_CHARS = 80

_CORRECTIONS = {"holm": "Holm", "bh": "Benjamini-Hochberg"}
_SPACES = re.compile(r"\s+")


def snippet(text, limit: int = SNIPPET_CHARS) -> str:
    """The first words of ``text``, at most ``limit`` characters, cut on a word, with
    "…" when cut; runs of white space (line breaks too) become one space.

    Examples
    --------
    >>> snippet("Reset your password from the settings page.", 30)
    'Reset your password from the…'
    >>> snippet("  short\\n text ")
    'short text'
    """
    flat = _SPACES.sub(" ", str(text)).strip()
    if len(flat) <= limit:
        return flat
    cut = flat[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut[:limit - 1]).rstrip() + "…"


def warnings_summary(count: int) -> str:
    """"1 warning", "7 warnings": the one line that stands for the warnings."""
    return f"{count} warning" + ("" if count == 1 else "s")


def _label(metric: str) -> str:
    return parse_metric(metric).pretty_name


def _questions(n: int) -> str:
    return f"{n:,} question" + ("" if n == 1 else "s")


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _claims(c: Comparison) -> str:
    """What the correction was over: "4 metrics", "8 claims (4 metrics x 2 systems)"."""
    metrics, pairs = len(c.metrics), len(c.systems) - 1
    m = f"{metrics} metric" + ("" if metrics == 1 else "s")
    return m if pairs == 1 else f"{metrics * pairs} claims ({m} x {pairs} systems)"


def _corrected(c: Comparison, p: float) -> str:
    if c.correction == "none":
        return f"{_p(p)} (not corrected over the {_claims(c)})"
    return f"{_p(p)} after {_CORRECTIONS[c.correction]} over {_claims(c)}"


def _decimals(*values: float) -> int:
    """Three decimals, four when the numbers are all below 0.005 (they would read 0.00x)."""
    finite = [abs(v) for v in values if math.isfinite(v)]
    return 3 if finite and max(finite) >= 0.005 else 4


def _difference(row, digits: int, level: str) -> str:
    d, low, high = row["difference"], row["low"], row["high"]
    return f"{d:+.{digits}f} [{level} CI {low:+.{digits}f}, {high:+.{digits}f}]"


def verdict_sentences(comparison: Comparison, metric: str) -> tuple[str, ...]:
    """One sentence per system against the baseline on ``metric``
    (:meth:`ragmetrics.Comparison.verdict`); with one system, its mean.

    Examples
    --------
    >>> from ragmetrics import compare
    >>> qrels = {f"q{i}": {"gold"} for i in range(30)}
    >>> runs = {"a": {q: ["x", "gold"] for q in qrels}, "b": {q: ["x", "gold"] for q in qrels}}
    >>> print(verdict_sentences(compare(runs, qrels, ["mrr"], n_resamples=200), "mrr")[0])
    ... # doctest: +NORMALIZE_WHITESPACE
    b and a show no significant difference on MRR: +0.0000 [95% CI +0.0000, +0.0000],
    p = 1.000 after Holm over 1 metric, 30 questions; the smallest difference these
    questions can detect (80% power) is 0.0000.
    """
    c = comparison
    label = _label(metric)
    if len(c.systems) < 2:
        row = c.summary.loc[(metric, c.baseline)]
        digits = _decimals(row["mean"])
        return ((f"{c.baseline} scores {row['mean']:.{digits}f} on {label} "
                f"[{format_percent(c.confidence)} CI {row['low']:.{digits}f}, "
                f"{row['high']:.{digits}f}] over {_questions(int(row['n_queries']))}; one "
                "system: nothing to compare it with."),)
    mde = power_table(c.per_query, c.systems, (metric,), alpha=c.alpha)["mde"]
    level = format_percent(c.difference_confidence)
    sentences = []
    for system in c.systems[1:]:
        row = c.tests.loc[(metric, system)]
        smallest = float(mde.loc[(metric, system)])
        digits = _decimals(row["difference"], row["low"], row["high"])
        base = c.baseline
        n = _questions(int(row["n_queries"]))
        detect = (f"the smallest difference these questions can detect "
                  f"({format_percent(DEFAULT_POWER)} power) is "
                  + (f"{smallest:.{digits}f}" if math.isfinite(smallest) else "n/a"))
        if not math.isfinite(row["p_adjusted"]):
            sentences.append(f"{system} and {base} were not compared on {label}: no "
                             "question has a value for both.")
        elif not row["decided"]:
            sentences.append(
                f"{system} against {base} on {label} is undecided: "
                f"{_corrected(c, row['p_adjusted'])} stays within Monte Carlo error of "
                f"alpha = {c.alpha:g} after {int(row['n_patterns']):,} resamples; the "
                f"difference is {_difference(row, digits, level)}, {n}. More resamples "
                "(n_resamples, --resamples) may decide it.")
        elif not row["significant"]:
            sentences.append(
                f"{system} and {base} show no significant difference on {label}: "
                f"{_difference(row, digits, level)}, {_corrected(c, row['p_adjusted'])}, "
                f"{n}; {detect}.")
        else:
            better = row["verdict"] == f"{system} better"
            sentences.append(
                f"{system} is {'better' if better else 'worse'} than {base} on {label} by "
                f"{_difference(row, digits, level)}, {_corrected(c, row['p_adjusted'])}, "
                f"{n}; {detect}.")
    return tuple(sentences)


def verdict_list(comparison: Comparison, *, skip: str | None = None) -> tuple[str, ...]:
    """The verdict on every other metric, a line each: "Recall@10: dense better, +0.031
    [99.5% CI +0.012, +0.050], p = 0.002" (``skip``: the metric said in sentences).

    Examples
    --------
    >>> from ragmetrics import compare
    >>> qrels = {f"q{i}": {"gold"} for i in range(30)}
    >>> runs = {"old": {q: ["x", "gold"] for q in qrels}, "new": {q: ["gold"] for q in qrels}}
    >>> verdict_list(compare(runs, qrels, ["mrr", "recall@1"], n_resamples=200), skip="mrr")
    ('Recall@1: new better, +1.000 [97.5% CI +1.000, +1.000], p = 0.010',)
    """
    c = comparison
    if len(c.systems) < 2:
        return ()
    level = format_percent(c.difference_confidence)
    lines = []
    for metric in c.metrics:
        if metric == skip:
            continue
        for system in c.systems[1:]:
            row = c.tests.loc[(metric, system)]
            digits = _decimals(row["difference"], row["low"], row["high"])
            who = "" if len(c.systems) == 2 else f"{system} vs {c.baseline}: "
            p = _p(row["p_adjusted"]) if math.isfinite(row["p_adjusted"]) else "no p-value"
            lines.append(f"{_label(metric)}: {who}{row['verdict']}, "
                         f"{_difference(row, digits, level)}, {p}")
    return tuple(lines)


def verdict_lines(heading: str, sentences, others, warnings_line: str) -> list[str]:
    """The verdict as lines of plain text, what a terminal shows first: the heading and
    its sentences, the other metrics' verdicts, and the warnings' count (listed at the
    end).

    Examples
    --------
    >>> for line in verdict_lines("Verdict on MRR", ["b is better than a."], ["Recall@1: b "
    ...                           "better"], "2 warnings"):
    ...     print(line)
    Verdict on MRR:
      b is better than a.
    Other metrics:
      - Recall@1: b better
    2 warnings (listed at the end)
    """
    lines = [f"{heading}:"] + [f"  {s}" for s in sentences]
    if others:
        lines += ["Other metrics:"] + [f"  - {line}" for line in others]
    if warnings_line:
        lines.append(f"{warnings_line} (listed at the end)")
    return lines
