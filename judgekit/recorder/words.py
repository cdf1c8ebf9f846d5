"""The recorder's words for people: a log line for each event (`describe`), and the words
for windows, actions and seats that the engine's messages and state use too.

A judge reads these lines at the table, so they say what was said there — "Ben blocks with
Carlton Van Wyk", "Ben: no block", "Referendum passed (7 for, 3 against)" — never an
event type name. Pure functions of their arguments: no engine, no database, no Flask.
"""
from __future__ import annotations

from typing import Any
from judgekit.game.cards import DISCIPLINES

# Windows in words, as a judge says them ("at the end of the minion phase").
WINDOW_WORDS = {
    "unlock": "the unlock phase", "master": "the master phase", "minion": "the minion phase",
    "after-action": "after the action", "minion-end": "the end of the minion phase",
    "influence": "the influence phase", "discard": "the discard phase",
    "pre-range": "before range", "range": "the range step", "pre-strike": "before strikes",
    "strike": "the strike step", "damage": "the damage step", "press": "the press step",
}
# ... with the preposition that goes before it ("at the end of the minion phase").
_WINDOW_AT = {"after-action": "after the action", "minion-end": "at the end of the minion phase",
              "pre-range": "before range", "pre-strike": "before strikes"}


def window_words(window: str | None) -> str:
    """"the end of the minion phase" for `minion-end`; the name itself if unknown."""
    return WINDOW_WORDS.get(window or "", window or "")


def window_at(window: str | None) -> str:
    """"at the end of the minion phase", "in the master phase", "before range"."""
    if window in _WINDOW_AT:
        return _WINDOW_AT[window]
    return "in " + window_words(window) if window else ""


# An action in words: what the minion does ("Modius bleeds Ben for 2").
ACTION_VERBS = {"bleed": "bleeds", "hunt": "hunts", "equip": "equips", "recruit": "recruits",
                "employ": "employs", "political": "takes a political action",
                "leave-torpor": "leaves torpor", "rescue": "rescues from torpor",
                "diablerie": "commits diablerie", "anarch": "becomes anarch",
                "card": "takes an action", "other": "takes an action"}
ACTION_NOUNS = {"bleed": "bleed", "hunt": "hunt", "equip": "equip", "recruit": "recruit",
                "employ": "employ", "political": "political action",
                "leave-torpor": "leave torpor", "rescue": "rescue", "diablerie": "diablerie",
                "anarch": "becoming anarch", "card": "action", "other": "action"}
OUT_WORDS = {"oust": "ousted", "withdraw": "withdrew", "concede": "conceded"}
LEFT_WORDS = {"oust": "was ousted", "withdraw": "withdrew", "concede": "conceded"}   # "Ann ..."
TALK_WORDS = {"negotiate": "negotiates", "question": "asks a question", "answer": "answers",
              "hypothetical": "speaks hypothetically", "raised-voice": "raises their voice",
              "slur": "uses a slur", "physical-threat": "makes a physical threat"}
PRESS_WORDS = {"continue": "presses to continue", "end": "presses to end combat",
               "none": "no press"}
OUTCOME_WORDS = {"success": "succeeds", "blocked": "is blocked", "failed": "fails",
                 "cancelled": "is cancelled"}


def seat_name(seat: int | None, names: list[str] | None = None) -> str:
    """The player's name ("Ann"); with a namesake at the table, "Ann (seat 3)"; "Seat 3"
    without names."""
    if seat is None:
        return "someone"
    if names and 1 <= seat <= len(names) and names[seat - 1]:
        name = names[seat - 1]
        if sum(1 for n in names if n.casefold() == name.casefold()) > 1:
            return f"{name} (seat {seat})"
        return name
    return f"Seat {seat}"


def discipline_words(discipline: Any, level: str | None = None) -> str:
    """"superior Dominate", "inferior Obfuscate and superior Presence", "Dominate"."""
    items = discipline if isinstance(discipline, list) else [discipline] if discipline else []
    out = []
    for code in items:
        name = DISCIPLINES.get(str(code).lower(), str(code))
        if level:
            out.append(f"{level} {name}")
        else:
            out.append(("superior " if str(code).isupper() else "inferior ") + name)
    if not out and level:
        return level
    return " and ".join(out)


