"""A text file read once, exactly: decompressed, decoded as UTF-8, split into lines.

Two promises every reader builds on:

- **Compressed files read as they are.** A gzip, bzip2, xz or Zstandard file (told by
  its first bytes, whatever its name) is decompressed first; Zstandard needs pyarrow.
- **A pipe is read once.** Standard input, a named pipe (FIFO), ``/dev/stdin`` on a pipe
  or ``<(cmd)`` can be read only once: :func:`read_once` reads it whole into memory
  (decompressed) as a :class:`ReadOnce`, which every reader takes where it takes a path,
  and errors name it as it was given.
- **Line numbers are those of an editor.** A line ends at ``\\n``, ``\\r\\n`` or a lone
  ``\\r`` (old Mac files), and every line counts, blank ones included, so ``line 12`` is
  line 12 on screen. A file must be UTF-8; a leading byte-order mark is dropped.

A large uncompressed file is mapped into memory for the fast parsers (:attr:`Source.buffer`)
rather than read: its pages are the operating system's cache, not fresh memory that a
copy would fill (on the machine measured, reading a 58 MB CSV file took 30-90 ms, mapping
it next to none, and Arrow parsed it as fast from the map). The file must then stay as it
is while it is read: a file cut short under the reader ends the process (SIGBUS), as
with any memory-mapped reader.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import mmap
import os
import re
import stat
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError

__all__ = [
    "COMPRESSION_SUFFIXES",
    "MAP_FROM",
    "ReadOnce",
    "Source",
    "compression_of",
    "decompressed",
    "is_stream",
    "map_or_read",
    "open_source",
    "path_name",
    "read_bytes",
    "read_once",
    "read_stdin",
    "without_compression_suffix",
]

#: File name endings of compressed files; the format is read from the name before them.
COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")

_LINE_BREAK = re.compile(r"\r\n?")

#: Files of this many bytes or more are mapped into memory (:func:`map_or_read`); below
#: it, reading takes no longer than mapping.
MAP_FROM = 1 << 20
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
    """The file's bytes, decompressed if they are gzip, bzip2, xz or Zstandard data."""
    name = os.fspath(path)
    raw = Path(path).read_bytes()
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


def map_or_read(path) -> bytes | mmap.mmap:
    """The file's bytes as :func:`read_bytes` gives them, or, for a regular file of
    :data:`MAP_FROM` bytes or more that is neither compressed nor starts with a UTF-8
    byte-order mark, the file mapped into memory, read-only.

    A map has ``len``, slices (copies, as ``bytes``), ``find``, ``rfind`` and the buffer
    protocol (``memoryview``, ``numpy.frombuffer``, ``pyarrow.py_buffer``: no copy), and
    none of the other methods of ``bytes``. It is unmapped when the last reference to it
    (a view of it included) goes.
    """
    with open(path, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size >= max(MAP_FROM, 1):  # none empty
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            start = mapped[:16]
            if compression_of(start) is None and not start.startswith(_BOM):
                return mapped
            mapped.close()
    return read_bytes(path)


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


class Source:
    """A file's bytes, decompressed, and its text, decoded when first asked for.

    A fast parser reads :attr:`buffer` (the bytes, without a byte-order mark; for a
    large file, mapped into memory) and never needs the text; the line scan and the error
    messages read :attr:`data`, :attr:`text` and :meth:`lines`, which raise
    :class:`~ragmetrics.FormatError` for bytes that are not UTF-8.

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
        found = map_or_read(path)
        self._map: mmap.mmap | None = found if isinstance(found, mmap.mmap) else None
        self._data: bytes | None = None if self._map is not None else self._without_bom(found)
        self._text: str | None = None
        self._normalized: str | None = None
        self._lines: list[str] | None = None

    @classmethod
    def part(cls, name: str, data: bytes, first_line: int) -> Source:
        """Whole lines of a file, read already (``data``, decompressed), starting at line
        ``first_line``: errors name the file and its line numbers."""
        source = cls.__new__(cls)
        source.name, source._path, source.first_line = name, None, first_line
        source._part, source._map = data, None
        source._data, source._text, source._normalized, source._lines = data, None, None, None
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
        if self._data is None:  # from the map if there is one: no second read
            self._data = self._map[:] if self._map is not None else self._read()
        return self._data

    @property
    def buffer(self) -> bytes | mmap.mmap:
        """:attr:`data`, or the same bytes as the file mapped into memory (see
        :func:`map_or_read`): for the fast parsers, which use ``len``, slices, ``find``,
        ``rfind`` and the buffer protocol only."""
        if self._map is not None:
            return self._map
        return self.data

    def release(self) -> None:
        """Let the bytes (or the map) go once a fast parser has its columns, so that the
        rest of the read takes less memory; an error's line then reads the file again."""
        self._data = self._map = None

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
        return self.lines()[number - self.first_line]

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
    with open(path, "rb") as handle:
        raw = handle.read()
    name = os.fspath(path)
    return ReadOnce(name, decompressed(raw, name))


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
