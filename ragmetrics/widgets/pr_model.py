"""The precision-recall explorer's view-model: what it shows, from pure functions.

:class:`ragmetrics.widgets.PrecisionRecallExplorer` only wires a browser view to these
functions; every number comes from :mod:`ragmetrics.teaching.pr_curves`, and every
sentence its live region says from :func:`describe_pr_change`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..teaching.pr_curves import precision_recall_curve
from .board_model import move

__all__ = [
    "PrecisionRecallState",
    "describe_pr_change",
    "describe_pr_curve",
    "pr_summary",
    "pr_view",
]


def pr_view(order: list[str], relevance: Mapping[str, float]) -> dict:
    """Everything the explorer displays for one ranking, as JSON-ready data.

    Returns
    -------
    dict
        ``points`` (per rank: doc id, relevant, precision, recall), ``eleven`` (the 11
        recall levels and their interpolated precision, trec_eval's rule), ``ap`` (the
        area under the curve), ``eleven_point_average``, ``r_precision``, ``n_relevant``,
        ``unretrieved`` and ``description`` (the plot's text alternative).

    Examples
    --------
    >>> view = pr_view(["a", "x", "b"], {"a": 1, "b": 1, "c": 1})
    >>> [round(p["precision"], 4) for p in view["points"]], round(view["ap"], 4)
    ([1.0, 0.5, 0.6667], 0.5556)
    """
    curve = precision_recall_curve(order, relevance)
    points = [
        {"rank": rank, "doc_id": doc, "relevant": hit, "precision": p, "recall": r}
        for rank, (doc, hit, p, r) in enumerate(
            zip(curve.ranking, curve.relevant, curve.precision, curve.recall, strict=True),
            start=1)
    ]
    eleven = [{"level": level, "precision": value}
              for level, value in curve.eleven_points().items()]
    retrieved = set(order)
    view = {
        "points": points,
        "eleven": eleven,
        "ap": curve.area(),
        "eleven_point_average": curve.eleven_point_average(),
        "r_precision": curve.r_precision(),
        "n_relevant": curve.n_relevant,
        "unretrieved": sorted(d for d, g in relevance.items() if g > 0 and d not in retrieved),
    }
    view["description"] = describe_pr_curve(view)
    return view


def describe_pr_curve(view: Mapping) -> str:
    """The text alternative of the plot: the points at each relevant rank, the 11
    interpolated values, and the three summary numbers.

    >>> print(describe_pr_curve(pr_view(["a", "x", "b"], {"a": 1, "b": 1})))
    Precision-recall curve of 3 chunks, 2 relevant. At each relevant chunk: rank 1 recall 0.50 precision 1.00; rank 3 recall 1.00 precision 0.67. Interpolated precision at recall 0.0 to 1.0: 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 0.67, 0.67, 0.67. AP (the shaded area) 0.83, 11-point average 0.91, R-precision 0.50.
    """
    hits = [p for p in view["points"] if p["relevant"]]
    at = "; ".join(f"rank {p['rank']} recall {p['recall']:.2f} precision {p['precision']:.2f}"
                   for p in hits) or "no relevant chunk retrieved"
    eleven = ", ".join(f"{e['precision']:.2f}" for e in view["eleven"])
    n = len(view["points"])
    return (f"Precision-recall curve of {n} chunk{'s' if n != 1 else ''}, "
            f"{view['n_relevant']} relevant. At each relevant chunk: {at}. Interpolated "
            f"precision at recall 0.0 to 1.0: {eleven}. AP (the shaded area) "
            f"{view['ap']:.2f}, 11-point average {view['eleven_point_average']:.2f}, "
            f"R-precision {view['r_precision']:.2f}.")


def pr_summary(view: Mapping) -> str:
    """The three summary numbers in words, at 2 decimals.

    >>> pr_summary(pr_view(["a", "x"], {"a": 1}))
    'AP 1.00, 11-point average 1.00, R-precision 1.00'
    """
    return (f"AP {view['ap']:.2f}, 11-point average {view['eleven_point_average']:.2f}, "
            f"R-precision {view['r_precision']:.2f}")


def describe_pr_change(before: Mapping, after: Mapping, *, moved: str | None = None,
                       rank: int | None = None) -> str:
    """What the live region says after a move: the move, then the three summary numbers.

    >>> before = pr_view(["x", "a"], {"a": 1})
    >>> describe_pr_change(before, pr_view(["a", "x"], {"a": 1}), moved="a", rank=1)
    'chunk a moved to rank 1; AP 1.00, 11-point average 1.00, R-precision 1.00'
    """
    head = f"chunk {moved} moved to rank {rank}" if moved is not None else "ranking changed"
    if before["ap"] == after["ap"] and before["eleven"] == after["eleven"]:
        return f"{head}; the curve did not change ({pr_summary(after)})"
    return f"{head}; {pr_summary(after)}"


class PrecisionRecallState:
    """A ranking and its golden set without a widget: try moves, read the curve.

    >>> state = PrecisionRecallState(["x", "a", "b"], {"a": 1, "b": 1})
    >>> round(state.view["ap"], 4)
    0.5833
    >>> state.move("b", 1)
    >>> state.order, round(state.view["ap"], 4)
    (['b', 'x', 'a'], 0.8333)
    """

    def __init__(self, order, relevance):
        self.order = [str(d) for d in order]
        self.relevance = {str(d): float(g) for d, g in relevance.items()}

    def move(self, doc_id: str, to_rank: int) -> None:
        """Move ``doc_id`` to 1-based ``to_rank``."""
        self.order = move(self.order, str(doc_id), to_rank)

    @property
    def view(self) -> dict:
        return pr_view(self.order, self.relevance)

    def describe(self) -> str:
        """The curve in words (its text alternative)."""
        return self.view["description"]
