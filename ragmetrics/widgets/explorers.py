"""Explorers: a k slider, a token-budget calculator and a gallery of metric traps.

Each is a column of controls (:mod:`ragmetrics.widgets.controls`, and standard ipywidgets
that are already accessible) wired to pure functions of ragmetrics. Callbacks write
widget traits (an ``HTML`` value, a plot with its text alternative, the live region's
announcement), never to an Output widget, so a notebook cell that changes a control from
Python prints nothing by surprise (and nbval checks the printed checkpoints, not the
widget traffic).
"""

from __future__ import annotations

import html
import io

import ipywidgets as widgets
import matplotlib
from matplotlib.figure import Figure

from ..evaluation.curves import metrics_over_k
from ..metrics.reference import recall_at_k
from ..metrics.registry import MetricSpec, metric_info
from ..plotting import plot_metrics_over_k, plot_ranking
from ..teaching.budget import chunks_that_fit
from ..teaching.examples import load_example
from ..teaching.traps import trap_scenarios
from ..validation import check_k
from .board_model import BOARD_METRICS, describe_curves, describe_metrics, describe_ranking
from .controls import ExplorerBox, PlotImage, Select, Slider

__all__ = ["BudgetCalculator", "KExplorer", "TrapsGallery"]


def _png(draw, figsize=(5.2, 2.8)) -> bytes:
    """Render a plot helper to PNG bytes without pyplot (no global figure state)."""
    figure = Figure(figsize=figsize, dpi=110)
    draw(figure.add_subplot())
    figure.tight_layout()
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "ragmetrics"}):
        # "tight", as the notebook's inline backend does: labels drawn outside the axes (the
        # "relevant, never retrieved" note of plot_ranking) are kept, not cut off.
        figure.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()


# A VBox stretches its children to its width; an image keeps its own size (no blurry upscale).
_NATURAL_SIZE = {"align_self": "flex-start", "max_width": "100%"}
# Number fields that shrink to a narrow (320 px) column instead of overflowing it.
_FIELD_LAYOUT = {"width": "auto", "max_width": "100%"}


def _table(rows: list[tuple[str, str]]) -> str:
    cells = "".join(
        f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(a)}</th>"
        f"<td style='font-family:monospace'>{html.escape(b)}</td></tr>"
        for a, b in rows
    )
    return f"<table>{cells}</table>"


class KExplorer(ExplorerBox):
    """Slide k and watch every metric of one query, with the curves over k.

    Keys: the slider takes Left/Down and Right/Up (one step), Home and End.

    Examples
    --------
    >>> explorer = KExplorer.from_example("k_tradeoff")
    >>> explorer.slider.value = 5
    >>> print(explorer.text())
    k = 5: Recall@5 = 0.4000  Precision@5 = 0.4000  Hit rate@5 = 1.0000  RR@5 = 1.0000  nDCG@5 = 0.5531
    >>> explorer.status.announcement
    'cut-off k = 5; Recall@5 0.40, Precision@5 0.40, Hit rate@5 1.00, RR@5 1.00, nDCG@5 0.55'
    """

    def __init__(self, retrieved, relevant, k=10, *, max_k=None):
        self.retrieved, self.relevant = list(retrieved), relevant
        k = check_k(k)
        depth = check_k(max_k, name="max_k") if max_k is not None else max(len(self.retrieved), k)
        self.curves = metrics_over_k(self.retrieved, relevant, range(1, depth + 1))
        self.slider = Slider(value=k, min=1, max=depth, description="cut-off k")
        self.result = widgets.HTML()
        self.image = PlotImage(layout=_NATURAL_SIZE)
        super().__init__([self.slider, self.result, self.image])
        self.slider.observe(self._update, names="value")
        self._update()

    @classmethod
    def from_example(cls, name: str, k: int = 10) -> KExplorer:
        ex = load_example(name)
        return cls(ex.retrieved, ex.relevant, k=k)

    @classmethod
    def example(cls) -> KExplorer:
        """The article's k trade-off query (what notebook 05 shows)."""
        return cls.from_example("k_tradeoff")

    def values(self) -> dict[str, float]:
        row = self.curves.loc[self.slider.value]
        return {name: float(row[name]) for name in BOARD_METRICS}

    def labels(self) -> dict[str, str]:
        k = self.slider.value
        return {name: MetricSpec(metric_info(name).name, k).pretty_name for name in BOARD_METRICS}

    def text(self) -> str:
        labels = self.labels()
        shown = "  ".join(f"{labels[n]} = {v:.4f}" for n, v in self.values().items())
        return f"k = {self.slider.value}: {shown}"

    def _update(self, change=None) -> None:
        labels = self.labels()
        k = self.slider.value
        self.result.value = _table([(labels[n], f"{v:.4f}") for n, v in self.values().items()])
        curve = {"k": self.curves.index.tolist()} | {
            name: self.curves[name].tolist() for name in BOARD_METRICS
        }
        self.image.show(
            _png(lambda ax: plot_metrics_over_k(self.curves, ax=ax, mark_k=k)),
            describe_curves(curve, k),
        )
        if change is not None:
            self.announce(f"cut-off k = {k}; {describe_metrics(self.values(), k)}")

    def _static_html(self) -> str:
        return f"<div><p>k = {self.slider.value}</p>{self.result.value}</div>"

    def __repr__(self) -> str:
        return f"KExplorer(k={self.slider.value}, depth={self.slider.max})"


