"""The one timestamp format of the cache and the wire, and when an action counts as late.

Every stored timestamp uses the wire format (`2026-11-22T10:24:11.123Z`) so that the
indexed ones (last activity, creation) sort correctly as text whatever shape the server
or pydantic produced. A leaf: imports nothing of ours, so the queued operations
(`warmline.ops`, below the store) and the store (`warmline.store.clock`) share it.
"""

from __future__ import annotations

from datetime import UTC, datetime

# An action that reached the service more than this long after the rep took it is "late":
# the cockpit shows both times, and the opt-in annotation names when it was logged.
LATE_SECONDS = 60.0


def iso(epoch: float) -> str:
    """Epoch seconds as the wire's UTC timestamp with milliseconds."""
    return _format(datetime.fromtimestamp(epoch, UTC))


def _format(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def normalize_ts(value: object) -> str | None:
    """Any timestamp the server or a model dump may give, in the one stored format.

    Unparseable text is kept as it is rather than lost: it still shows, it only sorts oddly.
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return _format(value if value.tzinfo else value.replace(tzinfo=UTC))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return iso(float(value))
    text = str(value).strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    return _format(moment if moment.tzinfo else moment.replace(tzinfo=UTC))


def epoch_of(value: str | None) -> float | None:
    """Epoch seconds of a stored timestamp, or None when there is none or it is not one."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None
