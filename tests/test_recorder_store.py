"""The recorder's store: migrations, append-only events, client-id idempotency, outcome."""
from __future__ import annotations

import sqlite3

import pytest

from judgekit.db import migrate, open_db
from judgekit.recorder import checked, store
from recorder_helpers import SEATS, cards, ev


@pytest.fixture
def db(tmp_path):
    db = open_db(tmp_path / "r.db")
    migrate(db)
    yield db
    db.close()


def test_migrate_is_idempotent(db):
    assert migrate(db) == {}
    assert {"games", "events"} <= set(db.table_names())
    indexes = {i.name for i in db["events"].indexes}
    assert {"events_game_seq", "events_game_client"} <= indexes


def test_create_game_and_bad_arguments(db):
    gid = store.create_game(db, SEATS, tournament_id=3, round_no=1, table_no=2, time_limit_min=150,
                            label="R1 T2")
    game = store.get_game(db, gid)
    assert game["seats"] == SEATS and game["table_no"] == 2 and game["time_limit_min"] == 150
    for bad in (SEATS[:3], SEATS + ["Fay"], "Ann,Ben", ["Ann", "", "C", "D"], [1, 2, 3, 4]):
        with pytest.raises(store.GameError) as err:
            store.create_game(db, bad)
        assert err.value.field == "seats"
    with pytest.raises(ValueError):
        store.create_game(db, SEATS, round_no="one")


def test_the_recorder_refuses_two_seats_with_one_name(db):
    for names in (["Ann", "Ben", "ann", "Dee"], ["Ann", "Ben", "Cid", "Dee", "Ben "]):
        with pytest.raises(store.GameError) as err:
            store.create_game(db, names, distinct_names=True)
        assert err.value.field == "seats" and "have the same name" in err.value.reason
    # a tournament seats registered players (told apart by their records): namesakes pass
    gid = store.create_game(db, ["Ann", "Ben", "Ann", "Dee"], tournament_id=1)
    assert store.get_game(db, gid)["seats"] == ["Ann", "Ben", "Ann", "Dee"]


def test_append_assigns_seq_time_and_judge(db):
    gid = store.create_game(db, SEATS)
    out = store.append_events(db, gid, [ev("turn.start", 1), ev("action.pass", 1, judge="Marie")],
                              cards=cards())
    assert [e["seq"] for e in out.events] == [1, 2] and out.new == 2
    assert out.events[0]["judge"] == "anonymous" and out.events[1]["judge"] == "Marie"
    assert out.events[0]["time"].endswith("Z")
    signed = store.append_events(db, gid, ev("action.pass", 1, judge="liar"), cards=cards(),
                                 judge="Head Judge")
    assert signed.events[0]["judge"] == "Head Judge"


def test_append_returns_new_findings_and_state(db):
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, ev("turn.start", 1), cards=cards())
    out = store.append_events(db, gid, ev("action.declare", 1, action="bleed", minion="Modius"),
                              cards=cards())
    assert [f["code"] for f in out.findings] == ["bleed-amount-missing"]
    assert out.events[0]["findings"][0]["seq"] == 2
    assert out.state["action"]["kind"] == "bleed"


def test_client_id_is_idempotent_and_conflicts_refused(db):
    gid = store.create_game(db, SEATS)
    first = store.append_events(db, gid, ev("turn.start", 1, client_id="c1"), cards=cards())
    again = store.append_events(db, gid, ev("turn.start", 1, client_id="c1"), cards=cards())
    assert again.new == 0 and again.events[0]["seq"] == first.events[0]["seq"]
    assert again.events[0].get("duplicate") is True
    clash = store.append_events(db, gid, ev("turn.start", 2, client_id="c1"), cards=cards())
    assert isinstance(clash, store.StoreError) and clash.status == 409
    assert len(store.load_events(db, gid)) == 1


