"""Shared fixtures for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragmetrics import parse_metric

# trec_eval's own test suite (inputs and expected outputs, read-only), next to the repo.
_TREC_CONFORMANCE_DIR = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "trec_eval"


@pytest.fixture(scope="session")
def trec_conformance_dir() -> Path:
    """The folder of trec_eval's test suite; the test is skipped when it is absent."""
    if not _TREC_CONFORMANCE_DIR.is_dir():
        pytest.skip(f"trec_eval's test suite not found: looked for {_TREC_CONFORMANCE_DIR}")
    return _TREC_CONFORMANCE_DIR


def _score_one_query(metric: str, ranking: list, grades: dict, relevance_level: float) -> float:
    spec = parse_metric(metric)
    function = spec.info.function  # recall_at_k, reciprocal_rank, ...
    if spec.info.cutoff == "none" or (spec.k is None and spec.name != "ndcg"):
        return function(ranking, grades, relevance_level=relevance_level)
    # ndcg_at_k always takes a k. Uncut nDCG (trec_eval's "ndcg") sums the whole ranking
    # and an ideal ranking of every judged doc: any k covering both gives that number.
    k = spec.k if spec.k is not None else max(len(ranking), len(grades), 1)
    return function(ranking, grades, k, relevance_level=relevance_level)


@pytest.fixture(scope="session")
def score_one_query():
    """``score_one_query("ndcg@10", ranking, grades, relevance_level)``: one query's value
    of a metric named as in :func:`ragmetrics.evaluate`, from its per-query function."""
    return _score_one_query
