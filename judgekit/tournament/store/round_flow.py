"""Seating and opening a preliminary round, the head judge's seat swaps, closing a round."""
from __future__ import annotations

import json
from typing import Any

from judgekit.db import transaction
from judgekit import outbox
from judgekit.timetext import to_epoch
from judgekit.tournament import seating as seating_mod
from judgekit.game.scoring import TABLE_SIZES
from judgekit.tournament.store import base
from judgekit.tournament.store import tables as table_store
from judgekit.tournament.store.base import (
    T_RESULTS,
    T_ROUNDS,
    T_SEAT_CHANGES,
    T_SEATS,
    T_TABLES,
    TournamentError,
    _final_started,
    _int_id,
    _seats_of_round,
    _seed,
    _unique,
    disqualified_players,
    get_player,
    get_round,
    get_tournament,
    now,
    players,
    round_tables,
)
from judgekit.i18n import Message


def start_round(db, tournament_id: Any, *, seed: Any = None,
                tables: list[list[Any]] | None = None) -> dict:
    """Seat and open the next preliminary round.

    Without `tables`, the round is seated by `seating.seat_round` with `seed` (random when
    not given; it is recorded). `tables` (player ids per table, in seat order) seats the
    round by hand instead. Each table becomes a recorder game.
    """
    t = get_tournament(db, tournament_id)
    seed = _seed(seed)
    if _final_started(db, t):
        raise TournamentError(409, Message("tournament.final-has-begun-no-more-2", "the final has begun: no more preliminary rounds"))
    prelims = base._prelim_rounds(db, t["id"])
    if any(r["status"] == "open" for r in prelims):
        open_no = next(r["number"] for r in prelims if r["status"] == "open")
        raise TournamentError(409, Message("tournament.round-still-open-close-it", "round %(open_no)s is still open: close it first", open_no=open_no))
    number = len(prelims) + 1
    everyone = players(db, t["id"])
    by_id = {p["id"]: p for p in everyone}
    active = [p["id"] for p in everyone if not p["dropped"] and p["checked_in"]]
    dq = disqualified_players(db, t["id"])
    active = [p for p in active if p not in dq]
    earlier = [round_tables(db, t["id"], r["number"]) for r in prelims]
    history = seating_mod.History.of(earlier)

    if tables is not None:
        if not isinstance(tables, list) or not all(isinstance(tb, list) for tb in tables):
            raise TournamentError(400, Message("tournament.tables-must-list-lists-player", "tables must be a list of lists of player ids"), "tables")
        seated: list[int] = []
        clean_tables = []
        for k, tb in enumerate(tables, 1):
            if len(tb) not in TABLE_SIZES:
                raise TournamentError(400, Message("tournament.table-has-players-table-has", "table %(k)s has %(count)s players: a table has 4 or 5 (3.1.2)", k=k, count=len(tb)),
                                      "tables")
            ids = []
            for pid in tb:
                p = by_id.get(_int_id(pid, "player"))
                if p is None:
                    raise TournamentError(404, Message("tournament.no-player-in-this-tournament", "no player %(pid)s in this tournament", pid=pid), "tables")
                if p["dropped"] or p["id"] in dq:
                    raise TournamentError(409, Message("tournament.has-dropped-out-they-cannot", "%(name)s has dropped out: they cannot be seated", name=p['name']), "tables")
                ids.append(p["id"])
            seated += ids
            clean_tables.append(ids)
        if len(set(seated)) != len(seated):
            raise TournamentError(400, Message("tournament.player-seated-twice", "a player is seated twice"), "tables")
        sit_outs = [p for p in active if p not in set(seated)]
        plan_tables = clean_tables
        base._refuse_no_final_at(t, len(seated), f"seating round {number}")
    else:
        base._refuse_no_final_at(t, len(active), f"seating round {number} with {len(active)} players present")
        # Games each present player has played so far: with drops and late arrivals the
        # sit-outs are planned over the rounds left, not from the first round's numbers.
        played = {p: 0 for p in active}
        for round_ in earlier:
            for table in round_:
                for p in table:
                    if p in played:
                        played[p] += 1
        # late: missed a round without being made to sit it out (a late arrival, a player
        # marked absent): the others do not sit out to let them catch up
        made_to_sit = {p: 0 for p in active}
        for r in prelims:
            for p in r["sit_outs"]:
                if p in made_to_sit:
                    made_to_sit[p] += 1
        late = [p for p in active if played[p] + made_to_sit[p] < len(prelims)]
        rounds_left = max(1, t["rounds_planned"] - number + 1)
        sit_out, sat_out, equal = seating_mod.round_sit_outs(played, rounds_left, late)
        if sit_out and not equal and number == 1:
            raise TournamentError(409, Message("tournament.players-cannot-split-into-tables", "%(count)s players cannot be split into tables of 4 and 5, and no sit-out plan fits %(rounds_planned)s rounds (3.1.2): change the number of rounds or of players", count=len(active), rounds_planned=t['rounds_planned']))
        result = seating_mod.seat_round(active, history, seed=seed, sit_out=sit_out, sat_out=sat_out,
                                        rounds_planned=t["rounds_planned"])
        if result.problems:
            raise TournamentError(409, result.problems[0].message)
        plan_tables = result.tables
        sit_outs = result.sit_outs

    warnings = seating_mod.swap_warnings(plan_tables, history)
    with _unique(f"round {number} was started meanwhile: reload the page"), transaction(db):
        rid = db[T_ROUNDS].insert({
            "tournament_id": t["id"], "number": number, "kind": "prelim", "seed": seed,
            "status": "open", "sit_outs": json.dumps(sit_outs), "time_limit_min": t["time_limit_min"],
            "started_at": now(),
        }).last_pk
        for k, tb in enumerate(plan_tables, 1):
            _insert_table(db, t, rid, number, k, tb, by_id, t["time_limit_min"])
        publish_round_started(db, t["id"], rid)
    out = table_store.round_detail(db, t["id"], number)
    out["warnings"] = [_pp_warning(a, b, by_id) for a, b in warnings]
    return out


