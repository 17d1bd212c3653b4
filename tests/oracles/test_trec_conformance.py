"""ragmetrics against trec_eval's own test suite: every line of all four expected files.

trec_eval (NIST's reference evaluator, version 10.0) ships sample qrels, runs and the
output it prints for them; ``tests/conformance/trec_eval/README.md`` lists the command
behind each expected file. Three checks, each over every line:

1. ``ragmetrics trec_eval`` with the same command prints the same lines: the same
   measures, queries and order, the same text for runid and relstring, and every number
   within half a unit of trec_eval's 4th printed decimal (5e-5, and a hair for the
   rounding of the printed value itself; the issue asks for 1e-4);
2. :func:`ragmetrics.evaluate`, asked for each printed measure by its trec_eval name
   (``parse_metric("P_5")``), gives each per-query value and each ``all`` value (the
   mean; the sum for counts; the geometric mean for gm_map and gm_bpref);
3. the per-query functions of :mod:`ragmetrics.metrics.reference`, for the metrics that
   have one, given each query's ranking in trec_eval's order (score descending, then doc
   id descending as strings).
"""

from __future__ import annotations

import contextlib
import io
import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

import ragmetrics
from ragmetrics import CoverageWarning, parse_metric
from ragmetrics.cli import main
from ragmetrics.io import read_trec_qrels, read_trec_run
from ragmetrics.metrics.trec_names import FAMILIES, spec_of_printed_name

TREC_DIR = Path(__file__).resolve().parents[1] / "conformance" / "trec_eval"  # vendored
if not TREC_DIR.is_dir():
    pytest.skip(f"trec_eval's test suite not found: looked for the folder {TREC_DIR}",
                allow_module_level=True)

# Half a unit in the 4th printed decimal, and a hair for the printed value's own rounding.
TOLERANCE = 5.1e-5


@dataclass(frozen=True)
class Suite:
    """One expected-output file and the trec_eval command that printed it."""

    qrels: str
    run: str
    options: tuple[str, ...]
    relevance_level: int = 1
    complete: bool = False  # -c


SUITES = {
    "out.test.aq": Suite("qrels.test", "results.test", ("-m", "all_trec", "-q")),
    # -c: query 302 is not in results.trunc; it scores 0 and counts (and keeps num_rel).
    "out.test.aqc": Suite("qrels.test", "results.trunc", ("-m", "all_trec", "-q", "-c"),
                          complete=True),
    # -l2: grades -1..4, relevant at >= 2; relstring.20: its first 20 docs.
    "out.test.aql": Suite("qrels.rel_level", "results.test",
                          ("-m", "all_trec", "-mrelstring.20", "-q", "-l2"), relevance_level=2),
    "out.test.meas_params": Suite("qrels.test", "results.test", (
        "-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000",
        "-m", "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75",
        "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20")),
}


def read_lines(text: str) -> list[tuple[str, str, str]]:
    """``[(measure, query, value), ...]`` of trec_eval's ``measure\\tquery\\tvalue`` lines."""
    out = []
    for line in text.splitlines():
        measure, query, value = line.split("\t")
        out.append((measure.strip(), query, value))  # names are padded with spaces
    return out


EXPECTED = {name: read_lines((TREC_DIR / name).read_text()) for name in SUITES}
TOTAL_LINES = sum(len(lines) for lines in EXPECTED.values())


def close(got: str, expected: str) -> bool:
    """Same text, or numbers within the tolerance."""
    if got == expected:
        return True
    try:
        return abs(float(got) - float(expected)) <= TOLERANCE
    except ValueError:
        return False


# -- 1. the command, line by line --------------------------------------------------------


def command_output(suite: Suite) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["trec_eval", *suite.options, str(TREC_DIR / suite.qrels),
                       str(TREC_DIR / suite.run)])
    assert status == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def printed():
    return {name: command_output(suite) for name, suite in SUITES.items()}


@pytest.mark.parametrize("name", list(SUITES))
def test_the_command_prints_every_line_of_the_expected_file(printed, name):
    got, expected = read_lines(printed[name]), EXPECTED[name]
    assert [(m, q) for m, q, _ in got] == [(m, q) for m, q, _ in expected]
    wrong = [(m, q, g, e) for (m, q, g), (_, _, e) in zip(got, expected, strict=True)
             if not close(g, e)]
    assert not wrong, wrong[:10]


