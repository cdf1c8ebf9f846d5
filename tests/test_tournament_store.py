"""The store with a recorded game (a stand-in recorder) and what penalties do to it."""
from __future__ import annotations


import pytest

from judgekit.tournament import store
from judgekit.tournament.store import base, finals, tables


class FakeRecorder:
    """Stands in for judgekit.recorder.store: games and their outcome events."""
    GameError = ValueError

    def __init__(self):
        self.games = {}

    def set_seat_names(self, db, game_id, names):
        self.games[game_id]["seats"] = list(names)

    def create_game(self, db, seats, **kw):
        gid = len(self.games) + 1
        self.games[gid] = {"seats": seats, "finished": False, "events": [], "kw": kw}
        return gid

    def game_outcome(self, db, game_id):
        if game_id not in self.games:
            raise LookupError(game_id)
        g = self.games[game_id]
        return {"seats": g["seats"], "finished": g["finished"], "events": list(g["events"])}


@pytest.fixture
def rec(monkeypatch):
    fake = FakeRecorder()
    monkeypatch.setattr(base, "recorder_store", fake)
    return fake


def setup_round(db, n=4):
    tid = store.create_tournament(db, {"name": "T"})
    for i in range(n):
        store.add_player(db, tid, {"name": f"P{i}", "vekn": str(i + 1)})
    return tid, store.start_round(db, tid, seed=1)


def test_each_table_is_a_recorder_game(db, rec):
    tid, r = setup_round(db, 9)
    assert [t["game_id"] for t in r["tables"]] == [1, 2]
    g = rec.games[1]
    assert g["seats"] == [s["name"] for s in r["tables"][0]["seats"]]
    assert g["kw"]["tournament_id"] == tid and g["kw"]["round_no"] == 1 and g["kw"]["table_no"] == 1
    assert g["kw"]["time_limit_min"] == 120


def test_recorded_outcome_scores_the_table(db, rec):
    tid, r = setup_round(db)
    rec.games[1]["events"] = [{"type": "oust", "seat": 2, "seq": 3}]
    t = store.table_detail(db, tid, 1, 1)
    assert t["state"] == "in-progress" and t["recorded_vps"] == [1, 0, 0, 0]
    rec.games[1]["events"].append({"type": "time-out", "seq": 9})
    rec.games[1]["finished"] = True
    t = store.table_detail(db, tid, 1, 1)
    assert t["state"] == "finished" and t["source"] == "recorder" and t["vps"] == [1.5, 0, 0.5, 0.5]
    assert [s["tp"] for s in t["seats"]] == [60, 12, 36, 36]
    # players report something else: both are shown, the seats that differ are named
    t = store.enter_result(db, tid, 1, 1, [1.5, 0, 1, 0])
    assert t["differs"] == [3, 4] and t["recorded_vps"] == [1.5, 0, 0.5, 0.5]
    # back to the record: the scorekeeper enters the recorded numbers, then closes
    store.enter_result(db, tid, 1, 1, [1.5, 0, 0.5, 0.5])
    closed = store.close_round(db, tid, 1)
    assert closed["status"] == "closed"
    s = store.standings(db, tid)
    assert s.rows[0].vp == 1.5 and s.rows[0].tp == 60


def test_close_snapshots_recorded_vp(db, rec):
    tid, r = setup_round(db)
    rec.games[1].update(finished=True, events=[{"type": "oust", "seat": s, "seq": s} for s in (2, 3, 4)])
    store.close_round(db, tid, 1)
    hist = store.result_history(db, tid, 1, 1)
    assert [h["kind"] for h in hist] == ["recorded"] and hist[0]["vps"] == [4, 0, 0, 0]
    # the standings no longer depend on the recorder
    rec.games.clear()
    assert store.standings(db, tid).rows[0].vp == 4


def test_recorded_nonsense_makes_the_table_invalid(db, rec):
    tid, r = setup_round(db)
    rec.games[1].update(finished=True, events=[{"type": "oust", "seat": 2}, {"type": "oust", "seat": 2},
                                               {"type": "time-out"}])
    t = store.table_detail(db, tid, 1, 1)
    assert t["state"] == "invalid" and t["errors"][0]["code"] == "seat-already-out"


def test_penalty_hooks_feed_the_standings(db, monkeypatch):
    tid, r = setup_round(db, 5)
    store.enter_result(db, tid, 1, 1, [5, 0, 0, 0, 0])
    store.close_round(db, tid, 1)
    winner = r["tables"][0]["seats"][0]["player_id"]
    second = r["tables"][0]["seats"][1]["player_id"]
    fake = base.PenaltyHooks(
        standing_adjustments=lambda db, t: [{"player_id": winner, "vp": -1}],
        disqualified_players=lambda db, t: {second}, catalog_ids=lambda: [])
    monkeypatch.setattr(base, "_penalty_hooks", fake)   # what the penalties area registers
    s = store.standings(db, tid)
    assert s.row(winner).vp == 4 and s.row(winner).adjustment == -1
    assert s.row(second).status == "disqualified" and s.row(second).rank is None
    assert store.standing_adjustments(db, tid) == [{"player_id": winner, "vp": -1}]


