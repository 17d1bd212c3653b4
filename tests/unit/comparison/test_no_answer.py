"""Issue 28, item 1: questions with no answer in compare (max_false_answer_rate=).

The hand case: three answerable questions (q1, q2, q3: one relevant doc each) and two with
no answer (q4, q5), two systems with scores:

    bm25:  q1 a 9 | q2 z 8, b 5 | q3 c 4 | q4 w 7 | q5 v 3
    dense: q1 a .9 | q2 b .8    | q3 c .7 | q4 w .75 | q5 v .2

A question answers at threshold t when one of its results scores >= t.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ragmetrics import compare
from ragmetrics.comparison.no_answer import check_no_answer
from ragmetrics.errors import InputTypeError, InputValueError

QRELS = {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}, "q4": set(), "q5": set()}
BM25 = {"q1": {"a": 9.0}, "q2": {"z": 8.0, "b": 5.0}, "q3": {"c": 4.0}, "q4": {"w": 7.0},
        "q5": {"v": 3.0}}
DENSE = {"q1": {"a": 0.9}, "q2": {"b": 0.8}, "q3": {"c": 0.7}, "q4": {"w": 0.75},
         "q5": {"v": 0.2}}
SYSTEMS = {"bm25": BM25, "dense": DENSE}


def compared(**options):
    return compare(SYSTEMS, QRELS, ["recall@5"], n_resamples=200, **options)


def test_no_false_answer_at_all_dense_keeps_twice_the_recall():
    # Target 0: no unanswerable question may answer. bm25's unanswerable best scores are
    # 7 and 3, so its threshold is the lowest score above 7: 8. There q1 keeps a (9,
    # recall 1), q2 keeps z (8) but not b (5): it answers with recall 0, q3 (4) abstains:
    # recall (1 + 0 + 0) / 3, answer rate 2/3. dense's are .75 and .2: threshold .8,
    # where q1 (.9) and q2 (.8) keep their relevant doc and q3 (.7) abstains: recall 2/3.
    result = compared(max_false_answer_rate=0.0)
    table = result.abstention
    assert list(table.index) == ["bm25", "dense"]
    assert table["threshold"].tolist() == [8.0, 0.8]
    assert table["false_answer_rate"].tolist() == [0.0, 0.0]
    assert table["recall"].tolist() == pytest.approx([1 / 3, 2 / 3])
    assert table["answer_rate"].tolist() == pytest.approx([2 / 3, 2 / 3])
    assert table["n_answerable"].tolist() == [3, 3]
    assert table["n_unanswerable"].tolist() == [2, 2]
    assert set(table["measured_on"]) == {"the queries it was chosen on"}
    # Every unanswerable question abstains: a false-answer interval of no width.
    assert table[["false_answer_rate_low", "false_answer_rate_high"]].to_numpy().tolist() \
        == [[0.0, 0.0], [0.0, 0.0]]
    assert result.max_false_answer_rate == 0.0
    verdict = result.abstention_verdict()
    assert verdict[0].startswith("dense abstains better than bm25: at a false-answer rate "
                                 "of at most 0 it keeps recall 0.6667 against 0.3333, with "
                                 "false-answer rates 0.0000 and 0.0000")
    # Three answerable questions: the recall intervals overlap, and the sentence says so.
    assert verdict[0].endswith("their intervals overlap, so these questions do not settle it.")
    assert verdict[1].startswith("The thresholds were chosen on the questions they are "
                                 "measured on, which flatters them")


def test_half_the_unanswerable_questions_both_systems_abstain_alike():
    # Target 0.5: one of q4, q5 may answer. bm25: the lowest score above 3 (q5) is 4, where
    # q4 (7) answers (rate 1/2) and q1, q2, q3 all keep their relevant doc: recall 1.
    # dense: the lowest score above .2 is .7: q4 (.75) answers, recall 1.
    result = compared(max_false_answer_rate=0.5)
    table = result.abstention
    assert table["threshold"].tolist() == [4.0, 0.7]
    assert table["false_answer_rate"].tolist() == [0.5, 0.5]
    assert table["recall"].tolist() == [1.0, 1.0]
    assert result.abstention_verdict()[0] == (
        "dense and bm25 abstain alike: at a false-answer rate of at most 0.5 both keep "
        "recall 1.0000 with a false-answer rate of 0.5000.")


def test_thresholds_tuned_on_some_queries_are_measured_on_the_others():
    # Tuned on q1, q2, q5 at target 0.5. bm25's tuning scores are 3 (q5), 5, 8, 9: at 3 q5
    # answers (rate 1), at 5 none does: threshold 5. On the held-out q3 (c 4) and q4
    # (w 7): q4 answers (false-answer rate 1, over the target), q3 abstains (recall 0).
    # dense: .2 (q5), .8, .9: threshold .8; held out, q3 (.7) and q4 (.75) abstain.
    result = compared(max_false_answer_rate=0.5, tune_queries=["q1", "q2", "q5"])
    table = result.abstention
    assert table["threshold"].tolist() == [5.0, 0.8]
    assert table["false_answer_rate"].tolist() == [1.0, 0.0]
    assert table["recall"].tolist() == [0.0, 0.0]
    assert table["n_answerable"].tolist() == [1, 1]
    assert table["n_unanswerable"].tolist() == [1, 1]
    assert set(table["measured_on"]) == {"2 held-out queries"}
    assert table.attrs["tuned_apart"] is True
    verdict = result.abstention_verdict()
    # One unanswerable question each, 1 against 0: intervals [1, 1] and [0, 0], apart.
    assert verdict[0] == ("dense abstains better than bm25: at a false-answer rate of at "
                          "most 0.5 it keeps recall 0.0000 against 0.0000, with false-answer "
                          "rates 0.0000 and 1.0000.")
    assert verdict[1] == ("On the held-out queries bm25 goes over the target false-answer "
                          "rate of 0.5: a threshold tuned on some questions lets more "
                          "through on others.")
    assert not any("flatters" in sentence for sentence in verdict)


def test_without_the_option_nothing_changes():
    plain, with_it = compared(), compared(max_false_answer_rate=0.0)
    assert plain.abstention is None
    assert plain.max_false_answer_rate is None
    assert plain.abstention_verdict() == ()
    pd.testing.assert_frame_equal(plain.summary, with_it.summary)
    pd.testing.assert_frame_equal(plain.tests, with_it.tests)
    assert plain.warnings == with_it.warnings
    # The text report: the same, but for the section of its own.
    blocks = str(with_it).split("\n\n")
    section = [b for b in blocks if b.startswith("Questions with no answer:")]
    assert len(section) == 1
    assert "Questions with no answer" not in str(plain)
    assert "\n\n".join(b for b in blocks if b not in section) == str(plain)


def test_answerable_marks_questions_without_a_judgment_row():
    # q4 and q5 without any judgment: named by answerable=, the same table as above.
    judged = {q: docs for q, docs in QRELS.items() if docs}
    flags = {"q4": False, "q5": False}
    result = compare(SYSTEMS, judged, ["recall@5"], n_resamples=200,
                     max_false_answer_rate=0.0, answerable=flags)
    pd.testing.assert_frame_equal(result.abstention, compared(max_false_answer_rate=0.0)
                                  .abstention)
    assert result.n_queries == 3  # the metrics score the judged queries, as always


@pytest.mark.parametrize("rate", [1.5, -0.1, math.nan, math.inf])
def test_a_rate_outside_0_1_is_refused_with_its_value(rate):
    with pytest.raises(InputValueError, match=f"max_false_answer_rate must be between 0 and "
                       rf"1 .*got {rate!r}"):
        compared(max_false_answer_rate=rate)


@pytest.mark.parametrize("rate", [True, "0.1", None])
def test_a_rate_that_is_not_a_number_is_refused(rate):
    if rate is None:  # None is the default: tune_queries then needs a rate
        with pytest.raises(InputValueError, match="tune_queries is for the thresholds of "
                           "questions with no answer: give max_false_answer_rate too"):
            compared(tune_queries=["q1"])
        return
    with pytest.raises(InputTypeError, match="max_false_answer_rate must be a number"):
        compared(max_false_answer_rate=rate)


def test_answerable_without_a_rate_is_refused():
    with pytest.raises(InputValueError, match="answerable is for the thresholds"):
        compared(answerable={"q4": False})


def test_a_run_without_scores_is_refused_naming_its_system():
    ranked = {q: list(docs) for q, docs in DENSE.items()}
    with pytest.raises(InputValueError, match=r"needs the run's scores: system 'ranked': "
                       r"run\['q1'\] is a list of ids"):
        compare({"bm25": BM25, "ranked": ranked}, QRELS, ["recall@5"], n_resamples=50,
                max_false_answer_rate=0.1)
    frame = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["a", "b"], "rank": [1, 1]})
    with pytest.raises(InputValueError, match="system 'frame': the run has no 'score' column"):
        compare({"frame": frame}, QRELS, ["recall@5"], n_resamples=50,
                max_false_answer_rate=0.1)


def test_bad_tune_queries_are_refused():
    with pytest.raises(InputTypeError, match="tune_queries must be a list of query ids"):
        compared(max_false_answer_rate=0.1, tune_queries="q1")
    with pytest.raises(InputValueError, match="tune_queries is empty"):
        compared(max_false_answer_rate=0.1, tune_queries=[])
    with pytest.raises(InputValueError, match="none is left to measure"):
        compared(max_false_answer_rate=0.1, tune_queries=list(QRELS))
    with pytest.raises(InputValueError, match="q9"):
        compared(max_false_answer_rate=0.1, tune_queries=["q1", "q9"])


def test_evidence_spans_are_refused():
    chunks = [{"chunk_id": "a", "doc_id": "d", "start": 0, "end": 10}]
    with pytest.raises(InputValueError, match="evidence spans are not supported"):
        compare({"s": {"q1": {"a": 1.0}}}, evidence={"q1": [("d", 0, 5)]}, chunks=chunks,
                metrics=["span_recall@1"], n_resamples=50, max_false_answer_rate=0.1)


def test_check_no_answer_keeps_each_tuning_query_once():
    checked = check_no_answer(0.25, ("q2", "q1", "q2"))
    assert (checked.max_false_answer_rate, checked.tune_queries) == (0.25, ("q2", "q1"))
