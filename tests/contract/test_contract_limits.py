"""Contract: rate-limit headers into the client's limiter, plan quotas, idempotency keys."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from support.contract import OTHER_KEY, Sandbox, new_company, new_lead, plan
from warmline.api import RateLimiter, ServiceClient
from warmline.api.errors import NotFoundError, PlanLimitError, RateLimitedError, ValidationFailed

WINDOW = 60.0


async def test_rate_limit_headers_reach_the_limiter(sandbox_factory: Callable[..., Sandbox]) -> None:
    sandbox = sandbox_factory(rate_limit=(5, WINDOW))
    client = sandbox.client()
    window_ends = sandbox.epoch() + WINDOW
    await client.health()
    state = client.limiter.state()
    assert (state.limit, state.remaining) == (5, 4)
    assert state.reset_at == window_ends and state.blocked_until is None
    await client.list_companies()
    assert client.limiter.state().remaining == 3
    with pytest.raises(NotFoundError):
        await client.get_lead(987_654)
    assert client.limiter.state().remaining == 2, "error answers carry the headers too"


async def test_the_limiter_waits_out_the_window_instead_of_meeting_a_429(
    sandbox_factory: Callable[..., Sandbox],
) -> None:
    sandbox = sandbox_factory(rate_limit=(2, WINDOW))
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        sandbox.advance(seconds)

    client = sandbox.client(limiter=RateLimiter(clock=sandbox.epoch, sleep=sleep), max_rate_wait=None)
    for _ in range(3):
        assert (await client.health()).status == "ok"
    assert waits == [WINDOW], "the third request waited exactly until the server's window reset"
    assert sandbox.transport.statuses() == [200, 200, 200]


async def test_a_429_becomes_rate_limited_and_holds_the_limiter(
    sandbox_factory: Callable[..., Sandbox],
) -> None:
    sandbox = sandbox_factory(rate_limit=(2, WINDOW))
    first, second = sandbox.client(), sandbox.client()  # same key, separate limiters
    await first.list_companies()
    await first.list_companies()
    with pytest.raises(RateLimitedError) as caught:
        await second.list_companies()
    assert caught.value.status == 429 and caught.value.retryable
    assert caught.value.retry_after == WINDOW
    assert caught.value.message == f"Rate limit exceeded, retry in {WINDOW:.0f} seconds"
    assert second.limiter.state().blocked_until == sandbox.epoch() + WINDOW
    assert second.limiter.delay() == WINDOW

    with pytest.raises(RateLimitedError) as held:
        await second.list_companies()
    assert held.value.status is None, "held back by the limiter, not sent"
    assert sandbox.transport.statuses() == [200, 200, 429]

    other_key = sandbox.client(key=OTHER_KEY)
    assert (await other_key.list_companies()).items, "the window is per key"


QuotaCase = Callable[[ServiceClient, Sandbox], Awaitable[object]]


async def use_lookup(client: ServiceClient, sandbox: Sandbox) -> object:
    return await client.lookup_companies("regional logistics software")


async def use_deep_search(client: ServiceClient, sandbox: Sandbox) -> object:
    return await client.start_deep_search("dental clinics in Bavaria", 3)


async def use_contact_search(client: ServiceClient, sandbox: Sandbox) -> object:
    return await client.start_contact_search(await new_company(client, "Quota People"))


async def use_company_research(client: ServiceClient, sandbox: Sandbox) -> object:
    return await client.start_company_research(await new_company(client, "Quota Research"))


async def use_research_run(client: ServiceClient, sandbox: Sandbox) -> object:
    ids = [await new_company(client, f"Quota Enrichment {n}") for n in range(2)]
    template = (await client.list_research_templates())[0]
    return await client.start_research_run(ids, template_id=template.id)


async def use_signal_scan(client: ServiceClient, sandbox: Sandbox) -> object:
    return await client.start_signal_scan((await new_lead(client, "Quota Signals")).id)


async def use_saved_company(client: ServiceClient, sandbox: Sandbox) -> object:
    return await client.create_company({"name": "One Company Too Many"})


QUOTA_CASES: dict[str, tuple[str, int, QuotaCase]] = {
    # case: (quota, a limit the first call leaves too little of for the second, the call)
    "lookup": ("instant_lookups", 1, use_lookup),
    "deep_search": ("deep_searches", 1, use_deep_search),
    "contact_search": ("deep_searches", 1, use_contact_search),
    "company_research": ("deep_searches", 1, use_company_research),
    "research_run": ("company_enrichments", 3, use_research_run),
    "signal_scan": ("site_signal_slots", 1, use_signal_scan),
    "saved_company": ("saved_companies", 1, use_saved_company),
}


@pytest.mark.parametrize("case", sorted(QUOTA_CASES))
async def test_plan_limit_exhaustion_names_the_quota(sandbox_factory: Callable[..., Sandbox], case: str) -> None:
    quota, limit, call = QUOTA_CASES[case]
    sandbox = sandbox_factory(quotas=plan(**{quota: limit}))
    client = sandbox.client()
    await call(client, sandbox)
    with pytest.raises(PlanLimitError) as caught:
        await call(client, sandbox)
    error = caught.value
    assert (error.status, error.quota, error.limit) == (403, quota, limit)
    assert error.used is not None and error.used <= limit
    assert error.message == f"Plan limit reached: {quota} ({error.used} of {limit} used)"
    assert error.is_permanent


async def test_removing_a_lead_frees_its_signal_slot(sandbox_factory: Callable[..., Sandbox]) -> None:
    sandbox = sandbox_factory(quotas=plan(site_signal_slots=1))
    client = sandbox.client()
    first = await new_lead(client, "Slot Holder")
    second = await new_lead(client, "Slot Waiter")
    await client.start_signal_scan(first.id)
    again = await client.start_signal_scan(first.id)
    assert again.status == "pending", "a lead holding a slot rescans without taking another"
    with pytest.raises(PlanLimitError, match="site_signal_slots"):
        await client.start_signal_scan(second.id)
    await client.remove_leads([first.id])
    assert (await client.start_signal_scan(second.id)).lead_id == second.id


async def test_the_same_idempotency_key_twice_creates_one_touchpoint(sandbox: Sandbox) -> None:
    client = sandbox.client()
    lead = await new_lead(client, "Retried Activity")
    text = "Met Dana at the fair, she asked for a proposal"
    first = await client.log_touchpoint(lead.id, text, idempotency_key="op-7d1c")
    replay = await client.log_touchpoint(lead.id, text, idempotency_key="op-7d1c")
    assert replay.model_dump() == first.model_dump()
    sent = [x for x in sandbox.transport.exchanges if x.path.endswith("/touchpoints")]
    assert [x.request_headers.get("idempotency-key") for x in sent] == ["op-7d1c", "op-7d1c"]
    assert sent[1].response_headers.get("idempotent-replayed") == "true"

    detail = await client.get_lead(lead.id)
    assert [t.id for t in detail.touchpoints] == [first.touchpoint.id]
    assert detail.activity_count == 1 and detail.warming_score == first.warming_score

    other = await client.log_touchpoint(lead.id, text, idempotency_key="op-8e2d")
    assert other.touchpoint.id != first.touchpoint.id, "a new key is a new activity"


async def test_the_same_idempotency_key_twice_creates_one_note(sandbox: Sandbox) -> None:
    client = sandbox.client()
    lead = await new_lead(client, "Retried Note")
    first = await client.add_note(lead.id, "Sent the proposal", idempotency_key="op-note-1")
    replay = await client.add_note(lead.id, "Sent the proposal", idempotency_key="op-note-1")
    assert replay.id == first.id
    assert [n.id for n in await client.list_notes(lead.id)] == [first.id]


async def test_an_idempotency_key_reused_for_another_body_is_refused(sandbox: Sandbox) -> None:
    client = sandbox.client()
    lead = await new_lead(client, "Reused Key")
    await client.add_note(lead.id, "First text", idempotency_key="op-reused")
    with pytest.raises(ValidationFailed) as caught:
        await client.add_note(lead.id, "Other text", idempotency_key="op-reused")
    assert caught.value.status == 422 and caught.value.is_permanent
    assert [n.content for n in await client.list_notes(lead.id)] == ["First text"]


@pytest.mark.parametrize("skew", [180.0, -180.0], ids=["client-ahead", "client-behind"])
async def test_a_skewed_client_waits_out_the_window_on_the_service_clock(
    sandbox_factory: Callable[..., Sandbox], skew: float
) -> None:
    """`X-RateLimit-Reset` is the service's time: 180 s of skew neither sends into the
    window (a 429) nor waits three minutes past its end."""
    sandbox = sandbox_factory(rate_limit=(2, WINDOW))
    waits: list[float] = []

    def ours() -> float:
        return sandbox.epoch() + skew

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        sandbox.advance(seconds)

    client = sandbox.client(clock=ours, limiter=RateLimiter(clock=ours, sleep=sleep), max_rate_wait=None)
    for _ in range(3):
        assert (await client.health()).status == "ok"
    assert sandbox.transport.statuses() == [200, 200, 200]
    assert len(waits) == 1 and WINDOW <= waits[0] <= WINDOW + 1.0
