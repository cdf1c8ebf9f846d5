"""The announcement trainer in a real phone-sized browser: a session of 10 answered right
and wrong, explanations and rule links, progress that survives a reload, free practice,
and the no-JavaScript flow."""
from __future__ import annotations

import re
from functools import lru_cache

from playwright.sync_api import expect

from judgekit import paths
from judgekit.game.cards import load_cards
from judgekit.trainer.scenarios import ANSWERS, load_scenarios
from helpers import stored_json, wait_all_at_least, wait_no_sideways_scroll

STORE = "judgekit.trainer.v1"


@lru_cache(maxsize=1)
def catalog():
    return load_scenarios(paths.content_dir() / "trainer", load_cards())


def current(page):
    article = page.locator("article[data-scenario]")
    expect(article).to_have_count(1)
    return catalog().get(article.get_attribute("data-scenario"))


def answer(page, scenario, right: bool):
    choice = scenario.answer if right else next(c for c in scenario.shown_choices if c != scenario.answer)
    page.locator(f"button.tr-choice[value='{choice}']").click()
    result = page.locator("#result")
    expect(result).to_be_focused()                    # focus moves to the result
    return result


def scroll_below_header(page, selector):
    page.evaluate("s => window.scrollTo(0, document.querySelector(s).getBoundingClientRect().top"
                  " + window.scrollY - document.querySelector('.top').offsetHeight - 8)", selector)


def no_sideways_scroll(page):
    wait_no_sideways_scroll(page, 360)


def test_session_right_and_wrong_answers_and_progress_after_reload(page, live_server, shot):
    page.goto(live_server + "/trainer")
    expect(page.locator("h1")).to_have_text("Announcement trainer")
    expect(page.locator(".top-nav a", has_text="Trainer")).to_be_visible()
    no_sideways_scroll(page)
    page.get_by_role("button", name="Start a session of 10").click()
    expect(page).to_have_url(re.compile(r"/trainer/session$"))

    # Question 1, answered right.
    expect(page.locator(".tr-count")).to_contain_text("Question 1 of 10")
    first = current(page)
    expect(page.locator(".tr-statement")).to_contain_text(first.statement[:30])
    buttons = page.locator("button.tr-choice")
    expect(buttons).to_have_count(len(first.choices))
    # tap targets: every choice at least 48 px tall once laid out (QA: this read one box once,
    # before the layout settled, and failed on a loaded machine)
    wait_all_at_least(page, "button.tr-choice", height=48, count=len(first.choices))
    no_sideways_scroll(page)
    shot(page, "trainer-question-phone", full_page=False)
    result = answer(page, first, right=True)
    expect(result).to_have_class(re.compile("is-right"))
    expect(result.locator(".tr-verdict")).to_contain_text("Right")
    expect(result.locator(".tr-explanation")).to_have_text(first.explanation)
    link = result.locator("a[data-rule-link]")
    expect(link).to_have_attribute("href", first.url)
    expect(page.locator(".tr-answered li.is-right")).to_contain_text(ANSWERS[first.answer].label)
    shot(page, "trainer-answer-right-phone", full_page=False)

    # Question 2, answered wrong.
    page.get_by_role("link", name="Next question").click()
    expect(page.locator(".tr-count")).to_contain_text("Question 2 of 10")
    second = current(page)
    result = answer(page, second, right=False)
    expect(result).to_have_class(re.compile("is-wrong"))
    expect(result.locator(".tr-verdict")).to_contain_text(f"Not quite: it is “{ANSWERS[second.answer].label}”")
    expect(result.locator(".tr-explanation")).to_have_text(second.explanation)
    expect(result.locator("a[data-rule-link]")).to_have_attribute("href", second.url)
    expect(page.locator(".tr-answered li.is-wrong")).to_contain_text("your answer")
    expect(result.locator(".tr-yours")).to_contain_text("You answered")
    expect(page.locator(".tr-answered li.is-right")).to_contain_text("right answer")
    shot(page, "trainer-answer-wrong-phone", full_page=False)

    # The browser kept both answers; a reload of the result does not count it twice.
    stored = stored_json(page, STORE, "s => s.answers && s.answers.length >= 2")
    assert [(a["id"], a["ok"]) for a in stored["answers"]] == [(first.id, True), (second.id, False)]
    page.reload()
    expect(page.locator("#result")).to_be_visible()
    stored = stored_json(page, STORE, "s => s.answers && s.answers.length >= 2")
    assert len(stored["answers"]) == 2

    # The rest of the session, then the summary.
    right = 1
    for n in range(3, 11):
        page.get_by_role("link", name=re.compile("Next question")).click()
        expect(page.locator(".tr-count")).to_contain_text(f"Question {n} of 10")
        answer(page, current(page), right=n % 2 == 1)
        right += n % 2 == 1
    page.get_by_role("link", name="See your results").click()
    expect(page.locator("h1")).to_have_text(f"{right} of 10 right")
    expect(page.locator(".tr-lines li")).to_have_count(10)
    # the ✓ and ✗ marks line up in one column, and so do the titles beside them (QA)
    page.wait_for_function("""() => {
        const marks = [...document.querySelectorAll('.tr-lines .tr-mark')].map(m => m.getBoundingClientRect());
        const links = [...document.querySelectorAll('.tr-lines li > a')].map(a => a.getBoundingClientRect());
        if (marks.length !== 10 || links.length !== 10) return false;
        const same = xs => xs.every(x => Math.abs(x - xs[0]) < 0.5);
        return same(marks.map(r => r.left)) && same(marks.map(r => r.width)) && same(links.map(r => r.left))
               && marks.every((m, i) => m.right <= links[i].left); }""")
    expect(page.locator(".tr-lines li.is-right .tr-mark").first).to_have_text("✓")
    expect(page.locator(".tr-lines li.is-wrong .tr-mark").first).to_have_text("✗")
    shot(page, "trainer-summary-phone")

    # Progress survives a reload of the start page: mastery and review per section.
    page.goto(live_server + "/trainer")
    page.reload()
    first_row = page.locator(f".tr-sections li[data-section='{first.section}']")
    expect(first_row.locator("[data-score]")).to_contain_text("right")
    wrong_row = page.locator(f".tr-sections li[data-section='{second.section}']")
    expect(wrong_row).to_have_attribute("data-status", re.compile("review|learning"))
    expect(page.locator("[data-review]")).to_be_visible()
    stored = stored_json(page, STORE, "s => s.answers && s.answers.length >= 10")
    assert len(stored["answers"]) == 10
    scroll_below_header(page, "#progress-h")
    shot(page, "trainer-progress-phone", full_page=False)


