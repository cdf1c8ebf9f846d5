"""The organizer's rough edges (issue 27 §2): players of the same name told apart everywhere,
where a Standings Adjustment applied in the penalty export, event details that carry
across, the default start for a venue, the penalty form's rule, the drop confirmation,
the dashboard after the final, and imports limited per device (issue 28, item 1)."""
from __future__ import annotations

import html as html_mod
import re

import pytest

from judgekit.tournament import players as players_mod
from judgekit.tournament import store
from tests.conftest import sign_in_client


def text_of(response) -> str:
    body = response.get_data(as_text=True)
    return html_mod.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


# --- players of the same name ---------------------------------------------------------------------

def test_told_apart_uses_the_city_then_the_country_then_the_order_of_registration():
    people = [{"id": 1, "name": "Rui Costa", "city": "Porto"}, {"id": 2, "name": "rui  costa", "city": "Lisboa"},
              {"id": 3, "name": "Ana Silva", "city": "Lyon"}]
    assert players_mod.told_apart(people) == {1: "Porto", 2: "Lisboa"}   # Ana has no namesake
    assert players_mod.told_apart(people, every=True)[3] == "Lyon"       # the check-in's list
    same_city = [{"id": 7, "name": "Rui Costa", "city": "Porto"}, {"id": 4, "name": "Rui Costa", "city": "porto"},
                 {"id": 9, "name": "Rui Costa", "country": "Portugal"}]
    assert players_mod.told_apart(same_city) == {4: "porto, 1st registered", 7: "Porto, 2nd registered",
                                                 9: "Portugal"}
    nothing = [{"id": 1, "name": "Zoë K"}, {"id": 2, "name": "Zoe K"}]
    assert players_mod.told_apart(nothing) == {1: "1st registered", 2: "2nd registered"}


def test_the_paste_preview_flags_a_repeated_name(db):
    tid = store.create_tournament(db, {"name": "NQ", "rounds_planned": 3})
    store.add_player(db, tid, {"name": "Ana Silva", "city": "Lyon"})
    roster = store.preview_roster(db, tid, "Rui Costa;1001;Porto\nBea Lima;1002;Faro\nRui Costa;1003;Lisboa\n"
                                           "ana silva;1004\n")
    assert roster.ok                                      # a flag, not a refusal: two people may share a name
    rows = {r.line: r for r in roster.rows}
    assert rows[1].namesakes and "line 3" in rows[1].namesakes[0] and "Porto / Lisboa" in rows[1].namesakes[0]
    assert rows[3].namesakes and "line 1" in rows[3].namesakes[0]
    assert not rows[2].namesakes
    assert "already registered" in rows[4].namesakes[0] and "give each a different city" in rows[4].namesakes[0]
    assert "2 share a name" not in roster.summary() and "3 share a name" in roster.summary()


def test_the_preview_page_shows_the_flag(app, client):
    from judgekit.db import open_db
    db = open_db(app.config["DATABASE"])
    tid = store.create_tournament(db, {"name": "NQ", "rounds_planned": 3})
    db.close()
    csrf = sign_in_client(app, client, tid, "organizer", how="session")
    r = client.post(f"/tournaments/{tid}/players/import",
                    data={"csrf_token": csrf, "text": "Rui Costa;1001;Porto\nRui Costa;1003;Lisboa", "action": "preview"})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and page.count('class="warn-text small namesake"') == 2
    assert "Same name as line 2 (Rui Costa)" in text_of(r)


def namesake_event(db):
    """10 players, two Rui Costa (Porto, Lisboa) at different tables, round 1 played."""
    tid = store.create_tournament(db, {"name": "NQ", "rounds_planned": 3})
    ids = [store.add_player(db, tid, {"name": n, "city": c})["id"] for n, c in
           [("Rui Costa", "Porto"), ("Ana Silva", ""), ("Bea Lima", ""), ("Carl Dias", ""), ("Dora Reis", ""),
            ("Rui Costa", "Lisboa"), ("Eva Melo", ""), ("Fil Neto", ""), ("Gil Paz", ""), ("Hugo Sa", "")]]
    store.start_round(db, tid, tables=[ids[:5], ids[5:]])
    store.enter_result(db, tid, 1, 1, [3, 1, 1, 0, 0])
    store.enter_result(db, tid, 1, 2, [0, 2, 1, 1, 1])
    return tid, ids


