"""The plots draw what the pure functions compute, and leave global state alone."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.cbook import is_math_text
from matplotlib.colors import to_rgba

from ragmetrics import METRICS, evaluate, metrics_over_k, ndcg_table
from ragmetrics.evaluation.curves import CURVE_METRICS
from ragmetrics.plotting import (
    PALETTE,
    plot_metrics_over_k,
    plot_ndcg_breakdown,
    plot_per_query,
    plot_ranking,
    plot_threshold_sweep,
)
from ragmetrics.teaching import load_example

BLUE = to_rgba(PALETTE["blue"])
GREY = to_rgba(PALETTE["light_grey"])


@pytest.fixture(autouse=True)
def _no_global_changes():
    """Each test: rcParams unchanged afterwards, and every figure closed."""
    before = dict(matplotlib.rcParams)
    yield
    after = dict(matplotlib.rcParams)
    changed = {key for key in before if before[key] != after[key]}
    plt.close("all")
    assert not changed, f"rcParams changed: {sorted(changed)}"


@pytest.fixture
def ax():
    _fig, ax = plt.subplots()
    return ax


def boxes(ax):
    """The rank boxes of a ranking strip, in rank order."""
    found = {p.get_gid(): p for p in ax.patches if str(p.get_gid()).startswith("rank-")}
    return [found[f"rank-{r}"] for r in range(1, len(found) + 1)]


def texts(ax):
    return [t.get_text() for t in ax.texts]


def shown(text):
    """What Matplotlib draws for ``text`` when it is not math: ``\\$`` becomes ``$``."""
    assert not is_math_text(text), f"{text!r} would be drawn as math"
    return text.replace(r"\$", "$")


def draws(ax):
    ax.figure.canvas.draw()  # render once: glyph warnings and math errors surface here


# -- plot_ranking --------------------------------------------------------------------


def test_ranking_uses_the_given_axes_and_makes_no_figure(ax):
    figures = plt.get_fignums()
    assert plot_ranking(["a", "b"], {"a"}, ax=ax) is ax
    assert plt.get_fignums() == figures


def test_ranking_makes_one_figure_without_axes():
    figures = len(plt.get_fignums())
    ax = plot_ranking(["a", "b"], {"a"}, k=1)
    assert len(plt.get_fignums()) == figures + 1
    assert ax.figure.number == plt.get_fignums()[-1]


def test_ranking_draws_one_box_per_rank_and_highlights_exactly_the_relevant(ax):
    ex = load_example("refund_policy")  # relevant at ranks 1, 3, 5
    plot_ranking(ex.retrieved, ex.relevant, k=3, ax=ax)
    drawn = boxes(ax)
    assert len(drawn) == 5
    centers = [p.get_y() + p.get_height() / 2 for p in drawn]
    assert centers == [1, 2, 3, 4, 5]
    faces = [p.get_facecolor() for p in drawn]
    assert [r for r, face in enumerate(faces, 1) if face == BLUE] == [1, 3, 5]
    assert [r for r, face in enumerate(faces, 1) if face == GREY] == [2, 4]
    assert [shown(t) for t in texts(ax)[:2]] == ["chunk_A", "1"]
    draws(ax)


def test_cutoff_line_sits_between_rank_k_and_k_plus_one(ax):
    plot_ranking(list("abcdef"), {"a"}, k=4, ax=ax)
    (cutoff,) = [line for line in ax.lines if line.get_gid() == "cutoff"]
    assert set(cutoff.get_ydata()) == {4.5}
    drawn = boxes(ax)
    assert drawn[3].get_y() + drawn[3].get_height() < 4.5 < drawn[4].get_y()
    assert "k = 4" in texts(ax)


def test_no_cutoff_without_k(ax):
    plot_ranking(["a", "b"], {"a"}, ax=ax)
    assert not [line for line in ax.lines if line.get_gid() == "cutoff"]
    assert not [t for t in texts(ax) if t.startswith("k = ")]


def test_k_beyond_the_ranking_draws_empty_slots(ax):
    plot_ranking(["a", "b"], {"a"}, k=5, ax=ax)
    assert len(boxes(ax)) == 2
    empty = [p for p in ax.patches if str(p.get_gid()).startswith("empty-slot-")]
    assert [p.get_gid() for p in empty] == ["empty-slot-3", "empty-slot-4", "empty-slot-5"]
    (cutoff,) = [line for line in ax.lines if line.get_gid() == "cutoff"]
    assert set(cutoff.get_ydata()) == {5.5}


def test_grades_shade_darker_and_are_written(ax):
    plot_ranking(["low", "x", "high"], {"low": 1, "high": 3, "mid": 2}, ax=ax)
    low, other, high = (p.get_facecolor() for p in boxes(ax))
    assert other == GREY
    assert sum(high[:3]) < sum(low[:3])  # darker = higher grade
    assert high == BLUE
    assert {"grade 1", "grade 3"} <= set(texts(ax))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:4] == [
        "relevant (grade 3)", "relevant (grade 2)", "relevant (grade 1)", "not relevant"
    ]


def test_binary_legend_and_missed_relevant_docs(ax):
    plot_ranking(["a", "x"], {"a", "zz"}, k=1, ax=ax)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["relevant", "not relevant", "cut-off: the model sees ranks above"]
    assert "relevant, never retrieved: zz" in texts(ax)


def test_missed_docs_are_listed_best_grade_first_then_by_id(ax):
    golden = {"m3": 1, "m1": 1, "top": 3, "m2": 1, "m5": 1, "m4": 1}
    plot_ranking(["x"], golden, ax=ax)
    (missed,) = [t.get_text() for t in ax.texts if t.get_gid() == "missed"]
    assert missed == "relevant, never retrieved: top, m1, m2, m3 and 2 more"


def test_relevance_level_decides_the_highlight(ax):
    plot_ranking(["a", "b"], {"a": 1, "b": 2}, relevance_level=2, ax=ax)
    assert [p.get_facecolor() == BLUE for p in boxes(ax)] == [False, True]


def test_titles_replace_ids_and_are_truncated(ax):
    long_title = "A very long title about refunds, returns, exchanges and store credit"
    plot_ranking(["a", "b"], {"a"}, titles={"a": "Refunds", "b": long_title}, ax=ax)
    labels = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
    assert labels["label-1"] == "Refunds"
    assert labels["label-2"] == long_title[:55] + "…"
    draws(ax)


def test_dollar_signs_in_titles_and_ids_are_drawn_literally(ax):
    title = "Pricing: $5 per seat, $50 per team"
    plot_ranking(["$x$", "b"], {"b"}, titles={"b": title}, k=1, ax=ax)
    labels = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
    assert shown(labels["label-1"]) == "$x$"
    assert shown(labels["label-2"]) == title
    draws(ax)


def test_ranking_validation(ax):
    with pytest.raises(ValueError, match=r"k must be a positive int .* got 0"):
        plot_ranking(["a"], {"a"}, k=0, ax=ax)
    with pytest.raises(ValueError, match="'a' appears more than once"):
        plot_ranking(["a", "a"], {"a"}, ax=ax)
    with pytest.raises(TypeError, match="retrieved must be a list of ids"):
        plot_ranking("abc", {"a"}, ax=ax)
    with pytest.raises(TypeError, match="titles must be a mapping doc id -> title, got list"):
        plot_ranking(["a"], {"a"}, titles=["A"], ax=ax)


def test_empty_ranking_draws_only_the_empty_slots(ax):
    plot_ranking([], {"a"}, k=2, ax=ax)
    assert boxes(ax) == []
    assert len([p for p in ax.patches if str(p.get_gid()).startswith("empty-slot-")]) == 2
    draws(ax)


# -- plot_metrics_over_k -------------------------------------------------------------


def test_one_line_per_metric_with_registry_labels(ax):
    ex = load_example("k_tradeoff")
    curves = metrics_over_k(ex.retrieved, ex.relevant, range(1, 26), metrics=CURVE_METRICS)
    assert plot_metrics_over_k(curves, ax=ax) is ax
    lines = [line for line in ax.get_lines() if line.get_gid() != "mark-k"]
    labels = [METRICS[m].pretty_name for m in CURVE_METRICS]
    assert [line.get_label() for line in lines] == labels
    for line, name in zip(lines, curves.columns, strict=True):
        assert line.get_xdata().tolist() == list(range(1, 26))
        assert line.get_ydata().tolist() == curves[name].tolist()
    assert ax.get_ylim() == (0, 1.05)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == labels
    draws(ax)


def test_mark_k_draws_one_vertical_line(ax):
    curves = metrics_over_k(["a", "x", "b"], {"a", "b"}, range(1, 6))
    plot_metrics_over_k(curves, ax=ax, mark_k=3)
    (marker,) = [line for line in ax.get_lines() if line.get_gid() == "mark-k"]
    assert list(marker.get_xdata()) == [3, 3]
    assert "k = 3" in texts(ax)


def test_metrics_over_k_new_figure_and_unknown_columns():
    curves = pd.DataFrame({"my $score$": [0.2, 0.4]}, index=pd.Index([1, 2], name="k"))
    ax = plot_metrics_over_k(curves)
    (line,) = ax.get_lines()
    assert shown(line.get_label()) == "my $score$"
    assert len(plt.get_fignums()) == 1
    draws(ax)


def test_metrics_over_k_validation(ax):
    with pytest.raises(TypeError, match="curves must be a DataFrame"):
        plot_metrics_over_k([0.1, 0.2], ax=ax)
    with pytest.raises(ValueError, match="at least one row and one column"):
        plot_metrics_over_k(pd.DataFrame(), ax=ax)
    curves = metrics_over_k(["a"], {"a"}, [1, 2])
    with pytest.raises(ValueError, match=r"mark_k must be a positive int .* got 0"):
        plot_metrics_over_k(curves, ax=ax, mark_k=0)


# -- plot_ndcg_breakdown -------------------------------------------------------------


def test_ndcg_bars_come_from_the_table(ax):
    ex = load_example("refund_policy")
    assert plot_ndcg_breakdown(ex.retrieved, ex.relevant, 5, ax=ax) is ax
    table = ndcg_table(ex.retrieved, ex.relevant, 5)
    gain, discounted, ideal = ax.containers
    for container, column in (
        (gain, "gain"), (discounted, "discounted_gain"), (ideal, "ideal_discounted_gain")
    ):
        assert len(container) == 5
        assert [bar.get_height() for bar in container] == table[column].tolist()
    assert [bar.get_fill() for bar in ideal] == [False] * 5  # an outline
    assert ax.get_title() == "DCG@5 = 1.887    IDCG@5 = 2.131    nDCG@5 = 0.885"
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == [f"{r}\nchunk_{c}" for r, c in zip(range(1, 6), "ABCDE", strict=True)]
    draws(ax)


def test_ndcg_breakdown_shows_empty_slots_and_graded_gains(ax):
    plot_ndcg_breakdown(["a", "$b$"], {"a": 1, "z": 3}, 3, gain="exponential", ax=ax)
    gain, _discounted, ideal = ax.containers
    assert [bar.get_height() for bar in gain] == [1.0, 0.0, 0.0]
    assert [bar.get_height() for bar in ideal] == [7.0, 1.0 / math.log2(3), 0.0]
    ticks = [shown(t.get_text()) for t in ax.get_xticklabels()]
    assert ticks == ["1\na", "2\n$b$", "3\n(empty)"]
    ndcg = ndcg_table(["a", "$b$"], {"a": 1, "z": 3}, 3, gain="exponential").attrs["ndcg"]
    assert ax.get_title().endswith(f"nDCG@3 = {ndcg:.3f}")
    draws(ax)


def test_ndcg_breakdown_new_figure_and_validation():
    ax = plot_ndcg_breakdown(["a"], {"a"}, 1)
    assert len(plt.get_fignums()) == 1
    assert ax.get_title() == "DCG@1 = 1.000    IDCG@1 = 1.000    nDCG@1 = 1.000"
    with pytest.raises(ValueError, match=r"gain must be one of .* got 'log'"):
        plot_ndcg_breakdown(["a"], {"a"}, 1, gain="log", ax=ax)
    with pytest.raises(ValueError, match="k must be a positive int"):
        plot_ndcg_breakdown(["a"], {"a"}, 0, ax=ax)


# -- plot_per_query ------------------------------------------------------------------


@pytest.fixture
def per_query():
    return pd.DataFrame(
        {"recall@10": [1.0, 0.5, 0.0, 0.5], "mrr": [1.0, 0.5, np.nan, 0.25]},
        index=pd.Index(["q1", "q2", "q3", "q4"], name="query_id"),
    )


def points(ax, i):
    (collection,) = [c for c in ax.collections if c.get_gid() == f"points-{i}"]
    return collection.get_offsets()


def test_per_query_draws_points_boxes_and_means(ax, per_query):
    assert plot_per_query(per_query, ax=ax) is ax
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Recall@10", "MRR"]
    recall, mrr = points(ax, 0), points(ax, 1)
    assert sorted(recall[:, 1]) == [0.0, 0.5, 0.5, 1.0]
    assert sorted(mrr[:, 1]) == [0.25, 0.5, 1.0]  # the NaN is left out
    assert (np.abs(recall[:, 0] - 1) <= 0.18).all()
    assert (np.abs(mrr[:, 0] - 2) <= 0.18).all()
    (means,) = [c for c in ax.collections if c.get_gid() == "means"]
    assert means.get_offsets().tolist() == [[1.0, 0.5], [2.0, 1.75 / 3]]
    assert len([p for p in ax.patches if p.get_label() != "mean"]) == 2  # one box each
    assert ax.get_title() == "4 queries"
    draws(ax)


def test_per_query_jitter_is_seeded(per_query):
    first = points(plot_per_query(per_query), 0)
    again = points(plot_per_query(per_query), 0)
    other = points(plot_per_query(per_query, seed=1), 0)
    assert (first == again).all()
    assert not (first == other).all()


def test_per_query_chooses_metrics_in_order(ax, per_query):
    plot_per_query(per_query, metrics=["mrr"], ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["MRR"]
    assert sorted(points(ax, 0)[:, 1]) == [0.25, 0.5, 1.0]


def test_per_query_on_an_evaluation(ax):
    run = {"q1": ["a", "x", "b"], "q2": ["y", "c"], "q3": ["z"]}
    qrels = {"q1": {"a", "b"}, "q2": {"c"}, "q3": {"d"}}
    result = evaluate(run, qrels, ["recall@2", "ndcg@3", "hit_rate@1"])
    plot_per_query(result.per_query, ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Recall@2", "nDCG@3", "Hit rate@1"]
    (means,) = [c for c in ax.collections if c.get_gid() == "means"]
    assert means.get_offsets()[:, 1].tolist() == result.summary.tolist()


def test_per_query_all_nan_column_is_named_but_not_drawn(ax):
    frame = pd.DataFrame({"mrr": [np.nan, np.nan], "recall@5": [0.0, 1.0]})
    plot_per_query(frame, ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["MRR", "Recall@5"]
    assert not [c for c in ax.collections if c.get_gid() == "points-0"]
    draws(ax)


def test_per_query_validation(ax, per_query):
    with pytest.raises(TypeError, match="per_query must be a DataFrame"):
        plot_per_query({"mrr": [1.0]}, ax=ax)
    with pytest.raises(ValueError, match="metric 'ndcg@10' is not a column of per_query"):
        plot_per_query(per_query, metrics=["ndcg@10"], ax=ax)
    with pytest.raises(ValueError, match="must not repeat"):
        plot_per_query(per_query, metrics=["mrr", "mrr"], ax=ax)
    with pytest.raises(ValueError, match="no metric column"):
        plot_per_query(per_query, metrics=[], ax=ax)
    with pytest.raises(TypeError, match="column 'name' of per_query must hold scores"):
        plot_per_query(per_query.assign(name="x"), metrics=["name"], ax=ax)


# -- plot_threshold_sweep ------------------------------------------------------------------


@pytest.fixture
def sweep():
    from ragmetrics import threshold_sweep

    run = {"q1": {"a": 0.9, "x": 0.6}, "q2": {"y": 0.8, "b": 0.5},
           "q3": {"z": 0.7}, "q4": {"w": 0.4}}
    return threshold_sweep(run, {"q1": {"a"}, "q2": {"b"}, "q3": set(), "q4": set()},
                           system="bm25 $x$")


def test_threshold_sweep_draws_the_table_from_abstain_always_to_answer_always(ax, sweep):
    plot_threshold_sweep(sweep, ax=ax)
    (line,) = ax.get_lines()
    table = sweep.table.iloc[::-1]  # thresholds descending: inf first
    assert line.get_xdata().tolist() == table["false_answer_rate"].tolist()
    assert line.get_ydata().tolist() == table["recall"].tolist()
    assert (line.get_xdata()[0], line.get_ydata()[0]) == (0, 0)
    assert shown(line.get_label()) == "bm25 $x$"  # the system's name, drawn literally
    assert ax.get_xlabel().startswith("false-answer rate")
    draws(ax)


def test_threshold_sweep_marks_the_chosen_threshold(ax, sweep):
    from ragmetrics import threshold_for

    choice = threshold_for(sweep, max_false_answer_rate=0.5, n_resamples=100)
    plot_threshold_sweep(sweep, ax=ax, mark=choice, y="answer_rate")
    (marked,) = [c for c in ax.collections if c.get_gid() == "chosen-threshold"]
    assert marked.get_offsets().tolist() == [[choice.false_answer_rate, choice.answer_rate]]
    assert texts(ax) == ["t = 0.5"]
    # A number between two scores marks the next threshold up: 0.65 reads as 0.7.
    _fig, other = plt.subplots()
    plot_threshold_sweep(sweep.table, ax=other, mark=0.65)
    (marked,) = [c for c in other.collections if c.get_gid() == "chosen-threshold"]
    assert marked.get_offsets().tolist() == [[0.5, 0.5]]


def test_threshold_sweep_validation(ax, sweep):
    from ragmetrics import threshold_sweep

    with pytest.raises(TypeError, match="sweep must be a ThresholdSweep or its table"):
        plot_threshold_sweep([1, 2], ax=ax)
    with pytest.raises(ValueError, match="y must be one of"):
        plot_threshold_sweep(sweep, ax=ax, y="precision")
    with pytest.raises(TypeError, match="mark must be a threshold"):
        plot_threshold_sweep(sweep, ax=ax, mark="high")
    with pytest.raises(ValueError, match="no unanswerable query"):
        plot_threshold_sweep(threshold_sweep({"q1": {"a": 1.0}}, {"q1": {"a"}}), ax=ax)


def test_every_plot_leaves_rcparams_alone():
    before = dict(matplotlib.rcParams)
    ex = load_example("cancellation")
    plot_ranking(ex.retrieved, ex.relevant, 5, titles=ex.titles)
    plot_metrics_over_k(metrics_over_k(ex.retrieved, ex.relevant, range(1, 16)), mark_k=5)
    plot_ndcg_breakdown(ex.retrieved, ex.relevant, 5)
    plot_per_query(pd.DataFrame({"mrr": [0.5, 1.0]}))
    assert dict(matplotlib.rcParams) == before
