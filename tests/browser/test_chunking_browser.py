"""The ChunkingExplorer in a real browser: JupyterLab and Voila, Debian Chromium, Playwright.

A bar is dragged with the mouse and moved by keys, the sliders are moved by keys, and
after each move the page must show what ragmetrics computes for the new chunking (the
same explorer, driven from Python in this process): the metrics, the live region's
sentence, the bar's position; the bar keeps focus. The redraw after a drag (the page laid
out again) and the round trip to the kernel are measured and listed at the end of the run.
"""

from __future__ import annotations

import statistics

import pytest

from ragmetrics.widgets import ChunkingExplorer

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

TOKEN = "ragmetrics-browser-test"
EVIL = "<img src=x onerror=alert(1)>"
CELLS = [
    "from ragmetrics.widgets import ChunkingExplorer",
    "explorer = ChunkingExplorer.example()\nexplorer",
    (f"ChunkingExplorer({EVIL + ' and more words here'!r}, [(0, 5)], {EVIL!r}, size=2, "
    f"title={EVIL!r})"),
]


@pytest.fixture(scope="module")
def notebook(make_notebook):
    return make_notebook("chunking_in_browser.ipynb", CELLS)


def expect_shows(widget, model: ChunkingExplorer):
    """The page shows what ragmetrics computed for ``model``'s chunking."""
    view = model.view
    for key, value in view["metrics"].items():
        expect(widget.locator(f"td.rmc-value[data-metric='{key}']")).to_have_text(
            f"{value:.4f}", timeout=15_000)
    bars = widget.locator(".rmc-cut")
    expect(bars).to_have_count(len(model.cuts) - 1)
    now = bars.evaluate_all("bars => bars.map(b => Number(b.getAttribute('aria-valuenow')))")
    assert now == [c + 1 for c in model.cuts[1:]]
    retrieved = [c["label"] for c in view["chunks"] if c["retrieved"]]
    shown = widget.locator("li.rmc-card.rmc-retrieved").evaluate_all(
        "cards => cards.map(c => c.dataset.chunk)")
    assert shown == sorted(retrieved, key=lambda label: int(label.split()[1]))


def focused(page) -> str:
    return page.evaluate("() => document.activeElement.getAttribute('aria-label') || "
                         "document.activeElement.className")


def timings(widget) -> dict[str, float]:
    return widget.evaluate("""root => ({
        redraw: Number(root.dataset.drawnAt) - Number(root.dataset.movedAt),
        kernel: Number(root.dataset.updatedAt) - Number(root.dataset.sentAt),
    })""")


def exercise(page, report, label, artifacts):
    widget = page.locator(".rmc").first
    status = widget.locator("[role='status']")
    model = ChunkingExplorer.example()
    expect_shows(widget, model)
    redraws, bar_rounds, slider_rounds = [], [], []

    def settled(rounds):
        expect(status).to_have_text(model.announcement, timeout=15_000)
        expect_shows(widget, model)
        t = timings(widget)
        rounds.append(t["kernel"])
        return t

    # Drag the bar that starts chunk 3 onto token 60 (0-based 59), with the mouse.
    bar = widget.locator(".rmc-cut[data-chunk='3']")
    target = widget.locator(".rmc-seg[data-token='59']").first
    bar.scroll_into_view_if_needed()
    start, end = bar.bounding_box(), target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=4)
    page.mouse.up()
    model.move_boundary(3, 60)
    redraws.append(settled(bar_rounds)["redraw"])
    assert focused(page) == "Start of chunk 3"
    page.screenshot(path=str(artifacts / f"{label}-chunking-after-drag.png"), full_page=True)
    report.append(f"{label}: screenshot of the chunking explorer after a drag: "
                  f"{artifacts / f'{label}-chunking-after-drag.png'}")

    # Keys on the focused bar: one token right, ten left; focus stays on the bar.
    for key, token in (("ArrowRight", 61), ("PageDown", 51), ("ArrowLeft", 50)):
        page.keyboard.press(key)
        model.move_boundary(3, token)
        redraws.append(settled(bar_rounds)["redraw"])
        assert focused(page) == "Start of chunk 3"

    # The sliders, by keyboard: smaller windows (more chunks), then an overlap; k.
    widget.locator("input.rmc-size").focus()
    page.keyboard.press("End")
    model.set_windows(len(model.tokens), 0)
    settled(slider_rounds)
    page.keyboard.press("Home")
    model.set_windows(1, 0)
    settled(slider_rounds)
    for _ in range(59):  # 1 -> 60 tokens, one step at a time: each is a new chunking
        page.keyboard.press("ArrowRight")
    model.set_windows(60, 0)
    settled(slider_rounds)
    widget.locator("input.rmc-overlap").focus()
    page.keyboard.press("ArrowRight")
    model.set_windows(60, 1)
    settled(slider_rounds)
    assert widget.locator(".rmc-seg.rmc-overlap").count() > 0  # striped: in two chunks
    widget.locator("input.rmc-k").focus()
    page.keyboard.press("ArrowRight")
    model.k = 3
    settled(slider_rounds)
    report.append(
        f"{label}: chunking explorer: a drag and {len(redraws) - 1} key moves of a bar: "
        f"move -> page redrawn (laid out again) median {statistics.median(redraws):.1f} ms, "
        f"max {max(redraws):.1f} ms (target 100 ms); move -> new metrics from the kernel "
        f"median {statistics.median(bar_rounds):.0f} ms, max {max(bar_rounds):.0f} ms; "
        f"{len(slider_rounds)} slider moves (up to {len(model.tokens)} chunks) -> new "
        f"metrics: median {statistics.median(slider_rounds):.0f} ms, "
        f"max {max(slider_rounds):.0f} ms")
    # The page follows a bar at once; the numbers need the kernel's round trip.
    assert max(redraws) < 100
    assert statistics.median(bar_rounds) < 1000


def text_is_text(page):
    evil = page.locator(".rmc").nth(1)
    expect(evil.locator(".rmc-question-text")).to_have_text(EVIL)
    expect(evil.locator(".rmc-title")).to_have_text(EVIL)
    shown = evil.locator(".rmc-seg").evaluate_all("segs => segs.map(s => s.textContent).join('')")
    assert shown.startswith(EVIL)
    assert evil.locator("img").count() == 0
    assert page.dialogs == []


def test_chunking_explorer_in_jupyterlab(lab, notebook, page, artifacts, browser_report,
                                         run_all):
    page.goto(f"{lab}/lab/tree/{notebook}?reset&token={TOKEN}", wait_until="commit")
    run_all(page)
    try:
        exercise(page, browser_report, "jupyterlab", artifacts)
        text_is_text(page)
    except Exception:
        page.screenshot(path=str(artifacts / "jupyterlab-chunking-failure.png"), full_page=True)
        raise
    assert page.errors == []


def test_chunking_explorer_in_voila(voila_server, notebook, page, artifacts, browser_report):
    page.goto(f"{voila_server}/voila/render/{notebook}?token={TOKEN}", wait_until="commit")
    try:
        exercise(page, browser_report, "voila", artifacts)
        text_is_text(page)
    except Exception:
        page.screenshot(path=str(artifacts / "voila-chunking-failure.png"), full_page=True)
        raise
    assert page.errors == []
