"""A cold and a warm lead with everything the actions touch, and a whole-cache fingerprint."""

from __future__ import annotations

from typing import Any

from warmline.store import Store

COLD, WARM = 1, 2


def lead_detail(lead_id: int, status: str) -> dict[str, Any]:
    return {
        "id": lead_id,
        "company_id": 100 + lead_id,
        "company_name": f"Lead {lead_id} AB",
        "lead_status": status,
        "warming_score": 20,
        "target_score": 60,
        "activity_count": 0,
        "recommendation_count": 2,
        "monitoring_active": True,
        "last_activity_at": None,
        "monitoring_pages": [{"id": 10 * lead_id, "url": "https://x.example/blog", "label": "Blog", "score": 7,
                              "is_selected": False}],
        "contacts": [{"id": 20 * lead_id, "first_name": "Dana", "last_name": "Ruiz", "is_selected": False}],
        "competitors": [{"id": 30 * lead_id, "name": "Rival", "is_pinned": False}],
        "touchpoints": [],
        "recommendations": [
            {"id": 40 * lead_id + i, "lead_id": lead_id, "action_type": "like", "priority": "high",
             "status": "active", "created_at": "2026-11-01T00:00:00.000Z"}
            for i in (1, 2)
        ],
    }


def fingerprint(store: Store) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table: proof that a refused action stored nothing."""
    tables = [r["name"] for r in store.rows(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' AND name NOT LIKE 'sqlite_%'")]
    return {t: store.rows(f"SELECT * FROM {t}") for t in tables}
