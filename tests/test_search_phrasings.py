"""The nearest phrasing (`judgekit.rules.phrasings`): a question that says nearly what one of
an entry's phrasings says re-orders the rules' first entries; the scores keep their places."""
import math

import pytest

from judgekit.rules.phrasings import Asked, Phrasings
from judgekit.rules.query import Group


def group(word: str, weight: float, *others: str) -> Group:
    alts = {(word,): 1.0}
    alts.update({(o,): 0.8 for o in others})
    return Group(word, alts, weight)


@pytest.fixture
def phrasings():
    # two entries in a part of 100: "a" with two phrasings, "b" with none
    df = {"draft": 10, "pick": 5, "timer": 1, "slow": 20}
    return Phrasings({"a": "draft pick timer\nhow slow is too slow"}, df, 100, frozenset({"how"}))


def test_a_phrasing_the_question_says_all_of_is_nearest(phrasings):
    asked = Asked([group("draft", 2.0), group("pick", 3.0), group("timer", 4.0)])
    assert phrasings.nearness("a", asked) == pytest.approx(1.0)
    assert phrasings.nearness("b", asked) == 0.0


def test_nearness_is_the_phrasing_share_held_times_the_root_of_the_question_share(phrasings):
    idf = {st: math.log(1 + 100 / df) for st, df in {"draft": 10, "pick": 5, "timer": 1}.items()}
    # the question holds "pick" of the first phrasing, and says one more word of its own
    asked = Asked([group("pick", 3.0), group("bleed", 1.0)])
    expected = idf["pick"] / sum(idf.values()) * math.sqrt(3.0 / 4.0)
    assert phrasings.nearness("a", asked) == pytest.approx(expected)


def test_a_group_is_held_by_a_synonym_and_question_words_count_for_nothing(phrasings):
    # "choose" stands for "pick" (an alternative); a question word (factor < 1) and a
    # number are left out of the question's weight
    asked = Asked([group("choose", 3.0, "pick"), Group("how", {("how",): 1.0}, 0.1, factor=0.2),
                   Group("5", {("5",): 1.0}, 2.0, number=5.0)])
    assert asked.total == 3.0
    assert 0.0 < phrasings.nearness("a", asked) < 1.0
    assert phrasings.nearness("a", Asked([group("choose", 3.0)])) == 0.0


@pytest.fixture
def service(app):
    return app.extensions["rules"]


@pytest.mark.parametrize("query, section", [
    ("booster draft ran out of time to pick a card", "tournament-rules/7.5.3"),
    ("how many people per draft pod", "tournament-rules/7.5.1"),
])
def test_the_nearest_phrasing_finds_what_the_words_alone_did_not(service, monkeypatch, query, section):
    def first3():
        hits, _ = service.search.search(query, limit=10)
        return [f"{h.entry.doc}/{h.entry.section}" for h in hits[:3]]

    assert section in first3()
    monkeypatch.setattr(service.search.rules, "phrasing_factor", 0.0)
    assert section not in first3()


def test_the_scores_keep_their_places(service, monkeypatch):
    """The merge with the cards compares the rules' scores: re-ordered, the n-th entry gets the
    n-th best score of the order before."""
    rules = service.search.rules
    query = "booster draft ran out of time to pick a card"
    hits, _ = rules.search(query, limit=10, snippets=False)
    monkeypatch.setattr(rules, "phrasing_factor", 0.0)
    before, _ = rules.search(query, limit=10, snippets=False)
    assert [h.entry.key for h in hits] != [h.entry.key for h in before]
    assert [h.score for h in hits] == [h.score for h in before]


def test_the_cards_part_has_no_phrasings(service):
    assert service.search.cards.phrasings is None
    assert service.search.rules.phrasings is not None
