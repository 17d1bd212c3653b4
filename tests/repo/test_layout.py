"""The package's layout keeps its rules: the flow runs one way, and names mean one thing.

Read from the source (the imports a module runs when it is imported, and those its
functions run when called) and from fresh interpreters: no import cycle at all, no
private name imported from another module, statistics on arrays that import neither the
evaluation, the spans, the comparison nor the reports, reports that never import the
comparison they present, module names that never shadow the names they hold, and the old
module paths of the statistics and the reports gone.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import ragmetrics
import ragmetrics.comparison
import ragmetrics.reports
import ragmetrics.stats

PACKAGE = Path(ragmetrics.__file__).parent
MOVED = ("ragmetrics.compare", "ragmetrics.report", "ragmetrics.output_files",
         "ragmetrics.teaching.ndcg_table")


def _modules() -> dict[str, tuple[Path, bool]]:
    """``{dotted name: (path, is a package)}`` of every module of ragmetrics."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


MODULES = _modules()


def _import_time_statements(tree: ast.Module, *, lazy: bool = False):
    """The import statements that run when the module is imported: not those in a
    function body (unless ``lazy``: those that run when it is called), nor under
    ``if TYPE_CHECKING:``."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and not lazy:
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _target(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str, *, lazy: bool = False) -> tuple[set[str], list[str]]:
    """The ragmetrics modules ``module`` imports when imported (a package's ``__init__``
    included: importing ``a.b.c`` runs ``a.b``; with ``lazy``, also those its functions
    import when called), and the private names it imports."""
    path, is_package = MODULES[module]
    deps, private = set(), []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in _import_time_statements(tree, lazy=lazy):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            target = _target(module, is_package, node)
            names = []
            for alias in node.names:
                if f"{target}.{alias.name}" in MODULES:
                    names.append(f"{target}.{alias.name}")
                else:
                    names.append(target)
                    if alias.name.startswith("_") and target.startswith("ragmetrics"):
                        private.append(f"{module}: from {target} import {alias.name}")
        for name in names:
            parts = name.split(".")
            deps.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
    own = {module} | {p for p in deps if module.startswith(p + ".")}  # its own packages
    return {d for d in deps if d in MODULES} - own, private


GRAPH = {module: _imports(module)[0] for module in MODULES}
#: The same with the imports inside functions: a cycle there is one of design, even if
#: no import fails (the lower module would know the higher one).
LAZY_GRAPH = {module: _imports(module, lazy=True)[0] for module in MODULES}


def _in(package: str) -> list[str]:
    """The modules of ``package``, itself included."""
    return [m for m in MODULES if m == package or m.startswith(package + ".")]


def test_no_private_name_is_imported_from_another_module():
    private = [line for module in MODULES for line in _imports(module)[1]]
    assert private == []


@pytest.mark.parametrize("graph", [GRAPH, LAZY_GRAPH], ids=["at import", "lazy included"])
def test_no_import_cycle(graph):
    # Depth-first search; a module met again while still on the path closes a cycle.
    state: dict[str, str] = {}
    cycles = []

    def visit(module, path):
        state[module] = "open"
        for dep in sorted(graph[module]):
            if state.get(dep) == "open":
                cycles.append([*path[path.index(dep):], dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_the_graph_sees_imports():
    # The tests below would pass on a graph of nothing: check that it holds known edges.
    assert "ragmetrics.stats.arguments" in GRAPH["ragmetrics.stats.intervals"]
    assert "ragmetrics.stats.power" in GRAPH["ragmetrics.reports.drilldown"]
    assert "ragmetrics.stats" in GRAPH["ragmetrics.reports.drilldown"]  # its __init__ runs
    assert "ragmetrics.evaluation" in GRAPH["ragmetrics.comparison.systems"]
    # Annotations only (if TYPE_CHECKING), and an import inside a function:
    assert "ragmetrics.comparison" not in LAZY_GRAPH["ragmetrics.reports.document"]
    result = "ragmetrics.comparison.comparison_result"
    assert "ragmetrics.reports.text_report" not in GRAPH[result]
    assert "ragmetrics.reports.text_report" in LAZY_GRAPH[result]
    assert "ragmetrics.reports.figures" not in GRAPH["ragmetrics.reports.html_report"]


@pytest.mark.parametrize("layer", ["ragmetrics.evaluation", "ragmetrics.spans",
                                   "ragmetrics.comparison", "ragmetrics.reports"])
def test_statistics_on_arrays_never_import_the_layers_above(layer):
    # metrics -> evaluation -> comparison -> reports, with the statistics beside: they take
    # arrays, and know nothing of runs, evidence, systems or reports (lazy imports too).
    stats = _in("ragmetrics.stats")
    assert len(stats) > 5
    for module in stats:
        assert not {d for d in LAZY_GRAPH[module] if d in _in(layer)}, module


def test_the_reports_never_import_the_comparison_they_present():
    # One way: a Comparison presents itself (to_text, to_markdown, to_html import their
    # renderer when called, as pandas' DataFrame.to_html does), so the reports may name a
    # Comparison in annotations only, never import it, not even inside a function.
    reports = _in("ragmetrics.reports")
    assert len(reports) > 5
    for module in reports:
        assert not {d for d in LAZY_GRAPH[module] if d in _in("ragmetrics.comparison")}, module
    # ...and the comparison imports no renderer until one is asked for:
    for module in _in("ragmetrics.comparison"):
        assert not {d for d in GRAPH[module] if d in _in("ragmetrics.reports")}, module


def test_the_runners_stand_below_the_evaluation():
    # ragmetrics.runners calls retrievers and builds runs: it reads and checks input (io,
    # errors, validation, progress) and imports none of the evaluation, the comparison or
    # the reports (lazy imports too); the comparison reads a run's latency by duck typing,
    # so it never imports the runners either.
    runners = _in("ragmetrics.runners")
    assert len(runners) >= 5
    above = {*_in("ragmetrics.evaluation"), *_in("ragmetrics.comparison"),
             *_in("ragmetrics.reports"), *_in("ragmetrics.spans")}
    for module in runners:
        assert not {d for d in LAZY_GRAPH[module] if d in above}, module
    for module in [*_in("ragmetrics.comparison"), *_in("ragmetrics.reports")]:
        assert not {d for d in LAZY_GRAPH[module] if d in runners}, module


def test_importing_the_statistics_and_the_comparison_loads_no_renderer():
    code = ("import json, sys, ragmetrics.stats, ragmetrics.comparison; print(json.dumps("
            "[m for m in sys.modules if m.startswith(('ragmetrics.reports', 'matplotlib'))]))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    assert json.loads(loaded) == []


def test_importing_the_reports_loads_no_matplotlib():
    code = ("import json, sys, ragmetrics.reports; "
            "print(json.dumps([m for m in sys.modules if m.startswith('matplotlib')]))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    assert json.loads(loaded) == []


@pytest.mark.parametrize("module", MOVED)
def test_the_old_module_paths_are_gone(module):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(module)
    assert not (PACKAGE / f"{module.rsplit('.', 1)[1]}.py").exists()


def test_stats_comparison_and_reports_are_packages():
    # ragmetrics.stats was a module; it is a package now, and so are ragmetrics.reports
    # and ragmetrics.comparison (which was the module ragmetrics.stats.comparison).
    assert not (PACKAGE / "stats.py").exists()
    assert not (PACKAGE / "stats" / "comparison.py").exists()
    for package in (ragmetrics.stats, ragmetrics.reports, ragmetrics.comparison):
        assert Path(package.__file__).name == "__init__.py"


def test_no_two_modules_share_a_file_name():
    # A name says one thing: ``tables.py`` in three folders said three. Packages' own
    # __init__.py aside, every module's file name is its own across the whole package.
    names = [path.name for path, _ in MODULES.values() if path.name != "__init__.py"]
    assert len(names) > 100
    assert sorted({name for name in names if names.count(name) > 1}) == []
    steps = [p.name for p in (PACKAGE / "comparison").glob("*.py") if p.name != "__init__.py"]
    assert len(steps) >= 6  # the comparison's steps are modules of their own


def test_no_two_public_classes_share_a_name():
    # Three classes were called Table and two Source: each public class's name is its own.
    found: dict[str, list[str]] = {}
    for module, (path, _) in MODULES.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found.setdefault(node.name, []).append(module)
    assert len(found) > 40
    assert {name: where for name, where in found.items() if len(where) > 1} == {}


@pytest.mark.parametrize("package", [ragmetrics, ragmetrics.stats, ragmetrics.reports,
                                     ragmetrics.comparison], ids=lambda p: p.__name__)
def test_no_module_shadows_a_name_its_package_exports(package):
    submodules = {info.name for info in pkgutil.iter_modules(package.__path__)}
    assert submodules & set(package.__all__) == set()


def test_importing_every_submodule_rebinds_no_public_name():
    # In a fresh interpreter: the public names of ragmetrics, ragmetrics.stats,
    # ragmetrics.reports and ragmetrics.comparison are the same objects before and after
    # every submodule of the statistics, the reports and the comparison is imported
    # (``import ragmetrics.comparison.pipeline`` must leave ``ragmetrics.compare`` the
    # function).
    code = """