def _card_details(event: dict[str, Any], names, skip=()) -> list[str]:
    bits = []
    disc = discipline_words(event.get("discipline"), event.get("level"))
    if disc and "discipline" not in skip:
        bits.append(disc)
    if event.get("x") is not None:
        bits.append(f"X = {event['x']}")
    if event.get("target") and "target" not in skip:
        bits.append(f"on {event['target']}")
    if event.get("target_seat") and "target_seat" not in skip:
        bits.append(f"on {seat_name(event['target_seat'], names)}")
    if event.get("amount") is not None and "amount" not in skip:
        bits.append(str(event["amount"]))
    if event.get("bleed_change"):
        bits.append(f"bleed {event['bleed_change']:+d}")
    if event.get("bleed_total") is not None:
        bits.append(f"bleed now {event['bleed_total']}")
    if event.get("stealth") is not None and "stealth" not in skip:
        bits.append(f"stealth {event['stealth']}")
    if event.get("wake"):
        bits.append("wakes to block")
    if (event.get("window") or event.get("phase")) and "window" not in skip:
        bits.append(window_at(event.get("window") or event.get("phase")))
    return bits


def _paren(bits: list[str]) -> str:
    return f" ({', '.join(bits)})" if bits else ""


def action_words(action: str | None, minion: str | None, who: str, target: str | None = None,
                 amount: int | None = None) -> str:
    """"Modius bleeds Ben for 2"; "Ann hunts" without a minion."""
    subject = minion or who
    verb = ACTION_VERBS.get(action or "", "takes an action")
    if action == "bleed":
        line = f"{subject} bleeds" + (f" {target}" if target else "")
        return line + (f" for {amount}" if amount is not None else "")
    return f"{subject} {verb}" + (f" against {target}" if target else "")


def describe(event: dict[str, Any], names: list[str] | None = None,
             context: dict[str, Any] | None = None) -> str:
    """A one-line summary of an event for the log, in a judge's words.

    `names` are the seats' player names. `context` is optional, what the engine knew when it
    applied the event (`Engine.context`): `{"for": 7, "against": 3}` for a
    `referendum.result`, `{"action": "bleed"}` for an `action.result`, `{"turn": 3}` for a
    `turn.start`, `{"from_seat": 2}` for an `action.redirect` (the seat it was aimed at),
    `{"target_seat": 2}` for a bleed declared without one (the prey it is aimed at).
    Without it the line leaves those details out. Pure: the same arguments give the same
    line, so a summary can be computed once, when the event is stored."""
    line = _line(event, names, context or {})
    if event.get("text") and event["type"] not in ("note", "misplay"):
        line += f" — “{event['text']}”"
    return line


