"""Numbers as the text of a report: four decimals, signed differences, p-values, counts.

Every renderer shows the same text for the same number: the report document
(:mod:`ragmetrics.reports.document`) holds it already formatted by these functions.
NaN is "n/a" (nothing to show); an infinity is a value, and keeps its sign.

Examples
--------
>>> format_number(0.5), format_signed(0.25), format_p(0.00001), format_effect(float("-inf"))
('0.5000', '+0.2500', '<0.0001', '-inf')
>>> format_interval(0.1, -0.05, 0.3, signed=True), format_number(float("nan"))
('+0.1000 [-0.0500, +0.3000]', 'n/a')
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "fixed_width",
    "format_count",
    "format_effect",
    "format_interval",
    "format_mc_error",
    "format_number",
    "format_p",
    "format_percent",
    "format_signed",
]


def _not_finite(value: float) -> str:
    """NaN is "n/a" (nothing to show); an infinity is a value, and keeps its sign."""
    return "n/a" if np.isnan(value) else ("+inf" if value > 0 else "-inf")


def format_number(value: float) -> str:
    """A value to four decimals: a mean, an end of an interval, a per-query value."""
    return _not_finite(value) if not np.isfinite(value) else f"{value:.4f}"


def format_signed(value: float) -> str:
    """A difference to four decimals, with its sign."""
    return _not_finite(value) if not np.isfinite(value) else f"{value:+.4f}"


def format_p(value: float) -> str:
    """A p-value to four decimals; below 0.0001 it is "<0.0001"."""
    if not np.isfinite(value):
        return "n/a"
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


def format_mc_error(error: float, exact: bool) -> str:
    """The Monte Carlo standard error of a p-value: 0 when every pattern was counted."""
    if exact:
        return "0 (exact)"
    if not np.isfinite(error):
        return "n/a"
    return "±<0.0001" if error < 0.0001 else f"±{error:.4f}"


def format_effect(d_z: float) -> str:
    """An effect size d_z to two decimals, with its sign."""
    return _not_finite(d_z) if not np.isfinite(d_z) else f"{d_z:+.2f}"


def format_interval(mean: float, low: float, high: float, signed: bool = False) -> str:
    """``mean [low, high]``; with ``signed``, every number carries its sign."""
    show = format_signed if signed else format_number
    return f"{show(mean)} [{show(low)}, {show(high)}]"


def format_percent(confidence: float) -> str:
    """A level as a percentage: 0.95 is "95%", 0.9875 is "98.75%"."""
    return f"{confidence * 100:g}%"


def format_count(n: int, one: str, many: str) -> str:
    """``n`` and the noun that goes with it: "1 query", "30 queries"."""
    return f"{n} {one if n == 1 else many}"


def fixed_width(rows: list[list[str]]) -> list[str]:
    """Rows of cells as lines of left-aligned columns two spaces apart (no trailing
    spaces): a table for a terminal. The first row is usually the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            .rstrip() for row in rows]