def test_every_line_of_the_four_files_is_checked_and_the_largest_difference_is_tiny(printed):
    checked, worst = 0, 0.0
    for name, expected in EXPECTED.items():
        for (_, _, got), (_, _, want) in zip(read_lines(printed[name]), expected, strict=True):
            checked += 1
            with contextlib.suppress(ValueError):
                worst = max(worst, abs(float(got) - float(want)))
    assert checked == TOTAL_LINES == 1249
    assert worst <= TOLERANCE


def test_the_command_prints_the_exact_bytes_of_the_expected_files(printed):
    """Beyond the 1e-4 asked: trec_eval's padding, tabs and rounding, byte for byte."""
    for name in SUITES:
        assert printed[name] == (TREC_DIR / name).read_text()


# -- 2. evaluate, by trec_eval's names ------------------------------------------------------

_FAMILY = {f.root: f for f in FAMILIES}


def family_of(measure: str):
    """The trec_eval family of a printed measure name."""
    for root in sorted(_FAMILY, key=len, reverse=True):
        if measure == root or measure.startswith(root + "_"):
            return _FAMILY[root]
    raise AssertionError(measure)


@dataclass
class Loaded:
    evaluation: ragmetrics.Evaluation
    rankings: dict[str, list[str]]  # judged query -> its ranking, trec_eval's order
    grades: dict[str, dict[str, int]]  # judged query -> {doc id: grade}
    per_query_values: dict[str, dict[str, float]]  # metric -> query -> value (a cache)


def metric_names(suite_name: str) -> dict[str, str]:
    """``{printed measure name: ragmetrics metric name}`` of a suite."""
    names = {}
    for measure, _, _ in EXPECTED[suite_name]:
        spec = spec_of_printed_name(measure)
        assert spec is not None, measure
        names[measure] = str(spec)
    return names


@pytest.fixture(scope="module")
def load(trec_conformance_dir):
    """``load(suite)``: the suite's inputs and ragmetrics' evaluation of them, cached."""
    cache: dict[str, Loaded] = {}

    def loader(suite_name: str) -> Loaded:
        if suite_name not in cache:
            suite = SUITES[suite_name]
            # trec_eval ignores what follows the run name (results.trunc has such junk).
            run = read_trec_run(trec_conformance_dir / suite.run, extra_fields="ignore")
            qrels = read_trec_qrels(trec_conformance_dir / suite.qrels)
            metrics = list(dict.fromkeys(metric_names(suite_name).values()))
            if suite.complete:
                with pytest.warns(CoverageWarning, match="1 judged query missing"):
                    evaluation = ragmetrics.evaluate(run, qrels, metrics,
                                                     relevance_level=suite.relevance_level)
            else:  # any CoverageWarning here fails the test (filterwarnings = error)
                evaluation = ragmetrics.evaluate(run, qrels, metrics,
                                                 relevance_level=suite.relevance_level)
            rankings = trec_rankings(run)
            grades = {
                query_id: dict(zip(judged["doc_id"], judged["relevance"], strict=True))
                for query_id, judged in qrels.groupby("query_id")
            }
            rankings = {query_id: rankings.get(query_id, []) for query_id in grades}
            cache[suite_name] = Loaded(evaluation, rankings, grades, {})
        return cache[suite_name]

    return loader


def trec_rankings(run: pd.DataFrame) -> dict[str, list[str]]:
    """Each query's doc ids in trec_eval's order: score descending, then doc id descending."""
    ordered = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    return {query_id: group["doc_id"].tolist()
            for query_id, group in ordered.groupby("query_id", sort=False)}


def _cases():
    for suite, expected in EXPECTED.items():
        names = metric_names(suite)
        for measure, query_id, value in expected:
            yield pytest.param(suite, measure, query_id, value, names[measure],
                               id=f"{suite}:{measure}:{query_id}")


CASES = list(_cases())


def test_every_line_is_a_case_of_evaluate():
    assert len(CASES) == TOTAL_LINES


@pytest.mark.parametrize(("suite", "measure", "query_id", "expected", "metric"), CASES)
def test_evaluate_matches_trec_eval(load, suite, measure, query_id, expected, metric):
    evaluation = load(suite).evaluation
    fam = family_of(measure)
    if query_id != "all":
        got = evaluation.per_query.loc[query_id, metric]
    elif fam.integer:  # trec_eval's summary of a count is its sum
        got = evaluation.aggregate("sum")[metric]
    elif fam.root == "runid":
        got = evaluation.per_query[metric].iloc[-1]
    else:
        got = evaluation.summary[metric]
    if fam.root == "relstring":
        assert f"'{got}'" == expected
    elif fam.root == "runid":
        assert got == expected
    else:
        assert abs(got - float(expected)) <= TOLERANCE, (
            f"{metric}: ragmetrics {got!r}, trec_eval {expected}")


