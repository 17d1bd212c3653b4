"""A diversity measure asked of ``evaluate`` is pointed to where it lives."""

from __future__ import annotations

import pandas as pd
import pytest

import ragmetrics as rm
from ragmetrics.diversity import DIVERSITY_METRICS
from ragmetrics.errors import InputValueError
from ragmetrics.metrics.registry import DIVERSITY_NAMES, METRICS


def test_the_names_are_those_of_the_diversity_table():
    names = {alias for info in DIVERSITY_METRICS.values() for alias in (info.name, *info.aliases)}
    assert names == DIVERSITY_NAMES
    assert not names & set(METRICS)


@pytest.mark.parametrize("asked", ["alpha_ndcg@10", "alpha-nDCG@10", "strec@20", "map_ia"])
def test_evaluate_names_the_diversity_entry_point(asked):
    run = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1]})
    with pytest.raises(InputValueError, match=r"diversity measure .*evaluate_diversity") as err:
        rm.evaluate(run, qrels, [asked])
    assert repr(asked) in str(err.value)
