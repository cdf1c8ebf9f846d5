"""Reporting to the VEKN (issue 12, section 4): event levels and their rating bonuses, the
event's details, the VEKN results string exactly as Archon writes it (the expected string
below is worked out by hand from the rules and the format), its refusal while a player lacks
a VEKN number, the per-round results CSV, the web downloads and the CLI."""
from __future__ import annotations

import csv
import io
import math

import pytest
from click.testing import CliRunner

from judgekit.cli import main
from judgekit.db import open_db
from judgekit.tournament import final as final_mod
from judgekit.tournament import levels, rating, store
from judgekit.tournament import standings as standings_mod
from judgekit.tournament import vekn as vekn_mod

PEOPLE = [("Ana", "Alves"), ("Bruno", "Braga"), ("Carla", "Costa"), ("Dario", "Dias"), ("Elsa", "Eira"),
          ("Filip", "Faro"), ("Gina", "Gomes"), ("Hugo", "Horta")]


# --- levels ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,key,vekn_type,bonus", [
    ("standard", "standard", 2, 0.0), ("Standard Constructed", "standard", 2, 0.0),
    ("National Championship", "national", 8, 0.25), ("national", "national", 8, 0.25),
    ("Continental Championship", "continental", 6, 1.0),
    ("Continental Qualifier", "continental-qualifier", 5, 0.25),   # Archon v1.5's qualifier bonus
    ("National Qualifier", "national-qualifier", 7, 0.0), ("Mini Qualifier", "mini-qualifier", 4, 0.0),
    ("Grand Prix", "grand-prix", 15, 0.0), ("Demo", "demo", 1, 0.0), ("Limited", "limited", 3, 0.0),
    ("Unsanctioned Tournament", "unsanctioned", 12, 0.0), ("Storyline", "storyline", 9, 0.0),
    ("Launch Event", "launch", 10, 0.0), ("Build Your Own Storyline", "byo-storyline", 11, 0.0),
    ("Limited National Championship", "limited-national", 13, 0.25),
    ("Limited Continental Championship", "limited-continental", 14, 1.0), ("V5 Constructed", "v5", 16, 0.0),
])
def test_levels_as_the_vekn_lists_them(text, key, vekn_type, bonus):
    lv = levels.find(text)
    assert (lv.key, lv.vekn_type, lv.bonus) == (key, vekn_type, bonus)
    assert math.isclose(rating.coefficient(15, key), 1 + bonus)


def test_every_vekn_event_type_has_a_level_and_the_rules_example_still_holds():
    assert sorted(lv.vekn_type for lv in levels.LEVELS) == list(range(1, 17))
    assert levels.find("Super Cup") is None and levels.find(None) is None
    assert rating.finalist_bonus(50, "winner", "continental-qualifier") == 193  # the rules' "qualifier" example


def test_the_event_s_details(db):
    tid = store.create_tournament(db, {"name": "NC", "level": "National Championship", "vekn_event_id": "12345",
                                       "city": "Lyon", "format": "limited", "head_judge": "Hal",
                                       "assistant_judges": "Jo, Kim", "organizer": "Olga"})
    t = store.get_tournament(db, tid)
    assert (t["level"], t["vekn_event_id"], t["city"], t["format"], t["head_judge"], t["assistant_judges"],
            t["organizer"]) == ("national", "12345", "Lyon", "Limited", "Hal", "Jo, Kim", "Olga")
    t = store.update_event(db, tid, {"level": "grand-prix", "vekn_event_id": "", "date": "2025-06-01"})
    assert (t["level"], t["vekn_event_id"], t["date"], t["city"]) == ("grand-prix", None, "2025-06-01", "Lyon")
    for bad, field in ([{"level": "Super Cup"}, "level"], [{"vekn_event_id": "12a"}, "vekn_event_id"],
                       [{"vekn_event_id": -3}, "vekn_event_id"], [{"format": "Draft"}, "format"],
                       [{"city": "x" * 81}, "city"], [{"head_judge": ["Hal"]}, "head_judge"]):
        with pytest.raises(store.TournamentError) as exc:
            store.update_event(db, tid, bad)
        assert exc.value.status == 400 and exc.value.field == field
    with pytest.raises(store.TournamentError) as exc:
        store.create_tournament(db, {"name": "X", "level": "Regional"})
    assert "unknown event level 'Regional'" in exc.value.message and "Grand Prix" in exc.value.message


