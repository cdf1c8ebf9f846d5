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
from judgekit.i18n import Message

MAX_CANDIDATES = 8


def _final_begun() -> Message:
    return Message("tournament.checkin-final-begun", "The final has begun: check-in by phone is closed.")


def open_checkin(db, tournament_id: Any) -> dict:
    """Open check-in by phone (a secret is drawn; already open: unchanged). Refused (409)
    once the final has begun: nobody can join then."""
    t = get_tournament(db, tournament_id)
    if t.get("finalists"):
        raise TournamentError(409, _final_begun())
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
    if not secret or t.get("finalists"):   # the final has begun: closed, whatever was open
        return {"open": False, "code": None, "window": None, "valid_until": None, "path": None,
                "final_begun": bool(t.get("finalists"))}
    w = checkin_mod.window(now)
    code = checkin_mod.code_for(secret, t["id"], w)
    return {"open": True, "code": code, "window": w, "valid_until": checkin_mod.valid_until(now),
            "path": f"/tournaments/{t['id']}/check-in?code={code}&w={w}"}


def _check_code(t: dict, code: Any, w: Any, now: float) -> None:
    secret = t.get("checkin_secret")
    if t.get("finalists"):
        raise TournamentError(409, Message("tournament.checkin-final-begun-desk", "The final has begun: check-in by "
                                           "phone is closed. Ask at the desk."))
    if not secret:
        raise TournamentError(409, Message("tournament.check-in-by-phone-not", "Check-in by phone is not open for this event: please check in at the desk."))
    window = parse_int(w, 0) if w not in (None, "") else None
    if w not in (None, "") and window is None:
        raise TournamentError(403, Message("tournament.this-check-in-link-not", "This check-in link is not right: scan the QR code shown at the venue again."),
                              "code")
    verdict = checkin_mod.check(secret, t["id"], code, now, window)
    if verdict == "expired":
        raise TournamentError(403, Message("tournament.this-check-in-link-has", "This check-in link has expired (the code changes every %(value)s minutes): scan the QR code at the venue again, or type the code shown there now.", value=checkin_mod.WINDOW_S // 60), "code", reason="expired")
    if verdict != "ok":
        raise TournamentError(403, Message("tournament.that-not-check-in-code", "That is not the check-in code shown at the venue: check it and try again, or scan the QR code there."), "code", reason="wrong")


def find_player(db, tournament_id: int, who: Any) -> list[dict]:
    """The registered players `who` may be: an exact VEKN number, else the players each of
    whose typed words starts a word of their name (accents and case aside)."""
    if not isinstance(who, str) or not who.strip():
        raise TournamentError(400, Message("tournament.type-your-vekn-number-or", "Type your VEKN number or your name."), "who")
    who = who.strip()[:80]
    everyone = players(db, tournament_id)
    number, problem = players_mod.parse_vekn(who)
    if number and not problem:
        return [p for p in everyone if p["vekn"] == number]
    typed = players_mod.fold(who)
    if len(typed.replace(" ", "")) < 2:
        raise TournamentError(400, Message("tournament.type-at-least-two-letters", "Type at least two letters of your name, or your VEKN number."), "who")
    # each word typed starts a word of the name: "ana" finds Ana Silva, not Tanaka
    words = typed.replace("-", " ").split()
    return [p for p in everyone
            if all(any(part.startswith(w) for part in players_mod.fold(p["name"]).replace("-", " ").split())
                   for w in words)]


def self_check_in(db, tournament_id: Any, code: Any, *, w: Any = None, who: Any = None,
                  player_id: Any = None, now: float | None = None, device: str | None = None,
                  judge: str | None = None) -> dict:
    """A player checks in from their phone with the venue's code (and the link's window
    `w`, when it came from the QR code). `who`: their VEKN number (checked in at once) or
    part of their name (the matching players are returned to choose from); `player_id`: the
    one they chose. Returns `{"status": "checked-in" | "already" | "choose", "player",
    "candidates"}`; a wrong or expired code, a dropped player or nobody found is an error
    saying what to do. `device` (the phone's address, logged with the check-in) checks in
    one player: a second player checks in on their own phone, or with a judge (a 409 says
    so), so one photo of the code cannot check in everyone. `judge`: the name of a judge
    signed in on that device, who may check in anyone (logged as theirs)."""
    t = get_tournament(db, tournament_id)
    now = time.time() if now is None else now
    _check_code(t, code, w, now)
    if player_id not in (None, ""):
        pid = parse_int(player_id)
        found = [p for p in players(db, t["id"]) if p["id"] == pid]
        if not found:
            raise TournamentError(404, Message("tournament.that-player-not-registered-here", "That player is not registered here: please ask at the desk."), "player_id")
    else:
        found = find_player(db, t["id"], who)
        if not found:
            raise TournamentError(404, Message("tournament.nobody-registered-here-matches-check", "Nobody registered here matches %(value)s: check the spelling, try your VEKN number, or ask at the desk to register.", value=repr(who.strip()[:80])), "who")
        number, problem = players_mod.parse_vekn(who.strip())
        if len(found) > 1 or not (number and not problem):
            if len(found) > MAX_CANDIDATES:
                raise TournamentError(400, Message("tournament.players-match-type-more-your", "%(count)s players match %(value)s: type more of your name, or your VEKN number.", count=len(found), value=repr(who.strip()[:80])), "who")
            return {"status": "choose", "player": None, "candidates": found}
    p = found[0]
    if p["id"] in base.disqualified_players(db, t["id"]) or p["dropped"]:
        raise TournamentError(409, Message("tournament.not-playing-on-in-this", "%(name)s is not playing on in this event: please ask at the desk.", name=p['name']),
                              "player_id")
    if p["checked_in"]:
        return {"status": "already", "player": p, "candidates": [], "since": _checked_in_at(db, t["id"], p["id"])}
    def one_per_device(db, player: dict) -> None:   # in the check-in's own write transaction
        other = device_checked_in(db, t["id"], device)
        if other is not None and other["player_id"] != player["id"]:
            raise TournamentError(409, Message("tournament.this-phone-has-already-checked", "This phone has already checked in %(name)s: each player checks in on their own phone. %(name2)s can scan the code on theirs, or ask a judge at the desk.", name=other['name'], name2=player['name']), "who", reason="one-per-device")
    p = registration.set_checked_in(db, t["id"], p["id"], True, by=judge or p["name"], how="phone",
                                    device=device, before=one_per_device if device and not judge else None)
    return {"status": "checked-in", "player": p, "candidates": []}


def device_checked_in(db, tournament_id: int, device: str | None) -> dict | None:
    """The player a device checked in by phone first at this event (`{"player_id", "name",
    "at"}`), or None."""
    if not device:
        return None
    row = db.execute(f"select c.player_id, p.name, c.created_at from {base.T_PLAYER_CHANGES} c "
                     f"join {T_PLAYERS} p on p.id = c.player_id where c.tournament_id = ? and c.kind = 'check-in' "
                     "and c.how = 'phone' and c.device = ? and c.by = p.name order by c.id limit 1",
                     [tournament_id, device]).fetchone()
    return {"player_id": row[0], "name": row[1], "at": row[2]} if row else None


def phone_check_ins(db, tournament_id: Any) -> list[dict]:
    """Who checked in by phone and from where, oldest first: `{"player_id", "name", "at",
    "device", "by", "shared"}` (`by`: the player, or the judge signed in on that phone;
    `shared`: how many players that device checked in: more than one only with a judge)."""
    t = get_tournament(db, tournament_id)
    rows = db.execute(f"select c.player_id, p.name, c.created_at, c.device, c.by from {base.T_PLAYER_CHANGES} c "
                      f"join {T_PLAYERS} p on p.id = c.player_id where c.tournament_id = ? and c.kind = 'check-in' "
                      "and c.how = 'phone' order by c.id", [t["id"]]).fetchall()
    per_device: dict[str, set] = {}
    for r in rows:
        per_device.setdefault(r[3] or "?", set()).add(r[0])
    return [{"player_id": r[0], "name": r[1], "at": r[2], "device": r[3] or "unknown", "by": r[4],
             "shared": len(per_device[r[3] or "?"])} for r in rows]


def _checked_in_at(db, tournament_id: int, player_id: int) -> str | None:
    row = db.execute(f"select created_at from {base.T_PLAYER_CHANGES} where tournament_id = ? and player_id = ? "
                     "and kind = 'check-in' order by id desc limit 1", [tournament_id, player_id]).fetchone()
    if row:
        return row[0]
    row = db.execute(f"select created_at from {T_PLAYERS} where id = ?", [player_id]).fetchone()
    return row[0] if row else None
