"""Reading documents, chunks and evidence from files: JSON Lines, CSV, TSV or Parquet.

The readers only parse: each returns the table as written (every CSV cell a string,
an empty cell missing) with the line of the file each row came from, so that
:mod:`ragmetrics.spans.tables`, which checks the values, can name the file and the line
of a bad one. A malformed file raises :class:`~ragmetrics.errors.FormatError`.
"""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import FormatError

__all__ = ["Table", "read_table"]

_FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "tsv",
            ".parquet": "parquet"}


@dataclass(frozen=True)
class Table:
    """A table read from a file: its rows, the file, and where each row was."""

    frame: pd.DataFrame
    path: str
    lines: np.ndarray  # the 1-based line (Parquet: row) of each row
    unit: str = "line"


def read_table(path) -> Table:
    """Read ``path`` by its extension: ``.jsonl``/``.ndjson``, ``.csv``, ``.tsv``, ``.parquet``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "chunks.csv").write_text("chunk_id,doc_id,start,end\\nc1,d1,0,5\\n")
    >>> table = read_table(folder / "chunks.csv")
    >>> table.frame.to_dict("records"), table.lines.tolist()
    ([{'chunk_id': 'c1', 'doc_id': 'd1', 'start': '0', 'end': '5'}], [2])
    """
    name = os.fspath(path)
    kind = _FORMATS.get(Path(name).suffix.lower())
    if kind is None:
        known = ", ".join(sorted(_FORMATS))
        raise FormatError(f"unknown file type (expected one of {known})", path=name)
    if not Path(name).is_file():
        raise FormatError("no such file", path=name)
    if kind == "parquet":
        frame = pd.read_parquet(name)
        return Table(frame, name, np.arange(1, len(frame) + 1), unit="row")
    with open(name, encoding="utf-8", newline="") as handle:
        try:
            text = handle.read()
        except UnicodeDecodeError as error:
            raise FormatError(f"not UTF-8 text ({error.reason} at byte {error.start})",
                              path=name) from None
    if kind == "jsonl":
        return _read_jsonl(text, name)
    return _read_delimited(text, name, "," if kind == "csv" else "\t")


def _read_jsonl(text: str, path: str) -> Table:
    rows, lines = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise FormatError(f"not JSON ({error.msg})", path=path, line=number,
                              text=line) from None
        if not isinstance(row, dict):
            raise FormatError(f"expected a JSON object, got {type(row).__name__}", path=path,
                              line=number, text=line)
        rows.append(row)
        lines.append(number)
    if not rows:
        raise FormatError("the file holds no rows", path=path)
    return Table(pd.DataFrame.from_records(rows), path, np.asarray(lines))


def _read_delimited(text: str, path: str, delimiter: str) -> Table:
    records = csv.reader(text.splitlines(keepends=True), delimiter=delimiter, strict=True)
    rows, lines = [], []
    header, at = None, 1
    try:
        for record in records:
            line, at = at, records.line_num + 1
            if not record or all(not cell.strip() for cell in record):
                continue
            if header is None:
                header = [cell.strip() for cell in record]
                if len(set(header)) != len(header):
                    raise FormatError("repeated column names in the header", path=path,
                                      line=line, text=delimiter.join(record))
                continue
            if len(record) != len(header):
                raise FormatError(f"expected {len(header)} fields, got {len(record)}",
                                  path=path, line=line, text=delimiter.join(record))
            rows.append([cell if cell != "" else None for cell in record])
            lines.append(line)
    except csv.Error as error:
        raise FormatError(f"malformed {'CSV' if delimiter == ',' else 'TSV'} ({error})",
                          path=path, line=at) from None
    if header is None or not rows:
        raise FormatError("the file holds no rows", path=path)
    frame = pd.DataFrame(rows, columns=header, dtype=object)
    return Table(frame, path, np.asarray(lines))
