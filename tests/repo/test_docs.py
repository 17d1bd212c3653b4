"""The book (``make docs``): built offline from the notebooks' stored outputs and the
docstrings; every notebook and every public function and class has a page; every internal
link resolves; widgets show their static fallback; the book's own pages build without a
warning.

One full build per test session (module fixture), into a temporary folder: about a minute on
the project's 2-core machine.
"""

from __future__ import annotations

import html.parser
import importlib
import importlib.util
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("sphinx")
pytest.importorskip("myst_nb")


def _load_build():
    spec = importlib.util.spec_from_file_location("ragmetrics_docs_build", ROOT / "docs" / "build.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


docs = _load_build()


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if value and ((tag == "a" and name == "href") or name == "src"
                          or (tag == "link" and name == "href")):
                self.links.append(value)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """The book, built as ``make docs`` builds it: docs/build.py in its own process (so that
    pytest's warning filters do not reach Sphinx's extensions)."""
    base = tmp_path_factory.mktemp("book")
    output, warnings = base / "html", base / "warnings.log"
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "build.py"), str(output), "--source", str(base / "src"),
         "--warnings", str(warnings), "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    print(f"[docs] the book built in {time.monotonic() - start:.1f} s")
    return {"status": proc.returncode, "html": output, "log": proc.stdout + proc.stderr,
            "warnings": warnings.read_text(encoding="utf-8") if warnings.exists() else ""}


def test_the_book_builds(book):
    assert book["status"] == 0, book["log"][-3000:]
    assert (book["html"] / "index.html").exists()


def test_the_book_s_own_pages_build_without_a_warning(book):
    ours = [line for line in book["warnings"].splitlines()
            if "notebooks/" in line or "index.md" in line or ("/api/" in line and "docstring" not in line)]
    assert ours == []


def test_every_notebook_has_a_page_linked_from_the_entry_page(book):
    index = _parse(book["html"] / "index.html")
    for path in docs.notebooks():
        page = book["html"] / "notebooks" / f"{path.stem}.html"
        assert page.exists(), path.name
        assert f"notebooks/{path.stem}.html" in index.links, f"index does not link {path.name}"


def test_every_public_function_and_class_has_a_page(book):
    documented = {}
    for module_name, names in docs.api_entries().items():
        for name in names:
            page = book["html"] / "api" / "generated" / f"{module_name}.{name}.html"
            assert page.exists(), f"{module_name}.{name}"
            documented[id(getattr(importlib.import_module(module_name), name))] = name
    for module_name in docs.API_MODULES:
        module = importlib.import_module(module_name)
        missing = [n for n in docs.public_names(module_name) if id(getattr(module, n)) not in documented]
        assert missing == [], f"{module_name}: {missing}"
    assert {"recall_at_k", "ExerciseWidget", "precision_recall_curve", "errata_markdown",
            "cohen_kappa"} <= set(documented.values())


def test_every_internal_link_resolves(book):
    root = book["html"]
    # The theme's template fragments in _static are not pages.
    pages = sorted(p for p in root.rglob("*.html") if "_static" not in p.relative_to(root).parts)
    parsed = {page: _parse(page) for page in pages}
    broken = []
    for page, links in parsed.items():
        for link in links.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("//", "mailto:", "javascript:")):
                continue
            target = (page if not parts.path else (page.parent / unquote(parts.path))).resolve()
            if not target.exists():
                broken.append(f"{page.relative_to(root)} -> {link}")
                continue
            if parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{page.relative_to(root)} -> {link} (no such anchor)")
    assert broken == [], "\n".join(broken[:30])


def test_notebooks_show_their_stored_outputs_and_widgets_their_static_fallback(book):
    page = (book["html"] / "notebooks" / "01_recall_at_k.html").read_text(encoding="utf-8")
    assert "widget-view+json" not in page
    assert "jupyter-widgets" not in page
    assert re.search(r"cut-off k = 5", page)                        # the board's static table
    assert "Run the notebook to type your answer here" in page      # the exercise's fallback
    assert "no answer yet (replace None with your number" in page   # a stored output, not a run
    curve = (book["html"] / "notebooks" / "11_precision_recall_curves.html").read_text(encoding="utf-8")
    assert "AP = 0.5467, 11-point average = 0.6000" in curve        # the explorer's fallback


def test_the_book_fetches_nothing(book):
    external = set()
    for page in book["html"].rglob("*.html"):
        for link in _parse(page).links:
            if urlsplit(link).scheme in ("http", "https") and re.search(r"\.(js|css)(\?|$)", link):
                external.add(link)
    assert not external, sorted(external)


def test_the_formulas_render_offline(book):
    page = (book["html"] / "notebooks" / "04_ndcg.html").read_text(encoding="utf-8")
    script = re.search(r'<script[^>]*src="([^"]*tex-chtml[^"]*)"', page)
    assert script, "no MathJax script on the nDCG page"
    served = (book["html"] / "notebooks" / script.group(1).split("?")[0]).resolve()
    assert served.is_file(), served
    assert served.stat().st_size > 100_000, served


