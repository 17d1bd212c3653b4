"""Files written safely (ragmetrics.reports.output_files): atomic, through links, never over an
input, never over a read-only file, and nothing left behind on failure."""

from __future__ import annotations

import os
import stat

import pytest

from ragmetrics.errors import InputValueError
from ragmetrics.reports import output_files
from ragmetrics.reports.output_files import check_outputs, write_atomic


@pytest.fixture(params=["unnamed", "named"])
def temporary_kind(request, monkeypatch):
    """Both ways to a new version: O_TMPFILE (Linux) and a named temporary file."""
    if request.param == "named":
        monkeypatch.setattr(output_files, "_unnamed_file", lambda folder, mode: None)
    return request.param


def test_write_replaces_the_file_and_leaves_nothing_else(tmp_path, temporary_kind):
    path = tmp_path / "report.md"
    write_atomic(path, "one\n")
    write_atomic(path, "two ✓\n")
    assert path.read_text(encoding="utf-8") == "two ✓\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_a_symbolic_link_is_written_through(tmp_path, temporary_kind):
    target = tmp_path / "reports" / "latest.md"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "report.md"
    link.symlink_to(target)
    write_atomic(link, "new\n")
    assert link.is_symlink()
    assert target.read_text() == "new\n"


def test_permissions_are_kept_and_a_read_only_file_is_refused(tmp_path, temporary_kind):
    path = tmp_path / "report.md"
    path.write_text("old")
    path.chmod(0o640)
    write_atomic(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    path.chmod(0o444)
    with pytest.raises(InputValueError, match=r"report\.md: the file is read-only \(mode "
                                              r"-r--r--r--\)"):
        write_atomic(path, "newer")
    assert path.read_text() == "new"


def test_a_folder_is_refused(tmp_path):
    (tmp_path / "r.md").mkdir()
    with pytest.raises(InputValueError, match="it is a folder"):
        write_atomic(tmp_path / "r.md", "x")


def test_a_failure_names_the_file_not_the_temporary_one(tmp_path, monkeypatch, temporary_kind):
    path = tmp_path / "report.md"
    path.write_text("the old report\n")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output_files.os, "replace", full)
    with pytest.raises(OSError, match="No space left on device") as caught:
        write_atomic(path, "the new report\n")
    assert caught.value.filename == str(path)
    assert path.read_text() == "the old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_check_outputs_refuses_every_name_of_an_input(tmp_path):
    golden = tmp_path / "golden.csv"
    golden.write_text("query_id,doc_id\nq1,d1\n")
    (tmp_path / "soft.csv").symlink_to(golden)
    os.link(golden, tmp_path / "hard.csv")
    (tmp_path / "sub").mkdir()
    inputs = [("GOLDEN", str(golden))]
    for name in ("golden.csv", "soft.csv", "hard.csv", "sub/../golden.csv"):
        with pytest.raises(InputValueError, match="an output never replaces an input"):
            check_outputs({"--per-query": str(tmp_path / name)}, inputs)
    check_outputs({"--per-query": str(tmp_path / "values.csv"), "--report": None}, inputs)


def test_check_outputs_refuses_two_outputs_that_are_one_file(tmp_path):
    (tmp_path / "alias.csv").symlink_to(tmp_path / "r.md")
    with pytest.raises(InputValueError, match="name the same file"):
        check_outputs({"--report": str(tmp_path / "r.md"),
                       "--per-query": str(tmp_path / "alias.csv")}, [])
