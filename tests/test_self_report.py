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
    # a game won with 1 VP by seat 2 when seats 3, 4 withdrew is possible only with the box ticked
    with pytest.raises(TournamentError) as wd:
        self_report.propose(db, tid, links[five[0]], [1.5, 2, 0, 0, 1.5])
    assert wd.value.status == 400
    assert db.execute("select count(*) from tournament_result_reports").fetchone()[0] == 0


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
