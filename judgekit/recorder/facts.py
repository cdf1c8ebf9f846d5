"""Card facts for the recorder page's forms: what a minion or a library card lets the page
pre-fill (a vampire's bleed and votes, what a card asks its player to declare, which event
a card makes). Pure functions of the card index: no engine, no database, no Flask.

The engine's state (`seats[].minions`) and the `/api/cards/facts` answer both come from
here, so the page reads one shape whatever told it the name.
"""
from __future__ import annotations

from typing import Any, Callable

# Imbued creeds (the crypt cards that are not vampires).
IMBUED_CREEDS = {"Avenger", "Defender", "Innocent", "Judge", "Martyr", "Redeemer", "Visionary"}

# A library card type -> the action it is played as (the `action` of `action.declare`).
ACTION_OF_TYPE = {"Political Action": "political", "Action": "card", "Equipment": "equip",
                  "Ally": "recruit", "Retainer": "employ"}


def minion_facts(name: str, crypt: Callable[[str], Any], library: Callable[[str], Any]) -> dict[str, Any]:
    """What the card facts say about a minion: `kind` ("vampire", "imbued", "ally",
    "retainer", "card" for another library card, or None when the name is not in the card
    list), `title`, `votes`, `bleed` (its bleed amount: 2 for a +1 bleed vampire),
    `stealth` (its stealth bonus), `strength` (a vampire's: 1 + its bonus; None when the
    facts do not say), `capacity`, `clan`. `crypt`/`library` look a name up."""
    out: dict[str, Any] = {"name": name, "kind": None, "title": None, "votes": 0,
                           "bleed": 1, "stealth": 0, "strength": None, "capacity": None, "clan": None}
    vampire = crypt(name)
    if vampire is not None:
        clan = getattr(vampire, "clan", None)
        out.update(kind="imbued" if getattr(vampire, "capacity", None) is not None
                   and clan in IMBUED_CREEDS else "vampire",
                   title=getattr(vampire, "title", None) or None,
                   votes=int(getattr(vampire, "votes", 0) or 0),
                   bleed=1 + int(getattr(vampire, "bleed_bonus", 0) or 0),
                   stealth=int(getattr(vampire, "stealth_bonus", 0) or 0),
                   strength=1 + int(getattr(vampire, "strength_bonus", 0) or 0),
                   capacity=getattr(vampire, "capacity", None), clan=clan)
        return out
    lib = library(name)
    if lib is not None:
        types = [str(x).lower() for x in (getattr(lib, "types", ()) or ())]
        out["kind"] = "ally" if "ally" in types else "retainer" if "retainer" in types else "card"
    return out


def card_facts(card) -> dict[str, Any]:
    """A library card's facts for the page: `types`, `action` (what `action.declare` it
    is, when it is an action card: "political", "card", "equip", "recruit", "employ"),
    `needs` (what its player must declare: "discipline", "level", "x", "target", "amount"),
    `disciplines` and `levels` (`{"dom": ["inferior", "superior"]}`), `bonuses` (bleed or
    stealth at each level: `{"dom": {"bleed": 2}}`), `step` (the window its text fixes,
    e.g. "after-blocks-declined"), `delays_replacement`, and the costs."""
    types = list(card.types or ())
    return {"name": card.name, "kind": "library", "types": types,
            "action": next((ACTION_OF_TYPE[t] for t in types if t in ACTION_OF_TYPE), None),
            "needs": list(card.needs or ()), "disciplines": list(card.disciplines or ()),
            "levels": {k: list(v) for k, v in (card.levels or {}).items()},
            "bonuses": dict(card.bonuses or {}), "step": card.step,
            "delays_replacement": bool(card.delays_replacement),
            "pool_cost": card.pool_cost, "blood_cost": card.blood_cost}


def facts(cards, name: str, kind: str | None = None) -> dict[str, Any] | None:
    """The facts of one name for the page: a minion's (`minion_facts`, for a crypt card or an
    ally; `kind="minion"` asks for that reading) or a library card's (`card_facts`); None
    when the card list has no such name."""
    if not isinstance(name, str) or not name.strip():
        return None
    if kind != "library":
        found = minion_facts(name, cards.crypt, cards.library)
        if found["kind"] in ("vampire", "imbued", "ally", "retainer") or kind == "minion":
            return found if found["kind"] is not None else None
    lib = cards.library(name)
    return card_facts(lib) if lib is not None else None
