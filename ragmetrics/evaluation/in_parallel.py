"""Many independent evaluations on the machine's cores: worker processes, results in order.

``ragmetrics evaluate`` with a hundred runs spends most of its time evaluating them one
after the other (about 30 ms each for a 45k-line TREC run, as long as the trec_eval
program takes for the whole of it). The runs are independent: :func:`map_in_workers`
hands them to worker processes, one per core.

The workers come from a **fork server** (:mod:`multiprocessing`'s ``"forkserver"``): a
clean process, started once with ragmetrics imported, that forks each worker. Forking
the caller itself would be quicker, but a process with threads (a Jupyter kernel, a
test runner, Arrow's thread pools) can hold a lock at that moment that no thread of the
child will ever release: the worker would hang. What the work shares (the judgments,
the metrics, the conventions) is sent once to each worker; each item (a run, or the
file to read it from) is sent to the worker that takes it, and only the results (an
:class:`Evaluation` is a small per-query frame) come back. Where there is no fork
server (Windows), or one core is all there is, the work runs in this process, the same
calls in the same order: the results are the same either way (tested).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from collections.abc import Callable, Sequence

from ..errors import InputTypeError

__all__ = ["available_cores", "can_start_workers", "map_in_workers"]

# In a worker: the function and the arguments every item shares (see _start_worker).
_WORK: tuple[Callable, tuple] | None = None


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def can_start_workers() -> bool:
    """Whether worker processes can come from a fork server (Linux, macOS; not Windows)."""
    return "forkserver" in multiprocessing.get_all_start_methods()


def _start_worker(function: Callable, shared: tuple) -> None:
    global _WORK
    _WORK = (function, shared)


def _run_one(item):
    function, shared = _WORK
    try:
        return True, function(*shared, item)
    except Exception as error:  # noqa: BLE001 - handed to the parent, raised there
        return False, error


def map_in_workers(function: Callable, items: Sequence, *, jobs: int,
                   shared: tuple = ()) -> list:
    """``[function(*shared, item) for item in items]``, on up to ``jobs`` workers.

    ``function`` is a module-level function (workers import it by name); ``shared`` and
    the items must be picklable. The first exception raised by ``function`` (in item
    order) is raised here, as the loop would raise it. With ``jobs`` 1, a single item,
    or no fork server, it is the loop.

    Examples
    --------
    >>> import operator
    >>> map_in_workers(operator.mul, [1, 2, 3], jobs=2, shared=(10,))
    [10, 20, 30]
    """
    jobs = min(jobs, len(items))
    if jobs <= 1 or not can_start_workers():
        return [function(*shared, item) for item in items]
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["ragmetrics"])  # each worker starts with it imported
    results, failure = [], None
    try:
        with context.Pool(jobs, initializer=_start_worker,
                          initargs=(function, shared)) as pool:
            for ok, value in pool.imap(_run_one, items, chunksize=1):
                if not ok:
                    failure = value  # the pool's exit stops the other workers
                    break
                results.append(value)
    except (pickle.PicklingError, AttributeError, TypeError) as error:
        if "pickle" not in str(error):
            raise
        raise InputTypeError(
            f"jobs={jobs} sends each item to a worker process, and one cannot be sent "
            f"({error}); give data that pickles (frames, dicts, Arrow tables), or use "
            "jobs=1") from None
    if failure is not None:
        raise failure
    return results
