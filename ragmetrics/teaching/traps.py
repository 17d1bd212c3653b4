"""When one metric lies: small queries on which a single number looks fine.

The article's "common mistake" is to report one metric alone ("our RAG has 0.92
nDCG"). Each :class:`Trap` here is one query built so that the metric a team would
report looks good (>= 0.8) while another metric shows the problem (<= 0.3).
``tests/teaching/test_traps.py`` checks both numbers for every trap.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..evaluation import evaluate
from .examples import load_example

__all__ = ["Trap", "trap_scenarios"]


@dataclass(frozen=True)
class Trap:
    """One query on which a single metric looks fine and hides a problem.

    Attributes
    ----------
    name, title, story : str
        Its short id (``"high_ndcg_low_recall"``), the trap in a few words ("High nDCG,
        low recall"), and one line on what the system did.
    retrieved : tuple of str
        Chunk ids in rank order, best first.
    relevant : tuple of str
        The golden set, in a fixed order (so plots and listings are the same every run).
    k : int
        The cut-off the team reports.
    looks_fine, reveals : str
        The metric that looks fine and the one that reveals the problem, as
        :func:`ragmetrics.evaluate` names them (``"ndcg@10"``, ``"recall@10"``).
    lesson : str
        What the pair of numbers says, in one line.
    """

    name: str
    title: str
    story: str
    retrieved: tuple[str, ...]
    relevant: tuple[str, ...]
    k: int
    looks_fine: str
    reveals: str
    lesson: str

    @property
    def metric_names(self) -> list[str]:
        """The metrics to show side by side, all at this trap's ``k``."""
        k = self.k
        # One query: its reciprocal rank is "rr" (MRR is the mean of RR over queries).
        return [f"recall@{k}", f"precision@{k}", f"hit_rate@{k}", f"rr@{k}", f"ndcg@{k}"]

    def scores(self, metrics: list[str] | None = None) -> dict[str, float]:
        """Score this one query with :func:`ragmetrics.evaluate`.

        Examples
        --------
        >>> trap = trap_scenarios()["high_precision_low_recall"]
        >>> trap.scores([trap.looks_fine, trap.reveals])
        {'precision@1': 1.0, 'recall@1': 0.02}
        """
        names = self.metric_names if metrics is None else list(metrics)
        result = evaluate({self.name: list(self.retrieved)}, {self.name: dict.fromkeys(self.relevant, 1)}, names)
        return {name: float(result.summary[name]) for name in names}

    def table(self) -> pd.DataFrame:
        """All the metrics side by side, with the two that matter marked.

        Examples
        --------
        >>> trap_scenarios()["high_mrr_low_recall"].table().round(4)  # doctest: +NORMALIZE_WHITESPACE
                      value        role
        metric
        recall@10    0.1250     REVEALS
        precision@10 0.1000
        hit_rate@10  1.0000
        rr@10        1.0000  looks fine
        ndcg@10      0.2529
        """
        scores = self.scores()
        roles = {self.looks_fine: "looks fine", self.reveals: "REVEALS"}
        return pd.DataFrame(
            {"value": scores, "role": [roles.get(name, "") for name in scores]},
            index=pd.Index(list(scores), name="metric"),
        )


def _ids(prefix: str, n: int) -> list[str]:
    return [f"{prefix}_{i:02d}" for i in range(1, n + 1)]


def _ranking(length: int, relevant_ranks: set[int], relevant: list[str], noise: str) -> tuple:
    """``length`` ids: the next relevant id at each rank in ``relevant_ranks``, else noise."""
    found = iter(relevant)
    return tuple(
        next(found) if rank in relevant_ranks else f"{noise}_{rank:02d}"
        for rank in range(1, length + 1)
    )


def trap_scenarios() -> dict[str, Trap]:
    """The traps of the article's "common mistake", plus MRR's blind spot.

    Returns a fresh dict on every call, in this order:

    - ``high_ndcg_low_recall``: 40 relevant chunks, the top 10 hold 9 of them, well
      ranked. nDCG@10 = 0.92 (the article's "0.92 nDCG"), Recall@10 = 0.225.
    - ``high_recall_low_precision``: 3 relevant chunks, found, but k = 50.
      Recall@50 = 1.0, Precision@50 = 0.06: the most any ranking gets at k = 50.
    - ``high_precision_low_recall``: the article's precision trap (the example
      ``"precision_trap"``): one chunk returned, relevant, out of 50 relevant.
      Precision@1 = 1.0, Recall@1 = 0.02.
    - ``high_mrr_low_recall``: 8 relevant chunks, one of them at rank 1 and none of the
      others in the top 10. RR = 1.0, Recall@10 = 0.125.

    Examples
    --------
    >>> traps = trap_scenarios()
    >>> list(traps)  # doctest: +NORMALIZE_WHITESPACE
    ['high_ndcg_low_recall', 'high_recall_low_precision', 'high_precision_low_recall',
     'high_mrr_low_recall']
    >>> t = traps["high_ndcg_low_recall"]
    >>> t.looks_fine, t.reveals
    ('ndcg@10', 'recall@10')
    """
    changes = _ids("change", 40)
    refund = _ids("refund", 3)
    article_trap = load_example("precision_trap")
    steps = _ids("step", 8)
    traps = [
        Trap(
            name="high_ndcg_low_recall",
            title="High nDCG, low recall",
            story=(
                "'What changed in the 2024 terms?' touches 40 chunks; the top 10 hold 9 of "
                "them, almost perfectly ranked, and 31 are missing."
            ),
            retrieved=_ranking(10, {1, 2, 3, 4, 5, 7, 8, 9, 10}, changes, "noise"),
            relevant=tuple(changes),
            k=10,
            looks_fine="ndcg@10",
            reveals="recall@10",
            lesson=(
                "nDCG@10 compares the top 10 with the best possible top 10, so it cannot see "
                "the 31 relevant chunks below rank 10; recall can."
            ),
        ),
        Trap(
            name="high_recall_low_precision",
            title="High recall, low precision",
            story=(
                "'Can I get a refund after 30 days?' has 3 relevant chunks; k was raised to 50 "
                "until all 3 were in, at ranks 2, 9 and 31."
            ),
            retrieved=_ranking(50, {2, 9, 31}, refund, "noise"),
            relevant=tuple(refund),
            k=50,
            looks_fine="recall@50",
            reveals="precision@50",
            lesson=(
                "Everything is found because k is 50: with 3 relevant chunks, Precision@50 "
                "can be at most 3/50 = 0.06, so it measures the choice of k, not the ranking; "
                "47 of the 50 chunks sent to the model are noise."
            ),
        ),
        Trap(
            name="high_precision_low_recall",
            title="High precision, low recall",
            story=(
                "The article's precision trap: 50 chunks are relevant; the system returns "
                "one, and it is relevant."
            ),
            retrieved=tuple(article_trap.retrieved),
            relevant=tuple(article_trap.relevant),
            k=1,
            looks_fine="precision@1",
            reveals="recall@1",
            lesson=(
                "Precision is perfect and 98% of the relevant information is missing: "
                "simple queries work, complex ones fail silently."
            ),
        ),
        Trap(
            name="high_mrr_low_recall",
            title="High RR, low recall",
            story=(
                "'How do I migrate to the new plan?' needs 8 step chunks; the overview "
                "(step 1) is at rank 1 and no other step is in the top 10."
            ),
            retrieved=_ranking(10, {1}, steps, "noise"),
            relevant=tuple(steps),
            k=10,
            looks_fine="rr@10",
            reveals="recall@10",
            lesson=(
                "RR (and so MRR, its mean) only sees the first relevant chunk; the other 7 "
                "steps the answer needs are not in the top 10."
            ),
        ),
    ]
    return {trap.name: trap for trap in traps}
