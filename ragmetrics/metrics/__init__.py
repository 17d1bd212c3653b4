"""The metric core: each metric defined once, as a row of a table, with one array kernel.

- :mod:`~ragmetrics.metrics.reference`: the per-query functions, written to read like the
  article (``recall_at_k(retrieved, relevant, k)``): the readable definitions;
- :mod:`~ragmetrics.metrics.registry`: the metric table (``METRICS``), the metric names
  (``parse_metric("ndcg@10")``) and, for each metric, its kernel;
- :mod:`~ragmetrics.metrics.kernels`: one array kernel per metric, every query at once;
- :mod:`~ragmetrics.metrics.ranked`: the kernels' input, ranked judgments;
- :mod:`~ragmetrics.metrics.scoring`: kernel values to scores, the conventions applied once.
"""

from . import reference
from .reference import *  # every per-query function (reference.__all__)
from .registry import METRICS, MetricInfo, MetricSpec, metric_info, parse_metric, parse_metrics
from .trec_names import spec_of_printed_name  # imported so that parse_metric reads "P_5"

__all__ = [
    "METRICS", "MetricInfo", "MetricSpec", "metric_info", "parse_metric", "parse_metrics",
    "spec_of_printed_name",
]
__all__ += reference.__all__  # the per-query functions, by their article-like names
