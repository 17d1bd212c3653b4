"""Named conventions: every choice on which retrieval-metric libraries silently disagree.

One table, :data:`CONVENTIONS`, holds each convention once: its keyword, its choices
with a line each, its default and what trec_eval does. The table builds
:class:`Conventions` (the record every result and report carries), the convention
parameters of :func:`ragmetrics.evaluate` and :func:`ragmetrics.compare`, the options
of the ``ragmetrics`` command, the report's convention card, and README's conventions
table (``tests/unit/core/test_conventions.py`` checks that they all agree, and tests each row).
The defaults reproduce trec_eval (NIST's reference evaluator) wherever trec_eval defines
the answer; rows without a keyword (:data:`FIXED_CONVENTIONS`) are rules with no choice.
"""

from __future__ import annotations

import dataclasses
import inspect
import numbers
import textwrap
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypedDict

from .errors import InputTypeError, InputValueError
from .validation import MAX_COUNT, check_choice, check_relevance_level

__all__ = [
    "CONVENTIONS",
    "DUPLICATE_POLICIES",
    "EMPTY_POLICIES",
    "FIXED_CONVENTIONS",
    "GAIN_POLICIES",
    "MISSING_POLICIES",
    "ORDER_POLICIES",
    "TIE_POLICIES",
    "UNJUDGED_POLICIES",
    "AnswerlessRule",
    "ApDenominator",
    "Choice",
    "Convention",
    "ConventionKeywords",
    "Conventions",
    "DuplicateRule",
    "GainRule",
    "IdealOrder",
    "MissingRule",
    "OrderBy",
    "QueryIdDocs",
    "ScorePrecision",
    "TieRule",
    "UnjudgedRule",
    "accepts_conventions",
    "conventions_markdown",
    "describe",
    "parameters_doc",
    "shown",
]

# The choices of each convention as types: what a type checker and a reader see in a
# signature. tests/unit/core/test_conventions.py checks that each names exactly the choices of its
# row of CONVENTIONS, in order.
GainRule = Literal["linear", "exponential"]
TieRule = Literal["trec_eval", "input_order", "optimistic", "pessimistic", "average",
                  "doc_id_ascending"]
DuplicateRule = Literal["error", "keep_first"]
AnswerlessRule = Literal["zero", "article", "skip", "error"]
MissingRule = Literal["zero", "skip"]
UnjudgedRule = Literal["nonrelevant", "removed"]
OrderBy = Literal["score", "rank", "rank_position"]
ScorePrecision = Literal["float64", "float32"]
QueryIdDocs = Literal["keep", "ignore"]
ApDenominator = Literal["num_relevant", "min_relevant_k"]
IdealOrder = Literal["sorted", "label_order"]


@dataclass(frozen=True)
class Choice:
    """One value a convention can take, in a line."""

    value: str
    description: str


@dataclass(frozen=True)
class Convention:
    """One convention: the keyword, what it decides, its choices and its default.

    ``choices`` is empty for a number (``relevance_level``), which ``number`` describes
    (``unset`` says what None means, for a number that may be None) and ``check_number``
    checks. A convention added after the report's card took its shape is listed on the
    card only when it is not at its default (``on_card_at_default=False``), so that
    earlier cards read the same.
    """

    keyword: str
    label: str  # what it decides, for people: "tied scores"
    default: object
    choices: tuple[Choice, ...] = ()
    number: str = ""  # for a number: what it means, with {value}
    trec_eval: str = ""  # what trec_eval does, or its option
    details: str = ""  # more, for README
    unset: str = ""  # for a number that may be None: what None means
    check_number: Callable = check_relevance_level
    on_card_at_default: bool = True

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(choice.value for choice in self.choices)

    @property
    def cli_option(self) -> str:
        return "--" + self.keyword.replace("_", "-")

    def describe(self, value) -> str:
        """``value`` and its one-line meaning, e.g. ``"zero: scored 0, counted ..."``."""
        if not self.choices:
            if value is None:
                return f"none: {self.unset}"
            return f"{value:g}: {self.number.format(value=f'{value:g}')}"
        meaning = next(c.description for c in self.choices if c.value == value)
        return f"{value}: {meaning}"

    def check(self, value):
        if not self.choices:
            return self.check_number(value)
        return check_choice(value, self.values, self.keyword)


