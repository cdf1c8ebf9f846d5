"""Trainer pages and JSON, through the Flask test client (the no-JavaScript flow)."""
from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.shared_app  # these tests only read: they share one app (tests/conftest.py)


def token(client) -> str:
    html = client.get("/trainer").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def text(resp) -> str:
    return resp.get_data(as_text=True)


def test_start_page_lists_every_section_and_the_practice(client):
    html = text(client.get("/trainer"))
    for title in ("Card declaration", "Action declaration", "Votes and referendum terms",
                  "Shortcuts", "Forbidden shortcuts", "Cancellation window", "Table talk",
                  "Pace of discussion", "Hypotheticals", "Declarations bind"):
        assert title in html
    assert "Start a session of 10" in html
    assert 'href="/trainer/practice/bleed-with-an-action-card"' in html
    assert "trainer.css" in html and "trainer.js" in html


def test_start_page_speaks_plainly_to_players(client):
    """QA: "The recorder judges use at the tables…" is judges' jargon on a players' page."""
    html = text(client.get("/trainer"))
    intro = re.search(r'<div class="tr-intro">(.*?)</div>', html, re.S).group(1)
    assert "recorder" not in intro.lower()
    assert "what a judge will expect" in " ".join(intro.split())


def test_practice_advice_on_a_missing_pass_is_about_the_learner(client):
    csrf = token(client)
    html = text(client.post("/trainer/practice/bleed-with-an-action-card", data={
        "csrf_token": csrf, "said": "alexa-bleeds,with-govern,inferior,for-3,replace", "do": "check"}))
    assert "You did not pass the action (“Any blocks?”) before Bram answered “No block”" in html
    assert "Recorder:" not in html and "passes on blocking before" not in html
    html = text(client.post("/trainer/practice/bleed-with-an-action-card", data={
        "csrf_token": csrf, "said": "alexa-bleeds,with-govern,inferior,replace,any-blocks", "do": "check"}))
    assert "Say the bleed amount" in html and "Recorder:" not in html


def test_header_links_to_the_trainer(client):
    assert 'href="/trainer">Trainer</a>' in text(client.get("/"))


def test_a_whole_session_without_javascript(client):
    csrf = token(client)
    resp = client.post("/trainer/session", data={"csrf_token": csrf})
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/trainer/session")
    seen, right = [], 0
    for n in range(1, 11):
        html = text(client.get("/trainer/session"))
        assert f"Question {n} of 10" in html
        sid = re.search(r'name="scenario" value="([^"]+)"', html).group(1)
        choices = re.findall(r'name="choice" value="([^"]+)"', html)
        assert 2 <= len(choices) <= 5
        seen.append(sid)
        resp = client.post("/trainer/session/answer",
                           data={"csrf_token": csrf, "n": n, "scenario": sid, "choice": choices[0]})
        assert resp.status_code == 302 and resp.headers["Location"].endswith(f"r={n}#result")
        result = text(client.get(f"/trainer/session?r={n}"))
        assert 'id="result"' in result and 'aria-live="polite"' in result
        record = json.loads(re.search(r"data-record='([^']+)'", result).group(1).replace("&#34;", '"'))
        assert record["id"] == sid
        right += record["ok"]
        assert ("Right:" in result) == record["ok"]
        assert re.search(r'href="/rules/announcements[/#][^"]*" data-rule-link', result)
    assert len(set(seen)) == 10
    summary = text(client.get("/trainer/session"))
    assert f"{right} of 10 right" in summary
    for sid in seen:
        assert f"/trainer/q/{sid}" in summary


