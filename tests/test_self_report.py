"""Tables report their own result (issue 29 part 2): the domain (player links, proposals,
confirmations, disagreements, judges) and the HTTP API and pages."""
from __future__ import annotations

import pytest

from judgekit.live import calls
from judgekit.live import table_reports
from judgekit.tournament.store import base, player_links, registration, round_flow, self_report, tables
from judgekit.tournament.store.base import TournamentError


def seed(db, n=9):
    """A tournament of `n` players (9: a table of 5 and a table of 4), round 1 seated;
    returns (tid, {player id: token}, [[player ids] per table])."""
    tid = registration.create_tournament(db, {"name": "Self Report Open"})
    for k in range(n):
        registration.add_player(db, tid, {"name": f"Player {chr(65 + k)}", "vekn": str(3100000 + k)})
    round_flow.start_round(db, tid, seed=7)
    seating = base.round_tables(db, tid, 1)
    links = {p["id"]: player_links.issue(db, tid, p["id"], by="desk")["token"] for p in base.players(db, tid)}
    return tid, links, seating


def vps_for(size):
    return [3, 1, 1, 0, 0][:size] if size == 5 else [2, 1, 1, 0]


def test_every_present_player_confirms_and_the_result_counts(db):
    tid, links, seating = seed(db)
    five = seating[0]
    assert len(five) == 5
    first = self_report.propose(db, tid, links[five[0]], vps_for(5), client_id="p1")
    report = first["report"]
    assert report["status"] == "pending" and [c["player_id"] for c in report["confirmed"]] == [five[0]]
    assert [w["player_id"] for w in report["waiting"]] == five[1:]
    for k, pid in enumerate(five[1:], 1):
        after = self_report.confirm(db, tid, links[pid], report["id"])
        assert after["report"]["status"] == ("counted" if k == 4 else "pending")
    detail = tables.table_detail(db, tid, 1, 1)
    assert detail["state"] == "finished" and detail["source"] == "reported"
    assert detail["vps"] == [3.0, 1.0, 1.0, 0.0, 0.0]
    assert detail["seats"][0]["gw"] == 1
    # once counted, the table is the judges': no second proposal, a confirmation again stores nothing
    with pytest.raises(TournamentError) as exc:
        self_report.propose(db, tid, links[five[2]], [5, 0, 0, 0, 0])
    assert exc.value.status == 409 and exc.value.extra["locked"]
    again = self_report.confirm(db, tid, links[five[1]], report["id"])
    assert again["duplicate"] is True
    assert db.execute("select count(*) from tournament_results").fetchone()[0] == 1


def test_a_dropped_player_is_not_waited_for(db):
    tid, links, seating = seed(db)
    four = seating[1]
    registration.drop_player(db, tid, four[3])
    state = self_report.propose(db, tid, links[four[0]], [2, 1, 1, 0])
    assert [w["player_id"] for w in state["report"]["waiting"]] == four[1:3]
    self_report.confirm(db, tid, links[four[1]], state["report"]["id"])
    done = self_report.confirm(db, tid, links[four[2]], state["report"]["id"])
    assert done["report"]["status"] == "counted"
    assert done["result"]["state"] == "finished"


def test_the_same_vp_checks_as_a_judges_entry(db):
    tid, links, seating = seed(db)
    five = seating[0]
    with pytest.raises(TournamentError) as exc:   # 6 VP at a table of 5 with nobody withdrawn
        self_report.propose(db, tid, links[five[0]], [3, 1, 1, 1, 0])
    assert exc.value.status == 400 and exc.value.extra["problems"]
    with pytest.raises(TournamentError) as bad:
        self_report.propose(db, tid, links[five[0]], [1, "x", 0, 0, 0])
    assert bad.value.status == 400 and bad.value.extra["seat"] == 2
    with pytest.raises(TournamentError) as count:
        self_report.propose(db, tid, links[five[0]], [5, 0, 0, 0])
    assert count.value.status == 400 and "5 seats" in count.value.message
    # a lone half is possible only when that seat withdrew: the withdrawal box
    with pytest.raises(TournamentError) as wd:
        self_report.propose(db, tid, links[five[0]], [1, 3.5, 0, 0, 0])
    assert wd.value.status == 400 and wd.value.extra["suggest_withdrawn"] == [2]
    assert db.execute("select count(*) from tournament_result_reports").fetchone()[0] == 0
    ok = self_report.propose(db, tid, links[five[0]], [1, 3.5, 0, 0, 0], withdrawn=[2])
    assert ok["report"]["withdrawn"] == [2]


