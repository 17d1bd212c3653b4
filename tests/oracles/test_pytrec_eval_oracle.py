"""Differential tests: ragmetrics against pytrec_eval (trec_eval's C code) on random data.

Hypothesis draws whole collections: graded qrels (grades -1..3, queries with no relevant
doc, relevant docs never retrieved) and runs (string doc ids, few distinct scores so that
ties are everywhere, queries missing from the run, run queries without judgments, runs
shorter than k). Every per-query number must equal pytrec_eval's to 1e-12. The first
tests ask for the article's measures; ``test_every_measure_pytrec_eval_offers_matches``
asks for all 34 that pytrec_eval supports, grades -1..4 (see the notes above it).

pytrec_eval's quirks, each met while writing these tests:

- It scores only queries that are both in the run and in the qrels. ragmetrics also scores
  judged queries absent from the run (0, and listed in ``missing_from_run``: trec_eval's
  ``-c``), so the comparison is on pytrec_eval's queries and the rest is checked apart.
- A query whose judgments are an empty dict does not exist for it (trec_eval reads lines,
  and there are none). ragmetrics scores it as a judged query with an empty golden set
  (0 under ``empty_relevant="zero"``, and listed in ``empty_relevant``).
- A query in the run with an empty dict of docs *is* scored (all zeros). ragmetrics agrees:
  the query is in the run, with an empty ranking, so it is not ``missing_from_run``.
- It stores scores as 32-bit floats (the older trec_eval it bundles reads them so; current
  trec_eval reads doubles, after usnistgov/trec_eval#34), so scores that differ by less
  than a float32 ulp tie. ragmetrics compares float64 scores, as current trec_eval does;
  the generator below draws scores exact in float32 so that both sides see the same ties.
- Its uncut ``ndcg`` (pytrec-eval-terrier 0.5.11) now and then never returns: after a few
  dozen to a few hundred evaluations in one process, one call spins forever, at a different
  call on each run (state left behind by earlier calls; cf. cvangysel/pytrec_eval#57). Every
  other measure used here ran thousands of evaluations without it. So uncut nDCG is asked of it as
  ``ndcg_cut`` at a depth no ranking or judgment list reaches, which is the same number:
  both the DCG and the ideal DCG then sum every doc. (``ndcg`` itself is checked against
  trec_eval's printed output in test_trec_conformance.py.)
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragmetrics
from ragmetrics import RagmetricsWarning

pytrec_eval = pytest.importorskip("pytrec_eval")

TOLERANCE = 1e-12

QUERY_IDS = ["q0", "q1", "q2", "q3", "q4", "q10"]
# String order differs from number order ("d10" < "d2"), capitals sort first and "dé"
# sorts after "dz": trec_eval breaks ties by doc id descending in byte order.
DOC_IDS = ["d0", "d1", "d2", "d3", "d4", "d5", "d9", "d10", "d11", "d20", "D3", "dz", "dé"]
GRADES = [-1, 0, 0, 1, 1, 2, 3]
# Few distinct values, so most rankings have ties; all exact in float32 (see above).
SCORES = [-1.0, 0.0, 0.25, 0.5, 0.5, 1.0, 1.0, 3.5]

# trec_eval measure name -> ragmetrics metric name, "{k}" standing for a cut-off.
CUT_MEASURES = {
    "P": "precision@{k}",
    "recall": "recall@{k}",
    "ndcg_cut": "ndcg@{k}",
    "success": "hit_rate@{k}",
    "map_cut": "map@{k}",
}
UNCUT_MEASURES = {"recip_rank": "mrr", "map": "map", "Rprec": "r_precision"}
# Uncut nDCG, asked as ndcg_cut at a depth beyond every ranking and judgment list (see above).
NDCG_UNCUT_DEPTH = 1000
assert len(DOC_IDS) < NDCG_UNCUT_DEPTH


@st.composite
def collections(draw):
    """(qrels, run, cut-offs) in pytrec_eval's dict-of-dicts shape."""
    judged = draw(st.lists(st.sampled_from(QUERY_IDS), min_size=1, max_size=5, unique=True))
    qrels = {
        q: draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(GRADES), max_size=9))
        for q in judged
    }
    ran = draw(st.lists(st.sampled_from([*QUERY_IDS, "unjudged"]), max_size=6, unique=True))
    run = {
        q: draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(SCORES), max_size=12))
        for q in ran
    }
    cut_offs = draw(st.lists(st.integers(1, 30), min_size=1, max_size=4, unique=True))
    return qrels, run, sorted(cut_offs)


