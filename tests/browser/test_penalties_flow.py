"""A floor judge and the head judge on phones (360 px): the judge signs in, records a
forbidden shortcut on the recorder page, taps the finding's penalty link (the form comes
pre-filled) and issues it; the same player repeats it, the form shows the history and the
second step of the ladder, and the judge escalates to a Standings Adjustment with a reason.
The head judge signs in, sees it waiting, approves it, and downloads the CSV, whose rows are
checked; the SA is then in the standings."""
from __future__ import annotations

import csv
import io
import re

from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import store as pstore
from helpers import line

NAMES = ["Ana", "Bruno", "Carla", "Dario", "Elsa", "Filip", "Gina", "Hugo"]


def seed(live_app):
    """A tournament with round 1 seated (two tables of four) and its sign-in codes."""
    db = open_db(live_app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": "Penalty Open"})
        for k, name in enumerate(NAMES):
            tstore.add_player(db, tid, {"name": name, "vekn": str(7100000 + k)})
        table = tstore.start_round(db, tid, seed=11)["tables"][0]
        codes = auth_store.issue_codes(db, tid)
        return tid, table, codes
    finally:
        db.close()


def sign_in(page, base, tid, name, code, here=False):
    if not here:
        page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", name)
    page.fill("#si-code", code)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in to Penalty Open as")


def open_penalty_from_latest_finding(page):
    link = page.locator(".rec-f[data-finding$=':end-of-turn-missing'] a.rec-penalty-link").first
    expect(link).to_be_visible()
    link.click()
    expect(page.locator("h1")).to_have_text("New penalty")
    expect(page.locator("#pen-form[data-ready]")).to_have_count(1)  # its script has run


def test_judge_issues_escalates_head_judge_approves_and_exports(page, own_server, own_app, shot):
    base = own_server
    live_app = own_app
    tid, table, codes = seed(live_app)
    gid = table["game_id"]
    offender = table["seats"][0]  # seat 1 at table 1

    # --- the floor judge ------------------------------------------------------------------
    sign_in(page, base, tid, "Jo Floor", codes["judge"])
    expect(page.locator(".pen-who")).to_contain_text("Judge Jo Floor")
    page.goto(f"{base}/games/{gid}")
    line(page, "1 start; 2 start")  # seat 1 never said "end of turn"
    expect(page.locator(".rec-f[data-finding$=':end-of-turn-missing']").first).to_be_visible()
    open_penalty_from_latest_finding(page)

    # pre-filled: the player of seat 1, the infraction the finding suggests, the citation
    expect(page.locator("#pf-player")).to_have_value(str(offender["player_id"]))
    expect(page.locator("#pf-infraction")).to_have_value("game-rule-violation")
    expect(page.locator("#pf-rule")).to_have_value("announcements/forbidden-shortcuts")
    expect(page.locator("#pf-proposed")).to_have_text("Caution")
    expect(page.locator("#pf-reason")).to_contain_text("First Game Rule Violation in this event")
    expect(page.locator("#pf-penalty")).to_have_value("Caution")
    expect(page.locator(".pen-finding")).to_contain_text("did not declare the end of their turn")
    expect(page.locator("#pf-hj")).to_be_hidden()
    shot(page, "penalty-form-prefilled-phone")
    shot(page, "penalty-form-prefilled-phone-top", full_page=False)
    page.get_by_role("button", name="Issue penalty").click()
    expect(page).to_have_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator(".flash").first).to_contain_text(f"Recorded: Caution for {offender['name']}")

    # the same player does it again one round of turns later
    line(page, "2 end; 3 start; 3 end; 4 start; 4 end; 1 start; 2 start")
    expect(page.locator(".rec-f[data-finding$=':end-of-turn-missing']")).to_have_count(2)
    open_penalty_from_latest_finding(page)
    expect(page.locator("#pf-proposed")).to_have_text("Caution")
    expect(page.locator("#pf-reason")).to_contain_text(
        "Second Game Rule Violation in this event: the ladder moves from Caution to Caution")
    expect(page.locator("#pf-history li")).to_have_count(1)
    expect(page.locator("#pf-record summary")).to_contain_text(f"{offender['name']} in this event: 1 penalty")
    expect(page.locator("#pf-deviation")).to_be_hidden()
    # the judge escalates it: a deliberate repeat after a caution
    page.select_option("#pf-penalty", "Standings Adjustment")
    expect(page.locator("#pf-deviation")).to_be_visible()
    expect(page.locator("#pf-hj")).to_be_visible()
    expect(page.locator("#pf-hj-reasons li")).to_have_count(2)
    expect(page.locator("#pf-req")).to_be_visible()
    page.fill("#pf-why", "Repeated right after the caution, to speed up the table")
    shot(page, "penalty-form-escalated-phone")
    page.get_by_role("button", name="Issue penalty").click()
    expect(page).to_have_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator(".flash-warn")).to_contain_text("Waiting for the head judge's approval")

    # a plain judge cannot open the head judge's list: sent to sign in, with the reason
    page.goto(f"{base}/tournaments/{tid}/penalties")
    expect(page).to_have_url(re.compile(r"/sign-in\?next="))
    expect(page.locator(".flash-warn")).to_contain_text("Only the head judge or the organizer may see all penalties")

    # --- the head judge, on the sign-in page the judge was sent to --------------------------
    sign_in(page, base, tid, "Hal Head", codes["head_judge"], here=True)
    expect(page).to_have_url(re.compile(rf"/tournaments/{tid}/penalties$"))  # back where it was sent from
    expect(page.locator("#pending-h")).to_have_text("Waiting for approval (1)")
    card = page.locator(".pen-pending .pen-card")
    expect(card).to_contain_text("Standings Adjustment for " + offender["name"])
    expect(card).to_contain_text("proposed Caution")
    expect(card).to_contain_text("Repeated right after the caution")
    expect(page.locator(".pen-offenders")).to_contain_text(offender["name"])
    expect(page.locator(".pen-offenders")).to_contain_text("2× Game Rule Violation")
    shot(page, "penalty-head-judge-list-phone")
    shot(page, "penalty-head-judge-list-phone-top", full_page=False)
    card.get_by_label("Approval note").fill("Agreed: deliberate")
    card.get_by_role("button", name="Approve").click()
    expect(page.locator(".flash").first).to_contain_text("approved")
    expect(page.locator("#pending-h")).to_have_text("Waiting for approval (0)")
    expect(page.locator(".pen-all")).to_contain_text("approved by Hal Head")

    with page.expect_download() as info:
        page.locator(".pen-exports a", has_text=re.compile(r"^CSV$")).click()
    download = info.value
    assert download.suggested_filename == f"penalties-{tid}.csv"
    rows = list(csv.DictReader(io.StringIO(open(download.path(), encoding="utf-8").read())))
    assert [r["kind"] for r in rows] == ["issue", "issue", "approve"]
    first, second, approval = rows
    assert first["player_name"] == second["player_name"] == offender["name"]
    assert (first["penalty"], first["proposed"], first["judge"]) == ("Caution", "Caution", "Jo Floor")
    assert (first["round"], first["table"], first["game"]) == ("1", "1", str(gid))
    assert first["event"] == "2" and first["rule"] == "announcements/forbidden-shortcuts"
    assert first["infraction_name"] == "Game Rule Violation" and first["status"] == "in force"
    assert (second["penalty"], second["proposed"]) == ("Standings Adjustment", "Caution")
    assert second["event"] == "9" and second["reason"].startswith("Repeated right after")
    assert approval["refers_to"] == second["id"] and approval["judge"] == "Hal Head"
    assert approval["reason"] == "Agreed: deliberate"

    db = open_db(live_app.config["DATABASE"])
    try:
        # given during round 1 at the offender's table: −1 VP in that game
        assert [(a["player_id"], a["vp"], a["record"], a["phase"]) for a in pstore.standing_adjustments(db, tid)] \
            == [(offender["player_id"], -1, int(second["id"]), "game:1:1")]
    finally:
        db.close()


def test_a_penalty_chosen_before_the_form_script_runs_is_kept(page, own_server, own_app):
    """On a slow phone the judge may pick the penalty before the form's script has run; the
    script's first proposal must not put it back to the proposed one (it once did)."""
    base = own_server
    tid, table, codes = seed(own_app)
    sign_in(page, base, tid, "Jo Floor", codes["judge"])
    page.route("**/static/penalties.js*", lambda route: route.abort())
    page.goto(f"{base}/tournaments/{tid}/penalties/new?game={table['game_id']}"
              f"&player={table['seats'][0]['player_id']}&infraction=game-rule-violation")
    expect(page.locator("#pf-penalty")).to_have_value("Caution")
    page.select_option("#pf-penalty", "Standings Adjustment")
    page.unroute("**/static/penalties.js*")
    # a module whose fetch failed stays failed under its address: the script again under another
    page.add_script_tag(url=f"{base}/static/penalties.js?again=1", type="module")
    expect(page.locator("#pen-form[data-ready]")).to_have_count(1)
    expect(page.locator("#pf-hj")).to_be_visible()  # the proposal for the judge's choice came
    expect(page.locator("#pf-penalty")).to_have_value("Standings Adjustment")
    expect(page.locator("#pf-deviation")).to_be_visible()
