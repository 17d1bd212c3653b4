"""The ComparisonExplorer in a real browser: JupyterLab and Voila, Debian Chromium, Playwright.

A comparison of 10,000 queries (two synthetic runs, built the same way in the kernel and
here), so that every check compares what the page shows with what ragmetrics computes:
the first rows of the table in Python's order, the drill-down of the selected query, the
order after a sort. Measured: the time from a selection (a key press) to the row drawn
in the page, and to the drill-down drawn with the kernel's answer (target 100 ms); the
time to draw the rows after a scroll. Plus: text (query ids, questions, titles) is never
markup, and no network request leaves the machine.
"""

from __future__ import annotations

import re
import statistics
import textwrap

import pytest

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

TOKEN = "ragmetrics-browser-test"
EVIL = "<img src=x onerror=alert(1)>"

# Written next to the notebook (the kernel imports it) and run here for the expected values.
DATA_MODULE = textwrap.dedent('''
    import numpy as np
    import pandas as pd

    from ragmetrics import compare

    EVIL = "<img src=x onerror=alert(1)>"


    def big_comparison(n=10_000):
        """Two runs of 20 docs over n queries, 3 judged docs each: a fixed seed."""
        rng = np.random.default_rng(0)
        queries = [f"q{i:05d}" for i in range(n)]
        qrels = pd.DataFrame({"query_id": np.repeat(queries, 3),
                              "doc_id": [f"d{j}" for j in rng.integers(0, 40, 3 * n)],
                              "relevance": rng.integers(1, 3, 3 * n)})
        qrels = qrels.drop_duplicates(["query_id", "doc_id"])

        def run(seed):
            r = np.random.default_rng(seed)
            docs = np.concatenate([r.permutation(40)[:20] for _ in range(n)])
            return pd.DataFrame({"query_id": np.repeat(queries, 20),
                                 "doc_id": [f"d{j}" for j in docs],
                                 "score": np.tile(np.arange(20, 0, -1), n).astype(float)})

        runs = {"bm25": run(1), "dense": run(2)}
        return compare(runs, qrels, ["recall@10", "precision@10", "mrr", "ndcg@10"],
                       n_resamples=100, seed=0)


    def evil_comparison():
        qrels = {EVIL: {"d1": 1}, "q2": {"d2": 1}}
        runs = {"a": {EVIL: ["x", "d1"], "q2": ["d2"]}, "b": {EVIL: ["d1"], "q2": ["x", "d2"]}}
        return compare(runs, qrels, ["mrr"], n_resamples=50)
''')

CELLS = [
    ("from explorer_data import big_comparison, evil_comparison, EVIL\n"
    "from ragmetrics.widgets import ComparisonExplorer\n"
    "big = ComparisonExplorer(big_comparison())\nbig"),
    ("evil = ComparisonExplorer(evil_comparison(), titles={'d1': EVIL}, texts={'q2': EVIL})\n"
    "evil.select('q2')\nevil"),
]


@pytest.fixture(scope="module")
def big(notebook_root):
    """The kernel's comparison, made here too (the same seed: the same numbers)."""
    (notebook_root / "explorer_data.py").write_text(DATA_MODULE)
    namespace: dict = {}
    exec(compile(DATA_MODULE, "explorer_data", "exec"), namespace)  # noqa: S102 - our own code
    return namespace["big_comparison"]()


@pytest.fixture
def expected(big):
    """What the page should show: an explorer of the same comparison, as first displayed."""
    from ragmetrics.widgets import ComparisonExplorer

    return ComparisonExplorer(big)


@pytest.fixture(scope="module")
def notebook(make_notebook, big):
    return make_notebook("explorer_in_browser.ipynb", CELLS)


def shown_rows(explorer):
    return explorer.locator("tr.rmc-row").evaluate_all("rows => rows.map(r => r.dataset.query)")


def marks(explorer) -> dict:
    return explorer.evaluate("""root => ({
        rows: Number(root.dataset.rowsDrawnAt) - Number(root.dataset.selectedAt),
        detail: Number(root.dataset.detailDrawnAt) - Number(root.dataset.selectedAt),
    })""")


