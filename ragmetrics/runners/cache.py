"""A retriever's results kept in a SQLite file, so that a rerun calls only what is missing.

:class:`RetrieverCache` keys each query's results by the query's **text**, the depth
``k`` and a **fingerprint**: a hash of the retriever's ``config`` and ``name`` (and of the
``key`` and ``duplicates`` that turned its documents into ids), each as canonical JSON
(:func:`canonical_json`: sorted keys, no spaces). A change of any of them is another
fingerprint, so a changed config or ``k`` never serves stale results: those queries are
called again.

It stores, for each query, the ids in rank order, their scores (or none) and the
seconds the original call took (:mod:`ragmetrics.runners.latency`). Results are written
as queries finish, each batch in one committed transaction, so a crash or Ctrl-C loses
nothing that was done. Reads go by chunks of keys, one SQL query each.

The file is in WAL mode with a ``busy_timeout``: two processes may read and write one
file at once (a writer waits for the other's transaction, up to ``timeout`` seconds).

A file that is not a SQLite database, or one that is but not a ragmetrics retriever
cache of this version, is an error naming the file
(:class:`~ragmetrics.FormatError`): never recreated, never overwritten.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import FormatError, InputTypeError, InputValueError

__all__ = [
    "CACHE_FORMAT",
    "CACHE_VERSION",
    "CachedResult",
    "RetrieverCache",
    "canonical_json",
    "fingerprint",
]

#: What the file says it is (table ``ragmetrics_cache``, row ``format``).
CACHE_FORMAT = "ragmetrics.retriever_cache"
#: The layout of its tables; another version is refused, never rewritten.
CACHE_VERSION = "1"

# Keys per SELECT ... IN (...): under SQLite's oldest limit of 999 variables.
_CHUNK = 900
_SQLITE_MAGIC = b"SQLite format 3\x00"
_TABLES = {"ragmetrics_cache", "results"}
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS ragmetrics_cache (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ("CREATE TABLE IF NOT EXISTS results ("
     " fingerprint TEXT NOT NULL, k INTEGER NOT NULL, query TEXT NOT NULL,"
     " ids TEXT NOT NULL, scores TEXT, seconds REAL NOT NULL, returned INTEGER NOT NULL,"
     " stored_at TEXT NOT NULL, PRIMARY KEY (fingerprint, k, query)) WITHOUT ROWID"),
)


def canonical_json(value, *, name: str = "config") -> str:
    """``value`` as canonical JSON (sorted keys, no spaces), or an error naming the part
    that JSON cannot hold.

    Dict keys must be text (JSON would turn ``1`` into ``"1"``, making two configs one);
    floats must be finite; tuples are written as lists.

    Examples
    --------
    >>> canonical_json({"model": "bge-small", "top_k": 100, "filters": ("a", "b")})
    '{"filters":["a","b"],"model":"bge-small","top_k":100}'
    >>> canonical_json({"device": object()})
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputTypeError: config['device'] cannot be written as JSON: <object ...
    """
    _check_json(value, name)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _check_json(value, where: str) -> None:
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputValueError(f"{where} cannot be written as JSON: {value!r} "
                                  "(only finite numbers)")
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InputTypeError(f"{where} has the key {key!r} ({type(key).__name__}); "
                                     "JSON keys are text")
            _check_json(item, f"{where}[{key!r}]")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_json(item, f"{where}[{i}]")
        return
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise InputTypeError(f"{where} cannot be written as JSON: {shown} "
                         f"({type(value).__name__}); give text, numbers, lists or dicts")


def fingerprint(*, config=None, name=None, key=("id",), duplicates: str = "error") -> str:
    """The hex SHA-256 of what decides a retriever's results besides the query and ``k``.

    Examples
    --------
    >>> a = fingerprint(config={"model": "bge"}, name="dense")
    >>> a == fingerprint(config={"model": "bge"}, name="dense"), len(a)
    (True, 64)
    >>> a == fingerprint(config={"model": "e5"}, name="dense")
    False
    """
    text = canonical_json({"config": config, "name": name, "key": list(key),
                           "duplicates": duplicates}, name="config")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedResult:
    """One query's stored results.

    Attributes
    ----------
    ids : list of str
    scores : list of float or None
    seconds : float
        The wall-clock time of the original call.
    returned : int
        How many results the retriever returned then (before the cut to ``k``).
    """

    ids: list
    scores: list | None
    seconds: float
    returned: int


class RetrieverCache:
    """A SQLite file of retriever results (see the module's introduction).

    Parameters
    ----------
    path : str or os.PathLike
        Created (with its tables) if missing or empty; otherwise it must be a cache
        that ragmetrics wrote.
    timeout : float, default 60
        Seconds to wait for another process's write (SQLite's ``busy_timeout``).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "bm25.sqlite")
    >>> cache = RetrieverCache(path)
    >>> fp = fingerprint(config={"index": "v1"})
    >>> cache.put_many(fp, 10, {"what is BM25?": CachedResult(["d1", "d7"], None, 0.02, 2)})
    >>> cache.get_many(fp, 10, ["what is BM25?", "unseen"])
    {'what is BM25?': CachedResult(ids=['d1', 'd7'], scores=None, seconds=0.02, returned=2)}
    >>> cache.get_many(fp, 20, ["what is BM25?"])  # another k: nothing
    {}
    >>> cache.close()
    """

    def __init__(self, path, *, timeout: float = 60.0) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise InputTypeError(f"cache must be a path or a RetrieverCache, got {path!r}")
        self.path = str(Path(path))
        self._lock = threading.Lock()
        _check_header(self.path)
        try:
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
        except sqlite3.Error as error:
            raise FormatError(f"cannot open the retriever cache: {error}",
                              path=self.path) from error
        try:
            self._db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._check_or_create()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise FormatError(f"not a readable SQLite database ({error}); a retriever cache "
                              "is never overwritten: move it away or pass another path",
                              path=self.path) from error
        except FormatError:
            self._db.close()
            raise

    def _check_or_create(self) -> None:
        tables = self._tables()
        if not tables:
            self._db.execute("BEGIN IMMEDIATE")  # another process may create it too
            try:
                for statement in _SCHEMA:
                    self._db.execute(statement)
                self._db.executemany(
                    "INSERT OR IGNORE INTO ragmetrics_cache VALUES (?, ?)",
                    [("format", CACHE_FORMAT), ("version", CACHE_VERSION)])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            tables = self._tables()
        if not tables >= _TABLES:
            raise FormatError(
                "a SQLite database, but not a ragmetrics retriever cache (its tables: "
                f"{', '.join(sorted(tables))}); it is never overwritten: pass another path",
                path=self.path)
        found = dict(self._db.execute("SELECT name, value FROM ragmetrics_cache"))
        if found.get("format") != CACHE_FORMAT or found.get("version") != CACHE_VERSION:
            raise FormatError(
                f"a retriever cache of format {found.get('format')!r}, version "
                f"{found.get('version')!r}; this ragmetrics reads {CACHE_FORMAT!r} version "
                f"{CACHE_VERSION!r} and never overwrites another: pass another path",
                path=self.path)
        columns = [row[1] for row in self._db.execute("PRAGMA table_info(results)")]
        expected = ["fingerprint", "k", "query", "ids", "scores", "seconds", "returned",
                    "stored_at"]
        if columns != expected:
            raise FormatError(f"the table 'results' has the columns {columns}, not "
                              f"{expected}", path=self.path)

    def _tables(self) -> set:
        return {row[0] for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}

    def get_many(self, fingerprint: str, k: int, texts: Iterable[str]) -> dict:
        """``{text: CachedResult}`` for those of ``texts`` stored under ``fingerprint``
        and ``k``; one SQL query per chunk of texts."""
        texts = list(dict.fromkeys(texts))
        found = {}
        loads = json.loads
        with self._lock:
            for start in range(0, len(texts), _CHUNK):
                chunk = texts[start:start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    "SELECT query, ids, scores, seconds, returned FROM results "
                    f"WHERE fingerprint = ? AND k = ? AND query IN ({marks})",
                    (fingerprint, k, *chunk))
                for text, ids, scores, seconds, returned in rows:
                    found[text] = CachedResult(loads(ids), None if scores is None
                                               else loads(scores), seconds, returned)
        return found

    def put_many(self, fingerprint: str, k: int, results: Mapping) -> None:
        """Store ``{text: CachedResult}`` in one committed transaction."""
        if not results:
            return
        now = datetime.now(UTC).isoformat(timespec="seconds")
        rows = [(fingerprint, k, text, json.dumps(r.ids, ensure_ascii=False),
                 None if r.scores is None else json.dumps(r.scores), float(r.seconds),
                 int(r.returned), now) for text, r in results.items()]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM results").fetchone()[0]

    def close(self) -> None:
        """Close the file (the object cannot be used after)."""
        with self._lock:
            self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"RetrieverCache({self.path!r})"


def _check_header(path: str) -> None:
    """Refuse a file that is there, not empty, and not SQLite (before SQLite touches it)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise FormatError("a folder, not a retriever cache file", path=path) from None
    except OSError as error:
        raise FormatError(f"cannot read the retriever cache: {error}", path=path) from error
    if head and head != _SQLITE_MAGIC:
        raise FormatError("not a SQLite database, so not a retriever cache; it is never "
                          "overwritten: move it away or pass another path", path=path)
