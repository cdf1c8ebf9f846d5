"""What the state tells the page (issue 11 §1, engine side): the minions and cards on the
table with their card facts, the next steps with the seat they are for, the game over
indication, the table's refusals (bad input that needs the board), and the log lines in a
judge's words (`describe`)."""
from __future__ import annotations

import pytest

from judgekit.recorder import events as events_mod
from judgekit.recorder.events import VOCABULARY, describe
from recorder_helpers import SEATS, codes, ev, resolved_bleed, state

B = [ev("turn.start", 1)]


def seat(st, n):
    return st["seats"][n - 1]


# --- what is on the table ----------------------------------------------------------------------

def test_minions_come_from_declarations_blocks_plays_votes_and_minion_in():
    events = B + [ev("action.declare", 1, action="bleed", minion="Catalina Vega", amount=2),
                  ev("action.pass", 1), ev("block.declare", 2, minion="Carlton Van Wyk"),
                  ev("block.result", blocked=False),
                  ev("action.result", outcome="success", amount=2),
                  ev("minion.in", 3, minion="Anson"), ev("vote", 4, votes=3, side="for", vampire="Gratiano"),
                  ev("card.play", 1, card="Villein", minion="Catalina Vega", target="Catalina Vega", amount=2)]
    st = state(events)
    vega = seat(st, 1)["minions"]
    assert [m["name"] for m in vega] == ["Catalina Vega"]
    assert vega[0] == {"name": "Catalina Vega", "kind": "vampire", "title": "prince", "votes": 2,
                       "bleed": 2, "stealth": 0, "strength": 1, "capacity": 8, "clan": "Toreador",
                       "source": "seen"}
    carlton = seat(st, 2)["minions"][0]
    assert carlton["name"] == "Carlton Van Wyk" and carlton["kind"] == "ally" and carlton["votes"] == 0
    assert seat(st, 3)["minions"][0]["source"] == "board" and seat(st, 3)["board"] == ["Anson"]
    assert seat(st, 3)["votes"] == 2 and seat(st, 4)["votes"] == 3      # Gratiano, priscus
    assert seat(st, 5)["minions"] == [] and seat(st, 5)["votes"] is None
    assert seat(st, 1)["cards"] == ["Villein"]


def test_cards_seen_at_a_seat_most_recent_first_and_bounded():
    events = B + [ev("card.play", 1, card="The Barrens"), ev("card.replace", 1),
                  ev("card.play", 1, card="Villein", target="Modius", amount=1), ev("card.replace", 1),
                  ev("card.play", 1, card="The Barrens"), ev("card.replace", 1)]
    assert seat(state(events), 1)["cards"] == ["The Barrens", "Villein"]
    from judgekit.recorder.sequence.board import CARDS_KEPT
    many = B + [ev("note", text="x")]
    st = state(many)
    assert len(seat(st, 1)["cards"]) <= CARDS_KEPT


def test_a_sync_board_is_known_and_minions_leave_it():
    sync = ev("sync", 1, phase="minion", board={"2": ["Anson", "Gratiano"]})
    st = state([sync])
    assert seat(st, 2)["board_known"] and seat(st, 2)["board"] == ["Anson", "Gratiano"]
    assert seat(st, 2)["votes"] == 5
    st = state([sync, ev("minion.out", 2, minion="Anson"),
                ev("action.declare", 1, action="hunt", minion="Modius"), ev("action.pass", 1),
                ev("block.declare", 2, minion="Mkhokheli")])
    assert seat(st, 2)["board"] == ["Gratiano", "Mkhokheli"]   # seen at a known board: joins it
    st = state([sync, ev("oust", 2)])
    assert seat(st, 2)["minions"] == [] and seat(st, 2)["out_words"] == "ousted"


def test_the_vote_check_counts_the_known_board():
    sync = ev("sync", 1, phase="minion", board={"2": ["Anson", "Gratiano"]})
    political = [ev("action.declare", 1, action="political", minion="Modius"), ev("action.pass", 1),
                 ev("block.pass", 2), ev("block.pass", 5)]
    assert codes([sync] + political + [ev("vote", 2, votes=2, side="for")]) == ["vote-vampire-missing"]
    assert codes([sync] + political + [ev("vote", 2, votes=5, side="for")]) == []
    assert codes([sync] + political + [ev("vote", 2, votes=2, side="for", vampire="Anson")]) == []


