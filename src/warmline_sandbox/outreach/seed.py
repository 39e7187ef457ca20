"""Demo leads that look alive: a history of activity, scans, recommendations, deals.

Leads are made from the saved companies (and their contacts) that the platform seed
created. The seed replays a plausible past through the same functions the API uses (logging
activities, finishing scan and generation jobs, completing recommendations), so seeded
scores, counts and histories obey exactly the rules a live server enforces. Seed data
belongs to no key: it occupies no plan quota.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from warmline_sandbox import jobs
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.outreach import engagement, leads, log, people, scans
from warmline_sandbox.settings import SandboxSettings

READY_LEADS = 2
"""How many warm leads are seeded at or above their target score ("ready for outreach").
They reach it with activities of the last day (`READY_WITHIN`), so the demo's Today
announces them as ready since yesterday."""
READY_WITHIN = timedelta(hours=20)
"""A ready lead's final push starts at most this long before `now`: after the start of
the rep's yesterday in any time zone (which is at least 24 h before `now`)."""
PROMISE = "Called {first}; promised to send the security questionnaire answers tomorrow"
"""Logged on the first warm lead that is not ready, 24-28 h before `now`: the rep's
yesterday after 04:00 of their day (the day before, earlier), in any zone, so the
follow-up `warmline demo` reads from it is due today (or overdue)."""

_COLD_ACTIVITIES = (
    "Liked {first}'s post about the new warehouse",
    "Commented on {first}'s post about hiring",
    "Followed {company} on LinkedIn",
    "Messaged {first} on LinkedIn about their expansion",
    "Shared their case study with our network",
    "Sent a connection request to {first} ({title})",
    "Emailed {first} a short intro, suggested a call next Tuesday",
)
_WARM_ACTIVITIES = (
    "Called {first}, they want a demo next Tuesday",
    "Spoke with {first} ({title}), wants pricing by Friday",
    "Sent {first} an email with the pricing sheet",
    "Met {first} for coffee to talk about the rollout",
    "Video call with {first} and the procurement team",
    "Emailed the proposal to {first}; decision expected on {date}",
    "Saw {first} at the industry summit booth",
    "Left a voicemail for {first} about the pilot",
)
_NOTES = (
    "Budget cycle starts in January; get on the shortlist before then.",
    "{first} prefers email over calls. Keep messages short.",
    "Competitor contract ends in Q2.",
    "Met at the logistics summit; interested in the reporting module.",
    "Procurement needs a security questionnaire before any pilot.",
    "Asked for two customer references in their industry.",
)
_COMPETITORS = ("Northwind Analytics", "Globex Insights", "Initech Data", "Umbrella Signals")
_LOST_REASONS = ("Chose a cheaper vendor", "Project postponed to next year", "No budget")


def seed_outreach(
    conn: sqlite3.Connection,
    settings: SandboxSettings,
    rng: random.Random,
    now: datetime | None = None,
) -> int:
    """Turn up to `settings.leads` saved companies into leads with a past; returns how many."""
    now = now or datetime.now(UTC)
    company_rows = conn.execute(
        "SELECT id, name, domain FROM companies WHERE id NOT IN (SELECT company_id FROM outreach_leads) "
        "ORDER BY id LIMIT ?",
        (settings.leads,),
    ).fetchall()
    ready_left = READY_LEADS
    promise_left = 1
    for index, company in enumerate(company_rows):
        status = "warm" if index % 9 in (1, 3, 5, 7) else "cold"
        ready = status == "warm" and ready_left > 0
        ready_left -= int(ready)
        promise = status == "warm" and not ready and promise_left > 0
        promise_left -= int(promise)
        _seed_lead(conn, settings, rng, dict(company), status, ready, now, promise=promise)
    return len(company_rows)


