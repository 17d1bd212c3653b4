"""Judgment audits (ragmetrics.audits) against their references and by hand.

- Cohen's kappa and weighted kappa against scikit-learn's ``cohen_kappa_score``;
  Krippendorff's alpha against the ``krippendorff`` package, at every level, on random
  grade pairs (Hypothesis) and on the support demo's golden set against a perturbed copy.
- Kendall's tau against SciPy; rank-biased overlap against its definition summed far
  out; Judged@k against ir_measures' Judged@k.
- ``ragmetrics audit`` end to end.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics.audits import (
    audit,
    cohen_kappa,
    judged_at_k_by_system,
    judged_pairs,
    judgment_agreement,
    kendall_tau,
    krippendorff_alpha,
    rank_biased_overlap,
    system_rankings,
    weighted_kappa,
)
from ragmetrics.cli import main
from ragmetrics.errors import InputTypeError, InputValueError

krippendorff = pytest.importorskip("krippendorff")
sklearn_metrics = pytest.importorskip("sklearn.metrics")

grade_pairs = st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n)))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(grade_pairs)
def test_kappas_equal_scikit_learns(pair):
    a, b = pair
    if len(set(a) | set(b)) < 2:  # one label throughout: undefined (sklearn warns, gives nan)
        assert math.isnan(cohen_kappa(a, b))
        return
    assert cohen_kappa(a, b) == pytest.approx(sklearn_metrics.cohen_kappa_score(a, b),
                                              abs=1e-12)
    for weights in ("linear", "quadratic"):
        ours = weighted_kappa(a, b, weights=weights)
        theirs = sklearn_metrics.cohen_kappa_score(a, b, weights=weights)
        assert ours == pytest.approx(theirs, abs=1e-12) or (math.isnan(ours) and
                                                           math.isnan(theirs))


@settings(max_examples=150, deadline=None)
@given(grade_pairs)
def test_alpha_equals_the_krippendorff_package(pair):
    a, b = pair
    if len(set(a) | set(b)) < 2:
        assert math.isnan(krippendorff_alpha(a, b))
        return
    for level in ("ordinal", "interval", "nominal"):
        theirs = krippendorff.alpha(reliability_data=[a, b], level_of_measurement=level)
        assert krippendorff_alpha(a, b, level=level) == pytest.approx(theirs, abs=1e-12)


def test_kappa_by_hand():
    # 10 pairs: 4 both relevant, 4 both not, 2 disagree; each rater says relevant 5 times.
    a = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    b = [1, 1, 1, 1, 0, 1, 0, 0, 0, 0]
    # p_o = 0.8, p_e = 0.5 * 0.5 + 0.5 * 0.5 = 0.5, kappa = 0.3 / 0.5
    assert cohen_kappa(a, b) == pytest.approx(0.6)


def test_kappa_takes_any_labels_and_names_a_missing_one():
    # Text, booleans, numbers, Series (by position): labels, compared by equality.
    assert cohen_kappa(["yes", "yes", "no"], ["yes", "no", "no"]) == pytest.approx(0.4)
    assert cohen_kappa(pd.Series([True, False, True], index=[9, 8, 7]),
                       np.array([1.0, 0.0, 0.0])) == pytest.approx(0.4)
    assert cohen_kappa([1, "1"], [1, "1"]) == 1.0  # 1 and "1" are two labels
    assert math.isnan(cohen_kappa(["no"] * 5, ["no"] * 5))  # 0 / 0: undefined
    for bad, shown in ((None, "None"), (math.nan, "nan"), (-math.inf, "-inf")):
        with pytest.raises(InputValueError,
                           match=rf"^b\[1\] is {shown}: every label must be given"):
            cohen_kappa(["x", "y"], ["x", bad])
    with pytest.raises(InputValueError, match=r"^a\[2\] is nan"):
        cohen_kappa(np.array([1.0, 0.0, np.nan]), [1, 0, 0])
    with pytest.raises(InputTypeError, match=r"^a\[1\] is \[2\]: a label must be hashable"):
        cohen_kappa([1, [2]], [1, 2])
    with pytest.raises(InputValueError, match=r"a must be a 1-D sequence .* shape \(2, 2\)"):
        cohen_kappa(np.zeros((2, 2)), [0, 0])
    with pytest.raises(InputValueError, match="a has 3 labels, b has 2"):
        cohen_kappa([1, 0, 1], [1, 0])


@pytest.fixture(scope="module")
def perturbed(support_demo):
    """The support demo's golden set (A) and a second set (B): a third of the grades moved
    by one, some pairs dropped, some judged pairs added, including grade-0 judgments."""
    qrels, runs = support_demo
    rng = np.random.default_rng(7)
    a = qrels.copy()
    b = qrels.copy()
    move = rng.random(len(b)) < 0.35
    b.loc[move, "relevance"] = np.clip(b.loc[move, "relevance"] + rng.choice([-1, 1], move.sum()),
                                       0, 2)
    b = b[rng.random(len(b)) > 0.1]
    top = runs["bm25"][runs["bm25"]["rank"] <= 3][["query_id", "doc_id"]]
    added = top.merge(a[["query_id", "doc_id"]], how="left", indicator=True)
    added = added[added["_merge"] == "left_only"].drop(columns="_merge").head(60)
    a_extra = added.assign(relevance=0)
    b_extra = added.assign(relevance=rng.integers(0, 2, len(added)))
    return (pd.concat([a, a_extra], ignore_index=True),
            pd.concat([b, b_extra], ignore_index=True), runs)


def test_agreement_on_the_support_demo_equals_the_references(perturbed):
    a, b, _ = perturbed
    result = judgment_agreement(a, b)
    pairs = judged_pairs(a, b).dropna()
    ga, gb = pairs["grade_a"].astype(int), pairs["grade_b"].astype(int)
    assert result.n_both == len(pairs)
    assert result.only_a == len(judged_pairs(a, b)) - len(pairs)
    assert result.only_b == 0
    assert result.kappa == pytest.approx(sklearn_metrics.cohen_kappa_score(ga >= 1, gb >= 1))
    assert result.weighted_kappa == pytest.approx(
        sklearn_metrics.cohen_kappa_score(ga, gb, weights="linear"))
    assert result.alpha == pytest.approx(
        krippendorff.alpha(reliability_data=[ga, gb], level_of_measurement="ordinal"))
    assert 0 < result.kappa < 1
    assert 0 < result.alpha < 1
    assert result.confusion.to_numpy().sum() == result.n_both
    # At level 2 the binary labels change, and so does kappa.
    high = judgment_agreement(a, b, relevance_level=2)
    assert high.kappa == pytest.approx(sklearn_metrics.cohen_kappa_score(ga >= 2, gb >= 2))


def test_pairs_judged_by_one_set_and_unjudged_grades():
    a = {"q1": {"d1": 1, "d2": 0, "d3": -1}, "q2": {"d4": 2}}
    b = {"q1": {"d1": 1, "d5": 1}, "q3": {"d6": 1}}
    result = judgment_agreement(a, b)
    # d3's -1 is "in the pool, not judged": not a pair; q2 and q3 only in one set each.
    assert (result.n_both, result.only_a, result.only_b) == (1, 2, 2)
    assert math.isnan(result.kappa)  # one pair, one label: chance agrees fully
    with pytest.raises(InputValueError, match="twice"):
        judged_pairs(pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d", "d"],
                                   "relevance": [1, 0]}), b)
    with pytest.raises(InputTypeError, match="doc_id is str in the run but int"):
        judged_pairs({"q1": {"d1": 1}}, {"q1": {7: 1}})


NO_PAIR = "n/a (no pair judged by both)"
ONE_LABEL = "n/a (one label throughout: chance agrees fully)"


def agreement_lines(text):
    """The agreement block of an audit's text: {label: value as shown}."""
    lines = text.splitlines()[1:8]
    return dict(re.fullmatch(r"  (.+?)  +(\S.*)", line).groups() for line in lines)