def test_rule_link_lands_on_the_example(page, live_server, shot):
    # A fixed question, so that the README's screenshots can be taken again identically.
    page.goto(live_server + "/trainer/q/cd-superior-wake-without-superior")
    scroll_below_header(page, ".tr-title")
    shot(page, "trainer-fixed-question-phone", full_page=False)
    page.locator("button.tr-choice[value='misplay-binding']").click()
    expect(page.locator("#result")).to_be_focused()
    expect(page.locator("#result .tr-verdict")).to_have_text("Not quite: it is “Misplay, not binding”.")
    shot(page, "trainer-fixed-answer-phone", full_page=False)
    link = page.locator("#result a[data-rule-link]")
    expect(link).to_have_text("Read the rule: Card declaration, Example 1")
    link.click()
    expect(page).to_have_url(re.compile(r"/rules/announcements/card-declaration#card-declaration-ex1$"))
    expect(page.locator("#card-declaration-ex1")).to_be_in_viewport()


def test_free_practice_explains_what_is_missing(page, live_server, shot):
    page.goto(live_server + "/trainer/practice/bleed-with-an-action-card")
    expect(page.locator("h1")).to_have_text("Bleed with an action card")
    for text in ("Alexa Draper bleeds Bram", "with Govern the Unaligned", "(draw to replace the card)"):
        page.get_by_role("button", name=text, exact=True).click()
    expect(page.locator("[data-said-list] li")).to_have_count(3)
    page.get_by_role("button", name="Check my announcement").click()
    result = page.locator("#result")
    expect(result).to_be_focused()
    expect(result.locator(".tr-verdict")).to_contain_text("4 things to fix")
    tips = result.locator(".tr-tip")
    expect(tips.nth(0)).to_contain_text("Say the bleed amount")
    expect(tips.nth(1)).to_contain_text("Name the level (inferior or superior) as you play Govern the Unaligned")
    expect(tips.nth(2)).to_contain_text("Any blocks?")
    expect(tips.nth(3)).to_contain_text("Govern the Unaligned at inferior, as the task says")
    expect(result.locator("a").first).to_have_text("Read the rule: Action declaration")
    no_sideways_scroll(page)
    scroll_below_header(page, "#said-h")
    shot(page, "trainer-practice-phone", full_page=False)

    page.get_by_role("button", name="Start over").click()
    expect(page.locator("[data-said-list] li")).to_have_count(0)
    for text in ("Alexa Draper bleeds Bram", "with Govern the Unaligned", "at inferior", "for 3",
                 "(draw to replace the card)", "Any blocks?"):
        page.get_by_role("button", name=text, exact=True).click()
    page.get_by_role("button", name="Check my announcement").click()
    expect(page.locator("#result .tr-verdict")).to_have_text("Well announced: nothing missing.")


