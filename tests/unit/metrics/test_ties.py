"""``ties="average"`` against brute force: the mean over every order of the tied docs.

Hypothesis draws small collections (a few queries of up to 6 retrieved docs, scores from
three values so that most rankings have ties, grades -1..3 and unjudged docs). For each
query, every order of its tied blocks is written out (the product of each block's
permutations: at most 6! orders) and scored as a plain ranking; the mean over them must
equal what ``ties="average"`` gives, to 1e-9, for every number metric of the table: the
closed forms of ``ragmetrics.metrics.ties`` and the exact sums of
``ragmetrics.metrics.ties_counted`` (infAP, interpolated precision, 11pt_avg, G). The
text measure relstring is refused with an error that names it, and that is checked too.

And the property: each average lies between the values of ``ties="pessimistic"`` and
``ties="optimistic"`` (relevant docs last, first), for the metrics that only reward a
relevant doc for ranking higher. The unjudged counts (unj, judged, RBP's residual) and
the utility are not such metrics: which of two tied non-relevant docs is judged is left to
doc id by both bounds, so the average can fall outside them (an example below). Nor is
infAP: a doc in the pool but unjudged above a relevant one can raise its estimate; nor G,
whose discount depends on how far the gain collected lags the ideal's (examples below).
Nor are gain maps that do not increase with the grade (``2=9`` leaves grade 3 at 3): the
bounds order tied relevant docs by grade.
"""

from __future__ import annotations

import itertools
import math
import random
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragmetrics
from ragmetrics import METRICS, RagmetricsWarning
from ragmetrics.metrics import reference as ref

TOLERANCE = 1e-9
QUERY_IDS = ["q1", "q2", "q3"]
DOC_IDS = ["a", "b", "c", "d", "e", "f", "g", "h"]
GRADES = [-1, 0, 1, 1, 2, 3]
SCORES = [0.0, 1.0, 2.0]

#: Measures with no mean over orders (texts: an error names them under ties="average").
NO_CLOSED_FORM = {"relstring"}
#: Metrics that can fall outside the pessimistic-optimistic range (see the module doc).
NOT_BOUNDED = {"unj", "judged", "utility", "num_nonrel_judged_ret", "rbp_resid", "infap",
               "g"}
#: Gain maps not increasing in the grade (grade 3 keeps its gain 3, below 9 or 5): the
#: bounds order tied relevant docs by grade, not by gain, so they are no best or worst
#: case for these (a tie of grades 2 and 3 under 2=9: "optimistic" puts the 3 first).
NOT_INCREASING_IN_GRADE = {"dcg(1=3,2=9)", "rndcg(2=5)"}


def metric_names(k: int, x: float) -> list[str]:
    """Every number metric of the table, cut at ``k`` (or ``x`` for fractions) where it
    can be, and with its parameters where it has any worth varying."""
    names = []
    for info in METRICS.values():
        if info.kind == "text" or info.name in NO_CLOSED_FORM:
            continue
        cut = f"@{x}" if info.cutoff_kind == "fraction" else f"@{k}"
        if info.cutoff == "required":
            names.append(info.name + cut)
        elif info.cutoff == "optional":
            names += [info.name, info.name + cut]
        else:
            names.append(info.name)
    # Parameters: a DCG base, gain maps, RBP's persistence, F's beta, utility's prices.
    names += ["ndcg(base=10)@3", "dcg(1=3,2=9)", "ndcg(1=0.5,3=7)", "rbp(p=0.5)",
              "rbp_resid(p=0.9)", "rndcg(2=5)", "ndcg_rel(1=2)", "set_f(beta=0.5)",
              "utility(a=2,b=-1,c=0,d=0)"]
    return names


@st.composite
def collections(draw):
    judged = draw(st.lists(st.sampled_from(QUERY_IDS), min_size=1, max_size=3, unique=True))
    qrels = {q: draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(GRADES),
                                     min_size=1, max_size=6))
             for q in judged}
    run = {q: draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(SCORES),
                                   min_size=1, max_size=6))
           for q in judged}
    return qrels, run, draw(st.integers(1, 7)), draw(st.sampled_from([0.0, 0.2, 0.5, 0.75, 1.0]))


