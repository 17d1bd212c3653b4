"""Exercises with feedback: a ranking, a golden set, one metric's value to work out.

Everything here is pure Python, so it is tested without a widget; the exercise widget
(:class:`ragmetrics.widgets.ExerciseWidget`) only wires a browser view to it.

- :func:`make_exercise` builds one item from a seed, at one of three levels;
- :func:`check_answer` reads what the learner typed ("0.4", "2/5", "40%") and says whether
  it is within the tolerance; if not, the first miss gets a hint that names the likely
  mistake (the misconception table, :mod:`~ragmetrics.teaching.exercises_misconceptions`)
  or says how the value is worked out, without the number; the second miss gets the
  arithmetic rank by rank (:func:`explain`); a value outside the metric's range is refused
  and does not count;
- :class:`ExerciseSet` is a sequence of items (every metric asked at levels 1, 2 and 3),
  the learner's attempts, and the score summary; an item whose solution was shown is not
  scored;
- :func:`check_answers` checks the answers a learner writes in a notebook cell.

Every right answer is computed by ragmetrics' per-query functions, never by this module.

Levels
------
1. five chunks, binary relevance, every relevant chunk retrieved;
2. eight chunks, binary relevance, one relevant chunk may never have been retrieved, a
   cut-off inside the list;
3. ten chunks, relevant chunks missing from the ranking, graded relevance for nDCG, a
   cut-off that can pass the end of the list (precision), or a first hit below it (RR).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

from ..errors import InputValueError
from ..metrics.gains import dcg, grade_gain
from ..metrics.registry import METRICS
from .exercises_misconceptions import GENERIC_HINTS, VALUE_RANGES, match_misconception, range_hint

__all__ = [
    "EXERCISE_METRICS",
    "LEVELS",
    "Exercise",
    "ExerciseSet",
    "Explanation",
    "Feedback",
    "check_answer",
    "check_answers",
    "explain",
    "make_exercise",
    "parse_answer",
]

#: The metrics an exercise can ask for, and how it names them.
EXERCISE_METRICS = {
    "recall": "Recall@k",
    "precision": "Precision@k",
    "hit_rate": "Hit rate@k",
    "rr": "RR@k",
    "ndcg": "nDCG@k",
    "ap": "AP",
    "r_precision": "R-precision",
}
LEVELS = (1, 2, 3)
#: Answers within this distance of the right value count as right (two decimals).
TOLERANCE = 0.005

_IDS = "ABCDEFGHIJKLMNOP"
_LENGTH = {1: 5, 2: 8, 3: 10}


@dataclass(frozen=True)
class Exercise:
    """One item: a ranking, its golden set, the cut-off and the metric to work out.

    Attributes
    ----------
    metric : str
        A key of :data:`EXERCISE_METRICS`, e.g. ``"ndcg"``.
    level : int
        1, 2 or 3.
    seed : int
        The seed it was made from: the same seed gives the same item.
    ranking : tuple of str
        Chunk ids in rank order, best first.
    relevant : dict of str to int
        The golden set: chunk id -> grade (1, or 1-3 for graded nDCG items); may hold
        chunks that are not in the ranking.
    k : int or None
        The cut-off (None for AP and R-precision, which read the whole ranking).
    """

    metric: str
    level: int
    seed: int
    ranking: tuple[str, ...]
    relevant: dict[str, int] = field(hash=False)
    k: int | None

    @property
    def label(self) -> str:
        """The metric's name with its cut-off, e.g. ``"Recall@5"``."""
        name = EXERCISE_METRICS[self.metric]
        return name.replace("@k", f"@{self.k}") if self.k is not None else name

    @property
    def question(self) -> str:
        """The question, e.g. ``"What is Recall@5 of this ranking?"``."""
        return f"What is {self.label} of this ranking?"

    @property
    def graded(self) -> bool:
        return any(g > 1 for g in self.relevant.values())

    @property
    def unretrieved(self) -> list[str]:
        """Relevant chunks that are not in the ranking (they still count)."""
        return sorted(d for d in self.relevant if d not in self.ranking)

    @property
    def answer(self) -> float:
        """The right value, computed by ragmetrics: the metric table's per-query function
        (:meth:`ragmetrics.MetricInfo.score_one`; ``k`` None reads the whole ranking)."""
        return float(METRICS[self.metric].score_one(list(self.ranking), dict(self.relevant),
                                                    self.k))

    def rows(self) -> list[dict]:
        """The ranking as a learner sees it: rank, chunk, grade (0 = not relevant)."""
        return [{"rank": r, "doc_id": d, "grade": self.relevant.get(d, 0)}
                for r, d in enumerate(self.ranking, start=1)]


