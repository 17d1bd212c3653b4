"""``ragmetrics evaluate --save-baseline`` and ``ragmetrics gate``: every exit status, the
--json schema, stale baselines, segments and the ratchet, from files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from ragmetrics.cli import main
from ragmetrics.gate import load_baseline

N = 40


def _write_run(path, ranks):
    """``ranks[q]``: the rank of q's relevant doc (1-based), in a list of 5 docs."""
    lines = []
    for q, rank in enumerate(ranks):
        docs = [f"x{q}_{i}" for i in range(4)]
        docs.insert(rank - 1, f"d{q}")
        lines += [f"q{q} Q0 {d} {i + 1} {10 - i} run" for i, d in enumerate(docs)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(5)
    (tmp_path / "qrels.txt").write_text("".join(f"q{q} 0 d{q} 1\n" for q in range(N)))
    base = rng.integers(1, 3, N)
    paths = {
        "qrels": str(tmp_path / "qrels.txt"),
        "base_run": _write_run(tmp_path / "base.run", base),
        "same": _write_run(tmp_path / "same.run", base),
        # Every "a" query (the first half) falls to rank 5, every "b" query rises to 1:
        "collapse": _write_run(tmp_path / "collapse.run",
                               [5 if q < N // 2 else 1 for q in range(N)]),
        "worse": _write_run(tmp_path / "worse.run", np.minimum(base + 2, 5)),
        "base": str(tmp_path / "base.json"),
        "segments": str(tmp_path / "segments.csv"),
        "dir": tmp_path,
    }
    (tmp_path / "segments.csv").write_text(
        "query_id,segment\n" + "".join(f"q{q},{'a' if q < N // 2 else 'b'}\n"
                                       for q in range(N)))
    assert main(["evaluate", paths["qrels"], paths["base_run"], "--metrics", "mrr,recall@1",
                 "--means-only", "--save-baseline", paths["base"]]) == 0
    return paths


def _gate(files, run, *rules, extra=()):
    args = ["gate", files["base"], files["qrels"], files[run]]
    for rule in rules:
        args += ["--fail-if", rule]
    return main([*args, *extra])


def test_save_baseline_writes_the_run_file_path_and_hash(files):
    baseline = load_baseline(files["base"])
    assert baseline.metrics == ("mrr", "recall@1")
    assert baseline.run["path"] == files["base_run"]
    assert baseline.run["name"] == "base"  # runs are named by their file stems
    import hashlib

    with open(files["base_run"], "rb") as handle:
        assert baseline.run["sha256"] == hashlib.sha256(handle.read()).hexdigest()
    assert len(baseline.per_query) == N


def test_save_baseline_with_several_runs_needs_baseline(files, capsys):
    out = str(files["dir"] / "two.json")
    assert main(["evaluate", files["qrels"], files["base_run"], files["worse"],
                 "--save-baseline", out, "--resamples", "200"]) == 2
    assert "--save-baseline saves one run: 2 are given" in capsys.readouterr().err
    assert main(["evaluate", files["qrels"], files["base_run"], files["worse"], "--metrics",
                 "mrr", "--save-baseline", out, "--baseline", "worse",
                 "--resamples", "200"]) == 0
    assert load_baseline(out).run["name"] == "worse"


def test_pass_is_0(files, capsys):
    assert _gate(files, "same", "mrr worse by 0.01", "recall@1 below 0.3") == 0
    assert capsys.readouterr().out.startswith("gate passed: 2 checks passed")


def test_fail_by_tolerance_is_3_and_says_by_how_much(files, capsys):
    assert _gate(files, "worse", "mrr worse by 0.05") == 3
    out = capsys.readouterr().out
    assert out.startswith("gate FAILED: 1 of 1 check failed")
    base = load_baseline(files["base"]).per_query["mrr"].to_numpy()
    assert "FAIL  mrr worse by 0.05:" in out
    assert "beyond the tolerance" in out
    assert "90% interval of the difference [" in out
    worse_mrr = 1 / np.minimum(1 / base + 2, 5)
    p = stats.ttest_rel(worse_mrr, base - 0.05, alternative="less").pvalue
    assert f"p = {p:.3g}" in out


def test_fail_by_floor_is_3(files, capsys):
    assert _gate(files, "same", "recall@1 below 0.9") == 3
    assert "FAIL  recall@1 below 0.9: mean" in capsys.readouterr().out


def test_fail_by_segment_hidden_by_a_flat_mean(files, capsys):
    # The collapse run: "a" falls from rank 1-2 to rank 5, "b" rises to rank 1.
    assert _gate(files, "collapse", "mrr worse by 0.3") == 0  # the overall mean holds
    assert _gate(files, "collapse", "mrr worse by 0.3",
                 extra=["--segments", files["segments"]]) == 3
    out = capsys.readouterr().out
    assert "FAIL  segment 'a': mrr worse by 0.3" in out
    assert "pass  segment 'b'" in out


def test_json_schema(files):
    out = str(files["dir"] / "verdicts.json")
    assert _gate(files, "collapse", "mrr worse by 0.3", "recall@1 below 0.2",
                 extra=["--segments", files["segments"], "--json", out,
                        "--min-segment-queries", "21"]) == 0  # segments of 20: untested
    document = json.loads(Path(out).read_text())
    assert set(document) == {"schema", "schema_version", "passed", "alpha", "correction",
                             "test", "interval_confidence", "n_queries", "n_claims", "rules",
                             "segments", "baseline", "candidate", "notes", "baseline_updated"}
    assert document["schema"] == "ragmetrics-gate"
    assert document["passed"] is True
    assert document["n_claims"] == 2
    assert document["interval_confidence"] == pytest.approx(0.9)
    rule = document["rules"][0]
    assert set(rule) == {"rule", "metric", "kind", "tolerance", "floor", "segment",
                         "n_queries", "baseline_mean", "candidate_mean", "difference", "bound",
                         "interval", "statistic", "df", "p_value", "p_adjusted", "passed",
                         "note"}
    assert (rule["metric"], rule["kind"], rule["tolerance"], rule["floor"]) == (
        "mrr", "worse_by", 0.3, None)
    assert rule["difference"] == pytest.approx(rule["candidate_mean"] - rule["baseline_mean"])
    assert document["rules"][1]["kind"] == "below"
    assert document["rules"][1]["floor"] == 0.2
    assert document["segments"]["tested"] == []
    assert [u["segment"] for u in document["segments"]["untested"]] == ["a", "b"]
    assert document["baseline"]["judgments"]["queries"] == N
    assert document["candidate"]["run"]["name"] == "collapse"


@pytest.mark.parametrize(("args", "says"), [
    (["--fail-if", "mrr worse than 0.1"], "--fail-if: rule 'mrr worse than 0.1': expected"),
    ([], "give at least one rule"),
    (["--fail-if", "mrr below 0.1", "--alpha", "2"], "--alpha must be between 0 and 1"),
    (["--fail-if", "mrr below 0.1", "--json", "out.txt"], "the file name must end in .json"),
    (["--fail-if", "map worse by 0.01"], "stale baseline .*map is not among"),
    (["--fail-if", "mrr below 0.1", "--relevance-level", "2"],
     "the conventions differ: relevance_level 1 in the baseline, 2 now"),
])
def test_bad_input_is_2_with_one_line(files, capsys, args, says):
    assert main(["gate", files["base"], files["qrels"], files["same"], *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("ragmetrics: error: ")
    import re

    assert re.search(says, err), err


def test_other_judgments_make_the_baseline_stale(files, capsys):
    other = files["dir"] / "other.txt"
    other.write_text("".join(f"q{q} 0 d{q} {2 if q == 0 else 1}\n" for q in range(N)))
    assert main(["gate", files["base"], str(other), files["same"], "--fail-if",
                 "mrr below 0.1"]) == 2
    err = capsys.readouterr().err
    assert "the judgments differ" in err
    assert "--save-baseline" in err


def test_a_missing_or_foreign_baseline_is_2(files, capsys):
    assert main(["gate", str(files["dir"] / "nope.json"), files["qrels"], files["same"],
                 "--fail-if", "mrr below 0.1"]) == 2
    assert "BASELINE file not found" in capsys.readouterr().err
    assert main(["gate", files["qrels"], files["qrels"], files["same"],
                 "--fail-if", "mrr below 0.1"]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_an_internal_error_is_1(files, capsys, monkeypatch):
    import ragmetrics.cli.gate as command

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(command, "check_gate", broken)
    assert _gate(files, "same", "mrr below 0.1") == 1
    assert "internal error (a bug in ragmetrics" in capsys.readouterr().err


def test_update_baseline_only_when_the_gate_passed(files, capsys):
    before = Path(files["base"]).read_text()
    assert _gate(files, "worse", "mrr worse by 0.05", extra=["--update-baseline"]) == 3
    assert "baseline not updated: the gate failed" in capsys.readouterr().out
    assert Path(files["base"]).read_text() == before
    # A better run passes and becomes the baseline; the worse one then fails against it.
    assert _gate(files, "collapse", "mrr worse by 0.3", extra=["--update-baseline"]) == 0
    out = capsys.readouterr().out
    assert "baseline updated:" in out
    assert "mrr " in out
    assert load_baseline(files["base"]).run["name"] == "collapse"


def test_json_is_written_on_failure_too_and_never_over_an_input(files):
    out = str(files["dir"] / "v.json")
    assert _gate(files, "worse", "mrr worse by 0.05", extra=["--json", out]) == 3
    assert json.loads(Path(out).read_text())["passed"] is False
    assert _gate(files, "worse", "mrr worse by 0.05", extra=["--json", files["base"]]) == 2
