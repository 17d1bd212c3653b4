"""Interactive widgets (JupyterLab, Notebook 7, Voila): they wire views to pure functions.

Needs the ``lab`` extra (ipywidgets, anywidget). Every number a widget shows is computed in
Python by ragmetrics; the browser only draws and reports the learner's moves.

Every widget is built on one layer (:mod:`ragmetrics.widgets.base`: the shared front-end
kit and theme; :mod:`ragmetrics.widgets.controls`: labelled controls and plot images with
text alternatives), so each works by keyboard alone with focus that survives redraws,
says what changed in a polite live region, and reads in light and dark themes.
"""

from .base import root_widgets
from .board import RankingBoard
from .chunking_explorer import ChunkingExplorer
from .comparison_explorer import ComparisonExplorer
from .exercise import ExerciseWidget
from .explorers import BudgetCalculator, KExplorer, TrapsGallery
from .pr_explorer import PrecisionRecallExplorer

__all__ = ["BudgetCalculator", "ChunkingExplorer", "ComparisonExplorer", "ExerciseWidget",
           "KExplorer", "PrecisionRecallExplorer", "RankingBoard", "TrapsGallery",
           "root_widgets"]
