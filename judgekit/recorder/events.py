"""The recorder's event vocabulary and the validation of incoming events.

An event is a JSON object with a `type` and the fields of that type. `validate_event`
checks one event against the vocabulary and returns either the normalized event (card and
vampire names in their canonical spelling) or an `EventError` naming the field and the
reason. Validation only refuses malformed input; whether the sequence makes sense is the
engine's job (it stores everything and reports findings).

Fields every event may carry: `seat` (the acting seat, 1..n, where one applies),
`judge` (who recorded it; default "anonymous"), `client_id` (made by the client so that a
retried request is stored once), `text` (free words), `unlisted` (true: accept card or
vampire names that are not in the card list, e.g. a card newer than the list),
`device_time` (when the judge tapped, by the device: see `clock.event_time`).
The server adds `seq` (1, 2, ... per game) and `time` (UTC, ISO 8601).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from judgekit.errors import MAX_INT
from judgekit.i18n import Message, as_message
from judgekit.game.clock import MAX_EXTENSION_MIN
from judgekit.recorder.words import describe as describe  # the log line of an event (re-exported)
from judgekit.game.cards import DISCIPLINES, parse_discipline

PHASES = ("unlock", "master", "minion", "influence", "discard")
COMBAT_STEPS = ("pre-range", "range", "pre-strike", "strike", "damage", "press")
# Windows a shortcut can skip and an interrupt can name.
WINDOWS = PHASES + ("after-action", "minion-end") + COMBAT_STEPS
ACTIONS = ("bleed", "hunt", "equip", "recruit", "employ", "political", "leave-torpor",
           "rescue", "diablerie", "anarch", "card", "other")
OUTCOMES = ("success", "blocked", "failed", "cancelled")
TALK_KINDS = ("negotiate", "question", "answer", "hypothetical", "raised-voice", "slur",
              "physical-threat")
PRESS = ("continue", "end", "none")
LEVELS = ("inferior", "superior")

# Event types that take no part in the game sequence (judge work, the clock, table talk,
# corrections): the engine's sequence checks and the loop detection both skip them.
# ("penalty": stored before that type left the vocabulary: penalties are the penalty records.)
OFF_BOARD = frozenset({"note", "judge.call", "ruling", "misplay", "penalty", "time.extend",
                       "time.pause", "time.resume", "time.call", "loop.mark", "game.start",
                       "talk", "talk.stop", "retract", "amend"})

# Field kinds: seat, seats, int, num, str, bool, card, minion, name, dict, seq,
# disc (a discipline code or a list of them), or a tuple of allowed strings.
CARD_FIELDS = {"card": "card", "minion": "minion", "discipline": "disc", "level": LEVELS,
               "x": "int", "target": "name", "target_seat": "seat", "amount": "int",
               "phase": WINDOWS, "window": WINDOWS, "bleed_change": "int",
               "bleed_total": "int", "delays_replacement": "bool", "stealth": "int",
               "wake": "bool"}

# type -> (seat: "required" | "optional" | "none", {field: kind}, required fields)
VOCABULARY: dict[str, tuple[str, dict[str, Any], tuple[str, ...]]] = {
    "game.start": ("none", {"limit_min": "int"}, ()),
    "sync": ("required", {"phase": PHASES, "turn": "int", "ousted": "seats", "edge": "seat",
                          "board": "dict", "time_left_min": "num"}, ("phase",)),
    "turn.start": ("required", {}, ()),
    "phase": ("required", {"phase": PHASES}, ("phase",)),
    "card.play": ("required", dict(CARD_FIELDS), ("card",)),
    "card.replace": ("required", {"card": "card", "count": "int"}, ()),
    "action.declare": ("required", dict(CARD_FIELDS, action=ACTIONS, directed="bool",
                                         terms="str", terms_choice="bool", locked="bool",
                                         actual_amount="int", actual_stealth="int"),
                       ("action",)),
    "action.pass": ("required", {}, ()),
    # a reaction or effect that changes the target of the directed action (Deflection):
    # `seat` plays it (the original target), `target_seat` is the new target
    "action.redirect": ("required", dict(CARD_FIELDS), ("target_seat",)),
    "block.pass": ("required", {}, ()),
    "block.declare": ("required", {"minion": "minion"}, ()),
    "block.result": ("optional", {"blocked": "bool"}, ("blocked",)),
    "reaction": ("required", dict(CARD_FIELDS), ()),
    "combat.step": ("optional", {"step": COMBAT_STEPS + ("end",)}, ("step",)),
    "strike": ("required", {"strike": "str", "damage": "int", "card": "card",
                            "discipline": "disc", "level": LEVELS, "minion": "minion"}, ()),
    "press": ("required", {"press": PRESS}, ()),
    "action.result": ("optional", {"outcome": OUTCOMES, "amount": "int"}, ("outcome",)),
    "bleed.total": ("required", {"amount": "int"}, ("amount",)),
    "referendum.terms": ("required", {"terms": "str"}, ()),
    "vote": ("required", {"votes": "int", "side": ("for", "against", "abstain"), "vampire": "minion",
                          "available": "int", "burn_edge": "bool"}, ()),
    "referendum.result": ("none", {"passed": "bool", "votes_for": "int", "votes_against": "int"},
                          ("passed",)),
    "turn.end": ("required", {}, ()),
    "shortcut": ("required", {"to": WINDOWS}, ("to",)),
    "interrupt": ("required", dict(CARD_FIELDS), ()),
    "cancel": ("required", {"card": "card", "target_seq": "seq", "target_card": "card",
                            "wake": "bool", "minion": "minion", "discipline": "disc",
                            "level": LEVELS}, ()),
    "effect": ("required", {"name": "str", "phase": WINDOWS, "window": WINDOWS,
                            "minion": "minion", "changes": "bool"}, ("name",)),
    "transfer": ("required", {"amount": "int", "minion": "minion"}, ()),
    "discard": ("required", {"card": "card"}, ()),
    # the acting player locks a minion as if to act and names no action (yet): locking is
    # not a declaration (`action-not-announced` if blocks are asked for or answered next)
    "minion.lock": ("required", {"minion": "minion"}, ()),
    "minion.in": ("required", {"minion": "minion"}, ("minion",)),
    "minion.out": ("required", {"minion": "minion"}, ("minion",)),
    "talk": ("required", {"kind": TALK_KINDS, "discriminatory": "bool"}, ("kind",)),
    "talk.stop": ("required", {}, ()),
    "oust": ("required", {}, ()),
    "withdraw": ("required", {}, ()),
    "concede": ("required", {}, ()),
    "draw.intentional": ("none", {}, ()),
    "game.end": ("none", {"reason": "str"}, ()),
    "loop.mark": ("optional", {"state": "dict", "label": "str"}, ("state",)),
    "judge.call": ("optional", {"reason": "str"}, ()),
    "ruling": ("optional", {"finding_seq": "seq"}, ()),
    "misplay": ("optional", {}, ()),
    "time.extend": ("none", {"minutes": "int", "reason": "str", "judge_minutes": "num"},
                    ("minutes",)),
    "time.pause": ("none", {"reason": "str"}, ()),
    "time.resume": ("none", {}, ()),
    "time.call": ("none", {}, ()),
    "note": ("optional", {}, ("text",)),
    "retract": ("none", {"target": "seq", "reason": "str"}, ("target",)),
    "amend": ("none", {"target": "seq", "fields": "dict"}, ("target", "fields")),
}

COMMON = {"type": "str", "seat": "seat", "judge": "str", "client_id": "str", "text": "str",
          "unlisted": "bool", "device_time": "time"}
SERVER_FIELDS = ("seq", "time")
MAX_STR = 2000
MAX_NAME = 120
DISC_RE = re.compile(r"^[a-zA-Z]{3,4}$")


#: The refusals of a name the card list does not hold (a 422 with suggestions, not a 400)
UNKNOWN_NAME_CODES = frozenset(("recorder.unknown-card-name", "recorder.unknown-minion-name"))


def refusal_words(reason: Message | str, message: Message | str | None):
    """A refusal's reason and message for people as given (`Message`s, or English text as
    its own id): (why, its English, said, its English or None), as `EventError` and
    `judgekit.recorder.intake.StoreError` keep them."""
    why = as_message(reason)
    said = None if message is None else as_message(message)
    return why, why.render(), said, (said.render() if said is not None else None)


@dataclass
class EventError:
    """Why an event was refused: the field at fault and the reason (and name suggestions).
    `message`, where set, is the same for people at the table (an unknown name: "No card
    named 'Deflectoin' — did you mean Deflection?"); the page shows it instead of the
    field and reason.

    The reason and the message are given as `Message`s (catalog codes `recorder.*`); they
    are kept as such in `why` and `said`, and `reason` and `message` hold their English
    text. `text()` is the whole refusal ("event 2: seat: …") as one message."""
    field: str
    reason: str
    index: int | None = None
    suggestions: list[str] = field(default_factory=list)
    message: str | None = None
    why: Message = field(init=False, repr=False, compare=False)
    said: Message | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.why, self.reason, self.said, self.message = refusal_words(self.reason, self.message)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "error": self.reason}
        if self.index is not None:
            out["index"] = self.index
        if self.suggestions:
            out["suggestions"] = self.suggestions
        if self.message:
            out["message"] = self.message
        return out

    def text(self) -> Message:
        """The refusal in one message: "event 2: seat: must be a seat number"."""
        hint = Message("recorder.did-you-mean", " (did you mean: %(names)s?)",
                       names=", ".join(self.suggestions)) if self.suggestions else ""
        if self.index is not None:
            return Message("recorder.event-refused-at", "event %(n)s: %(field)s: %(reason)s%(hint)s",
                           n=self.index + 1, field=self.field, reason=self.why, hint=hint)
        return Message("recorder.event-refused", "%(field)s: %(reason)s%(hint)s",
                       field=self.field, reason=self.why, hint=hint)

    def __str__(self) -> str:
        return self.text().render()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _lookup(cards, value: str, kind: str):
    """The card object for `value` (crypt or library as `kind` says), or None."""
    if cards is None:
        return None
    if kind == "card":
        return cards.library(value)
    found = cards.crypt(value)
    return found if found is not None else cards.find(value)


def _suggest(cards, value: str) -> list[str]:
    try:
        return list(cards.suggest(value))[:5]
    except Exception:  # a suggestion is a courtesy, never a reason to fail
        return []


def validate_event(raw: Any, n_seats: int, cards=None) -> dict[str, Any] | EventError:
    """Check one incoming event; return it normalized, or an EventError.

    `cards` is the card index (`judgekit.game.cards.CardIndex` or anything with the
    same `crypt/library/find/suggest`); without it names are not checked.
    """
    if not isinstance(raw, dict):
        return EventError("event", Message("recorder.event-not-object", "an event must be a JSON object"))
    etype = raw.get("type")
    if etype is None:
        return EventError("type", Message("recorder.field-missing", "missing"))
    if not isinstance(etype, str):
        return EventError("type", Message("recorder.field-not-string", "must be a string"))
    if etype not in VOCABULARY:
        return EventError("type", Message("recorder.unknown-event-type", "unknown event type %(type)s", type=repr(etype)))
    seat_rule, fields, required = VOCABULARY[etype]
    out: dict[str, Any] = {"type": etype}
    for key in raw:
        if key in SERVER_FIELDS:
            continue  # set by the server; a client's value is ignored
        if key not in fields and key not in COMMON:
            return EventError(key, Message("recorder.unknown-field-for-type", "unknown field for %(type)s", type=etype))
    unlisted = raw.get("unlisted", False)
    if not isinstance(unlisted, bool):
        return EventError("unlisted", Message("recorder.field-not-bool", "must be true or false"))
    for key, value in raw.items():
        if key in SERVER_FIELDS or key == "type":
            continue
        kind = fields.get(key) or COMMON[key]
        if value is None:
            continue
        checked = _check(key, kind, value, n_seats, cards, unlisted)
        if isinstance(checked, EventError):
            return checked
        out[key] = checked
    if seat_rule == "required" and "seat" not in out:
        return EventError("seat", Message("recorder.seat-missing", "missing: %(type)s needs the acting seat", type=etype))
    if seat_rule == "none" and "seat" in out:
        out.pop("seat")
    for key in required:
        if key not in out:
            return EventError(key, Message("recorder.field-missing", "missing"))
        if isinstance(out[key], str) and not out[key].strip():
            return EventError(key, Message("recorder.field-empty", "must not be empty"))  # e.g. a note with no words
    if etype == "vote" and out.get("votes") is not None and out.get("available") is not None \
            and out["votes"] > out["available"]:
        return EventError("votes", Message("recorder.votes-over-available",
                                           "%(votes)s votes committed of %(available)s available",
                                           votes=out["votes"], available=out["available"]),
                          message=Message("recorder.votes-over-available-words",
                                          "%(votes)s votes is more than the %(available)s "
                                          "available: check the number.",
                                          votes=out["votes"], available=out["available"]))
    if "judge" not in out:
        out["judge"] = "anonymous"
    return out


def _check(key: str, kind: Any, value: Any, n_seats: int, cards, unlisted: bool):
    if isinstance(kind, tuple):
        if not isinstance(value, str) or value not in kind:
            return EventError(key, Message("recorder.field-not-one-of", "must be one of: %(values)s", values=', '.join(kind)))
        return value
    if kind == "seat":
        if not _is_int(value):
            return EventError(key, Message("recorder.field-not-seat", "must be a seat number"))
        if not 1 <= value <= n_seats:
            return EventError(key, Message("recorder.seat-out-of-range", "seat %(seat)s is out of range 1..%(n)s", seat=value, n=n_seats))
        return value
    if kind == "seats":
        if not isinstance(value, list):
            return EventError(key, Message("recorder.field-not-seats", "must be a list of seat numbers"))
        for item in value:
            err = _check(key, "seat", item, n_seats, cards, unlisted)
            if isinstance(err, EventError):
                return err
        return list(value)
    if kind == "seq":
        if not _is_int(value) or not 1 <= value <= MAX_INT:
            return EventError(key, Message("recorder.field-not-seq", "must be an event number (1 or more)"))
        return value
    if kind == "int":
        if not _is_int(value):
            return EventError(key, Message("recorder.field-not-whole", "must be a whole number"))
        if not -1000 <= value <= 1000:
            return EventError(key, Message("recorder.field-out-of-range", "is out of range"))
        if key in ("amount", "x", "votes", "minutes", "limit_min", "count", "available",
                   "stealth", "damage", "turn", "votes_for", "votes_against") and value < 0:
            return EventError(key, Message("recorder.field-negative", "must not be negative"))
        if key == "minutes" and not 1 <= value <= MAX_EXTENSION_MIN:
            return EventError(key, Message("recorder.minutes-out-of-range", "must be from 1 to %(max)s minutes", max=MAX_EXTENSION_MIN))
        return value
    if kind == "num":
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
            return EventError(key, Message("recorder.field-not-number", "must be a number"))
        if value < 0 or value > 10000:
            return EventError(key, Message("recorder.field-out-of-range", "is out of range"))
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            return EventError(key, Message("recorder.field-not-bool", "must be true or false"))
        return value
    if kind == "dict":
        if not isinstance(value, dict):
            return EventError(key, Message("recorder.field-not-object", "must be a JSON object"))
        if len(repr(value)) > 20000:
            return EventError(key, Message("recorder.field-too-large", "is too large"))
        return value
    if kind == "str":
        if not isinstance(value, str):
            return EventError(key, Message("recorder.field-not-string", "must be a string"))
        if len(value) > (MAX_NAME if key in ("judge", "client_id") else MAX_STR):
            return EventError(key, Message("recorder.field-too-long", "is too long"))
        return value
    if kind == "time":   # ISO 8601 with its zone; stored as UTC with milliseconds ("…Z")
        when = _instant(value)
        if when is None:
            return EventError(key, Message("recorder.field-not-time", "must be a time such as \"2025-05-03T14:05:07.120Z\" (ISO 8601 with its zone)"))
        return when
    if kind == "disc":
        items = value if isinstance(value, list) else [value]
        if not items or not all(isinstance(v, str) for v in items):
            return EventError(key, Message("recorder.field-not-discipline", "must be a discipline code such as \"dom\" (\"DOM\" for superior) or a list of them"))
        out = []
        for item in items:
            norm = _discipline(item, cards)
            if norm is None:
                return EventError(key, Message("recorder.not-a-discipline", "not a discipline: %(value)s", value=repr(item)))
            out.append(norm)
        return out if isinstance(value, list) else out[0]
    if kind in ("card", "minion", "name"):
        if not isinstance(value, str) or not value.strip():
            return EventError(key, Message("recorder.field-not-name", "must be a name"))
        if len(value) > MAX_NAME:
            return EventError(key, Message("recorder.field-too-long", "is too long"))
        value = " ".join(value.split())
        if kind == "name" or cards is None:
            return value
        found = _lookup(cards, value, kind)
        if found is not None:
            return found.name
        if unlisted:
            return value
        what = "card" if kind == "card" else "vampire or minion"
        suggestions = _suggest(cards, value)
        reason = Message("recorder.unknown-card-name",
                         "unknown card name %(value)s (send \"unlisted\": true to record it anyway)",
                         value=repr(value)) if kind == "card" else \
            Message("recorder.unknown-minion-name",
                    "unknown vampire or minion name %(value)s (send \"unlisted\": true to record it anyway)",
                    value=repr(value))
        return EventError(key, reason,
                          suggestions=suggestions, message=unknown_name_message(what, value, suggestions))
    raise AssertionError(f"unknown field kind {kind!r}")  # pragma: no cover


def _instant(value: Any) -> str | None:
    if not isinstance(value, str) or not 10 <= len(value) <= 40:
        return None
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if dt.tzinfo is None or not 2000 <= dt.year <= 9000:
        return None
    return dt.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def unknown_name_message(what: str, value: str, suggestions: list[str]) -> Message:
    """The words for a judge who typed a name the card list does not hold (`what`: "card"
    or "vampire or minion")."""
    head = Message("recorder.no-card-named", "No card named '%(name)s'", name=value) if what == "card" \
        else Message("recorder.no-minion-named", "No vampire or minion named '%(name)s'", name=value)
    if suggestions:
        options = suggestions[0] if len(suggestions) == 1 else \
            Message("recorder.names-or-name", "%(names)s or %(last)s",
                    names=", ".join(suggestions[:-1]), last=suggestions[-1])
        return Message("recorder.unknown-name-did-you-mean", "%(head)s — did you mean %(options)s?",
                       head=head, options=options)
    return Message("recorder.unknown-name-check-spelling",
                   "%(head)s in the card list — check the spelling (a card missing from the list: "
                   "add !unlisted to the line to record it anyway).", head=head)


def _discipline(text: str, cards) -> str | None:
    """A discipline code, keeping the case convention (lower: inferior, upper: superior)."""
    text = text.strip()
    if DISC_RE.match(text) and text.lower() in DISCIPLINES:
        return text if text.isupper() else text.lower()
    parse = getattr(cards, "parse_discipline", None) if cards is not None else None
    if parse is None:
        parse = parse_discipline
    try:
        code, level = parse(text)
    except (ValueError, KeyError, TypeError):
        return None
    if not code:
        return None
    return code.upper() if level == 2 else code.lower()


def validate_amend(target: dict[str, Any], fields: dict[str, Any], n_seats: int,
                   cards=None) -> dict[str, Any] | EventError:
    """The `fields` of an `amend`, checked as part of the event they correct (`target`, as
    stored): returned normalized (names in canonical spelling; None removes an optional
    field), or an EventError (field `fields.<name>`). The replay applies the fields as they
    are, so an amend is held to the same rules as the event it changes."""
    if target["type"] in ("retract", "amend"):
        return EventError("target", Message("recorder.amend-a-retract", "event %(seq)s is a retract: retract it instead",
                                            seq=target.get("seq")) if target["type"] == "retract" else
                          Message("recorder.amend-an-amend", "event %(seq)s is an amend: retract it instead",
                                  seq=target.get("seq")))
    for key in fields:
        if key in ("type", "client_id"):
            return EventError(f"fields.{key}", Message("recorder.field-not-amendable", "cannot be amended: retract the event and record a new one"))
    merged = {k: v for k, v in target.items() if k not in SERVER_FIELDS}
    merged.update(fields)
    checked = validate_event(merged, n_seats, cards)
    if isinstance(checked, EventError):
        return EventError(f"fields.{checked.field}" if checked.field in fields else "fields",
                          Message("recorder.amend-malformed", "event %(seq)s would be malformed: %(reason)s",
                                  seq=target.get("seq"), reason=checked.text()),
                          suggestions=checked.suggestions, message=checked.said)
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if value is None:
            out[key] = None
        elif key in checked:
            out[key] = checked[key]
    return out


def validate_batch(raw: Any, n_seats: int, cards=None) -> list[dict[str, Any]] | EventError:
    """One event or a list of them; all valid or the first error (with its index)."""
    items = raw if isinstance(raw, list) else [raw]
    if isinstance(raw, list) and not raw:
        return EventError("events", Message("recorder.batch-empty", "the list is empty"))
    if len(items) > 500:
        return EventError("events", Message("recorder.batch-too-long", "at most %(max)s events per request", max=500))
    out = []
    for i, item in enumerate(items):
        result = validate_event(item, n_seats, cards)
        if isinstance(result, EventError):
            if isinstance(raw, list):
                result.index = i
            return result
        out.append(result)
    return out
