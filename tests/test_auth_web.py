"""Signing in with the codes (pages and API tokens), signing out, new codes, what the
public sees, and where pages send someone who is not signed in."""
from __future__ import annotations

import re

import pytest

from judgekit.db import open_db

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


def csrf(client, path="/tournaments"):
    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


def flashes(resp):
    return " ".join(re.findall(r'class="flash[^"]*"[^>]*>([^<]+)', resp.get_data(as_text=True)))


@pytest.fixture
def created(client):
    """A tournament created through the page: the client is its organizer; the codes."""
    token = csrf(client)
    r = client.post("/tournaments", data={"csrf_token": token, "name": "Code Cup", "organizer": "Olga"})
    assert r.status_code == 302
    tid = int(r.location.rsplit("/", 1)[1])
    html = client.get(r.location).get_data(as_text=True)
    codes = dict(re.findall(r'<code class="pen-code" data-role="(\w+)">([^<]+)</code>', html))
    return tid, codes


def sign_in(client, tid, name, code, **extra):
    return client.post(f"/tournaments/{tid}/sign-in",
                       data={"csrf_token": csrf(client, f"/tournaments/{tid}/sign-in"), "name": name,
                             "code": code, **extra})


def test_creating_signs_in_the_organizer_and_shows_the_codes_once(client, created, app):
    tid, codes = created
    assert set(codes) == {"judge", "head_judge", "organizer"}
    assert codes["judge"].startswith("J-") and codes["head_judge"].startswith("H-")
    again = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "pen-code" not in again and "Organizer <b>Olga</b>" in again
    me = client.get(f"/api/tournaments/{tid}/me").get_json()
    assert me["role"] == "organizer" and me["name"] == "Olga" and "codes.manage" in me["may"]
    db = open_db(app.config["DATABASE"])
    dump = str(list(db["auth_codes"].rows))
    db.close()
    assert all(code not in dump for code in codes.values())


def test_judge_signs_in_with_the_judge_code(client, app, created):
    tid, codes = created
    judge = app.test_client()
    r = sign_in(judge, tid, "  Jo   Judge ", codes["judge"].lower().replace("-", " "),
                next=f"/tournaments/{tid}/penalties/new")
    assert r.status_code == 302 and r.location.endswith(f"/tournaments/{tid}/penalties/new")
    me = judge.get(f"/api/tournaments/{tid}/me").get_json()
    assert (me["role"], me["name"], me["via"]) == ("judge", "Jo Judge", "session")
    assert "penalties.issue" in me["may"] and "penalties.approve" not in me["may"]
    page = judge.get(f"/tournaments/{tid}/penalties/new")
    assert page.status_code == 200 and "Judge <b>Jo Judge</b>" in page.get_data(as_text=True)


@pytest.mark.parametrize("name,code,status,fragment", [
    ("Jo", "J-AAAA-BBBB-CCCC", 401, "not valid for this tournament"),
    ("Jo", "", 400, "code the organizer handed you"),
    ("", "J-AAAA-BBBB-CCCC", 400, "Give your name"),
    ("x" * 61, "J-AAAA-BBBB-CCCC", 400, "Give your name"),
])
def test_bad_sign_in_is_refused_with_a_reason(app, created, name, code, status, fragment):
    tid, _ = created
    c = app.test_client()
    r = sign_in(c, tid, name, code)
    assert r.status_code == status and fragment in r.get_data(as_text=True)
    assert c.get(f"/api/tournaments/{tid}/me").get_json() == {"signed_in": False, "may": [
        "rules.read", "standings.public", "tournament.list", "tournament.create", "practice.record"]}


def test_a_code_of_another_tournament_does_not_work(client, app, created):
    tid, codes = created
    other = app.test_client()
    r = other.post("/api/tournaments", json={"name": "Other"})
    oid = r.get_json()["id"]
    assert sign_in(app.test_client(), oid, "Jo", codes["judge"]).status_code == 401


