"""Warmline: a keyboard-driven, offline-first outreach cockpit for the Sales Intelligence Service."""

__version__ = "0.1.0"
