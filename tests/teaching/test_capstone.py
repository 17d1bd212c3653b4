"""Notebook 13's key numbers, recomputed here from the data files, apart from the notebook.

Each test computes a number the capstone prints (the fusion of two rankings, the split of
the questions, the held-out nDCG@10 of the dense run, how often SQuAD's answer is inside the
600-token context, RAGAS' context precision against AP) with plain Python over the raw
files, and checks it against the notebook's stored outputs, which nbval in turn checks
against a fresh run. A change to the data, the notebook or the library that moves one of
them fails here with both values named.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from ragmetrics import average_precision, word_pieces

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "13_capstone_change_the_retriever.ipynb"
DEMO = ROOT / "data" / "support_demo"
SQUAD = ROOT / "data" / "squad2_dev"
BUDGET = 600


@pytest.fixture(scope="module")
def outputs() -> str:
    """Every stored text output of the notebook, joined."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            texts.append(out.get("text", "") or out.get("data", {}).get("text/plain", ""))
    return "\n".join(texts)


def rrf(rankings, k=60):
    """Reciprocal rank fusion in exact fractions: each id scores sum 1/(k + rank)."""
    scores = defaultdict(Fraction)
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] += Fraction(1, k + rank)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def test_rrf_of_two_known_rankings(outputs):
    fused = rrf([["a", "b", "c"], ["c", "a", "d"]])
    assert [doc for doc, _ in fused] == ["a", "c", "b", "d"]
    assert dict(fused)["a"] == Fraction(1, 61) + Fraction(1, 62)
    line = "fused: " + ", ".join(f"{doc} {float(value):.6f}" for doc, value in fused)
    assert line in outputs


def test_rrf_constant_trades_the_top_rank_against_agreement():
    # A first place alone loses to two second places at k = 60, and wins at k = 0.
    alone, both = ["x", "y"], ["z", "y"]
    assert next(doc for doc, _ in rrf([alone, both], k=60)) == "y"
    assert rrf([alone, both], k=0)[0][1] == rrf([alone, both], k=0)[1][1] == 1
    assert dict(rrf([alone, both], k=0))["y"] == 1


