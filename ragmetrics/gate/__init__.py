"""A regression gate for CI: does a candidate run keep the bar a baseline run set?

Teams gate their retrieval in CI with a baseline file, a tolerance and an exit code, and
two failures recur: a stale baseline (other judgments, other conventions) that hides a
regression, and a flat average that hides a category's collapse. This package is such a
gate, with the statistics of :mod:`ragmetrics.stats`:

- :func:`save_baseline` writes a run's per-query values with everything they depend on
  (the judgments' fingerprint, the conventions, the metrics, the run's provenance, the
  version): :mod:`~ragmetrics.gate.baseline`; :func:`load_baseline` reads it back and
  refuses a damaged or foreign file;
- rules as a team says them, ``"ndcg@10 worse by 0.01"``, ``"recall@10 below 0.8"``:
  :mod:`~ragmetrics.gate.gate_rules`;
- segments (``query_id -> segment``) whose collapse fails the gate even when the mean is
  flat: :mod:`~ragmetrics.gate.segment_file`;
- :func:`check_gate` refuses a stale baseline, then decides every rule with a one-sided
  paired t-test, corrected with Holm over every rule and segment, so that a candidate
  that keeps every bar fails at most at ``alpha``; :func:`ratchet_baseline` writes the
  candidate as the new baseline only when the gate passed: :mod:`~ragmetrics.gate.gate_check`.

The command is ``ragmetrics evaluate QRELS RUN --save-baseline base.json`` then
``ragmetrics gate base.json QRELS CANDIDATE --fail-if "ndcg@10 worse by 0.01"``
(:mod:`ragmetrics.cli.gate`; exit status 0 pass, 3 fail, 2 bad input or stale baseline,
1 internal error).

Layer: above the evaluation and the statistics (it evaluates the candidate and calls
the tests), below the command; it imports :mod:`ragmetrics.reports.output_files` only
to write files atomically.
"""

from .baseline import (
    BASELINE_SCHEMA,
    SCHEMA_VERSION,
    Baseline,
    StaleBaselineError,
    load_baseline,
    qrels_fingerprint,
    save_baseline,
    stale_reasons,
)
from .gate_check import (
    GATE_SCHEMA,
    MIN_SEGMENT_QUERIES,
    GateResult,
    RuleVerdict,
    check_gate,
    gate_decision,
    ratchet_baseline,
)
from .gate_rules import RULE_KINDS, GateRule, RuleKind, parse_rule, parse_rules
from .segment_file import read_segments

__all__ = [
    "BASELINE_SCHEMA",
    "GATE_SCHEMA",
    "MIN_SEGMENT_QUERIES",
    "RULE_KINDS",
    "SCHEMA_VERSION",
    "Baseline",
    "GateResult",
    "GateRule",
    "RuleKind",
    "RuleVerdict",
    "StaleBaselineError",
    "check_gate",
    "gate_decision",
    "load_baseline",
    "parse_rule",
    "parse_rules",
    "qrels_fingerprint",
    "ratchet_baseline",
    "read_segments",
    "save_baseline",
    "stale_reasons",
]
