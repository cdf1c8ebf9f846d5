"""A second reference sequence (issue 31): two full turns of a five-seat table, written apart
from judgekit's first reference turn (tests/reference_turn.py), with the situations a judge
meets that the first one leaves out: a master card on a minion the table has not seen yet
(who then acts: a name heard once is never typed again), a bleed with an action modifier
played at superior and the bleed restated, a hunt blocked by a minion in play, a combat card
before range and the strike it changes, a dodge, a press to continue answered by a press to
end, a vampire coming into play in the influence phase, a political action with its terms
said at once, a referendum where one seat has two titled vampires (both on the table) and
another names its second one only after the first has voted, a mis-tap taken back with
Undo, and a correction of a log line.

Used by `tests/browser/test_recorder_table_speed.py` (recorded by tapping on a 390 x 844 page,
taps and typed characters counted per declaration) and by
`tests/test_recorder_reference_turn.py` (the events are a clean sequence for the engine).

The table: Fay (1), Gus (2), Hal (3), Ivy (4), Jon (5). Fay's turn, then Gus's.
"""
from __future__ import annotations

from typing import Any

from reference_turn import Declaration

SEATS = ["Fay", "Gus", "Hal", "Ivy", "Jon"]

BOARD = {"1": ["Anson"],                  # a prince (2 votes)
         "2": ["Lodin (Olaf Holte)"],     # a prince
         "3": ["Cardano"],                # a prince; Alexa Draper is not known yet
         "4": ["Theo Bell"],
         "5": ["Beckett"]}

BEFORE: list[dict[str, Any]] = [
    {"type": "sync", "seat": 5, "turn": 6, "phase": "discard", "board": BOARD},
    {"type": "turn.end", "seat": 5},
]

