"""Counting in tokens: a dependency-free word-piece estimate, and where each token lies.

Context budgets are counted in tokens, and so are the span metrics with ``unit="token"``.
Any tokenizer that maps a ``str`` to a list of tokens works (``tiktoken``'s
``encoding.encode``, a Hugging Face tokenizer's ``tokenize``); the default,
:func:`word_pieces`, needs nothing installed.

For interval arithmetic, lengths must add up: the tokens of ``[a, b)`` and ``[b, c)``
must be those of ``[a, c)``. So each document is tokenised once, word by word (a word
being a run of non-whitespace characters), and each token is placed on **one character**
of its word, the one where it starts: a span holds the tokens that start inside it.
A token's start is found by looking its text up in the word, left to right (``"days."``
is ``"days"`` at 0 and ``"."`` at 4); a tokenizer whose tokens are not pieces of the word
(integer ids, ``"##ing"``) has its ``n`` tokens of a word of ``L`` characters placed
evenly, token ``j`` on character ``floor(j * L / n)``. Whitespace holds no token.

Every length is then a whole number of tokens, counted, never added up from fractions:
the token metrics are ratios of two counts, exactly the set-based definitions with
"the tokens whose start lies in the text" for "the characters of the text", so a span
holding all the evidence has recall exactly 1. Spans cut at piece boundaries (as
:func:`ragmetrics.spans.window_chunks` cuts) hold exactly the tokens of their text; a
tokenizer that merges tokens across spaces is approximated word by word.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np

from ..errors import InputTypeError
from .offsets import Line

__all__ = ["token_starts", "word_pieces"]

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


def _starts(tokenizer: Callable, word: str) -> list[int]:
    """Where each token of ``word`` starts, as offsets into ``word`` (see the module)."""
    tokens = tokenizer(word)
    try:
        n = len(tokens)
    except TypeError:
        raise InputTypeError(
            f"tokenizer must return a list of tokens for a str; for {word!r} it returned "
            f"{type(tokens).__name__}") from None
    found, at = [], 0
    for token in tokens:
        where = word.find(token, at) if isinstance(token, str) and token else -1
        if where < 0:  # not a piece of the word's text: spread the tokens evenly
            length = len(word)
            return [j * length // n for j in range(n)]
        found.append(where)
        at = where + len(token)
    return found


def token_starts(line: Line, texts: dict, tokenizer: Callable | None = None) -> np.ndarray:
    """The position on the line where each token starts, sorted (one entry per token).

    Parameters
    ----------
    line : Line
        The documents' layout (:func:`ragmetrics.spans.model.lay_out`).
    texts : mapping
        doc id -> text, for every document on the line.
    tokenizer : callable or None
        ``str -> list``; None is :func:`word_pieces`.

    Returns
    -------
    numpy.ndarray
        int64, non-decreasing (several tokens may start on one character). The tokens
        of ``[a, b)`` are ``searchsorted(starts, b) - searchsorted(starts, a)``: a count.

    Examples
    --------
    >>> from ragmetrics.spans.offsets import Line
    >>> line = Line.build(["d"], [12])
    >>> starts = token_starts(line, {"d": "Hello, world"})  # 'Hello', ',' then 'world'
    >>> starts.tolist()
    [0, 5, 7]
    >>> int(np.searchsorted(starts, 6) - np.searchsorted(starts, 0))  # 'Hello,'
    2

    A tokenizer returning ids, not text, has its tokens spread over the word:

    >>> token_starts(line, {"d": "Hello, world"}, lambda word: [0] * (len(word) // 2)).tolist()
    [0, 2, 4, 7, 9]
    """
    if tokenizer is None:
        tokenizer = word_pieces
    elif not callable(tokenizer):
        raise InputTypeError(f"tokenizer must be a callable str -> list, got {tokenizer!r}")
    known: dict[str, list[int]] = {}
    starts: list[int] = []
    for code, doc_id in enumerate(line.ids):
        text = texts[doc_id]
        base = int(line.base[code])
        for match in _WORD.finditer(text):
            word = match.group()
            if word not in known:
                known[word] = _starts(tokenizer, word)
            at = base + match.start()
            starts.extend(at + offset for offset in known[word])
    return np.asarray(starts, dtype=np.int64)  # words in line order, each one's in order


def pieces_per_word(text: str) -> float:
    """Average pieces per whitespace word (a quick check of the estimate's density)."""
    words = text.split()
    return math.fsum(len(word_pieces(w)) for w in words) / len(words) if words else 0.0
