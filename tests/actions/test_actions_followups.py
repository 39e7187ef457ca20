"""The follow-up actions (`warmline.actions.followups`), shared by `warmline log`/`note`,
`warmline followups` and the cockpit's forms: what text makes a follow-up, the checks, snooze."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from warmline.actions.followups import (
    FollowUpNotFound,
    add_follow_up,
    delete_follow_up,
    describe_due,
    describe_follow_up,
    done_follow_up,
    follow_up_from_text,
    read_due,
    snooze_follow_up,
)
from warmline.api.errors import InputError
from warmline.store.followups import FollowUps

BERLIN_WINTER = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 24, 9, 0, tzinfo=BERLIN_WINTER)  # a Tuesday morning
TODAY = NOW.date()


@pytest.fixture
def followups(tmp_path: Path) -> Iterator[FollowUps]:
    opened = FollowUps(tmp_path)
    yield opened
    opened.close()


def test_text_naming_a_time_makes_one_follow_up_with_its_source(followups: FollowUps) -> None:
    made = follow_up_from_text(followups, 3, "Acme", "Called Dana, wants pricing by Friday",
                               "activity", "op-1", NOW)  # fmt: skip
    assert made is not None
    assert (made.lead_id, made.company, made.source, made.source_op_id) == (
        3,
        "Acme",
        "activity",
        "op-1",
    )
    assert (made.due, made.at, made.phrase) == (date(2026, 11, 27), None, "by Friday")
    assert made.text == "Called Dana, wants pricing by Friday"
    assert describe_follow_up(made, TODAY) == "Fri 27 Nov (by Friday)"
    assert followups.list("all", today=TODAY) == [made]


def test_a_time_of_day_is_kept(followups: FollowUps) -> None:
    made = follow_up_from_text(followups, 3, "Acme", "Demo tomorrow at 10", "note", "op-2", NOW)
    assert made is not None and (made.due, made.at, made.source) == (
        date(2026, 11, 25),
        time(10, 0),
        "note",
    )
    assert describe_follow_up(made, TODAY) == "Wed 25 Nov 10:00 (tomorrow at 10)"


@pytest.mark.parametrize(
    "text", ["Called, no answer", "Friday's meeting went well", "Q1 budget", "x" * 5001]
)
def test_text_the_parser_cannot_read_makes_nothing(followups: FollowUps, text: str) -> None:
    assert follow_up_from_text(followups, 3, "Acme", text, "activity", "op", NOW) is None
    assert followups.list("all", today=TODAY) == []


def test_adding_by_hand_checks_first_and_stores_nothing_on_bad_input(followups: FollowUps) -> None:
    made = add_follow_up(followups, 3, "Acme", "  Send the deck  ", TODAY, today=TODAY)
    assert (made.text, made.source, made.source_op_id, made.phrase) == (
        "Send the deck",
        "manual",
        None,
        None,
    )
    for bad, field in (
        (dict(text="   "), "text"),
        (dict(text="x" * 5001), "text"),
        (dict(due=TODAY - timedelta(days=1)), "due"),
        (dict(due=TODAY + timedelta(days=3 * 366 + 1)), "due"),
        (dict(lead_id=0), "lead_id"),
    ):
        arguments = {"lead_id": 3, "text": "Send", "due": TODAY, **bad}
        with pytest.raises(InputError) as refused:
            add_follow_up(
                followups,
                arguments["lead_id"],
                "Acme",
                arguments["text"],
                arguments["due"],
                today=TODAY,
            )  # type: ignore[arg-type]
        assert refused.value.field == field
    assert [f.id for f in followups.list("all", today=TODAY)] == [made.id]


def test_snooze_by_days_or_until_a_day_one_of_the_two(followups: FollowUps) -> None:
    made = add_follow_up(followups, 3, "Acme", "Send", TODAY, today=TODAY)
    assert snooze_follow_up(followups, made.id, days=1, today=TODAY).due_on == TODAY + timedelta(
        days=1
    )
    # Due tomorrow now: a week counts from that day (a snooze never brings it forward).
    assert snooze_follow_up(followups, made.id, days=7, today=TODAY).due_on == TODAY + timedelta(
        days=8
    )
    assert snooze_follow_up(
        followups, made.id, until=date(2026, 12, 3), today=TODAY
    ).due_on == date(2026, 12, 3)
    for bad in (dict(), dict(days=1, until=TODAY), dict(days=0), dict(days=367),
                dict(until=TODAY - timedelta(days=1))):  # fmt: skip
        with pytest.raises(InputError):
            snooze_follow_up(followups, made.id, today=TODAY, **bad)  # type: ignore[arg-type]
    assert followups.get(made.id).due_on == date(2026, 12, 3)  # type: ignore[union-attr]
    with pytest.raises(FollowUpNotFound):
        snooze_follow_up(followups, made.id + 1, days=1, today=TODAY)


FRIDAY = date(2026, 11, 27)


def test_snoozing_a_day_on_a_friday_goes_to_monday(followups: FollowUps) -> None:
    """Issue 23: "a day" is the next working day of `[ui] work_days` (Mon-Fri by default);
    a week stays a week. Each snooze is of a follow-up due today."""

    def snoozed(days: int, today: date, **options: Any) -> date:
        made = add_follow_up(followups, 3, "Acme", "Send", today, today=today)
        return snooze_follow_up(followups, made.id, days=days, today=today, **options).due_on

    saturday = date(2026, 11, 28)
    assert snoozed(1, FRIDAY) == date(2026, 11, 30)
    assert snoozed(7, FRIDAY) == date(2026, 12, 4)
    assert snoozed(1, FRIDAY, work_days=(6, 0, 1, 2, 3)) == date(2026, 11, 29)  # sun-thu
    assert snoozed(1, saturday, work_days=(5,)) == date(2026, 12, 5)


def test_a_snooze_puts_a_follow_up_off_never_forward(followups: FollowUps) -> None:
    """A follow-up not due yet (the agenda shows them) moves a day or a week from its own
    day; one due today or overdue, from today. Before, "a day" on Thursday's follow-up, on
    a Tuesday, made it due on Wednesday."""
    thursday = TODAY + timedelta(days=2)
    ahead = add_follow_up(followups, 3, "Acme", "Demo", thursday, today=TODAY)
    assert snooze_follow_up(followups, ahead.id, days=1, today=TODAY).due_on == thursday + timedelta(days=1)
    assert snooze_follow_up(followups, ahead.id, days=7, today=TODAY).due_on == thursday + timedelta(days=8)
    overdue = add_follow_up(followups, 3, "Acme", "Send", TODAY - timedelta(days=3), today=TODAY - timedelta(days=3))
    assert snooze_follow_up(followups, overdue.id, days=1, today=TODAY).due_on == TODAY + timedelta(days=1)


def test_a_snooze_keeps_the_time_typed_with_its_day(followups: FollowUps) -> None:
    """Issue 23: "tomorrow at 10" in snooze kept the day and dropped the time; a snooze
    without a time keeps the one the follow-up had."""
    made = add_follow_up(followups, 3, "Acme", "Send", TODAY, time(15, 0), today=TODAY)
    day, at, _ = read_due("tomorrow at 10", NOW)
    snoozed = snooze_follow_up(followups, made.id, until=day, at=at, today=TODAY)
    assert (snoozed.due_on, snoozed.at) == (date(2026, 11, 25), time(10, 0))
    day, at, _ = read_due("next monday 9am", NOW)
    snoozed = snooze_follow_up(followups, made.id, until=day, at=at, today=TODAY)
    assert (snoozed.due_on, snoozed.at) == (date(2026, 11, 30), time(9, 0))
    snoozed = snooze_follow_up(followups, made.id, days=1, today=TODAY)  # a day after Monday's
    assert (snoozed.due_on, snoozed.at) == (date(2026, 12, 1), time(9, 0))


def test_done_and_delete_name_an_unknown_id(followups: FollowUps) -> None:
    made = add_follow_up(followups, 3, "Acme", "Send", TODAY, today=TODAY)
    assert done_follow_up(followups, made.id).done_at is not None
    with pytest.raises(FollowUpNotFound, match="no follow-up 99"):
        done_follow_up(followups, 99)
    delete_follow_up(followups, made.id)
    with pytest.raises(FollowUpNotFound):
        delete_follow_up(followups, made.id)


@pytest.mark.parametrize(
    ("typed", "due", "at"),
    [
        ("2026-12-03", date(2026, 12, 3), None),
        ("friday", date(2026, 11, 27), None),  # a bare weekday typed as a due day means by then
        ("by Friday", date(2026, 11, 27), None),
        ("tomorrow at 10", date(2026, 11, 25), time(10, 0)),
        ("in two weeks", date(2026, 12, 8), None),
        ("3 Dec", date(2026, 12, 3), None),
        ("  next week ", date(2026, 11, 30), None),
        # The week commencing: a rep's "w/c 7 Dec" is its Monday, read whole, cue and all.
        ("w/c 7 Dec", date(2026, 12, 7), None),
        ("W/C 7th December", date(2026, 12, 7), None),
        ("week commencing 7 Dec", date(2026, 12, 7), None),
        ("week of Dec 7", date(2026, 12, 7), None),
    ],
)
def test_a_typed_due_day_is_a_date_or_words_read_whole(
    typed: str, due: date, at: time | None
) -> None:
    assert read_due(typed, NOW)[:2] == (due, at)


@pytest.mark.parametrize(
    "typed", ["someday", "Friday-ish", "friday or so", "3 Dexember", "2026-13-01", ""]
)
def test_a_due_day_that_cannot_be_read_whole_is_refused(typed: str) -> None:
    with pytest.raises(InputError) as refused:
        read_due(typed, NOW)
    assert refused.value.field == "due"


def test_describe_due_adds_the_year_only_when_it_is_not_this_one() -> None:
    assert describe_due(date(2026, 12, 3), None, TODAY) == "Thu 3 Dec"
    assert describe_due(date(2027, 1, 4), time(9, 30), TODAY) == "Mon 4 Jan 2027 09:30"
