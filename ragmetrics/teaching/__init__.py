"""Teaching material: the article's worked examples as data, the token budget, the traps
where one metric lies, and the nDCG table that explains a metric rank by rank.

The data files live once, in the repository's ``data/`` folder, and inside an installed
wheel (:mod:`~ragmetrics.teaching.datafiles`).
"""

from .budget import chunks_that_fit
from .examples import Example, example_names, load_example
from .ndcg_steps import ndcg_table
from .traps import Trap, trap_scenarios

__all__ = ["Example", "Trap", "chunks_that_fit", "example_names", "load_example", "ndcg_table",
           "trap_scenarios"]
