"""Span metrics against a plain reference built from Python sets of character positions.

The reference below shares no code with ragmetrics.spans: a chunk, a span, the retrieved
text and the evidence are sets of ``(doc, position)`` pairs, and every formula is the
one written in the docstrings (union) or in Chroma's ``base_evaluation.py`` (sum),
computed with set operations. In tokens, a set of characters stands for the set of
token indices whose token starts on one of them (the definition in
:mod:`ragmetrics.spans.tokens`). Hypothesis draws random documents, overlapping chunks,
graded evidence in several documents, runs, cut-offs and budgets; the library's
interval arithmetic must give the same numbers (exactly: both divide the same whole
counts), every bounded metric must lie in [0, 1] exactly, and the properties the issue
lists must hold.
"""

from __future__ import annotations

import itertools
import re
import warnings

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ragmetrics.errors import BudgetWarning, CoverageWarning
from ragmetrics.spans import (
    SPAN_METRICS,
    chunk_qrels,
    evaluate_spans,
    span_metrics,
    word_pieces,
)

PROPERTY = settings(max_examples=150, deadline=None)


def close(value):
    return pytest.approx(value, rel=1e-9, abs=1e-12)


# --- the reference ----------------------------------------------------------------------


def positions(doc, start, end):
    return {(doc, p) for p in range(start, end)}


def ratio(num, den):
    return num / den if den else 0.0


def ref_span_metrics(chunks, evidence, run, queries, *, k=None, budget=None, overlap="union",
                     size=len):
    """{query: {metric: value}}; ``size(points)`` measures a set of positions (default:
    how many characters; for tokens, how many token indices start on them)."""
    by_id = {c: (d, s, e) for c, d, s, e in chunks}

    out = {}
    for q in queries:
        spans = [(d, s, e) for qq, d, s, e, g in evidence if qq == q and g >= 1]
        evid = set().union(*(positions(*span) for span in spans)) if spans else set()
        taken = run.get(q, [])
        if k is not None:
            taken = taken[:k]
        if budget is not None:
            kept, filled = [], 0
            for c in taken:
                filled += size(positions(*by_id[c]))
                if filled > budget:  # whole numbers: no tolerance needed
                    break
                kept.append(c)
            taken = kept
        retrieved = set().union(*(positions(*by_id[c]) for c in taken)) if taken else set()
        hit = size(retrieved & evid)
        if overlap == "union":
            values = {"recall": ratio(hit, size(evid)),
                      "precision": ratio(hit, size(retrieved)),
                      "iou": ratio(hit, size(retrieved | evid))}
        else:
            sum_c = sum(size(positions(*by_id[c])) for c in taken)
            sum_e = sum(size(positions(*span)) for span in spans)
            missed = sum(size(positions(*span) - retrieved) for span in spans)
            values = {"recall": ratio(hit, sum_e), "precision": ratio(hit, sum_c),
                      "iou": ratio(hit, sum_c + missed)}
        holding = set()
        for _c, d, s, e in chunks:
            for sd, ss, se in spans:
                touches = (s <= se and ss <= e) if overlap == "sum" else (s < se and ss < e)
                if d == sd and touches:
                    holding |= positions(d, s, e)
        values["precision_omega"] = ratio(size(holding & evid), size(holding | evid))
        if not spans:
            values = dict.fromkeys(values, 0.0)
        out[q] = values
    return out


