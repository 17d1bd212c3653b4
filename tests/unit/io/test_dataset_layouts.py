"""read_dataset: BEIR folders, MTEB data sets saved locally, LlamaIndex JSON; the layout told
from the path, every malformed record a FormatError naming its file and line."""

from __future__ import annotations

import gzip
import json
import shutil
import warnings
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ragmetrics
from ragmetrics.errors import DatasetCoverageWarning, FormatError, InputValueError
from ragmetrics.io import Dataset, dataset_layout_of, read_dataset, read_golden, read_qrels

DATA = Path(__file__).parents[2] / "data" / "datasets"


def quiet(path, **options) -> Dataset:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DatasetCoverageWarning)
        return read_dataset(path, **options)


def same_shape_as_read_qrels(qrels: pd.DataFrame, tmp_path: Path) -> None:
    """The qrels frame has read_qrels' columns and dtypes."""
    path = tmp_path / "reference.tsv"
    path.write_text("query_id\tdoc_id\trelevance\nq\td\t1\n")
    reference = read_qrels(path)
    assert list(qrels.columns) == list(reference.columns)
    assert qrels.dtypes.to_dict() == reference.dtypes.to_dict()


# -- BEIR ------------------------------------------------------------------------------


def test_a_beir_folder_reads_every_column_with_ids_as_text(tmp_path):
    data = read_dataset(DATA / "beir" / "tiny")
    assert data.format == "beir"
    assert data.split == "test"
    assert data.qrels.values.tolist() == [["007", "d1", 2], ["007", "007", 0], ["007", "7", 1],
                                          ["42", "d42", 1]]
    same_shape_as_read_qrels(data.qrels, tmp_path)
    assert data.queries["query_id"].tolist() == ["007", "42"]  # q-unjudged left out
    assert data.queries["metadata"].tolist() == [{"lang": "en"}, {"lang": "en"}]
    assert list(data.documents.columns) == ["doc_id", "text", "title"]
    assert data.documents["doc_id"].tolist() == ["d1", "007", "7", "d42"]
    assert data.documents["title"].tolist() == ["Bond", "", "Seven", "Deep Thought"]
    assert data.coverage == {"queries_without_judgments": 1,
                             "judged_queries_without_text": 0,
                             "judged_docs_not_in_corpus": 0}


def test_another_split_and_no_documents(tmp_path):
    data = read_dataset(DATA / "beir" / "tiny", split="dev", documents=False)
    assert data.qrels.values.tolist() == [["42", "007", 1]]
    assert data.documents is None
    assert data.split == "dev"


def test_a_missing_split_names_the_splits_there_are():
    with pytest.raises(FormatError, match=r"no qrels for split 'train'.*'dev', 'test'") as info:
        read_dataset(DATA / "beir" / "tiny", split="train")
    assert info.value.path.endswith("tiny")


def test_a_qrels_tsv_alone_is_beir_judgments(tmp_path):
    path = DATA / "beir" / "tiny" / "qrels" / "test.tsv"
    assert dataset_layout_of(path) == "beir"
    data = read_dataset(path)
    assert data.split == "test"
    assert data.documents is None
    assert data.queries["query_id"].tolist() == ["007", "42"]
    assert data.queries["text"].isna().all()
    assert data.qrels.equals(read_qrels(path))


def test_read_qrels_and_read_golden_take_beirs_header_as_aliases(tmp_path):
    path = tmp_path / "test.tsv"
    path.write_text("query-id\tcorpus-id\tscore\n1\t007\t2\nq2\td1\t0\n")
    expected = [["1", "007", 2], ["q2", "d1", 0]]
    assert read_qrels(path).values.tolist() == expected
    assert read_golden(path).values.tolist() == expected
    bad = tmp_path / "bad.tsv"
    bad.write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t1.5\n")
    with pytest.raises(FormatError, match="score must be an integer") as info:  # its name
        read_qrels(bad)
    assert info.value.line == 3
    both = tmp_path / "both.csv"
    both.write_text("query-id,corpus-id,query_id,doc_id\nq,d,q,d\n")
    with pytest.raises(FormatError, match="names column 'query_id' twice"):
        read_golden(both)


def beir_folder(tmp_path: Path, corpus: str, queries: str, qrels: str) -> Path:
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(corpus)
    (folder / "queries.jsonl").write_text(queries)
    (folder / "qrels" / "test.tsv").write_text(qrels)
    return folder


QRELS = "query-id\tcorpus-id\tscore\nq1\td1\t1\n"


