"""`warmline today [--json]`: the cockpit's Today for a morning script.

The same read model as the Today screen (`warmline.store.today`), from the cache and the
follow-ups file alone (no network; run `warmline sync` first for the news): jobs finished
since the cockpit was last closed, leads that reached their target since yesterday, warm
leads going cold (`[ui] cold_after_days`), follow-ups due today or overdue and how many
the next 7 days hold, the recommendations waiting by priority, and failed actions. Text: a heading and a table per
section that has something, on stdout; an empty day is "Nothing for today." on stderr, as
the other lists say they are empty. `--json`: one object with every section, dates in
ISO 8601. Exit codes: 0; 2 a config that cannot be read; 5 an unusable cache or
follow-ups file.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import click

from warmline.commands.common import (
    echo_json,
    job_json,
    note,
    open_config,
    open_store,
    plain,
    print_table,
    short_id,
    shown_time,
)
from warmline.commands.followups import open_followups
from warmline.commands.leads import lead_json
from warmline.commands.outbox import op_json
from warmline.exit_codes import EXIT_CODES_HELP
from warmline.exporting import followup_json
from warmline.store.clock import iso
from warmline.store.today import (
    TodayLead,
    TodayPage,
    coming_follow_ups,
    due_follow_ups,
    today_page,
    unlisted_leads,
)
from warmline.vocabulary import kind_short
from warmline.zone import rep_now

EMPTY = "Nothing for today."
TEXT_WIDTH = 50
"""Free text (a follow-up's, an action's) is cut to this many characters; the JSON has it whole."""


def _rep_now() -> datetime:
    """Now, aware, in the rep's zone (the machine's, with its DST rules), as the cockpit
    reads the day."""
    return rep_now()


def _utc(moment: datetime | None) -> str | None:
    """An aware moment as the cache's ISO 8601 UTC text (`2026-11-24T08:55:00.000Z`)."""
    return None if moment is None else iso(moment.timestamp())


def _cut(text: object) -> str:
    shown = plain(text)
    return shown if len(shown) <= TEXT_WIDTH else shown[: TEXT_WIDTH - 1] + "…"


def _lead_json(item: TodayLead) -> dict[str, Any]:
    return {
        **lead_json(item.lead),
        "reached_at": _utc(item.reached_at),
        "last_activity_at": _utc(item.last_activity_at),
    }


def today_json(page: TodayPage, cold_after_days: int) -> dict[str, Any]:
    """The page as one JSON object: the seven sections, and what they were read against."""
    today = page.today.date()
    return {
        "today": today.isoformat(),
        "since": _utc(page.since),
        "cold_after_days": cold_after_days,
        "finished_jobs": [job_json(job) for job in page.finished_jobs],
        "ready_leads": [_lead_json(item) for item in page.ready_leads],
        "going_cold": [_lead_json(item) for item in page.going_cold],
        "going_cold_total": page.going_cold_total,
        "follow_ups": [followup_json(item, today) for item in page.follow_ups],
        "next_7_days": {
            "total": page.coming_total,
            "days": [{"day": day.isoformat(), "count": count} for day, count in page.coming],
        },
        "recommendations": {
            "total": page.recommendations.total,
            "high": page.recommendations.high,
            "medium": page.recommendations.medium,
            "low": page.recommendations.low,
            "other": page.recommendations.other,
        },
        "failed_ops": [op_json(op) for op in page.failed_ops],
    }


def _heading(first: bool, text: str) -> None:
    if not first:
        click.echo("")
    click.echo(text)


