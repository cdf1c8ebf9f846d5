"""Translations of what the tournament's code words itself: the head judge's reasons, a
proposal's sentences and errors, a Standings Adjustment's game and why, the " or " of a list
of names, the extension cap's sentence. A fake catalog words them; English is unchanged."""
from __future__ import annotations

import copy
from dataclasses import asdict

import pytest

from judgekit.game.clock import CAP_SENTENCE
from judgekit.i18n import Catalog, Message, Said
from judgekit.recorder import words
from judgekit.tournament import adjustments
from judgekit.tournament.penalties.catalog import load_catalogs
from judgekit.tournament.penalties.deviation import head_judge_reasons
from judgekit.tournament.penalties.escalation import propose
from tests.conftest import app_with_language

XX = {
    "penalties.hj-level": "XX-ein %(penalty)s geht zum Oberschiedsrichter (%(catalog)s: nur er gibt %(levels)s).",
    "penalties.hj-deviation": "XX-%(penalty)s statt %(proposed)s.",
    "penalties.or": "%(first)s XX-oder %(rest)s",
    "penalties.remedy": "XX-Abhilfe",
    "penalties.proposal-head": "XX-%(nth)s %(infraction)s hier",
    "penalties.proposal-default": "%(head)s: XX-Standard ist %(penalty)s.",
    "penalties.ordinal-1": "XX-Erste",
    "penalties.no-such-case": "XX-%(infraction)s kennt den Fall '%(variant)s' nicht (%(cases)s).",
    "clock.cap": "XX-Deckel %(cap)s Minuten (%(source)s).",
    "penalties.over-cap": "XX-Tisch %(table)s: %(total)s Minuten. %(cap)s",
    "adjust.next-game": "XX-gegeben %(given)s: nächstes Spiel von %(name)s",
    "adjust.after": "XX-nach %(round)s",
    "adjust.round": "XX-Runde %(n)s",
    "adjust.where": "%(round)s, XX-Tisch %(table)s",
}
xx = Catalog("xx", XX)


@pytest.fixture(scope="module")
def v2():
    return load_catalogs()["v2"]


def test_the_head_judges_reasons_are_worded_in_the_readers_language(v2):
    proposal = propose(v2, "marked cards", [])
    reasons = head_judge_reasons(v2, "Standings Adjustment", proposal)
    assert reasons == ["A Standings Adjustment must reach the head judge (v2: only the head judge issues "
                       "Standings Adjustment or Disqualification).",
                       "Standings Adjustment differs from the proposed Warning: the head judge approves the "
                       "deviation and its reason."]
    assert [r.code for r in reasons] == ["penalties.hj-level", "penalties.hj-deviation"]
    assert reasons[0].render(xx) == ("XX-ein Standings Adjustment geht zum Oberschiedsrichter (v2: nur er gibt "
                                     "Standings Adjustment XX-oder Disqualification).")
    # a record whose proposal was no penalty (a remedy only): "remedy" is a catalog word too
    assert head_judge_reasons(v2, "Caution", "")[-1].render(xx) == "XX-Caution statt XX-Abhilfe."


def test_a_proposals_sentence_and_error_are_worded_and_survive_copying(v2):
    proposal = propose(v2, "marked cards", [])
    assert proposal.reason == "First Marked Cards in this event: the default penalty is Warning."
    assert proposal.reason.render(xx) == "XX-XX-Erste Marked Cards hier: XX-Standard ist Warning."
    copied = asdict(proposal)["reason"]                      # to_dict() copies its fields
    assert isinstance(copied, Said) and copied.render(xx) == proposal.reason.render(xx)
    assert copy.deepcopy(proposal.reason) == proposal.reason
    bad = propose(v2, "marked cards", [], "zzz")
    assert bad.error == "Marked Cards has no case 'zzz' (cases: pattern)."
    assert bad.error.render(xx) == "XX-Marked Cards kennt den Fall 'zzz' nicht (pattern)."


