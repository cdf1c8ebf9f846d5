"""The final: its qualifiers, the seat choice (3.1.3), the table, and the event's result
with rating points (3.7.5, Appendix A)."""
from __future__ import annotations

import json
from typing import Any

from judgekit.db import transaction
from judgekit.tournament import final as final_mod
from judgekit.tournament import rating as rating_mod
from judgekit.tournament import standings as standings_mod
from judgekit.tournament.store import base, ranking, round_flow
from judgekit.tournament.store import tables as table_store
from judgekit.tournament.store.base import (
    T_FINAL,
    T_ROUNDS,
    T_TOURNAMENTS,
    TournamentError,
    _clean_int,
    _final_round,
    _last_round_number,
    _prelims_done,
    _seed,
    _unique,
    get_player,
    get_tournament,
    now,
    players,
)
from judgekit.i18n import Message


MIN_ROUNDS = 3  # 3.1: "a minimum of three rounds", the final included


def start_final(db, tournament_id: Any) -> dict:
    """Freeze the five qualifiers (best first) and open the seat choice (3.1.3). Checked
    and set in one transaction: two clicks at once set them once, the other gets 409."""
    t = get_tournament(db, tournament_id)
    with transaction(db):
        _set_qualifiers(db, get_tournament(db, t["id"]))
    return final_state(db, t["id"])


def _set_qualifiers(db, t: dict) -> None:
    if not t["has_final"]:
        raise TournamentError(409, Message("tournament.this-tournament-played-without-final", "this tournament is played without a final (3.1.6)"))
    if t["finalists"]:
        raise TournamentError(409, Message("tournament.final-s-qualifiers-are-already", "the final's qualifiers are already set"))
    prelims = base._prelim_rounds(db, t["id"])
    if not prelims:
        raise TournamentError(409, Message("tournament.no-preliminary-round-has-been", "no preliminary round has been played"))
    if any(r["status"] == "open" for r in prelims):
        raise TournamentError(409, Message("tournament.close-last-preliminary-round-first", "close the last preliminary round first"))
    closed = len(prelims)
    if closed < t["rounds_planned"]:
        raise TournamentError(409, (Message("tournament.final-after-rounds-1", "%(rounds_planned)s preliminary rounds were announced and 1 has been played: the final comes after the last of them (3.1)", rounds_planned=t['rounds_planned'])
                            if closed == 1 else Message("tournament.final-after-rounds", "%(rounds_planned)s preliminary rounds were announced and %(closed)s have been played: the final comes after the last of them (3.1)", rounds_planned=t['rounds_planned'], closed=closed)))
    if closed + 1 < MIN_ROUNDS:
        raise TournamentError(409, Message("tournament.tournament-has-at-least-rounds", "a tournament has at least %(MIN_ROUNDS)s rounds, the final included (3.1): play another preliminary round first", MIN_ROUNDS=MIN_ROUNDS))
    s = ranking.standings(db, t["id"])
    if s.needs_toss:
        raise TournamentError(409, Message("tournament.ties-in-top-five-need", "ties in the top five need a toss first"), needs_toss=s.needs_toss)
    if len(s.finalists) < 4:
        raise TournamentError(409, Message("tournament.only-players-can-qualify-final", "only %(count)s players can qualify: a final needs 4 or 5", count=len(s.finalists)))
    db[T_TOURNAMENTS].update(t["id"], {"finalists": json.dumps(s.finalists)})


def undo_final(db, tournament_id: Any, *, by: str | None = None) -> dict:
    """Undo setting up the final (the qualifiers and any cards placed) while it is not
    seated: e.g. a result was corrected or an SA given after the qualifiers were set. An
    `undo` row is kept; the standings decide the qualifiers again when it is set up."""
    t = get_tournament(db, tournament_id)
    with transaction(db):
        t = _unseated_final(db, t["id"])
        db[T_FINAL].insert({"tournament_id": t["id"], "kind": "undo", "by": by, "created_at": now()})
        db[T_TOURNAMENTS].update(t["id"], {"finalists": None})
    return final_state(db, t["id"])


