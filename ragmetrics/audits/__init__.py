"""Judgment audits: can these judgments be trusted, and do they change the conclusions?

Three questions, one module each, and :func:`audit` for all of them at once (what
``ragmetrics audit QRELS_A QRELS_B [RUN ...]`` prints):

- **Do two judgment sets agree?** :func:`judgment_agreement` (:mod:`~.agreement`):
  Cohen's kappa on the pairs both judged (binary, at a relevance level), weighted kappa
  and Krippendorff's alpha on the grades, and the pairs judged by one set only.
- **Do they rank the systems alike?** :func:`system_rankings` (:mod:`~.rankings`): each
  run's mean under each set, Kendall's tau and rank-biased overlap of the two orders.
- **How much of each run was never judged?** :func:`judged_at_k_by_system`: Judged@k
  and hole@k.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from .._moved import renamed_in
from ..errors import InputValueError
from .agreement import (
    ALPHA_LEVELS,
    KAPPA_WEIGHTS,
    JudgmentAgreement,
    cohen_kappa,
    judged_pairs,
    judgment_agreement,
    krippendorff_alpha,
    weighted_kappa,
)
from .rankings import judged_at_k_by_system, kendall_tau, rank_biased_overlap, system_rankings

__all__ = [
    "ALPHA_LEVELS",
    "KAPPA_WEIGHTS",
    "JudgmentAgreement",
    "JudgmentAudit",
    "audit",
    "cohen_kappa",
    "judged_at_k_by_system",
    "judged_pairs",
    "judgment_agreement",
    "kendall_tau",
    "krippendorff_alpha",
    "rank_biased_overlap",
    "system_rankings",
    "weighted_kappa",
]


@dataclass(frozen=True)
class JudgmentAudit:
    """Everything :func:`audit` found; ``print(result)`` shows it as text.

    Attributes
    ----------
    agreement : JudgmentAgreement
    rankings : pandas.DataFrame or None
        Each run's mean under each judgment set, with its rank (None without runs).
    kendall_tau, rbo : float
        How alike the two orders of the runs are (NaN without runs).
    judged : pandas.DataFrame or None
        Judged@k and hole@k of each run under each set (columns suffixed ``_a``, ``_b``).
    metric : str
        The metric the runs are ranked by.
    k : int
        The depth of Judged@k.
    p : float
        RBO's persistence.
    """

    agreement: JudgmentAgreement
    rankings: pd.DataFrame | None
    kendall_tau: float
    rbo: float
    judged: pd.DataFrame | None
    metric: str
    k: int
    p: float

    def to_text(self) -> str:
        """The audit as plain text, for a terminal."""
        a = self.agreement
        lines = ["Agreement of the judgments (pairs judged by both)"]
        width = max(len(label) for label in a.to_dict())
        for label, value in a.to_dict().items():
            if isinstance(value, int):
                shown = f"{value:d}"
            elif math.isnan(value):
                shown = f"n/a ({_why_not_a_number(a)})"
            else:
                shown = f"{value:.4f}"
            lines.append(f"  {label:<{width}}  {shown}")
        lines.append(f"  (binary at relevance level {a.relevance_level:g})")
        if self.rankings is not None:
            lines += ["", (f"Systems ranked by {self.metric} under each judgment set "
                          "(queries both judged)")]
            lines += ["  " + line for line in self.rankings.round(4).to_string().splitlines()]
            lines.append(f"  Kendall's tau {self.kendall_tau:.4f}, rank-biased overlap "
                         f"(p = {self.p:g}) {self.rbo:.4f}")
        if self.judged is not None:
            lines += ["", f"How much of each run's top {self.k} is judged"]
            lines += ["  " + line for line in self.judged.round(4).to_string().splitlines()]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.to_text()


def _why_not_a_number(agreement: JudgmentAgreement) -> str:
    """Why a number of the agreement is NaN: nothing to measure it on, or nothing beyond
    chance to measure (every pair both judged carries one and the same label, so chance
    agreement is already perfect and kappa is 0 / 0)."""
    if agreement.n_both == 0:
        return "no pair judged by both"
    return "one label throughout: chance agrees fully"


def audit(qrels_a, qrels_b, runs: Mapping | None = None, *, metric: str = "ndcg@10",
          k: int = 10, relevance_level: float = 1, weights: str = "linear",
          alpha_level: str = "ordinal", p: float = 0.9) -> JudgmentAudit:
    """Audit two judgment sets of the same queries, and what they do to the runs' ranking.

    Parameters
    ----------
    qrels_a, qrels_b : DataFrame or mapping
        The two judgment sets (say, the annotators' and an LLM's).
    runs : mapping of str to run, optional
        Runs to rank under each set (two or more for Kendall's tau and RBO), and to
        measure Judged@k of.
    metric : str, default "ndcg@10"
        The metric the runs are ranked by.
    k : int, default 10
        The depth of Judged@k and hole@k.
    relevance_level, weights, alpha_level
        As in :func:`judgment_agreement`; ``relevance_level`` also scores the runs.
    p : float, default 0.9
        Rank-biased overlap's persistence.

    Examples
    --------
    >>> a = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1, "d4": 0}}
    >>> b = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1, "d4": 0}}
    >>> runs = {"x": {"q1": ["d1", "d2"], "q2": ["d4", "d3"]},
    ...         "y": {"q1": ["d2", "d1"], "q2": ["d3", "d9"]}}
    >>> result = audit(a, b, runs, metric="mrr", k=2)
    >>> result.agreement.n_both, round(result.agreement.kappa, 4)
    (4, 0.5)
    >>> result.judged  # doctest: +NORMALIZE_WHITESPACE
            judged@2_a  hole@2_a  judged@2_b  hole@2_b
    system
    x             1.00      0.00        1.00      0.00
    y             0.75      0.25        0.75      0.25
    """
    agreement = judgment_agreement(qrels_a, qrels_b, relevance_level=relevance_level,
                                   weights=weights, alpha_level=alpha_level)
    rankings = judged = None
    tau = rbo = float("nan")
    if runs:
        if not isinstance(runs, Mapping):
            raise InputValueError(f"runs must be a mapping {{name: run}}, got {runs!r}")
        rankings, tau, rbo = system_rankings(runs, qrels_a, qrels_b, metric=metric, p=p,
                                             relevance_level=relevance_level)
        judged = pd.concat([judged_at_k_by_system(runs, qrels_a, k).add_suffix("_a"),
                            judged_at_k_by_system(runs, qrels_b, k).add_suffix("_b")], axis=1)
    return JudgmentAudit(agreement=agreement, rankings=rankings, kendall_tau=tau, rbo=rbo,
                         judged=judged, metric=metric, k=k, p=p)

# Old names answer with a DeprecationWarning (ragmetrics._moved.RENAMED); others raise.
__getattr__ = renamed_in(__name__)