# --- an event worked out by hand ----------------------------------------------------------------

def seat_final_as(db, tid, row):
    """Seat the final with `row` as seat 1..5 (the seat choice and the first player's draw)."""
    placed = []
    for p in final_mod.placement_order(store.get_tournament(db, tid)["finalists"]):
        store.place_final_card(db, tid, p, sum(1 for q in placed if row.index(q) < row.index(p)))
        placed.append(p)
    seed = next(s for s in range(1000) if final_mod.draw_first_player(row, s) == row[0])
    return store.seat_final(db, tid, seed=seed)


def hand_event(db, *, missing_number: bool = False) -> tuple[int, dict]:
    """8 players, two rounds of two tables, a toss for 5th place, a final won by Carla.
    Returns the tournament id and the players' ids by first name."""
    tid = store.create_tournament(db, {"name": "Hand Cup", "rounds_planned": 2, "date": "2025-05-17"})
    ids = {}
    for k, (first, last) in enumerate(PEOPLE, 1):
        vekn = None if missing_number and first == "Dario" else str(1000000 + k)
        ids[first] = store.add_player(db, tid, {"first_name": first, "last_name": last, "vekn": vekn,
                                                "city": "" if first == "Hugo" else "Lyon"})["id"]
    A, B, C, D, E, F, G, H = (ids[f] for f, _ in PEOPLE)
    store.start_round(db, tid, tables=[[A, B, C, D], [E, F, G, H]])
    store.enter_result(db, tid, 1, 1, [4, 0, 0, 0])          # A sweeps: 60; B, C, D 28 each
    store.enter_result(db, tid, 1, 2, [1.5, 0, 0.5, 0.5])    # 3.7.4's four-player example: 60 12 36 36
    store.close_round(db, tid, 1)
    store.start_round(db, tid, tables=[[A, E, B, F], [C, G, D, H]])
    store.enter_result(db, tid, 2, 1, [2, 0, 0, 2])          # A and F tie at 2: no GW, 54 each; E, B 18
    store.enter_result(db, tid, 2, 2, [4, 0, 0, 0])          # C sweeps: 60; G, D, H 28
    store.close_round(db, tid, 2)
    # G and H are tied for 5th (0 GW, 0.5 VP, 64 TP): the toss puts G first
    seed = next(s for s in range(1000) if standings_mod.draw_toss([G, H], s)[G] == 1)
    store.record_toss(db, tid, [G, H], seed=seed)
    store.start_final(db, tid)
    seat_final_as(db, tid, [A, C, F, E, G])
    store.enter_result(db, tid, 3, 1, [0, 3, 1, 1, 0])       # Carla 3 VP wins; F, E 42 TP; A, G 18
    store.close_round(db, tid, 3)
    return tid, ids


# Worked by hand: prelim GW/VP/TP, final VP and TP, rating points (8 players: coef
# log15(64) - 1 = 0.5358; winner +48, finalists +16).
EXPECTED = ("3¤"
            "1§Carla§Costa§Lyon§1000003§1§4.0§3.0§148§0§97.0§"
            "2§Ana§Alves§Lyon§1000001§1§6.0§0.0§132§0§53.0§"
            "2§Filip§Faro§Lyon§1000006§0§2.0§1.0§108§0§33.0§"
            "2§Elsa§Eira§Lyon§1000005§0§1.5§1.0§120§0§31.0§"
            "2§Gina§Gomes§Lyon§1000007§0§0.5§0.0§82§1§23.0§"
            "6§Hugo§Horta§§1000008§0§0.5§0§64§0§7.0§"
            "7§Dario§Dias§Lyon§1000004§0§0.0§0§56§0§5.0§"
            "8§Bruno§Braga§Lyon§1000002§0§0.0§0§46§0§5.0§")


def test_the_vekn_string_is_exactly_archon_s(db):
    tid, _ = hand_event(db)
    rep = store.vekn_report(db, tid)
    assert rep.ok and rep.text == EXPECTED


