"""Teaching material: the article's worked examples as data, the token budget, the traps
where one metric lies, the nDCG table that explains a metric rank by rank, the article's
errata, exercises with feedback, the learner's guesses (predict, then reveal), precision-recall curves, how each metric weighs a rank,
and where judgments come from (pooling, assessor agreement, unjudged docs).

The data files live once, in the repository's ``data/`` folder, and inside an installed
wheel (:mod:`~ragmetrics.datafiles`).
"""

from .._moved import renamed_in
from .budget import chunks_that_fit
from .discounts import RBP_P, discount_curves, rank_biased_precision
from .errata import ERRATA, Erratum, errata_markdown
from .examples import Example, example_names, load_example
from .exercises import (
    EXERCISE_METRICS,
    Exercise,
    ExerciseSet,
    Explanation,
    Feedback,
    check_answer,
    check_answers,
    explain,
    make_exercise,
    parse_answer,
)
from .exercises_misconceptions import (
    GENERIC_HINTS,
    MISCONCEPTIONS,
    Misconception,
    match_misconception,
)
from .guesses import (
    RecordedAnswer,
    check_exercise,
    check_your_check,
    forget_guesses,
    predict,
    recorded_answers,
    reveal,
)
from .judgments import (
    cohen_kappa,
    condensed_run,
    judged_at_k_per_query,
    pool,
    restrict_judgments,
    simulated_assessor,
    top_k,
)
from .ndcg_steps import ndcg_table
from .page_checks import CHECK_CELL_METADATA, verify
from .pr_curves import (
    ELEVEN_POINTS,
    PrecisionRecallCurve,
    eleven_point_average,
    interpolated_precision,
    precision_recall_curve,
)
from .syllabus import SYLLABUS, syllabus_table
from .traps import Trap, trap_scenarios

__all__ = [
    "CHECK_CELL_METADATA",
    "ELEVEN_POINTS",
    "ERRATA",
    "EXERCISE_METRICS",
    "GENERIC_HINTS",
    "MISCONCEPTIONS",
    "RBP_P",
    "SYLLABUS",
    "Erratum",
    "Example",
    "Exercise",
    "ExerciseSet",
    "Explanation",
    "Feedback",
    "Misconception",
    "PrecisionRecallCurve",
    "RecordedAnswer",
    "Trap",
    "check_answer",
    "check_answers",
    "check_exercise",
    "check_your_check",
    "chunks_that_fit",
    "cohen_kappa",
    "condensed_run",
    "discount_curves",
    "eleven_point_average",
    "errata_markdown",
    "example_names",
    "explain",
    "forget_guesses",
    "interpolated_precision",
    "judged_at_k_per_query",
    "load_example",
    "make_exercise",
    "match_misconception",
    "ndcg_table",
    "parse_answer",
    "pool",
    "precision_recall_curve",
    "predict",
    "rank_biased_precision",
    "recorded_answers",
    "restrict_judgments",
    "reveal",
    "simulated_assessor",
    "syllabus_table",
    "top_k",
    "trap_scenarios",
    "verify",
]

# Old names answer with a DeprecationWarning (ragmetrics._moved.RENAMED); others raise.
__getattr__ = renamed_in(__name__)
