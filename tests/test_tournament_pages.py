"""The tournament's pages as an organizer and a judge use them on a phone (QA walk-through):
flashed messages, the share link, result entry, closed rounds, controls per role, form
errors in words, times."""
from __future__ import annotations

import html as html_mod
import re

import pytest

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


def flashes(resp) -> list[str]:
    return re.findall(r'class="flash flash-[a-z]+"[^>]*>([^<]+)', resp.get_data(as_text=True))


@pytest.fixture
def org(client, signed_in):
    """Tournament 1 created over the API; the client is its organizer through the session
    (as in a browser). Returns {"tid", "csrf"}."""
    r = client.post("/api/tournaments", json={"name": "Page Cup", "organizer": "Ola"})
    tid = r.get_json()["id"]
    csrf = signed_in(client, tid, "organizer", how="session")
    return {"tid": tid, "csrf": csrf}


# --- flashed messages ------------------------------------------------------------------------

def test_a_background_fetch_does_not_take_the_flash_of_the_next_page(client, org):
    """The service worker saves the rules pages for offline use while the organizer works:
    those fetches (Sec-Fetch-Dest: empty) rendered base.html and took "Filip registered"
    before the dashboard could show it (the flaky browser test), and kept it in the copy."""
    tid = org["tid"]
    r = client.post(f"/tournaments/{tid}/players", data={"name": "Filip", "vekn": "", "csrf_token": org["csrf"]})
    assert r.status_code == 302
    saved = client.get("/rules/tournament-rules/3.7.2", headers={"Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors"})
    assert saved.status_code == 200 and not flashes(saved)
    prefetched = client.get("/", headers={"Sec-Purpose": "prefetch"})
    assert not flashes(prefetched)
    page = client.get(f"/tournaments/{tid}", headers={"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"})
    assert any("Filip registered" in f for f in flashes(page))
    assert not flashes(client.get(f"/tournaments/{tid}"))  # shown once
    # a navigation the service worker passes on to the network: dest "empty", mode "navigate"
    client.post(f"/tournaments/{tid}/players", data={"name": "Gina", "vekn": "", "csrf_token": org["csrf"]})
    page = client.get(f"/tournaments/{tid}", headers={"Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "navigate"})
    assert any("Gina registered" in f for f in flashes(page))


# --- helpers: a round of one table, played through the pages ------------------------------------

def one_table(client, org, names=("Ann", "Bob", "Cy", "Dee")):
    """Four players registered and round 1 seated (one table), as the organizer."""
    tid, csrf = org["tid"], org["csrf"]
    for name in names:
        assert client.post(f"/tournaments/{tid}/players", data={"name": name, "vekn": "", "csrf_token": csrf}).status_code == 302
    assert client.post(f"/tournaments/{tid}/rounds", data={"seed": "1", "csrf_token": csrf}).status_code == 302
    return f"/tournaments/{tid}/rounds/1/tables/1"


def post_vps(client, url, csrf, vps, action="enter", **extra):
    """Send the table's form as a browser would: based on the result the page shows."""
    data = {f"vp{k}": str(v) for k, v in enumerate(vps, 1)}
    if "based_on" not in extra:
        page = client.get(url).get_data(as_text=True)
        found = re.search(r'name="based_on" value="([^"]*)"', page)
        extra["based_on"] = found.group(1) if found else ""
    return client.post(url, data={**data, "action": action, "csrf_token": csrf, **extra})


def seat_message(html: str, seat: int) -> str:
    """The message shown next to seat N's VP field."""
    m = re.search(rf'id="err-vp{seat}"[^>]*>(.*?)</div>', html, re.S)
    return html_mod.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else ""


# --- result form: messages next to the fields, what was typed kept ------------------------------

@pytest.mark.parametrize("vps,seat,fragment", [
    (["abc", "1", "1", "1"], 1, "'abc' is not a number"),
    (["1", "-1", "2", "1"], 2, "cannot be negative"),
    (["1.25", "0", "1.5", "1"], 1, "come in halves"),
    (["1", "1", "9", "0"], 3, "more than a 4-player table"),
    (["1", "1", "", "1"], 3, "no VP given"),
])
def test_malformed_vp_come_back_next_to_their_seat_with_what_was_typed(client, org, vps, seat, fragment):
    url = one_table(client, org)
    r = post_vps(client, url, org["csrf"], vps, note="typed note", wd2="1")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert fragment in seat_message(html, seat)
    assert f'id="vp{seat}"' in html and 'aria-invalid="true" aria-describedby="err-vp%d"' % seat in html
    for k, v in enumerate(vps, 1):  # every value as typed
        assert re.search(rf'id="vp{k}"[^>]*value="{re.escape(v)}"', html), (k, v)
    assert 'value="typed note"' in html
    assert re.search(r'name="wd2" value="1"[^>]*checked', html)  # the withdrawal box stays ticked
    assert "Traceback" not in html and "Not saved" in html
    # nothing stored
    assert "History" not in client.get(url).get_data(as_text=True)


def test_vp_that_do_not_add_up_are_explained_under_the_vp(client, org):
    url = one_table(client, org)
    r = post_vps(client, url, org["csrf"], ["2", "1", "1", "1"])
    assert r.status_code == 302  # stored as invalid (the check says why, the judge corrects)
    html = client.get(url).get_data(as_text=True)
    block = re.search(r'id="err-vps"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert "add up to 5, more than the 4 players" in block
    assert re.search(r'id="vp1"[^>]*value="2"', html)
    # a lone half names its seat, next to that seat's field
    post_vps(client, url, org["csrf"], ["3", "0", "0", "0.5"])
    html = client.get(url).get_data(as_text=True)
    assert "lone ½ VP" in seat_message(html, 4)


# --- a closed round: the head judge corrects, with a reason ---------------------------------------

def vp_of(client, tid, name):
    rows = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    return next(r["vp"] for r in rows if r["name"] == name)


def test_head_judge_corrects_a_closed_round_with_a_reason_and_the_standings_follow(client, org, signed_in):
    tid = org["tid"]
    url = one_table(client, org)
    seats = client.get(f"/api/tournaments/{tid}/rounds/1/tables/1").get_json()["seats"]
    names = [s["name"] for s in seats]
    assert post_vps(client, url, org["csrf"], ["4", "0", "0", "0"]).status_code == 302
    assert client.post(f"/tournaments/{tid}/rounds/1/close", data={"csrf_token": org["csrf"]}).status_code == 302
    assert vp_of(client, tid, names[0]) == 4

    # a table judge: the page says it is closed and offers no save button; a POST is refused in words
    judge = client.application.test_client()
    jcsrf = signed_in(judge, tid, "judge", how="session")
    page = judge.get(url).get_data(as_text=True)
    assert "Only the head judge can correct" in page and 'value="enter"' not in page and 'value="correct"' not in page
    r = post_vps(judge, url, jcsrf, ["0", "4", "0", "0"], reason="typo in seat order")
    assert r.status_code == 403 and "correct a table's result after its round is closed" in html_mod.unescape(r.get_data(as_text=True))
    api = judge.post(f"/api/tournaments/{tid}/rounds/1/tables/1/result", json={"vps": [0, 4, 0, 0]},
                     headers={"X-CSRF-Token": jcsrf})
    assert api.status_code == 409 and "closed" in api.get_json()["error"]
    assert vp_of(client, tid, names[0]) == 4

    # the head judge: a reason is required (the typed VP are kept), then the correction counts
    hj = client.application.test_client()
    hcsrf = signed_in(hj, tid, "head_judge", name="Hal", how="session")
    page = hj.get(url).get_data(as_text=True)
    assert 'value="correct"' in page and "As head judge you can correct" in page
    r = post_vps(hj, url, hcsrf, ["0", "4", "0", "0"], action="correct", reason="")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "reason is required" in re.search(r'id="err-reason"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert re.search(r'id="vp2"[^>]*value="4"', html)
    r = post_vps(hj, url, hcsrf, ["0", "4", "1", "0"], action="correct", reason="seat 2 swept the table")
    assert r.status_code == 400 and "add up to" in r.get_data(as_text=True)  # impossible: not stored
    r = post_vps(hj, url, hcsrf, ["0", "4", "0", "0"], action="correct", reason="seat 2 swept the table")
    assert r.status_code == 302
    assert vp_of(client, tid, names[0]) == 0 and vp_of(client, tid, names[1]) == 4
    detail = hj.get(f"/api/tournaments/{tid}/rounds/1/tables/1").get_json()
    last = detail["history"][-1]
    assert last["kind"] == "correction" and last["by"] == "Hal" and last["reason"] == "seat 2 swept the table"
    assert last["created_at"] and detail["source"] == "correction" and detail["state"] == "finished"
    page = hj.get(url).get_data(as_text=True)
    assert "Corrected by the head judge after the round closed" in page and "seat 2 swept the table" in page


def test_correct_api_is_for_the_head_judge_and_closed_rounds_only(client, org, signed_in):
    tid = org["tid"]
    one_table(client, org)
    hj = client.application.test_client()
    signed_in(hj, tid, "head_judge")
    body = {"vps": [4, 0, 0, 0], "reason": "scorekeeper typo"}
    r = hj.post(f"/api/tournaments/{tid}/rounds/1/tables/1/correct", json=body)
    assert r.status_code == 409 and "open" in r.get_json()["error"]
    assert hj.post(f"/api/tournaments/{tid}/rounds/1/tables/1/result", json={"vps": [0, 0, 0, 4]}).status_code == 201
    assert hj.post(f"/api/tournaments/{tid}/rounds/1/close", json={}).status_code == 200
    judge = client.application.test_client()
    signed_in(judge, tid, "judge")
    assert judge.post(f"/api/tournaments/{tid}/rounds/1/tables/1/correct", json=body).status_code == 403
    bad = hj.post(f"/api/tournaments/{tid}/rounds/1/tables/1/correct", json={"vps": [4, 0, 0, 0], "reason": ["x"]})
    assert bad.status_code == 400 and bad.get_json()["field"] == "reason"
    bad = hj.post(f"/api/tournaments/{tid}/rounds/1/tables/1/correct", json={"vps": [4, 0, 0, "x"], "reason": "typo!"})
    assert bad.status_code == 400 and bad.get_json()["problems"][0]["seat"] == 4
    ok = hj.post(f"/api/tournaments/{tid}/rounds/1/tables/1/correct", json=body)
    assert ok.status_code == 201 and ok.get_json()["vps"] == [4, 0, 0, 0]


# --- controls per role: a page offers only what the signed-in role may do -------------------------

CONTROLS = {  # what the control's form posts to -> the lowest role that may use it
    "/players\"": "organizer",          # register
    "/checkin\"": "organizer",
    "/drop\"": "organizer",
    "/rounds\"": "organizer",           # seat the next round
    "/close\"": "head_judge",
    "/swap\"": "head_judge",
    "/export/standings.csv": "head_judge",
}
RANK = {"judge": 1, "head_judge": 2, "organizer": 3}


def test_each_role_sees_only_the_controls_it_may_use(client, org, signed_in):
    tid = org["tid"]
    one_table(client, org)  # round 1 open: close and swap are possible now
    client.post(f"/tournaments/{tid}/players", data={"name": "Eve", "vekn": "", "csrf_token": org["csrf"]})
    for role in ("judge", "head_judge", "organizer"):
        c = client.application.test_client()
        csrf = signed_in(c, tid, role, how="session")
        html = c.get(f"/tournaments/{tid}").get_data(as_text=True) + c.get(f"/tournaments/{tid}/rounds/1").get_data(as_text=True)
        for target, lowest in CONTROLS.items():
            if target == "/rounds\"":  # the seat-round form shows only between rounds: checked below
                continue
            shown = target in html
            assert shown == (RANK[role] >= RANK[lowest]), (role, target)
        if role == "judge":
            assert "the head judge closes the round" in html
            # and the server still refuses what the page no longer offers
            r = c.post(f"/tournaments/{tid}/rounds/1/close", data={"csrf_token": csrf})
            assert r.status_code == 403
            r = c.post(f"/tournaments/{tid}/players", data={"name": "Zed", "csrf_token": csrf})
            assert r.status_code == 403
    # between rounds, only the organizer is offered "Seat round"
    hj = client.application.test_client()
    signed_in(hj, tid, "head_judge", how="session")
    url = f"/tournaments/{tid}/rounds/1/tables/1"
    hj.post(url, data={"vp1": "4", "vp2": "0", "vp3": "0", "vp4": "0", "action": "enter", "csrf_token": "test-csrf-token"})
    assert hj.post(f"/tournaments/{tid}/rounds/1/close", data={"csrf_token": "test-csrf-token"}).status_code == 302
    assert f'action="/tournaments/{tid}/rounds"' not in hj.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "The organizer seats round 2" in hj.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert f'action="/tournaments/{tid}/rounds"' in client.get(f"/tournaments/{tid}").get_data(as_text=True)


# --- the link to give players ----------------------------------------------------------------------

def share_link(html: str) -> str | None:
    m = re.search(r'class="share-url" href="([^"]+)"', html)
    return m.group(1) if m else None


def test_share_link_uses_the_venue_address_when_the_page_is_opened_on_the_laptop(client, org, monkeypatch, signed_in):
    from judgekit import netinfo
    tid = org["tid"]
    signed_in(client, tid, "organizer")  # a bearer token: the session cookie belongs to "localhost"
    monkeypatch.setattr(netinfo, "lan_addresses", lambda: ["192.168.1.20"])
    html = client.get(f"/tournaments/{tid}", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert share_link(html) == f"http://192.168.1.20:5000/tournaments/{tid}/public"
    assert "127.0.0.1" not in html
    html = client.get(f"/tournaments/{tid}", base_url="http://localhost").get_data(as_text=True)
    assert share_link(html) == f"http://192.168.1.20/tournaments/{tid}/public"
    # opened from a phone (or by the laptop's venue address): that address is the one to give
    html = client.get(f"/tournaments/{tid}", base_url="http://10.0.0.7:8080").get_data(as_text=True)
    assert share_link(html) == f"http://10.0.0.7:8080/tournaments/{tid}/public"


@pytest.mark.own_app  # it sets the app's config (LISTEN_HOST)
def test_share_link_says_when_no_venue_address_is_known(client, org, monkeypatch, signed_in):
    from judgekit import netinfo
    tid = org["tid"]
    signed_in(client, tid, "organizer")
    monkeypatch.setattr(netinfo, "lan_addresses", lambda: [])
    html = client.get(f"/tournaments/{tid}", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert share_link(html) is None and "No venue-network address is known" in html
    # listening on this machine only: no address can work, whatever the network
    monkeypatch.setattr(netinfo, "lan_addresses", lambda: ["192.168.1.20"])
    client.application.config["LISTEN_HOST"] = "127.0.0.1"
    html = client.get(f"/tournaments/{tid}", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert share_link(html) is None and "--host 0.0.0.0" in html


def test_venue_base_url():
    from judgekit.netinfo import venue_base_url
    assert venue_base_url("127.0.0.1:5000", "http", ["192.168.1.20", "10.0.0.2"]) == "http://192.168.1.20:5000"
    assert venue_base_url("[::1]:8000", "https", ["192.168.1.20"]) == "https://192.168.1.20:8000"
    assert venue_base_url("localhost", "http", ["192.168.1.20"]) == "http://192.168.1.20"
    assert venue_base_url("127.0.0.1:5000", "http", []) is None
    assert venue_base_url("judge.local:5000", "http", []) == "http://judge.local:5000"


# --- times people read; limits from one place ----------------------------------------------------

def test_times_read_as_weekday_and_time():
    from datetime import timedelta, timezone

    from judgekit.timetext import short
    assert short("2026-11-21T13:05:09+00:00", timezone.utc) == "Sat 13:05"
    assert short("2026-11-21T13:05:09+00:00", timezone(timedelta(hours=1))) == "Sat 14:05"
    assert short("2026-11-21T23:30:00+00:00", timezone(timedelta(hours=1))) == "Sun 00:30"
    assert short("2026-11-21T13:05:09", timezone.utc, date=True) == "Sat 21 Nov 2026 13:05"
    assert short(None) == "" and short("not a time") == "not a time"


def test_the_pages_limits_are_the_stores(client, org, signed_in):
    from judgekit.auth.codes import MAX_NAME
    from judgekit.tournament import store
    from judgekit.tournament.penalties import extensions
    from judgekit.tournament.penalties import store as pstore
    tid = org["tid"]
    url = one_table(client, org)
    html = client.get(url).get_data(as_text=True)
    assert f'name="note" maxlength="{store.MAX_LEN["note"]}"' in html
    dash = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert re.search(rf'name="first_name"[^>]*maxlength="{store.MAX_LEN["player"]}"', dash)
    assert re.search(rf'name="city"[^>]*maxlength="{store.MAX_LEN["place"]}"', dash)
    assert f'maxlength="{MAX_NAME}"' in client.get(f"/tournaments/{tid}/sign-in").get_data(as_text=True)
    form = client.get(f"/tournaments/{tid}/penalties/new").get_data(as_text=True)
    assert f'name="description" rows="3" maxlength="{pstore.MAX_TEXT["description"]}"' in form
    clocks = client.get(f"/tournaments/{tid}/time").get_data(as_text=True)
    assert f'name="reason" maxlength="{extensions.MAX_REASON}"' in clocks
    r = client.get(f"/api/time/suggest?judge_minutes={extensions.MAX_JUDGE_MINUTES + 1}")
    assert r.status_code == 400 and str(extensions.MAX_JUDGE_MINUTES) in r.get_json()["error"]
    assert client.get(f"/api/time/suggest?judge_minutes={extensions.MAX_JUDGE_MINUTES}").status_code == 200


def test_times_of_day_are_the_venues_with_no_zone():
    from datetime import timedelta, timezone

    from judgekit.timetext import clock
    assert clock("2026-11-21T13:05:09+00:00", timezone(timedelta(hours=1))) == "14:05"
    assert clock(None) == "" and clock("") == ""


# --- small things users tripped on (issue 15 §5) ------------------------------------------

def test_an_empty_player_list_is_a_sentence_not_a_numbered_item(client, org):
    html = client.get(f"/tournaments/{org['tid']}").get_data(as_text=True)
    assert '<p class="muted" id="no-players">Nobody registered yet.</p>' in html
    assert not re.search(r"<li[^>]*>\s*Nobody registered", html)
    client.post(f"/tournaments/{org['tid']}/players", data={"csrf_token": org["csrf"], "name": "Ana"})
    html = client.get(f"/tournaments/{org['tid']}").get_data(as_text=True)
    assert "Nobody registered yet" not in html and re.search(r'<ol class="players"[^>]*>\s*<li', html)


def test_the_standings_say_rating_points_in_words(client, org, signed_in):
    html = client.get(f"/tournaments/{org['tid']}/standings").get_data(as_text=True)
    assert ">Rating points</th>" in html and ">RtP<" not in html


def test_play_a_final_keeps_its_words_together(client):
    html = client.get("/tournaments").get_data(as_text=True)
    label = re.search(r'<label class="check"><input type="checkbox" name="has_final"[^>]*>\s*<span>(.*?)</span></label>', html, re.S)
    assert label and "Play a final" in label.group(1) and 'href="/rules/tournament-rules/3.1.6"' in label.group(1)


def test_a_new_event_says_how_many_must_check_in_before_seating(client, org):
    """QA: a new event's dashboard said "0 players present. These players cannot be seated
    in tables of 4 and 5." — the organizer's next step is to check in at least 4."""
    html = client.get(f"/tournaments/{org['tid']}").get_data(as_text=True)
    assert "0 players present." in html and "Check in at least 4 players to seat a round." in html
    assert "These players cannot be seated" not in html
    client.post(f"/tournaments/{org['tid']}/players", data={"csrf_token": org["csrf"], "name": "Ana", "checked_in": "1"})
    html = client.get(f"/tournaments/{org['tid']}").get_data(as_text=True)
    assert "1 player present." in html and "Check in at least 4 players" in html
    for name in ("Bo", "Cy", "Di"):
        client.post(f"/tournaments/{org['tid']}/players", data={"csrf_token": org["csrf"], "name": name, "checked_in": "1"})
    html = client.get(f"/tournaments/{org['tid']}").get_data(as_text=True)
    assert "4 players present." in html and "Tables: 4." in html and "Check in at least 4" not in html
