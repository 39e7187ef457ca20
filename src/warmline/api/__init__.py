"""The wire: one async client for every operation of the Sales Intelligence Service.

Never imports Textual or Rich (enforced by tests/test_layering.py).
"""

from warmline.api import errors, limits

__all__ = ["errors", "limits"]