@pytest.fixture
def clock(monkeypatch):
    """The sign-in throttle's clock, moved forward by hand."""
    from judgekit.auth import views as auth_views
    now = [1000.0]
    monkeypatch.setattr(auth_views, "clock", lambda: now[0])
    return now


def test_wrong_codes_slow_down_that_name_and_the_right_code_gets_through_after_a_short_wait(
        app, created, clock):
    tid, codes = created
    c = app.test_client()
    statuses = [sign_in(c, tid, "Eve", "J-2222-3333-4444").status_code for _ in range(6)]
    assert statuses == [401] * 5 + [429]
    r = sign_in(c, tid, "Eve", codes["judge"])
    assert r.status_code == 429 and "wait 2 seconds" in r.get_data(as_text=True)
    clock[0] += 2.5  # a short wait, not ten minutes
    assert sign_in(c, tid, "Eve", codes["judge"]).status_code == 302
    # the right code cleared that name's count
    assert sign_in(app.test_client(), tid, "Eve", "J-2222-3333-4444").status_code == 401


def test_a_guesser_behind_a_shared_address_does_not_lock_out_the_other_judges(app, created, clock):
    tid, codes = created
    guesser, judge = app.test_client(), app.test_client()  # one address (127.0.0.1), as behind a NAT
    assert [sign_in(guesser, tid, "Eve", "J-2222-3333-4444").status_code for _ in range(10)] == \
        [401] * 5 + [429] * 5
    r = sign_in(judge, tid, "Jo", codes["judge"])
    assert r.status_code == 302
    assert judge.get(f"/api/tournaments/{tid}/me").get_json()["name"] == "Jo"


def test_a_guesser_changing_names_is_slowed_down_per_address_for_seconds_only(app, created, clock):
    tid, codes = created
    c = app.test_client()
    statuses = [sign_in(c, tid, f"Eve {k}", "J-2222-3333-4444").status_code for k in range(25)]
    assert statuses == [401] * 20 + [429] * 5
    assert sign_in(app.test_client(), tid, "Jo", codes["judge"]).status_code == 429
    clock[0] += 2.5
    assert sign_in(app.test_client(), tid, "Jo", codes["judge"]).status_code == 302


def test_the_api_says_when_to_try_again(app, created, clock):
    tid, _ = created
    c = app.test_client()
    for _ in range(5):
        assert c.post(f"/api/tournaments/{tid}/tokens", json={"name": "Eve", "code": "J-2222-3333-4444"}).status_code == 401
    r = c.post(f"/api/tournaments/{tid}/tokens", json={"name": "Eve", "code": "J-2222-3333-4444"})
    assert r.status_code == 429 and r.headers["Retry-After"] == "2"
    assert r.get_json()["retry_after"] == 2 and r.get_json()["field"] == "code"


def test_guesses_sent_at_once_are_counted_before_the_slow_hash(app, created, monkeypatch):
    """60 wrong codes sent together: only the free tries are hashed (the count is taken
    before hashing, not after)."""
    import threading

    from judgekit.auth import store as auth_store
    tid, _ = created
    hashed, gate = [], threading.Event()
    real = auth_store.check_code

    def slow_check(db, t, code):
        hashed.append(code)
        gate.wait(5)  # every request is in flight before any hash ends
        return real(db, t, code)

    monkeypatch.setattr(auth_store, "check_code", slow_check)
    statuses = []

    def guess():
        r = app.test_client().post(f"/api/tournaments/{tid}/tokens",
                                   json={"name": "Eve", "code": "J-2222-3333-4444"})
        statuses.append(r.status_code)

    threads = [threading.Thread(target=guess) for _ in range(60)]
    for th in threads:
        th.start()
    for _ in range(200):
        if len(statuses) >= 55:
            break
        threading.Event().wait(0.05)
    gate.set()
    for th in threads:
        th.join()
    assert len(hashed) == 5
    assert sorted(statuses) == [401] * 5 + [429] * 55