# -- 3. the per-query functions -----------------------------------------------------------


def _reference_cases():
    for case in CASES:
        *_, query_id, _, metric = case.values
        if parse_metric(metric).info.reference is not None and query_id != "all":
            yield case


@pytest.mark.parametrize(("suite", "measure", "query_id", "expected", "metric"),
                         list(_reference_cases()))
def test_per_query_functions_match_trec_eval(load, suite, measure, query_id, expected, metric):
    loaded = load(suite)
    if metric not in loaded.per_query_values:
        spec = parse_metric(metric)
        level = SUITES[suite].relevance_level
        loaded.per_query_values[metric] = {
            q: spec.info.score_one(loaded.rankings[q], loaded.grades[q], spec.k,
                                   relevance_level=level, **dict(spec.params))
            for q in loaded.grades
        }
    got = loaded.per_query_values[metric][query_id]
    if isinstance(got, str):  # relstring, printed quoted
        assert f"'{got}'" == expected
        return
    assert abs(got - float(expected)) <= TOLERANCE, (
        f"{metric}: ragmetrics {got!r}, trec_eval {expected}")


# -- what the suite says about particular rules ------------------------------------------


def test_minus_c_scores_the_missing_query_zero_and_counts_it(load):
    evaluation = load("out.test.aqc").evaluation
    assert evaluation.queries_missing_from_run == ("302",)
    row = evaluation.per_query.loc["302"]
    assert row["num_rel"] == 77  # a measure of the query: kept (trec_eval prints 77)
    numbers = row.drop(["num_rel", "num_q", "relstring", "runid"]).astype(float)
    assert (numbers == 0.0).all()
    assert row["relstring"] == ""
    # The mean is over all three judged queries, 302 included: (0.2 + 0 + 0.4) / 3.
    assert evaluation.summary["precision@10"] == pytest.approx(0.2, abs=1e-12)


def test_a_fractional_cut_off_is_truncated_by_the_command_and_refused_by_parse_metric():
    """``-mndcg_cut.10,20,23.4``: trec_eval reads the cut-off as C's atol does, 23, and so
    does ``ragmetrics trec_eval``; ``parse_metric`` refuses ``ndcg@23.4`` rather than guess."""
    assert ("ndcg_cut_23", "all") in {(m, q) for m, q, _ in EXPECTED["out.test.meas_params"]}
    with pytest.raises(ValueError, match=r"the cut-off in 'ndcg@23\.4' must be a positive int"):
        parse_metric("ndcg@23.4")


def test_trec_eval_names_parse_to_the_metrics_of_the_table():
    assert str(parse_metric("P_10")) == "precision@10"
    assert str(parse_metric("recall_1000")) == "recall@1000"
    assert str(parse_metric("ndcg_cut_5")) == "ndcg@5"
    assert str(parse_metric("success_1")) == "hit_rate@1"
    assert str(parse_metric("recip_rank")) == "rr"
    assert str(parse_metric("Rprec")) == "r_precision"
    assert str(parse_metric("map")) == "ap"
    assert str(parse_metric("map_cut_100")) == "ap@100"
    assert str(parse_metric("Rprec_mult_0.20")) == "rprec_mult@0.2"
    assert str(parse_metric("iprec_at_recall_0.10")) == "iprec_at_recall@0.1"
    assert str(parse_metric("relative_P_5")) == "relative_precision@5"
    assert str(parse_metric("utility_2,-1,0,0")) == "utility(a=2)"  # b, c, d: the defaults
    assert str(parse_metric("11pt_avg_.25,.5,.75")) == "11pt_avg(0.25,0.5,0.75)"
    assert str(parse_metric("ndcg_1=3,2=9,4=4.5")) == "ndcg(1=3,2=9,4=4.5)"
    assert str(parse_metric("relstring_20")) == "relstring(length=20)"
    assert str(parse_metric("unj_5")) == "unj@5"
    for name in ("infAP", "gm_map", "gm_bpref", "binG", "G", "Rndcg", "ndcg_rel", "set_P",
                 "set_F", "num_nonrel_judged_ret", "rbp", "rbp_resid", "runid", "num_q"):
        assert parse_metric(name).info.trec_eval, name
    assert math.isclose(parse_metric("rbp_p=0.8").arguments["p"], 0.8)


