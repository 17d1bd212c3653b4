"""Where the source article is wrong or misleading: one numbered table, used everywhere.

The table is data (``data/errata.jsonl``, one erratum a line); this module reads it once.
Notebook 00 shows it, README repeats it, and each notebook that corrects an erratum
names it by its number ("erratum 6"). ``tests/teaching/test_errata.py`` checks that 00 and README
show exactly :func:`errata_markdown`, that every notebook that says "erratum N" is the
notebook of row N, and that the test pinning each row exists in ``tests/teaching/test_article.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..datafiles import data_path

__all__ = ["ERRATA", "Erratum", "errata_markdown"]


def _read_errata() -> tuple[Erratum, ...]:
    # The table is data, kept once in data/errata.jsonl (in a wheel: ragmetrics/_data/).
    with data_path("errata.jsonl").open(encoding="utf-8") as lines:
        return tuple(Erratum(**json.loads(line)) for line in lines if line.strip())


@dataclass(frozen=True)
class Erratum:
    """One place where the article is wrong (or misleading enough to mislead a learner).

    Attributes
    ----------
    number : int
        Its number, 1, 2, ... in the order of the article.
    where, says, right, why : str
        The article's section; what the article says, quoted or summarised; what is
        right; and why, with the numbers.
    notebook, test : str
        The notebook that shows the correction, and the test in
        ``tests/teaching/test_article.py`` that pins it.
    """

    number: int
    where: str
    says: str
    right: str
    why: str
    notebook: str
    test: str


#: Every erratum, in the order of the article (``data/errata.jsonl``, one line each).
ERRATA: tuple[Erratum, ...] = _read_errata()


def errata_markdown(link_prefix: str = "") -> str:
    """The errata as a Markdown table; notebooks are linked as ``link_prefix + name``.

    Notebook 00 shows ``errata_markdown()``; README shows
    ``errata_markdown("notebooks/")``.

    >>> print(errata_markdown().splitlines()[2])
    | 1 | summary of Recall@k | "did we find at least one in the top k?" | that is the hit rate | Recall@k is the *fraction* of relevant chunks in the top k; cancellation query at k = 1: hit rate 1.0, Recall@1 = 0.3333 | [01](01_recall_at_k.ipynb) |
    """
    lines = ["| # | where | the article says | right | why | notebook |",
             "|---|---|---|---|---|---|"]
    for e in ERRATA:
        link = f"[{e.notebook[:2]}]({link_prefix}{e.notebook})"
        lines.append(f"| {e.number} | {e.where} | {e.says} | {e.right} | {e.why} | {link} |")
    return "\n".join(lines)