def test_the_seat_finder_the_wall_list_the_round_page_and_the_standings_tell_them_apart(app, client):
    from judgekit.db import open_db
    db = open_db(app.config["DATABASE"])
    tid, _ = namesake_event(db)
    db.close()
    found = text_of(client.get(f"/tournaments/{tid}/rounds/1/seats?q=rui"))
    assert "Rui Costa · Porto Table 1" in found and "Rui Costa · Lisboa Table 2" in found
    part = text_of(client.get(f"/tournaments/{tid}/rounds/1/seats?q=rui&part=results"))
    assert "Rui Costa · Porto" in part and "Rui Costa · Lisboa" in part
    wall = text_of(client.get(f"/tournaments/{tid}/rounds/1/seats/list"))
    assert "Rui Costa · Lisboa Table 2 seat 1" in wall and "Rui Costa · Porto Table 1 seat 1" in wall
    assert "Ana Silva ·" not in wall                          # no namesake: the name alone
    public = text_of(client.get(f"/tournaments/{tid}/public"))
    assert "Rui Costa · Porto" in public and "Rui Costa · Lisboa" in public
    sign_in_client(app, client, tid, "organizer")
    round_page = text_of(client.get(f"/tournaments/{tid}/rounds/1"))
    assert "1 Rui Costa · Porto" in round_page and "1 Rui Costa · Lisboa" in round_page
    standings = text_of(client.get(f"/tournaments/{tid}/standings"))
    assert "Rui Costa · Porto" in standings and "Rui Costa · Lisboa" in standings


# --- the penalty export keeps where a Standings Adjustment applied ----------------------------------

def test_the_penalty_export_names_the_game_an_sa_applies_to(db):
    from judgekit.tournament.penalties import store as pstore
    tid = store.create_tournament(db, {"name": "NQ", "rounds_planned": 3})
    ids = [store.add_player(db, tid, {"name": f"P{k}", "vekn": str(100 + k)})["id"] for k in range(8)]
    store.start_round(db, tid, tables=[ids[:4], ids[4:]])
    store.enter_result(db, tid, 1, 1, [4, 0, 0, 0])
    store.enter_result(db, tid, 1, 2, [4, 0, 0, 0])
    store.close_round(db, tid, 1)
    sa = pstore.issue(db, tid, {"player": ids[0], "infraction": "Outside Assistance", "description": "coached"},
                      judge="Hal", role="head_judge").record          # between rounds: no game of its own
    assert sa["round"] is None and sa["table"] is None
    store.start_round(db, tid, tables=[ids[4:], ids[:4]])             # the player sits at table 2
    detail = store.round_detail(db, tid, 2)
    game = detail["tables"][1]["game_id"]
    rows = {r["id"]: r for r in pstore.export_json(db, tid)}
    assert (rows[sa["id"]]["round"], rows[sa["id"]]["table"], rows[sa["id"]]["game"]) == (2, 2, game)
    csv_rows = pstore.export_csv(db, tid).splitlines()
    header = csv_rows[0].split(",")
    line = next(r.split(",") for r in csv_rows[1:] if r.startswith(f"{sa['id']},"))
    assert (line[header.index("round")], line[header.index("table")], line[header.index("game")]) == \
        ("2", "2", str(game))
    # a penalty that is no adjustment keeps its empty game
    caution = pstore.issue(db, tid, {"player": ids[1], "infraction": "card access error"}, judge="Jo",
                           role="judge").record
    assert pstore.export_json(db, tid)[-1]["id"] == caution["id"] and pstore.export_json(db, tid)[-1]["round"] is None


# --- event details carry across -------------------------------------------------------------------

def test_the_place_given_at_creation_is_the_reports_city_and_an_imports_city_is_its_place(db):
    from pathlib import Path
    tid = store.create_tournament(db, {"name": "NQ Porto", "location": "Porto"})
    t = store.get_tournament(db, tid)
    assert t["city"] == "Porto" and store.vekn_report(db, tid) is not None
    both = store.get_tournament(db, store.create_tournament(db, {"name": "X", "location": "Clube A", "city": "Gaia"}))
    assert (both["location"], both["city"]) == ("Clube A", "Gaia")      # each given: each kept
    data = (Path(__file__).parent / "fixtures" / "archon" / "lo-17-players.xlsx").read_bytes()
    imported = store.get_tournament(db, store.import_workbook(db, data)["tournament"])
    assert imported["city"] and imported["location"] == imported["city"]


