"""Kill -9 with records made offline (issue 23), while flushers are SIGKILLed at random
moments:

- 20 contacts created under local ids, each pinned on a lead at once;
- 20 companies created under local ids, each with a contact made on it at once.

A create cut after the service made the record is found by its probe (the sandbox keeps
no Idempotency-Keys), and the op naming the record waits for its create and goes out with
the service's id. At the end: every record is on the service exactly once (0 lost, 0
duplicated), each op that named one names the right one, and the cache names no local id
any more.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from support.sync_helpers import KEY, SandboxProcess
from warmline import actions
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine

RECORDS = 20
PER_CYCLE = 2  # records queued while each victim flushes
MIN_CYCLES = 30
LEADS = range(1, 11)
SEED = 20261127
WAIT_CAP = 120.0


def _flush_forever(db_path: str, url: str, seed: int) -> None:
    async def main() -> None:
        store = Store(db_path)
        store.recover_after_crash()
        async with ServiceClient(url, KEY, timeout=5.0) as client:
            engine = SyncEngine(store, client, concurrency=4, rng=random.Random(seed))
            while True:
                await engine.flush(ignore_backoff=True)
                await asyncio.sleep(0.002)

    asyncio.run(main())


async def _prepare(db_path: Path, url: str) -> None:
    store = Store(db_path)
    async with ServiceClient(url, KEY) as client:
        assert await SyncEngine(store, client).refresh_leads() == len(LEADS)
    store.close()


async def _drain(db_path: Path, url: str) -> Store:
    store = Store(db_path)
    store.recover_after_crash()
    async with ServiceClient(url, KEY) as client:
        engine = SyncEngine(store, client)
        for _ in range(50):
            await engine.flush(ignore_backoff=True)
            if store.outbox_counts().queued == 0:
                break
    return store


Made = dict[str, tuple[int, str]]
"""A record's unique text (a contact's email, a company's name) -> (a lead id or 0, the op
that named the record by its local id)."""

Queue = Callable[[Store, random.Random, int], tuple[str, tuple[int, str]]]


def _contact_pinned(store: Store, rng: random.Random, index: int) -> tuple[str, tuple[int, str]]:
    """A contact on a lead's company, pinned on that lead."""
    lead_id = rng.choice(LEADS)
    lead = store.get_lead(lead_id)
    assert lead is not None
    email = f"k9-{index}@show.example"
    contact = actions.create_contact(
        store, {"first_name": f"Met{index}", "last_name": "Atshow", "email": email, "company_id": lead.company_id}
    )
    return email, (lead_id, actions.pin_company_contact(store, lead_id, contact.local_id))


def _company_with_contact(store: Store, rng: random.Random, index: int) -> tuple[str, tuple[int, str]]:
    """A company, and a contact made on it by its local id."""
    name = f"K9 Werkstatt {index}"
    company = actions.create_company(store, {"name": name, "domain": f"k9-{index}.example"})
    contact = actions.create_contact(
        store, {"first_name": f"Met{index}", "last_name": "Atshow", "email": f"k9-{index}@show.example",
                "company_id": company.local_id}
    )
    return name, (0, contact.op_id)


def _queue(db_path: Path, rng: random.Random, number: int, made: Made, queue: Queue) -> None:
    store = Store(db_path)
    try:
        for _ in range(number):
            key, value = queue(store, rng, len(made))
            made[key] = value
    finally:
        store.close()


def _count(db_path: Path, where: str) -> int:
    store = Store(db_path)
    try:
        return store.scalar(f"SELECT count(*) FROM outbox WHERE {where}")
    finally:
        store.close()


def _wait_for_delivery(db_path: Path, done_before: int) -> None:
    deadline = time.monotonic() + WAIT_CAP
    while time.monotonic() < deadline:
        if _count(db_path, "state = 'done'") > done_before or _count(db_path, "state != 'done'") == 0:
            return
        time.sleep(0.002)
    pytest.fail(f"a flusher delivered nothing in {WAIT_CAP:.0f} s")


