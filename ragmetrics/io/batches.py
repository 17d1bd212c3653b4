"""A TREC run read in parts of whole queries, for files larger than memory.

:func:`read_trec_run_batches` reads a run file a block of bytes at a time (decompressing
as it goes), cuts each block after the last complete query it holds, and reads that part
with :func:`~ragmetrics.io.read_trec_run`: the same parser, the same checks, the same
errors with the file's own line numbers. The lines of the query still being read at the
end of a block wait for the next one, so every part holds whole queries as long as the
file lists each query's lines together (TREC runs do). A query whose lines come apart is
found by the evaluation of the parts (:func:`ragmetrics.evaluation.streaming.evaluate_batches`).
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .source import Source, compression_of
from .trec import read_trec_run

__all__ = ["BLOCK_BYTES", "RunPart", "open_decompressed", "read_trec_run_batches"]

#: Bytes read at a time: about 700,000 lines of a typical run, 250 MB of peak memory.
BLOCK_BYTES = 32 << 20


@dataclass
class RunPart:
    """Whole queries of a run file, read: the frame, and how far into the file it ends."""

    frame: pd.DataFrame
    bytes_read: int  # of the file as stored (compressed, if it is)
    total_bytes: int


def open_decompressed(path):
    """``(stream, file)``: a binary stream of the file's bytes, decompressed as they are
    read if the file is gzip, bzip2, xz or Zstandard (told by its first bytes, as the
    readers tell them), and the file itself (its position says how far the read is)."""
    raw = open(path, "rb")  # noqa: SIM115 - closed by the caller, with the stream
    kind = compression_of(raw.read(8))
    raw.seek(0)
    if kind == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb"), raw
    if kind == "bzip2":
        return bz2.BZ2File(raw, "rb"), raw
    if kind == "xz":
        return lzma.LZMAFile(raw, "rb"), raw
    if kind == "zstd":
        import pyarrow as pa

        return pa.CompressedInputStream(pa.PythonFile(raw, mode="r"), "zstd"), raw
    return raw, raw


def read_trec_run_batches(path, *, block_bytes: int = BLOCK_BYTES, extra_fields: str = "error",
                          duplicates: str = "keep", stream=None) -> Iterator[RunPart]:
    """The run in ``path`` as parts of whole queries, each read by :func:`read_trec_run`.

    ``stream`` (a binary file object) is read instead of opening ``path``, which then only
    names the file in errors. A file with no data line raises the error
    :func:`read_trec_run` raises for it.

    Examples
    --------
    >>> path = Path("run.txt")
    >>> _ = path.write_text("".join(f"q{q} Q0 d{d} {d} {9 - d} bm25\\n"
    ...                             for q in range(3) for d in range(1, 4)))
    >>> parts = [part.frame for part in read_trec_run_batches(path, block_bytes=40)]
    >>> [part["query_id"].unique().tolist() for part in parts]
    [['q0'], ['q1'], ['q2']]
    """
    name = os.fspath(path)
    total = Path(path).stat().st_size if stream is None else 0
    handle, raw = open_decompressed(path) if stream is None else (stream, None)
    pending, line, first, any_rows = b"", 1, True, False
    try:
        while True:
            block = handle.read(block_bytes)
            data = pending + block
            if first and data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark, once
                data = data[3:]
            first = False
            end = len(data) if not block else _last_query_start(data)
            if end is None:  # not one whole query yet: read on
                pending = data
                continue
            part, pending = data[:end], data[end:]
            if part.strip():
                frame = read_trec_run(Source.part(name, part, line), extra_fields=extra_fields,
                                      duplicates=duplicates)
                any_rows = True
                done = raw.tell() if raw is not None else _position(handle)
                yield RunPart(frame, done, total)
            line += _count_lines(part)
            if not block:
                break
    finally:
        if stream is None:
            handle.close()
            raw.close()
    if not any_rows:
        read_trec_run(Source.part(name, b"", 1))  # the error for a file with no data line


def _position(handle) -> int:
    try:
        return handle.tell()
    except (OSError, AttributeError):
        return 0


def _count_lines(data: bytes) -> int:
    """Line breaks in ``data`` (``\\r\\n`` one, a lone ``\\r`` one): lines it ends."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def _line_starts_back(data: bytes, end: int):
    """Start positions of the lines before ``end``, last first."""
    while end > 0:
        start = max(data.rfind(b"\n", 0, end - 1), data.rfind(b"\r", 0, end - 1)) + 1
        yield start, end
        end = start


def _last_query_start(data: bytes) -> int | None:
    """Where the lines of the last query of ``data`` begin (its last line may be cut off),
    or None if ``data`` holds no line before that query's."""
    # Only whole lines count; a \r at the very end may be the first half of \r\n.
    cut = max(data.rfind(b"\n"), data.rfind(b"\r", 0, len(data) - 1)) + 1
    if cut <= 0:
        return None
    last = boundary = None
    for start, stop in _line_starts_back(data, cut):
        fields = data[start:stop].split()
        if not fields or fields[0].startswith(b"#"):  # blank, or a comment: no query
            continue
        if last is None:
            last = fields[0]
        elif fields[0] != last:
            return boundary  # the first line of the last query: after a whole line break
        boundary = start
    return None
