"""Penalty records in SQLite (table `penalty_records`), append-only.

Every write is one function (`issue`, `approve`, `lift`, `amend`) that checks the record
with the pure domain (`records.check_record`, `escalation.propose`) and stores one row, or
returns a `Refused` value saying why (with the problems per field); nothing raises for bad
input. A row is never updated or deleted: an amendment, a lift or an approval is a new row
pointing at the penalty (`refers_to`). The server sets `time`; a client-made `client_id`
(unique per tournament) makes a retried POST store one row (same content: the stored row is
returned; other content under the same id: refused).

What the head judge must see (SA, DQ, deviations) is stored at once and waits for an
approval; a head judge or organizer who issues such a penalty approves it by issuing it.
What a penalty does to the standings is its level's `effect` in the catalog ("vp-1": a
Standings Adjustment, v1's Game Loss; "remove": a Disqualification), applied once approved
(`standing_adjustments`, `disqualified_players`: the hooks the tournament store calls).

A tournament's catalog is its `catalog` column (None: the default catalog, v2).
The answers (`Refused`, `Stored`) and the cleaning of a request's fields are in
`penalties.cleaning` (re-exported here). No Flask here.
"""
from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any


from judgekit.auth import roles
from judgekit.db import transaction
from judgekit.errors import parse_int
from judgekit.i18n import Message
from judgekit import outbox
from judgekit.tournament.store import adjusted, registration
from judgekit.tournament.store import base as tbase
from judgekit.tournament.store import tables as table_store
from judgekit.tournament.penalties.catalog import (Catalog, catalogs_dir, default_catalog,
                                                   load_catalogs)
from judgekit.tournament.penalties import games
from judgekit.tournament.penalties.deviation import Proposal, head_judge_reasons, needs_head_judge
from judgekit.tournament.penalties.escalation import propose
from judgekit.tournament.penalties.export import (penalties_csv, penalties_json,
                                                  penalty_report, player_report)
from judgekit.tournament.penalties.cleaning import MAX_TEXT, RULE_RE, Refused, Stored  # noqa: F401 (interface)
from judgekit.tournament.penalties.cleaning import Bad as _Bad
from judgekit.tournament.penalties.cleaning import flag as _flag
from judgekit.tournament.penalties.cleaning import refused as _refused
from judgekit.tournament.penalties.cleaning import rule as _rule
from judgekit.tournament.penalties.cleaning import text as _text
from judgekit.tournament.penalties.cleaning import whole as _int
from judgekit.tournament.penalties.records import (STATUS_LIFTED, check_record,
                                                   for_finding, replay)
from judgekit.recorder import store as rstore

T_RECORDS = "penalty_records"

# record field -> column (SQL keywords avoided)
_COLUMNS = {"tournament": "tournament_id", "table": "table_no"}
_STORED = ("kind", "refers_to", "tournament", "round", "table", "game", "event", "player",
           "player_name", "vekn", "judge", "judge_role", "catalog", "infraction", "variant",
           "penalty", "proposed", "description", "rule", "time", "approved_by",
           "approval_reason", "reason", "client_id", "finding", "phase")

def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# --- catalogs -------------------------------------------------------------------------------

@lru_cache(maxsize=4)
def _catalogs(directory: str) -> dict[str, Catalog]:
    return load_catalogs(Path(directory))


def catalogs(directory: str | Path | None = None) -> dict[str, Catalog]:
    """The catalogs by id, loaded once (raises CatalogError on bad content: call it at start)."""
    return _catalogs(str(directory or catalogs_dir()))


def catalog_ids() -> list[str]:
    """Hook for the tournament store: the ids a tournament may choose."""
    return list(catalogs())


def catalog_choices() -> list[dict]:
    """[{"id", "name", "default"}] for a form."""
    return [{"id": c.id, "name": c.name, "default": c.default} for c in catalogs().values()]


def catalog_of(db, tournament: dict | int) -> Catalog:
    """The tournament's catalog (its `catalog` column, else the default)."""
    t = tournament if isinstance(tournament, dict) else tbase.get_tournament(db, tournament)
    cats = catalogs()
    chosen = t.get("catalog")
    return cats.get(chosen) if chosen in cats else default_catalog(cats)


# --- reading --------------------------------------------------------------------------------------

def _record_of(row: dict) -> dict:
    rec = {"id": row["id"]}
    for name in _STORED:
        rec[name] = row.get(_COLUMNS.get(name, name))
    return rec


