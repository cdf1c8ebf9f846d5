"""The nearest phrasing (`judgekit.rules.phrasings`): a question that says nearly what one of
an entry's phrasings says re-orders the rules' first entries; the scores keep their places."""
import math

import pytest

from judgekit.offline.search_index import build_offline_index, decode_ids
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
    idf = {st: math.log(1 + 100 / df) for st, df in {"draft": 10, "pick": 5, "timer": 1}.items()}
    # the first phrasing holds "pick" of the question's only word that counts
    assert phrasings.nearness("a", asked) == pytest.approx(idf["pick"] / sum(idf.values()))
    assert phrasings.nearness("a", Asked([group("choose", 3.0)])) == 0.0


def test_a_group_gives_a_phrasing_the_stems_of_its_first_alternative_held(phrasings):
    # "draft" and the synonym "pick" both held by the first phrasing: the typed word first
    # gives "draft" alone ("pick" is not counted held), the synonym first gives "pick" alone
    idf = {st: math.log(1 + 100 / df) for st, df in {"draft": 10, "pick": 5, "timer": 1}.items()}
    whole = sum(idf.values())
    typed_first = Asked([Group("draft", {("draft",): 1.0, ("pick",): 0.8}, 2.0)])
    synonym_first = Asked([Group("pick", {("pick",): 1.0, ("draft",): 0.8}, 2.0)])
    assert phrasings.nearness("a", typed_first) == pytest.approx(idf["draft"] / whole)
    assert phrasings.nearness("a", synonym_first) == pytest.approx(idf["pick"] / whole)


def test_a_question_of_only_question_words_keeps_the_order(service):
    rules = service.search.rules
    ranked = [(2.0, "tournament-rules/7.5.3", 0.5, 2.0), (1.0, "tournament-rules/7.7", 0.5, 1.0)]
    groups = [Group("how", {("how",): 1.0}, 0.1, factor=0.2)]
    assert rules._nearest_first(ranked, groups) is ranked


def test_the_offline_index_ships_the_phrasings_the_server_reads(service):
    """The rules' part packs each entry's phrasings (docnum deltas, counts, lengths, stems'
    places) and the stems' idf: unpacked, they are the server's, entry by entry."""
    rules = service.search.rules
    parts = build_offline_index(service.search)["parts"]
    shipped = parts["rules"]
    ids, names, idf = decode_ids(shipped["phrasings"]), shipped["phrasing_stems"], shipped["phrasing_idf"]
    got, i, doc = {}, 0, 0
    while i < len(ids):
        doc += ids[i]
        n, i = ids[i + 1], i + 2
        got[doc] = []
        for _ in range(n):
            got[doc].append(tuple(names[k] for k in ids[i + 1:i + 1 + ids[i]]))
            i += 1 + ids[i]
    keys = rules.postings.keys
    assert len(got) == len(rules.entries) > 150      # every rules entry has questions
    for d, phrasings in got.items():
        assert phrasings == rules.phrasings.of(keys[d])
    assert idf == [rules.phrasings.idf(st) for st in names]
    assert "phrasings" not in parts["cards"] and parts["cards"]["phrasing_factor"] == 0.0


@pytest.fixture
def service(app):
    return app.extensions["rules"]


@pytest.mark.parametrize("query, section", [
    # (since 6 Dec 2026 "my booster only had 10 cards" finds 7.2.5 by its questions' "10"
    # alone, `index_store.entry_numbers`)
    ("can the organizer play in his own tourny", "tournament-rules/2.9"),
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
