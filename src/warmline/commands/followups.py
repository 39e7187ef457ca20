"""`warmline followups`: the follow-ups kept on this machine, for a person or a script.

`warmline followups [--due today|overdue|due|week|next-week|open|all] [--from DATE]
[--to DATE] [--lead ID] [--json]` lists them,
`done`, `snooze`, `add` and `delete` change them. They live in their own file beside the
cache (`warmline.store.followups`): the service has no such object, so nothing here talks
to it, and `warmline cache reset` leaves them where they are.

`warmline log` and `warmline note` keep the follow-up their text promises through
`record_follow_up` below (the same action as the cockpit's forms), which says so on stderr:
"Follow-up: Fri 27 Nov (by Friday)". It is on the queue path (`warmline.commands.queueing`),
so this module imports only click, the standard library and the store's follow-ups file;
the parser loads inside the functions that read text.

Exit codes: 0 done; 2 bad input (an unknown follow-up or lead, a day that cannot be read,
one in the past); 5 the follow-ups file cannot be used.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import click

from warmline.commands.common import (
    ID,
    CommandError,
    NumberType,
    echo_json,
    note,
    open_config,
    open_store,
    plain,
    print_table,
    resolve_lead,
)
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CACHE, EXIT_CODES_HELP
from warmline.exporting import followup_json
from warmline.store.database import CacheUnusable
from warmline.store.followups import DUE_FILTERS, DueFilter, FollowUp, FollowUps, Source

if TYPE_CHECKING:
    from warmline.config import Config

T = TypeVar("T")

DAY = click.DateTime(formats=["%Y-%m-%d"])
"""A day on the command line, as a script writes it: ISO 8601."""

TEXT_WIDTH = 60
"""A follow-up's text in the list is cut to this many characters (the JSON has it whole)."""

EMPTY = {
    "today": "No follow-ups due today.",
    "overdue": "No overdue follow-ups.",
    "due": "No follow-ups due today or overdue.",
    "week": "No follow-ups due in the next 7 days.",
    "next-week": "No follow-ups due next week.",
    "open": "No open follow-ups.",
    "all": 'No follow-ups yet: `warmline log LEAD "... by Friday"` or `warmline followups add` makes one.',
}


@contextmanager
def open_followups(config: Config) -> Iterator[FollowUps]:
    """The follow-ups file of the config's data dir, for the command's body; one that cannot
    be used ends the command with one line naming it (exit 5), the file left as it is."""
    followups = FollowUps(config.data_dir)
    try:
        yield followups
    except CacheUnusable as exc:
        raise CommandError(str(exc), EXIT_CACHE) from None
    except sqlite3.DatabaseError as exc:
        raise CommandError(
            f"the follow-ups file {followups.path} is damaged or not Warmline's ({exc}); "
            "Warmline left it untouched",
            EXIT_CACHE,
        ) from None
    finally:
        followups.close()


def _today() -> date:
    from warmline.actions.followups import rep_now  # deferred: command line (loads the parser)

    return rep_now().date()


def _acting(call: Callable[[], T]) -> T:
    """Run an action or a check, a refusal made bad input (exit 2)."""
    from warmline.actions.followups import FollowUpNotFound  # deferred: command line
    from warmline.api.errors import InputError  # deferred: command line

    try:
        return call()
    except (InputError, FollowUpNotFound) as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None


def _empty(due: DueFilter, lead_id: int | None, first: date | None, last: date | None) -> str:
    """What an empty list says: the filter, the lead and the days asked for."""
    if lead_id is None and first is None and last is None:
        return EMPTY[due]
    asked: list[str] = [due]
    if first is not None:
        asked.append(f"from {first}")
    if last is not None:
        asked.append(f"to {last}")
    whose = f" of lead {lead_id}" if lead_id is not None else ""
    return f"No follow-ups{whose} ({', '.join(asked)})."


