"""Validation at the boundary: every public entry point checks its input here, once.

Error messages name the bad value and where it was, so a user can fix the call without
reading our source.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import InputTypeError, InputValueError

Grades = dict[Any, float]

#: The largest cut-off, depth, budget or count taken anywhere (``k``, ``max_retrieved``,
#: trec_eval's ``-M``): what a signed 64-bit integer holds (NumPy's int64, trec_eval's
#: ``long``). A larger one is refused with its value: it would overflow the arrays that
#: hold ranks, and no ranking is that long.
MAX_COUNT = 2**63 - 1

#: Every whole number up to this size is exact in a 64-bit float (its 53-bit mantissa);
#: beyond it, only some are: 2**53 + 1 reads as 2**53, the same score as 2**53.
EXACT_FLOAT_INTEGERS = 2**53

# A whole number as a person writes it: ASCII digits only (str.isdigit and int() also
# take "²", "١٢" and "1_000"), an optional sign.
_WHOLE = re.compile(r"[+-]?[0-9]+")
# A number as a person writes it, in ASCII (float() also takes "١٢", "1_0", "nan", "inf").
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def check_k(k: Any, *, name: str = "k", allow_none: bool = False) -> int | None:
    """Return ``k`` as an ``int`` if it is a positive integer, else raise.

    Booleans are rejected even though ``True == 1`` in Python: ``k=True`` is always a bug.
    """
    if k is None and allow_none:
        return None
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise InputTypeError(f"{name} must be a positive int, got {k!r} ({type(k).__name__})")
    if k < 1:
        raise InputValueError(f"{name} must be a positive int (1, 2, ...), got {k!r}")
    if k > MAX_COUNT:
        raise InputValueError(f"{name} must be at most {MAX_COUNT} (2**63 - 1), got {k!r}")
    return int(k)


def decimal_number(text: str, name: str) -> float:
    """The finite float written in ``text`` (ASCII: ``2``, ``-0.5``, ``.25``, ``1e3``);
    else an error naming ``name`` and the text as written.

    Examples
    --------
    >>> decimal_number(".25", "a level")
    0.25
    >>> decimal_number("1e999", "a level")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: a level: '1e999' is not a finite number (ASCII digits)
    """
    stripped = text.strip() if isinstance(text, str) else text
    value = (float(stripped) if isinstance(stripped, str)
             and _DECIMAL.fullmatch(stripped) is not None else math.nan)
    if not math.isfinite(value):
        raise InputValueError(f"{name}: {text!r} is not a finite number (ASCII digits)")
    return value


def whole_number(text: str, name: str, *, minimum: int = 1) -> int:
    """The int written in ``text`` (ASCII digits, an optional sign), from ``minimum`` to
    :data:`MAX_COUNT`; else an error naming ``name`` and the text as written.

    Examples
    --------
    >>> whole_number("20", "--k")
    20
    >>> whole_number("²", "--k")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: --k: '²' is not a whole number from 1 to 9223372036854775807 (ASCII digits)
    """
    stripped = text.strip() if isinstance(text, str) else text
    if (not isinstance(stripped, str) or _WHOLE.fullmatch(stripped) is None
            or not minimum <= int(stripped) <= MAX_COUNT):
        raise InputValueError(f"{name}: {text!r} is not a whole number from {minimum} to "
                              f"{MAX_COUNT} (ASCII digits)")
    return int(stripped)


def check_relevance_level(level: Any) -> float:
    """A grade threshold: a doc counts as relevant when its grade >= ``level``."""
    if type(level) is int and level > 0:  # the usual 1, without the abstract-class checks
        return level
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or math.isnan(level):
        raise InputTypeError(f"relevance_level must be a number, got {level!r}")
    if level <= 0:
        raise InputValueError(
            f"relevance_level must be > 0, got {level!r}: a level of 0 or below would "
            "count judged-irrelevant documents as relevant"
        )
    return level


def check_log_base(base: Any, name: str = "base") -> float:
    """A discount's logarithm base: a number above 1.

    ``log_1`` is not defined (every discount would divide by 0) and a base below 1 makes
    the discounts negative, so DCG would fall as relevant docs are added.
    """
    if isinstance(base, bool) or not isinstance(base, numbers.Real) or math.isnan(base):
        raise InputTypeError(f"{name} must be a number above 1, got {base!r}")
    if not 1 < base < math.inf:
        raise InputValueError(
            f"{name} must be a finite number above 1 (the base of the discount's log), "
            f"got {base!r}")
    return float(base)


def check_choice(value: Any, choices: Iterable[str], name: str) -> str:
    """Check a named policy, listing the valid names in the error."""
    choices = tuple(choices)
    if value not in choices:
        valid = ", ".join(repr(c) for c in choices)
        raise InputValueError(f"{name} must be one of {valid}; got {value!r}")
    return value


def check_grade(grade: Any, doc_id: Any) -> float:
    # Plain ints and finite floats (the usual grades) skip the abstract-class checks.
    if type(grade) is int or (type(grade) is float and math.isfinite(grade)):
        return float(grade)
    if isinstance(grade, bool) or not isinstance(grade, numbers.Real) or math.isnan(grade):
        raise InputTypeError(f"grade of doc {doc_id!r} must be a number, got {grade!r}")
    try:
        value = float(grade)
    except OverflowError:  # an int with hundreds of digits
        value = math.inf
    if not math.isfinite(value):
        raise InputValueError(f"grade of doc {doc_id!r} must be a finite number, got {grade!r}")
    return value


def check_total_gain(grades: Iterable[float], gain: str, *, where: str = "") -> None:
    """Refuse grades whose gains add up past the largest float (about 1.8e308).

    DCG and its ideal would both be infinite, and nDCG = inf / inf a NaN that no policy
    asked for. Linear gains need grades of that size; exponential ones (2**grade - 1)
    only a grade of 1024. ``where`` starts the message (e.g. ``"query 'q1': "``).
    """
    positive = [g for g in grades if g > 0]
    if not positive:
        return
    top = max(positive)
    try:
        if gain == "exponential":
            total = math.inf if top >= 1024 else math.fsum(2.0**g - 1.0 for g in positive)
        else:
            total = math.fsum(positive)
    except OverflowError:  # fsum's intermediate sum overflowed
        total = math.inf
    if not math.isfinite(total):
        raise InputValueError(
            f"{where}the gains of the judged docs add up past the largest float (grade "
            f"{top:g} with gain={gain!r}), so DCG and its ideal would be infinite and nDCG "
            "undefined; use smaller grades"
            + (" or gain='linear'" if gain == "exponential" else "")
        )


def as_grades(relevant: Any) -> Grades:
    """Normalise the golden set to ``{doc_id: grade}``.

    A set, list, tuple or frozenset of ids is binary (every id has grade 1); a mapping gives
    each id its grade.
    """
    if isinstance(relevant, Mapping):
        return {doc: check_grade(g, doc) for doc, g in relevant.items()}
    if isinstance(relevant, (str, bytes)):
        # A str is iterable, so "abc" would silently become {"a", "b", "c"}.
        raise InputTypeError(
            f"relevant must be a set of ids or a mapping id -> grade, got the string {relevant!r}"
        )
    if isinstance(relevant, Iterable):
        return dict.fromkeys(relevant, 1.0)
    raise InputTypeError(
        f"relevant must be a set of ids or a mapping id -> grade, got {type(relevant).__name__}"
    )


def as_ranking(retrieved: Any, *, duplicates: str) -> list:
    """Return the ranked ids as a list, applying the duplicate-id policy."""
    # A list, the usual ranking, skips the abstract-class checks.
    if type(retrieved) is not list and (
        isinstance(retrieved, (str, bytes, Mapping)) or not isinstance(retrieved, Iterable)
    ):
        raise InputTypeError(
            f"retrieved must be a list of ids in rank order, got {type(retrieved).__name__}"
            + (f" {retrieved!r}" if isinstance(retrieved, str) else "")
        )
    ranking = list(retrieved)
    if len(set(ranking)) == len(ranking):
        return ranking
    if duplicates == "keep_first":
        return list(dict.fromkeys(ranking))
    seen: set = set()
    for rank, doc in enumerate(ranking, start=1):
        if doc in seen:
            raise InputValueError(
                f"doc id {doc!r} appears more than once in retrieved (again at rank {rank}); "
                "a ranking lists each doc once. Pass duplicates='keep_first' to keep the "
                "highest-ranked copy."
            )
        seen.add(doc)
    raise AssertionError("unreachable")  # pragma: no cover


def as_query(retrieved: Any, relevant: Any, *, duplicates: str) -> tuple[list, Grades]:
    """One query, checked: the ranking (:func:`as_ranking`, under the duplicate-id
    policy), the golden set as ``{doc_id: grade}`` (:func:`as_grades`), and ids of kinds
    that can match (:func:`check_id_kinds`). The golden set is read first, so a bad one is
    the error named.

    Examples
    --------
    >>> as_query(["a", "b"], {"b"}, duplicates="error")
    (['a', 'b'], {'b': 1.0})
    """
    grades = as_grades(relevant)
    ranking = as_ranking(retrieved, duplicates=duplicates)
    check_id_kinds(ranking, grades)
    return ranking, grades


def id_kind(doc_id: Any) -> str:
    """Coarse kind of an id, for the str-vs-int mismatch check."""
    if isinstance(doc_id, str):
        return "str"
    if isinstance(doc_id, numbers.Integral) and not isinstance(doc_id, bool):
        return "int"
    return type(doc_id).__name__


def _share_a_plain_kind(retrieved: list, grades: Grades) -> bool:
    """True if both sides hold an id of type exactly ``str``, or both exactly ``int``.

    The quick answer for the usual ids: such a pair shares the kind ``"str"`` (or
    ``"int"``), so :func:`check_id_kinds` can pass without calling :func:`id_kind` on
    every id. ``in`` on a ``map`` stops at
    the first match, usually the first id. Other ids (str subclasses, numpy ints, bools,
    floats) are not recognised here and go through the full check.
    """
    right = set(map(type, grades))  # the golden set: usually the shorter side
    return (str in right and str in map(type, retrieved)) or (
        int in right and int in map(type, retrieved)
    )


def check_id_kinds(retrieved: list, grades: Grades, *, where: str = "") -> None:
    """Refuse rankings and golden sets whose ids can never match (``"42"`` vs ``42``).

    Exact comparison of ``"42"`` with ``42`` is always False, so such a pair would score 0
    without a word. Mixed kinds on one side are allowed as long as the sides share a kind.
    """
    if not retrieved or not grades:
        return
    if _share_a_plain_kind(retrieved, grades):
        return
    left = {id_kind(d): d for d in retrieved}
    right = {id_kind(d): d for d in grades}
    if left.keys() & right.keys():
        return
    lk, lv = next(iter(left.items()))
    rk, rv = next(iter(right.items()))
    raise InputTypeError(
        f"{where}retrieved ids are {lk} (e.g. {lv!r}) but relevant ids are {rk} (e.g. {rv!r}); "
        "ids of different kinds are refused, since '42' never equals 42 and every metric "
        "would silently be 0. Convert one side, e.g. [str(x) for x in retrieved]."
    )


def no_relevant_doc(grades: Grades, relevance_level: float) -> InputValueError:
    """The error for a golden set without a relevant doc, under ``empty_relevant="error"``."""
    return InputValueError(
        f"the golden set {grades!r} has no relevant doc (no grade reaches relevance_level "
        f"{relevance_level!r}); pass empty_relevant='zero', 'article' or 'skip' to score it"
    )


def first_inexact_integer(floats, exact) -> int | None:
    """The first row whose value was a whole number that its 64-bit float does not hold
    exactly, or None (the score policy of :func:`ragmetrics.evaluate`: such scores
    could tie, or swap, docs whose scores differ).

    ``floats`` are the values as read (an array of float64); ``exact(row)`` gives the
    value of a row as it was written, as an int, or None if it was not a whole number
    (a decimal fraction is a float as written). Only rows from
    :data:`EXACT_FLOAT_INTEGERS` are looked at: below it every whole number is exact.

    Examples
    --------
    >>> import numpy as np
    >>> written = [3, 2**53, 2**53 + 1]
    >>> first_inexact_integer(np.array(written, dtype=np.float64), written.__getitem__)
    2
    """
    import numpy as np

    for row in np.flatnonzero(np.abs(floats) >= EXACT_FLOAT_INTEGERS):
        value = exact(int(row))
        if value is not None and value != int(floats[row]):
            return int(row)
    return None


def inexact_integer_problem(name: str, value) -> str:
    """The reason to refuse a whole number ``value`` that a 64-bit float cannot hold."""
    try:
        read = f"it would be read as {float(value):.17g}"
    except OverflowError:
        read = "it is beyond the range of a float"
    why = ("such scores could tie, or swap, docs whose scores differ; subtract a common "
           "offset from them first" if name == "score" else
           "two different whole numbers can be read as one float")
    return (f"{name} {value} is a whole number that a 64-bit float cannot hold exactly ({read}"
            f"): beyond 2**53 = {EXACT_FLOAT_INTEGERS} {why}")
