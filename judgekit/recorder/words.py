"""The recorder's words for people: a log line for each event (`describe`), and the words
for windows, actions and seats that the engine's messages and state use too.

A judge reads these lines at the table, so they say what was said there — "Ben blocks with
Carlton Van Wyk", "Ben: no block", "Referendum passed (7 for, 3 against)" — never an
event type name. Pure functions of their arguments: no engine, no database, no Flask.

Every word goes through the translator `_` the caller passes (a catalog's `render`, see
`judgekit.i18n`; English by default): the ids are the English texts with `%(name)s`
parameters, the tables' words are marked `N_` and translated where they are used. So a
line is made in the reader's language when it is read (`judgekit.recorder.lines`).
"""
from __future__ import annotations

from typing import Any, Callable

from judgekit.game.cards import DISCIPLINES
from judgekit.i18n import N_, Message, Said, as_message, english

Translate = Callable[..., str]   # `_(msgid, **params)`: a catalog's render, or `english`

# A message made again from what was stored, or passed on: its code and text are not
# catalog entries written here (the catalog's extraction reads `Message(...)` calls).
_Again = Message


def say(message: Message, _: Translate = english, fallback: str | None = None) -> str:
    """A `Message` (a code with its English, as the engine's messages are) by the translator
    `_`, its parameters that are messages too; when `_` has no entry for its code,
    `fallback` (the English text as stored), else its English."""
    params = {k: say(as_message(v), _) if isinstance(v, (Message, Said)) else v for k, v in message.params.items()}
    text = _(message.code, **params)
    if text != message.code:
        return text
    return fallback if fallback is not None else _Again(message.code, message.english, **params).render()

# Windows in words, as a judge says them ("at the end of the minion phase").
WINDOW_WORDS = {
    "unlock": N_("the unlock phase"), "master": N_("the master phase"), "minion": N_("the minion phase"),
    "after-action": N_("after the action"), "minion-end": N_("the end of the minion phase"),
    "influence": N_("the influence phase"), "discard": N_("the discard phase"),
    "pre-range": N_("before range"), "range": N_("the range step"), "pre-strike": N_("before strikes"),
    "strike": N_("the strike step"), "damage": N_("the damage step"), "press": N_("the press step"),
}
# ... with the preposition that goes before it ("at the end of the minion phase").
_WINDOW_AT = {"after-action": N_("after the action"), "minion-end": N_("at the end of the minion phase"),
              "pre-range": N_("before range"), "pre-strike": N_("before strikes")}


def window_words(window: str | None, _: Translate = english) -> str:
    """"the end of the minion phase" for `minion-end`; the name itself if unknown."""
    return _(WINDOW_WORDS[window]) if window in WINDOW_WORDS else window or ""


def window_at(window: str | None, _: Translate = english) -> str:
    """"at the end of the minion phase", "in the master phase", "before range"."""
    if window in _WINDOW_AT:
        return _(_WINDOW_AT[window])
    return _("in %(window)s", window=window_words(window, _)) if window else ""


# An action in words: what the minion does ("Modius bleeds Ben for 2").
ACTION_VERBS = {"bleed": N_("bleeds"), "hunt": N_("hunts"), "equip": N_("equips"), "recruit": N_("recruits"),
                "employ": N_("employs"), "political": N_("takes a political action"),
                "leave-torpor": N_("leaves torpor"), "rescue": N_("rescues from torpor"),
                "diablerie": N_("commits diablerie"), "anarch": N_("becomes anarch"),
                "card": N_("takes an action"), "other": N_("takes an action")}
ACTION_NOUNS = {"bleed": N_("bleed"), "hunt": N_("hunt"), "equip": N_("equip"), "recruit": N_("recruit"),
                "employ": N_("employ"), "political": N_("political action"),
                "leave-torpor": N_("leave torpor"), "rescue": N_("rescue"), "diablerie": N_("diablerie"),
                "anarch": N_("becoming anarch"), "card": N_("action"), "other": N_("action")}
OUT_WORDS = {"oust": N_("ousted"), "withdraw": N_("withdrew"), "concede": N_("conceded")}
LEFT_WORDS = {"oust": N_("was ousted"), "withdraw": N_("withdrew"), "concede": N_("conceded")}   # "Ann ..."
TALK_WORDS = {"negotiate": N_("negotiates"), "question": N_("asks a question"), "answer": N_("answers"),
              "hypothetical": N_("speaks hypothetically"), "raised-voice": N_("raises their voice"),
              "slur": N_("uses a slur"), "physical-threat": N_("makes a physical threat")}
