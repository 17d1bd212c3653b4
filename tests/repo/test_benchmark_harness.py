"""The benchmark harness (benchmarks/): its data, its adapters and its tables.

Runs in the main .venv, which has pytrec_eval but not ranx or ir_measures: those adapters
are skipped here (``make bench`` runs them, in .venv-bench).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import data, peers, readers
from benchmarks import run as bench_run


@pytest.fixture(scope="module")
def small():
    return data.make_data("small", seed=3)


def test_same_seed_same_frames_other_seed_other_frames():
    run1, qrels1 = data.make_data("tiny", seed=7)
    run2, qrels2 = data.make_data("tiny", seed=7)
    pd.testing.assert_frame_equal(run1, run2)
    pd.testing.assert_frame_equal(qrels1, qrels2)
    run3, _ = data.make_data("tiny", seed=8)
    assert not run1.equals(run3)


def test_presets_have_the_promised_sizes():
    sizes = {name: (p.n_queries, p.depth) for name, p in data.PRESETS.items()}
    assert sizes["small"] == (1_000, 100)
    assert sizes["medium"] == (10_000, 1_000)
    assert sizes["large"] == (100_000, 100)


def test_small_has_the_promised_properties(small):
    run, qrels = small
    facts = data.describe(run, qrels)
    assert 4.5 <= facts["relevant_per_query"] <= 5.5  # about 5 relevant per query
    assert facts["min_relevant_per_query"] >= 1
    assert 0.1 <= facts["relevant_outside_run"] <= 0.3  # some relevant never retrieved
    assert facts["missing_from_run"] == 10  # 1% of the judged queries
    assert facts["judged_queries"] == 1_000
    assert facts["queries_with_tied_scores"] > 0.5
    assert facts["queries_with_tie_at_10"] > 0  # ties that change metrics@10
    assert facts["grades"] == [0, 1, 2, 3]
    assert len(run) == 990 * 100
    assert run["score"].dtype == np.float64
    assert qrels["relevance"].dtype == np.int64
    # Every score is exact in float32 (pytrec_eval reads them as 32-bit floats).
    assert (run["score"].astype(np.float32).astype(np.float64) == run["score"]).all()
    # No doc twice in one query's run, no judgment twice.
    assert not run.duplicated(["query_id", "doc_id"]).any()
    assert not qrels.duplicated(["query_id", "doc_id"]).any()


def test_ids_are_strings_never_numbers(small):
    run, qrels = small
    for frame in (run, qrels):
        assert frame["query_id"].dtype == object
        assert frame["doc_id"].dtype == object
        assert all(isinstance(v, str) for v in frame["doc_id"].iloc[:1000])
        assert frame["query_id"].str.match(r"^q\d+$").all()
        assert frame["doc_id"].str.match(r"^d\d{7}$").all()


def test_ties_only_when_asked_binary_when_asked():
    run, qrels = data.make_data("tiny", seed=1, ties=False, graded=False)
    facts = data.describe(run, qrels)
    assert facts["queries_with_tied_scores"] == 0
    assert facts["grades"] == [0, 1]
    tied, _ = data.make_data("tiny", seed=1, ties=True)
    assert data.describe(tied, qrels)["queries_with_tied_scores"] > 0
    heavy, _ = data.make_data("small", seed=1, tie_quantum=2**-6)
    assert data.describe(heavy, qrels)["queries_with_tie_at_10"] > 0.05
    with pytest.raises(ValueError, match="power of two"):
        data.make_data("tiny", tie_quantum=0.001)


def test_rank_order_and_shuffled_hold_the_same_rows():
    ranked, _ = data.make_data("tiny", seed=2)
    shuffled, _ = data.make_data("tiny", seed=2, order="shuffled")
    assert not ranked.equals(shuffled)
    key = ["query_id", "doc_id"]
    pd.testing.assert_frame_equal(ranked.sort_values(key, ignore_index=True),
                                  shuffled.sort_values(key, ignore_index=True))
    # Ranked: query by query (each query's rows together), best score first.
    first_rows = ranked.drop_duplicates("query_id").index
    assert (np.diff(first_rows) == data.PRESETS["tiny"].depth).all()
    assert (ranked.groupby("query_id", sort=False)["score"].diff().dropna() <= 0).all()


@pytest.mark.parametrize("id_dtype", ["str", "arrow"])
def test_id_dtypes(id_dtype):
    run, qrels = data.make_data("tiny", seed=4, id_dtype=id_dtype)
    plain, _ = data.make_data("tiny", seed=4)
    for frame in (run, qrels):
        assert frame["query_id"].dtype != object
        assert frame["doc_id"].dtype == frame["query_id"].dtype
    if id_dtype == "arrow":
        assert isinstance(run["doc_id"].dtype, pd.ArrowDtype)
    assert run["doc_id"].astype(object).tolist() == plain["doc_id"].tolist()


@pytest.mark.parametrize("id_dtype", data.MADE_ID_DTYPES)
def test_ids_as_users_make_them_hold_the_same_ids(id_dtype):
    run, qrels = data.make_data("tiny", seed=4, id_dtype=id_dtype)
    plain_run, plain_qrels = data.make_data("tiny", seed=4)
    for frame, plain in ((run, plain_run), (qrels, plain_qrels)):
        for column, prefix in (("query_id", "q"), ("doc_id", "d")):
            ids = frame[column]
            if id_dtype == "int":
                assert ids.dtype == np.int64
                assert ids.tolist() == [int(v[1:]) for v in plain[column]]
                continue
            assert ids.astype(object).tolist() == plain[column].tolist()
            assert all(v.startswith(prefix) for v in ids.astype(object))
    if id_dtype == "made":  # one str object a row, none shared
        ids = run["query_id"].to_numpy()
        assert ids.dtype == object
        assert len({id(v) for v in ids}) == len(ids)
    if id_dtype == "category":
        assert isinstance(run["doc_id"].dtype, pd.CategoricalDtype)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="order"):
        data.make_data("tiny", order="sorted")
    with pytest.raises(ValueError, match="id_dtype"):
        data.make_data("tiny", id_dtype="bytes")


def test_ragmetrics_and_pytrec_eval_adapters_agree_per_query():
    pytest.importorskip("pytrec_eval")
    run, qrels = data.make_data("tiny", seed=5, missing_queries=0.1)
    ours = peers.run_peer("ragmetrics", run, qrels)
    theirs = peers.run_peer("pytrec_eval", run, qrels)
    assert list(ours.per_query.columns) == peers.columns(10)
    assert list(theirs.per_query.columns) == peers.columns(10)
    # pytrec_eval leaves out the 4 judged queries missing from the run; ragmetrics scores
    # them 0 (trec_eval -c). On the others, the values agree.
    missing = ours.per_query.index.difference(theirs.per_query.index)
    assert len(missing) == 4
    assert (ours.per_query.loc[missing] == 0).all().all()
    common = ours.per_query.loc[theirs.per_query.index]
    np.testing.assert_allclose(common.to_numpy(), theirs.per_query.to_numpy(), rtol=0,
                               atol=1e-15)
    found = bench_run.compare(ours.per_query, theirs.per_query)
    assert found["only_in_ragmetrics"] == 4
    assert found["differing_queries"] == dict.fromkeys(peers.columns(10), 0)


def test_rr_at_k_from_pytrec_eval_counts_only_the_top_k():
    pytest.importorskip("pytrec_eval")
    run = pd.DataFrame({"query_id": ["q1"] * 12 + ["q2"] * 12,
                        "doc_id": [f"d{i:02d}" for i in range(12)] * 2,
                        "score": [float(12 - i) for i in range(12)] * 2})
    qrels = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["d09", "d10"],
                          "relevance": [1, 1]})
    found = peers.run_peer("pytrec_eval", run, qrels).per_query["mrr@10"]
    assert found.to_dict() == {"q1": 0.1, "q2": 0.0}  # rank 10 counts, rank 11 does not


@pytest.mark.parametrize("name", ["ranx", "ir_measures"])
def test_missing_peers_are_reported_not_fatal(name):
    if peers.available(name):
        pytest.skip(f"{name} is installed here")
    assert "not installed" in peers.install_note(name)
    assert peers.version(name) == "not installed"


def test_the_timing_table_has_the_expected_columns():
    cells = [
        {"size": "small", "library": "ragmetrics", "warm_s": 2.0, "warm_cpu_s": 1.0,
         "warm_calls": 3, "cold_s": 4.0, "import_s": 0.5, "setup_s": 0.1, "peak_mib": 100.0,
         "peak_cold_mib": 120.0},
        {"size": "small", "library": "pytrec_eval", "warm_s": 1.0, "warm_cpu_s": 2.0,
         "warm_calls": 1, "cold_s": 2.0, "import_s": 0.1, "setup_s": 0.0, "peak_mib": 300.0,
         "peak_cold_mib": 310.0},
    ]
    table = bench_run.markdown_table(bench_run.timing_rows(cells), bench_run.TIMING_COLUMNS)
    lines = table.splitlines()
    header = [h.strip() for h in lines[0].strip("|").split("|")]
    assert header == ["size", "library", "warm s (calls)", "warm x", "warm CPU s", "CPU x",
                      "cold s", "cold x", "import + setup s", "peak MiB", "memory x",
                      "peak MiB incl. import"]
    assert lines[1].count("---") == len(header)
    peer = [c.strip() for c in lines[3].strip("|").split("|")]
    assert peer[:8] == ["small", "pytrec_eval", "1 (1)", "0.5", "2", "2", "2", "0.5"]
    assert peer[9:11] == ["300", "3"]  # memory ratio: 300 / 100


def test_the_agreement_table_shows_differences_and_missing_queries():
    base = pd.DataFrame({"recall@10": [1.0, 0.5, 0.0]}, index=["q1", "q2", "q3"])
    other = pd.DataFrame({"recall@10": [1.0, 0.25]}, index=["q1", "q2"])
    found = bench_run.compare(base, other)
    assert found["only_in_ragmetrics"] == 1
    assert found["differing_queries"] == {"recall@10": 1}
    table = bench_run.markdown_table(bench_run.agreement_rows({"small": {"peer": found}}),
                                     [("library", "library"), ("missing", "missing"),
                                      ("recall@10", "recall@10")])
    assert "| peer | 1 | 0.25 (1 queries) |" in table


def test_the_single_query_rows_judge_only_the_array_core_against_the_target():
    single = {
        "binary (set of 5)": {
            "metric_curves": {"us_per_call_wall": 42.0, "us_per_call_cpu": 60.0},
            "metrics_over_k": {"us_per_call_wall": 71.0, "us_per_call_cpu": 73.0},
        },
        "graded (dict of 5)": {
            "metric_curves": {"us_per_call_wall": 1500.0, "us_per_call_cpu": 1200.0},
            "metrics_over_k": {"us_per_call_wall": 20.0, "us_per_call_cpu": 20.0},
        },
    }
    rows = bench_run.single_query_rows(single)
    assert [(r["case"][:6], r["function"], r["ok"]) for r in rows] == [
        ("binary", "metric_curves", "yes"),  # the lower of wall and CPU time is under the target
        ("binary", "metrics_over_k", None),  # the DataFrame wrapper has no target
        ("graded", "metric_curves", "NO"),
        ("graded", "metrics_over_k", None),
    ]
    assert rows[0]["wall"] == 42.0
    assert rows[0]["cpu"] == 60.0


def test_single_query_timing_covers_both_functions_and_both_golden_sets(monkeypatch):
    import timeit

    # One call per round instead of autorange's 0.2 s: the keys are checked, not the speed.
    monkeypatch.setattr(timeit.Timer, "autorange", lambda self: (1, 0.0))
    found = bench_run.time_single_query(seed=0)
    assert list(found) == ["binary (set of 5)", "graded (dict of 5)"]
    for by_function in found.values():
        assert list(by_function) == list(bench_run.SINGLE_QUERY_FUNCTIONS)
        for timing in by_function.values():
            assert set(timing) == {"us_per_call_wall", "us_per_call_cpu"}
            assert all(value > 0 for value in timing.values())


def test_variants_are_all_at_the_first_size_then_row_order_only():
    assert bench_run.variants_for(first=True) == list(bench_run.VARIANTS)
    assert bench_run.variants_for(first=False) == ["shuffled, object ids"]


def test_variant_frames_hold_the_main_rows_in_another_order_or_dtype():
    run, qrels = data.make_data("tiny", seed=3)
    frames = bench_run.variant_frames(run, qrels, list(bench_run.VARIANTS), seed=3)
    shuffled, _ = frames["shuffled, object ids"]
    # The shuffle make_data applies, so the frame is the one it would draw.
    pd.testing.assert_frame_equal(shuffled, data.make_data("tiny", seed=3, order="shuffled")[0])
    str_run, str_qrels = frames["ranked, str ids"]
    assert str_run["doc_id"].dtype == "str"
    assert str_qrels["query_id"].dtype == "str"
    arrow_run, _ = frames["ranked, Arrow ids"]
    assert isinstance(arrow_run["query_id"].dtype, pd.ArrowDtype)
    assert arrow_run["doc_id"].astype(object).tolist() == run["doc_id"].tolist()


def test_variant_rows_give_each_library_its_ratio_to_ragmetrics_per_variant():
    def found(wall, cpu, same=True):
        return {"best_s": wall, "best_cpu_s": cpu, "same_means": same}

    by_library = {
        "ragmetrics": {"ranked": found(0.5, 0.4), "shuffled": found(2.0, 2.0)},
        "pytrec_eval": {"ranked": found(5.0, 4.8), "shuffled": found(7.0, 6.0, same=False)},
    }
    rows = bench_run.variant_rows(by_library)
    assert rows[0] == {"library": "ragmetrics", "ranked": "0.5 s", "shuffled": "2 s"}
    assert rows[1] == {"library": "pytrec_eval", "ranked": "5 s (10.0x wall, 12.0x CPU)",
                       "shuffled": "7 s (3.5x wall, 3.0x CPU) means differ"}


def test_time_variants_times_every_frame_and_compares_means():
    run, qrels = data.make_data("tiny", seed=1)
    main = peers.run_peer("ragmetrics", run, qrels, bench_run.K).means
    frames = {"as built": (run, qrels), "shuffled": (run.sample(frac=1, random_state=0), qrels),
              "other data": data.make_data("tiny", seed=2)}
    found = bench_run.time_variants("ragmetrics", frames, repeat=2, budget=60, seed=0,
                                    means=main)
    assert list(found) == ["as built", "shuffled", "other data"]
    for timing in found.values():
        assert len(timing["all_s"]) == 2
        assert timing["best_s"] == min(timing["all_s"])
    # trec_eval's tie rule does not depend on row order; other data has other means.
    assert [t["same_means"] for t in found.values()] == [True, True, False]


def test_the_file_to_frame_files_hold_one_run_in_every_format(tmp_path):
    from ragmetrics import read_results, read_trec_qrels, read_trec_run

    paths = readers.write_files(tmp_path, n_queries=30, depth=7, seed=3)
    assert list(paths) == list(readers.FORMATS)
    run, _ = data.make_data(data.Preset("readers", 30, 7), seed=3, missing_queries=0)
    trec = read_trec_run(paths["TREC run"])
    assert trec["doc_id"].tolist() == run["doc_id"].tolist()
    assert trec["score"].tolist() == run["score"].tolist()  # exact, as written
    assert trec["rank"].tolist() == [r for _ in range(30) for r in range(1, 8)]
    expected = trec[["query_id", "doc_id", "rank", "score"]]
    for name in ("CSV long", "JSONL long", "Parquet"):
        pd.testing.assert_frame_equal(read_results(paths[name]), expected, obj=name)
    qrels = read_trec_qrels(paths["TREC qrels"])
    assert qrels[["query_id", "doc_id"]].equals(expected[["query_id", "doc_id"]])
    assert set(qrels["relevance"]) <= {0, 1, 2, 3}


@pytest.mark.slow
def test_the_file_to_frame_table_reads_each_cell_in_a_fresh_process(tmp_path):
    readers.write_files(tmp_path, n_queries=20, depth=5)
    found = readers.measure_readers(tmp_path, repeat=1, log=lambda line: None)
    cells = {(c["format"], c["reader"]): c for c in found["cells"]}
    assert len(cells) == len(readers.FORMATS) * len(readers.READERS)
    for (fmt, name), cell in cells.items():
        assert cell["rows"] == 100, (fmt, name)
        assert cell["wall_s"] > 0
        assert cell["peak_mib"] >= 0
        if name == "ragmetrics":
            assert cell["dtypes"]["doc_id"] == str(pd.Series([], dtype=str).dtype)
    found["queries"], found["depth"] = 20, 5
    rows = readers.reader_rows(found)
    assert [row["format"] for row in rows] == list(readers.FORMATS)
    ours, theirs = cells[("CSV long", "ragmetrics")], cells[("CSV long", "pandas")]
    assert rows[2]["ratio"] == pytest.approx(ours["wall_s"] / theirs["wall_s"])
    table = readers.render_readers(found).splitlines()
    header = [h.strip() for h in table[0].strip("|").split("|")]
    assert header == ["file", "MiB", "rows", "ragmetrics s", "pandas s", "x pandas",
                      "ragmetrics peak MiB", "pandas peak MiB", "memory x pandas"]
    report = {"cells": [], "agreement": {}, "readers": found, "seed": 0}
    assert "## File to frame: 100-row files (20 queries x 5 docs)" in bench_run.render(report)


def test_the_30_measure_case_asks_both_libraries_for_the_same_30_and_they_agree():
    from benchmarks import many_measures

    assert len(many_measures.MEASURES) == 30
    run, qrels = data.make_data("tiny", seed=5)
    found = bench_run.time_many_measures("tiny", 5, {}, ["ragmetrics", "pytrec_eval"])
    assert found["rows"] == len(run)
    assert found["agreement"]["queries"] > 0
    assert max(found["agreement"]["max_abs"].values()) <= 1e-12
    lines = many_measures.render(found)
    assert any(line.startswith("| pytrec_eval |") for line in lines)
    assert len(qrels)


@pytest.mark.slow
def test_bring_your_own_data_times_all_three_doors_and_renders_them(monkeypatch):
    # make bench's "bring your own data" section on small sizes: every door measured,
    # the ratios computed from the times, the report names each target.
    from benchmarks import bring_your_own, retriever_runs, run_layouts

    def small_retriever(argv):
        return real_retriever(["--queries", "200", "--cached", "1000", "--repeat", "1"])

    def small_layouts(argv):
        return real_layouts(["--queries", "20", "--depth", "50", "--spans", "20",
                             "--documents", "10", "--repeat", "1"])

    real_retriever, real_layouts = retriever_runs.main, run_layouts.main
    monkeypatch.setattr(retriever_runs, "main", small_retriever)
    monkeypatch.setattr(run_layouts, "main", small_layouts)
    found = bring_your_own.run_bring(docs=500, log=lambda *a: None)
    data, ret = found["dataset"], found["retriever"]
    assert (data["docs"], data["queries"]) == (500, 100)
    assert data["ratio"] == data["seconds"]["ragmetrics"] / data["seconds"]["pandas"]
    assert (ret["queries"], ret["cached_queries"], ret["floor"]) == (200, 1000, 200 * 0.001 / 8)
    assert ret["called (threads)"] >= ret["floor"]  # the retriever sleeps 1 ms a call
    assert set(found["layouts"]["sizes"]) == {"beir", "openinference"}
    text = bring_your_own.render_bring(found)
    assert f"ratio {data['ratio']:.2f} (target <= 1)" in text
    assert "target 1.3x" in text
    assert "(target < 2 s)" in text
    assert "| openinference | ragmetrics |" in text


def test_the_diversity_section_times_every_case_and_renders_its_ratio():
    # make bench's diversity section on a small size: each case timed, its ratio to
    # nDCG@20 printed beside it, the target named; the synthetic run is the one promised.
    from benchmarks import diversity

    found = diversity.run_diversity(queries=30, docs=20, subtopics=3, repeat=1,
                                    log=lambda *a: None)
    assert (found["run_rows"], found["queries"]) == (30 * 20, 30)
    assert len(found["seconds"]) == 6
    assert all(v > 0 for v in found["seconds"].values())
    text = diversity.render_diversity(found)
    assert "Target: within 3x of nDCG@20." in text
    for name, value in found["seconds"].items():
        assert f"| {name} | {value:.3f} | {value / found['ndcg']:.2f} |" in text


def test_the_shapes_time_every_row_order_and_the_made_ids_and_agree():
    from benchmarks import shapes

    found = shapes.time_shapes(order_sizes=["tiny"], made_size="tiny",
                               names=["ragmetrics", "pytrec_eval"], repeat=1, seed=0,
                               data_options={}, in_child=bench_run.in_child,
                               log=lambda *a: None)
    timings = found["orders"]["tiny"]["timings"]
    assert list(timings) == list(shapes.ORDERS)
    assert all(v["same_values"] for v in timings.values())  # the order changes no value
    made = found["made"]
    assert set(made["libraries"]) == {"ragmetrics", "pytrec_eval"}
    assert made["max_abs_diff"] < 1e-12
    text = "\n".join(shapes.render_shapes(found))
    assert "| model order |" in text
    assert "x ragmetrics (wall)" in text


def test_model_order_keeps_each_querys_rows_together_in_another_order():
    from benchmarks import shapes

    run, _ = data.make_data("tiny", seed=3)
    moved = shapes.model_order(run, 0)
    assert moved["query_id"].tolist() == run["query_id"].tolist()  # blocks in place
    assert not moved.equals(run)
    key = ["query_id", "doc_id"]
    pd.testing.assert_frame_equal(moved.sort_values(key, ignore_index=True),
                                  run.sort_values(key, ignore_index=True))
