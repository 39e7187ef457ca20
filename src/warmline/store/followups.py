"""Follow-ups: the promises a rep made ("wants pricing by Friday"), kept on this machine.

The service has no such object, so follow-ups exist only here. They live in their own
SQLite file, `followups.db` beside the cache (`Config.data_dir`), not in the cache:
- `warmline cache reset` moves the cache's file set aside and the next start rebuilds the
  cache from the service; follow-ups cannot be rebuilt from anywhere, so they must not move
  with it (`warmline.store.reset` moves only `cache.sqlite3` and its side files);
- an upgrade migrates this file by its own version table (`MIGRATIONS`, applied by
  `warmline.store.schema.migrate`, the cache's own rules: forward only, each step in a
  `BEGIN IMMEDIATE` transaction, a file from a newer Warmline refused, never misread);
- a row keeps the company's name, so a follow-up still reads right after its lead is gone
  from the cache or the service.

`FollowUps(data_dir)` opens the file lazily, on the first call that needs it: building one
costs nothing, so the cockpit can hold one from start-up without slowing its first paint.
Standard library only (sqlite3), so `warmline log` stays light.

Dates: `due` is the day the rep promised, in the rep's zone; `at` an optional wall-clock
time on that day. A snooze keeps `due` and sets `snoozed_until`; the day a follow-up is due
now is `due_on` (the snooze when there is one). Timestamps (`created_at`, `done_at`) are
aware UTC datetimes, stored as ISO 8601 text.
"""

from __future__ import annotations

import builtins
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Literal, cast, get_args

from warmline.named_tuple import NamedTuple
from warmline.store.database import CacheUnusable, connect
from warmline.store.schema import Migration, NewerSchemaError, add_search_index, migrate

FOLLOWUPS_FILE = "followups.db"
"""The follow-ups' file name in the data dir (beside `cache.sqlite3`, never moved with it)."""

Source = Literal["activity", "note", "manual"]
SOURCES: tuple[str, ...] = get_args(Source)
"""Where a follow-up came from: an activity's text, a note's text, or added by hand."""

DueFilter = Literal["today", "overdue", "due", "week", "next-week", "open", "all"]
DUE_FILTERS: tuple[str, ...] = get_args(DueFilter)
"""`today`: open and due today; `overdue`: open and due before today; `due`: both (what
the Today screen lists); `week`: open and due in the next 7 days after today (Today's
"Next 7 days"); `next-week`: open and due Monday to Sunday of next week (the agenda's
"Next week"); `open`: every one not done; `all`: done ones too."""

WEEK_AHEAD = 7
"""Days after today that Today's "Next 7 days" and `--due week` cover."""

AgendaGroup = Literal["Overdue", "Today", "Tomorrow", "This week", "Next week", "Later"]
AGENDA_GROUPS: tuple[AgendaGroup, ...] = get_args(AgendaGroup)
"""The agenda's headings, in order: the days a rep plans by rather than dates."""

State = Literal["done", "overdue", "today", "snoozed", "upcoming"]


def agenda_group(day: date, today: date) -> AgendaGroup:
    """Which of the agenda's headings a follow-up due on `day` sits under: "This week"
    runs to Sunday (so on a Saturday it has nothing: Sunday is tomorrow), "Next week" is
    the calendar week after it, Monday to Sunday."""
    if day < today:
        return "Overdue"
    if day == today:
        return "Today"
    if day == today + timedelta(days=1):
        return "Tomorrow"
    next_monday = today + timedelta(days=7 - today.weekday())
    if day < next_monday:
        return "This week"
    if day < next_monday + timedelta(days=7):
        return "Next week"
    return "Later"


def due_range(due: DueFilter, today: date) -> tuple[date | None, date | None]:
    """The first and last day (both included; None: no bound) of a `due` filter's days,
    for the filters that are a range of days (every one but `open` and `all`, which have
    no bound)."""
    if due == "today":
        return today, today
    if due == "overdue":
        return None, today - timedelta(days=1)
    if due == "due":
        return None, today
    if due == "week":
        return today + timedelta(days=1), today + timedelta(days=WEEK_AHEAD)
    if due == "next-week":
        monday = today + timedelta(days=7 - today.weekday())
        return monday, monday + timedelta(days=6)
    return None, None


def followups_path(data_dir: Path | str) -> Path:
    """Where the follow-ups of the data dir `data_dir` are kept."""
    return Path(data_dir) / FOLLOWUPS_FILE


