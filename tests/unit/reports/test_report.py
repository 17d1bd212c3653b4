"""ragmetrics.reports: every report shows the Comparison's numbers, its warnings and its card.

Also: the HTML page is self-contained, files are written atomically, and drawing a report
leaves pyplot's global state alone.
"""

from __future__ import annotations

import base64
import csv
import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ragmetrics
from ragmetrics.comparison import ONE_METRIC_NOTE, compare
from ragmetrics.reports import (
    build_report,
    convention_card,
    differences_table,
    output_files,
    per_query_frame,
    plot_differences,
    plot_intervals,
    render_html,
    render_markdown,
    render_text,
    summary_table,
    to_html,
    to_markdown,
    to_text,
    write_per_query_csv,
    write_report,
)
from ragmetrics.reports.output_files import write_atomic
from ragmetrics.safe_text import spreadsheet_cell

METRICS = ["recall@1", "precision@1", "mrr", "ndcg@2"]


@pytest.fixture(scope="module")
def comparison():
    # 30 queries, one relevant doc each. "old" finds it at rank 2; "new <b>|x" (a name with
    # HTML and a Markdown pipe in it) at rank 1 on the first 20 queries.
    qrels = {f"q{i:02d}": {"gold"} for i in range(30)}
    old = {q: ["junk", "gold"] for q in qrels}
    new = {q: ["gold"] if i < 20 else ["junk", "gold"] for i, q in enumerate(qrels)}
    return compare({"old": old, "new <b>|x": new}, qrels, METRICS, n_resamples=500, seed=2,
                   primary="ndcg@2")


@pytest.fixture(scope="module")
def small():
    qrels = {"q1": {"a"}, "q2": {"b"}, "q3": {"c"}}
    run = {"q1": ["a"], "q2": ["x", "b"], "q3": ["x", "y", "z", "c"]}
    return compare({"bm25": run}, qrels, ["ndcg@10"], n_resamples=200)


def test_summary_table_formats_the_numbers(comparison):
    table = summary_table(comparison)
    assert list(table.index) == METRICS
    assert list(table.columns) == ["old", "new <b>|x"]
    row = comparison.summary.loc[("mrr", "new <b>|x")]
    assert table.loc["mrr", "new <b>|x"] == (
        f"{row['mean']:.4f} [{row['low']:.4f}, {row['high']:.4f}]"
    )
    # By hand: MRR of "new" = (20 x 1 + 10 x 1/2) / 30.
    assert table.loc["mrr", "new <b>|x"].startswith("0.8333 [")


def test_differences_table(comparison):
    table = differences_table(comparison)
    row = comparison.tests.loc[("recall@1", "new <b>|x")]
    text = table.loc[("recall@1", "new <b>|x")]
    # Four claims under Holm: each interval at 1 - 0.05 / 4, and the header says so.
    label = "difference [98.75% CI each, 95% together]"
    assert text[label] == (
        f"{row['difference']:+.4f} [{row['low']:+.4f}, {row['high']:+.4f}]"
    )
    assert text[label].startswith("+0.6667 [")
    assert text["wins/ties/losses"] == "20/10/0"
    assert text["verdict"] == "new <b>|x better"
    assert text["p (Holm)"] == f"{row['p_adjusted']:.4f}"
    assert text["MC error of p"] == f"±{row['p_mc_error']:.4f}"
    assert text["d_z (paired)"] == f"{row['effect_size']:+.2f}"
    assert list(table.columns)[-1] == "verdict"


