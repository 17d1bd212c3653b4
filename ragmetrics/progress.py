"""Progress bars for long work: reading large files, evaluating in parts, resampling.

The command shows them on standard error when it is a terminal, and never with
``--quiet``, in a pipe or a log file: a command whose output is kept gets no control
characters in it. In Python, ``compare(..., progress=True)`` asks for one. Drawn by
``tqdm.auto`` (imported only when a bar is shown): a text bar on a terminal, a widget in
a notebook.
"""

from __future__ import annotations

import sys

__all__ = ["Progress", "resampling_callback"]


class Progress:
    """One bar, or nothing at all: ``update(n)`` advances it, ``close()`` clears it.

    Examples
    --------
    >>> bar = Progress("reading", total=10, enabled=False)
    >>> bar.update(4); bar.close()  # nothing is drawn
    """

    def __init__(self, label: str, total: float | None, *, unit: str = "it",
                 enabled: bool | None = None, scale: bool = False,
                 mininterval: float = 0) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty()
        self._bar = None
        if enabled:
            from tqdm.auto import tqdm  # a widget in a notebook, text elsewhere

            # Few updates (a part, a pass of resamples): draw each one (mininterval=0);
            # many (a retriever's queries): a redraw at most every `mininterval` seconds.
            self._bar = tqdm(total=total, desc=label, unit=unit, unit_scale=scale,
                             leave=False, file=sys.stderr, dynamic_ncols=True,
                             mininterval=mininterval)

    def update(self, n: float = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def set_total(self, total: float) -> None:
        if self._bar is not None and self._bar.total != total:
            self._bar.total = total
            self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def resampling_callback(enabled: bool):
    """A ``progress(done, total)`` callback for :func:`ragmetrics.compare`, or None."""
    if not enabled:
        return None
    bar: list[Progress] = []
    seen = [0]

    def show(done: int, total: int) -> None:
        if not bar:
            bar.append(Progress("resampling", total, unit="resample", enabled=True))
        bar[0].set_total(total)
        bar[0].update(done - seen[0])
        seen[0] = done
        if done >= total:
            bar[0].close()

    return show
