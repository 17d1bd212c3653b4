"""The engine's fast paths give the numbers of its plain path, whatever the input looks like.

:func:`ragmetrics.evaluate` takes shortcuts (``ragmetrics._ranking``, ``ragmetrics._join``):
it reads each query only down to the deepest cut-off, skips the sort when the run is ranked
already, finds candidates for the top k with a packed sort of score bins when it is not, and
matches doc ids through hashes. ``tests/unit/evaluation/test_evaluate.py`` checks the plain path (every row
read) against the per-query functions; here every shortcut is checked against

- a reference written out in plain Python (the ranked rows), or
- the plain path itself: the same call with an uncut metric added reads every row.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics import (
    RagmetricsWarning,
    evaluate,
    parse_metric,
)
from ragmetrics.evaluation import engine, fast_paths, ranking
from ragmetrics.evaluation.joins import Ids, doc_ids
from ragmetrics.evaluation.objects import distinct_objects
from ragmetrics.evaluation.ranking import _bins, _group_equal, rank_rows

CUT_METRICS = ["recall@3", "precision@2", "hit_rate@1", "mrr@3", "ndcg@3", "map@2"]
TIES = ("trec_eval", "input_order", "optimistic", "pessimistic")

# Scores with many ties, signed zeros, infinities and extremes (the score bins must cope).
ODD_SCORES = [0.0, -0.0, 1.0, 1.0 + 2**-52, -1.0, 0.5, np.inf, -np.inf, 1e308, -1e308, 5e-324]


# ---------------------------------------------------------------------------------------------
# Ranked rows: rank_rows against a plain-Python reference
# ---------------------------------------------------------------------------------------------


def reference_ranked_rows(queries: list, scores: list, depth: int | None):
    """Blocks in order of first appearance; rows by score descending, then row order; the
    top ``depth`` of each, and every row tied in score with the last of them."""
    rows_of = {}
    for i, q in enumerate(queries):
        rows_of.setdefault(q, []).append(i)
    rows, blocks = [], []
    for block, query in enumerate(rows_of):
        mine = sorted(rows_of[query], key=lambda i: -scores[i])
        if depth is not None and len(mine) > depth:
            boundary = scores[mine[depth - 1]]
            mine = mine[:depth] + [i for i in mine[depth:] if scores[i] == boundary]
        rows += mine
        blocks += [block] * len(mine)
    return rows, blocks


@st.composite
def run_columns(draw):
    n_queries = draw(st.integers(1, 6))
    sizes = draw(st.lists(st.integers(1, 12), min_size=n_queries, max_size=n_queries))
    queries = [f"q{q}" for q, size in enumerate(sizes) for _ in range(size)]
    score = st.sampled_from(ODD_SCORES) | st.floats(-1e3, 1e3, allow_nan=False)
    scores = draw(st.lists(score, min_size=len(queries), max_size=len(queries)))
    layout = draw(st.sampled_from(["ranked", "grouped", "interleaved"]))
    order = list(range(len(queries)))
    if layout == "ranked":  # query blocks, each best first
        order.sort(key=lambda i: (queries[i], -scores[i]))
    elif layout == "interleaved":
        order = draw(st.permutations(order))
    return [queries[i] for i in order], [scores[i] for i in order]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(columns=run_columns(), depth=st.sampled_from([None, 1, 2, 3, 5]),
       shared=st.booleans())
def test_ranked_rows_equal_the_plain_python_reference(columns, depth, shared):
    """``shared``: equal ids are one object (as pandas' CSV reader gives), else each row
    holds its own str object (equal values at different addresses)."""
    queries, scores = columns
    one_object = {}
    ids = [one_object.setdefault(q, q) if shared else "".join(list(q)) for q in queries]
    assert shared or len({id(q) for q in ids}) == len(ids)
    ranked = rank_rows(pd.Series(ids, dtype=object), np.array(scores), depth)
    rows, blocks = reference_ranked_rows(queries, scores, depth)
    assert ranked.rows.tolist() == rows
    assert ranked.block.tolist() == blocks
    np.testing.assert_array_equal(ranked.score, np.array(scores)[rows])
    assert [queries[h] for h in ranked.heads] == list(dict.fromkeys(queries))


@pytest.mark.parametrize("layout", ["one row a query, shuffled", "singles, then blocks",
                                    "blocks, then interleaved"])
def test_runs_longer_than_the_layout_sample_are_ranked_right(layout):
    """rank_rows looks at the first 10,000 rows to guess the layout; the guess only
    chooses the path, never the answer."""
    rng = np.random.default_rng(7)
    if layout == "one row a query, shuffled":
        queries = [f"q{i}" for i in rng.permutation(30_000)]
    elif layout == "singles, then blocks":
        queries = [f"s{i}" for i in range(12_000)] + [f"b{i // 50}" for i in range(20_000)]
    else:
        queries = [f"b{i // 50}" for i in range(20_000)] + [f"i{i % 300}" for i in range(5_000)]
    scores = rng.integers(0, 20, len(queries)) / 4
    for depth in (None, 3):
        ranked = rank_rows(pd.Series(queries, dtype=object), scores, depth)
        rows, blocks = reference_ranked_rows(queries, list(scores), depth)
        assert ranked.rows.tolist() == rows
        assert ranked.block.tolist() == blocks


@pytest.mark.parametrize("layout", ["interleaved", "grouped"])
def test_long_unranked_runs_are_sorted_by_packed_keys_right(layout):
    """Past 2**16 rows the sort by (query, score) packs the query, the place of the score
    among the distinct scores and the position into one int64: the order stays the stable
    lexsort's, signed zeros and infinities included."""
    rng = np.random.default_rng(11)
    n = 70_000
    queries = [f"q{i}" for i in rng.integers(0, 700, n)]
    if layout == "grouped":
        queries.sort()
    scores = np.where(rng.random(n) < 0.3, rng.choice(ODD_SCORES, n),
                      rng.integers(0, 50, n) / 8)
    for depth in (None, 3):
        ranked = rank_rows(pd.Series(queries, dtype=object), scores, depth)
        rows, blocks = reference_ranked_rows(queries, list(scores), depth)
        assert ranked.rows.tolist() == rows
        assert ranked.block.tolist() == blocks



@pytest.mark.slow
@pytest.mark.parametrize("sizes", ["equal", "ragged"])
def test_blocks_in_model_order_are_cut_by_a_partition_and_sorted_as_a_matrix(sizes):
    """A run grouped by query but in no order within a query (a score matrix flattened, a
    reranker's output): each block's top rows are found by a partition of the blocks laid
    out as a matrix (padded with -inf when they differ in length), and past 2**16
    candidates sorted as the rows of a matrix. The order stays the stable lexsort's, with
    signed zeros, infinities and ties across the cut-off."""
    rng = np.random.default_rng(5)
    n_queries = 24_000
    lengths = (np.full(n_queries, 6) if sizes == "equal" else
               rng.integers(2, 9, n_queries))
    queries = [f"q{i}" for i in np.repeat(np.arange(n_queries), lengths)]
    n = len(queries)
    tied = np.where(rng.random(n) < 0.1, rng.choice(ODD_SCORES, n),
                    rng.integers(0, 100, n) / 4)
    distinct = rng.permutation(n) / 7  # no ties: as many candidates in every block
    for scores, depth in [(tied, None), (tied, 1), (tied, 3), (tied, 5),
                          (distinct, 3), (distinct, 5)]:
        ranked = rank_rows(pd.Series(queries, dtype=object), scores, depth)
        rows, blocks = reference_ranked_rows(queries, list(scores), depth)
        assert ranked.rows.tolist() == rows
        assert ranked.block.tolist() == blocks
        with fast_paths.plain_paths():
            plain = rank_rows(pd.Series(queries, dtype=object), scores, depth)
        assert ranked.heads.tolist() == plain.heads.tolist()

def test_candidates_survive_a_score_scale_that_crowds_every_row_into_one_bin():
    """One huge score makes the bins too coarse to tell the others apart: slower, not wrong."""
    queries = ["q1"] * 6 + ["q2"] * 6
    scores = [1e300, 0.3, 0.1, 0.2, 0.6, 0.5, 0.4, 0.9, 0.8, 0.7, 0.2, 0.1]
    shuffled = np.random.default_rng(0).permutation(len(queries))
    ranked = rank_rows(pd.Series(np.array(queries, dtype=object)[shuffled]),
                       np.array(scores)[shuffled], 2)
    expected, _ = reference_ranked_rows([queries[i] for i in shuffled],
                                        [scores[i] for i in shuffled], 2)
    assert ranked.rows.tolist() == expected


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(scores=st.lists(st.sampled_from(ODD_SCORES) | st.floats(allow_nan=False), min_size=1,
                       max_size=50), bits=st.integers(1, 16))
def test_score_bins_never_put_a_higher_score_in_a_lower_ranked_bin(scores, bits):
    """The candidate search is exact only if bins are non-increasing in the score."""
    score = np.array(scores)
    bins = _bins(score, bits)
    if bins is None:  # no usable scale: every row is a candidate
        return
    order = np.argsort(score, kind="stable")
    assert (np.diff(bins[order]) <= 0).all()
    assert bins.min() >= 0
    assert bins.max() < 2**bits


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.sampled_from([0, 1, 7, 2**40, 2**62 - 1, -5]), min_size=1,
                     max_size=40))
