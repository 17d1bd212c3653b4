"""The metrics the course teaches, and the notebook that teaches each one.

The metric table (:data:`ragmetrics.METRICS`) has a row for every measure of trec_eval,
about forty; a learner starting the course needs the handful it teaches, each with the
question it answers and where to learn it. :data:`SYLLABUS` is that list, in teaching
order; :func:`syllabus_table` joins it to the metric table, so the question printed is the
one the reports and widgets use.
"""

from __future__ import annotations

import pandas as pd

from ..diversity import DIVERSITY_METRICS
from ..metrics.registry import METRICS

__all__ = ["SYLLABUS", "syllabus_table"]

#: Each metric the course teaches (a key of :data:`ragmetrics.METRICS`, or of
#: :data:`ragmetrics.diversity.DIVERSITY_METRICS` for those that read facets) and the
#: notebook that teaches it, in teaching order.
SYLLABUS: dict[str, str] = {
    "recall": "01_recall_at_k.ipynb",
    "hit_rate": "01_recall_at_k.ipynb",
    "precision": "02_precision_at_k.ipynb",
    "rr": "03_mrr.ipynb",
    "ndcg": "04_ndcg.ipynb",
    "rbp": "07_when_metrics_lie.ipynb",
    "ap": "11_precision_recall_curves.ipynb",
    "r_precision": "11_precision_recall_curves.ipynb",
    "iprec_at_recall": "11_precision_recall_curves.ipynb",
    "11pt_avg": "11_precision_recall_curves.ipynb",
    "judged": "12_where_judgments_come_from.ipynb",
    "alpha_ndcg": "15_many_facets_and_no_answer.ipynb",
    "strec": "15_many_facets_and_no_answer.ipynb",
}


def syllabus_table() -> pd.DataFrame:
    """The course's metrics: name, the question each answers, and the notebook teaching it.

    Returns
    -------
    pandas.DataFrame
        One row per metric of :data:`SYLLABUS`, in teaching order, indexed by the metric's
        printed name, with columns ``question`` (from the metric table) and ``notebook``.

    Examples
    --------
    >>> table = syllabus_table()
    >>> len(table), table.index[0], table.loc["Recall@k", "notebook"]
    (13, 'Recall@k', '01_recall_at_k.ipynb')
    >>> table.loc["RR", "question"]
    'How high is the first relevant chunk?'
    """
    rows = []
    for name, notebook in SYLLABUS.items():
        info = METRICS[name] if name in METRICS else DIVERSITY_METRICS[name]
        rows.append({"metric": info.pretty_name, "question": info.question,
                     "notebook": notebook})
    return pd.DataFrame(rows).set_index("metric")
