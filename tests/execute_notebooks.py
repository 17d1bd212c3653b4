"""Re-execute notebooks and store the outputs that nbval compares against.

Usage: ``.venv/bin/python tests/execute_notebooks.py notebooks/*.ipynb``

Runs each notebook top to bottom in a fresh kernel from its own folder (as nbval does),
without per-cell timestamps, and drops stored widget state, so two runs give the same
file. Review the diff like code: a changed number is a changed lesson.

The kernel gets matplotlib's inline backend even when ``MPLBACKEND`` is set (``make``
exports ``MPLBACKEND=Agg``): under Agg, ``plt.show()`` stores no figure and warns on
stderr. The exit status is 1 when a cell wrote to stderr (a warning, say), because nbval
would then compare that text too; tests/repo/test_notebook_hygiene.py rejects it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def _warm_font_cache() -> None:
    # matplotlib prints "building the font cache" to stderr if that takes over 5 s;
    # build it here, outside any stored cell.
    import matplotlib.font_manager  # noqa: F401


def _coalesce_streams(outputs: list) -> list:
    """Join adjacent outputs of one stream: how the kernel split a print is timing, not content."""
    merged: list = []
    for out in outputs:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and out.output_type == previous.output_type == "stream"
            and out.name == previous.name
        ):
            previous.text += out.text
        else:
            merged.append(out)
    return merged


def execute(path: Path) -> list[str]:
    """Execute ``path`` in place; return a description of every stderr output."""
    os.environ.pop("MPLBACKEND", None)
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    NotebookClient(
        nb,
        kernel_name="python3",
        timeout=600,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nb.metadata.pop("widgets", None)
    problems = []
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    for i, cell in enumerate(code_cells):
        for out in cell.outputs:
            if out.output_type == "stream" and out.name == "stderr":
                problems.append(f"{path}: code cell {i} wrote to stderr: {out.text[:300]!r}")
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
    nbformat.write(nb, path)
    return problems


if __name__ == "__main__":
    _warm_font_cache()
    problems = []
    for name in sys.argv[1:]:
        print(f"executing {name}", flush=True)
        problems += execute(Path(name))
    for problem in problems:
        print(problem, file=sys.stderr)
    sys.exit(1 if problems else 0)