def _line(followup: FollowUp, today: date) -> str:
    """One follow-up for a person: "3 · Fri 27 Nov · Acme · wants pricing by Friday"."""
    from warmline.actions.followups import describe_due  # deferred: command line

    return (
        f"{followup.id} · {describe_due(followup.due_on, followup.at, today)} · "
        f"{plain(followup.company)} · {_cut(followup.text)}"
    )


def _cut(text: str) -> str:
    shown = plain(text)
    return shown if len(shown) <= TEXT_WIDTH else shown[: TEXT_WIDTH - 1] + "…"


def _echo(followup: FollowUp, today: date, as_json: bool, message: str) -> None:
    if as_json:
        echo_json(followup_json(followup, today))
        note(message)
    else:
        click.echo(message)


@click.group("followups", invoke_without_command=True, epilog=EXIT_CODES_HELP)
@click.option(
    "--due",
    "due",
    type=click.Choice(DUE_FILTERS),
    default="open",
    show_default=True,
    help="today, overdue, due (both), week (the next 7 days after today), next-week (Monday "
    "to Sunday), open (not done) or all (done ones too).",
)
@click.option("--from", "start", type=DAY, default=None, help="Only those due on this day (2026-12-03) or later.")
@click.option("--to", "end", type=DAY, default=None, help="Only those due on this day (2026-12-03) or before.")
@click.option("--lead", "lead_id", type=ID, default=None, help="Only this lead's (its id).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
@click.pass_context
def followups_group(
    ctx: click.Context,
    due: DueFilter,
    start: datetime | None,
    end: datetime | None,
    lead_id: int | None,
    as_json: bool,
) -> None:
    """List the follow-ups kept on this machine, earliest due first; `done`, `snooze`,
    `add` or `delete` one.

    A follow-up is made when an activity or note names a time ("wants pricing by
    Friday"), or by hand. They are local: the service has no such object.
    """
    if ctx.invoked_subcommand is not None:
        return
    first, last = (None if day is None else day.date() for day in (start, end))
    if first is not None and last is not None and first > last:
        raise CommandError(f"--from {first} is after --to {last}", EXIT_BAD_INPUT)
    today = _today()
    with open_followups(open_config()) as followups:
        items = followups.list(due, lead_id, today=today, start=first, end=last)
    if as_json:
        echo_json([followup_json(f, today) for f in items])
        return
    if not items:
        note(_empty(due, lead_id, first, last))
        return
    from warmline.actions.followups import describe_due  # deferred: command line

    print_table(
        ["ID", "DUE", "STATE", "LEAD", "COMPANY", "TEXT"],
        [
            [
                f.id,
                describe_due(f.due_on, f.at, today),
                f.state(today),
                f.lead_id,
                f.company,
                _cut(f.text),
            ]
            for f in items
        ],
    )


@followups_group.command("done", epilog=EXIT_CODES_HELP)
@click.argument("followup_id", metavar="ID", type=ID)
@click.option("--json", "as_json", is_flag=True, help="Print the follow-up as JSON.")
def followups_done(followup_id: int, as_json: bool) -> None:
    """Mark a follow-up done."""
    from warmline.actions.followups import done_follow_up  # deferred: command line

    today = _today()
    with open_followups(open_config()) as followups:
        followup = _acting(lambda: done_follow_up(followups, followup_id))
    _echo(followup, today, as_json, f"Done: {_line(followup, today)}")


@followups_group.command("snooze", epilog=EXIT_CODES_HELP)
@click.argument("followup_id", metavar="ID", type=ID)
@click.option(
    "--days",
    type=NumberType(),
    default=None,
    help="Due this many days later, from its day if still ahead, else from today (1 to 366; 1 is the next working day).",
)
@click.option(
    "--until",
    "until_text",
    metavar="DATE",
    default=None,
    help="Due on this day: 2026-12-03, or words such as 'monday 9am', 'tomorrow at 10', '3 Dec'.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the follow-up as JSON.")
def followups_snooze(
    followup_id: int, days: int | None, until_text: str | None, as_json: bool
) -> None:
    """Move a follow-up to a later day (a day: --days 1, the next working day of [ui]
    work_days; a week: --days 7; a day: --until, with its time if it says one)."""
    from warmline.actions.followups import (  # deferred: command line
        read_due,
        rep_now,
        snooze_follow_up,
    )

    if (days is None) == (until_text is None):
        raise CommandError("give --days N or --until DATE (one of the two)", EXIT_BAD_INPUT)
    now = rep_now()
    today = now.date()
    until, at = None, None
    if until_text is not None:
        until, at, _words = _acting(lambda: read_due(until_text, now))
    config = open_config()
    with open_followups(config) as followups:
        followup = _acting(
            lambda: snooze_follow_up(
                followups, followup_id, days=days, until=until, at=at, today=today,
                work_days=config.work_days,
            )  # fmt: skip
        )
    _echo(followup, today, as_json, f"Snoozed: {_line(followup, today)}")


@followups_group.command("add", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("due_text", metavar="DUE")
@click.argument("text")
@click.option("--json", "as_json", is_flag=True, help="Print the follow-up as JSON.")
def followups_add(lead_ref: str, due_text: str, text: str, as_json: bool) -> None:
    """Add a follow-up by hand: `warmline followups add 12 friday "Send the pricing"`.

    LEAD is a lead id or an unambiguous start of its company name (from the cache). DUE is
    a date (2026-12-03) or words: 'friday', 'tomorrow at 10', 'in two weeks', '3 Dec'.
    """
    from warmline.actions.followups import (  # deferred: command line
        add_follow_up,
        read_due,
        rep_now,
    )

    now = rep_now()
    today = now.date()
    due, at, _words = _acting(lambda: read_due(due_text, now))
    config = open_config()
    with open_store(config) as store:
        lead = resolve_lead(store, lead_ref)
    with open_followups(config) as followups:
        followup = _acting(
            lambda: add_follow_up(followups, lead.id, lead.company_name, text, due, at, today=today)
        )
    _echo(followup, today, as_json, f"Added: {_line(followup, today)}")


@followups_group.command("delete", epilog=EXIT_CODES_HELP)
@click.argument("followup_id", metavar="ID", type=ID)
def followups_delete(followup_id: int) -> None:
    """Delete a follow-up for good (one made from text that did not mean it)."""
    from warmline.actions.followups import (  # deferred: command line
        FollowUpNotFound,
        delete_follow_up,
    )

    with open_followups(open_config()) as followups:
        try:
            delete_follow_up(followups, followup_id)
        except FollowUpNotFound as exc:
            raise CommandError(str(exc), EXIT_BAD_INPUT) from None
    click.echo(f"Deleted follow-up {followup_id}.")


def record_follow_up(
    config: Config, lead_id: int, company: str, text: str, source: Source, op_id: str
) -> dict[str, Any] | None:
    """After `warmline log` / `note` queued `text`: keep the follow-up it promises (as the
    cockpit's form does), say so on stderr ("Follow-up: Fri 27 Nov (by Friday)"), and
    return its JSON for the command's own. The action is queued already, so a follow-ups
    file that cannot be used is a warning, not a failure of the command."""
    from warmline.actions.followups import (  # deferred: command line (loads the parser)
        describe_follow_up,
        follow_up_from_text,
        rep_now,
    )
    from warmline.api.errors import InputError  # deferred: command line

    now = rep_now()
    try:
        with open_followups(config) as followups:
            followup = follow_up_from_text(followups, lead_id, company, text, source, op_id, now)
    except (CommandError, InputError) as exc:
        note(f"warning: no follow-up was kept: {exc}")
        return None
    if followup is None:
        return None
    note(f"Follow-up: {describe_follow_up(followup, now.date())}")
    return followup_json(followup, now.date())


COMMANDS = [followups_group]
