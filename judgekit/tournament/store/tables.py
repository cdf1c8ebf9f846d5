"""A round's tables: their state (from the latest result row and the recorded game), the
results entered, overridden and corrected, and the round as a page shows it."""
from __future__ import annotations

import json
from typing import Any, Iterable

from judgekit.db import transaction
from judgekit import outbox
from judgekit.game.outcome import VpResult, derive_vp
from judgekit.game.scoring import TABLE_SIZES
from judgekit.tournament.scoring import (
    check_table,
    differences,
    parse_vp,
    score_table,
    seat_errors,
)
from judgekit.errors import parse_int
from judgekit.tournament.store import adjusted, base, result_guard
from judgekit.tournament.store.base import (
    MAX_LEN,
    MIN_REASON,
    T_RESULTS,
    T_ROUNDS,
    T_SEATS,
    T_TABLES,
    TournamentError,
    _clean_text,
    _int_id,
    _row,
    _seats_of_round,
    get_round,
    get_tournament,
    now,
    players,
)
from judgekit.tournament.store.result_guard import NOT_GIVEN
from judgekit.i18n import Message, as_message, chained


def _latest_results(db, table_ids: Iterable[int]) -> dict[int, dict]:
    ids = list(table_ids)
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    out = {}
    for row in db.query(
            f"select r.* from {T_RESULTS} r join (select table_id, max(id) as id from {T_RESULTS} "
            f"where table_id in ({marks}) group by table_id) m on r.id = m.id", ids):
        out[row["table_id"]] = result_row(row)
    return out


def result_row(row: dict) -> dict:
    """A stored result row with its VP and withdrawn seats read back. The writes check
    both; a row that fails the checks anyway (stored by an older version, or by hand) is
    read with `vps` None and `damaged` saying what is wrong, so every page still shows
    (the table reads as invalid until someone enters its result again)."""
    problem = None
    try:
        vps = json.loads(row["vps"]) if row.get("vps") else None
        withdrawn = json.loads(row["withdrawn"] or "[]")
    except (TypeError, ValueError):
        vps, withdrawn, problem = None, [], "not readable"
    if problem is None and (not isinstance(vps, list) or seat_errors(vps)):
        problem = f"VP {str(row.get('vps'))[:40]}"
    if problem is None and (not isinstance(withdrawn, list) or any(
            parse_int(s, 1, len(vps)) is None for s in withdrawn)):
        problem = f"withdrawn {str(row.get('withdrawn'))[:40]}"
    if problem is None:
        row["vps"], row["withdrawn"] = [float(parse_vp(v)) for v in vps], withdrawn
    else:
        row["vps"], row["withdrawn"], row["damaged"] = None, [], problem
    return row


def table_status(size: int, entry: dict | None, outcome: dict | None) -> dict:
    """The state of one table from its latest result row and its recorded game.

    - an override row: "overridden", its VP count; `warnings` keeps what the table check
      says of them (an impossible total stays visible);
    - an entered, corrected (closed round, with the head judge's `reason`) or
      recorded-at-close row: "finished" if the table check passes, else "invalid" with the
      reasons;
    - no row but a recorded game the recorder calls finished: its derived VP, checked the
      same way (an outcome that does not add up, e.g. a game ended without a time call,
      shows as invalid);
    - otherwise "in-progress".
    When both an entry and a finished record exist and differ, `differs` lists the seats.
    """
    recorded: VpResult | None = None
    done = False
    if outcome is not None:
        recorded = derive_vp(size, outcome.get("events") or [])
        # the recorder says when the game is over (after a time call, play goes on to the
        # end of the action or phase); a game it calls over is scored and checked
        done = bool(outcome.get("finished", recorded.finished))
    out: dict[str, Any] = {
        "state": "in-progress", "vps": None, "source": None, "errors": [],
        "recorded_vps": recorded.vps if recorded else None,
        "recorded_finished": done,
        "recorded_errors": [e.to_dict() for e in recorded.errors] if recorded else [],
        "reported_vps": None, "differs": [], "reason": None, "withdrawn": [],
        "warnings": [],  # an override: what the table check says of the numbers all the same
        "result_id": entry["id"] if entry is not None else None,  # what a write is `based_on`
    }
    if entry is not None:
        out["vps"] = entry["vps"]
        out["source"] = entry["kind"]
        out["withdrawn"] = entry.get("withdrawn") or []
        if entry["kind"] != "recorded":
            out["reported_vps"] = entry["vps"]
        if entry["kind"] in ("override", "correction"):
            out["reason"] = entry.get("reason")
        if entry.get("damaged"):  # see result_row
            out["state"] = "invalid"
            out["errors"] = [{"code": "result-damaged", "seat": None, "rule": None,
                              "message": f"the stored result cannot be read ({entry['damaged']}): "
                                         "enter this table's result again"}]
        elif entry["kind"] == "override":
            out["state"] = "overridden"
            out["warnings"] = [e.to_dict() for e in check_table(entry["vps"], out["withdrawn"])]
        else:
            errors = check_table(entry["vps"], out["withdrawn"])
            out["errors"] = [e.to_dict() for e in errors]
            out["state"] = "invalid" if errors else "finished"
        if recorded and done and entry["kind"] != "recorded" and entry["vps"] is not None:
            out["differs"] = differences(recorded.vps, entry["vps"])
    elif recorded is not None and done:
        out["vps"] = recorded.vps
        out["source"] = "recorder"
        out["withdrawn"] = recorded.withdrawn
        errors = list(recorded.errors) + check_table(recorded.vps, recorded.withdrawn)
        out["errors"] = [e.to_dict() for e in errors]
        out["state"] = "invalid" if errors else "finished"
    return out


