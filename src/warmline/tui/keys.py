"""The keyboard reference of every screen, as Markdown, from the bindings themselves.

`python -m warmline.tui.keys` prints it (the user guide's key table is generated from
it), so the documented keys cannot drift from the code. A keymap (binding id -> keys,
as in the config file's [keys] table) shows the rep's own keys.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import replace

from textual.binding import Binding, BindingType
from textual.keys import format_key
from textual.widget import Widget

from warmline.tui.app_bindings import APP_BINDINGS
from warmline.tui.browser import BROWSER_KEYS_NOTE
from warmline.tui.screens.agenda import AgendaScreen
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.contact_pick import ContactPickDialog
from warmline.tui.screens.dialogs import ConfirmDialog, FormDialog, TextDialog
from warmline.tui.screens.follow_up_dialogs import AddFollowUpDialog, SnoozeDialog
from warmline.tui.screens.help import HelpScreen
from warmline.tui.screens.jobs import JobsScreen
from warmline.tui.screens.lead_detail import CompetitorsTable, LeadDetailScreen
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.screens.outbox import OutboxScreen
from warmline.tui.screens.prospecting.company import CompanyScreen, ContactScreen
from warmline.tui.screens.prospecting.directory import CompaniesScreen, ContactsScreen
from warmline.tui.screens.prospecting.export import ExportDialog
from warmline.tui.screens.prospecting.hub import ProspectingScreen
from warmline.tui.screens.prospecting.lookup import EarlierLookups, FilterInput, LookupScreen
from warmline.tui.screens.prospecting.people import FoundContactsScreen
from warmline.tui.screens.prospecting.research import RunResultsScreen, TemplatesScreen
from warmline.tui.screens.prospecting.searches import DeepSearchDialog, FoundCompaniesScreen
from warmline.tui.screens.recommendations import RecommendationsScreen
from warmline.tui.screens.review import ReviewScreen
from warmline.tui.screens.search import SearchScreen
from warmline.tui.screens.today import TodayScreen
from warmline.tui.widgets.tables import RowTable
from warmline.tui.widgets.virtual_list import VirtualList


def _sections() -> list[tuple[str, list[BindingType]]]:
    return [
        ("Everywhere", [*APP_BINDINGS, *CockpitScreen.BINDINGS]),
        ("Today (the start screen, H)", list(TodayScreen.BINDINGS)),
        ("Agenda (the week ahead, W)", list(AgendaScreen.BINDINGS)),
        ("Week in review (the week behind, V)", list(ReviewScreen.BINDINGS)),
        ("Lead list", [*LeadListScreen.BINDINGS, *VirtualList.BINDINGS]),
        ("Lead detail", [*LeadDetailScreen.BINDINGS, *_within(CompetitorsTable)]),
        ("Recommendations queue", list(RecommendationsScreen.BINDINGS)),
        ("Job monitor", list(JobsScreen.BINDINGS)),
        ("Outbox", list(OutboxScreen.BINDINGS)),
        ("Search everything (ctrl+k, or / where it does not filter a list)", list(SearchScreen.BINDINGS)),
        ("Prospecting", list(ProspectingScreen.BINDINGS)),
        ("Company lookup", [*LookupScreen.BINDINGS, *FilterInput.BINDINGS, *EarlierLookups.BINDINGS]),
        ("Company deep search", _form(DeepSearchDialog)),
        ("Companies found by a deep search", list(FoundCompaniesScreen.BINDINGS)),
        ("Companies", [*CompaniesScreen.BINDINGS, *VirtualList.BINDINGS]),
        ("A company's page", list(CompanyScreen.BINDINGS)),
        ("People found by a contact search", list(FoundContactsScreen.BINDINGS)),
        ("Contacts", [*ContactsScreen.BINDINGS, *VirtualList.BINDINGS]),
        ("A contact's page", list(ContactScreen.BINDINGS)),
        ("Research templates", list(TemplatesScreen.BINDINGS)),
        ("Research results", list(RunResultsScreen.BINDINGS)),
        ("Export", _form(ExportDialog)),
        ("Tables (jobs, outbox, prospecting, sections of a lead)", list(RowTable.BINDINGS)),
        ("Forms", [*FormDialog.BINDINGS, *TextDialog.BINDINGS]),
        ("Snoozing a follow-up (Z)", list(SnoozeDialog.BINDINGS)),
        ("Adding a follow-up by hand (f)", list(AddFollowUpDialog.BINDINGS)),
        ("Adding a key contact (A on a lead)", list(ContactPickDialog.BINDINGS)),
        ("Confirmation", list(ConfirmDialog.BINDINGS)),
        ("Help", list(HelpScreen.BINDINGS)),
    ]


def _form(dialog: type[FormDialog]) -> list[BindingType]:
    """A form's keys: its own (a send key named for what it does), then the forms' shared
    ones it does not redefine (same id)."""
    own = list(dialog.BINDINGS)
    ids = {binding.id for binding in own if isinstance(binding, Binding)}
    return own + [b for b in FormDialog.BINDINGS if not (isinstance(b, Binding) and b.id in ids)]


def _within(widget: type[Widget]) -> list[BindingType]:
    """The keys of a part of a screen, which work while it has focus, saying which part."""
    place = getattr(widget, "PLACE", widget.__name__)
    return [
        replace(binding, description=f"{binding.description} (in {place})") if isinstance(binding, Binding) else binding
        for binding in widget.BINDINGS
    ]


def _keys(binding: Binding, keymap: dict[str, str]) -> str:
    keys = keymap.get(binding.id or "", binding.key)
    return " / ".join(f"`{_display(key.strip())}`" for key in keys.split(","))


def _display(key: str) -> str:
    """`question_mark` as `?`, `ctrl+b` kept: what the rep reads on the keycap."""
    *modifiers, name = key.split("+")
    shown = format_key(name) if len(name) > 1 and name not in ("space", "enter", "escape", "home", "end") else name
    return "+".join([*modifiers, shown])


def _rows(bindings: Iterable[BindingType], keymap: dict[str, str]) -> list[str]:
    rows = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description:
            rows.append(f"| {_keys(binding, keymap)} | {binding.description} | `{binding.id or ''}` |")
    return rows


def binding_ids() -> set[str]:
    """Every binding id the cockpit has, i.e. what a [keys] entry may name."""
    return {
        binding.id
        for _, bindings in _sections()
        for binding in bindings
        if isinstance(binding, Binding) and binding.id
    }


def unknown_ids(keymap: dict[str, str]) -> list[str]:
    """The ids of a keymap that name no binding (a typo would otherwise do nothing)."""
    known = binding_ids()
    return sorted(binding_id for binding_id in keymap if binding_id not in known)


def keyboard_reference(keymap: dict[str, str] | None = None) -> str:
    """Markdown tables of every binding of every screen, with ids for remapping."""
    keymap = keymap or {}
    lines = ["Press `?` on any screen for its keys, `ctrl+p` for the command palette.", "", BROWSER_KEYS_NOTE, ""]
    for title, bindings in _sections():
        lines += [f"### {title}", "", "| Keys | Action | Id |", "|---|---|---|", *_rows(bindings, keymap), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(keyboard_reference())
