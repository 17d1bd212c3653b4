"""Where the bytes come from: compressed files, files that change while they are read,
and named pipes (read once, whole)."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest
from reader_files import (
    assert_same_frame,
    write,
)

from ragmetrics.io import (
    FormatError,
    read_golden,
    read_results,
    read_run,
    read_trec_run,
)
from ragmetrics.io import source as source_module


def cut_short_while_read(monkeypatch, path, *, to: int, then: bytes = b""):
    """Make the next read of ``path`` see it cut to ``to`` bytes (and ``then`` written
    after): what ``cmd > run`` does to a file another program is reading."""
    read = source_module._read_to_end

    def cut_then_read(handle):
        part = handle.read(100)
        with open(path, "r+b") as writer:
            writer.truncate(to)
            writer.seek(to)
            writer.write(then)
        return part + read(handle)

    monkeypatch.setattr(source_module, "_read_to_end", cut_then_read)


@pytest.mark.slow
@pytest.mark.parametrize("reader", [read_trec_run, read_run], ids=["trec", "any format"])
@pytest.mark.parametrize(("to", "then"), [(0, b""), (5_000, b""), (0, b"q1 Q0 d1 1 2.0 x\n"),
                                          (5_000, b"q9 Q0 d9 1 1.0 x\n" * 10)],
                         ids=["emptied", "cut", "rewritten shorter", "cut and grown"])
def test_a_file_that_changes_while_it_is_read_is_refused_by_name(tmp_path, monkeypatch,
                                                                 reader, to, then):
    # Issue 23: a file of 1 MiB or more was mapped into memory, and cutting it short
    # under the reader ended the process with SIGBUS. Now every file is read whole and
    # a read that came up short, or a file whose size or time moved, is refused.
    text = "".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {i / 7} bm25\n" for i in range(60_000))
    path = write(tmp_path, "r.run", text)
    size = path.stat().st_size
    assert size >= 1 << 20
    cut_short_while_read(monkeypatch, path, to=to, then=then)
    with pytest.raises(FormatError, match="changed while it was read") as caught:
        reader(path)
    assert caught.value.path == str(path)
    assert f"{size:,} bytes when opened" in str(caught.value)


def test_a_compressed_file_cut_while_read_is_refused_too(tmp_path, monkeypatch):
    text = "".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {i / 7} bm25\n" for i in range(2_000))
    path = write(tmp_path, "r.run.gz", gzip.compress(text.encode()))
    cut_short_while_read(monkeypatch, path, to=200)
    with pytest.raises(FormatError, match="changed while it was read"):
        read_trec_run(path)


@pytest.mark.slow
def test_a_file_truncated_in_a_loop_never_kills_the_command(tmp_path):
    # The real race, end to end: a writer cuts and rewrites a 4 MB run while
    # `ragmetrics trec_eval` reads it. Each attempt ends with a result or a refusal (exit
    # 0 or 2), never with a signal (SIGBUS was -7 in 4 of 6 tries before).
    line = "q{0} Q0 d{1} {2} {3} bm25\n"
    text = "".join(line.format(i // 100, i, i % 100 + 1, i / 7) for i in range(120_000))
    run, qrels = tmp_path / "r.run", write(tmp_path, "q.txt", "q1 0 d101 1\n")
    run.write_text(text)
    stop = threading.Event()

    def rewrite():  # cut to nothing, then written again in two halves, slowly
        while not stop.is_set():
            with open(run, "w") as handle:
                for half in (text[: len(text) // 2], text[len(text) // 2 :]):
                    time.sleep(0.01)
                    handle.write(half)
                    handle.flush()

    writer = threading.Thread(target=rewrite)
    writer.start()
    try:
        command = [sys.executable, "-m", "ragmetrics", "trec_eval", "-c", str(qrels), str(run)]
        codes = [subprocess.run(command, check=False, capture_output=True).returncode
                 for _ in range(4)]
    finally:
        stop.set()
        writer.join()
    assert set(codes) <= {0, 2}, codes


# (reader, file name, content, a fragment of the reason): problems of no single line


# --- compressed files, Parquet, and one validation for every format ------------------------


def test_compressed_files_read_as_their_contents(tmp_path):
    import bz2
    import gzip
    import lzma

    import pyarrow as pa

    text = "q1 Q0 d1 1 2.5 run\nq1 Q0 d2 2 1.5 run\n"
    plain = read_trec_run(write(tmp_path, "r.run", text))
    zstd = pa.compress(text.encode(), codec="zstd", asbytes=True)
    # pa.compress writes a bare frame; a .zst file is the same bytes.
    for name, data in (("r.run.gz", gzip.compress(text.encode())),
                       ("r.run.bz2", bz2.compress(text.encode())),
                       ("r.run.xz", lzma.compress(text.encode())),
                       ("r.run.zst", zstd),
                       ("misnamed.run", gzip.compress(text.encode()))):  # told by its bytes
        assert_same_frame(read_trec_run(write(tmp_path, name, data)), plain, obj=name)
    golden = "query_id,doc_id\nq1,d1\n"
    expected = read_golden(write(tmp_path, "g.csv", golden))
    assert_same_frame(read_golden(write(tmp_path, "g.csv.gz", gzip.compress(golden.encode()))),
                      expected)


def test_a_text_file_that_starts_like_bzip2_is_text(tmp_path):
    # "BZh" alone is not bzip2: the block size digit and the block magic must follow.
    run = read_trec_run(write(tmp_path, "r.run", "BZh9 Q0 d1 1 2.5 run\n"))
    assert run["query_id"].tolist() == ["BZh9"]


def test_a_truncated_compressed_file_is_a_format_error(tmp_path):
    import gzip

    data = gzip.compress(b"q1 Q0 d1 1 2.5 run\n" * 100)[:30]
    with pytest.raises(FormatError, match="starts like gzip data but cannot be decompressed"):
        read_trec_run(write(tmp_path, "r.run.gz", data))



# -- pipes: read once, whole ---------------------------------------------------------------


def _read_pipe(named_pipe, name: str, data: bytes, read):
    """``read(path)`` of a named pipe that a thread writes ``data`` into."""
    with named_pipe(name, data) as path:
        return read(path)


@pytest.mark.parametrize(("name", "data", "reader"), [
    ("run.txt", b"q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n", "read_run"),
    ("run.txt.gz", gzip.compress(b"q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n"), "read_run"),
    ("run.csv", b"query_id,doc_id,score\nq1,d1,2\nq1,d2,1\n", "read_run"),
    ("run.jsonl", b'{"query_id":"q1","retrieved_ids":["d1","d2"]}\n', "read_results"),
    ("run", b"\xef\xbb\xbfq1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n", "read_trec_run"),
])
def test_a_run_is_read_from_a_named_pipe(named_pipe, name, data, reader):
    from ragmetrics import io as rio

    run = _read_pipe(named_pipe, name, data, getattr(rio, reader))
    assert run["doc_id"].tolist() == ["d1", "d2"]
    assert run["query_id"].tolist() == ["q1", "q1"]


def test_judgments_and_a_parquet_run_are_read_from_named_pipes(named_pipe):
    from ragmetrics.io import read_golden, read_qrels, read_run

    qrels = _read_pipe(named_pipe, "q.txt", b"q1 0 d1 1\n", read_qrels)
    assert qrels["relevance"].tolist() == [1]
    golden = _read_pipe(named_pipe, "g.csv", b"query_id,doc_id\nq1,d1\n", read_golden)
    assert golden["doc_id"].tolist() == ["d1"]
    buffer = io.BytesIO()
    pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "score": [1.0]}).to_parquet(buffer)
    run = _read_pipe(named_pipe, "run.parquet", buffer.getvalue(), read_run)
    assert run["score"].tolist() == [1.0]


def test_an_error_in_a_pipe_names_it_and_the_line(tmp_path, named_pipe):
    with pytest.raises(FormatError) as caught:
        _read_pipe(named_pipe, "r.csv", b"query_id,doc_id,score\nq1,d1,2\nq1,d2,x\n",
                   read_results)
    assert caught.value.path == str(tmp_path / "r.csv")
    assert caught.value.line == 3
