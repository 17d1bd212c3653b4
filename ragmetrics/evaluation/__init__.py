"""Evaluation: many queries at once (:func:`evaluate`) and one query over many k (curves).

- :mod:`~ragmetrics.evaluation.evaluator`: :func:`evaluate`, :class:`Evaluation` and
  :func:`check_judgments`;
- :mod:`~ragmetrics.evaluation.curves`: :func:`metric_curves` and :func:`metrics_over_k`;
- :mod:`~ragmetrics.evaluation.engine`: runs and judgments to ranked judgments, in steps;
- :mod:`~ragmetrics.evaluation.inputs`, :mod:`~ragmetrics.evaluation.ranking` and
  :mod:`~ragmetrics.evaluation.joins`: the accepted input shapes, the ranking of a run,
  and the match of its rows with the judgments;
- :mod:`~ragmetrics.evaluation.abstention`: questions with no answer: a run cut at a
  score threshold (:func:`threshold_sweep`), the false-answer rate on unanswerable
  queries against recall on answerable ones, the threshold for a target
  (:func:`threshold_for`), measured on another split (:func:`abstention_at`), per system
  (:func:`abstention_report`);
- :mod:`~ragmetrics.evaluation.score_matrix`: :func:`evaluate_scores`, a score matrix
  ``[n_queries, n_docs]`` on any array library (NumPy, PyTorch, CuPy, JAX), ranked
  where it lives (:mod:`~ragmetrics.evaluation.matrix_ranking`);
- :mod:`~ragmetrics.evaluation.in_parallel`: many evaluations on worker
  processes (``compare(..., jobs=N)``, ``ragmetrics evaluate --jobs``).

Every metric is computed by its kernel in the metric table (:mod:`ragmetrics.metrics`).
"""

from .abstention import (
    ThresholdChoice,
    ThresholdSweep,
    abstention_at,
    abstention_report,
    threshold_for,
    threshold_sweep,
)
from .curves import MetricCurves, metric_curves, metrics_over_k
from .evaluator import Evaluation, check_judgments, evaluate
from .score_matrix import evaluate_scores

__all__ = ["Evaluation", "MetricCurves", "ThresholdChoice", "ThresholdSweep", "abstention_at",
           "abstention_report", "check_judgments", "evaluate", "evaluate_scores", "metric_curves",
           "metrics_over_k", "threshold_for", "threshold_sweep"]
