"""Decklists in SQLite: registration, corrections, deck checks, publication (no Flask).

Records are append-only: a list once received is locked (6.3); a judge's correction is a new
row that points at the list it replaces, with its reason. A deck check is a row; the penalty
it leads to is the penalties area's record (`penalties.store.issue`), linked here; the time
it took goes to the table as an extension (`penalties.extensions.extend`). A client-made
`client_id` makes a retried POST store one row.

Refusals raise `DeckError` (an `AppError`: a 4xx with a message; the web layer answers it).
"""
from __future__ import annotations

import json
import random
import secrets
import sqlite3
from datetime import datetime, timezone
from typing import Any

from judgekit.db import first_row, transaction
from judgekit.decks import parse as parse_mod
from judgekit.decks import validate as validate_mod
from judgekit.errors import AppError, parse_int
from judgekit.i18n import Message, Said
from judgekit.tournament.penalties import extensions as extensions_mod
from judgekit.tournament.penalties import store as penalties_store
from judgekit.tournament.store import base, finals
from judgekit.tournament.store import tables as table_store

MIN_REASON = 5
MAX_DIFF = 1000
PROPOSED = 3                    # players proposed for a check each round
PENALTIES = ("illegal-main-deck-legal-decklist", "illegal-decklist")   # ids in both catalogs


class DeckError(AppError):
    """A refused decklist request: status, message, field, extra (e.g. the unknown cards)."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# --------------------------------------------------------------------------- settings

def settings(db, tournament_id: Any) -> dict:
    """The event's decklist settings (made on first use: the mode, and the secret that seeds
    each round's draw of players to check)."""
    t = base.get_tournament(db, tournament_id)
    row = first_row(db, "select * from deck_settings where tournament_id = ?", [t["id"]])
    if row is None:
        mode = "limited" if (t.get("format") or "").lower() == "limited" else "constructed"
        db.execute("insert or ignore into deck_settings (tournament_id, secret, mode, created_at) values (?, ?, ?, ?)",
                   [t["id"], secrets.token_hex(16), mode, now()])
        row = first_row(db, "select * from deck_settings where tournament_id = ?", [t["id"]])
    return row


def set_mode(db, tournament_id: Any, mode: Any) -> dict:
    if mode not in validate_mod.MODES:
        raise DeckError(400, Message("decks.bad-mode", "mode must be one of %(modes)s", modes=", ".join(validate_mod.MODES)), "mode")
    s = settings(db, tournament_id)
    db.execute("update deck_settings set mode = ? where tournament_id = ?", [mode, s["tournament_id"]])
    return settings(db, tournament_id)


# --------------------------------------------------------------------------- lists

def _row(row: dict | None) -> dict | None:
    if row is None:
        return None
    row["entries"] = json.loads(row["entries"])
    row["problems"] = json.loads(row["problems"])
    return row


def current(db, tournament_id: int, player_id: int) -> dict | None:
    """The list in force for a player (the last correction, else the submission), or None."""
    return _row(first_row(db, "select * from decklists where tournament_id = ? and player_id = ? "
                              "order by id desc limit 1", [tournament_id, player_id]))


def history(db, tournament_id: int, player_id: int) -> list[dict]:
    return [_row(r) for r in db.query("select * from decklists where tournament_id = ? and player_id = ? "
                                      "order by id", [tournament_id, player_id])]


def check_text(db, tournament_id: Any, text: Any) -> dict:
    """Read and check a list without storing it: `{"parsed", "problems", "blocking"}`
    (`blocking`: it cannot be received as it is: unreadable, or a line names no card)."""
    mode = settings(db, tournament_id)["mode"]
    parsed = parse_mod.parse(text)
    problems = validate_mod.validate(parsed, mode)
    return {"parsed": parsed.to_dict(), "problems": problems, "mode": mode,
            "blocking": bool(parsed.error or parsed.unknown)}


def _readable(db, tournament_id: int, text: Any) -> tuple[parse_mod.Parsed, list[dict]]:
    mode = settings(db, tournament_id)["mode"]
    parsed = parse_mod.parse(text)
    problems = validate_mod.validate(parsed, mode)
    if parsed.error:
        status = {"too-long": 413, "no-card-list": 503}.get(parsed.error["code"], 422)
        raise DeckError(status, parse_mod.message(parsed.error), "text", code=parsed.error["code"])
    if parsed.unknown:
        names = "; ".join(p["message"] for p in problems if p["code"] == "unknown-card")
        raise DeckError(422, Message("decks.unknown-cards", "Nothing was stored: fix the lines that name no card. %(lines)s",
                                     lines=names), "text",
                        code="unknown-card", unknown=parsed.unknown, problems=problems)
    return parsed, problems


