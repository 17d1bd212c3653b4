"""Interactive widgets (JupyterLab, Notebook 7, Voila): they wire views to pure functions.

Needs the ``lab`` extra (ipywidgets, anywidget). Every number a widget shows is computed in
Python by ragmetrics; the browser only draws and reports the learner's moves.
"""

from .board import RankingBoard

__all__ = ["RankingBoard"]
