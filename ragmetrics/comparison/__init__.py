"""Compare retrieval systems on the same queries: :func:`compare` and its :class:`Comparison`.

:func:`compare` runs named steps, each a module with one job, in this order:

- :mod:`~ragmetrics.comparison.options`: every option checked once, at the boundary (the
  systems, the baseline, the metrics, the evidence, the conventions under a preset, the
  levels, the resamples): :class:`~ragmetrics.comparison.options.ComparisonOptions`;
- :mod:`~ragmetrics.comparison.no_answer`: with ``max_false_answer_rate``, each
  system's score threshold for that false-answer rate and what it gives, read before
  the scoring (a run without scores is refused at once): :attr:`Comparison.abstention`;
- :mod:`~ragmetrics.comparison.systems`: evaluate every system on the same queries
  (:func:`ragmetrics.evaluate`, on worker processes with ``jobs``), its warnings turned
  into notes; :func:`evaluate_systems` is this step alone (``--means-only``);
- :mod:`~ragmetrics.comparison.costs`: for evidence spans, what each system sends to the
  model at every cut (the units-sent span metric, scored with the others and kept apart):
  :attr:`Comparison.costs`;
- :mod:`~ragmetrics.comparison.bootstrap_pass`: resample, one bootstrap pass over every
  system, metric and difference with the baseline; each system's mean interval;
- :mod:`~ragmetrics.comparison.paired_tests`: each system against the baseline: the
  randomization test corrected over every claim, its verdict, the t-test, d_z;
- :mod:`~ragmetrics.comparison.pairwise`: with ``pairs="all"``, every pair of systems in
  the same family; the summary matrix and the ranking;
- :mod:`~ragmetrics.comparison.segments`: with ``segments``, each system per segment
  (a family of its own) and the notes on segments;
- :mod:`~ragmetrics.comparison.factorial`: for a factorial set of systems, each
  factor's main effect;
- :mod:`~ragmetrics.comparison.caveats`: the warnings the numbers need to be read with;
- :mod:`~ragmetrics.comparison.comparison_result`: the result, :class:`Comparison`, with
  its drill-downs (the queries that differ most, the worst queries, power);
- :mod:`~ragmetrics.comparison.pipeline`: :func:`compare` itself, the steps in order.

Where it stands in the package's flow (metrics -> evaluation -> comparison -> reports):
it builds on :mod:`ragmetrics.evaluation` (and :mod:`ragmetrics.spans` for evidence)
for the per-query values, and on :mod:`ragmetrics.stats`, statistics on arrays that
know nothing of runs or systems, for every number. The reports present a Comparison
without importing this package (it is only an annotation there); a Comparison presents
itself through them (:meth:`Comparison.to_text`, :meth:`~Comparison.to_markdown`,
:meth:`~Comparison.to_html` import their renderer when called, as pandas'
``DataFrame.to_html`` does), so the dependency runs one way: comparison -> reports.
"""

from ..stats.corrections import CORRECTIONS
from .caveats import ONE_METRIC_NOTE
from .comparison_result import Comparison
from .factorial import factor_effects, factors_from_names
from .options import DEFAULT_CUTOFFS, default_metrics
from .paired_tests import UNDECIDED
from .pairwise import PAIRS, letter_display
from .pipeline import compare
from .segments import ALL_SEGMENTS, SEGMENT_WEIGHTS
from .systems import evaluate_systems

__all__ = [
    "ALL_SEGMENTS",
    "CORRECTIONS",
    "DEFAULT_CUTOFFS",
    "ONE_METRIC_NOTE",
    "PAIRS",
    "SEGMENT_WEIGHTS",
    "UNDECIDED",
    "Comparison",
    "compare",
    "default_metrics",
    "evaluate_systems",
    "factor_effects",
    "factors_from_names",
    "letter_display",
]
