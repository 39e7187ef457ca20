"""Lead list paging: every sort, status and text filter against a reference in Python."""

from __future__ import annotations

import random
from typing import Any

import pytest

from warmline.store import Store, paging

NAMES = ["Acme", "Acme Logistics", "Bolt", "Nordic Dental", "dental works", "Zeta", "Bavaria Dental GmbH", "Smith & Sons"]


@pytest.fixture
def leads(store: Store, lead_item) -> list[dict[str, Any]]:
    rng = random.Random(7)
    items = []
    for lead_id in range(1, 301):
        name = f"{rng.choice(NAMES)} {rng.randint(1, 60)}"
        last = None if rng.random() < 0.2 else f"2026-11-{rng.randint(1, 20):02d}T{rng.randint(0, 23):02d}:00:00.000Z"
        items.append(
            lead_item(
                lead_id,
                name,
                lead_status=rng.choice(["cold", "warm"]),
                warming_score=rng.randint(0, 100),
                target_score=rng.choice([None, rng.randint(1, 100)]),
                last_activity_at=last,
            )
        )
    store.upsert_leads(items)
    return items


def reference(items: list[dict[str, Any]], status: str | None, text: str, sort: str) -> list[int]:
    needle = text.strip().lower()

    def matches(item: dict[str, Any]) -> bool:
        name = item["company_name"].lower()
        if status is not None and item["lead_status"] != status:
            return False
        if not needle:
            return True
        return needle in name if len(needle) >= 3 else name.startswith(needle)

    chosen = sorted((i for i in items if matches(i)), key=lambda i: i["id"])
    if sort == "score":
        chosen.sort(key=lambda i: -i["warming_score"])
    elif sort == "gap":
        chosen.sort(key=lambda i: (i["target_score"] or 100) - i["warming_score"])
    else:
        chosen.sort(key=lambda i: i["last_activity_at"] or "", reverse=True)
    return [i["id"] for i in chosen]


@pytest.mark.parametrize("set_limit", [paging.SET_LIMIT, 5], ids=["few-candidates", "many-candidates"])
@pytest.mark.parametrize("sort", ["score", "gap", "activity"])
@pytest.mark.parametrize("status", [None, "cold", "warm"])
@pytest.mark.parametrize("text", ["", "dental", "ACME LOG", "bavaria dental gmbh", "a", "ze", "nothing-like-this", "5"])
def test_pages_match_the_reference(
    store: Store, leads, monkeypatch: pytest.MonkeyPatch, set_limit: int, sort: str, status: str | None, text: str
) -> None:
    monkeypatch.setattr(paging, "SET_LIMIT", set_limit)
    expected = reference(leads, status, text, sort)
    assert store.lead_count(status, text) == len(expected)
    got: list[int] = []
    for offset in range(0, len(expected) + 40, 40):
        got.extend(r.id for r in store.lead_page(status, text, sort, offset=offset, limit=40))
    assert got == expected


def test_deep_offsets_walk_backwards_and_still_match(store: Store, leads) -> None:
    expected = reference(leads, None, "", "gap")
    page = store.lead_page(sort="gap", offset=290, limit=50)
    assert [r.id for r in page] == expected[290:]
    assert store.lead_page(sort="gap", offset=300, limit=50) == []
    assert [r.id for r in store.lead_page(sort="gap", offset=151, limit=7)] == expected[151:158]


def test_ready_flag_and_gap(store: Store, lead_item) -> None:
    store.upsert_leads(
        [
            lead_item(1, "Ready", warming_score=60, target_score=50),
            lead_item(2, "Exactly", warming_score=50, target_score=50),
            lead_item(3, "Far", warming_score=10, target_score=90),
            lead_item(4, "No target", warming_score=99, target_score=None),
        ]
    )
    rows = {r.id: r for r in store.lead_page(sort="gap")}
    assert [r.id for r in store.lead_page(sort="gap")] == [1, 2, 4, 3]
    assert (rows[1].gap, rows[1].ready) == (-10, True)
    assert rows[2].ready and not rows[3].ready and not rows[4].ready
    assert rows[4].gap == 1  # no target stored: the spec's maximum, 100


