"""Escalation proposals (v2 and v1 ladders), record replay and record checks."""
from __future__ import annotations

import pytest

from judgekit.tournament.penalties.catalog import load_catalogs
from judgekit.tournament.penalties.deviation import (
    Proposal, description_required, head_judge_reasons, needs_head_judge,
)
from judgekit.tournament.penalties.escalation import ordinal, propose
from judgekit.tournament.penalties.records import (
    check_record, in_force, record_status, replay,
)

C, W, SA, DQ, GL = "Caution", "Warning", "Standings Adjustment", "Disqualification", "Game Loss"
DQNP = "Disqualification without prize"


@pytest.fixture(scope="module")
def catalogs():
    return load_catalogs()


def _records(infraction, n, **extra):
    return [dict({"id": i + 1, "kind": "issue", "player": 7, "tournament": 1,
                  "infraction": infraction, "penalty": "Caution",
                  "time": f"2026-05-01T10:{i:02d}:00Z"}, **extra) for i in range(n)]


def _sequence(catalog, infraction, length, variant=None):
    """The penalties proposed for the 1st, 2nd, … offence."""
    return [propose(catalog, infraction, _records(infraction, n), variant).penalty
            for n in range(length)]


# --- the ladders ------------------------------------------------------------------------

LADDERS = [
    # catalog, infraction, variant, proposals for the 1st, 2nd, ... offence in the event
    ("v2", "game-rule-violation", None, [C, C, W, W, SA, SA, DQ, DQ]),          # default C
    ("v2", "card-access-error", None, [C, C, W, W, SA]),
    ("v2", "slow-play", "body-text", [C, C, W, W, SA]),
    ("v2", "insufficient-shuffling", None, [W, W, SA, SA, DQ, DQ]),              # default W
    ("v2", "slow-play", None, [W, W, SA, SA, DQ]),
    ("v2", "game-rule-violation", "no-rollback", [W, W, SA, SA, DQ]),
    ("v2", "unsportsmanlike-conduct-minor", None, [W, W, SA, SA, DQ]),
    ("v2", "outside-assistance", None, [SA, SA, DQ, DQ]),                        # default SA
    ("v2", "illegal-decklist", "major", [SA, SA, DQ]),
    ("v2", "unsportsmanlike-conduct-major", None, [SA, SA, DQ]),
    ("v2", "cheating", None, [DQ, DQ]),                                          # default DQ
    # never escalate
    ("v2", "failure-to-maintain-game-state", None, [SA, SA, SA, SA]),
    ("v2", "public-information-miscommunication", None, [W, W, W, W]),
    ("v2", "public-information-miscommunication", "significant", [W, W, SA, SA, DQ]),
    # v1: one step up per repeat
    ("v1", "failure-to-draw", None, [C, W, GL, DQ, DQ]),
    ("v1", "drawing-extra-cards", None, [W, GL, DQ, DQ]),
    ("v1", "procedural-error-minor", "game-cannot-continue", [GL, DQ]),
    ("v1", "stalling", None, [GL, DQ, DQ]),
    ("v1", "bribery-fraud-collusion", None, [DQNP, DQNP, DQNP]),
    ("v1", "unsportsmanlike-conduct-severe", None, [DQNP, DQNP]),
    ("v1", "improper-drawing-at-start-of-game", None, [None, None]),
]


@pytest.mark.parametrize("catalog_id,infraction,variant,expected", LADDERS)
def test_ladder(catalogs, catalog_id, infraction, variant, expected):
    assert _sequence(catalogs[catalog_id], infraction, len(expected), variant) == expected


def test_steps_index_the_ladder(catalogs):
    v2 = catalogs["v2"]
    steps = [propose(v2, "game-rule-violation", _records("game-rule-violation", n)).step
             for n in range(9)]
    assert steps == [0, 1, 2, 3, 4, 5, 6, 6, 6]
    assert propose(v2, "insufficient-shuffling", []).step == 2
    assert propose(catalogs["v1"], "bribery-fraud-collusion", []).step is None