def measure_names(cut_offs):
    """``{pytrec_eval measure: ragmetrics metric}`` for the given cut-offs."""
    names = {
        f"{measure}_{k}": metric.format(k=k)
        for measure, metric in CUT_MEASURES.items()
        for k in cut_offs
    }
    return names | UNCUT_MEASURES | {f"ndcg_cut_{NDCG_UNCUT_DEPTH}": "ndcg"}


def pytrec_scores(qrels, run, cut_offs, level):
    params = ",".join(map(str, cut_offs))
    requested = {f"{measure}.{params}" for measure in CUT_MEASURES} | set(UNCUT_MEASURES)
    requested = (requested - {f"ndcg_cut.{params}"}) | {f"ndcg_cut.{params},{NDCG_UNCUT_DEPTH}"}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, requested, relevance_level=level)
    return evaluator.evaluate(run)


def ragmetrics_evaluation(qrels, run, metrics, level):
    with warnings.catch_warnings():
        # Coverage gaps are drawn on purpose; they are checked through the attributes.
        warnings.simplefilter("ignore", RagmetricsWarning)  # coverage, empty golden sets
        return ragmetrics.evaluate(run, qrels, metrics, relevance_level=level)


def trec_order(scores: dict) -> list:
    """Doc ids by score descending, ties by doc id descending (trec_eval's order)."""
    return sorted(scores, key=lambda doc: (scores[doc], doc), reverse=True)


def mismatches(expected: dict, got, names: dict) -> list[str]:
    return [
        f"{measure} ({metric}): pytrec_eval {expected[measure]!r}, "
        f"ragmetrics {float(got(metric))!r}"
        for measure, metric in names.items()
        if not abs(got(metric) - expected[measure]) <= TOLERANCE
    ]


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collection=collections())
def test_evaluate_matches_pytrec_eval(collection, level):
    qrels, run, cut_offs = collection
    names = measure_names(cut_offs)
    expected = pytrec_scores(qrels, run, cut_offs, level)
    result = ragmetrics_evaluation(qrels, run, list(dict.fromkeys(names.values())), level)
    per_query = result.per_query

    judged = set(qrels)
    assert set(per_query.index) == judged
    # pytrec_eval: queries in both, an empty ranking included, an empty judgment dict not.
    assert set(expected) == {q for q in judged & set(run) if qrels[q]}
    assert set(result.queries_missing_from_run) == judged - set(run)
    assert set(result.queries_missing_from_qrels) == set(run) - judged
    assert set(result.queries_without_relevant) == {
        q for q, grades in qrels.items() if not any(g >= level for g in grades.values())
    }

    for query_id, scores in expected.items():
        row = per_query.loc[query_id]
        bad = mismatches(scores, lambda metric, row=row: row[metric], names)
        assert not bad, f"query {query_id!r} at relevance_level {level}: " + "; ".join(bad)
    for query_id in judged - set(expected):  # not in the run, or judging nothing: 0
        assert (per_query.loc[query_id] == 0.0).all(), query_id


