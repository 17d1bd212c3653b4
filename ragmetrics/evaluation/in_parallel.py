"""Many independent evaluations on the machine's cores: forked workers, results in order.

``ragmetrics evaluate`` with a hundred runs spends most of its time evaluating them one
after the other (about 30 ms each for a 45k-line TREC run, as long as the trec_eval
program takes for the whole of it). The runs are independent: :func:`map_in_workers`
hands them to worker processes, one per core.

The workers are **forked**: each starts as a copy of this process, with the judgments,
the runs (or the paths they are read from) and everything else already in memory, so
nothing is pickled on the way in; only the results (an :class:`Evaluation` is a small
per-query frame) come back. Where fork is not the safe way to start a process (macOS,
Windows: Python's own default there is spawn), or where one core is all there is, the
work runs in this process, the same calls in the same order: the results are the same
either way (tested).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence

__all__ = ["available_cores", "can_fork", "map_in_workers"]

# The work of the pool being run: set before the workers fork, so that each inherits it.
_WORK: Callable | None = None


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Whether worker processes may be forked: Linux (on macOS fork is unsafe with the
    system's frameworks, and Windows has none)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _run_one(item):
    try:
        return True, _WORK(item)
    except BaseException as error:  # noqa: BLE001 - handed to the parent, raised there
        return False, error


def map_in_workers(work: Callable, items: Sequence, *, jobs: int) -> list:
    """``[work(item) for item in items]``, on up to ``jobs`` forked workers.

    The first exception raised by ``work`` (in item order) is raised here, as it would
    have been by the loop. With ``jobs`` 1, a single item, or no safe fork, it is the
    loop.

    Examples
    --------
    >>> map_in_workers(lambda x: x * x, [1, 2, 3], jobs=2)
    [1, 4, 9]
    """
    global _WORK
    jobs = min(jobs, len(items))
    if jobs <= 1 or not can_fork():
        return [work(item) for item in items]
    _WORK = work
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = []
            for ok, value in pool.imap(_run_one, items, chunksize=1):
                if not ok:
                    raise value
                results.append(value)
            return results
    finally:
        _WORK = None