import importlib, json, pkgutil
import ragmetrics, ragmetrics.comparison, ragmetrics.reports, ragmetrics.stats

packages = [ragmetrics, ragmetrics.stats, ragmetrics.reports, ragmetrics.comparison]

def public():
    return {f"{p.__name__}.{n}": id(getattr(p, n)) for p in packages for n in p.__all__}

before = public()
for package in packages[1:]:
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
after = public()
print(json.dumps({
    "changed": sorted(n for n in before if before[n] != after[n]),
    "compare": type(ragmetrics.compare).__name__,
    "same": ragmetrics.compare is ragmetrics.comparison.pipeline.compare,
}))
"""
    result = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True).stdout)
    assert result == {"changed": [], "compare": "function", "same": True}


def test_the_public_names_are_those_of_the_layers():
    assert ragmetrics.compare is ragmetrics.comparison.compare
    assert ragmetrics.Comparison is ragmetrics.comparison.Comparison
    with pytest.warns(DeprecationWarning, match="ragmetrics.stats.compare is now "
                      "ragmetrics.comparison.compare"):
        assert ragmetrics.stats.compare is ragmetrics.compare
    with pytest.raises(AttributeError, match="no attribute 'compare_all'"):
        ragmetrics.stats.compare_all  # noqa: B018
    assert ragmetrics.write_report is ragmetrics.reports.write_report
    for name in ("bootstrap_ci", "paired_bootstrap", "randomization_test", "paired_t_test",
                 "paired_effect_size", "holm", "benjamini_hochberg"):
        assert getattr(ragmetrics, name) is getattr(ragmetrics.stats, name)
    from ragmetrics.reports import figures

    assert ragmetrics.reports.plot_intervals is figures.plot_intervals
    with pytest.raises(AttributeError, match="no attribute 'plot_everything'"):
        ragmetrics.reports.plot_everything  # noqa: B018


@pytest.mark.slow
def test_modules_that_moved_keep_their_old_paths_with_a_deprecation_warning():
    # In a fresh interpreter: each old path of ragmetrics._moved imports, warns once with
    # the new path, and gives the new module's objects; a renamed public name likewise.
    code = """
