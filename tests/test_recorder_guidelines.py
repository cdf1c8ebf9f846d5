"""Every worked example of the announcement guidelines, as a transcript and its findings.

Anchors follow `docs/announcements-map.md` (`<section>-ex<N>`). Where an example says the
play is allowed, the transcript produces no fault; where an opponent interrupts a
shortcut in time it produces the informative `shortcut-voided`.
"""
from __future__ import annotations

from recorder_helpers import codes, ev, resolved_hunt, run, state

START = [ev("turn.start", 1)]


# --- card declaration ----------------------------------------------------------------

def test_card_declaration_ex1_superior_eyes_of_argus_with_andi_liu():
    found = run(START + [
        ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
        ev("action.pass", 1),
        ev("reaction", 2, card="Eyes of Argus", level="superior", minion="Andi Liu", wake=True),
    ])
    assert [f["code"] for f in found] == ["discipline-unavailable"]
    assert found[0]["binding"] is False
    assert found[0]["cite"] == {"doc": "announcements", "section": "card-declaration"}
    assert "Andi Liu" in found[0]["message"]


def test_card_declaration_ex2_platinum_protocol_without_discipline_or_amount():
    found = codes(START + [ev("action.declare", 1, action="bleed", card="Platinum Protocol")])
    assert sorted(found) == ["bleed-amount-missing", "card-choice-missing"]


def test_card_declaration_ex2_complete_announcement_is_clean():
    assert codes(START + [ev("action.declare", 1, action="bleed", card="Platinum Protocol",
                             discipline=["obf", "pre"], amount=1)]) == []


# --- action declaration ----------------------------------------------------------------

def test_action_declaration_ex1_lock_not_effective_switch_minion_allowed():
    assert codes(START + [
        ev("action.declare", 1, action="bleed", minion="Victoria Ash", amount=1, locked=False),
        ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
        ev("action.pass", 1), ev("block.pass", 2), ev("action.result", outcome="success"),
    ]) == []


def test_action_declaration_ex1_contrast_effective_lock_binds():
    found = codes(START + [
        ev("action.declare", 1, action="bleed", minion="Victoria Ash", amount=2),
        ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
    ])
    assert found == ["declaration-binding"]


def test_action_declaration_ex2_superior_govern_with_donny_is_void():
    events = START + [ev("action.declare", 1, action="card", card="Govern the Unaligned",
                         level="superior", minion="Donny Kowalczyk")]
    found = run(events)
    assert [f["code"] for f in found] == ["discipline-unavailable"]
    assert found[0]["binding"] is False
    assert found[0]["cite"]["section"] == "action-declaration"
    # Not binding: the player may declare something else, with no "binding" finding.
    after = events + [ev("action.declare", 1, action="hunt", minion="Modius")]
    assert codes(after) == ["discipline-unavailable"]
    assert state(after)["action"]["kind"] == "hunt"


def test_action_declaration_ex3_catalina_vega_bleed_for_one_is_misrepresented():
    found = run(START + [
        ev("action.declare", 1, action="bleed", minion="Catalina Vega", amount=1),
        ev("action.pass", 1), ev("block.pass", 2), ev("action.result", outcome="success"),
    ])
    assert [f["code"] for f in found] == ["misrepresented"]
    assert found[0]["binding"] is True
    assert found[0]["infraction"] == "Public Information Miscommunication"


# --- votes and terms ----------------------------------------------------------------------

def test_votes_ex1_kine_resources_terms_not_confirmed():
    found = codes(START + [
        ev("action.declare", 1, action="political", card="Kine Resources Contested",
           minion="Modius", terms="3 on my prey, 1 on me"),
        ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
        ev("vote", 1, votes=4, side="for"),
    ])
    assert found == ["terms-unconfirmed"]


def test_votes_ex1_terms_as_announced_is_clean():
    assert codes(START + [
        ev("action.declare", 1, action="political", card="Kine Resources Contested",
           minion="Modius", terms="3 on my prey, 1 on me"),
        ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
        ev("referendum.terms", 1, terms="as announced"),
        ev("vote", 1, votes=4, side="for"),
    ]) == []


BOARD_TWO_PRINCES = ev("sync", 1, phase="minion", board={"3": ["Modius", "Mkhokheli"]})


