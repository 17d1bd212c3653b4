"""Build the SQuAD 2.0 span demo: documents, questions, evidence, chunkings, BM25 runs.

Run from the repository root:

    python data/squad2_dev/build.py               # everything (ragmetrics and numpy)
    python data/squad2_dev/build.py --only data   # all but the runs

Input: ``source/dev-v2.0.json``, two articles of the SQuAD 2.0 development set as the
public copy records them (see README.md). Output, deterministic (same bytes each run):

- ``documents.jsonl``: one document per article, its paragraphs joined by a blank line;
- ``questions.jsonl``: every question of the two articles, answerable or not;
- ``evidence/answers.csv``: each question's distinct answer spans (the crowd workers'),
  offsets into the document; an unanswerable question has a row with its id alone;
- ``evidence/sentences.csv``: the sentence(s) holding each answer span;
- ``chunkings/paragraph.csv``: SQuAD's own paragraphs;
  ``chunkings/window{128,256,512}.csv``: fixed windows of 128, 256 and 512 tokens
  (``ragmetrics.spans.window_chunks``) with a quarter of overlap, over whole articles;
- ``runs/bm25_<chunking>.tsv``: Okapi BM25 (``data/bm25.py``: k1 = 1.5, b = 0.75,
  ``idf="okapi"``, the scores of ``rank_bm25.BM25Okapi`` with its defaults) over each
  chunking, top 10 chunks per question, TREC run format.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
from pathlib import Path

from ragmetrics.spans import window_chunks

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # data/, where the builders' shared bm25.py is
from bm25 import chunking_runs

SOURCE = HERE / "source" / "dev-v2.0.json"
ARTICLES = ("Normans", "Rhine")
WINDOWS = (128, 256, 512)
DEPTH = 10

# Sentence ends: ., ! or ? (and a closing quote or bracket), then whitespace, then an
# upper-case letter, digit or opening quote; not after a one-letter initial or one of
# these abbreviations.
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_ABBREVIATIONS = {"St", "Mr", "Mrs", "Dr", "Jr", "Sr", "c", "ca", "vs", "e.g", "i.e", "No",
                  "Mt", "Ft", "U.S", "A.D", "B.C", "approx", "Co", "Inc", "Ltd", "cf"}
# English function words, left out of BM25's tokens (questions are full of them).
_STOP = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does", "for", "from",
    "has", "have", "how", "in", "is", "it", "its", "of", "on", "or", "that", "the", "these",
    "this", "those", "to", "was", "were", "what", "when", "where", "which", "who", "whom",
    "whose", "why", "will", "with",
})


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def sentences(text: str, base: int) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a paragraph, offsets shifted by ``base``."""
    out, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        before = text[start:match.start()].split()
        last = before[-1] if before else ""
        if (len(last) == 1 and last.isupper()) or last.rstrip(".") in _ABBREVIATIONS:
            continue
        end = match.start() + len(match.group().rstrip())
        out.append((base + start, base + end))
        start = match.end()
    out.append((base + start, base + len(text.rstrip())))
    return out


def csv_text(header, rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def build_data() -> dict:
    raw = json.loads(SOURCE.read_text(encoding="utf-8"))
    articles = {a["title"]: a for a in raw["data"]}
    documents, questions, answers, holding, chunkings = [], [], [], [], {}
    chunkings["paragraph"] = []
    for title in ARTICLES:
        doc_id = slug(title)
        paragraphs = [p["context"] for p in articles[title]["paragraphs"]]
        text = "\n\n".join(paragraphs)
        documents.append({"doc_id": doc_id, "title": title.replace("_", " "), "text": text})
        base = 0
        for number, paragraph in enumerate(articles[title]["paragraphs"]):
            context = paragraph["context"]
            chunkings["paragraph"].append((f"{doc_id}-p{number:02d}", doc_id, base,
                                           base + len(context)))
            sentence_spans = sentences(context, base)
            for qa in paragraph["qas"]:
                questions.append({"query_id": qa["id"], "question": qa["question"],
                                  "doc_id": doc_id, "is_impossible": qa["is_impossible"]})
                spans = sorted({(base + a["answer_start"],
                                 base + a["answer_start"] + len(a["text"]))
                                for a in qa["answers"]})
                for start, end in spans:
                    # The offsets must give back an annotator's answer text.
                    assert any(text[start:end] == a["text"] for a in qa["answers"])
                    answers.append((qa["id"], doc_id, start, end, 1))
                if not spans:
                    answers.append((qa["id"], "", "", "", ""))
                    holding.append((qa["id"], "", "", "", ""))
                    continue
                chosen = sorted({(s, e) for start, end in spans for s, e in sentence_spans
                                 if s < end and start < e})
                holding.extend((qa["id"], doc_id, s, e, 1) for s, e in chosen)
            base += len(context) + 2
        for size in WINDOWS:
            windows = window_chunks({doc_id: text}, size, overlap=size // 4)
            chunkings.setdefault(f"window{size}", []).extend(
                windows.itertuples(index=False, name=None))
    return {"documents": documents, "questions": questions, "answers": answers,
            "sentences": holding, "chunkings": chunkings}


def write_data(data: dict) -> None:
    (HERE / "documents.jsonl").write_text(
        "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in data["documents"]),
        encoding="utf-8")
    (HERE / "questions.jsonl").write_text(
        "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in data["questions"]),
        encoding="utf-8")
    header = ("query_id", "doc_id", "start", "end", "relevance")
    (HERE / "evidence").mkdir(exist_ok=True)
    (HERE / "evidence" / "answers.csv").write_text(csv_text(header, data["answers"]))
    (HERE / "evidence" / "sentences.csv").write_text(csv_text(header, data["sentences"]))
    (HERE / "chunkings").mkdir(exist_ok=True)
    for name, rows in data["chunkings"].items():
        (HERE / "chunkings" / f"{name}.csv").write_text(
            csv_text(("chunk_id", "doc_id", "start", "end"), rows))


def tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in _STOP]


def render_runs(data: dict) -> dict[str, str]:
    """The BM25 run of each chunking, TREC text by chunking name."""
    texts = {d["doc_id"]: d["text"] for d in data["documents"]}
    return chunking_runs(data["chunkings"], texts, data["questions"], tokens, depth=DEPTH)


def write_runs(data: dict) -> None:
    (HERE / "runs").mkdir(exist_ok=True)
    for name, text in render_runs(data).items():
        (HERE / "runs" / f"bm25_{name}.tsv").write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("data", "runs"))
    args = parser.parse_args()
    data = build_data()
    if args.only != "runs":
        write_data(data)
    if args.only != "data":
        write_runs(data)


if __name__ == "__main__":
    main()
