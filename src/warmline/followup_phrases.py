"""The follow-up a rep's own words promise ("wants pricing by Friday"), read locally.

`parse_follow_up(text, now)` finds the one time an activity or note names and returns the
day it is due (in the rep's zone), a clock time when one was said, and the words it read,
for the log form to show and highlight before saving. Issue 15's rule leads: text it
cannot read makes NO follow-up rather than a wrong one. A follow-up the parser misses costs
the rep one key (add it by hand); a wrong one quietly sits on the wrong day.

Why a small parser of our own, not a library (evaluated 2026-11-24, against this table):
- `dateparser` 1.5 (`search_dates`, English only, prefer future): 0.48 s to import and
  0.48 s more for its first search (language data, the `regex` module), then ~1 ms a line;
  and it guesses where a rep would not: "available 24/7" is 24 July, "call by 3/12" is
  12 March, "Met on 3 Nov" is next November, "Spoke Monday" and "monday.com" are next
  Monday, "Sun acquired them" is Sunday, "in 2-3 weeks" is in 3 weeks, "may 3 licences"
  is 3 May, "renewal 2027" is a day in 2027; "end of month" it does not read at all. No
  setting makes it refuse a guess, which is the issue's first rule.
- `dateutil.parser.parse(fuzzy=True)` (installed, through other packages) fills what is
  missing from today, so any stray number is a day ("10 licences" is the 10th, "Friday's
  meeting went well" is this Friday) and it has no relative phrases ("in two weeks").
A follow-up is a promise in a few forms; a table of them with explicit refusals is short,
imports only the standard library, reads a typical activity line in ~30 us of CPU and a
4,000-character pasted email in ~3 ms (bench/bench_followups.py) and is tested row by row
(tests/followups/test_followup_phrases.py: each rule below has a row that fails without it).

What it reads, and the rules chosen (docs/user-guide.md, "Follow-ups", says the same):
- today (only with a cue or a clock time: "by today", "today at 3pm", "later today"; a bare
  "today" mostly tells when something happened), tonight, tomorrow, the day after tomorrow,
  end of day / EOD / COB.
- A weekday after a future cue: by, on, until, till, before, due, deadline, follow up,
  no later than, this, coming, next ("by 5pm Friday" counts too), or with its date ("Friday
  the 4th", "Fri 4 Dec"); or after a verb of intent in its base form (call, call back, call
  her, ping, email, text, meet, send the proposal, chase, circle back, check in, touch base,
  reach out, try again...: "call back Friday 10am", "ping Tue"), "first thing", EOD or COB
  ("EOD Thursday" is Thursday). The verb after "the", "our", "last"... is a noun: "the call
  Friday went well" makes nothing, as do "called her Monday", "Friday's meeting went well",
  "last Friday", "since Monday", "Met Friday" and a bare "Friday". "on" is taken as a future
  cue, so "Met on Monday" written on a Wednesday offers next Monday: the form shows it and
  the rep drops it with one key (reading tense is beyond a table of phrases).
  A weekday written ON that weekday is the next one ("by Friday" on a Friday is a week on:
  reps write it of the coming week, issue 23), unless "today" is written beside it ("by
  Friday (today)", "today, by Friday"); "this Friday" on a Friday is today. "next Friday" is
  the Friday of next week (Monday-start weeks): on a Wednesday "this Friday" is in 2 days,
  "next Friday" in 9. "this Monday" once Monday has passed this week is ambiguous (the one
  just gone?) and makes nothing; "coming" is always after today.
- "next week" is Monday of next week, "next month" the 1st; "Friday next week"; end of
  week / EOW (this week's Friday; on a weekend the coming one), end of month / EOM (the
  last calendar day), end of year / EOY; "end of next week/month".
- "in N days/weeks/fortnights/months" (digits, one..twelve, a, a couple of; "within" too;
  "N weeks from now"; N from 1; at most 366 days, 104 weeks, 52 fortnights, 36 months),
  months clamped to the month's end (31 Jan + 1 month = 28/29 Feb).
- Dates with an English month name: "3 Dec", "3rd of December", "Dec 3", "December 3rd,
  2026", "Fri 4 Dec" (a weekday that does not fit the date makes nothing), "w/c 7 Dec", "week of
  Dec 7" (the week commencing: the day said, read with its cue); ISO "2026-12-03"
  (with a time and an offset, converted to the rep's zone); numeric day/month only when it
  cannot be misread: "25/12" or "12/25" (one part over 12, or both the same: "5/5"), never
  "3/12"; the German/European "3.12." (the trailing dot is the format's own: day.month.)
  and "3.12.2026". Numeric dates without a four-digit year need a cue before them ("by
  25/12", "bis 3.12.") so "24/7", "v2.3", "3.50", phone numbers and versions stay numbers.
- A day and month without a year is the occurrence nearest to today; if that one is past
  ("met on 3 Nov", written on 24 Nov) it is a past reference and makes nothing. So on
  20 Dec "3 Jan" is next January, and on 5 Jan "20 Dec" is nothing.
- A clock time right after the day ("at 10", "at 3pm", "at 14:30", "@ 9.30", "3 p.m.",
  "noon") or right before it with "at", am/pm or a colon ("at 3pm tomorrow", "10am
  tomorrow", "14:30 tomorrow"; "3.50 tomorrow" is a price). A bare hour 1-6 is afternoon
  ("at 3" is 15:00), 7-12 as said ("at 7" is 07:00); "06:30" as written; after "tonight"/"evening" 1-11 is pm. `at` is wall-clock
  time: on a DST change day it may not exist, the caller resolves it (zoneinfo's `fold`).
- Never: quarters ("end of Q1": a fiscal quarter differs by company), holidays ("after the
  holidays", "after Christmas"), "the weekend", hours ("in an hour"), "mid-December", ASAP,
  months alone ("by December"), vague words (soon, later, sometime, this week), ranges ("2-3 weeks", "Mon-Fri"), business days, other languages'
  month names ("3. Dezember"), dates past or more than three years ahead, words inside other
  words ("monday.com", "Mondays", "standby"), the idiom "at the end of the day", a time
  right after "not"/"never"/"n't" ("not tomorrow", "not before Friday"), and lowercase
  "may" (the verb; "May 3" is a date).
- Several follow-ups in one text: the earliest due wins (the next thing to do), then the
  first written. Case-insensitive and Unicode-safe: matching runs on the text as written so
  the span highlights the right characters; only ASCII digits count. Only the first
  `MAX_CHARS` characters are read, so a pasted email costs bounded work.
"""

