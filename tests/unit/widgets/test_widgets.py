"""Widgets without a browser: Python holds the state, and every number is ragmetrics'.

Setting a trait from Python is exactly what the browser does (``model.set`` +
``save_changes``), so these tests cover the wiring; tests/browser covers the drawing.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import traitlets

import ragmetrics as rm
from ragmetrics.teaching import load_example
from ragmetrics.widgets import RankingBoard, base, controls
from ragmetrics.widgets.base import AccessibleWidget, WidgetValueError
from ragmetrics.widgets.controls import ExplorerBox, LiveRegion, PlotImage, Select, Slider
from ragmetrics.widgets.explorers import BudgetCalculator, KExplorer, TrapsGallery

BOARD_FUNCTIONS = {
    "recall": rm.recall_at_k,
    "precision": rm.precision_at_k,
    "hit_rate": rm.hit_rate_at_k,
    "rr": rm.reciprocal_rank,
    "ndcg": rm.ndcg_at_k,
}


def assert_board_matches_library(board):
    relevant = dict(board.relevance)
    for name, function in BOARD_FUNCTIONS.items():
        expected = function(board.order, relevant, board.k)
        assert math.isclose(board.metrics[name], expected, rel_tol=0, abs_tol=1e-15), name


def test_board_starts_with_the_articles_cancellation_numbers():
    board = RankingBoard.from_example("cancellation")
    assert board.k == 10
    assert board.metrics["recall"] == 1.0
    assert board.metrics["precision"] == pytest.approx(0.3)
    assert board.metrics["ndcg"] == pytest.approx(0.8710785440003369)
    assert_board_matches_library(board)


@pytest.mark.parametrize("name", ["refund_policy", "cancellation", "k_tradeoff", "precision_trap"])
def test_every_article_example_opens(name):
    board = RankingBoard.from_example(name)
    assert board.order == load_example(name).retrieved
    assert_board_matches_library(board)


def test_a_drag_recomputes_every_metric():
    board = RankingBoard.from_example("cancellation", k=5)
    before = dict(board.metrics)
    board.order = ["19", *[d for d in board.order if d != "19"]]  # what a drop sends
    assert before["recall"] == pytest.approx(2 / 3)
    assert board.metrics["recall"] == 1.0
    assert_board_matches_library(board)


def test_move_puts_a_chunk_at_a_rank():
    board = RankingBoard(["a", "b", "c", "d"], {"d"}, k=2)
    board.move("d", 1)
    assert board.order == ["d", "a", "b", "c"]
    assert board.metrics["rr"] == 1.0
    with pytest.raises(ValueError, match="'zz' is not on the board"):
        board.move("zz", 1)
    with pytest.raises(ValueError, match="to_rank must be between 1 and 4, got 9"):
        board.move("a", 9)


def test_toggle_flips_binary_relevance_and_the_browser_trait_does_the_same():
    board = RankingBoard(["a", "b", "c"], {"a"}, k=3)
    board.toggle("b")
    assert board.relevance["b"] == 1.0
    assert board.metrics["precision"] == pytest.approx(2 / 3)
    # What a click in the browser sets (a synced trait, as a drag sets ``order``).
    board.toggle_request = {"doc_id": "b", "click": 1}
    assert board.relevance["b"] == 0.0
    assert board.metrics["precision"] == pytest.approx(1 / 3)
    board.toggle_request = {"doc_id": "b", "click": 2}  # a second click: a second change
    assert board.relevance["b"] == 1.0
    assert_board_matches_library(board)


def test_toggle_cycles_grades_on_a_graded_board():
    board = RankingBoard(["a", "b"], {"a": 3, "b": 1}, k=2)
    assert board.max_grade == 3
    seen = []
    for _ in range(4):
        board.toggle("b")
        seen.append(board.relevance["b"])
    assert seen == [2.0, 3.0, 0.0, 1.0]
    assert_board_matches_library(board)


def test_k_slider_recomputes_and_bad_k_is_refused():
    board = RankingBoard.from_example("k_tradeoff")
    board.k = 5
    assert board.metrics["ndcg"] == pytest.approx(0.5531, abs=5e-5)  # the article's erratum
    assert_board_matches_library(board)
    with pytest.raises(traitlets.TraitError, match="k must be a positive int"):
        board.k = 0


def test_order_must_stay_a_permutation():
    board = RankingBoard(["a", "b", "c"], {"a"}, k=2)
    with pytest.raises(traitlets.TraitError, match="permutation"):
        board.order = ["a", "b", "zz"]
    with pytest.raises(traitlets.TraitError, match="permutation"):
        board.order = ["a", "b"]
    assert board.order == ["a", "b", "c"]


def test_relevant_chunks_that_were_not_retrieved_count_and_are_listed():
    board = RankingBoard(["a", "x"], {"a", "gone"}, k=2)
    assert board.metrics["recall"] == 0.5
    assert board.view["unretrieved"] == ["gone"]


def test_ndcg_arithmetic_is_shown_rank_by_rank():
    board = RankingBoard.from_example("refund_policy")
    rows = board.view["ndcg_rows"]
    assert [r["doc_id"] for r in rows] == ["chunk_A", "chunk_B", "chunk_C", "chunk_D", "chunk_E"]
    assert rows[4]["discount"] == pytest.approx(math.log2(6))
    assert board.view["dcg"] == pytest.approx(1 + 1 / 2 + 1 / math.log2(6))
    assert board.view["idcg"] == pytest.approx(1 + 1 / math.log2(3) + 1 / 2)


def test_repr_and_description_are_deterministic_text():
    board = RankingBoard(["a", "b"], {"b": 2}, k=1)
    assert repr(board) == "RankingBoard(order=['a', 'b'], relevant={'b': 2.0}, k=1)"
    text = board.describe()
    assert "  2. b                relevant (grade 2)" in text
    assert "---- cut-off k = 1 ----" in text
    assert "Recall@1 = 0.0000" in text
    assert "nDCG@1 = 0.0000" in text


def test_static_html_fallback_escapes_untrusted_titles():
    board = RankingBoard(["a"], {"a"}, k=1, titles={"a": "<img src=x onerror=alert(1)>"})
    data, _metadata = board._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    fallback = data["text/html"]
    assert "<img" not in fallback
    assert "&lt;img src=x onerror=alert(1)&gt;" in fallback
    assert "<td>1.0000</td>" in fallback


def test_ids_are_shown_as_text_and_colliding_ids_are_refused():
    board = RankingBoard([42, 99], {42}, k=1)
    assert board.order == ["42", "99"]
    with pytest.raises(ValueError, match="collide"):
        RankingBoard([42, "42"], {42}, k=1)


WIDGETS_DIR = Path(rm.__file__).parent / "widgets"


@pytest.mark.parametrize("path", sorted(WIDGETS_DIR.glob("*.js")), ids=lambda p: p.name)
def test_front_end_never_builds_html_from_strings(path):
    """Titles are untrusted: the ES modules must only ever use textContent."""
    source = path.read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in source


def test_k_explorer_follows_the_slider():
    explorer = KExplorer.from_example("k_tradeoff")
    first_png = bytes(explorer.image.value)
    assert first_png.startswith(b"\x89PNG")
    explorer.slider.value = 25
    assert explorer.values()["recall"] == 1.0
    assert explorer.values()["ndcg"] == pytest.approx(0.8273, abs=5e-5)
    assert bytes(explorer.image.value) != first_png
    assert "Recall@25 = 1.0000" in explorer.text()


def test_budget_calculator_reports_recall_at_the_budget():
    calc = BudgetCalculator.from_example("k_tradeoff")
    calc.limit.value = 1700
    assert calc.k_budget() == 4
    assert "Recall@4 = 0.4000 vs Recall@10 = 0.8000" in calc.text()
    assert calc.status.announcement == "4 chunks fit; Recall@4 0.40 vs Recall@10 0.80"
    calc.chunk.value = 1200
    assert calc.status.announcement == "1 chunk fits; Recall@1 0.20 vs Recall@10 0.80"
    calc.chunk.value = 300
    calc.limit.value = 700
    assert calc.k_budget() == 0
    assert calc.text().startswith("No chunk fits")
    assert calc.status.announcement == "no chunk fits; Recall@10 0.80 is out of reach"


def test_budget_defaults_are_valid_entries_for_their_fields():
    """A browser checks value against min and step: with step=100 and min=1, the default
    2000 was "invalid" (valid values were 1, 101, ...), and a screen reader said so."""
    calc = BudgetCalculator.from_example("k_tradeoff")
    for field in (calc.limit, calc.prompt, calc.chunk, calc.answer):
        assert field.min <= field.value <= field.max
        assert (field.value - field.min) % field.step == 0, field.description
    for limit in (1700, 2000, 4096, 8192):  # notebook 05's checkpoint values
        assert (limit - calc.limit.min) % calc.limit.step == 0


def test_traps_gallery_is_a_quiz_the_name_hidden_until_the_metric_is_found():
    gallery = TrapsGallery()
    for name, trap in gallery.traps.items():
        gallery.choice.value = name
        scores = trap.scores()
        assert gallery.answer.value == ""  # a new trap starts unanswered
        question = gallery.text()
        assert f"reports {trap.looks_fine} = {scores[trap.looks_fine]:.4f}" in question
        shown = question + gallery.result.value + repr(gallery)
        for other in gallery.traps.values():  # no trap's name, no verdict before a choice
            assert other.title not in shown
        assert f"{scores[trap.reveals]:.4f}" not in question.replace(
            f"{trap.looks_fine} = {scores[trap.looks_fine]:.4f}", "")
        assert "tells the truth" not in shown
        assert [v for _label, v in gallery.answer.options] == [
            "", *(m for m in trap.metric_names if m != trap.looks_fine)]
        for metric in trap.metric_names:
            if metric in (trap.looks_fine, trap.reveals):
                continue
            gallery.answer.value = metric
            assert "Not this one" in gallery.text()
            assert trap.title not in gallery.text()
            assert not gallery.found
        gallery.answer.value = trap.reveals
        assert gallery.found
        assert f'This was "{trap.title}"' in gallery.text()
        assert trap.lesson in gallery.text()
        assert bytes(gallery.image.value).startswith(b"\x89PNG")


def test_from_example_refuses_a_bad_k_instead_of_defaulting():
    with pytest.raises(ValueError, match="k must be a positive int"):
        RankingBoard.from_example("cancellation", k=0)


def test_a_cut_off_below_the_list_is_drawn_and_precision_divides_by_k():
    board = RankingBoard(["a", "b"], {"a"}, k=4)
    assert "---- cut-off k = 4 (below the last of 2 chunks) ----" in board.describe()
    assert "(below the last of 2 chunks)" in board._repr_mimebundle_()[0]["text/html"]
    assert board.metrics["precision"] == 0.25


@pytest.mark.parametrize(
    "make", [lambda: KExplorer.from_example("k_tradeoff"), TrapsGallery,
             lambda: BudgetCalculator.from_example("k_tradeoff")],
)
def test_explorers_have_a_static_html_fallback(make):
    bundle = make()._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert "<table" in data["text/html"] or "<p>" in data["text/html"]


# -- the widget layer: one set of rules for every widget ----------------------------------



def _public_widget_classes():
    import inspect

    import ipywidgets

    import ragmetrics.widgets as rmw

    found = set()
    for module in (rmw, rmw.board, rmw.explorers):
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, ipywidgets.Widget)
                    and not name.startswith("_") and obj.__module__.startswith("ragmetrics")):
                found.add(obj)
    return found


def test_every_public_widget_is_a_root_built_on_the_shared_layer():
    roots = set(base.root_widgets())
    building_blocks = {AccessibleWidget, ExplorerBox, LiveRegion, PlotImage, Select, Slider}
    assert roots == _public_widget_classes() - building_blocks
    for cls in roots:
        assert issubclass(cls, (AccessibleWidget, ExplorerBox)), cls
        widget = cls.example()
        assert isinstance(widget, cls)


@pytest.mark.parametrize("cls", base.root_widgets(), ids=lambda c: c.__name__)
def test_every_root_has_exactly_one_live_region(cls):
    widget = cls.example()
    if isinstance(widget, ExplorerBox):
        assert [c for c in widget.children if isinstance(c, LiveRegion)] == [widget.status]
        assert {"rm-widget", "rm-explorer"} <= set(widget._dom_classes)
    else:
        assert widget.has_trait("announcement")
        assert "rmLiveRegion(model" in widget._esm
        assert widget._esm.count("rmLiveRegion(model") == 1 + KIT_DEFINITIONS


KIT_DEFINITIONS = base.KIT_JS.count("rmLiveRegion(model")


def test_every_anywidget_carries_the_kit_and_the_theme():
    classes = [RankingBoard, LiveRegion, Slider, Select, PlotImage]
    for cls in classes:
        assert cls._esm.startswith(base.KIT_JS), cls
        assert cls._css.startswith(base.THEME_CSS), cls


def test_a_root_without_an_example_is_refused_at_definition():
    with pytest.raises(TypeError, match="needs an example"):
        class Nameless(ExplorerBox):
            pass


def test_widget_css_uses_theme_variables_and_no_opacity():
    """Colours come from JupyterLab's theme variables; a literal colour may only be the
    fallback inside var(--jp-..., fallback). Nothing is faded with opacity."""
    import re

    for path in sorted(WIDGETS_DIR.glob("*.css")):
        css = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.DOTALL)
        assert "opacity" not in css, path.name
        bare = re.sub(r"var\(--jp-[\w-]+,\s*[^;]*?\)(?=[;\s]|$)", "var()", css, flags=re.MULTILINE)
        literal = re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(", bare)
        assert literal == [], f"{path.name}: colours outside theme variables: {literal}"


def test_board_keeps_its_class_names():
    """Browser tests and users' own CSS rely on the board's rmb-* class names."""
    def code(name: str) -> str:  # the file without its line comments: a name there
        text = (WIDGETS_DIR / name).read_text()  # makes no element
        return re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE)

    board, kit = code("board.js"), code("kit.js")
    # The shared ranked list makes its classes from the prefix the board gives it.
    assert re.search(r'rmRankList\(model, root, \{\s*prefix: "rmb"', board)
    from_the_list = {f"rmb-{suffix}" for suffix in re.findall(r"`\$\{prefix\}-([a-z-]+)`", kit)}
    assert {"rmb-list", "rmb-item", "rmb-rank", "rmb-id", "rmb-btn"} <= from_the_list
    source = board + (WIDGETS_DIR / "board.css").read_text()
    kept = ["rmb", "rmb-grid", "rmb-left", "rmb-right", "rmb-slider", "rmb-k", "rmb-k-label",
            "rmb-list", "rmb-item", "rmb-relevant", "rmb-below", "rmb-dragging", "rmb-over",
            "rmb-label", "rmb-rank", "rmb-id", "rmb-title", "rmb-grade", "rmb-btn",
            "rmb-cutoff", "rmb-note", "rmb-metrics", "rmb-value", "rmb-ndcg", "rmb-plot",
            "rmb-swatch"]
    for name in kept:
        assert (name in from_the_list or f'"{name}"' in source or f"{name} " in source
                or f".{name}" in source), name


def test_slider_refuses_values_out_of_range_and_needs_a_name():
    slider = Slider(value=3, min=1, max=10, description="cut-off k")
    with pytest.raises(WidgetValueError, match="cut-off k must be between 1 and 10, got 0"):
        slider.value = 0
    with pytest.raises(ValueError, match="between 1 and 10, got 11"):  # also a ValueError
        slider.value = 11
    assert slider.value == 3
    with pytest.raises(WidgetValueError, match="accessible name"):
        Slider(value=1, min=1, max=2, description="")
    with pytest.raises(WidgetValueError, match="min must not exceed max, got 5 > 2"):
        Slider(value=1, min=5, max=2, description="k")


def test_select_refuses_unknown_values_and_duplicate_options():
    choice = Select(options=[("One", "a"), ("Two", "b")], description="pick", value="b")
    assert choice.value == "b"
    with pytest.raises(traitlets.TraitError, match=r"pick must be one of \['a', 'b'\], got 'c'"):
        choice.value = "c"
    with pytest.raises(WidgetValueError, match="unique values"):
        Select(options=[("One", "a"), ("Again", "a")], description="pick")


def test_plot_image_needs_a_text_alternative():
    image = PlotImage()
    with pytest.raises(WidgetValueError, match="text alternative"):
        image.show(b"\x89PNG", "  ")
    image.show(b"\x89PNG", "a plot")
    assert (image.value, image.alt) == (b"\x89PNG", "a plot")


def test_k_explorer_describes_its_plot_and_announces_each_k():
    explorer = KExplorer.from_example("k_tradeoff")
    assert explorer.status.announcement == ""  # nothing changed yet
    assert explorer.slider.description == "cut-off k"
    assert explorer.image.alt.startswith("Metrics over k = 1 to 25, cut-off marked at k = 10. ")
    assert "Recall@10 0.80" in explorer.image.alt
    assert "Highest: Recall@23 1.00" in explorer.image.alt
    explorer.slider.value = 5
    assert "At k = 5: Recall@5 0.40, Precision@5 0.40" in explorer.image.alt
    assert explorer.status.announcement == (
        "cut-off k = 5; Recall@5 0.40, Precision@5 0.40, Hit rate@5 1.00, RR@5 1.00, nDCG@5 0.55"
    )
    with pytest.raises(ValueError, match="cut-off k must be between 1 and 25, got 26"):
        explorer.slider.value = 26
    with pytest.raises(ValueError, match="between 1 and 5, got 10"):
        KExplorer(["a"], {"a"}, k=10, max_k=5)


def test_traps_gallery_describes_each_ranking_and_announces_the_verdict():
    gallery = TrapsGallery()
    assert gallery.image.alt == (
        "Ranking of 10 chunks, cut-off after rank 10. Relevant at ranks 1-5, 7-10; "
        "9 of the top 10 are relevant. 31 relevant chunks never retrieved."
    )
    gallery.choice.value = "high_mrr_low_recall"
    trap = gallery.traps["high_mrr_low_recall"]
    assert gallery.status.announcement == gallery.text().splitlines()[0]
    assert gallery.image.alt.startswith(f"Ranking of {len(trap.retrieved)} chunks")


def test_board_announces_moves_toggles_and_k():
    board = RankingBoard.from_example("cancellation")
    assert board.announcement == ""
    board.move("19", 2)
    assert board.announcement == "chunk 19 moved to rank 2; nDCG@10 0.87 → 0.97"
    board.toggle("19")
    assert board.announcement == (
        # 19 leaves the golden set too: recall stays 2 of 2; nDCG = (1 + 1/log2 5) / (1 + 1/log2 3)
        "chunk 19 marked not relevant; Precision@10 0.30 → 0.20, nDCG@10 0.97 → 0.88"
    )
    board.k = 3
    assert board.announcement == (  # top 3: 42, 19, 99; relevant: 42 and 88
        "cut-off k = 3; Recall@3 1.00 → 0.50, Precision@3 0.20 → 0.33, Hit rate@3 1.00, "
        "RR@3 1.00, nDCG@3 0.88 → 0.61"
    )
    assert_board_matches_library(board)


def test_board_tells_which_neighbour_moved_from_what_the_browser_says():
    """A swap of neighbours is a move of either: the browser sends `moved` with `order`."""
    board = RankingBoard(["a", "b", "c"], {"a"}, k=1)
    with board.hold_trait_notifications():  # how ipywidgets applies a browser update
        board.moved = "a"
        board.order = ["b", "a", "c"]
    assert board.announcement.startswith("chunk a moved to rank 2, now below the cut-off; ")
    with board.hold_trait_notifications():
        board.moved = "c"
        board.order = ["b", "c", "a"]
    assert board.announcement.startswith("chunk c moved to rank 2; ")


def test_board_sends_series_styles_with_dashes_and_markers():
    board = RankingBoard(["a"], {"a"}, k=1)
    styles = board.series
    # the board's metrics, and the diversity measures a board with facets adds
    assert set(styles) == set(BOARD_FUNCTIONS) | {"alpha_ndcg", "strec"}
    # Told apart by dash or marker, not by colour alone.
    assert len({(s["dash"], s["marker"]) for s in styles.values()}) == len(styles)
    assert len({s["marker"] for s in styles.values()}) == len(styles)


def test_board_view_describes_its_plot():
    board = RankingBoard.from_example("refund_policy")
    assert board.view["plot_description"] == (
        "Metrics over k = 1 to 5, cut-off marked at k = 5. At k = 5: Recall@5 1.00, "
        "Precision@5 0.60, Hit rate@5 1.00, RR@5 1.00, nDCG@5 0.89. Highest: Recall@5 1.00, "
        "Precision@1 1.00, Hit rate@1 1.00, RR@1 1.00, nDCG@1 1.00."
    )


def test_controls_module_is_the_only_home_of_the_kit_controls():
    assert controls.__all__ == ["ExplorerBox", "LiveRegion", "PlotImage", "Select", "Slider"]
