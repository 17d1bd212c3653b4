"""compare's tie sizes (ragmetrics.comparison.tie_sizes): how far the order of tied docs
moves each mean, and whether it can flip a verdict.

The oracles: hand computation on runs built for it (which queries tie, by how much a
metric moves there), :func:`ragmetrics.evaluate` under ``ties="pessimistic"`` and
``ties="optimistic"`` (the ranges, the queries affected), and
:func:`ragmetrics.stats.randomization_verdicts` on the differences of those per-query
values, built here (the verdicts under the two extreme pairings).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ragmetrics import compare, evaluate, read_golden, read_trec_run
from ragmetrics.comparison import UNDECIDED
from ragmetrics.errors import InputTypeError, InputValueError
from ragmetrics.reports.card import convention_card
from ragmetrics.stats import paired_differences, randomization_verdicts

N = 30
DEMO = Path(__file__).resolve().parents[3] / "data" / "support_demo"


def tie_warnings(result) -> list[str]:
    return [w for w in result.warnings if w.startswith("tied scores:")]


def flip_case(tied: int = 10):
    """30 queries, one relevant doc each ("gold"). The baseline ranks it second, below a
    higher score; the candidate gives it the top score on every query, but on the first
    ``tied`` queries "junk" has that score too. trec_eval's rule (doc ids descending)
    puts "junk" first there, so the candidate scores what the baseline scores everywhere
    as reported (RR 0.5); relevant docs first, it finds gold at rank 1 on ``tied``
    queries (RR 1), which is significant on 10 queries of 30."""
    qrels = {f"q{i:02d}": {"gold"} for i in range(N)}
    old = {q: {"aaa": 2.0, "gold": 1.0} for q in qrels}
    new = {q: ({"junk": 1.0, "gold": 1.0} if i < tied else {"aaa": 2.0, "gold": 1.0})
           for i, q in enumerate(qrels)}
    return {"old": old, "new": new}, qrels


def no_flip_case(tied: int = 3):
    """30 queries with two relevant docs. The candidate finds gold at rank 1 everywhere,
    the baseline at rank 3: every verdict is clear. On the first ``tied`` queries the
    candidate's second relevant doc ("gold2") ties with "junk" at ranks 2-3, which moves
    its precision@2 (0.5 or 1) on those queries, and not its RR; ranks 4-5 of every
    query tie two docs ("x", "y"), below every cut and neither relevant."""
    qrels = {f"q{i:02d}": {"gold", "gold2"} for i in range(N)}
    old = {q: {"a": 3.0, "b": 2.0, "gold": 1.0} for q in qrels}
    new = {}
    for i, q in enumerate(qrels):
        second = {"gold2": 2.0, "junk": 2.0} if i < tied else {"junk": 2.0, "z": 1.5}
        new[q] = {"gold": 3.0, **second, "x": 1.0, "y": 1.0}
    return {"old": old, "new": new}, qrels


# -- a verdict the ties can flip -------------------------------------------------------


def test_ties_that_flip_a_verdict_by_hand():
    runs, qrels = flip_case()
    result = compare(runs, qrels, ["mrr", "recall@1"], n_resamples=2000)
    ties = result.tie_sizes
    assert list(ties.index) == [("mrr", "old"), ("mrr", "new"), ("recall@1", "old"),
                                ("recall@1", "new")]
    # mrr: the candidate is 0.5 on every query relevant-last, 1 on the 10 tied ones
    # relevant-first: 20 x 0.5 + 10 x 1 over 30; recall@1 0 or 1 on those 10.
    for metric, low, high in (("mrr", 0.5, (20 * 0.5 + 10) / 30), ("recall@1", 0.0, 10 / 30)):
        row = ties.loc[(metric, "new")]
        assert row["pessimistic"] == pytest.approx(low, abs=1e-15)
        assert row["optimistic"] == pytest.approx(high, abs=1e-15)
        assert (row["low"], row["high"]) == (row["pessimistic"], row["optimistic"])
        assert row["range"] == pytest.approx(high - low, abs=1e-15)
        assert row["n_queries_affected"] == 10
        assert row["verdict"] == "no significant difference"
        # New's ties for it, old's (none) against: better on 10 queries, level on 20:
        # the sign-flip p is 2 / 2^10, under Holm over 2 claims 0.0039 < 0.05.
        assert row["verdict_optimistic"] == "new better"
        assert row["verdict_pessimistic"] == "no significant difference"
        assert row["verdict_can_flip"]
        baseline = ties.loc[(metric, "old")]
        assert baseline["range"] == 0
        assert baseline["n_queries_affected"] == 0
        assert pd.isna(baseline["verdict"])
        assert pd.isna(baseline["verdict_optimistic"])
        assert not baseline["verdict_can_flip"]
    # The reported values are trec_eval's: the candidate's pessimistic order here.
    assert result.summary.loc[("mrr", "new"), "mean"] == pytest.approx(0.5)
    [warning] = tie_warnings(result)
    assert warning.startswith(  # the widest range first
        "tied scores: the order of tied docs moves recall@1 (new) by 0.3333 (0 to 0.3333, "
        "on 10 queries), mrr (new) by 0.1667 (0.5 to 0.6667, on 10 queries); ")
    assert ("; it can flip 2 verdicts: mrr, recall@1 (new): 'no significant difference', "
            "but 'new better' with new's tied docs in the best order and old's in the worst; "
            "the sizes are in Comparison.tie_sizes") in warning
    assert "tie_tolerance = 0.001" in warning


def test_a_flip_is_a_warning_whatever_the_tolerance():
    runs, qrels = flip_case()
    result = compare(runs, qrels, ["mrr"], n_resamples=2000, tie_tolerance=1.0)
    [warning] = tie_warnings(result)
    assert warning.startswith("tied scores: the order of tied docs can flip 1 verdict: "
                              "mrr (new): 'no significant difference', but 'new "
                              "better' with new's tied docs in the best order and old's "
                              "in the worst; ")


def test_a_tied_baseline_can_flip_a_significant_verdict():
    """The baseline's relevant doc ties with a non-relevant one at the top: trec_eval's
    rule puts it second (RR 0.5), and the candidate (RR 1 everywhere) is better; with the
    baseline's ties broken for it (RR 1) the two are level."""
    qrels = {f"q{i:02d}": {"gold"} for i in range(N)}
    old = {q: {"junk": 1.0, "gold": 1.0} for q in qrels}
    new = {q: {"gold": 2.0, "junk": 1.0} for q in qrels}
    result = compare({"old": old, "new": new}, qrels, ["mrr"], n_resamples=2000)
    row = result.tie_sizes.loc[("mrr", "new")]
    assert result.tests.loc[("mrr", "new"), "verdict"] == "new better"
    assert row["range"] == 0
    assert row["n_queries_affected"] == 0
    assert row["verdict_optimistic"] == "new better"  # old at its worst: RR 0.5
    assert row["verdict_pessimistic"] == "no significant difference"  # old at its best
    assert row["verdict_can_flip"]
    old_row = result.tie_sizes.loc[("mrr", "old")]
    assert (old_row["low"], old_row["high"], old_row["n_queries_affected"]) == (0.5, 1.0, N)