def test_grouping_keys_by_one_sort_matches_a_dict(keys):
    """Both branches: packed keys when (key range, row) fit in 63 bits, else an argsort."""
    group, first_rows = _group_equal(np.array(keys, dtype=np.int64))
    first_seen = {}
    for row, key in enumerate(keys):
        first_seen.setdefault(key, row)
    assert sorted(first_rows.tolist()) == sorted(first_seen.values())
    for row, key in enumerate(keys):  # same key, same group; the group's first row
        assert first_rows[group[row]] == first_seen[key]


# ---------------------------------------------------------------------------------------------
# evaluate: the rows read down to a cut-off give what reading every row gives
# ---------------------------------------------------------------------------------------------


def random_case(seed: int, *, n_queries=40, duplicates=False):
    """A run (tied scores, varied depths, some unjudged queries) and graded qrels."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(n_queries):
        depth = int(rng.integers(0, 15))
        docs = rng.choice(40, size=depth, replace=duplicates)
        scores = rng.integers(0, 6, size=depth) / 4  # few distinct scores: many ties
        run += [(f"q{q}", f"d{d}", s) for d, s in zip(docs, scores, strict=True)]
        if q % 7:  # every 7th query unjudged
            judged = rng.choice(40, size=int(rng.integers(1, 8)), replace=False)
            qrels += [(f"q{q}", f"d{d}", int(rng.integers(-1, 4))) for d in judged]
    qrels += [("q_missing", "d1", 1)]  # judged, absent from the run
    run = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    qrels = pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"])
    return run, qrels


def arrange(run: pd.DataFrame, layout: str, seed: int) -> pd.DataFrame:
    if layout == "ranked":
        run = run.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
    elif layout == "interleaved":
        run = run.iloc[np.random.default_rng(seed).permutation(len(run))]
    return run.reset_index(drop=True)


def with_ids(frame: pd.DataFrame, kind: str) -> pd.DataFrame:
    if kind == "int":
        return frame.assign(query_id=frame["query_id"].str[1:].replace("_missing", "999"),
                            doc_id=frame["doc_id"].str[1:]).astype({"query_id": np.int64,
                                                                    "doc_id": np.int64})
    dtype = {"object": object, "str": "str", "arrow": "string[pyarrow]",
             "arrow_dtype": pd.ArrowDtype(pa.large_string())}[kind]
    return frame.astype({"query_id": dtype, "doc_id": dtype})


def quietly(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagmetricsWarning)  # coverage, empty golden sets
        return evaluate(*args, **kwargs)


def cut_and_full(run, qrels, **conventions):
    """(metrics read to the cut-off, the same metrics with every row read)."""
    cut = quietly(run, qrels, CUT_METRICS, **conventions).per_query
    full = quietly(run, qrels, [*CUT_METRICS, "map"], **conventions).per_query[CUT_METRICS]
    return cut, full


@pytest.mark.slow
@pytest.mark.parametrize("ids", ["object", "str", "arrow", "arrow_dtype", "int"])
@pytest.mark.parametrize("layout", ["ranked", "grouped", "interleaved"])
@pytest.mark.parametrize("ties", TIES)
def test_reading_to_the_cut_off_equals_reading_every_row(ties, layout, ids):
    for seed in range(3):
        run, qrels = random_case(seed)
        run, qrels = with_ids(arrange(run, layout, seed), ids), with_ids(qrels, ids)
        cut, full = cut_and_full(run, qrels, ties=ties)
        pd.testing.assert_frame_equal(cut, full, check_exact=True)
        # ... and every layout gives the same numbers as rows in rank order.
        ranked = quietly(with_ids(arrange(random_case(seed)[0], "ranked", seed), ids), qrels,
                         CUT_METRICS, ties=ties).per_query
        if ties != "input_order":  # input order differs between layouts by design
            pd.testing.assert_frame_equal(cut, ranked, check_exact=True)


@pytest.mark.parametrize("layout", ["ranked", "grouped", "interleaved"])
def test_keep_first_reads_deeper_when_a_dropped_copy_moves_rows_up(layout):
    for seed in range(4):
        run, qrels = random_case(seed, duplicates=True)
        assert run.duplicated(["query_id", "doc_id"]).any()
        run = arrange(run, layout, seed)
        cut, full = cut_and_full(run, qrels, duplicates="keep_first")
        pd.testing.assert_frame_equal(cut, full, check_exact=True)


def test_a_run_of_one_row_per_query_and_an_empty_run():
    qrels = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["a", "b"], "relevance": [1, 1]})
    one_each = pd.DataFrame({"query_id": ["q2", "q1"], "doc_id": ["b", "x"], "score": [1, 2]})
    values = quietly(one_each, qrels, ["recall@1", "mrr@5"]).per_query
    assert values.to_dict("index") == {"q1": {"recall@1": 0.0, "mrr@5": 0.0},
                                       "q2": {"recall@1": 1.0, "mrr@5": 1.0}}
    empty = one_each.iloc[:0]
    assert quietly(empty, qrels, ["recall@1"]).summary["recall@1"] == 0.0


# ---------------------------------------------------------------------------------------------
# Hash collisions: every match is verified, and a collision means exact codes
# ---------------------------------------------------------------------------------------------


def colliding_doc_ids(column: pd.Series, what: str, rows=None, against=None) -> Ids:
    """The real ids, but every one hashes to 7: all keys of a query collide."""
    ids = doc_ids(column, what, rows)
    return Ids(ids.values, np.full(len(ids.values), 7, dtype=np.int64), ids.kind)


@pytest.fixture
def colliding_hashes(monkeypatch):
    monkeypatch.setattr(engine, "doc_ids", colliding_doc_ids)


@pytest.mark.parametrize("layout", ["ranked", "interleaved"])
def test_hash_collisions_give_the_same_numbers(layout):
    run, qrels = random_case(5)
    run = arrange(run, layout, 5)
    plain = quietly(run, qrels, [*CUT_METRICS, "map"]).per_query
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "doc_ids", colliding_doc_ids)
        collided = quietly(run, qrels, [*CUT_METRICS, "map"]).per_query
    pd.testing.assert_frame_equal(collided, plain, check_exact=True)


def test_hash_collisions_do_not_hide_or_invent_repeats(colliding_hashes):
    qrels = {"q1": {"a": 1, "b": 1}}
    distinct = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["a", "b", "c"],
                             "score": [3, 2, 1]})
    assert quietly(distinct, qrels, ["recall@3"]).per_query.loc["q1", "recall@3"] == 1.0
    repeated = distinct.assign(doc_id=["a", "b", "a"])
    with pytest.raises(ValueError, match=r"doc id 'a' appears more than once .* query 'q1'"):
        quietly(repeated, qrels, ["recall@3"])
    judged_twice = pd.DataFrame({"query_id": ["q1"] * 3, "doc_id": ["a", "b", "a"],
                                 "relevance": [1, 1, 2]})
    with pytest.raises(ValueError, match=r"qrels judge doc 'a' more than once for query 'q1'"):
        quietly(distinct, judged_twice, ["recall@3"])


# ---------------------------------------------------------------------------------------------
# Query ids are checked in every row, on every path
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["ranked", "interleaved"])
@pytest.mark.parametrize("missing", [None, np.nan])
def test_a_missing_query_id_is_named_by_its_row(layout, missing):
    queries = ["q1", "q1", "q2", "q2"] if layout == "ranked" else ["q1", "q2", "q1", "q2"]
    queries[3] = missing
    run = pd.DataFrame({"query_id": queries, "doc_id": list("abcd"), "score": [4, 3, 2, 1]},
                       dtype=object).astype({"score": float})
    with pytest.raises(ValueError, match=r"run column 'query_id' has a missing id in row 3"):
        evaluate(run, {"q1": {"a"}}, ["recall@1"])


def test_a_missing_arrow_query_id_is_named_by_its_row():
    run = pd.DataFrame({"query_id": pd.array(["q1", "q1", None], dtype="string[pyarrow]"),
                        "doc_id": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    with pytest.raises(ValueError, match=r"run column 'query_id' has a missing id in row 2"):
        evaluate(run, {"q1": {"a"}}, ["recall@1"])


@pytest.mark.slow
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), ties=st.sampled_from(TIES),
       layout=st.sampled_from(["ranked", "grouped", "interleaved"]))
def test_random_runs_read_to_the_cut_off_equal_every_row_read(seed, ties, layout):
    run, qrels = random_case(seed, n_queries=12)
    cut, full = cut_and_full(arrange(run, layout, seed), qrels, ties=ties)
    pd.testing.assert_frame_equal(cut, full, check_exact=True)


# ---------------------------------------------------------------------------------------------
# The fast path against the per-query functions, directly
# ---------------------------------------------------------------------------------------------


def per_query_oracle(run: pd.DataFrame, qrels: pd.DataFrame) -> pd.DataFrame:
    """CUT_METRICS per judged query from ragmetrics.metrics, on rankings built here with
    trec_eval's rule (score descending, then doc id descending as strings)."""
    specs = [parse_metric(name) for name in CUT_METRICS]  # "mrr" is rr, "map" is ap
    rows = {}
    for query, judged in qrels.groupby("query_id", sort=False):
        grades = dict(zip(judged["doc_id"], judged["relevance"].astype(float), strict=True))
        mine = run[run["query_id"] == query]
        ranked = sorted(zip(mine["doc_id"], mine["score"], strict=True), key=lambda r: r[0],
                        reverse=True)
        ranking = [doc for doc, _ in sorted(ranked, key=lambda r: -r[1])]
        rows[query] = [spec.info.score_one(ranking, grades, spec.k) for spec in specs]
    return pd.DataFrame.from_dict(rows, orient="index", columns=CUT_METRICS)


