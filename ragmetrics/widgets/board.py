"""RankingBoard: drag chunks between ranks, toggle relevance, slide k, watch the metrics."""

from __future__ import annotations

import traitlets

from ..errors import InputValueError
from ..plotting import metric_style
from ..teaching.examples import load_example
from ..validation import check_k
from . import board_model as logic
from .base import AccessibleWidget, WidgetValueError, checked_k

# matplotlib's line styles as SVG dash patterns, for the board's own plot.
_SVG_DASH = {"-": "", "--": "6 3", ":": "1.5 2.5", "-.": "6 2.5 1.5 2.5"}


# The backgrounds of JupyterLab's (and Voila's) light and dark themes (--jp-layout-color0).
_THEME_BACKGROUNDS = {"light": "#FFFFFF", "dark": "#111111"}


def _series_styles() -> dict[str, dict[str, str]]:
    """Each metric's colour (as ragmetrics.plotting draws it), its colours on the light and
    the dark theme (at least 3:1 against the background), dash and marker."""
    styles = {}
    for name in (*logic.BOARD_METRICS, *logic.FACET_METRICS):
        style = metric_style(name)
        themed = {theme: logic.legible_colour(style["color"], background)
                  for theme, background in _THEME_BACKGROUNDS.items()}
        styles[name] = {"color": style["color"], **themed,
                        "dash": _SVG_DASH[style["linestyle"]], "marker": style["marker"]}
    return styles


