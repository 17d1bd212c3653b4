"""The times the index states are a learner's: each within 20% of the walk-through model
(tests/support/study_time.py), and the total the index states is the sum of its rows."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from study_time import walkthrough

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
ROW = re.compile(r"^\| \[[^\]]+\]\((?P<name>\d\d\w*\.ipynb)\) \|.*\| (?P<minutes>\d+) min \|",
                 re.MULTILINE)
TOTAL = re.compile(r"About (?P<hours>\d+) hours?(?: (?P<minutes>\d+) minutes)? in all")


def stated_times() -> dict[str, int]:
    index = nbformat.read(NOTEBOOKS / "00_index.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in index.cells if cell.cell_type == "markdown")
    return {m.group("name"): int(m.group("minutes")) for m in ROW.finditer(text)}


def test_the_index_states_a_time_for_every_notebook():
    lessons = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]*.ipynb")
                     if not p.name.startswith("00"))
    assert sorted(stated_times()) == lessons


@pytest.mark.parametrize("name", sorted(stated_times()))
def test_each_stated_time_is_within_20_percent_of_the_walkthrough(name):
    modelled = walkthrough(NOTEBOOKS / name).minutes
    stated = stated_times()[name]
    assert abs(stated - modelled) <= 0.2 * modelled, (
        f"{name}: stated {stated} min, the walk-through model gives {modelled:.0f} min")


def test_the_stated_total_is_the_sum_of_the_rows():
    index = nbformat.read(NOTEBOOKS / "00_index.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in index.cells if cell.cell_type == "markdown")
    m = TOTAL.search(text)
    assert m, "the index states no total"
    total = int(m.group("hours")) * 60 + int(m.group("minutes") or 0)
    assert total == sum(stated_times().values())


def test_the_model_charges_what_a_learner_does(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(" ".join(["word"] * 260) + "\n$$x$$"),
        nbformat.v4.new_code_cell('predict("Recall@5", None)\nanswers = {\n    "AP": None,\n}'),
        nbformat.v4.new_code_cell("verify({'a': True})",
                                  metadata={"tags": ["remove-cell", "check"]}),
        nbformat.v4.new_code_cell('quiz = ExerciseWidget(["recall", "ndcg"], levels=[2, 3])'),
        nbformat.v4.new_code_cell("K1 = 1.2  # BM25's saturation"),
    ])
    path = tmp_path / "t.ipynb"
    nbformat.write(nb, path)
    w = walkthrough(path)
    assert (w.words, w.formulas, w.predictions, w.exercise_answers, w.exercise_items,
            w.settings) == (261, 1, 1, 1, 4, 1)
    assert w.code_lines == 6  # the check cell is hidden: not read
    # 2 min of words, 30 s formula, 6 x 4 s code, 90 s prediction, 150 s answer, 4 x 60 s
    # items, 120 s setting
    assert w.minutes == pytest.approx(261 / 130 + (30 + 24 + 90 + 150 + 240 + 120) / 60)
