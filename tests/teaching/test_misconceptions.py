"""Feedback that names the mistake (ragmetrics.teaching.exercises_misconceptions).

- Each row of the misconception table gives, on a ranking worked by hand here, the value
  that mistake gives (the numbers are written out, not recomputed).
- Per metric and per misconception: an exercise where that mistake's value differs from the
  right answer; typed as the first wrong answer, it gets that row's hint, which does not
  give the right number; the second wrong answer gets the arithmetic.
- A wrong answer that matches no mistake gets the metric's generic hint; a mistake whose
  value is the right one on this exercise is never named.
- A value outside the metric's range is refused with a hint and is not an attempt.
- After "Show solution" an answer is marked "revealed, not scored", and the score counts it
  neither right nor wrong.
"""

from __future__ import annotations

import math

import pytest

from ragmetrics.teaching import (
    GENERIC_HINTS,
    MISCONCEPTIONS,
    ExerciseSet,
    check_answer,
    make_exercise,
    match_misconception,
)
from ragmetrics.teaching.exercises import EXERCISE_METRICS, LEVELS, TOLERANCE

ABCDE = ["A", "B", "C", "D", "E"]
MISSING_F = {"B": 1, "D": 1, "F": 1}  # hits at ranks 2 and 4; F never retrieved: R = 3
LOG3 = math.log2(3)

# (metric, name): (ranking, relevant, k, the values that mistake gives), worked by hand.
BY_HAND = {
    ("recall", "k as the denominator"): (ABCDE, MISSING_F, 4, (2 / 4,)),
    ("recall", "unretrieved relevant chunks left out of R"): (ABCDE, MISSING_F, 4, (2 / 2,)),
    ("recall", "hit rate read as recall"): (ABCDE, MISSING_F, 4, (1.0,)),
    ("recall", "the cut-off ignored"): (ABCDE, MISSING_F, 2, (2 / 3,)),
    ("precision", "the chunks returned instead of k"): (ABCDE, MISSING_F, 8, (2 / 5,)),
    ("precision", "R as the denominator"): (ABCDE, MISSING_F, 4, (2 / 3,)),
    ("precision", "the cut-off ignored"): (ABCDE, MISSING_F, 2, (2 / 5,)),
    ("rr", "the rank instead of 1/rank"): (ABCDE, {"B": 1, "D": 1, "E": 1}, 4, (2.0,)),
    ("rr", "a relevant chunk other than the first"): (ABCDE, {"B": 1, "D": 1, "E": 1}, 4,
                                                       (1 / 4,)),
    ("rr", "the cut-off ignored"): (ABCDE, {"B": 1, "D": 1, "E": 1}, 1, (1 / 2,)),
    ("rr", "1/rank averaged over the relevant chunks"): (ABCDE, {"B": 1, "D": 1, "E": 1}, 4,
                                                          ((1 / 2 + 1 / 4) / 2,)),
    # Grades B 3, D 1, F 2 (never retrieved), k = 3: DCG@3 = 3/log2(3).
    ("ndcg", "the ideal built from the retrieved list"): (
        ABCDE, {"B": 3, "D": 1, "F": 2}, 3,
        ((3 / LOG3) / 3,                          # the top 3 re-sorted: 3, 0, 0
         (3 / LOG3) / (3 + 1 / LOG3))),           # the whole list re-sorted: 3, 1, 0
    ("ndcg", "log2(rank) instead of log2(rank + 1)"): (
        ABCDE, {"B": 3, "D": 1, "F": 2}, 3, (3 / (3 + 2 / 1 + 1 / LOG3),)),
    ("ndcg", "DCG not divided by the ideal DCG"): (ABCDE, {"B": 3, "D": 1, "F": 2}, 3,
                                                   (3 / LOG3,)),
    ("ndcg", "the grades read as 1"): (ABCDE, {"B": 3, "D": 1, "F": 2}, 3,
                                       ((1 / LOG3) / (1 + 1 / LOG3 + 1 / 2),)),
    ("ap", "unretrieved relevant chunks left out of R"): (ABCDE, MISSING_F, None,
                                                          ((1 / 2 + 2 / 4) / 2,)),
    ("ap", "precision averaged at every rank"): (ABCDE, MISSING_F, None,
                                                 ((0 + 1 / 2 + 1 / 3 + 2 / 4 + 2 / 5) / 5,)),
    ("r_precision", "unretrieved relevant chunks left out of R"): (ABCDE, MISSING_F, None,
                                                                   (1 / 2,)),
    ("r_precision", "precision of the whole list"): (ABCDE, MISSING_F, None, (2 / 5,)),
    ("r_precision", "recall of the whole list"): (ABCDE, MISSING_F, None, (2 / 3,)),
    ("hit_rate", "recall read as hit rate"): (ABCDE, MISSING_F, 4, (2 / 3,)),
    ("hit_rate", "the cut-off ignored"): (ABCDE, MISSING_F, 1, (1.0,)),
    ("hit_rate", "the relevant chunks counted"): (ABCDE, MISSING_F, 4, (2.0,)),
}
ROWS = {(m.metric, m.name): m for m in MISCONCEPTIONS}