from __future__ import annotations

import bisect
import calendar
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone
from functools import cache

from warmline.named_tuple import NamedTuple

MAX_CHARS = 4000
"""Characters read from the start of a text; a promise is rarely further into a note."""

MAX_AHEAD = timedelta(days=3 * 366)
"""A date further ahead than this is a reference (a renewal, a contract end), not a follow-up."""

_CUT_MARGIN = 24
"""A match this close to a cut text may have lost its tail ("3 Dec 20|27"): not trusted."""


@dataclass(frozen=True)
class FollowUpGuess:
    """What the parser understood: the log form shows it and highlights `phrase`."""

    due: date  # the day the follow-up is due, in the rep's zone
    at: time | None  # a clock time when one was said ("tomorrow at 10" -> 10:00)
    phrase: str  # the exact words matched, e.g. "by Friday" (for highlighting in the form)
    span: tuple[int, int]  # where in the text: text[span[0]:span[1]] == phrase


# --- vocabulary -----------------------------------------------------------------------------

_WEEKDAYS = {
    "monday": 0, "mon": 0,
    "tuesday": 1, "tues": 1, "tue": 1,
    "wednesday": 2, "wed": 2,
    "thursday": 3, "thurs": 3, "thur": 3, "thu": 3,
    "friday": 4, "fri": 4,
    # "sat" and "sun" are words ("acquired by Sun"): weekends only in full.
    "saturday": 5,
    "sunday": 6,
}  # fmt: skip

_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
    "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
    "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip

_COUNTS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip

# How far "in N units" may reach before it is not a follow-up but a plan.
_UNIT_LIMITS = {"day": 366, "week": 104, "fortnight": 52, "month": 36}


def _alternatives(words: Iterable[str]) -> str:
    """A regex alternation, longest first (so "tues" is tried before "tue")."""
    return "|".join(sorted(words, key=len, reverse=True))


_WD = f"(?:{_alternatives(_WEEKDAYS)})"
_MON = f"(?:{_alternatives(_MONTHS)})"
_COUNT = rf"(?:a\s+couple(?:\s+of)?|couple\s+of|[0-9]{{1,3}}|{_alternatives(_COUNTS)})"

