"""Questions with no answer: the threshold sweep, the chosen threshold, the report.

Hand-computed cases (each worked in the test), properties on random runs (Hypothesis),
the errors, and SQuAD 2.0's 320 unanswerable questions against a plain-Python loop.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics import (
    CoverageWarning,
    InputTypeError,
    InputValueError,
    chunk_qrels,
    load_span_dataset,
)
from ragmetrics.evaluation.abstention import (
    SWEEP_COLUMNS,
    ThresholdSweep,
    abstention_at,
    abstention_report,
    threshold_for,
    threshold_sweep,
)

# q1, q2 answerable; q3, q4 not.
RUN = {"q1": {"a": 0.9, "x": 0.6}, "q2": {"y": 0.8, "b": 0.5},
       "q3": {"z": 0.7}, "q4": {"w": 0.4}}
QRELS = {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()}


def test_the_sweep_worked_by_hand():
    table = threshold_sweep(RUN, QRELS).table
    assert list(table.columns) == list(SWEEP_COLUMNS)
    # Thresholds: the distinct scores ascending, then inf.
    assert table["threshold"].tolist() == [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, math.inf]
    # Unanswerable q3 (best 0.7) and q4 (0.4): both answer at 0.4, q3 alone up to 0.7.
    assert table["false_answer_rate"].tolist() == [1, 0.5, 0.5, 0.5, 0, 0, 0]
    assert table["n_false_answers"].tolist() == [2, 1, 1, 1, 0, 0, 0]
    # Answerable q1 (best 0.9) and q2 (best 0.8): both answer up to 0.8, q1 alone at 0.9.
    assert table["answer_rate"].tolist() == [1, 1, 1, 1, 1, 0.5, 0]
    assert table["abstention_rate"].tolist() == [0, 0, 0, 0, 0, 0.5, 1]
    # Recall: q1 finds a (0.9) at every threshold up to 0.9; q2 finds b (0.5) up to 0.5.
    assert table["recall"].tolist() == [1, 1, 0.5, 0.5, 0.5, 0.5, 0]
    # Precision, over answering answerable queries:
    # 0.4, 0.5: q1 {a, x} 1/2, q2 {y, b} 1/2 -> 1/2; 0.6: q1 1/2, q2 {y} 0 -> 1/4;
    # 0.7, 0.8: q1 {a} 1, q2 {y} 0 -> 1/2; 0.9: q1 alone, 1; inf: nobody answers.
    assert table["precision"].tolist()[:6] == [0.5, 0.5, 0.25, 0.5, 0.5, 1.0]
    assert math.isnan(table["precision"].iloc[6])
    # Counts over the answerable queries' results: kept and relevant kept.
    assert table["n_kept"].tolist() == [4, 4, 3, 2, 2, 1, 0]
    assert table["n_relevant_kept"].tolist() == [2, 2, 1, 1, 1, 1, 0]
    assert table["n_answered"].tolist() == [2, 2, 2, 2, 2, 1, 0]


def test_graded_judgments_and_relevance_level():
    # q1 has a at grade 2 and b at grade 1; at level 2, only a counts; q2's one doc is
    # grade 1: unanswerable at level 2.
    run = {"q1": {"a": 0.3, "b": 0.9}, "q2": {"c": 0.5}}
    qrels = {"q1": {"a": 2, "b": 1}, "q2": {"c": 1}}
    at_1 = threshold_sweep(run, qrels)
    assert at_1.n_unanswerable == 0
    assert at_1.n_answerable == 2
    assert math.isnan(at_1.table["false_answer_rate"].iloc[0])
    at_2 = threshold_sweep(run, qrels, relevance_level=2)
    assert (at_2.n_answerable, at_2.n_unanswerable) == (1, 1)
    # Thresholds 0.3, 0.5, 0.9, inf: q2 (0.5) answers falsely up to 0.5; q1 recalls a
    # (0.3) only at 0.3.
    assert at_2.table["false_answer_rate"].tolist() == [1, 1, 0, 0]
    assert at_2.table["recall"].tolist() == [1, 0, 0, 0]


def test_a_judged_query_missing_from_the_run_never_answers():
    sweep = threshold_sweep({"q1": {"a": 1.0}}, {"q1": {"a"}, "q2": {"b"}, "q3": set()})
    assert sweep.table["answer_rate"].tolist() == [0.5, 0]
    assert sweep.table["recall"].tolist() == [0.5, 0]
    assert sweep.table["false_answer_rate"].tolist() == [0, 0]


def test_a_run_frame_and_a_qrels_frame_with_an_answerable_column():
    run = pd.DataFrame({"query_id": ["q1", "q1", "q2", "q3"], "doc_id": ["a", "x", "y", "z"],
                        "score": [0.9, 0.6, 0.8, 0.7], "rank": [1, 2, 1, 1]})
    # q3 is unanswerable, with a doc judged not relevant (a row the golden file needs).
    qrels = pd.DataFrame({"query_id": ["q1", "q2", "q3"], "doc_id": ["a", "y", "z"],
                          "relevance": [1, 1, 0], "answerable": [1, 1, 0]})
    sweep = threshold_sweep(run, qrels)
    assert sweep.answerable.tolist() == [True, True, False]
    assert sweep.at(0.75)["false_answer_rate"] == 0.0
    assert sweep.at(0.7)["false_answer_rate"] == 1.0
    # The same flags as booleans, and given by a Dataset's questions.
    from ragmetrics import Dataset

    questions = pd.DataFrame({"query_id": ["q1", "q2", "q3"], "text": ["?"] * 3,
                              "answerable": [True, True, False]})
    dataset = Dataset(questions, qrels.drop(columns="answerable"))
    assert threshold_sweep(run, dataset).table.equals(sweep.table)


def test_unanswerable_queries_with_no_judgment_row_come_from_answerable():
    # SQuAD 2.0's shape: the judgments list the answerable queries only.
    run = {"q1": {"a": 0.9}, "q2": {"b": 0.5}}
    sweep = threshold_sweep(run, {"q1": {"a"}}, answerable=pd.Series({"q1": True, "q2": False}))
    assert sweep.query_ids.tolist() == ["q1", "q2"]
    assert sweep.table["false_answer_rate"].tolist() == [1, 0, 0]
    assert sweep.table["recall"].tolist() == [1, 1, 0]


def test_per_query_at_a_threshold():
    per_query = threshold_sweep(RUN, QRELS).per_query(0.6)
    assert per_query.index.tolist() == ["q1", "q2", "q3", "q4"]
    assert per_query["answered"].tolist() == [True, True, True, False]
    assert per_query["kept"].tolist() == [2, 1, 1, 0]
    assert per_query["recall"].tolist()[:2] == [1.0, 0.0]
    assert per_query["precision"].tolist()[:2] == [0.5, 0.0]
    assert per_query[["recall", "precision"]].iloc[2:].isna().all().all()


def test_every_row_of_the_table_equals_the_measure_at_its_threshold():
    sweep = threshold_sweep(RUN, QRELS)
    for _, row in sweep.table.iterrows():
        at = sweep.at(row["threshold"])
        for column in SWEEP_COLUMNS:
            assert at[column] == pytest.approx(row[column], nan_ok=True), column


def test_threshold_for_takes_the_lowest_threshold_that_meets_the_target():
    sweep = threshold_sweep(RUN, QRELS)
    # Rates by threshold: 1, .5, .5, .5, 0, 0, 0 -> <= 0.5 first at 0.5; <= 0 at 0.8.
    assert threshold_for(sweep, max_false_answer_rate=0.5).threshold == 0.5
    assert threshold_for(sweep, max_false_answer_rate=0.49).threshold == 0.8
    assert threshold_for(sweep, max_false_answer_rate=1).threshold == 0.4
    choice = threshold_for(sweep, max_false_answer_rate=0.0)
    assert (choice.false_answer_rate, choice.recall, choice.answer_rate) == (0, 0.5, 1)
    assert choice.rule == "the lowest threshold with false-answer rate <= 0"
    assert choice.n_answerable == 2
    assert choice.n_unanswerable == 2
    # The intervals: the same bootstrap as bootstrap_ci on the per-query values.
    from ragmetrics import bootstrap_ci

    assert choice.recall_ci == bootstrap_ci([1.0, 0.0], bounds=(0, 1))
    assert choice.false_answer_rate_ci == bootstrap_ci([0.0, 0.0], bounds=(0, 1))
    assert "false-answer rate 0.0000 [0.0000, 0.0000]" in str(choice)


def test_no_score_meets_the_target_so_abstain_always():
    # The unanswerable query scores highest: only inf has no false answer.
    sweep = threshold_sweep({"q1": {"a": 0.5}, "q2": {"z": 0.9}}, {"q1": {"a"}, "q2": set()})
    choice = threshold_for(sweep, max_false_answer_rate=0.0)
    assert choice.threshold == math.inf
    assert (choice.false_answer_rate, choice.recall, choice.answer_rate) == (0, 0, 0)
    assert math.isnan(choice.precision)


def test_tuned_on_one_split_measured_on_another():
    run = {"q1": {"a": 0.9}, "q2": {"b": 0.6}, "q3": {"x": 0.5}, "q4": {"y": 0.3},
           "q5": {"c": 0.8}, "q6": {"d": 0.4}, "q7": {"z": 0.7}, "q8": {"w": 0.2}}
    qrels = {"q1": {"a"}, "q2": {"b"}, "q5": {"c"}, "q6": {"d"},
             "q3": set(), "q4": set(), "q7": set(), "q8": set()}
    tune = threshold_sweep(run, qrels, queries=["q1", "q2", "q3", "q4"])
    assert tune.query_ids.tolist() == ["q1", "q2", "q3", "q4"]
    chosen = threshold_for(tune, max_false_answer_rate=0.0)
    # Tuning: q3's 0.5 is the highest unanswerable score, so the lowest safe threshold is
    # the next score, q2's 0.6.
    assert chosen.threshold == 0.6
    assert chosen.recall == 1.0
    test = threshold_sweep(run, qrels, queries=["q5", "q6", "q7", "q8"])
    held_out = abstention_at(test, chosen.threshold)
    # Test: q7 (0.7) answers falsely, q6 (0.4) abstains, q5 (0.8) answers.
    assert (held_out.false_answer_rate, held_out.recall, held_out.answer_rate) == (
        0.5, 0.5, 0.5)
    report = abstention_report({"s": run}, qrels, max_false_answer_rate=0.0,
                               tune_queries=["q1", "q2", "q3", "q4"], n_resamples=200)
    assert report.loc["s", "threshold"] == 0.6
    assert report.loc["s", "false_answer_rate"] == 0.5
    assert report.loc["s", "recall"] == 0.5
    assert report.loc["s", "measured_on"] == "4 held-out queries"
    assert report.loc["s", "n_unanswerable"] == 2


def test_the_report_per_system():
    runs = {"bm25": {"q1": {"a": 3.0}, "q2": {"b": 2.0}, "q3": {"c": 2.5}, "q4": {"d": 1.0}},
            "dense": {"q1": {"a": 0.9}, "q2": {"b": 0.8}, "q3": {"c": 0.4}, "q4": {"d": 0.3}}}
    report = abstention_report(runs, QRELS, max_false_answer_rate=0.0, n_resamples=200)
    # bm25: q3's 2.5 beats q2's 2.0, so a safe threshold (3.0) loses q2; dense separates.
    assert report["threshold"].tolist() == [3.0, 0.8]
    assert report["recall"].tolist() == [0.5, 1.0]
    assert report["recall_low"].tolist()[1] == 1.0
    assert (report["false_answer_rate_low"] <= report["false_answer_rate"]).all()
    with pytest.raises(InputTypeError, match="was one run given"):
        abstention_report(RUN, QRELS, max_false_answer_rate=0.1)


# -- properties -----------------------------------------------------------------------------


@st.composite
def runs_and_judgments(draw):
    n_queries = draw(st.integers(1, 6))
    docs = [f"d{i}" for i in range(6)]
    run, qrels = {}, {}
    for q in range(n_queries):
        retrieved = draw(st.lists(st.sampled_from(docs), unique=True, max_size=5))
        # Few distinct scores: ties within and across queries.
        run[f"q{q}"] = {d: draw(st.sampled_from([0.1, 0.2, 0.5, 0.7, 1.0])) for d in retrieved}
        qrels[f"q{q}"] = set(draw(st.lists(st.sampled_from(docs), unique=True, max_size=3)))
    return run, qrels


def _plain_sweep(run: dict, qrels: dict, threshold: float) -> dict:
    """The definitions, query by query, in plain Python."""
    answerable = [q for q in qrels if qrels[q]]
    unanswerable = [q for q in qrels if not qrels[q]]
    kept = {q: {d for d, s in run.get(q, {}).items() if s >= threshold} for q in qrels}
    recalls = [len(kept[q] & qrels[q]) / len(qrels[q]) for q in answerable]
    precisions = [len(kept[q] & qrels[q]) / len(kept[q]) for q in answerable if kept[q]]
    n_false = sum(1 for q in unanswerable if kept[q])
    n_answered = sum(1 for q in answerable if kept[q])
    return {
        "false_answer_rate": n_false / len(unanswerable) if unanswerable else math.nan,
        "answer_rate": n_answered / len(answerable) if answerable else math.nan,
        "recall": sum(recalls) / len(recalls) if recalls else math.nan,
        "precision": sum(precisions) / len(precisions) if precisions else math.nan,
        "n_false_answers": n_false,
        "n_answered": n_answered,
        "n_kept": sum(len(kept[q]) for q in answerable),
        "n_relevant_kept": sum(len(kept[q] & qrels[q]) for q in answerable),
    }


def _assert_matches_the_plain_loop(sweep: ThresholdSweep, run: dict, qrels: dict) -> None:
    for _, row in sweep.table.iterrows():
        expected = _plain_sweep(run, qrels, row["threshold"])
        for column, value in expected.items():
            assert row[column] == pytest.approx(value, rel=1e-12, abs=1e-12, nan_ok=True), (
                column, row["threshold"])


@settings(max_examples=100, deadline=None)
@given(runs_and_judgments())
def test_properties_of_the_sweep(case):
    run, qrels = case
    sweep = threshold_sweep(run, qrels)
    table = sweep.table
    scores = sorted({s for ranking in run.values() for s in ranking.values()})
    assert table["threshold"].tolist() == [*scores, math.inf]
    for column in ("false_answer_rate", "answer_rate", "recall", "n_kept"):
        values = table[column].to_numpy()
        if not np.isnan(values).all():
            assert (np.diff(values) <= 1e-12).all(), column  # never rises with t
    last = table.iloc[-1]
    if sweep.n_unanswerable:
        assert last["false_answer_rate"] == 0
    if sweep.n_answerable:
        assert last["recall"] == 0
        assert last["answer_rate"] == 0
    _assert_matches_the_plain_loop(sweep, run, qrels)


# -- errors -----------------------------------------------------------------------------------


def test_a_run_without_scores_is_refused():
    with pytest.raises(InputValueError, match=r"run\['q1'\] is a list of ids"):
        threshold_sweep({"q1": ["a", "b"]}, QRELS)
    frame = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "rank": [1]})
    with pytest.raises(InputValueError, match="no 'score' column"):
        threshold_sweep(frame, QRELS)


def test_bad_answerable_values_are_refused_naming_the_query():
    with pytest.raises(InputValueError, match="answerable of query 'q3' must be a boolean "
                       "or 0/1, got 'no'"):
        threshold_sweep(RUN, QRELS, answerable={"q3": "no"})
    with pytest.raises(InputValueError, match=r"answerable of query 'q3' .* got 2"):
        threshold_sweep(RUN, QRELS, answerable={"q3": 2})
    qrels = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["a", "b"],
                          "relevance": [1, 1], "answerable": [True, np.nan]})
    with pytest.raises(InputValueError, match=r"answerable of query 'q2' .* got nan"):
        threshold_sweep(RUN, qrels)


def test_answerable_flags_that_contradict_the_judgments_are_refused():
    with pytest.raises(InputValueError, match="query 'q3' is marked answerable=True but "
                       "has no relevant doc at relevance_level 1"):
        threshold_sweep(RUN, QRELS, answerable={"q3": True})
    with pytest.raises(InputValueError, match=r"query 'q1' is marked answerable=False but "
                       r"has 1 relevant doc\(s\)"):
        threshold_sweep(RUN, QRELS, answerable={"q1": 0})
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"],
                          "relevance": [1, 0], "answerable": [True, False]})
    with pytest.raises(InputValueError, match="answerable of query 'q1' is both true and "
                       "false"):
        threshold_sweep(RUN, qrels)


def test_other_bad_inputs():
    with pytest.raises(InputValueError, match="doc 'a' appears twice in the results of "
                       "query 'q1'"):
        threshold_sweep(pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "a"],
                                      "score": [1.0, 0.5]}), QRELS)
    with pytest.raises(InputValueError, match="doc 'a' has score inf"):
        threshold_sweep({"q1": {"a": math.inf}}, QRELS)
    with pytest.raises(InputTypeError, match="query_id is int in the run but str in the "
                       "judgments"):
        threshold_sweep({1: {"a": 1.0}}, QRELS)
    with pytest.raises(InputValueError, match="neither judged nor in answerable=: 'q9'"):
        threshold_sweep(RUN, QRELS, queries=["q1", "q9"])
    with pytest.warns(CoverageWarning, match="1 query of the run has no judgments"):
        threshold_sweep(RUN | {"q9": {"a": 1.0}}, QRELS)
    sweep = threshold_sweep(RUN, QRELS)
    with pytest.raises(InputValueError, match=r"between 0 and 1, got 1.5"):
        threshold_for(sweep, max_false_answer_rate=1.5)
    with pytest.raises(InputTypeError, match=r"must be a number, got '0.1'"):
        threshold_for(sweep, max_false_answer_rate="0.1")
    with pytest.raises(InputValueError, match="no query is unanswerable"):
        threshold_for(threshold_sweep({"q1": {"a": 1.0}}, {"q1": {"a"}}),
                      max_false_answer_rate=0.1)
    with pytest.raises(InputTypeError, match="sweep must be a ThresholdSweep"):
        threshold_for(sweep.table, max_false_answer_rate=0.1)
    with pytest.raises(InputValueError, match="threshold must be a number, got nan"):
        sweep.at(math.nan)


# -- SQuAD 2.0: 386 answerable questions, 320 with no answer ---------------------------------


def test_squad2_sweep_equals_a_plain_python_loop():
    squad = load_span_dataset("squad2_dev")
    questions = squad.questions
    flags = questions.assign(answerable=~questions["is_impossible"])
    for chunking in ("paragraph", "window256"):
        qrels = chunk_qrels(squad.chunkings[chunking], squad.evidence["answers"])
        run = squad.runs[chunking]
        sweep = threshold_sweep(run, qrels, answerable=flags, system=chunking)
        assert (sweep.n_answerable, sweep.n_unanswerable) == (386, 320)
        # The plain loop, from the files' rows.
        relevant = {q: set() for q in questions["query_id"]}
        for q, d in zip(qrels["query_id"], qrels["doc_id"], strict=True):
            relevant[q].add(d)
        scored = {q: {} for q in questions["query_id"]}
        for q, d, s in zip(run["query_id"], run["doc_id"], run["score"], strict=True):
            scored[q][d] = s
        table = sweep.table
        # Every 50th threshold, the last finite one and inf.
        for i in [*range(0, len(table) - 1, 50), len(table) - 2, len(table) - 1]:
            row = table.iloc[i]
            expected = _plain_sweep(scored, relevant, row["threshold"])
            for column, value in expected.items():
                assert row[column] == pytest.approx(value, rel=1e-12, abs=1e-12,
                                                    nan_ok=True), (chunking, i, column)
        choice = threshold_for(sweep, max_false_answer_rate=0.1, n_resamples=500)
        assert choice.false_answer_rate <= 0.1
        before = table[table["threshold"] < choice.threshold]
        assert (before["false_answer_rate"] > 0.1).all()  # the lowest that meets it
