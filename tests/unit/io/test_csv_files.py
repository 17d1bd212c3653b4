"""CSV files: quoting as pandas writes it, carriage returns, long results with score
and rank, empty wide lists, and a fuzz that drops nothing silently."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reader_files import (
    FUZZ_LIGHT,
    INT64,
    assert_same_frame,
    attempt,
    mostly,
    strings,
    write,
)

from ragmetrics.io import (
    FormatError,
    read_golden,
    read_results,
)


def test_csv_quoted_fields_extra_columns_and_unnamed_index(tmp_path):
    # As pandas' to_csv writes it: an unnamed index column, and a question with a comma
    # and a line break inside quotes (one record over two lines).
    content = ',query_id,doc_id,question\n0,q1,c1,"Who, and\nwhen?"\n1,q1,"c,2",x\n'
    golden = read_golden(write(tmp_path, "g.csv", content))
    assert golden["doc_id"].tolist() == ["c1", "c,2"]
    with pytest.raises(FormatError) as caught:
        read_golden(write(tmp_path, "h.csv", content + "2,q2,,y\n"))
    assert (caught.value.line, caught.value.reason) == (5, "doc_id is empty")


def test_csv_quoted_carriage_return(tmp_path):
    golden = read_golden(write(tmp_path, "g.csv", 'query_id,doc_id\nq1,"a\rb"\n'))
    assert golden["doc_id"].tolist() == ["a\rb"]
    # Unquoted, a lone CR ends the line (old Mac files): "b" is a record of one field.
    with pytest.raises(FormatError, match="line 3: expected 2 fields as in the header"):
        read_golden(write(tmp_path, "h.csv", "query_id,doc_id\nq1,a\rb\n"))


def test_results_long_with_score_and_rank(tmp_path):
    content = "query_id,doc_id,rank,score\nq1,c3,1,0.9\nq1,c1,2,0.25\n"
    run = read_results(write(tmp_path, "r.csv", content))
    expected = pd.DataFrame(
        {
            "query_id": strings(["q1", "q1"]),
            "doc_id": strings(["c3", "c1"]),
            "rank": np.array([1, 2], dtype=np.int64),
            "score": [0.9, 0.25],
        }
    )
    assert_same_frame(run, expected)
    scores_only = read_results(write(tmp_path, "s.csv", "query_id,doc_id,score\nq,c,-2\n"))
    assert list(scores_only.columns) == ["query_id", "doc_id", "score"]
    assert scores_only["score"].tolist() == [-2.0]


def test_empty_wide_list_gives_no_rows_for_that_query(tmp_path):
    content = 'query_id,retrieved_ids\nq1,"[]"\nq2,\nq3,c9\n'
    run = read_results(write(tmp_path, "r.csv", content))
    assert run.values.tolist() == [["q3", "c9", 1]]


CSV_CELL = st.one_of(
    st.sampled_from(["q1", "c1", "1", "-2", "1.5", "", " ", "nan", "007", "[", "x|y"]),
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters='"\n'), max_size=5
    ),
)
# A cell that is a valid id: no comma, quote or line break, no whitespace at either end.
CSV_ID = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=',"\n\r'),
    min_size=1,
    max_size=5,
).filter(lambda s: s == s.strip(" \t\f\v"))
CSV_ROW = mostly(
    st.tuples(CSV_ID, CSV_ID, INT64.map(str)).map(",".join),
    st.one_of(st.lists(CSV_CELL, max_size=5).map(",".join), st.sampled_from(["", " ", "\t"])),
)


@FUZZ_LIGHT
@given(body=st.lists(CSV_ROW, max_size=8))
def test_csv_reader_drops_nothing_silently(folder, body):
    text = "query_id,doc_id,relevance\n" + "\n".join(body)
    path = write(folder, "fuzz.csv", text)
    golden, error = attempt(read_golden, path)
    if error is not None:
        return
    data_lines = [line for line in body if line.strip(" \t\r\f\v")]
    assert len(golden) == len(data_lines) > 0
    assert golden["doc_id"].tolist() == [line.split(",")[1] for line in data_lines]
    assert golden["relevance"].tolist() == [int(line.split(",")[2]) for line in data_lines]
