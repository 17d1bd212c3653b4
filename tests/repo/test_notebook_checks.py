"""Less scaffolding: a notebook's checks are hidden check cells, one ``verify`` each.

The lesson cells the learner reads hold no ``assert``; each checked cell is followed by one
check cell (:data:`ragmetrics.teaching.CHECK_CELL_METADATA`: collapsed in JupyterLab and
Notebook 7, left out of the book) whose whole body is a single ``verify({...})`` call, and
which printed nothing in the committed notebook.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest

from ragmetrics.teaching import CHECK_CELL_METADATA

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def _tree(cell) -> ast.Module:
    # IPython's magics and shell escapes are not Python: leave those lines out of the parse.
    lines = [line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    return ast.parse("\n".join(lines))


def _is_check(cell) -> bool:
    return "check" in cell.metadata.get("tags", [])


def _asserts(tree: ast.Module) -> list[int]:
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Assert)]


def _is_one_verify_call(tree: ast.Module) -> bool:
    return (len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr)
            and isinstance(tree.body[0].value, ast.Call)
            and isinstance(tree.body[0].value.func, ast.Name)
            and tree.body[0].value.func.id == "verify")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_lesson_cells_hold_no_assert(path):
    nb = nbformat.read(path, as_version=4)
    bare = {i: _asserts(_tree(cell)) for i, cell in enumerate(nb.cells)
            if cell.cell_type == "code" and not _is_check(cell)}
    bare = {i: lines for i, lines in bare.items() if lines}
    assert not bare, f"{path.name}: assert lines in lesson cells (cell: lines) {bare}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_check_cell_is_one_hidden_silent_verify(path):
    nb = nbformat.read(path, as_version=4)
    checks = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code" and _is_check(cell)]
    for i in checks:
        cell = nb.cells[i]
        where = f"{path.name} cell {i}"
        assert sorted(cell.metadata.get("tags", [])) == sorted(CHECK_CELL_METADATA["tags"]), where
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, where
        assert _is_one_verify_call(_tree(cell)), f"{where}: not a single verify(...) call"
        assert not cell.outputs, f"{where}: a check cell printed {cell.outputs}"
        checked = nb.cells[i - 1] if i > 0 else None
        follows_a_lesson = (checked is not None and checked.cell_type == "code"
                            and not _is_check(checked))
        assert follows_a_lesson, f"{where}: a check cell follows the code cell it checks"


def test_the_course_is_checked():
    """The notebooks that teach with numbers keep checking them: at least one check cell in
    each numbered notebook (the index, 00, states no computed number)."""
    unchecked = []
    for path in NOTEBOOKS:
        if path.name.startswith("00"):
            continue
        nb = nbformat.read(path, as_version=4)
        if not any(cell.cell_type == "code" and _is_check(cell) for cell in nb.cells):
            unchecked.append(path.name)
    assert not unchecked, f"notebooks with no check cell: {unchecked}"


def test_the_rules_catch_a_bare_assert_and_a_visible_check():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1\nassert x == 1"),
                nbformat.v4.new_code_cell("verify({'x is 1': x == 1})",
                                          metadata={"tags": ["check"]})]
    assert _asserts(_tree(nb.cells[0])) == [2]
    assert _is_one_verify_call(_tree(nb.cells[1]))
    assert nb.cells[1].metadata.get("jupyter", {}).get("source_hidden") is not True
    assert not _is_one_verify_call(ast.parse("verify({'a': True})\nprint(1)"))