def test_the_string_is_refused_with_the_players_at_fault(db):
    tid, ids = hand_event(db, missing_number=True)
    rep = store.vekn_report(db, tid)
    assert not rep.ok and rep.text is None
    assert rep.problems == [{"player_id": ids["Dario"], "name": "Dario Dias", "problem": "no VEKN number"}]
    store.edit_player(db, tid, ids["Dario"], {"vekn": "P1"})
    assert store.vekn_report(db, tid).problems[0]["problem"].startswith("temporary number P1")
    store.edit_player(db, tid, ids["Dario"], {"vekn": "1000004"})
    assert store.vekn_report(db, tid).text == EXPECTED


def test_no_string_before_the_result_and_no_one_who_never_played(db):
    tid = store.create_tournament(db, {"name": "Early", "rounds_planned": 2})
    store.register_roster(db, tid, "\n".join(f"P{k} X;{k}" for k in range(1, 10)), checked_in=True)
    rep = store.vekn_report(db, tid)
    assert rep.refusal.startswith("The event has no result yet")
    # a no-show (registered, never seated) is not listed, as on vekn.net
    built = vekn_mod.build([{"player_id": 1, "name": "A B", "place": 1, "rank": 1, "rounds": 1, "gw": 1, "vp": 3.0,
                             "tp": 60, "finish": None, "final_vp": None, "toss": None, "rating": {"total": 25.0}},
                            {"player_id": 2, "name": "No Show", "place": 2, "rank": 2, "rounds": 0, "gw": 0,
                             "vp": 0.0, "tp": 0, "finish": None, "final_vp": None, "toss": None, "rating": None}],
                           {1: {"first_name": "A", "last_name": "B", "city": "X", "vekn": "7"}},
                           rounds=1, finished=True)
    assert built.text == "1¤1§A§B§X§7§1§3.0§0§60§0§25.0§"


def test_dropped_players_follow_and_ties_share_a_rank():
    rows = [{"player_id": k, "name": f"P {k}", "place": place, "rounds": 2, "gw": 0, "vp": vp, "tp": tp,
             "finish": None, "final_vp": None, "toss": None, "rating": {"total": 5.0}}
            for k, (place, vp, tp) in enumerate([(6, 1.0, 60), (7, 0.5, 40), (7, 0.5, 40), (9, 0.0, 24),
                                                 (None, 0.0, 12), (None, 0.0, 12)], 1)]
    people = {k: {"first_name": "P", "last_name": str(k), "city": "", "vekn": str(k)} for k in range(1, 7)}
    rep = vekn_mod.build(rows, people, rounds=3, finished=True)
    assert [r.rank for r in rep.records] == [6, 7, 7, 9, 5, 5]
    people[3]["last_name"] = "Evil§Name"
    assert vekn_mod.build(rows, people, rounds=3, finished=True).problems[0]["player_id"] == 3


def test_results_per_round_and_their_csv(client):
    created = client.post("/api/tournaments", json={"name": "CSV Cup", "rounds_planned": 2}).get_json()
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + created["token"]
    tid = created["id"]
    client.post(f"/api/tournaments/{tid}/players", json=[{"name": n, "vekn": str(k)} for k, n in enumerate(
        ["=HYPERLINK(\"http://x\")", "+Bo", "-Cy-", "@Di"], 1)])
    client.post(f"/api/tournaments/{tid}/rounds", json={"seed": 1})
    client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/result", json={"vps": [1.5, 0, 0.5, 0.5]})
    r = client.get(f"/tournaments/{tid}/export/results.csv")
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert list(rows[0]) == list(store.RESULTS_COLUMNS)
    assert [(x["seat"], x["vp"], x["gw"], x["tp"]) for x in rows] == [("1", "1.5", "0", "60"), ("2", "0.0", "0", "12"),
                                                                      ("3", "0.5", "0", "36"), ("4", "0.5", "0", "36")]
    assert all(x["player"].startswith("'") for x in rows)   # spreadsheet-safe
    body = client.get(f"/tournaments/{tid}/export/results.json?round=1").get_json()
    assert body["results"][0]["player"] in ('=HYPERLINK("http://x")', "+Bo", "-Cy-", "@Di")  # JSON: raw
    assert client.get(f"/tournaments/{tid}/export/results.json?round=9").status_code == 404
    assert client.get(f"/tournaments/{tid}/export/results.xml").status_code == 404


