"""The teaching notebooks and the new widgets in a real browser (Debian Chromium, Playwright).

- **After Run All, every widget shows its starting state** until the learner moves it: each
  teaching notebook with a widget is run whole (Voila runs every cell, then shows the page;
  JupyterLab's Run All for notebook 01), and every board, explorer, gallery and exercise on
  the page is compared with the state it was displayed with (the display cell's stored
  ``text/plain``, computed by ragmetrics when the notebook was executed). Then one move, and
  Reset puts the board back.
- **The exercise widget**: an answer typed and checked by keyboard: a first wrong answer
  with its hint (no arithmetic), a second with the arithmetic, a value out of range refused
  (not counted), a right answer, the score, the next item, Show solution and an answer after
  it ("revealed, not scored"); each said by the live region; redraw times measured.
- **The precision-recall explorer**: a move by keyboard and one by button, the curve's
  numbers and text alternative from ragmetrics after each, Reset; redraw times measured.
"""

from __future__ import annotations

import ast
import re
import shutil
import statistics
from pathlib import Path

import nbformat
import pytest

from ragmetrics.teaching import ExerciseSet
from ragmetrics.widgets.board_model import BOARD_METRICS, board_view
from ragmetrics.widgets.pr_model import pr_view

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

TOKEN = "ragmetrics-browser-test"
REPO = Path(__file__).resolve().parents[2]
# Every notebook that displays a widget (tests/unit/widgets/test_widgets.py lists the widget classes).
WIDGET_NOTEBOOKS = ["01_recall_at_k", "02_precision_at_k", "03_mrr", "04_ndcg", "05_choosing_k",
                    "06_worked_example_cancellation", "07_when_metrics_lie",
                    "08_evaluate_your_retriever", "08b_statistics_and_decisions",
                    "11_precision_recall_curves"]


@pytest.fixture(scope="module")
def course(notebook_root):
    """The teaching notebooks, copied where the servers serve, next to the data they read."""
    folder = notebook_root / "notebooks"
    folder.mkdir(exist_ok=True)
    for name in WIDGET_NOTEBOOKS:
        shutil.copy2(REPO / "notebooks" / f"{name}.ipynb", folder / f"{name}.ipynb")
    data = notebook_root / "data"
    if not data.exists():
        data.symlink_to(REPO / "data", target_is_directory=True)
    return "notebooks"


def displayed_widgets(name: str) -> list[tuple[str, dict]]:
    """(class, starting state) of each widget the notebook displays, in page order, from the
    ``text/plain`` its display cell stored when the notebook was executed."""
    nb = nbformat.read(REPO / "notebooks" / f"{name}.ipynb", as_version=4)
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "application/vnd.jupyter.widget-view+json" not in data:
                continue
            text = "".join(data["text/plain"])
            cls, _, args = text.partition("(")
            found.append((cls, _parse_repr(cls, args[:-1])))
    return found


def _parse_repr(cls: str, args: str) -> dict:
    if cls in ("RankingBoard", "PrecisionRecallExplorer"):
        call = ast.parse(f"f({args})").body[0].value
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
    if cls == "ExerciseWidget":  # "item 1 of 3: Recall@3, level 1, seed=1"
        m = re.match(r"item (\d+) of (\d+): .*, seed=(\d+)", args)
        return {"item": int(m.group(1)), "total": int(m.group(2)), "seed": int(m.group(3))}
    return dict(re.findall(r"(\w+)=([^,]+)", args))


def order_shown(root) -> list[str]:
    return root.locator("li[data-item]").evaluate_all("items => items.map(i => i.dataset.item)")


