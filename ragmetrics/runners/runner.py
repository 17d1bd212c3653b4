"""Call a retriever for every query: bounded concurrency, retries, a cache, timings, provenance.

:func:`run_retriever` turns a retriever and a set of queries into a run that
:func:`ragmetrics.evaluate` and :func:`ragmetrics.compare` take as it is (a
:class:`~ragmetrics.runners.RetrieverRun`), with each query's latency and the run's
provenance beside the rows.

How a query goes: looked up in the cache (:class:`~ragmetrics.runners.RetrieverCache`)
if one is given; else the retriever is called (at most ``concurrency`` calls at once),
again after an exception of a type in ``retry_on`` (waiting ``backoff``, then twice that,
...), its results turned into ids (:mod:`ragmetrics.runners.retrieved`), and stored in the
cache as soon as they are in. The first other exception stops the run: the calls under
way finish and are stored, no new one starts, and the error names the query.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import queue
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

import pandas as pd

from ..errors import InputTypeError, InputValueError, RetrieverError
from ..progress import Progress
from ..validation import check_k
from .cache import CachedResult, RetrieverCache, canonical_json, fingerprint
from .latency import latency_frame
from .retrieved import DUPLICATES, RankedIds, check_key, query_key, ranked_ids, run_frame
from .retriever_run import RetrieverRun

__all__ = ["RETRIEVER_METHODS", "retriever_call", "run_retriever"]

#: The methods looked for on a retriever that is not callable, in this order:
#: LangChain's ``invoke``, LlamaIndex's ``retrieve``, then ``search``.
RETRIEVER_METHODS = ("invoke", "retrieve", "search")


def retriever_call(retriever) -> tuple[Callable, str, bool]:
    """The function to call with a query's text, the retriever's kind, and whether it is
    ``async``.

    A callable is called itself (a function, a method, an object with ``__call__``);
    otherwise the first of :data:`RETRIEVER_METHODS` the object has.

    Examples
    --------
    >>> def bm25(text):
    ...     return ["d1"]
    >>> retriever_call(bm25)[1:]
    ('callable bm25', False)
    >>> class Store:
    ...     def invoke(self, text):
    ...         return []
    >>> retriever_call(Store())[1:]
    ('Store.invoke', False)
    """
    if callable(retriever):
        name = getattr(retriever, "__qualname__", None) or type(retriever).__name__
        call = retriever
        kind = f"callable {name}"
    else:
        method = next((m for m in RETRIEVER_METHODS
                       if callable(getattr(retriever, m, None))), None)
        if method is None:
            raise InputTypeError(
                "retriever must be a callable (text -> results) or have an .invoke, "
                f".retrieve or .search method; got {type(retriever).__name__}")
        call = getattr(retriever, method)
        kind = f"{type(retriever).__name__}.{method}"
    is_async = inspect.iscoroutinefunction(call) or inspect.iscoroutinefunction(
        getattr(call, "__call__", None))  # noqa: B004 (an object's async __call__)
    return call, ("async " if is_async else "") + kind, is_async


def _queries(queries) -> dict[str, str]:
    """``{query_id: text}`` from a frame (``query_id, text``) or a mapping, checked."""
    if isinstance(queries, pd.DataFrame):
        missing = [c for c in ("query_id", "text") if c not in queries.columns]
        if missing:
            raise InputValueError(f"queries has no column {missing[0]!r} (columns: "
                                  f"{', '.join(map(repr, queries.columns)) or 'none'})")
        pairs = zip(queries["query_id"].tolist(), queries["text"].tolist(), strict=True)
    elif isinstance(queries, Mapping):
        pairs = queries.items()
    else:
        raise InputTypeError("queries must be a DataFrame (query_id, text) or a mapping "
                             f"{{query_id: text}}, got {type(queries).__name__}")
    found: dict[str, str] = {}
    for query_id, text in pairs:
        qid = query_key(query_id)
        if qid in found:
            raise InputValueError(f"query id {qid!r} is given twice in queries")
        if not isinstance(text, str):
            raise InputTypeError(f"query {qid!r}: the text must be a str, got {text!r} "
                                 f"({type(text).__name__})")
        found[qid] = text
    return found


def run_retriever(
    retriever,
    queries,
    *,
    k: int = 100,
    cache=None,
    concurrency: int = 4,
    config=None,
    name: str | None = None,
    retry_on: tuple[type[BaseException], ...] = (),
    retries: int = 0,
    backoff: float = 1.0,
    key="id",
    duplicates: str = "error",
    scores: str = "keep",
    progress: bool | None = None,
    clock: Callable[[], float] = time.perf_counter,
    sleep: Callable[[float], object] | None = None,
) -> RetrieverRun:
    """Call ``retriever`` for every query and return the run, its latency and provenance.

    Parameters
    ----------
    retriever : callable or object
        A function ``text -> results`` (``def`` or ``async def``), or an object with a
        method ``invoke(text)`` (LangChain), ``retrieve(text)`` (LlamaIndex) or
        ``search(text)``, looked for in that order when the object is not callable
        itself. The results: a list, best first, of ids, ``(id, score)`` pairs, dicts or
        documents (:mod:`ragmetrics.runners.retrieved`).
    queries : DataFrame or mapping
        ``query_id, text`` columns (as :attr:`ragmetrics.io.Dataset.queries`), or
        ``{query_id: text}``. Ids are text (an int is read as its text).
    k : int, default 100
        The depth kept: each query's first ``k`` ids (a longer list is cut to ``k``; a
        shorter one is kept as it is, and counted in ``provenance["short_queries"]``).
        The retriever is not told ``k``: set its own depth to at least ``k``.
    cache : str, os.PathLike or RetrieverCache, optional
        A SQLite file (:class:`~ragmetrics.runners.RetrieverCache`): queries stored under
        the same text, ``k``, ``config``, ``name``, ``key`` and ``duplicates`` are read,
        not called; each query called is stored as it finishes.
    concurrency : int, default 4
        The most calls at once: threads for a sync retriever, an ``asyncio`` semaphore
        for an async one (run in a thread of its own when an event loop is running
        already, as in Jupyter).
    config : JSON-like, optional
        What defines the retriever (model, index version, parameters): part of the cache
        key, hashed as canonical JSON; a value JSON cannot hold is an error naming it.
    name : str, optional
        The retriever's name, also part of the cache key.
    retry_on : tuple of exception types, default ()
        Exceptions after which a call is tried again (e.g. ``(TimeoutError,)``);
        any other exception stops the run at once.
    retries : int, default 0
        How many times a call may be tried again.
    backoff : float, default 1.0
        Seconds before the first retry; each next wait is twice the last.
    key, duplicates, scores
        How results become ids, and what repeated ids and scores do, as in
        :func:`~ragmetrics.runners.run_from_documents`.
    progress : bool, optional
        A progress bar with the time left (:mod:`ragmetrics.progress`); by default when
        standard error is a terminal.
    clock, sleep : callable, optional
        The clock that times calls (``time.perf_counter``) and the wait between tries
        (``time.sleep``, or ``asyncio.sleep`` for an async retriever): for tests.

    Returns
    -------
    RetrieverRun
        A DataFrame ``query_id, doc_id, rank`` (and ``score`` when every result had one),
        queries in the order given, with ``.latency`` (per query: ``seconds``, ``cached``,
        ``n_results``) and ``.provenance`` (``name``, ``retriever``, ``config``,
        ``config_hash``, ``k``, ``key``, ``duplicates``, ``started_at`` in UTC,
        ``seconds`` in all, ``queries``, ``called``, ``cached``, ``short_queries``,
        ``retried``, ``concurrency``, ``ragmetrics_version``).

    Raises
    ------
    RetrieverError
        The retriever raised (after its retries) for a query: the message names it, the
        retriever's exception is chained.
    InputValueError, InputTypeError
        Its output for a query is not a list of results, or holds a result without the
        key's value (``None``), or an id twice (``duplicates="error"``).

    Examples
    --------
    >>> index = {"q1": ["d3", "d1"], "q2": ["d2"]}
    >>> texts = {"q1": "reset password", "q2": "billing address"}
    >>> def bm25(text):
    ...     return index["q1" if "password" in text else "q2"]
    >>> run = run_retriever(bm25, texts, k=10, name="bm25", config={"k1": 0.9})
    >>> run
      query_id doc_id  rank
    0       q1     d3     1
    1       q1     d1     2
    2       q2     d2     1
    >>> run.provenance["called"], run.provenance["short_queries"], run.latency.index.tolist()
    (2, 2, ['q1', 'q2'])
    >>> import ragmetrics
    >>> float(ragmetrics.evaluate(run, {"q1": {"d1"}, "q2": {"d2"}}, ["mrr"]).summary["mrr"])
    0.75
    """
    call, kind, is_async = retriever_call(retriever)
    texts = _queries(queries)
    k = check_k(k)
    concurrency = check_k(concurrency, name="concurrency")
    retries = _count(retries, "retries")
    parts = check_key(key)
    if duplicates not in DUPLICATES:
        raise InputValueError(f"duplicates must be one of {DUPLICATES}, got {duplicates!r}")
    retry_on = _exception_types(retry_on)
    if isinstance(backoff, bool) or not isinstance(backoff, (int, float)) or not backoff >= 0:
        raise InputValueError(f"backoff must be a non-negative number of seconds, got "
                              f"{backoff!r}")
    if name is not None and not isinstance(name, str):
        raise InputTypeError(f"name must be a str, got {name!r}")
    config_json = canonical_json(config)
    fp = fingerprint(config=config, name=name, key=parts, duplicates=duplicates)
    started = datetime.now(UTC)
    wall = time.perf_counter()

    store, own_store = _open_cache(cache)
    try:
        hits = store.get_many(fp, k, texts.values()) if store is not None else {}
        done: dict[str, RankedIds] = {}
        timing: dict[str, tuple[float, bool]] = {}
        for qid, text in texts.items():
            if text in hits:
                hit = hits[text]
                done[qid] = RankedIds(hit.ids, hit.scores, hit.returned)
                timing[qid] = (hit.seconds, True)
        todo = [(qid, text) for qid, text in texts.items() if qid not in done]
        job = _Job(call=call, key=parts, k=k, duplicates=duplicates, retry_on=retry_on,
                   retries=retries, backoff=float(backoff), clock=clock, sleep=sleep,
                   store=store, fingerprint=fp, done=done, timing=timing)
        bar = Progress(name or "retrieving", len(todo), unit="query", enabled=progress,
                       mininterval=0.1)
        try:
            if todo and is_async:
                _run_async(job, todo, concurrency, bar)
            elif todo:
                _run_threads(job, todo, concurrency, bar)
        finally:
            bar.close()
    finally:
        if own_store:
            store.close()

    ranked = {qid: done[qid] for qid in texts}
    run = RetrieverRun(run_frame(ranked, scores=scores))
    ids = list(texts)
    run.latency = latency_frame(ids, [timing[q][0] for q in ids], [timing[q][1] for q in ids],
                                [len(ranked[q].ids) for q in ids])
    import ragmetrics  # the version (the package is imported by the time this runs)

    run.provenance = {
        "name": name,
        "retriever": kind,
        "config": config,
        "config_hash": hashlib.sha256(config_json.encode("utf-8")).hexdigest()[:12],
        "k": k,
        "key": parts[0] if len(parts) == 1 else parts,
        "duplicates": duplicates,
        "started_at": started.isoformat(timespec="seconds"),
        "seconds": time.perf_counter() - wall,
        "queries": len(ids),
        "called": len(todo),
        "cached": len(ids) - len(todo),
        "short_queries": sum(len(ranked[q].ids) < k for q in ids),
        "retried": job.retried,
        "concurrency": concurrency,
        "cache": None if store is None else store.path,
        "ragmetrics_version": ragmetrics.__version__,
    }
    return run


def _count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputValueError(f"{name} must be an int >= 0, got {value!r}")
    return value


def _exception_types(retry_on) -> tuple:
    types = (retry_on,) if isinstance(retry_on, type) else retry_on
    if not isinstance(types, tuple) or not all(
            isinstance(t, type) and issubclass(t, BaseException) for t in types):
        raise InputTypeError(f"retry_on must be a tuple of exception types, e.g. "
                             f"(TimeoutError,), got {retry_on!r}")
    return types


def _open_cache(cache) -> tuple[RetrieverCache | None, bool]:
    if cache is None:
        return None, False
    if isinstance(cache, RetrieverCache):
        return cache, False
    return RetrieverCache(cache), True


class _Job:
    """What every call of one run shares: the retriever, the rules, and what is done."""

    def __init__(self, *, call, key, k, duplicates, retry_on, retries, backoff, clock, sleep,
                 store, fingerprint, done, timing) -> None:
        self.call, self.key, self.k, self.duplicates = call, key, k, duplicates
        self.retry_on, self.retries, self.backoff = retry_on, retries, backoff
        self.clock, self.sleep, self.store, self.fingerprint = clock, sleep, store, fingerprint
        self.done, self.timing = done, timing
        self.retried = 0

    def failed(self, qid: str, error: BaseException) -> RetrieverError:
        return RetrieverError(f"query {qid!r}: the retriever raised "
                              f"{type(error).__name__}: {error}", query_id=qid)

    def wait(self, attempt: int) -> float:
        self.retried += 1
        return self.backoff * 2 ** attempt

    def ids(self, qid: str, results) -> RankedIds:
        if inspect.isawaitable(results):
            if inspect.iscoroutine(results):
                results.close()  # never awaited: no "was never awaited" warning
            raise InputTypeError(f"query {qid!r}: the retriever returned an awaitable; "
                                 "pass the async function itself (async def), not a wrapper")
        return ranked_ids(results, query_id=qid, key=self.key, k=self.k,
                          duplicates=self.duplicates)

    def keep(self, finished: list, texts: dict) -> None:
        """Record finished queries ``[(qid, RankedIds, seconds)]``; store them, committed."""
        for qid, found, seconds in finished:
            self.done[qid] = found
            self.timing[qid] = (seconds, False)
        if self.store is not None and finished:
            self.store.put_many(self.fingerprint, self.k, {
                texts[qid]: CachedResult(found.ids, found.scores, seconds, found.returned)
                for qid, found, seconds in finished})


def _call_sync(job: _Job, qid: str, text: str):
    for attempt in range(job.retries + 1):
        start = job.clock()
        try:
            results = job.call(text)
        except job.retry_on as error:
            if attempt == job.retries:
                raise job.failed(qid, error) from error
            (job.sleep or time.sleep)(job.wait(attempt))
            continue
        except Exception as error:
            raise job.failed(qid, error) from error
        seconds = job.clock() - start
        return qid, job.ids(qid, results), seconds
    raise AssertionError("unreachable")  # pragma: no cover


def _run_threads(job: _Job, todo: list, concurrency: int, bar: Progress) -> None:
    """Worker threads take queries in order; this thread stores what they finish."""
    texts = dict(todo)
    tasks: queue.SimpleQueue = queue.SimpleQueue()
    for item in todo:
        tasks.put(item)
    out: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            try:
                qid, text = tasks.get_nowait()
            except queue.Empty:
                break
            try:
                out.put(_call_sync(job, qid, text))
            except BaseException as error:  # noqa: BLE001 (handed to the caller's thread)
                stop.set()  # no new call starts, in this worker or another
                out.put(error)
        out.put(None)  # this worker is done

    workers = [threading.Thread(target=work, daemon=True, name=f"ragmetrics-retriever-{i}")
               for i in range(min(concurrency, len(todo)))]
    for worker in workers:
        worker.start()
    _collect(job, texts, out.get, out.get_nowait, queue.Empty, len(workers), stop.set, bar)
    for worker in workers:
        worker.join()


def _collect(job, texts, get, get_nowait, empty, n_workers, stop, bar) -> None:
    """Store what the workers finish, a batch at a time (one transaction each), until all
    are done; then raise the first error. Ctrl-C stops new calls, keeps what is done."""
    first_error = None
    running = n_workers
    try:
        while running:
            items = [get()]
            try:
                while True:
                    items.append(get_nowait())
            except empty:
                pass
            finished = []
            for item in items:
                if item is None:
                    running -= 1
                elif isinstance(item, BaseException):
                    if first_error is None:
                        first_error = item
                        stop()
                else:
                    finished.append(item)
            job.keep(finished, texts)
            bar.update(len(finished))
    except BaseException:  # Ctrl-C here: no new call starts; what finishes is kept
        stop()
        _drain(job, texts, get, running)
        raise
    if first_error is not None:
        raise first_error


def _drain(job, texts, get, running) -> None:
    finished = []
    while running:
        item = get()
        if item is None:
            running -= 1
        elif not isinstance(item, BaseException):
            finished.append(item)
    job.keep(finished, texts)


async def _call_async(job: _Job, qid: str, text: str):
    for attempt in range(job.retries + 1):
        start = job.clock()
        try:
            results = await job.call(text)
        except job.retry_on as error:
            if attempt == job.retries:
                raise job.failed(qid, error) from error
            waited = (job.sleep or asyncio.sleep)(job.wait(attempt))
            if inspect.isawaitable(waited):
                await waited
            continue
        except Exception as error:
            raise job.failed(qid, error) from error
        seconds = job.clock() - start
        return qid, job.ids(qid, results), seconds
    raise AssertionError("unreachable")  # pragma: no cover


_SKIPPED = object()  # a query not called: the run had stopped before its turn


async def _main_async(job: _Job, todo: list, concurrency: int, bar: Progress) -> None:
    """One task a query, at most ``concurrency`` of them calling at once (a semaphore);
    each hands one item to this coroutine, which stores what finishes, a batch at a time."""
    texts = dict(todo)
    limit = asyncio.Semaphore(concurrency)
    out: asyncio.Queue = asyncio.Queue()
    stopped = asyncio.Event()

    async def one(qid: str, text: str) -> None:
        async with limit:
            if stopped.is_set():
                out.put_nowait(_SKIPPED)
                return
            try:
                out.put_nowait(await _call_async(job, qid, text))
            except Exception as error:  # noqa: BLE001 (handed to the collector)
                out.put_nowait(error)

    tasks = [asyncio.ensure_future(one(qid, text)) for qid, text in todo]
    remaining, first_error = len(tasks), None
    try:
        while remaining:
            items = [await out.get()]
            while not out.empty():
                items.append(out.get_nowait())
            remaining -= len(items)
            finished = []
            for item in items:
                if isinstance(item, BaseException):
                    if first_error is None:
                        first_error = item
                        stopped.set()  # the calls under way finish; no new one starts
                elif item is not _SKIPPED:
                    finished.append(item)
            job.keep(finished, texts)
            bar.update(len(finished))
    finally:
        stopped.set()
        for task in tasks:
            task.cancel()
    if first_error is not None:
        raise first_error


def _run_async(job: _Job, todo: list, concurrency: int, bar: Progress) -> None:
    """Run the async calls on an event loop: a new one here, or, when this thread runs a
    loop already (Jupyter), a new one in a thread of its own, waited for."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(_main_async(job, todo, concurrency, bar))
        return
    outcome: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(_main_async(job, todo, concurrency, bar))
        except BaseException as error:  # noqa: BLE001 (raised in the caller's thread)
            outcome.append(error)

    thread = threading.Thread(target=target, name="ragmetrics-retriever-loop", daemon=True)
    thread.start()
    thread.join()
    if outcome:
        raise outcome[0]