def round_detail(db, tournament_id: int, number: Any, *, games: bool = True,
                 adjustments: dict | None = None, only: int | None = None) -> dict:
    """A round with its tables: seats (with names), game, state, VP, GW/TP when scored.
    `games=False` leaves the recorder's games out (no replay): enough for a closed round's
    state, where every table has its result row, but without `recorded_vps`/`differs`.
    `only`: that table number alone (a write's answer: one game replayed, not the round's).

    Standings Adjustments (`adjusted.table_adjustments`; pass `adjustments` when the caller
    has them): each seat's `vp` is the VP as played, `adjustment` the VP its SAs in this
    game take (0 or negative), `vp_adjusted` the VP that counts, and `gw`/`tp` come from
    the adjusted VP (`scoring.score_table`); the table lists its SAs in `adjustments`."""
    r = get_round(db, tournament_id, number)
    names = {p["id"]: p for p in players(db, tournament_id)}
    tables = _seats_of_round(db, r["id"])
    if only is not None:
        tables = {k: t for k, t in tables.items() if t["number"] == only}
    latest = _latest_results(db, tables)
    if adjustments is None:
        adjustments = adjusted.table_adjustments(db, tournament_id)
    out_tables = []
    for tid, t in tables.items():
        outcome = base.game_outcome(db, t["game_id"]) if games else None
        status = table_status(t["size"], latest.get(tid), outcome)
        adj = adjustments.get((r["number"], t["number"]))
        deltas = adj["deltas"] if adj and len(adj["deltas"]) == len(t["players"]) else [0.0] * len(t["players"])
        scores = score_table(status["vps"], deltas) if status["vps"] is not None and \
            status["state"] in ("finished", "overridden") and len(status["vps"]) in TABLE_SIZES \
            and len(status["vps"]) == len(deltas) else None
        seats = []
        for k, pid in enumerate(t["players"]):
            p = names.get(pid, {})
            seat = {"seat": k + 1, "player_id": pid, "name": p.get("name", f"#{pid}"),
                    "vekn": p.get("vekn"), "dropped": bool(p.get("dropped")), "adjustment": deltas[k]}
            if status["vps"] is not None and k < len(status["vps"]):
                seat["vp"] = status["vps"][k]
                seat["vp_adjusted"] = scores[k].vp if scores else status["vps"][k] + deltas[k]
            if status["recorded_vps"] is not None:
                seat["recorded_vp"] = status["recorded_vps"][k]
            if scores:
                seat["gw"], seat["tp"] = scores[k].gw, scores[k].tp
            seats.append(seat)
        sas = [{**x, "name": names.get(x["player_id"], {}).get("name"),
                "seat": t["players"].index(x["player_id"]) + 1} for x in (adj["records"] if adj else [])]
        out_tables.append({"number": t["number"], "size": t["size"], "game_id": t["game_id"],
                           "seats": seats, "adjustments": sas, **status})
    r["tables"] = out_tables
    r["sit_out_players"] = [{"player_id": p, "name": names.get(p, {}).get("name", f"#{p}")}
                            for p in r["sit_outs"]]
    r["open_tables"] = [t["number"] for t in out_tables if t["state"] not in ("finished", "overridden")]
    return r


def result_history(db, tournament_id: int, number: Any, table_no: Any) -> list[dict]:
    t = get_table(db, tournament_id, number, table_no)
    rows = []
    for row in db[T_RESULTS].rows_where("table_id = ?", [t["id"]], order_by="id"):
        rows.append(result_row(row))
    return rows


def _joined(errors) -> Message:
    """The table's problems as one message, "first; second"."""
    return chained([as_message(e.message) for e in errors], Message("tournament.joined", "%(first)s; %(rest)s"))


