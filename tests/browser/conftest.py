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
# axe-core, vendored from npm (see vendor/axe-core/README.md): no network at test time.
AXE_JS = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
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


# -- accessibility checks (axe-core) -------------------------------------------------------

# The impacts that fail a test; "minor" and "moderate" ones are reported only.
FAILING_IMPACTS = ("serious", "critical")

_AXE_RUN = """
async (root) => {
  // Inside JupyterLab the page body has height 0 and overflow hidden, so axe would call
  // every text clipped and report colour contrast "inapplicable": give the body the
  // window's height while axe runs, then put its style back.
  const body = document.body;
  const saved = body.getAttribute("style");
  body.style.height = `${window.innerHeight}px`;
  try {
    const result = await axe.run(root, { resultTypes: ["violations"] });
    return {
      version: axe.version,
      violations: result.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
      })),
      checked: result.passes.map((r) => r.id).concat(result.violations.map((r) => r.id),
                                                      result.incomplete.map((r) => r.id)),
    };
  } finally {
    if (saved === null) body.removeAttribute("style"); else body.setAttribute("style", saved);
  }
}
"""


def axe_scan(page, root) -> dict:
    """Run axe-core on one widget root (a Playwright locator); inject axe when needed.

    Returns ``{"version", "violations": [{id, impact, help, nodes}], "checked": [rule ids]}``.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE_JS))
    root.scroll_into_view_if_needed()
    return root.evaluate(_AXE_RUN)


def impact_counts(result: dict) -> dict[str, int]:
    """Violating nodes per impact, e.g. ``{"serious": 3}``."""
    counts: dict[str, int] = {}
    for violation in result["violations"]:
        counts[violation["impact"]] = counts.get(violation["impact"], 0) + len(violation["nodes"])
    return counts


def failing(result: dict) -> list[str]:
    """One line per serious or critical violating node."""
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {node['target']}: {node['summary']}"
        for v in result["violations"] if v["impact"] in FAILING_IMPACTS for node in v["nodes"]
    ]


class _Accessibility:
    """The axe helpers, as one fixture (test modules do not import from conftest)."""

    failing_impacts = FAILING_IMPACTS
    version = AXE_VERSION
    scan = staticmethod(axe_scan)
    impact_counts = staticmethod(impact_counts)
    failing = staticmethod(failing)


@pytest.fixture(scope="session")
def a11y():
    return _Accessibility()


def lab_run_all(page, attempts=3, *, wait_for_idle=True):
    """Run All once the kernel is really connected (a Run All sent earlier is dropped).

    JupyterLab's status bar says when the kernel is idle; Notebook 7 has no status bar, so
    there the retry loop alone covers a Run All sent too early.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    if wait_for_idle:
        expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle")).to_be_visible(
            timeout=90_000
        )
    else:
        expect(page.locator(".jp-CodeCell").first).to_be_visible(timeout=90_000)
    # A dialog on first open (e.g. a kernel choice): take its default.
    with contextlib.suppress(PlaywrightTimeout):
        page.locator(".jp-Dialog .jp-mod-accept").click(timeout=3_000)
    first_prompt = page.locator(".jp-CodeCell .jp-InputPrompt").first
    for _ in range(attempts):
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator("li.lm-Menu-item[data-command='runmenu:run-all']").click()
        try:
            expect(first_prompt).not_to_have_text(re.compile(r"^\[ \]:$"), timeout=15_000)
            return
        except AssertionError:
            print("[browser] Run All was dropped; retrying")
    raise AssertionError("Run All never executed the first cell")


def lab_wait_for_run_all(page, timeout=120_000):
    """Wait until Run All is done: the last code cell with a visible input has its prompt
    number (a check cell's collapsed input shows an empty placeholder prompt), and the kernel
    is idle again (the check cells after it have run too)."""
    from playwright.sync_api import expect

    last = page.locator(".jp-CodeCell .jp-InputPrompt:not(.jp-Placeholder-prompt)").last
    expect(last).to_have_text(re.compile(r"\[\d+\]:"), timeout=timeout)
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle")).to_be_visible(
        timeout=timeout)


@pytest.fixture(scope="session")
def run_all_done():
    """``run_all_done(page)``: wait until Run All is done (see lab_wait_for_run_all)."""
    return lab_wait_for_run_all


@pytest.fixture(scope="session")
def run_all():
    """``run_all(page)``: Run All in JupyterLab or Notebook 7 (see lab_run_all)."""
    return lab_run_all


def write_notebook(folder: Path, name: str, cells: list[str]) -> str:
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, folder / name)
    return name


@pytest.fixture(scope="session")
def make_notebook(notebook_root):
    """``make_notebook(name, cells)``: write a notebook the servers serve; its name."""
    return lambda name, cells: write_notebook(notebook_root, name, cells)