@pytest.mark.parametrize("level", [1, 2])
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collection=collections())
def test_per_query_functions_match_pytrec_eval(score_one_query, collection, level):
    qrels, run, cut_offs = collection
    names = measure_names(cut_offs)
    expected = pytrec_scores(qrels, run, cut_offs, level)
    for query_id, scores in expected.items():
        ranking, grades = trec_order(run[query_id]), qrels[query_id]

        def value(metric, ranking=ranking, grades=grades):
            return score_one_query(metric, ranking, grades, level)

        bad = mismatches(scores, value, names)
        assert not bad, f"query {query_id!r} at relevance_level {level}: " + "; ".join(bad)


def test_a_fixed_collection_matches_pytrec_eval_and_hand_computed_values():
    """One collection small enough to check by hand, so the oracle itself is checked.

    z and b tie at 2.0 and z comes first (doc id descending), then a (1.0), then c (0.5).
    Relevant at level 1: a (grade 1) and c (grade 2); e (grade -1) is never relevant.
    """
    qrels = {"q1": {"a": 1, "b": 0, "c": 2, "e": -1}}
    run = {"q1": {"a": 1.0, "b": 2.0, "z": 2.0, "c": 0.5}}
    assert trec_order(run["q1"]) == ["z", "b", "a", "c"]
    expected = pytrec_scores(qrels, run, [2, 3], level=1)["q1"]
    by_hand = {
        "P_3": 1 / 3,  # a at rank 3
        "recall_3": 1 / 2,
        "success_2": 0.0,
        "recip_rank": 1 / 3,
        "map": (1 / 3 + 2 / 4) / 2,  # a at rank 3, c at rank 4
        "Rprec": 0.0,  # top 2: z, b
        # gains a=1, c=2; ideal c, a
        f"ndcg_cut_{NDCG_UNCUT_DEPTH}": (1 / math.log2(4) + 2 / math.log2(5))
        / (2 + 1 / math.log2(3)),
        "ndcg_cut_3": (1 / math.log2(4)) / (2 + 1 / math.log2(3)),
    }
    for measure, value in by_hand.items():
        assert expected[measure] == pytest.approx(value, abs=TOLERANCE), measure
    names = measure_names([2, 3])
    result = ragmetrics_evaluation(qrels, run, list(dict.fromkeys(names.values())), 1)
    row = result.per_query.loc["q1"]
    assert not mismatches(expected, lambda metric: row[metric], names)


def test_scores_closer_than_float32_are_ranked_as_current_trec_eval_ranks_them():
    """pytrec_eval would tie 1.0 and 1.0 + 1e-12 (float32 scores) and rank "b" first by
    doc id; ragmetrics, like current trec_eval, compares doubles and ranks "a" first."""
    run = {"q1": {"b": 1.0, "a": 1.0 + 1e-12}}
    result = ragmetrics.evaluate(run, {"q1": {"a": 1}}, ["mrr"])
    assert result.per_query.loc["q1", "mrr"] == 1.0


