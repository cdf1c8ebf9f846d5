"""Tables report their own result: from their own links (`player_links`), one player of a
table proposes the table's VP, the others confirm or disagree on their phones.

- **Propose.** A seated player of an open round sends one VP per seat and the seats that
  withdrew; the numbers go through the same checks as a judge's entry (`tables`: well formed,
  then `scoring.check_table`: impossible VP are refused with the reasons and, when a
  withdrawal explains them, the seats to tick). The proposer's proposal is their
  confirmation. One proposal at a time per table: a second one while one is waiting is
  refused (409, naming it).
- **Confirm.** Each present player of the table (seated, not dropped, not disqualified)
  confirms the proposal they see (its id). When every present player has confirmed, the
  result counts: a result row of kind `reported` is stored (`tables`), in the same
  transaction as the last confirmation.
- **Disagree.** A present player disagrees (optionally saying why): the proposal waits for a
  judge. Calling the judge is the live layer's (`judgekit.live.table_reports`), which opens a
  call in the judges' queue.
- **Judges win.** A judge accepts a proposal (`accept`: a result row of kind `entered`, by
  the judge), or enters, overrides or corrects the table's result the usual way. Once a
  table has any result row, players can no longer propose or confirm (409 `locked`): a change
  is a judge's.

Everything is append-only: a proposal is a row of `tournament_result_reports`, each
confirmation, disagreement, acceptance and the moment it counted a row of
`tournament_result_report_steps`. A retried request (same player, same step; the same
`client_id` for a proposal) stores nothing new and answers `duplicate`. Pure domain code:
no Flask.
"""
from __future__ import annotations

import json
from typing import Any

from judgekit.db import transaction
from judgekit.errors import parse_int
from judgekit.i18n import Message
from judgekit.tournament.store import base, player_links, result_guard, tables
from judgekit.tournament.store.base import T_RESULTS, T_ROUNDS, T_SEATS, T_TABLES, TournamentError, now

T_REPORTS = "tournament_result_reports"
T_STEPS = "tournament_result_report_steps"
MAX_NOTE = 300
REPLACED = Message("reports.replaced", "This proposal was replaced by a newer one: reload the page.")
JUDGE_KINDS = ("entered", "override", "correction", "recorded")   # result rows a judge (or the close) wrote


# --- where a player sits ------------------------------------------------------------------

def seat_of(db, tournament_id: int, player_id: int) -> dict | None:
    """The table a player sits at in the round being played: `{"round", "round_kind",
    "round_id", "table_id", "table", "size", "seat", "players"}`, or None."""
    row = db.execute(
        f"select r.id, r.number, r.kind, t.id, t.number, t.size, s.seat from {T_SEATS} s "
        f"join {T_TABLES} t on t.id = s.table_id join {T_ROUNDS} r on r.id = t.round_id "
        "where r.tournament_id = ? and r.status = 'open' and s.player_id = ? order by r.number desc limit 1",
        [tournament_id, player_id]).fetchone()
    if row is None:
        return None
    seated = [s["player_id"] for s in db[T_SEATS].rows_where("table_id = ?", [row[3]], order_by="seat")]
    return {"round_id": row[0], "round": row[1], "round_kind": row[2], "table_id": row[3], "table": row[4],
            "size": row[5], "seat": row[6], "players": seated}


def _present(db, tournament_id: int, seated: list[int]) -> dict[int, dict]:
    """{player id: player} of the seated players who still play (not dropped, not
    disqualified): the ones whose confirmation is needed."""
    out = {}
    gone = base.disqualified_players(db, tournament_id)
    for pid in seated:
        p = base.get_player(db, tournament_id, pid)
        p["present"] = not p["dropped"] and pid not in gone
        out[pid] = p
    return out


# --- reading a report -----------------------------------------------------------------------

def _latest_report(db, table_id: int) -> dict | None:
    rows = list(db[T_REPORTS].rows_where("table_id = ?", [table_id], order_by="id desc", limit=1))
    return _with_steps(db, rows[0]) if rows else None


