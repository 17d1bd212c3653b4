"""The HTML report in Chromium: one file, no request beyond it, no script run, and its
drill-down (a <details> per query) opens by click and by keyboard.

The report is made from a comparison whose query and doc ids are HTML, so a failure to
escape would show as an element, a dialog, or a request.
"""

from __future__ import annotations

import pytest

from ragmetrics import compare

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

HOSTILE = "<img src=http://127.0.0.1:9/x onerror=alert(1)>"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    qrels = {f"q{i}": {"gold": 1} for i in range(30)} | {HOSTILE: {HOSTILE: 1}}
    old = {q: ["junk", "gold"] for q in qrels} | {HOSTILE: ["junk", HOSTILE]}
    new = {q: ["gold"] if i % 3 else ["junk", "x", "gold"] for i, q in enumerate(qrels)}
    new[HOSTILE] = [HOSTILE]
    result = compare({"old": old, "new": new}, qrels, ["mrr", "ndcg@10"], n_resamples=200)
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(result.to_html(title=f"Report {HOSTILE}"), encoding="utf-8")
    return path, result


def test_report_in_chromium(browser, report, a11y, browser_report, artifacts):
    path, result = report
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    requests, dialogs, errors = [], [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(path.as_uri())
        expect(page.locator("h1")).to_have_text(f"Report {HOSTILE}")
        # Every request is the page itself or an inline image: nothing leaves the file.
        assert [u for u in requests if not u.startswith(("file://", "data:"))] == []
        assert page.locator("script").count() == 0
        assert page.evaluate("() => document.images.length") == 2  # the two figures
        details = page.locator("details.ranking")
        differ = result.queries_that_differ_most("ndcg@10", 5)
        expect(details).to_have_count(5)
        # Closed at first; a click on the summary opens it, and shows both rankings.
        first = details.first
        assert not first.evaluate("d => d.open")
        summary = first.locator("summary")
        expect(summary).to_have_text(f"Query {differ.index[0]}: new vs old")
        summary.click()
        assert first.evaluate("d => d.open")
        table = first.locator("table")
        expect(table).to_be_visible()
        expect(table.locator("thead th")).to_have_text(
            ["rank", "old", "grade", "adds", "new", "grade", "adds"])
        # By keyboard: Tab from the open summary reaches the next one, Enter opens it.
        second = details.nth(1)
        summary.focus()
        page.keyboard.press("Tab")
        assert second.locator("summary").evaluate("s => s === document.activeElement")
        page.keyboard.press("Enter")
        assert second.evaluate("d => d.open")
        page.keyboard.press("Enter")  # and closes it again
        assert not second.evaluate("d => d.open")
        # The hostile query is a row of text, not an image.
        hostile = details.filter(has_text="onerror")
        expect(hostile).to_have_count(1)
        if not hostile.evaluate("d => d.open"):
            hostile.locator("summary").click()
        cell = hostile.locator("tbody td").nth(4)  # the new system's doc at rank 1
        expect(cell).to_be_visible()
        expect(cell).to_have_text(HOSTILE)
        assert page.evaluate("() => document.images.length") == 2
        result_axe = a11y.scan(page, page.locator("body"))
        assert a11y.failing(result_axe) == []
        shot = artifacts / "report-drilldown.png"
        page.screenshot(path=str(shot), full_page=True)
        browser_report.append(f"report: screenshot with the drill-down open: {shot}")
    finally:
        page.close()
    assert dialogs == []
    assert errors == []
    assert [u for u in requests if not u.startswith(("file://", "data:"))] == []


QUESTION = "<script>alert('question')</script> how do I reset it?"
PASSAGE = "<img src=http://127.0.0.1:9/p onerror=alert(2)> Open Settings, then Reset."


def test_the_verdict_opens_the_page_and_the_texts_stay_text(browser, tmp_path):
    """What a reader sees first is the verdict on the primary metric; every warning sits
    under one closed line that counts them; the questions and passages are text."""
    qrels = {f"q{i}": {"gold": 1} for i in range(12)}
    old = {q: ["junk", "gold"] for q in qrels}
    new = {q: ["gold"] if i % 4 else ["junk", "x", "gold"] for i, q in enumerate(qrels)}
    result = compare({"old": old, "new": new}, qrels, ["mrr", "ndcg@10"], n_resamples=200,
                     queries=dict.fromkeys(qrels, QUESTION),
                     documents={"gold": PASSAGE, "junk": PASSAGE, "x": PASSAGE})
    path = tmp_path / "verdict.html"
    path.write_text(result.to_html(title="Support bot"), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    requests, dialogs = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        page.goto(path.as_uri())
        first = " ".join(page.evaluate("() => document.body.innerText").split())[:1000]
        assert result.verdict()[0] in first
        warnings = page.locator("details.warnings")
        expect(warnings).to_have_count(1)
        expect(warnings.locator("summary")).to_have_text(f"{len(result.warnings)} warnings")
        assert not warnings.evaluate("d => d.open")
        expect(warnings.locator("li").first).not_to_be_visible()
        # The question in a drill-down's summary and the passages in its table: text.
        details = page.locator("details.ranking").first
        expect(details.locator("summary")).to_contain_text("<script>alert('question')</script>")
        details.locator("summary").click()
        expect(details.locator("tbody td").nth(2)).to_have_text(PASSAGE)
        assert page.locator("script").count() == 0
        assert page.evaluate("() => document.images.length") == 2  # the figures only
    finally:
        page.close()
    assert dialogs == []
    assert [u for u in requests if not u.startswith(("file://", "data:"))] == []
