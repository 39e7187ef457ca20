"""The review's file formats by name, for the command line (`--format`) and tests."""

from __future__ import annotations

from collections.abc import Callable

from warmline.review.data import render_json
from warmline.review.html import render_html
from warmline.review.markdown import render_markdown
from warmline.review.model import Review
from warmline.review.table import render_csv

RENDERERS: dict[str, Callable[[Review], str]] = {
    "md": render_markdown,
    "html": render_html,
    "csv": render_csv,
    "json": render_json,
}
FORMATS = tuple(RENDERERS)