def _seed_lead(
    conn: sqlite3.Connection,
    settings: SandboxSettings,
    rng: random.Random,
    company: dict[str, Any],
    status: str,
    ready: bool,
    now: datetime,
    *,
    promise: bool = False,
) -> None:
    start = now - timedelta(days=rng.randint(20, 90), hours=rng.randint(0, 23))
    lead_id = leads.insert_lead(
        conn, company["id"], status, start, target_score=rng.choice((60, 70, 75, 80, 90))
    )
    contacts = _company_contacts(conn, company["id"])
    for contact in rng.sample(contacts, k=min(len(contacts), rng.randint(0, 2))):
        people.pin_contact(conn, lead_id, contact["id"], True)
    clock = ManualClock(start + timedelta(days=1))
    scanned = rng.random() < 0.85 or ready  # a ready lead has sources and suggestions to act on
    if scanned:
        _run_job(conn, scans.start_scan, lead_id, settings, clock)
        _run_job(conn, engagement.start_generation, lead_id, settings, clock)
    _seed_history(conn, rng, lead_id, status, company["name"], contacts, clock, now, ready)
    if promise:
        _seed_promise(conn, rng, lead_id, contacts, now)
    for stale in engagement.active_recommendations(conn, lead_id):
        engagement.dismiss(conn, lead_id, stale["id"], now - timedelta(days=1))
    if scanned and (rng.random() < 0.35 or ready):  # a ready lead always has fresh suggestions
        # Fresh suggestions from this morning, so the triage queue has work in it.
        fresh = ManualClock(now - timedelta(hours=3))
        _run_job(conn, engagement.start_generation, lead_id, settings, fresh)
    _seed_notes(conn, rng, lead_id, contacts, start, now)
    _seed_competitors(conn, rng, lead_id, start, now)
    if status == "warm" and rng.random() < 0.6:
        _seed_deal(conn, rng, lead_id, now)


def _company_contacts(conn: sqlite3.Connection, company_id: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT id, first_name, title, role FROM contacts WHERE company_id = ? ORDER BY id",
        (company_id,),
    ).fetchall()
    return [dict(row) for row in rows]


def _run_job(
    conn: sqlite3.Connection,
    start_fn: Callable[..., object],
    lead_id: int,
    settings: SandboxSettings,
    clock: ManualClock,
) -> None:
    """Start a scan or generation as the API would, then let it finish a few minutes later."""
    start_fn(conn, lead_id, None, settings.seed, 0.0, clock.now())
    clock.advance(300)
    jobs.finish_due(conn, clock, (scans.SCAN_KIND, engagement.GENERATION_KIND))


def _seed_history(
    conn: sqlite3.Connection,
    rng: random.Random,
    lead_id: int,
    status: str,
    company_name: str,
    contacts: list[dict[str, Any]],
    clock: ManualClock,
    now: datetime,
    ready: bool,
) -> None:
    """Activities spread up to today. A ready lead keeps going until it reaches its
    target; the others stop short of theirs, so only the chosen few are ready."""
    templates = _WARM_ACTIVITIES if status == "warm" else _COLD_ACTIVITIES
    span = (now - clock.now()).total_seconds()
    count = rng.randint(3, 7) if status == "warm" else rng.randint(2, 6)
    times = sorted(clock.now() + timedelta(seconds=rng.uniform(0, span)) for _ in range(count))
    last = times[-1]
    for when in times:
        lead = leads.require_lead(conn, lead_id)
        if lead["warming_score"] >= lead["target_score"] - 25:
            break
        _seed_activity(conn, rng, lead_id, templates, company_name, contacts, when)
        last = when
    # A ready lead is pushed over its target by the last day's activities.
    last = max(last, now - READY_WITHIN + timedelta(minutes=rng.randint(0, 480)))
    for _ in range(100):
        lead = leads.require_lead(conn, lead_id)
        if not ready or lead["warming_score"] >= lead["target_score"]:
            break
        last = min(last + timedelta(minutes=rng.randint(30, 150)), now - timedelta(minutes=1))
        _seed_activity(conn, rng, lead_id, templates, company_name, contacts, last)
    lead = leads.require_lead(conn, lead_id)
    if not ready and lead["warming_score"] >= lead["target_score"]:
        target = min(100, lead["warming_score"] + rng.randint(3, 15))
        leads.update_lead(conn, lead_id, now, target_score=target)


