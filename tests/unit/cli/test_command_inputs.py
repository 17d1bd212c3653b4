"""Numbers and options on the command line, and the same values in Python.

Every number a user writes is parsed in one place (:func:`ragmetrics.validation.
whole_number`, :func:`~ragmetrics.validation.decimal_number`, :func:`~ragmetrics.
validation.check_k`, the metric parameters' checks): ASCII digits only, a cut-off or a
depth at most 2**63 - 1, a float finite. A bad one is bad input: exit status 2 and one
line naming the value on the command line, an :class:`~ragmetrics.errors.InputError`
in Python; never "internal error" (exit 1).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragmetrics import evaluate
from ragmetrics.cli import main
from ragmetrics.errors import InputError
from ragmetrics.validation import MAX_COUNT

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d3 1 1.0 r\n"
HUGE = "99999999999999999999"  # 1e20: beyond int64


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def one_line_error(capsys, status: int, value: str) -> str:
    out, err = capsys.readouterr()
    assert status == 2, err
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith("ragmetrics: error: ")
    assert "internal error" not in err
    assert value in err, err
    return err


# -- ragmetrics evaluate -------------------------------------------------------------------

EVALUATE_OPTIONS = [
    (["--k", HUGE], HUGE),
    (["--k", "5,²"], "²"),  # str.isdigit takes it, int() does not
    (["--k", "١٠"], "١٠"),  # int() takes Arabic-Indic digits: not ASCII, refused
    (["--k", "1_0"], "1_0"),
    (["--metrics", f"recall@{HUGE}"], HUGE),
    (["--metrics", f"span_recall@{HUGE}"], HUGE),
    (["--max-retrieved", "1e30"], "1e30"),
    (["--max-retrieved", HUGE], HUGE),
    (["--max-retrieved", "inf"], "inf"),
    (["--relevance-level", "nan"], "nan"),
    (["--relevance-level", "1e999"], "1e999"),
    (["--jobs", "²"], "²"),
    (["--resamples", HUGE], HUGE),
    (["--seed", HUGE], HUGE),
    (["--max-resamples", "١"], "١"),
    (["--metrics", "utility(a=1e308)"], "1e+308"),
]


@pytest.mark.parametrize(("options", "value"), EVALUATE_OPTIONS,
                         ids=[" ".join(o) for o, _ in EVALUATE_OPTIONS])
def test_evaluate_refuses_a_bad_number_with_exit_2_naming_it(capsys, files, options, value):
    status = main(["evaluate", *files, "--means-only", *options])
    one_line_error(capsys, status, value)


def test_the_largest_cut_off_and_depth_are_taken(capsys, files):
    status = main(["evaluate", *files, "--means-only", "--k", str(MAX_COUNT),
                   "--max-retrieved", str(MAX_COUNT)])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert f"recall@{MAX_COUNT}" in out
    assert main(["evaluate", *files, "--means-only", "--max-retrieved", "5.0"]) == 0
    assert "max_retrieved=5" in capsys.readouterr().out


def test_audit_refuses_a_k_beyond_int64(capsys, files):
    status = main(["audit", files[0], files[0], files[1], "--k", HUGE])
    one_line_error(capsys, status, HUGE)


# -- ragmetrics trec_eval ------------------------------------------------------------------

TREC_EVAL_OPTIONS = [
    (["-M", HUGE], HUGE),
    (["-M", "1e30"], "1e30"),  # trec_eval's atol reads 1: refused here
    (["-l", "²"], "²"),
    (["-N", HUGE], HUGE),
    (["-m", "utility.1e308,1e308,1e308,1e308"], "utility.1e308,1e308,1e308,1e308"),
    (["-m", "utility.nan,1,1,1"], "nan"),
    (["-m", f"P.{HUGE}"], HUGE),
    (["-m", "relstring.inf"], "inf"),
    (["-m", "set_F.1e300"], "1e300"),
]


@pytest.mark.parametrize(("options", "value"), TREC_EVAL_OPTIONS,
                         ids=[" ".join(o) for o, _ in TREC_EVAL_OPTIONS])
def test_trec_eval_refuses_a_bad_number_with_exit_2_naming_it(capsys, files, options, value):
    status = main(["trec_eval", *options, *files])
    one_line_error(capsys, status, value)


def test_trec_eval_takes_the_largest_depth_and_cut_off(capsys, files):
    status = main(["trec_eval", "-M", str(MAX_COUNT), "-m", f"P.{MAX_COUNT}", *files])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert out == f"P_{MAX_COUNT} \tall\t0.0000\n"


# -- the same values in Python -------------------------------------------------------------

RUN_DICT = {"q1": ["d1", "d2"], "q2": ["d3"]}
QRELS_DICT = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}}


@pytest.mark.parametrize("metric", [f"recall@{HUGE}", f"ndcg@{2**63}", "recall@²",
                                    "utility(1e308,1,1,1)", "set_f(beta=1e300)",
                                    f"relstring(length={HUGE})"])
def test_evaluate_raises_an_input_error_naming_the_value(metric):
    with pytest.raises(InputError) as caught:
        evaluate(RUN_DICT, QRELS_DICT, [metric])
    assert "bug" not in str(caught.value)


@pytest.mark.parametrize("depth", [10**30, 2**63])
def test_evaluate_refuses_a_max_retrieved_beyond_int64(depth):
    with pytest.raises(InputError, match=str(depth)):
        evaluate(RUN_DICT, QRELS_DICT, ["recall@5"], max_retrieved=depth)


def test_the_largest_cut_off_scores_as_any_cut_off_past_the_ranking():
    result = evaluate(RUN_DICT, QRELS_DICT, [f"recall@{MAX_COUNT}", "recall@1000"],
                      max_retrieved=MAX_COUNT)
    assert result.summary.iloc[0] == result.summary.iloc[1] == 1.0


# -- --debug, before or after the subcommand ----------------------------------------------


@pytest.mark.parametrize("where", ["before", "after", "last"])
def test_debug_is_taken_before_and_after_the_subcommand(capsys, files, where):
    args = {"before": ["--debug", "evaluate", *files, "--k", "x"],
            "after": ["evaluate", "--debug", *files, "--k", "x"],
            "last": ["evaluate", *files, "--k", "x", "--debug"]}[where]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert err.splitlines()[-1] == ("ragmetrics: error: --k: 'x' is not a positive integer "
                                    f"(ASCII digits, at most {MAX_COUNT}; write e.g. --k "
                                    "5,10,20)")
    assert "unrecognized arguments" not in err


def test_debug_after_trec_eval_and_audit_runs_them(capsys, files):
    assert main(["trec_eval", "--debug", "-m", "num_q", *files]) == 0
    assert capsys.readouterr().out == "num_q                 \tall\t2\n"
    assert main(["audit", "--debug", files[0], files[0]]) == 0
    assert "Traceback" not in capsys.readouterr().err