TURNS: list[Declaration] = [
    Declaration("turn start", "Fay: “My turn.”", [{"type": "turn.start", "seat": 1}]),
    Declaration("master card on a new minion", "Fay: “Vessel on Dominique.”",
                [{"type": "card.play", "seat": 1, "card": "Vessel", "target": "Dominique"}],
                names=("Vessel", "Dominique"), new=("Vessel", "Dominique")),
    Declaration("replace", "Fay draws to replace it.", [{"type": "card.replace", "seat": 1}]),
    Declaration("bleed (minion heard)", "Fay: “Dominique bleeds Gus for one.”",
                [{"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Dominique",
                  "amount": 1, "target_seat": 2}], names=("Dominique",)),
    Declaration("any blocks (bleed)", "Fay: “Any blocks?”", [{"type": "action.pass", "seat": 1}]),
    Declaration("prey passes (bleed)", "Gus: “No block.”", [{"type": "block.pass", "seat": 2}]),
    Declaration("modifier at superior", "Fay: “Conditioning, superior.”",
                [{"type": "card.play", "seat": 1, "card": "Conditioning", "discipline": "DOM",
                  "bleed_change": 3}],
                names=("Conditioning",), new=("Conditioning",)),
    Declaration("replace (modifier)", "Fay draws.", [{"type": "card.replace", "seat": 1}]),
    Declaration("bleed restated", "Fay: “I'm bleeding for four now.”",
                [{"type": "bleed.total", "seat": 1, "amount": 4}]),
    Declaration("bleed succeeds", "Gus burns four pool.",
                [{"type": "action.result", "outcome": "success", "amount": 4}]),
    Declaration("hunt", "Fay: “Anson hunts.”",
                [{"type": "action.declare", "seat": 1, "action": "hunt", "minion": "Anson"}], names=("Anson",)),
    Declaration("any blocks (hunt)", "Fay: “Any blocks?”", [{"type": "action.pass", "seat": 1}]),
    Declaration("block (minion in play)", "Gus: “Lodin blocks.”",
                [{"type": "block.declare", "seat": 2, "minion": "Lodin (Olaf Holte)"}], names=("Lodin (Olaf Holte)",)),
    Declaration("block succeeds", "No one answers: the block succeeds.", [{"type": "block.result", "blocked": True}]),
    Declaration("combat card", "Fay: “Torn Signpost, superior, before range.”",
                [{"type": "card.play", "seat": 1, "card": "Torn Signpost", "discipline": "POT"}],
                names=("Torn Signpost",), new=("Torn Signpost",)),
    Declaration("replace (combat card)", "Fay draws.", [{"type": "card.replace", "seat": 1}]),
    Declaration("strike (after the combat card)", "Fay: “Anson hand strikes for three.”",
                [{"type": "strike", "seat": 1, "strike": "hand strike", "damage": 3}], names=("Anson",)),
    Declaration("dodge", "Gus: “Dodge.”", [{"type": "strike", "seat": 2, "strike": "dodge", "damage": 0}],
                names=("Lodin (Olaf Holte)",)),
    Declaration("press", "Fay: “I press to continue.”", [{"type": "press", "seat": 1, "press": "continue"}]),
    Declaration("press answered", "Gus: “I press to end.”", [{"type": "press", "seat": 2, "press": "end"}]),
    Declaration("combat ends", "The combat ends.", [{"type": "combat.step", "step": "end"}]),
    Declaration("transfer", "Fay: “Influence: I move four.”", [{"type": "transfer", "seat": 1, "amount": 4}]),
    Declaration("vampire comes into play", "Fay: “Lucinde comes out.”",
                [{"type": "minion.in", "seat": 1, "minion": "Lucinde, Alastor"}],
                names=("Lucinde, Alastor",), new=("Lucinde, Alastor",)),
    Declaration("end of turn", "Fay: “End of turn.”", [{"type": "turn.end", "seat": 1}]),
    Declaration("turn start (2)", "Gus: “My turn.”", [{"type": "turn.start", "seat": 2}]),
    Declaration("political action with terms",
                "Gus: “Lodin calls Kine Resources Contested: Hal two, Ivy two.”",
                [{"type": "action.declare", "seat": 2, "action": "political", "minion": "Lodin (Olaf Holte)",
                  "card": "Kine Resources Contested", "terms": "Hal 2, Ivy 2"}],
                names=("Lodin (Olaf Holte)", "Kine Resources Contested"), new=("Kine Resources Contested",),
                words="Hal 2, Ivy 2"),
    Declaration("replace (political)", "Gus draws to replace it.", [{"type": "card.replace", "seat": 2}]),
    Declaration("any blocks (political)", "Gus: “Any blocks?”", [{"type": "action.pass", "seat": 2}]),
    Declaration("prey passes (political)", "Hal: “No block.”", [{"type": "block.pass", "seat": 3}]),
    Declaration("predator passes (political)", "Fay: “No block.”", [{"type": "block.pass", "seat": 1}]),
    Declaration("terms confirmed", "Gus: “Terms as I said.”",
                [{"type": "referendum.terms", "seat": 2, "terms": "as announced"}]),
    Declaration("vote (acting)", "Gus: “Lodin, two for.”",
                [{"type": "vote", "seat": 2, "votes": 2, "side": "for", "vampire": "Lodin (Olaf Holte)"}],
                names=("Lodin (Olaf Holte)",)),
    Declaration("vote (first vampire)", "Hal: “Cardano, two against.”",
                [{"type": "vote", "seat": 3, "votes": 2, "side": "against", "vampire": "Cardano"}],
                names=("Cardano",)),
    Declaration("vote (second vampire)", "Hal: “And Alexa Draper, two more against.”",
                [{"type": "minion.in", "seat": 3, "minion": "Alexa Draper"},
                 {"type": "vote", "seat": 3, "votes": 2, "side": "against", "vampire": "Alexa Draper"}],
                names=("Alexa Draper",), new=("Alexa Draper",)),
    Declaration("abstains", "Ivy: “I abstain.”", [{"type": "vote", "seat": 4, "side": "abstain"}]),
    Declaration("abstains (2)", "Jon: “Abstain.”", [{"type": "vote", "seat": 5, "side": "abstain"}]),
    Declaration("vote (two titled vampires)", "Fay: “Anson and Lucinde: five for.”",
                [{"type": "vote", "seat": 1, "votes": 2, "side": "for", "vampire": "Anson"},
                 {"type": "vote", "seat": 1, "votes": 3, "side": "for", "vampire": "Lucinde, Alastor"}],
                names=("Anson", "Lucinde, Alastor")),
    Declaration("referendum", "The referendum passes, seven for, four against.",
                [{"type": "referendum.result", "passed": True, "votes_for": 7, "votes_against": 4}]),
    Declaration("mis-tap", "(The judge taps Gus's end of turn too early.)", [{"type": "turn.end", "seat": 2}]),
    Declaration("undo", "The judge takes it back: Undo.", [{"type": "retract", "reason": "undo"}]),
    Declaration("transfer (2)", "Gus: “I move two.”", [{"type": "transfer", "seat": 2, "amount": 2}]),
    Declaration("correction", "Gus: “Three, sorry, not two.”", [{"type": "amend", "fields": {"amount": 3}}]),
    Declaration("end of turn (2)", "Gus: “End of turn.”", [{"type": "turn.end", "seat": 2}]),
]


def turn_events() -> list[dict[str, Any]]:
    """Every event of the two turns, in order, as the engine gets them (the Undo's and the
    correction's targets filled in: the mis-tap and the first transfer)."""
    out: list[dict[str, Any]] = []
    for d in TURNS:
        for e in d.events:
            e = dict(e)
            seq = len(BEFORE) + len(out) + 1
            if e["type"] == "retract":
                e["target"] = seq - 1
            if e["type"] == "amend":
                e["target"] = seq - 1
            out.append(e)
    return out