def records(db, tournament_id: int) -> list[dict]:
    """Every stored record of the tournament, oldest first (all kinds)."""
    if not db[T_RECORDS].exists():
        return []
    return [_record_of(r) for r in db[T_RECORDS].rows_where("tournament_id = ?", [tournament_id],
                                                             order_by="id")]


def current(db, tournament_id: int) -> list[dict]:
    """The issued records with amendments, lifts and approvals applied (`records.replay`)."""
    return replay(records(db, tournament_id))


def _effects_in_force(db, tournament_id: int, effect: str) -> list[dict]:
    """Approved records in force, of a registered player, whose level has `effect` in its
    catalog (`[[level]] effect` in content/penalties: "vp-1", "remove")."""
    t = tbase.get_tournament(db, tournament_id)
    default = catalog_of(db, t)
    cats = catalogs()
    return [r for r in current(db, t["id"])
            if r["status"] != STATUS_LIFTED and r.get("approved_by") and r.get("player") is not None
            and cats.get(r.get("catalog"), default).effect(r.get("penalty")) == effect]


def standing_adjustments(db, tournament_id: int) -> list[dict]:
    """Hook for the standings: −1 VP in one game per approved penalty in force whose level's
    effect is "vp-1" (v2 Standings Adjustment, v1 Game Loss). Each carries what decides the
    game (the tournament store resolves it: `store.adjusted`): `phase` (when it was given),
    `moved_to` ([round, table] when the head judge moved it) and `move_reason`."""
    return [{"player_id": r["player"], "vp": -1, "record": r["id"], "phase": r.get("phase"),
             "moved_to": r.get("moved_to"), "move_reason": r.get("move_reason")}
            for r in _effects_in_force(db, tournament_id, "vp-1")]


def _effect_of(db, t: dict):
    """record -> the `effect` of its level in its catalog ("vp-1", "remove", None)."""
    cats, default = catalogs(), catalog_of(db, t)
    return lambda rec: cats.get(rec.get("catalog"), default).effect(rec.get("penalty"))


def applies_to(db, tournament_id: int, recs: list[dict]) -> dict:
    """record id -> the game each Standings Adjustment among `recs` (replayed records)
    applies to (`adjustments.Target`; `games.applies_to`); other penalties are left out."""
    t = tbase.get_tournament(db, tournament_id)
    return games.applies_to(db, t["id"], recs, _effect_of(db, t))


def disqualified_players(db, tournament_id: int) -> set[int]:
    """Hook for the standings and the seating: players with an approved penalty in force
    whose level's effect is "remove" (the Disqualifications)."""
    return {r["player"] for r in _effects_in_force(db, tournament_id, "remove")}


def report(db, tournament_id: int):
    """The printable per-event report (`export.penalty_report`)."""
    t = tbase.get_tournament(db, tournament_id)
    return penalty_report(records(db, t["id"]), catalog_of(db, t))


def player_record(db, tournament_id: int, player_id: int):
    """One player's report (`export.player_report`), or None when they have no record."""
    t = tbase.get_tournament(db, tournament_id)
    return player_report(records(db, t["id"]), player_id, catalog_of(db, t))


def sa_places(db, tournament_id: int, recs: list[dict] | None = None) -> dict:
    """record id -> `{"round", "table", "game"}`: the game each Standings Adjustment applies
    to (`applies_to`), with that table's recorder game; an SA that applies to no game yet
    is left out."""
    t = tbase.get_tournament(db, tournament_id)
    found = applies_to(db, t["id"], current(db, t["id"]) if recs is None else recs)
    placed = {rid: x for rid, x in found.items() if x.round is not None}
    if not placed:
        return {}
    games = {(row["round"], row["tbl"]): row["game_id"] for row in db.query(
        f"select r.number as round, tb.number as tbl, tb.game_id from {tbase.T_TABLES} tb "
        f"join {tbase.T_ROUNDS} r on r.id = tb.round_id where r.tournament_id = ?", [t["id"]])}
    return {rid: {"round": x.round, "table": x.table, "game": games.get((x.round, x.table))}
            for rid, x in placed.items()}


def export_csv(db, tournament_id: int, *, bom: bool = False) -> str:
    t = tbase.get_tournament(db, tournament_id)
    return penalties_csv(records(db, t["id"]), catalog_of(db, t), bom=bom, applies=sa_places(db, t["id"]))


