"""The SQLite connection Warmline configures, and its transactions.

Why each setting:
- WAL lets the cockpit read while the flush loop (or `warmline sync` in another process)
  writes; `synchronous=FULL` makes a committed action survive a power cut or kill -9.
- Every write runs in `BEGIN IMMEDIATE`: the write lock is taken at the start, so two
  writers queue on `busy_timeout` instead of failing half-way with "database is locked"
  (which a deferred transaction upgrading to a writer can do without waiting).
- Python's own transaction handling is off (`isolation_level=None`); we issue BEGIN and
  COMMIT ourselves, and sqlite-utils nests its work in savepoints inside ours.
- One connection per `Database`, shared by threads (Textual workers, the asyncio loop)
  behind a re-entrant lock, because an sqlite3 connection must not be used concurrently.

A disk that refuses is not a damaged cache. A write that fails because the disk is full,
the file may not be written, or the disk reports an I/O error raises `CacheDiskError`
saying which, and what to do ("the disk is full: free space and try again"); the
transaction is rolled back whole and the file stays as it was, so only a damaged cache is
pointed to `warmline cache reset`. It is a `StoreError`, so the cockpit shows it like a
refused action (a form stays open with its text), and a `CacheUnusable`, so a command
ends with it in one line (exit 5). Reads go on: on a full disk, where SQLite cannot make
the `-shm` file WAL mode reads through, the cache is opened in exclusive locking mode,
which keeps that index in memory instead.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from warmline.store.clock import EpochClock, system_clock
from warmline.store.values import SqlParams, SqlRow, SqlValue

if TYPE_CHECKING:
    import sqlite_utils

BUSY_TIMEOUT_MS = 5000
# Beyond busy_timeout, BEGIN IMMEDIATE is retried this many times: a burst of writers from
# several processes must slow an action down, never lose it.
BEGIN_RETRIES = 6


MAX_ID = 2**63 - 1
"""SQLite's largest integer: no row has a larger id, and binding one raises OverflowError."""
PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
# SQLite's companions of the cache file in WAL mode; they hold recent writes in clear.
SIDE_FILES = ("-wal", "-shm", "-journal")
RESET_COMMAND = "warmline cache reset"
"""What the errors about a cache Warmline cannot read point to (`warmline.store.reset`)."""
LOW_SPACE_BYTES = 1 << 20
"""Free bytes under which a disk I/O error is taken for a full disk: SQLite says "disk I/O
error", not "full", when it cannot grow its `-shm` file."""

FULL = "full"
NO_PERMISSION = "no permission"
IO_ERROR = "I/O error"

log = logging.getLogger("warmline.store")

_RETRY: ContextVar[str] = ContextVar("warmline_store_retry", default="try again")


class StoreError(Exception):
    """A misuse of the store (for example writing inside a read transaction)."""


class CacheUnusable(Exception):
    """The cache file cannot be opened or read: damaged, not a file, no permission, locked.

    Raised instead of sqlite3's and the OS's own errors so that every entry point (the
    command line, the cockpit) can say in one line what is wrong with which file, and so
    that nothing ever deletes or rewrites a cache it could not read: it may hold queued
    actions that exist nowhere else.
    """

    def __init__(self, path: Path | None, problem: str, advice: str) -> None:
        self.path = path
        self.problem = problem
        self.advice = advice
        where = f"the local cache {path}" if path is not None else "the local cache"
        super().__init__(f"{where} {problem}; {advice}" if advice else f"{where} {problem}")


class CacheDiskError(CacheUnusable, StoreError, sqlite3.OperationalError):
    """The disk refused a read or write of the cache: it is full (`FULL`), the file may not
    be written (`NO_PERMISSION`), or the disk reports an I/O error (`IO_ERROR`).

    Nothing is wrong with the cache as far as we know, and nothing was half-written. Its
    message says what to do and how to retry, in the words of the caller's `retrying`
    ("press ctrl+s again" in a cockpit form), and never points to `warmline cache reset`.
    It is a `StoreError` (the cockpit's actions report it as a refusal), a `CacheUnusable`
    (a command's one `Error:` line, exit 5) and an `sqlite3.OperationalError` (code that
    expects SQLite's errors still catches it).
    """

    def __init__(self, path: Path | None, kind: str, detail: str) -> None:
        self.kind = kind
        self.detail = detail
        where = f"the local cache {path}" if path is not None else "the local cache"
        problem, advice = {
            FULL: ("the disk is full", "free space"),
            NO_PERMISSION: (f"no permission to write {where} ({detail})",
                            "fix the permissions of the file and its folder, or set WARMLINE_DATA_DIR,"),
            IO_ERROR: (f"the disk reported an I/O error on {where} ({detail})", "check the disk"),
        }[kind]
        self.retry = _RETRY.get()
        super().__init__(path, problem, advice)

    def __str__(self) -> str:
        return f"{self.problem}: {self.advice} and {self.retry}"


