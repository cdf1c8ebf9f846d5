"""Cost per entry independent of the game's length (issue 11 §3) and the device's time of
the tap (issue 16 §3): the POST answer, delta reads and ETags, log lines computed once,
snapshots, the bounded cache — and the bad input around them."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from judgekit.recorder import checked, clock, lines, store
from judgekit.recorder import engine as enginemod
from recorder_helpers import SEATS, cards, ev

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


@pytest.fixture
def game(client):
    r = client.post("/api/games", json={"seats": SEATS, "label": "Delta"})
    assert r.status_code == 201
    return r.get_json()["id"]


def post(client, gid, body, **kw):
    return client.post(f"/api/games/{gid}/events", json=body, **kw)


def iso(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


TURN = [ev("turn.start", 1), ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
        ev("block.pass", 2),   # before "any blocks?": a finding
        ev("action.pass", 1), ev("action.result", outcome="success", amount=1),
        ev("phase", 1, phase="influence"), ev("transfer", 1, amount=4), ev("turn.end", 1)]


class Page:
    """What the recorder page keeps: the first load, then only POST answers and deltas."""

    def __init__(self, client, gid):
        self.client, self.gid = client, gid
        body = client.get(f"/api/games/{gid}").get_json()
        self.lines = {e["seq"]: e for e in body["events"]}
        self.state, self.last_seq, self.etag = body["state"], body["last_seq"], body["etag"]
        self.last_entry = body["last_entry"]

    def apply(self, answer):
        for line in answer.get("changed", []) + answer["events"]:
            self.lines[line["seq"]] = {k: v for k, v in line.items() if k != "duplicate"}
        self.state, self.last_entry, self.etag = answer["state"], answer["last_entry"], answer["etag"]
        self.last_seq = max(self.last_seq, answer["last_seq"])

    def send(self, events):
        r = post(self.client, self.gid, events)
        assert r.status_code in (200, 201), r.get_json()
        self.apply(r.get_json())
        return r.get_json()

    def poll(self):
        r = self.client.get(f"/api/games/{self.gid}?after={self.last_seq}", headers={"If-None-Match": self.etag})
        if r.status_code == 200:
            self.apply(r.get_json())
        return r

    def matches_the_full_read(self):
        full = self.client.get(f"/api/games/{self.gid}").get_json()
        assert [self.lines[s] for s in sorted(self.lines)] == full["events"]
        assert self.state["turn"] == full["state"]["turn"] and self.state["next"] == full["state"]["next"]
        assert self.last_entry == full["last_entry"] and self.last_seq == full["last_seq"]


# --- the POST answer ---------------------------------------------------------------------

def test_the_answer_to_an_entry_is_what_the_page_needs_to_redraw(client, game):
    r = post(client, game, TURN[:3])
    body = r.get_json()
    assert r.status_code == 201 and body["new"] == 3 and body["last_seq"] == 3
    assert [e["seq"] for e in body["events"]] == [1, 2, 3] and body["changed"] == []
    assert body["events"][1]["summary"] == "Ann: Modius bleeds Ben for 1"   # words with the engine's context
    assert [f["code"] for f in body["events"][2]["findings"]] == ["action-pass-missing"]
    assert body["events"][2]["findings"][0]["url"] == "/rules/announcements/forbidden-shortcuts"
    assert [f["code"] for f in body["findings"]] == ["action-pass-missing"]
    assert body["state"]["next"] and body["state"]["action"]["kind"] == "bleed"
    assert body["last_entry"] == [1, 2, 3]
    assert body["etag"] == r.headers["ETag"]
    # Undo: the retracted lines come back in `changed`, and the next entry to undo
    body = post(client, game, [{"type": "retract", "target": s, "reason": "undo"} for s in (1, 2, 3)]).get_json()
    assert [(e["seq"], e["retracted"]) for e in body["changed"]] == [(1, True), (2, True), (3, True)]
    assert body["changed"][2]["findings"] == []      # its finding went with it
    assert body["last_entry"] == [] and body["state"]["turn"]["seat"] is None


def test_a_page_fed_only_by_answers_and_deltas_shows_what_a_full_read_shows(client, game):
    me, other = Page(client, game), Page(client, game)
    for e in TURN:
        me.send([e])
    me.send([{"type": "retract", "target": 4}])                                  # "any blocks?" undone
    me.send([{"type": "amend", "target": 7, "fields": {"amount": 3}}])            # transfer 4 -> 3
    me.send([ev("note", text="x")])
    me.send([{"type": "retract", "target": 9}])                                   # the retract undone
    me.send([{"type": "amend", "target": 2, "fields": {"amount": 2}}, ev("note", text="y")])
    me.matches_the_full_read()
    assert other.poll().status_code == 200    # the other judge's page catches up in one delta
    other.matches_the_full_read()
    assert other.poll().status_code == 304
    line7 = me.lines[7]
    assert line7["summary"].endswith("3") and line7["original_summary"].endswith("4") and line7["amended_by"] == [10]


def test_a_duplicate_post_answers_the_stored_lines(client, game):
    first = post(client, game, [dict(TURN[0], client_id="a:1")]).get_json()
    again = post(client, game, [dict(TURN[0], client_id="a:1")])
    assert again.status_code == 200 and again.get_json()["new"] == 0
    line = again.get_json()["events"][0]
    assert line["duplicate"] is True and line["summary"] == first["events"][0]["summary"]


# --- delta reads and ETags ----------------------------------------------------------------

def test_a_delta_read_returns_only_what_changed_and_an_unchanged_game_answers_304(client, game):
    post(client, game, TURN)
    full = client.get(f"/api/games/{game}")
    assert set(full.get_json()) >= {"state", "events", "findings"} and full.headers["ETag"]
    r = client.get(f"/api/games/{game}?after=8")
    assert r.status_code == 200
    body = r.get_json()
    assert body["events"] == [] and body["changed"] == [] and body["last_seq"] == 8 and body["after"] == 8
    assert client.get(f"/api/games/{game}?after=8", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    assert client.get(f"/api/games/{game}", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    post(client, game, [{"type": "retract", "target": 3}, ev("note", text="late")])
    r = client.get(f"/api/games/{game}?after=8", headers={"If-None-Match": full.headers["ETag"]})
    body = r.get_json()
    assert r.status_code == 200 and r.headers["ETag"] != full.headers["ETag"]
    assert [e["seq"] for e in body["events"]] == [9, 10]
    # the retracted "no block", and the resolution that now lacks it: a finding it did not have
    assert [(e["seq"], e["retracted"]) for e in body["changed"]] == [(3, True), (5, False)]
    assert [f["code"] for f in body["changed"][1]["findings"]] == ["block-pass-missing"]
    assert [f["code"] for f in body["findings"]] == ["block-pass-missing"]
    assert body["last_entry"] == [10] and "next" in body["state"]


@pytest.mark.parametrize("after", ["x", "-1", "1.5", "", "9" * 30, "٣"])
def test_after_that_is_not_an_event_number_is_a_400_with_its_field(client, game, after):
    post(client, game, TURN[:2])
    r = client.get(f"/api/games/{game}?after={after}")
    assert r.status_code == 400 and r.get_json()["field"] == "after"


def test_after_beyond_the_last_event_is_a_400_with_its_field(client, game):
    post(client, game, TURN[:2])
    assert client.get(f"/api/games/{game}?after=2").status_code == 200
    r = client.get(f"/api/games/{game}?after=3")
    assert r.status_code == 400 and r.get_json()["field"] == "after" and "2" in r.get_json()["error"]


# --- bad input: corrections, double taps, broken text ---------------------------------------------

def stored_types(client, gid):
    return [e["type"] for e in client.get(f"/api/games/{gid}").get_json()["events"]]


def test_an_amend_or_a_retract_of_a_retracted_event_is_refused_and_nothing_is_stored(client, game):
    post(client, game, TURN[:3])
    post(client, game, {"type": "retract", "target": 2})
    for body in ({"type": "amend", "target": 2, "fields": {"amount": 2}}, {"type": "retract", "target": 2},
                 [{"type": "retract", "target": 3}, {"type": "retract", "target": 3}]):
        r = post(client, game, body)
        assert r.status_code == 409 and r.get_json()["field"] == "target", body
    assert stored_types(client, game) == ["turn.start", "action.declare", "block.pass", "retract"]
    # retracting the retract restores the event; then it may be amended again
    assert post(client, game, {"type": "retract", "target": 4}).status_code == 201
    assert post(client, game, {"type": "amend", "target": 2, "fields": {"amount": 2}}).status_code == 201
    # an amend is not amended in turn: it is taken back (said in words, with the field)
    r = post(client, game, {"type": "amend", "target": 6, "fields": {"amount": 3}})
    assert r.status_code == 400 and r.get_json()["field"] == "target"
    assert "event 6 is an amend: retract it instead" in r.get_json()["error"]


def test_a_double_tap_is_refused_and_stored_once(client, game):
    at = datetime.now(timezone.utc)
    tap = {"type": "block.pass", "seat": 2, "judge": "Jo"}
    assert post(client, game, [dict(tap, client_id="t:1", device_time=iso(at))]).status_code == 201
    r = post(client, game, [dict(tap, client_id="t:2", device_time=iso(at + timedelta(milliseconds=300)))])
    assert r.status_code == 409 and r.get_json()["field"] == "events" and r.get_json()["double_tap"] is True
    assert stored_types(client, game) == ["block.pass"]
    # the same declaration seconds later, or from an API client without a device time, is recorded
    assert post(client, game, [dict(tap, client_id="t:3", device_time=iso(at + timedelta(seconds=3)))]).status_code == 201
    assert post(client, game, [tap]).status_code == 201
    assert stored_types(client, game) == ["block.pass"] * 3


def raw_post(client, gid, text):
    return client.post(f"/api/games/{gid}/events", data=text, content_type="application/json")


def test_a_judge_name_cut_inside_an_emoji_is_a_400_not_a_500(client, game):
    name = "Jo " + "🦇" * 40                       # 83 UTF-16 units: a client cutting at 80 splits a bat
    cut = json.dumps(name)[:-1]                    # the JSON text ends inside a surrogate pair...
    cut = cut[:cut.rindex("\\ud")] + '\\ud83e"'    # ...a lone high surrogate, as JSON.stringify writes it
    r = raw_post(client, game, '{"type": "note", "text": "x", "judge": ' + cut + '}')
    assert r.status_code == 400 and r.get_json()["field"] == "judge"
    r = raw_post(client, game, '[{"type": "note", "text": "ok"}, {"type": "note", "text": "a\\udc00b"}]')
    assert r.status_code == 400 and r.get_json()["field"] == "[1].text"   # the edge check names it
    assert stored_types(client, game) == []
    assert post(client, game, {"type": "note", "text": "x", "judge": name}).status_code == 201   # whole emoji: fine


def test_broken_text_in_seats_or_a_line_is_a_400(client, game):
    r = client.post("/api/games", data='{"seats": ["A\\ud800", "B", "C", "D"]}', content_type="application/json")
    assert r.status_code == 400 and r.get_json()["field"] == "seats"
    r = client.post(f"/api/games/{game}/parse", data='{"line": "1 note \\"\\ud800\\""}', content_type="application/json")
    assert r.status_code == 400 and r.get_json()["field"] == "line"


# --- the device's time of the tap --------------------------------------------------------------

def test_the_clock_keeps_the_time_of_the_tap_not_of_the_arrival(client, game):
    tapped = datetime.now(timezone.utc) - timedelta(seconds=7)      # made during a 7-second outage
    body = post(client, game, {"type": "game.start", "device_time": iso(tapped)}).get_json()
    line = body["events"][0]
    assert line["device_time"] == iso(tapped) and line["time"] != line["device_time"]   # both kept
    assert body["state"]["clock"]["started_at"] == pytest.approx(tapped.timestamp(), abs=0.002)
    paused = tapped + timedelta(seconds=4)
    body = post(client, game, [{"type": "time.pause", "device_time": iso(paused)}]).get_json()
    assert body["state"]["clock"]["paused_at"] == pytest.approx(paused.timestamp(), abs=0.002)
    # ... so the clock shows the time left when "pause" was tapped, however late it arrived
    assert body["state"]["clock"]["remaining_s"] == pytest.approx(120 * 60 - 4, abs=0.01)


def test_a_device_time_out_of_bounds_is_kept_but_the_clock_uses_the_servers(client, game):
    wrong = datetime.now(timezone.utc) - timedelta(hours=clock.DEVICE_BEHIND_S / 3600 + 1)
    body = post(client, game, {"type": "game.start", "device_time": iso(wrong)}).get_json()
    assert body["events"][0]["device_time"] == iso(wrong)
    assert body["state"]["clock"]["started_at"] == pytest.approx(clock.to_epoch(body["events"][0]["time"]))


@pytest.mark.parametrize("value", ["yesterday", "2025-05-03T14:05:07", 1746281107, "2025-13-03T14:05:07Z"])
def test_a_device_time_that_is_not_a_time_with_its_zone_is_a_400(client, game, value):
    r = post(client, game, {"type": "time.call", "device_time": value})
    assert r.status_code == 400 and r.get_json()["field"] == "device_time"


def test_device_time_is_normalized_to_utc():
    assert clock.event_time({"time": "2025-05-03T12:00:05.000Z", "device_time": "2025-05-03T12:00:00.000Z"}) == \
        clock.to_epoch("2025-05-03T12:00:00Z")
    assert clock.event_time({"time": "2025-05-03T12:00:05.000Z", "device_time": "2025-05-03T12:00:30.000Z"}) == \
        clock.to_epoch("2025-05-03T12:00:05Z")   # 25 s after it arrived: not a tap time


# --- computed once, replayed from snapshots, bounded ------------------------------------------------

def test_lines_are_stored_without_words_and_a_read_words_only_the_lines_it_sends(db, monkeypatch):
    """Issue 26: a line's words are made when it is read, in the reader's language (not
    stored in English); a read words the lines it sends and no others (no engine replay)."""
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, TURN, cards=cards())
    assert all("summary" not in json.loads(t) for t in lines.all_raw(db.conn, gid))
    made = []
    real = lines.describe
    monkeypatch.setattr(lines, "describe", lambda *a, **kw: made.append(a[0]["type"]) or real(*a, **kw))
    view = store.game_view(db, gid, cards=cards())
    assert len(made) == len(view["events"]) and view["events"][1]["summary"] == "Ann: Modius bleeds Ben for 1"
    made.clear()
    store.append_events(db, gid, ev("note", text="one more"), cards=cards())
    assert made == ["note"]   # the answer's line
    delta = store.read_game(db, gid, cards=cards(), after=len(view["events"]))
    assert [json.loads(t)["summary"] for t in delta.lines] == ["Note: one more"] and delta.changed == []
    assert made == ["note", "note"]   # the delta words its one line, no other
    store.append_events(db, gid, {"type": "amend", "target": 7, "fields": {"amount": 3}}, cards=cards())
    assert store.game_view(db, gid, cards=cards())["events"][6]["summary"].endswith("3")


def fed_counter(monkeypatch):
    fed = []
    real = enginemod.Engine.feed
    monkeypatch.setattr(enginemod.Engine, "feed", lambda self, e: fed.append(e["seq"]) or real(self, e))
    return fed


def long_game(db, n):
    from test_recorder_engine import clean_game
    gid = store.create_game(db, SEATS)
    turn = clean_game()
    events = []
    while len(events) < n:
        events += turn
    for i in range(0, n, 50):
        store.append_events(db, gid, events[i:min(i + 50, n)], cards=cards())
    return gid


def test_undo_amend_and_a_restart_replay_from_a_snapshot_not_from_the_first_event(db, monkeypatch):
    gid = long_game(db, 450)
    snaps = [r[0] for r in db.conn.execute("SELECT seq FROM engine_snapshots WHERE game_id = ? ORDER BY seq", [gid])]
    assert len(snaps) == checked.SNAPSHOTS_KEPT and 450 - checked.SNAPSHOT_EVERY < snaps[-1] <= 450
    fed = fed_counter(monkeypatch)
    store.append_events(db, gid, [{"type": "retract", "target": 449}, {"type": "retract", "target": 450}], cards=cards())
    assert fed and min(fed) > 300 and len(fed) < checked.SNAPSHOT_EVERY   # not the 450 events again
    fed.clear()
    store.append_events(db, gid, {"type": "amend", "target": 420, "fields": {"text": "corrected"}}, cards=cards())
    assert fed and min(fed) > 300
    fed.clear()
    checked.clear()                      # a restart: nothing cached
    view = store.game_view(db, gid, cards=cards())
    assert fed and min(fed) > 300 and len(view["events"]) == 453
    full = store.replay_game(db, gid, cards=cards())
    assert view["findings"] == full.findings and view["state"]["turn"] == full.state["turn"]


def test_lines_kept_incrementally_equal_lines_rebuilt_from_scratch(db):
    gid = store.create_game(db, SEATS)
    steps = [TURN[:4], [{"type": "retract", "target": 3}], TURN[4:], [{"type": "amend", "target": 2, "fields": {"amount": 2}}],
             [{"type": "retract", "target": 9}], [ev("note", text="a"), {"type": "amend", "target": 12, "fields": {"text": "b"}}],
             [{"type": "retract", "target": 10}], [{"type": "retract", "target": 14}], [ev("turn.start", 2)],
             [{"type": "retract", "target": 11}], [{"type": "amend", "target": 7, "fields": {"phase": "discard"}}]]
    for batch in steps:
        assert not isinstance(store.append_events(db, gid, batch, cards=cards()), store.StoreError), batch
        kept = store.game_view(db, gid, cards=cards())
        db.conn.execute("DELETE FROM recorder_derived WHERE game_id = ?", [gid])   # next read rebuilds
        checked.clear()
        rebuilt = store.game_view(db, gid, cards=cards())
        assert kept["events"] == rebuilt["events"], batch
        assert kept["findings"] == rebuilt["findings"] == store.replay_game(db, gid, cards=cards()).findings


def test_the_cache_of_engines_is_bounded_and_drops_finished_games(db, monkeypatch):
    checked.clear()
    monkeypatch.setattr(checked, "MAX_ENGINES", 3)
    monkeypatch.setattr(checked, "FINISHED_IDLE_S", -1)
    ids = [store.create_game(db, SEATS) for _ in range(5)]
    for gid in ids:
        store.append_events(db, gid, TURN[:2], cards=cards())
        assert checked.cached_count() <= 3
    store.append_events(db, ids[0], [ev("concede", 2), ev("concede", 3), ev("concede", 4), ev("concede", 5)], cards=cards())
    assert store.game_outcome(db, ids[0])["finished"] is True
    store.game_view(db, ids[1], cards=cards())        # any use sweeps: the finished game is gone
    assert (checked.db_key(db), ids[0]) not in checked._entries
    # a dropped game reads the same again
    assert store.game_outcome(db, ids[0])["finished"] is True


def test_renamed_seats_are_read_with_the_new_names(db):
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, TURN[:3], cards=cards())
    store.set_seat_names(db, gid, ["Zed"] + SEATS[1:])
    view = store.game_view(db, gid, cards=cards())
    assert view["events"][1]["summary"] == "Zed: Modius bleeds Ben for 1"
    assert "Zed" in view["findings"][0]["message"]