def test_statistics_are_labelled_and_a_d_z_without_spread_is_undefined():
    # Every query: precision@10 exactly 0.1 lower (b - a is -0.1 give or take 1e-17): no
    # spread, so d_z = mean / sd is undefined, "n/a" (it was -3.5e15, then -inf), and the
    # warnings say why.
    qrels, base, new = {}, {}, {}
    for i in range(30):
        q, hits = f"q{i:02d}", (5, 8, 3)[i % 3]
        docs = [f"{q}-r{j}" for j in range(hits)] + [f"{q}-x{j}" for j in range(10)]
        qrels[q], base[q], new[q] = set(docs[:hits]), docs[:10], docs[1:11]
    out = compare({"base": base, "new": new}, qrels, ["precision@10", "mrr"],
                  n_resamples=200, confidence=0.9, alpha=0.1, correction="bh")
    text = differences_table(out).loc[("precision@10", "new")]
    assert text["d_z (paired)"] == "n/a"
    assert text["verdict"] == "base better"
    assert any(w.startswith("constant difference: on precision@10 (new)") for w in out.warnings)
    level = f"{out.difference_confidence * 100:g}%"
    assert f"difference [{level} CI, FCR-adjusted]" in differences_table(out).columns
    card = convention_card(out)
    assert card["confidence level"] == "90%"
    assert card["significance level"].startswith("alpha = 0.1,")
    assert card["difference intervals"].startswith(f"{level} each (Benjamini-Yekutieli")
    assert "not Cohen's d" in card["effect size"]
    assert "n/a where every query differs by the same non-zero amount" in card["effect size"]
    assert "undecided" in card["Monte Carlo error"]
    assert "alpha=0.1" in to_text(out)
    exact = compare({"base": base, "new": new}, {q: qrels[q] for q in list(qrels)[:8]},
                    ["precision@10", "mrr"], n_resamples=200)
    assert differences_table(exact).loc[("mrr", "new"), "MC error of p"] == "0 (exact)"


def test_small_p_values_and_exact_ones_are_labelled():
    qrels = {f"q{i}": {"a"} for i in range(40)}
    out = compare({"x": {q: ["z", "a"] for q in qrels}, "y": {q: ["a"] for q in qrels}},
                  qrels, ["mrr", "recall@1"], n_resamples=20_000)
    assert differences_table(out).loc[("mrr", "y"), "p (randomization)"] == "<0.0001"
    few = {f"q{i}": {"a"} for i in range(3)}
    out = compare({"x": {q: ["z", "a"] for q in few}, "y": {q: ["a"] for q in few}},
                  few, ["mrr", "recall@1"], n_resamples=100)
    assert differences_table(out).loc[("mrr", "y"), "p (randomization)"] == "0.2500 (exact)"


def test_convention_card_has_every_convention(comparison):
    card = convention_card(comparison)
    for key in ("tied scores", "relevance level", "gain", "query with no relevant doc",
                "judged query missing from a run", "doc repeated in a ranking",
                "confidence level", "significance level", "difference intervals",
                "intervals", "Monte Carlo error", "effect size", "resamples", "seed",
                "correction", "versions"):
        assert key in card
    assert card["tied scores"].startswith("trec_eval:")
    assert card["confidence level"] == "95%"
    assert (card["resamples"], card["seed"]) == ("500", "2")
    assert card["relevance level"].startswith("1:")
    versions = card["versions"]
    for part in (f"ragmetrics {ragmetrics.__version__}", f"numpy {np.__version__}",
                 f"pandas {pd.__version__}", f"python {sys.version.split()[0]}"):
        assert part in versions


def test_card_follows_the_policies():
    qrels = {"q1": {"a": 2, "b": 1}}
    out = compare({"s": {"q1": ["a", "b"]}}, qrels, ["mrr", "ndcg@2"], n_resamples=50,
                  ties="pessimistic", gain="exponential", relevance_level=2,
                  empty_relevant="skip", missing_from_run="skip", confidence=0.9,
                  correction="bh")
    card = convention_card(out)
    assert card["tied scores"].startswith("pessimistic:")
    assert card["gain"].startswith("exponential:")
    assert card["relevance level"].startswith("2:")
    assert card["query with no relevant doc"].startswith("skip:")
    assert card["judged query missing from a run"].startswith("skip:")
    assert card["confidence level"] == "90%"
    assert card["correction"].startswith("Benjamini-Hochberg")