def test_a_retried_correction_is_a_duplicate_not_already_retracted(db):
    """QA: a page that sends Undo (a retract) again after a lost answer, with the same
    client ids, was refused 409 "already taken back" (the outbox then kept the entry as
    refused) instead of getting the stored retract back; likewise a retried amend whose
    event was taken back since."""
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, [ev("note", text="a", client_id="n1"), ev("note", text="b", client_id="n2")],
                        cards=cards())
    undo = [ev("retract", target=1, client_id="u1"), ev("retract", target=2, client_id="u2")]
    first = store.append_events(db, gid, undo, cards=cards())
    assert first.new == 2
    again = store.append_events(db, gid, undo, cards=cards())
    assert not isinstance(again, store.StoreError), again
    assert again.new == 0 and [e["seq"] for e in again.events] == [e["seq"] for e in first.events]
    assert all(e.get("duplicate") is True for e in again.events)
    # a new retract of a retracted event (another client id) is still refused
    other = store.append_events(db, gid, ev("retract", target=1, client_id="u3"), cards=cards())
    assert isinstance(other, store.StoreError) and other.status == 409 and other.field == "target"
    # an amend sent again after its event was taken back: the stored amend, not a refusal
    store.append_events(db, gid, ev("note", text="c", client_id="n3"), cards=cards())
    fix = ev("amend", target=5, fields={"text": "C"}, client_id="a1")
    stored = store.append_events(db, gid, fix, cards=cards())
    store.append_events(db, gid, ev("retract", target=5, client_id="u4"), cards=cards())
    retried = store.append_events(db, gid, fix, cards=cards())
    assert not isinstance(retried, store.StoreError), retried
    assert retried.new == 0 and retried.events[0]["seq"] == stored.events[0]["seq"]
    assert len(store.load_events(db, gid)) == 7


def test_a_bad_event_in_a_batch_stores_nothing(db):
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, ev("turn.start", 1), cards=cards())
    result = store.append_events(db, gid, [ev("action.pass", 1), ev("fly", 1)], cards=cards())
    assert isinstance(result, store.StoreError) and result.index == 1 and result.field == "type"
    assert [e["type"] for e in store.load_events(db, gid)] == ["turn.start"]


def test_a_refused_batch_writes_nothing_even_inside_the_callers_transaction(db):
    from judgekit.db import transaction
    gid = store.create_game(db, SEATS)
    with transaction(db):  # the caller's transaction commits whatever was written
        result = store.append_events(db, gid, [ev("note", text="one"), {"type": "retract", "target": 5}],
                                     cards=cards(), durable=False)
    assert result.status == 400 and result.index == 1
    assert store.load_events(db, gid) == []


def test_unknown_card_is_refused_with_suggestions(db):
    gid = store.create_game(db, SEATS)
    result = store.append_events(db, gid, ev("card.play", 1, card="Govern the Unalined"),
                                 cards=cards())
    assert result.status == 422 and "Govern the Unaligned" in result.suggestions
    ok = store.append_events(db, gid, ev("card.play", 1, card="Tomorrow's Card", unlisted=True),
                             cards=cards())
    assert ok.events[0]["card"] == "Tomorrow's Card"


def test_retract_must_point_at_an_existing_event(db):
    gid = store.create_game(db, SEATS)
    bad = store.append_events(db, gid, {"type": "retract", "target": 1}, cards=cards())
    assert bad.status == 400 and bad.field == "target"
    store.append_events(db, gid, ev("action.declare", 1, action="bleed", minion="Modius"), cards=cards())
    out = store.append_events(db, gid, {"type": "retract", "target": 1}, cards=cards())
    assert out.state["action"] is None
    view = store.game_view(db, gid, cards=cards())
    assert view["findings"] == [] and view["events"][0]["retracted"] is True


def test_events_are_append_only_at_the_database_level(db):
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, ev("turn.start", 1), cards=cards())
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO events (game_id, seq, type, time, data) VALUES (?, 1, 'note', 'x', '{}')",
                   [gid])


def test_missing_game(db):
    result = store.append_events(db, 999, ev("turn.start", 1), cards=cards())
    assert result.status == 404
    assert store.game_view(db, 999) is None
    with pytest.raises(LookupError):
        store.game_outcome(db, 999)


def test_incremental_check_matches_full_replay(db):
    from test_recorder_engine import clean_game, CASES
    gid = store.create_game(db, SEATS)
    events = clean_game() + CASES["replace-missing"] + CASES["loop-repeated"]
    for e in events:
        store.append_events(db, gid, e, cards=cards())
    store.append_events(db, gid, {"type": "retract", "target": 5}, cards=cards())
    store.append_events(db, gid, ev("note", text="after the retract"), cards=cards())
    cached = store.game_view(db, gid, cards=cards())
    full = store.replay_game(db, gid, cards=cards())
    assert cached["findings"] == full.findings
    assert cached["state"]["turn"] == full.state["turn"]