def export_json(db, tournament_id: int) -> list[dict]:
    t = tbase.get_tournament(db, tournament_id)
    return penalties_json(records(db, t["id"]), catalog_of(db, t), applies=sa_places(db, t["id"]))


def _same_request(stored: dict, rec: dict) -> bool:
    """Whether a retried request (same client_id) asks for what was stored: every field it
    gives must match (fields it leaves out were filled in by the server the first time)."""
    for name in ("kind", "refers_to", "round", "table", "game", "event", "player_name", "vekn",
                 "infraction", "variant", "penalty", "description", "rule", "reason"):
        value = rec.get(name)
        if value is not None and value != stored.get(name):
            return False
    return True


def _by_client_id(db, tournament_id: int, client_id: str | None) -> dict | None:
    if not client_id:
        return None
    rows = list(db[T_RECORDS].rows_where("tournament_id = ? and client_id = ?",
                                         [tournament_id, client_id], limit=1))
    return _record_of(rows[0]) if rows else None


def _insert(db, rec: dict) -> dict:
    row = {_COLUMNS.get(k, k): rec.get(k) for k in _STORED}
    rid = db[T_RECORDS].insert(row).last_pk
    return dict(rec, id=rid)


def _publish(db, tournament_id: int, rec: dict, kind: str) -> None:
    """Tell the hall (the outbox, `judgekit.outbox`; the head judge's stream only) of a stored record."""
    outbox.publish(db, tournament_id, kind, {
        "record": rec["id"], "kind": rec.get("kind"), "refers_to": rec.get("refers_to"),
        "player": rec.get("player"), "player_name": rec.get("player_name"),
        "penalty": rec.get("penalty"), "infraction": rec.get("infraction"), "judge": rec.get("judge"),
        "round": rec.get("round"), "table": rec.get("table")}, subject=f"penalty:{rec['id']}")


def _game_of(db, tournament_id: int, game_id: int) -> bool:
    """Whether recorder game `game_id` is one of this tournament's tables."""
    game = rstore.get_game(db, game_id)
    return game is not None and game.get("tournament_id") == tournament_id


def _find_player(db, tournament_id: int, pid: int | None, name: str | None, vekn: str | None):
    """(player row or None, registered?) — by id, else by VEKN number, else by exact name."""
    if pid is not None:
        try:
            return tbase.get_player(db, tournament_id, pid), True
        except tbase.TournamentError:
            raise _Bad(_refused(404, "player", Message(
                "penalties.no-player", "There is no player %(id)s in this tournament. Choose a player of "
                "the event, or give the name of someone who is not registered.", id=pid)))
    everyone = tbase.players(db, tournament_id)
    if vekn:
        for p in everyone:
            if p["vekn"] == vekn:
                return p, True
    if name:
        key = " ".join(name.split()).casefold()
        hits = [p for p in everyone if " ".join(p["name"].split()).casefold() == key]
        if len(hits) == 1:
            return hits[0], True
    return None, False


# --- writing -------------------------------------------------------------------------------------------

def penalty_for_finding(db, tournament_id: int, game: Any, event: Any, finding: Any) -> dict | None:
    """The penalty in force already given for a recorder finding (`records.for_finding`)."""
    return for_finding(records(db, tournament_id), parse_int(game), parse_int(event), finding or None)


def propose_for(db, tournament_id: int, player_id: int | None, infraction: str,
                variant: str | None = None) -> Proposal:
    """The proposal the form shows for `player_id` (None: an unregistered player: no history)."""
    t = tbase.get_tournament(db, tournament_id)
    earlier = records(db, t["id"]) if player_id is not None else []
    return propose(catalog_of(db, t), infraction, earlier, variant,
                   player=player_id if player_id is not None else -1, tournament=t["id"])


def issue(db, tournament_id: Any, data: dict, *, judge: str, role: str) -> Stored | Refused:
    """Issue a penalty. `data`: player (id) or player_name (+ vekn) for someone not
    registered; infraction (id or name), variant, penalty (default: the proposal),
    description, rule ("doc/section"), reason (needed when the penalty deviates), round,
    table, game, event, client_id, proposed_seen (the penalty the form showed: if another
    record changed the proposal meanwhile, the request is refused so the judge can look
    again), approve + approval_reason (head judge / organizer only)."""
    if not isinstance(data, dict):
        return _refused(400, None, Message("penalties.send-object", "Send the penalty as an object with its fields."))
    try:
        t = tbase.get_tournament(db, tournament_id)
    except tbase.TournamentError as exc:
        return _refused(exc.status, None, exc.msg)
    try:
        return _issue(db, t, data, judge, role)
    except _Bad as bad:
        return bad.refused