def publish_round_started(db, tournament_id: int, round_id: int) -> None:
    """Tell the hall (the outbox, `judgekit.outbox`) that a round opened: its clock and tables."""
    r = db[T_ROUNDS].get(round_id)
    started = to_epoch(r["started_at"])
    limit = r["time_limit_min"]
    numbers = [row[0] for row in db.execute(f"select number from {T_TABLES} where round_id = ? order by number",
                                            [round_id]).fetchall()]
    outbox.publish(db, tournament_id, "round.started", {
        "round": r["number"], "kind": r["kind"], "started_at": started, "limit_min": limit,
        "ends_at": started + limit * 60 if started is not None and limit else None, "tables": numbers})


def _insert_table(db, t: dict, round_id: int, round_no: int, table_no: int, ids: list[int],
                  by_id: dict, time_limit: int | None, label: str | None = None) -> int:
    game_id = base.create_game(db, [by_id[p]["name"] for p in ids], tournament_id=t["id"],
                          round_no=round_no, table_no=table_no, time_limit_min=time_limit,
                          label=label or f"{t['name']} · round {round_no} · table {table_no}")
    table_id = db[T_TABLES].insert({"round_id": round_id, "number": table_no, "size": len(ids),
                                    "game_id": game_id}).last_pk
    db[T_SEATS].insert_all({"table_id": table_id, "seat": s, "player_id": p}
                           for s, p in enumerate(ids, 1))
    return table_id


def _pp_warning(pred: int, prey: int, by_id: dict) -> str:
    a = by_id.get(pred, {}).get("name", f"#{pred}")
    b = by_id.get(prey, {}).get("name", f"#{prey}")
    return f"{a} was already the predator of {b} in an earlier round (3.1.2)"