def test_reason_sentences(catalogs):
    v2, v1 = catalogs["v2"], catalogs["v1"]
    first = propose(v2, "game-rule-violation", [])
    assert first.reason == "First Game Rule Violation in this event: the default penalty is Caution."
    second = propose(v2, "game-rule-violation", _records("game-rule-violation", 1))
    assert second.reason == ("Second Game Rule Violation in this event: the ladder moves from "
                             "Caution to Caution (v2: C, C, W, W, SA, SA, DQ).")
    third = propose(v2, "Game Rule Violation", _records("game-rule-violation", 2))
    assert "Third Game Rule Violation" in third.reason and "from Caution to Warning" in third.reason
    major = propose(v2, "illegal-decklist", [], "major")
    assert major.reason == ("First Illegal Decklist (major) in this event: the default penalty "
                            "for this case is Standings Adjustment.")
    fmgs = propose(v2, "failure-to-maintain-game-state", _records("failure-to-maintain-game-state", 2))
    assert "does not escalate" in fmgs.reason and "Standings Adjustment" in fmgs.reason
    pim = propose(v2, "public-information-miscommunication",
                  _records("public-information-miscommunication", 1))
    assert "significantly affects the game" in pim.reason
    dq = propose(v2, "game-rule-violation", _records("game-rule-violation", 6))
    assert "not a Disqualification without prize" in dq.reason
    capped = propose(v2, "cheating", _records("cheating", 3))
    assert "already at its last step, Disqualification" in capped.reason
    v1_second = propose(v1, "failure-to-draw", _records("failure-to-draw", 1))
    assert v1_second.reason.startswith("Second Failure to Draw in this event: the ladder moves "
                                       "from Caution to Warning (v1: C, W, GL, DQ).")
    remedy = propose(v1, "improper-drawing-at-start-of-game", [])
    assert remedy.penalty is None and remedy.remedy and "remedy" in remedy.reason


@pytest.mark.parametrize("n,word", [(1, "First"), (2, "Second"), (10, "Tenth"), (11, "11th"),
                                    (12, "12th"), (13, "13th"), (21, "21st"), (22, "22nd"),
                                    (23, "23rd"), (111, "111th")])
def test_ordinal(n, word):
    assert ordinal(n) == word


# --- which earlier records count --------------------------------------------------------

def test_other_infractions_do_not_count(catalogs):
    v2 = catalogs["v2"]
    earlier = _records("slow-play", 3) + _records("card-access-error", 2)
    p = propose(v2, "game-rule-violation", earlier)
    assert p.penalty == C and p.history == () and p.repeat == 1


def test_other_players_do_not_count(catalogs):
    v2 = catalogs["v2"]
    earlier = _records("insufficient-shuffling", 2, player=8) + _records("insufficient-shuffling", 1)
    p = propose(v2, "insufficient-shuffling", earlier, player=7)
    assert p.penalty == W and p.repeat == 2 and len(p.history) == 1


def test_escalation_resets_per_event(catalogs):
    v2 = catalogs["v2"]
    earlier = (_records("insufficient-shuffling", 3, tournament=1)
               + [dict(r, id=r["id"] + 10) for r in _records("insufficient-shuffling", 1, tournament=2)])
    p = propose(v2, "insufficient-shuffling", earlier, player=7, tournament=2)
    assert p.penalty == W and p.repeat == 2
    assert len(p.history) == 1 and len(p.context) == 3
    assert "context only" in p.reason and "resets at each event" in p.reason
    fresh = propose(v2, "insufficient-shuffling", earlier, player=7, tournament=3)
    assert fresh.penalty == W and fresh.repeat == 1 and len(fresh.context) == 4


