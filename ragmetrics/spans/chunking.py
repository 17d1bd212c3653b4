"""Fixed-size chunking: windows of word pieces with an overlap, as offsets.

The simplest chunker, and the one most RAG experiments vary first: cut each document
into windows of ``size`` tokens, each starting ``size - overlap`` tokens after the last,
regardless of sentences and paragraphs. Tokens are :func:`ragmetrics.spans.word_pieces`,
so a window of 256 holds 256 of the units that ``unit="token"`` counts. The result is a
chunks table of the data model (:mod:`ragmetrics.spans.model`), ready for
:func:`ragmetrics.spans.chunk_qrels` and :func:`ragmetrics.spans.span_metrics`.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..errors import InputValueError
from ..validation import check_k
from .model import as_documents
from .tokens import word_pieces

__all__ = ["window_chunks"]

_WORD = re.compile(r"\S+")


def piece_offsets(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every word piece of ``text``, in order."""
    spans = []
    for match in _WORD.finditer(text):
        at = match.start()
        for piece in word_pieces(match.group()):
            at = text.index(piece, at)
            spans.append((at, at + len(piece)))
            at += len(piece)
    return spans


def window_chunks(documents, size: int, *, overlap: int = 0, name: str | None = None
                  ) -> pd.DataFrame:
    """Cut every document into windows of ``size`` word pieces, ``overlap`` shared.

    Parameters
    ----------
    documents : DataFrame, mapping or file
        ``doc_id, text`` (see :mod:`ragmetrics.spans.model`).
    size : int
        Tokens per window.
    overlap : int, default 0
        Tokens a window shares with the next (``0 <= overlap < size``).
    name : str or None
        Chunk ids are ``"{doc_id}-{name}-{i:03d}"``; default ``"w{size}"``.

    Returns
    -------
    pandas.DataFrame
        ``chunk_id, doc_id, start, end``: each window from the start of its first piece
        to the end of its last. The last window of a document ends at its last piece
        and may be shorter; a document without text has no chunk.

    Examples
    --------
    >>> documents = {"faq": "Refunds take 5 days. Invoices are in Settings."}
    >>> window_chunks(documents, 4, overlap=1)  # 10 pieces: "days" and "." are two
         chunk_id doc_id  start  end
    0  faq-w4-000    faq      0   19
    1  faq-w4-001    faq     15   33
    2  faq-w4-002    faq     30   46
    >>> documents["faq"][15:33]
    'days. Invoices are'
    """
    size = check_k(size, name="size")
    if isinstance(overlap, bool) or not isinstance(overlap, (int, np.integer)) or \
            not 0 <= overlap < size:
        raise InputValueError(f"overlap must be a whole number of tokens in [0, size), "
                              f"got {overlap!r} for size {size}")
    docs = as_documents(documents)
    label = f"w{size}" if name is None else name
    stride = size - overlap
    rows = []
    for doc_id, text in zip(docs.ids, docs.texts, strict=True):
        spans = piece_offsets(text)
        first, number = 0, 0
        while first < len(spans):
            last = min(first + size, len(spans)) - 1
            rows.append((f"{doc_id}-{label}-{number:03d}", doc_id, spans[first][0],
                         spans[last][1]))
            if last == len(spans) - 1:
                break
            first += stride
            number += 1
    return pd.DataFrame(rows, columns=["chunk_id", "doc_id", "start", "end"])