def test_the_report_page_downloads_and_api(client, app, signed_in):
    created = client.post("/api/tournaments", json={"name": "Web Cup"}).get_json()
    tid = created["id"]
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + created["token"]
    r = client.get(f"/tournaments/{tid}/export/vekn.txt")
    assert r.status_code == 409 and "no result yet" in r.get_data(as_text=True)
    assert client.get(f"/api/tournaments/{tid}/vekn").get_json()["ok"] is False
    db = open_db(app.config["DATABASE"])
    try:
        hand, ids = hand_event(db, missing_number=True)
    finally:
        db.close()
    signed_in(client, hand, "head_judge")
    html = client.get(f"/tournaments/{hand}/vekn").get_data(as_text=True)
    assert "Dario Dias" in html and "no VEKN number" in html and "by Sun 25 May 2025" in html
    r = client.get(f"/tournaments/{hand}/export/vekn.txt")
    assert r.status_code == 409 and "Dario Dias (no VEKN number)" in r.get_data(as_text=True)
    api = client.get(f"/api/tournaments/{hand}/vekn").get_json()
    assert api["problems"][0]["name"] == "Dario Dias" and api["archondata"] is None
    db = open_db(app.config["DATABASE"])
    try:
        store.edit_player(db, hand, ids["Dario"], {"vekn": "1000004"})
    finally:
        db.close()
    r = client.get(f"/tournaments/{hand}/export/vekn.txt")
    assert r.status_code == 200 and r.get_data(as_text=True) == EXPECTED
    assert 'attachment; filename="vekn-' in r.headers["Content-Disposition"]
    html = client.get(f"/tournaments/{hand}/vekn").get_data(as_text=True)
    assert EXPECTED in html and "data-copy-text" in html
    # the head judge may not change the event's details; the organizer may
    r = client.patch(f"/api/tournaments/{hand}", json={"vekn_event_id": 77})
    assert r.status_code == 403


def test_the_report_page_says_when_no_head_judge_is_set_and_how_to_set_it(client, app, signed_in):
    """The head judge line was blank ("—") on the report page when none was set."""
    db = open_db(app.config["DATABASE"])
    try:
        tid = store.create_tournament(db, {"name": "Judge-less Cup"})
    finally:
        db.close()
    signed_in(client, tid, "head_judge")
    html = client.get(f"/tournaments/{tid}/vekn").get_data(as_text=True)
    assert 'id="no-head-judge"' in html
    assert "Not set" in html and "The organizer sets it on this page" in html
    signed_in(client, tid, "organizer")
    html = client.get(f"/tournaments/{tid}/vekn").get_data(as_text=True)
    assert 'id="no-head-judge"' in html and "Type the head judge" in html and 'id="ev-head_judge"' in html
    assert client.patch(f"/api/tournaments/{tid}", json={"head_judge": "Hal Head"}).status_code == 200
    html = client.get(f"/tournaments/{tid}/vekn").get_data(as_text=True)
    assert 'id="no-head-judge"' not in html and 'value="Hal Head"' in html
    signed_in(client, tid, "head_judge")
    html = client.get(f"/tournaments/{tid}/vekn").get_data(as_text=True)
    assert 'id="no-head-judge"' not in html and "<dd>Hal Head</dd>" in html


def test_the_cli_prints_the_string_or_refuses(tmp_path):
    db = open_db(tmp_path / "judgekit.db")
    from judgekit.db import migrate
    migrate(db)
    tid, ids = hand_event(db, missing_number=True)
    db.close()
    runner = CliRunner()
    r = runner.invoke(main, ["--instance", str(tmp_path), "export", "vekn", "--tournament", str(tid)])
    assert r.exit_code == 1 and "Dario Dias (no VEKN number)" in r.output
    db = open_db(tmp_path / "judgekit.db")
    store.edit_player(db, tid, ids["Dario"], {"vekn": "1000004"})
    db.close()
    r = runner.invoke(main, ["--instance", str(tmp_path), "export", "vekn", "--tournament", str(tid)])
    assert r.exit_code == 0 and r.output == EXPECTED + "\n"
    r = runner.invoke(main, ["--instance", str(tmp_path), "export", "vekn", "--tournament", "99"])
    assert r.exit_code == 1 and "no tournament 99" in r.output
    r = runner.invoke(main, ["--instance", str(tmp_path), "export", "results", "--tournament", str(tid),
                             "--round", "3"])
    assert r.exit_code == 0 and r.output.splitlines()[1].startswith("final,1,1,Ana Alves,1000001,0.0,0,18")
