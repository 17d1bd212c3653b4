"""The one switch behind every shortcut :func:`ragmetrics.evaluate` takes.

Each shortcut is a faster way to the answer a plain path defines:

- ranking (:func:`~ragmetrics.evaluation.ranking.rank_rows`): queries found by comparing
  neighbouring ids (object addresses first, values only where they differ), a run already
  in rank order not sorted at all, and each query's top rows found by a binned pre-sort
  before the exact one; the plain path numbers the queries with ``pandas.factorize`` and
  sorts every row by (query, score);
- matching with the judgments (:mod:`~ragmetrics.evaluation.joins`): pairs keyed by the
  ids' hashes, every match checked against the ids; ``str`` ids shared by many rows
  hashed once per object (:func:`~ragmetrics.evaluation.objects.distinct_objects`),
  and the tied ones sorted as text once per object; rows whose doc is judged for no
  query ruled out by a small table of hash bits before any search; the plain path keys
  the pairs by exact codes from one ``pandas.factorize`` of both sides and searches
  every row.

``tests/unit/evaluation/test_engine_paths.py`` runs random runs through both paths (:func:`plain_paths`)
and asserts the same numbers.
"""

from __future__ import annotations

import contextlib

__all__ = ["ENABLED", "plain_paths"]

#: True: take the shortcuts. Set it only through :func:`plain_paths`.
ENABLED = True


@contextlib.contextmanager
def plain_paths():
    """Within this block, evaluate takes the plain path everywhere (for the tests)."""
    global ENABLED
    before, ENABLED = ENABLED, False
    try:
        yield
    finally:
        ENABLED = before
