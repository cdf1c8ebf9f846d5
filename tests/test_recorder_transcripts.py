"""Table transcripts (issue 11 §2, QA set): short situations from real games that the other
recorder tests do not already replay, each with what the announcement guidelines and the
tournament rules say the engine should find — decided before running them.

Each case: the events (seats Ann 1, Ben 2, Cid 3, Dee 4, Eve 5 unless `seats` says
otherwise; events numbered from 1), the findings expected as (seq, code, seat), and checks
of the state after the last event (`state`: dotted paths into `Engine.state()`), and of
the VP the tournament would derive from the recorded outcome (`vp`)."""
from __future__ import annotations

import pytest

from judgekit.game.outcome import derive_vp
from recorder_helpers import SEATS, ev, run, state

T = ev("turn.start", 1)
BLEED2 = ev("action.declare", 1, action="bleed", minion="Catalina Vega", amount=2)
DEFLECT_TO_CID = ev("action.redirect", 2, card="Deflection", minion="Gratiano", level="inferior",
                    target_seat=3)
# Ann bleeds Ben for 2; Ben passes on the block and deflects the bleed to Cid.
DEFLECTED = [T, BLEED2, ev("action.pass", 1), ev("block.pass", 2), DEFLECT_TO_CID]


def hunt(seat=1, minion="Modius"):
    return ev("action.declare", seat, action="hunt", minion=minion)