def test_text_report(comparison):
    text = to_text(comparison)
    assert text.splitlines()[0] == "Verdict on nDCG@2:"  # the verdict first
    assert "\n30 queries, 2 systems; mean [95% interval], 500 resamples, seed 2\n" in text
    assert "new <b>|x vs old (baseline)" in text
    assert summary_table(comparison).loc["mrr", "old"] in text
    assert "Conventions: relevance_level=1, gain=linear, ties=trec_eval" in text
    # 30 queries, four families; only "old", the same on every query (rank 2), has no
    # spread, and the report says so (once: no other warning).
    warnings = text[text.index("Warnings:"):].split("\n\n")[0].splitlines()[1:]
    assert warnings == [
        ("  - no spread: every query has the same value on recall@1 (old), precision@1 (old), "
         "mrr (old), ndcg@2 (old), so their intervals have no width (resampling these queries "
         "cannot move the mean) and say nothing about queries unlike these"),
    ]


def test_markdown_report(comparison):
    text = to_markdown(comparison, title="Support bot")
    assert text.startswith("# Support bot\n")
    # The system name "new <b>|x" is shown as written: no HTML tag, no table break.
    for heading in ("## Means", "## new &lt;b&gt;\\|x vs old (baseline)", "## Convention card",
                    "## Queries where new &lt;b&gt;\\|x and old differ most on ndcg@2",
                    "## Worst queries of old on ndcg@2"):
        assert heading in text
    # The pipe in the system name is escaped, so every table row keeps its columns.
    means = next(line for line in text.splitlines() if line.startswith("| mrr "))
    assert means.count(" | ") == 2
    assert "0.8333 [" in means


def test_one_document_gives_every_format(comparison):
    document = build_report(comparison, title="Support bot")
    assert render_text(document) == to_text(comparison)
    assert render_markdown(document) == to_markdown(comparison, title="Support bot")
    assert (render_html(document, figures=False)
            == to_html(comparison, title="Support bot", figures=False))
    # Its parts, in reading order, as plain text (the renderers escape it).
    assert document.title == "Support bot"
    assert document.means.table.header == ("metric", "old", "new <b>|x")
    means = {row[0]: row[1:] for row in document.means.table.rows}
    assert means["mrr"][1].startswith("0.8333 [")  # (20 x 1 + 10 x 1/2) / 30
    assert [s.heading for s in document.against_baseline] == [
        ("new <b>|x", " vs ", "old", " (baseline)")
    ]
    assert [s.figure for s in document.against_baseline] == [None]  # drawn after the verdict
    assert [f.system for f in document.difference_figures] == ["new <b>|x"]
    assert document.verdict == comparison.verdict()
    assert document.verdict_heading == "Verdict on nDCG@2"
    assert [line.split(":")[0] for line in document.other_verdicts] == [
        "Recall@1", "Precision@1", "MRR"]
    assert ["".join(s.heading) for s in document.drilldowns] == [
        "Queries where new <b>|x and old differ most on ndcg@2",
        "Worst queries of old on ndcg@2",
        "Worst queries of new <b>|x on ndcg@2",
    ]
    assert [len(s.table.rows) for s in document.drilldowns] == [10, 10, 10]
    assert dict(document.card.table.rows) == convention_card(comparison)
    assert document.conventions.endswith("correction=holm, alpha=0.05")


def test_a_comparison_renders_itself_through_the_reports(comparison, small):
    for c in (comparison, small):
        assert repr(c) == c.to_text() == to_text(c)
        assert c.to_markdown(title="T <x>") == to_markdown(c, title="T <x>")
        assert c.to_html(title="T", figures=False) == to_html(c, title="T", figures=False)
    assert comparison.to_html() == to_html(comparison)  # figures too: the same PNGs
    assert comparison.to_markdown().startswith("# Retrieval evaluation\n")


