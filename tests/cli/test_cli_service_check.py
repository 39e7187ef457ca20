"""`warmline service check [--json] [--write LEAD]` against in-process sandboxes, each
serving one dialect (`warmline_sandbox.dialects`): what the report says of the paging,
the unfiltered lead list, the lead's fields, the research families and the error shapes;
the write check's round trips (and that every value is back afterwards); the fatal
cases in one line with their exit codes (offline, a refused key, no terminal to ask).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import pty
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from support.cli_sandbox import BASE_URL, KEY, configure, run, sandbox_settings, serve
from warmline.api import ServiceClient
from warmline.exit_codes import EXIT_AUTH, EXIT_BAD_INPUT, EXIT_ERROR, EXIT_OFFLINE
from warmline_sandbox.app import create_app

Dialect = Callable[..., FastAPI]
REPORT_KEYS = {
    "base_url", "health", "lists", "default_leads", "lead", "research", "rate_limit", "errors", "write",
    "problems", "usable", "restore_failed",
}
LISTS = ["leads_cold", "leads_warm", "leads_all", "companies", "contacts"]


@pytest.fixture
def dialect(tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Dialect]:
    """`dialect("cursor", ...)`: a small sandbox serving those dialects (none: standard),
    which every client the commands build talks to."""
    apps: list[FastAPI] = []

    def start(*names: str, wrap: Callable[[FastAPI], Any] | None = None) -> FastAPI:
        settings = dataclasses.replace(sandbox_settings(tmp_path), dialects=names)
        app = create_app(settings)
        apps.append(app)
        serve(monkeypatch, wrap(app) if wrap else app)
        return app

    yield start
    for app in apps:
        app.state.db.close()


def check(*args: str) -> dict[str, Any]:
    """`service check --json ...`, asserted to succeed, as the object it printed."""
    result = run("service", "check", "--json", *args)
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


LEAD_STATE = ("target_score", "lead_status", "deal_currency")


def lead_state(app: FastAPI, lead_id: int) -> dict[str, Any]:
    """What the write check changes on a lead, read from the sandbox directly (standard
    names: the app behind the dialect middleware is not asked, its database is)."""

    async def read() -> dict[str, Any]:
        async with ServiceClient(BASE_URL, KEY, transport=httpx.ASGITransport(app=app)) as client:
            lead = await client.get_lead(lead_id)
        return {
            **{name: getattr(lead, name) for name in LEAD_STATE},
            "pages": {page.id: page.is_selected for page in lead.monitoring_pages},
            "competitors": {competitor.id: competitor.is_pinned for competitor in lead.competitors},
        }

    return asyncio.run(read())


def warm_lead(app: FastAPI) -> int:
    with app.state.db.read() as conn:
        row = conn.execute("SELECT id FROM outreach_leads WHERE lead_status = 'warm' ORDER BY id LIMIT 1").fetchone()
    return int(row[0])


# --- read-only ----------------------------------------------------------------------------------


def test_the_standard_sandbox_is_usable_and_nothing_looks_wrong(dialect: Dialect) -> None:
    dialect()
    result = run("service", "check")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"Service check of {BASE_URL}/"
    assert lines[1] == "Health: reachable, status ok, version 1.0; key accepted"
    assert "  cold leads  paging page/per_page: 2 records (the whole list); statuses cold" in lines
    assert "  warm leads  paging page/per_page: 1 record (the whole list); statuses warm" in lines
    assert "  all leads   paging page/per_page: 3 records (the whole list); statuses cold, warm" in lines
    assert "  The lead list without a status filter hides no status." in lines
    assert any(line.startswith("Lead 2 (") and line.endswith(": 47 of 47 fields Warmline uses came") for line in lines)
    assert ("Research: templates from the detailed family (3 templates); asked on their own: "
            "detailed answers, overview answers") in lines
    assert any(line.startswith("Rate limit: headers present (limit 600, ") for line in lines)
    assert ("  missing lead: a missing lead, HTTP 404: Outreach lead not found "
            f"(GET /v1/outreach/leads/{2**62})") in lines
    assert lines[-1] == "What looks wrong: nothing."
    assert result.stderr == ""


def test_json_holds_the_same_facts_under_stable_keys(dialect: Dialect) -> None:
    dialect()
    report = check()
    assert set(report) == REPORT_KEYS
    assert list(report["lists"]) == LISTS
    assert {name: facts["style"] for name, facts in report["lists"].items()} == dict.fromkeys(LISTS, "page")
    assert report["lists"]["leads_all"]["statuses"] == ["cold", "warm"]
    assert report["default_leads"] == {"statuses": ["cold", "warm"], "hides": [], "whole": True}
    assert report["health"]["key_accepted"] is True and report["health"]["status"] == "ok"
    assert abs(report["health"]["skew_seconds"]) < 5
    assert report["lead"]["lead_id"] == 2 and report["lead"]["missing"] == [] and report["lead"]["error"] is None
    assert "company.domain" in report["lead"]["given"] and "monitoring_pages.score" in report["lead"]["given"]
    assert report["research"] == {"known_family": "detailed", "templates": 3, "error": None,
                                  "families": {"detailed": "answers", "overview": "answers"}}
    assert report["rate_limit"]["headers"] is True and report["rate_limit"]["limit"] == 600
    errors = report["errors"]
    assert (errors["missing_lead"]["error_class"], errors["missing_lead"]["status"]) == ("LeadNotFoundError", 404)
    assert errors["unknown_route"]["error_class"] == "RouteMissingError"
    assert (errors["bad_filter"]["error_class"], errors["bad_filter"]["status"]) == ("ValidationFailed", 400)
    assert report["write"] is None
    assert report["problems"] == [] and report["usable"] is True and report["restore_failed"] is False


def test_cursor_paging_is_named(dialect: Dialect) -> None:
    dialect("cursor")
    report = check()
    assert {name: facts["style"] for name, facts in report["lists"].items()} == dict.fromkeys(LISTS, "cursor")
    assert report["lists"]["contacts"]["records"] == 42  # over 20 a page: a second page was followed
    assert report["lists"]["contacts"]["pages"] > 1 and report["lists"]["contacts"]["whole"] is True
    assert report["problems"] == []
    text = run("service", "check").stdout
    assert "  contacts    paging cursor: 42 records (the whole list)" in text


def test_a_lead_list_hiding_warm_leads_by_default_is_named(dialect: Dialect) -> None:
    dialect("cold-default")
    report = check()
    assert report["default_leads"] == {"statuses": ["cold"], "hides": ["warm"], "whole": True}
    assert report["problems"] == ["the unfiltered lead list holds cold leads only: Warmline asks for each status"]
    assert report["usable"] is True  # Warmline asks for each status: nothing is lost
    text = run("service", "check").stdout
    assert "  The lead list without a status filter hides warm leads." in text
    assert "  - the unfiltered lead list holds cold leads only: Warmline asks for each status" in text


def test_only_the_overview_research_family_answering_is_named(dialect: Dialect) -> None:
    dialect("overview-only")
    report = check()
    assert report["research"]["known_family"] == "overview"
    assert report["research"]["families"] == {"detailed": "no such route", "overview": "answers"}
    assert report["problems"] == ["research: only the overview family answers"]


def test_the_errors_dialect_shows_its_validation_body_as_read(dialect: Dialect) -> None:
    dialect("errors")
    report = check()
    refused = report["errors"]["bad_filter"]
    assert (refused["error_class"], refused["status"]) == ("ValidationFailed", 422)
    assert refused["message"] == "The service rejected the request: status: Input should be 'cold' or 'warm'"
    assert refused["detail"][0]["location"] == "query"  # express-validator's own body, kept as detail
    assert report["errors"]["missing_lead"]["error_class"] == "LeadNotFoundError"
    assert report["errors"]["unknown_route"]["error_class"] == "RouteMissingError"  # its HTML page
    assert report["problems"] == []


def test_fields_the_service_leaves_out_are_named(dialect: Dialect) -> None:
    """A service that sends no company domain and no target score (its answers edited on
    the way out): both are named as not given."""

    def without_fields(app: FastAPI) -> Any:
        async def strip(scope: Any, receive: Any, send: Any) -> None:
            async def sending(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.body" and scope["path"].startswith("/v1/outreach/leads/"):
                    body = json.loads(message["body"] or b"null")
                    if isinstance(body, dict) and isinstance(body.get("data"), dict):
                        body["data"].pop("target_score", None)
                        (body["data"].get("company") or {}).pop("domain", None)
                    message = {**message, "body": json.dumps(body).encode()}
                elif message["type"] == "http.response.start":
                    headers = [(k, v) for k, v in message["headers"] if k.lower() != b"content-length"]
                    message = {**message, "headers": headers}
                await send(message)

            await app(scope, receive, sending)

        return strip

    dialect(wrap=without_fields)
    report = check()
    assert report["lead"]["missing"] == ["target_score", "company.domain"]
    assert report["problems"] == [
        f"lead {report['lead']['lead_id']}: not given by the service: target_score, company.domain"
        " (Warmline shows them empty)"
    ]
    assert "  not given by the service: target_score, company.domain" in run("service", "check").stdout


# --- writes -------------------------------------------------------------------------------------


def steps(report: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {step["field"]: (step["outcome"], step["detail"]) for step in report["write"]["steps"]}


def test_request_names_status_change_ignored_target_score_honoured_all_put_back(dialect: Dialect) -> None:
    app = dialect("request-names")
    lead = warm_lead(app)
    before = lead_state(app, lead)
    report = check("--write", str(lead), "--yes")
    outcomes = steps(report)
    assert outcomes["target_score"][0] == "honoured"
    assert outcomes["lead_status"] == (
        "ignored",
        "the service answered 2xx but lead_status did not change; "
        'set [service.fields] change_lead_status = { lead_status = "..." }',
    )
    assert outcomes["is_selected"][0] == outcomes["is_pinned"][0] == outcomes["deal_currency"][0] == "ignored"
    assert all(step["restored"] and step["restore_problem"] is None for step in report["write"]["steps"])
    assert lead_state(app, lead) == before
    assert ("status: ignored: the service answered 2xx but lead_status did not change; "
            'set [service.fields] change_lead_status = { lead_status = "..." }') in report["problems"]


def test_a_configured_request_name_is_what_the_write_check_sends(
    dialect: Dialect, data_dir: Path
) -> None:
    (data_dir / "absent-config.toml").write_text(
        '[service.fields]\nchange_lead_status = { lead_status = "status" }\n', encoding="utf-8"
    )
    app = dialect("request-names")
    lead = warm_lead(app)
    before = lead_state(app, lead)
    report = check("--write", str(lead), "--yes")
    status = next(step for step in report["write"]["steps"] if step["field"] == "lead_status")
    assert (status["outcome"], status["sent_as"]) == ("honoured", "status")
    assert status["detail"] == "warm -> cold and back"
    assert lead_state(app, lead) == before


def test_the_standard_sandbox_honours_every_request_shape(dialect: Dialect) -> None:
    app = dialect()
    lead = warm_lead(app)
    before = lead_state(app, lead)
    result = run("service", "check", "--write", str(lead), "--yes")
    assert result.exit_code == 0, result.output
    assert f"Write check on lead {lead} (each value changed, read back, put back):" in result.stdout
    written = result.stdout.split("Write check", 1)[1].splitlines()[1:6]
    assert [line.split(": ")[1] for line in written] == ["honoured"] * 5
    assert result.stdout.splitlines()[-1] == "What looks wrong: nothing."
    assert lead_state(app, lead) == before


def failing(path_end: str, calls: set[int]) -> Callable[[FastAPI], Any]:
    """The app, but the PATCHes ending in `path_end` counted from 1 answer 503 when their
    number is in `calls` (nothing applied)."""

    def wrap(app: FastAPI) -> Any:
        seen = [0]

        async def serve_app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and scope["method"] == "PATCH" and scope["path"].endswith(path_end):
                seen[0] += 1
                if seen[0] in calls:
                    body = b'{"success": false, "message": "Service unavailable", "errors": null}'
                    await send({"type": "http.response.start", "status": 503,
                                "headers": [(b"content-type", b"application/json")]})
                    await send({"type": "http.response.body", "body": body})
                    return
            await app(scope, receive, send)

        return serve_app

    return wrap


def test_a_value_that_could_not_be_put_back_is_said_and_fails_the_command(dialect: Dialect) -> None:
    app = dialect(wrap=failing("/target-score", {2, 4}))  # each run: the change goes, putting it back fails
    lead = warm_lead(app)
    before = lead_state(app, lead)
    result = run("service", "check", "--write", str(lead), "--yes")
    assert result.exit_code == EXIT_ERROR
    changed = before["target_score"] + 1
    assert (f"    NOT PUT BACK: could not put target score back to {before['target_score']}: "
            "The service failed (HTTP 503): Service unavailable") in result.stdout.splitlines()
    assert lead_state(app, lead)["target_score"] == changed  # as the report says
    again = run("service", "check", "--write", str(lead), "--yes", "--json")
    assert again.exit_code == EXIT_ERROR
    report = json.loads(again.stdout)
    assert report["restore_failed"] is True and report["usable"] is True
    assert report["problems"][-1] == (
        f"target score: NOT PUT BACK: could not put target score back to {changed}: "
        "The service failed (HTTP 503): Service unavailable"
    )


def test_a_failed_change_is_still_put_back_and_reported(dialect: Dialect) -> None:
    app = dialect(wrap=failing("/status", {1}))  # the change fails, putting it back goes
    lead = warm_lead(app)
    before = lead_state(app, lead)
    report = check("--write", str(lead), "--yes")
    status = next(step for step in report["write"]["steps"] if step["field"] == "lead_status")
    assert status["outcome"] == "failed"
    assert status["detail"] == "the request failed: The service failed (HTTP 503): Service unavailable"
    assert status["restored"] is True
    assert lead_state(app, lead) == before


def test_a_lead_not_on_the_service_is_one_line_and_nothing_changes(dialect: Dialect) -> None:
    dialect()
    result = run("service", "check", "--write", "999", "--yes")
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stdout == ""
    assert result.stderr == "Error: lead 999 is not on the service: nothing was changed\n"


def test_without_a_terminal_write_needs_yes_before_anything_is_sent(offline: Path) -> None:
    """Offline: had it sent anything, it would have ended offline (4), not with the refusal."""
    result = run("service", "check", "--write", "2")
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr == "Error: lead 2 not changed: no terminal to ask; pass --yes to run the write check\n"


def test_at_a_terminal_write_asks_first(tmp_path: Path) -> None:
    env = {**os.environ, "WARMLINE_DATA_DIR": str(tmp_path), "WARMLINE_CONFIG": str(tmp_path / "none.toml"),
           "WARMLINE_BASE_URL": BASE_URL, "WARMLINE_API_KEY": KEY}
    master, slave = pty.openpty()
    try:
        os.write(master, b"n\n")
        process = subprocess.run([sys.executable, "-m", "warmline", "service", "check", "--write", "2"],
                                 stdin=slave, capture_output=True, env=env, timeout=60)
    finally:
        os.close(slave)
        os.close(master)
    stderr = process.stderr.decode()
    assert process.returncode == EXIT_ERROR, stderr
    assert "Change lead 2's target score, a monitoring source, a competitor pin, its deal currency" in stderr
    assert stderr.splitlines()[-1].endswith("Error: Nothing changed.")


# --- fatal --------------------------------------------------------------------------------------


def test_offline_is_one_line_and_the_offline_exit_code(offline: Path) -> None:
    for args in ([], ["--json"]):
        result = run("service", "check", *args)
        assert result.exit_code == EXIT_OFFLINE
        assert result.stdout == ""
        assert result.stderr == (
            "Error: Offline: this needs the service (Could not reach the service at http://127.0.0.1:9:"
            " connection refused)\n"
        )


def test_a_refused_key_is_one_line_and_the_auth_exit_code(
    dialect: Dialect, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialect()
    configure(monkeypatch, data_dir, key="not-the-key")
    result = run("service", "check")
    assert result.exit_code == EXIT_AUTH
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("Error: The service refused the API key (Invalid or missing API key)")


def test_no_key_is_the_auth_exit_code(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configure(monkeypatch, data_dir, key=None)
    result = run("service", "check")
    assert result.exit_code == EXIT_AUTH
    assert result.stderr.startswith("Error: No API key is configured")


def test_service_text_reaches_the_terminal_without_controls(dialect: Dialect) -> None:
    app = dialect()
    with app.state.db.transaction() as conn:
        conn.execute("UPDATE companies SET name = ?", ("Evil\x1b]52;c;cHduZWQ=\x07 Co\r\nForged \u202eline",))
    result = run("service", "check")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if line.startswith("Lead "))
    assert "(Evil Co Forged line)" in line
    assert not any(char in result.stdout for char in "\x1b\x07\r\u202e")
