"""Players see their seat (issue 12 §2): the name lookup, the public pages (no sign-in), the
list by name for the wall, the QR code poster, and what these pages never show."""
from __future__ import annotations

import html as html_mod
import re

import pytest

from judgekit.tournament import seat_lookup

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)

NAMES = ["Anaïs Dubois", "Ana Lopez", "Bob Stone", "Jean-Pierre de la Tour", "Émile Zola",
         "Zoë Ångström", "Carl Xu", "Dee Young", "Eve Zhang"]


# --- the lookup, pure ------------------------------------------------------------------------

def room_of(names, sit_outs=()):
    tables, k = [], 0
    sizes = [5, 4] if len(names) == 9 else [len(names)]
    for number, size in enumerate(sizes, 1):
        tables.append((number, [(k + j + 1, n) for j, n in enumerate(names[k:k + size])]))
        k += size
    return seat_lookup.seating(tables, [(100 + j, n) for j, n in enumerate(sit_outs)])


@pytest.mark.parametrize("typed,found", [
    ("ana", ["Ana Lopez", "Anaïs Dubois"]),          # word starts, several matches, in name order
    ("ANAIS", ["Anaïs Dubois"]),                      # case and accents aside
    ("anaïs", ["Anaïs Dubois"]),
    ("dub", ["Anaïs Dubois"]),                        # the last name's start
    ("dub an", ["Anaïs Dubois"]),                     # several words, any order
    ("pierre", ["Jean-Pierre de la Tour"]),           # a hyphen separates words
    ("jean la", ["Jean-Pierre de la Tour"]),
    ("emile", ["Émile Zola"]),
    ("angst", ["Zoë Ångström"]),
    ("zoe", ["Zoë Ångström"]),
    ("z", ["Émile Zola", "Eve Zhang", "Zoë Ångström"]),
    ("nais", []),                                      # not the start of a word
    ("ana ana", []),                                   # one name word per typed word
    ("bob 😀", ["Bob Stone"]),                         # what is not a letter is ignored
])
def test_name_matching(typed, found):
    got = seat_lookup.find(room_of(NAMES), typed)
    assert [p.name for p in got.matches] == found
    assert got.total == len(found) and got.problem is None


def test_a_query_without_letters_asks_for_some_and_an_empty_one_asks_nothing():
    room = room_of(NAMES)
    for typed in ("😀😀", "  --  ", "!!!"):
        got = seat_lookup.find(room, typed)
        assert got.matches == () and got.problem == "Type a few letters of your name."
    assert seat_lookup.find(room, "").problem is None and seat_lookup.find(room, None).matches == ()


def test_a_long_query_is_cut_and_many_matches_are_capped():
    got = seat_lookup.find(room_of(NAMES), "a" * 10_000)
    assert len(got.query) == seat_lookup.MAX_QUERY and got.matches == ()
    many = room_of([f"Ann {k:02d}" for k in range(20)])
    got = seat_lookup.find(many, "ann")
    assert got.total == 20 and len(got.matches) == seat_lookup.MAX_SHOWN
    assert [p.name for p in got.matches] == [f"Ann {k:02d}" for k in range(seat_lookup.MAX_SHOWN)]


def test_places_tables_seats_and_sit_outs():
    room = room_of(NAMES[:5], sit_outs=["Sam Out"])
    (ana,) = seat_lookup.find(room, "anais").matches
    assert (ana.table, ana.seat, ana.sits_out) == (1, 1, False)
    (sam,) = seat_lookup.find(room, "sam").matches
    assert sam.sits_out and sam.table is None
    assert [p.name for p in room.table(1).seats] == NAMES[:5]


def test_alphabetical_groups_by_first_letter_accents_aside():
    groups = seat_lookup.alphabetical(room_of(NAMES))
    assert [letter for letter, _ in groups] == ["A", "B", "C", "D", "E", "J", "Z"]
    e = dict(groups)["E"]
    assert [p.name for p in e] == ["Émile Zola", "Eve Zhang"]
    assert sum(len(ps) for _, ps in groups) == len(NAMES)


# --- the pages --------------------------------------------------------------------------------

