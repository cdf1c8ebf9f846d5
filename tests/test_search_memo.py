"""What the search keeps from one query to the next (a query's words, each word's
alternatives and weight, the card names one typo away) changes how fast it answers, never
what: the answers to a set of queries are the same from a search that has just opened and
from one that has answered many others first, and the same in any order."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from judgekit.rules.card_ranking import Search
from judgekit.rules.service import search_results

pytestmark = pytest.mark.shared_app  # its tests only read: the session's one app (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]


def questions() -> list[str]:
    out = []
    for name in ("search_queries", "search_questions", "search_cards"):
        for line in (ROOT / "tests" / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                out.append(line.split("\t")[0].strip())
    return out


def typed(query: str) -> list[str]:
    """The search box's requests while the query is typed (from two letters)."""
    return list(dict.fromkeys(query[:end].strip() for end in range(2, len(query) + 1)))


def test_answers_do_not_depend_on_the_queries_before(app):
    service = app.extensions["rules"]
    stamp = service.search.stamp
    rng = random.Random(7)
    sample = rng.sample(questions(), 40)
    # words shared across queries, typed prefix by prefix: the memos fill and are reused
    # (Capitals, a typo, a number, a card named with a typo among them)
    sample += ["What counts as a game WIN", "can I TO my prey", "withdrawl vp", "91 library cards",
               "direct intervension", "theo bel"]
    asked = [state for q in sample for state in typed(q)]
    fresh = Search.open(service.corpus, app.config["INDEX_DIR"], stamp)
    expected = {q: search_results(fresh, q, 12) for q in asked}   # in typing order
    other = Search.open(service.corpus, app.config["INDEX_DIR"], stamp)
    shuffled = asked[:]
    rng.shuffle(shuffled)
    for q in shuffled:                                            # another order, twice over
        assert search_results(other, q, 12) == expected[q], q
    for q in reversed(asked):
        assert search_results(other, q, 12) == expected[q], q


def test_the_api_json_is_the_payload(app):
    """`search_json` (the fast path's body, kept with the answer) says what `search_payload`
    says, accents, quotes, marks, card names, weak answers and sub-questions included."""
    import json

    service = app.extensions["rules"]
    sample = questions()[::3] + ["Théo Bell", 'the "direct intervention" card', "3.7.2", "vp", "à <b>",
                                  "deflection", "Anarch Revolt", "tp four players", "what happens if",
                                  "my mate scooped 1) is it a draw 2) who gets his vp"]
    for q in sample:
        for limit in (1, 12, 50):
            got = json.loads(service.search_json(q, limit))
            expected = service.search_payload(q, limit)
            assert {**got, "took_ms": 0} == {**expected, "took_ms": 0}, (q, limit)
