"""The widget layer's rules, written once: every ragmetrics widget is built from here.

The rules (README, "Learn"): every widget works by keyboard alone and keeps focus across
redraws, has one polite live region that says what changed, names every control, gives
every plot image a text alternative with its key numbers, reads in JupyterLab's light and
dark themes (its CSS variables) and in Voila and Notebook 7, and fits a 320 px column.

Two ways to build a widget, both from this module:

- :class:`AccessibleWidget`: an anywidget whose front end is the shared kit
  (``kit.js``: root, live region, focus-keeping updates, labelled controls, the ranked
  list) followed by the widget's own ES module, styled by ``theme.css`` followed by its
  own CSS. Pass the file names as class keywords: ``class Board(AccessibleWidget,
  front_end="board.js", style="board.css", root=True)``.
- :class:`~ragmetrics.widgets.controls.ExplorerBox`: a column of controls (the kit's
  controls in :mod:`ragmetrics.widgets.controls`, and standard ipywidgets that are
  already accessible) with one :class:`~ragmetrics.widgets.controls.LiveRegion`.

Every class a learner displays (a *root*) is listed by :func:`root_widgets`, and the
browser tests run axe-core on an instance of each (made by its ``example()``), so a new
widget is checked without anyone adding it to a test.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from ..errors import InputValueError
from ..validation import check_k

__all__ = ["AccessibleWidget", "WidgetValueError", "checked_k", "register_root", "root_widgets"]

_HERE = Path(__file__).parent
KIT_JS = (_HERE / "kit.js").read_text(encoding="utf-8")
THEME_CSS = (_HERE / "theme.css").read_text(encoding="utf-8")

_ROOTS: list[type] = []


class WidgetValueError(InputValueError, traitlets.TraitError):
    """A value a widget cannot take (from Python or from the browser), e.g. ``k=0``.

    Both an :class:`~ragmetrics.errors.InputValueError` (so ``except ValueError`` works)
    and a ``traitlets.TraitError`` (what traitlets and ipywidgets expect from a trait).
    """


def checked_k(proposal) -> int:
    """The cut-off a widget's ``k`` trait is set to, checked as :func:`~ragmetrics.validation.check_k`
    checks it; a :class:`WidgetValueError` (a TraitError too) naming the bad value."""
    try:
        return check_k(proposal["value"])
    except (TypeError, ValueError) as error:
        raise WidgetValueError(str(error)) from None


def register_root(cls: type) -> None:
    """List ``cls`` among the :func:`root_widgets` (it must have an ``example()``)."""
    example = getattr(cls, "example", None)
    if not callable(example):
        raise TypeError(
            f"{cls.__name__} is a root widget, so it needs an example() classmethod: "
            "the browser tests display it to check its accessibility"
        )
    _ROOTS.append(cls)


def root_widgets() -> tuple[type, ...]:
    """Every widget class a learner displays, in the order they were defined.

    >>> import ragmetrics.widgets
    >>> print(", ".join(cls.__name__ for cls in root_widgets()))
    RankingBoard, ChunkingExplorer, ComparisonExplorer, ExerciseWidget, KExplorer, BudgetCalculator, TrapsGallery, PrecisionRecallExplorer
    """
    return tuple(_ROOTS)


class AccessibleWidget(anywidget.AnyWidget):
    """An anywidget on the shared kit and theme (see the module's docstring).

    Class keywords
    --------------
    front_end : str
        The widget's ES module, a file next to this one; the kit is put in front of it.
    style : str, optional
        The widget's CSS, a file next to this one; the theme is put in front of it.
    root : bool, default False
        A widget learners display (it then needs an ``example()`` classmethod), rather
        than a control inside one.
    """

    #: What the widget's live region says (set by Python after each change; "" = nothing).
    announcement = traitlets.Unicode("").tag(sync=True)

    def __init_subclass__(cls, *, front_end=None, style=None, root=False, **kwargs):
        if front_end is not None:
            cls._esm = KIT_JS + "\n" + (_HERE / front_end).read_text(encoding="utf-8")
            own = (_HERE / style).read_text(encoding="utf-8") if style else ""
            cls._css = THEME_CSS + "\n" + own
        super().__init_subclass__(**kwargs)
        if root:
            register_root(cls)

    def _on_reset_request(self, change) -> None:
        """The front end's Reset button: a widget with a ``reset()`` observes its
        ``reset_request`` trait (set to ``{"click": n}``) with this."""
        if isinstance(change["new"], dict) and "click" in change["new"]:
            self.reset()

    def _static_html(self) -> str | None:
        """What a page without a kernel (GitHub, nbviewer, the book) shows, as HTML; None
        keeps anywidget's plain-text stand-in. Widgets override it."""
        return None

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        static = self._static_html()
        if static is None:
            return bundle
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        if data is not None:
            data["text/html"] = static
        return data, metadata
