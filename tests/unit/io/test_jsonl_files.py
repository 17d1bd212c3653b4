"""JSON Lines files: any object, valid or not, gives rows or a FormatError naming its
line, never anything else."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from reader_files import (
    FINITE,
    FUZZ_LIGHT,
    INT64,
    attempt,
    mostly,
    write,
)

from ragmetrics.io import (
    read_golden,
    read_results,
)

JSON_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(),
    st.text(max_size=3),
    st.lists(st.text(max_size=2), max_size=2),
)
JSON_ID = st.one_of(
    st.integers(-(2**70), 2**70),
    st.text(min_size=1, max_size=4).filter(lambda s: s == s.strip(" \t\r\f\v\n")),
)
VALID_OBJECT = st.fixed_dictionaries(
    {
        "query_id": JSON_ID,
        "doc_id": JSON_ID,
        "relevance": INT64,
        "score": FINITE,
        "rank": INT64,
    }
)
ANY_OBJECT = st.fixed_dictionaries(
    {"query_id": JSON_VALUE, "doc_id": JSON_VALUE},
    optional={"relevance": JSON_VALUE, "score": JSON_VALUE, "rank": JSON_VALUE},
)
JSONL_LINE = mostly(
    VALID_OBJECT.map(json.dumps),
    st.one_of(
        ANY_OBJECT.map(json.dumps),
        st.text(max_size=12).map(lambda s: s.replace("\n", " ")),
        st.sampled_from(["", "  ", "[]", "null", "{}"]),
    ),
)


@FUZZ_LIGHT
@given(lines=st.lists(JSONL_LINE, max_size=6))
def test_jsonl_readers_drop_nothing_silently(folder, lines):
    path = write(folder, "fuzz.jsonl", "\n".join(lines))
    data_lines = [line for line in lines if line.strip(" \t\r\f\v")]
    for reader in (read_golden, read_results):
        frame, error = attempt(reader, path)
        if error is not None:
            continue
        assert len(frame) == len(data_lines) > 0
        docs = [json.loads(line)["doc_id"] for line in data_lines]
        assert frame["doc_id"].tolist() == [str(d) for d in docs]
