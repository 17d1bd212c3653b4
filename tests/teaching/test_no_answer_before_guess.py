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
]

DETAILS = re.compile(r"<details>(.*?)</details>", re.DOTALL)
ANSWER_LINE = re.compile(r"^- \*\*(?P<question>[^*]+)\*\*: (?P<rest>.*)$", re.MULTILINE)
DECIMAL = re.compile(r"(?<![\d.])\d+\.\d{4}(?!\d)")
LEADING_INT = re.compile(r"^(\d+)(?=[.,]?\s|[.,]?$)")


def _read(name: str):
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def stated_answers(nb) -> dict[str, str]:
    """Question -> the text of its line in a ``<details>`` block."""
    found = {}
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for block in DETAILS.findall(cell.source):
            for m in ANSWER_LINE.finditer(block):
                found[m.group("question").strip()] = m.group("rest")
    return found


def stated_value(rest: str) -> str:
    """The value a solution line states: a leading whole number ("23, the rank ..."), else its
    first number to 4 decimals ("2/3 = 0.6667. Ranks ...")."""
    m = LEADING_INT.match(rest)
    if m:
        return m.group(1)
    decimals = DECIMAL.findall(rest)
    return decimals[0] if decimals else ""


def _asked_in(nb, question: str) -> int:
    quoted = (f'"{question}"', f"'{question}'")
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and any(q in cell.source for q in quoted):
            return i
    raise AssertionError(f"no code cell asks {question!r}")


def _section_end(nb, start: int) -> int:
    for i in range(start + 1, len(nb.cells)):
        cell = nb.cells[i]
        if cell.cell_type == "markdown" and re.match(r"^#{1,3} ", cell.source.lstrip()):
            return i
    return len(nb.cells)


def _outputs_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        for mime in ("text/plain", "text/html"):
            value = out.get("data", {}).get(mime, "")
            parts.append("".join(value) if isinstance(value, list) else value)
    return "\n".join(parts)


def tells(value: str) -> list[re.Pattern]:
    """How an answer would show in an output: to 4 and to 2 decimals (0 and 1 are everywhere,
    and a bare integer is any rank or count: those are checked by their phrases)."""
    if "." not in value:
        return [re.compile(rf"(?:k = |@|says ){value}\b")]
    number = float(value)
    if number in (0.0, 1.0):
        return []
    return [re.compile(rf"(?<![\d.]){re.escape(f'{number:.{d}f}')}(?!\d)") for d in (4, 2)]


def leaks(nb, answers: dict[str, str]) -> list[str]:
    found = []
    for question, rest in answers.items():
        value = stated_value(rest)
        assert value, f"no value stated for {question!r}: {rest!r}"
        start = _asked_in(nb, question)
        for i in range(start, _section_end(nb, start)):
            text = _outputs_text(nb.cells[i])
            found += [f"cell {i} shows {question!r} = {value} ({p.pattern})"
                      for p in tells(value) if p.search(text)]
    return found


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
        _asked_in(nb, question)  # every stated answer belongs to a question asked in code


@pytest.mark.parametrize("name", OWNED)
def test_committed_outputs_show_no_answer_before_the_guess(name):
    nb = _read(name)
    assert not leaks(nb, stated_answers(nb))
    text = "\n".join(_outputs_text(c) for c in nb.cells)
    assert "you said" not in text, f"{name}: a guess is stored in the committed notebook"


def test_the_scan_finds_a_printed_answer():
    nb = _read("01_recall_at_k.ipynb")
    answers = stated_answers(nb)
    start = _asked_in(nb, "Recall@5")
    nb.cells[start].outputs = [nbformat.v4.new_output(
        "stream", name="stdout", text="Recall@5 = 2/3 = 0.6667; reaches 1.0 at k = 6\n")]
    found = leaks(nb, answers)
    assert any("'Recall@5' = 0.6667" in f for f in found)
    assert any("'smallest k with Recall@k = 1' = 6" in f for f in found)


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
    # was asked (a starting board, an earlier lesson) is no answer given away.
    state = json.dumps(nb.metadata.get("widgets", {}))
    for question, rest in stated.items():
        value = stated_value(rest)
        start = _asked_in(nb, question)
        before = "\n".join(_outputs_text(c) for c in nb.cells[:start])
        shown = f"{float(value):.4f}" if "." in value else ""
        if shown and float(value) not in (0.0, 1.0) and shown not in before:
            assert shown not in state, f"{name}: widget state shows {question!r}"
