"""Times as people read them on the pages (pure, no Flask).

The store keeps ISO 8601 UTC times ("2026-11-21T13:05:09+00:00"); a page shows them in the
venue's local time — the laptop's, where judgekit runs — as a weekday and the time of day:
"Sat 14:05". One function, used by every page through the `when` template filter.
"""
from __future__ import annotations

from datetime import datetime, timezone, tzinfo

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")  # not the locale's: pages are English
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def clock(value: str | None, tz: tzinfo | None = None) -> str:
    """"14:05": the time of day of an ISO time in `tz` (default: this machine's local time,
    as every other time on the pages), "" for nothing."""
    text = short(value, tz)
    return text.rsplit(" ", 1)[-1] if text else ""


def short(value: str | None, tz: tzinfo | None = None, *, date: bool = False) -> str:
    """"Sat 14:05" for an ISO time in `tz` (default: this machine's local time), with
    `date` "Sat 21 Nov 2026 14:05" (a printed report); "" for nothing, and the text itself
    when it is not an ISO time."""
    if not value:
        return ""
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)  # the store writes UTC
    when = when.astimezone(tz)
    day = f"{DAYS[when.weekday()]} {when.day} {MONTHS[when.month - 1]} {when.year}" if date \
        else DAYS[when.weekday()]
    return f"{day} {when:%H:%M}"


def to_epoch(value) -> float | None:
    """Seconds since the epoch of a stored time (ISO 8601, "Z" or an offset; naive means
    UTC) or of a number already in seconds; None for nothing or text that is no time."""
    if value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        dt = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.timestamp()