class BudgetCalculator(ExplorerBox):
    """How many chunks fit the context window, and what recall that k buys.

    Keys: each number field takes digits, and Up/Down to step by one.

    Examples
    --------
    >>> calc = BudgetCalculator.from_example("k_tradeoff")
    >>> calc.limit.value = 2000
    >>> print(calc.text())
    5 chunks fit: (2000 - 500 - 0) // 300 = 5. Recall@5 = 0.4000 vs Recall@10 = 0.8000
    >>> calc.limit.value = 1700
    >>> calc.status.announcement
    '4 chunks fit; Recall@4 0.40 vs Recall@10 0.80'
    """

    def __init__(self, retrieved, relevant, *, context_limit=2000, prompt_tokens=500,
                 chunk_tokens=300, answer_tokens=0, reference_k=10):
        self.retrieved, self.relevant = list(retrieved), relevant
        self.reference_k = check_k(reference_k, name="reference_k")
        style = {"description_width": "11em"}
        # step 1: any whole number of tokens is a valid entry (with step=100 and min=1, a
        # browser calls 2000 an invalid value, and a screen reader says so).
        field = {"max": 2_000_000, "style": style, "layout": _FIELD_LAYOUT}
        self.limit = widgets.BoundedIntText(context_limit, min=1, description="context limit",
                                            **field)
        self.prompt = widgets.BoundedIntText(prompt_tokens, min=0, description="prompt tokens",
                                             **field)
        self.chunk = widgets.BoundedIntText(chunk_tokens, min=1, description="tokens per chunk",
                                            **field)
        self.answer = widgets.BoundedIntText(answer_tokens, min=0, description="answer tokens",
                                             **field)
        self.result = widgets.HTML()
        super().__init__([self.limit, self.prompt, self.chunk, self.answer, self.result])
        for control in (self.limit, self.prompt, self.chunk, self.answer):
            control.observe(self._update, names="value")
        self._update()

    @classmethod
    def from_example(cls, name: str, **kwargs) -> BudgetCalculator:
        ex = load_example(name)
        return cls(ex.retrieved, ex.relevant, **kwargs)

    @classmethod
    def example(cls) -> BudgetCalculator:
        """The article's k trade-off query with its 2,000-token budget (notebook 05)."""
        return cls.from_example("k_tradeoff")

    def k_budget(self) -> int:
        return chunks_that_fit(self.limit.value, prompt_tokens=self.prompt.value,
                               chunk_tokens=self.chunk.value, answer_tokens=self.answer.value)

    def text(self) -> str:
        k = self.k_budget()
        ref = self.reference_k
        formula = (f"({self.limit.value} - {self.prompt.value} - {self.answer.value}) "
                   f"// {self.chunk.value} = {k}")
        if k == 0:
            return f"No chunk fits: {formula}. Recall@{ref} = " \
                   f"{recall_at_k(self.retrieved, self.relevant, ref):.4f} is out of reach"
        return (f"{k} chunks fit: {formula}. Recall@{k} = "
                f"{recall_at_k(self.retrieved, self.relevant, k):.4f} vs Recall@{ref} = "
                f"{recall_at_k(self.retrieved, self.relevant, ref):.4f}")

    def summary(self) -> str:
        """What the live region says: the budget and the recall it buys, at 2 decimals."""
        k, ref = self.k_budget(), self.reference_k
        reference = f"Recall@{ref} {recall_at_k(self.retrieved, self.relevant, ref):.2f}"
        if k == 0:
            return f"no chunk fits; {reference} is out of reach"
        fits = f"{k} chunk{'s' if k != 1 else ''} fit{'s' if k == 1 else ''}"
        return (f"{fits}; Recall@{k} {recall_at_k(self.retrieved, self.relevant, k):.2f} "
                f"vs {reference}")

    def _update(self, change=None) -> None:
        self.result.value = f"<p>{html.escape(self.text())}</p>"
        if change is not None:
            self.announce(self.summary())

    def _static_html(self) -> str:
        return self.result.value

    def __repr__(self) -> str:
        return f"BudgetCalculator(context_limit={self.limit.value}, k_budget={self.k_budget()})"