def test_a_second_proposal_while_one_waits_is_refused_naming_it(db):
    tid, links, seating = seed(db)
    four = seating[1]
    first = self_report.propose(db, tid, links[four[0]], [2, 1, 1, 0], client_id="a")
    with pytest.raises(TournamentError) as exc:
        self_report.propose(db, tid, links[four[1]], [0, 4, 0, 0], client_id="b")
    assert exc.value.status == 409 and exc.value.extra["report"]["id"] == first["report"]["id"]
    assert "already proposed" in exc.value.message
    # the same proposal resent (its reply lost) is stored once
    again = self_report.propose(db, tid, links[four[0]], [2, 1, 1, 0], client_id="a")
    assert again["duplicate"] is True
    with pytest.raises(TournamentError) as other:
        self_report.propose(db, tid, links[four[0]], [4, 0, 0, 0], client_id="a")
    assert other.value.status == 409
    assert db.execute("select count(*) from tournament_result_reports").fetchone()[0] == 1


def test_the_round_page_marks_tables_whose_report_waits(db):
    tid, links, seating = seed(db)
    five, four = seating
    rid = self_report.propose(db, tid, links[five[0]], vps_for(5))["report"]["id"]
    self_report.confirm(db, tid, links[five[1]], rid)
    other = self_report.propose(db, tid, links[four[0]], vps_for(4))["report"]["id"]
    table_reports.dispute(db, tid, links[four[1]], other)
    assert self_report.round_reports(db, tid, 1) == {
        1: {"status": "pending", "present": 5, "confirmed": 2},
        2: {"status": "disputed", "present": 4, "confirmed": 1}}
    tables.enter_result(db, tid, 1, 2, vps_for(4), by="Jo")
    assert list(self_report.round_reports(db, tid, 1)) == [1]


def test_a_player_confirms_only_their_own_table(db):
    tid, links, seating = seed(db)
    five, four = seating
    report = self_report.propose(db, tid, links[four[0]], [2, 1, 1, 0])["report"]
    with pytest.raises(TournamentError) as exc:
        self_report.confirm(db, tid, links[five[0]], report["id"])
    assert exc.value.status == 403 and "table 1" in exc.value.message
    with pytest.raises(TournamentError) as missing:
        self_report.confirm(db, tid, links[four[1]], 9999)
    assert missing.value.status == 404
    steps = db.execute("select count(*) from tournament_result_report_steps").fetchone()[0]
    assert steps == 1   # the proposer's own confirmation only


def test_guessed_and_replaced_links_are_refused(db):
    tid, links, seating = seed(db)
    pid = seating[1][0]
    for guess in ("nope", "", "x" * 500, "é" * 5, None, 12):
        with pytest.raises(TournamentError) as exc:
            self_report.player_state(db, tid, guess)
        assert exc.value.status == 404 and exc.value.extra["reason"] == "unknown"
    old = links[pid]
    new = player_links.issue(db, tid, pid, by="desk")["token"]
    with pytest.raises(TournamentError) as replaced:
        self_report.propose(db, tid, old, [2, 1, 1, 0])
    assert replaced.value.status == 410
    assert self_report.player_state(db, tid, new)["player"]["id"] == pid
    other = registration.create_tournament(db, {"name": "Elsewhere"})
    with pytest.raises(TournamentError) as elsewhere:   # a link of another event
        self_report.player_state(db, other, new)
    assert elsewhere.value.status == 404


