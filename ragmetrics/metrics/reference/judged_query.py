"""One query, checked: what every reference function does before it computes.

Every per-query function of :mod:`ragmetrics.metrics.reference` starts the same way. It
checks its options, reads the ranking and the golden set (:mod:`ragmetrics.validation`:
ids of one kind on both sides, a repeated id by the ``duplicates`` policy, grades that
are numbers), finds the relevant docs, and asks whether the ``empty_relevant`` policy
decides the score: a query with no relevant doc has nothing to find, and the metrics
disagree on what that scores. :func:`judge_query` does all of that once, and
:class:`JudgedQuery` is what the metric then reads.

The parameters the functions share are described once too, in :data:`SHARED_PARAMETERS`:
:func:`shared_parameters` writes them into each function's docstring, where a line
``{retrieved, relevant}`` of its Parameters section names them.

Examples
--------
A query with a relevant doc: the metric computes its score (None here).

>>> q, score = judge_query(["a", "x", "b"], {"a": 2, "b": 1, "c": 0}, 2, "zero", "error")
>>> q.ranking, q.relevant_ids, q.hits(None), score
(['a', 'x', 'b'], {'a'}, 1, None)

One without: the policy scores it (here the article's value, 1.0, as for Recall@k).

>>> judge_query(["x"], {"c": 0}, 1, "article", "error", article_value=1.0)[1]
1.0
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Callable, Iterable
from typing import Any

from ...conventions import DUPLICATE_POLICIES, EMPTY_POLICIES, GAIN_POLICIES
from ...validation import (
    as_grades,
    as_ranking,
    check_choice,
    check_id_kinds,
    check_log_base,
    check_relevance_level,
    check_total_gain,
    no_relevant_doc,
)
from ..gains import grade_gain

__all__ = ["SHARED_PARAMETERS", "JudgedQuery", "judge_query", "shared_parameters"]


class JudgedQuery:
    """One query after its checks: the ranking, the grades and the relevant ids.

    Attributes
    ----------
    ranking : list
        The retrieved ids in rank order, each once (the ``duplicates`` policy applied).
    grades : dict
        ``{doc id: grade}``: every judged doc, a set of ids read as grade 1 each.
    level : number
        The relevance level: a doc is relevant when its grade reaches it.
    relevant_ids : set
        The judged docs whose grade reaches ``level``.
    """

    __slots__ = ("grades", "level", "ranking", "relevant_ids")

    def __init__(self, retrieved: Iterable, relevant: Any, level: float, duplicates: str):
        self.level = level
        self.grades = as_grades(relevant)
        self.ranking = as_ranking(retrieved, duplicates=duplicates)
        check_id_kinds(self.ranking, self.grades)
        self.relevant_ids = {doc for doc, grade in self.grades.items() if grade >= level}

    def top(self, k: int | None) -> list:
        """The top ``k`` of the ranking (all of it for None)."""
        return self.ranking if k is None else self.ranking[:k]

    def hits(self, k: int | None) -> int:
        """How many relevant docs are in the top ``k`` (the whole ranking for None)."""
        return sum(doc in self.relevant_ids for doc in self.top(k))

    def judged_nonrelevant(self) -> set:
        """The docs judged not relevant: a grade from 0 up to, not including, the level
        (a grade below 0 is "in the pool but not judged", as trec_eval reads it)."""
        return {doc for doc, grade in self.grades.items() if 0 <= grade < self.level}

    def gains(self, docs: Iterable, rule: str, gain_map=()) -> list[float]:
        """The gain of each of ``docs``: the gain map's for a grade it names (0 and up),
        else the convention's (:func:`ragmetrics.metrics.gains.grade_gain`); 0 for a doc
        not judged."""
        mapped = dict(gain_map)
        out = []
        for doc in docs:
            grade = self.grades.get(doc)
            if grade is None:
                out.append(0.0)
            elif grade >= 0 and grade in mapped:
                out.append(mapped[grade])
            else:
                out.append(grade_gain(grade, rule))
        return out

    def ideal_gains(self, rule: str, gain_map=()) -> list[float]:
        """The gains of the ideal ranking: every judged doc with a positive gain, retrieved
        or not, best first."""
        return sorted((g for g in self.gains(self.grades, rule, gain_map) if g > 0),
                      reverse=True)


def judge_query(retrieved: Iterable, relevant: Any, relevance_level: float,
                empty_relevant: str, duplicates: str, *, article_value: float = 0.0,
                kept_under_zero: bool = False, gain: str | None = None,
                base: float | None = None) -> tuple[JudgedQuery, float | None]:
    """The query checked, and its score if the ``empty_relevant`` policy decides it.

    The score is None for a query with a relevant doc: the metric computes it. For a
    query without one it is the policy's: 0 (``"zero"``), ``article_value``
    (``"article"``), NaN (``"skip"``) or an error naming the golden set (``"error"``).
    A metric that trec_eval computes on such a query as on any other (DCG, whose gains
    ignore the level; the counts; Judged@k) passes ``kept_under_zero=True``: under
    ``"zero"`` the score is None, and the metric computes it. DCG's options, when given,
    are checked: ``gain`` (a convention's name, and grades whose gains add up to a
    float) and ``base`` (the discount's, above 1).
    """
    if base is not None:
        check_log_base(base)
    level = check_relevance_level(relevance_level)
    check_choice(empty_relevant, EMPTY_POLICIES, "empty_relevant")
    check_choice(duplicates, DUPLICATE_POLICIES, "duplicates")
    if gain is not None:
        check_choice(gain, GAIN_POLICIES, "gain")
    q = JudgedQuery(retrieved, relevant, level, duplicates)
    if gain is not None:  # DCG would be inf, and nDCG inf / inf
        check_total_gain(q.grades.values(), gain)
    if q.relevant_ids or (kept_under_zero and empty_relevant == "zero"):
        return q, None
    if empty_relevant == "error":
        raise no_relevant_doc(q.grades, level)
    return q, {"zero": 0.0, "article": article_value, "skip": math.nan}[empty_relevant]


#: The numpydoc entries of the parameters the reference functions share: the name and
#: type, a newline, the description (wrapped where it is written in).
SHARED_PARAMETERS = {
    "retrieved": (
        "retrieved : iterable of ids\n"
        "The ranking, best first: doc ids of any hashable kind, compared exactly (``'42'`` "
        "never matches ``42``, and a ranking and a golden set with no id kind in common "
        "are an error, not a score of 0)."),
    "relevant": (
        "relevant : set of ids or mapping id -> grade\n"
        "The golden set: a set of ids (each of grade 1), or each judged doc's grade. A doc "
        "is relevant when its grade reaches ``relevance_level``; a doc not in it is "
        "unjudged, and a grade below 0 means judged harmful (and, to trec_eval, in the "
        "pool but not judged)."),
    "relevance_level": (
        "relevance_level : number, default 1\n"
        "The smallest grade that counts as relevant (trec_eval's ``-l``); above 0."),
    "duplicates": (
        'duplicates : {"error", "keep_first"}, default "error"\n'
        "An id repeated in ``retrieved``: an error naming it, or the highest-ranked copy "
        "kept. A doc is never counted twice."),
    "gain": (
        'gain : {"linear", "exponential"}, default "linear"\n'
        "A grade's gain: the grade itself (trec_eval) or :math:`2^{grade} - 1` (Burges "
        "et al.). A grade of 0 or below, and an unjudged doc, gain nothing."),
    "base": (
        "base : number, default 2\n"
        "The base of the discount's logarithm, above 1 (scikit-learn's ``log_base``)."),
    "gains": (
        "gains : tuple of (grade, gain) pairs, default ()\n"
        "A gain map, trec_eval's ``-m ndcg.1=3,2=9``: ``((1, 3), (2, 9))`` gives grade 1 "
        "the gain 3 and grade 2 the gain 9; the grades it does not name keep the "
        "``gain`` rule's. A map may give grade 0 a gain, and a grade a gain below 0."),
}


def _empty_relevant_entry(zero: str, article: str) -> str:
    """The entry of ``empty_relevant``: what "zero" gives (``"0"``, or ``"value"``: the
    metric as computed on any query) and what "article" gives."""
    value = float(article)
    why = ": nothing to find, so nothing missed" if value == 1 else ""
    under_zero = ("its value, computed as for any other query" if zero == "value"
                  else f"{float(zero):g}")
    return ('empty_relevant : {"zero", "article", "skip", "error"}, default "zero"\n'
            f"The score of a query with no relevant doc (no grade reaches "
            f"``relevance_level``): {under_zero} under ``\"zero\"`` (trec_eval), "
            f"{value:g} under ``\"article\"`` (the article's code{why}), NaN under "
            f"``\"skip\"`` (left out of a mean), an error under ``\"error\"``.")


_LEVEL_FOR_EMPTINESS = (
    "relevance_level : number, default 1\n"
    "Only says whether the golden set has a relevant doc, for ``empty_relevant``: the "
    "metric reads the grades (or the judgments) whatever the level, as trec_eval does.")

_ITEM = r"[a-z_]+(?:\([^()]*\))?"
_PLACEHOLDER = re.compile(rf"^(\s*)\{{({_ITEM}(?:, {_ITEM})*)\}}$")


def _entry(item: str) -> str:
    """The entry of one placeholder item: ``duplicates``, ``empty_relevant(zero=0,
    article=1)``, ..."""
    name, _, options = item.partition("(")
    if name == "empty_relevant":
        settings = dict(part.strip().split("=") for part in options.rstrip(")").split(","))
        return _empty_relevant_entry(settings["zero"], settings["article"])
    if item == "relevance_level(emptiness)":
        return _LEVEL_FOR_EMPTINESS
    if options:
        raise ValueError(f"the shared parameter {name!r} takes no options: {item!r}")
    return SHARED_PARAMETERS[name]


def shared_parameters(function: Callable) -> Callable:
    """Write the shared parameters into ``function``'s docstring, and return it.

    A docstring line that holds only names in braces, ``{retrieved, relevant}``, becomes
    those parameters' entries of :data:`SHARED_PARAMETERS`, at the line's indent.
    ``empty_relevant(zero=0, article=1)`` is the entry of ``empty_relevant`` for a
    metric that scores a query with no relevant doc 0 under ``"zero"`` and 1 under
    ``"article"`` (``zero=value``: computed as any other query's), and
    ``relevance_level(emptiness)`` the entry of ``relevance_level`` for a metric that
    reads it only to tell whether a query has a relevant doc. An unknown name is an
    error when the module is imported.
    """
    lines = []
    for line in (function.__doc__ or "").splitlines():
        match = _PLACEHOLDER.match(line)
        if match is None:
            lines.append(line)
            continue
        indent = match[1]
        for item in re.findall(_ITEM, match[2]):
            head, _, text = _entry(item).partition("\n")
            lines.append(indent + head)
            lines += textwrap.wrap(text, 88, initial_indent=indent + "    ",
                                   subsequent_indent=indent + "    ")
    function.__doc__ = "\n".join(lines)
    return function