def expect_starting_state(page, cls, state, root):
    """The widget shows the state it was displayed with: nothing was moved by the notebook."""
    if cls == "RankingBoard":
        view = board_view(state["order"], state["relevant"], state["k"])
        for name in BOARD_METRICS:
            expect(root.locator(f"td.rmb-value[data-metric='{name}']")).to_have_text(
                f"{view['metrics'][name]:.4f}", timeout=30_000)
        expect(root.locator(".rmb-k-label")).to_have_text(f"k = {state['k']}")
        assert order_shown(root) == state["order"]
    elif cls == "PrecisionRecallExplorer":
        view = pr_view(state["order"], dict.fromkeys(state["relevant"], 1))
        expect(root.locator("td[data-number='ap']")).to_have_text(f"{view['ap']:.4f}", timeout=30_000)
        assert order_shown(root) == state["order"]
    elif cls == "ExerciseWidget":
        expect(root.locator(".rmx-heading")).to_contain_text(
            f"Exercise {state['item']} of {state['total']}", timeout=30_000)
        expect(root.locator(".rmx-heading")).to_contain_text("not tried")
        expect(root.locator(".rmx-message")).to_have_text("")
        expect(root.locator(".rmx-summary")).to_have_text(
            f"Score: 0 of {state['total']} answered right (0 at the first try); "
            f"{state['total']} to go")
    elif cls == "KExplorer":
        expect(root.locator("input[type='range']")).to_have_value(state["k"], timeout=30_000)
    elif cls == "BudgetCalculator":
        expect(root.locator("input").first).to_have_value(state["context_limit"], timeout=30_000)
    elif cls == "ComparisonExplorer":  # "72 queries, metric='ndcg@10', ..., selected='q16'"
        expect(root.locator(".rmc-detail .rmc-title .rmc-id")).to_have_text(
            state["selected"].strip("'"), timeout=30_000)
        # Every query shown (no filter yet), in the starting order.
        expect(root.locator(".rmc-status-line")).to_have_text(
            re.compile(r"^(\d+) of \1 queries shown, sorted by size of Δ"))
    elif cls == "TrapsGallery":
        expect(root.locator("select").first).to_have_value(state["choice"].strip("'"), timeout=30_000)
    else:
        raise AssertionError(f"no starting-state check for {cls}")


def check_page(page, name, report, label):
    widgets = displayed_widgets(name)
    assert widgets, f"{name} displays no widget"
    roots = page.locator(".rm-widget")
    expect(roots).to_have_count(len(widgets), timeout=120_000)
    for i, (cls, state) in enumerate(widgets):
        expect_starting_state(page, cls, state, roots.nth(i))
    report.append(f"{label} {name}: {len(widgets)} widgets, each in its starting state after "
                  f"the whole notebook ran ({', '.join(c for c, _ in widgets)})")
    return widgets


@pytest.mark.parametrize("name", WIDGET_NOTEBOOKS)
def test_after_the_notebook_runs_every_widget_shows_its_starting_state_in_voila(
    voila_server, course, page, browser_report, artifacts, name
):
    page.goto(f"{voila_server}/voila/render/{course}/{name}.ipynb?token={TOKEN}",
              wait_until="commit", timeout=120_000)
    try:
        check_page(page, name, browser_report, "voila")
    except Exception:
        page.screenshot(path=str(artifacts / f"voila-{name}-failure.png"), full_page=True)
        raise
    assert page.errors == []


def test_after_run_all_in_jupyterlab_the_board_waits_for_the_learner_and_reset_puts_it_back(
    lab, course, page, browser_report, run_all, run_all_done, artifacts
):
    name = "01_recall_at_k"
    page.goto(f"{lab}/lab/tree/{course}/{name}.ipynb?reset&token={TOKEN}", wait_until="commit")
    run_all(page)
    try:
        run_all_done(page)
        widgets = check_page(page, name, browser_report, "jupyterlab")
        board = page.locator(".rmb").first
        start = next(state for cls, state in widgets if cls == "RankingBoard")
        # The learner moves chunk_19 up by keyboard; then Reset.
        board.locator("li.rmb-item[data-item='chunk_19']").focus()
        page.keyboard.press("Alt+ArrowUp")
        moved = list(start["order"])
        moved.remove("chunk_19")
        moved.insert(7, "chunk_19")
        expect(board.locator("li.rmb-item").nth(7)).to_have_attribute("data-item", "chunk_19")
        assert order_shown(board) == moved
        board.get_by_role("button", name="Reset the board to its starting state").click()
        expect(board.locator("[role='status']")).to_contain_text("board reset to its starting state")
        expect(board.locator("li.rmb-item").nth(8)).to_have_attribute("data-item", "chunk_19")
        assert order_shown(board) == start["order"]
    except Exception:
        page.screenshot(path=str(artifacts / "jupyterlab-starting-state-failure.png"), full_page=True)
        raise
    assert page.errors == []


# -- the exercise widget -----------------------------------------------------------------


@pytest.fixture(scope="module")
def widgets_page_notebook(make_notebook):
    return make_notebook("teaching_widgets.ipynb", [
        ("from ragmetrics.widgets import ExerciseWidget, PrecisionRecallExplorer\n"
         "quiz = ExerciseWidget(['recall', 'ndcg'], seed=6)\nquiz"),
        "explorer = PrecisionRecallExplorer(['x', 'a', 'y', 'b', 'z'], {'a', 'b', 'c'})\nexplorer",
    ])


