"""Deterministic service data in the wire shapes of docs/wire.md, for the cockpit's tests.

The cockpit is tested on a real store filled through the store's own apply functions
with these server answers, so the screens see exactly what they will see after a sync.
Times are fixed relative to NOW, and tests inject the same NOW as the clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)

KESTREL = 103
"""Kestrel Analytics' lead id (COMPANIES[3]: warm, score 21, target 90)."""
KESTREL_COMPANY = 503
"""Kestrel Analytics' saved company id."""

HOSTILE_MARKUP = "[bold red]Markup[/] Industries"
HOSTILE_ESCAPE = "Escape\x1b[31m Red\x1b[0m\x1b]0;pwned\x07 Co"

COMPANIES = [
    ("Northwind Logistics", "northwind.example", "Logistics", "Sweden"),
    ("Fjord Freight AB", "fjordfreight.example", "Logistics", "Norway"),
    ("Dental Bavaria GmbH", "dentalbavaria.example", "Healthcare", "Germany"),
    ("Kestrel Analytics", "kestrel.example", "Software", "Finland"),
    (HOSTILE_MARKUP, "markup.example", "Manufacturing", "Denmark"),
    (HOSTILE_ESCAPE, "escape.example", "Retail", "Poland"),
    ("Lumen Health Oy", "lumen.example", "Healthcare", "Finland"),
    ("Orbit Payments", "orbit.example", "Financial Services", "Estonia"),
    ("Granite Builders", "granite.example", "Construction", "Sweden"),
    ("Harbor Foods", "harbor.example", "Food", "Denmark"),
    ("Quartz Robotics", "quartz.example", "Manufacturing", "Germany"),
    ("Sable Security", "sable.example", "Software", "Norway"),
]


def ts(delta: timedelta) -> str:
    """A wire timestamp `delta` before NOW."""
    moment = NOW - delta
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def lead_item(index: int) -> dict[str, Any]:
    """A lead list item: scores spread so some leads are ready and some are far off."""
    name, *_ = COMPANIES[index]
    score = (index * 37 + 11) % 101
    target = (60, 70, 80, 90)[index % 4]
    return {
        "id": 100 + index,
        "company_id": 500 + index,
        "company_name": name,
        "lead_status": "warm" if index % 3 == 0 else "cold",
        "warming_score": score,
        "target_score": target,
        "activity_count": index * 2,
        "recommendation_count": 2 if index < 5 else 0,
        "monitoring_active": index % 2 == 0,
        "last_activity_at": ts(timedelta(hours=index * 7 + 1)) if index != 7 else None,
        "created_at": ts(timedelta(days=30 + index)),
    }


def lead_items() -> list[dict[str, Any]]:
    return [lead_item(i) for i in range(len(COMPANIES))]


def recommendation(lead_index: int, number: int) -> dict[str, Any]:
    priority = ("high", "medium", "low")[(lead_index + number) % 3]
    warm = lead_item(lead_index)["lead_status"] == "warm"
    return {
        "id": 1000 + lead_index * 10 + number,
        "lead_id": 100 + lead_index,
        "action_type": ("share_content", "check_in", "congratulate")[number % 3] if warm else ("comment", "follow", "like")[number % 3],
        "target_url": f"https://social.example/posts/{lead_index}-{number}",
        "suggested_comment": f"Congratulations on the expansion, {COMPANIES[lead_index][0]}!\nKeen to hear more.",
        "priority": priority,
        "engagement_reason": "Posted about expanding to Poland" if number == 0 else "New hiring wave for sales roles",
        "source_page_label": "CEO's profile" if number == 0 else "Company blog",
        "status": "active",
        "created_at": ts(timedelta(hours=20 - number - lead_index)),
    }


def lead_detail(index: int) -> dict[str, Any]:
    """The full detail of a lead: company, sources, contacts, competitors, log, recs, deal."""
    item = lead_item(index)
    name, domain, industry, country = COMPANIES[index]
    touchpoints = [
        {
            "id": 3000 + index * 10 + n,
            "description": ("Called Dana, she wants a demo next Tuesday", "Sent pricing by email", "Met at the Nordic Logistics fair")[n % 3],
            "detected_type": ("call", "email", "meeting")[n % 3],
            "contact_id": None,
            "bonus_points": (8, 5, 12)[n % 3],
            "created_at": ts(timedelta(days=n * 3 + 1, hours=index)),
        }
        for n in range(min(index, 3))
    ]
    return {
        **item,
        "signal_scan_status": "completed" if index % 2 == 0 else "none",
        "company": {
            "id": item["company_id"], "name": name, "domain": domain, "industry": industry,
            "country": country, "region": None, "size": "51-200",
            "description": f"{name} is a {industry.lower()} company.",
        },
        "monitoring_pages": [
            {"id": 7000 + index * 10 + n, "url": f"https://{domain}/{path}", "label": label,
             "page_type": page_type, "score": score, "is_selected": n != 1, "last_checked_at": ts(timedelta(hours=5))}
            for n, (path, label, page_type, score) in enumerate((
                ("blog", "Company blog", "blog", 8),
                ("careers", "Careers page", "careers", 5),
                ("ceo", "CEO's profile", "contact_social", 9),
            ))
        ],
        "contacts": [
            {"id": 9000 + index * 10 + n, "first_name": first, "last_name": last, "title": title, "role": role,
             "email": f"{first.lower()}@{domain}", "social_url": None, "is_selected": n == 0}
            for n, (first, last, title, role) in enumerate((
                ("Dana", "Berg", "VP Operations", "decision-maker"),
                ("Ola", "Nordmann", "Head of Logistics", "champion"),
            ))
        ],
        "competitors": [
            {"id": 8000 + index, "name": "Rival Freight", "domain": "rival.example", "is_pinned": True,
             "last_scanned_at": ts(timedelta(days=2)), "scan_summary": "New pricing page"},
        ],
        "touchpoints": touchpoints,
        "recommendations": [recommendation(index, n) for n in range(item["recommendation_count"])],
        "deal_value": 24000 if item["lead_status"] == "warm" else None,
        "deal_currency": "EUR" if item["lead_status"] == "warm" else None,
        "won_at": None,
        "closed_at": None,
        "closed_reason": None,
    }


def notes(index: int) -> list[dict[str, Any]]:
    return [
        {"id": 4000 + index * 10 + n, "content": text, "created_at": ts(timedelta(days=n + 1))}
        for n, text in enumerate(("Prefers email over calls", "Budget cycle starts in January"))
    ]


def recommendations_response(index: int) -> dict[str, Any]:
    recs = [recommendation(index, n) for n in range(lead_item(index)["recommendation_count"])]
    return {
        "success": True,
        "recommendations": recs,
        "count": len(recs),
        "progress": {"completed": 3, "dismissed": 1, "total": len(recs) + 4},
        "generation_status": "completed",
    }
