"""The rules pages through the app's client: sections, links, 404s, reference, history."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.shared_app  # these tests only read: they share one app (tests/conftest.py)


def test_home_has_a_focused_search_box_and_both_tables_of_contents(client):
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'<input id="q"[^>]*autofocus', html)
    assert 'href="/rules/tournament-rules/3.7.2"' in html
    assert 'href="/rules/announcements/forbidden-shortcuts"' in html


def test_section_page_has_breadcrumbs_prev_next_and_copy_links(client):
    html = client.get("/rules/tournament-rules/3.7.2").get_data(as_text=True)
    assert "Victory Point Scoring" in html
    assert 'href="/rules/tournament-rules/3.7">3.7. Determining a Game Winner' in html  # crumb
    assert 'rel="prev" href="/rules/tournament-rules/3.7.1"' in html
    assert 'rel="next" href="/rules/tournament-rules/3.7.3"' in html
    assert 'data-copy-link="/rules/tournament-rules/3.7.2#3.7.2-p1"' in html
    assert 'id="3.7.2-p1"' in html
    assert "Black Chantry" in html  # the copyright line


def test_section_page_includes_its_subsections(client):
    html = client.get("/rules/tournament-rules/3.7").get_data(as_text=True)
    for sub in ("3.7.1", "3.7.5"):
        assert f'id="{sub}"' in html


def test_examples_are_addressable_and_marked(client):
    html = client.get("/rules/announcements/shortcuts").get_data(as_text=True)
    assert re.search(r'<div class="example block" id="shortcuts-ex3" role="note"', html)
    assert 'class="example-label">Example 3<' in html


def test_cross_references_become_links(client):
    html = client.get("/rules/tournament-rules/3.6").get_data(as_text=True)
    # "(see 3.7.2. Victory Point Scoring)"
    assert re.search(r'<a class="xref" href="/rules/tournament-rules/3.7.2"[^>]*>3.7.2. Victory Point Scoring</a>', html)
    html = client.get("/rules/announcements").get_data(as_text=True)
    # "(see Action declaration)"
    assert re.search(r'<a class="xref" href="/rules/announcements/action-declaration"[^>]*>Action declaration</a>', html)


def test_decimal_numbers_are_not_taken_for_sections(client):
    html = client.get("/rules/tournament-rules/3.7.4").get_data(as_text=True)
    assert "one-half" in html
    assert 'href="/rules/tournament-rules/1.5"' not in html


def test_glossary_terms_link_to_their_definition_with_it_attached(client):
    html = client.get("/rules/tournament-rules/4.5").get_data(as_text=True)
    m = re.search(r'<a class="term" href="/rules/tournament-rules/B#term-proxy-card" data-definition="([^"]+)"', html)
    assert m and "represent another card" in m.group(1)


def test_appendix_b_defines_terms_with_anchors(client):
    html = client.get("/rules/tournament-rules/B").get_data(as_text=True)
    assert 'id="term-public-information"' in html


@pytest.mark.parametrize("url, fragment", [
    ("/rules/tournament-rules/3.7.9", "3.7"),          # nearest existing parent
    ("/rules/tournament-rules/shortcuts", "Shortcuts"),  # words: searched
    ("/rules/announcements/shortcut", "Shortcuts"),     # close id
    ("/rules/tournament-rulez", "VEKN Tournament Rules"),
    ("/rules/tournament-rulez/3.7.2", "Victory Point Scoring"),
])
def test_unknown_addresses_are_404_pages_with_suggestions(client, url, fragment):
    r = client.get(url)
    assert r.status_code == 404
    html = r.get_data(as_text=True)
    assert 'class="suggestions"' in html and fragment in html
    assert "Traceback" not in html


def test_section_ids_are_forgiving(client):
    for sloppy, canonical in (("3.7.2.", "3.7.2"), ("a.2.1", "A.2.1"), ("3.7.2/", "3.7.2")):
        r = client.get(f"/rules/tournament-rules/{sloppy}")
        assert r.status_code == 302, sloppy
        assert r.headers["Location"].endswith(f"/rules/tournament-rules/{canonical}")


def test_reference_lines_link_to_their_sections(client):
    html = client.get("/reference").get_data(as_text=True)
    assert "60" in html and "48" in html and "table bye" in html
    for section in ("3.7.1", "3.7.2", "3.7.3", "3.1.1", "6.2", "7.2.2", "4.1.1", "3.1"):
        assert f'href="/rules/tournament-rules/{section}"' in html, section
    assert 'href="/rules/announcements/action-declaration"' in html
    assert "Succubus Club" in html          # banned list from the corpus
    assert re.search(r"<td>7</td><td>7</td><td>35</td><td>1</td>", html)  # recursion table from the corpus


def test_changed_sections_show_a_word_diff_against_older_editions(client):
    html = client.get("/rules/tournament-rules/3.1.5").get_data(as_text=True)
    assert "Changes since the 2007 edition" in html
    assert "<del>with fewer than 12 players" in html
    assert "<ins>that is neither a national championship" in html
    # the rule's own text comes first, what changed after it (a walk-through read the
    # boxes above the text as part of the rule)
    section = html.split('id="3.1.5"', 1)[1]
    assert section.index('<details class="changes">') > section.index("<p")


def test_history_page_lists_editions_and_changed_sections(client):
    html = client.get("/history").get_data(as_text=True)
    assert "2007" in html and "intermediate" in html.lower()
    assert 'href="/rules/tournament-rules/3.1.5"' in html


def test_old_edition_pages_are_marked_as_history(client):
    html = client.get("/rules/tournament-rules-2007/3.1.5").get_data(as_text=True)
    assert "History" in html and "fewer than 12 players" in html
    assert 'href="/rules/tournament-rules"' in html


def test_unknown_api_path_is_json_and_unknown_page_is_html(client):
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.get_json()["status"] == 404
    r = client.get("/nothing")
    assert r.status_code == 404 and "text/html" in r.content_type


def test_method_not_allowed_is_a_clean_405(client):
    r = client.post("/api/search", json={})
    assert r.status_code == 405
    assert r.get_json() == {"error": "This address does not accept that method.", "status": 405}


def test_api_body_that_is_not_json_is_a_415(client):
    r = client.post("/api/games", data="seats=a", content_type="text/plain")
    assert r.status_code == 415
    assert r.get_json()["error"].startswith("send JSON")


def test_the_slash_hint_is_marked_for_keyboards_only(client):
    """QA: "Press / anywhere to come back here" showed on phones; the stylesheet shows
    .kbd-hint only for (hover: hover) and (pointer: fine), and app.js names the key in the
    header box's placeholder on such screens only."""
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'<span class="kbd-hint">[^<]*Press <kbd>/</kbd> anywhere to come back here', html)
    html = client.get("/reference").get_data(as_text=True)
    assert 'placeholder="Rules &amp; cards"' in html and 'data-key-placeholder="Search rules &amp; cards  ( / )"' in html
    css = client.get("/static/app.css").get_data(as_text=True)
    assert re.search(r"\.kbd-hint\s*\{\s*display:\s*none", css)
    assert re.search(r"@media \(hover: hover\) and \(pointer: fine\)\s*\{\s*\.kbd-hint", css)