def _check_metric_and_level(metric: str, level: int) -> None:
    if metric not in EXERCISE_METRICS:
        raise InputValueError(
            f"metric must be one of {', '.join(map(repr, EXERCISE_METRICS))}; got {metric!r}"
        )
    if level not in LEVELS:
        raise InputValueError(f"level must be 1, 2 or 3; got {level!r}")


def make_exercise(metric: str, level: int, seed: int = 0) -> Exercise:
    """Make one exercise from a seed: the same (metric, level, seed) gives the same item.

    Parameters
    ----------
    metric : str
        ``"recall"``, ``"precision"``, ``"hit_rate"``, ``"rr"``, ``"ndcg"``, ``"ap"`` or
        ``"r_precision"``.
    level : {1, 2, 3}
        The difficulty (see the module's docstring).
    seed : int, default 0

    Examples
    --------
    >>> ex = make_exercise("recall", 1, seed=6)
    >>> ex.question, ex.ranking, sorted(ex.relevant)
    ('What is Recall@2 of this ranking?', ('A', 'B', 'C', 'D', 'E'), ['B', 'D'])
    >>> ex.answer
    0.5
    """
    _check_metric_and_level(metric, level)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputValueError(f"seed must be an int; got {seed!r}")
    rng = random.Random(f"ragmetrics-exercise:{metric}:{level}:{seed}")
    n = _LENGTH[level]
    ranking = list(_IDS[:n])
    if level == 1:
        n_relevant, n_missing = rng.randint(1, 2), 0
    elif level == 2:
        n_relevant, n_missing = rng.randint(2, 4), rng.randint(0, 1)
    else:
        n_relevant, n_missing = rng.randint(3, 5), rng.randint(1, 2)
    if metric in ("recall", "r_precision", "ap") and level > 1:
        n_missing = max(n_missing, 1)  # what these metrics teach: the denominator counts them
    found = n_relevant - n_missing
    # Level 1 keeps its hits near the top, where the arithmetic is short.
    ranks = sorted(rng.sample(range(1, 5 if level == 1 else n + 1), found))
    if metric in ("rr", "hit_rate") and level == 1:
        ranks = sorted({rng.randint(1, 3), *ranks[1:]})
    relevant = {ranking[r - 1]: 1 for r in ranks}
    for i in range(n_missing):  # relevant, never retrieved: ids after the ranking's
        relevant[_IDS[n + i]] = 1
    if metric == "ndcg" and level == 3:
        relevant = {d: rng.randint(1, 3) for d in relevant}
        if not any(g > 1 for g in relevant.values()):
            relevant[next(iter(relevant))] = 3
    k: int | None
    if metric in ("ap", "r_precision"):
        k = None
    elif level == 1:
        k = n if metric in ("rr", "hit_rate") else rng.randint(2, 4)
    elif level == 2:
        k = rng.randint(3, n - 1)
    elif metric == "precision":
        k = rng.choice([n + 2, n + 5])  # past the end of the list: empty slots count
    elif metric in ("rr", "hit_rate"):
        # the first hit may lie below the cut-off: then the answer is 0
        k = rng.randint(max(1, ranks[0] - 2), ranks[0] + 2) if ranks else rng.randint(3, n)
    else:
        k = rng.randint(4, n)
    return Exercise(metric, level, seed, tuple(ranking), relevant, k)


# -- reading and checking an answer ---------------------------------------------------

