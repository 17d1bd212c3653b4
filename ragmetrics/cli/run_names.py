"""The names of the runs of ``ragmetrics evaluate``: their file stems, unique.

A run is named after its file without the folders and the endings: ``runs/bm25-256.trec.gz``
is ``bm25-256`` (a compression ending, then one format ending, are dropped), so names
read as the systems they are, and a factorial set of runs (``bm25-256``, ``dense-512``,
...) is told from its names (:mod:`ragmetrics.comparison.factorial`). Where two files
share a stem, each of them keeps its file name (``bm25.csv``, ``bm25.jsonl``); where two
share that too, the folders above it, as many as tell them apart (``a/bm25.run``,
``b/bm25.run``). The same file given twice is refused.
"""

from __future__ import annotations

from pathlib import PurePath

from .common import UsageError

__all__ = ["COMPRESSION_SUFFIXES", "run_names"]

#: The endings of compressed files, dropped before the format's.
COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")


def _stem(path: str) -> str:
    name = PurePath(path).name
    for suffix in COMPRESSION_SUFFIXES:
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
            break
    stem = PurePath(name).stem
    return stem or name


def _tail(path: str, depth: int) -> str:
    parts = PurePath(path).parts
    return "/".join(parts[-depth:])


def run_names(paths) -> list[str]:
    """Each run's name: its file's stem, told apart where two share it.

    Examples
    --------
    >>> run_names(["runs/bm25-256.trec.gz", "runs/dense-512.jsonl"])
    ['bm25-256', 'dense-512']
    >>> run_names(["bm25.csv", "bm25.jsonl", "dense.csv"])
    ['bm25.csv', 'bm25.jsonl', 'dense']
    >>> run_names(["a/bm25.run", "b/bm25.run"])
    ['a/bm25.run', 'b/bm25.run']
    """
    paths = [str(p) for p in paths]
    names = [_stem(p) for p in paths]
    depth = 1
    while True:
        clashing = {n for n in names if names.count(n) > 1}
        if not clashing:
            return names
        longest = max(len(PurePath(p).parts) for p, n in zip(paths, names, strict=True)
                      if n in clashing)
        if depth > longest:
            twice = next(p for p, n in zip(paths, names, strict=True) if n in clashing)
            raise UsageError(f"the same run file is given twice ({twice}); give each run "
                             "once, or name them with --names")
        names = [_tail(p, depth) if n in clashing else n
                 for p, n in zip(paths, names, strict=True)]
        depth += 1
