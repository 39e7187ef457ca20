"""Warmline: a keyboard-driven, offline-first outreach cockpit for the Sales Intelligence Service."""

__version__ = "0.1.0"

# Before anything imports httpx: keeps Rich out of the core layers (see the module).
from warmline import _httpx_cli_guard  # noqa: E402, F401
