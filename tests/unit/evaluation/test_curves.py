"""metrics_over_k and ndcg_table equal the per-query functions (to 1e-12: the curves come
from the kernels of the metric table, the per-query functions are plain Python)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics import MetricCurves, metric_curves, metrics_over_k, ndcg_table
from ragmetrics.evaluation.curves import CURVE_METRICS
from ragmetrics.metrics import (
    dcg_at_k,
    metric_info,
    ndcg_at_k,
    recall_at_k,
)
from ragmetrics.teaching import example_names, load_example

ALL_METRICS = CURVE_METRICS  # every metric of a ranking cut at k


def per_query(name, retrieved, relevant, k, **options):
    """The per-query function for column ``name`` at cut-off ``k`` (from the metric table)."""
    info = metric_info(name)
    if not info.uses_gains:
        options.pop("gain", None)
    return info.score_one(retrieved, relevant, k, **options)


def assert_equals_per_query(curves, retrieved, relevant, **options):
    """Every cell equals the per-query function to 1e-12 (NaN matches NaN)."""
    for k in curves.index:
        for name in curves.columns:
            expected = per_query(name, retrieved, relevant, int(k), **dict(options))
            got = curves.loc[k, name]
            assert (math.isnan(got) and math.isnan(expected)) or abs(got - expected) <= 1e-12, (
                f"{name}@{k}: curves give {got!r}, the per-query function {expected!r}"
            )


# -- metrics_over_k: values --------------------------------------------------------


def test_refund_policy_numbers():
    ex = load_example("refund_policy")  # relevant at ranks 1, 3, 5
    curves = metrics_over_k(ex.retrieved, ex.relevant, range(1, 6), metrics=ALL_METRICS)
    assert curves["recall"].tolist() == [1 / 3, 1 / 3, 2 / 3, 2 / 3, 1.0]
    assert curves["precision"].tolist() == [1.0, 0.5, 2 / 3, 0.5, 0.6]
    assert curves["hit_rate"].tolist() == [1.0] * 5
    assert curves["rr"].tolist() == [1.0] * 5
    assert curves["ndcg"].round(4).tolist() == [1.0, 0.6131, 0.7039, 0.7039, 0.8855]
    assert curves["ap"].round(4).tolist() == [0.3333, 0.3333, 0.5556, 0.5556, 0.7556]
    assert curves["r_precision"].tolist() == [2 / 3] * 5


def test_k_tradeoff_numbers():
    # The article: relevant at ranks 1, 2, 9, 10 and 23 of 25.
    ex = load_example("k_tradeoff")
    curves = metrics_over_k(ex.retrieved, ex.relevant, [3, 5, 10, 25])
    assert curves["recall"].tolist() == [0.4, 0.4, 0.8, 1.0]
    assert curves["precision"].tolist() == [2 / 3, 0.4, 0.4, 0.2]


@pytest.mark.parametrize("name", example_names())
@pytest.mark.parametrize("empty_relevant", ["zero", "article", "skip"])
def test_article_examples_equal_per_query_functions(name, empty_relevant):
    ex = load_example(name)
    ks = range(1, len(ex.retrieved) + 6)  # past the end of the ranking too
    for gain in ("linear", "exponential"):
        curves = metrics_over_k(
            ex.retrieved, ex.relevant, ks, metrics=ALL_METRICS, gain=gain,
            empty_relevant=empty_relevant,
        )
        assert_equals_per_query(
            curves, ex.retrieved, ex.relevant, gain=gain, empty_relevant=empty_relevant
        )


doc_ids = st.integers(min_value=0, max_value=14)
grades = st.sampled_from([-1, 0, 0.5, 1, 1, 2, 3])


@st.composite
def queries(draw):
    retrieved = draw(st.lists(doc_ids, unique=True, max_size=12))
    graded = draw(st.booleans())
    if graded:
        relevant = draw(st.dictionaries(doc_ids, grades, max_size=8))
    else:
        relevant = draw(st.sets(doc_ids, max_size=8))
    ks = draw(st.lists(st.integers(min_value=1, max_value=16), unique=True, min_size=1,
                       max_size=6))
    options = {
        "gain": draw(st.sampled_from(["linear", "exponential"])),
        "relevance_level": draw(st.sampled_from([1, 2, 0.5])),
        "empty_relevant": draw(st.sampled_from(["zero", "article", "skip"])),
    }
    return retrieved, relevant, ks, options


@settings(max_examples=100, deadline=None)
@given(queries())
def test_random_queries_equal_per_query_functions(query):
    retrieved, relevant, ks, options = query
    curves = metrics_over_k(retrieved, relevant, ks, metrics=ALL_METRICS, **options)
    assert curves.index.tolist() == ks
    assert_equals_per_query(curves, retrieved, relevant, **options)


@st.composite
def array_queries(draw):
    """queries(), widened: str ids too, repeated ids, every empty_relevant policy, and
    metrics in any order."""
    retrieved, relevant, ks, options = draw(queries())
    if draw(st.booleans()):  # str ids, the usual kind
        retrieved = [f"d{i}" for i in retrieved]
        relevant = ({f"d{i}": g for i, g in relevant.items()} if isinstance(relevant, dict)
                    else {f"d{i}" for i in relevant})
    if retrieved and draw(st.booleans()):  # copies of ranked ids, lower down
        retrieved = retrieved + draw(st.lists(st.sampled_from(retrieved), max_size=4))
        options["duplicates"] = "keep_first"
    options["empty_relevant"] = draw(st.sampled_from(["zero", "article", "skip", "error"]))
    metrics = draw(st.permutations(ALL_METRICS))[: draw(st.integers(1, len(ALL_METRICS)))]
    return retrieved, relevant, ks, tuple(metrics), options


def has_a_relevant_doc(relevant, relevance_level):
    grades = relevant.values() if isinstance(relevant, dict) else [1] * len(relevant)
    return any(g >= relevance_level for g in grades)


@settings(max_examples=150, deadline=None)
@given(array_queries())
def test_random_queries_arrays_equal_the_frame_and_per_query_functions(query):
    retrieved, relevant, ks, metrics, options = query
    if options["empty_relevant"] == "error" and not has_a_relevant_doc(
        relevant, options["relevance_level"]
    ):
        # No relevant doc, and the policy says so: all three refuse, in the same words.
        messages = set()
        for call in (lambda: metric_curves(retrieved, relevant, ks, metrics=metrics, **options),
                     lambda: metrics_over_k(retrieved, relevant, ks, metrics=metrics, **options),
                     lambda: per_query(metrics[0], retrieved, relevant, ks[0], **options)):
            with pytest.raises(ValueError, match="no relevant doc") as refused:
                call()
            messages.add(str(refused.value))
        assert len(messages) == 1
        return
    curves = metric_curves(retrieved, relevant, ks, metrics=metrics, **options)
    frame = metrics_over_k(retrieved, relevant, ks, metrics=metrics, **options)
    assert curves.ks.tolist() == frame.index.tolist() == ks
    assert curves.names == tuple(frame.columns) == metrics
    # Exact equality (NaN matches NaN): the frame is the arrays, turned.
    np.testing.assert_array_equal(curves.values, frame.to_numpy().T)
    assert_equals_per_query(frame, retrieved, relevant, **options)


def test_curves_are_read_only_arrays_by_metric_and_by_k():
    curves = metric_curves(["a", "x", "b"], {"a", "b"}, range(1, 4),
                           metrics=["precision", "recall"])
    assert isinstance(curves, MetricCurves)
    assert curves.ks.dtype == np.int64
    assert curves.values.shape == (2, 3)
    assert curves["precision"].tolist() == [1.0, 0.5, 2 / 3]
    assert curves["recall"].tolist() == [0.5, 0.5, 1.0]
    assert curves.at(2) == {"precision": 0.5, "recall": 0.5}
    assert all(type(value) is float for value in curves.at(3).values())
    for array in (curves.ks, curves.values, curves["recall"]):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        curves.values = np.zeros((2, 3))
    with pytest.raises(KeyError, match="no curve for 'ndcg'"):
        curves["ndcg"]
    with pytest.raises(KeyError, match=r"k=5 is not among the cut-offs \[1, 2, 3\]"):
        curves.at(5)
    with pytest.raises(ValueError, match="k must be a positive int"):
        curves.at(0)


def test_frames_stay_writable_and_their_own():
    # The arrays are read-only; a frame from metrics_over_k is an ordinary, editable one.
    frame = metrics_over_k(["a", "x"], {"a"}, [1, 2], metrics=["recall"])
    frame.loc[1, "recall"] = 0.25
    assert frame["recall"].tolist() == [0.25, 1.0]
    assert metrics_over_k(["a", "x"], {"a"}, [1, 2], metrics=["recall"])["recall"].tolist() == [
        1.0, 1.0
    ]


def test_a_generator_of_metric_names_is_read_once():
    names = (name for name in ["ndcg", "recall"])
    assert metric_curves(["a"], {"a"}, [1], metrics=names).names == ("ndcg", "recall")


def test_r_precision_sees_past_the_largest_k():
    # R = 4 relevant docs; the 4th rank holds one, beyond the largest k = 2.
    curves = metrics_over_k(["a", "x", "y", "b"], {"a", "b", "c", "d"}, [1, 2],
                            metrics=["r_precision"])
    assert curves["r_precision"].tolist() == [0.5, 0.5]


def test_ndcg_counts_gains_below_relevance_level():
    # Grade 1 is not relevant at level 2, yet it gains in nDCG (as trec_eval does).
    curves = metrics_over_k(["a", "b"], {"a": 1, "b": 2}, [1, 2], metrics=["recall", "ndcg"],
                            relevance_level=2)
    assert curves["recall"].tolist() == [0.0, 1.0]
    assert curves["ndcg"].tolist() == [
        ndcg_at_k(["a", "b"], {"a": 1, "b": 2}, k, relevance_level=2) for k in (1, 2)
    ]
    assert 0 < curves.loc[1, "ndcg"] < 1


def test_empty_golden_set_follows_the_policy():
    kw = {"metrics": ["recall", "precision", "ndcg"]}
    assert metrics_over_k(["a"], set(), [1, 2], **kw).to_numpy().tolist() == [[0, 0, 0]] * 2
    article = metrics_over_k(["a"], set(), [1, 2], empty_relevant="article", **kw)
    assert article.to_numpy().tolist() == [[1.0, 0.0, 1.0]] * 2
    assert metrics_over_k(["a"], set(), [1], empty_relevant="skip", **kw).isna().all(axis=None)
    with pytest.raises(ValueError, match="no relevant doc"):
        metrics_over_k(["a"], set(), [1], empty_relevant="error")


def test_no_hit_gives_zero_reciprocal_rank_and_ap():
    curves = metrics_over_k(["x", "y"], {"a"}, [1, 5], metrics=["mrr", "map", "hit_rate"])
    assert curves.to_numpy().tolist() == [[0.0, 0.0, 0.0]] * 2


def test_empty_ranking_scores_zero():
    curves = metrics_over_k([], {"a": 2}, [1, 3], metrics=ALL_METRICS)
    assert (curves.to_numpy() == 0).all()


def test_duplicates_policy_is_applied():
    with pytest.raises(ValueError, match="'a' appears more than once"):
        metrics_over_k(["a", "a"], {"a"}, [1])
    curves = metrics_over_k(["a", "a", "b"], {"a", "b"}, [2], duplicates="keep_first",
                            metrics=["recall"])
    assert curves.loc[2, "recall"] == 1.0


# -- metrics_over_k: shape -----------------------------------------------------------


def test_frame_shape_index_and_columns():
    curves = metrics_over_k(["a", "b"], {"b"}, [10, 1, 5], metrics=["ndcg", "recall"])
    assert curves.index.name == "k"
    assert curves.index.dtype == np.int64
    assert curves.index.tolist() == [10, 1, 5]  # the order given
    assert curves.columns.tolist() == ["ndcg", "recall"]
    assert (curves.dtypes == np.float64).all()


def test_default_metrics_and_a_single_name():
    assert metrics_over_k(["a"], {"a"}, [1]).columns.tolist() == [
        "recall", "precision", "hit_rate", "rr", "ndcg"
    ]
    assert metrics_over_k(["a"], {"a"}, [1], metrics="mrr").columns.tolist() == ["mrr"]


def test_descending_range_keeps_its_order():
    curves = metrics_over_k(["a", "b"], {"b"}, range(3, 0, -1), metrics=["recall"])
    assert curves["recall"].to_dict() == {3: 1.0, 2: 1.0, 1: 0.0}


def test_accepts_numpy_ints_and_generators():
    curves = metrics_over_k(["a", "b"], {"b"}, (np.int64(k) for k in (1, 2)))
    assert curves.index.tolist() == [1, 2]
    assert curves["recall"].tolist() == [0.0, 1.0]


def test_renaming_one_frame_leaves_the_next_alone():
    # The k and column Indexes are cached; each frame must get its own.
    first = metrics_over_k(["a"], {"a"}, range(1, 4))
    first.index.name = "cutoff"
    first.columns.name = "metric"
    second = metrics_over_k(["a"], {"a"}, range(1, 4))
    assert second.index.name == "k"
    assert second.columns.name is None


# -- metric_curves and metrics_over_k: validation ------------------------------------

# Both entry points validate the same way, with the same words.
BOTH = pytest.mark.parametrize("function", [metric_curves, metrics_over_k])


@BOTH
@pytest.mark.parametrize(
    ("ks", "error", "message"),
    [
        (10, TypeError, r"ks must be an iterable of positive ints such as range\(1, 11\), got 10"),
        ("123", TypeError, "got '123'"),
        ([], ValueError, "at least one cut-off"),
        (range(1, 1), ValueError, "at least one cut-off"),
        ([3, 0], ValueError, "got 0"),
        (range(5), ValueError, "got 0"),
        (range(5, -1, -1), ValueError, "got 0"),
        ([2.5], TypeError, r"got 2\.5"),
        ([True], TypeError, "got True"),
        ([1, 2, 1], ValueError, "1 appears more than once"),
    ],
)
def test_bad_ks_are_named(function, ks, error, message):
    with pytest.raises(error, match=message):
        function(["a"], {"a"}, ks)


@BOTH
@pytest.mark.parametrize(
    ("metrics", "message"),
    [
        (["recal"], "unknown metric 'recal'"),
        (["recall@10"], "without '@k'"),
        ([], "at least one"),
        (["mrr", "mrr"], "'mrr' is requested twice"),
    ],
)
def test_bad_metric_names_are_named(function, metrics, message):
    with pytest.raises(ValueError, match=message):
        function(["a"], {"a"}, [1], metrics=metrics)


@BOTH
def test_bad_options_are_named(function):
    with pytest.raises(ValueError, match=r"gain must be one of .* got 'log'"):
        function(["a"], {"a"}, [1], gain="log")
    with pytest.raises(ValueError, match=r"empty_relevant must be one of .* got 'nan'"):
        function(["a"], {"a"}, [1], empty_relevant="nan")
    with pytest.raises(ValueError, match="relevance_level must be > 0"):
        function(["a"], {"a"}, [1], relevance_level=0)
    with pytest.raises(TypeError, match="retrieved must be a list of ids"):
        function("abc", {"a"}, [1])
    with pytest.raises(ValueError, match=r"duplicates must be one of .* got 'last'"):
        function(["a"], {"a"}, [1], duplicates="last")
    with pytest.raises(ValueError, match="'a' appears more than once"):
        function(["a", "a"], {"a"}, [1])
    with pytest.raises(ValueError, match="no relevant doc"):
        function(["a"], {"a": 0}, [1], empty_relevant="error")


@BOTH
def test_the_first_bad_argument_is_the_one_named(function):
    # Checked in the order of the signature: ks, metrics, gain, ..., then the query.
    with pytest.raises(ValueError, match="at least one cut-off"):
        function("abc", {"a"}, [], metrics=["nope"], gain="log")
    with pytest.raises(ValueError, match="unknown metric 'nope'"):
        function("abc", {"a"}, [1], metrics=["nope"], gain="log")
    with pytest.raises(ValueError, match="gain must be one of"):
        function("abc", {"a"}, [1], gain="log", empty_relevant="nan")
    with pytest.raises(ValueError, match="empty_relevant must be one of"):
        function("abc", {"a"}, [1], empty_relevant="nan")


# The message of every ragmetrics function for ids that can never match: it names both
# kinds, with an example of each (the last id of that kind on its side).
KIND_MESSAGE = (
    "retrieved ids are {} but relevant ids are {}; ids of different kinds are refused, "
    "since '42' never equals 42 and every metric would silently be 0. Convert one side, "
    "e.g. [str(x) for x in retrieved]."
)


@BOTH
@pytest.mark.parametrize(
    ("retrieved", "relevant", "kinds"),
    [
        ([1, 2], {"1"}, ("int (e.g. 2)", "str (e.g. '1')")),
        (["1", "2"], {1: 2, 3: 1}, ("str (e.g. '2')", "int (e.g. 3)")),
        ([True, False], {1}, ("bool (e.g. False)", "int (e.g. 1)")),  # True == 1, yet refused
        ([np.int64(1)], {"1"}, ("int (e.g. np.int64(1))", "str (e.g. '1')")),
        ([1.0], {1}, ("float (e.g. 1.0)", "int (e.g. 1)")),
    ],
)
def test_ids_of_different_kinds_are_refused_in_the_same_words(function, retrieved, relevant,
                                                               kinds):
    with pytest.raises(TypeError) as refused:
        function(retrieved, relevant, [1])
    assert str(refused.value) == KIND_MESSAGE.format(*kinds)
    with pytest.raises(TypeError) as per_query_function:
        recall_at_k(retrieved, relevant, 1)
    assert str(per_query_function.value) == str(refused.value)


class DocName(str):
    """A str subclass: the quick kind check does not know it, the full check does."""


@pytest.mark.parametrize(
    ("retrieved", "relevant"),
    [
        (["b", "a"], {"a"}),  # plain str: the quick check
        ([2, 1], {1: 1}),  # plain int: the quick check
        ([np.int64(2), np.int64(1)], {1}),  # numpy ints are ints
        ([DocName("b"), DocName("a")], {"a"}),
        (["b", 1], {1, "z"}),  # mixed kinds pass when the sides share one
        ([2.0, 1.0], {1.0}),  # floats on both sides
    ],
)
def test_ids_of_a_shared_kind_are_scored(retrieved, relevant):
    curves = metric_curves(retrieved, relevant, [1, 2], metrics=["hit_rate"])
    assert curves["hit_rate"].tolist() == [0.0, 1.0]


# -- ndcg_table ----------------------------------------------------------------------


def test_refund_policy_table():
    ex = load_example("refund_policy")
    table = ndcg_table(ex.retrieved, ex.relevant, 5)
    assert table.index.name == "rank"
    assert table.index.tolist() == [1, 2, 3, 4, 5]
    assert table.columns.tolist() == [
        "doc_id", "grade", "gain", "discount", "discounted_gain", "ideal_gain",
        "ideal_discounted_gain",
    ]
    assert table["doc_id"].tolist() == ex.retrieved
    assert table["gain"].tolist() == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert table["discount"].tolist() == [math.log2(r + 1) for r in range(1, 6)]
    assert table["ideal_gain"].tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]
    assert round(table.attrs["dcg"], 4) == 1.8869
    assert round(table.attrs["idcg"], 4) == 2.1309
    assert round(table.attrs["ndcg"], 4) == 0.8855
    assert table.attrs["dcg"] == dcg_at_k(ex.retrieved, ex.relevant, 5)
    assert table.attrs["ndcg"] == ndcg_at_k(ex.retrieved, ex.relevant, 5)
    assert table.attrs["dcg"] == math.fsum(table["discounted_gain"])
    assert table.attrs["idcg"] == math.fsum(table["ideal_discounted_gain"])


def test_ideal_uses_every_judged_doc_and_pads_short_rankings():
    # "z" (grade 3) was never retrieved; the ranking is shorter than k.
    table = ndcg_table(["a", "b"], {"a": 1, "z": 3}, 4, gain="exponential")
    assert table["doc_id"].tolist() == ["a", "b", None, None]
    assert table["grade"].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert table["gain"].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert table["ideal_gain"].tolist() == [7.0, 1.0, 0.0, 0.0]
    assert table.attrs["idcg"] == 7.0 + 1.0 / math.log2(3)
    assert table.attrs["ndcg"] == ndcg_at_k(["a", "b"], {"a": 1, "z": 3}, 4, gain="exponential")


def test_negative_grades_gain_nothing():
    table = ndcg_table(["bad", "a"], {"bad": -1, "a": 2}, 2)
    assert table["grade"].tolist() == [-1.0, 2.0]
    assert table["gain"].tolist() == [0.0, 2.0]
    assert table["ideal_gain"].tolist() == [2.0, 0.0]


def test_no_gain_anywhere_scores_zero():
    table = ndcg_table(["a"], {"b": 0}, 2)
    assert table.attrs == {"dcg": 0.0, "idcg": 0.0, "ndcg": 0.0}


@settings(max_examples=100, deadline=None)
@given(queries())
def test_random_tables_sum_to_dcg_and_ndcg(query):
    retrieved, relevant, ks, options = query
    k, gain = max(ks), options["gain"]
    table = ndcg_table(retrieved, relevant, k, gain=gain)
    assert len(table) == k
    assert table.attrs["dcg"] == dcg_at_k(retrieved, relevant, k, gain=gain)
    assert table.attrs["ndcg"] == ndcg_at_k(retrieved, relevant, k, gain=gain)
    assert (table["discounted_gain"] == table["gain"] / table["discount"]).all()
    assert (table["ideal_gain"].diff().dropna() <= 0).all()  # the ideal is best first


def test_ndcg_table_validation():
    with pytest.raises(ValueError, match=r"k must be a positive int .* got 0"):
        ndcg_table(["a"], {"a"}, 0)
    with pytest.raises(ValueError, match=r"gain must be one of .* got 'square'"):
        ndcg_table(["a"], {"a"}, 1, gain="square")
    with pytest.raises(ValueError, match="'a' appears more than once"):
        ndcg_table(["a", "a"], {"a"}, 1)


def test_table_is_a_plain_frame():
    table = ndcg_table(["a", "b"], {"b"}, 3)
    assert isinstance(table, pd.DataFrame)
    assert table["doc_id"].dtype == object
    assert table.loc[3, "doc_id"] is None


def test_cut_offs_past_the_cached_discounts_agree():
    # Discounts are precomputed for ranks 1..1024; deeper ranks are computed on the spot.
    ranking = list(range(1100))
    relevant = {3: 2, 1050: 1, 5000: 3}
    curves = metrics_over_k(ranking, relevant, [1024, 1100], metrics=["ndcg"])
    assert curves["ndcg"].tolist() == [ndcg_at_k(ranking, relevant, k) for k in (1024, 1100)]
    table = ndcg_table(ranking, relevant, 1100)
    assert table.loc[1100, "discount"] == math.log2(1101)
    assert table.attrs["dcg"] == dcg_at_k(ranking, relevant, 1100)


def test_metrics_over_k_takes_metric_curves_conventions_and_names_an_unknown_one():
    ranking, golden = ["a", "x", "b"], {"a": 2, "b": 1}
    options = {"gain": "exponential", "relevance_level": 2, "empty_relevant": "zero",
               "duplicates": "keep_first"}
    frame = metrics_over_k(ranking, golden, [1, 3], metrics=["ndcg", "recall"], **options)
    curves = metric_curves(ranking, golden, [1, 3], metrics=["ndcg", "recall"], **options)
    assert frame.to_numpy().T.tolist() == curves.values.tolist()
    assert frame["recall"].tolist() == [1.0, 1.0]  # only "a" reaches level 2
    with pytest.raises(TypeError, match=r"^metrics_over_k\(\) got an unexpected keyword "
                       r"argument 'gian'; its conventions are gain, relevance_level"):
        metrics_over_k(ranking, golden, [1], gian="linear")
