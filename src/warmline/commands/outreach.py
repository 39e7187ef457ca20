"""`warmline outreach`: leads in outreach. Add saved companies (`add`), remove leads
(`remove`), and work a lead: status, target score, signal scan, monitoring sources,
recommendations, key contacts, the deal, competitors; every operation of the spec is
reachable from here.

Each one queues an action through `warmline.actions` like `log` does, then tries a quick
delivery (`warmline.commands.delivery`): they all work offline, and bad input (the
spec's limits, an unknown lead or id) exits 2. `scan` and `generate` start a job, sent
and followed (`--wait`) like the prospecting jobs through `warmline.commands.jobs_wait`.
The listings (`scan-status`, `recs`) read the cache, refreshed first when online.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import echo_acted, no_prompt, say
from warmline.commands.common import (
    ID,
    AmountType,
    CommandError,
    NumberType,
    echo_json,
    job_json,
    note,
    open_config,
    open_store,
    plain,
    print_table,
    queue_action,
    resolve_lead,
    short_id,
)
from warmline.commands.delivery import QUICK_TIMEOUT, send_now, settled, try_delivery
from warmline.commands.jobs_wait import job_outcome, run_job
from warmline.commands.records import resolve_companies
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR
from warmline.ops.kinds import JobKind
from warmline.store.outreach import (
    outreach_status as lead_statuses,  # `outreach_status` is the command below
)
from warmline.vocabulary import plural, recommendation_action, source_name
from warmline.wiring import make_client, make_engine

if TYPE_CHECKING:
    from warmline.config import Config
    from warmline.store import Store, SyncStatus
    from warmline.store.rows import Job
    from warmline.sync import SyncEngine

Action = Callable[["Store", int], str]
"""An action of `warmline.actions` on one lead (or recommendation): queues it, returns the op id."""


JSON_HELP = "Print JSON: the op id and its state (see docs/cli.md)."


def _queue_on_lead(lead_ref: str, what: str, action: Action, as_json: bool) -> None:
    """Queue `action(store, lead_id)` on the lead, say so, and try to send it now; with
    `as_json` the words go to stderr and stdout gets the op as it then stands."""
    config = open_config()
    with open_store(config) as store:
        lead = resolve_lead(store, lead_ref)
        op_id = queue_action(lambda: action(store, lead.id))
        say(as_json, f"Queued {what} on {lead.company_name} (op {short_id(op_id)}).")
        try_delivery(store, config, op_id, err=as_json)
        if as_json:
            echo_acted(store, [op_id])


def _queue_job(lead_ref: str, what: str, action: Action, wait: bool, follow_up: str, as_json: bool) -> None:
    """Queue a job start on the lead, send it, and with `wait` follow it until it ends."""
    config = open_config()
    with open_store(config) as store:
        lead = resolve_lead(store, lead_ref)
        op_id = queue_action(lambda: action(store, lead.id))
        say(as_json, f"Queued {what} on {lead.company_name} (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, what, wait, as_json)

        def hint(_job: Job, _found: list[dict[str, Any]]) -> None:
            click.echo(f"See it with `warmline outreach {follow_up} {lead.id}`.")

        job_outcome(store, op_id, job, what, as_json, lambda _job: [], hint)


def _refresh(store: Store, config: Config, read: Callable[[SyncEngine], Awaitable[object]]) -> None:
    """Bring the cache up to date with `read(engine)` when a key is configured; a failure
    only says that the cached data is shown, since the listings work offline."""
    if not config.api_key:
        return

    async def go() -> SyncStatus:
        async with make_client(config, QUICK_TIMEOUT) as client:
            engine = make_engine(store, config, client)
            await read(engine)
            return engine.status.current

    status = asyncio.run(go())
    if status.online is False or status.auth_failed:
        note(f"Showing the cached data ({status.last_error})")


# --- the group, and adding and removing leads ----------------------------------------


@click.group("outreach", epilog=EXIT_CODES_HELP)
def outreach_group() -> None:
    """Leads in outreach: add saved companies, remove leads, and work a lead (status, target,
    scans, sources, recommendations, key contacts, deal, competitors)."""


@outreach_group.command("add", epilog=EXIT_CODES_HELP)
@click.argument("company_refs", metavar="COMPANY...", nargs=-1, required=True)
@click.option("--as", "lead_status", type=click.Choice(["cold", "warm"]), required=True,
              help="cold: social warming; warm: active nurturing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def outreach_add(company_refs: tuple[str, ...], lead_status: str, as_json: bool) -> None:
    """Add saved companies to outreach as cold or warm leads; works offline (queued)."""
    from warmline import actions  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        named = resolve_companies(store, company_refs)
        # As in the cockpit: a company the cache has as a lead is left out, by name.
        leads_now = lead_statuses(store, [c.id for c in named])
        left_out = [{"company_id": c.id, "reason": f"already a {leads_now[c.id]} lead"} for c in named if c.id in leads_now]
        for company, item in zip([c for c in named if c.id in leads_now], left_out, strict=True):
            note(f"Left out {company.label}: {item['reason']}; `warmline outreach status` changes a lead's status.")
        companies = [c for c in named if c.id not in leads_now]
        if not companies:
            if as_json:
                echo_acted(store, [], added=0, leads=[], skipped=left_out)
            else:
                note("Nothing to add.")
            return
        op_id = queue_action(lambda: actions.add_to_outreach(store, [c.id for c in companies], lead_status))
        adding = plural(len(companies), "company", "companies")
        say(as_json, f"Queued adding {adding} as {lead_status} leads (op {short_id(op_id)}).")
        op = settled(store, op_id, send_now(store, config), as_json)
        result = (op.result or {}) if op is not None else None
        leads = [] if result is None else [lead for lead in result.get("leads") or [] if isinstance(lead, dict)]
        skipped = [] if result is None else [s for s in result.get("skipped") or [] if isinstance(s, dict)]
        if as_json:
            echo_acted(
                store, [op_id],
                added=None if result is None else result.get("added", len(leads)),
                leads=[{"id": lead.get("id"), "company_id": lead.get("company_id"),
                        "company_name": lead.get("company_name"), "lead_status": lead.get("lead_status")}
                       for lead in leads],
                skipped=left_out + skipped,
            )
            return
        if result is not None:
            click.echo(f"Added {result.get('added', len(leads))} lead(s).")
            for lead in leads:
                click.echo(f"  lead {lead.get('id')}: {plain(lead.get('company_name'))} ({plain(lead.get('lead_status'))})")
            for item in skipped:
                click.echo(f"  skipped company {item.get('company_id')}: {plain(item.get('reason'))}")


@outreach_group.command("remove", epilog=EXIT_CODES_HELP)
@click.argument("lead_refs", metavar="LEAD...", nargs=-1, required=True)
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md); needs --yes.")
def outreach_remove(lead_refs: tuple[str, ...], yes: bool, as_json: bool) -> None:
    """Remove leads from outreach (frees their signal slots); asks first unless --yes."""
    from warmline import actions  # deferred: command line

    no_prompt(as_json, yes)
    config = open_config()
    with open_store(config) as store:
        leads = list({lead.id: lead for lead in (resolve_lead(store, ref) for ref in lead_refs)}.values())
        names = ", ".join(f"{plain(lead.company_name)} ({lead.id})" for lead in leads)
        if not yes and not click.confirm(f"Remove {len(leads)} lead(s) from outreach: {names}?", err=True):
            raise CommandError("Nothing removed.", EXIT_ERROR)
        op_ids = queue_action(lambda: actions.remove_leads(store, [lead.id for lead in leads]))
        say(as_json, f"Queued removing {len(leads)} lead(s).")
        unsent = send_now(store, config)
        done = [op_id for op_id in op_ids if settled(store, op_id, unsent, as_json, op_ids) is not None]
        if as_json:
            echo_acted(store, op_ids)
        elif done:
            click.echo(f"Removed {len(done)} lead(s).")


# --- the lead's own fields ---------------------------------------------------------------------


@outreach_group.command("status", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("lead_status", type=click.Choice(["cold", "warm"]))
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_status(lead_ref: str, lead_status: str, as_json: bool) -> None:
    """Move a lead to cold (social warming) or warm (active nurturing); works offline."""
    from warmline import actions  # deferred: command line

    _queue_on_lead(lead_ref, f"status {lead_status}",
                   lambda store, lead_id: actions.change_lead_status(store, lead_id, lead_status), as_json)


@outreach_group.command("target", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("score", type=NumberType())
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_target(lead_ref: str, score: int, as_json: bool) -> None:
    """Set the warming score (1-100) at which a lead is ready for direct outreach."""
    from warmline import actions  # deferred: command line

    _queue_on_lead(lead_ref, f"target score {score}",
                   lambda store, lead_id: actions.set_target_score(store, lead_id, score), as_json)


@outreach_group.command("deal", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.option("--value", "deal_value", type=AmountType(), default=None,
              help="The deal value, 0 or more: 24000, 24,000.50, 24.000,50 or 24k.")
@click.option("--currency", "deal_currency", default=None, help="A 3-letter currency code (EUR).")
@click.option("--won/--not-won", "won", default=None, help="Mark the deal won, or not won any more.")
@click.option("--lost", "lost_reason", default=None, metavar="REASON", help="Mark the deal lost, saying why.")
@click.option("--not-lost", is_flag=True, help="The deal is not lost any more.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_deal(lead_ref: str, deal_value: float | None, deal_currency: str | None, won: bool | None,
                  lost_reason: str | None, not_lost: bool, as_json: bool) -> None:
    """Update a warm lead's deal: only the given fields change; works offline."""
    from warmline import actions  # deferred: command line

    if lost_reason is not None and not_lost:
        raise CommandError("--lost and --not-lost cannot be used together", EXIT_BAD_INPUT)
    lost = True if lost_reason is not None else (False if not_lost else None)
    _queue_on_lead(lead_ref, "a deal update", lambda store, lead_id: actions.update_deal(
        store, lead_id, deal_value=deal_value, deal_currency=deal_currency, won=won, lost=lost,
        closed_reason=lost_reason), as_json)


