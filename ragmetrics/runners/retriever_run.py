"""The run a retriever produced: a pandas DataFrame that also carries its latency and provenance.

:class:`RetrieverRun` is a DataFrame (``query_id, doc_id, rank`` and perhaps ``score``):
:func:`ragmetrics.evaluate`, :func:`ragmetrics.compare` and pandas take it as one. Two
attributes ride beside the rows, never in them:

- ``latency``: one row per query (``seconds``, ``cached``, ``n_results``;
  :mod:`ragmetrics.runners.latency`);
- ``provenance``: a dict saying how the run was made (the retriever's name and kind, the
  config and its hash, ``k``, the key, when it started, the cache hits, the ragmetrics
  version).

Why a subclass (pandas' ``_metadata``) rather than ``DataFrame.attrs``: pandas copies
``attrs`` deeply at every step, and compares them when concatenating, which fails for a
frame held there. The subclass's attributes survive what users do to a run: a filter
(``run[run["rank"] <= 10]``), ``.copy()``, ``.head()``, sorting, a pickle (so
``compare(..., jobs=4)`` too). They are the same objects, describing the **whole run as
called**: a filtered run keeps every query's latency. They are dropped (None) where a
frame is built from several (``pd.concat``, ``merge``) and by ``pd.DataFrame(run)``;
a column taken alone is a plain Series.
"""

from __future__ import annotations

import pandas as pd

from .latency import latency_summary

__all__ = ["RetrieverRun"]


class RetrieverRun(pd.DataFrame):
    """A run frame with ``latency`` and ``provenance`` (see the module's introduction).

    Examples
    --------
    >>> run = RetrieverRun({"query_id": ["q1"], "doc_id": ["d1"], "rank": [1]})
    >>> run.provenance = {"name": "bm25"}
    >>> run[run["rank"] <= 10].provenance, run.copy().provenance
    ({'name': 'bm25'}, {'name': 'bm25'})
    >>> print(pd.concat([run, run]).provenance)
    None
    """

    _metadata = ["latency", "provenance"]  # noqa: RUF012 (pandas reads this list)
    latency = None
    provenance = None

    @property
    def _constructor(self):
        return RetrieverRun

    @property
    def _constructor_sliced(self):
        return pd.Series

    def latency_summary(self) -> dict:
        """:func:`ragmetrics.runners.latency_summary` of this run."""
        return latency_summary(self)
