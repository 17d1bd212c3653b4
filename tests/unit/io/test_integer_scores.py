"""Whole-number scores beyond 2**53: refused where a 64-bit float cannot hold them.

Scores are compared as float64, which holds every whole number up to 2**53 and only
some beyond: 2**53 + 1 reads as 2**53, so two docs whose scores differ would tie (and
the tie rule would order them). The policy (``FIXED_CONVENTIONS``, "a whole-number score
beyond 2^53"): such a score is refused, naming it and where it is, on every way a run
comes in; a whole number a float holds (2**53, 2**53 + 2, 2**60) is taken, and so is a
score written with a fraction or an exponent (the nearest float, as trec_eval reads it).
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ragmetrics import evaluate
from ragmetrics.cli import main
from ragmetrics.errors import FormatError, InputError, InputValueError
from ragmetrics.io import read_run, read_trec_run

TOP = 2**53  # 9007199254740992: exact, as is every whole number up to it
INEXACT = TOP + 1  # reads as TOP
QRELS = {"q": {"b": 1}}


def frame(scores, dtype=None) -> pd.DataFrame:
    return pd.DataFrame({"query_id": ["q"] * len(scores),
                         "doc_id": [chr(ord("a") + i) for i in range(len(scores))],
                         "score": pd.Series(scores, dtype=dtype)})


def quiet(run, metrics=("rr",), **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate(run, QRELS, list(metrics), **options)


# -- in Python: frames, tables, dicts ------------------------------------------------------

INPUTS = {
    "int64 frame": lambda: frame([TOP, INEXACT], "int64"),
    "uint64 frame": lambda: frame([TOP, INEXACT], "uint64"),
    "Python ints in an object frame": lambda: frame([TOP, INEXACT], object),
    "an int beyond the float range": lambda: frame([10**400, 1], object),
    "Arrow table": lambda: pa.table({"query_id": ["q", "q"], "doc_id": ["a", "b"],
                                     "score": pa.array([TOP, INEXACT], pa.int64())}),
    "dict of scores": lambda: {"q": {"a": TOP, "b": INEXACT}},
    "dict, NumPy ints": lambda: {"q": {"a": np.int64(TOP), "b": np.int64(INEXACT)}},
}


@pytest.mark.parametrize("name", INPUTS)
def test_a_score_a_float_cannot_hold_is_refused_naming_it(name):
    with pytest.raises(InputValueError) as caught:
        quiet(INPUTS[name]())
    message = str(caught.value)
    assert "whole number that a 64-bit float cannot hold exactly" in message or \
        "beyond the range of a float" in message
    assert ("'b'" in message and str(INEXACT) in message) or "10000000000" in message


def test_polars_and_dask_runs_are_refused_too():
    polars = pytest.importorskip("polars")
    dd = pytest.importorskip("dask.dataframe")
    run = polars.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"],
                            "score": [TOP, INEXACT]})
    with pytest.raises(InputValueError, match=str(INEXACT)):
        quiet(run)
    with pytest.raises(InputValueError, match=str(INEXACT)):
        quiet(dd.from_pandas(frame([TOP, INEXACT], "int64"), npartitions=1))


def test_whole_numbers_a_float_holds_keep_their_order():
    # Before, 2**53 and 2**53 + 1 tied and the tie rule (doc id descending) put b first.
    assert quiet(frame([TOP + 2, TOP], "int64")).summary["rr"] == 0.5
    assert quiet({"q": {"a": 2**60, "b": 2**60 - 256}}).summary["rr"] == 0.5
    assert quiet(frame([TOP, 3], "int64")).summary["rr"] == 0.5


def test_a_rank_a_float_cannot_hold_is_refused_when_ranks_order_the_run():
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"],
                        "rank": np.array([INEXACT, TOP], dtype=np.int64)})
    with pytest.raises(InputValueError, match=f"rank {INEXACT} is a whole number"):
        quiet(run, order_by="rank")


def test_the_policy_is_listed_with_the_conventions():
    from ragmetrics.conventions import FIXED_CONVENTIONS

    assert any(label == "a whole-number score beyond 2^53" for label, _, _ in FIXED_CONVENTIONS)


# -- files: every reader names the file and the line ---------------------------------------


def parquet_bytes(scores) -> bytes:
    buffer = io.BytesIO()
    pq.write_table(pa.table({"query_id": ["q"] * len(scores), "doc_id": ["a", "b"][:len(scores)],
                             "score": pa.array(scores, pa.int64())}), buffer)
    return buffer.getvalue()


FILES = {
    "run.txt": f"q Q0 a 1 {TOP} r\nq Q0 b 2 {INEXACT} r\n".encode(),
    "run.csv": f"query_id,doc_id,score\nq,a,{TOP}\nq,b,{INEXACT}\n".encode(),
    "run.tsv": f"query_id\tdoc_id\tscore\nq\ta\t{TOP}\nq\tb\t{INEXACT}\n".encode(),
    "run.jsonl": (f'{{"query_id": "q", "doc_id": "a", "score": {TOP}}}\n'
                  f'{{"query_id": "q", "doc_id": "b", "score": {INEXACT}}}\n').encode(),
    "run.parquet": parquet_bytes([TOP, INEXACT]),
}


@pytest.mark.parametrize("name", FILES)
def test_a_file_with_such_a_score_is_refused_with_its_line(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(FILES[name])
    with pytest.raises(FormatError) as caught:
        read_run(path)
    error = caught.value
    header = name.endswith((".csv", ".tsv"))
    assert error.line == (3 if header else 2)  # the second record (Parquet: its second row)
    assert f"score {INEXACT} is a whole number that a 64-bit float cannot hold" in error.reason


def test_a_large_trec_run_split_by_arrow_is_refused_at_the_line(tmp_path):
    lines = [f"q{i} Q0 d 1 {i}.25 r\n" for i in range(2000)] + [f"q Q0 b 2 {INEXACT} r\n"]
    path = tmp_path / "large.run"
    path.write_text("".join(lines))
    with pytest.raises(FormatError) as caught:
        read_trec_run(path)
    assert caught.value.line == 2001


def test_scores_a_float_holds_and_decimal_scores_are_read_as_floats(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text(f"q Q0 a 1 {TOP} r\nq Q0 b 2 {TOP + 2} r\nq Q0 c 3 {INEXACT}.0 r\n"
                    f"q Q0 d 4 9.007199254740993e15 r\nq Q0 e 5 1e300 r\n")
    assert read_run(path)["score"].tolist() == [TOP, TOP + 2, TOP, TOP, 1e300]


# -- the commands: exit 2, one line ----------------------------------------------------------


@pytest.mark.parametrize("command", ["evaluate", "trec_eval"])
def test_the_commands_refuse_such_a_run_with_exit_2(tmp_path, capsys, command):
    (tmp_path / "qrels").write_text("q 0 b 1\n")
    (tmp_path / "run").write_text(f"q Q0 a 1 {TOP} r\nq Q0 b 2 {INEXACT} r\n")
    extra = ["--means-only"] if command == "evaluate" else []
    status = main([command, str(tmp_path / "qrels"), str(tmp_path / "run"), *extra])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.startswith(f"ragmetrics: error: {tmp_path / 'run'}, line 2: score {INEXACT} "
                          "is a whole number that a 64-bit float cannot hold exactly")
    assert len(err.splitlines()) == 1


def test_evaluate_raises_an_input_error_not_a_bug():
    with pytest.raises(InputError):
        quiet({"q": {"a": INEXACT, "b": TOP}})
