"""What ragmetrics raises and warns, in two families: the user's input, and everything else.

**Errors about the input** (a file, an argument, a run or a golden set that cannot be
scored as given) derive from :class:`InputError`, and also from the built-in exception a
Python user expects (``ValueError`` or ``TypeError``), so ``except ValueError`` keeps
working. Their message names the bad value and where it was. The ``ragmetrics`` command
prints such an error as one line and exits with status 2.

Any other exception is a bug in ragmetrics, never the user's fault: the command says so,
exits with status 1 and prints the traceback with ``--debug``.

**Warnings** derive from :class:`RagmetricsWarning`: numbers that were computed, but that
need a word to be read right (a query missing from the run, a query with no relevant doc,
a rank column that disagrees with the scores).

Examples
--------
>>> from ragmetrics.errors import InputValueError, InputError
>>> error = InputValueError("k must be a positive int (1, 2, ...), got 0")
>>> isinstance(error, ValueError), isinstance(error, InputError)
(True, True)
"""

from __future__ import annotations

__all__ = [
    "JUDGMENT_WARNINGS",
    "RUN_WARNINGS",
    "BudgetWarning",
    "CoverageWarning",
    "DatasetCoverageWarning",
    "EmptyRelevantWarning",
    "FormatError",
    "InputError",
    "InputTypeError",
    "InputValueError",
    "NoRelevantChunkWarning",
    "NoRelevantRetrievedWarning",
    "RagmetricsWarning",
    "RankOrderWarning",
    "RetrieverError",
]

# Longer offending lines are cut in a FormatError's message (its .text keeps all).
_SHOWN_CHARS = 120


class InputError(Exception):
    """The input cannot be scored as given: the caller's to fix, not a bug."""


class InputValueError(InputError, ValueError):
    """A value of the right type but wrong, e.g. ``k=0`` or a doc ranked twice."""


class InputTypeError(InputError, TypeError):
    """A value of the wrong type, e.g. ``k="5"``, or ids ``"42"`` against ``42``."""


class RetrieverError(InputError):
    """The caller's retriever raised for a query (:func:`ragmetrics.runners.run_retriever`).

    The message names the query id; the retriever's own exception is chained (its
    ``__cause__``), and ``query_id`` holds the id.

    Examples
    --------
    >>> error = RetrieverError("query 'q7': TimeoutError: no answer", query_id="q7")
    >>> error.query_id, isinstance(error, InputError)
    ('q7', True)
    """

    def __init__(self, message: str, *, query_id=None) -> None:
        self.query_id = query_id
        super().__init__(message)

    def __reduce__(self):
        return _rebuild_retriever_error, (str(self), self.query_id)


def _rebuild_retriever_error(message, query_id) -> RetrieverError:
    return RetrieverError(message, query_id=query_id)


class FormatError(InputValueError):
    """A file that cannot be read exactly as it is written.

    Raised by every reader of :mod:`ragmetrics.io` for any malformed input, instead of
    reading part of the file or guessing.

    Parameters
    ----------
    reason : str
        What is wrong, e.g. ``"expected 4 fields (...), got 3"``.
    path : str
        The file, as the caller named it.
    line : int or None, default None
        The 1-based physical line number (for Parquet files: the row number), or None
        when the problem is not one line's (a missing column, an empty file).
    text : str or None, default None
        The offending line, without its line ending.
    unit : str, default "line"
        What ``line`` counts: ``"line"``, or ``"row"`` for a Parquet file.

    Examples
    --------
    >>> error = FormatError("expected 4 fields, got 3", path="qrels.txt", line=7, text="q1 0 d1")
    >>> print(error)
    qrels.txt, line 7: expected 4 fields, got 3: 'q1 0 d1'
    >>> error.line, error.text
    (7, 'q1 0 d1')
    >>> isinstance(error, ValueError)
    True
    """

    def __init__(
        self,
        reason: str,
        *,
        path: str,
        line: int | None = None,
        text: str | None = None,
        unit: str = "line",
    ) -> None:
        self.reason = reason
        self.path = path
        self.line = line
        self.text = text
        self.unit = unit
        where = path if line is None else f"{path}, {unit} {line}"
        message = f"{where}: {reason}"
        if text is not None:
            shown = text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."
            message += f": {shown!r}"
        super().__init__(message)

    def __reduce__(self):
        # Keyword-only arguments are not restored by the default exception pickling,
        # and errors must survive multiprocessing.
        return _rebuild_format_error, (self.reason, self.path, self.line, self.text, self.unit)


def _rebuild_format_error(reason, path, line, text, unit="line") -> FormatError:
    return FormatError(reason, path=path, line=line, text=text, unit=unit)


class RagmetricsWarning(UserWarning):
    """Numbers were computed, but they need a word to be read right."""


class CoverageWarning(RagmetricsWarning):
    """The run and the judgments do not cover the same queries."""


class DatasetCoverageWarning(RagmetricsWarning):
    """A data set's judgments name queries its questions file lacks, or docs its corpus
    lacks (:func:`ragmetrics.io.read_dataset`; the counts are in ``Dataset.coverage``)."""


class EmptyRelevantWarning(RagmetricsWarning):
    """Some judged queries have no relevant doc at the relevance level in use."""


class RankOrderWarning(RagmetricsWarning):
    """A run's rank column and its scores give different orders."""


class NoRelevantRetrievedWarning(RagmetricsWarning):
    """No query's results hold a single relevant doc: often ids written two ways."""


class NoRelevantChunkWarning(RagmetricsWarning):
    """Queries have evidence, but no chunk of the run's chunking is relevant under the rule.

    Their id-based metrics (judged from the evidence by
    :class:`ragmetrics.spans.SpanJudgments`) are scored as queries with nothing to find;
    their span metrics are not.
    """


class BudgetWarning(RagmetricsWarning):
    """A context budget smaller than some queries' first-ranked chunk.

    Span metrics at ``@budget=N`` fill the context in rank order, and the first chunk
    that does not fit ends it: a query whose first chunk alone is longer than the budget
    retrieves nothing and scores 0, whatever the rest of its ranking. The warning says
    how many queries that is, so that their 0 is read as the budget's, not the
    retriever's.
    """


#: The warnings about the judgments alone: the same for every run scored against them,
#: so that a comparison of many runs says each once.
JUDGMENT_WARNINGS: tuple[type[RagmetricsWarning], ...] = (EmptyRelevantWarning,)

#: The warnings about one run or its chunking: a comparison names the system with each.
#: (A :class:`CoverageWarning` is neither: a comparison lists the queries itself.)
RUN_WARNINGS: tuple[type[RagmetricsWarning], ...] = (
    RankOrderWarning, NoRelevantRetrievedWarning, NoRelevantChunkWarning, BudgetWarning)