# -- beyond the suite: outputs recorded from the trec_eval 10.0 program ------------------
# Printed by trec_eval 10.0 (usnistgov/trec_eval f425365, built from source) for the
# qrels and run below: q1's ranking holds an unjudged doc (d9) then a judged non-relevant
# one; q2 is judged and absent from the run.
SMALL_QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\nq2 0 d4 2\n"
SMALL_RUN = "q1 Q0 d9 0 1.0 r\nq1 Q0 d2 0 0.5 r\n"
SMALL_MEASURES = ("-m", "iprec_at_recall.0.0", "-m", "11pt_avg", "-m", "utility.2,-1,0,0",
                  "-m", "rbp_resid.p=0.8", "-m", "relstring.4", "-m", "num_ret")
RECORDED = {
    # -c scores q2 on a ranking of one unjudged doc, then sets num_ret to 0 and relstring
    # to '' by their plain names only: utility_2,-1,0,0 is b * 1 = -1, rbp_resid 1 + 0.
    ("-q", "-c"): """\
num_ret               \tq1\t2
iprec_at_recall_0.00  \tq1\t0.0000
relstring_4           \tq1\t'-0'
utility_2,-1,0,0      \tq1\t-2.0000
11pt_avg              \tq1\t0.0000
rbp_resid_p=0.8       \tq1\t0.8400
num_ret               \tq2\t0
iprec_at_recall_0.00  \tq2\t0.0000
relstring_4           \tq2\t'-'
utility_2,-1,0,0      \tq2\t-1.0000
11pt_avg              \tq2\t0.0000
rbp_resid_p=0.8       \tq2\t1.0000
num_ret               \tall\t2
iprec_at_recall_0.00  \tall\t0.0000
utility_2,-1,0,0      \tall\t-1.5000
11pt_avg              \tall\t0.0000
rbp_resid_p=0.8       \tall\t0.9200
""",
    # -J removes the unjudged docs, q2's one doc included: interpolated precision then
    # divides 0 by 0 at recall 0 and trec_eval prints -nan, also in the mean.
    ("-q", "-c", "-J"): """\
num_ret               \tq1\t1
iprec_at_recall_0.00  \tq1\t0.0000
relstring_4           \tq1\t'0'
utility_2,-1,0,0      \tq1\t-1.0000
11pt_avg              \tq1\t0.0000
rbp_resid_p=0.8       \tq1\t0.0000
num_ret               \tq2\t0
iprec_at_recall_0.00  \tq2\t  -nan
relstring_4           \tq2\t''
utility_2,-1,0,0      \tq2\t0.0000
11pt_avg              \tq2\t  -nan
rbp_resid_p=0.8       \tq2\t0.0000
num_ret               \tall\t1
iprec_at_recall_0.00  \tall\t  -nan
utility_2,-1,0,0      \tall\t-0.5000
11pt_avg              \tall\t  -nan
rbp_resid_p=0.8       \tall\t0.0000
""",
}


@pytest.mark.parametrize("options", list(RECORDED))
def test_minus_c_on_parameterised_measures_and_nan_as_trec_eval_prints_them(tmp_path, options):
    (tmp_path / "qrels").write_text(SMALL_QRELS)
    (tmp_path / "run").write_text(SMALL_RUN)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["trec_eval", *options, *SMALL_MEASURES, str(tmp_path / "qrels"),
                       str(tmp_path / "run")])
    assert status == 0
    assert out.getvalue() == RECORDED[options]


@pytest.mark.parametrize("measure", ["iprec_at_recall.1.5", "ndcg.1=1e308x", "P.x",
                                     "nonsense"])
def test_a_bad_measure_is_a_usage_error_naming_the_m_argument(tmp_path, capsys, measure):
    (tmp_path / "qrels").write_text(SMALL_QRELS)
    (tmp_path / "run").write_text(SMALL_RUN)
    assert main(["trec_eval", "-m", measure, str(tmp_path / "qrels"),
                 str(tmp_path / "run")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"ragmetrics: error: -m {measure}: ")
    assert len(err.splitlines()) == 1