# Not inside a word, an address, a path or a number: "standby", "x@monday", "1/2", "-3".
_L = r"(?<![\w@/.\-])"
# Not followed by more word: "monday.com", "Mondays", "Friday's", "Mon-Fri", "Dec/Jan".
_R = r"(?![\w@/\-]|\.\w|['’]s(?!\w))"
# After a number: not a longer number, a decimal, a percentage, a range or a clock ("7:30");
# a colon before anything else is punctuation ("Thu 3 Dec: demo").
_RN = r"(?![\w@/\-%]|[.,:][0-9])"

_CUE_WORDS = (
    r"by|on|until|till|['’]til|before|due:?(?:\s+(?:on|by))?|no\s+later\s+than|not\s+later\s+than"
    r"|deadline(?:\s+is)?:?|follow[- ]?up:?"
)
_CUE = rf"(?:(?P<cue>{_CUE_WORDS})\s+)"
# The week commencing ("w/c 7 Dec", "the week of Dec 7"): the date said, read with its cue.
_WEEK_OF = r"(?:(?:(?:the\s+)?week\s+(?:of|commencing)|w/c|wc)\s+)?"
_WEEK_OF_WORDS = frozenset({"the", "week", "w", "wc"})
# Verbs of intent a bare weekday may follow: "call back Friday", "call her Monday", "ping
# Tue". Base forms only ("called Friday", "met Monday" tell what happened), an object and
# "back"/"again" allowed; "first thing" and EOD/COB say when that day.
_INTENT_VERBS = (
    "call", "callback", "ring", "phone", "ping", "email", "mail", "text", "meet", "visit",
    "chase", "nudge", "remind", "send", "review", "check", "circle", "reach", "touch",
    "talk", "speak", "follow", "revisit", "try",
)  # fmt: skip
_INTENT_OBJECTS = "her|him|them|me|us|you|it|back|again|in|out|up|base|over|with"
_INTENT = (
    rf"(?:(?:{_alternatives(_INTENT_VERBS)})"
    rf"(?:\s+(?:{_INTENT_OBJECTS}|(?:the|a|an)\s+\w+))"
    r"{0,3}|first\s+thing|eod|cob|end\s+of\s+(?:the\s+)?day|close\s+of\s+business)"
)
# Words before a verb that make it a noun: "the call Friday went well", "our meeting Monday".
_NOUN_BEFORE = re.compile(
    r"(?<!\w)(?:the|a|an|our|my|your|his|her|their|its|this|that|last|first|every)\s+\Z",
    re.IGNORECASE,
)

# Numeric dates are written this way in German too: "bis 3.12.", "am 3.12.".
_NCUE = rf"(?:(?P<cue>{_CUE_WORDS}|bis|am|zum|spätestens)\s+)"

_TIME = (
    r"(?:(?P<noon>noon|midday)"
    r"|(?P<h>[0-9]{1,2})(?:[:.](?P<mi>[0-5][0-9]))?(?:\s*(?P<ap>[ap])\.?m\.?)?)"
    r"(?![\w%:/]|[.,][0-9])"
)
_AFTER_TIME = re.compile(
    r"(?:\s+(?P<part>morning|afternoon|evening|night))?\s*,?\s*"
    r"(?:(?P<conn>at|around|by|um)\s+|(?P<sym>@)\s*)?" + _TIME,
    re.IGNORECASE,
)
_BEFORE_TIME = re.compile(
    r"(?<![\w.:/])(?:(?P<conn>at|around|by)\s+|(?P<sym>@)\s*)?" + _TIME + r"\s*,?\s+\Z",
    re.IGNORECASE,
)
# A reading right after one of these is refused: "not tomorrow", "not before Friday".
_NEGATION = re.compile(r"(?:(?<!\w)(?:not|never)|n['’]t)\s+\Z", re.IGNORECASE)


# --- readings -------------------------------------------------------------------------------


class _Reading(NamedTuple):
    """What one match says. `needs`: "" it stands alone; "time" only with a clock time or a
    cue (a bare "today"); "by" only with "by <time>" before it (a bare weekday)."""

    due: date
    at: time | None = None
    needs: str = ""
    evening: bool = False


_Reader = Callable[[re.Match[str], date, datetime], _Reading | None]