def test_votes_ex2_two_princes_vote_announcements():
    found = run([BOARD_TWO_PRINCES,
                 ev("vote", 3, votes=4, side="against"),                      # seq 2: allowed
                 ev("vote", 3, votes=2, side="against", vampire="Modius"),    # seq 3: allowed
                 ev("vote", 3, votes=2, side="against"),                      # seq 4: no vampire
                 ev("vote", 3, side="against")])                              # seq 5: no number
    assert [(f["seq"], f["code"]) for f in found] == [(4, "vote-vampire-missing"),
                                                      (5, "vote-incomplete")]


def test_votes_ex3_ventrue_headquarters_is_optional():
    assert codes([ev("sync", 1, phase="minion", board={"3": ["Alice Chen", "Alexa Draper"]}),
                  ev("vote", 3, votes=4, side="against")]) == []


# --- shortcuts ------------------------------------------------------------------------------

BLOCKED_BLEED = START + [
    ev("action.declare", 1, action="bleed", minion="Alice Chen", amount=1),
    ev("action.pass", 1),
    ev("block.declare", 2, minion="Andi Liu"),
    ev("block.result", blocked=True),
]


def test_shortcuts_ex1_cats_guidance_before_the_next_action_voids_it():
    events = BLOCKED_BLEED + [
        ev("strike", 1, strike="hand strike", damage=1), ev("strike", 2, strike="hand strike", damage=1),
        ev("press", 1, press="none"), ev("press", 2, press="none"),
        ev("action.declare", 1, action="hunt", minion="Modius"),
        ev("interrupt", 2, window="after-action", card="Cat's Guidance"),
    ]
    found = run(events)
    assert [f["code"] for f in found] == ["shortcut-voided"]
    assert found[0]["severity"] == "info"
    assert state(events)["action"] is None          # the hunt does not bind
    # ...so the acting player may decide not to hunt and do something else.
    assert codes(events + [ev("action.declare", 1, action="bleed", minion="Catalina Vega",
                              amount=2)]) == ["shortcut-voided"]


HUNT_AT_START = START + [ev("action.declare", 1, action="hunt", minion="Modius"),
                         ev("action.pass", 1)]


def test_shortcuts_ex2_forgotten_unlock_effect_is_too_late():
    assert codes(HUNT_AT_START + [ev("effect", 1, name="forgotten unlock effect",
                                     phase="unlock")]) == ["phase-passed"]
    assert codes(HUNT_AT_START + [ev("effect", 1, name="forgotten master", phase="master")]) \
        == ["phase-passed"]


def test_shortcuts_ex2_opponent_may_still_play_in_the_master_phase():
    events = HUNT_AT_START + [ev("effect", 3, name="out-of-turn master", window="master")]
    assert codes(events) == ["shortcut-voided"]
    assert state(events)["turn"]["phase"] == "master"


VILLEIN = ev("card.play", 1, card="Villein", target="Modius", amount=3)


def test_shortcuts_ex3_villein_passes_the_unlock_phase():
    assert codes(START + [VILLEIN, ev("card.replace", 1),
                          ev("effect", 1, name="Edge: +1 pool", phase="unlock"),
                          ev("effect", 1, name="ally's end-of-unlock effect", phase="unlock",
                             minion="Carlton van Wyk")]) == ["phase-passed", "phase-passed"]


def test_shortcuts_ex4_homunculus_interrupts_villein_in_time():
    events = START + [VILLEIN, ev("effect", 3, name="Homunculus: unlock", window="unlock")]
    assert codes(events) == ["shortcut-voided"]
    assert state(events)["turn"]["phase"] == "unlock"
    # The unlock phase is open again: more unlock effects, then Villein (or not).
    assert codes(events + [ev("effect", 1, name="Edge: +1 pool", phase="unlock"), VILLEIN]) \
        == ["shortcut-voided"]


def test_shortcuts_ex5_homunculus_after_the_barrens_is_too_late():
    assert codes(START + [VILLEIN, ev("card.replace", 1), ev("card.play", 1, card="The Barrens"),
                          ev("effect", 3, name="Homunculus: unlock", window="unlock")]) \
        == ["interrupt-too-late"]


def test_shortcuts_ex6_discard_passes_the_influence_phase():
    assert codes(START + resolved_hunt() + [ev("discard", 1),
                                            ev("transfer", 1, amount=4)]) == ["phase-passed"]


