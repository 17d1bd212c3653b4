"""How long a retriever took, query by query, and the summary a report shows beside the metrics.

:func:`~ragmetrics.runners.run_retriever` times each call to the retriever by the wall
clock (``time.perf_counter``), from the call to its return (retries: the attempt that
answered), and keeps the times in the run's ``latency`` frame: one row per query,
``seconds``, ``cached`` (True where the results came from the cache: their seconds are
the original call's) and ``n_results`` (the ids kept, at most ``k``).

:func:`latency_summary` gives the mean, median, 90th and 99th percentile **per query**,
over the queries timed in this run (cache hits left out: a lookup is not a retrieval).
The mean is per query, not the total: PyTerrier once printed the total time of a run as
its "mean response time".
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InputTypeError, InputValueError

__all__ = ["LATENCY_COLUMNS", "latency_frame", "latency_summary"]

#: The columns of a run's ``latency`` frame (index ``query_id``).
LATENCY_COLUMNS = ("seconds", "cached", "n_results")


def latency_frame(query_ids: list, seconds: list, cached: list, n_results: list) -> pd.DataFrame:
    """The ``latency`` frame of a run: index ``query_id``, the :data:`LATENCY_COLUMNS`.

    Examples
    --------
    >>> latency_frame(["q1", "q2"], [0.25, 0.5], [False, True], [10, 10])
    ... # doctest: +NORMALIZE_WHITESPACE
              seconds  cached  n_results
    query_id
    q1           0.25   False         10
    q2           0.50    True         10
    """
    return pd.DataFrame(
        {"seconds": np.asarray(seconds, dtype=np.float64),
         "cached": np.asarray(cached, dtype=bool),
         "n_results": np.asarray(n_results, dtype=np.int64)},
        index=pd.Index(pd.array(query_ids, dtype=str) if query_ids else [], dtype=str,
                       name="query_id"),
    )


def latency_summary(run) -> dict:
    """The per-query latency of a retriever's run: mean, p50, p90, p99, timed and cached.

    Parameters
    ----------
    run : RetrieverRun or pandas.DataFrame
        What :func:`~ragmetrics.runners.run_retriever` returned (its ``latency`` is
        read), or a latency frame itself (a ``seconds`` and a ``cached`` column).

    Returns
    -------
    dict
        ``mean``, ``p50``, ``p90``, ``p99``: seconds per query over the queries called in
        this run (NumPy's linear percentiles; NaN when every query came from the cache);
        ``timed``: how many those are; ``cached``: how many came from the cache.

    Examples
    --------
    Four calls of 0.1, 0.1, 0.2 and 0.4 seconds (0.8 in all), and one cache hit:

    >>> frame = latency_frame(["q1", "q2", "q3", "q4", "q5"], [0.1, 0.1, 0.2, 0.4, 9.0],
    ...                       [False, False, False, False, True], [5] * 5)
    >>> summary = latency_summary(frame)
    >>> round(summary["mean"], 3), round(summary["p50"], 3), summary["timed"], summary["cached"]
    (0.2, 0.15, 4, 1)
    """
    frame = run if _is_latency_frame(run) else getattr(run, "latency", None)
    if not _is_latency_frame(frame):
        raise InputTypeError(
            "latency_summary needs a run from run_retriever (its .latency) or a latency "
            f"frame (columns 'seconds' and 'cached'); got {type(run).__name__}"
            + (" without .latency (a run rebuilt by pd.concat or a plain DataFrame)"
               if isinstance(run, pd.DataFrame) else ""))
    cached = frame["cached"].to_numpy(dtype=bool)
    seconds = frame["seconds"].to_numpy(dtype=np.float64)[~cached]
    if np.isnan(seconds).any() or (seconds < 0).any():
        raise InputValueError("latency seconds must be non-negative numbers")
    if len(seconds):
        p50, p90, p99 = np.percentile(seconds, [50, 90, 99])
        mean = float(seconds.mean())
    else:
        mean = p50 = p90 = p99 = float("nan")
    return {"mean": mean, "p50": float(p50), "p90": float(p90), "p99": float(p99),
            "timed": len(seconds), "cached": int(cached.sum())}


def _is_latency_frame(value) -> bool:
    return isinstance(value, pd.DataFrame) and {"seconds", "cached"} <= set(value.columns)