def test_filters_are_literal_text(store: Store, lead_item) -> None:
    store.upsert_leads([lead_item(1, 'Quote "x" AND y*'), lead_item(2, "100% Percent_Co")])
    assert [r.id for r in store.lead_page(text='"x" and')] == [1]
    assert [r.id for r in store.lead_page(text="% percent_")] == [2]
    assert store.lead_count(text="and y*") == 1


def test_filter_follows_a_renamed_company(store: Store, lead_item) -> None:
    store.upsert_leads([lead_item(1, "Old Name")])
    store.upsert_leads([lead_item(1, "Brand New")])
    assert store.lead_page(text="old name") == []
    assert [r.id for r in store.lead_page(text="brand")] == [1]


def test_counts_follow_writes(store: Store, lead_item) -> None:
    store.upsert_leads([lead_item(1), lead_item(2)])
    assert store.lead_count() == 2
    store.upsert_leads([lead_item(3)])
    assert store.lead_count() == 3


def test_bad_arguments_are_refused(store: Store) -> None:
    with pytest.raises(ValueError):
        store.lead_page(status="lukewarm")
    with pytest.raises(ValueError):
        store.lead_page(sort="name")


def test_full_list_removes_leads_gone_from_the_server(store: Store, lead_item) -> None:
    store.upsert_leads([lead_item(1), lead_item(2), lead_item(3, lead_status="warm")])
    store.enqueue("add_note", {"lead_id": 2, "content": "keep me"}, lead_id=2)
    store.upsert_leads([lead_item(1)], full_list_for_status="cold")
    # 2 is gone on the server but has a queued note; 3 is warm, outside this list.
    assert sorted(r.id for r in store.lead_page()) == [1, 2, 3]
    store.upsert_leads([], full_list_for_status="all")
    assert sorted(r.id for r in store.lead_page()) == [2]


def test_resolve_lead_by_id_or_unambiguous_prefix(store: Store, lead_item) -> None:
    store.upsert_leads([lead_item(7, "Acme"), lead_item(8, "Acme Logistics"), lead_item(9, "Bolt")])
    assert store.resolve_lead("9").company_name == "Bolt"
    assert store.resolve_lead("bo").id == 9
    assert store.resolve_lead("acme").id == 7  # an exact name wins over longer ones
    assert store.resolve_lead("Acme L").id == 8
    with pytest.raises(LookupError, match="several"):
        store.resolve_lead("ac")
    with pytest.raises(LookupError):
        store.resolve_lead("zzz")


def test_company_and_contact_pages(store: Store) -> None:
    store.upsert_companies(
        [{"id": i, "name": n, "domain": d} for i, (n, d) in enumerate(
            [("Acme", "acme.io"), ("Bolt", "bolt.example"), ("acorn", "nuts.example")], start=1)]
    )
    assert [c.name for c in store.companies_page()] == ["Acme", "acorn", "Bolt"]
    assert [c.id for c in store.companies_page(text="ac")] == [1, 3]
    assert [c.id for c in store.companies_page(text="example")] == [3, 2]
    assert store.company_count(text="example") == 2
    assert [c.id for c in store.companies_page(offset=2, limit=5)] == [2]
    store.upsert_contacts(
        [
            {"id": 1, "company_id": 1, "first_name": "Dana", "last_name": "Ruiz", "email": "dana@acme.io"},
            {"id": 2, "company_id": 2, "first_name": "Ali", "last_name": "Bold", "email": "ali@bolt.example"},
        ]
    )
    assert [c.name for c in store.contacts_page()] == ["Ali Bold", "Dana Ruiz"]
    assert [c.id for c in store.contacts_page(text="acme.io")] == [1]
    assert [c.id for c in store.contacts_page(company_id=2)] == [2]
    assert store.contact_count(company_id=1) == 1


def test_without_the_trigram_index_filters_still_work(store: Store, lead_item) -> None:
    with store.write() as conn:
        for trigger in ("insert", "delete", "update"):
            conn.execute(f"DROP TRIGGER leads_fts_{trigger}")
        conn.execute("DROP TABLE leads_fts")
    store.upsert_leads([lead_item(1, "Nordic Dental"), lead_item(2, "Bolt"), lead_item(3, "Dentalia")])
    assert [r.id for r in store.lead_page(text="dental")] == [1, 3]
    assert store.lead_count(text="dental") == 2
    assert [r.id for r in store.lead_page(text="bo")] == [2]
