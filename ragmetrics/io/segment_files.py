"""A segment per query, from a file: ``query_id, segment`` as CSV, TSV or JSON lines.

:func:`read_segments` reads what ``ragmetrics evaluate --segments FILE`` names into the
``segments`` of :func:`ragmetrics.compare`: a Series of labels indexed by query id.
Every id and label is text, as written; a bad line is named with its file and number.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd

from ..errors import FormatError

__all__ = ["SEGMENT_SUFFIXES", "read_segments"]

#: The file names :func:`read_segments` reads, by their ending.
SEGMENT_SUFFIXES = (".csv", ".tsv", ".jsonl", ".ndjson")


def read_segments(path) -> pd.Series:
    """A file's ``query_id`` and ``segment`` columns, as a Series (index: query id).

    Parameters
    ----------
    path : str or Path
        ``.csv`` or ``.tsv`` with a header naming ``query_id`` and ``segment`` (other
        columns are ignored), or ``.jsonl``/``.ndjson``: one object per line with both
        keys.

    Returns
    -------
    pandas.Series
        Named ``segment``, one label per query id, in the file's order.

    Raises
    ------
    FormatError
        A name this reader does not read, a missing column or key, an empty id or
        label, a query given twice; with the file and the line.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "segments.csv"
    >>> _ = path.write_text("query_id,segment\\nq1,multi-hop\\nq2,lookup\\n")
    >>> read_segments(path).to_dict()
    {'q1': 'multi-hop', 'q2': 'lookup'}
    """
    name = str(path)
    suffix = Path(name).suffix.lower()
    if suffix not in SEGMENT_SUFFIXES:
        raise FormatError(f"a segments file is read from {', '.join(SEGMENT_SUFFIXES)} "
                          f"(query_id, segment); got {Path(name).name!r}", path=name)
    pairs: list[tuple[str, str, int, str]] = []
    with open(path, encoding="utf-8", newline="") as file:
        if suffix in (".jsonl", ".ndjson"):
            for number, line in enumerate(file, start=1):
                text = line.rstrip("\r\n")
                if not text.strip():
                    continue
                try:
                    record = json.loads(text)
                except json.JSONDecodeError as error:
                    raise FormatError(f"not JSON ({error.msg})", path=name, line=number,
                                      text=text) from None
                if not isinstance(record, dict) or not {"query_id", "segment"} <= set(record):
                    raise FormatError("each line needs the keys query_id and segment",
                                      path=name, line=number, text=text)
                pairs.append((_text(record["query_id"]), _text(record["segment"]), number,
                              text))
        else:
            reader = csv.reader(file, delimiter="\t" if suffix == ".tsv" else ",")
            header = next(reader, None)
            if header is None:
                raise FormatError("the file is empty: expected a header query_id, segment",
                                  path=name)
            header = [h.strip() for h in header]
            missing = [c for c in ("query_id", "segment") if c not in header]
            if missing:
                raise FormatError(f"the header has no column {missing[0]!r} (it has "
                                  f"{header})", path=name, line=1)
            qi, si = header.index("query_id"), header.index("segment")
            for row in reader:
                number = reader.line_num
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) != len(header):
                    raise FormatError(f"expected {len(header)} fields, got {len(row)}",
                                      path=name, line=number, text=",".join(row))
                pairs.append((row[qi].strip(), row[si].strip(), number, ",".join(row)))
    if not pairs:
        raise FormatError("no query in the file: expected lines of query_id, segment",
                          path=name)
    seen: dict[str, int] = {}
    for query, segment, number, text in pairs:
        if not query or not segment:
            raise FormatError(f"an empty {'query_id' if not query else 'segment'}",
                              path=name, line=number, text=text)
        if query in seen:
            raise FormatError(f"query {query!r} is given a segment twice (first on line "
                              f"{seen[query]})", path=name, line=number, text=text)
        seen[query] = number
    return pd.Series([p[1] for p in pairs], index=pd.Index([p[0] for p in pairs],
                                                           name="query_id"), name="segment")


def _text(value) -> str:
    return "" if value is None else str(value).strip()
