"""The penalty store: append-only records, escalation from stored records, approvals, lifts,
idempotent retries, catalogs per tournament, and what SA/DQ do to the standings."""
from __future__ import annotations

import pytest

from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import store as pstore
from judgekit.tournament.penalties.catalog import default_catalog


@pytest.fixture
def t(db):
    tid = tstore.create_tournament(db, {"name": "Cup"})
    ids = [tstore.add_player(db, tid, {"name": n, "vekn": str(100 + k)})["id"]
           for k, n in enumerate(["Ana", "Bo", "Cy", "Di", "Ed"])]
    return tid, ids


def judge(db, tid, data, role="judge", name="Jo"):
    return pstore.issue(db, tid, data, judge=name, role=role)


def test_issue_stores_one_row_with_server_time_and_the_proposal(db, t):
    tid, (ana, *_) = t
    game = tstore.start_round(db, tid, seed=1)["tables"][0]["game_id"]
    nowhere = judge(db, tid, {"player": ana, "infraction": "slow play", "round": 1, "table": 2})
    assert isinstance(nowhere, pstore.Refused) and nowhere.status == 404 and nowhere.field == "table"
    res = judge(db, tid, {"player": ana, "infraction": "Game Rule Violation",
                          "description": "blocked before the prey passed",
                          "rule": "/rules/announcements/forbidden-shortcuts", "round": 1, "table": 1})
    assert isinstance(res, pstore.Stored), res
    rec = res.record
    assert rec["penalty"] == "Caution" and rec["proposed"] == "Caution"
    assert rec["infraction"] == "game-rule-violation" and rec["catalog"] == "v2"
    assert rec["player_name"] == "Ana" and rec["vekn"] == "100" and rec["judge"] == "Jo"
    assert rec["rule"] == "announcements/forbidden-shortcuts" and rec["time"].endswith("+00:00")
    assert (rec["round"], rec["table"], rec["game"]) == (1, 1, game) and game is not None
    assert [r["id"] for r in pstore.records(db, tid)] == [rec["id"]]
    assert not res.needs_head_judge


def test_repeats_escalate_from_stored_records_and_other_players_do_not_count(db, t):
    tid, (ana, bo, *_) = t
    got = []
    for k in range(5):
        res = judge(db, tid, {"player": ana, "infraction": "game-rule-violation", "description": f"#{k}",
                              "reason": "x" if k >= 4 else None})
        assert isinstance(res, pstore.Stored), res
        got.append(res.record["penalty"])
    assert got == ["Caution", "Caution", "Warning", "Warning", "Standings Adjustment"]
    assert judge(db, tid, {"player": bo, "infraction": "game-rule-violation"}).record["penalty"] == "Caution"
    p = pstore.propose_for(db, tid, ana, "game-rule-violation")
    assert p.penalty == "Standings Adjustment" and p.repeat == 6 and len(p.history) == 5


def test_a_lifted_penalty_no_longer_counts(db, t):
    tid, (ana, *_) = t
    first = judge(db, tid, {"player": ana, "infraction": "slow play"}).record
    assert pstore.propose_for(db, tid, ana, "slow-play").penalty == "Warning"  # W, W, SA
    refused = pstore.lift(db, tid, first["id"], {}, judge="Hal", role="head_judge")
    assert isinstance(refused, pstore.Refused) and refused.field == "reason"
    lifted = pstore.lift(db, tid, first["id"], {"reason": "wrong player"}, judge="Hal", role="head_judge")
    assert isinstance(lifted, pstore.Stored) and lifted.record["kind"] == "lift"
    assert pstore.current(db, tid)[0]["status"] == "lifted"
    assert pstore.propose_for(db, tid, ana, "slow-play").repeat == 1
    again = pstore.lift(db, tid, first["id"], {"reason": "twice"}, judge="Hal", role="head_judge")
    assert isinstance(again, pstore.Refused) and again.status == 409 and "already been lifted" in again.message


def test_lift_of_a_record_that_does_not_exist(db, t):
    tid, _ = t
    res = pstore.lift(db, tid, 99, {"reason": "typo"}, judge="Hal", role="head_judge")
    assert isinstance(res, pstore.Refused) and res.status == 404
    assert "no penalty record 99" in res.message
    res = pstore.lift(db, tid, "abc", {"reason": "typo"}, judge="Hal", role="head_judge")
    assert isinstance(res, pstore.Refused) and res.status == 400
    assert pstore.records(db, tid) == []


