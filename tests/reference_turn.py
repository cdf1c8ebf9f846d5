"""The reference turn of issue 11 §1: what a five-seat table says during one full turn, in
our own words, and the events a judge records for it.

Used by `tests/browser/test_recorder_table_speed.py` (which records it on a 390 x 844 phone
page and counts the taps and typed characters of each declaration) and by
`tests/test_recorder_reference_turn.py` (which checks that the events are a clean turn
for the engine: no finding).

The table: Ana (1), Bruno (2), Cid (3), Dee (4), Eve (5); Ana acts, Bruno is her prey and
Eve her predator. Recording began earlier in the game (`BEFORE`): the judge stated the
board with a `sync`, recorded Ana's previous turn (she played Villein then, so it is a
card already played at this table) and the end of Eve's turn. Victoria Ash (Bruno's
blocker) and Kine Resources Contested (Ana's political action) are new at this table:
the judge types a few letters of them and taps a suggestion.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SEATS = ["Ana", "Bruno", "Cid", "Dee", "Eve"]

BOARD = {"1": ["Catalina Vega", "Anson", "Sigrid Bekker"],   # two princes (2 votes each)
         "2": ["Theo Bell", "Carlton Van Wyk"],              # a vampire and an ally
         "3": ["Cardano"],                                   # a prince
         "4": ["Lodin (Olaf Holte)"],                        # a prince
         "5": ["Beckett"]}

BEFORE: list[dict[str, Any]] = [
    {"type": "sync", "seat": 1, "turn": 3, "phase": "master", "board": BOARD},
    {"type": "card.play", "seat": 1, "card": "Villein", "target": "Catalina Vega", "amount": 1},
    {"type": "card.replace", "seat": 1},
    {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Catalina Vega", "amount": 2},
    {"type": "action.pass", "seat": 1},
    {"type": "block.pass", "seat": 2},
    {"type": "action.result", "outcome": "success", "amount": 2},
    {"type": "turn.end", "seat": 1},
    {"type": "sync", "seat": 5, "turn": 7, "phase": "discard"},
    {"type": "turn.end", "seat": 5},
]


@dataclass(frozen=True)
class Declaration:
    """One thing said at the table, and what the judge records for it.

    `names` are the minion and card names the declaration says; `new` those not yet on the
    table (the judge may type a few letters of them; of the others, nothing); `words` free
    words the judge types as they were said (a referendum's terms), if any."""
    key: str
    said: str
    events: list[dict[str, Any]]
    names: tuple[str, ...] = ()
    new: tuple[str, ...] = field(default=())
    words: str = ""


TURN: list[Declaration] = [
    Declaration("turn start", "Ana: “My turn.”", [{"type": "turn.start", "seat": 1}]),
    Declaration("master card", "Ana: “Villein, two blood on Catalina Vega.”",
                [{"type": "card.play", "seat": 1, "card": "Villein", "target": "Catalina Vega", "amount": 2}],
                names=("Villein", "Catalina Vega")),
    Declaration("replace", "Ana draws to replace it.", [{"type": "card.replace", "seat": 1}]),
    Declaration("bleed", "Ana: “Catalina Vega bleeds Bruno for two.”",
                [{"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Catalina Vega",
                  "amount": 2, "target_seat": 2}], names=("Catalina Vega",)),
    Declaration("any blocks (bleed)", "Ana: “Any blocks?”", [{"type": "action.pass", "seat": 1}]),
    Declaration("prey passes (bleed)", "Bruno: “No block.”", [{"type": "block.pass", "seat": 2}]),
    Declaration("predator passes (bleed)", "Eve: “No block from me either.”",
                [{"type": "block.pass", "seat": 5}]),
    Declaration("bleed succeeds", "The bleed goes through: Bruno burns two pool.",
                [{"type": "action.result", "outcome": "success", "amount": 2}]),
    Declaration("hunt", "Ana: “Sigrid Bekker hunts.”",
                [{"type": "action.declare", "seat": 1, "action": "hunt", "minion": "Sigrid Bekker"}],
                names=("Sigrid Bekker",)),
    Declaration("any blocks (hunt)", "Ana: “Any blocks?”", [{"type": "action.pass", "seat": 1}]),
    Declaration("block attempt", "Bruno: “Victoria Ash blocks.”",
                [{"type": "block.declare", "seat": 2, "minion": "Victoria Ash"}],
                names=("Victoria Ash",), new=("Victoria Ash",)),
    Declaration("block succeeds", "Nobody has intercept to answer: the block succeeds.",
                [{"type": "block.result", "blocked": True}]),
    Declaration("strike 1 (acting)", "Ana: “Sigrid strikes with his hands, one damage.”",
                [{"type": "strike", "seat": 1, "strike": "hand strike", "damage": 1}], names=("Sigrid Bekker",)),
    Declaration("strike 1 (blocker)", "Bruno: “Hand strike back, one.”",
                [{"type": "strike", "seat": 2, "strike": "hand strike", "damage": 1}], names=("Victoria Ash",)),
    Declaration("press", "Ana: “I press to continue.”",
                [{"type": "press", "seat": 1, "press": "continue"}]),
    Declaration("strike 2 (acting)", "Ana: “Hand strike again.”",
                [{"type": "strike", "seat": 1, "strike": "hand strike", "damage": 1}], names=("Sigrid Bekker",)),
    Declaration("strike 2 (blocker)", "Bruno: “Dodge.”",
                [{"type": "strike", "seat": 2, "strike": "dodge", "damage": 0}], names=("Victoria Ash",)),
    Declaration("combat ends", "No more presses: the combat ends.", [{"type": "combat.step", "step": "end"}]),
    Declaration("political action", "Ana: “Anson calls a referendum: Kine Resources Contested.”",
                [{"type": "action.declare", "seat": 1, "action": "political", "minion": "Anson",
                  "card": "Kine Resources Contested"}],
                names=("Anson", "Kine Resources Contested"), new=("Kine Resources Contested",)),
    Declaration("replace (political)", "Ana draws to replace it.", [{"type": "card.replace", "seat": 1}]),
    Declaration("any blocks (political)", "Ana: “Any blocks?”", [{"type": "action.pass", "seat": 1}]),
    Declaration("prey passes (political)", "Bruno: “No block.”", [{"type": "block.pass", "seat": 2}]),
    Declaration("predator passes (political)", "Eve: “No block.”", [{"type": "block.pass", "seat": 5}]),
    Declaration("terms", "Ana: “Terms: Bruno two, Cid two.”",
                [{"type": "referendum.terms", "seat": 1, "terms": "Bruno 2, Cid 2"}], words="Bruno 2, Cid 2"),
    Declaration("vote (two titled vampires)", "Ana: “Catalina and Anson: four votes for.”",
                [{"type": "vote", "seat": 1, "votes": 2, "side": "for", "vampire": "Catalina Vega"},
                 {"type": "vote", "seat": 1, "votes": 2, "side": "for", "vampire": "Anson"}],
                names=("Catalina Vega", "Anson")),
    Declaration("vote", "Cid: “Cardano, two against.”",
                [{"type": "vote", "seat": 3, "votes": 2, "side": "against", "vampire": "Cardano"}],
                names=("Cardano",)),
    Declaration("vote", "Dee: “Lodin votes for, two.”",
                [{"type": "vote", "seat": 4, "votes": 2, "side": "for", "vampire": "Lodin (Olaf Holte)"}],
                names=("Lodin (Olaf Holte)",)),
    Declaration("referendum", "The referendum passes, six for, two against.",
                [{"type": "referendum.result", "passed": True, "votes_for": 6, "votes_against": 2}]),
    Declaration("influence", "Ana: “Influence phase: I transfer four.”",
                [{"type": "transfer", "seat": 1, "amount": 4}]),
    Declaration("discard", "Ana: “Discard phase: I discard a card.”", [{"type": "discard", "seat": 1}]),
    Declaration("end of turn", "Ana: “End of turn.”", [{"type": "turn.end", "seat": 1}]),
]


def turn_events() -> list[dict[str, Any]]:
    """Every event of the reference turn, in order."""
    return [e for d in TURN for e in d.events]
