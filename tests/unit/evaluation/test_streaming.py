"""A run evaluated in parts of whole queries gives the numbers of the run in memory.

``read_trec_run_batches`` cuts a TREC file into parts of whole queries (small blocks
here, so that a run of a few hundred queries comes in dozens of parts, cut inside lines
and inside queries); ``evaluate_batches`` scores them one at a time. Every per-query
value, every mean and every coverage list must equal ``evaluate`` of the whole file, bit
for bit; errors name the file's own lines; a run whose queries come apart is refused by
name.
"""

from __future__ import annotations

import gzip
import warnings

import numpy as np
import pandas as pd
import pytest

from ragmetrics import FormatError, evaluate, read_trec_qrels, read_trec_run
from ragmetrics.errors import RagmetricsWarning
from ragmetrics.evaluation.streaming import NotGroupedError, evaluate_batches
from ragmetrics.io.batches import read_trec_run_batches

METRICS = ["recall@5", "precision@10", "mrr", "ndcg@10", "ndcg", "map", "r_precision"]


def write_case(folder, *, seed=0, n_queries=120, line_break="\n"):
    rng = np.random.default_rng(seed)
    run_lines, qrels_lines = [], []
    for q in range(n_queries):
        depth = int(rng.integers(1, 40))
        docs = rng.choice(500, depth, replace=False)
        scores = np.round(rng.random(depth) * 8) / 4  # ties
        order = np.argsort(-scores, kind="stable")
        if q % 7 != 3:  # some queries are not judged
            judged = rng.choice(500, 12, replace=False)
            qrels_lines += [f"{q} 0 d{d} {int(rng.integers(0, 3))}" for d in judged]
        if q % 11 == 5:
            continue  # judged, but missing from the run
        run_lines += [f"{q} Q0 d{docs[i]} {r + 1} {scores[i]:g} sys"
                      for r, i in enumerate(order)]
        if q % 13 == 0:
            run_lines.append("")  # blank lines count
    run, qrels = folder / "run.txt", folder / "qrels.txt"
    run.write_bytes(line_break.join(run_lines).encode() + b"\n")
    qrels.write_text("\n".join(qrels_lines) + "\n")
    return run, qrels


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        return function(*args, **kwargs)


def assert_same(streamed, whole):
    pd.testing.assert_frame_equal(streamed.per_query, whole.per_query, check_exact=True)
    pd.testing.assert_series_equal(streamed.summary, whole.summary, check_exact=True)
    assert streamed.queries_missing_from_run == whole.queries_missing_from_run
    assert streamed.queries_missing_from_qrels == whole.queries_missing_from_qrels
    assert streamed.queries_without_relevant == whole.queries_without_relevant
    assert streamed.conventions == whole.conventions


@pytest.mark.slow
@pytest.mark.parametrize("conventions", [
    {},
    {"ties": "pessimistic", "gain": "exponential", "missing_from_run": "skip"},
    {"empty_relevant": "skip", "relevance_level": 2, "ties": "input_order"},
])
@pytest.mark.parametrize("line_break", ["\n", "\r\n"])
def test_streamed_values_equal_the_values_in_memory(tmp_path, conventions, line_break):
    run_path, qrels_path = write_case(tmp_path, line_break=line_break)
    qrels = read_trec_qrels(qrels_path)
    whole = quietly(evaluate, read_trec_run(run_path), qrels, METRICS, **conventions)
    parts = [part.frame for part in read_trec_run_batches(run_path, block_bytes=2_000)]
    assert len(parts) > 20
    assert sum(map(len, parts)) == len(read_trec_run(run_path))
    streamed = quietly(evaluate_batches, parts, qrels, METRICS, **conventions)
    assert_same(streamed, whole)
    assert whole.queries_missing_from_run
    assert whole.queries_missing_from_qrels


def test_the_warnings_are_those_of_the_run_in_memory(tmp_path):
    run_path, qrels_path = write_case(tmp_path, seed=3)
    qrels = read_trec_qrels(qrels_path)
    with warnings.catch_warnings(record=True) as whole:
        warnings.simplefilter("always")
        evaluate(read_trec_run(run_path), qrels, METRICS)
    with warnings.catch_warnings(record=True) as streamed:
        warnings.simplefilter("always")
        evaluate_batches((p.frame for p in read_trec_run_batches(run_path, block_bytes=3_000)),
                         qrels, METRICS)
    whole_found = {(w.category, str(w.message)) for w in whole}
    streamed_found = {(w.category, str(w.message)) for w in streamed}
    assert {c for c, _ in whole_found} == {c for c, _ in streamed_found}
    coverage = {m for c, m in whole_found if c.__name__ == "CoverageWarning"}
    assert coverage == {m for c, m in streamed_found if c.__name__ == "CoverageWarning"}


def test_compressed_runs_stream_too(tmp_path):
    run_path, _ = write_case(tmp_path, seed=1)
    packed = tmp_path / "run.txt.gz"
    packed.write_bytes(gzip.compress(run_path.read_bytes()))
    parts = list(read_trec_run_batches(packed, block_bytes=1_500))
    assert len(parts) > 10
    assert parts[-1].bytes_read == parts[-1].total_bytes == packed.stat().st_size
    pd.testing.assert_frame_equal(pd.concat([p.frame for p in parts], ignore_index=True),
                                  read_trec_run(run_path))


def test_a_bad_line_in_a_later_part_is_named_as_in_memory(tmp_path):
    run_path, _ = write_case(tmp_path, seed=2)
    lines = run_path.read_text().splitlines()
    lines[len(lines) - 5] = lines[len(lines) - 5].replace(" sys", "")  # 5 fields
    run_path.write_text("\n".join(lines) + "\n")
    with pytest.raises(FormatError) as whole:
        read_trec_run(run_path)
    with pytest.raises(FormatError) as streamed:
        for _ in read_trec_run_batches(run_path, block_bytes=2_000):
            pass
    assert str(streamed.value) == str(whole.value)
    assert streamed.value.line == len(lines) - 4


def test_a_doc_listed_twice_is_named_with_both_lines(tmp_path):
    run_path = tmp_path / "run.txt"
    body = [f"q{q} Q0 d{d} {d} {50 - d} s" for q in range(30) for d in range(1, 20)]
    body.insert(500, body[498])  # query 26, doc 5 again, two lines down
    run_path.write_text("\n".join(body) + "\n")
    with pytest.raises(FormatError) as whole:
        read_trec_run(run_path, duplicates="error")
    with pytest.raises(FormatError) as streamed:
        list(read_trec_run_batches(run_path, block_bytes=700, duplicates="error"))
    assert str(streamed.value) == str(whole.value)
    assert "lines 499 and 501" in str(whole.value)


def test_a_run_whose_queries_come_apart_is_refused_by_name(tmp_path):
    run_path, qrels_path = write_case(tmp_path, seed=4)
    lines = run_path.read_text().splitlines()
    lines.append(lines[0])  # the first query again, at the end
    run_path.write_text("\n".join(lines) + "\n")
    parts = (p.frame for p in read_trec_run_batches(run_path, block_bytes=2_000))
    with pytest.raises(NotGroupedError, match="query '0' has rows in two parts"):
        quietly(evaluate_batches, parts, read_trec_qrels(qrels_path), METRICS)


def test_an_empty_run_file_is_refused_as_in_memory(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("\n\n")
    with pytest.raises(FormatError) as whole:
        read_trec_run(path)
    with pytest.raises(FormatError) as streamed:
        list(read_trec_run_batches(path))
    assert str(streamed.value) == str(whole.value)
