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
>>> csv_field(spreadsheet_cell("a\\r=1+1"))
'"a\\r\\'=1+1"'
"""

from __future__ import annotations

import re

__all__ = ["csv_field", "markdown_text", "plot_text", "spreadsheet_cell", "terminal_text"]

# Characters that start Markdown markup (emphasis, code, tables, strikethrough) and the
# backslash itself; escaped with a backslash, which CommonMark and GFM honour. An
# underscore inside a word (dense_minilm) makes no emphasis and is left alone. Brackets
# make a link or an image only as "[...](...)" or "[...][...]": they are escaped then.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")
_LINK = re.compile(r"\][(\[]")  # CommonMark: no space may come between
# Cells a spreadsheet would run as a formula (OWASP's list), unless they are numbers.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# Every line break Python knows (str.splitlines): CR and LF, which every CSV reader and
# spreadsheet breaks on, and the rarer ones (vertical tab, form feed, the separators
# \x1c-\x1e, NEL \x85, U+2028, U+2029) that a line-by-line tool may break on too.
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# A point just after a line break where the next line would start a formula.
_FORMULA_AFTER_BREAK = re.compile(f"(?<=[{_LINE_BREAKS}])(?=[=+\\-@\t\r])")


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
    """``text`` for a CSV cell that a spreadsheet will open: never a formula, on any line.

    A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return and
    is not a plain number gets a leading ``'``, which spreadsheets read as "text" (the
    OWASP advice against CSV injection). Numbers such as ``-0.5`` stay numbers.

    A cell may hold line breaks (an id read from JSON can hold ``"\\r"``). Written
    quoted (:func:`csv_field`) it stays one cell, but a reader that splits the file into
    lines first, or a CSV writer that leaves the break unquoted, starts a new row there.
    So the same rule holds after every line break (CR, LF and the other breaks of
    :meth:`str.splitlines`): a ``'`` goes before a formula character that begins a
    line, number or not. No line of the cell then starts a formula.

    Examples
    --------
    >>> spreadsheet_cell("@SUM(A1)")
    "'@SUM(A1)"
    >>> spreadsheet_cell("a\\r=1+1")
    "a\\r'=1+1"
    >>> spreadsheet_cell("q1\\r\\n-2")
    "q1\\r\\n'-2"
    """
    text = str(text)
    if text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        text = "'" + text
    return _FORMULA_AFTER_BREAK.sub("'", text)


def csv_field(text, *, delimiter: str = ",") -> str:
    """``text`` as one CSV field (RFC 4180): quoted when it holds anything that ends one.

    A field holding the delimiter, a double quote or any line break (:meth:`str.splitlines`'
    list: CR and LF, and the rarer breaks that line-by-line tools honour) is written
    between double quotes, each ``"`` doubled; every other field is written as it is.
    Python's :mod:`csv` writer and pandas quote only the characters of their line
    terminator, so with ``"\\n"`` line ends a lone carriage return goes out unquoted,
    and every reader then splits the row there; this function quotes it.

    Parameters
    ----------
    text : str
        The field's text (made safe for spreadsheets first with :func:`spreadsheet_cell`
        where it comes from the user).
    delimiter : str, default ","
        The character between fields.

    Examples
    --------
    >>> csv_field("q1"), csv_field("a,b"), csv_field('5" disk'), csv_field("a\\rb")
    ('q1', '"a,b"', '"5"" disk"', '"a\\rb"')
    """
    text = str(text)
    if delimiter in text or '"' in text or any(c in text for c in _LINE_BREAKS):
        return '"' + text.replace('"', '""') + '"'
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