def _seed_promise(
    conn: sqlite3.Connection, rng: random.Random, lead_id: int, contacts: list[dict[str, Any]], now: datetime
) -> None:
    """Yesterday's `PROMISE` on a lead that is not to be ready: when its points take the
    lead to its target, the target moves up as `_seed_history` moves it."""
    contact = rng.choice(contacts) if contacts else None
    text = PROMISE.format(first=contact["first_name"] if contact else "the buyer")
    when = now - timedelta(hours=24, minutes=rng.randint(0, 239))
    log.log_activity(conn, lead_id, text, contact["id"] if contact else None, when)
    lead = leads.require_lead(conn, lead_id)
    if lead["warming_score"] >= lead["target_score"]:
        leads.update_lead(conn, lead_id, now, target_score=min(100, lead["warming_score"] + rng.randint(3, 15)))


def _seed_activity(
    conn: sqlite3.Connection,
    rng: random.Random,
    lead_id: int,
    templates: tuple[str, ...],
    company_name: str,
    contacts: list[dict[str, Any]],
    when: datetime,
) -> None:
    _maybe_resolve_recommendation(conn, rng, lead_id, when)
    contact = rng.choice(contacts) if contacts else None
    text = rng.choice(templates).format(
        first=contact["first_name"] if contact else "the team",
        title=contact["title"] if contact else "buyer",
        company=company_name,
        date=(when + timedelta(days=rng.randint(3, 20))).strftime("%d %B"),
    )
    log.log_activity(conn, lead_id, text, contact["id"] if contact else None, when)


def _maybe_resolve_recommendation(
    conn: sqlite3.Connection, rng: random.Random, lead_id: int, when: datetime
) -> None:
    active = engagement.active_recommendations(conn, lead_id)
    if not active or rng.random() < 0.7:
        return
    rec = rng.choice(active)
    if rng.random() < 0.7:
        engagement.complete(conn, lead_id, rec["id"], when)
    else:
        engagement.dismiss(conn, lead_id, rec["id"], when)


def _seed_notes(
    conn: sqlite3.Connection,
    rng: random.Random,
    lead_id: int,
    contacts: list[dict[str, Any]],
    start: datetime,
    now: datetime,
) -> None:
    span = (now - start).total_seconds()
    for text in rng.sample(_NOTES, k=rng.randint(0, 4)):
        first = rng.choice(contacts)["first_name"] if contacts else "The buyer"
        when = start + timedelta(seconds=rng.uniform(0.1, 0.95) * span)
        log.add_note(conn, lead_id, text.format(first=first), when)


def _seed_competitors(
    conn: sqlite3.Connection, rng: random.Random, lead_id: int, start: datetime, now: datetime
) -> None:
    for position, name in enumerate(rng.sample(_COMPETITORS, k=rng.randint(0, 3))):
        domain = name.lower().replace(" ", "") + ".example"
        competitor = people.add_competitor(conn, lead_id, name, domain, start)["competitor"]
        if rng.random() < 0.6:
            people.scan_competitor(
                conn, lead_id, competitor["id"], now - timedelta(days=rng.randint(0, 10))
            )
        if position == 0 and rng.random() < 0.5:
            people.pin_competitor(conn, lead_id, competitor["id"], True)


def _seed_deal(conn: sqlite3.Connection, rng: random.Random, lead_id: int, now: datetime) -> None:
    outcome = rng.random()
    changes = leads.DealChanges(
        deal_value=float(rng.randrange(5_000, 120_000, 500)),
        deal_currency=rng.choice(("EUR", "USD", "GBP")),
        won=True if outcome < 0.2 else None,
        lost=True if 0.2 <= outcome < 0.3 else None,
        closed_reason=rng.choice(_LOST_REASONS) if 0.2 <= outcome < 0.3 else None,
    )
    leads.update_deal(conn, lead_id, changes, now - timedelta(days=rng.randint(0, 14)))