CASES: dict[str, dict] = {
    # --- a changed target -------------------------------------------------------------------
    # The new target blocks: a proper block, a full combat round, no press, the action ends
    # blocked. Nothing to report; the last action names Cid as target and blocker.
    "deflection-new-target-blocks-and-fights": dict(
        events=DEFLECTED + [ev("block.declare", 3, minion="Andi Liu"), ev("block.result", blocked=True),
                            ev("strike", 1, strike="hand strike", damage=1),
                            ev("strike", 3, strike="hand strike", damage=1),
                            ev("press", 1, press="none"), ev("press", 3, press="none"),
                            ev("combat.step", step="end"), ev("action.result", outcome="blocked")],
        findings=[],
        state={"last_action.target_seat": 3, "last_action.blocker": 3,
               "last_action.blocker_minion": "Andi Liu", "last_action.outcome": "blocked",
               "combat": None}),
    # The new target passes; the old target (no longer the target) then tries to block:
    # only the target may block a directed action (action declaration).
    "deflection-old-target-blocks-after-new-target-passed": dict(
        events=DEFLECTED + [ev("block.pass", 3), ev("block.declare", 2, minion="Gratiano")],
        findings=[(7, "block-not-eligible", 2)],
        message={7: ["Ben (seat 2)", "Cid (seat 3)"]}),
    # The old target repeats "no block" after the new target passed: a redundant word, not a
    # breach; the bleed then succeeds against Cid.
    "deflection-old-target-repeats-no-block": dict(
        events=DEFLECTED + [ev("block.pass", 3), ev("block.pass", 2),
                            ev("action.result", outcome="success", amount=2)],
        findings=[],
        state={"last_action.target_seat": 3, "last_action.outcome": "success"}),
    # The new target deflects the bleed onward without first passing on the block: the
    # forbidden shortcut of example 3 again, on Cid this time; the bleed now aims at Dee.
    "deflection-new-target-deflects-without-passing": dict(
        events=DEFLECTED + [ev("action.redirect", 3, card="Deflection", minion="Alexa Draper",
                               level="inferior", target_seat=4),
                            ev("block.pass", 4), ev("action.result", outcome="success", amount=2)],
        findings=[(6, "block-pass-missing", 3)],
        state={"last_action.target_seat": 4}),
    # The acting player's predator plays nothing; the new target's missing pass is reported
    # on Cid even when it is the old target who then says the bleed goes through.
    "deflection-bleed-resolves-without-new-target": dict(
        events=DEFLECTED + [ev("block.pass", 2), ev("action.result", outcome="success", amount=2)],
        findings=[(7, "block-pass-missing", 3)]),

    # --- referendums ------------------------------------------------------------------------
    # Cid controls two princes (Modius, Mkhokheli) and splits them, naming each vampire:
    # allowed (votes, example 2). Tally: 2 (Ann's Anson) + 2 for, 2 against.
    "referendum-split-votes-two-princes": dict(
        events=[T, ev("minion.in", 3, minion="Modius"), ev("minion.in", 3, minion="Mkhokheli"),
                ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
                   terms="2 on Ben, 2 on Dee"),
                ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                ev("action.result", outcome="success"), ev("referendum.terms", 1, terms="as announced"),
                ev("vote", 1, votes=2, side="for"),
                ev("vote", 3, votes=2, side="against", vampire="Modius"),
                ev("vote", 3, votes=2, side="for", vampire="Mkhokheli"),
                ev("referendum.result", passed=True)],
        findings=[],
        state={"last_action.referendum": "passed", "last_action.votes.for": 4,
               "last_action.votes.against": 2}),
    # Same seat says only "2 votes against": it commits half its votes without naming the
    # vampire (votes, example 2).
    "referendum-half-votes-no-vampire": dict(
        events=[T, ev("minion.in", 3, minion="Modius"), ev("minion.in", 3, minion="Mkhokheli"),
                ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
                   terms="2 on Ben, 2 on Dee"),
                ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                ev("action.result", outcome="success"), ev("referendum.terms", 1),
                ev("vote", 3, votes=2, side="against")],
        findings=[(10, "vote-vampire-missing", 3)]),
    # The prey's block attempt fails (the action had stealth); the predator must still pass;
    # the action succeeds and the referendum follows. Clean.
    "political-failed-block-then-predator-passes": dict(
        events=[T, ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
                      terms="4 on Ben"),
                ev("action.pass", 1), ev("block.declare", 2, minion="Carlton Van Wyk"),
                ev("block.result", blocked=False), ev("block.pass", 5),
                ev("action.result", outcome="success"), ev("referendum.terms", 1),
                ev("vote", 1, votes=2, side="for"), ev("referendum.result", passed=True)],
        findings=[]),
    # ... and without the predator's pass the success is the forbidden shortcut on Eve.
    "political-failed-block-predator-silent": dict(
        events=[T, ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
                      terms="4 on Ben"),
                ev("action.pass", 1), ev("block.declare", 2, minion="Carlton Van Wyk"),
                ev("block.result", blocked=False), ev("action.result", outcome="success")],
        findings=[(6, "block-pass-missing", 5)]),

    # --- time -------------------------------------------------------------------------------
    # Time is called during a combat: the game ends with the current minion action, so a
    # second combat round is still part of it; the next action is beyond the end.
    "time-call-mid-combat-ends-with-the-action": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=True), ev("time.call"),
                ev("strike", 1, strike="hand strike", damage=1), ev("strike", 2, strike="hand strike", damage=1),
                ev("press", 1, press="continue"),
                ev("strike", 1, strike="hand strike", damage=1), ev("strike", 2, strike="hand strike", damage=1),
                ev("press", 1, press="none"), ev("press", 2, press="none"),
                ev("combat.step", step="end"), ev("action.result", outcome="blocked"),
                hunt(1, "Alice Chen")],
        findings=[(16, "time-over", 1)],
        state={"game_over.reason": "time"}),
    # Time is called in the master phase: the game ends at the end of the master phase, so
    # declaring an action is beyond it. Every survivor gets ½ VP.
    "time-call-in-master-phase": dict(
        events=[T, ev("phase", 1, phase="master"), ev("time.call"),
                ev("card.play", 1, card="The Barrens"), ev("card.replace", 1), hunt()],
        findings=[(6, "time-over", 1)],
        state={"game_over.reason": "time"},
        vp=[0.5] * 5),
    # Time is called during a referendum: the political action is the action in progress;
    # its votes are part of it. The game ends when the referendum is decided.
    "time-call-during-referendum": dict(
        events=[T, ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
                      terms="4 on Ben"),
                ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                ev("action.result", outcome="success"), ev("time.call"), ev("referendum.terms", 1),
                ev("vote", 1, votes=2, side="for"), ev("vote", 2, votes=2, side="against"),
                ev("vote", 3, votes=1, side="for"), ev("referendum.result", passed=True)],
        findings=[],
        state={"game_over.reason": "time", "game_over.stored": False}),
    # A game with an oust, then time: Ann 1 + ½, the other survivors ½, Ben 0.
    "oust-then-time-vp": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=3),
                ev("action.pass", 1), ev("block.pass", 2), ev("action.result", outcome="success", amount=3),
                ev("oust", 2), ev("time.call")],
        findings=[],
        state={"game_over.reason": "time"},
        vp=[1.5, 0, 0.5, 0.5, 0.5]),

    # --- ousts and the cross-table ------------------------------------------------------------
    # Ann ousts Ben with a bleed; in the same turn her next hunt is blocked by her new prey
    # Cid, and Dee (still cross-table) may not block.
    "oust-during-bleed-then-new-prey": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=3),
                ev("action.pass", 1), ev("block.pass", 2), ev("action.result", outcome="success", amount=3),
                ev("oust", 2), hunt(1, "Alice Chen"), ev("action.pass", 1),
                ev("block.declare", 4, minion="Andi Liu")],
        findings=[(9, "block-not-eligible", 4)],
        state={"seats.0.prey": 3, "seats.0.predator": 5, "seats.2.predator": 1,
               "action.eligible": [3, 5]},
        message={9: ["Dee (seat 4)", "Cid (seat 3)", "Eve (seat 5)"]}),
    # Ann's second bleed of the turn, after ousting Ben, goes to Cid without naming him.
    "oust-then-second-bleed-targets-new-prey": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=3),
                ev("action.pass", 1), ev("block.pass", 2), ev("action.result", outcome="success", amount=3),
                ev("oust", 2), ev("action.declare", 1, action="bleed", minion="Alice Chen", amount=1),
                ev("action.pass", 1), ev("block.pass", 3), ev("action.result", outcome="success", amount=1)],
        findings=[],
        state={"last_action.target_seat": 3},
        vp=None),
    # Ben is ousted while the bleed is still open (before its result): the action goes on,
    # and Ann still gets the VP.
    "oust-recorded-before-the-result": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=3),
                ev("action.pass", 1), ev("block.pass", 2), ev("oust", 2),
                ev("action.result", outcome="success", amount=3), ev("turn.end", 1), ev("turn.start", 3)],
        findings=[],
        state={"turn.seat": 3, "seats.2.predator": 1},
        vp=None),
    # The acting player is ousted during her own turn (by a reaction's damage to pool): her
    # turn is over; her prey starts his turn, no end of turn is owed by someone who is out.
    "acting-player-ousted-next-starts": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                ev("action.pass", 1), ev("block.pass", 2), ev("oust", 1), ev("turn.start", 2),
                ev("action.declare", 2, action="bleed", minion="Anson", amount=1), ev("action.pass", 2),
                ev("block.pass", 3), ev("action.result", outcome="success", amount=1)],
        findings=[],
        state={"turn.seat": 2, "seats.1.predator": 5, "seats.4.prey": 2},
        vp=[0, 0, 0, 0, 1]),
    # Dee withdraws in her unlock phase: her turn ends with it; Eve goes on. Dee scores ½.
    "withdrawal-in-unlock-then-next-turn": dict(
        events=[ev("sync", 4, phase="unlock", turn=9), ev("withdraw", 4), ev("turn.start", 5),
                hunt(5, "Anson"), ev("action.pass", 5), ev("block.pass", 1), ev("block.pass", 3),
                ev("action.result", outcome="success")],
        findings=[],
        state={"turn.seat": 5, "seats.2.prey": 5, "seats.4.predator": 3},
        vp=[0, 0, 0, 0.5, 0]),
    # Every other player concedes to Ann: recorded as Ann ousting them in sequence (3.5):
    # 4 VP for the ousts and 1 for being the last one left.
    "concession-all-but-one": dict(
        events=[T, ev("concede", 2), ev("concede", 3), ev("concede", 4), ev("concede", 5)],
        findings=[],
        state={"game_over.reason": "concession", "finished": True},
        vp=[5, 0, 0, 0, 0]),

    # --- turns --------------------------------------------------------------------------------
    # A four-seat table: seat 4's prey is seat 1 (wrapping round). Seat 1 declaring a hunt
    # before seat 4 said "end of turn" is end-of-turn-missing on seat 4.
    "four-seats-wraparound-end-of-turn-missing": dict(
        seats=["Ann", "Ben", "Cid", "Dee"],
        events=[ev("turn.start", 4), ev("phase", 4, phase="discard"), ev("discard", 4), hunt(1)],
        findings=[(4, "end-of-turn-missing", 4)],
        state={"turn.seat": 1}),

    # --- "Wait!" ------------------------------------------------------------------------------
    # The target says "wait" while thinking, then passes: holding the window voids nothing
    # and the bleed proceeds normally.
    "wait-in-the-block-window-then-pass": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                ev("action.pass", 1), ev("interrupt", 2, text="wait, let me think"), ev("block.pass", 2),
                ev("action.result", outcome="success", amount=1)],
        findings=[]),
    # Combat ended "no press – no press"; Ann announces her next hunt; Ben: "wait, before your
    # next action" (after-action window): the shortcut is voided and the hunt does not bind;
    # Ann may take another action instead.
    "wait-after-combat-before-next-action": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"), ev("block.result", blocked=True),
                ev("strike", 1, strike="hand strike", damage=1), ev("strike", 2, strike="hand strike", damage=1),
                ev("press", 1, press="none"), ev("press", 2, press="none"), hunt(1, "Alice Chen"),
                ev("interrupt", 2, window="after-action"),
                ev("action.declare", 1, action="bleed", minion="Alexa Draper", amount=1)],
        findings=[(11, "shortcut-voided", 2)]),

    # --- corrections ----------------------------------------------------------------------------
    # The judge recorded Cid's block by mistake; it was Ben's: an amend of the seat removes
    # the finding.
    "amend-the-blocking-seat": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                ev("action.pass", 1), ev("block.declare", 3, minion="Andi Liu"),
                ev("amend", target=4, fields={"seat": 2}), ev("block.result", blocked=True)],
        findings=[],
        state={"action.blocker": 2}),
    # An oust recorded in error and taken back: Ben is in the game again, still Ann's prey.
    "retract-a-wrong-oust": dict(
        events=[T, ev("oust", 2), ev("retract", target=2, reason="wrong seat"), ev("oust", 3), hunt(),
                ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                ev("action.result", outcome="success")],
        findings=[],
        state={"seats.0.prey": 2, "seats.1.prey": 4, "seats.1.out": None, "seats.2.out": "oust"},
        vp=[0, 1, 0, 0, 0]),
    # A bleed recorded without its amount, then the amount corrected: the finding stays on the
    # line? No — the corrected event is what was declared ("bleed for one" was said, the judge
    # missed it): the amend replaces the record, the finding goes.
    "amend-adds-the-missed-bleed-amount": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius"),
                ev("amend", target=2, fields={"amount": 1}), ev("action.pass", 1), ev("block.pass", 2),
                ev("action.result", outcome="success", amount=1)],
        findings=[]),

    # --- second batch -------------------------------------------------------------------------
    # The Deflection was recorded by mistake (it was never played): taken back, the bleed is
    # Ben's again; Ben already passed, so it succeeds cleanly against him.
    "retract-a-redirect-recorded-in-error": dict(
        events=DEFLECTED + [ev("retract", target=5, reason="not played"),
                            ev("action.result", outcome="success", amount=2)],
        findings=[],
        state={"last_action.target_seat": 2, "last_action.redirects": []}),
    # The judge picked the wrong new target: amended from Cid to Dee, Dee's pass is expected
    # (Cid's pass no longer answers anything).
    "amend-the-redirect-target": dict(
        events=DEFLECTED + [ev("block.pass", 3), ev("amend", target=5, fields={"target_seat": 4}),
                            ev("action.result", outcome="success", amount=2)],
        findings=[(8, "block-pass-missing", 4)]),
    # A bleed deflected to Cid ousts him: the VP is Ben's, Cid's predator, not Ann's.
    "deflected-bleed-ousts-the-new-target": dict(
        events=DEFLECTED + [ev("block.pass", 3), ev("action.result", outcome="success", amount=2),
                            ev("oust", 3)],
        findings=[],
        state={"seats.1.prey": 4, "seats.0.prey": 2},
        vp=[0, 1, 0, 0, 0]),
    # The new target's block attempt fails (stealth): the bleed goes through; Cid's answer
    # reads "block failed".
    "deflection-new-target-block-fails": dict(
        events=DEFLECTED + [ev("block.declare", 3, minion="Andi Liu"), ev("block.result", blocked=False),
                            ev("action.result", outcome="success", amount=2)],
        findings=[],
        state={"last_action.answers": {"2": "no block", "3": "block failed"}}),
    # An action card aimed at Cid's vampire is directed at Cid: only Cid may block, and Ben
    # (Ann's prey) may not (action declaration).
    "directed-action-card-at-cross-table": dict(
        events=[T, ev("action.declare", 1, action="other", minion="Modius", target_seat=3,
                      target="Andi Liu", text="steal a location"),
                ev("action.pass", 1), ev("block.declare", 2, minion="Anson")],
        findings=[(4, "block-not-eligible", 2)],
        state={"action.eligible": [3]}),
    # Time is called after Ann's end of turn: the game ended with her turn; Ben starting his
    # is beyond the end.
    "time-call-between-turns": dict(
        events=[T, ev("turn.end", 1), ev("time.call"), ev("turn.start", 2)],
        findings=[(4, "time-over", 2)],
        state={"game_over.reason": "time"}),
    # Time called in the discard phase: Ann ends her turn (the phase ends): the game is over
    # there, every survivor ½ VP.
    "time-call-in-discard-phase-then-end-of-turn": dict(
        events=[T, ev("phase", 1, phase="discard"), ev("time.call"), ev("discard", 1), ev("turn.end", 1)],
        findings=[],
        state={"game_over.reason": "time", "game_over.stored": False},
        vp=[0.5] * 5),
    # An intentional draw scores like the time limit (3.6).
    "intentional-draw-vp": dict(
        events=[T, ev("oust", 2), ev("draw.intentional")],
        findings=[],
        state={"game_over.reason": "draw", "finished": True},
        vp=[1.5, 0, 0.5, 0.5, 0.5]),
    # Recording starts mid-game: Cid's turn, Dee already ousted. Cid's bleed goes to Eve
    # without naming her; Eve is the one who answers.
    "sync-with-an-ousted-seat-then-bleed": dict(
        events=[ev("sync", 3, phase="minion", turn=12, ousted=[4]),
                ev("action.declare", 3, action="bleed", minion="Anson", amount=1), ev("action.pass", 3),
                ev("block.pass", 5), ev("action.result", outcome="success", amount=1)],
        findings=[],
        state={"last_action.target_seat": 5, "seats.2.prey": 5, "seats.4.predator": 3}),
    # "Wait" after the Govern was replaced; Ann plays Seduction anyway before Cid decides:
    # the window was claimed in time, so Cid's Direct Intervention on the Govern is not late.
    "wait-claimed-then-acting-player-plays-on": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Gratiano", amount=2,
                      card="Govern the Unaligned", level="inferior"),
                ev("card.replace", 1), ev("interrupt", 3, text="wait"),
                ev("card.play", 1, card="Seduction", minion="Gratiano", level="superior", target="Andi Liu"),
                ev("cancel", 3, card="Direct Intervention", target_card="Govern the Unaligned")],
        findings=[]),

    # --- third batch ----------------------------------------------------------------------------
    # Ben blocked the bleed; in combat, a "redirect" is recorded for him (a mis-tap, or a
    # Deflection played too late): a blocked action has no block opportunity left to move,
    # so the target and the combatants stay as they are.
    "redirect-after-the-block-changes-nothing": dict(
        events=[T, BLEED2, ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=True), ev("action.redirect", 2, target_seat=3)],
        findings=[],
        state={"action.target_seat": 2, "action.blocker": 2, "combat.blocker": 2}),
    # A hunt is undirected: nothing to redirect; the predator's pass is still expected.
    "redirect-of-a-hunt-changes-nothing": dict(
        events=[T, hunt(), ev("action.pass", 1), ev("block.pass", 2), ev("action.redirect", 2, target_seat=3),
                ev("action.result", outcome="success")],
        findings=[(6, "block-pass-missing", 5)],
        state={"last_action.target_seat": None}),
    # Ben's block succeeded; Eve (the predator) then also "blocks": an action is blocked
    # once; Ben stays the blocker.
    "second-block-after-a-successful-block": dict(
        events=[T, hunt(), ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=True), ev("block.declare", 5, minion="Anson")],
        findings=[(6, "block-not-eligible", 5)],
        state={"action.blocker": 2, "action.attempting": None,
               "action.answers": {"2": "blocked"}},
        message={6: ["Eve (seat 5)", "Ben (seat 2)", "already blocked"]}),
    # Cid was ousted earlier; a vote recorded for him does not count.
    "vote-of-an-ousted-seat-does-not-count": dict(
        events=[T, ev("oust", 3), ev("action.declare", 1, action="political", minion="Anson",
                                    card="Kine Resources Contested", terms="4 on Ben"),
                ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                ev("action.result", outcome="success"), ev("referendum.terms", 1),
                ev("vote", 1, votes=2, side="for"), ev("vote", 3, votes=2, side="against")],
        findings=[],
        state={"action.votes.for": 2, "action.votes.against": 0, "action.votes.seats": [1]}),

    # --- fourth batch ---------------------------------------------------------------------------
    # Time is called during Ann's bleed for 3; the bleed ousts Ben. The game ends with that
    # action, and the oust is part of it: Ann 1 + ½, Ben 0 (3.1.1, 3.7.2).
    "time-call-during-the-bleed-that-ousts": dict(
        events=[T, ev("action.declare", 1, action="bleed", minion="Modius", amount=3), ev("time.call"),
                ev("action.pass", 1), ev("block.pass", 2), ev("action.result", outcome="success", amount=3),
                ev("oust", 2)],
        findings=[],
        state={"game_over.reason": "time"},
        vp=[1.5, 0, 0.5, 0.5, 0.5]),
    # ... but an oust after play went on beyond the end point (a further action) does not
    # count: the game had ended.
    "oust-after-play-beyond-the-time-call": dict(
        events=[T, ev("time.call"), ev("action.declare", 1, action="bleed", minion="Modius", amount=3),
                ev("action.pass", 1), ev("block.pass", 2), ev("action.result", outcome="success", amount=3),
                ev("oust", 2)],
        findings=[(3, "time-over", 1)],
        vp=[0.5] * 5),
    # Ben was ousted; after Ann's end of turn the judge taps "start" for Ben by mistake, then
    # Cid starts: Ben takes no turn (not-your-turn on him), and Cid's start is the next turn.
    "ousted-seat-start-tapped-by-mistake": dict(
        events=[T, ev("oust", 2), ev("turn.end", 1), ev("turn.start", 2), ev("turn.start", 3)],
        findings=[(4, "not-your-turn", 2)],
        state={"turn.seat": 3, "turn.number": 2},
        message={4: ["Ben (seat 2)", "ousted"]}),
    # Ben's vote was recorded "for"; he said "against": amended, the tally follows.
    "amend-a-vote-side": dict(
        events=[T, ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
                      terms="4 on Cid"),
                ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                ev("action.result", outcome="success"), ev("referendum.terms", 1),
                ev("vote", 1, votes=2, side="for"), ev("vote", 2, votes=3, side="for", vampire="Gratiano"),
                ev("amend", target=9, fields={"side": "against"})],
        findings=[],
        state={"action.votes.for": 2, "action.votes.against": 3}),
    # A vote tapped for the wrong seat is taken back and recorded for the right one.
    "retract-a-vote-and-vote-again": dict(
        events=[T, ev("action.declare", 1, action="political", minion="Anson", card="Kine Resources Contested",
                      terms="4 on Cid"),
                ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5),
                ev("action.result", outcome="success"), ev("referendum.terms", 1),
                ev("vote", 4, votes=2, side="against"), ev("retract", target=8, reason="wrong seat"),
                ev("vote", 3, votes=2, side="against")],
        findings=[],
        state={"action.votes.seats": [3], "action.votes.against": 2}),

    # --- issue 31: table situations the checks got wrong ----------------------------------------
    # The prey's block attempt fails; the predator blocks before the prey said "no block": a
    # failed attempt is not a pass (the prey may still try with another minion), so the
    # predator is still out of order (forbidden shortcuts).
    "failed-block-is-not-a-pass-predator-blocks": dict(
        events=[T, hunt(), ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=False), ev("block.declare", 5, minion="Anson")],
        findings=[(6, "block-out-of-order", 5)],
        message={6: ["Eve (seat 5)", "Ben (seat 2)", "not a pass"]}),
    # ... the same with a card played on the action by the predator before the prey passed.
    "failed-block-is-not-a-pass-predator-reacts": dict(
        events=[T, hunt(), ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=False), ev("reaction", 5, card="On the Qui Vive")],
        findings=[(6, "block-out-of-order", 5)]),
    # After the failed attempt the prey tries again with another minion, which blocks: in
    # order, nothing to report; the second minion is the blocker.
    "failed-block-then-the-prey-tries-another-minion": dict(
        events=[T, hunt(), ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=False), ev("block.declare", 2, minion="Gratiano"),
                ev("block.result", blocked=True)],
        findings=[],
        state={"action.blocker": 2, "action.blocker_minion": "Gratiano"}),
    # After the failed attempt the prey says "no block"; then the predator's block is in order.
    "failed-block-prey-passes-then-predator-blocks": dict(
        events=[T, hunt(), ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=False), ev("block.pass", 2),
                ev("block.declare", 5, minion="Anson"), ev("block.result", blocked=True)],
        findings=[],
        state={"action.blocker": 5}),
    # Combat: Ann shortcuts to her hand strike; Ben declares his own strike, then "wait, at
    # range I maneuver": his own strike let the range step go: too late (shortcuts).
    "own-strike-then-wait-at-range-is-too-late": dict(
        events=[T, BLEED2, ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=True), ev("strike", 1, strike="hand strike", damage=1),
                ev("strike", 2, strike="hand strike", damage=1),
                ev("interrupt", 2, window="range", text="wait, at range I maneuver")],
        findings=[(8, "interrupt-too-late", 2)],
        message={8: ["Ben (seat 2)", "their own strike (event 7)"]}),
    # ... while the same "wait" said right after Ann's strike (before his own) is in time: the
    # shortcut is voided and the combat goes back to range.
    "wait-at-range-before-own-strike-is-in-time": dict(
        events=[T, BLEED2, ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=True), ev("strike", 1, strike="hand strike", damage=1),
                ev("interrupt", 2, window="range", text="wait, at range I maneuver")],
        findings=[(7, "shortcut-voided", 2)]),
    # Even after a "nothing until strikes" (a shortcut, not a play), a player who declared
    # their own strike has let the range step go.
    "shortcut-to-strike-own-strike-then-range": dict(
        events=[T, BLEED2, ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=True), ev("shortcut", 1, to="strike"),
                ev("strike", 2, strike="hand strike", damage=1),
                ev("card.play", 2, card="Flash", window="range")],
        findings=[(8, "interrupt-too-late", 2)]),
    # A press to continue opens a new round: range is open again for everyone.
    "new-round-after-press-opens-range-again": dict(
        events=[T, BLEED2, ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
                ev("block.result", blocked=True), ev("strike", 1, strike="hand strike", damage=1),
                ev("strike", 2, strike="hand strike", damage=1), ev("press", 1, press="continue"),
                ev("card.play", 2, card="Flash", window="range"), ev("card.replace", 2)],
        findings=[]),
    # Ann locks Modius and asks "any blocks?" with no action named: locking is not a
    # declaration (action declaration). Ben's "no block" afterwards adds nothing.
    "locked-without-an-action-then-any-blocks": dict(
        events=[T, ev("minion.lock", 1, minion="Modius"), ev("action.pass", 1), ev("block.pass", 2)],
        findings=[(3, "action-not-announced", 1)],
        message={3: ["Ann (seat 1)", "Modius", "event 2", "not a declaration"]},
        state={"seats.0.minions.0.name": "Modius"}),
    # Locked, then the bleed is announced: a declaration in two steps, nothing to report.
    "locked-then-the-action-announced": dict(
        events=[T, ev("minion.lock", 1, minion="Modius"),
                ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
                ev("action.pass", 1), ev("block.pass", 2),
                ev("action.result", outcome="success", amount=1)],
        findings=[]),
    # Locked with no word, and the prey answers "no block": the action was never announced.
    "locked-then-the-prey-answers": dict(
        events=[T, ev("minion.lock", 1, minion="Modius"), ev("block.pass", 2), ev("block.pass", 5),
                ev("action.result", outcome="success")],
        findings=[(3, "action-not-announced", 1)]),
    # Locked, then the player moves on to the influence phase: no action was taken.
    "locked-then-moved-on": dict(
        events=[T, ev("minion.lock", 1, minion="Modius"), ev("phase", 1, phase="influence"),
                ev("transfer", 1, amount=2)],
        findings=[]),
}


