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


SUPPORT_DEMO = Path(__file__).resolve().parents[1] / "data" / "support_demo"


@pytest.fixture(scope="session")
def support_demo():
    """The support demo's golden set and its two runs: ``(qrels, {"bm25": run, ...})``."""
    from ragmetrics import read_golden, read_trec_run

    qrels = read_golden(SUPPORT_DEMO / "golden.csv")
    runs = {name: read_trec_run(SUPPORT_DEMO / "runs" / f"{name}.tsv")
            for name in ("bm25", "dense_minilm")}
    return qrels, runs


@pytest.fixture(scope="session")
def support_comparison(support_demo):
    """``compare`` of the support demo's two runs (72 questions), BM25 the baseline."""
    from ragmetrics import compare

    qrels, runs = support_demo
    return compare(runs, qrels, n_resamples=500, seed=0)