def _issue(db, t: dict, data: dict, judge: str, role: str) -> Stored | Refused:
    cat = catalog_of(db, t)
    pid = _int(data, "player", 1)
    name = _text(data, "player_name")
    vekn = None
    if data.get("vekn") not in (None, ""):
        try:
            vekn = registration.clean_vekn(data.get("vekn"))
        except tbase.TournamentError as exc:
            return _refused(400, "vekn", exc.msg)
    client_id = _text(data, "client_id")
    wants_approval = _flag(data.get("approve"))
    if wants_approval and not roles.allows(role, "penalties.approve"):
        return _refused(403, "approve", Message(
            "penalties.approve-who", "Only the head judge or the organizer may approve a penalty."))
    rec = {
        "kind": "issue", "tournament": t["id"], "refers_to": None,
        "round": _int(data, "round", 1, 100), "table": _int(data, "table", 1, 1000),
        "game": _int(data, "game", 1), "event": _int(data, "event", 1),
        "judge": judge, "judge_role": role, "catalog": cat.id,
        "infraction": _text(data, "infraction"), "variant": _text(data, "variant"),
        "penalty": _text(data, "penalty"), "description": _text(data, "description"),
        "rule": _rule(data), "reason": _text(data, "reason"),
        "approved_by": None, "approval_reason": None, "client_id": client_id,
        "finding": _text(data, "finding"),
    }
    found = cat.lookup(rec["infraction"] or "")
    if not found.ok:
        return _refused(422 if found.suggestions else 400, "infraction", found.said,
                        found.suggestions)
    rec["infraction"] = found.infraction.id
    if rec["variant"]:
        chosen = found.infraction.variant(rec["variant"])
        rec["variant"] = chosen.id if chosen else rec["variant"]
    if rec["penalty"] is not None and cat.level(rec["penalty"]) is not None:
        rec["penalty"] = cat.level(rec["penalty"]).name
    seen = _text(data, "proposed_seen")
    seen_level = None if seen in (None, "none") else (cat.level(seen).name if cat.level(seen) else seen)
    with transaction(db):
        player, registered = _find_player(db, t["id"], pid, name, vekn)
        if player is not None:
            rec.update(player=player["id"], player_name=player["name"], vekn=player["vekn"])
        else:
            rec.update(player=None, player_name=name, vekn=vekn)
        earlier = _by_client_id(db, t["id"], client_id)
        if earlier is not None:
            if not _same_request(earlier, rec):
                return _refused(409, "client_id", Message(
                    "penalties.client-id-used-other", "client_id %(client_id)s was already used for record "
                    "%(id)s with other content.", client_id=repr(client_id), id=earlier["id"]))
            return Stored(earlier, duplicate=True)
        if rec["game"] is not None and not _game_of(db, t["id"], rec["game"]):
            return _refused(404, "game", Message(
                "penalties.no-game", "There is no game %(game)s in this tournament.", game=rec["game"]))
        if rec["game"] is None and rec["round"] and rec["table"]:
            try:
                rec["game"] = table_store.table_detail(db, t["id"], rec["round"], rec["table"])["game_id"]
            except tbase.TournamentError:
                return _refused(404, "table", Message(
                    "penalties.no-table", "There is no table %(table)s in round %(round)s.",
                    table=rec["table"], round=rec["round"]))
        existing = records(db, t["id"])
        same = for_finding(existing, rec["game"], rec["event"], rec["finding"])
        if same is not None:
            return _refused(409, "finding", Message(
                "penalties.finding-done", "A penalty was already recorded for this finding (event #%(event)s): "
                "record %(id)s, %(penalty)s for %(player)s by %(judge)s. Amend or lift that one rather than "
                "recording the finding twice.", event=rec["event"], id=same["id"],
                penalty=same.get("penalty") or Message("penalties.a-remedy", "a remedy"), player=same.get("player_name"), judge=same.get("judge")),
                            existing=same["id"], existing_player=same.get("player"))
        proposal = propose(cat, rec["infraction"], existing if registered else [], rec["variant"],
                           player=rec["player"] if registered else -1, tournament=t["id"])
        if seen is not None and proposal.ok and seen_level != proposal.penalty:
            return _refused(409, "penalty", Message(
                "penalties.proposal-changed", "Another penalty was recorded for this player meanwhile: the "
                "proposal is now %(penalty)s (%(reason)s) Check it and send again.",
                penalty=proposal.penalty or Message("penalties.a-remedy-only", "a remedy only"),
                reason=proposal.reason),
                            proposal=proposal.penalty)
        if rec["penalty"] is None:
            rec["penalty"] = proposal.penalty
        rec["proposed"] = proposal.penalty
        problems = check_record(cat, rec, existing, registered=registered, proposal=proposal)
        if problems:
            status = 422 if any(p.suggestions for p in problems) else 400
            return Refused(status, problems)
        added = None
        if not registered:
            try:
                # not checked in: whether they play is the organizer's call, not the judge's
                added = registration.add_player(db, t["id"], {"name": rec["player_name"], "vekn": rec["vekn"],
                                                        "checked_in": False}, added_by="penalty")
            except tbase.TournamentError:
                added = None  # e.g. the final has begun: the record keeps the name only
            if added is not None:
                rec.update(player=added["id"], player_name=added["name"], vekn=added["vekn"])
        hj = needs_head_judge(cat, rec["penalty"], proposal)
        reasons = head_judge_reasons(cat, rec["penalty"], proposal)
        if hj and roles.allows(role, "penalties.approve"):
            rec["approved_by"] = judge
            rec["approval_reason"] = _text(data, "approval_reason") or rec["reason"] or \
                f"issued by the {roles.label(role)}"
        rec["phase"] = adjusted.sa_phase(db, t["id"], rec["player"]) if rec["player"] is not None else None
        rec["time"] = now()
        stored = _insert(db, rec)
        _publish(db, t["id"], stored, "penalty.pending" if hj and not stored["approved_by"] else
                 "penalty.approved" if hj else "penalty.recorded")
    applies = _applies(db, t, stored["id"])
    return Stored(stored, added_player=added, needs_head_judge=hj and not stored["approved_by"],
                  head_judge_reasons=reasons, proposal=proposal, applies=applies,
                  notes=games.issue_notes(stored, applies, disqualified_players(db, t["id"])))


