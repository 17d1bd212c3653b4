"""The baseline file of a regression gate: one run's per-query values, and what they depend on.

A gate compares a candidate run with a baseline on the same queries, judged the same
way and scored under the same conventions. A baseline that was made otherwise is
*stale*, and a gate against it says nothing (a changed golden set once hid a 3.5-point
regression). So the file keeps, beside the numbers, everything they depend on:

- ``per_query``: every query's value on every metric evaluated (text columns such as
  ``relstring`` and ``runid`` are not values and are left out);
- ``metrics``: the metric names, as they were asked for;
- ``conventions`` and ``preset``: how the run was scored (:class:`~ragmetrics.Conventions`);
- ``judgments``: a fingerprint of the judgments (:func:`qrels_fingerprint`), with the
  number of judged queries and judgment rows;
- ``run``: where the run came from: its name, and for a file its path and the SHA-256 of
  its bytes; for a run of :func:`ragmetrics.runners.run_retriever`, its ``provenance``;
- ``ragmetrics_version``, ``schema_version`` (:data:`SCHEMA_VERSION`) and ``created_at``
  (UTC, ISO 8601).

The file is JSON, written atomically (:func:`ragmetrics.reports.output_files.write_atomic`:
a reader never sees half of it). :func:`load_baseline` refuses a damaged or foreign file
with a :class:`~ragmetrics.errors.FormatError` naming the file and what is wrong, and
:func:`stale_reasons` says what differs between a baseline and the judgments, conventions,
metrics and queries of a gate.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from ..conventions import CONVENTIONS, Conventions
from ..errors import FormatError, InputError, InputTypeError, InputValueError
from ..evaluation import Evaluation, evaluate
from ..evaluation.arrow_inputs import as_frame, is_table
from ..evaluation.inputs import qrels_columns
from ..evaluation.result import counted
from ..metrics.registry import parse_metric
from ..presets import PRESETS
from ..reports.output_files import write_atomic

__all__ = [
    "BASELINE_SCHEMA",
    "SCHEMA_VERSION",
    "Baseline",
    "StaleBaselineError",
    "load_baseline",
    "qrels_fingerprint",
    "save_baseline",
    "stale_reasons",
]

#: The ``"schema"`` of every baseline file: a JSON file without it is not a baseline.
BASELINE_SCHEMA = "ragmetrics-baseline"

#: The version of the baseline file's layout; :func:`load_baseline` reads this one and
#: refuses a newer one (written by a later ragmetrics) by name.
SCHEMA_VERSION = 1

_SHOWN_IDS = 5


class StaleBaselineError(InputValueError):
    """The baseline was made from other judgments, conventions, metrics or queries than
    the gate's: comparing with it would say nothing. Its message says what differs and
    how to refresh the baseline; the command exits with status 2."""


@dataclass(frozen=True, eq=False)
class Baseline:
    """One run's per-query values and what they depend on (see the module's introduction).

    Two baselines are equal only when they are the same object (``eq=False``, as
    :class:`~ragmetrics.Evaluation`): compare their ``per_query`` frames.

    Attributes
    ----------
    per_query : pandas.DataFrame
        One row per query (index ``query_id``, as text), one float column per metric;
        NaN where a ``"skip"`` convention left a query out of a metric.
    metrics : tuple of str
        The metric names, the columns of ``per_query``.
    conventions : Conventions
    preset : str or None
    judgments : dict
        ``{"sha256": ..., "queries": ..., "judgments": ...}`` (:func:`qrels_fingerprint`).
    run : dict
        ``{"name": ..., "path": ..., "sha256": ..., "provenance": ...}``; None where
        unknown.
    ragmetrics_version, created_at : str
    schema_version : int
    path : str or None
        The file it was read from or written to.
    """

    per_query: pd.DataFrame
    metrics: tuple[str, ...]
    conventions: Conventions
    preset: str | None
    judgments: dict
    run: dict
    ragmetrics_version: str
    created_at: str
    schema_version: int = SCHEMA_VERSION
    path: str | None = None

    @property
    def means(self) -> pd.Series:
        """Each metric's mean over the queries that have a value."""
        return self.per_query.mean(axis=0, skipna=True)

    def to_dict(self) -> dict:
        """The JSON document of the file (see the module's introduction)."""
        values = {m: [None if math.isnan(v) else float(v) for v in self.per_query[m]]
                  for m in self.metrics}
        return {
            "schema": BASELINE_SCHEMA,
            "schema_version": self.schema_version,
            "created_at": self.created_at,
            "ragmetrics_version": self.ragmetrics_version,
            "metrics": list(self.metrics),
            "conventions": self.conventions.as_dict(),
            "preset": self.preset,
            "judgments": dict(self.judgments),
            "run": _jsonable(self.run),
            "per_query": {"query_ids": [str(q) for q in self.per_query.index],
                          "values": values},
        }