@pytest.mark.parametrize(("corpus", "file", "line", "message"), [
    ('{"_id": "d1", "text": "ok"}\n{"_id": "", "text": "x"}\n', "corpus.jsonl", 2,
     "_id is empty"),
    ('{"_id": "d1", "text": "ok"}\n\n{"_id": "d2", "text": 3}\n', "corpus.jsonl", 3,
     "text must be a string, got 3"),
    ('{"_id": "d1", "text": "ok"}\n{"_id": "d2"}\n', "corpus.jsonl", 2, "no key 'text'"),
    ('{"_id": "d1", "text": "ok"}\n{"_id": "d1", "text": "again"}\n', "corpus.jsonl", 2,
     "id 'd1' is already on line 1"),
    ('{"_id": "d1", "text": "ok"}\n{"_id": "d2", "text": "x"\n', "corpus.jsonl", 2,
     "not valid JSON"),
    ('{"_id": "d1", "text": "ok", "title": ["a"]}\n', "corpus.jsonl", 1,
     "title must be a string"),
])
def test_a_bad_corpus_line_is_a_format_error_naming_its_line(tmp_path, corpus, file, line,
                                                             message):
    folder = beir_folder(tmp_path, corpus, '{"_id": "q1", "text": "?"}\n', QRELS)
    with pytest.raises(FormatError, match=message) as info:
        read_dataset(folder)
    assert Path(info.value.path).name == file
    assert info.value.line == line


def test_bad_queries_and_qrels_lines_name_their_file(tmp_path):
    folder = beir_folder(tmp_path, '{"_id": "d1", "text": "ok"}\n',
                         '{"_id": "q1", "text": "?"}\n{"_id": " q2", "text": "?"}\n', QRELS)
    with pytest.raises(FormatError, match="begins or ends with whitespace") as info:
        read_dataset(folder)
    assert (Path(info.value.path).name, info.value.line) == ("queries.jsonl", 2)
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "?"}\n')
    (folder / "qrels" / "test.tsv").write_text(QRELS + "q1\td1\t1\n")
    with pytest.raises(FormatError, match="judges doc 'd1' twice, on lines 2 and 3") as info:
        read_dataset(folder)
    assert Path(info.value.path).name == "test.tsv"


def test_a_compressed_corpus_and_two_copies_refused(tmp_path):
    folder = beir_folder(tmp_path, "", '{"_id": "q1", "text": "?"}\n', QRELS)
    (folder / "corpus.jsonl").unlink()
    (folder / "corpus.jsonl.gz").write_bytes(gzip.compress(b'{"_id": "d1", "text": "ok"}\n'))
    assert read_dataset(folder).documents["doc_id"].tolist() == ["d1"]
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "text": "ok"}\n')
    with pytest.raises(FormatError, match=r"corpus\.jsonl and corpus\.jsonl\.gz: keep one"):
        read_dataset(folder)


def test_judgments_without_question_or_document_are_kept_and_counted(tmp_path):
    folder = beir_folder(tmp_path, '{"_id": "d1", "text": "ok"}\n',
                         '{"_id": "q1", "text": "?"}\n{"_id": "q9", "text": "?"}\n',
                         QRELS + "q2\td1\t1\nq2\tnowhere\t1\n")
    with pytest.warns(DatasetCoverageWarning, match=r"1 judged query has no question.*'q2'.*"
                      r"1 judgment row\(s\) name a doc that corpus.jsonl lacks \(e.g. 'nowhere'"):
        data = read_dataset(folder)
    assert data.qrels["query_id"].tolist() == ["q1", "q2", "q2"]
    assert data.queries["query_id"].tolist() == ["q1"]
    assert data.coverage == {"queries_without_judgments": 1, "judged_queries_without_text": 1,
                             "judged_docs_not_in_corpus": 1}


def test_the_real_beir_sample_keeps_what_beir_would_stop_on():
    # NFCorpus as BEIR ships it (CRLF qrels, graded 1/2, metadata on each query), cut so
    # that PLAIN-395 is judged without a question and its 3 docs are not in the corpus
    with pytest.warns(DatasetCoverageWarning, match=r"1 judged query has no question.*"
                      r"'PLAIN-395'.*3 judgment row\(s\) name a doc that corpus.jsonl lacks"):
        data = read_dataset(DATA / "beir" / "nfcorpus")
    assert len(data.qrels) == 14
    assert data.qrels["relevance"].value_counts().to_dict() == {2: 9, 1: 5}
    assert data.qrels.iloc[-1].tolist() == ["PLAIN-395", "MED-4993", 1]  # no "\r" left
    assert data.queries["query_id"].tolist() == ["PLAIN-2"]
    assert data.queries["text"].iloc[0] == "Do Cholesterol Statin Drugs Cause Breast Cancer?"
    assert data.queries["metadata"].iloc[0]["url"].startswith("http://nutritionfacts.org/")
    assert data.coverage == {"queries_without_judgments": 2, "judged_queries_without_text": 1,
                             "judged_docs_not_in_corpus": 3}
    assert len(data.documents) == 12
    statins = data.documents.set_index("doc_id").loc["MED-10"]
    assert statins["title"].startswith("Statin Use and Breast Cancer Survival")
    assert "1995\u20132003" in statins["text"]  # JSON's \u escapes decoded


