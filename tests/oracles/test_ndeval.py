"""``ragmetrics ndeval`` against TREC's ndeval itself, byte for byte.

ndeval.c v4.5 (``tests/data/ndeval/ndeval.c``, unchanged from trec-web/trec-web-2014) is
compiled with the system C compiler into a temporary folder when the tests run; without
a compiler these tests are skipped, saying so. Both read the same files: Hypothesis-drawn
judgments and runs (ties in scores, gaps in ranks, topics on one side only, judgments
0..3, subtopics never relevant, topics with no relevant doc) in both ordering modes, with
-c, -M, alpha and beta; and a subset of the TREC Web 2012 judgments with its baseline runs
(``tests/data/ndeval/README.md``).
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics.cli import main

DATA = Path(__file__).resolve().parent.parent / "data" / "ndeval"
# Flags tried in turn: -ffp-contract=off keeps a * b + c two roundings on any machine;
# gnu89 lets a newer gcc accept ndeval's implicit declarations (alloca).
_FLAGS = (["-O2", "-w", "-ffp-contract=off"], ["-O2", "-w", "-ffp-contract=off", "-std=gnu89"],
          ["-O2", "-w"])


@pytest.fixture(scope="session")
def ndeval_program(tmp_path_factory) -> Path:
    """ndeval, compiled now from the vendored source (skipped without a C compiler)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler (cc, gcc or clang) to build ndeval.c: the byte-for-byte "
                    "comparisons with ndeval need one (apt-get install gcc)")
    program = tmp_path_factory.mktemp("ndeval") / "ndeval"
    errors = []
    for flags in _FLAGS:
        built = subprocess.run([compiler, *flags, "-o", str(program), str(DATA / "ndeval.c"),
                                "-lm"], check=False, capture_output=True, text=True)
        if built.returncode == 0:
            return program
        errors.append(built.stderr[-500:])
    pytest.fail(f"{compiler} could not build ndeval.c: {errors}")


def ndeval(program: Path, *args) -> tuple[int, bytes]:
    done = subprocess.run([str(program), *map(str, args)], check=False, capture_output=True,
                          timeout=60)
    return done.returncode, done.stdout


def ours(*args) -> tuple[int, bytes]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["ndeval", *map(str, args)])
    return status, out.getvalue().encode("utf-8")


def same_output(program: Path, *args) -> bytes:
    status, expected = ndeval(program, *args)
    assert status == 0, expected
    got_status, got = ours(*args)
    assert got_status == 0
    assert got == expected
    return got


# -- hand cases ------------------------------------------------------------------------------

QRELS = "0 1 A 1\n0 2 B 1\n0 2 D 1\n0 3 C 1\n5 1 X 0\n9 4 Y 2\n9 7 Z 1\n"
RUN = ("0 Q0 A 1 9.3 r1\n0 Q0 D 2 8.4 r1\n0 Q0 E 3 8.1 r1\n0 Q0 B 4 7.6 r1\n"
       "5 Q0 X 1 1 r1\nwt12-7 Q0 Z 1 1 r1\n")


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return tmp_path / "qrels", tmp_path / "run"


@pytest.mark.parametrize("options", [(), ("-c",), ("-traditional",), ("-M", 2),
                                     ("-alpha", 0.3, "-beta", 0.8), ("-alpha", 1),
                                     ("-alpha", 0, "-beta", 1), ("-c", "-traditional")],
                         ids=lambda o: " ".join(map(str, o)) or "defaults")
def test_hand_cases_print_what_ndeval_prints(ndeval_program, files, options):
    # Topic 5 is judged with nothing relevant (nNRBP -nan, as ndeval's 0/0), topic 7 is
    # not judged (zeros), topic 9 is judged and not retrieved (-c counts it).
    out = same_output(ndeval_program, *options, *files)
    assert b",-nan," in out.splitlines()[2]


def test_no_topic_with_both_prints_nan_means_as_ndeval(ndeval_program, tmp_path):
    (tmp_path / "qrels").write_text("1 1 A 1\n")
    (tmp_path / "run").write_text("2 Q0 A 1 1 r\n")
    out = same_output(ndeval_program, tmp_path / "qrels", tmp_path / "run")
    assert out.endswith(b"r,amean" + b",-nan" * 21 + b"\n")


# -- drawn cases -----------------------------------------------------------------------------

_DOCS = ["A", "B", "C", "D", "E", "a", "b", "d1", "d10", "d2", "D2", "x-1"]


@st.composite
def cases(draw):
    qrels = []
    for topic in draw(st.lists(st.integers(1, 5), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(_DOCS), min_size=1, max_size=8, unique=True))
        for doc in docs:
            for subtopic in draw(st.lists(st.integers(0, 4), min_size=1, max_size=3,
                                          unique=True)):
                qrels.append((topic, subtopic, doc, draw(st.integers(0, 3))))
    qrels = draw(st.permutations(qrels))
    run = []
    for topic in draw(st.lists(st.integers(1, 6), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(_DOCS), min_size=1, max_size=10, unique=True))
        ranks = draw(st.lists(st.integers(0, 40), min_size=len(docs), max_size=len(docs),
                              unique=True))
        scores = draw(st.lists(st.sampled_from(["1", "2", "2.5", "-0.5", "3e0", "10"]),
                               min_size=len(docs), max_size=len(docs)))
        run += list(zip([topic] * len(docs), docs, ranks, scores, strict=True))
    run = draw(st.permutations(run))
    options = []
    if draw(st.booleans()):
        options.append("-c")
    if draw(st.booleans()):
        options.append("-traditional")
    if draw(st.booleans()):
        options += ["-alpha", draw(st.sampled_from(["0", "0.1", "0.3", "0.5", "0.77", "1"]))]
    if draw(st.booleans()):
        options += ["-beta", draw(st.sampled_from(["0", "0.2", "0.5", "0.9", "1"]))]
    if draw(st.booleans()):
        options += ["-M", draw(st.integers(1, 6))]
    return qrels, run, options


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_drawn_cases_print_what_ndeval_prints(ndeval_program, tmp_path_factory, case):
    qrels, run, options = case
    folder = tmp_path_factory.mktemp("case")
    (folder / "qrels").write_text("".join(f"{t} {s} {d} {j}\n" for t, s, d, j in qrels))
    (folder / "run").write_text("".join(f"{t} Q0 {d} {r} {s} run-{t % 2}\n"
                                        for t, d, r, s in run))
    same_output(ndeval_program, *options, folder / "qrels", folder / "run")


# -- TREC Web 2012 ---------------------------------------------------------------------------

_WEB2012_RUNS = sorted((DATA / "web2012").glob("*.run"))


@pytest.mark.slow
@pytest.mark.parametrize("options", [(), ("-traditional",), ("-c",),
                                     ("-alpha", 0.7, "-beta", 0.9)], ids=lambda o: " ".join(map(str, o)) or "defaults")
@pytest.mark.parametrize("run", _WEB2012_RUNS, ids=lambda p: p.stem)
def test_trec_web_2012_baselines_print_what_ndeval_prints(ndeval_program, run, options):
    out = same_output(ndeval_program, *options, DATA / "web2012" / "qrels-for-ndeval.txt", run)
    assert len(out.splitlines()) > 5
