"""The rules a regression gate enforces, written as a team says them.

Two kinds, each one line (the command's ``--fail-if``):

- ``"<metric> worse by <tolerance>"``: fail when the candidate is worse than the
  baseline by more than ``tolerance``, with significance (a one-sided paired test of
  ``mean(candidate - baseline) >= -tolerance``; :mod:`ragmetrics.gate.gate_check`);
- ``"<metric> below <floor>"``: fail when the candidate's mean is significantly below
  the absolute ``floor`` (a one-sided test of ``mean(candidate) >= floor``).

The metric is any name :func:`ragmetrics.evaluate` takes (``ndcg@10``, ``recall@10``,
``P_5``, ``ndcg(1=3,2=9)@10``); the number is a decimal in ASCII digits. Words are
matched without regard to case, and spaces around them are free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..errors import InputError, InputTypeError, InputValueError
from ..metrics.registry import parse_metric
from ..validation import decimal_number

__all__ = ["RULE_KINDS", "GateRule", "RuleKind", "parse_rule", "parse_rules"]

#: The kinds of rule, as a type: ``"worse_by"`` (a tolerance on the difference from the
#: baseline) or ``"below"`` (an absolute floor on the candidate's mean).
RuleKind = Literal["worse_by", "below"]

#: The kinds of rule, in the order their verdicts are listed.
RULE_KINDS: tuple[str, ...] = ("worse_by", "below")

_RULE = re.compile(r"^\s*(?P<metric>\S.*?)\s+(?P<kind>worse\s+by|below)\s+(?P<number>\S+)\s*$",
                   re.IGNORECASE)
_FORMS = "'<metric> worse by <tolerance>' or '<metric> below <floor>'"


@dataclass(frozen=True)
class GateRule:
    """One rule of a gate.

    Attributes
    ----------
    metric : str
        The metric's name, as written.
    kind : {"worse_by", "below"}
    threshold : float
        The tolerance (``worse_by``, at least 0) or the floor (``below``).
    """

    metric: str
    kind: RuleKind
    threshold: float

    def __str__(self) -> str:
        word = "worse by" if self.kind == "worse_by" else "below"
        return f"{self.metric} {word} {self.threshold:g}"

    @property
    def tolerance(self) -> float | None:
        return self.threshold if self.kind == "worse_by" else None

    @property
    def floor(self) -> float | None:
        return self.threshold if self.kind == "below" else None


def parse_rule(text) -> GateRule:
    """A rule from its text, or an error naming the rule and what is wrong.

    Examples
    --------
    >>> parse_rule("ndcg@10 worse by 0.01")
    GateRule(metric='ndcg@10', kind='worse_by', threshold=0.01)
    >>> str(parse_rule("  recall@10   BELOW 0.8 "))
    'recall@10 below 0.8'
    >>> parse_rule("ndcg@10 worse than 0.01")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: rule 'ndcg@10 worse than 0.01': expected '<metric> worse by <tolerance>' or '<metric> below <floor>'
    >>> parse_rule("ndgc@10 worse by 0.01")
    Traceback (most recent call last):
    ...
    ragmetrics.errors.InputValueError: rule 'ndgc@10 worse by 0.01': unknown metric 'ndgc@10'; did you mean 'ndcg'?
    """
    if isinstance(text, GateRule):
        return text
    if not isinstance(text, str):
        raise InputTypeError(f"a rule must be a str such as 'ndcg@10 worse by 0.01', got "
                             f"{text!r}")
    match = _RULE.match(text)
    if match is None:
        raise InputValueError(f"rule {text!r}: expected {_FORMS}")
    metric, number = match["metric"], match["number"]
    kind = "below" if match["kind"].lower() == "below" else "worse_by"
    try:
        parse_metric(metric)
    except InputError as error:
        raise InputValueError(f"rule {text!r}: {error}") from None
    try:
        threshold = decimal_number(number, "")
    except InputError:
        raise InputValueError(f"rule {text!r}: {number!r} is not a finite number (ASCII "
                              "digits, e.g. 0.01)") from None
    if kind == "worse_by" and threshold < 0:
        raise InputValueError(f"rule {text!r}: the tolerance must be 0 or more (how much "
                              f"worse is allowed), got {number}")
    return GateRule(metric, kind, float(threshold))


def parse_rules(rules) -> tuple[GateRule, ...]:
    """Every rule of ``rules`` (texts or :class:`GateRule`), at least one, none twice.

    Examples
    --------
    >>> [str(r) for r in parse_rules(["ndcg@10 worse by 0.01", "recall@10 below 0.8"])]
    ['ndcg@10 worse by 0.01', 'recall@10 below 0.8']
    """
    if isinstance(rules, (str, GateRule)):
        rules = [rules]
    parsed = tuple(parse_rule(r) for r in rules)
    if not parsed:
        raise InputValueError(f"a gate needs at least one rule, such as {_FORMS}")
    seen: dict[tuple, GateRule] = {}
    for rule in parsed:
        key = (str(parse_metric(rule.metric)), rule.kind)
        if key in seen:
            raise InputValueError(f"rules {str(seen[key])!r} and {str(rule)!r} guard the same "
                                  "metric the same way: keep one")
        seen[key] = rule
    return parsed
