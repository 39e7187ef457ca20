"""Values the cache cannot store, reaching the store however they came (issue 21, item 6).

The api models repair or refuse them first (tests/api/test_api_hostile_values.py); the
store does so again, so a path that skips the models (an action's answer folded in, a
caller's own dict) costs at most the one record: a lone surrogate becomes U+FFFD, a NaN or
infinite number is left out, and a row whose id is beyond SQLite's 64 bits is skipped with
a warning naming it. Before, each raised (`UnicodeEncodeError`, `OverflowError`, SQLite's
"malformed JSON") and the whole write was lost.
"""

from __future__ import annotations

import json
import logging

import pytest

from support.store_data import detail_item, lead_item
from warmline.store import Store
from warmline.store.mapping import dumps, lead_columns, page_columns

SURROGATE = "\ud800"
TOO_BIG = 10**23


def test_a_surrogate_and_a_huge_id_in_one_listing_cost_one_row(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    items = [lead_item(1, f"Acme {SURROGATE}"), lead_item(TOO_BIG, "Huge"), lead_item(3, "Fine")]
    with caplog.at_level(logging.WARNING, logger="warmline.store"):
        assert store.upsert_leads(items, "all") == 2
    names = {row["id"]: row["company_name"] for row in store.rows("SELECT id, company_name FROM leads")}
    assert names == {1: "Acme \ufffd", 3: "Fine"}
    assert str(TOO_BIG) in caplog.text and "lead" in caplog.text
    snapshot = json.loads(str(store.scalar("SELECT raw FROM lead_snapshots WHERE id = 1")))
    assert snapshot["company_name"] == "Acme \ufffd"


def test_a_surrogate_in_an_unknown_field_and_a_key_is_repaired(store: Store) -> None:
    store.upsert_leads([lead_item(1, extra={f"k{SURROGATE}": f"v{SURROGATE}"})])
    snapshot = json.loads(str(store.scalar("SELECT raw FROM lead_snapshots WHERE id = 1")))
    assert snapshot["extra"] == {"k\ufffd": "v\ufffd"}


def test_a_nan_in_a_list_page_keeps_the_snapshot_mergeable(store: Store) -> None:
    """A NaN written raw into `raw` is not JSON to SQLite: the next page's json_patch of the
    snapshot failed with "malformed JSON" and lost that whole page."""
    store.upsert_leads([lead_item(1, score_hint=float("nan"), deal_value=float("inf"))])
    store.upsert_leads([lead_item(1, "Acme again")])
    assert store.scalar("SELECT company_name FROM leads WHERE id = 1") == "Acme again"
    assert store.scalar("SELECT deal_value FROM leads WHERE id = 1") is None


def test_a_detail_with_hostile_children_keeps_its_other_children(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    detail = detail_item(1, deal_value=float("nan"))
    detail["contacts"][0]["first_name"] = f"Dana {SURROGATE}"
    detail["touchpoints"][0]["id"] = TOO_BIG
    detail["monitoring_pages"][0]["label"] = SURROGATE
    detail["notes"] = [{"id": 5, "content": f"hi {SURROGATE}"}, {"id": TOO_BIG, "content": "lost"}]
    with caplog.at_level(logging.WARNING, logger="warmline.store"):
        store.upsert_lead_detail(detail)
    assert store.scalar("SELECT first_name FROM lead_contacts WHERE lead_id = 1") == "Dana \ufffd"
    assert store.ids("SELECT id FROM touchpoints WHERE lead_id = 1") == [9003]
    assert store.scalar("SELECT label FROM monitoring_pages WHERE id = 11") == "\ufffd"
    assert store.scalar("SELECT content FROM notes WHERE id = 5") == "hi \ufffd"
    assert store.scalar("SELECT count(*) FROM notes") == 1
    assert store.scalar("SELECT deal_value FROM leads WHERE id = 1") is None
    assert "touchpoints" in caplog.text and "notes" in caplog.text


def test_a_lead_detail_with_a_huge_id_is_refused_in_words(store: Store) -> None:
    with pytest.raises(ValueError, match="beyond the 64-bit integers"):
        store.upsert_lead_detail(detail_item(TOO_BIG))
    assert store.scalar("SELECT count(*) FROM leads") == 0


def test_directory_rows_are_repaired(store: Store) -> None:
    """Companies and contacts go through sqlite-utils, not `writers.upsert`: their column
    functions repair the text."""
    store.upsert_companies([{"id": 7, "name": f"Acme {SURROGATE}", "tags": [SURROGATE], "custom_fields": {"x": SURROGATE}}])
    store.upsert_contacts([{"id": 8, "first_name": SURROGATE, "email": f"a{SURROGATE}@example.com"}])
    assert store.scalar("SELECT name FROM companies WHERE id = 7") == "Acme \ufffd"
    assert json.loads(str(store.scalar("SELECT tags FROM companies WHERE id = 7"))) == ["\ufffd"]
    assert store.scalar("SELECT first_name FROM contacts WHERE id = 8") == "\ufffd"


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), "inf", "nan", "1e400", TOO_BIG, -TOO_BIG])
def test_an_integer_column_given_what_no_integer_column_holds_is_empty(value: object) -> None:
    """`int(float("inf"))` raised OverflowError, and 10**23 could not be bound."""
    columns = page_columns(1, {"id": 11, "score": value})
    assert columns["score"] is None
    assert lead_columns({"warming_score": value})["warming_score"] == 0


def test_dumps_writes_json_sqlite_reads() -> None:
    text = dumps({"a": float("nan"), "b": [float("inf"), 1], f"c{SURROGATE}": SURROGATE, "big": TOO_BIG})
    assert json.loads(text) == {"b": [None, 1], "c\ufffd": "\ufffd", "big": TOO_BIG}
    text.encode("utf-8")
