"""The people a completed contact search found, grouped by role, to pick and add to the
permanent contact list; then how many were added and why any were skipped."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from warmline import actions
from warmline.prospecting import ADD_CONTACTS, cost_notice, explain_skips
from warmline.store.people_found import FoundPerson, names_by_id, people_found
from warmline.store.rows import Op
from warmline.tui.clipboard import web_link
from warmline.tui.columns import Column
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.prospecting.common import Selection, confirm, mark, names_text
from warmline.tui.widgets.section_list import SectionList
from warmline.vocabulary import plural

ROLE_HEADINGS = {"decision-maker": "Decision-makers", "champion": "Champions", "influencer": "Influencers"}
GROUP_KEY = "role:"
IN_CONTACTS = "In contacts"
"""The column saying a person found is one of the company's contacts already (by the
cache's contacts, `warmline.store.people_found.already_contacts`): added, or there before."""


def person_name(person: FoundPerson) -> str:
    return person.name or "(no name)"


def add_outcome(op: Op | None, names: Mapping[str, str]) -> Text:
    """What became of an "add contacts" op: queued, refused, or added/skipped with reasons
    (naming the skipped as `names` does, the search's people by id)."""
    if op is None:
        return Text("")
    if op.state == "failed":
        return Text("Not added: ", style="bold red").append_text(plain(op.last_error or "refused", multiline=True))
    if op.state != "done":
        return Text("Adding… queued; the result shows once the service has it.", style="yellow")
    result = op.result or {}
    text = Text(f"Added {result.get('added', 0)}, skipped {result.get('skipped', 0)}.", style="bold")
    for reason in explain_skips(result.get("skipped_ids") or [], names):
        text.append("\n  skipped ")
        text.append_text(plain(reason))
    return text


class FoundContactsScreen(CockpitScreen):
    """A contact search's finds; space marks, a adds the marked ones."""

    DEFAULT_CSS = """
    FoundContactsScreen #people-table { height: 1fr; }
    FoundContactsScreen .people-result { height: auto; max-height: 10; padding: 0 1; border-top: solid $primary; }
    """

    SCREEN_TITLE = "People found"

    BINDINGS = [
        Binding("space", "toggle_mark", "Mark", id="people.mark"),
        Binding("a", "add", "Add marked", id="people.add"),
        Binding("o", "open_profile", "Open profile", id="people.open"),
    ]

    def __init__(self, job_key: int) -> None:
        super().__init__()
        self.job_key = job_key
        self.selection = Selection()
        self.add_op_id: str | None = None
        self.found: dict[str, FoundPerson] = {}

    def compose_body(self) -> ComposeResult:
        # The role headings only label groups: the cursor steps over them, so every row it
        # lands on (by keys, mouse or after a mark) is a person that space can mark.
        yield SectionList(
            ("", IN_CONTACTS, Column("Name"), Column("Title"), Column("Email"), Column("Profile")),
            header=True, heading_prefix=GROUP_KEY, id="people-table",
        )
        yield Static(id="people-result", classes="people-result")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#people-table", SectionList).focus()

    def reload(self) -> None:
        store = self.cockpit.store
        found = people_found(store, self.job_key)
        self.found = {str(p.id): p for p in found.people if p.id is not None}
        company = found.company_name if found.company_name is not None else f"company {found.company_id if found.job is not None else '?'}"
        title = Text(no_wrap=True).append("People found", style="bold")
        title.append(" at ")
        title.append_text(plain(company, "bold"))
        title.append(f" · {len(self.found)} · {len(self.selection)} marked")
        self.set_title_text(title)
        rows: list[tuple[str, list[Text]]] = []
        for group in found.groups:
            heading = ROLE_HEADINGS.get(group.role, safe_text(group.role).capitalize())
            rows.append((GROUP_KEY + group.role, [
                Text(""), Text(""), Text(f"{heading} ({len(group.people)})", style="bold underline"),
                Text(""), Text(""), Text(""),
            ]))
            for person in group.people:
                key = str(person.id)
                rows.append((key, [
                    mark(key in self.selection),
                    Text("yes", style="green") if person.id in found.in_contacts else Text(""),
                    plain(person_name(person)),
                    plain(person.title or ""),
                    plain(person.email or "", "dim"),
                    plain(person.social_url or "", "dim"),
                ]))
        self.query_one("#people-table", SectionList).fill(rows)
        result = add_outcome(store.get_op(self.add_op_id) if self.add_op_id else None, names_by_id(found.people))
        if not found.people:
            result = Text("This search found nobody.", style="dim")
        elif not result.plain:
            result = Text(f"{self.key('people.mark')} marks · {self.key('people.add')} adds the marked people"
                          " (each uses contact capacity of your plan)", style="dim")
        self.query_one("#people-result", Static).update(result)

    def _current(self) -> tuple[str, FoundPerson] | None:
        key = self.query_one("#people-table", SectionList).current_key
        if key is None or key not in self.found:
            return None
        return key, self.found[key]

    def action_toggle_mark(self) -> None:
        current = self._current()
        if current is None:
            return
        key, contact = current
        self.selection.toggle(key, person_name(contact))
        self.reload()
        self.query_one("#people-table", SectionList).action_cursor_down()

    def action_add(self) -> None:
        job = self.cockpit.store.get_job(self.job_key)
        if not len(self.selection) or job is None or job.remote_id is None:
            self.cockpit.notify_plain("Mark people first (space).", severity="warning")
            return
        ids = [int(key) for key in self.selection.keys]
        question = Text(f"Add {plural(len(ids), 'person', 'people')} to your contacts?\n").append_text(names_text(self.selection.labels))
        question.append(f"\n{cost_notice(ADD_CONTACTS, len(ids))}")
        remote_id = job.remote_id

        def add() -> None:
            try:
                self.add_op_id = self.cockpit.perform(actions.add_found_contacts, int(remote_id), ids)
            except ActionRefused as refused:
                self.cockpit.notify_plain(str(refused), severity="warning")
                return
            self.selection.clear()
            self.reload()

        confirm(self.cockpit, question, add)

    def action_open_profile(self) -> None:
        current = self._current()
        url = web_link(current[1].social_url) if current else None
        if url is None:
            self.cockpit.notify_plain("This person has no profile link to open.")
            return
        self.cockpit.open_url(url)
