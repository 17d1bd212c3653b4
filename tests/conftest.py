"""Shared fixtures for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragmetrics import parse_metric

# trec_eval's own test suite (inputs and expected outputs), vendored unchanged.
TREC_CONFORMANCE_DIR = Path(__file__).resolve().parent / "conformance" / "trec_eval"


@pytest.fixture(scope="session")
def trec_conformance_dir() -> Path:
    """The folder of trec_eval's test suite (tests/conformance/trec_eval)."""
    return TREC_CONFORMANCE_DIR


def _score_one_query(metric: str, ranking: list, grades: dict, relevance_level: float) -> float:
    """One query's value of a metric named as in evaluate, by its per-query function."""
    spec = parse_metric(metric)
    return spec.info.score_one(ranking, grades, spec.k, relevance_level=relevance_level)


@pytest.fixture(scope="session")
def score_one_query():
    """``score_one_query("ndcg@10", ranking, grades, relevance_level)``: one query's value
    of a metric named as in :func:`ragmetrics.evaluate`, from its per-query function."""
    return _score_one_query
