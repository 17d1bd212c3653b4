"""Presets: each one reproduces its tool's numbers, on data where the tools disagree.

Every preset is checked against the tool itself where it installs here (pytrec_eval for
trec_eval's rules, ir_measures, MS MARCO's script as ir_measures ships it), against its
rules applied by hand through pytrec_eval (BEIR's ``EvaluateRetrieval.evaluate``: its
code needs torch to import, so the real function runs only where beir is importable), and
against the documented example where the tool is not installed (Spark's RankingMetrics).

The data are built to tell the rules apart: tied scores and scores closer than a float32
ulp, a query missing from the run, a query of the run without judgments, a query with no
relevant doc, a doc whose id is its query's, relevant docs never retrieved.
"""

from __future__ import annotations

import io
import math
import random
import re
import warnings

import pandas as pd
import pytest

from ragmetrics import CoverageWarning, EmptyRelevantWarning, RagmetricsWarning, compare, evaluate
from ragmetrics.conventions import CONVENTIONS, Conventions
from ragmetrics.errors import InputValueError
from ragmetrics.presets import PRESETS, presets_markdown
from ragmetrics.reports import convention_card

pytrec_eval = pytest.importorskip("pytrec_eval")

TOLERANCE = 1e-12


def collection(seed: int, n_queries: int = 40):
    """Graded qrels and a scored run (dict of dicts) that exercise every rule."""
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(25)]
    qrels, run = {}, {}
    for i in range(n_queries):
        q = f"q{i}"
        judged = rng.sample(docs, rng.randint(1, 8))
        qrels[q] = {d: rng.choice([0, 1, 1, 2, 3]) for d in judged}
        if i % 11 == 3:
            qrels[q] = dict.fromkeys(judged, 0)  # no relevant doc
        if i % 13 == 5:
            continue  # judged, missing from the run
        ranked = rng.sample(docs, rng.randint(3, 20))
        scores = {}
        for rank, d in enumerate(ranked):
            base = float(rng.choice([5, 4, 4, 3, 2, 2, 1, 0.5]))  # ties everywhere
            # Closer than a float32 ulp at 1.0: pytrec_eval ties them, float64 does not.
            scores[d] = base + (1e-9 * rank if rank % 4 == 1 else 0.0)
        if i % 7 == 2:
            scores[q] = 9.0  # the query's own id, on top (BEIR drops it)
        run[q] = scores
    run["unjudged"] = {"d1": 1.0}
    return qrels, run


def pytrec(qrels, run, measures, *, relevance_level=1):
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(measures), relevance_level=relevance_level)
    return evaluator.evaluate(run)


