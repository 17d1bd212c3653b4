"""Re-execute notebooks and store the outputs that nbval compares against.

Usage: ``.venv/bin/python tests/execute_notebooks.py notebooks/*.ipynb``

Runs each notebook top to bottom in a fresh kernel from its own folder (as nbval does),
without per-cell timestamps, and drops stored widget state, so two runs give the same
file. Review the diff like code: a changed number is a changed lesson.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(
        nb,
        kernel_name="python3",
        timeout=600,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"executing {name}", flush=True)
        execute(Path(name))