def _follow_up(db, tournament_id: Any, kind: str, refers_to: Any, data: dict, *, judge: str,
               role: str, action: str) -> Stored | Refused:
    if not isinstance(data, dict):
        return _refused(400, None, Message("penalties.send-an-object", "Send an object."))
    if not roles.allows(role, action):
        return _refused(403, None, Message(
            "penalties.follow-up-who", "Only the head judge or the organizer may %(kind)s a penalty.", kind=kind))
    try:
        t = tbase.get_tournament(db, tournament_id)
    except tbase.TournamentError as exc:
        return _refused(exc.status, None, exc.msg)
    try:
        ref = _int({"refers_to": refers_to}, "refers_to", 1)
        rec = {"kind": kind, "tournament": t["id"], "refers_to": ref, "judge": judge,
               "judge_role": role, "catalog": catalog_of(db, t).id,
               "reason": _text(data, "reason"), "client_id": _text(data, "client_id")}
        if kind == "amend":
            for name in ("infraction", "variant", "penalty", "description"):
                rec[name] = _text(data, name)
            rec["rule"] = _rule(data)
        if kind == "move":
            rec["round"] = _int(data, "round", 1, 100)
            rec["table"] = _int(data, "table", 1, 1000)
    except _Bad as bad:
        return bad.refused
    cat = catalog_of(db, t)
    with transaction(db):
        earlier = _by_client_id(db, t["id"], rec["client_id"])
        if earlier is not None:
            if earlier["kind"] != kind or earlier["refers_to"] != ref:
                return _refused(409, "client_id", Message(
                    "penalties.client-id-used", "client_id %(client_id)s was already used for record %(id)s.",
                    client_id=repr(rec["client_id"]), id=earlier["id"]))
            return Stored(earlier, duplicate=True)
        existing = records(db, t["id"])
        target = next((r for r in replay(existing) if r["id"] == ref), None)
        if kind == "amend" and rec.get("infraction"):
            found = cat.lookup(rec["infraction"])
            if not found.ok:
                return _refused(422 if found.suggestions else 400, "infraction", found.said,
                                found.suggestions)
            rec["infraction"] = found.infraction.id
        if kind == "amend" and rec.get("penalty") and cat.level(rec["penalty"]):
            rec["penalty"] = cat.level(rec["penalty"]).name
        problems = check_record(cat, rec, existing)
        if problems:
            missing = any(p.code == "penalties.no-record" for p in problems)
            return Refused(404 if missing else (409 if target is not None and target["status"] == STATUS_LIFTED
                                                else 400), problems)
        if kind == "approve":
            if target.get("approved_by"):
                return _refused(409, "refers_to", Message(
                    "penalties.already-approved", "Record %(id)s was already approved by %(who)s.",
                    id=ref, who=target["approved_by"]))
            if not needs_head_judge(cat, target.get("penalty"), target.get("proposed")):
                return _refused(409, "refers_to", Message(
                    "penalties.no-approval-needed", "Record %(id)s (%(penalty)s) needs no approval.",
                    id=ref, penalty=target.get("penalty")))
            rec["approved_by"] = judge
            rec["approval_reason"] = rec["reason"]
        if kind == "move":
            problem = games.move_problem(db, t["id"], target, rec, _effect_of(db, t))
            if problem is not None:
                return _refused(*problem)
        rec["time"] = now()
        stored = _insert(db, rec)
        subject = dict(stored, player=target.get("player"), player_name=target.get("player_name"),
                       penalty=stored.get("penalty") or target.get("penalty")) if target else stored
        _publish(db, t["id"], subject, "penalty.approved" if kind == "approve" else "penalty.recorded")
    if kind == "move":
        return Stored(stored, applies=_applies(db, t, target["id"]))
    return Stored(stored)