def resolve(st, path):
    cur = st
    for part in path.split("."):
        if isinstance(cur, list):
            cur = cur[int(part)]
        elif isinstance(cur, dict):
            cur = cur.get(part)
        else:
            return ("<missing>", path)
    return cur


def numbered(events):
    return events


@pytest.mark.parametrize("name", list(CASES))
def test_transcript(name):
    case = CASES[name]
    seats = case.get("seats", SEATS)
    found = run(case["events"], seats)
    assert [(f["seq"], f["code"], f["seat"]) for f in found] == case["findings"], found
    for seq, parts in case.get("message", {}).items():
        msg = next(f["message"] for f in found if f["seq"] == seq)
        for part in parts:
            assert part in msg, msg
    if "state" in case or case.get("vp"):
        st = state(case["events"], seats)
        for path, want in case.get("state", {}).items():
            assert resolve(st, path) == want, (path, resolve(st, path))
        if case.get("vp"):
            result = derive_vp(len(seats), st["outcome"])
            assert result.vps == case["vp"], (result.vps, result.errors)


# --- regressions found by the transcripts -----------------------------------------------------

@pytest.mark.parametrize("leave, words", [("oust", "was ousted"), ("withdraw", "withdrew")])
def test_the_player_whose_turn_it_is_leaving_ends_their_turn(leave, words):
    # was: the next seat starting its turn was end-of-turn-missing on a player out of the game
    events = [T, ev("action.declare", 1, action="bleed", minion="Modius", amount=1),
              ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
              ev("block.result", blocked=True), ev(leave, 1)]
    st = state(events)
    assert st["turn"]["ended"] and st["action"] is None and st["combat"] is None
    assert st["status"] == f"Ann {words}; next: Ben"
    assert st["next"][0]["event"] == {"type": "turn.start", "seat": 2}
    assert [f["code"] for f in run(events + [ev("turn.start", 2)])] == []
    assert [f["code"] for f in run(events + [ev("phase", 2, phase="master")])] == []
    # someone else than the next seat is still not-your-turn
    assert [f["code"] for f in run(events + [ev("phase", 3, phase="master")])] == ["not-your-turn"]


