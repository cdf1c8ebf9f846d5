"""The live hall's domain (no web): the journal the write paths publish to, what each
audience reads of it, the recorder's feed, judge calls and the head judge's notifications."""
from __future__ import annotations

import threading
import time

import pytest

from judgekit import outbox
from judgekit.db import open_db
from judgekit.live import calls, feed, hall, journal, messages
from judgekit.recorder import store as rstore
from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import extensions
from judgekit.tournament.penalties import store as pstore


@pytest.fixture
def event(db):
    """A tournament of 9 players, round 1 open: table 1 of 5 seats, table 2 of 4."""
    feed.install()
    tid = tstore.create_tournament(db, {"name": "Live Cup"})
    for k in range(9):
        tstore.add_player(db, tid, {"name": f"P{k}", "vekn": str(1000 + k)})
    rnd = tstore.start_round(db, tid, seed=1)
    return {"tid": tid, "round": rnd}


def win(size):
    """A clean sweep: one seat takes every VP."""
    return [size] + [0] * (size - 1)


def impossible(size):
    """Well-formed VP that no game can give (the total is too high): the table is invalid."""
    return [3, 3] + [0] * (size - 2)


def kinds(db, tid, after=0):
    return [m.kind for m in journal.since(db, tid, after)]


# --- the journal and the write paths -------------------------------------------------------------

def test_a_round_opening_is_published_with_its_clock_and_tables(db, event):
    [m] = journal.since(db, event["tid"], 0)
    assert m.kind == "round.started"
    assert m.data["round"] == 1 and m.data["tables"] == [1, 2] and m.data["limit_min"] == 120
    assert m.data["ends_at"] == pytest.approx(m.data["started_at"] + 120 * 60)


def test_a_result_is_published_with_the_tables_state(db, event):
    tid = event["tid"]
    sizes = {t["number"]: t["size"] for t in event["round"]["tables"]}
    tstore.enter_result(db, tid, 1, 1, win(sizes[1]), by="Jo")
    tstore.enter_result(db, tid, 1, 2, impossible(sizes[2]), by="Jo")
    results = [m for m in journal.since(db, tid, 0) if m.kind == "table.result"]
    assert [(m.data["table"], m.data["state"]) for m in results] == [(1, "finished"), (2, "invalid")]
    assert results[0].data["by"] == "Jo" and results[0].data["source"] == "entered"


def test_a_refused_write_publishes_nothing(db, event):
    tid = event["tid"]
    before = journal.last_id(db)
    with pytest.raises(tstore.TournamentError):
        tstore.enter_result(db, tid, 1, 1, ["x"], by="Jo")
    with pytest.raises(tstore.TournamentError):
        tstore.close_round(db, tid, 1)   # tables still open
    assert journal.last_id(db) == before


def test_closing_a_round_is_published(db, event):
    tid = event["tid"]
    for t in event["round"]["tables"]:
        tstore.enter_result(db, tid, 1, t["number"], win(t["size"]))
    tstore.close_round(db, tid, 1)
    assert kinds(db, tid)[-1] == "round.closed"


def test_an_extension_recorded_on_the_recorder_carries_the_tables_new_end_time(db, event):
    tid = event["tid"]
    game = event["round"]["tables"][0]["game_id"]
    res = rstore.append_events(db, game, {"type": "time.extend", "minutes": 4, "reason": "ruling"}, judge="Jo")
    assert not isinstance(res, rstore.StoreError)
    [m] = [m for m in journal.since(db, tid, 0) if m.kind == "extension.recorded"]
    clock = extensions.table_clock(db, tid, 1, 1)
    assert m.data["ends_at"] == clock["ends_at"] and m.data["extended_min"] == 4 == clock["extended_min"]
    assert (m.data["minutes"], m.data["reason"], m.data["judge"], m.data["table"]) == (4, "ruling", "Jo", 1)


def test_the_tournament_sides_extension_is_the_same_one_message(db, event):
    tid = event["tid"]
    res = extensions.extend(db, tid, 1, 2, {"minutes": 3, "reason": "deck check", "client_id": "x1"}, judge="Al")
    assert isinstance(res, extensions.Extended)
    again = extensions.extend(db, tid, 1, 2, {"minutes": 3, "reason": "deck check", "client_id": "x1"}, judge="Al")
    assert again.duplicate
    assert kinds(db, tid).count("extension.recorded") == 1


