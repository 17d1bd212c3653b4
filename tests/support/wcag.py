"""WCAG 2 contrast, written again for the tests (the widgets' own code is what is tested).

Colours as ``#RRGGBB`` or as getComputedStyle writes them, ``rgb(r, g, b)``.
"""

from __future__ import annotations

import re


def rgb(colour: str) -> str:
    """``#C68900`` -> ``rgb(198, 137, 0)``, as getComputedStyle writes it."""
    return f"rgb({int(colour[1:3], 16)}, {int(colour[3:5], 16)}, {int(colour[5:7], 16)})"


def _channels(colour: str) -> list[float]:
    if colour.startswith("#"):
        return [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    return [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance."""
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in _channels(colour)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, from 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