def test_every_metric_has_at_least_two_misconceptions_and_every_row_is_worked_by_hand():
    for metric in EXERCISE_METRICS:
        assert sum(m.metric == metric for m in MISCONCEPTIONS) >= 2, metric
        assert GENERIC_HINTS[metric]
    assert set(ROWS) == set(BY_HAND)
    assert len(ROWS) == len(MISCONCEPTIONS)  # one name per metric


@pytest.mark.parametrize("key", sorted(BY_HAND))
def test_each_mistake_gives_the_value_worked_by_hand(key):
    ranking, relevant, k, values = BY_HAND[key]
    got = ROWS[key].applies(ranking, relevant, k)
    assert len(got) == len(values)
    assert all(math.isclose(g, v, abs_tol=1e-12) for g, v in zip(got, values, strict=True))


@pytest.mark.parametrize(("key", "ranking", "relevant", "k"), [
    (("precision", "the chunks returned instead of k"), ABCDE, MISSING_F, 4),  # k <= the list
    (("rr", "the cut-off ignored"), ABCDE, {"B": 1, "D": 1}, 4),               # first hit in k
    (("rr", "1/rank averaged over the relevant chunks"), ABCDE, {"B": 1}, 4),  # one hit
    (("rr", "the rank instead of 1/rank"), ABCDE, {"E": 1}, 3),                # none in k
    (("hit_rate", "the cut-off ignored"), ABCDE, MISSING_F, 4),                # a hit in k
    (("ndcg", "the grades read as 1"), ABCDE, MISSING_F, 3),                   # not graded
])
def test_a_mistake_that_cannot_be_made_here_gives_no_value(key, ranking, relevant, k):
    assert ROWS[key].applies(ranking, relevant, k) == ()


def _exercise_for(row):
    """The first exercise (level by level, seed by seed) where ``row``'s mistake gives a
    value that differs from the right answer and that no earlier row of its metric names."""
    for level in LEVELS:
        for seed in range(60):
            ex = make_exercise(row.metric, level, seed)
            for value in row.applies(ex.ranking, ex.relevant, ex.k):
                if abs(value - ex.answer) <= TOLERANCE:
                    continue
                first = match_misconception(ex.metric, ex.ranking, ex.relevant, ex.k, value,
                                            ex.answer, tolerance=TOLERANCE)
                if first is row:
                    return ex, value
    raise AssertionError(f"no exercise shows {row.metric}: {row.name}")