PRESS_WORDS = {"continue": N_("presses to continue"), "end": N_("presses to end combat"),
               "none": N_("no press")}
OUTCOME_WORDS = {"success": N_("succeeds"), "blocked": N_("is blocked"), "failed": N_("fails"),
                 "cancelled": N_("is cancelled")}


def seat_name(seat: int | None, names: list[str] | None = None, _: Translate = english) -> str:
    """The player's name ("Ann"); with a namesake at the table, "Ann (seat 3)"; "Seat 3"
    without names."""
    if seat is None:
        return _("someone")
    if names and 1 <= seat <= len(names) and names[seat - 1]:
        name = names[seat - 1]
        if sum(1 for n in names if n.casefold() == name.casefold()) > 1:
            return _("%(name)s (seat %(seat)s)", name=name, seat=seat)
        return name
    return _("Seat %(seat)s", seat=seat)


def discipline_words(discipline: Any, level: str | None = None, _: Translate = english) -> str:
    """"superior Dominate", "inferior Obfuscate and superior Presence", "Dominate"."""
    items = discipline if isinstance(discipline, list) else [discipline] if discipline else []
    out = []
    for code in items:
        name = DISCIPLINES.get(str(code).lower(), str(code))
        if level == "superior" or (not level and str(code).isupper()):
            out.append(_("superior %(discipline)s", discipline=name))
        elif level == "inferior" or not level:
            out.append(_("inferior %(discipline)s", discipline=name))
        else:
            out.append(f"{level} {name}")
    if not out and level:
        return _(level) if level in ("superior", "inferior") else level
    return (" " + _("and") + " ").join(out)


def _card_details(event: dict[str, Any], names, skip=(), _: Translate = english) -> list[str]:
    bits = []
    disc = discipline_words(event.get("discipline"), event.get("level"), _)
    if disc and "discipline" not in skip:
        bits.append(disc)
    if event.get("x") is not None:
        bits.append(_("X = %(x)s", x=event["x"]))
    if event.get("target") and "target" not in skip:
        bits.append(_("on %(target)s", target=event["target"]))
    if event.get("target_seat") and "target_seat" not in skip:
        bits.append(_("on %(target)s", target=seat_name(event["target_seat"], names, _)))
    if event.get("amount") is not None and "amount" not in skip:
        bits.append(str(event["amount"]))
    if event.get("bleed_change"):
        bits.append(_("bleed %(change)+d", change=event["bleed_change"]))
    if event.get("bleed_total") is not None:
        bits.append(_("bleed now %(total)s", total=event["bleed_total"]))
    if event.get("stealth") is not None and "stealth" not in skip:
        bits.append(_("stealth %(stealth)s", stealth=event["stealth"]))
    if event.get("wake"):
        bits.append(_("wakes to block"))
    if (event.get("window") or event.get("phase")) and "window" not in skip:
        bits.append(window_at(event.get("window") or event.get("phase"), _))
    return bits


def _paren(bits: list[str]) -> str:
    return f" ({', '.join(bits)})" if bits else ""


def action_words(action: str | None, minion: str | None, who: str, target: str | None = None,
                 amount: int | None = None, _: Translate = english) -> str:
    """"Modius bleeds Ben for 2"; "Ann hunts" without a minion."""
    subject = minion or who
    if action == "bleed":
        if target and amount is not None:
            return _("%(subject)s bleeds %(target)s for %(amount)s", subject=subject, target=target, amount=amount)
        if target:
            return _("%(subject)s bleeds %(target)s", subject=subject, target=target)
        if amount is not None:
            return _("%(subject)s bleeds for %(amount)s", subject=subject, amount=amount)
        return _("%(subject)s bleeds", subject=subject)
    verb = _(ACTION_VERBS.get(action or "", N_("takes an action")))
    if target:
        return _("%(subject)s %(verb)s against %(target)s", subject=subject, verb=verb, target=target)
    return _("%(subject)s %(verb)s", subject=subject, verb=verb)


def describe(event: dict[str, Any], names: list[str] | None = None,
             context: dict[str, Any] | None = None, _: Translate = english) -> str:
    """A one-line summary of an event for the log, in a judge's words.

    `names` are the seats' player names. `context` is optional, what the engine knew when it
    applied the event (`Engine.context`): `{"for": 7, "against": 3}` for a
    `referendum.result`, `{"action": "bleed"}` for an `action.result`, `{"turn": 3}` for a
    `turn.start`, `{"from_seat": 2}` for an `action.redirect` (the seat it was aimed at),
    `{"target_seat": 2}` for a bleed declared without one (the prey it is aimed at).
    Without it the line leaves those details out. Pure: the same arguments give the same
    line. `_` translates each word (English by default): the log is worded when it is read,
    in the reader's language."""
    line = _line(event, names, context or {}, _)
    if event.get("text") and event["type"] not in ("note", "misplay"):
        line += _(" — “%(text)s”", text=event["text"])
    return line