def every_order(scores: dict) -> list[list]:
    """Every ranking of the docs by score descending, tied docs in every order."""
    blocks = [[doc for doc in scores if scores[doc] == value]
              for value in sorted(set(scores.values()), reverse=True)]
    return [[doc for block in chosen for doc in block]
            for chosen in itertools.product(*(itertools.permutations(b) for b in blocks))]


def quiet_evaluate(run, qrels, metrics, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)  # empty golden sets are drawn
        return ragmetrics.evaluate(run, qrels, metrics, **options)


def brute_force(qrels, run, names):
    """Per query, each metric's mean over every order: one evaluation of every order at
    once, each order a query of its own (``q1#0``, ``q1#1``, ...) with q1's judgments."""
    orders, judgments = {}, {}
    for query, scores in run.items():
        for i, ranking in enumerate(every_order(scores)):
            orders[f"{query}#{i}"] = ranking
            judgments[f"{query}#{i}"] = qrels[query]
    frame = quiet_evaluate(orders, judgments, names).per_query
    return frame.groupby(frame.index.str.split("#").str[0]).mean()


def test_every_order_enumerates_the_tied_blocks_only():
    orders = every_order({"a": 1.0, "b": 2.0, "c": 1.0, "d": 0.0})
    assert orders == [["b", "a", "c", "d"], ["b", "c", "a", "d"]]
    assert len(every_order(dict.fromkeys("abcdef", 0.0))) == math.factorial(6)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collection=collections())
def test_average_is_the_mean_over_every_order_of_the_tied_docs(collection):
    qrels, run, k, x = collection
    names = metric_names(k, x)
    got = quiet_evaluate(run, qrels, names, ties="average").per_query
    expected = brute_force(qrels, run, names)
    for query in run:
        for name in names:
            a, b = got.loc[query, name], expected.loc[query, name]
            assert abs(a - b) <= TOLERANCE * max(1.0, abs(b)), (
                f"{name} of {query}: ties='average' {a!r}, mean over every order {b!r}; "
                f"run {run[query]}, judgments {qrels[query]}")


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collection=collections())
def test_average_lies_between_pessimistic_and_optimistic(collection):
    qrels, run, k, x = collection
    names = [n for n in metric_names(k, x)
             if n.split("@")[0].split("(")[0] not in NOT_BOUNDED
             and n not in NOT_INCREASING_IN_GRADE]
    low, mid, high = (quiet_evaluate(run, qrels, names, ties=t).per_query
                      for t in ("pessimistic", "average", "optimistic"))
    slack = 1e-12
    bad = [(q, n, low.loc[q, n], mid.loc[q, n], high.loc[q, n])
           for q in run for n in names
           if not low.loc[q, n] - slack <= mid.loc[q, n] <= high.loc[q, n] + slack]
    assert not bad, bad[:5]


def test_a_hand_sized_average():
    """Two tied docs, one relevant: RR is (1 + 1/2) / 2, DCG@1 is the mean gain 1/2, and
    AP with one more relevant doc below is the mean of its two orders."""
    run, qrels = {"q": {"x": 1.0, "a": 1.0, "b": 0.5}}, {"q": {"a": 1, "b": 1}}
    row = quiet_evaluate(run, qrels, ["rr", "dcg@1", "ap"], ties="average").per_query.loc["q"]
    assert row["rr"] == pytest.approx(0.75, abs=1e-15)
    assert row["dcg@1"] == pytest.approx(0.5, abs=1e-15)
    ap_a_first = (1 / 1 + 2 / 3) / 2  # a, x, b
    ap_x_first = (1 / 2 + 2 / 3) / 2  # x, a, b
    assert row["ap"] == pytest.approx((ap_a_first + ap_x_first) / 2, abs=1e-15)