def ms(root, start, end) -> float:
    return root.evaluate(f"r => Number(r.dataset.{end}) - Number(r.dataset.{start})")


def exercise_round(page, report, label):
    quiz = page.locator(".rmx").first
    field = quiz.get_by_label(re.compile(r"^Your value of Recall@2$"))
    expect(field).to_be_visible(timeout=60_000)
    practice = ExerciseSet(["recall", "ndcg"], seed=6)
    times = []

    # A wrong answer, by keyboard: type, Enter; the first miss gets a hint, no arithmetic.
    field.focus()
    page.keyboard.type("0.4")
    page.keyboard.press("Enter")
    first = practice.answer("0.4")
    assert first.hint
    assert first.explanation is None
    expect(quiz.locator(".rmx-message")).to_have_text(first.message)
    expect(quiz.locator("[role='status']")).to_have_text(first.message)
    expect(quiz.locator(".rmx-feedback")).to_have_attribute("data-status", "wrong")
    expect(quiz.locator("table.rmx-steps tbody tr")).to_have_count(0)
    assert page.evaluate("() => document.activeElement.classList.contains('rmx-input')")
    times.append(ms(quiz, "sentAt", "feedbackAt"))

    # A value out of the metric's range, by keyboard: refused with a hint, not counted.
    field.fill("1.5")
    page.keyboard.press("Enter")
    refused = practice.answer("1.5")
    expect(quiz.locator(".rmx-message")).to_have_text(refused.message)
    expect(quiz.locator("[role='status']")).to_have_text(refused.message)
    expect(quiz.locator(".rmx-feedback")).to_have_attribute("data-status", "out_of_range")
    expect(quiz.locator(".rmx-summary")).to_have_text(f"Score: {practice.summary()}")
    times.append(ms(quiz, "sentAt", "feedbackAt"))

    # The second wrong answer: the arithmetic rank by rank.
    field.fill("0.4")
    page.keyboard.press("Enter")
    wrong = practice.answer("0.4")
    expect(quiz.locator(".rmx-message")).to_have_text(wrong.message)
    expect(quiz.locator("[role='status']")).to_have_text(
        wrong.message.removesuffix(" The arithmetic, rank by rank:"))
    rows = quiz.locator("table.rmx-steps tbody tr")
    expect(rows).to_have_count(len(wrong.explanation.rows))
    assert rows.first.locator("td").all_inner_texts() == list(wrong.explanation.rows[0])
    expect(quiz.locator("ol.rmx-lines li").last).to_have_text(wrong.explanation.lines[-1])
    assert page.evaluate("() => document.activeElement.classList.contains('rmx-input')")
    times.append(ms(quiz, "sentAt", "feedbackAt"))

    # The right answer, with the Check button.
    field.fill("1/2")
    quiz.get_by_role("button", name="Check").click()
    right = practice.answer("1/2")
    expect(quiz.locator(".rmx-message")).to_have_text(right.message)
    expect(quiz.locator(".rmx-summary")).to_have_text(f"Score: {practice.summary()}")
    times.append(ms(quiz, "sentAt", "feedbackAt"))

    # Next: a new item, an empty field, the heading says where we are.
    quiz.get_by_role("button", name="Next exercise").click()
    practice.next()
    expect(quiz.locator(".rmx-question")).to_have_text(practice.current.question)
    expect(quiz.locator(".rmx-heading")).to_contain_text(f"Exercise 2 of {len(practice)}")
    expect(quiz.locator("label.rmx-label")).to_have_text(f"Your value of {practice.current.label}")
    expect(quiz.locator("input.rmx-input")).to_have_value("")
    times.append(ms(quiz, "sentAt", "itemDrawnAt"))

    # Show solution, then the right value typed: revealed, not scored.
    quiz.get_by_role("button", name="Show solution").click()
    revealed = practice.reveal()
    expect(quiz.locator(".rmx-message")).to_have_text(revealed.message)
    expect(quiz.locator(".rmx-heading")).to_contain_text("solution shown, not scored")
    times.append(ms(quiz, "sentAt", "feedbackAt"))
    quiz.locator("input.rmx-input").fill(f"{practice.current.answer:.4f}")
    page.keyboard.press("Enter")
    unscored = practice.answer(f"{practice.current.answer:.4f}")
    assert unscored.status == "not_scored"
    expect(quiz.locator(".rmx-message")).to_have_text(unscored.message)
    expect(quiz.locator("[role='status']")).to_have_text(unscored.message)
    expect(quiz.locator(".rmx-feedback")).to_have_attribute("data-status", "not_scored")
    expect(quiz.locator(".rmx-summary")).to_have_text(f"Score: {practice.summary()}")
    assert "not scored" in practice.summary()
    times.append(ms(quiz, "sentAt", "feedbackAt"))
    report.append(f"{label} ExerciseWidget: a typed wrong answer with its hint, one out of range "
                  f"refused, a second with its arithmetic, a right answer, the score, Next, Show "
                  f"solution and an answer after it, not scored; action -> redrawn: median "
                  f"{statistics.median(times):.0f} ms, max {max(times):.0f} ms")
    assert max(times) < 2000