def _clean_client_id(value: Any) -> str | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str) or len(value) > 100:
        raise DeckError(400, Message("decks.client-id-too-long", "client_id must be a short text."), "client_id")
    return value


def _by_client_id(db, tournament_id: int, client_id: str | None) -> dict | None:
    if client_id is None:
        return None
    return _row(first_row(db, "select * from decklists where tournament_id = ? and client_id = ?",
                          [tournament_id, client_id]))


def _insert(db, rec: dict) -> dict:
    try:
        with transaction(db):
            rid = db["decklists"].insert(rec).last_pk
    except sqlite3.IntegrityError:
        raise DeckError(409, Message("decks.locked-meanwhile", "This player's decklist was received meanwhile: it is locked."),
                        "text") from None
    return _row(first_row(db, "select * from decklists where id = ?", [rid]))


def _replayed(db, tournament_id: int, player_id: int, cid: str | None, text: Any) -> dict | None:
    """The row a resent request stored already (same client_id, player and text), or None;
    a client_id used for another list is refused (409)."""
    again = _by_client_id(db, tournament_id, cid)
    if again is None or (again["player_id"] == player_id and again["text"] == text):
        return again
    raise DeckError(409, Message("decks.client-id-used", "client_id already used for another list."), "client_id")


def _resent(db, tournament_id: Any, player_id: Any, client_id: Any, text: Any):
    """What a submit or a correction starts with: the tournament, the player, the cleaned
    client id, and the row this same request already stored (a resend) or None."""
    t = base.get_tournament(db, tournament_id)
    p = base.get_player(db, t["id"], player_id)
    cid = _clean_client_id(client_id)
    return t, p, cid, _replayed(db, t["id"], p["id"], cid, text)


def submit(db, tournament_id: Any, player_id: Any, text: Any, *, by: str, how: str,
           client_id: Any = None) -> tuple[dict, bool]:
    """Receive a player's list (from their link, or entered by the organizer). Returns (the
    stored row, duplicate). Refused: a second list (409: locked, a judge corrects it), a
    list that cannot be read or names unknown cards (422, nothing stored), one too long
    (413), a player's own link once round 1 has begun (409)."""
    t, p, cid, again = _resent(db, tournament_id, player_id, client_id, text)
    if again is not None:
        return again, True
    have = current(db, t["id"], p["id"])
    if have is not None:
        raise DeckError(409, Message("decks.locked", "%(player)s's decklist was received on %(time)s and is locked (6.3): "
                                     "a judge may correct it, with a reason.", player=p["name"], time=have["time"]),
                        "text", code="locked")
    if how == "player-link" and base.rounds(db, t["id"]):
        raise DeckError(409, Message("decks.closed", "Round 1 has begun: decklists are no longer taken from players' "
                                     "phones. Ask a judge."), "text", code="closed")
    parsed, problems = _readable(db, t["id"], text)
    rec = {"tournament_id": t["id"], "player_id": p["id"], "kind": "submit", "refers_to": None,
           "text": text, "entries": json.dumps([e.to_dict() for e in parsed.entries]),
           "problems": json.dumps(problems), "by": by, "how": how, "reason": None, "time": now(),
           "client_id": cid}
    return _insert(db, rec), False


def correct(db, tournament_id: Any, player_id: Any, text: Any, reason: Any, *, judge: str,
            client_id: Any = None) -> tuple[dict, bool]:
    """A judge's correction of a received list: a new row pointing at the one it replaces."""
    t, p, cid, again = _resent(db, tournament_id, player_id, client_id, text)
    if again is not None:
        return again, True
    reason = reason.strip() if isinstance(reason, str) else ""
    if len(reason) < MIN_REASON:
        raise DeckError(400, Message("decks.reason-too-short", "Say why the list is corrected (at least %(n)s characters).",
                                     n=MIN_REASON), "reason")
    have = current(db, t["id"], p["id"])
    if have is None:
        raise DeckError(409, Message("decks.nothing-to-correct", "%(player)s has no decklist to correct: register one first.",
                                     player=p["name"]), "text")
    parsed, problems = _readable(db, t["id"], text)
    rec = {"tournament_id": t["id"], "player_id": p["id"], "kind": "correct", "refers_to": have["id"],
           "text": text, "entries": json.dumps([e.to_dict() for e in parsed.entries]),
           "problems": json.dumps(problems), "by": judge, "how": "judge", "reason": reason[:1000],
           "time": now(), "client_id": cid}
    return _insert(db, rec), False


