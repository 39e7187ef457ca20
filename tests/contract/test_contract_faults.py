"""Contract: the sandbox's fault modes reach the client as the errors the sync engine expects.

The sync engine decides from the client's error whether an op surely did not apply
(retry unchanged), may have applied (reconcile first) or cannot succeed. The sandbox
documents what each fault does to the data; these tests check that the client's
classification matches, and that an Idempotency-Key retry after a dropped answer
applies the op exactly once.
"""

from __future__ import annotations

import pytest

from support.contract import Sandbox, new_lead
from warmline.api.errors import AmbiguousError, RateLimitedError, ServerError
from warmline_sandbox.settings import FaultSpec


async def test_a_503_before_any_effect_is_retryable_and_applies_nothing(sandbox: Sandbox) -> None:
    healthy = sandbox.client()
    lead = await new_lead(healthy, "Unavailable Co")
    failing = sandbox.sibling(faults=FaultSpec(error=1.0)).client()

    with pytest.raises(ServerError) as caught:
        await failing.add_note(lead.id, "Will not arrive", idempotency_key="op-503")
    assert caught.value.status == 503
    assert caught.value.retryable and not caught.value.is_ambiguous
    assert await healthy.list_notes(lead.id) == []

    retried = await healthy.add_note(lead.id, "Will not arrive", idempotency_key="op-503")
    assert [n.id for n in await healthy.list_notes(lead.id)] == [retried.id]


async def test_a_dropped_answer_is_ambiguous_and_a_keyed_retry_applies_once(sandbox: Sandbox) -> None:
    healthy = sandbox.client()
    lead = await new_lead(healthy, "Dropped Co")
    dropping = sandbox.sibling(faults=FaultSpec(drop=1.0)).client()
    text = "Spoke with Dana (VP Ops), wants pricing by Friday"

    with pytest.raises(AmbiguousError) as caught:
        await dropping.log_touchpoint(lead.id, text, idempotency_key="op-drop")
    assert caught.value.is_ambiguous and not caught.value.retryable
    applied = await healthy.get_lead(lead.id)
    assert [t.description for t in applied.touchpoints] == [text], "the effect was committed"

    retried = await healthy.log_touchpoint(lead.id, text, idempotency_key="op-drop")
    assert retried.touchpoint.id == applied.touchpoints[0].id
    after = await healthy.get_lead(lead.id)
    assert after.activity_count == 1 and after.warming_score == applied.warming_score


async def test_a_429_burst_holds_the_client_for_the_servers_retry_after(sandbox: Sandbox) -> None:
    throttled = sandbox.sibling(faults=FaultSpec(burst429=1.0, burst_length=2))
    client = throttled.client(max_rate_wait=0)
    with pytest.raises(RateLimitedError) as caught:
        await client.list_companies()
    assert (caught.value.status, caught.value.retry_after) == (429, 1.0)
    assert client.limiter.delay() == 1.0
    with pytest.raises(RateLimitedError) as held:
        await client.list_companies()
    assert held.value.status is None, "not sent while the Retry-After runs"
    assert throttled.transport.statuses() == [429]