def test_warnings_are_one_line_after_the_verdict_in_every_report(small):
    assert any("too few queries" in w for w in small.warnings)
    assert ONE_METRIC_NOTE in small.warnings
    count = f"{len(small.warnings)} warnings"
    markdown, page, text = to_markdown(small), to_html(small), to_text(small)
    # Markdown: the count after the verdict, before the means; the list at the end.
    assert (markdown.index("## Verdict on nDCG@10") < markdown.index(f"**{count}**")
            < markdown.index("## Means") < markdown.index("## Convention card")
            < markdown.index("## Warnings") < markdown.index("common mistake"))
    # HTML: every warning folded under one summary line that counts them.
    assert page.count("<details class=\"warnings\">") == 1
    assert f'<details class="warnings"><summary>{count}</summary>' in page
    assert page.index("Verdict on nDCG@10") < page.index(count) < page.index("<h2>Means</h2>")
    assert "common mistake" in page
    # Text: the count with the verdict, the list at the end.
    assert text.index(f"{count} (listed at the end)") < text.index("Warnings:")
    assert "too few queries for this claim" in text


def test_html_is_self_contained(comparison):
    page = to_html(comparison)
    assert page.startswith("<!DOCTYPE html>")
    for external in ("http://", "https://", "<script", "<link", "@import", "url("):
        assert external not in page
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 2  # the means, and new minus old
    for image in images:
        assert base64.b64decode(image).startswith(b"\x89PNG\r\n\x1a\n")
    assert "src=" not in re.sub(r'src="data:image/png;base64,[^"]+"', "", page)


def test_html_escapes_user_text(comparison):
    page = to_html(comparison, title="a <script> & b", figures=False)
    assert "<title>a &lt;script&gt; &amp; b</title>" in page
    assert "<b>" not in page
    assert "new &lt;b&gt;|x" in page
    assert "data:image" not in page


def test_report_drawing_leaves_pyplot_alone(comparison):
    before = plt.get_fignums()
    to_html(comparison)
    assert plt.get_fignums() == before


def test_plot_intervals(comparison):
    ax = plot_intervals(comparison)
    assert [t.get_text() for t in ax.get_yticklabels()] == METRICS
    assert len(ax.containers) == 2
    new = ax.containers[1]
    x = new.lines[0].get_xdata()
    np.testing.assert_allclose(x, comparison.summary.xs("new <b>|x", level="system")["mean"])


def test_plot_differences(comparison):
    ax = plot_differences(comparison)
    assert ax.get_title() == "new <b>|x − old"
    (points,) = ax.collections[-1:]  # every difference here is significant: filled dots
    np.testing.assert_allclose(points.get_offsets()[:, 0],
                               comparison.tests["difference"].to_numpy())
    with pytest.raises(ValueError, match="is the baseline"):
        plot_differences(comparison, system="old")


def test_per_query_frame_and_csv(comparison, tmp_path):
    frame = per_query_frame(comparison)
    assert list(frame.columns) == ["query_id", "system", *METRICS]
    assert len(frame) == 60
    path = write_per_query_csv(comparison, tmp_path / "per_query.csv")
    back = pd.read_csv(path, dtype={"query_id": str})
    new = back[back["system"] == "new <b>|x"].set_index("query_id")[METRICS]
    np.testing.assert_array_equal(new.to_numpy(),
                                  comparison.per_query["new <b>|x"].to_numpy())
    assert back.loc[back["query_id"] == "q00", "mrr"].tolist() == [0.5, 1.0]


# Ids from someone's JSONL file: line breaks of every kind (a bare CR first: pandas and
# Python's csv writer leave it unquoted, and every reader then splits the row there),
# delimiters, quotes and formula starts, at the start and after a break.
HOSTILE_IDS = [
    "a\r=1+1", "b\n@SUM(A1)", "c\r\n+1", "d\n\r\t=6", "\r=1", "\n-2", "\r", "\n", "\r\n",
    "e,=2", 'f"=3', '"', ",", '=HYPERLINK("http://x")', "+cmd|' /C calc'!A0", "-2+3", "@x",
    "\t=1", "-1", "+3", "g\u2028=4", "h\x85-5", "i\x0b@6", "", " ", "nan", "'", "q01",
]
SYSTEMS = ("bm25", "x\r-2,=y")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def hostile_evaluations(ids):
    """Two systems scored on ``ids``: the relevant doc at rank 1, 2 or 3 by the id's place."""
    golden = {q: {"d"} for q in ids}
    runs = {name: {q: ["x", "y", "d"][2 - (i + shift) % 3:] for i, q in enumerate(ids)}
            for shift, name in enumerate(SYSTEMS)}
    return {name: ragmetrics.evaluate(run, golden, ["mrr"]) for name, run in runs.items()}


