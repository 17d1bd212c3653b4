"""The Acme Cloud support demo data set (``data/support_demo/``) and its two runs.

Checks that the corpus, questions and judgments are well formed and are exactly what
``build_dataset.py`` writes (its template pages included), that both runs are valid TREC
runs of the questions, that the BM25 run is what ``make_runs.py`` makes (with
``snowballstemmer``, which the docs extra brings; the dense run needs the retrieval
packages and is not remade here), and pins what ``ragmetrics.evaluate`` gives each run,
so that a changed file is noticed.
"""

from __future__ import annotations

import collections
import csv
import importlib.util
import json
import re
import runpy
import shutil
from pathlib import Path

import pandas as pd
import pytest

from ragmetrics import evaluate
from ragmetrics.io import read_golden, read_trec_run

DATA = Path(__file__).resolve().parents[2] / "data" / "support_demo"
RUNS = ("bm25", "dense_minilm")
DEPTH = 50

# evaluate(run, golden.csv) with the default conventions, rounded to 4 decimals.
PINNED = {
    "bm25": {
        "recall@5": 0.5321, "recall@10": 0.6538, "recall@20": 0.7467,
        "precision@5": 0.3889, "precision@10": 0.2500, "precision@20": 0.1465,
        "mrr@5": 0.6970, "mrr@10": 0.7066, "mrr@20": 0.7073,
        "ndcg@5": 0.5638, "ndcg@10": 0.6059, "ndcg@20": 0.6349,
    },
    "dense_minilm": {
        "recall@5": 0.6207, "recall@10": 0.7771, "recall@20": 0.8529,
        "precision@5": 0.4556, "precision@10": 0.2944, "precision@20": 0.1667,
        "mrr@5": 0.8808, "mrr@10": 0.8831, "mrr@20": 0.8840,
        "ndcg@5": 0.7096, "ndcg@10": 0.7580, "ndcg@20": 0.7843,
    },
}  # fmt: skip


