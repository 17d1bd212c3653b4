"""evaluate_scores: a score matrix gives what evaluate gives for the same scores as a run.

Every value is checked against :func:`ragmetrics.evaluate` on a long-format run built from
the same matrix (one row per query and doc), with doc ids whose text order is the one the
matrix's rule gives, and qrels that judge every cell: equal to the last bit on NumPy and
on array-api-strict (which refuses any call outside the array API standard).
"""

from __future__ import annotations

import tracemalloc
import warnings

import array_api_strict as xs
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics import evaluate, evaluate_scores
from ragmetrics.errors import (
    CoverageWarning,
    EmptyRelevantWarning,
    InputTypeError,
    InputValueError,
)
from ragmetrics.evaluation.matrix_ranking import first_relevant_rank, tie_keys, top_columns

#: The metrics computed on the matrix's device, and some the host computes by the table.
DEVICE = ["recall@3", "precision@3", "hit_rate@2", "relative_precision@3", "mrr", "rr@2",
          "ndcg@3", "ndcg", "dcg@2", "idcg@3", "map", "map@3", "gm_map", "r_precision",
          "rprec_mult@0.5", "num_rel", "num_q"]
HOST = ["err@3", "ndcg_rel", "rndcg", "g", "bing", "iprec_at_recall@0.5", "11pt_avg",
        "num_ret", "num_rel_ret", "set_precision", "set_recall", "set_f", "utility",
        "set_ap", "set_relative_precision"]


def as_run(scores, grades, doc_ids=None, query_ids=None, judge_all=True):
    """The matrix as evaluate's run and qrels: a row per cell; every cell judged."""
    n, d = scores.shape
    q = np.repeat(np.arange(n), d) if query_ids is None else np.repeat(
        np.asarray(query_ids, dtype=object), d)
    if doc_ids is None:
        doc_ids = np.array([f"d{j:05d}" for j in range(d)], dtype=object)
    doc_ids = np.asarray(doc_ids, dtype=object)
    docs = np.tile(doc_ids, n) if doc_ids.ndim == 1 else doc_ids.ravel()
    run = pd.DataFrame({"query_id": q, "doc_id": docs, "score": scores.ravel()})
    keep = np.ones(n * d, bool) if judge_all else grades.ravel() != 0
    qrels = pd.DataFrame({"query_id": q[keep], "doc_id": docs[keep],
                          "relevance": grades.ravel()[keep].astype(float)})
    return run, qrels


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def assert_same(matrix_result, run_result):
    # check_dtype=False: evaluate gives idcg as int64 zeros when no query has an ideal
    # ranking (np.bincount over no rows); evaluate_scores gives float64 zeros.
    assert (matrix_result.per_query.dtypes == np.float64).all()
    pd.testing.assert_frame_equal(matrix_result.per_query, run_result.per_query,
                                  check_exact=True, check_dtype=False)
    pd.testing.assert_series_equal(matrix_result.summary, run_result.summary, check_exact=True)
    assert matrix_result.queries_without_relevant == run_result.queries_without_relevant
    assert matrix_result.queries_missing_from_run == run_result.queries_missing_from_run


@st.composite
def matrices(draw):
    n = draw(st.integers(1, 7))
    d = draw(st.integers(1, 12))
    levels = draw(st.integers(1, 5))  # few score levels: many ties
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, levels, (n, d)).astype(float) / 2
    grades = rng.integers(-1, 4, (n, d)) * (rng.random((n, d)) < draw(st.sampled_from(
        [0.1, 0.4, 0.9])))
    return scores, grades


CONVENTIONS = st.fixed_dictionaries({}, optional={
    "ties": st.sampled_from(["trec_eval", "doc_id_ascending", "input_order"]),
    "gain": st.sampled_from(["linear", "exponential"]),
    "relevance_level": st.sampled_from([1, 2, 0.5]),
    "max_retrieved": st.integers(1, 14),
    "empty_relevant": st.sampled_from(["zero", "article", "skip"]),
})


@settings(max_examples=60, deadline=None)
@given(matrices(), CONVENTIONS)
def test_equal_to_evaluate_on_random_matrices_with_ties(matrix, conventions):
    scores, grades = matrix
    run, qrels = as_run(scores, grades)
    metrics = DEVICE + HOST
    expected = quietly(evaluate, run, qrels, metrics, **conventions)
    assert_same(quietly(evaluate_scores, scores, grades, metrics, **conventions), expected)
    strict = quietly(evaluate_scores, xs.asarray(scores), xs.asarray(grades), metrics,
                     chunk_size=3, **conventions)
    assert_same(strict, expected)