def _word(m: re.Match[str], group: str) -> str:
    """A matched word as the tables spell it: casefold also folds the long s and Kelvin sign
    that re.IGNORECASE lets match "s" and "k"."""
    return " ".join((m.group(group) or "").casefold().split())


def _on_or_after(today: date, weekday: int) -> date:
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _next_monday(today: date) -> date:
    return today + timedelta(days=7 - today.weekday())


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _add_months(day: date, months: int) -> date:
    year, index = divmod(day.month - 1 + months, 12)
    year += day.year
    return date(year, index + 1, min(day.day, calendar.monthrange(year, index + 1)[1]))


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _nearest(today: date, candidates: list[date | None]) -> date | None:
    """The candidate nearest to today (a tie goes to the future); None when that is past:
    a day-month without a year that has just gone by is a past reference."""
    known = [d for d in candidates if d is not None]
    if not known:
        return None
    best = min(known, key=lambda d: (abs((d - today).days), d < today))
    return best if best >= today else None


def _day_month(today: date, month: int, day: int, year: int | None) -> date | None:
    if year is not None:
        return _valid(year, month, day)
    return _nearest(today, [_valid(today.year + k, month, day) for k in (-1, 0, 1)])


def _fits_weekday(m: re.Match[str], due: date | None) -> date | None:
    """A date said with its weekday ("Fri 4 Dec") only when the two agree."""
    if due is None or not m.group("wd"):
        return due
    return due if _WEEKDAYS.get(_word(m, "wd")) == due.weekday() else None


