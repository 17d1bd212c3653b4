"""Fast, kernel-free checks that the teaching notebooks follow the house rules.

nbval (``pytest --nbval``) re-runs every notebook and compares its outputs with the stored
ones. It can only check what is stored: a cell with no stored run passes even when its
code is wrong, an ignored cell is never compared, and a stderr warning or a numpy scalar
repr makes the comparison flaky. These tests read the ``.ipynb`` files as JSON and guard
the conditions nbval relies on, plus the conventions of ``notebooks/AUTHORING.md``:
thin notebooks (import the package, install nothing, fetch nothing; the hidden check cells
are tests/repo/test_notebook_checks.py's), and an index that links every notebook locally
and on Binder.

Each check is parametrized per notebook, so a failure names the file.
"""

from __future__ import annotations

import ast
import functools
import itertools
import json
import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
INDEX = "00_index.ipynb"

# The full set, in teaching order; the issue is done only when all of them exist.
EXPECTED = (
    "00_index.ipynb",
    "01_recall_at_k.ipynb",
    "02_precision_at_k.ipynb",
    "03_mrr.ipynb",
    "04_ndcg.ipynb",
    "05_choosing_k.ipynb",
    "06_worked_example_cancellation.ipynb",
    "07_when_metrics_lie.ipynb",
    "08_evaluate_your_retriever.ipynb",
    "08b_statistics_and_decisions.ipynb",
    "09_chunking_changes_the_answer.ipynb",
    "10_bugs_from_real_projects.ipynb",
    "11_precision_recall_curves.ipynb",
    "12_where_judgments_come_from.ipynb",
    "13_capstone_change_the_retriever.ipynb",
    "14_closing_quiz.ipynb",
    "15_many_facets_and_no_answer.ipynb",
)

BINDER_URL = "https://mybinder.org/v2/gh/ragmetrics/ragmetrics/HEAD?urlpath=lab/tree/notebooks/{}"

# NN_name, or NNx_name for a notebook in two parts (08, then 08b).
NAME_RE = re.compile(r"^\d\d[a-z]?_[a-z0-9_]+\.ipynb$")

# What the first code cell may import: the package and the standard scientific stack.
FIRST_CELL_MODULES = {"math", "numpy", "pandas", "matplotlib", "matplotlib.pyplot"}

# Text that has no place in a code cell: installing, or reaching the network.
FORBIDDEN_CODE = {
    "pip install": re.compile(r"pip\s+install"),
    "!pip": re.compile(r"!\s*pip"),
    "%pip": re.compile(r"%\s*pip"),
    "conda install": re.compile(r"\b(?:conda|mamba)\s+install"),
    "%conda": re.compile(r"%\s*(?:conda|mamba)"),
    "urllib": re.compile(r"urllib"),
    "requests": re.compile(r"\bimport\s+requests\b|\bfrom\s+requests\b|\brequests\s*\."),
    "http://": re.compile(r"http://"),
    "https://": re.compile(r"https://"),
}
NETWORK_MODULES = {"requests", "urllib", "urllib3", "http", "httpx", "aiohttp", "socket"}

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
IGNORE_TAG = "nbval-ignore-output"
FORBIDDEN_TAGS = {"nbval-skip", "raises-exception", "nbval-raises-exception"}
FORBIDDEN_MARKERS = {"# NBVAL_SKIP", "# NBVAL_RAISES_EXCEPTION"}

MAX_NOTEBOOK_BYTES = 1_000_000


def _existing() -> list[Path]:
    return sorted(NOTEBOOKS_DIR.glob("*.ipynb"))


NOTEBOOKS = _existing()
LESSONS = [p for p in NOTEBOOKS if p.name != INDEX]


def _ids(paths):
    return [p.name for p in paths]


@functools.cache
def _read(path: Path) -> nbformat.NotebookNode:
    # Read once per session; the checks only look.
    return nbformat.read(path, as_version=4)


def _code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def _parse(source: str) -> ast.Module:
    """Parse a cell as Python, blanking IPython-only lines (magics, shell escapes)."""
    lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()]
    return ast.parse("\n".join(lines))


def _imported_modules(tree: ast.AST) -> list[str]:
    modules = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            modules.append("." * node.level + (node.module or ""))
    return modules


def _tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _displays_widget(cell) -> bool:
    if any(WIDGET_MIME in out.get("data", {}) for out in cell.get("outputs", [])):
        return True
    return bool(re.search(r"\bipywidgets\b|\bwidgets\.|\banywidget\b", cell.source))