def test_a_disagreement_calls_a_judge_who_accepts_and_locks(db):
    tid, links, seating = seed(db)
    four = seating[1]
    report = self_report.propose(db, tid, links[four[0]], [2, 1, 1, 0])["report"]
    self_report.confirm(db, tid, links[four[1]], report["id"])
    out = table_reports.dispute(db, tid, links[four[2]], report["id"], note="I had 2 VP")
    assert out["report"]["status"] == "disputed" and out["call"] is not None
    queue = calls.open_calls(db, tid)
    assert [(c["table"], c["reason"]) for c in queue] == [(2, "result")]
    # a second disagreement, and the same one resent, find the same call
    again = table_reports.dispute(db, tid, links[four[3]], report["id"])
    assert again["call"] == out["call"] and len(calls.open_calls(db, tid)) == 1
    resent = table_reports.dispute(db, tid, links[four[2]], report["id"])
    assert resent["duplicate"] is True
    with pytest.raises(TournamentError) as late:   # confirming a disputed proposal
        self_report.confirm(db, tid, links[four[3]], report["id"])
    assert late.value.status == 409
    accepted = table_reports.accept(db, tid, 1, 2, report["id"], judge="Jo Judge")
    assert accepted["source"] == "entered" and accepted["vps"] == [2.0, 1.0, 1.0, 0.0]
    assert accepted["closed_call"] == out["call"] and calls.open_calls(db, tid) == []
    state = self_report.player_state(db, tid, links[four[0]])
    assert state["report"]["status"] == "accepted" and state["result"]["judge"] is True
    assert state["can"] == []
    with pytest.raises(TournamentError) as locked:
        self_report.propose(db, tid, links[four[1]], [0, 4, 0, 0])
    assert locked.value.status == 409 and "judge" in locked.value.message


def test_a_judges_entry_wins_over_a_waiting_proposal(db):
    tid, links, seating = seed(db)
    four = seating[1]
    report = self_report.propose(db, tid, links[four[0]], [2, 1, 1, 0])["report"]
    tables.enter_result(db, tid, 1, 2, [4, 0, 0, 0], by="Jo Judge")
    with pytest.raises(TournamentError) as exc:
        self_report.confirm(db, tid, links[four[1]], report["id"])
    assert exc.value.status == 409 and exc.value.extra["locked"]
    state = self_report.player_state(db, tid, links[four[1]])
    assert state["report"]["status"] == "replaced" and state["result"]["vps"] == [4.0, 0.0, 0.0, 0.0]
    with pytest.raises(TournamentError) as stale:   # accepting it now would undo the judge's entry
        table_reports.accept(db, tid, 1, 2, report["id"], judge="Other Judge")
    assert stale.value.status == 409
    assert tables.table_detail(db, tid, 1, 2)["vps"] == [4.0, 0.0, 0.0, 0.0]


def test_nothing_to_report_between_rounds(db):
    tid, links, seating = seed(db)
    state = self_report.player_state(db, tid, links[seating[0][0]])
    assert state["table"]["number"] == 1 and state["can"] == ["propose"]
    for k, size in ((1, 5), (2, 4)):
        tables.enter_result(db, tid, 1, k, vps_for(size), by="Jo")
    round_flow.close_round(db, tid, 1)
    state = self_report.player_state(db, tid, links[seating[0][0]])
    assert state["table"] is None and state["can"] == []
    with pytest.raises(TournamentError) as exc:
        self_report.propose(db, tid, links[seating[0][0]], vps_for(5))
    assert exc.value.status == 409 and exc.value.extra["reason"] == "not-seated"


# --- the HTTP API and the pages ------------------------------------------------------------------

def seed_app(app, n=9):
    from judgekit.db import open_db
    d = open_db(app.config["DATABASE"])
    try:
        return seed(d, n)
    finally:
        d.close()


def api(tid, token, rest=""):
    return f"/api/tournaments/{tid}/me/{token}{rest}"


