"""Every command's output under a corpus of hostile names (issue #11, item 3).

The service's data (companies, leads, contacts, notes, activities, monitoring pages,
recommendations, competitors, templates, field schemas, lookup results) and the cache's
own text (a failed op's message, a job's error and found contacts) are all replaced by
text carrying terminal escapes: OSC 52 (writes the clipboard), OSC 8 (plants a link),
`ESC[2J`, the C1 controls CSI/ST/OSC, CR, LF, TAB, RLO, NUL and DEL. Then every command of
the command tree, found by walking it (so a new command fails here until it is given
arguments), runs online against the poisoned sandbox and again offline, with references
that resolve and references that match several leads or companies. No stdout or stderr
may carry a control character other than a line feed, or a bidi control.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result
from fastapi import FastAPI

from support.cli_sandbox import configure, fast_polls, make_sandbox, open_store, serve
from warmline.cli import main

PAYLOADS = (
    "\x1b]52;c;cHduZWQ=\x07",  # OSC 52: set the clipboard
    "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\",  # OSC 8: a hyperlink
    "\x1b[2J",  # clear the screen
    "\x9b31m",  # C1 CSI
    "\x9c",  # C1 ST
    "\x9d0;pwned\x9c",  # C1 OSC: set the window title
    "\rCR",
    "\nLF forged row",
    "\tTAB",
    "\u202eRLO",
    "\x00NUL",
    "\x7fDEL",
)
HOSTILE = "".join(PAYLOADS)
# What may never reach the terminal: C0 but LF, DEL, C1, the bidi controls, line separators.
LEAK = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]")
AMBIGUOUS = "hostile"  # the start of every poisoned company name: matches several


def hostile(label: object) -> str:
    return f"Hostile {label} {HOSTILE}"


def poison_service(app: FastAPI) -> None:
    """Every text the service sends that a command may print becomes hostile."""
    tag = json.dumps([f"tag {HOSTILE}"])
    fields = json.dumps({f"key{HOSTILE}": HOSTILE, "plain": f"value {HOSTILE}"})
    with app.state.db.transaction() as conn:
        conn.execute("UPDATE companies SET name = 'Hostile ' || id || ' ' || ?, description = ?, industry = ?,"
                     " ai_tag = ?, tags = ?, custom_fields = ?", (HOSTILE, HOSTILE, HOSTILE, HOSTILE, tag, fields))
        conn.execute("UPDATE directory SET name = 'Hostile ' || id || ' ' || ?, description = ?, industry = ?",
                     (HOSTILE, HOSTILE, HOSTILE))
        conn.execute("UPDATE contacts SET first_name = ?, last_name = ?, title = ?, tags = ?",
                     (hostile("first"), HOSTILE, HOSTILE, tag))
        conn.execute("UPDATE company_fields SET name = ?", (HOSTILE,))
        conn.execute("UPDATE research_templates SET name = 'Hostile ' || id || ' ' || ?, description = ?", (HOSTILE, HOSTILE))
        conn.execute("UPDATE outreach_pages SET label = ?", (HOSTILE,))
        conn.execute("UPDATE outreach_recommendations SET suggested_comment = ?, engagement_reason = ?,"
                     " source_page_label = ?", (HOSTILE, HOSTILE, HOSTILE))
        conn.execute("UPDATE outreach_touchpoints SET description = ?", (HOSTILE,))
        conn.execute("UPDATE outreach_notes SET content = ?", (HOSTILE,))
        conn.execute("UPDATE outreach_competitors SET name = ?, scan_summary = ?", (HOSTILE, HOSTILE))
        conn.execute("UPDATE outreach_leads SET closed_reason = ?", (HOSTILE,))


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


def leaves(group: click.Group, ctx: click.Context, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every runnable path of the command tree: leaf commands, and groups that run alone."""
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        path = (*prefix, name)
        if isinstance(command, click.Group):
            if command.invoke_without_command:
                yield path
            yield from leaves(command, ctx, path)
        else:
            yield path