def _jsonable(value):
    """``value`` as JSON holds it: mappings and sequences walked, numbers that are not
    finite as null, anything else JSON has no type for (a provenance's paths) as text."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value) if math.isfinite(value) else None
    return str(value)


def qrels_fingerprint(qrels) -> dict:
    """A fingerprint of the judgments: the same for the same judgments in any order.

    **What is hashed.** The judgments as :func:`ragmetrics.evaluate` reads them (a
    DataFrame, Arrow or Polars table with ``query_id``, ``doc_id``, ``relevance``; a
    mapping ``{query_id: {doc_id: grade}}`` or ``{query_id: set of ids}``; the ``qrels``
    of a :class:`ragmetrics.Dataset`), one row per judgment, judged non-relevant (grade
    0) included. Each row becomes the JSON array ``[query_id, doc_id, grade]``, ids as
    text and the grade as a float (``1`` and ``1.0`` are one grade), written compactly
    (``json.dumps(..., separators=(",", ":"))``); the rows are sorted (by query id,
    then doc id, as text), followed by ``[query_id, null]`` for each query listed with
    no judgment at all, sorted; each line ends with ``\\n``; the SHA-256 of those UTF-8
    bytes is the fingerprint. The order of the rows, the file format and the id type
    (``42`` or ``"42"``) change nothing; any added, removed or regraded judgment does.

    Returns
    -------
    dict
        ``{"sha256": hex digest, "queries": judged queries, "judgments": rows}``.

    Examples
    --------
    >>> a = qrels_fingerprint({"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}})
    >>> b = qrels_fingerprint({"q2": {"d3": 2.0}, "q1": {"d2": 0, "d1": 1}})
    >>> a == b, a["queries"], a["judgments"]
    (True, 2, 3)
    >>> import hashlib
    >>> text = '["q1","d1",1.0]\\n["q1","d2",0.0]\\n["q2","d3",2.0]\\n'
    >>> a["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    True
    >>> qrels_fingerprint({"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 2}}) == a  # regraded
    False
    """
    if is_table(qrels):
        qrels = as_frame(qrels)
    columns = qrels_columns(qrels)
    queries = columns.query.astype(str).to_numpy(dtype=object)
    docs = columns.doc.astype(str).to_numpy(dtype=object)
    grades = np.asarray(columns.value, dtype=np.float64)
    order = np.lexsort((docs, queries)) if len(queries) else np.array([], dtype=np.int64)
    digest = hashlib.sha256()
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True).encode
    lines = [dumps([queries[i], docs[i], float(grades[i])]) for i in order]
    bare = sorted({str(q) for q in columns.bare_queries} - set(queries))
    lines += [dumps([q, None]) for q in bare]
    for start in range(0, len(lines), 100_000):
        digest.update("".join(line + "\n" for line in lines[start:start + 100_000])
                      .encode("utf-8"))
    return {"sha256": digest.hexdigest(), "queries": len(set(queries)) + len(bare),
            "judgments": len(queries)}


def file_sha256(path) -> str:
    """The SHA-256 of a file's bytes, as they are on disk (compressed or not)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _version() -> str:
    import ragmetrics  # the package, imported by the time a baseline is made

    return ragmetrics.__version__


def baseline_from_evaluation(evaluation: Evaluation, qrels, *, run: Mapping | None = None,
                             fingerprint: Mapping | None = None) -> Baseline:
    """A :class:`Baseline` of an evaluation (its number columns), not written anywhere."""
    if not isinstance(evaluation, Evaluation):
        raise InputTypeError(f"evaluation must be an Evaluation, got {type(evaluation).__name__}")
    numbers_only = evaluation.per_query.select_dtypes(include="number")
    if numbers_only.shape[1] == 0:
        raise InputValueError("the evaluation has no metric with number values to keep "
                              "as a baseline")
    per_query = numbers_only.astype(np.float64)
    per_query.index = pd.Index([str(q) for q in per_query.index], name="query_id")
    if per_query.index.has_duplicates:
        raise InputValueError("two query ids of the evaluation are the same as text "
                              f"({per_query.index[per_query.index.duplicated()][0]!r}); a "
                              "baseline keys its values by the id's text")
    return Baseline(
        per_query=per_query,
        metrics=tuple(str(m) for m in per_query.columns),
        conventions=evaluation.conventions,
        preset=evaluation.preset,
        judgments=dict(fingerprint) if fingerprint is not None else qrels_fingerprint(qrels),
        run=_run_record(run),
        ragmetrics_version=_version(),
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def _run_record(run: Mapping | None) -> dict:
    record = {"name": None, "path": None, "sha256": None, "provenance": None}
    if run is not None:
        unknown = set(run) - set(record)
        if unknown:
            raise InputValueError(f"run: unknown key {min(unknown)!r}; a run record "
                                  f"has {', '.join(record)}")
        record.update(run)
    return record


def save_baseline(evaluation_or_run, qrels, path, *, metrics=("recall@10", "precision@10",
                  "mrr", "ndcg@10"), name: str | None = None, run_path=None,
                  preset: str | None = None, **conventions) -> Baseline:
    """Write the baseline file of a run (or of its evaluation) for a regression gate.

    Parameters
    ----------
    evaluation_or_run : Evaluation or run
        An :class:`~ragmetrics.Evaluation` (its number columns are kept, under its
        conventions), or a run as :func:`ragmetrics.evaluate` takes it, evaluated here on
        ``metrics`` under ``preset`` and ``conventions``. A run of
        :func:`ragmetrics.runners.run_retriever` keeps its ``.provenance`` in the file.
    qrels
        The judgments the values were computed against: their fingerprint
        (:func:`qrels_fingerprint`) goes into the file.
    path : str or path
        The ``.json`` file to write, atomically.
    metrics : sequence of str
        For a run: the metrics to evaluate (every one a gate may guard later).
    name : str, optional
        The run's name, for people reading the file.
    run_path : str or path, optional
        The file the run was read from: its path and the SHA-256 of its bytes go in.
    preset, **conventions
        For a run, as :func:`ragmetrics.evaluate`; none with an Evaluation (it carries
        its own).

    Returns
    -------
    Baseline
        What was written (``path`` set).

    Examples
    --------
    >>> run = {"q1": ["d1", "d2"], "q2": ["d9", "d3"], "q3": ["d5"]}
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d3": 1}, "q3": {"d4": 1}}
    >>> saved = save_baseline(run, qrels, "base.json", metrics=["recall@2", "mrr"], name="bm25")
    >>> saved.per_query.round(3).to_dict("list"), saved.run["name"]
    ({'recall@2': [1.0, 1.0, 0.0], 'mrr': [1.0, 0.5, 0.0]}, 'bm25')
    >>> loaded = load_baseline("base.json")
    >>> loaded.per_query.equals(saved.per_query), loaded.judgments == saved.judgments
    (True, True)
    """
    provenance = None
    if isinstance(evaluation_or_run, Evaluation):
        if conventions or preset is not None:
            raise InputValueError("an Evaluation carries its own conventions: pass the run "
                                  "to save_baseline to evaluate it under other ones")
        evaluation = evaluation_or_run
    else:
        provenance = getattr(evaluation_or_run, "provenance", None)
        evaluation = evaluate(evaluation_or_run, qrels, list(metrics), preset=preset,
                              **conventions)
    run = {"name": name, "provenance": provenance}
    if run_path is not None:
        run.update(path=os.fspath(run_path), sha256=file_sha256(run_path))
    baseline = baseline_from_evaluation(evaluation, qrels, run=run)
    return write_baseline(baseline, path)


def write_baseline(baseline: Baseline, path) -> Baseline:
    """Write ``baseline`` to ``path`` (JSON, atomically); return it with ``path`` set."""
    if Path(path).suffix.lower() != ".json":
        raise InputValueError(f"a baseline file is JSON: its name must end in .json, got "
                              f"{os.fspath(path)}")
    text = json.dumps(baseline.to_dict(), indent=1, allow_nan=False) + "\n"
    write_atomic(path, text)
    return replace(baseline, path=os.fspath(path))


def load_baseline(path) -> Baseline:
    """Read a baseline file written by :func:`save_baseline`.

    Raises
    ------
    FormatError
        For a file that is not a baseline or is damaged: not JSON (with the line), no
        ``"schema": "ragmetrics-baseline"``, a newer schema version, a key missing or of
        the wrong kind, values that are not numbers, a metric or convention unknown,
        per-query lists of different lengths, a query id twice. The message names the
        file and what is wrong.
    OSError
        If the file cannot be read.

    Examples
    --------
    >>> from pathlib import Path
    >>> _ = Path("foreign.json").write_text('{"results": []}')
    >>> load_baseline("foreign.json")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.FormatError: foreign.json: not a ragmetrics baseline file (no "schema": "ragmetrics-baseline"; write one with ragmetrics evaluate QRELS RUN --save-baseline FILE)
    """
    name = os.fspath(path)
    raw = Path(path).read_bytes()
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8 text (byte {error.start}): not a baseline file",
                          path=name) from None
    except json.JSONDecodeError as error:
        raise FormatError(f"not valid JSON ({error.msg}, column {error.colno}): the file is "
                          "damaged or not a baseline", path=name, line=error.lineno) from None
    return _read_document(document, name)


def _read_document(document, name: str) -> Baseline:
    def bad(reason: str) -> FormatError:
        return FormatError(reason, path=name)

    if not isinstance(document, dict) or document.get("schema") != BASELINE_SCHEMA:
        raise bad(f'not a ragmetrics baseline file (no "schema": "{BASELINE_SCHEMA}"; write '
                  "one with ragmetrics evaluate QRELS RUN --save-baseline FILE)")
    version = document.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise bad(f'"schema_version" must be a positive integer, got {version!r}')
    if version > SCHEMA_VERSION:
        raise bad(f"schema version {version} is newer than this ragmetrics reads "
                  f"({SCHEMA_VERSION}): upgrade ragmetrics, or save the baseline again")
    expected = {"created_at": str, "ragmetrics_version": str, "metrics": list,
                "conventions": dict, "judgments": dict, "run": dict, "per_query": dict}
    for key, kind in expected.items():
        if key not in document:
            raise bad(f"the key {key!r} is missing: the file is damaged")
        if not isinstance(document[key], kind):
            raise bad(f"{key!r} must be a JSON {_json_kind(kind)}, got "
                      f"{type(document[key]).__name__}")
    metrics = document["metrics"]
    if not metrics or not all(isinstance(m, str) for m in metrics):
        raise bad('"metrics" must be a non-empty list of metric names')
    if len(set(metrics)) != len(metrics):
        raise bad(f'"metrics" names a metric twice: {metrics}')
    for metric in metrics:
        try:
            parse_metric(metric)
        except InputError as error:
            raise bad(f'"metrics": {error}') from None
    conventions = document["conventions"]
    keywords = {c.keyword for c in CONVENTIONS}
    unknown = sorted(set(conventions) - keywords)
    if unknown:
        raise bad(f'"conventions": unknown convention {unknown[0]!r} (written by another '
                  "version of ragmetrics? save the baseline again)")
    try:
        conventions = Conventions(**conventions)
    except (InputError, TypeError) as error:
        raise bad(f'"conventions": {error}') from None
    preset = document.get("preset")
    if preset is not None and preset not in PRESETS:
        raise bad(f'"preset": unknown preset {preset!r}')
    judgments = document["judgments"]
    digest = judgments.get("sha256")
    if not isinstance(digest, str) or len(digest) != 64:
        raise bad('"judgments" must hold "sha256", the judgments\' fingerprint (64 hex '
                  "digits)")
    per_query = document["per_query"]
    ids, values = per_query.get("query_ids"), per_query.get("values")
    if not isinstance(ids, list) or not all(isinstance(q, str) for q in ids):
        raise bad('"per_query" must hold "query_ids", a list of query ids (text)')
    if not ids:
        raise bad('"per_query" has no query')
    if len(set(ids)) != len(ids):
        seen = set()
        twice = next(q for q in ids if q in seen or seen.add(q))
        raise bad(f'"per_query": query {twice!r} is listed twice')
    if not isinstance(values, dict) or list(values) != list(metrics):
        raise bad('"per_query" must hold "values", one list per metric of "metrics", in '
                  f"its order; got {list(values) if isinstance(values, dict) else values!r}")
    columns = {}
    for metric, column in values.items():
        if not isinstance(column, list) or len(column) != len(ids):
            raise bad(f'"per_query": the values of {metric} must be a list of {len(ids)} '
                      f"(one per query id), got {_length(column)}")
        for at, value in enumerate(column):
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, numbers.Real)
                                      or not math.isfinite(value)):
                raise bad(f'"per_query": {metric} of query {ids[at]!r} is {value!r}, not a '
                          "number (or null)")
        columns[metric] = np.array([np.nan if v is None else v for v in column], np.float64)
    frame = pd.DataFrame(columns, index=pd.Index(ids, name="query_id"))
    run = document["run"]
    return Baseline(
        per_query=frame, metrics=tuple(metrics), conventions=conventions, preset=preset,
        judgments=judgments, run={"name": run.get("name"), "path": run.get("path"),
                                  "sha256": run.get("sha256"),
                                  "provenance": run.get("provenance")},
        ragmetrics_version=document["ragmetrics_version"], created_at=document["created_at"],
        schema_version=version, path=name)


def _json_kind(kind) -> str:
    return {str: "string", list: "array", dict: "object"}[kind]


def _length(value) -> str:
    return f"{len(value)} values" if isinstance(value, list) else type(value).__name__


def _sized(judgments: Mapping) -> str:
    queries, rows = judgments.get("queries"), judgments.get("judgments")
    if not isinstance(queries, int) or not isinstance(rows, int):
        return "judgments of unknown size"
    return f"{counted(queries)} and {counted(rows, 'judgment', 'judgments')}"


def _shown_ids(ids) -> str:
    ids = sorted(ids)
    return ", ".join(map(repr, ids[:_SHOWN_IDS])) + (", ..." if len(ids) > _SHOWN_IDS else "")


def stale_reasons(baseline: Baseline, *, judgments: Mapping | None = None,
                  conventions: Conventions | None = None, preset: str | None = None,
                  metrics=(), query_ids=None) -> list[str]:
    """What differs between ``baseline`` and a gate's inputs: one sentence each, or none.

    Parameters
    ----------
    judgments : dict, optional
        The gate's :func:`qrels_fingerprint`; differs when its ``sha256`` does.
    conventions, preset : optional
        The candidate's; differ when any convention (or the preset) does.
    metrics : sequence of str
        The metrics the gate guards: each must be one of the baseline's (by its meaning:
        ``ndcg_cut_10`` is ``ndcg@10``).
    query_ids : iterable, optional
        The queries the candidate was scored on; they must be the baseline's.

    Examples
    --------
    >>> base = save_baseline({"q1": ["d1"], "q2": ["d2"]}, {"q1": {"d1": 1}, "q2": {"d3": 1}},
    ...                      "base.json", metrics=["mrr"])
    >>> for reason in stale_reasons(base, judgments=qrels_fingerprint({"q1": {"d1": 1}}),
    ...                             metrics=["ndcg@10"], query_ids=["q1", "q3"]):
    ...     print(reason)  # doctest: +ELLIPSIS
    the judgments differ: the baseline was scored against 2 queries and 2 judgments (fingerprint ...), these are 1 query and 1 judgment (fingerprint ...)
    ndcg@10 is not among the baseline's metrics (mrr)
    1 query of the baseline is not in the candidate's evaluation: 'q2'
    1 query of the candidate's evaluation is not in the baseline: 'q3'
    """
    reasons = []
    if judgments is not None and judgments.get("sha256") != baseline.judgments.get("sha256"):
        old, new = baseline.judgments, judgments
        reasons.append(
            f"the judgments differ: the baseline was scored against {_sized(old)} "
            f"(fingerprint {str(old.get('sha256'))[:12]}), these are {_sized(new)} "
            f"(fingerprint {str(new.get('sha256'))[:12]})")
    if conventions is not None:
        was, now = baseline.conventions.as_dict(), conventions.as_dict()
        changed = [f"{k} {was[k]!r} in the baseline, {now[k]!r} now" for k in was
                   if was[k] != now[k]]
        if baseline.preset != preset:
            changed.append(f"preset {baseline.preset!r} in the baseline, {preset!r} now")
        if changed:
            reasons.append("the conventions differ: " + "; ".join(changed))
    for metric in metrics:
        if baseline_column(baseline, metric) is None:
            reasons.append(f"{metric} is not among the baseline's metrics "
                           f"({', '.join(baseline.metrics)})")
    if query_ids is not None:
        now = {str(q) for q in query_ids}
        was = set(baseline.per_query.index)
        for missing, where, other in ((was - now, "the baseline", "the candidate's evaluation"),
                                      (now - was, "the candidate's evaluation", "the baseline")):
            if missing:
                reasons.append(f"{counted(len(missing))} of {where} {'is' if len(missing) == 1 else 'are'} not in "
                               f"{other}: {_shown_ids(missing)}")
    return reasons


def baseline_column(baseline: Baseline, metric: str) -> str | None:
    """The baseline's column for ``metric`` (by name, else by meaning), or None."""
    if metric in baseline.metrics:
        return metric
    wanted = str(parse_metric(metric))
    return next((m for m in baseline.metrics if str(parse_metric(m)) == wanted), None)
