"""The verdict first: one sentence per system on the primary metric, worded for each kind
of verdict, at the top of every report (HTML, Markdown, text, the command's output); the
warnings as one counted line; the questions and passages beside the ids in the
drill-downs, as text.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from ragmetrics import compare
from ragmetrics.errors import InputTypeError, InputValueError
from ragmetrics.reports import build_report, to_html, to_markdown, to_text
from ragmetrics.reports.headline import snippet, verdict_list, warnings_summary

DATA = Path(__file__).resolve().parents[3] / "data"


def two_way(n_better: int = 20, n: int = 30, **options):
    """``old`` finds the one relevant doc at rank 2; ``new`` at rank 1 on the first
    ``n_better`` queries (MRR +0.5 there, 0 elsewhere)."""
    qrels = {f"q{i:02d}": {"gold"} for i in range(n)}
    old = {q: ["junk", "gold"] for q in qrels}
    new = {q: ["gold"] if i < n_better else ["junk", "gold"] for i, q in enumerate(qrels)}
    return qrels, old, new


def sentence_numbers(c, metric, system, digits=3):
    row = c.tests.loc[(metric, system)]
    d, lo, hi = row["difference"], row["low"], row["high"]
    return (f"{d:+.{digits}f} [{c.difference_confidence * 100:g}% CI {lo:+.{digits}f}, "
            f"{hi:+.{digits}f}]")


def mde(c, metric, system, digits=3):
    return f"{c.power().loc[(metric, system), 'mde']:.{digits}f}"


# -- each kind of verdict, word for word -------------------------------------------------

def test_better_sentence():
    qrels, old, new = two_way()
    c = compare({"old": old, "new": new}, qrels, ["mrr", "recall@1"], n_resamples=500)
    assert c.primary == "mrr"  # no nDCG@10: the first metric
    assert c.tests.loc[("mrr", "new"), "difference"] == pytest.approx(1 / 3)
    p = c.tests.loc[("mrr", "new"), "p_adjusted"]
    assert 0.001 <= p < 0.05
    assert c.verdict() == (
        (f"new is better than old on MRR by {sentence_numbers(c, 'mrr', 'new')}, "
        f"p = {p:.3f} after Holm over 2 metrics, 30 questions; the smallest difference "
        f"these questions can detect (80% power) is {mde(c, 'mrr', 'new')}."),)
    assert sentence_numbers(c, "mrr", "new").startswith("+0.333 [97.5% CI ")
    assert c.headline == c.verdict()[0]


def test_worse_sentence_and_p_below_a_thousandth():
    qrels, old, new = two_way(n_better=30, n=60)
    c = compare({"new": new, "old": old}, qrels, ["mrr", "ndcg@10"], n_resamples=5000)
    assert c.primary == "ndcg@10"
    assert c.tests.loc[("ndcg@10", "old"), "p_adjusted"] < 0.001
    assert c.verdict() == (
        (f"old is worse than new on nDCG@10 by {sentence_numbers(c, 'ndcg@10', 'old')}, "
        "p < 0.001 after Holm over 2 metrics, 60 questions; the smallest difference "
        f"these questions can detect (80% power) is {mde(c, 'ndcg@10', 'old')}."),)


def test_no_significant_difference_sentence():
    rng = np.random.default_rng(4)
    qrels = {f"q{i}": {"gold"} for i in range(40)}
    a = {q: ["gold"] if rng.random() < 0.5 else ["x", "gold"] for q in qrels}
    b = {q: ["gold"] if rng.random() < 0.5 else ["x", "gold"] for q in qrels}
    c = compare({"a": a, "b": b}, qrels, ["mrr"], n_resamples=1000, primary="rr")
    assert c.primary == "mrr"  # "rr" is MRR, named as the comparison names it
    row = c.tests.loc[("mrr", "b")]
    assert row["verdict"] == "no significant difference"
    assert c.verdict() == (
        (f"b and a show no significant difference on MRR: {sentence_numbers(c, 'mrr', 'b')}, "
        f"p = {row['p_adjusted']:.3f} after Holm over 1 metric, 40 questions; the smallest "
        f"difference these questions can detect (80% power) is {mde(c, 'mrr', 'b')}."),)


def test_undecided_sentence():
    rng = np.random.default_rng(0)
    qrels = {f"q{i}": {"g"} for i in range(40)}
    a = {q: ["g"] if rng.random() < 0.5 else ["x", "g"] for q in qrels}
    b = {q: ["g"] if rng.random() < 0.62 else ["x", "g"] for q in qrels}
    c = compare({"a": a, "b": b}, qrels, ["mrr"], n_resamples=200, max_resamples=200)
    row = c.tests.loc[("mrr", "b")]
    assert not row["decided"]
    assert c.verdict() == (
        (f"b against a on MRR is undecided: p = {row['p_adjusted']:.3f} after Holm over 1 "
        "metric stays within Monte Carlo error of alpha = 0.05 after 200 resamples; the "
        f"difference is {sentence_numbers(c, 'mrr', 'b')}, 40 questions. More resamples "
        "(n_resamples, --resamples) may decide it."),)


def test_not_tested_and_one_system_sentences():
    none = compare({"s": {"q1": ["a"]}, "t": {"q1": ["b"]}}, {"q1": {"a": 0}},
                   ["mrr", "ndcg@3"], n_resamples=20, empty_relevant="skip")
    assert none.verdict() == (
        "t and s were not compared on MRR: no question has a value for both.",)
    qrels, old, _ = two_way()
    one = compare({"old": old}, qrels, ["mrr"], n_resamples=100)
    assert one.verdict() == (
        ("old scores 0.500 on MRR [95% CI 0.500, 0.500] over 30 questions; one system: "
        "nothing to compare it with."),)
    assert verdict_list(one) == ()


def test_many_systems_and_other_corrections_are_named():
    qrels, old, new = two_way()
    runs = {"old": old, "new": new, "same": old}
    c = compare(runs, qrels, ["mrr", "recall@1"], n_resamples=300, correction="bh")
    first, second = c.verdict()
    assert first.startswith("new is better than old on MRR by ")
    assert "after Benjamini-Hochberg over 4 claims (2 metrics x 2 systems), 30 questions" in first
    assert second.startswith("same and old show no significant difference on MRR: +0.0000 ")
    assert verdict_list(c, skip="mrr") == (
        (f"Recall@1: new vs old: new better, {sentence_numbers(c, 'recall@1', 'new')}, "
        f"p = {c.tests.loc[('recall@1', 'new'), 'p_adjusted']:.3f}"),
        (f"Recall@1: same vs old: no significant difference, "
        f"{sentence_numbers(c, 'recall@1', 'same', 4)}, p = 1.000"),
    )
    plain = compare({"old": old, "new": new}, qrels, ["mrr"], n_resamples=300,
                    correction="none")
    assert "(not corrected over the 1 metric), 30 questions" in plain.verdict()[0]


def test_primary_is_checked_and_named_in_every_report():
    qrels, old, new = two_way()
    runs = {"old": old, "new": new}
    with pytest.raises(InputValueError, match=r"primary 'ndcg@5' is not one of the metrics"):
        compare(runs, qrels, ["mrr"], n_resamples=50, primary="ndcg@5")
    with pytest.raises(InputTypeError, match="primary must be a metric name"):
        compare(runs, qrels, ["mrr"], n_resamples=50, primary=5)
    c = compare(runs, qrels, ["mrr", "recall@1"], n_resamples=200, primary="recall@1")
    assert c.verdict()[0].startswith("new is better than old on Recall@1 by +0.667")
    assert c.verdict("mrr")[0].startswith("new is better than old on MRR by +0.333")
    with pytest.raises(InputValueError, match="metric 'ndcg@10' is not in this comparison"):
        c.verdict("ndcg@10")
    document = build_report(c)
    assert document.verdict_heading == "Verdict on Recall@1"
    assert [line.split(":")[0] for line in document.other_verdicts] == ["MRR"]
    assert "Worst queries of new on recall@1" in ["".join(s.heading) for s in document.drilldowns]
    assert to_markdown(c).splitlines()[2:5] == ["## Verdict on Recall@1", "", c.verdict()[0]]


# -- the verdict first on the page, the warnings folded --------------------------------

class _VisibleText(HTMLParser):
    """The text a reader sees, in order: no <title>, <style> or <script> contents."""

    def __init__(self):
        super().__init__()
        self.parts, self._hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self._hidden += tag in ("title", "style", "script")

    def handle_endtag(self, tag):
        self._hidden -= tag in ("title", "style", "script")

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def visible_text(page: str) -> str:
    parser = _VisibleText()
    parser.feed(page)
    return re.sub(r"\s+", " ", " ".join(parser.parts)).strip()


@pytest.fixture(scope="module")
def support():
    """The support demo's two runs as a BEIR data set gives them, with its texts."""
    from ragmetrics.io import read_dataset, read_trec_run

    dataset = read_dataset(DATA / "support_demo" / "beir")
    runs = {name: read_trec_run(DATA / "support_demo" / "runs" / f"{name}.tsv")
            for name in ("bm25", "dense_minilm")}
    return compare(runs, dataset.qrels, n_resamples=500, queries=dataset.queries,
                   documents=dataset.documents)


