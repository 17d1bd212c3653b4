"""``ragmetrics trec_eval`` as a drop-in: what trec_eval 10 reads, and prints, beyond its
test suite.

The expected outputs were printed by trec_eval 10.0 (usnistgov/trec_eval f425365, built
from source) on the inputs written here; where trec_eval's behaviour comes from its
source, the test names the function (``get_qrels.c``, ``get_trec_results.c``).
"""

from __future__ import annotations

import contextlib
import io
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
