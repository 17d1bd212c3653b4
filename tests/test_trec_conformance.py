"""ragmetrics against trec_eval's own test suite.

trec_eval (NIST's reference evaluator, version 10.0) ships sample qrels, runs and the
output it prints for them; ``tests/conformance/trec_eval/README.md`` lists the
command behind each expected file. Every number ragmetrics computes for a measure it
shares with trec_eval must equal the printed one, per query and for the ``all`` row
(the mean over queries). trec_eval prints 4 decimals, so a value is right when it is
within half a unit of the last printed digit (5e-5, plus a hair for the rounding of
the printed value itself).

Both the vectorized :func:`ragmetrics.evaluate` and the per-query functions of
:mod:`ragmetrics.metrics` are checked; the latter get each query's ranking in trec_eval's
order (score descending, then doc id descending as strings).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

import ragmetrics
from ragmetrics import METRICS, CoverageWarning, parse_metric
from ragmetrics.io import read_trec_qrels, read_trec_run

# The expected outputs are needed at collection time, to parametrize: the path is computed
# here as well as in conftest's `trec_conformance_dir` fixture.
TREC_DIR = Path(__file__).resolve().parent / "conformance" / "trec_eval"  # vendored
if not TREC_DIR.is_dir():
    pytest.skip(
        f"trec_eval's test suite not found: looked for the folder {TREC_DIR}",
        allow_module_level=True,
    )

# Half a unit in the 4th printed decimal, and a hair for the printed value's own rounding.
TOLERANCE = 5.1e-5


@dataclass(frozen=True)
class Suite:
    """One expected-output file and the inputs trec_eval read to print it."""

    qrels: str
    run: str
    relevance_level: int
    missing_from_run: tuple[str, ...] = ()  # judged queries absent from the run (under -c)


SUITES = {
    # trec_eval -m all_trec -q qrels.test results.test
    "out.test.aq": Suite("qrels.test", "results.test", relevance_level=1),
    # trec_eval -m all_trec -q -l2 qrels.rel_level results.test: grades -1..4, relevant at >= 2
    "out.test.aql": Suite("qrels.rel_level", "results.test", relevance_level=2),
    # trec_eval -m all_trec -q -c qrels.test results.trunc: query 302 is not in the run; with
    # -c it scores 0 and counts in the mean, ragmetrics' default missing_from_run="zero".
    "out.test.aqc": Suite(
        "qrels.test", "results.trunc", relevance_level=1, missing_from_run=("302",)
    ),
    # trec_eval -q -m P.5,7,3 -m recall.20,2000 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 ...
    "out.test.meas_params": Suite("qrels.test", "results.test", relevance_level=1),
}

# Cut-off-optional metrics have a second trec_eval name that the registry's one
# `trec_eval` field cannot hold: nDCG without a cut-off, and MAP with one.
# -mndcg.1=3,2=9,4=4.5 gives grades 1, 2 and 4 the gains 3, 9 and 4.5. qrels.test has
# grades 0 and 1 only, so every relevant doc gains 3: a uniform scaling that leaves nDCG
# unchanged, and ragmetrics' plain "ndcg" must print the same number.
_MEAS_PARAMS_ONLY = {"ndcg_1=3,2=9,4=4.5": "ndcg"}


def ragmetrics_metric(measure: str) -> str | None:
    """The ragmetrics metric name for a trec_eval measure name, or None if it has none.

    The metric table's ``MetricInfo.trec_eval`` gives each metric's trec_eval names, with
    ``k`` standing for the cut-off (``"P_k"`` for ``"precision"``).
    """
    for info in METRICS.values():
        for name in info.trec_eval:
            if name.endswith("_k"):
                match = re.fullmatch(re.escape(name[:-1]) + r"([0-9]+)", measure)
                if match:
                    return f"{info.name}@{match[1]}"
            elif measure == name:
                return info.name
    return None


def read_expected(file_name: str) -> dict[tuple[str, str], str]:
    """``{(measure, query_id): printed value}`` from trec_eval's ``measure\\tquery\\tvalue``."""
    expected = {}
    for line in (TREC_DIR / file_name).read_text().splitlines():
        measure, query_id, value = line.split("\t")
        expected[measure.strip(), query_id] = value  # names are padded with spaces
    return expected


EXPECTED = {name: read_expected(name) for name in SUITES}


def metric_for(suite: str, measure: str) -> str | None:
    if suite == "out.test.meas_params" and measure in _MEAS_PARAMS_ONLY:
        return _MEAS_PARAMS_ONLY[measure]
    return ragmetrics_metric(measure)