def overview(db, tournament_id: Any) -> dict:
    """Every player and their list's state: `{"players": [...], "missing": [...], "mode"}`."""
    t = base.get_tournament(db, tournament_id)
    s = settings(db, t["id"])
    latest = {}
    for r in db.query("select player_id, kind, time, by, problems from decklists where id in "
                      "(select max(id) from decklists where tournament_id = ? group by player_id)", [t["id"]]):
        r["problems"] = json.loads(r["problems"])
        latest[r["player_id"]] = r
    out, missing = [], []
    for p in base.players(db, t["id"]):
        lst = latest.get(p["id"])
        row = {"player_id": p["id"], "name": p["name"], "vekn": p["vekn"], "dropped": p["dropped"],
               "received": lst["time"] if lst else None, "corrected": bool(lst and lst["kind"] == "correct"),
               "problems": lst["problems"] if lst else [], "by": lst["by"] if lst else None}
        out.append(row)
        if lst is None and not p["dropped"]:
            missing.append(row)
    return {"players": out, "missing": missing, "mode": s["mode"]}


# --------------------------------------------------------------------------- deck checks

def round_players(db, tournament_id: int, number: Any) -> list[dict]:
    r = table_store.round_detail(db, tournament_id, number, games=False)
    return [{"player_id": s["player_id"], "name": s["name"], "table": t["number"], "round": r["number"],
             "status": r["status"]} for t in r["tables"] for s in t["seats"]]


def checks(db, tournament_id: int, number: Any = None) -> list[dict]:
    sql, args = "select * from deck_checks where tournament_id = ?", [tournament_id]
    if number is not None:
        sql, args = sql + " and round = ?", args + [number]
    rows = db.query(sql + " order by id", args)
    out = []
    for r in rows:
        r["penalties"] = [x["penalty_id"] for x in db.query(
            "select penalty_id from deck_check_penalties where check_id = ? order by penalty_id", [r["id"]])]
        out.append(r)
    return out


def proposals(db, tournament_id: Any, number: Any, k: int = PROPOSED) -> dict:
    """The players proposed for a check in round `number`: drawn at random (the same draw
    every time the page is opened) among the round's players with a list who were never
    checked; `players`: everyone in the round, for a judge who chooses someone else."""
    t = base.get_tournament(db, tournament_id)
    s = settings(db, t["id"])
    seated = round_players(db, t["id"], number)
    n = seated[0]["round"] if seated else parse_int(number)
    checked = {c["player_id"] for c in checks(db, t["id"])}
    listed = {r["player_id"] for r in db.query("select distinct player_id from decklists where tournament_id = ?",
                                               [t["id"]])}
    pool = [p for p in seated if p["player_id"] not in checked and p["player_id"] in listed]
    rng = random.Random(f"{s['secret']}:{n}")
    chosen = sorted(rng.sample(pool, min(k, len(pool))), key=lambda p: p["table"])
    return {"round": n, "proposed": chosen, "players": seated, "checked": sorted(checked)}


def counted_differences(registered: list[dict], counted: Any) -> list[dict]:
    """What differs between a registered list and the deck a judge counted, pasted as a list
    (refused as a list is: unreadable, unknown cards, too long)."""
    parsed = parse_mod.parse(counted)
    if parsed.error:
        raise DeckError(413 if parsed.error["code"] == "too-long" else 422, parse_mod.message(parsed.error), "counted")
    if parsed.unknown:
        u = parsed.unknown[0]
        if u["suggestions"]:
            raise DeckError(422, Message("decks.counted-unknown-card-near", "The counted deck's line %(line)s names no card: "
                                         "\"%(text)s\" (nearest: %(near)s)", line=u["line"], text=u["text"],
                                         near=", ".join(u["suggestions"])), "counted")
        raise DeckError(422, Message("decks.counted-unknown-card", "The counted deck's line %(line)s names no card: "
                                     "\"%(text)s\"", line=u["line"], text=u["text"]), "counted")
    return validate_mod.compare(registered, [e.to_dict() for e in parsed.entries])