def test_no_common_pair_is_said_so_not_blamed_on_one_label():
    # Before: every value read "one label throughout", though no pair was judged twice.
    a = {"q1": {"d1": 1, "d2": 0}}
    b = {"q2": {"d1": 1}, "q1": {"d3": 0}}
    shown = agreement_lines(audit(a, b).to_text())
    assert shown == {"pairs judged by both": "0", "judged by A only": "2",
                     "judged by B only": "2", "same label": NO_PAIR, "Cohen's kappa": NO_PAIR,
                     "weighted kappa (linear)": NO_PAIR,
                     "Krippendorff's alpha (ordinal)": NO_PAIR}


def test_one_label_throughout_is_said_only_of_what_it_leaves_undefined():
    # Two pairs, relevant in both sets: kappa is 0 / 0. The grades are 1 and 2 in A, 1 and
    # 1 in B, so weighted kappa and alpha are numbers (0: B's grade tells nothing of A's).
    a = {"q1": {"d1": 1, "d2": 2}}
    b = {"q1": {"d1": 1, "d2": 1}}
    shown = agreement_lines(audit(a, b).to_text())
    assert shown == {"pairs judged by both": "2", "judged by A only": "0",
                     "judged by B only": "0", "same label": "1.0000", "Cohen's kappa": ONE_LABEL,
                     "weighted kappa (linear)": "0.0000",
                     "Krippendorff's alpha (ordinal)": "0.0000"}
    shown = agreement_lines(audit(a, a).to_text())  # the same grades: agreement beyond chance
    assert (shown["Cohen's kappa"], shown["weighted kappa (linear)"]) == (ONE_LABEL, "1.0000")
    shown = agreement_lines(audit(b, b).to_text())  # one grade throughout: nothing is defined
    assert shown["weighted kappa (linear)"] == shown["Krippendorff's alpha (ordinal)"] == ONE_LABEL