@contextmanager
def retrying(hint: str) -> Iterator[None]:
    """Within this block, a `CacheDiskError` tells the rep to retry with `hint` ("press
    ctrl+s again") rather than "try again"."""
    token = _RETRY.set(hint)
    try:
        yield
    finally:
        _RETRY.reset(token)


def disk_problem(exc: BaseException, path: Path | None) -> str | None:
    """`FULL`, `NO_PERMISSION` or `IO_ERROR` when `exc` says the disk refused; None for
    anything else (damaged, locked, a misuse). SQLite's result code is read where the
    error carries one, its words otherwise; an I/O error on a disk with (almost) no free
    space is a full disk."""
    if isinstance(exc, OSError):
        return _OS_PROBLEMS.get(exc.errno or 0)
    if not isinstance(exc, sqlite3.Error):
        return None
    name = getattr(exc, "sqlite_errorname", None) or ""
    words = str(exc).lower()
    if name.startswith("SQLITE_FULL") or "database or disk is full" in words:
        return FULL
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM")) or "readonly database" in words:
        return NO_PERMISSION
    if name.startswith("SQLITE_IOERR") or "disk i/o error" in words:
        return FULL if path is not None and free_bytes(path.parent) < LOW_SPACE_BYTES else IO_ERROR
    return None


_OS_PROBLEMS = {
    errno.ENOSPC: FULL,
    errno.EDQUOT: FULL,
    errno.EACCES: NO_PERMISSION,
    errno.EPERM: NO_PERMISSION,
    errno.EROFS: NO_PERMISSION,
    errno.EIO: IO_ERROR,
}


def free_bytes(directory: Path) -> int:
    """Bytes free to us on the disk holding `directory`; a large number when it cannot be
    told, so that an I/O error stays one."""
    try:
        return shutil.disk_usage(directory).free
    except OSError:
        return 1 << 62


def cache_unusable(path: Path | None, exc: BaseException) -> CacheUnusable:
    """What is wrong with the cache at `path`, given the error opening or reading it.

    The file system is looked at first (a directory where the file should be, a data dir
    that is a file or not ours to read or write), then SQLite's own words: a disk that
    refuses (`CacheDiskError`) is told apart from a damaged file.
    """
    if isinstance(exc, CacheUnusable):
        return exc
    untouched = "Warmline left it untouched"
    if path is not None:
        parent = path.parent
        parent_kind, file_kind = _kind(parent), _kind(path)
        if parent_kind == "file":
            return CacheUnusable(path, f"cannot be created: its data dir {parent} is a file",
                                 "move that file aside or set WARMLINE_DATA_DIR")
        if file_kind == "dir":
            return CacheUnusable(path, "is a directory, not a file",
                                 "move it aside or set WARMLINE_DATA_DIR")
        if parent_kind == "dir" and not os.access(parent, os.R_OK | os.W_OK | os.X_OK):
            return CacheUnusable(path, f"cannot be used: its data dir {parent} is not readable and writable by you",
                                 "fix its permissions (chmod 700) or set WARMLINE_DATA_DIR")
        if parent_kind is None:
            return CacheUnusable(path, f"cannot be used: its data dir {parent} cannot be reached (permission denied)",
                                 "fix the permissions of the directories above it or set WARMLINE_DATA_DIR")
        if file_kind == "file" and not os.access(path, os.R_OK | os.W_OK):
            return CacheUnusable(path, "is not readable and writable by you",
                                 "fix its permissions (chmod 600) or set WARMLINE_DATA_DIR")
    message = str(exc) or type(exc).__name__
    if isinstance(exc, sqlite3.OperationalError) and ("locked" in message or "busy" in message):
        return CacheUnusable(path, f"is locked by another process ({message})", "try again when it is done")
    kind = disk_problem(exc, path)
    if kind is not None:
        return CacheDiskError(path, kind, message)
    if isinstance(exc, RuntimeError):  # schema.NewerSchemaError: a newer Warmline wrote it
        return CacheUnusable(path, f"cannot be read: {message}",
                             f"{untouched}: upgrade Warmline, or `{RESET_COMMAND}` moves it aside "
                             "(queued actions in it are not sent) for a new one")
    if isinstance(exc, sqlite3.DatabaseError):
        return CacheUnusable(path, f"is damaged or not a Warmline cache ({message})",
                             f"{untouched}: `{RESET_COMMAND}` moves it aside (queued actions in it "
                             "are not sent) and the next start builds a new one")
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else message
    return CacheUnusable(path, f"cannot be opened ({reason})", "check the data dir or set WARMLINE_DATA_DIR")


