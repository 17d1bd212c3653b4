"""README's examples are doctests: the numbers it shows are the numbers the code gives."""

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_examples_run_as_shown():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8
    assert result.failed == 0


def test_readme_shows_the_metrics_table_as_the_code_has_it():
    from ragmetrics.metrics.registry import metrics_markdown

    assert metrics_markdown() in README.read_text(encoding="utf-8")
