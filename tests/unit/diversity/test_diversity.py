"""The diversity measures: kernels equal to their plain-Python definitions (to the last
bit), hand-computed values, the three forms of subtopic judgments, and their errors."""

from __future__ import annotations

import contextlib
import io
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics.cli import main
from ragmetrics.diversity import (
    DIVERSITY_METRICS,
    SubtopicRanking,
    alpha_dcg_at_k,
    alpha_ndcg_at_k,
    evaluate_diversity,
    nnrbp,
    parse_diversity_metric,
    read_ndeval_qrels,
    read_ndeval_run,
    subtopic_judgments,
    subtopic_ranking,
)
from ragmetrics.errors import FormatError, InputTypeError, InputValueError

FACETS = {"a": ["A"], "b": ["B", "D"], "c": ["C"]}


# -- hand-computed values ---------------------------------------------------------------------

def test_alpha_dcg_by_hand():
    # Gains 1 (A: a), 1 (D: b), 0 (E), 0.5 (B: b again); discounts 1, 1/log2(3), 1/2, ...
    # The ideal ideal gains 3, 1.5, 0.75, 0.375, 0.1875 at the same discounts.
    d = [1.0] + [math.log(2) / math.log(i + 2) for i in range(1, 5)]
    run = 1 * d[0] + 1 * d[1] + 0.5 * d[3]
    ideal_ideal = sum(3 * 0.5 ** i * d[i] for i in range(5))
    assert alpha_dcg_at_k(["A", "D", "E", "B"], FACETS, 5) == pytest.approx(
        run / ideal_ideal, rel=1e-15)
    # The greedy ideal: A, C, D (a tie with B goes to the larger id), B.
    best = 1 * d[0] + 1 * d[1] + 1 * d[2] + 0.5 * d[3]
    assert alpha_ndcg_at_k(["A", "D", "E", "B"], FACETS, 5) == pytest.approx(run / best,
                                                                             rel=1e-15)


def test_redundancy_lowers_alpha_ndcg_but_not_recall():
    # The same relevant docs, a repeat of facet b moved up: alpha-nDCG drops.
    assert alpha_ndcg_at_k(["A", "B", "C", "D"], FACETS, 4) > alpha_ndcg_at_k(
        ["A", "B", "D", "C"], FACETS, 4)


def test_nothing_relevant_scores_zero_and_nnrbp_nan():
    assert alpha_ndcg_at_k(["A"], {"a": []}, 5) == 0.0
    assert math.isnan(nnrbp(["A"], {"a": []}))


# -- kernels equal the references, bit for bit ------------------------------------------------

_DOCS = ["A", "B", "C", "D", "E", "b", "d1", "d10", "d2"]


@st.composite
def queries(draw):
    judgments, run = [], {}
    for query in draw(st.lists(st.sampled_from(["1", "2", "10", "x"]), min_size=1,
                               max_size=3, unique=True)):
        for doc in draw(st.lists(st.sampled_from(_DOCS), max_size=7, unique=True)):
            for subtopic in draw(st.lists(st.sampled_from(["1", "2", "3", "12"]), min_size=1,
                                          max_size=3, unique=True)):
                judgments.append((query, subtopic, doc, draw(st.integers(0, 2))))
        run[query] = draw(st.lists(st.sampled_from(_DOCS), max_size=9, unique=True))
    if not judgments:
        judgments.append(("1", "1", "A", 0))
    return judgments, run


@settings(max_examples=60, deadline=None)
@given(case=queries(), k=st.integers(1, 25), alpha=st.sampled_from([0.0, 0.3, 0.5, 1.0]),
       beta=st.sampled_from([0.0, 0.5, 0.85, 1.0]))
