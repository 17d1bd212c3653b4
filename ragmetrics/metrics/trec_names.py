"""trec_eval's measure names, as its ``-m`` option takes them and as it prints them.

trec_eval names a family of measures and its parameters in one word: ``P.5,10`` is
Precision at 5 and at 10 (printed ``P_5`` and ``P_10``); ``ndcg_cut.10,20,23.4`` is
nDCG at 10, 20 and 23 (a cut-off is read as C's ``atol`` reads it, so 23.4 is 23);
``ndcg.1=3,2=9,4=4.5`` is nDCG with a gain map (printed ``ndcg_1=3,2=9,4=4.5``);
``Rprec_mult.0.2`` is precision at 0.2 R (printed ``Rprec_mult_0.20``); ``utility.2,-1,0,0``
is utility with those four coefficients. A family without parameters takes trec_eval's
defaults (``P``: 5, 10, 15, 20, 30, 100, 200, 500, 1000). Nicknames name several:
``official``, ``all_trec`` (every measure below but dcg and ideal_dcg) and ``set``.

:data:`FAMILIES` lists them in the order trec_eval prints them, each with the metric of
:data:`ragmetrics.METRICS` it is. :func:`measure_specs` turns a ``-m`` argument into
:class:`~ragmetrics.metrics.registry.MetricSpec` objects and the names trec_eval prints;
:func:`spec_of_printed_name` reads a printed name back (``parse_metric("P_5")``).

Examples
--------
>>> [(name, str(spec)) for name, spec in measure_specs("P.5,10")]
[('P_5', 'precision@5'), ('P_10', 'precision@10')]
>>> [(name, str(spec)) for name, spec in measure_specs("ndcg_cut.23.4")]
[('ndcg_cut_23', 'ndcg@23')]
>>> [(name, str(spec)) for name, spec in measure_specs("ndcg.1=3,2=9,4=4.5")]
[('ndcg_1=3,2=9,4=4.5', 'ndcg(1=3,2=9,4=4.5)')]
>>> [(name, str(spec)) for name, spec in measure_specs("iprec_at_recall..10,.20")]
[('iprec_at_recall_0.10', 'iprec_at_recall@0.1'), ('iprec_at_recall_0.20', 'iprec_at_recall@0.2')]

A measure without parameters ignores those it is given, as trec_eval does:

>>> [(name, str(spec)) for name, spec in measure_specs("map.5")]
[('map', 'ap')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputValueError
from ..validation import MAX_COUNT, decimal_number
from .registry import MetricSpec, add_name_reader

__all__ = ["FAMILIES", "NICKNAMES", "Family", "family", "measure_specs", "spec_of_printed_name"]


@dataclass(frozen=True)
class Family:
    """One trec_eval measure: its name, the ragmetrics metric, how it takes parameters.

    ``style`` is ``"plain"`` (no parameters), ``"ranks"`` (cut-offs, read as C's atol,
    one value printed per cut-off), ``"levels"`` (fractions, one value per level, named
    ``%3.2f``), ``"numbers"`` (numbers for one value) or ``"pairs"`` (``name=value``
    pairs for one value: a gain map, RBP's p). ``per_query``/``summary``: printed per
    query / in the ``all`` lines; ``integer``: printed as a whole number.
    """

    root: str
    metric: str
    style: str = "plain"
    defaults: tuple = ()
    per_query: bool = True
    summary: bool = True
    integer: bool = False


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_ELEVEN = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

#: trec_eval's measures (those of its standard qrels and results files), in the order it
#: prints them.
FAMILIES: tuple[Family, ...] = (
    Family("runid", "runid", per_query=False),
    Family("num_q", "num_q", per_query=False, integer=True),
    Family("num_ret", "num_ret", integer=True),
    Family("num_rel", "num_rel", integer=True),
    Family("num_rel_ret", "num_rel_ret", integer=True),
    Family("map", "ap"),
    Family("gm_map", "gm_map", per_query=False),
    Family("Rprec", "r_precision"),
    Family("bpref", "bpref"),
    Family("recip_rank", "rr"),
    Family("iprec_at_recall", "iprec_at_recall", "levels", _ELEVEN),
    Family("P", "precision", "ranks", _CUTS),
    Family("relstring", "relstring", "numbers", summary=False),
    Family("recall", "recall", "ranks", _CUTS),
    Family("infAP", "infap"),
    Family("gm_bpref", "gm_bpref", per_query=False),
    Family("Rprec_mult", "rprec_mult", "levels", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6,
                                                  1.8, 2.0)),
    Family("utility", "utility", "numbers"),
    Family("11pt_avg", "11pt_avg", "numbers"),
    Family("binG", "bing"),
    Family("G", "g", "pairs"),
    Family("dcg", "dcg", "pairs"),
    Family("ideal_dcg", "idcg", "pairs"),
    Family("ndcg", "ndcg", "pairs"),
    Family("ndcg_rel", "ndcg_rel", "pairs"),
    Family("Rndcg", "rndcg", "pairs"),
    Family("ndcg_cut", "ndcg", "ranks", _CUTS),
    Family("map_cut", "ap", "ranks", _CUTS),
    Family("relative_P", "relative_precision", "ranks", _CUTS),
    Family("success", "hit_rate", "ranks", (1, 5, 10)),
    Family("set_P", "set_precision"),
    Family("set_relative_P", "set_relative_precision"),
    Family("set_recall", "set_recall"),
    Family("set_map", "set_ap"),
    Family("set_F", "set_f", "numbers"),
    Family("num_nonrel_judged_ret", "num_nonrel_judged_ret", integer=True),
    Family("rbp", "rbp", "pairs"),
    Family("rbp_resid", "rbp_resid", "pairs"),
    Family("unj", "unj", "ranks", (5, 10, 20)),
)

_BY_ROOT = {f.root: f for f in FAMILIES}

#: trec_eval's nicknames for sets of measures (those of the standard formats).
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"),
    "all_trec": tuple(f.root for f in FAMILIES if f.root not in ("dcg", "ideal_dcg")),
}

# Measures of trec_eval's other input formats (preference and judgment-group qrels).
_OTHER_FORMATS = ("prefs_", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
                  "all_prefs", "prefs", "qrels_jg")


def family(root: str) -> Family:
    """The family named ``root``; an error naming trec_eval's measures otherwise."""
    try:
        return _BY_ROOT[root]
    except KeyError:
        pass
    if root.startswith(_OTHER_FORMATS):
        raise InputValueError(
            f"trec_eval measure {root!r} reads preference or judgment-group qrels (-R "
            "prefs, qrels_jg), which ragmetrics does not read")
    raise InputValueError(
        f"unknown trec_eval measure {root!r}; the measures are "
        + ", ".join(f.root for f in FAMILIES) + ", and the nicknames "
        + ", ".join(NICKNAMES))


def measure_specs(text: str, *, params: str | None = None, num_docs: float = 0.0):
    """``[(printed name, MetricSpec), ...]`` for one trec_eval measure ``text``
    (``"P.5,10"``, or ``"P"`` and its ``params`` given apart), in printing order.

    ``num_docs`` is trec_eval's -N (the collection size, for utility).
    """
    root, dot, written = text.partition(".")
    if params is None:
        params = written if dot else None
    if dot and not written:
        raise InputValueError(f"trec_eval measure {text!r}: a '.' with no parameters after it")
    fam = family(root)
    where = f"trec_eval measure {text!r}"
    if fam.style == "ranks":
        values = _ranks(params, where) if params is not None else fam.defaults
        return [(f"{root}_{k}", MetricSpec(fam.metric, k)) for k in values]
    if fam.style == "levels":
        values = _levels(params, where) if params is not None else fam.defaults
        return [(f"{root}_{x:3.2f}", MetricSpec(fam.metric, float(x))) for x in values]
    # A measure that takes no parameter ignores any it is given, and prints its plain
    # name: trec_eval's -m map.5 prints "map" (te_init_meas_s_double and the other
    # initializers of such measures never read tm->meas_params).
    printed = root if params is None or fam.style == "plain" else f"{root}_{params}"
    if fam.style == "plain" or params is None:
        spec_params = _default_params(fam, num_docs)
    elif fam.style == "numbers":
        spec_params = _numbers_params(fam, params, where, num_docs)
    else:
        spec_params = _pairs_params(fam, params, where)
    return [(printed, MetricSpec(fam.metric, params=spec_params))]


def _default_params(fam: Family, num_docs: float) -> tuple:
    if fam.metric == "utility" and num_docs:
        return (("num_docs", float(num_docs)),)
    return ()


_ATOL = re.compile(r"^\s*[+-]?[0-9]+")


def _ranks(text: str, where: str) -> tuple[int, ...]:
    """Cut-offs as trec_eval reads them: C's ``atol`` of each (23.4 is 23), sorted; each
    must be positive and none repeated."""
    values = []
    for item in text.split(","):
        match = _ATOL.match(item)
        if match is None:
            raise InputValueError(f"{where}: the cut-off {item!r} is not a number")
        value = int(match.group())
        if value > MAX_COUNT:  # C's atol overflows a long there: undefined behaviour
            raise InputValueError(f"{where}: the cut-off {item!r} is beyond {MAX_COUNT} "
                                  "(2**63 - 1)")
        values.append(value)
    values.sort()
    if values[0] <= 0:
        raise InputValueError(f"{where}: cut-offs must be positive, got {values[0]}")
    if len(set(values)) != len(values):
        raise InputValueError(f"{where}: a cut-off is given twice")
    return tuple(values)


def _float(item: str, where: str) -> float:
    """A parameter as a finite number, in ASCII (C's atof also takes ``nan`` and ``inf``,
    which no measure can use)."""
    return decimal_number(item, where)


def _levels(text: str, where: str) -> tuple[float, ...]:
    values = sorted(_float(item, where) for item in text.split(","))
    if len(set(values)) != len(values):
        raise InputValueError(f"{where}: a level is given twice")
    if values[0] < 0:
        raise InputValueError(f"{where}: levels must be 0 or more, got {values[0]:g}")
    return tuple(values)


def _numbers_params(fam: Family, text: str, where: str, num_docs: float) -> tuple:
    values = [_float(item, where) for item in text.split(",")]
    if fam.metric == "utility":
        if len(values) != 4:
            raise InputValueError(f"{where}: utility takes 4 coefficients, got {len(values)}")
        out = tuple(zip("abcd", values, strict=True))
        return out + ((("num_docs", float(num_docs)),) if num_docs else ())
    if fam.metric == "11pt_avg":
        return (("levels", tuple(values)),)
    if fam.metric == "relstring":
        length = int(values[0])  # trec_eval: (long) of the first parameter
        if length < 1:
            raise InputValueError(f"{where}: the length must be 1 or more")
        return (("length", length),)
    return (("beta", values[0]),)  # set_F


def _pairs_params(fam: Family, text: str, where: str) -> tuple:
    """``name=value`` pairs, as trec_eval reads them: whole-number names are grades of a
    gain map (for the measures that take one), ``p`` is RBP's persistence; trec_eval
    ignores any other name, and so does this."""
    pairs = []
    for item in text.split(","):
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise InputValueError(f"{where}: parameters must be name=value pairs, got {item!r}")
        pairs.append((name, _float(value, where)))
    gains, p = [], None
    for name, value in pairs:
        if re.fullmatch(r"[+-]?[0-9]+", name):
            if int(name) < 0:
                raise InputValueError(
                    f"{where}: a gain for grade {name}: trec_eval reads -1 as 'not judged' "
                    "and -2 as 'judged below 0'; ragmetrics' gain maps name grades 0 and up")
            gains.append((float(int(name)), value))
        elif name == "p":
            p = value
    out = []
    if fam.metric in ("rbp", "rbp_resid") and p is not None:
        if not 0 < p < 1:
            raise InputValueError(f"{where}: p must lie strictly between 0 and 1, got {p:g}")
        out.append(("p", p))
    if gains and fam.metric != "rbp_resid":
        merged = dict(gains)  # trec_eval: a level given twice takes its first gain
        for name, value in reversed(gains):
            merged[name] = value
        out.append(("gains", tuple(sorted(merged.items()))))
    return tuple(out)


def spec_of_printed_name(text: str):
    """The spec of a name as trec_eval prints it (``"P_5"``, ``"ndcg_cut_10"``,
    ``"iprec_at_recall_0.10"``, ``"utility_2,-1,0,0"``), or None if it is none."""
    for root in sorted(_BY_ROOT, key=len, reverse=True):
        fam = _BY_ROOT[root]
        if text == root and fam.style not in ("ranks", "levels"):
            return measure_specs(root)[0][1]
        if text.startswith(root + "_") and len(text) > len(root) + 1:
            rest = text[len(root) + 1:]
            if fam.style == "plain":
                continue
            if fam.style in ("ranks", "levels") and "," in rest:
                continue
            try:
                return measure_specs(root, params=rest)[0][1]
            except InputValueError:
                continue
    return None


add_name_reader(spec_of_printed_name)  # parse_metric("P_5") reads trec_eval's names