def _final_choice(db, t: dict) -> final_mod.SeatChoice:
    positions: list[int] = []
    for row in db[T_FINAL].rows_where("tournament_id = ?", [t["id"]], order_by="id"):
        if row["kind"] in ("reset", "undo"):
            positions = []
        else:
            positions.append(row["position"])
    return final_mod.replay(t["finalists"] or [], positions)


def _unseated_final(db, tournament_id: int) -> dict:
    """Inside a write's transaction: the tournament, whose final is set up and not yet seated."""
    t = get_tournament(db, tournament_id)
    if not t["finalists"]:
        raise TournamentError(409, Message("tournament.final-has-not-been-set", "the final has not been set up: start it from the standings"))
    if _final_round(db, t["id"]):
        raise TournamentError(409, Message("tournament.final-already-seated", "the final is already seated"))
    return t


def place_final_card(db, tournament_id: Any, player_id: Any, position: Any, *, by: str | None = None) -> dict:
    """One finalist places their card at gap `position` of the row (0 = left end). The row
    is read and the card placed in one transaction: two taps at once cannot both place."""
    t = get_tournament(db, tournament_id)
    pos = _clean_int(position, "position", 0, 10)
    if pos is None:
        raise TournamentError(400, Message("tournament.position-required", "position is required"), "position")
    with transaction(db):
        t = _unseated_final(db, t["id"])
        pid = get_player(db, t["id"], player_id)["id"]
        choice = _final_choice(db, t)
        after = final_mod.place(choice, pid, pos)
        if after.problems:
            names = {p["id"]: p["name"] for p in players(db, t["id"])}
            msg = after.problems[0].message
            if msg.code == "final.turn":   # the player by name, not by id
                player = msg.msg.params["player"]
                msg = msg.msg.with_params(player=names.get(player, player))
            raise TournamentError(409, msg, "position")
        db[T_FINAL].insert({"tournament_id": t["id"], "kind": "place", "player_id": pid, "position": pos,
                            "by": by, "created_at": now()})
    return final_state(db, t["id"])


def reset_final_choices(db, tournament_id: Any, *, by: str | None = None) -> dict:
    t = get_tournament(db, tournament_id)
    with transaction(db):
        t = _unseated_final(db, t["id"])
        db[T_FINAL].insert({"tournament_id": t["id"], "kind": "reset", "by": by, "created_at": now()})
    return final_state(db, t["id"])


def seat_final(db, tournament_id: Any, *, seed: Any = None) -> dict:
    """Draw the first player at random and open the final as a table (a recorder game)."""
    t = get_tournament(db, tournament_id)
    seed = _seed(seed)
    with _unique("the final was opened meanwhile: reload the page"), transaction(db):
        t = _unseated_final(db, t["id"])
        choice = _final_choice(db, t)
        if not choice.done:
            raise TournamentError(409, Message("tournament.every-finalist-must-place-card", "every finalist must place a card first"))
        first = final_mod.draw_first_player(choice.row, seed)
        order = final_mod.seat_order(choice.row, first)
        by_id = {p["id"]: p for p in players(db, t["id"])}
        number = _last_round_number(db, t["id"]) + 1
        limit = t["final_time_limit_min"] or t["time_limit_min"]
        rid = db[T_ROUNDS].insert({"tournament_id": t["id"], "number": number, "kind": "final",
                                   "seed": seed, "status": "open", "sit_outs": "[]",
                                   "time_limit_min": limit, "started_at": now()}).last_pk
        round_flow._insert_table(db, t, rid, number, 1, order, by_id, limit, label=f"{t['name']} · final")
        round_flow.publish_round_started(db, t["id"], rid)
        db[T_TOURNAMENTS].update(t["id"], {"final_seed": seed})
    return final_state(db, t["id"])