# --- next steps and their seats ------------------------------------------------------------------

def test_strikes_alternate_between_the_combatants_then_presses():
    events = B + [ev("action.declare", 1, action="bleed", minion="Modius", amount=1), ev("action.pass", 1),
                  ev("block.declare", 2, minion="Anson"), ev("block.result", blocked=True)]
    st = state(events)
    assert st["combat"]["acting"] == 1 and st["combat"]["blocker"] == 2
    assert st["action"]["answers"] == {"2": "blocked"} and st["action"]["blocker_minion"] == "Anson"
    first = st["next"][0]
    assert first["event"] == {"type": "strike", "seat": 1} and first["seat"] == 1
    st = state(events + [ev("strike", 1, strike="hand strike", damage=1)])
    assert st["next"][0]["event"] == {"type": "strike", "seat": 2} and st["next"][0]["label"] == "Strike: Ben (seat 2)…"
    st = state(events + [ev("strike", 1, strike="hand strike", damage=1), ev("strike", 2, strike="hand strike", damage=1)])
    assert [(s["event"]["type"], s["seat"]) for s in st["next"]][:2] == [("press", 1), ("press", 1)]
    st = state(events + [ev("strike", 1, strike="hand strike", damage=1), ev("strike", 2, strike="hand strike", damage=1),
                         ev("press", 1, press="none")])
    assert st["next"][0]["seat"] == 2
    st = state(events + [ev("strike", 1, strike="hand strike", damage=1), ev("strike", 2, strike="hand strike", damage=1),
                         ev("press", 1, press="continue")])
    assert st["combat"]["round"] == 2 and st["next"][0]["event"] == {"type": "strike", "seat": 1}


def test_a_blocker_is_never_labelled_as_having_passed():
    events = B + [ev("action.declare", 1, action="hunt", minion="Modius"), ev("action.pass", 1),
                  ev("block.pass", 2), ev("block.declare", 5, minion="Anson")]
    assert state(events)["action"]["answers"] == {"2": "no block", "5": "blocking"}
    assert state(events + [ev("block.result", blocked=False)])["action"]["answers"] == \
        {"2": "no block", "5": "block failed"}
    assert state(events + [ev("block.result", blocked=True)])["action"]["answers"] == \
        {"2": "no block", "5": "blocked"}


def test_votes_go_round_the_table_from_the_acting_seat():
    events = [ev("turn.start", 3), ev("action.declare", 3, action="political", minion="Modius"),
              ev("action.pass", 3), ev("block.pass", 4), ev("block.pass", 2)]
    order = []
    for _ in range(5):
        st = state(events)
        vote = next(s for s in st["next"] if s["event"]["type"] == "vote")
        order.append(vote["seat"])
        events = events + [ev("vote", vote["seat"], votes=1, side="for")]
    assert order == [3, 4, 5, 1, 2]
    st = state(events)
    assert not any(s["event"]["type"] == "vote" for s in st["next"])
    assert st["next"][0]["label"] == "Referendum passes (5 for, 0 against)"
    # the button's event carries the totals: its log line says them without the engine
    assert st["next"][0]["event"] == {"type": "referendum.result", "passed": True,
                                      "votes_for": 5, "votes_against": 0}
    assert describe(st["next"][0]["event"], SEATS) == "Referendum passed (5 for, 0 against)"
    assert codes(events + [st["next"][0]["event"]]) == []
    votes = st["action"]["votes"]
    assert (votes["for"], votes["against"], votes["seats"]) == (5, 0, [1, 2, 3, 4, 5])
    assert votes["ballots"]["3"] == [{"votes": 1, "side": "for", "vampire": None}]


