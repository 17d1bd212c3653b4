"""The runs of ``ragmetrics evaluate``: each read when it is evaluated, the next ones
read ahead on the other cores, a large TREC run read and scored in parts.

- A run is read when :func:`ragmetrics.compare` comes to it and let go once scored
  (:class:`~ragmetrics.evaluation.parts.DeferredRun`): a hundred runs take the memory of
  the few being read, not of all of them. While one run is scored the next
  :data:`READ_AHEAD` are read in threads (Arrow's parsers and NumPy let go of the GIL).
- A TREC run larger than :data:`STREAM_FROM` bytes is read and scored a part of whole
  queries at a time (:class:`~ragmetrics.evaluation.parts.RunInParts`), so that memory
  does not grow with the number of queries; the values are those of the run in memory.
  If its queries are not grouped, the command says so and reads it whole.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from concurrent.futures import Future, ThreadPoolExecutor

from ..evaluation.parts import DeferredRun, RunInParts
from ..io import sniff_format
from ..io.batches import BLOCK_BYTES, read_trec_run_batches
from ..io.source import ReadOnce
from ..progress import Progress
from ..safe_text import terminal_text
from .common import existing_file, load_run

__all__ = ["READ_AHEAD", "STREAM_FROM", "deferred_runs", "return_freed_memory_at_once"]

#: A TREC run file larger than this is evaluated in parts of whole queries.
STREAM_FROM = BLOCK_BYTES
#: How many runs are read ahead of the one being scored.
READ_AHEAD = max(1, min(2, os.cpu_count() or 1))


def deferred_runs(paths: list, names: list[str], *, extra_fields: str, duplicates: str,
                  show_progress: bool, read_ahead: bool = True) -> dict:
    """``{name: run}`` for :func:`ragmetrics.compare`, each read when it is scored.

    Every file is checked to exist (and its format told) before anything is read. With
    ``read_ahead=False`` each run is read when asked for and nothing ahead: for worker
    processes (``--jobs``), each of which reads the runs it scores.
    """
    read = _Reader(paths, extra_fields=extra_fields, duplicates=duplicates)
    runs = {}
    for i, (name, path) in enumerate(zip(names, paths, strict=True)):
        existing_file(path, "RUN")
        whole = functools.partial(load_run, path, **read.options)
        if (not isinstance(path, ReadOnce)  # standard input, a pipe: in memory already
                and sniff_format(path, "run") == "trec" and os.path.getsize(path) > STREAM_FROM):
            # Functions of module level and their arguments: a worker process (--jobs)
            # receives the run as these, pickled.
            runs[name] = RunInParts(
                parts=functools.partial(_parts, path, read.options, show_progress),
                whole=whole, on_fallback=functools.partial(_say_in_memory, path))
        elif not read_ahead:
            runs[name] = DeferredRun(whole)
        else:
            read.defer(i)
            runs[name] = DeferredRun(lambda i=i: read.take(i))
    return runs


class _Reader:
    """Reads the deferred runs in order, :data:`READ_AHEAD` ahead of the one asked for."""

    def __init__(self, paths: list[str], *, extra_fields: str, duplicates: str) -> None:
        self.paths, self.options = paths, {"extra_fields": extra_fields,
                                           "duplicates": duplicates}
        self.deferred: list[int] = []
        self.futures: dict[int, Future] = {}
        self.taken: set[int] = set()
        self.pool: ThreadPoolExecutor | None = None

    def defer(self, i: int) -> None:
        self.deferred.append(i)

    def whole(self, i: int):
        return load_run(self.paths[i], **self.options)

    def take(self, i: int):
        """Run ``i``, read (or being read) in a thread, and the next ones set reading.

        Asked for again (the report's drill-down shows a few queries of each run after
        all were scored), it is read again, in this thread.
        """
        if len(self.deferred) == 1 or (i in self.taken and i not in self.futures):
            return self.whole(i)
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=READ_AHEAD)
        at = self.deferred.index(i)
        following = self.deferred[at:] + self.deferred[:at]
        for j in [j for j in following if j not in self.taken][: READ_AHEAD + 1]:
            if j not in self.futures:
                self.futures[j] = self.pool.submit(self.whole, j)
        self.taken.add(i)
        try:
            return self.futures.pop(i).result()
        finally:
            if len(self.taken) == len(self.deferred):
                self.pool.shutdown(wait=False, cancel_futures=True)


def return_freed_memory_at_once() -> None:
    """Arrow's jemalloc keeps freed memory a second before giving it back; the parts of
    a run read faster than that pile up (peak RSS 630 MB against 520 MB for a 4M-line
    run, measured). The command owns its process, so it may set this process-wide,
    before the first file is read."""
    import pyarrow as pa

    with contextlib.suppress(NotImplementedError):  # a pyarrow built without jemalloc
        pa.jemalloc_set_decay_ms(0)


def _parts(path: str, options: dict, show_progress: bool):
    bar = Progress(f"reading {os.path.basename(path)}", os.path.getsize(path), unit="B",
                   enabled=show_progress, scale=True)
    done = 0
    try:
        for part in read_trec_run_batches(
                path, extra_fields=options["extra_fields"],
                duplicates="error" if options["duplicates"] == "error" else "keep"):
            bar.update(part.bytes_read - done)
            done = part.bytes_read
            yield part.frame
    finally:
        bar.close()


def _say_in_memory(path: str, error: Exception) -> None:
    print(terminal_text(f"ragmetrics: {path}: {error}; reading it whole instead (in "
                        "memory: sort the run by query to evaluate it in parts)"),
          file=sys.stderr)
