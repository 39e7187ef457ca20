"""Moving the cache aside (`warmline cache reset`): what it still holds, whether another
Warmline has it open, and the move itself. Nothing here deletes or rewrites a cache.

Why a move and never a delete: a cache that cannot be used (damaged, written by a newer
Warmline) may hold actions queued offline that exist nowhere else; moved aside whole, with
its `-wal` and `-shm` files renamed alike, it still opens as a database
(`sqlite3 cache.sqlite3.2026-11-24T031200Z.bak`), so they can be salvaged.

The cache is looked at without `Store`, which would migrate it: read-only, and, when no
`-wal` file exists (the last user closed it cleanly), as an immutable file, which leaves
no `-wal`/`-shm` behind. A file this version cannot read is reported as such, not refused:
being able to move an unusable cache is the point.

Only the cache's own file set moves (`cache_files`): anything else kept in the data dir
stays where it is.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from warmline.store.database import SIDE_FILES, cache_unusable
from warmline.store.schema import MIGRATIONS

BACKUP_SUFFIX = ".bak"
STAMP_FORMAT = "%Y-%m-%dT%H%M%SZ"
# SQLite's lock-byte page (https://www.sqlite.org/fileformat.html, "The Lock-Byte Page"):
# every connection to a database in WAL mode holds a POSIX read lock on this shared range of
# the database file for as long as it is open, idle or not.
_SHARED_FIRST = 0x40000000 + 2
_SHARED_SIZE = 510


class CacheInUse(Exception):
    """Another process (the cockpit, `warmline sync --watch`) has the cache open."""


class CacheNotAFile(Exception):
    """Something other than a regular file sits at the cache's path: not ours to move."""


@dataclass(frozen=True)
class CacheContents:
    """What the cache at `path` holds that a fresh cache would not have.

    `problem` says why Warmline cannot use it (damaged, written by a newer Warmline), or is
    None. The counts are None when they could not be read.
    """

    path: Path
    exists: bool
    problem: str | None = None
    schema_version: int | None = None
    not_sent: int | None = None
    """Actions still to be delivered (pending, being sent, or sent without an answer)."""
    failed: int | None = None
    """Actions the service refused, kept for the rep to retry, edit or discard."""
    jobs_queued: int | None = None
    """Jobs started offline whose start was not sent yet (counted here, not in not_sent)."""
    jobs_running: int | None = None
    """Jobs running on the service: the service has no list of them, so a new cache never
    learns of them and never fetches their results."""

    @property
    def readable(self) -> bool:
        return self.not_sent is not None


@dataclass(frozen=True)
class MovedCache:
    """The result of `move_cache_aside`: each file that moved, from where to where."""

    moves: tuple[tuple[Path, Path], ...]

    @property
    def target(self) -> Path:
        """The new name of the cache file itself (its companions carry the same name)."""
        return self.moves[0][1]


def cache_files(path: Path) -> list[Path]:
    """The cache's file set as it stands: the file, then whichever of SQLite's companions
    (`-wal`, `-shm`, `-journal`) exist beside it."""
    found = [path] if _exists(path) else []
    return found + [
        side for side in (_side(path, suffix) for suffix in SIDE_FILES) if _exists(side)
    ]


def inspect_cache(path: Path) -> CacheContents:
    """What the cache at `path` holds, read without changing it (see the module's doc).

    Raises `CacheNotAFile` when a directory or another non-file sits at `path`, and
    `CacheUnusable` when the file cannot even be looked at (a data dir not ours to read).
    """
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return CacheContents(path, exists=False)
    except OSError as exc:
        raise cache_unusable(path, exc) from exc
    if not stat.S_ISREG(info.st_mode):
        raise CacheNotAFile(f"the local cache {path} is not a file")
    try:
        conn = _open_read_only(path)
    except (sqlite3.DatabaseError, OSError) as exc:
        return CacheContents(path, exists=True, problem=cache_unusable(path, exc).problem)
    try:
        return _contents(conn, path)
    finally:
        conn.close()


def cache_in_use(path: Path) -> bool:
    """Whether another process has the cache open (the cockpit, `warmline sync`, a headless
    command): asks the OS for a write lock on the shared range every WAL connection holds,
    and lets go at once. Nothing in the file changes. Where POSIX locks are not available
    (Windows), False: moving a file another process holds open then fails on its own."""
    try:
        import fcntl  # deferred: command line
    except ImportError:  # pragma: no cover (Windows)
        return False
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return False  # missing or not ours to write: the move reports it
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, _SHARED_SIZE, _SHARED_FIRST)
    except OSError:
        return True
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, _SHARED_SIZE, _SHARED_FIRST)
        return False
    finally:
        os.close(fd)