def _line(e: dict[str, Any], names, ctx: dict[str, Any], _: Translate) -> str:  # noqa: C901 - one case per type
    t = e["type"]
    seat = e.get("seat")
    who = seat_name(seat, names, _) if seat is not None else ""

    def whose(text: str) -> str:   # "Ann: no block"; the words alone without a seat
        return _("%(who)s: %(what)s", who=who, what=text) if who else text

    if t == "game.start":
        if e.get("limit_min"):
            return _("Clock started (%(minutes)s minutes)", minutes=e["limit_min"])
        return _("Clock started")
    if t == "sync":
        bits = [_("turn %(turn)s", turn=e["turn"])] if e.get("turn") else []
        bits.append(window_words(e.get("phase"), _))
        if e.get("ousted"):
            bits.append(_("ousted: %(seats)s", seats=", ".join(seat_name(s, names, _) for s in e["ousted"])))
        if e.get("edge"):
            bits.append(_("Edge: %(seat)s", seat=seat_name(e["edge"], names, _)))
        if e.get("board"):
            bits.append(_("board given"))
        if e.get("time_left_min") is not None:
            bits.append(_("%(minutes)s minutes left", minutes=_num(e["time_left_min"])))
        return _("Recording joins %(who)s's turn", who=who) + _paren(bits)
    if t == "turn.start":
        if ctx.get("turn"):
            return _("%(who)s starts turn %(turn)s", who=who, turn=ctx["turn"])
        return _("%(who)s starts a turn", who=who)
    if t == "phase":
        return whose(window_words(e["phase"], _))
    if t == "turn.end":
        return whose(_("end of turn"))
    if t in ("card.play", "interrupt", "action.redirect") or (t == "reaction" and e.get("card")):
        return _play_line(e, names, who, ctx, _)
    if t == "reaction":
        return _("%(who)s reacts", who=who) + _paren(_card_details(e, names, _=_))
    if t == "card.replace":
        if e.get("count") and e["count"] > 1:
            return _("%(who)s replaces %(count)s cards", who=who, count=e["count"])
        if e.get("card"):
            return _("%(who)s replaces %(card)s", who=who, card=e["card"])
        return _("%(who)s replaces the card", who=who)
    if t == "action.declare":
        return _declare_line(e, names, who, ctx, _)
    if t == "action.pass":
        return whose(_("any blocks?"))
    if t == "block.pass":
        return whose(_("no block"))
    if t == "block.declare":
        if e.get("minion"):
            return _("%(who)s blocks with %(minion)s", who=who, minion=e["minion"])
        return _("%(who)s blocks", who=who)
    if t == "block.result":
        return _("Blocked: combat") if e["blocked"] else _("The block fails")
    if t == "combat.step":
        return _("End of combat") if e["step"] == "end" else _("Combat: %(step)s", step=window_words(e["step"], _))
    if t == "strike":
        line = _("%(who)s strikes", who=who)
        if e.get("minion"):
            line = _("%(who)s: %(minion)s strikes", who=who, minion=e["minion"])
        if e.get("strike"):
            line = _("%(line)s: %(strike)s", line=line, strike=e["strike"])
        if e.get("card"):
            line = _("%(line)s with %(card)s", line=line, card=e["card"]) + \
                _paren(_card_details(e, names, skip=("amount",), _=_))
        if e.get("damage") is not None:
            line = _("%(line)s for %(damage)s", line=line, damage=e["damage"])
        return line
    if t == "press":
        return whose(_(PRESS_WORDS.get(e.get("press") or "continue", N_("press"))))
    if t == "action.result":
        noun = _(ACTION_NOUNS.get(ctx.get("action") or "", N_("action")))
        noun = noun[:1].upper() + noun[1:]
        outcome = _(OUTCOME_WORDS[e["outcome"]]) if e["outcome"] in OUTCOME_WORDS else e["outcome"]
        if e.get("amount") is not None and ctx.get("action") == "bleed":
            # "Bleed for 4 succeeds"
            return _("%(action)s for %(amount)s %(outcome)s", action=noun, amount=e["amount"], outcome=outcome)
        line = _("%(action)s %(outcome)s", action=noun, outcome=outcome)
        if e.get("amount") is not None:
            line += " " + _("(amount %(amount)s)", amount=e["amount"])
        return line
    if t == "bleed.total":
        return whose(_("the bleed is now %(amount)s", amount=e["amount"]))
    if t == "referendum.terms":
        terms = e.get("terms")
        if not terms or terms.strip().lower() in ("as announced", "terms as announced"):
            return whose(_("terms as announced"))
        return whose(_("terms: %(terms)s", terms=terms))
    if t == "vote":
        return _vote_line(e, who, _)
    if t == "referendum.result":
        line = _("Referendum passed") if e["passed"] else _("Referendum failed")
        yes = e["votes_for"] if e.get("votes_for") is not None else ctx.get("for")
        no = e["votes_against"] if e.get("votes_against") is not None else ctx.get("against")
        if yes is not None and no is not None:
            line += " " + _("(%(yes)s for, %(no)s against)", yes=yes, no=no)
        return line
    if t == "shortcut":
        return _("%(who)s goes on to %(window)s", who=who, window=window_words(e["to"], _))
    if t == "cancel":
        subject = _("%(who)s: %(minion)s", who=who, minion=e["minion"]) if e.get("minion") else who
        line = _("%(who)s wakes", who=subject) if e.get("wake") else _("%(who)s cancels", who=subject)
        aim = e.get("target_card") or (f"#{e['target_seq']}" if e.get("target_seq") else None)
        if aim:
            line = _("%(line)s against %(aim)s", line=line, aim=aim) if e.get("wake") else f"{line} {aim}"
        if e.get("card"):
            line = _("%(line)s with %(card)s", line=line, card=e["card"]) + _paren(_card_details(e, names, _=_))
        return line
    if t == "effect":
        bits = []
        if e.get("minion"):
            bits.append(e["minion"])
        if e.get("window") or e.get("phase"):
            bits.append(window_at(e.get("window") or e.get("phase"), _))
        return whose(e["name"]) + _paren(bits)
    if t == "transfer":
        n = e.get("amount")
        line = _("%(who)s transfers %(amount)s", who=who, amount=n) if n is not None else \
            _("%(who)s transfers", who=who)
        return _("%(line)s to %(minion)s", line=line, minion=e["minion"]) if e.get("minion") else line
    if t == "discard":
        if e.get("card"):
            return _("%(who)s discards %(card)s (discard phase action)", who=who, card=e["card"])
        return _("%(who)s discards (discard phase action)", who=who)
    if t == "minion.lock":
        if e.get("minion"):
            return _("%(who)s locks %(minion)s (no action named)", who=who, minion=e["minion"])
        return _("%(who)s locks a minion (no action named)", who=who)
    if t == "minion.in":
        return whose(_("%(minion)s comes into play", minion=e["minion"]))
    if t == "minion.out":
        return whose(_("%(minion)s leaves play", minion=e["minion"]))
    if t == "talk":
        kind = _(TALK_WORDS[e["kind"]]) if e["kind"] in TALK_WORDS else e["kind"]
        return _("%(who)s %(verb)s", who=who, verb=kind)
    if t == "talk.stop":
        return _("%(who)s stops the talk: decide now", who=who)
    if t == "oust":
        return _("%(who)s is ousted", who=who)
    if t == "withdraw":
        return _("%(who)s withdraws", who=who)
    if t == "concede":
        return _("%(who)s concedes", who=who)
    if t == "draw.intentional":
        return _("Intentional draw")
    if t == "game.end":
        return _("Game over: %(reason)s", reason=e["reason"]) if e.get("reason") else _("Game over")
    if t == "loop.mark":
        line = _("Loop mark: %(label)s", label=e["label"]) if e.get("label") else _("Loop mark")
        return line + (f" ({who})" if who else "")
    if t == "judge.call":
        line = _("Judge called by %(who)s", who=who) if who else _("Judge called")
        return _("%(line)s: %(reason)s", line=line, reason=e["reason"]) if e.get("reason") else line
    if t == "ruling":
        line = _("Ruling on #%(seq)s", seq=e["finding_seq"]) if e.get("finding_seq") else _("Ruling")
        return line + (f" ({who})" if who else "")
    if t == "misplay":
        line = _("Misplay by %(who)s", who=who) if who else _("Misplay")
        return _("%(line)s: %(text)s", line=line, text=e["text"]) if e.get("text") else line
    if t == "time.extend":
        line = _("Time extended by %(minutes)s minute", minutes=e["minutes"]) if e["minutes"] == 1 else \
            _("Time extended by %(minutes)s minutes", minutes=e["minutes"])
        return line + (f" ({e['reason']})" if e.get("reason") else "")
    if t == "time.pause":
        return _("Clock paused") + (f" ({e['reason']})" if e.get("reason") else "")
    if t == "time.resume":
        return _("Clock resumed")
    if t == "time.call":
        return _("Time called")
    if t == "note":
        if who:
            return _("Note (%(who)s): %(text)s", who=who, text=e.get("text", ""))
        return _("Note: %(text)s", text=e.get("text", ""))
    if t == "retract":
        return _("Takes back #%(seq)s", seq=e["target"]) + (f" ({e['reason']})" if e.get("reason") else "")
    if t == "amend":  # a correction: what it changes, not the object it carries
        changes = [_("%(field)s removed", field=key) if value is None else f"{key} → {_plain(value, _)}"
                   for key, value in (e.get("fields") or {}).items()]
        line = _("Correction of #%(seq)s", seq=e.get("target"))
        return line + (": " + ", ".join(changes) if changes else "")
    return whose(t)  # pragma: no cover - every type of the vocabulary has its line