def test_a_wait_holds_the_cancellation_window_for_the_seat_that_said_it():
    # was: cancel-too-late, though Cid said "wait" before the next card was announced
    govern = ev("action.declare", 1, action="bleed", minion="Gratiano", amount=2,
                card="Govern the Unaligned", level="inferior")
    seduction = ev("card.play", 1, card="Seduction", minion="Gratiano", level="superior", target="Andi Liu")
    cancel = ev("cancel", 3, card="Direct Intervention", target_card="Govern the Unaligned")
    base = [T, govern, ev("card.replace", 1)]
    assert [f["code"] for f in run(base + [ev("interrupt", 3), seduction, cancel])] == []
    # no wait, a wait said after the next card, or someone else's wait: too late, as before
    assert [f["code"] for f in run(base + [seduction, cancel])] == ["cancel-too-late"]
    assert [f["code"] for f in run(base + [seduction, ev("interrupt", 3), cancel])] == ["cancel-too-late"]
    assert [f["code"] for f in run(base + [ev("interrupt", 4), seduction, cancel])] == ["cancel-too-late"]
    # the wait lasts until that seat's own next play
    later = base + [ev("interrupt", 3), ev("card.play", 3, card="The Barrens", window="master"),
                    ev("card.replace", 3), seduction, cancel]
    assert "cancel-too-late" in [f["code"] for f in run(later)]