def test_the_default_metrics_are_evaluates():
    rng = np.random.default_rng(0)
    scores, grades = rng.random((30, 40)), (rng.random((30, 40)) < 0.1).astype(int)
    result = quietly(evaluate_scores, scores, grades)
    assert list(result.per_query.columns) == ["recall@10", "precision@10", "mrr", "ndcg@10"]
    assert_same(result, quietly(evaluate, *as_run(scores, grades)))


def test_ties_without_doc_ids_go_to_the_later_column_under_trec_eval():
    scores = np.array([[1.0, 1.0, 1.0]])
    grades = np.array([[1, 0, 0]])
    # The relevant doc is column 0: last of the three tied docs by id descending.
    assert evaluate_scores(scores, grades, ["mrr"]).summary["mrr"] == pytest.approx(1 / 3)
    for ties in ("doc_id_ascending", "input_order"):
        assert evaluate_scores(scores, grades, ["mrr"], ties=ties).summary["mrr"] == 1.0


@pytest.mark.parametrize("ties", ["trec_eval", "doc_id_ascending", "input_order"])
def test_doc_ids_are_compared_as_text_as_trec_eval_does(ties):
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 2, (6, 12)).astype(float)
    grades = rng.integers(0, 3, (6, 12))
    ids = rng.permutation(np.arange(5, 17))  # 9 > 16 > 10 as text
    expected = quietly(evaluate, *as_run(scores, grades, doc_ids=ids), DEVICE, ties=ties)
    assert_same(quietly(evaluate_scores, scores, grades, DEVICE, doc_ids=ids, ties=ties),
                expected)
    texts = np.array([f"doc-{i}" for i in ids], dtype=object)
    expected = quietly(evaluate, *as_run(scores, grades, doc_ids=texts), DEVICE, ties=ties)
    assert_same(quietly(evaluate_scores, scores, grades, DEVICE, doc_ids=list(texts),
                        ties=ties), expected)


def test_candidates_per_query_with_their_own_ids():
    rng = np.random.default_rng(4)
    n, d = 8, 10
    scores = rng.integers(0, 3, (n, d)).astype(float)
    grades = rng.integers(0, 3, (n, d))
    ids = np.stack([rng.choice(100, d, replace=False) for _ in range(n)])
    expected = quietly(evaluate, *as_run(scores, grades, doc_ids=ids), DEVICE + HOST)
    result = quietly(evaluate_scores, scores, grades, DEVICE + HOST, doc_ids=ids,
                     chunk_size=3)
    assert_same(result, expected)
    strict = quietly(evaluate_scores, xs.asarray(scores), xs.asarray(grades), DEVICE,
                     doc_ids=ids)
    assert_same(strict, quietly(evaluate, *as_run(scores, grades, doc_ids=ids), DEVICE))


@pytest.mark.parametrize("missing_from_run", ["zero", "skip"])
def test_qrels_with_doc_ids_count_judged_docs_outside_the_matrix(missing_from_run):
    rng = np.random.default_rng(5)
    n, d = 6, 9
    scores = rng.integers(0, 4, (n, d)).astype(float)
    doc_ids = [f"p{j}" for j in range(d)]
    query_ids = [f"q{i}" for i in range(n)]
    qrels = {f"q{i}": {f"p{j}": int(rng.integers(0, 3)) for j in rng.choice(d, 4)}
             for i in range(1, n)}  # q0 has no judgments: left out
    qrels["q1"]["elsewhere"] = 2  # relevant, not a candidate: R counts it
    qrels["q9"] = {"p1": 1}  # judged, not in the matrix: missing from the run
    run = as_run(scores, np.zeros((n, d)), doc_ids=doc_ids, query_ids=query_ids)[0]
    expected = quietly(evaluate, run, qrels, DEVICE + HOST,
                       missing_from_run=missing_from_run)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate_scores(scores, qrels, DEVICE + HOST, doc_ids=doc_ids,
                                 query_ids=query_ids, missing_from_run=missing_from_run)
    assert any(issubclass(w.category, CoverageWarning) for w in caught)
    assert_same(result, expected)
    assert result.queries_missing_from_qrels == ("q0",) == expected.queries_missing_from_qrels
    assert result.queries_missing_from_run == ("q9",)
    frame = pd.DataFrame([(q, doc, g) for q, docs in qrels.items() for doc, g in docs.items()],
                         columns=["query_id", "doc_id", "relevance"])
    again = quietly(evaluate_scores, xs.asarray(scores), frame, DEVICE + HOST,
                    doc_ids=doc_ids, query_ids=query_ids, missing_from_run=missing_from_run)
    assert_same(again, expected)


