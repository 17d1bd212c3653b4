"""Exercises with feedback (ragmetrics.teaching.exercises) and their widget.

The pure layer first: items are reproducible from a seed, at three levels per metric; every
right answer is ragmetrics' own value; typed answers are read as decimals, fractions and
percentages, and judged within the tolerance; a wrong answer comes with the arithmetic rank by
rank (at the second miss; the first gets a hint, tests/teaching/test_misconceptions.py), whose
last line is the right value; the score counts first tries, later tries and solutions shown. Then the widget: it only wires the browser's requests to that layer.
"""

from __future__ import annotations

import math

import pytest

import ragmetrics as rm
from ragmetrics.errors import InputValueError
from ragmetrics.teaching.exercises import (
    EXERCISE_METRICS,
    LEVELS,
    ExerciseSet,
    check_answer,
    check_answers,
    explain,
    make_exercise,
    parse_answer,
)
from ragmetrics.widgets import ExerciseWidget

FUNCTIONS = {
    "recall": lambda e: rm.recall_at_k(list(e.ranking), e.relevant, e.k),
    "precision": lambda e: rm.precision_at_k(list(e.ranking), e.relevant, e.k),
    "hit_rate": lambda e: rm.hit_rate_at_k(list(e.ranking), e.relevant, e.k),
    "rr": lambda e: rm.reciprocal_rank(list(e.ranking), e.relevant, e.k),
    "ndcg": lambda e: rm.ndcg_at_k(list(e.ranking), e.relevant, e.k),
    "ap": lambda e: rm.average_precision(list(e.ranking), e.relevant),
    "r_precision": lambda e: rm.r_precision(list(e.ranking), e.relevant),
}
CASES = [(m, level, seed) for m in EXERCISE_METRICS for level in LEVELS for seed in range(25)]


@pytest.mark.parametrize("metric", EXERCISE_METRICS)
def test_items_are_reproducible_and_differ_by_seed(metric):
    for level in LEVELS:
        assert make_exercise(metric, level, 7) == make_exercise(metric, level, 7)
        assert len({make_exercise(metric, level, s).ranking + tuple(sorted(
            make_exercise(metric, level, s).relevant.items())) for s in range(20)}) > 3


def test_the_answer_is_ragmetrics_value_and_the_arithmetic_ends_with_it():
    for metric, level, seed in CASES:
        ex = make_exercise(metric, level, seed)
        assert ex.answer == FUNCTIONS[metric](ex), (metric, level, seed)
        last = explain(ex).lines[-1]
        assert last.endswith(f"= {ex.answer:.4f}") or last.startswith(
            f"{ex.label} = {ex.answer:.4f}"), (metric, level, seed, last)


def test_levels_grow_harder():
    for metric in EXERCISE_METRICS:
        l1 = [make_exercise(metric, 1, s) for s in range(25)]
        l3 = [make_exercise(metric, 3, s) for s in range(25)]
        assert all(len(e.ranking) == 5 and not e.unretrieved for e in l1)
        assert all(len(e.ranking) == 10 and e.unretrieved for e in l3)
    assert any(make_exercise("ndcg", 3, s).graded for s in range(5))
    assert all(make_exercise("precision", 3, s).k > 10 for s in range(10))  # past the list
    assert any(make_exercise("rr", 3, s).answer == 0 for s in range(25))    # hit below k


def test_bad_requests_are_refused_with_the_value():
    with pytest.raises(ValueError, match=r"metric must be one of .*got 'mrr'"):
        make_exercise("mrr", 1)
    with pytest.raises(ValueError, match="level must be 1, 2 or 3; got 4"):
        make_exercise("recall", 4)
    with pytest.raises(ValueError, match="seed must be an int; got '1'"):
        make_exercise("recall", 1, "1")


