"""Sphinx configuration of the ragmetrics book (``make docs``; see docs/build.py).

The notebooks are rendered from their committed outputs (MyST-NB, ``nb_execution_mode =
"off"``): nothing runs at build time, and nothing is fetched, at build time or when the
pages are read (MathJax is served from the site itself). A widget's live view needs a
kernel, so the book shows each widget's static fallback (its ``text/html``), not the
widget-view output.
"""

from __future__ import annotations

project = "ragmetrics"
author = "The ragmetrics developers"
copyright = "the ragmetrics developers"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    # MathJax 3 copied into the site (_static/mathjax): the formulas render offline too.
    "sphinx-mathjax-offline",
]

root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

# The notebooks: their stored outputs, never executed here.
nb_execution_mode = "off"
# Widgets: the static fallback (text/html), not the widget view (it needs a kernel and a
# CDN-hosted widget manager).
nb_mime_priority_overrides = [
    ("html", "application/vnd.jupyter.widget-view+json", None),
    ("html", "application/vnd.jupyter.widget-state+json", None),
]
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3

# The API reference: a page per public name, from its numpydoc docstring.
autosummary_generate = True
autodoc_default_options = {"members": False}
autodoc_typehints = "description"
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False

html_theme = "sphinx_book_theme"
html_title = "ragmetrics: the book"
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "home_page_in_toc": True,
}
# The book's own CSS (docs/_static, copied into the sources by docs/build.py): wide tables
# scroll inside the text column.
html_static_path = ["_static"]
html_css_files = ["ragmetrics-book.css"]
html_last_updated_fmt = None
html_copy_source = False
html_show_sourcelink = False
# MyST-NB writes the notebooks' images to OUTPUT/../jupyter_execute before copying them into
# the site (build/jupyter_execute for make docs); nothing is executed there.


def _absolute_values_as_text(app, what, name, obj, options, lines):
    """``|0.05|`` in a docstring is an absolute value, not a reStructuredText substitution."""
    import re

    for i, line in enumerate(lines):
        lines[i] = re.sub(r"(?<![\\|\w`])\|(-?\d+(?:\.\d+)?)\|(?![\w|`])", r"\\|\1\\|", line)


def setup(app):
    app.connect("autodoc-process-docstring", _absolute_values_as_text)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