def test_query_ids_index_the_result_in_natural_order():
    rng = np.random.default_rng(6)
    scores, grades = rng.random((3, 5)), rng.integers(0, 2, (3, 5))
    result = quietly(evaluate_scores, scores, grades, ["mrr"], query_ids=["q10", "q2", "q1"])
    assert result.per_query.index.tolist() == ["q1", "q10", "q2"]
    expected = quietly(evaluate, *as_run(scores, grades, query_ids=["q10", "q2", "q1"]),
                       ["mrr"])
    assert_same(result, expected)
    ints = quietly(evaluate_scores, scores, grades, ["mrr"], query_ids=[10, 2, 1])
    assert ints.per_query.index.tolist() == [1, 2, 10]
    assert ints.per_query.index.dtype == np.int64


@pytest.mark.parametrize("chunk_size", [1, 2, 6, 7, 13, 14, 100])
def test_chunks_give_the_same_values_at_every_boundary(chunk_size):
    rng = np.random.default_rng(7)
    scores = rng.integers(0, 3, (14, 20)).astype(float)
    grades = rng.integers(0, 3, (14, 20)) * (rng.random((14, 20)) < 0.3)
    whole = quietly(evaluate_scores, scores, grades, DEVICE + HOST, chunk_size=14)
    assert_same(quietly(evaluate_scores, scores, grades, DEVICE + HOST, chunk_size=chunk_size),
                whole)


def test_chunks_bound_the_memory():
    rng = np.random.default_rng(8)
    scores = rng.random((2000, 1000))  # 16 MB
    grades = (rng.random((2000, 1000)) < 0.005).astype(np.int8)

    def peak(chunk_size):
        tracemalloc.start()
        quietly(evaluate_scores, scores, grades, ["recall@10", "ndcg@10", "mrr"],
                chunk_size=chunk_size)
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return size

    chunked, whole = peak(50), peak(2000)
    assert chunked < 0.3 * scores.nbytes < whole


def test_float32_and_integer_scores():
    rng = np.random.default_rng(9)
    scores = rng.integers(-5, 5, (10, 12))
    grades = rng.integers(0, 2, (10, 12))
    expected = quietly(evaluate, *as_run(scores.astype(float), grades), DEVICE)
    assert_same(quietly(evaluate_scores, scores, grades, DEVICE), expected)
    assert_same(quietly(evaluate_scores, scores.astype(np.float32), grades, DEVICE), expected)
    assert_same(quietly(evaluate_scores, scores.tolist(), grades.tolist(), DEVICE), expected)
    close = np.array([[1.0, 1.0 + 1e-12, 0.5]])
    rounded = evaluate_scores(close, np.array([[1, 0, 0]]), ["mrr"],
                              score_precision="float32")
    assert rounded.summary["mrr"] == 0.5  # tied at float32, the later column first
    assert evaluate_scores(close, np.array([[1, 0, 0]]), ["mrr"]).summary["mrr"] == 0.5


def test_bool_relevance_and_rows_without_relevant_docs_warn():
    scores = np.array([[0.3, 0.2], [0.1, 0.9]])
    grades = np.array([[False, True], [False, False]])
    with pytest.warns(EmptyRelevantWarning, match="1 judged query has no relevant doc"):
        result = evaluate_scores(scores, grades, ["mrr", "recall@1"])
    assert result.per_query["mrr"].tolist() == [0.5, 0.0]
    assert result.queries_without_relevant == (1,)


def test_the_partial_sort_agrees_with_a_full_sort_through_tied_cuts():
    rng = np.random.default_rng(10)
    import array_api_compat.numpy as xnp

    for _ in range(20):
        scores = rng.integers(0, 4, (30, 25)).astype(float)
        keys = rng.permutation(25)[None, :]
        full = top_columns(xnp, scores, keys, 25)
        for depth in (1, 3, 10, 24):
            assert np.array_equal(top_columns(xnp, scores, keys, depth), full[:, :depth])
            assert np.array_equal(np.asarray(top_columns(xs, xs.asarray(scores),
                                                         xs.asarray(keys), depth)),
                                  full[:, :depth])
        relevant = rng.random((30, 25)) < 0.1
        rank = first_relevant_rank(xnp, scores, keys, relevant)
        hits = np.take_along_axis(relevant, full, 1)
        assert np.array_equal(rank, np.where(hits.any(1), hits.argmax(1), -1))