def test_steps_say_which_seat_they_are_for():
    st = state(B + [ev("action.declare", 1, action="hunt", minion="Modius")])
    assert [(s["event"]["type"], s["seat"]) for s in st["next"]] == [("action.pass", 1)]
    st = state(B + [ev("action.declare", 1, action="hunt", minion="Modius"), ev("action.pass", 1)])
    assert st["next"][0]["seat"] == 2 and st["status"].endswith("Ben to block or pass")
    st = state(B + [ev("action.declare", 1, action="hunt", minion="Modius"), ev("action.pass", 1),
                    ev("block.pass", 2)])
    assert st["next"][0]["seat"] == 5


# --- game over -----------------------------------------------------------------------------------

def test_no_game_over_while_the_game_goes_on():
    st = state(B + resolved_bleed())
    assert st["game_over"] is None and all(s["event"]["type"] != "game.end" for s in st["next"])


def test_time_call_in_the_minion_phase_between_actions_ends_the_game_at_once():
    st = state(B + resolved_bleed() + [ev("time.call")])
    assert st["game_over"]["reason"] == "time" and not st["game_over"]["stored"]
    assert st["next"] == [{"label": "Game over — score this table", "event": {"type": "game.end", "reason": "time"},
                           "ask": [], "kind": "primary", "seat": None}]
    st = state(B + resolved_bleed() + [ev("time.call"), ev("game.end", reason="time")])
    assert st["game_over"]["stored"] and st["finished"] and st["next"] == []


def test_time_call_during_an_action_ends_when_it_resolves():
    events = B + [ev("action.declare", 1, action="hunt", minion="Modius"), ev("time.call")]
    assert state(events)["game_over"] is None
    events += [ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5), ev("action.result", outcome="success")]
    assert state(events)["game_over"]["reason"] == "time"


def test_time_call_outside_the_minion_phase_ends_with_the_phase():
    events = B + [ev("phase", 1, phase="influence"), ev("time.call")]
    st = state(events)
    assert st["game_over"] is None
    assert any(s["event"] == {"type": "game.end", "reason": "time"} and s["kind"] == "secondary"
               for s in st["next"])
    assert state(events + [ev("transfer", 1, amount=4), ev("turn.end", 1)])["game_over"]["reason"] == "time"


def test_the_status_line_says_where_the_game_stands():
    assert state([])["status"] == "Not started"
    st = state(B + [ev("phase", 1, phase="influence"), ev("time.call")])
    assert st["status"] == ("Turn 1, Ann: the influence phase · time called: the game ends at the "
                            "end of the influence phase")
    assert state(B + [ev("turn.end", 1)])["status"] == "Ann ended their turn; next: Ben"


def test_one_player_left_and_concessions():
    st = state(B + [ev("oust", 2), ev("oust", 3), ev("withdraw", 4), ev("oust", 5)])
    assert st["game_over"]["reason"] == "last-player" and "Ann (seat 1)" in st["game_over"]["words"]
    assert st["finished"] and st["next"] == []
    st = state(B + [ev("concede", 2), ev("concede", 3), ev("concede", 4), ev("concede", 5)])
    assert st["game_over"]["reason"] == "concession"
    assert state([ev("draw.intentional")])["game_over"]["reason"] == "draw"


# --- bad input that needs the table (the API) ----------------------------------------------------

@pytest.fixture
def game(client):
    return client.post("/api/games", json={"seats": SEATS}).get_json()["id"]


def post(client, gid, body):
    return client.post(f"/api/games/{gid}/events", json=body)


def stored(client, gid):
    return len(client.get(f"/api/games/{gid}").get_json()["events"])