def test_next_must_stay_on_this_site(app, created):
    tid, codes = created
    for target in ("//evil.example/x", "https://evil.example/", "javascript:alert(1)", "/\\evil",
                   "/\t/evil.example", "/\n/evil.example"):
        r = sign_in(app.test_client(), tid, "Jo", codes["judge"], next=target)
        assert r.status_code == 302 and r.location.endswith(f"/tournaments/{tid}")


def test_sign_out(client, app, created):
    tid, codes = created
    c = app.test_client()
    sign_in(c, tid, "Jo", codes["judge"])
    r = c.post(f"/tournaments/{tid}/sign-out", data={"csrf_token": csrf(c, f"/tournaments/{tid}/sign-in")})
    assert r.status_code == 302
    assert c.get(f"/api/tournaments/{tid}/me").get_json()["signed_in"] is False


def test_api_tokens(client, app, created):
    tid, codes = created
    api = app.test_client()
    wrong = codes["judge"][:-1] + ("Y" if codes["judge"].endswith("Z") else "Z")  # always differs
    bad = api.post(f"/api/tournaments/{tid}/tokens", json={"name": "Hal", "code": wrong})
    assert bad.status_code == 401 and bad.get_json()["field"] == "code"
    assert api.post(f"/api/tournaments/{tid}/tokens", json=["x"]).status_code == 400
    r = api.post(f"/api/tournaments/{tid}/tokens", json={"name": "Hal", "code": codes["head_judge"]})
    assert r.status_code == 201
    token = r.get_json()["token"]
    assert r.get_json()["role"] == "head_judge"
    auth = {"Authorization": f"Bearer {token}"}
    me = api.get(f"/api/tournaments/{tid}/me", headers=auth).get_json()
    assert (me["role"], me["name"], me["via"]) == ("head_judge", "Hal", "token")
    assert api.get(f"/api/tournaments/{tid}/penalties", headers=auth).status_code == 200
    assert api.delete("/api/tokens/current", headers=auth).get_json() == {"revoked": True}
    gone = api.get(f"/api/tournaments/{tid}/penalties", headers=auth)
    assert gone.status_code == 401 and "not valid" in gone.get_json()["error"]
    assert gone.headers["WWW-Authenticate"].startswith("Bearer")
    assert api.delete("/api/tokens/current", json={}).status_code == 401
    assert api.delete("/api/tokens/current").status_code == 403  # no body, no token: the CSRF check


def test_new_codes_sign_out_the_old_ones(client, app, created):
    tid, codes = created
    judge = app.test_client()
    sign_in(judge, tid, "Jo", codes["judge"])
    token = app.test_client().post(f"/api/tournaments/{tid}/tokens",
                                   json={"name": "Jo", "code": codes["judge"]}).get_json()["token"]
    r = client.post(f"/tournaments/{tid}/codes", data={"csrf_token": csrf(client, f"/tournaments/{tid}/codes"),
                                                       "role": "judge"})
    assert r.status_code == 302
    page = client.get(f"/tournaments/{tid}/codes").get_data(as_text=True)
    fresh = dict(re.findall(r'data-role="(\w+)">([^<]+)<', page))
    assert set(fresh) == {"judge"} and fresh["judge"] != codes["judge"]
    # the organizer who did it stays signed in; the judge's session and token are gone
    assert client.get(f"/api/tournaments/{tid}/me").get_json()["role"] == "organizer"
    assert judge.get(f"/api/tournaments/{tid}/me").get_json()["signed_in"] is False
    assert app.test_client().get(f"/api/tournaments/{tid}/me",
                                 headers={"Authorization": f"Bearer {token}"}).get_json()["signed_in"] is False
    assert sign_in(app.test_client(), tid, "Jo", codes["judge"]).status_code == 401
    assert sign_in(app.test_client(), tid, "Jo", fresh["judge"]).status_code == 302
    # the head judge's code was left alone
    assert sign_in(app.test_client(), tid, "Hal", codes["head_judge"]).status_code == 302


