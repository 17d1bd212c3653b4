"""The token budget: how many retrieved chunks fit in the model's context.

The article's point: a retriever scored at k=10 is judged on chunks the prompt may never
hold. Compute the k the context allows and report Recall@that-k next to Recall@10.
"""

from __future__ import annotations

from ..validation import check_k

__all__ = ["chunks_that_fit"]


def chunks_that_fit(
    context_limit: int,
    *,
    prompt_tokens: int = 500,
    chunk_tokens: int = 300,
    answer_tokens: int = 0,
) -> int:
    r"""The number of whole chunks that fit in the context window.

    .. math:: k_{\mathrm{budget}} = \left\lfloor \frac{L - P - A}{C} \right\rfloor

    with context limit :math:`L`, prompt template :math:`P` (system message and question),
    tokens reserved for the answer :math:`A`, and tokens per chunk :math:`C`.

    Parameters
    ----------
    context_limit : int
        The model's context window, in tokens.
    prompt_tokens : int, default 500
        The prompt template without chunks (the article's example: 500).
    chunk_tokens : int, default 300
        Tokens per chunk (the article's example: 300).
    answer_tokens : int, default 0
        Tokens kept free for the model's answer.

    Returns
    -------
    int
        0 or more; 0 means not even one chunk fits.

    Examples
    --------
    The article says "you can fit k ≈ 4 chunks" but never states the context limit.
    With a 2,000-token limit the answer is 5; 4 needs a limit of 1,700 to 1,999 tokens.

    >>> chunks_that_fit(2000)
    5
    >>> chunks_that_fit(1700), chunks_that_fit(1999)
    (4, 4)
    >>> chunks_that_fit(8192, answer_tokens=1024)
    22
    """
    context_limit = check_k(context_limit, name="context_limit")
    chunk_tokens = check_k(chunk_tokens, name="chunk_tokens")
    for name, value in (("prompt_tokens", prompt_tokens), ("answer_tokens", answer_tokens)):
        if value != 0:
            check_k(value, name=name)
    return max(0, (context_limit - prompt_tokens - answer_tokens) // chunk_tokens)
