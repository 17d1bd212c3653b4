"""Retrieval data sets in the layouts teams bring them: BEIR, MTEB, LlamaIndex.

:func:`read_dataset` reads a folder or a file into a :class:`~ragmetrics.io.Dataset`:
questions, judgments (qrels, the shape :func:`~ragmetrics.io.read_qrels` returns) and,
when the layout has them, the documents and a shipped run. The layout is told from
what the path holds, or given (``format=``):

``"beir"``
    A BEIR folder, as BEIR's ``GenericDataLoader`` reads it: ``corpus.jsonl`` (one
    document per line: ``_id``, ``title``, ``text``, maybe ``metadata``),
    ``queries.jsonl`` (``_id``, ``text``, maybe ``metadata``) and ``qrels/<split>.tsv``
    (a header ``query-id  corpus-id  score``, then one judgment per line). Any of them
    may be compressed (``corpus.jsonl.gz``; BEIR itself reads them plain), and
    ``corpus.jsonl`` may be left out (no documents). A qrels TSV alone
    (``read_dataset("scifact/qrels/test.tsv")``) is a BEIR data set of judgments only.
``"mteb"``
    An MTEB (v2) retrieval data set saved locally, as its Hugging Face repository holds
    it (``huggingface-cli download mteb/scifact --repo-type dataset``): one folder per
    part, ``corpus/``, ``queries/`` (or ``query/``), ``qrels/`` (or ``default/``) and
    optionally ``top_ranked/``, each holding ``<split>-00000-of-00001.parquet`` (or
    ``<split>.jsonl``, ``<split>.parquet``, in shards or not). The corpus and queries
    have ``id`` (or ``_id``), ``text`` and, for the corpus, ``title``; qrels
    ``query-id``, ``corpus-id`` and ``score``; ``top_ranked`` ``query-id`` and
    ``corpus-ids`` (a list, best first), which becomes :attr:`Dataset.run
    <ragmetrics.io.Dataset.run>` (rank 1, 2, ... in list order). A part with one split
    only (a corpus kept as ``corpus/corpus-00000-of-00001.parquet``) is read whatever
    the split asked, as MTEB does; the qrels must have the split asked. Older
    repositories keep every part in one folder, as splits of one config
    (``data/corpus-00000-of-00001.parquet``, ``data/queries-...``, ``data/test-...``):
    read the same way. Nothing needs the ``datasets`` package: Parquet is read by
    pyarrow.
``"llamaindex"``
    A JSON file of LlamaIndex's ``EmbeddingQAFinetuneDataset`` (``save_json``):
    ``{"queries": {id: text}, "corpus": {id: text}, "relevant_docs": {id: [ids]},
    "mode": "text"}``; each listed doc is relevant with grade 1.

Ids are text (an integer ``_id`` 7 becomes ``"7"``; ``"007"`` stays ``"007"``), as in
every reader of :mod:`ragmetrics.io`, and every cell is checked by
:mod:`ragmetrics.io.checks`: a malformed record is a :class:`~ragmetrics.FormatError`
naming the file and the line. JSON Lines and Parquet files are parsed by Arrow
(:mod:`ragmetrics.io.records`), so that a corpus of a million documents reads faster
than ``pandas.read_json(path, lines=True)`` does (``benchmarks/dataset_reading.py``).

**Questions and judgments.** As BEIR and MTEB do, only the questions that have
judgments in the split are kept; the others are counted (``Dataset.coverage``). BEIR
stops with a ``KeyError`` on a judged query its ``queries.jsonl`` lacks; here its
judgments are kept (they are what evaluation needs), the questions frame leaves it
out, and a :class:`~ragmetrics.errors.DatasetCoverageWarning` says how many, as it does
for judgments naming a doc that the corpus lacks. A doc judged twice for one query is
an error naming both lines (BEIR keeps the last grade silently).

Another module adds a layout by adding its reader to :data:`LAYOUT_READERS` (and, if
its files can be told from others, a line to :func:`dataset_layout_of`).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import DatasetCoverageWarning, FormatError, InputValueError
from .arrow import InDoubt, arrow_array, frame
from .checks import (
    MISSING,
    Bad,
    check_ids,
    check_texts,
    check_together,
    earliest,
    flatten_id_lists,
    id_problem,
    text_problem,
)
from .dataset_model import Dataset
from .formats import read_qrels
from .ragas_samples import is_ragas_file, read_ragas_samples
from .records import read_records
from .source import COMPRESSION_SUFFIXES, open_source, path_name, without_compression_suffix
from .tables import Table

__all__ = ["DATASET_FORMATS", "LAYOUT_READERS", "MTEB_PARTS", "dataset_layout_of",
           "read_beir", "read_dataset", "read_llamaindex", "read_mteb", "read_texts"]

_TABLE_SUFFIXES = (".jsonl", ".ndjson", ".parquet", ".pq")
# <split>-00000-of-00001.parquet, <split>.jsonl, ... (a shard number or not)
_SPLIT_FILE = re.compile(r"^(?P<split>.+?)(?:-\d+-of-\d+)?(?P<suffix>\.jsonl|\.ndjson|\.parquet|"
                         r"\.pq)$", re.IGNORECASE)
_EXAMPLES = 3


# -- what every layout shares ----------------------------------------------------------


def _compressed_or_not(folder: Path, name: str) -> Path | None:
    """``folder/name``, or the one compressed copy of it (``name.gz``, ...), or None;
    two of them are refused (which one is the data set's?)."""
    found = [folder / (name + suffix) for suffix in ("", *COMPRESSION_SUFFIXES)
             if (folder / (name + suffix)).is_file()]
    if len(found) > 1:
        raise FormatError(f"holds {' and '.join(p.name for p in found)}: keep one",
                          path=str(folder))
    return found[0] if found else None


def _parse(records, parse: Callable[[Table], object]):
    """``parse`` of the fast parse's table; of the definition's when the fast parse
    cannot say where a problem is (it raises InDoubt), so that the error names the line."""
    try:
        return parse(records.table)
    except InDoubt:
        return parse(records.exact())


def _checked(table: Table, *results):
    bad = earliest(*(r for r in results if isinstance(r, Bad)))
    if bad is not None:
        raise table.fail(bad)
    return results


def _refuse_repeated_ids(table: Table, ids: pd.Series, what: str) -> None:
    """An id on two records is an error naming both lines."""
    array = arrow_array(ids)
    if array is not None and pc.count_distinct(array).as_py() == len(array):
        return
    repeated = ids.duplicated().to_numpy()
    if not repeated.any():
        return
    row = int(np.argmax(repeated))
    first = int(np.flatnonzero((ids == ids.iloc[row]).to_numpy())[0])
    raise table.fail(Bad(row, f"{what} {ids.iloc[row]!r} is already on {table.unit} "
                              f"{table.line_of(first)}; each {what} names one record"))


def _other_columns(table: Table, skip: set[str]) -> dict[str, pd.Series]:
    """The columns besides ``skip``, as pandas holds them (Arrow's structs and lists as
    Python dicts and lists; a key a line left out as None)."""
    out = {}
    for name in table.columns:
        if name in skip:
            continue
        values = table.values[name]
        if isinstance(values, (pa.Array, pa.ChunkedArray)):
            out[name] = values.to_pandas()
        else:
            out[name] = pd.Series([None if v is MISSING else v for v in values],
                                  dtype=object)
    return out


def _id_column(table: Table, what: str, names: tuple[str, ...]) -> str:
    present = [name for name in names if name in table.columns]
    if len(present) > 1:
        raise table.error(f"{what} has both {present[0]!r} and {present[1]!r} columns for "
                          "the id; keep one")
    if not present:
        wanted = " or ".join(map(repr, names))
        raise table.error(f"{what} has no id column {wanted} ({table.found()})")
    return present[0]


def read_texts(path, *, what: str, ids: tuple[str, ...], id_name: str, title: bool = False,
               others: bool = False) -> pd.DataFrame:
    """The records of a JSON Lines or Parquet file of texts (a corpus, questions) as
    ``<id_name>, text`` (``title`` too if asked and present; the other columns if
    ``others``): ids checked and unique, texts strings.

    Parameters
    ----------
    path : str or os.PathLike
        The file, compressed or not; its name tells its format.
    what : str
        What the records are, for messages (``"the corpus"``).
    ids : tuple of str
        The names the id column may have (``("_id",)``, ``("id", "_id")``).
    id_name : str
        The id column's name in the frame (``"doc_id"``, ``"query_id"``).
    """
    records = read_records(path)
    keep_title = title

    def parse(table: Table) -> pd.DataFrame:
        id_column = _id_column(table, what, ids)
        table.require("text", what)
        checks = [lambda: check_ids(table.column(id_column)),
                  lambda: check_texts(table.column("text"))]
        with_title = keep_title and "title" in table.columns
        if with_title:
            checks.append(lambda: check_texts(table.column("title"), missing_ok=True))
        got = _checked(table, *check_together(len(table), *checks))
        _refuse_repeated_ids(table, got[0], "id")
        columns = {id_name: got[0], "text": got[1]}
        if with_title:
            columns["title"] = got[2]
        if others:
            columns.update(_other_columns(table, {id_column, "text"}))
        return frame(columns)

    return _parse(records, parse)


def _among(ids: pd.Series, known: pd.Series) -> np.ndarray:
    """Whether each id is one of ``known``, as a boolean array: Arrow's hash set when both
    are stored in Arrow (pandas' ``isin`` on Arrow strings makes a Python list of
    ``known`` first: 1.6 s for a corpus of 300,000 ids)."""
    values, among = arrow_array(ids), arrow_array(known)
    if values is None or among is None:
        return ids.isin(known).to_numpy()
    if isinstance(among, pa.ChunkedArray):
        among = among.combine_chunks()
    if among.type != values.type:
        among = among.cast(values.type)
    found = pc.is_in(values, value_set=among)
    return found.to_numpy(zero_copy_only=False).astype(bool, copy=False)


def _judged_coverage(queries: pd.DataFrame, qrels: pd.DataFrame,
                     documents: pd.DataFrame | None, where: str, questions: str,
                     corpus: str) -> tuple[pd.DataFrame, dict]:
    """The questions that have judgments, and the counts of what did not meet (with a
    DatasetCoverageWarning for judgments the questions or the corpus lack)."""
    judged = pd.Series(pd.unique(qrels["query_id"]), dtype=qrels["query_id"].dtype)
    has_judgments = _among(queries["query_id"], judged)
    without_text = judged[~_among(judged, queries["query_id"])]
    coverage = {"queries_without_judgments": int((~has_judgments).sum()),
                "judged_queries_without_text": len(without_text),
                "judged_docs_not_in_corpus": None}
    problems = []
    if len(without_text):
        shown = ", ".join(map(repr, without_text.iloc[:_EXAMPLES]))
        problems.append(f"{len(without_text)} judged quer{'y' if len(without_text) == 1 else 'ies'}"
                        f" ha{'s' if len(without_text) == 1 else 've'} no question in "
                        f"{questions} (e.g. {shown}): the judgments are kept, the questions "
                        "frame leaves them out")
    if documents is not None:
        unknown = ~_among(qrels["doc_id"], documents["doc_id"])
        coverage["judged_docs_not_in_corpus"] = int(unknown.sum())
        if unknown.any():
            shown = ", ".join(map(repr, pd.unique(qrels["doc_id"][unknown])[:_EXAMPLES]))
            problems.append(f"{int(unknown.sum())} judgment row(s) name a doc that {corpus} "
                            f"lacks (e.g. {shown})")
    if problems:
        warnings.warn(f"{where}: " + "; ".join(problems), DatasetCoverageWarning,
                      stacklevel=4)
    kept = queries[has_judgments].reset_index(drop=True)
    return kept, coverage


def _queries_of_qrels(qrels: pd.DataFrame) -> pd.DataFrame:
    """The judged queries, without texts (a layout of judgments alone)."""
    ids = pd.Series(pd.unique(qrels["query_id"]), dtype=qrels["query_id"].dtype)
    return frame({"query_id": ids, "text": pd.Series([None] * len(ids), dtype=str)})


# -- BEIR ------------------------------------------------------------------------------


def _split_of_tsv(path: Path) -> str | None:
    name = without_compression_suffix(path)
    return name.stem if name.suffix.lower() == ".tsv" else None


def _beir_splits(folder: Path) -> dict[str, Path]:
    qrels = folder / "qrels"
    if not qrels.is_dir():
        return {}
    found = {}
    for path in sorted(qrels.iterdir()):
        split = _split_of_tsv(path)
        if split is not None and path.is_file():
            if split in found:
                raise FormatError(f"holds {found[split].name} and {path.name}: keep one",
                                  path=str(qrels))
            found[split] = path
    return found


def read_beir(path, *, split: str = "test", documents: bool = True) -> Dataset:
    """Read a BEIR folder (``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv``),
    or a BEIR qrels TSV alone.

    Parameters
    ----------
    path : str or os.PathLike
        The folder, or a ``qrels/<split>.tsv`` file (judgments only: the questions frame
        holds the judged query ids, without texts).
    split : str, default "test"
        The qrels file read: ``qrels/<split>.tsv``.
    documents : bool, default True
        Read ``corpus.jsonl`` (False: ``Dataset.documents`` is None, and the corpus is not
        read at all).

    Returns
    -------
    Dataset
        ``format="beir"``.

    Raises
    ------
    FormatError
        A split with no qrels file (the message names the splits there are), a missing
        ``queries.jsonl``, or any malformed record (its file and line).

    Examples
    --------
    >>> import pathlib
    >>> folder = pathlib.Path("tiny-beir")
    >>> (folder / "qrels").mkdir(parents=True)
    >>> _ = (folder / "corpus.jsonl").write_text(
    ...     '{"_id": "007", "title": "Bond", "text": "Licensed to kill."}\\n'
    ...     '{"_id": 8, "title": "", "text": "Not judged."}\\n')
    >>> _ = (folder / "queries.jsonl").write_text(
    ...     '{"_id": "q1", "text": "Who is 007?", "metadata": {"lang": "en"}}\\n')
    >>> _ = (folder / "qrels" / "test.tsv").write_text("query-id\\tcorpus-id\\tscore\\nq1\\t007\\t2\\n")
    >>> data = read_beir(folder)
    >>> data
    Dataset('beir' from 'tiny-beir' (split 'test'): 1 queries, 1 judgments, 2 documents)
    >>> data.qrels
      query_id doc_id  relevance
    0       q1    007          2
    >>> data.documents["doc_id"].tolist()
    ['007', '8']
    >>> data.queries
      query_id         text        metadata
    0       q1  Who is 007?  {'lang': 'en'}
    """
    folder = Path(path)
    shown = path_name(path)
    if folder.is_file():
        qrels = read_qrels(folder, format="tsv")
        return Dataset(_queries_of_qrels(qrels), qrels, format="beir", path=shown,
                       split=_split_of_tsv(folder))
    if not folder.is_dir():
        raise FormatError("no such folder or file", path=shown)
    splits = _beir_splits(folder)
    if split not in splits:
        there = ", ".join(map(repr, splits)) or "none"
        raise FormatError(f"no qrels for split {split!r}: qrels/{split}.tsv is missing "
                          f"(splits found in qrels/: {there})", path=shown)
    queries_path = _compressed_or_not(folder, "queries.jsonl")
    if queries_path is None:
        raise FormatError("a BEIR folder has queries.jsonl; this one has none", path=shown)
    qrels = read_qrels(splits[split], format="tsv")
    questions = read_texts(queries_path, what="the queries", ids=("_id",),
                           id_name="query_id", others=True)
    corpus_path = _compressed_or_not(folder, "corpus.jsonl") if documents else None
    docs = None if corpus_path is None else read_texts(
        corpus_path, what="the corpus", ids=("_id",), id_name="doc_id", title=True)
    queries, coverage = _judged_coverage(
        questions, qrels, docs, shown, queries_path.name,
        "the corpus" if corpus_path is None else corpus_path.name)
    return Dataset(queries, qrels, docs, format="beir", path=shown, split=split,
                   coverage=coverage)


# -- MTEB ------------------------------------------------------------------------------

#: The folders of an MTEB data set's parts (the Hugging Face configs), by part.
MTEB_PARTS = {"corpus": ("corpus",), "queries": ("queries", "query"),
              "qrels": ("qrels", "default"), "top_ranked": ("top_ranked",)}


def _split_files(folder: Path) -> dict[str, list[Path]]:
    """The table files of a folder by split (shards in order)."""
    found: dict[str, list[Path]] = {}
    for path in sorted(folder.iterdir()):
        match = _SPLIT_FILE.match(without_compression_suffix(path).name)
        if match is not None and path.is_file():
            found.setdefault(match["split"], []).append(path)
    return found


def _mteb_parts(folder: Path) -> dict[str, dict[str, list[Path]]] | None:
    """{part: {split: files}} of an MTEB folder: one folder per part, or every part as a
    split of one folder (``data/`` or the folder itself); None if neither."""
    parts = {}
    for part, names in MTEB_PARTS.items():
        for name in names:
            if (folder / name).is_dir():
                parts[part] = _split_files(folder / name)
                break
    if "qrels" in parts and ("corpus" in parts or "queries" in parts):
        return parts
    for one in (folder / "data", folder):
        if one.is_dir():
            splits = _split_files(one)
            if "queries" in splits or "corpus" in splits:
                parts = {part: {part: splits.pop(part)} for part in ("corpus", "queries")
                         if part in splits}
                parts["qrels"] = splits
                return parts
    return None


def _subsets(folder: Path) -> list[str]:
    """MTEB subsets (``en-corpus/``, ``en-qrels/``...) in a folder."""
    return sorted({p.name[: -len("-qrels")] for p in folder.iterdir()
                   if p.is_dir() and p.name.endswith("-qrels")})


def _one_split(part: str, splits: dict[str, list[Path]], split: str, where: str,
               *, exact: bool) -> list[Path]:
    if split in splits:
        return splits[split]
    if not exact and len(splits) == 1:
        return next(iter(splits.values()))
    there = ", ".join(map(repr, splits)) or "none"
    raise FormatError(f"no {part} for split {split!r} (splits found: {there})", path=where)


def read_mteb(path, *, split: str = "test", documents: bool = True) -> Dataset:
    """Read an MTEB retrieval data set saved locally (Parquet or JSON Lines).

    Parameters
    ----------
    path : str or os.PathLike
        The folder: ``corpus/``, ``queries/``, ``qrels/`` (or ``default/``) and maybe
        ``top_ranked/``, each with ``<split>-*.parquet`` or ``<split>*.jsonl`` files; or
        one folder (``data/``) whose splits are ``corpus``, ``queries`` and the qrels'.
    split : str, default "test"
        The split of the qrels (and of the other parts, when they have more than one).
    documents : bool, default True
        Read the corpus (False: ``Dataset.documents`` is None).

    Returns
    -------
    Dataset
        ``format="mteb"``; ``run`` is ``top_ranked`` (``query_id, doc_id, rank``) when
        the folder has it.

    Examples
    --------
    >>> import pathlib
    >>> import pandas as pd
    >>> folder = pathlib.Path("tiny-mteb")
    >>> for part in ("corpus", "queries", "qrels", "top_ranked"):
    ...     (folder / part).mkdir(parents=True)
    >>> pd.DataFrame({"id": ["d1", "d2"], "title": ["", ""], "text": ["one", "two"]}).to_parquet(
    ...     folder / "corpus" / "test-00000-of-00001.parquet")
    >>> pd.DataFrame({"id": ["q1"], "text": ["which one?"]}).to_parquet(
    ...     folder / "queries" / "test-00000-of-00001.parquet")
    >>> pd.DataFrame({"query-id": ["q1"], "corpus-id": ["d2"], "score": [1]}).to_parquet(
    ...     folder / "qrels" / "test-00000-of-00001.parquet")
    >>> pd.DataFrame({"query-id": ["q1"], "corpus-ids": [["d2", "d1"]]}).to_parquet(
    ...     folder / "top_ranked" / "test-00000-of-00001.parquet")
    >>> data = read_mteb(folder)
    >>> data.run
      query_id doc_id  rank
    0       q1     d2     1
    1       q1     d1     2
    """
    folder = Path(path)
    shown = path_name(path)
    if not folder.is_dir():
        raise FormatError("an MTEB data set is a folder (corpus/, queries/, qrels/)",
                          path=shown)
    parts = _mteb_parts(folder)
    if parts is None:
        subsets = _subsets(folder)
        if subsets:
            raise FormatError(
                f"holds the MTEB subsets {', '.join(map(repr, subsets))} (folders "
                f"{subsets[0]}-corpus/, {subsets[0]}-qrels/, ...): give the folder of one, "
                "with its parts named corpus/, queries/, qrels/", path=shown)
        raise FormatError("not an MTEB data set: no corpus/, queries/ and qrels/ folders",
                          path=shown)
    qrels = _read_qrels_shards(_one_split("qrels", parts["qrels"], split, shown, exact=True),
                               shown)
    if "queries" in parts:
        files = _one_split("queries", parts["queries"], split, shown, exact=False)
        questions = _concat_texts(files, what="the queries", id_name="query_id", others=True)
        questions_name = "queries/"
    else:
        questions, questions_name = _queries_of_qrels(qrels), None
    docs = None
    if documents and "corpus" in parts:
        files = _one_split("corpus", parts["corpus"], split, shown, exact=False)
        docs = _concat_texts(files, what="the corpus", id_name="doc_id", title=True)
    run = None
    if parts.get("top_ranked"):
        files = _one_split("top_ranked", parts["top_ranked"], split, shown, exact=False)
        run = _concat([_read_top_ranked(f) for f in files])
    if questions_name is None:
        queries, coverage = questions, None
    else:
        queries, coverage = _judged_coverage(questions, qrels, docs, shown, questions_name,
                                             "the corpus")
    return Dataset(queries, qrels, docs, run, format="mteb", path=shown, split=split,
                   coverage=coverage)


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def _concat_texts(files: list[Path], **options) -> pd.DataFrame:
    out = _concat([read_texts(f, ids=("id", "_id"), **options) for f in files])
    if len(files) > 1:
        repeated = out.iloc[:, 0].duplicated().to_numpy()
        if repeated.any():
            value = out.iloc[int(np.argmax(repeated)), 0]
            raise FormatError(f"id {value!r} is in two of its files; each id names one "
                              "record", path=str(files[0].parent))
    return out


def _read_qrels_shards(files: list[Path], where: str) -> pd.DataFrame:
    qrels = _concat([read_qrels(f, format=_format_of(f)) for f in files])
    if len(files) > 1 and qrels.duplicated(["query_id", "doc_id"]).any():
        row = int(np.argmax(qrels.duplicated(["query_id", "doc_id"]).to_numpy()))
        raise FormatError(f"query {qrels['query_id'].iloc[row]!r} judges doc "
                          f"{qrels['doc_id'].iloc[row]!r} in two of its qrels files; each "
                          "(query, doc) pair takes one grade", path=where)
    return qrels


def _format_of(path: Path) -> str:
    suffix = without_compression_suffix(path).suffix.lower()
    return {".ndjson": "jsonl", ".pq": "parquet"}.get(suffix, suffix[1:])


def _read_top_ranked(path: Path) -> pd.DataFrame:
    """``query-id, corpus-ids`` (a list, best first) -> ``query_id, doc_id, rank``."""
    records = read_records(path)

    def parse(table: Table) -> pd.DataFrame:
        table.require("query-id", "top_ranked")
        table.require("corpus-ids", "top_ranked")
        queries = check_ids(table.column("query-id"))
        lists = flatten_id_lists(table.column("corpus-ids"))
        queries, lists = _checked(table, queries, lists)
        _refuse_repeated_ids(table, queries, "query-id")
        docs, records_of, positions = lists
        query = queries.take(records_of).reset_index(drop=True)
        return frame({"query_id": query, "doc_id": docs, "rank": positions})

    return _parse(records, parse)


# -- LlamaIndex ------------------------------------------------------------------------

_LLAMAINDEX_KEYS = ("queries", "corpus", "relevant_docs")


def read_llamaindex(path, *, split: str | None = None, documents: bool = True) -> Dataset:
    """Read LlamaIndex's ``EmbeddingQAFinetuneDataset`` JSON file.

    Parameters
    ----------
    path : str or os.PathLike
        The JSON file (``dataset.save_json(path)``), compressed or not: ``queries`` (id
        -> question), ``corpus`` (id -> text), ``relevant_docs`` (query id -> list of doc
        ids) and ``mode`` (``"text"``; an ``"image"`` corpus holds image paths, read as
        its texts).
    split : None
        The layout has no splits; ignored.
    documents : bool, default True
        Keep the corpus (False: ``Dataset.documents`` is None).

    Returns
    -------
    Dataset
        ``format="llamaindex"``; every listed doc has relevance 1.

    Raises
    ------
    FormatError
        For a file that is not JSON (the line of the error), a missing key, a question
        or text that is not a string, an id list that is not a list of ids, or a doc
        listed twice for one query; the message names the line of the entry.

    Examples
    --------
    >>> import json, pathlib
    >>> path = pathlib.Path("val_dataset.json")
    >>> _ = path.write_text(json.dumps({
    ...     "queries": {"q1": "What did Uber earn?", "q2": "Who drives?"},
    ...     "corpus": {"n1": "Revenue was ...", "n2": "Drivers are ..."},
    ...     "relevant_docs": {"q1": ["n1"], "q2": ["n2", "n1"]}, "mode": "text"}))
    >>> read_llamaindex(path).qrels
      query_id doc_id  relevance
    0       q1     n1          1
    1       q2     n2          1
    2       q2     n1          1
    """
    shown = path_name(path)
    source = open_source(path)
    text = source.normalized
    try:
        data = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except json.JSONDecodeError as error:
        line = min(error.lineno, len(source.lines()))  # the end of a file cut short
        raise source.error(f"not valid JSON ({error.msg}, line {error.lineno} column "
                           f"{error.colno})", line) from None
    except ValueError as error:  # a key twice
        raise FormatError(f"not an EmbeddingQAFinetuneDataset: {error}", path=shown) from None
    if not isinstance(data, dict) or not all(k in data for k in _LLAMAINDEX_KEYS):
        found = ", ".join(map(repr, data)) if isinstance(data, dict) else "not an object"
        raise FormatError("not an EmbeddingQAFinetuneDataset: expected a JSON object with "
                          f"keys 'queries', 'corpus' and 'relevant_docs' (found: {found})",
                          path=shown)
    where = _KeyLines(source, text)
    for key in _LLAMAINDEX_KEYS:
        if not isinstance(data[key], dict):
            raise where.error(key, None, f"{key!r} must be an object {{id: ...}}, got "
                              f"{type(data[key]).__name__}")
    questions = _id_texts(data["queries"], "queries", where)
    corpus = _id_texts(data["corpus"], "corpus", where) if documents else None
    query_ids, doc_ids = [], []
    for query, listed in data["relevant_docs"].items():
        problem = id_problem(query, "query id", typed=False)
        if problem is None and not isinstance(listed, list):
            problem = f"relevant_docs[{query!r}] must be a list of doc ids, got {listed!r}"
        seen = set()
        for i, doc in enumerate(listed if problem is None else ()):
            problem = id_problem(doc, f"relevant_docs[{query!r}][{i}]")
            doc = doc if problem is not None or isinstance(doc, str) else str(int(doc))
            if problem is None and doc in seen:
                problem = f"relevant_docs[{query!r}] lists doc {doc!r} twice"
            if problem is not None:
                break
            seen.add(doc)
            query_ids.append(query)
            doc_ids.append(doc)
        if problem is not None:
            raise where.error("relevant_docs", query, problem)
    qrels = frame({"query_id": pd.Series(query_ids, dtype=str),
                   "doc_id": pd.Series(doc_ids, dtype=str),
                   "relevance": np.ones(len(doc_ids), dtype=np.int64)})
    queries, coverage = _judged_coverage(questions, qrels, corpus, shown, "'queries'",
                                         "'corpus'")
    return Dataset(queries, qrels, corpus, format="llamaindex", path=shown,
                   coverage=coverage)


def _no_repeated_keys(pairs: list) -> dict:
    record = dict(pairs)
    if len(record) != len(pairs):
        keys = [k for k, _ in pairs]
        repeated = next(k for k in keys if keys.count(k) > 1)
        raise ValueError(f"key {repeated!r} appears twice in one object")
    return record


class _KeyLines:
    """The line of an entry of a JSON file, found in its text when an error needs it:
    the first line, after the section's key, holding the entry's key as JSON writes it."""

    def __init__(self, source, text: str) -> None:
        self.source, self.text = source, text

    def line(self, section: str, key: str | None) -> int | None:
        start = self.text.find(json.dumps(section))
        if start < 0:
            return None
        if key is not None:
            for written in dict.fromkeys((json.dumps(key), json.dumps(key, ensure_ascii=False))):
                at = self.text.find(written + ":", start)
                at = self.text.find(written, start) if at < 0 else at
                if at >= 0:
                    start = at
                    break
        return self.text.count("\n", 0, start) + 1

    def error(self, section: str, key: str | None, reason: str) -> FormatError:
        line = self.line(section, key)
        text = None if line is None else self.source.line_text(line)
        return FormatError(reason, path=self.source.name, line=line, text=text)


def _id_texts(mapping: dict, section: str, where: _KeyLines) -> pd.DataFrame:
    """{id: text} -> ``<query|doc>_id, text``."""
    ids, texts = [], []
    for key, value in mapping.items():
        problem = id_problem(key, f"{section} id", typed=False) or text_problem(
            value, f"{section}[{key!r}]")
        if problem is not None:
            raise where.error(section, key, problem)
        ids.append(key)
        texts.append(value)
    id_name = "query_id" if section == "queries" else "doc_id"
    return frame({id_name: pd.Series(ids, dtype=str), "text": pd.Series(texts, dtype=str)})


# -- the dispatch ----------------------------------------------------------------------


def read_ragas(path, *, split: str = "test", documents: bool = True) -> Dataset:
    """A RAGAS samples file (JSONL, CSV or JSON) as a :class:`Dataset`:
    :func:`~ragmetrics.io.read_ragas_samples`, with its ``documents=None`` (context texts
    text-keyed, or ids as given). RAGAS samples have no splits and no corpus: ``split``
    and ``documents`` change nothing here."""
    return read_ragas_samples(path)

#: The reader of each layout, by the name ``format=`` (and the command's
#: ``--dataset-format``) gives it. A reader takes ``(path, *, split, documents)`` and
#: returns a :class:`~ragmetrics.io.Dataset`.
LAYOUT_READERS: dict[str, Callable[..., Dataset]] = {
    "beir": read_beir,
    "mteb": read_mteb,
    "llamaindex": read_llamaindex,
    "ragas": read_ragas,
}

#: The layouts known (the names of :data:`LAYOUT_READERS`).
DATASET_FORMATS = tuple(LAYOUT_READERS)

_WHAT_EACH_HOLDS = {
    "beir": "a folder with queries.jsonl, corpus.jsonl and qrels/<split>.tsv, or a qrels "
            "TSV with the header query-id, corpus-id, score",
    "mteb": "a folder with corpus/, queries/ and qrels/ (or default/) of Parquet or JSON "
            "Lines files, or data/ with corpus-*, queries-* and <split>-* files",
    "llamaindex": "a JSON file with keys queries, corpus and relevant_docs "
                  "(EmbeddingQAFinetuneDataset.save_json)",
    "ragas": "a JSONL, JSON or CSV file of RAGAS samples (user_input, reference_context_ids "
             "or reference_contexts, ...)",
}

_SNIFF_CHARS = 1 << 16


def dataset_layout_of(path) -> str | None:
    """The layout of a folder or file (a name of :data:`LAYOUT_READERS`), or None when
    it is none of them (a plain qrels file: :func:`~ragmetrics.io.read_qrels` reads it).

    Told from names and first bytes only: a folder with ``qrels/*.tsv`` is BEIR; one
    with ``corpus/``, ``queries/``, ``qrels/`` (or ``data/corpus-*``...) is MTEB; a
    ``.json`` file whose object starts with ``queries``, ``corpus`` or ``relevant_docs``
    is LlamaIndex's; a ``.tsv`` whose header is ``query-id  corpus-id  score`` is BEIR's
    qrels; a ``.jsonl``, ``.json`` or ``.csv`` file whose first record has a
    ``user_input`` field holds RAGAS samples.

    Examples
    --------
    >>> import pathlib
    >>> _ = pathlib.Path("qa.json").write_text('{"queries": {}, "corpus": {}, "relevant_docs": {}}')
    >>> dataset_layout_of("qa.json")
    'llamaindex'
    """
    folder = Path(path)
    if folder.is_dir():
        if _beir_splits(folder) and (_compressed_or_not(folder, "queries.jsonl") is not None
                                     or _compressed_or_not(folder, "corpus.jsonl") is not None):
            return "beir"
        if _mteb_parts(folder) is not None or _subsets(folder):
            return "mteb"
        return None
    if not folder.is_file():
        return None
    name = without_compression_suffix(folder)
    suffix = name.suffix.lower()
    if suffix == ".json":
        start = _first_chars(folder)
        if re.match(r'\s*\{\s*"(?:queries|corpus|relevant_docs|mode)"\s*:', start):
            return "llamaindex"
    if suffix == ".tsv":
        first = _first_chars(folder).split("\n", 1)[0].rstrip("\r").split("\t")
        if [f.strip() for f in first[:2]] == ["query-id", "corpus-id"]:
            return "beir"
    if is_ragas_file(folder):
        return "ragas"
    return None


def _first_chars(path: Path) -> str:
    """The start of a file's text (decompressed), for telling its layout."""
    try:
        data = open_source(path).data[:_SNIFF_CHARS]
    except FormatError:
        return ""
    return data.decode("utf-8", errors="replace")


def read_dataset(path, *, format: str | None = None, split: str = "test",
                 documents: bool = True) -> Dataset:
    """Read a retrieval data set: questions, judgments and, when the layout has them,
    documents and a shipped run.

    Parameters
    ----------
    path : str or os.PathLike
        A folder (BEIR, MTEB) or a file (LlamaIndex JSON; RAGAS samples as JSONL, CSV
        or JSON, :func:`~ragmetrics.io.read_ragas_samples`; a BEIR qrels TSV alone).
    format : {"beir", "mteb", "llamaindex", "ragas"}, optional
        The layout (:data:`DATASET_FORMATS`); by default told from what ``path`` holds
        (:func:`dataset_layout_of`).
    split : str, default "test"
        The split of the judgments (BEIR: ``qrels/<split>.tsv``; MTEB: the qrels' split).
        LlamaIndex files have no splits.
    documents : bool, default True
        Read the documents too (False: ``Dataset.documents`` is None and the corpus, the
        largest file, is not read: judgments are enough to evaluate a run).

    Returns
    -------
    Dataset
        ``queries`` (``query_id, text`` and the questions' other fields: only the judged
        ones), ``qrels`` (``query_id, doc_id, relevance``, as
        :func:`~ragmetrics.io.read_qrels` returns them), ``documents`` (``doc_id, text``,
        and ``title`` where the layout has one), ``run`` (MTEB's ``top_ranked``),
        ``coverage`` (the counts of questions and judgments that did not meet).

    Raises
    ------
    FormatError
        When the layout cannot be told (the message names what the path holds and the
        layouts known), a split is missing (the splits there are), or a record is
        malformed (its file and line).
    InputValueError
        For an unknown ``format``.

    Warns
    -----
    DatasetCoverageWarning
        When judgments name queries without a question, or docs the corpus lacks.

    References
    ----------
    .. [1] N. Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot Evaluation of
       Information Retrieval Models", NeurIPS Datasets and Benchmarks, 2021
       (``beir/datasets/data_loader.py``: ``GenericDataLoader``).
    .. [2] MTEB, ``mteb/abstasks/retrieval_dataset_loaders.py``: ``RetrievalDatasetLoader``.
    .. [3] LlamaIndex, ``EmbeddingQAFinetuneDataset``
       (``llama_index/core/llama_dataset/legacy/embedding.py``).

    Examples
    --------
    >>> import json, pathlib
    >>> _ = pathlib.Path("qa.json").write_text(json.dumps({
    ...     "queries": {"q1": "Where?"}, "corpus": {"n1": "Here.", "n2": "There."},
    ...     "relevant_docs": {"q1": ["n2"]}, "mode": "text"}))
    >>> data = read_dataset("qa.json")
    >>> data
    Dataset('llamaindex' from 'qa.json': 1 queries, 1 judgments, 2 documents)
    >>> data.qrels
      query_id doc_id  relevance
    0       q1     n2          1
    """
    if format is None:
        format = dataset_layout_of(path)
        if format is None:
            raise FormatError(_unknown_layout(path), path=path_name(path))
    elif format not in LAYOUT_READERS:
        raise InputValueError(f"format must be one of {', '.join(map(repr, LAYOUT_READERS))},"
                              f" got {format!r}")
    return LAYOUT_READERS[format](path, split=split, documents=documents)


def _unknown_layout(path) -> str:
    folder = Path(path)
    if folder.is_dir():
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir())
        found = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12
                                         else "") if names else "nothing (an empty folder)"
    elif folder.is_file():
        found = f"a {without_compression_suffix(folder).suffix or 'nameless'} file"
    else:
        return "no such folder or file"
    known = "; ".join(f"{name}: {what}" for name, what in _WHAT_EACH_HOLDS.items()
                      if name in LAYOUT_READERS)
    return (f"cannot tell the data set's layout: it holds {found}. Layouts known: {known} "
            f"(or pass format=, one of {', '.join(LAYOUT_READERS)})")