def pr_round(page, report, label):
    explorer = page.locator(".rmpr").first
    order = ["x", "a", "y", "b", "z"]
    relevance = {"a": 1, "b": 1, "c": 1}
    expect(explorer.locator("td[data-number='ap']")).to_have_text(
        f"{pr_view(order, relevance)['ap']:.4f}", timeout=60_000)
    lists, rounds = [], []

    def settled(new_order, moved, rank):
        view = pr_view(new_order, relevance)
        expect(explorer.locator("td[data-number='ap']")).to_have_text(f"{view['ap']:.4f}")
        expect(explorer.locator("td[data-number='eleven_point_average']")).to_have_text(
            f"{view['eleven_point_average']:.4f}")
        expect(explorer.locator("td[data-number='r_precision']")).to_have_text(f"{view['r_precision']:.4f}")
        expect(explorer.locator("svg.rmpr-plot")).to_have_attribute("aria-label", view["description"])
        expect(explorer.locator("[role='status']")).to_contain_text(f"chunk {moved} moved to rank {rank}")
        assert order_shown(explorer) == new_order
        lists.append(ms(explorer, "movedAt", "listDrawnAt"))
        rounds.append(ms(explorer, "movedAt", "updatedAt"))

    # Keyboard: b up to rank 1 (three Alt+Up), focus stays on b.
    explorer.locator("li[data-item='b']").focus()
    for rank in (3, 2, 1):
        page.keyboard.press("Alt+ArrowUp")
        order.remove("b")
        order.insert(rank - 1, "b")
        settled(list(order), "b", rank)
        assert page.evaluate("() => document.activeElement.dataset.item") == "b"
    # A button: a up one rank.
    explorer.get_by_role("button", name="Move a up").click()
    i = order.index("a")
    order[i - 1], order[i] = order[i], order[i - 1]
    settled(list(order), "a", i)
    # Reset.
    explorer.get_by_role("button", name="Reset the ranking to its starting order").click()
    expect(explorer.locator("[role='status']")).to_contain_text("ranking reset to its starting order")
    assert order_shown(explorer) == ["x", "a", "y", "b", "z"]
    report.append(f"{label} PrecisionRecallExplorer: 3 Alt+Up moves and a button move; move -> "
                  f"list redrawn: median {statistics.median(lists):.1f} ms, max {max(lists):.1f} ms; "
                  f"move -> new curve from the kernel: median {statistics.median(rounds):.0f} ms, "
                  f"max {max(rounds):.0f} ms")
    assert max(lists) < 100
    assert statistics.median(rounds) < 1000


def test_exercise_and_precision_recall_widgets_in_jupyterlab(
    lab, widgets_page_notebook, page, browser_report, run_all, artifacts
):
    page.goto(f"{lab}/lab/tree/{widgets_page_notebook}?reset&token={TOKEN}", wait_until="commit")
    run_all(page)
    try:
        exercise_round(page, browser_report, "jupyterlab")
        pr_round(page, browser_report, "jupyterlab")
    except Exception:
        page.screenshot(path=str(artifacts / "jupyterlab-teaching-widgets-failure.png"), full_page=True)
        raise
    assert page.errors == []


def test_exercise_and_precision_recall_widgets_in_voila(
    voila_server, widgets_page_notebook, page, browser_report, artifacts
):
    page.goto(f"{voila_server}/voila/render/{widgets_page_notebook}?token={TOKEN}",
              wait_until="commit")
    try:
        exercise_round(page, browser_report, "voila")
        pr_round(page, browser_report, "voila")
    except Exception:
        page.screenshot(path=str(artifacts / "voila-teaching-widgets-failure.png"), full_page=True)
        raise
    assert page.errors == []
