"""Which game a penalty lands in: a Standings Adjustment (v1: a Game Loss) is −1 VP in one
game (judges' guide v2 §1.1.3). The tournament store decides the game from the phase the
penalty was given in (`judgekit.tournament.adjustments`, `store.resolve_records`); this
module is the penalties area's side: which records are adjustments, where they land, what
the judge is told when one is issued, and whether a head judge's move is possible.

No Flask; callers pass the catalog lookup (`effect_of`: record -> its level's effect), so
this module does not import the penalties store back.
"""
from __future__ import annotations

from typing import Callable, Iterable

from judgekit.i18n import Message
from judgekit.tournament.store import adjusted

MIN_MOVE_REASON = 5  # characters: why an SA moves to another game

EffectOf = Callable[[dict], "str | None"]


def adjustments_among(recs: Iterable[dict], effect_of: EffectOf) -> list[dict]:
    """The issued records whose level costs VP in one game (effect "vp-1")."""
    return [r for r in recs if r.get("kind", "issue") == "issue" and effect_of(r) == "vp-1"]


def applies_to(db, tournament_id: int, recs: Iterable[dict], effect_of: EffectOf) -> dict:
    """record id -> the game each Standings Adjustment among `recs` (replayed records)
    applies to (`adjustments.Target`); other penalties are left out."""
    sas = adjustments_among(recs, effect_of)
    return adjusted.resolve_records(db, tournament_id, sas) if sas else {}


def issue_notes(rec: dict, applies: dict | None, disqualified: set) -> list[Message]:
    """What the judge should know about where a new Standings Adjustment lands."""
    if applies is None:
        return []
    notes = []
    if rec.get("player") in disqualified:
        notes.append(Message("penalties.note-disqualified", "%(name)s is disqualified and not ranked; the "
                             "adjustment still counts in the game it applies to, so the other players' GW "
                             "and TP there follow.", name=rec["player_name"]))
    if applies["round"] is None:
        notes.append(Message("penalties.note-no-game", "This adjustment applies to no game for now: %(note)s.",
                             note=applies["note"]))
    else:
        notes.append(Message("penalties.note-applies", "It applies to %(where)s (%(note)s): −1 VP there, and "
                             "that game's GW and TP follow.", where=applies["where"], note=applies["note"]))
    return notes


def move_problem(db, tournament_id: int, target: dict, move: dict,
                 effect_of: EffectOf) -> tuple[int, str, Message] | None:
    """Why the head judge's `move` ({round, table, reason}) of `target` cannot be stored —
    `(status, field, message)` — or None: it must be a Standings Adjustment of a player of
    the event, with a reason, to a game the player played other than the one it applies to."""
    if effect_of(target) != "vp-1":
        return (409, "refers_to", Message(
            "penalties.move-not-sa", "Record %(id)s is a %(penalty)s: only a Standings Adjustment (v1: Game "
            "Loss) applies to one game.", id=target["id"], penalty=target.get("penalty") or Message("penalties.remedy", "remedy")))
    if target.get("player") is None:
        return (409, "refers_to", Message(
            "penalties.move-unregistered", "%(name)s is not a player of the event: the adjustment applies "
            "to no game.", name=target.get("player_name")))
    if len(move.get("reason") or "") < MIN_MOVE_REASON:
        return (400, "reason", Message(
            "penalties.move-why-words", "Write why the adjustment moves to another game (a few words at least)."))
    games = adjusted.player_games(db, tournament_id, [target["player"]]).get(target["player"], {})
    listing = ", ".join(f"round {r} table {tb}" for r, tb in sorted(games.items())) or "none"
    if games.get(move["round"]) != move["table"]:
        return (409, "table", Message(
            "penalties.move-not-played", "%(name)s did not play round %(round)s, table %(table)s: their games "
            "are %(games)s.", name=target.get("player_name"), round=move["round"], table=move["table"],
            games=listing))
    now_at = adjusted.resolve_records(db, tournament_id, [target])[target["id"]]
    if (now_at.round, now_at.table) == (move["round"], move["table"]):
        return (409, "table", Message(
            "penalties.move-same-game", "Record %(id)s already applies to round %(round)s, table %(table)s.",
            id=target["id"], round=move["round"], table=move["table"]))
    return None