# -- ties that cannot flip a verdict --------------------------------------------------


def test_ties_below_the_cut_move_nothing():
    runs, qrels = no_flip_case(tied=0)
    result = compare(runs, qrels, ["mrr", "precision@2", "recall@3"], n_resamples=500)
    ties = result.tie_sizes
    assert (ties["range"] == 0).all()
    assert (ties["n_queries_affected"] == 0).all()
    assert not ties["verdict_can_flip"].any()
    new = ties.xs("new", level="system")
    assert (new["verdict_optimistic"] == new["verdict"]).all()
    assert (new["verdict_pessimistic"] == new["verdict"]).all()
    assert new["verdict"].tolist() == ["new better", "new better",
                                       "no significant difference"]  # recall@3: 0.5 both
    assert tie_warnings(result) == []
    assert convention_card(result)["tie sizes"].startswith("no tie moves any value: ")


def test_ties_that_move_a_mean_but_not_the_verdict():
    runs, qrels = no_flip_case(tied=3)
    result = compare(runs, qrels, ["mrr", "precision@2"], n_resamples=500)
    row = result.tie_sizes.loc[("precision@2", "new")]
    # 27 queries at 0.5 (gold, junk); 3 at 0.5 with junk first, 1 with gold2 first.
    assert row["pessimistic"] == pytest.approx(0.5, abs=1e-15)
    assert row["optimistic"] == pytest.approx((27 * 0.5 + 3 * 1.0) / 30, abs=1e-15)
    assert row["range"] == pytest.approx(3 * 0.5 / 30, abs=1e-15)
    assert row["n_queries_affected"] == 3
    assert row["verdict"] == row["verdict_optimistic"] == row["verdict_pessimistic"] \
        == "new better"
    assert not row["verdict_can_flip"]
    assert result.tie_sizes.loc[("mrr", "new"), "range"] == 0
    [warning] = tie_warnings(result)
    assert warning == (
        "tied scores: the order of tied docs moves precision@2 (new) by 0.05 (0.5 to "
        "0.55, on 3 queries); it can flip no verdict; the sizes are in "
        "Comparison.tie_sizes (a warning where a range exceeds tie_tolerance = 0.001 or "
        "a verdict can flip)")