@pytest.mark.parametrize("layout", ["ranked", "grouped", "interleaved"])
def test_the_fast_path_equals_the_per_query_functions(layout):
    """Ties, judged queries missing from the run, unjudged queries, -1 and 0 grades."""
    for seed in range(3):
        run, qrels = random_case(seed)
        got = quietly(arrange(run, layout, seed), qrels, CUT_METRICS).per_query
        expected = per_query_oracle(run, qrels)
        np.testing.assert_allclose(got.loc[expected.index].to_numpy(), expected.to_numpy(),
                                   rtol=0, atol=1e-12)
        assert set(got.index) == set(expected.index)


@pytest.mark.parametrize("layout", ["ranked", "grouped", "interleaved"])
def test_a_repeat_within_the_cut_off_is_refused_on_every_path(layout):
    run, qrels = random_case(0)
    first_query = "q1"  # judged (random_case leaves every 7th query, q0 among them, unjudged)
    top = run[run["query_id"] == first_query].sort_values("score", ascending=False)
    repeat = top.iloc[[0]].assign(score=top["score"].iloc[0])  # the best doc, again
    run = pd.concat([run, repeat], ignore_index=True)
    doc = repeat["doc_id"].iloc[0]
    with pytest.raises(ValueError, match=f"doc id '{doc}' appears more than once .* query "
                                         f"'{first_query}'"):
        quietly(arrange(run, layout, 0), qrels, CUT_METRICS)