def differences_text(diff: list[dict]) -> str:
    return "; ".join(f"{d['name']}: {d['registered']} on the list, {d['seen']} in the deck" for d in diff)


def record_check(db, tournament_id: Any, number: Any, player_id: Any, outcome: Any, *, judge: str,
                 differences: Any = None, minutes: Any = None, chosen: bool = False,
                 client_id: Any = None, counted: Any = None) -> dict:
    """Record a deck check in an open round: `outcome` "matches" or "differs" (then
    `differences` says what), or `counted`: the deck as the judge counted it, pasted as a
    list, compared card by card with the registered one (the outcome and the differences
    follow from it; in a limited event the registered list is the cards received, and the
    deck differs only where it holds a card not received or more copies than received). `minutes`: the judge time it took, given to the player's table as an
    extension (`extension`: the table's clock, or `extension_refused`: why not)."""
    t = base.get_tournament(db, tournament_id)
    cid = _clean_client_id(client_id)
    if cid is not None:
        again = first_row(db, "select * from deck_checks where tournament_id = ? and client_id = ?", [t["id"], cid])
        if again is not None:
            return {"check": again, "duplicate": True}
    seated = {p["player_id"]: p for p in round_players(db, t["id"], number)}
    pid = parse_int(player_id)
    if pid not in seated:
        raise DeckError(404, Message("decks.not-in-round", "Player %(player)s does not play in round %(round)s.",
                                     player=player_id, round=number), "player")
    seat = seated[pid]
    if seat["status"] != "open":
        raise DeckError(409, Message("decks.round-closed", "Round %(round)s is closed: record checks in an open round.",
                                     round=seat["round"]), "round")
    lst = current(db, t["id"], pid)
    if lst is None:
        raise DeckError(409, Message("decks.no-list-to-check", "%(player)s has no registered decklist to check against.",
                                     player=seat["name"]), "player")
    diff = differences.strip()[:MAX_DIFF] if isinstance(differences, str) else ""
    if isinstance(counted, str) and counted.strip():
        found = counted_differences(lst["entries"], counted)
        if settings(db, t["id"])["mode"] == "limited":
            # the list registers the cards received (7.2.3): a deck uses some of them; only
            # a card not received, or more copies than received, differs
            found = [d for d in found if d["seen"] > d["registered"]]
        outcome = "differs" if found else "matches"
        diff = "; ".join(x for x in (differences_text(found), diff) if x)[:MAX_DIFF] if found else diff
    if outcome not in ("matches", "differs"):
        raise DeckError(400, Message("decks.bad-outcome", "outcome is \"matches\" or \"differs\"."), "outcome")
    if outcome == "differs" and not diff:
        raise DeckError(400, Message("decks.say-what-differs", "Say what differs from the registered list."), "differences")
    mins = None
    if minutes not in (None, ""):
        mins = parse_int(minutes, 0, extensions_mod.MAX_MINUTES)
        if mins is None:
            raise DeckError(400, Message("decks.bad-minutes", "minutes: a whole number from 0 to %(max)s.",
                                         max=extensions_mod.MAX_MINUTES), "minutes")
    out: dict[str, Any] = {"duplicate": False}
    seq = None
    if mins:
        ext = extensions_mod.extend(db, t["id"], seat["round"], seat["table"],
                                    {"minutes": mins, "reason": f"deck check of {seat['name']}",
                                     "client_id": f"deck-check:{cid or secrets.token_hex(8)}"}, judge=judge)
        if isinstance(ext, penalties_store.Refused):
            # worded where shown: one problem keeps its message, several are their English text
            out["extension_refused"] = Said(ext.said) if isinstance(ext.said, Message) else ext.message
        else:
            seq = ext.event.get("seq")
            out["extension"] = ext.clock
    rec = {"tournament_id": t["id"], "round": seat["round"], "table_no": seat["table"], "player_id": pid,
           "decklist_id": lst["id"], "outcome": outcome, "differences": diff or None, "minutes": mins,
           "extension_seq": seq, "chosen": 1 if chosen else 0, "judge": judge, "time": now(), "client_id": cid}
    with transaction(db):
        rid = db["deck_checks"].insert(rec).last_pk
    out["check"] = first_row(db, "select * from deck_checks where id = ?", [rid])
    out["check"]["name"] = seat["name"]
    return out


