"""A long outage: the backoff stays at its cap however many attempts failed (mutation audit:
without the exponent cap, `2.0 ** attempts` overflows after about 1,025 attempts)."""

from __future__ import annotations

import random

import pytest

from warmline.sync.backoff import Backoff, plan_retry


@pytest.mark.parametrize("attempts", [1_025, 5_000, 10**6])
def test_the_ceiling_stays_at_the_cap_after_any_number_of_attempts(attempts: int) -> None:
    backoff = Backoff(rng=random.Random(1))
    assert backoff.ceiling(attempts) == backoff.cap
    assert 0.0 <= backoff.delay(attempts) <= backoff.cap
    plan = plan_retry(backoff, attempts, 1_000.0, None)
    assert 1_000.0 <= plan.next_attempt_at <= 1_000.0 + backoff.cap
