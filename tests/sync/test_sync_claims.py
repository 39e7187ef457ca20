"""Issue 21, item 2: claims that expire.

An op is claimed (in flight) by the sender about to send it. Before, the claim named only
a pid, and recovery asked `os.kill(pid, 0)`: a pid reused by any live process, or the pid
of a sender in another PID namespace, kept the op in flight for ever; `sync` skipped it,
`outbox discard` refused it, and its lead's queue was blocked.

Now a claim names its sender by pid, boot id, PID namespace and start time, and carries a
lease its live sender renews. A claim whose sender is gone, or that this process cannot
check and whose lease ran out, is ambiguous: reconciled with the service like a cut send,
never resent blindly, never left.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.sync_helpers import FakeClock, FaultyTransport, server_rows
from warmline import actions
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.store.outbox import CLAIM_LEASE_SECONDS, Claim, OpStateError
from warmline.sync import SyncEngine

LEAD = 1

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process identities come from /proc")


def log(store: Store, text: str) -> str:
    return store.enqueue("log_activity", {"lead_id": LEAD, "description": text, "contact_id": None}, LEAD,
                         {"guessed_type": "other"})


def _ours(store: Store) -> tuple[str, str, str]:
    """(boot id, PID namespace, start ticks) as this process's claims carry them."""
    boot, namespace, start = Claim.parse(store.claimant).identity.split("/")
    return boot, namespace, start


def _claimed_by(store: Store, op_id: str, claimant: str, *, lease_left: float | None) -> None:
    """Make the op look claimed by `claimant` (a sender of another process)."""
    assert store.mark_in_flight(op_id)
    lease = None if lease_left is None else store.clock() + lease_left
    store.conn.execute("UPDATE outbox SET claimed_by = ?, claim_until = ? WHERE op_id = ?", (claimant, lease, op_id))