def test_a_plain_judge_may_not_lift_amend_or_approve(db, t):
    tid, (ana, *_) = t
    rec = judge(db, tid, {"player": ana, "infraction": "marked cards", "variant": "pattern",
                          "description": "bent corners on all masters"}).record
    for fn in (pstore.lift, pstore.amend, pstore.approve):
        res = fn(db, tid, rec["id"], {"reason": "x"}, judge="Jo", role="judge")
        assert isinstance(res, pstore.Refused) and res.status == 403
    res = judge(db, tid, {"player": ana, "infraction": "slow play", "approve": True})
    assert isinstance(res, pstore.Refused) and res.status == 403
    assert len(pstore.records(db, tid)) == 1


def test_sa_waits_for_the_head_judge_then_counts_in_the_standings(db, t):
    tid, ids = t
    tstore.start_round(db, tid, seed=1)
    tstore.enter_result(db, tid, 1, 1, [5, 0, 0, 0, 0])
    tstore.close_round(db, tid, 1)
    winner = tstore.round_detail(db, tid, 1)["tables"][0]["seats"][0]["player_id"]
    sa = judge(db, tid, {"player": winner, "infraction": "Outside Assistance",
                         "description": "a spectator told them to bleed"})
    assert isinstance(sa, pstore.Stored) and sa.needs_head_judge and sa.head_judge_reasons
    assert pstore.standing_adjustments(db, tid) == []
    assert tstore.standings(db, tid).row(winner).vp == 5
    assert [r["id"] for r in pstore.pending(db, tid)] == [sa.record["id"]]
    ok = pstore.approve(db, tid, sa.record["id"], {"reason": "confirmed"}, judge="Hal", role="head_judge")
    assert isinstance(ok, pstore.Stored) and ok.record["kind"] == "approve"
    assert [(a["player_id"], a["vp"], a["record"]) for a in pstore.standing_adjustments(db, tid)] == \
        [(winner, -1, sa.record["id"])]
    # given after round 1 of 3: the next game; until it is seated, no effect on the standings
    assert tstore.standings(db, tid).row(winner).vp == 5
    assert tstore.sa_targets(db, tid)[0]["how"] == "waiting"
    assert pstore.pending(db, tid) == []
    twice = pstore.approve(db, tid, sa.record["id"], {}, judge="Hal", role="head_judge")
    assert isinstance(twice, pstore.Refused) and twice.status == 409 and "already approved by Hal" in twice.message


def test_approving_what_needs_no_approval_is_refused(db, t):
    tid, (ana, *_) = t
    c = judge(db, tid, {"player": ana, "infraction": "card access error"}).record
    res = pstore.approve(db, tid, c["id"], {}, judge="Hal", role="head_judge")
    assert isinstance(res, pstore.Refused) and res.status == 409 and "needs no approval" in res.message


def test_head_judge_issuing_an_sa_approves_it(db, t):
    tid, (ana, *_) = t
    res = judge(db, tid, {"player": ana, "infraction": "Outside Assistance", "description": "x"},
                role="head_judge", name="Hal")
    assert res.record["approved_by"] == "Hal" and not res.needs_head_judge
    assert pstore.standing_adjustments(db, tid)[0]["player_id"] == ana


def test_dq_drops_the_player_from_the_next_round(db, t):
    tid, ids = t
    dq = judge(db, tid, {"player": ids[0], "infraction": "Cheating", "description": "stacked the deck"},
               role="organizer", name="Ola")
    assert dq.record["penalty"] == "Disqualification" and dq.record["approved_by"] == "Ola"
    assert pstore.disqualified_players(db, tid) == {ids[0]}
    tstore.add_player(db, tid, {"name": "Fay", "vekn": "200"})
    tstore.add_player(db, tid, {"name": "Gus", "vekn": "201"})
    tstore.add_player(db, tid, {"name": "Hu", "vekn": "202"})
    tstore.add_player(db, tid, {"name": "Ivo", "vekn": "203"})
    r = tstore.start_round(db, tid, seed=3)
    seated = {s["player_id"] for tb in r["tables"] for s in tb["seats"]}
    assert ids[0] not in seated and len(seated) == 8  # 9 registered, one disqualified
    assert tstore.standings(db, tid).row(ids[0]).status == "disqualified"


def test_each_level_has_its_effect_from_the_catalog(db, t):
    """v1 has no Standings Adjustment: its Game Loss (which v2's SA replaced) takes 1 VP once
    approved, and both of its Disqualifications remove the player."""
    tid = tstore.create_tournament(db, {"name": "Old school", "catalog": "v1"})
    ana, bo, cy = (tstore.add_player(db, tid, {"name": n})["id"] for n in ("Ana", "Bo", "Cy"))
    gl = judge(db, tid, {"player": ana, "infraction": "illegal-main-deck-legal-decklist",
                         "description": "sideboard card in the deck"})
    assert gl.record["penalty"] == "Game Loss" and gl.needs_head_judge
    assert pstore.standing_adjustments(db, tid) == []                  # not before it is approved
    pstore.approve(db, tid, gl.record["id"], {}, judge="Hal", role="head_judge")
    assert [(a["player_id"], a["record"], a["phase"]) for a in pstore.standing_adjustments(db, tid)] == \
        [(ana, gl.record["id"], "next:0")]
    # given before round 1: Ana never sat at a table yet, so no game and no effect
    assert tstore.standings(db, tid).row(ana).vp == 0
    for pid, level in ((bo, "Disqualification"), (cy, "Disqualification without prize")):
        res = judge(db, tid, {"player": pid, "infraction": "Fraud", "penalty": level, "description": "x",
                              "reason": "as the guide says"}, role="head_judge", name="Hal")
        assert isinstance(res, pstore.Stored), res
    assert pstore.disqualified_players(db, tid) == {bo, cy}
    # a warning has no effect at all
    judge(db, tid, {"player": ana, "infraction": "Drawing Extra Cards"})
    assert len(pstore.standing_adjustments(db, tid)) == 1


