"""RAGAS evaluation samples as a data set: questions, judgments and the run they carry.

A RAGAS single-turn sample (``ragas.dataset_schema.SingleTurnSample``) holds a question
(``user_input``) and, for retrieval, up to four lists:

==========================  =====================================================
field                       read as
==========================  =====================================================
``reference_context_ids``   the judgments (qrels), each id relevant (grade 1)
``reference_contexts``      the same, given as texts, matched to ids
``retrieved_context_ids``   the run, ranked by position in the list (rank 1 first)
``retrieved_contexts``      the same, given as texts, matched to ids
==========================  =====================================================

Ids win over texts when a file has both for a side. Texts become ids by
:func:`ragmetrics.io.match_texts` (exact match after whitespace normalisation): against
``documents`` when given (the chunks, ``doc_id, text``), else **text-keyed**, each
distinct normalised text its own id, shared by reference and retrieved texts, so that a
retrieved text equal to a reference text is a hit. (RAGAS' own ``id_based_context_*``
metrics compare ids as text, ``str(id)``; ids here are text too.)

RAGAS writes samples with ``EvaluationDataset.to_jsonl`` (one JSON object per line,
lists as JSON arrays), ``to_csv`` (Python's ``csv.DictWriter``, which writes a list
cell as Python's ``str(list)``, e.g. ``['a', "it's"]``) and ``to_pandas`` (a DataFrame
of lists, which ``DataFrame.to_csv`` writes the same way). A list cell is read as a
JSON array or, failing that, as a Python literal (:func:`ast.literal_eval`, which runs
no code).

Examples
--------
>>> samples = [{"user_input": "How long do refunds take?",
...             "reference_contexts": ["Refunds take 5 days."],
...             "retrieved_contexts": ["Contact billing.", "Refunds  take 5 days."]}]
>>> dataset = read_ragas_samples(samples)
>>> dataset
Dataset('ragas' from '': 1 queries, 1 judgments, no documents, a run of 2 rows)
>>> dataset.run
  query_id                 doc_id  rank
0        0  text:f29657fc2d180c1a     1
1        0  text:558c378376e08651     2
>>> dataset.qrels
  query_id                 doc_id  relevance
0        0  text:558c378376e08651          1
"""

from __future__ import annotations

import ast
import csv
import io
import json
import math
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import FormatError, InputTypeError, InputValueError
from ..validation import check_choice
from .dataset_model import Dataset
from .source import ReadOnce, open_source, path_name, without_compression_suffix
from .text_matching import UNMATCHED_POLICIES, WORD, TextIndex, TextMatches, match_texts

__all__ = ["RAGAS_FIELDS", "read_ragas_samples"]

#: The fields of a RAGAS sample read as judgments and as a run: (ids, texts) per side.
RAGAS_FIELDS = {"reference": ("reference_context_ids", "reference_contexts"),
                "retrieved": ("retrieved_context_ids", "retrieved_contexts")}

_LIST_FIELDS = tuple(f for pair in RAGAS_FIELDS.values() for f in pair)
_SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".json": "json"}
_SHOWN = 60


class _Origin:
    """Where each sample was: a file's line (JSONL, CSV), a sample's position (JSON), or
    a row in memory; errors name it."""

    def __init__(self, path: str | None, lines: list[int | None], texts: list[str | None]):
        self.path, self.lines, self.texts = path, lines, texts

    def where(self, row: int) -> str:
        if self.path is None:
            return f"samples row {row}"
        line = self.lines[row]
        return f"{self.path}, line {line}" if line is not None else (
            f"{self.path}, sample {row}")

    def error(self, row: int, reason: str, kind=InputValueError) -> Exception:
        if self.path is None:
            return kind(f"samples row {row}: {reason}")
        if kind is InputTypeError:  # a value of the wrong type in a file: still the file's
            kind = FormatError
        line = self.lines[row]
        if line is None:
            return FormatError(f"sample {row}: {reason}", path=self.path)
        return FormatError(reason, path=self.path, line=line, text=self.texts[row])


