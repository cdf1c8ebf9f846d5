"""Table situations read right (issue 11 §2): a changed target, "Wait!" without a window,
referendums after a recorded success, the next player starting without an end of turn,
the predator's early pass, and the citations and words of the findings."""
from __future__ import annotations

import re

import pytest

from judgekit.recorder import findings
from judgekit.recorder.notation import parse_line
from recorder_helpers import SEATS, codes, ev, resolved_bleed, run, state

B = [ev("turn.start", 1)]
BLEED = ev("action.declare", 1, action="bleed", minion="Catalina Vega", amount=2)
DEFLECT = ev("action.redirect", 2, card="Deflection", minion="Gratiano", level="inferior", target_seat=3)
REDIRECTED = B + [BLEED, ev("action.pass", 1), ev("block.pass", 2), DEFLECT]


# --- a changed target ------------------------------------------------------------------------

def test_a_deflected_bleed_waits_for_the_new_target():
    assert run(REDIRECTED + [ev("block.pass", 3), ev("action.result", outcome="success", amount=2)]) == []
    st = state(REDIRECTED)
    a = st["action"]
    assert a["target_seat"] == 3 and a["target"] == "Cid" and a["eligible"] == [3]
    assert a["redirects"] == [{"seq": 5, "seat": 2, "from": 2, "to": 3, "card": "Deflection"}]
    assert a["words"] == "Catalina Vega bleeds Cid for 2 (redirected by Ben)"
    assert a["answers"] == {"2": "no block"}
    first = st["next"][0]
    assert first["event"] == {"type": "block.pass", "seat": 3} and first["seat"] == 3
    assert first["label"] == "Cid (seat 3): no block"
    assert "Cid to block or pass" in st["status"]


def test_the_new_targets_missing_pass_is_reported_naming_them():
    found = run(REDIRECTED + [ev("action.result", outcome="success", amount=2)])
    assert [(f["seq"], f["code"], f["seat"]) for f in found] == [(6, "block-pass-missing", 3)]
    assert "Cid (seat 3)" in found[0]["message"] and "Ben" not in found[0]["message"]


def test_the_new_target_may_block_the_old_one_may_not():
    assert codes(REDIRECTED + [ev("block.declare", 3, minion="Anson"), ev("block.result", blocked=True)]) == []
    found = run(REDIRECTED + [ev("block.declare", 2, minion="Modius")])
    assert [f["code"] for f in found] == ["block-not-eligible"]
    assert "only the target, Cid (seat 3), may block" in found[0]["message"]
    assert found[0]["cite"] == {"doc": "announcements", "section": "action-declaration"}


def test_deflection_before_passing_on_the_block_is_still_the_forbidden_shortcut():
    # forbidden shortcuts, example 3: the redirect is a reaction; Ben's pass comes first
    events = B + [BLEED, ev("action.pass", 1), DEFLECT, ev("block.pass", 3),
                  ev("action.result", outcome="success", amount=2)]
    found = run(events)
    assert [(f["code"], f["seat"]) for f in found] == [("block-pass-missing", 2)]
    assert found[0]["message"] == "Ben (seat 2) plays Deflection before passing on the block opportunity."
    assert state(events[:4])["action"]["target_seat"] == 3


def test_redirected_back_the_first_target_answers_again():
    events = REDIRECTED + [ev("block.pass", 3),
                           ev("action.redirect", 3, card="Deflection", minion="Alexa Draper",
                              level="inferior", target_seat=2)]
    st = state(events)
    assert st["action"]["target_seat"] == 2 and st["action"]["eligible"] == [2]
    assert st["next"][0]["event"] == {"type": "block.pass", "seat": 2}
    assert codes(events + [ev("action.result", outcome="success")]) == ["block-pass-missing"]
    assert codes(events + [ev("block.pass", 2), ev("action.result", outcome="success")]) == []


def test_a_void_redirect_changes_nothing():
    # Modius has no Dominate: the Deflection is impossible, void: the bleed stays on Ben
    events = B + [BLEED, ev("action.pass", 1), ev("block.pass", 2),
                  ev("action.redirect", 2, card="Deflection", minion="Modius", target_seat=3)]
    assert codes(events) == ["discipline-unavailable"]
    assert state(events)["action"]["target_seat"] == 2
    assert codes(events + [ev("action.result", outcome="success", amount=2)]) == ["discipline-unavailable"]


