"""Notebook 10's "write a check that fails on it" cells: the checker, and the stated checks.

Each bug of ``notebooks/10_bugs_from_real_projects.ipynb`` asks the learner for a one-line
check (``my_check = None``) and runs it with ``ragmetrics.teaching.check_your_check`` on the
function shown and on a right implementation. Its collapsed explanation states "a check that
catches it" (the last ``lambda`` in backquotes). These tests run the notebook's code in this
process, put each stated check in place of None and expect "caught" from every call, and feed
the checker checks that are wrong in each way to see it say so without a value.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import nbformat
import pytest

from ragmetrics.teaching import forget_guesses

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "10_bugs_from_real_projects.ipynb"
STATED_CHECK = re.compile(r"`(lambda [^`]+)`")
PLACEHOLDER = "my_check = None"


def _run(source: str, namespace: dict) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, str(NOTEBOOK), "exec"), namespace)  # noqa: S102 - the notebook
    return out.getvalue()


@pytest.fixture(scope="module")
def notebook():
    """The notebook's cells and the namespace after running its code (the figure left out)."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    namespace: dict = {"__name__": "notebook10"}
    for cell in nb.cells:
        if cell.cell_type == "code" and "plt." not in cell.source:
            _run(cell.source, namespace)
    yield nb, namespace
    forget_guesses()


def _check_cells(nb) -> list[tuple[int, str]]:
    """Each check cell, with the check its section's explanation states."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or PLACEHOLDER not in cell.source:
            continue
        details = next(c.source for c in nb.cells[i + 1:]
                       if c.cell_type == "markdown" and "<details>" in c.source)
        found.append((i, STATED_CHECK.findall(details)[-1]))
    return found


def test_every_bug_asks_for_a_check_and_states_one(notebook):
    nb, _ = notebook
    checks = _check_cells(nb)
    assert len(checks) == 10
    headings = [c.source for c in nb.cells
                if c.cell_type == "markdown" and c.source.startswith("## Bug ")]
    assert len(headings) == 10


def test_the_stated_checks_catch_each_bug_and_pass_the_right_implementation(notebook):
    nb, namespace = notebook
    for i, check in _check_cells(nb):
        source = nb.cells[i].source.replace(PLACEHOLDER, f"my_check = {check}")
        lines = _run(source, namespace).splitlines()
        assert lines, f"cell {i}: no verdict"
        assert all(line.startswith("caught: ") for line in lines), (i, check, lines)


def test_the_checker_says_what_is_wrong_with_a_check_and_prints_no_value(notebook):
    _, namespace = notebook
    check_your_check = namespace["check_your_check"]
    ndcg_v1, right = namespace["ndcg_v1"], namespace["ndcg_at_k"]

    def run(check):
        return _run("check_your_check(check, ndcg_v1, lambda r, rel: right(r, rel, len(r)))",
                    {**namespace, "check": check, "right": right, "ndcg_v1": ndcg_v1,
                     "check_your_check": check_your_check})

    assert run(None).startswith("no check yet for ndcg_v1")
    assert run(0.34).startswith("a check is a function of the metric")
    assert run(lambda ndcg: True).startswith("not yet: ndcg_v1 passes your check")
    assert run(lambda ndcg: False).startswith("not yet: your check fails on a right implementation")
    raised = run(lambda ndcg: ndcg())
    assert raised.startswith("your check raised TypeError on the right implementation")

    def with_assert(ndcg):
        assert ndcg(["a", "x"], {"a"}) == 1

    assert run(with_assert).startswith("caught: your check fails on ndcg_v1")
    missed = run(lambda ndcg: ndcg(["x", "a"], {"a"}) < 1)  # true of both: catches nothing
    assert missed == "not yet: ndcg_v1 passes your check; look for an input where it goes wrong\n"