def test_undoing_an_extension_is_a_clock_change_and_other_entries_publish_nothing(db, event):
    tid = event["tid"]
    game = event["round"]["tables"][0]["game_id"]
    rstore.append_events(db, game, {"type": "time.extend", "minutes": 4, "reason": "ruling"})
    n = journal.last_id(db)
    rstore.append_events(db, game, {"type": "note", "text": "a question"})
    assert journal.last_id(db) == n   # not a clock event: nothing for the hall
    rstore.append_events(db, game, {"type": "retract", "target": 1})
    m = journal.since(db, tid, n)[-1]
    assert m.kind == "clock.changed" and m.data["extended_min"] == 0


def test_a_game_the_recorder_ends_is_published_once_and_an_undo_reopens_it(db, event):
    tid = event["tid"]
    t = next(x for x in event["round"]["tables"] if x["size"] == 4)
    game = t["game_id"]
    for seat in (2, 3):
        rstore.append_events(db, game, {"type": "oust", "seat": seat})
    assert "table.finished" not in kinds(db, tid)
    rstore.append_events(db, game, {"type": "oust", "seat": 4})
    rstore.append_events(db, game, {"type": "note", "text": "well played"})
    done = [m for m in journal.since(db, tid, 0) if m.kind == "table.finished"]
    assert [(m.data["table"], m.data["finished"]) for m in done] == [(t["number"], True)]
    last = rstore.load_events(db, game)[-2]["seq"]
    rstore.append_events(db, game, {"type": "retract", "target": last})
    done = [m for m in journal.since(db, tid, 0) if m.kind == "table.finished"]
    assert [m.data["finished"] for m in done] == [True, False]


def test_penalties_are_published_pending_then_approved(db, event):
    tid = event["tid"]
    p = tstore.players(db, tid)[0]
    res = pstore.issue(db, tid, {"player": p["id"], "infraction": "marked cards", "variant": "pattern",
                                 "description": "bent corners"}, judge="Jo", role="judge")
    assert isinstance(res, pstore.Stored) and res.needs_head_judge
    ok = pstore.approve(db, tid, res.record["id"], {}, judge="Hal", role="head_judge")
    assert isinstance(ok, pstore.Stored)
    msgs = [m for m in journal.since(db, tid, 0) if m.kind.startswith("penalty.")]
    assert [m.kind for m in msgs] == ["penalty.pending", "penalty.approved"]
    assert msgs[0].data["player_name"] == "P0" and msgs[1].data["refers_to"] == res.record["id"]


# --- who reads what --------------------------------------------------------------------------------

def test_the_public_reads_no_penalty_and_no_calls_reason_or_note():
    assert messages.project("penalty.pending", {"record": 1, "player_name": "Ann"}, "public") is None
    assert messages.project("penalty.pending", {"record": 1, "player_name": "Ann"}, "judge") is None
    assert messages.project("penalty.pending", {"record": 1, "player_name": "Ann"}, "head")["player_name"] == "Ann"
    closed = {"call": 3, "round": 1, "table": 4, "by": "Jo", "note": "Ann's deck is 89 cards", "minutes": 4.0}
    assert messages.project("call.closed", closed, "public") == {"call": 3, "round": 1, "table": 4}
    assert messages.project("call.closed", closed, "judge")["note"] == "Ann's deck is 89 cards"
    opened = {"call": 3, "round": 1, "table": 4, "opened_at": 1.0, "reason": "deck"}
    assert "reason" not in messages.project("call.opened", opened, "public")
    assert messages.project("call.reassigned", {"call": 3, "by": "Al"}, "public") is None
    for kind, levels in messages.VISIBLE.items():   # no field a lower audience reads is repeated above
        seen = [f for fields in levels.values() for f in fields]
        assert len(seen) == len(set(seen)), kind


def test_a_page_may_read_as_less_never_as_more():
    assert messages.lower("head", "public") == "public"
    assert messages.lower("public", "head") == "public"
    assert messages.lower("judge", None) == "judge"
    assert messages.audience_of("organizer") == "head" and messages.audience_of(None) == "public"


# --- judge calls ----------------------------------------------------------------------------------

def test_a_call_is_opened_once_per_table_and_a_retry_is_the_same_call(db, event):
    tid = event["tid"]
    first = calls.open_call(db, tid, 1, reason="ruling", client_id="c1")
    assert isinstance(first, calls.Done) and not first.duplicate
    again = calls.open_call(db, tid, 1, reason="ruling", client_id="c1")
    other_phone = calls.open_call(db, tid, 1, reason="time", client_id="c2")
    assert again.duplicate and other_phone.duplicate
    assert again.call["id"] == other_phone.call["id"] == first.call["id"]
    assert len(calls.calls(db, tid)) == 1 and kinds(db, tid).count("call.opened") == 1


@pytest.mark.parametrize("table, reason, status, word", [
    (9, None, 404, "no table 9"), ("x", None, 404, "no table"), (0, None, 404, "no table"),
    (1, "coffee", 400, "reason"), (10**30, None, 404, "no table")])