def test_a_redirect_without_a_card_is_an_effect():
    events = B + [BLEED, ev("action.pass", 1), ev("block.pass", 2),
                  ev("action.redirect", 2, target_seat=4, text="Telepathic Misdirection's ally")]
    assert state(events)["action"]["target_seat"] == 4
    assert codes(events + [ev("block.pass", 4), ev("action.result", outcome="success")]) == []


def test_a_deflection_recorded_as_a_reaction_by_the_target_redirects_too():
    events = B + [BLEED, ev("action.pass", 1), ev("block.pass", 2),
                  ev("reaction", 2, card="Deflection", minion="Gratiano", level="inferior", target_seat=3)]
    assert state(events)["action"]["target_seat"] == 3
    assert codes(events + [ev("block.pass", 3), ev("action.result", outcome="success")]) == []
    assert codes(events + [ev("action.result", outcome="success")]) == ["block-pass-missing"]
    # a reaction by someone else, or naming the acting seat, changes nothing
    other = B + [BLEED, ev("action.pass", 1), ev("block.pass", 2),
                 ev("reaction", 4, card="Deflection", minion="Gratiano", level="inferior", target_seat=3)]
    assert state(other)["action"]["target_seat"] == 2


def test_the_quick_entry_redirect_verb():
    events = parse_line("2 redirect Gratiano +Deflection :dom @3")
    assert events == [{"seat": 2, "type": "action.redirect", "minion": "Gratiano",
                       "card": "Deflection", "discipline": "dom", "target_seat": 3}]


# --- "Wait!" without a window ----------------------------------------------------------------

def test_wait_without_a_window_holds_the_current_window():
    # the bleed passed the unlock and master phases by shortcut; "wait" names no window:
    # nothing is voided, the bleed stands, and Ben's missing pass is still reported
    events = B + [ev("card.play", 1, card="Villein", target="Modius", amount=2), ev("card.replace", 1),
                  ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                  ev("interrupt", 2, text="wait!"), ev("action.pass", 1)]
    assert codes(events) == []
    st = state(events)
    assert st["action"]["kind"] == "bleed" and st["action"]["seq"] == 4
    found = run(events + [ev("action.result", outcome="success")])
    assert [(f["code"], f["seat"]) for f in found] == [("block-pass-missing", 2)]
    assert codes(events + [ev("block.pass", 2), ev("action.result", outcome="success")]) == []


def test_wait_before_the_next_card_lets_an_opponent_cancel():
    # cancellation, example 3: Govern replaced, "Wait", then Direct Intervention on it
    events = B + [ev("action.declare", 1, action="bleed", minion="Gratiano", amount=2,
                     card="Govern the Unaligned", level="inferior"),
                  ev("card.replace", 1), ev("interrupt", 3),
                  ev("cancel", 3, card="Direct Intervention", target_card="Govern the Unaligned")]
    assert codes(events) == []


def test_wait_with_a_card_plays_it_now():
    # the target plays a card with "wait!" before passing on the block: the forbidden shortcut
    events = B + [ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                  ev("action.pass", 1), ev("interrupt", 2, card="Deflection", minion="Gratiano",
                                           level="inferior", target_seat=3)]
    assert codes(events) == ["block-pass-missing"]


def test_wait_naming_a_window_still_voids_the_shortcut():
    events = B + [ev("phase", 1, phase="influence"), ev("interrupt", 2, window="minion-end")]
    found = run(events)
    assert [f["code"] for f in found] == ["shortcut-voided"]
    assert "at the end of the minion phase" in found[0]["message"]
    assert "minion-end" not in found[0]["message"]


# --- referendums after a recorded success ----------------------------------------------------

KINE = ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
          terms="3 on Ben, 1 on Cid")
POLITICAL = B + [KINE, ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5)]
SUCCESS = ev("action.result", outcome="success")


@pytest.mark.parametrize("success", [[], [SUCCESS]], ids=["implied", "recorded"])
@pytest.mark.parametrize("after, expected", [
    ([ev("vote", 1, votes=2, side="for")], ["terms-unconfirmed"]),
    ([ev("referendum.terms", 1, terms="as announced"), ev("vote", 1, votes=2, side="for"),
      ev("vote", 2, votes=1)], ["vote-incomplete"]),
    ([ev("minion.in", 2, minion="Anson"), ev("minion.in", 2, minion="Gratiano"),
      ev("referendum.terms", 1), ev("vote", 2, votes=2, side="against")], ["vote-vampire-missing"]),
    ([ev("referendum.terms", 1), ev("vote", 1, votes=2, side="for"),
      ev("vote", 2, votes=0, side="against"), ev("referendum.result", passed=True)], []),
    ([ev("referendum.result", passed=False)], ["terms-unconfirmed"]),
])
def test_terms_and_votes_are_checked_the_same_after_a_recorded_success(success, after, expected):
    assert codes(POLITICAL + success + after) == expected


