"""The Binder set-up: what mybinder.org will build from this repository.

Binder builds the image with repo2docker. ``jupyter-repo2docker --no-build --debug .``
renders that build (the Dockerfile goes to stdout) without a Docker engine, so we can
check what it will do: which buildpack it picks, which Python, and that it pip-installs
``binder/requirements.txt``, whose first line installs this repository. (With a
``binder/`` folder, repo2docker reads only that folder: it does not install the
repository on its own, hence the ``.[lab]`` line.)

repo2docker is not a dependency of the project: a session fixture installs it into a
throwaway venv (about 5-20 s). The test is skipped, with the reason printed, only when
pip cannot reach the package index.

Rendering does not check that pip can resolve the requirements; set
``RAGMETRICS_BINDER_RESOLVE=1`` to also run ``pip install --dry-run`` on them (about
30-70 s, needs the package index).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
REQUIREMENTS = BINDER / "requirements.txt"
INDEX_URLPATH = "urlpath=lab/tree/notebooks/00_index.ipynb"
BADGE = (
    "[![Binder](https://mybinder.org/badge_logo.svg)]"
    "(https://mybinder.org/v2/gh/ragmetrics/ragmetrics/HEAD?urlpath=lab/tree/notebooks/00_index.ipynb)"
)

# pip's words for "the package index is out of reach".
_OFFLINE = re.compile(
    r"NewConnectionError|Failed to establish a new connection|Temporary failure in name "
    r"resolution|Name or service not known|Network is unreachable|ProxyError|"
    r"No matching distribution found for jupyter-repo2docker|ConnectTimeout|ReadTimeout"
)

# Asks repo2docker itself which buildpack it picks, as `repo2docker` does before building.
_DETECT = """
from repo2docker.app import Repo2Docker
app = Repo2Docker()
for BP in app.buildpacks:
    bp = BP(base_image=app.base_image)
    if bp.detect():
        print(BP.__name__, bp.python_version, bp.binder_dir)
        break
else:
    print("none")