def token_places(text, tokenizer):
    """The character each token of ``text`` starts on, token by token (the definition of
    ragmetrics.spans.tokens, written out: a token's text found in its word, left to right,
    or else the word's ``n`` tokens on characters ``floor(j * L / n)``)."""
    places = []
    for word in re.finditer(r"\S+", text):
        tokens, at, found = list(tokenizer(word.group())), 0, []
        for token in tokens:
            where = word.group().find(token, at) if isinstance(token, str) and token else -1
            if where < 0:
                found = [j * len(word.group()) // len(tokens) for j in range(len(tokens))]
                break
            found.append(where)
            at = where + len(token)
        places += [word.start() + offset for offset in found]
    return places


def token_size(documents, tokenizer):
    """``size`` for the reference: how many token indices start on a set of positions."""
    starts = {d: token_places(text, tokenizer) for d, text in documents.items()}

    def size(points):
        return len({(d, i) for d, places in starts.items() for i, p in enumerate(places)
                    if (d, p) in points})
    return size


def ref_chunk_qrels(chunks, evidence, rule, threshold):
    out = {}
    for c, d, s, e in chunks:
        chunk = positions(d, s, e)
        for q, sd, ss, se, g in evidence:
            span = positions(sd, ss, se)
            shared = len(chunk & span)
            if not shared:
                continue
            qualifies = {"any_overlap": shared >= 1,
                         "min_chars": threshold is not None and shared >= threshold,
                         "chunk_coverage": threshold is not None
                         and shared / len(chunk) >= threshold,
                         "evidence_coverage": threshold is not None
                         and shared / len(span) >= threshold}[rule]
            best = out.get((q, c))
            if qualifies:
                out[(q, c)] = g if best is None or best == "none" else max(best, g)
            elif best is None:
                out[(q, c)] = "none"
    return {key: (0 if g == "none" else g) for key, g in out.items()}


# --- strategies -------------------------------------------------------------------------


@st.composite
def cases(draw, max_docs=3, max_len=40):
    lengths = draw(st.lists(st.integers(1, max_len), min_size=1, max_size=max_docs))
    docs = [f"d{i}" for i in range(len(lengths))]

    def interval(doc_index):
        n = lengths[doc_index]
        start = draw(st.integers(0, n - 1))
        end = draw(st.integers(start + 1, n))
        return docs[doc_index], start, end

    n_chunks = draw(st.integers(1, 8))
    chunks = [(f"c{i}", *interval(draw(st.integers(0, len(docs) - 1))))
              for i in range(n_chunks)]
    queries = [f"q{i}" for i in range(draw(st.integers(1, 3)))]
    evidence = []
    for q in queries:
        for _ in range(draw(st.integers(0, 3))):
            evidence.append((q, *interval(draw(st.integers(0, len(docs) - 1))),
                             draw(st.sampled_from([0, 1, 1, 2]))))
    ids = [c[0] for c in chunks]
    run = {}
    for q in queries:
        if draw(st.booleans()) or not run:
            run[q] = draw(st.permutations(ids))[: draw(st.integers(0, len(ids)))]
    k = draw(st.one_of(st.none(), st.integers(1, 5)))
    budget = draw(st.one_of(st.none(), st.integers(1, 60)))
    return {"lengths": dict(zip(docs, lengths, strict=True)), "chunks": chunks,
            "evidence": evidence, "queries": queries, "run": run, "k": k, "budget": budget}


def frames(case):
    chunks = [{"chunk_id": c, "doc_id": d, "start": s, "end": e} for c, d, s, e in case["chunks"]]
    evidence = {q: [(d, s, e, g) for qq, d, s, e, g in case["evidence"] if qq == q]
                for q in case["queries"]}
    documents = {d: "x" * n for d, n in case["lengths"].items()}
    return chunks, evidence, documents


def library(case, **options):
    chunks, evidence, documents = frames(case)
    run = {q: list(r) for q, r in case["run"].items()}
    return span_metrics(run, chunks, evidence, case["k"], budget=case["budget"],
                        documents=documents, **options)


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)  # queries missing from random runs
        warnings.simplefilter("ignore", BudgetWarning)  # budgets below a first chunk: tested
        # on their own (test_the_budget_warning_counts_the_queries_that_get_nothing)
        return function(*args, **kwargs)


# --- differential -----------------------------------------------------------------------


@pytest.mark.slow
@PROPERTY
@given(cases(), st.sampled_from(["union", "sum"]))
def test_equals_the_set_reference(case, overlap):
    got = quiet(library, case, overlap=overlap)
    want = ref_span_metrics(case["chunks"], case["evidence"], case["run"], case["queries"],
                            k=case["k"], budget=case["budget"], overlap=overlap)
    for q in case["queries"]:
        for metric, value in want[q].items():
            assert got.loc[q, metric] == close(value), (q, metric)


def ref_tie_orders(case, scores, ties):
    """``{query: [(weight, ranked chunk ids)]}``: the rankings a tie rule gives, by the
    words of ragmetrics.conventions' TIE_POLICIES; under "average" every order of the
    tied chunks (itertools), each as likely."""
    grade = {}  # (query, chunk): the best grade of the evidence it shares a character with
    for c, d, s, e in case["chunks"]:
        for q, sd, ss, se, g in case["evidence"]:
            if g >= 1 and positions(d, s, e) & positions(sd, ss, se):
                grade[(q, c)] = max(grade.get((q, c), 0), g)
    return {q: _ref_ranked(q, scored, grade, ties) for q, scored in scores.items()}


