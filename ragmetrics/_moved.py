"""Old module paths and names that moved, kept working with a DeprecationWarning.

A module that moved is found by its old dotted path (``import ragmetrics.policies``,
``from ragmetrics.metrics.table import METRICS``): :class:`MovedFinder`, last on
``sys.meta_path``, answers only for the paths in :data:`MOVED_MODULES` (every real module
is found before it), warns once per path, and gives a module that holds the public names
of the new module(s). A public name that was renamed is answered by its package's (or its
module's) ``__getattr__`` through :func:`renamed`. README's Layout section lists every entry;
``tests/repo/test_layout.py`` checks that each old path still imports, warns and gives
the new objects.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

__all__ = ["MOVED_MODULES", "RENAMED", "MovedFinder", "install", "renamed", "renamed_in"]

#: ``{old dotted path: (new module, ...)}``: an old path whose names now live in several
#: modules lists each.
MOVED_MODULES: dict[str, tuple[str, ...]] = {
    "ragmetrics.policies": ("ragmetrics.conventions", "ragmetrics.presets"),
    "ragmetrics.metrics.table": ("ragmetrics.metrics.registry",),
    "ragmetrics.reports.tables": ("ragmetrics.reports.text_tables",),
    "ragmetrics.evaluation.batch": ("ragmetrics.evaluation.evaluator",),
    "ragmetrics.stats.checks": ("ragmetrics.stats.arguments",),
    "ragmetrics.widgets.chunking": ("ragmetrics.widgets.chunking_explorer",),
    "ragmetrics.stats.comparison": ("ragmetrics.comparison",),
    "ragmetrics.spans.tables": ("ragmetrics.spans.model",),
    "ragmetrics.spans.intervals": ("ragmetrics.spans.offsets",),
    "ragmetrics.spans.plotting": ("ragmetrics.spans.threshold_plot",),
}

#: ``{(package, old name): (module, new name)}``: public names that were renamed.
RENAMED: dict[tuple[str, str], tuple[str, str]] = {
    ("ragmetrics.reports", "Table"): ("ragmetrics.reports.text_tables", "TextTable"),
    # compare() left the statistics for its own package: the names are the same.
    **{("ragmetrics.stats", name): ("ragmetrics.comparison", name)
       for name in ("compare", "Comparison", "evaluate_systems", "default_metrics",
                    "DEFAULT_CUTOFFS", "UNDECIDED")},
    # Four functions were called judged_at_k; the per-query reference function keeps it.
    ("ragmetrics.teaching", "judged_at_k"):
        ("ragmetrics.teaching.judgments", "judged_at_k_per_query"),
    ("ragmetrics.teaching.judgments", "judged_at_k"):
        ("ragmetrics.teaching.judgments", "judged_at_k_per_query"),
    ("ragmetrics.audits", "judged_at_k"): ("ragmetrics.audits.rankings", "judged_at_k_by_system"),
    ("ragmetrics.audits.rankings", "judged_at_k"):
        ("ragmetrics.audits.rankings", "judged_at_k_by_system"),
    ("ragmetrics.metrics.judged", "judged_at_k"): ("ragmetrics.metrics.judged", "judged_share"),
    ("ragmetrics.spans.readers", "Table"): ("ragmetrics.spans.readers", "TableFile"),
}


def _warn(old: str, new: str) -> None:
    warnings.warn(f"{old} is now {new}; the old name will be removed in a later release",
                  DeprecationWarning, stacklevel=3)


class MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old paths of :data:`MOVED_MODULES`, and nothing else."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED_MODULES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        targets = MOVED_MODULES[module.__name__]
        _warn(module.__name__, " and ".join(targets))
        names = []
        for target in targets:
            new = importlib.import_module(target)
            public = getattr(new, "__all__", [n for n in vars(new) if not n.startswith("_")])
            module.__dict__.update({name: getattr(new, name) for name in public})
            names += public
        module.__all__ = names
        module.__doc__ = f"Moved: see {', '.join(targets)}."


def renamed(package: str, name: str):
    """The object a package's old public ``name`` now is, with a DeprecationWarning; an
    AttributeError for a name that never was."""
    if (package, name) not in RENAMED:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    module, new = RENAMED[package, name]
    _warn(f"{package}.{name}", f"{module}.{new}")
    return getattr(importlib.import_module(module), new)


def renamed_in(package: str):
    """A module ``__getattr__`` for ``package`` that answers its old names
    (``__getattr__ = renamed_in(__name__)``), through :func:`renamed`."""

    def __getattr__(name: str):
        return renamed(package, name)

    return __getattr__


def install() -> None:
    """Put :class:`MovedFinder` last on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())
