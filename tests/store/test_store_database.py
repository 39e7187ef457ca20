"""The connection settings, transactions and forward migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from warmline.store import Store, StoreError, default_db_path
from warmline.store.database import Database
from warmline.store.schema import MIGRATIONS, current_version, migrate


def test_connection_is_configured_for_durability_and_concurrency(store: Store) -> None:
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL
    assert store.pragma("busy_timeout") == 5000
    assert store.pragma("foreign_keys") == 1
    assert store.integrity_check() == "ok"
    assert store.schema_version == len(MIGRATIONS)


def test_default_path_follows_the_data_dir_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "wl"))
    assert default_db_path() == tmp_path / "wl" / "cache.sqlite3"


def test_write_commits_and_rolls_back_as_a_whole(store: Store) -> None:
    store.set_state("a", 1)
    with pytest.raises(RuntimeError), store.write() as conn:
        conn.execute("UPDATE sync_state SET value = '2' WHERE key = 'a'")
        conn.execute("INSERT INTO sync_state (key, value) VALUES ('b', '3')")
        raise RuntimeError("boom")
    assert store.get_state("a") == 1
    assert store.get_state("b") is None


def test_nested_writes_join_the_outer_transaction(store: Store) -> None:
    with pytest.raises(RuntimeError), store.write():
        store.set_state("inner", True)  # its own write() joins ours
        raise RuntimeError("undo both")
    assert store.get_state("inner") is None


def test_writing_inside_a_read_is_refused(store: Store) -> None:
    with pytest.raises(StoreError), store.read():
        store.set_state("x", 1)


def test_a_second_connection_sees_only_committed_writes(store: Store, db_path: Path) -> None:
    other = sqlite3.connect(db_path)
    with store.write() as conn:
        conn.execute("INSERT INTO sync_state (key, value) VALUES ('k', '1')")
        assert other.execute("SELECT count(*) FROM sync_state").fetchone()[0] == 0
    assert other.execute("SELECT count(*) FROM sync_state").fetchone()[0] == 1
    other.close()


def _v1(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT)")


def _v2(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE things ADD COLUMN colour TEXT NOT NULL DEFAULT 'blue'")


def test_opening_an_old_database_applies_the_missing_migrations(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = Database(path)
    assert migrate(old.conn, [_v1]) == 1
    old.conn.execute("INSERT INTO things (name) VALUES ('kept')")
    old.close()

    new = Database(path)
    assert migrate(new.conn, [_v1, _v2]) == 2
    assert new.rows("SELECT name, colour FROM things") == [{"name": "kept", "colour": "blue"}]
    assert [r["version"] for r in new.rows("SELECT version FROM schema_version ORDER BY version")] == [1, 2]
    # Migrating again is a no-op.
    assert migrate(new.conn, [_v1, _v2]) == 2
    new.close()


def test_an_upgrade_of_an_old_file_is_told_once_before_it_runs(tmp_path: Path) -> None:
    told: list[tuple[int, int]] = []

    def on_upgrade(version: int, target: int) -> None:
        told.append((version, target))

    new_file = Database(tmp_path / "new.sqlite3")
    assert migrate(new_file.conn, [_v1, _v2], on_upgrade) == 2
    assert told == []  # a new file: nothing to wait for
    assert migrate(new_file.conn, [_v1, _v2], on_upgrade) == 2
    assert told == []  # up to date
    new_file.close()

    old = Database(tmp_path / "old.sqlite3")
    migrate(old.conn, [_v1])
    seen: list[int] = []

    def v3(conn: sqlite3.Connection) -> None:
        seen.append(len(told))

    assert migrate(old.conn, [_v1, _v2, v3], on_upgrade) == 3
    assert told == [(1, 3)] and seen == [1]  # once, before the migrations ran
    old.close()


def test_the_cockpit_says_it_updates_an_old_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import warmline.cockpit
    from warmline.config import Config

    path = tmp_path / "data" / "cache.sqlite3"
    path.parent.mkdir()
    old = Database(path)
    migrate(old.conn, MIGRATIONS[:-1])
    old.close()
    opened: list[int] = []
    monkeypatch.setattr(warmline.cockpit, "run_cockpit", lambda store, **_: opened.append(store.schema_version))
    monkeypatch.setattr(warmline.cockpit.logfile, "configure", lambda **_: [])
    warmline.cockpit.start_cockpit(Config(api_key="k", data_dir=tmp_path / "data"))
    assert opened == [len(MIGRATIONS)]
    assert "Updating the cache for this version of Warmline" in capsys.readouterr().err
    warmline.cockpit.start_cockpit(Config(api_key="k", data_dir=tmp_path / "data"))
    assert capsys.readouterr().err == ""  # up to date: nothing said


def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    migrate(db.conn, [_v1])

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE things ADD COLUMN half TEXT")
        raise RuntimeError("bad migration")

    with pytest.raises(RuntimeError):
        migrate(db.conn, [_v1, broken])
    assert current_version(db.conn) == 1
    assert "half" not in {r["name"] for r in db.rows("PRAGMA table_info(things)")}
    db.close()


def test_a_database_from_a_newer_warmline_is_refused(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    migrate(db.conn, [_v1, _v2])
    with pytest.raises(RuntimeError, match="newer"):
        migrate(db.conn, [_v1])
    db.close()


def test_the_real_schema_reopens_without_change(db_path: Path) -> None:
    first = Store(db_path)
    first.set_state("kept", "yes")
    first.close()
    second = Store(db_path)
    assert second.get_state("kept") == "yes"
    assert second.schema_version == len(MIGRATIONS)
    second.close()
