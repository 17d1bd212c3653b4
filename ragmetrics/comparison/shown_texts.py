"""The texts a comparison's drill-downs show beside the ids: each question, each passage.

A report that says ``a068-w256-000`` tells a reader little; the question it stands for
and the first words of each passage retrieved for it tell what went wrong.
:func:`compare(queries=..., documents=...) <ragmetrics.comparison.compare>` takes them,
and :func:`shown_texts` checks them once, at the boundary, into two plain mappings
``{id: text}`` that the reports and the comparison explorer look ids up in. Every text is
shown as text, never as markup (the renderers escape it, as they escape ids).

- ``queries``: ``query_id, text`` (a DataFrame, records, a table file such as BEIR's
  ``queries.jsonl``, or ``{query_id: text}``), e.g. :attr:`ragmetrics.io.Dataset.queries`.
- ``documents``: ``doc_id, text`` (the same shapes; :attr:`ragmetrics.io.Dataset.documents`).
  One frame serves both uses of ``documents=``. With qrels of ids, the runs' ids are the
  documents' ids, and each ranked passage is shown by its document's text. With evidence
  spans, the documents are those the spans and the chunks' offsets point into
  (:class:`ragmetrics.spans.SpanJudgments`); their texts locate quotes, count tokens and
  check offsets, and no ranking is shown rank by rank (so no passage text is needed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from ..errors import InputTypeError, InputValueError
from ..spans.model import as_documents
from ..spans.readers import as_frame

__all__ = ["query_texts", "shown_texts"]


def query_texts(queries) -> dict | None:
    """``{query_id: text}`` from ``queries``: a mapping, a Series, or a table (DataFrame,
    records or file) of ``query_id, text``; None for None. A query whose text is missing
    (None or NaN, as in a data set of judgments alone) is left out: it shows no text.

    Examples
    --------
    >>> import pandas as pd
    >>> query_texts(pd.DataFrame({"query_id": ["q1"], "text": ["How do I reset it?"]}))
    {'q1': 'How do I reset it?'}
    >>> query_texts({"q1": 3})
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputTypeError: queries: the text of query 'q1' must be a str, got 3
    """
    if queries is None:
        return None
    if isinstance(queries, pd.Series):
        queries = queries.to_dict()
    if isinstance(queries, Mapping):
        found = dict(queries)
    else:
        frame, _ = as_frame(queries, "queries", "query_id")
        missing = [c for c in ("query_id", "text") if c not in frame.columns]
        if missing:
            raise InputValueError(f"queries must have the columns query_id and text; "
                                  f"{' and '.join(missing)} missing (columns: "
                                  f"{list(frame.columns)})")
        ids = frame["query_id"].tolist()
        found = dict(zip(ids, frame["text"].tolist(), strict=True))
        if len(found) != len(ids):
            repeated = pd.Series(ids)[pd.Series(ids).duplicated()].iloc[0]
            raise InputValueError(f"queries: query {repeated!r} is given twice")
    found = {q: t for q, t in found.items()
             if t is not None and not (isinstance(t, float) and math.isnan(t))}
    for query_id, text in found.items():
        if not isinstance(text, str):
            raise InputTypeError(f"queries: the text of query {query_id!r} must be a str, "
                                 f"got {text!r}")
    return found


def shown_texts(queries, documents, *, spans: bool) -> tuple[dict | None, dict | None]:
    """The questions' and the passages' texts, ``({query_id: text}, {doc_id: text})``.

    ``spans``: the call is judged by evidence spans, whose documents are not the runs'
    ids (the chunks are): no passage text is kept then.

    Examples
    --------
    >>> shown_texts({"q1": "Reset?"}, {"d1": "Open the settings."}, spans=False)
    ({'q1': 'Reset?'}, {'d1': 'Open the settings.'})
    """
    questions = query_texts(queries)
    if spans or documents is None:
        return questions, None
    checked = as_documents(documents)
    return questions, dict(zip(checked.ids, checked.texts, strict=True))