def swap_seats(db, tournament_id: Any, number: Any, player_a: Any, player_b: Any, *,
               by: str | None = None) -> dict:
    """The head judge swaps two players' seats in an open round (or seats a player who sat
    out in place of another). Returns the round with `warnings` when the new seating
    repeats a predator→prey pair of an earlier round; the swap is made all the same.
    The checks (round open, no result at either table) and the swap are one transaction,
    so a result entered meanwhile either comes first (and the swap is refused) or after."""
    t = get_tournament(db, tournament_id)
    with transaction(db):
        r = get_round(db, t["id"], number)
        if r["status"] != "open":
            raise TournamentError(409, Message("tournament.round-closed-seats-can-no", "round %(number)s is closed: seats can no longer change", number=r['number']))
        a = get_player(db, t["id"], player_a)
        b = get_player(db, t["id"], player_b)
        if a["id"] == b["id"]:
            raise TournamentError(400, Message("tournament.choose-two-different-players", "choose two different players"))
        tables = _seats_of_round(db, r["id"])
        where = {pid: (tid, k) for tid, tb in tables.items() for k, pid in enumerate(tb["players"], 1)}
        if a["id"] not in where and b["id"] not in where:
            raise TournamentError(409, Message("tournament.neither-player-seated-in-this", "neither player is seated in this round"))
        if a["id"] not in where:
            a, b = b, a
        if b["id"] not in where and (b["dropped"] or b["id"] in disqualified_players(db, t["id"])):
            raise TournamentError(409, Message("tournament.has-dropped-out-they-cannot", "%(name)s has dropped out: they cannot be seated", name=b['name']))
        affected = [where[a["id"]][0]] + ([where[b["id"]][0]] if b["id"] in where else [])
        latest = table_store._latest_results(db, affected)
        if latest:
            raise TournamentError(409, Message("tournament.result-already-entered-for-that", "a result is already entered for that table: seats can no longer change"))
        for table_id in affected:   # a game the recorder calls over counts its VP by seat
            number = tables[table_id]["number"]
            if table_store.round_detail(db, t["id"], r["number"], only=number)["tables"][0]["recorded_finished"]:
                raise TournamentError(409, Message("tournament.table-s-game-over-in", "table %(number)s's game is over in the recorder (its VP count by seat): seats can no longer change", number=number))
        by_id = {p["id"]: p for p in players(db, t["id"])}
        grid = [tb["players"] for tb in tables.values()]
        new_grid = seating_mod.swap_seats(grid, a["id"], b["id"])
        history = seating_mod.History.of(round_tables(db, t["id"], x["number"])
                                         for x in base._prelim_rounds(db, t["id"]) if x["number"] < r["number"])
        old = set(seating_mod.swap_warnings(grid, history))
        new_pairs = [p for p in seating_mod.swap_warnings(new_grid, history) if p not in old]
        warnings = [_pp_warning(x, y, by_id) for x, y in new_pairs]
        ta, sa = where[a["id"]]
        db.execute(f"update {T_SEATS} set player_id = ? where table_id = ? and seat = ?", [b["id"], ta, sa])
        if b["id"] in where:
            tb_, sb = where[b["id"]]
            db.execute(f"update {T_SEATS} set player_id = ? where table_id = ? and seat = ?", [a["id"], tb_, sb])
        else:
            sit = [p for p in r["sit_outs"] if p != b["id"]] + [a["id"]]
            db[T_ROUNDS].update(r["id"], {"sit_outs": json.dumps(sit)})
        db[T_SEAT_CHANGES].insert({"round_id": r["id"], "player_a": a["id"], "player_b": b["id"],
                                   "warnings": json.dumps(warnings), "by": by, "created_at": now()})
        # the recorder's games keep their own list of names (its findings, the penalty form)
        changed = {where[a["id"]][0]} | ({where[b["id"]][0]} if b["id"] in where else set())
        for table_id, tb in _seats_of_round(db, r["id"]).items():
            if table_id in changed and tb["game_id"] is not None:
                base.recorder_store.set_seat_names(db, tb["game_id"], [by_id[p]["name"] for p in tb["players"]])
    out = table_store.round_detail(db, t["id"], r["number"])
    out["warnings"] = warnings
    return out


def close_round(db, tournament_id: Any, number: Any) -> dict:
    """Close a round once every table is finished or overridden. VP that came from the
    recorder are written as `recorded` rows so the standings no longer depend on the game.
    The table states are read inside the closing transaction: a result entered meanwhile
    is either seen here or comes after the close, never superseded by a stale row."""
    t = get_tournament(db, tournament_id)
    with transaction(db):
        detail = table_store.round_detail(db, t["id"], number)
        if detail["status"] == "closed":
            raise TournamentError(409, Message("tournament.round-already-closed", "round %(number)s is already closed", number=detail['number']))
        if detail["open_tables"]:
            states = {x["number"]: x["state"] for x in detail["tables"]}
            listing = ", ".join(f"table {n} ({states[n]})" for n in detail["open_tables"])
            raise TournamentError(409, Message("tournament.round-still-has-open-tables", "round %(number)s still has open tables: %(listing)s", number=detail['number'], listing=listing),
                                  open_tables=detail["open_tables"])
        tables = _seats_of_round(db, detail["id"])
        by_number = {x["number"]: x for x in detail["tables"]}
        for tid, tb in tables.items():
            st = by_number[tb["number"]]
            if st["source"] == "recorder":
                db[T_RESULTS].insert({"table_id": tid, "kind": "recorded", "vps": json.dumps(st["vps"]),
                                      "withdrawn": json.dumps(st["withdrawn"]), "by": "recorder",
                                      "created_at": now()})
        db[T_ROUNDS].update(detail["id"], {"status": "closed", "closed_at": now()})
        outbox.publish(db, t["id"], "round.closed", {"round": detail["number"], "kind": detail["kind"]})
    return table_store.round_detail(db, t["id"], number)