class TrapsGallery(ExplorerBox):
    """A quiz on the traps: a ranking and the number a team reported; which metric reveals
    the problem?

    The trap's name is hidden until the learner has found the metric: first the ranking and
    the reported number, then a choice of the other metrics at the same k, feedback on each
    choice (a wrong one says what that metric shows: it looks fine too, or it is not the
    one), and, once the right metric is picked, the trap's name, every number and the
    lesson.

    Keys: both dropdowns take Up/Down (also inside JupyterLab, where arrow keys would
    otherwise move the notebook's cell selection), Home and End.

    Examples
    --------
    >>> gallery = TrapsGallery()
    >>> gallery.choice.value = "high_precision_low_recall"
    >>> print(gallery.text())
    Trap 3: the team reports precision@1 = 1.0000. Which metric reveals the problem?
    >>> gallery.answer.value = "hit_rate@1"
    >>> print(gallery.text().splitlines()[-1])
    Not this one: hit_rate@1 = 1.0000 looks fine too. Try another.
    >>> gallery.answer.value = "recall@1"
    >>> print(gallery.text().splitlines()[1])
    Right: recall@1 = 0.0200. This was "High precision, low recall".
    >>> print(gallery.image.alt)
    Ranking of 1 chunk, cut-off after rank 1. Relevant at rank 1; 1 of the top 1 is relevant. 49 relevant chunks never retrieved.
    """

    def __init__(self):
        self.traps = trap_scenarios()
        self._numbers = {name: i for i, name in enumerate(self.traps, 1)}
        self.choice = Select(
            options=[(f"Trap {i}", name) for name, i in self._numbers.items()],
            description="trap",
        )
        self.answer = Select(options=self._answer_options(self.choice.value),
                             description="which metric reveals it?")
        self.result = widgets.HTML()
        self.image = PlotImage(layout=_NATURAL_SIZE)
        super().__init__([self.choice, self.result, self.answer, self.image])
        self.choice.observe(self._new_trap, names="value")
        self.answer.observe(self._update, names="value")
        self._new_trap()

    @classmethod
    def example(cls) -> TrapsGallery:
        """The gallery as notebook 07 shows it."""
        return cls()

    def _answer_options(self, name: str) -> list[tuple[str, str]]:
        trap = self.traps[name]
        others = [m for m in trap.metric_names if m != trap.looks_fine]
        return [("choose a metric", ""), *((m, m) for m in others)]

    @property
    def found(self) -> bool:
        """Whether the learner has picked the metric that reveals the current trap."""
        return self.answer.value == self.traps[self.choice.value].reveals

    def text(self) -> str:
        """What the gallery shows: the question, then the feedback on the choice made."""
        trap = self.traps[self.choice.value]
        scores = trap.scores()
        question = (f"Trap {self._numbers[trap.name]}: the team reports {trap.looks_fine} = "
                    f"{scores[trap.looks_fine]:.4f}. Which metric reveals the problem?")
        lines = [question]
        picked = self.answer.value
        if not picked:
            return lines[0]
        if self.found:
            lines += [
                (f"Right: {picked} = {scores[picked]:.4f}. This was \"{trap.title}\"."),
                trap.story,
                "  ".join(f"{name} = {value:.4f}" for name, value in scores.items()),
                trap.lesson,
            ]
        elif scores[picked] >= 0.5:
            lines.append(f"Not this one: {picked} = {scores[picked]:.4f} looks fine too. "
                         "Try another.")
        else:
            lines.append(f"Not this one: {picked} = {scores[picked]:.4f} is low, but another "
                         "metric shows what is missing more directly. Try another.")
        return "\n".join(lines)

    def _new_trap(self, change=None) -> None:
        self.answer.value = ""
        self.answer.options = [list(pair) for pair in self._answer_options(self.choice.value)]
        trap = self.traps[self.choice.value]
        self.image.show(
            _png(lambda ax: plot_ranking(trap.retrieved, set(trap.relevant), trap.k, ax=ax),
                 figsize=(5.2, 3.4)),
            describe_ranking(trap.retrieved, dict.fromkeys(trap.relevant, 1), trap.k),
        )
        self._update(change)

    def _update(self, change=None) -> None:
        self.result.value = "".join(f"<p>{html.escape(line)}</p>"
                                    for line in self.text().split("\n"))
        if change is not None:
            self.announce(self.text().split("\n")[-1])

    def _static_html(self) -> str:
        return self.result.value

    def __repr__(self) -> str:
        return f"TrapsGallery(choice={self.choice.value!r}, answer={self.answer.value!r})"