def test_the_unjudged_share_can_fall_outside_both_bounds():
    """x (unjudged) and n (judged 0) tie at the top: both bounds rank them by doc id
    descending (x, n), so unj@1 is 1 under both, while the average over both orders is 1/2."""
    run, qrels = {"q": {"x": 1.0, "n": 1.0, "a": 0.5}}, {"q": {"n": 0, "a": 1}}
    values = [quiet_evaluate(run, qrels, ["unj@1"], ties=t).per_query.loc["q", "unj@1"]
              for t in ("pessimistic", "average", "optimistic")]
    assert values == [1.0, 0.5, 1.0]


def test_infap_can_rise_when_relevant_docs_rank_lower():
    """d (outside the pool) heads the ranking; a (in the pool, unjudged), b and c
    (relevant) tie below it. With a above b and c ("pessimistic"), b's estimate of the
    precision above it is p/j = 1/2 times the smoothed (0 + eps) / (0 + 2 eps) = 1/2;
    with a below them ("optimistic"), no pool doc is above b and its estimate is 0. So
    infAP is higher for the lower bound (0.625 against 0.583); the mean over the six
    orders lies between the two here, the bounds swapped."""
    run = {"q": {"d": 1.0, "a": 0.0, "b": 0.0, "c": 0.0}}
    qrels = {"q": {"a": -1, "b": 1, "c": 1}}
    low, mid, high = (quiet_evaluate(run, qrels, ["infap"], ties=t).per_query.loc["q", "infap"]
                      for t in ("pessimistic", "average", "optimistic"))
    eps = 1e-5
    b_third, c_fourth = 1 / 3 + 1 / 3 * 0.5, 1 / 4 + 1 / 2 * (1 + eps) / (1 + 2 * eps)
    b_second, c_third = 1 / 2, 1 / 3 + 1 / 3 * (1 + eps) / (1 + 2 * eps)
    assert low == pytest.approx((b_third + c_fourth) / 2, abs=1e-15)
    assert high == pytest.approx((b_second + c_third) / 2, abs=1e-15)
    assert high < mid < low
    assert mid == pytest.approx(brute_force(qrels, run, ["infap"]).loc["q", "infap"],
                                abs=1e-15)


def test_g_can_prefer_the_lower_grade_first():
    """G divides each gain by log2(2 + ideal cost - gain collected): a high grade taken
    early can leave the docs after it further behind the ideal's pace, so the
    "optimistic" order (higher grades first in each tie) scores lower than the
    "pessimistic" one here, and the exact mean over the 12 orders lies between them."""
    run = {"q": {"a": 1.0, "c": 1.0, "b": 0.0, "d": 0.0, "e": 0.0}}
    qrels = {"q": {"a": 1, "b": 2, "c": 1, "d": 2, "e": 3}}
    low, mid, high = (quiet_evaluate(run, qrels, ["g"], ties=t).per_query.loc["q", "g"]
                      for t in ("pessimistic", "average", "optimistic"))
    assert high < mid < low
    assert mid == pytest.approx(brute_force(qrels, run, ["g"]).loc["q", "g"], abs=1e-15)


def test_under_a_gain_map_not_increasing_in_the_grade_the_bounds_swap():
    """c (grade 2, gain 9 under 2=9) and f (grade 3, gain 3) tie: "optimistic" ranks the
    higher grade first, f, which is the lower DCG here; the average is their midpoint."""
    run, qrels = {"q": {"c": 1.0, "f": 1.0}}, {"q": {"c": 2, "f": 3}}
    low, mid, high = (quiet_evaluate(run, qrels, ["dcg(2=9)"], ties=t).per_query.iloc[0, 0]
                      for t in ("pessimistic", "average", "optimistic"))
    lg3 = math.log2(3)
    assert (low, high) == (pytest.approx(9 + 3 / lg3), pytest.approx(3 + 9 / lg3))
    assert mid == pytest.approx((low + high) / 2)


