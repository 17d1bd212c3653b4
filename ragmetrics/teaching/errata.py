"""Where the source article is wrong or misleading: one numbered table, used everywhere.

Notebook 00 shows it, README repeats it, and each notebook that corrects an erratum
names it by its number ("erratum 6"). ``tests/teaching/test_errata.py`` checks that 00 and README
show exactly :func:`errata_markdown`, that every notebook that says "erratum N" is the
notebook of row N, and that the test pinning each row exists in ``tests/teaching/test_article.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ERRATA", "Erratum", "errata_markdown"]


@dataclass(frozen=True)
class Erratum:
    """One place where the article is wrong (or misleading enough to mislead a learner).

    Attributes
    ----------
    number : int
        Its number, 1, 2, ... in the order of the article.
    where : str
        The article's section.
    says : str
        What the article says, quoted or summarised.
    right : str
        What is right.
    why : str
        Why, with the numbers.
    notebook : str
        The notebook that shows the correction.
    test : str
        The test in ``tests/teaching/test_article.py`` that pins it.
    """

    number: int
    where: str
    says: str
    right: str
    why: str
    notebook: str
    test: str


ERRATA: tuple[Erratum, ...] = (
    Erratum(
        1, "summary of Recall@k", '"did we find at least one in the top k?"',
        "that is the hit rate",
        "Recall@k is the *fraction* of relevant chunks in the top k; cancellation query at "
        "k = 1: hit rate 1.0, Recall@1 = 0.3333",
        "01_recall_at_k.ipynb", "test_opening_summary_recall_definition_is_hit_rate",
    ),
    Erratum(
        2, "summary of MRR", '"how far down the ranked list was the first relevant chunk?"',
        "the mean of 1/rank, not a rank",
        "first hits at ranks 5, 10 and 15: MRR = 0.1222, and 1/MRR = 8.2, while the mean "
        "rank is 10",
        "03_mrr.ipynb", "test_mrr_of_ranks_5_10_15_is_not_one_over_the_mean_rank",
    ),
    Erratum(
        3, "MRR heading; common mistake", '"How confident was the first hit?"; high '
        'precision means "confident in what you retrieve"',
        "no metric here sees confidence",
        "RR and Precision@k read only where the relevant chunks are; scaling every score by "
        "0.01 changes no value (the retriever's confidence is its scores)",
        "02_precision_at_k.ipynb", "test_precision_and_rr_do_not_see_how_confident_the_scores_are",
    ),
    Erratum(
        4, "nDCG section", '"Recall@10 = 0.9 but all hits at rank 1-2"', "impossible",
        "two hits give Recall 0.9 only with 2.2 relevant chunks",
        "04_ndcg.ipynb", "test_ndcg_recall_at_10_of_0_9_with_all_hits_at_rank_1_2_is_impossible",
    ),
    Erratum(
        5, "`compute_ndcg_at_k` (its code)", '"Returns: float: nDCG@k (0 to 1)"', "can exceed 1",
        'a repeated id counts twice: `["A", "A"]` against `{"A"}` gives 1.63; ragmetrics '
        "refuses duplicates by default",
        "10_bugs_from_real_projects.ipynb",
        "test_article_code_ndcg_exceeds_1_when_an_id_is_retrieved_twice",
    ),
    Erratum(
        6, "choosing k", '"fewer chunks to embed"', "fewer chunks to read",
        "chunks are embedded once, when the index is built, whatever k is; a query embeds "
        "only itself. A smaller k means fewer chunks to rerank and to put in the prompt",
        "05_choosing_k.ipynb", "test_k_does_not_change_what_is_embedded",
    ),
    Erratum(
        7, "k trade-off, the ranking", '8 chunks listed, chunk_19/chunk_77 "rank 9-10"',
        "ranks 9-10, two unnamed chunks before them",
        "as printed, chunk_19 and chunk_77 sit at ranks 7-8; the comments, and the article's "
        "nDCG@10, need ranks 9-10",
        "05_choosing_k.ipynb", "test_k_tradeoff_printed_list_puts_the_rank_9_10_chunks_at_ranks_7_8",
    ),
    Erratum(
        8, "k trade-off", "nDCG@5 = 0.63", "**0.5531**",
        "DCG@5 = 1 + 1/log2 3 = 1.6309; ideal DCG@5 with 5 relevant = 2.9485",
        "05_choosing_k.ipynb", "test_k_tradeoff_ndcg_at_5_is_0_553_not_0_63",
    ),
    Erratum(
        9, "k trade-off", "nDCG@25 = 0.78", "**0.8273**",
        "chunk_156 at rank 23 adds 1/log2 24 = 0.2181: 2.4391 / 2.9485",
        "05_choosing_k.ipynb", "test_k_tradeoff_ndcg_at_25_is_0_827_not_0_78",
    ),
    Erratum(
        10, "choosing k in practice", '"k=5: ... (5-10 chunks in prompt)"', "5 chunks",
        "k = 5 puts exactly 5 chunks in the prompt",
        "05_choosing_k.ipynb", "test_k_is_the_number_of_chunks_in_the_prompt",
    ),
    Erratum(
        11, "token budget", '"500 + 300 per chunk: k ≈ 4"', "depends on the unstated limit",
        "k = floor((L − 500) / 300): 5 for a 2,000-token limit; 4 needs 1,700 ≤ L ≤ 1,999",
        "05_choosing_k.ipynb", "test_token_budget_k_4_needs_a_limit_of_1700_to_1999",
    ),
    Erratum(
        12, "cancellation example", "DCG = 1.887, nDCG@10 = 0.885 (0.89)", "**1.8562, 0.8711**",
        "chunk 19 is at rank 6: its discount is log2 7 = 2.807, not log2 6",
        "06_worked_example_cancellation.ipynb",
        "test_cancellation_ndcg_at_10_article_used_wrong_discount",
    ),
    Erratum(
        13, "cancellation decision", '"answered from the top 5-6 chunks"', "the top 6",
        "Recall@5 = 0.667: the third relevant chunk is at rank 6",
        "06_worked_example_cancellation.ipynb", "test_cancellation_answerable_from_top_6_not_top_5",
    ),
)


def errata_markdown(link_prefix: str = "") -> str:
    """The errata as a Markdown table; notebooks are linked as ``link_prefix + name``.

    Notebook 00 shows ``errata_markdown()``; README shows
    ``errata_markdown("notebooks/")``.

    >>> print(errata_markdown().splitlines()[2])
    | 1 | summary of Recall@k | "did we find at least one in the top k?" | that is the hit rate | Recall@k is the *fraction* of relevant chunks in the top k; cancellation query at k = 1: hit rate 1.0, Recall@1 = 0.3333 | [01](01_recall_at_k.ipynb) |
    """
    lines = ["| # | where | the article says | right | why | notebook |",
             "|---|---|---|---|---|---|"]
    for e in ERRATA:
        link = f"[{e.notebook[:2]}]({link_prefix}{e.notebook})"
        lines.append(f"| {e.number} | {e.where} | {e.says} | {e.right} | {e.why} | {link} |")
    return "\n".join(lines)
