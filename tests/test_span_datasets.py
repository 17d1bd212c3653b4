"""The span-labelled demo data (``data/squad2_dev/``, ``data/support_demo/``): checked and pinned.

The data parts regenerate byte for byte from their build scripts (the BM25 runs need
``rank-bm25``, a demo-only dependency, and are checked for shape and order instead).
"""

from __future__ import annotations

import csv
import importlib.util
import json
import warnings
from pathlib import Path

import pandas as pd
import pytest

from ragmetrics import InputValueError, load_span_dataset, span_metrics
from ragmetrics.errors import CoverageWarning
from ragmetrics.spans import span_dataset_names, word_pieces
from ragmetrics.spans.tables import as_chunks, as_documents, as_evidence

DATA = Path(__file__).resolve().parents[1] / "data"


def build_module(folder: str, script: str):
    spec = importlib.util.spec_from_file_location(f"build_{folder}", DATA / folder / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def squad():
    return load_span_dataset("squad2_dev")


def test_names():
    assert span_dataset_names() == ("support_demo", "squad2_dev")
    with pytest.raises(InputValueError, match="unknown span data set 'squad'"):
        load_span_dataset("squad")


def test_squad_data_regenerates_byte_for_byte(tmp_path):
    build = build_module("squad2_dev", "build.py")
    build.HERE = tmp_path
    build.write_data(build.build_data())
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert [str(p) for p in written] == [
        "chunkings/paragraph.csv", "chunkings/window128.csv", "chunkings/window256.csv",
        "chunkings/window512.csv", "documents.jsonl", "evidence/answers.csv",
        "evidence/sentences.csv", "questions.jsonl"]
    for path in written:
        assert (tmp_path / path).read_bytes() == (DATA / "squad2_dev" / path).read_bytes(), path


def test_squad_evidence_is_the_annotators(squad):
    source = json.loads((DATA / "squad2_dev" / "source" / "dev-v2.0.json").read_text())
    answers = {q["id"]: {a["text"] for a in q["answers"]}
               for a in source["data"] for p in a["paragraphs"] for q in p["qas"]}
    assert len(answers) == len(squad.questions) == 706
    text = dict(zip(squad.documents["doc_id"], squad.documents["text"], strict=True))
    spans = squad.evidence["answers"]
    answered = spans.dropna(subset=["doc_id"])
    assert len(answered) == 617
    for row in answered.itertuples():
        assert text[row.doc_id][row.start:row.end] in answers[row.query_id]
    unanswerable = set(spans.loc[spans["doc_id"].isna(), "query_id"])
    assert unanswerable == {q for q, a in answers.items() if not a}
    assert len(unanswerable) == 320
    evidence = as_evidence(spans, as_documents(squad.documents))
    assert len(evidence.queries) == 706


def test_squad_sentences_hold_the_answers(squad):
    answers = squad.evidence["answers"].dropna(subset=["doc_id"])
    sentences = squad.evidence["sentences"].dropna(subset=["doc_id"])
    text = dict(zip(squad.documents["doc_id"], squad.documents["text"], strict=True))
    for row in answers.itertuples():
        mine = sentences[sentences["query_id"] == row.query_id]
        covered = set()
        for s in mine.itertuples():
            covered |= set(range(s.start, s.end))
        assert set(range(row.start, row.end)) <= covered, row.query_id
    for s in sentences.itertuples():
        sentence = text[s.doc_id][s.start:s.end]
        assert sentence == sentence.strip()
        assert sentence[-1] in ".!?\"')]" or s.end == len(text[s.doc_id]) or \
            text[s.doc_id][s.end:s.end + 2] == "\n\n", sentence[-40:]


def test_squad_chunkings(squad):
    documents = as_documents(squad.documents)
    for name, frame in squad.chunkings.items():
        chunks = as_chunks(frame, documents)
        assert len(chunks) == {"paragraph": 83, "window128": 124, "window256": 62,
                               "window512": 32}[name]
        if name.startswith("window"):
            size = int(name.removeprefix("window"))
            pieces = [len(word_pieces(documents.text(d)[s:e]))
                      for d, s, e in zip(chunks.doc, chunks.start, chunks.end, strict=True)]
            assert max(pieces) <= size + 2  # re-tokenising a cut piece may add one
            assert sorted(pieces)[len(pieces) // 2] >= size - 2


def test_squad_runs_are_bm25_top_10_in_trec_order(squad):
    for name, run in squad.runs.items():
        assert len(run) == 7060
        assert run.groupby("query_id").size().eq(10).all()
        chunk_ids = set(squad.chunkings[name]["chunk_id"])
        assert set(run["doc_id"]) <= chunk_ids
        for _, block in run.groupby("query_id", sort=False):
            keys = list(zip(block["score"], block["doc_id"], strict=True))
            assert keys == sorted(keys, reverse=True)
            assert block["rank"].tolist() == list(range(1, 11))


def test_squad_numbers(squad):
    # Regression pins, computed once with this data (README's table).
    def mean(chunking, evidence, **options):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CoverageWarning)
            return span_metrics(squad.runs[chunking], squad.chunkings[chunking],
                                squad.evidence[evidence], documents=squad.documents,
                                empty_relevant="skip", **options).mean()

    assert mean("window256", "answers", k=5)["recall"] == pytest.approx(0.9326, abs=5e-5)
    assert mean("paragraph", "sentences", k=1)["precision"] == pytest.approx(0.2073, abs=5e-5)
    sentences = mean("window128", "sentences", k=3)
    assert sentences["iou"] <= min(sentences["recall"], sentences["precision"])


def test_evidence_files_read_as_the_data_model():
    # The loader's frames and the raw files agree (a file path works as input too).
    squad = load_span_dataset("squad2_dev")
    from_file = as_evidence(DATA / "squad2_dev" / "evidence" / "answers.csv")
    from_frame = as_evidence(squad.evidence["answers"])
    assert from_file.queries.tolist() == from_frame.queries.tolist()
    assert pd.Series(from_file.start).tolist() == pd.Series(from_frame.start).tolist()
    with open(DATA / "squad2_dev" / "chunkings" / "window512.csv") as handle:
        assert next(csv.reader(handle)) == ["chunk_id", "doc_id", "start", "end"]