def exercise(page, expected, report, label, artifacts):
    explorer = page.locator(".rmc").first
    status = explorer.locator("[role='status']")
    order = expected.shown_queries()
    expect(explorer.locator(".rmc-status-line")).to_have_text(expected.status, timeout=90_000)
    rows = shown_rows(explorer)
    # Virtualised: a screenful and a few more, in Python's order, of 10,000.
    assert 10 <= len(rows) <= 40, len(rows)
    assert rows == [str(q) for q in order[: len(rows)]]
    grid = explorer.locator("table.rmc-table")
    expect(grid).to_have_attribute("aria-rowcount", str(len(order) + 1))

    # Click the first row, then walk down with the keyboard: each key selects the next
    # query; focus stays on the selected row; the live region says Python's sentence.
    explorer.locator(f"tr.rmc-row[data-query='{order[0]}']").click()
    local, round_trip = [], []
    for step in range(1, 9):
        if step > 1:
            page.keyboard.press("ArrowDown")
        q = order[step - 1]
        expected.select(q)
        expect(status).to_have_text(expected.announcement)
        expect(explorer.locator(".rmc-detail .rmc-title .rmc-id")).to_have_text(str(q))
        focused = page.evaluate("() => document.activeElement.dataset.query")
        assert focused == str(q)
        t = marks(explorer)
        local.append(t["rows"])
        round_trip.append(t["detail"])
    # The drill-down shows ragmetrics' contributions, rank by rank, for both systems.
    for column in expected.detail["columns"]:
        table = explorer.locator(f".rmc-ranking[data-system='{column['system']}']")
        cells = table.locator("tbody tr").evaluate_all(
            "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
        # A doc the golden set does not list is not relevant, not "not judged".
        want = [[str(r["rank"]), r["doc_id"],
                 "not relevant (not listed)" if r["grade"] is None
                 else ("✓ " if r["relevant"] else "") + format(r["grade"], "g"),
                 f"{r['contribution']:+.4f}"] for r in column["rows"]]
        assert cells == want

    # Page Down and End: far down the list, drawn in place, focus kept.
    page.keyboard.press("PageDown")
    expected.select(order[17])
    expect(status).to_have_text(expected.announcement)
    page.keyboard.press("End")
    expected.select(order[-1])
    expect(status).to_have_text(expected.announcement)
    assert page.evaluate("() => document.activeElement.dataset.query") == str(order[-1])
    assert len(shown_rows(explorer)) <= 40

    # Scroll to the middle by the scroll bar: the rows there are drawn, and only those.
    scrolled = explorer.evaluate("""root => new Promise((done) => {
        const scroller = root.querySelector(".rmc-scroll");
        const before = root.dataset.rowsDrawnAt, started = performance.now();
        scroller.scrollTop = 26 * 5000;
        const wait = () => {
          if (root.dataset.rowsDrawnAt === before && performance.now() - started < 5000) {
            requestAnimationFrame(wait);
            return;
          }
          done({ ms: Number(root.dataset.rowsDrawnAt) - started,
                 first: Number(root.querySelector("tr.rmc-row").getAttribute("aria-rowindex")) });
        };
        requestAnimationFrame(wait);
    })""")
    assert 4980 <= scrolled["first"] - 2 <= 5000
    rows = shown_rows(explorer)
    start = scrolled["first"] - 2
    assert rows == [str(q) for q in order[start: start + len(rows)]]

    # Sort by query id (the header button): Python's order, announced.
    explorer.locator("button.rmc-sort[data-sort='query']").click()
    expected.sort_by("query", descending=False)
    expect(explorer.locator(".rmc-status-line")).to_have_text(expected.status)
    expect(status).to_have_text(expected.announcement)
    expect(explorer.locator("th[aria-sort='ascending'] button")).to_have_attribute("data-sort",
                                                                                  "query")
    shot = artifacts / f"{label}-comparison-explorer.png"
    explorer.screenshot(path=str(shot))
    report.append(f"{label}: screenshot of the explorer on 10,000 queries: {shot}")
    report.append(
        f"{label} explorer, 10,000 queries: key -> row drawn: median "
        f"{statistics.median(local):.1f} ms, max {max(local):.1f} ms; key -> drill-down "
        f"from the kernel drawn: median {statistics.median(round_trip):.0f} ms, max "
        f"{max(round_trip):.0f} ms (target 100 ms); scroll to row 5,000 -> rows drawn "
        f"{scrolled['ms']:.1f} ms"
    )
    assert max(local) < 100
    assert statistics.median(round_trip) < 1000  # the target is 100 ms: measured above


def check_text_is_text(page):
    evil = page.locator(".rmc").nth(1)
    expect(evil.locator(f"tr.rmc-row[data-query='{EVIL}'] .rmc-id")).to_have_text(EVIL)
    expect(evil.locator("tr.rmc-row[data-query='q2'] .rmc-text")).to_have_text(EVIL)
    expect(evil.locator(".rmc-detail .rmc-question")).to_have_text(f" {EVIL}")
    evil.locator(f"tr.rmc-row[data-query='{EVIL}']").click()
    expect(evil.locator(".rmc-ranking[data-system='b'] .rmc-text").first).to_have_text(f" {EVIL}")
    assert evil.locator("img").count() == 0
    assert page.dialogs == []


def test_explorer_in_jupyterlab(lab, notebook, expected, page, artifacts, browser_report,
                                run_all):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{lab}/lab/tree/{notebook}?reset&token={TOKEN}", wait_until="commit")
    run_all(page)
    try:
        exercise(page, expected, browser_report, "jupyterlab", artifacts)
        check_text_is_text(page)
    except Exception:
        page.screenshot(path=str(artifacts / "jupyterlab-explorer-failure.png"))
        raise
    assert page.errors == []
    assert [url for url in requests if "127.0.0.1" not in url and "localhost" not in url] == []


def test_explorer_in_voila(voila_server, notebook, expected, page, artifacts, browser_report):
    page.goto(f"{voila_server}/voila/render/{notebook}?token={TOKEN}", wait_until="commit")
    try:
        exercise(page, expected, browser_report, "voila", artifacts)
        check_text_is_text(page)
    except Exception:
        page.screenshot(path=str(artifacts / "voila-explorer-failure.png"), full_page=True)
        raise
    assert page.errors == []


# -- layout at 1280 x 800: no number cut, headers wrap between words ------------------------

LONG_NAMES = textwrap.dedent('''
    import numpy as np
    import pandas as pd

    from ragmetrics import compare
    from ragmetrics.widgets import ComparisonExplorer

    rng = np.random.default_rng(3)
    queries = [f"q{i:03d}" for i in range(60)]
    qrels = {q: {f"d{j}": 1 for j in rng.choice(30, 3, replace=False)} for q in queries}
    runs = {name: {q: [f"d{j}" for j in rng.permutation(30)[:10]] for q in queries}
            for name in ("bm25_with_rm3_expansion", "dense_minilm_l6_v2_finetuned")}
    long_names = ComparisonExplorer(
        compare(runs, qrels, ["recall@10", "precision@10", "mrr", "ndcg@10", "map@10"],
                n_resamples=50, seed=0),
        texts={q: f"How do I change the billing address on invoice {q} for my team?"
               for q in queries})
    long_names
''')

LAYOUT = r"""root => {
  const scroller = root.querySelector(".rmc-scroll"), table = root.querySelector(".rmc-table");
  // Each header word on one line: a word broken inside has more than one line box.
  const broken = [];
  for (const button of root.querySelectorAll("thead button.rmc-sort")) {
    const text = button.firstChild;
    let at = 0;
    for (const word of text.textContent.split(" ")) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      if (word && range.getClientRects().length > 1) broken.push(word);
      at += word.length + 1;
    }
  }
  const cut = (cells) => [...cells].filter((c) => c.offsetWidth && c.scrollWidth > c.clientWidth)
    .map((c) => c.textContent);
  const query = root.querySelector("tr.rmc-row th");
  return {
    broken, queryWidth: query ? query.getBoundingClientRect().width : 0,
    clippedNumbers: cut(root.querySelectorAll("tr.rmc-row td.rmc-num")),
    clippedHeads: cut(root.querySelectorAll("thead th")),
    numbers: root.querySelectorAll("tr.rmc-row td.rmc-num").length,
    table: table.scrollWidth, box: scroller.clientWidth,
    scrolls: getComputedStyle(scroller).overflowX, canScroll: scroller.scrollWidth > scroller.clientWidth,
  };
}"""


def lab_theme(page, name):
    page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Theme$")).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{name}$")).first.click()
    expect(page.locator(f"body[data-jp-theme-name='{name}']")).to_have_count(1, timeout=30_000)
    page.wait_for_timeout(500)  # the theme's stylesheet applied


