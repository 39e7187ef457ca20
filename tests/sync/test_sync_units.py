"""Small pure pieces: backoff, the request table, deal reconciliation, status words."""

from __future__ import annotations

import random
from types import SimpleNamespace

from warmline.ops.effects import Reconcile
from warmline.ops.kinds import OpKind
from warmline.ops.lead_fields import deal_holds
from warmline.ops.specs import SPECS, spec_of
from warmline.store.sync_vocabulary import SyncStatus
from warmline.sync.backoff import Backoff, plan_retry


def test_full_jitter_stays_under_a_doubling_ceiling_capped_at_five_minutes() -> None:
    backoff = Backoff(rng=random.Random(3))
    assert [backoff.ceiling(n) for n in (1, 2, 3, 4)] == [2.0, 4.0, 8.0, 16.0]
    assert backoff.ceiling(50) == 300.0
    draws = [backoff.delay(3) for _ in range(2000)]
    assert 0.0 <= min(draws) < 0.5 and 7.5 < max(draws) <= 8.0  # spread over the whole range


def test_the_server_s_wait_is_a_floor_that_jitter_never_undercuts() -> None:
    backoff = Backoff(rng=random.Random(1))
    plan = plan_retry(backoff, 1, now=100.0, server_wait=30.0)
    assert plan.not_before == 130.0 and plan.next_attempt_at >= 130.0
    free = plan_retry(backoff, 1, now=100.0, server_wait=None)
    assert free.not_before is None and 100.0 <= free.next_attempt_at <= 102.0


def test_every_kind_of_queued_action_has_a_spec_with_a_request() -> None:
    assert set(SPECS) == set(OpKind)
    assert all(callable(spec.send) and callable(spec.validate) for spec in SPECS.values())


def test_a_kind_this_version_does_not_know_has_no_spec_and_reads_safely() -> None:
    assert spec_of("teleport_lead") is None
    assert spec_of("add_note") is SPECS[OpKind.ADD_NOTE]


def test_every_readable_kind_is_reconciled_before_a_resend() -> None:
    appends_and_sets = {kind for kind, spec in SPECS.items() if spec.reconcile in (Reconcile.APPEND, Reconcile.SET)}
    assert appends_and_sets <= {kind for kind, spec in SPECS.items() if spec.probe is not None}


def test_a_deal_update_holds_only_when_every_named_field_does() -> None:
    detail = SimpleNamespace(deal_value=24000.0, deal_currency="EUR", closed_reason=None, won_at="2026-11-22", closed_at=None)
    assert deal_holds(detail, {"deal_value": 24000.0, "deal_currency": "eur"})
    assert deal_holds(detail, {"won": True})
    assert not deal_holds(detail, {"deal_value": 24000.0, "won": False})
    assert not deal_holds(detail, {"lost": True, "closed_reason": "budget"})


def test_status_words_most_pressing_first() -> None:
    assert SyncStatus(online=None).state(0) == "unknown"
    assert SyncStatus(online=True, syncing=True).state(0) == "syncing"
    assert SyncStatus(online=True, rate_limited_until=10.0).state(5.0) == "rate_limited"
    assert SyncStatus(online=True, rate_limited_until=10.0).state(11.0) == "online"
    assert SyncStatus(online=False, syncing=True).state(0) == "offline"
    assert SyncStatus(online=True, auth_failed=True).state(0) == "auth_failed"
    assert SyncStatus(online=True, failing="lead list", rate_limited_until=10.0).state(5.0) == "failing"
    assert SyncStatus(online=False, failing="lead list").state(0) == "offline"
