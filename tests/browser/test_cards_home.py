"""A newcomer on `/` types a card's name or a question about it: the card comes first, under
"Cards & rulings", above the rules, and one tap opens its page with its rulings."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize("query, card_id, name, then", [
    # the name alone: the card's own rulings (here its group's) right under it
    ("deflection", "100518", "Deflection", "/cards/groups/G00106#r1"),
    # a question: the card first, and the guideline example that answers it
    ("is it too late for direct intervention", "100545", "Direct Intervention",
     "/rules/announcements/cancellation#cancellation-ex1"),
])
def test_a_card_question_on_home_gives_the_card_and_its_rulings(page, live_server, query, card_id, name, then):
    page.goto(live_server + "/")
    page.locator("#q").fill(query)
    results = page.locator("#live-results")
    expect(results).to_have_attribute("aria-busy", "false")
    expect(results.locator("section.group h2").first).to_have_text("Cards & rulings")
    first = results.locator("li a").first
    expect(first).to_have_attribute("href", f"/cards/{card_id}")
    expect(first).to_contain_text(name)
    if query == "deflection":     # the name alone: its rulings right under the card
        expect(results.locator("li a").nth(1)).to_have_attribute("href", then)
    expect(results.locator(f'li a[href="{then}"]')).to_have_count(1)
    first.click()
    expect(page.locator("h1")).to_contain_text(name)
    expect(page.locator("#h-rulings")).to_be_visible()
    expect(page.locator(".ruling .source").first).to_have_attribute("href", re.compile(r"^https://"))
