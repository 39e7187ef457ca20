"""One saved company (what it is, its custom fields and research, its people, whether it
is in outreach) and one saved contact. Keys start the work that is done on a company."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from warmline import actions
from warmline.api.models import Company, Contact
from warmline.ops.kinds import JobKind
from warmline.prospecting import COMPANY_RESEARCH, CONTACT_SEARCH, cost_notice
from warmline.record_kinds import COMPANY_RECORDS, CONTACT_RECORDS, Model, Row
from warmline.store.company_page import CompanyPage, ResearchFindings, company_page
from warmline.store.contact_page import contact_page
from warmline.store.custom_fields import FieldValue
from warmline.store.rows import CompanyRow, ContactRow, Job
from warmline.tui.clipboard import web_link
from warmline.tui.hanging import hanging_lines
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import STYLES, CockpitScreen
from warmline.tui.screens.dialogs import LineDialog, confirm_lead_removal
from warmline.tui.screens.prospecting.common import add_to_outreach, confirm, found_by, start_job
from warmline.tui.screens.prospecting.directory import (
    REMOVE_FROM_OUTREACH,
    RecordEditing,
    record_bindings,
)
from warmline.tui.screens.prospecting.people import FoundContactsScreen
from warmline.tui.timefmt import relative


def shown_value(value: Any) -> str:
    """A custom field value as the rep reads it (lists joined, booleans as yes/no)."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(shown_value(v) for v in value)
    return safe_text(value)


def fields_text(fields: Sequence[FieldValue]) -> Text:
    """Custom fields as the read model orders and labels them, one a line."""
    text = Text()
    for field in fields:
        text.append("\n  ")
        text.append_text(plain(f"{field.label}: ", "bold"))
        text.append_text(plain(shown_value(field.value)))
    return text


def research_text(
    job: Job | None, findings: ResearchFindings | None, now: datetime, zone: tzinfo, research_key: str
) -> Text:
    """The company's latest deep research: its state, or its summary, facts and sources;
    `research_key` starts one (the rep's key)."""
    text = Text().append("Deep research", style="bold")
    if job is None:
        return text.append(f"\n  none yet; {research_key} researches this company (1 deep search)", style="dim")
    if job.status != "completed":
        text.append(f"\n  {safe_text(job.status)}")
        if job.progress is not None and job.active:
            text.append(f" {int(job.progress)}%")
        if job.error:
            text.append("\n  ")
            text.append_text(plain(job.error, "red"))
        return text
    text.append(f" · {relative(job.completed_at, now, zone)}", style="dim")
    if findings is None:
        return text.append("\n  no findings", style="dim")
    if findings.summary:
        text.append("\n  ")
        text.append_text(plain(findings.summary, multiline=True))
    for fact in findings.key_facts:
        text.append("\n  • ")
        text.append_text(plain(fact))
    if findings.sources:
        text.append("\n  Sources", style="bold")
    for source in findings.sources:
        text.append("\n    ")
        if source.title:
            text.append_text(plain(source.title, "italic"))
            text.append(" · ", style="dim")
        text.append_text(plain(source.url, "dim"))
    return text


class RecordPage(RecordEditing[Row, Model], CockpitScreen):
    """A page showing one company or contact: e edits it, n creates another (shown next),
    deleting it goes back to where the rep came from."""

    CSS_PATH = STYLES / "record_page.tcss"  # loaded when the first page is shown

    def records_changed(self, record_id: int, deleted: bool) -> None:
        if deleted:
            self.app.pop_screen()
            if isinstance(self.app.screen, CockpitScreen):
                self.app.screen.reload()
            return
        self.show_record(record_id)

    def show_record(self, record_id: int) -> None:
        """Show this record (the one just created, after n) from the cache."""
        raise NotImplementedError


