"""A text file read once, exactly: decompressed, decoded as UTF-8, split into lines.

What every reader builds on:

- **Compressed files read as they are.** A gzip, bzip2, xz or Zstandard file (told by
  its first bytes, whatever its name) is decompressed first; Zstandard needs pyarrow.
- **A pipe is read once.** Standard input, a named pipe (FIFO), ``/dev/stdin`` on a pipe
  or ``<(cmd)`` can be read only once: :func:`read_once` reads it whole into memory
  (decompressed) as a :class:`ReadOnce`, which every reader takes where it takes a path,
  and errors name it as it was given.
- **Line numbers are those of an editor.** A line ends at ``\\n``, ``\\r\\n`` or a lone
  ``\\r`` (old Mac files), and every line counts, blank ones included, so ``line 12`` is
  line 12 on screen. A file must be UTF-8; a leading byte-order mark is dropped.
- **A file read whole, or not at all.** A file is read into memory in one go and checked
  against itself: if it shrank, grew or was written while it was read (a run being
  rewritten with ``cmd > run``), the read is refused with an error naming the file, never
  parsed half-written. (Files are not memory-mapped: a mapped file cut short under the
  reader ends the process with SIGBUS, before any error can be said.)
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import re
import stat
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import FormatError
from .arrow import positions

__all__ = [
    "COMPRESSION_SUFFIXES",
    "ReadOnce",
    "Source",
    "compression_of",
    "decompressed",
    "is_stream",
    "line_starts",
    "open_source",
    "path_name",
    "read_bytes",
    "read_once",
    "read_stdin",
    "read_whole",
    "without_compression_suffix",
]

#: File name endings of compressed files; the format is read from the name before them.
COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")

_LINE_BREAK = re.compile(r"\r\n?")

_BOM = b"\xef\xbb\xbf"  # UTF-8 byte-order mark, e.g. from Excel

# First bytes of each compressed format. None of them can begin a UTF-8 text file, but
# "BZh": a bzip2 file has a block size digit and the block magic 0x314159265359 next.
_MAGIC = (
    (re.compile(rb"\x1f\x8b"), "gzip"),
    (re.compile(rb"BZh[1-9]1AY&SY"), "bzip2"),
    (re.compile(rb"\xfd7zXZ\x00"), "xz"),
    (re.compile(rb"\x28\xb5\x2f\xfd"), "zstd"),
)


def compression_of(data: bytes) -> str | None:
    """"gzip", "bzip2", "xz" or "zstd" when ``data`` starts like one, else None."""
    return next((kind for magic, kind in _MAGIC if magic.match(data)), None)


def without_compression_suffix(path) -> Path:
    """``runs/bm25.tsv.gz`` -> ``runs/bm25.tsv``: the name that tells the format."""
    path = Path(path_name(path))
    if path.suffix.lower() in COMPRESSION_SUFFIXES:
        return path.with_suffix("")
    return path


def read_bytes(path) -> bytes:
    """The file's bytes (:func:`read_whole`), decompressed if they are gzip, bzip2, xz or
    Zstandard data (:func:`decompressed`)."""
    return decompressed(read_whole(path), os.fspath(path))


def read_whole(path) -> bytes:
    """The file's bytes as they are, read in one go, and refused if the file changed
    while it was read.

    A regular file is stated before and after the read: a read that came up short, or a
    size or modification time that moved, means another program was writing the file (a
    run rewritten with ``cmd > run`` is first cut to nothing, then written again), and
    the bytes are a mix of two versions. That is a :class:`~ragmetrics.FormatError`
    naming the file. A pipe or a terminal (``/dev/stdin``, a FIFO) is read to its end.

    Examples
    --------
    >>> import pathlib
    >>> path = pathlib.Path("run.txt")
    >>> _ = path.write_bytes(b"q1 Q0 d1 1 2.5 bm25\\n")
    >>> read_whole(path)
    b'q1 Q0 d1 1 2.5 bm25\\n'
    """
    with open(path, "rb") as handle:
        before = os.fstat(handle.fileno())
        data = _read_to_end(handle)
        if stat.S_ISREG(before.st_mode):
            after = os.fstat(handle.fileno())
            moved = (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns)
            if moved or len(data) != before.st_size:
                raise FormatError(
                    f"changed while it was read ({before.st_size:,} bytes when opened, "
                    f"{len(data):,} read, {after.st_size:,} now): another program is writing "
                    "it; read it again once it is complete",
                    path=os.fspath(path),
                )
    return data


def _read_to_end(handle) -> bytes:
    """``handle.read()``: a name of its own so that a test can cut the file mid-read."""
    return handle.read()


def _zstd_decompress(raw: bytes, name: str) -> bytes:
    try:
        import pyarrow as pa
    except ImportError:
        raise FormatError(
            "is Zstandard-compressed; reading it needs pyarrow (pip install pyarrow), or "
            "decompress it first (zstd -d)",
            path=name,
        ) from None
    stream = pa.CompressedInputStream(pa.BufferReader(raw), "zstd")
    try:
        return stream.read()
    except pa.ArrowException as error:
        raise ValueError(str(error)) from None


def line_starts(data: bytes) -> np.ndarray:
    """Where each line of ``data`` starts, then where the last one ends: line ``i`` (from
    0) is ``data[starts[i]:starts[i + 1]]``, its line break included. A line ends at
    ``\\n``, ``\\r\\n`` or a lone ``\\r``, and a final line break ends the last line, as
    in :meth:`Source.lines`.

    >>> line_starts(b"a\\r\\nbb\\rc\\n").tolist()
    [0, 3, 6, 8]
    """
    codes = np.frombuffer(data, dtype=np.uint8)
    at = positions(codes, ord("\n"), ord("\r"))
    after = np.minimum(at + 1, max(len(codes) - 1, 0))
    crlf = (codes[at] == ord("\r")) & (codes[after] == ord("\n")) & (at + 1 < len(codes))
    ends = at + 1
    ends[crlf] += 1  # \r\n is one line break: its \n is not another
    ends = np.delete(ends, np.flatnonzero(crlf) + 1)
    if not len(ends) or ends[-1] != len(codes):
        ends = np.append(ends, len(codes))  # the last line has no line break
    return np.concatenate([[0], ends]).astype(np.int64)


class Source:
    """A file's bytes, decompressed, and its text, decoded when first asked for.

    A fast parser reads :attr:`data` (the bytes, without a byte-order mark) and never
    needs the text; Python's ``csv`` and ``json`` read :attr:`text` and :meth:`lines`,
    which raise :class:`~ragmetrics.FormatError` for bytes that are not UTF-8, and an
    error's line is found by :meth:`line_text`.

    Attributes
    ----------
    name : str
        The path, as the caller named it (errors quote it).
    """

    #: The number of the first line: 1, or more for a part of a file (:meth:`part`).
    first_line = 1

    def __init__(self, path) -> None:
        self.name = os.fspath(path)
        self._path = path
        self._data: bytes | None = self._without_bom(read_bytes(path))
        self._text: str | None = None
        self._normalized: str | None = None
        self._lines: list[str] | None = None
        self._starts: np.ndarray | None = None

    @classmethod
    def part(cls, name: str, data: bytes, first_line: int) -> Source:
        """Whole lines of a file, read already (``data``, decompressed), starting at line
        ``first_line``: errors name the file and its line numbers."""
        source = cls.__new__(cls)
        source.name, source._path, source.first_line = name, None, first_line
        source._part = data
        source._data, source._text, source._normalized, source._lines = data, None, None, None
        source._starts = None
        return source

    def _read(self) -> bytes:
        if self._path is None:  # a part of a file: its bytes are all there is
            return self._part
        return self._without_bom(read_bytes(self._path))

    @staticmethod
    def _without_bom(raw: bytes) -> bytes:
        return raw[3:] if raw.startswith(_BOM) else raw

    @property
    def data(self) -> bytes:
        """The file's bytes, decompressed, without a leading UTF-8 byte-order mark (read
        again after :meth:`release`)."""
        if self._data is None:
            self._data = self._read()
        return self._data

    def release(self) -> None:
        """Let the bytes go once a fast parser has its columns, so that the rest of the
        read takes less memory; an error's line then reads the file again."""
        self._data = None
        self._starts = None

    @property
    def text(self) -> str:
        """The decoded text, line breaks as written (the CSV reader needs quoted ``\\r``
        kept as it is)."""
        if self._text is None:
            try:
                self._text = self.data.decode("utf-8")
            except UnicodeDecodeError as error:
                raise self._not_utf8(self.data, error) from None
        return self._text

    def _not_utf8(self, raw: bytes, error: UnicodeDecodeError) -> FormatError:
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # what Windows tools call "Unicode"
            return FormatError(
                "the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as "
                "UTF-8", path=self.name)
        before = _LINE_BREAK.sub("\n", raw[: error.start].decode("utf-8", "replace"))
        line = before.count("\n") + self.first_line
        start = max(raw.rfind(b"\n", 0, error.start), raw.rfind(b"\r", 0, error.start)) + 1
        ends = [i for i in (raw.find(b"\n", error.start), raw.find(b"\r", error.start)) if i >= 0]
        text = raw[start : min(ends) if ends else len(raw)]
        return FormatError(
            f"not valid UTF-8 (byte 0x{raw[error.start]:02x}, byte {error.start - start + 1} "
            "of the line); save the file as UTF-8",
            path=self.name,
            line=line,
            text=text.decode("utf-8", errors="backslashreplace"),
        )

    @property
    def normalized(self) -> str:
        """The text with every line break written ``\\n``."""
        if self._normalized is None:
            text = self.text
            self._normalized = _LINE_BREAK.sub("\n", text) if "\r" in text else text
        return self._normalized

    def lines(self) -> list[str]:
        """Physical lines, without their line break; a final break ends the last line."""
        if self._lines is None:
            self._lines = self.normalized.split("\n")
            if self._lines[-1] == "" and len(self._lines) > 1:
                self._lines.pop()
        return self._lines

    def line_text(self, number: int) -> str:
        """Line ``number`` without its line break, as :meth:`lines` has it, found through
        an index of where the lines start (:func:`line_starts`): an error on line
        2,000,000 of a large file decodes that line, not the whole text."""
        i = number - self.first_line
        if self._lines is not None:
            return self._lines[i]
        if self._starts is None:
            self._starts = line_starts(self.data)
        if not 0 <= i < len(self._starts) - 1:
            return self.lines()[i]  # past the end: as lines() answers
        line = self.data[int(self._starts[i]) : int(self._starts[i + 1])]
        line = line[:-2] if line.endswith(b"\r\n") else line.removesuffix(b"\n").removesuffix(
            b"\r")
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError:
            return self.lines()[i]  # the error that names the file's first bad byte

    def error(self, reason: str, line: int | None = None) -> FormatError:
        text = None if line is None else self.line_text(line)
        return FormatError(reason, path=self.name, line=line, text=text)


