"""Check-in codes for players checking themselves in from their own phones (pure).

The organizer opens check-in by phone for an event: a random secret is stored with it.
The code shown at the venue (on the dashboard, as text and as a QR code that carries it in
the link) is derived from that secret and the current ten-minute window, so it changes
every ten minutes: only someone who sees it at the venue can use it, and a link passed on
or opened again later stops working. A code is taken during its own window and the next
one (10 to 20 minutes); an older link is answered "expired", a code that was never shown
"wrong". Closing check-in (or opening it again) draws a new secret: every earlier code is
then wrong.

Codes are 5 characters from an alphabet without look-alikes (no I, O, 0, 1); what the
player types is read without regard to case, spaces or dashes.
"""
from __future__ import annotations

import hashlib
import hmac

WINDOW_S = 600        # a code's own window (seconds)
GRACE_WINDOWS = 1     # a code is also taken during this many windows after its own
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LENGTH = 5
RECENT_WINDOWS = 6 * 24 * 2   # a typed code from the last two days reads "expired", not "wrong"


def window(now: float) -> int:
    """The ten-minute window a time (seconds since the epoch) falls in."""
    return int(now // WINDOW_S)


def code_for(secret: str, tournament_id: int, w: int) -> str:
    """The code of a window."""
    digest = hmac.new(secret.encode(), f"{tournament_id}:{w}".encode(), hashlib.sha256).digest()
    return "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:LENGTH])


def normal(code: object) -> str:
    """A typed code as compared: upper case, no spaces or dashes (at most 20 characters kept)."""
    if not isinstance(code, str):
        return ""
    return "".join(ch for ch in code.upper() if ch.isalnum())[:20]


def check(secret: str, tournament_id: int, code: object, now: float, w: object = None) -> str:
    """"ok", "expired" (a real code whose time is over) or "wrong". `w`: the window the
    link named, when the code came from a link."""
    typed = normal(code)
    if len(typed) != LENGTH:
        return "wrong"
    current = window(now)
    if isinstance(w, int) and not isinstance(w, bool):
        if w > current or not hmac.compare_digest(typed, code_for(secret, tournament_id, w)):
            return "wrong"
        return "ok" if current - w <= GRACE_WINDOWS else "expired"
    for k in range(0, RECENT_WINDOWS):
        if hmac.compare_digest(typed, code_for(secret, tournament_id, current - k)):
            return "ok" if k <= GRACE_WINDOWS else "expired"
    return "wrong"


def valid_until(now: float) -> float:
    """When the code shown now stops being taken (the end of the grace window)."""
    return (window(now) + 1 + GRACE_WINDOWS) * WINDOW_S
