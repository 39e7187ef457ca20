"""Sample wire records (docs/wire.md shapes) and settings shared by the client tests."""

BASE_URL = "http://127.0.0.1:8765"
API_KEY = "sk-live-TOPSECRET-1234567890"
TS = "2026-11-22T10:24:11.123Z"

COMPANY = {
    "id": 7,
    "name": "Acme Logistics",
    "domain": "acme.io",
    "industry": "Logistics",
    "country": "Sweden",
    "region": "Stockholm",
    "size": "51-200",
    "description": "Freight software",
    "tags": ["icp"],
    "custom_fields": {"icp_fit": 8},
    "source": "lookup",
    "ai_tag": None,
    "created_at": TS,
    "updated_at": TS,
}
CONTACT = {
    "id": 4,
    "company_id": 7,
    "first_name": "Dana",
    "last_name": "Berg",
    "email": "dana@acme.io",
    "title": "VP Ops",
    "role": "decision-maker",
    "social_url": None,
    "phone": None,
    "tags": [],
    "custom_fields": {},
    "created_at": TS,
    "updated_at": TS,
}
FOUND_CONTACT = {
    "id": 1, "first_name": "Ola", "last_name": "Nord", "title": "CTO", "role": "champion",
    "email": None, "social_url": "https://social.example/ola", "company_id": 7,
}
TEMPLATE = {
    "id": "0b7c1c8e-4f7e-4a44-9a3c-111111111111",
    "name": "ICP fit",
    "description": None,
    "fields": [{"key": "icp_fit", "name": "ICP fit", "type": "number"}],
    "created_at": TS,
}
RUN = {
    "run_id": "run-1", "status": "completed", "template_id": TEMPLATE["id"], "company_ids": [7, 8],
    "progress": 100, "created_at": TS, "completed_at": TS,
    "results": [{"company_id": 7, "fields": {"icp_fit": 8}}],
}
LEAD = {
    "id": 3, "company_id": 7, "company_name": "Acme Logistics", "lead_status": "warm",
    "warming_score": 42, "target_score": 70, "activity_count": 5, "recommendation_count": 1,
    "monitoring_active": True, "last_activity_at": TS, "created_at": TS,
}
REC = {
    "id": 11, "lead_id": 3, "action_type": "check_in", "target_url": "https://acme.io/blog/1",
    "suggested_comment": "Congrats on the launch", "priority": "high",
    "engagement_reason": "posted about expanding to Poland", "source_page_label": "Company blog",
    "status": "active", "created_at": TS,
}
PAGE = {
    "id": 9, "url": "https://acme.io/blog", "label": "Company blog", "page_type": "blog",
    "score": 8, "is_selected": True, "last_checked_at": None,
}
COMPETITOR = {
    "id": 5, "name": "Rival", "domain": "rival.io", "is_pinned": False,
    "last_scanned_at": None, "scan_summary": None,
}
TOUCHPOINT = {
    "id": 21, "description": "Called Dana", "detected_type": "call", "contact_id": 4,
    "bonus_points": 15, "created_at": TS,
}
NOTE = {"id": 31, "content": "Wants pricing by Friday", "created_at": TS}
LEAD_DETAIL = {
    **LEAD,
    "signal_scan_status": "completed",
    "company": {k: COMPANY[k] for k in ("id", "name", "domain", "industry", "country", "region", "size", "description")},
    "monitoring_pages": [PAGE],
    "contacts": [{**FOUND_CONTACT, "is_selected": True}],
    "competitors": [COMPETITOR],
    "touchpoints": [TOUCHPOINT],
    "recommendations": [REC],
    "deal_value": 24000,
    "deal_currency": "EUR",
    "won_at": None,
    "closed_at": None,
    "closed_reason": None,
}
