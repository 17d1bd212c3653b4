"""What the ranking board shows, computed by pure functions (no widgets here).

The interactive :class:`ragmetrics.widgets.RankingBoard` only wires a browser view to these
functions: every number the learner sees comes from :func:`board_view`, which calls the
same metric code as the rest of ragmetrics. The browser never computes a metric.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from ._validation import as_grades, as_ranking, check_choice, check_k, id_kind
from .curves import metric_curves, ndcg_table
from .errors import InputTypeError, InputValueError
from .policies import GAIN_POLICIES
from .registry import METRICS

__all__ = ["BOARD_METRICS", "board_view", "cycle_grade", "describe_board", "move", "static_html"]

#: The metrics the board shows, in order (registry names; the reciprocal rank is cut at k).
BOARD_METRICS = ("recall", "precision", "hit_rate", "mrr", "ndcg")


def _label(name: str, k: int) -> str:
    if name == "mrr":
        return f"RR@{k}"  # one query: the reciprocal rank, searched to depth k
    return METRICS[name].pretty_name.replace("@k", f"@{k}")


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


def board_view(
    order: list[str], relevance: Mapping[str, float], k: int, *, gain: str = "linear"
) -> dict:
    """Everything the board displays for one state, as JSON-ready data.

    Returns
    -------
    dict
        ``metrics`` (name -> value at k), ``labels`` (name -> "Recall@5" ...),
        ``ndcg_rows`` (per rank 1..k: doc id, grade, gain, discount, discounted gain),
        ``dcg``, ``idcg``, ``curve`` ({"k": [1..n], name: [values]}), and
        ``unretrieved`` (relevant ids that are not in the ranking).

    Examples
    --------
    >>> view = board_view(["a", "x", "b"], {"a": 1, "b": 1}, 2)
    >>> {name: round(value, 3) for name, value in view["metrics"].items()}
    {'recall': 0.5, 'precision': 0.5, 'hit_rate': 1.0, 'mrr': 1.0, 'ndcg': 0.613}
    """
    k = check_k(k)
    check_choice(gain, GAIN_POLICIES, "gain")
    depth = max(len(order), k, 1)
    # The arrays, not a DataFrame: the board recomputes on every drag and click.
    curves = metric_curves(order, relevance, range(1, depth + 1), metrics=BOARD_METRICS, gain=gain)
    table = ndcg_table(order, relevance, k, gain=gain)
    retrieved = set(order)
    return {
        "metrics": curves.at(k),
        "labels": {name: _label(name, k) for name in BOARD_METRICS},
        "ndcg_rows": _ndcg_rows(table),
        "dcg": float(table.attrs["dcg"]),
        "idcg": float(table.attrs["idcg"]),
        "curve": {"k": curves.ks.tolist()}
        | {name: curves[name].tolist() for name in BOARD_METRICS},
        "unretrieved": [d for d, g in relevance.items() if g > 0 and d not in retrieved],
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


def describe_board(order: list[str], relevance: Mapping[str, float], k: int, view: dict) -> str:
    """The board as text: the ranking with the cut-off, then the metrics (4 decimals)."""
    lines = []
    for rank, doc in enumerate(order, start=1):
        grade = relevance.get(doc, 0)
        mark = f"relevant (grade {grade:g})" if grade > 0 else ""
        lines.append(f"{rank:>3}. {doc:<16} {mark}".rstrip())
        if rank == k:
            lines.append(f"     ---- cut-off k = {k} ----")
    if k > len(order):
        lines.append(f"     ---- cut-off k = {k} (below the last of {len(order)} chunks) ----")
    metrics = "  ".join(f"{view['labels'][n]} = {v:.4f}" for n, v in view["metrics"].items())
    return "\n".join([*lines, metrics, f"DCG = {view['dcg']:.4f}  IDCG = {view['idcg']:.4f}"])


def static_html(order, relevance, k, titles, view) -> str:
    """A kernel-free view of the board (GitHub, nbviewer): the ranking and the metrics table.

    Titles are untrusted text, so everything is escaped.
    """
    e = html.escape
    rows = []
    for rank, doc in enumerate(order, start=1):
        grade = relevance.get(doc, 0)
        style = ' style="background:#e3f6e3"' if grade > 0 else ""
        rows.append(
            f"<tr{style}><td>{rank}</td><td>{e(doc)}</td><td>{e(titles.get(doc, ''))}</td>"
            f"<td>{e(f'{grade:g}') if grade else ''}</td></tr>"
        )
        if rank == k:
            rows.append(f'<tr><td colspan="4"><b>cut-off k = {k}</b></td></tr>')
    if k > len(order):
        rows.append(
            f'<tr><td colspan="4"><b>cut-off k = {k}</b> (below the last of {len(order)} '
            "chunks)</td></tr>"
        )
    metrics = "".join(
        f"<tr><td>{e(view['labels'][n])}</td><td>{v:.4f}</td></tr>"
        for n, v in view["metrics"].items()
    )
    return (
        "<div><table><thead><tr><th>rank</th><th>chunk</th><th>title</th><th>grade</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f"<table><tbody>{metrics}</tbody></table></div>"
    )