def _line(e: dict[str, Any], names, ctx: dict[str, Any]) -> str:  # noqa: C901 - one case per type
    t = e["type"]
    seat = e.get("seat")
    who = seat_name(seat, names) if seat is not None else ""
    whose = f"{who}: " if who else ""
    if t == "game.start":
        return "Clock started" + (f" ({e['limit_min']} minutes)" if e.get("limit_min") else "")
    if t == "sync":
        bits = [f"turn {e['turn']}"] if e.get("turn") else []
        bits.append(window_words(e.get("phase")))
        if e.get("ousted"):
            bits.append("ousted: " + ", ".join(seat_name(s, names) for s in e["ousted"]))
        if e.get("edge"):
            bits.append(f"Edge: {seat_name(e['edge'], names)}")
        if e.get("board"):
            bits.append("board given")
        if e.get("time_left_min") is not None:
            bits.append(f"{_num(e['time_left_min'])} minutes left")
        return f"Recording joins {who}'s turn" + _paren(bits)
    if t == "turn.start":
        return f"{who} starts turn {ctx['turn']}" if ctx.get("turn") else f"{who} starts a turn"
    if t == "phase":
        return f"{whose}{window_words(e['phase'])}"
    if t == "turn.end":
        return f"{whose}end of turn"
    if t in ("card.play", "interrupt", "action.redirect") or (t == "reaction" and e.get("card")):
        return _play_line(e, names, who, ctx)
    if t == "reaction":
        return f"{who} reacts" + _paren(_card_details(e, names))
    if t == "card.replace":
        if e.get("count") and e["count"] > 1:
            return f"{who} replaces {e['count']} cards"
        return f"{who} replaces " + (e["card"] if e.get("card") else "the card")
    if t == "action.declare":
        return _declare_line(e, names, who, ctx)
    if t == "action.pass":
        return f"{whose}any blocks?"
    if t == "block.pass":
        return f"{whose}no block"
    if t == "block.declare":
        return f"{who} blocks with {e['minion']}" if e.get("minion") else f"{who} blocks"
    if t == "block.result":
        return "Blocked: combat" if e["blocked"] else "The block fails"
    if t == "combat.step":
        return "End of combat" if e["step"] == "end" else f"Combat: {window_words(e['step'])}"
    if t == "strike":
        line = f"{who} strikes"
        if e.get("minion"):
            line = f"{who}: {e['minion']} strikes"
        if e.get("strike"):
            line += f": {e['strike']}"
        if e.get("card"):
            line += f" with {e['card']}" + _paren(_card_details(e, names, skip=("amount",)))
        if e.get("damage") is not None:
            line += f" for {e['damage']}"
        return line
    if t == "press":
        return f"{whose}{PRESS_WORDS.get(e.get('press') or 'continue', 'press')}"
    if t == "action.result":
        noun = ACTION_NOUNS.get(ctx.get("action") or "", "action").capitalize()
        outcome = OUTCOME_WORDS.get(e['outcome'], e['outcome'])
        if e.get("amount") is not None and ctx.get("action") == "bleed":
            return f"{noun} for {e['amount']} {outcome}"     # "Bleed for 4 succeeds"
        line = f"{noun} {outcome}"
        if e.get("amount") is not None:
            line += f" (amount {e['amount']})"
        return line
    if t == "bleed.total":
        return f"{whose}the bleed is now {e['amount']}"
    if t == "referendum.terms":
        terms = e.get("terms")
        if not terms or terms.strip().lower() in ("as announced", "terms as announced"):
            return f"{whose}terms as announced"
        return f"{whose}terms: {terms}"
    if t == "vote":
        return _vote_line(e, who)
    if t == "referendum.result":
        line = "Referendum passed" if e["passed"] else "Referendum failed"
        yes = e["votes_for"] if e.get("votes_for") is not None else ctx.get("for")
        no = e["votes_against"] if e.get("votes_against") is not None else ctx.get("against")
        if yes is not None and no is not None:
            line += f" ({yes} for, {no} against)"
        return line
    if t == "shortcut":
        return f"{who} goes on to {window_words(e['to'])}"
    if t == "cancel":
        verb = "wakes" if e.get("wake") else "cancels"
        line = f"{who} {verb}"
        if e.get("minion"):
            line = f"{who}: {e['minion']} {verb}"
        aim = e.get("target_card") or (f"#{e['target_seq']}" if e.get("target_seq") else None)
        if aim:
            line += f" against {aim}" if e.get("wake") else f" {aim}"
        if e.get("card"):
            line += f" with {e['card']}" + _paren(_card_details(e, names))
        return line
    if t == "effect":
        bits = []
        if e.get("minion"):
            bits.append(e["minion"])
        if e.get("window") or e.get("phase"):
            bits.append(window_at(e.get("window") or e.get("phase")))
        return f"{whose}{e['name']}" + _paren(bits)
    if t == "transfer":
        n = e.get("amount")
        line = f"{who} transfers" + (f" {n}" if n is not None else "")
        return line + (f" to {e['minion']}" if e.get("minion") else "")
    if t == "discard":
        return f"{who} discards" + (f" {e['card']}" if e.get("card") else "") + " (discard phase action)"
    if t == "minion.lock":
        return f"{who} locks " + (e["minion"] if e.get("minion") else "a minion") + " (no action named)"
    if t == "minion.in":
        return f"{whose}{e['minion']} comes into play"
    if t == "minion.out":
        return f"{whose}{e['minion']} leaves play"
    if t == "talk":
        return f"{who} {TALK_WORDS.get(e['kind'], e['kind'])}"
    if t == "talk.stop":
        return f"{who} stops the talk: decide now"
    if t == "oust":
        return f"{who} is ousted"
    if t == "withdraw":
        return f"{who} withdraws"
    if t == "concede":
        return f"{who} concedes"
    if t == "draw.intentional":
        return "Intentional draw"
    if t == "game.end":
        return "Game over" + (f": {e['reason']}" if e.get("reason") else "")
    if t == "loop.mark":
        return "Loop mark" + (f": {e['label']}" if e.get("label") else "") + (f" ({who})" if who else "")
    if t == "judge.call":
        return "Judge called" + (f" by {who}" if who else "") + (f": {e['reason']}" if e.get("reason") else "")
    if t == "ruling":
        return "Ruling" + (f" on #{e['finding_seq']}" if e.get("finding_seq") else "") + (f" ({who})" if who else "")
    if t == "misplay":
        return "Misplay" + (f" by {who}" if who else "") + (f": {e['text']}" if e.get("text") else "")
    if t == "time.extend":
        line = f"Time extended by {e['minutes']} minute" + ("s" if e["minutes"] != 1 else "")
        return line + (f" ({e['reason']})" if e.get("reason") else "")
    if t == "time.pause":
        return "Clock paused" + (f" ({e['reason']})" if e.get("reason") else "")
    if t == "time.resume":
        return "Clock resumed"
    if t == "time.call":
        return "Time called"
    if t == "note":
        return f"Note{' (' + who + ')' if who else ''}: {e.get('text', '')}"
    if t == "retract":
        return f"Takes back #{e['target']}" + (f" ({e['reason']})" if e.get("reason") else "")
    if t == "amend":  # a correction: what it changes, not the object it carries
        changes = [f"{key} removed" if value is None else f"{key} → {_plain(value)}"
                   for key, value in (e.get("fields") or {}).items()]
        return f"Correction of #{e.get('target')}" + (": " + ", ".join(changes) if changes else "")
    return f"{whose}{t}"  # pragma: no cover - every type of the vocabulary has its line


