"""Where the teaching and demo data live: in the installed package, or in data/.

The files are kept once, in the repository's ``data/`` folder (with their provenance and
licences). A wheel carries a copy inside the package, in ``ragmetrics/_data/`` (see
``[tool.hatch.build.targets.wheel.force-include]`` in ``pyproject.toml``), so that
``pip install ragmetrics`` can load the article's examples and the span demo data sets
with no source tree; a source checkout (or an editable install) reads ``data/``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["data_path"]

_PACKAGED = Path(__file__).resolve().parent / "_data"
_CHECKOUT = Path(__file__).resolve().parents[1] / "data"


def data_path(name: str) -> Path:
    """The path of ``name`` (a file or folder of ``data/``): the packaged copy if any.

    Examples
    --------
    >>> data_path("article_examples.jsonl").name
    'article_examples.jsonl'
    """
    packaged = _PACKAGED / name
    return packaged if packaged.exists() else _CHECKOUT / name