def test_the_report_form_offers_the_head_judge_who_signed_in_and_approved(app, client):
    from judgekit.db import open_db
    from judgekit.tournament.penalties import store as pstore
    db = open_db(app.config["DATABASE"])
    tid = store.create_tournament(db, {"name": "NQ", "location": "Porto"})
    pid = store.add_player(db, tid, {"name": "Ana Silva"})["id"]
    db.close()
    sign_in_client(app, client, tid, "organizer")
    page = client.get(f"/tournaments/{tid}/vekn").get_data(as_text=True)
    assert re.search(r'id="ev-city"[^>]*value="Porto"', page) or re.search(r'value="Porto"[^>]*id="ev-city"', page)
    assert 'id="no-head-judge"' in page
    judge = app.test_client()
    sign_in_client(app, judge, tid, "judge", name="Jo Judge")
    assert judge.post(f"/api/tournaments/{tid}/penalties", json={
        "player": pid, "infraction": "Outside Assistance", "description": "coached"}).status_code == 201
    hj = app.test_client()
    sign_in_client(app, hj, tid, "head_judge", name="Hal Head")
    db = open_db(app.config["DATABASE"])
    rec = pstore.pending(db, tid)[0]
    db.close()
    assert hj.post(f"/api/tournaments/{tid}/penalties/{rec['id']}/approve", json={}).status_code in (200, 201)
    page = client.get(f"/tournaments/{tid}/vekn").get_data(as_text=True)
    assert re.search(r'<input id="ev-head_judge"[^>]*value="Hal Head"', page), page[page.find("ev-head_judge") - 200:][:600]
    assert 'id="head-judge-seen"' in page and 'id="no-head-judge"' not in page


# --- the default start is useful at a venue ------------------------------------------------------

def test_serve_listens_for_the_venue_by_default_and_says_which_address_phones_use():
    from judgekit.cli import serve, start_lines
    host = next(p for p in serve.params if p.name == "host")
    assert host.default == "0.0.0.0"
    lines = start_lines("0.0.0.0", 5000, ["192.168.1.20"])
    assert lines[0] == "open http://127.0.0.1:5000/ on this machine"
    assert any(line.startswith("phones on the venue network: http://192.168.1.20:5000/") for line in lines)
    alone = start_lines("0.0.0.0", 5000, [])
    assert any("no venue network found" in line and "Wi-Fi" in line for line in alone)
    local = start_lines("127.0.0.1", 8080, ["192.168.1.20"])
    assert "only this machine can connect" in local[1] and "192.168.1.20" not in " ".join(local)


