"""Runs that are read when they are evaluated: whole, or in parts of whole queries.

A :class:`DeferredRun` is read when :func:`ragmetrics.evaluate` (or
:func:`ragmetrics.compare`, once per system) comes to it and let go after, so that
comparing a hundred runs holds one in memory at a time. A :class:`RunInParts` is read
and evaluated a part at a time (:mod:`~ragmetrics.evaluation.streaming`), in memory
bounded by a part; if its queries turn out not to be grouped, it is read whole instead,
when it says how (``whole``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["DeferredRun", "RunInParts"]


@dataclass(frozen=True)
class DeferredRun:
    """A run that ``load()`` reads, in any shape :func:`ragmetrics.evaluate` takes."""

    load: Callable[[], object]


@dataclass(frozen=True)
class RunInParts:
    """A run that ``parts()`` reads as parts of whole queries (each in any shape
    :func:`ragmetrics.evaluate` takes); ``whole()`` reads it at once, for a run whose
    queries are not grouped, after ``on_fallback(error)`` is told why."""

    parts: Callable[[], Iterable]
    whole: Callable[[], object] | None = None
    on_fallback: Callable[[Exception], object] | None = None