def assert_safe_per_query_csv(path, ids):
    """One row per query and system whichever way the file is read; every id as the guard
    writes it; no line of the file and no cell starting a formula."""
    mrr = {(q, name): 1 / (1 + (i + shift) % 3)
           for shift, name in enumerate(SYSTEMS) for i, q in enumerate(ids)}
    # In the rows' order (systems in turn, queries in evaluate's natural order within each:
    # as numbers when all are ASCII digits, equal numbers by text; else as text).
    numeric = all(q.isascii() and q.isdigit() for q in ids)

    def natural(query):
        return (int(query), query) if numeric else (0, query)

    order = sorted(mrr, key=lambda key: (SYSTEMS.index(key[1]), natural(key[0])))
    expected = [[spreadsheet_cell(q), spreadsheet_cell(name), repr(mrr[q, name])]
                for q, name in order]
    with open(path, encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file, strict=True))
    assert rows == [["query_id", "system", "mrr"], *expected]
    back = pd.read_csv(path, dtype={"query_id": str, "system": str}, keep_default_na=False)
    assert back.columns.tolist() == ["query_id", "system", "mrr"]
    assert back[["query_id", "system"]].to_numpy().tolist() == [row[:2] for row in expected]
    assert back["mrr"].tolist() == [float(row[2]) for row in expected]
    for line in LINE_BREAK.split(path.read_text(encoding="utf-8")):
        assert not line.startswith(FORMULA_START) or PLAIN_NUMBER.fullmatch(line.split(",")[0])
    for row in rows:
        for cell in row[:2]:
            assert not cell.startswith(FORMULA_START) or PLAIN_NUMBER.fullmatch(cell)


def test_per_query_csv_keeps_hostile_ids_in_their_row(tmp_path):
    # Before: "a\r=1+1" went out unquoted and was read back as two rows, "a" and
    # "=1+1,bm25,1.0", a formula past the guard.
    path = write_per_query_csv(hostile_evaluations(HOSTILE_IDS), tmp_path / "pq.csv")
    assert_safe_per_query_csv(path, HOSTILE_IDS)
    written = path.read_bytes()
    assert written.startswith(b"query_id,system,mrr\n")
    assert b'\n"a\r\'=1+1",bm25,1.0\n' in written
    assert b'\n"a\r\'=1+1","x\r\'-2,=y",0.5\n' in written


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="ab=+-@,\"'\t\r\n\u2028\x85 01.", max_size=6), min_size=1,
                max_size=5, unique=True))
def test_per_query_csv_keeps_any_id_in_its_row(tmp_path_factory, ids):
    path = tmp_path_factory.mktemp("pq") / "pq.csv"
    write_per_query_csv(hostile_evaluations(ids), path)
    assert_safe_per_query_csv(path, ids)


def test_per_query_csv_writes_plain_values_as_pandas_does(tmp_path):
    # Quoting is added where a cell needs it only: a plain file is pandas' to_csv, byte for
    # byte, numbers (shortest round-trip text, a missing value empty) included.
    values = [0.1 + 0.2, float("nan"), 1e-20, 1e16, 5e-324, 2 / 3, 0.0, 1.0]
    index = pd.Index([f"q{i}" for i in range(len(values))], name="query_id")
    evaluation = SimpleNamespace(per_query=pd.DataFrame({"mrr": values, "ndcg@10": values[::-1]},
                                                        index=index))
    path = write_per_query_csv({"bm25 <b>|x": evaluation}, tmp_path / "pq.csv")
    expected = per_query_frame({"bm25 <b>|x": evaluation}).to_csv(index=False)
    assert path.read_text(encoding="utf-8") == expected
    back = pd.read_csv(path, dtype={"query_id": str})
    np.testing.assert_array_equal(back["mrr"].to_numpy(), values)


