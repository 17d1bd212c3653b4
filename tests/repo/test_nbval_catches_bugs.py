"""nbval really checks the numbers a notebook teaches.

A notebook that passes ``pytest --nbval`` proves nothing if nbval would also pass it with
a broken library (cleared outputs, ``--nbval-lax``, ignored cells...). This test breaks
the library on purpose and watches the notebook fail:

1. Copy the ``ragmetrics`` package (and the data it loads) to a temporary folder and plant
   one bug in the copy (``MUTATION``).
2. Run nbval with the authors' options (``NBVAL_ARGS``) and that folder first on
   ``PYTHONPATH``; the kernel inherits the environment, so it imports the copy.
3. The mutant must FAIL the notebook. Its hidden check cells (``verify``) may fail first, so
   a second copy of the notebook without its check cells shows that the output comparison
   alone catches the bug too: a cell's output differs, and the report shows the changed
   number (``MUTANT_NUMBER`` instead of ``CORRECT_NUMBER``).
4. Control: the unmutated copy passes the notebook, so the failures are the bug's doing.

The two nbval runs (mutant: both notebooks; control: the real one) go in parallel.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"

# The notebook under test, and the bug planted in the package copy. The MRR notebook's
# first example reorders the refund-policy chunks so that the first relevant one is at
# rank 3: reciprocal rank 1/3 = 0.3333. The mutant returns 1/(rank + 1): 0.2500.
NOTEBOOK = ROOT / "notebooks" / "03_mrr.ipynb"
MUTATION = ("ragmetrics/metrics/reference/rank_measures.py", "return 1.0 / rank\n", "return 1.0 / (rank + 1)\n")
CORRECT_NUMBER = f"{1 / 3:.4f}"
MUTANT_NUMBER = f"{1 / (3 + 1):.4f}"

NBVAL_ARGS = [
    "--nbval",
    "--nbval-current-env",
    "--nbval-sanitize-with",
    str(SANITIZE),
    "-p",
    "no:cacheprovider",
    "-o",
    "addopts=",
    "-q",
    "-vv",
    "--color=no",
]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _copy_package(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "ragmetrics", dest / "ragmetrics", ignore=ignore)
    # A source checkout reads its examples from data/ next to the package.
    shutil.copytree(ROOT / "data", dest / "data", ignore=ignore)
    return dest


def _mutate(package_root: Path) -> None:
    path, old, new = MUTATION
    target = package_root / path
    text = target.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the mutation's target text is no longer in {path}: {old!r}"
    target.write_text(text.replace(old, new), encoding="utf-8")


def _check_free_copy(dest: Path) -> Path:
    """The notebook without its check cells (tagged ``check``: one ``verify`` each)."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    kept = [c for c in nb.cells if "check" not in c.metadata.get("tags", [])]
    assert len(kept) < len(nb.cells), f"{NOTEBOOK.name} has no check cell to leave out"
    nb.cells = kept
    dest.mkdir()
    path = dest / NOTEBOOK.name
    nbformat.write(nb, path)
    return path


def _start_nbval(notebooks: list[Path], package_root: Path) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(package_root), env.get("PYTHONPATH", "")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # Under MPLBACKEND=Agg (the Makefile exports it) plt.show() draws nothing: the stored
    # figures would then be "missing" and every plot cell would fail for the wrong reason.
    env.pop("MPLBACKEND", None)
    # --rootdir=/ gives the copy outside the repository a node id with its path (else "::Cell 3").
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", *NBVAL_ARGS, "--rootdir=/", *map(str, notebooks)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _finish(proc: subprocess.Popen) -> tuple[int, str]:
    try:
        out, _ = proc.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return proc.returncode, _ANSI.sub("", out)


def _failure_sections(report: str, notebook: Path) -> dict[str, str]:
    """nbval's failure reports for ``notebook``, by cell ("Cell 3": report text)."""
    parts = re.split(r"^_+ (\S+)::(Cell \d+) _+$", report, flags=re.MULTILINE)
    return {
        cell: text
        for file, cell, text in zip(parts[1::3], parts[2::3], parts[3::3], strict=True)
        if Path(file).name == notebook.name and Path(file).parent.name == notebook.parent.name
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    if not NOTEBOOK.exists():
        pytest.fail(f"{NOTEBOOK.relative_to(ROOT)} is missing")
    base = tmp_path_factory.mktemp("nbval_mutant")
    stripped = _check_free_copy(base / "check_free")
    mutant_root = _copy_package(base / "mutant")
    _mutate(mutant_root)
    control_root = _copy_package(base / "control")
    procs = {
        "mutant": _start_nbval([NOTEBOOK, stripped], mutant_root),
        "control": _start_nbval([NOTEBOOK], control_root),
    }
    results = {name: _finish(proc) for name, proc in procs.items()}
    return {"stripped": stripped, **results}


def test_control_passes(runs):
    code, report = runs["control"]
    assert code == 0, f"the unmutated package copy must pass nbval:\n{report[-6000:]}"
    assert re.search(r"\b\d+ passed\b", report)
    assert "failed" not in report.splitlines()[-1]


def test_mutant_fails_the_notebook(runs):
    code, report = runs["mutant"]
    assert code == 1, f"nbval must fail with a broken reciprocal_rank:\n{report[-6000:]}"
    failed = _failure_sections(report, NOTEBOOK)
    assert failed, f"no cell of {NOTEBOOK.name} failed:\n{report[-6000:]}"


def test_mutant_changes_a_checked_output_and_nbval_shows_the_number(runs):
    _, report = runs["mutant"]
    failed = _failure_sections(report, runs["stripped"])
    differ = {cell: text for cell, text in failed.items() if "Cell outputs differ" in text}
    assert differ, (
        "with the check cells removed, no cell output differed: nbval would not catch the bug "
        f"by comparing outputs\n{report[-6000:]}"
    )
    shown = [
        cell for cell, text in differ.items() if MUTANT_NUMBER in text and CORRECT_NUMBER in text
    ]
    assert shown, (
        f"no differing cell shows the stored {CORRECT_NUMBER} next to the mutant's "
        f"{MUTANT_NUMBER}:\n" + "\n".join(differ.values())[-6000:]
    )
