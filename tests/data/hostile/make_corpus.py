"""Write the hostile-input corpus of tests/unit/cli/test_reliability.py (run from anywhere).

Every file is small and made here, by hand-written rules, so that each bad line sits at a
known line number. Re-running this script rewrites the same bytes (the Parquet files
too: pyarrow writes no timestamp). The expected outcome of each file is in the test
module, next to the command that reads it.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).parent

# The valid base: three queries, each with two relevant docs.
GOLDEN_CSV = "query_id,doc_id,relevance\nq1,d1,1\nq1,d2,2\nq2,d3,1\nq2,d4,1\nq3,d5,1\nq3,d6,1\n"
QRELS = "q1 0 d1 1\nq1 0 d2 2\nq1 0 d9 0\nq2 0 d3 1\nq2 0 d4 1\nq3 0 d5 1\nq3 0 d6 1\n"
RUN_LINES = [
    "q1 Q0 d1 1 9.0 bm25", "q1 Q0 d7 2 8.0 bm25", "q1 Q0 d2 3 7.0 bm25",
    "q2 Q0 d8 1 9.0 bm25", "q2 Q0 d3 2 8.0 bm25", "q2 Q0 d4 3 7.0 bm25",
    "q3 Q0 d5 1 9.0 bm25", "q3 Q0 d0 2 8.0 bm25", "q3 Q0 d6 3 7.0 bm25",
]
RUN = "\n".join(RUN_LINES) + "\n"
LONG_ID = "x" * 4_000_000
DOCUMENT = "Refunds are issued within 30 days. Contact support for help."
RUN_CSV = "query_id,doc_id,score\n" + "".join(
    f"{q},{d},{s}\n" for q, _, d, _, s, _ in (line.split() for line in RUN_LINES)
)


def with_line(lines: list[str], number: int, text: str) -> str:
    """The lines with line ``number`` (1-based) replaced by ``text``."""
    lines = list(lines)
    lines[number - 1] = text
    return "\n".join(lines) + "\n"


TEXT_FILES: dict[str, str | bytes] = {
    # -- valid bases --
    "golden.csv": GOLDEN_CSV,
    "qrels.txt": QRELS,
    "run.txt": RUN,
    "run.csv": RUN_CSV,
    # A second system: better than run.txt on q2 (d3 first), worse on q1 (d1 second),
    # the same on q3, so that its mean reciprocal-rank difference is exactly 0.
    "run_b.txt": "".join(f"{line}\n" for line in (
        "q1 Q0 d7 1 9.0 dense", "q1 Q0 d1 2 8.0 dense", "q1 Q0 d2 3 7.0 dense",
        "q2 Q0 d3 1 9.0 dense", "q2 Q0 d8 2 8.0 dense", "q2 Q0 d4 3 7.0 dense",
        "q3 Q0 d5 1 9.0 dense", "q3 Q0 d0 2 8.0 dense", "q3 Q0 d6 3 7.0 dense",
    )),
    # -- TREC runs --
    "run_space_in_id.txt": with_line(RUN_LINES, 2, "q1 Q0 chunk 7 2 8.0 bm25"),
    "run_5_fields.txt": with_line(RUN_LINES, 3, "q1 Q0 d2 3 bm25"),
    "run_rank_word.txt": with_line(RUN_LINES, 4, "q2 Q0 d8 first 9.0 bm25"),
    "run_score_word.txt": with_line(RUN_LINES, 5, "q2 Q0 d3 2 high bm25"),
    "run_score_nan.txt": with_line(RUN_LINES, 6, "q2 Q0 d4 3 nan bm25"),
    "run_score_inf.txt": with_line(RUN_LINES, 7, "q3 Q0 d5 1 inf bm25"),
    "run_score_overflow.txt": with_line(RUN_LINES, 8, "q3 Q0 d0 2 1e999 bm25"),
    "run_decimal_comma.txt": with_line(RUN_LINES, 9, "q3 Q0 d6 3 7,0 bm25"),
    "run_rank_float.txt": with_line(RUN_LINES, 1, "q1 Q0 d1 1.0 9.0 bm25"),
    "run_rank_huge.txt": with_line(RUN_LINES, 2, "q1 Q0 d7 9223372036854775808 8.0 bm25"),
    "run_latin1.txt": RUN.encode() + b"q3 Q0 caf\xe9 4 6.0 bm25\n",
    "run_utf16.txt": RUN.encode("utf-16"),
    "run_empty.txt": "",
    "run_blank.txt": "\n   \n\t\n",
    "run_duplicate_doc.txt": RUN + "q1 Q0 d7 4 6.0 bm25\n",
    "run_old_mac.txt": "\r".join([*RUN_LINES[:2], "q1 Q0 d2 x 7.0 bm25", *RUN_LINES[3:]]) + "\r",
    "run_bom_bad.txt": "\ufeff" + with_line(RUN_LINES, 2, "q1 Q0 d7 2"),
    "run_ansi_id.txt": with_line(RUN_LINES, 3, "q1 Q0 \x1b[2J\x1b[31mred 3 oops bm25"),
    "run_bidi_id.txt": with_line(RUN_LINES, 3, "q1 Q0 d2\u202e 3x 7.0 bm25"),
    "run_other_queries.txt": RUN.replace("q1", "Q1").replace("q2", "Q2").replace("q3", "Q3"),
    "run_extra_field_late.txt": with_line(RUN_LINES, 8, "q3 Q0 d0 2 8.0 bm25 junk"),
    "results.html": RUN,  # a TREC run whose name looks like a report
    # -- TREC qrels --
    "qrels_3_fields.txt": QRELS.replace("q2 0 d3 1\n", "q2 0 d3\n"),
    "qrels_5_fields.txt": QRELS.replace("q2 0 d3 1\n", "q2 0 doc 3 1\n"),
    "qrels_grade_float.txt": QRELS.replace("q2 0 d4 1\n", "q2 0 d4 1.5\n"),
    "qrels_grade_word.txt": QRELS.replace("q3 0 d5 1\n", "q3 0 d5 yes\n"),
    "qrels_duplicate.txt": QRELS + "q1 0 d2 1\n",
    "qrels_latin1.txt": QRELS.encode() + b"q3 0 \xe9t\xe9 1\n",
    "qrels_grade_huge.txt": QRELS.replace("q3 0 d6 1\n", "q3 0 d6 99999999999999999999\n"),
    "qrels_crlf_bad.txt": QRELS.replace("\n", "\r\n").replace("q2 0 d4 1", "q2 0 d4 one"),
    "qrels_exponential_overflow.txt": QRELS.replace("q1 0 d2 2\n", "q1 0 d2 1024\n"),
    # -- CSV and TSV --
    "golden_missing_column.csv": "query_id,chunk\nq1,d1\n",
    "golden_no_query_id.csv": "qid,doc_id\nq1,d1\n",
    "golden_empty_id.csv": GOLDEN_CSV.replace("q2,d4,1", "q2,,1"),
    "golden_padded_id.csv": GOLDEN_CSV.replace("q2,d4,1", "q2, d4,1"),
    "golden_grade_half.csv": GOLDEN_CSV.replace("q3,d5,1", "q3,d5,0.5"),
    "golden_grade_word.csv": GOLDEN_CSV.replace("q3,d6,1", "q3,d6,high"),
    "golden_extra_field.csv": GOLDEN_CSV.replace("q2,d3,1", "q2,d3,1,x"),
    "golden_unterminated_quote.csv": GOLDEN_CSV + 'q3,"d7,1\n',
    "golden_repeated_header.csv": "query_id,doc_id,doc_id\nq1,d1,d2\n",
    "golden_both_forms.csv": "query_id,doc_id,relevant_ids\nq1,d1,d1\n",
    "golden_wide_relevance.csv": "query_id,relevant_ids,relevance\nq1,d1|d2,1\n",
    "golden_wide_two_rows.csv": "query_id,relevant_ids\nq1,d1|d2\nq2,d3\nq1,d9\n",
    "golden_wide_empty_id.csv": "query_id,relevant_ids\nq1,d1||d2\n",
    "golden_wide_mixed_separators.csv": "query_id,relevant_ids\nq1,d1|d2;d3\n",
    "golden_wide_bad_json.csv": 'query_id,relevant_ids\nq1,"[""d1"", ""d2"""\n',
    "golden_duplicate.csv": GOLDEN_CSV + "q1,d1,2\n",
    "golden_header_only.csv": "query_id,doc_id\n",
    "golden_utf16.csv": GOLDEN_CSV.encode("utf-16"),
    "results_no_order.csv": "query_id,doc_id\nq1,d1\n",
    "results_score_nan.csv": RUN_CSV.replace("q2,d3,8.0", "q2,d3,NaN"),
    "results_score_empty.csv": RUN_CSV.replace("q2,d3,8.0", "q2,d3,"),
    "results_wide_score.csv": "query_id,retrieved_ids,score\nq1,d1|d2,1\n",
    "results_missing_field.tsv": "query_id\tdoc_id\tscore\nq1\td1\t1\nq1\td2\n",
    "golden_html.csv": GOLDEN_CSV.replace("q2,", "<img src=x onerror=alert(1)>,"),
    "run_html.csv": RUN_CSV.replace("q2,", "<img src=x onerror=alert(1)>,"),
    "golden_formula.csv": GOLDEN_CSV.replace("q3,", "\"=HYPERLINK(\"\"http://x\"\")\","),
    "run_formula.csv": RUN_CSV.replace("q3,", "\"=HYPERLINK(\"\"http://x\"\")\","),
    "golden_ansi.csv": GOLDEN_CSV.replace("q1,", "q1\x1b[2J,"),
    "run_ansi.csv": RUN_CSV.replace("q1,", "q1\x1b[2J,") + "q9\x1b]0;owned\x07,d1,1.0\n",
    "run_constant_scores.txt": "".join(
        f"{q} Q0 {d} {r} 1.0 flat\n"
        for q, docs in (("q1", "d1 d7 d2"), ("q2", "d3 d8 d4"), ("q3", "d5 d0 d6"))
        for r, d in enumerate(docs.split(), start=1)
    ),
    # -- JSONL --
    "golden_array.jsonl": '{"query_id": "q1", "doc_id": "d1"}\n[1, 2]\n',
    "golden_bad_json.jsonl": '{"query_id": "q1", "doc_id": "d1"}\n{"query_id": "q2", "doc_id":}\n',
    "golden_missing_key.jsonl": '{"query_id": "q1", "doc_id": "d1"}\n{"query_id": "q2"}\n',
    "golden_null_id.jsonl": '{"query_id": "q1", "doc_id": null}\n',
    "golden_float_id.jsonl": '{"query_id": 1.5, "doc_id": "d1"}\n',
    "golden_bool_grade.jsonl": '{"query_id": "q1", "doc_id": "d1", "relevance": true}\n',
    "golden_string_grade.jsonl": '{"query_id": "q1", "doc_id": "d1", "relevance": "2"}\n',
    "golden_repeated_key.jsonl": '{"query_id": "q1", "doc_id": "d1", "doc_id": "d2"}\n',
    "results_nan.jsonl": '{"query_id": "q1", "doc_id": "d1", "score": NaN}\n',
    "results_string_score.jsonl": '{"query_id": "q1", "doc_id": "d1", "score": "0.9"}\n',
    "results_null_in_list.jsonl": '{"query_id": "q1", "retrieved_ids": ["d7", null, "d1"]}\n',
    "results_huge_int.jsonl": '{"query_id": "q1", "doc_id": "d1", "score": 1' + "0" * 400 + "}\n",
    # -- ids holding line breaks (JSONL can carry them): scored, one CSV row each --
    "golden_cr_id.jsonl": "".join(
        json.dumps({"query_id": q, "doc_id": d, "relevance": 1}) + "\n"
        for q, d in (("a\r=1+1", "d1"), ("b\n@SUM(A1)", "d3"), ("q3", "d5"))),
    "run_cr_id.jsonl": "".join(
        json.dumps({"query_id": q, "doc_id": d, "score": s}) + "\n"
        for q, d, s in (("a\r=1+1", "d7", 9.0), ("a\r=1+1", "d1", 8.0),
                        ("b\n@SUM(A1)", "d3", 9.0), ("q3", "d5", 9.0))),
    # -- what trec_eval reads too: comments; and scores past 2**53 --
    "run_comment.txt": "# bm25 k1=0.9 b=0.4\n" + "\n".join(
        [*RUN_LINES[:3], "  # a note", *RUN_LINES[3:]]) + "\n",
    "qrels_comment.txt": "#judged 2024\n" + QRELS,
    "run_score_2p53.txt": with_line(RUN_LINES, 2, "q1 Q0 d7 2 9007199254740993 bm25"),
    "run_score_2p53_exact.txt": with_line(RUN_LINES, 2, "q1 Q0 d7 2 9007199254740994 bm25"),
    "run_rank_1001.txt": with_line(RUN_LINES, 3, "q1 Q0 d2 1001 7.0 bm25"),
    # -- evidence spans: one document cut in two chunks, grades that do not fit --
    "documents.jsonl": json.dumps({"doc_id": "faq", "text": DOCUMENT}) + "\n",
    "chunks.csv": "chunk_id,doc_id,start,end\nc1,faq,0,34\nc2,faq,35,59\n",
    "run_chunks.txt": "q1 Q0 c2 1 2.0 r\nq1 Q0 c1 2 1.0 r\n",
    "evidence.csv": "query_id,doc_id,start,end,relevance\nq1,faq,0,34,2\n",
    "evidence_grade_huge.csv": "query_id,doc_id,start,end,relevance\nq1,faq,0,34,1e300\n",
    "evidence_grade_2p63.csv": ("query_id,doc_id,start,end,relevance\n"
                                "q1,faq,0,34,9223372036854775807\n"),
    "evidence_offset_huge.csv": ("query_id,doc_id,start,end,relevance\n"
                                 "q1,faq,0,1000000000000000000000000000000,1\n"),
    # -- formats not read, or not told --
    "golden.json": '{"q1": ["d1"]}\n',
    "golden.xlsx": "PK\x03\x04 not really a spreadsheet",
    "golden.dat": "q1 d1 1\n",
    "not_parquet.parquet": "query_id,doc_id\nq1,d1\n",
}

