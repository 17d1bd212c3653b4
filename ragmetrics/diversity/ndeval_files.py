"""ndeval's files: its 4-field qrels, its runs, and its CSV output, as ndeval.c v4.5 has them.

- **qrels**: ``topic subtopic docno judgment`` per line, fields split at whitespace,
  fields past the fourth ignored; topic, subtopic and judgment *natural numbers* (ASCII
  digits; ndeval's ``naturalNumber`` refuses a number whose digits before the last
  exceed 100000, so at most 1000009); a judgment above 1 is read as 1. Every line must
  parse: a blank line is a syntax error, as in ndeval.
- **runs**: ``topic Q0 docno rank score runid``, fields past the sixth ignored; a topic
  may carry a task prefix ending in ``-`` (``wt09-12`` is topic 12); the rank a natural
  number; the run's name is the first line's sixth field. The score is read only to
  order a run by score (``-traditional``).
- **output**: :func:`ndeval_csv`, byte for byte: ``runid,topic,ERR-IA@5,...``, a row per
  topic of the run (zeros for a topic without judgments), then the ``amean`` row,
  values ``%.6f`` (a NaN as glibc's ``printf`` writes it: ``-nan``).

Where ragmetrics refuses what ndeval reads: a (topic, subtopic, doc) judged twice (ndeval
keeps one judgment, which one depending on its C library's ``qsort``, and counts both in
MAP-IA's denominators), a NUL byte (C ends the line there), bytes that are not UTF-8, a
run topic with neither digits nor a ``-`` (ndeval reads past the end of the field), and,
when scores order the run, a score that is not a number in decimal notation
(ndeval's ``sscanf`` reads the prefix ``1.5`` of ``1.5x``, and leaves garbage for
``x``) or a NaN. A UTF-8 byte-order mark at the start of a file is dropped.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from ..errors import FormatError
from ..io.source import open_source
from .subtopics import SubtopicJudgments, subtopic_judgments

__all__ = ["NDEVAL_COLUMNS", "ndeval_csv", "read_ndeval_qrels", "read_ndeval_run"]

#: ndeval's columns, in its order: (printed name, metric name of the table).
NDEVAL_COLUMNS = (
    ("ERR-IA@5", "err_ia@5"), ("ERR-IA@10", "err_ia@10"), ("ERR-IA@20", "err_ia@20"),
    ("nERR-IA@5", "nerr_ia@5"), ("nERR-IA@10", "nerr_ia@10"), ("nERR-IA@20", "nerr_ia@20"),
    ("alpha-DCG@5", "alpha_dcg@5"), ("alpha-DCG@10", "alpha_dcg@10"),
    ("alpha-DCG@20", "alpha_dcg@20"), ("alpha-nDCG@5", "alpha_ndcg@5"),
    ("alpha-nDCG@10", "alpha_ndcg@10"), ("alpha-nDCG@20", "alpha_ndcg@20"),
    ("NRBP", "nrbp"), ("nNRBP", "nnrbp"), ("MAP-IA", "map_ia"),
    ("P-IA@5", "p_ia@5"), ("P-IA@10", "p_ia@10"), ("P-IA@20", "p_ia@20"),
    ("strec@5", "strec@5"), ("strec@10", "strec@10"), ("strec@20", "strec@20"),
)

_LARGE_ENOUGH = 100000
_DECIMAL = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      rb"|[+-]?(?:inf|infinity)", re.IGNORECASE)


def _natural(token: bytes) -> int | None:
    """ndeval's ``naturalNumber``: ASCII digits, the value before the last digit at most
    100000; else None."""
    if not token or not token.isdigit() or not token.isascii():
        return None
    if len(token) > 1 and int(token[:-1]) > _LARGE_ENOUGH:
        return None
    return int(token)


def _lines(path):
    """(source, [(line number, tokens), ...]) as ndeval's ``mygetline`` and ``split``
    read a file: lines end at ``\\n``, fields are split at ASCII whitespace."""
    source = open_source(path)
    data = source.data
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = []
    for number, line in enumerate(lines, start=1):
        if b"\0" in line:
            raise source.error("a NUL byte in the line (ndeval ends the line there)", number)
        out.append((number, line.split()))
    return source, out


def _text(source, number: int, token: bytes) -> str:
    try:
        return token.decode("utf-8")
    except UnicodeDecodeError:
        raise source.error("not valid UTF-8; save the file as UTF-8", number) from None


def read_ndeval_qrels(path) -> SubtopicJudgments:
    """ndeval's qrels file, ``topic subtopic docno judgment`` per line.

    Parameters
    ----------
    path : str or path-like
        The file (compressed or not; ``-`` is not read here: the command reads it).

    Returns
    -------
    SubtopicJudgments
        Topics and subtopics as the text of their numbers (``"007"`` is ``"7"``).

    Raises
    ------
    FormatError
        A line ndeval calls a syntax error, a negative judgment, an empty file, or a
        (topic, subtopic, doc) judged twice, naming the file and the line.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "qrels.txt"
    >>> _ = path.write_text("1 1 A 1\\n1 2 B 3\\n1 2 D 0\\n")
    >>> read_ndeval_qrels(path).relevant.values.tolist()
    [['1', '1', 'A'], ['1', '2', 'B']]
    >>> _ = path.write_text("1 1 A -1\\n")
    >>> read_ndeval_qrels(path)
    Traceback (most recent call last):
    ...
    ragmetrics.errors.FormatError: ...qrels.txt, line 1: ndeval's qrels: 'topic subtopic docno judgment', the topic, subtopic and judgment natural numbers (a judgment below 0 is refused); got '-1' for the judgment: '1 1 A -1'
    """
    source, lines = _lines(path)
    if not lines:
        raise FormatError("the qrels file is empty", path=source.name)
    rows = []
    seen: dict = {}
    for number, tokens in lines:
        if len(tokens) < 4:
            raise source.error(f"ndeval's qrels have 4 fields 'topic subtopic docno judgment'"
                               f", got {len(tokens)}", number)
        values = [_natural(tokens[i]) for i in (0, 1, 3)]
        for value, i, what in zip(values, (0, 1, 3), ("topic", "subtopic", "judgment"),
                                  strict=True):
            if value is None:
                raise source.error(
                    "ndeval's qrels: 'topic subtopic docno judgment', the topic, subtopic "
                    "and judgment natural numbers (a judgment below 0 is refused); got "
                    f"{_text(source, number, tokens[i])!r} for the {what}", number)
        topic, subtopic, judgment = values
        doc = _text(source, number, tokens[2])
        key = (topic, subtopic, doc)
        if key in seen:
            raise source.error(f"topic {topic}, subtopic {subtopic}, doc {doc!r} is judged "
                               f"twice (lines {seen[key]} and {number}); ndeval keeps one "
                               "judgment and counts both in MAP-IA", number)
        seen[key] = number
        rows.append((str(topic), str(subtopic), doc, min(judgment, 1)))
    return subtopic_judgments(rows)


def read_ndeval_run(path, *, scores: bool = False) -> tuple[pd.DataFrame, str]:
    """An ndeval run, ``topic Q0 docno rank score runid`` per line.

    Parameters
    ----------
    path : str or path-like
    scores : bool, default False
        Read the scores (``-traditional`` orders by them): each must be a number in
        decimal notation, not NaN. Otherwise the score field is not read, as in ndeval.

    Returns
    -------
    (pandas.DataFrame, str)
        The run, with ``query_id`` (the topic number as text), ``doc_id``, ``rank`` and
        ``score`` (NaN when not read), one row per line in file order; and the run's name,
        the first line's sixth field.

    Raises
    ------
    FormatError
        A line ndeval calls a syntax error, an empty file, a score that cannot be read.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "run.txt"
    >>> _ = path.write_text("wt09-7 Q0 A 1 2.5 bm25\\n7 Q0 B 2 2.0 bm25\\n")
    >>> frame, name = read_ndeval_run(path)
    >>> frame["query_id"].tolist(), frame["rank"].tolist(), name
    (['7', '7'], [1, 2], 'bm25')
    """
    source, lines = _lines(path)
    if not lines:
        raise FormatError("the run file is empty", path=source.name)
    topics, docs, ranks, values = [], [], [], []
    name = None
    for number, tokens in lines:
        if len(tokens) < 6:
            raise source.error("ndeval's runs have 6 fields 'topic Q0 docno rank score runid'"
                               f", got {len(tokens)}", number)
        topic = _run_topic(tokens[0])
        if topic is None:
            raise source.error(
                "the topic must be a natural number, or one after a prefix ending in '-' "
                f"(wt09-12); got {_text(source, number, tokens[0])!r}", number)
        rank = _natural(tokens[3])
        if rank is None:
            raise source.error(f"the rank must be a natural number, got "
                               f"{_text(source, number, tokens[3])!r}", number)
        if name is None:
            name = _text(source, number, tokens[5])
        if scores:
            score = _score(tokens[4])
            if score is None:
                raise source.error(
                    "ordering by score (-traditional), the score must be a number in "
                    f"decimal notation, not NaN; got {_text(source, number, tokens[4])!r}",
                    number)
            values.append(score)
        topics.append(str(topic))
        docs.append(_text(source, number, tokens[2]))
        ranks.append(rank)
    frame = pd.DataFrame({
        "query_id": pd.Series(topics, dtype=object),
        "doc_id": pd.Series(docs, dtype=object),
        "rank": np.asarray(ranks, dtype=np.int64),
        "score": np.asarray(values, dtype=np.float64) if scores else np.nan,
    })
    return frame, name


def _run_topic(token: bytes) -> int | None:
    """ndeval's ``parseTopic``: a natural number, or the one after the first ``-``."""
    if token[:1].isdigit():
        return _natural(token)
    if b"-" not in token:
        return None
    return _natural(token.split(b"-", 1)[1])