class RankingBoard(AccessibleWidget, front_end="board.js", style="board.css", root=True):
    """A ranked list of chunks whose order, relevance and cut-off the learner can change.

    Drag a chunk to another rank (or use its up / down / to-top buttons, or Alt+Arrow keys),
    click a chunk to toggle it relevant (or cycle its grade), move k with the slider, and
    Recall@k, Precision@k, hit rate, reciprocal rank and nDCG@k update at once, with the
    arithmetic of nDCG and a small metrics-over-k plot.

    Keys: on a chunk, Up/Down go to the previous/next chunk, Home/End to the first/last,
    Alt+Up/Alt+Down move it one rank, Enter or Space toggles its relevance; Tab reaches
    its relevance button and its to-top, up and down buttons (Enter or Space presses
    them); the cut-off slider takes Left/Down and Right/Up, Home and End, and goes 10
    past the end of the list (``k_max``), where precision keeps dividing by k. The
    "Reset" button (or :meth:`reset`) puts back the starting order, relevance and k.
    Focus stays on the chunk or button through every move, and the live region says what
    changed.

    To try a move without changing the board (a checkpoint cell), move a copy of its
    state: ``trial = board.state(); trial.move("19", 5); print(trial.describe())``.

    Python holds the state: ``order`` (ids), ``relevance`` (id -> grade, including relevant
    ids that were not retrieved), ``k``, ``metrics`` (name -> value, recomputed by
    ragmetrics on every change) and ``view`` (what the board draws:
    :func:`~ragmetrics.widgets.board_model.board_view`, and ``changes``, each metric's
    change since the last move, ``nDCG@10 0.87 → 0.97``:
    :func:`~ragmetrics.widgets.board_model.metric_changes`); ``announcement`` is what the
    live region said last (:func:`ragmetrics.widgets.board_model.describe_change`).

    Parameters
    ----------
    retrieved : list of ids
        The ranking, best first (str or int ids; shown as text).
    relevant : set of ids or mapping id -> grade
        The golden set.
    k : int, default 10
        The cut-off.
    titles : mapping id -> str, optional
        A title per chunk, shown as plain text (never as HTML).
    gain : {"linear", "exponential"}, default "linear"
        nDCG's gain.
    facets : mapping id -> list of str, optional
        The facets (subtopics) each chunk answers, ``{"seats-add": ["add-person",
        "prorated-charge"]}`` (:meth:`from_facets` reads them from subtopic judgments).
        Each chunk then shows its facets as labels, each in its own colour (3:1 against
        the light and the dark theme; the name is always written), and the metrics add
        alpha-nDCG@k and subtopic recall@k (:data:`~ragmetrics.widgets.board_model.FACET_METRICS`),
        over the facets of the chunks marked relevant.

    Examples
    --------
    >>> board = RankingBoard(["a", "x", "b"], {"a", "b"}, k=2)
    >>> round(board.metrics["recall"], 3)
    0.5
    >>> board.move("b", 2)          # what a drag does
    >>> board.order, board.metrics["recall"]
    (['a', 'b', 'x'], 1.0)
    >>> board.announcement
    'chunk b moved to rank 2, now above the cut-off; Recall@2 0.50 → 1.00, Precision@2 0.50 → 1.00, nDCG@2 0.61 → 1.00'
    >>> board.view["changes"]["ndcg"]["text"]  # the readout beside nDCG@2's value
    '0.61 → 1.00'
    >>> board.reset()
    >>> board.order, board.announcement
    (['a', 'x', 'b'], 'board reset to its starting state; Recall@2 0.50, Precision@2 0.50, Hit rate@2 1.00, RR@2 1.00, nDCG@2 0.61')
    >>> board.k_max  # the slider's end: 10 past the 3 chunks
    13

    Chunks with facets: a chunk that repeats a covered facet, moved up, lowers alpha-nDCG
    while recall and nDCG stay:

    >>> board = RankingBoard(["a", "b", "c"], {"a", "b", "c"}, k=3,
    ...                      facets={"a": ["price"], "b": ["how"], "c": ["price"]})
    >>> board.move("c", 2)
    >>> board.announcement
    'chunk c moved to rank 2; alpha-nDCG@3 1.00 → 0.97'
    """

    order = traitlets.List(traitlets.Unicode()).tag(sync=True)
    relevance = traitlets.Dict(value_trait=traitlets.Float(), key_trait=traitlets.Unicode()).tag(
        sync=True
    )
    titles = traitlets.Dict().tag(sync=True)
    k = traitlets.Int(10).tag(sync=True)
    max_grade = traitlets.Int(1).tag(sync=True)
    gain = traitlets.Unicode("linear").tag(sync=True)
    # Computed in Python on every change; the browser only displays them.
    metrics = traitlets.Dict().tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    #: The chunk the learner moved last: the browser sends it with each new ``order``
    #: (it tells which of two swapped neighbours moved).
    moved = traitlets.Unicode("").tag(sync=True)
    #: Colour, dash and marker of each metric's curve (as in ragmetrics.plotting), and its
    #: colours on the light and the dark theme (``light``, ``dark``: 3:1 against the page).
    series = traitlets.Dict().tag(sync=True)
    #: A click on a chunk's relevance, from the browser: ``{"doc_id": ..., "click": n}``
    #: (n counts the clicks, so two clicks on one chunk are two changes). Python applies
    #: it (:meth:`toggle`): the grade rule stays here, and the trait syncs like the others.
    toggle_request = traitlets.Dict().tag(sync=True)
    #: A press of the "Reset" button, from the browser: ``{"click": n}``; Python resets.
    reset_request = traitlets.Dict().tag(sync=True)
    #: The cut-off slider's last value (:func:`~ragmetrics.widgets.board_model.slider_max`).
    k_max = traitlets.Int(20).tag(sync=True)
    #: Each chunk's facets (id -> names; empty: a board without facets), and each facet's
    #: colours on the light and the dark theme (name -> ``{"light", "dark"}``).
    facets = traitlets.Dict().tag(sync=True)
    facet_colours = traitlets.Dict().tag(sync=True)

    def __init__(self, retrieved, relevant, k=10, titles=None, *, gain="linear", facets=None):
        order, relevance, titles = logic.normalise_board_input(retrieved, relevant, titles)
        k = check_k(k)
        facets = logic.check_facets(facets or {}, [*order, *relevance])
        max_grade = max([1, *(int(g) for g in relevance.values() if g > 0)])
        super().__init__(
            order=order,
            relevance={d: float(g) for d, g in relevance.items()},
            titles=titles,
            k=k,
            max_grade=max_grade,
            gain=gain,
            series=_series_styles(),
            k_max=logic.slider_max(len(order), k),
            facets=facets,
            facet_colours=logic.facet_colours(facets),
        )
        self._start = logic.BoardState(self.order, self.relevance, k, gain=gain,
                                       max_grade=max_grade, facets=facets)
        self._state = None
        self._quiet = False
        self._recompute()
        self.observe(self._recompute, names=["order", "relevance", "k", "gain"])
        self.observe(self._on_toggle_request, names=["toggle_request"])
        self.observe(self._on_reset_request, names=["reset_request"])

    @classmethod
    def from_example(cls, name: str, k: int | None = None) -> RankingBoard:
        """Open one of the article's examples: ``"refund_policy"``, ``"cancellation"``,
        ``"k_tradeoff"`` (or ``"precision_trap"``)."""
        ex = load_example(name)
        default_k = {"refund_policy": 5, "cancellation": 10, "k_tradeoff": 10}.get(name, 1)
        return cls(ex.retrieved, ex.relevant, k=default_k if k is None else k, titles=ex.titles)

    @classmethod
    def from_facets(cls, retrieved, judgments, query_id, *, relevant=None, k: int = 10,
                    titles=None, gain: str = "linear") -> RankingBoard:
        """A board whose chunks carry the facets that subtopic judgments give them.

        Parameters
        ----------
        retrieved : list of ids
            The ranking, best first.
        judgments : pandas.DataFrame, iterable of 4-tuples or SubtopicJudgments
            Subtopic judgments (``query_id``, ``subtopic``, ``doc_id``, ``relevance`` or
            ``judgment``), as :func:`ragmetrics.diversity.subtopic_judgments` reads them.
        query_id : str
            The query whose facets to show.
        relevant : set of ids or mapping id -> grade, optional
            The golden set (for recall and nDCG); by default every chunk with a facet,
            grade 1.
        k, titles, gain
            As for the board.

        Examples
        --------
        >>> facets = [("q1", "price", "a", 1), ("q1", "how", "b", 1), ("q1", "price", "c", 1)]
        >>> board = RankingBoard.from_facets(["a", "c", "x", "b"], facets, "q1", k=3)
        >>> board.facets["a"], round(board.metrics["strec"], 4)
        (['price'], 0.5)
        """
        facets = logic.facets_of_query(judgments, query_id)
        if relevant is None:
            relevant = set(facets)
        return cls(retrieved, relevant, k=k, titles=titles, gain=gain, facets=facets)

    @classmethod
    def example(cls) -> RankingBoard:
        """The article's cancellation query at k = 10 (what notebook 06 starts from)."""
        return cls.from_example("cancellation")

    # -- validation of what the browser (or Python) sends ------------------------------

    @traitlets.validate("order")
    def _valid_order(self, proposal):
        new = list(proposal["value"])
        if self.order and sorted(new) != sorted(self.order):
            raise WidgetValueError(
                f"order must be a permutation of the board's chunks {sorted(self.order)!r}, "
                f"got {new!r}"
            )
        return new

    @traitlets.validate("k")
    def _valid_k(self, proposal):
        return checked_k(proposal)

    # -- what the buttons do, callable from Python (checkpoint cells, tests) -----------

    def move(self, doc_id: str, to_rank: int) -> None:
        """Move ``doc_id`` to 1-based ``to_rank``, as a drag and drop does."""
        order = logic.move(self.order, str(doc_id), to_rank)
        self.moved = str(doc_id)
        self.order = order

    def toggle(self, doc_id: str) -> None:
        """Click on a chunk: toggle relevant, or cycle its grade 0 -> 1 -> ... -> max -> 0."""
        doc_id = str(doc_id)
        if doc_id not in self.order:
            raise InputValueError(f"{doc_id!r} is not on the board; ids are {self.order!r}")
        grade = logic.cycle_grade(self.relevance.get(doc_id, 0.0), self.max_grade)
        self.relevance = {**self.relevance, doc_id: float(grade)}

    def describe(self) -> str:
        """What the board shows, as text (for checkpoint cells that nbval checks)."""
        return logic.describe_board(self.order, self.relevance, self.k, self.view, self.facets)

    def state(self) -> logic.BoardState:
        """A copy of the board's state, to try moves on without moving the board."""
        return logic.BoardState(self.order, self.relevance, self.k, gain=self.gain,
                                max_grade=self.max_grade, facets=self.facets)

    def starting_state(self) -> logic.BoardState:
        """A copy of the state the board was made with (what :meth:`reset` puts back)."""
        return self._start.copy()

    def reset(self) -> None:
        """Put back the starting order, relevance and k (the board's "Reset" button)."""
        start = self._start
        # One recomputation, once everything is back; the live region says "reset",
        # not the moves that undoing it took.
        self._quiet = True
        try:
            self.moved = ""
            self.order = list(start.order)
            self.relevance = dict(start.relevance)
            self.k = start.k
        finally:
            self._quiet = False
        self._recompute(reset=True)

    # -- wiring -------------------------------------------------------------------------

    def _recompute(self, change=None, *, reset=False) -> None:
        if self._quiet:
            return
        view = logic.board_view(self.order, self.relevance, self.k, gain=self.gain,
                                facets=self.facets or None)
        state = {"order": list(self.order), "relevance": dict(self.relevance), "k": self.k,
                 "gain": self.gain, "max_grade": self.max_grade, "metrics": view["metrics"]}
        if reset:
            said = logic.describe_reset(view["metrics"], self.k)
        elif self._state is None:
            said = ""
        else:
            said = logic.describe_change(self._state, state, moved=self.moved or None)
        # The readout's "0.87 → 0.97": since the last change (none for the first state).
        view["changes"] = logic.metric_changes(self._state, state)
        self._state = state
        # One message to the browser: the numbers and what the live region says of them.
        with self.hold_sync():
            self.k_max = logic.slider_max(len(self.order), self.k)
            self.view = view
            self.metrics = view["metrics"]
            if said:
                self.announcement = said

    def _on_toggle_request(self, change) -> None:
        request = change["new"]
        if isinstance(request, dict) and "doc_id" in request:
            self.toggle(request["doc_id"])

    def __repr__(self) -> str:
        relevant = {d: g for d, g in self.relevance.items() if g > 0}
        return f"RankingBoard(order={self.order!r}, relevant={relevant!r}, k={self.k})"

    def _static_html(self) -> str:
        return logic.static_html(self.order, self.relevance, self.k, self.titles, self.view,
                                 self.facets or None)
