"""No later write silently undoes an earlier decision (issue 16 §2): results carry what they
were based on and a client id, an override stands until the head judge replaces it, and
the toss, the final and time extensions are each decided inside one transaction.

`interleave` makes two writers meet: the first time the write under test reaches a given
point, a second writer (another connection, as another server thread would) runs the same
kind of write. When the first write holds its transaction from its check to its insert,
the second is locked out and must wait (here: gives up at once); when it does not, the
second slips in between and both are stored."""
from __future__ import annotations

import re
import sqlite3

import pytest

from judgekit.db import open_db
from judgekit.tournament import store
from judgekit.tournament.penalties import extensions
from judgekit.tournament.store import ranking, result_guard


def setup_round(db, n=4, rounds_planned=3):
    tid = store.create_tournament(db, {"name": "Race Cup", "rounds_planned": rounds_planned})
    for i in range(n):
        store.add_player(db, tid, {"name": f"P{i}", "vekn": str(i + 1)})
    return tid, store.start_round(db, tid, seed=1)


def interleave(db, monkeypatch, module, name, competitor):
    """Wrap `module.name` so that, the first time it runs, `competitor(other_db)` runs on a
    second connection that waits at most 0.1 s for the lock. Returns the log: ["locked"] or
    ["stored: <what the competitor returned>"]."""
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    log: list = []
    real = getattr(module, name)

    def wrapped(*args, **kwargs):
        if not log:
            log.append("running")
            other = open_db(path)
            other.conn.execute("PRAGMA busy_timeout=100")
            try:
                out = competitor(other)
                log[0] = f"stored: {out!r:.60}"
            except sqlite3.OperationalError as exc:
                assert "locked" in str(exc)
                log[0] = "locked"
            finally:
                other.close()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapped)
    return log


def rows(db, table="tournament_results"):
    return list(db[table].rows)


# --- results: based on, client ids -----------------------------------------------------------------

def test_two_different_results_at_once_one_wins(db, monkeypatch):
    tid, _ = setup_round(db)
    log = interleave(db, monkeypatch, result_guard, "latest_row",
                     lambda other: store.enter_result(other, tid, 1, 1, [4, 0, 0, 0], by="Sam", based_on=None))
    store.enter_result(db, tid, 1, 1, [0, 4, 0, 0], by="Ann", based_on=None)
    assert log == ["locked"]
    monkeypatch.undo()
    # Sam's write, once it can run, finds Ann's result and is refused with it
    with pytest.raises(store.TournamentError) as exc:
        store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], by="Sam", based_on=None)
    assert exc.value.status == 409 and exc.value.field == "based_on"
    assert exc.value.extra["stored"]["vps"] == [0, 4, 0, 0] and exc.value.extra["stored"]["by"] == "Ann"
    assert [r["by"] for r in rows(db)] == ["Ann"]


def test_a_stale_result_is_refused_unless_it_replaces_the_stored_one(db):
    tid, _ = setup_round(db)
    first = store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], by="Ann", based_on=None)
    with pytest.raises(store.TournamentError) as exc:  # a form opened before Ann's result
        store.enter_result(db, tid, 1, 1, [3, 1, 0, 0], by="Sam", based_on=None)
    assert exc.value.status == 409 and exc.value.extra["result_id"] == first["result_id"]
    again = store.enter_result(db, tid, 1, 1, [3, 1, 0, 0], by="Sam", based_on=first["result_id"])
    assert again["vps"] == [3, 1, 0, 0] and again["result_id"] != first["result_id"]
    # a form based on Ann's (now replaced) result is stale in turn
    with pytest.raises(store.TournamentError):
        store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], by="Ann", based_on=first["result_id"])
    assert [r["by"] for r in rows(db)] == ["Ann", "Sam"]
    assert rows(db)[1]["based_on"] == first["result_id"]


def test_the_same_numbers_twice_store_one_row(db):
    tid, _ = setup_round(db)
    store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], by="Ann", based_on=None)
    again = store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], by="Sam", based_on=None)
    assert again["duplicate"] is True and len(rows(db)) == 1


def test_a_retry_with_the_same_client_id_stores_nothing_twice(db):
    tid, _ = setup_round(db)
    first = store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], by="Ann", client_id="r-1", based_on=None)
    assert first["duplicate"] is False
    retry = store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], by="Ann", client_id="r-1", based_on=None)
    assert retry["duplicate"] is True and retry["result_id"] == first["result_id"] and len(rows(db)) == 1
    with pytest.raises(store.TournamentError) as exc:
        store.enter_result(db, tid, 1, 1, [3, 1, 0, 0], by="Ann", client_id="r-1", based_on=first["result_id"])
    assert exc.value.status == 409 and exc.value.field == "client_id"


