"""The exercise widget's model wires the feedback states of ragmetrics.teaching.exercises:
a hint naming the mistake at the first miss, the arithmetic at the second, a refused value
out of the metric's range, "revealed, not scored" after Show solution. Each state reaches
the browser through the synced traits (feedback, item, summary) and the live region
(announcement), as the browser's requests (answer_request, nav_request) drive it.
"""

from __future__ import annotations

from ragmetrics.teaching import GENERIC_HINTS, MISCONCEPTIONS, ExerciseSet
from ragmetrics.widgets import ExerciseWidget

K_AS_DENOMINATOR = next(m for m in MISCONCEPTIONS if m.name == "k as the denominator")
RR_RANK = next(m for m in MISCONCEPTIONS if m.name == "the rank instead of 1/rank")


def test_the_first_miss_shows_the_mistakes_hint_and_the_second_the_arithmetic():
    quiz = ExerciseWidget(["recall"], seed=1)     # Recall@3: C at rank 3, the only relevant
    practice = ExerciseSet(["recall"], seed=1)
    quiz.answer_request = {"text": "1/3", "n": 1}  # 1 found, divided by k = 3
    expected = practice.answer("1/3")
    assert quiz.feedback == {"status": "wrong", "message": expected.message,
                             "hint": K_AS_DENOMINATOR.hint,
                             "misconception": "k as the denominator",
                             "columns": [], "rows": [], "lines": []}
    assert quiz.announcement == expected.message
    assert "1.0000" not in quiz.announcement
    assert quiz.item["status"] == "tried"
    quiz.answer_request = {"text": "0.2", "n": 2}
    assert quiz.feedback["status"] == "wrong"
    assert quiz.feedback["hint"] == ""
    assert quiz.feedback["lines"][-1] == "Recall@3 = 1/1 = 1.0000"
    assert quiz.announcement == "Not quite: you gave 0.2000, Recall@3 = 1.0000."


def test_a_value_out_of_range_is_refused_with_a_hint_and_not_counted():
    quiz = ExerciseWidget(["rr"], seed=3)         # RR@5, the first relevant chunk at rank 3
    assert quiz.exercises.current.relevant == {"C": 1}
    quiz.answer_request = {"text": "3", "n": 1}    # the rank, not 1/rank
    assert quiz.feedback["status"] == "out_of_range"
    assert quiz.feedback["hint"] == RR_RANK.hint
    assert quiz.announcement == (f"RR@5 lies between 0 and 1, and 3 is outside. {RR_RANK.hint} "
                                 "This answer does not count: try again.")
    assert quiz.item["status"] == "not tried"
    assert quiz.summary == "Score: 0 of 3 answered right (0 at the first try); 3 to go"
    quiz.answer_request = {"text": "0.3", "n": 2}  # the first counted miss: still a hint
    assert quiz.feedback["hint"] == GENERIC_HINTS["rr"]
    assert quiz.feedback["rows"] == []
    quiz.answer_request = {"text": "1/3", "n": 3}
    assert quiz.feedback["status"] == "correct"
    assert quiz.item["status"] == "right"


def test_after_show_solution_an_answer_is_revealed_not_scored():
    quiz = ExerciseWidget(["recall"], seed=6)
    quiz.nav_request = {"action": "reveal", "n": 1}
    assert quiz.feedback["status"] == "revealed"
    assert quiz.item["status"] == "solution shown, not scored"
    quiz.answer_request = {"text": "1/2", "n": 2}
    assert quiz.feedback["status"] == "not_scored"
    assert quiz.feedback["lines"][-1] == "Recall@2 = 1/2 = 0.5000"   # the arithmetic stays
    assert quiz.announcement == ("Matches the solution: Recall@2 = 0.5000. Revealed, not "
                                 "scored: the solution was shown, so this item counts neither "
                                 "right nor wrong.")
    assert quiz.summary == ("Score: 0 of 2 scored items answered right (0 at the first try); "
                            "1 solution shown, not scored; 2 to go")
