"""A notebook's own checks, kept out of the learner's way: one :func:`verify` per checked cell.

Every number a notebook states is checked when the notebook runs (``make test`` runs them
all under nbval), but a learner should read the lesson, not the scaffolding. So the checks
of a cell live in one *check cell* right after it: a single ``verify({...})`` call whose
conditions are named in plain words. The check cell prints nothing when every condition
holds, and fails with the names of those that do not.

A check cell carries this metadata (``tests/repo/test_notebook_checks.py`` holds every
notebook to it)::

    {"tags": ["remove-cell", "check"], "jupyter": {"source_hidden": true}}

- ``jupyter.source_hidden``: JupyterLab and Notebook 7 show it collapsed (a "..." bar);
- ``remove-cell``: the book (MyST-NB) leaves it out;
- ``check``: the tag the repository's tests look for.

Voila shows no code at all. A check cell names no answer to a pending prediction: it
compares the page's numbers with the library's, computed, so that GitHub (which shows every
cell) gives nothing away either.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import InputTypeError

__all__ = ["CHECK_CELL_METADATA", "verify"]

#: The metadata of a check cell: collapsed in JupyterLab and Notebook 7, left out of the
#: book, found by the repository's tests.
CHECK_CELL_METADATA = {"tags": ["remove-cell", "check"], "jupyter": {"source_hidden": True}}


def verify(conditions: Mapping[str, bool]) -> None:
    """Check a cell's stated numbers, silently: fail naming each condition that does not hold.

    A notebook states numbers ("Recall@10 = 2/3") and computes them with the library; the
    check cell after it says what must agree. Each condition is named in words, so a failure
    under nbval reads like the lesson ("by hand = ragmetrics"), not like a line of code.

    Parameters
    ----------
    conditions : mapping of str to bool
        The name of each check and whether it holds. Each value must be a Python or NumPy
        boolean (``math.isclose(...)``, ``a == b`` of two numbers, ``np.allclose(...)``): an
        array, a number or ``None`` is refused, so a condition can never pass by being
        truthy.

    Returns
    -------
    None
        Prints nothing when every condition holds.

    Raises
    ------
    AssertionError
        Naming every condition that does not hold (nbval reports it as the cell's failure).
    InputTypeError
        When ``conditions`` is not a non-empty mapping of names to booleans.

    See Also
    --------
    ragmetrics.teaching.check_exercise : the learner's own answers, checked with feedback.

    Examples
    --------
    The article's Recall@10: 2 of 3 relevant chunks in the top 10.

    >>> import math
    >>> from ragmetrics import recall_at_k
    >>> by_hand = 2 / 3
    >>> library = recall_at_k(["c01", "c03", "c07"], {"c03", "c07", "c42"}, 10)
    >>> verify({"by hand = ragmetrics": math.isclose(by_hand, library)})

    A condition that fails is named, with the others that fail:

    >>> verify({"by hand = ragmetrics": math.isclose(by_hand, library),
    ...         "Recall@10 is 0.7": math.isclose(library, 0.7),
    ...         "recall is a fraction": 0 <= library <= 1})
    Traceback (most recent call last):
    ...
    AssertionError: 1 of 3 checks failed: 'Recall@10 is 0.7'

    A value that is not a boolean is refused rather than read as true:

    >>> verify({"the recalls": [library]})
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputTypeError: verify: the condition 'the recalls' is a list ([0.6666666666666666]), not a boolean; compare with math.isclose, == or np.allclose
    """
    if not isinstance(conditions, Mapping) or not conditions:
        raise InputTypeError(
            f"verify takes a non-empty mapping of check names to booleans, got {conditions!r}")
    failed = []
    for name, holds in conditions.items():
        if not isinstance(name, str) or not name.strip():
            raise InputTypeError(f"verify: a check's name must be a non-empty string, got {name!r}")
        if not isinstance(holds, (bool, np.bool_)):
            raise InputTypeError(
                f"verify: the condition {name!r} is a {type(holds).__name__} ({holds!r}), not a "
                f"boolean; compare with math.isclose, == or np.allclose")
        if not holds:
            failed.append(name)
    if failed:
        names = ", ".join(repr(name) for name in failed)
        raise AssertionError(f"{len(failed)} of {len(conditions)} checks failed: {names}")
