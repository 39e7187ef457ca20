"""The follow-up parser, row by row (issue 15): what a rep writes, when they write it, and the
follow-up the log form would offer, or None when the text is not sure enough.

The rules these rows pin are written out in warmline/followup_phrases.py's docstring and the
user guide's "Follow-ups" section.
"""

from __future__ import annotations

import dataclasses
import random
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from warmline.followup_phrases import MAX_CHARS, FollowUpGuess, parse_follow_up

BERLIN = ZoneInfo("Europe/Berlin")
LA = ZoneInfo("America/Los_Angeles")


def at(day: str, clock: str = "10:00", zone: ZoneInfo = BERLIN) -> datetime:
    return datetime.fromisoformat(f"{day}T{clock}").replace(tzinfo=zone)


TUE = at("2026-11-24")  # a Tuesday
WED = at("2026-11-25")
FRI = at("2026-11-27")
SAT = at("2026-11-28")
SUN = at("2026-11-29")
MON = at("2026-11-30")

# (text, now, expected): expected is None or (due, at) with at "HH:MM" or None.
Row = tuple[str, datetime, tuple[str, str | None] | None]
ROWS: list[Row] = [
    # The issue's own examples.
    ("Spoke with Dana, wants pricing by Friday", TUE, ("2026-11-27", None)),
    ("call again next Tuesday", TUE, ("2026-12-01", None)),
    ("Send the contract on 3 Dec", TUE, ("2026-12-03", None)),
    ("check back in two weeks", TUE, ("2026-12-08", None)),
    ("demo tomorrow at 10", TUE, ("2026-11-25", "10:00")),
    # Today and tonight: a bare "today" says when something happened.
    ("Spoke today, sent the deck", TUE, None),
    ("Today's call went well", TUE, None),
    ("call back today at 4pm", TUE, ("2026-11-24", "16:00")),
    ("needs the quote by today", TUE, ("2026-11-24", None)),
    ("will ping her later today", TUE, ("2026-11-24", None)),
    ("call at 3pm today", TUE, ("2026-11-24", "15:00")),
    ("call 10am tomorrow", TUE, ("2026-11-25", "10:00")),
    ("pay 3.50 tomorrow", TUE, ("2026-11-25", None)),
    ("not tomorrow, maybe Friday", TUE, None),
    ("not before Friday", TUE, None),
    ("not tomorrow; by Monday", TUE, ("2026-11-30", None)),
    ("no later than Friday", TUE, ("2026-11-27", None)),
    ("don't call before Friday", TUE, ("2026-11-27", None)),
    ("send it tonight", TUE, ("2026-11-24", None)),
    ("dinner tonight at 8", TUE, ("2026-11-24", "20:00")),
    ("quote by EOD", TUE, ("2026-11-24", None)),
    ("needs it by close of business", TUE, ("2026-11-24", None)),
    ("by the end of the day please", TUE, ("2026-11-24", None)),
    ("At the end of the day they chose us", TUE, None),
    # Tomorrow and clock times.
    ("Call tomorrow", TUE, ("2026-11-25", None)),
    ("call tomorrow at 3pm", TUE, ("2026-11-25", "15:00")),
    ("call tomorrow at 14:30", TUE, ("2026-11-25", "14:30")),
    ("call tomorrow at 3", TUE, ("2026-11-25", "15:00")),
    ("call tomorrow at 06:30", TUE, ("2026-11-25", "06:30")),
    ("call tomorrow @ 9.30", TUE, ("2026-11-25", "09:30")),
    ("call tomorrow, 3 p.m.", TUE, ("2026-11-25", "15:00")),
    ("lunch tomorrow at noon", TUE, ("2026-11-25", "12:00")),
    ("call tomorrow 12am", TUE, ("2026-11-25", "00:00")),
    ("call tomorrow afternoon at 2", TUE, ("2026-11-25", "14:00")),
    ("call tomorrow at 25", TUE, ("2026-11-25", None)),
    ("order tomorrow 3 licences", TUE, ("2026-11-25", None)),
    ("meet the day after tomorrow", TUE, ("2026-11-26", None)),
    ("prep for tomorrow's meeting", TUE, None),
    # Weekdays need a future cue.
    ("Friday's meeting went well", TUE, None),
    ("Met Friday, all good", TUE, None),
    ("Spoke last Friday", TUE, None),
    ("no news since Monday", TUE, None),
    ("call on Monday", TUE, ("2026-11-30", None)),
    ("wait until Thursday", TUE, ("2026-11-26", None)),
    ("decision due Wednesday", TUE, ("2026-11-25", None)),
    ("sign before Fri", TUE, ("2026-11-27", None)),
    ("quote by 5pm Friday", TUE, ("2026-11-27", "17:00")),
    ("call Friday at 3pm", TUE, ("2026-11-27", "15:00")),  # a verb of intent (issue 23)
    ("on Friday at 3pm", TUE, ("2026-11-27", "15:00")),
    ("at 10 on Thursday", TUE, ("2026-11-26", "10:00")),
    ("by Tuesday", TUE, ("2026-12-01", None)),  # on a Tuesday: the next one (issue 23)
    ("due: Friday", TUE, ("2026-11-27", None)),
    ("follow up Friday", TUE, ("2026-11-27", None)),
    ("followed up Friday", TUE, None),
    ("by Friday 10am", TUE, ("2026-11-27", "10:00")),
    ("Next Tues at 2", TUE, ("2026-12-01", "14:00")),
    ("on Friday the 4th", TUE, ("2026-12-04", None)),
    ("on Friday the 5th", TUE, None),
    # "Friday" on a Friday: the next one unless "today" is written; "this Friday": today.
    ("wants pricing by Friday", FRI, ("2026-12-04", None)),
    ("by Friday (today)", FRI, ("2026-11-27", None)),
    ("today, by Friday", FRI, ("2026-11-27", None)),
    ("this Friday", FRI, ("2026-11-27", None)),
    ("next Friday", FRI, ("2026-12-04", None)),
    ("this coming Friday", FRI, ("2026-12-04", None)),
    ("this Friday", WED, ("2026-11-27", None)),
    ("next Friday", WED, ("2026-12-04", None)),
    ("this Monday", WED, None),
    ("next Monday", SUN, ("2026-11-30", None)),
    ("by Monday", SAT, ("2026-11-30", None)),
    ("call Friday next week", TUE, ("2026-12-04", None)),
    ("next week on Wednesday", TUE, ("2026-12-02", None)),
    # Weeks, months, ends.
    ("circle back next week", TUE, ("2026-11-30", None)),
    ("circle back next week", SUN, ("2026-11-30", None)),
    ("budget opens next month", TUE, ("2026-12-01", None)),
    ("needs it by end of week", TUE, ("2026-11-27", None)),
    ("EOW", SAT, ("2026-12-04", None)),
    ("by end of next week", TUE, ("2026-12-04", None)),
    ("by end of month", TUE, ("2026-11-30", None)),
    ("by the end of the month", MON, ("2026-11-30", None)),
    ("EOM", at("2026-12-02"), ("2026-12-31", None)),
    ("by month-end", TUE, ("2026-11-30", None)),
    ("end of next month", TUE, ("2026-12-31", None)),
    ("before year end", TUE, ("2026-12-31", None)),
    # In N units.
    ("in 3 days", TUE, ("2026-11-27", None)),
    ("in a week", TUE, ("2026-12-01", None)),
    ("within 10 days", TUE, ("2026-12-04", None)),
    ("in a couple of weeks", TUE, ("2026-12-08", None)),
    ("in twelve months", TUE, ("2027-11-24", None)),
    ("two weeks from now", TUE, ("2026-12-08", None)),
    ("in 1 month", at("2026-01-31"), ("2026-02-28", None)),
    ("in 2-3 weeks", TUE, None),
    ("in a few days", TUE, None),
    ("in 3 business days", TUE, None),
    ("in 900 days", TUE, None),
    # Dates with a month name.
    ("on the 3rd of December", TUE, ("2026-12-03", None)),
    ("Dec 3", TUE, ("2026-12-03", None)),
    ("December 3rd, 2026", TUE, ("2026-12-03", None)),
    ("3 December 2026", TUE, ("2026-12-03", None)),
    ("on 3 Dec at 14:30", TUE, ("2026-12-03", "14:30")),
    ("on Fri 4 Dec", TUE, ("2026-12-04", None)),
    ("on Thu 4 Dec", TUE, None),
    ("Met on 3 Nov, went well", TUE, None),
    ("signed 3 December 2025", TUE, None),
    ("renewal 3 Dec 2031", TUE, None),
    ("May 3", TUE, ("2027-05-03", None)),
    ("they may 3x the order", TUE, None),
    ("by the 3rd", TUE, ("2026-12-03", None)),
    ("by December", TUE, None),
    ("on the 30th", TUE, ("2026-11-30", None)),
    ("on the 31st", TUE, None),
    ("Dec 3-5", TUE, None),
    ("am 3. Dezember", TUE, None),
    # ISO and numbers.
    ("follow up 2026-12-03", TUE, ("2026-12-03", None)),
    ("call 2026-12-03 09:15", TUE, ("2026-12-03", "09:15")),
    ("call at 2026-12-03T14:30Z", TUE, ("2026-12-03", "15:30")),
    ("2026-02-30", TUE, None),
    ("by 25/12", TUE, ("2026-12-25", None)),
    ("by 12/25", TUE, ("2026-12-25", None)),
    ("by 5/5", TUE, ("2027-05-05", None)),
    ("by 3/12", TUE, None),
    ("due 3/12/2026", TUE, None),
    ("25/12/2026", TUE, ("2026-12-25", None)),
    ("available 24/7", TUE, None),
    ("on 24/7 support", TUE, None),
    ("bis 3.12.", TUE, ("2026-12-03", None)),
    ("am 3.12. um 10", TUE, ("2026-12-03", "10:00")),
    ("3.12.2026", TUE, ("2026-12-03", None)),
    ("upgraded to Python 3.12.", TUE, None),
    ("running v2.3 now", TUE, None),
    ("3.50 a seat", TUE, None),
    ("prices down by 3.50.", TUE, None),
    ("10 licences", TUE, None),
    ("call +49 30 1234/5678", TUE, None),
    ("server 10.0.0.1 is down", TUE, None),
    # Vague, quarters, words in words.
    ("Q1", TUE, None),
    ("end of Q1", TUE, None),
    ("budget in Q1 2027", TUE, None),
    ("call soon", TUE, None),
    ("later", TUE, None),
    ("sometime this week", TUE, None),
    ("by monday.com's renewal", TUE, None),
    ("works at monday.com", TUE, None),
    ("on Mondays", TUE, None),
    ("on Mon-Fri", TUE, None),
    ("acquired by Sun", TUE, None),
    ("on standby Friday", TUE, None),
    ("", TUE, None),
    # Issue 23: how reps write, on Friday 27 Nov.
    ("call back Friday 10am", FRI, ("2026-12-04", "10:00")),
    ("call her Monday", FRI, ("2026-11-30", None)),
    ("ping Tue", FRI, ("2026-12-01", None)),
    ("call back on Friday", FRI, ("2026-12-04", None)),
    ("review it by Friday", FRI, ("2026-12-04", None)),
    ("tomorrow at 10", FRI, ("2026-11-28", "10:00")),
    ("next monday 9am", FRI, ("2026-11-30", "09:00")),
    ("14:30 tomorrow", FRI, ("2026-11-28", "14:30")),
    ("call Monday at noon", FRI, ("2026-11-30", "12:00")),
    ("EOD Thursday", FRI, ("2026-12-03", None)),
    ("first thing Monday", FRI, ("2026-11-30", None)),
    ("after the holidays", FRI, None),
    ("w/c 7 Dec", FRI, ("2026-12-07", None)),
    # A colon after a date is punctuation ("Thu 3 Dec: demo"); before a digit it is a clock.
    ("Thu 3 Dec: demo with the CTO", FRI, ("2026-12-03", None)),
    ("w/c 7 Dec: workshop", FRI, ("2026-12-07", None)),
    ("Dec 7: send the quote", FRI, ("2026-12-07", None)),
    ("by 2026-12-03: contract", FRI, ("2026-12-03", None)),
    ("by 25/12: signed", FRI, ("2026-12-25", None)),
    ("the call Dec 7:30", FRI, None),
    ("in 10 days", FRI, ("2026-12-07", None)),
    ("end of Q1", FRI, None),
    ("circle back Tuesday", FRI, ("2026-12-01", None)),
    ("touch base Wed", FRI, ("2026-12-02", None)),
    ("send the proposal Monday", FRI, ("2026-11-30", None)),
    ("chase them Thursday", FRI, ("2026-12-03", None)),
    ("check in next Tuesday", FRI, ("2026-12-01", None)),
    ("call her back Monday at 9", FRI, ("2026-11-30", "09:00")),
    ("ping him Mon 2pm", FRI, ("2026-11-30", "14:00")),
    ("callback Mon", FRI, ("2026-11-30", None)),
    ("COB Monday", FRI, ("2026-11-30", None)),
    ("by COB today", FRI, ("2026-11-27", None)),
    ("tmrw 9am", FRI, ("2026-11-28", "09:00")),
    ("speak again next week", FRI, ("2026-11-30", None)),
    ("in a fortnight", FRI, ("2026-12-11", None)),
    ("early next week", FRI, ("2026-11-30", None)),
    ("demo on Wednesday at 14:30", FRI, ("2026-12-02", "14:30")),
    ("on the 1st", FRI, ("2026-12-01", None)),
    ("by 12/15", FRI, ("2026-12-15", None)),
    ("12/15", FRI, None),
    ("Jan 5th", FRI, ("2027-01-05", None)),
    ("5th Jan", FRI, ("2027-01-05", None)),
    ("next Thurs @ 11", FRI, ("2026-12-03", "11:00")),
    ("spoke Monday, call back Thursday", FRI, ("2026-12-03", None)),
    ("try again at 4 tomorrow", FRI, ("2026-11-28", "16:00")),
    ("meet 10 Dec 3pm", FRI, ("2026-12-10", "15:00")),
    ("revisit in 3 months", FRI, ("2027-02-27", None)),
    ("out of office until 4 Jan", FRI, ("2027-01-04", None)),
    ("call Saturday", FRI, ("2026-11-28", None)),
    ("call Sun", FRI, None),
    ("left a voicemail Friday", FRI, None),
    ("called her Monday", FRI, None),
    ("the call Friday went well", FRI, None),
    ("our meeting Monday was good", FRI, None),
    ("don't call Monday", FRI, None),
    ("ASAP", FRI, None),
    ("mid-December", FRI, None),
    ("after Christmas", FRI, None),
    ("before the weekend", FRI, None),
    ("call back in an hour", FRI, None),
    ("Monday morning", FRI, None),
    # Issue 23: one row for each edge rule, each failing without its rule.
    ("by the 15th", MON, ("2026-12-15", None)),  # a tie between past and future: the future
    ("by 24 Nov", TUE, ("2026-11-24", None)),  # a date that is today counts
    ("in 0 days", TUE, None),  # N from 1
    ("in 104 weeks", TUE, ("2028-11-21", None)),  # the week limit...
    ("in 105 weeks", TUE, None),  # ...which is inside the 3-year horizon
    ("by 12/3", TUE, None),  # both parts 12 or under: never a guess
    ("call tomorrow at 7", TUE, ("2026-11-25", "07:00")),  # 7-12 as said
    ("never before Friday", TUE, None),  # "never" negates
    ("they may 2 more seats", TUE, None),  # lowercase "may" is the verb
    ("25/12/26", TUE, None),  # a two-digit year needs a cue...
    ("by 25/12/26", TUE, ("2026-12-25", None)),  # ...which it then has
    ("on 24 Nov 2029", TUE, ("2029-11-24", None)),  # three years ahead...
    ("on 1 Dec 2029", TUE, None),  # ...and not a week more
    # Several: the earliest due; a refused long reading does not fall back.
    ("call next week; pricing by Friday", TUE, ("2026-11-27", None)),
    ("on Fri 3 Dec", TUE, None),
    # Year end, DST, leap day.
    ("call on 3 Jan", at("2026-12-20"), ("2027-01-03", None)),
    ("next week", at("2026-12-31"), ("2027-01-04", None)),
    ("sent on 20 Dec", at("2027-01-05"), None),
    ("tomorrow", at("2026-12-31", "23:30", LA), ("2027-01-01", None)),
    ("by EOY", at("2026-12-31", "23:30", LA), ("2026-12-31", None)),
    ("tomorrow at 2:30", at("2026-03-28", "23:30"), ("2026-03-29", "14:30")),
    ("tomorrow at 02:30", at("2026-03-28", "23:30"), ("2026-03-29", "02:30")),
    ("in 1 day", at("2026-10-25", "00:30"), ("2026-10-26", None)),
    ("tomorrow", at("2028-02-28"), ("2028-02-29", None)),
    ("on 29 Feb", at("2027-11-01"), ("2028-02-29", None)),
    ("on 29 Feb", at("2026-03-01"), None),
    ("29 Feb 2027", TUE, None),
    ("end of month", at("2028-02-10"), ("2028-02-29", None)),
    # Case and Unicode.
    ("WANTS PRICING BY FRIDAY", TUE, ("2026-11-27", None)),
    ("she said 'by Friday'", TUE, ("2026-11-27", None)),
    ("wait ’til Thursday", TUE, ("2026-11-26", None)),
    ("🔥 by\u00a0Friday", TUE, ("2026-11-27", None)),
    ("by ٢٥/١٢", TUE, None),
    ("été by Friday", TUE, ("2026-11-27", None)),
]