def _play_line(e, names, who, ctx, _: Translate) -> str:
    t = e["type"]
    card = e.get("card")
    subject = _("%(who)s: %(minion)s", who=who, minion=e["minion"]) if e.get("minion") else who
    if t == "action.redirect":
        new = seat_name(e["target_seat"], names, _)
        line = _("%(who)s redirects the action to %(seat)s", who=subject, seat=new)
        if card:
            line = _("%(line)s with %(card)s", line=line, card=card) + \
                _paren(_card_details(e, names, skip=("target_seat",), _=_))
        if ctx.get("from_seat"):
            line += " " + _("(was aimed at %(seat)s)", seat=seat_name(ctx["from_seat"], names, _))
        return line
    if t == "interrupt":
        where = e.get("window") or e.get("phase")
        line = _("%(who)s: wait!", who=who) + (f" {window_at(where, _)}" if where else "")
        if card:
            line += " — " + _("plays %(card)s", card=card) + _paren(_card_details(e, names, skip=("window",), _=_))
        return line
    if t == "reaction":
        return _("%(who)s reacts with %(card)s", who=subject, card=card) + _paren(_card_details(e, names, _=_))
    return _("%(who)s plays %(card)s", who=subject, card=card) + _paren(_card_details(e, names, _=_))


def _declare_line(e, names, who, ctx, _: Translate) -> str:
    action = e.get("action")
    aim = e.get("target_seat") or ctx.get("target_seat")
    target = seat_name(aim, names, _) if aim else None
    amount = e.get("bleed_total") if e.get("bleed_total") is not None else e.get("amount")
    line = _("%(who)s: %(what)s", who=who, what=action_words(action, e.get("minion"), who, target,
                                                               amount if action == "bleed" else None, _))
    if e.get("card"):
        line = _("%(line)s with %(card)s", line=line, card=e["card"])
    bits = _card_details(e, names, skip=("target_seat", "stealth") + (("amount",) if action == "bleed" else ()), _=_)
    if e.get("stealth") is not None:
        bits.append(_("stealth %(stealth)s", stealth=e["stealth"]))
    if e.get("terms"):
        bits.append(_("terms: %(terms)s", terms=e["terms"]))
    elif e.get("terms_choice"):
        bits.append(_("terms to choose"))
    if e.get("locked") is False:
        bits.append(_("not locked yet"))
    if e.get("directed") is True and action != "bleed" and not target:
        bits.append(_("directed"))
    return line + _paren(bits)