def test_a_redirect_moves_only_an_unblocked_directed_action():
    # was: a redirect recorded in combat, or on a hunt, changed the target and the blockers
    blocked = [T, BLEED2, ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
               ev("block.result", blocked=True), ev("action.redirect", 2, target_seat=3)]
    st = state(blocked)
    assert (st["action"]["target_seat"], st["action"]["eligible"], st["action"]["redirects"]) == (2, [2], [])
    hunted = [T, hunt(), ev("action.pass", 1), ev("block.pass", 2), ev("action.redirect", 2, target_seat=3)]
    st = state(hunted)
    assert st["action"]["eligible"] == [2, 5] and not st["action"]["directed"]
    # the directed, unblocked bleed still moves
    assert state(DEFLECTED)["action"]["target_seat"] == 3


def test_a_second_block_of_a_blocked_action_is_not_eligible():
    # was: no finding, and the late blocker replaced the real one as "blocking"
    events = [T, hunt(), ev("action.pass", 1), ev("block.declare", 2, minion="Andi Liu"),
              ev("block.result", blocked=True), ev("block.declare", 5, minion="Anson")]
    found = run(events)
    assert [(f["code"], f["seat"]) for f in found] == [("block-not-eligible", 5)]
    assert found[0]["message"] == ("Eve (seat 5) tries to block, but the action is already blocked "
                                   "by Ben (seat 2): an action is blocked once.")
    assert state(events)["action"]["answers"] == {"2": "blocked"}


