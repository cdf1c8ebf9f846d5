"""The search box on a phone says when its answer is a guess, offers the rules' words as
one-tap searches and answers a pasted message's numbered questions one by one — online and,
with the same words, from the offline copy."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_offline import wait_until_saved

WEAK = "opponent ditched the game half vp"
PASTED = ("Hi judges, two things from last night's game. 1) My prey scooped when he was down to 2 pool, "
          "is that a concession or does he count as ousted? 2) A spectator behind me kept giving my "
          "opponent advice, what can the judge do?")


def weak_then_tap(phone):
    box = phone.locator("#q")
    box.fill(WEAK)
    results = phone.locator("#live-results")
    expect(results.locator(".search-weak")).to_contain_text("No section matches all of your words")
    chip = results.locator("[data-try='Early Departure']")
    expect(chip).to_be_visible()
    chip.click()                                          # one tap: the rules' words, searched here
    expect(box).to_have_value("Early Departure")
    expect(results.locator("li a").first).to_contain_text("3.3.2")
    expect(results.locator(".search-weak")).to_have_count(0)


def test_a_guess_is_marked_and_the_rules_words_are_one_tap_away(phone, live_server, shot):
    phone.goto(live_server + "/")
    weak_then_tap(phone)
    phone.locator("#q").fill(WEAK)
    expect(phone.locator("#live-results .search-weak")).to_be_visible()
    shot(phone, "search-weak-phone", full_page=False)


def test_filler_gets_an_honest_no_match_not_sections(phone, live_server):
    phone.goto(live_server + "/")
    phone.locator("#q").fill("what happens if")
    results = phone.locator("#live-results")
    expect(results.locator(".search-none")).to_contain_text("Nothing in the rules or the cards answers")
    expect(results.locator("li")).to_have_count(0)


def test_a_pasted_message_is_answered_question_by_question(phone, live_server, shot):
    phone.goto(live_server + "/")
    phone.locator("#q").fill(PASTED)
    parts = phone.locator("#live-results .search-parts li")
    expect(parts).to_have_count(2)
    expect(parts.nth(0).locator("a")).to_contain_text("3.5")
    expect(parts.nth(1).locator(".part-question")).to_contain_text("spectator")
    shot(phone, "search-parts-phone", full_page=False)


@pytest.mark.service_worker
def test_the_offline_copy_says_the_same(phone, live_server):
    phone.goto(live_server + "/")
    wait_until_saved(phone)
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("[data-offline-badge]")).to_contain_text("Offline")
    weak_then_tap(phone)
    expect(phone.locator("#live-results .search-meta")).to_contain_text("offline")
    phone.locator("#q").fill(PASTED)
    expect(phone.locator("#live-results .search-parts li")).to_have_count(2)
