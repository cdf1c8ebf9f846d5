"""Cards offline: a card page never opened on the phone is drawn by the card shell from
/offline/cards.json, with the same rulings (prefixes, per-card wordings), sources and facts
as the server's page."""
from __future__ import annotations

import html
import re
import urllib.request

import pytest
from playwright.sync_api import expect

# Deflection (group rulings), Murmur of the False Will (the group's [DOM] prefix), Ambulance
# (its own wording of a group ruling), Theo Bell (G2 ADV) (a vampire with other versions)
CARDS = ["100518", "101256", "100045", "201363"]


def server_rulings(live_server, card_id):
    with urllib.request.urlopen(f"{live_server}/cards/{card_id}") as r:
        page = r.read().decode()
    texts = re.findall(r'<p class="ruling-text">(.*?)</p>', page, re.S)
    plain = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", t)).split()) for t in texts]
    sources = re.findall(r'<a class="source" href="([^"]+)"', page)
    return plain, sources, page


@pytest.mark.service_worker    # drawn by the offline copy
def test_a_card_never_opened_is_drawn_offline_as_the_server_shows_it(page, live_server):
    page.goto(live_server + "/")
    page.wait_for_function(
        "() => document.querySelector('[data-offline-badge]').classList.contains('is-saved')", timeout=90_000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10_000)
    expected = {cid: server_rulings(live_server, cid) for cid in CARDS}
    page.context.set_offline(True)
    for cid in CARDS:
        texts, sources, server_page = expected[cid]
        page.goto(f"{live_server}/cards/{cid}")
        expect(page.locator("[data-shell-note]")).to_be_visible()     # drawn on the device
        expect(page.locator(".ruling-text")).to_have_count(len(texts))  # every ruling drawn
        shown = [" ".join(t.split()) for t in page.locator(".ruling-text").all_inner_texts()]
        assert shown == texts, cid
        got = page.locator(".ruling .source").evaluate_all("els => els.map(e => e.getAttribute('href'))")
        assert got == sources, cid
        name = re.search(r'<h1 id="card-name">([^<]+)', server_page).group(1).strip()
        expect(page.locator("h1")).to_contain_text(html.unescape(name))
    # superior and inferior marks, the link to another card, other versions
    page.goto(f"{live_server}/cards/100518")
    expect(page.locator(".card-text abbr.dis-sup")).to_have_text("DOM")
    page.goto(f"{live_server}/cards/201363")
    expect(page.locator(".card-versions a")).to_have_count(2)
    expect(page.locator(".card-facts")).to_contain_text("Brujah")
    page.goto(f"{live_server}/cards/groups/G00106")
    expect(page.locator("h1")).to_have_text("Change the target of a bleed")
    expect(page.locator(".group-members li")).to_have_count(7)
    page.goto(f"{live_server}/cards/99999999")
    expect(page.locator("h1")).to_have_text("Not in this copy")
    page.context.set_offline(False)


