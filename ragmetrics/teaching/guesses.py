"""Guess first, then see: the learner's predictions and answers, kept per notebook.

A notebook that asks "what will Recall@5 be?" must not print the answer before the
learner has guessed, neither after Run All nor on a page that shows the stored outputs
(GitHub, the book). Three calls keep that promise:

- :func:`predict` records the learner's guess for a question (``None`` while there is
  none), in a registry that lives as long as the notebook's kernel;
- :func:`reveal` is what the "Compare" cell calls with the value the library computed:
  with a guess it says "you said 0.50, the library says 0.6000"; without one it says
  "make a guess first" and prints no number;
- :func:`check_exercise` checks the answers a learner typed in an exercise cell (the wording of
  :func:`~ragmetrics.teaching.check_answers`: "right", "not yet" or "no answer yet",
  never the right value before an answer).

Each right value passed to :func:`reveal` or :func:`check_exercise` is recorded too:
:func:`recorded_answers` lists them, and
``tests/teaching/test_no_answer_before_guess.py`` scans a notebook's outputs for them.
The worked solutions themselves live in collapsed Markdown ``<details>`` blocks, which
Run All cannot print.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputTypeError, InputValueError
from .exercises import TOLERANCE, check_answers, parse_answer

__all__ = ["RecordedAnswer", "check_exercise", "check_your_check", "forget_guesses", "predict",
           "recorded_answers", "reveal"]


@dataclass(frozen=True)
class RecordedAnswer:
    """A right value the notebook computed for one of its questions.

    Attributes
    ----------
    question : str
        The question, as the notebook names it (``"Recall@5 after the move"``).
    value : float or str
        The right value: a number, or a word such as a metric name.
    """

    question: str
    value: float | str


_GUESSES: dict[str, object] = {}
_ANSWERS: dict[str, RecordedAnswer] = {}


def _question(question) -> str:
    if not isinstance(question, str) or not question.strip():
        raise InputTypeError(f"a question is a non-empty str, got {question!r}")
    return question


def _record(question: str, value) -> None:
    _ANSWERS[question] = RecordedAnswer(question, value)


def _as_number(value) -> float | None:
    """A guess as a number, or None when it is a word ("up", "recall@10")."""
    if isinstance(value, str):
        try:
            return parse_answer(value)
        except InputValueError:
            return None
    return parse_answer(value)


def predict(question: str, guess) -> None:
    """Record the learner's guess for ``question``, to compare once the value is shown.

    Parameters
    ----------
    question : str
        The question, exactly as the "Compare" cell's :func:`reveal` names it.
    guess : number, str or None
        A number (``0.5``), a fraction or percentage as text (``"1/2"``, ``"50%"``), a
        word (``"recall@10"``, ``"up"``), or None while the learner has not guessed.

    Returns
    -------
    None
        It prints one line: the guess noted, or how to make one.

    Examples
    --------
    >>> forget_guesses()
    >>> predict("Recall@5 after the move", None)
    no guess yet for 'Recall@5 after the move': put yours in place of None, then run this cell
    >>> predict("Recall@5 after the move", "1/2")
    noted: you predict Recall@5 after the move = 0.50
    """
    question = _question(question)
    if guess is None or (isinstance(guess, str) and not guess.strip()):
        _GUESSES.pop(question, None)
        print(f"no guess yet for {question!r}: put yours in place of None, then run this cell")
        return
    if isinstance(guess, bool) or not isinstance(guess, int | float | str):
        raise InputTypeError(
            f"a guess for {question!r} is a number, a word or None, got {guess!r}"
        )
    number = _as_number(guess)
    if number is not None and not math.isfinite(number):
        raise InputValueError(f"a guess for {question!r} must be finite, got {guess!r}")
    _GUESSES[question] = guess
    if number is None:
        shown = repr(guess.strip())
    else:
        shown = str(guess) if isinstance(guess, int) else f"{number:.2f}"
    print(f"noted: you predict {question} = {shown}")


def reveal(question: str, actual, *, because: str = "", source: str = "the library says",
           tolerance: float = TOLERANCE) -> None:
    """Compare the learner's guess with the value computed, or ask for a guess first.

    Without a guess nothing about ``actual`` is printed, so a notebook run top to bottom
    (or its stored outputs on GitHub) gives nothing away.

    Parameters
    ----------
    question : str
        The question :func:`predict` recorded the guess under.
    actual : float, int or str
        The value the library (or the board, or the explorer) computed; an int (a rank,
        a count) is compared exactly.
    because : str, optional
        One line of explanation, printed only after a guess.
    source : str, default "the library says"
        Who computed ``actual``: "the board says", "the explorer says".
    tolerance : float, default 0.005
        A numeric guess within this distance counts as right (two decimals).

    Returns
    -------
    None
        It prints the comparison, or how to make a guess.

    Examples
    --------
    >>> forget_guesses()
    >>> reveal("Recall@5 after the move", 0.6, source="the board says")
    make a guess first: predict('Recall@5 after the move', ...) above, then run this cell again
    >>> predict("Recall@5 after the move", 0.5)
    noted: you predict Recall@5 after the move = 0.50
    >>> reveal("Recall@5 after the move", 0.6, source="the board says",
    ...        because="a third relevant chunk is in the top 5")
    you said 0.50, the board says 0.6000 (off by 0.10), because a third relevant chunk is in the top 5
    >>> predict("smallest k", 6)
    noted: you predict smallest k = 6
    >>> reveal("smallest k", 23)
    you said 6, the library says 23 (off by 17)
    >>> predict("which metric", "Recall@10")
    noted: you predict which metric = 'Recall@10'
    >>> reveal("which metric", "recall@10")
    you said 'Recall@10', the library says 'recall@10': right
    >>> recorded_answers()["which metric"].value
    'recall@10'
    """
    question = _question(question)
    if isinstance(actual, bool) or not isinstance(actual, int | float | str):
        raise InputTypeError(f"the value of {question!r} is a number or a str, got {actual!r}")
    if not isinstance(because, str):
        raise InputTypeError(f"because is a str, got {because!r}")
    value: float | str = actual if isinstance(actual, str) else float(actual)
    _record(question, value)
    if question not in _GUESSES:
        print(f"make a guess first: predict({question!r}, ...) above, then run this cell again")
        return
    guess = _GUESSES[question]
    why = f", because {because}" if because else ""
    if isinstance(value, str):
        right = str(guess).strip().lower() == value.strip().lower()
        verdict = "right" if right else "not it"
        print(f"you said {str(guess).strip()!r}, {source} {value!r}: {verdict}{why}")
        return
    number = _as_number(guess)
    if number is None:
        print(f"you said {guess!r}, which is not a number; {source} {value:.4f}{why}")
        return
    gap = abs(number - value)
    if isinstance(actual, int):  # a count or a rank: whole numbers, said as such
        verdict = "right" if gap == 0 else f"off by {gap:g}"
        print(f"you said {number:g}, {source} {actual} ({verdict}){why}")
        return
    verdict = "right" if gap <= tolerance + 1e-12 else f"off by {gap:.2f}"
    print(f"you said {number:.2f}, {source} {value:.4f} ({verdict}){why}")


def check_exercise(answers: dict, solutions: dict, *, tolerance: float = TOLERANCE) -> None:
    """Check an exercise cell's answers; print "right", "not yet" or "no answer yet".

    The right values are computed by the library in the same cell and never printed
    before an answer: a right answer shows its value, a wrong one says "not yet" and
    points to the collapsed solution. Each right value is recorded
    (:func:`recorded_answers`).

    Parameters
    ----------
    answers : dict
        Question -> the learner's number (None while not answered).
    solutions : dict
        Question -> the right value.
    tolerance : float, default 0.005
        How far from the right value an answer may be.

    Examples
    --------
    >>> forget_guesses()
    >>> check_exercise({"Recall@5": None}, {"Recall@5": 2 / 3})
    Recall@5: no answer yet (replace None with your number, then run this cell again)
    >>> check_exercise({"Recall@5": "2/3"}, {"Recall@5": 2 / 3})
    Recall@5: right (0.6667)
    """
    if not isinstance(answers, dict) or not isinstance(solutions, dict):
        raise InputTypeError(
            f"answers and solutions are dicts, got {type(answers).__name__} and "
            f"{type(solutions).__name__}"
        )
    text = check_answers(answers, solutions, tolerance=tolerance)
    for question, value in solutions.items():
        _record(_question(question), float(value))
    print(text)


def check_your_check(my_check, metric, right, *, name: str | None = None) -> None:
    """Say whether the learner's check catches a buggy metric, printing no value.

    A bug hunt asks for a one-line check that fails on the buggy implementation and passes
    on a right one; this runs it on both and prints which, never the numbers either gives.

    Parameters
    ----------
    my_check : callable or None
        ``lambda metric: <condition>`` (or a ``def`` with an ``assert``): true, or no
        exception, when the metric passes. None: no check written yet.
    metric : callable
        The implementation under suspicion.
    right : callable
        A right implementation of the same metric (ragmetrics').
    name : str, optional
        How to call ``metric`` in the messages (default: its ``__name__``).

    Examples
    --------
    A precision that divides by the chunks returned instead of by k; one relevant chunk
    returned out of k = 2 is a Precision@2 of 0.5:

    >>> from ragmetrics import precision_at_k
    >>> def precision_v0(retrieved, relevant, k):
    ...     top = retrieved[:k]
    ...     return sum(doc in relevant for doc in top) / len(top)
    >>> check_your_check(None, precision_v0, precision_at_k)
    no check yet for precision_v0: replace None with yours, then run this cell again
    >>> check_your_check(lambda p: p(["a"], {"a"}, 1) == 1.0, precision_v0, precision_at_k)
    not yet: precision_v0 passes your check; look for an input where it goes wrong
    >>> check_your_check(lambda p: p(["a"], {"a"}, 2) == 0.5, precision_v0, precision_at_k)
    caught: your check fails on precision_v0 and passes on a right implementation
    """
    name = name or metric.__name__
    if my_check is None:
        print(f"no check yet for {name}: replace None with yours, then run this cell again")
        return
    if not callable(my_check):
        print(f"a check is a function of the metric (lambda metric: ...), got {my_check!r}")
        return

    def passes(candidate, who):
        try:
            result = my_check(candidate)
        except AssertionError:
            return False
        except Exception as error:  # noqa: BLE001 - a check that cannot run: say why
            print(f"your check raised {type(error).__name__} on {who}: {error}")
            return None
        return result is None or bool(result)  # a def with an assert returns None on a pass

    on_right = passes(right, "the right implementation")
    on_metric = passes(metric, name)
    if on_right is None or on_metric is None:
        return
    if not on_right:
        print("not yet: your check fails on a right implementation too; it must pass there")
    elif on_metric:
        print(f"not yet: {name} passes your check; look for an input where it goes wrong")
    else:
        print(f"caught: your check fails on {name} and passes on a right implementation")


def recorded_answers() -> dict[str, RecordedAnswer]:
    """The right values :func:`reveal` and :func:`check_exercise` saw in this kernel, by question.

    Examples
    --------
    >>> forget_guesses()
    >>> check_exercise({"nDCG@5": None}, {"nDCG@5": 0.9469})
    nDCG@5: no answer yet (replace None with your number, then run this cell again)
    >>> recorded_answers()["nDCG@5"].value
    0.9469
    """
    return dict(_ANSWERS)


def forget_guesses() -> None:
    """Forget every guess and recorded answer (a fresh start, as in a new kernel).

    Examples
    --------
    >>> predict("RR@5", 1.0)
    noted: you predict RR@5 = 1.00
    >>> forget_guesses()
    >>> reveal("RR@5", 0.5)
    make a guess first: predict('RR@5', ...) above, then run this cell again
    """
    _GUESSES.clear()
    _ANSWERS.clear()
