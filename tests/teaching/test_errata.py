"""The errata table and the corrections of issue 17, pinned.

- notebook 00 and README show the one numbered errata table (``teaching.errata``), exactly;
- each erratum's notebook names it ("erratum N"), and a notebook that names an erratum is its
  notebook, links to it, or is 00; the test that pins each row exists;
- the statements the notebooks used to get wrong stay corrected (a notebook-text test each),
  and the numbers behind them are checked where they are computed (nbval, tests/teaching/test_article.py).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from ragmetrics.teaching.errata import ERRATA, errata_markdown

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
README = ROOT / "README.md"


def markdown_of(name: str) -> str:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def text_of(name: str) -> str:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    return "\n".join(c.source for c in nb.cells)


def outputs_of(name: str) -> str:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(out.get("text", "") + "".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_errata_are_numbered_in_order():
    assert [e.number for e in ERRATA] == list(range(1, len(ERRATA) + 1))


def test_notebook_00_shows_the_errata_table():
    assert errata_markdown() in markdown_of("00_index.ipynb")


def test_readme_repeats_the_errata_table():
    assert errata_markdown("notebooks/") in README.read_text(encoding="utf-8")


@pytest.mark.parametrize("erratum", ERRATA, ids=lambda e: f"erratum {e.number}")
def test_each_erratum_is_named_in_its_notebook(erratum):
    assert (NOTEBOOKS / erratum.notebook).exists(), erratum.notebook
    text = flat(text_of(erratum.notebook)).lower()
    assert re.search(rf"\berr(?:atum|ata)\b[^.]*?\b{erratum.number}\b", text), (
        f"{erratum.notebook} never says 'erratum {erratum.number}'")


def test_a_notebook_that_names_an_erratum_is_its_notebook_or_links_to_it():
    by_number = {e.number: e for e in ERRATA}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        if path.name == "00_index.ipynb":
            continue
        text = flat(text_of(path.name))
        for match in re.finditer(r"\berratum (\d+)\b", text, flags=re.IGNORECASE):
            erratum = by_number.get(int(match.group(1)))
            assert erratum is not None, f"{path.name} names erratum {match.group(1)}: no such row"
            assert erratum.notebook == path.name or f"]({erratum.notebook}" in text, (
                f"{path.name} names erratum {erratum.number}, which is in {erratum.notebook}, "
                "without linking to it")


@pytest.mark.parametrize("erratum", ERRATA, ids=lambda e: f"erratum {e.number}")
def test_each_erratum_has_its_test(erratum):
    defined = set()
    for path in (ROOT / "tests" / "teaching" / "test_article.py", Path(__file__)):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert erratum.test in defined, f"no test named {erratum.test}"


# -- the corrections of issue 17, one test each ---------------------------------------------


def test_k_does_not_change_what_is_embedded():
    # Erratum 6: the article lists "fewer chunks to embed" as a saving of a smaller k; chunks
    # are embedded when the index is built. Notebook 05 says so next to the quote.
    article = (ROOT.parents[0] / "shared" / "article" / "retrieval-metrics.txt")
    if article.exists():
        assert "fewer chunks to embed" in article.read_text(encoding="utf-8")
    text = flat(markdown_of("05_choosing_k.ipynb"))
    assert "Erratum 6" in text
    assert "embedded once, when the index is built" in text


def test_the_mrr_intro_no_longer_calls_it_a_rank():
    # 03 c0 used the article's gloss ("how far down ... was the first relevant chunk") as the
    # question MRR answers; it now says 1/rank and names the gloss as erratum 2.
    intro = flat(nbformat.read(NOTEBOOKS / "03_mrr.ipynb", as_version=4).cells[0].source)
    assert "**The question MRR answers:** on average, how far down" not in intro
    assert "erratum 2" in intro
    # The scattered system's numbers come after the learner's prediction, not in the intro.
    assert "1/MRR is 8.2" not in intro
    assert "1/MRR is 8.2" in flat(markdown_of("03_mrr.ipynb"))
    assert "MRR = 0.1222, and 1/MRR = 8.18" in outputs_of("03_mrr.ipynb")


def test_trap_2_says_precision_50_is_at_its_ceiling():
    text = flat(markdown_of("07_when_metrics_lie.ipynb"))
    assert "0.06 is the best any ranking can get" in text
    assert "only precision (or the token count) catches the noise trap" not in text
    assert "best possible Precision@50 = min(50, 3)/50 = 0.06" in outputs_of("07_when_metrics_lie.ipynb")


def test_the_slider_range_is_told_as_it_is():
    text = flat(markdown_of("02_precision_at_k.ipynb"))
    assert "stops at the end of the list" not in text
    assert "10 ranks past the end of the list (to 25" in text
    assert "the slider goes from k = 1 to k = 25 (15 chunks + 10)" in outputs_of("02_precision_at_k.ipynb")
    board_js = (ROOT / "ragmetrics" / "widgets" / "board.js").read_text(encoding="utf-8")
    assert 'max: model.get("k_max")' in board_js  # the browser's slider ends where Python says


def test_chunk_titles_carry_no_rank():
    data = (ROOT / "data" / "article_examples.jsonl").read_text(encoding="utf-8")
    assert not re.search(r'"title": "[^"]*\brank \d', data)


def test_precision_is_not_called_confidence():
    text = flat(markdown_of("02_precision_at_k.ipynb"))
    assert "High precision says the retriever is *confident*" not in text
    assert "erratum 3" in text


def test_precision_and_rr_do_not_see_how_confident_the_scores_are():
    # Erratum 3, by numbers: the same order with every score / 100 scores the same.
    from ragmetrics import evaluate

    run = {"q": {"a": 0.9, "x": 0.5, "b": 0.3}}
    timid = {"q": {doc: s / 100 for doc, s in run["q"].items()}}
    qrels = {"q": {"a", "b"}}
    names = ["precision@2", "rr", "recall@3", "ndcg@3"]
    assert evaluate(run, qrels, names).summary.equals(evaluate(timid, qrels, names).summary)


def test_the_token_window_is_a_range():
    text = flat(markdown_of("05_choosing_k.ipynb"))
    assert "is a 1,700-token window" not in text
    assert "needs a window of 1,700 to 1,999 tokens" in text


def test_erratum_10_is_in_05():
    text = flat(markdown_of("05_choosing_k.ipynb"))
    assert "Erratum 10." in text
    assert "(5-10 chunks in prompt)" in text
    assert "k =  5: 5 chunks in the prompt, 2,000 tokens" in outputs_of("05_choosing_k.ipynb")


@pytest.mark.parametrize(("name", "sections"), [("08_evaluate_your_retriever.ipynb", 9),
                                                ("08b_statistics_and_decisions.ipynb", 10)])
def test_the_intro_of_08_and_08b_lists_their_sections(name, sections):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    intro = re.findall(r"^\d+\. ", nb.cells[0].source, flags=re.MULTILINE)
    headings = [int(line[3:].split(".")[0]) for c in nb.cells if c.cell_type == "markdown"
                for line in c.source.splitlines() if re.match(r"^## \d+\. ", line)]
    assert len(intro) == sections
    assert headings == list(range(1, sections + 1))


def test_single_query_values_are_rr_not_mrr():
    """RR for one query, MRR for the mean: no single-query curve, board or table says MRR."""
    single_query_calls = {"metrics_over_k", "metric_curves"}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            tree = ast.parse("\n".join("" if line.lstrip().startswith(("%", "!")) else line
                                       for line in cell.source.splitlines()))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) in single_query_calls:
                    names = [c.value for c in ast.walk(node)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                    assert "mrr" not in names, f"{path.name}: a one-query curve of 'mrr'"
    # The article-check tables of 05 and 06 score one query: their row is RR.
    for name in ("05_choosing_k.ipynb", "06_worked_example_cancellation.ipynb"):
        shown = outputs_of(name)
        assert re.search(r"^RR\s", shown, flags=re.MULTILINE), name
        assert not re.search(r"^MRR\s", shown, flags=re.MULTILINE), name
    from ragmetrics.teaching import trap_scenarios

    for trap in trap_scenarios().values():
        assert not any(m.startswith("mrr") for m in trap.metric_names), trap.name


@pytest.mark.parametrize("name", [
    "01_recall_at_k.ipynb", "02_precision_at_k.ipynb", "03_mrr.ipynb", "04_ndcg.ipynb",
    "05_choosing_k.ipynb", "06_worked_example_cancellation.ipynb",
    "11_precision_recall_curves.ipynb",
])
def test_exercise_answer_cells_start_empty(name):
    """No exercise comes with its answer filled in: the answers are None until the learner
    types them, and each solution is a collapsed Markdown <details> block (Markdown never
    runs, so Run All cannot print it); no solution is a code cell."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    answer_cells = [c for c in nb.cells if c.cell_type == "code" and "answers = {" in c.source]
    assert answer_cells, name
    for cell in answer_cells:
        block = cell.source.split("}", 1)[0]
        assert re.findall(r":\s*None\b", block), name
        assert not re.findall(r":\s*[\d(]", block), name
        assert "no answer yet" in "".join(o.get("text", "") for o in cell.outputs), name
    assert not [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("# Solution")]
    solutions = [c for c in nb.cells if c.cell_type == "markdown"
                 and c.source.startswith("<details>") and "<summary>Solution" in c.source]
    assert solutions, name


@pytest.mark.parametrize("name", ["01_recall_at_k.ipynb", "02_precision_at_k.ipynb",
                                  "03_mrr.ipynb", "04_ndcg.ipynb",
                                  "08_evaluate_your_retriever.ipynb"])
def test_exercise_widget_and_conceptual_questions(name):
    text = text_of(name)
    assert "ExerciseWidget(" in text
    assert "Think about it" in text
    assert "<details>" in text