# --- the samples, from a file or from memory ------------------------------------------


_SNIFF_BYTES = 1 << 16


def is_ragas_file(path) -> bool:
    """Whether a ``.jsonl``, ``.ndjson``, ``.json`` or ``.csv`` file (compressed or not)
    holds RAGAS samples: its CSV header, or its first JSON record, has ``user_input``.

    Told from the name and the first 64 KiB only; :func:`ragmetrics.io.read_run` and
    :func:`ragmetrics.io.read_dataset` use it to tell such a file without ``format=``.

    Examples
    --------
    >>> from pathlib import Path
    >>> _ = Path("eval.jsonl").write_text('{"user_input": "Q?", "retrieved_context_ids": ["c1"]}')
    >>> is_ragas_file("eval.jsonl"), is_ragas_file("missing.txt")
    (True, False)
    """
    suffix = without_compression_suffix(Path(path_name(path))).suffix.lower()
    if suffix not in _SUFFIXES:
        return False
    try:
        start = open_source(path).data[:_SNIFF_BYTES].decode("utf-8", errors="replace")
    except (FormatError, OSError):
        return False  # the reader that follows names the problem
    start = start.lstrip("\ufeff")
    if suffix == ".csv":
        return "user_input" in next(csv.reader([start.split("\n", 1)[0].rstrip("\r")]), [])
    return bool(re.match(r"\s*[\[{]", start) and re.search(r'"user_input"\s*:', start))


def _file_kind(path) -> str:
    suffix = without_compression_suffix(Path(path_name(path))).suffix.lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    source = open_source(path)
    start = source.text.lstrip()[:1]
    if start == "[":
        return "json"
    if start == "{":
        first = next(line for line in source.lines() if line.strip())
        try:
            json.loads(first)
        except json.JSONDecodeError:
            return "json"  # an object over several lines
        return "jsonl"
    return "csv"


def _read_jsonl(path) -> tuple[list[dict], _Origin]:
    source = open_source(path)
    records, lines, texts = [], [], []
    for number, line in enumerate(source.lines(), start=source.first_line):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise source.error(f"not valid JSON ({error.msg}, column {error.colno})",
                               number) from None
        if not isinstance(record, dict):
            raise source.error(f"a sample is a JSON object, got {type(record).__name__}",
                               number)
        records.append(record)
        lines.append(number)
        texts.append(line)
    return records, _Origin(source.name, lines, texts)


def _read_json(path) -> tuple[list[dict], _Origin]:
    source = open_source(path)
    try:
        data = json.loads(source.text)
    except json.JSONDecodeError as error:
        raise source.error(f"not valid JSON ({error.msg}, column {error.colno})",
                           error.lineno) from None
    if isinstance(data, dict) and isinstance(data.get("samples"), list):
        data = data["samples"]  # an EvaluationDataset as a dict
    if not isinstance(data, list):
        raise source.error("a JSON file of samples holds a list of objects (or "
                           '{"samples": [...]}), got ' + type(data).__name__)
    for i, record in enumerate(data):
        if not isinstance(record, dict):
            raise FormatError(f"sample {i}: a sample is a JSON object, got "
                              f"{type(record).__name__}", path=source.name)
    return data, _Origin(source.name, [None] * len(data), [None] * len(data))


def _read_csv(path) -> tuple[list[dict], _Origin]:
    source = open_source(path)
    limit = csv.field_size_limit()
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))  # a context can be long
    try:
        reader = csv.reader(io.StringIO(source.text, newline=""))
        records, lines, texts = [], [], []
        header, header_line = None, None
        start = 1
        try:
            for row in reader:
                line = start + source.first_line - 1
                start = reader.line_num + 1
                if not row or (len(row) == 1 and not row[0].strip() and header is None):
                    continue
                if header is None:
                    header, header_line = [name.strip() for name in row], line
                    continue
                if len(row) != len(header):
                    raise source.error(f"expected {len(header)} fields (as the header on "
                                       f"line {header_line}), got {len(row)}", line)
                records.append({name: (None if value == "" else value)
                                for name, value in zip(header, row, strict=True)})
                lines.append(line)
                texts.append(source.line_text(line))
        except csv.Error as error:
            raise source.error(f"not valid CSV ({error})", start) from None
    finally:
        csv.field_size_limit(limit)
    if header is None:
        raise source.error("no header line: a CSV file of samples starts with its field "
                           "names (user_input, retrieved_contexts, ...)")
    return records, _Origin(source.name, lines, texts)


