"""`warmline leads` and `warmline lead`: the cached leads, and one lead's detail.

They read the local cache like the cockpit, so they answer with no connection at all
(`lead` fetches the lead's latest detail first when the service is reachable). Text from
the service (company names, activity text) is printed as plain text with control
characters removed; `--json` output is stable (docs/sync.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.common import (
    CommandError,
    NumberType,
    cell_width,
    echo_json,
    money,
    note,
    open_config,
    open_store,
    pad,
    plain,
    print_table,
    resolve_lead,
    shown_time,
)
from warmline.commands.delivery import QUICK_TIMEOUT
from warmline.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_CODES_HELP,
)
from warmline.store.rows import plain_data
from warmline.store.sync_vocabulary import SyncStatus
from warmline.vocabulary import activity_name, recommendation_action, source_name
from warmline.wiring import make_client, make_engine

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.store import LeadRow, Store
    from warmline.store.lead_page import LeadDetail


LEAD_FIELDS = (
    "id", "company_id", "company_name", "lead_status", "warming_score", "target_score", "gap",
    "ready", "activity_count", "recommendation_count", "monitoring_active", "last_activity_at",
    "pending_ops", "failed_ops",
)


def lead_json(row: LeadRow) -> dict[str, Any]:
    return {name: getattr(row, name) for name in LEAD_FIELDS}


def _all_leads(store: Store, status: str | None, page: int = 500) -> Iterator[LeadRow]:
    offset = 0
    while True:
        rows = store.lead_page(status=status, sort="score", offset=offset, limit=page)
        yield from rows
        if len(rows) < page:
            return
        offset += page


@click.command("leads", epilog=EXIT_CODES_HELP)
@click.option("--status", type=click.Choice(["cold", "warm"]), default=None, help="Only cold or only warm leads.")
@click.option("--limit", type=NumberType(low=1), default=None, help="At most this many leads (the top ones).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/sync.md).")
def leads_command(status: str | None, limit: int | None, as_json: bool) -> None:
    """List the cached leads, highest warming score first (no network needed)."""
    config = open_config()
    with open_store(config) as store:
        rows = list(islice(_all_leads(store, status), limit))
        if as_json:
            echo_json([lead_json(r) for r in rows])
            return
        if not rows:
            note("No leads in the cache. Run `warmline sync` to fetch them.")
            return
        print_table(
            ["ID", "STATUS", "SCORE", "TARGET", "READY", "PENDING", "LAST ACTIVITY", "COMPANY"],
            [
                [r.id, r.lead_status, r.warming_score, r.target_score or "", "yes" if r.ready else "",
                 (f"{r.pending_ops}" + (f" ({r.failed_ops} failed)" if r.failed_ops else "")) if r.pending_ops or r.failed_ops else "",
                 shown_time(r.last_activity_at), r.company_name]
                for r in rows
            ],
        )


def detail_json(detail: LeadDetail) -> dict[str, Any]:
    data = plain_data(detail)
    data["lead"] = lead_json(detail.lead)
    return data


async def _refresh_one(store: Store, client: ServiceClient, config: Config, lead_id: int) -> SyncStatus:
    async with client:
        engine = make_engine(store, config, client)
        await engine.refresh_lead(lead_id)
        return engine.status.current


def _print_detail(detail: LeadDetail) -> None:
    lead = detail.lead
    click.echo(f"{plain(lead.company_name)} (lead {lead.id}, {lead.lead_status})")
    target = f" / target {lead.target_score}" if lead.target_score is not None else ""
    ready = " · ready for outreach" if lead.ready else ""
    click.echo(f"Warming score {lead.warming_score}{target}{ready}")
    company = detail.company or {}
    about = ", ".join(plain(company[k]) for k in ("domain", "industry", "country", "size") if company.get(k))
    if about:
        click.echo(f"Company: {about}")
    if detail.deal_value is not None or detail.won_at or detail.closed_at:
        deal = "Deal: " + (money(detail.deal_value, detail.deal_currency) if detail.deal_value is not None else "-")
        if detail.won_at:
            deal += f" · won {shown_time(detail.won_at, day=True)}"
        if detail.closed_at:
            deal += f" · lost {shown_time(detail.closed_at, day=True)} ({plain(detail.closed_reason or 'no reason')})"
        click.echo(deal)
    if lead.pending_ops or lead.failed_ops:
        click.echo(f"Outbox: {lead.pending_ops} pending, {lead.failed_ops} failed")
    sections: list[tuple[str, list[str]]] = [
        ("Contacts", _contact_lines(detail)),
        ("Monitoring sources", _source_lines(detail)),
        ("Recent activity", _activity_lines(detail)),
        ("Notes", [
            f"{shown_time(n.created_at)}  {'' if n.id is not None else '(' + (n.op_state or 'pending') + ') '}{plain(n.content)}"
            for n in detail.notes[:10]
        ]),
        ("Recommendations", [
            f"[{plain(r.priority or '-')}] {plain(recommendation_action(r.action_type))}: {plain(r.engagement_reason or '')}"
            for r in detail.recommendations
        ]),
        ("Competitors", [plain(c.name) + (" (pinned)" if c.is_pinned else "") for c in detail.competitors]),
    ]
    for title, lines in sections:
        if lines:
            click.echo(f"\n{title}:")
            for line in lines:
                click.echo(f"  {line}")


def _contact_lines(detail: LeadDetail) -> list[str]:
    """Who to talk to, as the lead page lists them: the key contacts first, each with what
    the cache knows of them (title, role, email)."""
    contacts = sorted(detail.contacts, key=lambda c: not c.is_selected)
    return [
        " · ".join(plain(part) for part in (c.name or f"contact {c.contact_id}", c.title, c.role, c.email) if part)
        + (" · key contact" if c.is_selected else "")
        for c in contacts
    ]


def _source_lines(detail: LeadDetail) -> list[str]:
    """What the signal scan watches: on or off, its score, its label and kind."""
    return [
        f"{'on' if p.is_selected else 'off':<3}  {'-' if p.score is None else p.score:>2}/10  "
        f"{plain(p.label or p.url or 'source')}" + (f" ({plain(source_name(p.page_type))})" if p.page_type else "")
        for p in detail.monitoring_pages
    ]


def _activity_lines(detail: LeadDetail) -> list[str]:
    """The ten latest activities as columns: when, the type by its human name (as the
    cockpit names it: "LinkedIn message", not `professional_network_message`), the points
    aligned on the right, the text. An activity not yet delivered has no points yet and
    says where it stands before its text, as a queued note does."""
    touchpoints = detail.touchpoints[:10]
    kinds = [plain(activity_name(t.detected_type)) for t in touchpoints]
    points = [f"+{t.bonus_points or 0}" if t.id is not None else "" for t in touchpoints]
    kind_width = max((cell_width(k) for k in kinds), default=0)
    points_width = max((len(p) for p in points), default=0)
    return [
        f"{shown_time(t.created_at):<16}  {pad(kind, kind_width)}  {pad(score, points_width, right=True)}  "
        + ("" if t.id is not None else f"({t.op_state or 'pending'}) ")
        + plain(t.description)
        for t, kind, score in zip(touchpoints, kinds, points, strict=True)
    ]


@click.command("lead", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/sync.md).")
@click.option("--refresh/--no-refresh", default=True, show_default=True,
              help="Fetch the lead's latest detail first, when the service is reachable.")
def lead_command(lead_ref: str, as_json: bool, refresh: bool) -> None:
    """Show one lead: a lead id or an unambiguous start of its company name.

    The cached detail is shown even when the service cannot be reached.
    """
    config = open_config()
    with open_store(config) as store:
        lead = resolve_lead(store, lead_ref)
        if refresh and config.api_key:
            status = asyncio.run(_refresh_one(store, make_client(config, QUICK_TIMEOUT), config, lead.id))
            if status.online is False or status.auth_failed:
                note(f"Showing the cached lead ({status.last_error})")
        detail = store.lead_detail(lead.id)
        if detail is None:
            raise CommandError(f"lead {lead.id} is no longer in the cache", EXIT_BAD_INPUT)
        if as_json:
            echo_json(detail_json(detail))
        else:
            _print_detail(detail)


COMMANDS = [leads_command, lead_command]
