"""Reporting an event: the VEKN results string, the Archon workbook and the per-round
results. Every figure is read from the store as it scores the event — the results rows
(`finals.results`: preliminary GW/VP/TP with Standings Adjustments, final VP, toss, rating
points) and each round's `round_detail` (seat VP as played, VP that count, GW, TP); nothing
is scored again here. The formats are `tournament.vekn` and `tournament.archon`."""
from __future__ import annotations

from typing import Any

from judgekit import timetext
from judgekit.tournament import archon as archon_mod
from judgekit.tournament import levels as levels_mod
from judgekit.tournament import vekn as vekn_mod
from judgekit.tournament.penalties import store as penalties_store
from judgekit.tournament.penalties.records import in_force
from judgekit.tournament.store import adjusted, finals
from judgekit.tournament.store import tables as table_store
from judgekit.tournament.store.base import get_tournament, players, rounds

RESULTS_COLUMNS = ("round", "table", "seat", "player", "vekn", "vp", "gw", "tp", "vp_played", "state")


def _details(db, t: dict) -> list[dict]:
    """`round_detail` of every round, the SAs resolved once."""
    adj = adjusted.table_adjustments(db, t["id"])
    return [table_store.round_detail(db, t["id"], r["number"], games=r["status"] != "closed", adjustments=adj)
            for r in rounds(db, t["id"])]


def _final_table(details: list[dict]) -> dict | None:
    final = next((d for d in details if d["kind"] == "final"), None)
    return final["tables"][0] if final and final["tables"] else None


def vekn_report(db, tournament_id: Any) -> vekn_mod.Report:
    """The VEKN results string's records, or why it cannot be made yet (`Report.ok`,
    `problems`: the players at fault, `refusal`: the event)."""
    t = get_tournament(db, tournament_id)
    res = finals.results(db, t["id"])
    details = _details(db, t)
    final = _final_table(details)
    final_tp = {s["player_id"]: s.get("tp", 0) for s in final["seats"]} if final else {}
    played = [d for d in details if d["kind"] == "prelim" and d["status"] == "closed"]
    count = len(played) + (1 if res["finished"] and final else 0)
    people = {p["id"]: p for p in players(db, t["id"])}
    return vekn_mod.build(res["rows"], people, rounds=count, finished=res["finished"], final_tp=final_tp)


def results_rows(db, tournament_id: Any, number: Any = None) -> list[dict]:
    """One row per seat of every table (`RESULTS_COLUMNS`): round, table, seat, player,
    VEKN number, the VP that count, GW, TP, the VP as played, the table's state. A table
    without its result has empty VP, GW and TP. `number`: one round only."""
    t = get_tournament(db, tournament_id)
    details = _details(db, t)
    if number is not None:
        wanted = table_store.get_round(db, t["id"], number)["number"]
        details = [d for d in details if d["number"] == wanted]
    out = []
    for d in details:
        label = "final" if d["kind"] == "final" else d["number"]
        for tb in d["tables"]:
            scored = tb["state"] in ("finished", "overridden")
            for s in tb["seats"]:
                out.append({"round": label, "table": tb["number"], "seat": s["seat"], "player": s["name"],
                            "vekn": s["vekn"] or "",
                            "vp": s.get("vp_adjusted", "") if scored else "",
                            "gw": s.get("gw", "") if scored else "", "tp": s.get("tp", "") if scored else "",
                            "vp_played": s.get("vp", "") if scored else "", "state": tb["state"]})
    return out


