"""Hypothesis properties of the per-query metrics, checked against a reference written here.

The reference below is deliberately plain and shares no code with ragmetrics: it works from
the 1-based ranks of the relevant docs, the way the formulas are usually written on paper.
Every property that compares numbers allows for float summation order only.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics import (
    METRICS,
    average_precision,
    dcg_at_k,
    hit_rate_at_k,
    mrr,
    ndcg_at_k,
    parse_metric,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)

# The suite runs on 2 shared cores: 100 examples per property, 200 where the library is
# compared number for number with the reference.
PROPERTY = settings(max_examples=100, deadline=None)
AGAINST_REFERENCE = settings(max_examples=200, deadline=None)


def close(value: float):
    return pytest.approx(value, rel=1e-9, abs=1e-12)


# --- the reference ----------------------------------------------------------------------


def ref_relevant_ranks(ranking, relevant_ids, k=None):
    """1-based ranks, within the top ``k``, of the docs in ``relevant_ids``."""
    depth = len(ranking) if k is None else k
    return [
        rank for rank, doc in enumerate(ranking, start=1) if rank <= depth and doc in relevant_ids
    ]


def ref_recall(ranking, relevant_ids, k):
    return len(ref_relevant_ranks(ranking, relevant_ids, k)) / len(relevant_ids)


def ref_precision(ranking, relevant_ids, k):
    return len(ref_relevant_ranks(ranking, relevant_ids, k)) / k


def ref_hit_rate(ranking, relevant_ids, k):
    return 1.0 if ref_relevant_ranks(ranking, relevant_ids, k) else 0.0


def ref_reciprocal_rank(ranking, relevant_ids, k=None):
    ranks = ref_relevant_ranks(ranking, relevant_ids, k)
    return 1 / ranks[0] if ranks else 0.0


def ref_average_precision(ranking, relevant_ids, k=None):
    # The n-th relevant doc found, at rank r, contributes Precision@r = n / r.
    ranks = ref_relevant_ranks(ranking, relevant_ids, k)
    return sum(n / r for n, r in enumerate(ranks, start=1)) / len(relevant_ids)


def ref_r_precision(ranking, relevant_ids):
    big_r = len(relevant_ids)
    return len(ref_relevant_ranks(ranking, relevant_ids, big_r)) / big_r


def ref_gain(grade, gain):
    if grade <= 0:
        return 0.0
    return grade if gain == "linear" else 2**grade - 1


def ref_dcg(ranking, grades, k, gain="linear"):
    return sum(
        ref_gain(grades.get(doc, 0), gain) / math.log2(rank + 1)
        for rank, doc in enumerate(ranking[:k], start=1)
    )


def ref_ndcg(ranking, grades, k, gain="linear"):
    # The ideal ranking orders every judged doc by gain, retrieved or not.
    ideal_ranking = sorted(grades, key=lambda doc: ref_gain(grades[doc], gain), reverse=True)
    ideal = ref_dcg(ideal_ranking, grades, k, gain)
    return ref_dcg(ranking, grades, k, gain) / ideal if ideal > 0 else 0.0


# --- strategies -------------------------------------------------------------------------

DOC_IDS = st.integers(min_value=0, max_value=24)
rankings = st.lists(DOC_IDS, unique=True, max_size=15)
nonempty_rankings = st.lists(DOC_IDS, unique=True, min_size=1, max_size=15)
golden_sets = st.sets(DOC_IDS, min_size=1, max_size=10)
graded_golden_sets = st.dictionaries(DOC_IDS, st.integers(min_value=-1, max_value=3), max_size=10)
ks = st.integers(min_value=1, max_value=20)
gains = st.sampled_from(["linear", "exponential"])


#: The metrics compared with the reference here, by label: their names in evaluate,
#: ``{k}`` standing for the cut-off.
BINARY = {"recall": "recall@{k}", "precision": "precision@{k}", "hit_rate": "hit_rate@{k}",
          "rr@k": "rr@{k}", "rr": "rr", "ap@k": "ap@{k}", "ap": "ap",
          "r_precision": "r_precision", "ndcg": "ndcg@{k}", "dcg": "dcg@{k}"}


def score(name: str, ranking, relevant):
    """One query's value of the metric ``name`` by the reference function of its row of
    the metric table."""
    spec = parse_metric(name)
    return spec.info.score_one(ranking, relevant, spec.k)


def binary_scores(ranking, relevant, k):
    """Every metric of :data:`BINARY` at cut-off ``k``, by label."""
    return {label: score(name.format(k=k), ranking, relevant) for label, name in BINARY.items()}


#: Every row of the metric table with a cut-off that is a rank (recall@k, ERR@k, ...).
CUT_AT_A_RANK = [info for info in METRICS.values()
                 if info.cutoff != "none" and info.cutoff_kind == "rank"]


# --- agreement with the reference -------------------------------------------------------


@AGAINST_REFERENCE
@given(ranking=rankings, relevant=golden_sets, k=ks)
def test_binary_metrics_agree_with_the_reference(ranking, relevant, k):
    got = binary_scores(ranking, relevant, k)
    assert got["recall"] == close(ref_recall(ranking, relevant, k))
    assert got["precision"] == close(ref_precision(ranking, relevant, k))
    assert got["hit_rate"] == ref_hit_rate(ranking, relevant, k)
    assert got["rr@k"] == close(ref_reciprocal_rank(ranking, relevant, k))
    assert got["rr"] == close(ref_reciprocal_rank(ranking, relevant))
    assert got["ap@k"] == close(ref_average_precision(ranking, relevant, k))
    assert got["ap"] == close(ref_average_precision(ranking, relevant))
    assert got["r_precision"] == close(ref_r_precision(ranking, relevant))
    assert got["ndcg"] == close(ref_ndcg(ranking, dict.fromkeys(relevant, 1), k))
    assert got["dcg"] == close(
        sum(1 / math.log2(r + 1) for r in ref_relevant_ranks(ranking, relevant, k))
    )


@AGAINST_REFERENCE
@given(ranking=rankings, grades=graded_golden_sets, k=ks, gain=gains)
def test_graded_ndcg_agrees_with_the_reference(ranking, grades, k, gain):
    assert ndcg_at_k(ranking, grades, k, gain=gain) == close(ref_ndcg(ranking, grades, k, gain))
    assert dcg_at_k(ranking, grades, k, gain=gain) == close(ref_dcg(ranking, grades, k, gain))


@PROPERTY
@given(queries=st.lists(st.tuples(rankings, st.sets(DOC_IDS, max_size=6)), min_size=1, max_size=6))
def test_mrr_is_the_mean_reciprocal_rank_of_the_answerable_queries_under_skip(queries):
    answerable = [(ranking, relevant) for ranking, relevant in queries if relevant]
    got = mrr(queries, empty_relevant="skip")
    if not answerable:
        assert math.isnan(got)
    else:
        by_reference = [ref_reciprocal_rank(ranking, relevant) for ranking, relevant in answerable]
        assert got == close(sum(by_reference) / len(by_reference))
    # Under "zero" an empty query counts, as 0.
    all_queries = [ref_reciprocal_rank(r, rel) if rel else 0.0 for r, rel in queries]
    assert mrr(queries) == close(sum(all_queries) / len(all_queries))


# --- bounds and identities --------------------------------------------------------------


@PROPERTY
@given(
    ranking=rankings,
    grades=graded_golden_sets,
    k=ks,
    gain=gains,
    empty_relevant=st.sampled_from(["zero", "article"]),
)
def test_every_normalised_metric_is_in_0_1(ranking, grades, k, gain, empty_relevant):
    policy = {"empty_relevant": empty_relevant}
    scores = [
        recall_at_k(ranking, grades, k, **policy),
        precision_at_k(ranking, grades, k, **policy),
        hit_rate_at_k(ranking, grades, k, **policy),
        reciprocal_rank(ranking, grades, k, **policy),
        average_precision(ranking, grades, k, **policy),
        r_precision(ranking, grades, **policy),
        ndcg_at_k(ranking, grades, k, gain=gain, **policy),
    ]
    assert all(0.0 <= score <= 1.0 for score in scores), scores


@PROPERTY
@given(ranking=rankings, relevant=golden_sets)
def test_recall_never_decreases_as_k_grows(ranking, relevant):
    recalls = [recall_at_k(ranking, relevant, k) for k in range(1, len(ranking) + 3)]
    assert recalls == sorted(recalls)


@PROPERTY
@given(ranking=rankings, relevant=golden_sets, k=ks)
def test_precision_times_k_equals_hits_equals_recall_times_num_relevant(ranking, relevant, k):
    hits = len(set(ranking[:k]) & relevant)
    assert precision_at_k(ranking, relevant, k) * k == close(hits)
    assert recall_at_k(ranking, relevant, k) * len(relevant) == close(hits)


@PROPERTY
@given(ranking=rankings, relevant=golden_sets, k=ks)
def test_hit_rate_is_whether_recall_is_positive(ranking, relevant, k):
    recall = recall_at_k(ranking, relevant, k)
    assert hit_rate_at_k(ranking, relevant, k) == (1.0 if recall > 0 else 0.0)


@PROPERTY
@given(ranking=rankings, relevant=golden_sets)
def test_r_precision_equals_recall_and_precision_at_r(ranking, relevant):
    big_r = len(relevant)
    r_prec = r_precision(ranking, relevant)
    assert r_prec == close(recall_at_k(ranking, relevant, big_r))
    assert r_prec == close(precision_at_k(ranking, relevant, big_r))


@PROPERTY
@given(ranking=nonempty_rankings, relevant=golden_sets)
def test_uncut_metrics_equal_their_cut_at_the_ranking_length(ranking, relevant):
    depth = len(ranking)
    assert reciprocal_rank(ranking, relevant) == reciprocal_rank(ranking, relevant, k=depth)
    assert average_precision(ranking, relevant) == average_precision(ranking, relevant, k=depth)


@PROPERTY
@given(
    ranking=rankings,
    grades=st.dictionaries(DOC_IDS, st.sampled_from([-1, 0, 1]), max_size=10),
    k=ks,
)
def test_exponential_gain_equals_linear_gain_for_binary_grades(ranking, grades, k):
    # 2**1 - 1 = 1 and 2**0 - 1 = 0; negative grades add nothing under either.
    linear = ndcg_at_k(ranking, grades, k, gain="linear")
    assert ndcg_at_k(ranking, grades, k, gain="exponential") == close(linear)
    linear_dcg = dcg_at_k(ranking, grades, k, gain="linear")
    assert dcg_at_k(ranking, grades, k, gain="exponential") == close(linear_dcg)


@PROPERTY
@given(
    ranking=rankings,
    grades=graded_golden_sets,
    k=ks,
    scale=st.floats(min_value=1e-3, max_value=1e3, allow_nan=False, allow_infinity=False),
)
def test_linear_ndcg_is_invariant_to_scaling_grades(ranking, grades, k, scale):
    # DCG and ideal DCG are both linear in the grades, so a positive factor cancels.
    scaled = {doc: grade * scale for doc, grade in grades.items()}
    assert ndcg_at_k(ranking, scaled, k) == close(ndcg_at_k(ranking, grades, k))


# --- invariances ------------------------------------------------------------------------


@PROPERTY
@given(
    ranking=rankings,
    relevant=golden_sets,
    k=ks,
    extra=st.lists(st.integers(100, 200), unique=True, max_size=10),
)
def test_appending_irrelevant_ids_changes_nothing(ranking, relevant, k, extra):
    # extra ids (100-200) are never relevant: they add no hit, at any depth.
    assert binary_scores(ranking + extra, relevant, k) == binary_scores(ranking, relevant, k)


@PROPERTY
@given(ranking=rankings, relevant=golden_sets, k=ks, tail=st.lists(DOC_IDS, max_size=10))
def test_appending_any_ids_below_rank_k_changes_nothing_at_k(ranking, relevant, k, tail):
    # Pad the ranking to k with never-relevant ids, then append ids that may be relevant:
    # every metric of the table cut at a rank reads the top k alone.
    top = ranking[:k] + [100 + i for i in range(k - len(ranking[:k]))]
    below = [doc for doc in dict.fromkeys(tail) if doc not in top]
    for info in CUT_AT_A_RANK:
        assert info.score_one(top + below, relevant, k) == info.score_one(top, relevant, k), (
            info.name)


@PROPERTY
@given(
    ranking=rankings,
    relevant=st.lists(DOC_IDS, min_size=1, max_size=10, unique=True),
    k=ks,
    data=st.data(),
)
def test_permuting_the_golden_set_changes_nothing(ranking, relevant, k, data):
    shuffled = data.draw(st.permutations(relevant))
    assert binary_scores(ranking, shuffled, k) == binary_scores(ranking, relevant, k)
    assert binary_scores(ranking, tuple(shuffled), k) == binary_scores(ranking, set(relevant), k)
    grades = {doc: (i % 3) + 1 for i, doc in enumerate(relevant)}
    reordered = {doc: grades[doc] for doc in shuffled}  # same grades, other insertion order
    assert ndcg_at_k(ranking, reordered, k) == ndcg_at_k(ranking, grades, k)


# --- moving a relevant doc up -----------------------------------------------------------


@PROPERTY
@given(
    ranking=st.lists(DOC_IDS, unique=True, min_size=2, max_size=15),
    others=st.sets(DOC_IDS, max_size=8),
    k=ks,
    data=st.data(),
)
def test_moving_a_relevant_doc_up_never_lowers_ndcg_rr_or_ap(ranking, others, k, data):
    # Take the relevant doc at position j and reinsert it at position i < j: every doc in
    # between slides down one, but the count of relevant docs in every top-m never drops.
    j = data.draw(st.integers(min_value=1, max_value=len(ranking) - 1), label="from")
    i = data.draw(st.integers(min_value=0, max_value=j - 1), label="to")
    relevant = others | {ranking[j]}
    moved = [*ranking[:i], ranking[j], *ranking[i:j], *ranking[j + 1 :]]
    for metric, cut in [
        (ndcg_at_k, k),
        (reciprocal_rank, k),
        (reciprocal_rank, None),
        (average_precision, k),
        (average_precision, None),
    ]:
        before, after = metric(ranking, relevant, cut), metric(moved, relevant, cut)
        assert after >= before - 1e-12, (metric.__name__, cut, before, after)


@PROPERTY
@given(
    ranking=st.lists(DOC_IDS, unique=True, min_size=2, max_size=15),
    grades=graded_golden_sets,
    k=ks,
    gain=gains,
    data=st.data(),
)
def test_swapping_a_higher_grade_up_never_lowers_graded_ndcg(ranking, grades, k, gain, data):
    j = data.draw(st.integers(min_value=1, max_value=len(ranking) - 1), label="lower position")
    i = data.draw(st.integers(min_value=0, max_value=j - 1), label="upper position")
    swapped = list(ranking)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    # "worse" has the lower-graded of the two docs at position i, "better" the higher.
    upper_grade = grades.get(ranking[i], 0)
    lower_grade = grades.get(ranking[j], 0)
    worse, better = (ranking, swapped) if upper_grade <= lower_grade else (swapped, ranking)
    before = ndcg_at_k(worse, grades, k, gain=gain)
    assert ndcg_at_k(better, grades, k, gain=gain) >= before - 1e-12


# --- perfect rankings -------------------------------------------------------------------


@PROPERTY
@given(
    relevant=golden_sets,
    noise=st.lists(st.integers(100, 200), unique=True, max_size=10),
    k=ks,
    data=st.data(),
)
def test_a_perfect_ranking_scores_1(relevant, noise, k, data):
    # Every relevant doc first, in any order, then irrelevant ones.
    ranking = data.draw(st.permutations(sorted(relevant))) + noise
    n_rel = len(relevant)
    assert recall_at_k(ranking, relevant, n_rel) == 1.0
    assert precision_at_k(ranking, relevant, n_rel) == 1.0
    assert ndcg_at_k(ranking, relevant, k) == close(1.0)
    assert average_precision(ranking, relevant) == close(1.0)
    assert reciprocal_rank(ranking, relevant) == 1.0
    assert r_precision(ranking, relevant) == 1.0


@PROPERTY
@given(grades=graded_golden_sets.filter(lambda g: any(v > 0 for v in g.values())), k=ks, gain=gains)
def test_ranking_by_grade_gives_graded_ndcg_1(grades, k, gain):
    # Best grade first (ties in any order); judged-irrelevant docs last.
    ranking = sorted(grades, key=grades.get, reverse=True)
    assert ndcg_at_k(ranking, grades, k, gain=gain) == close(1.0)


# --- every row of the metric table stays within its bounds ------------------------------

#: Parameters worth varying, by metric (the others take their defaults): DCG bases, gain
#: maps with gains above 1, below 0 and out of order, RBP's persistence, F's beta.
BOUNDS_PARAMETERS = ["ndcg(base=10)", "ndcg(1=0.5,3=7)", "ndcg(0=1,1=3)", "ndcg(2=-3)",
                     "rndcg(2=5)", "rndcg(4=-1)", "ndcg_rel(1=2)", "ndcg_rel(2=-3)",
                     "g(1=3,2=9)", "g(2=-2)", "rbp(p=0.5)", "rbp(p=0.99)",
                     "rbp_resid(p=0.8)", "set_f(beta=0.5)", "err(1=0.2,2=0.6,3=0.9,4=1)",
                     "err(max_grade=5)"]


def bounded_metric_names(k: int, x: float) -> list[str]:
    """Every number metric of the table, cut at ``k`` (``x`` for fractions) where it
    can be, and uncut where it can be, with the parameters above."""
    from ragmetrics import METRICS

    names = []
    for info in METRICS.values():
        if info.kind == "text":
            continue
        cut = f"@{x}" if info.cutoff_kind == "fraction" else f"@{k}"
        if info.cutoff in ("required", "optional"):
            names.append(info.name + cut)
        if info.cutoff in ("optional", "none"):
            names.append(info.name)
    return names + BOUNDS_PARAMETERS


@st.composite
def judged_runs(draw):
    docs = [f"d{i}" for i in range(8)]
    queries = draw(st.lists(st.sampled_from(["q1", "q2", "q3"]), min_size=1, max_size=3,
                            unique=True))
    grades = st.sampled_from([-1, 0, 0.5, 1, 1, 2, 3, 4])
    qrels = {q: draw(st.dictionaries(st.sampled_from(docs), grades, min_size=1, max_size=8))
             for q in queries}
    run = {q: draw(st.dictionaries(st.sampled_from(docs), st.sampled_from([0.0, 0.5, 1.0, 2.0]),
                                   max_size=8))
           for q in draw(st.lists(st.sampled_from(["q1", "q2", "q3", "q4"]), max_size=4,
                                  unique=True))}
    options = {
        "ties": draw(st.sampled_from(["trec_eval", "average", "pessimistic", "optimistic"])),
        "empty_relevant": draw(st.sampled_from(["zero", "article", "skip"])),
        "relevance_level": draw(st.sampled_from([1, 2])),
        "unjudged": draw(st.sampled_from(["nonrelevant", "removed"])),
    }
    return run, qrels, draw(st.integers(1, 9)), draw(st.sampled_from([0.1, 0.5, 1.0])), options


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(case=judged_runs())
def test_every_metric_of_the_table_stays_within_its_bounds(case):
    # The table's lower_bound and upper_bound are promises that reports, plots and the
    # statistics rely on (a value of 1.0000000000000002 is refused by compare's bound
    # check): every row, every policy, every tie rule, exactly. (Found so far: negative
    # gains below 0; rbp_resid, and recall under ties="average", an ulp above 1.)
    import warnings

    from ragmetrics import RagmetricsWarning, evaluate, parse_metric

    run, qrels, k, x, options = case
    names = bounded_metric_names(k, x)
    if options["ties"] == "average":
        names = [name for name in names if parse_metric(name).info.average_ties]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        frame = evaluate(run, qrels, names, **options).per_query
    for name in names:
        low, high = parse_metric(name).bounds
        values = frame[name].to_numpy(float)
        inside = [math.isnan(v) or low <= v <= high for v in values]
        assert all(inside), (f"{name}: {values.tolist()} outside [{low}, {high}] under "
                             f"{options}; run {run}, qrels {qrels}")
