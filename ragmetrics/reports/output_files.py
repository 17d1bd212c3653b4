"""Files written safely: all at once or not at all, never over an input, never over a
read-only file.

:func:`write_atomic` writes a new version of a file beside it and swaps it in with one
rename, so a reader never sees half a report and a failure leaves the old file as it
was. On Linux the new version is an unnamed file (``O_TMPFILE``) until the instant it
is swapped in, so even a process killed mid-write leaves no temporary file behind.
:func:`check_outputs` refuses, before any work is done, an output that is one of the
inputs (the same file, through a symbolic or hard link too), two outputs that are one
file, and an existing file that is read-only.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..errors import InputValueError

__all__ = ["check_outputs", "write_atomic"]


def _target(path) -> Path:
    """The file a write to ``path`` should replace: a symbolic link's target, so the
    link stays a link."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _refuse_read_only(path, target: Path) -> None:
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise InputValueError(f"cannot write {os.fspath(path)}: it is a folder, not a file")
    if not mode & 0o222 or not os.access(target, os.W_OK):
        raise InputValueError(
            f"cannot write {os.fspath(path)}: the file is read-only (mode "
            f"{stat.filemode(mode)}); make it writable or choose another name"
        )


def _new_mode(target: Path) -> int:
    """Keep an existing file's permissions; a new file gets 0o666 minus the umask."""
    with contextlib.suppress(FileNotFoundError):
        return target.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` all at once or not at all.

    The text goes to a new file in the same folder, which then replaces ``path`` in one
    step (:func:`os.replace`). If anything fails before, nothing is left behind and an
    existing ``path`` is as it was: a reader never sees half a file. A symbolic link is
    written through (the link stays, its target gets the text); an existing file keeps
    its permissions, and a read-only one is refused. Errors name ``path``, never the
    temporary file.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    InputValueError
        If ``path`` is a folder or a read-only file.
    OSError
        If the folder cannot be written (its ``filename`` is ``path``).

    Examples
    --------
    >>> from pathlib import Path
    >>> report = Path("report.md")
    >>> _ = write_atomic(report, "# Old\\n")
    >>> _ = write_atomic(report, "# New\\n")
    >>> print(report.read_text(), sorted(p.name for p in Path().iterdir()))
    # New
     ['report.md']
    """
    target = _target(path)
    _refuse_read_only(path, target)
    data = text.encode("utf-8")
    mode = _new_mode(target)
    try:
        _replace_with(target, data, mode)
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), os.fspath(path)) from None
    return Path(path)


def _replace_with(target: Path, data: bytes, mode: int) -> None:
    folder = target.parent
    fd = _unnamed_file(folder, mode)
    if fd is None:
        _replace_with_named_temporary(target, data, mode)
        return
    temporary = f".{target.name}.{secrets.token_hex(4)}.tmp"
    folder_fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    named = False
    try:
        try:
            _write_all(fd, data)
            os.fchmod(fd, mode)
            # Name the finished file, then swap it in: a kill before this line leaves
            # no file at all, and between the two a file that the next line renames.
            # (dst_dir_fd makes this linkat(AT_SYMLINK_FOLLOW), which links the file
            # itself; a plain link() would try to link /proc's symbolic link.)
            os.link(f"/proc/self/fd/{fd}", temporary, dst_dir_fd=folder_fd,
                    follow_symlinks=True)
            named = True
        finally:
            os.close(fd)
        os.replace(temporary, target.name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except OSError:
        if named:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary, dir_fd=folder_fd)
            raise
        _replace_with_named_temporary(target, data, mode)  # linkat refused: the plain way
    except BaseException:
        if named:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary, dir_fd=folder_fd)
        raise
    finally:
        os.close(folder_fd)


def _unnamed_file(folder: Path, mode: int) -> int | None:
    """A file descriptor of a new unnamed file in ``folder`` (Linux), or None."""
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(folder, flag | os.O_WRONLY, mode)
    except OSError:  # a file system without O_TMPFILE: use a named temporary file
        return None


def _replace_with_named_temporary(target: Path, data: bytes, mode: int) -> None:
    temporary = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        try:
            _write_all(fd, data)
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def check_outputs(outputs: Mapping[str, str | None],
                  inputs: Iterable[tuple[str, str]]) -> None:
    """Refuse outputs that would replace an input, each other, a folder or a read-only file.

    Call it before reading anything: a refused command must not have done half its work.

    Parameters
    ----------
    outputs : mapping of str to path or None
        ``{label: path}``, e.g. ``{"--report": "out.html"}``; None means no such output.
    inputs : iterable of (str, path)
        ``(label, path)`` of every file that will be read, e.g. ``("RUN", "bm25.tsv")``.

    Raises
    ------
    InputValueError
        Naming the output and the input it would replace (through links too: two
        names of one file are one file).

    Examples
    --------
    >>> from pathlib import Path
    >>> golden = Path("golden.csv")
    >>> _ = golden.write_text("query_id,doc_id\\nq1,d1\\n")
    >>> try:
    ...     check_outputs({"--per-query": str(golden)}, [("GOLDEN", str(golden))])
    ... except ValueError as error:
    ...     print(error)
    --per-query golden.csv is GOLDEN golden.csv: an output never replaces an input
    """
    inputs = list(inputs)
    seen: dict[str, str] = {}
    for label, path in outputs.items():
        if path is None:
            continue
        for input_label, input_path in inputs:
            if _same_file(path, input_path):
                raise InputValueError(
                    f"{label} {path} is {input_label} {input_path}: an output never "
                    "replaces an input"
                )
        real = os.path.realpath(path)
        if real in seen:
            raise InputValueError(
                f"{label} {path} and {seen[real]} name the same file; give each output "
                "its own"
            )
        seen[real] = f"{label} {path}"
        _refuse_read_only(path, _target(path))
        folder = Path(real).parent
        if not folder.is_dir():
            raise InputValueError(f"{label} {path}: the folder {folder} does not exist")


def _same_file(a, b) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)  # hard links: same device and inode
    except OSError:  # one of them does not exist (yet)
        return False