@pytest.fixture
def event(client):
    """Nine players (tables of 5 and 4), round 1 seated, over the API as the organizer; the
    client is signed out afterwards (a player's phone)."""
    r = client.post("/api/tournaments", json={"name": "Seat Cup", "rounds_planned": 3})
    tid, token = r.get_json()["id"], r.get_json()["token"]
    org = {"Authorization": f"Bearer {token}"}
    players = client.post(f"/api/tournaments/{tid}/players", headers=org,
                          json=[{"name": n, "vekn": str(3200100 + k)} for k, n in enumerate(NAMES)]
                          ).get_json()["players"]
    rnd = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 5}).get_json()
    return {"tid": tid, "org": org, "players": players, "round": rnd}


def text_of(resp) -> str:
    body = resp.get_data(as_text=True)
    main = body[body.index("<main"):body.index("</main>")] if "<main" in body else body   # or part=results
    return html_mod.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))


def seating_of(event) -> dict[str, tuple[int, int]]:
    ids = {p["id"]: p["name"] for p in event["players"]}
    return {ids[s["player_id"]]: (t["number"], s["seat"])
            for t in event["round"]["tables"] for s in t["seats"]}


def test_a_player_finds_table_seat_and_the_others_in_seat_order_without_signing_in(client, event):
    tid = event["tid"]
    where = seating_of(event)
    r = client.get(f"/tournaments/{tid}/rounds/1/seats?q=ana")
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    cards = re.findall(r'<article class="seat-card" aria-label="([^"]+)">(.*?)</article>', body, re.S)
    assert [html_mod.unescape(name) for name, _ in cards] == ["Ana Lopez", "Anaïs Dubois"]
    for name, card in cards:
        table, seat = where[html_mod.unescape(name)]
        assert f"Table {table}</span> <span class=\"seat-big\">Seat {seat}" in card
        listed = [html_mod.unescape(n) for n in re.findall(r'class="seat-name">([^<]+)<', card)]
        same_table = sorted((s, n) for n, (t, s) in where.items() if t == table)
        assert listed == [n for _, n in same_table]
        assert re.search(r'class="is-you"[^>]*><span class="seat-no">%d<' % seat, card)
    assert "2 players match" in text_of(r)


def test_the_current_address_follows_the_round_seated_last(client, event):
    tid = event["tid"]
    r = client.get(f"/tournaments/{tid}/seats?q=zoe")
    assert r.status_code == 200 and "Round 1" in text_of(r)
    assert f'action="/tournaments/{tid}/seats"' in r.get_data(as_text=True)   # the poster's address stays
    table, seat = seating_of(event)["Zoë Ångström"]
    assert f"Table {table} Seat {seat}" in text_of(r)


def test_the_answer_alone_for_the_script(client, event):
    tid = event["tid"]
    r = client.get(f"/tournaments/{tid}/rounds/1/seats?q=pierre&part=results")
    assert r.status_code == 200 and r.mimetype == "text/html"
    body = r.get_data(as_text=True)
    assert "<html" not in body and "Jean-Pierre de la Tour" in body and body.count('class="seat-card"') == 1
    none = client.get(f"/tournaments/{tid}/rounds/1/seats?q=qqq&part=results").get_data(as_text=True)
    assert "Nobody in round 1 matches “qqq”" in html_mod.unescape(none)


def test_the_whole_room_in_table_and_seat_order(client, event):
    r = client.get(f"/tournaments/{event['tid']}/rounds/1/seats")
    body = r.get_data(as_text=True)
    room = body[body.index('class="room-tables"'):]
    for table in event["round"]["tables"]:
        section = re.search(r'id="table-%d".*?</ol>' % table["number"], room, re.S).group()
        listed = [html_mod.unescape(n) for n in re.findall(r'class="seat-name">([^<]+)<', section)]
        ids = {p["id"]: p["name"] for p in event["players"]}
        assert listed == [ids[s["player_id"]] for s in table["seats"]]


def test_the_list_by_name_for_the_wall(client, event):
    r = client.get(f"/tournaments/{event['tid']}/rounds/1/seats/list")
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    rows = re.findall(r'<li><span class="bn-name">([^<]+)</span> <span class="bn-where"><span class="bn-label">Table'
                      r'</span> <b class="bn-t">(\d+)</b> <span class="bn-label">seat</span> <b class="bn-s">(\d+)</b>', body)
    where = seating_of(event)
    assert [html_mod.unescape(n) for n, _, _ in rows] == [
        "Ana Lopez", "Anaïs Dubois", "Bob Stone", "Carl Xu", "Dee Young", "Émile Zola", "Eve Zhang",
        "Jean-Pierre de la Tour", "Zoë Ångström"]
    assert {html_mod.unescape(n): (int(t), int(s)) for n, t, s in rows} == where
    assert "9 players" in text_of(r) and 'data-print' in body


