"""The quick-entry notation."""
from __future__ import annotations

import pytest

from judgekit.recorder.notation import ParseError, parse_line


@pytest.mark.parametrize("line, events", [
    ("1 start", [{"type": "turn.start", "seat": 1}]),
    ("1 bleed Modius =2 @3 *1 +Govern the Unaligned :DOM",
     [{"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Modius", "amount": 2,
       "target_seat": 3, "stealth": 1, "card": "Govern the Unaligned", "discipline": "DOM"}]),
    ("1 go; 2 nb; 5 block Alice Chen",
     [{"type": "action.pass", "seat": 1}, {"type": "block.pass", "seat": 2},
      {"type": "block.declare", "seat": 5, "minion": "Alice Chen"}]),
    ("1 +Villein @Modius =3", [{"type": "card.play", "seat": 1, "card": "Villein",
                                "target": "Modius", "amount": 3}]),
    ("1 r", [{"type": "card.replace", "seat": 1}]),
    ("2 react Andi Liu +Eyes of Argus :AUS !wake",
     [{"type": "reaction", "seat": 2, "minion": "Andi Liu", "card": "Eyes of Argus",
       "discipline": "AUS", "wake": True}]),
    ("1 act Platinum Protocol", [{"type": "action.declare", "seat": 1, "action": "other",
                                  "minion": "Platinum Protocol"}]),
    ("1 bleed Victoria Ash =1 !unlocked", [{"type": "action.declare", "seat": 1, "action": "bleed",
                                           "minion": "Victoria Ash", "amount": 1, "locked": False}]),
    ("1 +Conditioning :dom =+2; 1 total =3",
     [{"type": "card.play", "seat": 1, "card": "Conditioning", "discipline": "dom", "bleed_change": 2},
      {"type": "bleed.total", "seat": 1, "amount": 3}]),
    ("3 vote 2 against Modius", [{"type": "vote", "seat": 3, "votes": 2, "side": "against",
                                  "vampire": "Modius"}]),
    ("1 terms", [{"type": "referendum.terms", "seat": 1, "terms": "as announced"}]),
    ("3 wait ~unlock +Homunculus", [{"type": "interrupt", "seat": 3, "window": "unlock",
                                     "card": "Homunculus"}]),
    ("3 cancel +Direct Intervention ^Govern the Unaligned",
     [{"type": "cancel", "seat": 3, "card": "Direct Intervention",
       "target_card": "Govern the Unaligned"}]),
    ("1 skip ~range", [{"type": "shortcut", "seat": 1, "to": "range"}]),
    ("1 strike hand strike =1; 2 strike dodge =0; 1 nopress",
     [{"type": "strike", "seat": 1, "strike": "hand strike", "damage": 1},
      {"type": "strike", "seat": 2, "strike": "dodge", "damage": 0},
      {"type": "press", "seat": 1, "press": "none"}]),
    ("1 influence; 1 transfer =4 Alice Chen; 1 discard; 1 end",
     [{"type": "phase", "seat": 1, "phase": "influence"},
      {"type": "transfer", "seat": 1, "amount": 4, "minion": "Alice Chen"},
      {"type": "discard", "seat": 1}, {"type": "turn.end", "seat": 1}]),
    ("3 shout \"I won't let you\"", [{"type": "talk", "seat": 3, "kind": "raised-voice",
                                     "text": "I won't let you"}]),
    ("time extend =2 ruling on Deflection", [{"type": "time.extend", "minutes": 2,
                                              "reason": "ruling on Deflection"}]),
    ("time call", [{"type": "time.call"}]),
    ("undo #4", [{"type": "retract", "target": 4}]),
    ("2 sync minion", [{"type": "sync", "seat": 2, "phase": "minion"}]),
])
def test_lines(line, events):
    assert parse_line(line) == events


def test_undo_defaults_to_the_last_event():
    assert parse_line("undo", last_seq=12) == [{"type": "retract", "target": 12}]


@pytest.mark.parametrize("line, words", [
    ("", "empty"), ("9 go", "out of range"), ("1 fly", "unknown verb"), ("1 bleed =x", "not a number"),
    ("1 wait ~later", "unknown window"), ("1", "verb is missing"), ("undo", "nothing to undo"),
    ("time extend", "minutes"), ('1 note "open', "quote"), ("1 phase lunch", "phase needs"),
])
def test_errors(line, words):
    result = parse_line(line)
    assert isinstance(result, ParseError) and words in result.message


@pytest.mark.parametrize("digit", ["²", "٣"])  # str.isdigit() is true for both; int("²") raises
@pytest.mark.parametrize("line, words", [
    ("{d} go", "unknown verb"), ("1 bleed Modius *{d}", "not a stealth number"),
    ("undo #{d}", "not an event number"), ("1 bleed Modius ={d}", "not a number"),
    ("1 bleed Modius =+{d}", "not a number"),
])
def test_numbers_are_ascii_digits_only(digit, line, words):
    result = parse_line(line.format(d=digit))
    assert isinstance(result, ParseError) and words in result.message


@pytest.mark.parametrize("digit", ["²", "٣"])
def test_other_digits_are_words_not_numbers(digit):
    assert parse_line(f"1 total {digit}") == [{"type": "bleed.total", "seat": 1}]
    assert parse_line(f"3 vote {digit} for") == [{"type": "vote", "seat": 3, "side": "for", "vampire": digit}]
    assert parse_line(f"1 bleed Modius @{digit}")[0]["target"] == digit
    assert parse_line(f"1 +Card x{digit}")[0] == {"type": "card.play", "seat": 1, "card": f"Card x{digit}"}
