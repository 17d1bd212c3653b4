"""Evaluation: many queries at once (:func:`evaluate`) and one query over many k (curves).

- :mod:`~ragmetrics.evaluation.evaluator`: :func:`evaluate`, :class:`Evaluation` and
  :func:`check_judgments`;
- :mod:`~ragmetrics.evaluation.curves`: :func:`metric_curves` and :func:`metrics_over_k`;
- :mod:`~ragmetrics.evaluation.engine`: runs and judgments to ranked judgments, in steps;
- :mod:`~ragmetrics.evaluation.inputs`, :mod:`~ragmetrics.evaluation.ranking` and
  :mod:`~ragmetrics.evaluation.joins`: the accepted input shapes, the ranking of a run,
  and the match of its rows with the judgments;
- :mod:`~ragmetrics.evaluation.in_parallel`: many evaluations on worker
  processes (``compare(..., jobs=N)``, ``ragmetrics evaluate --jobs``).

Every metric is computed by its kernel in the metric table (:mod:`ragmetrics.metrics`).
"""

from .curves import MetricCurves, metric_curves, metrics_over_k
from .evaluator import Evaluation, check_judgments, evaluate

__all__ = ["Evaluation", "MetricCurves", "check_judgments", "evaluate", "metric_curves",
           "metrics_over_k"]
