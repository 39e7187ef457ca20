"""`ServerClock`: the service's clock offset from samples (health time, Date header)."""

from __future__ import annotations

from email.utils import formatdate

import pytest

from warmline.api.servertime import MAX_MEASURED, MAX_OFFSET, Estimate, ServerClock

NOW = 1_795_000_000.0
DAY = 86_400.0


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


def test_an_offset_beyond_a_day_is_measured_but_not_trusted() -> None:
    """A clock two days ahead: `estimate` (rate limiter, service check) gives nothing,
    `measured` the offset, `distrust` the words for the status."""
    clock = ServerClock()
    for _ in range(3):
        clock.observe(NOW - 2 * DAY, NOW, NOW + 1.0)
    assert clock.estimate() is None
    assert clock.measured() == Estimate(-2 * DAY - 0.5, 0.5)
    assert clock.lowest_offset() == -2 * DAY - 1.0
    assert clock.distrust() == "clock 2.0 d ahead of the service"
    behind = ServerClock()
    behind.observe(NOW + 3 * DAY, NOW, NOW)
    assert behind.distrust() == "clock 3.0 d behind the service"


def test_clocks_within_a_day_are_trusted_and_not_distrusted() -> None:
    clock = ServerClock()
    assert clock.distrust() is None and clock.lowest_offset() is None
    clock.observe(NOW + MAX_OFFSET, NOW, NOW)
    assert clock.estimate() == Estimate(MAX_OFFSET, 0.0) and clock.distrust() is None


def test_the_lowest_offset_covers_every_sample_the_estimate_and_the_seed() -> None:
    """Reconciliation's window starts at the lowest offset anything measured allows: a
    clock that jumped between our send and the check is covered, whichever side it was."""
    clock = ServerClock()
    clock.seed(Estimate(-300.0, 2.0))
    assert clock.lowest_offset() == -302.0
    for _ in range(5):
        clock.observe(NOW + 10.0, NOW, NOW + 2.0)  # offset 9, error 1
    clock.observe(NOW - 50.0, NOW, NOW)  # one sample before a jump
    assert clock.estimate() == Estimate(9.0, 1.0)  # the median ignores it...
    assert clock.lowest_offset() == -302.0  # ...the window does not, nor the seed
    fresh = ServerClock()
    fresh.observe(NOW - 50.0, NOW, NOW + 4.0)
    assert fresh.lowest_offset() == -50.0 - 2.0 - 2.0


@pytest.mark.parametrize("offset", [MAX_MEASURED + 1, -MAX_MEASURED - 1, float("nan"), float("inf")])
def test_a_sample_beyond_any_clock_is_ignored(offset: float) -> None:
    clock = ServerClock()
    clock.observe(NOW + offset, NOW, NOW)
    assert clock.measured() is None and clock.lowest_offset() is None and clock.distrust() is None
