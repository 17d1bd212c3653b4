"""Issue 28, item 1: ``ragmetrics evaluate --max-false-answer-rate R [--tune-queries FILE]``
and ``--threshold-sweep OUT.csv``, in-process (``main(argv)``).

The files are the hand case of tests/unit/comparison/test_no_answer.py, with the two
unanswerable questions marked in GOLDEN's ``answerable`` column (each with a row judged 0).
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from ragmetrics.cli import main

GOLDEN = """query_id,doc_id,relevance,answerable
q1,a,1,true
q2,b,1,true
q3,c,1,true
q4,x,0,false
q5,y,0,false
"""
BM25 = "query_id,doc_id,score\nq1,a,9\nq2,z,8\nq2,b,5\nq3,c,4\nq4,w,7\nq5,v,3\n"
DENSE = "query_id,doc_id,score\nq1,a,0.9\nq2,b,0.8\nq3,c,0.7\nq4,w,0.75\nq5,v,0.2\n"


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("golden.csv", GOLDEN), ("bm25.csv", BM25), ("dense.csv", DENSE),
                       ("tune.csv", "query_id\nq1\nq2\nq5\n"),
                       ("ranked.csv", "query_id,doc_id,rank\nq1,a,1\nq2,b,1\n")):
        paths[name.split(".")[0]] = tmp_path / name
        (tmp_path / name).write_text(text)
    return paths


def run(capsys, *args):
    status = main(["evaluate", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def section(out: str) -> list[str]:
    """The lines of the text report's section, heading first."""
    block = next(b for b in out.split("\n\n") if b.startswith("Questions with no answer:"))
    return block.splitlines()


def test_the_thresholds_and_which_run_abstains_better(capsys, files):
    status, out, err = run(capsys, files["golden"], files["bm25"], files["dense"],
                           "--metrics", "recall@5", "--resamples", "200",
                           "--max-false-answer-rate", "0")
    assert (status, err) == (0, "")
    lines = section(out)
    assert lines[1] == ("  dense abstains better than bm25: at a false-answer rate of at most "
                        "0 it keeps recall 0.6667 against 0.3333, with false-answer rates "
                        "0.0000 and 0.0000; their intervals overlap, so these questions do "
                        "not settle it.")
    assert "flatters them" in lines[2]
    assert re.match(r"bm25\s+8\s+0\.0000 \[0\.0000, 0\.0000\]\s+0\.3333 \[", lines[4])
    assert re.match(r"dense\s+0\.8\s+0\.0000 \[0\.0000, 0\.0000\]\s+0\.6667 \[", lines[5])


def test_tuned_on_a_file_of_query_ids_measured_on_the_others(capsys, files):
    status, out, err = run(capsys, files["golden"], files["bm25"], files["dense"],
                           "--metrics", "recall@5", "--resamples", "200",
                           "--max-false-answer-rate", "0.5", "--tune-queries", files["tune"])
    assert (status, err) == (0, "")
    lines = section(out)
    assert lines[1].startswith("  dense abstains better than bm25")
    assert lines[2] == ("  On the held-out queries bm25 goes over the target false-answer "
                        "rate of 0.5: a threshold tuned on some questions lets more through "
                        "on others.")
    assert re.match(r"bm25\s+5\s+1\.0000 \[1\.0000, 1\.0000\].*2 held-out queries$", lines[4])


def test_the_report_file_has_the_section(capsys, files, tmp_path):
    report = tmp_path / "report.md"
    status, _, _ = run(capsys, files["golden"], files["bm25"], files["dense"], "--metrics",
                       "recall@5", "--resamples", "200", "--max-false-answer-rate", "0",
                       "--report", report)
    assert status == 0
    assert "| dense | 0.8 | 0.0000 [0.0000, 0.0000] | 0.6667 [" in report.read_text()