def _cases():
    for suite, expected in EXPECTED.items():
        for (measure, query_id), value in expected.items():
            metric = metric_for(suite, measure)
            if metric is not None:
                yield pytest.param(
                    suite,
                    measure,
                    query_id,
                    float(value),
                    metric,
                    id=f"{suite}:{measure}:{query_id}",
                )


CASES = list(_cases())


# -- loading and evaluating each suite once ------------------------------------------------


@dataclass
class Loaded:
    evaluation: ragmetrics.Evaluation
    rankings: dict[str, list[str]]  # judged query -> its ranking, trec_eval's order
    grades: dict[str, dict[str, int]]  # judged query -> {doc id: grade}
    per_query_values: dict[str, dict[str, float]]  # metric -> query -> value (a cache)


@pytest.fixture(scope="module")
def load(trec_conformance_dir):
    """``load(suite)``: the suite's inputs and ragmetrics' evaluation of them, cached."""
    cache: dict[str, Loaded] = {}

    def loader(suite_name: str) -> Loaded:
        if suite_name not in cache:
            suite = SUITES[suite_name]
            # trec_eval ignores what follows the run name (results.trunc has such junk),
            # and so does extra_fields="ignore". Like trec_eval, evaluate ranks by score and
            # ignores the rank column; results.test has tied scores, so the tie rule counts.
            run = read_trec_run(trec_conformance_dir / suite.run, extra_fields="ignore")
            qrels = read_trec_qrels(trec_conformance_dir / suite.qrels)
            metrics = sorted({case.values[4] for case in CASES if case.values[0] == suite_name})
            if suite.missing_from_run:
                with pytest.warns(CoverageWarning, match="1 judged query missing"):
                    evaluation = ragmetrics.evaluate(
                        run, qrels, metrics, relevance_level=suite.relevance_level
                    )
            else:  # any CoverageWarning here fails the test (filterwarnings = error)
                evaluation = ragmetrics.evaluate(
                    run, qrels, metrics, relevance_level=suite.relevance_level
                )
            rankings = trec_rankings(run)
            grades = {
                query_id: dict(zip(judged["doc_id"], judged["relevance"], strict=True))
                for query_id, judged in qrels.groupby("query_id")
            }
            # -c: a judged query absent from the run has an empty ranking.
            rankings = {query_id: rankings.get(query_id, []) for query_id in grades}
            cache[suite_name] = Loaded(evaluation, rankings, grades, {})
        return cache[suite_name]

    return loader


def trec_rankings(run: pd.DataFrame) -> dict[str, list[str]]:
    """Each query's doc ids in trec_eval's order: score descending, then doc id descending."""
    ordered = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    return {
        query_id: group["doc_id"].tolist()
        for query_id, group in ordered.groupby("query_id", sort=False)
    }


# -- the checks ------------------------------------------------------------------------------


def test_every_expected_file_yields_the_shared_measures():
    """Guard the mapping: the cases must cover the measures both tools define."""
    cut_offs = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
    all_trec = {
        f"{family}_{k}" for family in ("P", "recall", "ndcg_cut", "map_cut") for k in cut_offs
    } | {"recip_rank", "success_1", "success_5", "success_10", "map", "Rprec", "ndcg"}
    covered = {
        suite: {case.values[1] for case in CASES if case.values[0] == suite} for suite in SUITES
    }
    for suite in ("out.test.aq", "out.test.aql", "out.test.aqc"):
        assert covered[suite] == all_trec, suite
    assert covered["out.test.meas_params"] == {
        "P_3",
        "P_5",
        "P_7",
        "recall_20",
        "recall_2000",
        "ndcg_cut_10",
        "ndcg_cut_20",
        "ndcg_cut_23",
        "success_2",
        "success_5",
        "success_20",
        "ndcg_1=3,2=9,4=4.5",
    }


def test_measure_names_map_through_the_registry():
    assert ragmetrics_metric("P_10") == "precision@10"
    assert ragmetrics_metric("recall_1000") == "recall@1000"
    assert ragmetrics_metric("ndcg_cut_5") == "ndcg@5"
    assert ragmetrics_metric("success_1") == "hit_rate@1"
    assert ragmetrics_metric("recip_rank") == "rr"
    assert ragmetrics_metric("Rprec") == "r_precision"
    assert ragmetrics_metric("map") == "ap"
    assert ragmetrics_metric("map_cut_100") == "ap@100"
    assert ragmetrics_metric("ndcg") == "ndcg"
    # Measures ragmetrics does not define map to nothing, not to a look-alike.
    for other in (
        "relative_P_5",
        "Rprec_mult_0.20",
        "ndcg_rel",
        "iprec_at_recall_0.10",
        "11pt_avg",
        "utility",
        "bpref",
        "gm_map",
        "set_P",
        "num_rel",
    ):
        assert ragmetrics_metric(other) is None, other