def quiet_evaluate(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        return evaluate(*args, **kwargs)


CUT = {"P": "precision@{k}", "recall": "recall@{k}", "ndcg_cut": "ndcg@{k}",
       "map_cut": "map@{k}", "success": "hit_rate@{k}"}
KS = (1, 3, 5, 10, 100)


def trec_names(k_values=KS):
    measures = {f"{m}.{','.join(map(str, k_values))}" for m in CUT} | {"recip_rank", "Rprec"}
    names = {f"{m}_{k}": CUT[m].format(k=k) for m in CUT for k in k_values}
    return measures, names | {"recip_rank": "rr", "Rprec": "r_precision"}


# -- trec_eval, with and without -c ------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_trec_eval_presets_equal_pytrec_eval(seed):
    qrels, run = collection(seed)
    # Scores exact in float32, as the pytrec_eval oracle draws them (it reads float32).
    run = {q: {d: float(round(s)) for d, s in docs.items() if d != q} for q, docs in run.items()}
    measures, names = trec_names()
    oracle = pytrec(qrels, run, measures)
    with_c = quiet_evaluate(run, qrels, list(names.values()), preset="trec_eval")
    without_c = quiet_evaluate(run, qrels, list(names.values()), preset="trec_eval_no_c")
    default = quiet_evaluate(run, qrels, list(names.values()))
    pd.testing.assert_frame_equal(with_c.per_query, default.per_query)
    assert with_c.conventions == Conventions()
    missing = [q for q in qrels if q not in run]
    assert missing
    # Without -c: pytrec_eval's queries, its means.
    assert sorted(without_c.per_query.index) == sorted(oracle)
    for measure, name in names.items():
        expected = [oracle[q][measure] for q in without_c.per_query.index]
        assert without_c.per_query[name].tolist() == pytest.approx(expected, abs=TOLERANCE)
        mean_no_c = sum(expected) / len(expected)
        assert without_c.summary[name] == pytest.approx(mean_no_c, abs=TOLERANCE)
        # With -c: the missing queries score 0 and count.
        assert with_c.summary[name] == pytest.approx(sum(expected) / len(qrels), abs=TOLERANCE)
        assert (with_c.per_query.loc[missing, name] == 0).all()


# -- BEIR ----------------------------------------------------------------------------------


def beir_evaluate(qrels, results, k_values):
    """BEIR's EvaluateRetrieval.evaluate, by its rules (beir 2.2.0): drop each retrieved
    doc whose id is its query's; pytrec_eval's ndcg_cut, map_cut, recall and P; each mean
    over the queries pytrec_eval scores; rounded to 5 decimals (returned unrounded too)."""
    results = {q: {d: s for d, s in docs.items() if d != q} for q, docs in results.items()}
    ks = ",".join(map(str, k_values))
    scores = pytrec(qrels, results, {f"ndcg_cut.{ks}", f"map_cut.{ks}", f"recall.{ks}",
                                     f"P.{ks}"})
    means = {}
    for k in k_values:
        for label, measure in (("NDCG", "ndcg_cut"), ("MAP", "map_cut"), ("Recall", "recall"),
                               ("P", "P")):
            means[f"{label}@{k}"] = sum(s[f"{measure}_{k}"] for s in scores.values()) / len(scores)
    return means, scores


BEIR_NAMES = {"NDCG": "ndcg@{k}", "MAP": "map@{k}", "Recall": "recall@{k}", "P": "precision@{k}"}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_beir_preset_equals_beirs_rules(seed):
    qrels, run = collection(seed)
    k_values = [1, 3, 5, 10, 100, 1000]
    expected, per_query = beir_evaluate(qrels, run, k_values)
    names = [f.format(k=k) for k in k_values for f in BEIR_NAMES.values()]
    result = quiet_evaluate(run, qrels, names, preset="beir")
    assert result.preset == "beir"
    assert sorted(result.per_query.index) == sorted(per_query)
    for k in k_values:
        for label, name in BEIR_NAMES.items():
            got = result.summary[name.format(k=k)]
            assert got == pytest.approx(expected[f"{label}@{k}"], abs=TOLERANCE)
    # Each rule matters on this data: the defaults give other numbers.
    plain = quiet_evaluate(run, qrels, ["ndcg@10"])
    assert plain.summary["ndcg@10"] != pytest.approx(expected["NDCG@10"], abs=1e-6)


def test_beir_preset_on_the_self_id_example_of_beir_issue_187():
    """A perfect run of ten docs that also returns the query's own id first: BEIR drops
    it, so recall@10 counts nine of the ten relevant docs (beir issue 187)."""
    relevant = {f"d{i}": 1 for i in range(10)}
    run = {"q1": {"q1": 11.0} | {f"d{i}": 10.0 - i for i in range(10)}}
    qrels = {"q1": relevant | {"q1": 0}}
    beir = evaluate(run, qrels, ["recall@10", "ndcg@10"], preset="beir")
    plain = evaluate(run, qrels, ["recall@10", "ndcg@10"])
    assert beir.summary["recall@10"] == 1.0
    assert plain.summary["recall@10"] == 0.9
    expected, _ = beir_evaluate(qrels, run, [10])
    assert beir.summary["recall@10"] == expected["Recall@10"]
    assert beir.summary["ndcg@10"] == pytest.approx(expected["NDCG@10"], abs=TOLERANCE)
    # The caller's run is not changed (BEIR pops the ids in place).
    assert "q1" in run["q1"]


def test_beir_preset_equals_beir_itself_where_it_imports():
    evaluation = pytest.importorskip("beir.retrieval.evaluation")
    qrels, run = collection(4)
    k_values = [1, 3, 5, 10, 100]
    ndcg, _map, recall, precision = evaluation.EvaluateRetrieval.evaluate(
        qrels, {q: dict(d) for q, d in run.items()}, k_values)
    result = quiet_evaluate(run, qrels, [f.format(k=k) for k in k_values
                                         for f in BEIR_NAMES.values()], preset="beir")
    for table, label in ((ndcg, "NDCG"), (_map, "MAP"), (recall, "Recall"), (precision, "P")):
        for k in k_values:
            assert round(result.summary[BEIR_NAMES[label].format(k=k)], 5) == \
                table[f"{label}@{k}"]


# -- ir_measures ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ir_measures_preset_equals_ir_measures(seed):
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, RR, P, R, Rprec, Success, nDCG

    qrels, run = collection(seed)
    measures = {P @ 5: "precision@5", R @ 10: "recall@10", nDCG @ 10: "ndcg@10",
                nDCG @ 3: "ndcg@3", AP: "ap", AP @ 5: "ap@5", RR: "rr", RR @ 10: "rr@10",
                RR @ 3: "rr@3", Success @ 5: "hit_rate@5", Rprec: "r_precision"}
    oracle = {}
    for m in ir_measures.iter_calc(list(measures), qrels, run):
        oracle.setdefault(measures[m.measure], {})[m.query_id] = m.value
    aggregate = ir_measures.calc_aggregate(list(measures), qrels, run)
    result = quiet_evaluate(run, qrels, list(measures.values()), preset="ir_measures")
    for measure, name in measures.items():
        got = result.per_query[name]
        for query, value in oracle[name].items():
            assert got[query] == pytest.approx(value, abs=TOLERANCE), (name, query)
        # ir_measures scores a missing query 0 and counts it: so does the preset.
        assert result.summary[name] == pytest.approx(aggregate[measure], abs=TOLERANCE), name
    # Its RR@k and its RR order ties differently; the preset follows both.
    tie_run, tie_qrels = {"q": {"a": 1.0, "x": 1.0}}, {"q": {"a": 1}}
    preset = evaluate(tie_run, tie_qrels, ["rr@10", "rr"], preset="ir_measures").summary
    tool = ir_measures.calc_aggregate([RR @ 10, RR], tie_qrels, tie_run)
    assert (preset["rr@10"], preset["rr"]) == (tool[RR @ 10], tool[RR]) == (1.0, 0.5)


# -- MS MARCO ------------------------------------------------------------------------------


def msmarco_mrr_at_10(reference_lines: list[str], candidate_lines: list[str]) -> float:
    """MS MARCO's official MRR @10: the script's own loaders and per-query loop (as
    ir_measures ships them), and its original mean over every reference query."""
    script = pytest.importorskip("ir_measures.bin.msmarco_eval")
    reference = script.load_reference_from_stream(io.StringIO("\n".join(reference_lines)))
    candidates = script.load_candidate_from_stream(io.StringIO("\n".join(candidate_lines)))
    allowed, message = script.quality_checks_qids(reference, candidates)
    assert allowed, message
    by_query = script.compute_metrics(reference, candidates, max_rank=10)["MRR @10 by query"]
    return sum(by_query.values()) / len(reference)


def test_msmarco_preset_equals_the_official_script():
    rng = random.Random(7)
    qrels_rows, run_rows = [], []
    for q in range(1, 60):
        relevant = rng.sample(range(1, 200), rng.randint(1, 3))
        qrels_rows += [(q, pid, 1) for pid in relevant]
        if q % 9 == 0:
            continue  # not ranked: counts 0 in the mean
        pool = rng.sample(range(1, 200), 30) + relevant[: rng.randint(0, 1)]
        ranked = list(dict.fromkeys(pool))
        rng.shuffle(ranked)
        for rank, pid in enumerate(ranked, start=1):
            # The score disagrees with the rank: the script reads the rank only.
            run_rows.append((q, pid, rank, rng.random()))
    run_rows.append((999, 5, 1, 1.0))  # a query without judgments: ignored
    reference = [f"{q}\t0\t{pid}\t{grade}" for q, pid, grade in qrels_rows]
    candidate = [f"{q}\t{pid}\t{rank}" for q, pid, rank, _ in run_rows]
    expected = msmarco_mrr_at_10(reference, candidate)

    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "rank", "score"])
    result = quiet_evaluate(run, qrels, ["mrr@10"], preset="msmarco")
    assert result.summary["mrr@10"] == pytest.approx(expected, abs=TOLERANCE)
    assert result.conventions.order_by == "rank_position"
    # By score (the default), the number differs: the preset is what reproduces it.
    assert quiet_evaluate(run, qrels, ["mrr@10"]).summary["mrr@10"] != pytest.approx(expected)
    # The script refuses a passage ranked twice for a query; so does the preset.
    twice = pd.concat([run, run.iloc[[0]].assign(rank=5)], ignore_index=True)
    with pytest.raises(InputValueError, match="more than once"):
        quiet_evaluate(twice, qrels, ["mrr@10"], preset="msmarco")