def _ref_ranked(q, scored, grade, ties):
    """One query's rankings under a tie rule: ``[(weight, ranked chunk ids)]``."""
    given = list(scored)  # the order the chunks were given in
    key = {"trec_eval": lambda c: (-scored[c], [-ord(x) for x in c]),
           "doc_id_ascending": lambda c: (-scored[c], c),
           "optimistic": lambda c: (-scored[c], -grade.get((q, c), 0), given.index(c)),
           "pessimistic": lambda c: (-scored[c], grade.get((q, c), 0), given.index(c)),
           }.get(ties, lambda c: (-scored[c], given.index(c)))
    ranked = sorted(given, key=key)
    if ties != "average":
        return [(1.0, ranked)]
    groups = [list(g) for _, g in itertools.groupby(ranked, key=lambda c: scored[c])]
    orders = [list(itertools.chain.from_iterable(choice)) for choice in itertools.product(
        *(list(itertools.permutations(g)) for g in groups))]
    return [(1 / len(orders), order) for order in orders]


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(cases(), st.data(), st.sampled_from(["trec_eval", "input_order", "doc_id_ascending",
                                            "optimistic", "pessimistic", "average"]),
       st.sampled_from(["union", "sum"]))
def test_every_tie_rule_equals_the_reference(case, data, ties, overlap):
    # Issue 24, item 2: scores drawn from three values, so that chunks tie often; every
    # tie rule of evaluate orders them, and "average" is the mean over every order.
    scores = {q: {c: data.draw(st.sampled_from([0.5, 1.0, 2.0])) for c in r[:5]}
              for q, r in case["run"].items()}
    got = quiet(span_metrics, scores, frames(case)[0], frames(case)[1], case["k"],
                budget=case["budget"], overlap=overlap, ties=ties)
    for q, rankings in ref_tie_orders(case, scores, ties).items():
        if q not in case["queries"]:
            continue
        want = {}
        for weight, ranking in rankings:
            one = ref_span_metrics(case["chunks"], case["evidence"], {q: ranking}, [q],
                                   k=case["k"], budget=case["budget"], overlap=overlap)[q]
            for metric, value in one.items():
                want[metric] = want.get(metric, 0.0) + weight * value
        for metric, value in want.items():
            assert got.loc[q, metric] == close(value), (q, metric)