def get_check(db, tournament_id: int, check_id: Any) -> dict:
    row = first_row(db, "select * from deck_checks where tournament_id = ? and id = ?",
                    [tournament_id, parse_int(check_id)])
    if row is None:
        raise DeckError(404, Message("decks.no-check", "no deck check %(id)s", id=check_id))
    return row


def penalize(db, tournament_id: Any, check_id: Any, infraction: Any, *, judge: str, role: str):
    """The penalty a check leads to, issued through the penalties area (its catalog, its
    escalation, its approvals) and linked to the check. Returns the penalties area's
    `Stored` or `Refused`; a second tap stores nothing new (the same client id)."""
    t = base.get_tournament(db, tournament_id)
    c = get_check(db, t["id"], check_id)
    if infraction not in PENALTIES:
        raise DeckError(400, Message("decks.bad-infraction", "infraction: one of %(ids)s", ids=", ".join(PENALTIES)), "infraction")
    what = c["differences"] or "the deck differs from its registered list"
    res = penalties_store.issue(db, t["id"], {
        "player": c["player_id"], "infraction": infraction, "round": c["round"], "table": c["table_no"],
        "description": f"Deck check, round {c['round']}: {what}"[:1000],
        "client_id": f"deck-check:{c['id']}:{infraction}"}, judge=judge, role=role)
    if isinstance(res, penalties_store.Stored):
        db.execute("insert or ignore into deck_check_penalties (check_id, penalty_id, time) values (?, ?, ?)",
                   [c["id"], res.record["id"], now()])
    return res


# --------------------------------------------------------------------------- after the event

def event_over(db, tournament_id: int) -> dict:
    """The event's results (`finished`: a winner is known), or not finished before any round."""
    t = base.get_tournament(db, tournament_id)
    if (t["has_final"] and not t.get("finalists")) or not base.rounds(db, t["id"]):
        return {"finished": False, "winner": None, "rows": []}   # no final yet: not over
    return finals.results(db, t["id"])


def publish(db, tournament_id: Any, *, by: str) -> list[dict]:
    """Publish the winner's and the finalists' lists (once the event is over)."""
    t = base.get_tournament(db, tournament_id)
    res = event_over(db, t["id"])
    if not res["finished"]:
        raise DeckError(409, Message("decks.not-over", "The event is not over: decklists stay with the judges until it ends."))
    rows = [r for r in res["rows"] if r.get("finish") in ("winner", "finalist")]
    if not rows and res["winner"] is not None:
        rows = [r for r in res["rows"] if r["player_id"] == res["winner"]]
        for r in rows:
            r["finish"] = "winner"
    with transaction(db):
        for r in rows:
            lst = current(db, t["id"], r["player_id"])
            if lst is not None:
                db.execute("insert or ignore into deck_publications (tournament_id, player_id, decklist_id, finish, "
                           "by, time) values (?, ?, ?, ?, ?, ?)",
                           [t["id"], r["player_id"], lst["id"], r["finish"], by, now()])
    return published(db, t["id"])


def published(db, tournament_id: Any) -> list[dict]:
    """The published lists, the winner first, each with its TWDA text."""
    t = base.get_tournament(db, tournament_id)
    names = {p["id"]: p["name"] for p in base.players(db, t["id"])}
    count = len([p for p in base.players(db, t["id"])])
    out = []
    for r in db.query("select p.*, d.entries from deck_publications p join decklists d on d.id = p.decklist_id "
                      "where p.tournament_id = ? order by p.finish = 'winner' desc, p.id", [t["id"]]):
        entries = json.loads(r["entries"])
        text = parse_mod.twda_text(entries, player=names.get(r["player_id"]), event=t["name"],
                                   place=t.get("city") or t.get("location"), players_count=count,
                                   date=t.get("date"))
        out.append({"player_id": r["player_id"], "name": names.get(r["player_id"]), "finish": r["finish"],
                    "published_at": r["time"], "twda": text})
    return out
