"""ragmetrics evaluate DATASET RUN: a data set (BEIR or MTEB folder, LlamaIndex JSON) wherever
GOLDEN is a qrels file; --dataset-format, --split; errors as one line, exit 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from ragmetrics.cli import main

DATA = Path(__file__).parents[2] / "data" / "datasets"


@pytest.fixture
def run(tmp_path) -> str:
    path = tmp_path / "run.txt"
    path.write_text("007 Q0 d1 1 3.0 bm25\n007 Q0 7 2 2.0 bm25\n42 Q0 007 1 1.0 bm25\n")
    return str(path)


def per_query(capsys, tmp_path, *args) -> pd.DataFrame:
    out = tmp_path / "per_query.csv"
    assert main(["evaluate", *args, "--means-only", "--k", "1", "--per-query", str(out)]) == 0
    capsys.readouterr()
    return pd.read_csv(out, dtype={"query_id": str})


def one_line_error(capsys, args) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    return err[0]


def test_a_beir_folder_is_golden_and_its_split_chosen(capsys, tmp_path, run):
    test = per_query(capsys, tmp_path, str(DATA / "beir" / "tiny"), run)
    assert dict(zip(test["query_id"], test["recall@1"], strict=True)) == {"007": 0.5,
                                                                          "42": 0.0}
    dev = per_query(capsys, tmp_path, str(DATA / "beir" / "tiny"), run, "--split", "dev")
    assert dict(zip(dev["query_id"], dev["recall@1"], strict=True)) == {"42": 1.0}


def test_a_llamaindex_file_and_an_mteb_folder(capsys, tmp_path):
    run = tmp_path / "run.tsv"
    run.write_text("query_id\tdoc_id\trank\nq1\tn1\t1\n007\tn1\t1\n007\t007\t2\n")
    got = per_query(capsys, tmp_path, str(DATA / "llamaindex" / "tiny.json"), str(run))
    assert got.set_index("query_id")["recall@1"].to_dict() == {"q1": 1.0, "007": 0.5}
    mock = tmp_path / "mock_run.tsv"
    mock.write_text("query_id\tdoc_id\trank\nq1\td2\t1\nq2\td2\t1\n")
    got = per_query(capsys, tmp_path, str(DATA / "mteb" / "mock"), str(mock))
    assert got.set_index("query_id")["precision@1"].to_dict() == {"q1": 0.0, "q2": 1.0}


def test_dataset_format_forces_a_layout(capsys, tmp_path, run):
    renamed = tmp_path / "qa.data"  # a name that tells nothing
    shutil.copy(DATA / "llamaindex" / "tiny.json", renamed)
    got = per_query(capsys, tmp_path, str(renamed), run, "--dataset-format", "llamaindex")
    assert set(got["query_id"]) == {"q1", "007"}
    line = one_line_error(capsys, ["evaluate", str(DATA / "beir" / "tiny"), run,
                                   "--dataset-format", "llamaindex"])
    assert line.startswith("ragmetrics: error: ")
    assert "tiny" in line


def test_errors_are_one_line_naming_the_path(capsys, tmp_path, run):
    line = one_line_error(capsys, ["evaluate", str(DATA / "beir" / "tiny"), run,
                                   "--split", "train"])
    assert "tiny: no qrels for split 'train'" in line
    assert "'dev', 'test'" in line
    empty = tmp_path / "empty"
    empty.mkdir()
    line = one_line_error(capsys, ["evaluate", str(empty), run])
    assert f"{empty}: cannot tell the data set's layout" in line
    line = one_line_error(capsys, ["evaluate", str(DATA / "beir" / "tiny" / "qrels" / "test.tsv"),
                                   run, "--split", "dev"])
    assert "--split dev is for data sets" in line
    line = one_line_error(capsys, ["evaluate", str(tmp_path / "nowhere"), run,
                                   "--dataset-format", "beir"])
    assert "not found" in line


def test_a_beir_qrels_file_alone_is_read_as_qrels(capsys, tmp_path, run):
    got = per_query(capsys, tmp_path, str(DATA / "beir" / "tiny" / "qrels" / "test.tsv"), run)
    assert got.set_index("query_id")["recall@1"].to_dict() == {"007": 0.5, "42": 0.0}


def test_coverage_warnings_are_one_line_each(capsys, tmp_path):
    run = tmp_path / "run.tsv"
    run.write_text("query_id\tdoc_id\trank\nPLAIN-2\tMED-10\t1\n")
    assert main(["evaluate", str(DATA / "beir" / "nfcorpus"), str(run), "--means-only"]) == 0
    err = capsys.readouterr().err
    assert "ragmetrics: warning: " in err
    assert "1 judged query has no question in queries.jsonl" in err
