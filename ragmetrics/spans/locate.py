"""Finding a chunk's text (or an evidence quote) in its document.

Chunkers hand back text, not offsets, and often change the whitespace on the way (a
newline becomes a space, runs of spaces collapse, the ends are stripped). A text is
therefore located by *exact match after whitespace normalisation*: in both the text and
the document every run of whitespace counts as one space, and the ends of the text are
ignored. Nothing else is forgiven (case, punctuation, Unicode forms): a fuzzy match could
put a chunk in the wrong place without a word, and every metric would inherit the error.

A text found nowhere, or found more than once, cannot be given offsets; the caller lists
all such texts in one error. The normalisation itself (:func:`normalize_whitespace`) is
:mod:`ragmetrics.io.text_matching`'s, which matches whole texts to documents by the same
rule.

Examples
--------
>>> document = "Refunds take\\n5 days.  Refunds   take 5 days. Done."
>>> located = NormalizedText(document)
>>> located.find("take 5 days. Done")
[(32, 49)]
>>> document[32:49]
'take 5 days. Done'
>>> located.find("Refunds take 5 days")  # both sentences match: ambiguous
[(0, 19), (22, 43)]
"""

from __future__ import annotations

import numpy as np

from ..io.text_matching import WORD, normalize_whitespace

__all__ = ["NormalizedText", "normalize_whitespace"]


class NormalizedText:
    """A document with its whitespace normalised, and the way back to its offsets.

    Parameters
    ----------
    text : str
        The document, as given.
    """

    def __init__(self, text: str) -> None:
        spans = [m.span() for m in WORD.finditer(text)]
        self.text = " ".join(text[s:e] for s, e in spans)
        # origin[i]: the document offset of character i of the normalised text. The space
        # that joins two words maps to the first whitespace character between them.
        if spans:
            bounds = np.asarray(spans, dtype=np.int64)
            lengths = bounds[:, 1] - bounds[:, 0] + 1  # each word and the space after it
            starts_in_norm = np.cumsum(lengths) - lengths
            origin = np.repeat(bounds[:, 0] - starts_in_norm, lengths)
            origin += np.arange(len(origin))
            self._origin = origin[:-1]  # no space after the last word
        else:
            self._origin = np.zeros(0, dtype=np.int64)

    def find(self, text: str, *, limit: int = 2) -> list[tuple[int, int]]:
        """Where ``text`` occurs, as ``(start, end)`` document offsets (``end`` exclusive).

        Occurrences may overlap. At most ``limit`` are returned: two are enough to know a
        text is ambiguous. An empty or all-whitespace text is found nowhere.
        """
        needle = normalize_whitespace(text)
        found: list[tuple[int, int]] = []
        if not needle:
            return found
        at = self.text.find(needle)
        while at >= 0 and len(found) < limit:
            last = at + len(needle) - 1
            found.append((int(self._origin[at]), int(self._origin[last]) + 1))
            at = self.text.find(needle, at + 1)
        return found
