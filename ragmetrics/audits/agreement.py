r"""Do two sets of judgments agree? Cohen's kappa, weighted kappa and Krippendorff's alpha.

Golden sets are now often made, or extended, by an LLM, or by two annotators who split
the work. Before trusting a metric, check that two judgment sets of the same queries
agree on the (query, doc) pairs both judged: beyond the share of pairs with the same
grade, which is high by chance alone when most docs are not relevant, the coefficients
below count only the agreement that chance would not give.

- **Cohen's kappa** (binary, at a relevance level): with :math:`p_o` the share of pairs
  on which both sets agree (relevant or not) and :math:`p_e` the share expected by
  chance from each set's own rate of "relevant",

  .. math:: \kappa = \frac{p_o - p_e}{1 - p_e}.

- **Weighted kappa** (grades): disagreements weighted by how far apart the two grades
  are, linearly (:math:`|i - j|`) or quadratically (:math:`(i - j)^2`):
  :math:`\kappa_w = 1 - \sum w_{ij} o_{ij} / \sum w_{ij} e_{ij}` over the observed and
  the chance-expected shares of each pair of grades (Cohen, 1968).
- **Krippendorff's alpha** (grades): :math:`\alpha = 1 - D_o / D_e`, the observed over
  the expected disagreement of all judgments pooled, with an ordinal, interval or
  nominal distance (Krippendorff, *Content Analysis*, 2004, chapter 11).

All three are 1 for perfect agreement and 0 for chance agreement. They are the numbers
of :func:`sklearn.metrics.cohen_kappa_score` and of the ``krippendorff`` package
(``tests/unit/audits/test_audits.py`` checks them against both).

A doc judged with a negative grade (trec_eval's "in the pool, not judged") counts as not
judged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputTypeError, InputValueError
from ..evaluation.inputs import check_same_kinds, qrels_columns
from ..validation import check_choice, check_relevance_level

__all__ = [
    "ALPHA_LEVELS",
    "KAPPA_WEIGHTS",
    "JudgmentAgreement",
    "cohen_kappa",
    "judged_pairs",
    "judgment_agreement",
    "krippendorff_alpha",
    "weighted_kappa",
]

#: The distances of :func:`krippendorff_alpha`.
ALPHA_LEVELS = ("ordinal", "interval", "nominal")

#: The weights of :func:`weighted_kappa`.
KAPPA_WEIGHTS = ("linear", "quadratic")


def _pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim != 1 or a.shape != b.shape:
        raise InputValueError(
            f"a and b must be two 1-D sequences of the same length, got shapes {a.shape} "
            f"and {b.shape}"
        )
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise InputValueError("every judgment must be a finite number")
    return a, b


def _kappa_from_table(table: np.ndarray, weights: np.ndarray) -> float:
    """``1 - sum(w o) / sum(w e)`` over a table of counts (rows: a, columns: b)."""
    total = table.sum()
    if total == 0:
        return math.nan
    observed = table / total
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    chance = float((weights * expected).sum())
    if chance == 0:  # one category only, on both sides: agreement cannot beat chance
        return math.nan
    return 1.0 - float((weights * observed).sum()) / chance


def _table(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The categories (sorted) and the table of counts of (a, b) pairs."""
    categories, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
    k = len(categories)
    table = np.bincount(codes[: len(a)] * k + codes[len(a):], minlength=k * k).reshape(k, k)
    return categories, table.astype(np.float64)


def _labels(values, name: str) -> np.ndarray:
    """``values`` as a 1-D array of labels, every one given (no None, NaN or infinity).

    A list keeps its items as they are (``1`` and ``"1"`` are two labels); any other
    iterable is read item by item, a string too (``"aabb"``: four labels).
    """
    if not isinstance(values, (np.ndarray, pd.Series, pd.Index)):
        # Objects, so that NumPy makes no text of the numbers in a list with text in it.
        values = pd.Series(list(values), dtype=object)
    array = np.asarray(values)
    if array.ndim != 1:
        raise InputValueError(
            f"{name} must be a 1-D sequence of labels, got an array of shape {array.shape}")
    if array.dtype.kind in "fc":
        missing = ~np.isfinite(array)
    elif array.dtype.kind == "O":
        missing = np.array([_not_given(v) for v in array], dtype=bool)
    else:  # bool, int, text, dates: every value is given
        return array
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        label = array[i].item() if isinstance(array[i], np.generic) else array[i]
        raise InputValueError(
            f"{name}[{i}] is {label!r}: every label must be given (a category or a "
            "finite number)")
    return array