@pytest.fixture
def bystander() -> Iterator[int]:
    """The pid of a live process that is no Warmline sender (a pid reused after a crash)."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    yield proc.pid
    proc.communicate(b"")


async def _sent_then_died(store: Store, client: ServiceClient, text: str, claimant: str,
                          lease_left: float | None = CLAIM_LEASE_SECONDS) -> str:
    """An op another process claimed and sent (the service applied it), which then died
    before recording the answer."""
    op_id = log(store, text)
    _claimed_by(store, op_id, claimant, lease_left=lease_left)
    await client.log_touchpoint(LEAD, text, idempotency_key=op_id)
    return op_id


async def test_a_claim_whose_pid_now_belongs_to_another_process_is_reconciled_not_left(
    engine: SyncEngine, store: Store, client: ServiceClient, sandbox, bystander: int
) -> None:
    boot, namespace, _start = _ours(store)
    claimant = f"{bystander}:dead0001:{boot}/{namespace}/1"  # its sender started at tick 1: not this process
    op_id = await _sent_then_died(store, client, "Sent by a sender whose pid was reused", claimant)
    queued_behind = log(store, "Queued behind it")

    report = await engine.run_once()

    assert (report.flush.reconciled, report.flush.delivered) == (1, 1)
    assert {store.get_op(op_id).state, store.get_op(queued_behind).state} == {"done"}
    on_server = server_rows(sandbox, "outreach_touchpoints", "description", LEAD)
    assert on_server.count("Sent by a sender whose pid was reused") == 1  # adopted, not resent


async def test_a_claim_from_before_this_boot_is_taken_over(
    engine: SyncEngine, store: Store, client: ServiceClient, sandbox, bystander: int
) -> None:
    _boot, namespace, start = _ours(store)
    claimant = f"{bystander}:dead0002:00000000-0000-0000-0000-000000000000/{namespace}/{start}"
    op_id = await _sent_then_died(store, client, "Sent before a reboot", claimant)
    assert store.recover_after_crash() == 1
    assert store.get_op(op_id).state == "ambiguous"


async def test_a_sender_in_another_pid_namespace_stands_for_its_lease_then_is_reconciled(
    engine: SyncEngine, store: Store, client: ServiceClient, sandbox, clock: FakeClock, transport: FaultyTransport
) -> None:
    boot, _namespace, start = _ours(store)
    claimant = f"{store.claimant.split(':')[0]}:foreign1:{boot}/1/{start}"  # a pid of another namespace
    op_id = await _sent_then_died(store, client, "Sent from a container", claimant)

    assert store.recover_after_crash() == 0  # it may still be sending: not ours to resend
    assert (await engine.run_once()).flush.attempted == 0
    assert store.get_op(op_id).state == "in_flight"
    clock.advance(CLAIM_LEASE_SECONDS + 1)
    report = await engine.run_once()

    assert report.flush.reconciled == 1
    assert store.get_op(op_id).state == "done"
    on_server = server_rows(sandbox, "outreach_touchpoints", "description", LEAD)
    assert on_server.count("Sent from a container") == 1
    assert [key for method, _path, key, _fault in transport.log if method == "POST"].count(op_id) == 1


async def test_the_running_engine_takes_over_a_claim_whose_lease_ran_out(
    engine: SyncEngine, store: Store, client: ServiceClient, sandbox, clock: FakeClock
) -> None:
    """The cockpit runs for days: a sender that dies meanwhile must not block its lead
    until the next start."""
    boot, _namespace, start = _ours(store)
    claimant = f"12345:foreign2:{boot}/1/{start}"
    op_id = await _sent_then_died(store, client, "Sent by a sender that died later", claimant)
    clock.advance(CLAIM_LEASE_SECONDS + 1)

    await engine._flush_job()

    assert store.get_op(op_id).state == "done"
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD).count("Sent by a sender that died later") == 1


def test_an_older_claim_naming_only_a_live_pid_stands_until_its_lease_from_the_claim(
    engine: SyncEngine, store: Store, clock: FakeClock, bystander: int
) -> None:
    """Claims written before this version carry `pid:tag` and no lease: the pid must be
    alive and the claim younger than a lease."""
    op_id = log(store, "Claimed by an older Warmline")
    _claimed_by(store, op_id, f"{bystander}:oldform", lease_left=None)
    assert store.recover_after_crash() == 0
    clock.advance(CLAIM_LEASE_SECONDS + 1)
    assert store.recover_after_crash() == 1
    assert store.get_op(op_id).state == "ambiguous"


def test_a_live_sender_renews_its_lease_at_each_commit(store: Store, engine: SyncEngine, clock: FakeClock) -> None:
    first, second = log(store, "First"), store.enqueue("start_deep_search", {"query": "dental", "max_results": 5})
    assert [op.op_id for op in store.claim_due(limit=1)] == [first]
    clock.advance(CLAIM_LEASE_SECONDS - 1)
    assert [op.op_id for op in store.claim_due()] == [second]
    assert store.get_op(first).claim_until == clock() + CLAIM_LEASE_SECONDS


def test_discard_takes_over_an_op_whose_sender_is_gone(store: Store, engine: SyncEngine, bystander: int) -> None:
    boot, namespace, _start = _ours(store)
    op_id = log(store, "Left in flight by a dead sender")
    _claimed_by(store, op_id, f"{bystander}:dead0003:{boot}/{namespace}/1", lease_left=CLAIM_LEASE_SECONDS)

    assert store.discard(op_id).op_id == op_id

    assert store.get_op(op_id) is None
    assert "Left in flight by a dead sender" not in [t.description for t in store.lead_detail(LEAD).touchpoints]


def test_discard_of_an_op_being_sent_says_who_sends_it_and_what_to_do(
    store: Store, engine: SyncEngine, clock: FakeClock
) -> None:
    boot, _namespace, start = _ours(store)
    mine, sent_elsewhere, foreign = log(store, "Mine"), log(store, "Elsewhere"), log(store, "Foreign")
    assert store.mark_in_flight(mine)
    with pytest.raises(OpStateError, match="being sent right now"):
        store.discard(mine)

    proc = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from warmline.store import Store\n"
         f"s = Store({str(store.path)!r}); s.conn.execute(\"UPDATE outbox SET claimed_by = ?, state = 'in_flight'"
         f" WHERE op_id = ?\", (s.claimant, {sent_elsewhere!r}))\nprint('claimed', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "claimed"
        with pytest.raises(OpStateError, match=f"process {proc.pid} is sending it right now"):
            store.discard(sent_elsewhere)
    finally:
        proc.communicate("")
    assert store.discard(sent_elsewhere).op_id == sent_elsewhere  # its sender is gone now

    _claimed_by(store, foreign, f"4242:foreign3:{boot}/1/{start}", lease_left=90)
    with pytest.raises(OpStateError, match="process 4242, which this process cannot check.*runs out in 90 s"):
        store.discard(foreign)


def test_discard_all_takes_the_ops_of_gone_senders_and_leaves_those_being_sent(
    store: Store, engine: SyncEngine, bystander: int
) -> None:
    boot, namespace, _start = _ours(store)
    gone = log(store, "Left by a dead sender")
    _claimed_by(store, gone, f"{bystander}:dead0004:{boot}/{namespace}/1", lease_left=CLAIM_LEASE_SECONDS)
    sending = store.enqueue("start_deep_search", {"query": "dental", "max_results": 5})
    assert store.mark_in_flight(sending)  # being sent by this process

    assert actions.discard_all(store) == 1

    assert store.get_op(gone) is None
    assert store.get_op(sending).state == "in_flight"


def _state_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return "gone"


def test_a_sender_killed_but_not_yet_reaped_is_gone(store: Store, engine: SyncEngine) -> None:
    """A zombie keeps its pid and start time until its parent reaps it: it sends nothing."""
    op_id = log(store, "Claimed by a sender then killed")
    code = (
        "import sys; from warmline.store import Store\n"
        f"s = Store({str(store.path)!r}); assert s.mark_in_flight({op_id!r})\n"
        "print('claimed', flush=True); sys.stdin.read()\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "claimed"
        assert store.recover_after_crash() == 0  # alive: its claim stands
        proc.kill()
        deadline = time.monotonic() + 60
        while _state_of(proc.pid) != "Z":  # killed, not reaped: we have not waited for it
            assert time.monotonic() < deadline, f"the killed sender is {_state_of(proc.pid)}"
            time.sleep(0.01)
        assert store.recover_after_crash() == 1
        assert store.get_op(op_id).state == "ambiguous"
    finally:
        proc.kill()
        proc.communicate()
