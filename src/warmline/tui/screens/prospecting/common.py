"""What the prospecting screens share: a selection of rows, asking before spending plan
quota, queueing a job start, and putting companies into outreach."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec

from rich.text import Text

from warmline import actions
from warmline.store.outreach import outreach_status
from warmline.store.sync_vocabulary import SyncState
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.dialogs import ConfirmDialog
from warmline.vocabulary import plural

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.store import Store
    from warmline.tui.context import Cockpit

P = ParamSpec("P")

SELECTED_MARK = "●"

LEAD_COLUMN = "Lead"
"""The column of the prospecting tables saying a company is in outreach already: the
status of its lead (cold, warm), blank when there is none."""

FOUND_BY = {"deep_search": "Deep search", "lookup": "Lookup", "manual": "By hand"}
"""How a company came into the list, in words. A deep search's AI tag is not mixed in: it
is shown apart, as the tag it is (the found companies' AI tag column, the company page's
"AI tag" line)."""


def found_by(source: str | None) -> str:
    """A company's `source` in words (`deep_search` -> `Deep search`); an unknown one made
    readable the same way."""
    if not source:
        return ""
    return FOUND_BY.get(source) or safe_text(source).replace("_", " ").capitalize()


def lead_cell(status: str | None) -> Text:
    """The Lead column's cell: the company's lead status, blank when not in outreach."""
    return plain(status or "", "green")


class Selection:
    """Rows the rep marked with space, in the order marked, with a label for each."""

    def __init__(self) -> None:
        self._labels: dict[Any, str] = {}

    def toggle(self, key: Any, label: str) -> bool:
        """Mark or unmark `key`; True when it is now marked."""
        if key in self._labels:
            del self._labels[key]
            return False
        self._labels[key] = label
        return True

    def __contains__(self, key: Any) -> bool:
        return key in self._labels

    def __len__(self) -> int:
        return len(self._labels)

    @property
    def keys(self) -> list[Any]:
        return list(self._labels)

    @property
    def labels(self) -> list[str]:
        return list(self._labels.values())

    def clear(self) -> None:
        self._labels.clear()


def mark(selected: bool) -> Text:
    return Text(SELECTED_MARK if selected else " ", style="bold cyan")


def names_text(labels: Iterable[str], limit: int = 5) -> Text:
    """A few names (service text, kept literal), and how many more."""
    labels = list(labels)
    text = Text()
    for index, label in enumerate(labels[:limit]):
        text.append(", " if index else "")
        text.append_text(plain(label, "bold"))
    if len(labels) > limit:
        text.append(f" and {len(labels) - limit} more")
    return text


def reachable(cockpit: Cockpit) -> bool:
    """Whether the service may be reachable now (not known offline, key not refused)."""
    return cockpit.sync_status.state not in (SyncState.OFFLINE, SyncState.AUTH_FAILED)


def service_client(cockpit: Cockpit) -> ServiceClient | None:
    """The sync engine's client for online-only work; None while there is no engine (not
    built yet, or sync is off) or the service is known to be out of reach."""
    if cockpit.sync is None or not reachable(cockpit):
        return None
    return cockpit.sync.client


def confirm(cockpit: Cockpit, question: Text, then: Callable[[], object]) -> None:
    """Ask `question` (y/n); run `then` on yes. Used before anything that spends quota."""

    def answered(yes: bool | None) -> None:
        if yes:
            then()

    cockpit.push_screen(ConfirmDialog(question), answered)


def perform(
    cockpit: Cockpit, action: Callable[Concatenate[Store, P], object], *args: P.args, **kwargs: P.kwargs
) -> str | None:
    """Run an action; the refusal in the rep's words, or None once it is queued."""
    try:
        cockpit.perform(action, *args, **kwargs)
    except ActionRefused as refused:
        return str(refused)
    return None


def start_job(
    cockpit: Cockpit, what: str, action: Callable[Concatenate[Store, P], object], *args: P.args, **kwargs: P.kwargs
) -> str | None:
    """Queue a job start and say where it can be followed; the refusal, or None."""
    error = perform(cockpit, action, *args, **kwargs)
    if error is None:
        online = cockpit.sync_status.state in (SyncState.ONLINE, SyncState.SYNCING)
        where = "is starting" if online else "is queued; starts when online"
        jobs, prospecting = cockpit.key_of("app.jobs"), cockpit.key_of("app.prospecting")
        cockpit.notify_plain(f"The {what} {where}. Follow it in the job monitor ({jobs}) or prospecting ({prospecting}).")
    return error


def add_to_outreach(cockpit: Cockpit, company_ids: list[int], labels: list[str], status: str) -> None:
    """Ask, then queue the companies as cold (social warming) or warm (nurturing) leads.

    Companies the cache has as leads already are left out, by name: the spec does not say
    what adding one does (the sandbox skips it; another service may refuse the request),
    and adding is no way to change a lead's status."""
    if not company_ids:
        cockpit.notify_plain("Mark companies first (Mark, in the key bar).", severity="warning")
        return
    leads = outreach_status(cockpit.store, company_ids)
    named = list(zip(company_ids, labels, strict=True))
    adding = [(company_id, label) for company_id, label in named if company_id not in leads]
    left_out = [label for company_id, label in named if company_id in leads]
    if not adding:
        cockpit.notify_plain(
            f"{left_out[0]} is already a lead; change its status on the lead's page." if len(left_out) == 1
            else f"The {len(left_out)} marked companies are already leads; change a lead's status on its page.",
            severity="warning",
        )
        return
    company_ids = [company_id for company_id, _ in adding]
    one = len(company_ids) == 1
    as_what = f"a {status} lead" if one else f"{status} leads"
    question = Text().append(f"Add {plural(len(company_ids), 'company', 'companies')} to outreach as {as_what}?\n")
    question.append_text(names_text(label for _, label in adding))
    if left_out:
        question.append(f"\nLeft out, already {'a lead' if len(left_out) == 1 else 'leads'}: ")
        question.append_text(names_text(left_out))

    def add() -> None:
        error = perform(cockpit, actions.add_to_outreach, company_ids, status)
        if error:
            cockpit.notify_plain(error, severity="warning")
        else:
            queued = plural(len(company_ids), "company", "companies")
            appear = "it appears" if one else "they appear"
            cockpit.notify_plain(f"Queued {queued} as {as_what}; {appear} in the lead list ({cockpit.key_of('app.leads')}).")

    confirm(cockpit, question, add)
