"""The ranking board's view-model: what it shows, computed by pure functions (no widget).

The interactive :class:`ragmetrics.widgets.RankingBoard` only wires a browser view to these
functions: every number the learner sees comes from :func:`board_view`, which calls the
same metric code as the rest of ragmetrics (the kernels of the metric table), and every
sentence the live region says from :func:`describe_change`. The browser never computes a
metric. Tested on their own in ``tests/unit/widgets/test_board_descriptions.py``.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from ..conventions import GAIN_POLICIES
from ..diversity import DIVERSITY_METRICS, alpha_ndcg_at_k, subtopic_judgments, subtopic_recall_at_k
from ..errors import InputTypeError, InputValueError
from ..evaluation.curves import metric_curves
from ..metrics.registry import MetricSpec, metric_info
from ..plotting import PALETTE
from ..teaching.ndcg_steps import ndcg_table
from ..validation import as_grades, as_ranking, check_choice, check_k, id_kind

__all__ = [
    "BOARD_METRICS",
    "FACET_METRICS",
    "BoardState",
    "board_view",
    "check_facets",
    "cycle_grade",
    "describe_board",
    "describe_change",
    "describe_curves",
    "describe_metrics",
    "describe_overlaps",
    "describe_ranking",
    "describe_reset",
    "facet_colours",
    "facet_subtopics",
    "facets_of_query",
    "legible_colour",
    "metric_changes",
    "move",
    "moved_chunk",
    "plot_lanes",
    "slider_max",
    "static_html",
]

#: The metrics the board shows, in order (registry names; the reciprocal rank is cut at k).
BOARD_METRICS = ("recall", "precision", "hit_rate", "rr", "ndcg")
#: The diversity measures a board whose chunks carry facets shows too, after those
#: (:data:`ragmetrics.diversity.DIVERSITY_METRICS` names: alpha-nDCG@k, subtopic recall@k).
FACET_METRICS = ("alpha_ndcg", "strec")


def _label(name: str, k: int) -> str:
    """``"Recall@5"``, ``"RR@5"`` (one query: the reciprocal rank, searched to depth k),
    ``"alpha-nDCG@5"``, ``"Subtopic recall@5"``."""
    if name in FACET_METRICS:
        return DIVERSITY_METRICS[name].pretty_name.replace("@k", f"@{k}")
    return MetricSpec(metric_info(name).name, k).pretty_name


def _shown(mapping: Mapping) -> list[str]:
    """The board's metric names that ``mapping`` has, in the board's order."""
    return [name for name in (*BOARD_METRICS, *FACET_METRICS) if name in mapping]


def normalise_board_input(
    retrieved: Iterable, relevant: Any, titles: Mapping | None
) -> tuple[list[str], dict[str, int | float], dict[str, str]]:
    """Ids as strings (the browser's kind of id), grades for every judged id, titles as text.

    Ids that collide as strings (``42`` and ``"42"``) are refused: they would be one chunk
    on the board.
    """
    ranking = as_ranking(retrieved, duplicates="error")
    grades = as_grades(relevant)
    for where, ids in (("retrieved", ranking), ("relevant", list(grades))):
        bad = next((i for i in ids if id_kind(i) not in ("str", "int")), None)
        if bad is not None:
            raise InputTypeError(f"{where} ids must be str or int, got {bad!r}")
    order = [str(i) for i in ranking]
    if len(set(order)) != len(order):
        raise InputValueError(f"retrieved ids collide when written as text: {ranking!r}")
    relevance = {str(i): (int(g) if float(g).is_integer() else g) for i, g in grades.items()}
    titles = {str(i): str(t) for i, t in (titles or {}).items()}
    return order, relevance, titles


def facets_of_query(judgments, query_id) -> dict[str, list[str]]:
    """One query's facets per chunk, ``{doc_id: [facets]}``, from subtopic judgments.

    Parameters
    ----------
    judgments : pandas.DataFrame, iterable of 4-tuples or SubtopicJudgments
        What :func:`ragmetrics.diversity.subtopic_judgments` reads: ``query_id``,
        ``subtopic``, ``doc_id`` and ``relevance`` (or ``judgment``); a chunk has the
        facets it is relevant to.
    query_id : str
        The query.

    Returns
    -------
    dict
        Doc id -> its facets, in the judgments' subtopic order.

    Examples
    --------
    >>> facets_of_query([("q1", "price", "a", 1), ("q1", "how", "b", 1),
    ...                  ("q1", "price", "b", 1), ("q2", "x", "c", 1)], "q1")
    {'b': ['how', 'price'], 'a': ['price']}
    """
    judged = subtopic_judgments(judgments)
    if str(query_id) not in judged.queries:
        raise InputValueError(f"query {query_id!r} has no subtopic judgments; judged "
                              f"queries: {', '.join(judged.queries)}")
    out: dict[str, list[str]] = {}
    for subtopic, docs in judged.docs_by_subtopic(query_id).items():
        for doc in docs:
            out.setdefault(str(doc), []).append(str(subtopic))
    return out


def check_facets(facets, known: Iterable[str]) -> dict[str, list[str]]:
    """``facets`` as ``{doc id (str): [facet names]}``, checked: ids that are on the board
    or judged (``known``), each facet a non-empty str, none twice for a chunk."""
    if not isinstance(facets, Mapping):
        raise InputTypeError(f"facets must be a mapping doc id -> list of facet names, got "
                             f"{type(facets).__name__}")
    known = set(known)
    out = {}
    for doc, names in facets.items():
        if id_kind(doc) not in ("str", "int"):
            raise InputTypeError(f"facets: doc ids must be str or int, got {doc!r}")
        if str(doc) not in known:
            raise InputValueError(f"facets: chunk {doc!r} is neither on the board nor judged "
                                  "relevant")
        if isinstance(names, str) or not isinstance(names, Iterable):
            raise InputTypeError(f"facets of chunk {doc!r} must be a list of names, got "
                                 f"{names!r}")
        names = list(names)
        bad = next((n for n in names if not isinstance(n, str) or not n.strip()), None)
        if bad is not None or len(set(names)) != len(names):
            raise InputValueError(f"facets of chunk {doc!r} must be distinct non-empty names, "
                                  f"got {names!r}")
        out[str(doc)] = names
    return out


def facet_subtopics(relevance: Mapping[str, float], facets: Mapping[str, list]) -> dict:
    """``{facet: [chunk ids]}``: the subtopic judgments the diversity measures read. A chunk
    counts for its facets while it is relevant (grade > 0): a click that marks it not
    relevant takes it out of its facets too.

    >>> facet_subtopics({"a": 1, "b": 0, "c": 2}, {"a": ["price"], "b": ["how"],
    ...                                           "c": ["how", "price"]})
    {'price': ['a', 'c'], 'how': ['c']}
    """
    out: dict[str, list[str]] = {}
    for doc, names in facets.items():
        if relevance.get(doc, 0) > 0:
            for name in names:
                out.setdefault(name, []).append(doc)
    return out


#: The facets' colours, in order (Okabe-Ito, as the plots).
_FACET_PALETTE = ("blue", "vermillion", "green", "purple", "orange", "sky", "yellow")


def facet_colours(facets: Mapping[str, list]) -> dict[str, dict[str, str]]:
    """A colour per facet, for the light and the dark theme, each at least 3:1 against the
    theme's background (WCAG 1.4.11, :func:`legible_colour`). Colour is never the only cue:
    the board writes every facet's name.

    >>> facet_colours({"a": ["price"], "b": ["how", "price"]})
    {'price': {'light': '#0072B2', 'dark': '#0072B2'}, 'how': {'light': '#D55E00', 'dark': '#D55E00'}}
    """
    names = list(dict.fromkeys(n for ns in facets.values() for n in ns))
    out = {}
    for i, name in enumerate(names):
        colour = PALETTE[_FACET_PALETTE[i % len(_FACET_PALETTE)]]
        out[name] = {"light": legible_colour(colour, "#FFFFFF"),
                     "dark": legible_colour(colour, "#111111")}
    return out


def _facet_curves(order, relevance, facets, ks) -> dict[str, list[float]]:
    """alpha-nDCG@k and subtopic recall@k at every k (ragmetrics.diversity's definitions)."""
    subtopics = facet_subtopics(relevance, facets)
    return {"alpha_ndcg": [alpha_ndcg_at_k(order, subtopics, k) for k in ks],
            "strec": [subtopic_recall_at_k(order, subtopics, k) for k in ks]}


def board_view(
    order: list[str], relevance: Mapping[str, float], k: int, *, gain: str = "linear",
    facets: Mapping[str, list] | None = None,
) -> dict:
    """Everything the board displays for one state, as JSON-ready data.

    With ``facets`` (``{chunk id: [facet names]}``), the metrics, labels and curves also
    hold alpha-nDCG@k (alpha = 0.5) and subtopic recall@k (:data:`FACET_METRICS`), over
    the facets of the relevant chunks (:func:`facet_subtopics`).

    Returns
    -------
    dict
        ``metrics`` (name -> value at k), ``labels`` (name -> "Recall@5" ...),
        ``ndcg_rows`` (per rank 1..k: doc id, grade, gain, discount, discounted gain),
        ``dcg``, ``idcg``, ``curve`` ({"k": [1..n], name: [values]}),
        ``unretrieved`` (relevant ids that are not in the ranking),
        ``plot_description`` (the text alternative of the curves, see
        :func:`describe_curves`), ``lanes`` (name -> the small offset that keeps a curve
        visible where it meets another, see :func:`plot_lanes`) and ``plot_note`` (the
        plot's legend note on curves that coincide, see :func:`describe_overlaps`).

    Examples
    --------
    >>> view = board_view(["a", "x", "b"], {"a": 1, "b": 1}, 2)
    >>> {name: round(value, 3) for name, value in view["metrics"].items()}
    {'recall': 0.5, 'precision': 0.5, 'hit_rate': 1.0, 'rr': 1.0, 'ndcg': 0.613}
    >>> view = board_view(["a", "x", "b"], {"a": 1, "b": 1}, 2,
    ...                   facets={"a": ["price"], "b": ["how"]})
    >>> view["labels"]["alpha_ndcg"], round(view["metrics"]["alpha_ndcg"], 4)
    ('alpha-nDCG@2', 0.6131)
    >>> view["metrics"]["strec"]
    0.5
    """
    k = check_k(k)
    check_choice(gain, GAIN_POLICIES, "gain")
    depth = max(len(order), k, 1)
    # The arrays, not a DataFrame: the board recomputes on every drag and click.
    curves = metric_curves(order, relevance, range(1, depth + 1), metrics=BOARD_METRICS, gain=gain)
    table = ndcg_table(order, relevance, k, gain=gain)
    retrieved = set(order)
    curve = {"k": curves.ks.tolist()} | {name: curves[name].tolist() for name in BOARD_METRICS}
    metrics = curves.at(k)
    if facets:
        curve |= _facet_curves(order, relevance, facets, curve["k"])
        metrics |= {name: curve[name][k - 1] for name in FACET_METRICS}
    return {
        "metrics": metrics,
        "labels": {name: _label(name, k) for name in _shown(metrics)},
        "ndcg_rows": _ndcg_rows(table),
        "dcg": float(table.attrs["dcg"]),
        "idcg": float(table.attrs["idcg"]),
        "curve": curve,
        "unretrieved": [d for d, g in relevance.items() if g > 0 and d not in retrieved],
        "plot_description": describe_curves(curve, k),
        "lanes": plot_lanes(curve),
        "plot_note": describe_overlaps(curve),
    }


def _ndcg_rows(table: pd.DataFrame) -> list[dict]:
    """The rows of an :func:`ndcg_table`: rank, doc id, grade, gain, discount, discounted gain.

    Read column by column (``tolist`` gives Python ints and floats, JSON-ready): building a
    Series per row (``iterrows``) took two thirds of a board update.
    """
    columns = {"rank": table.index.tolist()} | {
        name: table[name].tolist()
        for name in ("doc_id", "grade", "gain", "discount", "discounted_gain")
    }
    return [dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)]


def slider_max(n_chunks: int, k: int) -> int:
    """The cut-off slider's last value: 10 past the end of the list (or k, if larger).

    Past the end of the list precision keeps dividing by k, so the slider goes there.

    >>> slider_max(15, 10), slider_max(5, 40)
    (25, 40)
    """
    return max(n_chunks + 10, k)


def move(order: list[str], doc_id: str, to_rank: int) -> list[str]:
    """A new order with ``doc_id`` moved to 1-based ``to_rank`` (the others keep their order).

    >>> move(["a", "b", "c", "d"], "d", 2)
    ['a', 'd', 'b', 'c']
    """
    if doc_id not in order:
        raise InputValueError(f"{doc_id!r} is not on the board; ids are {order!r}")
    to_rank = check_k(to_rank, name="to_rank")
    if to_rank > len(order):
        raise InputValueError(f"to_rank must be between 1 and {len(order)}, got {to_rank}")
    rest = [d for d in order if d != doc_id]
    return [*rest[: to_rank - 1], doc_id, *rest[to_rank - 1 :]]


def cycle_grade(grade: float, max_grade: int) -> int:
    """The next grade when a chunk is clicked: 0 -> 1 -> ... -> max_grade -> 0.

    >>> [cycle_grade(g, 1) for g in (0, 1)], [cycle_grade(g, 3) for g in (0, 1, 2, 3)]
    ([1, 0], [1, 2, 3, 0])
    """
    return 0 if grade >= max_grade or grade < 0 else int(grade) + 1


def moved_chunk(before: list[str], after: list[str], *, hint: str | None = None) -> str | None:
    """The chunk whose move turns ``before`` into ``after``, or None if no single move does.

    A swap of two neighbours is a move of either; ``hint`` (the chunk the learner moved,
    as the browser reports it) decides, when it is one of them.

    >>> moved_chunk(["a", "b", "c", "d"], ["a", "d", "b", "c"])
    'd'
    >>> moved_chunk(["a", "b"], ["b", "a"]), moved_chunk(["a", "b"], ["b", "a"], hint="a")
    ('b', 'a')
    >>> moved_chunk(["a", "b", "c"], ["c", "a", "b"]), moved_chunk(["a", "b", "c"], ["b", "c", "a"])
    ('c', 'a')
    >>> moved_chunk(["a", "b", "c", "d"], ["b", "a", "d", "c"]) is None  # two moves
    True
    """
    if before == after or sorted(before) != sorted(after):
        return None
    candidates = [hint] if hint in before else []
    lo = next(i for i, (x, y) in enumerate(zip(before, after, strict=True)) if x != y)
    hi = max(i for i, (x, y) in enumerate(zip(before, after, strict=True)) if x != y)
    candidates += [before[hi], before[lo]]  # moved up to lo, or moved down to hi
    for doc in candidates:
        if move(before, doc, after.index(doc) + 1) == after:
            return doc
    return None


def _place(rank: int, k: int) -> str:
    return "above the cut-off" if rank <= k else "below the cut-off"


def describe_metrics(metrics: Mapping[str, float], k: int) -> str:
    """The metrics at k as a screen reader hears them: labels and values at 2 decimals.

    >>> describe_metrics({"recall": 0.4, "ndcg": 0.55314}, 5)
    'Recall@5 0.40, nDCG@5 0.55'
    """
    return ", ".join(f"{_label(n, k)} {metrics[n]:.2f}" for n in _shown(metrics))


def _value_pair(old: float, new: float) -> tuple[str, str]:
    """``old`` and ``new`` as text: 2 decimals, or 4 when the change does not show at 2.

    >>> _value_pair(0.8711, 0.9718), _value_pair(0.2314, 0.2277), _value_pair(0.5, 0.5)
    (('0.87', '0.97'), ('0.2314', '0.2277'), ('0.50', '0.50'))
    """
    digits = 4 if old != new and f"{old:.2f}" == f"{new:.2f}" else 2
    return f"{old:.{digits}f}", f"{new:.{digits}f}"


def metric_changes(before: Mapping | None, after: Mapping) -> dict[str, dict]:
    """Each metric's change since the last move: ``nDCG@10 0.87 → 0.97`` in the readout.

    The board's metric readout shows, beside each value at 4 decimals, where it came from:
    the value before the last change the learner made (a move, a relevance click, a new
    cut-off or gain, a reset), and the value now, at 2 decimals (4 when the change does not
    show at 2), as the live region says them (:func:`describe_change`).

    Parameters
    ----------
    before : mapping or None
        The board state before the change (``metrics``: name -> value, as in
        :func:`board_view`), or None for the board's first state.
    after : mapping
        The board state now.

    Returns
    -------
    dict
        Metric name -> ``{"before", "after", "text", "spoken"}``: the two values (``before``
        None for the first state), ``text`` (``"0.87 → 0.97"``, ``"unchanged"``, or ``""``
        for the first state) and ``spoken``, the same in words for a screen reader
        (``"from 0.87 to 0.97"``).

    Examples
    --------
    >>> before = {"metrics": {"recall": 0.5, "ndcg": 0.8711}}
    >>> after = {"metrics": {"recall": 0.5, "ndcg": 0.9718}}
    >>> changes = metric_changes(before, after)
    >>> changes["ndcg"]["text"], changes["ndcg"]["spoken"], changes["recall"]["text"]
    ('0.87 → 0.97', 'from 0.87 to 0.97', 'unchanged')
    >>> metric_changes(None, after)["ndcg"]
    {'before': None, 'after': 0.9718, 'text': '', 'spoken': ''}
    """
    changes = {}
    for name in _shown(after["metrics"]):
        new = float(after["metrics"][name])
        old = None if before is None else before["metrics"].get(name)
        if old is None:
            text = spoken = ""
        elif old == new:
            text = spoken = "unchanged"
        else:
            old_text, new_text = _value_pair(float(old), new)
            text, spoken = f"{old_text} → {new_text}", f"from {old_text} to {new_text}"
        changes[name] = {"before": None if old is None else float(old), "after": new,
                         "text": text, "spoken": spoken}
    return changes


def _changed_metrics(before: Mapping, after: Mapping, k: int, *, all_of_them: bool) -> str:
    """``Recall@5 0.50 → 1.00, nDCG@5 0.61 → 0.88``: the metrics that changed, each from its
    value before to its value now, at 2 decimals (4 when the change does not show at 2); or
    every metric when the cut-off changed (those that kept their value said once)."""
    parts = []
    for name in _shown(after["metrics"]):
        old, new = before["metrics"].get(name), after["metrics"][name]
        if old == new:
            if all_of_them:
                parts.append(f"{_label(name, k)} {new:.2f}")
            continue
        if old is None:
            parts.append(f"{_label(name, k)} {new:.2f}")
            continue
        old_text, new_text = _value_pair(old, new)
        parts.append(f"{_label(name, k)} {old_text} → {new_text}")
    return ", ".join(parts) if parts else "no metric changed"


def describe_change(before: Mapping, after: Mapping, *, moved: str | None = None) -> str:
    """What changed between two board states, in one sentence for a screen reader.

    This is what the board's polite live region says after a move, a relevance toggle
    or a new cut-off: the change itself, then each metric whose value changed, from its
    value before to its value now (``nDCG@10 0.87 → 0.97``; every metric when k changed,
    since their names change), rounded to 2 decimals (4 when two values only differ
    further down). The readout beside the metrics shows the same changes
    (:func:`metric_changes`).

    Parameters
    ----------
    before, after : mapping
        Board states: ``order`` (ids), ``relevance`` (id -> grade), ``k``, ``metrics``
        (name -> value, as in :func:`board_view`), and optionally ``max_grade`` and
        ``gain``.
    moved : str, optional
        The chunk the learner moved (it decides between two neighbours that swapped).

    Returns
    -------
    str
        Empty when nothing the board shows changed.

    Examples
    --------
    >>> order = ["a", "x", "b"]
    >>> before = {"order": order, "relevance": {"a": 1, "b": 1}, "k": 2}
    >>> before["metrics"] = board_view(order, before["relevance"], 2)["metrics"]
    >>> after = dict(before, order=["a", "b", "x"])
    >>> after["metrics"] = board_view(after["order"], after["relevance"], 2)["metrics"]
    >>> describe_change(before, after)
    'chunk b moved to rank 2, now above the cut-off; Recall@2 0.50 → 1.00, Precision@2 0.50 → 1.00, nDCG@2 0.61 → 1.00'
    """
    k = after["k"]
    old_order, new_order = list(before["order"]), list(after["order"])
    old_rel, new_rel = before["relevance"], after["relevance"]
    events = []
    if before["k"] != k:
        extra = f" (below the last of {len(new_order)} chunks)" if k > len(new_order) else ""
        events.append(f"cut-off k = {k}{extra}")
    if before.get("gain", "linear") != after.get("gain", "linear"):
        events.append(f"{after['gain']} gain")
    if old_order != new_order:
        doc = moved_chunk(old_order, new_order, hint=moved)
        if doc is None:
            events.append("order changed")
        else:
            rank = new_order.index(doc) + 1
            crossed = _place(old_order.index(doc) + 1, k) != _place(rank, k)
            events.append(f"chunk {doc} moved to rank {rank}"
                          + (f", now {_place(rank, k)}" if crossed else ""))
    changed = sorted(
        (d for d in set(old_rel) | set(new_rel) if old_rel.get(d, 0) != new_rel.get(d, 0)),
        key=lambda d: (new_order.index(d) if d in new_order else len(new_order), d),
    )
    graded = after.get("max_grade", 1) > 1
    for doc in changed[:3]:
        grade = new_rel.get(doc, 0)
        if graded:
            events.append(f"chunk {doc} set to grade {grade:g}")
        else:
            events.append(f"chunk {doc} marked {'relevant' if grade > 0 else 'not relevant'}")
    if len(changed) > 3:
        events.append(f"and {len(changed) - 3} more relevance changes")
    if not events and before["metrics"] == after["metrics"]:
        return ""
    if not events:
        events.append("metrics recomputed")
    metrics = _changed_metrics(before, after, k, all_of_them=before["k"] != k)
    return f"{', '.join(events)}; {metrics}"


def _ranges(ranks: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``: increasing ranks, each run of consecutive ones
    (the same rank minus its position) as ``first-last``."""
    runs = [[rank for _, rank in run]
            for _, run in itertools.groupby(enumerate(ranks), lambda pair: pair[1] - pair[0])]
    return ", ".join(f"{run[0]}" if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def describe_curves(curve: Mapping[str, list], k: int | None = None) -> str:
    """The text alternative of a metrics-over-k plot: the range of k, every metric at the
    marked k, and where each metric is highest (first reached).

    Parameters
    ----------
    curve : mapping
        ``{"k": [1, 2, ...], name: [value per k], ...}`` with names from
        :data:`BOARD_METRICS` (as in ``board_view(...)["curve"]``).
    k : int, optional
        The cut-off marked on the plot.

    Examples
    --------
    >>> curve = {"k": [1, 2, 3], "recall": [0.5, 0.5, 1.0], "precision": [1.0, 0.5, 2 / 3]}
    >>> print(describe_curves(curve, k=2))
    Metrics over k = 1 to 3, cut-off marked at k = 2. At k = 2: Recall@2 0.50, Precision@2 0.50. Highest: Recall@3 1.00, Precision@1 1.00.
    """
    ks = list(curve["k"])
    names = _shown(curve)
    text = f"Metrics over k = {ks[0]} to {ks[-1]}"
    if k is not None and k in ks:
        at = ks.index(k)
        values = ", ".join(f"{_label(n, k)} {curve[n][at]:.2f}" for n in names)
        text += f", cut-off marked at k = {k}. At k = {k}: {values}."
    else:
        text += "."
    best = []
    for name in names:
        values = list(curve[name])
        top = max(values)
        best.append(f"{_label(name, ks[values.index(top)])} {top:.2f}")
    return f"{text} Highest: {', '.join(best)}."


def _meets(a: list, b: list) -> list[bool]:
    """Where two curves have the same value, k by k (equal to 12 decimals: on the plot)."""
    return [abs(x - y) < 1e-12 for x, y in zip(a, b, strict=True)]


def plot_lanes(curve: Mapping[str, list]) -> dict[str, int]:
    """The lane of each curve on the board's plot: 0, or a small offset (1, -1, 2, -2, in
    steps the front end draws a few pixels apart) for a curve that meets an earlier one.

    Hit rate and the reciprocal rank are both 1 whenever the first chunk is relevant, and
    recall equals the hit rate when one chunk is relevant: drawn at their values, the later
    curve hides the earlier. Each curve takes the first lane, in the order 0, 1, -1, 2, -2,
    that no earlier curve it meets (at any k) holds; a curve that meets none stays at 0.

    Parameters
    ----------
    curve : mapping
        ``{"k": [1, 2, ...], name: [value per k], ...}`` (as in ``board_view(...)["curve"]``).

    Returns
    -------
    dict
        Metric name -> lane (an int), for the names of :data:`BOARD_METRICS` in ``curve``.

    Examples
    --------
    >>> curve = {"k": [1, 2], "recall": [0.5, 1.0], "precision": [1.0, 1.0],
    ...          "hit_rate": [1.0, 1.0], "rr": [1.0, 1.0]}
    >>> plot_lanes(curve)
    {'recall': 0, 'precision': 1, 'hit_rate': -1, 'rr': 2}
    """
    order = (0, 1, -1, 2, -2, 3, -3, 4, -4)
    lanes: dict[str, int] = {}
    for name in _shown(curve):
        taken = {lanes[other] for other in lanes if any(_meets(curve[name], curve[other]))}
        lanes[name] = next(lane for lane in order if lane not in taken)
    return lanes


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#RRGGBB``."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def legible_colour(colour: str, background: str, *, ratio: float = 3.0) -> str:
    """``colour``, darkened (on a light background) or lightened (on a dark one) just
    enough to stand out from ``background`` by WCAG's contrast ``ratio``.

    A curve on the board's plot is a graphical object: WCAG 2.1 (1.4.11, non-text
    contrast) asks 3:1 against its background. The plots' palette (Okabe-Ito) is kept
    where it passes; the orange of precision (2.25:1 on white) is darkened on the light
    theme, and no colour changes on JupyterLab's dark background (``#111111``).

    Parameters
    ----------
    colour, background : str
        ``#RRGGBB``.
    ratio : float, default 3.0
        The contrast to reach (WCAG: 3 for graphics, 4.5 for text).

    Returns
    -------
    str
        ``#RRGGBB``, mixed towards black or white in steps of 1/50.

    Examples
    --------
    >>> legible_colour("#0072B2", "#ffffff")  # 5.2:1 already
    '#0072B2'
    >>> legible_colour("#E69F00", "#ffffff")
    '#C68900'
    >>> round(_contrast(legible_colour("#E69F00", "#ffffff"), "#ffffff"), 2) >= 3
    True

    References
    ----------
    W3C, *Web Content Accessibility Guidelines 2.1*, success criterion 1.4.11 and the
    definitions of contrast ratio and relative luminance.
    """
    for text, name in ((colour, "colour"), (background, "background")):
        if not (isinstance(text, str) and len(text) == 7 and text[0] == "#"
                and all(c in "0123456789abcdefABCDEF" for c in text[1:])):
            raise InputValueError(f"{name} must be '#RRGGBB', got {text!r}")
    if _contrast(colour, background) >= ratio:
        return colour
    towards = 0 if _luminance(background) > 0.18 else 255
    channels = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    for step in range(1, 51):
        t = step / 50
        mixed = "#" + "".join(f"{round(c + (towards - c) * t):02X}" for c in channels)
        if _contrast(mixed, background) >= ratio:
            return mixed
    return "#000000" if towards == 0 else "#FFFFFF"


def _names(names: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def describe_overlaps(curve: Mapping[str, list]) -> str:
    """The board plot's legend note: which curves coincide, and that they are drawn apart.

    Curves equal at every k are named as a group; curves that only meet somewhere are
    mentioned together. Empty when no two curves meet.

    Examples
    --------
    >>> curve = {"k": [1, 2], "recall": [0.5, 1.0], "precision": [0.5, 0.5],
    ...          "hit_rate": [1.0, 1.0], "rr": [1.0, 1.0]}
    >>> describe_overlaps(curve)
    'Hit rate and RR are equal at every k. Curves that meet are drawn a little apart.'
    >>> describe_overlaps({"k": [1], "recall": [0.5], "precision": [1.0]})
    ''
    """
    names = _shown(curve)
    meet = any(any(_meets(curve[a], curve[b])) for a, b in itertools.combinations(names, 2))
    if not meet:
        return ""
    groups: list[list[str]] = []
    for name in names:
        group = next((g for g in groups if all(_meets(curve[g[0]], curve[name]))), None)
        if group is None:
            groups.append([name])
        else:
            group.append(name)
    plain = [[_label(n, 1).rsplit("@", 1)[0] for n in g] for g in groups if len(g) > 1]
    equal = "".join(f"{_names(g)} are equal at every k. " for g in plain)
    return f"{equal}Curves that meet are drawn a little apart."


def describe_ranking(
    order: list, relevance: Mapping, k: int | None = None, *, relevance_level: float = 1
) -> str:
    """The text alternative of a ranking picture (:func:`ragmetrics.plotting.plot_ranking`):
    its length, where the relevant chunks are, what the cut-off keeps, what was missed.

    Examples
    --------
    >>> print(describe_ranking(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}, 2))
    Ranking of 4 chunks, cut-off after rank 2. Relevant at ranks 1, 3; 1 of the top 2 is relevant. 1 relevant chunk never retrieved.
    """
    n = len(order)
    ranks = [r for r, doc in enumerate(order, start=1) if relevance.get(doc, 0) >= relevance_level]
    text = f"Ranking of {n} chunk{'s' if n != 1 else ''}"
    if k is not None:
        text += (f", cut-off k = {k} below the last chunk" if k > n
                 else f", cut-off after rank {k}")
    if len(ranks) > 12:
        shown = f"{_ranges(ranks[:12])} and {len(ranks) - 12} more"
    else:
        shown = _ranges(ranks)
    if ranks:
        text += f". Relevant at rank{'s' if len(ranks) > 1 else ''} {shown}"
    else:
        text += ". No relevant chunk retrieved"
    if k is not None:
        top = sum(r <= k for r in ranks)
        share = "none" if top == 0 else str(top)
        text += f"; {share} of the top {k} {'are' if top > 1 else 'is'} relevant"
    retrieved = set(order)
    missed = sum(1 for d, g in relevance.items() if g >= relevance_level and d not in retrieved)
    if missed:
        text += f". {missed} relevant chunk{'s' if missed != 1 else ''} never retrieved"
    return text + "."


def describe_board(order: list[str], relevance: Mapping[str, float], k: int, view: dict,
                   facets: Mapping[str, list] | None = None) -> str:
    """The board as text: the ranking with the cut-off (each chunk's facets in brackets),
    then the metrics (4 decimals)."""
    lines = []
    facets = facets or {}
    for rank, doc in enumerate(order, start=1):
        grade = relevance.get(doc, 0)
        mark = f"relevant (grade {grade:g})" if grade > 0 else ""
        if facets.get(doc):
            mark += f" [{', '.join(facets[doc])}]"
        lines.append(f"{rank:>3}. {doc:<16} {mark}".rstrip())
        if rank == k:
            lines.append(f"     ---- cut-off k = {k} ----")
    if k > len(order):
        lines.append(f"     ---- cut-off k = {k} (below the last of {len(order)} chunks) ----")
    metrics = "  ".join(f"{view['labels'][n]} = {v:.4f}" for n, v in view["metrics"].items())
    return "\n".join([*lines, metrics, f"DCG = {view['dcg']:.4f}  IDCG = {view['idcg']:.4f}"])


def static_html(order, relevance, k, titles, view, facets=None) -> str:
    """A kernel-free view of the board (GitHub, nbviewer): the ranking and the metrics table
    (with a facets column when the chunks carry facets).

    Titles and facet names are untrusted text, so everything is escaped.
    """
    e = html.escape
    rows = []
    columns = 5 if facets else 4
    for rank, doc in enumerate(order, start=1):
        grade = relevance.get(doc, 0)
        style = ' style="background:#e3f6e3"' if grade > 0 else ""
        facet_cell = f"<td>{e(', '.join(facets.get(doc, [])))}</td>" if facets else ""
        rows.append(
            f"<tr{style}><td>{rank}</td><td>{e(doc)}</td><td>{e(titles.get(doc, ''))}</td>"
            f"<td>{e(f'{grade:g}') if grade else ''}</td>{facet_cell}</tr>"
        )
        if rank == k:
            rows.append(f'<tr><td colspan="{columns}"><b>cut-off k = {k}</b></td></tr>')
    if k > len(order):
        rows.append(
            f'<tr><td colspan="{columns}"><b>cut-off k = {k}</b> (below the last of '
            f"{len(order)} chunks)</td></tr>"
        )
    metrics = "".join(
        f"<tr><td>{e(view['labels'][n])}</td><td>{v:.4f}</td></tr>"
        for n, v in view["metrics"].items()
    )
    return (
        "<div><table><thead><tr><th>rank</th><th>chunk</th><th>title</th><th>grade</th>"
        f"{'<th>facets</th>' if facets else ''}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f"<table><tbody>{metrics}</tbody></table></div>"
    )


def describe_reset(metrics: Mapping[str, float], k: int) -> str:
    """What the live region says when the board goes back to its starting state.

    >>> describe_reset({"recall": 0.4, "ndcg": 0.55314}, 5)
    'board reset to its starting state; Recall@5 0.40, nDCG@5 0.55'
    """
    return f"board reset to its starting state; {describe_metrics(metrics, k)}"


class BoardState:
    """A board's state without a widget: a copy to try moves on, leaving the board as it is.

    ``board.state()`` gives one; checkpoint cells move the copy, so the board the learner
    plays with keeps its starting state. Every number comes from :func:`board_view`.

    Parameters
    ----------
    order : list of str
        Chunk ids in rank order.
    relevance : mapping of str to float
        Chunk id -> grade.
    k : int
        The cut-off.
    gain : {"linear", "exponential"}, default "linear"
    max_grade : int, default 1
        The grade a click cycles up to (as on the board).
    facets : mapping of str to list of str, optional
        Chunk id -> its facets: the metrics then include alpha-nDCG@k and subtopic recall@k.

    Examples
    --------
    >>> state = BoardState(["a", "x", "b"], {"a": 1, "b": 1}, k=2)
    >>> state.move("b", 2)
    >>> state.order, state.metrics["recall"]
    (['a', 'b', 'x'], 1.0)
    >>> state.toggle("x")
    >>> round(state.metrics["precision"], 4)
    1.0

    With facets, a redundant chunk moved up lowers alpha-nDCG; recall and nDCG stay:

    >>> state = BoardState(["a", "b", "c"], {"a": 1, "b": 1, "c": 1}, k=3,
    ...                    facets={"a": ["price"], "b": ["how"], "c": ["price"]})
    >>> before = state.metrics
    >>> state.move("c", 2)
    >>> [round(state.metrics[m] - before[m], 4) for m in ("alpha_ndcg", "ndcg", "recall")]
    [-0.0348, 0.0, 0.0]
    """

    def __init__(self, order, relevance, k, *, gain="linear", max_grade=1, facets=None):
        self.order = list(order)
        self.relevance = {str(d): float(g) for d, g in relevance.items()}
        self.k = check_k(k)
        self.gain = check_choice(gain, GAIN_POLICIES, "gain")
        self.max_grade = int(max_grade)
        self.facets = check_facets(facets or {}, [*self.order, *self.relevance])

    def copy(self) -> BoardState:
        """An independent copy."""
        return BoardState(self.order, self.relevance, self.k, gain=self.gain,
                          max_grade=self.max_grade, facets=self.facets)

    def move(self, doc_id: str, to_rank: int) -> None:
        """Move ``doc_id`` to 1-based ``to_rank``, as a drag and drop on the board does."""
        self.order = move(self.order, str(doc_id), to_rank)

    def toggle(self, doc_id: str) -> None:
        """A click on a chunk: toggle it relevant, or cycle its grade."""
        doc_id = str(doc_id)
        if doc_id not in self.order:
            raise InputValueError(f"{doc_id!r} is not on the board; ids are {self.order!r}")
        self.relevance[doc_id] = float(cycle_grade(self.relevance.get(doc_id, 0.0),
                                                   self.max_grade))

    @property
    def view(self) -> dict:
        """What the board would show (:func:`board_view`)."""
        return board_view(self.order, self.relevance, self.k, gain=self.gain,
                          facets=self.facets or None)

    @property
    def metrics(self) -> dict[str, float]:
        """The board's metrics at k."""
        return self.view["metrics"]

    def describe(self) -> str:
        """What the board would show, as text (:func:`describe_board`)."""
        return describe_board(self.order, self.relevance, self.k, self.view, self.facets)

    def __eq__(self, other) -> bool:
        if not isinstance(other, BoardState):
            return NotImplemented
        return (self.order, self.relevance, self.k, self.gain) == (
            other.order, other.relevance, other.k, other.gain)

    def __repr__(self) -> str:
        relevant = {d: g for d, g in self.relevance.items() if g > 0}
        return f"BoardState(order={self.order!r}, relevant={relevant!r}, k={self.k})"
