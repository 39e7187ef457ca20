"""The headless commands against a sandbox on a real loopback port: reading the cache,
queueing offline, exit codes, the outbox fixes, jobs, and `--json` fields."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner, Result

from warmline.cli import main
from warmline.commands.common import JOB_FIELDS, plain
from warmline.commands.leads import LEAD_FIELDS
from warmline.store import Store
from warmline_sandbox.server import RunningSandbox, start_in_thread
from warmline_sandbox.settings import SandboxSettings

KEY = "cli-test-key"
CLOSED_PORT_URL = "http://127.0.0.1:9"  # the discard port: nothing listens there
OP_FIELDS = {"op_id", "kind", "lead_id", "state", "attempts", "created_at", "first_sent_at",
             "next_attempt_at", "not_before", "last_error", "payload"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    settings = SandboxSettings(
        db_path=tmp_path_factory.mktemp("sandbox") / "sandbox.sqlite3", api_keys=[KEY], seed=9,
        companies=40, leads=6, job_seconds=0.2, rate_limit=(100_000, 60.0), port=0,
    )
    running = start_in_thread(settings)
    yield running
    running.stop()


@pytest.fixture
def env(server: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WARMLINE_BASE_URL", server.url)
    monkeypatch.setenv("WARMLINE_API_KEY", KEY)
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "absent.toml"))
    return tmp_path / "data" / "cache.sqlite3"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def synced(env: Path) -> None:
    result = run("sync", "--once")
    assert result.exit_code == 0, result.output


def test_sync_once_fills_the_cache_and_leads_lists_it(env: Path) -> None:
    result = run("sync")
    assert result.exit_code == 0, result.output
    assert "Refreshed 6 lead(s)." in result.output
    table = run("leads")
    assert table.exit_code == 0 and table.output.splitlines()[0].split()[:3] == ["ID", "STATUS", "SCORE"]
    assert len(table.output.splitlines()) == 7
    rows = json.loads(run("leads", "--json").output)
    assert len(rows) == 6 and all(set(row) == set(LEAD_FIELDS) for row in rows)
    assert [r["warming_score"] for r in rows] == sorted((r["warming_score"] for r in rows), reverse=True)
    warm = json.loads(run("leads", "--status", "warm", "--json").output)
    assert warm and {r["lead_status"] for r in warm} == {"warm"}


def test_leads_limit_gives_the_top_ones(env: Path) -> None:
    """10,000 cached leads are 10,000 lines; a script wants the top few, as `companies` and
    `contacts list` already allow."""
    synced(env)
    every = json.loads(run("leads", "--json").output)
    top = json.loads(run("leads", "--limit", "2", "--json").output)
    assert top == every[:2]
    assert len(run("leads", "--limit", "3").output.splitlines()) == 1 + 3
    refused = run("leads", "--limit", "0")
    assert refused.exit_code == 2 and "0 is not a whole number of 1 or more" in refused.output


def test_leads_on_an_empty_cache_says_how_to_fill_it(env: Path) -> None:
    result = run("leads")
    assert result.exit_code == 0 and "warmline sync" in result.output


def test_lead_by_id_or_name_prefix(env: Path) -> None:
    synced(env)
    store = Store(env)
    lead = store.lead_page(limit=1)[0]
    store.close()
    by_id = run("lead", str(lead.id))
    assert by_id.exit_code == 0 and lead.company_name in by_id.output
    by_prefix = run("lead", lead.company_name[:5].lower(), "--no-refresh")
    assert by_prefix.exit_code == 0 and f"lead {lead.id}" in by_prefix.output
    data = json.loads(run("lead", str(lead.id), "--json").output)
    assert data["lead"]["id"] == lead.id and set(data["lead"]) == set(LEAD_FIELDS)
    assert {"touchpoints", "notes", "recommendations", "contacts", "competitors", "company"} <= set(data)


def test_an_ambiguous_or_unknown_lead_is_bad_input(env: Path) -> None:
    synced(env)
    store = Store(env)
    store.upsert_leads([{"id": 900, "company_name": "Acme One"}, {"id": 901, "company_name": "Acme Two"}])
    store.close()
    ambiguous = run("lead", "acme", "--no-refresh")
    assert ambiguous.exit_code == 2
    assert "Acme One (900)" in ambiguous.output and "Acme Two (901)" in ambiguous.output
    assert run("log", "no such company", "Called").exit_code == 2


def test_log_and_note_with_wait_are_delivered_when_online(env: Path) -> None:
    synced(env)
    logged = run("log", "1", "Called Dana, she wants a demo next Tuesday", "--wait")
    assert logged.exit_code == 0, logged.output
    assert "Queued activity on" in logged.output and "Delivered. Detected: Call, +" in logged.output
    noted = run("note", "1", "Budget approved", "--wait")
    assert noted.exit_code == 0 and "Delivered." in noted.output
    assert "outbox is empty" in run("outbox").output


def test_log_works_with_no_connection_and_sync_delivers_it_later(
    env: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The service goes away and comes back at its address (a server of this test's own,
    stopped and started again on the same port and database): the cache is bound to its
    service's address, so another address would not stand for "offline"."""
    settings = SandboxSettings(
        db_path=tmp_path / "own.sqlite3", api_keys=[KEY], seed=9, companies=40, leads=6,
        job_seconds=0.2, rate_limit=(100_000, 60.0), port=0,
    )
    first = start_in_thread(settings)
    monkeypatch.setenv("WARMLINE_BASE_URL", first.url)
    synced(env)
    first.stop()
    logged = run("log", "2", "Called from the train", "--wait")
    assert logged.exit_code == 0, logged.output
    assert "offline now" in logged.output
    ops = json.loads(run("outbox", "--json").output)
    assert len(ops) == 1 and set(ops[0]) == OP_FIELDS and ops[0]["state"] == "pending"
    shown = run("lead", "2", "--json", "--no-refresh")
    pending = [t for t in json.loads(shown.output)["touchpoints"] if t["id"] is None]
    assert [t["description"] for t in pending] == ["Called from the train"]
    offline = run("sync")
    assert offline.exit_code == 4 and "Offline" in offline.output
    again = start_in_thread(dataclasses.replace(settings, port=int(urlsplit(first.url).port or 0)))
    try:
        back = run("sync")
        assert back.exit_code == 0 and "Sent 1 action(s)" in back.output
        assert "outbox is empty" in run("outbox").output
        # The delivered record keeps when the rep logged it; records made elsewhere have none.
        touchpoints = json.loads(run("lead", "2", "--json", "--no-refresh").output)["touchpoints"]
    finally:
        again.stop()
    mine = [t for t in touchpoints if t["description"] == "Called from the train"]
    assert len(mine) == 1 and mine[0]["id"] is not None
    assert mine[0]["logged_at"] == ops[0]["created_at"]
    assert {t["logged_at"] for t in touchpoints if t is not mine[0]} <= {None}


