"""A retrieval data set as teams bring it: questions, judgments and, when given, documents.

:class:`Dataset` is what :func:`ragmetrics.io.read_dataset` returns for every layout it
reads (BEIR folders, MTEB datasets saved locally, LlamaIndex's
``EmbeddingQAFinetuneDataset`` JSON, RAGAS samples). Its frames have the shapes the
rest of ragmetrics takes as they are: ``qrels`` goes to :func:`ragmetrics.evaluate`
beside any run, ``run`` (results shipped with the data) is such a run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["Dataset"]


@dataclass(frozen=True, eq=False)
class Dataset:
    """Questions, their judgments and, when the layout has them, the documents.

    Attributes
    ----------
    queries : pandas.DataFrame
        ``query_id, text``, plus any metadata columns the layout carries; ids are text.
    qrels : pandas.DataFrame
        ``query_id, doc_id, relevance``: the judgments, as :func:`ragmetrics.io.read_qrels`
        returns them.
    documents : pandas.DataFrame or None
        ``doc_id, text`` (plus ``title`` where the layout has one), or None when the layout
        carries no documents.
    run : pandas.DataFrame or None
        Results that come with the data (MTEB's ``top_ranked``, RAGAS'
        ``retrieved_context_ids``): ``query_id, doc_id`` and ``rank`` and/or ``score``, as
        :func:`ragmetrics.io.read_run` returns them; None when there are none.
    format : str
        The layout read: ``"beir"``, ``"mteb"``, ``"llamaindex"`` or ``"ragas"``.
    path : str
        The folder or file it was read from, as the caller named it (``""`` for objects
        in memory).
    split : str or None
        The split read (``"test"``, ``"dev"``...), for layouts that have splits.
    text_matches : object or None
        When judgments or results were given as texts and matched to ids, the report of
        the matching: how many texts matched, matched nothing or matched more than one
        place, with examples. None when every judgment came with ids.
    coverage : dict or None
        How the questions and the judgments met, as counts (:func:`ragmetrics.io.read_dataset`
        keeps, as BEIR and MTEB do, only the questions that have judgments):
        ``queries_without_judgments`` (questions left out), ``judged_queries_without_text``
        (judged queries the questions file lacks: their judgments are kept) and
        ``judged_docs_not_in_corpus`` (judgment rows naming a doc the documents lack;
        None when no documents were read). None for a data set made in memory.

    Examples
    --------
    >>> import pandas as pd
    >>> queries = pd.DataFrame({"query_id": ["q1"], "text": ["How do I reset my password?"]})
    >>> qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d7"], "relevance": [1]})
    >>> Dataset(queries, qrels, format="beir", path="support/")
    Dataset('beir' from 'support/': 1 queries, 1 judgments, no documents)
    """

    queries: pd.DataFrame = field(repr=False)
    qrels: pd.DataFrame = field(repr=False)
    documents: pd.DataFrame | None = field(default=None, repr=False)
    run: pd.DataFrame | None = field(default=None, repr=False)
    format: str = ""
    path: str = ""
    split: str | None = None
    text_matches: Any = field(default=None, repr=False)
    coverage: dict[str, int | None] | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        documents = "no documents" if self.documents is None else (
            f"{len(self.documents)} documents")
        run = "" if self.run is None else f", a run of {len(self.run)} rows"
        split = "" if self.split is None else f" (split {self.split!r})"
        return (f"Dataset({self.format!r} from {self.path!r}{split}: {len(self.queries)} "
                f"queries, {len(self.qrels)} judgments, {documents}{run})")
