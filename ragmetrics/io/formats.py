"""One reader for runs and one for judgments, whatever the file format.

:func:`read_run` and :func:`read_qrels` read TREC, CSV, TSV, JSONL and Parquet files,
compressed or not. The format comes from ``format=`` if given, else from the file name
(before a compression suffix), else from the content: a TREC file has no header, and
its first line has 4 fields (qrels) or 6 (a run).
"""

from __future__ import annotations

import bz2
import io
import lzma
import re
import zlib
from pathlib import Path

import pandas as pd

from ..errors import FormatError
from ..validation import check_choice
from .frames import read_golden, read_results
from .ragas_samples import is_ragas_file, read_ragas_samples
from .run_layouts import RUN_LAYOUTS, read_run_layout
from .source import (
    ReadOnce,
    compression_of,
    open_source,
    path_name,
    read_once,
    without_compression_suffix,
)
from .tables import TABLE_FORMATS
from .trec import EXTRA_FIELDS, read_trec_qrels, read_trec_run

__all__ = ["FORMATS", "read_qrels", "read_run", "sniff_format"]

#: Every format a reader takes, by the name ``format=`` gives it.
FORMATS = ("trec", *TABLE_FORMATS)

_TABLE_SUFFIXES = {".csv", ".tsv", ".jsonl", ".ndjson", ".parquet", ".pq"}
_NOT_READ = (".json", ".xlsx", ".xls", ".pkl", ".pickle", ".zip", ".7z", ".tar")
_SNIFF_BYTES = 1 << 20


def _first_line(path) -> tuple[int, str] | None:
    """(number, text) of the first line that is neither blank nor a comment (``#``, as
    TREC files have), from the first megabyte, or None."""
    if isinstance(path, ReadOnce):
        data = path.data[:_SNIFF_BYTES]
    else:
        with open(path, "rb") as handle:
            data = handle.read(_SNIFF_BYTES)
    kind = compression_of(data)
    if kind == "zstd":
        return None  # told by its name only
    if kind is not None:
        decompressor = {
            "gzip": lambda: zlib.decompressobj(wbits=31),
            "bzip2": bz2.BZ2Decompressor,
            "xz": lzma.LZMADecompressor,
        }[kind]()
        try:
            data = decompressor.decompress(data, _SNIFF_BYTES)
        except (OSError, EOFError, lzma.LZMAError, zlib.error):
            return None  # the reader reports the broken file
    text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    for number, line in enumerate(io.StringIO(text, newline=None), start=1):
        if line.split() and not line.split()[0].startswith("#"):  # a TREC comment: skipped
            return number, line.rstrip("\n")
    return None


def sniff_format(path, role: str) -> str:
    """The format of ``path`` as a run (``role="run"``) or judgments (``"qrels"``).

    Raises
    ------
    FormatError
        When the file is TREC for the other role, or of no format read here.
    """
    role = check_choice(role, ("run", "qrels"), "role")
    name = without_compression_suffix(path)
    suffix = name.suffix.lower()
    shown = path_name(path)
    if suffix in _TABLE_SUFFIXES:
        if suffix == ".tsv" and _is_headerless_trec(path):
            return "trec"
        return {".ndjson": "jsonl", ".pq": "parquet"}.get(suffix, suffix[1:])
    if suffix in _NOT_READ:
        raise FormatError(
            f"{suffix} files are not read; use .csv, .tsv, .jsonl (one JSON object per "
            "line), .parquet, or a TREC file",
            path=shown,
        )
    first = _first_line(path)
    fields = None if first is None else first[1].split()
    if fields is not None and len(fields) == 4 and role == "run":
        raise FormatError(
            "looks like TREC qrels (4 fields per line), not a run; the golden set comes "
            "first: ragmetrics evaluate GOLDEN RUN [RUN ...]",
            path=shown, line=first[0], text=first[1],
        )
    if fields is not None and len(fields) >= 6 and role == "qrels":
        raise FormatError(
            "looks like a TREC run (6 fields per line), not judgments; the golden set "
            "comes first: ragmetrics evaluate GOLDEN RUN [RUN ...]",
            path=shown, line=first[0], text=first[1],
        )
    if fields is not None and (len(fields) >= 6 if role == "run" else len(fields) == 4):
        return "trec"
    _ = open_source(path).text  # a file that is not UTF-8 text says so first
    n = 0 if fields is None else len(fields)
    found = "no data lines" if fields is None else f"{n} field{'s' * (n != 1)} on its first line"
    raise FormatError(
        f"cannot tell the format ({found}): expected .csv, .tsv, .jsonl, .ndjson, "
        ".parquet, or a TREC file (qrels: 4 fields per line, run: 6)",
        path=shown,
        line=None if first is None else first[0],
        text=None if first is None else first[1],
    )


def _is_headerless_trec(path) -> bool:
    """A tab-separated TREC file (run: ``q Q0 doc rank score name``; qrels: ``q 0 doc rel``).

    Tables have a header naming ``query_id``; TREC files have none, so a .tsv whose first
    line is a TREC line is read as TREC.
    """
    first = _first_line(path)
    fields = [] if first is None else first[1].split()
    if not fields or "query_id" in fields:
        return False
    if len(fields) >= 6:
        return fields[1] == "Q0"
    return len(fields) == 4 and re.fullmatch(r"-?[0-9]+", fields[3]) is not None


