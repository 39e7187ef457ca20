"""The prospecting screens: feeding the pipeline without leaving the terminal.

A rep finds companies (instant lookup, deep search), the people in them (contact
search), researches them (research templates, per-company deep research), browses the
saved companies and contacts, and moves companies into outreach. Every operation that
spends plan quota says what it costs before it is sent. Screens are imported on first
use: none of this is needed to paint the lead list.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen


def prospecting_screens() -> dict[str, type[Screen[Any]]]:
    """The screens `WarmlineApp.action_open` can go to by name, imported on first use."""
    from warmline.tui.screens.prospecting.directory import CompaniesScreen, ContactsScreen
    from warmline.tui.screens.prospecting.export import ExportDialog
    from warmline.tui.screens.prospecting.hub import ProspectingScreen
    from warmline.tui.screens.prospecting.lookup import LookupScreen
    from warmline.tui.screens.prospecting.research import TemplatesScreen
    from warmline.tui.screens.prospecting.searches import DeepSearchDialog

    return {
        "prospecting": ProspectingScreen,
        "companies": CompaniesScreen,
        "contacts": ContactsScreen,
        "lookup": LookupScreen,
        "deep_search": DeepSearchDialog,
        "research": TemplatesScreen,
        "export": ExportDialog,
    }