def test_every_kernel_equals_its_reference(case, k, alpha, beta):
    judgments, run = case
    j = subtopic_judgments(judgments)
    ranked = pd.DataFrame([(q, d) for q, docs in run.items() for d in docs],
                          columns=["query_id", "doc_id"])
    ranking = SubtopicRanking.from_ranked(ranked, j)
    for row in DIVERSITY_METRICS.values():
        params = {p.name: {"alpha": alpha, "beta": beta}[p.name] for p in row.params}
        values = row.kernel(ranking, k if row.cutoff == "required" else None, **params)
        for i, query in enumerate(j.queries):
            facets = j.docs_by_subtopic(query)
            args = (run.get(query, []), facets) + ((k,) if row.cutoff == "required" else ())
            expected = row.reference(*args, **params)
            assert (math.isnan(expected) and math.isnan(values[i])) or values[i] == expected, (
                row.name, query, values[i], expected)


@settings(max_examples=40, deadline=None)
@given(case=queries(), k=st.integers(1, 12), alpha=st.sampled_from([0.0, 0.5, 0.7, 1.0]))
def test_the_ideal_is_the_references_whichever_way_it_is_built(case, k, alpha):
    # The greedy ideal scores docs through a table of subtopic sets (few subtopics) or
    # by adding their gains (many), and batches queries: every way gives the reference's.
    judgments, run = case
    ranked = pd.DataFrame([(q, d) for q, docs in run.items() for d in docs],
                          columns=["query_id", "doc_id"], dtype=str)
    for table, cells in [(10, 1 << 22), (0, 1 << 22), (10, 7), (0, 7)]:
        j = subtopic_judgments(judgments)  # fresh: the judgments keep the ideals built
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(subtopic_ranking, "_TABLE_SUBTOPICS", table)
            patch.setattr(subtopic_ranking, "_BATCH_CELLS", cells)
            ranking = SubtopicRanking.from_ranked(ranked, j)
            values = {name: DIVERSITY_METRICS[name].kernel(ranking, k, alpha=alpha)
                      for name in ("alpha_ndcg", "nerr_ia")}
            values["nnrbp"] = DIVERSITY_METRICS["nnrbp"].kernel(ranking, alpha=alpha)
        for i, query in enumerate(j.queries):
            facets = j.docs_by_subtopic(query)
            docs = run.get(query, [])
            expected = {"alpha_ndcg": alpha_ndcg_at_k(docs, facets, k, alpha=alpha),
                        "nerr_ia": DIVERSITY_METRICS["nerr_ia"].reference(docs, facets, k,
                                                                          alpha=alpha),
                        "nnrbp": nnrbp(docs, facets, alpha=alpha)}
            for name, value in expected.items():
                got = values[name][i]
                assert (math.isnan(value) and math.isnan(got)) or got == value, (
                    name, query, table, cells, got, value)


@pytest.mark.parametrize(("table", "cells"), [(10, 1 << 22), (0, 1 << 22), (10, 7), (0, 7)])
def test_a_tie_in_the_ideal_goes_to_the_larger_doc_id(table, cells):
    # A {1, 3}, B {1, 2}, C {3, 4} all gain 2 first. ndeval takes C (the largest id),
    # then B (2), then A (1); taking A first would give 2, 1.5, 1.5.
    j = subtopic_judgments([("q", s, d, 1) for s, docs in
                            {"1": "AB", "2": "B", "3": "AC", "4": "C"}.items() for d in docs])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subtopic_ranking, "_TABLE_SUBTOPICS", table)
        patch.setattr(subtopic_ranking, "_BATCH_CELLS", cells)
        ideal = SubtopicRanking.from_ranked(pd.DataFrame({"query_id": ["q"], "doc_id": ["A"]}),
                                            j).ideal(0.5)
    assert ideal.gains(0.5).tolist() == [2.0, 2.0, 1.0]


def test_raw_at_one_is_s_times_the_value():
    j = subtopic_judgments([("0", s, d, 1) for s, docs in FACETS.items() for d in docs])
    ranked = pd.DataFrame({"query_id": "0", "doc_id": ["A", "D"]})
    plain = SubtopicRanking.from_ranked(ranked, j)
    raw = SubtopicRanking.from_ranked(ranked, j, raw_at_one=True)
    alpha_dcg = DIVERSITY_METRICS["alpha_dcg"].kernel
    assert alpha_dcg(plain, 1).tolist() == [1 / 3]
    assert alpha_dcg(raw, 1).tolist() == [1.0]
    assert alpha_dcg(plain, 2).tolist() == alpha_dcg(raw, 2).tolist()


