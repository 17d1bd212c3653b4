"""PrecisionRecallExplorer: move chunks in a ranking and watch its precision-recall curve."""

from __future__ import annotations

import html

import traitlets

from ..teaching.examples import load_example
from . import pr_model
from .base import AccessibleWidget, WidgetValueError
from .board_model import move, moved_chunk, normalise_board_input

__all__ = ["PrecisionRecallExplorer"]


class PrecisionRecallExplorer(AccessibleWidget, front_end="pr_explorer.js",
                              style="pr_explorer.css", root=True):
    """A ranking next to its precision-recall curve; move a chunk and the curve follows.

    The plot shows precision against recall at every rank (the saw-tooth), the
    interpolated precision at the 11 recall levels 0.0, 0.1, ..., 1.0 (trec_eval's
    ``iprec_at_recall``, the step line), and average precision as the shaded area: one
    bar of width 1/R per relevant chunk, as high as the precision at its rank. Beside it:
    AP, the 11-point average and R-precision.

    Keys: on a chunk, Up/Down go to the previous/next chunk, Alt+Up/Alt+Down move it one
    rank; Tab reaches its up and down buttons (Enter or Space). "Reset" puts back the
    starting order. Focus stays on the chunk or button, and the live region says the new
    AP, 11-point average and R-precision after each move.

    Parameters
    ----------
    retrieved : list of ids
        The ranking, best first.
    relevant : set of ids or mapping id -> grade
        The golden set (relevant chunks that were never retrieved still count in R).
    titles : mapping id -> str, optional
        Shown as plain text.

    Examples
    --------
    >>> explorer = PrecisionRecallExplorer(["x", "a", "y", "b"], {"a", "b", "c"})
    >>> round(explorer.view["ap"], 4), round(explorer.view["eleven_point_average"], 4)
    (0.3333, 0.4091)
    >>> explorer.move("b", 1)                  # what Alt+Up, three times, does
    >>> explorer.announcement
    'chunk b moved to rank 1; AP 0.56, 11-point average 0.70, R-precision 0.67'
    """

    order = traitlets.List(traitlets.Unicode()).tag(sync=True)
    relevance = traitlets.Dict(value_trait=traitlets.Float(), key_trait=traitlets.Unicode()).tag(
        sync=True)
    titles = traitlets.Dict().tag(sync=True)
    #: Computed in Python on every change (:func:`~ragmetrics.widgets.pr_model.pr_view`).
    view = traitlets.Dict().tag(sync=True)
    #: The chunk the learner moved last (sent by the browser with each new ``order``).
    moved = traitlets.Unicode("").tag(sync=True)
    #: A press of the "Reset" button, from the browser: ``{"click": n}``.
    reset_request = traitlets.Dict().tag(sync=True)

    def __init__(self, retrieved, relevant, *, titles=None):
        order, relevance, titles = normalise_board_input(retrieved, relevant, titles)
        super().__init__(order=order, relevance={d: float(g) for d, g in relevance.items()},
                         titles=titles)
        self._start = list(order)
        self._resetting = False
        self._previous, self._previous_order = None, list(order)
        self._recompute()
        self.observe(self._recompute, names=["order"])
        self.observe(self._on_reset_request, names=["reset_request"])

    @classmethod
    def from_example(cls, name: str, depth: int | None = None) -> PrecisionRecallExplorer:
        """One of the article's examples, its ranking cut to ``depth`` chunks if given."""
        ex = load_example(name)
        ranking = ex.retrieved if depth is None else ex.retrieved[:depth]
        return cls(ranking, ex.relevant, titles=ex.titles)

    @classmethod
    def example(cls) -> PrecisionRecallExplorer:
        """The article's k trade-off query, top 10 (four of its five relevant chunks)."""
        return cls.from_example("k_tradeoff", depth=10)

    def state(self) -> pr_model.PrecisionRecallState:
        """A copy of the ranking and golden set, to try moves on without moving this."""
        return pr_model.PrecisionRecallState(self.order, self.relevance)

    @traitlets.validate("order")
    def _valid_order(self, proposal):
        new = list(proposal["value"])
        if self.order and sorted(new) != sorted(self.order):
            raise WidgetValueError(
                f"order must be a permutation of the chunks {sorted(self.order)!r}, got {new!r}")
        return new

    def move(self, doc_id: str, to_rank: int) -> None:
        """Move ``doc_id`` to 1-based ``to_rank``, as the buttons and keys do."""
        order = move(self.order, str(doc_id), to_rank)
        self.moved = str(doc_id)
        self.order = order

    def reset(self) -> None:
        """Put back the starting order (the "Reset" button)."""
        self.moved = ""
        if self.order == self._start:
            self.announcement = f"already in its starting order; {pr_model.pr_summary(self.view)}"
            return
        self._resetting = True
        self.order = list(self._start)

    def _recompute(self, change=None) -> None:
        view = pr_model.pr_view(self.order, self.relevance)
        said = ""
        if self._previous is not None:
            if self._resetting:
                self._resetting = False
                said = f"ranking reset to its starting order; {pr_model.pr_summary(view)}"
            else:
                doc = moved_chunk(self._previous_order, self.order, hint=self.moved or None)
                rank = self.order.index(doc) + 1 if doc is not None else None
                said = pr_model.describe_pr_change(self._previous, view, moved=doc, rank=rank)
        self._previous, self._previous_order = view, list(self.order)
        with self.hold_sync():
            self.view = view
            if said:
                self.announcement = said

    def __repr__(self) -> str:
        return (f"PrecisionRecallExplorer(order={self.order!r}, "
                f"relevant={sorted(d for d, g in self.relevance.items() if g > 0)!r})")

    def _static_html(self) -> str:
        """A kernel-free view (GitHub, the book): the points and the summary numbers."""
        e = html.escape
        view = self.view
        rows = "".join(
            f"<tr><td>{p['rank']}</td><td>{e(p['doc_id'])}</td>"
            f"<td>{'relevant' if p['relevant'] else ''}</td><td>{p['recall']:.4f}</td>"
            f"<td>{p['precision']:.4f}</td></tr>" for p in view["points"])
        return ("<div><table><thead><tr><th>rank</th><th>chunk</th><th>golden set</th>"
                f"<th>recall</th><th>precision</th></tr></thead><tbody>{rows}</tbody></table>"
                f"<p>AP = {view['ap']:.4f}, 11-point average = "
                f"{view['eleven_point_average']:.4f}, R-precision = {view['r_precision']:.4f}"
                f"</p></div>")