import importlib, json, warnings
import ragmetrics
from ragmetrics._moved import MOVED_MODULES, RENAMED

out = {}
for old, targets in MOVED_MODULES.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    new = [importlib.import_module(t) for t in targets]
    same = all(any(getattr(module, n) is getattr(m, n, None) for m in new)
               for n in module.__all__)
    out[old] = [[str(w.message) for w in caught if w.category is DeprecationWarning], same,
                len(module.__all__)]
for (package, name), (module, new) in RENAMED.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(importlib.import_module(package), name)
    out[f"{package}.{name}"] = [[str(caught[0].message)],
                                value is getattr(importlib.import_module(module), new), 1]
print(json.dumps(out))
"""
    result = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True).stdout)
    from ragmetrics._moved import MOVED_MODULES, RENAMED

    assert len(result) == len(MOVED_MODULES) + len(RENAMED) >= 7
    for old, (messages, same, n_names) in result.items():
        assert len(messages) == 1, old
        assert messages[0].startswith(f"{old} is now ragmetrics."), old
        assert same, old
        assert n_names >= 1, old
        assert old.rsplit(".", 1)[0] in MODULES  # its package is still there...
        assert old not in MODULES  # ...and the old file is gone
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    for old in result:  # README's Layout section says where each went
        assert f"`{old}`" in readme, old
