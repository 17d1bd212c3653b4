"""User text made inert: terminals, Markdown, spreadsheets and plots
(ragmetrics.safe_text)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragmetrics import compare
from ragmetrics.reports.figures import plot_intervals
from ragmetrics.safe_text import (
    csv_field,
    markdown_text,
    plot_text,
    spreadsheet_cell,
    terminal_text,
)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("bm25", "bm25"),
        ("q1\x1b[2J", r"q1\x1b[2J"),  # clear screen
        ("\x1b]0;owned\x07", r"\x1b]0;owned\x07"),  # set the window title
        ("a\rb", r"a\rb"),  # a carriage return would overwrite the line
        ("d2\u202e", r"d2\u202e"),  # right-to-left override
        ("x\x00y", r"x\x00y"),
        ("café ✓", "café ✓"),  # printable text is untouched
    ],
)
def test_terminal_text_shows_control_characters_as_escapes(text, shown):
    assert terminal_text(text) == shown


def test_terminal_text_keeps_or_escapes_line_breaks():
    assert terminal_text("a\nb") == "a\nb"
    assert terminal_text("a\nb", keep_newlines=False) == r"a\nb"


@given(st.text())
def test_terminal_text_never_lets_a_control_character_through(text):
    shown = terminal_text(text, keep_newlines=False)
    assert shown.isprintable()


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("[click](javascript:alert(1))", r"\[click\](javascript:alert(1))"),
        ("![x](http://evil/pixel.png)", r"!\[x\](http://evil/pixel.png)"),
        ("a|b", r"a\|b"),  # would split a table cell
        ("*bold* `code` ~~gone~~", r"\*bold\* \`code\` \~\~gone\~\~"),
        ("dense_minilm", "dense_minilm"),  # inside a word an underscore is not emphasis
        ("_hidden_", r"\_hidden\_"),
        ("0.8 [0.1, 0.9]", "0.8 [0.1, 0.9]"),  # brackets without a link stay readable
        ("AT&T", "AT&amp;T"),
        ("two\nlines", "two lines"),
    ],
)
def test_markdown_text_is_never_markup(text, shown):
    assert markdown_text(text) == shown


@given(st.text())
def test_markdown_text_has_no_tag_and_no_raw_line_break(text):
    shown = markdown_text(text)
    assert "<" not in shown
    assert ">" not in shown
    assert "\n" not in shown


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("\t=1", "'\t=1"),
        ("-0.5", "-0.5"),  # a number stays a number
        ("+3", "+3"),
        ("1e-3", "1e-3"),
        ("q1", "q1"),
    ],
)
def test_spreadsheet_cell_is_never_a_formula(cell, written):
    assert spreadsheet_cell(cell) == written


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Where a line ends for some reader: CR and LF for every CSV reader and spreadsheet,
# the others (str.splitlines) for line-by-line tools.
LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("a\r=1+1", "a\r'=1+1"),  # a bare CR: Excel and every CSV reader break the line there
        ("a\n@SUM(A1)", "a\n'@SUM(A1)"),
        ("a\r\n+1", "a\r\n'+1"),  # one break, one guard
        ("a\n-1", "a\n'-1"),  # after a break even a number: that line is no cell of its own
        ("a\n\t=1", "a\n'\t=1"),
        ("a\n\r=1", "a\n'\r'=1"),  # a line starting with CR, then one starting with =
        ("=a\n=b", "'=a\n'=b"),
        ("a\u2028=1", "a\u2028'=1"),  # Unicode line separator
        ("a\x85=1", "a\x85'=1"),  # NEL
        ("a\x0c=1", "a\x0c'=1"),  # form feed
        ("a\n\nb", "a\n\nb"),  # plain lines stay as they are
        ("a=1\nb-2", "a=1\nb-2"),  # a formula character inside a line starts nothing
        ("-1\n", "'-1\n"),  # not a plain number as a whole
    ],
)
def test_spreadsheet_cell_guards_every_line(cell, written):
    assert spreadsheet_cell(cell) == written


@given(st.text())
def test_no_line_of_a_guarded_cell_starts_a_formula(text):
    guarded = spreadsheet_cell(text)
    first, *rest = LINE_BREAK.split(guarded)
    assert not first.startswith(FORMULA_START) or PLAIN_NUMBER.fullmatch(guarded)
    assert not any(line.startswith(FORMULA_START) for line in rest)
    # Nothing but quotes is added, and nothing is taken away.
    assert guarded.replace("'", "") == text.replace("'", "")
    assert len(guarded) >= len(text)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("q1", "q1"),
        ("", ""),
        ("a,b", '"a,b"'),
        ('5" disk', '"5"" disk"'),
        ("a\rb", '"a\rb"'),  # pandas and Python's csv leave this one unquoted
        ("a\nb", '"a\nb"'),
        ("a\r\nb", '"a\r\nb"'),
        ("a\u2028b", '"a\u2028b"'),
        ("a\x85b", '"a\x85b"'),
        ("a;b", "a;b"),
    ],
)
def test_csv_field_quotes_what_would_end_a_field(text, field):
    assert csv_field(text) == field


def test_csv_field_takes_the_delimiter():
    assert csv_field("a;b", delimiter=";") == '"a;b"'
    assert csv_field("a,b", delimiter="\t") == "a,b"
    assert csv_field("a\tb", delimiter="\t") == '"a\tb"'


@given(st.lists(st.text(), min_size=2, max_size=4))  # one empty field is a blank line
def test_csv_fields_read_back_as_one_row(cells):
    line = ",".join(csv_field(cell) for cell in cells) + "\n"
    assert list(csv.reader(io.StringIO(line, newline=""))) == [cells]


def test_plot_text_draws_dollars_and_control_codes_as_written():
    assert plot_text("$x$ costs $5") == r"\$x\$ costs \$5"
    assert plot_text("a\x1bb\nc") == r"a\x1bb\nc"


def test_a_system_named_with_an_underscore_keeps_its_legend_entry():
    # Matplotlib drops legend labels starting with "_" unless they are given explicitly.
    runs = {"_baseline": {"q1": ["a"]}, "_new": {"q1": ["x", "a"]}}
    result = compare(runs, {"q1": {"a"}}, ["mrr"], n_resamples=50)
    ax = plot_intervals(result)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["_baseline", "_new"]