def test_callers_without_a_card_index_get_the_card_checks_and_the_cached_engine(db, monkeypatch):
    """The penalties area calls game_view/append_events/game_outcome without cards: it
    gets the package's card facts (the same findings) and the engine the recorder's own
    calls keep in step (no full replay of the game)."""
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, [ev("turn.start", 1), ev("action.declare", 1, action="bleed", minion="Modius",
                                                           amount=1, card="Govern the Unaligned")], cards=cards())
    replays = []
    replay = checked.replay
    monkeypatch.setattr(checked, "replay", lambda *a, **kw: replays.append(a) or replay(*a, **kw))
    view = store.game_view(db, gid)
    assert [f["code"] for f in view["findings"]] == ["discipline-unavailable"]
    store.game_outcome(db, gid)
    assert store.append_events(db, gid, {"type": "time.extend", "minutes": 2}).new == 1
    assert store.game_view(db, gid, cards=cards())["findings"] == view["findings"]
    assert replays == []
    refused = store.append_events(db, gid, ev("card.play", 1, card="Govern the Unalined"))
    assert refused.status == 422 and "Govern the Unaligned" in refused.suggestions


def test_findings_state_and_outcome_are_read_under_the_games_lock(db, monkeypatch):
    """Another request may feed the cached engine as soon as the game's lock is released:
    every read of the engine (findings, state, outcome) happens while it is held."""
    from judgekit.recorder import engine as enginemod
    from judgekit.recorder import findings as findingsmod
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, ev("turn.start", 1), cards=cards())
    game_lock = checked.game_lock((checked.db_key(db), gid))
    reads = []

    def held(name, fn):
        def wrapper(*args, **kw):
            reads.append((name, game_lock.locked()))
            return fn(*args, **kw)
        return wrapper
    monkeypatch.setattr(enginemod.Engine, "state", held("state", enginemod.Engine.state))
    monkeypatch.setattr(enginemod.Engine, "outcome_events", held("outcome", enginemod.Engine.outcome_events))
    monkeypatch.setattr(findingsmod.Finding, "to_dict", held("finding", findingsmod.Finding.to_dict))
    store.append_events(db, gid, ev("action.declare", 1, action="bleed", minion="Modius"), cards=cards())
    store.game_view(db, gid, cards=cards())
    store.game_outcome(db, gid)
    assert {name for name, _ in reads} == {"state", "outcome", "finding"}
    assert all(locked for _, locked in reads), reads


def test_game_clock_reads_the_clock_of_the_full_view_without_the_engine(db, monkeypatch):
    gid = store.create_game(db, SEATS, time_limit_min=150)
    store.append_events(db, gid, [{"type": "game.start"}, ev("turn.start", 1), {"type": "time.pause"},
                                  {"type": "time.resume"}, {"type": "time.extend", "minutes": 3, "reason": "a"},
                                  {"type": "time.extend", "minutes": 4, "reason": "b"},
                                  {"type": "retract", "target": 5},
                                  {"type": "amend", "target": 6, "fields": {"minutes": 2}},
                                  ev("note", text="between"), {"type": "time.call"}], cards=cards())
    full = store.game_view(db, gid, now=1e10)["state"]["clock"]
    monkeypatch.setattr(store, "_read_checked", None)  # the clock needs no engine
    got = store.game_clock(db, gid, now=1e10)
    assert got["clock"] == full and got["clock"]["extended_min"] == 2 and got["clock"]["limit_min"] == 150
    assert [(e["seq"], e["minutes"], e["reason"]) for e in got["extensions"]] == [(6, 2, "b")]
    assert store.game_clock(db, 999) is None


def test_game_outcome_for_the_tournament(db):
    gid = store.create_game(db, SEATS, tournament_id=1, round_no=1, table_no=1)
    store.append_events(db, gid, [ev("turn.start", 1), ev("oust", 2), ev("withdraw", 4),
                                  ev("concede", 5), ev("time.call"), ev("game.end")], cards=cards())
    out = store.game_outcome(db, gid)
    assert out == {"seats": SEATS, "finished": True,
                   "events": [{"type": "oust", "seat": 2, "seq": 2},
                              {"type": "withdraw", "seat": 4, "seq": 3},
                              {"type": "concede", "seat": 5, "seq": 4},
                              {"type": "time-out", "seq": 6}]}
    gid2 = store.create_game(db, SEATS[:4])
    store.append_events(db, gid2, [ev("draw.intentional")], cards=cards())
    assert store.game_outcome(db, gid2)["events"] == [{"type": "draw", "seq": 1}]
    gid3 = store.create_game(db, SEATS)
    assert store.game_outcome(db, gid3) == {"seats": SEATS, "finished": False, "events": []}