def test_without_the_option_the_output_has_no_section(capsys, files):
    status, out, _ = run(capsys, files["golden"], files["bm25"], files["dense"],
                         "--metrics", "recall@5", "--resamples", "200")
    assert status == 0
    assert "Questions with no answer" not in out


def test_the_threshold_sweep_file(capsys, files, tmp_path):
    out_csv = tmp_path / "sweep.csv"
    status, _, err = run(capsys, files["golden"], files["bm25"], files["dense"], "--metrics",
                         "mrr", "--means-only", "--threshold-sweep", out_csv)
    assert status == 0
    assert err == f"threshold sweeps written to {out_csv}\n"
    sweep = pd.read_csv(out_csv)
    assert list(sweep.columns[:6]) == ["system", "threshold", "false_answer_rate",
                                       "answer_rate", "abstention_rate", "recall"]
    bm25 = sweep[sweep["system"] == "bm25"].set_index("threshold")
    # Every distinct score of bm25, then inf. At 4 q4 (7) answers and q5 (3) does not.
    assert bm25.index.tolist() == [3.0, 4.0, 5.0, 7.0, 8.0, 9.0, float("inf")]
    assert bm25["false_answer_rate"].tolist() == [1.0, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0]
    assert bm25["recall"].tolist() == pytest.approx([1, 1, 2 / 3, 1 / 3, 1 / 3, 1 / 3, 0])
    assert sweep[sweep["system"] == "dense"]["threshold"].tolist() == [
        0.2, 0.7, 0.75, 0.8, 0.9, float("inf")]


@pytest.mark.parametrize(("options", "message"), [
    (["--max-false-answer-rate", "1.5"],
     ("--max-false-answer-rate must be from 0 to 1 (a share of the unanswerable questions), "
     "got 1.5")),
    (["--max-false-answer-rate", "-0.1"], "--max-false-answer-rate must be from 0 to 1"),
    (["--max-false-answer-rate", "nan"], ("argument --max-false-answer-rate: 'nan' is not a "
     "finite number")),
    (["--tune-queries", "{tune}"], ("--tune-queries chooses the thresholds of "
     "--max-false-answer-rate: give --max-false-answer-rate R too")),
    (["--max-false-answer-rate", "0.1", "--means-only"],
     "--max-false-answer-rate reports intervals"),
    (["--threshold-sweep", "{golden}"], ("--threshold-sweep .*golden.csv is GOLDEN "
     ".*golden.csv: an output never replaces an input")),
    (["--max-false-answer-rate", "0.1", "--tune-queries", "{tune}", "--threshold-sweep",
      "{tune}"], ("--threshold-sweep .*tune.csv is --tune-queries .*tune.csv: an output "
     "never replaces an input")),
    (["--threshold-sweep", "sweep.txt"], ("--threshold-sweep sweep.txt: the file name must "
     "end in .csv")),
])
def test_bad_options_exit_2_with_one_line(capsys, files, options, message):
    options = [o.format(**{k: str(v) for k, v in files.items()}) for o in options]
    status, out, err = run(capsys, files["golden"], files["bm25"], *options)
    assert (status, out) == (2, "")
    assert re.search(message.replace("(", r"\(").replace(")", r"\)"), err), err
    assert err.count("\n") == 1


def test_a_run_without_scores_is_named(capsys, files):
    status, _, err = run(capsys, files["golden"], files["bm25"], files["ranked"],
                         "--max-false-answer-rate", "0.1")
    assert status == 2
    assert err == ("ragmetrics: error: a score threshold needs the run's scores: system "
                   "'ranked': the run has no 'score' column (columns: 'query_id', 'doc_id', "
                   "'rank')\n")


def test_a_tuning_query_that_is_not_judged_is_named(capsys, files, tmp_path):
    (tmp_path / "bad.csv").write_text("query_id\nq1\nq9\n")
    status, _, err = run(capsys, files["golden"], files["bm25"], "--max-false-answer-rate",
                         "0.1", "--tune-queries", tmp_path / "bad.csv")
    assert status == 2
    assert "q9" in err