def check_layout(explorer, where):
    layout = explorer.evaluate(LAYOUT)
    assert layout["numbers"] > 0, where
    assert layout["queryWidth"] >= 100, (where, layout)  # the query column keeps its room
    assert layout["clippedNumbers"] == [], (where, layout)
    assert layout["clippedHeads"] == [], (where, layout)
    assert layout["broken"] == [], (where, layout)
    if layout["table"] > layout["box"]:  # too wide for its box: it scrolls inside it
        assert layout["scrolls"] == "auto", (where, layout)
        assert layout["canScroll"], (where, layout)
        # Scrolled to its right end: the last column whole in the box, and the query
        # column still in view at the left (it stays put).
        ends = explorer.evaluate("""root => {
          const scroller = root.querySelector(".rmc-scroll");
          scroller.scrollLeft = scroller.scrollWidth;
          const box = scroller.getBoundingClientRect();
          const last = root.querySelector("thead th:last-child").getBoundingClientRect();
          const query = root.querySelector("tr.rmc-row th").getBoundingClientRect();
          const out = { lastInside: last.right <= box.right + 1,
                        queryInside: query.left >= box.left - 1 && query.left <= box.left + 2 };
          scroller.scrollLeft = 0;
          return out;
        }""")
        assert ends == {"lastInside": True, "queryInside": True}, (where, ends)
    return layout


