"""What the rep reads for each kind of job (a search, a research run, a scan, a generation):
the one table where a job's `kind` becomes words, for the cockpit's job monitor, prospecting
hub and Today page and for the command line (`warmline jobs`, `warmline today`).

A module of its own, importing nothing, like `activity_names`, so a cache-only command can
name jobs without loading Textual, the actions or the HTTP stack. `--json` keeps the raw
kind: scripts match on it.
"""

from __future__ import annotations

from typing import NamedTuple


class KindName(NamedTuple):
    """A job kind in words: `short` for a Kind column (the job monitor, the prospecting
    hub, `warmline jobs`: whole at 80 columns, at most `KIND_WIDTH` cells), `full` for
    sentences and titles ("Company deep search is running")."""

    short: str
    full: str


KIND_NAMES: dict[str, KindName] = {
    "deep_search": KindName("Deep search", "Company deep search"),
    "company_research": KindName("Research", "Company research"),
    "contact_search": KindName("People search", "Contact search"),
    "research_run": KindName("Research run", "Research run"),
    "signal_scan": KindName("Signal scan", "Signal scan"),
    "recommendations": KindName("Recs", "Recommendations"),
    "generate_recommendations": KindName("Recs", "Recommendations"),
}
"""The one table of job kinds in words, for every place that lists jobs."""
KIND_WIDTH = max(len(name.short) for name in KIND_NAMES.values())


def kind_label(kind: str) -> str:
    """The kind as a sentence names it ("Company deep search"); an unknown one in words."""
    name = KIND_NAMES.get(kind)
    return name.full if name is not None else kind.replace("_", " ").capitalize()


def kind_short(kind: str) -> str:
    """The kind as a Kind column shows it ("Deep search"); an unknown one in words."""
    name = KIND_NAMES.get(kind)
    return name.short if name is not None else kind.replace("_", " ").capitalize()
