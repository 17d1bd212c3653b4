"""The same evaluation on Dask: a run as a ``dask.dataframe.DataFrame``, partition by
partition, on one machine's cores or a cluster's.

:func:`ragmetrics.evaluate` hands a Dask DataFrame run here. Each partition is a pandas
frame, evaluated by the same engine against the judgments (sent to every worker once,
with the task graph), with ``missing_from_run="skip"`` (its own queries only); the
per-query rows come back to the caller and are put together as the parts of a streamed
run are (:class:`~ragmetrics.evaluation.streaming.PartCombiner`): the values are those
of the whole run in memory, and the means equal pandas' to the last bit.

That needs each query's rows in one partition. Partitions read from files written one
query after another usually are; when a query is found in two, the run is shuffled on
``query_id`` (rows keep their order within a query, which ``ties="input_order"`` reads)
and evaluated again. Dask is imported only here, only when a Dask frame is given
(``pip install ragmetrics[dask]``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..conventions import Conventions
from ..errors import EmptyRelevantWarning, RagmetricsWarning
from ..metrics.registry import parse_metrics
from .arrow_inputs import as_frame
from .in_memory import evaluate_in_memory
from .streaming import NotGroupedError, PartCombiner

__all__ = ["evaluate_on_dask", "is_dask_frame"]

_ROW = "__ragmetrics_row__"


def is_dask_frame(data) -> bool:
    """Whether ``data`` is a Dask DataFrame (told without importing Dask)."""
    kind = type(data)
    return kind.__module__.partition(".")[0] == "dask" and kind.__name__ == "DataFrame"


def _evaluate_partition(frame: pd.DataFrame, qrels, metrics: list, conventions: dict):
    """One partition's per-query values, with its unjudged queries and warnings."""
    if _ROW in frame.columns:  # shuffled: back to the order of the run's rows
        frame = frame.sort_values(_ROW, kind="stable").drop(columns=_ROW)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RagmetricsWarning)
        part = evaluate_in_memory(frame, qrels, metrics, Conventions(**conventions))
    found = [(w.category, str(w.message)) for w in caught]
    return part.per_query, part.queries_missing_from_qrels, found


def evaluate_on_dask(run, qrels, metrics: list, conventions: Conventions):
    """The :class:`~ragmetrics.Evaluation` of a Dask DataFrame ``run``, computed on the
    cluster of the current Dask client (or Dask's default scheduler)."""
    import dask

    qrels = as_frame(qrels)
    if is_dask_frame(qrels):
        qrels = qrels.compute()
    specs = parse_metrics(metrics)
    policy = conventions.as_dict()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RagmetricsWarning)
        base = evaluate_in_memory({}, qrels, metrics,
                                  Conventions(**{**policy, "missing_from_run": "zero"}))
    for warning in caught:
        if issubclass(warning.category, EmptyRelevantWarning):
            warnings.warn(warning.message, warning.category, stacklevel=3)
    as_part = {**policy, "missing_from_run": "skip"}
    shuffled = False
    while True:
        judgments = dask.delayed(qrels, traverse=False)  # one copy for every partition
        parts = dask.compute(*[
            dask.delayed(_evaluate_partition)(partition, judgments, metrics, as_part)
            for partition in run.to_delayed()
        ])
        combiner = PartCombiner(base, conventions, qrels, specs)
        try:
            for per_query, unjudged, found in parts:
                combiner.add(_Part(per_query, unjudged), _Caught.of(found))
        except NotGroupedError:
            if shuffled:
                raise
            run, shuffled = _grouped(run), True
            continue
        return combiner.result()


def _grouped(run):
    """The run shuffled so that each query's rows are in one partition, in run order."""
    lengths = run.map_partitions(len).compute().to_numpy()
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])

    def numbered(frame: pd.DataFrame, partition_info=None):
        start = offsets[partition_info["number"]] if partition_info else 0
        return frame.assign(**{_ROW: np.arange(start, start + len(frame), dtype=np.int64)})

    meta = run._meta.assign(**{_ROW: np.zeros(0, np.int64)})
    return run.map_partitions(numbered, meta=meta).shuffle(on="query_id")


class _Part:
    """What :class:`PartCombiner` reads of a part's evaluation."""

    def __init__(self, per_query: pd.DataFrame, unjudged: tuple) -> None:
        self.per_query, self.queries_missing_from_qrels = per_query, unjudged


class _Caught:
    """A warning sent back from a worker, as :func:`warnings.catch_warnings` records it."""

    def __init__(self, category, message: str) -> None:
        self.category, self.message = category, message
        self.filename, self.lineno = __file__, 0

    @classmethod
    def of(cls, found: list) -> list:
        return [cls(category, message) for category, message in found]