def stored(app, sql):
    from judgekit.db import open_db
    d = open_db(app.config["DATABASE"])
    try:
        return d.execute(sql).fetchone()[0]
    finally:
        d.close()


def test_the_api_flow_and_its_refusals(app, client, signed_in):
    tid, links, seating = seed_app(app)
    four = seating[1]
    state = client.get(api(tid, links[four[0]])).get_json()
    assert state["table"]["number"] == 2 and state["can"] == ["propose"]
    # impossible VP: refused with the reasons and the seat to tick
    bad = client.post(api(tid, links[four[0]], "/report"), json={"vps": [1.5, 2, 0, 0.5]})
    assert bad.status_code == 400 and bad.get_json()["problems"]
    wrong = client.post(api(tid, links[four[0]], "/report"), json={"vps": "4 0 0 0"})
    assert wrong.status_code == 400 and wrong.get_json()["field"] == "vps"
    first = client.post(api(tid, links[four[0]], "/report"), json={"vps": [2, 1, 1, 0], "client_id": "c1"})
    assert first.status_code == 201
    rid = first.get_json()["report"]["id"]
    resent = client.post(api(tid, links[four[0]], "/report"), json={"vps": [2, 1, 1, 0], "client_id": "c1"})
    assert resent.status_code == 200 and resent.get_json()["duplicate"] is True
    second = client.post(api(tid, links[four[1]], "/report"), json={"vps": [0, 4, 0, 0]})
    assert second.status_code == 409 and second.get_json()["report"]["id"] == rid
    other_table = client.post(api(tid, links[seating[0][0]], f"/reports/{rid}/confirm"), json={})
    assert other_table.status_code == 403 and "not for your table" in other_table.get_json()["error"]
    guessed = client.post(api(tid, "AAAAAAAAAAAAAAAAAAAAAA", f"/reports/{rid}/confirm"), json={})
    assert guessed.status_code == 404 and guessed.get_json()["reason"] == "unknown"
    for pid in four[1:]:
        ok = client.post(api(tid, links[pid], f"/reports/{rid}/confirm"), json={})
        assert ok.status_code == 201
    assert ok.get_json()["report"]["status"] == "counted"
    replay = client.post(api(tid, links[four[1]], f"/reports/{rid}/confirm"), json={})
    assert replay.status_code == 200 and replay.get_json()["duplicate"] is True
    assert stored(app, "select count(*) from tournament_results") == 1
    assert stored(app, "select count(*) from tournament_result_report_steps where kind = 'confirm'") == 4
    # the judges see it as the table's result
    signed_in(client, tid, "judge")
    detail = client.get(f"/api/tournaments/{tid}/rounds/1/tables/2")
    if detail.status_code == 200:
        assert detail.get_json()["source"] == "reported"


def test_a_disagreement_reaches_the_judges_queue_and_a_judge_accepts(app, client, signed_in):
    tid, links, seating = seed_app(app)
    four = seating[1]
    rid = client.post(api(tid, links[four[0]], "/report"), json={"vps": [2, 1, 1, 0]}).get_json()["report"]["id"]
    out = client.post(api(tid, links[four[1]], f"/reports/{rid}/dispute"), json={"note": "seat 2 had 2"})
    assert out.status_code == 201 and out.get_json()["call"]
    signed_in(client, tid, "judge")
    queue = client.get(f"/api/tournaments/{tid}/calls").get_json()
    mine = [c for c in queue["calls"] if c["table"] == 2]
    assert mine and mine[0]["reason"] == "result" and mine[0]["reason_label"] == "Result disagreement"
    page = client.get(f"/tournaments/{tid}/rounds/1/tables/2")
    assert b"seat 2 had 2" in page.data and b"accept-report" in page.data
    accepted = client.post(f"/api/tournaments/{tid}/rounds/1/tables/2/reports/{rid}/accept")
    assert accepted.status_code == 201 and accepted.get_json()["closed_call"] == out.get_json()["call"]
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    late = client.post(api(tid, links[four[2]], "/report"), json={"vps": [0, 0, 4, 0]})
    assert late.status_code == 409 and late.get_json()["locked"] is True


