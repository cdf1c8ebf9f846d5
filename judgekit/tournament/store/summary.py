"""What the dashboard shows, and the flat rows of the seating and standings exports."""
from __future__ import annotations

from typing import Any

from judgekit.tournament import seating as seating_mod
from judgekit.tournament import seating_criteria
from judgekit.tournament.store import adjusted, finals
from judgekit.tournament.store import tables as table_store
from judgekit.tournament.store.base import get_round, get_tournament, players, round_tables, rounds


def dashboard(db, tournament_id: Any) -> dict:
    t = get_tournament(db, tournament_id)
    everyone = players(db, t["id"])
    # the recorder's games are replayed for the open round only: a closed round's tables
    # all have their result rows; the final round's detail serves the final's state too
    adj = adjusted.table_adjustments(db, t["id"])  # once for every round (issue 18)
    rs = [table_store.round_detail(db, t["id"], r["number"], games=r["status"] != "closed", adjustments=adj)
          for r in rounds(db, t["id"])]
    prelims = [r for r in rs if r["kind"] == "prelim"]
    active = [p for p in everyone if not p["dropped"] and p["checked_in"]]
    n = len(active)
    sizes = seating_mod.table_sizes(n)
    plan = seating_mod.staggered_plan(n, t["rounds_planned"]) if seating_mod.needs_sit_outs(n) else None
    return {
        "tournament": t, "players": everyone, "rounds": rs, "active_count": n,
        "table_sizes": sizes, "staggered_plan": plan,
        "open_round": next((r for r in prelims if r["status"] == "open"), None),
        "prelims_done": len([r for r in prelims if r["status"] == "closed"]),
        "final": finals.final_state(db, t["id"], next((r for r in rs if r["kind"] == "final"), None)),
    }


def round_criteria(db, tournament_id: Any, number: Any) -> seating_criteria.Criteria | None:
    """The seating criteria figures (R1-R9, krcg's measure) of preliminary rounds 1 to
    `number`, R2 counted over the rounds the event plans; None for the final (seated by the
    finalists' choice, 3.1.3)."""
    t = get_tournament(db, tournament_id)
    r = get_round(db, t["id"], number)
    if r["kind"] != "prelim":
        return None
    upto = [x["number"] for x in rounds(db, t["id"]) if x["kind"] == "prelim" and x["number"] <= r["number"]]
    return seating_criteria.measure([round_tables(db, t["id"], n) for n in upto], t["rounds_planned"])


def criteria_page(db, tournament_id: Any, number: Any) -> dict | None:
    """The round page's criteria panel (`seating_criteria.Criteria.page`), players named."""
    figures = round_criteria(db, tournament_id, number)
    if figures is None:
        return None
    return figures.page({p["id"]: p["name"] for p in players(db, tournament_id)})


def export_criteria(db, tournament_id: Any, rows: list[dict]) -> dict[str, dict]:
    """The seating export's criteria (JSON): {"criteria": {round number (a string): figures,
    total, text and faults (`Criteria.to_dict`)}} for the preliminary rounds of `rows`
    (`seating_rows`)."""
    out = {}
    for k in sorted({row["round"] for row in rows}):
        figures = round_criteria(db, tournament_id, k)
        if figures is not None:
            out[str(k)] = figures.to_dict()
    return {"criteria": out}


SEATING_COLUMNS = ("round", "table", "seat", "player_id", "name", "vekn", "criteria")
STANDINGS_COLUMNS = ("place", "rank", "player_id", "name", "vekn", "gw", "vp", "tp", "rounds",
                     "status", "finish", "final_vp", "rating_points")


def seating_rows(db, tournament_id: Any, number: Any) -> list[dict]:
    """Flat seating of a round for export (`SEATING_COLUMNS`): round, table, seat, player
    id, name, VEKN, and the round's seating criteria figures ("R1 0 · R2 0 · …", the same
    on each row of the round; empty for the final)."""
    detail = table_store.round_detail(db, tournament_id, number)
    figures = round_criteria(db, tournament_id, detail["number"])
    text = figures.text() if figures else ""
    rows = []
    for tb in detail["tables"]:
        for s in tb["seats"]:
            rows.append({"round": detail["number"], "table": tb["number"], "seat": s["seat"],
                         "player_id": s["player_id"], "name": s["name"], "vekn": s["vekn"] or "",
                         "criteria": text})
    for p in detail["sit_out_players"]:
        rows.append({"round": detail["number"], "table": "", "seat": "sits out",
                     "player_id": p["player_id"], "name": p["name"], "vekn": "", "criteria": text})
    return rows


def standings_rows(db, tournament_id: Any) -> list[dict]:
    """Flat standings for export (`STANDINGS_COLUMNS`; after the final, the event's final
    ranking)."""
    res = finals.results(db, tournament_id)
    out = []
    for r in res["rows"]:
        out.append({"place": r["place"] if r["place"] is not None else "", "rank": r["rank"] or "",
                    "player_id": r["player_id"], "name": r["name"], "vekn": r["vekn"] or "",
                    "gw": r["gw"], "vp": r["vp"], "tp": r["tp"], "rounds": r["rounds"],
                    "status": r["status"], "finish": r["finish"] or "",
                    "final_vp": "" if r["final_vp"] is None else r["final_vp"],
                    "rating_points": r["rating"]["total"] if r["rating"] else ""})
    return out