def test_the_penalties_area_registers_its_hooks(monkeypatch):
    # the store asks the penalties area (above it) through the hooks that area registers at import
    from judgekit.tournament.penalties import store as pstore
    hooks = base.penalties()
    assert hooks.standing_adjustments is pstore.standing_adjustments
    assert hooks.disqualified_players is pstore.disqualified_players
    assert hooks.catalog_ids is pstore.catalog_ids
    monkeypatch.setattr(base, "_penalty_hooks", None)   # never a silent "no penalties"
    with pytest.raises(RuntimeError, match="not registered"):
        base.standing_adjustments(None, 1)


def test_no_penalty_no_effect(db):
    tid, r = setup_round(db)
    assert store.standing_adjustments(db, tid) == [] and store.disqualified_players(db, tid) == set()


def test_tournament_without_final_ranks_by_preliminaries(db, rec):
    tid = store.create_tournament(db, {"name": "Small", "has_final": False, "rounds_planned": 2})
    for i in range(4):
        store.add_player(db, tid, {"name": f"P{i}"})
    champion = None
    for n in (1, 2):
        r = store.start_round(db, tid, seed=n)
        ids = [s["player_id"] for s in r["tables"][0]["seats"]]
        champion = champion or ids[0]
        vps = [4 if p == champion else 0 for p in ids]  # the same player sweeps twice
        store.enter_result(db, tid, n, 1, vps)
        store.close_round(db, tid, n)
    res = store.results(db, tid)
    assert res["finished"] and res["winner"] == champion
    assert res["rows"][0]["player_id"] == champion and res["rows"][0]["place"] == 1
    assert all(r["rating"]["finalist_bonus"] == 0 for r in res["rows"])
    with pytest.raises(store.TournamentError) as exc:
        store.start_final(db, tid)
    assert exc.value.status == 409


def test_racing_round_start_is_a_409_not_a_crash(db, monkeypatch):
    tid, r = setup_round(db, 8)
    store.enter_result(db, tid, 1, 1, [4, 0, 0, 0])
    store.enter_result(db, tid, 1, 2, [4, 0, 0, 0])
    store.close_round(db, tid, 1)
    # the second click read the same "last round" before the first one wrote round 2
    real = base._prelim_rounds
    store.start_round(db, tid, seed=2)
    monkeypatch.setattr(base, "_prelim_rounds",
                        lambda d, t: [x for x in real(d, t) if x["number"] < 2])
    with pytest.raises(store.TournamentError) as exc:
        store.start_round(db, tid, seed=3)
    assert exc.value.status == 409 and "meanwhile" in exc.value.message
    monkeypatch.undo()
    assert [x["number"] for x in store.rounds(db, tid)] == [1, 2]
    assert len(store.round_tables(db, tid, 2)) == 2  # the first click's round is intact


def test_a_drop_after_round_one_keeps_the_later_rounds_full(db):
    """12 players, 3 rounds, one drops after round 1: rounds 2 and 3 seat 10 of the 11
    (two tables of 5), not the 8 and 5 of a plan made for 11 players from the start."""
    tid = store.create_tournament(db, {"name": "Drop", "rounds_planned": 3})
    ids = [store.add_player(db, tid, {"name": f"P{i}", "vekn": str(100 + i)})["id"] for i in range(12)]
    games: dict[int, int] = {i: 0 for i in ids}

    def play(number: int, round_: dict) -> None:
        for table in round_["tables"]:
            seats = [s["player_id"] for s in table["seats"]]
            for p in seats:
                games[p] += 1
            store.enter_result(db, tid, number, table["number"], [0.5] * len(seats))
        store.close_round(db, tid, number)

    play(1, store.start_round(db, tid, seed=3))
    store.drop_player(db, tid, ids[0])
    for number in (2, 3):
        r = store.start_round(db, tid, seed=number)
        assert sorted(len(t["seats"]) for t in r["tables"]) == [5, 5], number
        play(number, r)
    left = [games[p] for p in ids[1:]]
    assert sorted(left) == [2, 2] + [3] * 9   # everyone plays at least 2 of the 3 rounds


# --- a check and its write are one transaction -----------------------------------------------------

def racing(db, monkeypatch, module, name, sql, params):
    """Wrap `<module>.<name>` (a read made by the function under test) so that, the first time
    it runs, another connection tries to write `sql` at that very moment. Returns the log:
    "locked" when the read is inside the caller's write transaction (the other writer must
    wait), "written" when the other write slipped in between the check and the write."""
    import sqlite3
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    log = []
    real = getattr(module, name)

    def wrapped(*args, **kwargs):
        if not log:
            other = sqlite3.connect(path, timeout=0.1, isolation_level=None)
            try:
                other.execute(sql, params)
                log.append("written")
            except sqlite3.OperationalError as exc:
                assert "locked" in str(exc)
                log.append("locked")
            finally:
                other.close()
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, wrapped)
    return log


