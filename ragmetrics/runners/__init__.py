"""Run a retriever over a set of queries, and turn what it returns into a run.

- :func:`run_retriever` calls a retriever (a function, sync or async, or a LangChain,
  LlamaIndex or other object with ``invoke``, ``retrieve`` or ``search``) for every
  query, at most ``concurrency`` at once, with retries and a SQLite cache
  (:class:`RetrieverCache`), and returns a :class:`RetrieverRun`: a run frame that
  :func:`ragmetrics.evaluate` and :func:`ragmetrics.compare` take as it is, with each
  query's latency (:func:`latency_summary`) and the run's provenance beside it;
- :func:`run_from_documents` turns ``{query_id: [document, ...]}`` (ids, pairs, dicts,
  LangChain, Haystack or LlamaIndex documents, duck-typed) into a run frame, naming each
  result by a ``key``: its id, a metadata value such as its source, or its text.

The modules: :mod:`~ragmetrics.runners.retrieved` (results to ids),
:mod:`~ragmetrics.runners.cache`, :mod:`~ragmetrics.runners.latency`,
:mod:`~ragmetrics.runners.retriever_run` (the frame) and
:mod:`~ragmetrics.runners.runner` (the calls). This layer reads and checks input
(:mod:`ragmetrics.io`, :mod:`ragmetrics.validation`); it imports nothing from the
evaluation, the comparison or the reports.
"""

from ..errors import RetrieverError
from .cache import CachedResult, RetrieverCache, canonical_json, fingerprint
from .latency import latency_summary
from .retrieved import ranked_ids, run_from_documents
from .retriever_run import RetrieverRun
from .runner import run_retriever

__all__ = [
    "CachedResult",
    "RetrieverCache",
    "RetrieverError",
    "RetrieverRun",
    "canonical_json",
    "fingerprint",
    "latency_summary",
    "ranked_ids",
    "run_from_documents",
    "run_retriever",
]