def test_a_redirect_to_a_seat_out_of_the_game_or_not_at_the_table_is_refused(client, game):
    post(client, game, [{"type": "turn.start", "seat": 1}, {"type": "oust", "seat": 3},
                        {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Modius", "amount": 1},
                        {"type": "action.pass", "seat": 1}, {"type": "block.pass", "seat": 2}])
    before = stored(client, game)
    r = post(client, game, {"type": "action.redirect", "seat": 2, "card": "Deflection", "minion": "Gratiano",
                            "target_seat": 3})
    body = r.get_json()
    assert r.status_code == 422 and body["field"] == "target_seat" and "ousted" in body["error"]
    assert set(body) >= {"error", "status", "field"}
    r = post(client, game, {"type": "action.redirect", "seat": 2, "target_seat": 6})
    assert r.status_code == 400 and r.get_json()["field"] == "target_seat"
    r = post(client, game, [{"type": "note", "text": "x"}, {"type": "action.redirect", "seat": 2, "target_seat": 3}])
    assert r.status_code == 422 and r.get_json()["index"] == 1
    assert stored(client, game) == before
    r = post(client, game, {"type": "action.redirect", "seat": 2, "target_seat": 4})
    assert r.status_code == 201
    assert r.get_json()["state"]["action"]["target_seat"] == 4
    assert r.get_json()["events"][0]["summary"] == "Ben redirects the action to Dee (was aimed at Ben)"


def test_a_vote_for_a_vampire_the_known_board_lacks_is_refused(client, game):
    post(client, game, {"type": "sync", "seat": 1, "phase": "minion", "board": {"2": ["Anson"]}})
    before = stored(client, game)
    r = post(client, game, {"type": "vote", "seat": 2, "votes": 3, "side": "for", "vampire": "Gratiano"})
    body = r.get_json()
    assert r.status_code == 422 and body["field"] == "vampire" and "Gratiano" in body["message"]
    assert stored(client, game) == before
    # the board is not known for seat 3: the recorder cannot tell, so it stores the vote
    assert post(client, game, {"type": "vote", "seat": 3, "votes": 3, "side": "for", "vampire": "Gratiano"}).status_code == 201
    # the minion came into play: recorded first, in the same entry, the vote is fine
    r = post(client, game, [{"type": "minion.in", "seat": 2, "minion": "Gratiano"},
                            {"type": "vote", "seat": 2, "votes": 3, "side": "for", "vampire": "Gratiano"}])
    assert r.status_code == 201


# --- the log in a judge's words ------------------------------------------------------------------

LINES = [
    (ev("block.declare", 2, minion="Carlton Van Wyk"), None, "Ben blocks with Carlton Van Wyk"),
    (ev("block.pass", 2), None, "Ben: no block"),
    (ev("action.pass", 1), None, "Ann: any blocks?"),
    (ev("action.declare", 1, action="bleed", minion="Catalina Vega", amount=2), {"target_seat": 2},
     "Ann: Catalina Vega bleeds Ben for 2"),
    (ev("action.declare", 1, action="hunt", minion="Modius", stealth=1), None, "Ann: Modius hunts (stealth 1)"),
    (ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
        terms="3 on Ben, 1 on Cid"), None,
     "Ann: Anson takes a political action with Kine Resources Contested (terms: 3 on Ben, 1 on Cid)"),
    (ev("referendum.result", passed=True), {"for": 7, "against": 3}, "Referendum passed (7 for, 3 against)"),
    (ev("referendum.result", passed=False), None, "Referendum failed"),
    (ev("vote", 2, votes=2, side="for", vampire="Anson"), None, "Ben: 2 votes for (Anson)"),
    (ev("action.result", outcome="success", amount=2), {"action": "bleed"}, "Bleed for 2 succeeds"),
    (ev("action.result", outcome="failed"), None, "Action fails"),
    (ev("turn.start", 1), {"turn": 3}, "Ann starts turn 3"),
    (ev("turn.end", 1), None, "Ann: end of turn"),
    (ev("phase", 1, phase="influence"), None, "Ann: the influence phase"),
    (ev("interrupt", 2, window="minion-end", card="Enkil Cog"), None,
     "Ben: wait! at the end of the minion phase — plays Enkil Cog"),
    (ev("action.redirect", 2, card="Deflection", minion="Gratiano", level="inferior", target_seat=3),
     {"from_seat": 2}, "Ben: Gratiano redirects the action to Cid with Deflection (inferior) (was aimed at Ben)"),
    (ev("card.play", 1, card="Villein", target="Modius", amount=2), None, "Ann plays Villein (on Modius, 2)"),
    (ev("strike", 1, strike="hand strike", damage=1), None, "Ann strikes: hand strike for 1"),
    (ev("press", 2, press="none"), None, "Ben: no press"),
    (ev("combat.step", step="end"), None, "End of combat"),
    (ev("amend", target=2, fields={"amount": 2}), None, "Correction of #2: amount → 2"),
    (ev("retract", target=4, reason="undo"), None, "Takes back #4 (undo)"),
    (ev("time.extend", minutes=2, reason="ruling"), None, "Time extended by 2 minutes (ruling)"),
    (ev("talk", 4, kind="physical-threat", text="I'll break your bones"), None,
     "Dee makes a physical threat — “I'll break your bones”"),
]