# Not run: they start servers or the cockpit, and print no service text.
NOT_RUN = {("demo",), ("sandbox",), ("web",)}


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A poisoned sandbox, a cache synced from it, and the ids the commands need."""
    app = make_sandbox(tmp_path)
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    configure(monkeypatch, data_dir)
    fast_polls(monkeypatch)
    serve(monkeypatch, app)
    # A completed contact search first: its people are then poisoned in the cache.
    with app.state.db.read() as conn:
        company_id = conn.execute("SELECT company_id FROM outreach_leads ORDER BY id LIMIT 1").fetchone()[0]
    found = run("contacts", "search", str(company_id), "--wait", "--json")
    assert found.exit_code == 0, found.output
    job_id = json.loads(found.stdout)["job"]["remote_id"]
    poison_service(app)
    assert run("sync", "--once").exit_code == 0
    with open_store(data_dir) as store:
        leads = store.lead_page(sort="score", offset=0, limit=50)
        lead = leads[0]
        detail = store.lead_detail(lead.id)
        lead_companies = {r.company_id for r in leads}
        saved = [r["id"] for r in store.rows("SELECT id FROM companies ORDER BY id")]
        free = [c for c in saved if c not in lead_companies]
        contacts = [r["id"] for r in store.rows("SELECT id FROM contacts ORDER BY id")]
        recs = [r.id for r in store.active_recommendations(lead_id=None)]
        template = store.templates()[0].id
        key, raw = next((r["key"], r["raw"]) for r in store.rows("SELECT key, raw FROM jobs WHERE remote_id = ?", [job_id]))
        data = json.loads(raw)
        for person in data.get("contacts") or []:
            person.update(first_name=hostile("found"), last_name=HOSTILE, title=HOSTILE)
        with store.write() as conn:
            conn.execute("UPDATE jobs SET raw = ?, result_summary = ? WHERE key = ?", [json.dumps(data), HOSTILE, key])
        found_ids = [c["id"] for c in store.found_contacts(key)]
        country = next(r["country"] for r in store.rows("SELECT country FROM companies WHERE country IS NOT NULL"))
    # A failed op with a hostile message, queued offline.
    serve(monkeypatch, None)
    assert run("note", str(lead.id), "offline note").exit_code == 0
    with open_store(data_dir) as store:
        failed = store.outbox_rows()[-1].op_id
        store.mark_failed(failed, HOSTILE)
    serve(monkeypatch, app)
    yield {
        "app": app, "data_dir": data_dir, "lead": str(lead.id), "last_lead": str(leads[-1].id),
        "company": str(lead.company_id), "free": [str(c) for c in free], "contact": str(contacts[0]),
        "other_contact": str(contacts[-1]), "page": str(detail.monitoring_pages[0].id),
        "lead_contact": str(detail.contacts[0].contact_id), "competitor": str(detail.competitors[0].id),
        "recs": [str(r) for r in recs], "template": template, "job": str(job_id),
        "found": [str(i) for i in found_ids], "failed": failed[:8], "country": country,
    }
    app.state.db.close()


def arguments(w: dict[str, Any]) -> dict[tuple[str, ...], list[tuple[list[str], str | None]]]:
    """The runs of each command: (arguments, input to a prompt)."""
    lead, company, contact = w["lead"], w["company"], w["contact"]

    def runs(*argv: list[str]) -> list[tuple[list[str], str | None]]:
        return [(a, None) for a in argv]

    return {
        ("sync",): runs(["--once"], ["--once", "--json"]),
        ("leads",): runs([], ["--json"]),
        ("lead",): runs([lead], [lead, "--json"], [AMBIGUOUS]),
        ("log",): runs([lead, "Called Dana"], [AMBIGUOUS, "Called"]),
        ("note",): runs([lead, "A note"], [AMBIGUOUS, "A note"], [lead, f"Pricing by Friday {HOSTILE}", "--json"]),
        ("followups", "add"): runs([lead, "friday", f"Send {HOSTILE}"], [lead, "tomorrow at 10", HOSTILE, "--json"],
                                   [AMBIGUOUS, "friday", "x"], [lead, HOSTILE, "x"]),
        ("followups",): runs([], ["--json"], ["--due", "all"]),
        ("followups", "snooze"): runs(["1", "--days", "1"], ["1", "--until", HOSTILE], ["2", "--days", "7", "--json"]),
        ("followups", "done"): runs(["1"], ["2", "--json"]),
        ("followups", "delete"): runs(["3"]),
        ("outbox",): runs([], ["--json"]),
        ("outbox", "retry"): runs([w["failed"]], ["--all"], ["--all", "--json"]),
        ("outbox", "discard"): runs([w["failed"]]),
        ("jobs",): runs([], ["--json"]),
        ("today",): runs([], ["--json"]),
        ("search",): runs(["hostile"], ["hostile", "--json"], [HOSTILE], ["note", "--kind", "note"]),
        ("report", "week"): runs([], ["--format", "html"], ["--format", "csv"], ["--format", "json"]),
        ("report", "range"): runs(["--from", "2026-01-01", "--to", "2026-12-31", "--format", "md"]),
        ("companies",): runs([], ["--json"], ["--refresh"], ["-s", AMBIGUOUS]),
        ("companies", "show"): runs([company], [company, "--json"], [company, "--refresh"], [AMBIGUOUS]),
        ("companies", "fields"): runs([], ["--json"]),
        ("companies", "tags"): runs([company], [AMBIGUOUS]),
        ("companies", "create"): runs(["--set", f"name=New {HOSTILE}", "--set", "domain=new.example"]),
        ("companies", "edit"): runs([company, "--set", "region=North"], [AMBIGUOUS, "--set", "region=x"]),
        ("companies", "delete"): [([w["free"][0]], "n\n"), ([w["free"][0], "--yes"], None), ([AMBIGUOUS, "--yes"], None)],
        ("companies", "research"): runs([company], [AMBIGUOUS]),
        ("contacts", "list"): runs([], ["--json"], ["--company", AMBIGUOUS], ["--company", company]),
        ("contacts", "show"): runs([contact], [contact, "--json"], [contact, "--refresh"]),
        ("contacts", "fields"): runs([], ["--json"]),
        ("contacts", "tags"): runs([contact]),
        ("contacts", "create"): runs(["--set", f"first_name={HOSTILE}", "--set", f"company_id={company}"]),
        ("contacts", "edit"): runs([contact, "--set", "title=VP"]),
        ("contacts", "delete"): [([w["other_contact"]], "n\n"), ([w["other_contact"], "--yes"], None)],
        ("contacts", "search"): runs([company], [AMBIGUOUS]),
        ("contacts", "found"): runs([w["job"]], [w["job"], "--json"]),
        ("contacts", "add"): runs([w["job"], w["found"][0]], [w["job"], w["found"][-1], "--json"]),
        ("lookup",): runs(["--country", w["country"]], ["--country", w["country"], "--json"],
                          ["--country", w["country"], "--cached"]),
        ("deep-search",): runs(["dental clinics"]),
        ("export",): runs(["leads"], ["companies"], ["contacts"], ["leads", "--format", "json"],
                          ["companies", "--format", "json"], ["contacts", "--format", "json"],
                          ["followups"], ["followups", "--format", "json"],
                          ["followups", "--format", "ics", "--out", str(w["data_dir"] / "followups.ics")]),
        ("research", "templates"): runs([], ["--json"]),
        ("research", "show"): runs([w["template"]], [w["template"], "--json"]),
        ("research", "run"): runs([w["template"], company, "--wait"], [w["template"], AMBIGUOUS]),
        ("outreach", "add"): runs([w["free"][-1], "--as", "cold"], [AMBIGUOUS, "--as", "warm"]),
        ("outreach", "remove"): [([lead], "n\n"), ([AMBIGUOUS, "--yes"], None)],
        ("outreach", "status"): runs([lead, "warm"], [AMBIGUOUS, "cold"]),
        ("outreach", "target"): runs([lead, "70"]),
        ("outreach", "deal"): runs([lead, "--value", "100", "--lost", HOSTILE]),
        ("outreach", "scan"): runs([lead]),
        ("outreach", "scan-status"): runs([lead], [lead, "--json"], [AMBIGUOUS]),
        ("outreach", "source"): runs([lead, w["page"], "off"]),
        ("outreach", "recs"): runs([], [lead], ["--json"]),
        ("outreach", "generate"): runs([lead]),
        ("outreach", "complete"): runs([w["recs"][0]]),
        ("outreach", "dismiss"): runs([w["recs"][-1]]),
        ("outreach", "pin"): runs([lead, w["lead_contact"]]),
        ("outreach", "competitor-add"): runs([lead, f"Rival {HOSTILE}"], [lead, f"Rival 2 {HOSTILE}", "--json"]),
        ("outreach", "competitor-scan"): runs([lead, w["competitor"]]),
        ("outreach", "competitor-pin"): runs([lead, w["competitor"]]),
        ("completion",): runs(["bash"], ["zsh"], ["fish"]),
        ("config", "path"): runs([]),
        ("config", "show"): runs([], ["--json"]),
        ("config", "init"): runs([]),
        ("config", "set"): runs(["theme", f"theme {HOSTILE}"], [f"bad {HOSTILE}", "x"], ["base_url", HOSTILE]),
        ("config", "edit"): runs([]),  # $VISUAL: `true`, which changes nothing
        ("key", "set"): [([], "hostile-test-key\n"), ([], f"bad {HOSTILE}\n")],
        ("key", "show"): runs([]),
        ("key", "path"): runs([]),
        ("cache", "path"): runs([]),
        ("cache", "reset"): runs([]),  # no terminal, no --yes: reports the cache and moves nothing
        ("cache", "adopt"): runs([]),
        ("service", "check"): runs([], ["--json"], ["--write", lead, "--yes"], ["--write", lead]),
        ("logs",): runs(["--tail", "200"], ["--path"]),  # last: the lines the runs above logged
    }


def leaks(result: Result) -> str:
    found = sorted({f"U+{ord(c):04X}" for c in LEAK.findall(result.stdout + result.stderr)})
    return " ".join(found)


def test_no_command_prints_a_control_character(world: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    runs = arguments(world)
    tree = set(leaves(main, click.Context(main)))
    assert tree - NOT_RUN - set(runs) == set(), "give these new commands arguments here"
    monkeypatch.setenv("VISUAL", "true")  # `config edit`'s editor
    leaked: dict[str, str] = {}
    errors: dict[str, str] = {}
    ambiguous = 0
    for mode in ("online", "offline"):
        serve(monkeypatch, world["app"] if mode == "online" else None)
        for path, calls in runs.items():
            for argv, answer in calls:
                result = run(*path, *argv, input=answer)
                label = f"{mode}: {' '.join(path)} {' '.join(a[:12] for a in argv)}"
                if result.exception is not None and not isinstance(result.exception, SystemExit):
                    errors[label] = repr(result.exception)
                if leaks(result):
                    leaked[label] = leaks(result)
                ambiguous += "matches several" in result.stderr
    assert errors == {}
    assert leaked == {}
    assert ambiguous >= 10  # the "matches several" errors were reached, by leads and by companies


def test_a_hostile_name_forges_no_row_in_the_leads_table(world: dict[str, Any]) -> None:
    listed = json.loads(run("leads", "--json").stdout)
    table = run("leads").stdout.splitlines()
    assert len(listed) >= 2 and len(table) == 1 + len(listed)
    assert [line.split()[0] for line in table[1:]] == [str(item["id"]) for item in listed]


def test_json_output_escapes_the_controls_and_keeps_the_text(world: dict[str, Any]) -> None:
    out = run("leads", "--json").stdout
    assert not LEAK.search(out)
    assert "\\u009b" in out and "\\u202e" in out and "\\u001b" in out
    assert {item["company_name"] for item in json.loads(out)} >= {hostile(world["company"])}
    companies = run("companies", "--json").stdout
    assert not LEAK.search(companies)
    assert any(c["description"] == HOSTILE for c in json.loads(companies))


def test_any_click_error_of_a_command_is_printed_safe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only CommandError: whatever ClickException a command raises, its message is cleaned."""
    configure(monkeypatch, tmp_path)

    def refuse() -> None:
        raise click.ClickException(hostile("error"))

    monkeypatch.setattr("warmline.commands.leads.open_config", refuse)
    result = run("leads")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: Hostile error ") and not LEAK.search(result.stderr)


def test_engine_warnings_reach_stderr_safe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning logged by the engine during a command (Python would print it on stderr raw)."""
    configure(monkeypatch, tmp_path)

    def warn() -> None:
        logging.getLogger("warmline.sync").error("unexpected error delivering %s", HOSTILE)
        raise click.ClickException("stop")

    monkeypatch.setattr("warmline.commands.leads.open_config", warn)
    result = run("leads")
    assert "unexpected error delivering" in result.stderr and not LEAK.search(result.stderr)