# ---------------------------------------------------------------------------------------------
# The one switch: every shortcut off gives the same numbers, exactly
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(columns=run_columns(), depth=st.sampled_from([None, 1, 2, 3, 5]),
       shared=st.booleans())
def test_rank_rows_fast_and_plain_give_the_same_rows(columns, depth, shared):
    queries, scores = columns
    one_object = {}
    ids = pd.Series([one_object.setdefault(q, q) if shared else "".join(list(q))
                     for q in queries], dtype=object)
    fast = rank_rows(ids, np.array(scores), depth)
    with fast_paths.plain_paths():
        plain = rank_rows(ids, np.array(scores), depth)
    assert fast.rows.tolist() == plain.rows.tolist()
    assert fast.block.tolist() == plain.block.tolist()
    assert fast.heads.tolist() == plain.heads.tolist()


@pytest.mark.parametrize("ids", ["object", "str", "arrow", "int"])
@pytest.mark.parametrize("layout", ["ranked", "grouped", "interleaved"])
@pytest.mark.parametrize("ties", TIES)
def test_evaluate_with_every_shortcut_off_gives_the_same_numbers(ties, layout, ids):
    metrics = [*CUT_METRICS, "map", "r_precision", "ndcg"]
    for seed in range(3):
        run, qrels = random_case(seed)
        run, qrels = with_ids(arrange(run, layout, seed), ids), with_ids(qrels, ids)
        fast = quietly(run, qrels, metrics, ties=ties)
        with fast_paths.plain_paths():
            assert not fast_paths.ENABLED
            plain = quietly(run, qrels, metrics, ties=ties)
        assert fast_paths.ENABLED
        pd.testing.assert_frame_equal(fast.per_query, plain.per_query, check_exact=True)
        assert fast.queries_missing_from_qrels == plain.queries_missing_from_qrels


