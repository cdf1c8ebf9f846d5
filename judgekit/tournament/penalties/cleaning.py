"""A penalty write's answers and its input, cleaned (split from `store` by concern).

- `Refused` (why nothing was stored: a status and the problems per field) and `Stored`
  (what was stored): the values every write of `judgekit.tournament.penalties.store`
  returns; `refused()` makes a one-problem `Refused`.
- `text`, `whole`, `rule`, `flag`: one field of a request, checked and cleaned; bad input
  raises `Bad` (carrying its `Refused`), which the store's writes catch and return.

No Flask, no database.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from judgekit.errors import MAX_INT, parse_int
from judgekit.i18n import Catalog, Message
from judgekit.tournament.penalties.deviation import Proposal
from judgekit.tournament.penalties.records import RecordProblem

RULE_RE = re.compile(r"^[a-z0-9][a-z0-9-]*/[A-Za-z0-9][A-Za-z0-9.\-]*(#[A-Za-z0-9._\-]+)?$")
MAX_TEXT = {"description": 2000, "reason": 1000, "approval_reason": 1000, "player_name": 80,
            "rule": 200, "infraction": 200, "variant": 80, "penalty": 80}


# --- answers --------------------------------------------------------------------------------

@dataclass
class Refused:
    """Why a record was not stored: an HTTP-like status and the problems (per field)."""
    status: int
    problems: list[RecordProblem]
    extra: dict = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.text()

    def text(self, catalog: Catalog | None = None) -> str:
        """The problems in `catalog`'s language (English without one), one after the other."""
        return " ".join(p.text(catalog) for p in self.problems)

    @property
    def said(self) -> Message | str:
        """The one problem as its `Message` (an error raised from it then carries the code),
        or the problems' text when there are several."""
        return self.problems[0].said if len(self.problems) == 1 else self.message

    @property
    def field(self) -> str | None:
        return self.problems[0].field if self.problems else None

    def to_dict(self, catalog: Catalog | None = None) -> dict:
        """The JSON body, worded in `catalog`'s language; each problem also gives its
        catalog id (`code`) when it has one."""
        return {"error": self.text(catalog), "status": self.status, "field": self.field,
                "problems": [{"field": p.field, "message": p.text(catalog),
                              "suggestions": list(p.suggestions), **({"code": p.code} if p.code else {})}
                             for p in self.problems],
                **self.extra}


def refused(status: int, field_name: str | None, message: str | Message, suggestions=(), **extra) -> Refused:
    return Refused(status, [RecordProblem(field_name, message, tuple(suggestions))], extra)


@dataclass
class Stored:
    record: dict                      # the row as stored
    duplicate: bool = False           # a retried POST: nothing new was stored
    added_player: dict | None = None  # the player added to the event for this record
    needs_head_judge: bool = False
    head_judge_reasons: list[str] = field(default_factory=list)
    proposal: Proposal | None = None
    applies: dict | None = None       # a Standings Adjustment: the game it applies to (Target)
    notes: list[Message] = field(default_factory=list)  # what the judge should know (e.g. no game)


# --- cleaning input ----------------------------------------------------------------------------------

class Bad(Exception):
    def __init__(self, refused: Refused):
        self.refused = refused


def text(data: dict, name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise Bad(refused(400, name, Message("penalties.not-text", "%(field)s must be text.", field=name)))
    cleaned = str(value).strip()
    if not cleaned:
        return None
    limit = MAX_TEXT.get(name, 200)
    if len(cleaned) > limit:
        raise Bad(refused(400, name, Message(
            "penalties.too-long", "%(field)s is too long (at most %(limit)s characters).", field=name, limit=limit)))
    return cleaned


def whole(data: dict, name: str, lo: int = 1, hi: int = MAX_INT) -> int | None:
    """`data[name]` as a whole number from `lo` to `hi` (`errors.parse_int`), None when not
    given; anything else is refused naming the field."""
    value = data.get(name)
    if value is None or value == "":
        return None
    n = parse_int(value, lo, hi)
    if n is None:
        raise Bad(refused(400, name, Message(
            "penalties.not-whole", "%(field)s must be a whole number from %(lo)s to %(hi)s, not %(value)s.",
            field=name, lo=lo, hi=hi, value=repr(value))))
    return n


def rule(data: dict) -> str | None:
    cited = text(data, "rule")
    if cited is None:
        return None
    cited = cited.lstrip("/")
    if cited.startswith("rules/"):
        cited = cited[len("rules/"):]
    if not RULE_RE.match(cited):
        raise Bad(refused(400, "rule", Message(
            "penalties.rule-form", "Cite a rule as document/section, e.g. "
            "tournament-rules/3.7.2 or announcements/forbidden-shortcuts.")))
    return cited


def flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value or "").strip().lower() in ("1", "true", "yes", "on")