def print_today(page: TodayPage, now: datetime, cold_after_days: int) -> None:
    """The page as text: a heading and a table for each section that has something."""
    first = True
    if page.finished_jobs:
        since = f"since {shown_time(page.since, now.tzinfo)}" if page.since is not None else "since yesterday"
        _heading(first, f"Jobs finished {since}")
        first = False
        print_table(
            ["KEY", "KIND", "STATUS", "FINISHED", "RESULT"],
            [
                [job.key, kind_short(job.kind), job.status, shown_time(job.completed_at or job.updated_at, now.tzinfo),
                 _cut(job.error or job.result_summary or "")]
                for job in page.finished_jobs
            ],
        )  # fmt: skip
    if page.ready_leads:
        _heading(first, "Ready for outreach (reached the target score since yesterday)")
        first = False
        print_table(
            ["ID", "SCORE", "TARGET", "REACHED", "COMPANY"],
            [
                [item.lead.id, item.lead.warming_score, item.lead.target_score or 100,
                 shown_time(item.reached_at, now.tzinfo), item.lead.company_name]
                for item in page.ready_leads
            ],
        )  # fmt: skip
    if page.going_cold:
        _heading(first, f"Going cold (warm, no activity in {cold_after_days} days)")
        first = False
        print_table(
            ["ID", "SCORE", "LAST ACTIVITY", "QUIET", "COMPANY"],
            [
                [item.lead.id, item.lead.warming_score, shown_time(item.last_activity_at, now.tzinfo),
                 "" if (days := item.quiet_days(now)) is None else f"{days} d", item.lead.company_name]
                for item in page.going_cold
            ],
        )  # fmt: skip
        more = page.going_cold_total - len(page.going_cold)
        if more > 0:
            click.echo(f"and {more} more: `warmline leads --status warm`")
    if page.follow_ups:
        _heading(first, "Follow-ups due today and overdue")
        first = False
        today = page.today.date()
        print_table(
            ["ID", "DUE", "STATE", "LEAD", "COMPANY", "TEXT"],
            [
                [item.id, item.due_on.isoformat() + (f" {item.at:%H:%M}" if item.at is not None else ""),
                 item.state(today), item.lead_id,
                 item.company + (" (removed)" if item.lead_id in page.unlisted else ""), _cut(item.text)]
                for item in page.follow_ups
            ],
        )  # fmt: skip
    if page.coming:
        _heading(first, f"Next 7 days: {page.coming_total} follow-up{'' if page.coming_total == 1 else 's'}"
                        " (`warmline followups --due week`)")
        first = False
        print_table(["DAY", "FOLLOW-UPS"], [[day.strftime("%a %Y-%m-%d"), count] for day, count in page.coming])
    counts = page.recommendations
    if counts.total:
        _heading(first, "Recommendations waiting")
        first = False
        print_table(
            ["TOTAL", "HIGH", "MEDIUM", "LOW", "OTHER"],
            [[counts.total, counts.high, counts.medium, counts.low, counts.other]],
        )
    if page.failed_ops:
        _heading(first, "Failed actions (`warmline outbox` to retry or discard)")
        first = False
        print_table(
            ["OP", "KIND", "LEAD", "QUEUED", "MESSAGE"],
            [
                [short_id(op.op_id), op.kind, op.lead_id or "", shown_time(op.created_at, now.tzinfo),
                 _cut(op.last_error or "")]
                for op in page.failed_ops
            ],
        )  # fmt: skip


@click.command("today", epilog=EXIT_CODES_HELP)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object (fields: see docs/cli.md)."
)
def today_command(as_json: bool) -> None:
    """What to do now, from the cache: finished jobs, ready and cooling leads, follow-ups
    due, recommendations waiting, failed actions (as the cockpit's Today shows them)."""
    config = open_config()
    now = _rep_now()
    # One file at a time, so that a failure names the file it comes from.
    with open_store(config) as store:
        page = today_page(store, now, config.cold_after_days)
    with open_followups(config) as follow_ups:
        day = page.today.date()
        page = page._replace(
            follow_ups=due_follow_ups(follow_ups, day), coming=coming_follow_ups(follow_ups, day)
        )
    if page.follow_ups:  # which of their leads were removed, as Today marks them
        with open_store(config) as store:
            page = page._replace(unlisted=unlisted_leads(store, (item.lead_id for item in page.follow_ups)))
    if as_json:
        echo_json(today_json(page, config.cold_after_days))
        return
    if page.is_empty:
        note(EMPTY)
        return
    print_today(page, now, config.cold_after_days)


COMMANDS = [today_command]