def test_the_verdict_is_in_the_first_thousand_characters_of_the_page(support):
    page = to_html(support, title="Support bot", figures=False)
    first = visible_text(page)[:1000]
    assert support.primary == "ndcg@10"
    assert support.verdict()[0].startswith("dense_minilm is better than bm25 on nDCG@10 by +")
    assert support.verdict()[0] in first
    assert first.startswith("Support bot Verdict on nDCG@10 dense_minilm is better")
    # BM25's tied scores are the one warning (their size, issue 26): folded under one
    # counted line after the verdict, not before it.
    assert [w.split(":")[0] for w in support.warnings] == ["tied scores"]
    assert page.count("<details class=\"warnings\"><summary>1 warning</summary>") == 1
    assert page.index(support.verdict()[0]) < page.index("<details class=\"warnings\">")


def test_every_warning_is_folded_under_one_line_that_counts_them():
    qrels, old, new = two_way(n_better=8, n=10)
    c = compare({"old": old, "new": new}, qrels, ["ndcg@10"], n_resamples=200)
    assert [w.split(":")[0] for w in c.warnings] == [  # 3 warnings, counted once
        "only 10 queries", "one metric alone can mislead", "no spread"]
    page = to_html(c, figures=False)
    assert page.count("<details class=\"warnings\">") == 1
    assert "<details class=\"warnings\"><summary>3 warnings</summary><ul>" in page
    assert page.count("<li><strong>Warning:</strong>") == 3
    assert (page.index("Verdict on nDCG@10") < page.index("<summary>3 warnings</summary>")
            < page.index("<h2>Means</h2>"))
    assert c.verdict()[0] in visible_text(page)[:1000]
    text, markdown = to_text(c), to_markdown(c)
    assert text.count("3 warnings (listed at the end)") == 1
    assert text.index("3 warnings (listed at the end)") < text.index("10 queries, 2 systems")
    assert text.split("Warnings:\n")[1].count("  - ") == 3
    assert markdown.count("**3 warnings**, listed at the end (Warnings).") == 1
    assert markdown.split("## Warnings\n")[1].count("- **Warning:** ") == 3
    one = compare({"old": old, "new": new}, qrels, ["ndcg@10", "mrr", "recall@1"],
                  n_resamples=200)
    assert warnings_summary(1) == "1 warning"
    assert warnings_summary(0) == "0 warnings"
    assert f"<summary>{warnings_summary(len(one.warnings))}</summary>" in to_html(one,
                                                                              figures=False)