def _with_steps(db, row: dict) -> dict:
    row = dict(row)
    row["vps"], row["withdrawn"] = json.loads(row["vps"]), json.loads(row["withdrawn"])
    row["steps"] = list(db[T_STEPS].rows_where("report_id = ?", [row["id"]], order_by="id"))
    row["confirmed"] = [s["player_id"] for s in row["steps"] if s["kind"] == "confirm"]
    row["disputes"] = [{"player_id": s["player_id"], "note": s["note"], "at": s["created_at"]}
                       for s in row["steps"] if s["kind"] == "dispute"]
    done = next((s for s in row["steps"] if s["kind"] in ("counted", "accept")), None)
    row["status"] = ("counted" if done and done["kind"] == "counted" else "accepted" if done else
                     "disputed" if row["disputes"] else "pending")
    row["result_id"] = done["result_id"] if done else None
    row["accepted_by"] = done["by"] if done and done["kind"] == "accept" else None
    return row


def _latest_result(db, table_id: int) -> dict | None:
    return result_guard.latest_row(db, table_id, tables.result_row)


def _report_view(report: dict | None, result: dict | None, people: dict[int, dict]) -> dict | None:
    """A report as the pages and the API show it; `status` "replaced" when a judge stored
    the table's result some other way while it waited."""
    if report is None:
        return None
    status = report["status"]
    if status in ("pending", "disputed") and result is not None:
        status = "replaced"

    def name(pid):
        return people.get(pid, {}).get("name", f"#{pid}")
    waiting = [pid for pid, p in people.items() if p.get("present") and pid not in report["confirmed"]]
    return {"id": report["id"], "status": status, "vps": report["vps"], "withdrawn": report["withdrawn"],
            "proposed_by": name(report["player_id"]), "proposed_by_id": report["player_id"],
            "created_at": report["created_at"],
            "confirmed": [{"player_id": pid, "name": name(pid)} for pid in report["confirmed"]],
            "waiting": [{"player_id": pid, "name": name(pid)} for pid in waiting] if status == "pending" else [],
            "disputes": [dict(d, name=name(d["player_id"])) for d in report["disputes"]],
            "result_id": report["result_id"], "accepted_by": report["accepted_by"]}


def _result_view(result: dict | None, size: int) -> dict:
    if result is None:
        return {"state": "open", "locked": False, "vps": None, "source": None, "by": None, "withdrawn": []}
    status = tables.table_status(size, result, None)
    return {"state": status["state"], "locked": True, "vps": status["vps"], "source": result["kind"],
            "by": result.get("by"), "withdrawn": status["withdrawn"],
            "judge": result["kind"] in JUDGE_KINDS}


def player_state(db, tournament_id: Any, token: Any) -> dict:
    """What a player's own page shows: who they are, their table in the round being played
    (`table` None between rounds), the table's current report and result, and what they may
    do (`can`: "propose", "confirm", "dispute")."""
    return _state(db, player_links.resolve(db, tournament_id, token))


def _state(db, player: dict, where: Any = False) -> dict:
    """`player_state` of a player already read from their link (`where`: their seat, when
    the caller has it)."""
    tid = player["tournament_id"]
    where = seat_of(db, tid, player["id"]) if where is False else where
    out: dict[str, Any] = {"player": {"id": player["id"], "name": player["name"]}, "table": None,
                           "report": None, "result": None, "can": [], "you_confirmed": False, "version": "idle"}
    if where is None:
        return out
    people = _present(db, tid, where["players"])
    report = _latest_report(db, where["table_id"])
    result = _latest_result(db, where["table_id"])
    view = _report_view(report, result, people)
    out["table"] = {"round": where["round"], "round_kind": where["round_kind"], "number": where["table"],
                    "size": where["size"], "seat": where["seat"],
                    "seats": [{"seat": k + 1, "player_id": pid, "name": people[pid]["name"],
                               "present": people[pid]["present"], "you": pid == player["id"]}
                              for k, pid in enumerate(where["players"])]}
    out["report"], out["result"] = view, _result_view(result, where["size"])
    out["version"] = (f"{report['id'] if report else 0}:{len(report['steps']) if report else 0}:"
                      f"{result['id'] if result else 0}")
    if result is None:
        if view is None:
            out["can"] = ["propose"]
        elif view["status"] == "pending":
            mine = player["id"] in report["confirmed"]
            out["you_confirmed"] = mine
            out["can"] = ["dispute"] if mine else ["confirm", "dispute"]
    elif view is not None:
        out["you_confirmed"] = player["id"] in report["confirmed"]
    return out