def test_an_override_stands_until_the_head_judge_replaces_it(db):
    tid, _ = setup_round(db)
    entered = store.enter_result(db, tid, 1, 1, [3, 0, 0, 0.5], by="Jo", based_on=None)  # invalid
    over = store.override_result(db, tid, 1, 1, [2, 0, 0, 2], "split agreed after a misplay", by="Hal",
                                 based_on=entered["result_id"])
    assert over["state"] == "overridden"
    for based_on in (None, entered["result_id"], over["result_id"]):  # even a judge who saw it
        with pytest.raises(store.TournamentError) as exc:
            store.enter_result(db, tid, 1, 1, [3, 0, 0, 0.5], withdrawn=[4], by="Jo", based_on=based_on)
        assert exc.value.status == 409 and exc.value.extra["overridden"] is True
        assert "override stands" in exc.value.message
    assert store.table_detail(db, tid, 1, 1)["state"] == "overridden"
    # the head judge replaces it, based on it
    lifted = store.enter_result(db, tid, 1, 1, [3, 0, 0, 0.5], withdrawn=[4], by="Hal",
                                based_on=over["result_id"], may_replace_override=True)
    assert lifted["state"] == "finished" and lifted["source"] == "entered"


def test_an_override_based_on_an_older_result_is_refused(db):
    tid, _ = setup_round(db)
    first = store.enter_result(db, tid, 1, 1, [3, 0, 0, 0.5], by="Jo", based_on=None)
    store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], by="Ann", based_on=first["result_id"])
    with pytest.raises(store.TournamentError) as exc:
        store.override_result(db, tid, 1, 1, [2, 0, 0, 2], "split agreed", by="Hal", based_on=first["result_id"])
    assert exc.value.status == 409 and exc.value.extra["stored"]["by"] == "Ann"


def test_based_on_must_be_an_id(db):
    tid, _ = setup_round(db)
    with pytest.raises(store.TournamentError) as exc:
        store.enter_result(db, tid, 1, 1, [4, 0, 0, 0], based_on="yesterday")
    assert exc.value.status == 400 and exc.value.field == "based_on"


# --- the toss, the final, extensions ---------------------------------------------------------------

def tied_event(db):
    """Two closed rounds of 10 players where everyone timed out: all tied, a toss needed."""
    tid = store.create_tournament(db, {"name": "Toss Cup", "rounds_planned": 2})
    for i in range(10):
        store.add_player(db, tid, {"name": f"T{i}", "vekn": str(100 + i)})
    for n in (1, 2):
        r = store.start_round(db, tid, seed=n)
        for tb in r["tables"]:
            store.enter_result(db, tid, n, tb["number"], [0.5] * tb["size"])
        store.close_round(db, tid, n)
    return tid


def test_two_head_judges_drawing_the_same_toss_record_one_order(db, monkeypatch):
    tid = tied_event(db)
    tie = store.standings(db, tid).needs_toss[0]
    log = interleave(db, monkeypatch, ranking.standings_mod, "draw_toss",
                     lambda other: store.record_toss(other, tid, list(tie), seed=2, by="Hal"))
    store.record_toss(db, tid, list(tie), seed=1, by="Hana")
    assert log == ["locked"]
    monkeypatch.undo()
    with pytest.raises(store.TournamentError) as exc:
        store.record_toss(db, tid, list(tie), seed=2, by="Hal")
    assert exc.value.status == 409 and exc.value.extra["toss"]["by"] == "Hana"
    assert exc.value.extra["toss"]["seed"] == 1
    assert len(rows(db, "tournament_tosses")) == 1


def test_starting_the_final_twice_at_once_succeeds_once(db, monkeypatch):
    tid = tied_event(db)
    store.record_toss(db, tid, seed=1)
    log = interleave(db, monkeypatch, ranking, "standings", lambda other: store.start_final(other, tid))
    store.start_final(db, tid)
    assert log == ["locked"]
    monkeypatch.undo()
    with pytest.raises(store.TournamentError) as exc:
        store.start_final(db, tid)
    assert exc.value.status == 409 and "already set" in exc.value.message


