"""Presets: other tools' rules, as named bundles of the conventions.

A preset (``evaluate(..., preset="beir")``, ``compare``, ``--preset``) sets some rows of
:data:`ragmetrics.conventions.CONVENTIONS` to the values another tool uses, and may
compute some metrics under other conventions than the rest (:class:`Variant`). README's
"Reproduce another tool's numbers" table is :func:`presets_markdown`
(``tests/oracles/test_presets.py`` checks each preset against the tool it names).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

from .conventions import CONVENTIONS, Conventions
from .errors import InputTypeError, InputValueError

__all__ = ["PRESETS", "Preset", "Variant", "preset_conventions", "presets_markdown",
           "settle_conventions"]

_DEFAULTS = {convention.keyword: convention.default for convention in CONVENTIONS}


@dataclass(frozen=True)
class Variant:
    """A metric a preset computes under other conventions than the rest: ``family``
    (``"rr"``) with a cut-off only when ``cut``, under ``conventions``."""

    family: str
    conventions: tuple[tuple[str, object], ...]
    cut: bool = True
    why: str = ""

    def applies(self, name: str, k) -> bool:
        return name == self.family and (k is not None or not self.cut)


@dataclass(frozen=True)
class Preset:
    """Another tool's rules: the value of each convention it sets (rows of
    :data:`CONVENTIONS`), the metrics it computes otherwise (:class:`Variant`), and the
    rules in words (README's "Reproduce another tool's numbers" table, the card).

    A convention a preset does not set keeps its default, or the value passed.
    """

    name: str
    tool: str
    conventions: tuple[tuple[str, object], ...]
    rules: str
    measures: str
    variants: tuple[Variant, ...] = ()

    def describe(self) -> str:
        """The preset in a line, for the card: ``"beir: BEIR's ... (rules)"``."""
        return f"{self.name}: {self.tool}; {self.rules}"


#: The presets, by name: ``evaluate(..., preset="beir")``, ``compare``, ``--preset``.
PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset(
        "trec_eval", "trec_eval 10 with -c (and pytrec_eval on scores exact in float32)",
        (),
        "the defaults: ties by doc id descending, a judged query missing from the run "
        "scores 0 and counts, AP and nDCG as trec_eval",
        "every metric, by its trec_eval name (P_k, recall_k, ndcg_cut_k, map_cut_k, "
        "recip_rank, Rprec, success_k)",
    ),
    Preset(
        "trec_eval_no_c", "trec_eval 10 without -c",
        (("missing_from_run", "skip"),),
        "the defaults, but a judged query missing from the run is left out of the mean",
        "as trec_eval",
    ),
    Preset(
        "beir", "BEIR's EvaluateRetrieval.evaluate (pytrec_eval's measures)",
        (("missing_from_run", "skip"), ("score_precision", "float32"),
         ("query_id_docs", "ignore")),
        "scores read as 32-bit floats (pytrec_eval); only the queries in the run are scored "
        "(pytrec_eval scores the queries in both); a retrieved doc whose id is the query's "
        "id is removed first (ignore_identical_ids=True, BEIR's default); BEIR rounds each "
        "mean to 5 decimals, ragmetrics does not",
        "ndcg@k, map@k, recall@k, precision@k (NDCG@k, MAP@k, Recall@k, P@k) at k = 1, 3, "
        "5, 10, 100, 1000",
    ),
    Preset(
        "msmarco", "the MS MARCO passage ranking script (msmarco_eval.py, MRR @10)",
        (("order_by", "rank_position"), ("ties", "input_order")),
        "each ranking is the script's list: the passage of rank r at position r - 1 (the "
        "score is not read), so that a rank left out leaves an empty position, a rank of 0 "
        "or below counts from the end of the list of 1000 (rank 0 is its last position), "
        "and a later line takes an earlier one's position; the mean is over every query "
        "of the judgments, one missing from the run scoring 0; a doc ranked twice within "
        "the top 10 is an error, as in the script's checks (it checks the whole list, and "
        "goes on); every judged passage is relevant in MS MARCO's qrels (grade 1): grades "
        "below the level do not count here; the script fills an empty position with "
        "passage 0, which a query judging passage 0 relevant finds there: here an empty "
        "position holds no passage",
        "mrr@10 (MRR @10)",
    ),
    Preset(
        "ir_measures", "ir_measures 0.4 (its default providers)",
        (("score_precision", "float32"),),
        "pytrec_eval's rules for every measure (scores as 32-bit floats, ties by doc id "
        "descending, a missing query scoring 0) except RR@k, which ir_measures computes "
        "with MS MARCO's code: ties by doc id ascending, scores as 64-bit floats",
        "P@k, R@k, nDCG@k, AP@k, RR, RR@k, Success@k, Rprec as precision@k, recall@k, "
        "ndcg@k, ap@k, rr, rr@k, hit_rate@k, r_precision",
        variants=(Variant("rr", (("ties", "doc_id_ascending"), ("score_precision", "float64")),
                          why="ir_measures' msmarco provider sorts on (-score, doc id)"),),
    ),
    Preset(
        "spark", "Spark MLlib's RankingMetrics (3.4+)",
        (("gain", "exponential"), ("ties", "input_order"), ("ap_denominator", "min_relevant_k"),
         ("ideal_order", "label_order")),
        "the predictions in the order given; precisionAt(k) over k; meanAveragePrecisionAt(k) "
        "over min(R, k), meanAveragePrecision over R; ndcgAt(k) with gain 2^grade - 1 "
        "(binary labels: 1) and the ideal from the labels in the order they are listed; "
        "an empty ground truth scores 0 and counts, as does a judged query without "
        "predictions (an empty array); Spark credits a doc repeated in the "
        "predictions each time, ragmetrics refuses such a run",
        "precision@k, recall@k, map (meanAveragePrecision), map@k (meanAveragePrecisionAt), "
        "ndcg@k (ndcgAt)",
    ),
)}


def preset_conventions(preset: str | None, given: dict, *, explicit=()) -> dict:
    """The conventions under ``preset``: its values, over the defaults; ``given`` values
    that are not the default override nothing: one that contradicts the preset is an
    error naming both. Keywords in ``explicit`` were passed by name (the command's
    options): for them a default value that contradicts the preset is an error too.

    Examples
    --------
    >>> defaults = {c.keyword: c.default for c in CONVENTIONS}
    >>> preset_conventions("beir", defaults)["missing_from_run"]
    'skip'
    >>> preset_conventions("beir", defaults | {"relevance_level": 2})["relevance_level"]
    2
    >>> preset_conventions("beir", defaults | {"missing_from_run": "zero"})["missing_from_run"]
    'skip'
    """
    if preset is None:
        return dict(given)
    if preset not in PRESETS:
        valid = ", ".join(repr(name) for name in PRESETS)
        raise InputValueError(f"preset must be one of {valid}; got {preset!r}")
    out = dict(given)
    for keyword, value in PRESETS[preset].conventions:
        passed = given.get(keyword, _DEFAULTS[keyword])
        allowed = (value,) if keyword in explicit else (value, _DEFAULTS[keyword])
        if passed not in allowed:
            raise InputValueError(
                f"preset {preset!r} sets {keyword}={value!r}; {keyword}={passed!r} "
                "contradicts it: drop one of the two"
            )
        out[keyword] = value
    return out


def settle_conventions(caller: str, preset: str | None, keywords: Mapping) -> Conventions:
    """The conventions a call runs under: the ``**conventions`` keywords of ``caller``
    (:func:`ragmetrics.evaluate`, :func:`ragmetrics.compare`), over the defaults, under
    ``preset`` (:func:`preset_conventions`), each checked (:class:`Conventions`).

    A keyword that is no convention is refused as Python refuses an unexpected keyword
    (an :class:`~ragmetrics.errors.InputTypeError`, a ``TypeError``), with the closest
    convention when there is one.

    Examples
    --------
    >>> settle_conventions("evaluate", "beir", {"ties": "trec_eval"}).missing_from_run
    'skip'
    >>> try:
    ...     settle_conventions("compare", None, {"tie": "average"})
    ... except TypeError as error:
    ...     print(error)
    compare() got an unexpected keyword argument 'tie'; did you mean 'ties'?
    """
    for keyword in keywords:
        if keyword not in _DEFAULTS:
            close = difflib.get_close_matches(str(keyword), list(_DEFAULTS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputTypeError(
                f"{caller}() got an unexpected keyword argument {keyword!r}{hint}")
    return Conventions(**preset_conventions(preset, _DEFAULTS | dict(keywords)))


def presets_markdown() -> str:
    """README's "Reproduce another tool's numbers" table, from :data:`PRESETS`."""
    rows = ["| preset | reproduces | conventions | rules | its measures |", "|---|---|---|---|---|"]
    for p in PRESETS.values():
        set_ = ", ".join(f'`{k}="{v}"`' for k, v in p.conventions) or "the defaults"
        for v in p.variants:
            set_ += f"; {v.family}{'@k' if v.cut else ''}: " + ", ".join(
                f'`{k}="{value}"`' for k, value in v.conventions)
        rows.append(f'| `"{p.name}"` | {p.tool} | {set_} | {p.rules} | {p.measures} |')
    return "\n".join(rows)
