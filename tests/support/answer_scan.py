"""Where a notebook states its answers, and whether a page shows one before the guess.

Shared by tests/teaching/test_no_answer_before_guess.py (the stored and the freshly run
outputs) and the browser tests (what JupyterLab and the book show after Run All).

Each worked solution is a collapsed Markdown ``<details>`` block with one line per question,
``- **question**: ... value``. Each question is asked in a code cell (``predict("question",
None)`` or the ``answers`` dict of an exercise), and its section runs to the next heading:
no output in that section may show the value.
"""

from __future__ import annotations

import re
from collections.abc import Callable

DETAILS = re.compile(r"<details>(.*?)</details>", re.DOTALL)
ANSWER_LINE = re.compile(r"^- \*\*(?P<question>[^*]+)\*\*: (?P<rest>.*)$", re.MULTILINE)
DECIMAL = re.compile(r"(?<![\d.])\d+\.\d{4}(?!\d)")
LEADING_INT = re.compile(r"^(\d+)(?=[.,]?\s|[.,]?$)")
HEADING = re.compile(r"^#{1,3} ")


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


def asked_in(nb, question: str) -> int:
    """The index of the code cell that asks ``question``."""
    quoted = (f'"{question}"', f"'{question}'")
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and any(q in cell.source for q in quoted):
            return i
    raise AssertionError(f"no code cell asks {question!r}")


def section_end(nb, start: int) -> int:
    """The index of the first heading cell after ``start`` (or the notebook's length)."""
    for i in range(start + 1, len(nb.cells)):
        cell = nb.cells[i]
        if cell.cell_type == "markdown" and HEADING.match(cell.source.lstrip()):
            return i
    return len(nb.cells)


def outputs_text(cell) -> str:
    """The text a cell's stored outputs show (streams, text/plain and text/html)."""
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


def leaks(nb, answers: dict[str, str], shown: Callable[[int], str] | None = None) -> list[str]:
    """Each place where a cell's output, in the section that asks a question, shows its
    answer. ``shown(i)`` is the text cell ``i`` shows (default: its stored outputs; a browser
    test passes what the page rendered)."""
    shown = shown or (lambda i: outputs_text(nb.cells[i]))
    found = []
    for question, rest in answers.items():
        value = stated_value(rest)
        assert value, f"no value stated for {question!r}: {rest!r}"
        start = asked_in(nb, question)
        for i in range(start, section_end(nb, start)):
            text = shown(i)
            found += [f"cell {i} shows {question!r} = {value} ({p.pattern})"
                      for p in tells(value) if p.search(text)]
    return found


def page_leaks(items: list[dict], answers: dict[str, str]) -> list[str]:
    """:func:`leaks` on a rendered page: ``items`` are the page's headings and code cells in
    document order (``{"heading": bool, "input": str, "outputs": str}``); a question's
    section runs from the cell that asks it to the next heading."""
    found = []
    for question, rest in answers.items():
        value = stated_value(rest)
        quoted = (f'"{question}"', f"'{question}'")
        start = next((i for i, item in enumerate(items)
                      if not item["heading"] and any(q in item["input"] for q in quoted)), None)
        assert start is not None, f"the page has no cell asking {question!r}"
        for item in items[start:]:
            if item["heading"] and item is not items[start]:
                break
            found += [f"the page shows {question!r} = {value} ({p.pattern})"
                      for p in tells(value) if p.search(item["outputs"])]
    return found