COMPRESSED = {
    "run.txt.gz": gzip.compress(RUN.encode(), mtime=0),
    "run.txt.bz2": bz2.compress(RUN.encode()),
    "run.txt.xz": lzma.compress(RUN.encode()),
    "golden.csv.gz": gzip.compress(GOLDEN_CSV.encode(), mtime=0),
    "run_truncated.txt.gz": gzip.compress(RUN.encode(), mtime=0)[:40],
    "run_binary.txt.gz": gzip.compress(bytes(range(256)) * 4, mtime=0),
    # A doc id of 4 MB, in the run and in the judgments (about 4 KB compressed): hashed
    # in time that grows with its bytes, not with the longest id times the rows.
    # It is q2's first doc, and relevant: MRR 1.0 when it is matched (0.8333 otherwise).
    "run_long_id.txt.gz": gzip.compress(RUN.replace("q2 Q0 d8 ", f"q2 Q0 {LONG_ID} ").encode(),
                                        mtime=0),
    "qrels_long_id.txt.gz": gzip.compress((QRELS + f"q2 0 {LONG_ID} 1\n").encode(), mtime=0),
}


def parquet_files() -> dict[str, pa.Table]:
    long = {"query_id": ["q1", "q1", "q2", "q2", "q3", "q3"],
            "doc_id": ["d1", "d2", "d3", "d4", "d5", "d6"]}
    return {
        "golden.parquet": pa.table(long | {"relevance": [1, 2, 1, 1, 1, 1]}),
        # The case: a null inside a list used to be dropped, moving d1 up.
        "results_null_in_list.parquet": pa.table({
            "query_id": ["q1", "q2"],
            "retrieved_ids": [["d7", None, "d1"], ["d3"]],
        }),
        "results_two_wide_rows.parquet": pa.table({
            "query_id": ["q1", "q2", "q1"], "retrieved_ids": [["d1"], ["d3"], ["d2"]],
        }),
        "golden_null_in_list.parquet": pa.table({
            "query_id": ["q1", "q2"], "relevant_ids": [["d1", "d2"], ["d3", None]],
        }),
        "golden_blank_id.parquet": pa.table(long | {"doc_id": ["d1", "d2", "  ", "d4", "d5", "d6"]}),
        "golden_padded_id.parquet": pa.table(long | {"doc_id": ["d1", "d2", "d3", "d4 ", "d5",
                                                                "d6"]}),
        "golden_grade_half.parquet": pa.table(long | {"relevance": [1, 2, 1, 0.5, 1, 1]}),
        "golden_float_ids.parquet": pa.table({"query_id": [1.0, 2.0], "doc_id": ["d1", "d3"]}),
        "golden_duplicate.parquet": pa.table({"query_id": ["q1", "q1"], "doc_id": ["d1", "d1"]}),
        "results_score_as_text.parquet": pa.table({
            "query_id": ["q1", "q1"], "doc_id": ["d1", "d7"], "score": ["0.9", "0.8"],
        }),
        "results_score_inf.parquet": pa.table({
            "query_id": ["q1", "q1"], "doc_id": ["d1", "d7"], "score": [0.9, float("inf")],
        }),
        "results_null_query.parquet": pa.table({
            "query_id": ["q1", None], "doc_id": ["d1", "d7"], "score": [0.9, 0.8],
        }),
    }


def main() -> None:
    for name, content in {**TEXT_FILES, **COMPRESSED}.items():
        data = content.encode("utf-8") if isinstance(content, str) else content
        (HERE / name).write_bytes(data)
    for name, table in parquet_files().items():
        pq.write_table(table, HERE / name)
    (HERE / "a_folder.csv").mkdir(exist_ok=True)
    (HERE / "a_folder.csv" / ".keep").write_text("a folder named like a file\n")


if __name__ == "__main__":
    main()
