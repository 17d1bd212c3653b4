"""Check the support demo's corpus, questions and judgments, and write its generated pages.

Run from the repository root with any Python 3.11+ (standard library only):

    python data/support_demo/build_dataset.py

The data are the files themselves, written by hand: ``corpus.jsonl`` (the help centre,
302 chunks), ``questions.jsonl`` (72 questions) and ``golden.csv`` (289 judgments); edit
them there. Four families of pages are the exception, filled from one template each, the
way real help centres make per-plan and per-currency pages: ``source/families.json``
holds each family's templates of ``doc_id`` (lowercased once filled), ``title`` and
``text``, and one row of values per page. This script writes those 18 pages into
``corpus.jsonl`` where the corpus has them (a new member goes after its family's last
page), checks the three files, and writes them in one form: text with its whitespace
collapsed to single spaces, one JSON object a line, ``golden.csv`` sorted by question,
then grade (2 first), then doc id. On the committed files it changes no byte.

It also writes the same data in BEIR's layout, ``beir/`` (``corpus.jsonl`` with ``_id,
title, text``, ``queries.jsonl`` with ``_id, text``, and ``qrels/test.tsv`` with its
``query-id corpus-id score`` header), the folder a BEIR or MTEB user would bring
(``ragmetrics.read_dataset("data/support_demo/beir")``; notebook 08).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def read_jsonl(name: str) -> list[dict]:
    with open(HERE / name, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def family_pages(corpus: list[dict]) -> list[dict]:
    """``corpus`` with the pages of ``source/families.json`` filled in from their template."""
    present = {c["doc_id"] for c in corpus}
    filled, after = {}, {}  # doc id -> page; doc id -> new pages that follow it
    families = json.loads((HERE / "source" / "families.json").read_text(encoding="utf-8"))
    for family in families:
        pages = [{key: family[key].format(**values) for key in ("doc_id", "title", "text")}
                 for values in family["rows"]]
        for page in pages:
            page["doc_id"] = page["doc_id"].lower()
        filled.update((page["doc_id"], page) for page in pages)
        last = [page["doc_id"] for page in pages if page["doc_id"] in present][-1:]
        after.setdefault(last[0] if last else None, []).extend(
            page for page in pages if page["doc_id"] not in present)
    out = []
    for chunk in corpus:
        out.append(filled.get(chunk["doc_id"], chunk))
        out.extend(after.get(chunk["doc_id"], []))
    return out + after.get(None, [])


def render() -> dict[str, str]:
    """The three files' contents, by file name; checks the data on the way."""
    corpus = [{"doc_id": c["doc_id"], "title": c["title"], "text": " ".join(c["text"].split())}
              for c in family_pages(read_jsonl("corpus.jsonl"))]
    ids = {c["doc_id"] for c in corpus}
    assert len(ids) == len(corpus), "duplicate doc_id"
    for c in corpus:
        assert 40 <= len(c["text"].split()) <= 120, (c["doc_id"], "40 to 120 words")
    questions = read_jsonl("questions.jsonl")
    order = {q["query_id"]: i for i, q in enumerate(questions)}
    for i, q in enumerate(questions, 1):
        assert q["query_id"] == f"q{i:02d}", (q["query_id"], f"expected q{i:02d}")
    with open(HERE / "golden.csv", encoding="utf-8", newline="") as handle:
        judgments = [(r["query_id"], r["doc_id"], int(r["relevance"]))
                     for r in csv.DictReader(handle)]
    assert len({j[:2] for j in judgments}) == len(judgments), "a pair is judged twice"
    for query_id, doc_id, grade in judgments:
        assert query_id in order, (query_id, "not in questions.jsonl")
        assert doc_id in ids, (query_id, doc_id, "not in corpus.jsonl")
        assert grade in (1, 2), (query_id, doc_id, grade)
    assert {j[0] for j in judgments if j[2] == 2} == set(order), "a grade 2 for every question"
    judgments.sort(key=lambda j: (order[j[0]], -j[2], j[1]))
    golden = io.StringIO()
    out = csv.writer(golden, lineterminator="\n")
    out.writerow(["query_id", "doc_id", "relevance"])
    out.writerows(judgments)
    return {
        **beir_layout(corpus, questions, judgments),
        "corpus.jsonl": "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in corpus),
        "questions.jsonl": "".join(
            json.dumps({"query_id": q["query_id"], "question": q["question"]},
                       ensure_ascii=False) + "\n" for q in questions),
        "golden.csv": golden.getvalue(),
    }


def beir_layout(corpus: list[dict], questions: list[dict],
                judgments: list[tuple[str, str, int]]) -> dict[str, str]:
    """The data set as a BEIR folder (``beir/``): its three files' contents, by path."""
    def lines(rows):
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)

    qrels = "".join(f"{q}\t{d}\t{g}\n" for q, d, g in judgments)
    return {
        "beir/corpus.jsonl": lines({"_id": c["doc_id"], "title": c["title"], "text": c["text"]}
                                   for c in corpus),
        "beir/queries.jsonl": lines({"_id": q["query_id"], "text": q["question"]}
                                    for q in questions),
        "beir/qrels/test.tsv": "query-id\tcorpus-id\tscore\n" + qrels,
    }


def main() -> None:
    texts = render()
    for name, text in texts.items():
        (HERE / name).parent.mkdir(parents=True, exist_ok=True)
        (HERE / name).write_bytes(text.encode("utf-8"))
    print(f"{texts['corpus.jsonl'].count(chr(10))} chunks, "
          f"{texts['questions.jsonl'].count(chr(10))} questions, "
          f"{texts['golden.csv'].count(chr(10)) - 1} judgments")


if __name__ == "__main__":
    main()
