"""No answer before the guess: a notebook run top to bottom (or its stored outputs, as
GitHub and the book show them) prints no exercise solution and no "Compare" value until
the learner has answered.

The answers come from the notebooks themselves: each worked solution is a collapsed
Markdown ``<details>`` block with one line per question, ``- **question**: ... value``.
Each question is asked in a code cell (``predict("question", None)`` or the ``answers``
dict of an exercise), and its section runs to the next heading. The fast tests read the
committed outputs; the slow one executes each notebook, reads the right values that
:mod:`ragmetrics.teaching.guesses` recorded in its kernel, checks that every stated
solution matches them, and scans the fresh outputs and the widget state as well.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from answer_scan import (
    asked_in,
    leaks,
    outputs_text,
    section_end,
    stated_answers,
    stated_value,
)

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
OWNED = [
    "01_recall_at_k.ipynb",
    "02_precision_at_k.ipynb",
    "03_mrr.ipynb",
    "04_ndcg.ipynb",
    "05_choosing_k.ipynb",
    "06_worked_example_cancellation.ipynb",
    "07_when_metrics_lie.ipynb",
    "08_evaluate_your_retriever.ipynb",
    "10_bugs_from_real_projects.ipynb",
    "11_precision_recall_curves.ipynb",
    "12_where_judgments_come_from.ipynb",
    "14_closing_quiz.ipynb",
    "15_many_facets_and_no_answer.ipynb",
]


def _read(name: str):
    return nbformat.read(NOTEBOOKS / name, as_version=4)


@pytest.mark.parametrize("name", OWNED)
def test_solutions_are_markdown_not_hidden_code(name):
    nb = _read(name)
    hidden = [i for i, c in enumerate(nb.cells)
              if c.cell_type == "code" and ("hide-cell" in c.metadata.get("tags", [])
                                            or c.source.startswith("# Solution"))]
    assert not hidden, f"{name}: solution code cells {hidden} print their answers on Run All"
    answers = stated_answers(nb)
    assert answers, f"{name}: no <details> block states an answer"
    for question in answers:
        asked_in(nb, question)  # every stated answer belongs to a question asked in code


@pytest.mark.parametrize("name", OWNED)
def test_committed_outputs_show_no_answer_before_the_guess(name):
    nb = _read(name)
    assert not leaks(nb, stated_answers(nb))
    text = "\n".join(outputs_text(c) for c in nb.cells)
    assert "you said" not in text, f"{name}: a guess is stored in the committed notebook"


def test_the_scan_finds_a_printed_answer():
    nb = _read("01_recall_at_k.ipynb")
    answers = stated_answers(nb)
    start = asked_in(nb, "Recall@5")
    nb.cells[start].outputs = [nbformat.v4.new_output(
        "stream", name="stdout", text="Recall@5 = 2/3 = 0.6667; reaches 1.0 at k = 6\n")]
    found = leaks(nb, answers)
    assert any("'Recall@5' = 0.6667" in f for f in found)
    assert any("'smallest k with Recall@k = 1' = 6" in f for f in found)


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def widget_state(nb, end: int) -> str:
    """The stored state (as JSON text) of the widgets displayed in ``nb.cells[:end]``, with
    every model they refer to (``IPY_MODEL_<id>``: layouts, children)."""
    models = nb.metadata.get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    todo = [out["data"][WIDGET_VIEW]["model_id"] for cell in nb.cells[:end]
            for out in cell.get("outputs", []) if WIDGET_VIEW in out.get("data", {})]
    seen: dict[str, str] = {}
    while todo:
        model_id = todo.pop()
        if model_id in seen or model_id not in models:
            continue
        seen[model_id] = json.dumps(models[model_id])
        todo += re.findall(r"IPY_MODEL_([0-9a-f]+)", seen[model_id])
    return "\n".join(seen.values())


def test_the_widget_scan_reads_the_widgets_shown_up_to_its_end():
    def shows(model_id):
        return nbformat.v4.new_output("display_data", data={WIDGET_VIEW: {"model_id": model_id}})

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("board"), nbformat.v4.new_code_cell("later")]
    nb.cells[0].outputs = [shows("aa01")]
    nb.cells[1].outputs = [shows("bb02")]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {
        "aa01": {"state": {"layout": "IPY_MODEL_cc03"}},
        "bb02": {"state": {"value": 0.3333333333333333}},
        "cc03": {"state": {"width": "0.6667px"}},
    }}}
    assert "0.6667" in widget_state(nb, 1)      # a child model (its layout) is read too
    assert "0.3333" not in widget_state(nb, 1)  # the widget shown after the end is not
    assert "0.3333" in widget_state(nb, 2)
    assert widget_state(nb, 0) == ""


DUMP = ("import json\nfrom ragmetrics.teaching import recorded_answers\n"
        "print(json.dumps({q: a.value for q, a in recorded_answers().items()}))")


@pytest.mark.slow
@pytest.mark.parametrize("name", OWNED)
def test_run_all_shows_no_answer_and_the_stated_solutions_are_right(name, tmp_path):
    from nbclient import NotebookClient

    nb = _read(name)
    nb.cells.append(nbformat.v4.new_code_cell(DUMP))
    NotebookClient(nb, kernel_name="python3", timeout=600,
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    recorded = json.loads(nb.cells.pop().outputs[0]["text"])
    stated = stated_answers(nb)
    assert set(recorded) == set(stated), (
        f"{name}: asked but not solved {sorted(set(recorded) - set(stated))}; "
        f"solved but not asked {sorted(set(stated) - set(recorded))}")
    for question, value in recorded.items():
        shown = stated_value(stated[question])
        if "." in shown:
            assert f"{float(value):.4f}" == shown, f"{name}: {question!r} is {value}, stated {shown}"
        else:
            assert float(value) == int(shown), f"{name}: {question!r} is {value}, stated {shown}"
    assert not leaks(nb, stated)
    # The widget state is the whole notebook's: a value already shown before its question
    # was asked (a starting board, an earlier lesson) is no answer given away, and neither is
    # a widget first displayed after the question's section (as with the outputs).
    for question, rest in stated.items():
        value = stated_value(rest)
        start = asked_in(nb, question)
        before = "\n".join(outputs_text(c) for c in nb.cells[:start])
        shown = f"{float(value):.4f}" if "." in value else ""
        if shown and float(value) not in (0.0, 1.0) and shown not in before:
            state = widget_state(nb, section_end(nb, start))
            assert shown not in state, f"{name}: widget state shows {question!r}"
