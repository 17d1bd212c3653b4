"""Named conventions: every choice on which retrieval-metric libraries silently disagree.

Each policy is a keyword argument with a documented default; the defaults reproduce
trec_eval (NIST's reference evaluator) wherever trec_eval defines the answer. README's
conventions table lists the same rows, and ``tests/test_conventions.py`` tests each one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .validation import check_choice, check_relevance_level

#: How tied scores are ordered within a query (only for runs given with scores).
#:
#: - ``"trec_eval"``: score descending, then doc id descending as strings (trec_eval's order).
#: - ``"input_order"``: score descending, then the order in which the rows were given.
#: - ``"optimistic"``: score descending, then relevant docs (highest grade) first.
#: - ``"pessimistic"``: score descending, then relevant docs (highest grade) last.
TIE_POLICIES = ("trec_eval", "input_order", "optimistic", "pessimistic")

#: Which column orders a run given with both a ``score`` and a ``rank`` column.
#:
#: - ``"score"``: score descending, ties by the tie rule; the rank column is ignored
#:   (trec_eval). A warning says when the ranks give another order.
#: - ``"rank"``: rank ascending (1 is best), ties by the tie rule; the score is ignored.
#:   For runs whose scores are constant or missing, with the order in the ranks.
ORDER_POLICIES = ("score", "rank")

#: What to do with a doc id that appears twice in one query's results.
#:
#: - ``"error"``: raise, naming the query and the id.
#: - ``"keep_first"``: keep the highest-ranked copy, drop the rest.
#:
#: :func:`ragmetrics.evaluate` looks for repeats in the rows it reads (below): a copy
#: deeper than that cannot change any value asked for. The per-query functions check the
#: whole list.
DUPLICATE_POLICIES = ("error", "keep_first")

# How deep evaluate() reads each query's ranking (not a choice, but a convention all the
# same): down to the deepest cut-off among the metrics asked for (R-precision: the largest
# number of relevant docs), plus the rows tied in score with the last of them (a tie rule
# may rank any of them above it); everything when a metric has no cut-off ("mrr", "map",
# "ndcg"). Only those rows' doc ids are validated (missing ids, str vs int), matched with
# the judgments and checked for repeats; scores and query ids are checked in every row.
# Deeper rows cannot change a value asked for, and not reading their ids is what lets ten
# million rows take about a second. Ask for an uncut metric to check every row.

#: How to score a query whose golden set has no relevant doc (no grade >= relevance_level).
#:
#: - ``"zero"``: the query counts in the mean and every metric that divides by the number
#:   of relevant docs is 0 (trec_eval). nDCG, whose gains are grades, is still computed
#:   when a doc has a positive grade below ``relevance_level``, as trec_eval does.
#: - ``"article"``: the source article's code: Recall@k = nDCG@k = 1.0 ("nothing to find, so
#:   nothing missed"), every other metric 0. The two rules disagree on what a query without
#:   answers says about a retriever; ``"zero"`` never rewards it.
#: - ``"skip"``: NaN, left out of the mean (and reported).
#: - ``"error"``: raise, naming the query.
EMPTY_POLICIES = ("zero", "article", "skip", "error")

#: How to score a query that has judgments but is absent from the run.
#:
#: - ``"zero"``: every metric is 0 and the query counts in the mean (trec_eval ``-c``).
#: - ``"skip"``: left out of the mean (trec_eval without ``-c``). Reported either way.
MISSING_POLICIES = ("zero", "skip")

#: How a grade becomes a gain in (n)DCG.
#:
#: - ``"linear"``: gain = grade (Järvelin & Kekäläinen; trec_eval).
#: - ``"exponential"``: gain = 2**grade - 1 (Burges et al.); equal to linear for binary grades.
#:
#: Negative grades ("judged harmful" in some TREC qrels) add no gain under either rule.
GAIN_POLICIES = ("linear", "exponential")


@dataclass(frozen=True)
class Conventions:
    """The conventions one evaluation ran under: printed on every result and report."""

    relevance_level: float = 1
    gain: str = "linear"
    ties: str = "trec_eval"
    duplicates: str = "error"
    empty_relevant: str = "zero"
    missing_from_run: str = "zero"
    order_by: str = "score"

    def __post_init__(self) -> None:
        check_relevance_level(self.relevance_level)
        check_choice(self.gain, GAIN_POLICIES, "gain")
        check_choice(self.ties, TIE_POLICIES, "ties")
        check_choice(self.duplicates, DUPLICATE_POLICIES, "duplicates")
        check_choice(self.empty_relevant, EMPTY_POLICIES, "empty_relevant")
        check_choice(self.missing_from_run, MISSING_POLICIES, "missing_from_run")
        check_choice(self.order_by, ORDER_POLICIES, "order_by")

    def as_dict(self) -> dict:
        return asdict(self)
