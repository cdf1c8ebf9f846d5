"""What the search says about its answer (judgekit/rules/answer.py): a guess is marked as
one, the rules' words for the everyday words typed are offered, long pasted questions are
answered part by part, and bad input gets an honest "no match" or a 400, never a 500."""
from __future__ import annotations

import pytest

from judgekit.rules.answer import WEAK_COVERAGE, split_questions, suggestions
from judgekit.rules.query import MAX_QUERY

pytestmark = pytest.mark.shared_app  # these tests only read: they share one app (tests/conftest.py)


@pytest.fixture
def service(app):
    return app.extensions["rules"]


def api(client, q, **extra):
    return client.get("/api/search", query_string={"q": q, **extra})


@pytest.mark.parametrize("q", ["what happens if", "can i", "the and of it", "🧛🧛🧛", "מה זה", "؟؟",
                               "\u202e\u200b", "zzzzqqq xxyyzz", "<script>", "hello", "thanks!"])
def test_filler_emoji_and_unknown_words_are_an_honest_no_match(client, q):
    r = api(client, q)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["match"] == "none" and body["results"] == [] and body["parts"] == []


@pytest.mark.parametrize("q, status", [("", 400), ("   ", 400), ("x" * 100_000, 400)])
def test_empty_and_huge_queries_are_refused_with_a_reason(client, q, status):
    r = api(client, q)
    assert r.status_code == status and r.is_json
    assert r.get_json()["error"]


def test_a_word_no_part_knows_loses_only_an_ending(service):
    """"script" is in no entry: it is not cut to the cards' "scry" (before, "<script>" was
    answered with the cards named "Scry…" as a good answer), while "stealthier" and "fiver"
    still find "stealth" and "five" (`ENDINGS`)."""
    rules = service.search.rules
    assert rules._unknown("script", 0) and rules._extensions("script") == []
    assert "stealth" in rules._extensions("stealthier") and "five" in rules._extensions("fiver")


def test_a_good_answer_says_so(client):
    body = api(client, "vp when time runs out").get_json()
    assert body["match"] == "good" and body["suggestions"] == []
    assert body["results"][0]["section"] == "3.7.2"


@pytest.mark.parametrize("q", ["3.7.2", "deflection"])
def test_a_named_section_or_card_is_a_good_answer(client, q):
    assert api(client, q).get_json()["match"] == "good"


def test_a_question_no_entry_holds_is_marked_weak_with_the_rules_words_to_try(service):
    """"ditched" is nobody's rule word: the closest sections are shown, marked as a guess,
    and the rules' words for it ("Early Departure") are offered as searches, which answer."""
    body = service.search_payload("opponent ditched the game half vp")
    assert body["match"] == "weak" and body["results"]
    assert body["results"][0]["score"] < 1000
    assert "Early Departure" in body["suggestions"]
    again = service.search_payload("Early Departure")
    assert again["match"] == "good" and again["results"][0]["section"] == "3.3.2"


def test_weak_means_the_first_result_holds_little_of_the_question(service):
    """The flag follows the first result's coverage (`WEAK_COVERAGE`), as the browser's."""
    hits, _ = service.search.search("opponent ditched the game half vp", 3)
    assert hits[0].coverage < WEAK_COVERAGE
    hits, _ = service.search.search("vp when time runs out", 3)
    assert hits[0].coverage >= WEAK_COVERAGE


def test_synonyms_give_the_rules_words_for_a_judges_word(service):
    body = service.search_payload("kibitz from the rail")
    assert body["match"] == "weak"
    assert "spectator" in body["suggestions"]


def test_a_weak_answer_led_by_a_card_offers_no_rules_words(service):
    """A question describing a card holds the card's words and the ruling's, so it is weak
    as often as not; the rules' sections are no help to it, and none is offered (a rules
    question with a weak answer still gets them, above)."""
    body = service.search_payload("the necromancy vampire who hunts by burning two matching cards from "
                                  "his prey's ash heap: can he do that hunt twice in one turn if he unlocks?")
    assert body["match"] == "weak" and body["results"][0]["doc"] == "cards"
    assert body["suggestions"] == []
    rules = service.search.rules
    assert suggestions(rules, "the necromancy vampire who hunts by burning two matching cards from his "
                              "prey's ash heap: can he do that hunt twice in one turn if he unlocks?")