def _kind(path: Path) -> str | None:
    """'dir', 'file' (anything else that exists), 'missing', or None when it cannot be
    looked at (a directory above it we may not enter)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return "missing"  # a file above it: reported for that file
    except OSError:
        return None
    return "dir" if stat.S_ISDIR(info.st_mode) else "file"


def private_dir(directory: Path) -> None:
    """Make `directory` (and its parents) if missing; the directory itself is 0700.

    Only a directory made here is given that mode: an existing one (a WARMLINE_DATA_DIR the
    user chose) keeps theirs, as the files in it are private anyway (`private_file`).
    """
    if _kind(directory) == "missing":
        directory.parent.mkdir(parents=True, exist_ok=True)
        try:
            directory.mkdir(mode=PRIVATE_DIR_MODE)
        except FileExistsError:
            return  # made meanwhile by another process, or a file (reported by the caller)
        os.chmod(directory, PRIVATE_DIR_MODE)  # mkdir's mode is masked by the umask


def private_file(path: Path) -> None:
    """Create `path` empty with mode 0600 if it is missing (an empty file is an empty SQLite
    database, and SQLite gives its -wal and -shm files the mode of the database file);
    tighten an existing one of ours (and its side files) that others can read or write.

    The cache holds contacts' names, emails and notes: nobody else on the machine should
    read it, whatever the umask.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    except FileExistsError:
        pass
    else:
        os.close(fd)
    for candidate in (path, *(Path(f"{path}{suffix}") for suffix in SIDE_FILES)):
        try:
            info = os.stat(candidate)
            if (
                stat.S_ISREG(info.st_mode)
                and info.st_uid == os.geteuid()
                and info.st_mode & 0o077
            ):
                os.chmod(candidate, PRIVATE_FILE_MODE)
        except OSError:
            continue  # missing, or a read-only file system: opening says what is wrong


def connect(path: Path | str) -> sqlite3.Connection:
    """Open the database file with Warmline's pragmas; creates the data dir (0700) and the
    file (0600) when missing.

    On a full disk, where the `-shm` file WAL mode needs cannot be made, the file is
    opened again in exclusive locking mode, whose index lives in memory: reads work, and
    so does a write that finds room; other processes wait until it is closed."""
    target = str(path)
    if target == ":memory:":
        return _open(target)
    private_dir(Path(target).parent)
    private_file(Path(target))
    try:
        return _open(target)
    except sqlite3.OperationalError as exc:
        if disk_problem(exc, Path(target)) != FULL:
            raise
        log.warning("the disk holding %s is full: the cache is read alone (other processes wait) "
                    "until space is freed (%s)", target, exc)
        try:
            return _open(target, exclusive=True)
        except sqlite3.OperationalError as second:
            raise CacheDiskError(Path(target), FULL, str(second)) from exc


def _open(target: str, *, exclusive: bool = False) -> sqlite3.Connection:
    """A connection with Warmline's pragmas; closed again if one of them fails (a lock it
    holds would stop the next attempt)."""
    conn = sqlite3.connect(
        target,
        timeout=BUSY_TIMEOUT_MS / 1000,
        isolation_level=None,
        check_same_thread=False,
    )
    try:
        if exclusive:
            conn.execute("PRAGMA locking_mode=EXCLUSIVE")  # before WAL is first touched
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        conn.close()
        raise
    return conn


