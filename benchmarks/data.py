"""Seeded synthetic runs and judgments for the benchmark, as pandas DataFrames.

``make_data("medium", seed=0)`` returns ``(run, qrels)``:

- ``run``: ``query_id`` (str), ``doc_id`` (str), ``score`` (float64), ``depth`` rows per
  query, in rank order (query by query, best score first) unless ``order="shuffled"``;
- ``qrels``: ``query_id``, ``doc_id``, ``relevance`` (int64).

What every preset promises (``describe`` measures it, the tests check it):

- string ids (``"q17"``, ``"d0040213"``) in the pandas dtype asked for: ``"object"``,
  ``"str"`` (pandas 3's default string dtype) or ``"arrow"`` (``pd.ArrowDtype(pa.string())``);
  or the ids as users make them (:data:`MADE_ID_DTYPES`): ``"made"``, one ``str`` object per
  row, as ``df["q"].map("q{}".format)`` makes them in a held-out harness (the objects of
  ``"object"`` are shared: one per distinct id); ``"int"``, the numbers alone (``17``,
  ``40213``) as int64; ``"category"``, pandas categoricals of the strings;
- about ``relevant_per_query`` (5) judged relevant docs per query, at least 1, grades 1-3
  when ``graded`` (else 1), plus a few judged non-relevant docs (grade 0) taken from the run;
- a fraction ``outside_fraction`` (20%) of the relevant docs is not retrieved at all;
- relevant docs score higher on average (by half a standard deviation per grade), so the
  metrics@10 are neither all 0 nor all 1;
- ``ties=True``: scores are rounded to multiples of ``tie_quantum`` (2**-10 by default,
  see :data:`TIE_QUANTUM`), so some docs tie, a few of them around rank 10 (where they
  change the metrics@10); ``ties=False``: every query's scores are distinct;
- every score is exact in float32, because pytrec_eval's trec_eval stores scores as 32-bit
  floats: both sides see the same ties;
- a fraction ``missing_queries`` (1%) of the judged queries has no row in the run.

Everything is drawn from ``numpy.random.default_rng(seed)``: the same arguments give the same
frames, bit for bit, on any machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["ID_DTYPES", "MADE_ID_DTYPES", "PRESETS", "Preset", "describe", "make_data",
           "with_id_dtype"]

ID_DTYPES = ("object", "str", "arrow")
#: Ids as users make them: one str object per row ("made"), ints, pandas categoricals.
MADE_ID_DTYPES = ("made", "int", "category")
# Scores rounded to multiples of 2**-10 (about three decimals): about 3% of the rows of the
# small preset and 24% of the medium one (1,000 docs a query) share a score with another
# doc of their query, and 1% of the queries have a tie across rank 10. 1/64 gives heavy
# ties (93% of the medium rows). A power of two keeps the rounded scores exact in float32.
TIE_QUANTUM = 2.0**-10


@dataclass(frozen=True)
class Preset:
    """A named size: ``n_queries`` judged queries, ``depth`` retrieved docs per query."""

    name: str
    n_queries: int
    depth: int

    @property
    def rows(self) -> int:
        return self.n_queries * self.depth

    def __str__(self) -> str:
        return f"{self.name} ({self.n_queries:,} queries x {self.depth:,} docs)"


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("tiny", 40, 30),
        Preset("small", 1_000, 100),
        Preset("medium", 10_000, 1_000),
        Preset("large", 100_000, 100),
    )
}


def _next_prime(n: int) -> int:
    def is_prime(m: int) -> bool:
        if m < 2:
            return False
        i = 2
        while i * i <= m:
            if m % i == 0:
                return False
            i += 1
        return True

    while not is_prime(n):
        n += 1
    return n


def make_data(
    size: str | Preset = "small",
    *,
    seed: int = 0,
    graded: bool = True,
    ties: bool = True,
    tie_quantum: float = TIE_QUANTUM,
    order: str = "ranked",
    id_dtype: str = "object",
    relevant_per_query: float = 5.0,
    nonrelevant_per_query: float = 3.0,
    outside_fraction: float = 0.2,
    missing_queries: float = 0.01,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(run, qrels)`` DataFrames for a preset name (or a :class:`Preset`).

    ``order`` is ``"ranked"`` (rows sorted by query, then score descending) or
    ``"shuffled"`` (the same rows in a random order). ``id_dtype`` is one of
    :data:`ID_DTYPES`. The other arguments are described in the module docstring.
    """
    preset = PRESETS[size] if isinstance(size, str) else size
    if order not in ("ranked", "shuffled"):
        raise ValueError(f"order must be 'ranked' or 'shuffled', got {order!r}")
    if id_dtype not in ID_DTYPES + MADE_ID_DTYPES:
        raise ValueError(f"id_dtype must be one of {ID_DTYPES + MADE_ID_DTYPES}, "
                         f"got {id_dtype!r}")
    if not (0 < tie_quantum <= 1 and math.frexp(tie_quantum)[0] == 0.5):
        raise ValueError(f"tie_quantum must be a power of two such as 2**-10, got {tie_quantum!r}")
    n_q, depth = preset.n_queries, preset.depth
    rng = np.random.default_rng(seed)

    # How many judged docs each query has, and of which kind.
    n_rel = np.minimum(1 + rng.poisson(relevant_per_query - 1, n_q), 64)
    n_out = rng.binomial(n_rel, outside_fraction)  # relevant, never retrieved
    n_in = np.minimum(n_rel - n_out, depth)  # relevant and retrieved
    n_out = n_rel - n_in
    n_nonrel = np.minimum(rng.poisson(nonrelevant_per_query, n_q), depth - n_in)

    # Doc codes: query q's p-th doc is (start + stride * p) mod a prime, so the docs of one
    # query are distinct (p < prime) while docs are shared between queries.
    prime = _next_prime(min(max(n_q * depth // 10, 10 * (depth + 64), 1_009), 9_999_900))
    start = rng.integers(0, prime, n_q)
    stride = rng.integers(1, prime, n_q)

    # Run rows as a (query, position) grid: positions [0, n_in) are the retrieved relevant
    # docs, [n_in, n_in + n_nonrel) the judged non-relevant ones, the rest unjudged.
    pos = np.arange(depth)
    codes = (start[:, None] + stride[:, None] * pos[None, :]) % prime
    is_rel = pos[None, :] < n_in[:, None]
    is_nonrel = ~is_rel & (pos[None, :] < (n_in + n_nonrel)[:, None])
    grade_draw = rng.choice([1, 2, 3], p=[0.5, 0.3, 0.2], size=(n_q, depth + 64))
    grades = grade_draw if graded else np.ones_like(grade_draw)
    run_grade = np.where(is_rel, grades[:, :depth], 0)

    raw = rng.standard_normal((n_q, depth)) + np.where(is_rel, 0.5 + 0.5 * run_grade, 0.0)
    raw += np.where(is_nonrel, 0.25, 0.0)  # judged non-relevant: near misses
    ranked = np.argsort(-raw, axis=1, kind="stable")
    raw = np.take_along_axis(raw, ranked, axis=1)
    codes = np.take_along_axis(codes, ranked, axis=1)
    if ties:
        scores = (np.round(raw / tie_quantum) * tie_quantum).astype(np.float32)
    else:
        scores = _strictly_decreasing(raw.astype(np.float32))

    # Qrels: retrieved relevant, retrieved non-relevant, relevant never retrieved (their
    # positions depth.. continue the same code sequence, so they are not in the run).
    q_idx = np.repeat(np.arange(n_q), depth).reshape(n_q, depth)
    rel_q, rel_pos = np.nonzero(is_rel | is_nonrel)
    out_mask = np.arange(64)[None, :] < n_out[:, None]
    out_q, out_j = np.nonzero(out_mask)
    qrels_q = np.concatenate([rel_q, out_q])
    qrels_code = np.concatenate(
        [
            (start[rel_q] + stride[rel_q] * rel_pos) % prime,
            (start[out_q] + stride[out_q] * (depth + out_j)) % prime,
        ]
    )
    qrels_rel = np.concatenate(
        [np.where(is_rel[rel_q, rel_pos], grades[rel_q, rel_pos], 0), grades[out_q, depth + out_j]]
    )
    by_query = np.argsort(qrels_q, kind="stable")
    qrels_q, qrels_code, qrels_rel = qrels_q[by_query], qrels_code[by_query], qrels_rel[by_query]

    # Judged queries left out of the run.
    n_missing = round(missing_queries * n_q)
    keep = np.ones(n_q, bool)
    keep[rng.choice(n_q, n_missing, replace=False)] = False
    run_q = q_idx[keep].ravel()
    run_code = codes[keep].ravel()
    run_score = scores[keep].ravel().astype(np.float64)

    if order == "shuffled":
        perm = np.random.default_rng([seed, 1]).permutation(len(run_q))
        run_q, run_code, run_score = run_q[perm], run_code[perm], run_score[perm]

    query_names = np.array([f"q{i}" for i in range(n_q)], dtype=object)
    # Fixed width ("d0004217"): ranx compiles its numba code once per doc id length.
    doc_names = np.array([f"d{c:07d}" for c in range(prime)], dtype=object)  # code -> id
    run = pd.DataFrame(
        {
            "query_id": pd.Series(query_names[run_q], dtype=object),
            "doc_id": pd.Series(doc_names[run_code], dtype=object),
            "score": run_score,
        }
    )
    qrels = pd.DataFrame(
        {
            "query_id": pd.Series(query_names[qrels_q], dtype=object),
            "doc_id": pd.Series(doc_names[qrels_code], dtype=object),
            "relevance": qrels_rel.astype(np.int64),
        }
    )
    return with_id_dtype(run, id_dtype), with_id_dtype(qrels, id_dtype)


def _strictly_decreasing(scores: np.ndarray) -> np.ndarray:
    """Rows sorted descending, nudged down one float32 ulp at a time until no two are equal."""
    scores = scores.copy()
    while True:
        tied = scores[:, 1:] >= scores[:, :-1]
        if not tied.any():
            return scores
        scores[:, 1:] = np.where(tied, np.nextafter(scores[:, :-1], np.float32(-np.inf)),
                                 scores[:, 1:])


#: How each id column's text is made from its number ("q17", "d0040213").
_ID_FORMATS = {"query_id": "q{}".format, "doc_id": "d{:07d}".format}


def with_id_dtype(frame: pd.DataFrame, id_dtype: str) -> pd.DataFrame:
    """The frame with ``query_id`` and ``doc_id`` in the dtype named (see :data:`ID_DTYPES`
    and :data:`MADE_ID_DTYPES`).

    ``"made"`` makes every row's id anew from its number, as a harness does with
    ``df["q"].map("q{}".format)``: a ``str`` object per row, laid out in row order;
    ``"int"`` keeps the numbers; ``"category"`` is ``astype("category")``.
    """
    if id_dtype in MADE_ID_DTYPES:
        columns = {}
        for column, made in _ID_FORMATS.items():
            ids = frame[column]
            if id_dtype == "category":
                columns[column] = pd.Categorical(ids.astype(object))
                continue
            codes, names = pd.factorize(ids)  # the numbers, read once per distinct id
            numbers = np.array([int(name[1:]) for name in np.asarray(names, dtype=object)],
                               dtype=np.int64)[codes]
            columns[column] = (numbers if id_dtype == "int" else pd.Series(
                pd.Series(numbers).map(made).to_numpy(dtype=object), dtype=object,
                index=frame.index))
        return frame.assign(**columns)
    if id_dtype == "object":
        dtype = object
    elif id_dtype == "str":
        dtype = "str"  # pandas 3's default string dtype (pyarrow storage when installed)
    elif id_dtype == "arrow":
        import pyarrow as pa  # only this variant needs it

        dtype = pd.ArrowDtype(pa.string())
    else:
        raise ValueError(f"id_dtype must be one of {ID_DTYPES + MADE_ID_DTYPES}, "
                         f"got {id_dtype!r}")
    return frame.astype({"query_id": dtype, "doc_id": dtype})


def describe(run: pd.DataFrame, qrels: pd.DataFrame, k: int = 10) -> dict:
    """The promised properties, measured: used by the tests and printed by ``run.py``."""
    judged = qrels.astype({"query_id": object, "doc_id": object})
    ranked = run.astype({"query_id": object, "doc_id": object})
    relevant = judged[judged["relevance"] > 0]
    per_query = relevant.groupby("query_id").size()
    retrieved = relevant.merge(ranked[["query_id", "doc_id"]], how="left", indicator=True)
    # Ties that matter at the cut-off: the k-th and (k+1)-th scores are equal.
    top = ranked.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
    nth = top.groupby("query_id")["score"].nth([k - 1, k])
    pairs = nth.groupby(top.loc[nth.index, "query_id"]).agg(["first", "last", "size"])
    tie_at_k = (pairs["size"] == 2) & (pairs["first"] == pairs["last"])
    dup_scores = ranked.duplicated(["query_id", "score"]).groupby(ranked["query_id"]).any()
    return {
        "run_rows": len(run),
        "qrels_rows": len(qrels),
        "judged_queries": judged["query_id"].nunique(),
        "run_queries": ranked["query_id"].nunique(),
        "missing_from_run": len(set(judged["query_id"]) - set(ranked["query_id"])),
        "relevant_per_query": float(per_query.mean()),
        "min_relevant_per_query": int(per_query.min()),
        "relevant_outside_run": float((retrieved["_merge"] == "left_only").mean()),
        "queries_with_tied_scores": float(dup_scores.mean()),
        f"queries_with_tie_at_{k}": float(tie_at_k.mean()),
        "grades": sorted(judged["relevance"].unique().tolist()),
        "id_dtypes": (str(run["query_id"].dtype), str(run["doc_id"].dtype)),
    }
