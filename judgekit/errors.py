"""Bad input and refused requests, the same shape in every area (no Flask here).

- `AppError(status, message, field=None, **extra)`: the one base class of the errors a
  request can end with. `message` is a `judgekit.i18n.Message` (a code, its English text
  and parameters: the web layer renders it in the reader's language and puts the code in
  the JSON body) or, not converted yet, plain English text (looked up as a catalog id) — `judgekit.views.ApiError` (raised by views) and
  `judgekit.tournament.store.TournamentError` (raised by the tournament store) are its
  subclasses, and one error handler (installed by `judgekit.views.init_app`) answers all
  of them: JSON `{"error", "status", "field"?, ...extra}` under /api/, an error page otherwise.
- `parse_int(value, lo, hi)`: the one parser of whole numbers from requests (URL parts,
  query arguments, form fields, JSON values). It never raises: anything that is not a
  whole number within the bounds is None, and each area says what is wrong in its own
  words. Ids are bounded by SQLite's INTEGER (`MAX_INT`), so a huge number is "not found"
  or "out of range", never a crash.
"""
from __future__ import annotations

import math
from typing import Any

from judgekit.i18n import Catalog, Message, Said, as_message

MAX_INT = 2 ** 63 - 1  # the largest SQLite INTEGER


class AppError(Exception):
    """A request that cannot be carried out: an HTTP-like `status`, a message for people
    (`msg`, a `Message`; `message` is its English text), the `field` at fault (if one is)
    and `extra` values for the JSON body."""

    def __init__(self, status: int, message: str | Message, field: str | None = None, **extra: Any):
        self.msg = as_message(message)
        self.message = self.msg.render()
        super().__init__(self.message)
        self.status = status
        self.field = field
        self.extra = extra

    @property
    def code(self) -> str | None:
        """The error's stable code; None for an error still given as plain English text."""
        return self.msg.code if self.msg.english is not None else None

    def text(self, catalog: Catalog | None = None) -> str:
        """The message in `catalog`'s language (English without one)."""
        if self.msg.english is None and catalog is not None:   # plain text: the text is the id
            return catalog.gettext(self.msg.code)
        return self.msg.render(catalog)

    def body(self, catalog: Catalog | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.text(catalog), "status": self.status}
        if self.code:
            out["code"] = self.code
        if self.field:
            out["field"] = self.field
        out.update({k: worded(v, catalog) for k, v in self.extra.items()})
        return out


def worded(value: Any, catalog: Catalog | None = None) -> Any:
    """`value` with each `Message` or `Said` in it (in lists, tuples and dict values)
    worded in `catalog`'s language: an error's extra values, a JSON answer's problems."""
    if isinstance(value, (Message, Said)):
        return value.render(catalog)
    if isinstance(value, dict):
        return {k: worded(v, catalog) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [worded(v, catalog) for v in value]
    return value


def parse_int(value: Any, lo: int = 1, hi: int = MAX_INT) -> int | None:
    """`value` as a whole number from `lo` to `hi` (default: an id, 1 to 2**63 - 1), or None.

    Accepts an int, a float with no fractional part, or decimal text (spaces around it
    ignored). Refuses booleans, other types, fractions, infinities, NaN, malformed text and
    numbers outside the bounds — a number too large for SQLite included."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            return None
        n = int(value)
    elif isinstance(value, int):
        n = value
    elif isinstance(value, str):
        text = value.strip()
        if not text or len(text) > 30 or not text.lstrip("+-").isascii() or not text.lstrip("+-").isdigit():
            return None
        try:
            n = int(text)
        except (ValueError, OverflowError):
            return None
    else:
        return None
    return n if lo <= n <= hi else None