def _not_given(value) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, (float, np.floating)) and not math.isfinite(value)


def _first_unhashable(a: np.ndarray, b: np.ndarray) -> tuple[str, int, object]:
    for name, labels in (("a", a), ("b", b)):
        for i, label in enumerate(labels):
            try:
                hash(label)
            except TypeError:
                return name, i, label
    raise AssertionError("pandas refused labels that all hash")  # not reached


def cohen_kappa(a, b) -> float:
    r"""Cohen's kappa of two raters' labels on the same items (unweighted).

    .. math:: \kappa = \frac{p_o - p_e}{1 - p_e}

    :math:`p_o` is the share of items both raters gave the same label; :math:`p_e` the
    share they would agree on by chance, each labelling at their own rates:
    :math:`p_e = \sum_\ell p_a(\ell)\, p_b(\ell)`. 1 is full agreement, 0 what chance
    gives, below 0 worse than chance. This is the one definition in ragmetrics
    (:func:`ragmetrics.teaching.cohen_kappa` is this function); it equals
    :func:`sklearn.metrics.cohen_kappa_score` wherever that is defined.

    Parameters
    ----------
    a, b : sequence
        The two raters' labels of the same items, in the same order: any hashable
        labels (``"yes"``/``"no"``, booleans, grades), as lists, arrays or Series
        (read by position). A string is a sequence of one-character labels.

    Returns
    -------
    float
        Kappa; NaN where it is undefined (0 / 0):

        - **one label throughout** (both raters give every item the same label):
          :math:`p_o = p_e = 1`. Agreement is perfect, but chance alone would have
          given it, so the data hold no evidence of agreement *beyond* chance, which
          is what kappa measures. 1 would claim the raters agree beyond chance;
          0 would claim they do not; neither can be known. scikit-learn's
          ``cohen_kappa_score`` gives NaN too (with a warning); Krippendorff's alpha
          is undefined there as well.
        - **no items**: nothing to measure.

        A NaN comes without a warning: it is the answer, and it carries on into any
        mean of it. :func:`judgment_agreement` and ``ragmetrics audit`` say which case
        it is.

    Raises
    ------
    InputValueError
        If ``a`` and ``b`` differ in length or are not 1-D, or a label is missing
        (None, NaN, infinity), naming the first.
    InputTypeError
        If a label cannot be hashed (a list, say), naming the first.

    Examples
    --------
    >>> cohen_kappa([1, 1, 0, 0, 1, 0], [1, 0, 0, 0, 1, 0])   # agree on 5 of 6
    0.6666666666666667
    >>> cohen_kappa("abab", "aabb")   # p_o = 1/2, p_e = 1/2: chance level
    0.0

    Manning, Raghavan & Schütze's example (*Introduction to Information Retrieval*,
    table 8.2): 400 documents, judged relevant by both 300 times, by neither 70 times,
    and 20 + 10 times by one only. :math:`p_o = 370/400 = 0.925`; the first says "yes"
    320 times, the second 310, so :math:`p_e = 0.8 \cdot 0.775 + 0.2 \cdot 0.225 = 0.665`.

    >>> first = ["yes"] * 300 + ["yes"] * 20 + ["no"] * 10 + ["no"] * 70
    >>> second = ["yes"] * 300 + ["no"] * 20 + ["yes"] * 10 + ["no"] * 70
    >>> round(cohen_kappa(first, second), 3)
    0.776

    >>> cohen_kappa(["no"] * 4, ["no"] * 4)   # one label throughout: undefined
    nan
    """
    a, b = _labels(a, "a"), _labels(b, "b")
    if len(a) != len(b):
        raise InputValueError(
            f"a and b must label the same items: a has {len(a)} labels, b has {len(b)}")
    try:
        codes, categories = pd.factorize(np.concatenate([a, b]))
    except TypeError:  # an unhashable label (a list, say)
        name, i, label = _first_unhashable(a, b)
        raise InputTypeError(
            f"{name}[{i}] is {label!r}: a label must be hashable (a str, a number, a bool)"
        ) from None
    k = len(categories)
    table = np.bincount(codes[: len(a)] * k + codes[len(a):], minlength=k * k).reshape(k, k)
    return _kappa_from_table(table.astype(np.float64), 1.0 - np.eye(k))