# -- the judgments in three forms --------------------------------------------------------------

def test_a_subtopic_column_the_iteration_column_and_tuples_agree():
    rows = [("q1", "1", "a", 1), ("q1", "2", "b", 2), ("q1", "2", "c", 0), ("q2", "1", "a", 1)]
    frame = pd.DataFrame(rows, columns=["query_id", "subtopic", "doc_id", "relevance"])
    by_column = subtopic_judgments(frame)
    by_iteration = subtopic_judgments(frame.rename(columns={"subtopic": "iteration"}))
    by_tuples = subtopic_judgments(rows)
    for j in (by_iteration, by_tuples):
        assert j.queries == by_column.queries
        assert j.subtopics == by_column.subtopics
        assert j.relevant.equals(by_column.relevant)


def test_judgment_errors_name_the_value():
    with pytest.raises(InputValueError, match="negative judgment"):
        subtopic_judgments([("q", "1", "a", -1)])
    assert len(subtopic_judgments([("q", "1", "a", -1)], negative="nonrelevant").relevant) == 0
    with pytest.raises(InputValueError, match="judged twice"):
        subtopic_judgments([("q", "1", "a", 1), ("q", "1", "a", 0)])
    with pytest.raises(InputValueError, match="'x' is not a finite number"):
        subtopic_judgments([("q", "1", "a", "x")])
    with pytest.raises(InputValueError, match="missing: subtopic"):
        subtopic_judgments(pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "relevance": [1]}))
    with pytest.raises(InputTypeError):
        subtopic_judgments({"q": ["a"]})


def test_a_judgment_column_is_read_as_the_relevance():
    """ndeval's name for the grade (data/support_demo/facets.csv uses it)."""
    frame = pd.DataFrame({"query_id": ["q", "q"], "subtopic": ["1", "2"], "doc_id": ["a", "b"],
                          "judgment": [1, 0]})
    assert subtopic_judgments(frame).docs_by_subtopic("q") == {"1": ["a"]}
    with pytest.raises(InputValueError, match="both a relevance and a judgment"):
        subtopic_judgments(frame.assign(relevance=1))
    with pytest.raises(InputValueError, match=r"missing: relevance \(or judgment\)"):
        subtopic_judgments(frame.drop(columns="judgment"))


@pytest.mark.parametrize(("text", "reason"), [
    ("1 1 A\n", "4 fields"), ("1 1 A 1\n\n", "got 0"), ("1 1 A -1\n", "'-1' for the judgment"),
    ("1 x A 1\n", "for the subtopic"), ("1 1 A 1\n1 1 A 0\n", r"judged twice \(lines 1 and 2\)"),
    ("10000000 1 A 1\n", "for the topic"),
])
def test_ndeval_qrels_errors_name_file_and_line(tmp_path, text, reason):
    path = tmp_path / "qrels.txt"
    path.write_text(text)
    with pytest.raises(FormatError, match=reason) as caught:
        read_ndeval_qrels(path)
    assert caught.value.path == str(path)
    assert caught.value.line == text.count("\n")


def test_ndeval_run_reads_prefixes_and_refuses_bad_lines(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("wt12-7 Q0 A 3 1.5 r extra\n007 Q0 B 1 x r\n")
    frame, name = read_ndeval_run(path)
    assert frame["query_id"].tolist() == ["7", "7"]
    assert name == "r"
    with pytest.raises(FormatError, match="line 2: ordering by score") as caught:
        read_ndeval_run(path, scores=True)
    assert caught.value.text == "007 Q0 B 1 x r"
    path.write_text("Q Q0 A 1 1 r\n")
    with pytest.raises(FormatError, match="the topic must be a natural number"):
        read_ndeval_run(path)


# -- evaluate_diversity and the names ----------------------------------------------------------

def test_presets_order_ties_their_way():
    qrels = [("1", "1", "a", 1), ("1", "2", "b", 1)]
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "z"], "score": [1.0, 1.0, 1.0],
                        "rank": [3, 2, 1]})
    def first(preset):
        return evaluate_diversity(run, qrels, ["strec@1"], preset=preset).per_query.iloc[0, 0]
    # ndeval: by rank (z first); traditional: doc id descending (z); pyndeval: ascending (a).
    assert (first("ndeval"), first("ndeval_traditional"), first("pyndeval")) == (0, 0, 0.5)


