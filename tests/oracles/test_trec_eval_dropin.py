"""``ragmetrics trec_eval`` as a drop-in: what trec_eval 10 reads, and prints, beyond its
test suite.

The expected outputs were printed by trec_eval 10.0 (usnistgov/trec_eval f425365, built
from source) on the inputs written here; where trec_eval's behaviour comes from its
source, the test names the function (``get_qrels.c``, ``get_trec_results.c``).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ragmetrics.cli import main
from ragmetrics.metrics.trec_names import FAMILIES

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d3 1 1.0 r\n"


def trec_eval(*args) -> tuple[int, str]:
    """``ragmetrics trec_eval ARGS``: (exit status, stdout)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["trec_eval", *map(str, args)])
    return status, out.getvalue()


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return tmp_path / "qrels", tmp_path / "run"


# -- a parameter given to a measure that takes none ------------------------------------------


def test_a_parameter_on_a_measure_without_parameters_is_ignored_as_by_trec_eval(files):
    # trec_eval -q -m map.5 -m num_q.3 -m recip_rank.x -m P.2 qrels run
    status, out = trec_eval("-q", "-m", "map.5", "-m", "num_q.3", "-m", "recip_rank.x",
                            "-m", "P.2", *files)
    assert status == 0
    assert out == (
        "map                   \tq1\t1.0000\n"
        "recip_rank            \tq1\t1.0000\n"
        "P_2                   \tq1\t0.5000\n"
        "map                   \tq2\t1.0000\n"
        "recip_rank            \tq2\t1.0000\n"
        "P_2                   \tq2\t0.5000\n"
        "num_q                 \tall\t2\n"
        "map                   \tall\t1.0000\n"
        "recip_rank            \tall\t1.0000\n"
        "P_2                   \tall\t0.5000\n")


@pytest.mark.parametrize("root", [f.root for f in FAMILIES if f.style == "plain"])
def test_every_measure_without_parameters_prints_its_plain_name_whatever_it_is_given(
        files, root):
    # trec_eval 10 printed the plain name for each of these with .5, .abc and .1,2.
    plain = trec_eval("-q", "-m", root, *files)
    assert plain[0] == 0
    for params in ("5", "abc", "1,2"):
        assert trec_eval("-q", "-m", f"{root}.{params}", *files) == plain


# -- comments ------------------------------------------------------------------------------
# trec_eval skips a run line whose first character other than whitespace is "#"
# (get_trec_results.c: blank lines and such lines are passed over), and a qrels line with
# "#" in its first column (get_qrels.c). trec_eval 10 printed, for each file below, what it
# prints for the same file without its comments; so does the command. ragmetrics reads
# comments in qrels as in runs (trec_eval's qrels reader skips one such line at a time, and
# crashes on one at the end of the file: see the command's documented differences).

COMMENTED = {
    "qrels, first line": ("#c\n" + QRELS, RUN),
    "qrels, between lines": ("q1 0 d1 1\n#x\nq1 0 d2 0\n#y\nq2 0 d3 1\n", RUN),
    "qrels, a bare #": ("#\n" + QRELS, RUN),
    "qrels, four fields": ("# a b c\n" + QRELS, RUN),
    "qrels, several in a row, indented, last": (
        "#a\n  # b\n\t#c\n" + QRELS + "# the end", RUN),
    "run, two in a row": (QRELS, "#c\n#d\n" + RUN),
    "run, indented": (QRELS, "  #c\n\t#d\n" + RUN),
    "run, six fields": (QRELS, "# a b c d e\n" + RUN),
    "run, between blank lines, last without a line break": (
        QRELS, "q1 Q0 d1 1 2.0 r\n\n   \nq1 Q0 d2 2 1.0 r\n#x y\nq2 Q0 d3 1 1.0 r\n#z"),
}


@pytest.mark.parametrize("case", COMMENTED, ids=list(COMMENTED))
def test_comment_lines_are_skipped_as_by_trec_eval(tmp_path, files, case):
    qrels, run = COMMENTED[case]
    (tmp_path / "q.c").write_text(qrels)
    (tmp_path / "r.c").write_text(run)
    expected = trec_eval("-q", "-m", "all_trec", *files)
    assert expected[0] == 0
    assert trec_eval("-q", "-m", "all_trec", tmp_path / "q.c", tmp_path / "r.c") == expected