@pytest.mark.parametrize(
    ("text", "now", "expected"), ROWS, ids=[f"{r[0]!r}@{r[1]:%a %Y-%m-%d}" for r in ROWS]
)
def test_table(text: str, now: datetime, expected: tuple[str, str | None] | None) -> None:
    guess = parse_follow_up(text, now)
    if expected is None:
        assert guess is None
        return
    assert guess is not None
    due, clock = expected
    assert (guess.due.isoformat(), guess.at.strftime("%H:%M") if guess.at else None) == (due, clock)
    start, end = guess.span
    assert text[start:end] == guess.phrase


def test_the_table_is_big_and_mixed() -> None:
    assert len(ROWS) >= 60
    assert sum(r[2] is None for r in ROWS) >= 30


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Spoke with Dana, wants pricing by Friday.", "by Friday"),
        ("ok, tomorrow at 10 then", "tomorrow at 10"),
        ("Call at 3pm tomorrow", "at 3pm tomorrow"),
        ("Send the contract on 3 Dec, she said", "on 3 Dec"),
        ("🔥🔥 in two weeks", "in two weeks"),
        ("by the end of the month", "by the end of the month"),
        ("workshop w/c 7 Dec", "w/c 7 Dec"),
        ("demo the week of Dec 7, she said", "the week of Dec 7"),
        ("Thu 3 Dec: demo", "Thu 3 Dec"),
    ],
)
def test_the_phrase_is_the_words_read(text: str, phrase: str) -> None:
    guess = parse_follow_up(text, TUE)
    assert guess is not None
    assert guess.phrase == phrase
    assert guess.span == (text.index(phrase), text.index(phrase) + len(phrase))