def weighted_kappa(a, b, *, weights: str = "linear") -> float:
    r"""Cohen's weighted kappa of two raters' grades on the same items.

    The weight of a disagreement grows with the distance between the two grades' places
    among the grades used (as :func:`sklearn.metrics.cohen_kappa_score` does):
    ``"linear"`` ``|i - j|``, ``"quadratic"`` ``(i - j)^2``.

    Examples
    --------
    >>> a, b = [0, 1, 2, 2, 0], [0, 2, 2, 1, 0]
    >>> round(weighted_kappa(a, b), 4), round(weighted_kappa(a, b, weights="quadratic"), 4)
    (0.5833, 0.75)
    """
    check_choice(weights, KAPPA_WEIGHTS, "weights")
    a, b = _pair(a, b)
    categories, table = _table(a, b)
    places = np.arange(len(categories), dtype=np.float64)
    distance = np.abs(places[:, None] - places[None, :])
    return _kappa_from_table(table, distance if weights == "linear" else distance**2)


def krippendorff_alpha(a, b, *, level: str = "ordinal") -> float:
    r"""Krippendorff's alpha of two raters who both judged every item.

    With the coincidence matrix of the pooled judgments (each item adds its two values
    as a pair, both ways round), :math:`n_c` the number of judgments of value :math:`c`
    among all :math:`n`, and a squared distance :math:`\delta^2_{ck}`:

    .. math:: \alpha = 1 - (n - 1)\frac{\sum_{c,k} o_{ck}\, \delta^2_{ck}}
              {\sum_{c,k} n_c n_k\, \delta^2_{ck}}

    ``level``: ``"ordinal"`` (:math:`\delta_{ck}` the number of judgments between c and
    k, ends counted half), ``"interval"`` (:math:`(c - k)^2`) or ``"nominal"`` (1 when
    the values differ).

    Examples
    --------
    >>> round(krippendorff_alpha([0, 1, 2, 2, 0], [0, 2, 2, 1, 0], level="interval"), 4)
    0.775
    """
    check_choice(level, ALPHA_LEVELS, "level")
    a, b = _pair(a, b)
    categories, table = _table(a, b)
    coincidence = table + table.T  # each item: (a, b) and (b, a)
    counts = coincidence.sum(axis=1)  # n_c
    n = float(counts.sum())
    if n < 2:
        return math.nan
    if level == "nominal":
        delta = 1.0 - np.eye(len(categories))
    elif level == "interval":
        delta = (categories[:, None] - categories[None, :]) ** 2
    else:
        cumulative = np.concatenate([[0.0], np.cumsum(counts)])
        # Between c and k (c <= k): n_c/2 + n_{c+1} + ... + n_{k-1} + n_k/2.
        upto = cumulative[1:] - counts / 2  # the middle of each value's block
        delta = (upto[:, None] - upto[None, :]) ** 2
    expected = float((np.outer(counts, counts) * delta).sum())
    if expected == 0:
        return math.nan
    return 1.0 - float(n - 1) * float((coincidence * delta).sum()) / expected


def judged_pairs(qrels_a, qrels_b) -> pd.DataFrame:
    """Every (query, doc) pair judged by either set, with both grades (NaN: not judged).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``grade_a``, ``grade_b``, sorted by query
        and doc as given (the first set's pairs first).

    Examples
    --------
    >>> judged_pairs({"q1": {"a": 1, "b": 0}}, {"q1": {"a": 2, "c": 1}})
      query_id doc_id  grade_a  grade_b
    0       q1      a      1.0      2.0
    1       q1      b      0.0      NaN
    2       q1      c      NaN      1.0
    """
    frames = []
    kinds = []
    for name, qrels in (("a", qrels_a), ("b", qrels_b)):
        columns = qrels_columns(qrels)
        frame = pd.DataFrame({"query_id": columns.query.to_numpy(dtype=object),
                              "doc_id": columns.doc.to_numpy(dtype=object),
                              f"grade_{name}": columns.value})
        repeated = frame.duplicated(["query_id", "doc_id"])
        if repeated.any():
            row = frame[repeated].iloc[0]
            raise InputValueError(
                f"qrels_{name} judges doc {row['doc_id']!r} of query {row['query_id']!r} "
                "twice; keep one judgment per pair"
            )
        frame = frame[frame[f"grade_{name}"] >= 0]  # negative: in the pool, not judged
        frames.append(frame)
        kinds.append((columns.query_kind, _doc_kind(frame["doc_id"])))
    check_same_kinds(kinds[0], kinds[1])
    pairs = frames[0].merge(frames[1], on=["query_id", "doc_id"], how="outer", sort=False)
    return pairs.reset_index(drop=True)