def test_the_player_page_forms_and_bad_links(app, client):
    tid, links, seating = seed_app(app)
    four = seating[1]
    page = client.get(f"/tournaments/{tid}/me/{links[four[0]]}")
    assert page.status_code == 200 and b"Report your table" in page.data
    unknown = client.get(f"/tournaments/{tid}/me/not-a-link")
    assert unknown.status_code == 404 and b"not known here" in unknown.data
    import re
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page.data).group(1).decode()
    form = {"csrf_token": token, "client_id": "f1", "vp1": "1", "vp2": "2,5", "vp3": "0", "vp4": "0"}
    refused = client.post(f"/tournaments/{tid}/me/{links[four[0]]}/propose", data=form)
    assert refused.status_code == 400 and b"withdrawal-offer" in refused.data
    assert b'value="2,5"' in refused.data and b'name="tick_wd" value="2"' in refused.data  # typed, kept
    form["tick_wd"] = "2"
    sent = client.post(f"/tournaments/{tid}/me/{links[four[0]]}/propose", data=form)
    assert sent.status_code == 302
    again = client.get(f"/tournaments/{tid}/me/{links[four[1]]}")
    assert b"Confirm these VP" in again.data and b"(withdrew)" in again.data
    guess = client.post(f"/tournaments/{tid}/me/guessed/reports/1/confirm", data={"csrf_token": token})
    assert guess.status_code == 404 and b"not known here" in guess.data
    assert stored(app, "select count(*) from tournament_result_report_steps") == 1


def test_a_phone_check_in_gives_the_players_own_link(app, client):
    from judgekit.db import open_db
    from judgekit.tournament.store import checkin as checkin_store
    d = open_db(app.config["DATABASE"])
    try:
        tid = registration.create_tournament(d, {"name": "Link Cup"})
        registration.add_player(d, tid, {"name": "Ana Silva", "vekn": "3200001", "checked_in": False})
        state = checkin_store.open_checkin(d, tid)
    finally:
        d.close()
    page = client.get(state["path"])
    import re
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page.data).group(1).decode()
    done = client.post(f"/tournaments/{tid}/check-in", data={"csrf_token": token, "code": state["code"],
                                                            "w": state["window"], "who": "3200001"})
    assert done.status_code == 200 and b"Your own link" in done.data
    path = re.search(rb'id="own-link-url" href="([^"]+)"|href="([^"]+)" id="own-link-url"', done.data)
    link = (path.group(1) or path.group(2)).decode()
    assert b"/decks/mine/" not in done.data and b'id="deck-link"' not in done.data   # one link, not two
    me = client.get(link)
    assert me.status_code == 200 and b"Ana Silva" in me.data and b"not seated" in me.data
    assert b'id="me-deck"' in me.data and f'action="{link}/deck"'.encode() in me.data  # the decklist part
    # the same phone again: a new link, and the older one stops working
    again = client.post(f"/tournaments/{tid}/check-in", data={"csrf_token": token, "code": state["code"],
                                                             "w": state["window"], "who": "3200001"})
    assert b"already checked in" in again.data and b"Your own link" in again.data
    assert client.get(link).status_code == 410
    # another phone checking the same name gets no link
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    page = other.get(state["path"])
    token2 = re.search(rb'name="csrf_token" value="([^"]+)"', page.data).group(1).decode()
    theirs = other.post(f"/tournaments/{tid}/check-in", data={"csrf_token": token2, "code": state["code"],
                                                             "w": state["window"], "who": "3200001"})
    assert b"already checked in" in theirs.data and b"Your own link" not in theirs.data


