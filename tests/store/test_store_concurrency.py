"""Two processes writing the same cache at once (the CLI and a background flush loop)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from warmline.store import Store

ENQUEUER = """
import sys
from warmline.store import Store
store = Store(sys.argv[1])
lead, count = int(sys.argv[2]), int(sys.argv[3])
for i in range(count):
    store.enqueue("add_note", {"lead_id": lead, "content": f"{lead}-{i}"}, lead_id=lead)
print("ok")
"""

FLUSHER = """
import sys
from warmline.store import Store
store = Store(sys.argv[1])
target = int(sys.argv[2])
done = 0
while done < target:
    for op in store.due_ops(limit=20):
        if store.mark_in_flight(op.op_id):
            note = {"id": op.seq, "content": op.payload["content"], "created_at": op.created_at}
            assert store.mark_done(op.op_id, {"note": note})
            done += 1
    store.upsert_leads([{"id": 3, "company_name": f"Busy {done}", "lead_status": "cold"}])
print("ok")
"""


def _run(code: str, *args: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_two_writers_and_a_flusher_lose_nothing_and_never_lock(db_path: Path, lead_item) -> None:
    store = Store(db_path)
    store.upsert_leads([lead_item(1), lead_item(2), lead_item(3)])
    per_writer = 150
    procs = [
        _run(ENQUEUER, db_path, 1, per_writer),
        _run(ENQUEUER, db_path, 2, per_writer),
        _run(FLUSHER, db_path, 2 * per_writer),
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert "locked" not in err
        assert out.strip() == "ok"
    rows = store.rows("SELECT lead_id, payload, state FROM outbox ORDER BY seq")
    assert len(rows) == 2 * per_writer
    assert {r["state"] for r in rows} == {"done"}
    for lead in (1, 2):
        notes = store.rows("SELECT content FROM notes WHERE lead_id = ? ORDER BY id", (lead,))
        assert [n["content"] for n in notes] == [f"{lead}-{i}" for i in range(per_writer)]
    assert store.integrity_check() == "ok"
    store.close()


def test_threads_share_one_store(store: Store, lead_item) -> None:
    store.upsert_leads([lead_item(1)])
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(50):
                store.enqueue("add_note", {"lead_id": 1, "content": f"{n}-{i}"}, lead_id=1)
                store.lead_page()
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert store.outbox_counts().pending == 200
    assert len(store.lead_detail(1).notes) == 200