def test_deviation_needs_a_reason_and_waits_for_approval(db, t):
    tid, (ana, *_) = t
    res = judge(db, tid, {"player": ana, "infraction": "card access error", "penalty": "Warning"})
    assert isinstance(res, pstore.Refused) and res.field == "reason"
    res = judge(db, tid, {"player": ana, "infraction": "card access error", "penalty": "W",
                          "reason": "looked at the whole library"})
    assert res.record["penalty"] == "Warning" and res.record["proposed"] == "Caution"
    assert res.needs_head_judge and any("differs" in r for r in res.head_judge_reasons)


# --- bad input ----------------------------------------------------------------------------------------

def test_unknown_infraction_gives_suggestions(db, t):
    tid, (ana, *_) = t
    res = judge(db, tid, {"player": ana, "infraction": "Game Rule Violaton"})
    assert isinstance(res, pstore.Refused) and res.status == 422 and res.field == "infraction"
    assert "Game Rule Violation" in res.problems[0].suggestions
    res = judge(db, tid, {"player": ana, "infraction": "xyzzy"})
    assert isinstance(res, pstore.Refused) and res.status == 400 and "Unknown infraction" in res.message
    res = judge(db, tid, {"player": ana})
    assert isinstance(res, pstore.Refused) and res.field == "infraction"
    assert pstore.records(db, tid) == []


def test_description_required_where_the_catalog_says_so(db, t):
    tid, (ana, *_) = t
    res = judge(db, tid, {"player": ana, "infraction": "Unsportsmanlike Conduct — Minor", "description": "   "})
    assert isinstance(res, pstore.Refused) and res.field == "description"
    assert "description is required" in res.message
    assert pstore.records(db, tid) == []


def test_player_not_in_the_event(db, t):
    tid, ids = t
    res = judge(db, tid, {"player_name": "Zed Unknown", "infraction": "game rule violation"})
    assert isinstance(res, pstore.Refused) and res.field == "player"
    assert "not registered" in res.message and "Standings Adjustment" in res.message
    assert len(tstore.players(db, tid)) == 5
    res = judge(db, tid, {"player_name": "Zed Unknown", "vekn": "999", "infraction": "outside assistance",
                          "description": "played without registering"})
    assert isinstance(res, pstore.Stored) and res.added_player["name"] == "Zed Unknown"
    assert res.record["player"] == res.added_player["id"] and len(tstore.players(db, tid)) == 6
    zed = tstore.get_player(db, tid, res.added_player["id"])
    assert zed["checked_in"] is False and zed["added_by"] == "penalty"  # the organizer decides
    missing = judge(db, tid, {"player": 999, "infraction": "slow play"})
    assert isinstance(missing, pstore.Refused) and missing.status == 404 and missing.field == "player"
    nobody = judge(db, tid, {"infraction": "slow play"})
    assert isinstance(nobody, pstore.Refused) and nobody.field == "player"


def test_a_registered_name_is_matched_not_added(db, t):
    tid, (ana, *_) = t
    res = judge(db, tid, {"player_name": "  ana ", "infraction": "slow play"})
    assert res.record["player"] == ana and len(tstore.players(db, tid)) == 5


@pytest.mark.parametrize("data,field", [
    ({"infraction": "slow play", "player": "abc"}, "player"),
    ({"infraction": "slow play", "player": 1, "round": -1}, "round"),
    ({"infraction": "slow play", "player": 1, "rule": "javascript:alert(1)"}, "rule"),
    ({"infraction": "slow play", "player": 1, "description": "x" * 2001}, "description"),
    ({"infraction": "slow play", "player": 1, "penalty": "Flogging"}, "penalty"),
    ({"infraction": "slow play", "player": 1, "variant": "tuesday"}, "variant"),
    ({"infraction": ["slow play"], "player": 1}, "infraction"),
    ({"infraction": "slow play", "player": 1, "vekn": "12ab"}, "vekn"),
])
def test_malformed_fields(db, t, data, field):
    tid, _ = t
    res = judge(db, tid, data)
    assert isinstance(res, pstore.Refused) and res.field == field and res.status in (400, 404, 422), res
    assert pstore.records(db, tid) == []


