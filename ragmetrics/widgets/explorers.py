"""Explorers: a k slider, a token-budget calculator and a gallery of metric traps.

Each is a few standard ipywidgets wired to pure functions of ragmetrics. Callbacks write
widget traits (an ``HTML`` value, an ``Image`` value), never to an Output widget, so a
notebook cell that changes a control from Python prints nothing by surprise (and nbval
checks the printed checkpoints, not the widget traffic).
"""

from __future__ import annotations

import html
import io

import ipywidgets as widgets
import matplotlib
from matplotlib.figure import Figure

from ..board import BOARD_METRICS
from ..budget import chunks_that_fit
from ..curves import metrics_over_k
from ..examples import load_example
from ..metrics import recall_at_k
from ..plotting import plot_metrics_over_k, plot_ranking
from ..registry import METRICS
from ..traps import trap_scenarios

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


def _table(rows: list[tuple[str, str]]) -> str:
    cells = "".join(
        f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(a)}</th>"
        f"<td style='font-family:monospace'>{html.escape(b)}</td></tr>"
        for a, b in rows
    )
    return f"<table>{cells}</table>"


class _StaticFallback:
    """A kernel-free ``text/html`` view (GitHub, nbviewer), as ``RankingBoard`` has.

    Without a kernel a widget view cannot render, so a reader would see only the repr; the
    fallback shows what the widget showed when it was displayed (already escaped HTML).
    """

    def _static_html(self) -> str:
        return self.result.value

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, dict):
            data["text/html"] = self._static_html()
        return data


class KExplorer(_StaticFallback, widgets.VBox):
    """Slide k and watch every metric of one query, with the curves over k.

    Examples
    --------
    >>> explorer = KExplorer.from_example("k_tradeoff")
    >>> explorer.slider.value = 5
    >>> print(explorer.text())
    k = 5: Recall@5 = 0.4000  Precision@5 = 0.4000  Hit rate@5 = 1.0000  RR@5 = 1.0000  nDCG@5 = 0.5531
    """

    def __init__(self, retrieved, relevant, k=10, *, max_k=None):
        self.retrieved, self.relevant = list(retrieved), relevant
        depth = max_k or max(len(self.retrieved), k)
        self.curves = metrics_over_k(self.retrieved, relevant, range(1, depth + 1))
        self.slider = widgets.IntSlider(value=k, min=1, max=depth, description="k")
        self.result = widgets.HTML()
        self.image = widgets.Image(format="png", layout=_NATURAL_SIZE)
        super().__init__([self.slider, self.result, self.image])
        self.slider.observe(self._update, names="value")
        self._update()

    @classmethod
    def from_example(cls, name: str, k: int = 10) -> KExplorer:
        ex = load_example(name)
        return cls(ex.retrieved, ex.relevant, k=k)

    def values(self) -> dict[str, float]:
        row = self.curves.loc[self.slider.value]
        return {name: float(row[name]) for name in BOARD_METRICS}

    def labels(self) -> dict[str, str]:
        k = self.slider.value
        return {
            name: ("RR@k" if name == "mrr" else METRICS[name].pretty_name).replace("@k", f"@{k}")
            for name in BOARD_METRICS
        }

    def text(self) -> str:
        labels = self.labels()
        shown = "  ".join(f"{labels[n]} = {v:.4f}" for n, v in self.values().items())
        return f"k = {self.slider.value}: {shown}"

    def _update(self, change=None) -> None:
        labels = self.labels()
        self.result.value = _table([(labels[n], f"{v:.4f}") for n, v in self.values().items()])
        k = self.slider.value
        self.image.value = _png(lambda ax: plot_metrics_over_k(self.curves, ax=ax, mark_k=k))

    def _static_html(self) -> str:
        return f"<div><p>k = {self.slider.value}</p>{self.result.value}</div>"

    def __repr__(self) -> str:
        return f"KExplorer(k={self.slider.value}, depth={self.slider.max})"