def final_state(db, tournament_id: Any, final_round: dict | None = None) -> dict:
    """The final: qualifiers, the row as it forms, whose turn, the table and the winner.
    `final_round`: the final round's `round_detail` when the caller has it already."""
    t = get_tournament(db, tournament_id)
    names = {p["id"]: p["name"] for p in players(db, t["id"])}
    out: dict[str, Any] = {"has_final": t["has_final"], "qualifiers": [], "row": [], "next": None,
                           "done": False, "round": None, "table": None, "result": None}
    if not t["finalists"]:
        return out
    choice = _final_choice(db, t)
    out["qualifiers"] = [{"player_id": p, "name": names.get(p), "place": k}
                         for k, p in enumerate(t["finalists"], 1)]
    out["row"] = [{"player_id": p, "name": names.get(p)} for p in choice.row]
    nxt = choice.next_to_place
    out["next"] = {"player_id": nxt, "name": names.get(nxt),
                   "place": t["finalists"].index(nxt) + 1} if nxt is not None else None
    out["done"] = choice.done
    fr = _final_round(db, t["id"])
    if fr:
        detail = final_round if final_round is not None else table_store.round_detail(db, t["id"], fr["number"])
        table = detail["tables"][0]
        out["round"] = fr["number"]
        out["round_status"] = fr["status"]
        out["table"] = table
        out["first_player"] = table["seats"][0]["player_id"]
        if table["state"] in ("finished", "overridden"):
            # the VP that count: a Standings Adjustment in the final lowers its player's VP
            # there, and so can change the winner (a tie still goes to the better rank, 3.7.5)
            vps = {s["player_id"]: s.get("vp_adjusted", s["vp"]) for s in table["seats"]}
            res = final_mod.final_result(t["finalists"], vps)
            out["result"] = {"winner": res.winner, "winner_name": names.get(res.winner),
                             "places": res.places, "vps": res.vps,
                             "vps_played": {s["player_id"]: s["vp"] for s in table["seats"]},
                             "decided_by_rank": res.decided_by_rank}
    else:
        # set up, not seated: say so when the standings no longer give these qualifiers
        now_qualified = ranking.standings(db, t["id"]).finalists
        if now_qualified and now_qualified != t["finalists"]:
            out["standings_changed"] = [{"player_id": p, "name": names.get(p)} for p in now_qualified]
    return out


def results(db, tournament_id: Any, computed: standings_mod.Standings | None = None) -> dict:
    """Final ranking of the event: the final's winner first, the other finalists tied 2nd,
    then everyone else in preliminary order (3.7.5); without a final, the preliminary
    standings (3.1.6). Includes rating points (Appendix A)."""
    t = get_tournament(db, tournament_id)
    s = computed if computed is not None else ranking.standings(db, t["id"])
    fs = final_state(db, t["id"])
    final_vps: dict[int, float] = {}
    winner = None
    finalists: list[int] = []
    if t["has_final"] and fs["result"]:
        winner = fs["result"]["winner"]
        finalists = list(t["finalists"])
        final_vps = fs["result"]["vps"]
    elif not t["has_final"] and _prelims_done(db, t):
        # 3.1.6: the preliminary standings are the result; the winner is known once the
        # first place is not shared (a toss may still order places below)
        ranked = [r for r in s.rows if r.rank]
        tied = {p for g in s.needs_toss for p in g}
        if ranked and ranked[0].player_id not in tied:
            winner = ranked[0].player_id
    # Appendix A counts the players of the event: those who played at least one round (a
    # no-show neither changes the coefficient nor earns attendance points)
    played = {r.player_id for r in s.rows if r.rounds > 0} | set(finalists)
    count = len(played)
    rows = []
    for r in s.rows:
        finish = None
        place = r.rank
        if winner is not None and r.player_id == winner:
            finish, place = "winner", 1
        elif r.player_id in finalists:
            finish, place = "finalist", 2
        # the final's winner counts a game win (Appendix A: "GW or final round victory")
        gw = r.gw + (1 if finish == "winner" and t["has_final"] else 0)
        vp = r.vp + final_vps.get(r.player_id, 0)
        rp = rating_mod.event_rating(vp, gw, count, finish if t["has_final"] else None, t["level"]) \
            if r.player_id in played else None
        rows.append({**r.to_dict(), "place": place, "finish": finish, "final_vp": final_vps.get(r.player_id),
                     "total_vp": vp, "total_gw": gw, "rating": rp.to_dict() if rp else None})
    if winner is not None:
        rows.sort(key=lambda x: {"winner": 0, "finalist": 1}.get(x["finish"], 2))  # stable
    return {"winner": winner, "finished": winner is not None, "rows": rows}
