"""Segments of the queries: per-segment means, differences and tests, the weighting of the
overall row, the notes (a collapse hidden by a flat average, a segment too small), and
``ragmetrics evaluate --segments``.

Per-query values are recall@10 with ten relevant docs per query, so a run that finds
``c`` of them scores ``c / 10`` exactly; p-values are checked against a sign-flip test
written out here (every pattern), the corrections against Holm's procedure written out.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import ragmetrics
from ragmetrics.cli import main
from ragmetrics.comparison import ALL_SEGMENTS
from ragmetrics.errors import FormatError, InputTypeError, InputValueError
from ragmetrics.io import read_segments


def qrels_for(n: int) -> dict:
    return {f"q{i:02d}": {f"r{j}" for j in range(10)} for i in range(n)}


def found(qrels: dict, counts) -> dict:
    """A run finding ``counts[i]`` of the ten relevant docs in its top 10 on query i."""
    return {q: [f"r{j}" for j in range(c)] + [f"x{j}" for j in range(10 - c)]
            for q, c in zip(qrels, counts, strict=True)}


def exact_sign_flip(d) -> float:
    d = np.asarray(d, dtype=float)
    observed = abs(d.sum())
    hits = sum(abs(np.dot(signs, d)) >= observed - 1e-9
               for signs in itertools.product([1, -1], repeat=len(d)))
    return hits / 2 ** len(d)


def holm_by_hand(p) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    order = np.argsort(p, kind="stable")
    out, running = np.empty(len(p)), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


# A collapse hidden by a flat average: on segment A the new system finds 3 fewer of ten
# relevant docs (-0.3), on segment B 3 more (+0.3); 20 queries each, overall flat.
RNG = np.random.default_rng(11)
COLLAPSE_QRELS = qrels_for(40)
OLD_COUNTS = RNG.integers(3, 8, size=40)
NEW_COUNTS = OLD_COUNTS + np.where(np.arange(40) < 20, -3, 3)
COLLAPSE_SEGMENTS = {q: ("A" if i < 20 else "B") for i, q in enumerate(COLLAPSE_QRELS)}


@pytest.fixture(scope="module")
def collapse():
    runs = {"old": found(COLLAPSE_QRELS, OLD_COUNTS), "new": found(COLLAPSE_QRELS, NEW_COUNTS)}
    return ragmetrics.compare(runs, COLLAPSE_QRELS, ["recall@10", "precision@10"],
                              segments=COLLAPSE_SEGMENTS, n_resamples=1000)


def test_a_collapse_hidden_by_a_flat_average_is_named(collapse):
    c = collapse
    overall = c.tests.loc[("recall@10", "new")]
    assert overall["difference"] == pytest.approx(0.0, abs=1e-12)
    assert overall["verdict"] == "no significant difference"
    a = c.segments.loc[("recall@10", "A", "new")]
    b = c.segments.loc[("recall@10", "B", "new")]
    assert a["difference"] == pytest.approx(-0.3)
    assert b["difference"] == pytest.approx(0.3)
    assert a["significant"]
    assert a["verdict"] == "old better"
    assert b["verdict"] == "new better"
    notes = [w for w in c.warnings if "segment 'A'" in w and "recall@10" in w]
    assert len(notes) == 1
    assert notes[0].startswith("new does not differ significantly from old overall on "
                               "recall@10 (+0.0000) but worse on segment 'A' by -0.3000 [")
    # The report says it first, and shows the segment table.
    text = c.to_text()
    assert "but worse on segment 'A' by -0.3000" in text
    assert "Segments on recall@10" in text
    markdown = c.to_markdown()
    assert "## Segments on recall@10" in markdown
    assert "## Segments on precision@10" in markdown
    assert "| segment weights | per query" in markdown
    assert "<h2>Segments on precision@10</h2>" in c.to_html(figures=False)


def test_per_segment_numbers_by_hand(collapse):
    c = collapse
    old, new = OLD_COUNTS / 10, NEW_COUNTS / 10
    raw = []
    for segment, rows in (("A", slice(0, 20)), ("B", slice(20, 40))):
        row = c.segments.loc[("recall@10", segment, "old")]
        assert row["n_queries"] == 20
        assert row["mean"] == pytest.approx(old[rows].mean())
        assert row["low"] <= row["mean"] <= row["high"]
        assert c.segments.loc[("recall@10", segment, "new"), "mean"] == pytest.approx(
            new[rows].mean())
    # Every difference is constant (-0.3 or +0.3) here: the test is checked on a segment
    # with spread below; the family is segments x metrics x systems: 2 x 2 x 1.
    for metric in ("recall@10", "precision@10"):
        for segment in ("A", "B"):
            raw.append(c.segments.loc[(metric, segment, "new"), "p_randomization"])
    adjusted = [c.segments.loc[(m, s, "new"), "p_adjusted"]
                for m in ("recall@10", "precision@10") for s in ("A", "B")]
    np.testing.assert_allclose(adjusted, holm_by_hand(raw), atol=1e-12)
    assert c.segment_confidence == pytest.approx(1 - 0.05 / 4)
    # The overall rows are the comparison's own numbers (per query).
    all_rows = c.segments.loc[("recall@10", ALL_SEGMENTS, "new")]
    assert all_rows["p_adjusted"] == c.tests.loc[("recall@10", "new"), "p_adjusted"]
    assert all_rows["mean"] == c.summary.loc[("recall@10", "new"), "mean"]


def test_a_segments_sign_flip_test_by_hand():
    qrels = qrels_for(14)
    rng = np.random.default_rng(5)
    base = rng.integers(2, 9, size=14)
    other = np.clip(base + rng.integers(-2, 4, size=14), 0, 10)
    segments = {q: ("small" if i < 6 else "large") for i, q in enumerate(qrels)}
    c = ragmetrics.compare({"a": found(qrels, base), "b": found(qrels, other)}, qrels,
                           ["recall@10"], segments=segments, n_resamples=500)
    d = (other - base) / 10
    order = list(c.segments.loc["recall@10"].index.get_level_values("segment").unique())
    assert order == ["small", "large", ALL_SEGMENTS]
    p = [exact_sign_flip(d[:6]), exact_sign_flip(d[6:])]
    got = [c.segments.loc[("recall@10", s, "b"), "p_randomization"] for s in ("small", "large")]
    np.testing.assert_allclose(got, p, atol=1e-12)
    np.testing.assert_allclose(
        [c.segments.loc[("recall@10", s, "b"), "p_adjusted"] for s in ("small", "large")],
        holm_by_hand(p), atol=1e-12)
    assert c.segments.loc[("recall@10", "small", "b"), "difference"] == pytest.approx(
        d[:6].mean())


def test_weighting_per_query_or_equal():
    # Segment A: 30 queries, B: 10; the means differ by segment.
    qrels = qrels_for(40)
    a_counts = np.array([2] * 30 + [8] * 10)
    b_counts = np.array([3] * 15 + [4] * 15 + [6] * 5 + [9] * 5)
    segments = {q: ("A" if i < 30 else "B") for i, q in enumerate(qrels)}
    runs = {"a": found(qrels, a_counts), "b": found(qrels, b_counts)}
    per_query = ragmetrics.compare(runs, qrels, ["recall@10"], segments=segments,
                                   n_resamples=500)
    equal = ragmetrics.compare(runs, qrels, ["recall@10"], segments=segments,
                               segment_weights="equal", n_resamples=500)
    row = per_query.segments.loc[("recall@10", ALL_SEGMENTS, "b")]
    assert row["mean"] == pytest.approx(b_counts.mean() / 10)            # 0.45
    assert row["difference"] == pytest.approx((b_counts - a_counts).mean() / 10)
    row = equal.segments.loc[("recall@10", ALL_SEGMENTS, "b")]
    assert row["mean"] == pytest.approx((0.35 + 0.75) / 2)               # 0.55
    assert row["difference"] == pytest.approx(((0.35 - 0.2) + (0.75 - 0.8)) / 2)
    assert row["difference_low"] <= row["difference"] <= row["difference_high"]
    # The weighted test: the sign-flip test of n / (S n_s) d, in the segment family
    # (2 segments + the overall row: 3 claims).
    d = (b_counts - a_counts) / 10
    scale = np.where(np.arange(40) < 30, 40 / (2 * 30), 40 / (2 * 10))
    assert (scale * d).mean() == pytest.approx(row["difference"])
    assert equal.segment_confidence == pytest.approx(1 - 0.05 / 3)
    # The means table stays per query; the card says how the overall row weights.
    assert equal.summary.loc[("recall@10", "b"), "mean"] == pytest.approx(0.45)
    assert "equal: every segment counts the same" in equal.to_markdown()
    assert "segment weights | per query" in per_query.to_markdown()


def test_a_segment_too_small_is_named():
    qrels = qrels_for(60)
    rng = np.random.default_rng(2)
    base = rng.integers(2, 8, size=60)
    other = np.clip(base + rng.integers(-1, 3, size=60), 0, 10)
    segments = {q: ("tiny" if i < 5 else "main") for i, q in enumerate(qrels)}
    c = ragmetrics.compare({"a": found(qrels, base), "b": found(qrels, other)}, qrels,
                           ["recall@10"], segments=segments, n_resamples=500)
    tiny = c.segments.loc[("recall@10", "tiny", "b")]
    assert not tiny["significant"]
    assert tiny["mde"] > tiny["overall_mde"] > 0
    note = next(w for w in c.warnings if w.startswith("segment 'tiny'"))
    assert note.startswith("segment 'tiny' (5 of 60 queries) is too small to detect the "
                           f"overall minimum detectable effect: on recall@10 (b vs a) it "
                           f"detects differences of {tiny['mde']:.4f} or more, where all "
                           f"the queries detect {tiny['overall_mde']:.4f}")


def test_bad_segments_are_refused():
    qrels = qrels_for(4)
    runs = {"a": found(qrels, [1, 2, 3, 4])}
    with pytest.raises(InputValueError, match=r"no segment to 1 of the 4 .*'q03'"):
        ragmetrics.compare(runs, qrels, ["recall@10"], n_resamples=50,
                           segments={"q00": "x", "q01": "x", "q02": "y"})
    with pytest.raises(InputValueError, match="label of the overall rows"):
        ragmetrics.compare(runs, qrels, ["recall@10"], n_resamples=50,
                           segments=dict.fromkeys(qrels, ALL_SEGMENTS))
    with pytest.raises(InputTypeError, match="segments must be a mapping"):
        ragmetrics.compare(runs, qrels, ["recall@10"], segments=["x"], n_resamples=50)
    with pytest.raises(InputTypeError, match="got str"):
        ragmetrics.compare(runs, qrels, ["recall@10"], segments="kind", n_resamples=50)
    with pytest.raises(InputValueError, match="segment_weights"):
        ragmetrics.compare(runs, qrels, ["recall@10"], segments=dict.fromkeys(qrels, "x"),
                           segment_weights="size", n_resamples=50)
    series = pd.Series(["x", "y", "x", "y"], index=list(qrels))  # a Series works as well
    c = ragmetrics.compare(runs, qrels, ["recall@10"], segments=series, n_resamples=50)
    assert c.segments.loc[("recall@10", "y", "a"), "mean"] == pytest.approx(0.3)


def test_read_segments(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"query_id": "q1", "segment": "a"}\n\n{"query_id": 2, "segment": "b"}\n')
    assert read_segments(path).to_dict() == {"q1": "a", "2": "b"}
    path = tmp_path / "s.tsv"
    path.write_text("segment\tquery_id\na\tq1\nb\tq1\n")
    with pytest.raises(FormatError, match=r"line 3: query 'q1' is listed twice \(line 2 too\)"):
        read_segments(path)
    path = tmp_path / "s.csv"
    path.write_text("query_id,kind\nq1,a\n")
    with pytest.raises(FormatError, match="the segments file has no column 'segment'"):
        read_segments(path)
    (tmp_path / "s.txt").write_text("query_id,segment\nq1,a\n")
    with pytest.raises(FormatError, match="cannot tell the table format from the name"):
        read_segments(tmp_path / "s.txt")


def test_the_command_reads_segments(tmp_path, capsys):
    golden = tmp_path / "golden.csv"
    pd.DataFrame([(q, d, 1) for q, docs in COLLAPSE_QRELS.items() for d in sorted(docs)],
                 columns=["query_id", "doc_id", "relevance"]).to_csv(golden, index=False)
    paths = []
    for name, counts in (("old", OLD_COUNTS), ("new", NEW_COUNTS)):
        run = found(COLLAPSE_QRELS, counts)
        path = tmp_path / f"{name}.csv"
        pd.DataFrame([(q, d, 10 - r) for q, docs in run.items() for r, d in enumerate(docs)],
                     columns=["query_id", "doc_id", "score"]).to_csv(path, index=False)
        paths.append(str(path))
    segments = tmp_path / "segments.csv"
    pd.Series(COLLAPSE_SEGMENTS, name="segment").rename_axis("query_id").to_csv(segments)
    status = main(["evaluate", str(golden), *paths, "--metrics", "recall@10",
                   "--segments", str(segments), "--segment-weights", "equal",
                   "--resamples", "1000"])
    out, err = capsys.readouterr()
    assert status == 0, err
    table = out[out.index("Segments on recall@10"):].splitlines()
    a_new = next(line for line in table if line.split()[:2] == ["A", "new"])
    assert "-0.3000 [" in a_new
    assert a_new.rstrip().split()[-3:-1] == ["old", "better"]
    assert "but worse on segment 'A' by -0.3000" in out
    bad = tmp_path / "bad.csv"
    bad.write_text("query_id,segment\nq00,A\nq01\n")
    assert main(["evaluate", str(golden), *paths, "--segments", str(bad)]) == 2
    assert ("bad.csv, line 3: expected 2 fields as in the header (query_id, segment), got 1"
            in capsys.readouterr().err)
    assert main(["evaluate", str(golden), *paths, "--segment-weights", "equal"]) == 2
    assert "give --segments FILE too" in capsys.readouterr().err