@pytest.mark.parametrize("key", sorted(ROWS))
def test_the_first_wrong_answer_gets_the_hint_of_the_mistake_it_matches(key):
    row = ROWS[key]
    ex, value = _exercise_for(row)
    practice = ExerciseSet([ex.metric], seed=ex.seed)
    practice.go(ex.level - 1)
    assert practice.current == ex
    feedback = practice.answer(f"{value:.6f}")
    assert feedback.misconception == row.name
    assert feedback.hint == row.hint
    assert row.hint in feedback.message
    assert f"{ex.answer:.4f}" not in feedback.message      # the hint never gives the number
    assert feedback.explanation is None
    if feedback.status == "out_of_range":                  # e.g. RR: the rank, not 1/rank
        assert practice.score()["wrong"] == 0               # refused: not an attempt
        assert practice.status() == "not tried"
        feedback = practice.answer(f"{value:.6f}")          # still a hint, never a count
        assert feedback.status == "out_of_range"
        assert practice.score()["wrong"] == 0
        wrong_twice = ("0.0137" if ex.answer > 0.5 else "0.9863")
        practice.answer(wrong_twice)
        second = practice.answer(wrong_twice)
    else:
        assert feedback.status == "wrong"
        assert practice.score()["wrong"] == 1
        second = practice.answer(f"{value:.6f}")           # the second miss: the arithmetic
    assert second.status == "wrong"
    assert f"{ex.label} = {ex.answer:.4f}" in second.message
    assert f"= {ex.answer:.4f}" in second.explanation.lines[-1]


def _far_from_every_mistake(ex) -> float:
    """A value in (0, 1) far from the right answer and from every mistake's values."""
    taken = [ex.answer] + [v for m in MISCONCEPTIONS if m.metric == ex.metric
                           for v in m.applies(ex.ranking, ex.relevant, ex.k)]
    return next(x / 1000 for x in range(13, 1000, 7)
                if all(abs(x / 1000 - t) > 3 * TOLERANCE for t in taken))


@pytest.mark.parametrize("metric", EXERCISE_METRICS)
@pytest.mark.parametrize("level", LEVELS)
def test_a_wrong_answer_matching_no_mistake_gets_the_generic_hint(metric, level):
    ex = make_exercise(metric, level, seed=3)
    value = _far_from_every_mistake(ex)
    feedback = check_answer(ex, f"{value}")
    assert (feedback.status, feedback.misconception) == ("wrong", None)
    assert feedback.hint == GENERIC_HINTS[metric]
    assert feedback.message == (f"Not quite: you gave {value:.4f}. {GENERIC_HINTS[metric]} "
                                "Try again: a second miss shows the arithmetic.")
    assert f"{ex.answer:.4f}" not in feedback.message
    second = check_answer(ex, f"{value}", attempt=2)
    assert second.explanation is not None
    assert second.message.endswith(f"{ex.label} = {ex.answer:.4f}. The arithmetic, rank by rank:")


def test_a_mistake_that_gives_the_right_value_here_is_not_named():
    # nDCG@k of this item is 0.6367; log2(rank) for the discount gives 0.6388, within the
    # tolerance of it: on this item that mistake gives the right answer (typing 0.6388
    # is right), so an answer near 0.6388 but wrong is not that mistake.
    ex = make_exercise("ndcg", 2, seed=27)
    row = ROWS[("ndcg", "log2(rank) instead of log2(rank + 1)")]
    (value,) = row.applies(ex.ranking, ex.relevant, ex.k)
    assert (round(ex.answer, 4), round(value, 4)) == (0.6367, 0.6388)
    assert check_answer(ex, "0.6388").status == "correct"
    wrong = check_answer(ex, "0.6436")          # 0.0048 from the mistake, 0.0069 from right
    assert (wrong.status, wrong.misconception) == ("wrong", None)
    assert wrong.hint == GENERIC_HINTS["ndcg"]
    assert match_misconception("ndcg", ex.ranking, ex.relevant, ex.k, 0.6436, ex.answer,
                               tolerance=TOLERANCE) is None
    with pytest.raises(ValueError, match=r"metric must be one of .*got 'mrr'"):
        match_misconception("mrr", ABCDE, MISSING_F, 2, 0.5, 1.0, tolerance=TOLERANCE)