@pytest.mark.parametrize("lift", [
    {"id": 100, "kind": "lift", "refers_to": 1, "judge": "HJ", "reason": "wrong player"},
    {"id": 100, "kind": "lift", "refers_to": "1", "judge": "HJ", "reason": "ids as text"},
])
def test_lifted_records_do_not_count(catalogs, lift):
    v2 = catalogs["v2"]
    earlier = _records("game-rule-violation", 2) + [lift]
    p = propose(v2, "game-rule-violation", earlier)
    assert p.repeat == 2 and [r["id"] for r in p.history] == [2]
    assert p.penalty == C


def test_precomputed_lifted_flag_is_honoured(catalogs):
    earlier = _records("game-rule-violation", 2)
    earlier[0]["lifted"] = True
    assert propose(catalogs["v2"], "game-rule-violation", earlier).repeat == 2


def test_amended_records_count_with_their_amended_values(catalogs):
    v2 = catalogs["v2"]
    earlier = _records("game-rule-violation", 2) + [
        {"id": 50, "kind": "amend", "refers_to": 2, "penalty": "Warning", "judge": "HJ",
         "reason": "no roll-back possible", "variant": "no-rollback"},
    ]
    p = propose(v2, "game-rule-violation", earlier)
    assert p.penalty == W and p.repeat == 3
    assert [r["penalty"] for r in p.history] == [C, W]
    assert p.history[1]["original_penalty"] == C and p.history[1]["status"] == "amended"


def test_amendment_that_changes_the_infraction_moves_the_record(catalogs):
    v2 = catalogs["v2"]
    earlier = _records("game-rule-violation", 2) + [
        {"id": 50, "kind": "amend", "refers_to": 1, "infraction": "card-access-error",
         "judge": "HJ", "reason": "it was a card access error"},
    ]
    assert propose(v2, "game-rule-violation", earlier).repeat == 2
    assert propose(v2, "card-access-error", earlier).repeat == 2


def test_lifting_an_amendment_lifts_the_penalty(catalogs):
    earlier = _records("game-rule-violation", 1) + [
        {"id": 50, "kind": "amend", "refers_to": 1, "penalty": "Warning", "judge": "HJ", "reason": "x"},
        {"id": 51, "kind": "lift", "refers_to": 50, "judge": "HJ", "reason": "y"},
    ]
    assert propose(catalogs["v2"], "game-rule-violation", earlier).repeat == 1


def test_records_may_name_the_infraction(catalogs):
    earlier = _records("Game Rule Violation", 2)
    assert propose(catalogs["v2"], "game-rule-violation", earlier).repeat == 3


def test_history_is_chronological(catalogs):
    earlier = _records("slow-play", 3)
    earlier[0]["time"] = "2026-05-01T12:00:00Z"
    p = propose(catalogs["v2"], "slow-play", earlier)
    assert [r["id"] for r in p.history] == [2, 3, 1]


def test_unknown_infraction_and_variant(catalogs):
    v2 = catalogs["v2"]
    p = propose(v2, "Game Rule Violaton", [])
    assert not p.ok and p.penalty is None
    assert "Game Rule Violation" in p.suggestions and "Did you mean Game Rule Violation" in p.error
    q = propose(v2, "game-rule-violation", [], variant="catastrophic")
    assert not q.ok and "no-rollback" in q.error


def test_proposal_to_dict_is_json_ready(catalogs):
    import json
    p = propose(catalogs["v2"], "slow-play", _records("slow-play", 1))
    data = json.loads(json.dumps(p.to_dict()))
    assert data["penalty"] == W and data["repeat"] == 2 and len(data["history"]) == 1


# --- head judge ---------------------------------------------------------------------------

def _p(catalog, infraction, n=0, variant=None):
    return propose(catalog, infraction, _records(infraction, n), variant)


