"""The wheel and the sdist work from any install: built, installed apart, and used.

The wheel is installed into a folder of its own and imported from there with the source
tree taken off the path, so a file that only the checkout has (data/, a JS asset) shows
up as a failure here, not on a user's machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--sdist", "--outdir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_the_wheel_carries_the_code_the_assets_and_the_data(dist):
    wheel = next(dist.glob("ragmetrics-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "ragmetrics/__init__.py",
        "ragmetrics/metrics/kernels.py",
        "ragmetrics/widgets/board.js",
        "ragmetrics/widgets/theme.css",
        "ragmetrics/_data/article_examples.jsonl",
        "ragmetrics/_data/errata.jsonl",
        "ragmetrics/_data/support_demo/golden.csv",
        "ragmetrics/_data/squad2_dev/README.md",
    ):
        assert needed in names, needed
    assert not any(name.startswith(("tests/", "notebooks/")) for name in names)


def test_the_sdist_carries_tests_notebooks_and_data(dist):
    sdist = next(dist.glob("ragmetrics-*.tar.gz"))
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in (
        "pyproject.toml",
        "README.md",
        "LICENSE",
        "tests/unit/metrics/test_metrics.py",
        "conftest.py",
        "tests/conformance/trec_eval/qrels.test",
        "tests/data/hostile/make_corpus.py",
        "notebooks/00_index.ipynb",
        "data/article_examples.jsonl",
        "data/support_demo/README.md",
    ):
        assert needed in names, needed


USE_THE_WHEEL = textwrap.dedent("""
    import json, sys
    root = sys.argv[1]
    sys.path = [p for p in sys.path if p.rstrip("/") != root]  # the source tree is not on it
    sys.path.insert(0, sys.argv[2])
    import ragmetrics
    from ragmetrics.teaching import load_example
    from ragmetrics.spans import load_span_dataset

    example = load_example("cancellation")
    result = ragmetrics.evaluate({"q": example.retrieved}, {"q": example.relevant},
                                 ["recall@5", "ndcg@10"])
    squad = load_span_dataset("squad2_dev")
    print(json.dumps({"file": ragmetrics.__file__, "summary": result.summary.round(4).tolist(),
                      "squad_documents": len(squad.documents)}))
""")


def test_an_installed_wheel_loads_an_example_and_evaluates(dist, tmp_path):
    wheel = next(dist.glob("ragmetrics-*.whl"))
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", "--target", str(target), str(wheel)],
                   check=True, timeout=300)
    done = subprocess.run([sys.executable, "-c", USE_THE_WHEEL, str(ROOT), str(target)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["file"].startswith(str(target))  # the wheel's copy, not the checkout
    # The article's cancellation example: Recall@5 = 2/3, nDCG@10 = 0.8711 (see errata).
    assert report["summary"] == [0.6667, 0.8711]
    assert report["squad_documents"] > 0
