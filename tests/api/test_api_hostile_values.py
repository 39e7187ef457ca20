"""Values the cache cannot store, as the service may send them (issue 21, item 6), and the
numbers and texts our own checks and JSON writer must refuse or escape (its mutation audit).

A lone surrogate (`"\\ud800"` in JSON) in one company name, or an id of 10^23, stopped
every refresh with a traceback (`UnicodeEncodeError`, `OverflowError`) and no lead was
cached, while the cockpit said "online · synced". Now the api models repair the text
(U+FFFD), leave NaN and infinite numbers out, and make a record with an integer beyond 64
bits unreadable, so a listing skips it with a warning naming it; the refresh writes the
other rows and the status says the service sent something unreadable.
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from support.api_fakes import FakeService
from support.hostile_server import Canned, Reply, Request, json_reply, running
from warmline.api import ServiceClient, limits
from warmline.api.errors import InputError
from warmline.api.models import Company, LeadDetail, LeadListItem
from warmline.api.payload import parse_items
from warmline.cli import main
from warmline.store import Store
from warmline.textsafe import BeyondInt64, json_dumps, storable_json

TOO_BIG = 10**23
LEADS_PAGE = (
    '{"success": true, "data": ['
    '{"id": 1, "company_name": "Acme \\ud800", "lead_status": "cold"},'
    f'{{"id": {TOO_BIG}, "company_name": "Huge", "lead_status": "cold"}},'
    '{"id": 3, "company_name": "Fine", "lead_status": "cold"}'
    '], "pagination": {"page": 1, "per_page": 200, "total": 3, "total_pages": 1}}'
)
EMPTY_PAGE = {"success": True, "data": [], "pagination": {"page": 1, "total": 0, "total_pages": 0}}
HEALTH = {"success": True, "status": "ok", "version": "1.0", "time": "2026-11-22T09:00:00.000Z", "authenticated": True}


# --- the models ------------------------------------------------------------------------------


def test_one_listing_with_a_surrogate_and_a_huge_id_reads_the_other_rows(caplog: pytest.LogCaptureFixture) -> None:
    items = json.loads(LEADS_PAGE)["data"]
    with caplog.at_level(logging.WARNING, logger="warmline.api"):
        read, skipped = parse_items(LeadListItem, items, "GET /v1/outreach/leads")
    assert [(lead.id, lead.company_name) for lead in read] == [(1, "Acme \ufffd"), (3, "Fine")]
    assert skipped == 1
    assert f"(id {TOO_BIG})" in caplog.text and "beyond the 64-bit integers" in caplog.text
    assert "lead 1 held 1 text(s) with lone surrogates" in caplog.text


def test_a_huge_id_deep_in_a_record_names_where_it_is() -> None:
    detail = {"id": 5, "contacts": [{"id": 1}, {"id": -TOO_BIG}]}
    read, skipped = parse_items(LeadDetail, [detail], "GET lead")
    assert (read, skipped) == ([], 1)
    with pytest.raises(ValueError, match=r"contacts\.1\.id is -100000000000000000000000"):
        LeadDetail.model_validate(detail)


def test_every_text_is_repaired_unknown_fields_and_keys_included() -> None:
    company = Company.model_validate(
        {"id": 7, "name": "\udc80", "tags": ["a\ud800"], "custom_fields": {"k\ud800": ["\udfff"]}, "extra": "\ud800"}
    )
    dumped = company.model_dump(mode="json", exclude_unset=True)
    assert dumped == {"id": 7, "name": "\ufffd", "tags": ["a\ufffd"], "custom_fields": {"k\ufffd": ["\ufffd"]},
                      "extra": "\ufffd"}
    json.dumps(dumped, ensure_ascii=False).encode("utf-8")


def test_a_nan_or_infinite_number_is_left_out_as_if_not_sent() -> None:
    """Left out, not nulled: what the cache knows of the deal stays (`exclude_unset`)."""
    detail = LeadDetail.model_validate({"id": 5, "deal_value": math.nan, "score": [math.inf, 2]})
    dumped = detail.model_dump(mode="json", exclude_unset=True)
    assert dumped == {"id": 5, "score": [None, 2]}


async def test_the_client_reads_a_hostile_page_through() -> None:
    service = FakeService().reply(httpx.Response(200, content=LEADS_PAGE.encode()))
    async with ServiceClient("https://service.example", "key", transport=httpx.MockTransport(service)) as client:
        page = await client.list_leads()
    assert [lead.id for lead in page.items] == [1, 3]


def test_storable_json_keeps_what_is_fine_and_names_a_huge_integer() -> None:
    fine = {"a": [1, 2.5, True, None, "é"], "b": {"c": -(2**63), "d": 2**63 - 1}}
    assert storable_json(fine, int64=True) == fine
    assert storable_json({"big": TOO_BIG}) == {"big": TOO_BIG}  # without int64: JSON holds it
    with pytest.raises(BeyondInt64, match=r"^a\.0\.b is a number of 41 digits"):
        storable_json({"a": [{"b": 10**40}]}, int64=True)


def test_long_digits_in_a_text_are_no_integer() -> None:
    """The quick check sends anything with 19 digits in a row to the full walk, which
    tells a text from a number."""
    fine = {"phone": "1234567890123456789012", "big": 2**63 - 1, "small": -(2**63)}
    assert storable_json(fine, int64=True) == fine
    with pytest.raises(BeyondInt64, match=r"^n is 9223372036854775808,"):
        storable_json({"phone": "1234567890123456789012", "n": 2**63}, int64=True)


# --- the refresh: the other rows cached, the status says unreadable --------------------------------


def cold_leads_only(request: Request) -> Reply:
    """The hostile page is the cold list; the warm list is empty."""
    if request.query.get("status") == "cold":
        return Canned(200, LEADS_PAGE.encode(), {"Content-Type": "application/json"})
    return json_reply(EMPTY_PAGE)


def test_sync_once_caches_the_other_rows_and_says_the_list_was_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running() as hostile:
        monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.setenv("WARMLINE_BASE_URL", hostile.url)
        monkeypatch.setenv("WARMLINE_API_KEY", "hostile-key")
        monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "absent.toml"))
        hostile.on("/v1/health", json_reply(HEALTH))
        hostile.on("/v1/outreach/leads", cold_leads_only)
        for lead_id in (1, 3):
            hostile.on(f"/v1/outreach/leads/{lead_id}", json_reply({"success": True, "data": {"id": lead_id}}))
        hostile.on("*", json_reply(EMPTY_PAGE))
        result = CliRunner().invoke(main, ["sync", "--once"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code == 1, result.output
    assert "Refresh of the lead list failed: The service's lead list held" in result.stderr
    assert "could not be read or stored" in result.stderr
    store = Store(tmp_path / "data" / "cache.sqlite3")
    try:
        names = {row["id"]: row["company_name"] for row in store.rows("SELECT id, company_name FROM leads")}
        assert names == {1: "Acme \ufffd", 3: "Fine"}
        assert store.sync_status().failing == "lead list (unreadable answer)"
    finally:
        store.close()


# --- our own checks: NaN and infinity are no numbers (api/limits.py) ---------------------------------


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, float("nan")])
def test_a_deal_value_that_is_not_finite_is_refused(value: float) -> None:
    """NaN compares false with both bounds, so a range check alone let it through."""
    with pytest.raises(InputError, match="deal_value must be a finite number"):
        limits.check_deal_value(value)
    with pytest.raises(InputError, match="finite"):
        limits.check_deal(deal_value=value)


def test_check_finite_takes_real_numbers_only() -> None:
    assert limits.check_finite("x", 0) == 0 and limits.check_finite("x", 2.5) == 2.5
    for refused in (True, "1", None, math.nan):
        with pytest.raises(InputError):
            limits.check_finite("x", refused)


# --- our JSON writer: what a terminal acts on is escaped (textsafe.py) ------------------------------


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x7f", "\x85", "\x9b", "\u202e", "\u2066", "\u200f", "\ud800"])
def test_json_dumps_escapes_what_its_docstring_promises(char: str) -> None:
    value = {"text": f"a{char}b"}
    written = json_dumps(value)
    assert char not in written
    assert f"\\u{ord(char):04x}" in written
    assert json.loads(written) == value
