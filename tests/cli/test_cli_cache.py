"""`warmline cache path | reset` (issue #14): reset reports what the old cache still holds,
asks, and moves the cache file set aside, never deleting it; the errors about a cache
Warmline cannot read point to it.

The runs that depend on the terminal, on another process holding the cache, or on the
cockpit's start go through the real command line (`python -m warmline` in a subprocess).
"""

from __future__ import annotations

import hashlib
import json
import os
import pty
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from warmline import actions
from warmline.cli import main
from warmline.store import Store
from warmline.store.reset import aside_name, cache_files, inspect_cache, move_cache_aside

LEAD = 900
RUN_TIMEOUT = 60.0  # a cap on a hung run, not a timing assertion
RESET_HINT = "`warmline cache reset` moves it aside"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir of one's own, no config file, a key (so plain `warmline` is the cockpit)."""
    path = tmp_path / "data"
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(path))
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.setenv("WARMLINE_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("WARMLINE_API_KEY", "test-key")
    return path


def queued_cache(db: Path) -> None:
    """3 actions not yet sent, 1 failed, a job started offline and one running, left by a
    process that ended without closing the cache: the last writes are in its -wal file."""
    script = f"""
import os
from warmline import actions
from warmline.store import Store
store = Store({str(db)!r})
store.upsert_leads([{{"id": {LEAD}, "company_name": "Acme One"}}])
for text in ("one", "two", "three"):
    actions.add_note(store, {LEAD}, text)
failed = actions.add_note(store, {LEAD}, "refused")
store.mark_failed(failed, "Lead is closed")
actions.start_deep_search(store, "dental clinics in Bavaria")
store.record_job("deep_search", 77, {{"id": 77, "status": "running"}})
os._exit(0)  # as a kill: no checkpoint, the -wal and -shm stay
"""
    subprocess.run([sys.executable, "-c", script], check=True, timeout=RUN_TIMEOUT)


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def contents_of(files: list[Path], name: str) -> dict[str, str]:
    """The cache's data files by their role, byte for byte. Not the -shm: it is SQLite's index
    of the -wal, which any reader rebuilds after a process ended without closing."""
    return {
        p.name.replace(name, "cache.sqlite3"): fingerprint(p)
        for p in files
        if not p.name.endswith("-shm")
    }


def outbox_states(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return sorted(row[0] for row in conn.execute("SELECT state FROM outbox"))
    finally:
        conn.close()


def child_env(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARMLINE_")}
    env.update(
        WARMLINE_DATA_DIR=str(data),
        WARMLINE_CONFIG=str(data.parent / "absent.toml"),
        WARMLINE_BASE_URL="http://127.0.0.1:9",
        WARMLINE_API_KEY="test-key",
        TERM="dumb",
        # The cockpit drawn into a pipe, as chosen: without a terminal it would refuse
        # before it looks at the cache (warmline.terminal).
        TEXTUAL_DRIVER="textual.drivers.linux_driver:LinuxDriver",
    )
    return env


# --- path ------------------------------------------------------------------------------------


def test_path_prints_the_cache_file_of_the_data_dir(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = run("cache", "path")
    assert result.exit_code == 0
    assert result.stdout == f"{data / 'cache.sqlite3'}\n"
    assert not data.exists()  # only says where: makes nothing
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{tmp_path / "elsewhere"}"\n')
    monkeypatch.setenv("WARMLINE_CONFIG", str(config))
    monkeypatch.delenv("WARMLINE_DATA_DIR")
    assert run("cache", "path").stdout == f"{tmp_path / 'elsewhere' / 'cache.sqlite3'}\n"


# --- reset -----------------------------------------------------------------------------------


def test_reset_reports_what_stays_behind_and_moves_the_file_set(data: Path) -> None:
    db = data / "cache.sqlite3"
    queued_cache(db)
    assert {p.name for p in cache_files(db)} == {
        "cache.sqlite3",
        "cache.sqlite3-wal",
        "cache.sqlite3-shm",
    }
    before = contents_of(cache_files(db), db.name)

    result = run("cache", "reset", "--yes")

    assert result.exit_code == 0, result.stderr
    assert (
        f"The local cache {db} holds 3 actions not yet sent, 1 failed, 1 job not started yet and"
        " 1 job running on the service"
    ) in result.stderr
    (moved,) = data.glob("cache.sqlite3.*.bak")
    assert result.stdout == (
        "3 actions not yet sent, 1 failed, 1 job not started yet and 1 job running on the service"
        f" (its results do not reach a new cache) stay in the old file: {moved}\n"
    )
    # Renamed alike, never rewritten: the old cache still opens with its last writes.
    assert not cache_files(db)
    assert {p.name for p in cache_files(moved)} == {
        moved.name,
        f"{moved.name}-wal",
        f"{moved.name}-shm",
    }
    assert contents_of(cache_files(moved), moved.name) == before
    assert outbox_states(moved) == ["failed", "pending", "pending", "pending", "pending"]
    # The next start builds a new, empty cache.
    assert run("outbox").exit_code == 0
    assert outbox_states(db) == []


def test_reset_of_a_cache_that_is_not_sqlite(data: Path) -> None:
    data.mkdir()
    db = data / "cache.sqlite3"
    db.write_bytes(bytes(range(256)) * 64)
    before = fingerprint(db)
    refused = run("leads")
    assert refused.exit_code == 5
    assert refused.stderr.count("\n") == 1 and RESET_HINT in refused.stderr

    result = run("cache", "reset", "--yes")

    assert result.exit_code == 0, result.stderr
    assert (
        f"The local cache {db} is damaged or not a Warmline cache (file is not a database)."
        in result.stderr
    )
    assert "What it holds cannot be read" in result.stderr
    (moved,) = data.glob("cache.sqlite3.*.bak")
    assert result.stdout == f"Whatever it holds stays in the old file: {moved}\n"
    assert fingerprint(moved) == before and not db.exists()
    assert run("leads").exit_code == 0


def test_reset_of_a_cache_from_a_newer_warmline_counts_what_it_can_read(data: Path) -> None:
    db = data / "cache.sqlite3"
    store = Store(db)
    store.upsert_leads([{"id": LEAD, "company_name": "Acme One"}])
    actions.add_note(store, LEAD, "queued by the newer version")
    store.conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (999, 'later')")
    store.close()
    refused = run("outbox")
    assert refused.exit_code == 5
    assert (
        "newer Warmline" in refused.stderr
        and "`warmline cache reset` moves it aside" in refused.stderr
    )

    result = run("cache", "reset", "--yes")

    assert result.exit_code == 0, result.stderr
    assert "was written by a newer Warmline (schema 999, this one knows" in result.stderr
    assert "It holds 1 action not yet sent" in result.stderr
    (moved,) = data.glob("cache.sqlite3.*.bak")
    assert result.stdout == f"1 action not yet sent stays in the old file: {moved}\n"
    with Store(db) as fresh:
        assert fresh.schema_version < 999  # a new cache of this version


def test_reset_json(data: Path) -> None:
    db = data / "cache.sqlite3"
    queued_cache(db)
    result = run("cache", "reset", "--yes", "--json")
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    (moved,) = data.glob("cache.sqlite3.*.bak")
    assert answer["moved_to"] == str(moved) and answer["path"] == str(db)
    assert (
        answer["not_sent"],
        answer["failed"],
        answer["jobs_queued"],
        answer["jobs_running"],
    ) == (3, 1, 1, 1)
    assert {Path(f["to"]).name for f in answer["files"]} == {
        moved.name,
        f"{moved.name}-wal",
        f"{moved.name}-shm",
    }


def test_without_a_terminal_it_asks_for_yes_and_moves_nothing(data: Path) -> None:
    db = data / "cache.sqlite3"
    queued_cache(db)
    before = contents_of(cache_files(db), db.name)
    result = run("cache", "reset")
    assert result.exit_code == 2
    assert (
        result.stderr.splitlines()[-1]
        == "Error: not moved: no terminal to ask; pass --yes to move it aside"
    )
    assert "holds 3 actions not yet sent" in result.stderr  # said before refusing
    assert contents_of(cache_files(db), db.name) == before
    assert not list(data.glob("*.bak*"))


@pytest.mark.parametrize(("answer", "code"), [(b"n\n", 1), (b"y\n", 0)])
def test_at_a_terminal_it_asks(data: Path, answer: bytes, code: int) -> None:
    db = data / "cache.sqlite3"
    queued_cache(db)
    master, slave = pty.openpty()
    try:
        os.write(master, answer)
        process = subprocess.run(
            [sys.executable, "-m", "warmline", "cache", "reset"],
            stdin=slave,
            capture_output=True,
            env=child_env(data),
            timeout=RUN_TIMEOUT,
        )
    finally:
        os.close(slave)
        os.close(master)
    stderr = process.stderr.decode()
    assert process.returncode == code, stderr
    assert "Move the cache aside? [y/N]" in stderr
    assert db.exists() == (code == 1)
    assert len(list(data.glob("cache.sqlite3.*.bak"))) == (code == 0)
    if code == 1:
        assert stderr.splitlines()[-1].endswith("Error: Nothing moved.")


@pytest.fixture
def holder(data: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process with the cache open (as the cockpit or `warmline sync --watch` has)."""
    Store(data / "cache.sqlite3").close()
    script = (
        "import sys\nfrom warmline.store import Store\n"
        f"store = Store({str(data / 'cache.sqlite3')!r})\nstore.lead_count()\n"
        "print('open', flush=True)\nsys.stdin.readline()\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline() == "open\n"
    yield process
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=RUN_TIMEOUT)


def test_refused_while_another_warmline_has_it_open(
    data: Path, holder: subprocess.Popen[str]
) -> None:
    db = data / "cache.sqlite3"
    result = run("cache", "reset", "--yes")
    assert result.exit_code == 5
    assert result.stderr == (
        f"Error: the local cache {db} is open in another Warmline (the cockpit or"
        " `warmline sync`); quit it and run `warmline cache reset` again\n"
    )
    assert db.exists() and not list(data.glob("*.bak"))


def test_no_cache_nothing_to_move(data: Path) -> None:
    result = run("cache", "reset", "--yes")
    assert result.exit_code == 0
    assert result.stderr == f"No cache at {data / 'cache.sqlite3'}: nothing to move.\n"


def test_a_directory_in_the_cache_s_place_is_not_moved(data: Path) -> None:
    (data / "cache.sqlite3").mkdir(parents=True)
    result = run("cache", "reset", "--yes")
    assert result.exit_code == 5
    assert result.stderr.count("\n") == 1 and "is not a file" in result.stderr
    assert (data / "cache.sqlite3").is_dir()


def test_the_cockpit_s_error_points_to_reset(data: Path) -> None:
    data.mkdir()
    (data / "cache.sqlite3").write_bytes(b"not a database at all" * 100)
    process = subprocess.run(
        [sys.executable, "-m", "warmline"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=child_env(data),
        timeout=RUN_TIMEOUT,
    )
    assert process.returncode == 5
    (line,) = [line for line in process.stderr.decode().splitlines() if line.startswith("Error:")]
    assert line.endswith(
        f"{RESET_HINT} (queued actions in it are not sent) and the next start builds a new one"
    )


# --- the move itself ---------------------------------------------------------------------------


def test_a_taken_name_is_never_overwritten(tmp_path: Path) -> None:
    db = tmp_path / "cache.sqlite3"
    now = datetime(2026, 11, 24, 3, 12, 0, tzinfo=UTC)
    first = aside_name(db, now)
    assert first.name == "cache.sqlite3.2026-11-24T031200Z.bak"
    Path(f"{first}-wal").write_text("a companion of an earlier reset")  # even a companion counts
    second = aside_name(db, now)
    assert second.name == "cache.sqlite3.2026-11-24T031200Z-2.bak"
    Store(db).close()
    moved = move_cache_aside(db, now)
    assert (
        moved.target == second
        and Path(f"{first}-wal").read_text() == "a companion of an earlier reset"
    )
    assert inspect_cache(second).not_sent == 0 and not inspect_cache(db).exists


def test_inspecting_a_cleanly_closed_cache_leaves_no_file_behind(tmp_path: Path) -> None:
    db = tmp_path / "cache.sqlite3"
    Store(db).close()
    assert [p.name for p in cache_files(db)] == ["cache.sqlite3"]
    before = fingerprint(db)
    assert inspect_cache(db).not_sent == 0
    assert [p.name for p in cache_files(db)] == ["cache.sqlite3"] and fingerprint(db) == before
