"""Bad input and refused requests, the same shape in every area (no Flask here).

- `AppError(status, message, field=None, **extra)`: the one base class of the errors a
  request can end with — `judgekit.views.ApiError` (raised by views) and
  `judgekit.tournament.store.TournamentError` (raised by the tournament store) are its
  subclasses, and one error handler (`judgekit.views.init_app`) answers all of them: JSON
  `{"error", "status", "field"?, ...extra}` under /api/, an error page otherwise.
"""
from __future__ import annotations

from typing import Any


class AppError(Exception):
    """A request that cannot be carried out: an HTTP-like `status`, a message for people,
    the `field` at fault (if one is) and `extra` values for the JSON body."""

    def __init__(self, status: int, message: str, field: str | None = None, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field
        self.extra = extra

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.message, "status": self.status}
        if self.field:
            out["field"] = self.field
        out.update(self.extra)
        return out
