"""benchmarks/big.py: its files, its three paths from files to results, its streamed run
and its tables, on sizes small enough for the test suite."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import big


def test_every_path_reads_the_same_numbers_from_every_format(tmp_path):
    files = big.write_files(tmp_path, n_queries=300)
    assert files["rows"] == 300 * 99  # 1% of the judged queries missing from the run
    qrels = files["paths"]["qrels"]
    expected = big.ragmetrics_path(files["paths"]["TREC"], qrels)
    assert 0 < expected["ndcg@10"] < 1
    for fmt in ("TREC", "CSV", "Parquet"):
        run = files["paths"][fmt]
        assert big.ragmetrics_path(run, qrels) == pytest.approx(expected, abs=1e-12)
        assert big.pandas_path(run, qrels) == pytest.approx(expected, abs=1e-12)
    pytest.importorskip("pytrec_eval")
    for fmt in ("TREC", "CSV", "Parquet"):
        assert big.pytrec_eval_path(files["paths"][fmt], qrels) == {"queries": 297}


def test_the_streamed_run_gives_the_mrr_it_was_built_for():
    found = big.streamed(50_000)  # 50 queries of 1,000 docs, from a forked generator
    assert found["queries"] == 50
    assert found["mrr"] == pytest.approx(found["mrr_expected"], abs=1e-15)


@pytest.mark.slow
def test_a_small_big_run_renders_its_tables():
    found = big.run_big(rows=(3_000,), streamed_rows=20_000, memory_rows=(), dask_rows=0,
                        runs=0, log=lambda line: None)
    text = big.render_big(found)
    cells = found["file_to_result"]
    assert {(c["format"], c["path"]) for c in cells} >= {
        (fmt, "ragmetrics") for fmt in ("TREC", "CSV", "Parquet")}
    assert all(c["wall_s"] > 0 for c in cells if "skipped" not in c)
    assert f"| {cells[0]['rows']} | TREC | ragmetrics |" in text
    assert "Streamed: 20,000 rows" in text
    assert found["streamed"]["value"]["mrr"] == pytest.approx(
        found["streamed"]["value"]["mrr_expected"], abs=1e-15)