def _vote_line(e, who, _: Translate) -> str:
    votes, side = e.get("votes"), e.get("side")
    if side == "abstain":
        return _("%(who)s abstains", who=who) + _paren([e["vampire"]] if e.get("vampire") else [])
    if votes is None and side is None:
        line = _("%(who)s votes (no number, no side)", who=who)
    elif votes is None:
        line = _("%(who)s votes %(side)s (no number)", who=who, side=side)
    elif votes == 1:
        line = _("%(who)s: 1 vote %(side)s", who=who, side=side) if side else _("%(who)s: 1 vote (no side)", who=who)
    else:
        line = _("%(who)s: %(votes)s votes %(side)s", who=who, votes=votes, side=side) if side else \
            _("%(who)s: %(votes)s votes (no side)", who=who, votes=votes)
    extra = []
    if e.get("vampire"):
        extra.append(e["vampire"])
    if e.get("burn_edge"):
        extra.append(_("burns the Edge"))
    if e.get("available") is not None:
        extra.append(_("of %(available)s available", available=e["available"]))
    return line + _paren(extra)


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _plain(value: Any, _: Translate = english) -> str:
    """A field's value in a line for people (lists and objects without JSON brackets)."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return "/".join(_plain(v, _) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v, _)}" for k, v in value.items())
    return str(value)