def test_the_offline_search_ranks_cards_as_the_server_does(page, live_server, live_app):
    from pathlib import Path

    from judgekit.offline.compare import compare, read_queries
    root = Path(__file__).resolve().parents[2]
    # card names, and questions about a card's ruling that describe the card by its text
    # (where a ruling counts its card's words: `SearchIndex(inherit=…)`)
    queries = read_queries(root / "tests" / "search_cards") + read_queries(root / "tests" / "search_card_behaviour2")
    # questions naming disciplines and clans (`FACET_FACTOR`), and cards whose groups' rulings
    # rank lower (`GROUP_WEIGHT`)
    queries += read_queries(root / "tests" / "search_card_behaviour6")
    # questions naming a card type anywhere (`TYPE_FACTOR`: "sabbat political that…")
    queries += read_queries(root / "tests" / "search_card_effects")
    # questions about a group's ruling describing one of its cards (`GROUP_RULING_AFTER_CARD`)
    queries += read_queries(root / "tests" / "search_card_behaviour8")
    # and the best group ruling of the first two answers' cards third (`GROUP_RULING_CARDS`)
    queries += read_queries(root / "tests" / "search_card_behaviour10")
    # and the group ruling answering a question's last sentence third (`ASKED_SHARE`)
    queries += read_queries(root / "tests" / "search_card_behaviour9")
    # and a second group's ruling of the first card third (`SECOND_GROUP_SHARE`), and the
    # entries holding a first sentence's rare words looked through (`first_sentence`)
    queries += read_queries(root / "tests" / "search_card_behaviour12") + read_queries(root / "tests" / "search_card_behaviour7")
    # vampires told by clan and capacity ("8 cap nos who…": a number stated as a capacity),
    # and numbers that are no capacity
    queries += read_queries(root / "tests" / "search_card_behaviour18")
    # judge calls: the first card far ahead, its group's ruling second (`GROUP_RULING_NEAR`)
    queries += read_queries(root / "tests" / "search_card_behaviour21")
    # a card described in the middle of a judge call or a message (`describes_card`), and a
    # long question's rare words past sixteen (`INFORMATIVE`)
    queries += read_queries(root / "tests" / "search_card_behaviour26") + read_queries(root / "tests" / "search_card_behaviour22")
    # a card named in passing first, the described card's group ruling after it
    queries += read_queries(root / "tests" / "search_card_behaviour27")
    # judge calls naming a discipline that tell their game in the announcements' words (the
    # announcement guidelines ranked lower: `ABOUT_CARDS_DOC_FACTORS`)
    queries += read_queries(root / "tests" / "search_card_behaviour39")
    queries += ["8 cap nos who blocks other nosferatu better", "cap 4 salubri anti who gets a press against tremere",
                "vampire with capacity 10 who unlocks", "weapon that does 3 damage but only once per combat",
                "5 blood",
                # a named card, then the ruling of its groups answering what its text does not
                # say (`NAMED_RULING_SHARE`), second or third
                "dr jest in torpor, can he still make my prey discard in my unlock phase",
                "deflection before passing on block", "card sitting on my erciyes fragments, can i discard it",
                # a filler word mistyped is the filler word ("realy"), not a rare word one letter away
                "hes playing realy slow stalling"]
    queries += read_queries(root / "tests" / "search_card_behaviour46")
    # a discipline's code whose stem is an everyday word's expands only as typed ("ani", not
    # "any"; "spi", not "spy": `TYPED_AS_IS`)
    # cards tied exactly below the first three different answers (`DISTINCT_FIRST`)
    queries += ["the no discipline reaction that gives any ready vamp +2 votes during a referendum",
                "an anarch action card that gives an anarch of capacity 5+ the baron title"]
    queries += ["can any vampire block", "ani retainer that does damage each round", "ANI retainer",
                "spy retainer that gives intercept", "dementation card so they cant use any discipline cards"]
    # named cards' group rulings third, holding a little of a told question (`NAMED_RULING_THIRD`)
    queries += read_queries(root / "tests" / "search_card_behaviour49")
    page.goto(live_server + "/offline")
    offline = page.evaluate("async qs => { const out = [], search = (await import('/static/offline-search.js')).default;"
                            " for (const q of qs) out.push((await search(q, 10)).results);"
                            " return out; }", queries)
    svc = live_app.extensions["rules"]
    server = [svc.search_payload(q, limit=10)["results"] for q in queries]
    report = compare(queries, server, offline)
    assert report.overlap == 1.0, [(q.query, q.server, q.offline) for q in report.differing()]
    # the card names a query names, found alike in the browser, for every query set
    every = queries + sum((read_queries(root / "tests" / n) for n in ("search_queries", "search_questions")), [])
    every += ["Pentex™ Subversion", "rötschreck", "theo bell g2 adv", "the barrens", "deflektion", "KRC",
              # initials that spell a word or are typed as two, words one typo from a name,
              # names that many cards' texts use as words
              "who won the game", "who goes first at a four player table", "can I play tttm now",
              "is it hot in the hall", "stealth when hunting", "they cant dodge this round", "dodge",
              "can I call a blood hunt on a vampire in torpor", "with my corrupton counters",
              # a typo in a short word of two ("sup version" is no Subversion)
              "does the retainer become the sup version?", "direct intervension",
              # a vampire's epithet without its "the"
              "amelia blood red tears - the blood the other guy burns",
              "how many votes does kornfeld have", "can i use french cards in a tournament"]
    named = page.evaluate("async qs => { const out = [], search = (await import('/static/offline-search.js')).default;"
                          " for (const q of qs) out.push(await search.namedCards(q));"
                          " return out; }", every)
    expected = [[e.section for e in svc.search.named_cards(q)] for q in every]
    assert named == expected


def test_the_offline_search_says_what_the_server_says_of_its_answers(page, live_server, live_app):
    """How good the answer is and the rules' words offered, alike in the browser: a weak
    rules answer offers them, a weak answer led by a card's entry does not."""
    queries = ["opponent ditched the game half vp", "kibitz from the rail",
               "the necromancy vampire who hunts by burning two matching cards from his prey's ash heap: "
               "can he do that hunt twice in one turn if he unlocks?",
               "the ghoul who plays thaumaturgy as a vampire: does another effect stack it to superior?"]
    page.goto(live_server + "/offline")
    offline = page.evaluate("async qs => { const out = [], search = (await import('/static/offline-search.js')).default;"
                            " for (const q of qs) { const a = await search(q, 10); out.push([a.match, a.suggestions]); }"
                            " return out; }", queries)
    svc = live_app.extensions["rules"]
    server = [[(p := svc.search_payload(q, limit=10))["match"], p["suggestions"]] for q in queries]
    assert offline == server
    assert server[0][1] and server[1][1] and server[2] == ["weak", []], server