def test_an_echoed_query_can_wrap(client):
    """QA: a 300-character query without spaces made /search 3051 px wide."""
    long = "x" * 300
    html = client.get("/search?q=" + long).get_data(as_text=True)
    # (echoed at most 120 characters since 2 Dec 2026)
    assert f'<p class="query-echo search-none" role="status">Nothing in the rules or the cards answers “{long[:119]}…”' in html
    html = client.get("/search?q=vp+withdraw").get_data(as_text=True)
    assert 'Results for “<span class="query-echo">vp withdraw</span>”' in html
    css = client.get("/static/app.css").get_data(as_text=True)
    rule = re.search(r"([^}]*)\{\s*overflow-wrap:\s*anywhere", css).group(1)
    assert ".query-echo" in rule and ".search-meta" in rule and ".search-results" in rule


def test_copy_link_buttons_read_copied_not_hash_copied(client):
    """QA: the copied state read '#copied'; app.js now writes 'Copied ✓' (text and label),
    its words from the browser's catalog."""
    css = client.get("/static/app.css").get_data(as_text=True)
    assert 'content: " copied"' not in css
    js = client.get("/static/app.js").get_data(as_text=True)
    assert 'btn.textContent = t("app.copied")' in js and 'announce(t("app.link_copied"))' in js
    words = client.get("/static/i18n/en.json").get_json()
    assert words["app.copied"] == "Copied ✓" and words["app.link_copied"] == "Link copied"


def test_the_search_page_keeps_the_rankings_order_across_documents(client):
    """The page heads each run of one document's results and keeps the API's order: grouping
    every result of a document under its first put cards ranked past twentieth above the
    guideline ranked second (a phone walk-through, "wwef does it work if im not the prey")."""
    q = "wwef does it work if im not the prey"
    api = client.get("/api/search", query_string={"q": q, "limit": 25}).get_json()["results"]
    assert len({r["doc"] for r in api}) > 1
    html = client.get("/search", query_string={"q": q}).get_data(as_text=True)
    body = html.split('<div class="search-results">', 1)[1]
    links = re.findall(r'<li><a href="([^"]+)">', body)
    assert links == [r["url"].replace("&", "&amp;") for r in api]
    runs = [d for i, d in enumerate(r["doc"] for r in api) if i == 0 or api[i - 1]["doc"] != d]
    assert body.count('<section class="group">') == len(runs)


def test_a_pasted_message_is_echoed_short_on_the_search_page(client):
    """A 3,000-character message echoed whole in the heading put the answers eight screens
    down on a phone: the echo is cut at 120 characters."""
    q = "my vampire bleeds and the prey plays deflection, who picks the new target? " * 40
    html = client.get("/search", query_string={"q": q[:3000]}).get_data(as_text=True)
    echo = re.search(r'<span class="query-echo">(.*?)</span>', html, re.S).group(1)
    assert len(echo) <= 121 and echo.endswith("…")
    assert '<section class="group">' in html
