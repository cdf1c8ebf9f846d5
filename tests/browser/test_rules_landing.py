"""Landing on a paragraph or an example far below its heading (from a search result or a
shared link): the block names its section at its top, so the number can be quoted."""
from __future__ import annotations

import re

from playwright.sync_api import expect


def test_a_paragraph_landed_on_names_its_section(page, live_server, shot):
    page.goto(live_server + "/rules/tournament-rules/3.7.2#3.7.2-p3")
    target = page.locator("[id='3.7.2-p3']")
    cite = target.locator(".target-cite")
    expect(cite).to_have_count(1)
    expect(cite).to_have_text("3.7.2. Victory Point Scoring")
    expect(cite).to_be_in_viewport()
    expect(page.locator("h1")).not_to_be_in_viewport()   # the heading is off screen: hence the label
    shot(page, "section-landing-cite-phone", full_page=False)
    cite.click()
    expect(page).to_have_url(re.compile(r"#h-3\.7\.2$"))
    expect(page.locator("h1")).to_be_in_viewport()
    expect(page.locator(".target-cite")).to_have_count(0)     # only the block landed on carries it


def test_an_example_names_its_section_and_the_label_moves_with_the_hash(page, live_server):
    page.goto(live_server + "/rules/announcements/shortcuts#shortcuts-ex3")
    expect(page.locator("[id='shortcuts-ex3'] .target-cite")).to_have_text(re.compile(r"Shortcuts"))
    page.evaluate("location.hash = '#shortcuts-ex5'")
    expect(page.locator("[id='shortcuts-ex5'] .target-cite")).to_have_count(1)
    expect(page.locator(".target-cite")).to_have_count(1)
