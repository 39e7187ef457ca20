"""Wire-shaped data for the store tests (docs/wire.md shapes) and a clock they move by hand."""

from __future__ import annotations

from typing import Any

START = 1_795_000_000.0  # 2026-11-17, a fixed moment so timestamps are predictable


class FakeClock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def lead_item(lead_id: int, name: str | None = None, **fields: Any) -> dict[str, Any]:
    """A lead list item as docs/wire.md shapes it."""
    item = {
        "id": lead_id,
        "company_id": 1000 + lead_id,
        "company_name": name or f"Company {lead_id}",
        "lead_status": "cold",
        "warming_score": 10,
        "target_score": 50,
        "activity_count": 0,
        "recommendation_count": 0,
        "monitoring_active": False,
        "last_activity_at": None,
        "created_at": "2026-11-01T09:00:00.000Z",
    }
    item.update(fields)
    return item


def detail_item(lead_id: int, **fields: Any) -> dict[str, Any]:
    """A lead detail with one of everything the detail screen shows."""
    detail = lead_item(lead_id, warming_score=30, activity_count=2, recommendation_count=2, **fields)
    detail.update(
        {
            "signal_scan_status": "completed",
            "company": {"id": 1000 + lead_id, "name": detail["company_name"], "domain": "example.com"},
            "monitoring_pages": [
                {"id": 10 * lead_id + 1, "url": "https://example.com/blog", "label": "Company blog",
                 "page_type": "blog", "score": 8, "is_selected": True, "last_checked_at": None},
                {"id": 10 * lead_id + 2, "url": "https://example.com/careers", "label": "Careers",
                 "page_type": "careers", "score": 4, "is_selected": False, "last_checked_at": None},
            ],
            "contacts": [
                {"id": 500 + lead_id, "first_name": "Dana", "last_name": "Ruiz", "title": "VP Ops",
                 "role": "decision-maker", "email": "dana@example.com", "social_url": None, "is_selected": False},
            ],
            "competitors": [
                {"id": 700 + lead_id, "name": "Rival Inc", "domain": "rival.example", "is_pinned": False,
                 "last_scanned_at": None, "scan_summary": None},
            ],
            "touchpoints": [
                {"id": 9000 + 2 * lead_id, "description": "Met at fair", "detected_type": "event",
                 "contact_id": None, "bonus_points": 12, "created_at": "2026-11-10T10:00:00.000Z"},
                {"id": 9000 + 2 * lead_id + 1, "description": "Liked a post", "detected_type": "like",
                 "contact_id": None, "bonus_points": 3, "created_at": "2026-11-12T10:00:00.000Z"},
            ],
            "recommendations": [
                rec_item(100 * lead_id + 1, lead_id, "low", "2026-11-11T10:00:00.000Z"),
                rec_item(100 * lead_id + 2, lead_id, "high", "2026-11-13T10:00:00.000Z"),
            ],
            "deal_value": None,
            "deal_currency": None,
            "won_at": None,
            "closed_at": None,
            "closed_reason": None,
        }
    )
    return detail


def rec_item(rec_id: int, lead_id: int, priority: str, created_at: str) -> dict[str, Any]:
    return {
        "id": rec_id,
        "lead_id": lead_id,
        "action_type": "comment",
        "target_url": "https://example.com/post",
        "suggested_comment": "Congrats!",
        "priority": priority,
        "engagement_reason": "posted about expanding",
        "source_page_label": "Company blog",
        "status": "active",
        "created_at": created_at,
    }