def test_a_whole_guess() -> None:
    assert parse_follow_up("Call Dana tomorrow at 10 about pricing", TUE) == FollowUpGuess(
        due=date(2026, 11, 25), at=time(10, 0), phrase="tomorrow at 10", span=(10, 24)
    )


def test_a_guess_is_frozen() -> None:
    guess = parse_follow_up("by Friday", TUE)
    assert guess is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        guess.due = date(2027, 1, 1)  # type: ignore[misc]


def test_now_must_know_its_zone() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        parse_follow_up("by Friday", datetime(2026, 11, 24, 10, 0))


def test_the_day_is_the_reps_not_utc() -> None:
    """At 23:30 in Los Angeles it is already tomorrow in UTC; "tomorrow" is still the rep's."""
    late = at("2026-11-24", "23:30", LA)
    guess = parse_follow_up("tomorrow", late)
    assert guess is not None and guess.due == date(2026, 11, 25)
    guess = parse_follow_up("tomorrow", late.astimezone(ZoneInfo("UTC")))
    assert guess is not None and guess.due == date(2026, 11, 26)


def test_a_long_text_is_read_only_at_its_start() -> None:
    filler = "Notes from the call. " * 1000
    assert len(filler) > MAX_CHARS
    guess = parse_follow_up("Pricing by Friday. " + filler, TUE)
    assert guess is not None and guess.due == date(2026, 11, 27)
    assert parse_follow_up(filler + " Pricing by Friday.", TUE) is None


