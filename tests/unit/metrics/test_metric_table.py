"""Every row of the metric table, one test for them all (scikit-learn's ``test_common``).

For each row of :data:`ragmetrics.METRICS`, on small queries written here and on queries
Hypothesis draws: the row's array kernel (through :func:`ragmetrics.evaluate`) equals the
row's per-query reference function (``info.reference``, through ``info.score_one``)
under every ``empty_relevant`` policy ("zero", "article", "skip", "error"); the values
lie within the row's bounds; and a query with no relevant doc scores the row's
``article_value`` under "article". Each row with parameters is checked with at least one
value of each (:data:`WITH_PARAMETERS`), and a row added to the table is checked without
a line here (its parameters must be added to :data:`WITH_PARAMETERS`: a test says so).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics import METRICS, RagmetricsWarning, evaluate, parse_metric
from ragmetrics.errors import InputValueError

POLICIES = ("zero", "article", "skip", "error")

#: Metric names with parameters other than the defaults, by row: at least one value of
#: each parameter of each row (gain maps with gains above 1, of 0, below 0, for grade 0).
WITH_PARAMETERS = {
    "ndcg": ["ndcg(base=10)@3", "ndcg(1=3,2=9,4=4.5)@3", "ndcg(0=1,2=-3)"],
    "dcg": ["dcg(base=3)", "dcg(1=3,2=9)@2"],
    "idcg": ["idcg(base=10)@3", "idcg(0=1,1=3)"],
    "11pt_avg": ["11pt_avg(0.2,0.5,0.8)"],
    "err": ["err(max_grade=20)@4", "err(1=0.2,2=0.6,3=0.9,4=1)"],
    "rbp": ["rbp(p=0.5)@5", "rbp(1=0.5,2=3)", "rbp(p=0.8,2=-1)"],
    "rbp_resid": ["rbp_resid(p=0.8)"],
    "ndcg_rel": ["ndcg_rel(1=3,2=9)", "ndcg_rel(0=1,2=-3)"],
    "rndcg": ["rndcg(0=2,3=1)", "rndcg(4=-1)"],
    "g": ["g(1=3,2=9)", "g(2=-2)"],
    "set_f": ["set_f(0.5)"],
    "utility": ["utility(2,-1,0.5,0.25,num_docs=50)"],
    "relstring": ["relstring(3)"],
}

ROWS = [info for info in METRICS.values() if info.reference is not None]


def row_names(info) -> list[str]:
    """The names checked for one row: uncut and cut where it can be (a cut-off of 1, and
    one inside the rankings here), then its parameters."""
    if info.cutoff_kind == "fraction":
        cuts = ["@0.2", "@1"] if info.name == "iprec_at_recall" else ["@0.5", "@2"]
    else:
        cuts = ["@1", "@3"]
    names = [info.name + cut for cut in cuts] if info.cutoff != "none" else []
    if info.cutoff != "required":
        names.append(info.name)
    return names + WITH_PARAMETERS.get(info.name, [])


ALL_NAMES = [name for info in ROWS for name in row_names(info)]

#: Queries written to reach the edges: the article's example, grades below 0 and unjudged
#: docs, no relevant doc, nothing retrieved, only unjudged docs, fractional grades and one
#: above 9 (relstring's ``?`` and ``>``), relevant docs deep in a long ranking.
RUN = {
    "refund": ["A", "B", "C", "D", "E"],
    "graded": ["x", "a", "b", "u", "c"],
    "answerless": ["a", "b", "u"],
    "nothing": [],
    "unjudged": ["u", "v", "w"],
    "perfect": ["a", "b", "c"],
    "fractions": ["u", "a", "b", "c"],
    "deep": [f"d{i}" for i in range(12)],
}
QRELS = {
    "refund": {"A": 1, "C": 1, "E": 1},
    "graded": {"a": 3, "b": 1, "x": -1, "c": 2, "n": 0, "z": 4},
    "answerless": {"a": 0, "b": -1, "z": 0},
    "nothing": {"a": 2, "b": 0},
    "unjudged": {"a": 1},
    "perfect": {"a": 2, "b": 2, "c": 1},
    "fractions": {"a": 0.5, "b": 12, "c": 1.5, "n": 0},
    "deep": {"d1": 1, "d8": 2, "d10": 1, "d3": 0, "d5": 0, "d30": 3},
}


def quiet_evaluate(run, qrels, names, **conventions):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)  # empty golden sets, coverage
        return evaluate(run, qrels, names, **conventions).per_query


def reference_value(name: str, ranking: list, grades: dict, *, top_grade: float,
                    **conventions):
    """The row's reference function on one query. ERR's default g_max is the highest grade
    of the judgments: of every query in evaluate, of the one query here, so it is given."""
    spec = parse_metric(name)
    options = spec.arguments | conventions
    if not spec.info.uses_gains:
        options.pop("gain", None)
    if spec.info.name == "err" and options["max_grade"] is None:
        options["max_grade"] = top_grade
    return spec.info.score_one(ranking, grades, spec.k, **options)


def answerless(grades: dict, level: float) -> bool:
    return not any(grade >= level for grade in grades.values())


def assert_equal_and_bounded(got, expected, name: str, where: str, *, empty: bool,
                             policy: str) -> None:
    """One cell: the kernel's value ``got`` equals the reference's ``expected``, both lie
    within the row's bounds, NaN only where "skip" asks for it, and the article's value
    where "article" gives it."""
    spec = parse_metric(name)
    if spec.info.kind == "text":
        if expected is None:  # relstring of a query left out
            assert got is None or (isinstance(got, float) and math.isnan(got)), where
        else:
            assert got == expected, f"{where}: kernel {got!r}, reference {expected!r}"
        return
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12, nan_ok=True), (
        f"{where}: kernel {got!r}, reference {expected!r}")
    if math.isnan(got):
        assert policy == "skip", f"{where}: NaN that no policy asked for"
        assert empty, f"{where}: NaN for a query with a relevant doc"
        return
    low, high = spec.bounds
    margin = 1e-12 * max(1.0, abs(low) if math.isfinite(low) else 1.0,
                         abs(high) if math.isfinite(high) else 1.0)
    assert low <= got <= high, f"{where}: kernel {got!r} outside [{low}, {high}]"
    assert low - margin <= expected <= high + margin, (
        f"{where}: reference {expected!r} outside [{low}, {high}]")
    if empty and policy == "article":
        assert got == expected == spec.info.article_value, (
            f"{where}: {got!r} and {expected!r}, the row's article_value "
            f"{spec.info.article_value!r}")


def assert_kernels_equal_references(run: dict, qrels: dict, names: list[str], *,
                                    empty_relevant: str, relevance_level: float = 1,
                                    **conventions) -> None:
    """Every name on every query: the kernel through evaluate against the reference.

    Under "error", evaluate refuses the queries as a whole when one has no relevant doc,
    and each reference refuses that query: the others are checked on their own.
    """
    options = {"empty_relevant": empty_relevant, "relevance_level": relevance_level,
               **conventions}
    empty = {q for q, grades in qrels.items() if answerless(grades, relevance_level)}
    scored = list(qrels)
    if empty_relevant == "error" and empty:
        with pytest.raises(InputValueError, match="has no relevant doc"):
            quiet_evaluate(run, qrels, names, **options)
        for query in empty:
            for name in names:
                with pytest.raises(InputValueError, match="has no relevant doc"):
                    reference_value(name, run[query], qrels[query], top_grade=0, **options)
        scored = [q for q in qrels if q not in empty]
        if not scored:
            return
    frame = quiet_evaluate({q: run[q] for q in scored}, {q: qrels[q] for q in scored},
                           names, **options)
    top_grade = max(0, *(g for q in scored for g in qrels[q].values()))
    for query in scored:
        for name in names:
            where = f"{name} of {query} ({run[query]}, {qrels[query]}), {options}"
            expected = reference_value(name, run[query], qrels[query], top_grade=top_grade,
                                       **options)
            assert_equal_and_bounded(frame.loc[query, name], expected, name, where,
                                     empty=query in empty, policy=empty_relevant)


# -- the table's rows, on the queries written here ------------------------------------------


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("info", ROWS, ids=lambda info: info.name)
def test_each_kernel_equals_its_reference(info, policy, level):
    assert_kernels_equal_references(RUN, QRELS, row_names(info), empty_relevant=policy,
                                    relevance_level=level)


@pytest.mark.parametrize("policy", POLICIES)
def test_exponential_gains_and_repeated_ids(policy):
    # The gain convention reaches every row that reads gains; a doc retrieved twice is
    # kept once, at its first rank, by both.
    run = {q: [*ranking, *ranking[:2]] for q, ranking in RUN.items()}
    assert_kernels_equal_references(run, QRELS, ALL_NAMES, empty_relevant=policy,
                                    gain="exponential", duplicates="keep_first")


def test_the_queries_here_reach_the_edges():
    # The tests above would pass on queries that score 0 everywhere: every number row
    # but num_q (1 for each query) takes three values or more here, hit rate both of its
    # own; and "answerless" has no relevant doc.
    frame = quiet_evaluate(RUN, QRELS, ALL_NAMES)
    for info in ROWS:
        if info.kind == "text" or info.name == "num_q":
            continue
        values = np.unique(frame[row_names(info)].to_numpy(float))
        assert len(values) >= (2 if info.name == "hit_rate" else 3), (info.name, values)
    assert answerless(QRELS["answerless"], 1)
    assert not answerless(QRELS["perfect"], 2)
    assert frame.loc["perfect", "ndcg@3"] == 1.0
    assert frame.loc["nothing", "recall@3"] == 0.0


def test_every_row_is_checked_and_every_parameter_has_a_value():
    # A new row is checked by the tests above as it is; one with parameters needs a line
    # in WITH_PARAMETERS, and only runid, a run's name, has no reference function.
    assert [info.name for info in METRICS.values() if info.reference is None] == ["runid"]
    for info in ROWS:
        given = {param for name in WITH_PARAMETERS.get(info.name, [])
                 for param, _ in parse_metric(name).params}
        assert given == {p.name for p in info.params}, info.name
    assert set(WITH_PARAMETERS) <= {info.name for info in ROWS}


def test_runid_is_the_run_s_name():
    run = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["a", "b"], "score": [1.0, 1.0],
                        "run_name": ["bm25", "bm25"]})
    frame = quiet_evaluate(run, {"q1": {"a": 1}, "q2": {"a": 1}}, ["runid", "recall@1"])
    assert frame["runid"].tolist() == ["bm25", "bm25"]
    assert frame["recall@1"].tolist() == [1.0, 0.0]


# -- the table's rows, on queries Hypothesis draws --------------------------------------------

DOC_IDS = list("abcdefghi")
GRADES = [-1, 0, 0, 0.5, 1, 1, 2, 3, 4, 12]


@st.composite
def queries(draw):
    """One to four queries: rankings of up to 8 docs (some unjudged), grades -1 to 12
    (a query whose grades are all below the level has no relevant doc)."""
    n = draw(st.integers(1, 4))
    run, qrels = {}, {}
    for i in range(n):
        run[f"q{i}"] = draw(st.lists(st.sampled_from(DOC_IDS), max_size=8, unique=True))
        qrels[f"q{i}"] = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(GRADES),
                                              min_size=1, max_size=8))
    return run, qrels


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=queries(), level=st.sampled_from([1, 2, 0.5]),
       gain=st.sampled_from(["linear", "exponential"]))
def test_every_kernel_equals_its_reference_on_drawn_queries(case, level, gain):
    run, qrels = case
    for policy in POLICIES:
        assert_kernels_equal_references(run, qrels, ALL_NAMES, empty_relevant=policy,
                                        relevance_level=level, gain=gain)