_NUMBER = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)"
_FRACTION = re.compile(rf"^\s*({_NUMBER})\s*/\s*({_NUMBER})\s*$")
_PERCENT = re.compile(rf"^\s*({_NUMBER})\s*%\s*$")
_PLAIN = re.compile(rf"^\s*({_NUMBER})\s*$")


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def parse_answer(typed) -> float | None:
    """What the learner typed, as a number: ``"0.4"``, ``".4"``, ``"0,4"``, ``"2/5"``,
    ``"40%"``; None for an empty answer.

    Raises
    ------
    InputValueError
        When the text is not a number, with the text in the message.

    Examples
    --------
    >>> parse_answer("2/5"), parse_answer("40 %"), parse_answer(" 0,4 "), parse_answer("")
    (0.4, 0.4, 0.4, None)
    >>> parse_answer("two fifths")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: could not read 'two fifths' as a number: type a decimal (0.4), a fraction (2/5) or a percentage (40%)
    """
    if typed is None:
        return None
    if isinstance(typed, bool):
        raise InputValueError(f"could not read {typed!r} as a number")
    if isinstance(typed, int | float):
        value = float(typed)
    else:
        text = str(typed)
        if not text.strip():
            return None
        if m := _FRACTION.match(text):
            denominator = _number(m.group(2))
            if denominator == 0:
                raise InputValueError(f"{text.strip()!r} divides by zero")
            value = _number(m.group(1)) / denominator
        elif m := _PERCENT.match(text):
            value = _number(m.group(1)) / 100
        elif m := _PLAIN.match(text):
            value = _number(m.group(1))
        else:
            raise InputValueError(
                f"could not read {text.strip()!r} as a number: type a decimal (0.4), "
                "a fraction (2/5) or a percentage (40%)"
            )
    if not math.isfinite(value):
        raise InputValueError(f"an answer must be a finite number; got {typed!r}")
    return value