def test_shortcuts_ex7_enkil_cog_at_the_end_of_the_minion_phase_in_time():
    events = START + resolved_hunt() + [
        ev("transfer", 1, amount=1),
        ev("interrupt", 2, window="minion-end", card="Enkil Cog"),
    ]
    assert codes(events) == ["shortcut-voided"]
    assert state(events)["turn"]["phase"] == "minion"
    # The acting player may then take another action (or go to influence).
    assert codes(events + resolved_hunt(minion="Catalina Vega")) == ["shortcut-voided"]


def test_shortcuts_ex8_enkil_cog_after_transfers_and_discard_is_too_late():
    assert codes(START + resolved_hunt() + [
        ev("transfer", 1, amount=4), ev("discard", 1), ev("turn.end", 1),
        ev("interrupt", 2, window="minion-end", card="Enkil Cog"),
    ]) == ["interrupt-too-late"]


def test_shortcuts_ex9_hand_strike_for_one_opponent_maneuvers():
    events = BLOCKED_BLEED + [
        ev("strike", 1, strike="hand strike", damage=1),
        ev("card.play", 2, card="Flash", window="range"),
    ]
    assert codes(events) == ["shortcut-voided"]
    assert state(events)["combat"]["step"] == "range"
    # The acting player may now maneuver too, or choose a different strike.
    assert codes(events + [ev("card.play", 1, card="Flash", window="range"),
                           ev("strike", 1, strike="dodge", damage=0)]) == ["shortcut-voided"]


def test_shortcuts_ex9_contrast_acting_player_cannot_go_back_alone():
    assert codes(BLOCKED_BLEED + [ev("strike", 1, strike="hand strike", damage=1),
                                  ev("card.play", 1, card="Flash", window="range")]) \
        == ["phase-passed"]


def test_shortcuts_ex10_no_pre_range_nothing_until_strike_then_maneuver_allowed():
    assert codes(BLOCKED_BLEED + [
        ev("shortcut", 1, to="range"),            # "No pre-range"
        ev("shortcut", 2, to="strike"),           # "Nothing until strike"
        ev("card.play", 1, card="Flash", window="range"),
        ev("card.play", 2, card="Flash", window="pre-strike"),
    ]) == []


# --- forbidden shortcuts -------------------------------------------------------------------

def test_forbidden_shortcuts_ex1_villein_replaced_without_target_and_amount():
    found = run(START + [ev("card.play", 1, card="Villein"), ev("card.replace", 1)])
    assert [f["code"] for f in found] == ["card-choice-missing"]
    assert "before replacing" in found[0]["message"]


def test_forbidden_shortcuts_ex2_predator_blocks_a_hunt_before_the_prey_passed():
    found = run(START + [ev("action.declare", 1, action="hunt", minion="Modius"),
                         ev("action.pass", 1), ev("block.declare", 5, minion="Alice Chen")])
    assert [f["code"] for f in found] == ["block-out-of-order"]
    assert found[0]["severity"] == "forbidden-shortcut"
    assert found[0]["cite"] == {"doc": "announcements", "section": "forbidden-shortcuts"}


def test_forbidden_shortcuts_ex2_literal_without_pass_also_lacks_the_acting_pass():
    assert sorted(codes(START + [ev("action.declare", 1, action="hunt", minion="Modius"),
                                 ev("block.declare", 5, minion="Alice Chen")])) \
        == ["action-pass-missing", "block-out-of-order"]


def test_forbidden_shortcuts_ex3_deflection_before_passing_on_the_block():
    assert codes(START + [ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                          ev("action.pass", 1),
                          ev("reaction", 2, card="Deflection", minion="Alice Chen",
                             target_seat=3)]) == ["block-pass-missing"]


# --- cancellation ---------------------------------------------------------------------------

GOVERN = ev("action.declare", 1, action="bleed", card="Govern the Unaligned", level="inferior",
            minion="Alexa Draper", amount=3)
SEDUCTION = ev("card.play", 1, card="Seduction", level="superior", minion="Alexa Draper",
               target="Andi Liu")