def _play_line(e, names, who, ctx) -> str:
    t = e["type"]
    card = e.get("card")
    subject = f"{who}: {e['minion']}" if e.get("minion") else who
    if t == "action.redirect":
        new = seat_name(e["target_seat"], names)
        line = f"{subject} redirects the action to {new}"
        if card:
            line += f" with {card}" + _paren(_card_details(e, names, skip=("target_seat",)))
        if ctx.get("from_seat"):
            line += f" (was aimed at {seat_name(ctx['from_seat'], names)})"
        return line
    if t == "interrupt":
        where = e.get("window") or e.get("phase")
        line = f"{who}: wait!" + (f" {window_at(where)}" if where else "")
        if card:
            line += f" — plays {card}" + _paren(_card_details(e, names, skip=("window",)))
        return line
    verb = "reacts with" if t == "reaction" else "plays"
    return f"{subject} {verb} {card}" + _paren(_card_details(e, names))


def _declare_line(e, names, who, ctx) -> str:
    action = e.get("action")
    aim = e.get("target_seat") or ctx.get("target_seat")
    target = seat_name(aim, names) if aim else None
    amount = e.get("bleed_total") if e.get("bleed_total") is not None else e.get("amount")
    line = f"{who}: " + action_words(action, e.get("minion"), who, target,
                                     amount if action == "bleed" else None)
    if e.get("card"):
        line += f" with {e['card']}"
    bits = _card_details(e, names, skip=("target_seat", "stealth") + (("amount",) if action == "bleed" else ()))
    if e.get("stealth") is not None:
        bits.append(f"stealth {e['stealth']}")
    if e.get("terms"):
        bits.append(f"terms: {e['terms']}")
    elif e.get("terms_choice"):
        bits.append("terms to choose")
    if e.get("locked") is False:
        bits.append("not locked yet")
    if e.get("directed") is True and action != "bleed" and not target:
        bits.append("directed")
    return line + _paren(bits)


def _vote_line(e, who) -> str:
    votes, side = e.get("votes"), e.get("side")
    if side == "abstain":
        return f"{who} abstains" + _paren([e["vampire"]] if e.get("vampire") else [])
    if votes is None and side is None:
        line = f"{who} votes (no number, no side)"
    elif votes is None:
        line = f"{who} votes {side} (no number)"
    else:
        line = f"{who}: {votes} vote{'s' if votes != 1 else ''} " + (side or "(no side)")
    extra = []
    if e.get("vampire"):
        extra.append(e["vampire"])
    if e.get("burn_edge"):
        extra.append("burns the Edge")
    if e.get("available") is not None:
        extra.append(f"of {e['available']} available")
    return line + _paren(extra)


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _plain(value: Any) -> str:
    """A field's value in a line for people (lists and objects without JSON brackets)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "/".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return str(value)
