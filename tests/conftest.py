"""Shared fixtures for the test suite.

The tests are laid out by layer: ``unit/<subpackage>`` (mirroring ``ragmetrics/``),
``oracles`` (against trec_eval's suite, pytrec_eval and other tools), ``teaching``,
``repo`` (layout, README, the book, packaging, Binder) and ``browser`` (real Chromium).
The ``slow`` marks and the oracles CI requires are set in the repository's root
``conftest.py``, which also sees the notebooks.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
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


@pytest.fixture
def named_pipe(tmp_path):
    """``named_pipe(name, data)``: a context manager giving a named pipe in ``tmp_path``
    that a thread writes ``data`` into (once a reader opens it). A reader that waits on
    it for 30 s fails (a pipe opened twice waits for ever), never hangs the suite."""

    @contextlib.contextmanager
    def make(name: str, data: bytes):
        def too_long(signum, frame):
            raise TimeoutError(f"{path} was not read within 30 s (opened twice?)")

        path = tmp_path / name
        os.mkfifo(path)
        writer = threading.Thread(target=path.write_bytes, args=(data,), daemon=True)
        writer.start()
        previous = signal.signal(signal.SIGALRM, too_long)
        signal.alarm(30)
        try:
            yield path
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
            if writer.is_alive():  # never opened: open it, so that the thread ends
                with open(path, "rb") as handle:
                    handle.read()
            writer.join(10)

    return make