@dataclass(frozen=True)
class Explanation:
    """The arithmetic of one exercise, rank by rank.

    Attributes
    ----------
    columns : tuple of str
        The table's column names.
    rows : tuple of tuple of str
        One row per rank (formatted text).
    lines : tuple of str
        The steps in words, the last one the result.
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...]

    def text(self) -> str:
        """The table and the steps as plain text."""
        widths = [max(len(c), *(len(r[i]) for r in self.rows)) if self.rows else len(c)
                  for i, c in enumerate(self.columns)]
        table = ["  ".join(c.ljust(w) for c, w in zip(self.columns, widths, strict=True))]
        table += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip()
                  for row in self.rows]
        return "\n".join([*table, *self.lines])


def _fraction(numerator: float, denominator: float) -> str:
    return f"{numerator:g}/{denominator:g}"


def explain(exercise: Exercise) -> Explanation:
    """The arithmetic of ``exercise`` rank by rank, ending with its value.

    Examples
    --------
    >>> print(explain(make_exercise("rr", 1, seed=1)).text())
    rank  chunk  relevant  found so far
    1     A      no        0
    2     B      yes       1
    The first relevant chunk is at rank 2, within the top 5.
    RR@5 = 1/2 = 0.5000
    """
    ex = exercise
    builders = {"recall": _explain_counts, "precision": _explain_counts,
                "hit_rate": _explain_first_hit, "rr": _explain_first_hit,
                "ndcg": _explain_ndcg, "ap": _explain_ap, "r_precision": _explain_counts}
    return builders[ex.metric](ex)


def _relevant_word(ex: Exercise, doc: str) -> str:
    grade = ex.relevant.get(doc, 0)
    if grade <= 0:
        return "no"
    return f"yes (grade {grade})" if ex.graded else "yes"


def _explain_counts(ex: Exercise) -> Explanation:
    R = len(ex.relevant)
    depth = R if ex.metric == "r_precision" else ex.k
    rows, found = [], 0
    for rank, doc in enumerate(ex.ranking[:depth], start=1):
        found += ex.relevant.get(doc, 0) > 0
        rows.append((str(rank), doc, _relevant_word(ex, doc), str(found)))
    lines = []
    if ex.metric == "precision" and depth > len(ex.ranking):
        lines.append(f"Ranks {len(ex.ranking) + 1}-{depth} are empty: the list has only "
                     f"{len(ex.ranking)} chunks, and an empty slot still counts in k.")
    missing = ex.unretrieved
    if ex.metric == "recall":
        lines.append(f"{found} of the {R} relevant chunks are in the top {depth}"
                     + (f" (never retrieved: {', '.join(missing)})." if missing else "."))
        lines.append(f"{ex.label} = {_fraction(found, R)} = {found / R:.4f}")
    elif ex.metric == "precision":
        lines.append(f"{found} of the {depth} slots of the top {depth} hold a relevant chunk.")
        lines.append(f"{ex.label} = {_fraction(found, depth)} = {found / depth:.4f}")
    else:
        lines.append(f"R = {R} relevant chunks" + (f" (never retrieved: {', '.join(missing)})"
                     if missing else "") + f"; the top {R} hold {found} of them.")
        lines.append(f"{ex.label} = {_fraction(found, R)} = {found / R:.4f}")
    return Explanation(("rank", "chunk", "relevant", "found so far"), tuple(rows), tuple(lines))


def _explain_first_hit(ex: Exercise) -> Explanation:
    rows, found, first = [], 0, None
    for rank, doc in enumerate(ex.ranking, start=1):
        hit = ex.relevant.get(doc, 0) > 0
        found += hit
        rows.append((str(rank), doc, _relevant_word(ex, doc), str(found)))
        if hit:
            first = rank
            break
    k = ex.k
    if first is None:
        lines = ["No relevant chunk is in the ranking at all."]
        value = 0.0
    elif k is not None and first > k:
        lines = [f"The first relevant chunk is at rank {first}, below the cut-off k = {k}."]
        value = 0.0
    else:
        lines = [f"The first relevant chunk is at rank {first}, within the top {k}."]
        value = 1 / first if ex.metric == "rr" else 1.0
    if ex.metric == "rr":
        lines.append(f"{ex.label} = " + (f"1/{first} = " if value else "") + f"{value:.4f}")
    else:
        lines.append(f"{ex.label} = {value:.4f} (1 if any relevant chunk is in the top {k})")
    return Explanation(("rank", "chunk", "relevant", "found so far"), tuple(rows), tuple(lines))


def _explain_ndcg(ex: Exercise) -> Explanation:
    k = ex.k
    gains = [grade_gain(ex.relevant.get(doc, 0), "linear") for doc in ex.ranking[:k]]
    rows = []
    for rank, (doc, gain) in enumerate(zip(ex.ranking[:k], gains, strict=True), start=1):
        discount = math.log2(rank + 1)
        rows.append((str(rank), doc, f"{gain:g}", f"{discount:.4f}", f"{gain / discount:.4f}",
                     f"{dcg(gains[:rank]):.4f}"))
    ideal = sorted(ex.relevant.values(), reverse=True)[:k]
    total, idcg = dcg(gains), dcg(ideal)
    terms = " + ".join(f"{g:g}/log2({r + 1})" for r, g in enumerate(ideal, start=1))
    lines = [
        f"DCG@{k} = sum of gain / log2(rank + 1) over the top {k} = {total:.4f}.",
        (f"Ideal DCG@{k}: every relevant chunk (retrieved or not), best grade first: "
         f"{terms} = {idcg:.4f}."),
        f"{ex.label} = {total:.4f} / {idcg:.4f} = {total / idcg:.4f}",
    ]
    columns = ("rank", "chunk", "gain", "log2(rank + 1)", "gain / discount", "DCG so far")
    return Explanation(columns, tuple(rows), tuple(lines))


def _explain_ap(ex: Exercise) -> Explanation:
    R = len(ex.relevant)
    rows, found, terms = [], 0, []
    for rank, doc in enumerate(ex.ranking, start=1):
        hit = ex.relevant.get(doc, 0) > 0
        found += hit
        precision = found / rank
        if hit:
            terms.append((found, rank))
        rows.append((str(rank), doc, _relevant_word(ex, doc),
                     f"{found}/{rank} = {precision:.4f}" if hit else ""))
    total = sum(f / r for f, r in terms)
    missing = ex.unretrieved
    shown = " + ".join(f"{f}/{r}" for f, r in terms) or "0"
    lines = [
        "Precision at each relevant chunk's rank (the others add nothing):",
        f"AP = ({shown}) / R, with R = {R} relevant chunks"
        + (f" (never retrieved: {', '.join(missing)}; it adds 0 but counts in R)" if missing
           else "") + ".",
        f"{ex.label} = {total:.4f} / {R} = {total / R:.4f}",
    ]
    return Explanation(("rank", "chunk", "relevant", "precision at this rank"), tuple(rows),
                       tuple(lines))


@dataclass(frozen=True)
class Feedback:
    """What the learner is told about one answer.

    Attributes
    ----------
    status : {"correct", "wrong", "empty", "unreadable", "out_of_range", "revealed", \
"not_scored"}
        ``"out_of_range"``: a value the metric cannot take (refused, not counted);
        ``"revealed"``: the solution, on request; ``"not_scored"``: an answer typed after
        the solution was shown (neither right nor wrong in the score).
    given : float or None
        The answer as read (None if empty or unreadable).
    expected : float
        The right value.
    message : str
        What the learner is told (and the live region says).
    explanation : Explanation or None
        The arithmetic: after a second wrong answer, with the solution, and after it.
    hint : str or None
        The hint in the message (a wrong or refused answer): the likely mistake's, or how
        the value is worked out; never the right number.
    misconception : str or None
        The name of the mistake the answer matches (a row of
        :data:`~ragmetrics.teaching.exercises_misconceptions.MISCONCEPTIONS`), if any.
    """

    status: str
    given: float | None
    expected: float
    message: str
    explanation: Explanation | None = None
    hint: str | None = None
    misconception: str | None = None

    @property
    def correct(self) -> bool:
        """Whether the answer counts as right (an answer after the solution does not)."""
        return self.status == "correct"

    @property
    def counted(self) -> bool:
        """Whether the answer counts as an attempt: right or wrong, not refused, not after
        the solution."""
        return self.status in ("correct", "wrong")


def check_answer(exercise: Exercise, typed, *, tolerance: float = TOLERANCE,
                 attempt: int = 1) -> Feedback:
    """Check what the learner typed against the right value, within ``tolerance``.

    - A right answer says so.
    - A first wrong answer (``attempt=1``) gets a hint without the number: the hint of the
      mistake it matches (:func:`~ragmetrics.teaching.exercises_misconceptions.\
match_misconception`: the answer equals, within ``tolerance``, what that mistake gives on
      this ranking, and that differs from the right value), else how the value is worked
      out.
    - A later wrong answer (``attempt`` 2 or more) gets the right value and the arithmetic
      rank by rank (:func:`explain`).
    - A value outside the metric's range (above 1, negative) is refused with a hint
      (``status="out_of_range"``); it is not an attempt.
    - An empty or unreadable answer says how to type a number.

    Parameters
    ----------
    exercise : Exercise
    typed : str or float or None
        What the learner typed: ``"0.4"``, ``"2/5"``, ``"40%"``...
    tolerance : float, default 0.005
        How far from the right value an answer may be and still be right.
    attempt : int, default 1
        Which wrong answer this would be: 1 for the first (a hint), 2 or more (the
        arithmetic). :class:`ExerciseSet` counts it for you.

    Returns
    -------
    Feedback

    Examples
    --------
    >>> ex = make_exercise("recall", 1, seed=6)          # the right value is 0.5
    >>> check_answer(ex, "1/2").message
    'Right: Recall@2 = 0.5000.'
    >>> print(check_answer(ex, "0.4").message)
    Not quite: you gave 0.4000. Count the relevant chunks in the top k, then divide by R, every relevant chunk in the golden set (retrieved or not). Try again: a second miss shows the arithmetic.
    >>> ex = make_exercise("recall", 1, seed=1)
    >>> ex.ranking, sorted(ex.relevant), ex.k, ex.answer
    (('A', 'B', 'C', 'D', 'E'), ['C'], 3, 1.0)
    >>> feedback = check_answer(ex, "1/3")                # 1 found, divided by k = 3
    >>> feedback.status, feedback.misconception
    ('wrong', 'k as the denominator')
    >>> print(feedback.hint)
    Recall@k divides by R, the number of relevant chunks in the golden set, not by k: it asks how much of what is relevant the top k found.
    >>> print(check_answer(ex, "1.5").message)
    Recall@3 lies between 0 and 1, and 1.5 is outside. Check the division: what you divide by is never smaller than what you divide. This answer does not count: try again.
    >>> ex = make_exercise("recall", 1, seed=6)
    >>> feedback = check_answer(ex, "0.4", attempt=2)     # the second miss: the arithmetic
    >>> feedback.status, feedback.message
    ('wrong', 'Not quite: you gave 0.4000, Recall@2 = 0.5000. The arithmetic, rank by rank:')
    >>> print(feedback.explanation.text())
    rank  chunk  relevant  found so far
    1     A      no        0
    2     B      yes       1
    1 of the 2 relevant chunks are in the top 2.
    Recall@2 = 1/2 = 0.5000
    """
    if not (isinstance(tolerance, int | float) and 0 <= tolerance < 1):
        raise InputValueError(f"tolerance must be a number in [0, 1); got {tolerance!r}")
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 1:
        raise InputValueError(f"attempt must be an int, 1 or more; got {attempt!r}")
    expected = exercise.answer
    try:
        given = parse_answer(typed)
    except InputValueError as error:
        return Feedback("unreadable", None, expected, f"{str(error)[0].upper()}{str(error)[1:]}.")
    if given is None:
        return Feedback("empty", None, expected,
                        f"Type your value of {exercise.label}, then press Check.")
    if abs(given - expected) <= tolerance + 1e-12:
        return Feedback("correct", given, expected, f"Right: {exercise.label} = {expected:.4f}.")
    ex = exercise
    mistake = match_misconception(ex.metric, ex.ranking, ex.relevant, ex.k, given, expected,
                                  tolerance=tolerance)
    name = mistake.name if mistake else None
    low, high = VALUE_RANGES[ex.metric]
    if not low - 1e-12 <= given <= high + 1e-12:
        hint = mistake.hint if mistake else range_hint(ex.metric, given)
        return Feedback(
            "out_of_range", given, expected,
            f"{ex.label} lies between {low:g} and {high:g}, and {given:g} is outside. {hint} "
            "This answer does not count: try again.",
            hint=hint, misconception=name)
    if attempt == 1:
        hint = mistake.hint if mistake else GENERIC_HINTS[ex.metric]
        return Feedback(
            "wrong", given, expected,
            f"Not quite: you gave {given:.4f}. {hint} Try again: a second miss shows the "
            "arithmetic.",
            hint=hint, misconception=name)
    return Feedback(
        "wrong", given, expected,
        f"Not quite: you gave {given:.4f}, {ex.label} = {expected:.4f}. "
        "The arithmetic, rank by rank:",
        explain(ex), hint=mistake.hint if mistake else None, misconception=name,
    )


# -- a set of exercises, with a score --------------------------------------------------


@dataclass
class _Attempts:
    answers: list[float] = field(default_factory=list)
    correct: bool = False
    first_try: bool = False
    revealed: bool = False


#: How an :class:`ExerciseSet` orders its items.
ORDERS = ("by_metric", "mixed")


def _mixed(items: list[Exercise], seed: int) -> list[Exercise]:
    """The items shuffled with ``seed``, then placed so that no metric follows itself where
    another one is left to put between (greedy: the next item of another metric)."""
    rng = random.Random(seed)
    pending = list(items)
    rng.shuffle(pending)
    placed: list[Exercise] = []
    while pending:
        last = placed[-1].metric if placed else None
        pick = next((i for i, item in enumerate(pending) if item.metric != last), 0)
        placed.append(pending.pop(pick))
    return placed


class ExerciseSet:
    """A sequence of exercises (each metric at levels 1, 2 and 3), the learner's
    attempts, and the score.

    Each item's first wrong answer gets a hint (the likely mistake, no number), the next
    ones the arithmetic (:func:`check_answer`). A value outside the metric's range is
    refused and is no attempt. Once the solution of an item is shown (:meth:`reveal`), the
    item is not scored: an answer typed after it is marked "revealed, not scored" and
    counts neither right nor wrong in :meth:`score` and :meth:`summary`.

    Parameters
    ----------
    metrics : sequence of str
        The metrics asked, in order (keys of :data:`EXERCISE_METRICS`).
    levels : sequence of int, default (1, 2, 3)
    seed : int, default 0
        The items are made from it: the same seed gives the same items.
    tolerance : float, default 0.005
    order : {"by_metric", "mixed"}, default "by_metric"
        ``"by_metric"`` asks each metric at every level before the next metric;
        ``"mixed"`` shuffles the items (with ``seed``), so that a closing quiz never asks
        the same metric twice in a row when it can be avoided and the learner must first
        recognise which metric the question wants.

    Examples
    --------
    >>> practice = ExerciseSet(["recall"], seed=6)
    >>> len(practice), practice.current.question
    (3, 'What is Recall@2 of this ranking?')
    >>> practice.answer("0.5").status
    'correct'
    >>> practice.next().level
    2
    >>> practice.current.answer
    0.0
    >>> practice.answer("1").status, practice.answer("0").status
    ('wrong', 'correct')
    >>> print(practice.summary())
    2 of 3 answered right (1 at the first try); 1 to go
    >>> practice.next().level, practice.reveal().status
    (3, 'revealed')
    >>> feedback = practice.answer(str(practice.current.answer))
    >>> feedback.status, feedback.correct
    ('not_scored', False)
    >>> print(practice.summary())
    2 of 2 scored items answered right (1 at the first try); 1 solution shown, not scored; all done

    A quiz over several metrics, mixed: no metric twice in a row.

    >>> quiz = ExerciseSet(["recall", "precision", "rr"], levels=[2, 3], seed=4, order="mixed")
    >>> [item.metric for item in quiz.items]
    ['precision', 'rr', 'recall', 'rr', 'precision', 'recall']
    """

    def __init__(self, metrics, *, levels=LEVELS, seed: int = 0, tolerance: float = TOLERANCE,
                 order: str = "by_metric"):
        metrics = [metrics] if isinstance(metrics, str) else list(metrics)
        if not metrics:
            raise InputValueError("an exercise set needs at least one metric")
        if order not in ORDERS:
            raise InputValueError(f"order must be one of {', '.join(map(repr, ORDERS))}; "
                                  f"got {order!r}")
        levels = list(levels)
        for metric in metrics:
            for level in levels:
                _check_metric_and_level(metric, level)
        self.seed = seed
        self.tolerance = tolerance
        self.items = [make_exercise(m, level, seed) for m in metrics for level in levels]
        if order == "mixed":
            self.items = _mixed(self.items, seed)
        self.index = 0
        self._attempts = [_Attempts() for _ in self.items]

    def __len__(self) -> int:
        return len(self.items)

    @property
    def current(self) -> Exercise:
        """The exercise shown now."""
        return self.items[self.index]

    def go(self, index: int) -> Exercise:
        """Show item ``index`` (0-based)."""
        if not (isinstance(index, int) and 0 <= index < len(self.items)):
            raise InputValueError(f"index must be between 0 and {len(self.items) - 1}; "
                                  f"got {index!r}")
        self.index = index
        return self.current

    def next(self) -> Exercise:
        """The next item (the last one stays)."""
        return self.go(min(self.index + 1, len(self.items) - 1))

    def previous(self) -> Exercise:
        """The previous item (the first one stays)."""
        return self.go(max(self.index - 1, 0))

    def answer(self, typed) -> Feedback:
        """Check ``typed`` against the current item and count the attempt.

        The first wrong answer of an item gets a hint, the next ones the arithmetic; an
        answer out of the metric's range, empty or unreadable is not counted; after the
        solution was shown the answer is checked but not scored (``"not_scored"``).
        """
        record = self._attempts[self.index]
        feedback = check_answer(self.current, typed, tolerance=self.tolerance,
                                attempt=len(record.answers) + 1)
        if record.revealed and not record.correct:
            return self._not_scored(feedback)
        if feedback.counted and not record.correct:
            record.answers.append(feedback.given)
            if feedback.correct:
                record.correct = True
                record.first_try = len(record.answers) == 1
        return feedback

    def _not_scored(self, feedback: Feedback) -> Feedback:
        if feedback.status in ("empty", "unreadable"):
            return feedback
        ex = self.current
        said = (f"Matches the solution: {ex.label} = {ex.answer:.4f}." if feedback.correct
                else f"You gave {feedback.given:g}; the solution is {ex.label} = "
                     f"{ex.answer:.4f}.")
        return Feedback("not_scored", feedback.given, feedback.expected,
                        f"{said} Revealed, not scored: the solution was shown, so this item "
                        "counts neither right nor wrong.", explain(ex),
                        misconception=feedback.misconception)

    def reveal(self) -> Feedback:
        """The solution of the current item: from then on the item is not scored (unless
        it was answered right before)."""
        record = self._attempts[self.index]
        if not record.correct:
            record.revealed = True
        ex = self.current
        return Feedback("revealed", None, ex.answer,
                        f"Solution: {ex.label} = {ex.answer:.4f}. The arithmetic, rank by rank:",
                        explain(ex))

    def status(self, index: int | None = None) -> str:
        """``"right"``, ``"right at the first try"``, ``"tried"``, ``"solution shown, not
        scored"`` or ``"not tried"`` for item ``index`` (the current one by default)."""
        record = self._attempts[self.index if index is None else index]
        if record.correct:
            return "right at the first try" if record.first_try else "right"
        if record.revealed:
            return "solution shown, not scored"
        return "tried" if record.answers else "not tried"

    def score(self) -> dict[str, int]:
        """Counts: ``total`` items; ``scored`` (all but those whose solution was shown
        before a right answer); of those ``right``, ``first_try`` (right at the first
        counted answer), ``wrong`` (answered, not yet right); ``revealed`` (solution shown,
        not scored: neither right nor wrong, whatever was typed after); ``to_go`` (neither
        right nor revealed)."""
        records = self._attempts
        revealed = [r.revealed and not r.correct for r in records]
        return {
            "total": len(records),
            "scored": len(records) - sum(revealed),
            "right": sum(r.correct for r in records),
            "first_try": sum(r.first_try for r in records),
            "wrong": sum(bool(r.answers) and not r.correct and not shown
                         for r, shown in zip(records, revealed, strict=True)),
            "revealed": sum(revealed),
            "to_go": sum(not r.correct and not shown
                         for r, shown in zip(records, revealed, strict=True)),
        }

    def summary(self) -> str:
        """The score in one line, e.g. ``"2 of 3 answered right (1 at the first try); 1 to
        go"``; items whose solution was shown are left out of the scored ones and said
        apart: ``"1 of 2 scored items answered right (...); 1 solution shown, not scored;
        1 to go"``."""
        s = self.score()
        if s["revealed"]:
            text = (f"{s['right']} of {s['scored']} scored item{'s' if s['scored'] != 1 else ''}"
                    f" answered right ({s['first_try']} at the first try); {s['revealed']} "
                    f"solution{'s' if s['revealed'] > 1 else ''} shown, not scored")
        else:
            text = (f"{s['right']} of {s['total']} answered right ({s['first_try']} at the "
                    "first try)")
        return text + (f"; {s['to_go']} to go" if s["to_go"] else "; all done")


