"""`judgekit publish DIR` in a browser: the full copy served by a plain static file server
(Python's http.server, no judgekit code), searched, a card and a rule opened, then the
network cut: the search, the rule and the card still work from the installed copy."""
from __future__ import annotations

import functools
import http.server
import re
import threading

import pytest
from playwright.sync_api import expect

BASE = "/judgekit/"


@pytest.fixture(scope="module")
def published(tmp_path_factory, shared_index):
    from judgekit import create_app
    from judgekit.offline.publish import publish, site_config
    app = create_app({"INSTANCE": tmp_path_factory.mktemp("publish-instance"),
                      "INDEX_DIR": str(shared_index)})
    app.config["STATIC_SITE"] = site_config(BASE, edition="Rules 2025", cards="krcg 5.14")
    root = tmp_path_factory.mktemp("static-host")
    done = publish(app, root / "judgekit", BASE)   # served at /judgekit/, as a project page
    return root, done


@pytest.fixture(scope="module")
def static_host(published):
    root, _ = published
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):   # keep the test output readable
        pass


def test_the_full_copy_has_no_dead_link(published):
    _, done = published
    assert done.pages > 4500 and done.precached > 400
    assert done.dead_links == []


@pytest.mark.service_worker
def test_search_a_card_and_a_rule_then_offline(page, static_host):
    home = static_host + BASE
    page.goto(home)
    # the copy installs itself: the badge shows the saved copy
    page.wait_for_function(
        "() => document.querySelector('[data-offline-badge]').classList.contains('is-saved')", timeout=90_000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10_000)
    expect(page.locator("footer .site-built")).to_contain_text("built")

    # search on a static host: runs on the device, links stay under the base path
    page.fill("#q", "withdraw vp")
    first = page.locator("#live-results li a").first
    expect(first).to_have_attribute("href", re.compile(r"^/judgekit/rules/tournament-rules/3\.7\.2/"))
    first.click()
    expect(page.locator("h1, h2").first).to_contain_text("3.7.2")

    # a card found by the search box, then its rulings, with their sources
    page.goto(home)
    page.fill("#q", "deflection")
    first = page.locator("#live-results li a").first
    expect(first).to_have_attribute("href", re.compile(r"^/judgekit/cards/100518/?$"))
    first.click()
    expect(page.locator("h1")).to_contain_text("Deflection")
    expect(page.locator(".ruling .source").first).to_have_attribute("href", re.compile(r"^https://"))
    page.locator(".ruling-group").first.click()
    expect(page.locator("h1")).to_have_text("Change the target of a bleed")
    page.goto(home + "cards/100518/")
    expect(page.locator("h1")).to_contain_text("Deflection")

    # offline: the search, a saved rule and the card opened before still work
    page.context.set_offline(True)
    page.goto(home + "?q=sleeves")
    expect(page.locator("#live-results .search-meta")).to_contain_text("offline")
    expect(page.locator("#live-results li a").first).to_have_attribute("href", re.compile(r"^/judgekit/rules/"))
    page.goto(home + "rules/tournament-rules/4.6/")
    expect(page.locator("h1, h2").first).to_contain_text("4.6")
    page.goto(home + "cards/100518/")
    expect(page.locator("h1")).to_contain_text("Deflection")
    # a card question searched offline: the card first, under the base path
    page.goto(home + "?q=is+it+too+late+for+direct+intervention")
    expect(page.locator("#live-results .search-meta")).to_contain_text("offline")
    expect(page.locator("#live-results li a").first).to_have_attribute(
        "href", re.compile(r"^/judgekit/cards/100545/?$"))
    # a card never opened: drawn on the device from the cards' data
    page.goto(home + "cards/100545/")
    expect(page.locator("h1")).to_contain_text("Direct Intervention")
    expect(page.locator("[data-shell-note]")).to_be_visible()
    expect(page.locator(".ruling-group").first).to_have_attribute("href", re.compile(r"^/judgekit/cards/groups/G"))
    page.goto(home + "offline/")
    expect(page.locator("[data-offline-net]")).to_contain_text("offline")
    expect(page.locator("[data-site-built]")).to_contain_text("published")
    page.context.set_offline(False)


def test_a_trainer_session_runs_without_a_server(page, static_host):
    page.goto(static_host + BASE + "trainer/")
    page.get_by_role("button", name="Start a session of 10").click()
    expect(page.locator(".tr-count")).to_have_text("Question 1 of 10")
    for n in range(1, 11):
        expect(page.locator(".tr-count")).to_have_text(f"Question {n} of 10")
        page.locator("a.tr-choice").first.click()
        expect(page.locator("#result .tr-verdict")).to_be_visible()
        page.locator("[data-session-next]").click()
    expect(page.locator("[data-site-session] h1")).to_have_text(re.compile(r"\d+ of 10 right"))
    expect(page.locator("[data-site-session] li")).to_have_count(10)