def script_mrr_at_10(reference: dict, candidate_lines: list[tuple]) -> dict:
    """MS MARCO's MRR @10 by query, as the official script computes it: a faithful copy
    of the rule of microsoft/MSMARCO-Passage-Ranking ms_marco_eval.py
    (``load_candidate_from_stream``: ``tmp = [0] * 1000`` per query, then
    ``qid_to_ranked_candidate_passages[qid][rank-1] = pid`` for each line, in file order;
    ``compute_metrics``: ``for i in range(0, MaxMRRRank): if candidate_pid[i] in
    target_pid: MRR += 1/(i + 1); break``, over the queries of the run that are in the
    reference; the mean divides by ``len(qids_to_relevant_passageids)``)."""
    lists: dict = {}
    for qid, pid, rank in candidate_lines:
        if qid not in lists:
            lists[qid] = [0] * 1000
        lists[qid][rank - 1] = pid  # Python's index: rank 0 is the last position
    by_query = {}
    for qid, candidate_pid in lists.items():
        if qid in reference:
            by_query[qid] = 0.0
            for i in range(10):
                if candidate_pid[i] in reference[qid]:
                    by_query[qid] = 1 / (i + 1)
                    break
    return by_query


def test_msmarco_preset_places_each_passage_at_list_position_rank_minus_1():
    # Ranks that are not 1..n: gaps, ranks from 0, a rank repeated (the later line takes
    # the position), negative ranks (from the end of the list of 1000), ranks past 10.
    rng = random.Random(23)
    reference, qrels_rows, lines = {}, [], []
    for q in range(1, 120):
        relevant = rng.sample(range(1, 60), rng.randint(1, 3))
        reference[q] = relevant
        qrels_rows += [(q, pid, 1) for pid in relevant]
        if q % 11 == 0:
            continue  # not in the run: 0 in the mean
        style = q % 5
        pids = rng.sample(range(1, 60), 12)
        if style == 0:  # ranks from 0
            ranks = list(range(12))
        elif style == 1:  # gaps
            ranks = sorted(rng.sample(range(1, 40), 12))
        elif style == 2:  # a rank repeated: the later line takes the position
            ranks = [rng.randint(1, 6) for _ in range(12)]
        elif style == 3:  # negative ranks, some landing in the first ten positions
            ranks = rng.sample(list(range(-999, -985)) + list(range(1, 15)), 12)
        else:  # 1..n, shuffled lines
            ranks = list(range(1, 13))
            rng.shuffle(ranks)
        lines += [(q, pid, rank) for pid, rank in zip(pids, ranks, strict=True)]
    expected = script_mrr_at_10(reference, lines)
    assert len({round(v, 6) for v in expected.values()}) > 5  # varied cases
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(lines, columns=["query_id", "doc_id", "rank"])
    result = quiet_evaluate(run, qrels, ["mrr@10"], preset="msmarco")
    for q, value in expected.items():
        assert result.per_query.loc[q, "mrr@10"] == pytest.approx(value, abs=1e-15), q
    assert result.summary["mrr@10"] == pytest.approx(
        sum(expected.values()) / len(reference), abs=1e-15)
    # The issue's cases: a gap (the script: 1/3), ranks from 0 (the script: 1.0).
    one = pd.DataFrame([("q", "a", 1)], columns=["query_id", "doc_id", "relevance"])
    gap = pd.DataFrame([("q", "x", 1), ("q", "a", 3)], columns=["query_id", "doc_id", "rank"])
    from_0 = pd.DataFrame([("q", "x", 0), ("q", "a", 1)],
                          columns=["query_id", "doc_id", "rank"])
    assert quiet_evaluate(gap, one, ["mrr@10"], preset="msmarco").summary["mrr@10"] == 1 / 3
    assert quiet_evaluate(from_0, one, ["mrr@10"], preset="msmarco").summary["mrr@10"] == 1.0
    # And the script's own loader, as ir_measures ships it, agrees on these lines.
    script = pytest.importorskip("ir_measures.bin.msmarco_eval")
    text = "\n".join(f"{q}\t{pid}\t{rank}" for q, pid, rank in lines)
    candidates = script.load_candidate_from_stream(io.StringIO(text))
    shipped = script.compute_metrics(reference, candidates)["MRR @10 by query"]
    assert shipped == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("rank", [1001, -1000, 2.5])