def test_session_answers_must_follow_the_plan(client):
    csrf = token(client)
    client.post("/trainer/session", data={"csrf_token": csrf, "section": "votes"})
    html = text(client.get("/trainer/session"))
    sid = re.search(r'name="scenario" value="([^"]+)"', html).group(1)
    # an answer from another tab or an older session: back to the current question, told why,
    # nothing recorded
    for data, reason in (({"n": 1, "scenario": "pace-during-a-referendum", "choice": "correct"},
                          "not part of your current session"),
                         ({"n": 1, "scenario": sid, "choice": "unsportsmanlike"}, "Pick one of the answers"),
                         ({"n": 2, "scenario": "x", "choice": "correct"}, "not part of your current session")):
        bad = client.post("/trainer/session/answer", data={"csrf_token": csrf, **data})
        assert bad.status_code == 303 and bad.headers["Location"].endswith("/trainer/session")
        page = text(client.get("/trainer/session"))
        assert reason in page and "Here is your current question." in page
        assert f'name="scenario" value="{sid}"' in page and 'name="n" value="1"' in page


def test_a_section_session_stays_in_its_section(client):
    csrf = token(client)
    client.post("/trainer/session", data={"csrf_token": csrf, "section": "pace"})
    html = text(client.get("/trainer/session"))
    assert "Question 1 of 3" in html and "Pace of discussion" in html
    assert client.post("/trainer/session", data={"csrf_token": csrf, "section": "nope"}).status_code == 400


def test_progress_field_steers_the_session(client):
    csrf = token(client)
    wrong = [{"id": sid, "ok": False} for sid in
             ("pace-last-question-then-a-choice", "pace-talking-after-the-answer", "pace-during-a-referendum")]
    client.post("/trainer/session", data={"csrf_token": csrf, "progress": json.dumps({"answers": wrong})})
    # Garbage in the field is ignored, not an error.
    assert client.post("/trainer/session", data={"csrf_token": csrf, "progress": "{oops"}).status_code == 302


def test_forms_need_the_csrf_token(client):
    assert client.post("/trainer/session", data={}).status_code == 400
    assert client.post("/trainer/q/votes-no-side", data={"choice": "incomplete"}).status_code == 400


def test_single_question_right_and_wrong(client):
    csrf = token(client)
    html = text(client.get("/trainer/q/votes-no-side"))
    assert "What would the judge say?" in html and 'name="choice" value="incomplete"' in html
    assert "Is this correct?" not in html
    resp = client.post("/trainer/q/votes-no-side", data={"csrf_token": csrf, "choice": "incomplete"})
    right = text(client.get(resp.headers["Location"]))
    assert "Right: incomplete announcement." in right
    assert 'href="/rules/announcements/votes#votes-p2"' in right
    resp = client.post("/trainer/q/votes-no-side", data={"csrf_token": csrf, "choice": "binding"})
    wrong = text(client.get(resp.headers["Location"]))
    assert "Not quite: it is “Incomplete announcement”." in wrong
    assert "your answer" in wrong and "right answer" in wrong
    assert client.post("/trainer/q/votes-no-side", data={"csrf_token": csrf, "choice": "stalling"}).status_code == 400
    assert client.get("/trainer/q/no-such-question").status_code == 404


def test_example_link_names_the_example(client):
    csrf = token(client)
    resp = client.post("/trainer/q/cd-superior-wake-without-superior",
                       data={"csrf_token": csrf, "choice": "correct"})
    html = text(client.get(resp.headers["Location"]))
    assert 'href="/rules/announcements/card-declaration#card-declaration-ex1"' in html
    assert "Read the rule: Card declaration, Example 1" in html


def test_practice_without_javascript(client):
    csrf = token(client)
    url = "/trainer/practice/redirect-a-bleed"
    assert "Andi Liu plays Deflection" in text(client.get(url))
    html = text(client.post(url, data={"csrf_token": csrf, "said": "", "do": "add:deflection"}))
    assert 'name="said" value="deflection"' in html
    html = text(client.post(url, data={"csrf_token": csrf, "said": "deflection", "do": "check"}))
    assert "Pass on the block first" in html
    assert "Name the level (inferior or superior) and the target as you play Deflection" in html
    html = text(client.post(url, data={"csrf_token": csrf, "said": "no-block,deflection,inferior", "do": "undo"}))
    assert 'name="said" value="no-block,deflection"' in html
    html = text(client.post(url, data={"csrf_token": csrf, "said": "no-block,deflection,inferior,to-dario",
                                       "do": "check"}))
    assert "Well announced" in html
    assert client.get("/trainer/practice/nope").status_code == 404