def test_cancellation_ex1_direct_intervention_on_govern_after_seduction_is_too_late():
    events = START + [GOVERN, ev("card.replace", 1), SEDUCTION,
                      ev("cancel", 3, card="Direct Intervention", target_card="Govern the Unaligned")]
    assert codes(events) == ["cancel-too-late"]
    # They can only cancel the Seduction now.
    assert codes(START + [GOVERN, ev("card.replace", 1), SEDUCTION,
                          ev("cancel", 3, card="Direct Intervention", target_card="Seduction")]) == []


def test_cancellation_ex2_govern_and_seduction_without_replacing():
    assert codes(START + [GOVERN, SEDUCTION]) == ["replace-missing"]


def test_cancellation_ex3_wait_after_replacement_then_cancel_is_allowed():
    assert codes(START + [GOVERN, ev("card.replace", 1),
                          ev("cancel", 3, card="Direct Intervention",
                             target_card="Govern the Unaligned")]) == []


# --- table talk ------------------------------------------------------------------------------

NEGOTIATION = START + [ev("talk", 1, kind="negotiate", text="alliance against seat 3?")]


def test_table_talk_ex1_raised_voice():
    found = run(NEGOTIATION + [ev("talk", 3, kind="raised-voice", text="No, don't listen!")])
    assert [f["code"] for f in found] == ["unsportsmanlike"]
    assert found[0]["infraction"] == "Unsportsmanlike Conduct — Minor"


def test_table_talk_ex2_slur_against_player_and_deck():
    assert codes(NEGOTIATION + [ev("talk", 3, kind="slur")]) == ["unsportsmanlike"]


def test_table_talk_ex3_in_game_threat_is_negotiation():
    assert codes(NEGOTIATION + [ev("talk", 3, kind="negotiate",
                                   text="I'll rush backwards and make sure you get ousted")]) == []


def test_table_talk_ex4_physical_threat_even_in_jest():
    found = run(START + resolved_hunt() + [ev("talk", 2, kind="physical-threat")])
    assert [f["code"] for f in found] == ["unsportsmanlike"]
    # issue 15 §6: threats or attempts of physical violence, even as a joke
    assert found[0]["infraction"] == "Aggressive Behaviour"
    assert found[0]["message"] == "Ben (seat 2) makes a physical threat (even in jest)."


# --- pace of discussion -------------------------------------------------------------------------

PACE = START + [
    ev("action.declare", 1, action="bleed", minion="Catalina Vega", amount=3),
    ev("action.pass", 1), ev("block.declare", 2, minion="Alice Chen"),
    ev("block.result", blocked=False),
    ev("talk", 2, kind="negotiate"), ev("talk", 3, kind="negotiate"),
    ev("talk.stop", 1), ev("talk", 2, kind="question"), ev("talk", 1, kind="answer"),
]


def test_pace_ex1_last_question_and_answer_then_decide():
    assert codes(PACE + [ev("reaction", 2, card="Deflection", minion="Alice Chen",
                            target_seat=3)]) == []


def test_pace_ex1_contrast_more_discussion_after_the_last_answer():
    assert codes(PACE + [ev("talk", 2, kind="negotiate")]) == ["discussion-after-stop"]


# --- hypotheticals --------------------------------------------------------------------------

def test_hypotheticals_ex1_action_announced_cannot_be_changed():
    assert codes(START + [GOVERN, ev("talk", 2, kind="hypothetical"),
                          ev("action.declare", 1, action="hunt", minion="Modius")]) \
        == ["declaration-binding"]


def test_hypotheticals_ex2_i_will_block_is_a_binding_block():
    events = START + [ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                      ev("action.pass", 1), ev("block.declare", 2, minion="Carlton van Wyk")]
    assert codes(events) == []
    assert state(events)["action"]["attempting"] == 2
    assert codes(events + [ev("block.pass", 2)]) == ["declaration-binding"]


def test_hypotheticals_ex3_clear_hypothetical_is_not_a_pass():
    events = START + [ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                      ev("action.pass", 1), ev("talk", 2, kind="hypothetical")]
    assert codes(events) == []
    assert 2 not in state(events)["action"]["done"]
    assert codes(events + [ev("block.pass", 2), ev("action.result", outcome="success")]) == []
    # Treating it as a pass is wrong: the block opportunity is still open.
    assert codes(events + [ev("action.result", outcome="success")]) == ["block-pass-missing"]