# -- MTEB ------------------------------------------------------------------------------


def test_the_mteb_mock_task_reads_with_its_top_ranked_as_the_run(tmp_path):
    data = read_dataset(DATA / "mteb" / "mock")
    assert data.format == "mteb"
    assert data.qrels.values.tolist() == [["q1", "d1", 1], ["q1", "d2", 0], ["q2", "d1", 0],
                                          ["q2", "d2", 1]]
    same_shape_as_read_qrels(data.qrels, tmp_path)
    assert data.run.values.tolist() == [["q1", "d1", 1], ["q1", "d2", 2], ["q2", "d2", 1],
                                        ["q2", "d1", 2]]
    assert data.documents.values.tolist() == [
        ["d2", "This is a positive sentence", "Title of d1"],
        ["d1", "This is another positive sentence", "Title of d2"]]
    result = ragmetrics.evaluate(data.run, data.qrels, ["ndcg@2", "recall@1"])
    assert result.per_query["recall@1"].tolist() == [1.0, 1.0]


def test_the_real_mteb_sample_in_one_folder_of_splits():
    data = read_dataset(DATA / "mteb" / "nfcorpus")
    assert data.format == "mteb"
    assert data.qrels.values.tolist() == [
        ["PLAIN-307", "MED-714", 2], ["PLAIN-307", "MED-919", 2], ["PLAIN-307", "MED-716", 2],
        ["PLAIN-358", "MED-4324", 1], ["PLAIN-358", "MED-4556", 1], ["PLAIN-358", "MED-4559", 1]]
    assert len(data.documents) == 8
    assert data.documents["doc_id"].iloc[0] == "MED-10"
    assert data.queries["query_id"].tolist() == ["PLAIN-307", "PLAIN-358"]
    assert "metadata" in data.queries.columns  # the other columns travel with the questions
    assert data.coverage == {"queries_without_judgments": 2, "judged_queries_without_text": 0,
                             "judged_docs_not_in_corpus": 0}
    assert data.run is None


def mteb_folder(tmp_path: Path, ext: str = "parquet") -> Path:
    folder = tmp_path / "mteb"
    shutil.copytree(DATA / "mteb" / "mock", folder)
    if ext == "jsonl":
        for path in folder.rglob("*.parquet"):
            rows = pq.read_table(path).to_pylist()
            path.with_suffix(".jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
            path.unlink()
    return folder


def test_mteb_as_json_lines_with_ids_as_integers(tmp_path):
    folder = mteb_folder(tmp_path, "jsonl")
    (folder / "queries" / "test-00000-of-00001.jsonl").write_text(
        '{"_id": 7, "text": "seven?", "instruction": "find"}\n'
        '{"_id": "q1", "text": "one?", "instruction": "find"}\n')
    (folder / "qrels" / "test-00000-of-00001.jsonl").write_text(
        '{"query-id": 7, "corpus-id": "d1", "score": 1}\n'
        '{"query-id": "q1", "corpus-id": "d2", "score": 2}\n')
    data = read_dataset(folder)
    assert data.qrels.values.tolist() == [["7", "d1", 1], ["q1", "d2", 2]]
    assert data.queries.values.tolist() == [["7", "seven?", "find"], ["q1", "one?", "find"]]


def test_mteb_errors_name_the_file_and_row(tmp_path):
    folder = mteb_folder(tmp_path)
    pq.write_table(pa.table({"id": ["d1", None], "text": ["a", "b"]}),
                   folder / "corpus" / "test-00000-of-00001.parquet")
    with pytest.raises(FormatError, match="id must be a string or an integer") as info:
        read_dataset(folder)
    assert (info.value.line, info.value.unit) == (2, "row")
    with pytest.raises(FormatError, match=r"no qrels for split 'dev' \(splits found: 'test'\)"):
        read_dataset(folder, split="dev", documents=False)


def test_mteb_a_part_with_one_split_serves_every_split(tmp_path):
    folder = mteb_folder(tmp_path)
    corpus = folder / "corpus" / "test-00000-of-00001.parquet"
    corpus.rename(corpus.with_name("corpus-00000-of-00001.parquet"))
    qrels = folder / "qrels" / "test-00000-of-00001.parquet"
    shutil.copy(qrels, qrels.with_name("dev-00000-of-00001.parquet"))
    data = read_dataset(folder, split="dev")
    assert len(data.documents) == 2
    assert len(data.qrels) == 4


def test_mteb_subsets_are_named(tmp_path):
    folder = tmp_path / "multi"
    for part in ("en-corpus", "en-queries", "en-qrels", "fr-qrels"):
        (folder / part).mkdir(parents=True)
    assert dataset_layout_of(folder) == "mteb"
    with pytest.raises(FormatError, match="MTEB subsets 'en', 'fr'"):
        read_dataset(folder)


# -- LlamaIndex ------------------------------------------------------------------------


def test_a_llamaindex_file_every_listed_doc_relevant(tmp_path):
    data = read_dataset(DATA / "llamaindex" / "tiny.json")
    assert data.format == "llamaindex"
    assert data.split is None
    assert data.qrels.values.tolist() == [["q1", "n1", 1], ["007", "007", 1], ["007", "n1", 1]]
    same_shape_as_read_qrels(data.qrels, tmp_path)
    assert data.queries.values.tolist() == [["q1", "Who is licensed to kill?"],
                                            ["007", "Which doc has id 007?"]]
    assert data.documents["doc_id"].tolist() == ["n1", "007", "7"]


def test_the_real_llamaindex_sample():
    data = read_dataset(DATA / "llamaindex" / "fae_val_dataset.json")
    assert len(data.queries) == 6
    assert len(data.documents) == 3
    assert len(data.qrels) == 6
    assert data.qrels["doc_id"].isin(data.documents["doc_id"]).all()


@pytest.mark.parametrize(("edit", "line", "message"), [
    (lambda d: d["relevant_docs"].update({"007": "n1"}), 15, "must be a list of doc ids"),
    (lambda d: d["relevant_docs"].update({"007": ["n1", "n1"]}), 15, "lists doc 'n1' twice"),
    (lambda d: d["corpus"].update({"7": None}), 9, r"corpus\['7'\] must be a string"),
    (lambda d: d["queries"].update({" q": "?"}), 5, "begins or ends with whitespace"),
    (lambda d: d["relevant_docs"].update({"q1": [""]}), 12, r"relevant_docs\['q1'\]\[0\] is"),
])
def test_a_bad_llamaindex_entry_names_its_line(tmp_path, edit, line, message):
    data = json.loads((DATA / "llamaindex" / "tiny.json").read_text())
    edit(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, indent=4))
    with pytest.raises(FormatError, match=message) as info:
        read_dataset(path)
    assert info.value.line == line
    assert info.value.text == path.read_text().splitlines()[line - 1]