def test_serve_on_a_port_in_use_says_only_the_failure_with_the_flag_to_use(indexed_instance):
    import os
    import socket
    import subprocess
    import sys
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        s.listen()
        port = s.getsockname()[1]
        env = dict(os.environ, JUDGEKIT_INSTANCE=str(indexed_instance))
        proc = subprocess.run([sys.executable, "-m", "judgekit.cli", "serve", "--port", str(port)],
                              env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    said = [line for line in proc.stderr.splitlines() if line.startswith("judgekit:")]
    assert not any("ready" in line or "open http" in line for line in said), said
    assert said[-1].startswith(f"judgekit: cannot listen on 0.0.0.0:{port}: the port is in use")
    assert said[-1].endswith(f"--port {port + 1}")


def test_demo_prints_an_address(tmp_path):
    from click.testing import CliRunner

    from judgekit.cli import main
    r = CliRunner().invoke(main, ["--instance", str(tmp_path / "i"), "demo"])
    assert r.exit_code == 0, r.output
    assert "open http://127.0.0.1:5000/tournaments/1" in r.output
    assert not re.search(r"open /tournaments", r.output)


def test_table_cards_link_the_call_page(app, client):
    from judgekit.db import open_db
    db = open_db(app.config["DATABASE"])
    tid, _ = namesake_event(db)
    db.close()
    sign_in_client(app, client, tid, "organizer")
    app.config["LISTEN_HOST"] = "0.0.0.0"
    page = client.get(f"/tournaments/{tid}/rounds/1/cards", base_url="http://192.168.1.20:5000").get_data(as_text=True)
    assert f'<a href="http://192.168.1.20:5000/tournaments/{tid}/call/1">' in page
    app.config["LISTEN_HOST"] = "127.0.0.1"
    page = client.get(f"/tournaments/{tid}/rounds/1/cards").get_data(as_text=True)
    assert f'href="/tournaments/{tid}/call/1"' in page and "open it on this machine" in page


# --- the penalty form's rule ------------------------------------------------------------------------

def test_every_rule_a_catalog_cites_is_a_section_of_the_rules(client):
    from judgekit.tournament.penalties.store import catalogs
    cited = {inf.rule for cat in catalogs().values() for inf in cat.infractions if inf.rule}
    assert "tournament-rules/5.3" in cited and len(cited) >= 8
    for rule in sorted(cited):
        assert client.get(f"/rules/{rule}").status_code == 200, rule


def test_the_penalty_form_fills_the_rule_from_the_infraction_picked(app, client):
    from judgekit.db import open_db
    db = open_db(app.config["DATABASE"])
    tid = store.create_tournament(db, {"name": "NQ"})
    pid = store.add_player(db, tid, {"name": "Ana Silva"})["id"]
    db.close()
    sign_in_client(app, client, tid, "judge")
    page = client.get(f"/tournaments/{tid}/penalties/new?player={pid}&infraction=slow-play").get_data(as_text=True)
    assert re.search(r'<input id="pf-rule" name="rule" value="tournament-rules/5.3"', page)
    assert "document/section" in page and 'id="pf-rule-hint"' in page
    typed = client.get(f"/tournaments/{tid}/penalties/new?player={pid}&infraction=slow-play&rule=tournament-rules/3.1.1")
    assert 'value="tournament-rules/3.1.1"' in typed.get_data(as_text=True)     # the judge's own stays
    api = client.get(f"/api/tournaments/{tid}/penalties/propose?player={pid}&infraction=cheating").get_json()
    assert api["infraction"]["rule"] == "tournament-rules/5.1"


# --- Drop asks first ---------------------------------------------------------------------------

def test_drop_needs_its_confirmation(app, client):
    from judgekit.db import open_db
    db = open_db(app.config["DATABASE"])
    tid = store.create_tournament(db, {"name": "NQ"})
    pid = store.add_player(db, tid, {"name": "Ana Silva"})["id"]
    db.close()
    csrf = sign_in_client(app, client, tid, "organizer", how="session")
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    row = page[page.index(f'id="player-{pid}"'):]
    row = row[:row.index("</li>")]
    assert '<details class="drop-confirm">' in row and ">Drop Ana Silva</button>" in row
    assert 'name="confirm" value="1"' in row
    r = client.post(f"/tournaments/{tid}/players/{pid}/drop", data={"csrf_token": csrf, "dropped": "1"})
    assert r.status_code == 302
    db = open_db(app.config["DATABASE"])
    assert not store.get_player(db, tid, pid)["dropped"]       # one click dropped nobody
    db.close()
    r = client.post(f"/tournaments/{tid}/players/{pid}/drop", data={"csrf_token": csrf, "dropped": "1", "confirm": "1"})
    db = open_db(app.config["DATABASE"])
    assert store.get_player(db, tid, pid)["dropped"]
    db.close()
    r = client.post(f"/tournaments/{tid}/players/{pid}/drop", data={"csrf_token": csrf, "dropped": "0"})
    db = open_db(app.config["DATABASE"])
    assert not store.get_player(db, tid, pid)["dropped"]      # reinstating needs no confirmation
    db.close()


# --- after the final -------------------------------------------------------------------------------

def test_after_the_final_no_end_times_check_in_closes_and_registering_is_off(app, client):
    from judgekit.db import open_db
    db = open_db(app.config["DATABASE"])
    from judgekit.tournament.demo import create_demo
    tid = create_demo(db, final=False)
    store.open_checkin(db, tid)                    # open during the prelims
    assert store.checkin_state(db, tid)["open"]
    while store.standings(db, tid).needs_toss:
        store.record_toss(db, tid, seed=7, by="test")
    store.start_final(db, tid)                     # the final has begun (its qualifiers are set)
    state = store.checkin_state(db, tid)
    assert not state["open"] and state["final_begun"]
    with pytest.raises(store.TournamentError) as exc:
        store.open_checkin(db, tid)
    assert exc.value.status == 409 and "final has begun" in exc.value.message
    with pytest.raises(store.TournamentError) as exc:
        store.self_check_in(db, tid, "ABCDEF", who="Ana", device="10.0.0.9")
    assert exc.value.status == 409 and "final has begun" in exc.value.message
    db.close()
    sign_in_client(app, client, tid, "organizer", how="session")
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert 'id="checkin-final"' in page and "Open check-in by phone" not in page
    assert re.search(r'<fieldset class="reg-fields" disabled>', page) and 'id="register-closed"' in page
    assert "Check in all" not in page
    phone = app.test_client()
    r = phone.get(f"/tournaments/{tid}/check-in?code=ABCDEF&w=1")
    assert "The final has begun: check-in by phone is closed" in text_of(r) and "Your VEKN number" not in text_of(r)
    # the final is seated, then its result is in: its end times go from the dashboard
    db = open_db(app.config["DATABASE"])
    from judgekit.tournament import final as final_mod
    for p in final_mod.placement_order(store.get_tournament(db, tid)["finalists"]):
        store.place_final_card(db, tid, p, 0)
    store.seat_final(db, tid, seed=1)
    n = store.rounds(db, tid)[-1]["number"]
    db.close()
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert 'id="end-times"' in page and "Final: end times" in page      # while the final is played
    db = open_db(app.config["DATABASE"])
    store.enter_result(db, tid, n, 1, [2, 1, 1, 1, 0])
    db.close()
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert 'id="end-times"' not in page


# --- workbook imports per device (issue 28, item 1) ---------------------------------------------------

def test_the_import_limit_counts_per_device_and_says_when_to_come_back():
    from judgekit.tournament.import_limit import ImportLimit
    limit = ImportLimit(per_window=3, window_s=600)
    for k in range(3):
        assert limit.begin("10.0.0.5", 100.0 + k) is None
        limit.end("10.0.0.5")
    wait, message = limit.begin("10.0.0.5", 110.0)
    assert wait == 590 and "at most 3 in 10 minutes" in message and "10 minutes" in message
    assert limit.begin("10.0.0.6", 110.0) is None                       # another device is not counted
    assert limit.begin("10.0.0.6", 111.0)[1].startswith("This device is already importing")  # one at a time
    limit.end("10.0.0.6")
    assert limit.begin("10.0.0.5", 700.5) is None                       # the window has moved on


def test_imports_over_the_limit_get_a_clear_429_before_anything_is_read(app, client):
    import base64
    bad = base64.b64encode(b"not a workbook").decode()
    for _ in range(10):
        r = client.post("/api/tournaments/import-archon", json={"workbook": bad},
                        environ_base={"REMOTE_ADDR": "10.0.0.7"})
        assert r.status_code == 400                                       # read and refused: counted
    r = client.post("/api/tournaments/import-archon", json={"workbook": bad}, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 500
    assert r.get_json()["error"].startswith("Too many workbook imports from this device: at most 10 in 10 minutes")
    page = client.post("/tournaments/import-archon", data={"csrf_token": "x"}, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert page.status_code in (400, 403, 429)       # a form without its CSRF token is refused first
    other = client.post("/api/tournaments/import-archon", json={"workbook": bad},
                        environ_base={"REMOTE_ADDR": "10.0.0.8"})
    assert other.status_code == 400                                      # another device still imports


def test_the_import_form_over_the_limit_says_so_on_the_page(app, client):
    import io
    from judgekit.tournament.reporting.views import import_limit
    with app.app_context():
        limit = import_limit()
    limit.per_window = 1
    csrf = None
    with client.session_transaction() as s:
        s["csrf"] = csrf = "test-csrf-token"
    def send():
        return client.post("/tournaments/import-archon", content_type="multipart/form-data",
                           data={"csrf_token": csrf, "file": (io.BytesIO(b"x,y"), "players.csv")},
                           environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert send().status_code == 400
    r = send()
    assert r.status_code == 429 and r.headers.get("Retry-After")
    assert "Too many workbook imports from this device" in text_of(r) and 'id="import-limited"' in r.get_data(as_text=True)
