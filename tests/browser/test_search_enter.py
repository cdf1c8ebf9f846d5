"""Enter in the home search box on a slow connection: it must answer the words in the box,
never open the first result of the previous query still on screen (QA: "proxy", then
"deck registration" + Enter before the new results came opened 4.5 Proxy Cards)."""
from __future__ import annotations

import re

from playwright.sync_api import expect


def test_enter_before_the_new_results_arrive_searches_the_new_words(page, live_server):
    page.goto(live_server + "/")
    box = page.locator("#q")
    box.fill("proxy")
    expect(page.locator("#live-results li a").first).to_contain_text("Proxy")

    held = []   # the next query's answer is held back, as on a slow venue Wi-Fi
    page.route(re.compile(r".*/api/search\?.*deck.*"), lambda route: held.append(route))
    with page.expect_request(re.compile(r".*/api/search\?.*deck.*")):
        box.fill("deck registration")
    # the old results are still there, dimmed and marked busy
    expect(page.locator("#live-results li a").first).to_contain_text("Proxy")
    expect(page.locator("#live-results")).to_have_attribute("aria-busy", "true")
    expect(page.locator("#live-results")).to_have_css("opacity", "0.55")
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/search\?q=deck(\+|%20)registration$"))
    expect(page.locator(".search-results li a").first).to_contain_text("Deck Registration")
    for route in held:
        route.abort()


def test_enter_opens_the_first_result_once_it_answers_the_box(page, live_server):
    page.goto(live_server + "/")
    page.locator("#q").fill("deck registration")
    first = page.locator("#live-results li a").first
    expect(first).to_contain_text("Deck Registration")
    expect(page.locator("#live-results")).to_have_attribute("aria-busy", "false")
    href = first.get_attribute("href")
    page.locator("#q").press("Enter")
    expect(page).to_have_url(re.compile(re.escape(href.split("#")[0])))


def test_enter_on_a_weak_answer_searches_the_words_typed_not_a_guess_nor_a_chip(page, live_server):
    """A weak answer has the rules' words to try before its results ("spectator", "outside
    assistance"): Enter must neither open that chip's search (the first link on screen) nor
    the closest section as if it answered; it shows every result with the weak notice."""
    page.goto(live_server + "/")
    page.locator("#q").fill("kibitz from the rail")
    expect(page.locator("#live-results .search-weak")).to_be_visible()
    expect(page.locator("#live-results [data-try]").first).to_be_visible()
    expect(page.locator("#live-results")).to_have_attribute("aria-busy", "false")
    page.locator("#q").press("Enter")
    expect(page).to_have_url(re.compile(r"/search\?q=kibitz(\+|%20)from(\+|%20)the(\+|%20)rail$"))
    expect(page.locator(".search-weak")).to_be_visible()
    expect(page.locator(".search-results li a").first).to_contain_text("Spectator")


def test_the_count_reads_as_the_best_results_and_a_kept_answer_shows_no_zero_time(page, live_server):
    """A walk-through read "12 results" as all there is, and "0.0 ms" (an answer the server
    kept from an earlier asking) as a broken clock, then "asked before" as a riddle: a kept
    answer shows no time."""
    page.goto(live_server + "/")
    box = page.locator("#q")
    meta = page.locator("#live-results .search-meta")
    box.fill("seating the final table")
    expect(meta).to_contain_text(re.compile(r"^The best 12 results · [\d.]+ ms$"))
    box.fill("proxy")
    expect(page.locator("#live-results li a").first).to_contain_text("Proxy")
    box.fill("seating the final table")      # the same words again: the server's kept answer
    expect(meta).to_have_text("The best 12 results")
    page.goto(live_server + "/search?q=seating+the+final+table")     # the page asks for 25
    expect(page.locator(".search-meta").first).to_contain_text(re.compile(r"· [\d.]+ ms$"))
    page.reload()
    expect(page.locator(".search-meta").first).to_have_text("Results for “seating the final table”")


def test_enter_in_an_empty_box_stays_on_the_home_page(page, live_server):
    """Enter with nothing typed went to an empty /search page (a walk-through)."""
    page.goto(live_server + "/")
    page.locator("#q").press("Enter")
    page.locator("#q").fill("x")             # the page is still the home page, its box in use
    expect(page).to_have_url(re.compile(r"/(\?q=x)?$"))
    expect(page.locator("#search-help")).to_contain_text("Enter opens the first result")


def test_the_home_page_lists_results_in_the_rankings_order(page, live_server):
    """Results are headed by document run by run, in the API's order (grouped by document, a
    card ranked first pulled the other cards above the guidelines ranked second and third)."""
    q = "wwef does it work if im not the prey"
    api = page.request.get(live_server + "/api/search", params={"q": q, "limit": "12"}).json()["results"]
    page.goto(live_server + "/")
    page.locator("#q").fill(q)
    titles = page.locator("#live-results li .title")
    expect(titles).to_have_count(len(api))
    expect(titles).to_have_text([r["title"] for r in api])


def test_on_a_phone_a_snippet_is_cut_to_four_lines(page, live_server):
    """Six-line snippets left two results above the fold on a phone (a walk-through)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server + "/")
    page.locator("#q").fill("proxy cards")
    snippet = page.locator("#live-results .snippet").first
    expect(snippet).to_have_css("-webkit-line-clamp", "4")
    page.set_viewport_size({"width": 1200, "height": 900})
    expect(snippet).to_have_css("-webkit-line-clamp", "none")
