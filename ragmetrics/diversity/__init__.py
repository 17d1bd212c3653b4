"""Diversity and novelty: measures of a ranking against judgments per subtopic (facet).

A question with several facets needs a ranking that covers them, not ten results on
one. TREC's Web track measures that with ``ndeval.c`` (v4.5); this subpackage computes
its measures exactly, in Python:

- :mod:`.subtopics`: the judgments per (query, subtopic, doc), from a table (a
  ``subtopic`` column, or ir_measures' ``iteration``) or tuples
  (:func:`subtopic_judgments`, :class:`SubtopicJudgments`);
- :mod:`.ndeval_files`: ndeval's qrels and runs, and its CSV output;
- :mod:`.novelty_reference`: the per-query definitions, in plain Python;
- :mod:`.subtopic_ranking` and :mod:`.novelty_kernels`: the (rank x subtopic) matrix of
  every query, its greedy ideal ranking, and one array kernel per measure;
- :mod:`.novelty_table`: the measures' rows (:data:`DIVERSITY_METRICS`), their names, and
  the tools' rules (:data:`DIVERSITY_PRESETS`: ``ndeval``, ``ndeval_traditional``,
  ``pyndeval``);
- :mod:`.novelty_evaluation`: :func:`evaluate_diversity`, every query at once.

``ragmetrics ndeval`` is a drop-in for the ndeval program.
"""

from .ndeval_files import NDEVAL_COLUMNS, ndeval_csv, read_ndeval_qrels, read_ndeval_run
from .novelty_evaluation import DiversityEvaluation, evaluate_diversity
from .novelty_reference import (
    alpha_dcg_at_k,
    alpha_ndcg_at_k,
    err_ia_at_k,
    intent_aware_ap,
    intent_aware_precision_at_k,
    nerr_ia_at_k,
    nnrbp,
    nrbp,
    subtopic_recall_at_k,
)
from .novelty_table import (
    DIVERSITY_METRICS,
    DIVERSITY_PRESETS,
    DiversityPreset,
    DiversitySpec,
    diversity_markdown,
    parse_diversity_metric,
)
from .subtopic_ranking import SubtopicRanking
from .subtopics import SubtopicJudgments, subtopic_judgments

__all__ = [
    "DIVERSITY_METRICS", "DIVERSITY_PRESETS", "NDEVAL_COLUMNS", "DiversityEvaluation",
    "DiversityPreset", "DiversitySpec", "SubtopicJudgments", "SubtopicRanking",
    "alpha_dcg_at_k", "alpha_ndcg_at_k", "diversity_markdown", "err_ia_at_k",
    "evaluate_diversity", "intent_aware_ap", "intent_aware_precision_at_k", "ndeval_csv",
    "nerr_ia_at_k", "nnrbp", "nrbp", "parse_diversity_metric", "read_ndeval_qrels",
    "read_ndeval_run", "subtopic_judgments", "subtopic_recall_at_k",
]