def test_a_vote_by_a_seat_out_of_the_game_is_not_counted_and_is_refused(client):
    # was: counted in the referendum's totals
    events = CASES["vote-of-an-ousted-seat-does-not-count"]["events"]
    assert state(events)["action"]["votes"]["against"] == 0
    gid = client.post("/api/games", json={"seats": SEATS}).get_json()["id"]
    assert client.post(f"/api/games/{gid}/events", json=events[:-1]).status_code == 201
    before = len(client.get(f"/api/games/{gid}").get_json()["events"])
    r = client.post(f"/api/games/{gid}/events", json=events[-1])
    body = r.get_json()
    assert r.status_code == 422 and body["field"] == "seat" and "Cid (seat 3)" in body["message"]
    assert set(body) >= {"error", "status", "field"}
    assert len(client.get(f"/api/games/{gid}").get_json()["events"]) == before
    # a seat still in the game votes as before
    assert client.post(f"/api/games/{gid}/events", json=ev("vote", 2, votes=0, side="against")).status_code == 201


def test_the_time_out_stands_where_the_game_ended():
    # was: the time-out was placed at the time call, so an oust by the last action (recorded
    # after the call) came "after the end" and was not scored
    events = CASES["time-call-during-the-bleed-that-ousts"]["events"]
    assert [o["type"] for o in state(events)["outcome"]] == ["oust", "time-out"]
    stored = events + [ev("game.end", reason="time")]
    assert state(stored)["outcome"] == [{"type": "oust", "seat": 2, "seq": 7}, {"type": "time-out", "seq": 8}]
    # play beyond the end: the time-out is at the first such play
    beyond = CASES["oust-after-play-beyond-the-time-call"]["events"]
    assert state(beyond)["outcome"] == [{"type": "time-out", "seq": 3}, {"type": "oust", "seat": 2, "seq": 7}]


def test_a_seat_out_of_the_game_takes_no_turn():
    # was: the ousted seat's start was accepted and its actions checked as its turn
    events = [T, ev("oust", 2), ev("turn.end", 1), ev("turn.start", 2),
              ev("action.declare", 2, action="bleed", minion="Anson", amount=1)]
    found = run(events)
    assert [(f["code"], f["seat"]) for f in found] == [("not-your-turn", 2), ("not-your-turn", 2)]
    assert found[0]["message"] == ("Ben (seat 2) starts a turn, but was ousted: a player out of "
                                   "the game takes no turn.")
    st = state(events)
    assert st["turn"]["seat"] == 1 and st["turn"]["ended"] and st["action"] is None
    assert st["next"][0]["event"] == {"type": "turn.start", "seat": 3}
    assert "Anson" not in [m["name"] for m in st["seats"][1]["minions"]]