def test_complete_averages_over_every_judged_query():
    qrels = [("1", "1", "a", 1), ("2", "1", "a", 1)]
    run = {"1": ["a"], "3": ["a"]}
    plain = evaluate_diversity(run, qrels, ["strec@5"])
    complete = evaluate_diversity(run, qrels, ["strec@5"], complete=True)
    assert plain.per_query.index.tolist() == ["1", "3"]
    assert plain.summary.tolist() == [1.0]
    assert complete.summary.tolist() == [0.5]
    assert plain.queries_missing_from_run == ("2",)
    assert plain.queries_without_judgments == ("3",)


def test_run_errors():
    qrels = [("1", "1", "a", 1)]
    with pytest.raises(InputValueError, match="rank 1 is given twice"):
        evaluate_diversity(pd.DataFrame({"query_id": "1", "doc_id": ["a", "b"], "rank": [1, 1]}),
                           qrels)
    with pytest.raises(InputValueError, match="lacks the column"):
        evaluate_diversity(pd.DataFrame({"query_id": ["1"], "doc_id": ["a"]}), qrels)
    with pytest.raises(InputValueError, match="ranked twice"):
        evaluate_diversity({"1": ["a", "a"]}, qrels)
    with pytest.raises(InputValueError, match="alpha must be"):
        evaluate_diversity({"1": ["a"]}, qrels, alpha=1.5)


def test_names_and_parameters():
    assert str(parse_diversity_metric("ERR-IA@20")) == "err_ia@20"
    assert parse_diversity_metric("coverage@5").name == "strec"
    spec = parse_diversity_metric("alpha_ndcg(alpha=0.9)@10")
    assert spec.arguments(alpha=0.5) == {"alpha": 0.9}
    for bad, reason in [("alpha_ndcg", "needs a cut-off"), ("nrbp@5", "takes no cut-off"),
                        ("p_ia(alpha=1)@5", "takes no parameters"),
                        ("nrbp(beta=2)", "between 0 and 1"), ("ndcg@5", "unknown")]:
        with pytest.raises(InputValueError, match=reason):
            parse_diversity_metric(bad)
    result = evaluate_diversity({"1": ["b", "a"]}, [("1", "1", "a", 1), ("1", "2", "a", 1)],
                                ["alpha_ndcg(alpha=0)@2", "alpha_ndcg@2"], alpha=1.0)
    assert result.per_query.iloc[0].tolist() == pytest.approx(
        [math.log(2) / math.log(3)] * 2)
    assert np.isfinite(result.summary).all()


# -- the command ------------------------------------------------------------------------------

def ndeval_command(*args) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["ndeval", *map(str, args)])
    return status, out.getvalue()


def test_the_command_prints_ndeval_csv_and_refuses_bad_input(tmp_path, capsys):
    (tmp_path / "qrels").write_text("1 1 a 1\n1 2 b 1\n")
    (tmp_path / "run").write_text("1 Q0 b 1 2 sys\n1 Q0 a 2 1 sys\n")
    status, out = ndeval_command(tmp_path / "qrels", tmp_path / "run")
    lines = out.splitlines()
    assert status == 0
    assert lines[0].startswith("runid,topic,ERR-IA@5,")
    assert lines[1].startswith("sys,1,")
    assert lines[2].startswith("sys,amean,")
    assert lines[1].split(",")[-3:] == ["1.000000"] * 3  # strec@5, 10, 20
    assert ndeval_command("-alpha", 2, tmp_path / "qrels", tmp_path / "run")[0] == 2
    (tmp_path / "qrels").write_text("1 1 a -1\n")
    assert ndeval_command(tmp_path / "qrels", tmp_path / "run")[0] == 2
    assert "qrels, line 1" in capsys.readouterr().err
