"""Decklists, the pure part: reading pasted lists (krcg's parser), the construction rules."""
from __future__ import annotations

import pytest

from judgekit.decks import parse as parse_mod
from judgekit.decks import validate as validate_mod
from tests import decks_lists as L


def codes(text, mode="constructed"):
    return [p["code"] for p in validate_mod.validate(parse_mod.parse(text), mode)]


@pytest.mark.parametrize("text", [L.TWDA, L.JOL, L.LACKEY, L.legal()])
def test_exports_are_read_and_legal(text):
    p = parse_mod.parse(text)
    assert p.error is None and p.unknown == []
    assert p.crypt_count == 12 and p.library_count == 60
    assert validate_mod.validate(p) == []


def test_twda_crypt_lines_keep_their_group():
    p = parse_mod.parse(L.TWDA)
    names = {e.name for e in p.entries if e.kind == "crypt"}
    assert names == {"Nathan Turner (G6)", "Theo Bell (G6)"}


def test_each_problem_names_its_rule():
    problems = validate_mod.validate(parse_mod.parse(L.SHORT_AND_BANNED))
    by_code = {p["code"]: p["rule"] for p in problems}
    assert by_code == {"banned-card": "tournament-rules/4.1.1", "library-too-small": "tournament-rules/6.2",
                       "crypt-too-small": "tournament-rules/6.2"}


def test_library_over_ninety():
    text = "12x Nathan Turner\n91x Bum's Rush"
    assert codes(text) == ["library-too-big"]


def test_crypt_grouping_rule():
    problems = validate_mod.validate(parse_mod.parse(L.GROUPS))
    assert [p["code"] for p in problems] == ["crypt-groups"]
    assert problems[0]["params"]["groups"] == [1, 6] and problems[0]["rule"] == "rulebook"


def test_unknown_card_offers_nearest_names():
    p = parse_mod.parse("12x Nathan Turner\n57x Bum's Rush\n3x Govern the Unaligned Foo Bar Baz")
    assert [u["line"] for u in p.unknown] == [3]
    assert "Govern the Unaligned" in p.unknown[0]["suggestions"]
    assert codes(L.UNKNOWN)[0] == "unknown-card"


def test_limited_registers_the_cards_received_without_sizes():
    assert codes(L.SHORT_AND_BANNED, "limited") == ["banned-card"]
    assert codes(L.GROUPS, "limited") == []


@pytest.mark.parametrize("text, code", [("", "empty"), ("hello\nworld", "unknown-format"),
                                        ("12x Nathan Turner\n" * 10_000, "too-long"), (None, "empty")])
def test_bad_input_is_a_value_not_an_exception(text, code):
    p = parse_mod.parse(text)
    assert p.error["code"] == code and p.entries == []


def test_compare_names_what_differs():
    reg = [{"name": "Bum's Rush", "count": 40}, {"name": "Blood Doll", "count": 20}]
    seen = [{"name": "Bum's Rush", "count": 38}, {"name": "Blood Doll", "count": 20}, {"name": "Deflection", "count": 2}]
    assert validate_mod.compare(reg, seen) == [{"name": "Bum's Rush", "registered": 40, "seen": 38},
                                               {"name": "Deflection", "registered": 0, "seen": 2}]


def test_twda_export_reads_back_the_same_cards():
    p = parse_mod.parse(L.TWDA)
    text = parse_mod.twda_text([e.to_dict() for e in p.entries], player="Ann", event="Test Cup")
    assert text.startswith("Test Cup") and "Crypt (12 cards" in text and "Library (60 cards)" in text
    again = parse_mod.parse(text)
    assert sorted((e.id, e.count) for e in again.entries) == sorted((e.id, e.count) for e in p.entries)


@pytest.mark.parametrize("text", [L.TWDA, L.JOL, L.LACKEY, L.GROUPS, L.SHORT_AND_BANNED])
def test_the_quick_reading_agrees_with_krcgs_parser(text):
    quick = parse_mod.parse(text)
    deck = parse_mod._krcg_read(text)
    assert sorted((e.id, e.count) for e in quick.entries) == sorted((c.id, n) for c, n in deck.items())


def test_lines_in_other_shapes_go_to_krcg():
    p = parse_mod.parse("Crypt\n12x Nathan Turner\nLibrary\nBum's Rush x60")
    assert (p.crypt_count, p.library_count) == (12, 60)


def test_without_krcgs_card_lists_a_list_is_refused_not_a_crash(monkeypatch):
    monkeypatch.setattr(parse_mod, "_loaded", False)
    monkeypatch.setattr(parse_mod.importlib.metadata, "files", lambda name: [])
    from krcg.vtes import VTES
    monkeypatch.setattr(type(VTES), "__bool__", lambda self: False)
    p = parse_mod.parse("12x Nathan Turner")
    assert p.error["code"] == "no-card-list" and "reinstall krcg" in p.error["message"]
