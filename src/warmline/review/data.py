"""The review as JSON, for a script or a spreadsheet: one object, the same keys in the
same order every time (`review_json`), dates in ISO 8601 (days as dates, moments with the
rep's offset), counts as numbers. `textsafe.json_dumps` leaves no raw control character."""

from __future__ import annotations

from typing import Any

from warmline.review.model import Deals, LeadMention, Money, Review
from warmline.textsafe import json_dumps

FORMAT_VERSION = 1
"""Bumped when a key changes meaning or goes away (new keys may be added)."""


def _mention(mention: LeadMention) -> dict[str, Any]:
    return {
        "lead_id": mention.lead_id,
        "company": mention.company,
        "at": mention.at.isoformat() if mention.at is not None else None,
        "detail": mention.detail,
    }


def _money(money: Money) -> dict[str, Any]:
    return {
        "currency": money.currency or None,
        "total": round(money.total, 2),
        "deals": money.deals,
    }


def _deals(deals: Deals) -> dict[str, Any]:
    return {
        "count": deals.count,
        "values": [_money(m) for m in deals.values],
        "leads": [_mention(m) for m in deals.leads],
    }


def review_json(review: Review) -> dict[str, Any]:
    period = review.period
    pending = review.pending
    return {
        "format": FORMAT_VERSION,
        "period": {
            "week": period.week,
            "first_day": period.first.isoformat(),
            "last_day": period.last.isoformat(),
            "days": period.length,
        },
        "zone": review.zone or None,
        "generated_at": review.generated_at.isoformat(),
        "activities": {
            "total": review.activities,
            "by_type": {name: count for name, count in review.by_type()},
            "by_day": [
                {
                    "day": day.day.isoformat(),
                    "total": day.activities,
                    "by_type": dict(zip(review.types, day.by_type, strict=True)),
                    "notes": day.notes,
                }
                for day in review.days
            ],
        },  # fmt: skip
        "notes": review.notes,
        "leads": {
            "touched": [_mention(m) for m in review.touched],
            "moved_cold_to_warm": [_mention(m) for m in review.warmed],
            "reached_target": [_mention(m) for m in review.reached],
            "went_cold": [_mention(m) for m in review.went_cold],
        },
        "cold_after_days": review.cold_after_days,
        "recommendations": {"completed": review.completed, "dismissed": review.dismissed},
        "follow_ups": {
            "made": review.follow_ups.made,
            "done": review.follow_ups.done,
            "overdue": review.follow_ups.overdue,
        },
        "deals": {
            "opened": _deals(review.opened),
            "won": _deals(review.won),
            "lost": _deals(review.lost),
        },
        "scores": [
            {
                "lead_id": move.lead_id,
                "company": move.company,
                "start": move.start,
                "end": move.end,
                "change": move.change,
                "target": move.target,
                "by_day": [{"day": p.day.isoformat(), "score": p.score} for p in move.points],
            }
            for move in review.scores
        ],
        "pending": {
            "unsent": pending.unsent,
            "failed": pending.failed,
            "unsent_queued_in_period": pending.in_period,
            "activities": pending.activities,
            "notes": pending.notes,
            "decisions": pending.decisions,
            "by_kind": {kind: count for kind, count in pending.by_kind},
        },
    }


def render_json(review: Review) -> str:
    return json_dumps(review_json(review), indent=2) + "\n"
