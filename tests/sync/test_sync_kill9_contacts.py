"""Kill -9 with contacts made offline (issue 23): 20 contacts created under local ids, each
pinned on a lead at once, while flushers are SIGKILLed at random moments.

A create cut after the service made the contact is found by its probe (the sandbox keeps
no Idempotency-Keys), and the pin waits for its create and goes out with the service's id.
At the end: every contact is on the service exactly once (0 lost, 0 duplicated), each pin
is on the right contact of the right lead, and the cache names no local id any more.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import sqlite3
import time
from pathlib import Path

import pytest

from support.sync_helpers import KEY, SandboxProcess
from warmline import actions
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine

CONTACTS = 20
PER_CYCLE = 2  # contacts queued while each victim flushes
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


def _queue(db_path: Path, rng: random.Random, number: int, made: dict[str, tuple[int, str]]) -> None:
    """Create `number` contacts (each on a lead's company) and pin each on its lead."""
    store = Store(db_path)
    try:
        for _ in range(number):
            index = len(made)
            lead_id = rng.choice(LEADS)
            lead = store.get_lead(lead_id)
            assert lead is not None
            email = f"k9-{index}@show.example"
            contact = actions.create_contact(
                store, {"first_name": f"Met{index}", "last_name": "Atshow", "email": email, "company_id": lead.company_id}
            )
            pin = actions.pin_company_contact(store, lead_id, contact.local_id)
            made[email] = (lead_id, pin)
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


def _server(db: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


@pytest.mark.e2e
@pytest.mark.timeout(900)
def test_kill_minus_nine_with_contacts_made_offline_and_pinned(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    db_path = tmp_path / "cache.sqlite3"
    made: dict[str, tuple[int, str]] = {}
    fork = multiprocessing.get_context("fork")
    with SandboxProcess(tmp_path / "sandbox.sqlite3", "--no-idempotency", leads=len(LEADS)) as server:
        asyncio.run(_prepare(db_path, server.url))
        _queue(db_path, rng, 4, made)
        kills = cycle = mid_send = 0
        while cycle < MIN_CYCLES or len(made) < CONTACTS:
            done_before = _count(db_path, "state = 'done'")
            victim = fork.Process(target=_flush_forever, args=(str(db_path), server.url, cycle), daemon=True)
            victim.start()
            _queue(db_path, rng, min(PER_CYCLE, CONTACTS - len(made)), made)
            _wait_for_delivery(db_path, done_before)
            time.sleep(rng.uniform(0.0, 0.03))
            victim.kill()
            victim.join(10)
            kills += victim.exitcode == -9
            mid_send += _count(db_path, "state = 'in_flight'") > 0
            cycle += 1
        assert kills == cycle and mid_send > 0, f"{kills} kills of {cycle}, {mid_send} mid-send"
        store = asyncio.run(_drain(db_path, server.url))
        try:
            assert store.integrity_check() == "ok"
            counts = store.outbox_counts()
            assert (counts.queued, counts.failed) == (0, 0)
            assert store.scalar("SELECT count(*) FROM contacts WHERE id < 0") == 0
            assert store.scalar("SELECT count(*) FROM lead_contacts WHERE contact_id < 0") == 0
            pins = {email: store.get_op(op_id) for email, (_lead, op_id) in made.items()}
            adopted = store.scalar(
                "SELECT count(*) FROM outbox WHERE kind = 'create_contact' AND json_extract(result, '$.reconciled')"
            )
            print(f"{cycle} kills, {mid_send} mid-send, {adopted} creates found by the probe after a cut")
        finally:
            store.close()
        on_server: dict[str, list[int]] = {}
        for contact_id, email in _server(server.db, "SELECT id, email FROM contacts WHERE email LIKE 'k9-%'"):
            on_server.setdefault(str(email), []).append(int(str(contact_id)))
        key_contacts = {(int(str(a)), int(str(b))) for a, b in _server(server.db, "SELECT lead_id, contact_id FROM outreach_key_contacts")}
    assert len(made) == CONTACTS
    # 0 lost, 0 duplicated: each contact on the service exactly once.
    assert sorted(on_server) == sorted(made) and all(len(ids) == 1 for ids in on_server.values())
    for email, (lead_id, _pin) in made.items():
        [remote] = on_server[email]
        op = pins[email]
        assert op is not None and op.state == "done" and op.payload["contact_id"] == remote
        assert (lead_id, remote) in key_contacts  # the pin on the right contact of the right lead
