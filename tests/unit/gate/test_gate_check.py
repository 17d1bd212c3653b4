"""The gate's statistics: one-sided paired t-tests against SciPy, Holm over rules and
segments, the floor policy, stale baselines, the ratchet, and the false-fail rate."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ragmetrics.errors import FormatError, InputValueError
from ragmetrics.gate import (
    StaleBaselineError,
    check_gate,
    gate_decision,
    load_baseline,
    parse_rule,
    qrels_fingerprint,
    ratchet_baseline,
    save_baseline,
)


def _frames(base, cand, metric="ndcg@10"):
    ids = [f"q{i}" for i in range(len(base))]
    return (pd.DataFrame({metric: base}, index=ids), pd.DataFrame({metric: cand}, index=ids))


BASE = np.array([0.62, 0.41, 0.77, 0.50, 0.33, 0.90, 0.58, 0.71, 0.45, 0.66, 0.52, 0.80])
DROP = np.array([0.05, 0.02, 0.04, 0.00, 0.06, 0.03, 0.01, 0.05, 0.02, 0.04, 0.03, 0.02])


def test_worse_by_is_scipys_one_sided_paired_t_test_of_the_shifted_baseline():
    base, cand = _frames(BASE, BASE - DROP)
    verdict = gate_decision(base, cand, ["ndcg@10 worse by 0.01"]).verdicts[0]
    expected = stats.ttest_rel(BASE - DROP, BASE - 0.01, alternative="less")
    assert verdict.p_value == pytest.approx(expected.pvalue, rel=1e-9)
    assert verdict.statistic == pytest.approx(expected.statistic, rel=1e-9)
    assert verdict.df == 11
    assert verdict.difference == pytest.approx(-DROP.mean())
    # The 90% interval by hand: mean +- t(0.95; 11) sd / sqrt(n).
    half = stats.t.ppf(0.95, 11) * DROP.std(ddof=1) / math.sqrt(12)
    assert verdict.interval == pytest.approx((-DROP.mean() - half, -DROP.mean() + half))
    # One claim: fails exactly when the interval lies below -tolerance.
    assert verdict.passed is (verdict.interval[1] >= -0.01)
    assert not verdict.passed
    assert verdict.p_adjusted == verdict.p_value


def test_a_drop_within_the_tolerance_passes():
    base, cand = _frames(BASE, BASE - DROP)  # mean drop 0.0308
    verdict = gate_decision(base, cand, ["ndcg@10 worse by 0.05"]).verdicts[0]
    assert verdict.passed
    assert verdict.p_value == pytest.approx(
        stats.ttest_rel(BASE - DROP, BASE - 0.05, alternative="less").pvalue)
    assert verdict.p_value > 0.5


def test_the_floor_is_tested_on_the_mean_not_compared():
    values = np.array([0.78, 0.82, 0.70, 0.85, 0.79, 0.75, 0.81, 0.77, 0.74, 0.80])
    base, cand = _frames(values, values, "recall@10")
    # The mean, 0.781, is below 0.79 but not significantly: passed, with a note.
    verdict = gate_decision(base, cand, ["recall@10 below 0.79"]).verdicts[0]
    assert verdict.candidate_mean < 0.79
    assert verdict.passed
    assert "not significantly" in verdict.note
    assert verdict.p_value == pytest.approx(
        stats.ttest_1samp(values, 0.79, alternative="less").pvalue)
    # Significantly below 0.85: failed.
    verdict = gate_decision(base, cand, ["recall@10 below 0.85"]).verdicts[0]
    assert not verdict.passed
    assert verdict.difference == pytest.approx(values.mean() - 0.85)
    assert verdict.p_value == pytest.approx(
        stats.ttest_1samp(values, 0.85, alternative="less").pvalue)


def test_holm_corrects_over_rules_and_segments():
    rng = np.random.default_rng(3)
    base = rng.uniform(0.2, 0.8, 40)
    cand = base - rng.normal(0.02, 0.05, 40)
    segments = {f"q{i}": "a" if i < 20 else "b" for i in range(40)}
    b, c = _frames(base, cand)
    result = gate_decision(b, c, ["ndcg@10 worse by 0.0"], segments=segments)
    claims = [*result.verdicts, *result.segment_verdicts]
    assert [v.segment for v in claims] == [None, "a", "b"]
    raw = np.array([v.p_value for v in claims])
    # Holm by hand: sort, multiply by m - i, running maximum.
    order = np.argsort(raw)
    adjusted = np.maximum.accumulate(np.minimum(1, (3 - np.arange(3)) * raw[order]))
    expected = np.empty(3)
    expected[order] = adjusted
    assert [v.p_adjusted for v in claims] == pytest.approx(expected.tolist())
    for v in claims[1:]:
        rows = slice(0, 20) if v.segment == "a" else slice(20, 40)
        assert v.p_value == pytest.approx(
            stats.ttest_rel(cand[rows], base[rows], alternative="less").pvalue)


def test_a_segment_collapse_hidden_by_a_flat_mean_fails_the_gate():
    rng = np.random.default_rng(7)
    base = rng.uniform(0.4, 0.6, 60)
    cand = base.copy()
    cand[:30] -= 0.3 + rng.normal(0, 0.02, 30)   # "faq" collapses
    cand[30:] += 0.3 + rng.normal(0, 0.02, 30)   # "howto" rises as much
    segments = {f"q{i}": "faq" if i < 30 else "howto" for i in range(60)}
    segments["q59"] = "tiny"  # one query alone: named, not tested
    b, c = _frames(base, cand)
    flat = gate_decision(b, c, ["ndcg@10 worse by 0.01"])
    assert flat.passed
    assert abs(flat.verdicts[0].difference) < 0.01
    result = gate_decision(b, c, ["ndcg@10 worse by 0.01"], segments=segments)
    assert not result.passed
    assert result.verdicts[0].passed  # the mean is flat...
    assert [(v.segment, v.passed) for v in result.segment_verdicts] == [
        ("faq", False), ("howto", True)]  # ...the segment is not
    assert result.untested_segments == ({"segment": "tiny", "metric": "ndcg@10",
                                         "rule": "ndcg@10 worse by 0.01", "n_queries": 1},)
    text = result.to_text()
    assert "FAIL  segment 'faq'" in text
    assert "not tested (fewer than 10 queries): 'tiny' (1 on ndcg@10)" in text


def test_floors_are_not_tested_per_segment():
    b, c = _frames(BASE, BASE)
    result = gate_decision(b, c, ["ndcg@10 below 0.1"],
                           segments={f"q{i}": "s" for i in range(12)})
    assert result.segment_verdicts == ()
    assert result.untested_segments == ()


def test_rules_are_parsed_with_errors_naming_the_rule():
    assert parse_rule("ndcg@10 worse by 0.01").tolerance == 0.01
    assert parse_rule("P_5 below .5").floor == 0.5
    with pytest.raises(InputValueError, match=r"rule 'ndcg@10 worse by -1': the tolerance"):
        parse_rule("ndcg@10 worse by -1")
    with pytest.raises(InputValueError, match=r"rule 'ndcg@10 below lots': 'lots' is not"):
        parse_rule("ndcg@10 below lots")
    with pytest.raises(InputValueError, match="guard the same metric"):
        gate_decision(*_frames(BASE, BASE), ["ndcg@10 worse by 0.01", "ndcg_cut_10 worse by 0"])


# -- baselines and check_gate ------------------------------------------------------------

QRELS = {f"q{i}": {f"d{i}": 1, f"e{i}": 2, f"z{i}": 0} for i in range(30)}
GOOD = {f"q{i}": [f"e{i}", f"d{i}", "x"] for i in range(30)}
BAD = {f"q{i}": ["x", f"d{i}", f"e{i}"] if i % 3 else [f"e{i}", f"d{i}"] for i in range(30)}


@pytest.fixture
def base(tmp_path):
    return save_baseline(GOOD, QRELS, tmp_path / "base.json", metrics=["ndcg@10", "mrr"],
                         name="good")


def test_the_baseline_file_holds_values_fingerprint_conventions_and_provenance(base, tmp_path):
    document = json.loads((tmp_path / "base.json").read_text())
    assert document["schema"] == "ragmetrics-baseline"
    assert document["schema_version"] == 1
    assert document["metrics"] == ["ndcg@10", "mrr"]
    assert document["per_query"]["values"]["mrr"] == [1.0] * 30
    assert document["judgments"] == qrels_fingerprint(QRELS)
    assert document["judgments"]["queries"] == 30
    assert document["judgments"]["judgments"] == 90
    assert document["conventions"]["ties"] == "trec_eval"
    assert document["run"]["name"] == "good"
    import ragmetrics

    assert document["ragmetrics_version"] == ragmetrics.__version__
    assert document["created_at"].endswith("+00:00")


def test_a_retriever_runs_provenance_goes_into_the_baseline(tmp_path):
    from ragmetrics.runners import RetrieverRun

    run = RetrieverRun({"query_id": ["q1", "q2"], "doc_id": ["a", "b"], "rank": [1, 1]})
    run.provenance = {"name": "bm25", "config_hash": "abc", "cache": tmp_path}
    saved = save_baseline(run, {"q1": {"a": 1}, "q2": {"c": 1}}, tmp_path / "b.json",
                          metrics=["mrr"])
    assert load_baseline(tmp_path / "b.json").run["provenance"] == {
        "name": "bm25", "config_hash": "abc", "cache": str(tmp_path)}
    assert saved.per_query["mrr"].tolist() == [1.0, 0.0]


def test_the_fingerprint_ignores_order_format_and_id_type():
    frame = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"],
                          "relevance": [1, 0, 2]})
    same = {2: {"c": 2.0}, 1: {"b": 0, "a": 1}}
    assert qrels_fingerprint(frame) == qrels_fingerprint(same)
    assert qrels_fingerprint(frame.iloc[::-1]) == qrels_fingerprint(frame)
    assert qrels_fingerprint(frame.iloc[:2]) != qrels_fingerprint(frame)  # a judgment gone
    # A query with no judgment is judged: it counts.
    assert qrels_fingerprint({**same, 3: {}})["queries"] == 3


def test_check_gate_passes_and_fails(base):
    passed = check_gate(base, GOOD, QRELS, ["ndcg@10 worse by 0.01", "mrr below 0.9"])
    assert passed.passed
    assert [v.passed for v in passed.verdicts] == [True, True]
    failed = check_gate(base, BAD, QRELS, ["ndcg@10 worse by 0.01", "mrr below 0.9"])
    assert not failed.passed
    assert [v.passed for v in failed.verdicts] == [False, False]
    assert failed.candidate.per_query.index.tolist() == base.per_query.index.tolist()


@pytest.mark.parametrize(("change", "says"), [
    ({"qrels": {**QRELS, "q0": {"d0": 1}}}, "the judgments differ"),
    ({"gain": "exponential"}, "gain 'linear' in the baseline, 'exponential' now"),
    ({"preset": "beir"}, "preset None in the baseline, 'beir' now"),
    ({"rules": ["map worse by 0.01"]}, r"map is not among the baseline's metrics \(ndcg@10"),
])
def test_a_stale_baseline_is_refused_saying_what_differs(base, change, says):
    change = dict(change)
    qrels = change.pop("qrels", QRELS)
    rules = change.pop("rules", ["ndcg@10 worse by 0.01"])
    with pytest.raises(StaleBaselineError, match=says) as caught:
        check_gate(base, GOOD, qrels, rules, **change)
    assert "Refresh it" in str(caught.value)


def test_queries_missing_on_either_side_make_a_baseline_stale(tmp_path):
    qrels = {f"q{i}": {f"d{i}": 1} for i in range(5)}
    run = {f"q{i}": [f"d{i}"] for i in range(5)}
    base = save_baseline(run, qrels, tmp_path / "b.json", metrics=["mrr"],
                         missing_from_run="skip")
    # The candidate lacks q4: under "skip" it is not scored, so it is missing.
    with pytest.raises(StaleBaselineError, match=r"1 query of the baseline is not in the "
                       r"candidate's evaluation: 'q4'"):
        check_gate(base, {q: r for q, r in run.items() if q != "q4"}, qrels, ["mrr below 0.5"])
    # A baseline whose file lists fewer queries than are judged.
    document = json.loads((tmp_path / "b.json").read_text())
    document["per_query"]["query_ids"] = document["per_query"]["query_ids"][:4]
    document["per_query"]["values"]["mrr"] = document["per_query"]["values"]["mrr"][:4]
    (tmp_path / "short.json").write_text(json.dumps(document))
    with pytest.raises(StaleBaselineError, match=r"candidate's evaluation is not in the "
                       r"baseline: 'q4'"):
        check_gate(tmp_path / "short.json", run, qrels, ["mrr below 0.5"],
                   missing_from_run="skip")


def test_the_ratchet_updates_only_on_pass(base, tmp_path):
    failed = ratchet_baseline(check_gate(base, BAD, QRELS, ["ndcg@10 worse by 0.01"]))
    assert not failed.baseline_updated
    assert load_baseline(tmp_path / "base.json").per_query.equals(base.per_query)
    better = {f"q{i}": [f"e{i}", f"d{i}"] for i in range(30)}
    passed = ratchet_baseline(check_gate(base, better, QRELS, ["ndcg@10 worse by 0.01"]))
    assert passed.baseline_updated
    assert load_baseline(tmp_path / "base.json").per_query.equals(passed.candidate.per_query)


@pytest.mark.parametrize(("text", "says"), [
    ("{", r"line 1: not valid JSON"),
    ('{"schema": "something-else"}', "not a ragmetrics baseline file"),
    ('{"schema": "ragmetrics-baseline", "schema_version": 9}', "schema version 9 is newer"),
    ('{"schema": "ragmetrics-baseline", "schema_version": 1}', ("the key 'created_at' is "
     "missing")),
])
def test_a_damaged_or_foreign_baseline_is_an_error_naming_the_file(tmp_path, text, says):
    (tmp_path / "x.json").write_text(text)
    with pytest.raises(FormatError, match=says) as caught:
        load_baseline(tmp_path / "x.json")
    assert str(caught.value).startswith(str(tmp_path / "x.json"))


def test_damaged_values_are_named(base, tmp_path):
    document = json.loads((tmp_path / "base.json").read_text())
    document["per_query"]["values"]["mrr"][3] = "high"
    (tmp_path / "d.json").write_text(json.dumps(document))
    with pytest.raises(FormatError, match=r"mrr of query 'q11' is 'high', not a number"):
        load_baseline(tmp_path / "d.json")
    document["per_query"]["values"]["mrr"] = [1.0]
    (tmp_path / "d.json").write_text(json.dumps(document))
    with pytest.raises(FormatError, match=r"the values of mrr must be a list of 30"):
        load_baseline(tmp_path / "d.json")


# -- the false-fail rate -------------------------------------------------------------------


def _metric_like(rng, n):
    """Per-query values as retrieval metrics have them: a mass at 0, one at 1, between."""
    kind = rng.uniform(size=n)
    return np.where(kind < 0.2, 0.0, np.where(kind > 0.8, 1.0, rng.beta(2, 2, n)))


@pytest.mark.slow
def test_with_no_true_difference_the_gate_fails_at_most_at_alpha():
    # 500 seeded pairs: the candidate is the baseline plus symmetric noise (no true
    # difference), tolerance 0 (the hardest case: the null sits on the boundary). Two
    # rules (ndcg@10, recall@10) and two segments of 30 queries each: 6 claims, Holm.
    rng = np.random.default_rng(20240601)
    n, trials, alpha = 60, 500, 0.05
    ids = [f"q{i}" for i in range(n)]
    segments = {q: "a" if i < 30 else "b" for i, q in enumerate(ids)}
    rules = ["ndcg@10 worse by 0", "recall@10 worse by 0"]
    fails = single = 0
    for _ in range(trials):
        base = pd.DataFrame({"ndcg@10": _metric_like(rng, n), "recall@10": _metric_like(rng, n)},
                            index=ids)
        noise = rng.normal(0, 0.15, size=(n, 2)) * rng.choice([-1, 1], size=(n, 2))
        cand = base + noise
        fails += not gate_decision(base, cand, rules, segments=segments, alpha=alpha).passed
        single += not gate_decision(base[["ndcg@10"]], cand[["ndcg@10"]], rules[:1],
                                    alpha=alpha).passed
    se = math.sqrt(alpha * (1 - alpha) / trials)
    assert fails / trials <= alpha + 3 * se
    # One claim at the boundary: the rate is alpha itself (the test is not vacuous).
    assert alpha - 3 * se <= single / trials <= alpha + 3 * se


@pytest.mark.slow
def test_the_same_system_with_ties_broken_otherwise_fails_at_most_at_alpha(tmp_path):
    # The same scores, ties broken by a new random order each time (ties="input_order"
    # keeps the order given): runs of one system that differ by chance alone.
    rng = np.random.default_rng(11)
    n_queries, depth, trials, alpha = 40, 10, 200, 0.05
    qrels = {f"q{i}": {f"d{i}_{j}": int(rng.integers(0, 3)) for j in range(depth)}
             for i in range(n_queries)}
    scores = {f"q{i}": {f"d{i}_{j}": float(rng.integers(0, 3)) for j in range(depth)}
              for i in range(n_queries)}

    def shuffled():
        rows = []
        for q, docs in scores.items():
            order = rng.permutation(list(docs))
            rows += [(q, d, docs[d]) for d in order]
        return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])

    base = save_baseline(shuffled(), qrels, tmp_path / "b.json", metrics=["ndcg@5", "p@3"],
                         ties="input_order")
    fails = sum(not check_gate(base, shuffled(), qrels,
                               ["ndcg@5 worse by 0", "p@3 worse by 0"]).passed
                for _ in range(trials))
    assert fails / trials <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / trials)