def table_report(db, tournament_id: Any, number: Any, table_no: Any) -> dict | None:
    """The players' latest report of a table, for the judges' table page (None: none)."""
    t = base.get_tournament(db, tournament_id)
    table = tables.get_table(db, t["id"], number, table_no)
    report = _latest_report(db, table["id"])
    if report is None:
        return None
    people = _present(db, t["id"], table["players"])
    return _report_view(report, _latest_result(db, table["id"]), people)


def round_reports(db, tournament_id: Any, number: Any) -> dict[int, dict]:
    """{table number: `{"status", "confirmed", "present"}`} of the tables of a round whose
    players' report waits (`pending` or `disputed`, no result stored yet): the round page's
    marks."""
    t = base.get_tournament(db, tournament_id)
    r = base.get_round(db, t["id"], number)
    out: dict[int, dict] = {}
    rows = db.execute(
        f"select t.id, t.number, rep.id from {T_TABLES} t join {T_REPORTS} rep on rep.table_id = t.id "
        f"where t.round_id = ? and rep.id = (select max(id) from {T_REPORTS} where table_id = t.id) "
        f"and not exists (select 1 from {T_RESULTS} res where res.table_id = t.id)", [r["id"]]).fetchall()
    for table_id, table_no, rid in rows:
        report = _with_steps(db, db[T_REPORTS].get(rid))
        if report["status"] in ("pending", "disputed"):
            seated = [s["player_id"] for s in db[T_SEATS].rows_where("table_id = ?", [table_id])]
            present = [pid for pid, p in _present(db, t["id"], seated).items() if p["present"]]
            out[table_no] = {"status": report["status"], "present": len(present),
                             "confirmed": len([pid for pid in report["confirmed"] if pid in present])}
    return out


# --- writing ----------------------------------------------------------------------------------

def _seated(db, tournament_id: Any, token: Any) -> tuple[dict, dict]:
    """(the player of the link, where they sit now), or why they cannot report (409)."""
    player = player_links.resolve(db, tournament_id, token)
    where = seat_of(db, player["tournament_id"], player["id"])
    if where is None:
        raise TournamentError(409, Message("reports.not-seated", "%(player)s is not seated in a round being played: "
                                           "there is no table result to report now.", player=player["name"]),
                              "token", reason="not-seated")
    return player, where


def _refuse_if_locked(db, where: dict) -> None:
    """Inside the write's transaction: a table with a result row is no longer the players'."""
    r = db[T_ROUNDS].get(where["round_id"])
    if r["status"] == "closed":
        raise TournamentError(409, Message("reports.round-closed", "Round %(round)s is closed: only the head judge can "
                                           "change this table's result.", round=r["number"]), "round", locked=True)
    result = _latest_result(db, where["table_id"])
    if result is None:
        return
    if result["kind"] == "reported":
        raise TournamentError(409, Message("reports.result-in", "Table %(table)s's result is in (every player "
                                           "confirmed it). To change it, call a judge.", table=where["table"]),
                              "report", locked=True,
                              result=result_guard.public(result))
    if result.get("by"):
        raise TournamentError(409, Message("reports.judge-stored-by", "A judge stored table %(table)s's result "
                                           "(%(kind)s by %(by)s): the table is locked. To change it, call a judge.",
                                           table=where["table"], kind=result["kind"], by=result["by"]),
                              "report", locked=True, result=result_guard.public(result))
    raise TournamentError(409, Message("reports.judge-stored", "A judge stored table %(table)s's result (%(kind)s by "
                                       "a judge): the table is locked. To change it, call a judge.",
                                       table=where["table"], kind=result["kind"]),
                          "report", locked=True, result=result_guard.public(result))


def _clean_note(value: Any) -> str | None:
    return base._clean_text(value, "note", max_len=MAX_NOTE)