def test_bad_calls_are_refused_with_a_reason(db, event, table, reason, status, word):
    res = calls.open_call(db, event["tid"], table, reason=reason)
    assert isinstance(res, calls.Refusal) and res.status == status and word in res.message
    assert calls.calls(db, event["tid"]) == []


def test_no_call_between_rounds_nor_for_a_finished_table(db, event):
    tid = event["tid"]
    t = event["round"]["tables"][0]
    tstore.enter_result(db, tid, 1, t["number"], win(t["size"]))
    res = calls.open_call(db, tid, t["number"])
    assert isinstance(res, calls.Refusal) and res.status == 409 and "finished" in res.message
    other = event["round"]["tables"][1]
    tstore.enter_result(db, tid, 1, other["number"], win(other["size"]))
    tstore.close_round(db, tid, 1)
    res = calls.open_call(db, tid, 2)
    assert isinstance(res, calls.Refusal) and res.status == 409 and "No round" in res.message


def test_a_flood_of_calls_is_limited_per_device_never_for_the_table_nor_a_judge(db, event, monkeypatch):
    """Issue 28: four bogus calls from one phone, closed by a judge, must not lock the other
    phones of the table nor the judges out (the limit counted every device)."""
    monkeypatch.setattr(calls, "PER_ORIGIN", calls.PER_TABLE + 2)   # two tables in this event
    tid = event["tid"]
    for k in range(calls.PER_TABLE):
        done = calls.open_call(db, tid, 1, origin="10.0.0.5")
        assert isinstance(done, calls.Done) and not done.duplicate
        closed = calls.close(db, tid, done.call["id"], judge="Jo", bogus=True)
        assert closed.call["bogus"] is True
    res = calls.open_call(db, tid, 1, origin="10.0.0.5")
    assert isinstance(res, calls.Refusal) and res.status == 429 and res.extra["retry_after"] > 0
    assert "This device called a judge to table 1 4 times" in res.message
    assert "4 of them were closed by a judge as not needed" in res.message
    other_phone = calls.open_call(db, tid, 1, origin="10.0.0.6")
    assert isinstance(other_phone, calls.Done) and not other_phone.duplicate
    calls.close(db, tid, other_phone.call["id"], judge="Jo")
    assert other_phone.call["bogus"] is False
    for k in range(calls.PER_TABLE + 3):   # a signed-in judge (no origin) is never refused
        judge_call = calls.open_call(db, tid, 1, origin=None)
        assert isinstance(judge_call, calls.Done), judge_call
        calls.close(db, tid, judge_call.call["id"], judge="Jo")
    for k in range(calls.PER_ORIGIN - calls.PER_TABLE):
        done = calls.open_call(db, tid, 2, origin="10.0.0.5")
        assert isinstance(done, calls.Done), done
        calls.close(db, tid, done.call["id"], judge="Jo")
    res = calls.open_call(db, tid, 2, origin="10.0.0.5")
    assert isinstance(res, calls.Refusal) and res.status == 429 and "This device made" in res.message
    assert calls.close(db, tid, done.call["id"], judge="Jo", bogus="yes").status in (400, 409)


def test_claim_close_and_the_time_at_the_table(db, event):
    tid = event["tid"]
    call = calls.open_call(db, tid, 2, reason="deck").call
    claimed = calls.claim(db, tid, call["id"], judge="Jo")
    assert claimed.call["status"] == "claimed" and claimed.call["claimed_by"] == "Jo"
    assert calls.claim(db, tid, call["id"], judge="Jo").duplicate   # one's own again: nothing new
    taken = calls.claim(db, tid, call["id"], judge="Al")
    assert isinstance(taken, calls.Refusal) and taken.status == 409 and "Jo has already taken" in taken.message
    not_yours = calls.close(db, tid, call["id"], judge="Al")
    assert isinstance(not_yours, calls.Refusal) and not_yours.status == 409
    done = calls.close(db, tid, call["id"], judge="Jo", note="  deck is 89 cards:   game loss  ")
    assert done.call["status"] == "closed" and done.call["note"] == "deck is 89 cards: game loss"
    assert done.call["minutes"] is not None and done.call["minutes"] >= 0
    again = calls.close(db, tid, call["id"], judge="Jo")
    late = calls.claim(db, tid, call["id"], judge="Al")
    assert again.status == late.status == 409 and "closed by Jo" in late.message
    assert [m.kind for m in journal.since(db, tid, 0) if m.kind.startswith("call.")] == \
        ["call.opened", "call.claimed", "call.closed"]