def _wait_for_a_send(db_path: Path) -> None:
    """Until the flusher has a send in flight, or nothing is left to send: killed now, it is
    cut mid-send. A random moment alone may never land in one on a loaded machine."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        deadline = time.monotonic() + WAIT_CAP
        while time.monotonic() < deadline:
            states = {state for (state,) in conn.execute("SELECT DISTINCT state FROM outbox")}
            if "in_flight" in states or states <= {"done"}:
                return
            time.sleep(0.0005)
    finally:
        conn.close()


def _server(db: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _by_text(db: Path, sql: str) -> dict[str, list[int]]:
    """The service's rows of `sql` (a text, then a number) as text -> every number beside it:
    a text named twice is a record made twice."""
    grouped: dict[str, list[int]] = {}
    for text, number in _server(db, sql):
        grouped.setdefault(str(text), []).append(int(str(number)))
    return grouped


def _kill_cycles(db_path: Path, url: str, rng: random.Random, made: Made, queue: Queue) -> Store:
    """Queue RECORDS records two at a time while a flusher runs, SIGKILL it at a random
    moment, again and again (MIN_CYCLES at least); then drain what is left. Returns the
    drained cache, checked whole and with nothing queued, failed or named by a local id."""
    fork = multiprocessing.get_context("fork")
    _queue(db_path, rng, 4, made, queue)
    kills = cycle = mid_send = 0
    while cycle < MIN_CYCLES or len(made) < RECORDS:
        done_before = _count(db_path, "state = 'done'")
        victim = fork.Process(target=_flush_forever, args=(str(db_path), url, cycle), daemon=True)
        victim.start()
        _queue(db_path, rng, min(PER_CYCLE, RECORDS - len(made)), made, queue)
        _wait_for_delivery(db_path, done_before)
        if mid_send == 0:  # no kill has cut a send yet: wait for one rather than hope for it
            _wait_for_a_send(db_path)
        else:
            time.sleep(rng.uniform(0.0, 0.03))  # a random moment: mid-request, mid-commit...
        victim.kill()
        victim.join(10)
        kills += victim.exitcode == -9
        mid_send += _count(db_path, "state = 'in_flight'") > 0
        cycle += 1
    assert kills == cycle and mid_send > 0, f"{kills} kills of {cycle}, {mid_send} mid-send"
    assert len(made) == RECORDS
    store = asyncio.run(_drain(db_path, url))
    assert store.integrity_check() == "ok"
    counts = store.outbox_counts()
    assert (counts.queued, counts.failed) == (0, 0)
    for table, column in (("contacts", "id"), ("companies", "id"), ("lead_contacts", "contact_id"),
                          ("contacts", "company_id")):
        assert store.scalar(f"SELECT count(*) FROM {table} WHERE {column} < 0") == 0, (table, column)
    adopted = store.scalar(
        "SELECT count(*) FROM outbox WHERE kind LIKE 'create_%' AND json_extract(result, '$.reconciled')"
    )
    print(f"{cycle} kills, {mid_send} mid-send, {adopted} creates found by the probe after a cut")
    return store


@pytest.mark.e2e
@pytest.mark.timeout(900)
def test_kill_minus_nine_with_contacts_made_offline_and_pinned(tmp_path: Path) -> None:
    db_path = tmp_path / "cache.sqlite3"
    made: Made = {}
    with SandboxProcess(tmp_path / "sandbox.sqlite3", "--no-idempotency", leads=len(LEADS)) as server:
        asyncio.run(_prepare(db_path, server.url))
        store = _kill_cycles(db_path, server.url, random.Random(SEED), made, _contact_pinned)
        try:
            pins = {email: store.get_op(op_id) for email, (_lead, op_id) in made.items()}
        finally:
            store.close()
        on_server = _by_text(server.db, "SELECT email, id FROM contacts WHERE email LIKE 'k9-%'")
        key_contacts = {(int(str(a)), int(str(b))) for a, b in _server(server.db, "SELECT lead_id, contact_id FROM outreach_key_contacts")}
    # 0 lost, 0 duplicated: each contact on the service exactly once.
    assert sorted(on_server) == sorted(made) and all(len(ids) == 1 for ids in on_server.values())
    for email, (lead_id, _pin) in made.items():
        [remote] = on_server[email]
        op = pins[email]
        assert op is not None and op.state == "done" and op.payload["contact_id"] == remote
        assert (lead_id, remote) in key_contacts  # the pin on the right contact of the right lead


@pytest.mark.e2e
@pytest.mark.timeout(900)
def test_kill_minus_nine_with_companies_made_offline_and_a_contact_on_each(tmp_path: Path) -> None:
    db_path = tmp_path / "cache.sqlite3"
    made: Made = {}
    with SandboxProcess(tmp_path / "sandbox.sqlite3", "--no-idempotency", leads=len(LEADS)) as server:
        asyncio.run(_prepare(db_path, server.url))
        store = _kill_cycles(db_path, server.url, random.Random(SEED + 1), made, _company_with_contact)
        try:
            contact_ops = {name: store.get_op(op_id) for name, (_lead, op_id) in made.items()}
        finally:
            store.close()
        companies = _by_text(server.db, "SELECT name, id FROM companies WHERE name LIKE 'K9 Werkstatt %'")
        contacts = _by_text(server.db, "SELECT email, company_id FROM contacts WHERE email LIKE 'k9-%'")
    # 0 lost, 0 duplicated: each company and each contact on the service exactly once.
    assert sorted(companies) == sorted(made) and all(len(ids) == 1 for ids in companies.values())
    assert len(contacts) == RECORDS and all(len(ids) == 1 for ids in contacts.values())
    for name, op in contact_ops.items():
        [company_id] = companies[name]
        index = name.rsplit(" ", 1)[1]
        assert contacts[f"k9-{index}@show.example"] == [company_id]  # on its own company
        assert op is not None and op.state == "done" and op.payload["company_id"] == company_id
