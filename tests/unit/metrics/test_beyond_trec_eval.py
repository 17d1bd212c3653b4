"""What ragmetrics has beyond trec_eval: ERR@k, RBP and its residual, Judged@k, a DCG log
base, gain maps for nDCG, ``dcg@k`` by name, and summaries beyond the mean.

Three layers: values computed by hand here (the arithmetic in the comments); the engine's
kernels (:func:`ragmetrics.evaluate`) against the per-query reference functions of
:mod:`ragmetrics.metrics.reference`, two implementations written apart, on Hypothesis
data (ties broken by trec_eval's rule, grades -1..4, unjudged docs); and properties that
hold by definition (the base scales DCG and cancels out of nDCG, Judged@k + Unjudged@k = 1).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragmetrics
from ragmetrics import RagmetricsWarning, parse_metric

DOC_IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
GRADES = [-1, 0, 1, 1, 2, 3, 4]

#: Metrics (and their parameters) whose kernel is checked here against its per-query
#: reference: those beyond trec_eval, trec_eval's counts and set measures, the ideal DCG
#: and the geometric means' per-query values (AP and bpref).
WITH_REFERENCE = ["err", "err@3", "err(max_grade=5)@4", "err(1=0.2,2=0.6,3=0.9,4=1)",
                  "rbp", "rbp(p=0.5)@5", "rbp(p=0.99)", "rbp(1=0.5,3=2)", "rbp(2=-1)",
                  "rbp_resid", "rbp_resid(p=0.8)",
                  "judged@1", "judged@4", "unj@4", "dcg@3", "dcg(base=10)@3", "dcg(base=3)",
                  "ndcg(base=10)@4", "ndcg(1=3,2=9,4=4.5)@3", "ndcg(0=1,1=3)", "bpref", "infap",
                  # trec_eval's counts and set measures, and binG
                  "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "set_p",
                  "set_recall", "set_relative_p", "set_map", "set_f", "set_f(0.5)",
                  "utility", "utility(2,-1,0.5,0.25,num_docs=50)", "bing",
                  "idcg@3", "idcg(base=10)", "idcg(1=3,2=9)@2", "gm_map", "gm_bpref",
                  # trec_eval's experimental nDCG variants and G, num_q and relstring
                  "ndcg_rel", "ndcg_rel(1=3,2=9)", "ndcg_rel(0=1)", "rndcg", "rndcg(1=3,2=9)",
                  "rndcg(0=2,3=1)", "rndcg(4=-1)", "ndcg_rel(2=-3)", "g", "g(1=3,2=9)",
                  "g(2=-2)", "num_q", "relstring", "relstring(3)"]


def quiet_evaluate(run, qrels, metrics, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        return ragmetrics.evaluate(run, qrels, metrics, **options)


def reference_value(name: str, ranking: list, grades: dict, top_grade: float,
                    **conventions) -> float:
    """The reference function's value; ERR's default g_max is the highest grade of all
    queries in evaluate and of the one query in the reference: so it is passed."""
    spec = parse_metric(name)
    arguments = spec.arguments | conventions
    if spec.info.name == "err" and arguments["max_grade"] is None:
        arguments["max_grade"] = top_grade
    if spec.info.cutoff == "none":
        return spec.info.reference(ranking, grades, **arguments)
    return spec.info.reference(ranking, grades, spec.k, **arguments)


@st.composite
def one_query(draw):
    ranking = draw(st.lists(st.sampled_from(DOC_IDS), max_size=8, unique=True))
    grades = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(GRADES),
                                  min_size=1, max_size=8))
    return ranking, grades


@pytest.mark.slow
@pytest.mark.parametrize("empty_relevant", ["zero", "article", "skip"])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(queries=st.lists(one_query(), min_size=1, max_size=4))
def test_the_kernels_equal_the_reference_functions(queries, empty_relevant):
    # Under every policy for a query with no relevant doc (Hypothesis draws them: grades
    # -1 and 0 only); "article" once gave num_q 0 in evaluate and 1 in its reference.
    run = {f"q{i}": ranking for i, (ranking, _) in enumerate(queries)}
    qrels = {f"q{i}": grades for i, (_, grades) in enumerate(queries)}
    got = quiet_evaluate(run, qrels, WITH_REFERENCE, empty_relevant=empty_relevant).per_query
    top_grade = max(0, *(g for grades in qrels.values() for g in grades.values()))
    for query, ranking in run.items():
        for name in WITH_REFERENCE:
            expected = reference_value(name, ranking, qrels[query], top_grade,
                                       empty_relevant=empty_relevant)
            if expected is None:  # relstring of a query left out
                assert got.loc[query, name] is None or np.isnan(got.loc[query, name])
                continue
            if isinstance(expected, str):  # relstring
                assert got.loc[query, name] == expected, (name, ranking, qrels[query])
                continue
            assert got.loc[query, name] == pytest.approx(
                expected, rel=1e-12, abs=1e-12, nan_ok=True), (
                f"{name} of ranking {ranking}, judgments {qrels[query]}, {empty_relevant}")


# -- ERR ---------------------------------------------------------------------------------


def test_err_by_hand():
    # Grades a=1, b=2 (x unjudged), the highest judged grade 3 (z): R = (2^g - 1) / 2^3,
    # so R_a = 1/8, R_b = 3/8; ERR = R_a / 1 + (1 - R_a) R_b / 3.
    run, qrels = {"q": ["a", "x", "b"]}, {"q": {"a": 1, "b": 2, "z": 3}}
    row = quiet_evaluate(run, qrels, ["err", "err@2", "err(max_grade=2)",
                                      "err(1=0.5,2=1)"]).per_query.loc["q"]
    assert row["err"] == pytest.approx(1 / 8 + (7 / 8) * (3 / 8) / 3, abs=1e-15)
    assert row["err@2"] == pytest.approx(1 / 8, abs=1e-15)
    assert row["err(max_grade=2)"] == pytest.approx(1 / 4 + (3 / 4) * (3 / 4) / 3, abs=1e-15)
    # The map gives the stopping chances: 1/2 at a, then 1 at b.
    assert row["err(1=0.5,2=1)"] == pytest.approx(0.5 + 0.5 * 1 / 3, abs=1e-15)


@pytest.mark.parametrize("chance", ["-0.5", "1.5", "2"])
def test_err_refuses_a_stopping_chance_outside_0_and_1(chance):
    # A chance of -0.5 once gave ERR 0.0625 without a word.
    with pytest.raises(ValueError, match=rf"err\(1={chance}\): the value of grade 1 must lie "
                                         rf"between 0 and 1 \(grade=chance pairs\), got"):
        ragmetrics.evaluate({"q": ["a"]}, {"q": {"a": 1}}, [f"err(1={chance})"])
    with pytest.raises(ValueError, match=r"stopping chance of grade 1 must lie between 0 and 1"):
        ragmetrics.metrics.reference.err_at_k(["a"], {"a": 1}, chances=((1, float(chance)),))


def test_a_negative_gain_takes_ndcg_below_0_and_compare_allows_it():
    # trec_eval's gain maps may give a grade a negative gain: nDCG falls below 0 (here
    # the doc of gain -3 first, the doc of gain 1 second: (-3 + 1/log2 3) / 1). The
    # bounds of the spec say so, and compare's intervals take such values.
    value = quiet_evaluate({"q": ["b", "a"]}, {"q": {"a": 1, "b": 2}},
                           ["ndcg(2=-3)"]).per_query.loc["q", "ndcg(2=-3)"]
    assert value == pytest.approx(-3 + 1 / math.log2(3), abs=1e-15)
    assert parse_metric("ndcg(2=-3)").bounds == (-math.inf, 1.0)
    assert parse_metric("ndcg(2=3)").bounds == (0.0, 1.0)
    runs = {"a": {f"q{i}": ["b", "a"] for i in range(6)},
            "b": {f"q{i}": ["a", "b"] if i % 2 else ["b", "a"] for i in range(6)}}
    qrels = {f"q{i}": {"a": 1, "b": 2} for i in range(6)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        result = ragmetrics.compare(runs, qrels, ["ndcg(2=-3)"], n_resamples=200)
    assert result.summary.loc[("ndcg(2=-3)", "a"), "mean"] == pytest.approx(value, abs=1e-15)


def test_err_refuses_a_grade_above_max_grade():
    with pytest.raises(ValueError, match=r"grade of 2 is above max_grade=1"):
        ragmetrics.evaluate({"q": ["a"]}, {"q": {"a": 2}}, ["err(max_grade=1)"])
    # ties="average" has a closed form for ERR (tests/unit/metrics/test_ties.py): a doc alone is exact
    assert ragmetrics.evaluate({"q": {"a": 1.0}}, {"q": {"a": 1}}, ["err@5"],
                               ties="average").per_query.loc["q", "err@5"] == 0.5


# -- RBP and its residual ----------------------------------------------------------------


@pytest.mark.parametrize("p", [0.5, 0.8, 0.9, 0.95])
@pytest.mark.parametrize("n", [1, 3, 8, 20])
def test_the_rbp_residual_of_a_ranking_all_unjudged_is_exactly_1(p, n):
    # (1 - p)(1 + p + ... + p^(n-1)) + p^n = 1; the float sum gave 1.0000000000000002 for
    # 8 docs at p = 0.8, past the metric's bound (compare then called it a bug).
    ranking = [f"u{i}" for i in range(n)]
    value = quiet_evaluate({"q": ranking}, {"q": {"z": 1}}, [f"rbp_resid(p={p})"]).per_query
    assert value.iloc[0, 0] <= 1.0
    assert value.iloc[0, 0] == pytest.approx(1.0, abs=1e-15)
    assert ragmetrics.metrics.reference.rbp_residual(ranking, {"z": 1}, p=p) <= 1.0


def test_rbp_and_its_residual_by_hand():
    # p = 0.5; a relevant (grade 1) at rank 1, x unjudged at rank 2, n judged 0 at rank 3.
    # RBP = (1 - p) (1 + 0 + 0) = 0.5. Residual: the unjudged x could add (1 - p) p = 0.25,
    # and everything past rank 3 p^3 = 0.125 (trec_eval 10 prints 0.5000 and 0.3750).
    run, qrels = {"q": ["a", "x", "n"]}, {"q": {"a": 1, "n": 0}}
    row = quiet_evaluate(run, qrels, ["rbp(p=0.5)", "rbp_resid(p=0.5)",
                                      "rbp(p=0.5)@1"]).per_query.loc["q"]
    assert row["rbp(p=0.5)"] == pytest.approx(0.5, abs=1e-15)
    assert row["rbp_resid(p=0.5)"] == pytest.approx(0.25 + 0.125, abs=1e-15)
    assert row["rbp(p=0.5)@1"] == pytest.approx(0.5, abs=1e-15)


@settings(max_examples=100, deadline=None)
@given(query=one_query(), p=st.sampled_from([0.5, 0.8, 0.9, 0.95]))
def test_rbp_and_its_residual_are_at_least_0_and_add_up_to_at_most_1(query, p):
    ranking, grades = query
    row = quiet_evaluate({"q": ranking}, {"q": grades},
                         [f"rbp(p={p})", f"rbp_resid(p={p})"]).per_query.loc["q"]
    assert row[f"rbp(p={p})"] >= 0.0
    assert row[f"rbp_resid(p={p})"] >= 0.0
    assert row[f"rbp(p={p})"] + row[f"rbp_resid(p={p})"] <= 1.0 + 1e-12


# -- Judged@k ----------------------------------------------------------------------------


def test_judged_at_k_by_hand_and_where_it_parts_from_trec_evals_unj():
    # Top 4: a (judged 1), x (unjudged), n (judged 0), m (judged -1). Judged@k (as in
    # ir_measures) counts every judgment: a, n, m. trec_eval's unj counts a doc judged -1
    # as unjudged (its code for "not judged"): x and m (trec_eval 10 prints 0.5000).
    run, qrels = {"q": ["a", "x", "n", "m", "y"]}, {"q": {"a": 1, "n": 0, "m": -1}}
    row = quiet_evaluate(run, qrels, ["judged@4", "unj@4", "judged@10", "unj@10"]
                         ).per_query.loc["q"]
    assert row["judged@4"] == 3 / 4
    assert row["unj@4"] == 2 / 4
    # Past the ranking's end: an empty slot is not judged for Judged@k, and not unjudged
    # for unj (trec_eval divides by k): 3 of 10, and x, m, y of 10.
    assert row["judged@10"] == 3 / 10
    assert row["unj@10"] == 3 / 10


# -- DCG: the log base, gain maps, dcg@k by name -----------------------------------------


def test_dcg_at_k_is_a_metric_name_and_the_base_is_an_option():
    assert str(parse_metric("dcg@10")) == "dcg@10"
    assert parse_metric("dcg(base=10)@5").arguments["base"] == 10.0
    run, qrels = {"q": ["x", "a", "b"]}, {"q": {"a": 3, "b": 1}}
    row = quiet_evaluate(run, qrels, ["dcg@3", "dcg(base=10)@3", "ndcg@3",
                                      "ndcg(base=10)@3"]).per_query.loc["q"]
    assert row["dcg@3"] == pytest.approx(3 / math.log2(3) + 1 / 2, abs=1e-14)
    assert row["dcg(base=10)@3"] == pytest.approx(3 / math.log10(3) + 1 / math.log10(4),
                                                  abs=1e-14)
    assert row["ndcg(base=10)@3"] == pytest.approx(row["ndcg@3"], abs=1e-14)


@pytest.mark.parametrize("base", ["1", "0.5", "0", "-2"])
def test_a_base_of_1_or_below_is_refused_by_name(base):
    # log_1 divides every gain by 0 (nDCG would print 0); below 1 the discounts are
    # negative. Refused, in the name and in the per-query functions.
    with pytest.raises(ragmetrics.InputValueError, match=r"base.*above 1"):
        quiet_evaluate({"q": ["a"]}, {"q": {"a": 1}}, [f"ndcg(base={base})@3"])
    with pytest.raises(ragmetrics.InputValueError, match="above 1"):
        ragmetrics.ndcg_at_k(["a"], {"a": 1}, 3, base=float(base))
    with pytest.raises(ragmetrics.InputValueError, match="above 1"):
        ragmetrics.dcg_at_k(["a"], {"a": 1}, 3, base=float(base))
    with pytest.raises(TypeError, match="above 1"):
        ragmetrics.dcg_at_k(["a"], {"a": 1}, 3, base=True)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(query=one_query(), base=st.sampled_from([3.0, 10.0, math.e]))
def test_a_base_scales_dcg_by_log_2_base_and_cancels_out_of_ndcg(query, base):
    ranking, grades = query
    names = ["dcg@5", f"dcg(base={base})@5", "ndcg", f"ndcg(base={base})"]
    row = quiet_evaluate({"q": ranking}, {"q": grades}, names).per_query.loc["q"]
    assert row[names[1]] == pytest.approx(row["dcg@5"] * math.log2(base), rel=1e-12, abs=1e-12)
    assert row[names[3]] == pytest.approx(row["ndcg"], rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("metric", ["ndcg(1=1e308)", "dcg(1=1e308)@4", "ndcg_rel(1=1e308)",
                                    "g(1=1e308)", "rndcg(1=1e308)"])
def test_a_gain_map_whose_gains_overflow_is_refused(metric):
    # Four docs of gain 1e308 sum past the largest float: DCG inf, nDCG NaN (was a crash
    # as "a bug" for ndcg, a silent inf for dcg and a silent 0 for ndcg_rel).
    run, qrels = {"q": ["a", "b", "c", "d"]}, {"q": dict.fromkeys("abcd", 1)}
    with pytest.raises(ragmetrics.InputValueError, match=r"gain map \(1=1e\+308\)"):
        quiet_evaluate(run, qrels, [metric])
    with pytest.raises(ragmetrics.InputValueError, match="past the largest float"):
        ragmetrics.ndcg_at_k(list("abcd"), qrels["q"], gains=((1, 1e308),))
    # Large gains that fit are fine: nDCG does not depend on their scale.
    row = quiet_evaluate(run, qrels, ["ndcg(1=1e300)"]).per_query.loc["q"]
    assert row["ndcg(1=1e300)"] == 1.0


def test_a_recall_level_above_1_is_refused():
    with pytest.raises(ragmetrics.InputValueError, match=r"recall level \(0 to 1\)"):
        parse_metric("iprec_at_recall@1.5")
    assert parse_metric("iprec_at_recall@1").k == 1.0


def test_a_gain_map_for_ndcg_by_hand():
    # Grades a=1, b=2; the map gives grade 2 a gain of 9, grade 1 keeps 1. Ranking a, b:
    # DCG = 1 + 9 / log2(3); the ideal puts b first: 9 + 1 / log2(3).
    row = quiet_evaluate({"q": ["a", "b"]}, {"q": {"a": 1, "b": 2}},
                         ["ndcg(2=9)", "ndcg"]).per_query.loc["q"]
    lg3 = math.log2(3)
    assert row["ndcg(2=9)"] == pytest.approx((1 + 9 / lg3) / (9 + 1 / lg3), abs=1e-15)
    assert row["ndcg"] == pytest.approx((1 + 2 / lg3) / (2 + 1 / lg3), abs=1e-15)


# -- summaries beyond the mean -----------------------------------------------------------


def test_summary_is_the_mean_and_aggregate_gives_median_std_and_geometric_mean():
    run = {"q1": ["a"], "q2": ["x", "b"], "q3": ["y", "z", "w", "c"], "q4": ["v"]}
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}, "q4": {"d": 1}}
    result = quiet_evaluate(run, qrels, ["rr", "num_rel"])
    rr = np.array([1.0, 0.5, 0.25, 0.0])
    assert result.summary["rr"] == pytest.approx(rr.mean(), abs=1e-15)
    assert result.aggregate()["rr"] == result.summary["rr"]
    assert result.aggregate("median")["rr"] == pytest.approx(0.375, abs=1e-15)
    assert result.aggregate("std")["rr"] == pytest.approx(rr.std(ddof=1), abs=1e-15)
    # The geometric mean floors each value at 1e-5 (trec_eval's gm_map), so q4's 0 counts.
    gmean = math.exp(np.log(np.maximum(rr, 1e-5)).mean())
    assert result.aggregate("gmean")["rr"] == pytest.approx(gmean, rel=1e-12)
    assert result.aggregate("sum")["num_rel"] == 4
    assert result.aggregate("min")["rr"] == 0.0
    assert result.aggregate("max")["rr"] == 1.0
    with pytest.raises(ValueError, match=r"statistic must be one of .*; got 'mode'"):
        result.aggregate("mode")


def test_rbp_and_its_residual_are_trec_eval_s_floats_to_the_last_bit():
    """trec_eval makes p^i by multiplying by p at each rank; p ** i rounds differently in
    the last bit, which a mean printed to 4 decimals can show (0.41355 -> 0.4135 or
    0.4136). The weights are its products, so the values are == its loops'."""
    rng = np.random.default_rng(3)
    docs = [f"d{i}" for i in range(40)]
    grades = {d: int(g) for d, g in zip(docs, rng.integers(-1, 3, 40), strict=True)
              if rng.random() < 0.6}
    run = {"q": {d: 40.0 - i for i, d in enumerate(docs)}}
    for p in (0.9, 0.8, 0.95):
        got = ragmetrics.evaluate(run, {"q": grades}, [f"rbp(p={p})", f"rbp_resid(p={p})"])
        rbp_sum, resid_sum, cur_p = 0.0, 0.0, 1.0
        for doc in docs:  # m_rbp.c and m_rbp_resid.c, line for line
            grade = grades.get(doc, -1)
            if grade < 0:
                resid_sum += cur_p
            elif grade > 0:
                rbp_sum += (grade / 2) * cur_p  # gains 0..2 scaled to [0, 1]
            cur_p = cur_p * p
        row = got.per_query.loc["q"]
        assert row[f"rbp(p={p})"] == (1 - p) * rbp_sum
        assert row[f"rbp_resid(p={p})"] == cur_p + (1 - p) * resid_sum
