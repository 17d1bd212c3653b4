"""Teaching material: the article's examples as data, and tables that explain a metric."""

from .ndcg_table import ndcg_table

__all__ = ["ndcg_table"]