def test_a_political_card_with_a_choice_needs_its_terms_even_when_none_were_said():
    declare = ev("action.declare", 1, action="political", minion="Anson", card="Parity Shift")
    events = B + [declare, ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5), SUCCESS,
                  ev("vote", 1, votes=2, side="for")]
    found = run(events)
    assert [f["code"] for f in found] == ["terms-unconfirmed"]
    assert "announcing the terms of Parity Shift" in found[0]["message"]
    terms_after = events[:-1] + [ev("referendum.terms", 1, terms="Dee"), ev("vote", 1, votes=2, side="for")]
    assert codes(terms_after) == []


def test_the_quick_entry_terms_verb_gives_no_false_card_choice_missing():
    line = ("1 pol Anson +Kine Resources Contested; 1 go; 2 nb; 5 nb; ok; 1 r; "
            "1 terms 3 on Ben, 1 on Cid; 1 vote 2 for; 2 vote 0 against; passed")
    assert codes(B + parse_line(line)) == []
    assert codes(B + parse_line(line.replace("+Kine Resources Contested", "+Kine Resources Contested "
                                             "\"3 on Ben\""))) == []


def test_the_referendum_result_carries_the_vote_totals():
    from judgekit.recorder import engine
    from judgekit.recorder.events import describe
    from recorder_helpers import cards, validated
    events = POLITICAL + [SUCCESS, ev("referendum.terms", 1), ev("vote", 1, votes=2, side="for"),
                          ev("vote", 2, votes=3, side="against", vampire="Gratiano"),
                          ev("vote", 3, votes=5, side="for"), ev("referendum.result", passed=True)]
    numbered = [dict(e, seq=i) for i, e in enumerate(validated(events), 1)]
    replayed = engine.replay(numbered, SEATS, cards=cards())
    last = numbered[-1]
    assert replayed.contexts[last["seq"]] == {"for": 7, "against": 3}
    assert describe(last, SEATS, replayed.contexts[last["seq"]]) == "Referendum passed (7 for, 3 against)"
    assert describe(last, SEATS) == "Referendum passed"
    assert replayed.state["last_action"]["referendum"] == "passed"


# --- the next player starts without an end of turn -------------------------------------------

@pytest.mark.parametrize("start", [
    ev("phase", 2, phase="unlock"), ev("phase", 2, phase="master"),
    ev("action.declare", 2, action="hunt", minion="Modius"), ev("transfer", 2, amount=4),
    ev("turn.start", 2)])
def test_the_next_seat_starting_is_end_of_turn_missing_on_the_previous_player(start):
    found = run(B + resolved_bleed() + [start])
    assert [(f["code"], f["seat"]) for f in found] == [("end-of-turn-missing", 1)]
    assert "Ann (seat 1) did not declare the end of their turn" in found[0]["message"]
    assert "Ben (seat 2)" in found[0]["message"]


def test_after_the_missing_end_of_turn_the_next_turn_is_checked_as_such():
    events = B + resolved_bleed() + [ev("action.declare", 2, action="bleed", minion="Modius", amount=1),
                                     ev("action.pass", 2), ev("action.result", outcome="success")]
    found = run(events)
    assert [(f["code"], f["seat"]) for f in found] == [("end-of-turn-missing", 1), ("block-pass-missing", 3)]
    st = state(events)
    assert st["turn"]["seat"] == 2 and st["turn"]["number"] == 2


def test_after_an_end_of_turn_the_next_seats_unlock_effect_begins_its_turn():
    events = B + resolved_bleed() + [ev("turn.end", 1), ev("effect", 2, name="unlock", phase="unlock"),
                                     ev("action.declare", 2, action="bleed", minion="Modius", amount=1),
                                     ev("action.pass", 2), ev("block.pass", 3),
                                     ev("action.result", outcome="success")]
    assert codes(events) == []
    assert state(events[:7])["turn"] == {"seat": 2, "number": 2, "phase": "unlock", "ended": False,
                                         "after_action": False}


def test_a_seat_that_is_not_next_is_still_not_your_turn():
    assert codes(B + resolved_bleed() + [ev("phase", 4, phase="unlock")]) == ["not-your-turn"]


