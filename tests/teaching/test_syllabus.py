"""The course's metric list: every row a metric of the table, taught where it says."""

from __future__ import annotations

from pathlib import Path

import nbformat

from ragmetrics import METRICS
from ragmetrics.diversity import DIVERSITY_METRICS
from ragmetrics.teaching import EXERCISE_METRICS, SYLLABUS, syllabus_table

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def test_each_metric_is_taught_in_the_notebook_named():
    for name, notebook in SYLLABUS.items():
        info = METRICS[name] if name in METRICS else DIVERSITY_METRICS[name]
        nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
        text = "\n".join(cell.source for cell in nb.cells).lower()
        # "Hit rate@k" -> "hit rate", "RBP(p)" -> "rbp"; a long name by its first word
        # ("11-point interpolated average precision" -> "11-point").
        words = info.pretty_name.split("@")[0].split("(")[0].split()
        words = " ".join(words[:1] if len(words) > 3 else words)
        assert words.lower() in text, (name, notebook, words)


def test_the_syllabus_holds_every_metric_the_exercises_ask():
    assert set(EXERCISE_METRICS) <= set(SYLLABUS)
    table = syllabus_table()
    tables = {**METRICS, **DIVERSITY_METRICS}
    assert list(table.index) == [tables[name].pretty_name for name in SYLLABUS]
    assert table.loc["nDCG@k", "question"] == METRICS["ndcg"].question


def test_the_syllabus_is_in_teaching_order():
    order = [int(notebook[:2]) for notebook in SYLLABUS.values()]
    assert order == sorted(order)
