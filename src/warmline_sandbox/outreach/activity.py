"""Activity typing, date detection and bonus points for the outreach activity log.

The real service types a rep's free-text description with AI; the sandbox stands in with
keyword rules that are predictable enough to test against and good enough for a demo.
Everything here is pure (no database, no clock of its own) so the rules can be unit
tested in isolation and reused by the seed.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

ACTIVITY_TYPES = (
    "email",
    "call",
    "meeting",
    "professional_network_message",
    "comment",
    "like",
    "follow",
    "share",
    "event",
    "other",
)

# Base warming points per detected kind: the more personal the contact, the more it warms.
BASE_POINTS: dict[str, int] = {
    "meeting": 15,
    "call": 10,
    "event": 8,
    "email": 5,
    "professional_network_message": 5,
    "share": 4,
    "comment": 4,
    "follow": 2,
    "like": 1,
    "other": 2,
}

ROLE_MULTIPLIERS: dict[str, float] = {
    "decision-maker": 1.5,
    "champion": 1.3,
    "influencer": 1.1,
}
NEXT_STEP_MULTIPLIER = 1.2
REPEAT_MULTIPLIER = 0.5
WARMING_SCORE_CAP = 100

# Each kind with the phrases that reveal it. The kind whose phrase appears FIRST in the
# text wins ("Called Dana, she wants a demo" is a call), the longer phrase on a tie.
_TYPE_PATTERNS: dict[str, str] = {
    "professional_network_message": (
        r"\binmail\b|\bdm(?:'?d|ed)?\b|\bdirect message\b|\bconnection request\b"
        r"|\blinked ?in message\b|\bmessaged\b|\bsent (?:a |an )?message\b"
        r"|\b(?:on|via|over) linked ?in\b"
    ),
    "email": r"\be-?mail(?:s|ed|ing)?\b|\bmailed\b|\bnewsletter\b",
    "call": (
        r"\bcall(?:s|ed|ing)?\b|\bphone(?:d)?\b|\brang\b|\bvoicemail\b"
        r"|\bspoke (?:with|to)\b|\bspoken (?:with|to)\b|\btalked (?:with|to)\b"
    ),
    "meeting": (
        r"\bmeet(?:ing|ings)?\b|\bmet\b|\bdemo(?:ed|'d)?\b|\bcoffee\b|\blunch\b|\bdinner\b"
        r"|\bvideo call\b|\bzoom\b|\bon-?site visit\b|\bvisited\b|\bworkshop\b"
    ),
    "comment": r"\bcomment(?:ed|ing)?\b|\breplied to (?:their|her|his|the) post\b",
    "like": r"\bliked\b|\blike on\b|\bgave (?:it |the post )?a like\b|\breacted to\b|\bupvoted\b",
    "follow": r"\bfollow(?:ed|ing|s)?\b(?!\s*-?\s*ups?\b)|\bsubscribed to\b",
    "share": r"\bshar(?:e|ed|es|ing)\b|\brepost(?:ed)?\b|\bretweet(?:ed)?\b|\bforwarded\b",
    "event": (
        r"\bevent\b|\bconference\b|\bwebinar\b|\btrade ?show\b|\bmeetup\b|\bsummit\b"
        r"|\bexpo\b|\bbooth\b"
    ),
}
_TYPE_REGEXES = {
    kind: re.compile(pattern, re.IGNORECASE) for kind, pattern in _TYPE_PATTERNS.items()
}


def detect_type(description: str) -> str:
    """Return the activity kind a description reveals, `other` when none does."""
    best: tuple[int, int, str] | None = None
    for kind, regex in _TYPE_REGEXES.items():
        match = regex.search(description)
        if match is None:
            continue
        candidate = (match.start(), -(match.end() - match.start()), kind)
        if best is None or candidate < best:
            best = candidate
    return best[2] if best else "other"


_WEEKDAYS = {name.lower(): index for index, name in enumerate(calendar.day_name)}
_MONTHS = {name.lower(): index for index, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): index for index, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9

_MONTH_RE = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY_RE = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR_RE = r"(?:,?\s+(?P<year>\d{4}))?"
_DATE_REGEXES: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})\b")),
    ("day_month", re.compile(rf"\b{_DAY_RE}\s+(?:of\s+)?{_MONTH_RE}{_YEAR_RE}\b", re.IGNORECASE)),
    ("month_day", re.compile(rf"\b{_MONTH_RE}\s+{_DAY_RE}{_YEAR_RE}\b", re.IGNORECASE)),
    (
        "weekday",
        re.compile(
            r"\b(?P<rel>next|last|this|on)?\s*(?P<weekday>" + "|".join(_WEEKDAYS) + r")\b",
            re.IGNORECASE,
        ),
    ),
    ("relative", re.compile(r"\b(?P<word>today|tomorrow|yesterday|next week|next month)\b", re.I)),
    ("in_n", re.compile(r"\bin\s+(?P<n>\d{1,3})\s+(?P<unit>days?|weeks?)\b", re.IGNORECASE)),
]


def detect_dates(description: str, today: date) -> list[date]:
    """Return the calendar dates a description mentions, in the order they appear.

    Relative phrases resolve against `today`; a bare weekday (or "next <weekday>") means
    its next occurrence after today, "last <weekday>" the previous one; a day and month
    without a year mean the occurrence nearest to today. Impossible dates are ignored.
    """
    found: list[tuple[int, date]] = []
    taken: list[range] = []
    for kind, regex in _DATE_REGEXES:
        for match in regex.finditer(description):
            span = range(match.start(), match.end())
            if any(span.start < other.stop and other.start < span.stop for other in taken):
                continue
            resolved = _resolve(kind, match, today)
            if resolved is not None:
                taken.append(span)
                found.append((match.start(), resolved))
    unique: list[date] = []
    for _, value in sorted(found, key=lambda item: item[0]):
        if value not in unique:
            unique.append(value)
    return unique


def _resolve(kind: str, match: re.Match[str], today: date) -> date | None:
    groups = match.groupdict()
    if kind == "weekday":
        return _resolve_weekday(groups["weekday"].lower(), (groups["rel"] or "").lower(), today)
    if kind == "relative":
        offsets = {"today": 0, "tomorrow": 1, "yesterday": -1, "next week": 7, "next month": 30}
        return today + timedelta(days=offsets[groups["word"].lower()])
    if kind == "in_n":
        days = int(groups["n"]) * (7 if groups["unit"].lower().startswith("week") else 1)
        return today + timedelta(days=days)
    month_text = groups["month"].lower()
    month = int(month_text) if month_text.isdigit() else _MONTHS[month_text]
    day = int(groups["day"])
    if groups.get("year"):
        return _safe_date(int(groups["year"]), month, day)
    candidates = [_safe_date(today.year + delta, month, day) for delta in (-1, 0, 1)]
    valid = [value for value in candidates if value is not None]
    return min(valid, key=lambda value: abs((value - today).days)) if valid else None


def _resolve_weekday(name: str, relation: str, today: date) -> date:
    target = _WEEKDAYS[name]
    if relation == "last":
        back = (today.weekday() - target) % 7 or 7
        return today - timedelta(days=back)
    ahead = (target - today.weekday()) % 7
    if ahead == 0 and relation != "this":
        ahead = 7
    return today + timedelta(days=ahead)


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


@dataclass(frozen=True)
class ActivityScore:
    """What logging one activity is worth, with the reasoning shown to the rep."""

    detected_type: str
    detected_dates: list[date]
    base_points: int
    multiplier: float
    total: int
    reason: str


def score_activity(
    description: str,
    *,
    today: date,
    contact_role: str | None = None,
    recent_types: frozenset[str] = frozenset(),
) -> ActivityScore:
    """Type an activity and compute its bonus points.

    The context multiplier rewards activity with the people who decide (the contact's
    role) and activity that sets up a next step (a future date is mentioned), and halves
    a repeat of a kind already logged on the lead in the last day so that logging the same
    email five times does not game the score. `recent_types` are those recent kinds.
    """
    detected_type = detect_type(description)
    dates = detect_dates(description, today)
    base = BASE_POINTS[detected_type]
    factors: list[tuple[float, str]] = []
    if contact_role in ROLE_MULTIPLIERS:
        factors.append((ROLE_MULTIPLIERS[contact_role], f"{contact_role} contact"))
    if any(value > today for value in dates):
        factors.append((NEXT_STEP_MULTIPLIER, "next step scheduled"))
    if detected_type in recent_types:
        factors.append((REPEAT_MULTIPLIER, f"another {_label(detected_type)} within a day"))
    multiplier = 1.0
    for factor, _ in factors:
        multiplier *= factor
    multiplier = round(multiplier, 2)
    total = max(1, round(base * multiplier))
    reason = f"{_label(detected_type).capitalize()}: {base} base points"
    if factors:
        reason += " x " + " x ".join(f"{factor:g} ({why})" for factor, why in factors)
    return ActivityScore(detected_type, dates, base, multiplier, total, reason)


def apply_points(score: int, points: int) -> int:
    """Raise a warming score by some points, never past the 0-100 range of the spec."""
    return max(0, min(WARMING_SCORE_CAP, score + points))


def _label(kind: str) -> str:
    return kind.replace("_", " ")
