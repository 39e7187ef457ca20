"""Queued operations, each in one place: its kind (`kinds`), and its spec (`specs`).
Core code: no Textual, no Rich."""