def test_the_next_seat_after_an_ousted_one_is_the_next_turn():
    events = B + [ev("oust", 2)] + resolved_bleed(prey=3) + [ev("phase", 3, phase="master")]
    assert codes(events) == ["end-of-turn-missing"]


# --- the predator's early pass ----------------------------------------------------------------

HUNT = B + [ev("action.declare", 1, action="hunt", minion="Modius"), ev("action.pass", 1)]


def test_the_predators_no_block_before_the_prey_answered_is_not_the_forbidden_shortcut():
    assert codes(HUNT + [ev("block.pass", 5), ev("block.pass", 2), ev("action.result", outcome="success")]) == []
    # ... and it binds: the predator may not block later
    assert codes(HUNT + [ev("block.pass", 5), ev("block.pass", 2),
                         ev("block.declare", 5, minion="Anson")]) == ["declaration-binding"]
    # the prey still has to answer
    assert codes(HUNT + [ev("block.pass", 5), ev("action.result", outcome="success")]) == ["block-pass-missing"]


def test_the_predator_blocking_before_the_prey_answered_is():
    found = run(HUNT + [ev("block.declare", 5, minion="Anson")])
    assert [f["code"] for f in found] == ["block-out-of-order"]
    assert found[0]["message"] == ("Eve (seat 5) (the predator) declares a block before Ben (seat 2) "
                                   "(the prey) passed on blocking.")


# --- citations and words ------------------------------------------------------------------------

def test_the_extension_cap_cites_the_infraction_guide_and_links_to_its_summary(client):
    found = run([ev("time.extend", minutes=5, reason="ruling"), ev("time.extend", minutes=6, reason="ruling")])
    f = next(f for f in found if f["code"] == "extension-over-cap")
    assert f["cite"] == {"doc": "infraction-guide", "section": "1.2.4"}
    assert findings.cite_url(f["cite"]) == "/reference#time"
    assert "Infraction Guide v2, §1.2.4" in f["message"] and "Judges may cap" in f["message"]
    html = client.get("/reference").get_data(as_text=True)
    assert 'id="time"' in html and "1.2.4" in html


def test_who_may_block_cites_action_declaration_when_directed():
    directed = run(B + [BLEED, ev("action.pass", 1), ev("block.declare", 3, minion="Anson")])
    assert directed[0]["cite"]["section"] == "action-declaration"
    undirected = run(HUNT + [ev("block.declare", 3, minion="Anson")])
    assert undirected[0]["cite"]["section"] == "forbidden-shortcuts"
    assert "only the prey, Ben (seat 2), and the predator, Eve (seat 5)" in undirected[0]["message"]


def test_card_choice_missing_names_what_the_card_lacks():
    found = run(B + [ev("card.play", 1, card="Villein", amount=3)])
    assert found[0]["message"].startswith("Ann (seat 1) plays Villein without announcing the target before")
    found = run(B + [ev("card.play", 1, card="Minion Tap", target="Modius")])
    assert "without announcing the amount before replacing it" in found[0]["message"]
    assert "bleed" not in found[0]["message"]


def every_transcript():
    from test_recorder_engine import CASES
    yield from CASES.values()
    yield REDIRECTED + [ev("action.result", outcome="success")]
    yield B + resolved_bleed() + [ev("phase", 2, phase="unlock")]
    yield POLITICAL + [SUCCESS, ev("vote", 1, votes=2, side="for")]
    yield B + [ev("phase", 1, phase="minion"), ev("card.play", 1, card="The Barrens", window="master")]
    yield B + [ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
               ev("action.pass", 1), ev("block.declare", 2, minion="Anson"), ev("block.result", blocked=True),
               ev("strike", 1, strike="hand strike", damage=1),
               ev("card.play", 1, window="pre-range", card="Torn Signpost")]
    yield [ev("game.start", limit_min=120), ev("turn.start", 1), ev("time.call"),
           ev("action.declare", 1, action="hunt", minion="Modius")]


def test_every_finding_names_the_player_and_seat_and_says_windows_in_words():
    windows = re.compile(r"\b(minion-end|after-action|pre-range|pre-strike)\b|\b\w+ window\b")
    seen = 0
    for transcript in every_transcript():
        kw = {}
        for f in run(transcript, **kw):
            seen += 1
            assert not windows.search(f["message"]), f["message"]
            if f["seat"] is not None:
                who = f"{SEATS[f['seat'] - 1]} (seat {f['seat']})"
                assert who in f["message"], f
    assert seen > 30