def test_a_date_cut_by_the_limit_is_not_trusted() -> None:
    """Cut at MAX_CHARS, "on 3 Dec 2027" would read as "on 3 Dec" of this year."""
    text = "x" * (MAX_CHARS - 9) + " on 3 Dec 2027"
    assert text[:MAX_CHARS].endswith("on 3 Dec")
    assert parse_follow_up(text, TUE) is None


def test_a_refused_reading_blocks_only_its_own_words() -> None:
    """ "on Fri 3 Dec" (the 3rd is a Thursday) is refused whole, not read as "on Fri"; the
    promise after it still counts, and so does one before it."""
    assert parse_follow_up("on Fri 3 Dec", TUE) is None
    later = parse_follow_up("on Fri 3 Dec; by Monday", TUE)
    assert later is not None and (later.phrase, later.due) == ("by Monday", date(2026, 11, 30))
    before = parse_follow_up("next week, on Fri 3 Dec", TUE)
    assert before is not None and (before.phrase, before.due) == ("next week", date(2026, 11, 30))


def test_a_text_full_of_promises_gives_the_first_of_the_earliest() -> None:
    text = "in two weeks, by Friday; " * 150 + "tomorrow"
    assert len(text) < MAX_CHARS
    guess = parse_follow_up(text, TUE)
    assert guess is not None
    assert (guess.phrase, guess.span, guess.due) == (
        "tomorrow",
        (len(text) - 8, len(text)),
        date(2026, 11, 25),
    )
    guess = parse_follow_up(text[:-8], TUE)
    assert guess is not None and (guess.phrase, guess.span) == ("by Friday", (14, 23))


def test_random_text_never_breaks_the_parser() -> None:
    """Fragments of the table's rows shuffled together: every answer is a span of the text
    that says what the guess says, within range, and nothing raises."""
    rng = random.Random(15)
    words = " ".join(r[0] for r in ROWS).split() + ["/", ".", ":", "at", "by", "3", "12", "\u00a0"]
    for _ in range(3000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        guess = parse_follow_up(text, TUE)
        if guess is not None:
            assert text[guess.span[0] : guess.span[1]] == guess.phrase
            assert date(2026, 11, 24) <= guess.due <= date(2029, 12, 31)
