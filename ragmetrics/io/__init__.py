"""Read runs and judgments from files: TREC, CSV, TSV, JSONL and Parquet, exactly or not at all;
and runs as retrieval tools write them: BEIR, LlamaIndex, OpenInference (Phoenix) spans.

Two readers take any format (told by ``format=``, the file name or the content):

- :func:`read_run` returns a **run**: one row per retrieved doc, columns ``query_id``,
  ``doc_id`` and ``rank`` and/or ``score``;
- :func:`read_qrels` returns **qrels**: one row per judged doc, columns ``query_id``,
  ``doc_id`` and ``relevance``.

Both shapes go straight into :func:`ragmetrics.evaluate`. :func:`read_dataset` reads a
whole retrieval data set (questions, judgments, documents) in the layouts teams bring:
BEIR folders, MTEB data sets saved locally, LlamaIndex's JSON
(:mod:`ragmetrics.io.dataset_layouts`), into a :class:`Dataset`. Behind them, one reader per
kind of file: :func:`read_trec_run` and :func:`read_trec_qrels` (TREC),
:func:`read_results` and :func:`read_golden` (CSV, TSV, JSONL, Parquet; long or wide).
Judgments and runs given as chunk **texts** instead of ids (RAGAS, TruLens, DeepEval)
become ids by :func:`match_texts` (exact match after whitespace normalisation, every
text that matches no document or several reported in :class:`TextMatches`);
:func:`read_ragas_samples` reads RAGAS samples (JSONL, CSV, JSON) as a
:class:`~ragmetrics.io.dataset_model.Dataset`, and ``read_run(path, format="ragas")``
their run.

The tools' layouts (:mod:`ragmetrics.io.run_layouts`) are read by ``format=`` only, never
guessed, from a file or the object the tool returned: ``"beir"``, BEIR's results JSON
``{query_id: {doc_id: score}}`` (:func:`read_beir_results`); ``"llamaindex"``,
LlamaIndex's ``RetrievalEvalResult`` records, run and judgments
(:func:`read_llamaindex_results`); ``"openinference"``, the ``RETRIEVER`` spans of an
Arize Phoenix or OpenTelemetry export (:func:`read_openinference_spans`). The last two
return a :class:`ToolRun` (the run, the judgments, the query texts) and can take a data
set's queries to turn query texts into its ids.

Three promises hold for every reader and every format:

1. **Ids are text.** ``007``, ``1e5``, ``nan``, ``NULL`` and ``True`` are read as the
   strings they are, never as numbers, missing values or booleans. (An integer id ``7``
   in JSONL or Parquet becomes ``"7"``.)
2. **Nothing is dropped or guessed.** Every record becomes rows, or the reader raises
   :class:`~ragmetrics.FormatError` naming the file, the line number (the row, in
   Parquet) and the line. Only blank lines are skipped. Every format goes through the
   same checks (:mod:`ragmetrics.io.checks`), with the same messages.
3. **Line numbers are physical.** A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``,
   and every line counts, blank ones included, so ``line 12`` is line 12 in an editor.

A file must be UTF-8 (a leading byte-order mark is allowed), and may be compressed with
gzip, bzip2, xz or Zstandard (:mod:`ragmetrics.io.source`).

Arrow parses, NumPy checks, and a line is found only for an error. TREC, CSV and TSV
files are split by Arrow's C++ CSV reader (:mod:`ragmetrics.io.arrow`) and checked as
Arrow columns (:mod:`ragmetrics.io.checks`); the line of a bad value, and a record with
the wrong number of fields, come from an index of the file's line breaks (and quotes),
built only then, so an error on line 2,000,000 costs a fraction of a second. A TREC
file Arrow cannot split as it is (comments, runs of whitespace, a line with another
number of fields) is squeezed and indexed first (:func:`ragmetrics.io.trec.split_slowly`);
a CSV file whose quotes Arrow could read otherwise than Python's ``csv`` module, and
JSON Lines and Parquet files with a problem, are read again by the definition (Python's
``csv`` and ``json``, Parquet values as Python objects), which words the error. Ids stay
in Arrow: the frames' id columns are pandas' ``str`` dtype (backed by pyarrow with
pandas 3), with no Python object per row. A run of 2 million lines reads in about half
a second (``make bench``, "file to frame"; ``benchmarks/README.md``, "One parser").
"""

from ..errors import FormatError
from .dataset_layouts import DATASET_FORMATS, dataset_layout_of, read_dataset
from .dataset_model import Dataset
from .formats import FORMATS, read_qrels, read_run, sniff_format
from .frames import read_golden, read_results
from .ragas_samples import read_ragas_samples
from .run_layouts import (
    RUN_LAYOUTS,
    ToolRun,
    read_beir_results,
    read_llamaindex_results,
    read_openinference_spans,
)
from .segment_files import read_query_ids, read_segments
from .text_matching import TextIndex, TextMatches, match_texts, normalize_whitespace, text_id
from .trec import read_trec_qrels, read_trec_run

__all__ = [
    "DATASET_FORMATS",
    "FORMATS",
    "RUN_LAYOUTS",
    "Dataset",
    "FormatError",
    "TextIndex",
    "TextMatches",
    "ToolRun",
    "dataset_layout_of",
    "match_texts",
    "normalize_whitespace",
    "read_beir_results",
    "read_dataset",
    "read_golden",
    "read_llamaindex_results",
    "read_openinference_spans",
    "read_qrels",
    "read_query_ids",
    "read_ragas_samples",
    "read_results",
    "read_run",
    "read_segments",
    "read_trec_qrels",
    "read_trec_run",
    "sniff_format",
    "text_id",
]