def test_comments_in_a_large_run_read_by_arrow_are_skipped(tmp_path):
    # Above FAST_PARSE_FROM bytes the run is split by Arrow: a comment line of six fields
    # would be a row there; the scan reads such a file.
    lines = [f"q{q} Q0 d{d} {d} {100 - d} r\n" for q in range(40) for d in range(1, 30)]
    qrels = "".join(f"q{q} 0 d{d} {d % 2}\n" for q in range(40) for d in range(1, 40, 3))
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "plain").write_text("".join(lines))
    commented = [*lines[:100], "# q0 Q0 d1 1 1 r\n", "  #x\n", *lines[100:], "#end\n"]
    (tmp_path / "commented").write_text("".join(commented))
    assert (tmp_path / "commented").stat().st_size > 8192
    expected = trec_eval("-q", "-m", "all_trec", tmp_path / "qrels", tmp_path / "plain")
    assert trec_eval("-q", "-m", "all_trec", tmp_path / "qrels",
                     tmp_path / "commented") == expected


# -- standard input and pipes --------------------------------------------------------------
# trec_eval reads its run from standard input when it is named "-" (get_trec_results.c).
# The command does; it also reads /dev/stdin, a named pipe or <(cmd), which trec_eval
# mmaps and so cannot read ("Cannot read results file").


def command(*args, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ragmetrics", *map(str, args)],
                          input=stdin, capture_output=True, check=False, timeout=120)


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_the_run_is_read_from_standard_input_as_trec_eval_does(files, name):
    expected = trec_eval("-q", *files)
    done = command("trec_eval", "-q", files[0], name, stdin=RUN.encode())
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode() == expected[1]


def test_a_run_and_qrels_from_named_pipes(tmp_path, named_pipe, files):
    expected = trec_eval("-q", "-m", "all_trec", *files)
    with named_pipe("qrels.pipe", QRELS.encode()) as qrels, \
            named_pipe("run.pipe", gzip.compress(RUN.encode())) as run:
        assert trec_eval("-q", "-m", "all_trec", qrels, run) == expected


@pytest.mark.slow
def test_a_bad_line_in_a_pipe_is_named_with_its_line(tmp_path, named_pipe, files, capsys):
    with named_pipe("run.pipe", (RUN + "q2 Q0 d9 2 high r\n").encode()) as run:
        assert trec_eval(files[0], run)[0] == 2
    err = capsys.readouterr().err
    assert err == (f"ragmetrics: error: {run}, line 4: score must be a number like 2.5 or "
                   "-1e-3, got 'high': 'q2 Q0 d9 2 high r'\n")
    done = command("trec_eval", files[0], "-", stdin=b"q1 Q0 d1 1 2.0\n")
    assert done.returncode == 2
    assert done.stderr.decode().startswith("ragmetrics: error: standard input, line 1: "
                                           "expected 6 fields")


def test_standard_input_named_twice_is_refused(files):
    done = command("trec_eval", "-", "-", stdin=RUN.encode())
    assert done.returncode == 2
    assert done.stderr.decode() == ("ragmetrics: error: RUN - is QRELS - too: standard "
                                    "input or a pipe can be read only once\n")


@pytest.mark.slow
def test_evaluate_reads_the_golden_set_and_a_run_from_standard_input_and_pipes(
        tmp_path, named_pipe, files):
    from ragmetrics.cli import main

    def means(out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith(("map ", "ndcg@10 "))]

    expected = command("evaluate", *files, "--means-only", "--metrics", "map,ndcg@10")
    assert expected.returncode == 0
    table = means(expected.stdout.decode())
    assert len(table) == 2
    done = command("evaluate", files[0], "-", "--means-only", "--metrics", "map,ndcg@10",
                   stdin=RUN.encode())
    assert (done.returncode, done.stderr) == (0, b"")
    assert means(done.stdout.decode()) == table
    done = command("evaluate", "-", files[1], "--means-only", "--metrics", "map,ndcg@10",
                   stdin=QRELS.encode())
    assert means(done.stdout.decode()) == table
    out = io.StringIO()
    with named_pipe("golden.pipe", QRELS.encode()) as golden, \
            named_pipe("run.pipe", RUN.encode()) as run, contextlib.redirect_stdout(out):
        assert main(["evaluate", str(golden), str(run), "--means-only", "--metrics",
                     "map,ndcg@10"]) == 0
    assert means(out.getvalue()) == table


def test_a_reader_that_stops_early_ends_the_command_silently():
    # `ragmetrics trec_eval -q ... | head -1`: once head has its line, the rest goes
    # nowhere. trec_eval is ended by SIGPIPE (141 in a shell, nothing said); so is this,
    # by its exit status (it said "error: [Errno 32] Broken pipe" and exited 2 before).
    conformance = Path(__file__).resolve().parents[1] / "conformance" / "trec_eval"
    command = [sys.executable, "-m", "ragmetrics", "trec_eval", "-q", "-m", "all_trec",
               str(conformance / "qrels.test"), str(conformance / "results.test")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        first = process.stdout.readline()
        process.stdout.close()  # the reader goes, with most of the output unread
        error = process.stderr.read()
        status = process.wait()
    assert first == b"num_ret               \t301\t500\n"
    assert (status, error) == (128 + signal.SIGPIPE, b"")