def test_bad_input_on_the_players_api_is_a_clear_4xx(app, client):
    tid, links, seating = seed_app(app)
    four = seating[1]
    me = links[four[0]]
    cases = [
        (api(tid, "x" * 10_000), None, 404),
        (api(tid, me, "/report"), {"vps": [[[[1]]]], "withdrawn": []}, 400),
        (api(tid, me, "/report"), {"vps": [2, 1, 1, 0], "withdrawn": "1"}, 400),
        (api(tid, me, "/report"), {"vps": [2, 1, 1, 0], "withdrawn": [None]}, 400),
        (api(tid, me, "/report"), {"vps": [1e308, 0, 0, 0]}, 400),
        (api(tid, me, "/report"), {"vps": ["NaN", 0, 0, 0]}, 400),
        (api(tid, me, "/report"), {"vps": [2, 1, 1, 0], "client_id": "z" * 500}, 400),
        (api(tid, me, "/report"), [1, 2], 400),
        (api(tid, me, "/reports/99999999999999999999/confirm"), {}, 404),
        (api(tid, me, "/reports/0/dispute"), {}, 404),
    ]
    for path, body, status in cases:
        r = client.get(path) if body is None else client.post(path, json=body)
        assert r.status_code == status, (path, body, r.status_code, r.get_data(as_text=True)[:200])
        assert r.get_json()["error"]
    not_json = client.post(api(tid, me, "/report"), data="vps=1", content_type="text/plain")
    assert not_json.status_code == 415
    rid = client.post(api(tid, me, "/report"), json={"vps": [2, 1, 1, 0]}).get_json()["report"]["id"]
    long_note = client.post(api(tid, links[four[1]], f"/reports/{rid}/dispute"), json={"note": "n" * 5000})
    assert long_note.status_code == 400 and long_note.get_json()["field"] == "note"
    assert client.post(f"/api/tournaments/999/me/{me}/report", json={"vps": [2, 1, 1, 0]}).status_code == 404
    assert stored(app, "select count(*) from tournament_result_reports") == 1
    assert stored(app, "select count(*) from tournament_result_report_steps") == 1
    assert stored(app, "select count(*) from judge_calls") == 0


def test_a_device_guessing_links_is_slowed_down(app, client):
    tid, links, seating = seed_app(app)
    answers = [client.get(api(tid, f"guess{k}")).status_code for k in range(6)]
    assert answers[:5] == [404] * 5 and answers[5] == 429
    slowed = client.get(api(tid, "guess-again")).get_json()
    assert slowed["status"] == 429 and slowed["retry_after"] >= 1
    page = client.get(f"/tournaments/{tid}/me/guess-page")
    assert page.status_code == 429 and b"Too many unknown player links" in page.data
    other = app.test_client()          # another phone is not slowed down
    other.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    assert other.get(api(tid, links[seating[0][0]])).status_code == 200


def test_the_players_page_shows_their_decklist_once_round_one_has_begun(app, client):
    from judgekit.db import open_db
    from judgekit.decks import store as decks_store
    from tests import decks_lists as L
    tid, links, seating = seed_app(app)              # round 1 is seated: phones no longer take lists
    with_list, without = seating[0][0], seating[0][1]
    d = open_db(app.config["DATABASE"])
    try:
        decks_store.submit(d, tid, with_list, L.legal(), by="desk", how="organizer")
    finally:
        d.close()
    mine = client.get(f"/tournaments/{tid}/me/{links[with_list]}")
    assert b'id="me-deck-state"' in mine.data and b"Received" in mine.data and b'id="deck-text"' not in mine.data
    theirs = client.get(f"/tournaments/{tid}/me/{links[without]}")
    assert b"round 1 has begun" in theirs.data and b'id="deck-text"' not in theirs.data
    refused = client.post(api(tid, links[without], "/deck"), json={"text": L.legal()})
    assert refused.status_code == 409 and refused.get_json()["code"] == "closed"
    seen = client.get(api(tid, links[with_list], "/deck")).get_json()
    assert seen["open"] is False and seen["decklist"]["player_id"] == with_list
    assert client.get(api(tid, links[without], "/deck")).get_json()["decklist"] is None
    assert stored(app, "select count(*) from decklists") == 1