def test_a_llamaindex_file_that_is_not_json_or_lacks_a_key(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"queries": {"q1": "?"},\n "corpus": {"d1": "x"\n')
    with pytest.raises(FormatError, match="not valid JSON") as info:
        read_dataset(path)
    assert info.value.line == 2  # the file ends inside the object: its last line
    path.write_text('{"queries": {}, "corpus": {}}')
    with pytest.raises(FormatError, match="keys 'queries', 'corpus' and 'relevant_docs'"):
        read_dataset(path, format="llamaindex")


# -- telling the layout ----------------------------------------------------------------


def test_an_unknown_layout_names_what_it_found_and_the_layouts_known(tmp_path):
    (tmp_path / "notes.txt").write_text("hi")
    (tmp_path / "stuff").mkdir()
    with pytest.raises(FormatError) as info:
        read_dataset(tmp_path)
    message = str(info.value)
    assert message.startswith(f"{tmp_path}: cannot tell the data set's layout: it holds "
                              "notes.txt, stuff/.")
    for name in ("beir:", "mteb:", "llamaindex:"):
        assert name in message
    other = tmp_path / "run.json"
    other.write_text('{"q1": ["d1"]}')
    assert dataset_layout_of(other) is None
    with pytest.raises(FormatError, match=r"it holds a \.json file"):
        read_dataset(other)
    with pytest.raises(InputValueError, match="format must be one of 'beir', 'mteb'"):
        read_dataset(tmp_path, format="msmarco")


def test_the_public_names():
    assert ragmetrics.read_dataset is read_dataset
    assert ragmetrics.Dataset is Dataset
    assert ragmetrics.io.Dataset is Dataset
    assert "read_dataset" in ragmetrics.__all__
    assert "Dataset" in ragmetrics.__all__


def test_coverage_counts_match_across_arrow_string_types(tmp_path):
    # qrels ids as large_string, corpus ids as string: matched by value, not by type
    folder = mteb_folder(tmp_path)
    pq.write_table(pa.table({"query-id": pa.array(["q1", "q1", "q2"], pa.large_string()),
                             "corpus-id": pa.array(["d1", "d9", "d2"], pa.large_string()),
                             "score": [1, 1, 1]}),
                   folder / "qrels" / "test-00000-of-00001.parquet")
    with pytest.warns(DatasetCoverageWarning, match=r"1 judgment row\(s\) name a doc .*'d9'"):
        data = read_dataset(folder)
    assert data.coverage == {"queries_without_judgments": 0, "judged_queries_without_text": 0,
                             "judged_docs_not_in_corpus": 1}