def test_sit_outs_are_said(client):
    r = client.post("/api/tournaments", json={"name": "Six Cup", "rounds_planned": 3})
    tid, org = r.get_json()["id"], {"Authorization": f"Bearer {r.get_json()['token']}"}
    client.post(f"/api/tournaments/{tid}/players", headers=org, json=[{"name": f"Pla {k}"} for k in range(6)])
    rnd = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 2}).get_json()
    out = rnd["sit_outs"]
    assert len(out) == 2
    names = {p["id"]: p["name"] for p in client.get(f"/api/tournaments/{tid}/players", headers=org).get_json()["players"]}
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    who = names[out[0]]
    r = client.get(f"/tournaments/{tid}/rounds/1/seats", query_string={"q": who})
    assert f"{who} Sits out round 1" in text_of(r)
    r = client.get(f"/tournaments/{tid}/rounds/1/seats/list")
    assert re.search(r'%s</span> <span class="bn-where bn-out">sits out' % re.escape(who), r.get_data(as_text=True))


def test_rounds_not_seated_yet_and_unknown_ones(client, event):
    tid = event["tid"]
    r = client.get(f"/tournaments/{tid}/rounds/2/seats")
    assert r.status_code == 200 and "Round 2 is not seated yet" in text_of(r)
    assert "seat-card" not in r.get_data(as_text=True)
    r = client.get(f"/tournaments/{tid}/rounds/2/seats/list")
    assert r.status_code == 200 and "Round 2 is not seated yet" in text_of(r)
    assert client.get(f"/tournaments/{tid}/rounds/4/seats").status_code == 200     # the final, announced
    for url in (f"/tournaments/{tid}/rounds/5/seats", f"/tournaments/{tid}/rounds/5/seats/list",
                f"/tournaments/{tid + 1}/seats", f"/tournaments/{tid + 1}/rounds/1/seats",
                f"/tournaments/{tid}/rounds/0/seats", f"/tournaments/{tid}/rounds/99999999999999999999/seats",
                "/tournaments/abc/seats"):
        r = client.get(url)
        assert r.status_code == 404 and "<h1" in r.get_data(as_text=True), url


def test_before_round_one(client):
    tid = client.post("/api/tournaments", json={"name": "Early Cup"}).get_json()["id"]
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    r = client.get(f"/tournaments/{tid}/seats")
    assert r.status_code == 200 and "No round is seated yet" in text_of(r)
    assert 'id="seat-q"' not in r.get_data(as_text=True)
    assert client.get(f"/tournaments/{tid}/seats?q=ana&part=results").status_code == 200


@pytest.mark.parametrize("q", ["x" * 10_000, "😀" * 3000, "🧛‍♀️", "<script>alert(1)</script>", "%00", "\u202e", "ana" * 5000])
def test_bad_queries_get_a_page(client, event, q):
    for url in (f"/tournaments/{event['tid']}/rounds/1/seats", f"/tournaments/{event['tid']}/seats"):
        for part in ("", "results"):
            r = client.get(url, query_string={"q": q, "part": part})
            assert r.status_code == 200, (q[:20], r.status_code)
            body = r.get_data(as_text=True)
            assert "<script>alert" not in body and len(body) < 40_000
    r = client.get(f"/tournaments/{event['tid']}/rounds/1/seats", query_string={"q": "a\x00b"})
    assert r.status_code == 400