def test_the_book_s_css_is_copied_and_configured(tmp_path):
    """The book's own CSS (wide tables scroll in the text column) reaches the Sphinx sources,
    and conf.py serves and links it: no build needed."""
    source = docs.assemble(tmp_path / "src", only=[])
    css = source / "_static" / "ragmetrics-book.css"
    assert css.read_text(encoding="utf-8") == (ROOT / "docs" / "_static" / css.name).read_text(
        encoding="utf-8")
    rule = re.search(r"\.bd-article table \{([^}]*)\}", css.read_text(encoding="utf-8"))
    assert rule
    assert "overflow-x: auto" in rule.group(1)
    assert "max-width: 100%" in rule.group(1)
    conf: dict = {}
    exec(compile((source / "conf.py").read_text(encoding="utf-8"), "conf.py", "exec"), conf)  # noqa: S102
    assert "_static" in conf["html_static_path"]
    assert css.name in conf["html_css_files"]


def test_every_page_links_the_book_s_css(book):
    assert (book["html"] / "_static" / "ragmetrics-book.css").is_file()
    for path in [*docs.notebooks(), ROOT / "docs" / "index.md"]:
        folder = "notebooks/" if path.suffix == ".ipynb" else ""
        page = book["html"] / f"{folder}{path.stem}.html"
        links = [urlsplit(link).path for link in _parse(page).links]  # without "?v=..."
        assert any(link.endswith("_static/ragmetrics-book.css") for link in links), page


CHROMIUM = "/usr/bin/chromium"
_WIDE_TABLES = """() => {
  const column = document.querySelector(".bd-article").getBoundingClientRect();
  return [...document.querySelectorAll(".bd-article table")].map((t) => {
    const box = t.getBoundingClientRect();
    return { wide: t.scrollWidth > t.clientWidth + 1, scrolls: getComputedStyle(t).overflowX,
             inside: box.right <= column.right + 1, width: t.scrollWidth, shown: t.clientWidth };
  });
}"""


def _in_a_browser(visit) -> None:
    """Run ``visit(page)`` in headless Chromium at 1280 x 800, in a thread of its own: the
    browser tests' session-wide Playwright keeps an event loop running in the main thread,
    and a second sync Playwright there would be refused."""
    import shutil

    if shutil.which(CHROMIUM) is None:
        pytest.skip(f"no Chromium at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    failed: list[BaseException] = []

    def run():
        try:
            with sync_api.sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                try:
                    visit(browser.new_page(viewport={"width": 1280, "height": 800}))
                finally:
                    browser.close()
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's thread, below
            failed.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


# The page's headings and code cells in document order, and its <details>.
_PAGE = """() => ({
  items: [...document.querySelectorAll('.bd-article h1, .bd-article h2, .bd-article h3, .bd-article div.cell')]
    .map((e) => e.matches('div.cell')
      ? { heading: false, input: e.querySelector('.cell_input')?.textContent ?? '',
          outputs: [...e.querySelectorAll('.cell_output')].map((o) => o.textContent).join('\\n') }
      : { heading: true, input: '', outputs: '' }),
  details: [...document.querySelectorAll('.bd-article details')].map((d) => d.open),
  shown: document.querySelector('.bd-article').innerText,
})"""


def test_the_book_shows_no_answer_before_it_is_opened(book):
    """In Chromium, each notebook page that asks the learner something shows no solution and
    no answer in a question's section; every solution block is closed, and the check cells
    are left out. Opening a solution shows it."""
    import nbformat
    from answer_scan import page_leaks, stated_answers

    owned = ["01_recall_at_k", "07_when_metrics_lie", "14_closing_quiz"]
    seen: dict = {}

    def visit(page):
        for name in owned:
            page.goto((book["html"] / "notebooks" / f"{name}.html").as_uri())
            seen[name] = page.evaluate(_PAGE)
        summary = page.locator("details summary", has_text="Solution").first
        line = page.locator("details li", has_text="Recall@5").first
        seen["hidden before"] = line.is_visible()
        summary.click()
        seen["shown after"] = line.is_visible()

    _in_a_browser(visit)
    for name in owned:
        nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
        answers = stated_answers(nb)
        page = seen[name]
        assert answers, name
        assert page["details"], f"{name}: no solution block on the page"
        assert not any(page["details"]), f"{name}: a solution block is open"
        assert not page_leaks(page["items"], answers), name
        assert "verify(" not in page["shown"], f"{name}: a check cell is on the page"
    assert (seen["hidden before"], seen["shown after"]) == (False, True)


# The pages with the book's widest tables (pandas outputs over 1,000 px wide).
WIDE_TABLE_PAGES = ("08_evaluate_your_retriever", "08b_statistics_and_decisions",
                    "09_chunking_changes_the_answer")


def test_wide_tables_scroll_inside_the_text_column(book):
    """In Chromium at 1280 x 800, the book's widest tables (notebooks 08, 08b and 09: pandas
    outputs over 1,000 px wide) stay inside the text column and scroll sideways."""
    found: dict = {}

    def measure(page):
        for name in WIDE_TABLE_PAGES:
            page.goto((book["html"] / "notebooks" / f"{name}.html").as_uri())
            found[name] = page.evaluate(_WIDE_TABLES)

    _in_a_browser(measure)
    wide = 0
    for name in WIDE_TABLE_PAGES:
        tables = found[name]
        assert tables, name
        assert [t for t in tables if not t["inside"]] == [], name
        assert [t for t in tables if t["wide"] and t["scrolls"] != "auto"] == [], name
        wide += sum(t["wide"] for t in tables)
    assert wide >= 2  # the test saw tables wider than the column
