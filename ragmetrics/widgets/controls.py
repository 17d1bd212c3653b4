"""The kit's controls, and the box that makes a widget of them.

Standard ipywidgets fall short in three places this project needs: ``IntSlider``'s
handle has no accessible name, ``Image`` has no text alternative, and in JupyterLab the
arrow keys on a ``Dropdown`` move the notebook's cell selection. These controls are
native HTML elements (``<input type="range">`` with a ``<label>``, ``<img alt>``,
``<select>`` with a ``<label>``) on the shared kit and theme, with the traits of the
ipywidgets they replace (``value``, ``min``, ``max``, ``description``, ``options``), so
``explorer.slider.value = 5`` works as before. A value out of range is refused, never
clamped.

:class:`ExplorerBox` is the root of a widget made of controls: a column with the kit's
theme and one polite :class:`LiveRegion`.
"""

from __future__ import annotations

import ipywidgets as widgets
import traitlets

from .base import AccessibleWidget, WidgetValueError, register_root

__all__ = ["ExplorerBox", "LiveRegion", "PlotImage", "Select", "Slider"]


class LiveRegion(AccessibleWidget, front_end="live_region.js"):
    """A polite live region (``role="status"``): it says ``announcement`` when it changes.

    >>> region = LiveRegion()
    >>> region.announcement = "k = 5: Recall@5 0.40"
    >>> region.hidden
    True
    """

    #: Shown on screen as well (False: read by screen readers only).
    hidden = traitlets.Bool(True).tag(sync=True)


class Slider(AccessibleWidget, front_end="slider.js"):
    """An integer slider whose accessible name is its visible label.

    Parameters
    ----------
    value, min, max : int
        ``min <= value <= max``; a value outside is refused with an error naming it.
    description : str
        The label (and the accessible name), e.g. ``"cut-off k"``.
    continuous_update : bool, default False
        Set ``value`` on every step of a drag (True) or when the pointer lets go
        (keys always set it at once).

    Examples
    --------
    >>> slider = Slider(value=3, min=1, max=10, description="cut-off k")
    >>> slider.value = 11
    Traceback (most recent call last):
    ...
    ragmetrics.widgets.base.WidgetValueError: cut-off k must be between 1 and 10, got 11
    """

    value = traitlets.Int(0).tag(sync=True)
    min = traitlets.Int(0).tag(sync=True)
    max = traitlets.Int(100).tag(sync=True)
    description = traitlets.Unicode().tag(sync=True)
    continuous_update = traitlets.Bool(False).tag(sync=True)

    def __init__(self, *, value, min, max, description, continuous_update=False):
        if not description:
            raise WidgetValueError("a Slider needs a description: it is its accessible name")
        if min > max:
            raise WidgetValueError(f"{description}: min must not exceed max, got {min} > {max}")
        super().__init__(value=value, min=min, max=max, description=description,
                         continuous_update=continuous_update)

    @traitlets.validate("value")
    def _valid_value(self, proposal):
        value = proposal["value"]
        if not self.min <= value <= self.max:
            raise WidgetValueError(
                f"{self.description} must be between {self.min} and {self.max}, got {value}"
            )
        return value


class Select(AccessibleWidget, front_end="select.js"):
    """A dropdown whose accessible name is its visible label.

    Parameters
    ----------
    options : list of (label, value) pairs
        What the dropdown offers: labels shown, values (str, unique) kept in ``value``.
    description : str
        The label (and the accessible name).
    value : str, optional
        The chosen value; by default the first option's.

    Examples
    --------
    >>> choice = Select(options=[("One", "a"), ("Two", "b")], description="pick")
    >>> choice.value
    'a'
    >>> choice.value = "c"
    Traceback (most recent call last):
    ...
    ragmetrics.widgets.base.WidgetValueError: pick must be one of ['a', 'b'], got 'c'
    """

    options = traitlets.List().tag(sync=True)
    value = traitlets.Unicode().tag(sync=True)
    description = traitlets.Unicode().tag(sync=True)

    def __init__(self, *, options, description, value=None):
        pairs = [[str(label), str(v)] for label, v in options]
        values = [v for _label, v in pairs]
        if not pairs or len(set(values)) != len(values):
            raise WidgetValueError(f"{description}: options need unique values, got {values!r}")
        if not description:
            raise WidgetValueError("a Select needs a description: it is its accessible name")
        super().__init__(options=pairs, description=description,
                         value=values[0] if value is None else value)

    @traitlets.validate("value")
    def _valid_value(self, proposal):
        values = [v for _label, v in self.options]
        if proposal["value"] not in values:
            raise WidgetValueError(
                f"{self.description} must be one of {values!r}, got {proposal['value']!r}"
            )
        return proposal["value"]


class PlotImage(AccessibleWidget, front_end="plot_image.js"):
    """A picture drawn in Python (PNG bytes) with a text alternative, ``alt``.

    Set both at once with :meth:`show`, so the browser never shows a picture with the
    previous picture's description.

    >>> image = PlotImage()
    >>> image.show(b"\\x89PNG...", "Metrics over k = 1 to 25")
    >>> image.alt
    'Metrics over k = 1 to 25'
    """

    value = traitlets.Bytes(b"").tag(sync=True)
    format = traitlets.Unicode("png").tag(sync=True)
    alt = traitlets.Unicode().tag(sync=True)

    def show(self, value: bytes, alt: str) -> None:
        """Show picture ``value`` described by ``alt`` (which must say what it shows)."""
        if not alt.strip():
            raise WidgetValueError("a plot needs a text alternative (alt), got an empty one")
        with self.hold_sync():
            self.value = value
            self.alt = alt


class ExplorerBox(widgets.VBox):
    """A root widget made of controls: a column with the kit's theme and one live region.

    Subclasses pass their controls, call :meth:`announce` after each change, and give
    :meth:`_static_html`, the kernel-free view (GitHub, nbviewer) of what the widget
    showed when it was displayed, and an ``example()`` classmethod.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register_root(cls)

    def __init__(self, controls, **kwargs):
        #: The widget's one polite live region (read by screen readers only).
        self.status = LiveRegion()
        super().__init__([*controls, self.status], **kwargs)
        self.add_class("rm-widget")
        self.add_class("rm-explorer")

    def announce(self, text: str) -> None:
        """Have the live region say ``text`` (screen readers say it when they are idle)."""
        self.status.announcement = text

    def _static_html(self) -> str:
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, dict):
            data["text/html"] = self._static_html()
        return data