def test_the_differences_plot_comes_after_the_verdict_and_before_the_tables(support):
    page = to_html(support)
    image = page.index('<img alt="dense_minilm minus bm25"')
    assert page.index("Verdict on nDCG@10") < image < page.index("<h2>Means</h2>")
    assert page.count("<img") == 2  # and the means' intervals, below their table


def test_the_terminal_order():
    qrels, old, new = two_way(n_better=8, n=10)
    c = compare({"old": old, "new": new}, qrels, ["ndcg@10", "mrr"], n_resamples=200)
    text = to_text(c)
    lines = text.splitlines()
    assert lines[:4] == ["Verdict on nDCG@10:", f"  {c.verdict()[0]}", "Other metrics:",
                         f"  - {verdict_list(c, skip='ndcg@10')[0]}"]
    order = ["Verdict on nDCG@10:", "Other metrics:", "  - MRR: ",
             f"{warnings_summary(len(c.warnings))} (listed at the end)",
             "10 queries, 2 systems;", "metric   old", "new vs old (baseline)",
             "Warnings:", "Conventions: "]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)


def test_the_retrievers_sit_right_after_the_verdict(tmp_path):
    from ragmetrics.runners import run_retriever

    qrels, _, _ = two_way()
    run = run_retriever(lambda q: ["gold"], {q: q for q in qrels}, k=1, cache=None)
    c = compare({"old": run, "new": run}, qrels, ["mrr", "recall@1"], n_resamples=50)
    for page, head, means in ((to_text(c), "Retrievers (latency per query)", "30 queries, "),
                              (to_markdown(c), "## Retrievers", "## Means"),
                              (to_html(c, figures=False), "<h2>Retrievers</h2>",
                               "<h2>Means</h2>")):
        assert page.index("Verdict on") < page.index(head) < page.index(means)