@pytest.mark.parametrize("name", ["report.html", "report.htm", "REPORT.MD", "r.markdown"])
def test_write_report_by_extension(comparison, tmp_path, name):
    path = write_report(comparison, tmp_path / name)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") == name.lower().endswith((".html", ".htm"))
    assert "Convention card" in text


def test_write_report_refuses_unknown_extension(comparison, tmp_path):
    with pytest.raises(ValueError, match=r"report\.pdf.*\.html, \.htm, \.md"):
        write_report(comparison, tmp_path / "report.pdf")
    assert list(tmp_path.iterdir()) == []


def test_failure_mid_write_leaves_the_old_report_and_no_temporary(tmp_path):
    path = tmp_path / "report.md"
    path.write_text("the old report\n", encoding="utf-8")
    # A lone surrogate cannot be encoded: the write fails after 100,000 characters.
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, "x" * 100_000 + "\ud800")
    assert path.read_text(encoding="utf-8") == "the old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_failure_to_replace_leaves_the_old_report_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "report.md"
    path.write_text("the old report\n", encoding="utf-8")

    def refuse(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(output_files.os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(path, "the new report\n")
    assert path.read_text(encoding="utf-8") == "the old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_failure_on_a_new_file_leaves_nothing(tmp_path):
    with pytest.raises(UnicodeEncodeError):
        write_atomic(tmp_path / "new.md", "\ud800")
    assert list(tmp_path.iterdir()) == []


def test_write_atomic_replaces_and_keeps_permissions(tmp_path):
    path = tmp_path / "report.md"
    path.write_text("old", encoding="utf-8")
    os.chmod(path, 0o640)
    write_atomic(path, "new ✓\n")
    assert path.read_bytes() == "new ✓\n".encode()
    assert path.stat().st_mode & 0o777 == 0o640
    fresh = write_atomic(tmp_path / "fresh.md", "x")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


def edge_comparisons():
    yield "one system", compare({"s": {"q1": ["a"]}}, {"q1": {"a"}}, ["mrr"], n_resamples=20)
    yield "one query", compare({"s": {"q1": ["a"]}, "t": {"q1": ["b", "a"]}}, {"q1": {"a"}},
                               ["mrr", "recall@1"], n_resamples=20)
    yield "no values", compare({"s": {"q1": ["a"]}, "t": {"q1": ["b"]}}, {"q1": {"a": 0}},
                               ["mrr", "ndcg@3"], n_resamples=20, empty_relevant="skip")


@pytest.mark.parametrize("case", ["one system", "one query", "no values"])
def test_every_report_renders_edge_cases(case):
    comparison = dict(edge_comparisons())[case]
    page, markdown, text = to_html(comparison), to_markdown(comparison), to_text(comparison)
    assert "Convention card" in page
    assert "## Convention card" in markdown
    assert text.startswith("Verdict on ")
    assert f"\n{comparison.n_queries} quer" in text
    if case == "no values":
        assert "n/a [n/a, n/a]" in text
    if case == "one query":
        assert "only 1 query: too few queries" in text
        assert "\n1 query, 2 systems;" in text
        assert "n/a" in text  # no t-test on one query


def test_a_mean_over_fewer_queries_says_how_many():
    # Under a "skip" policy a mean may average fewer queries than were compared: it says so.
    qrels = {f"q{i}": ({"a"} if i % 3 else {"a": 0}) for i in range(30)}  # 10 without one
    run = {f"q{i}": ["a"] for i in range(30)}
    result = compare({"x": run}, qrels, ["mrr", "recall@5"], empty_relevant="skip",
                     n_resamples=200)
    assert summary_table(result).loc["mrr", "x"] == "1.0000 [1.0000, 1.0000] (n = 20)"
    text = result.to_text()
    assert "\n30 queries, 1 system; mean [95% interval]" in text
    assert "(n = 20)" in text
    assert "A cell marked (n = ...) is a mean over fewer queries" in result.to_markdown()


# -- the drill-down and the power table ----------------------------------------------------

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def hostile():
    """Query and doc ids that are HTML, a Markdown link and a table break."""
    qrels = {HOSTILE: {"[click](javascript:alert(1))": 1}, "q|2": {HOSTILE: 2, "d": 1}}
    runs = {"a": {HOSTILE: ["x", "[click](javascript:alert(1))"], "q|2": ["d", HOSTILE]},
            "b <i>": {HOSTILE: ["[click](javascript:alert(1))"], "q|2": [HOSTILE]}}
    return compare(runs, qrels, ["mrr", "ndcg@10"], n_resamples=200)


def test_power_section_holds_the_comparisons_numbers(comparison):
    document = build_report(comparison)
    power = comparison.power(target=0.02)
    assert document.power.table.header[-1] == "queries for 0.02"
    for row, ((metric, system), expected) in zip(document.power.table.rows, power.iterrows(),
                                                 strict=True):
        assert row[:3] == (metric, system, str(int(expected["n_queries"])))
        assert row[4] == f"{expected['mde']:.4f}"
        assert row[5] == str(int(expected["queries_needed"]))
    assert "## Power: what these queries can detect" in to_markdown(comparison)
    assert "<h2>Power: what these queries can detect</h2>" in to_html(comparison, figures=False)
    assert build_report(compare({"old": {"q": ["a"]}}, {"q": {"a"}}, ["mrr"],
                                n_resamples=50)).power is None


def test_rankings_add_up_to_the_values(support_comparison):
    document = build_report(support_comparison)
    c = support_comparison
    assert len(document.rankings) == 5
    differ = c.queries_that_differ_most("ndcg@10", 5, system="dense_minilm")
    for section, (query_id, row) in zip(document.rankings, differ.iterrows(), strict=True):
        assert section.heading == (f"Query {query_id}: dense_minilm vs bm25",)
        adds = {"bm25": 3, "dense_minilm": 6}
        for system, column in adds.items():
            total = sum(float(r[column]) for r in section.table.rows if r[column])
            assert total == pytest.approx(row[system], abs=5e-4 * len(section.table.rows))
    markdown = to_markdown(c)
    assert "## The queries that differ most, rank by rank" in markdown
    assert markdown.count("### Query ") == 5


def test_drilldown_text_is_inert_in_every_format(hostile):
    page = to_html(hostile, figures=False)
    assert "<img" not in page
    assert "<i>" not in page
    assert "<script" not in page
    assert page.count('<details class="ranking">') == 2
    assert f"<summary>Query {HOSTILE.replace('<', '&lt;').replace('>', '&gt;')}" in page
    markdown = to_markdown(hostile)
    assert "<img" not in markdown
    assert not re.search(r"(?<!\\)\]\(javascript", markdown)
    assert r"\[click\](javascript:alert(1))" in markdown
    assert r"q\|2" in markdown


def test_the_commands_report_has_the_drilldown(tmp_path, capsys):
    """The command reads each run when it is scored and lets it go; the report's
    drill-down reads the runs it shows again (a run read in parts is not shown)."""
    from ragmetrics.cli import main

    data = Path(__file__).resolve().parents[3] / "data" / "support_demo"
    out = tmp_path / "report.html"
    status = main(["evaluate", str(data / "golden.csv"), str(data / "runs" / "bm25.tsv"),
                   str(data / "runs" / "dense_minilm.tsv"), "--metrics", "ndcg@10,mrr",
                   "--resamples", "200", "--report", str(out)])
    capsys.readouterr()
    assert status == 0
    page = out.read_text(encoding="utf-8")
    assert page.count('<details class="ranking">') == 5
    assert "<script" not in page