def aside_name(path: Path, now: datetime | None = None) -> Path:
    """The name the cache moves to: `cache.sqlite3.2026-11-24T031200Z.bak`, beside it, with
    `-2`, `-3`... before `.bak` if that name (or a companion of it) is taken."""
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime(STAMP_FORMAT)
    number = 1
    while True:
        extra = "" if number == 1 else f"-{number}"
        candidate = path.with_name(f"{path.name}.{stamp}{extra}{BACKUP_SUFFIX}")
        if not cache_files(candidate):
            return candidate
        number += 1


def move_cache_aside(path: Path, now: datetime | None = None) -> MovedCache:
    """Rename the cache and its companions to `aside_name(path)` (and `-wal`, `-shm`...
    after it), the cache file first; never deletes. The next `Store(path)` makes a new one.

    Refuses with `CacheInUse` while another process has it open. If a rename fails half-way
    (a read-only data dir...), those done are undone and the OSError raised.
    """
    if not _exists(path):
        raise FileNotFoundError(path)
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise CacheNotAFile(f"the local cache {path} is not a file")
    if cache_in_use(path):
        raise CacheInUse(f"the local cache {path} is open in another Warmline")
    target = aside_name(path, now)
    # The cache file moves first: if this stopped half-way, a companion left behind would
    # meet the next start's new cache and make it fail loudly, rather than the old cache
    # staying in place without its recent writes.
    planned = [(path, target)] + [
        (side, _side(target, side.name[len(path.name) :])) for side in cache_files(path)[1:]
    ]
    done: list[tuple[Path, Path]] = []
    try:
        for source, destination in planned:
            if _exists(destination):  # appeared since aside_name looked: never overwrite
                raise FileExistsError(destination)
            os.rename(source, destination)
            done.append((source, destination))
    except OSError:
        for source, destination in reversed(done):
            # If this fails too, the file keeps its new name; the caller's error says so.
            with contextlib.suppress(OSError):
                os.rename(destination, source)
        raise
    return MovedCache(tuple(done))


def _side(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _exists(path: Path) -> bool:
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    return True


def _open_read_only(path: Path) -> sqlite3.Connection:
    """Read-only; immutable (no locks, no side files made) when there is no `-wal` to read."""
    mode = "mode=ro" if _exists(_side(path, "-wal")) else "immutable=1"
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?{mode}", uri=True, isolation_level=None)
    try:
        conn.execute("PRAGMA query_only=ON")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # not SQLite fails here
    except BaseException:
        conn.close()
        raise
    return conn


def _contents(conn: sqlite3.Connection, path: Path) -> CacheContents:
    problem: str | None = None
    version: int | None = None
    try:
        found = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        version = int(found[0] or 0)
    except sqlite3.DatabaseError as exc:
        return CacheContents(path, exists=True, problem=cache_unusable(path, exc).problem)
    if version > len(MIGRATIONS):
        problem = (
            f"was written by a newer Warmline (schema {version}, this one knows {len(MIGRATIONS)})"
        )
    try:
        conn.execute("BEGIN")
        counts = conn.execute(
            "SELECT"
            " (SELECT count(*) FROM outbox WHERE state IN ('pending', 'in_flight', 'ambiguous')"
            "   AND op_id NOT IN (SELECT op_id FROM jobs"
            "     WHERE active = 1 AND remote_id IS NULL AND op_id IS NOT NULL)),"
            " (SELECT count(*) FROM outbox WHERE state = 'failed'),"
            " (SELECT count(*) FROM jobs WHERE active = 1 AND remote_id IS NULL),"
            " (SELECT count(*) FROM jobs WHERE active = 1 AND remote_id IS NOT NULL)"
        ).fetchone()
        conn.execute("COMMIT")
    except sqlite3.DatabaseError as exc:
        # A damaged page, or a newer schema without these tables: what it holds is unknown.
        return CacheContents(
            path,
            exists=True,
            schema_version=version,
            problem=problem or cache_unusable(path, exc).problem,
        )
    not_sent, failed, jobs_queued, jobs_running = (int(n) for n in counts)
    return CacheContents(
        path,
        exists=True,
        problem=problem,
        schema_version=version,
        not_sent=not_sent,
        failed=failed,
        jobs_queued=jobs_queued,
        jobs_running=jobs_running,
    )
