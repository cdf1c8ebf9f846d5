"""The quick-entry notation: one typed line -> the same events as the JSON API.

A line holds one or more statements separated by `;`. A statement is an optional seat
number, a verb, and arguments. Names run over several words until the next marked token:

    1 bleed Modius =2 @3 *1 +Govern the Unaligned :DOM
    │ │     │      │  │  │  │                      └ discipline: lower case inferior, CAPS superior
    │ │     │      │  │  │  └ card played with the action
    │ │     │      │  │  └ declared stealth
    │ │     │      │  └ target seat
    │ │     │      └ amount (bleed amount, blood, transfers, votes, damage)
    │ │     └ acting minion
    │ └ verb
    └ seat

Marked tokens: `+Card`, `@N` (target seat) or `@Name` (target), `=N` (amount; `=+N` a
bleed change), `*N` (stealth), `xN` (X cost), `:dom` (discipline; `:obf:pre` several),
`~window` (phase/step/window: unlock, master, minion, after-action, minion-end, influence,
discard, pre-range, range, pre-strike, strike, damage, press), `^Card` (target card of a
cancel), `#N` (an event number), `!wake`, `!unlocked`, `!unlisted`, and `"free text"`.
The verbs are listed in `VERBS` and in docs/recorder.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from judgekit.i18n import Message, as_message

from judgekit.recorder.events import WINDOWS

ACTION_VERBS = {"bleed": "bleed", "hunt": "hunt", "equip": "equip", "recruit": "recruit",
                "employ": "employ", "political": "political", "pol": "political",
                "leave": "leave-torpor", "rescue": "rescue", "diablerie": "diablerie",
                "anarch": "anarch", "act": "card", "action": "card", "other": "other"}
TALK_VERBS = {"say": "negotiate", "negotiate": "negotiate", "q": "question",
              "question": "question", "a": "answer", "answer": "answer",
              "hypo": "hypothetical", "shout": "raised-voice", "slur": "slur",
              "threat": "physical-threat"}
PHASE_VERBS = {"unlock", "master", "minion", "influence", "discard"}
SIMPLE = {  # verb -> (event type, extra fields)
    "start": ("turn.start", {}), "end": ("turn.end", {}),
    "go": ("action.pass", {}), "ab": ("action.pass", {}), "pass": ("action.pass", {}),
    "nb": ("block.pass", {}), "noblock": ("block.pass", {}),
    "blocked": ("block.result", {"blocked": True}), "free": ("block.result", {"blocked": False}),
    "replace": ("card.replace", {}), "r": ("card.replace", {}),
    "press": ("press", {"press": "continue"}), "nopress": ("press", {"press": "none"}),
    "endcombat": ("combat.step", {"step": "end"}),
    "success": ("action.result", {"outcome": "success"}), "ok": ("action.result", {"outcome": "success"}),
    "fail": ("action.result", {"outcome": "failed"}),
    "cancelled": ("action.result", {"outcome": "cancelled"}),
    "passed": ("referendum.result", {"passed": True}),
    "rejected": ("referendum.result", {"passed": False}),
    "stop": ("talk.stop", {}), "oust": ("oust", {}), "withdraw": ("withdraw", {}),
    "concede": ("concede", {}), "draw": ("draw.intentional", {}), "begin": ("game.start", {}),
    "call": ("judge.call", {}), "misplay": ("misplay", {}), "gameover": ("game.end", {}),
}
VERBS = sorted(set(ACTION_VERBS) | set(TALK_VERBS) | PHASE_VERBS | set(SIMPLE) |
               {"play", "react", "redirect", "block", "strike", "step", "total", "terms", "vote", "skip",
                "wait", "cancel", "wake", "effect", "transfer", "in", "out", "lock", "time", "note",
                "undo", "sync"})
MARKS = "+@=*:~^#!"
# Numbers are ASCII digits only: str.isdigit() and \d also accept "²" (int() fails on it)
# and "٣" (int() reads it as 3).
DIGITS = re.compile(r"[0-9]+")


@dataclass
class ParseError:
    """Why a line does not parse: the statement (0, 1, … of the line's `;`-separated ones)
    and the message (a `Message`, kept in `why`; `message` is its English text)."""
    statement: int
    message: str
    why: Message = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.why = as_message(self.message)
        self.message = self.why.render()

    def to_dict(self) -> dict[str, Any]:
        return {"error": self.message, "field": "line", "statement": self.statement}


class _Refused(ValueError):
    """A statement that does not parse (its message)."""

    def __init__(self, why: Message):
        super().__init__(why.render())
        self.why = why


def _tokens(text: str) -> list[str]:
    """The line's words; a quoted text is one token that keeps its opening quote (`"Hal`
    and `"terms` alike: a one-word text is free words, never part of a name before it)."""
    if text.count('"') % 2:
        raise _Refused(Message("recorder.notation-quote-not-closed", "an opening quote has no closing quote"))
    out = []
    for m in re.finditer(r'"([^"]*)"|[^\s"]+', text):
        out.append('"' + m.group(1) if m.group(0).startswith('"') else m.group(0))
    return out


def _is_mark(tok: str) -> bool:
    return bool(tok) and (tok[0] in MARKS or tok.startswith('"') or re.fullmatch(r"x[0-9]+", tok) is not None)


def parse_line(line: str, n_seats: int = 5, last_seq: int | None = None) -> list[dict[str, Any]] | ParseError:
    """Parse a quick-entry line into events (not yet validated: the API validates them)."""
    if not isinstance(line, str) or not line.strip():
        return ParseError(0, Message("recorder.notation-empty", "the line is empty"))
    if len(line) > 2000:
        return ParseError(0, Message("recorder.notation-too-long", "the line is too long"))
    out: list[dict[str, Any]] = []
    for i, statement in enumerate(s for s in line.split(";") if s.strip()):
        try:
            toks = _tokens(statement)
        except _Refused as exc:
            return ParseError(i, exc.why)
        result = _statement(toks, n_seats, last_seq)
        if isinstance(result, Message):
            return ParseError(i, Message("recorder.notation-statement", "“%(statement)s”: %(why)s",
                                         statement=statement.strip(), why=result))
        out.append(result)
    return out


def split_card_words(events: list[dict[str, Any]], library) -> list[dict[str, Any]]:
    """Free words typed after a card name without quotes (`2 pol Lodin +Kine Resources
    Contested Hal 2, Ivy 2`): the notation runs a name on to the next mark, so the card
    would be "Kine Resources Contested Hal 2, Ivy 2", which no card is. When the whole name
    is no library card (`library(name)` is None) but its first words are (the longest such
    start), the card is those words and the rest is free words: a political action's
    `terms` when none were given, else the entry's `text`. Other events are returned as
    they are."""
    out = []
    for e in events:
        name = e.get("card")
        if not isinstance(name, str) or library(name) is not None:
            out.append(e)
            continue
        words = name.split()
        for cut in range(len(words) - 1, 0, -1):
            if library(" ".join(words[:cut])) is None:
                continue
            rest = " ".join(words[cut:])
            e = dict(e, card=" ".join(words[:cut]))
            if e.get("type") == "action.declare" and e.get("action") == "political" and not e.get("terms"):
                e["terms"] = rest
            else:
                e["text"] = f"{e['text']} {rest}" if e.get("text") else rest
            break
        out.append(e)
    return out


def _statement(toks: list[str], n_seats: int, last_seq: int | None) -> dict[str, Any] | Message:
    seat = None
    if toks and DIGITS.fullmatch(toks[0]):
        seat = int(toks.pop(0))
        if not 1 <= seat <= n_seats:
            return Message("recorder.seat-out-of-range", "seat %(seat)s is out of range 1..%(n)s", seat=seat, n=n_seats)
    if not toks:
        return Message("recorder.notation-verb-missing", "a verb is missing after the seat")
    verb = toks[0].lower()
    if verb.startswith("+") and seat is not None:
        verb, rest = "play", toks
    else:
        rest = toks[1:]
    words, marks = _split(rest)
    if isinstance(marks, Message):
        return marks
    ev: dict[str, Any] = {}
    if seat is not None:
        ev["seat"] = seat
    name = " ".join(words) or None

    if verb in ACTION_VERBS:
        ev.update(type="action.declare", action=ACTION_VERBS[verb])
        if verb in ("act", "action") and "card" not in marks:
            ev["action"] = "other"
        if name:
            ev["minion"] = name
    elif verb in SIMPLE:
        etype, extra = SIMPLE[verb]
        ev.update(type=etype, **extra)
        if name and etype in ("judge.call", "misplay", "game.end"):
            ev["reason" if etype != "misplay" else "text"] = name
    elif verb in TALK_VERBS:
        ev.update(type="talk", kind=TALK_VERBS[verb])
        if name:
            ev["text"] = name
    elif verb in PHASE_VERBS and verb != "discard":  # "discard" is the discard phase action
        ev.update(type="phase", phase=verb)
    elif verb == "phase":
        if not name or name.lower() not in PHASE_VERBS:
            return Message("recorder.notation-phase-needs", "phase needs one of: %(phases)s", phases=", ".join(sorted(PHASE_VERBS)))
        ev.update(type="phase", phase=name.lower())
    elif verb in ("play", "react"):
        ev["type"] = "card.play" if verb == "play" else "reaction"
        if name:
            ev["minion"] = name
    elif verb == "redirect":
        ev["type"] = "action.redirect"   # the new target: @N; the card: +Deflection
        if name:
            ev["minion"] = name
    elif verb == "block":
        ev["type"] = "block.declare"
        if name:
            ev["minion"] = name
    elif verb == "strike":
        ev["type"] = "strike"
        if name:
            ev["strike"] = name
        if "amount" in marks:
            ev["damage"] = marks.pop("amount")
    elif verb == "step":
        ev.update(type="combat.step", step=(name or "").lower())
    elif verb == "total":
        ev["type"] = "bleed.total"
        if name and DIGITS.fullmatch(name):
            ev["amount"] = int(name)
    elif verb == "terms":
        ev.update(type="referendum.terms", terms=name or "as announced")
    elif verb == "vote":
        ev["type"] = "vote"
        rest_words = []
        for w in words:
            if DIGITS.fullmatch(w) and "amount" not in marks:
                marks["amount"] = int(w)
            elif w.lower() in ("for", "against", "abstain"):
                ev["side"] = w.lower()
            else:
                rest_words.append(w)
        if "amount" in marks:
            ev["votes"] = marks.pop("amount")
        if rest_words:
            ev["vampire"] = " ".join(rest_words)
    elif verb in ("skip", "shortcut"):
        to = marks.pop("window", None) or (name or "").lower()
        ev.update(type="shortcut", to=to)
    elif verb == "wait":
        ev["type"] = "interrupt"
    elif verb in ("cancel", "wake"):
        ev["type"] = "cancel"
        if verb == "wake":
            ev["wake"] = True
        if name:
            ev["minion"] = name
    elif verb == "effect":
        ev.update(type="effect", name=name or "effect")
    elif verb == "transfer":
        ev["type"] = "transfer"
        if name:
            ev["minion"] = name
    elif verb == "discard":
        ev["type"] = "discard"
    elif verb in ("in", "out"):
        ev.update(type="minion.in" if verb == "in" else "minion.out", minion=name)
    elif verb == "lock":
        ev["type"] = "minion.lock"
        if name:
            ev["minion"] = name
    elif verb == "time":
        sub = (words[0].lower() if words else "")
        if sub not in ("call", "pause", "resume", "extend", "start"):
            return Message("recorder.notation-time-needs", "time needs call, pause, resume, extend =N or start")
        ev.pop("seat", None)
        if sub == "start":
            ev["type"] = "game.start"
            if "amount" in marks:
                ev["limit_min"] = marks.pop("amount")
        else:
            ev["type"] = "time." + sub
        if sub == "extend":
            if "amount" not in marks:
                return Message("recorder.notation-extend-needs-minutes", "time extend needs the minutes, e.g. =2")
            ev["minutes"] = marks.pop("amount")
            if len(words) > 1:
                ev["reason"] = " ".join(words[1:])
    elif verb == "note":
        ev.update(type="note", text=name or marks.pop("text", ""))
    elif verb == "undo":
        target = marks.pop("seq", None) or last_seq
        if not target:
            return Message("recorder.notation-nothing-to-undo", "nothing to undo")
        ev = {"type": "retract", "target": target}
    elif verb == "sync":
        if not name or name.lower() not in PHASE_VERBS:
            return Message("recorder.notation-sync-needs-phase", "sync needs the phase, e.g. “3 sync minion”")
        ev.update(type="sync", phase=name.lower())
    else:
        return Message("recorder.notation-unknown-verb", "unknown verb “%(verb)s” (see the notation help)", verb=verb)
    return _apply_marks(ev, marks)


def _split(toks: list[str]) -> tuple[list[str], dict[str, Any] | Message]:
    """Plain words before the first mark, and the marks (names run over plain words)."""
    words: list[str] = []
    marks: dict[str, Any] = {}
    i = 0
    while i < len(toks) and not _is_mark(toks[i]):
        words.append(toks[i])
        i += 1
    while i < len(toks):
        tok = toks[i]
        i += 1
        follow: list[str] = []
        while i < len(toks) and not _is_mark(toks[i]):
            follow.append(toks[i])
            i += 1
        head, body = tok[0], tok[1:]
        long = " ".join([body] + follow).strip()
        if tok.startswith('"'):
            marks["text"] = (tok[1:] + (" " + " ".join(follow) if follow else "")).strip()
        elif re.fullmatch(r"x[0-9]+", tok):
            marks["x"] = int(tok[1:])
        elif head == "+":
            if not long:
                return words, Message("recorder.notation-card-missing", "a card name is missing after +")
            marks["card"] = long
        elif head == "^":
            marks["target_card"] = long
        elif head == "@":
            if DIGITS.fullmatch(body) and not follow:
                marks["target_seat"] = int(body)
            else:
                marks["target"] = long
        elif head == "=":
            m = re.fullmatch(r"([+-])?([0-9]+)", body)
            if not m:
                return words, Message("recorder.notation-not-a-number", "“%(token)s” is not a number", token=tok)
            if m.group(1):
                marks["bleed_change"] = int(body)
            else:
                marks["amount"] = int(m.group(2))
        elif head == "*":
            if not DIGITS.fullmatch(body):
                return words, Message("recorder.notation-not-stealth", "“%(token)s” is not a stealth number", token=tok)
            marks["stealth"] = int(body)
        elif head == "#":
            if not DIGITS.fullmatch(body):
                return words, Message("recorder.notation-not-seq", "“%(token)s” is not an event number", token=tok)
            marks["seq"] = int(body)
        elif head == ":":
            discs = [d for d in re.split(r"[:+]", body) if d]
            if not discs:
                return words, Message("recorder.notation-discipline-missing", "a discipline is missing after :")
            marks["discipline"] = discs if len(discs) > 1 else discs[0]
        elif head == "~":
            if body.lower() not in WINDOWS:
                return words, Message("recorder.notation-unknown-window", "unknown window “%(window)s” (one of: %(windows)s)", window=body, windows=", ".join(WINDOWS))
            marks["window"] = body.lower()
        elif head == "!":
            flag = body.lower()
            if flag not in ("wake", "unlocked", "unlisted"):
                return words, Message("recorder.notation-unknown-flag", "unknown flag “%(token)s” (!wake, !unlocked, !unlisted)", token=tok)
            marks[flag] = True
        if follow and head not in "+^@\"":
            words.extend(follow)  # plain words after a short mark belong to the statement
    return words, marks


def _apply_marks(ev: dict[str, Any], marks: dict[str, Any]) -> dict[str, Any]:
    t = ev["type"]
    for key, value in marks.items():
        if key == "unlocked":
            ev["locked"] = False
        elif key == "seq":
            ev["target_seq" if t == "cancel" else "finding_seq" if t == "ruling" else "target"] = value
        elif key == "window":
            ev["phase" if t in ("sync",) else "window"] = value
        elif key == "amount" and t == "transfer":
            ev["amount"] = value
        elif key == "amount" and t == "action.declare" and ev.get("action") == "bleed":
            ev["amount"] = value
        elif key == "text" and t == "action.declare" and ev.get("action") == "political":
            ev["terms"] = value   # `pol Anson +Kine Resources Contested "Hal 2, Ivy 2"`: the terms
        elif key == "text":
            ev["text"] = value
        else:
            ev[key] = value
    return ev
