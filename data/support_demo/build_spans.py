"""Build the span version of the support demo: whole help-centre pages, evidence spans,
chunkings and BM25 runs.

Run from the repository root:

    python data/support_demo/build_spans.py --only data    # ragmetrics alone
    .venv-demo/bin/python data/support_demo/build_spans.py  # + the BM25 runs (rank-bm25)

``corpus.jsonl`` holds the help centre as 302 short articles (48 to 86 words), one chunk
each. Re-chunking needs longer documents, so the articles are put back on the pages they
belong to: the 27 sections of ``build_dataset.py`` (plans, billing, invoices, taxes, ...),
each page holding its articles in order, an article being its title, a newline and its
text, articles separated by a blank line. Output, deterministic:

- ``documents.jsonl``: the 27 section pages (``doc_id, title, text``);
- ``evidence/sentences.csv``: for every judgment of ``golden.csv`` (289), the
  sentence(s) of the judged article that answer the question (grade 2) or give the
  context a full answer needs (grade 1), chosen by hand (``SELECTED`` below) and kept
  with the judgment's grade; ``article`` names the judged article;
- ``chunkings/article.csv``: the original articles as chunks (ids = ``corpus.jsonl``'s
  doc ids, so ``golden.csv`` and the two original runs apply to this chunking as is);
  ``chunkings/window{128,256,512}.csv``: fixed windows of 128, 256 and 512 tokens with a
  quarter of overlap (``ragmetrics.spans.window_chunks``);
- ``runs/bm25_<chunking>.tsv``: BM25 (``rank_bm25.BM25Okapi``, its defaults) over each
  chunking, top 10 chunks per question, TREC run format.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from pathlib import Path

from ragmetrics.spans import window_chunks

HERE = Path(__file__).resolve().parent
WINDOWS = (128, 256, 512)
DEPTH = 10
_SECTION = re.compile(r"^# -+ (.+)$")
_DOC = re.compile(r'^\s*doc\((f?)"([^"]+)"')
# The sentences of an article: split after ., ! or ? before a capital, digit or quote.
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_STOP = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "did", "do", "does", "for",
    "from", "has", "have", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or",
    "our", "that", "the", "these", "this", "those", "to", "was", "we", "were", "what",
    "when", "where", "which", "who", "why", "will", "with", "you", "your",
})

# query_id, judged article, sentences (0-based, as _SENTENCE splits the article's text):
# "0-2" is sentences 0 to 2 as one span, "0,2" two spans. Read with the question and
# every judged article side by side, then checked once more against the quotes written
# to evidence/sentences.csv.
SELECTED = """
q01 refund-forgot-cancel 0
q01 refund-policy-current 2
q01 cancel-how 4
q01 faq-refunds 0-1
q01 refund-annual-after-window 0,2
q01 refund-how-to-request 0-1
q01 refund-timing 0-1
q02 sec-2fa-enable 1-2
q02 faq-security 0-1
q02 sec-2fa-methods 0
q02 sec-backup-codes 0
q03 api-429 0-1
q03 api-daily-quota 0-1
q03 api-errors 1
q03 api-limit-increase 0
q03 api-limits-business 3
q03 api-limits-enterprise 3
q03 api-limits-free 3
q03 api-limits-starter 3
q03 api-limits-team 3
q04 sec-2fa-lost-phone 0-2
q04 sec-2fa-recovery 0-2
q04 sec-2fa-admin-reset 0-1
q04 sec-backup-codes 1
q04 support-contact-locked-out 0,2
q05 invoices-edit-details 2
q05 account-receipts-expense 1
q05 account-workspace-name 3
q05 invoices-vat-missing-past 1
q06 discount-student 0-2
q06 discount-combine 1
q06 discount-education 0
q06 discount-student-expired 0
q06 discount-student-verify-fail 0
q07 discount-nonprofit 0-1
q07 discount-combine 1
q07 tax-exempt-nonprofit-eu 3
q08 billing-reverse-charge 0-1
q08 tax-eu 1
q08 invoices-add-vat-id 2
q08 tax-overview 2
q09 sla-credits-business 0-1
q09 sla-credits-enterprise 0-1
q09 sla-overview 1-2
q09 faq-refunds 6-7
q09 plans-business 2
q09 plans-enterprise 1
q09 sla-claim-credit 0-1
q09 sla-downtime-definition 0
q09 sla-team-faq 1
q10 refund-outage-credit 0-2
q10 sla-claim-credit 0-2
q10 faq-refunds 6-7
q10 sla-credits-business 1
q10 sla-credits-enterprise 1
q10 sla-overview 2
q11 cancel-how 0-1
q11 cancel-vs-delete 0,2
q11 account-delete 0
q11 cancel-app-store 0-2
q11 cancel-delete-workspace 0
q11 cancel-what-happens 0
q12 cancel-what-happens 0-2,4
q12 plans-downgrade-free 0-2
q12 cancel-how 3
q12 cancel-vs-delete 0
q12 export-after-cancel 0
q12 plans-downgrade 2
q13 export-migrate 0-1
q13 export-workspace 0-2
q13 cancel-vs-delete 2
q13 export-after-cancel 0
q13 export-limits 0-2
q13 export-single-folder 1
q14 faq-trial 0-3
q14 trial-how 0-1
q14 cancel-trial 0
q14 trial-end 0-1
q15 trial-charged 0-2
q15 trial-end 0
q15 cancel-trial 1
q15 refund-how-to-request 0
q15 refund-policy-current 1
q16 trial-extend 0-2
q16 faq-trial 9
q16 trial-how 0
q17 seats-add 1-2
q17 seats-invite 0,2
q17 billing-seat-change-annual 0
q17 plans-overview 2
q17 plans-team 0
q17 seats-proration-example 0-2
q18 refund-seats-removed 0-2
q18 seats-remove 0-2
q18 billing-seat-change-annual 1
q18 seats-remove-member 3
q19 seats-guests 0-3
q19 seats-roles 5
q19 share-external-restrict 0
q19 share-invite-people 2
q19 share-links 1
q20 seats-scim 0-3
q20 seats-sso-jit 0
q20 sec-sso-saml 3
q21 seats-transfer-ownership 0-2
q21 account-delete 1
q21 cancel-owner-left 0
q21 seats-roles 1
q22 invoices-find 0-1
q22 account-receipts-expense 0
q22 billing-admin-role 0
q22 invoices-receipt-vs-invoice 3
q22 invoices-resend 0
q23 billing-invoice-pay 0-2
q23 billing-payment-methods 1-2
q23 billing-wire-details 0-1
q24 billing-card-declined 0-2
q24 billing-address-change 3
q24 billing-failed-payment 0
q24 billing-update-card 3
q24 invoices-past-due 1
q25 billing-failed-payment 0-3
q25 billing-card-declined 2
q25 invoices-past-due 2
q26 billing-double-charge 0-2
q26 billing-unexpected-charge 0-1
q26 billing-update-card 1
q27 plans-business 0
q27 discount-annual 0
q27 plans-overview 2-3
q27 prices-aud 0-1
q27 prices-cad 0-1
q27 prices-eur 0-1
q27 prices-gbp 0-1
q27 prices-jpy 0-1
q27 prices-usd 0-1
q28 plans-compare-storage 2
q28 plans-team 1
q28 storage-file-size 0
q28 api-uploads 1
q29 storage-trash 0-1
q29 plans-compare-history 1
q29 privacy-retention 0
q29 storage-ransomware 0
q30 storage-ransomware 0-3
q30 storage-version-history 0-2
q31 privacy-data-residency 0-2
q31 faq-data 0-1
q31 plans-business 2
q31 privacy-data-residency-move 0
q31 privacy-transfers 2
q32 privacy-dpa 0-1
q32 privacy-dpa-free 1-3
q32 faq-data 8-9
q32 privacy-gdpr-overview 0
q32 privacy-transfers 0-1
q33 privacy-subprocessors 0-3
q34 privacy-hipaa 0-2
q34 plans-enterprise 1
q35 privacy-dsar 2-3
q35 privacy-gdpr-overview 0
q35 privacy-retention 1
q36 plans-compare-history 1
q36 privacy-retention 0-1
q36 storage-trash 0,2
q36 cancel-delete-workspace 3
q36 faq-data 6-7
q36 privacy-account-data-after-deletion 2
q37 outage-status-page 0-2
q37 outage-cant-sign-in 0
q37 outage-status-subscribe 0
q37 outage-updates 0
q38 outage-maintenance 0-2
q38 sla-credits-business 3
q38 sla-credits-enterprise 3
q38 sla-downtime-definition 1
q39 api-limit-increase 0
q39 api-limits-business 0-1
q39 plans-business 2
q39 api-429 0
q40 api-429 0-3
q40 int-zapier 1
q40 api-daily-quota 0-1
q40 api-limit-increase 0,2
q40 api-limits-business 0-1
q40 api-limits-enterprise 0-1
q40 api-limits-free 0-1
q40 api-limits-starter 0-1
q40 api-limits-team 0-1
q41 api-v1-sunset 0-1
q41 api-changelog 1
q41 api-v1-keys 2
q42 api-webhook-retries 0-2
q42 api-webhooks 2
q43 api-token-rotation 0,2
q43 api-tokens 1
q43 api-v1-keys 1-3
q43 faq-api 4-5
q44 sec-2fa-sms-retirement 0-2
q44 faq-security 2-3
q44 sec-2fa-methods 2
q44 sec-2fa-sms-2022 4
q45 sec-2fa-enforce 0-3
q45 faq-security 0-1
q45 plans-team 2
q45 sec-2fa-enable 1
q46 sec-sso-saml 0-1,3
q46 seats-scim 1
q46 seats-sso-jit 0
q46 sec-sso-enforce 0
q47 sec-sso-certificate 1-2
q47 sec-sso-errors 1
q47 sec-owner-recovery 0,2
q47 sec-sso-saml 1
q48 account-locked 0-1
q48 account-forgot-password 0-1
q48 support-contact-locked-out 0
q49 account-change-email 0-3
q49 faq-accounts 2-3
q50 sec-login-alerts 0-1
q50 sec-suspicious-activity 0-3
q50 account-change-password 2
q50 account-locked 2
q50 account-sessions 0-1
q51 tax-us 0-1
q51 tax-overview 0
q51 tax-us-exemption 0
q52 tax-us-exemption 0-3
q52 discount-education 0
q52 tax-us 0
q53 tax-australia 0-2
q53 billing-reverse-charge 0-1
q53 invoices-add-vat-id 0,2
q53 tax-overview 2
q54 tax-canada 0-1
q54 prices-cad 2
q54 tax-overview 0-1
q55 prices-eur 0-2
q55 billing-currency 0
q55 tax-eu 2
q56 billing-currency 1-2
q56 billing-address-change 2
q56 prices-gbp 4
q57 refund-eu-withdrawal 0-2
q57 refund-policy-current 1
q57 refund-how-to-request 0
q58 refund-app-store 0-1
q58 billing-app-store 0-1
q58 cancel-app-store 1
q59 cancel-app-store 2-3
q59 billing-app-store 0-1
q60 discount-startup 0-2
q60 discount-combine 1
q61 discount-combine 1-2
q61 discount-promo-code 2
q62 plans-price-change-2024 0-4
q62 discount-student-expired 2
q62 plans-legacy-pro 1,4
q63 apps-sync-stuck 0-2
q63 outage-status-page 0
q63 storage-blocked-files 0
q63 storage-full 0
q64 storage-add-on 0-2
q64 storage-full 1-2
q64 storage-what-counts 0
q65 privacy-support-access 0-3
q65 faq-security 6-7
q65 sec-encryption 2
q66 privacy-ai 1-2
q66 faq-data 4-5
q67 refund-outage-credit 2
q67 sla-overview 3
q67 sla-team-faq 0-1,3
q67 faq-refunds 6-7
q67 sla-2022 3
q68 ent-cancel 0-3
q68 ent-billing 0
q69 ent-true-up 0-2
q69 ent-billing 2
q70 sec-compliance-reports 0-1
q70 ent-procurement 2
q71 invoices-numbering 1
q71 invoices-edit-details 2
q71 invoices-vat-missing-past 1
q72 tax-india 0-1
q72 billing-reverse-charge 0-1
q72 invoices-add-vat-id 0,2
q72 refund-india 2
q72 tax-overview 2
"""


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.split(" (")[0].lower()).strip("-")


def sections(article_ids) -> dict[str, str]:
    """Article id -> the section of build_dataset.py that writes it.

    A page filled from a template (``doc(f"api-limits-{_tier.lower()}", ...)``) matches
    the template with its ``{...}`` part as a wildcard.
    """
    section, exact, templates = None, {}, []
    for line in (HERE / "build_dataset.py").read_text(encoding="utf-8").splitlines():
        if match := _SECTION.match(line):
            section = match.group(1)
        elif (match := _DOC.match(line)) and section is not None:
            if match.group(1):
                pieces = re.split(r"\{[^}]*\}", match.group(2))
                pattern = "[a-z]+".join(re.escape(p) for p in pieces)
                templates.append((re.compile(pattern + "$"), section))
            else:
                exact[match.group(2)] = section
    out = {}
    for article in article_ids:
        if article in exact:
            out[article] = exact[article]
        else:
            out[article] = next(s for pattern, s in templates if pattern.match(article))
    return out


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
    section_of = sections([a["doc_id"] for a in articles])
    pages: dict[str, dict] = {}
    where = {}  # article id -> (page id, offset of its text in the page)
    article_chunks = []
    for article in articles:
        name = section_of[article["doc_id"]]
        title = name.split(" (")[0]
        page = pages.setdefault(slug(name), {"doc_id": slug(name),
                                             "title": title[0].upper() + title[1:],
                                             "parts": [], "length": 0})
        if page["parts"]:
            page["parts"].append("\n\n")
            page["length"] += 2
        start = page["length"]
        block = f"{article['title']}\n{article['text']}"
        page["parts"].append(block)
        page["length"] += len(block)
        where[article["doc_id"]] = (page["doc_id"], start + len(article["title"]) + 1)
        article_chunks.append((article["doc_id"], page["doc_id"], start, start + len(block)))
    documents = [{"doc_id": p["doc_id"], "title": p["title"], "text": "".join(p["parts"])}
                 for p in pages.values()]
    texts = {d["doc_id"]: d["text"] for d in documents}
    grades = {}
    with open(HERE / "golden.csv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            grades[row["query_id"], row["doc_id"]] = int(row["relevance"])
    by_id = {a["doc_id"]: a for a in articles}
    evidence = []
    for line in SELECTED.strip().splitlines():
        query, article, picks = line.split()
        page, base = where[article]
        spans = sentence_spans(by_id[article]["text"])
        for part in picks.split(","):
            first, _, last = part.partition("-")
            start, end = spans[int(first)][0], spans[int(last or first)][1]
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


def write_runs(data: dict) -> None:
    from rank_bm25 import BM25Okapi  # the demo's own dependency, not ragmetrics'

    texts = {d["doc_id"]: d["text"] for d in data["documents"]}
    with open(HERE / "questions.jsonl", encoding="utf-8") as lines:
        questions = [json.loads(line) for line in lines]
    for name, rows in data["chunkings"].items():
        ids = [r[0] for r in rows]
        model = BM25Okapi([tokens(texts[doc][s:e]) for _, doc, s, e in rows])
        lines = []
        for q in questions:
            scores = model.get_scores(tokens(q["question"]))
            # Score (6 decimals) descending, then chunk id descending: trec_eval's order.
            ranked = sorted(zip((round(float(v), 6) for v in scores), ids, strict=True),
                            reverse=True)[:DEPTH]
            lines.extend(f"{q['query_id']} Q0 {cid} {rank} {score:.6f} bm25\n"
                         for rank, (score, cid) in enumerate(ranked, start=1))
        (HERE / "runs" / f"bm25_{name}.tsv").write_text("".join(lines), encoding="utf-8")


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