# -- files that can be read only once: standard input, pipes -------------------------------


@dataclass(frozen=True)
class ReadOnce:
    """A file that can be read only once (standard input, a named pipe, ``/dev/stdin`` on
    a pipe, ``<(cmd)``), read whole: its bytes, decompressed, and the name it was given,
    which errors quote. The readers take it wherever they take a path; :func:`read_once`
    and :func:`read_stdin` make one.

    Attributes
    ----------
    name : str
        The name to show: the path, or ``"standard input"``.
    data : bytes
        Every byte read, decompressed (a byte-order mark kept: :class:`Source` drops it).
    """

    name: str
    data: bytes = b""

    def __repr__(self) -> str:
        return f"ReadOnce({self.name!r}, {len(self.data)} bytes)"


def is_stream(path) -> bool:
    """Whether ``path`` can be read only once: a pipe (a FIFO, ``/dev/stdin`` when standard
    input is one, ``<(cmd)``), a terminal, a socket, or a :class:`ReadOnce`; not a regular
    file, a folder, or a path that does not exist (the readers report it)."""
    if isinstance(path, ReadOnce):
        return True
    try:
        mode = os.stat(path).st_mode
    except (OSError, TypeError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def read_once(path):
    """``path`` itself if it can be read again (a regular file; a :class:`ReadOnce`),
    else a :class:`ReadOnce` of all it holds, read now (it waits for the writer to finish).

    A reader that opens a file twice (to tell its format, then to read it; again for an
    error's line) calls this first.
    """
    if not is_stream(path) or isinstance(path, ReadOnce):
        return path
    return ReadOnce(os.fspath(path), read_bytes(path))


def read_stdin(name: str = "standard input") -> ReadOnce:
    """Standard input, read whole (the command's ``-``)."""
    return ReadOnce(name, decompressed(sys.stdin.buffer.read(), name))


def decompressed(raw: bytes, name: str) -> bytes:
    """``raw`` decompressed if it starts as gzip, bzip2, xz or Zstandard data (as
    :func:`read_bytes` does for a file); ``name`` names it in errors."""
    kind = compression_of(raw)
    if kind is None:
        return raw
    try:
        if kind == "gzip":
            return gzip.decompress(raw)
        if kind == "bzip2":
            return bz2.decompress(raw)
        if kind == "xz":
            return lzma.decompress(raw)
        return _zstd_decompress(raw, name)
    except (OSError, EOFError, ValueError, lzma.LZMAError, zlib.error) as error:
        raise FormatError(
            f"starts like {kind} data but cannot be decompressed ({error}); is the file "
            "complete?",
            path=name,
        ) from None


def path_name(path) -> str:
    """The name of ``path`` as errors show it: ``os.fspath``, or a :class:`ReadOnce`'s."""
    return path.name if isinstance(path, ReadOnce) else os.fspath(path)


def open_source(path) -> Source:
    """A :class:`Source` of ``path``: a file, or a :class:`ReadOnce` (a pipe is read whole
    first, :func:`read_once`)."""
    path = read_once(path)
    if isinstance(path, ReadOnce):
        return Source.part(path.name, Source._without_bom(path.data), 1)
    return Source(path)
