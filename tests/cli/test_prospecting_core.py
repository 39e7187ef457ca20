"""`warmline.prospecting`, the Textual-free core under the prospecting commands: plan-cost
words, lookup criteria and its cache, found-contact grouping, and following a job at the
spec's polling interval (on fake clocks: no real waiting)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from datetime import UTC
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from support.cli_sandbox import KEY, Refused, sandbox_settings
from warmline import actions
from warmline.api import RateLimiter, ServiceClient
from warmline.api.errors import InputError, OfflineError
from warmline.prospecting import (
    StartRefused,
    cached_lookup,
    complete_keyword,
    cost_notice,
    deliver_start,
    explain_skips,
    group_by_role,
    lookup_criteria,
    run_lookup,
    save_notice,
    save_results,
    unknown_keyword,
    wait_for_job,
)
from warmline.store import Store
from warmline.store.lookup_values import LookupValues, lookup_values
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline.sync.jobs import POLL_MAX, POLL_MIN
from warmline_sandbox.app import create_app
from warmline_sandbox.clock import ManualClock


class Clocks:
    """One moment for both sides: epoch seconds for the cockpit, a ManualClock for the sandbox."""

    def __init__(self) -> None:
        self.sandbox = ManualClock()
        self.t = self.sandbox.now().astimezone(UTC).timestamp()

    def __call__(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.t += seconds
        self.sandbox.advance(seconds)


class Counting(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.paths: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(f"{request.method} {request.url.path}")
        return await self.inner.handle_async_request(request)


@pytest.fixture
def clocks() -> Clocks:
    return Clocks()


@pytest.fixture
def sandbox(tmp_path: Path, clocks: Clocks) -> Iterator[FastAPI]:
    settings = sandbox_settings(tmp_path)
    settings.job_seconds = 30.0
    app = create_app(settings, clock=clocks.sandbox)
    yield app
    app.state.db.close()


@pytest.fixture
def store(tmp_path: Path, clocks: Clocks) -> Iterator[Store]:
    store = Store(tmp_path / "cache.sqlite3", clock=clocks)
    yield store
    store.close()


@pytest.fixture
def transport(sandbox: FastAPI) -> Counting:
    return Counting(httpx.ASGITransport(app=sandbox))


@pytest.fixture
async def engine(store: Store, transport: Counting, clocks: Clocks) -> AsyncIterator[SyncEngine]:
    limiter = RateLimiter(clock=clocks, sleep=clocks.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=transport, limiter=limiter, clock=clocks) as client:
        yield SyncEngine(store, client, clock=clocks, blocking=run_inline)


def test_cost_notices() -> None:
    assert cost_notice("lookup") == "This uses 1 instant lookup from your plan."
    assert "saved-company limit" in cost_notice("lookup", save=True)
    assert cost_notice("deep_search") == cost_notice("contact_search") == "This uses 1 deep search from your plan."
    assert cost_notice("research_run", 1) == "This uses 1 company enrichment from your plan (one per company)."
    assert cost_notice("research_run", 10) == "This uses 10 company enrichments from your plan (one per company)."
    assert cost_notice("add_contacts", 3) == "Adding 3 contacts uses contact capacity from your plan."
    with pytest.raises(ValueError):
        cost_notice("teleport")


def test_lookup_criteria_are_checked_and_normalised() -> None:
    assert lookup_criteria(" logistics ", ["Energy ", " "], (), ["Bavaria"], broaden=True, limit=5) == {
        "query": "logistics", "industries": ["Energy"], "countries": [], "regions": ["Bavaria"],
        "broaden_search": True, "limit": 5,
    }
    assert lookup_criteria(None, countries=["Sweden"], broaden=True)["broaden_search"] is False
    for bad in ({"query": "ab"}, {"industries": [" "]}, {"query": "logistics", "limit": 101}):
        with pytest.raises(InputError):
            lookup_criteria(**bad)


async def test_a_lookup_is_kept_for_offline_rereading_whether_saved_or_not(store: Store, engine: SyncEngine) -> None:
    criteria = lookup_criteria("dental clinics", limit=2)
    assert cached_lookup(store, criteria) is None
    live = await run_lookup(store, engine.client, criteria, save=True)
    assert live["cached"] is False and live["saved_count"] == 2
    again = cached_lookup(store, criteria)
    assert again is not None and again["cached"] is True and again["fetched_at"]
    assert [c["name"] for c in again["companies"]] == [c["name"] for c in live["companies"]]
    assert {store.get_company(c["saved_company_id"]).name for c in live["companies"]} == {c["name"] for c in live["companies"]}


KNOWN = LookupValues(
    industries=("Agriculture & Forestry", "Food & Beverage", "Logistics", "Software"), countries=("Germany", "Sweden")
)


def test_an_unknown_keyword_is_named_with_the_closest_known_one() -> None:
    criteria = lookup_criteria(None, ["logistics", "Fod & Beverage"], ["germany"])
    assert unknown_keyword(criteria, KNOWN) == (
        "no industry named 'Fod & Beverage'; did you mean Food & Beverage? (enter again looks up as typed)"
    )
    assert unknown_keyword(lookup_criteria(None, ["Beverage"]), KNOWN) == (  # a word of a known name
        "no industry named 'Beverage'; did you mean Food & Beverage? (enter again looks up as typed)"
    )
    assert unknown_keyword(lookup_criteria(None, ["Softwre", "Bevrage"]), KNOWN) == (  # the first unknown one
        "no industry named 'Softwre'; did you mean Software? (enter again looks up as typed)"
    )
    assert unknown_keyword(lookup_criteria(None, ["Bevrage"]), KNOWN) == (  # close to a word of a name
        "no industry named 'Bevrage'; did you mean Food & Beverage? (enter again looks up as typed)"
    )
    assert unknown_keyword(lookup_criteria(None, countries=["Narnia"]), KNOWN) == (
        "no country named 'Narnia' among those the cache has seen (enter again looks up as typed)"
    )
    assert unknown_keyword(lookup_criteria(None, ["software"], ["Sweden"]), KNOWN) is None
    # No region is known: nothing to compare with, so nothing is refused.
    assert unknown_keyword(lookup_criteria(None, regions=["Bavaria"]), KNOWN) is None
    assert unknown_keyword(lookup_criteria(None, ["Fod"]), LookupValues()) is None


def test_the_keyword_after_the_last_comma_is_completed() -> None:
    names = KNOWN.industries
    assert complete_keyword("fo", names) == "Food & Beverage"
    assert complete_keyword("ag", names) == "Agriculture & Forestry"
    assert complete_keyword("Logistics, so", names) == "Logistics, Software"
    assert complete_keyword("Logistics,so", names) == "Logistics,Software"
    assert complete_keyword("Logistics, ", names) is None
    assert complete_keyword("xyz", names) is None
    assert complete_keyword("Software", names) is None  # already whole


async def test_the_known_values_come_from_cached_companies_and_answers(store: Store) -> None:
    assert lookup_values(store) == LookupValues()
    store.upsert_companies([{"id": 1, "name": "A", "industry": "Logistics", "country": "Sweden", "region": None}])
    store.save_lookup(lookup_criteria(None, ["Dental"], ["germany"]), {"companies": [
        {"name": "B", "industry": "Health care", "country": "Germany", "region": "Bavaria", "saved_company_id": None},
        {"name": "C", "industry": "logistics", "country": None},
    ], "total": 2})
    store.save_lookup(lookup_criteria(None, ["Nothing found"]), {"companies": [], "total": 0})
    values = lookup_values(store)
    assert values.industries == ("Dental", "Health care", "Logistics")
    assert values.countries == ("Germany", "Sweden")
    assert values.regions == ("Bavaria",)


def test_save_notice_says_the_slots_and_what_the_list_holds() -> None:
    assert save_notice(1) == "Saves 1 company: uses 1 of your plan's saved-company slots (no instant lookup)."
    assert save_notice(5, 312).endswith("uses 5 of your plan's saved-company slots (no instant lookup). "
                                        "Your company list holds 312 companies now.")


async def test_chosen_results_are_saved_one_by_one_until_the_plan_limit(tmp_path: Path, clocks: Clocks) -> None:
    settings = sandbox_settings(tmp_path, saved_companies=1)
    app = create_app(settings, clock=clocks.sandbox)
    transport = Counting(httpx.ASGITransport(app=app))
    with Store(tmp_path / "limited.sqlite3", clock=clocks) as store:
        async with ServiceClient("http://127.0.0.1", KEY, transport=transport) as client:
            criteria = lookup_criteria("logistics software", limit=4)
            answer = await run_lookup(store, client, criteria, save=False)
            fetched_at = cached_lookup(store, criteria)["fetched_at"]  # type: ignore[index]
            transport.paths.clear()
            outcome = await save_results(store, client, criteria, answer, [3, 1])
        kept = cached_lookup(store, criteria)
    app.state.db.close()
    assert transport.paths == ["POST /v1/companies", "POST /v1/companies"]  # the chosen two, nothing else
    assert outcome.saved == [1] and outcome.stopped is not None
    assert outcome.stopped.startswith("plan limit of saved companies reached (1 of 1 used)")
    assert [c["saved_company_id"] is not None for c in outcome.answer["companies"]] == [False, True, False, False]
    assert answer["companies"][1]["saved_company_id"] is None  # the answer given is left as it was
    assert kept is not None and kept["fetched_at"] == fetched_at and kept["saved_count"] == 1
    assert kept["companies"][1]["saved_company_id"] == outcome.answer["companies"][1]["saved_company_id"]


def test_found_contacts_are_grouped_in_the_reps_order() -> None:
    people = [
        {"id": 1, "role": "influencer"}, {"id": 2, "role": None}, {"id": 3, "role": "decision-maker"},
        {"id": 4, "role": "champion"}, {"id": 5, "role": "advisor"}, {"id": 6, "role": "decision-maker"},
    ]
    grouped = [(role, [p["id"] for p in group]) for role, group in group_by_role(people)]
    assert grouped == [("decision-maker", [3, 6]), ("champion", [4]), ("influencer", [1]), ("advisor", [5]), ("other", [2])]


def test_skips_are_explained() -> None:
    assert explain_skips([{"id": 4, "reason": "duplicate"}, {"id": 5, "reason": "limit"}, {"id": 6, "reason": "odd"}]) == [
        "contact 4: already in your contacts", "contact 5: plan contact capacity reached", "contact 6: odd",
    ]
    # By name where the search found them (the ids the service gives back may be numbers or text).
    names = {"4": "Dana Kivi", "5": "Jon Berg"}
    assert explain_skips([{"id": 4, "reason": "duplicate"}, {"id": "5", "reason": "limit"}, {"id": 9}], names) == [
        "Dana Kivi: already in your contacts", "Jon Berg: plan contact capacity reached", "contact 9: not found in that search",
    ]


async def test_wait_for_job_polls_at_the_spec_interval_until_completed(
    store: Store, engine: SyncEngine, transport: Counting, clocks: Clocks
) -> None:
    op_id = actions.start_deep_search(store, "dental clinics", 3)
    seen: list[str] = []
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await clocks.sleep(seconds)

    job = await wait_for_job(engine, store, op_id, on_update=lambda j: seen.append(j.status), sleep=sleep, clock=clocks)
    assert job.status == "completed" and not job.active
    assert job.result_summary == "3 companies found"
    polls = [p for p in transport.paths if p.startswith("GET /v1/companies/deep-search/")]
    assert transport.paths.count("POST /v1/companies/deep-search") == 1
    # The first poll right after the start, then one every 5-10 s until the 30 s job is done.
    assert sleeps[0] == 0
    assert all(POLL_MIN <= s <= POLL_MAX for s in sleeps[1:])
    assert len(polls) == len(sleeps) and sum(sleeps) >= 30
    assert seen[0] == "pending" and seen[-1] == "completed" and "running" in seen


async def test_deliver_start_says_when_the_service_refuses(tmp_path: Path, clocks: Clocks) -> None:
    settings = sandbox_settings(tmp_path, deep_searches=0)
    app = create_app(settings, clock=clocks.sandbox)
    with Store(tmp_path / "refused.sqlite3", clock=clocks) as store:
        async with ServiceClient("http://127.0.0.1", KEY, transport=httpx.ASGITransport(app=app)) as client:
            op_id = actions.start_deep_search(store, "dental clinics")
            with pytest.raises(StartRefused, match="Plan limit reached: deep_searches"):
                await deliver_start(SyncEngine(store, client, blocking=run_inline), store, op_id)
    app.state.db.close()


async def test_deliver_start_offline_keeps_it_queued(store: Store) -> None:
    async with ServiceClient("http://127.0.0.1", KEY, transport=Refused()) as client:
        op_id = actions.start_contact_search(store, 5)
        with pytest.raises(OfflineError):
            await wait_for_job(SyncEngine(store, client, blocking=run_inline), store, op_id)
    assert [(j.status, j.remote_id) for j in store.jobs()] == [("queued", None)]
    assert store.get_op(op_id).state == "pending"


def test_core_and_commands_stay_free_of_the_terminal_ui() -> None:
    """The cockpit's palette calls these too; the headless commands must not pull in Textual.
    (Rich may load: httpx imports it for its own command line; tests/test_layering.py checks
    that no code of ours imports it outside the cockpit.)"""
    code = (
        "import json, sys\n"
        "import warmline.prospecting, warmline.exporting, warmline.commands.export\n"
        "import warmline.commands.search, warmline.commands.research, warmline.commands.records\n"
        "import warmline.commands.companies, warmline.commands.contacts, warmline.commands.outreach\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'warmline_sandbox'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(out.stdout) == []


class FirstStartUnavailable(httpx.AsyncBaseTransport):
    """The first job start gets a 503 (nothing applied); everything else goes through."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.starts = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == "/v1/companies/deep-search":
            self.starts += 1
            if self.starts == 1:
                return httpx.Response(503, json={"success": False, "message": "Service unavailable", "errors": None})
        return await self.inner.handle_async_request(request)


async def test_wait_for_job_retries_a_start_the_service_could_not_take(
    store: Store, sandbox: FastAPI, clocks: Clocks
) -> None:
    transport = FirstStartUnavailable(httpx.ASGITransport(app=sandbox))
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await clocks.sleep(seconds)

    async with ServiceClient("http://127.0.0.1", KEY, transport=transport, clock=clocks) as client:
        engine = SyncEngine(store, client, clock=clocks, blocking=run_inline)
        op_id = actions.start_deep_search(store, "dental clinics", 2)
        job = await wait_for_job(engine, store, op_id, sleep=sleep, clock=clocks)
    assert job.status == "completed" and transport.starts == 2
    assert sleeps[0] >= 1.0  # waited before sending again, never a busy loop
