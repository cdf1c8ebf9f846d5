"""The rules pages in a real browser: live search, landing on the anchor, copy links, 404."""
from __future__ import annotations

import re

from playwright.sync_api import expect


def test_typing_a_query_shows_results_and_opens_the_anchored_section(page, live_server, shot):
    page.goto(live_server + "/")
    box = page.locator("#q")
    expect(box).to_be_focused()  # the search box has focus on arrival
    box.type("vp withdraw", delay=30)
    first = page.locator("#live-results li a").first
    expect(first).to_contain_text("3.7.2")
    expect(page.locator("#live-results mark").first).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?q=vp(\+|%20)withdraw$"))  # the page is shareable
    shot(page, "home-search-phone", full_page=False)
    first.click()
    expect(page).to_have_url(re.compile(r"/rules/tournament-rules/3\.7\.2(#3\.7\.2-p\d+)?$"))
    expect(page.locator("h1")).to_contain_text("Victory Point Scoring")
    anchor = page.url.split("#", 1)[1] if "#" in page.url else "3.7.2"
    expect(page.locator(f"[id='{anchor}']")).to_be_in_viewport()
    shot(page, "section-3.7.2-phone", full_page=False)


def test_slash_focuses_search_and_section_numbers_go_straight_there(desktop_page, live_server):
    page = desktop_page
    page.goto(live_server + "/rules/tournament-rules/1.1")
    page.keyboard.press("/")
    expect(page.locator("#top-q")).to_be_focused()
    page.keyboard.type("4.9")
    page.keyboard.press("Enter")
    first = page.locator(".search-results li a").first
    expect(first).to_contain_text("4.9")
    expect(first).to_contain_text("Infinite Loops")


def test_copy_link_button_copies_the_block_url(desktop_page, live_server):
    page = desktop_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.goto(live_server + "/rules/announcements/shortcuts")
    example = page.locator("#shortcuts-ex3")
    expect(example).to_contain_text("Example 3")
    example.hover()
    example.locator(".copy-link").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == live_server + "/rules/announcements/shortcuts#shortcuts-ex3"


def test_unknown_section_offers_the_nearest(page, live_server, shot):
    response = page.goto(live_server + "/rules/tournament-rules/3.7.9")
    assert response.status == 404
    expect(page.locator("h1")).to_contain_text("No such section")
    expect(page.locator(".suggestions")).to_contain_text("3.7")
    shot(page, "404-phone", full_page=False)


def test_glossary_term_shows_its_definition_on_tap(page, live_server):
    page.goto(live_server + "/rules/tournament-rules/4.5")
    term = page.locator("a.term", has_text=re.compile("proxy card", re.I)).first
    term.tap()
    expect(page.locator(".term-pop")).to_contain_text("represent another card")
