"""ExerciseWidget: a ranking, a golden set, one metric to work out; type it, get feedback.

The state and the checking are :class:`ragmetrics.teaching.ExerciseSet` (pure Python,
tested on its own); this widget only wires a browser view to it: the browser sends what
the learner typed (``answer_request``) and the buttons pressed (``nav_request``), Python
answers with the item to show (``item``), the feedback (``feedback``), the score
(``summary``) and what the live region says (``announcement``).
"""

from __future__ import annotations

import html

import traitlets

from ..teaching.exercises import LEVELS, TOLERANCE, ExerciseSet, Feedback
from .base import AccessibleWidget

__all__ = ["ExerciseWidget"]


def _item_view(practice: ExerciseSet) -> dict:
    ex = practice.current
    return {
        "index": practice.index,
        "total": len(practice),
        "metric": ex.metric,
        "level": ex.level,
        "label": ex.label,
        "question": ex.question,
        "k": ex.k,
        "graded": ex.graded,
        "rows": ex.rows(),
        "unretrieved": ex.unretrieved,
        "status": practice.status(),
    }


def _feedback_view(feedback: Feedback | None) -> dict:
    if feedback is None:
        return {}
    explanation = feedback.explanation
    return {
        "status": feedback.status,
        "message": feedback.message,
        "hint": feedback.hint or "",
        "misconception": feedback.misconception or "",
        "columns": list(explanation.columns) if explanation else [],
        "rows": [list(r) for r in explanation.rows] if explanation else [],
        "lines": list(explanation.lines) if explanation else [],
    }