def propose(db, tournament_id: Any, token: Any, vps: Any, *, withdrawn: Any = None,
            client_id: Any = None) -> dict:
    """A player proposes their table's VP (see the module). Returns `player_state` after,
    with `duplicate` True when nothing new was stored (a retried request)."""
    player, where = _seated(db, tournament_id, token)
    clean = tables.clean_vps(vps, where["size"])
    wd = tables.clean_withdrawn(withdrawn, where["size"])
    tables.refuse_impossible(clean, wd)
    cid = result_guard.clean_client_id(client_id)
    duplicate = False
    with transaction(db):
        earlier = list(db[T_REPORTS].rows_where("table_id = ? and client_id = ?", [where["table_id"], cid],
                                                limit=1)) if cid else []
        if earlier:
            same = (json.loads(earlier[0]["vps"]), json.loads(earlier[0]["withdrawn"]),
                    earlier[0]["player_id"]) == (clean, wd, player["id"])
            if not same:
                raise TournamentError(409, Message("reports.client-id-used", "client_id %(cid)s was already used for "
                                                   "another proposal", cid=repr(cid)), "client_id")
            duplicate = True
        else:
            _refuse_if_locked(db, where)
            report = _latest_report(db, where["table_id"])
            if report is not None and report["status"] in ("pending", "disputed"):
                people = _present(db, player["tournament_id"], where["players"])
                view = _report_view(report, None, people)
                if report["status"] == "disputed":
                    said = Message("reports.already-proposed-disputed", "%(player)s already proposed table "
                                   "%(table)s's VP (%(vps)s): a judge is called to settle it.",
                                   player=view["proposed_by"], table=where["table"], vps=_vps_text(report["vps"]))
                else:
                    said = Message("reports.already-proposed", "%(player)s already proposed table %(table)s's VP "
                                   "(%(vps)s): confirm it or disagree.",
                                   player=view["proposed_by"], table=where["table"], vps=_vps_text(report["vps"]))
                raise TournamentError(409, said, "report", report=view)
            at = now()
            rid = db[T_REPORTS].insert({"table_id": where["table_id"], "player_id": player["id"],
                                        "vps": json.dumps(clean), "withdrawn": json.dumps(wd),
                                        "client_id": cid, "created_at": at}).last_pk
            db[T_STEPS].insert({"report_id": rid, "kind": "confirm", "player_id": player["id"],
                                "by": player["name"], "created_at": at})
            _count_if_all_confirmed(db, player["tournament_id"], where, rid)
    return dict(_state(db, player, where), duplicate=duplicate)


def _report_for(db, where: dict, report_id: Any) -> dict:
    """The proposal `report_id`, which must be of the player's own table (403 otherwise:
    a player confirms only their own table's result)."""
    rid = parse_int(report_id, 1)
    row = db[T_REPORTS].get(rid) if rid is not None and db.execute(
        f"select 1 from {T_REPORTS} where id = ?", [rid]).fetchone() else None
    if row is None:
        raise TournamentError(404, Message("reports.no-proposal", "There is no proposal %(id)s.", id=str(report_id)[:20]),
                              "report")
    if row["table_id"] != where["table_id"]:
        raise TournamentError(403, Message("reports.other-table", "This proposal is not for your table: you sit at "
                                           "table %(table)s, seat %(seat)s. Confirm only your own table's result.",
                                           table=where["table"], seat=where["seat"]), "report", reason="other-table")
    return _with_steps(db, row)


def confirm(db, tournament_id: Any, token: Any, report_id: Any) -> dict:
    """A player confirms the proposal `report_id` of their table. The last present player's
    confirmation makes it count (a `reported` result row). Confirming twice stores nothing
    new (`duplicate`); a proposal a player disagreed with, or a locked table, is refused."""
    player, where = _seated(db, tournament_id, token)
    duplicate = False
    with transaction(db):
        report = _report_for(db, where, report_id)
        if player["id"] in report["confirmed"]:
            duplicate = True
        else:
            _refuse_if_locked(db, where)
            _refuse_if_not_open(db, player, where, report)
            db[T_STEPS].insert({"report_id": report["id"], "kind": "confirm", "player_id": player["id"],
                                "by": player["name"], "created_at": now()})
            _count_if_all_confirmed(db, player["tournament_id"], where, report["id"])
    return dict(_state(db, player, where), duplicate=duplicate)


def _refuse_if_not_open(db, player: dict, where: dict, report: dict) -> None:
    latest = _latest_report(db, where["table_id"])
    if latest is not None and latest["id"] != report["id"]:
        raise TournamentError(409, REPLACED, "report")
    if report["status"] == "disputed":
        raise TournamentError(409, Message("reports.disputed", "A player disagreed with this proposal: a judge is "
                                           "called to settle the result."), "report", disputed=True)