@pytest.mark.parametrize("text", [
    "judge, his minion burned my location and now he says he controls it. is that right?",
    "my vamp got burned and my opponent gained control of my location, he says thats fine",
])
def test_the_games_words_get_no_rules_section_to_try(service, text):
    """"burn", "control", "gain", "location" are the cards' words (hundreds of entries hold
    them, `GAME_WORD_ENTRIES`), not a player's everyday words for a rule: the sections whose
    questions happen to use them ("Pre-Game Procedure" for "burn") are not offered, while a
    player's everyday word still gets its section ("ditched": "Early Departure")."""
    rules, cards = service.search.rules, service.search.cards
    titles = [t for t in suggestions(rules, text) if t[0].isupper()]     # read as everyday words
    assert "Pre-Game Procedure" in titles
    assert not set(titles) & set(suggestions(rules, text, cards))     # ("vamp": "vampire" stays)
    assert "Early Departure" in suggestions(rules, "opponent ditched the game half vp", cards)


def test_numbered_sub_questions_are_answered_one_by_one(service):
    text = ("Hi judges, two things from last night's game. 1) My prey scooped when he was down to 2 pool, "
            "is that a concession or does he count as ousted? 2) A spectator behind me kept giving my "
            "opponent advice, what can the judge do?")
    body = service.search_payload(text, 10)
    assert [p["question"][:12] for p in body["parts"]] == ["My prey scoo", "A spectator "]
    firsts = [p["results"][0]["section"] for p in body["parts"]]
    assert firsts[0] == "3.5"
    assert firsts[1] in ("2.4", "5.1")
    # the best answer to each part leads the list
    assert [r["section"] for r in body["results"][:2]] == firsts


@pytest.mark.parametrize("text, parts", [
    ("1) a 2) b", ["a", "b"]),
    ("a) can i bleed for 3 b) can the prey block", ["can i bleed for 3", "can the prey block"]),
    ("1. first one\n2. second one\n3. third", ["first one", "second one", "third"]),
    ("what about table 3) or table 4", []),      # one number is not a list
    ("section 3.7.2 and 4.5", []),
])
def test_split_questions(text, parts):
    assert split_questions(text) == parts


def test_a_long_pasted_message_is_answered_on_its_informative_words(client):
    text = ("Hello, I hope you are well and that this is the right place to ask. " * 12 +
            "At our event a player showed up forty minutes late to his table in round two. ")
    assert 500 < len(text) <= MAX_QUERY
    body = api(client, text).get_json()
    assert body["results"] and body["results"][0]["doc"] == "tournament-rules"
    assert body["results"][0]["section"].startswith("3.3")    # tardiness


def test_the_search_page_marks_a_guess_and_offers_the_rules_words(client):
    page = client.get("/search", query_string={"q": "opponent ditched the game half vp"}).get_data(as_text=True)
    assert "No section matches all of your words" in page
    assert 'data-try="Early Departure"' in page
    page = client.get("/search", query_string={"q": "what happens if"}).get_data(as_text=True)
    assert "Nothing in the rules or the cards answers" in page
    good = client.get("/search", query_string={"q": "vp when time runs out"}).get_data(as_text=True)
    assert "No section matches all of your words" not in good


def test_the_page_and_the_cli_refuse_a_huge_query_in_words(client):
    r = client.get("/search", query_string={"q": "y" * (MAX_QUERY + 1)})
    assert r.status_code == 400 and "too long" in r.get_data(as_text=True)


@pytest.mark.parametrize("q", ["<script>alert(1)</script>", "%00", "what does kridd do"])
def test_a_first_answer_holding_only_numbers_and_question_words_is_weak(client, q):
    """A number many sections state ("1", "0"), or the question's words ("what", "do"), may
    be most of a question's weight when its other words are in no entry: the first result
    then holds none of its words that name something, and is shown as a guess, not as an
    answer."""
    body = api(client, q).get_json()
    assert body["match"] == "weak" and body["results"]


def test_a_number_beside_a_word_the_answer_holds_stays_a_good_answer(client):
    body = api(client, "90 cards").get_json()
    assert body["match"] == "good" and body["results"][0]["section"] == "6.2"