def _read_relative_day(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    word = _word(m, "word")
    if word in ("tomorrow", "tmrw"):
        return _Reading(today + timedelta(days=1))
    if word.endswith("after tomorrow"):
        return _Reading(today + timedelta(days=2))
    if word == "tonight":
        return _Reading(today, evening=True)
    if word == "later today" or m.group("cue"):
        return _Reading(today)
    return _Reading(today, needs="time")


def _is_noun(m: re.Match[str]) -> bool:
    """A verb of intent after "the", "our", "last"...: "the call Friday" tells of a call."""
    verb = _word(m, "cue").split()[0] if m.group("cue") else ""
    return verb in _INTENT_VERBS and bool(
        _NOUN_BEFORE.search(m.string, max(0, m.start() - 8), m.start())
    )


def _read_weekday(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    weekday = _WEEKDAYS.get(_word(m, "wd"))
    if weekday is None:
        return None
    if _is_noun(m):
        return None  # "the call Friday went well": a noun, not an intent
    mod = _word(m, "mod")
    if m.group("nw"):  # "Friday next week", "next week on Friday"
        return None if mod else _Reading(_next_monday(today) + timedelta(days=weekday))
    if mod == "next":
        return _Reading(_next_monday(today) + timedelta(days=weekday))
    if mod in ("coming", "this coming"):
        return _Reading(today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1))
    if mod == "this":
        return None if weekday < today.weekday() else _Reading(_on_or_after(today, weekday))
    due = _on_or_after(today, weekday)
    if due == today and not _says_today(m):
        due += timedelta(days=7)  # "by Friday" written on a Friday: the next one
    return _Reading(due, needs="" if m.group("cue") else "by")


_TODAY_BEFORE = re.compile(r"(?<!\w)today[\s,;:(\-–]{1,3}\Z", re.IGNORECASE)
_TODAY_AFTER = re.compile(r"[\s,;:(\-–]{1,3}today(?!\w)", re.IGNORECASE)


def _says_today(m: re.Match[str]) -> bool:
    """ "today" written beside the weekday ("Friday (today)", "today, Friday"): the day it
    names is this one, not the next."""
    text, start, end = m.string, m.start(), m.end()
    return bool(
        _TODAY_BEFORE.search(text, max(0, start - 9), start) or _TODAY_AFTER.match(text, end)
    )


def _read_next_period(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    if _word(m, "unit") == "week":
        return _Reading(_next_monday(today))
    return _Reading(_add_months(today.replace(day=1), 1))


def _read_end_of(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    unit = _word(m, "unit") or _word(m, "unit2") or _word(m, "abbr")
    the = bool(m.group("the") or m.group("the2"))
    cue = _word(m, "cue")
    later = bool(m.group("next"))
    if unit in ("day", "today", "eod", "cob", "close of business"):
        # "At the end of the day, they chose us" is an idiom, not a deadline: "the end of
        # the day" only after by/until/before.
        if later or (the and cue in ("", "at")):
            return None
        return _Reading(today)
    if unit in ("week", "eow"):
        friday = _next_monday(today) + timedelta(days=4) if later else _on_or_after(today, 4)
        return _Reading(friday)
    if unit in ("month", "eom"):
        first = _add_months(today.replace(day=1), 1 if later else 0)
        return _Reading(_month_end(first.year, first.month))
    return _Reading(date(today.year + (1 if later else 0), 12, 31))  # year, eoy


def _count(m: re.Match[str]) -> int | None:
    word = _word(m, "n")
    if word.isdigit():
        return int(word)
    if "couple" in word:
        return 2
    return _COUNTS.get(word)


def _read_in_units(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    count = _count(m)
    unit = _word(m, "unit").rstrip("s")
    unit = "week" if unit == "wk" else unit
    if count is None or not 1 <= count <= _UNIT_LIMITS[unit]:
        return None
    if unit == "day":
        return _Reading(today + timedelta(days=count))
    if unit in ("week", "fortnight"):
        return _Reading(today + timedelta(weeks=count * (2 if unit == "fortnight" else 1)))
    return _Reading(_add_months(today, count))


def _year(m: re.Match[str]) -> int | None:
    text = m.group("y")
    if text is None:
        return None
    return int(text) + (2000 if len(text) == 2 else 0)


def _read_named_month(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    if m.group("mon") == "may":  # the verb: "they may 3x the order"
        return None
    month = _MONTHS.get(_word(m, "mon"))
    if month is None:
        return None
    due = _fits_weekday(m, _day_month(today, month, int(m.group("d")), _year(m)))
    return None if due is None else _Reading(due)


def _read_ordinal_day(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    day = int(m.group("d"))
    first = today.replace(day=1)
    months = [_add_months(first, k) for k in (-1, 0, 1)]
    due = _fits_weekday(m, _nearest(today, [_valid(d.year, d.month, day) for d in months]))
    return None if due is None else _Reading(due)


def _read_iso(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    due = _valid(int(m.group("y")), int(m.group("m")), int(m.group("d")))
    if due is None or m.group("H") is None:
        return None if due is None else _Reading(due)
    hour, minute = int(m.group("H")), int(m.group("M"))
    if hour > 23:
        return None
    zone = m.group("tz")
    if not zone:
        return _Reading(due, at=time(hour, minute))
    offset = UTC
    if zone.upper() != "Z":
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        offset = timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
    local = datetime.combine(due, time(hour, minute), offset).astimezone(now.tzinfo)
    return _Reading(local.date(), at=local.time().replace(second=0, microsecond=0))


def _numeric(m: re.Match[str], today: date, day: int, month: int) -> _Reading | None:
    year = _year(m)
    if (year is None or len(m.group("y")) == 2) and not m.group("cue"):
        return None  # "24/7", "v2.3.", "3.12" in running text: numbers, not dates
    due = _day_month(today, month, day, year)
    return None if due is None else _Reading(due)


def _read_slash(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    first, second = int(m.group("a")), int(m.group("b"))
    if (first, second) == (24, 7) and m.group("y") is None:
        return None  # "24/7 support"
    if first == second or (first > 12 and second <= 12):
        return _numeric(m, today, first, second)  # day/month
    if second > 12 and first <= 12:
        return _numeric(m, today, second, first)  # month/day (US)
    return None  # "3/12": the 3rd of December or March 12th; not a guess to make


def _read_dotted(m: re.Match[str], today: date, now: datetime) -> _Reading | None:
    return _numeric(m, today, int(m.group("d")), int(m.group("m")))


_FLAGS = re.IGNORECASE
_DIGIT = "0"  # every number is looked up as "0": see _attempts
# The cues a pattern takes, by the cue's first word ("'til" is found as "til"), and the words
# a cue may go on with before the day ("no later than", "due on", "follow up:").
_EN = frozenset(
    {
        "by",
        "on",
        "until",
        "till",
        "til",
        "before",
        "due",
        "no",
        "not",
        "deadline",
        "follow",
        "followup",
    }
)
_EN_AT = _EN | {"at"}
_EN_DE = _EN | {"bis", "am", "zum", "spätestens"}
_NO_CUE: frozenset[str] = frozenset()
_CUE_TAIL = frozenset({"later", "than", "on", "by", "is", "up"})

# Each reader with the words its match can start with when no cue comes first, and the cues
# it takes: a pattern is tried only there, anchored, not at every character of the text
# (scanning every pattern over a typical line cost ~70 us of CPU for the matching alone; a
# whole parse is ~29 us now: bench/bench_followups.py).
_READERS: list[tuple[str, _Reader, frozenset[str], frozenset[str]]] = [
    (
        (
            _L + _CUE + r"?(?P<word>(?:the\s+)?day\s+after\s+tomorrow|tomorrow|tmrw|tonight"
            r"|later\s+today|today)" + _R
        ),
        _read_relative_day,
        frozenset({"the", "day", "tomorrow", "tmrw", "tonight", "later", "today"}),
        _EN,
    ),
    (
        (
            _L + _CUE + r"?(?:(?P<mod>this\s+coming|this|coming|next)\s+)?"
            rf"(?P<wd>{_WD})(?P<nw>\s+next\s+week)?" + _R
        ),
        _read_weekday,
        frozenset({"this", "coming", "next", *_WEEKDAYS}),
        _EN,
    ),
    (
        (
            _L + rf"(?P<cue>{_INTENT})\s+(?:(?P<mod>this\s+coming|this|coming|next)\s+)?"
            rf"(?P<wd>{_WD})(?P<nw>\s+next\s+week)?" + _R
        ),
        _read_weekday,
        frozenset({*_INTENT_VERBS, "first", "eod", "cob", "end", "close"}),
        _NO_CUE,
    ),
    (
        (_L + _CUE + rf"?(?P<nw>next\s+week)(?:\s*,|\s+on)?\s+(?P<mod>)(?P<wd>{_WD})" + _R),
        _read_weekday,
        frozenset({"next"}),
        _EN,
    ),
    (
        (_L + _CUE + r"?(?:early\s+)?next\s+(?P<unit>week|month)" + _R),
        _read_next_period,
        frozenset({"early", "next"}),
        _EN,
    ),
    (
        (
            _L + rf"(?:(?P<cue>{_CUE_WORDS}|at)\s+)?"
            r"(?:(?P<the>the\s+)?end\s+of\s+(?:(?P<the2>the)\s+|this\s+|(?P<next>next)\s+)?"
            r"(?P<unit>day|today|week|month|year)"
            r"|(?P<abbr>eod|cob|eow|eom|eoy|close\s+of\s+business)"
            r"|(?P<unit2>week|month|year)[\s-]end)" + _R
        ),
        _read_end_of,
        frozenset(
            {"the", "end", "eod", "cob", "eow", "eom", "eoy", "close", "week", "month", "year"}
        ),
        _EN_AT,
    ),
    (
        (
            _L + r"(?:in|within)\s+(?:the\s+next\s+)?(?P<n>" + _COUNT + r")\s+"
            r"(?P<unit>days?|weeks?|wks?|fortnights?|months?)(?:['’]?\s+time)?" + _R + r"(?!\s+ago)"
        ),
        _read_in_units,
        frozenset({"in", "within"}),
        _NO_CUE,
    ),
    (
        (
            _L + r"(?P<n>" + _COUNT + r")\s+(?P<unit>days?|weeks?|wks?|months?)\s+from\s+"
            r"(?:now|today)" + _R
        ),
        _read_in_units,
        frozenset({"couple", _DIGIT, *_COUNTS}),
        _NO_CUE,
    ),
    (
        (
            _L + _CUE + "?" + _WEEK_OF + rf"(?:(?P<wd>{_WD})\.?,?\s+)?(?:the\s+)?"
            r"(?P<d>[0-9]{1,2})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?"
            rf"(?P<mon>{_MON})\.?(?:,?\s+(?P<y>[0-9]{{4}}))?" + _RN
        ),
        _read_named_month,
        frozenset({_DIGIT, *_WEEKDAYS, *_WEEK_OF_WORDS}),
        _EN,
    ),
    (
        (
            _L + _CUE + "?" + _WEEK_OF + rf"(?:(?P<wd>{_WD})\.?,?\s+)?(?P<mon>{_MON})\.?\s+"
            r"(?:the\s+)?(?P<d>[0-9]{1,2})(?:st|nd|rd|th)?(?:,?\s+(?P<y>[0-9]{4}))?" + _RN
        ),
        _read_named_month,
        frozenset({*_WEEKDAYS, *_MONTHS, *_WEEK_OF_WORDS}),
        _EN,
    ),
    (
        (_L + _CUE + r"(?P<wd>)the\s+(?P<d>[0-9]{1,2})(?:st|nd|rd|th)" + _R),
        _read_ordinal_day,
        frozenset({"the"}),
        _EN,
    ),
    (
        (_L + _CUE + rf"?(?P<wd>{_WD})\.?,?\s+(?:the\s+)?(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th)" + _R),
        _read_ordinal_day,
        frozenset({*_WEEKDAYS}),
        _EN,
    ),
    (
        (
            r"(?<![\w@/.:\-])" + _CUE + r"?(?P<y>[0-9]{4})-(?P<m>[0-9]{1,2})-(?P<d>[0-9]{1,2})"
            r"(?:(?:T|\s+)(?P<H>[0-9]{1,2}):(?P<M>[0-5][0-9])(?::[0-5][0-9](?:\.[0-9]+)?)?"
            r"(?P<tz>Z|[+-][0-9]{2}:?[0-9]{2})?)?" + _RN
        ),
        _read_iso,
        frozenset({_DIGIT}),
        _EN,
    ),
    (
        (
            _L + _NCUE + r"?(?:the\s+)?(?P<a>[0-9]{1,2})/(?P<b>[0-9]{1,2})"
            r"(?:/(?P<y>[0-9]{4}|[0-9]{2}))?" + _RN
        ),
        _read_slash,
        frozenset({"the", _DIGIT}),
        _EN_DE,
    ),
    (
        (_L + _NCUE + r"?(?P<d>[0-9]{1,2})\.(?P<m>[0-9]{1,2})\.(?P<y>[0-9]{4}|[0-9]{2})?" + _RN),
        _read_dotted,
        frozenset({_DIGIT}),
        _EN_DE,
    ),
]


# --- clock times ----------------------------------------------------------------------------


def _clock(m: re.Match[str], evening: bool, connected: bool) -> time | None:
    """The time a match says, or None. Without "at" (or "@", "by"...) only a time that
    cannot be a count is one: "3pm", "14:30", not "3"."""
    if m.group("noon"):
        return time(12)
    raw, minutes, half = m.group("h"), m.group("mi"), (m.group("ap") or "").casefold()
    if not (connected or minutes or half):
        return None
    hour, minute = int(raw), int(minutes or 0)
    if half:
        if not 1 <= hour <= 12:
            return None
        return time(hour % 12 + (12 if half == "p" else 0), minute)
    if hour > 23:
        return None
    # "at 3": nobody books a call at 3 in the morning; "tonight at 8"; "06:30" as written.
    if 1 <= hour <= (11 if evening else 6) and not raw.startswith("0"):
        hour += 12
    return time(hour, minute)


def _time_after(text: str, end: int, evening: bool) -> tuple[time, int] | None:
    m = _AFTER_TIME.match(text, end, min(len(text), end + 40))
    if m is None:
        return None
    part = _word(m, "part")
    at = _clock(
        m, evening or part in ("afternoon", "evening", "night"), bool(m["conn"] or m["sym"])
    )
    return None if at is None else (at, m.end())


def _time_before(text: str, start: int, evening: bool) -> tuple[time, int, bool] | None:
    m = _BEFORE_TIME.search(text, max(0, start - 30), start)
    if m is None:
        return None
    # Before the day, a time without "at" must say am/pm: "10am tomorrow", not "3 tomorrow".
    connected = bool(m.group("conn") or m.group("sym"))
    clock = bool(m.group("mi")) and ":" in m.group()  # "14:30 tomorrow", not "3.50 tomorrow"
    if not (connected or clock or m.group("ap") or m.group("noon")):
        return None
    at = _clock(m, evening, True)
    return None if at is None else (at, m.start(), _word(m, "conn") == "by")


# --- the parser -----------------------------------------------------------------------------


class _Match(NamedTuple):
    start: int
    end: int
    reading: _Reading | None


_WORD = re.compile(r"\w+")
_Try = tuple[tuple[re.Pattern[str], _Reader], ...]


@cache
def _tables() -> tuple[dict[str, _Try], dict[tuple[str, str], _Try]]:
    """The compiled readers by the word they start with, and by (cue, word). Built on the
    first parse, not at import: compiling the patterns takes ~12 ms, which a module that
    imports this one (the log form, `warmline log`) should not pay until a text is read."""
    core: dict[str, _Try] = {}
    cued: dict[tuple[str, str], _Try] = {}
    for source, read, words, cues in _READERS:
        reader = (re.compile(source, _FLAGS), read)
        for word in words:
            core[word] = (*core.get(word, ()), reader)
            for cue in cues:
                cued[cue, word] = (*cued.get((cue, word), ()), reader)
    return core, cued


def _attempts(text: str) -> list[tuple[int, _Try]]:
    """Where a match may begin, with the readers to try there: at a word that starts one
    (casefolded, any number as "0"), and at a cue with the readers of the word it leads to
    ("by" before "Friday": the weekday readers that take a cue)."""
    words: list[tuple[int, str]] = []
    for m in _WORD.finditer(text):
        key, start = m.group().casefold(), m.start()
        if key[0] in "0123456789":
            key = _DIGIT
        elif key == "til" and start and text[start - 1] in "'’":
            start -= 1
        words.append((start, key))
    core, cued = _tables()
    attempts: list[tuple[int, _Try]] = []
    for index, (start, key) in enumerate(words):
        if key in core:
            attempts.append((start, core[key]))
        if key in _EN_AT or key in _EN_DE:
            after = index + 1
            while after < min(len(words), index + 4) and words[after][1] in _CUE_TAIL:
                after += 1
            if after < len(words) and (key, words[after][1]) in cued:
                attempts.append((start, cued[key, words[after][1]]))
    return attempts


def _matches(text: str, today: date, now: datetime) -> list[_Match]:
    found: list[_Match] = []
    for start, readers in _attempts(text):
        for pattern, read in readers:
            m = pattern.match(text, start)
            if m is None:
                continue
            try:
                reading = read(m, today, now)
            except (ValueError, OverflowError):  # a date past year 9999, a bad offset
                reading = None
            if reading is not None and _NEGATION.search(text, max(0, start - 8), start):
                reading = None
            found.append(_Match(m.start(), m.end(), reading))
    return found


def _without_overlaps(found: list[_Match]) -> list[_Match]:
    """The longest reading of each stretch of text. A refused one keeps its place, so "on
    Fri 3 Dec" when the 3rd is a Thursday does not fall back to "on Fri"."""
    kept: list[_Match] = []  # disjoint, in text order
    starts: list[int] = []
    for match in sorted(found, key=lambda f: (f.start - f.end, f.start)):
        place = bisect.bisect_left(starts, match.start)
        if place > 0 and kept[place - 1].end > match.start:
            continue
        if place < len(kept) and kept[place].start < match.end:
            continue
        kept.insert(place, match)
        starts.insert(place, match.start)
    return kept


def _guess(text: str, match: _Match, today: date) -> FollowUpGuess | None:
    reading = match.reading
    if reading is None or not today <= reading.due <= today + MAX_AHEAD:
        return None
    start, end, at, by = match.start, match.end, reading.at, False
    if at is None:
        after = _time_after(text, end, reading.evening)
        if after is not None:
            at, end = after
        else:
            before = _time_before(text, start, reading.evening)
            if before is not None:
                at, start, by = before
    if reading.needs == "time" and at is None:
        return None
    if reading.needs == "by" and not by:
        return None
    return FollowUpGuess(reading.due, at, text[start:end], (start, end))


def parse_follow_up(text: str, now: datetime) -> FollowUpGuess | None:
    """The follow-up `text` promises, read against `now` (timezone-aware, in the rep's zone:
    `warmline.zone.rep_now()`, a zone with rules), or None when it names no time the parser is sure of.

    Pure: the same text and `now` give the same answer. Raises ValueError for a naive `now`,
    since "tomorrow" depends on which day it is where the rep is.
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be timezone-aware, in the rep's zone")
    if not text:
        return None
    cut = len(text) > MAX_CHARS
    scanned = text[:MAX_CHARS]
    today = now.date()
    readings = [
        match
        for match in _without_overlaps(_matches(scanned, today, now))
        if match.reading is not None and not (cut and match.end > MAX_CHARS - _CUT_MARGIN)
    ]
    # The earliest due first, then the first written; a reading that still needs a clock
    # time it does not get ("today" alone) gives way to the next.
    for match in sorted(readings, key=lambda m: (m.reading.due if m.reading else today, m.start)):
        guess = _guess(scanned, match, today)
        if guess is not None:
            return guess
    return None
