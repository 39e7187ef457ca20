"""Search everywhere in the cache (store/search.py): every kind found, the word indexes kept
current by the writes that change the rows, built by the migration on a populated cache,
and hostile queries read as words."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from support.store_data import FakeClock, detail_item, lead_item
from warmline.actions import leads as actions
from warmline.actions.outbox import undo
from warmline.store import Store
from warmline.store.database import Database
from warmline.store.followups import MIGRATIONS as FOLLOWUP_MIGRATIONS
from warmline.store.followups import FollowUps
from warmline.store.schema import MIGRATIONS, migrate
from warmline.store.search import SearchResults, search_everything
from warmline.store.search_query import parse_query, plain_text


def found(results: SearchResults) -> list[tuple[str, int]]:
    """(kind, id to open) of every hit, in order."""
    return [(hit.kind, hit.open_id) for group in results.groups for hit in group.hits]


def kinds(results: SearchResults) -> list[str]:
    return [group.kind for group in results.groups]


def fill(store: Store) -> None:
    store.upsert_leads([lead_item(1, "Kestrel Analytics"), lead_item(2, "Harbor Foods")])
    store.upsert_lead_detail({
        **detail_item(1, company_name="Kestrel Analytics", lead_status="warm"),
        "deal_value": 42000, "deal_currency": "EUR",
        "touchpoints": [{"id": 91, "description": "Call with the CFO about SOC 2 audit",
                         "detected_type": "call", "created_at": "2026-11-10T10:00:00.000Z"}],
        "recommendations": [{"id": 71, "lead_id": 1, "engagement_reason": "Hiring a compliance lead",
                             "suggested_comment": "Congrats on the Gdańsk office!", "status": "active",
                             "created_at": "2026-11-11T10:00:00.000Z"}],
    })  # fmt: skip
    store.upsert_notes(
        2,
        [
            {
                "id": 81,
                "content": "Their buyer prefers Wednesdays",
                "created_at": "2026-11-12T10:00:00.000Z",
            }
        ],
    )
    store.upsert_companies([
        {"id": 501, "name": "Fjord Freight AB", "domain": "fjordfreight.example", "industry": "Logistics", "country": "Norway"},
    ])  # fmt: skip
    store.upsert_contacts([
        {"id": 601, "company_id": 501, "first_name": "Ingrid", "last_name": "Berg", "title": "Head of Procurement",
         "email": "ingrid@fjordfreight.example"},
    ])  # fmt: skip


@pytest.fixture
def filled(store: Store) -> Store:
    fill(store)
    return store


@pytest.fixture
def followups(tmp_path: Path) -> FollowUps:
    kept = FollowUps(tmp_path)
    yield kept
    kept.close()


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("kestrel", ("lead", 1)),
        ("fjord", ("company", 501)),
        ("logistics norway", ("company", 501)),
        ("procurement", ("contact", 601)),
        ("ingrid@fjord", ("contact", 601)),
        ("wednes", ("note", 2)),
        ("cfo soc", ("activity", 1)),
        ("compliance", ("recommendation", 1)),
        ("gdansk", ("recommendation", 1)),  # accents folded
        ("eur", ("deal", 1)),
        ("42000", ("deal", 1)),
    ],
)
def test_each_kind_is_found(filled: Store, query: str, expected: tuple[str, int]) -> None:
    assert expected in found(search_everything(filled, None, query))


def test_a_follow_up_is_found_in_its_own_file(filled: Store, followups: FollowUps) -> None:
    made = followups.add(2, "Harbor Foods", "Send the pricing sheet", date(2026, 11, 27))
    results = search_everything(filled, followups, "pricing sheet")
    assert [(hit.kind, hit.ref, hit.open_id) for g in results.groups for hit in g.hits] == [
        ("followup", made.id, 2)
    ]
    followups.update(made.id, text="Send the contract")
    assert search_everything(filled, followups, "pricing").groups == ()
    assert found(search_everything(filled, followups, "contract")) == [("followup", 2)]
    followups.delete(made.id)
    assert search_everything(filled, followups, "contract").groups == ()


def test_results_come_grouped_in_kind_order_with_the_words_marked(filled: Store) -> None:
    filled.upsert_notes(
        1,
        [
            {
                "id": 82,
                "content": "Kestrel wants the SOC 2 report",
                "created_at": "2026-11-13T10:00:00.000Z",
            }
        ],
    )
    results = search_everything(filled, None, "soc")
    assert kinds(results) == ["note", "activity"]
    note = results.groups[0].hits[0]
    assert [segment.text for segment in note.snippet if segment.hit] == ["SOC"]
    assert plain_text(note.title) == "Kestrel Analytics" and note.opens == "lead"


def test_a_kind_filter_keeps_that_kind(filled: Store) -> None:
    filled.upsert_notes(
        1,
        [
            {
                "id": 82,
                "content": "Kestrel wants the SOC 2 report",
                "created_at": "2026-11-13T10:00:00.000Z",
            }
        ],
    )
    assert kinds(search_everything(filled, None, "soc kind:activity")) == ["activity"]
    assert kinds(search_everything(filled, None, parse_query("kestrel", kinds=("note",)))) == [
        "note"
    ]
    assert search_everything(filled, None, "soc kind:nothing").groups == ()


def test_more_than_the_limit_says_so(store: Store) -> None:
    store.upsert_leads([lead_item(i, f"Acme {i}") for i in range(1, 8)])
    results = search_everything(store, None, "acme", limit=5)
    assert len(results.groups[0].hits) == 5 and results.groups[0].more


# --- kept current by the writes ----------------------------------------------------------------


def test_a_note_or_activity_says_when_it_was_done_a_queued_one_that_it_waits(filled: Store) -> None:
    """`detail` keeps the service's UTC date (what `--json` prints); `when` is the moment
    itself, for the cockpit to show in the rep's zone (a note at 23:30 UTC is the next day
    in Berlin)."""
    [activity] = search_everything(filled, None, "cfo").groups[0].hits
    assert (activity.detail, activity.when) == ("2026-11-10", "2026-11-10T10:00:00.000Z")
    [note] = search_everything(filled, None, "wednesdays").groups[0].hits
    assert note.when == "2026-11-12T10:00:00.000Z"
    actions.add_note(filled, 2, "Asked about the zeppelin budget")
    [queued] = search_everything(filled, None, "zeppelin").groups[0].hits
    assert (queued.detail, queued.when) == ("queued", None)
    [lead] = search_everything(filled, None, "kestrel").groups[0].hits
    assert lead.when is None  # a kind with no moment of its own


def test_a_queued_note_is_found_at_once_and_gone_when_undone(filled: Store) -> None:
    op_id = actions.add_note(filled, 2, "Asked about the zeppelin budget")
    assert found(search_everything(filled, None, "zeppelin")) == [("note", 2)]
    undo(filled, op_id)
    assert search_everything(filled, None, "zeppelin").groups == ()


def test_a_queued_activity_is_found(filled: Store) -> None:
    actions.log_activity(filled, 2, "Demo of the quokka module")
    assert found(search_everything(filled, None, "quokka")) == [("activity", 2)]


def test_a_sync_refresh_replacing_rows_keeps_the_index_right(filled: Store) -> None:
    filled.upsert_notes(
        2,
        [{"id": 81, "content": "Prefers Thursdays now", "created_at": "2026-11-12T10:00:00.000Z"}],
    )
    assert search_everything(filled, None, "wednesdays").groups == ()
    assert found(search_everything(filled, None, "thursdays")) == [("note", 2)]
    filled.upsert_lead_detail(
        {  # the lead's detail read again: its activity as the service now says
            **detail_item(1, company_name="Kestrel Analytics"),
            "touchpoints": [
                {
                    "id": 91,
                    "description": "Call with the CEO",
                    "created_at": "2026-11-10T10:00:00.000Z",
                }
            ],
        }
    )
    assert search_everything(filled, None, "cfo").groups == ()
    assert found(search_everything(filled, None, "ceo")) == [("activity", 1)]


def test_a_renamed_company_and_a_forgotten_lead(filled: Store) -> None:
    filled.upsert_companies([{"id": 501, "name": "Fjell Freight AB", "domain": "fjell.example"}])
    assert kinds(search_everything(filled, None, "fjord")) == ["contact"]  # by the email only
    assert found(search_everything(filled, None, "fjell")) == [("company", 501)]
    filled.forget_leads([1])
    assert search_everything(filled, None, "kestrel").groups == ()
    assert search_everything(filled, None, "cfo").groups == ()  # its activities went with it


def test_a_deal_is_found_by_its_outcome_when_it_changes(filled: Store) -> None:
    assert search_everything(filled, None, "won").groups == ()
    filled.upsert_lead_detail({**detail_item(1, company_name="Kestrel Analytics"), "deal_value": 42000,
                               "won_at": "2026-11-15T10:00:00.000Z"})  # fmt: skip
    assert found(search_everything(filled, None, "won deal")) == [("deal", 1)]


def test_the_index_matches_the_rows_after_all_that(filled: Store) -> None:
    actions.add_note(filled, 1, "one more")
    filled.upsert_notes(2, [])
    filled.forget_leads([1])
    for index in ("search_leads", "search_deals", "search_notes", "search_activities", "search_recommendations",
                  "search_companies", "search_contacts"):  # fmt: skip
        filled.conn.execute(f"INSERT INTO {index}({index}, rank) VALUES ('integrity-check', 1)")


# --- the migration ---------------------------------------------------------------------------


def test_the_migration_builds_the_index_of_a_populated_cache(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = Database(db_path)
    migrate(old.conn, MIGRATIONS[:6])
    old.close()
    monkeypatch.setattr("warmline.store.MIGRATIONS", MIGRATIONS[:6])
    before = Store(db_path, clock=clock)
    fill(before)
    before.close()
    monkeypatch.undo()
    store = Store(db_path, clock=clock)
    assert store.schema_version == len(MIGRATIONS)
    assert found(search_everything(store, None, "wednes")) == [("note", 2)]
    assert ("contact", 601) in found(search_everything(store, None, "procurement"))
    assert found(search_everything(store, None, "eur")) == [("deal", 1)]
    store.close()


def test_the_follow_ups_file_of_the_version_before_gets_its_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filled: Store
) -> None:
    monkeypatch.setattr("warmline.store.followups.MIGRATIONS", FOLLOWUP_MIGRATIONS[:1])
    with FollowUps(tmp_path) as before:
        before.add(2, "Harbor Foods", "Send the pricing sheet", date(2026, 11, 27))
    monkeypatch.undo()
    with FollowUps(tmp_path) as followups:
        assert found(search_everything(filled, followups, "pricing")) == [("followup", 2)]


# --- hostile queries ---------------------------------------------------------------------------

HOSTILE = [
    "*", "^", '"', '""', "(", ")", ":", "-", "NEAR", "AND", "OR", "NOT", "a OR b", "NEAR(a b)",
    "kestrel*", "^kestrel", '"kestrel', 'kestrel"', "(kestrel", "-kestrel", "kestrel:", "{company_name}: x",
    "company_name:kestrel", "x" * 10_000, "kestrel " * 2_000, "\x00\x01\x1b[31m\x07", "\x1b]0;pwned\x07",
    "\\", "\\\"", "'; DROP TABLE leads; --", "%", "_", "kind:", "kind:,,,", "kind:\x00", "\u202ekestrel",
    "\ud800", "🦊", "ǅ", "ﬁ",
]  # fmt: skip


@pytest.mark.parametrize("query", HOSTILE)
def test_a_hostile_query_finds_or_finds_nothing(
    filled: Store, followups: FollowUps, query: str
) -> None:
    results = search_everything(filled, followups, query)
    assert results.problem is None
    for group in results.groups:
        for hit in group.hits:
            shown = plain_text(hit.title) + plain_text(hit.snippet)
            assert "\x1b" not in shown and "\x00" not in shown


def test_fts_syntax_is_read_as_words(filled: Store) -> None:
    assert found(search_everything(filled, None, "kestrel*")) == [("lead", 1)]
    assert found(search_everything(filled, None, '"kestrel')) == [("lead", 1)]
    assert found(search_everything(filled, None, "(kestrel) AND")) == []  # "and" is a word to find