@pytest.mark.parametrize(("typed", "hint"), [
    ("1.5", "Check the division: what you divide by is never smaller than what you divide."),
    ("-0.25", "No count here is negative, so the value is not either."),
    ("40", "Type a percentage with its sign (40%) or as a decimal (0.4)."),
    ("-1/3", "No count here is negative, so the value is not either."),
])
def test_a_value_outside_the_range_is_refused_and_not_counted(typed, hint):
    practice = ExerciseSet(["precision"], seed=2)
    ex = practice.current
    feedback = practice.answer(typed)
    assert feedback.status == "out_of_range"
    assert not feedback.counted
    assert not feedback.correct
    assert feedback.hint == hint
    assert feedback.message.startswith(f"{ex.label} lies between 0 and 1, and ")
    assert feedback.message.endswith(f"{hint} This answer does not count: try again.")
    assert practice.score() == {"total": 3, "scored": 3, "right": 0, "first_try": 0,
                                "wrong": 0, "revealed": 0, "to_go": 3}
    assert practice.status() == "not tried"
    practice.answer(str(ex.answer))       # the refused value was no try: right at the first
    assert practice.status() == "right at the first try"


def test_the_range_ends_are_in_range():
    ex = make_exercise("recall", 1, seed=5)  # Recall@2 = 0
    assert ex.answer == 0.0
    assert check_answer(ex, "0").status == "correct"
    assert check_answer(ex, "1").status == "wrong"
    assert check_answer(ex, "100%").status == "wrong"
    assert check_answer(ex, "101%").status == "out_of_range"


def test_an_answer_after_the_solution_is_revealed_not_scored():
    practice = ExerciseSet(["ap"], seed=108)
    practice.go(1)
    ex = practice.current
    assert practice.reveal().status == "revealed"
    right = practice.answer(str(ex.answer))
    assert right.status == "not_scored"
    assert not right.correct
    assert not right.counted
    assert right.message == (f"Matches the solution: AP = {ex.answer:.4f}. Revealed, not "
                             "scored: the solution was shown, so this item counts neither "
                             "right nor wrong.")
    assert right.explanation.lines[-1].endswith(f"{ex.answer:.4f}")
    wrong = practice.answer("0.9")
    assert wrong.status == "not_scored"
    assert wrong.message.startswith(f"You gave 0.9; the solution is AP = {ex.answer:.4f}. "
                                    "Revealed, not scored")
    assert practice.answer("").status == "empty"
    assert practice.status() == "solution shown, not scored"
    assert practice.score() == {"total": 3, "scored": 2, "right": 0, "first_try": 0,
                                "wrong": 0, "revealed": 1, "to_go": 2}
    assert practice.summary() == ("0 of 2 scored items answered right (0 at the first try); "
                                  "1 solution shown, not scored; 2 to go")


def test_a_wrong_answer_then_the_solution_counts_neither_right_nor_wrong():
    practice = ExerciseSet(["recall"], seed=6)       # item 1: Recall@2 = 0.5
    assert practice.answer("0.3").status == "wrong"
    assert practice.score()["wrong"] == 1
    practice.reveal()
    assert practice.answer("0.5").status == "not_scored"
    assert practice.score() == {"total": 3, "scored": 2, "right": 0, "first_try": 0,
                                "wrong": 0, "revealed": 1, "to_go": 2}
    practice.next()
    practice.answer(str(practice.current.answer))
    assert practice.summary() == ("1 of 2 scored items answered right (1 at the first try); "
                                  "1 solution shown, not scored; 1 to go")


def test_a_solution_shown_after_a_right_answer_keeps_it_right():
    practice = ExerciseSet(["rr"], seed=1)
    practice.answer(str(practice.current.answer))
    practice.reveal()
    assert practice.status() == "right at the first try"
    assert practice.answer(str(practice.current.answer)).status == "correct"
    assert practice.summary() == "1 of 3 answered right (1 at the first try); 2 to go"


def test_attempt_is_checked():
    ex = make_exercise("recall", 1, seed=6)
    for bad in (0, -1, True, 1.0):
        with pytest.raises(ValueError, match=r"attempt must be an int, 1 or more; got"):
            check_answer(ex, "0.3", attempt=bad)