def test_explorer_layout_at_1280_in_light_and_dark(lab, make_notebook, browser, artifacts,
                                                   browser_report, run_all, a11y):
    """Two systems with long names and five metrics (11 columns) at a 1280 x 800 viewport:
    no number cell clipped, no header broken inside a word, the table scrolling in its box
    when it does not fit (with JupyterLab's file browser open too); the keys as before."""
    name = make_notebook("explorer_layout.ipynb", [LONG_NAMES])
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1|localhost)"), lambda route: route.abort())
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{lab}/lab/tree/{name}?reset&token={TOKEN}", wait_until="commit")
    run_all(page)
    explorer = page.locator(".rmc").first
    try:
        expect(explorer.locator("tr.rmc-row").first).to_be_visible(timeout=90_000)
        explorer.scroll_into_view_if_needed()
        widths = []
        for theme in ("JupyterLab Light", "JupyterLab Dark"):
            if theme.endswith("Dark"):
                lab_theme(page, theme)
            for sidebar in ("closed", "open"):
                if sidebar == "open":
                    page.locator(".jp-SideBar.jp-mod-left li[data-id='filebrowser']").click()
                    page.wait_for_timeout(500)
                layout = check_layout(explorer, f"{theme}, file browser {sidebar}")
                widths.append(f"{theme.split()[1].lower()}/{sidebar}: box {layout['box']} px, "
                              f"table {layout['table']} px")
                if sidebar == "open":
                    page.locator(".jp-SideBar.jp-mod-left li[data-id='filebrowser']").click()
                    page.wait_for_timeout(500)
            # The keys as before: a click on a row, then Down selects the next one.
            first, second = explorer.locator("tr.rmc-row").nth(0), explorer.locator("tr.rmc-row").nth(1)
            query = second.get_attribute("data-query")
            first.click()
            page.keyboard.press("ArrowDown")
            expect(explorer.locator(f"tr.rmc-row[data-query='{query}']")).to_have_attribute(
                "aria-selected", "true")
            assert page.evaluate("() => document.activeElement.dataset.query") == query
            result = a11y.scan(page, explorer)
            assert a11y.failing(result) == [], (theme, a11y.failing(result))
            shot = artifacts / f"comparison-1280-{theme.split()[1].lower()}.png"
            explorer.screenshot(path=str(shot))
            browser_report.append(f"comparison explorer at 1280 x 800, {theme}: {shot}")
        browser_report.append("comparison explorer at 1280 x 800: " + "; ".join(widths))
        assert errors == []
    except Exception:
        page.screenshot(path=str(artifacts / "comparison-1280-failure.png"), full_page=True)
        raise
    finally:
        if page.locator("body[data-jp-theme-name='JupyterLab Dark']").count():
            lab_theme(page, "JupyterLab Light")  # the servers' settings outlive this test
        page.close()
