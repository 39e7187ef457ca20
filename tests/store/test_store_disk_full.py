"""A disk that refuses is not a damaged cache (issue 21, item 8).

Before, a write on a full disk (and a read-only file, and an I/O error) came out as "the
local cache is damaged or not a Warmline cache ... `warmline cache reset`", from every
command, reads included, and closed the cockpit. Now the store says which way the disk
refused (`CacheDiskError`: full, no permission, I/O error) and what to do, rolls the
transaction back whole, and only a damaged file is pointed to `cache reset`. Reads go on.

The disk is simulated (support.disk_full): SQLite's own errors from every statement that
changes data, as a real full disk gives them.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.cli_sandbox import configure, serve
from support.disk_full import (
    DAMAGED,
    FULL,
    IO_ERROR,
    READ_ONLY,
    refuse_writes,
    refuse_writes_everywhere,
)
from support.store_data import lead_item
from warmline import actions
from warmline.cli import main
from warmline.exit_codes import EXIT_CACHE
from warmline.store import CacheUnusable, Store, StoreError, database
from warmline.store.database import CacheDiskError, cache_unusable, retrying

RESET = "cache reset"
WORDS = {FULL: "the disk is full", READ_ONLY: "no permission", IO_ERROR: "I/O error"}
KINDS = {FULL: database.FULL, READ_ONLY: database.NO_PERMISSION, IO_ERROR: database.IO_ERROR}


@pytest.fixture
def acme(store: Store) -> Store:
    store.upsert_leads([lead_item(900, "Acme")])
    return store


def test_a_write_on_a_full_disk_is_refused_whole_and_reads_go_on(acme: Store) -> None:
    refused = refuse_writes(acme)
    with pytest.raises(CacheDiskError) as caught:
        actions.add_note(acme, 900, "Budget approved")
    assert refused.refused  # the note's write did reach the disk, which refused it
    error = caught.value
    assert error.kind == database.FULL
    assert str(error) == "the disk is full: free space and try again"
    assert isinstance(error, StoreError) and isinstance(error, CacheUnusable)
    assert isinstance(error, sqlite3.OperationalError)
    assert not acme.conn.in_transaction
    assert acme.outbox_rows() == []
    assert [lead.company_name for lead in acme.lead_page()] == ["Acme"]


@pytest.mark.parametrize("message", [FULL, READ_ONLY, IO_ERROR])
def test_each_way_the_disk_refuses_is_told_apart_and_none_points_to_reset(acme: Store, message: str) -> None:
    refuse_writes(acme, message)
    with pytest.raises(CacheDiskError) as caught:
        actions.add_note(acme, 900, "Budget approved")
    assert caught.value.kind == KINDS[message]
    assert WORDS[message] in str(caught.value)
    assert RESET not in str(caught.value)


def test_a_damaged_page_met_by_a_write_still_points_to_reset(acme: Store) -> None:
    refuse_writes(acme, DAMAGED)
    with pytest.raises(sqlite3.DatabaseError) as caught:
        actions.add_note(acme, 900, "Budget approved")
    assert not isinstance(caught.value, CacheDiskError)
    said = str(cache_unusable(acme.path, caught.value))
    assert "damaged" in said and RESET in said


def test_an_io_error_on_a_disk_without_free_space_is_a_full_disk(
    acme: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite says "disk I/O error" when it cannot grow its -shm file on a full disk."""
    monkeypatch.setattr(database, "free_bytes", lambda directory: 0)
    refuse_writes(acme, IO_ERROR)
    with pytest.raises(CacheDiskError) as caught:
        actions.add_note(acme, 900, "Budget approved")
    assert caught.value.kind == database.FULL


def test_the_caller_says_how_to_retry(acme: Store) -> None:
    refuse_writes(acme)
    with retrying("press ctrl+s again"), pytest.raises(CacheDiskError) as caught:
        actions.add_note(acme, 900, "Budget approved")
    assert str(caught.value) == "the disk is full: free space and press ctrl+s again"


@pytest.mark.parametrize(
    ("code", "words"),
    [(errno.ENOSPC, "the disk is full"), (errno.EROFS, "no permission"), (errno.EIO, "I/O error")],
)
def test_the_os_words_are_read_too(tmp_path: Path, code: int, words: str) -> None:
    said = cache_unusable(None, OSError(code, "refused"))
    assert words in str(said) and RESET not in str(said)


def test_a_cache_opened_on_a_full_disk_is_read_in_exclusive_mode(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WAL reads need a -shm file that a full disk cannot hold (SQLite: "disk I/O error"
    at the first pragma); exclusive locking mode keeps that index in memory."""
    seeded = Store(db_path)
    seeded.upsert_leads([lead_item(900, "Acme")])
    seeded.close()
    real_open = database._open
    attempts: list[bool] = []

    def full_disk_open(target: str, *, exclusive: bool = False) -> sqlite3.Connection:
        attempts.append(exclusive)
        if not exclusive:
            raise sqlite3.OperationalError("disk I/O error")
        return real_open(target, exclusive=True)

    monkeypatch.setattr(database, "_open", full_disk_open)
    monkeypatch.setattr(database, "free_bytes", lambda directory: 0)
    store = Store(db_path)
    try:
        assert attempts == [False, True]
        assert store.pragma("locking_mode") == "exclusive"
        assert [lead.company_name for lead in store.lead_page()] == ["Acme"]
    finally:
        store.close()


def test_a_cache_that_cannot_be_opened_even_so_says_the_disk_is_full(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Store(db_path).close()

    def no_open(target: str, *, exclusive: bool = False) -> sqlite3.Connection:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(database, "_open", no_open)
    monkeypatch.setattr(database, "free_bytes", lambda directory: 0)
    with pytest.raises(CacheDiskError) as caught:
        Store(db_path)
    assert str(caught.value).startswith("the disk is full") and RESET not in str(caught.value)


# --- the command line --------------------------------------------------------------------------


@pytest.fixture
def cli_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    configure(monkeypatch, data)
    serve(monkeypatch, None)  # offline: nothing is sent
    monkeypatch.setenv("WARMLINE_NO_DETACH", "1")
    seeded = Store(data / "cache.sqlite3")
    seeded.upsert_leads([lead_item(900, "Acme")])
    seeded.close()
    return data


@pytest.mark.parametrize("read", [["leads"], ["lead", "900", "--no-refresh"], ["outbox"], ["today"]], ids=" ".join)
def test_commands_that_read_work_on_a_full_disk(cli_cache: Path, monkeypatch: pytest.MonkeyPatch, read: list[str]) -> None:
    refuse_writes_everywhere(monkeypatch, FULL)
    result = CliRunner().invoke(main, read)
    assert result.exit_code == 0, result.output
    assert "Error" not in result.output


@pytest.mark.parametrize("message", [FULL, READ_ONLY, IO_ERROR, DAMAGED])
def test_a_command_that_writes_says_what_the_disk_did(
    cli_cache: Path, monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    refuse_writes_everywhere(monkeypatch, message)
    result = CliRunner().invoke(main, ["note", "900", "Budget approved", "--wait"])
    assert result.exit_code == EXIT_CACHE, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: ")
    if message == DAMAGED:
        assert "damaged" in line and RESET in line
    else:
        assert WORDS[message] in line and RESET not in line
