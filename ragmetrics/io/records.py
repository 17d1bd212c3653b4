"""The records of a CSV, TSV, JSONL or Parquet file, for tables that are neither runs nor
judgments (:mod:`ragmetrics.spans` reads its documents, chunks and evidence with it).

:func:`read_records` parses a file as :func:`~ragmetrics.io.read_run` and
:func:`~ragmetrics.io.read_qrels` do (compressed or not, pipes read once, physical line
numbers, Arrow's fast parser where it can vouch for the file), and judges no value: the
caller checks the columns it reads with :mod:`ragmetrics.io.checks`, the same rules and
words as every reader's.
"""

from __future__ import annotations

from ..errors import FormatError, InputValueError
from .source import path_name, read_once
from .tables import Table, format_of, read_table

__all__ = ["Records", "read_records"]


class Records:
    """A table file, parsed: :attr:`table` first, :meth:`exact` when a line is needed.

    Attributes
    ----------
    table : ragmetrics.io.tables.Table
        The records: ``columns``, ``column(name)`` (the raw values and whether they carry
        their type), ``len()``, ``path`` and ``unit`` (``"line"``, or ``"row"`` in a
        Parquet file), parsed by Arrow's fast parser where it can vouch for the file. A
        problem found in its values is worded from :meth:`exact`: the fast parse may
        not know the line of each record, and its values can differ from the
        definition's in a bad record (a JSON integer among floats, a key left out).
    """

    def __init__(self, path, table: Table, format: str) -> None:
        self._path, self._format = path, format
        self.table = table
        self._exact: Table | None = None

    def exact(self) -> Table:
        """The records parsed by the definition (Python's ``csv`` and ``json``), which
        knows the line each record starts on (``lines``), parsed once when first asked."""
        if self._exact is None:
            self._exact = read_table(self._path, self._format, fast=False)
        return self._exact


def read_records(path, *, format: str | None = None) -> Records:
    """Parse a table file whose format its name tells (``.csv``, ``.tsv``, ``.jsonl``,
    ``.ndjson``, ``.parquet``, before a compression suffix), or ``format``.

    Raises
    ------
    FormatError
        For a name that tells no table format, and for every malformed file (as
        :func:`~ragmetrics.io.read_qrels`): the file, the line, its text.

    Examples
    --------
    >>> import gzip, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "chunks.csv.gz"
    >>> _ = path.write_bytes(gzip.compress(b"chunk_id,doc_id,start\\nc1,d1,0\\n\\nc2,d1,7\\n"))
    >>> records = read_records(path)
    >>> records.table.columns, len(records.table), records.exact().lines.tolist()
    (['chunk_id', 'doc_id', 'start'], 2, [2, 4])
    """
    path = read_once(path)  # a pipe: read once, for both parses
    try:
        kind = format_of(path, format)
    except InputValueError:
        if format is not None:
            raise
        raise FormatError("cannot tell the table format from the name: expected .csv, .tsv, "
                          ".jsonl, .ndjson or .parquet (compressed or not)",
                          path=path_name(path)) from None
    return Records(path, read_table(path, kind), kind)
