"""The RankingBoard with facets in JupyterLab (Debian Chromium, Playwright): each chunk
shows its facets as written labels with a coloured edge at 3:1 against the page, and a
move by keyboard changes alpha-nDCG@k in the readout and the live region, as ragmetrics
computes it; nDCG@k and Recall@k stay.
"""

from __future__ import annotations

import pytest
from wcag import contrast, rgb

from ragmetrics.widgets.board_model import (
    board_view,
    describe_change,
    facet_colours,
    metric_changes,
    move,
)

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

NOTEBOOK = "board_facets_in_browser.ipynb"
ORDER = ["a", "b", "c", "x"]
RELEVANCE = {"a": 1, "b": 1, "c": 1}
FACETS = {"a": ["price"], "b": ["how"], "c": ["price", "timing"]}
K = 3
CELLS = [
    "from ragmetrics.widgets import RankingBoard",
    f"board = RankingBoard({ORDER!r}, {set(RELEVANCE)!r}, k={K}, facets={FACETS!r})\nboard",
]


def state(order):
    return {"order": list(order), "relevance": dict(RELEVANCE), "k": K,
            "metrics": board_view(order, RELEVANCE, K, facets=FACETS)["metrics"]}


def test_board_with_facets_moved_by_keyboard(lab, make_notebook, page, artifacts,
                                             browser_report, run_all):
    name = make_notebook(NOTEBOOK, CELLS)
    page.goto(f"{lab}/lab/tree/{name}?reset&token=ragmetrics-browser-test", wait_until="commit")
    run_all(page)
    board = page.locator(".rmb").first
    try:
        order = list(ORDER)
        start = state(order)
        value = board.locator("td.rmb-value[data-metric='alpha_ndcg']")
        expect(value).to_have_text(f"{start['metrics']['alpha_ndcg']:.4f}", timeout=30_000)
        # Facets as text, each chip's edge in its facet's colour, 3:1 against the page.
        colours = facet_colours(FACETS)
        background = page.evaluate(
            "() => getComputedStyle(document.querySelector('.jp-Notebook')).backgroundColor")
        for doc, names in FACETS.items():
            chips = board.locator(f"li.rmb-item[data-item='{doc}'] .rmb-facet")
            expect(chips).to_have_text(names)
            for facet in names:
                edge = board.locator(f"li.rmb-item[data-item='{doc}'] "
                                     f".rmb-facet[data-facet='{facet}']").evaluate(
                    "el => getComputedStyle(el).borderLeftColor")
                assert edge == rgb(colours[facet]["light"]), (doc, facet, edge)
                assert contrast(edge, background) >= 3, (facet, edge, background)
        assert "facets: price, timing" in board.locator(
            "li.rmb-item[data-item='c']").get_attribute("aria-label")
        assert board.locator("li.rmb-item[data-item='x'] .rmb-facets").is_hidden()

        # Keyboard: Alt+Up on c (price again, timing new) puts it above b (how): alpha-nDCG@3
        # rises (0.83 -> 0.85: the new facet comes a rank earlier); nDCG and recall stay.
        board.locator("li.rmb-item[data-item='c']").focus()
        page.keyboard.press("Alt+ArrowUp")
        order = move(order, "c", 2)
        after = state(order)
        expect(value).to_have_text(f"{after['metrics']['alpha_ndcg']:.4f}")
        changes = metric_changes(start, after)
        change = board.locator("td.rmb-change[data-metric='alpha_ndcg']")
        expect(change.locator(".rmb-change-text")).to_have_text(changes["alpha_ndcg"]["text"])
        expect(change.locator(".rm-visually-hidden")).to_have_text(changes["alpha_ndcg"]["spoken"])
        for unchanged in ("ndcg", "recall"):
            expect(board.locator(f"td.rmb-change[data-metric='{unchanged}'] .rmb-change-text")
                   ).to_have_text("unchanged")
        said = describe_change(start, after, moved="c")
        assert "alpha-nDCG@3" in said
        expect(board.locator(".rmb-status")).to_have_text(said)
        assert page.evaluate("() => document.activeElement.dataset.item") == "c"
        shot = artifacts / "board-facets.png"
        board.screenshot(path=str(shot))
        browser_report.append(f"board with facets after a keyboard move: {shot}")
    except Exception:
        page.screenshot(path=str(artifacts / "board-facets-failure.png"), full_page=True)
        raise
    assert page.errors == []
