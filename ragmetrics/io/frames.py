"""Golden sets and results from table files (CSV, TSV, JSONL, Parquet), long or wide.

The columns decide the layout, never the values: **long** has one row per doc
(``doc_id``), **wide** one row per query with a list of ids (``relevant_ids`` or
``retrieved_ids``). Every value goes through the checks of :mod:`ragmetrics.io.checks`,
whatever the format.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FormatError
from ..validation import check_choice
from .arrow import InDoubt, arrow_array, frame, memory_pool
from .checks import (
    Bad,
    check_flags,
    check_ids,
    check_integers,
    check_numbers,
    check_together,
    earliest,
    flatten_id_lists,
)
from .hashing import text_hashes
from .source import read_once
from .tables import Table, read_table

__all__ = ["BEIR_QRELS_COLUMNS", "RUN_DUPLICATES", "read_golden", "read_results",
           "refuse_repeated_pairs", "with_beir_names"]


def _form(table: Table, what: str, long_column: str, wide_column: str) -> str:
    """'long' or 'wide': the form is named by the columns, never guessed from the values."""
    table.require("query_id", what)
    has_long, has_wide = long_column in table.columns, wide_column in table.columns
    if has_long and has_wide:
        raise table.error(
            f"{what} has both {long_column!r} (long form) and {wide_column!r} (wide form) "
            "columns; keep one"
        )
    if not (has_long or has_wide):
        raise table.error(
            f"{what} has no column {long_column!r} (long form: one row per doc) or "
            f"{wide_column!r} (wide form: one row per query with a list of ids) "
            f"({table.found()})"
        )
    return "long" if has_long else "wide"


def _refuse_in_wide_form(table: Table, columns: tuple[str, ...], why: str) -> None:
    for column in columns:
        if column in table.columns:
            raise table.error(f"the wide form has no use for column {column!r}: {why}")


def _checked(table: Table, *results):
    """The checked columns, or the FormatError of the earliest bad value among them."""
    bad = earliest(*(r for r in results if isinstance(r, Bad)))
    if bad is not None:
        raise table.fail(bad)
    return results


def _wide_rows(table: Table, list_column: str) -> tuple[pd.Series, pd.Series, np.ndarray,
                                                         np.ndarray]:
    """One list per query -> (query ids, doc ids, position from 1, record of each doc)."""
    queries = check_ids(table.column("query_id"))
    valid = queries
    if isinstance(queries, Bad):  # look for a repeated query before the bad id
        rows = slice(0, queries.row)
        valid = check_ids(table.column("query_id")._replace(values=table.values["query_id"][rows]))
    repeated = valid.duplicated().to_numpy()
    twice = None
    if repeated.any():
        row = int(np.argmax(repeated))
        first = int(np.flatnonzero((valid == valid.iloc[row]).to_numpy())[0])
        twice = Bad(row, f"query {valid.iloc[row]!r} already has a row, on {table.unit} "
                         f"{table.line_of(first)}; the wide form has one row per query")
    lists = flatten_id_lists(table.column(list_column))
    queries, _, lists = _checked(table, queries, twice, lists)
    docs, records, positions = lists
    query = queries.take(records).reset_index(drop=True)
    return query, docs, positions, records


#: What a reader does with a doc listed twice for one query in a run: keep every row (the
#: ``duplicates`` convention of :func:`ragmetrics.evaluate` decides later), or refuse the
#: file, naming both lines.
RUN_DUPLICATES = ("keep", "error")


def refuse_repeated_pairs(frame: pd.DataFrame, table_path: str, lines: np.ndarray | None,
                          unit: str = "line", source=None, *, judged: bool = True) -> None:
    """A (query, doc) pair on two rows is an error naming both lines (as in trec_eval).

    ``judged``: the rows are judgments (a pair takes one grade), else a run's results.
    ``lines`` None (a fast parse's): a repeated pair raises :class:`InDoubt`.
    """
    if not any_repeated_pair(frame["query_id"], frame["doc_id"]):
        return
    if lines is None:
        raise InDoubt
    repeated = frame.duplicated(["query_id", "doc_id"]).to_numpy()
    row = int(np.argmax(repeated))
    query, doc = frame["query_id"].iloc[row], frame["doc_id"].iloc[row]
    same = (frame["query_id"] == query).to_numpy() & (frame["doc_id"] == doc).to_numpy()
    first = int(np.flatnonzero(same)[0])
    line = int(lines[row])
    text = None if source is None else source.line_text(line)
    where = f"twice, on {unit}s {int(lines[first])} and {line}"
    reason = (
        f"query {query!r} judges doc {doc!r} {where}; each (query, doc) pair takes one grade"
        if judged else
        f"query {query!r} lists doc {doc!r} {where}; a ranking lists each doc once (to keep "
        "the highest-ranked copy: duplicates='keep_first' in evaluate, --duplicates "
        "keep_first in the command)"
    )
    raise FormatError(reason, path=table_path, line=line, text=text, unit=unit)


def any_repeated_pair(queries: pd.Series, docs: pd.Series) -> bool:
    """Whether a (query, doc) pair is on two rows; fast for ids held in Arrow."""
    query_array, doc_array = arrow_array(queries), arrow_array(docs)
    if query_array is None or doc_array is None:
        return bool(pd.DataFrame({"q": queries, "d": docs}).duplicated().any())
    # A 64-bit key per row, of the query's hash and the doc's (text_hashes), sorted: a
    # pair on two rows is two equal neighbours. Equal keys can also be two pairs that
    # differ, so only the exact look (dictionary codes) says yes; no two equal keys is a
    # sure no.
    keys = text_hashes(query_array)
    doc_keys = None if keys is None else text_hashes(doc_array)
    if doc_keys is not None:
        keys = keys.view(np.uint64)
        keys *= np.uint64(0x9E3779B97F4A7C15)  # odd: (q, d) and (d, q) differ
        keys ^= doc_keys.view(np.uint64)
        del doc_keys
        keys.sort()
        if not (keys[1:] == keys[:-1]).any():
            return False
        del keys
    return _any_repeated_code_pair(query_array, doc_array)


def _any_repeated_code_pair(query_array, doc_array) -> bool:
    """any_repeated_pair by dictionary codes: exact, and slower (a hash table of the ids)."""
    # Each pair as one int64 (query code, doc code), sorted: a pair twice is two equal
    # neighbours.
    codes = []
    for array in (query_array, doc_array):
        encoded = pc.dictionary_encode(array, memory_pool=memory_pool())
        if isinstance(encoded, pa.ChunkedArray):
            encoded = encoded.combine_chunks()
        codes.append((encoded.indices.to_numpy(), len(encoded.dictionary)))
    (query_codes, _), (doc_codes, n_docs) = codes
    pairs = query_codes.astype(np.int64)  # in place from here: one int64 per row
    pairs *= n_docs
    pairs += doc_codes
    pairs.sort()
    return bool((pairs[1:] == pairs[:-1]).any())


def read_golden(path, *, format: str | None = None) -> pd.DataFrame:
    """Read a golden set (the relevant chunks of each query) from a CSV, TSV, JSONL or
    Parquet file (compressed or not).

    Two layouts are accepted, and the columns decide which, never the values:

    - **long**, one row per relevant doc: columns ``query_id``, ``doc_id`` and optionally
      ``relevance`` (an integer grade; 1 for every row when the column is absent). BEIR's
      and MTEB's names are aliases of these: a file whose columns are ``query-id``,
      ``corpus-id`` and ``score`` (the header of BEIR's ``qrels/test.tsv``) is read as
      ``query_id``, ``doc_id`` and ``relevance`` (messages keep the file's names);
    - **wide**, one row per query: columns ``query_id`` and ``relevant_ids``, a list of
      ids each with grade 1. In JSONL the list is a JSON array (``["c1", "c2"]``), in
      Parquet a list column; in CSV it is a cell holding a JSON array (``"[""c1"",
      ""c2""]"`` once CSV-quoted) or ids separated by ``|`` or by ``;`` (``c1|c2``;
      spaces around a separator are dropped). A JSONL or Parquet string is read as such
      a CSV cell.

    A file with both ``doc_id`` and ``relevant_ids`` is refused, as is a wide file with a
    ``relevance`` column (the wide form has no grades: use the long form for graded
    judgments) or with two rows for one query, and a doc judged twice for one query
    (which grade would count?). An ``answerable`` column (``true``/``false`` or ``1``/``0``
    in CSV and TSV, any case; booleans or 1/0 in JSONL and Parquet) is kept, as bools: it
    marks the questions that have no answer (:func:`ragmetrics.threshold_sweep`); in the
    long form such a question needs a row (a doc judged 0), in the wide form a wide row
    with an empty list gives none, so name it in the questions instead. Other columns,
    such as the question text, are ignored.
    A wide row with an empty list gives no rows, as that query would have no line in
    the long form.

    Parameters
    ----------
    path : str or os.PathLike
        The file, UTF-8, with a header line (CSV, TSV) or one JSON object per line
        (JSONL), or a Parquet file; gzip, bzip2, xz or Zstandard compression is undone
        first (:mod:`ragmetrics.io.source`).
    format : {"csv", "tsv", "jsonl", "ndjson", "parquet"}, optional
        The file format. By default it is read from the extension (before a
        compression suffix): ``.csv``, ``.tsv``, ``.jsonl``, ``.ndjson``, ``.parquet``.

    Returns
    -------
    pandas.DataFrame
        The qrels shape: columns ``query_id`` and ``doc_id`` (str) and ``relevance``
        (int64), in file order (wide lists in list order); and ``answerable`` (bool) when
        the file has that column.

    Raises
    ------
    FormatError
        For a missing column (it lists the columns found), an empty or blank id, an id
        with surrounding whitespace, a grade that is not an integer (in JSONL and
        Parquet: a number, not text), a list that is not a list of string or integer
        ids, a doc judged twice, a CSV row with the wrong number of fields, a JSONL line
        that is not a JSON object, bytes that are not UTF-8, or no data lines. The error
        names the file, the line (in Parquet, the row) and the line's text.
    ValueError
        If the format is neither given nor known from the extension.

    Examples
    --------
    The same golden set, long and wide:

    >>> from pathlib import Path
    >>> long_path, wide_path = Path("long.csv"), Path("wide.jsonl")
    >>> _ = long_path.write_text("query_id,doc_id\\nq1,c1\\nq1,c7\\nq2,007\\n")
    >>> _ = wide_path.write_text(
    ...     '{"query_id": "q1", "relevant_ids": ["c1", "c7"]}\\n'
    ...     '{"query_id": "q2", "relevant_ids": ["007"]}\\n'
    ... )
    >>> long, wide = read_golden(long_path), read_golden(wide_path)
    >>> long
      query_id doc_id  relevance
    0       q1     c1          1
    1       q1     c7          1
    2       q2    007          1
    >>> long.equals(wide)
    True
    """
    path = read_once(path)  # a pipe: read once, for the two parses below
    table = read_table(path, format, numbers=("relevance", "score"))
    try:
        return _golden(table)
    except InDoubt:  # the fast parse met a problem: the definition finds and words it
        return _golden(read_table(path, format, fast=False))


#: BEIR's and MTEB's names of the qrels columns (``query-id  corpus-id  score``, the
#: header of BEIR's ``qrels/<split>.tsv``), read as ``query_id``, ``doc_id`` and
#: ``relevance`` when the file names both ``query-id`` and ``corpus-id``.
BEIR_QRELS_COLUMNS = {"query-id": "query_id", "corpus-id": "doc_id", "score": "relevance"}


def with_beir_names(table: Table) -> Table:
    """``table`` with BEIR's qrels columns (:data:`BEIR_QRELS_COLUMNS`) under ragmetrics'
    names, if it has them; a file naming a column both ways is refused."""
    if not {"query-id", "corpus-id"} <= set(table.columns):
        return table
    for beir, ours in BEIR_QRELS_COLUMNS.items():
        if beir in table.columns and ours in table.columns:
            raise table.error(f"the golden set names column {ours!r} twice: as {ours!r} and "
                              f"as {beir!r} (BEIR's name for it); keep one")
    return table.renamed(BEIR_QRELS_COLUMNS)


def _golden(table: Table) -> pd.DataFrame:
    table = with_beir_names(table)
    form = _form(table, "the golden set", "doc_id", "relevant_ids")
    if form == "wide":
        _refuse_in_wide_form(
            table, ("relevance",), "every listed id has grade 1; use the long form for grades"
        )
        queries, docs, _, records = _wide_rows(table, "relevant_ids")
        grades = np.ones(len(docs), dtype=np.int64)
        flags = None
        if "answerable" in table.columns:
            (flags,) = _checked(table, check_flags(table.column("answerable")))
            flags = flags[records]
    else:
        checks = [lambda: check_ids(table.column("query_id")),
                  lambda: check_ids(table.column("doc_id"))]
        if "relevance" in table.columns:
            checks.append(lambda: check_integers(table.column("relevance")))
        if "answerable" in table.columns:
            checks.append(lambda: check_flags(table.column("answerable")))
        queries, docs, *rest = _checked(table, *check_together(len(table), *checks))
        grades = (rest.pop(0) if "relevance" in table.columns
                  else np.ones(len(docs), dtype=np.int64))
        flags = rest[0] if rest else None
        records = None  # one row per record
    columns = {"query_id": queries, "doc_id": docs, "relevance": grades}
    if flags is not None:
        columns["answerable"] = flags
    golden = frame(columns)
    refuse_repeated_pairs(golden, table.path, _lines_of(table, records), table.unit,
                          table.source)
    return golden


def _lines_of(table: Table, records: np.ndarray | None) -> np.ndarray | None:
    """The line of each row: ``records`` the record of each (None: one row per record)."""
    if table.lines is None or records is None:
        return table.lines
    return table.lines[records]


def read_results(path, *, format: str | None = None, duplicates: str = "keep") -> pd.DataFrame:
    """Read retriever results (a run) from a CSV, TSV, JSONL or Parquet file.

    Two layouts are accepted, and the columns decide which, never the values:

    - **long**, one row per retrieved doc: columns ``query_id``, ``doc_id`` and ``score``
      (higher is better) or ``rank`` (1 is best), or both;
    - **wide**, one row per query: columns ``query_id`` and ``retrieved_ids``, the list of
      ids in rank order, best first. It is written like ``relevant_ids`` in
      :func:`read_golden` (a JSON array or Parquet list, or ids separated by ``|`` or
      ``;`` in CSV).

    A file with both ``doc_id`` and ``retrieved_ids`` is refused, as is a wide file with
    a ``score`` or ``rank`` column (the order of the list is the ranking) or with two rows
    for one query. Other columns are ignored. A wide row with an empty list (nothing
    retrieved) gives no rows; :func:`ragmetrics.evaluate` then reports the query as
    missing from the run. A doc listed twice for one query is kept (what to do with it is
    the ``duplicates`` convention of :func:`ragmetrics.evaluate`), unless
    ``duplicates="error"``.

    Parameters
    ----------
    path : str or os.PathLike
        As in :func:`read_golden`.
    format : {"csv", "tsv", "jsonl", "ndjson", "parquet"}, optional
        As in :func:`read_golden`.
    duplicates : {"keep", "error"}, default "keep"
        A doc listed twice for one query: kept, or a FormatError naming both lines.

    Returns
    -------
    pandas.DataFrame
        The run shape, in file order: ``query_id`` and ``doc_id`` (str), then ``rank``
        (int64) and/or ``score`` (float64), whichever the file has. The wide form gives
        ``rank`` 1, 2, ... in list order.

    Raises
    ------
    FormatError
        As :func:`read_golden`, and for a ``rank`` that is not an integer or a ``score``
        that is not a finite number (NaN and infinity are refused).
    ValueError
        If the format is neither given nor known from the extension.

    Examples
    --------
    >>> from pathlib import Path
    >>> path = Path("results.csv")
    >>> _ = path.write_text("query_id,retrieved_ids,question\\nq1,c7|c1|c3,Who?\\n")
    >>> run = read_results(path)
    >>> run
      query_id doc_id  rank
    0       q1     c7     1
    1       q1     c1     2
    2       q1     c3     3
    """
    check_choice(duplicates, RUN_DUPLICATES, "duplicates")
    path = read_once(path)  # a pipe: read once, for the two parses below
    table = read_table(path, format, numbers=("rank", "score"))
    try:
        return _results(table, duplicates)
    except InDoubt:  # the fast parse met a problem: the definition finds and words it
        return _results(read_table(path, format, fast=False), duplicates)


def _results(table: Table, duplicates: str) -> pd.DataFrame:
    form = _form(table, "the results file", "doc_id", "retrieved_ids")
    if form == "wide":
        _refuse_in_wide_form(
            table, ("score", "rank"), "the order of 'retrieved_ids' is the ranking"
        )
        queries, docs, positions, records = _wide_rows(table, "retrieved_ids")
        run = frame({"query_id": queries, "doc_id": docs, "rank": positions})
        return _refuse_repeats(run, table, records, duplicates)
    has_rank, has_score = "rank" in table.columns, "score" in table.columns
    if not (has_rank or has_score):
        raise table.error(
            f"the results have no column 'score' or 'rank' to order the docs by ({table.found()})"
        )
    checks = [lambda: check_ids(table.column("query_id")),
              lambda: check_ids(table.column("doc_id"))]
    if has_rank:
        checks.append(lambda: check_integers(table.column("rank")))
    if has_score:  # last: the score, the slowest to check, in a thread of its own
        checks.append(lambda: check_numbers(table.column("score")))
    queries, docs, *rest = _checked(table, *check_together(len(table), *checks))
    out = {"query_id": queries, "doc_id": docs}
    if has_rank:
        out["rank"] = rest.pop(0)
    if has_score:
        out["score"] = rest.pop(0)
    return _refuse_repeats(frame(out), table, None, duplicates)


def _refuse_repeats(run: pd.DataFrame, table: Table, records: np.ndarray | None,
                    duplicates: str) -> pd.DataFrame:
    if duplicates == "error":
        refuse_repeated_pairs(run, table.path, _lines_of(table, records), table.unit,
                              table.source, judged=False)
    return run
