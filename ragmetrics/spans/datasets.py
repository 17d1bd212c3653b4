"""The span-labelled demo data sets, loaded from ``data/`` without any network.

Two data sets share one layout (each folder's README says where the data come from):

- ``"support_demo"``: the Acme Cloud help centre (invented, ``data/support_demo/``):
  27 help-centre section pages, evidence spans for its 72 questions;
- ``"squad2_dev"``: two Wikipedia articles of the SQuAD 2.0 development set
  (``data/squad2_dev/``, CC BY-SA 4.0), with its crowd-sourced answer spans and its
  unanswerable questions.

Each folder holds ``documents.jsonl`` (``doc_id, text``), ``questions.jsonl``
(``query_id, question``), ``evidence/<name>.csv`` (one file per evidence set),
``chunkings/<name>.csv`` (``chunk_id, doc_id, start, end``, one file per chunking) and
``runs/bm25_<chunking>.tsv`` (a TREC run of BM25 over that chunking).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..datafiles import data_path
from ..errors import InputValueError
from ..io import read_trec_run

__all__ = ["SpanDataset", "load_span_dataset", "span_dataset_names"]

_NAMES = ("support_demo", "squad2_dev")


@dataclass(frozen=True)
class SpanDataset:
    """A span-labelled data set: documents, questions, evidence, chunkings and runs.

    Attributes
    ----------
    name : str
    documents : pandas.DataFrame
        ``doc_id, text`` (plus ``title``).
    questions : pandas.DataFrame
        ``query_id, question`` (plus, for SQuAD, ``is_impossible``).
    evidence : dict of str to DataFrame
        Evidence sets by name: ``query_id, doc_id, start, end, relevance``; a query
        without evidence has a row with no ``doc_id``/offsets.
    chunkings : dict of str to DataFrame
        Chunkings by name: ``chunk_id, doc_id, start, end``.
    runs : dict of str to DataFrame
        The BM25 run over each chunking (``query_id, doc_id, rank, score``), by chunking.
    path : pathlib.Path
        The folder the files came from.
    """

    name: str
    documents: pd.DataFrame = field(repr=False)
    questions: pd.DataFrame = field(repr=False)
    evidence: dict = field(repr=False)
    chunkings: dict = field(repr=False)
    runs: dict = field(repr=False)
    path: Path = field(repr=False)

    def __repr__(self) -> str:
        return (f"SpanDataset({self.name!r}: {len(self.documents)} documents, "
                f"{len(self.questions)} questions, evidence {sorted(self.evidence)}, "
                f"chunkings {sorted(self.chunkings)})")


def span_dataset_names() -> tuple[str, ...]:
    """The names :func:`load_span_dataset` knows."""
    return _NAMES


def _folder(name: str) -> Path:
    return data_path(name)  # inside a wheel, or data/ of a checkout


def _jsonl(path: Path) -> pd.DataFrame:
    with path.open(encoding="utf-8") as lines:
        return pd.DataFrame.from_records([json.loads(line) for line in lines if line.strip()])


def load_span_dataset(name: str) -> SpanDataset:
    """Load a span-labelled demo data set by name (see :func:`span_dataset_names`).

    Examples
    --------
    >>> squad = load_span_dataset("squad2_dev")
    >>> sorted(squad.chunkings), sorted(squad.evidence)
    (['paragraph', 'window128', 'window256', 'window512'], ['answers', 'sentences'])
    """
    if name not in _NAMES:
        raise InputValueError(f"unknown span data set {name!r}; known: {', '.join(_NAMES)}")
    folder = _folder(name)
    if not (folder / "documents.jsonl").is_file():
        raise InputValueError(f"span data set {name!r} not found in {folder}")
    documents = _jsonl(folder / "documents.jsonl")
    questions = _jsonl(folder / "questions.jsonl")
    evidence = {p.stem: pd.read_csv(p, dtype={"query_id": str, "doc_id": str},
                                    keep_default_na=False, na_values=[""]).astype(
                                        {"start": "Int64", "end": "Int64"})
                for p in sorted((folder / "evidence").glob("*.csv"))}
    chunkings = {p.stem: pd.read_csv(p, dtype={"chunk_id": str, "doc_id": str})
                 for p in sorted((folder / "chunkings").glob("*.csv"))}
    runs = {p.stem.removeprefix("bm25_"): read_trec_run(p)
            for p in sorted((folder / "runs").glob("bm25_*.tsv"))}
    return SpanDataset(name, documents, questions, evidence, chunkings, runs, folder)