class ExerciseWidget(AccessibleWidget, front_end="exercise.js", style="exercise.css", root=True):
    """Exercises with feedback: work out one metric of a ranking, type it, check it.

    Each item shows a ranking, its golden set (relevant chunks, with their grades, and
    the relevant chunks that were never retrieved) and the cut-off, and asks for one
    metric's value. Type it ("0.4", "2/5" or "40%") and press Check (or Enter): within
    0.005 the widget says so. A first wrong answer gets a hint, no number: the likely
    mistake when the answer is what that mistake gives (recall divided by k, a
    never-retrieved chunk left out of R...), else how the value is worked out; a second
    one gets the arithmetic rank by rank. A value outside the metric's range (above 1,
    negative) is refused with a hint and does not count. "Show solution" shows the
    arithmetic without an answer; the item is then not scored, and an answer typed after
    it is marked "revealed, not scored". Previous and Next move between the items (each
    metric at levels 1, 2 and 3, made from ``seed``). The score is under the buttons.

    Keys: Tab from the answer field to Check, Previous, Show solution and Next; Enter in
    the field checks the answer. Focus stays where it is through every redraw, and the
    live region says the feedback.

    Parameters
    ----------
    metrics : str or list of str
        The metrics asked (``"recall"``, ``"precision"``, ``"hit_rate"``, ``"rr"``,
        ``"ndcg"``, ``"ap"``, ``"r_precision"``).
    levels : sequence of int, default (1, 2, 3)
    seed : int, default 0
        The same seed gives the same items.
    tolerance : float, default 0.005
    order : {"by_metric", "mixed"}, default "by_metric"
        ``"mixed"`` shuffles the items so that no metric follows itself where it can be
        avoided (notebook 14's closing quiz); see :class:`~ragmetrics.teaching.ExerciseSet`.

    Examples
    --------
    >>> quiz = ExerciseWidget(["recall"], seed=6)
    >>> quiz.item["question"], quiz.item["total"]
    ('What is Recall@2 of this ranking?', 3)
    >>> quiz.answer("0.4").status               # what typing 0.4 and pressing Check does
    'wrong'
    >>> quiz.feedback["hint"]                    # the first miss: a hint, no number
    'Count the relevant chunks in the top k, then divide by R, every relevant chunk in the golden set (retrieved or not).'
    >>> quiz.answer("0.3").status, quiz.feedback["lines"][-1]   # the second: the arithmetic
    ('wrong', 'Recall@2 = 1/2 = 0.5000')
    >>> quiz.answer("1/2").status, quiz.summary
    ('correct', 'Score: 1 of 3 answered right (0 at the first try); 2 to go')
    """

    #: The item shown: question, ranking rows, cut-off, golden set, index and total.
    item = traitlets.Dict().tag(sync=True)
    #: The feedback on the last answer: status, message and the arithmetic ({} = none).
    feedback = traitlets.Dict().tag(sync=True)
    #: The score, in one line.
    summary = traitlets.Unicode("").tag(sync=True)
    #: What the learner typed, from the browser: ``{"text": ..., "n": count}``.
    answer_request = traitlets.Dict().tag(sync=True)
    #: A button, from the browser: ``{"action": "next" | "previous" | "reveal", "n": count}``.
    nav_request = traitlets.Dict().tag(sync=True)

    def __init__(self, metrics, *, levels=LEVELS, seed: int = 0, tolerance: float = TOLERANCE,
                 order: str = "by_metric"):
        self.exercises = ExerciseSet(metrics, levels=levels, seed=seed, tolerance=tolerance,
                                     order=order)
        super().__init__()
        self._show()
        self.observe(self._on_answer_request, names=["answer_request"])
        self.observe(self._on_nav_request, names=["nav_request"])

    @classmethod
    def example(cls) -> ExerciseWidget:
        """Recall@k at levels 1, 2 and 3 (what notebook 01 ends with)."""
        return cls(["recall"], seed=1)

    # -- what the buttons do, callable from Python -------------------------------------

    def answer(self, typed) -> Feedback:
        """Check ``typed`` against the current item, as the Check button does."""
        feedback = self.exercises.answer(typed)
        self._show(feedback)
        return feedback

    def reveal(self) -> Feedback:
        """Show the current item's solution, as the "Show solution" button does."""
        feedback = self.exercises.reveal()
        self._show(feedback)
        return feedback

    def next(self) -> None:
        """Go to the next item."""
        self.exercises.next()
        self._show(said=self._item_words())

    def previous(self) -> None:
        """Go to the previous item."""
        self.exercises.previous()
        self._show(said=self._item_words())

    # -- wiring -------------------------------------------------------------------------

    def _item_words(self) -> str:
        item = _item_view(self.exercises)
        return (f"exercise {item['index'] + 1} of {item['total']}, level {item['level']}: "
                f"{item['question']}")

    def _show(self, feedback: Feedback | None = None, *, said: str | None = None) -> None:
        with self.hold_sync():
            self.item = _item_view(self.exercises)
            self.feedback = _feedback_view(feedback)
            self.summary = f"Score: {self.exercises.summary()}"
            if feedback is not None:
                self.announcement = feedback.message.removesuffix(
                    " The arithmetic, rank by rank:")
            elif said is not None:
                self.announcement = said

    def _on_answer_request(self, change) -> None:
        request = change["new"]
        if isinstance(request, dict) and "text" in request:
            self.answer(str(request["text"]))

    def _on_nav_request(self, change) -> None:
        action = change["new"].get("action") if isinstance(change["new"], dict) else None
        if action == "next":
            self.next()
        elif action == "previous":
            self.previous()
        elif action == "reveal":
            self.reveal()

    def __repr__(self) -> str:
        item = self.item
        return (f"ExerciseWidget(item {item['index'] + 1} of {item['total']}: {item['label']}, "
                f"level {item['level']}, seed={self.exercises.seed})")

    def _static_html(self) -> str:
        """A kernel-free view (GitHub, the book): the first question and its ranking."""
        e = html.escape
        item = self.item
        rows = []
        for row in item["rows"]:
            grade = row["grade"]
            mark = (f"relevant (grade {grade})" if item["graded"] else "relevant") if grade else ""
            rows.append(f"<tr><td>{row['rank']}</td><td>{e(row['doc_id'])}</td>"
                        f"<td>{e(mark)}</td></tr>")
            if item["k"] is not None and row["rank"] == item["k"]:
                rows.append(f"<tr><td colspan='3'><b>cut-off k = {item['k']}</b></td></tr>")
        missing = (f"<p>Also relevant, never retrieved: {e(', '.join(item['unretrieved']))}</p>"
                   if item["unretrieved"] else "")
        return (f"<div><p><b>Exercise {item['index'] + 1} of {item['total']}</b> (level "
                f"{item['level']}): {e(item['question'])}</p>"
                "<table><thead><tr><th>rank</th><th>chunk</th><th>golden set</th></tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table>{missing}"
                "<p>Run the notebook to type your answer here and get feedback.</p></div>")
