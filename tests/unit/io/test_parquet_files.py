"""Parquet files: long and wide, read like CSV and through the same checks."""

from __future__ import annotations

import pytest
from reader_files import (
    assert_same_frame,
    parquet,
    write,
)

from ragmetrics.io import (
    FormatError,
    read_golden,
    read_results,
)


def test_parquet_long_and_wide_read_like_csv(tmp_path):
    expected = read_golden(write(tmp_path, "g.csv", "query_id,doc_id,relevance\nq1,c1,2\n7,c2,1\n"))
    long = parquet(tmp_path, "g.parquet", {"query_id": ["q1", "7"], "doc_id": ["c1", "c2"],
                                           "relevance": [2, 1]})
    assert_same_frame(read_golden(long), expected)
    ints = parquet(tmp_path, "i.parquet", {"query_id": [7], "doc_id": [42], "relevance": [1.0]})
    assert read_golden(ints).values.tolist() == [["7", "42", 1]]  # 1.0: a whole number
    wide = parquet(tmp_path, "w.parquet", {"query_id": ["q1"], "retrieved_ids": [["c7", "c1"]]})
    assert read_results(wide).values.tolist() == [["q1", "c7", 1], ["q1", "c1", 2]]


@pytest.mark.parametrize(
    ("columns", "row", "reason"),
    [
        # The case: a null inside a list was dropped, moving later docs up.
        ({"query_id": ["q1"], "retrieved_ids": [["c7", None, "c1"]]}, 1,
         "retrieved_ids[1] must be a string or an integer id, got None"),
        ({"query_id": ["q1", "q1"], "retrieved_ids": [["c1"], ["c2"]]}, 2,
         "query 'q1' already has a row, on row 1"),
        ({"query_id": ["q1", "q2"], "doc_id": ["c1", " "], "score": [1.0, 2.0]}, 2,
         "doc_id ' ' begins or ends with whitespace"),
        ({"query_id": ["q1", "q2"], "doc_id": ["c1", ""], "score": [1.0, 2.0]}, 2,
         "doc_id is empty"),
        ({"query_id": ["q1"], "doc_id": ["c1"], "score": ["0.9"]}, 1,
         "score must be a number, got '0.9', a string"),
        ({"query_id": ["q1", "q1"], "doc_id": ["c1", "c2"], "score": [1.0, float("-inf")]}, 2,
         "score must be a finite number, got -inf"),
        ({"query_id": ["q1", "q1"], "doc_id": ["c1", "c2"], "rank": [1.0, 2.5]}, 2,
         "rank must be an integer, got 2.5"),
    ],
)
def test_parquet_goes_through_the_same_checks(tmp_path, columns, row, reason):
    path = parquet(tmp_path, "r.parquet", columns)
    with pytest.raises(FormatError) as caught:
        read_results(path)
    assert (caught.value.line, caught.value.unit) == (row, "row")
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"{path}, row {row}: ")