#: Tokenizers whose tokens are pieces of the word (located in it) and others (spread).
TOKENIZERS = {
    "word_pieces": None,  # ragmetrics' default
    "characters": list,
    "ids": lambda word: list(range(len(word) // 3 + 1)),  # as tiktoken's encode: not text
    "more_than_characters": lambda word: [0] * (2 * len(word) + 1),  # several per character
    "lowercased": lambda word: [word.lower()],  # text, but not the word's: spread
}
#: Words of letters (long runs cut into pieces of 8), digits (pieces of 3), punctuation.
TEXT = st.sampled_from(list("aaaaabbcdeXY        12345.,;-"))


@st.composite
def token_cases(draw):
    case = draw(cases())
    texts = {d: "".join(draw(st.lists(TEXT, min_size=n, max_size=n)))
             for d, n in case["lengths"].items()}
    budget = case["budget"]
    return dict(case, texts=texts, budget=None if budget is None else budget // 4 + 1)


@pytest.mark.slow
@PROPERTY
@given(token_cases(), st.sampled_from(["union", "sum"]), st.sampled_from(sorted(TOKENIZERS)),
       st.sampled_from(["char", "token"]))
def test_every_span_metric_is_the_set_ratio_and_within_bounds_exactly(case, overlap, name,
                                                                     unit):
    # Issue 23, items 3 and the Done-when: recall in tokens was 1.0000000000120628 on real
    # data. Every value must equal the set-based ratio exactly (both divide the same
    # whole counts) and lie in [0, 1] with no tolerance, in characters and in tokens.
    chunks, evidence, _ = frames(case)
    tokenizer = TOKENIZERS[name]
    options = {"unit": unit, "tokenizer": tokenizer} if unit == "token" else {}
    got = quiet(span_metrics, {q: list(r) for q, r in case["run"].items()}, chunks, evidence,
                case["k"], budget=case["budget"], documents=case["texts"], overlap=overlap,
                **options)
    size = token_size(case["texts"], tokenizer or word_pieces) if unit == "token" else len
    want = ref_span_metrics(case["chunks"], case["evidence"], case["run"], case["queries"],
                            k=case["k"], budget=case["budget"], overlap=overlap, size=size)
    assert list(got.columns) == list(SPAN_METRICS)  # every span metric is tested
    for q in case["queries"]:
        for metric, value in want[q].items():
            assert got.loc[q, metric] == value, (q, metric)
    values = got.to_numpy()
    assert ((values >= 0.0) & (values <= 1.0)).all()
    by_name = quiet(evaluate_spans, {q: list(r) for q, r in case["run"].items()}, chunks,
                    evidence, [f"span_{m}" for m in SPAN_METRICS], documents=case["texts"],
                    overlap=overlap, **options)
    assert ((by_name.to_numpy() >= 0.0) & (by_name.to_numpy() <= 1.0)).all()


@pytest.mark.slow
@PROPERTY
@given(token_cases(), st.sampled_from(["char", "token"]))
def test_the_budget_warning_counts_the_queries_that_get_nothing(case, unit):
    assume(case["budget"] is not None)
    chunks, evidence, _ = frames(case)
    size = token_size(case["texts"], word_pieces) if unit == "token" else len
    by_id = {c: positions(d, s, e) for c, d, s, e in case["chunks"]}
    with_evidence = {q for q, *_, g in case["evidence"] if g >= 1}
    considered = [q for q in case["queries"] if q in with_evidence and case["run"].get(q)]
    first = {q: size(by_id[case["run"][q][0]]) for q in considered}
    over = [q for q in considered if first[q] > case["budget"]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        span_metrics({q: list(r) for q, r in case["run"].items()}, chunks, evidence,
                     budget=case["budget"], documents=case["texts"], unit=unit)
    said = [str(w.message) for w in caught if w.category is BudgetWarning]
    if not over:
        assert said == []
        return
    units = "characters" if unit == "char" else "tokens"
    assert len(said) == 1
    assert said[0].startswith(f"no chunk fits in the budget of {case['budget']} {units} for "
                              f"{len(over)} of {len(considered)} ")
    assert f"{min(first[q] for q in over)} {units})" in said[0]


@pytest.mark.slow
@PROPERTY
@given(cases(), st.sampled_from(["any_overlap", "min_chars", "chunk_coverage",
                                 "evidence_coverage"]), st.integers(1, 20), st.floats(0.01, 1))
def test_chunk_qrels_equal_the_set_reference(case, rule, chars, share):
    chunks, evidence, _ = frames(case)
    threshold = None if rule == "any_overlap" else chars if rule == "min_chars" else share
    got = chunk_qrels(chunks, evidence, rule=rule, threshold=threshold)
    want = ref_chunk_qrels(case["chunks"], case["evidence"], rule, threshold)
    assert {(q, c): g for q, c, g in got.itertuples(index=False)} == want


# --- properties -------------------------------------------------------------------------


@pytest.mark.slow
@PROPERTY
@given(cases())
def test_iou_is_at_most_precision_and_recall(case):
    got = quiet(library, case)
    assert (got["iou"] >= 0).all()
    assert (got["iou"] <= got[["precision", "recall"]].min(axis=1) + 1e-12).all()


@pytest.mark.slow
@PROPERTY
@given(cases())
def test_sum_iou_is_at_most_precision_and_recall_for_disjoint_evidence(case):
    spans = {}
    for q, d, s, e, g in case["evidence"]:
        if g >= 1:
            spans.setdefault(q, []).append(positions(d, s, e))
    for sets in spans.values():
        assume(sum(map(len, sets)) == len(set().union(*sets)))  # no evidence overlaps
    got = quiet(library, case, overlap="sum")
    assert (got["iou"] <= got[["precision", "recall"]].min(axis=1) + 1e-12).all()


@pytest.mark.slow
@PROPERTY
@given(cases())
def test_union_precision_is_at_least_sum_precision(case):
    union = quiet(library, case)
    summed = quiet(library, case, overlap="sum")
    assert (union["precision"] >= summed["precision"] - 1e-12).all()
    assert (union["iou"] >= summed["iou"] - 1e-12).all()


@pytest.mark.slow
@PROPERTY
@given(st.lists(st.integers(1, 30), min_size=1, max_size=6), st.data())
def test_chunks_equal_to_the_evidence_score_one(gaps, data):
    # Disjoint evidence spans in one document, and one chunk exactly on each.
    cuts, at = [], 0
    for gap in gaps:
        length = data.draw(st.integers(1, 20))
        cuts.append((at + gap, at + gap + length))
        at += gap + length
    chunks = [{"chunk_id": f"c{i}", "doc_id": "d", "start": s, "end": e}
              for i, (s, e) in enumerate(cuts)]
    evidence = {"q": [("d", s, e) for s, e in cuts]}
    run = {"q": data.draw(st.permutations([c["chunk_id"] for c in chunks]))}
    for overlap in ("union", "sum"):
        got = span_metrics(run, chunks, evidence, overlap=overlap).loc["q"]
        assert got.tolist() == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.slow
@PROPERTY
@given(cases(), st.data())
def test_splitting_a_retrieved_chunk_leaves_recall_unchanged(case, data):
    lengths = {c: e - s for c, _, s, e in case["chunks"]}
    candidates = [(q, i) for q, r in case["run"].items() for i, c in enumerate(r)
                  if lengths[c] >= 2]
    assume(candidates)
    q, i = data.draw(st.sampled_from(candidates))
    target = case["run"][q][i]
    cid, d, s, e = next(x for x in case["chunks"] if x[0] == target)
    m = data.draw(st.integers(s + 1, e - 1))
    split = dict(case, k=None, budget=None,
                 chunks=[x for x in case["chunks"] if x[0] != target]
                 + [(cid + "_left", d, s, m), (cid + "_right", d, m, e)],
                 run={qq: [part for c in r for part in
                           ((cid + "_left", cid + "_right") if c == target else (c,))]
                      for qq, r in case["run"].items()})
    before = quiet(library, dict(case, k=None, budget=None))
    after = quiet(library, split)
    assert after.loc[q, "recall"] == close(before.loc[q, "recall"])
    # Counting characters once, precision and IoU do not change either.
    assert after.loc[q, "precision"] == close(before.loc[q, "precision"])
    assert after.loc[q, "iou"] == close(before.loc[q, "iou"])


# --- Chroma's published definitions -------------------------------------------------------


def test_reproduces_chromas_numbers_with_overlap_sum():
    """A case worked with the formulas of Chroma's ``_scores_from_dataset_and_retrievals``
    and ``_full_precision_score`` (``brandonstarxel/chunking_evaluation`` at d451fc4,
    ``chunking_evaluation/evaluation_framework/base_evaluation.py``).

    One 100-character corpus, chunks of 30 with an overlap of 10 (the last one 20);
    two evidence spans; the retriever returns 3 chunks, the middle one from another
    corpus::

        c1 [0, 30)  c2 [20, 50)  c3 [40, 70)  c4 [60, 90)  c5 [80, 100)
        evidence    [25, 45)  [90, 95)          retrieved: c2, other [0, 40) of d2, c1

    numerator: union of (retrieved chunk n reference) = [25, 45) = 20 characters.
    recall = 20 / (20 + 5) = 0.8.
    precision = 20 / (30 + 40 + 30): every retrieved chunk's length, the other corpus's
    too (Chroma sums them all) = 0.2.
    IoU = 20 / (100 + unused highlights) where [90, 95) is unused: 20 / 105.
    Precision Omega: the chunks whose closed intersection with a reference exists are
    c1, c2, c3, c5 and c4, which ends at 90 where [90, 95) begins; their union is
    [0, 100): 25 / 100 = 0.25. Counting shared characters only, c4 does not hold
    evidence and the union is [0, 70) u [80, 100): 25 / 90.
    """
    chunks = [{"chunk_id": f"c{i + 1}", "doc_id": "d1", "start": s, "end": e}
              for i, (s, e) in enumerate([(0, 30), (20, 50), (40, 70), (60, 90), (80, 100)])]
    chunks.append({"chunk_id": "other", "doc_id": "d2", "start": 0, "end": 40})
    evidence = {"q": [("d1", 25, 45), ("d1", 90, 95)]}
    run = {"q": ["c2", "other", "c1", "c3"]}
    documents = {"d1": "a" * 100, "d2": "b" * 40}
    chroma = span_metrics(run, chunks, evidence, k=3, overlap="sum",
                          documents=documents).loc["q"]
    assert chroma["recall"] == close(0.8)
    assert chroma["precision"] == close(0.2)
    assert chroma["iou"] == close(20 / 105)
    assert chroma["precision_omega"] == close(0.25)
    ours = span_metrics(run, chunks, evidence, k=3, documents=documents).loc["q"]
    # R = [0, 50) of d1 and [0, 40) of d2: 90 distinct characters.
    assert ours["precision"] == close(20 / 90)
    assert ours["iou"] == close(20 / (90 + 25 - 20))
    assert ours["precision_omega"] == close(25 / 90)


def test_chroma_double_counts_overlapping_evidence():
    # Two annotators mark [10, 20) and [15, 25): Chroma's recall divides by 10 + 10.
    chunks = [{"chunk_id": "c", "doc_id": "d", "start": 0, "end": 30}]
    evidence = {"q": [("d", 10, 20), ("d", 15, 25)]}
    summed = span_metrics({"q": ["c"]}, chunks, evidence, overlap="sum").loc["q"]
    union = span_metrics({"q": ["c"]}, chunks, evidence).loc["q"]
    assert summed["recall"] == close(15 / 20)
    assert union["recall"] == 1.0