def check_answers(answers: dict, solutions: dict, *, tolerance: float = TOLERANCE) -> str:
    """Check the answers a learner wrote in a notebook cell, one line per question.

    ``answers`` maps each question to the learner's number (None while not answered);
    ``solutions`` maps it to the right value. Only "right", "not yet" or "no answer yet"
    is said: the worked solution is in the notebook's collapsed solution cell.

    Examples
    --------
    >>> print(check_answers({"Recall@5": 0.67, "smallest k": None},
    ...                     {"Recall@5": 2 / 3, "smallest k": 6}))
    Recall@5: right (0.6667)
    smallest k: no answer yet (replace None with your number, then run this cell again)
    """
    unknown = sorted(set(answers) - set(solutions))
    if unknown:
        raise InputValueError(f"no solution for {unknown!r}; questions are {sorted(solutions)!r}")
    lines = []
    for question, expected in solutions.items():
        typed = answers.get(question)
        try:
            given = parse_answer(typed)
        except InputValueError as error:
            lines.append(f"{question}: {error}")
            continue
        if given is None:
            lines.append(f"{question}: no answer yet (replace None with your number, then run "
                         "this cell again)")
        elif abs(given - expected) <= tolerance + 1e-12:
            lines.append(f"{question}: right ({expected:.4f})")
        else:
            lines.append(f"{question}: not yet ({given:g} is not it; the solution below "
                         "shows the arithmetic)")
    return "\n".join(lines)