@pytest.mark.parametrize("name", ["relstring"])
def test_a_text_measure_is_refused_by_name(name):
    with pytest.raises(ValueError, match=rf"ties='average' has no mean .* for '{name}'"):
        ragmetrics.evaluate({"q": {"a": 1.0}}, {"q": {"a": 1}}, [name], ties="average")


#: Rankings with nothing left to rank: every doc unjudged and removed, a run that only
#: retrieves for unjudged queries, and an empty run (ids of the judged query only).
EMPTY_RANKINGS = {
    "every doc removed": ({"q": {"x": 1.0, "y": 1.0}}, {"unjudged": "removed"}),
    "no judged query in the run": ({"other": {"a": 1.0, "b": 1.0}}, {}),
    "an empty run": ({}, {}),
}


@pytest.mark.parametrize("case", EMPTY_RANKINGS)
def test_an_empty_ranking_scores_under_average_ties_as_under_trec_eval_ties(case):
    # Nothing to average over: each metric takes its value for an empty ranking (0 for
    # most), as under trec_eval's tie order (ERR raised a TypeError here).
    run, options = EMPTY_RANKINGS[case]
    qrels, names = {"q": {"a": 1, "b": 2}}, metric_names(3, 0.5)
    averaged = quiet_evaluate(run, qrels, names, ties="average", **options).per_query
    plain = quiet_evaluate(run, qrels, names, **options).per_query
    assert list(averaged.index) == list(plain.index) == ["q"]
    for name in names:
        assert averaged.loc["q", name] == plain.loc["q", name], name
    assert averaged.loc["q", "err"] == 0.0


def test_err_averaged_over_the_orders_of_a_tie_by_hand():
    # a (grade 1) and b (grade 2) tied at the top, g_max 2: R_a = 1/4, R_b = 3/4.
    # a first: 1/4 + (3/4)(3/4)/2 = 0.53125; b first: 3/4 + (1/4)(1/4)/2 = 0.78125.
    run, qrels = {"q": {"a": 1.0, "b": 1.0, "x": 0.5}}, {"q": {"a": 1, "b": 2}}
    row = quiet_evaluate(run, qrels, ["err", "err@1"], ties="average").per_query.loc["q"]
    assert row["err"] == pytest.approx((0.53125 + 0.78125) / 2, abs=1e-15)
    assert row["err@1"] == pytest.approx((0.25 + 0.75) / 2, abs=1e-15)  # the first place only


def test_err_average_over_a_large_tie_stays_a_probability():
    # 400 tied docs, half of them grade 4: the subset means stay in [0, 1], no overflow.
    docs = {f"d{i}": 1.0 for i in range(400)}
    qrels = {"q": {f"d{i}": 4 * (i % 2) for i in range(400)}}
    value = quiet_evaluate({"q": docs}, qrels, ["err"], ties="average").per_query.loc["q", "err"]
    low, high = (quiet_evaluate({"q": docs}, qrels, ["err"], ties=t).per_query.loc["q", "err"]
                 for t in ("pessimistic", "optimistic"))
    assert low <= value <= high
    assert 0.0 < value < 1.0