@pytest.mark.parametrize(("typed", "value"), [
    ("0.4", 0.4), (".4", 0.4), ("0,4", 0.4), (" 2/5 ", 0.4), ("40%", 0.4), ("40 %", 0.4),
    ("1", 1.0), (0.25, 0.25), (3, 3.0), ("", None), ("   ", None), (None, None),
])
def test_parse_answer(typed, value):
    assert parse_answer(typed) == value


@pytest.mark.parametrize("typed", ["two fifths", "0.4.1", "1/0", "nan", "inf", True, "1/2/3"])
def test_parse_answer_refuses_what_is_not_a_number(typed):
    with pytest.raises(ValueError, match=r"could not read|divides by zero|finite"):
        parse_answer(typed)


def test_check_answer_within_tolerance_or_with_the_arithmetic():
    ex = make_exercise("recall", 1, seed=6)  # Recall@2 = 1/2
    assert check_answer(ex, "0.5").status == "correct"
    assert check_answer(ex, "0.504").status == "correct"   # within 0.005
    assert check_answer(ex, "0.506").status == "wrong"
    assert check_answer(ex, "0.506", tolerance=0.01).status == "correct"
    assert check_answer(ex, "1").explanation is None        # the first miss: a hint only
    wrong = check_answer(ex, "1", attempt=2)
    assert wrong.explanation.rows == (("1", "A", "no", "0"), ("2", "B", "yes", "1"))
    assert check_answer(ex, "").status == "empty"
    unreadable = check_answer(ex, "half")
    assert unreadable.status == "unreadable"
    assert "'half'" in unreadable.message
    with pytest.raises(ValueError, match="tolerance"):
        check_answer(ex, "0.5", tolerance=-1)


def test_explanations_show_what_each_metric_counts():
    nd = explain(make_exercise("ndcg", 3, 0))
    assert nd.columns[2:4] == ("gain", "log2(rank + 1)")
    assert "Ideal DCG" in nd.lines[1]
    ap = explain(make_exercise("ap", 3, 0))
    assert "never retrieved: K" in ap.lines[1]
    assert "counts in R" in ap.lines[1]
    precision = explain(make_exercise("precision", 3, 0))
    assert precision.lines[0].startswith("Ranks 11-12 are empty")


def test_a_set_counts_first_tries_later_tries_and_solutions():
    practice = ExerciseSet(["recall", "rr"], seed=6)
    assert len(practice) == 6
    assert practice.summary().startswith("0 of 6 answered right")
    practice.answer(str(practice.current.answer))        # item 1: right at the first try
    practice.next()
    assert practice.answer("7").status == "out_of_range"   # refused: not an attempt
    assert practice.answer("0.987").status == "wrong"       # item 2: wrong, then right
    practice.answer(str(practice.current.answer))
    practice.next()
    practice.reveal()                                     # item 3: solution shown, then right
    practice.answer(str(practice.current.answer))
    practice.next()
    practice.reveal()                                     # item 4: solution shown only
    # Items 3 and 4: solution shown, not scored (item 3's right answer after it included).
    assert practice.score() == {"total": 6, "scored": 4, "right": 2, "first_try": 1,
                                "wrong": 0, "revealed": 2, "to_go": 2}
    assert [practice.status(i) for i in range(4)] == [
        "right at the first try", "right", "solution shown, not scored",
        "solution shown, not scored"]
    assert practice.summary() == ("2 of 4 scored items answered right (1 at the first try); "
                                  "2 solutions shown, not scored; 2 to go")
    practice.next()
    practice.answer("")  # an empty answer is not an attempt
    assert practice.score()["wrong"] == 0
    practice.answer("0.987" if practice.current.answer < 0.5 else "0.013")
    assert practice.score()["wrong"] == 1
    assert practice.previous().metric == "rr"
    assert practice.go(2).metric == "recall"
    with pytest.raises(ValueError, match="index must be between 0 and 5; got 6"):
        practice.go(6)