@pytest.mark.parametrize("body, status, words", [
    ({"prompt": "hunt-and-wait", "said": ["hunt", "take"]}, 200, None),
    ({"prompt": "nope", "said": []}, 404, "no such practice prompt"),
    ({"prompt": "hunt-and-wait", "said": "hunt"}, 400, "said must be a list"),
    ({"prompt": "hunt-and-wait", "said": ["hunt", "fly"]}, 400, "unknown phrase id(s): fly"),
    ({"prompt": "hunt-and-wait", "said": ["hunt"] * 41}, 400, "at most 40"),
    ({"prompt": "hunt-and-wait", "line": ""}, 400, "line must be"),
    (["hunt"], 400, "send an object"),
])
def test_check_api(client, body, status, words):
    resp = client.post("/api/trainer/check", json=body, headers={"X-CSRF-Token": "x"})
    assert resp.status_code == status
    data = resp.get_json()
    if words:
        assert words in data["error"]
    else:
        assert data["ok"] is False
        assert [a["code"] for a in data["advice"]] == ["action-pass-missing", "block-pass-missing"]
        assert data["advice"][0]["url"] == "/rules/announcements/forbidden-shortcuts"


@pytest.mark.parametrize("line, codes", [
    ("bleed Alexa Draper =1 +Govern the Unaligned :dom; r; go", ["misrepresented"]),
    ("bleed Alexa Draper =2 +Govern the Unaligned :dom; r; go", ["misrepresented"]),
    ("bleed Alexa Draper =3 +Govern the Unaligned :DOM; r; go", ["goal"]),
    ("bleed Alexa Draper =3 +Govern the Unaligned :dom; r; go", []),
])
def test_check_api_typed_line_knows_the_situation(client, line, codes):
    # QA: a typed "=1" was "nothing missing" while the tapped "for 1" was a misrepresentation.
    csrf = token(client)
    data = client.post("/api/trainer/check", json={"prompt": "bleed-with-an-action-card", "line": line},
                       headers={"X-CSRF-Token": csrf}).get_json()
    assert [a["code"] for a in data["advice"]] == codes and data["ok"] is (codes == [])
    url = "/trainer/practice/bleed-with-an-action-card"
    html = text(client.post(url, data={"csrf_token": csrf, "said": "", "line": line, "do": "check-line"}))
    assert ("Well announced" in html) is (codes == [])
    assert ("Say the real numbers" in html) is (codes == ["misrepresented"])


def test_check_api_needs_json(client):
    # A non-JSON body is refused as such (415), with or without the CSRF token.
    assert client.post("/api/trainer/check", data="x", content_type="text/plain").status_code == 415
    csrf = token(client)
    resp = client.post("/api/trainer/check", data="x", content_type="text/plain",
                       headers={"X-CSRF-Token": csrf})
    assert resp.status_code == 415


def test_progress_api(client):
    answers = [{"id": "votes-no-side", "ok": True}, {"id": "votes-named-voter", "ok": True},
               {"id": "votes-edge-is-optional", "ok": True}, {"id": "pace-during-a-referendum", "ok": False},
               {"id": "made-up", "ok": True}]
    data = client.post("/api/trainer/progress", json={"answers": answers}).get_json()
    assert data["mastered"] == ["votes"] and data["review"] == ["pace"]
    assert data["answered"] == 4
    assert client.post("/api/trainer/progress", json={"answers": "x"}).get_json()["answered"] == 0