def _samples(source) -> tuple[list[dict], _Origin, str]:
    if isinstance(source, pd.DataFrame):
        records = source.to_dict(orient="records")
        return records, _Origin(None, [], []), ""
    if isinstance(source, list):
        for i, record in enumerate(source):
            if not isinstance(record, Mapping):
                raise InputTypeError(f"samples row {i}: a sample is a dict, got "
                                     f"{type(record).__name__}")
        return [dict(r) for r in source], _Origin(None, [], []), ""
    if isinstance(source, (str, os.PathLike, ReadOnce)):
        kind = _file_kind(source)
        reader = {"jsonl": _read_jsonl, "json": _read_json, "csv": _read_csv}[kind]
        records, origin = reader(source)
        return records, origin, path_name(source)
    raise InputTypeError("samples must be a file (JSONL, CSV or JSON), a list of dicts or a "
                         f"DataFrame, got {type(source).__name__}")


# --- the cells --------------------------------------------------------------------------


def _missing(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _list_cell(value, row: int, name: str, origin: _Origin) -> list | None:
    """A list field's value as a list (None when missing), parsing a CSV cell's text."""
    if isinstance(value, np.ndarray):  # a Parquet or Arrow list, through pandas
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return list(value)
    if _missing(value):
        return None
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            try:
                parsed = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                raise origin.error(row, f"{name} must be a list (a JSON array or a Python "
                                   f"list), got {_shown(value)}") from None
        if isinstance(parsed, (list, tuple)):
            return list(parsed)
        value = parsed
    raise origin.error(row, f"{name} must be a list, got {_shown(value)} "
                       f"({type(value).__name__})", kind=InputTypeError)


def _text_items(items: list, row: int, name: str, origin: _Origin) -> list[str]:
    for i, item in enumerate(items):
        if not isinstance(item, str):
            what = "missing" if _missing(item) else type(item).__name__
            raise origin.error(row, f"{name}[{i}] must be a text (str), got {_shown(item)} "
                               f"({what})", kind=InputTypeError)
        if not WORD.search(item):
            raise origin.error(row, f"{name}[{i}] is empty (or only whitespace): it matches "
                               "nothing")
    return items


def _id_items(items: list, row: int, name: str, origin: _Origin) -> list[str]:
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
            out.append(str(int(item)))  # as RAGAS compares ids: str(id)
        else:
            raise origin.error(row, f"{name}[{i}] must be an id (str or int), got "
                               f"{_shown(item)} ({type(item).__name__})", kind=InputTypeError)
    return out


def _query_ids(records: list[dict], origin: _Origin) -> list[str]:
    key = next((k for k in ("query_id", "id") if any(k in r for r in records)), None)
    if key is None:
        return [str(i) for i in range(len(records))]
    ids, first = [], {}
    for row, record in enumerate(records):
        value = record.get(key)
        if isinstance(value, str) and value.strip():
            query = value
        elif isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            query = str(int(value))
        elif isinstance(value, float) and value.is_integer() and key in record:
            query = str(int(value))  # a DataFrame's int column with a missing cell elsewhere
        else:
            raise origin.error(row, f"{key} must be an id (str or int), got {_shown(value)}",
                               kind=InputTypeError)
        if query in first:
            raise origin.error(row, f"{key} {query!r} is given twice (first in "
                               f"{origin.where(first[query])})")
        first[query] = row
        ids.append(query)
    return ids


def _side(records: list[dict], side: str, origin: _Origin) -> tuple[str | None, list[list]]:
    """Which field gives a side (ids, texts or none) and each sample's list."""
    ids_field, texts_field = RAGAS_FIELDS[side]
    for kind, name in (("ids", ids_field), ("texts", texts_field)):
        if all(_missing(r.get(name)) for r in records):
            continue
        lists = []
        for row, record in enumerate(records):
            items = _list_cell(record.get(name), row, name, origin)
            if items is None:
                other = texts_field if kind == "ids" else ids_field
                raise origin.error(row, f"no {name} (other samples have them"
                                   + (f"; {other} is not read when {name} is given"
                                      if kind == "ids" else "") + "); give [] for none")
            check = _id_items if kind == "ids" else _text_items
            lists.append(check(items, row, name, origin))
        return (ids_field if kind == "ids" else texts_field), lists
    return None, []


# --- the reader ---------------------------------------------------------------------------


def read_ragas_samples(source, *, documents=None, unmatched: str = "error") -> Dataset:
    """Read RAGAS single-turn samples: questions, judgments and the run they carry.

    Parameters
    ----------
    source : str, os.PathLike, list of dicts or pandas.DataFrame
        A ``.jsonl`` (``EvaluationDataset.to_jsonl``), ``.csv`` (``to_csv``, or
        ``to_pandas().to_csv``) or ``.json`` file (a list of samples, or
        ``{"samples": [...]}``), compressed or not; another name is told by its first
        character. Or the samples in memory: ``EvaluationDataset.to_list()`` or
        ``to_pandas()``.
    documents : DataFrame, mapping or list of records, optional
        ``doc_id, text``: the chunks the contexts were cut as, to match context texts to
        ids (:func:`ragmetrics.io.match_texts`). Without them, texts are **text-keyed**:
        each distinct text (after whitespace normalisation) is its own id, shared by
        reference and retrieved contexts.
    unmatched : {"error", "report"}, default "error"
        With documents: a context text equal to no document, or to several, is refused
        (``"error"``, listing counts and examples) or kept under an id of its own and
        counted in the report (``"report"``; see :func:`ragmetrics.io.match_texts`).

    Returns
    -------
    Dataset
        ``format="ragas"``. ``queries``: ``query_id, text`` (``user_input``) and the
        sample's other fields; the query id is the ``query_id`` field, else ``id``, else
        the sample's position from 0 as text (``"0"``, ``"1"``..., as
        ``EvaluationDataset[i]``). ``qrels``: from ``reference_context_ids``, else
        ``reference_contexts`` (empty when the samples have neither). ``run``: from
        ``retrieved_context_ids``, else ``retrieved_contexts``, rank = position in the
        list from 1 (None when the samples have neither). ``text_matches``: the
        :class:`~ragmetrics.io.TextMatches` report when texts were matched.

    Raises
    ------
    FormatError
        For a file that cannot be read as samples, naming the file, the line (in a JSON
        file, the sample) and the field: a list cell that is not a list, a context that
        is not a text (None, NaN, a number), an id that is not one, a query id given
        twice, a sample without the field the others have.
    InputValueError, InputTypeError
        The same for samples in memory (naming the row); and for ids on one side and
        texts on the other without ``documents`` (they would share no id).

    Examples
    --------
    Reference ids, retrieved texts matched to the documents:

    >>> documents = {"d1": "Refunds take 5 days.", "d2": "Contact billing."}
    >>> samples = [{"user_input": "Refund delay?", "reference_context_ids": ["d1"],
    ...             "retrieved_contexts": ["Contact billing.", "Refunds take\\n5 days."]}]
    >>> dataset = read_ragas_samples(samples, documents=documents)
    >>> dataset.run
      query_id doc_id  rank
    0        0     d2     1
    1        0     d1     2
    >>> dataset.text_matches
    TextMatches(keyed by documents; retrieved: 2 texts, 2 matched, 0 unmatched, 0 ambiguous)

    References
    ----------
    .. [1] RAGAS, ``src/ragas/dataset_schema.py``: ``SingleTurnSample``,
       ``EvaluationDataset.to_csv``, ``to_jsonl``; ``src/ragas/metrics/
       _context_precision.py``: ``IDBasedContextPrecision``.
       https://github.com/explodinggradients/ragas
    """
    unmatched = check_choice(unmatched, UNMATCHED_POLICIES, "unmatched")
    records, origin, path = _samples(source)
    for row, record in enumerate(records):
        question = record.get("user_input")
        if isinstance(question, (list, np.ndarray)):
            raise origin.error(row, "user_input is a list of messages: a multi-turn sample, "
                               "which has no retrieval to evaluate; read single-turn samples",
                               kind=InputTypeError)
        if not isinstance(question, str):
            raise origin.error(row, f"user_input must be the question (str), got "
                               f"{_shown(question)}", kind=InputTypeError)
    query_ids = _query_ids(records, origin)
    sides = {side: _side(records, side, origin) for side in RAGAS_FIELDS}
    kinds = {side: None if name is None else ("ids" if name.endswith("_ids") else "texts")
             for side, (name, _) in sides.items()}
    if documents is None and {kinds["reference"], kinds["retrieved"]} == {"ids", "texts"}:
        ids_side = "reference" if kinds["reference"] == "ids" else "retrieved"
        texts_side = "retrieved" if ids_side == "reference" else "reference"
        raise InputValueError(
            f"{path or 'the samples'}: the {ids_side} contexts are ids "
            f"({sides[ids_side][0]}) but the {texts_side} contexts are texts "
            f"({sides[texts_side][0]}), which would share no id: pass documents= "
            "(doc_id, text) to read_ragas_samples to match the texts to the ids")
    index = documents if documents is None or isinstance(documents, TextIndex) else \
        TextIndex(documents)
    frames: dict[str, pd.DataFrame | None] = {}
    reports = []
    for side, (name, lists) in sides.items():
        if name is None:
            frames[side] = None
            continue
        query = [q for q, items in zip(query_ids, lists, strict=True) for _ in items]
        items = [item for items in lists for item in items]
        position = [i + 1 for items in lists for i in range(len(items))]
        if kinds[side] == "ids":
            frame = pd.DataFrame({"query_id": pd.Series(query, dtype="str"),
                                  "doc_id": pd.Series(items, dtype="str")})
            if side == "reference":
                frame = frame.drop_duplicates(ignore_index=True)
                frame["relevance"] = np.ones(len(frame), dtype=np.int64)
            else:
                frame["rank"] = np.asarray(position, dtype=np.int64)
        else:
            texts = pd.DataFrame({"query_id": pd.Series(query, dtype="str"),
                                  "text": pd.Series(items, dtype=object)})
            if side == "retrieved":
                texts["rank"] = np.asarray(position, dtype=np.int64)
            rows = [r for r, items in enumerate(lists) for _ in items]
            where = [f"{origin.where(r)}, {name}[{p - 1}]" for r, p in zip(rows, position,
                                                                          strict=True)]
            frame, report = match_texts(texts, index, what=side, unmatched=unmatched,
                                        where=where)
            reports.append(report)
        frames[side] = frame
    qrels = frames["reference"]
    if qrels is None:
        qrels = pd.DataFrame({"query_id": pd.Series([], dtype="str"),
                              "doc_id": pd.Series([], dtype="str"),
                              "relevance": pd.Series([], dtype=np.int64)})
    queries = pd.DataFrame({"query_id": pd.Series(query_ids, dtype="str"),
                            "text": pd.Series([r["user_input"] for r in records], dtype="str")})
    skip = {"user_input", "query_id", "id", *_LIST_FIELDS}
    extra = [k for k in dict.fromkeys(k for r in records for k in r) if k not in skip]
    for name in extra:
        queries[name] = pd.Series([r.get(name) for r in records], dtype=object)
    documents = None if index is None else pd.DataFrame({
        "doc_id": pd.Series(index.ids, dtype="str"), "text": pd.Series(index.texts, dtype="str")})
    return Dataset(queries, qrels, documents=documents, run=frames["retrieved"],
                   format="ragas", path=path,
                   text_matches=TextMatches.combine(reports) if reports else None)

