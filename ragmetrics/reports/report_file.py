"""A report written to a file, as HTML or Markdown by the file's extension, atomically."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputValueError
from .html_report import to_html
from .markdown_report import to_markdown
from .output_files import write_atomic

if TYPE_CHECKING:  # annotations only: a Comparison imports its renderers when called
    from ..comparison import Comparison

__all__ = ["REPORT_FORMATS", "write_report"]

#: Report formats by file extension.
REPORT_FORMATS = {".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown"}


def write_report(comparison: Comparison, path, *, title: str = "Retrieval evaluation") -> Path:
    """Write the report to ``path``, as HTML (``.html``, ``.htm``) or Markdown (``.md``).

    The file is written atomically (:func:`ragmetrics.reports.output_files.write_atomic`):
    a failure mid-write leaves the previous file untouched.
    """
    kind = REPORT_FORMATS.get(Path(path).suffix.lower())
    if kind is None:
        known = ", ".join(REPORT_FORMATS)
        raise InputValueError(
            f"cannot tell the report format of {os.fspath(path)!r} from its extension; "
            f"use one of {known}"
        )
    render = to_html if kind == "html" else to_markdown
    text = render(comparison, title=title)
    return write_atomic(path, text)