# -- every measure pytrec_eval offers ----------------------------------------------------
# pytrec_eval.supported_measures: 34 trec_eval measures. Each is asked of it (with drawn
# parameters where it takes them) and compared per query with ragmetrics' metric of the
# same trec_eval name (parse_metric("P_5"), ...), on collections with grades -1..4, ties,
# unjudged docs and queries missing from either side. Scores are float32-exact for the
# reason above: pytrec_eval reads scores as 32-bit floats, trec_eval 10 and ragmetrics as
# doubles, and only scores exact in float32 tie alike in both.
#
# Not only uncut ndcg hangs (see the module doc): ndcg_rel and G do too, after as few as
# 4 evaluations in one process, and one early attempt here ended in a segfault. So each
# drawn example is a batch of collections, merged into one (query ids prefixed by the
# collection's number; every measure is per query, so nothing mixes), and evaluated by one
# pytrec_eval call in a fresh process, with a timeout: a hang fails the test, and says so.
#
# What is not compared number to number, and why:
# - empty rankings: a run file cannot hold one, and pytrec_eval, given one, segfaults
#   (a query judged only below 0) or returns NaN for interpolated precision (trec_eval's
#   0 / 0, where evaluate scores 0). The tests above cover empty rankings.
# - interpolated precision (iprec_at_recall, 11pt_avg) where trec_eval 10 and the older
#   trec_eval in pytrec_eval name different ranks: recall x of R relevant docs is the
#   rank of the lround(x R)-th relevant doc in trec_eval 10 (usnistgov/trec_eval 2a9e214
#   and 2d77a47), of the (long)(x R + 0.9)-th before. ragmetrics follows trec_eval 10
#   (the vendored suite and test_trec_conformance.py's recorded outputs check it), so
#   those two measures are compared on the queries whose levels the two rules agree on.
# - relstring and runid are text; pytrec_eval returns them as numbers that mean nothing
#   (0.0, or whatever was in memory). Both are checked against trec_eval's own printed
#   output in test_trec_conformance.py.
# - utility's parameters: pytrec_eval's parser drops them (``utility.2,-1,0,0`` scores
#   as plain ``utility``), so only the default prices (1, -1, 0, 0) are asked.
# - gain maps (``ndcg.1=3,2=9``) abort pytrec_eval's process (an assertion in its C++);
#   the vendored out.test.meas_params covers them.
# - gm_map and gm_bpref: pytrec_eval returns log(max(value, 1e-5)) per query (trec_eval
#   sums logs and exponentiates the mean); ragmetrics' per-query column is the value, so
#   its log is compared.
ALL_GRADES = [-1, 0, 0, 1, 1, 2, 3, 4]
PLAIN_MEASURES = ["map", "gm_map", "Rprec", "bpref", "gm_bpref", "recip_rank", "infAP",
                  "utility", "ndcg", "Rndcg", "ndcg_rel", "G", "binG", "num_q", "num_ret",
                  "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "set_P",
                  "set_relative_P", "set_recall", "set_map", "11pt_avg"]
CUT_FAMILIES = ["P", "recall", "ndcg_cut", "map_cut", "success", "relative_P"]
TEXT_MEASURES = {"relstring", "runid"}
LOG_MEASURES = {"gm_map", "gm_bpref"}  # pytrec_eval gives log(max(value, 1e-5))
PYTREC_TIMEOUT = 120  # seconds; one call takes well under one

PYTREC_CHILD = """
import json, sys
import pytrec_eval
qrels, run, measures, level = json.load(sys.stdin)
evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(measures), relevance_level=level)
json.dump(evaluator.evaluate(run), sys.stdout)
"""


@st.composite
def full_collections(draw):
    judged = draw(st.lists(st.sampled_from(QUERY_IDS), min_size=1, max_size=5, unique=True))
    qrels = {q: draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(ALL_GRADES),
                                     max_size=9))
             for q in judged}
    # A query judged only below 0: trec_eval 10 stops ("Can't calculate measure"), and
    # pytrec_eval segfaults. (Grades -1 next to others are drawn all the time.)
    qrels = {q: grades for q, grades in qrels.items()
             if not grades or max(grades.values()) >= 0}
    if not qrels:
        qrels = {judged[0]: {}}
    ran = draw(st.lists(st.sampled_from([*QUERY_IDS, "unjudged"]), max_size=6, unique=True))
    # At least one doc per ranking, as in a run file (a query with no line is not in it):
    # pytrec_eval segfaults on an empty ranking of a query judged only below 0.
    run = {q: draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(SCORES),
                                   min_size=1, max_size=12))
           for q in ran}
    return qrels, run


