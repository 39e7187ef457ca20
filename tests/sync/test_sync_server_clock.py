"""`ServerClock`: the service's clock offset from samples (health time, Date header)."""

from __future__ import annotations

from email.utils import formatdate

import pytest

from warmline.api.servertime import MAX_OFFSET, Estimate, ServerClock

NOW = 1_795_000_000.0


def test_no_sample_no_estimate_and_a_seed_until_the_first_sample() -> None:
    clock = ServerClock()
    assert clock.estimate() is None and clock.to_server(NOW) is None
    clock.seed(Estimate(-180.0, 0.5))
    assert clock.estimate() == Estimate(-180.0, 0.5)
    clock.observe(NOW + 60.0, NOW, NOW)
    assert clock.estimate() == Estimate(60.0, 0.0)
    assert clock.to_server(NOW) == NOW + 60.0


def test_a_sample_is_compared_with_the_middle_of_the_request_and_its_error_is_half_the_round_trip() -> None:
    clock = ServerClock()
    clock.observe(NOW + 100.0, NOW, NOW + 4.0)  # server said NOW+100 while we went NOW..NOW+4
    assert clock.estimate() == Estimate(98.0, 2.0)


def test_date_header_counts_its_one_second_truncation() -> None:
    clock = ServerClock()
    clock.observe_date(formatdate(NOW - 180.0, usegmt=True), NOW + 0.4, NOW + 0.6)
    estimate = clock.estimate()
    assert estimate is not None
    assert estimate.offset == pytest.approx(-180.0, abs=0.5)
    assert estimate.uncertainty == pytest.approx(0.6)


@pytest.mark.parametrize("header", [None, "", "yesterday", "Mon, 99 Foo 2026 99:99:99 GMT", "Sat, 01 Jan 5000 00:00:00 GMT",
                                    "Thu, 01 Jan 1970 00:00:00 GMT", "Tue, 15 Nov 1994 08:12:31"])
def test_unreadable_or_absurd_date_headers_teach_nothing(header: str | None) -> None:
    clock = ServerClock()
    clock.observe_date(header, NOW, NOW)
    assert clock.estimate() is None


def test_the_median_ignores_a_few_wild_samples() -> None:
    clock = ServerClock()
    for _ in range(10):
        clock.observe(NOW - 180.0, NOW, NOW + 0.2)
    clock.observe(NOW + 5000.0, NOW, NOW)
    clock.observe(NOW - MAX_OFFSET + 1, NOW, NOW)
    estimate = clock.estimate()
    assert estimate is not None
    assert estimate.offset == pytest.approx(-180.1) and estimate.uncertainty == pytest.approx(0.1)


def test_only_recent_samples_count_so_a_changed_offset_is_learned() -> None:
    clock = ServerClock(window=5)
    for _ in range(5):
        clock.observe(NOW + 10.0, NOW, NOW)
    for _ in range(3):
        clock.observe(NOW - 10.0, NOW, NOW)
    assert clock.estimate() == Estimate(-10.0, 0.0)