def test_tie_keys_order_ids_as_text():
    assert tie_keys(np.array(["b", "a", "c"]), 3, "trec_eval").tolist() == [1, 2, 0]
    assert tie_keys(np.array(["b", "a", "c"]), 3, "doc_id_ascending").tolist() == [1, 0, 2]
    # "9" > "2" > "10" as text
    assert tie_keys(np.array([[2, 10], [10, 9]]), 2, "trec_eval").tolist() == [[1, 2], [2, 0]]


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: evaluate_scores(np.zeros((2, 3)), np.zeros((2, 4))), InputValueError,
     r"relevance has shape \(2, 4\), scores \(2, 3\)"),
    (lambda: evaluate_scores(np.array([[0.1, np.nan], [0.2, 0.3]]), np.zeros((2, 2))),
     InputValueError, r"scores\[0, 1\] is NaN \(query at row 0\)"),
    (lambda: evaluate_scores(np.zeros(3), np.zeros(3)), InputValueError,
     r"scores must be a matrix \[n_queries, n_docs\], got shape \(3,\)"),
    (lambda: evaluate_scores([["a", "b"]], [[1, 0]]), InputTypeError,
     "scores must be real numbers"),
    (lambda: evaluate_scores(np.ones((1, 2), bool), [[1, 0]]), InputTypeError,
     "scores must be real numbers, got an array of bool"),
    (lambda: evaluate_scores(np.zeros((1, 2)), [["x", "y"]]), InputTypeError,
     "relevance must be real numbers"),
    (lambda: evaluate_scores(np.zeros((1, 2)), np.array([[1.0, np.inf]])), InputValueError,
     r"relevance\[0, 1\] is not a finite number \(query 0\)"),
    (lambda: evaluate_scores(np.array([[2**60, 1]]), [[1, 0]]), InputValueError,
     "beyond 2\\*\\*53"),
    (lambda: evaluate_scores(np.zeros((1, 3)), [[1, 0, 0]], doc_ids=["a", "b", "a"]),
     InputValueError, "doc id 'a' names two columns"),
    (lambda: evaluate_scores(np.zeros((2, 2)), np.ones((2, 2)), doc_ids=[[1, 2], [3, 3]]),
     InputValueError, "doc id 3 names two columns of query row 1"),
    (lambda: evaluate_scores(np.zeros((1, 2)), [[1, 0]], doc_ids=["a"]), InputValueError,
     r"doc_ids must name each column \(2,\)"),
    (lambda: evaluate_scores(np.zeros((1, 2)), {0: {"a": 1}}), InputTypeError,
     "relevance given as qrels needs doc_ids"),
    (lambda: evaluate_scores(np.zeros((1, 2)), [[1, 0]], ties="average"), InputValueError,
     ("evaluate_scores takes ties='trec_eval' or 'doc_id_ascending' or 'input_order', not "
      "'average'")),
    (lambda: evaluate_scores(np.zeros((1, 2)), [[1, 0]], ["bpref"]), InputValueError,
     "evaluate_scores cannot compute 'bpref'"),
    (lambda: evaluate_scores(np.zeros((1, 2)), [[1, 0]], ["ndcg(1=3)@2"]), InputValueError,
     r"evaluate_scores cannot compute 'ndcg\(1=3\)@2'"),
    (lambda: evaluate_scores(np.zeros((1, 2)), [[1, 0]], chunk_size=0), InputValueError,
     "chunk_size must be a positive int or None, got 0"),
    (lambda: evaluate_scores(np.zeros((2, 2)), np.ones((2, 2)), query_ids=["a", "a"]),
     InputValueError, "query id 'a' names two rows"),
    (lambda: evaluate_scores(np.zeros((2, 2)), np.ones((2, 2)), query_ids=["a"]),
     InputValueError, r"query_ids must have one id per row of scores \(2\), got 1"),
    (lambda: evaluate_scores(np.zeros((1, 2)), [[0, 0]], empty_relevant="error"),
     InputValueError, "query 0 has no relevant doc"),
    (lambda: evaluate_scores(np.zeros((1, 2)), {"q": {"a": 1}}, doc_ids=[1, 2],
                             query_ids=["q"]), InputTypeError,
     "doc_id is int in the run but str in the qrels"),
    (lambda: evaluate_scores(np.zeros((1, 2)), [[1500, 1500]], ["ndcg"], gain="exponential"),
     InputValueError, "query 0: "),
])
def test_bad_input_is_refused_by_name(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_on_the_gpu_when_torch_has_one():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    rng = np.random.default_rng(11)
    scores = rng.integers(0, 5, (64, 200)).astype(np.float32)
    grades = rng.integers(0, 3, (64, 200)) * (rng.random((64, 200)) < 0.05)
    expected = quietly(evaluate, *as_run(scores.astype(float), grades), DEVICE)
    result = quietly(evaluate_scores, torch.asarray(scores, device="cuda"),
                     torch.asarray(grades, device="cuda"), DEVICE)
    pd.testing.assert_frame_equal(result.per_query, expected.per_query, rtol=1e-12)