def dispute(db, tournament_id: Any, token: Any, report_id: Any, *, note: Any = None) -> dict:
    """A player disagrees with the proposal `report_id` of their table: it waits for a
    judge. Returns `player_state` with `duplicate` (this player disagreed already) and
    `call_for` `{"round", "table", "report"}`: the judge call to open (the live layer)."""
    player, where = _seated(db, tournament_id, token)
    text = _clean_note(note)
    duplicate = False
    with transaction(db):
        report = _report_for(db, where, report_id)
        if any(d["player_id"] == player["id"] for d in report["disputes"]):
            duplicate = True
        else:
            _refuse_if_locked(db, where)
            latest = _latest_report(db, where["table_id"])
            if latest is not None and latest["id"] != report["id"]:
                raise TournamentError(409, REPLACED, "report")
            db[T_STEPS].insert({"report_id": report["id"], "kind": "dispute", "player_id": player["id"],
                                "by": player["name"], "note": text, "created_at": now()})
    out = _state(db, player, where)
    return dict(out, duplicate=duplicate,
                call_for={"round": where["round"], "table": where["table"], "report": report["id"]})


def _count_if_all_confirmed(db, tournament_id: int, where: dict, report_id: int) -> None:
    """Inside the write's transaction: when every present player of the table confirmed,
    the proposal counts (a `reported` result row and a `counted` step)."""
    report = _with_steps(db, db[T_REPORTS].get(report_id))
    people = _present(db, tournament_id, where["players"])
    if report["disputes"] or any(p["present"] and pid not in report["confirmed"] for pid, p in people.items()):
        return
    table = tables.get_table(db, tournament_id, where["round"], where["table"])
    stored = result_guard.check(db, table["id"], kind="reported", vps=report["vps"], withdrawn=report["withdrawn"],
                                client_id=None, based_on=None, may_replace_override=False, read=tables.result_row)
    if stored is not None:
        return
    names = ", ".join(people[pid]["name"] for pid in report["confirmed"] if pid in people)
    tables.insert_result(db, table, "reported", report["vps"], report["withdrawn"],
                          by=f"players of table {where['table']}", client_id=None, based_on=None,
                          note=f"proposed by {people[report['player_id']]['name']}; confirmed by {names}"[:500])
    rid = db.execute(f"select max(id) from {T_RESULTS} where table_id = ?", [table["id"]]).fetchone()[0]
    db[T_STEPS].insert({"report_id": report_id, "kind": "counted", "player_id": None, "by": None,
                        "result_id": rid, "created_at": now()})


def accept(db, tournament_id: Any, number: Any, table_no: Any, report_id: Any, *, by: str | None,
           may_replace_override: bool = False) -> dict:
    """A judge accepts the players' proposal `report_id` for a table: its numbers are stored
    as the judge's entry (`tables.enter_result`, kind `entered`: the table is locked) and an
    `accept` step names the judge. Refused (409) when the table has a result already (a
    judge changes it on the table page) or the proposal is not the table's latest."""
    t = base.get_tournament(db, tournament_id)
    table = tables.get_table(db, t["id"], number, table_no)
    rid = parse_int(report_id, 1)
    with transaction(db):
        row = db[T_REPORTS].get(rid) if rid is not None and db.execute(
            f"select 1 from {T_REPORTS} where id = ? and table_id = ?", [rid, table["id"]]).fetchone() else None
        if row is None:
            raise TournamentError(404, Message("reports.no-table-proposal", "There is no players' proposal %(id)s "
                                               "for table %(table)s.", id=str(report_id)[:20], table=table["number"]),
                                  "report")
        report = _with_steps(db, row)
        latest = _latest_report(db, table["id"])
        if report["status"] in ("counted", "accepted"):
            return dict(tables._table_detail(db, t["id"], table), duplicate=True)
        if latest["id"] != report["id"]:
            raise TournamentError(409, Message("reports.newer-proposal", "The players made a newer proposal: look at it "
                                               "first."), "report")
        after = tables.enter_result(db, t["id"], table["round"]["number"], table["number"], report["vps"],
                                    withdrawn=report["withdrawn"], by=by, based_on=None,
                                    note=f"the players' proposal #{report['id']}, accepted",
                                    may_replace_override=may_replace_override)
        db[T_STEPS].insert({"report_id": report["id"], "kind": "accept", "player_id": None, "by": by,
                            "result_id": after["result_id"], "created_at": now()})
    return dict(after, duplicate=False)


def _vps_text(vps: list[float]) -> str:
    return " · ".join(str(int(v)) if float(v).is_integer() else f"{v:g}" for v in vps)