class Database:
    """A configured connection with `write()` and `read()` transactions.

    The feature mixins of `warmline.store.Store` build on this class; they use `self.conn`
    (raw sqlite3) for queries and `self.db` (sqlite-utils) for bulk upserts.
    """

    def __init__(self, path: Path | str, clock: EpochClock = system_clock) -> None:
        self.path = Path(path) if str(path) != ":memory:" else None
        self.clock = clock
        try:
            self.conn = connect(path)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise cache_unusable(self.path, exc) from exc
        self._db: sqlite_utils.Database | None = None
        self._lock = threading.RLock()
        self._txn: str | None = None
        self._writes = 0

    @property
    def db(self) -> sqlite_utils.Database:
        """sqlite-utils on our connection, for bulk upserts; imported on first use because
        it costs more start-up time than everything else the cockpit needs to paint."""
        if self._db is None:
            import sqlite_utils  # deferred: first frame

            self._db = sqlite_utils.Database(self.conn, recursive_triggers=False, execute_plugins=False)
        return self._db

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One `BEGIN IMMEDIATE` transaction; nested calls join the outer one. A disk that
        refuses it raises `CacheDiskError`, after the rollback."""
        with self._lock:
            if self._txn == "write":
                yield self.conn
                return
            if self._txn == "read":
                raise StoreError("cannot write inside a read transaction")
            self._txn = "write"
            try:
                self._begin_immediate()
                yield self.conn
                self.conn.execute("COMMIT")
            except BaseException as exc:
                # Also when COMMIT itself fails: never leave a transaction open behind us.
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                refused = self._refused(exc)
                if refused is exc:
                    raise
                raise refused from exc
            else:
                self._writes += 1
            finally:
                self._txn = None

    def _refused(self, exc: BaseException) -> BaseException:
        """`exc`, or the `CacheDiskError` saying which way the disk refused it."""
        if isinstance(exc, CacheUnusable) or not isinstance(exc, sqlite3.Error | OSError):
            return exc
        kind = disk_problem(exc, self.path)
        return exc if kind is None else CacheDiskError(self.path, kind, str(exc) or type(exc).__name__)

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot across several SELECTs; nested calls join the outer one."""
        with self._lock:
            if self._txn is not None:
                yield self.conn
                return
            self.conn.execute("BEGIN")
            self._txn = "read"
            try:
                yield self.conn
            finally:
                self._txn = None
                if self.conn.in_transaction:
                    self.conn.execute("COMMIT")

    def _begin_immediate(self) -> None:
        for attempt in range(BEGIN_RETRIES + 1):
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if attempt == BEGIN_RETRIES:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def rows(self, sql: str, params: SqlParams = ()) -> list[SqlRow]:
        """Run a SELECT and return its rows as dicts. Values are sqlite3's own (`SqlValue`):
        the connection registers no converters."""
        with self._lock:
            cursor = self.conn.execute(sql, params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def row(self, sql: str, params: SqlParams = ()) -> SqlRow | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def scalar(self, sql: str, params: SqlParams = ()) -> SqlValue:
        """The first column of the first row; None when there is no row."""
        with self._lock:
            found = self.conn.execute(sql, params).fetchone()
            value: SqlValue = found[0] if found else None
            return value

    def ids(self, sql: str, params: SqlParams = ()) -> list[int]:
        """Run a SELECT of one integer column (ids) and return its values."""
        with self._lock:
            return [int(found[0]) for found in self.conn.execute(sql, params).fetchall()]

    def data_version(self) -> tuple[int, int]:
        """Changes by this connection and by any other: a cache key for derived figures."""
        with self._lock:
            other = self.conn.execute("PRAGMA data_version").fetchone()[0]
            return other, self._writes

    def pragma(self, name: str) -> SqlValue:
        with self._lock:
            value: SqlValue = self.conn.execute(f"PRAGMA {name}").fetchone()[0]
            return value

    def integrity_check(self) -> str:
        """`ok` when the file is intact (run by the kill -9 harness)."""
        return str(self.pragma("integrity_check"))

    def raise_if_damaged(self) -> None:
        """Raise `sqlite3.DatabaseError` when a page of the file is damaged, even one no query
        has read yet. The cockpit opens on Today, whose reads go through indexes and miss a
        damaged table page that the lead list would meet; it runs this in a thread after
        the first frame (quick_check: ~50 ms at 10,000 leads), so a damaged cache is one
        line and exit 5 at start, not a surprise in the middle of a call."""
        with self._lock:
            found = [str(row[0]) for row in self.conn.execute("PRAGMA quick_check(3)")]
        if found != ["ok"]:
            raise sqlite3.DatabaseError(f"database disk image is malformed ({'; '.join(found)})")