class BudgetCalculator(_StaticFallback, widgets.VBox):
    """How many chunks fit the context window, and what recall that k buys.

    Examples
    --------
    >>> calc = BudgetCalculator.from_example("k_tradeoff")
    >>> calc.limit.value = 2000
    >>> print(calc.text())
    5 chunks fit: (2000 - 500 - 0) // 300 = 5. Recall@5 = 0.4000 vs Recall@10 = 0.8000
    """

    def __init__(self, retrieved, relevant, *, context_limit=2000, prompt_tokens=500,
                 chunk_tokens=300, answer_tokens=0, reference_k=10):
        self.retrieved, self.relevant, self.reference_k = list(retrieved), relevant, reference_k
        style = {"description_width": "11em"}
        self.limit = widgets.BoundedIntText(context_limit, min=1, max=2_000_000, step=100,
                                            description="context limit", style=style)
        self.prompt = widgets.BoundedIntText(prompt_tokens, min=0, max=2_000_000,
                                             description="prompt tokens", style=style)
        self.chunk = widgets.BoundedIntText(chunk_tokens, min=1, max=2_000_000,
                                            description="tokens per chunk", style=style)
        self.answer = widgets.BoundedIntText(answer_tokens, min=0, max=2_000_000,
                                             description="answer tokens", style=style)
        self.result = widgets.HTML()
        super().__init__([self.limit, self.prompt, self.chunk, self.answer, self.result])
        for control in (self.limit, self.prompt, self.chunk, self.answer):
            control.observe(self._update, names="value")
        self._update()

    @classmethod
    def from_example(cls, name: str, **kwargs) -> BudgetCalculator:
        ex = load_example(name)
        return cls(ex.retrieved, ex.relevant, **kwargs)

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

    def _update(self, change=None) -> None:
        self.result.value = f"<p>{html.escape(self.text())}</p>"

    def __repr__(self) -> str:
        return f"BudgetCalculator(context_limit={self.limit.value}, k_budget={self.k_budget()})"


class TrapsGallery(_StaticFallback, widgets.VBox):
    """Pick a trap: the one number that looks fine, then all of them side by side.

    Examples
    --------
    >>> gallery = TrapsGallery()
    >>> gallery.choice.value = "high_precision_low_recall"
    >>> print(gallery.text().splitlines()[0])
    High precision, low recall: precision@1 = 1.0000 looks fine; recall@1 = 0.0200 tells the truth
    """

    def __init__(self):
        self.traps = trap_scenarios()
        self.choice = widgets.Dropdown(
            options=[(trap.title, name) for name, trap in self.traps.items()], description="trap"
        )
        self.result = widgets.HTML()
        self.image = widgets.Image(format="png", layout=_NATURAL_SIZE)
        super().__init__([self.choice, self.result, self.image])
        self.choice.observe(self._update, names="value")
        self._update()

    def text(self) -> str:
        trap = self.traps[self.choice.value]
        scores = trap.scores()
        verdict = (
            f"{trap.title}: {trap.looks_fine} = {scores[trap.looks_fine]:.4f} looks fine; "
            f"{trap.reveals} = {scores[trap.reveals]:.4f} tells the truth"
        )
        lines = [
            verdict,
            trap.story,
            "  ".join(f"{name} = {value:.4f}" for name, value in scores.items()),
            trap.lesson,
        ]
        return "\n".join(lines)

    def _update(self, change=None) -> None:
        trap = self.traps[self.choice.value]
        head, story, numbers, lesson = self.text().split("\n")
        self.result.value = "".join(
            f"<p>{html.escape(line)}</p>" for line in (head, story, numbers, lesson)
        )
        self.image.value = _png(
            lambda ax: plot_ranking(trap.retrieved, set(trap.relevant), trap.k, ax=ax),
            figsize=(5.2, 3.4),
        )

    def __repr__(self) -> str:
        return f"TrapsGallery(choice={self.choice.value!r})"