def test_without_a_key_actions_queue_and_sync_says_auth(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced(env)
    monkeypatch.delenv("WARMLINE_API_KEY")
    logged = run("note", "1", "Remember the NDA")
    assert logged.exit_code == 0 and "no API key" in logged.output
    assert run("sync").exit_code == 3


def test_a_refused_key_is_exit_three(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARMLINE_API_KEY", "not-the-key")
    result = run("sync")
    assert result.exit_code == 3 and "refused the API key" in result.output


def test_bad_input_is_exit_two_and_stores_nothing(env: Path) -> None:
    synced(env)
    assert run("log", "1", "").exit_code == 2
    assert run("note", "1", "x" * 10_001).exit_code == 2
    assert run("log", "1", "ok", "--contact", "-4").exit_code == 2
    assert run("outbox", "retry").exit_code == 2  # neither an op nor --all
    assert "outbox is empty" in run("outbox").output


def test_a_malformed_config_file_is_bad_input(env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "broken.toml"
    config.write_text("[service\nbase_url = ")
    monkeypatch.setenv("WARMLINE_CONFIG", str(config))
    result = run("leads")
    assert result.exit_code == 2 and "not valid TOML" in result.output


def test_a_failed_op_can_be_retried_and_discarded(env: Path) -> None:
    synced(env)
    store = Store(env)
    cold = store.scalar("SELECT id FROM leads WHERE lead_status = 'cold' ORDER BY id LIMIT 1")
    # Queued past the actions' check (the cache thought it warm): the service refuses it.
    op_id = store.enqueue("update_deal", {"lead_id": cold, "deal_value": 1000.0}, cold)
    store.close()
    assert run("sync").exit_code == 0
    listing = run("outbox")
    assert "failed" in listing.output and "Deal tracking is only available for warm leads" in listing.output
    retried = run("outbox", "retry", op_id[:8])
    assert retried.exit_code == 0 and "refused it" in retried.output
    assert run("outbox", "discard", "ffffffffffff").exit_code == 2
    discarded = run("outbox", "discard", op_id[:8])
    assert discarded.exit_code == 0 and "reverted" in discarded.output
    assert "outbox is empty" in run("outbox").output


def test_discarding_a_queued_note_reverts_it_locally(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced(env)
    monkeypatch.setenv("WARMLINE_BASE_URL", CLOSED_PORT_URL)
    run("note", "3", "Draft thought")
    op = json.loads(run("outbox", "--json").output)[0]
    assert run("outbox", "retry", "--all").exit_code == 0
    assert run("outbox", "discard", op["op_id"]).exit_code == 0
    notes = json.loads(run("lead", "3", "--json", "--no-refresh").output)["notes"]
    assert "Draft thought" not in [n["content"] for n in notes]


def test_jobs_are_listed_with_stable_fields(env: Path) -> None:
    synced(env)
    store = Store(env)
    store.enqueue("start_deep_search", {"query": "software companies", "max_results": 2})
    store.close()
    queued = json.loads(run("jobs", "--json").output)
    assert [j["status"] for j in queued] == ["queued"]
    assert set(queued[0]) == {*JOB_FIELDS, "next_poll_at"}
    assert run("sync").exit_code == 0
    started = json.loads(run("jobs", "--json").output)[0]
    assert started["remote_id"] is not None and started["status"] in ("pending", "running", "completed")
    assert started["kind"] == "deep_search"  # JSON keeps the raw kind, for scripts
    table = run("jobs")
    # the table names it as the cockpit's job monitor does (warmline.vocabulary)
    assert table.exit_code == 0 and "Deep search" in table.output and "deep_search" not in table.output


def test_help_documents_the_exit_codes() -> None:
    for command in ("sync", "leads", "lead", "log", "note", "outbox", "jobs"):
        assert "Exit codes: 0 ok" in run(command, "--help").output


def test_untrusted_text_is_printed_plain() -> None:
    assert plain("Acme\x1b[31m Red\x07\x9b") == "Acme Red"  # the whole sequence goes, not just ESC
    assert plain("Acme\nFake\tRow\u202e") == "Acme Fake Row"  # one line: no forged row or reversed text
    assert plain(None) == ""


def test_sync_waits_out_a_rate_limit_without_sleeping_through_it(env: Path) -> None:
    synced(env)
    store = Store(env)
    store.set_state("rate_limited_until", time.time() + 120)  # a 429's Retry-After, stored by the engine
    op_id = store.enqueue("add_note", {"lead_id": 1, "content": "After the wait"}, 1)
    store.close()
    started = time.monotonic()
    result = run("sync")
    assert result.exit_code == 0 and "Rate-limited by the service until" in result.output
    assert time.monotonic() - started < 60  # well short of the 120 s hold, however loaded the machine
    store = Store(env)
    assert store.get_op(op_id).state == "pending" and store.get_op(op_id).attempts == 0
    store.close()


def test_discard_all_drops_every_queued_action_and_reverts_them(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced(env)
    monkeypatch.setenv("WARMLINE_BASE_URL", CLOSED_PORT_URL)
    run("note", "3", "Draft thought")
    run("note", "4", "Second thought")
    assert len(json.loads(run("outbox", "--json").output)) == 2
    assert run("outbox", "discard").exit_code == 2  # neither an op nor --all
    assert run("outbox", "discard", "abc", "--all").exit_code == 2  # both
    discarded = run("outbox", "discard", "--all")
    assert discarded.exit_code == 0 and "Discarded 2 action(s)" in discarded.output
    assert "outbox is empty" in run("outbox").output
    for lead in ("3", "4"):
        notes = json.loads(run("lead", lead, "--json", "--no-refresh").output)["notes"]
        assert not {"Draft thought", "Second thought"} & {n["content"] for n in notes}
    again = run("outbox", "discard", "--all")
    assert again.exit_code == 0 and "Discarded 0 action(s)" in again.output