def _doc_kind(docs: pd.Series) -> str | None:
    if not len(docs):
        return None
    return "str" if isinstance(docs.iloc[0], str) else "int"


@dataclass(frozen=True)
class JudgmentAgreement:
    """How two judgment sets agree on the pairs both judged (:func:`judgment_agreement`).

    Attributes
    ----------
    n_both : int
        Pairs (query, doc) judged by both sets: the pairs the coefficients are about.
        With none, ``agreement`` and the three coefficients are NaN.
    only_a, only_b : int
        Pairs judged by one set only.
    relevance_level : float
        The grade from which a doc counts as relevant, for ``kappa``.
    agreement : float
        The share of pairs both judged with the same binary label (relevant or not).
    kappa : float
        Cohen's kappa of the binary labels; NaN when every pair both judged carries one
        and the same label (:func:`cohen_kappa`).
    weighted_kappa : float
        Cohen's weighted kappa of the grades (``weights``); NaN on one grade throughout.
    alpha : float
        Krippendorff's alpha of the grades (``alpha_level``); NaN on one grade throughout.
    weights, alpha_level : str
    confusion : pandas.DataFrame
        Counts of pairs by grade in A (rows) and grade in B (columns).
    """

    n_both: int
    only_a: int
    only_b: int
    relevance_level: float
    agreement: float
    kappa: float
    weighted_kappa: float
    alpha: float
    weights: str
    alpha_level: str
    confusion: pd.DataFrame

    def to_dict(self) -> dict:
        """The numbers, without the confusion table."""
        return {"pairs judged by both": self.n_both, "judged by A only": self.only_a,
                "judged by B only": self.only_b, "same label": self.agreement,
                "Cohen's kappa": self.kappa,
                f"weighted kappa ({self.weights})": self.weighted_kappa,
                f"Krippendorff's alpha ({self.alpha_level})": self.alpha}


def judgment_agreement(qrels_a, qrels_b, *, relevance_level: float = 1,
                       weights: str = "linear", alpha_level: str = "ordinal"
                       ) -> JudgmentAgreement:
    """How far two judgment sets of the same queries agree.

    Parameters
    ----------
    qrels_a, qrels_b : DataFrame or mapping
        Two judgment sets, in any shape :func:`ragmetrics.evaluate` accepts.
    relevance_level : number, default 1
        Relevant at this grade or above, for the binary kappa.
    weights : {"linear", "quadratic"}, default "linear"
        The weighted kappa's weights.
    alpha_level : {"ordinal", "interval", "nominal"}, default "ordinal"
        Krippendorff's alpha's distance (grades are ordinal).

    Examples
    --------
    >>> a = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d4": 1, "d5": 0}}
    >>> b = {"q1": {"d1": 2, "d2": 0, "d3": 0}, "q2": {"d4": 1, "d6": 1}}
    >>> result = judgment_agreement(a, b)
    >>> result.n_both, result.only_a, result.only_b
    (4, 1, 1)
    >>> round(result.kappa, 4)
    0.5
    """
    level = check_relevance_level(relevance_level)
    check_choice(weights, KAPPA_WEIGHTS, "weights")
    check_choice(alpha_level, ALPHA_LEVELS, "alpha_level")
    pairs = judged_pairs(qrels_a, qrels_b)
    a_judged, b_judged = pairs["grade_a"].notna(), pairs["grade_b"].notna()
    both = pairs[a_judged & b_judged]
    a = both["grade_a"].to_numpy(np.float64)
    b = both["grade_b"].to_numpy(np.float64)
    binary_a, binary_b = (a >= level).astype(float), (b >= level).astype(float)
    confusion = pd.crosstab(both["grade_a"], both["grade_b"]).rename_axis(
        index="grade in A", columns="grade in B")
    empty = len(both) == 0
    return JudgmentAgreement(
        n_both=len(both),
        only_a=int((a_judged & ~b_judged).sum()),
        only_b=int((b_judged & ~a_judged).sum()),
        relevance_level=level,
        agreement=math.nan if empty else float((binary_a == binary_b).mean()),
        kappa=math.nan if empty else cohen_kappa(binary_a, binary_b),
        weighted_kappa=math.nan if empty else weighted_kappa(a, b, weights=weights),
        alpha=math.nan if empty else krippendorff_alpha(a, b, level=alpha_level),
        weights=weights,
        alpha_level=alpha_level,
        confusion=confusion,
    )
