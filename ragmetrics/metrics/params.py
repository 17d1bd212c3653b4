"""A metric's own parameters, as written in its name: ``rbp(p=0.8)``, ``ndcg(1=3, 2=9)``.

Inside the parentheses, comma-separated:

- ``name=value``: a named parameter (``p=0.8``, ``base=10``, ``beta=0.5``);
- ``grade=value`` (the key a number, e.g. ``1=3``; ``1:3`` also reads): an entry of the
  metric's map from grades (gains for nDCG, stopping chances for ERR);
- a bare value: the next positional parameter (``utility(2, -1, 0, 0)``,
  ``11pt_avg(0.25, 0.5, 0.75)``).

Each :class:`Param` says what it takes; :func:`parse_params` checks every value once and
names the bad one.

Examples
--------
>>> rbp = (Param("p", 0.9, "probability", "persistence", positional=True),)
>>> parse_params("p=0.8", rbp, "rbp(p=0.8)")
(('p', 0.8),)
>>> parse_params("0.5", rbp, "rbp(0.5)")
(('p', 0.5),)
>>> parse_params("q=1", rbp, "rbp(q=1)")
Traceback (most recent call last):
...
ragmetrics.errors.InputValueError: rbp(q=1): unknown parameter 'q'; rbp takes p
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..errors import InputValueError
from ..validation import MAX_COUNT, check_log_base

__all__ = ["MAX_NUMBER", "Param", "format_params", "parse_params", "resolve"]

#: The largest size of a ``"number"`` or ``"positive"`` parameter (utility's coefficients
#: and collection size, F's beta): so that a value over any count of docs (at most
#: 2**63 - 1), and a mean over any number of queries, stays a finite float. Larger ones
#: are refused with their value.
MAX_NUMBER = 1e100

_NAMED = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?P<value>.+)$")
_GRADE = re.compile(r"^(?P<key>[+-]?[0-9]+(?:\.[0-9]*)?)\s*[=:]\s*(?P<value>.+)$")


@dataclass(frozen=True)
class Param:
    """One parameter of a metric.

    ``kind`` is one of ``"number"`` (a finite number, at most :data:`MAX_NUMBER` in
    size), ``"positive"`` (> 0, at most :data:`MAX_NUMBER`), ``"log_base"`` (> 1: a
    logarithm's base for a discount), ``"probability"`` (strictly between 0 and 1),
    ``"share"`` (from 0 to 1, both included: ndeval's alpha and beta), ``"count"`` (a whole number from 1 to 2**63 - 1),
    ``"optional"`` (a number, or None for "from the data"), ``"numbers"`` (one or more
    numbers, positional ones gathered) and ``"grade_map"`` (``grade=value`` entries).
    ``within``: the closed range a grade map's values must lie in (ERR's stopping
    chances: ``(0, 1)``), or None for any finite number.
    """

    name: str
    default: object
    kind: str
    doc: str
    positional: bool = False
    within: tuple[float, float] | None = None


def _number(text: str, where: str, name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputValueError(f"{where}: {name} must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise InputValueError(f"{where}: {name} must be a finite number, got {text!r}")
    return value


def _check(param: Param, value, where: str):
    """``value`` checked (and made hashable) for ``param``."""
    kind = param.kind
    if kind == "numbers":
        values = tuple(float(v) for v in value)
        if not values:
            raise InputValueError(f"{where}: {param.name} needs at least one number")
        return values
    if kind == "grade_map":
        if param.within is not None:
            low, high = param.within
            for grade, entry in value:
                if not low <= entry <= high:
                    raise InputValueError(
                        f"{where}: the value of grade {grade:g} must lie between {low:g} "
                        f"and {high:g} ({param.doc}), got {entry:g}")
        return value
    if kind == "optional" and value is None:
        return None
    value = float(value)
    if kind in ("number", "positive") and not abs(value) <= MAX_NUMBER:
        raise InputValueError(f"{where}: {param.name} must be at most {MAX_NUMBER:g} in size, "
                              f"got {value:g}")
    if kind == "positive" and not value > 0:
        raise InputValueError(f"{where}: {param.name} must be > 0, got {value:g}")
    if kind == "log_base":
        check_log_base(value, f"{where}: {param.name}")
    if kind == "probability" and not 0 < value < 1:
        raise InputValueError(f"{where}: {param.name} must lie strictly between 0 and 1, "
                              f"got {value:g}")
    if kind == "share" and not 0 <= value <= 1:
        raise InputValueError(f"{where}: {param.name} must lie between 0 and 1 (both "
                              f"included), got {value:g}")
    if kind == "count":
        if value != int(value) or not 1 <= value <= MAX_COUNT:
            raise InputValueError(f"{where}: {param.name} must be a whole number from 1 "
                                  f"to 2**63 - 1, got {value:g}")
        return int(value)
    return value


def parse_params(text: str | None, params: tuple[Param, ...], where: str) -> tuple:
    """The parameters written in ``text`` (what is inside the parentheses), checked, as
    ``((name, value), ...)`` in the order of ``params``: only those written."""
    if text is None:
        return ()
    by_name = {p.name: p for p in params}
    grade_map = next((p for p in params if p.kind == "grade_map"), None)
    positional = [p for p in params if p.positional]
    got: dict[str, object] = {}
    grades: dict[float, float] = {}
    loose: list[float] = []
    items = [item.strip() for item in text.split(",")]
    if items == [""]:
        return ()
    takes = ", ".join(p.name for p in params) or "no parameter"
    metric = where.split("(")[0]
    for item in items:
        if not item:
            raise InputValueError(f"{where}: an empty parameter (two commas in a row?)")
        grade = _GRADE.match(item)
        named = _NAMED.match(item)
        if grade is not None:
            if grade_map is None:
                raise InputValueError(f"{where}: {metric} takes no grade map ({item!r}); "
                                      f"it takes {takes}")
            key = _number(grade["key"], where, "a grade")
            if key < 0:
                raise InputValueError(f"{where}: a grade map names grades 0 and up; "
                                      f"got {grade['key']}")
            if key in grades:
                raise InputValueError(f"{where}: grade {key:g} is given twice")
            grades[key] = _number(grade["value"], where, f"the value of grade {key:g}")
        elif named is not None:
            name = named["key"]
            if name not in by_name or by_name[name].kind == "grade_map":
                raise InputValueError(f"{where}: unknown parameter {name!r}; {metric} takes "
                                      f"{takes}")
            if name in got:
                raise InputValueError(f"{where}: parameter {name!r} is given twice")
            got[name] = _number(named["value"], where, name)
        else:
            loose.append(_number(item, where, "a parameter"))
    for param in positional:
        if not loose:
            break
        if param.name in got:
            raise InputValueError(f"{where}: parameter {param.name!r} is given twice")
        if param.kind == "numbers":
            got[param.name], loose = tuple(loose), []
        else:
            got[param.name] = loose.pop(0)
    if loose:
        raise InputValueError(f"{where}: too many values; {metric} takes {takes}")
    if grades:
        got[grade_map.name] = tuple(sorted(grades.items()))
    return tuple((p.name, _check(p, got[p.name], where)) for p in params if p.name in got)


def resolve(written: tuple, params: tuple[Param, ...]) -> dict:
    """Every parameter's value: as written, else its default."""
    given = dict(written)
    return {p.name: given.get(p.name, p.default) for p in params}


def format_params(written: tuple, params: tuple[Param, ...]) -> str:
    """``written`` back as text, each parameter once, defaults left out: ``p=0.8``."""
    defaults = {p.name: p.default for p in params}
    parts = []
    for name, value in written:
        if value == defaults.get(name):
            continue
        if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # a grade map
            parts += [f"{_text(g)}={_text(v)}" for g, v in value]
        elif isinstance(value, tuple):  # numbers, written positionally
            parts.append(",".join(map(_text, value)))
        else:
            parts.append(f"{name}={_text(value)}")
    return ",".join(parts)


def _text(value) -> str:
    """A number as short as it reads back exactly: ``0.8``, ``3`` (not ``3.0``)."""
    if isinstance(value, float):
        text = repr(value)
        return text.removesuffix(".0")
    return str(value)