@st.composite
def batches(draw):
    """Collections merged into one (``"3/q1"``: q1 of the 4th), and measure parameters."""
    qrels, run = {}, {}
    for i, (one_qrels, one_run) in enumerate(draw(st.lists(full_collections(), min_size=1,
                                                           max_size=25))):
        qrels |= {f"{i}/{q}": grades for q, grades in one_qrels.items()}
        run |= {f"{i}/{q}": scores for q, scores in one_run.items()}
    params = {
        "cut_offs": sorted(draw(st.lists(st.integers(1, 15), min_size=1, max_size=3,
                                         unique=True))),
        "multiples": sorted(draw(st.lists(st.sampled_from([0.2, 0.5, 1.0, 1.5, 2.0]),
                                          min_size=1, max_size=2, unique=True))),
        "recalls": sorted(draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.7, 1.0]),
                                        min_size=1, max_size=3, unique=True))),
        "beta": draw(st.sampled_from([1.0, 0.5, 2.0])),
    }
    return qrels, run, params


def every_measure_request(params) -> list[str]:
    """pytrec_eval's request strings: every measure it supports, once each."""
    cuts = ",".join(map(str, params["cut_offs"]))
    requested = [f"{family}.{cuts}" for family in CUT_FAMILIES] + PLAIN_MEASURES + [
        "Rprec_mult." + ",".join(map(str, params["multiples"])),
        "iprec_at_recall." + ",".join(map(str, params["recalls"])),
        f"set_F.{params['beta']}",
    ]
    families = {name.split(".")[0] for name in requested} | TEXT_MEASURES
    assert families == set(pytrec_eval.supported_measures), "a measure is left out"
    return requested


def pytrec_in_child(qrels, run, measures, level) -> dict:
    request = json.dumps([qrels, run, measures, level])
    try:
        done = subprocess.run([sys.executable, "-c", PYTREC_CHILD], input=request, check=False,
                              capture_output=True, text=True, timeout=PYTREC_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pytrec_eval did not return in {PYTREC_TIMEOUT} s (its ndcg hang)")
    assert done.returncode == 0, f"pytrec_eval's process failed: {done.stderr[-2000:]}"
    return json.loads(done.stdout)


def rules_agree(levels, num_rel: int) -> bool:
    """trec_eval 10's lround(x R) and trec_eval 9's (long)(x R + 0.9), at every level."""
    return all(int(x * num_rel + 0.9) == math.floor(x * num_rel + 0.5) for x in levels)


ELEVEN_POINTS = [i / 10 for i in range(11)]


def ragmetrics_name(key: str, params) -> str:
    """The ragmetrics metric for a key of pytrec_eval's output (a trec_eval name)."""
    if key == "set_F":
        return f"set_f(beta={params['beta']})"
    return str(ragmetrics.parse_metric(key))


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=batches())
def test_every_measure_pytrec_eval_offers_matches(batch, level):
    qrels, run, params = batch
    expected = pytrec_in_child(qrels, run, every_measure_request(params), level)
    if not expected:
        return  # no query both judged and run: nothing for pytrec_eval to score
    keys = sorted(next(iter(expected.values())))
    names = {key: ragmetrics_name(key, params) for key in keys}
    result = ragmetrics_evaluation(qrels, run, list(dict.fromkeys(names.values())), level)
    bad = []
    for query_id, scores in expected.items():
        row = result.per_query.loc[query_id]
        num_rel = int(row[names["num_rel"]])
        for key in keys:
            if key.startswith("iprec_at_recall") and not rules_agree(params["recalls"], num_rel):
                continue
            if key == "11pt_avg" and not rules_agree(ELEVEN_POINTS, num_rel):
                continue
            got = float(row[names[key]])
            if key in LOG_MEASURES:
                got = math.log(max(got, 1e-5))
            if not abs(got - scores[key]) <= TOLERANCE * max(1.0, abs(scores[key])):
                bad.append(f"{query_id} {key} ({names[key]}): pytrec_eval {scores[key]!r}, "
                           f"ragmetrics {got!r}; judgments {qrels[query_id]}, "
                           f"run {run[query_id]}")
    assert not bad, f"relevance_level {level}: " + "; ".join(bad[:6])
