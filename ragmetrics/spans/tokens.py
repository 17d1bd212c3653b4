"""Counting in tokens: a dependency-free word-piece estimate, and token weights per character.

Context budgets are counted in tokens, and so are the span metrics with ``unit="token"``.
Any tokenizer that maps a ``str`` to a list of tokens works (``tiktoken``'s
``encoding.encode``, a Hugging Face tokenizer's ``tokenize``); the default,
:func:`word_pieces`, needs nothing installed.

For interval arithmetic, lengths must add up: the tokens of ``[a, b)`` and ``[b, c)``
must be those of ``[a, c)``. So each document is tokenised once, word by word (a word
being a run of non-whitespace characters), and each word's tokens are spread evenly over
its characters: a span holding a whole word counts all its tokens, one holding half of
a 2-token word counts 1, whitespace counts nothing. Spans cut at word boundaries (as
chunkers cut) therefore measure exactly the tokens of their words; a tokenizer that
merges tokens across spaces is approximated word by word.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np

from ..errors import InputTypeError
from .intervals import Line

__all__ = ["token_weights", "word_pieces"]

_PIECE = re.compile(r"[^\W\d_]+|\d+|\S")
_WORD = re.compile(r"\S+")
#: The longest run of letters kept as one piece, and digits per piece.
LETTERS_PER_PIECE = 8
DIGITS_PER_PIECE = 3


def word_pieces(text: str) -> list[str]:
    """Split ``text`` into word pieces: a dependency-free estimate of a subword tokenizer.

    The rules, chosen to approximate the byte-pair and WordPiece vocabularies of common
    language models on English text (about 1.3 tokens per word):

    1. Split at whitespace, then into runs of letters, runs of digits and single other
       characters (each punctuation mark or symbol is a piece of its own).
    2. A run of up to 8 letters is one piece; a longer run is cut into pieces of 8
       (``"internationalisation"``, 20 letters, is 3 pieces), as rare long words are
       cut into subwords.
    3. Digits go in pieces of up to 3 (``"2024"`` is ``"202"``, ``"4"``), as the
       tokenizers of GPT-style models do.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of str
        The pieces, in order; ``"".join`` of them is ``text`` without its whitespace.

    Examples
    --------
    >>> word_pieces("Refunds take 5-10 days.")
    ['Refunds', 'take', '5', '-', '10', 'days', '.']
    >>> word_pieces("internationalisation in 2024")
    ['internat', 'ionalisa', 'tion', 'in', '202', '4']
    """
    if not isinstance(text, str):
        raise InputTypeError(f"word_pieces takes a str, got {type(text).__name__}")
    pieces: list[str] = []
    for match in _PIECE.finditer(text):
        run = match.group()
        size = (LETTERS_PER_PIECE if run[0].isalpha() else
                DIGITS_PER_PIECE if run[0].isdigit() else 1)
        if len(run) <= size:
            pieces.append(run)
        else:
            pieces.extend(run[i:i + size] for i in range(0, len(run), size))
    return pieces


def _count(tokenizer: Callable, word: str) -> int:
    tokens = tokenizer(word)
    try:
        return len(tokens)
    except TypeError:
        raise InputTypeError(
            f"tokenizer must return a list of tokens for a str; for {word!r} it returned "
            f"{type(tokens).__name__}") from None


def token_weights(line: Line, texts: dict, tokenizer: Callable | None = None) -> np.ndarray:
    """Cumulative token weight along the line: ``w[x]`` = tokens before position ``x``.

    Parameters
    ----------
    line : Line
        The documents' layout (:func:`ragmetrics.spans.tables.lay_out`).
    texts : mapping
        doc id -> text, for every document on the line.
    tokenizer : callable or None
        ``str -> list``; None is :func:`word_pieces`.

    Returns
    -------
    numpy.ndarray
        float64, ``line.size + 1`` long, non-decreasing. The tokens of ``[a, b)`` are
        ``w[b] - w[a]``.

    Examples
    --------
    >>> from ragmetrics.spans.intervals import Line
    >>> line = Line.build(["d"], [12])
    >>> w = token_weights(line, {"d": "Hello, world"})  # 'Hello', ',' then 'world'
    >>> float(w[12] - w[0]), float(w[3] - w[0])  # all 3 tokens; 3/6 of 'Hello,'
    (3.0, 1.0)
    """
    if tokenizer is None:
        tokenizer = word_pieces
    elif not callable(tokenizer):
        raise InputTypeError(f"tokenizer must be a callable str -> list, got {tokenizer!r}")
    counts: dict[str, int] = {}
    word_start, word_end, word_count = [], [], []
    for code, doc_id in enumerate(line.ids):
        text = texts[doc_id]
        base = int(line.base[code])
        for match in _WORD.finditer(text):
            word = match.group()
            if word not in counts:
                counts[word] = _count(tokenizer, word)
            word_start.append(base + match.start())
            word_end.append(base + match.end())
            word_count.append(counts[word])
    starts = np.asarray(word_start, dtype=np.int64)
    ends = np.asarray(word_end, dtype=np.int64)
    tokens = np.asarray(word_count, dtype=np.float64)
    # Tokens of the words that end at or before x (whole numbers, so exact), plus the
    # share of the word that x falls inside.
    before = np.concatenate([[0.0], np.cumsum(tokens)])
    x = np.arange(line.size + 1, dtype=np.int64)
    done = np.searchsorted(ends, x, side="right")
    inside = done < len(starts)
    current = np.where(inside, done, 0)
    share = np.zeros(len(x))
    if len(starts):
        into = np.clip(x - starts[current], 0, None)
        share = np.where(inside, into * tokens[current] / (ends[current] - starts[current]), 0.0)
    return before[done] + share


def pieces_per_word(text: str) -> float:
    """Average pieces per whitespace word (a quick check of the estimate's density)."""
    words = text.split()
    return math.fsum(len(word_pieces(w)) for w in words) / len(words) if words else 0.0
