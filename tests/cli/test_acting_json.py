"""`--json` of the commands that act (outreach operations, job starts, `outreach add|remove`,
`contacts add`, `outbox retry|discard`, `sync --once`, `companies|contacts delete`): one
object of the same shape everywhere (`warmline.commands.acted`), whose op ids are the
outbox's and whose `state` says what became of each op: `sent` after an online send,
`queued` offline, `failed` when the service refused it, `discarded`. JSON alone on stdout,
the words on stderr, exit codes as without `--json`, and never a prompt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import Result
from fastapi import FastAPI

from support.cli_sandbox import make_sandbox, open_store, run, serve
from warmline.cli import main

SHAPE = ["op_id", "state", "ops", "jobs"]
OP_KEYS = {"op_id", "kind", "lead_id", "state", "outbox_state", "attempts", "last_error", "result"}

# Every command that queues, retries, discards or deletes something, but `log` and `note`.
ACTING = {
    ("sync",),
    ("outbox", "retry"),
    ("outbox", "discard"),
    ("deep-search",),
    ("research", "run"),
    ("companies", "research"),
    ("companies", "delete"),
    ("contacts", "search"),
    ("contacts", "add"),
    ("contacts", "delete"),
    ("outreach", "add"),
    ("outreach", "remove"),
    ("outreach", "status"),
    ("outreach", "target"),
    ("outreach", "deal"),
    ("outreach", "scan"),
    ("outreach", "source"),
    ("outreach", "generate"),
    ("outreach", "complete"),
    ("outreach", "dismiss"),
    ("outreach", "pin"),
    ("outreach", "competitor-add"),
    ("outreach", "competitor-scan"),
    ("outreach", "competitor-pin"),
}


@pytest.fixture
def synced(online: Path) -> Path:
    """A cache filled by one sync with the sandbox's seeded leads."""
    assert run("sync").exit_code == 0
    return online


def acted(result: Result, code: int = 0) -> dict[str, Any]:
    """The command's JSON: stdout is that object alone, in the shared shape."""
    assert result.exit_code == code, result.output
    data = json.loads(result.stdout)
    assert list(data)[:4] == SHAPE
    assert all(set(op) == OP_KEYS for op in data["ops"])
    return data


def only_op(data: dict[str, Any]) -> dict[str, Any]:
    """The one op of a single action; `op_id` and `state` repeat it."""
    (op,) = data["ops"]
    assert (data["op_id"], data["state"]) == (op["op_id"], op["state"])
    return op


def outbox_state(data_dir: Path, op_id: str) -> str | None:
    with open_store(data_dir) as store:
        op = store.get_op(op_id)
        return None if op is None else op.state


def first_lead(data_dir: Path, status: str = "cold") -> int:
    with open_store(data_dir) as store:
        return store.lead_page(status=status, sort="score", offset=0, limit=50)[0].id


def test_every_acting_command_takes_json() -> None:
    ctx = click.Context(main)
    missing = []
    for path in ACTING:
        command: click.Command | None = main
        for name in path:
            assert isinstance(command, click.Group)
            command = command.get_command(ctx, name)
        assert command is not None, path
        if "as_json" not in {p.name for p in command.params}:
            missing.append(" ".join(path))
    assert missing == []


# --- one action on a lead ---------------------------------------------------------------------


def test_lead_operations_online_print_their_op_as_sent(synced: Path) -> None:
    lead = first_lead(synced)
    detail = json.loads(run("lead", str(lead), "--json", "--no-refresh").stdout)
    contact = detail["contacts"][0]["contact_id"]
    recs = json.loads(run("outreach", "recs", "--json").stdout)
    runs = {
        "change_lead_status": ["outreach", "status", str(lead), "warm", "--json"],
        "set_target_score": ["outreach", "target", str(lead), "60", "--json"],
        "pin_contact": ["outreach", "pin", str(lead), str(contact), "--json"],
        "add_competitor": ["outreach", "competitor-add", str(lead), "Rival AB", "--json"],
        "complete_recommendation": ["outreach", "complete", str(recs[0]["id"]), "--json"],
    }
    for kind, argv in runs.items():
        result = run(*argv)
        data = acted(result)
        op = only_op(data)
        assert op["state"] == "sent" and op["outbox_state"] == "done", argv
        assert outbox_state(synced, op["op_id"]) == "done"  # the store's op, by its full id
        assert op["kind"] == kind
        assert data["jobs"] == []
        assert "Queued" in result.stderr and "Delivered." in result.stderr