"""


def _requirement_lines() -> list[str]:
    lines = REQUIREMENTS.read_text(encoding="utf-8").splitlines()
    return [
        line.split(" #")[0].strip() for line in lines if line.strip() and not line.startswith("#")
    ]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


# --- static checks (no repo2docker needed) ----------------------------------------------


def test_runtime_is_python_3_11():
    # repo2docker wants "python-X.Y"; "python3.11" is a build error (Invalid runtime.txt).
    assert (BINDER / "runtime.txt").read_text(encoding="utf-8").strip() == "python-3.11"


def test_runtime_satisfies_requires_python():
    from packaging.specifiers import SpecifierSet

    requires = SpecifierSet(_pyproject()["project"]["requires-python"])
    assert Version("3.11") in requires


def test_no_conda_environment_file():
    # With environment.yml present, repo2docker switches to the conda buildpack and
    # ignores requirements.txt entirely.
    for name in ("environment.yml", "environment.yaml", "Pipfile", "setup.py", "Project.toml"):
        assert not (BINDER / name).exists(), f"binder/{name} would change the buildpack"


def test_requirements_install_the_repository_first_with_the_lab_extra():
    lines = _requirement_lines()
    assert lines, "binder/requirements.txt is empty"
    assert lines[0] == ".[lab]", f"the first requirement must be '.[lab]', got {lines[0]!r}"


def test_requirements_agree_with_the_project():
    """Binder may pin tighter than pyproject.toml, never looser: Binder runs what CI tested."""
    project = _pyproject()["project"]
    declared = {}
    for line in [*project["dependencies"], *project["optional-dependencies"]["lab"]]:
        req = Requirement(line)
        declared[req.name.lower()] = req
    listed = {}
    for line in _requirement_lines()[1:]:
        req = Requirement(line)
        listed[req.name.lower()] = req
    for name, req in listed.items():
        if name not in declared:
            continue
        for spec in declared[name].specifier:
            if spec.operator in (">=", ">"):
                assert any(
                    s.operator in (">=", ">") and Version(s.version) >= Version(spec.version)
                    for s in req.specifier
                ), f"binder/requirements.txt has {req}, looser than the project's {declared[name]}"
    # The lab stack, with its major versions capped: stored outputs and widgets depend on it.
    for name in ("jupyterlab", "ipywidgets"):
        assert name in listed, f"binder/requirements.txt does not list {name}"
        assert any(s.operator == "<" for s in listed[name].specifier), (
            f"binder/requirements.txt: cap the major version of {name} (e.g. <5)"
        )


def test_post_build_is_executable_and_warms_the_font_cache():
    post_build = BINDER / "postBuild"
    if not post_build.exists():
        pytest.skip("no binder/postBuild")
    assert os.access(post_build, os.X_OK), "binder/postBuild must be executable (chmod +x)"
    text = post_build.read_text(encoding="utf-8")
    assert text.startswith("#!/bin/bash")
    assert "import matplotlib.pyplot" in text


def test_readme_has_a_binder_badge_opening_the_index():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((https://mybinder\.org/v2/gh/[^)\s]+)\)", readme)
    assert any(INDEX_URLPATH in link for link in links), (
        f"README.md needs a Binder badge that opens the index, e.g.\n{BADGE}"
    )


# --- the rendered build --------------------------------------------------------------------


@pytest.fixture(scope="session")
def r2d_venv(tmp_path_factory) -> Path:
    # The test extra installs repo2docker next to pytest; a throwaway venv is the fallback.
    here = Path(sys.executable).parent
    if (here / "jupyter-repo2docker").exists():
        return here.parent
    venv = tmp_path_factory.mktemp("repo2docker") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    done = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "jupyter-repo2docker",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        if _OFFLINE.search(done.stderr):
            reason = "pip cannot reach the package index to install jupyter-repo2docker"
            print(f"SKIP: {reason}\n{done.stderr[-2000:]}")
            pytest.skip(reason)
        pytest.fail(f"pip install jupyter-repo2docker failed:\n{done.stderr[-4000:]}")
    return venv


@pytest.fixture(scope="session")
def rendered(r2d_venv) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(r2d_venv / "bin" / "jupyter-repo2docker"), "--no-build", "--debug", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"repo2docker could not render the build:\n{done.stderr}"
    return done


def test_repo2docker_picks_the_python_buildpack_with_python_3_11(r2d_venv):
    done = subprocess.run(
        [str(r2d_venv / "bin" / "python"), "-c", _DETECT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == ["PythonBuildPack", "3.11", "binder"]


def test_rendered_build_uses_python_3_11(rendered):
    assert "Building conda environment for python=3.11" in rendered.stderr
    # The base env's lock file, environment.py-3.11-linux-64.lock (escaped in the COPY line).
    assert re.search(r"environment(?:\.|-2e)py(?:-|-2d)3(?:\.|-2e)11(?:-|-2d)", rendered.stdout)


def test_rendered_build_pip_installs_the_binder_requirements(rendered):
    dockerfile = rendered.stdout
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in dockerfile
    # The whole repository is copied in before pip runs, so ".[lab]" finds pyproject.toml.
    copy = dockerfile.index("COPY --chown=0:0 src/ ${REPO_DIR}/")
    assert copy < dockerfile.index('-r "binder/requirements.txt"')
    assert "WORKDIR ${REPO_DIR}" in dockerfile
    # Conda's way would mean requirements.txt is ignored.
    assert "environment.yml" not in dockerfile


def test_rendered_build_runs_post_build(rendered):
    if not (BINDER / "postBuild").exists():
        pytest.skip("no binder/postBuild")
    assert "RUN ./binder/postBuild" in rendered.stdout


@pytest.mark.skipif(
    os.environ.get("RAGMETRICS_BINDER_RESOLVE") != "1",
    reason="set RAGMETRICS_BINDER_RESOLVE=1 to check that pip resolves binder/requirements.txt "
    "(.ci/run does, where the package index is reachable)",
)
def test_pip_resolves_the_binder_requirements(r2d_venv, tmp_path):
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            str(r2d_venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--dry-run",
            # As a fresh image would: resolve every requirement, not only what this
            # environment lacks (here everything is installed, and the dry run would
            # list ragmetrics alone).
            "--ignore-installed",
            "--quiet",
            "--disable-pip-version-check",
            "--report",
            str(report),
            "-r",
            str(REQUIREMENTS),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    installed = {
        i["metadata"]["name"].lower(): i for i in json.loads(report.read_text())["install"]
    }
    assert installed["ragmetrics"]["requested_extras"] == ["lab"]
    assert {"jupyterlab", "ipywidgets", "numpy", "pandas", "matplotlib"} <= set(installed)