def test_audit_command_says_when_no_pair_is_judged_by_both(tmp_path, capsys):
    (tmp_path / "a.csv").write_text("query_id,doc_id,relevance\nq1,d1,1\nq1,d2,0\n")
    (tmp_path / "b.csv").write_text("query_id,doc_id,relevance\nq2,d1,1\nq1,d3,0\n")
    (tmp_path / "c.csv").write_text("query_id,doc_id,relevance\nq1,d1,1\nq1,d2,1\n")
    assert main(["audit", str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]) == 0
    shown = agreement_lines(capsys.readouterr().out)
    assert shown["pairs judged by both"] == "0"
    assert shown["Cohen's kappa"] == shown["same label"] == NO_PAIR
    assert main(["audit", str(tmp_path / "c.csv"), str(tmp_path / "c.csv")]) == 0
    shown = agreement_lines(capsys.readouterr().out)
    assert (shown["pairs judged by both"], shown["same label"]) == ("2", "1.0000")
    assert shown["Cohen's kappa"] == shown["Krippendorff's alpha (ordinal)"] == ONE_LABEL


def test_kendall_tau_and_rbo():
    from scipy import stats

    x, y = [0.5, 0.4, 0.3, 0.2, 0.1], [0.45, 0.5, 0.1, 0.2, 0.3]
    assert kendall_tau(x, y) == pytest.approx(stats.kendalltau(x, y).statistic)
    # RBO of identical orders is 1 at every p; RBO_ext against the definition: the sum
    # over depths of (1 - p) p^(d-1) A_d, with A_d = 1 past the end (same items).
    a, b = list("abcdef"), list("bacfed")
    for p in (0.5, 0.9, 0.98):
        assert rank_biased_overlap(a, a, p=p) == pytest.approx(1.0)
        depth = 5000
        overlap = [len(set(a[:d]) & set(b[:d])) / d if d <= 6 else 1.0
                   for d in range(1, depth + 1)]
        weights = (1 - p) * p ** np.arange(depth)
        assert rank_biased_overlap(a, b, p=p) == pytest.approx(float(weights @ overlap))
    with pytest.raises(InputValueError, match="same length"):
        rank_biased_overlap(["a"], ["a", "b"])