def read_run(path, *, format: str | None = None, extra_fields: str = "error",
             duplicates: str = "keep") -> pd.DataFrame:
    """Read a run (a retriever's results) from a TREC, CSV, TSV, JSONL or Parquet file,
    or from what a retrieval tool writes (BEIR, LlamaIndex, OpenInference spans).

    Parameters
    ----------
    path : str or os.PathLike
        The file, compressed or not (gzip, bzip2, xz; Zstandard with pyarrow). For the
        tools' layouts, also the object the tool returned (a dict, a list of records, a
        DataFrame).
    format : {"trec", "csv", "tsv", "jsonl", "ndjson", "parquet", "beir", "llamaindex", \
"openinference", "ragas"}, optional
        By default from the name (``.csv``, ``.tsv``, ``.jsonl``, ``.ndjson``,
        ``.parquet``, before a compression suffix); any other name is read as TREC when
        its first line has 6 fields. A ``.tsv`` whose first line is a TREC line is TREC.
        Of the tools' layouts, RAGAS samples (``"ragas"``: a JSONL, CSV or JSON file
        whose records have ``user_input``; their ``retrieved_context_ids`` or
        ``retrieved_contexts``, :func:`~ragmetrics.io.read_ragas_samples`) are told by
        their fields; the others are never guessed: ``"beir"`` (results JSON
        ``{query_id: {doc_id: score}}``, :func:`read_beir_results`), ``"llamaindex"``
        (``RetrievalEvalResult`` records, the query text as query id,
        :func:`read_llamaindex_results`), ``"openinference"`` (the ``RETRIEVER`` spans
        of a Phoenix or OpenTelemetry export, the trace id as query id,
        :func:`read_openinference_spans`); those readers take the options (query ids
        from a data set's texts, the judgments LlamaIndex's records carry).
    extra_fields : {"error", "ignore"}, default "error"
        TREC runs only: a line of more than 6 fields is refused, since an id with a
        space in it shifts every field after it; ``"ignore"`` ignores what follows the
        run name, as trec_eval does (:func:`read_trec_run`).
    duplicates : {"keep", "error"}, default "keep"
        A doc listed twice for one query: kept (the ``duplicates`` convention of
        :func:`ragmetrics.evaluate` decides), or refused, naming both lines.

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``doc_id`` and ``rank`` and/or ``score``: :func:`read_trec_run`
        for TREC files, :func:`read_results` for tables, the ``run`` of the tools'
        readers for their layouts (BEIR's: ``score`` alone, the score decides).

    Examples
    --------
    >>> from pathlib import Path
    >>> path = Path("bm25.txt")
    >>> _ = path.write_text("q1 Q0 d3 1 9.5 bm25\\nq1 Q0 d1 2 7.0 bm25\\n")
    >>> read_run(path)
      query_id doc_id  rank  score run_name
    0       q1     d3     1    9.5     bm25
    1       q1     d1     2    7.0     bm25
    """
    check_choice(extra_fields, EXTRA_FIELDS, "extra_fields")
    if format in RUN_LAYOUTS:  # a tool's layout: a file, or the object the tool returned
        return read_run_layout(path, format, duplicates=duplicates)
    if format is not None:
        check_choice(format, (*FORMATS, *RUN_LAYOUTS, "ragas"), "format")
    path = read_once(path)  # a pipe: read once, to tell its format and to read it
    if format == "ragas" or (format is None and is_ragas_file(path)):
        run = read_ragas_samples(path).run
        if run is None:
            raise FormatError("no retrieved_context_ids or retrieved_contexts: these RAGAS "
                              "samples carry no run", path=path_name(path))
        return run
    kind = _format(path, format, "run")
    if kind == "trec":
        return read_trec_run(path, extra_fields=extra_fields, duplicates=duplicates)
    return read_results(path, format=kind, duplicates=duplicates)


def read_qrels(path, *, format: str | None = None) -> pd.DataFrame:
    """Read judgments (qrels, a golden set) from a TREC, CSV, TSV, JSONL or Parquet file.

    Parameters
    ----------
    path : str or os.PathLike
        The file, compressed or not.
    format : {"trec", "csv", "tsv", "jsonl", "ndjson", "parquet"}, optional
        As in :func:`read_run`; a TREC qrels file has 4 fields per line.

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``doc_id`` and ``relevance``: :func:`read_trec_qrels` for TREC
        files, :func:`read_golden` for the others.

    Examples
    --------
    >>> from pathlib import Path
    >>> path = Path("golden.jsonl")
    >>> _ = path.write_text('{"query_id": "q1", "relevant_ids": ["d1", "d3"]}\\n')
    >>> read_qrels(path)
      query_id doc_id  relevance
    0       q1     d1          1
    1       q1     d3          1
    """
    path = read_once(path)  # a pipe: read once, to tell its format and to read it
    kind = _format(path, format, "qrels")
    if kind == "trec":
        return read_trec_qrels(path)
    return read_golden(path, format=kind)


def _format(path, format: str | None, role: str) -> str:
    if format is None:
        if not isinstance(path, ReadOnce) and not Path(path).is_file():
            Path(path).read_bytes()  # the OSError that names the file
        return sniff_format(path, role)
    return {"ndjson": "jsonl"}.get(check_choice(format, FORMATS, "format"), format)
