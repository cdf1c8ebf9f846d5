"""Players checking themselves in from their own phones, with the code shown at the venue
(`judgekit.tournament.checkin`: a code that changes every ten minutes)."""
from __future__ import annotations

import secrets
import time
from typing import Any

from judgekit.errors import parse_int
from judgekit.tournament import checkin as checkin_mod
from judgekit.tournament import players as players_mod
from judgekit.tournament.store import base, registration
from judgekit.tournament.store.base import T_PLAYERS, T_TOURNAMENTS, TournamentError, get_tournament, players

MAX_CANDIDATES = 8


def open_checkin(db, tournament_id: Any) -> dict:
    """Open check-in by phone (a secret is drawn; already open: unchanged)."""
    t = get_tournament(db, tournament_id)
    if not t.get("checkin_secret"):
        db[T_TOURNAMENTS].update(t["id"], {"checkin_secret": secrets.token_hex(16)})
    return checkin_state(db, t["id"])


def close_checkin(db, tournament_id: Any) -> dict:
    """Close check-in by phone: every code shown so far stops working."""
    t = get_tournament(db, tournament_id)
    db[T_TOURNAMENTS].update(t["id"], {"checkin_secret": None})
    return checkin_state(db, t["id"])


def checkin_state(db, tournament_id: Any, now: float | None = None) -> dict:
    """`{"open", "code", "window", "valid_until", "path"}`: the code to show now and the
    path of the link the QR code carries (None when check-in by phone is closed)."""
    t = get_tournament(db, tournament_id)
    now = time.time() if now is None else now
    secret = t.get("checkin_secret")
    if not secret:
        return {"open": False, "code": None, "window": None, "valid_until": None, "path": None}
    w = checkin_mod.window(now)
    code = checkin_mod.code_for(secret, t["id"], w)
    return {"open": True, "code": code, "window": w, "valid_until": checkin_mod.valid_until(now),
            "path": f"/tournaments/{t['id']}/check-in?code={code}&w={w}"}


def _check_code(t: dict, code: Any, w: Any, now: float) -> None:
    secret = t.get("checkin_secret")
    if not secret:
        raise TournamentError(409, "Check-in by phone is not open for this event: please check in at the desk.")
    window = parse_int(w, 0) if w not in (None, "") else None
    if w not in (None, "") and window is None:
        raise TournamentError(403, "This check-in link is not right: scan the QR code shown at the venue again.",
                              "code")
    verdict = checkin_mod.check(secret, t["id"], code, now, window)
    if verdict == "expired":
        raise TournamentError(403, "This check-in link has expired (the code changes every "
                                   f"{checkin_mod.WINDOW_S // 60} minutes): scan the QR code at the venue "
                                   "again, or type the code shown there now.", "code", reason="expired")
    if verdict != "ok":
        raise TournamentError(403, "That is not the check-in code shown at the venue: check it and try again, "
                                   "or scan the QR code there.", "code", reason="wrong")


def find_player(db, tournament_id: int, who: Any) -> list[dict]:
    """The registered players `who` may be: an exact VEKN number, else the players each of
    whose typed words starts a word of their name (accents and case aside)."""
    if not isinstance(who, str) or not who.strip():
        raise TournamentError(400, "Type your VEKN number or your name.", "who")
    who = who.strip()[:80]
    everyone = players(db, tournament_id)
    number, problem = players_mod.parse_vekn(who)
    if number and not problem:
        return [p for p in everyone if p["vekn"] == number]
    typed = players_mod.fold(who)
    if len(typed.replace(" ", "")) < 2:
        raise TournamentError(400, "Type at least two letters of your name, or your VEKN number.", "who")
    # each word typed starts a word of the name: "ana" finds Ana Silva, not Tanaka
    words = typed.replace("-", " ").split()
    return [p for p in everyone
            if all(any(part.startswith(w) for part in players_mod.fold(p["name"]).replace("-", " ").split())
                   for w in words)]


def self_check_in(db, tournament_id: Any, code: Any, *, w: Any = None, who: Any = None,
                  player_id: Any = None, now: float | None = None) -> dict:
    """A player checks in from their phone with the venue's code (and the link's window
    `w`, when it came from the QR code). `who`: their VEKN number (checked in at once) or
    part of their name (the matching players are returned to choose from); `player_id`: the
    one they chose. Returns `{"status": "checked-in" | "already" | "choose", "player",
    "candidates"}`; a wrong or expired code, a dropped player or nobody found is an error
    saying what to do."""
    t = get_tournament(db, tournament_id)
    now = time.time() if now is None else now
    _check_code(t, code, w, now)
    if player_id not in (None, ""):
        pid = parse_int(player_id)
        found = [p for p in players(db, t["id"]) if p["id"] == pid]
        if not found:
            raise TournamentError(404, "That player is not registered here: please ask at the desk.", "player_id")
    else:
        found = find_player(db, t["id"], who)
        if not found:
            raise TournamentError(404, f"Nobody registered here matches {who.strip()[:80]!r}: check the spelling, "
                                       "try your VEKN number, or ask at the desk to register.", "who")
        number, problem = players_mod.parse_vekn(who.strip())
        if len(found) > 1 or not (number and not problem):
            if len(found) > MAX_CANDIDATES:
                raise TournamentError(400, f"{len(found)} players match {who.strip()[:80]!r}: type more of your "
                                           "name, or your VEKN number.", "who")
            return {"status": "choose", "player": None, "candidates": found}
    p = found[0]
    if p["id"] in base.disqualified_players(db, t["id"]) or p["dropped"]:
        raise TournamentError(409, f"{p['name']} is not playing on in this event: please ask at the desk.",
                              "player_id")
    if p["checked_in"]:
        return {"status": "already", "player": p, "candidates": [], "since": _checked_in_at(db, t["id"], p["id"])}
    p = registration.set_checked_in(db, t["id"], p["id"], True, by=p["name"], how="phone")
    return {"status": "checked-in", "player": p, "candidates": []}


def _checked_in_at(db, tournament_id: int, player_id: int) -> str | None:
    row = db.execute(f"select created_at from {base.T_PLAYER_CHANGES} where tournament_id = ? and player_id = ? "
                     "and kind = 'check-in' order by id desc limit 1", [tournament_id, player_id]).fetchone()
    if row:
        return row[0]
    row = db.execute(f"select created_at from {T_PLAYERS} where id = ?", [player_id]).fetchone()
    return row[0] if row else None
