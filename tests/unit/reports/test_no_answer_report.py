"""Issue 28, item 1: the report's "Questions with no answer" section, in every format.

The comparison is the hand case of tests/unit/comparison/test_no_answer.py: at a target
false-answer rate of 0, bm25's threshold is 8 (recall 1/3) and dense's .8 (recall 2/3),
neither answering an unanswerable question.
"""

from __future__ import annotations

import dataclasses
import math
import re

import pandas as pd
import pytest

from ragmetrics import compare
from ragmetrics.reports import abstention_table, build_report, to_html, to_markdown, to_text

QRELS = {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}, "q4": set(), "q5": set()}
BM25 = {"q1": {"a": 9.0}, "q2": {"z": 8.0, "b": 5.0}, "q3": {"c": 4.0}, "q4": {"w": 7.0},
        "q5": {"v": 3.0}}
DENSE = {"q1": {"a": 0.9}, "q2": {"b": 0.8}, "q3": {"c": 0.7}, "q4": {"w": 0.75},
         "q5": {"v": 0.2}}


@pytest.fixture(scope="module")
def result():
    return compare({"bm25": BM25, "dense": DENSE}, QRELS, ["recall@5"], n_resamples=200,
                   max_false_answer_rate=0.0)


@pytest.fixture(scope="module")
def plain():
    return compare({"bm25": BM25, "dense": DENSE}, QRELS, ["recall@5"], n_resamples=200)


BETTER = ("dense abstains better than bm25: at a false-answer rate of at most 0 it keeps "
          "recall 0.6667 against 0.3333, with false-answer rates 0.0000 and 0.0000")


def test_the_table_as_text(result):
    table = abstention_table(result)
    assert list(table.index) == ["bm25", "dense"]
    assert table["threshold"].tolist() == ["8", "0.8"]
    assert [cell.split(" [")[0] for cell in table["recall"]] == ["0.3333", "0.6667"]
    assert table["false-answer rate"].tolist() == ["0.0000 [0.0000, 0.0000]"] * 2
    assert table["answer rate"].tolist() == ["0.6667", "0.6667"]
    assert table[["unanswerable", "answerable"]].to_numpy().tolist() == [["2", "3"]] * 2


def test_the_text_report_shows_the_section_after_the_verdict(result):
    text = to_text(result)
    lines = text.splitlines()
    at = lines.index("Questions with no answer:")
    assert lines[at + 1].startswith(f"  {BETTER}")
    assert "flatters them" in lines[at + 2]
    assert lines[at + 3].split()[:4] == ["system", "threshold", "false-answer", "rate"]
    assert re.match(r"dense\s+0\.8\s+0\.0000 \[0\.0000, 0\.0000\]\s+0\.6667 \[", lines[at + 5])
    assert at < lines.index("dense vs bm25 (baseline)")


def test_markdown_and_html_show_the_section_with_its_numbers(result):
    markdown = to_markdown(result)
    section = markdown.split("## Questions with no answer\n\n")[1].split("\n## ")[0]
    assert section.startswith(BETTER)
    assert "at most 0, chosen on the queries it is measured on" in section
    assert "| bm25 | 8 | 0.0000 [0.0000, 0.0000] | 0.3333 [" in section
    assert "| dense | 0.8 | 0.0000 [0.0000, 0.0000] | 0.6667 [" in section
    assert markdown.index("## Questions with no answer") < markdown.index("## Means")
    page = to_html(result, figures=False)
    assert f"<h2>Questions with no answer</h2>\n<p>{BETTER}" in page
    assert "<td>dense</td><td>0.8</td><td>0.0000 [0.0000, 0.0000]</td><td>0.6667 [" in page


def test_no_section_without_the_option(plain):
    assert build_report(plain).no_answer is None
    assert abstention_table(plain) is None
    for text in (to_text(plain), to_markdown(plain), to_html(plain, figures=False)):
        assert "Questions with no answer" not in text
        assert "false-answer" not in text


def with_table(comparison, rows, *, tuned=False, target=0.1):
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "system"
    table.attrs.update(max_false_answer_rate=target, tuned_apart=tuned)
    return dataclasses.replace(comparison, abstention=table, max_false_answer_rate=target)


def row(far, far_ci, recall, recall_ci, *, threshold=1.0, measured="the queries it was "
        "chosen on"):
    return {"threshold": threshold, "false_answer_rate": far,
            "false_answer_rate_low": far_ci[0], "false_answer_rate_high": far_ci[1],
            "recall": recall, "recall_low": recall_ci[0], "recall_high": recall_ci[1],
            "answer_rate": recall, "precision": 1.0, "n_answerable": 40,
            "n_unanswerable": 20, "measured_on": measured}


def test_a_trade_off_is_said_as_one(plain):
    # dense keeps more recall but answers more unanswerable questions: neither is better.
    c = with_table(plain, {"bm25": row(0.05, (0.0, 0.15), 0.40, (0.30, 0.50)),
                           "dense": row(0.10, (0.0, 0.25), 0.70, (0.60, 0.80))})
    assert c.abstention_verdict()[0] == (
        "Neither dense nor bm25 abstains better: dense keeps more recall (0.7000 against "
        "0.4000) but gives more false answers (0.1000 against 0.0500) than bm25.")


def test_a_better_baseline_with_intervals_apart_is_named_first(plain):
    c = with_table(plain, {"bm25": row(0.0, (0.0, 0.0), 0.9, (0.85, 0.95)),
                           "dense": row(0.1, (0.05, 0.15), 0.5, (0.4, 0.6))},
                   tuned=True, target=0.2)
    verdict = c.abstention_verdict()
    assert verdict == (("bm25 abstains better than dense: at a false-answer rate of at most "
                       "0.2 it keeps recall 0.9000 against 0.5000, with false-answer rates "
                       "0.0000 and 0.1000."),)  # measured apart, under the target: no caveat


def test_rates_that_cannot_be_measured_are_said_so(plain):
    nan = math.nan
    c = with_table(plain, {"bm25": row(nan, (nan, nan), 0.5, (0.4, 0.6)),
                           "dense": row(nan, (nan, nan), 0.6, (0.5, 0.7))}, tuned=True)
    assert c.abstention_verdict()[0].startswith(
        "dense and bm25 cannot be compared on questions with no answer")
    assert abstention_table(c).loc["bm25", "false-answer rate"] == "n/a [n/a, n/a]"


def test_one_system_is_described_and_never_abstaining_is_shown_as_such():
    one = compare({"bm25": BM25}, QRELS, ["recall@5"], n_resamples=200,
                  max_false_answer_rate=0.0)
    assert one.abstention_verdict()[0].startswith("bm25 at its threshold 8: false-answer "
                                                  "rate 0.0000 [0.0000, 0.0000], recall 0.3333")
    c = with_table(one, {"bm25": row(0.0, (0.0, 0.0), 0.0, (0.0, 0.0), threshold=math.inf)})
    assert abstention_table(c).loc["bm25", "threshold"] == "inf (never answers)"


def test_names_are_text_never_markup():
    name = "<b>x</b>"
    c = compare({name: BM25, "dense": DENSE}, QRELS, ["recall@5"], n_resamples=100,
                max_false_answer_rate=0.0)
    page = to_html(c, figures=False)
    section = page.split("<h2>Questions with no answer</h2>")[1].split("<h2>")[0]
    assert name not in section
    assert "&lt;b&gt;x&lt;/b&gt;" in section