# --- signal scan and monitoring sources ---------------------------------------------------------


@outreach_group.command("scan", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.option("--wait", is_flag=True, help="Show progress until the scan ends.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_scan(lead_ref: str, wait: bool, as_json: bool) -> None:
    """Start an AI signal scan of a lead's web presence (takes one site signal slot);
    works offline: queued until the service is reachable."""
    from warmline import actions  # deferred: command line

    _queue_job(lead_ref, "signal scan", actions.start_signal_scan, wait, "scan-status", as_json)


PAGE_FIELDS = ("id", "url", "label", "page_type", "score", "is_selected", "last_checked_at", "pending")


@outreach_group.command("scan-status", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def outreach_scan_status(lead_ref: str, as_json: bool) -> None:
    """A lead's signal scan status and monitoring sources, from the cache (refreshed first
    when the service is reachable)."""
    config = open_config()

    with open_store(config) as store:
        lead = resolve_lead(store, lead_ref)
        _refresh(store, config, lambda engine: engine.refresh_lead(lead.id))
        detail = store.lead_detail(lead.id)
        if detail is None:
            raise CommandError(f"lead {lead.id} is no longer in the cache", EXIT_BAD_INPUT)
        scans = [j for j in store.jobs() if j.kind == JobKind.SIGNAL_SCAN and j.lead_id == lead.id]
        job = scans[0] if scans else None
        pages = detail.monitoring_pages
        if as_json:
            echo_json({
                "lead_id": lead.id,
                "signal_scan_status": detail.signal_scan_status,
                "job": job_json(job) if job is not None else None,
                "monitoring_pages": [{name: getattr(p, name) for name in PAGE_FIELDS} for p in pages],
            })
            return
        progress = f" ({job.progress}%)" if job is not None and job.active and job.progress is not None else ""
        click.echo(f"{plain(lead.company_name)}: signal scan {plain(detail.signal_scan_status or 'never run')}{progress}")
        if not pages:
            click.echo("No monitoring sources yet.")
            return
        print_table(
            ["ID", "ON", "SCORE", "TYPE", "LABEL", "URL"],
            [[p.id, "on" if p.is_selected else "off", "" if p.score is None else p.score, source_name(p.page_type),
              (p.label or "") + (" (pending)" if p.pending else ""), p.url or ""] for p in pages],
        )


@outreach_group.command("source", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("page_id", type=ID)
@click.argument("state", type=click.Choice(["on", "off"]))
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_source(lead_ref: str, page_id: int, state: str, as_json: bool) -> None:
    """Turn a discovered monitoring source on or off (ids: `outreach scan-status LEAD`)."""
    from warmline import actions  # deferred: command line

    _queue_on_lead(lead_ref, f"monitoring source {page_id} {state}",
                   lambda store, lead_id: actions.toggle_monitoring_page(store, lead_id, page_id, state == "on"), as_json)


# --- recommendations ---------------------------------------------------------------------------


REC_FIELDS = ("id", "lead_id", "company_name", "action_type", "target_url", "suggested_comment", "priority",
              "engagement_reason", "source_page_label", "status", "created_at")


async def _refresh_queue(engine: SyncEngine) -> None:
    """The lead list first: its lines tell whose recommendations changed since last read."""
    if await engine.refresh_leads() is not None:
        await engine.refresh_recommendations()


@outreach_group.command("recs", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="[LEAD]", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def outreach_recs(lead_ref: str | None, as_json: bool) -> None:
    """Active engagement recommendations, best first: one lead's, or every lead's. From the
    cache, refreshed first when the service is reachable."""
    config = open_config()
    with open_store(config) as store:
        lead_id = None if lead_ref is None else resolve_lead(store, lead_ref).id
        _refresh(store, config, lambda engine: _refresh_queue(engine) if lead_id is None
                 else engine.refresh_lead(lead_id))
        recs = store.active_recommendations(lead_id=lead_id)
        if as_json:
            echo_json([{name: getattr(r, name) for name in REC_FIELDS} for r in recs])
            return
        if not recs:
            note("No active recommendations.")
            return
        print_table(
            ["ID", "PRIORITY", "ACTION", "COMPANY", "SOURCE", "TARGET"],
            [[r.id, r.priority or "", recommendation_action(r.action_type), r.company_name, r.source_page_label or "",
              r.target_url or ""] for r in recs],
        )


@outreach_group.command("generate", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.option("--wait", is_flag=True, help="Show progress until the generation ends.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_generate(lead_ref: str, wait: bool, as_json: bool) -> None:
    """Ask for new engagement recommendations from a lead's enabled sources; works offline."""
    from warmline import actions  # deferred: command line

    _queue_job(lead_ref, "recommendation generation", actions.generate_recommendations, wait, "recs", as_json)


def _close_recommendation(recommendation_id: int, verb: str, action: Action, as_json: bool) -> None:
    config = open_config()
    with open_store(config) as store:
        op_id = queue_action(lambda: action(store, recommendation_id))
        say(as_json, f"Queued {verb} recommendation {recommendation_id} (op {short_id(op_id)}).")
        try_delivery(store, config, op_id, err=as_json)
        if as_json:
            echo_acted(store, [op_id])


@outreach_group.command("complete", epilog=EXIT_CODES_HELP)
@click.argument("recommendation_id", metavar="REC_ID", type=ID)
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_complete(recommendation_id: int, as_json: bool) -> None:
    """Mark a recommendation done (the service awards its points); works offline."""
    from warmline import actions  # deferred: command line

    _close_recommendation(recommendation_id, "completing", actions.complete_recommendation, as_json)


@outreach_group.command("dismiss", epilog=EXIT_CODES_HELP)
@click.argument("recommendation_id", metavar="REC_ID", type=ID)
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_dismiss(recommendation_id: int, as_json: bool) -> None:
    """Dismiss a recommendation; works offline."""
    from warmline import actions  # deferred: command line

    _close_recommendation(recommendation_id, "dismissing", actions.dismiss_recommendation, as_json)


# --- key contacts and competitors -------------------------------------------------------------


@outreach_group.command("pin", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("contact_id", type=ID)
@click.option("--unpin", is_flag=True, help="Unpin the contact instead.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_pin(lead_ref: str, contact_id: int, unpin: bool, as_json: bool) -> None:
    """Pin (or unpin) a key contact of a lead: any contact of the lead's company, also one
    the lead's cached detail does not list yet (ids: `warmline lead LEAD --json`,
    `warmline contacts list --company C`)."""
    from warmline import actions  # deferred: command line

    def act(store: Store, lead_id: int) -> str:
        # pinning adopts a company contact the lead does not list yet, as the cockpit's picker does
        if unpin:
            return actions.pin_contact(store, lead_id, contact_id, False)
        return actions.pin_company_contact(store, lead_id, contact_id)

    _queue_on_lead(lead_ref, f"{'unpinning' if unpin else 'pinning'} contact {contact_id}", act, as_json)


@outreach_group.command("competitor-add", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("name")
@click.option("--domain", default=None, help="The competitor's web domain.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_competitor_add(lead_ref: str, name: str, domain: str | None, as_json: bool) -> None:
    """Track a competitor of a lead; works offline."""
    from warmline import actions  # deferred: command line

    _queue_on_lead(lead_ref, f"competitor {name!r}",
                   lambda store, lead_id: actions.add_competitor(store, lead_id, name, domain), as_json)


@outreach_group.command("competitor-scan", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("competitor_id", type=ID)
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_competitor_scan(lead_ref: str, competitor_id: int, as_json: bool) -> None:
    """Scan a tracked competitor's website (ids: `warmline lead LEAD --json`); works offline."""
    from warmline import actions  # deferred: command line

    _queue_on_lead(lead_ref, f"a scan of competitor {competitor_id}",
                   lambda store, lead_id: actions.scan_competitor(store, lead_id, competitor_id), as_json)


@outreach_group.command("competitor-pin", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("competitor_id", type=ID)
@click.option("--unpin", is_flag=True, help="Unpin the competitor instead.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def outreach_competitor_pin(lead_ref: str, competitor_id: int, unpin: bool, as_json: bool) -> None:
    """Pin (or unpin) a tracked competitor of a lead; works offline."""
    from warmline import actions  # deferred: command line

    _queue_on_lead(lead_ref, f"{'unpinning' if unpin else 'pinning'} competitor {competitor_id}",
                   lambda store, lead_id: actions.pin_competitor(store, lead_id, competitor_id, not unpin), as_json)


COMMANDS = [outreach_group]
