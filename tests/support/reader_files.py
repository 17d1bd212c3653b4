"""What the reader tests share: the layouts, a file writer, frame checks and the fuzz
settings (on the path by pytest's ``pythonpath``)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ragmetrics.io import (
    FormatError,
)

TREC_DIR = Path(__file__).resolve().parents[1] / "conformance" / "trec_eval"  # vendored

RUN_LAYOUT = ("query_id", "Q0", "doc_id", "rank", "score", "run_name")
QRELS_LAYOUT = ("query_id", "iteration", "doc_id", "relevance")
# What separates fields in a TREC file: C's isspace, as in trec_eval.
FIELD = re.compile(r"[^ \t\r\f\v]+")
TRICKY_IDS = ["007", "1e5", "nan", "NULL", "True", "-0", "1_000", "None", "inf", "0x1A", "é#1"]

# Each example reads a file through pandas (a few ms): these counts keep the fuzzing to a
# few seconds; the strategies make valid and malformed files alike (see `mostly`).
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ_LIGHT = settings(FUZZ, max_examples=50)


def attempt(reader, path: Path):
    """(frame, None) or (None, the FormatError): any other exception propagates."""
    try:
        return reader(path), None
    except FormatError as error:
        return None, error


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def plain_split(path: Path) -> list[list[str]]:
    """The independent oracle for the (ASCII) trec_eval files: str.split of each line."""
    return [line.split() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def assert_same_frame(got: pd.DataFrame, expected: pd.DataFrame, obj: str = "DataFrame"):
    """Same columns, dtypes and values; the quick check first, the detailed one on failure."""
    if not (got.equals(expected) and got.dtypes.equals(expected.dtypes)):
        pd.testing.assert_frame_equal(got, expected, obj=obj)


def strings(values) -> pd.Series:
    return pd.Series(list(values), dtype=str)


def assert_ids_are_str(frame: pd.DataFrame) -> None:
    for column in ("query_id", "doc_id"):
        assert pd.api.types.is_string_dtype(frame[column])
        assert all(type(value) is str for value in frame[column])


# Any int64 and any finite float, the values that valid fields hold.
INT64 = st.integers(-(2**63), 2**63 - 1)
FINITE = st.floats(allow_nan=False, allow_infinity=False)


def mostly(usual: st.SearchStrategy, unusual: st.SearchStrategy) -> st.SearchStrategy:
    """``usual`` four times in five: fuzzed files must often be valid, or the checks made
    on a successful read would never run."""
    return st.integers(0, 4).flatmap(lambda i: usual if i else unusual)


def parquet(tmp_path: Path, name: str, columns: dict) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / name
    pq.write_table(pa.table(columns), path)
    return path