class FollowUp(NamedTuple):
    """One follow-up. `company` is the lead's company name when it was made (kept so the
    follow-up reads right once the lead is gone); `source_op_id` the queued activity or
    note whose text named it (the outbox's op id, a UUID), None when added by hand."""

    id: int
    lead_id: int
    company: str
    text: str
    source: Source
    source_op_id: str | None
    due: date
    at: time | None
    created_at: datetime
    done_at: datetime | None = None
    snoozed_until: date | None = None
    phrase: str | None = None
    """The words the due date was read from ("by Friday"), when it was read from text."""
    updated_at: datetime | None = None
    revision: int = 0
    """How many times it changed since it was made (done, snoozed, edited)."""

    @property
    def due_on(self) -> date:
        """The day it is due now: the snooze's day when snoozed, else the promised one."""
        return self.snoozed_until or self.due

    @property
    def done(self) -> bool:
        return self.done_at is not None

    def state(self, today: date) -> State:
        """done, overdue (due before `today`), today, snoozed (moved to a later day), or
        upcoming."""
        if self.done_at is not None:
            return "done"
        if self.due_on < today:
            return "overdue"
        if self.due_on == today:
            return "today"
        return "snoozed" if self.snoozed_until is not None else "upcoming"


_INITIAL = """
CREATE TABLE followups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lead_id INTEGER NOT NULL,
    company TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('activity', 'note', 'manual')),
    source_op_id TEXT,
    phrase TEXT,
    due TEXT NOT NULL,              -- ISO 8601 date, the rep's zone
    at TEXT,                        -- HH:MM:SS wall-clock time on that day, or NULL
    snoozed_until TEXT,             -- ISO 8601 date, or NULL
    due_on TEXT GENERATED ALWAYS AS (coalesce(snoozed_until, due)) VIRTUAL,
    created_at TEXT NOT NULL,       -- ISO 8601, UTC
    done_at TEXT,                   -- ISO 8601, UTC, or NULL while open
    updated_at TEXT NOT NULL,       -- ISO 8601, UTC: the last change
    revision INTEGER NOT NULL DEFAULT 0  -- changes since made (a calendar's SEQUENCE)
);
-- The Today screen and `warmline followups --due ...` read open follow-ups by day.
CREATE INDEX followups_open_due ON followups(due_on, at, id) WHERE done_at IS NULL;
CREATE INDEX followups_lead ON followups(lead_id, due_on);
"""


def _initial(conn: sqlite3.Connection) -> None:
    for statement in _INITIAL.split(";"):
        if statement.strip():
            conn.execute(statement)


FOLLOWUPS_SEARCH = "followups_search"
"""The follow-ups' word index (search everywhere: `warmline.store.search`), kept by triggers."""


def _search(conn: sqlite3.Connection) -> None:
    add_search_index(conn, FOLLOWUPS_SEARCH, "followups", "id", ("text", "company"))


MIGRATIONS: list[Migration] = [_initial, _search]
"""This file's schema, a list of forward migrations (never edited once released: a change
of schema is a new entry at the end)."""

_COLUMNS = (
    "id, lead_id, company, text, source, source_op_id, phrase, due, at, snoozed_until, "
    "created_at, done_at, updated_at, revision"
)
_ORDER = "ORDER BY due_on, at IS NOT NULL, at, id"


def _date(value: object) -> date | None:
    return date.fromisoformat(str(value)) if value is not None else None


def _datetime(value: object) -> datetime | None:
    return datetime.fromisoformat(str(value)) if value is not None else None


def _row(found: Sequence[object]) -> FollowUp:
    (
        id_,
        lead_id,
        company,
        text,
        source,
        op_id,
        phrase,
        due,
        at,
        snoozed,
        created,
        done,
        updated,
        revision,
    ) = found
    due_day = _date(due)
    created_at = _datetime(created)
    assert due_day is not None and created_at is not None  # NOT NULL columns
    return FollowUp(
        id=int(str(id_)),
        lead_id=int(str(lead_id)),
        company=str(company),
        text=str(text),
        source=cast(Source, source if source in SOURCES else "manual"),
        source_op_id=None if op_id is None else str(op_id),
        due=due_day,
        at=time.fromisoformat(str(at)) if at is not None else None,
        created_at=created_at,
        done_at=_datetime(done),
        snoozed_until=_date(snoozed),
        phrase=None if phrase is None else str(phrase),
        updated_at=_datetime(updated) or created_at,
        revision=int(str(revision)),
    )


def _utc_now() -> datetime:
    return datetime.now(UTC)