# -- texts in the drill-downs ----------------------------------------------------------

def test_questions_and_passages_sit_beside_the_ids(support):
    document = build_report(support)
    differ = document.drilldowns[0]
    assert differ.table.header[:2] == ("query_id", "question")
    row = differ.table.rows[0]
    assert row[1] == snippet(support.query_texts[row[0]], 120)
    ranking = document.rankings[0]
    assert ranking.table.header == ("rank", "bm25", "passage", "grade", "adds",
                                    "dense_minilm", "passage", "grade", "adds")
    query_id = ranking.heading[0].split(":")[0].removeprefix("Query ")
    assert ranking.heading[1] == f" — {snippet(support.query_texts[query_id], 120)}"
    first = ranking.table.rows[0]
    assert first[2] == snippet(support.document_texts[first[1]])
    assert len(first[2]) <= 81
    assert first[2].endswith("…")


def test_snippets_cut_on_a_word():
    assert snippet("word " * 30) == ("word " * 16).strip() + "…"
    assert snippet("x" * 100, 10) == "x" * 9 + "…"
    assert snippet("a\nb\t c") == "a b c"


def test_texts_are_checked():
    qrels, old, new = two_way(n=3)
    runs = {"old": old, "new": new}
    with pytest.raises(InputTypeError, match="the text of query 'q00' must be a str, got 7"):
        compare(runs, qrels, ["mrr"], n_resamples=20, queries={"q00": 7})
    with pytest.raises(InputValueError, match="queries must have the columns query_id and text"):
        compare(runs, qrels, ["mrr"], n_resamples=20, queries=[{"id": "q00", "text": "x"}])
    with pytest.raises(InputValueError, match="'q00' is given twice"):
        compare(runs, qrels, ["mrr"], n_resamples=20,
                queries=[{"query_id": "q00", "text": "x"}, {"query_id": "q00", "text": "y"}])
    with pytest.raises(InputValueError, match="given twice"):
        compare(runs, qrels, ["mrr"], n_resamples=20,
                documents=[{"doc_id": "gold", "text": "x"}, {"doc_id": "gold", "text": "y"}])
    # A query without text (None, NaN: a data set of judgments alone) shows none.
    c = compare(runs, qrels, ["mrr"], n_resamples=20, queries={"q00": None, "q01": "Why?"})
    assert c.query_texts == {"q01": "Why?"}


HOSTILE_QUESTION = "<script>alert('q')</script> [click](javascript:alert(1)) | why?"
HOSTILE_PASSAGE = "<img src=x onerror=alert(1)> <script>alert('p')</script> passage"


@pytest.fixture(scope="module")
def hostile_texts():
    qrels = {f"q{i}": {"gold"} for i in range(6)}
    old = {q: ["junk", "gold"] for q in qrels}
    new = {q: ["gold"] for q in qrels}
    return compare({"old": old, "new": new}, qrels, ["mrr", "ndcg@10"], n_resamples=50,
                   queries=dict.fromkeys(qrels, HOSTILE_QUESTION),
                   documents={"gold": HOSTILE_PASSAGE, "junk": HOSTILE_PASSAGE})