def test_check_answers_for_notebook_cells():
    text = check_answers({"a": 0.5, "b": None, "c": "2/3", "d": "x"},
                         {"a": 0.5, "b": 1.0, "c": 0.6, "d": 1.0})
    assert text.splitlines() == [
        "a: right (0.5000)",
        "b: no answer yet (replace None with your number, then run this cell again)",
        "c: not yet (0.666667 is not it; the solution below shows the arithmetic)",
        "d: could not read 'x' as a number: type a decimal (0.4), a fraction (2/5) or a percentage (40%)",
    ]
    with pytest.raises(ValueError, match="no solution for"):
        check_answers({"z": 1}, {"a": 1})


def test_the_widget_wires_the_browser_requests_to_the_set():
    quiz = ExerciseWidget(["recall"], seed=6)
    assert quiz.item["question"] == "What is Recall@2 of this ranking?"
    assert quiz.item["rows"][1] == {"rank": 2, "doc_id": "B", "grade": 1}
    quiz.answer_request = {"text": "0.4", "n": 1}       # what Check sends
    assert quiz.feedback["status"] == "wrong"
    assert quiz.feedback["rows"] == []                  # the first miss: a hint, no number
    assert quiz.feedback["hint"]
    assert "0.5" not in quiz.announcement
    assert quiz.announcement == quiz.feedback["message"]
    quiz.answer_request = {"text": "0.4", "n": 2}     # the second miss: the arithmetic
    assert quiz.feedback["rows"]
    assert quiz.announcement == "Not quite: you gave 0.4000, Recall@2 = 0.5000."
    quiz.answer_request = {"text": "1/2", "n": 3}
    assert quiz.feedback["status"] == "correct"
    assert quiz.feedback["rows"] == []
    assert quiz.summary == "Score: 1 of 3 answered right (0 at the first try); 2 to go"
    quiz.nav_request = {"action": "next", "n": 4}
    assert quiz.item["index"] == 1
    assert quiz.feedback == {}
    assert quiz.announcement.startswith("exercise 2 of 3, level 2: What is Recall@")
    quiz.nav_request = {"action": "reveal", "n": 5}
    assert quiz.feedback["status"] == "revealed"
    assert math.isclose(float(quiz.feedback["lines"][-1].rsplit("= ", 1)[1]),
                        quiz.exercises.current.answer, abs_tol=5e-5)
    quiz.nav_request = {"action": "previous", "n": 6}
    assert quiz.item["index"] == 0
    assert quiz.item["status"] == "right"
    assert repr(quiz) == "ExerciseWidget(item 1 of 3: Recall@2, level 1, seed=6)"


def test_the_widget_has_a_static_fallback_with_escaped_text():
    html = ExerciseWidget(["ndcg"], seed=4)._repr_mimebundle_()[0]["text/html"]
    assert "Exercise 1 of 3" in html
    assert "cut-off k =" in html
    assert "<script" not in html


def test_a_mixed_set_asks_every_item_once_and_never_one_metric_twice_in_a_row():
    metrics = list(EXERCISE_METRICS)
    by_metric = ExerciseSet(metrics, levels=[2, 3], seed=14)
    mixed = ExerciseSet(metrics, levels=[2, 3], seed=14, order="mixed")
    key = [(item.metric, item.level, item.ranking, item.k) for item in by_metric.items]
    assert sorted(key) == sorted((i.metric, i.level, i.ranking, i.k) for i in mixed.items)
    assert [i.metric for i in mixed.items] != [i.metric for i in by_metric.items]
    assert all(a.metric != b.metric for a, b in zip(mixed.items, mixed.items[1:], strict=False))
    assert [i.metric for i in ExerciseSet(metrics, levels=[2, 3], seed=14, order="mixed").items] \
        == [i.metric for i in mixed.items]


def test_an_unknown_order_is_refused_by_name():
    with pytest.raises(InputValueError, match="'random'"):
        ExerciseSet(["recall"], order="random")
