"""Build the span version of the support demo: whole help-centre pages, evidence spans,
chunkings and BM25 runs.

Run from the repository root (ragmetrics and numpy; nothing else):

    python data/support_demo/build_spans.py               # everything
    python data/support_demo/build_spans.py --only data   # all but the runs

Input: ``corpus.jsonl``, ``questions.jsonl``, ``golden.csv`` and two hand-made tables
of ``source/``. ``corpus.jsonl`` holds the help centre as 302 short articles (48 to 86
words), one chunk each. Re-chunking needs longer documents, so the articles are put back
on the pages they belong to, listed in ``source/pages.csv`` (27 sections: plans, billing,
invoices, taxes, ...; a page holds the corpus's articles from its ``first_article`` up
to the next page's), each page holding its articles in order, an article being its
title, a newline and its text, articles separated by a blank line. Output, deterministic:

- ``documents.jsonl``: the 27 section pages (``doc_id, title, text``);
- ``evidence/sentences.csv``: for every judgment of ``golden.csv`` (289), the
  sentence(s) of the judged article that answer the question (grade 2) or give the
  context a full answer needs (grade 1), chosen by hand (``source/evidence_sentences.csv``:
  question, article, first and last sentence of a span, 0-based, as ``_SENTENCE`` splits
  the article's text) and kept with the judgment's grade; ``article`` names the judged
  article; ``quote`` is the text at the offsets, to check by eye;
- ``chunkings/article.csv``: the original articles as chunks (ids = ``corpus.jsonl``'s
  doc ids, so ``golden.csv`` and the two original runs apply to this chunking as is);
  ``chunkings/window{128,256,512}.csv``: fixed windows of 128, 256 and 512 tokens with a
  quarter of overlap (``ragmetrics.spans.window_chunks``);
- ``runs/bm25_<chunking>.tsv``: BM25 (``data/bm25.py``: k1 = 1.5, b = 0.75,
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

WINDOWS = (128, 256, 512)
DEPTH = 10
# The sentences of an article: split after ., ! or ? before a capital, digit or quote.
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_STOP = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "did", "do", "does", "for",
    "from", "has", "have", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or",
    "our", "that", "the", "these", "this", "those", "to", "was", "we", "were", "what",
    "when", "where", "which", "who", "why", "will", "with", "you", "your",
})


def read_csv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def csv_text(header, rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def sentence_spans(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for match in _SENTENCE.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


def build_data() -> dict:
    with open(HERE / "corpus.jsonl", encoding="utf-8") as lines:
        articles = [json.loads(line) for line in lines]
    starts = {p["first_article"]: p for p in read_csv(HERE / "source" / "pages.csv")}
    assert articles[0]["doc_id"] in starts, "the first article starts a page"
    pages: dict[str, dict] = {}
    where = {}  # article id -> (page id, offset of its text in the page)
    article_chunks = []
    for article in articles:
        if article["doc_id"] in starts:
            start_of = starts.pop(article["doc_id"])
            page = pages[start_of["doc_id"]] = {"doc_id": start_of["doc_id"],
                                                "title": start_of["title"],
                                                "parts": [], "length": 0}
        if page["parts"]:
            page["parts"].append("\n\n")
            page["length"] += 2
        start = page["length"]
        block = f"{article['title']}\n{article['text']}"
        page["parts"].append(block)
        page["length"] += len(block)
        where[article["doc_id"]] = (page["doc_id"], start + len(article["title"]) + 1)
        article_chunks.append((article["doc_id"], page["doc_id"], start, start + len(block)))
    assert not starts, f"pages whose first article is not in the corpus: {sorted(starts)}"
    documents = [{"doc_id": p["doc_id"], "title": p["title"], "text": "".join(p["parts"])}
                 for p in pages.values()]
    texts = {d["doc_id"]: d["text"] for d in documents}
    grades = {(row["query_id"], row["doc_id"]): int(row["relevance"])
              for row in read_csv(HERE / "golden.csv")}
    by_id = {a["doc_id"]: a for a in articles}
    evidence = []
    for pick in read_csv(HERE / "source" / "evidence_sentences.csv"):
        query, article = pick["query_id"], pick["article"]
        page, base = where[article]
        spans = sentence_spans(by_id[article]["text"])
        start, end = spans[int(pick["first"])][0], spans[int(pick["last"])][1]
        quote = by_id[article]["text"][start:end]
        assert texts[page][base + start:base + end] == quote
        evidence.append((query, page, base + start, base + end,
                         grades[query, article], article, quote))
    assert {(e[0], e[5]) for e in evidence} == set(grades), "one span or more per judgment"
    chunkings = {"article": article_chunks}
    for size in WINDOWS:
        windows = window_chunks({d["doc_id"]: d["text"] for d in documents}, size,
                                overlap=size // 4)
        chunkings[f"window{size}"] = list(windows.itertuples(index=False, name=None))
    return {"documents": documents, "evidence": evidence, "chunkings": chunkings}


def write_data(data: dict) -> None:
    (HERE / "documents.jsonl").write_text(
        "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in data["documents"]),
        encoding="utf-8")
    (HERE / "evidence").mkdir(exist_ok=True)
    (HERE / "evidence" / "sentences.csv").write_text(
        csv_text(("query_id", "doc_id", "start", "end", "relevance", "article", "quote"),
                 data["evidence"]), encoding="utf-8")
    (HERE / "chunkings").mkdir(exist_ok=True)
    for name, rows in data["chunkings"].items():
        (HERE / "chunkings" / f"{name}.csv").write_text(
            csv_text(("chunk_id", "doc_id", "start", "end"), rows), encoding="utf-8")


def tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in _STOP]


def render_runs(data: dict) -> dict[str, str]:
    """The BM25 run of each chunking, TREC text by chunking name."""
    texts = {d["doc_id"]: d["text"] for d in data["documents"]}
    with open(HERE / "questions.jsonl", encoding="utf-8") as lines:
        questions = [json.loads(line) for line in lines]
    return chunking_runs(data["chunkings"], texts, questions, tokens, depth=DEPTH)


def write_runs(data: dict) -> None:
    for name, text in render_runs(data).items():
        (HERE / "runs" / f"bm25_{name}.tsv").write_text(text, encoding="utf-8")


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