class CompanyScreen(RecordPage[CompanyRow, Company]):
    """A saved company's page."""

    KIND = COMPANY_RECORDS

    DEFAULT_CSS = """
    CompanyScreen #company-page { padding: 0 1; }
    """

    SCREEN_TITLE = "Company"

    BINDINGS = [
        Binding("s", "contact_search", "Find people", id="company.contact_search"),
        Binding("p", "found_people", "People found", id="company.found_people"),
        Binding("R", "deep_research", "Deep research", id="company.deep_research"),
        Binding("t", "research", "Research run", id="company.research"),
        Binding("c", "add('cold')", "Add as cold", id="company.cold"),
        Binding("w", "add('warm')", "Add as warm", id="company.warm"),
        REMOVE_FROM_OUTREACH,
        Binding("o", "open_site", "Open website", id="company.open"),
        *record_bindings("company", "company", delete_keys="delete"),
    ]

    def __init__(self, company_id: int) -> None:
        super().__init__()
        self.company_id = company_id
        self.company: CompanyRow | None = None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="company-page"):
            yield Static(id="company-info", classes="detail-section")
            yield Static(id="company-outreach", classes="detail-section")
            yield Static(id="company-fields", classes="detail-section")
            yield Static(id="company-research", classes="detail-section")
            yield Static(id="company-contacts", classes="detail-section")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#company-page").focus()

    def editable_record(self) -> CompanyRow | None:
        return self.company

    def show_record(self, record_id: int) -> None:
        self.company_id = record_id
        self.reload()

    def _section(self, widget_id: str, text: Text) -> None:
        self.query_one(f"#{widget_id}", Static).update(hanging_lines(text))

    def lead_id(self) -> int | None:
        """The lead this company is in outreach as, if any (read from the cache now)."""
        return self.cockpit.store.lead_of_company(self.company_id)

    def reload(self) -> None:
        page = company_page(self.cockpit.store, self.company_id)
        self.company = page.company if page is not None else None
        if page is None:
            self.set_title_text(Text(f"Company {self.company_id} is not in the cache (deleted, or not synced yet)."))
            return
        company = page.company
        title = Text(no_wrap=True).append_text(plain(company.name, "bold"))
        if company.domain:
            title.append(" · ")
            title.append_text(plain(company.domain))
        self.set_title_text(title)
        self._show_info(company)
        self._show_outreach(page)
        fields = Text().append("Custom fields", style="bold")
        if page.fields:
            fields.append_text(fields_text(page.fields))
        else:
            fields.append(f"\n  none yet; {self.key('company.research')} runs a research template to fill them", style="dim")
        self._section("company-fields", fields)
        now, zone = self.cockpit.clock(), self.cockpit.zone
        self._section("company-research", research_text(page.research, page.findings, now, zone, self.key("company.deep_research")))
        self._show_contacts(page)

    def _show_info(self, company: CompanyRow) -> None:
        text = Text()
        for value in (company.industry, company.country, company.region, company.size and f"size {company.size}"):
            if value:
                text.append(" · " if text.plain else "")
                text.append_text(plain(value))
        if company.source:
            text.append("\nFound by: ", style="dim")
            text.append(found_by(company.source))
        if company.ai_tag:
            text.append("\nAI tag: ", style="dim")
            text.append_text(plain(company.ai_tag, "italic"))
        if company.tags:
            text.append("\nTags: ", style="dim")
            text.append_text(plain(", ".join(company.tags)))
        if company.description:
            text.append("\n")
            text.append_text(plain(company.description, "dim", multiline=True))
        self._section("company-info", text)

    def _show_outreach(self, page: CompanyPage) -> None:
        lead = page.lead
        text = Text().append("Outreach: ", style="bold")
        if lead is None:
            text.append(f"not a lead; {self.key('company.cold')} adds it as cold, {self.key('company.warm')} as warm",
                        style="dim")
        else:
            text.append(f"{lead.lead_status} lead · warming score {lead.warming_score}")
            text.append(f" · {self.key('company.remove_lead')} removes it from outreach", style="dim")
        self._section("company-outreach", text)

    def _show_contacts(self, page: CompanyPage) -> None:
        search, contacts = page.contact_search, page.contacts
        text = Text().append(f"People ({page.contact_total})", style="bold")
        if search is not None:
            text.append(f" · last search {safe_text(search.status)}", style="dim")
            if search.status == "completed":
                text.append(f"; {self.key('company.found_people')} picks from what it found", style="dim")
        if not contacts:
            text.append(f"\n  none saved; {self.key('company.contact_search')} searches the web for decision-makers,"
                        " champions, influencers", style="dim")
        for contact in contacts:
            text.append("\n  ")
            text.append_text(plain(contact.name or "(no name)", "bold"))
            for value in (contact.title, contact.role, contact.email):
                if value:
                    text.append(" · ")
                    text.append_text(plain(value))
        self._section("company-contacts", text)

    # -- acting ---------------------------------------------------------------------------

    def _company_name(self) -> str:
        return self.company.name if self.company is not None else f"company {self.company_id}"

    def action_contact_search(self) -> None:
        question = Text("Search the web for the people of ").append_text(plain(self._company_name(), "bold"))
        question.append(f"?\n{cost_notice(CONTACT_SEARCH)}")

        def start() -> None:
            error = start_job(self.cockpit, "contact search", actions.start_contact_search, self.company_id)
            if error:
                self.cockpit.notify_plain(error, severity="warning")
            self.reload()

        confirm(self.cockpit, question, start)

    def action_found_people(self) -> None:
        search = self.cockpit.store.latest_job(JobKind.CONTACT_SEARCH, self.company_id)
        if search is None or search.status != "completed":
            searching = f"has not been searched yet ({self.key('company.contact_search')} searches)"
            state = searching if search is None else f"search is {safe_text(search.status)}"
            self.cockpit.notify_plain(f"{self._company_name()}: {state}.")
            return
        self.app.push_screen(FoundContactsScreen(search.key))

    def action_deep_research(self) -> None:
        def submit(values: dict[str, str]) -> str | None:
            error = start_job(
                self.cockpit, "research", actions.start_company_research, self.company_id, values["focus"] or None
            )
            if error is None:
                self.reload()
            return error

        title = Text("Deep research of ").append_text(plain(self._company_name(), "bold"))
        title.append(f" · {cost_notice(COMPANY_RESEARCH)}")
        self.app.push_screen(LineDialog(title, submit, [("focus", "Focus (optional, e.g. expansion plans)", "")]))

    def action_research(self) -> None:
        self.cockpit.open_research([self.company_id], [self._company_name()])

    def action_add(self, status: str) -> None:
        add_to_outreach(self.cockpit, [self.company_id], [self._company_name()], status)

    def action_remove_lead(self) -> None:
        lead_id = self.lead_id()
        if lead_id is None:
            self.cockpit.notify_plain(f"{self._company_name()} is not in outreach.")
            return
        confirm_lead_removal(self.cockpit, lead_id, self._company_name(), self.reload)

    def action_open_site(self) -> None:
        domain = safe_text(self.company.domain).strip() if self.company is not None else ""
        url = web_link(domain if "://" in domain else f"https://{domain}") if domain else None
        if url is None:
            self.cockpit.notify_plain("This company has no website in the cache.")
            return
        self.cockpit.open_url(url)