def test_nothing_a_player_may_not_read(client, event):
    """No VEKN number, VP, result state, penalty or code on the public pages, even once a
    table has its result and a player is disqualified and another dropped."""
    tid, org = event["tid"], event["org"]
    pid = event["players"][0]["id"]
    assert client.post(f"/api/tournaments/{tid}/penalties", headers=org,
                       json={"player": pid, "infraction": "marked cards", "variant": "pattern",
                             "description": "bent corners on every master", "approve": False}).status_code == 201
    client.patch(f"/api/tournaments/{tid}/players/{event['players'][1]['id']}", headers=org, json={"dropped": True})
    t1 = event["round"]["tables"][0]
    vps = [5, 0, 0, 0, 0][:len(t1["seats"])] if len(t1["seats"]) == 5 else [4, 0, 0, 0]
    assert client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/result", headers=org, json={"vps": vps}).status_code in (200, 201)
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    pages = [f"/tournaments/{tid}/seats", f"/tournaments/{tid}/rounds/1/seats?q=a",
             f"/tournaments/{tid}/rounds/1/seats?q=ana&part=results", f"/tournaments/{tid}/rounds/1/seats/list"]
    for url in pages:
        r = client.get(url)
        body = r.get_data(as_text=True)
        assert r.status_code == 200, url
        for secret in ("bent", "320010", "VP", "finished", "in-progress", "dropped", "disqualified", "penalt",
                       "Caution", "/games/", "token", "code"):
            assert secret not in text_of(r), (url, secret)
        assert "320010" not in body and "bent" not in body and "/games/" not in body, url
        # both players are still listed where the round seated them
        assert event["players"][0]["name"] in html_mod.unescape(body) or "part=results" in url


def test_the_poster_and_its_qr_code_for_the_organizer(client, event, signed_in):
    tid = event["tid"]
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    assert client.get(f"/tournaments/{tid}/seats/poster").status_code == 302   # signed out: sign in
    signed_in(client, tid, "judge")
    r = client.get(f"/tournaments/{tid}/seats/poster", base_url="http://192.168.1.20:8080")
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert f'src="/tournaments/{tid}/seats/qr.svg"' in body and "Find your table" in body
    assert f"http://192.168.1.20:8080/tournaments/{tid}/seats" in body
    qr = client.get(f"/tournaments/{tid}/seats/qr.svg", base_url="http://192.168.1.20:8080")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    svg = qr.get_data(as_text=True)
    assert "<path" in svg and "Find your table" in svg and "No venue address" not in svg


@pytest.mark.own_app  # it sets the app's config (LISTEN_HOST)
def test_the_poster_says_why_phones_cannot_reach_a_local_only_server(app, client, event, signed_in):
    app.config["LISTEN_HOST"] = "127.0.0.1"
    signed_in(client, event["tid"], "organizer")
    r = client.get(f"/tournaments/{event['tid']}/seats/poster")
    assert r.status_code == 200 and "--host 0.0.0.0" in text_of(r)
    assert "No venue address" in client.get(f"/tournaments/{event['tid']}/seats/qr.svg").get_data(as_text=True)


def test_organizers_find_the_links_on_the_round_page_and_the_dashboard(client, event, signed_in):
    tid = event["tid"]
    signed_in(client, tid, "organizer")
    for url in (f"/tournaments/{tid}/rounds/1", f"/tournaments/{tid}"):
        body = client.get(url).get_data(as_text=True)
        assert f'href="/tournaments/{tid}/seats/poster"' in body, url
        assert re.search(rf'href="[^"]*/tournaments/{tid}(/rounds/1)?/seats"', body), url
    body = client.get(f"/tournaments/{tid}/rounds/1").get_data(as_text=True)
    assert f'href="/tournaments/{tid}/rounds/1/seats/list"' in body


def test_a_closed_round_says_so_until_the_next_is_seated(client, event):
    tid, org = event["tid"], event["org"]
    for tb in event["round"]["tables"]:
        vps = [len(tb["seats"])] + [0] * (len(tb["seats"]) - 1)   # a sweep
        r = client.post(f"/api/tournaments/{tid}/rounds/1/tables/{tb['number']}/result", headers=org, json={"vps": vps})
        assert r.status_code in (200, 201), r.get_json()
    assert client.post(f"/api/tournaments/{tid}/rounds/1/close", headers=org).status_code == 200
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    page = text_of(client.get(f"/tournaments/{tid}/seats"))
    assert "Round 1 is over; the next round is not seated yet." in page and "Table 1" in page
    client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 9})
    page = text_of(client.get(f"/tournaments/{tid}/seats"))
    assert "Seat Cup — Round 2" in page and "is over" not in page
    assert "Round 1 is over" not in text_of(client.get(f"/tournaments/{tid}/rounds/1/seats"))
