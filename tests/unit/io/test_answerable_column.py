"""An ``answerable`` column in a golden file: kept as bools, checked cell by cell.

It marks the questions with no answer for :func:`ragmetrics.threshold_sweep`; a value that
is not a flag is a FormatError naming the file, the line and the value.
"""

from __future__ import annotations

import pandas as pd
import pytest

from ragmetrics import FormatError, read_golden, read_qrels, threshold_sweep


def _write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_csv_flags_in_any_case_and_as_1_or_0(tmp_path):
    path = _write(tmp_path, "golden.csv", "query_id,doc_id,relevance,answerable\n"
                  "q1,a,1,true\nq2,b,0,FALSE\nq3,c,1,1\nq4,d,0,0\n")
    golden = read_golden(path)
    assert golden["answerable"].tolist() == [True, False, True, False]
    assert golden["answerable"].dtype == bool
    assert read_qrels(path).equals(golden)  # read_qrels reads CSV through read_golden


def test_jsonl_and_parquet_flags_are_booleans_or_1_and_0(tmp_path):
    path = _write(tmp_path, "golden.jsonl",
                  '{"query_id": "q1", "doc_id": "a", "relevance": 1, "answerable": true}\n'
                  '{"query_id": "q2", "doc_id": "b", "relevance": 0, "answerable": 0}\n')
    golden = read_golden(path)
    assert golden["answerable"].tolist() == [True, False]
    parquet = tmp_path / "golden.parquet"
    golden.to_parquet(parquet)
    assert read_golden(parquet).equals(golden)


def test_the_wide_form_repeats_the_flag_on_each_listed_doc(tmp_path):
    path = _write(tmp_path, "golden.jsonl",
                  '{"query_id": "q1", "relevant_ids": ["a", "b"], "answerable": true}\n'
                  '{"query_id": "q2", "relevant_ids": ["c"], "answerable": 1}\n')
    assert read_golden(path)["answerable"].tolist() == [True, True, True]


def test_a_file_without_the_column_has_none(tmp_path):
    path = _write(tmp_path, "golden.csv", "query_id,doc_id\nq1,a\n")
    assert list(read_golden(path).columns) == ["query_id", "doc_id", "relevance"]


@pytest.mark.parametrize(("name", "text", "message"), [
    ("golden.csv", "query_id,doc_id,answerable\nq1,a,true\nq2,b,yes\n",
     "line 3: answerable must be true or false (or 1 or 0), got 'yes': 'q2,b,yes'"),
    ("golden.csv", "query_id,doc_id,answerable\nq1,a,2\n",
     "line 2: answerable must be true or false (or 1 or 0), got '2'"),
    ("golden.jsonl", '{"query_id": "q1", "doc_id": "a", "answerable": "false"}\n',
     "line 1: answerable must be true or false (or 1 or 0), got 'false'"),
    ("golden.jsonl", ('{"query_id": "q1", "doc_id": "a", "answerable": true}\n'
     '{"query_id": "q2", "doc_id": "b"}\n'),
     "line 2: this line has no key 'answerable', which other lines have"),
])
def test_a_value_that_is_not_a_flag_is_refused_with_its_line(tmp_path, name, text, message):
    path = _write(tmp_path, name, text)
    with pytest.raises(FormatError) as caught:
        read_golden(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def test_the_column_read_marks_unanswerable_questions_for_the_sweep(tmp_path):
    # q2 has no answer: its row judges a doc 0, and answerable says so.
    path = _write(tmp_path, "golden.csv", "query_id,doc_id,relevance,answerable\n"
                  "q1,a,1,true\nq2,b,0,false\n")
    run = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["a", "z"], "score": [0.9, 0.7]})
    sweep = threshold_sweep(run, read_golden(path))
    assert sweep.answerable.tolist() == [True, False]
    assert sweep.table["false_answer_rate"].tolist() == [1.0, 0.0, 0.0]
    contradicting = _write(tmp_path, "bad.csv", "query_id,doc_id,relevance,answerable\n"
                           "q1,a,1,false\n")
    with pytest.raises(ValueError, match="query 'q1' is marked answerable=False but has 1 "
                       "relevant doc"):
        threshold_sweep(run, read_golden(contradicting))
