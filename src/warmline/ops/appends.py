"""The appends: `log_activity`, `add_note`, `add_competitor`. Each adds a record to the lead
that shows at once as pending; its validation, request, reconciliation probe and
confirmation, each with its payload and `OpSpec` (`warmline.ops.specs` tables them by
kind).

Reconciliation: a record with the same lead and text, made at or after the op's first
send and not owned by another of our ops, is ours (`warmline.ops.matching`). For an
activity, the text as sent may carry the late-activity annotation ("... (logged 13:05)"),
so either form matches.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from warmline.api import limits
from warmline.api.errors import InputError
from warmline.ops.activity_type import guess_activity_type
from warmline.ops.confirmation import appended
from warmline.ops.effects import (
    AppendRow,
    Reconcile,
)
from warmline.ops.facts import CacheFacts
from warmline.ops.matching import claimed, oldest_match, since
from warmline.ops.op import Answer, Op
from warmline.ops.parts import dump, probe_of, request_of
from warmline.ops.spec import OpSpec
from warmline.ops.validation import optional_record_id, require_lead
from warmline.timestamps import LATE_SECONDS, epoch_of

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient


# --- payloads: each kind's request as its validator writes it (`warmline.ops.parts`) ---


class LogActivity(TypedDict):
    lead_id: int
    description: str
    contact_id: NotRequired[int | None]


class AddNote(TypedDict):
    lead_id: int
    content: str


class AddCompetitor(TypedDict):
    lead_id: int
    name: str
    domain: NotRequired[str | None]


# --- log_activity ----------------------------------------------------------------------------


def valid_activity(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    return {
        "lead_id": require_lead(cache, p.get("lead_id")),
        "description": limits.check_activity_description(p.get("description")),
        "contact_id": optional_record_id(cache, "contact_id", p.get("contact_id")),
    }


def activity_meta(p: dict[str, Any]) -> dict[str, Any]:
    return {"guessed_type": guess_activity_type(p["description"])}


def annotated_description(
    description: str, logged_at: str | None, first_sent_at: str | None, zone: tzinfo | None = None
) -> str:
    """The description with " (logged 13:05)" when its first send was late, else as it is.

    The service has no field for when an activity happened, so the opt-in setting
    `annotate_late_activities` writes it into the text: the rep's local time (`zone`,
    default the machine's), with the date when the first send fell on another day. It
    depends only on the op's creation and first send time (both stored), so a resend after
    a lost answer carries the same body under the same Idempotency-Key, and
    reconciliation can look for exactly this text. A description the note would push past
    the spec's limit is sent as it is.
    """
    logged, first = epoch_of(logged_at), epoch_of(first_sent_at)
    if logged is None or first is None or first - logged <= LATE_SECONDS:
        return description
    moment = datetime.fromtimestamp(logged, zone).astimezone(zone)
    same_day = moment.date() == datetime.fromtimestamp(first, zone).astimezone(zone).date()
    when = moment.strftime("%H:%M" if same_day else "%d %b %H:%M")
    annotated = f"{description} (logged {when})"
    return annotated if len(annotated) <= limits.MAX_ACTIVITY_CHARS else description


async def send_activity(client: ServiceClient, p: LogActivity, key: str) -> Answer:
    answer = await client.log_touchpoint(
        p["lead_id"], p["description"], p.get("contact_id"), idempotency_key=key
    )
    return dump(answer)


async def probe_activity(client: ServiceClient, cache: CacheFacts, op: Op, p: LogActivity) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    text, contact = p["description"], p.get("contact_id")
    # Whatever the setting is now, the first send may have carried the annotation.
    texts = {text, annotated_description(text, op.created_at, op.first_sent_at)}
    match = oldest_match(
        detail.touchpoints,
        lambda t: t.description in texts and t.contact_id == contact,
        claimed(cache, op, "touchpoints", "touchpoint"),
        since(client, op),
    )
    if match is None:
        return None
    return {
        "touchpoint": dump(match),
        "detected_type": match.detected_type,
        "warming_score": detail.warming_score,
        "reconciled": True,
    }


# --- add_note ----------------------------------------------------------------------------------


def valid_note(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    return {"lead_id": require_lead(cache, p.get("lead_id")), "content": limits.check_note_content(p.get("content"))}


async def send_note(client: ServiceClient, p: AddNote, key: str) -> Answer:
    return {"note": dump(await client.add_note(p["lead_id"], p["content"], idempotency_key=key))}


async def probe_note(client: ServiceClient, cache: CacheFacts, op: Op, p: AddNote) -> Answer | None:
    notes = await client.list_notes(p["lead_id"])
    text = p["content"]
    match = oldest_match(
        notes,
        lambda n: n.content == text,
        claimed(cache, op, "notes", "note"),
        since(client, op),
    )
    return None if match is None else {"note": dump(match), "reconciled": True}


# --- add_competitor ---------------------------------------------------------------------------


def valid_competitor(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    domain = p.get("domain")
    domain = limits.check_competitor_domain(domain.strip() if isinstance(domain, str) else domain)
    if domain == "":
        raise InputError("domain", "domain must be text, or left out")
    return {
        "lead_id": require_lead(cache, p.get("lead_id")),
        "name": limits.check_competitor_name(p.get("name")),
        "domain": domain,
    }


async def send_competitor(client: ServiceClient, p: AddCompetitor, key: str) -> Answer:
    answer = await client.add_competitor(p["lead_id"], p["name"], p.get("domain"), idempotency_key=key)
    return {"competitor": dump(answer)}


async def probe_competitor(client: ServiceClient, cache: CacheFacts, op: Op, p: AddCompetitor) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    name, domain = p["name"], p.get("domain")
    # Competitors carry no creation time, so the window cannot narrow the match.
    match = oldest_match(
        detail.competitors,
        lambda c: c.name == name and (domain is None or c.domain == domain),
        claimed(cache, op, "competitors", "competitor"),
        None,
    )
    return None if match is None else {"competitor": dump(match), "reconciled": True}


# --- the specs (`warmline.ops.specs` tables them by kind) ---------------------------------


LOG_ACTIVITY_SPEC = OpSpec(
    payload=LogActivity,
    validate=valid_activity,
    editable=("description", "contact_id"),
    derive_meta=activity_meta,
    effect=AppendRow("touchpoints"),
    reconcile=Reconcile.APPEND,
    send=request_of(send_activity),
    annotate_late=True,
    probe=probe_of(probe_activity),
    confirm=appended("touchpoint"),
    done_if_card_gone=False,
)


ADD_NOTE_SPEC = OpSpec(
    payload=AddNote,
    validate=valid_note,
    editable=("content",),
    derive_meta=None,
    effect=AppendRow("notes"),
    reconcile=Reconcile.APPEND,
    send=request_of(send_note),
    annotate_late=False,
    probe=probe_of(probe_note),
    confirm=appended("note"),
    done_if_card_gone=False,
)


ADD_COMPETITOR_SPEC = OpSpec(
    payload=AddCompetitor,
    validate=valid_competitor,
    editable=("name", "domain"),
    derive_meta=None,
    effect=AppendRow("competitors"),
    reconcile=Reconcile.APPEND,
    send=request_of(send_competitor),
    annotate_late=False,
    probe=probe_of(probe_competitor),
    confirm=appended("competitor"),
    done_if_card_gone=False,
)