def test_without_object_addresses_the_values_decide(monkeypatch):
    # The ctypes read of object addresses has a fallback: compare the values themselves.
    run, qrels = random_case(1)
    run = arrange(run, "grouped", 1)
    expected = quietly(run, qrels, CUT_METRICS).per_query
    monkeypatch.setattr(ranking, "_addresses", lambda values: None)
    pd.testing.assert_frame_equal(quietly(run, qrels, CUT_METRICS).per_query, expected,
                                  check_exact=True)


UNCUT_METRICS = ["precision@5", "recall@10", "ndcg@10", "ndcg", "ap", "ap@10", "rr",
                 "r_precision", "bpref", "infap", "hit_rate@1", "num_ret", "num_rel_ret",
                 "num_nonrel_judged_ret", "set_f", "bing", "utility", "relative_precision@10"]


def test_ids_are_grouped_by_object_only_when_rows_share_objects():
    """One object a row, made in row order: hashed in row order (no sort); shared objects,
    or objects out of row order: grouped, each distinct object once."""
    # Whether the objects lie in row order depends on the allocator's history (after
    # other tests, freed memory is reused out of order): the choice is a heuristic,
    # checked where it is made; what is checked always is that a grouping is right.
    n = 70_000
    own = np.array([f"d{i % 5_000}" for i in range(n)], dtype=object)
    found = distinct_objects(own)
    if found is not None:
        assert (found[1][found[0]] == own).all()
    shuffled = own[np.random.default_rng(0).permutation(n)]
    found = distinct_objects(shuffled)
    if found is not None:
        group, distinct = found
        assert len(distinct) == n
        assert (distinct[group] == shuffled).all()
    vocabulary = np.array([f"d{i}" for i in range(5_000)], dtype=object)
    shared = vocabulary[np.random.default_rng(1).integers(0, 5_000, n)]
    found = distinct_objects(shared)
    assert found is not None  # 5,000 objects, each on 14 rows: grouped
    group, distinct = found
    assert len(distinct) <= 5_000
    assert (distinct[group] == shared).all()