def archon_event(db, tournament_id: Any) -> archon_mod.ArchonEvent:
    """The event as the Archon workbook holds it. Player numbers are the order of
    registration (1, 2, …); a round's tables are its tables; the final's seats are the
    seat order. E (the VP as played) is what the players scored; GW, TP and the VP that
    count are judgekit's (Standings Adjustments applied), and each SA and head judge's
    override is a row of the Override sheet."""
    t = get_tournament(db, tournament_id)
    res = finals.results(db, t["id"])
    details = _details(db, t)
    everyone = players(db, t["id"])
    number = {p["id"]: k for k, p in enumerate(everyone, 1)}
    rows = {r["player_id"]: r for r in res["rows"]}
    level = levels_mod.BY_KEY.get(t["level"]) or levels_mod.BY_KEY["standard"]
    dq = {r["player_id"] for r in res["rows"] if r["status"] == "disqualified"}
    event = archon_mod.ArchonEvent(
        name=t["name"], date=t.get("date"), organizer=t.get("organizer") or "", city=t.get("city") or
        t.get("location") or "", format=t.get("format") or level.format, level=level.archon,
        head_judge=t.get("head_judge") or "", assistant_judges=t.get("assistant_judges") or "",
        vekn_event_id=t.get("vekn_event_id") or "", disqualifications=len(dq))
    games: dict[int, int] = {}
    for d in details:
        for tb in d["tables"]:
            for s in tb["seats"]:
                games[s["player_id"]] = games.get(s["player_id"], 0) + 1
    finalists = set(t["finalists"] or [])
    sas = {r["id"]: r for r in _penalty_records(db, t["id"])}
    for p in everyone:
        r = rows.get(p["id"], {})
        event.players.append(archon_mod.ArchonPlayer(
            number=number[p["id"]], first=p.get("first_name") or "", last=p.get("last_name") or "",
            city=p.get("city") or "", vekn=p["vekn"] or "", country=p.get("country") or "",
            rounds_played=games.get(p["id"], 0), dq=r.get("status") in ("disqualified", "dropped"),
            toss=(r.get("toss") or 0) if p["id"] in finalists else 0))
    for d in details:
        tables = [[_seat(s, number, tb) for s in tb["seats"]] for tb in d["tables"]]
        if d["kind"] == "final":
            event.final = tables[0] if tables else []
        else:
            event.rounds.append(tables)
            event.round_times.append((timetext.short(d.get("started_at")) if d.get("started_at") else "",
                                      timetext.short(d.get("closed_at")) if d.get("closed_at") else ""))
        label = "F" if d["kind"] == "final" else str(d["number"])
        for tb in d["tables"]:
            if tb["state"] == "overridden":
                event.overrides.append((label, tb["number"], None, f"Head judge's override: {tb.get('reason') or ''}"))
            counted = {s["player_id"]: s.get("vp_adjusted") for s in tb["seats"]}
            for sa in tb.get("adjustments") or []:
                rec = sas.get(sa.get("record")) or {}
                why = ", ".join(x for x in (rec.get("infraction"), rec.get("penalty")) if x)
                event.adjustments.append(archon_mod.Adjustment(
                    round=label, table=tb["number"], number=number.get(sa["player_id"], 0), vp=float(sa.get("vp", -1)),
                    vp_counted=counted.get(sa["player_id"]),
                    text=f"Standings Adjustment: {sa.get('vp', -1):+g} VP in this game "
                         f"(judgekit penalty record {sa.get('record')}{': ' + why if why else ''})"))
    event.finalists = [number[p] for p in (t["finalists"] or []) if p in number]
    if res["finished"] and event.final:
        event.final_ranks = {number[p]: (1 if p == res["winner"] else 2) for p in t["finalists"] or []}
    for r in res["rows"]:
        event.report.append({
            "number": number.get(r["player_id"]), "vekn": r["vekn"] or "", "name": r["name"],
            "games": games.get(r["player_id"], 0), "won": r.get("total_gw", r["gw"]),
            "vp": r.get("total_vp", r["vp"]), "rank": r["place"] if r.get("finish") else "",
            "rank_all": r["place"] if r["place"] is not None else "", "prelim_gw": r["gw"], "prelim_vp": r["vp"],
            "prelim_tp": r["tp"], "final_vp": r.get("final_vp")})
    event.warnings_issued = _warnings(db, t["id"])
    return event


def _seat(s: dict, number: dict, tb: dict) -> archon_mod.ArchonSeat:
    scored = tb["state"] in ("finished", "overridden")
    return archon_mod.ArchonSeat(number=number.get(s["player_id"], 0), vp=s.get("vp") if scored else None,
                                 gw=s.get("gw") if scored else None, tp=s.get("tp") if scored else None,
                                 vp_counted=s.get("vp_adjusted") if scored else None)


def _penalty_records(db, tournament_id: int) -> list[dict]:
    """The penalties area's records in force (replayed), to name an SA's infraction."""
    return penalties_store.current(db, tournament_id)


def _warnings(db, tournament_id: int) -> int:
    """Warnings in force (Tournament Info!B14), from the penalties area's records."""
    return sum(1 for rec in in_force(penalties_store.records(db, tournament_id))
               if str(rec.get("penalty") or "").casefold() == "warning")


def archon_workbook(db, tournament_id: Any) -> bytes:
    """The Archon workbook (.xlsx) of the event."""
    return archon_mod.write_workbook(archon_event(db, tournament_id))
