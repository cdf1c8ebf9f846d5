"""Issue 31 (engine and wording half): the standard stealth of rescue and diablerie, the
quick-entry `lock`, and statements that must agree with the quick reference."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import judgekit

from judgekit.recorder import notation
from recorder_helpers import ev, run, state

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)

T = ev("turn.start", 1)


def rescue(kind="rescue", **kw):
    return ev("action.declare", 1, action=kind, minion="Modius", **kw)


@pytest.mark.parametrize("kind, target, actual, declared, found", [
    # the acting player's own torpid vampire: +1 standard
    ("rescue", 1, 1, None, []),
    ("diablerie", 1, 1, None, []),                       # was: stealth-undeclared (0 flat)
    ("diablerie", 1, 2, None, ["stealth-undeclared"]),
    # another Methuselah's: 0 standard
    ("rescue", 3, 0, None, []),                          # was: stealth-undeclared (1 flat)
    ("rescue", 3, 1, None, ["stealth-undeclared"]),
    ("rescue", 3, 1, 1, []),
    ("diablerie", 3, 0, None, []),
    ("diablerie", 3, 1, None, ["stealth-undeclared"]),
    ("rescue", 3, 0, 1, ["misrepresented"]),
])
def test_standard_stealth_of_rescue_and_diablerie_depends_on_the_controller(kind, target, actual, declared, found):
    fields = {"target_seat": target, "actual_stealth": actual}
    if declared is not None:
        fields["stealth"] = declared
    assert [f["code"] for f in run([T, rescue(kind, **fields)])] == found


def test_a_torpid_vampire_on_a_known_board_gives_the_controller():
    # Cid's Andi Liu is in torpor; Ann's Modius rescues it: directed at Cid, 0 stealth
    events = [T, ev("minion.in", 3, minion="Andi Liu"),
              rescue(target="Andi Liu", actual_stealth=0)]
    assert run(events) == []
    st = state(events)
    assert st["action"]["directed"] and st["action"]["eligible"] == [3]
    # with 1 stealth unsaid against Cid's vampire: stealth-undeclared naming the controller
    found = run([T, ev("minion.in", 3, minion="Andi Liu"), rescue(target="Andi Liu", actual_stealth=1)])
    assert [f["code"] for f in found] == ["stealth-undeclared"]
    assert "standard: 0, a torpid vampire Cid (seat 3) controls" in found[0]["message"]
    # Ann's own vampire: undirected, prey and predator may block
    own = [T, ev("minion.in", 1, minion="Andi Liu"), rescue(target="Andi Liu", actual_stealth=1)]
    assert run(own) == [] and state(own)["action"]["eligible"] == [2, 5]


def test_unknown_controller_reports_no_stealth_finding():
    for actual in (0, 1):
        assert run([T, rescue(target="Somebody", actual_stealth=actual)]) == []
    # a declared stealth is still checked against the true one
    assert [f["code"] for f in run([T, rescue(actual_stealth=1, stealth=0)])] == ["misrepresented"]


def test_a_lock_is_in_the_state_and_the_page_offers_any_blocks_with_no_action_named():
    locked = [T, ev("minion.lock", 1, minion="Modius")]
    st = state(locked)
    assert st["lock"]["seat"] == 1 and st["lock"]["minion"] == "Modius"
    first = st["next"][0]
    assert first["event"] == {"type": "action.pass", "seat": 1}
    assert "no action named" in first["label"]
    assert st["status"].endswith("Modius locked, no action named yet")
    assert any(s["event"]["type"] == "action.declare" for s in st["next"])   # naming it still offered
    # the action named: the lock is a declaration, the step is gone
    named = state(locked + [ev("action.declare", 1, action="hunt", minion="Modius")])
    assert named["lock"] is None
    assert not any("no action named" in s["label"] for s in named["next"])
    # tapped: recorded as said, and reported
    assert [f["code"] for f in run(locked + [first["event"]])] == ["action-not-announced"]
    assert state([T])["lock"] is None


def test_quick_entry_lock():
    assert notation.parse_line("1 lock Modius") == [{"seat": 1, "type": "minion.lock", "minion": "Modius"}]
    assert "lock" in notation.VERBS


# --- finding messages keep the rule's qualifiers ----------------------------------------------

def test_replace_missing_says_no_delay_in_its_replacement():
    from judgekit.recorder import findings
    assert "no delay in its replacement" in findings.CODES["replace-missing"].message
    found = run([T, ev("card.play", 1, card="The Barrens"),
                 ev("card.play", 1, card="Villein", target="Modius", amount=2)])
    f = next(f for f in found if f["code"] == "replace-missing")
    assert "a card with no delay in its replacement" in f["message"]


def test_terms_unconfirmed_says_terms_that_present_a_choice():
    from judgekit.recorder import findings
    assert "that present a choice" in findings.CODES["terms-unconfirmed"].message
    found = run([T, ev("action.declare", 1, action="political", minion="Modius", terms_choice=True),
                 ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                 ev("vote", 3, votes=1, side="for")])
    f = next(f for f in found if f["code"] == "terms-unconfirmed")
    assert "terms that present a choice" in f["message"]


def test_vote_vampire_missing_says_not_counting_optional_effects():
    from judgekit.recorder import findings
    assert "not counting optional effects" in findings.CODES["vote-vampire-missing"].message
    f = run([ev("vote", 2, votes=1, side="for", available=3)])[0]
    assert f["code"] == "vote-vampire-missing" and "not counting optional effects" in f["message"]


def test_block_not_eligible_is_conditioned_on_card_text():
    from judgekit.recorder import findings
    assert "unless a card lets" in findings.CODES["block-not-eligible"].message
    bleed = ev("action.declare", 1, action="bleed", minion="Modius", amount=1)
    hunt = ev("action.declare", 1, action="hunt", minion="Modius")
    for action in (bleed, hunt):
        f = run([T, action, ev("action.pass", 1), ev("block.declare", 3, minion="Andi Liu")])[0]
        assert f["code"] == "block-not-eligible"
        assert "unless a card lets the blocking minion block anyway" in f["message"]


def test_a_discriminatory_slur_is_major():
    plain = run([ev("talk", 4, kind="slur")])[0]
    assert plain["infraction"] == "Unsportsmanlike Conduct — Minor"
    assert "discriminatory" in plain["message"] and "Unsportsmanlike Conduct — Major" in plain["message"]
    bad = run([ev("talk", 4, kind="slur", discriminatory=True)])[0]
    assert bad["infraction"] == "Unsportsmanlike Conduct — Major"
    # the suggested infraction is one of the catalog's, so the penalty form can open with it
    from judgekit.tournament.penalties.catalog import load_catalogs
    names = {i.name for i in load_catalogs()["v2"].infractions}
    assert {plain["infraction"], bad["infraction"]} <= names
    # a raised voice says nothing of slurs
    assert "Major" not in run([ev("talk", 4, kind="raised-voice")])[0]["message"]


# --- content: trainer titles, the "will" explanation, the SA, the table page -------------------

def _scenarios():
    import tomllib
    from judgekit import paths
    out = {}
    for path in sorted((paths.content_dir() / "trainer").glob("*.toml")):
        for s in tomllib.loads(path.read_text(encoding="utf-8")).get("scenario", []):
            out[s["id"]] = s
    return out


def test_trainer_titles_do_not_give_the_answer_away():
    titles = {s["title"] for s in _scenarios().values()}
    for old in ("A calm insult", "A bluff about a hand", "Talked out of an announced bleed",
                "Threatening a game plan", "A joke about hurting someone",
                "Switching minion while still holding the card", "A bleed with built-in stealth",
                "Going back after your own strike shortcut", "Drowning out a negotiation"):
        assert old not in titles
    # the question is about a changed action, and its title says so
    s = _scenarios()["intro-lock-after-announcing"]
    assert "hunt" in s["title"] and "minion" not in s["title"].lower()


def test_a_will_statement_is_not_called_a_hypothetical():
    # announcements, hypotheticals example 2: a "will" is too ambiguous to be a hypothetical
    for s in _scenarios().values():
        said = s["statement"].lower()
        if "i'll" in said or " will " in said:
            assert "was a hypothetical" not in s["explanation"], s["id"]
    ex = _scenarios()["hyp-talked-out-of-an-action"]
    assert "example 2" in ex["explanation"]
    assert {"type": "talk", "seat": 2, "kind": "hypothetical"} not in ex["events"]


def test_the_standings_adjustment_is_one_game():
    from judgekit.tournament.penalties.catalog import load_catalogs
    sa = next(l for l in load_catalogs()["v2"].levels if l.name == "Standings Adjustment")
    assert "one game" in sa.description and "standings" not in sa.description
    assert "game wins and tournament points are worked out again" in sa.description


def test_the_table_page_gives_the_lone_survivor_a_full_vp():
    html = (Path(judgekit.__file__).parent / "templates" / "tournament" / "table.html").read_text(encoding="utf-8")
    hint = html[html.index("surviving the time limit"):][:120]
    assert "lone survivor" in hint and "1" in hint


# --- every statement of the cap and of standard stealth agrees with the quick reference -------

ROOT = Path(judgekit.__file__).parent.parent
SCANNED = [p for pattern in ("judgekit/**/*.py", "judgekit/**/*.html", "judgekit/**/*.js", "judgekit/static/i18n/*.json",
                             "content/penalties/*.toml", "content/trainer/**/*.toml", "docs/*.md",
                             "README.md")
           for p in sorted(ROOT.glob(pattern))]
# How the cap was stated as a rule before (issue 31): none may come back.
CAP_AS_A_RULE = ("stack up to", "cap per round", "min per round", "head judge's leave",
                 "exceed the 10-minute cap", "up to a cap of", "allows judges to set")


def _quickref():
    from judgekit import paths
    from judgekit.rules import quickref
    from judgekit.rules.corpus import load_corpus
    return {c.id: c for c in quickref.build(load_corpus(paths.content_dir()))}


def test_the_cap_is_said_the_one_way_everywhere():
    from judgekit.recorder import clock, findings
    from judgekit.recorder.engine import check
    sentence = clock.CAP_SENTENCE
    assert sentence.startswith("Judges may cap a table's extensions at 10 minutes a round")
    # the quick reference's line is that sentence, citing the guide's 1.2.4
    line = next(l for l in _quickref()["time"].lines if "may cap" in l.text)
    assert line.text.startswith(sentence[:-1]) and (line.doc, line.section) == ("infraction-guide", "1.2.4")
    # the finding, by default and as the engine words it
    assert sentence in findings.CODES["extension-over-cap"].message
    found = check([{"type": "time.extend", "minutes": 6}, {"type": "time.extend", "minutes": 6}],
                  ["A", "B", "C", "D", "E"])
    assert [f["code"] for f in found] == ["extension-over-cap"] and sentence in found[0]["message"]
    # the pages and the recorder's form (its words are in the browser's catalog; the JS puts
    # the cap's number in from the page, in its guidance and in its warning)
    time_page = (ROOT / "judgekit/templates/penalties/time.html").read_text(encoding="utf-8")
    assert sentence.replace("10", "%(cap_min)s") in time_page   # the catalog id (judgekit/i18n.py)
    catalog = json.loads((ROOT / "judgekit/static/i18n/en.json").read_text(encoding="utf-8"))
    assert catalog["recorder.cap_rule"] == sentence.replace("10", "{cap}")
    js = (ROOT / "judgekit/static/recorder.js").read_text(encoding="utf-8")
    assert js.count('tr("recorder.cap_rule", {cap: CAP})') == 2
    # no file states it as a rule any more
    for path in SCANNED:
        text = path.read_text(encoding="utf-8")
        for phrase in CAP_AS_A_RULE:
            assert phrase not in text, (str(path.relative_to(ROOT)), phrase)


def test_the_tournament_refusal_says_the_cap_the_same_way(client):
    from judgekit.recorder import clock
    # the refusal's text is built from CAP_SENTENCE (tests/test_time_extensions.py runs it)
    src = (ROOT / "judgekit/tournament/penalties/extensions.py").read_text(encoding="utf-8")
    assert "clockmod.CAP_SENTENCE" in src and clock.CAP_SENTENCE


STEALTH_OF_TORPOR = re.compile(r"(rescue|diablerie)[^.\n]{0,80}\bstealth\b|\bstealth\b[^.\n]{0,80}(rescue|diablerie)",
                               re.I)


def test_every_statement_of_rescue_and_diablerie_stealth_says_who_controls_the_vampire():
    from judgekit.recorder.engine import STANDARD_STEALTH, TORPOR_STEALTH_OTHER, TORPOR_STEALTH_SAME
    torpor = next(l.text for l in _quickref()["stealth"].lines if l.text.startswith("Rescue"))
    assert f"+{TORPOR_STEALTH_SAME} stealth when the acting vampire and the torpid vampire have " \
           "the same controller" in torpor and f"{TORPOR_STEALTH_OTHER} when not" in torpor
    # no flat value for either in the recorder's table
    assert "rescue" not in STANDARD_STEALTH and "diablerie" not in STANDARD_STEALTH
    # anywhere else a rescue's or a diablerie's stealth is stated, the controller is named
    for path in SCANNED:
        text = path.read_text(encoding="utf-8")
        for m in STEALTH_OF_TORPOR.finditer(text):
            around = text[max(0, m.start() - 300):m.end() + 300].lower()
            assert "controller" in around or "controls" in around, (str(path.relative_to(ROOT)), m.group(0))


# --- bad input at the API: a 4xx naming the field, nothing stored, never a 500 ----------------

SEATS5 = ["Ann", "Ben", "Cid", "Dee", "Eve"]


def _game(client, events=()):
    gid = client.post("/api/games", json={"seats": SEATS5}).get_json()["id"]
    if events:
        assert client.post(f"/api/games/{gid}/events", json=list(events)).status_code == 201
    return gid


def _count(client, gid):
    return len(client.get(f"/api/games/{gid}").get_json()["events"])


def _refused(client, gid, event, status, field):
    before = _count(client, gid)
    r = client.post(f"/api/games/{gid}/events", json=event)
    body = r.get_json()
    assert r.status_code == status, body
    assert body["field"] == field and body.get("message"), body
    assert _count(client, gid) == before
    return body


@pytest.mark.parametrize("event", [
    ev("action.declare", 1, action="bleed", minion="Modius", amount=1, target_seat=3),
    ev("card.play", 1, card="Villein", target_seat=3, amount=2),
    ev("reaction", 2, card="Deflection", target_seat=3),
])
def test_a_target_that_left_the_table_is_refused(client, event):
    gid = _game(client, [T, ev("oust", 3)])
    body = _refused(client, gid, event, 422, "target_seat")
    assert "Cid (seat 3)" in body["message"] and "ousted" in body["message"]
    # the same at a seat still playing is stored
    assert client.post(f"/api/games/{gid}/events", json=dict(event, target_seat=4)).status_code == 201


def test_a_vote_for_a_vampire_another_seat_controls_is_refused(client):
    gid = _game(client, [T, ev("action.declare", 1, action="political", minion="Anson", terms="4 on Ben"),
                         ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                         ev("action.result", outcome="success"), ev("referendum.terms", 1)])
    body = _refused(client, gid, ev("vote", 3, votes=2, side="for", vampire="Anson"), 422, "vampire")
    assert "Ann (seat 1)" in body["message"] and "Cid (seat 3)" in body["message"]
    # Ann's own vote with Anson is stored
    assert client.post(f"/api/games/{gid}/events",
                       json=ev("vote", 1, votes=2, side="for", vampire="Anson")).status_code == 201


def test_more_votes_than_the_card_gives_are_refused(client):
    gid = _game(client, [T])
    body = _refused(client, gid, ev("vote", 2, votes=3, side="for", vampire="Andi Liu"), 422, "votes")
    assert "Andi Liu has 2 votes (prince)" in body["message"]
    # with the Edge burned, 3 is right
    assert client.post(f"/api/games/{gid}/events",
                       json=ev("vote", 2, votes=3, side="for", vampire="Andi Liu",
                               burn_edge=True)).status_code == 201
    # more than the votes said to be available
    _refused(client, gid, ev("vote", 4, votes=5, side="for", available=3), 400, "votes")


def test_a_batch_with_a_bad_event_stores_nothing(client):
    gid = _game(client, [T, ev("oust", 3)])
    before = _count(client, gid)
    r = client.post(f"/api/games/{gid}/events",
                    json=[ev("action.declare", 1, action="hunt", minion="Modius"),
                          ev("action.declare", 1, action="bleed", minion="Modius", amount=1, target_seat=3)])
    assert r.status_code == 422 and r.get_json()["field"] == "target_seat" and r.get_json()["index"] == 1
    assert _count(client, gid) == before
