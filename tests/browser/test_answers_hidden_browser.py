"""No answer before the guess, as a learner sees the page: JupyterLab after Run All.

tests/teaching/test_no_answer_before_guess.py scans the outputs stored in the ``.ipynb``;
this test reads what JupyterLab renders once the closing quiz (notebook 14) has run top to
bottom: every worked solution sits in a closed ``<details>``, no rendered output in a
question's section shows its answer, and the check cells are collapsed. Opening one
solution shows its lines. (The book's pages: tests/repo/test_docs.py.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from answer_scan import leaks, stated_answers

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect

TOKEN = "ragmetrics-browser-test"
REPO = Path(__file__).resolve().parents[2]
NAME = "14_closing_quiz"

# Each cell's rendered text in page order: the whole cell (its input, its outputs); whether
# its input is collapsed; every <details> and whether it is open.
_CELLS = """() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map((cell) => ({
  outputs: [...cell.querySelectorAll('.jp-OutputArea-output')].map((o) => o.textContent).join('\\n'),
  collapsed: cell.querySelector('.jp-InputPlaceholder') !== null,
  details: [...cell.querySelectorAll('details')].map((d) => d.open),
}))"""


@pytest.fixture(scope="module")
def quiz(notebook_root):
    folder = notebook_root / "notebooks"
    folder.mkdir(exist_ok=True)
    shutil.copy2(REPO / "notebooks" / f"{NAME}.ipynb", folder / f"{NAME}.ipynb")
    return f"notebooks/{NAME}.ipynb"


def test_after_run_all_in_jupyterlab_no_solution_shows_until_it_is_opened(
    lab, quiz, page, run_all, run_all_done, artifacts
):
    nb = nbformat.read(REPO / "notebooks" / f"{NAME}.ipynb", as_version=4)
    answers = stated_answers(nb)
    assert len(answers) == 10
    page.goto(f"{lab}/lab/tree/{quiz}?reset&token={TOKEN}", wait_until="commit")
    run_all(page)
    try:
        run_all_done(page)
        expect(page.locator(".jp-OutputArea-output", has_text="no answer yet").first).to_be_visible()
        cells = page.evaluate(_CELLS)
        assert len(cells) == len(nb.cells), "JupyterLab rendered a different number of cells"
        # The check cells run (they print nothing) and stay collapsed; lesson cells do not.
        checks = [i for i, c in enumerate(nb.cells) if "check" in c.metadata.get("tags", [])]
        assert checks
        assert [i for i, cell in enumerate(cells) if cell["collapsed"]] == checks
        assert all(not cells[i]["outputs"].strip() for i in checks)
        # Every solution block is closed, and no output of a question's section shows its answer.
        opened = [i for i, cell in enumerate(cells) if any(cell["details"])]
        assert sum(len(cell["details"]) for cell in cells) == 2
        assert not opened
        found = leaks(nb, answers, shown=lambda i: cells[i]["outputs"])
        assert not found, found
        # The learner asks for the first solution: its lines show.
        summary = page.locator("details summary", has_text="Solution").first
        line = page.locator("details li", has_text="Recall@5").first
        summary.scroll_into_view_if_needed()
        expect(line).to_be_hidden()
        summary.click()
        expect(line).to_be_visible()
        expect(line).to_contain_text("0.5000")
    except Exception:
        page.screenshot(path=str(artifacts / "jupyterlab-answers-hidden-failure.png"),
                        full_page=True)
        raise
    assert page.errors == []