def _top_level_calls(tree: ast.Module):
    """Calls a cell surely makes when it runs: not those inside def, class or lambda."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Call):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _prints_something(tree: ast.Module) -> bool:
    for call in _top_level_calls(tree):
        func = call.func
        if isinstance(func, ast.Name) and func.id in {"print", "display"}:
            return True
        if isinstance(func, ast.Attribute) and func.attr == "show":
            return True
    return False


def _markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


# --- the set of notebooks -------------------------------------------------------------


def test_the_full_set_of_notebooks_exists():
    """Every notebook of the teaching order is required."""
    missing = [name for name in EXPECTED if not (NOTEBOOKS_DIR / name).exists()]
    assert not missing, f"missing notebooks: {missing}"


def test_no_unexpected_notebooks():
    extra = sorted(set(_ids(NOTEBOOKS)) - set(EXPECTED))
    assert not extra, f"notebooks not in the teaching order (update EXPECTED and 00_index): {extra}"


def test_numbers_are_contiguous_from_00():
    numbers = sorted({int(p.name[:2]) for p in NOTEBOOKS if NAME_RE.match(p.name)})
    assert numbers == list(range(len(numbers))), f"notebook numbers must be 00..N, got {numbers}"


def test_no_notebooks_outside_the_notebooks_folder():
    root = NOTEBOOKS_DIR.parent
    stray = [
        str(p.relative_to(root))
        for p in root.rglob("*.ipynb")
        if p.parent != NOTEBOOKS_DIR
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
        and ".ipynb_checkpoints" not in p.parts
        # build/ (git-ignored) holds make docs' copy of the notebooks
        and p.relative_to(root).parts[0] not in {"build", "dist"}
    ]
    assert not stray, f"notebooks belong in notebooks/: {stray}"


# --- per notebook ----------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_name(path):
    assert NAME_RE.match(path.name), (
        f"{path.name} must look like NN_snake_case.ipynb (or NNb_... for a second part)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_valid_nbformat_and_python3_kernel(path):
    nb = _read(path)
    nbformat.validate(nb)
    kernelspec = nb.metadata.get("kernelspec", {})
    assert kernelspec.get("name") == "python3", (
        f"{path.name}: kernelspec name must be 'python3' (nbval starts that kernel), "
        f"got {kernelspec.get('name')!r}"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_small(path):
    size = path.stat().st_size
    assert size <= MAX_NOTEBOOK_BYTES, f"{path.name} is {size} bytes; keep stored outputs small"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_first_code_cell_imports_only_the_package_and_the_standard_stack(path):
    cells = _code_cells(_read(path))
    assert cells, f"{path.name} has no code cell"
    modules = _imported_modules(_parse(cells[0].source))
    assert modules, f"{path.name}: the first code cell must do the imports"
    bad = [
        m
        for m in modules
        if m not in FIRST_CELL_MODULES and m != "ragmetrics" and not m.startswith("ragmetrics.")
    ]
    assert not bad, (
        f"{path.name}: the first code cell may import only ragmetrics and "
        f"{sorted(FIRST_CELL_MODULES)}, not {bad}"
    )
    assert any(m == "ragmetrics" or m.startswith("ragmetrics.") for m in modules), (
        f"{path.name}: the first code cell must import from ragmetrics"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_code_cells_install_nothing_and_fetch_nothing(path):
    problems = []
    for i, cell in enumerate(_code_cells(_read(path))):
        problems += [
            f"code cell {i}: {what!r}"
            for what, rx in FORBIDDEN_CODE.items()
            if rx.search(cell.source)
        ]
        net = [
            m for m in _imported_modules(_parse(cell.source)) if m.split(".")[0] in NETWORK_MODULES
        ]
        problems += [f"code cell {i}: imports {m}" for m in net]
    assert not problems, f"{path.name}: " + "; ".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_every_code_cell_has_a_stored_run_in_order(path):
    """Stored runs are what nbval compares: a cell never run is checked for nothing."""
    cells = _code_cells(_read(path))
    counts = [c.execution_count for c in cells]
    unrun = [i for i, n in enumerate(counts) if n is None]
    assert not unrun, (
        f"{path.name}: code cells {unrun} have no stored run; "
        "execute with tests/execute_notebooks.py"
    )
    assert counts == list(range(1, len(cells) + 1)), (
        f"{path.name}: execution counts {counts} are not 1..{len(cells)}: run it top to bottom "
        "in a fresh kernel (tests/execute_notebooks.py)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_cells_that_print_have_stored_outputs(path):
    missing = [
        i
        for i, cell in enumerate(_code_cells(_read(path)))
        if _prints_something(_parse(cell.source)) and not cell.outputs
    ]
    assert not missing, f"{path.name}: code cells {missing} print or show but store no output"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_no_error_or_stderr_outputs(path):
    bad = []
    for i, cell in enumerate(_code_cells(_read(path))):
        for out in cell.outputs:
            if out.output_type == "error":
                bad.append(f"code cell {i}: error {out.get('ename')}: {out.get('evalue')}")
            elif out.output_type == "stream" and out.get("name") == "stderr":
                bad.append(f"code cell {i}: stderr {out.get('text', '')[:200]!r}")
    assert not bad, f"{path.name}: " + "; ".join(bad)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_no_numpy_scalar_reprs(path):
    """``np.float64(0.5)`` (numpy 2) vs ``0.5`` (numpy 1): print or float() instead."""
    bad = []
    for i, cell in enumerate(_code_cells(_read(path))):
        for out in cell.outputs:
            text = out.get("data", {}).get("text/plain", "")
            if re.search(r"\bnp\.(?:float|int|uint|bool)\w*\(", "".join(text)):
                bad.append(i)
    assert not bad, f"{path.name}: code cells {bad} show a numpy scalar repr"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_no_stored_widget_state(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in raw.get("metadata", {}), f"{path.name}: stored widget state"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_no_execution_timestamps(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    stamped = [i for i, c in enumerate(raw["cells"]) if "execution" in c.get("metadata", {})]
    assert not stamped, f"{path.name}: cells {stamped} carry metadata.execution timestamps"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_nbval_checks_every_cell(path):
    """Only a cell that displays a widget may skip the output comparison; none may skip running."""
    bad = []
    for i, cell in enumerate(_code_cells(_read(path))):
        tags = _tags(cell)
        lines = {line.strip() for line in cell.source.splitlines()}
        ignored = IGNORE_TAG in tags or "# NBVAL_IGNORE_OUTPUT" in lines
        if ignored and not _displays_widget(cell):
            bad.append(f"code cell {i} ignores its output but displays no widget")
        if tags & FORBIDDEN_TAGS:
            bad.append(f"code cell {i} is tagged {sorted(tags & FORBIDDEN_TAGS)}")
        if lines & FORBIDDEN_MARKERS:
            bad.append(f"code cell {i} has {sorted(lines & FORBIDDEN_MARKERS)}")
        if "# NBVAL_CHECK_OUTPUT" in lines or "nbval-check-output" in tags:
            bad.append(f"code cell {i} is marked check-output (a --nbval-lax marker; unused here)")
    assert not bad, f"{path.name}: " + "; ".join(bad)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_relative_notebook_links_resolve(path):
    links = re.findall(r"\]\(([^)\s:]+\.ipynb)(?:#[^)]*)?\)", _markdown(_read(path)))
    broken = [link for link in links if not (path.parent / link).exists()]
    assert not broken, f"{path.name}: links to missing notebooks {broken}"


# --- lessons (every notebook but the index) --------------------------------------------


@pytest.mark.parametrize("path", LESSONS, ids=_ids(LESSONS))
def test_lesson_is_linked_from_the_index(path):
    index = NOTEBOOKS_DIR / INDEX
    assert index.exists(), f"{INDEX} is missing"
    text = _markdown(_read(index))
    assert f"]({path.name})" in text, f"{INDEX} has no relative link to {path.name}"
    binder = BINDER_URL.format(path.name)
    assert f"]({binder})" in text, f"{INDEX} has no Binder link to {path.name}: {binder}"


# Each notebook with a successor (in the teaching order) must hand the learner on to it:
# 07 -> 08 -> 08b -> 09.
NEXT = [
    (NOTEBOOKS_DIR / p, NOTEBOOKS_DIR / q)
    for p, q in itertools.pairwise(EXPECTED)
    if (NOTEBOOKS_DIR / p).exists() and (NOTEBOOKS_DIR / q).exists()
]


@pytest.mark.parametrize(("path", "following"), NEXT,
                         ids=[p.name for p, _ in NEXT])
def test_ends_with_a_link_to_the_next_notebook(path, following):
    cells = [c for c in _read(path).cells if c.source.strip()]
    last = cells[-1]
    message = f"{path.name} must end with a markdown 'Next:' link to {following.name}"
    assert last.cell_type == "markdown", message
    assert f"]({following.name})" in last.source, message


def test_index_has_a_binder_badge_for_itself():
    index = NOTEBOOKS_DIR / INDEX
    if not index.exists():
        pytest.fail(f"{INDEX} is missing")
    assert f"]({BINDER_URL.format(INDEX)})" in _markdown(_read(index))
