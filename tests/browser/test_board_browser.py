"""The RankingBoard in a real browser: JupyterLab and Voila, Debian Chromium, Playwright.

Every assertion compares what the page shows with what ragmetrics computes for the new
state, so the round trip browser -> kernel -> ragmetrics -> browser is what is tested.
"""

from __future__ import annotations

import statistics
import time

import nbformat
import pytest

from ragmetrics.teaching import load_example
from ragmetrics.widgets.board_model import BOARD_METRICS, board_view, move

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

NOTEBOOK = "board_in_browser.ipynb"
EVIL_TITLE = "<img src=x onerror=alert(1)>"
CELLS = [
    "from ragmetrics.widgets import RankingBoard",
    'board = RankingBoard.from_example("cancellation")\nboard',
    f'evil = RankingBoard(["a", "b"], {{"a"}}, k=1, titles={{"a": {EVIL_TITLE!r}}})\nevil',
]


@pytest.fixture(scope="module")
def notebook(notebook_root):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, notebook_root / NOTEBOOK)
    return NOTEBOOK


def expect_board_shows(board, order, relevance, k):
    """The metric cells show ragmetrics' values for this state, at 4 decimals."""
    view = board_view(order, relevance, k)
    for name in BOARD_METRICS:
        cell = board.locator(f"td.rmb-value[data-metric='{name}']")
        expect(cell).to_have_text(f"{view['metrics'][name]:.4f}", timeout=15_000)
    expect(board.locator("td[data-total='dcg']")).to_have_text(f"{view['dcg']:.4f}")
    shown = board.locator("li.rmb-item").evaluate_all("items => items.map(i => i.dataset.item)")
    assert shown == order


def drop_to_update_ms(board) -> float:
    return board.evaluate("root => Number(root.dataset.updatedAt) - Number(root.dataset.movedAt)")


def exercise_board(page, artifacts, report, label):
    example = load_example("cancellation")
    order, relevance, k = list(example.retrieved), dict(example.relevant), 10
    board = page.locator(".rmb").first
    expect_board_shows(board, order, relevance, k)

    # Drag chunk 19 (rank 6) onto rank 2: HTML5 drag and drop.
    board.locator("li.rmb-item[data-item='19']").drag_to(board.locator("li.rmb-item[data-item='99']"))
    order = move(order, "19", 2)
    expect_board_shows(board, order, relevance, k)
    latency = drop_to_update_ms(board)
    moves = [latency]
    shot = artifacts / f"{label}-board-after-drag.png"
    page.screenshot(path=str(shot), full_page=True)
    report.append(f"{label}: screenshot after a drag: {shot}")

    # Keyboard: the labelled up button, then Alt+ArrowDown on a focused chunk.
    board.get_by_role("button", name="Move 88 up").focus()
    page.keyboard.press("Enter")
    order = move(order, "88", order.index("88"))
    expect_board_shows(board, order, relevance, k)
    moves.append(drop_to_update_ms(board))
    board.locator("li.rmb-item[data-item='42']").focus()
    page.keyboard.press("Alt+ArrowDown")
    order = move(order, "42", 2)
    expect_board_shows(board, order, relevance, k)
    moves.append(drop_to_update_ms(board))

    # Click toggles relevance; Enter on a focused chunk does too.
    board.locator("li.rmb-item[data-item='99'] .rmb-id").click()
    relevance["99"] = 1
    expect_board_shows(board, order, relevance, k)
    moves.append(drop_to_update_ms(board))
    board.locator("li.rmb-item[data-item='42']").focus()
    page.keyboard.press("Enter")
    relevance["42"] = 0
    expect_board_shows(board, order, relevance, k)
    moves.append(drop_to_update_ms(board))

    # The k slider, by keyboard (Notebook 7 too: the board keeps its keys from the host).
    slider = board.locator("input.rmb-k")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    k = 9
    expect(board.locator(".rmb-k-label")).to_have_text("k = 9")
    expect_board_shows(board, order, relevance, k)
    moves.append(drop_to_update_ms(board))
    report.append(
        f"{label}: move -> updated metrics: first drag {latency:.0f} ms; {len(moves)} moves "
        f"(drag, keys, clicks, slider): median {statistics.median(moves):.0f} ms, "
        f"max {max(moves):.0f} ms"
    )
    return latency


def check_titles_are_text(page):
    evil = page.locator(".rmb").nth(1)
    expect(evil.locator("li.rmb-item[data-item='a'] .rmb-title")).to_have_text(EVIL_TITLE)
    assert evil.locator("img").count() == 0
    assert page.dialogs == []


def test_board_in_jupyterlab(lab, notebook, page, artifacts, browser_report, run_all):
    start = time.monotonic()
    page.goto(f"{lab}/lab/tree/{notebook}?reset&token=ragmetrics-browser-test", wait_until="commit")
    run_all(page)
    try:
        latency = exercise_board(page, artifacts, browser_report, "jupyterlab")
        check_titles_are_text(page)
    except Exception:
        page.screenshot(path=str(artifacts / "jupyterlab-failure.png"), full_page=True)
        raise
    print(f"[browser] JupyterLab test took {time.monotonic() - start:.1f} s")
    assert latency < 1000  # the target is 100 ms; this bound only catches a broken round trip
    assert page.errors == []


def test_board_in_voila(voila_server, notebook, page, artifacts, browser_report):
    page.goto(f"{voila_server}/voila/render/{notebook}?token=ragmetrics-browser-test",
              wait_until="commit")
    try:
        exercise_board(page, artifacts, browser_report, "voila")
        check_titles_are_text(page)
    except Exception:
        page.screenshot(path=str(artifacts / "voila-failure.png"), full_page=True)
        raise
    assert page.errors == []


def test_board_in_notebook_7(lab, notebook, page, artifacts, browser_report, run_all):
    """Notebook 7 is served by the same server (its /notebooks route) with the same widgets."""
    pytest.importorskip("notebook")
    page.goto(f"{lab}/notebooks/{notebook}?token=ragmetrics-browser-test", wait_until="commit")
    run_all(page, attempts=6, wait_for_idle=False)
    try:
        exercise_board(page, artifacts, browser_report, "notebook7")
        check_titles_are_text(page)
    except Exception:
        page.screenshot(path=str(artifacts / "notebook7-failure.png"), full_page=True)
        raise
    # Notebook 7's own plugins log errors on load here ("reading 'schema'", "Command
    # 'filebrowser:open-path' not registered"), so only errors raised in the board's code
    # (an anywidget module, loaded from a blob: URL) fail this test.
    ours = [e for e, stack in zip(page.errors, page.stacks, strict=True) if "blob:" in stack]
    assert ours == []