def get_table(db, tournament_id: int, number: Any, table_no: Any) -> dict:
    r = get_round(db, tournament_id, number)
    tn = _int_id(table_no, "table")
    t = _row(db, T_TABLES, "round_id = ? and number = ?", [r["id"], tn])
    if t is None:
        raise TournamentError(404, Message("tournament.no-table-in-round", "no table %(table_no)s in round %(number)s", table_no=table_no, number=r['number']))
    t["round"] = r
    t["players"] = [s["player_id"] for s in db[T_SEATS].rows_where("table_id = ?", [t["id"]], order_by="seat")]
    return t


def clean_vps(vps: Any, size: int) -> list[float]:
    """One VP per seat, each well formed (`scoring.seat_errors`), or a 400 whose `problems`
    name every seat at fault (`[{"seat", "message", "code"}]`, for the form's fields)."""
    if not isinstance(vps, list):
        raise TournamentError(400, Message("tournament.vps-must-list-with-one", "vps must be a list with one VP per seat, in seat order"), "vps")
    if len(vps) != size:
        raise TournamentError(400, Message("tournament.this-table-has-seats-give", "this table has %(size)s seats: give %(size)s VP values, not %(count)s", size=size, count=len(vps)), "vps")
    errors = seat_errors(vps)
    if errors:
        raise TournamentError(400, _joined(errors), "vps", seat=errors[0].seat,
                              problems=[e.to_dict() for e in errors])
    return [float(parse_vp(v)) for v in vps]


def clean_withdrawn(withdrawn: Any, size: int) -> list[int]:
    if withdrawn in (None, ""):
        return []
    if not isinstance(withdrawn, list):
        raise TournamentError(400, Message("tournament.withdrawn-must-list-seat-numbers", "withdrawn must be a list of seat numbers"), "withdrawn")
    out = []
    for s in withdrawn:
        n = parse_int(s, 1, size)  # null, "", true, 1.5, "x": no seat number
        if n is None:
            raise TournamentError(400, Message("tournament.withdrawn-must-list-seat-numbers-2", "withdrawn must list seat numbers from 1 to %(size)s, not %(value)s", size=size, value=json.dumps(s)[:20]), "withdrawn")
        if n not in out:
            out.append(n)
    return sorted(out)


def enter_result(db, tournament_id: Any, number: Any, table_no: Any, vps: Any, *,
                 withdrawn: Any = None, note: str | None = None, by: str | None = None,
                 client_id: Any = None, based_on: Any = NOT_GIVEN,
                 may_replace_override: bool = False) -> dict:
    """Store the VP reported for a table of an open round (seat order), as a new row.
    Malformed numbers (not numbers, negative, not halves, wrong count) are refused; numbers
    that are well formed but impossible are stored and the table shows as invalid with the
    reasons, until corrected or overridden. A closed round's table is corrected by the head
    judge (`correct_result`), not here (409). `client_id`, `based_on` and overrides: see
    `result_guard` (409 when another result was stored since the one the client saw; a
    judge's result never replaces an override unless `may_replace_override`). Returns the
    table's state, with `duplicate` True when nothing new was stored."""
    t = get_tournament(db, tournament_id)
    table = get_table(db, t["id"], number, table_no)
    clean = clean_vps(vps, table["size"])
    wd = clean_withdrawn(withdrawn, table["size"])
    text = _clean_text(note, "note", max_len=MAX_LEN["note"])
    cid, seen = result_guard.clean_client_id(client_id), result_guard.clean_based_on(based_on)
    with transaction(db):
        _refuse_if_closed(db, table)
        stored = result_guard.check(db, table["id"], kind="entered", vps=clean, withdrawn=wd, client_id=cid,
                                    based_on=seen, may_replace_override=may_replace_override,
                                    read=result_row)
        if stored is None:
            insert_result(db, table, "entered", clean, wd, note=text, by=by, client_id=cid, based_on=seen)
    return dict(_table_detail(db, t["id"], table), duplicate=stored is not None)


def insert_result(db, table: dict, kind: str, vps: list[float], withdrawn: list[int], *,
                   by: str | None, client_id: str | None, based_on: Any, note: str | None = None,
                   reason: str | None = None) -> None:
    row = {"table_id": table["id"], "kind": kind, "vps": json.dumps(vps),
           "withdrawn": json.dumps(withdrawn), "note": note, "reason": reason, "by": by,
           "created_at": now(), "client_id": client_id,
           "based_on": None if based_on is result_guard.NOT_GIVEN else based_on}
    rid = db[T_RESULTS].insert(row).last_pk
    # the hall hears of it in the same transaction (the outbox, `judgekit.outbox`)
    state = table_status(table["size"], result_row(dict(row, id=rid)), None)["state"]
    outbox.publish(db, table["round"]["tournament_id"], "table.result", {
        "round": table["round"]["number"], "table": table["number"], "state": state,
        "source": kind, "by": by, "result": rid})


