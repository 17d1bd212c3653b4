"""Text that stays text: ids, titles and names from the user, made inert where they are shown.

A query id, a chunk title or a system name comes from someone's file. Shown as it is,
it can act: an escape sequence recolours or rewrites a terminal, ``<img onerror=...>``
runs a script when a Markdown report is rendered, ``=HYPERLINK(...)`` runs in a
spreadsheet, and a name starting with ``_`` vanishes from a Matplotlib legend. Each
function here makes a string safe for one place, changing nothing that is already plain.

Examples
--------
>>> print(terminal_text("q1\\x1b[2J"))
q1\\x1b[2J
>>> markdown_text("<img src=x onerror=alert(1)> | *bold*")
'&lt;img src=x onerror=alert(1)&gt; \\\\| \\\\*bold\\\\*'
>>> spreadsheet_cell("=1+1"), spreadsheet_cell("-0.5"), spreadsheet_cell("q1")
("'=1+1", '-0.5', 'q1')
"""

from __future__ import annotations

import re

__all__ = ["markdown_text", "plot_text", "spreadsheet_cell", "terminal_text"]

# Characters that start Markdown markup (emphasis, code, tables, strikethrough) and the
# backslash itself; escaped with a backslash, which CommonMark and GFM honour. An
# underscore inside a word (dense_minilm) makes no emphasis and is left alone. Brackets
# make a link or an image only as "[...](...)" or "[...][...]": they are escaped then.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")
_LINK = re.compile(r"\][(\[]")  # CommonMark: no space may come between
# Cells a spreadsheet would run as a formula (OWASP's list), unless they are numbers.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _escape(char: str) -> str:
    return repr(char)[1:-1] if char != "\\" else char


def terminal_text(text, *, keep_newlines: bool = True) -> str:
    """``text`` with every character a terminal would not print shown as an escape.

    Control characters (escape sequences, backspace, carriage return, the bell),
    Unicode format characters such as right-to-left overrides, and other non-printing
    characters become their Python escape (``\\x1b``, ``\\u202e``); line breaks stay
    unless ``keep_newlines=False``.

    Examples
    --------
    >>> terminal_text("bm25\\u202e")
    'bm25\\\\u202e'
    >>> terminal_text("a\\nb", keep_newlines=False)
    'a\\\\nb'
    """
    text = str(text)
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() or (keep_newlines and c == "\n") else _escape(c) for c in text
    )


def markdown_text(text) -> str:
    """``text`` for a Markdown table cell or heading: shown as written, never as markup.

    HTML is written as entities (``<`` -> ``&lt;``), so no tag, script or image can
    reach the page; the characters that start emphasis, code, links and table cells are
    backslash-escaped (brackets too, where they would make a link); a line break becomes a space (a cell is one line); other
    non-printing characters become escapes, as in :func:`terminal_text`.
    """
    text = terminal_text(str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)
    if _LINK.search(text):
        text = text.replace("[", "\\[").replace("]", "\\]")
    return text


def spreadsheet_cell(text) -> str:
    """``text`` for a CSV cell that a spreadsheet will open: never a formula.

    A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return and
    is not a plain number gets a leading ``'``, which spreadsheets read as "text" (the
    OWASP advice against CSV injection). Numbers such as ``-0.5`` stay numbers.
    """
    text = str(text)
    if text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def plot_text(text) -> str:
    """``text`` as a str that Matplotlib draws as written.

    A ``$`` is escaped (no mathtext between two of them) and non-printing characters
    become escapes (a font has no glyph for them). A legend still drops labels that
    start with ``_``: pass such labels to ``ax.legend(handles, labels)`` explicitly, as
    the report's plots do.

    Examples
    --------
    >>> plot_text("cost in $ vs $$")
    'cost in \\\\$ vs \\\\$\\\\$'
    """
    return terminal_text(text, keep_newlines=False).replace("$", r"\$")