def test_not_an_object_and_unknown_tournament(db, t):
    tid, _ = t
    assert judge(db, tid, ["x"]).status == 400
    assert judge(db, 999, {"player": 1, "infraction": "slow play"}).status == 404


# --- idempotency, proposal races ----------------------------------------------------------------------

def test_retried_post_is_stored_once(db, t):
    tid, (ana, *_) = t
    data = {"player": ana, "infraction": "slow play", "client_id": "c-1"}
    a = judge(db, tid, data)
    b = judge(db, tid, dict(data))
    assert not a.duplicate and b.duplicate and a.record["id"] == b.record["id"]
    assert len(pstore.records(db, tid)) == 1
    c = judge(db, tid, dict(data, infraction="card access error"))
    assert isinstance(c, pstore.Refused) and c.status == 409 and c.field == "client_id"
    # same id in another tournament is another record
    other = tstore.create_tournament(db, {"name": "Other"})
    pid = tstore.add_player(db, other, {"name": "Ana"})["id"]
    assert not judge(db, other, dict(data, player=pid)).duplicate


def test_a_changed_proposal_is_reported_not_stored(db, t):
    tid, (ana, *_) = t
    judge(db, tid, {"player": ana, "infraction": "game rule violation"})
    judge(db, tid, {"player": ana, "infraction": "game rule violation"})
    # the form showed Caution (second offence) but a third record came in meanwhile
    res = judge(db, tid, {"player": ana, "infraction": "game rule violation", "proposed_seen": "Caution"})
    assert isinstance(res, pstore.Refused) and res.status == 409 and "now Warning" in res.message
    assert len(pstore.records(db, tid)) == 2


# --- amendments, catalogs, exports ----------------------------------------------------------------------

def test_amend_changes_what_counts(db, t):
    tid, (ana, *_) = t
    rec = judge(db, tid, {"player": ana, "infraction": "slow play"}).record
    res = pstore.amend(db, tid, rec["id"], {"infraction": "card access eror"}, judge="Hal", role="head_judge")
    assert isinstance(res, pstore.Refused) and res.field == "infraction" and res.problems[0].suggestions
    res = pstore.amend(db, tid, rec["id"], {"penalty": "Caution", "reason": "body text of the guide"},
                       judge="Hal", role="head_judge")
    assert isinstance(res, pstore.Stored)
    now = pstore.current(db, tid)[0]
    assert now["penalty"] == "Caution" and now["original_penalty"] == "Warning" and now["status"] == "amended"
    kinds = [r["kind"] for r in pstore.records(db, tid)]
    assert kinds == ["issue", "amend"]  # nothing was rewritten


def test_tournament_chooses_its_catalog(db):
    cats = pstore.catalogs()
    assert default_catalog(cats).id == "v2" and set(pstore.catalog_ids()) >= {"v1", "v2"}
    v1 = tstore.create_tournament(db, {"name": "Old school", "catalog": "v1"})
    assert tstore.get_tournament(db, v1)["catalog"] == "v1"
    pid = tstore.add_player(db, v1, {"name": "Ana"})["id"]
    res = pstore.issue(db, v1, {"player": pid, "infraction": "Drawing Extra Cards"}, judge="Jo", role="judge")
    assert res.record["catalog"] == "v1" and res.record["penalty"] == "Warning"
    with pytest.raises(tstore.TournamentError) as err:
        tstore.create_tournament(db, {"name": "X", "catalog": "v9"})
    assert err.value.field == "catalog" and "v1" in err.value.message
    assert tstore.get_tournament(db, tstore.create_tournament(db, {"name": "Y"}))["catalog"] is None


def test_exports_are_spreadsheet_safe(db, t):
    tid, _ = t
    for name in ("=HYPERLINK(\"http://x\")", "+1 555", "-Ana-", "@SUM(A1)"):
        judge(db, tid, {"player_name": name, "infraction": "outside assistance", "description": name})
    import csv
    import io
    rows = list(csv.DictReader(io.StringIO(pstore.export_csv(db, tid))))
    assert [r["player_name"] for r in rows] == ["'=HYPERLINK(\"http://x\")", "'+1 555", "'-Ana-", "'@SUM(A1)"]
    assert [r["description"] for r in rows] == [r["player_name"] for r in rows]
    assert all(not cell.startswith(("=", "+", "-", "@")) for r in rows for cell in r.values())
    rows = pstore.export_json(db, tid)
    assert {r["player_name"] for r in rows} == {"=HYPERLINK(\"http://x\")", "+1 555", "-Ana-", "@SUM(A1)"}