def test_api_creation_returns_the_codes_and_an_organizer_token(client):
    r = client.post("/api/tournaments", json={"name": "API Cup", "organizer": "Ola"})
    body = r.get_json()
    assert r.status_code == 201 and body["role"] == "organizer"
    assert body["name"] == "API Cup" and body["organizer"] == "Ola"  # the tournament's name
    auth = {"Authorization": "Bearer " + body["token"]}
    assert client.post(f"/api/tournaments/{body['id']}/players", json={"name": "Ana"},
                       headers=auth).status_code == 201
    assert client.post(f"/api/tournaments/{body['id']}/players", json={"name": "Bo"}).status_code == 401


def test_a_session_for_one_tournament_gives_nothing_in_another(client, app, created):
    tid, _ = created
    other = app.test_client().post("/api/tournaments", json={"name": "Other"}).get_json()["id"]
    r = client.get(f"/tournaments/{other}/penalties")
    assert r.status_code == 302 and f"/tournaments/{other}/sign-in" in r.location


def test_pages_send_the_signed_out_to_the_sign_in_page_with_a_message(app, created):
    tid, _ = created
    c = app.test_client()
    r = c.get(f"/tournaments/{tid}/penalties")
    assert r.status_code == 302 and r.location.startswith(f"/tournaments/{tid}/sign-in?next=")
    page = c.get(r.location)
    text = flashes(page)
    assert "Sign in to Code Cup as a head judge or the organizer" in text
    assert "see all penalties" in text
    api = c.get(f"/api/tournaments/{tid}/penalties")
    assert api.status_code == 401 and api.get_json()["needed_role"] == "head_judge"
    assert api.get_json()["sign_in"] == f"/tournaments/{tid}/sign-in"


def test_a_judge_on_a_head_judge_page_is_told_why(app, created):
    tid, codes = created
    c = app.test_client()
    sign_in(c, tid, "Jo", codes["judge"])
    r = c.get(f"/tournaments/{tid}/penalties")
    assert r.status_code == 302
    text = flashes(c.get(r.location))
    assert "Only the head judge or the organizer may see all penalties" in text
    assert "you are signed in to Code Cup as judge Jo" in text


def test_the_public_sees_rules_trainer_list_and_published_standings(app, created):
    tid, _ = created
    c = app.test_client()
    for path in ("/", "/tournaments", f"/tournaments/{tid}/public", "/api/tournaments",
                 "/api/search?q=bleed", "/trainer", "/api/time/suggest?judge_minutes=4"):
        assert c.get(path).status_code == 200, path
    for path in (f"/tournaments/{tid}", f"/tournaments/{tid}/standings", f"/tournaments/{tid}/penalties/new",
                 f"/tournaments/{tid}/penalties/report", f"/tournaments/{tid}/export/penalties.csv",
                 f"/tournaments/{tid}/time", f"/tournaments/{tid}/codes"):
        r = c.get(path)
        assert r.status_code == 302 and "/sign-in" in r.location, path
    for path in (f"/api/tournaments/{tid}", f"/api/tournaments/{tid}/penalties", f"/api/tournaments/{tid}/standings",
                 f"/tournaments/{tid}/export/penalties.json", f"/api/tournaments/{tid}/penalties/report"):
        assert c.get(path).status_code == 401, path


def test_unknown_tournament_is_404_before_any_sign_in_question(app):
    c = app.test_client()
    assert c.get("/tournaments/999/sign-in").status_code == 404
    assert c.get("/tournaments/999/penalties").status_code == 404
    assert c.post("/api/tournaments/999/tokens", json={"name": "x", "code": "y"}).status_code == 404