HEAD_JUDGE = [
    # catalog, penalty, proposed (str | callable giving a Proposal | None), expected
    ("v2", "Caution", "Caution", False),
    ("v2", "Warning", "Warning", False),
    ("v2", "Standings Adjustment", "Standings Adjustment", True),   # SA always
    ("v2", "Disqualification", "Disqualification", True),           # DQ always
    ("v2", "SA", None, True),
    ("v2", "Warning", "Caution", True),                             # deviation up
    ("v2", "Caution", "Warning", True),                             # deviation down
    ("v2", "warning", "Warning", False),                            # case does not matter
    ("v2", "Warning", None, False),                                 # nothing proposed
    ("v1", "Game Loss", "Game Loss", True),                         # judgekit's v1 choice
    ("v1", "Warning", "Warning", False),
    ("v1", "Caution", "Warning", True),
]


@pytest.mark.parametrize("catalog_id,penalty,proposed,expected", HEAD_JUDGE)
def test_needs_head_judge(catalogs, catalog_id, penalty, proposed, expected):
    assert needs_head_judge(catalogs[catalog_id], penalty, proposed) is expected


def test_needs_head_judge_with_proposals(catalogs):
    v2, v1 = catalogs["v2"], catalogs["v1"]
    second_grv = _p(v2, "game-rule-violation", 1)
    assert not needs_head_judge(v2, C, second_grv)
    assert needs_head_judge(v2, W, second_grv)
    # v1: the judge may repeat the previous level without it being a deviation
    second_draw = _p(v1, "failure-to-draw", 1)
    assert second_draw.acceptable == (W, C)
    assert not needs_head_judge(v1, C, second_draw)
    assert not needs_head_judge(v1, W, second_draw)
    assert needs_head_judge(v1, GL, second_draw)
    # remedy only: any penalty is a deviation
    remedy = _p(v1, "improper-drawing-at-start-of-game")
    assert not needs_head_judge(v1, None, remedy)
    assert needs_head_judge(v1, C, remedy)


def test_head_judge_reasons(catalogs):
    v2 = catalogs["v2"]
    assert head_judge_reasons(v2, C, C) == []
    reasons = head_judge_reasons(v2, SA, W)
    assert len(reasons) == 2 and "must reach the head judge" in reasons[0]
    assert "differs from the proposed Warning" in reasons[1]


def test_description_required(catalogs):
    v2 = catalogs["v2"]
    grv = v2.get("game-rule-violation")
    assert not description_required(v2, grv, C)
    assert description_required(v2, grv, SA)          # escalated to SA: needs one
    assert description_required(v2, v2.get("cheating"), DQ)


# --- replay and record checks -----------------------------------------------------------

def test_replay_statuses_and_approval():
    records = [
        {"id": 1, "kind": "issue", "player": 1, "infraction": "slow-play", "penalty": "Warning"},
        {"id": 2, "player": 1, "infraction": "slow-play", "penalty": "Warning"},
        {"id": 3, "kind": "issue", "player": 1, "infraction": "cheating", "penalty": "Disqualification"},
        {"id": 4, "kind": "amend", "refers_to": 2, "penalty": "Caution", "judge": "HJ", "reason": "body text"},
        {"id": 5, "kind": "lift", "refers_to": 1, "judge": "HJ", "reason": "wrong player"},
        {"id": 6, "kind": "approve", "refers_to": 3, "judge": "Head Judge", "reason": "seen it"},
        {"id": 7, "kind": "lift", "refers_to": 999, "judge": "HJ", "reason": "dangling"},
    ]
    assert record_status(records) == {"1": "lifted", "2": "amended", "3": "in force"}
    by_id = {r["id"]: r for r in replay(records)}
    assert by_id[3]["approved_by"] == "Head Judge" and by_id[3]["approval_reason"] == "seen it"
    assert by_id[2]["penalty"] == C and by_id[2]["amended_by"] == [4]
    assert [r["id"] for r in in_force(records)] == [2, 3]
    assert records[1]["penalty"] == "Warning"  # inputs are not modified