def test_close_round_reads_the_tables_inside_its_transaction(db, monkeypatch):
    tid, r = setup_round(db)
    table_id = db.execute("select id from tournament_tables where number = 1").fetchone()[0]
    finished = {"seats": ["a", "b", "c", "d"], "finished": True,
                "events": [{"type": "oust", "seat": s, "seq": s} for s in (2, 3, 4)]}
    monkeypatch.setattr(base, "game_outcome", lambda d, gid: finished)
    entered = ("insert into tournament_results (table_id, kind, vps, withdrawn, by, created_at) "
               "values (?, 'entered', '[3, 1, 0, 0]', '[]', 'Sam', 'now')", [table_id])
    log = racing(db, monkeypatch, tables, "_latest_results", *entered)
    store.close_round(db, tid, 1)
    assert log == ["locked"]
    monkeypatch.undo()
    db.execute(*entered)  # the scorekeeper's entry, once the close has committed
    assert store.table_detail(db, tid, 1, 1)["vps"] == [3, 1, 0, 0]  # not superseded by the close


def test_swap_checks_and_swaps_in_one_transaction(db, monkeypatch):
    tid, r = setup_round(db, 8)
    a, b = r["tables"][0]["seats"][0]["player_id"], r["tables"][1]["seats"][0]["player_id"]
    table_id = db.execute("select id from tournament_tables where number = 1").fetchone()[0]
    log = racing(db, monkeypatch, tables, "_latest_results",
                 "insert into tournament_results (table_id, kind, vps, withdrawn, by, created_at) "
                 "values (?, 'entered', '[4, 0, 0, 0]', '[]', 'Sam', 'now')", [table_id])
    store.swap_seats(db, tid, 1, a, b)
    assert log == ["locked"]


def test_final_card_is_placed_in_one_transaction(db, monkeypatch):
    import json
    tid = store.create_tournament(db, {"name": "F"})
    ids = [store.add_player(db, tid, {"name": f"F{i}"})["id"] for i in range(5)]
    db["tournaments"].update(tid, {"finalists": json.dumps(ids)})
    log = racing(db, monkeypatch, finals, "_final_choice",
                 "insert into tournament_final_choices (tournament_id, kind, player_id, position, created_at) "
                 "values (?, 'place', ?, 0, 'now')", [tid, ids[-1]])
    store.place_final_card(db, tid, ids[-1], 0)
    assert log == ["locked"]
    monkeypatch.undo()
    assert store.final_state(db, tid)["row"] == [{"player_id": ids[-1], "name": "F4"}]


def test_swap_renames_the_recorder_games_seats_in_the_same_transaction(db):
    from judgekit.recorder import store as recorder_store
    tid, r = setup_round(db, 8)
    a, b = r["tables"][0]["seats"][0], r["tables"][1]["seats"][2]
    after = store.swap_seats(db, tid, 1, a["player_id"], b["player_id"])
    for tb in after["tables"]:
        assert recorder_store.get_game(db, tb["game_id"])["seats"] == [s["name"] for s in tb["seats"]]
    # the recorder refuses another number of seats, and a game it does not have
    with pytest.raises(recorder_store.GameError):
        recorder_store.set_seat_names(db, after["tables"][0]["game_id"], ["only", "three", "names"])
    with pytest.raises(LookupError):
        recorder_store.set_seat_names(db, 999, ["a", "b", "c", "d"])


def test_dashboard_replays_the_open_round_only_and_the_final_once(db, monkeypatch):
    import json
    tid, r = setup_round(db, 8)
    store.enter_result(db, tid, 1, 1, [4, 0, 0, 0])
    store.enter_result(db, tid, 1, 2, [4, 0, 0, 0])
    store.close_round(db, tid, 1)
    finalists = [p["id"] for p in store.players(db, tid)][:5]
    db["tournaments"].update(tid, {"finalists": json.dumps(finalists)})
    for pid in reversed(finalists):  # the lowest qualifier places first
        store.place_final_card(db, tid, pid, 0)
    final = store.seat_final(db, tid, seed=1)
    outcomes, details = [], []
    real_outcome, real_detail = base.game_outcome, tables.round_detail
    monkeypatch.setattr(base, "game_outcome", lambda d, gid: outcomes.append(gid) or real_outcome(d, gid))
    monkeypatch.setattr(tables, "round_detail", lambda d, t, n, **kw: details.append(n) or real_detail(d, t, n, **kw))
    d = store.dashboard(db, tid)
    assert details == [1, 2]                               # each round once, the final's included
    assert outcomes == [final["table"]["game_id"]]         # the closed round's games are not replayed
    assert d["final"]["table"]["game_id"] == final["table"]["game_id"]
    assert [tb["state"] for tb in d["rounds"][0]["tables"]] == ["finished", "finished"]