@pytest.mark.parametrize("event, context, line", LINES, ids=[l[2][:40] for l in LINES])
def test_log_lines_read_as_a_judge_speaks(event, context, line):
    assert describe(event, SEATS, context) == line


def test_no_log_line_shows_an_event_type_name():
    """One sample of each type of the vocabulary: its line never names the type."""
    samples = {"sync": {"phase": "minion", "turn": 3}, "phase": {"phase": "master"},
               "card.play": {"card": "The Barrens"}, "action.declare": {"action": "hunt"},
               "block.result": {"blocked": True}, "combat.step": {"step": "range"},
               "action.result": {"outcome": "success"}, "bleed.total": {"amount": 3},
               "referendum.result": {"passed": True}, "shortcut": {"to": "strike"},
               "effect": {"name": "unlock Modius"}, "minion.in": {"minion": "Modius"},
               "minion.out": {"minion": "Modius"}, "talk": {"kind": "question"},
               "loop.mark": {"state": {}}, "time.extend": {"minutes": 2}, "note": {"text": "x"},
               "retract": {"target": 1}, "amend": {"target": 1, "fields": {"amount": 1}},
               "action.redirect": {"target_seat": 3}}
    for etype, (seat_rule, _, _) in VOCABULARY.items():
        event = dict({"type": etype}, **samples.get(etype, {}))
        if seat_rule != "none":
            event["seat"] = 2
        line = describe(event, SEATS)
        assert line and line != etype and not any(t in line for t in VOCABULARY if "." in t), (etype, line)
        assert events_mod.describe is describe


def test_namesakes_are_told_apart_by_their_seat():
    names = ["Ann", "Ann", "Cid", "Dee"]
    assert describe(ev("block.pass", 2), names) == "Ann (seat 2): no block"
    assert describe(ev("block.pass", 3), None) == "Seat 3: no block"


def test_redirect_by_names_the_seat_whose_reaction_would_redirect():
    """`action.redirect_by`: the target of a directed action not yet blocked, outside combat
    (what the engine reads a `reaction` with a `target_seat` as a redirect for); the page's
    card form offers that seat a new-target choice for Deflection and the like."""
    bleed = B + [ev("action.declare", 1, action="bleed", minion="Modius", amount=1), ev("action.pass", 1)]
    assert state(bleed)["action"]["redirect_by"] == 2
    # Deflection as a plain reaction with the new target: redirected, no card-choice-missing
    deflected = bleed + [ev("block.pass", 2), ev("reaction", 2, card="Deflection", minion="Gratiano",
                                                 level="inferior", target_seat=4)]
    st = state(deflected)
    assert st["action"]["target_seat"] == 4 and st["action"]["redirect_by"] == 4
    assert "card-choice-missing" not in codes(deflected)
    # the same card with no new target: the missing choice is reported
    assert "card-choice-missing" in codes(bleed + [ev("block.pass", 2),
                                                   ev("reaction", 2, card="Deflection", minion="Gratiano",
                                                      level="inferior")])
    hunt = B + [ev("action.declare", 1, action="hunt", minion="Modius"), ev("action.pass", 1)]
    assert state(hunt)["action"]["redirect_by"] is None                   # undirected
    blocked = bleed + [ev("block.declare", 2, minion="Gratiano"), ev("block.result", blocked=True)]
    assert state(blocked)["action"]["redirect_by"] is None                # blocked: combat
