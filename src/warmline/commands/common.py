"""What every command shares: exit codes, opening the config and the cache, resolving a
lead or an op, printing tables and JSON, queueing an action. (The client and the engine
are built by `warmline.wiring`; delivery is `warmline.commands.delivery`'s.)

Exit codes (docs/sync.md and docs/cli.md):
  0  done
  1  any other error
  2  bad input (an unknown or ambiguous lead, text outside the spec's limits, an unknown op,
     a malformed config file; click's own usage errors are 2 as well)
  3  the service refused the API key, or none is configured
  4  offline: the service could not be reached
  5  the local cache cannot be used (damaged, not a file, no permission, locked)
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING, Any, TypeVar

import click

from warmline.amounts import AMOUNT_EXAMPLES, amount, typed_amount
from warmline.config import ConfigError, load_config
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CACHE, EXIT_ERROR
from warmline.numbers import number, whole_number
from warmline.store import CacheUnusable, OpStateError, Store
from warmline.store.clock import epoch_of, iso
from warmline.store.database import cache_unusable
from warmline.textsafe import json_dumps, redact_url, terminal_line, terminal_text
from warmline.zone import system_zone

if TYPE_CHECKING:
    from warmline.config import Config
    from warmline.store import Op
    from warmline.store.rows import Job, LeadRow

T = TypeVar("T")

ID_MAX = 2**63 - 1
"""The largest id: SQLite's largest integer, as `warmline.api.limits.ID_MAX` (not imported
here: the api package loads the HTTP client, which commands reading the cache never need)."""


class IdType(click.ParamType[int, Any]):
    """An id argument or option: a whole number from 1 to ID_MAX. Checked here, at the
    command line, because a larger one cannot even be looked up in the cache (SQLite's
    OverflowError)."""

    name = "id"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not text.isdecimal() or not text.isascii():
                self.fail(f"{value!r} is not an id (a whole number from 1 to {ID_MAX})", param, ctx)
            number = int(text)
        if not 1 <= number <= ID_MAX:
            self.fail(f"{value} is not an id (a whole number from 1 to {ID_MAX})", param, ctx)
        return number


ID = IdType()


class NumberType(click.ParamType[Any, Any]):
    """A number option or argument in ASCII digits only (`warmline.numbers`: click's own
    types read `٣` as 3, `1_0` as 10 and `inf`), optionally within [low, high]."""

    def __init__(self, low: float | None = None, high: float | None = None, *, whole: bool = True) -> None:
        self.low, self.high, self.whole = low, high, whole
        self.name = "integer" if whole else "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            found: float | None = value
        else:
            found = whole_number(str(value)) if self.whole else number(str(value))
        kind = "a whole number" if self.whole else "a number"
        if found is None:
            self.fail(f"{terminal_line(value)!r} is not {kind} (digits 0-9)", param, ctx)
        if (self.low is not None and found < self.low) or (self.high is not None and found > self.high):
            if self.low is not None and self.high is not None:
                bounds = f"from {self.low:g} to {self.high:g}"
            else:
                bounds = f"of {self.low:g} or more" if self.low is not None else f"of {self.high:g} or less"
            self.fail(f"{found:g} is not {kind} {bounds}", param, ctx)
        return found


class AmountType(click.ParamType[Any, Any]):
    """An amount of money read as the cockpit's deal form reads it (`typed_amount`:
    `24,000.50`, `24.000,50`, `24k`), so that one value means the same in both."""

    name = "amount"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        found = typed_amount(str(value))
        if found is None:
            self.fail(f"{terminal_line(value)!r} is not an amount such as {AMOUNT_EXAMPLES}", param, ctx)
        return found


class CommandError(click.ClickException):
    """A failure with one of the documented exit codes; the message goes to stderr.

    Messages often name companies or quote the service ("matches several leads: ..."), so
    the message is made terminal-safe here, once, for every command (`terminal_text`:
    escapes and controls removed, line breaks kept as LF).
    """

    def __init__(self, message: str, exit_code: int = EXIT_ERROR) -> None:
        super().__init__(terminal_text(redact_url(message)))  # a base URL's user:password@ never shown
        self.exit_code = exit_code  # type: ignore[misc]  # click types it per class; ours is per error


def plain(value: object) -> str:
    """Service text as one line of a terminal (a table cell, a name in a sentence): escape
    sequences, controls and bidi overrides removed, tabs and line breaks one space
    (`warmline.textsafe.terminal_line`)."""
    return terminal_line(value)


# --- opening things ---------------------------------------------------------------------------


def open_config() -> Config:
    try:
        return load_config()
    except ConfigError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None


@contextmanager
def open_store(config: Config) -> Iterator[Store]:
    """The cache, for the command's body. A cache that cannot be opened, or that turns out
    damaged at a later query, ends the command with one line naming the file (exit 5); the
    file is left as it is (`warmline.store.CacheUnusable`)."""

    try:
        store = Store(config.db_path)
    except CacheUnusable as exc:
        raise CommandError(str(exc), EXIT_CACHE) from None
    try:
        yield store
    except sqlite3.DatabaseError as exc:  # a damaged page met by a query
        raise CommandError(str(cache_unusable(store.path, exc)), EXIT_CACHE) from None
    except CacheUnusable as exc:
        raise CommandError(str(exc), EXIT_CACHE) from None
    finally:
        store.close()


def resolve_lead(store: Store, ref: str) -> LeadRow:
    try:
        return store.resolve_lead(ref)
    except LookupError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None


def resolve_op(store: Store, prefix: str) -> Op:
    try:
        return store.find_op(prefix)
    except OpStateError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None


# --- printing ------------------------------------------------------------------------------------


def echo_json(value: Any) -> None:
    """JSON on stdout; controls inside strings are `\\uXXXX` escapes (`textsafe.json_dumps`)."""
    click.echo(json_dumps(value, indent=2, default=str))


_ZWJ = "\u200d"


def _char_cells(char: str) -> int:
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    if char != "\u00ad" and unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0  # combining marks, variation selectors, zero-width joiners and spaces
    if "\u1160" <= char <= "\u11ff":
        return 0  # Hangul vowels and final consonants join the syllable before them
    return 1


def cell_width(text: str) -> int:
    """How many terminal cells `text` takes, which is what lines a column up: `len()` counts
    a CJK character or an emoji as one cell where the terminal draws two, and a combining
    accent as one where it draws none. Wide and full-width characters (East Asian width W
    or F, which covers most emoji) are two cells; combining marks, variation selectors and
    zero-width characters none; a character joined to the one before by a zero-width
    joiner (an emoji sequence such as a family) none, as terminals draw the sequence as one
    glyph. Done with `unicodedata` rather than a library: the rules a table needs are these
    few, and the command line stays free of Rich (tests/test_layering.py)."""
    if text.isascii():
        return len(text)
    width, joined = 0, False
    for char in text:
        width += 0 if joined else _char_cells(char)
        joined = char == _ZWJ
    return width


def pad(text: str, width: int, *, right: bool = False) -> str:
    """`text` filled with spaces to `width` terminal cells (`cell_width`), on the left
    when `right` (numbers), else on the right: `str.ljust` by cells, not characters."""
    fill = " " * max(0, width - cell_width(text))
    return fill + text if right else text + fill


def print_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """One line per row whatever the cells hold: each is a `plain()` single line. Columns
    are measured in terminal cells (`cell_width`), so names in CJK scripts or with emoji
    keep the columns after them in line."""
    cells = [[plain(c) for c in row] for row in rows]
    headers = [plain(h) for h in headers]
    widths = [max([cell_width(h), *(cell_width(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    for row in [headers, *cells]:
        line = "  ".join(pad(c, w) for c, w in zip(row, widths, strict=True))
        click.echo(line.rstrip())


def money(value: float, currency: str | None = None) -> str:
    """A deal value as the cockpit's lead page shows it: thousands separators, no `.0` for a
    whole amount (`76,000 EUR`, not `76000.0 EUR`); cents only when there are some
    (`1,234.50 EUR`). The currency is service text, made `plain()`."""
    return f"{amount(value)} {plain(currency or '')}".rstrip()


def shown_time(
    value: str | float | datetime | None, zone: tzinfo | None = None, *, seconds: bool = False, day: bool = False
) -> str:
    """A moment as the tables show it, in the rep's zone (`warmline.zone`; `zone` for a
    test): "2026-11-24 08:55", with `seconds` "...:00", or only the `day`.

    The cache keeps the service's UTC text and the outbox epoch seconds; printed as stored,
    `warmline leads` read an activity at 23:30 that `warmline today` and the cockpit showed
    at 00:30 the next day. Stored text that is not a timestamp is shown as it is."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        epoch = epoch_of(value)
        if epoch is None:
            return value
        value = epoch
    moment = value if isinstance(value, datetime) else datetime.fromtimestamp(value, UTC)
    form = "%Y-%m-%d" if day else "%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M"
    return moment.astimezone(zone or system_zone()).strftime(form)


def iso_time(epoch: float | None) -> str | None:
    return None if epoch is None else iso(epoch)


def short_id(op_id: str) -> str:
    return op_id[:8]


def note(message: str) -> None:
    """A message on stderr, terminal-safe, URLs' user-info masked; its line breaks kept."""
    click.echo(terminal_text(redact_url(message)), err=True)


def say_cost(operation: str, count: int = 1, save: bool = False) -> None:
    """What a command that spends plan quota costs, on stderr, before anything is sent."""
    from warmline.prospecting import cost_notice  # deferred: command line

    note(cost_notice(operation, count, save=save))


def queue_action(action: Callable[[], T]) -> T:
    from warmline.api.errors import InputError  # deferred: command line

    try:
        return action()
    except InputError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None


JOB_FIELDS = (
    "key", "kind", "remote_id", "lead_id", "company_id", "status", "active", "progress",
    "result_summary", "error", "created_at", "updated_at", "completed_at", "queued_offline",
)


def job_json(job: Job) -> dict[str, Any]:
    data = {name: getattr(job, name) for name in JOB_FIELDS}
    data["next_poll_at"] = iso_time(job.next_poll_at)
    return data
