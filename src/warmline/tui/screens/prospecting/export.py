"""Export leads, companies or contacts from the cache to a CSV or JSON file: what a rep
pastes into a spreadsheet. The file is written off the event loop (100,000 companies
take a moment) and replaced only once complete."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_documents_dir
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Label, RadioSet

from warmline.exporting import export_to_file
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.dialogs import FormDialog, send_binding
from warmline.tui.widgets.toggles import ClearRadioButton

if TYPE_CHECKING:
    from warmline.tui.context import Cockpit

KINDS = ("leads", "companies", "contacts")
FORMATS = ("csv", "json")
STATUSES = ("all", "cold", "warm")


def export_folder() -> Path:
    """The rep's Documents folder if there is one, else the home folder: where a rep looks
    for a file, not the directory the cockpit happened to be started in."""
    documents = Path(user_documents_dir())
    return documents if documents.is_dir() else Path.home()


def default_path(kind: str, fmt: str, status: str) -> str:
    """`warm-leads.csv` in the rep's Documents folder (`export_folder`)."""
    prefix = f"{status}-" if kind == "leads" and status != "all" else ""
    return str(export_folder() / f"{prefix}{kind}.{fmt}")


def radio_set(options: tuple[str, ...], widget_id: str, chosen: str) -> RadioSet:
    return RadioSet(*(ClearRadioButton(option, value=option == chosen) for option in options), id=widget_id, compact=True)


class ExportDialog(FormDialog):
    """What to export, in which format, to which file; ctrl+s writes it."""

    DEFAULT_CSS = """
    ExportDialog Horizontal { height: auto; }
    ExportDialog RadioSet, ExportDialog .export-heading { width: 1fr; margin-right: 1; }
    """

    BINDINGS = [send_binding("Export")]

    def __init__(self) -> None:
        super().__init__(Text("Export from the cache"), self._export, hint="{send} or enter export · {cancel} cancel")
        self._default = ""

    def compose_fields(self) -> ComposeResult:
        kind, status = self._opened_over()
        self._default = default_path(kind, FORMATS[0], status)
        with Horizontal():
            for heading in ("What", "Format", "Leads (status)"):
                yield Label(heading, classes="export-heading")
        with Horizontal():
            yield radio_set(KINDS, "export-kind", kind)
            yield radio_set(FORMATS, "export-format", FORMATS[0])
            status_set = radio_set(STATUSES, "export-status", status)
            status_set.disabled = kind != "leads"
            yield status_set
        yield Label("File")
        yield Input(self._default, id="export-path", select_on_focus=False)  # typing edits, never replaces

    def _opened_over(self) -> tuple[str, str]:
        """What the screen under the dialog lists (`CockpitScreen.export_choice`): X on the
        warm leads offers the warm leads, on the companies the companies."""
        stack = self.app.screen_stack
        below = stack[-2] if len(stack) > 1 and stack[-1] is self else None
        kind, status = below.export_choice() if isinstance(below, CockpitScreen) else (KINDS[0], STATUSES[0])
        return (kind if kind in KINDS else KINDS[0]), (status if status in STATUSES else STATUSES[0])

    def on_mount(self) -> None:
        """The path first: the choices above are already right for the usual export."""
        self.query_one("#export-path", Input).focus()

    def _chosen(self, widget_id: str, options: tuple[str, ...]) -> str:
        index = self.query_one(f"#{widget_id}", RadioSet).pressed_index
        return options[index] if index >= 0 else options[0]

    @on(RadioSet.Changed)
    def _choice_changed(self) -> None:
        values = self.values()
        self.query_one("#export-status", RadioSet).disabled = values["kind"] != "leads"
        path = self.query_one("#export-path", Input)
        if path.value == self._default:  # follow the choice until the rep names a file
            self._default = default_path(values["kind"], values["format"], values["status"])
            path.value = self._default

    @on(Input.Submitted, "#export-path")
    def _submitted(self) -> None:
        self.action_send()

    def values(self) -> dict[str, str]:
        return {
            "kind": self._chosen("export-kind", KINDS),
            "format": self._chosen("export-format", FORMATS),
            "status": self._chosen("export-status", STATUSES),
            "path": self.query_one("#export-path", Input).value.strip(),
        }

    def _export(self, values: dict[str, str]) -> str | None:
        if not values["path"]:
            return "name the file to write"
        target = Path(values["path"]).expanduser()
        if not target.parent.is_dir():
            return f"there is no folder {target.parent}"
        if target.is_dir():
            return f"{target} is a folder; name a file in it"
        status = values["status"] if values["kind"] == "leads" and values["status"] != "all" else None
        write_export(self.cockpit, values["kind"], values["format"], target, status)
        return None


def write_export(cockpit: Cockpit, kind: str, fmt: str, target: Path, status: str | None) -> None:
    """Write the export in a thread; say how many rows went where, or why it failed. In a
    browser the file is offered as a download too (`Cockpit.offer_download`)."""
    def run() -> None:
        try:
            count = export_to_file(cockpit.store, kind, fmt, target, status)
        except OSError as exc:
            cockpit.call_from_thread(cockpit.notify_plain, f"Export failed: {exc}", severity="error")
            return
        cockpit.call_from_thread(exported, cockpit, f"{count:,} {status} {kind}" if status else f"{count:,} {kind}", target)

    cockpit.run_worker(run, thread=True, name="export", exit_on_error=False)


def exported(cockpit: Cockpit, what: str, target: Path) -> None:
    offered = cockpit.offer_download(target)
    cockpit.notify_plain(f"Exported {what} to {target}." + (" Your browser downloads it too." if offered else ""))