def test_game_finishes_when_one_player_is_left(db):
    gid = store.create_game(db, SEATS[:4])
    store.append_events(db, gid, [ev("oust", 2), ev("oust", 3), ev("oust", 4)], cards=cards())
    assert store.game_outcome(db, gid)["finished"] is True


def test_the_events_of_one_request_are_one_entry_and_undo_takes_back_the_last_whole(db):
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, {"type": "turn.start", "seat": 1}, cards=cards())
    store.append_events(db, gid, [{"type": "action.declare", "seat": 1, "action": "bleed",
                                   "minion": "Modius", "amount": 2},
                                  {"type": "action.pass", "seat": 1}, {"type": "block.pass", "seat": 2}],
                        cards=cards())
    view = store.game_view(db, gid, cards=cards())
    assert [e["batch"] for e in view["events"]] == [1, 2, 2, 2]
    assert view["last_entry"] == [2, 3, 4]
    # one Undo: one request retracting all three (a list: stored together, one entry too)
    result = store.append_events(db, gid, [{"type": "retract", "target": s, "reason": "undo"}
                                           for s in view["last_entry"]], cards=cards())
    assert result.new == 3
    view = store.game_view(db, gid, cards=cards())
    assert [e["retracted"] for e in view["events"][:4]] == [False, True, True, True]
    assert [e["batch"] for e in view["events"][4:]] == [5, 5, 5]
    assert view["last_entry"] == [1]                          # the next Undo: the turn start
    assert view["state"]["action"] is None
    # an event of the last entry already taken back on its own: Undo takes the rest
    store.append_events(db, gid, [{"type": "phase", "seat": 1, "phase": "master"},
                                  {"type": "note", "text": "x"}], cards=cards())
    store.append_events(db, gid, {"type": "retract", "target": 9}, cards=cards())
    assert store.game_view(db, gid, cards=cards())["last_entry"] == [8]


def test_events_stored_before_entries_existed_are_an_entry_each(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)   # the events table as it was before the batch column
    conn.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, label TEXT, seats TEXT NOT NULL, tournament_id INTEGER,
            round_no INTEGER, table_no INTEGER, time_limit_min INTEGER, created TEXT NOT NULL);
        CREATE TABLE events (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL, client_id TEXT, type TEXT NOT NULL, seat INTEGER, judge TEXT,
            time TEXT NOT NULL, data TEXT NOT NULL);
        INSERT INTO games VALUES (1, '', '["Ann","Ben","Cid","Dee","Eve"]', NULL, NULL, NULL, NULL, 'x');
        INSERT INTO events VALUES (1, 1, 1, 'a:1', 'turn.start', 1, 'j', 't', '{"type": "turn.start", "seat": 1}');
        INSERT INTO events VALUES (2, 1, 2, 'a:2', 'phase', 1, 'j', 't', '{"type": "phase", "seat": 1, "phase": "master"}');
    """)
    conn.commit()
    conn.close()
    db = open_db(path)
    try:
        migrate(db)
        view = store.game_view(db, 1, cards=cards())
        assert [e["batch"] for e in view["events"]] == [1, 2] and view["last_entry"] == [2]
        store.append_events(db, 1, [{"type": "note", "text": "a"}, {"type": "note", "text": "b"}], cards=cards())
        assert store.game_view(db, 1, cards=cards())["last_entry"] == [3, 4]
    finally:
        db.close()


def test_a_new_games_first_read_writes_nothing(db):
    """A game is created with its (empty) log lines already of this version, in its own
    durable transaction: reading it (a round's tables are read as soon as they are seated)
    commits nothing at WAL's NORMAL level before the answer (tools/kill_test.py's power-cut
    check counted that as an answer after an unsynced write)."""
    gid = store.create_game(db, SEATS, tournament_id=1, round_no=1, table_no=1)
    checked.forget((checked.db_key(db), gid))
    before = db.conn.total_changes
    view = store.game_view(db, gid)
    assert view is not None and view["events"] == []
    assert db.conn.total_changes == before
    store.append_events(db, gid, ev("game.start", client_id="c1"))
    assert [e["type"] for e in store.game_view(db, gid)["events"]] == ["game.start"]