def test_the_warning_around_the_tolerance():
    runs, qrels = no_flip_case(tied=3)
    found = {}
    size = None
    for tolerance in (0.0, 0.049, None, 0.051, 1.0):
        result = compare(runs, qrels, ["mrr", "precision@2"], n_resamples=200,
                         tie_tolerance=tolerance)
        found[tolerance] = len(tie_warnings(result))
        if tolerance == 0.0:
            size = float(result.tie_sizes["range"].max())
    assert found == {0.0: 1, 0.049: 1, None: 0, 0.051: 0, 1.0: 0}
    # Exactly at the range: not beyond it, no warning; a hair below: a warning.
    at = compare(runs, qrels, ["mrr", "precision@2"], n_resamples=200, tie_tolerance=size)
    below = compare(runs, qrels, ["mrr", "precision@2"], n_resamples=200,
                    tie_tolerance=math.nextafter(size, 0.0))
    assert (len(tie_warnings(at)), len(tie_warnings(below))) == (0, 1)


# -- the card and the report ------------------------------------------------------------


def test_the_card_shows_the_tie_sizes():
    runs, qrels = no_flip_case(tied=3)
    result = compare(runs, qrels, ["mrr", "precision@2"], n_resamples=200)
    card = convention_card(result)["tie sizes"]
    assert card == (
        "at most 0.05 (precision@2 of new, 3 queries affected); no verdict can flip: each "
        "mean between the orders of tied docs with relevant ones last and first "
        "(ties=\"pessimistic\", \"optimistic\"); a warning above 0.001")
    runs, qrels = flip_case()
    flips = convention_card(compare(runs, qrels, ["mrr", "recall@1"],
                                    n_resamples=500))["tie sizes"]
    assert flips.startswith("at most 0.3333 (recall@1 of new, 10 queries affected); "
                            "2 verdicts can flip: ")


@pytest.mark.slow
def test_the_report_shows_the_tie_sizes():
    runs, qrels = no_flip_case(tied=3)
    markdown = compare(runs, qrels, ["mrr", "precision@2"], n_resamples=200).to_markdown()
    assert "tie sizes" in markdown
    assert "at most 0.05 (precision@2 of new, 3 queries affected)" in markdown
    assert "tied scores: the order of tied docs moves precision@2 (new) by 0.05" in markdown


def test_tie_tolerance_none_measures_nothing():
    runs, qrels = flip_case()
    result = compare(runs, qrels, ["mrr"], n_resamples=200, tie_tolerance=None)
    assert result.tie_sizes is None
    assert result.tie_tolerance is None
    assert tie_warnings(result) == []
    assert convention_card(result)["tie sizes"] == "not measured (tie_tolerance=None)"


@pytest.mark.parametrize(("tolerance", "error", "message"), [
    (-0.001, InputValueError, ("tie_tolerance must be a finite number >= 0 (or None: do not "
                              "measure the ties), got -0.001")),
    (math.inf, InputValueError, "got inf"),
    (math.nan, InputValueError, "got nan"),
    ("0.001", InputTypeError, "tie_tolerance must be a number or None, got '0.001'"),
    (True, InputTypeError, "got True"),
])
def test_a_bad_tie_tolerance_is_refused(tolerance, error, message):
    runs, qrels = flip_case()
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        compare(runs, qrels, ["mrr"], n_resamples=100, tie_tolerance=tolerance)


# -- other conventions ----------------------------------------------------------------


@pytest.mark.parametrize("rule", ["optimistic", "pessimistic", "average", "input_order"])
def test_the_sizes_do_not_depend_on_the_reported_rule(rule):
    runs, qrels = flip_case()
    default = compare(runs, qrels, ["mrr", "recall@1"], n_resamples=500).tie_sizes
    under = compare(runs, qrels, ["mrr", "recall@1"], n_resamples=500, ties=rule).tie_sizes
    numbers = ["pessimistic", "optimistic", "low", "high", "range", "n_queries_affected"]
    pd.testing.assert_frame_equal(under[numbers], default[numbers])


def test_a_skipped_query_counts_in_neither_mean():
    runs, qrels = flip_case()
    runs["new"] = {q: ranking for q, ranking in runs["new"].items() if q != "q00"}
    result = compare(runs, qrels, ["mrr"], n_resamples=200, missing_from_run="skip")
    row = result.tie_sizes.loc[("mrr", "new")]
    # 29 queries: 9 tied (q01..q09), 20 not.
    assert row["pessimistic"] == pytest.approx(0.5)
    assert row["optimistic"] == pytest.approx((20 * 0.5 + 9) / 29)
    assert row["n_queries_affected"] == 9


