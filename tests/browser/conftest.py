"""Fixtures for real-browser tests: a JupyterLab (or Voila) server on 127.0.0.1 and Debian's
Chromium driven by Playwright. Never `playwright install`: it downloads a browser build.

The servers are this test session's own processes, stopped by their own PIDs at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TOKEN = "ragmetrics-browser-test"
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
# Playwright adds --headless itself. The networking flags keep Chromium from calling home
# on a machine whose only network is the loopback.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config, items):
    if shutil.which(CHROMIUM) is None:
        reason = f"no Chromium at {CHROMIUM}: install Debian's chromium (.ci/run does) to run these"
        print(f"\nSKIPPING browser tests: {reason}")
        for item in items:
            if "browser" in str(item.fspath):
                item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(url: str, proc: subprocess.Popen, *, probe_http: bool, timeout: float = 90):
    start = time.monotonic()
    host, port = url.split("/")[2].split(":")
    while time.monotonic() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}; see its log")
        try:
            if probe_http:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        return time.monotonic() - start
            else:  # Voila: GET / would execute the notebook, so only check the port
                socket.create_connection((host, int(port)), timeout=1).close()
                return time.monotonic() - start
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} not ready after {timeout} s")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def server_env(tmp_path_factory):
    settings = tmp_path_factory.mktemp("lab-settings")
    quiet = settings / "@jupyterlab" / "apputils-extension"
    quiet.mkdir(parents=True)
    (quiet / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True})
    )
    return dict(
        os.environ,
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path_factory.mktemp("lab-workspaces")),
        JUPYTER_RUNTIME_DIR=str(tmp_path_factory.mktemp("jupyter-runtime")),
        MPLBACKEND="",
    )


@pytest.fixture(scope="session")
def notebook_root(tmp_path_factory):
    """A scratch folder the servers serve; tests write the notebooks they open into it."""
    return tmp_path_factory.mktemp("served")


@contextlib.contextmanager
def _server(name, cmd, env, logs, *, ready_url, probe_http, cwd=None):
    """Run one server of this test session; stop it, by its own PID, at the end."""
    with (logs / f"{name}.log").open("w") as log:
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=cwd)
        try:
            took = _wait_ready(ready_url, proc, probe_http=probe_http)
            print(f"\n[browser] {name} ready in {took:.1f} s")
            yield
        finally:
            _stop(proc)


@pytest.fixture(scope="session")
def lab(server_env, notebook_root, tmp_path_factory):
    port = _free_port()
    cmd = [
        sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
        f"--IdentityProvider.token={TOKEN}", "--ServerApp.ip=127.0.0.1", "--allow-root",
        f"--ServerApp.root_dir={notebook_root}", "--ServerApp.port_retries=0",
    ]
    url = f"http://127.0.0.1:{port}"
    with _server("JupyterLab", cmd, server_env, tmp_path_factory.mktemp("logs"),
                 ready_url=f"{url}/api/status?token={TOKEN}", probe_http=True):
        yield url


@pytest.fixture(scope="session")
def voila_server(server_env, notebook_root, tmp_path_factory):
    pytest.importorskip("voila")
    port = _free_port()
    cmd = [
        sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
        "--Voila.ip=127.0.0.1", f"--token={TOKEN}", "--Voila.port_retries=0",
        f"--Voila.root_dir={notebook_root}",
    ]
    url = f"http://127.0.0.1:{port}"
    with _server("Voila", cmd, server_env, tmp_path_factory.mktemp("logs"),
                 ready_url=url, probe_http=False, cwd=notebook_root):
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1300, "height": 1100})
    # Offline: refuse every request that is not to this machine at once (Voila links a CDN).
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1|localhost)"), lambda route: route.abort())
    page.errors = []
    page.dialogs = []
    page.stacks = []
    page.on("pageerror", lambda error: (page.errors.append(str(error)),
                                        page.stacks.append(error.stack or "")))
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    yield page
    page.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# What the browser tests measured, printed at the end of every run (pytest captures
# the tests' own prints): screenshot paths and drop-to-update latencies.
BROWSER_REPORT: list[str] = []


@pytest.fixture
def browser_report():
    return BROWSER_REPORT


def pytest_terminal_summary(terminalreporter):
    if BROWSER_REPORT:
        terminalreporter.section("browser tests")
        for line in BROWSER_REPORT:
            terminalreporter.write_line(line)
