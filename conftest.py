"""Test-wide hooks for everything pytest collects (tests/, the doctests, the notebooks).

``pytest -m "not slow"`` is the quick loop (about a minute); ``make test`` runs everything.
The fixtures are in ``tests/conftest.py``.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

#: What is slow as a whole (building wheels and the book, resolving Binder, real
#: browsers, executing notebooks): every test collected from these paths is marked
#: ``slow`` here, so that ``pytest -m "not slow"`` stays a loop of about a minute. Single
#: slow tests elsewhere carry ``@pytest.mark.slow`` themselves.
SLOW_PATHS = (
    "notebooks/",
    "tests/browser/",
    "tests/repo/test_binder.py",
    "tests/repo/test_docs.py",
    "tests/repo/test_nbval_catches_bugs.py",
    "tests/repo/test_packaging.py",
    "tests/unit/evaluation/test_dask.py",
)

#: The oracles and test tools ``make test`` installs (the ``test`` and ``docs`` extras):
#: with ``RAGMETRICS_REQUIRE_ORACLES=1`` (set by ``make test``, so by CI) a missing one
#: stops the run with an error instead of skipping the tests that need it.
ORACLES = ("pytrec_eval", "ir_measures", "sklearn", "krippendorff", "polars", "dask",
           "distributed", "hypothesis", "nbval", "playwright", "voila", "notebook", "sphinx",
           "myst_nb")


def pytest_sessionstart(session):
    if os.environ.get("RAGMETRICS_REQUIRE_ORACLES") != "1":
        return
    missing = [name for name in ORACLES if importlib.util.find_spec(name) is None]
    if missing:
        raise pytest.UsageError(
            f"RAGMETRICS_REQUIRE_ORACLES=1 but {', '.join(missing)} cannot be imported: "
            "install the test extras (pip install -e '.[lab,test,docs]'); under CI a "
            "missing oracle is an error, not a skip")


def pytest_collection_modifyitems(config, items):
    root = Path(config.rootpath)
    for item in items:
        try:
            where = Path(item.path).resolve().relative_to(root).as_posix()
        except ValueError:
            continue
        if where.startswith(SLOW_PATHS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _docstring_examples_run_in_a_fresh_folder(request, monkeypatch):
    """A docstring example that writes files writes them in a fresh temporary folder (as
    pandas' do), so that the examples name their files plainly, as a user would."""
    if type(request.node).__name__ == "DoctestItem":
        monkeypatch.chdir(request.getfixturevalue("tmp_path"))