def test_the_cap_sentence_is_english_as_text_and_worded_as_a_parameter():
    assert CAP_SENTENCE.startswith("Judges may cap a table's extensions at 10 minutes a round")
    over = Message("penalties.over-cap", "Table %(table)s would have %(total)s minutes of extensions this round. "
                   "%(cap)s", table=2, total=12, cap=CAP_SENTENCE)
    assert over.render(xx) == ("XX-Tisch 2: 12 Minuten. XX-Deckel 10 Minuten "
                               "(Tournament Conduct & Infraction Guide v2, §1.2.4).")
    assert over.render().endswith(str(CAP_SENTENCE))
    # the recorder words a finding's parameters with its translator, a Said one too
    finding = Message("recorder.finding.extensions-over-cap", "Extensions at this table now total %(minutes)s "
                      "minutes this round. %(cap)s", minutes=12, cap=CAP_SENTENCE)
    assert words.say(finding, xx.render).endswith("XX-Deckel 10 Minuten (Tournament Conduct & Infraction Guide v2, §1.2.4).")


def test_a_standings_adjustments_game_and_why_are_worded():
    target = adjustments.resolve(adjustments.Phase("next", 1), {1: 3, 2: 4}, name="Ana")
    assert (target.where, target.note) == ("round 2, table 4", "given after round 1: Ana's next game")
    assert target.where.render(xx) == "XX-Runde 2, XX-Tisch 4"
    assert target.note.render(xx) == "XX-gegeben XX-nach XX-Runde 1: nächstes Spiel von Ana"
    assert asdict(target)["note"].render(xx) == target.note.render(xx)


@pytest.fixture
def xx_app(tmp_path, template_db, shared_index):
    """An app whose catalogs folder has English and the fake language "xx"."""
    return app_with_language(tmp_path, template_db, shared_index, XX)


def test_the_proposal_and_the_over_cap_refusal_are_worded_end_to_end(xx_app):
    client = xx_app.test_client()
    r = client.post("/api/tournaments", json={"name": "Babel Cup"})
    tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
    ana = client.post(f"/api/tournaments/{tid}/players", headers=org,
                      json=[{"name": n, "vekn": str(700 + k)} for k, n in
                            enumerate(["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"])]).get_json()["players"][0]["id"]
    client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 3})
    url = f"/api/tournaments/{tid}/penalties/propose?player={ana}&infraction=marked+cards&penalty=Standings+Adjustment"
    got = client.get(url, headers={**org, "Accept-Language": "xx"}).get_json()
    english = client.get(url, headers=org).get_json()
    assert got["head_judge_reasons"][1] == "XX-Standings Adjustment statt Warning."
    assert got["proposal"]["reason"] == "XX-XX-Erste Marked Cards hier: XX-Standard ist Warning."
    assert english["head_judge_reasons"][1].startswith("Standings Adjustment differs from the proposed Warning")
    assert english["proposal"]["reason"] == "First Marked Cards in this event: the default penalty is Warning."
    extend = f"/api/tournaments/{tid}/rounds/1/tables/1/extend"
    assert client.post(extend, headers=org, json={"minutes": 8, "reason": "long ruling"}).status_code == 201
    refused = client.post(extend, headers={**org, "Accept-Language": "xx"}, json={"minutes": 3, "reason": "again"})
    assert refused.status_code == 409 and refused.get_json()["error"] == \
        "XX-Tisch 1: 11 Minuten. XX-Deckel 10 Minuten (Tournament Conduct & Infraction Guide v2, §1.2.4)."
    assert refused.get_json()["code"] == "penalties.over-cap"


def test_a_tables_vp_problems_are_worded_with_their_parts():
    from judgekit.tournament.scoring import check_table
    catalog = Catalog("xx", {"scoring.vp-lone-half": "XX-Sitz %(seat)s: einsames ½. %(offer)s",
                             "scoring.offer-one": "XX-Wenn %(seats)s aufgab: ankreuzen.",
                             "scoring.seat": "XX-Sitz %(seat)s", "scoring.vp-not-number": "XX-Sitz %(seat)s: '%(shown)s'?"})
    [lone] = check_table([2, 1, 0.5, 0])
    assert lone.message == ("seat 3 has a lone ½ VP: a single survivor at the time limit scores 1 VP, not ½. "
                            "If seat 3 withdrew, tick the withdrawal (W): that makes these numbers possible.")
    assert lone.message.render(catalog) == "XX-Sitz 3: einsames ½. XX-Wenn XX-Sitz 3 aufgab: ankreuzen."
    [bad] = check_table(["x", 0, 0, 0])
    assert (bad.code, bad.message.code, bad.message.render(catalog)) == ("vp-not-number", "scoring.vp-not-number",
                                                                           "XX-Sitz 1: 'x'?")
