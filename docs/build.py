"""Build the ragmetrics book: ``python docs/build.py [OUTPUT]`` (``make docs``).

Assembles a Sphinx source tree in ``build/docs-src`` (this folder's pages, the notebooks, and
an API page per public name, listed from the packages' ``__all__``), then runs Sphinx into
``OUTPUT`` (default ``build/docs``). Offline: the notebooks are rendered from their stored
outputs (nothing is executed) and nothing is fetched. The book's entry page is
``OUTPUT/index.html``.
"""

from __future__ import annotations

import importlib
import inspect
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: The packages whose public names (``__all__``) get an API page, with a title each.
API_MODULES = {
    "ragmetrics": "Metrics, evaluation and comparison",
    "ragmetrics.metrics": "Every measure, query by query",
    "ragmetrics.teaching": "Teaching material",
    "ragmetrics.widgets": "Widgets",
    "ragmetrics.comparison": "Comparing systems",
    "ragmetrics.reports": "Reports",
    "ragmetrics.stats": "Statistics",
    "ragmetrics.diversity": "Diversity and novelty, as ndeval computes them",
}


def notebooks(pattern: str = "*.ipynb") -> list[Path]:
    """The notebooks of the book, in teaching order."""
    return sorted((ROOT / "notebooks").glob(pattern))


def public_names(module_name: str) -> list[str]:
    """The module's public names that are functions or classes (``__all__``, in order)."""
    module = importlib.import_module(module_name)
    names = []
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            names.append(name)
    return names


def api_entries() -> dict[str, list[str]]:
    """The names each API page documents: every public function and class of
    :data:`API_MODULES`, each on the page of the first module that exports it (``compare`` is
    ``ragmetrics.compare``, not also ``ragmetrics.comparison.compare``)."""
    seen: set[int] = set()
    entries = {}
    for module_name in API_MODULES:
        module = importlib.import_module(module_name)
        kept = []
        for name in public_names(module_name):
            if id(getattr(module, name)) not in seen:
                seen.add(id(getattr(module, name)))
                kept.append(name)
        entries[module_name] = kept
    return entries


def api_pages() -> dict[str, str]:
    """The API reference's source files: ``api/index.rst`` and one page per module."""
    index = ["API reference", "=============", "",
             "Every public function and class, from its docstring.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    pages = {}
    entries = api_entries()
    for module_name, title in API_MODULES.items():
        slug = module_name.replace(".", "_")
        index.append(f"   {slug}")
        lines = [f"{title}: ``{module_name}``", "=" * (len(title) + len(module_name) + 6), "",
                 f".. currentmodule:: {module_name}", "", ".. autosummary::",
                 "   :toctree: generated", "   :nosignatures:", ""]
        lines += [f"   {name}" for name in entries[module_name]]
        pages[f"api/{slug}.rst"] = "\n".join(lines) + "\n"
    pages["api/index.rst"] = "\n".join(index) + "\n"
    return pages


def assemble(source: Path, *, only: list[str] | None = None) -> Path:
    """Write the Sphinx source tree into ``source`` (emptied first); return it.

    ``only`` limits the notebooks to those names (a quick build); by default every one.
    """
    if source.exists():
        shutil.rmtree(source)
    (source / "notebooks").mkdir(parents=True)
    for page in ("conf.py", "index.md"):
        shutil.copy2(DOCS / page, source / page)
    # The book's own static files (its CSS), as conf.py's html_static_path names them.
    shutil.copytree(DOCS / "_static", source / "_static")
    for path in notebooks():
        if only is None or path.name in only:
            shutil.copy2(path, source / "notebooks" / path.name)
    for relative, text in api_pages().items():
        target = source / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return source


def build(output: Path, *, source: Path | None = None, only: list[str] | None = None,
          quiet: bool = True, warnings: Path | None = None) -> int:
    """Assemble the sources and run Sphinx (html) into ``output``; Sphinx's exit status.

    Sphinx's warnings also go to ``warnings`` (default: ``warnings.log`` next to the
    sources); ``tests/repo/test_docs.py`` fails on any warning about the book's own pages.
    """
    from sphinx.cmd.build import build_main

    source = assemble(source or ROOT / "build" / "docs-src", only=only)
    log = warnings or source / "warnings.log"
    args = ["-b", "html", "-j", "auto", "-d", str(source / ".doctrees"), "-w", str(log)]
    if quiet:
        args.append("-q")
    return build_main([*args, str(source), str(output)])


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Build the ragmetrics book.")
    parser.add_argument("output", nargs="?", type=Path, default=ROOT / "build" / "docs")
    parser.add_argument("--source", type=Path, help="where to assemble the sources")
    parser.add_argument("--warnings", type=Path, help="where to write Sphinx's warnings")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    status = build(args.output, source=args.source, warnings=args.warnings, quiet=args.quiet)
    if status == 0:
        print(f"the book: {args.output / 'index.html'}")
    return status


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