class FollowUps:
    """The follow-ups file of one data dir; opened on first use, closed by `close()`.

    One connection, used by one thread at a time (the CLI; the cockpit's actions);
    `check_same_thread` is off as for the cache.
    """

    def __init__(self, data_dir: Path | str, clock: Callable[[], datetime] = _utc_now) -> None:
        self.path = followups_path(data_dir)
        self.clock = clock
        self._conn: sqlite3.Connection | None = None
        # One connection shared by the cockpit's threads (a screen's reload, a worker):
        # sqlite3 connections must not be used by two at once.
        self._lock = threading.RLock()
        self._writes = 0

    # --- the file ---------------------------------------------------------------------------

    @property
    def conn(self) -> sqlite3.Connection:
        """The connection, opened and migrated on first use. A file that cannot be opened
        or was written by a newer Warmline raises `CacheUnusable` naming it."""
        with self._lock:
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                conn = connect(self.path)
            except (sqlite3.DatabaseError, OSError) as exc:
                raise self._unusable(exc) from exc
            try:
                migrate(conn, MIGRATIONS)
            except (sqlite3.DatabaseError, NewerSchemaError) as exc:
                conn.close()
                raise self._unusable(exc) from exc
            self._conn = conn
        return self._conn

    def _unusable(self, exc: BaseException) -> CacheUnusable:
        if isinstance(exc, NewerSchemaError):
            problem = f"was written by a newer Warmline ({exc})"
            advice = "Warmline left it untouched: upgrade Warmline to read it"
        else:
            problem = f"cannot be opened or read ({exc})"
            advice = "Warmline left it untouched: check the data dir or set WARMLINE_DATA_DIR"
        unusable = CacheUnusable(self.path, problem, advice)
        unusable.args = (f"the follow-ups file {self.path} {problem}; {advice}",)
        return unusable

    def version(self) -> int:
        """The schema version of the file (the number of migrations applied)."""
        with self._lock:
            found = self.conn.execute("SELECT max(version) FROM schema_version").fetchone()
            return int(found[0] or 0)

    def data_version(self) -> tuple[int, int]:
        """Changes to the file by any connection (another process's too) and by this one:
        a screen that lists follow-ups reloads when it changes, as the cache's
        `Database.data_version` tells the cockpit."""
        with self._lock:
            other = self.conn.execute("PRAGMA data_version").fetchone()[0]
            return int(other), self._writes

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> FollowUps:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self.conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            self._writes += 1

    def _now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="seconds")

    # --- reading -----------------------------------------------------------------------------

    def get(self, followup_id: int) -> FollowUp | None:
        with self._lock:
            found = self.conn.execute(
                f"SELECT {_COLUMNS} FROM followups WHERE id = ?", (followup_id,)
            ).fetchone()
        return _row(found) if found is not None else None

    def list(
        self,
        due: DueFilter = "open",
        lead_id: int | None = None,
        *,
        today: date,
        start: date | None = None,
        end: date | None = None,
    ) -> builtins.list[FollowUp]:
        """Follow-ups by the day they are due now (a snooze's day), all-day ones before
        timed ones on the same day, then in the order made. `today` is the rep's today;
        `due` filters as `DUE_FILTERS` says; `start` and `end` (both included) narrow it to
        those days (`warmline followups --from/--to`)."""
        if due not in DUE_FILTERS:
            raise ValueError(f"due must be one of {', '.join(DUE_FILTERS)} (got {due!r})")
        where: builtins.list[str] = []
        params: builtins.list[object] = []
        if due != "all":
            where.append("done_at IS NULL")
        first, last = due_range(due, today)
        for bound, test in ((first, "due_on >= ?"), (start, "due_on >= ?"), (last, "due_on <= ?"), (end, "due_on <= ?")):
            if bound is not None:
                where.append(test)
                params.append(bound.isoformat())
        if lead_id is not None:
            where.append("lead_id = ?")
            params.append(lead_id)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        with self._lock:
            found = self.conn.execute(
                f"SELECT {_COLUMNS} FROM followups {clause} {_ORDER}", params
            ).fetchall()
        return [_row(row) for row in found]

    def open_by_day(self, start: date, end: date) -> builtins.list[tuple[date, int]]:
        """How many open follow-ups are due on each day from `start` to `end` (both
        included), days with none left out: Today's "Next 7 days" row, one indexed read
        (`followups_open_due`) rather than the follow-ups themselves."""
        with self._lock:
            found = self.conn.execute(
                "SELECT due_on, count(*) FROM followups"
                " WHERE done_at IS NULL AND due_on >= ? AND due_on <= ? GROUP BY due_on ORDER BY due_on",
                (start.isoformat(), end.isoformat()),
            ).fetchall()
        return [(date.fromisoformat(str(day)), int(count)) for day, count in found]

    def matching(self, match: str, *, window: int, limit: int) -> builtins.list[FollowUp]:
        """Follow-ups whose text or company matches the FTS5 expression `match` (built by
        `warmline.store.search_query`, never the rep's text), best first (bm25) among the
        `window` newest matches, at most `limit`."""
        with self._lock:
            found = self.conn.execute(
                f"SELECT {_COLUMNS} FROM (SELECT rowid AS hit, rank AS score FROM {FOLLOWUPS_SEARCH}"
                f" WHERE {FOLLOWUPS_SEARCH} MATCH ? ORDER BY rowid DESC LIMIT ?) m"
                " JOIN followups ON followups.id = m.hit ORDER BY m.score, m.hit DESC LIMIT ?",
                (match, window, limit),
            ).fetchall()
        return [_row(row) for row in found]

    def for_review(self, start: datetime, end: datetime, last_day: date) -> builtins.list[FollowUp]:
        """The follow-ups the week in review counts (`warmline.review`): made or done
        between `start` and `end` (aware), and those due by `last_day` that were still
        open at `end` (overdue then, when their day had passed)."""
        first, last = (
            moment.astimezone(UTC).isoformat(timespec="seconds") for moment in (start, end)
        )
        with self._lock:
            found = self.conn.execute(
                f"SELECT {_COLUMNS} FROM followups WHERE (created_at >= ? AND created_at < ?)"
                " OR (done_at >= ? AND done_at < ?)"
                " OR (due_on <= ? AND created_at < ? AND (done_at IS NULL OR done_at >= ?))"
                f" {_ORDER}",
                (first, last, first, last, last_day.isoformat(), last, last),
            ).fetchall()
        return [_row(row) for row in found]

    # --- writing -----------------------------------------------------------------------------

    def add(
        self,
        lead_id: int,
        company: str,
        text: str,
        due: date,
        at: time | None = None,
        *,
        source: Source = "manual",
        source_op_id: str | None = None,
        phrase: str | None = None,
    ) -> FollowUp:
        """Store a new follow-up (checked by the caller: `warmline.actions.followups`)."""
        if source not in SOURCES:
            raise ValueError(f"source must be one of {', '.join(SOURCES)} (got {source!r})")
        now = self._now()
        with self._write() as conn:
            cursor = conn.execute(
                "INSERT INTO followups (lead_id, company, text, source, source_op_id, phrase, due, at, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (lead_id, company, text, source, source_op_id, phrase, due.isoformat(),
                 at.isoformat() if at is not None else None, now, now),
            )  # fmt: skip
            new_id = cursor.lastrowid
        found = self.get(int(new_id or 0))
        assert found is not None
        return found

    def _change(
        self, followup_id: int, sets: str, params: Sequence[object], only: str = "1"
    ) -> None:
        """One UPDATE of the row (when `only` holds), its `updated_at` and `revision` with it."""
        with self._write() as conn:
            conn.execute(
                f"UPDATE followups SET {sets}, updated_at = ?, revision = revision + 1 "
                f"WHERE id = ? AND {only}",
                (*params, self._now(), followup_id),
            )

    def done(self, followup_id: int) -> FollowUp | None:
        """Mark it done (again is no change: the first time is kept). None when there is no
        such id."""
        self._change(followup_id, "done_at = ?", (self._now(),), only="done_at IS NULL")
        return self.get(followup_id)

    def reopen(self, followup_id: int) -> FollowUp | None:
        """Undo `done`."""
        self._change(followup_id, "done_at = NULL", (), only="done_at IS NOT NULL")
        return self.get(followup_id)

    def snooze(self, followup_id: int, until: date) -> FollowUp | None:
        """Make it due on `until` instead (the promised day is kept in `due`); a snoozed
        follow-up that was done is open again."""
        self._change(followup_id, "snoozed_until = ?, done_at = NULL", (until.isoformat(),))
        return self.get(followup_id)

    def update(
        self,
        followup_id: int,
        *,
        due: date | None = None,
        at: time | None = None,
        clear_at: bool = False,
        text: str | None = None,
    ) -> FollowUp | None:
        """Change its day (which drops a snooze), its time (`clear_at` removes it) or its
        text. None when there is no such id."""
        sets: list[str] = []
        params: list[object] = []
        if due is not None:
            sets += ["due = ?", "snoozed_until = NULL"]
            params.append(due.isoformat())
        if at is not None or clear_at:
            sets.append("at = ?")
            params.append(at.isoformat() if at is not None else None)
        if text is not None:
            sets.append("text = ?")
            params.append(text)
        if sets:
            self._change(followup_id, ", ".join(sets), params)
        return self.get(followup_id)

    def delete(self, followup_id: int) -> bool:
        """Remove it; False when there was no such id."""
        with self._write() as conn:
            cursor = conn.execute("DELETE FROM followups WHERE id = ?", (followup_id,))
            return bool(cursor.rowcount > 0)