def _judgments():
    with open(DEMO / "beir" / "qrels" / "test.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    grades = defaultdict(dict)
    for row in rows:
        grades[row["query-id"]][row["corpus-id"]] = int(row["score"])
    return grades


def test_the_held_out_split(outputs):
    with open(DEMO / "beir" / "queries.jsonl", encoding="utf-8") as handle:
        ids = [json.loads(line)["_id"] for line in handle]
    tuning = [q for q in ids if int(q[1:]) % 2 == 1]
    held = [q for q in ids if int(q[1:]) % 2 == 0]
    grades = _judgments()
    judged = {name: sum(len(grades[q]) for q in part)
              for name, part in (("tuning", tuning), ("held", held))}
    assert len(tuning) == len(held) == 36
    assert not set(tuning) & set(held)
    assert judged["tuning"] + judged["held"] == 289
    assert (f"72 questions: tuning 36 ({tuning[0]}, {tuning[1]}, ...; {judged['tuning']} "
            f"judgments), held out 36 ({held[0]}, {held[1]}, ...; {judged['held']} judgments)"
            ) in outputs


def test_the_dense_runs_held_out_ndcg(outputs):
    grades = _judgments()
    ranked = defaultdict(list)
    with open(DEMO / "runs" / "dense_minilm.tsv", encoding="utf-8") as handle:
        for line in handle:
            query, _, doc, rank, _score, _name = line.split()
            ranked[query].append((int(rank), doc))
    values = []
    for query in sorted(grades):
        if int(query[1:]) % 2:
            continue
        top = [doc for _, doc in sorted(ranked[query])[:10]]
        dcg = sum(grades[query].get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(top))
        best = sorted(grades[query].values(), reverse=True)[:10]
        values.append(dcg / sum(g / math.log2(i + 2) for i, g in enumerate(best)))
    assert len(values) == 36
    assert f"dense, held-out nDCG@10 by hand: {sum(values) / 36:.4f} over 36 questions" in outputs
    # the table of the tuning and held-out halves shows the same mean
    assert re.search(rf"^dense\s+\d\.\d{{4}}\s+{sum(values) / 36:.4f}$", outputs, re.MULTILINE)


def _squad_contexts(chunking):
    """Per answerable question: (answer strings, answer spans, the chunks kept in 600 tokens)."""
    with open(SQUAD / "documents.jsonl", encoding="utf-8") as handle:
        text = {doc["doc_id"]: doc["text"] for doc in map(json.loads, handle)}
    with open(SQUAD / "chunkings" / f"{chunking}.csv", encoding="utf-8") as handle:
        chunks = {row["chunk_id"]: (row["doc_id"], int(row["start"]), int(row["end"]))
                  for row in csv.DictReader(handle)}
    spans = defaultdict(list)
    with open(SQUAD / "evidence" / "answers.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["doc_id"]:
                spans[row["query_id"]].append((row["doc_id"], int(row["start"]), int(row["end"])))
    ranked = defaultdict(list)
    with open(SQUAD / "runs" / f"bm25_{chunking}.tsv", encoding="utf-8") as handle:
        for line in handle:
            query, _, chunk, rank, _score, _name = line.split()
            ranked[query].append((int(rank), chunk))
    contexts = {}
    for query, answer_spans in spans.items():
        used, kept = 0, []
        for _, chunk in sorted(ranked[query]):
            doc, start, end = chunks[chunk]
            size = len(word_pieces(text[doc][start:end]))
            if used + size > BUDGET:
                break
            used += size
            kept.append(chunks[chunk])
        answers = {text[doc][start:end] for doc, start, end in answer_spans}
        contexts[query] = (answers, answer_spans, [(d, s, e, text[d][s:e]) for d, s, e in kept])
    return contexts


def test_squad_answer_present_within_the_budget(outputs):
    contexts = _squad_contexts("window256")
    present = relevant_kept = cut = elsewhere = 0
    for answers, spans, kept in contexts.values():
        found = any(answer in chunk for answer in answers for *_, chunk in kept)
        overlaps = any(doc == d and start < e and s < end
                       for doc, start, end in spans for d, s, e, _ in kept)
        present += found
        relevant_kept += overlaps
        cut += overlaps and not found
        elsewhere += found and not overlaps
    assert len(contexts) == 386
    assert (f"window256: answer present for {present / len(contexts):.4f} of "
            f"{len(contexts)} questions") in outputs
    row = re.search(r"^a relevant chunk kept\s+(\d+)\s+(\d+)\s+(\d+)$", outputs, re.MULTILINE)
    assert row
    assert tuple(map(int, row.groups())) == (cut, relevant_kept - cut, relevant_kept)
    row = re.search(r"^no relevant chunk kept\s+(\d+)\s+(\d+)\s+(\d+)$", outputs, re.MULTILINE)
    assert row
    assert int(row.group(2)) == elsewhere
    assert (cut, elsewhere) == (1, 11)  # the counts the notebook's text names


def test_ragas_context_precision_is_ap_over_the_relevant_retrieved(outputs):
    verdicts = [1, 0, 1, 0]
    precision_at = [Fraction(sum(verdicts[: i + 1]), i + 1) for i in range(len(verdicts))]
    context_precision = sum(p * v for p, v in zip(precision_at, verdicts, strict=True)) / 2
    assert context_precision == Fraction(5, 6)
    ap = average_precision(["c1", "c2", "c3", "c4"], {"c1", "c3", "c9"})
    assert math.isclose(ap, 5 / 9)
    assert (f"context precision {float(context_precision):.4f} = (1/1 + 2/3) / 2; "
            f"AP {ap:.4f} = (1/1 + 2/3) / 3") in outputs