def check_max_retrieved(value):
    """None (every retrieved doc) or a positive whole number of docs."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputTypeError(f"max_retrieved must be a positive int or None, got {value!r}")
    if not 1 <= value <= MAX_COUNT:
        raise InputValueError(f"max_retrieved must be a positive int (1, 2, ... up to "
                              f"{MAX_COUNT}) or None, got {value!r}")
    return int(value)


#: Every convention with a keyword, in the order of the signatures.
CONVENTIONS: tuple[Convention, ...] = (
    Convention(
        "relevance_level", "relevance level", 1,
        number="a doc is relevant at grade >= {value}",
        trec_eval="-l (default 1)",
        details="nDCG's gains ignore the level, as in trec_eval",
    ),
    Convention(
        "gain", "gain", "linear",
        (Choice("linear", "gain = grade (Järvelin & Kekäläinen; trec_eval)"),
         Choice("exponential", "gain = 2^grade - 1 (Burges et al.)")),
        trec_eval="linear",
        details="negative grades add no gain; the ideal DCG ranks every judged doc, "
        "retrieved or not",
    ),
    Convention(
        "ties", "tied scores", "trec_eval",
        (Choice("trec_eval", "score descending, then doc id descending as strings (trec_eval)"),
         Choice("input_order", "score descending, then the order the rows were given"),
         Choice("optimistic", "score descending, then relevant docs first (a best case)"),
         Choice("pessimistic", "score descending, then relevant docs last (a worst case)"),
         Choice("average", "score descending, each metric the mean over every order of "
                "the tied docs (exact, nothing sampled: in closed form, McSherry & Najork "
                "for DCG, or as a finite sum over each block's arrangements)"),
         Choice("doc_id_ascending", "score descending, then doc id ascending as strings "
                "(Python's sort on (-score, doc id): ir_measures' RR@k)")),
        trec_eval="trec_eval",
        details="lists of ids are already in rank order; \"average\" lies between "
        "\"pessimistic\" and \"optimistic\" for the metrics that reward relevance only "
        "(not the unjudged counts, infAP or G); relstring, a text, has no mean (an "
        "error says so), and a block too large to sum exactly (over 5e7 terms: for "
        "interpolated precision a few hundred tied docs with tens relevant, for G about "
        "a thousand of mixed grades, for infAP thousands) is refused by an error naming "
        "its size",
    ),
    Convention(
        "duplicates", "doc repeated in a ranking", "error",
        (Choice("error", "an error naming the query and the doc"),
         Choice("keep_first", "the highest-ranked copy is kept")),
        trec_eval="an error",
        details="never counted twice, never last-wins",
    ),
    Convention(
        "empty_relevant", "query with no relevant doc", "zero",
        (Choice("zero", "every metric 0, counted in the mean (trec_eval)"),
         Choice("article", "Recall and nDCG 1, the others 0 (the article's code; num_q "
                "still counts the query)"),
         Choice("skip", "left out of the mean"),
         Choice("error", "an error naming the query")),
        trec_eval="zero",
        details="\"zero\" still scores nDCG from grades below the level, as trec_eval; "
        "\"article\" treats \"nothing to find\" as \"nothing missed\" for two metrics only, "
        "which inflates recall and nDCG; an EmptyRelevantWarning names such queries",
    ),
    Convention(
        "missing_from_run", "judged query missing from a run", "zero",
        (Choice("zero", "scored 0 and counted (trec_eval -c)"),
         Choice("skip", "left out (trec_eval without -c)")),
        trec_eval="-c: zero",
        details="listed in Evaluation.queries_missing_from_run, with a CoverageWarning",
    ),
    Convention(
        "unjudged", "unjudged docs in a ranking", "nonrelevant",
        (Choice("nonrelevant", "kept in the ranking: not relevant (bpref, infAP and unj@k "
                "tell them apart; trec_eval)"),
         Choice("removed", "removed before scoring, with the docs judged below 0: a "
                "condensed list (Sakai 2007; trec_eval -J)")),
        trec_eval="-J: removed",
        details="\"removed\" ranks the judged docs only, so a system is not punished "
        "for good docs nobody judged; it also makes every metric blind to them",
        on_card_at_default=False,
    ),
    Convention(
        "max_retrieved", "docs read per ranking", None,
        number="only the top {value} docs of each ranking count",
        unset="every retrieved doc counts",
        trec_eval="-M N",
        details="TREC runs are judged to depth 1000; a cut through tied scores follows "
        "the tie rule (under ties=\"average\" such a cut is an error: which docs count "
        "would be left to chance)",
        check_number=check_max_retrieved,
        on_card_at_default=False,
    ),
    Convention(
        "order_by", "a run with scores and ranks", "score",
        (Choice("score", "ordered by score, the rank column ignored (trec_eval)"),
         Choice("rank", "ordered by rank, the score ignored"),
         Choice("rank_position", "each doc at list position rank - 1, as msmarco_eval.py "
                "places it: a rank left out leaves an empty position (no doc), a rank of 0 "
                "or below counts from the end of a list of 1000 (Python's index), a later "
                "row takes an earlier one's position")),
        trec_eval="score",
        details="a RankOrderWarning says when the ranks give another order than the scores; "
        "under \"rank_position\" an empty position is a retrieved slot that holds no doc "
        "(not relevant, not judged: num_ret counts it), ranks must be whole numbers from "
        "-999 to 1000 (the script stops at any other), and a run without a rank column "
        "(a dict) is in rank order already",
    ),
    # Rows for the presets (ragmetrics.presets): other tools' rules, off by default.
    Convention(
        "score_precision", "score precision", "float64",
        (Choice("float64", "scores compared as read, 64-bit (trec_eval 10)"),
         Choice("float32", "scores rounded to 32-bit floats first, so that closer scores "
                "tie (pytrec_eval, and BEIR and ir_measures through it)")),
        trec_eval="float64",
        details="float32 ties scores that differ past the 7th significant digit, and then "
        "the tie rule orders them",
        on_card_at_default=False,
    ),
    Convention(
        "query_id_docs", "retrieved doc with the query's id", "keep",
        (Choice("keep", "scored like any other doc (trec_eval)"),
         Choice("ignore", "removed from the ranking before scoring, the docs below moving "
                "up (BEIR's ignore_identical_ids=True)")),
        trec_eval="keep",
        details="BEIR removes them for its corpora where a query is also a doc (ArguAna, "
        "Quora); a perfect run that returns the query's own id loses a rank",
        on_card_at_default=False,
    ),
    Convention(
        "ap_denominator", "AP's denominator at a cut-off k", "num_relevant",
        (Choice("num_relevant", "R, every relevant doc, retrieved or not (trec_eval's "
                "map_cut)"),
         Choice("min_relevant_k", "min(R, k): AP@k reaches 1 when the top k are all "
                "relevant (Spark's meanAveragePrecisionAt)")),
        trec_eval="num_relevant",
        details="uncut AP divides by R under both",
        on_card_at_default=False,
    ),
    Convention(
        "ideal_order", "nDCG's ideal ranking", "sorted",
        (Choice("sorted", "every judged doc with a gain, best first (trec_eval)"),
         Choice("label_order", "the relevant docs in the order the judgments list them, and "
                "only they gain (Spark's ndcgAt): an unsorted list lowers the ideal, and "
                "nDCG can pass 1")),
        trec_eval="sorted",
        details="\"label_order\" reproduces Spark; sort the judgments by grade, best "
        "first, to get the true ideal under it",
        on_card_at_default=False,
    ),
)

#: Conventions with no choice: rules that always hold (for README's table).
FIXED_CONVENTIONS: tuple[tuple[str, str, str], ...] = (
    ("rows below the deepest cut-off", "(always, in evaluate)",
     ("evaluate reads each query's ranking down to the deepest cut-off asked for "
     "(R-precision: the most relevant docs of any query; a tie across that rank: the whole "
     "tie), and everything when a metric has no cut-off (rr, ap, ndcg). Doc ids below it "
     "are not read, so neither validated nor checked for repeats: they cannot change a value "
     "asked for. Scores and query ids are checked in every row.")),
    ("a query in the run but not in the judgments", "(always)",
     ("left out: there is nothing to score it against; listed in "
     "Evaluation.queries_missing_from_qrels, with a CoverageWarning")),
    ("the cut-off k", "a positive int up to 2^63 - 1, or None",
     ("None reads the whole ranking; 0, negatives, floats, strings, bools and a k beyond "
     "2^63 - 1 (what int64 holds) are refused with the value in the message; beyond the "
     "list, precision still divides by k (an empty slot is a wasted slot)")),
    ("a whole-number score beyond 2^53", "always an error, where a float cannot hold it",
     ("scores are compared as 64-bit floats, which hold every whole number up to 2^53 but "
     "not all beyond (2^53 + 1 reads as 2^53, a tie with 2^53): a score written as a "
     "whole number (in a file, or an int in a frame or a dict; a rank under "
     "order_by=\"rank\" too) that its float does not hold exactly is refused with its value "
     "and where it is (file and line, or query and doc), rather than tying or swapping "
     "docs; one a float holds (2^60) is taken, and a score written with a fraction or an "
     "exponent is read as the nearest float, as trec_eval reads every score")),
    ("a query with no relevant doc, under a score threshold", "(always, in threshold_sweep)",
     ("unanswerable (or marked answerable=False): it counts in the false-answer rate when "
     "it keeps a result scored >= the threshold (a score equal to the threshold is kept), "
     "and never in recall, precision or the answer rate, which average over the answerable "
     "queries; a flag that contradicts the judgments is an error, as is a run without "
     "scores")),
    ("ids of different types", "always an error",
     ("\"42\" and 42 never match; instead of scoring zero overlap, a TypeError names an id "
     "of each kind")),
)

_BY_KEYWORD = {convention.keyword: convention for convention in CONVENTIONS}

# The choices by convention, as the tuples the checks use.
GAIN_POLICIES = _BY_KEYWORD["gain"].values
TIE_POLICIES = _BY_KEYWORD["ties"].values
DUPLICATE_POLICIES = _BY_KEYWORD["duplicates"].values
EMPTY_POLICIES = _BY_KEYWORD["empty_relevant"].values
MISSING_POLICIES = _BY_KEYWORD["missing_from_run"].values
ORDER_POLICIES = _BY_KEYWORD["order_by"].values
UNJUDGED_POLICIES = _BY_KEYWORD["unjudged"].values


@dataclass(frozen=True)
class Conventions:
    """The conventions one evaluation ran under: printed on every result and report.

    One field per row of :data:`CONVENTIONS`, in its order, each checked when the record
    is made (an error names the keyword and the bad value); ``Conventions()`` is
    trec_eval's. ``tests/unit/core/test_conventions.py`` checks that the fields and their defaults
    are the table's.

    Examples
    --------
    >>> Conventions().ties
    'trec_eval'
    >>> Conventions(gain="exponential").as_dict()["gain"]
    'exponential'
    """

    relevance_level: int | float = 1
    gain: GainRule = "linear"
    ties: TieRule = "trec_eval"
    duplicates: DuplicateRule = "error"
    empty_relevant: AnswerlessRule = "zero"
    missing_from_run: MissingRule = "zero"
    unjudged: UnjudgedRule = "nonrelevant"
    max_retrieved: int | None = None
    order_by: OrderBy = "score"
    score_precision: ScorePrecision = "float64"
    query_id_docs: QueryIdDocs = "keep"
    ap_denominator: ApDenominator = "num_relevant"
    ideal_order: IdealOrder = "sorted"

    def __post_init__(self) -> None:
        for convention in CONVENTIONS:
            convention.check(getattr(self, convention.keyword))

    def as_dict(self) -> dict:
        """``{keyword: value}`` in the order of :data:`CONVENTIONS`."""
        return dataclasses.asdict(self)


class ConventionKeywords(TypedDict, total=False):
    """The conventions as the keywords of a call, each with its type.

    What :func:`ragmetrics.evaluate` and :func:`ragmetrics.compare` take, written once:
    ``**conventions: Unpack[ConventionKeywords]`` (PEP 692) gives a type checker the
    keywords and their :data:`Literal` choices, and :func:`accepts_conventions` writes them
    into the function's signature and docstring for ``help()`` and the book. The fields
    are those of :class:`Conventions`, with the same types (``tests/unit/core/test_conventions.py``
    checks it); a keyword left out takes its default.
    """

    relevance_level: int | float
    gain: GainRule
    ties: TieRule
    duplicates: DuplicateRule
    empty_relevant: AnswerlessRule
    missing_from_run: MissingRule
    unjudged: UnjudgedRule
    max_retrieved: int | None
    order_by: OrderBy
    score_precision: ScorePrecision
    query_id_docs: QueryIdDocs
    ap_denominator: ApDenominator
    ideal_order: IdealOrder


def accepts_conventions(function: Callable) -> Callable:
    r"""Decorate a function whose last parameter is ``**conventions``: its signature and
    docstring then name every convention of :data:`CONVENTIONS`.

    The signature (``inspect.signature``, ``help()``, the book) shows each keyword with
    its default and its :data:`Literal` type, before ``preset`` when the function has one;
    ``{conventions}`` in the docstring becomes their numpydoc entries
    (:func:`parameters_doc`). The function itself is returned, not wrapped: it reads its
    keywords with :func:`ragmetrics.presets.settle_conventions`, which refuses one that is
    not a convention.

    Examples
    --------
    >>> @accepts_conventions
    ... def scored(run, *, preset=None, **conventions):
    ...     "Score a run.\n\n{conventions}\n"
    >>> import inspect
    >>> parameters = inspect.signature(scored).parameters
    >>> list(parameters)[:4], list(parameters)[-1]
    (['run', 'relevance_level', 'gain', 'ties'], 'preset')
    >>> parameters["gain"]
    <Parameter "gain: Literal['linear', 'exponential'] = 'linear'">
    """
    signature = inspect.signature(function)
    *given, last = signature.parameters.values()
    if last.kind is not inspect.Parameter.VAR_KEYWORD:
        raise TypeError(f"{function.__name__} must end with **conventions to accept them")
    types = typing.get_type_hints(ConventionKeywords)
    keywords = [inspect.Parameter(c.keyword, inspect.Parameter.KEYWORD_ONLY,
                                  default=c.default, annotation=types[c.keyword])
                for c in CONVENTIONS]
    at = next((i for i, p in enumerate(given) if p.name == "preset"), len(given))
    function.__signature__ = signature.replace(parameters=[*given[:at], *keywords, *given[at:]])
    if function.__doc__:
        function.__doc__ = function.__doc__.replace("{conventions}\n", parameters_doc() + "\n", 1)
    return function


def shown(conventions) -> dict[str, object]:
    """``{keyword: value}`` of the conventions a report shows: every one, but those added
    after the report took its shape while they are at their default.

    Examples
    --------
    >>> list(shown(Conventions())) == [c.keyword for c in CONVENTIONS if c.on_card_at_default]
    True
    >>> shown(Conventions(unjudged="removed"))["unjudged"]
    'removed'
    >>> shown(Conventions(query_id_docs="ignore"))["query_id_docs"]
    'ignore'
    """
    return {c.keyword: getattr(conventions, c.keyword) for c in CONVENTIONS
            if c.on_card_at_default or getattr(conventions, c.keyword) != c.default}


def describe(conventions) -> dict[str, str]:
    """``{label: "value: meaning"}`` for every convention: the report's card rows.

    A convention added after the card took its shape appears when it is not at its
    default (``Convention.on_card_at_default``).

    Examples
    --------
    >>> describe(Conventions(ties="pessimistic"))["tied scores"]
    'pessimistic: score descending, then relevant docs last (a worst case)'
    >>> describe(Conventions(max_retrieved=100))["docs read per ranking"]
    '100: only the top 100 docs of each ranking count'
    >>> card = describe(Conventions(query_id_docs="ignore"))
    >>> print(card["retrieved doc with the query's id"])
    ignore: removed from the ranking before scoring, the docs below moving up (BEIR's ignore_identical_ids=True)
    """
    keywords = shown(conventions)
    return {c.label: c.describe(keywords[c.keyword]) for c in CONVENTIONS
            if c.keyword in keywords}


def parameters_doc(indent: str = "    ") -> str:
    """The conventions as numpydoc parameters, for the docstrings of evaluate and compare."""
    lines = []
    for c in CONVENTIONS:
        kind = ("number" if c.default is not None else "int or None") if not c.choices else (
            "{" + ", ".join(repr(v) for v in c.values) + "}")
        lines.append(f"{indent}{c.keyword} : {kind}, default {c.default!r}")
        meanings = ([c.number.format(value="this level" if c.default is not None else "N")]
                    + ([f"None: {c.unset}"] if c.unset else []) if not c.choices
                    else [f"``{ch.value!r}``: {ch.description}" for ch in c.choices])
        text = f"{c.label.capitalize()}: " + "; ".join(meanings) + "."
        lines += textwrap.wrap(text, 88, initial_indent=indent * 2, subsequent_indent=indent * 2)
    return "\n".join(lines)


def conventions_markdown() -> str:
    """README's conventions table, from :data:`CONVENTIONS` and :data:`FIXED_CONVENTIONS`."""
    rows = ["| convention | policy (default first) | what it means |", "|---|---|---|"]
    for c in CONVENTIONS:
        if c.choices:
            ordered = [c.default, *(v for v in c.values if v != c.default)]
            policy = f'`{c.keyword}="{ordered[0]}"`' + "".join(f', `"{v}"`' for v in ordered[1:])
            meaning = "; ".join(f'`"{ch.value}"`: {ch.description}' for ch in c.choices)
        else:
            policy = f"`{c.keyword}={c.default!r}`"
            meaning = c.number.format(value="level" if c.default is not None else "N")
            if c.unset:
                meaning += f"; None: {c.unset}"
        rows.append(f"| {c.label} | {policy} | {meaning}; {c.details} |")
    for label, policy, meaning in FIXED_CONVENTIONS:
        rows.append(f"| {label} | {policy} | {meaning} |")
    return "\n".join(rows)