def test_two_extensions_at_once_cannot_both_pass_the_cap(db, monkeypatch):
    tid, _ = setup_round(db)
    ask = {"minutes": 6, "reason": "long ruling on a referendum"}
    log = interleave(db, monkeypatch, extensions.recorder_store, "append_events",
                     lambda other: extensions.extend(other, tid, 1, 1, dict(ask, client_id="b"), judge="Bo"))
    first = extensions.extend(db, tid, 1, 1, dict(ask, client_id="a"), judge="Al")
    assert isinstance(first, extensions.Extended) and first.clock["extended_min"] == 6
    assert log == ["locked"]
    monkeypatch.undo()
    second = extensions.extend(db, tid, 1, 1, dict(ask, client_id="b"), judge="Bo")
    assert isinstance(second, extensions.Refused) and second.status == 409 and "cap" in second.message
    confirmed = extensions.extend(db, tid, 1, 1, dict(ask, client_id="b", confirm_over_cap=True), judge="Bo")
    assert isinstance(confirmed, extensions.Extended) and confirmed.clock["extended_min"] == 12


# --- over the web -----------------------------------------------------------------------------------

@pytest.fixture
def event(client, signed_in):
    """A tournament with round 1 seated (one table of 4); the organizer's bearer header."""
    r = client.post("/api/tournaments", json={"name": "Web Race"})
    tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
    client.post(f"/api/tournaments/{tid}/players", headers=org,
                json=[{"name": n, "vekn": str(500 + k)} for k, n in enumerate(["Ana", "Bo", "Cy", "Di"])])
    client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 3})
    return tid, org


def test_the_api_refuses_a_second_different_result_with_what_is_stored(app, client, event, signed_in):
    tid, _ = event
    url = f"/api/tournaments/{tid}/rounds/1/tables/1/result"
    ann, sam = app.test_client(), app.test_client()
    signed_in(ann, tid, "judge", name="Ann")
    signed_in(sam, tid, "judge", name="Sam")
    a = ann.post(url, json={"vps": [4, 0, 0, 0], "client_id": "ann-1"})
    assert a.status_code == 201 and a.get_json()["result_id"]
    s = sam.post(url, json={"vps": [0, 4, 0, 0]})
    assert s.status_code == 409
    body = s.get_json()
    assert body["field"] == "based_on" and body["stored"]["vps"] == [4, 0, 0, 0] and body["stored"]["by"] == "Ann"
    assert body["result_id"] == a.get_json()["result_id"]
    # a retry of Ann's post (the reply was lost) stores nothing twice
    retry = ann.post(url, json={"vps": [4, 0, 0, 0], "client_id": "ann-1"})
    assert retry.status_code == 200 and retry.get_json()["duplicate"] is True
    # Sam replaces it knowingly
    s2 = sam.post(url, json={"vps": [0, 4, 0, 0], "based_on": body["result_id"]})
    assert s2.status_code == 201 and s2.get_json()["vps"] == [0, 4, 0, 0]
    history = ann.get(f"/api/tournaments/{tid}/rounds/1/tables/1").get_json()["history"]
    assert [(h["by"], h["client_id"]) for h in history] == [("Ann", "ann-1"), ("Sam", None)]


def test_a_judge_cannot_replace_an_override_over_the_api(app, client, event, signed_in):
    tid, _ = event
    base = f"/api/tournaments/{tid}/rounds/1/tables/1"
    judge, hj = app.test_client(), app.test_client()
    signed_in(judge, tid, "judge", name="Jo")
    signed_in(hj, tid, "head_judge", name="Hal")
    bad = judge.post(base + "/result", json={"vps": [3, 0, 0, 0.5]}).get_json()
    over = hj.post(base + "/override", json={"vps": [2, 0, 0, 2], "reason": "a split after a misplay",
                                             "based_on": bad["result_id"]})
    assert over.status_code == 201
    r = judge.post(base + "/result", json={"vps": [3, 0, 0, 0.5], "withdrawn": [4],
                                           "based_on": over.get_json()["result_id"]})
    assert r.status_code == 409 and r.get_json()["overridden"] is True
    assert judge.get(base).get_json()["state"] == "overridden"
    ok = hj.post(base + "/result", json={"vps": [3, 0, 0, 0.5], "withdrawn": [4],
                                         "based_on": over.get_json()["result_id"]})
    assert ok.status_code == 201 and ok.get_json()["state"] == "finished"


def _form(client, url):
    page = client.get(url).get_data(as_text=True)
    return {k: re.search(rf'name="{k}" value="([^"]*)"', page).group(1) for k in ("based_on", "client_id")}