def test_the_head_judge_reassigns_and_closes_anyones_call(db, event):
    tid = event["tid"]
    call = calls.open_call(db, tid, 1).call
    first = calls.reassign(db, tid, call["id"], to="Jo", by="Hal")       # nobody had it: a claim for Jo
    second = calls.reassign(db, tid, call["id"], to="Al", by="Hal")
    assert first.call["claimed_by"] == "Jo" and second.call["claimed_by"] == "Al"
    done = calls.close(db, tid, call["id"], judge="Hal", may_close_others=True)
    assert done.call["closed_by"] == "Hal"
    assert isinstance(calls.reassign(db, tid, call["id"], to="Jo", by="Hal"), calls.Refusal)
    assert [m.kind for m in journal.since(db, tid, 0) if m.kind.startswith("call.")] == \
        ["call.opened", "call.claimed", "call.reassigned", "call.closed"]
    assert calls.judge_names(db, tid) == ["Al", "Hal", "Jo"]


def test_two_judges_claiming_at_once_one_wins_and_the_other_is_told(tmp_path, event, db):
    tid = event["tid"]
    call = calls.open_call(db, tid, 1).call
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    results = {}
    gate = threading.Barrier(6)

    def judge(name):
        own = open_db(path)
        try:
            gate.wait()
            results[name] = calls.claim(own, tid, call["id"], judge=name)
        finally:
            own.close()
    names = [f"Judge {k}" for k in range(6)]
    workers = [threading.Thread(target=judge, args=(n,)) for n in names]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    won = [n for n, r in results.items() if isinstance(r, calls.Done)]
    lost = [r for r in results.values() if isinstance(r, calls.Refusal)]
    assert len(won) == 1 and len(lost) == 5
    assert all(r.status == 409 and r.extra["claimed_by"] == won[0] for r in lost)
    steps = db.execute("select count(*) from judge_call_steps where call_id = ?", [call["id"]]).fetchone()[0]
    assert steps == 1 and kinds(db, tid).count("call.claimed") == 1


# --- the hall and the notifications ---------------------------------------------------------------

def test_the_halls_state_reads_as_the_audience_may(db, event):
    tid = event["tid"]
    calls.open_call(db, tid, 2, reason="ruling")
    public = hall.state(db, tid, "public")
    judge = hall.state(db, tid, "judge")
    assert public["event"] == "Live Cup" and public["last_id"] == journal.last_id(db)
    assert [t["table"] for t in public["round"]["tables"]] == [1, 2]
    assert all(t["playing"] for t in public["round"]["tables"])
    assert "players" not in public["round"]["tables"][0] and "reason" not in public["calls"][0]
    assert judge["calls"][0]["reason"] == "ruling"
    assert [p["name"] for p in judge["round"]["tables"][1]["players"]]


def test_the_head_judges_notifications(db, event):
    tid = event["tid"]
    p = tstore.players(db, tid)[0]
    pstore.issue(db, tid, {"player": p["id"], "infraction": "marked cards", "variant": "pattern",
                           "description": "bent"}, judge="Jo", role="judge")
    t2 = event["round"]["tables"][1]
    tstore.enter_result(db, tid, 1, t2["number"], impossible(t2["size"]))
    ends = extensions.table_clock(db, tid, 1, 1)["ends_at"]
    before = hall.notifications(db, tid, now=ends - 60)
    assert sorted(n["kind"] for n in before["items"]) == ["penalty-pending", "result-invalid"]
    assert before["next_check"] == ends
    after = hall.notifications(db, tid, now=ends + 1)
    assert sorted(n["kind"] for n in after["items"]) == ["penalty-pending", "result-invalid", "table-overdue"]
    assert next(n for n in after["items"] if n["kind"] == "table-overdue")["table"] == 1
    assert after["next_check"] is None


def test_every_kind_the_outbox_takes_has_its_readers():
    # the outbox (bottom layer) names what can change; the stream says who reads what of each
    assert set(messages.VISIBLE) == set(outbox.KINDS) and len(outbox.KINDS) == len(set(outbox.KINDS))


def test_the_journal_is_read_in_order_and_by_tournament(db, event):
    other = tstore.create_tournament(db, {"name": "Other Cup"})
    outbox.publish(db, other, "round.closed", {"round": 1})
    mine = journal.since(db, event["tid"], 0)
    everyone = journal.since(db, None, 0)
    assert all(m.tournament_id == event["tid"] for m in mine)
    assert [m.id for m in everyone] == sorted(m.id for m in everyone) and len(everyone) == len(mine) + 1
    with pytest.raises(ValueError):
        outbox.publish(db, other, "no.such.kind", {})
    assert time.time() - everyone[-1].time < 60
