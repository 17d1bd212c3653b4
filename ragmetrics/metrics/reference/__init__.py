"""Per-query retrieval metrics, written to read like the article's formulas.

Every function takes ``retrieved`` (doc ids in rank order, best first) and ``relevant``
(the golden set: a set of ids, or a mapping id -> grade), and, where the metric has a
cut-off, ``k``. Options are keyword-only. The conventions they share (what counts as
relevant, duplicates, empty golden sets) are named in :mod:`ragmetrics.conventions`; the
defaults reproduce trec_eval. These are the readable definitions that the array kernels
of the metric table (:mod:`ragmetrics.metrics.registry`) are tested against, one module
per family of kernels:

- :mod:`.rank_measures`: a ranking cut at k, relevant or not (recall, precision, hit
  rate, RR and MRR, AP, R-precision, relative precision, Rprec_mult);
- :mod:`.dcg_measures`: DCG@k, its ideal, nDCG@k;
- :mod:`.graded_measures`: ERR, RBP and trec_eval's ndcg_rel, Rndcg, G and binG;
- :mod:`.judged_measures`: judged docs and unjudged ones (bpref, infAP, Judged@k, unj@k,
  the judged non-relevant docs retrieved, RBP's residual, relstring);
- :mod:`.interpolated_measures`: interpolated precision at recall x, the 11-point average;
- :mod:`.set_measures`: the ranking read as a set (trec_eval's counts and ``set_*``);
- :mod:`.judged_query`: what they all do first (:func:`~.judged_query.judge_query`).

Each function's References name the paper that defined the measure and, for trec_eval's
measures, the source file of trec_eval 10.0 that computes it (``m_recall.c``, ...: NIST's
https://github.com/usnistgov/trec_eval, commit f425365, the version the conformance
tests run against), with the description trec_eval gives of it.

Names, said out loud because the field uses them loosely:

- **Recall@k** is the *fraction* of the relevant docs found in the top k.
- **Hit rate@k** (trec_eval's ``success@k``, ir_measures' ``Success@k``) is 1 if *any*
  relevant doc is in the top k, else 0. Many RAG write-ups, the source article's opening
  summary among them, call this "recall"; it is not.
- **MRR** is the mean over queries of the **reciprocal rank** of one query.
"""

from __future__ import annotations

from .dcg_measures import dcg_at_k, ideal_dcg_at_k, ndcg_at_k
from .graded_measures import bing, err_at_k, g_measure, ndcg_rel, rbp, rndcg
from .interpolated_measures import eleven_point_average, iprec_at_recall
from .judged_measures import (
    bpref,
    infap,
    judged_at_k,
    num_nonrel_judged_ret,
    rbp_residual,
    relstring,
    unjudged_at_k,
)
from .rank_measures import (
    average_precision,
    hit_rate_at_k,
    mrr,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
    relative_precision_at_k,
    rprec_mult,
)
from .set_measures import (
    num_q,
    num_rel,
    num_rel_ret,
    num_ret,
    set_ap,
    set_f,
    set_precision,
    set_recall,
    set_relative_precision,
    utility,
)

__all__ = [
    "average_precision", "bing", "bpref", "dcg_at_k", "eleven_point_average", "err_at_k",
    "g_measure", "hit_rate_at_k", "ideal_dcg_at_k", "infap", "iprec_at_recall", "judged_at_k",
    "mrr", "ndcg_at_k", "ndcg_rel", "num_nonrel_judged_ret", "num_q", "num_rel",
    "num_rel_ret", "num_ret", "precision_at_k", "r_precision", "rbp", "rbp_residual",
    "recall_at_k", "reciprocal_rank", "relative_precision_at_k", "relstring", "rndcg",
    "rprec_mult", "set_ap", "set_f", "set_precision", "set_recall", "set_relative_precision",
    "unjudged_at_k", "utility",
]