@pytest.mark.parametrize(("suite", "measure", "query_id", "expected", "metric"), CASES)
def test_evaluate_matches_trec_eval(load, suite, measure, query_id, expected, metric):
    evaluation = load(suite).evaluation
    if query_id == "all":
        got = evaluation.summary[metric]
    else:
        got = evaluation.per_query.loc[query_id, metric]
    assert abs(got - expected) <= TOLERANCE, f"{metric}: ragmetrics {got!r}, trec_eval {expected}"


@pytest.mark.parametrize(("suite", "measure", "query_id", "expected", "metric"), CASES)
def test_per_query_functions_match_trec_eval(
    load, score_one_query, suite, measure, query_id, expected, metric
):
    loaded = load(suite)
    if metric not in loaded.per_query_values:
        level = SUITES[suite].relevance_level
        loaded.per_query_values[metric] = {
            query_id_: score_one_query(
                metric, loaded.rankings[query_id_], loaded.grades[query_id_], level
            )
            for query_id_ in loaded.grades
        }
    values = loaded.per_query_values[metric]
    got = math.fsum(values.values()) / len(values) if query_id == "all" else values[query_id]
    assert abs(got - expected) <= TOLERANCE, f"{metric}: ragmetrics {got!r}, trec_eval {expected}"


def _count_cases():
    for suite in ("out.test.aq", "out.test.aql", "out.test.aqc"):
        for query_id in ("301", "302", "303", "all"):
            yield pytest.param(suite, query_id, id=f"{suite}:{query_id}")


@pytest.mark.parametrize(("suite", "query_id"), list(_count_cases()))
def test_counts_match_num_q_num_rel_and_num_rel_ret(load, suite, query_id):
    """trec_eval's counts, read back from ragmetrics' numbers.

    Every query retrieves at most 500 docs, so Precision@1000 * 1000 is the number of
    relevant docs retrieved (``num_rel_ret``), and that over Recall@1000 is the number
    of relevant docs (``num_rel``). The ``all`` row of a count is a sum, not a mean.
    """
    expected = EXPECTED[suite]
    evaluation = load(suite).evaluation
    frame = evaluation.per_query
    assert len(frame) == int(expected["num_q", "all"])
    rows = frame if query_id == "all" else frame.loc[[query_id]]
    num_rel_ret = rows["precision@1000"] * 1000
    assert num_rel_ret.sum() == pytest.approx(int(expected["num_rel_ret", query_id]), abs=1e-9)
    found = num_rel_ret > 0  # num_rel cannot be read back from a recall of 0
    if found.all():
        num_rel = (num_rel_ret / rows["recall@1000"]).round().astype(int)
        assert num_rel.sum() == int(expected["num_rel", query_id])
    else:  # aqc's query 302, absent from the run, has relevant docs but recall 0
        assert (suite, query_id) in {("out.test.aqc", "302"), ("out.test.aqc", "all")}
        assert int(expected["num_rel", "302"]) > 0


def test_minus_c_scores_the_missing_query_zero_and_counts_it(load):
    evaluation = load("out.test.aqc").evaluation
    assert evaluation.missing_from_run == SUITES["out.test.aqc"].missing_from_run == ("302",)
    assert evaluation.missing_from_qrels == ()
    assert (evaluation.per_query.loc["302"] == 0.0).all()
    # The mean is over all three judged queries, 302 included: (0.2 + 0 + 0.4) / 3.
    assert evaluation.summary["precision@10"] == pytest.approx(0.2, abs=1e-12)


def test_fractional_cut_off_is_refused_where_trec_eval_truncates():
    """``-mndcg_cut.10,20,23.4``: trec_eval silently evaluates ndcg_cut_23 for 23.4.

    ragmetrics refuses the fractional cut-off instead of guessing; the case list above
    checks ``ndcg@23`` against trec_eval's ``ndcg_cut_23``.
    """
    with pytest.raises(ValueError, match=r"the cut-off in 'ndcg@23\.4' must be a positive int"):
        parse_metric("ndcg@23.4")
    assert ("ndcg_cut_23", "all") in EXPECTED["out.test.meas_params"]