def test_msmarco_preset_refuses_a_rank_the_script_cannot_place(rank):
    qrels = pd.DataFrame([("q", "a", 1)], columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "rank": [1, rank]})
    with pytest.raises(InputValueError, match=f"doc 'b' has rank {rank:g}"):
        quiet_evaluate(run, qrels, ["mrr@10"], preset="msmarco")


def test_msmarco_preset_empty_positions_are_retrieved_slots_with_no_doc():
    qrels = pd.DataFrame([("q", "a", 1), ("q", "b", 0)],
                         columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame([("q", "b", 2), ("q", "a", 4)], columns=["query_id", "doc_id", "rank"])
    result = quiet_evaluate(run, qrels, ["mrr@10", "precision@4", "num_ret", "ap", "ndcg@4"],
                            preset="msmarco")
    values = result.summary
    assert (values["mrr@10"], values["precision@4"], values["num_ret"]) == (0.25, 0.25, 4)
    assert values["ap"] == 0.25  # the one relevant doc at position 4
    assert values["ndcg@4"] == pytest.approx(1 / math.log2(5))
    # A run of ints (MS MARCO's pids): the placeholders are ints no doc has.
    int_qrels = pd.DataFrame([(1, 0, 1)], columns=["query_id", "doc_id", "relevance"])
    int_run = pd.DataFrame([(1, 5, 1), (1, 0, 3)], columns=["query_id", "doc_id", "rank"])
    assert quiet_evaluate(int_run, int_qrels, ["mrr@10"],
                          preset="msmarco").summary["mrr@10"] == 1 / 3


def test_msmarco_preset_on_the_command_line_reads_a_trec_run_with_gaps(tmp_path, capsys):
    from ragmetrics.cli import main

    (tmp_path / "qrels").write_text("q1 0 a 1\nq2 0 c 1\n")
    (tmp_path / "run").write_text("q1 Q0 x 1 9 r\nq1 Q0 a 3 8 r\nq2 Q0 y 0 9 r\n"
                                  "q2 Q0 c 1 8 r\n")
    assert main(["evaluate", str(tmp_path / "qrels"), str(tmp_path / "run"), "--preset",
                 "msmarco", "--metrics", "mrr@10", "--means-only"]) == 0
    assert re.search(r"^mrr@10\s+0\.6667$", capsys.readouterr().out, re.MULTILINE)


# -- Spark MLlib ---------------------------------------------------------------------------

# pyspark.mllib.evaluation.RankingMetrics' documented example (Spark 3.x and 4.x docs):
# three queries, predictions and ground truth sets, and the printed values' first digits.
SPARK_PREDICTIONS = {"q1": [1, 6, 2, 7, 8, 3, 9, 10, 4, 5],
                     "q2": [4, 1, 5, 6, 2, 7, 3, 8, 9, 10],
                     "q3": [1, 2, 3, 4, 5]}
SPARK_LABELS = {"q1": {1, 2, 3, 4, 5}, "q2": {1, 2, 3}, "q3": set()}
SPARK_DOCUMENTED = {"precision@1": "0.33", "precision@5": "0.26", "precision@15": "0.17",
                    "map": "0.35", "map@1": "0.3333333333333333", "map@2": "0.25",
                    "ndcg@3": "0.33", "ndcg@10": "0.48", "recall@1": "0.06",
                    "recall@5": "0.35", "recall@15": "0.66"}


def test_spark_preset_gives_the_documented_example():
    with pytest.warns(EmptyRelevantWarning):
        result = evaluate(SPARK_PREDICTIONS, SPARK_LABELS, list(SPARK_DOCUMENTED),
                          preset="spark")
    for name, printed in SPARK_DOCUMENTED.items():
        assert repr(float(result.summary[name])).startswith(printed), (name, result.summary[name])
    # The same numbers by hand: MAP@2 divides by min(R, 2), so q1 scores 1/2 and q2 (one
    # hit at rank 2) 0.5/2; trec_eval divides by R: 1/5 and 0.5/3.
    assert result.summary["map@2"] == pytest.approx((1 / 2 + 0.5 / 2 + 0) / 3, abs=TOLERANCE)
    with pytest.warns(EmptyRelevantWarning):
        trec = evaluate(SPARK_PREDICTIONS, SPARK_LABELS, ["map@2"]).summary["map@2"]
    assert trec == pytest.approx((1 / 5 + 0.5 / 3) / 3, abs=TOLERANCE)
    # Spark's suite pins these (RankingMetricsSuite): MAP 0.355026, nDCG@5 0.328788.
    assert result.summary["map"] == pytest.approx(0.355026, abs=1e-6)
    with pytest.warns(EmptyRelevantWarning):
        ndcg5 = evaluate(SPARK_PREDICTIONS, SPARK_LABELS, ["ndcg@5"], preset="spark")
    assert ndcg5.summary["ndcg@5"] == pytest.approx(0.328788, abs=1e-6)


def spark_ndcg_at(pred, labels, relevance, k):
    """Spark's graded ndcgAt(k) for one query, as RankingMetrics computes it."""
    rel = dict(zip(labels, relevance, strict=True))
    n = min(max(len(pred), len(labels)), k)
    dcg = sum((2 ** rel.get(pred[i], 0) - 1) / math.log(i + 2) for i in range(min(n, len(pred))))
    ideal = sum((2 ** rel[labels[i]] - 1) / math.log(i + 2) for i in range(min(n, len(labels))))
    return dcg / ideal


def test_spark_preset_builds_the_ideal_from_the_labels_in_their_order():
    # Graded labels listed worst first: Spark's ideal takes them in that order, so its
    # nDCG passes 1 when the prediction is the true best order.
    labels, relevance = ["a", "b", "c"], [1, 3, 2]
    qrels = pd.DataFrame({"query_id": "q", "doc_id": labels, "relevance": relevance})
    for pred in (["b", "c", "a"], ["a", "x", "b"], ["x", "c"]):
        for k in (1, 2, 3, 5):
            got = quiet_evaluate({"q": pred}, qrels, [f"ndcg@{k}"], preset="spark").summary.iloc[0]
            assert got == pytest.approx(spark_ndcg_at(pred, labels, relevance, k),
                                        abs=TOLERANCE)
    best = evaluate({"q": ["b", "c", "a"]}, qrels, ["ndcg@3"], preset="spark").summary.iloc[0]
    assert best > 1
    # Sorted best first, the judgments give the true ideal, and the best order scores 1.
    ordered = qrels.sort_values("relevance", ascending=False)
    assert evaluate({"q": ["b", "c", "a"]}, ordered, ["ndcg@3"],
                    preset="spark").summary.iloc[0] == pytest.approx(1.0)


def test_spark_preset_refuses_a_doc_predicted_twice():
    with pytest.raises(InputValueError, match="more than once"):
        evaluate({"q": ["a", "a"]}, {"q": {"a"}}, ["ndcg@2"], preset="spark")


# -- the plumbing: names, errors, cards, the command -----------------------------------------


def test_every_preset_sets_only_rows_of_the_conventions_table():
    keywords = {c.keyword: c for c in CONVENTIONS}
    for preset in PRESETS.values():
        for keyword, value in preset.conventions:
            keywords[keyword].check(value)
        for variant in preset.variants:
            for keyword, value in variant.conventions:
                keywords[keyword].check(value)
    assert set(PRESETS) == {"trec_eval", "trec_eval_no_c", "beir", "msmarco", "ir_measures",
                            "spark"}


def test_a_contradicting_convention_and_an_unknown_preset_are_errors():
    with pytest.raises(InputValueError, match="preset 'spark' sets ties='input_order'; "
                       "ties='optimistic' contradicts it"):
        evaluate({"q": ["a"]}, {"q": {"a"}}, ["mrr"], preset="spark", ties="optimistic")
    with pytest.raises(InputValueError, match=r"preset must be one of 'trec_eval'.*got 'BEIR'"):
        evaluate({"q": ["a"]}, {"q": {"a"}}, ["mrr"], preset="BEIR")
    # A convention the preset leaves alone can be set.
    result = evaluate({"q": ["a"]}, {"q": {"a": 2}}, ["mrr"], preset="beir", relevance_level=2)
    assert result.conventions.relevance_level == 2


def test_the_preset_is_printed_on_every_result():
    qrels = {f"q{i}": {"a": 1} for i in range(30)}
    runs = {"old": {q: ["x", "a"] for q in qrels}, "new": {q: ["a"] for q in qrels}}
    result = evaluate(runs["old"], qrels, ["mrr"], preset="spark")
    assert repr(result).splitlines()[-1] == "  preset: spark (Spark MLlib's RankingMetrics (3.4+))"
    comparison = compare(runs, qrels, ["mrr", "map@1"], n_resamples=100, preset="spark")
    assert comparison.preset == "spark"
    card = convention_card(comparison)
    assert card["preset"].startswith("spark: Spark MLlib's RankingMetrics")
    assert card["AP's denominator at a cut-off k"].startswith("min_relevant_k: min(R, k)")
    assert "preset=spark" in str(comparison)
    assert "| preset | spark: Spark MLlib" in comparison.to_markdown()
    # Without a preset the card keeps its shape: the preset rows are off at their defaults.
    plain = convention_card(compare(runs, qrels, ["mrr"], n_resamples=100))
    assert "preset" not in plain
    assert "score precision" not in plain


def test_compare_under_a_preset_equals_evaluate_under_it():
    qrels, run = collection(5)
    other = {q: {d: s + (1.0 if d.endswith("3") else 0.0) for d, s in docs.items()}
             for q, docs in run.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        for preset in PRESETS:
            result = compare({"a": run, "b": other}, qrels, ["ndcg@10", "map@5", "rr@10"],
                             n_resamples=100, preset=preset)
            for name, system in (("a", run), ("b", other)):
                alone = evaluate(system, qrels, ["ndcg@10", "map@5", "rr@10"], preset=preset)
                pd.testing.assert_frame_equal(
                    result.per_query[name].dropna(how="all"),
                    alone.per_query.reindex(result.per_query[name].dropna(how="all").index),
                    check_names=False)


def test_the_command_takes_a_preset(tmp_path, capsys):
    from ragmetrics.cli import main

    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 1\nq1 0 b 1\nq2 0 c 1\n", encoding="utf-8")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 q1 1 3.0 r\nq1 Q0 x 2 2.0 r\nq1 Q0 a 3 1.0 r\n", encoding="utf-8")
    status = main(["evaluate", str(qrels), str(run), "--preset", "beir",
                   "--metrics", "recall@2"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "preset=beir" in out
    # q1 only (q2 is not in the run), its own id dropped: x, a in the top 2.
    assert "recall@2  0.5000" in out
    status = main(["evaluate", str(qrels), str(run), "--preset", "spark", "--ties",
                   "optimistic"])
    _, err = capsys.readouterr()
    assert status == 2
    assert "--preset spark: preset 'spark' sets ties='input_order'" in err
    # An option given by name is never dropped silently, even at its default value.
    status = main(["evaluate", str(qrels), str(run), "--preset", "beir",
                   "--missing-from-run", "zero"])
    _, err = capsys.readouterr()
    assert status == 2
    assert "missing_from_run='zero' contradicts it" in err


def test_readme_has_the_presets_table_as_the_code_has_it():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "## Reproduce another tool's numbers" in readme
    assert presets_markdown() in readme


def test_coverage_warnings_still_come_once_under_a_variant_pass():
    with pytest.warns(CoverageWarning) as caught:
        evaluate({"q1": {"a": 1.0}}, {"q1": {"a": 1}, "q2": {"b": 1}}, ["rr@10", "ndcg@10"],
                 preset="ir_measures")
    assert sum(issubclass(w.category, CoverageWarning) for w in caught) == 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_drilldowns_rankings_add_up_to_the_presets_values(preset):
    """The explorer's and the report's rankings (evaluation.query_view) follow the preset:
    each rank's contribution adds up to the value evaluate gives under it."""
    from ragmetrics.evaluation.query_view import QueryRankings

    qrels, run = collection(6, n_queries=25)
    metrics = ["ndcg@5", "ap@3", "ap", "rr", "recall@5", "precision@3"]
    result = quiet_evaluate(run, qrels, metrics, preset=preset)
    rankings = QueryRankings({"a": run}, qrels, result.conventions)
    for query, row in result.per_query.iterrows():
        for metric in metrics:
            adds = [doc.contribution for doc in rankings.ranking("a", query, metric)]
            assert math.fsum(adds) == pytest.approx(row[metric], abs=1e-12), (query, metric)