def test_hostile_texts_are_text_in_html(hostile_texts):
    page = to_html(hostile_texts, figures=False)
    assert "<script" not in page
    assert "<img" not in page
    shown = html.escape(snippet(HOSTILE_PASSAGE))
    assert f"<td>{shown}</td>" in page
    assert html.escape(snippet(HOSTILE_QUESTION, 120)) in page
    assert HOSTILE_QUESTION in visible_text(page)


def test_hostile_texts_are_text_in_markdown_and_the_terminal(hostile_texts):
    markdown = to_markdown(hostile_texts)
    assert "<script" not in markdown
    assert "<img" not in markdown
    assert "&lt;script&gt;alert('q')&lt;/script&gt;" in markdown
    assert not re.search(r"(?<!\\)\]\(javascript", markdown)
    assert "\\| why?" in markdown  # no table break
    cells = re.compile(r"(?<!\\)\|")  # the pipes that are not escaped
    header = None
    for line in markdown.splitlines():  # every row keeps its table's columns
        if not line.startswith("|"):
            header = None
        elif header is None:
            header = len(cells.findall(line))
        else:
            assert len(cells.findall(line)) == header, line
    assert "<script" not in to_text(hostile_texts)  # the terminal shows no texts at all


def test_hostile_texts_are_data_in_the_widget(hostile_texts):
    from ragmetrics.widgets import ComparisonExplorer

    explorer = ComparisonExplorer(hostile_texts)
    assert explorer.query_texts == [HOSTILE_QUESTION] * 6  # strings: the JS sets textContent
    explorer.select("q0")
    assert explorer.detail["text"] == HOSTILE_QUESTION
    titles = [row["title"] for column in explorer.detail["columns"] for row in column["rows"]]
    assert titles == [snippet(HOSTILE_PASSAGE)] * 3
    assert "<script" not in explorer._static_html()


# -- the command ------------------------------------------------------------------------

def test_the_command_takes_primary_title_and_texts(tmp_path, capsys):
    from ragmetrics.cli import main

    demo = DATA / "support_demo"
    runs = [str(demo / "runs" / "bm25.tsv"), str(demo / "runs" / "dense_minilm.tsv")]
    report = tmp_path / "report.html"
    status = main(["evaluate", str(demo / "beir"), *runs, "--metrics", "mrr,ndcg@10",
                   "--resamples", "200", "--primary", "mrr", "--title", "Support <bot>",
                   "--report", str(report), "--names", "bm25,dense"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.splitlines()[0] == "Verdict on MRR:"
    assert out.splitlines()[1].startswith("  dense is better than bm25 on MRR by +")
    page = report.read_text(encoding="utf-8")
    assert "<h1>Support &lt;bot&gt;</h1>" in page
    assert "<h2>Verdict on MRR</h2>" in page
    # The data set's questions and corpus sit beside the ids.
    assert "<th>question</th>" in page
    assert "<th>passage</th>" in page
    # A qrels file with --queries and --documents does the same.
    md = tmp_path / "report.md"
    assert main(["evaluate", str(demo / "golden.csv"), *runs, "--metrics", "ndcg@10,mrr",
                 "--resamples", "200", "--report", str(md),
                 "--queries", str(demo / "beir" / "queries.jsonl"),
                 "--documents", str(demo / "beir" / "corpus.jsonl")]) == 0
    capsys.readouterr()
    text = md.read_text(encoding="utf-8")
    assert text.splitlines()[2] == "## Verdict on nDCG@10"
    assert "| query_id | question |" in text
    assert " | passage | " in text


@pytest.mark.parametrize(("extra", "message"), [
    (["--primary", "ndcg@5"], "--primary: primary 'ndcg@5' is not one of the metrics"),
    (["--primary", "nonsense"], "--primary: unknown metric 'nonsense'"),
    (["--title", "T"], "--title names the report: give --report FILE too"),
])
def test_the_command_refuses_a_bad_primary_or_a_title_without_report(extra, message, capsys):
    from ragmetrics.cli import main

    demo = DATA / "support_demo"
    status = main(["evaluate", str(demo / "golden.csv"), str(demo / "runs" / "bm25.tsv"),
                   "--metrics", "mrr,ndcg@10", "--resamples", "50", *extra])
    assert status == 2
    assert message in capsys.readouterr().err