class ContactScreen(RecordPage[ContactRow, Contact]):
    """A saved contact: who they are, how to reach them, their custom fields."""

    KIND = CONTACT_RECORDS

    DEFAULT_CSS = """
    ContactScreen #contact-page { padding: 0 1; }
    """

    SCREEN_TITLE = "Contact"

    BINDINGS = [Binding("o", "open_profile", "Open profile", id="contact.open"), *record_bindings("contact", "contact")]

    def __init__(self, contact_id: int) -> None:
        super().__init__()
        self.contact_id = contact_id
        self.contact: ContactRow | None = None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="contact-page"):
            yield Static(id="contact-info", classes="detail-section")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#contact-page").focus()

    def editable_record(self) -> ContactRow | None:
        return self.contact

    def show_record(self, record_id: int) -> None:
        self.contact_id = record_id
        self.reload()

    def reload(self) -> None:
        page = contact_page(self.cockpit.store, self.contact_id)
        self.contact = page.contact if page is not None else None
        if page is None:
            self.set_title_text(Text(f"Contact {self.contact_id} is not in the cache."))
            return
        contact = page.contact
        self.set_title_text(plain(contact.name or "(no name)", "bold"))
        text = Text()
        for label, value in (
            ("Title", contact.title), ("Role", contact.role), ("Company", page.company_name),
            ("Email", contact.email), ("Phone", contact.phone), ("Profile", contact.social_url),
            ("Tags", ", ".join(contact.tags) if contact.tags else None),
        ):
            if value:
                text.append(f"{label}: ", style="bold")
                text.append_text(plain(value))
                text.append("\n")
        if page.fields:
            text.append("Custom fields", style="bold")
            text.append_text(fields_text(page.fields))
        self.query_one("#contact-info", Static).update(hanging_lines(text))

    def action_open_profile(self) -> None:
        url = web_link(self.contact.social_url) if self.contact is not None else None
        if url is None:
            self.cockpit.notify_plain("This contact has no profile link to open.")
            return
        self.cockpit.open_url(url)