def test_system_rankings_follow_the_judgments(perturbed):
    a, b, runs = perturbed
    frame, tau, _rbo = system_rankings(runs, a, b, metric="ndcg@10")
    assert list(frame.columns) == ["mean_a", "mean_b", "rank_a", "rank_b"]
    assert frame.loc["dense_minilm", "rank_a"] == 1
    assert frame.loc["bm25", "rank_a"] == 2
    assert tau == kendall_tau(frame["mean_a"], frame["mean_b"])
    # Swapped orders: tau -1, and the top differs.
    flipped = {"x": runs["bm25"], "y": runs["dense_minilm"]}
    reverse = {"q1": {"nothing": 1}}
    with pytest.raises(InputValueError, match="no query in common"):
        system_rankings(flipped, a, reverse)


def test_judged_at_k_by_hand_and_against_ir_measures(support_demo):
    qrels = {"q1": {"d1": 2, "d2": 0, "d3": -1}, "q2": {"d4": 1}}
    run = {"q1": ["d1", "d3", "x", "d2"], "q2": ["y"]}
    frame = judged_at_k_by_system({"r": run}, qrels, k=4)
    # q1: d1, d2 judged of 4 (d3's -1 is unjudged) = 0.5; q2: 0 of 4.
    assert frame.loc["r", "judged@4"] == pytest.approx(0.25)
    assert frame.loc["r", "hole@4"] == pytest.approx(0.75)
    ir_measures = pytest.importorskip("ir_measures")
    golden, runs = support_demo
    ours = judged_at_k_by_system(runs, golden, k=10)
    for name, frame in runs.items():
        run_frame = frame.rename(columns={"score": "score"})[["query_id", "doc_id", "score"]]
        qrels_frame = golden.rename(columns={"relevance": "relevance"})
        theirs = ir_measures.calc_aggregate([ir_measures.Judged @ 10], qrels_frame, run_frame)
        assert ours.loc[name, "judged@10"] == pytest.approx(theirs[ir_measures.Judged @ 10])


def test_the_old_judged_at_k_names_warn_and_give_the_new_functions():
    import ragmetrics.audits
    import ragmetrics.audits.rankings
    import ragmetrics.metrics.judged

    for module, new in ((ragmetrics.audits, judged_at_k_by_system),
                        (ragmetrics.audits.rankings, judged_at_k_by_system),
                        (ragmetrics.metrics.judged, ragmetrics.metrics.judged.judged_share)):
        with pytest.warns(DeprecationWarning, match=rf"{module.__name__}.judged_at_k is now"):
            assert module.judged_at_k is new
    with pytest.raises(AttributeError, match="no attribute 'judged_at_n'"):
        ragmetrics.audits.judged_at_n  # noqa: B018


def test_audit_command(perturbed, tmp_path, capsys):
    a, b, runs = perturbed
    a.to_csv(tmp_path / "a.csv", index=False)
    b.to_csv(tmp_path / "b.csv", index=False)
    for name, run in runs.items():
        run.to_csv(tmp_path / f"{name}.csv", index=False)
    status = main(["--debug", "audit", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"),
                   str(tmp_path / "bm25.csv"), str(tmp_path / "dense_minilm.csv"),
                   "--names", "bm25,dense", "--k", "5"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), err
    expected = audit(a, b, {"bm25": runs["bm25"], "dense": runs["dense_minilm"]}, k=5)
    assert f"Cohen's kappa                   {expected.agreement.kappa:.4f}" in out
    assert f"Kendall's tau {expected.kendall_tau:.4f}" in out
    assert "judged@5_a" in out
    assert "dense" in out
    # Without runs: the agreement alone; bad input: exit 2 with one line.
    assert main(["audit", str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]) == 0
    assert "Systems ranked" not in capsys.readouterr().out
    assert main(["audit", str(tmp_path / "a.csv"), str(tmp_path / "missing.csv")]) == 2
    assert "QRELS_B file not found" in capsys.readouterr().err
    # A missing QRELS_B is named alone: the runs are optional.
    assert main(["audit", str(tmp_path / "a.csv")]) == 2
    assert "required: QRELS_B (see" in capsys.readouterr().err
    assert main(["audit", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"),
                 "--metric", "nope@3"]) == 2