def _score(token: bytes) -> float | None:
    if _DECIMAL.fullmatch(token) is None:
        return None
    value = float(token)
    return None if math.isnan(value) else value


def _c_float(value: float) -> str:
    """``printf("%.6f", value)`` as glibc writes it (a NaN with its sign: ``-nan``)."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return f"{value:.6f}"


def ndeval_csv(per_topic: pd.DataFrame, means: dict, run_name: str) -> str:
    """ndeval's output: the header, a row per topic, the ``amean`` row.

    Parameters
    ----------
    per_topic : pandas.DataFrame
        One row per topic, in the order to print, indexed by topic, with the columns of
        :data:`NDEVAL_COLUMNS` (their metric names).
    means : dict
        The ``amean`` value of each metric name.
    run_name : str

    Examples
    --------
    >>> import pandas as pd
    >>> names = [m for _, m in NDEVAL_COLUMNS]
    >>> frame = pd.DataFrame([[0.5] * 21], index=["7"], columns=names)
    >>> print(ndeval_csv(frame, dict.fromkeys(names, float("nan")), "r"), end="")
    ... # doctest: +ELLIPSIS
    runid,topic,ERR-IA@5,ERR-IA@10,...,strec@20
    r,7,0.500000,0.500000,...,0.500000
    r,amean,nan,nan,...,nan
    """
    header = "runid,topic," + ",".join(printed for printed, _ in NDEVAL_COLUMNS)
    names = [name for _, name in NDEVAL_COLUMNS]
    lines = [header]
    values = per_topic[names].to_numpy(dtype=np.float64)
    for topic, row in zip(per_topic.index, values, strict=True):
        lines.append(f"{run_name},{topic}," + ",".join(_c_float(v) for v in row.tolist()))
    lines.append(f"{run_name},amean," + ",".join(_c_float(means[n]) for n in names))
    return "\n".join(lines) + "\n"