EXISTING = [
    {"id": 1, "kind": "issue", "player": 7, "infraction": "slow-play", "penalty": "Warning",
     "judge": "Ana", "description": ""},
    {"id": 2, "kind": "lift", "refers_to": 1, "judge": "HJ", "reason": "wrong table"},
    {"id": 3, "kind": "issue", "player": 7, "infraction": "game-rule-violation", "penalty": "Caution",
     "judge": "Ana"},
]

GOOD_ISSUE = {"kind": "issue", "player": 7, "judge": "Ana", "infraction": "game-rule-violation",
              "penalty": "Caution", "proposed": "Caution", "description": ""}

CHECKS = [
    # record changes, registered, field with a problem (None: no problem), words
    ({}, True, None, None),
    ({"infraction": "Game Rule Violaton"}, True, "infraction", "Did you mean Game Rule Violation"),
    ({"infraction": ""}, True, "infraction", "No infraction"),
    ({"penalty": "Banishment"}, True, "penalty", "not a penalty"),
    ({"penalty": ""}, True, "penalty", "Choose a penalty"),
    ({"variant": "huge"}, True, "variant", "no case 'huge'"),
    ({"infraction": "cheating", "penalty": "Disqualification", "proposed": "Disqualification"},
     True, "description", "description is required"),
    ({"penalty": "SA", "proposed": "Standings Adjustment"}, True, "description", "required"),
    ({"penalty": "Warning"}, True, "reason", "differs from the proposed"),
    ({"penalty": "Warning", "reason": "rolled back badly"}, True, None, None),
    ({"judge": ""}, True, "judge", "judge"),
    ({"player": None}, True, "player", "needs a player"),
    ({"player": None, "player_name": "Walk-in"}, False, "player", "not registered"),
    ({"player": None, "player_name": "Walk-in", "infraction": "outside-assistance",
      "penalty": "Standings Adjustment", "proposed": "Standings Adjustment",
      "description": "coached from the rail"}, False, None, None),
    ({"kind": "lift", "refers_to": 99, "reason": "x"}, True, "refers_to", "no penalty record 99"),
    ({"kind": "lift", "refers_to": 1, "reason": "again"}, True, "refers_to", "already been lifted"),
    ({"kind": "lift", "refers_to": 2, "reason": "x"}, True, "refers_to", "not a penalty"),
    ({"kind": "lift", "refers_to": None}, True, "refers_to", "must name the record"),
    ({"kind": "lift", "refers_to": 3, "reason": ""}, True, "reason", "Say why"),
    ({"kind": "lift", "refers_to": 3, "reason": "mistake"}, True, None, None),
    ({"kind": "amend", "refers_to": 3, "penalty": "Warning", "reason": "no roll-back"}, True, None, None),
    ({"kind": "amend", "refers_to": 3, "infraction": "nonsense", "reason": "x"}, True, "infraction", "Unknown"),
    ({"kind": "amend", "refers_to": 3, "penalty": "DQ", "reason": "x"}, True, "description", "required"),
    ({"kind": "approve", "refers_to": 3}, True, None, None),
    ({"kind": "delete", "refers_to": 3}, True, "kind", "Unknown record kind"),
]


@pytest.mark.parametrize("changes,registered,field,words", CHECKS)
def test_check_record(catalogs, changes, registered, field, words):
    record = dict(GOOD_ISSUE, **changes)
    problems = check_record(catalogs["v2"], record, EXISTING, registered=registered)
    if field is None:
        assert problems == []
    else:
        assert any(p.field == field and words in p.message for p in problems), problems


def test_check_record_uses_the_proposal(catalogs):
    v1 = catalogs["v1"]
    proposal = propose(v1, "failure-to-draw", _records("failure-to-draw", 1))
    record = dict(GOOD_ISSUE, infraction="failure-to-draw", penalty="Caution", proposed=None)
    assert check_record(v1, record, [], proposal=proposal) == []   # v1 may repeat a level
    assert isinstance(proposal, Proposal)
