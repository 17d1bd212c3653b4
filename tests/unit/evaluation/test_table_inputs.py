"""evaluate and compare take pyarrow Tables, Polars frames and pandas frames of Arrow
strings, and give the numbers of the same run as ``object`` ids; Dask DataFrames too.

The Arrow path hashes ids from their bytes (``ragmetrics.evaluation.arrow_ids``): the
tests below compare every value with the ``object`` path, on ties, repeats, unjudged and
missing queries, and with every id hashed to one value (all keys collide: the matches
must still be exact).
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from ragmetrics import compare, evaluate
from ragmetrics.errors import InputTypeError, InputValueError, RagmetricsWarning
from ragmetrics.evaluation import arrow_ids, joins

METRICS = ["recall@5", "precision@10", "mrr@10", "ndcg@10", "map", "r_precision"]


def random_case(seed=0, n_queries=60):
    rng = np.random.default_rng(seed)
    rows, judged = [], []
    for q in range(n_queries):
        depth = int(rng.integers(1, 30))
        docs = rng.choice(200, depth, replace=False)
        rows += [(f"q{q}", f"d{d:03d}" * int(rng.integers(1, 4)), float(np.round(s * 4) / 4))
                 for d, s in zip(docs, rng.random(depth), strict=True)]
        if q % 9 != 4:
            judged += [(f"q{q}", f"d{d:03d}" * int(rng.integers(1, 4)), int(g))
                       for d, g in zip(rng.choice(200, 15, replace=False),
                                       rng.integers(0, 3, 15), strict=True)]
    run = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"]).astype(
        {"query_id": object, "doc_id": object})
    qrels = pd.DataFrame(judged, columns=["query_id", "doc_id", "relevance"]).astype(
        {"query_id": object, "doc_id": object})
    qrels = qrels.drop_duplicates(["query_id", "doc_id"])
    run = run[run["query_id"] != "q7"]  # judged, missing from the run
    return run.reset_index(drop=True), qrels.reset_index(drop=True)


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)
        return function(*args, **kwargs)


def as_arrow_strings(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.astype({"query_id": pd.ArrowDtype(pa.string()),
                         "doc_id": pd.ArrowDtype(pa.large_string())})


SHAPES = {
    "pyarrow Table": lambda frame: pa.Table.from_pandas(frame, preserve_index=False),
    "RecordBatch": lambda frame: pa.RecordBatch.from_pandas(frame, preserve_index=False),
    "pandas str": lambda frame: frame.astype({"query_id": str, "doc_id": str}),
    "pandas ArrowDtype": as_arrow_strings,
}


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("ties", ["trec_eval", "optimistic", "input_order"])
def test_arrow_inputs_give_the_numbers_of_object_ids(shape, ties):
    run, qrels = random_case(1)
    expected = quietly(evaluate, run, qrels, METRICS, ties=ties)
    convert = SHAPES[shape]
    for run_in, qrels_in in [(convert(run), convert(qrels)), (convert(run), qrels),
                             (run, convert(qrels))]:
        found = quietly(evaluate, run_in, qrels_in, METRICS, ties=ties)
        pd.testing.assert_frame_equal(found.per_query, expected.per_query, check_exact=True)
        assert found.queries_missing_from_qrels == expected.queries_missing_from_qrels
        assert found.queries_missing_from_run == expected.queries_missing_from_run


def test_polars_frames_and_lazy_frames():
    pl = pytest.importorskip("polars", reason="polars is a test dependency: pip install polars")
    run, qrels = random_case(2)
    expected = quietly(evaluate, run, qrels, METRICS)
    run_pl = pl.from_pandas(run.astype({"query_id": str, "doc_id": str})).with_columns(
        pl.lit("ignored").alias("text"))
    qrels_pl = pl.from_pandas(qrels.astype({"query_id": str, "doc_id": str}))
    for run_in, qrels_in in [(run_pl, qrels_pl), (run_pl.lazy(), qrels_pl.lazy()),
                             (run_pl.with_columns(pl.col("doc_id").cast(pl.Categorical)),
                              qrels_pl)]:
        found = quietly(evaluate, run_in, qrels_in, METRICS)
        pd.testing.assert_frame_equal(found.per_query, expected.per_query, check_exact=True)
    both = quietly(compare, {"a": run_pl, "b": run_pl.lazy()}, qrels_pl, ["mrr@10"],
                   n_resamples=200)
    assert both.tests.loc[("mrr@10", "b"), "difference"] == 0


def test_a_missing_column_of_a_table_names_the_columns_it_has():
    table = pa.table({"query_id": ["q1"], "doc": ["a"], "score": [1.0]})
    with pytest.raises(InputValueError, match=r"no column 'doc_id' \(columns: 'query_id', "
                                              r"'doc', 'score'\)"):
        evaluate(table, {"q1": {"a"}})


def test_a_missing_id_in_a_table_is_named_with_its_row():
    table = pa.table({"query_id": ["q1", "q1"], "doc_id": ["a", None], "score": [2.0, 1.0]})
    with pytest.raises(InputValueError, match="missing id in row 1"):
        evaluate(table, {"q1": {"a"}})


def test_ids_of_two_kinds_are_refused_from_tables():
    table = pa.table({"query_id": ["q1"], "doc_id": [7], "score": [1.0]})
    with pytest.raises(InputTypeError, match="doc_id is int in the run but str"):
        evaluate(table, pa.table({"query_id": ["q1"], "doc_id": ["7"], "relevance": [1]}))


def test_arrow_ids_are_never_python_objects(monkeypatch):
    """The Arrow path turns no id column into Python objects (the object path would);
    only tied ids become text, to be ordered by the tie rule."""
    run, qrels = random_case(3)
    run, qrels = as_arrow_strings(run), as_arrow_strings(qrels)
    expected = quietly(evaluate, run, qrels, METRICS)

    def refuse(*args, **kwargs):
        raise AssertionError("an Arrow id column became Python objects")

    monkeypatch.setattr(joins, "_as_arrow_text", refuse)
    monkeypatch.setattr(arrow_ids.ArrowIdArray, "__array__", refuse)
    found = quietly(evaluate, run, qrels, METRICS)
    pd.testing.assert_frame_equal(found.per_query, expected.per_query, check_exact=True)


def test_colliding_byte_hashes_still_match_exactly(monkeypatch):
    run, qrels = random_case(4)
    expected = quietly(evaluate, run, qrels, METRICS)
    monkeypatch.setattr(arrow_ids, "text_hashes", lambda array: np.zeros(len(array), np.int64))
    found = quietly(evaluate, as_arrow_strings(run), as_arrow_strings(qrels), METRICS)
    pd.testing.assert_frame_equal(found.per_query, expected.per_query, check_exact=True)


def test_byte_hashes_tell_ids_that_share_a_prefix_or_bytes():
    ids = ["", "a", "a\x00", "ab", "abcdefgh", "abcdefgh\x00", "abcdefghi", "ßtraße",
           "d" * 40, "d" * 39 + "e", "é", "e\u0301"]
    hashes = arrow_ids.text_hashes(pa.array(ids * 2, pa.large_string()))
    assert len(set(hashes[: len(ids)].tolist())) == len(ids)
    assert (hashes[: len(ids)] == hashes[len(ids):]).all()
    sliced = pa.array(["x", *ids], pa.large_string()).slice(1)
    assert (arrow_ids.text_hashes(sliced) == hashes[: len(ids)]).all()


def test_byte_hashes_of_long_ids_tell_every_byte_and_place():
    # Past the 64 bytes chained word by word, the rest of an id is summed by place:
    # a byte changed, two words swapped, a byte more, or the same tail at another place
    # each make another hash; the same id twice (at any offset) makes the same one.
    base = "x" * 64 + "".join(chr(97 + i % 26) for i in range(200))
    swapped = base[:64] + base[72:80] + base[64:72] + base[80:]
    ids = [base, base[:-1] + "#", swapped, base + "a", base[:100], "y" + base[:-1],
           "x" * 65, "x" * 66, "x" * 72, "x" * 73, "x" * 64 + "\x00"]
    hashes = arrow_ids.text_hashes(pa.array(["short", *ids, *ids], pa.large_string()))[1:]
    assert len(set(hashes[: len(ids)].tolist())) == len(ids)
    assert (hashes[: len(ids)] == hashes[len(ids):]).all()


def test_hashing_time_grows_with_the_bytes_not_the_longest_id_times_the_rows():
    # One 4 MB id among 200,000 short ones: 0.5M words of work, not 200,000 x 0.5M
    # (a 1 MB id took 17-19 s in evaluate when each word position was a pass).
    ids = pa.array(["q" * 4_000_000, *(f"d{i}" for i in range(200_000))], pa.large_string())
    start = time.perf_counter()
    hashes = arrow_ids.text_hashes(ids)
    assert time.perf_counter() - start < 2.0
    assert len(set(hashes.tolist())) == len(ids)


@pytest.mark.parametrize("shape", [*SHAPES, "polars DataFrame", "polars LazyFrame"])
def test_compare_takes_every_table_and_gives_the_numbers_of_object_ids(shape):
    if shape.startswith("polars"):
        pl = pytest.importorskip("polars", reason="polars is a test dependency")

        def convert(frame):
            table = pl.from_pandas(frame.astype({"query_id": str, "doc_id": str}))
            return table.lazy() if shape.endswith("LazyFrame") else table
    else:
        convert = SHAPES[shape]
    run_a, qrels = random_case(5)
    run_b, _ = random_case(6)
    metrics = ["mrr@10", "ndcg@10", "recall@5"]
    expected = quietly(compare, {"a": run_a, "b": run_b}, qrels, metrics, n_resamples=300)
    found = quietly(compare, {"a": convert(run_a), "b": convert(run_b)}, convert(qrels),
                    metrics, n_resamples=300)
    for system in ("a", "b"):
        pd.testing.assert_frame_equal(found.per_query[system], expected.per_query[system],
                                      check_exact=True)
    pd.testing.assert_frame_equal(found.summary, expected.summary, check_exact=True)
    pd.testing.assert_frame_equal(found.tests, expected.tests, check_exact=True)
    assert found.warnings == expected.warnings