def test_a_preset_metric_under_its_own_conventions():
    """ir_measures reads scores as float32, but its RR@k as float64: scores 1 and
    1 + 1e-9 tie in float32 only, so the ties move nDCG@10 and not RR@10."""
    qrels = {f"q{i:02d}": {"gold"} for i in range(N)}
    run = {q: {"junk": 1.0 + 1e-9, "gold": 1.0} for q in qrels}
    result = compare({"a": run, "b": run}, qrels, ["rr@10", "ndcg@10"], n_resamples=200,
                     preset="ir_measures")
    ties = result.tie_sizes
    assert ties.loc[("rr@10", "a"), "n_queries_affected"] == 0
    assert ties.loc[("ndcg@10", "a"), "n_queries_affected"] == N
    for rule in ("pessimistic", "optimistic"):
        rr = evaluate(run, qrels, ["rr@10"], ties=rule, score_precision="float64")
        ndcg = evaluate(run, qrels, ["ndcg@10"], ties=rule, score_precision="float32")
        assert ties.loc[("rr@10", "a"), rule] == pytest.approx(rr.summary["rr@10"], abs=0)
        assert ties.loc[("ndcg@10", "a"), rule] == pytest.approx(ndcg.summary["ndcg@10"],
                                                                 abs=0)


@pytest.mark.parametrize("preset", ["spark", "msmarco"])
def test_presets_that_set_a_tie_rule(preset):
    runs, qrels = flip_case()
    if preset == "msmarco":  # ranks, not scores: no two docs share a place
        runs = {name: {q: list(ranking) for q, ranking in run.items()}
                for name, run in runs.items()}
    result = compare(runs, qrels, ["mrr@10"], n_resamples=200, preset=preset)
    assert result.tie_sizes.loc[("mrr@10", "new"), "n_queries_affected"] == (
        10 if preset == "spark" else 0)


# -- the support demo -----------------------------------------------------------------


@pytest.mark.slow
def test_the_support_demo_bm25_against_dense():
    """The BM25 run has tied scores; the dense one none. Each range is that of
    evaluate's means under the two extreme rules, each verdict that of the randomization
    test on the differences of those per-query values."""
    runs = {"bm25": read_trec_run(DEMO / "runs" / "bm25.tsv"),
            "dense": read_trec_run(DEMO / "runs" / "dense_minilm.tsv")}
    golden = read_golden(DEMO / "golden.csv")
    result = compare(runs, golden, n_resamples=2000)
    metrics, ties = list(result.metrics), result.tie_sizes
    per = {(name, rule): evaluate(run, golden, metrics, ties=rule).per_query
           for name, run in runs.items() for rule in ("pessimistic", "optimistic")}
    for name in runs:
        low, high = per[name, "pessimistic"], per[name, "optimistic"]
        for metric in metrics:
            row = ties.loc[(metric, name)]
            assert row["pessimistic"] == pytest.approx(low[metric].mean(), abs=1e-15)
            assert row["optimistic"] == pytest.approx(high[metric].mean(), abs=1e-15)
            assert row["n_queries_affected"] == int(
                (~np.isclose(low[metric], high[metric], rtol=0, atol=1e-12)).sum())
    assert (ties.xs("dense", level="system")["n_queries_affected"] == 0).all()
    bm25 = ties.xs("bm25", level="system")
    assert (bm25["n_queries_affected"] > 0).sum() >= 5
    assert bm25["range"].max() > 0.001  # above the default tolerance: a warning
    assert len(tie_warnings(result)) == 1

    for pairing, (dense_rule, bm25_rule) in {
        "verdict_optimistic": ("optimistic", "pessimistic"),
        "verdict_pessimistic": ("pessimistic", "optimistic"),
    }.items():
        base = per["bm25", bm25_rule][metrics].to_numpy(np.float64)
        other = per["dense", dense_rule][metrics].to_numpy(np.float64)
        decisions = randomization_verdicts(paired_differences(base, other), alpha=0.05,
                                           correction="holm", n_resamples=2000, seed=0)
        for j, metric in enumerate(metrics):
            verdict = ties.loc[(metric, "dense"), pairing]
            if not decisions.decided[j]:
                assert verdict == UNDECIDED
            elif decisions.significant[j]:
                winner = "dense" if (other[:, j] - base[:, j]).mean() > 0 else "bm25"
                assert verdict == f"{winner} better"
            else:
                assert verdict == "no significant difference"
    flips = ties["verdict_can_flip"].to_numpy()
    expected = ((ties["verdict_optimistic"] != ties["verdict"])
                | (ties["verdict_pessimistic"] != ties["verdict"])).to_numpy()
    assert (flips == (expected & ties["verdict"].notna().to_numpy())).all()