def _applies(db, t: dict, record_id: int) -> dict | None:
    """The game a stored SA applies to now, as `Target.to_dict()` (None: not an SA)."""
    rec = next((r for r in current(db, t["id"]) if r["id"] == record_id), None)
    if rec is None or _effect_of(db, t)(rec) != "vp-1":
        return None
    return adjusted.resolve_records(db, t["id"], [rec])[record_id].to_dict()


def move(db, tournament_id: Any, refers_to: Any, data: dict | None = None, *, judge: str,
         role: str) -> Stored | Refused:
    """The head judge moves a Standings Adjustment to another game the player played
    (`round`, `table`) with a written `reason` — e.g. the player dropped and has no next
    game. A new `move` record; the latest move counts."""
    return _follow_up(db, tournament_id, "move", refers_to, data or {}, judge=judge, role=role,
                      action="penalties.amend")


def approve(db, tournament_id: Any, refers_to: Any, data: dict | None = None, *, judge: str,
            role: str) -> Stored | Refused:
    """The head judge approves an SA/DQ or a deviation (`reason` optional)."""
    return _follow_up(db, tournament_id, "approve", refers_to, data or {}, judge=judge, role=role,
                      action="penalties.approve")


def lift(db, tournament_id: Any, refers_to: Any, data: dict | None = None, *, judge: str,
         role: str) -> Stored | Refused:
    """Lift (withdraw) a penalty: it no longer counts anywhere. `reason` required."""
    return _follow_up(db, tournament_id, "lift", refers_to, data or {}, judge=judge, role=role,
                      action="penalties.amend")


def amend(db, tournament_id: Any, refers_to: Any, data: dict | None = None, *, judge: str,
          role: str) -> Stored | Refused:
    """Change fields of a penalty (infraction, variant, penalty, description, rule); `reason`
    required. The amended values count from then on (escalation, standings, exports)."""
    return _follow_up(db, tournament_id, "amend", refers_to, data or {}, judge=judge, role=role,
                      action="penalties.amend")


def pending(db, tournament_id: int) -> list[dict]:
    """Penalties in force that wait for the head judge."""
    return report(db, tournament_id).pending


def head_judge_seen(db, tournament_id: int) -> str | None:
    """The name the head judge signed in with, as their penalty records give it (the last
    one issued or approved by someone signed in as head judge), or None: what the event's
    details offer before anyone has typed the head judge's name."""
    if not db[T_RECORDS].exists():
        return None
    row = db.execute(f"select judge from {T_RECORDS} where tournament_id = ? and judge_role = 'head_judge' "
                     "and judge is not null and judge != '' order by id desc limit 1", [tournament_id]).fetchone()
    return row[0] if row else None


# the tournament store asks the standings' and the seating's questions through these hooks
tbase.register_penalties(tbase.PenaltyHooks(standing_adjustments=standing_adjustments,
                                            disqualified_players=disqualified_players,
                                            catalog_ids=catalog_ids))