def _jsonl(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    return _jsonl("corpus.jsonl")


@pytest.fixture(scope="module")
def questions() -> list[dict]:
    return _jsonl("questions.jsonl")


@pytest.fixture(scope="module")
def golden() -> list[dict]:
    with open(DATA / "golden.csv", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def qrels() -> pd.DataFrame:
    return read_golden(DATA / "golden.csv")


# ------------------------------------------------------------------------------ the data set


def test_files_are_what_the_builder_writes():
    rendered = runpy.run_path(str(DATA / "build_dataset.py"))["render"]()
    for name, text in rendered.items():
        assert (DATA / name).read_bytes() == text.encode("utf-8"), name


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(f"support_demo_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_builder_fills_the_template_pages(tmp_path):
    """A changed template rewrites its pages; a new member goes after its family's last."""
    for name in ("corpus.jsonl", "questions.jsonl", "golden.csv"):
        shutil.copy(DATA / name, tmp_path / name)
    (tmp_path / "source").mkdir()
    families = json.loads((DATA / "source" / "families.json").read_text(encoding="utf-8"))
    assert [len(f["rows"]) for f in families] == [2, 5, 6, 5]
    api = next(f for f in families if f["doc_id"] == "api-limits-{tier}")
    api["text"] = api["text"].replace("per minute per workspace", "per  minute\n per team")
    api["rows"].append({"tier": "Ultra", "rpm": "20,000", "burst": "2,000",
                        "quota": "no daily quota"})
    (tmp_path / "source" / "families.json").write_text(json.dumps(families), encoding="utf-8")
    build = _module(DATA / "build_dataset.py")
    build.HERE = tmp_path
    corpus = [json.loads(line) for line in build.render()["corpus.jsonl"].splitlines()]
    ids = [c["doc_id"] for c in corpus]
    assert len(ids) == 303
    assert ids.index("api-limits-ultra") == ids.index("api-limits-enterprise") + 1
    ultra = corpus[ids.index("api-limits-ultra")]
    assert ultra["title"] == "API rate limits on Ultra"
    assert ultra["text"].startswith("On the Ultra plan, the API allows 20,000 requests per "
                                    "minute per team, with bursts of up to 2,000 requests")
    changed = [c["doc_id"] for c in corpus if "per minute per team" in c["text"]]
    assert changed == [f"api-limits-{t}" for t in
                       ("free", "starter", "team", "business", "enterprise", "ultra")]


def test_corpus_schema(corpus):
    assert len(corpus) >= 300
    ids = [c["doc_id"] for c in corpus]
    assert len(set(ids)) == len(ids), "doc ids must be unique"
    for chunk in corpus:
        assert set(chunk) == {"doc_id", "title", "text"}, chunk
        assert all(isinstance(v, str) and v == v.strip() and v for v in chunk.values()), chunk
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", chunk["doc_id"]), chunk["doc_id"]
        assert 40 <= len(chunk["text"].split()) <= 120, chunk["doc_id"]


def test_questions_schema(questions):
    assert len(questions) >= 50
    assert [q["query_id"] for q in questions] == [f"q{i:02d}" for i in range(1, len(questions) + 1)]
    for q in questions:
        assert set(q) == {"query_id", "question"}
        assert q["question"].strip() == q["question"]
        assert len(q["question"].split()) >= 3
    assert len({q["question"].lower() for q in questions}) == len(questions)


def test_golden_schema(golden, corpus, questions):
    assert list(golden[0]) == ["query_id", "doc_id", "relevance"]
    doc_ids = {c["doc_id"] for c in corpus}
    query_ids = {q["query_id"] for q in questions}
    pairs = [(row["query_id"], row["doc_id"]) for row in golden]
    assert len(set(pairs)) == len(pairs), "a (query, doc) pair is judged twice"
    for row in golden:
        assert row["doc_id"] in doc_ids, row
        assert row["query_id"] in query_ids, row
        assert row["relevance"] in {"1", "2"}, row
    grades = collections.defaultdict(list)
    for row in golden:
        grades[row["query_id"]].append(int(row["relevance"]))
    assert set(grades) == query_ids, "every question is judged"
    assert all(2 in g for g in grades.values()), "every question has a grade-2 chunk"
    assert sum(len(g) >= 3 for g in grades.values()) >= 25, "many questions need 3+ chunks"


def test_read_golden_agrees_with_the_csv(qrels, golden):
    assert len(qrels) == len(golden)
    assert qrels["relevance"].value_counts().to_dict() == {1: 186, 2: 103}


def test_facets_label_exactly_the_relevant_chunks(golden):
    """facets.csv: each labelled question's relevant chunks have a facet, no other chunk has
    one, and ragmetrics reads the file as subtopic judgments."""
    from ragmetrics.diversity import subtopic_judgments

    facets = pd.read_csv(DATA / "facets.csv")
    assert list(facets.columns) == ["query_id", "subtopic", "doc_id", "judgment"]
    assert set(facets["judgment"]) == {1}
    assert not facets.duplicated(["query_id", "subtopic", "doc_id"]).any()
    for query, rows in facets.groupby("query_id"):
        relevant = {r["doc_id"] for r in golden if r["query_id"] == query}
        assert set(rows["doc_id"]) == relevant, query
        assert rows["subtopic"].nunique() >= 3, query
    judged = subtopic_judgments(facets)
    assert judged.queries == ("q01", "q09", "q13", "q17")
    assert judged.docs_by_subtopic("q17") == {
        "add-person": ["seats-add", "seats-invite"],
        "prorated-charge": ["billing-seat-change-annual", "seats-add", "seats-proration-example"],
        "seat-price": ["plans-overview", "plans-team", "seats-proration-example"],
    }


def test_data_is_small():
    total = sum(p.stat().st_size for p in DATA.rglob("*") if p.is_file() and p.suffix != ".pyc")
    # The span files (documents.jsonl, evidence/, chunkings/, runs/bm25_*.tsv) add ~400 KB.
    assert total < 1_500_000


# ------------------------------------------------------------------------------ the runs


@pytest.mark.parametrize("name", RUNS)
def test_run_is_a_valid_trec_run(name, questions, corpus):
    doc_ids = {c["doc_id"] for c in corpus}
    lines = (DATA / "runs" / f"{name}.tsv").read_text(encoding="utf-8").splitlines()
    by_query = collections.defaultdict(list)
    for line in lines:
        fields = line.split(" ")
        assert len(fields) == 6, line
        query_id, q0, doc_id, rank, score, run_name = fields
        assert q0 == "Q0", line
        assert run_name == name, line
        assert doc_id in doc_ids, line
        assert re.fullmatch(r"-?[0-9]+\.[0-9]{6}", score), line
        by_query[query_id].append((int(rank), doc_id, float(score)))
    assert list(by_query) == [q["query_id"] for q in questions]
    for query_id, rows in by_query.items():
        assert [r for r, _, _ in rows] == list(range(1, DEPTH + 1)), query_id
        assert len({d for _, d, _ in rows}) == DEPTH, f"{query_id}: a doc is repeated"
        # Ranks follow the score, then the doc id descending (trec_eval's order).
        order = sorted(rows, key=lambda r: r[1], reverse=True)
        order.sort(key=lambda r: r[2], reverse=True)  # stable: ties keep doc id descending
        assert [d for _, d, _ in order] == [d for _, d, _ in rows], query_id


def test_bm25_run_is_what_make_runs_makes():
    pytest.importorskip("snowballstemmer")
    made = _module(DATA / "make_runs.py").render(only="bm25")
    assert list(made) == ["bm25"]
    assert made["bm25"].encode("utf-8") == (DATA / "runs" / "bm25.tsv").read_bytes()


@pytest.mark.parametrize("name", RUNS)
def test_run_reads_with_ragmetrics(name, questions):
    run = read_trec_run(DATA / "runs" / f"{name}.tsv")
    assert len(run) == DEPTH * len(questions)
    assert set(run["query_id"]) == {q["query_id"] for q in questions}
    assert not run.duplicated(["query_id", "doc_id"]).any()


@pytest.mark.parametrize("name", RUNS)
def test_pinned_metrics(name, qrels):
    run = read_trec_run(DATA / "runs" / f"{name}.tsv")
    result = evaluate(run, qrels, list(PINNED[name]))
    assert result.summary.round(4).to_dict() == pytest.approx(PINNED[name], abs=1e-12)


@pytest.mark.parametrize("name", RUNS)
def test_rank_and_score_columns_give_the_same_numbers(name, qrels):
    run = read_trec_run(DATA / "runs" / f"{name}.tsv")
    metrics = ["recall@10", "ndcg@10", "mrr", "map"]
    by_score = evaluate(run.drop(columns=["rank"]), qrels, metrics).per_query
    by_rank = evaluate(run.drop(columns=["score"]), qrels, metrics).per_query
    pd.testing.assert_frame_equal(by_score, by_rank)


def test_the_systems_differ_per_question(qrels):
    """Neither run dominates: the comparison has something to show both ways."""
    ndcg = {}
    for name in RUNS:
        run = read_trec_run(DATA / "runs" / f"{name}.tsv")
        ndcg[name] = evaluate(run, qrels, ["ndcg@10"]).per_query["ndcg@10"]
    diff = ndcg["bm25"] - ndcg["dense_minilm"]
    assert (diff > 0.05).sum() == 16
    assert (diff < -0.05).sum() == 45
    assert diff["q71"] > 0  # "got a document numbered CN-2025-000041, what is it?"
    assert diff["q11"] < 0  # "How do I close my account and stop paying?"