@pytest.mark.slow
@pytest.mark.parametrize("ties", ["trec_eval", "doc_id_ascending", "optimistic"])
def test_runs_sharing_id_objects_give_the_numbers_of_the_plain_path(ties):
    """Past 2**16 rows, doc ids that share objects are hashed (and the tied ones sorted
    as text) once per object; some equal ids here are separate objects, too."""
    rng = np.random.default_rng(3)
    vocabulary = np.array([f"d{i}" for i in range(3_000)], dtype=object)
    run, qrels = [], []
    for q in range(800):
        docs = vocabulary[rng.choice(len(vocabulary), 90, replace=False)]
        copies = rng.random(90) < 0.2  # an equal id in an object of its own
        docs[copies] = ["".join(list(d)) for d in docs[copies]]
        scores = np.sort(rng.integers(0, 12, 90) / 4)[::-1]  # ranked, many ties
        run.append(pd.DataFrame({"query_id": pd.Series([f"q{q}"] * 90, dtype=object),
                                 "doc_id": pd.Series(docs, dtype=object), "score": scores}))
        judged = rng.choice(90, 8, replace=False)
        qrels.append(pd.DataFrame({"query_id": pd.Series([f"q{q}"] * 8, dtype=object),
                                   "doc_id": pd.Series(docs[judged], dtype=object),
                                   "relevance": rng.integers(-1, 4, 8)}))
    run, qrels = pd.concat(run, ignore_index=True), pd.concat(qrels, ignore_index=True)
    assert len(run) >= 2**16
    assert run.doc_id.dtype == object
    fast = quietly(run, qrels, UNCUT_METRICS, ties=ties)
    with fast_paths.plain_paths():
        plain = quietly(run, qrels, UNCUT_METRICS, ties=ties)
    pd.testing.assert_frame_equal(fast.per_query, plain.per_query, check_exact=True)


@pytest.mark.parametrize("layout", ["ranked", "grouped", "interleaved"])
def test_evaluate_never_changes_the_callers_frames(layout):
    # The scores are read from the frame's own array, without a copy: nothing may write to it.
    for seed in range(3):
        run, qrels = random_case(seed)
        run = arrange(run, layout, seed)
        run_before, qrels_before = run.copy(deep=True), qrels.copy(deep=True)
        for metrics in (CUT_METRICS, [*CUT_METRICS, "map"]):
            quietly(run, qrels, metrics)
        pd.testing.assert_frame_equal(run, run_before, check_exact=True)
        pd.testing.assert_frame_equal(qrels, qrels_before, check_exact=True)