def distinct_orders(block: list) -> set[tuple]:
    return set(itertools.permutations(block))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_the_counted_means_on_blocks_of_eight_against_every_distinct_order(seed):
    """Blocks larger than Hypothesis draws: a fixed head, a tie of 8 docs of mixed kinds
    (relevant at two grades, judged non-relevant, in the pool unjudged, outside the
    pool), a fixed tail; the plain-Python reference functions score each distinct order
    of the tie (up to 8!/(2!)^4 = 2,520 of them), and their mean is what
    ``ties="average"`` must give for infAP, interpolated precision, 11pt_avg and G."""
    rng = random.Random(seed)
    kinds = ["r1", "r1", "r2", "r2", "n", "n", "u", "o"]
    rng.shuffle(kinds)
    grade_of = {"r1": 1, "r2": 2, "n": 0, "u": -1}
    tie = [f"t{i}" for i in range(8)]
    head, tail = ["h0", "h1"], ["z0", "z1"]
    qrels = {doc: grade_of[kind] for doc, kind in zip(tie, kinds, strict=True) if kind != "o"}
    qrels |= {"h0": 1, "h1": 0, "z0": 2, "x": 1}  # x: relevant, never retrieved
    scores = {"h0": 3.0, "h1": 2.0, **dict.fromkeys(tie, 1.0), "z0": 0.5, "z1": 0.0}
    measures = {
        "infap": ref.infap,
        "iprec_at_recall@0.4": lambda ranking, judged: ref.iprec_at_recall(ranking, judged, 0.4),
        "iprec_at_recall@0.9": lambda ranking, judged: ref.iprec_at_recall(ranking, judged, 0.9),
        "11pt_avg": ref.eleven_point_average,
        "g": ref.g_measure,
        "g(1=3,2=0.5)": lambda ranking, judged: ref.g_measure(ranking, judged,
                                                              gains=((1, 3.0), (2, 0.5))),
    }
    # Docs of one kind are interchangeable for these measures: one order per arrangement
    # of the kinds, each standing for the same number of orders of the docs.
    by_kind = {}
    for doc, kind in zip(tie, kinds, strict=True):
        by_kind.setdefault(kind, []).append(doc)
    expected = dict.fromkeys(measures, 0.0)
    arrangements = distinct_orders(kinds)
    for arrangement in arrangements:
        pools = {kind: list(docs) for kind, docs in by_kind.items()}
        ranking = head + [pools[kind].pop() for kind in arrangement] + tail
        for name, measure in measures.items():
            expected[name] += measure(ranking, qrels) / len(arrangements)
    got = quiet_evaluate({"q": scores}, {"q": qrels}, list(measures),
                         ties="average").per_query.loc["q"]
    for name in measures:
        assert got[name] == pytest.approx(expected[name], abs=1e-12), name


def test_a_block_too_large_to_sum_exactly_is_refused_with_its_size():
    """1,000 tied docs, 100 of them relevant: interpolated precision's exact sum would
    take billions of terms, so the call stops at once with an error that says why."""
    run = {"q": {f"d{i}": 1.0 for i in range(1000)}}
    qrels = {"q": {f"d{i}": 1 for i in range(100)}}
    with pytest.raises(ValueError, match=r"block of 1,000 tied docs \(from rank 1 of query "
                       r"'q'\) .* more than the 5e\+07"):
        ragmetrics.evaluate(run, qrels, ["iprec_at_recall@0.5"], ties="average")
    # The same block is summed for infAP (its sum grows as n^3/27, not n^3 m^2/4).
    value = quiet_evaluate(run, qrels, ["infap"], ties="average").per_query.iloc[0, 0]
    low, high = (quiet_evaluate(run, qrels, ["infap"], ties=t).per_query.iloc[0, 0]
                 for t in ("pessimistic", "optimistic"))
    assert low < value < high


def test_the_too_large_error_survives_a_worker_process():
    """compare(..., jobs=2) sends errors back from worker processes by pickling them."""
    import pickle

    from ragmetrics.metrics.ties_counted import TieBlockTooLarge

    error = TieBlockTooLarge("G", 3, 0, 1000, 6e7).naming("q7")
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error)
    assert "query 'q7'" in str(again)


def test_an_average_whose_exact_value_is_a_bound_is_the_bound():
    # Recall under ties="average" adds each tied relevant doc's chance to be in the top k;
    # here d4 is one of three docs tied for ranks 5-7 and all three places are within
    # k = 7: chances 1/3 + 1/3 + 1/3 summed in floats gave 1.0000000000000002, outside the
    # bound that compare checks. Values within rounding of a bound are put on it.
    run = {"q": {"d0": 2.0, "d1": 0.0, "d2": 0.0, "d3": 2.0, "d4": 0.0, "d5": 1.0,
                 "d6": 1.0}}
    qrels = {"q": {"d3": 1, "d4": 1, "d0": 2}}
    value = quiet_evaluate(run, qrels, ["recall@7"], ties="average").per_query.loc["q"]
    assert value["recall@7"] == 1.0