def test_tapped_and_typed_declarations_get_the_same_advice(page, live_server):
    # QA: tapping "for 1" said misrepresentation, typing "=1" said "nothing missing".
    page.goto(live_server + "/trainer/practice/bleed-with-an-action-card")
    for text in ("Alexa Draper bleeds Bram", "with Govern the Unaligned", "at inferior", "for 1",
                 "(draw to replace the card)", "Any blocks?"):
        page.get_by_role("button", name=text, exact=True).click()
    page.get_by_role("button", name="Check my announcement").click()
    result = page.locator("#result")
    expect(result.locator(".tr-verdict")).to_have_text("Not yet: 1 thing to fix")
    expect(result.locator(".tr-tip")).to_have_text(re.compile("^Say the real numbers"))
    page.get_by_role("button", name="Start over").click()
    expect(result.locator(".tr-verdict")).to_have_count(0)

    page.get_by_text("Or type it in the recorder's notation").click()
    line = page.get_by_label("Your announcement as a notation line")
    line.fill("bleed Alexa Draper =1 +Govern the Unaligned :dom; r; go")
    page.get_by_role("button", name="Check the typed line").click()
    expect(result.locator(".tr-verdict")).to_have_text("Not yet: 1 thing to fix")
    expect(result.locator(".tr-tip")).to_have_text(re.compile("^Say the real numbers"))

    line.fill("bleed Alexa Draper =3 +Govern the Unaligned :DOM; r; go")
    page.get_by_role("button", name="Check the typed line").click()
    expect(result.locator(".tr-tip")).to_contain_text("at inferior, as the task says")

    line.fill("bleed Alexa Draper =3 +Govern the Unaligned :dom; r; go")
    page.get_by_role("button", name="Check the typed line").click()
    expect(result.locator(".tr-verdict")).to_have_text("Well announced: nothing missing.")


def test_replacing_before_the_second_card(page, live_server):
    page.goto(live_server + "/trainer/practice/two-cards-one-action")
    for text in ("Lucinde bleeds Bram", "with Govern the Unaligned", "at inferior", "for 4",
                 "Threats on Lucinde's bleed: +1 bleed", "at inferior", "The bleed is now 5", "Any blocks?"):
        page.get_by_role("button", name=text, exact=True).first.click()
    page.get_by_role("button", name="Check my announcement").click()
    expect(page.locator("#result .tr-tip").first).to_contain_text(
        "draw for the previous card before you play Threats")


def test_questions_work_without_javascript(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server + "/trainer")
        page.get_by_role("button", name="Practise Votes and referendum terms").click()
        expect(page.locator(".tr-count")).to_contain_text("Question 1 of 6")
        scenario = current(page)
        page.locator(f"button.tr-choice[value='{scenario.answer}']").click()
        expect(page).to_have_url(re.compile(r"/trainer/session\?r=1#result$"))
        expect(page.locator("#result .tr-verdict")).to_contain_text("Right")
        expect(page.locator("#result a[data-rule-link]")).to_have_attribute("href", scenario.url)
        page.get_by_role("link", name="Next question").click()
        expect(page.locator(".tr-count")).to_contain_text("Question 2 of 6")
    finally:
        context.close()