def test_a_lead_operation_offline_is_queued(synced: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serve(monkeypatch, None)
    lead = first_lead(synced)
    result = run("outreach", "target", str(lead), "70", "--json")
    op = only_op(acted(result))
    assert (op["state"], op["outbox_state"], op["lead_id"]) == ("queued", "pending", lead)
    assert "offline now" in result.stderr
    with open_store(synced) as store:
        assert [o.op_id for o in store.outbox_rows()] == [op["op_id"]]


def test_bad_input_with_json_prints_no_json_and_exits_2(synced: Path) -> None:
    result = run("outreach", "target", str(first_lead(synced)), "101", "--json")
    assert result.exit_code == 2 and result.stdout == ""


# --- jobs ---------------------------------------------------------------------------------------------


def test_a_job_start_lists_its_op_and_its_job(
    synced: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lead = first_lead(synced)
    data = acted(run("outreach", "scan", str(lead), "--wait", "--json"))
    op = only_op(data)
    assert (op["state"], op["kind"]) == ("sent", "start_signal_scan")
    (job,) = data["jobs"]
    assert job == data["job"] and job["status"] == "completed" and job["lead_id"] == lead

    serve(monkeypatch, None)
    queued = acted(run("deep-search", "dental clinics", "--json"))
    assert only_op(queued)["state"] == "queued"
    assert [j["status"] for j in queued["jobs"]] == ["queued"] and queued["results"] == []


def test_a_job_start_the_service_refuses_prints_the_failed_op(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_sandbox(tmp_path, deep_searches=0)
    serve(monkeypatch, app)
    try:
        result = run("deep-search", "dental clinics", "--json")
    finally:
        app.state.db.close()
    op = only_op(acted(result, code=1))
    assert op["state"] == "failed" and "deep_searches" in op["last_error"]
    assert outbox_state(data_dir, op["op_id"]) == "failed"
    assert "warmline outbox discard" in result.stderr


# --- outreach add and remove ------------------------------------------------------------------------


def test_remove_with_json_needs_yes_and_lists_one_op_per_lead(synced: Path) -> None:
    with open_store(synced) as store:
        leads = [str(r.id) for r in store.lead_page(status=None, sort="score", offset=0, limit=2)]
    refused = run("outreach", "remove", *leads, "--json")
    assert refused.exit_code == 2 and "--yes" in refused.stderr and refused.stdout == ""
    with open_store(synced) as store:
        assert store.outbox_counts().queued == 0  # nothing asked, nothing queued
    data = acted(run("outreach", "remove", *leads, "--json", "--yes"))
    assert data["op_id"] is None and data["state"] is None  # two ops: no single one
    assert sorted(op["lead_id"] for op in data["ops"]) == sorted(int(i) for i in leads)
    assert {op["state"] for op in data["ops"]} == {"sent"}


# --- the outbox ------------------------------------------------------------------------------------------


def _failed_ops(data_dir: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> list[str]:
    """`count` actions queued offline, then refused (as the service would)."""
    serve(monkeypatch, None)
    lead = first_lead(data_dir)
    for score in range(count):
        assert run("outreach", "target", str(lead), str(50 + score)).exit_code == 0
    with open_store(data_dir) as store:
        ids = [op.op_id for op in store.outbox_rows()]
        for op_id in ids:
            store.mark_failed(op_id, "refused for the test")
    return ids


def test_outbox_retry_one_online_is_sent(
    synced: Path, sandbox: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    (failed,) = _failed_ops(synced, monkeypatch, 1)
    serve(monkeypatch, sandbox)
    result = run("outbox", "retry", failed[:8], "--json")
    op = only_op(acted(result))
    assert op["op_id"] == failed and op["state"] == "sent"
    assert "will be sent again" in result.stderr


def test_outbox_retry_all_offline_is_queued_and_discard_all_lists_them(
    synced: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failed = _failed_ops(synced, monkeypatch, 2)
    data = acted(run("outbox", "retry", "--all", "--json"))
    assert [(op["op_id"], op["state"]) for op in data["ops"]] == [(i, "queued") for i in failed]
    discarded = acted(run("outbox", "discard", "--all", "--json"))
    assert [(op["op_id"], op["state"], op["outbox_state"]) for op in discarded["ops"]] == [
        (i, "discarded", None) for i in failed
    ]
    with open_store(synced) as store:
        assert store.outbox_rows() == []


def test_outbox_discard_one(synced: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (failed,) = _failed_ops(synced, monkeypatch, 1)
    op = only_op(acted(run("outbox", "discard", failed, "--json")))
    assert (op["op_id"], op["state"], op["kind"]) == (failed, "discarded", "set_target_score")
    assert outbox_state(synced, failed) is None


# --- sync --------------------------------------------------------------------------------------------------


def test_sync_once_json_lists_the_queued_ops_as_sent(
    synced: Path, sandbox: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(monkeypatch, None)
    lead = first_lead(synced)
    assert run("outreach", "status", str(lead), "warm").exit_code == 0
    assert run("outreach", "competitor-add", str(lead), "Rival AB").exit_code == 0
    offline = run("sync", "--once", "--json")
    data = acted(offline, code=4)  # exit codes as without --json
    assert {op["state"] for op in data["ops"]} == {"queued"} and len(data["ops"]) == 2
    assert data["offline_error"] and data["reachable"] is False
    queued = [op["op_id"] for op in data["ops"]]

    serve(monkeypatch, sandbox)
    result = run("sync", "--once", "--json")
    data = acted(result)
    assert [(op["op_id"], op["state"]) for op in data["ops"]] == [(i, "sent") for i in queued]
    assert (
        data["op_id"] is None and data["sent"] == 2 and data["outbox"] == {"queued": 0, "failed": 0}
    )
    assert "Sent 2 action(s)" in result.stderr
    assert all(outbox_state(synced, i) == "done" for i in queued)


def test_sync_json_goes_with_once_only(online: Path) -> None:
    result = run("sync", "--watch", "--json")
    assert result.exit_code == 2 and "--once" in result.stderr


# --- direct requests -----------------------------------------------------------------------------------------


def test_delete_with_json_needs_yes_and_queues_nothing(online: Path) -> None:
    created = run("companies", "create", "--set", "name=Acme Delete", "--json")
    company = json.loads(created.stdout)["id"]
    refused = run("companies", "delete", str(company), "--json")
    assert refused.exit_code == 2 and refused.stdout == ""
    data = acted(run("companies", "delete", str(company), "--json", "--yes"))
    assert data == {
        "op_id": None,
        "state": None,
        "ops": [],
        "jobs": [],
        "deleted": {"kind": "company", "id": company},
    }


def test_a_contact_created_offline_is_queued_under_a_local_id(synced: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: a contact met at a trade show is not lost for want of wifi."""
    serve(monkeypatch, None)
    result = run("contacts", "create", "--set", "first_name=Lukas", "--set", "title=CFO", "--json")
    assert result.exit_code == 0, result.output
    data = acted(result)
    op = only_op(data)
    assert (op["state"], op["outbox_state"], op["kind"]) == ("queued", "pending", "create_contact")
    assert data["local_id"] < 0
    with open_store(synced) as store:
        pending = store.get_contact(data["local_id"])
        assert pending is not None and pending.first_name == "Lukas"
    text = run("contacts", "create", "--set", "first_name=Dana")
    assert text.exit_code == 0 and "Offline: queued contact -" in text.output


def test_a_company_created_offline_is_queued_under_a_local_id(synced: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: a company made by hand offline is queued like a contact, pending."""
    serve(monkeypatch, None)
    result = run("companies", "create", "--set", "name=Brandt Maschinenbau", "--set", "domain=brandt.example",
                 "--json")
    assert result.exit_code == 0, result.output
    data = acted(result)
    op = only_op(data)
    assert (op["state"], op["outbox_state"], op["kind"]) == ("queued", "pending", "create_company")
    assert data["local_id"] < 0
    with open_store(synced) as store:
        assert store.scalar("SELECT name FROM companies WHERE id = ?", (data["local_id"],)) == "Brandt Maschinenbau"
    text = run("companies", "create", "--set", "name=Vogel GmbH")
    assert text.exit_code == 0 and "Offline: queued company -" in text.output