def refuse_impossible(vps: list[float], withdrawn: list[int]) -> None:
    """A 400 when the table check (`scoring.check_table`) refuses well-formed VP: the
    reasons, each with its seat where one is at fault (`problems`), and the seats whose
    withdrawal would explain them (`suggest_withdrawn`)."""
    errors = check_table(vps, withdrawn)
    if errors:
        raise TournamentError(400, _joined(errors), "vps", seat=errors[0].seat,
                              problems=[e.to_dict() for e in errors],
                              suggest_withdrawn=list(errors[0].suggest_withdrawn))


def _refuse_if_closed(db, table: dict) -> None:
    """Inside the write's transaction: the round must still be open."""
    r = db[T_ROUNDS].get(table["round"]["id"])
    if r["status"] == "closed":
        raise TournamentError(409, Message("tournament.round-closed-only-head-judge", "round %(number)s is closed: only the head judge can correct this table's result, with a reason", number=r['number']), "round", closed=True)


def _clean_reason(reason: Any, what: str) -> str:
    why = _clean_text(reason, "reason", required=True, max_len=MAX_LEN["reason"])
    if len(why) < MIN_REASON:
        raise TournamentError(400, Message("tournament.write-reason-for-few-words", "write the reason for the %(what)s (a few words at least)", what=what), "reason")
    return why


def override_result(db, tournament_id: Any, number: Any, table_no: Any, vps: Any, reason: Any, *,
                    by: str | None = None, client_id: Any = None, based_on: Any = NOT_GIVEN) -> dict:
    """The head judge accepts a table's VP that the table check refuses, with a written
    reason (kept with the row). With `based_on`, refused (409) when another result was
    stored since the one the head judge saw (`result_guard`)."""
    t = get_tournament(db, tournament_id)
    table = get_table(db, t["id"], number, table_no)
    clean = clean_vps(vps, table["size"])
    why = _clean_reason(reason, "override")
    cid, seen = result_guard.clean_client_id(client_id), result_guard.clean_based_on(based_on)
    with transaction(db):
        stored = result_guard.check(db, table["id"], kind="override", vps=clean, withdrawn=[], client_id=cid,
                                    based_on=seen, may_replace_override=True, read=result_row)
        if stored is None:
            insert_result(db, table, "override", clean, [], reason=why, by=by, client_id=cid, based_on=seen)
    return dict(_table_detail(db, t["id"], table), duplicate=stored is not None)


def correct_result(db, tournament_id: Any, number: Any, table_no: Any, vps: Any, reason: Any, *,
                   withdrawn: Any = None, by: str | None = None, client_id: Any = None,
                   based_on: Any = NOT_GIVEN) -> dict:
    """The head judge corrects the result of a table in a closed round: a new row of kind
    `correction` with the written reason, who and when. The numbers must pass the table
    check (400 with the reasons, each with its seat where one is at fault; numbers the
    check refuses are an override). The standings read the latest row, so they follow.
    `client_id` and `based_on` as for `override_result`."""
    t = get_tournament(db, tournament_id)
    table = get_table(db, t["id"], number, table_no)
    clean = clean_vps(vps, table["size"])
    wd = clean_withdrawn(withdrawn, table["size"])
    why = _clean_reason(reason, "correction")
    refuse_impossible(clean, wd)
    cid, seen = result_guard.clean_client_id(client_id), result_guard.clean_based_on(based_on)
    with transaction(db):
        r = db[T_ROUNDS].get(table["round"]["id"])
        if r["status"] != "closed":
            raise TournamentError(409, Message("tournament.round-open-enter-result-instead", "round %(number)s is open: enter the result instead", number=r['number']), "round")
        stored = result_guard.check(db, table["id"], kind="correction", vps=clean, withdrawn=wd, client_id=cid,
                                    based_on=seen, may_replace_override=True, read=result_row)
        if stored is None:
            insert_result(db, table, "correction", clean, wd, reason=why, by=by, client_id=cid, based_on=seen)
    return dict(_table_detail(db, t["id"], table), duplicate=stored is not None)


def _table_detail(db, tournament_id: int, table: dict) -> dict:
    detail = round_detail(db, tournament_id, table["round"]["number"], only=table["number"])
    return next(x for x in detail["tables"] if x["number"] == table["number"])


def table_detail(db, tournament_id: Any, number: Any, table_no: Any) -> dict:
    t = get_tournament(db, tournament_id)
    table = get_table(db, t["id"], number, table_no)
    out = _table_detail(db, t["id"], table)
    out["round"] = table["round"]["number"]
    out["round_status"] = table["round"]["status"]
    out["round_kind"] = table["round"]["kind"]
    out["history"] = result_history(db, t["id"], number, table_no)
    return out