def test_a_stale_form_comes_back_with_the_stored_result_and_can_replace_it(app, client, event, signed_in):
    tid, _ = event
    url = f"/tournaments/{tid}/rounds/1/tables/1"
    ann, sam = app.test_client(), app.test_client()
    acsrf = signed_in(ann, tid, "judge", name="Ann", how="session")
    scsrf = signed_in(sam, tid, "judge", name="Sam", how="session")
    ann_form, sam_form = _form(ann, url), _form(sam, url)  # both open the empty table
    assert ann_form["based_on"] == "" and ann_form["client_id"] != sam_form["client_id"]
    vps = lambda v: {f"vp{k}": str(x) for k, x in enumerate(v, 1)}  # noqa: E731
    assert ann.post(url, data={"csrf_token": acsrf, **ann_form, **vps([4, 0, 0, 0])}).status_code == 302
    r = sam.post(url, data={"csrf_token": scsrf, **sam_form, **vps([0, 4, 0, 0])})
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    box = re.search(r'id="result-conflict">(.*?)</div>', html, re.S).group(1)
    assert "by Ann" in box and re.findall(r"<li>\w+: (\d)</li>", box) == ["4", "0", "0", "0"]
    assert re.search(r'id="vp2"[^>]*value="4"', html)  # Sam's numbers are kept, not saved
    assert "Replace it with these numbers" in html
    # sent again from that page, Sam's numbers replace Ann's
    again = {k: re.search(rf'name="{k}" value="([^"]*)"', html).group(1) for k in ("based_on", "client_id")}
    assert sam.post(url, data={"csrf_token": scsrf, **again, **vps([0, 4, 0, 0])}).status_code == 302
    detail = sam.get(f"/api/tournaments/{tid}/rounds/1/tables/1").get_json()
    assert detail["vps"] == [0, 4, 0, 0] and [h["by"] for h in detail["history"]] == ["Ann", "Sam"]
    # the same form sent twice (a double tap, a resend) is stored once
    resend = sam.post(url, data={"csrf_token": scsrf, **again, **vps([0, 4, 0, 0])})
    assert resend.status_code == 302 and len(sam.get(f"/api/tournaments/{tid}/rounds/1/tables/1").get_json()["history"]) == 2


def test_a_judge_sees_an_override_as_standing(app, client, event, signed_in):
    tid, _ = event
    url = f"/tournaments/{tid}/rounds/1/tables/1"
    hj = app.test_client()
    signed_in(hj, tid, "head_judge", name="Hal")
    hj.post(f"/api/tournaments/{tid}/rounds/1/tables/1/override", json={"vps": [2, 0, 0, 2], "reason": "a split, agreed"})
    judge = app.test_client()
    csrf = signed_in(judge, tid, "judge", name="Jo", how="session")
    page = judge.get(url).get_data(as_text=True)
    assert "The override stands until the head judge replaces it" in page
    assert 'value="enter"' not in page and re.search(r'id="vp1"[^>]*disabled', page)
    form = _form(judge, url)
    r = judge.post(url, data={"csrf_token": csrf, **form, "vp1": "4", "vp2": "0", "vp3": "0", "vp4": "0"})
    assert r.status_code == 409 and "override stands" in r.get_data(as_text=True)
    assert hj.get(f"/api/tournaments/{tid}/rounds/1/tables/1").get_json()["state"] == "overridden"
    hpage = hj.get(url).get_data(as_text=True)
    assert "Replace the override with this result" in hpage


def test_the_toss_form_draws_the_tie_it_showed_once(app, client, signed_in):
    r = client.post("/api/tournaments", json={"name": "Toss Web", "rounds_planned": 2})
    tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
    client.post(f"/api/tournaments/{tid}/players", headers=org,
                json=[{"name": f"T{k}", "vekn": str(700 + k)} for k in range(10)])
    for n in (1, 2):
        rnd = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": n}).get_json()
        for tb in rnd["tables"]:
            client.post(f"/api/tournaments/{tid}/rounds/{n}/tables/{tb['number']}/result", headers=org,
                        json={"vps": [0.5] * tb["size"]})
        client.post(f"/api/tournaments/{tid}/rounds/{n}/close", headers=org, json={})
    a, b = app.test_client(), app.test_client()
    acsrf = signed_in(a, tid, "head_judge", name="Hana", how="session")
    bcsrf = signed_in(b, tid, "head_judge", name="Hal", how="session")
    pages = [c.get(f"/tournaments/{tid}/standings").get_data(as_text=True) for c in (a, b)]
    shown = [re.search(r'name="players" value="([^"]+)"', p).group(1) for p in pages]
    assert shown[0] == shown[1]
    assert a.post(f"/tournaments/{tid}/toss", data={"csrf_token": acsrf, "players": shown[0]}).status_code == 302
    r = b.post(f"/tournaments/{tid}/toss", data={"csrf_token": bcsrf, "players": shown[1]}, follow_redirects=True)
    assert "drawn already" in r.get_data(as_text=True)
    db = open_db(app.config["DATABASE"])
    try:
        assert len(list(db["tournament_tosses"].rows)) == 1
    finally:
        db.close()
