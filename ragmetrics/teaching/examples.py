"""The source article's worked examples, as data (``data/article_examples.jsonl``).

One function loads them, so notebooks, widgets and tests all use the same rankings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..datafiles import data_path
from ..errors import InputValueError

__all__ = ["Example", "example_names", "load_example"]

_FILE = "article_examples.jsonl"


@dataclass(frozen=True)
class Example:
    """One query of the article: its ranking, its golden set and where it comes from.

    Attributes
    ----------
    name : str
        Short id, e.g. ``"cancellation"``.
    query : str
        The user's question.
    retrieved : list of str
        Chunk ids in rank order, best first.
    relevant : dict of str to int
        The golden set: chunk id -> grade.
    titles : dict of str to str
        A human-readable title per retrieved chunk.
    source, note : str
        Where in the article the example is, and what we had to add to make it complete.
    """

    name: str
    query: str
    retrieved: list[str]
    relevant: dict[str, int]
    titles: dict[str, str] = field(repr=False)
    source: str = field(repr=False)
    note: str = field(repr=False)


def _data_file() -> Path:
    return data_path(_FILE)  # inside a wheel, or data/ of a checkout


@cache
def _load_all() -> dict[str, Example]:
    examples = {}
    with _data_file().open(encoding="utf-8") as lines:
        for line in lines:
            raw = json.loads(line)
            examples[raw["name"]] = Example(
                name=raw["name"],
                query=raw["query"],
                retrieved=[c["id"] for c in raw["retrieved"]],
                relevant=dict(raw["relevant"]),
                titles={c["id"]: c["title"] for c in raw["retrieved"]},
                source=raw["source"],
                note=raw["note"],
            )
    return examples


def example_names() -> list[str]:
    """Names of the article's examples, in the article's order.

    >>> example_names()
    ['refund_policy', 'k_tradeoff', 'cancellation', 'precision_trap']
    """
    return list(_load_all())


def load_example(name: str) -> Example:
    """Load one of the article's worked examples by name.

    Examples
    --------
    >>> from ragmetrics import ndcg_at_k
    >>> ex = load_example("refund_policy")
    >>> ex.retrieved
    ['chunk_A', 'chunk_B', 'chunk_C', 'chunk_D', 'chunk_E']
    >>> round(ndcg_at_k(ex.retrieved, ex.relevant, 5), 2)
    0.89
    """
    examples = _load_all()
    if name not in examples:
        raise InputValueError(f"unknown example {name!r}; choose one of {', '.join(examples)}")
    # Fresh lists and dicts, so a caller that edits them cannot change the next load.
    ex = examples[name]
    return Example(
        name=ex.name,
        query=ex.query,
        retrieved=list(ex.retrieved),
        relevant=dict(ex.relevant),
        titles=dict(ex.titles),
        source=ex.source,
        note=ex.note,
    )
