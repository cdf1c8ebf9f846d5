"""The recorder links the cards it names: one tap from a log line, or from a finding on a
card, to the card's page and its rulings."""
from __future__ import annotations

from playwright.sync_api import expect

from helpers import line, recorder_game

SEATS = ["Ann", "Ben", "Cid", "Dee", "Eve"]


def new_game(live_app):
    return recorder_game(live_app, SEATS, label="Cards")


def test_a_log_line_and_a_finding_open_their_card(page, live_server, live_app):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    line(page, "1 start; 1 bleed catalina vega =1")
    finding = page.locator(".rec-f[data-code='misrepresented']")
    expect(finding).to_have_count(1)
    # the finding on Catalina Vega links her card, and so does the log line
    expect(finding.locator("a.rec-card")).to_have_attribute("href", "/cards/201540")
    entry = page.locator("#rec-log li", has=finding)
    # the line itself is a button (tap to correct): its card is a link beside it, not inside
    expect(entry.locator(".rec-sum a")).to_have_count(0)
    expect(entry.locator(":scope > .rec-meta a.rec-card")).to_have_text("Catalina Vega ›")
    entry.locator(":scope > .rec-meta a.rec-card").click()
    expect(page.locator("h1")).to_contain_text("Catalina Vega")
    expect(page.locator("#h-rulings")).to_be_visible()
