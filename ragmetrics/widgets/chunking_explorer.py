"""ChunkingExplorer: move chunk boundaries over a document and watch which chunks are relevant."""

from __future__ import annotations

import html

import traitlets

from ..errors import InputValueError
from ..spans.datasets import load_span_dataset
from ..validation import check_k
from . import chunking_model as logic
from .base import AccessibleWidget, WidgetValueError, checked_k

__all__ = ["ChunkingExplorer"]


class ChunkingExplorer(AccessibleWidget, front_end="chunking.js", style="chunking.css",
                       root=True):
    """One document, one question's evidence, and a chunking whose boundaries you move.

    The document is shown as text with the evidence underlined in bold and each chunk
    tinted, overlaps striped; a numbered bar starts each chunk. Drag a bar (or focus it
    and press Left/Right for one token, Page Up/Page Down for ten, Home/End), or slide
    the chunk size and the overlap (which start again from even windows), or the number
    of chunks the retriever returns, and see which chunks are relevant under each rule of
    :func:`ragmetrics.spans.chunk_qrels` and how every metric moves: span recall,
    precision and IoU of the retrieved text, and chunk Recall@k and Precision@k under
    each rule. The retriever is a toy: chunks ranked by how many of the question's words
    they hold (:func:`ragmetrics.widgets.chunking_model.rank_chunks`).

    The "Reset" button (or :meth:`reset`) puts back the starting chunking and k. To try
    a move without changing the explorer (a checkpoint cell), move a copy of its state:
    ``trial = explorer.state(); trial.move_boundary(3, 60); print(trial.describe())``.

    Python holds the state (``cuts``, ``size``, ``overlap``, ``k``) and computes
    ``view`` (:func:`ragmetrics.widgets.chunking_model.chunking_view`) and what the live
    region says (``announcement``) on every change; the browser only draws.

    Parameters
    ----------
    text : str
        The document.
    evidence : sequence of (start, end) or (start, end, grade)
        The question's evidence spans in the document (character offsets, end
        exclusive).
    question : str
        The question (the toy retriever ranks chunks for it).
    size, overlap : int
        The first chunking: windows of ``size`` tokens, ``overlap`` into the next.
    k : int, default 2
        How many chunks the retriever returns.
    title : str, optional
        The document's title, shown above it.
    thresholds : mapping, optional
        The rules' thresholds
        (:data:`~ragmetrics.widgets.chunking_model.DEFAULT_RULE_THRESHOLDS`).

    Examples
    --------
    >>> text = "one two three four five six"
    >>> explorer = ChunkingExplorer(text, [(14, 23)], "four", size=2, k=1)
    >>> explorer.cuts, round(explorer.view["metrics"]["span_iou"], 4)
    ([0, 2, 4], 0.2667)
    >>> explorer.move_boundary(2, 4)  # chunk 2 now starts at token 4: "four"
    >>> explorer.announcement.split("; ")[0], round(explorer.view["metrics"]["span_iou"], 4)
    ('boundary of chunk 2 moved to token 4', 0.4444)
    >>> trial = explorer.state()  # a copy: moving it leaves the explorer as it is
    >>> trial.move_boundary(2, 2)
    >>> trial.cuts, explorer.cuts
    ([0, 1, 4], [0, 3, 4])
    >>> explorer.reset()
    >>> explorer.cuts, explorer.announcement.split("; ")[0]
    ([0, 2, 4], 'explorer reset to its starting chunking')
    """

    text = traitlets.Unicode().tag(sync=True)
    title = traitlets.Unicode().tag(sync=True)
    question = traitlets.Unicode().tag(sync=True)
    #: ``[start, end]`` of every token and of every evidence span (characters).
    tokens = traitlets.List().tag(sync=True)
    evidence = traitlets.List().tag(sync=True)
    #: The chunking: the token where each chunk starts (0 first), and the windows' size
    #: and overlap that the sliders set (moving a slider starts again from even windows).
    cuts = traitlets.List(traitlets.Int()).tag(sync=True)
    size = traitlets.Int(48).tag(sync=True)
    overlap = traitlets.Int(0).tag(sync=True)
    k = traitlets.Int(2).tag(sync=True)
    # Computed in Python on every change; the browser only displays it.
    view = traitlets.Dict().tag(sync=True)
    #: A press of the "Reset" button, from the browser: ``{"click": n}``; Python resets.
    reset_request = traitlets.Dict().tag(sync=True)

    def __init__(self, text, evidence, question, *, size=48, overlap=0, k=2, title="",
                 thresholds=None):
        if not isinstance(text, str) or not text.strip():
            raise InputValueError("the explorer needs a document with some text")
        tokens = logic.document_tokens(text)
        spans = sorted(list(span) for span in evidence)  # numbered in reading order
        if not spans:
            raise InputValueError("the explorer needs at least one evidence span")
        for span in spans:
            if not (len(span) in (2, 3) and 0 <= span[0] < span[1] <= len(text)):
                raise InputValueError(f"evidence span {span!r} is not (start, end) within "
                                      f"the document's {len(text)} characters")
        self._thresholds = dict(logic.DEFAULT_RULE_THRESHOLDS if thresholds is None
                                else thresholds)
        self._state = None
        self._resetting = False
        self._quiet = False
        super().__init__(text=text, title=str(title), question=str(question),
                         tokens=[list(t) for t in tokens], evidence=spans,
                         size=check_k(size, name="size"), overlap=overlap, k=check_k(k),
                         cuts=logic.window_cuts(len(tokens), size, overlap))
        self._start = self.state()
        self._recompute()
        self.observe(self._changed, names=["cuts", "size", "overlap", "k"])
        self.observe(self._on_reset_request, names=["reset_request"])

    @classmethod
    def from_dataset(cls, name: str, query_id: str, doc_id: str | None = None, *,
                     evidence: str = "sentences", **options) -> ChunkingExplorer:
        """One question of a span data set (:func:`ragmetrics.load_span_dataset`) and its
        evidence in one document (by default the first that holds some)."""
        data = load_span_dataset(name)
        spans = data.evidence[evidence]
        spans = spans[(spans["query_id"] == query_id) & spans["doc_id"].notna()]
        if doc_id is None:
            if spans.empty:
                raise InputValueError(f"question {query_id!r} has no evidence in {name!r}")
            doc_id = spans["doc_id"].iloc[0]
        spans = spans[spans["doc_id"] == doc_id]
        if spans.empty:
            raise InputValueError(f"question {query_id!r} has no evidence in document "
                                  f"{doc_id!r}")
        document = data.documents.set_index("doc_id").loc[doc_id]
        question = data.questions.set_index("query_id").loc[query_id, "question"]
        return cls(document["text"], [(int(s), int(e), float(g)) for s, e, g in
                                      zip(spans["start"], spans["end"], spans["relevance"],
                                          strict=True)],
                   question, title=document.get("title", doc_id), **options)

    @classmethod
    def example(cls) -> ChunkingExplorer:
        """The help centre's page on Enterprise contracts, and "what happens if we go over
        our enterprise seat count" (two evidence sentences), in windows of 48 tokens."""
        return cls.from_dataset("support_demo", "q69", "enterprise-contracts")

    # -- validation of what the browser (or Python) sends ------------------------------

    def _refuse(self, error: Exception):
        raise WidgetValueError(str(error)) from None

    @traitlets.validate("cuts")
    def _valid_cuts(self, proposal):
        try:
            return logic.check_cuts(list(proposal["value"]), len(self.tokens))
        except (TypeError, ValueError) as error:
            self._refuse(error)

    @traitlets.validate("size")
    def _valid_size(self, proposal):
        size = proposal["value"]
        if not 1 <= size <= len(self.tokens):
            raise WidgetValueError(f"size must be between 1 and the document's "
                                   f"{len(self.tokens)} tokens, got {size}")
        return size

    @traitlets.validate("overlap")
    def _valid_overlap(self, proposal):
        overlap = proposal["value"]
        if not 0 <= overlap < self.size:
            raise WidgetValueError(f"overlap must be between 0 and size - 1 = "
                                   f"{self.size - 1}, got {overlap}")
        return overlap

    @traitlets.validate("k")
    def _valid_k(self, proposal):
        return checked_k(proposal)

    # -- what the controls do, callable from Python (checkpoint cells, tests) ----------

    def move_boundary(self, chunk: int, token: int) -> None:
        """Start chunk number ``chunk`` (2, 3, ...) at token number ``token`` (1-based),
        as a drag of its bar does."""
        try:
            cuts = logic.moved_cuts(self.cuts, chunk, token)
        except (TypeError, ValueError) as error:
            self._refuse(error)
        self.cuts = cuts

    def set_windows(self, size: int, overlap: int = 0) -> None:
        """Even windows of ``size`` tokens, ``overlap`` into the next (the two sliders)."""
        with self.hold_trait_notifications():
            self.size, self.overlap = size, overlap

    def describe(self) -> str:
        """What the explorer shows, as text (for checkpoint cells that nbval checks)."""
        return logic.describe_chunking(self.view, self.text)

    def state(self) -> logic.ChunkingState:
        """A copy of the explorer's chunking, to try moves on without moving the explorer."""
        return logic.ChunkingState(self.text, self.evidence, self.question, self.cuts,
                                   size=self.size, overlap=self.overlap, k=self.k,
                                   thresholds=self._thresholds)

    def starting_state(self) -> logic.ChunkingState:
        """A copy of the chunking the explorer was made with (what :meth:`reset` puts back)."""
        return self._start.copy()

    def reset(self) -> None:
        """Put back the starting chunking and k (the explorer's "Reset" button)."""
        start = self._start
        # One recomputation, once everything is back; the live region says "reset", not
        # the moves that undoing it took.
        self._quiet = True
        try:
            with self.hold_trait_notifications():
                self.size, self.overlap = start.size, start.overlap
                self.cuts, self.k = list(start.cuts), start.k
        finally:
            self._quiet = False
        self._recompute(reset=True)

    # -- wiring -------------------------------------------------------------------------

    def _changed(self, change) -> None:
        if self._quiet:
            return
        if change["name"] in ("size", "overlap"):
            cuts = logic.window_cuts(len(self.tokens), self.size, self.overlap)
            if cuts != self.cuts:
                self._resetting = True
                try:
                    self.cuts = cuts
                finally:
                    self._resetting = False
        elif self._resetting:
            return
        self._recompute()

    def _recompute(self, *, reset=False) -> None:
        view = logic.chunking_view(self.text, self.tokens, self.cuts, self.overlap,
                                   self.evidence, self.question, self.k,
                                   thresholds=self._thresholds)
        state = {"cuts": list(self.cuts), "size": self.size, "overlap": self.overlap,
                 "k": self.k, "view": view}
        if reset:
            said = logic.describe_reset(view)
        elif self._state is None:
            said = ""
        else:
            said = logic.describe_change(self._state, state)
        self._state = state
        # One message to the browser: the numbers and what the live region says of them.
        with self.hold_sync():
            self.view = view
            if said:
                self.announcement = said

    def __repr__(self) -> str:
        return (f"ChunkingExplorer({len(self.tokens)} tokens, {len(self.cuts)} chunks: "
                f"size={self.size}, overlap={self.overlap}, cuts={self.cuts!r}, k={self.k})")

    def _static_html(self) -> str:
        return "<pre class='rmc-static'>" + html.escape(self.describe()) + "</pre>"
