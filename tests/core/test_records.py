"""`warmline.records` against the in-process sandbox: the service's record lands in the
cache, deletes leave it, bad input is refused before anything is sent, offline says so."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from warmline.api import ServiceClient
from warmline.api.errors import ConflictError, InputError, NotFoundError, OfflineError
from warmline.records import delete_record, save_record
from warmline.store import Store
from warmline_sandbox.app import create_app
from warmline_sandbox.settings import SandboxSettings

KEY = "records-test-key"


class Counting(httpx.AsyncBaseTransport):
    """The sandbox, counting the requests that reach it."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        return await self.inner.handle_async_request(request)


class Refused(httpx.AsyncBaseTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(tmp_path / "cache.sqlite3")
    yield store
    store.close()


@pytest.fixture
def transport(tmp_path: Path) -> Iterator[Counting]:
    settings = SandboxSettings(db_path=tmp_path / "sandbox.sqlite3", api_keys=[KEY], seed=5, companies=20, leads=0)
    app = create_app(settings)
    yield Counting(httpx.ASGITransport(app=app))
    app.state.db.close()


@pytest.fixture
async def client(transport: Counting) -> AsyncIterator[ServiceClient]:
    async with ServiceClient("http://127.0.0.1", KEY, transport=transport) as client:
        yield client


async def test_a_company_is_created_edited_and_deleted_and_the_cache_follows(store: Store, client: ServiceClient) -> None:
    created = await save_record(store, client, "companies", {"name": "Fjord Freight", "domain": "fjord.example",
                                                             "tags": ["nordics"]})
    cached = store.get_company(created["id"])
    assert cached is not None and cached.name == "Fjord Freight" and cached.tags == ["nordics"]

    updated = await save_record(store, client, "companies", {"industry": "Logistics"}, created["id"])
    assert updated["id"] == created["id"]
    cached = store.get_company(created["id"])
    assert cached.industry == "Logistics" and cached.name == "Fjord Freight"
    assert (await client.get_company(created["id"])).industry == "Logistics"

    await delete_record(store, client, "companies", created["id"])
    assert store.get_company(created["id"]) is None
    with pytest.raises(NotFoundError):
        await client.get_company(created["id"])


async def test_a_contact_is_created_edited_and_deleted_and_the_cache_follows(store: Store, client: ServiceClient) -> None:
    company = await save_record(store, client, "companies", {"name": "Kestrel"})
    created = await save_record(store, client, "contacts", {"first_name": "Dana", "company_id": company["id"],
                                                            "role": "champion"})
    cached = store.get_contact(created["id"])
    assert cached is not None and cached.first_name == "Dana" and cached.company_id == company["id"]

    await save_record(store, client, "contacts", {"title": "VP Operations"}, created["id"])
    assert store.get_contact(created["id"]).title == "VP Operations"

    await delete_record(store, client, "contacts", created["id"])
    assert store.get_contact(created["id"]) is None
    assert store.get_company(company["id"]) is not None


async def test_custom_fields_of_an_edit_are_merged_onto_the_services(store: Store, client: ServiceClient) -> None:
    created = await save_record(store, client, "companies", {"name": "Merge Co", "custom_fields": {"a": 1, "b": 2}})
    await save_record(store, client, "companies", {"custom_fields": {"b": 3}}, created["id"])
    assert store.get_company(created["id"]).custom_fields == {"a": 1, "b": 3}


@pytest.mark.parametrize(
    ("entity", "fields", "record_id", "named"),
    [
        ("companies", {"domain": "no-name.example"}, None, "name"),
        ("companies", {"name": "x" * 201}, None, "name"),
        ("companies", {"name": ""}, 1, "name"),
        ("contacts", {"email": "nobody@example.com"}, None, "first_name"),
        ("contacts", {"first_name": "Ann", "role": "boss"}, None, "role"),
        ("companies", {"colour": "blue"}, None, "colour"),
    ],
)
async def test_bad_input_is_refused_naming_the_field_before_any_request(
    store: Store, client: ServiceClient, transport: Counting, entity: str, fields: dict, record_id: int | None,
    named: str,
) -> None:
    with pytest.raises(InputError, match=named):
        await save_record(store, client, entity, fields, record_id)  # type: ignore[arg-type]
    assert transport.requests == 0
    assert store.company_count() == 0 and store.contact_count() == 0


async def test_an_unknown_entity_is_a_programming_error(store: Store, client: ServiceClient) -> None:
    with pytest.raises(ValueError, match="entity"):
        await save_record(store, client, "leads", {"name": "x"})  # type: ignore[arg-type]


async def test_offline_raises_offline_error_and_leaves_the_cache_alone(store: Store) -> None:
    store.upsert_companies([{"id": 9, "name": "Cached Co"}])
    async with ServiceClient("http://127.0.0.1:9", KEY, transport=Refused()) as offline:
        with pytest.raises(OfflineError):
            await save_record(store, offline, "companies", {"name": "New Co"})
        with pytest.raises(OfflineError):
            await delete_record(store, offline, "companies", 9)
    assert store.get_company(9) is not None and store.company_count() == 1


async def test_a_company_in_outreach_is_not_deleted_and_stays_cached(store: Store, client: ServiceClient) -> None:
    company = await save_record(store, client, "companies", {"name": "Lead Co"})
    await client.add_leads([company["id"]], "cold")
    with pytest.raises(ConflictError):
        await delete_record(store, client, "companies", company["id"])
    assert store.get_company(company["id"]) is not None
