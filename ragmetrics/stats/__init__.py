"""How sure is a mean over queries? Bootstrap intervals, paired tests, corrections, power.

A retrieval metric is averaged over queries, and the queries are a sample: another set
of questions would give another mean. This package answers the questions a team asks of
such a mean, with the query as the unit of resampling throughout:

- **How precise is it?** :func:`bootstrap_ci`, an interval for the mean whose coverage
  was checked by simulation on metric-like data (see :data:`INTERVAL_METHODS`).
- **Is system B better than system A?** On the *same* queries, look at the per-query
  differences ``b - a``: :func:`randomization_test` (a sign-flip permutation test, the
  test Smucker, Allan & Carterette, CIKM 2007, recommend for IR), :func:`paired_t_test`,
  :func:`paired_bootstrap` (an interval for the mean difference) and
  :func:`paired_effect_size` (the paired standardized difference d_z).
- **Many claims at once?** Correct the p-values with :func:`holm` or
  :func:`benjamini_hochberg`; :func:`randomization_verdicts` decides every claim under a
  correction, and resamples further where Monte Carlo error leaves a verdict open.
- **How many queries does a difference need?** :mod:`~ragmetrics.stats.power`.

Statistics on arrays: every function takes numbers (one value per query, or a matrix of
queries x columns) and knows nothing of runs, judgments, systems or reports; this package
imports nothing from :mod:`ragmetrics.evaluation`, :mod:`ragmetrics.spans`,
:mod:`ragmetrics.comparison` or :mod:`ragmetrics.reports` (``tests/repo/test_layout.py``
checks it, imports inside functions included). All of it for several systems and
metrics at once is :func:`ragmetrics.compare` (:mod:`ragmetrics.comparison`), which
evaluates the systems and calls these.

Everything is NumPy (and two special functions of SciPy). Resampling is vectorized: each
batch of resamples is one matrix (resample x query) of counts or signs, multiplied by the
per-query values, so no Python loop runs per resample or per query, and the batches bound
the memory. The same ``seed`` gives the same numbers for the same input. Results carry
their warnings as data (``.warnings``), e.g. when there are too few queries for the claim.

Conventions, each named once:

- :data:`ROUNDING`: a per-query difference, or a standard deviation, within this share
  of the values' magnitude is rounding error and counts as 0 (so "every query exactly
  0.1 worse" is a constant difference, not a spread of 1e-17);
- :data:`MC_Z`: a sampled p-value is known to within ``MC_Z`` Monte Carlo standard errors;
- degenerate samples: one value, or values without spread, give an interval of no width
  at the mean, and say so in ``.warnings`` (:func:`ragmetrics.compare` too, naming each
  mean and each difference); never NaN. The paired d_z of differences without spread is
  undefined (NaN, with its reason) unless they are all 0 (d_z 0).

The modules, each with one job (the flow runs down the list):

- :mod:`~ragmetrics.stats.arguments`: inputs checked at the boundary; the sample-size warning;
- :mod:`~ragmetrics.stats.rounding`: exact scaling, and differences that are only rounding;
- :mod:`~ragmetrics.stats.resampling`: batched bootstrap means of many columns at once;
- :mod:`~ragmetrics.stats.intervals`: bootstrap intervals (:func:`bootstrap_ci`, ...);
- :mod:`~ragmetrics.stats.randomization`: the sign-flip test, exact or sampled;
- :mod:`~ragmetrics.stats.t_test`: Student's paired t-test and the t distribution;
- :mod:`~ragmetrics.stats.distributions`: the normal and t CDFs and quantiles behind
  them (plain Python, no SciPy on the path of ``ragmetrics evaluate``);
- :mod:`~ragmetrics.stats.effect_size`: d_z, wins, ties and losses;
- :mod:`~ragmetrics.stats.corrections`: Holm and Benjamini-Hochberg;
- :mod:`~ragmetrics.stats.verdicts`: many claims decided with their Monte Carlo error;
- :mod:`~ragmetrics.stats.power`: the smallest difference a set of queries can detect,
  and the queries a difference needs.

``ragmetrics.stats.compare``, ``Comparison``, ``evaluate_systems``, ``default_metrics``,
``DEFAULT_CUTOFFS`` and ``UNDECIDED`` are now in :mod:`ragmetrics.comparison`: the old
names still work, with a DeprecationWarning (:mod:`ragmetrics._moved`).
"""

from .._moved import renamed_in
from .arguments import MIN_QUERIES, sample_size_warnings
from .corrections import CORRECTIONS, Correction, adjust_p_values, benjamini_hochberg, holm
from .effect_size import EffectSize, paired_effect_size
from .intervals import (
    INTERVAL_METHODS,
    ConfidenceInterval,
    IntervalMethod,
    bootstrap_ci,
    bootstrap_interval,
    paired_bootstrap,
)
from .randomization import (
    EXACT_MAX_QUERIES,
    RandomizationResult,
    randomization_p_values,
    randomization_test,
    smallest_p_value,
)
from .resampling import bootstrap_means, finite_column_groups
from .rounding import ROUNDING, paired_differences
from .t_test import TTestResult, paired_t_test, student_t_cdf
from .verdicts import MAX_RESAMPLES_FACTOR, MC_Z, RandomizationVerdicts, randomization_verdicts

__all__ = [
    "CORRECTIONS",
    "EXACT_MAX_QUERIES",
    "INTERVAL_METHODS",
    "MAX_RESAMPLES_FACTOR",
    "MC_Z",
    "MIN_QUERIES",
    "ROUNDING",
    "ConfidenceInterval",
    "Correction",
    "EffectSize",
    "IntervalMethod",
    "RandomizationResult",
    "RandomizationVerdicts",
    "TTestResult",
    "adjust_p_values",
    "benjamini_hochberg",
    "bootstrap_ci",
    "bootstrap_interval",
    "bootstrap_means",
    "finite_column_groups",
    "holm",
    "paired_bootstrap",
    "paired_differences",
    "paired_effect_size",
    "paired_t_test",
    "randomization_p_values",
    "randomization_test",
    "randomization_verdicts",
    "sample_size_warnings",
    "smallest_p_value",
    "student_t_cdf",
]

# Old names answer with a DeprecationWarning (ragmetrics._moved.RENAMED); others raise.
__getattr__ = renamed_in(__name__)
